/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: the hooks the rxe data path calls into the congestion control
 * framework. Each has an inline fast path that costs a load and a branch
 * for a QP that runs no congestion control.
 */

#ifndef RXE_CC_FW_H
#define RXE_CC_FW_H

#include <linux/netlink.h>
#include <linux/udp.h>
#include <rdma/ib_verbs.h>

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

/* UDP port of RoCEv2 packets with the INT shim (module parameter int_port) */
extern u16 rxe_cc_int_port;
u32 rxe_cc_int_len_slow(const struct rxe_pkt_info *pkt);
void rxe_cc_int_put(struct sk_buff *skb, struct rxe_pkt_info *pkt, u32 len);
__be16 rxe_cc_udp_prepare_slow(struct rxe_pkt_info *pkt, struct sk_buff *skb);
int rxe_cc_int_rcv_slow(struct sk_buff *skb, struct rxe_pkt_info *pkt);
void rxe_cc_rcv_drop(struct sk_buff *skb, struct rxe_pkt_info *pkt);

/*
 * Requester gate: true if the QP must not send its next data packet now.
 * Only QPs that run an algorithm or can be paused (PFC, SFC's BTS) take
 * the slow path.
 */
static inline bool rxe_cc_hold(struct rxe_qp *qp)
{
	if (likely(!READ_ONCE(qp->cc.ctx.ops) && !qp->pfc.on &&
		   !READ_ONCE(qp->cc.sfc_on)))
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
 * or this packet, which fills the QP's window; and, for a QP paced so
 * slowly that upstream's spacing would outlast its transport timeout,
 * often enough that the ACKs keep the retransmission timer from firing.
 */
static inline int rxe_cc_ack_limit(const struct rxe_qp *qp, int upstream)
{
	u32 n = READ_ONCE(qp->cc.ack_every);
	u32 p = READ_ONCE(qp->cc.ack_paced);
	int limit = n ? (int)n - 2 : upstream;

	if (unlikely(READ_ONCE(qp->cc.ackreq)))
		return -1;
	if (unlikely(p) && (int)p - 2 < limit)
		limit = (int)p - 2;
	return limit;
}

/* IP TOS / traffic class of a packet the QP is about to send. */
static inline u8 rxe_cc_tos(const struct rxe_pkt_info *pkt, u8 tc)
{
	if (likely(!READ_ONCE(pkt->qp->cc.ctx.ops)))
		return tc;
	return rxe_cc_tos_slow(pkt, tc);
}

/*
 * Bytes of INT shim to put before the BTH of a packet about to be built
 * (rxe_init_packet(); pkt->qp and pkt->opcode set, or pkt->qp NULL): the
 * requests of a QP whose peer takes INT, and the ACKs answering a request
 * that came with a shim. rxe_cc_int_put() writes it.
 */
static inline u32 rxe_cc_int_len(const struct rxe_pkt_info *pkt)
{
	if (likely(!pkt->qp || !READ_ONCE(pkt->qp->cc.int_cap)))
		return 0;
	return rxe_cc_int_len_slow(pkt);
}

/*
 * UDP destination port of a packet the QP is about to send (its headers
 * built but IP and UDP): the INT port if it has a shim. A QP that uses INT
 * or TCD echoes marks its packets with CAP (BTH byte 4, masked by the
 * ICRC); one with TCD echoes puts the marks in its ACK-class packets.
 */
static inline __be16 rxe_cc_udp_prepare(struct rxe_pkt_info *pkt,
					struct sk_buff *skb)
{
	if (likely(!READ_ONCE(pkt->qp->cc.cap)))
		return cpu_to_be16(ROCE_V2_UDP_DPORT);
	return rxe_cc_udp_prepare_slow(pkt, skb);
}

/*
 * A packet arrived on a RoCEv2 port, its UDP header pulled: one from the
 * INT port loses its shim (kept before skb->data). Non-zero: drop it.
 */
static inline int rxe_cc_int_rcv(struct sk_buff *skb,
				 struct rxe_pkt_info *pkt)
{
	if (likely(udp_hdr(skb)->dest == cpu_to_be16(ROCE_V2_UDP_DPORT)))
		return 0;
	return rxe_cc_int_rcv_slow(skb, pkt);
}

/* A checked packet arrived for pkt->qp (notification point). */
static inline void rxe_cc_rcv(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	if (pkt->qp && unlikely(READ_ONCE(pkt->qp->cc.ctx.ops)))
		rxe_cc_rcv_slow(pkt, skb);
}

#endif /* RXE_CC_FW_H */
