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

	/* CNPs carry the DSCP their builder chose, Not-ECT */
	if (pkt->opcode == RXE_OPCODE_CNP)
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
static bool rxe_cc_from_peer(const struct rxe_qp *qp,
			     const struct sk_buff *skb)
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

/**
 * rxe_cc_cnp_valid - may this CNP act on @qp?
 * @pkt: the CNP; its opcode and destination GID are checked
 * @skb: the packet
 * @qp: the QP its DestQP names
 *
 * specs/dcqcn.md §5.2 and specs/wire.md §3.4: a CNP is exactly a BTH, 16
 * reserved bytes and the ICRC, and acts on a connected QP in RTS from that
 * QP's peer, with a valid ICRC. BECN, the PSN, the reserved bytes and the
 * ECN and UDP source port are not checked (peers differ there).
 *
 * Return: true if it may.
 */
bool rxe_cc_cnp_valid(struct rxe_pkt_info *pkt, struct sk_buff *skb,
		      struct rxe_qp *qp)
{
	return pkt->paylen == RXE_BTH_BYTES + RXE_CNP_BODY_BYTES +
			      RXE_ICRC_SIZE &&
	       (qp_type(qp) == IB_QPT_RC || qp_type(qp) == IB_QPT_UC) &&
	       qp_state(qp) == IB_QPS_RTS && rxe_cc_from_peer(qp, skb) &&
	       !rxe_icrc_check(skb, pkt);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_cnp_valid);

/**
 * rxe_cc_send_cnp - build and send a RoCEv2 CNP to the QP's peer
 * @qp: the QP that received the marked data
 * @msg: what its algorithm asked for
 *
 * Any context, without the QP's cc.lock (a loopback transmit calls
 * rxe_rcv() synchronously, possibly for the same QP).
 */
void rxe_cc_send_cnp(struct rxe_qp *qp, const struct rxe_cc_np_msg *msg)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	int paylen = RXE_BTH_BYTES + RXE_CNP_BODY_BYTES + RXE_ICRC_SIZE;
	struct rxe_pkt_info pkt = {};
	struct sk_buff *skb;
	struct rxe_av av;
	u8 dscp;

	if (msg->type != RXE_CC_MSG_CNP)
		return;

	/* the QP's path with the CNP's DSCP, Not-ECT */
	av = qp->pri_av;
	dscp = msg->dscp != 0xff ? msg->dscp : READ_ONCE(qp->cc.cnp_dscp);
	av.grh.traffic_class = (dscp & 0x3f) << 2;

	skb = rxe_init_packet(rxe, &av, paylen, &pkt);
	if (!skb)
		return;
	/* the 802.1p priority a VLAN egress map or a multiqueue device uses */
	if (msg->pcp != 0xff)
		skb->priority = msg->pcp & 7;

	pkt.qp = qp;
	pkt.opcode = RXE_OPCODE_CNP;
	pkt.mask |= rxe_opcode[RXE_OPCODE_CNP].mask;
	pkt.paylen = paylen;
	pkt.psn = 0;
	bth_init(&pkt, RXE_OPCODE_CNP, 0, 0, 0, IB_DEFAULT_PKEY_FULL,
		 qp->attr.dest_qp_num, 0, 0);
	bth_set_becn(&pkt, 1);
	memset(pkt.hdr + RXE_BTH_BYTES, 0, RXE_CNP_BODY_BYTES);

	if (rxe_prepare(&av, &pkt, skb)) {
		kfree_skb(skb);
		return;
	}
	if (rxe_xmit_packet(qp, &pkt, skb))
		return;

	spin_lock_bh(&qp->cc.lock);
	qp->cc.stats.cnp_tx++;
	spin_unlock_bh(&qp->cc.lock);
	rxe_counter_inc(rxe, RXE_CNT_CC_CNP_SENT);
	trace_rxe_cc_cnp(dev_name(&rxe->ib_dev.dev), qp_num(qp), true, true);
}
