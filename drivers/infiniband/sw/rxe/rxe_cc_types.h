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
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "rxe_cc.h"

/* Algorithms known to the framework besides "none" */
#define RXE_CC_NUM_ALGOS	2

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
 */
struct rxe_cc_qp_stats {
	u64 cnp_rx;
	u64 cnp_tx;
	u64 ce_rx;
	u64 pacer_waits;
	u64 pacer_unused_ns;
	u64 rate_dec;
	u64 rate_inc;
};

/**
 * struct rxe_cc_qp - congestion control state of one QP
 * @lock: serialises every hook and the fields below (spin_lock_bh)
 * @timer: soft hrtimer that kicks send_task for the pacer and deadlines
 * @ctx: the algorithm's context (ops, cfg, priv, out); ops NULL = none
 * @params: the parameter set in force (ops->n_params values)
 * @link: what the algorithm was told about the link
 * @t_next: pacer: earliest send time of the next data packet
 * @burst_ns: pacer: credit an idle QP may take
 * @resp_wait: the responder is held by the gate; the timer kicks recv_task
 * @started: init() ran (QP reached RTR)
 * @ect: data packets carry ECT(0)
 * @cnp_dscp: DSCP of CNPs this QP sends
 * @ack_dscp: DSCP of its ACKs, RXE_CC_DSCP_OWN = the QP's own
 * @ack_every: AckReq on every n-th packet, 0 = upstream policy
 * @last_rate: rate last reported by a tracepoint/event
 * @stats: counters
 * @pfc: the device honours PAUSE and this QP's data can be paused (RC, UC)
 * @pfc_wait: the QP is held by a PAUSE (counted in rxe_pfc_dev.waiters)
 * @pfc_prio: the priority it waits for
 */
struct rxe_cc_qp {
	spinlock_t lock;	/* serialises hooks and the fields below */
	struct hrtimer timer;
	struct rxe_cc_ctx ctx;
	u32 *params;
	struct rxe_cc_link link;
	u64 t_next;
	u64 burst_ns;
	unsigned int resp_wait;
	bool started;
	bool ect;
	u8 cnp_dscp;
	u8 ack_dscp;
	u32 ack_every;
	u64 last_rate;
	struct rxe_cc_qp_stats stats;
	bool pfc;
	bool pfc_wait;
	u8 pfc_prio;
};

/* 802.1p priorities a PFC frame addresses */
#define RXE_PFC_PRIOS		8

/**
 * struct rxe_pfc_dev - PAUSE/PFC emulation of a device (rxe_pfc.c)
 * @on: the device honours PAUSE frames (decided when it is created)
 * @mc: the MAC-control group address was added to the netdev
 * @ndev: the netdev the handler is bound to, held while it is
 * @tracker: reference tracker of @ndev
 * @pt: receive handler of ETH_P_PAUSE frames on @ndev
 * @rate_bps: line rate a pause quantum is converted with (the CC line rate)
 * @until: per priority, CLOCK_MONOTONIC ns the pause ends; 0 = not paused.
 *	   Written by the receive handler, read by the transmit gate, lockless.
 * @lock: serialises @waiters, @since and @paused_ns
 * @waiters: QPs held by a pause
 * @since: when @waiters last became non-zero
 * @paused_ns: total time at least one QP was held by a pause
 */
struct rxe_pfc_dev {
	bool on;
	bool mc;
	struct net_device *ndev;
	netdevice_tracker tracker;
	struct packet_type pt;
	u64 rate_bps;
	u64 until[RXE_PFC_PRIOS];
	spinlock_t lock;	/* waiters and the paused time */
	unsigned int waiters;
	u64 since;
	u64 paused_ns;
};

/**
 * struct rxe_cc_dev - congestion control settings of a device
 * @node: entry in the framework's device list (netlink dumps)
 * @lock: serialises configuration changes and QP starts
 * @algo: default algorithm for new QPs, NULL = none
 * @params: device default parameter set of each algorithm
 * @user_params: @params[i] was set by the user (not rescaled)
 * @line_rate_bps: line rate used by the pacer, 0 = the netdev's speed
 * @netdev_rate_bps: the netdev's speed when the device was created
 * @base_rtt_ns: base RTT given to the algorithms, 0 = unknown
 * @ecn: data packets of CC QPs carry ECT(0)
 * @ack_every: AckReq policy for CC QPs, 0 = upstream
 * @cnp_dscp: DSCP of CNPs
 * @ack_dscp: DSCP of ACKs of CC QPs, RXE_CC_DSCP_OWN = the QP's own
 * @pfc: PAUSE/PFC emulation
 */
struct rxe_cc_dev {
	struct list_head node;
	struct mutex lock;	/* serialises changes and QP starts */
	const struct rxe_cc_ops *algo;
	u32 *params[RXE_CC_NUM_ALGOS];
	bool user_params[RXE_CC_NUM_ALGOS];
	u64 line_rate_bps;
	u64 netdev_rate_bps;
	u64 base_rtt_ns;
	bool ecn;
	u32 ack_every;
	u8 cnp_dscp;
	u8 ack_dscp;
	struct rxe_pfc_dev pfc;
};

#define RXE_CC_DSCP_OWN		0xff

#endif /* RXE_CC_TYPES_H */
