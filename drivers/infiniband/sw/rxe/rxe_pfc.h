/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: honouring 802.1Qbb PFC and 802.3x PAUSE frames received on the
 * netdev of an rxe device (rxe_pfc.c), and the device's DSCP to 802.1p
 * priority map. The transmit gate of the congestion control framework
 * (rxe_cc_gate.c) asks rxe_pfc_hold() before a QP sends data.
 */

#ifndef RXE_PFC_H
#define RXE_PFC_H

#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct rxe_dev;
struct rxe_qp;

/* 802.1p priorities a PFC frame addresses */
#define RXE_PFC_PRIOS		8
/* IP DSCP code points */
#define RXE_PFC_DSCPS		64

/**
 * struct rxe_pfc_qp - PAUSE state of a QP, under rxe_pfc_dev.lock
 * @on: the device honours PAUSE and the QP's data can be paused (RC, UC)
 * @wait: the QP is held by a pause (counted in rxe_pfc_dev.waiters)
 * @prio: the priority it waits for
 */
struct rxe_pfc_qp {
	bool on;
	bool wait;
	u8 prio;
};

/**
 * struct rxe_pfc_dev - PAUSE/PFC emulation and DSCP map of a device
 * @on: the device honours PAUSE frames (decided when it is created)
 * @mc: the MAC-control group address was added to the netdev
 * @ndev: the netdev the handler is bound to, held while it is
 * @tracker: reference tracker of @ndev
 * @pt: receive handler of ETH_P_PAUSE frames on @ndev
 * @rate_bps: line rate a pause quantum is converted with (the CC line rate)
 * @prio: priority of each DSCP; read locklessly, written under the
 *	  device's configuration lock
 * @until: per priority, CLOCK_MONOTONIC ns the pause ends; 0 = not paused.
 *	   Written by the receive handler, read by the transmit gate, lockless.
 * @lock: serialises the QPs' &struct rxe_pfc_qp, @waiters, @since and
 *	  @paused_ns
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
	u8 prio[RXE_PFC_DSCPS];
	u64 until[RXE_PFC_PRIOS];
	spinlock_t lock;	/* QP wait states, waiters and paused time */
	unsigned int waiters;
	u64 since;
	u64 paused_ns;
};

void rxe_pfc_dev_init(struct rxe_dev *rxe, struct net_device *ndev);
void rxe_pfc_dev_cleanup(struct rxe_dev *rxe);
void rxe_pfc_set_rate(struct rxe_dev *rxe, u64 rate_bps);
int rxe_pfc_parse_map(const char *s, u8 *prio, const char **why);
void rxe_pfc_set_map(struct rxe_dev *rxe, const u8 *prio);
void rxe_pfc_get_map(struct rxe_dev *rxe, u8 *prio);
unsigned int rxe_pfc_qp_prio(struct rxe_qp *qp);
void rxe_pfc_qp_init(struct rxe_qp *qp);
bool rxe_pfc_hold(struct rxe_qp *qp, u64 now, u64 *until);
void rxe_pfc_qp_stop(struct rxe_qp *qp);

#if IS_ENABLED(CONFIG_KUNIT)
/* static without KUnit; reachable by rxe_cc_kunit.ko */
int rxe_pfc_rcv(struct sk_buff *skb, struct net_device *ndev,
		struct packet_type *pt, struct net_device *orig_dev);
#endif

#endif /* RXE_PFC_H */
