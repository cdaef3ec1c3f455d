/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: per-QP congestion control for rxe, the interface between the
 * framework and the algorithms.
 *
 * An algorithm is a struct rxe_cc_ops: a name, a parameter table and event
 * hooks that are pure logic over the algorithm's per-QP state. Time is passed
 * in as u64 ns, all arithmetic is integer or fixed point, and no hook takes a
 * lock, arms a timer, touches an skb or allocates memory; the framework does
 * all of that and reads the hooks' results from struct rxe_cc_out. An
 * algorithm registers itself with rxe_cc_register(), as a TCP congestion
 * control does with tcp_register_congestion_control(). The design is
 * described in Documentation/rxe-cc/framework.rst.
 *
 * This header and the algorithm files include only basic headers, so the
 * same sources also build in userspace through a small shim for unit tests.
 * So do the framework's pure helpers below (pacer, in-flight record,
 * deadlines), which the framework files call.
 */

#ifndef RXE_CC_H
#define RXE_CC_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/math64.h>

struct module;

/* Q16 fixed point: 1.0 */
#define RXE_CC_Q16_ONE		0x10000U

/* Largest rate a parameter may hold, in kbit/s (2^31 kbit/s = 2.1 Tbit/s) */
#define RXE_CC_RATE_KBPS_MAX	0x80000000U

/* IP ECN codepoints (the low two bits of the TOS / traffic class byte) */
#define RXE_CC_ECN_NOT_ECT	0
#define RXE_CC_ECN_ECT1		1
#define RXE_CC_ECN_ECT0		2
#define RXE_CC_ECN_CE		3

/* RoCEv2 CNP (specs/wire.md): BTH with BECN, 16 reserved bytes, ICRC */
#define RXE_OPCODE_CNP		0x81
#define RXE_CNP_BODY_BYTES	16
/*
 * PCN's rate report "not congested" (specs/wire.md §7.4 (b)): a CNP's
 * layout under a manufacturer-specific opcode, sent to rxe-cc peers only,
 * which no reaction point takes for a cut
 */
#define RXE_OPCODE_PCN_RATE	0xc2
/*
 * ACCurate's flow rate packets (specs/accurate.md §3.2, specs/wire.md §7.4
 * (b)): a BTH with opcode 0xC0 (forward, from the flow's sender) or 0xC1
 * (response: the receiver's echo, or a switch's short-circuit), then the
 * 16-byte ACCETH (struct rxe_cc_frp) and the ICRC, on the data's UDP
 * ports. Switches rewrite CR and DR and recompute the ICRC.
 */
#define RXE_OPCODE_FRP		0xc0
#define RXE_OPCODE_FRP_RESP	0xc1

/* opcodes rxe_rcv() hands to the framework's feedback path */
static inline bool rxe_cc_fb_opcode(u8 opcode)
{
	return opcode == RXE_OPCODE_CNP || opcode == RXE_OPCODE_PCN_RATE ||
	       opcode == RXE_OPCODE_FRP || opcode == RXE_OPCODE_FRP_RESP;
}

/*
 * Wire features an algorithm uses, in rxe_cc_ops.wire. Each keeps the QP
 * interoperable with a peer that runs no congestion control or is an
 * unmodified rxe: such a peer ignores ECN bits and drops CNPs.
 */
#define RXE_CC_WIRE_ECT		BIT(0) /* send data as ECT(0) */
#define RXE_CC_WIRE_CNP_RX	BIT(1) /* deliver CNPs (RXE_CC_FB_CNP) */
#define RXE_CC_WIRE_CNP_TX	BIT(2) /* send what rx_data/rx_timer ask */
#define RXE_CC_WIRE_INT		BIT(3) /* INT shim, to capable peers only */
#define RXE_CC_WIRE_TCD		BIT(4) /* TCD marks echoed in BTH byte 4 */
#define RXE_CC_WIRE_PCN		BIT(5) /* PCN rate reports, to CAP peers */
#define RXE_CC_WIRE_FRP		BIT(6) /* ACCurate FRPs, to CAP peers */

/* Properties of an algorithm, in rxe_cc_ops.flags */
#define RXE_CC_F_LAZY_TIMER	BIT(0) /* timer_ns may wait for an event */
#define RXE_CC_F_RX_CE_ONLY	BIT(1) /* rx_data for CE packets only */
#define RXE_CC_F_ACK_EVERY	BIT(2) /* AckReq on every request packet */
#define RXE_CC_F_IN		BIT(3) /* reads rxe_cc_ctx.in */

/* Most parameters and state values an algorithm may have */
#define RXE_CC_MAX_PARAMS	32
#define RXE_CC_MAX_STATE	24

/**
 * enum rxe_cc_unit - unit of a parameter or a state value
 * @RXE_CC_UNIT_NONE: a count, an index or a mode number
 * @RXE_CC_UNIT_BOOL: 0 or 1
 * @RXE_CC_UNIT_KBPS: kbit/s (1000 bit/s)
 * @RXE_CC_UNIT_US: microseconds
 * @RXE_CC_UNIT_NS: nanoseconds
 * @RXE_CC_UNIT_BYTES: bytes
 * @RXE_CC_UNIT_PERCENT: percent
 * @RXE_CC_UNIT_Q10: fixed point, 1024 = 1.0
 * @RXE_CC_UNIT_Q16: fixed point, 65536 = 1.0
 * @RXE_CC_UNIT_LOG2: base-2 logarithm
 * @RXE_CC_UNIT_DSCP: IP DSCP code point (0..63)
 * @RXE_CC_UNIT_PCP: 802.1p priority (0..7)
 */
enum rxe_cc_unit {
	RXE_CC_UNIT_NONE,
	RXE_CC_UNIT_BOOL,
	RXE_CC_UNIT_KBPS,
	RXE_CC_UNIT_US,
	RXE_CC_UNIT_NS,
	RXE_CC_UNIT_BYTES,
	RXE_CC_UNIT_PERCENT,
	RXE_CC_UNIT_Q10,
	RXE_CC_UNIT_Q16,
	RXE_CC_UNIT_LOG2,
	RXE_CC_UNIT_DSCP,
	RXE_CC_UNIT_PCP,
};

/**
 * struct rxe_cc_param_desc - one tunable parameter of an algorithm
 * @name: parameter name (NVIDIA's name where one exists)
 * @help: one line of help text
 * @unit: enum rxe_cc_unit
 * @def: default for the reference link (100 Mbit/s, 1 ms base RTT);
 *	 rxe_cc_ops.defaults may scale it to the actual link
 * @min: smallest accepted value
 * @max: largest accepted value
 *
 * Every parameter is a u32. A parameter set is an array of u32 indexed like
 * the descriptor table.
 */
struct rxe_cc_param_desc {
	const char *name;
	const char *help;
	u32 unit;
	u32 def;
	u32 min;
	u32 max;
};

/**
 * struct rxe_cc_state_desc - one value of the per-QP state dump
 * @name: value name
 * @unit: enum rxe_cc_unit
 */
struct rxe_cc_state_desc {
	const char *name;
	u32 unit;
};

/**
 * struct rxe_cc_link - what an algorithm knows about its link
 * @rate_bps: line rate of the (emulated) access link, bit/s
 * @base_rtt_ns: measured idle round-trip time, 0 if unknown
 * @mtu: path MTU payload bytes (256..4096)
 */
struct rxe_cc_link {
	u64 rate_bps;
	u64 base_rtt_ns;
	u32 mtu;
};

/* rxe_cc_tx.flags */
#define RXE_CC_TX_RETX		BIT(0) /* a go-back-N retransmission */
#define RXE_CC_TX_ACKREQ	BIT(1) /* the packet carries AckReq */
#define RXE_CC_TX_MSG_FIRST	BIT(2) /* first packet of a message */
#define RXE_CC_TX_MSG_LAST	BIT(3) /* last packet of a message */
#define RXE_CC_TX_READ_RESP	BIT(4) /* a READ response (responder) */

/**
 * struct rxe_cc_tx - a data packet the QP has just transmitted
 * @bytes: bytes the link is charged for (frame incl. headers and ICRC)
 * @psn: the packet's PSN (24 bits)
 * @flags: RXE_CC_TX_*
 */
struct rxe_cc_tx {
	u32 bytes;
	u32 psn;
	u32 flags;
};

/**
 * enum rxe_cc_ack_type - kind of a packet the completer processed
 * @RXE_CC_ACK: positive ACK
 * @RXE_CC_ACK_NAK_SEQ: PSN sequence error NAK (go-back-N follows)
 * @RXE_CC_ACK_NAK_RNR: receiver not ready NAK
 * @RXE_CC_ACK_NAK_OTHER: any other NAK
 * @RXE_CC_ACK_READ_RESP: an RDMA READ response (implicit ACK)
 * @RXE_CC_ACK_ATOMIC: an atomic acknowledge
 */
enum rxe_cc_ack_type {
	RXE_CC_ACK,
	RXE_CC_ACK_NAK_SEQ,
	RXE_CC_ACK_NAK_RNR,
	RXE_CC_ACK_NAK_OTHER,
	RXE_CC_ACK_READ_RESP,
	RXE_CC_ACK_ATOMIC,
};

/**
 * struct rxe_cc_ack - transport progress carried by one ACK-class packet
 * @type: enum rxe_cc_ack_type
 * @psn: PSN carried by the packet (24 bits)
 * @acked_pkts: request packets newly acknowledged by it (0: a duplicate)
 * @acked_bytes: their bytes, counted like rxe_cc_tx.bytes
 * @inflight_bytes: bytes of request packets sent and not yet acknowledged,
 *	after this packet
 * @rtt_ns: time from sending the AckReq packet this packet acknowledges to
 *	its arrival, 0 if it acknowledges none
 *
 * A request packet is acknowledged once the completer's PSN passes it: an
 * ACK or NAK-sequence for it or a later PSN, or the first response of a
 * READ request. Retransmissions are counted once, as the packet they
 * repeat.
 */
struct rxe_cc_ack {
	u32 type;
	u32 psn;
	u32 acked_pkts;
	u32 acked_bytes;
	u64 inflight_bytes;
	u64 rtt_ns;
};

/**
 * enum rxe_cc_fb_kind - feedback for the QP as a data sender
 * @RXE_CC_FB_CNP: a RoCEv2 CNP for the QP arrived
 * @RXE_CC_FB_PAUSE: a PFC/PAUSE frame started holding the QP, or the QP's
 *	wait for a pause ended
 * @RXE_CC_FB_INT: the INT stack echoed by a response packet, delivered
 *	right after that packet's on_ack
 * @RXE_CC_FB_TCD: the mark echo (BTH byte 4) of a response packet,
 *	delivered right after that packet's on_ack (RXE_CC_WIRE_TCD)
 * @RXE_CC_FB_FRP: an ACCurate FRP response (0xC1) from the QP's peer or a
 *	switch on its path (RXE_CC_WIRE_FRP)
 */
enum rxe_cc_fb_kind {
	RXE_CC_FB_CNP,
	RXE_CC_FB_PAUSE,
	RXE_CC_FB_INT,
	RXE_CC_FB_TCD,
	RXE_CC_FB_FRP,
};

/* ACCETH (RXE_CC_FRP_BODY_BYTES, big-endian), specs/accurate.md §3.2 */
#define RXE_CC_FRP_BODY_BYTES	16
#define RXE_CC_FRP_VERSION	1
/* byte 0, bits 7..4: the type */
#define RXE_CC_FRP_NORMAL	0
#define RXE_CC_FRP_INIT		1
#define RXE_CC_FRP_STOP		2
/* byte 0, bits 3..0: flags */
#define RXE_CC_FRP_RESP		BIT(3) /* a response (opcode 0xC1) */
#define RXE_CC_FRP_SC		BIT(2) /* a switch's short-circuit */
#define RXE_CC_FRP_COUNTED	BIT(1) /* STOP: this RRP's FRP was sent */

/**
 * struct rxe_cc_frp - an ACCETH, decoded
 * @type: RXE_CC_FRP_NORMAL, _INIT or _STOP (byte 0, bits 7..4)
 * @flags: RXE_CC_FRP_RESP, _SC, _COUNTED (byte 0, bits 3..0)
 * @sc_hop: the switch that short-circuited, else 0 (byte 1)
 * @epoch: the RRP of the forward FRP, floor(time / RRP) mod 2^16 (2..3)
 * @cr_kbps: current rate: the sender's, lowered to each switch's fair
 *	share where that is the bottleneck (4..7)
 * @dr_kbps: desired rate, lowered to every switch's fair share (8..11)
 * @version: RXE_CC_FRP_VERSION (byte 12)
 * @src_qpn: the QP that owns the flow, the sender's (13..15)
 */
struct rxe_cc_frp {
	u8 type;
	u8 flags;
	u8 sc_hop;
	u16 epoch;
	u32 cr_kbps;
	u32 dr_kbps;
	u8 version;
	u32 src_qpn;
};

/* decode an ACCETH (RXE_CC_FRP_BODY_BYTES) */
static inline void rxe_cc_frp_parse(const u8 *b, struct rxe_cc_frp *f)
{
	f->type = b[0] >> 4;
	f->flags = b[0] & 0xf;
	f->sc_hop = b[1];
	f->epoch = (u16)(b[2] << 8 | b[3]);
	f->cr_kbps = (u32)b[4] << 24 | (u32)b[5] << 16 | (u32)b[6] << 8 | b[7];
	f->dr_kbps = (u32)b[8] << 24 | (u32)b[9] << 16 | (u32)b[10] << 8 |
		     b[11];
	f->version = b[12];
	f->src_qpn = (u32)b[13] << 16 | (u32)b[14] << 8 | b[15];
}

/* encode an ACCETH (RXE_CC_FRP_BODY_BYTES) */
static inline void rxe_cc_frp_put(u8 *b, const struct rxe_cc_frp *f)
{
	b[0] = f->type << 4 | (f->flags & 0xf);
	b[1] = f->sc_hop;
	b[2] = f->epoch >> 8;
	b[3] = f->epoch & 0xff;
	b[4] = f->cr_kbps >> 24;
	b[5] = f->cr_kbps >> 16;
	b[6] = f->cr_kbps >> 8;
	b[7] = f->cr_kbps;
	b[8] = f->dr_kbps >> 24;
	b[9] = f->dr_kbps >> 16;
	b[10] = f->dr_kbps >> 8;
	b[11] = f->dr_kbps;
	b[12] = f->version;
	b[13] = f->src_qpn >> 16;
	b[14] = f->src_qpn >> 8;
	b[15] = f->src_qpn;
}

/*
 * PCN's payload in a CNP's 16 reserved bytes (specs/wire.md §7.4 (e'),
 * specs/pcn.md §3.2), inside the ICRC: RecRate (u32 BE, Mbit/s), the
 * magic, flags, version, the NP's period sequence (u32 BE), four zero
 * bytes. The same in a CNP 0x81 (a decrease) and in 0xC2 (an increase).
 */
#define RXE_CC_PCN_MAGIC	0x5043
#define RXE_CC_PCN_VERSION	1
#define RXE_CC_PCN_DEC		BIT(0) /* congested: must be opcode 0x81 */
#define RXE_CC_PCN_RATE_VALID	BIT(1) /* RecRate is a measurement */

/**
 * struct rxe_cc_fb_cnp - a CNP (0x81) or a PCN rate report (0xC2)
 * @dscp: DSCP it arrived with
 * @ecn: IP ECN codepoint it arrived with
 * @opcode: RXE_OPCODE_CNP or RXE_OPCODE_PCN_RATE
 * @pcn: the body carries PCN's magic; the fields below are valid
 * @flags: RXE_CC_PCN_* flags, as received
 * @version: the payload's version, as received
 * @rate_mbps: RecRate, Mbit/s
 * @seq: the notification point's period sequence
 *
 * A CNP without the magic (a standard one, zero-filled) has @pcn false.
 * Nothing but the magic is checked: the algorithm validates the rest.
 */
struct rxe_cc_fb_cnp {
	u8 dscp;
	u8 ecn;
	u8 opcode;
	bool pcn;
	u8 flags;
	u8 version;
	u32 rate_mbps;
	u32 seq;
};

/* decode a CNP body (RXE_CNP_BODY_BYTES) into @fb's PCN fields */
static inline void rxe_cc_pcn_parse(const u8 *body, struct rxe_cc_fb_cnp *fb)
{
	fb->pcn = ((u32)body[4] << 8 | body[5]) == RXE_CC_PCN_MAGIC;
	fb->flags = body[6];
	fb->version = body[7];
	fb->rate_mbps = (u32)body[0] << 24 | (u32)body[1] << 16 |
			(u32)body[2] << 8 | body[3];
	fb->seq = (u32)body[8] << 24 | (u32)body[9] << 16 |
		  (u32)body[10] << 8 | body[11];
}

/**
 * struct rxe_cc_fb_pause - the QP's priority was paused or released
 * @until_ns: with @paused, when the pause in force ends
 * @prio: the 802.1p priority of the QP's data
 * @paused: the QP starts waiting (else its wait ended)
 */
struct rxe_cc_fb_pause {
	u64 until_ns;
	u8 prio;
	u8 paused;
};

/*
 * In-band network telemetry (specs/hpcc.md §3.1, specs/wire.md §7.4 (a)):
 * a fixed shim of 42 bytes between the UDP header and the BTH of packets to
 * and from the INT UDP port, outside the ICRC. A 16-bit big-endian word
 * nHop << 12 | pathID, then RXE_CC_INT_MAX_HOPS slots of a 64-bit
 * big-endian word B << 60 | TS << 36 | txBytes << 16 | qLen, slot i
 * written by the i-th hop.
 */
#define RXE_CC_INT_MAX_HOPS	5
/* the sender parses rxe-cc extensions: BTH word 1 (ICRC-masked resv6a) */
#define RXE_CC_BTH_CAP		0x20000000U
#define RXE_CC_INT_SHIM_BYTES	(2 + 8 * RXE_CC_INT_MAX_HOPS)
#define RXE_CC_INT_TS_MASK	0xffffffU	/* ns */
#define RXE_CC_INT_TXB_MASK	0xfffffU	/* units of 128 bytes */
#define RXE_CC_INT_TXB_UNIT	128
#define RXE_CC_INT_QLEN_MAX	0xffffU		/* units of 80 bytes */
#define RXE_CC_INT_QLEN_UNIT	80
#define RXE_CC_INT_PATH_MASK	0xfffU
/* link rate codes (4 bits); 0 is never a rate: an unwritten slot */
#define RXE_CC_INT_B_CODES	16
#define RXE_CC_INT_B_FIXED	11	/* codes 1..10 have fixed rates */

/**
 * struct rxe_cc_int_hop - what one hop wrote: its egress port at departure
 * @ts: departure time, ns of the hop's own clock, 24 bits (wraps)
 * @tx_bytes: bytes the port sent before the packet, in units of
 *	RXE_CC_INT_TXB_UNIT, 20 bits (wraps)
 * @qlen: bytes left in the port's queues, in units of RXE_CC_INT_QLEN_UNIT,
 *	saturating at RXE_CC_INT_QLEN_MAX
 * @b: the port's link rate code (1..15; rxe_cc_int_code_mbps())
 */
struct rxe_cc_int_hop {
	u32 ts;
	u32 tx_bytes;
	u16 qlen;
	u8 b;
};

/**
 * struct rxe_cc_fb_int - the INT stack a response packet echoed
 * @psn: the PSN the response packet carried
 * @n_hops: hops that wrote a slot, 0..RXE_CC_INT_MAX_HOPS
 * @path_id: XOR of the 12-bit IDs of those hops
 * @hop: the slots, @n_hops of them valid
 */
struct rxe_cc_fb_int {
	u32 psn;
	u8 n_hops;
	u16 path_id;
	struct rxe_cc_int_hop hop[RXE_CC_INT_MAX_HOPS];
};

/*
 * TCD mark echo (specs/wire.md §7.4 (c), specs/acc.md §3.2): the data
 * receiver of a QP with RXE_CC_WIRE_TCD echoes the ternary marks of the
 * data packets an ACK-class packet covers in BTH byte 4 (FECN | BECN |
 * resv6a), which the ICRC masks. Byte masks:
 */
#define RXE_CC_TCD_FECN		0x80	/* never sent, ignored on receive */
#define RXE_CC_TCD_BECN		0x40	/* CE seen since the previous ACK */
#define RXE_CC_TCD_CAP		(RXE_CC_BTH_CAP >> 24)	/* rxe-cc peer */
#define RXE_CC_TCD_CE_CNT	0x1e	/* CE packets covered, 0..15 */
#define RXE_CC_TCD_CE_CNT_SHIFT	1
#define RXE_CC_TCD_CE_CNT_MAX	15	/* saturates: 15 or more */
#define RXE_CC_TCD_UE		0x01	/* ECT(1) seen, no CE */

/**
 * struct rxe_cc_fb_tcd - the mark echo of a response packet
 * @psn: the PSN the response packet carried (the one its on_ack got)
 * @echo: its BTH byte 4, as received (RXE_CC_TCD_*)
 *
 * Delivered for every ACK-class packet the completer processed whose PSN
 * lies inside the send window, right after that packet's on_ack and in
 * the same lock hold; the algorithm checks the bits.
 */
struct rxe_cc_fb_tcd {
	u32 psn;
	u8 echo;
};

/**
 * struct rxe_cc_tcd_rx - marks of the data packets a receiver has not
 *	acknowledged yet (the responder's side of RXE_CC_WIRE_TCD)
 * @ce: CE packets, saturating at RXE_CC_TCD_CE_CNT_MAX
 * @ue: an ECT(1) packet arrived
 */
struct rxe_cc_tcd_rx {
	u8 ce;
	u8 ue;
};

/* a data packet with IP ECN codepoint @ecn arrived (not a duplicate) */
static inline void rxe_cc_tcd_rx_data(struct rxe_cc_tcd_rx *r, u8 ecn)
{
	if (ecn == RXE_CC_ECN_CE) {
		if (r->ce < RXE_CC_TCD_CE_CNT_MAX)
			r->ce++;
	} else if (ecn == RXE_CC_ECN_ECT1) {
		r->ue = 1;
	}
}

/*
 * The mark bits of BTH byte 4 for the ACK about to be sent, which covers
 * the packets noted since the previous one; starts a new aggregate. CE
 * wins over UE. A duplicate's ACK echoes nothing (call it for new ACKs
 * only).
 */
static inline u8 rxe_cc_tcd_echo(struct rxe_cc_tcd_rx *r)
{
	u8 echo = 0;

	if (r->ce)
		echo = RXE_CC_TCD_BECN | r->ce << RXE_CC_TCD_CE_CNT_SHIFT;
	else if (r->ue)
		echo = RXE_CC_TCD_UE;
	r->ce = 0;
	r->ue = 0;
	return echo;
}

/**
 * union rxe_cc_fb - payload of on_feedback, selected by enum rxe_cc_fb_kind
 * @cnp: RXE_CC_FB_CNP
 * @pause: RXE_CC_FB_PAUSE
 * @int_stack: RXE_CC_FB_INT
 * @tcd: RXE_CC_FB_TCD
 * @frp: RXE_CC_FB_FRP
 */
union rxe_cc_fb {
	struct rxe_cc_fb_cnp cnp;
	struct rxe_cc_fb_pause pause;
	struct rxe_cc_fb_int int_stack;
	struct rxe_cc_fb_tcd tcd;
	struct rxe_cc_frp frp;
};

/**
 * rxe_cc_int_parse() - decode an INT shim
 * @shim: RXE_CC_INT_SHIM_BYTES bytes
 * @psn: the PSN of the packet that carried it
 * @fb: the stack, filled in
 *
 * Return: false for more hops than slots (nothing else in a shim can be
 * malformed on its own; rate codes are checked by the algorithm).
 */
static inline bool rxe_cc_int_parse(const u8 *shim, u32 psn,
				    struct rxe_cc_fb_int *fb)
{
	u32 w = (u32)shim[0] << 8 | shim[1];
	u64 v;
	int i, j;

	if ((w >> 12) > RXE_CC_INT_MAX_HOPS)
		return false;
	fb->psn = psn & 0xffffff;
	fb->n_hops = w >> 12;
	fb->path_id = w & RXE_CC_INT_PATH_MASK;
	for (i = 0; i < fb->n_hops; i++) {
		v = 0;
		for (j = 0; j < 8; j++)
			v = v << 8 | shim[2 + 8 * i + j];
		fb->hop[i].b = v >> 60;
		fb->hop[i].ts = (v >> 36) & RXE_CC_INT_TS_MASK;
		fb->hop[i].tx_bytes = (v >> 16) & RXE_CC_INT_TXB_MASK;
		fb->hop[i].qlen = v & RXE_CC_INT_QLEN_MAX;
	}
	return true;
}

/* Mbit/s of the fixed link rate codes 1..10; 0 for the configurable ones */
static inline u32 rxe_cc_int_code_mbps(u8 b)
{
	static const u32 mbps[RXE_CC_INT_B_FIXED] = {
		0, 1000, 2500, 5000, 10000, 25000, 40000, 50000, 100000,
		200000, 400000,
	};

	return b < RXE_CC_INT_B_FIXED ? mbps[b] : 0;
}

/**
 * struct rxe_cc_rx - a data-bearing packet received by the QP
 * @bytes: bytes counted like rxe_cc_tx.bytes
 * @psn: its PSN
 * @ecn: RXE_CC_ECN_* from the IP header
 * @ackreq: it carries AckReq
 * @cap: it carries CAP: the sender is an rxe-cc peer
 */
struct rxe_cc_rx {
	u32 bytes;
	u32 psn;
	u8 ecn;
	u8 ackreq;
	u8 cap;
};

/* rxe_cc_np_msg.type */
#define RXE_CC_MSG_CNP		0 /* standard CNP 0x81, zero body */
#define RXE_CC_MSG_PCN_DEC	1 /* CNP 0x81 with PCN's payload, CE */
#define RXE_CC_MSG_PCN_INC	2 /* rate report 0xC2, PCN's payload */
#define RXE_CC_MSG_FRP		3 /* ACCurate forward FRP 0xC0, @frp */
#define RXE_CC_MSG_FRP_RESP	4 /* its echo 0xC1 (the framework's own) */

/**
 * struct rxe_cc_np_msg - a control packet a hook asks to send: feedback of
 *	the notification point, or (RXE_CC_MSG_FRP, from rx_timer) the
 *	sender's flow rate packet
 * @type: RXE_CC_MSG_*
 * @dscp: DSCP of the packet, 0xff for the device default
 * @pcp: 802.1p priority of the packet (skb->priority), 0xff for the
 *	device default
 * @flags: RXE_CC_PCN_* flags of a PCN payload
 * @rate_mbps: its RecRate, Mbit/s
 * @seq: its period sequence
 * @frp: RXE_CC_MSG_FRP: the ACCETH (the framework fills in src_qpn and
 *	version)
 */
struct rxe_cc_np_msg {
	u8 type;
	u8 dscp;
	u8 pcp;
	u8 flags;
	u32 rate_mbps;
	u32 seq;
	struct rxe_cc_frp frp;
};

/* encode @msg's PCN payload into a CNP body (RXE_CNP_BODY_BYTES) */
static inline void rxe_cc_pcn_put(u8 *body, const struct rxe_cc_np_msg *msg)
{
	body[0] = msg->rate_mbps >> 24;
	body[1] = msg->rate_mbps >> 16;
	body[2] = msg->rate_mbps >> 8;
	body[3] = msg->rate_mbps;
	body[4] = RXE_CC_PCN_MAGIC >> 8;
	body[5] = RXE_CC_PCN_MAGIC & 0xff;
	body[6] = msg->flags;
	body[7] = RXE_CC_PCN_VERSION;
	body[8] = msg->seq >> 24;
	body[9] = msg->seq >> 16;
	body[10] = msg->seq >> 8;
	body[11] = msg->seq;
	body[12] = 0;
	body[13] = 0;
	body[14] = 0;
	body[15] = 0;
}

/* rxe_cc_out.flags */
#define RXE_CC_OUT_TIMER	BIT(0) /* @timer_ns is armed */
#define RXE_CC_OUT_RX_TIMER	BIT(1) /* @rx_timer_ns is armed */
#define RXE_CC_OUT_SEND_QUIET	BIT(2) /* on_send has nothing to do now */
#define RXE_CC_OUT_HALT		BIT(3) /* no data packet before @halt_ns */

/* rxe_cc_out.events: set by hooks, read and cleared by the framework */
#define RXE_CC_EV_RATE_DEC	BIT(0) /* the rate or window was cut */
#define RXE_CC_EV_RATE_INC	BIT(1) /* the rate or window was raised */
#define RXE_CC_EV_LIMIT		BIT(2) /* a rate limiter was allocated */
#define RXE_CC_EV_RELEASE	BIT(3) /* the rate limiter was released */
#define RXE_CC_EV_FB_BAD	BIT(4) /* feedback was malformed, ignored */
#define RXE_CC_EV_HALT		BIT(5) /* a source halt began or grew */

/**
 * struct rxe_cc_out - per-QP results of the hooks, read by the framework
 * @rate_bps: pacing rate in bit/s; 0 = not paced
 * @window_bytes: limit on bytes in flight; 0 = no window
 * @timer_ns: call on_timer at or after this time (with RXE_CC_OUT_TIMER)
 * @rx_timer_ns: call rx_timer at or after this time (with
 *	RXE_CC_OUT_RX_TIMER)
 * @flags: RXE_CC_OUT_*
 * @events: RXE_CC_EV_*, accumulated until the framework clears them
 * @halt_ns: with RXE_CC_OUT_HALT, a source halt: the gate holds every data
 *	packet of the QP (requests, retransmissions, READ responses) while
 *	the time is before @halt_ns, as it holds a paused priority, and arms
 *	the QP's timer for @halt_ns; the first packet after the halt starts
 *	the pacer's schedule afresh (a halt earns no credit). A hook may move
 *	@halt_ns while the flag is set; the gate reads it at each decision
 */
struct rxe_cc_out {
	u64 rate_bps;
	u64 window_bytes;
	u64 timer_ns;
	u64 rx_timer_ns;
	u32 flags;
	u32 events;
	u64 halt_ns;
};

struct rxe_cc_ops;

/**
 * struct rxe_cc_ctx - what every hook receives
 * @ops: the QP's algorithm
 * @cfg: its compiled parameters (rxe_cc_ops.cfg_size bytes, read only)
 * @priv: its per-QP state (rxe_cc_ops.priv_size bytes, zeroed before init)
 * @out: results, valid after every hook
 * @in: RXE_CC_IN_*: facts about the QP, refreshed by the framework before
 *	it calls on_send, on_timer, rx_timer or on_feedback of an algorithm
 *	with RXE_CC_F_IN (0 for any other)
 */
struct rxe_cc_ctx {
	const struct rxe_cc_ops *ops;
	const void *cfg;
	void *priv;
	struct rxe_cc_out out;
	u32 in;
};

/*
 * rxe_cc_ctx.in: the QP has data it has not sent yet: its send queue
 * holds a work request not fully sent, or the gate holds its next packet
 * (pacer, PAUSE, halt, SFC). A flow whose packets wait is not idle.
 */
#define RXE_CC_IN_BACKLOG	BIT(0)
/*
 * rxe_cc_ctx.in: the peer's packets carried CAP (wire.md §7.4 (g)): the
 * framework sends it FRPs; until then it withholds them (cc_frp_withheld).
 */
#define RXE_CC_IN_PEER_CAP	BIT(1)

/**
 * struct rxe_cc_ops - a congestion control algorithm
 * @list: registry entry, owned by the framework
 * @name: unique name, e.g. "dcqcn"; names are the ABI
 * @owner: the module holding the algorithm (NULL: built into rdma_rxe);
 *	every QP running it and every device defaulting to it holds a
 *	reference
 * @wire: RXE_CC_WIRE_* features the algorithm uses
 * @flags: RXE_CC_F_*
 * @priv_size: bytes of per-QP state
 * @cfg_size: bytes of compiled parameters
 * @params: parameter table
 * @n_params: its length, at most RXE_CC_MAX_PARAMS
 * @state: names of the values written by @get_state
 * @n_state: their number, at most RXE_CC_MAX_STATE
 * @defaults: fill a parameter set with defaults scaled to @link (optional;
 *	without it the table defaults apply)
 * @setup: compile a parameter set whose values are within the table's
 *	ranges into @cfg; check relations between parameters and return
 *	-EINVAL with a reason in @msg if they do not hold. On success @msg
 *	may point to a warning (a legal but doubtful set)
 * @init: start a QP's algorithm at time @now (state zeroed)
 * @release: stop it (optional)
 * @on_send: a data packet was transmitted
 * @on_ack: the completer processed an ACK, NAK, READ response or atomic
 *	ACK
 * @on_feedback: feedback for the QP as a data sender arrived (at @now)
 * @on_timer: time has passed: catch up to @now and refresh @out; called at
 *	or after rxe_cc_out.timer_ns, after a parameter change and whenever
 *	the framework needs fresh outputs; must be idempotent for one @now
 * @rx_data: notification point: a data packet arrived; returns true if
 *	@msg is to be sent to the peer
 * @rx_timer: notification point timer, at or after rxe_cc_out.rx_timer_ns;
 *	returns true if @msg is to be sent
 * @get_state: write @n_state values describing the state at @now into
 *	@vals, without changing the state
 *
 * Any hook but @setup, @init and @get_state may be NULL.
 */
struct rxe_cc_ops {
	struct list_head list;
	const char *name;
	struct module *owner;
	u32 wire;
	u32 flags;
	u32 priv_size;
	u32 cfg_size;
	const struct rxe_cc_param_desc *params;
	u32 n_params;
	const struct rxe_cc_state_desc *state;
	u32 n_state;

	void (*defaults)(u32 *params, const struct rxe_cc_link *link);
	int (*setup)(void *cfg, const u32 *params,
		     const struct rxe_cc_link *link, const char **msg);

	void (*init)(struct rxe_cc_ctx *cc, u64 now);
	void (*release)(struct rxe_cc_ctx *cc);

	void (*on_send)(struct rxe_cc_ctx *cc, const struct rxe_cc_tx *tx,
			u64 now);
	void (*on_ack)(struct rxe_cc_ctx *cc, const struct rxe_cc_ack *ack,
		       u64 now);
	void (*on_feedback)(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			    const union rxe_cc_fb *fb, u64 now);
	void (*on_timer)(struct rxe_cc_ctx *cc, u64 now);

	bool (*rx_data)(struct rxe_cc_ctx *cc, const struct rxe_cc_rx *rx,
			u64 now, struct rxe_cc_np_msg *msg);
	bool (*rx_timer)(struct rxe_cc_ctx *cc, u64 now,
			 struct rxe_cc_np_msg *msg);

	void (*get_state)(const struct rxe_cc_ctx *cc, u64 now, u64 *vals);
};

/* Registry (rxe_cc.c); the algorithms built into rdma_rxe */
int rxe_cc_register(struct rxe_cc_ops *ops);
void rxe_cc_unregister(struct rxe_cc_ops *ops);
extern struct rxe_cc_ops rxe_cc_fixed_ops;
extern struct rxe_cc_ops rxe_cc_dcqcn_ops;
extern struct rxe_cc_ops rxe_cc_hpcc_ops;
extern struct rxe_cc_ops rxe_cc_acc_ops;
extern struct rxe_cc_ops rxe_cc_pcn_ops;
extern struct rxe_cc_ops rxe_cc_accurate_ops;

/* PCN's laws in Q20 (rxe_cc_pcn.c), for its unit tests */
#define RXE_CC_PCN_Q20_ONE	0x100000U
void rxe_cc_pcn_increase(u64 *rate_kbps, u32 *w, u64 line_kbps, u32 w_max);
u64 rxe_cc_pcn_target(u32 rate_mbps, u32 w_min);

/*
 * Times are u64 ns of one clock per QP. They are compared through their
 * signed difference, so the code stays correct when the clock wraps.
 */

/* true if time @a is before time @b */
static inline bool rxe_cc_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* true if time @a is at or after time @b */
static inline bool rxe_cc_after_eq(u64 a, u64 b)
{
	return (s64)(a - b) >= 0;
}

/* The link's line rate in kbit/s, at most RXE_CC_RATE_KBPS_MAX; 0 if unknown */
static inline u64 rxe_cc_line_kbps(const struct rxe_cc_link *link)
{
	u64 kbps = div64_u64(link->rate_bps, 1000);

	return kbps < RXE_CC_RATE_KBPS_MAX ? kbps : RXE_CC_RATE_KBPS_MAX;
}

/* Time to put @bytes on the wire at @rate_bps (> 0), rounded down */
static inline u64 rxe_cc_tx_time_ns(u32 bytes, u64 rate_bps)
{
	return div64_u64((u64)bytes * 8 * 1000000000ULL, rate_bps);
}

/* Signed distance from PSN @b to PSN @a in the 24-bit PSN space */
static inline s32 rxe_cc_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) / 256;
}

/* PSNs a receiver keeps marks for: twice the requester's PSN window */
#define RXE_CC_TCD_SPAN		256
#define RXE_CC_TCD_WORDS	(RXE_CC_TCD_SPAN / 64)

/**
 * struct rxe_cc_tcd_marks - marks of received data by PSN, until the
 *	response that acknowledges them (the responder's side of
 *	RXE_CC_WIRE_TCD)
 * @ce: CE packets, one bit per PSN modulo RXE_CC_TCD_SPAN
 * @ue: ECT(1) packets, likewise
 * @last: the PSN of the last response that took marks
 * @started: @last is set
 *
 * A packet is noted as it arrives, which may be long before the responder
 * answers the packets before it: a response takes the marks of the PSNs
 * after the previous one's up to its own only, so an echo never counts
 * more marked packets than the response acknowledges, and the response to
 * a duplicate takes none. The requester never has more than half the span
 * unacknowledged, so the bits of PSNs still to come and of PSNs taken never
 * meet.
 */
struct rxe_cc_tcd_marks {
	u64 ce[RXE_CC_TCD_WORDS];
	u64 ue[RXE_CC_TCD_WORDS];
	u32 last;
	bool started;
};

/* a new data packet @psn arrived with IP ECN codepoint @ecn */
static inline void rxe_cc_tcd_note(struct rxe_cc_tcd_marks *m, u32 psn,
				   u8 ecn)
{
	u32 i = psn % RXE_CC_TCD_SPAN;

	if (ecn == RXE_CC_ECN_CE)
		m->ce[i / 64] |= 1ULL << (i % 64);
	else if (ecn == RXE_CC_ECN_ECT1)
		m->ue[i / 64] |= 1ULL << (i % 64);
}

/*
 * The mark bits of BTH byte 4 for a response to PSN @psn: the marks of the
 * PSNs it acknowledges (after the previous response's, up to its own; the
 * first one looks back half the span, and one more than half the span
 * ahead of the previous takes every mark kept).
 */
static inline u8 rxe_cc_tcd_take(struct rxe_cc_tcd_marks *m, u32 psn)
{
	struct rxe_cc_tcd_rx r = {};
	s32 d = RXE_CC_TCD_SPAN / 2;
	u32 i, w;
	u64 b;

	psn &= 0xffffff;
	if (m->started) {
		d = rxe_cc_psn_diff(psn, m->last);
		if (d <= 0)
			return 0;
		/* more than the requester's window: every mark kept is older */
		if (d > RXE_CC_TCD_SPAN / 2)
			d = RXE_CC_TCD_SPAN;
	}
	for (; d > 0; d--) {
		i = (psn - d + 1) % RXE_CC_TCD_SPAN;
		w = i / 64;
		b = 1ULL << (i % 64);
		if (m->ce[w] & b)
			rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_CE);
		else if (m->ue[w] & b)
			rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_ECT1);
		m->ce[w] &= ~b;
		m->ue[w] &= ~b;
	}
	m->last = psn;
	m->started = true;
	return rxe_cc_tcd_echo(&r);
}

/**
 * struct rxe_cc_pacer - when a paced QP may send its next data packet
 * @t_base: when the gap after the last packet started
 * @t_next: earliest send time of the next packet: @t_base plus the time
 *	@bytes take at @rate_bps
 * @rate_bps: the rate @t_next was computed with, 0 = not paced
 * @idle_ns: the time @burst_bytes take at @rate_bps
 * @bytes: bytes of the last packet sent, 0 = none yet
 * @burst_bytes: credit a QP that had nothing to send may take
 *
 * The gap after a packet is computed with the rate in force when the gate
 * next decides: a rate change, raised or cut, re-times the pending gap
 * from its start. The schedule accumulates (@t_base is the previous
 * @t_next), so the average rate survives late wake-ups, and credit beyond
 * @burst_bytes (or what the caller allows a QP it woke up late) is
 * dropped.
 */
struct rxe_cc_pacer {
	u64 t_base;
	u64 t_next;
	u64 rate_bps;
	u64 idle_ns;
	u32 bytes;
	u32 burst_bytes;
};

/**
 * rxe_cc_pacer_set_rate() - apply the rate in force to the pending gap
 * @p: the pacer
 * @rate_bps: the rate now, 0 = not paced
 */
static inline void rxe_cc_pacer_set_rate(struct rxe_cc_pacer *p, u64 rate_bps)
{
	u64 t_next = p->t_base;

	if (p->rate_bps == rate_bps)
		return;
	p->idle_ns = 0;
	if (rate_bps) {
		p->idle_ns = rxe_cc_tx_time_ns(p->burst_bytes, rate_bps);
		if (p->bytes)
			t_next += rxe_cc_tx_time_ns(p->bytes, rate_bps);
	}
	/* the gate reads these two without the lock, in this order */
	WRITE_ONCE(p->t_next, t_next);
	WRITE_ONCE(p->rate_bps, rate_bps);
}

/**
 * rxe_cc_pacer_set_burst() - set the credit of a QP that was idle
 * @p: the pacer; its schedule stays
 * @burst_bytes: the credit, e.g. two frames
 */
static inline void rxe_cc_pacer_set_burst(struct rxe_cc_pacer *p,
					  u32 burst_bytes)
{
	u64 rate_bps = p->rate_bps;

	p->burst_bytes = burst_bytes;
	WRITE_ONCE(p->rate_bps, 0);
	rxe_cc_pacer_set_rate(p, rate_bps);
}

/**
 * rxe_cc_pacer_hold() - must a QP wait before its next data packet?
 * @p: the pacer, its rate set with rxe_cc_pacer_set_rate()
 * @now: the time
 *
 * Return: true until @p->t_next.
 */
static inline bool rxe_cc_pacer_hold(const struct rxe_cc_pacer *p, u64 now)
{
	return READ_ONCE(p->rate_bps) && READ_ONCE(p->bytes) &&
	       rxe_cc_before(now, READ_ONCE(p->t_next));
}

/**
 * rxe_cc_pacer_sent() - account a packet sent at @now
 * @p: the pacer, with the rate the gate let the packet through at (the
 *	caller applies a new rate to the next gap afterwards)
 * @now: when the packet was sent
 * @bytes: bytes charged for it
 * @late_ns: how far behind @now the schedule may be without losing credit
 *	when that is more than the burst: the timer slack, for a QP the gate
 *	held and woke up late; 0 for a QP that had nothing to send
 *
 * Return: the credit dropped, in ns: time in which the pacer would have
 * let the QP send but it did not.
 */
static inline u64 rxe_cc_pacer_sent(struct rxe_cc_pacer *p, u64 now,
				    u32 bytes, u64 late_ns)
{
	u64 credit = late_ns > p->idle_ns ? late_ns : p->idle_ns;
	u64 unused = 0, t_next;

	p->t_base = p->t_next;
	if (!p->bytes) {
		p->t_base = now;
	} else if (rxe_cc_before(p->t_next, now - credit)) {
		if (p->rate_bps)
			unused = now - credit - p->t_next;
		p->t_base = now - credit;
	}
	t_next = p->t_base;
	if (p->rate_bps)
		t_next += rxe_cc_tx_time_ns(bytes, p->rate_bps);
	/* the gate reads these without the lock */
	WRITE_ONCE(p->t_next, t_next);
	WRITE_ONCE(p->bytes, bytes);
	return unused;
}

/* request packets the in-flight record holds (the PSN window is 128) */
#define RXE_CC_SENT_SLOTS	256

/**
 * struct rxe_cc_sent - one request packet sent and not yet acknowledged
 * @psn: its PSN
 * @ackreq: it carried AckReq
 * @bytes: bytes charged for it
 * @time_ns: when it was first sent
 */
struct rxe_cc_sent {
	u32 psn:24;
	u32 ackreq:1;
	u32 bytes;
	u64 time_ns;
};

/**
 * struct rxe_cc_inflight - request packets in flight
 * @slot: ring of RXE_CC_SENT_SLOTS entries, oldest at @head; NULL for a
 *	  QP without acknowledgements (UC) or congestion control
 * @head: index of the oldest entry (free running)
 * @tail: index after the newest entry (free running)
 * @bytes: sum of the bytes of the entries
 * @snd_nxt: PSN after the newest packet sent for the first time
 * @started: @snd_nxt is valid
 * @acked_bytes: bytes acknowledged since the QP started
 *
 * The framework updates it from the requester and the completer, which run
 * in one task, without a lock; snapshots read @bytes and @acked_bytes with
 * READ_ONCE().
 */
struct rxe_cc_inflight {
	struct rxe_cc_sent *slot;
	u32 head;
	u32 tail;
	u64 bytes;
	u32 snd_nxt;
	bool started;
	u64 acked_bytes;
};

/**
 * rxe_cc_inflight_sent() - record a request packet sent at @now
 * @inf: the record, with its ring
 * @psn: the packet's PSN
 * @bytes: bytes charged for it
 * @ackreq: it carries AckReq
 * @now: the time
 *
 * A packet whose PSN was sent before is a (go-back-N) retransmission: its
 * bytes are in flight already and it is not recorded again. A READ
 * request is one packet; the PSNs of its responses are not sent.
 *
 * A full ring (which the PSN window prevents) records nothing.
 *
 * Return: true for a retransmission.
 */
static inline bool rxe_cc_inflight_sent(struct rxe_cc_inflight *inf, u32 psn,
					u32 bytes, bool ackreq, u64 now)
{
	struct rxe_cc_sent *s;

	if (inf->started && rxe_cc_psn_diff(psn, inf->snd_nxt) < 0)
		return true;
	if (inf->tail - inf->head >= RXE_CC_SENT_SLOTS)
		return false;
	s = &inf->slot[inf->tail % RXE_CC_SENT_SLOTS];
	s->psn = psn;
	s->ackreq = ackreq;
	s->bytes = bytes;
	s->time_ns = now;
	inf->tail++;
	WRITE_ONCE(inf->bytes, inf->bytes + bytes);
	inf->snd_nxt = (psn + 1) & 0xffffff;
	inf->started = true;
	return false;
}

/**
 * rxe_cc_inflight_acked() - the completer's PSN is now @comp_psn
 * @inf: the record, with its ring
 * @comp_psn: the PSN the completer expects next: every packet before it is
 *	acknowledged
 * @ack_psn: the PSN the response packet carried
 * @now: its arrival time
 * @ack: its acked_pkts, acked_bytes, inflight_bytes and rtt_ns are set
 *
 * An AckReq packet acknowledged by a response to its own PSN gives an RTT
 * sample: the newest one wins.
 */
static inline void rxe_cc_inflight_acked(struct rxe_cc_inflight *inf,
					 u32 comp_psn, u32 ack_psn, u64 now,
					 struct rxe_cc_ack *ack)
{
	const struct rxe_cc_sent *s;

	ack->acked_pkts = 0;
	ack->acked_bytes = 0;
	ack->rtt_ns = 0;
	while (inf->head != inf->tail) {
		s = &inf->slot[inf->head % RXE_CC_SENT_SLOTS];
		if (rxe_cc_psn_diff(comp_psn, s->psn) <= 0)
			break;
		ack->acked_pkts++;
		ack->acked_bytes += s->bytes;
		if (s->ackreq && s->psn == (ack_psn & 0xffffff))
			ack->rtt_ns = now - s->time_ns;
		inf->head++;
	}
	WRITE_ONCE(inf->bytes, inf->bytes - ack->acked_bytes);
	WRITE_ONCE(inf->acked_bytes, inf->acked_bytes + ack->acked_bytes);
	ack->inflight_bytes = inf->bytes;
}

/**
 * rxe_cc_next_deadline() - when the framework must call the QP's hooks
 * @out: the algorithm's outputs
 * @flags: the algorithm's RXE_CC_F_* flags
 * @t: set to the earliest deadline
 *
 * An algorithm with RXE_CC_F_LAZY_TIMER has its timer_ns served at its next
 * event; rx_timer_ns always wakes the QP (it may send a packet).
 *
 * Return: true if a deadline is armed.
 */
static inline bool rxe_cc_next_deadline(const struct rxe_cc_out *out,
					u32 flags, u64 *t)
{
	bool armed = false;

	if ((out->flags & RXE_CC_OUT_TIMER) && !(flags & RXE_CC_F_LAZY_TIMER)) {
		*t = out->timer_ns;
		armed = true;
	}
	if ((out->flags & RXE_CC_OUT_RX_TIMER) &&
	    (!armed || rxe_cc_before(out->rx_timer_ns, *t))) {
		*t = out->rx_timer_ns;
		armed = true;
	}
	return armed;
}

#endif /* RXE_CC_H */
