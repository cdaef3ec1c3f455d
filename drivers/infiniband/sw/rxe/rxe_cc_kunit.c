// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: KUnit tests of the congestion control framework, for the code
 * the userspace unit tests cannot reach: netlink request checks and the
 * all-or-nothing device and QP settings, the algorithm registry, the
 * transmit gate driven by a clock of the test's own, and the checks of
 * received CNPs and PAUSE frames.
 *
 * The tests run on devices and QPs of their own, set up only as far as the
 * framework reads them: nothing is registered with the RDMA core and no
 * packet is sent.
 */

#include <crypto/hash.h>
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <net/netlink.h>
#include <rdma/rxe_cc.h>

#include "rxe.h"
#include "rxe_cc_int.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define KT_LINE_RATE	(10ULL * 1000 * 1000 * 1000)
#define KT_MTU		1024
#define KT_QPN		17
#define KT_PEER		cpu_to_be32(0x0a000002)	/* 10.0.0.2 */
#define KT_SELF		cpu_to_be32(0x0a000001)	/* 10.0.0.1 */

/* ---- a test algorithm ------------------------------------------------------ */

enum { KT_RATE, KT_WINDOW, KT_LO, KT_HI, KT_SCALED, KT_NUM };

static const struct rxe_cc_param_desc kt_params[KT_NUM] = {
	[KT_RATE] = { "rate_kbps", "pacing rate, at most the line rate",
		      RXE_CC_UNIT_KBPS, 0, 0, 1U << 31 },
	[KT_WINDOW] = { "window_bytes", "window, 0 = none",
			RXE_CC_UNIT_BYTES, 0, 0, 1U << 30 },
	[KT_LO] = { "lo", "at most hi", RXE_CC_UNIT_NONE, 1, 0, 100 },
	[KT_HI] = { "hi", "at least lo", RXE_CC_UNIT_NONE, 10, 0, 100 },
	[KT_SCALED] = { "scaled", "the line rate in Mbit/s by default",
			RXE_CC_UNIT_NONE, 7, 1, 1000000 },
};

static const struct rxe_cc_state_desc kt_state[] = {
	{ "cnps", RXE_CC_UNIT_NONE },
};

struct kt_cfg {
	u32 p[KT_NUM];
};

struct kt_priv {
	u32 cnps;
	u8 cnp_dscp;
	u32 pauses;
	bool paused;
};

static void kt_defaults(u32 *p, const struct rxe_cc_link *link)
{
	p[KT_SCALED] = clamp_t(u64, div_u64(link->rate_bps, 1000000), 1,
			       1000000);
}

static int kt_setup(void *cfgp, const u32 *p, const struct rxe_cc_link *link,
		    const char **msg)
{
	struct kt_cfg *c = cfgp;

	if (p[KT_LO] > p[KT_HI]) {
		*msg = "lo above hi";
		return -EINVAL;
	}
	if ((u64)p[KT_RATE] * 1000 > link->rate_bps) {
		*msg = "rate above the line rate";
		return -EINVAL;
	}
	memcpy(c->p, p, sizeof(c->p));
	return 0;
}

static void kt_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	const struct kt_cfg *c = cc->cfg;

	cc->out.rate_bps = (u64)c->p[KT_RATE] * 1000;
	cc->out.window_bytes = c->p[KT_WINDOW];
}

static void kt_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			   const union rxe_cc_fb *fb, u64 now)
{
	struct kt_priv *s = cc->priv;

	if (kind == RXE_CC_FB_CNP) {
		s->cnps++;
		s->cnp_dscp = fb->cnp.dscp;
	} else if (kind == RXE_CC_FB_PAUSE) {
		s->pauses++;
		s->paused = fb->pause.paused;
	}
}

static void kt_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *vals)
{
	const struct kt_priv *s = cc->priv;

	vals[0] = s->cnps;
}

static struct rxe_cc_ops kt_ops = {
	.name = "kunit_cc",
	.wire = RXE_CC_WIRE_CNP_RX,
	.flags = RXE_CC_F_IN,
	.priv_size = sizeof(struct kt_priv),
	.cfg_size = sizeof(struct kt_cfg),
	.params = kt_params,
	.n_params = KT_NUM,
	.state = kt_state,
	.n_state = ARRAY_SIZE(kt_state),
	.defaults = kt_defaults,
	.setup = kt_setup,
	.init = kt_on_timer,
	.on_timer = kt_on_timer,
	.on_feedback = kt_on_feedback,
	.get_state = kt_get_state,
};

static struct kt_priv *kt_priv(struct rxe_qp *qp)
{
	return qp->cc.ctx.priv;
}

/* ---- devices and QPs of the tests ------------------------------------------- */

struct kt_env {
	struct rxe_dev *rxe;
	struct rxe_qp *qp;
	const struct rxe_cc_ops *ops;	/* kt_ops, referenced */
};

static struct rxe_dev *kt_dev_new(struct kunit *test)
{
	struct rxe_dev *rxe = kzalloc(sizeof(*rxe), GFP_KERNEL);
	struct rxe_cc_dev *cd;

	KUNIT_ASSERT_NOT_NULL(test, rxe);
	cd = &rxe->cc;
	INIT_LIST_HEAD(&cd->node);	/* on no device list */
	mutex_init(&cd->lock);
	INIT_LIST_HEAD(&cd->params);
	cd->netdev_rate_bps = KT_LINE_RATE;
	cd->ecn = true;
	cd->cnp_dscp = 48;
	cd->ack_dscp = RXE_CC_DSCP_OWN;
	spin_lock_init(&rxe->pfc.lock);
	rxe->pfc.rate_bps = KT_LINE_RATE;
	rxe->port.mtu_cap = KT_MTU;
	rxe->ib_dev.dev.init_name = "rxe_kunit";
	refcount_set(&rxe->ib_dev.refcount, 1);
	init_completion(&rxe->ib_dev.unreg_completion);
	xa_init_flags(&rxe->qp_pool.xa, XA_FLAGS_ALLOC);
	return rxe;
}

static s64 kt_counter(struct rxe_dev *rxe, enum rxe_counters c)
{
	return atomic64_read(&rxe->stats_counters[c]);
}

static void kt_dev_free(struct rxe_dev *rxe)
{
	rxe_cc_dev_cleanup(rxe);
	xa_destroy(&rxe->qp_pool.xa);
	if (rxe->tfm)
		crypto_free_shash(rxe->tfm);
	kfree(rxe);
}

static struct rxe_qp *kt_qp_new(struct kunit *test, struct rxe_dev *rxe,
				enum ib_qp_type type)
{
	struct rxe_qp *qp = kzalloc(sizeof(*qp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, qp);
	qp->ibqp.device = &rxe->ib_dev;
	qp->ibqp.qp_type = type;
	qp->ibqp.qp_num = KT_QPN;
	qp->elem.obj = qp;
	qp->elem.index = KT_QPN;
	/* one reference that the tests never drop: the QP is never freed */
	kref_init(&qp->elem.ref_cnt);
	spin_lock_init(&qp->state_lock);
	qp->attr.qp_state = IB_QPS_RTS;
	qp->mtu = KT_MTU;
	qp->pri_av.network_type = RXE_NETWORK_TYPE_IPV4;
	qp->pri_av.dgid_addr._sockaddr_in.sin_addr.s_addr = KT_PEER;
	rxe_cc_qp_init(qp);
	return qp;
}

static void kt_qp_free(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);

	xa_erase(&rxe->qp_pool.xa, qp->elem.index);
	rxe_cc_qp_cleanup(qp);
	kfree(qp);
}

static int kt_env_init(struct kunit *test)
{
	struct kt_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	test->priv = env;
	KUNIT_ASSERT_EQ(test, rxe_cc_algo_get(kt_ops.name, &env->ops), 0);
	env->rxe = kt_dev_new(test);
	env->qp = kt_qp_new(test, env->rxe, IB_QPT_RC);
	return 0;
}

static void kt_env_exit(struct kunit *test)
{
	struct kt_env *env = test->priv;

	if (env->qp)
		kt_qp_free(env->qp);
	if (env->rxe)
		kt_dev_free(env->rxe);
	rxe_cc_algo_put(env->ops);
}

static int kt_suite_init(struct kunit_suite *suite)
{
	return rxe_cc_register(&kt_ops);
}

static void kt_suite_exit(struct kunit_suite *suite)
{
	rxe_cc_unregister(&kt_ops);
}

/* ---- netlink messages ------------------------------------------------------- */

static void kt_free_skb(void *skb)
{
	kfree_skb(skb);
}

/* An empty attribute buffer, freed with the test. */
static struct sk_buff *kt_msg(struct kunit *test)
{
	struct sk_buff *skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_free_skb,
							skb), 0);
	return skb;
}

/*
 * A u64 attribute as userspace puts it: the family takes no RXE_CC_A_PAD
 * in requests.
 */
static int kt_put_u64(struct sk_buff *skb, int type, u64 val)
{
	return nla_put(skb, type, sizeof(val), &val);
}

/* Add a parameter NAME=VAL to an open PARAMS nest. */
static void kt_put_param(struct kunit *test, struct sk_buff *skb,
			 const char *name, u32 val)
{
	struct nlattr *p = nla_nest_start(skb, RXE_CC_A_PARAM);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, nla_put_string(skb, RXE_CC_A_P_NAME, name), 0);
	KUNIT_ASSERT_EQ(test, nla_put_u32(skb, RXE_CC_A_P_VALUE, val), 0);
	nla_nest_end(skb, p);
}

/* A PARAMS nest with one or two parameters (@name2 may be NULL). */
static struct nlattr *kt_params_nest(struct kunit *test, struct sk_buff *skb,
				     const char *name1, u32 val1,
				     const char *name2, u32 val2)
{
	struct nlattr *nest = nla_nest_start(skb, RXE_CC_A_PARAMS);

	KUNIT_ASSERT_NOT_NULL(test, nest);
	kt_put_param(test, skb, name1, val1);
	if (name2)
		kt_put_param(test, skb, name2, val2);
	nla_nest_end(skb, nest);
	return nest;
}

/* Parse a request the way the generic netlink core does for the family. */
static int kt_parse(struct sk_buff *skb, struct nlattr **tb,
		    struct netlink_ext_ack *extack)
{
	return nla_parse(tb, RXE_CC_A_MAX, (struct nlattr *)skb->data,
			 skb->len, rxe_cc_policy, extack);
}

/* DEV_SET of the attributes in @skb on @rxe, as rxe_cc_dev_set_doit(). */
static int kt_dev_set(struct kunit *test, struct rxe_dev *rxe,
		      struct sk_buff *skb, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1];
	struct rxe_cc_dev_req req;
	int err;

	err = kt_parse(skb, tb, extack);
	if (err)
		return err;
	err = rxe_cc_dev_req_parse(tb, &req, extack);
	if (!err)
		err = rxe_cc_dev_set(rxe, &req, extack);
	rxe_cc_algo_put(req.algo);
	return err;
}

/* ==== suite rxe_cc_dev_set: attribute checks and all-or-nothing DEV_SET ===== */

struct kt_dev_snap {
	struct rxe_cc_dev_conf conf;
	u32 params[RXE_CC_MAX_PARAMS];
	u32 user;
};

static void kt_dev_snap(struct kunit *test, struct rxe_dev *rxe,
			const struct rxe_cc_ops *ops, struct kt_dev_snap *s)
{
	memset(s, 0, sizeof(*s));
	rxe_cc_dev_get_conf(rxe, &s->conf);
	rxe_cc_algo_put(s->conf.algo);
	KUNIT_ASSERT_EQ(test, rxe_cc_dev_get_params(rxe, ops, s->params,
						    &s->user), 0);
}

static void kt_expect_same_dev(struct kunit *test, const struct kt_dev_snap *a,
			       const struct kt_dev_snap *b)
{
	KUNIT_EXPECT_PTR_EQ(test, a->conf.algo, b->conf.algo);
	KUNIT_EXPECT_EQ(test, a->conf.line_rate_bps, b->conf.line_rate_bps);
	KUNIT_EXPECT_EQ(test, a->conf.eff_rate_bps, b->conf.eff_rate_bps);
	KUNIT_EXPECT_EQ(test, a->conf.base_rtt_ns, b->conf.base_rtt_ns);
	KUNIT_EXPECT_EQ(test, a->conf.ecn, b->conf.ecn);
	KUNIT_EXPECT_EQ(test, a->conf.ack_every, b->conf.ack_every);
	KUNIT_EXPECT_EQ(test, a->conf.cnp_dscp, b->conf.cnp_dscp);
	KUNIT_EXPECT_EQ(test, a->conf.ack_dscp, b->conf.ack_dscp);
	KUNIT_EXPECT_MEMEQ(test, a->conf.dscp_prio, b->conf.dscp_prio,
			   RXE_PFC_DSCPS);
	KUNIT_EXPECT_MEMEQ(test, a->params, b->params, sizeof(a->params));
	KUNIT_EXPECT_EQ(test, a->user, b->user);
}

/* The family's policy refuses out-of-range values before any handler. */
static void dev_set_policy_ranges(struct kunit *test)
{
	struct nlattr *tb[RXE_CC_A_MAX + 1];
	u8 prio[RXE_CC_DSCPS + 1] = {};
	struct sk_buff *skb;

	skb = kt_msg(test);
	nla_put_u8(skb, RXE_CC_A_ECN, 2);
	KUNIT_EXPECT_LT(test, kt_parse(skb, tb, NULL), 0);

	skb = kt_msg(test);
	nla_put_u8(skb, RXE_CC_A_CNP_DSCP, 64);
	KUNIT_EXPECT_LT(test, kt_parse(skb, tb, NULL), 0);

	skb = kt_msg(test);
	nla_put_u32(skb, RXE_CC_A_ACK_EVERY, 1025);
	KUNIT_EXPECT_LT(test, kt_parse(skb, tb, NULL), 0);

	skb = kt_msg(test);
	nla_put(skb, RXE_CC_A_DSCP_PRIO, RXE_CC_DSCPS - 1, prio);
	KUNIT_EXPECT_LT(test, kt_parse(skb, tb, NULL), 0);

	skb = kt_msg(test);
	nla_put(skb, RXE_CC_A_DSCP_PRIO, RXE_CC_DSCPS + 1, prio);
	KUNIT_EXPECT_LT(test, kt_parse(skb, tb, NULL), 0);

	/* the limits themselves pass */
	skb = kt_msg(test);
	nla_put_u8(skb, RXE_CC_A_ECN, 1);
	nla_put_u8(skb, RXE_CC_A_CNP_DSCP, 63);
	nla_put_u32(skb, RXE_CC_A_ACK_EVERY, 1024);
	nla_put(skb, RXE_CC_A_DSCP_PRIO, RXE_CC_DSCPS, prio);
	KUNIT_EXPECT_EQ(test, kt_parse(skb, tb, NULL), 0);
}

/*
 * Parse a message of one attribute through the policy and
 * rxe_cc_dev_req_parse(); a refusal must say why.
 */
static int kt_req_parse(struct kunit *test, struct sk_buff *skb,
			struct rxe_cc_dev_req *req)
{
	struct netlink_ext_ack extack = {};
	struct nlattr *tb[RXE_CC_A_MAX + 1];
	int err;

	KUNIT_ASSERT_EQ(test, kt_parse(skb, tb, NULL), 0);
	err = rxe_cc_dev_req_parse(tb, req, &extack);
	rxe_cc_algo_put(req->algo);
	if (err)
		KUNIT_EXPECT_NOT_NULL(test, extack._msg);
	return err;
}

static int kt_req_u64(struct kunit *test, int type, u64 val,
		      struct rxe_cc_dev_req *req)
{
	struct sk_buff *skb = kt_msg(test);

	KUNIT_ASSERT_EQ(test, kt_put_u64(skb, type, val), 0);
	return kt_req_parse(test, skb, req);
}

static int kt_req_u8(struct kunit *test, int type, u8 val,
		     struct rxe_cc_dev_req *req)
{
	struct sk_buff *skb = kt_msg(test);

	KUNIT_ASSERT_EQ(test, nla_put_u8(skb, type, val), 0);
	return kt_req_parse(test, skb, req);
}

static void dev_set_line_rate_range(struct kunit *test)
{
	const u64 mbit = 1000ULL * 1000, gbit = 1000 * mbit;
	struct rxe_cc_dev_req req;

	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_LINE_RATE,
					 mbit - 1, &req), -ERANGE);
	KUNIT_EXPECT_FALSE(test, req.has_line_rate);
	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_LINE_RATE,
					 800 * gbit + 1, &req), -ERANGE);
	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_LINE_RATE, U64_MAX,
					 &req), -ERANGE);

	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_LINE_RATE, 0, &req),
			0);
	KUNIT_EXPECT_TRUE(test, req.has_line_rate);
	KUNIT_EXPECT_EQ(test, req.line_rate_bps, 0);
	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_LINE_RATE, mbit, &req),
			0);
	KUNIT_EXPECT_EQ(test, req.line_rate_bps, mbit);
	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_LINE_RATE, 800 * gbit,
					 &req), 0);
}

static void dev_set_base_rtt_range(struct kunit *test)
{
	struct rxe_cc_dev_req req;

	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_BASE_RTT_NS,
					 10 * NSEC_PER_SEC + 1, &req),
			-ERANGE);
	KUNIT_EXPECT_FALSE(test, req.has_base_rtt);
	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_BASE_RTT_NS, U64_MAX,
					 &req), -ERANGE);
	KUNIT_EXPECT_EQ(test, kt_req_u64(test, RXE_CC_A_BASE_RTT_NS,
					 10 * NSEC_PER_SEC, &req), 0);
	KUNIT_EXPECT_TRUE(test, req.has_base_rtt);
	KUNIT_EXPECT_EQ(test, req.base_rtt_ns, 10 * NSEC_PER_SEC);
}

static void dev_set_ack_dscp_range(struct kunit *test)
{
	struct rxe_cc_dev_req req;

	KUNIT_EXPECT_EQ(test, kt_req_u8(test, RXE_CC_A_ACK_DSCP, 64, &req),
			-ERANGE);
	KUNIT_EXPECT_FALSE(test, req.has_ack_dscp);
	KUNIT_EXPECT_EQ(test, kt_req_u8(test, RXE_CC_A_ACK_DSCP, 254, &req),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, kt_req_u8(test, RXE_CC_A_ACK_DSCP, 63, &req), 0);
	KUNIT_EXPECT_EQ(test, req.ack_dscp, 63);
	KUNIT_EXPECT_EQ(test, kt_req_u8(test, RXE_CC_A_ACK_DSCP, 255, &req), 0);
	KUNIT_EXPECT_TRUE(test, req.has_ack_dscp);
}

static void dev_set_dscp_prio_values(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct nlattr *tb[RXE_CC_A_MAX + 1];
	u8 prio[RXE_CC_DSCPS];
	struct rxe_cc_dev_req req;
	struct sk_buff *skb;

	memset(prio, 7, sizeof(prio));
	skb = kt_msg(test);
	nla_put(skb, RXE_CC_A_DSCP_PRIO, sizeof(prio), prio);
	KUNIT_ASSERT_EQ(test, kt_parse(skb, tb, NULL), 0);
	KUNIT_EXPECT_EQ(test, rxe_cc_dev_req_parse(tb, &req, &extack), 0);
	KUNIT_EXPECT_NOT_NULL(test, req.dscp_prio);

	prio[RXE_CC_DSCPS - 1] = 8;
	skb = kt_msg(test);
	nla_put(skb, RXE_CC_A_DSCP_PRIO, sizeof(prio), prio);
	KUNIT_ASSERT_EQ(test, kt_parse(skb, tb, NULL), 0);
	KUNIT_EXPECT_EQ(test, rxe_cc_dev_req_parse(tb, &req, &extack),
			-ERANGE);
	KUNIT_EXPECT_NOT_NULL(test, extack._msg);
	KUNIT_EXPECT_NULL(test, req.dscp_prio);
}

static void dev_set_unknown_algo(struct kunit *test)
{
	struct netlink_ext_ack extack = {};
	struct nlattr *tb[RXE_CC_A_MAX + 1];
	struct rxe_cc_dev_req req;
	struct sk_buff *skb = kt_msg(test);

	nla_put_string(skb, RXE_CC_A_ALGO, "kunit_no_such");
	KUNIT_ASSERT_EQ(test, kt_parse(skb, tb, NULL), 0);
	KUNIT_EXPECT_EQ(test, rxe_cc_dev_req_parse(tb, &req, &extack),
			-ENOENT);
	KUNIT_EXPECT_NULL(test, req.algo);
	KUNIT_EXPECT_FALSE(test, req.has_algo);
	KUNIT_EXPECT_NOT_NULL(test, extack._msg);
}

/*
 * A DEV_SET that fails anywhere changes nothing, also the fields of the
 * same request that were valid.
 */
static void dev_set_refused_changes_nothing(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct netlink_ext_ack extack;
	struct kt_dev_snap *before, *after;
	struct nlattr *nest, *p;
	struct sk_buff *skb;
	u8 prio[RXE_CC_DSCPS] = {};
	int i;

	/* two snapshots are too large for the stack of a KASAN kernel */
	before = kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	after = kunit_kzalloc(test, sizeof(*after), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_NOT_NULL(test, after);

	/* a user value to keep: rate_kbps 5 Gbit/s */
	skb = kt_msg(test);
	nla_put_string(skb, RXE_CC_A_ALGO, kt_ops.name);
	kt_params_nest(test, skb, "rate_kbps", 5000000, NULL, 0);
	KUNIT_ASSERT_EQ(test, kt_dev_set(test, rxe, skb, NULL), 0);
	kt_dev_snap(test, rxe, env->ops, before);
	KUNIT_ASSERT_PTR_EQ(test, before->conf.algo, env->ops);
	KUNIT_ASSERT_EQ(test, before->params[KT_RATE], 5000000);

	for (i = 0; i < 10; i++) {
		skb = kt_msg(test);
		/* valid changes that must not be applied */
		nla_put_u8(skb, RXE_CC_A_ECN, 0);
		nla_put_u8(skb, RXE_CC_A_CNP_DSCP, 10);
		nla_put_u32(skb, RXE_CC_A_ACK_EVERY, 3);
		memset(prio, 5, sizeof(prio));
		nla_put(skb, RXE_CC_A_DSCP_PRIO, sizeof(prio), prio);
		switch (i) {
		case 0:	/* an ACK DSCP out of range */
			nla_put_u8(skb, RXE_CC_A_ACK_DSCP, 64);
			break;
		case 1:	/* a line rate out of range */
			kt_put_u64(skb, RXE_CC_A_LINE_RATE, 999999);
			break;
		case 2:	/* one parameter of two out of range */
			kt_params_nest(test, skb, "lo", 2, "hi", 101);
			break;
		case 3:	/* parameters that do not compile together */
			kt_params_nest(test, skb, "lo", 50, "hi", 20);
			break;
		case 4:	/* a line rate the user's rate_kbps exceeds */
			kt_put_u64(skb, RXE_CC_A_LINE_RATE,
				   1000ULL * 1000 * 1000);
			break;
		case 5:	/* an unknown parameter after a good one */
			kt_params_nest(test, skb, "lo", 2, "kunit_nope", 1);
			break;
		case 6:	/* parameters for none */
			nla_put_string(skb, RXE_CC_A_ALGO, "none");
			kt_params_nest(test, skb, "lo", 2, NULL, 0);
			break;
		case 7:	/* PARAMS holding something else than a PARAM */
			nest = nla_nest_start(skb, RXE_CC_A_PARAMS);
			kt_put_param(test, skb, "lo", 2);
			nla_put_u32(skb, RXE_CC_A_QPN, 1);
			nla_nest_end(skb, nest);
			break;
		case 8:	/* a PARAM without its value */
			nest = nla_nest_start(skb, RXE_CC_A_PARAMS);
			kt_put_param(test, skb, "lo", 2);
			p = nla_nest_start(skb, RXE_CC_A_PARAM);
			nla_put_string(skb, RXE_CC_A_P_NAME, "hi");
			nla_nest_end(skb, p);
			nla_nest_end(skb, nest);
			break;
		case 9:	/* bytes after the last parameter */
			nest = nla_nest_start(skb, RXE_CC_A_PARAMS);
			kt_put_param(test, skb, "lo", 2);
			skb_put_zero(skb, NLA_HDRLEN);
			nla_nest_end(skb, nest);
			break;
		}
		memset(&extack, 0, sizeof(extack));
		KUNIT_EXPECT_LT_MSG(test, kt_dev_set(test, rxe, skb, &extack),
				    0, "bad request %d accepted", i);
		KUNIT_EXPECT_NOT_NULL_MSG(test, extack._msg,
					  "request %d: no message", i);
		kt_dev_snap(test, rxe, env->ops, after);
		kt_expect_same_dev(test, before, after);
	}

	/* the control: the same valid changes alone are applied */
	skb = kt_msg(test);
	nla_put_u8(skb, RXE_CC_A_ECN, 0);
	nla_put_u8(skb, RXE_CC_A_ACK_DSCP, 63);
	kt_params_nest(test, skb, "lo", 2, "hi", 100);
	KUNIT_EXPECT_EQ(test, kt_dev_set(test, rxe, skb, NULL), 0);
	kt_dev_snap(test, rxe, env->ops, after);
	KUNIT_EXPECT_FALSE(test, after->conf.ecn);
	KUNIT_EXPECT_EQ(test, after->conf.ack_dscp, 63);
	KUNIT_EXPECT_EQ(test, after->params[KT_LO], 2);
	KUNIT_EXPECT_EQ(test, after->params[KT_HI], 100);
	KUNIT_EXPECT_EQ(test, after->params[KT_RATE], 5000000);
	KUNIT_EXPECT_EQ(test, after->user,
			BIT(KT_RATE) | BIT(KT_LO) | BIT(KT_HI));
}

/* A new line rate rescales the values nobody set and keeps the others. */
static void dev_set_relink_rescales_defaults(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct kt_dev_snap s;
	struct sk_buff *skb;

	kt_dev_snap(test, env->rxe, env->ops, &s);
	KUNIT_EXPECT_EQ(test, s.params[KT_SCALED], 10000);

	skb = kt_msg(test);
	kt_params_nest(test, skb, "lo", 3, NULL, 0);
	nla_put_string(skb, RXE_CC_A_ALGO, kt_ops.name);
	kt_put_u64(skb, RXE_CC_A_LINE_RATE, 2500ULL * 1000 * 1000);
	KUNIT_ASSERT_EQ(test, kt_dev_set(test, env->rxe, skb, NULL), 0);
	kt_dev_snap(test, env->rxe, env->ops, &s);
	KUNIT_EXPECT_EQ(test, s.conf.eff_rate_bps, 2500ULL * 1000 * 1000);
	KUNIT_EXPECT_EQ(test, s.params[KT_SCALED], 2500);
	KUNIT_EXPECT_EQ(test, s.params[KT_LO], 3);
	KUNIT_EXPECT_EQ(test, s.user, BIT(KT_LO));

	/* back to the netdev's speed */
	skb = kt_msg(test);
	kt_put_u64(skb, RXE_CC_A_LINE_RATE, 0);
	KUNIT_ASSERT_EQ(test, kt_dev_set(test, env->rxe, skb, NULL), 0);
	kt_dev_snap(test, env->rxe, env->ops, &s);
	KUNIT_EXPECT_EQ(test, s.conf.eff_rate_bps, KT_LINE_RATE);
	KUNIT_EXPECT_EQ(test, s.params[KT_SCALED], 10000);
	KUNIT_EXPECT_EQ(test, s.params[KT_LO], 3);
}

static struct kunit_case rxe_cc_dev_set_cases[] = {
	KUNIT_CASE(dev_set_policy_ranges),
	KUNIT_CASE(dev_set_line_rate_range),
	KUNIT_CASE(dev_set_base_rtt_range),
	KUNIT_CASE(dev_set_ack_dscp_range),
	KUNIT_CASE(dev_set_dscp_prio_values),
	KUNIT_CASE(dev_set_unknown_algo),
	KUNIT_CASE(dev_set_refused_changes_nothing),
	KUNIT_CASE(dev_set_relink_rescales_defaults),
	{}
};

static struct kunit_suite rxe_cc_dev_set_suite = {
	.name = "rxe_cc_dev_set",
	.suite_init = kt_suite_init,
	.suite_exit = kt_suite_exit,
	.init = kt_env_init,
	.exit = kt_env_exit,
	.test_cases = rxe_cc_dev_set_cases,
};

/* ==== suite rxe_cc_qp_set: all-or-nothing QP_SET ============================== */

struct kt_qp_snap {
	const struct rxe_cc_ops *ops;
	u32 params[RXE_CC_MAX_PARAMS];
	u64 rate_bps;
	u64 window_bytes;
};

static void kt_qp_snap(struct rxe_qp *qp, struct kt_qp_snap *s)
{
	struct rxe_cc_qp_info *qi = kzalloc(sizeof(*qi), GFP_KERNEL);

	memset(s, 0, sizeof(*s));
	if (!qi)
		return;
	rxe_cc_qp_snapshot(qp, qi);
	rxe_cc_algo_put(qi->ops);
	s->ops = qi->ops;
	memcpy(s->params, qi->params, sizeof(s->params));
	s->rate_bps = qi->rate_bps;
	s->window_bytes = qi->window_bytes;
	kfree(qi);
}

static void kt_expect_same_qp(struct kunit *test, const struct kt_qp_snap *a,
			      const struct kt_qp_snap *b)
{
	KUNIT_EXPECT_PTR_EQ(test, a->ops, b->ops);
	KUNIT_EXPECT_MEMEQ(test, a->params, b->params, sizeof(a->params));
	KUNIT_EXPECT_EQ(test, a->rate_bps, b->rate_bps);
	KUNIT_EXPECT_EQ(test, a->window_bytes, b->window_bytes);
}

/* The PARAMS nest of a fresh message: NAME1=VAL1[, NAME2=VAL2]. */
static struct nlattr *kt_qp_params(struct kunit *test, const char *name1,
				   u32 val1, const char *name2, u32 val2)
{
	return kt_params_nest(test, kt_msg(test), name1, val1, name2, val2);
}

static void qp_set_refused_changes_nothing(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct netlink_ext_ack extack = {};
	struct kt_qp_snap before, after;
	struct nlattr *bad[4];
	int i;

	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(qp, env->ops,
					    kt_qp_params(test, "rate_kbps",
							 8000, "lo", 4),
					    NULL), 0);
	kt_qp_snap(qp, &before);
	KUNIT_ASSERT_PTR_EQ(test, before.ops, env->ops);
	KUNIT_ASSERT_EQ(test, before.params[KT_LO], 4);
	KUNIT_ASSERT_EQ(test, before.rate_bps, 8000000);

	bad[0] = kt_qp_params(test, "rate_kbps", 1000, "hi", 101);
	bad[1] = kt_qp_params(test, "rate_kbps", 1000, "lo", 101);
	bad[2] = kt_qp_params(test, "rate_kbps", 1000, "kunit_nope", 1);
	/* in range, but not with each other */
	bad[3] = kt_qp_params(test, "lo", 60, "hi", 50);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&extack, 0, sizeof(extack));
		KUNIT_EXPECT_LT_MSG(test, rxe_cc_qp_set(qp, env->ops, bad[i],
							&extack),
				    0, "bad parameters %d accepted", i);
		KUNIT_EXPECT_NOT_NULL(test, extack._msg);
		kt_qp_snap(qp, &after);
		kt_expect_same_qp(test, &before, &after);
	}

	/* none takes no parameters: the QP keeps its algorithm */
	KUNIT_EXPECT_EQ(test, rxe_cc_qp_set(qp, NULL,
					    kt_qp_params(test, "lo", 1, NULL,
							 0),
					    &extack), -EINVAL);
	kt_qp_snap(qp, &after);
	kt_expect_same_qp(test, &before, &after);

	/* the control: the good parameter alone is taken */
	KUNIT_EXPECT_EQ(test, rxe_cc_qp_set(qp, env->ops,
					    kt_qp_params(test, "rate_kbps",
							 1000, NULL, 0),
					    NULL), 0);
	kt_qp_snap(qp, &after);
	KUNIT_EXPECT_EQ(test, after.params[KT_RATE], 1000);
	KUNIT_EXPECT_EQ(test, after.rate_bps, 1000000);
	/* a QP's set starts from the device's, not from its own last one */
	KUNIT_EXPECT_EQ(test, after.params[KT_LO], kt_params[KT_LO].def);
}

/* A refused switch leaves a QP without an algorithm without one. */
static void qp_set_refused_switch(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct kt_qp_snap s;

	KUNIT_EXPECT_EQ(test, rxe_cc_qp_set(env->qp, env->ops,
					    kt_qp_params(test, "hi", 1000,
							 NULL, 0),
					    NULL), -ERANGE);
	kt_qp_snap(env->qp, &s);
	KUNIT_EXPECT_NULL(test, s.ops);
	KUNIT_EXPECT_NULL(test, READ_ONCE(env->qp->cc.ctx.ops));
	KUNIT_EXPECT_FALSE(test, env->qp->cc.started);

	KUNIT_EXPECT_EQ(test, rxe_cc_qp_set(env->qp, env->ops, NULL, NULL), 0);
	kt_qp_snap(env->qp, &s);
	KUNIT_EXPECT_PTR_EQ(test, s.ops, env->ops);
	KUNIT_EXPECT_EQ(test, rxe_cc_qp_set(env->qp, NULL, NULL, NULL), 0);
	kt_qp_snap(env->qp, &s);
	KUNIT_EXPECT_NULL(test, s.ops);
}

static void qp_set_connected_only(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct netlink_ext_ack extack = {};
	struct rxe_qp *ud = kt_qp_new(test, env->rxe, IB_QPT_UD);

	KUNIT_EXPECT_EQ(test, rxe_cc_qp_set(ud, env->ops, NULL, &extack),
			-EOPNOTSUPP);
	KUNIT_EXPECT_NOT_NULL(test, extack._msg);
	KUNIT_EXPECT_NULL(test, READ_ONCE(ud->cc.ctx.ops));
	kt_qp_free(ud);
}

static struct kunit_case rxe_cc_qp_set_cases[] = {
	KUNIT_CASE(qp_set_refused_changes_nothing),
	KUNIT_CASE(qp_set_refused_switch),
	KUNIT_CASE(qp_set_connected_only),
	{}
};

static struct kunit_suite rxe_cc_qp_set_suite = {
	.name = "rxe_cc_qp_set",
	.suite_init = kt_suite_init,
	.suite_exit = kt_suite_exit,
	.init = kt_env_init,
	.exit = kt_env_exit,
	.test_cases = rxe_cc_qp_set_cases,
};

/* ==== suite rxe_cc_registry ================================================== */

static struct rxe_cc_ops kt_reg_a = {
	.name = "kunit_reg_a",
	.params = kt_params,
	.n_params = KT_NUM,
	.cfg_size = sizeof(struct kt_cfg),
	.setup = kt_setup,
	.init = kt_on_timer,
	.get_state = kt_get_state,
};

static struct rxe_cc_ops kt_reg_dup = {
	.name = "kunit_reg_a",
	.setup = kt_setup,
	.init = kt_on_timer,
	.get_state = kt_get_state,
};

static void kt_unregister(void *ops)
{
	rxe_cc_unregister(ops);
}

static void kt_register(struct kunit *test, struct rxe_cc_ops *ops)
{
	KUNIT_ASSERT_EQ(test, rxe_cc_register(ops), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kt_unregister,
							ops), 0);
}

/* net.rdma_rxe.cc_available, read */
static char *kt_available(struct kunit *test)
{
	size_t len = PAGE_SIZE;
	char *buf = kunit_kzalloc(test, PAGE_SIZE + 1, GFP_KERNEL);
	loff_t pos = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, rxe_cc_proc_available(NULL, 0, buf, &len, &pos),
			0);
	buf[len] = '\0';
	return buf;
}

/* How often @name is a word of @list */
static int kt_words(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;
	int count = 0;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\n' || !p[n]))
			count++;
		p += n;
	}
	return count;
}

static void registry_register_lookup_unregister(struct kunit *test)
{
	const struct rxe_cc_ops *ops;

	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get(kt_reg_a.name, &ops), -ENOENT);
	KUNIT_EXPECT_NULL(test, ops);
	kt_register(test, &kt_reg_a);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get(kt_reg_a.name, &ops), 0);
	KUNIT_EXPECT_PTR_EQ(test, ops, &kt_reg_a);
	rxe_cc_algo_put(ops);
	KUNIT_EXPECT_EQ(test, kt_words(kt_available(test), kt_reg_a.name), 1);

	kunit_release_action(test, kt_unregister, &kt_reg_a);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get(kt_reg_a.name, &ops), -ENOENT);
	KUNIT_EXPECT_EQ(test, kt_words(kt_available(test), kt_reg_a.name), 0);
}

static void registry_duplicate_refused(struct kunit *test)
{
	const struct rxe_cc_ops *ops;

	kt_register(test, &kt_reg_a);
	KUNIT_EXPECT_EQ(test, rxe_cc_register(&kt_reg_dup), -EEXIST);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get(kt_reg_a.name, &ops), 0);
	KUNIT_EXPECT_PTR_EQ(test, ops, &kt_reg_a);
	rxe_cc_algo_put(ops);
	KUNIT_EXPECT_EQ(test, kt_words(kt_available(test), kt_reg_a.name), 1);
	/* the built-in ones cannot be registered twice either */
	kt_reg_dup.name = "fixed";
	KUNIT_EXPECT_EQ(test, rxe_cc_register(&kt_reg_dup), -EEXIST);
	kt_reg_dup.name = kt_reg_a.name;
	KUNIT_EXPECT_EQ(test, kt_words(kt_available(test), "fixed"), 1);
}

static const struct rxe_cc_param_desc kt_bad_def_low[] = {
	{ "p", "", RXE_CC_UNIT_NONE, 1, 2, 3 },
};

static const struct rxe_cc_param_desc kt_bad_def_high[] = {
	{ "p", "", RXE_CC_UNIT_NONE, 4, 2, 3 },
};

static const struct rxe_cc_param_desc kt_bad_no_name[] = {
	{ NULL, "", RXE_CC_UNIT_NONE, 2, 2, 3 },
};

static void registry_malformed_refused(struct kunit *test)
{
	char *long_name = kunit_kzalloc(test, RXE_CC_NAME_MAX + 1, GFP_KERNEL);
	struct rxe_cc_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	const struct rxe_cc_ops *found;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, long_name);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	memset(long_name, 'a', RXE_CC_NAME_MAX);
	long_name[RXE_CC_NAME_MAX] = '\0';
	for (i = 0; i < 12; i++) {
		*ops = kt_reg_a;
		ops->name = "kunit_bad";
		switch (i) {
		case 0:
			ops->name = NULL;
			break;
		case 1:
			ops->name = "";
			break;
		case 2:
			ops->name = "none";
			break;
		case 3:
			ops->name = long_name;
			break;
		case 4:
			ops->setup = NULL;
			break;
		case 5:
			ops->init = NULL;
			break;
		case 6:
			ops->get_state = NULL;
			break;
		case 7:
			ops->n_params = RXE_CC_MAX_PARAMS + 1;
			break;
		case 8:
			ops->n_state = RXE_CC_MAX_STATE + 1;
			break;
		case 9:
			ops->params = kt_bad_def_low;
			ops->n_params = 1;
			break;
		case 10:
			ops->params = kt_bad_def_high;
			ops->n_params = 1;
			break;
		default:
			ops->params = kt_bad_no_name;
			ops->n_params = 1;
			break;
		}
		KUNIT_EXPECT_EQ_MSG(test, rxe_cc_register(ops), -EINVAL,
				    "malformed ops %d", i);
		if (ops->name && *ops->name && strcmp(ops->name, "none"))
			KUNIT_EXPECT_EQ_MSG(test, rxe_cc_algo_get(ops->name,
								  &found),
					    -ENOENT, "malformed ops %d", i);
	}
	/* the longest name there may be */
	*ops = kt_reg_a;
	long_name[RXE_CC_NAME_MAX - 1] = '\0';
	ops->name = long_name;
	kt_register(test, ops);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get(long_name, &found), 0);
	KUNIT_EXPECT_PTR_EQ(test, found, ops);
	rxe_cc_algo_put(found);
}

static void registry_none_and_builtins(struct kunit *test)
{
	const struct rxe_cc_ops *ops = &kt_reg_a;
	char *list;

	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get("none", &ops), 0);
	KUNIT_EXPECT_NULL(test, ops);
	KUNIT_EXPECT_STREQ(test, rxe_cc_algo_name(NULL), "none");
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get("", &ops), -ENOENT);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get("FIXED", &ops), -ENOENT);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get("fixed", &ops), 0);
	KUNIT_EXPECT_STREQ(test, rxe_cc_algo_name(ops), "fixed");
	rxe_cc_algo_put(ops);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get("dcqcn", &ops), 0);
	KUNIT_EXPECT_STREQ(test, rxe_cc_algo_name(ops), "dcqcn");
	rxe_cc_algo_put(ops);

	list = kt_available(test);
	KUNIT_EXPECT_EQ(test, strncmp(list, "none ", 5), 0);
	KUNIT_EXPECT_EQ(test, kt_words(list, "none"), 1);
	KUNIT_EXPECT_EQ(test, kt_words(list, "fixed"), 1);
	KUNIT_EXPECT_EQ(test, kt_words(list, "dcqcn"), 1);
}

/* rxe_cc_algo_get_nth() lists every algorithm once, in registration order */
static void registry_get_nth(struct kunit *test)
{
	const struct rxe_cc_ops *ops;
	int seen = 0, last = -1;
	unsigned int i;

	kt_register(test, &kt_reg_a);
	for (i = 0; !rxe_cc_algo_get_nth(i, &ops); i++) {
		if (ops == &kt_reg_a)
			seen++;
		last = i;
		rxe_cc_algo_put(ops);
		KUNIT_ASSERT_LT(test, i, 1000);
	}
	KUNIT_EXPECT_EQ(test, seen, 1);
	KUNIT_ASSERT_GE(test, last, 0);
	KUNIT_ASSERT_EQ(test, rxe_cc_algo_get_nth(last, &ops), 0);
	KUNIT_EXPECT_PTR_EQ(test, ops, &kt_reg_a);
	rxe_cc_algo_put(ops);
	KUNIT_EXPECT_EQ(test, rxe_cc_algo_get_nth(last + 1, &ops), -ENOENT);
}

static struct kunit_case rxe_cc_registry_cases[] = {
	KUNIT_CASE(registry_register_lookup_unregister),
	KUNIT_CASE(registry_duplicate_refused),
	KUNIT_CASE(registry_malformed_refused),
	KUNIT_CASE(registry_none_and_builtins),
	KUNIT_CASE(registry_get_nth),
	{}
};

static struct kunit_suite rxe_cc_registry_suite = {
	.name = "rxe_cc_registry",
	.test_cases = rxe_cc_registry_cases,
};

/* ==== suite rxe_cc_gate: the transmit gate on a clock of the test's ======== */

/* a start far from the kernel's clock: the QP's timer never fires */
#define KT_T0		(3600ULL * NSEC_PER_SEC + ktime_get_ns())
/* a frame of the QP: MTU payload, BTH, ICRC, IPv4, UDP, Ethernet */
#define KT_FRAME	(KT_MTU + RXE_BTH_BYTES + RXE_ICRC_SIZE + 20 + 8 + 14)
/* at 8 Mbit/s a byte takes 1 us */
#define KT_RATE_KBPS	8000
#define KT_GAP		((u64)KT_FRAME * NSEC_PER_USEC)

struct kt_tx {
	struct rxe_pkt_info pkt;
	u8 bth[RXE_BTH_BYTES];
};

/* A full-sized request packet with PSN @psn (a SEND or WRITE). */
static struct rxe_pkt_info *kt_tx(struct kt_tx *tx, u32 psn)
{
	memset(tx, 0, sizeof(*tx));
	tx->pkt.hdr = tx->bth;
	tx->pkt.paylen = KT_MTU + RXE_BTH_BYTES + RXE_ICRC_SIZE;
	tx->pkt.psn = psn;
	tx->pkt.mask = RXE_REQ_MASK | RXE_PAYLOAD_MASK | RXE_START_MASK |
		       RXE_END_MASK;
	return &tx->pkt;
}

static void kt_gate_start(struct kunit *test, u32 rate_kbps, u32 window)
{
	struct kt_env *env = test->priv;
	struct sk_buff *skb = kt_msg(test);

	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(env->qp, env->ops,
					    kt_params_nest(test, skb,
							   "rate_kbps",
							   rate_kbps,
							   "window_bytes",
							   window),
					    NULL), 0);
}

static void gate_paces_at_the_rate(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct rxe_cc_np_msg msg = {};
	struct kt_tx tx;
	u64 t0 = KT_T0;

	kt_gate_start(test, KT_RATE_KBPS, 0);
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0);
	KUNIT_EXPECT_EQ(test, qp->cc.pacer.t_next, t0 + KT_GAP);

	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t0 + KT_GAP - 1));
	KUNIT_EXPECT_EQ(test, qp->cc.wait_ns, t0 + KT_GAP);
	KUNIT_EXPECT_TRUE(test, qp->cc.tx_wait);
	KUNIT_EXPECT_TRUE(test, qp->cc.armed);
	KUNIT_EXPECT_EQ(test, qp->cc.armed_ns, t0 + KT_GAP);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.pacer_waits, 1);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_CC_PACER_WAITS), 1);
	/* the algorithm's timers see a packet waiting: the QP is busy */
	spin_lock_bh(&qp->cc.lock);
	qp->cc.ctx.in = 0;
	rxe_cc_serve_deadlines(qp, t0 + 1, &msg);
	KUNIT_EXPECT_EQ(test, qp->cc.ctx.in, RXE_CC_IN_BACKLOG);
	spin_unlock_bh(&qp->cc.lock);
	/* the responder is held by the same pacer */
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, true, t0 + 1));
	KUNIT_EXPECT_TRUE(test, qp->cc.resp_wait);

	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0 + KT_GAP));
	rxe_cc_sent_at(qp, kt_tx(&tx, 1), t0 + KT_GAP);
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t0 + 2 * KT_GAP - 1));
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0 + 2 * KT_GAP));
}

/* After idle, two frames of credit: three packets at once, the fourth waits */
static void gate_idle_credit(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct kt_tx tx;
	u64 t0 = KT_T0, t1 = t0 + 100 * NSEC_PER_MSEC;
	int i;

	kt_gate_start(test, KT_RATE_KBPS, 0);
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0);
	for (i = 1; i <= 3; i++) {
		KUNIT_EXPECT_FALSE_MSG(test, rxe_cc_hold_at(qp, false, t1),
				       "packet %d after idle", i);
		rxe_cc_sent_at(qp, kt_tx(&tx, i), t1);
	}
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t1));
	KUNIT_EXPECT_EQ(test, qp->cc.pacer.t_next, t1 + KT_GAP);
	/* the idle time beyond the credit was dropped and counted */
	KUNIT_EXPECT_EQ(test, qp->cc.stats.pacer_unused_ns,
			t1 - 2 * KT_GAP - (t0 + KT_GAP));
}

/* A new rate re-times the pending gap from its start */
static void gate_rate_change_retimes_gap(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct kt_tx tx;
	u64 t0 = KT_T0;

	kt_gate_start(test, KT_RATE_KBPS, 0);
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0);
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t0 + KT_GAP / 2));

	kt_gate_start(test, 2 * KT_RATE_KBPS, 0);
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0 + KT_GAP / 2));
	KUNIT_EXPECT_EQ(test, qp->cc.pacer.t_next, t0 + KT_GAP / 2);

	/* and a cut holds the next packet longer */
	rxe_cc_sent_at(qp, kt_tx(&tx, 1), t0 + KT_GAP / 2);
	kt_gate_start(test, KT_RATE_KBPS / 4, 0);
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false,
					       t0 + KT_GAP / 2 + 4 * KT_GAP - 1));
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false,
						t0 + KT_GAP / 2 + 4 * KT_GAP));
}

/* The window counts the bytes in flight; one packet may always go */
static void gate_window(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct kt_tx tx;
	u64 t0 = KT_T0;

	/* room for two frames but not three; not paced */
	kt_gate_start(test, 0, 3 * KT_FRAME - 1);
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0);
	qp->req.psn = 1;
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));
	rxe_cc_sent_at(qp, kt_tx(&tx, 1), t0);
	qp->req.psn = 2;
	KUNIT_EXPECT_EQ(test, qp->cc.inflight.bytes, 2 * KT_FRAME);
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t0));
	/* no timer: the completer runs the requester again */
	KUNIT_EXPECT_FALSE(test, qp->cc.tx_wait);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.pacer_waits, 1);
	/* a READ response does not wait for the requester's window */
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, true, t0));
	/* a retransmission may go: its bytes are in flight already */
	qp->req.psn = 0;
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));

	/* a window below one frame lets one packet go at a time */
	qp->req.psn = 2;
	kt_gate_start(test, 0, 100);
	qp->cc.inflight.bytes = 0;
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));
	qp->cc.inflight.bytes = 1;
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t0));
	qp->cc.inflight.bytes = 2 * KT_FRAME;
}

/*
 * A QP paced so slowly that upstream's AckReq spacing (64 packets) would
 * outlast a quarter of its transport timeout asks for ACKs more often.
 */
static void gate_ack_bound(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	int up = RXE_MAX_PKT_PER_ACK;
	struct kt_tx tx;
	u64 t0 = KT_T0;

	qp->qp_timeout_jiffies = nsecs_to_jiffies(NSEC_PER_SEC);
	KUNIT_ASSERT_EQ(test, jiffies_to_nsecs(qp->qp_timeout_jiffies),
			NSEC_PER_SEC);
	/* 8 Mbit/s: 64 frames take 70 ms, a quarter second 228 frames */
	kt_gate_start(test, KT_RATE_KBPS, 0);
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0);
	KUNIT_EXPECT_EQ(test, qp->cc.ack_paced, 0);
	KUNIT_EXPECT_EQ(test, rxe_cc_ack_limit(qp, up), up);
	/* 100 kbit/s: a quarter second carries 3125 bytes, two frames */
	kt_gate_start(test, 100, 0);
	rxe_cc_sent_at(qp, kt_tx(&tx, 1), t0);
	KUNIT_EXPECT_EQ(test, qp->cc.ack_paced, 2);
	KUNIT_EXPECT_EQ(test, rxe_cc_ack_limit(qp, up), 0);
	/* 10 kbit/s: less than a frame, so every packet asks */
	kt_gate_start(test, 10, 0);
	rxe_cc_sent_at(qp, kt_tx(&tx, 2), t0);
	KUNIT_EXPECT_EQ(test, qp->cc.ack_paced, 1);
	KUNIT_EXPECT_EQ(test, rxe_cc_ack_limit(qp, up), -1);
	/* a longer timeout at the same rate: two frames again */
	qp->qp_timeout_jiffies = nsecs_to_jiffies(10 * NSEC_PER_SEC);
	rxe_cc_sent_at(qp, kt_tx(&tx, 3), t0);
	KUNIT_EXPECT_EQ(test, qp->cc.ack_paced, 2);
	/* no transport timeout: no bound */
	qp->qp_timeout_jiffies = 0;
	rxe_cc_sent_at(qp, kt_tx(&tx, 4), t0);
	KUNIT_EXPECT_EQ(test, qp->cc.ack_paced, 0);
	KUNIT_EXPECT_EQ(test, rxe_cc_ack_limit(qp, up), up);
}

/* PAUSE holds the QP until it ends; the pacer's wait comes after it */
static void gate_pause_then_pacer(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp;
	struct kt_tx tx;
	u64 t0 = KT_T0, end = t0 + KT_GAP / 2;

	/* a QP of a device that honours PAUSE */
	kt_qp_free(env->qp);
	env->qp = NULL;
	rxe->pfc.on = true;
	env->qp = kt_qp_new(test, rxe, IB_QPT_RC);
	qp = env->qp;
	KUNIT_ASSERT_TRUE(test, qp->pfc.on);
	kt_gate_start(test, KT_RATE_KBPS, 0);

	WRITE_ONCE(rxe->pfc.until[0], end);
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t0));
	KUNIT_EXPECT_EQ(test, qp->cc.wait_ns, end);
	KUNIT_EXPECT_TRUE(test, qp->pfc.wait);
	KUNIT_EXPECT_EQ(test, kt_priv(qp)->pauses, 1);
	KUNIT_EXPECT_TRUE(test, kt_priv(qp)->paused);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_PFC_WAITS), 1);
	/* the pause over, the QP goes */
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, end));
	KUNIT_EXPECT_FALSE(test, qp->pfc.wait);
	KUNIT_EXPECT_EQ(test, kt_priv(qp)->pauses, 2);
	KUNIT_EXPECT_FALSE(test, kt_priv(qp)->paused);

	rxe_cc_sent_at(qp, kt_tx(&tx, 0), end);
	/* paused beyond the pacer's gap: the pause's end counts */
	WRITE_ONCE(rxe->pfc.until[0], end + 2 * KT_GAP);
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, end + 1));
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, end + KT_GAP));
	KUNIT_EXPECT_TRUE(test, qp->pfc.wait);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_PFC_WAITS), 2);
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, end + 2 * KT_GAP));
	KUNIT_EXPECT_FALSE(test, qp->pfc.wait);
	KUNIT_EXPECT_EQ(test, rxe->pfc.waiters, 0);
}

/* A source halt holds the QP until its end and earns no pacing credit */
static void gate_halt(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct rxe_cc_out *out = &qp->cc.ctx.out;
	struct kt_tx tx;
	u64 t0 = KT_T0, end = t0 + 10 * KT_GAP;

	kt_gate_start(test, KT_RATE_KBPS, 0);
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, t0));
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0);
	/* what a hook of the algorithm does */
	out->halt_ns = end;
	out->flags |= RXE_CC_OUT_HALT;
	/* the pacer would let the packet go; the halt holds it to its end */
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, t0 + KT_GAP));
	KUNIT_EXPECT_EQ(test, qp->cc.wait_ns, end);
	KUNIT_EXPECT_TRUE(test, qp->cc.armed);
	KUNIT_EXPECT_EQ(test, qp->cc.armed_ns, end);
	KUNIT_EXPECT_TRUE(test, qp->cc.halted);
	/* READ responses wait too */
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, true, end - 1));
	KUNIT_EXPECT_TRUE(test, qp->cc.resp_wait);
	/* a hook moves the end while the flag is set */
	out->halt_ns = end + KT_GAP;
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, end));
	end += KT_GAP;
	/*
	 * Over: one packet goes, and the next waits a whole gap. Idle for
	 * as long without a halt, the pacer's credit would let three go.
	 */
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, end));
	KUNIT_EXPECT_FALSE(test, qp->cc.halted);
	rxe_cc_sent_at(qp, kt_tx(&tx, 1), end);
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, end));
	KUNIT_EXPECT_EQ(test, qp->cc.pacer.t_next, end + KT_GAP);
	/* the flag left set with its end passed holds nothing */
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, end + KT_GAP));
	/* a new halt holds again; without the flag nothing holds */
	out->halt_ns = end + KT_GAP + 1;
	KUNIT_EXPECT_TRUE(test, rxe_cc_hold_at(qp, false, end + KT_GAP));
	out->flags &= ~RXE_CC_OUT_HALT;
	KUNIT_EXPECT_FALSE(test, rxe_cc_hold_at(qp, false, end + KT_GAP));
}

/* A retransmission ends INT: a forged CAP cannot keep a QP on a dead port */
static void gate_retx_ends_int(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct kt_tx tx;
	u64 t0 = KT_T0;

	kt_gate_start(test, 0, 0);
	WRITE_ONCE(qp->cc.int_tx, true);
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0);
	rxe_cc_sent_at(qp, kt_tx(&tx, 1), t0);
	KUNIT_EXPECT_TRUE(test, qp->cc.int_tx);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.retx_pkts, 0);
	/* go-back-N sends PSN 0 again */
	rxe_cc_sent_at(qp, kt_tx(&tx, 0), t0 + 1);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.retx_pkts, 1);
	KUNIT_EXPECT_FALSE(test, qp->cc.int_tx);
}

static struct kunit_case rxe_cc_gate_cases[] = {
	KUNIT_CASE(gate_paces_at_the_rate),
	KUNIT_CASE(gate_idle_credit),
	KUNIT_CASE(gate_rate_change_retimes_gap),
	KUNIT_CASE(gate_window),
	KUNIT_CASE(gate_ack_bound),
	KUNIT_CASE(gate_pause_then_pacer),
	KUNIT_CASE(gate_halt),
	KUNIT_CASE(gate_retx_ends_int),
	{}
};

static struct kunit_suite rxe_cc_gate_suite = {
	.name = "rxe_cc_gate",
	.suite_init = kt_suite_init,
	.suite_exit = kt_suite_exit,
	.init = kt_env_init,
	.exit = kt_env_exit,
	.test_cases = rxe_cc_gate_cases,
};

/* ==== suite rxe_cc_cnp: received CNPs ======================================== */

#define KT_CNP_LEN	(RXE_BTH_BYTES + RXE_CNP_BODY_BYTES + RXE_ICRC_SIZE)
#define KT_HDRS		(sizeof(struct iphdr) + sizeof(struct udphdr))

struct kt_cnp {
	struct sk_buff *skb;
	struct rxe_pkt_info pkt;
};

/*
 * The ICRC of a RoCEv2 packet over IPv4, computed here from the
 * specification: CRC-32 over eight 0xff bytes (the masked LRH), the IP,
 * UDP and BTH headers with their variant fields masked to ones, and the
 * rest of the packet.
 */
static u32 kt_icrc(const u8 *ip, size_t len)
{
	u8 masked[KT_HDRS + RXE_BTH_BYTES];
	static const u8 lrh[8] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	struct iphdr *iph = (struct iphdr *)masked;
	struct udphdr *udph = (struct udphdr *)(iph + 1);
	u32 crc;

	memcpy(masked, ip, sizeof(masked));
	iph->tos = 0xff;
	iph->ttl = 0xff;
	iph->check = htons(0xffff);
	udph->check = htons(0xffff);
	masked[KT_HDRS + 4] = 0xff;	/* BTH resv8a */
	crc = crc32_le(~0U, lrh, sizeof(lrh));
	crc = crc32_le(crc, masked, sizeof(masked));
	crc = crc32_le(crc, ip + sizeof(masked), len - sizeof(masked));
	return ~crc;
}

/*
 * A packet of @opcode in a CNP's layout from @saddr to QP @qpn, with IP DS
 * field @tos, @body (NULL: zeros) as its RXE_CNP_BODY_BYTES and @extra
 * bytes after them; BECN on a CNP only; with a valid ICRC unless
 * @bad_icrc.
 */
static struct kt_cnp *kt_fb_pkt(struct kunit *test, struct rxe_dev *rxe,
				__be32 saddr, u32 qpn, u8 opcode, u8 tos,
				const u8 *body, unsigned int extra,
				bool bad_icrc)
{
	unsigned int paylen = KT_CNP_LEN + extra;
	struct kt_cnp *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct iphdr *iph;
	struct udphdr *udph;
	u8 *bth;
	u32 icrc;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->skb = alloc_skb(KT_HDRS + paylen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->skb);
	c->skb->protocol = htons(ETH_P_IP);
	skb_reset_network_header(c->skb);
	iph = skb_put_zero(c->skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = tos;
	iph->tot_len = htons(KT_HDRS + paylen);
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = saddr;
	iph->daddr = KT_SELF;
	udph = skb_put_zero(c->skb, sizeof(*udph));
	udph->source = htons(49152);
	udph->dest = htons(ROCE_V2_UDP_DPORT);
	udph->len = htons(sizeof(*udph) + paylen);
	bth = skb_put_zero(c->skb, paylen);
	bth[0] = opcode;
	put_unaligned_be16(0xffff, bth + 2);		/* P_Key */
	put_unaligned_be32(qpn & 0xffffff, bth + 4);
	if (opcode == RXE_OPCODE_CNP)
		bth[4] = 0x40;				/* BECN */
	if (body)
		memcpy(bth + RXE_BTH_BYTES, body, RXE_CNP_BODY_BYTES);

	/* stored as rxe_icrc_generate() stores it, in CPU order */
	icrc = kt_icrc((u8 *)iph, KT_HDRS + paylen - RXE_ICRC_SIZE);
	if (bad_icrc)
		icrc ^= 1;
	put_unaligned(icrc, (u32 *)(bth + paylen - RXE_ICRC_SIZE));

	c->pkt.rxe = rxe;
	c->pkt.hdr = bth;
	c->pkt.paylen = paylen;
	c->pkt.opcode = opcode;
	c->pkt.mask = RXE_START_MASK | RXE_END_MASK;
	c->pkt.psn = 0;
	return c;
}

/*
 * A CNP from @saddr to QP @qpn with DSCP @dscp, Not-ECT, and @extra bytes
 * after its zero body; with a valid ICRC unless @bad_icrc.
 */
static struct kt_cnp *kt_cnp(struct kunit *test, struct rxe_dev *rxe,
			     __be32 saddr, u32 qpn, u8 dscp,
			     unsigned int extra, bool bad_icrc)
{
	return kt_fb_pkt(test, rxe, saddr, qpn, RXE_OPCODE_CNP, dscp << 2,
			 NULL, extra, bad_icrc);
}

static int kt_cnp_init(struct kunit *test)
{
	struct kt_env *env;
	struct crypto_shash *tfm;

	kt_env_init(test);
	env = test->priv;
	tfm = crypto_alloc_shash("crc32", 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm);
	env->rxe->tfm = tfm;
	KUNIT_ASSERT_EQ(test, xa_err(xa_store(&env->rxe->qp_pool.xa, KT_QPN,
					      &env->qp->elem, GFP_KERNEL)), 0);
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(env->qp, env->ops, NULL, NULL), 0);
	return 0;
}

/* Is the CNP valid for the QP? (the skb stays the test's) */
static bool kt_cnp_valid(struct kunit *test, struct kt_cnp *c,
			 struct rxe_qp *qp)
{
	bool ok = rxe_cc_cnp_valid(&c->pkt, c->skb, qp);

	kfree_skb(c->skb);
	return ok;
}

/* Is a CNP from @saddr with @extra bytes (and a bad ICRC) valid for the QP? */
static bool kt_cnp_ok(struct kunit *test, __be32 saddr, unsigned int extra,
		      bool bad_icrc)
{
	struct kt_env *env = test->priv;

	return kt_cnp_valid(test, kt_cnp(test, env->rxe, saddr, KT_QPN, 48,
					 extra, bad_icrc), env->qp);
}

static void cnp_valid_accepts_a_good_cnp(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, kt_cnp_ok(test, KT_PEER, 0, false));
}

static void cnp_valid_rejects(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;

	/* longer than BTH, body and ICRC (the ICRC covers the extra bytes) */
	KUNIT_EXPECT_FALSE(test, kt_cnp_ok(test, KT_PEER, 4, false));
	KUNIT_EXPECT_FALSE(test, kt_cnp_ok(test, KT_PEER, 256, false));
	/* from another address than the QP's peer */
	KUNIT_EXPECT_FALSE(test, kt_cnp_ok(test, KT_SELF, 0, false));
	/* a wrong ICRC */
	KUNIT_EXPECT_FALSE(test, kt_cnp_ok(test, KT_PEER, 0, true));
	/* a QP that is not in RTS */
	qp->attr.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_FALSE(test, kt_cnp_ok(test, KT_PEER, 0, false));
	qp->attr.qp_state = IB_QPS_RTS;
	/* a QP whose path is IPv6 */
	qp->pri_av.network_type = RXE_NETWORK_TYPE_IPV6;
	KUNIT_EXPECT_FALSE(test, kt_cnp_ok(test, KT_PEER, 0, false));
	qp->pri_av.network_type = RXE_NETWORK_TYPE_IPV4;
	/* an unconnected QP */
	qp->ibqp.qp_type = IB_QPT_UD;
	KUNIT_EXPECT_FALSE(test, kt_cnp_ok(test, KT_PEER, 0, false));
	qp->ibqp.qp_type = IB_QPT_RC;
	/* and the same CNP is fine for the QP as it is */
	KUNIT_EXPECT_TRUE(test, kt_cnp_ok(test, KT_PEER, 0, false));
}

/* rxe_cc_rcv_cnp(), which consumes the skb and a device reference */
static void kt_rcv_cnp(struct kunit *test, struct kt_cnp *c)
{
	struct rxe_dev *rxe = c->pkt.rxe;

	refcount_inc(&rxe->ib_dev.refcount);
	rxe_cc_rcv_cnp(&c->pkt, c->skb);
	KUNIT_EXPECT_EQ(test, refcount_read(&rxe->ib_dev.refcount), 1);
}

/* Good CNPs reach the algorithm; bad ones are counted as ignored */
static void cnp_rcv_counts(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp = env->qp;

	kt_rcv_cnp(test, kt_cnp(test, rxe, KT_PEER, KT_QPN, 26, 0, false));
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_CNP_RCVD), 1);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_CNP_IGNORED), 0);
	KUNIT_EXPECT_EQ(test, kt_priv(qp)->cnps, 1);
	KUNIT_EXPECT_EQ(test, kt_priv(qp)->cnp_dscp, 26);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 1);

	kt_rcv_cnp(test, kt_cnp(test, rxe, KT_PEER, KT_QPN, 26, 4, false));
	kt_rcv_cnp(test, kt_cnp(test, rxe, KT_SELF, KT_QPN, 26, 0, false));
	kt_rcv_cnp(test, kt_cnp(test, rxe, KT_PEER, KT_QPN, 26, 0, true));
	kt_rcv_cnp(test, kt_cnp(test, rxe, KT_PEER, KT_QPN + 1, 26, 0, false));
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_CNP_IGNORED), 4);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_CNP_RCVD), 1);
	KUNIT_EXPECT_EQ(test, kt_priv(qp)->cnps, 1);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 1);

	/* a QP that runs no algorithm ignores even a good one */
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(qp, NULL, NULL, NULL), 0);
	kt_rcv_cnp(test, kt_cnp(test, rxe, KT_PEER, KT_QPN, 26, 0, false));
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_CNP_IGNORED), 5);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_CNP_RCVD), 1);
}

static struct kunit_case rxe_cc_cnp_cases[] = {
	KUNIT_CASE(cnp_valid_accepts_a_good_cnp),
	KUNIT_CASE(cnp_valid_rejects),
	KUNIT_CASE(cnp_rcv_counts),
	{}
};

static struct kunit_suite rxe_cc_cnp_suite = {
	.name = "rxe_cc_cnp",
	.suite_init = kt_suite_init,
	.suite_exit = kt_suite_exit,
	.init = kt_cnp_init,
	.exit = kt_env_exit,
	.test_cases = rxe_cc_cnp_cases,
};

/* ==== suite rxe_cc_pcn: PCN's reports (specs/wire.md §7.4 (b), (e')) ======= */

#define KT_LINE_KBPS	(KT_LINE_RATE / 1000)
#define KT_LINE_MBPS	(KT_LINE_RATE / 1000000)
#define KT_PCN_DSCP	48
#define KT_PCN_RATE	RXE_OPCODE_PCN_RATE
#define KT_RV		RXE_CC_PCN_RATE_VALID
#define KT_DEC_RV	(RXE_CC_PCN_DEC | RXE_CC_PCN_RATE_VALID)

/* A report as it comes on the wire */
struct kt_pcn_rep {
	u8 opcode;	/* RXE_OPCODE_CNP or KT_PCN_RATE */
	u8 ecn;		/* RXE_CC_ECN_* of its IP header */
	u32 rate_mbps;
	u8 flags;
	u8 version;
	u32 seq;
};

/* the QP runs the built-in algorithm @name with the device's defaults */
static void kt_pcn_algo(struct kunit *test, const char *name)
{
	struct kt_env *env = test->priv;
	const struct rxe_cc_ops *ops;

	KUNIT_ASSERT_EQ(test, rxe_cc_algo_get(name, &ops), 0);
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(env->qp, ops, NULL, NULL), 0);
	rxe_cc_algo_put(ops);
}

/* the environment of rxe_cc_cnp, its QP running pcn */
static int kt_pcn_init(struct kunit *test)
{
	kt_cnp_init(test);
	kt_pcn_algo(test, "pcn");
	return 0;
}

/*
 * PCN's payload with @magic, written here from the layout of the spec:
 * RecRate (u32 BE), the magic (u16 BE), flags, version, the sequence (u32
 * BE), four zero bytes.
 */
static void kt_pcn_body(u8 *body, const struct kt_pcn_rep *r, u16 magic)
{
	memset(body, 0, RXE_CNP_BODY_BYTES);
	put_unaligned_be32(r->rate_mbps, body);
	put_unaligned_be16(magic, body + 4);
	body[6] = r->flags;
	body[7] = r->version;
	put_unaligned_be32(r->seq, body + 8);
}

/* The report @r from the peer with PCN's @magic reaches the QP. */
static void kt_pcn_rcv_magic(struct kunit *test, const struct kt_pcn_rep *r,
			     u16 magic)
{
	struct kt_env *env = test->priv;
	u8 body[RXE_CNP_BODY_BYTES];

	kt_pcn_body(body, r, magic);
	kt_rcv_cnp(test, kt_fb_pkt(test, env->rxe, KT_PEER, KT_QPN, r->opcode,
				   KT_PCN_DSCP << 2 | r->ecn, body, 0, false));
}

static void kt_pcn_rcv(struct kunit *test, const struct kt_pcn_rep *r)
{
	kt_pcn_rcv_magic(test, r, 0x5043);	/* "PC" */
}

/* A well-formed decrease (CNP, CE) with RecRate @rate_mbps, sequence @seq */
static void kt_pcn_dec(struct kunit *test, u32 rate_mbps, u32 seq)
{
	struct kt_pcn_rep r = {
		RXE_OPCODE_CNP, RXE_CC_ECN_CE, rate_mbps, KT_DEC_RV, 1, seq
	};

	kt_pcn_rcv(test, &r);
}

/* A well-formed increase (rate report 0xC2, Not-ECT) */
static void kt_pcn_inc(struct kunit *test, u32 rate_mbps, u32 seq)
{
	struct kt_pcn_rep r = {
		KT_PCN_RATE, RXE_CC_ECN_NOT_ECT, rate_mbps, KT_RV, 1, seq
	};

	kt_pcn_rcv(test, &r);
}

/* The QP's algorithm's state value @name, as netlink reads it */
static u64 kt_state_of(struct kunit *test, const char *name)
{
	struct kt_env *env = test->priv;
	struct rxe_cc_qp_info *qi = kunit_kzalloc(test, sizeof(*qi),
						  GFP_KERNEL);
	unsigned int i;
	u64 v;

	KUNIT_ASSERT_NOT_NULL(test, qi);
	rxe_cc_qp_snapshot(env->qp, qi);
	rxe_cc_algo_put(qi->ops);	/* the QP holds it */
	KUNIT_ASSERT_NOT_NULL(test, qi->ops);
	for (i = 0; i < qi->ops->n_state; i++)
		if (!strcmp(qi->ops->state[i].name, name))
			break;
	KUNIT_ASSERT_LT_MSG(test, i, qi->ops->n_state, "%s has no state %s",
			    qi->ops->name, name);
	v = qi->state[i];
	kunit_kfree(test, qi);
	return v;
}

/* The QP's pacing rate, bit/s */
static u64 kt_rate_bps(struct rxe_qp *qp)
{
	struct kt_qp_snap s;

	kt_qp_snap(qp, &s);
	return s.rate_bps;
}

/* The device's counts of received CNPs and rate reports */
struct kt_fb_counts {
	s64 cnp_rcvd;
	s64 cnp_ignored;
	s64 inc_rcvd;
	s64 inc_ignored;
	s64 bad;
};

static void kt_expect_counts(struct kunit *test, const struct kt_fb_counts *w,
			     const char *after)
{
	struct rxe_dev *rxe = ((struct kt_env *)test->priv)->rxe;

	KUNIT_EXPECT_EQ_MSG(test, kt_counter(rxe, RXE_CNT_CC_CNP_RCVD),
			    w->cnp_rcvd, "cc_cnp_rcvd after %s", after);
	KUNIT_EXPECT_EQ_MSG(test, kt_counter(rxe, RXE_CNT_CC_CNP_IGNORED),
			    w->cnp_ignored, "cc_cnp_ignored after %s", after);
	KUNIT_EXPECT_EQ_MSG(test, kt_counter(rxe, RXE_CNT_CC_PCN_INC_RCVD),
			    w->inc_rcvd, "cc_pcn_inc_rcvd after %s", after);
	KUNIT_EXPECT_EQ_MSG(test, kt_counter(rxe, RXE_CNT_CC_PCN_INC_IGNORED),
			    w->inc_ignored, "cc_pcn_inc_ignored after %s", after);
	KUNIT_EXPECT_EQ_MSG(test, kt_counter(rxe, RXE_CNT_CC_PCN_BAD),
			    w->bad, "cc_pcn_bad after %s", after);
}

/* A decrease is taken: rate = min(rate, RecRate * (1 - w_min)), w_min 1/128 */
static void pcn_dec_taken(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp = env->qp;

	/* a PCN QP's packets carry CAP; it starts at the line rate */
	KUNIT_EXPECT_TRUE(test, READ_ONCE(qp->cc.cap));
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), KT_LINE_KBPS);
	KUNIT_EXPECT_EQ(test, kt_rate_bps(qp), KT_LINE_RATE);

	kt_pcn_dec(test, 50, 1);
	kt_expect_counts(test, &(struct kt_fb_counts){ 1, 0, 0, 0, 0 },
			 "a decrease");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), 49609);
	KUNIT_EXPECT_EQ(test, kt_rate_bps(qp), 49609000);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rec_rate_kbps"), 50000);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "w"), 512);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_dec"), 1);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_ecn_mismatch"), 0);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 1);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.rate_dec, 1);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_RATE_DEC), 1);

	/* a higher RecRate keeps the lower rate; a lower one cuts again */
	kt_pcn_dec(test, 80, 2);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), 49609);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rec_rate_kbps"), 80000);
	kt_pcn_dec(test, 20, 3);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), 19843);
	KUNIT_EXPECT_EQ(test, kt_rate_bps(qp), 19843000);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_dec"), 3);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_RATE_DEC), 2);

	/* one that came Not-ECT is taken, and its ECN counted */
	kt_pcn_rcv(test, &(struct kt_pcn_rep){ RXE_OPCODE_CNP,
		   RXE_CC_ECN_NOT_ECT, 10, KT_DEC_RV, 1, 4 });
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), 9921);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_ecn_mismatch"), 1);
	kt_expect_counts(test, &(struct kt_fb_counts){ 4, 0, 0, 0, 0 },
			 "four decreases");
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 4);
}

/* A rate report 0xC2 reaches PCN's QPs only; a DCQCN QP ignores it */
static void pcn_inc_only_to_pcn(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp = env->qp;
	u64 rate, rate_bps;

	kt_pcn_algo(test, "dcqcn");
	KUNIT_EXPECT_FALSE(test, READ_ONCE(qp->cc.cap));
	rate = kt_state_of(test, "rate_kbps");
	rate_bps = kt_rate_bps(qp);
	kt_pcn_inc(test, 50, 1);
	kt_expect_counts(test, &(struct kt_fb_counts){ 0, 0, 0, 1, 0 },
			 "a report to dcqcn");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), rate);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_handled"), 0);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "limited"), 0);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 0);
	KUNIT_EXPECT_EQ(test, kt_rate_bps(qp), rate_bps);

	/* the same to a PCN QP below the line rate: an increase, with w_min */
	kt_pcn_algo(test, "pcn");
	kt_pcn_dec(test, 50, 1);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), 49609);
	kt_pcn_inc(test, 50, 2);
	kt_expect_counts(test, &(struct kt_fb_counts){ 1, 0, 1, 1, 0 },
			 "a report to pcn");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_inc"), 1);
	/* (49609 * 127 + 10^7) / 128 kbit/s; w = w(1 - w) + w_max w */
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), 127346);
	KUNIT_EXPECT_EQ(test, kt_rate_bps(qp), 127346000);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "w"), 764);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 2);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_RATE_INC), 1);

	/* a report that fails a CNP's checks is ignored like one */
	kt_rcv_cnp(test, kt_fb_pkt(test, rxe, KT_PEER, KT_QPN, KT_PCN_RATE,
				   KT_PCN_DSCP << 2, NULL, 4, false));
	kt_rcv_cnp(test, kt_fb_pkt(test, rxe, KT_SELF, KT_QPN, KT_PCN_RATE,
				   KT_PCN_DSCP << 2, NULL, 0, false));
	kt_rcv_cnp(test, kt_fb_pkt(test, rxe, KT_PEER, KT_QPN, KT_PCN_RATE,
				   KT_PCN_DSCP << 2, NULL, 0, true));
	kt_expect_counts(test, &(struct kt_fb_counts){ 1, 0, 1, 4, 0 },
			 "bad packets");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_foreign"), 0);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 2);
}

/* Malformed reports and old sequences are counted and change nothing */
static void pcn_bad_reports(struct kunit *test)
{
	static const struct kt_pcn_rep bad[] = {
		/* RecRate 0, or above the line rate */
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 0, KT_DEC_RV, 1, 6 },
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, KT_LINE_MBPS + 1, KT_DEC_RV,
		  1, 6 },
		{ KT_PCN_RATE, RXE_CC_ECN_NOT_ECT, 0, KT_RV, 1, 6 },
		{ KT_PCN_RATE, RXE_CC_ECN_NOT_ECT, KT_LINE_MBPS + 1, KT_RV,
		  1, 6 },
		/* another version */
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 40, KT_DEC_RV, 0, 6 },
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 40, KT_DEC_RV, 2, 6 },
		{ KT_PCN_RATE, RXE_CC_ECN_NOT_ECT, 40, KT_RV, 2, 6 },
		/* DEC on a rate report, or missing on a CNP */
		{ KT_PCN_RATE, RXE_CC_ECN_NOT_ECT, 40, KT_DEC_RV, 1, 6 },
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 40, KT_RV, 1, 6 },
		/* a decrease without a RecRate */
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 40, RXE_CC_PCN_DEC, 1, 6 },
	};
	static const struct kt_pcn_rep old[] = {
		/* the sequence taken last, one before, 2^20 ahead */
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 40, KT_DEC_RV, 1, 5 },
		{ KT_PCN_RATE, RXE_CC_ECN_NOT_ECT, 40, KT_RV, 1, 5 },
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 40, KT_DEC_RV, 1, 4 },
		{ RXE_OPCODE_CNP, RXE_CC_ECN_CE, 40, KT_DEC_RV, 1, 5 + BIT(20) },
	};
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp = env->qp;
	s64 n = 0;
	int i;

	kt_pcn_dec(test, 50, 5);
	KUNIT_ASSERT_EQ(test, kt_state_of(test, "rate_kbps"), 49609);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		kt_pcn_rcv(test, &bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, kt_counter(rxe, RXE_CNT_CC_PCN_BAD),
				    ++n, "bad report %d not counted", i);
		KUNIT_EXPECT_EQ_MSG(test, kt_state_of(test, "rate_kbps"),
				    49609, "bad report %d taken", i);
	}
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_bad"), ARRAY_SIZE(bad));
	for (i = 0; i < ARRAY_SIZE(old); i++) {
		kt_pcn_rcv(test, &old[i]);
		KUNIT_EXPECT_EQ_MSG(test, kt_counter(rxe, RXE_CNT_CC_PCN_BAD),
				    ++n, "old report %d not counted", i);
		KUNIT_EXPECT_EQ_MSG(test, kt_state_of(test, "rate_kbps"),
				    49609, "old report %d taken", i);
	}
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_old"), ARRAY_SIZE(old));
	kt_expect_counts(test, &(struct kt_fb_counts){ 1, 0, 0, 0, n },
			 "bad reports");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_dec"), 1);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_inc"), 0);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rec_rate_kbps"), 50000);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 1);
	KUNIT_EXPECT_EQ(test, kt_rate_bps(qp), 49609000);

	/* the control: the next sequence, well formed, is taken */
	kt_pcn_dec(test, 40, 6);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), 39687);
	kt_pcn_rcv(test, &(struct kt_pcn_rep){ RXE_OPCODE_CNP, RXE_CC_ECN_CE,
		   KT_LINE_MBPS, KT_DEC_RV, 1, 6 + BIT(20) - 1 });
	kt_pcn_inc(test, KT_LINE_MBPS, 6 + BIT(20));
	kt_expect_counts(test, &(struct kt_fb_counts){ 3, 0, 1, 0, n },
			 "the control");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_dec"), 3);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_inc"), 1);
}

/* A CNP without PCN's payload is delivered, and PCN ignores it */
static void pcn_foreign_cnp(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp = env->qp;

	/* a standard CNP, zero body */
	kt_rcv_cnp(test, kt_cnp(test, rxe, KT_PEER, KT_QPN, KT_PCN_DSCP, 0,
				false));
	kt_expect_counts(test, &(struct kt_fb_counts){ 1, 0, 0, 0, 0 },
			 "a standard CNP");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_foreign"), 1);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_dec"), 0);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_bad"), 0);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), KT_LINE_KBPS);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 1);

	/* a rate report with a zero body */
	kt_rcv_cnp(test, kt_fb_pkt(test, rxe, KT_PEER, KT_QPN, KT_PCN_RATE,
				   KT_PCN_DSCP << 2, NULL, 0, false));
	kt_expect_counts(test, &(struct kt_fb_counts){ 1, 0, 1, 0, 0 },
			 "a zero rate report");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_foreign"), 2);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_inc"), 0);

	/* a decrease well formed but for one bit of the magic */
	kt_pcn_rcv_magic(test, &(struct kt_pcn_rep){ RXE_OPCODE_CNP,
			 RXE_CC_ECN_CE, 50, KT_DEC_RV, 1, 1 }, 0x5042);
	kt_expect_counts(test, &(struct kt_fb_counts){ 2, 0, 1, 0, 0 },
			 "a wrong magic");
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_foreign"), 3);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "cnp_dec"), 0);
	KUNIT_EXPECT_EQ(test, kt_state_of(test, "rate_kbps"), KT_LINE_KBPS);
	KUNIT_EXPECT_EQ(test, kt_rate_bps(qp), KT_LINE_RATE);
	KUNIT_EXPECT_EQ(test, qp->cc.stats.cnp_rx, 3);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_RATE_DEC), 0);
}

static struct kunit_case rxe_cc_pcn_cases[] = {
	KUNIT_CASE(pcn_dec_taken),
	KUNIT_CASE(pcn_inc_only_to_pcn),
	KUNIT_CASE(pcn_bad_reports),
	KUNIT_CASE(pcn_foreign_cnp),
	{}
};

static struct kunit_suite rxe_cc_pcn_suite = {
	.name = "rxe_cc_pcn",
	.suite_init = kt_suite_init,
	.suite_exit = kt_suite_exit,
	.init = kt_pcn_init,
	.exit = kt_env_exit,
	.test_cases = rxe_cc_pcn_cases,
};

/* ==== feedback recorders: kt_ops with TCD echoes or INT stacks ============== */

/* What the recorders were given: the last feedback of their kind */
struct kt_fb_priv {
	u32 n;		/* feedback delivered */
	u32 psn;	/* of the last one */
	u8 echo;	/* TCD: BTH byte 4 */
	struct rxe_cc_fb_int stack;	/* INT */
};

static void kt_fb_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			      const union rxe_cc_fb *fb, u64 now)
{
	struct kt_fb_priv *s = cc->priv;

	if (kind == RXE_CC_FB_TCD) {
		s->psn = fb->tcd.psn;
		s->echo = fb->tcd.echo;
	} else if (kind == RXE_CC_FB_INT) {
		s->psn = fb->int_stack.psn;
		s->stack = fb->int_stack;
	} else {
		return;
	}
	s->n++;
}

static void kt_fb_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *vals)
{
	const struct kt_fb_priv *s = cc->priv;

	vals[0] = s->n;
}

static const struct rxe_cc_state_desc kt_fb_state[] = {
	{ "feedback", RXE_CC_UNIT_NONE },
};

#define KT_FB_OPS(_name, _wire) {					\
	.name = _name,							\
	.wire = _wire,							\
	.priv_size = sizeof(struct kt_fb_priv),				\
	.cfg_size = sizeof(struct kt_cfg),				\
	.params = kt_params,						\
	.n_params = KT_NUM,						\
	.state = kt_fb_state,						\
	.n_state = ARRAY_SIZE(kt_fb_state),				\
	.defaults = kt_defaults,					\
	.setup = kt_setup,						\
	.init = kt_on_timer,						\
	.on_timer = kt_on_timer,					\
	.on_feedback = kt_fb_on_feedback,				\
	.get_state = kt_fb_get_state,					\
}

static struct rxe_cc_ops kt_tcd_ops = KT_FB_OPS("kunit_tcd", RXE_CC_WIRE_TCD);
static struct rxe_cc_ops kt_int_ops = KT_FB_OPS("kunit_int", RXE_CC_WIRE_INT);

static int kt_fb_suite_init(struct kunit_suite *suite)
{
	int err = rxe_cc_register(&kt_ops);

	if (err)
		return err;
	err = rxe_cc_register(&kt_tcd_ops);
	if (err)
		goto out_kt;
	err = rxe_cc_register(&kt_int_ops);
	if (!err)
		return 0;
	rxe_cc_unregister(&kt_tcd_ops);
out_kt:
	rxe_cc_unregister(&kt_ops);
	return err;
}

static void kt_fb_suite_exit(struct kunit_suite *suite)
{
	rxe_cc_unregister(&kt_int_ops);
	rxe_cc_unregister(&kt_tcd_ops);
	rxe_cc_unregister(&kt_ops);
}

/* the environment with its QP running the recorder @ops */
static int kt_fb_init(struct kunit *test, const struct rxe_cc_ops *rec)
{
	const struct rxe_cc_ops *ops;
	struct kt_env *env;

	kt_env_init(test);
	env = test->priv;
	KUNIT_ASSERT_EQ(test, rxe_cc_algo_get(rec->name, &ops), 0);
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(env->qp, ops, NULL, NULL), 0);
	rxe_cc_algo_put(ops);
	return 0;
}

static struct kt_fb_priv *kt_fb_priv(struct rxe_qp *qp)
{
	return qp->cc.ctx.priv;
}

/* ==== suite rxe_cc_tcd: TCD mark echoes (specs/wire.md §7.4 (c)) ============ */

static int kt_tcd_init(struct kunit *test)
{
	return kt_fb_init(test, &kt_tcd_ops);
}

/* A data packet (a WRITE of @psn) with IP ECN codepoint @ecn arrives. */
static void kt_tcd_rx(struct kunit *test, u32 psn, u8 ecn)
{
	struct kt_env *env = test->priv;
	unsigned int paylen = KT_MTU + RXE_BTH_BYTES + RXE_ICRC_SIZE;
	struct rxe_pkt_info pkt = {};
	struct sk_buff *skb;
	struct iphdr *iph;
	struct udphdr *udph;
	u8 *bth;

	skb = alloc_skb(KT_HDRS + paylen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->protocol = htons(ETH_P_IP);
	skb_reset_network_header(skb);
	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = 26 << 2 | ecn;
	iph->saddr = KT_PEER;
	iph->daddr = KT_SELF;
	skb_set_transport_header(skb, sizeof(*iph));
	udph = skb_put_zero(skb, sizeof(*udph));
	udph->dest = htons(ROCE_V2_UDP_DPORT);
	bth = skb_put_zero(skb, paylen);
	bth[0] = IB_OPCODE_RC_RDMA_WRITE_ONLY;
	put_unaligned_be32(psn & 0xffffff, bth + 8);
	pkt.rxe = env->rxe;
	pkt.qp = env->qp;
	pkt.hdr = bth;
	pkt.paylen = paylen;
	pkt.psn = psn;
	pkt.opcode = IB_OPCODE_RC_RDMA_WRITE_ONLY;
	pkt.mask = RXE_REQ_MASK | RXE_PAYLOAD_MASK | RXE_START_MASK |
		   RXE_END_MASK;
	rxe_cc_rcv_slow(&pkt, skb);
	kfree_skb(skb);
}

/* rxe_opcode[]'s mask of the responses the tests build */
static u32 kt_resp_mask(u8 opcode)
{
	switch (opcode) {
	case IB_OPCODE_RC_ACKNOWLEDGE:
		return RXE_AETH_MASK | RXE_START_MASK | RXE_END_MASK;
	case IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE:
		return RXE_PAYLOAD_MASK | RXE_MIDDLE_MASK;
	case IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST:
		return RXE_AETH_MASK | RXE_PAYLOAD_MASK | RXE_END_MASK;
	}
	return 0;
}

/* BTH byte 4 of the response to PSN @psn with @opcode the QP builds now. */
static u8 kt_tcd_tx(struct kunit *test, u8 opcode, u32 psn)
{
	struct kt_env *env = test->priv;
	struct rxe_pkt_info pkt = {};
	struct sk_buff *skb;
	u8 *bth, b4;

	skb = alloc_skb(RXE_BTH_BYTES + RXE_AETH_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	bth = skb_put_zero(skb, RXE_BTH_BYTES + RXE_AETH_BYTES);
	bth[0] = opcode;
	put_unaligned_be32(KT_QPN, bth + 4);
	put_unaligned_be32(psn & 0xffffff, bth + 8);
	pkt.rxe = env->rxe;
	pkt.qp = env->qp;
	pkt.hdr = bth;
	pkt.psn = psn;
	pkt.opcode = opcode;
	pkt.mask = kt_resp_mask(opcode);
	KUNIT_EXPECT_EQ(test, rxe_cc_udp_prepare_slow(&pkt, skb),
			cpu_to_be16(ROCE_V2_UDP_DPORT));
	b4 = bth[4];
	kfree_skb(skb);
	return b4;
}

#define KT_ACK		IB_OPCODE_RC_ACKNOWLEDGE
#define KT_CE(n)	(RXE_CC_TCD_CAP | RXE_CC_TCD_BECN | \
			 (n) << RXE_CC_TCD_CE_CNT_SHIFT)

/* The receiver echoes the marks of the data a response acknowledges */
static void tcd_echo_aggregates(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	const u8 cap = RXE_CC_TCD_CAP;
	u32 psn;

	/* nothing received: CAP only */
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 0), cap);
	/* UE alone */
	kt_tcd_rx(test, 0, RXE_CC_ECN_ECT0);
	kt_tcd_rx(test, 1, RXE_CC_ECN_ECT1);
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 1),
			cap | RXE_CC_TCD_UE);
	/* taken: a second response to PSN 1 (a duplicate's) has none */
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 1), cap);
	/* CE wins over UE, and is counted */
	kt_tcd_rx(test, 2, RXE_CC_ECN_CE);
	kt_tcd_rx(test, 3, RXE_CC_ECN_ECT1);
	kt_tcd_rx(test, 4, RXE_CC_ECN_CE);
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 4), KT_CE(2));
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_ECN_CE_RCVD), 2);
	/* packets that arrived before the response to an earlier one wait */
	kt_tcd_rx(test, 5, RXE_CC_ECN_CE);
	kt_tcd_rx(test, 6, RXE_CC_ECN_ECT1);
	kt_tcd_rx(test, 7, RXE_CC_ECN_CE);
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 5), KT_CE(1));
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 6), cap | RXE_CC_TCD_UE);
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 7), KT_CE(1));
	/* the count saturates at 15 */
	env->qp->resp.psn = 8;
	for (psn = 8; psn < 28; psn++)
		kt_tcd_rx(test, psn, RXE_CC_ECN_CE);
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 27),
			cap | RXE_CC_TCD_BECN | RXE_CC_TCD_CE_CNT);
	/* a duplicate (before the responder's PSN) is not noted */
	env->qp->resp.psn = 28;
	kt_tcd_rx(test, 27, RXE_CC_ECN_CE);
	kt_tcd_rx(test, 20, RXE_CC_ECN_ECT1);
	KUNIT_EXPECT_EQ(test, kt_tcd_tx(test, KT_ACK, 27), cap);
	/* a response without an AETH (READ middle) carries no echo */
	kt_tcd_rx(test, 28, RXE_CC_ECN_CE);
	KUNIT_EXPECT_EQ(test,
			kt_tcd_tx(test, IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE,
				  28), cap);
	KUNIT_EXPECT_EQ(test,
			kt_tcd_tx(test, IB_OPCODE_RC_RDMA_READ_RESPONSE_LAST,
				  28), KT_CE(1));
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_TCD_ECHO_TX), 7);

	/* a QP whose algorithm takes no echoes sends upstream's byte 4 */
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(env->qp, env->ops, NULL, NULL), 0);
	KUNIT_EXPECT_FALSE(test, env->qp->cc.cap);
	kt_tcd_rx(test, 29, RXE_CC_ECN_CE);
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(env->qp, NULL, NULL, NULL), 0);
	KUNIT_EXPECT_FALSE(test, env->qp->cc.tcd);
}

/* A response from the peer with BTH byte 4 @b4 reaches the completer. */
static void kt_tcd_acked(struct kunit *test, u32 psn, u8 opcode, u8 b4)
{
	struct kt_env *env = test->priv;
	struct rxe_pkt_info pkt = {};
	u8 bth[RXE_BTH_BYTES + RXE_AETH_BYTES] = {};

	bth[0] = opcode;
	bth[4] = b4;
	put_unaligned_be32(psn & 0xffffff, bth + 8);
	pkt.rxe = env->rxe;
	pkt.qp = env->qp;
	pkt.hdr = bth;
	pkt.psn = psn;
	pkt.opcode = opcode;
	pkt.mask = kt_resp_mask(opcode);
	rxe_cc_acked_slow(env->qp, &pkt);
}

/* The completer delivers the echoes of responses inside the send window */
static void tcd_feedback_in_window(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp = env->qp;
	const u8 ce = RXE_CC_TCD_CAP | RXE_CC_TCD_BECN |
		      3 << RXE_CC_TCD_CE_CNT_SHIFT;
	struct kt_tx tx;
	u32 psn;

	/* before anything was sent, no response is in the window */
	kt_tcd_acked(test, 0, IB_OPCODE_RC_ACKNOWLEDGE, ce);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->n, 0);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_TCD_BAD), 1);

	for (psn = 100; psn < 104; psn++)
		rxe_cc_sent_at(qp, kt_tx(&tx, psn), KT_T0);
	/* PSNs 100..103 sent: an echo for 101 is delivered as it came */
	qp->comp.psn = 102;
	kt_tcd_acked(test, 101, IB_OPCODE_RC_ACKNOWLEDGE, ce);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->n, 1);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->psn, 101);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->echo, ce);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_TCD_RX), 1);
	/* an ACK without marks is delivered too (the algorithm counts ACKs) */
	qp->comp.psn = 103;
	kt_tcd_acked(test, 102, IB_OPCODE_RC_ACKNOWLEDGE, RXE_CC_TCD_CAP);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->n, 2);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->echo, RXE_CC_TCD_CAP);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_TCD_RX), 1);
	/* a PSN not sent yet, or long gone: counted, not delivered */
	kt_tcd_acked(test, 104, IB_OPCODE_RC_ACKNOWLEDGE, ce);
	kt_tcd_acked(test, 100 - RXE_CC_SENT_SLOTS - 1,
		     IB_OPCODE_RC_ACKNOWLEDGE, RXE_CC_TCD_UE);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->n, 2);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_TCD_BAD), 3);
	/* a response without an AETH is not an echo, whatever its bits */
	kt_tcd_acked(test, 103, IB_OPCODE_RC_RDMA_READ_RESPONSE_MIDDLE, ce);
	KUNIT_EXPECT_EQ(test, kt_fb_priv(qp)->n, 2);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_TCD_BAD), 3);
	/* a QP whose algorithm takes no echoes counts none */
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(qp, env->ops, NULL, NULL), 0);
	kt_tcd_acked(test, 104, IB_OPCODE_RC_ACKNOWLEDGE, ce);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_TCD_BAD), 3);
}

static struct kunit_case rxe_cc_tcd_cases[] = {
	KUNIT_CASE(tcd_echo_aggregates),
	KUNIT_CASE(tcd_feedback_in_window),
	{}
};

static struct kunit_suite rxe_cc_tcd_suite = {
	.name = "rxe_cc_tcd",
	.suite_init = kt_fb_suite_init,
	.suite_exit = kt_fb_suite_exit,
	.init = kt_tcd_init,
	.exit = kt_env_exit,
	.test_cases = rxe_cc_tcd_cases,
};

/* ==== suite rxe_cc_int: the INT shim on the wire (specs/wire.md §7.4 (a)) === */

#define KT_INT_LEN	RXE_CC_INT_SHIM_BYTES

static int kt_int_init(struct kunit *test)
{
	struct kt_env *env;

	kt_fb_init(test, &kt_int_ops);
	env = test->priv;
	skb_queue_head_init(&env->qp->req_pkts);
	return 0;
}

static void kt_int_exit(struct kunit *test)
{
	struct kt_env *env = test->priv;

	skb_queue_purge(&env->qp->req_pkts);
	kt_env_exit(test);
}

/* A slot word: rate code @b, time @ts, tx bytes @txb, queue @q (units) */
static u64 kt_int_slot(u8 b, u32 ts, u32 txb, u16 q)
{
	return (u64)b << 60 | (u64)ts << 36 | (u64)txb << 16 | q;
}

/* A shim of @n hops (slot i from kt_int_slot(i + 1, ...)), path @path */
static void kt_int_shim(u8 *shim, u8 n, u16 path)
{
	int i;

	memset(shim, 0, KT_INT_LEN);
	put_unaligned_be16(n << 12 | path, shim);
	for (i = 0; i < n && i < RXE_CC_INT_MAX_HOPS; i++)
		put_unaligned_be64(kt_int_slot(i + 1, 1000 * (i + 1),
					       10 * (i + 1), i + 7),
				   shim + 2 + 8 * i);
}

/*
 * A packet as rxe_udp_encap_recv() hands it on: its UDP header (to
 * @dport) pulled, @shim_len bytes of shim, then a BTH of @opcode with PSN
 * @psn and @bth1 in its word 1, and @pay bytes. Its packet info, in the
 * skb's control block, points at what follows the UDP header.
 */
static struct sk_buff *kt_int_skb(struct kunit *test, u16 dport,
				  u32 shim_len, u8 opcode, u32 psn, u32 bth1,
				  u32 pay)
{
	struct kt_env *env = test->priv;
	struct rxe_pkt_info *pkt;
	struct udphdr *udph;
	struct sk_buff *skb;
	u8 *p;

	skb = alloc_skb(sizeof(*udph) + shim_len + RXE_BTH_BYTES + pay,
			GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reset_transport_header(skb);
	udph = skb_put_zero(skb, sizeof(*udph));
	udph->dest = htons(dport);
	__skb_pull(skb, sizeof(*udph));
	p = skb_put_zero(skb, shim_len + RXE_BTH_BYTES + pay);
	p[shim_len] = opcode;
	put_unaligned_be32(bth1 | KT_QPN, p + shim_len + 4);
	put_unaligned_be32(psn & 0xffffff, p + shim_len + 8);
	pkt = SKB_TO_PKT(skb);
	memset(pkt, 0, sizeof(*pkt));
	pkt->rxe = env->rxe;
	pkt->qp = env->qp;
	pkt->hdr = p;
	pkt->paylen = shim_len + RXE_BTH_BYTES + pay;
	pkt->psn = psn;
	pkt->opcode = opcode;
	pkt->mask = kt_resp_mask(opcode);
	if (!pkt->mask)
		pkt->mask = RXE_REQ_MASK | RXE_PAYLOAD_MASK | RXE_START_MASK |
			    RXE_END_MASK;
	return skb;
}

/* A packet from the INT port loses its shim; one too short is counted */
static void int_rcv_steps_over_the_shim(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_pkt_info *pkt;
	struct sk_buff *skb;
	u8 *shim;

	/* from the RoCEv2 port: untouched */
	skb = kt_int_skb(test, ROCE_V2_UDP_DPORT, 0,
			 IB_OPCODE_RC_RDMA_WRITE_ONLY, 5, 0, KT_MTU);
	pkt = SKB_TO_PKT(skb);
	shim = pkt->hdr;
	KUNIT_EXPECT_EQ(test, rxe_cc_int_rcv(skb, pkt), 0);
	KUNIT_EXPECT_PTR_EQ(test, pkt->hdr, shim);
	KUNIT_EXPECT_PTR_EQ(test, (u8 *)skb->data, shim);
	kfree_skb(skb);

	/* from the INT port: the BTH follows the shim, which stays before it */
	skb = kt_int_skb(test, rxe_cc_int_port, KT_INT_LEN,
			 IB_OPCODE_RC_RDMA_WRITE_ONLY, 5, 0, KT_MTU);
	pkt = SKB_TO_PKT(skb);
	shim = pkt->hdr;
	kt_int_shim(shim, 2, 0x123);
	KUNIT_EXPECT_EQ(test, rxe_cc_int_rcv(skb, pkt), 0);
	KUNIT_EXPECT_PTR_EQ(test, pkt->hdr, shim + KT_INT_LEN);
	KUNIT_EXPECT_PTR_EQ(test, (u8 *)skb->data, shim + KT_INT_LEN);
	KUNIT_EXPECT_EQ(test, pkt->paylen, RXE_BTH_BYTES + KT_MTU);
	KUNIT_EXPECT_EQ(test, pkt->hdr[0], IB_OPCODE_RC_RDMA_WRITE_ONLY);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(pkt->hdr - KT_INT_LEN),
			2 << 12 | 0x123);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_CC_INT_BAD), 0);
	kfree_skb(skb);

	/* a shim with no room for a BTH after it: dropped and counted */
	skb = kt_int_skb(test, rxe_cc_int_port, KT_INT_LEN - 1,
			 IB_OPCODE_RC_ACKNOWLEDGE, 5, 0, 0);
	pkt = SKB_TO_PKT(skb);
	shim = pkt->hdr;
	KUNIT_EXPECT_EQ(test, rxe_cc_int_rcv(skb, pkt), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, pkt->hdr, shim);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_CC_INT_BAD), 1);
	kfree_skb(skb);
}

/* Requests carry an empty shim once the peer said it takes INT */
static void int_request_shim(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct rxe_pkt_info pkt = {};
	struct sk_buff *skb;
	u8 *shim;

	pkt.qp = qp;
	pkt.opcode = IB_OPCODE_RC_RDMA_WRITE_FIRST;
	KUNIT_EXPECT_TRUE(test, qp->cc.int_cap);
	/* not before a response with CAP came back */
	KUNIT_EXPECT_EQ(test, rxe_cc_int_len(&pkt), 0);
	WRITE_ONCE(qp->cc.int_tx, true);
	KUNIT_EXPECT_EQ(test, rxe_cc_int_len(&pkt), KT_INT_LEN);
	/* a response a responder sends is no request */
	pkt.opcode = IB_OPCODE_RC_RDMA_READ_RESPONSE_ONLY;
	KUNIT_EXPECT_EQ(test, rxe_cc_int_len(&pkt), 0);

	pkt.opcode = IB_OPCODE_RC_RDMA_WRITE_FIRST;
	skb = alloc_skb(KT_INT_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	memset(skb_put(skb, 0), 0xa5, skb_tailroom(skb));
	rxe_cc_int_put(skb, &pkt, KT_INT_LEN);
	shim = skb->data;
	KUNIT_EXPECT_EQ(test, skb->len, KT_INT_LEN);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(shim, 0, KT_INT_LEN));
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_CC_INT_REQ_TX), 1);
	kfree_skb(skb);

	/* a QP without INT: never */
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(qp, env->ops, NULL, NULL), 0);
	KUNIT_EXPECT_FALSE(test, qp->cc.int_cap);
	KUNIT_EXPECT_EQ(test, rxe_cc_int_len(&pkt), 0);
}

/* The ACK to a request that came with a shim echoes it verbatim */
static void int_ack_echoes_the_request_shim(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_qp *qp = env->qp;
	struct rxe_pkt_info ack = {};
	struct rxe_pkt_info *req;
	struct sk_buff *skb, *out;
	u8 want[KT_INT_LEN];

	ack.qp = qp;
	ack.opcode = IB_OPCODE_RC_ACKNOWLEDGE;
	/* nothing queued, or a request without a shim: no echo */
	KUNIT_EXPECT_EQ(test, rxe_cc_int_len(&ack), 0);
	skb = kt_int_skb(test, ROCE_V2_UDP_DPORT, 0,
			 IB_OPCODE_RC_RDMA_WRITE_ONLY, 9, 0, 8);
	skb_queue_tail(&qp->req_pkts, skb);
	KUNIT_EXPECT_EQ(test, rxe_cc_int_len(&ack), 0);
	kfree_skb(skb_dequeue(&qp->req_pkts));

	/* a request from the INT port, as rxe_cc_int_rcv() left it */
	skb = kt_int_skb(test, rxe_cc_int_port, KT_INT_LEN,
			 IB_OPCODE_RC_RDMA_WRITE_ONLY, 9, 0, 8);
	req = SKB_TO_PKT(skb);
	kt_int_shim(req->hdr, 3, 0x0f0);
	memcpy(want, req->hdr, KT_INT_LEN);
	KUNIT_ASSERT_EQ(test, rxe_cc_int_rcv(skb, req), 0);
	skb_queue_tail(&qp->req_pkts, skb);
	KUNIT_EXPECT_EQ(test, rxe_cc_int_len(&ack), KT_INT_LEN);
	out = alloc_skb(KT_INT_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	rxe_cc_int_put(out, &ack, KT_INT_LEN);
	KUNIT_EXPECT_MEMEQ(test, out->data, want, KT_INT_LEN);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_CC_INT_ACK_TX), 1);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_CC_INT_REQ_TX), 0);
	kfree_skb(out);
}

/* A response from the INT port reaches the completer @test's QP */
static void kt_int_acked(struct kunit *test, u16 dport, u8 hops, u32 psn,
			 u32 bth1)
{
	struct kt_env *env = test->priv;
	struct rxe_pkt_info *pkt;
	struct sk_buff *skb;
	u32 len = dport == ROCE_V2_UDP_DPORT ? 0 : KT_INT_LEN;

	skb = kt_int_skb(test, dport, len, IB_OPCODE_RC_ACKNOWLEDGE, psn, bth1,
			 RXE_AETH_BYTES);
	pkt = SKB_TO_PKT(skb);
	if (len)
		kt_int_shim(pkt->hdr, hops, 0x0ab);
	KUNIT_ASSERT_EQ(test, rxe_cc_int_rcv(skb, pkt), 0);
	rxe_cc_acked_slow(env->qp, pkt);
	kfree_skb(skb);
}

/* The completer parses the echoed stack of a response in the window */
static void int_acked_delivers_the_stack(struct kunit *test)
{
	struct kt_env *env = test->priv;
	struct rxe_dev *rxe = env->rxe;
	struct rxe_qp *qp = env->qp;
	struct kt_fb_priv *s = kt_fb_priv(qp);
	struct kt_tx tx;
	u32 psn;

	/* nothing sent yet: outside the window, counted, not delivered */
	kt_int_acked(test, rxe_cc_int_port, 2, 0, RXE_CC_BTH_CAP);
	KUNIT_EXPECT_EQ(test, s->n, 0);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_INT_BAD), 1);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(qp->cc.int_tx));

	for (psn = 200; psn < 204; psn++)
		rxe_cc_sent_at(qp, kt_tx(&tx, psn), KT_T0);
	/* a response without a shim but with CAP: the requests get one */
	qp->comp.psn = 201;
	kt_int_acked(test, ROCE_V2_UDP_DPORT, 0, 200, RXE_CC_BTH_CAP);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(qp->cc.int_tx));
	KUNIT_EXPECT_EQ(test, s->n, 0);
	/* a stack of two hops, delivered as the hops wrote it */
	qp->comp.psn = 202;
	kt_int_acked(test, rxe_cc_int_port, 2, 201, RXE_CC_BTH_CAP);
	KUNIT_EXPECT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ(test, s->psn, 201);
	KUNIT_EXPECT_EQ(test, s->stack.n_hops, 2);
	KUNIT_EXPECT_EQ(test, s->stack.path_id, 0x0ab);
	KUNIT_EXPECT_EQ(test, s->stack.hop[0].b, 1);
	KUNIT_EXPECT_EQ(test, s->stack.hop[1].b, 2);
	KUNIT_EXPECT_EQ(test, s->stack.hop[1].ts, 2000);
	KUNIT_EXPECT_EQ(test, s->stack.hop[1].tx_bytes, 20);
	KUNIT_EXPECT_EQ(test, s->stack.hop[1].qlen, 8);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_INT_RX), 1);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_INT_BAD), 1);
	/* more hops than slots: counted, not delivered */
	qp->comp.psn = 203;
	kt_int_acked(test, rxe_cc_int_port, RXE_CC_INT_MAX_HOPS + 1, 202,
		     RXE_CC_BTH_CAP);
	KUNIT_EXPECT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_INT_BAD), 2);
	/* a PSN not sent yet: counted, not delivered */
	kt_int_acked(test, rxe_cc_int_port, 1, 204, RXE_CC_BTH_CAP);
	KUNIT_EXPECT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_INT_BAD), 3);
	/* a QP whose algorithm takes no INT parses nothing, counts nothing */
	KUNIT_ASSERT_EQ(test, rxe_cc_qp_set(qp, env->ops, NULL, NULL), 0);
	kt_int_acked(test, rxe_cc_int_port, RXE_CC_INT_MAX_HOPS + 1, 203, 0);
	KUNIT_EXPECT_EQ(test, kt_counter(rxe, RXE_CNT_CC_INT_BAD), 3);
}

static struct kunit_case rxe_cc_int_cases[] = {
	KUNIT_CASE(int_rcv_steps_over_the_shim),
	KUNIT_CASE(int_request_shim),
	KUNIT_CASE(int_ack_echoes_the_request_shim),
	KUNIT_CASE(int_acked_delivers_the_stack),
	{}
};

static struct kunit_suite rxe_cc_int_suite = {
	.name = "rxe_cc_int",
	.suite_init = kt_fb_suite_init,
	.suite_exit = kt_fb_suite_exit,
	.init = kt_int_init,
	.exit = kt_int_exit,
	.test_cases = rxe_cc_int_cases,
};

/* ==== suite rxe_pfc_rcv: received PAUSE frames ============================== */

#define KT_PFC_RATE	(1000ULL * 1000 * 1000)	/* a quantum is 512 ns */
#define KT_PFC_OP_PFC	0x0101
#define KT_PFC_OP_PAUSE	0x0001

static const u8 kt_pfc_group[ETH_ALEN] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };
static const u8 kt_own_mac[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const u8 kt_other_mac[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

struct kt_pfc_env {
	struct rxe_dev *rxe;
	struct net_device *ndev;
};

static int kt_pfc_init(struct kunit *test)
{
	struct kt_pfc_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, env);
	test->priv = env;
	env->rxe = kt_dev_new(test);
	env->rxe->pfc.rate_bps = KT_PFC_RATE;
	env->ndev = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, env->ndev);
	eth_hw_addr_set(env->ndev, kt_own_mac);
	return 0;
}

static void kt_pfc_exit(struct kunit *test)
{
	struct kt_pfc_env *env = test->priv;

	if (env->ndev)
		free_netdev(env->ndev);
	if (env->rxe)
		kt_dev_free(env->rxe);
}

/*
 * A MAC Control frame to @dst: @ctrl_len bytes of opcode @op, vector @vec
 * and times @q[] (padded to the minimum frame if @pad), as the stack hands
 * it to an ETH_P_PAUSE handler: the data after the Ethernet header.
 */
static struct sk_buff *kt_pause(struct kunit *test, struct net_device *ndev,
				const u8 *dst, u16 op, u16 vec, const u16 *q,
				unsigned int ctrl_len, bool pad)
{
	struct sk_buff *skb = alloc_skb(ETH_HLEN + ETH_ZLEN, GFP_KERNEL);
	u8 ctrl[ETH_ZLEN] = {};
	struct ethhdr *eth;
	unsigned int n;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, dst);
	ether_addr_copy(eth->h_source, kt_other_mac);
	eth->h_proto = htons(ETH_P_PAUSE);
	skb_reset_mac_header(skb);
	skb_pull(skb, ETH_HLEN);
	skb->protocol = htons(ETH_P_PAUSE);
	skb->dev = ndev;
	skb->pkt_type = is_multicast_ether_addr(dst) ? PACKET_MULTICAST :
						       PACKET_HOST;

	put_unaligned_be16(op, ctrl);
	if (op == KT_PFC_OP_PFC) {
		put_unaligned_be16(vec, ctrl + 2);
		for (n = 0; n < 8; n++)
			put_unaligned_be16(q[n], ctrl + 4 + 2 * n);
	} else {
		put_unaligned_be16(q[0], ctrl + 2);
	}
	skb_put_data(skb, ctrl, pad ? ETH_ZLEN - ETH_HLEN : ctrl_len);
	return skb;
}

static int kt_pfc_rcv(struct kt_pfc_env *env, struct sk_buff *skb)
{
	return rxe_pfc_rcv(skb, env->ndev, &env->rxe->pfc.pt, env->ndev);
}

static void pfc_pauses_enabled_priorities(struct kunit *test)
{
	struct kt_pfc_env *env = test->priv;
	struct rxe_pfc_dev *pd = &env->rxe->pfc;
	u16 q[8] = { 100, 500, 0, 1000, 0, 0, 0, 65535 };
	u64 t0, t1;

	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, kt_pfc_rcv(env, kt_pause(test, env->ndev,
						       kt_pfc_group,
						       KT_PFC_OP_PFC, 0x89, q,
						       0, true)),
			NET_RX_SUCCESS);
	t1 = ktime_get_ns();
	KUNIT_EXPECT_GE(test, pd->until[0], t0 + 100 * 512);
	KUNIT_EXPECT_LE(test, pd->until[0], t1 + 100 * 512);
	KUNIT_EXPECT_GE(test, pd->until[3], t0 + 1000 * 512);
	KUNIT_EXPECT_LE(test, pd->until[3], t1 + 1000 * 512);
	KUNIT_EXPECT_GE(test, pd->until[7], t0 + 65535ULL * 512);
	/* priority 1 has a time but is not enabled */
	KUNIT_EXPECT_EQ(test, pd->until[1], 0);
	KUNIT_EXPECT_EQ(test, pd->until[2], 0);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_PFC_PAUSE_RCVD), 1);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_PFC_IGNORED), 0);

	/* time 0 releases */
	memset(q, 0, sizeof(q));
	KUNIT_EXPECT_EQ(test, kt_pfc_rcv(env, kt_pause(test, env->ndev,
						       kt_pfc_group,
						       KT_PFC_OP_PFC, 0x08, q,
						       0, true)),
			NET_RX_SUCCESS);
	KUNIT_EXPECT_EQ(test, pd->until[3], 0);
	KUNIT_EXPECT_NE(test, pd->until[0], 0);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_PFC_RESUME_RCVD), 1);
}

static void pfc_8023x_pause(struct kunit *test)
{
	struct kt_pfc_env *env = test->priv;
	struct rxe_pfc_dev *pd = &env->rxe->pfc;
	u16 q[8] = { 10 };
	unsigned int n;

	KUNIT_EXPECT_EQ(test, kt_pfc_rcv(env, kt_pause(test, env->ndev,
						       kt_own_mac,
						       KT_PFC_OP_PAUSE, 0, q,
						       0, true)),
			NET_RX_SUCCESS);
	for (n = 0; n < 8; n++)
		KUNIT_EXPECT_NE(test, pd->until[n], 0);
	q[0] = 0;
	KUNIT_EXPECT_EQ(test, kt_pfc_rcv(env, kt_pause(test, env->ndev,
						       kt_pfc_group,
						       KT_PFC_OP_PAUSE, 0, q,
						       0, true)),
			NET_RX_SUCCESS);
	for (n = 0; n < 8; n++)
		KUNIT_EXPECT_EQ(test, pd->until[n], 0);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_PFC_IGNORED), 0);
}

/* Malformed and misaddressed frames change nothing and are counted */
static void pfc_bad_frames_ignored(struct kunit *test)
{
	struct kt_pfc_env *env = test->priv;
	struct rxe_pfc_dev *pd = &env->rxe->pfc;
	static const u64 zero[RXE_PFC_PRIOS];
	u16 q[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
	struct sk_buff *skb;
	int i, n = 0;

	for (i = 0; i < 10; i++) {
		switch (i) {
		case 0:	/* shorter than opcode, vector and eight times */
			skb = kt_pause(test, env->ndev, kt_pfc_group,
				       KT_PFC_OP_PFC, 0xff, q, 19, false);
			break;
		case 1:	/* no priority enabled */
			skb = kt_pause(test, env->ndev, kt_pfc_group,
				       KT_PFC_OP_PFC, 0, q, 0, true);
			break;
		case 2:	/* the reserved byte of the vector set */
			skb = kt_pause(test, env->ndev, kt_pfc_group,
				       KT_PFC_OP_PFC, 0x1ff, q, 0, true);
			break;
		case 3:	/* PFC to a unicast address */
			skb = kt_pause(test, env->ndev, kt_own_mac,
				       KT_PFC_OP_PFC, 0x01, q, 0, true);
			break;
		case 4:	/* PAUSE to another station */
			skb = kt_pause(test, env->ndev, kt_other_mac,
				       KT_PFC_OP_PAUSE, 0, q, 0, true);
			break;
		case 5:	/* an unknown opcode */
			skb = kt_pause(test, env->ndev, kt_pfc_group, 0x0002,
				       0, q, 0, true);
			break;
		case 6:	/* a PAUSE too short for its time */
			skb = kt_pause(test, env->ndev, kt_pfc_group,
				       KT_PFC_OP_PAUSE, 0, q, 3, false);
			break;
		case 7:	/* VLAN tagged */
			skb = kt_pause(test, env->ndev, kt_pfc_group,
				       KT_PFC_OP_PFC, 0x01, q, 0, true);
			__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), 5);
			break;
		case 8:	/* for another host */
			skb = kt_pause(test, env->ndev, kt_pfc_group,
				       KT_PFC_OP_PFC, 0x01, q, 0, true);
			skb->pkt_type = PACKET_OTHERHOST;
			break;
		default: /* no MAC header */
			skb = kt_pause(test, env->ndev, kt_pfc_group,
				       KT_PFC_OP_PFC, 0x01, q, 0, true);
			skb->mac_header = (typeof(skb->mac_header))~0U;
			break;
		}
		n++;
		KUNIT_EXPECT_EQ_MSG(test, kt_pfc_rcv(env, skb), NET_RX_DROP,
				    "frame %d", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    kt_counter(env->rxe, RXE_CNT_PFC_IGNORED),
				    n, "frame %d", i);
		KUNIT_EXPECT_MEMEQ(test, pd->until, zero, sizeof(zero));
	}
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_PFC_PAUSE_RCVD), 0);
	KUNIT_EXPECT_EQ(test, kt_counter(env->rxe, RXE_CNT_PFC_RESUME_RCVD),
			0);
}

static struct kunit_case rxe_pfc_rcv_cases[] = {
	KUNIT_CASE(pfc_pauses_enabled_priorities),
	KUNIT_CASE(pfc_8023x_pause),
	KUNIT_CASE(pfc_bad_frames_ignored),
	{}
};

static struct kunit_suite rxe_pfc_rcv_suite = {
	.name = "rxe_pfc_rcv",
	.init = kt_pfc_init,
	.exit = kt_pfc_exit,
	.test_cases = rxe_pfc_rcv_cases,
};

kunit_test_suites(&rxe_cc_registry_suite, &rxe_cc_dev_set_suite,
		  &rxe_cc_qp_set_suite, &rxe_cc_gate_suite, &rxe_cc_cnp_suite,
		  &rxe_cc_pcn_suite, &rxe_pfc_rcv_suite, &rxe_cc_tcd_suite,
		  &rxe_cc_int_suite);

MODULE_DESCRIPTION("KUnit tests of rxe congestion control");
MODULE_LICENSE("Dual BSD/GPL");
