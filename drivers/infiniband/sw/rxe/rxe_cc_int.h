/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: what the framework's files offer each other. Who calls whom
 * (Documentation/rxe-cc/framework.rst has the picture):
 *
 *   rxe_cc_nl.c    netlink: registry, conf, qp, stats
 *   rxe_cc_stats.c counters and restrack: qp
 *   rxe_cc_gate.c  transmit gate, pacer, in-flight, ACKs: qp, wire, pfc
 *   rxe_cc_qp.c    QP context, hook runner, timer, receive side: conf,
 *                  wire, registry
 *   rxe_cc_conf.c  parameters and device settings: registry, pfc
 *   rxe_cc_wire.c  ECN, CNP build and checks: rxe only
 *   rxe_cc_sfc.c   BTS receive (SFC back-to-sender pause): qp, wire
 *   rxe_cc.c       registry and system default: nothing
 *   rxe_pfc.c      PAUSE frames and the DSCP map: rxe only
 */

#ifndef RXE_CC_INT_H
#define RXE_CC_INT_H

#include <linux/netlink.h>

#include "rxe_cc.h"
#include "rxe_cc_types.h"
#include "rxe_pfc.h"

struct rxe_dev;
struct rxe_qp;
struct rxe_pkt_info;
struct sk_buff;
struct sock;
struct net;

/* ---- rxe_cc.c: registry ---------------------------------------------------- */

int rxe_cc_algo_get(const char *name, const struct rxe_cc_ops **ops);
void rxe_cc_algo_hold(const struct rxe_cc_ops *ops);
void rxe_cc_algo_put(const struct rxe_cc_ops *ops);
int rxe_cc_algo_get_nth(unsigned int i, const struct rxe_cc_ops **ops);
const char *rxe_cc_algo_name(const struct rxe_cc_ops *ops);
const struct rxe_cc_ops *rxe_cc_default_get(void);

/* ---- rxe_cc_conf.c: parameters and device settings ------------------------ */

int rxe_cc_params_parse(const struct rxe_cc_ops *ops, u32 *params, u32 *user,
			const struct nlattr *nest,
			struct netlink_ext_ack *extack);
void *rxe_cc_compile(const struct rxe_cc_ops *ops, const u32 *params,
		     const struct rxe_cc_link *link,
		     struct netlink_ext_ack *extack);

void rxe_cc_dev_init(struct rxe_dev *rxe, struct net_device *ndev);
void rxe_cc_dev_cleanup(struct rxe_dev *rxe);
struct rxe_dev *rxe_cc_dev_next(struct net *net, long min);

struct rxe_cc_dev_conf {
	const struct rxe_cc_ops *algo;
	u64 line_rate_bps;	/* configured, 0 = netdev speed */
	u64 eff_rate_bps;	/* in use */
	u64 base_rtt_ns;
	bool ecn;
	u32 ack_every;
	u8 cnp_dscp;
	u8 ack_dscp;
	u8 dscp_prio[RXE_PFC_DSCPS];
	bool sfc;
	u32 sfc_max_us;
	u8 sfc_mode;
};

void rxe_cc_dev_get_conf(struct rxe_dev *rxe, struct rxe_cc_dev_conf *conf);
int rxe_cc_dev_get_params(struct rxe_dev *rxe, const struct rxe_cc_ops *ops,
			  u32 *params, u32 *user);

/* what a DEV_SET request asks for; has_* say which fields are present */
struct rxe_cc_dev_req {
	const struct rxe_cc_ops *algo;	/* referenced by the caller */
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
	const u8 *dscp_prio;		/* RXE_PFC_DSCPS values, or NULL */
	u8 sfc;
	bool has_sfc;
	u32 sfc_max_us;
	bool has_sfc_max_us;
	u8 sfc_mode;
	bool has_sfc_mode;
};

int rxe_cc_dev_set(struct rxe_dev *rxe, const struct rxe_cc_dev_req *req,
		   struct netlink_ext_ack *extack);

/* what a QP starts with: the device's settings at that moment */
struct rxe_cc_qp_conf {
	const struct rxe_cc_ops *ops;	/* referenced, NULL = none */
	u32 params[RXE_CC_MAX_PARAMS];
	struct rxe_cc_link link;
	bool ecn;
	u32 ack_every;
	u8 cnp_dscp;
	u8 ack_dscp;
	bool sfc;
	u32 sfc_max_us;
	u8 sfc_mode;
};

int rxe_cc_dev_qp_conf(struct rxe_dev *rxe, const struct rxe_cc_ops *ops,
		       struct rxe_cc_qp_conf *qc);

/* ---- rxe_cc_wire.c: packets ------------------------------------------------ */

u32 rxe_cc_wire_bytes(const struct rxe_qp *qp, u32 paylen);
bool rxe_cc_is_data(const struct rxe_pkt_info *pkt);
u8 rxe_cc_skb_ecn(const struct sk_buff *skb);
u8 rxe_cc_skb_dscp(const struct sk_buff *skb);
bool rxe_cc_cnp_valid(struct rxe_pkt_info *pkt, struct sk_buff *skb,
		      struct rxe_qp *qp);
bool rxe_cc_frp_valid(struct rxe_pkt_info *pkt, struct sk_buff *skb,
		      struct rxe_qp *qp);
void rxe_cc_send_cnp(struct rxe_qp *qp, const struct rxe_cc_np_msg *msg);
bool rxe_cc_int_pkt(const struct sk_buff *skb);
bool rxe_cc_from_peer(const struct rxe_qp *qp, const struct sk_buff *skb);

/* The opcodes that carry an INT shim back: ACK (and NAK), atomic ACK */
static inline bool rxe_cc_int_ack_op(u8 opcode)
{
	return opcode == IB_OPCODE_RC_ACKNOWLEDGE ||
	       opcode == IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE;
}

u32 rxe_cc_int_tx_bytes(const struct rxe_qp *qp);

/* A response that acknowledges: an AETH with an ACK syndrome, no NAK */
bool rxe_cc_aeth_ack(struct rxe_pkt_info *pkt);

/* ---- rxe_cc_qp.c: QP context, hook runner, timer --------------------------- */

u32 rxe_cc_qp_after(struct rxe_qp *qp);
void rxe_cc_arm(struct rxe_qp *qp, u64 t);
void rxe_cc_arm_slack(struct rxe_qp *qp, u64 t, u64 slack);
bool rxe_cc_serve_deadlines(struct rxe_qp *qp, u64 now,
			    struct rxe_cc_np_msg *msg);
bool rxe_cc_feedback(struct rxe_qp *qp, enum rxe_cc_fb_kind kind,
		     const union rxe_cc_fb *fb, u64 now);
void rxe_cc_in_refresh(struct rxe_qp *qp);

struct rxe_cc_qp_info {
	const struct rxe_cc_ops *ops;
	u32 params[RXE_CC_MAX_PARAMS];
	u64 rate_bps;
	u64 window_bytes;
	u64 inflight_bytes;
	u64 acked_bytes;
	u64 state[RXE_CC_MAX_STATE];
	struct rxe_cc_qp_stats stats;
	bool int_tx;
	bool sfc_on;
	struct rxe_cc_sfc sfc;
	u64 now;
};

void rxe_cc_qp_snapshot(struct rxe_qp *qp, struct rxe_cc_qp_info *info);
int rxe_cc_qp_set(struct rxe_qp *qp, const struct rxe_cc_ops *ops,
		  const struct nlattr *params, struct netlink_ext_ack *extack);
int rxe_cc_qp_set_sfc(struct rxe_qp *qp, bool on,
		      struct netlink_ext_ack *extack);

/* Account the events a hook left (taken under the QP's lock) per device. */
static inline void rxe_cc_count_events(struct rxe_dev *rxe, u32 ev)
{
	if (ev & RXE_CC_EV_RATE_DEC)
		rxe_counter_inc(rxe, RXE_CNT_CC_RATE_DEC);
	if (ev & RXE_CC_EV_RATE_INC)
		rxe_counter_inc(rxe, RXE_CNT_CC_RATE_INC);
}

/* ---- rxe_cc_sfc.c: BTS ---------------------------------------------------- */

/* UDP port of BTS (module parameter bts_port), 0 = none */
extern u16 rxe_cc_bts_port;
int rxe_cc_bts_recv(struct sock *sk, struct sk_buff *skb);
int rxe_cc_sfc_init(void);

/* ---- rxe_cc_stats.c -------------------------------------------------------- */

unsigned int rxe_cc_stat_count(void);
const char *rxe_cc_stat_name(unsigned int i);
u64 rxe_cc_stat_value(struct rxe_dev *rxe, unsigned int i);

/* ---- rxe_cc_nl.c ----------------------------------------------------------- */

int rxe_cc_nl_init(void);
void rxe_cc_nl_exit(void);

/* ---- static without KUnit; reachable by rxe_cc_kunit.ko --------------------- */

#if IS_ENABLED(CONFIG_KUNIT)
struct ctl_table;

int rxe_cc_proc_available(const struct ctl_table *table, int write,
			  void *buffer, size_t *lenp, loff_t *ppos);
extern const struct nla_policy rxe_cc_policy[];
int rxe_cc_dev_req_parse(struct nlattr **a, struct rxe_cc_dev_req *req,
			 struct netlink_ext_ack *extack);
bool rxe_cc_hold_at(struct rxe_qp *qp, bool resp, u64 now);
void rxe_cc_sent_at(struct rxe_qp *qp, struct rxe_pkt_info *pkt, u64 now);
#endif

#endif /* RXE_CC_INT_H */
