/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: framework internals shared by rxe_cc.c and the netlink family
 * (rxe_cc_nl.c).
 */

#ifndef RXE_CC_INT_H
#define RXE_CC_INT_H

#include <linux/netlink.h>

#include "rxe_cc.h"

struct rxe_dev;
struct rxe_qp;

/* most parameters and state values an algorithm may have */
#define RXE_CC_MAX_PARAMS	32
#define RXE_CC_MAX_STATE	24

/* registry: "none" is NULL */
unsigned int rxe_cc_algo_count(void);
const struct rxe_cc_ops *rxe_cc_algo_at(unsigned int i);
int rxe_cc_algo_find(const char *name, const struct rxe_cc_ops **ops);
const char *rxe_cc_algo_name(const struct rxe_cc_ops *ops);

/* parameters */
int rxe_cc_params_parse(const struct rxe_cc_ops *ops, u32 *params,
			const struct nlattr *nest,
			struct netlink_ext_ack *extack);

/* devices */
struct rxe_cc_dev_conf {
	const struct rxe_cc_ops *algo;
	u64 line_rate_bps;	/* configured, 0 = netdev speed */
	u64 eff_rate_bps;	/* in use */
	u64 base_rtt_ns;
	bool ecn;
	u32 ack_every;
	u8 cnp_dscp;
	u8 ack_dscp;
};

void rxe_cc_dev_get_conf(struct rxe_dev *rxe, struct rxe_cc_dev_conf *conf);
int rxe_cc_dev_get_params(struct rxe_dev *rxe, const struct rxe_cc_ops *ops,
			  u32 *params);

/* what a DEV_SET request asks for; has_* say which fields are present */
struct rxe_cc_dev_req {
	const struct rxe_cc_ops *algo;
	bool has_algo;
	const struct nlattr *params;	/* nest, for @algo or the default */
	u64 line_rate_bps;
	bool has_line_rate;
	u64 base_rtt_ns;
	bool has_base_rtt;
	u8 ecn;
	bool has_ecn;
	u32 ack_every;
	bool has_ack_every;
	u8 cnp_dscp;
	bool has_cnp_dscp;
	u8 ack_dscp;
	bool has_ack_dscp;
};

int rxe_cc_dev_set(struct rxe_dev *rxe, const struct rxe_cc_dev_req *req,
		   struct netlink_ext_ack *extack);

/* QPs */
struct rxe_cc_qp_info {
	const struct rxe_cc_ops *ops;
	u32 params[RXE_CC_MAX_PARAMS];
	u64 rate_bps;
	u64 window_bytes;
	u64 state[RXE_CC_MAX_STATE];
	struct rxe_cc_qp_stats stats;
};

void rxe_cc_qp_snapshot(struct rxe_qp *qp, struct rxe_cc_qp_info *info);
int rxe_cc_qp_set(struct rxe_qp *qp, const struct rxe_cc_ops *ops,
		  const struct nlattr *params, struct netlink_ext_ack *extack);

/* device counters of the framework, for the STATS command */
unsigned int rxe_cc_stat_count(void);
const char *rxe_cc_stat_name(unsigned int i);
u64 rxe_cc_stat_value(struct rxe_dev *rxe, unsigned int i);

void rxe_cc_nl_rate_event(struct rxe_qp *qp, u64 rate_bps, u64 window_bytes,
			  u32 events);
void rxe_cc_nl_dev_add(struct rxe_dev *rxe);
void rxe_cc_nl_dev_del(struct rxe_dev *rxe);
int rxe_cc_nl_init(void);
void rxe_cc_nl_exit(void);

#endif /* RXE_CC_INT_H */
