/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: per-QP congestion control for rxe, the interface between the
 * framework and the algorithm cores.
 *
 * An algorithm is a struct rxe_cc_ops: a name, a parameter table and event
 * hooks that are pure logic over the algorithm's per-QP state. Time is passed
 * in as u64 ns, all arithmetic is integer or fixed point, and no hook takes a
 * lock, arms a timer, touches an skb or allocates memory; the framework does
 * all of that and reads the hooks' results from struct rxe_cc_out. The
 * design is described in Documentation/rxe-cc/framework.rst.
 *
 * This header and the algorithm files include only basic headers, so the
 * same sources also build in userspace through a small shim for unit tests.
 */

#ifndef RXE_CC_H
#define RXE_CC_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/math64.h>

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

/* ACC mark echo in BTH byte 4 of ACK-class packets (ICRC-masked) */
#define RXE_CC_ECHO_CE		0x40	/* BECN: CE seen since the last ACK */
#define RXE_CC_ECHO_CE_CNT	0x1e	/* saturating count of CE packets */
#define RXE_CC_ECHO_CE_CNT_SHIFT 1
#define RXE_CC_ECHO_UE		0x01	/* ECT(1) seen, and no CE */

/**
 * enum rxe_cc_algo - algorithm identifiers, stable across releases
 * @RXE_CC_ALGO_NONE: no congestion control, upstream rxe behaviour
 * @RXE_CC_ALGO_FIXED: a static per-QP rate (and optional window)
 * @RXE_CC_ALGO_DCQCN: DCQCN reaction and notification points
 * @RXE_CC_ALGO_HPCC: HPCC, INT-driven window
 * @RXE_CC_ALGO_ACC: ACC, ACK-driven rate and source halt
 * @RXE_CC_ALGO_PCN: PCN, receiver-driven rate
 * @RXE_CC_ALGO_ACCURATE: ACCurate, explicit max-min rates
 *
 * SFC is not an algorithm: its pause gate composes with any of the above
 * (see RXE_CC_WIRE_BTS_RX).
 */
enum rxe_cc_algo {
	RXE_CC_ALGO_NONE	= 0,
	RXE_CC_ALGO_FIXED	= 1,
	RXE_CC_ALGO_DCQCN	= 2,
	RXE_CC_ALGO_HPCC	= 3,
	RXE_CC_ALGO_ACC		= 4,
	RXE_CC_ALGO_PCN		= 5,
	RXE_CC_ALGO_ACCURATE	= 6,
};

/*
 * Wire features an algorithm needs, in rxe_cc_ops.wire. A QP uses a feature
 * only if it is also enabled for the QP (configured on both ends), so an
 * unmodified peer still interoperates.
 */
#define RXE_CC_WIRE_ECT		BIT(0) /* send data as ECT(0) */
#define RXE_CC_WIRE_CNP_RX	BIT(1) /* react to CNP 0x81 (on_cnp) */
#define RXE_CC_WIRE_CNP_TX	BIT(2) /* NP: send what rx_* asks for */
#define RXE_CC_WIRE_ACC_ECHO	BIT(3) /* echo TCD marks in ACKs */
#define RXE_CC_WIRE_INT		BIT(4) /* INT shim on data and ACKs */
#define RXE_CC_WIRE_PCN		BIT(5) /* PCN payload in CNP / 0xC2 */
#define RXE_CC_WIRE_FRP		BIT(6) /* ACCurate FRP 0xC0 / 0xC1 */
#define RXE_CC_WIRE_BTS_RX	BIT(7) /* SFC back-to-sender pauses */

/* Properties of an algorithm, in rxe_cc_ops.flags */
#define RXE_CC_F_LAZY_TIMER	BIT(0) /* deadlines may be served late */

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
#define RXE_CC_TX_IDLE		BIT(4) /* no further packet is ready */
#define RXE_CC_TX_READ_RESP	BIT(5) /* a READ response (responder) */

/**
 * struct rxe_cc_tx - a data packet the QP has just transmitted
 * @bytes: bytes the link is charged for (frame incl. headers and ICRC)
 * @psn: the packet's PSN (24 bits)
 * @msg_left: bytes of the current message still to be sent after it
 * @flags: RXE_CC_TX_*
 */
struct rxe_cc_tx {
	u32 bytes;
	u32 psn;
	u32 msg_left;
	u32 flags;
};

/**
 * enum rxe_cc_ack_type - kind of a feedback packet seen by the completer
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
 * @acked_pkts: packets newly acknowledged by it (0 for a duplicate)
 * @acked_bytes: bytes newly acknowledged, counted like rxe_cc_tx.bytes
 * @inflight_bytes: bytes sent and not yet acknowledged, after this ACK
 * @rtt_ns: RTT sample of the acknowledged AckReq packet, 0 if none
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
 * enum rxe_cc_fb_kind - feedback beyond ACKs and standard CNPs
 * @RXE_CC_FB_INT: HPCC INT stack echoed in an ACK (after its on_ack)
 * @RXE_CC_FB_TCD: ACC ternary mark echoed in an ACK (after its on_ack)
 * @RXE_CC_FB_PCN: PCN rate report (CNP 0x81 with payload, or 0xC2)
 * @RXE_CC_FB_BTS: SFC back-to-sender pause (already applied by the gate)
 * @RXE_CC_FB_FRP: ACCurate FRP response (0xC1)
 */
enum rxe_cc_fb_kind {
	RXE_CC_FB_INT,
	RXE_CC_FB_TCD,
	RXE_CC_FB_PCN,
	RXE_CC_FB_BTS,
	RXE_CC_FB_FRP,
};

#define RXE_CC_INT_MAX_HOPS	5

/**
 * struct rxe_cc_int_hop - one INT record, fields as on the wire
 * @rate_mbps: link capacity, decoded from the B field by the framework
 * @ts: egress timestamp, low 24 bits of ns (wraps)
 * @tx_bytes: transmitted bytes in 128 B units, 20 bits (wraps)
 * @qlen: queue length in 80 B units, 16 bits
 */
struct rxe_cc_int_hop {
	u32 rate_mbps;
	u32 ts;
	u32 tx_bytes;
	u32 qlen;
};

/**
 * struct rxe_cc_fb_int - INT stack of an ACK
 * @ack_psn: PSN of the ACK that carried it
 * @path_id: XOR of the switch IDs (12 bits)
 * @nhop: number of valid records
 * @hop: the records, first hop first
 */
struct rxe_cc_fb_int {
	u32 ack_psn;
	u16 path_id;
	u16 nhop;
	struct rxe_cc_int_hop hop[RXE_CC_INT_MAX_HOPS];
};

/**
 * struct rxe_cc_fb_tcd - TCD mark echo of an ACK (decoded BTH byte 4)
 * @ce: a CE-marked packet arrived since the previous ACK
 * @ue: an ECT(1) ("undetermined") packet arrived and no CE
 * @ce_cnt: number of CE packets covered, saturating at 15 (0 if unknown)
 */
struct rxe_cc_fb_tcd {
	u8 ce;
	u8 ue;
	u8 ce_cnt;
};

/**
 * struct rxe_cc_fb_pcn - PCN rate report
 * @rate_mbps: receiving rate measured by the NP, Mbit/s
 * @seq: NP period sequence number
 * @dec: congestion (decrease) report
 * @rate_valid: @rate_mbps is meaningful
 */
struct rxe_cc_fb_pcn {
	u32 rate_mbps;
	u32 seq;
	u8 dec;
	u8 rate_valid;
};

/**
 * struct rxe_cc_fb_bts - SFC back-to-sender pause
 * @pause_ns: pause length (after the framework's clamp)
 * @qdepth_bytes: queue depth at the congestion point, 0 if unknown
 * @cached: answered from a switch pause cache
 */
struct rxe_cc_fb_bts {
	u64 pause_ns;
	u32 qdepth_bytes;
	u8 cached;
};

/* FRP types, rxe_cc_fb_frp.type and rxe_cc_ctl.type */
#define RXE_CC_FRP_NORMAL	0
#define RXE_CC_FRP_INIT		1
#define RXE_CC_FRP_STOP		2

/**
 * struct rxe_cc_fb_frp - ACCurate FRP response
 * @cr_kbps: current rate, clamped by the contention points
 * @dr_kbps: desired rate, clamped by the contention points
 * @epoch: RRP epoch of the forward FRP
 * @type: RXE_CC_FRP_*
 * @sc: a short-circuit response from a contention point
 */
struct rxe_cc_fb_frp {
	u32 cr_kbps;
	u32 dr_kbps;
	u16 epoch;
	u8 type;
	u8 sc;
};

/**
 * union rxe_cc_fb - payload of on_feedback, selected by enum rxe_cc_fb_kind
 * @int_stack: RXE_CC_FB_INT
 * @tcd: RXE_CC_FB_TCD
 * @pcn: RXE_CC_FB_PCN
 * @bts: RXE_CC_FB_BTS
 * @frp: RXE_CC_FB_FRP
 */
union rxe_cc_fb {
	struct rxe_cc_fb_int int_stack;
	struct rxe_cc_fb_tcd tcd;
	struct rxe_cc_fb_pcn pcn;
	struct rxe_cc_fb_bts bts;
	struct rxe_cc_fb_frp frp;
};

/**
 * struct rxe_cc_ctl - a control packet the reaction point asks to send
 * @type: RXE_CC_FRP_* (ACCurate forward FRP, opcode 0xC0)
 * @counted: STOP only: the flow was counted in this RRP
 * @epoch: RRP epoch
 * @cr_kbps: current rate
 * @dr_kbps: desired rate
 */
struct rxe_cc_ctl {
	u8 type;
	u8 counted;
	u16 epoch;
	u32 cr_kbps;
	u32 dr_kbps;
};

/**
 * struct rxe_cc_rx - a data-bearing packet received by the QP
 * @bytes: bytes counted like rxe_cc_tx.bytes
 * @psn: its PSN
 * @ecn: RXE_CC_ECN_* from the IP header
 * @ackreq: it carries AckReq
 */
struct rxe_cc_rx {
	u32 bytes;
	u32 psn;
	u8 ecn;
	u8 ackreq;
};

/* rxe_cc_np_msg.type */
#define RXE_CC_MSG_CNP		0 /* standard CNP 0x81, zero body */
#define RXE_CC_MSG_PCN		1 /* PCN report: 0x81 if dec, else 0xC2 */

/**
 * struct rxe_cc_np_msg - feedback the notification point asks to send
 * @type: RXE_CC_MSG_*
 * @dscp: DSCP of the packet, 0xff for the device default
 * @pcp: 802.1p priority of the packet, 0xff for the device default
 * @dec: PCN: congestion report (sent as CNP 0x81, IP ECN CE)
 * @rate_valid: PCN: @rate_mbps is meaningful
 * @rate_mbps: PCN: receiving rate, Mbit/s
 * @seq: PCN: period sequence number
 */
struct rxe_cc_np_msg {
	u8 type;
	u8 dscp;
	u8 pcp;
	u8 dec;
	u8 rate_valid;
	u32 rate_mbps;
	u32 seq;
};

/* rxe_cc_out.flags */
#define RXE_CC_OUT_TIMER	BIT(0) /* @timer_ns is armed */
#define RXE_CC_OUT_RX_TIMER	BIT(1) /* @rx_timer_ns is armed */
#define RXE_CC_OUT_HALT		BIT(2) /* hold transmission until @halt_ns */
#define RXE_CC_OUT_SEND_CTL	BIT(3) /* send @ctl, then clear this bit */

/* rxe_cc_out.events: set by hooks, read and cleared by the framework */
#define RXE_CC_EV_RATE_DEC	BIT(0) /* the rate or window was cut */
#define RXE_CC_EV_RATE_INC	BIT(1) /* the rate or window was raised */
#define RXE_CC_EV_LIMIT		BIT(2) /* a rate limiter was allocated */
#define RXE_CC_EV_RELEASE	BIT(3) /* the rate limiter was released */
#define RXE_CC_EV_HALT		BIT(4) /* a halt started or was extended */

/**
 * struct rxe_cc_out - per-QP results of the hooks, read by the framework
 * @rate_bps: pacing rate in bit/s; 0 = not paced
 * @window_bytes: limit on bytes in flight; 0 = no window
 * @halt_ns: no new or retransmitted data before this time (with
 *	RXE_CC_OUT_HALT)
 * @timer_ns: call on_timer at or after this time (with RXE_CC_OUT_TIMER)
 * @rx_timer_ns: call rx_timer at or after this time (with
 *	RXE_CC_OUT_RX_TIMER)
 * @ack_every: AckReq policy: 0 = upstream rxe, n = every n-th packet
 * @flags: RXE_CC_OUT_*
 * @events: RXE_CC_EV_*, accumulated until the framework clears them
 * @ctl: control packet to send (with RXE_CC_OUT_SEND_CTL)
 */
struct rxe_cc_out {
	u64 rate_bps;
	u64 window_bytes;
	u64 halt_ns;
	u64 timer_ns;
	u64 rx_timer_ns;
	u32 ack_every;
	u32 flags;
	u32 events;
	struct rxe_cc_ctl ctl;
};

struct rxe_cc_ops;

/**
 * struct rxe_cc_ctx - what every hook receives
 * @ops: the QP's algorithm
 * @cfg: its compiled parameters (rxe_cc_ops.cfg_size bytes, read only)
 * @priv: its per-QP state (rxe_cc_ops.priv_size bytes, zeroed before init)
 * @out: results, valid after every hook
 */
struct rxe_cc_ctx {
	const struct rxe_cc_ops *ops;
	const void *cfg;
	void *priv;
	struct rxe_cc_out out;
};

/**
 * struct rxe_cc_ops - a congestion control algorithm
 * @name: unique name, e.g. "dcqcn"
 * @id: enum rxe_cc_algo
 * @wire: RXE_CC_WIRE_* features the algorithm uses
 * @flags: RXE_CC_F_*
 * @priv_size: bytes of per-QP state
 * @cfg_size: bytes of compiled parameters
 * @params: parameter table
 * @n_params: its length
 * @state: names of the values written by @get_state
 * @n_state: their number
 * @defaults: fill a parameter set with defaults scaled to @link (optional;
 *	without it the table defaults apply)
 * @setup: compile a parameter set whose values are within the table's
 *	ranges into @cfg; check relations between parameters and return
 *	-EINVAL with a reason in @why if they do not hold
 * @init: start a QP's algorithm at time @now (state zeroed)
 * @release: stop it (optional)
 * @on_send: a data packet was transmitted
 * @on_ack: an ACK, NAK, READ response or atomic ACK arrived
 * @on_cnp: a standard CNP arrived (at time @now)
 * @on_feedback: other feedback arrived
 * @on_timer: time has passed: catch up to @now and refresh @out; called at
 *	or after rxe_cc_out.timer_ns, after a parameter change and whenever
 *	the framework needs fresh outputs; must be idempotent for one @now
 * @rx_data: notification point: a data packet arrived; returns true if
 *	@msg is to be sent to the peer
 * @rx_timer: notification point timer, at or after rxe_cc_out.rx_timer_ns;
 *	returns true if @msg is to be sent
 * @rx_ack: notification point: an ACK is being built; returns the mark
 *	echo bits (RXE_CC_ECHO_*) for its BTH byte 4
 * @get_state: write @n_state values describing the state at @now into
 *	@vals, without changing the state
 *
 * Any hook but @setup, @init and @get_state may be NULL.
 */
struct rxe_cc_ops {
	const char *name;
	u32 id;
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
		     const struct rxe_cc_link *link, const char **why);

	void (*init)(struct rxe_cc_ctx *cc, u64 now);
	void (*release)(struct rxe_cc_ctx *cc);

	void (*on_send)(struct rxe_cc_ctx *cc, const struct rxe_cc_tx *tx,
			u64 now);
	void (*on_ack)(struct rxe_cc_ctx *cc, const struct rxe_cc_ack *ack,
		       u64 now);
	void (*on_cnp)(struct rxe_cc_ctx *cc, u64 now);
	void (*on_feedback)(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			    const union rxe_cc_fb *fb, u64 now);
	void (*on_timer)(struct rxe_cc_ctx *cc, u64 now);

	bool (*rx_data)(struct rxe_cc_ctx *cc, const struct rxe_cc_rx *rx,
			u64 now, struct rxe_cc_np_msg *msg);
	bool (*rx_timer)(struct rxe_cc_ctx *cc, u64 now,
			 struct rxe_cc_np_msg *msg);
	u8 (*rx_ack)(struct rxe_cc_ctx *cc, u64 now);

	void (*get_state)(const struct rxe_cc_ctx *cc, u64 now, u64 *vals);
};

extern const struct rxe_cc_ops rxe_cc_fixed_ops;
extern const struct rxe_cc_ops rxe_cc_dcqcn_ops;

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

/* Time to put @bytes on the wire at @rate_bps (> 0), rounded down */
static inline u64 rxe_cc_tx_time_ns(u32 bytes, u64 rate_bps)
{
	return div64_u64((u64)bytes * 8 * 1000000000ULL, rate_bps);
}

/**
 * rxe_cc_pace() - advance a pacer's next-send time after a transmission
 * @t_next: earliest send time before this packet
 * @now: when the packet was sent
 * @burst_ns: how far an idle pacer may lag behind @now (catch-up budget)
 * @bytes: bytes charged for the packet
 * @rate_bps: pacing rate, 0 = not paced
 *
 * Return: the earliest send time of the next packet.
 */
static inline u64 rxe_cc_pace(u64 t_next, u64 now, u64 burst_ns, u32 bytes,
			      u64 rate_bps)
{
	if (!rate_bps)
		return now;
	if (rxe_cc_before(t_next, now - burst_ns))
		t_next = now - burst_ns;
	return t_next + rxe_cc_tx_time_ns(bytes, rate_bps);
}

/**
 * rxe_cc_pace_unused() - pacing credit a transmission finds unused
 * @t_next: earliest send time before this packet, 0 = nothing sent yet
 * @now: when the packet is sent
 * @burst_ns: the catch-up budget (as for rxe_cc_pace())
 * @rate_bps: pacing rate, 0 = not paced
 *
 * Return: how long, beyond @burst_ns, the pacer had let the QP send before
 * @now: the credit rxe_cc_pace() drops.
 */
static inline u64 rxe_cc_pace_unused(u64 t_next, u64 now, u64 burst_ns,
				     u64 rate_bps)
{
	if (!rate_bps || !t_next || !rxe_cc_before(t_next, now - burst_ns))
		return 0;
	return now - burst_ns - t_next;
}

/* Signed distance from PSN @b to PSN @a in the 24-bit PSN space */
static inline s32 rxe_cc_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) / 256;
}

#endif /* RXE_CC_H */
