// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: SFC's back-to-sender pause at the sender (specs/sfc.md §2.10,
 * §3.4, §4.1; the format in specs/wire.md §7.4 (a), (f)).
 *
 * Every namespace with rxe devices gets a socket pair on bts_port
 * (rxe_ns.c). A BTS that arrives there names the QP whose data met a
 * congested queue: its outer IP source is the QP's peer (the addresses are
 * swapped), and it embeds the data packet's UDP header and BTH, whose
 * destination QP is the peer's QP. The QP must also be the one whose UDP
 * source port the data carried, be RC in RTS or SQD, and take BTS (its
 * sfc setting); then its pause is set (rxe_cc_sfc.h) and the transmit gate
 * (rxe_cc_gate.c) holds its requests, retransmissions included, until the
 * pause ends. Its congestion control is not told, its ACKs, its responder
 * and the device's other QPs go on.
 *
 * A BTS is not authenticated. What it may do is bounded: only the QP that
 * matches all of the above is paused, for at most the QP's ceiling, and a
 * QP held for the ceiling in a row takes no BTS for as long again.
 * Everything else is counted and dropped: cc_bts_bad (malformed),
 * cc_bts_no_qp (no QP matches), cc_bts_ignored (the QP does not take BTS),
 * cc_bts_capped (the QP's budget is used); cc_bts_rcvd counts those taken,
 * cc_bts_clamped those of them cut to the ceiling.
 */

#include <kunit/visibility.h>
#include <linux/if_vlan.h>
#include <linux/moduleparam.h>
#include <linux/udp.h>

#include "rxe.h"
#include "rxe_cc_int.h"
#include "rxe_ns.h"

u16 rxe_cc_bts_port __read_mostly = 4793;
module_param_named(bts_port, rxe_cc_bts_port, ushort, 0444);
MODULE_PARM_DESC(bts_port,
		 "UDP port of SFC back-to-sender pause packets (BTS); 0 = none (default 4793)");
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_bts_port);

/**
 * rxe_cc_sfc_init - open BTS sockets in the namespaces to come
 *
 * Return: 0, or -EINVAL for a port that RoCEv2 or INT uses.
 */
int rxe_cc_sfc_init(void)
{
	if (rxe_cc_bts_port &&
	    (rxe_cc_bts_port == ROCE_V2_UDP_DPORT ||
	     rxe_cc_bts_port == rxe_cc_int_port)) {
		pr_err("bts_port=%u: RoCEv2 or INT uses that port\n",
		       rxe_cc_bts_port);
		return -EINVAL;
	}
	rxe_ns_set_port3(rxe_cc_bts_port, rxe_cc_bts_recv);
	return 0;
}

/*
 * The QP of @rxe that the BTS names, with a reference: an RC QP in RTS or
 * SQD whose peer is the BTS's IP source, whose peer QP is @bts->dqpn and
 * whose UDP source port is @bts->sport.
 */
static struct rxe_qp *rxe_cc_bts_qp(struct rxe_dev *rxe,
				    const struct sk_buff *skb,
				    const struct rxe_cc_bts *bts)
{
	struct rxe_qp *qp, *found = NULL;
	struct rxe_pool_elem *elem;
	enum ib_qp_state state;
	unsigned long index;

	rcu_read_lock();
	xa_for_each(&rxe->qp_pool.xa, index, elem) {
		/* a QP being destroyed has no references left: skip it */
		if (!kref_get_unless_zero(&elem->ref_cnt))
			continue;
		qp = elem->obj;
		state = qp_state(qp);
		if (qp_type(qp) == IB_QPT_RC &&
		    (state == IB_QPS_RTS || state == IB_QPS_SQD) &&
		    qp->attr.dest_qp_num == bts->dqpn &&
		    READ_ONCE(qp->src_port) == bts->sport &&
		    rxe_cc_from_peer(qp, skb)) {
			found = qp;
			break;
		}
		rxe_put(qp);
	}
	rcu_read_unlock();
	return found;
}

/* Apply a valid BTS to the QP it names (softirq). */
static void rxe_cc_bts_take(struct rxe_dev *rxe, struct rxe_qp *qp,
			    const struct rxe_cc_bts *bts)
{
	struct rxe_cc_qp *cc = &qp->cc;
	u64 now = ktime_get_ns();
	u32 ret = 0;

	spin_lock_bh(&cc->lock);
	if (cc->sfc_on) {
		ret = rxe_cc_sfc_take(&cc->sfc, bts->pause_us, bts->flags,
				      cc->sfc_max_us, cc->sfc_mode, now);
		/* a QP held for a pause that now ends earlier asks again */
		if ((ret & RXE_CC_SFC_SHORTER) && cc->tx_wait) {
			cc->wait_ns = now;
			rxe_cc_arm(qp, now);
		}
	}
	spin_unlock_bh(&cc->lock);

	if (!ret)
		rxe_counter_inc(rxe, RXE_CNT_CC_BTS_IGNORED);
	else if (ret & RXE_CC_SFC_CAPPED)
		rxe_counter_inc(rxe, RXE_CNT_CC_BTS_CAPPED);
	else
		rxe_counter_inc(rxe, RXE_CNT_CC_BTS_RCVD);
	if (ret & RXE_CC_SFC_CLAMPED)
		rxe_counter_inc(rxe, RXE_CNT_CC_BTS_CLAMPED);
}

/**
 * rxe_cc_bts_recv - a packet arrived on the BTS port
 * @sk: the namespace's BTS socket
 * @skb: the packet, its UDP header checked by the UDP layer
 *
 * UDP tunnel receive (softirq). Always consumes @skb.
 *
 * Return: 0.
 */
int rxe_cc_bts_recv(struct sock *sk, struct sk_buff *skb)
{
	struct net_device *ndev = skb->dev;
	u8 buf[RXE_CC_BTS_MIN_BYTES];
	struct rxe_cc_bts bts;
	struct rxe_dev *rxe;
	struct rxe_qp *qp;
	const u8 *p;
	u32 len;

	rxe = rxe_get_dev_from_net(ndev);
	if (!rxe && is_vlan_dev(ndev))
		rxe = rxe_get_dev_from_net(vlan_dev_real_dev(ndev));
	if (!rxe)
		goto drop;

	/* the UDP layer trimmed the packet to the UDP length */
	len = be16_to_cpu(udp_hdr(skb)->len);
	len = len > sizeof(struct udphdr) ? len - sizeof(struct udphdr) : 0;
	p = skb_header_pointer(skb, skb_transport_offset(skb) +
			       sizeof(struct udphdr),
			       min_t(u32, len, sizeof(buf)), buf);
	if (!p ||
	    rxe_cc_bts_parse(p, len, rxe_cc_int_port, &bts) != RXE_CC_BTS_OK) {
		rxe_counter_inc(rxe, RXE_CNT_CC_BTS_BAD);
		goto put;
	}
	qp = rxe_cc_bts_qp(rxe, skb, &bts);
	if (!qp) {
		rxe_counter_inc(rxe, RXE_CNT_CC_BTS_NO_QP);
		goto put;
	}
	rxe_cc_bts_take(rxe, qp, &bts);
	rxe_put(qp);
	ib_device_put(&rxe->ib_dev);
	consume_skb(skb);
	return 0;
put:
	ib_device_put(&rxe->ib_dev);
drop:
	kfree_skb(skb);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_bts_recv);
