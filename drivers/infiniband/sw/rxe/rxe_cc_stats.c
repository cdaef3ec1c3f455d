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
		if (rdma_nl_put_driver_u64(msg, "cc_rate_bps", info->rate_bps) ||
		    rdma_nl_put_driver_u64(msg, "cc_window_bytes",
					   info->window_bytes) ||
		    rdma_nl_put_driver_u64(msg, "cc_inflight_bytes",
					   info->inflight_bytes) ||
		    rdma_nl_put_driver_u64(msg, "cc_acked_bytes",
					   info->acked_bytes))
			goto cancel;
		for (i = 0; i < info->ops->n_state; i++)
			if (rdma_nl_put_driver_u64(msg,
						   info->ops->state[i].name,
						   info->state[i]))
				goto cancel;
		if (rdma_nl_put_driver_u64(msg, "cc_cnp_rx", info->stats.cnp_rx) ||
		    rdma_nl_put_driver_u64(msg, "cc_cnp_tx", info->stats.cnp_tx) ||
		    rdma_nl_put_driver_u64(msg, "cc_ce_rx", info->stats.ce_rx) ||
		    rdma_nl_put_driver_u64(msg, "cc_retx_pkts",
					   info->stats.retx_pkts))
			goto cancel;
	}
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
