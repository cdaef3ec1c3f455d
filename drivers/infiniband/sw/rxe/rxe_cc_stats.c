// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: counters. The framework's device counters are rxe hw counters
 * (rdma statistic); per-QP congestion control state shows in the restrack
 * QP view (rdma resource show qp -dd).
 */

#include <rdma/rdma_netlink.h>

#include "rxe.h"
#include "rxe_cc_int.h"

static const enum rxe_counters rxe_cc_stat_ids[] = {
	RXE_CNT_CC_CNP_SENT,
	RXE_CNT_CC_CNP_RCVD,
	RXE_CNT_CC_CNP_IGNORED,
	RXE_CNT_CC_ECN_CE_RCVD,
	RXE_CNT_CC_PACER_WAITS,
	RXE_CNT_CC_PACER_UNUSED_US,
	RXE_CNT_CC_RATE_DEC,
	RXE_CNT_CC_RATE_INC,
	RXE_CNT_PFC_PAUSE_RCVD,
	RXE_CNT_PFC_RESUME_RCVD,
	RXE_CNT_PFC_IGNORED,
	RXE_CNT_PFC_WAITS,
	RXE_CNT_PFC_PAUSED_US,
	RXE_CNT_CC_INT_REQ_TX,
	RXE_CNT_CC_INT_ACK_TX,
	RXE_CNT_CC_INT_RX,
	RXE_CNT_CC_INT_BAD,
	RXE_CNT_CC_BTS_RCVD,
	RXE_CNT_CC_BTS_BAD,
	RXE_CNT_CC_BTS_NO_QP,
	RXE_CNT_CC_BTS_IGNORED,
	RXE_CNT_CC_BTS_CLAMPED,
	RXE_CNT_CC_BTS_CAPPED,
	RXE_CNT_CC_FRP_SENT,
	RXE_CNT_CC_FRP_ECHOED,
	RXE_CNT_CC_FRP_RCVD,
	RXE_CNT_CC_FRP_STOPS,
	RXE_CNT_CC_FRP_BAD,
	RXE_CNT_CC_FRP_IGNORED,
	RXE_CNT_CC_FRP_WITHHELD,
	RXE_CNT_CC_TCD_RX,
	RXE_CNT_CC_TCD_ECHO_TX,
	RXE_CNT_CC_TCD_BAD,
	RXE_CNT_CC_PCN_INC_SENT,
	RXE_CNT_CC_PCN_INC_RCVD,
	RXE_CNT_CC_PCN_INC_IGNORED,
	RXE_CNT_CC_PCN_BAD,
};

unsigned int rxe_cc_stat_count(void)
{
	return ARRAY_SIZE(rxe_cc_stat_ids);
}

const char *rxe_cc_stat_name(unsigned int i)
{
	return rxe_counter_name(rxe_cc_stat_ids[i]);
}

u64 rxe_cc_stat_value(struct rxe_dev *rxe, unsigned int i)
{
	return atomic64_read(&rxe->stats_counters[rxe_cc_stat_ids[i]]);
}

/* ---- restrack: rdma resource show qp -dd --------------------------------- */

/*
 * One u64 driver entry: a DRIVER_STRING attribute with the name, then a
 * DRIVER_U64 one with the value. Where unaligned access is slow, a u64
 * attribute whose payload would not be 8-byte aligned gets a PAD attribute
 * in front of it (nla_put_u64_64bit), and iproute2 stops printing a driver
 * table at the first attribute it does not expect there: every entry after
 * the first padded one would be lost. So the name's payload carries four
 * more NULs when that aligns the value's payload: no PAD is needed, and the
 * name reads the same as a C string.
 */
static int rxe_cc_put_driver_u64(struct sk_buff *msg, const char *name,
				 u64 value)
{
	int len = strlen(name) + 1;
	struct nlattr *attr;

	if (!IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS) &&
	    IS_ALIGNED((unsigned long)skb_tail_pointer(msg) +
		       nla_total_size(len), 8))
		len += NLA_ALIGNTO;
	attr = nla_reserve(msg, RDMA_NLDEV_ATTR_DRIVER_STRING, len);
	if (!attr)
		return -EMSGSIZE;
	strscpy_pad(nla_data(attr), name, len);
	return nla_put_u64_64bit(msg, RDMA_NLDEV_ATTR_DRIVER_U64, value,
				 RDMA_NLDEV_ATTR_PAD);
}

int rxe_cc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_cc_qp_info *info;
	struct nlattr *table;
	unsigned int i;
	int err = -EMSGSIZE;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	rxe_cc_qp_snapshot(qp, info);

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		goto out;
	if (rdma_nl_put_driver_string(msg, "cc_algo",
				      rxe_cc_algo_name(info->ops)))
		goto cancel;
	if (info->ops) {
		if (rxe_cc_put_driver_u64(msg, "cc_rate_bps", info->rate_bps) ||
		    rxe_cc_put_driver_u64(msg, "cc_window_bytes",
					  info->window_bytes) ||
		    rxe_cc_put_driver_u64(msg, "cc_inflight_bytes",
					  info->inflight_bytes) ||
		    rxe_cc_put_driver_u64(msg, "cc_acked_bytes",
					  info->acked_bytes))
			goto cancel;
		for (i = 0; i < info->ops->n_state; i++)
			if (rxe_cc_put_driver_u64(msg,
						  info->ops->state[i].name,
						  info->state[i]))
				goto cancel;
		if ((info->ops->wire & RXE_CC_WIRE_INT) &&
		    rxe_cc_put_driver_u64(msg, "cc_int_tx", info->int_tx))
			goto cancel;
		if (rxe_cc_put_driver_u64(msg, "cc_cnp_rx", info->stats.cnp_rx) ||
		    rxe_cc_put_driver_u64(msg, "cc_cnp_tx", info->stats.cnp_tx) ||
		    rxe_cc_put_driver_u64(msg, "cc_ce_rx", info->stats.ce_rx) ||
		    rxe_cc_put_driver_u64(msg, "cc_retx_pkts",
					  info->stats.retx_pkts))
			goto cancel;
	}
	/* SFC: the UDP source port a BTS must name, and the pauses */
	if (info->sfc_on &&
	    (rxe_cc_put_driver_u64(msg, "cc_sfc_sport",
				   READ_ONCE(qp->src_port)) ||
	     rxe_cc_put_driver_u64(msg, "cc_bts_rx", info->sfc.bts_rx) ||
	     rxe_cc_put_driver_u64(msg, "cc_pause_starts",
				   info->sfc.pause_starts) ||
	     rxe_cc_put_driver_u64(msg, "cc_paused_us",
				   div_u64(rxe_cc_sfc_paused_total(&info->sfc,
								   info->now),
					   NSEC_PER_USEC))))
		goto cancel;
	nla_nest_end(msg, table);
	err = 0;
	goto out;
cancel:
	nla_nest_cancel(msg, table);
out:
	rxe_cc_algo_put(info->ops);
	kfree(info);
	return err;
}
