/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: honouring 802.1Qbb PFC and 802.3x PAUSE frames received on the
 * netdev of an rxe device (rxe_pfc.c). Called by the congestion control
 * framework (rxe_cc.c): device creation and removal, the transmit gate and
 * the end of a QP's congestion control state.
 */

#ifndef RXE_PFC_H
#define RXE_PFC_H

#include <linux/types.h>

struct rxe_dev;
struct rxe_qp;
struct net_device;

/**
 * rxe_pfc_dscp_prio - 802.1p priority of a DSCP (testbed map)
 * @dscp: the DSCP, 0..63
 *
 * The map of Documentation/rxe-cc/user-guide.rst: DSCP 26 (RoCE data) is
 * priority 3, DSCP 48 (CNPs) is priority 6, every other DSCP priority 0.
 *
 * Return: the priority, 0..7.
 */
static inline unsigned int rxe_pfc_dscp_prio(u8 dscp)
{
	switch (dscp) {
	case 26:
		return 3;
	case 48:
		return 6;
	default:
		return 0;
	}
}

void rxe_pfc_dev_init(struct rxe_dev *rxe, struct net_device *ndev);
void rxe_pfc_dev_cleanup(struct rxe_dev *rxe);
void rxe_pfc_set_rate(struct rxe_dev *rxe, u64 rate_bps);
void rxe_pfc_qp_init(struct rxe_qp *qp);
bool rxe_pfc_hold(struct rxe_qp *qp, bool resp);
void rxe_pfc_qp_stop(struct rxe_qp *qp);

#endif /* RXE_PFC_H */
