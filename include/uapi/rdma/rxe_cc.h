/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * rxe-cc: generic netlink interface for congestion control in rxe.
 *
 * Family RXE_CC_GENL_NAME, version RXE_CC_GENL_VERSION. Devices are named by
 * their ib_device name (RXE_CC_A_DEV_NAME), QPs by device and QP number.
 * Writes need CAP_NET_ADMIN in the initial user namespace, as the RDMA
 * netlink core requires for its own writes. A rejected request changes
 * nothing and says why in the extended ACK.
 *
 * Commands (request attributes -> reply attributes):
 *
 * Algorithms are named (ALGO); "none" is no congestion control, the
 * others are those registered (sysctl net.rdma_rxe.cc_available).
 *
 * RXE_CC_CMD_ALGO_GET  dump: one message per algorithm, "none" first:
 *			ALGO, PARAMS (each PARAM with NAME, UNIT, DEFAULT,
 *			RANGE_MIN, RANGE_MAX, HELP), STATE_NAMES (each STATE
 *			with NAME, UNIT).
 * RXE_CC_CMD_DEV_GET   do with DEV_NAME, or dump over all rxe devices:
 *			DEV_NAME, DEV_INDEX, ALGO (default for new QPs), PARAMS
 *			(the device defaults of ALGO, or of the algorithm named
 *			in the request's ALGO; each PARAM with NAME, VALUE and
 *			USER if the user set it), LINE_RATE, BASE_RTT_NS, ECN,
 *			ACK_EVERY, CNP_DSCP, ACK_DSCP, DSCP_PRIO, SFC,
 *			SFC_MAX_US, SFC_MODE.
 * RXE_CC_CMD_DEV_SET   DEV_NAME and any of ALGO, PARAMS (for ALGO, or for
 *			the current default if ALGO is absent), LINE_RATE,
 *			BASE_RTT_NS, ECN, ACK_EVERY, CNP_DSCP, ACK_DSCP,
 *			DSCP_PRIO, SFC, SFC_MAX_US, SFC_MODE (these three for
 *			QPs that start afterwards, as the others). A
 *			parameter the user set keeps its value;
 *			the others follow LINE_RATE and BASE_RTT_NS. A warning
 *			about a legal but doubtful setting comes in the
 *			extended ACK of a successful request.
 * RXE_CC_CMD_QP_GET    do with DEV_NAME and QPN; dump of one device with
 *			DEV_NAME, of every visible device without:
 *			DEV_NAME, QPN, ALGO, PARAMS (each PARAM with NAME,
 *			VALUE), RATE, WINDOW, STATE_NAMES (each STATE with
 *			NAME, UNIT, VALUE), QP_STATS (each STAT with NAME,
 *			VALUE; the bts_* and pause_* ones are SFC's), SFC.
 * RXE_CC_CMD_QP_SET    DEV_NAME, QPN, and ALGO with optional PARAMS
 *			(unnamed parameters take the device defaults), or SFC,
 *			or both; switching the algorithm of a live QP is
 *			allowed, and setting the algorithm it runs changes only
 *			its parameters. SFC 0 ends a pause in force.
 * RXE_CC_CMD_STATS_GET do with DEV_NAME, or dump: DEV_NAME, STATS (each STAT
 *			with NAME, VALUE).
 * RXE_CC_CMD_RATE_EVENT multicast on RXE_CC_MCGRP_EVENTS when a QP's rate
 *			or window changes: DEV_NAME, QPN, ALGO, RATE, WINDOW,
 *			TIME_NS, EVENT, STATE_NAMES (with VALUE), QP_STATS.
 */

#ifndef _UAPI_RDMA_RXE_CC_H
#define _UAPI_RDMA_RXE_CC_H

#define RXE_CC_GENL_NAME	"rxe_cc"
#define RXE_CC_GENL_VERSION	1
#define RXE_CC_MCGRP_EVENTS	"events"

/* longest algorithm and parameter name, with the terminating NUL */
#define RXE_CC_NAME_MAX		48

enum rxe_cc_cmd {
	RXE_CC_CMD_UNSPEC,
	RXE_CC_CMD_ALGO_GET,
	RXE_CC_CMD_DEV_GET,
	RXE_CC_CMD_DEV_SET,
	RXE_CC_CMD_QP_GET,
	RXE_CC_CMD_QP_SET,
	RXE_CC_CMD_STATS_GET,
	RXE_CC_CMD_RATE_EVENT,

	__RXE_CC_CMD_MAX,
	RXE_CC_CMD_MAX = __RXE_CC_CMD_MAX - 1
};

enum rxe_cc_attr {
	RXE_CC_A_UNSPEC,
	RXE_CC_A_PAD,
	RXE_CC_A_DEV_NAME,		/* string, ib_device name */
	RXE_CC_A_DEV_INDEX,		/* u32, ib_device index */
	RXE_CC_A_ALGO,			/* string, algorithm name */
	RXE_CC_A_PARAMS,		/* nest of RXE_CC_A_PARAM */
	RXE_CC_A_PARAM,			/* nest of RXE_CC_A_P_* */
	RXE_CC_A_STATE_NAMES,		/* nest of RXE_CC_A_STATE (names) */
	RXE_CC_A_STATE,			/* nest of RXE_CC_A_S_* */
	/* u64, bit/s; DEV_SET: 0 = the netdev's speed; DEV_GET: rate in use */
	RXE_CC_A_LINE_RATE,
	RXE_CC_A_BASE_RTT_NS,		/* u64, ns, 0 = unknown */
	RXE_CC_A_ECN,			/* u8, 0/1: data packets carry ECT(0) */
	RXE_CC_A_ACK_EVERY,		/* u32, AckReq on every n-th packet, 0 = rxe default */
	/* u8, 0..63, for algorithms without a CNP DSCP parameter of their own */
	RXE_CC_A_CNP_DSCP,
	RXE_CC_A_ACK_DSCP,		/* u8, 0..63, or 255 = the QP's own */
	RXE_CC_A_QPN,			/* u32 */
	RXE_CC_A_RATE,			/* u64, bit/s, 0 = not paced */
	RXE_CC_A_WINDOW,		/* u64, bytes, 0 = no window */
	RXE_CC_A_STATS,			/* nest of RXE_CC_A_STAT */
	RXE_CC_A_STAT,			/* nest of RXE_CC_A_ST_* */
	RXE_CC_A_QP_STATS,		/* nest of RXE_CC_A_STAT, per QP */
	RXE_CC_A_TIME_NS,		/* u64, CLOCK_MONOTONIC ns */
	RXE_CC_A_EVENT,			/* u32, RXE_CC_EVENT_* bits */
	/* binary, RXE_CC_DSCPS bytes: the 802.1p priority (0..7) of each DSCP */
	RXE_CC_A_DSCP_PRIO,
	/* u8, 0/1: the QP takes SFC back-to-sender pauses (BTS) */
	RXE_CC_A_SFC,
	/* u32, us, 1..1000000: ceiling of a BTS pause and of a run of them */
	RXE_CC_A_SFC_MAX_US,
	RXE_CC_A_SFC_MODE,		/* u8, RXE_CC_SFC_MODE_* */

	__RXE_CC_A_MAX,
	RXE_CC_A_MAX = __RXE_CC_A_MAX - 1
};

/* inside RXE_CC_A_PARAM */
enum rxe_cc_param_attr {
	RXE_CC_A_P_UNSPEC,
	RXE_CC_A_P_NAME,		/* string */
	RXE_CC_A_P_VALUE,		/* u32 */
	RXE_CC_A_P_UNIT,		/* u32, enum rxe_cc_unit_id */
	RXE_CC_A_P_DEFAULT,		/* u32 */
	RXE_CC_A_P_RANGE_MIN,		/* u32, smallest accepted value */
	RXE_CC_A_P_RANGE_MAX,		/* u32, largest accepted value */
	RXE_CC_A_P_HELP,		/* string */
	RXE_CC_A_P_USER,		/* flag: set by the user (DEV_GET) */

	__RXE_CC_A_P_MAX,
	RXE_CC_A_P_MAX = __RXE_CC_A_P_MAX - 1
};

/* inside RXE_CC_A_STATE */
enum rxe_cc_state_attr {
	RXE_CC_A_S_UNSPEC,
	RXE_CC_A_S_PAD,
	RXE_CC_A_S_NAME,		/* string */
	RXE_CC_A_S_VALUE,		/* u64 */
	RXE_CC_A_S_UNIT,		/* u32, enum rxe_cc_unit_id */

	__RXE_CC_A_S_MAX,
	RXE_CC_A_S_MAX = __RXE_CC_A_S_MAX - 1
};

/* inside RXE_CC_A_STAT */
enum rxe_cc_stat_attr {
	RXE_CC_A_ST_UNSPEC,
	RXE_CC_A_ST_PAD,
	RXE_CC_A_ST_NAME,		/* string */
	RXE_CC_A_ST_VALUE,		/* u64 */

	__RXE_CC_A_ST_MAX,
	RXE_CC_A_ST_MAX = __RXE_CC_A_ST_MAX - 1
};

/* RXE_CC_A_SFC_MODE: how a BTS updates a pause in force */
#define RXE_CC_SFC_MODE_REPLACE	0	/* the newest BTS wins */
#define RXE_CC_SFC_MODE_MAX	1	/* a pause may only grow */

/* DSCP code points in RXE_CC_A_DSCP_PRIO */
#define RXE_CC_DSCPS		64

/* Units of parameters and state values (same values as enum rxe_cc_unit) */
enum rxe_cc_unit_id {
	RXE_CC_UNIT_ID_NONE,
	RXE_CC_UNIT_ID_BOOL,
	RXE_CC_UNIT_ID_KBPS,
	RXE_CC_UNIT_ID_US,
	RXE_CC_UNIT_ID_NS,
	RXE_CC_UNIT_ID_BYTES,
	RXE_CC_UNIT_ID_PERCENT,
	RXE_CC_UNIT_ID_Q10,
	RXE_CC_UNIT_ID_Q16,
	RXE_CC_UNIT_ID_LOG2,
	RXE_CC_UNIT_ID_DSCP,
	RXE_CC_UNIT_ID_PCP,
};

/* RXE_CC_A_EVENT bits (same values as RXE_CC_EV_*) */
#define RXE_CC_EVENT_RATE_DEC	(1U << 0)
#define RXE_CC_EVENT_RATE_INC	(1U << 1)
#define RXE_CC_EVENT_LIMIT	(1U << 2)
#define RXE_CC_EVENT_RELEASE	(1U << 3)
#define RXE_CC_EVENT_HALT	(1U << 5) /* a source halt began or grew */

#endif /* _UAPI_RDMA_RXE_CC_H */
