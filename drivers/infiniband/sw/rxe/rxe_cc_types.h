/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: per-QP and per-device congestion control state of the framework.
 * Embedded in struct rxe_qp and struct rxe_dev (rxe_verbs.h).
 */

#ifndef RXE_CC_TYPES_H
#define RXE_CC_TYPES_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <rdma/rxe_cc.h>

#include "rxe_cc.h"
#include "rxe_cc_sfc.h"

/**
 * struct rxe_cc_qp_stats - per-QP counters, written under rxe_cc_qp.lock
 * @cnp_rx: CNPs received and handed to the algorithm
 * @cnp_tx: CNPs sent by this QP as a notification point
 * @ce_rx: CE-marked data packets received
 * @pacer_waits: times the gate held the QP
 * @pacer_unused_ns: pacing credit left unused: time, beyond the catch-up
 *		     budget, in which the pacer let the QP send but it sent
 *		     nothing (it had no data or was not run in time)
 * @rate_dec: rate or window decreases
 * @rate_inc: rate or window increases
 * @retx_pkts: request packets sent again (go-back-N)
 */
struct rxe_cc_qp_stats {
	u64 cnp_rx;
	u64 cnp_tx;
	u64 ce_rx;
	u64 pacer_waits;
	u64 pacer_unused_ns;
	u64 rate_dec;
	u64 rate_inc;
	u64 retx_pkts;
};

/**
 * struct rxe_cc_qp - congestion control state of one QP
 * @lock: serialises every hook and the fields below (spin_lock_bh)
 * @timer: soft hrtimer for the pacer, a pause and algorithm deadlines
 * @active: the QP may arm @timer (cleared when its CC state ends)
 * @armed: @timer is armed for @armed_ns
 * @armed_ns: when @timer fires
 * @tx_wait: the requester is held by the gate; the timer kicks send_task
 * @resp_wait: the responder is held by the gate; the timer kicks recv_task
 * @wait_ns: when the earliest of those waits ends
 * @held: the gate held the QP since its last data packet
 * @range_ns: how late the timer of the gate's last hold may fire
 * @pacer_fresh: packets went out unaccounted (rxe_cc_sent_slow()): the
 *	pacer's next packet starts its schedule afresh; set without @lock
 *	(READ_ONCE/WRITE_ONCE everywhere)
 * @ctx: the algorithm's context (ops, cfg, priv, out); ops NULL = none
 * @params: the parameter set in force (ops->n_params values)
 * @link: what the algorithm was told about the link
 * @pacer: the pacer
 * @slack_ns: timer slack, and the credit of a QP held and woken up late
 * @ackreq: the requester's next packet fills the window: it asks for an
 *	    ACK (send_task only)
 * @paused: the QP's last gate decision found its priority paused
 * @halted: a gate decision found a source halt (RXE_CC_OUT_HALT) in force;
 *	the first decision after its end starts the pacer afresh
 * @started: the QP reached RTR (its algorithm was chosen)
 * @ect: data packets carry ECT(0)
 * @cnp_dscp: DSCP of CNPs this QP sends
 * @ack_dscp: DSCP of its ACKs, RXE_CC_DSCP_OWN = the QP's own
 * @ack_every: AckReq on every n-th packet, 0 = upstream policy
 * @ack_paced: AckReq at least on every n-th packet, so that the packets
 *	between two AckReqs take at most a quarter of the QP's transport
 *	timeout at the pacing rate; 0 = no bound (rxe_cc_ack_limit())
 * @ack_paced_rate: the pacing rate @ack_paced was computed for
 * @ack_paced_tmo: the transport timeout (jiffies) it was computed for
 * @ack_paced_mtu: the path MTU it was computed for
 * @ack_paced_max_bps: from this rate on, no bound (0: none at any rate)
 * @int_cap: the algorithm uses INT (and the device has an INT port): the
 *	QP's packets carry CAP, and it echoes INT shims into its ACKs
 * @int_tx: the peer announced CAP: request packets carry the INT shim
 * @tcd: the algorithm takes TCD mark echoes (RXE_CC_WIRE_TCD): the QP
 *	echoes the marks of the data it receives in its ACK-class packets,
 *	and its completer delivers the echoes it gets (RXE_CC_FB_TCD)
 * @cap: the QP's packets carry CAP (@int_cap or @tcd)
 * @frp: the algorithm sends ACCurate FRPs (RXE_CC_WIRE_FRP)
 * @peer_cap: a response of the peer carried CAP: FRPs may go to it
 * @rx_ce_only: the algorithm sees only CE-marked data (RXE_CC_F_RX_CE_ONLY),
 *	so the receive hook may skip the others without the lock
 * @tcd_marks: marks of received data not echoed yet
 * @sfc_on: the QP takes BTS (SFC back-to-sender pauses); read locklessly
 * @sfc_max_us: ceiling of its pauses and of a run of them
 * @sfc_mode: enum rxe_cc_sfc_mode
 * @sfc_held: a gate decision found a BTS pause in force; the first one
 *	after its end starts the pacer afresh (read locklessly)
 * @sfc: the pause, its hold budget and counters
 * @unused_ns: unused pacing credit not yet added to the device counter
 * @last_rate: rate last reported by a tracepoint/event
 * @inflight: request packets in flight
 * @stats: counters
 */
struct rxe_cc_qp {
	spinlock_t lock;	/* serialises hooks and the fields below */
	struct hrtimer timer;
	bool active;
	bool armed;
	u64 armed_ns;
	bool tx_wait;
	bool resp_wait;
	u64 wait_ns;
	bool held;
	u64 range_ns;
	bool pacer_fresh;
	struct rxe_cc_ctx ctx;
	u32 *params;
	struct rxe_cc_link link;
	struct rxe_cc_pacer pacer;
	u64 slack_ns;
	bool ackreq;
	bool paused;
	bool halted;
	bool started;
	bool ect;
	u8 cnp_dscp;
	u8 ack_dscp;
	u32 ack_every;
	u32 ack_paced;
	u64 ack_paced_rate;
	unsigned long ack_paced_tmo;
	u32 ack_paced_mtu;
	u64 ack_paced_max_bps;
	bool int_cap;
	bool int_tx;
	bool tcd;
	bool cap;
	bool frp;
	bool peer_cap;
	bool rx_ce_only;
	struct rxe_cc_tcd_marks tcd_marks;
	bool sfc_on;
	u32 sfc_max_us;
	u8 sfc_mode;
	bool sfc_held;
	struct rxe_cc_sfc sfc;
	u64 unused_ns;
	u64 last_rate;
	struct rxe_cc_inflight inflight;
	struct rxe_cc_qp_stats stats;
};

/**
 * struct rxe_cc_dev_params - a device's parameter set of one algorithm
 * @node: entry in rxe_cc_dev.params
 * @name: the algorithm's name (a set outlives the algorithm's module)
 * @n: number of values, the algorithm's n_params
 * @user: bit i: parameter i was set by the user and is kept when the link
 *	  changes; the others follow the link (rxe_cc_ops.defaults)
 * @vals: the values
 */
struct rxe_cc_dev_params {
	struct list_head node;
	char name[RXE_CC_NAME_MAX];
	u32 n;
	u32 user;
	u32 vals[];
};

/**
 * struct rxe_cc_dev - congestion control settings of a device
 * @node: entry in the framework's device list
 * @lock: serialises configuration changes and QP starts
 * @algo: default algorithm for new QPs, NULL = none; holds a reference
 * @params: the device's parameter sets (struct rxe_cc_dev_params), made
 *	    when an algorithm is first used or configured on the device
 * @line_rate_bps: line rate used by the pacer, 0 = the netdev's speed
 * @netdev_rate_bps: the netdev's speed when the device was created
 * @base_rtt_ns: base RTT given to the algorithms, 0 = unknown
 * @ecn: data packets of CC QPs carry ECT(0)
 * @ack_every: AckReq policy for CC QPs, 0 = upstream
 * @cnp_dscp: DSCP of CNPs
 * @ack_dscp: DSCP of ACKs of CC QPs, RXE_CC_DSCP_OWN = the QP's own
 * @sfc: new QPs take BTS (SFC back-to-sender pauses)
 * @sfc_max_us: their ceiling of a pause and of a run of pauses
 * @sfc_mode: how a BTS updates a pause in force (enum rxe_cc_sfc_mode)
 */
struct rxe_cc_dev {
	struct list_head node;
	struct mutex lock;	/* serialises changes and QP starts */
	const struct rxe_cc_ops *algo;
	struct list_head params;
	u64 line_rate_bps;
	u64 netdev_rate_bps;
	u64 base_rtt_ns;
	bool ecn;
	u32 ack_every;
	u8 cnp_dscp;
	u8 ack_dscp;
	bool sfc;
	u32 sfc_max_us;
	u8 sfc_mode;
};

#define RXE_CC_DSCP_OWN		0xff

#endif /* RXE_CC_TYPES_H */
