// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: congestion control on the wire (specs/wire.md).
 *
 * What a packet costs the link, which packets are data, the ECN and DSCP
 * of the packets a CC QP sends, and RoCEv2 CNPs: their checks on arrival
 * and their construction.
 */

#include <kunit/visibility.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>

#include "rxe.h"
#include "rxe_cc_int.h"
#include "rxe_cc_trace.h"

/* link overhead added to every frame (Ethernet header) */
#define RXE_CC_L2_BYTES		ETH_HLEN

/**
 * rxe_cc_wire_bytes - bytes a packet of @qp costs on the link
 * @qp: the QP
 * @paylen: the packet's BTH to ICRC length
 *
 * Return: the frame from the IP header to the ICRC plus the L2 header,
 * the definition the pacer, the byte counters and the fabric share.
 */
u32 rxe_cc_wire_bytes(const struct rxe_qp *qp, u32 paylen)
{
	u32 l3 = qp->pri_av.network_type == RXE_NETWORK_TYPE_IPV6 ?
		 sizeof(struct ipv6hdr) : sizeof(struct iphdr);

	return paylen + l3 + sizeof(struct udphdr) + RXE_CC_L2_BYTES;
}

/*
 * Data packets are the ones that carry user data in the direction it
 * flows: SEND and WRITE requests, READ responses and atomic
 * acknowledgements. READ and atomic requests, ACKs and CNPs are control
 * packets (specs/dcqcn.md §5.1).
 */
bool rxe_cc_is_data(const struct rxe_pkt_info *pkt)
{
	return pkt->mask & (RXE_PAYLOAD_MASK | RXE_ATMACK_MASK);
}

/* IP TOS of a packet a CC QP sends (rxe_prepare) */
u8 rxe_cc_tos_slow(const struct rxe_pkt_info *pkt, u8 tc)
{
	const struct rxe_cc_qp *cc = &pkt->qp->cc;
	u8 ack_dscp;

	/* CNPs and rate reports carry the DSCP and ECN their builder chose */
	if (rxe_cc_fb_opcode(pkt->opcode))
		return tc;
	if (rxe_cc_is_data(pkt)) {
		if (READ_ONCE(cc->ect))
			return (tc & ~INET_ECN_MASK) | INET_ECN_ECT_0;
		return tc;
	}
	/* READ and atomic requests: the QP's DSCP, Not-ECT */
	if (pkt->mask & RXE_REQ_MASK)
		return tc & ~INET_ECN_MASK;
	/* ACKs: never ECN-capable, optionally with their own DSCP */
	ack_dscp = READ_ONCE(cc->ack_dscp);
	if (ack_dscp != RXE_CC_DSCP_OWN)
		return ack_dscp << 2;
	return tc & ~INET_ECN_MASK;
}

static u8 rxe_cc_skb_dsfield(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return ip_hdr(skb)->tos;
	if (skb->protocol == htons(ETH_P_IPV6))
		return ipv6_get_dsfield(ipv6_hdr(skb));
	return 0;
}

/* ECN codepoint of a received packet */
u8 rxe_cc_skb_ecn(const struct sk_buff *skb)
{
	return rxe_cc_skb_dsfield(skb) & INET_ECN_MASK;
}

/* DSCP of a received packet */
u8 rxe_cc_skb_dscp(const struct sk_buff *skb)
{
	return rxe_cc_skb_dsfield(skb) >> 2;
}

/* Did @skb come from the peer of @qp (its IP source is the QP's path)? */
bool rxe_cc_from_peer(const struct rxe_qp *qp, const struct sk_buff *skb)
{
	const struct rxe_av *av = &qp->pri_av;

	if (skb->protocol == htons(ETH_P_IP))
		return av->network_type == RXE_NETWORK_TYPE_IPV4 &&
		       ip_hdr(skb)->saddr ==
		       av->dgid_addr._sockaddr_in.sin_addr.s_addr;
	if (skb->protocol == htons(ETH_P_IPV6))
		return av->network_type == RXE_NETWORK_TYPE_IPV6 &&
		       ipv6_addr_equal(&ipv6_hdr(skb)->saddr,
				       &av->dgid_addr._sockaddr_in6.sin6_addr);
	return false;
}

/*
 * A feedback packet (a BTH, 16 bytes and the ICRC: a CNP, a PCN rate
 * report, an FRP) for a connected QP from its peer, with a valid ICRC;
 * the caller checks the QP's state.
 */
static bool rxe_cc_fb_pkt_ok(struct rxe_pkt_info *pkt, struct sk_buff *skb,
			     struct rxe_qp *qp)
{
	/* rxe_cc_send_cnp() builds FRPs with a CNP's length too */
	static_assert(RXE_CC_FRP_BODY_BYTES == RXE_CNP_BODY_BYTES);

	return pkt->paylen == RXE_BTH_BYTES + RXE_CNP_BODY_BYTES +
			      RXE_ICRC_SIZE &&
	       (qp_type(qp) == IB_QPT_RC || qp_type(qp) == IB_QPT_UC) &&
	       rxe_cc_from_peer(qp, skb) && !rxe_icrc_check(skb, pkt);
}

/**
 * rxe_cc_cnp_valid - may this CNP act on @qp?
 * @pkt: the CNP (or PCN rate report); its opcode and destination GID are
 *	checked
 * @skb: the packet
 * @qp: the QP its DestQP names
 *
 * specs/dcqcn.md §5.2 and specs/wire.md §3.4: a CNP is exactly a BTH, 16
 * reserved bytes and the ICRC, and acts on a connected QP in RTS from that
 * QP's peer, with a valid ICRC. BECN, the PSN, the reserved bytes and the
 * ECN and UDP source port are not checked (peers differ there); a PCN
 * rate report 0xC2 has the same layout and the same checks.
 *
 * Return: true if it may.
 */
bool rxe_cc_cnp_valid(struct rxe_pkt_info *pkt, struct sk_buff *skb,
		      struct rxe_qp *qp)
{
	return qp_state(qp) == IB_QPS_RTS && rxe_cc_fb_pkt_ok(pkt, skb, qp);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_cnp_valid);

/**
 * rxe_cc_frp_valid - may this ACCurate FRP or response act on @qp?
 * @pkt: the packet (0xC0 or 0xC1; the ACCETH is as long as a CNP's body)
 * @skb: the packet
 * @qp: the QP its DestQP names
 *
 * As rxe_cc_cnp_valid(), but a forward FRP is for the data's receiver,
 * which may be a responder that never went past RTR: RTR, RTS and SQD.
 *
 * Return: true if it may.
 */
bool rxe_cc_frp_valid(struct rxe_pkt_info *pkt, struct sk_buff *skb,
		      struct rxe_qp *qp)
{
	enum ib_qp_state state = qp_state(qp);
	bool ok = state == IB_QPS_RTS;

	if (pkt->opcode == RXE_OPCODE_FRP)
		ok = ok || state == IB_QPS_RTR || state == IB_QPS_SQD;
	return ok && rxe_cc_fb_pkt_ok(pkt, skb, qp);
}

/**
 * rxe_cc_send_cnp - build and send a RoCEv2 CNP to the QP's peer
 * @qp: the QP that received the data (or, for an FRP, sends it)
 * @msg: what its algorithm asked for: a standard CNP (zero body, Not-ECT),
 *	or PCN's decrease (CNP 0x81, CE) or increase (0xC2, Not-ECT) with its
 *	payload; or ACCurate's forward FRP (0xC0, to a peer that has shown
 *	CAP only) or the framework's echo of one (0xC1), with the ACCETH and
 *	the epoch as the PSN
 *
 * Any context, without the QP's cc.lock (a loopback transmit calls
 * rxe_rcv() synchronously, possibly for the same QP).
 */
void rxe_cc_send_cnp(struct rxe_qp *qp, const struct rxe_cc_np_msg *msg)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	int paylen = RXE_BTH_BYTES + RXE_CNP_BODY_BYTES + RXE_ICRC_SIZE;
	u8 opcode = RXE_OPCODE_CNP, ecn = INET_ECN_NOT_ECT;
	struct rxe_pkt_info pkt = {};
	struct rxe_cc_frp frp;
	struct sk_buff *skb;
	struct rxe_av av;
	u8 dscp;

	switch (msg->type) {
	case RXE_CC_MSG_CNP:
		break;
	case RXE_CC_MSG_PCN_DEC:
		ecn = INET_ECN_CE;
		break;
	case RXE_CC_MSG_PCN_INC:
		opcode = RXE_OPCODE_PCN_RATE;
		break;
	case RXE_CC_MSG_FRP:
		/* to an rxe-cc peer only: any other drops it, or worse */
		if (!READ_ONCE(qp->cc.peer_cap)) {
			rxe_counter_inc(rxe, RXE_CNT_CC_FRP_WITHHELD);
			return;
		}
		opcode = RXE_OPCODE_FRP;
		break;
	case RXE_CC_MSG_FRP_RESP:
		opcode = RXE_OPCODE_FRP_RESP;
		break;
	default:
		return;
	}

	/* the QP's path with the CNP's DSCP and ECN */
	av = qp->pri_av;
	dscp = msg->dscp != 0xff ? msg->dscp : READ_ONCE(qp->cc.cnp_dscp);
	av.grh.traffic_class = (dscp & 0x3f) << 2 | ecn;

	skb = rxe_init_packet(rxe, &av, paylen, &pkt);
	if (!skb)
		return;
	/* the 802.1p priority a VLAN egress map or a multiqueue device uses */
	if (msg->pcp != 0xff)
		skb->priority = msg->pcp & 7;

	pkt.qp = qp;
	pkt.opcode = opcode;
	pkt.mask |= rxe_opcode[opcode].mask;
	pkt.paylen = paylen;
	/* an FRP's PSN is its epoch (specs/accurate.md §3.2) */
	pkt.psn = msg->type >= RXE_CC_MSG_FRP ? msg->frp.epoch : 0;
	bth_init(&pkt, opcode, 0, 0, 0, IB_DEFAULT_PKEY_FULL,
		 qp->attr.dest_qp_num, 0, pkt.psn);
	/* BECN: "backward congestion", on a CNP only */
	bth_set_becn(&pkt, opcode == RXE_OPCODE_CNP);
	if (msg->type == RXE_CC_MSG_CNP) {
		memset(pkt.hdr + RXE_BTH_BYTES, 0, RXE_CNP_BODY_BYTES);
	} else if (msg->type == RXE_CC_MSG_FRP) {
		frp = msg->frp;
		frp.flags &= ~RXE_CC_FRP_RESP;
		frp.version = RXE_CC_FRP_VERSION;
		frp.src_qpn = qp_num(qp);
		rxe_cc_frp_put(pkt.hdr + RXE_BTH_BYTES, &frp);
	} else if (msg->type == RXE_CC_MSG_FRP_RESP) {
		rxe_cc_frp_put(pkt.hdr + RXE_BTH_BYTES, &msg->frp);
	} else {
		rxe_cc_pcn_put(pkt.hdr + RXE_BTH_BYTES, msg);
	}

	if (rxe_prepare(&av, &pkt, skb)) {
		kfree_skb(skb);
		return;
	}
	if (rxe_xmit_packet(qp, &pkt, skb))
		return;

	if (opcode == RXE_OPCODE_FRP || opcode == RXE_OPCODE_FRP_RESP) {
		rxe_counter_inc(rxe, opcode == RXE_OPCODE_FRP ?
				RXE_CNT_CC_FRP_SENT : RXE_CNT_CC_FRP_ECHOED);
		return;
	}
	spin_lock_bh(&qp->cc.lock);
	qp->cc.stats.cnp_tx++;
	spin_unlock_bh(&qp->cc.lock);
	rxe_counter_inc(rxe, opcode == RXE_OPCODE_CNP ? RXE_CNT_CC_CNP_SENT :
				  RXE_CNT_CC_PCN_INC_SENT);
	trace_rxe_cc_cnp(dev_name(&rxe->ib_dev.dev), qp_num(qp), true, true);
}

/* ---- INT: the shim between UDP and BTH (specs/wire.md §7.4 (a)) ------------ */

/* Did @skb arrive on the INT port (or loop back from it)? */
bool rxe_cc_int_pkt(const struct sk_buff *skb)
{
	return rxe_cc_int_port &&
	       udp_hdr(skb)->dest == cpu_to_be16(rxe_cc_int_port);
}

/*
 * The request the responder is answering: the head of its queue, which it
 * leaves there until it is done with it (recv_task). NULL unless it came
 * with an INT shim.
 */
static struct rxe_pkt_info *rxe_cc_int_req(struct rxe_qp *qp)
{
	struct sk_buff *skb = skb_peek(&qp->req_pkts);

	return skb && rxe_cc_int_pkt(skb) ? SKB_TO_PKT(skb) : NULL;
}

u32 rxe_cc_int_len_slow(const struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;

	if (rxe_cc_int_ack_op(pkt->opcode))
		return rxe_cc_int_req(qp) ? RXE_CC_INT_SHIM_BYTES : 0;
	if (rxe_opcode[pkt->opcode].mask & RXE_REQ_MASK)
		return READ_ONCE(qp->cc.int_tx) ? RXE_CC_INT_SHIM_BYTES : 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_int_len_slow);

/**
 * rxe_cc_int_put - put the INT shim in front of the packet being built
 * @skb: the packet, its headroom reserved and nothing put yet
 * @pkt: a request, or an ACK answering a request with a shim
 * @len: rxe_cc_int_len(@pkt)
 *
 * A request carries an empty shim for the switches to fill; an ACK echoes
 * the request's shim verbatim.
 */
void rxe_cc_int_put(struct sk_buff *skb, struct rxe_pkt_info *pkt, u32 len)
{
	struct rxe_dev *rxe = to_rdev(pkt->qp->ibqp.device);
	u8 *shim = skb_put(skb, len);
	struct rxe_pkt_info *req;

	if (rxe_cc_int_ack_op(pkt->opcode)) {
		req = rxe_cc_int_req(pkt->qp);
		if (req) {
			memcpy(shim, req->hdr - len, len);
			rxe_counter_inc(rxe, RXE_CNT_CC_INT_ACK_TX);
			return;
		}
	} else {
		rxe_counter_inc(rxe, RXE_CNT_CC_INT_REQ_TX);
	}
	memset(shim, 0, len);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_int_put);

/*
 * The marks of the data the response about to be sent acknowledges, into
 * its BTH byte 4 (specs/wire.md §7.4 (c)). A NAK acknowledges nothing
 * new: it carries none, and they wait for the next ACK.
 */
static void rxe_cc_tcd_put(struct rxe_pkt_info *pkt)
{
	struct rxe_cc_qp *cc = &pkt->qp->cc;
	u8 echo;

	spin_lock_bh(&cc->lock);
	echo = rxe_cc_tcd_take(&cc->tcd_marks, pkt->psn);
	spin_unlock_bh(&cc->lock);
	if (!echo)
		return;
	pkt->hdr[4] |= echo;
	rxe_counter_inc(to_rdev(pkt->qp->ibqp.device), RXE_CNT_CC_TCD_ECHO_TX);
}

bool rxe_cc_aeth_ack(struct rxe_pkt_info *pkt)
{
	return (pkt->mask & RXE_AETH_MASK) &&
	       (aeth_syn(pkt) & AETH_TYPE_MASK) == AETH_ACK;
}

__be16 rxe_cc_udp_prepare_slow(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	struct rxe_bth *bth = (struct rxe_bth *)pkt->hdr;

	bth->qpn |= cpu_to_be32(RXE_CC_BTH_CAP);
	if (READ_ONCE(pkt->qp->cc.tcd) && rxe_cc_aeth_ack(pkt))
		rxe_cc_tcd_put(pkt);
	/* rxe_init_packet() put the shim, if any, right before the BTH */
	if (pkt->hdr != skb->data)
		return cpu_to_be16(rxe_cc_int_port);
	return cpu_to_be16(ROCE_V2_UDP_DPORT);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_udp_prepare_slow);

/* rxe_udp_encap_recv(), a packet from the INT port: step over its shim */
int rxe_cc_int_rcv_slow(struct sk_buff *skb, struct rxe_pkt_info *pkt)
{
	if (!rxe_cc_int_pkt(skb))
		return 0;
	if (skb->len < RXE_CC_INT_SHIM_BYTES + RXE_BTH_BYTES ||
	    pkt->paylen < RXE_CC_INT_SHIM_BYTES + RXE_BTH_BYTES) {
		rxe_counter_inc(pkt->rxe, RXE_CNT_CC_INT_BAD);
		return -EINVAL;
	}
	/* the shim stays readable right before pkt->hdr */
	__skb_pull(skb, RXE_CC_INT_SHIM_BYTES);
	pkt->hdr += RXE_CC_INT_SHIM_BYTES;
	pkt->paylen -= RXE_CC_INT_SHIM_BYTES;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_int_rcv_slow);

/*
 * rxe_rcv() dropped @skb: count an INT packet (unknown QP, bad headers),
 * and a CNP or PCN rate report too short for its opcode
 */
void rxe_cc_rcv_drop(struct sk_buff *skb, struct rxe_pkt_info *pkt)
{
	if (rxe_cc_int_pkt(skb))
		rxe_counter_inc(pkt->rxe, RXE_CNT_CC_INT_BAD);
	if (skb->len < RXE_BTH_BYTES)
		return;
	switch (bth_opcode(pkt)) {
	case RXE_OPCODE_CNP:
		rxe_counter_inc(pkt->rxe, RXE_CNT_CC_CNP_IGNORED);
		break;
	case RXE_OPCODE_PCN_RATE:
		rxe_counter_inc(pkt->rxe, RXE_CNT_CC_PCN_INC_IGNORED);
		break;
	case RXE_OPCODE_FRP:
	case RXE_OPCODE_FRP_RESP:
		rxe_counter_inc(pkt->rxe, RXE_CNT_CC_FRP_BAD);
		break;
	}
}

/* bytes of INT shim on the requests @qp sends now */
u32 rxe_cc_int_tx_bytes(const struct rxe_qp *qp)
{
	return READ_ONCE(qp->cc.int_tx) ? RXE_CC_INT_SHIM_BYTES : 0;
}
