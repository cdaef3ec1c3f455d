/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: the hooks the rxe data path calls into the congestion control
 * framework. Each has an inline fast path that costs a load and a branch
 * for a QP that runs no congestion control.
 */

#ifndef RXE_CC_FW_H
#define RXE_CC_FW_H

#include <linux/netlink.h>

struct rxe_dev;
struct rxe_qp;
struct rxe_pkt_info;
struct sk_buff;
struct ib_qp;
struct net_device;

int rxe_cc_init(void);
void rxe_cc_exit(void);
int rxe_cc_nl_init(void);
void rxe_cc_nl_exit(void);

void rxe_cc_dev_init(struct rxe_dev *rxe, struct net_device *ndev);
void rxe_cc_dev_cleanup(struct rxe_dev *rxe);

void rxe_cc_qp_init(struct rxe_qp *qp);
void rxe_cc_qp_start(struct rxe_qp *qp);
void rxe_cc_qp_reset(struct rxe_qp *qp);
void rxe_cc_qp_error(struct rxe_qp *qp);
void rxe_cc_qp_cleanup(struct rxe_qp *qp);

bool rxe_cc_hold_slow(struct rxe_qp *qp, bool resp);
void rxe_cc_sent_slow(struct rxe_qp *qp, struct rxe_pkt_info *pkt);
void rxe_cc_acked_slow(struct rxe_qp *qp, struct rxe_pkt_info *pkt);
u8 rxe_cc_tos_slow(const struct rxe_pkt_info *pkt, u8 tc);
void rxe_cc_rcv_slow(struct rxe_pkt_info *pkt, struct sk_buff *skb);
void rxe_cc_rcv_cnp(struct rxe_pkt_info *pkt, struct sk_buff *skb);

int rxe_cc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);

/*
 * Requester gate: true if the QP must not send its next data packet now.
 * Only QPs that run an algorithm or can be paused (PFC) take the slow path.
 */
static inline bool rxe_cc_hold(struct rxe_qp *qp)
{
	if (likely(!READ_ONCE(qp->cc.ctx.ops) && !qp->pfc.on))
		return false;
	return rxe_cc_hold_slow(qp, false);
}

/* Responder gate, before a READ response packet (the QP as data sender). */
static inline bool rxe_cc_hold_resp(struct rxe_qp *qp)
{
	if (likely(!READ_ONCE(qp->cc.ctx.ops) && !qp->pfc.on))
		return false;
	return rxe_cc_hold_slow(qp, true);
}

/* A data packet (request or READ response) was transmitted. */
static inline void rxe_cc_sent(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	if (READ_ONCE(qp->cc.ctx.ops))
		rxe_cc_sent_slow(qp, pkt);
}

/* The completer processed a response packet (ACK, NAK, READ, atomic). */
static inline void rxe_cc_acked(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	if (READ_ONCE(qp->cc.inflight.slot))
		rxe_cc_acked_slow(qp, pkt);
}

/*
 * AckReq limit of the requester (rxe_req.c): upstream, every n-th packet,
 * or this packet, which fills the QP's window.
 */
static inline int rxe_cc_ack_limit(const struct rxe_qp *qp, int upstream)
{
	u32 n = READ_ONCE(qp->cc.ack_every);

	if (unlikely(READ_ONCE(qp->cc.ackreq)))
		return -1;
	return n ? (int)n - 2 : upstream;
}

/* IP TOS / traffic class of a packet the QP is about to send. */
static inline u8 rxe_cc_tos(const struct rxe_pkt_info *pkt, u8 tc)
{
	if (likely(!READ_ONCE(pkt->qp->cc.ctx.ops)))
		return tc;
	return rxe_cc_tos_slow(pkt, tc);
}

/* A checked packet arrived for pkt->qp (notification point). */
static inline void rxe_cc_rcv(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	if (pkt->qp && unlikely(READ_ONCE(pkt->qp->cc.ctx.ops)))
		rxe_cc_rcv_slow(pkt, skb);
}

#endif /* RXE_CC_FW_H */
