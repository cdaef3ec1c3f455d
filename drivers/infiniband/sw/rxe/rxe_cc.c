// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: the congestion control framework of rxe.
 *
 * Algorithms (struct rxe_cc_ops, rxe_cc.h) are pure logic; this file owns
 * everything around them: the registry and the system default, per-device
 * settings, the per-QP context with its lock and soft hrtimer, the transmit
 * gate and pacer of the requester, ECN/DSCP of the packets a CC QP sends,
 * CNP reception and generation, counters and the restrack view. The gate
 * also holds QPs of a paused priority (rxe_pfc.c). The design is in
 * Documentation/rxe-cc/framework.rst.
 */

#include <linux/ethtool.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <rdma/rdma_netlink.h>
#include <rdma/rxe_cc.h>

#include "rxe.h"
#include "rxe_cc_int.h"
#include "rxe_pfc.h"

#define CREATE_TRACE_POINTS
#include "rxe_cc_trace.h"

/* hrtimer slack: the wake-up goes through a work queue anyway */
#define RXE_CC_TIMER_SLACK_NS	(20 * NSEC_PER_USEC)
/* pacer credit of an idle QP, in packets of the path MTU */
#define RXE_CC_BURST_PKTS	2
/* link overhead added to every frame (Ethernet header) */
#define RXE_CC_L2_BYTES		ETH_HLEN
/* line rate when the netdev does not tell one */
#define RXE_CC_DEFAULT_RATE_BPS	(10ULL * 1000 * 1000 * 1000)
#define RXE_CC_DEFAULT_CNP_DSCP	48

static const struct rxe_cc_ops *const rxe_cc_algos[RXE_CC_NUM_ALGOS] = {
	&rxe_cc_fixed_ops,
	&rxe_cc_dcqcn_ops,
};

/* ---- registry and system default ---------------------------------------- */

unsigned int rxe_cc_algo_count(void)
{
	return ARRAY_SIZE(rxe_cc_algos);
}

const struct rxe_cc_ops *rxe_cc_algo_at(unsigned int i)
{
	return i < ARRAY_SIZE(rxe_cc_algos) ? rxe_cc_algos[i] : NULL;
}

const char *rxe_cc_algo_name(const struct rxe_cc_ops *ops)
{
	return ops ? ops->name : "none";
}

static int rxe_cc_algo_index(const struct rxe_cc_ops *ops)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rxe_cc_algos); i++)
		if (rxe_cc_algos[i] == ops)
			return i;
	return -1;
}

/**
 * rxe_cc_algo_find - look an algorithm up by name
 * @name: algorithm name; "none" selects no congestion control
 * @ops: set to the algorithm, or NULL for "none"
 *
 * Return: 0, or -ENOENT for an unknown name.
 */
int rxe_cc_algo_find(const char *name, const struct rxe_cc_ops **ops)
{
	unsigned int i;

	if (!strcmp(name, "none")) {
		*ops = NULL;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(rxe_cc_algos); i++) {
		if (!strcmp(name, rxe_cc_algos[i]->name)) {
			*ops = rxe_cc_algos[i];
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * Pacer slack: a paced QP may send this much ahead of its schedule, and
 * catch up this much after a late wake-up, so that the wake-up latency of
 * the hrtimer and the work queue neither lowers the average rate nor costs
 * one wake-up per packet. The schedule itself stays exact.
 */
static unsigned int rxe_cc_pacer_slack_us = 100;
module_param_named(cc_pacer_slack_us, rxe_cc_pacer_slack_us, uint, 0644);
MODULE_PARM_DESC(cc_pacer_slack_us,
		 "pacer burst allowance in us (default 100; ~2000 under emulation)");

static u64 rxe_cc_slack_ns(void)
{
	return min_t(u64, READ_ONCE(rxe_cc_pacer_slack_us), USEC_PER_SEC) *
	       NSEC_PER_USEC;
}

static DEFINE_MUTEX(rxe_cc_default_lock);
static char rxe_cc_default[RXE_CC_NAME_MAX] = "none";
module_param_string(cc_default, rxe_cc_default, sizeof(rxe_cc_default), 0444);
MODULE_PARM_DESC(cc_default,
		 "congestion control of new rxe devices: none, fixed or dcqcn (default none)");

static const struct rxe_cc_ops *rxe_cc_default_ops(void)
{
	const struct rxe_cc_ops *ops = NULL;

	mutex_lock(&rxe_cc_default_lock);
	if (rxe_cc_algo_find(rxe_cc_default, &ops))
		ops = NULL;
	mutex_unlock(&rxe_cc_default_lock);
	return ops;
}

static int rxe_cc_proc_default(const struct ctl_table *table, int write,
			       void *buffer, size_t *lenp, loff_t *ppos)
{
	char val[RXE_CC_NAME_MAX];
	struct ctl_table tbl = {
		.data = val,
		.maxlen = sizeof(val),
	};
	const struct rxe_cc_ops *ops;
	int err;

	mutex_lock(&rxe_cc_default_lock);
	strscpy(val, rxe_cc_default, sizeof(val));
	mutex_unlock(&rxe_cc_default_lock);

	err = proc_dostring(&tbl, write, buffer, lenp, ppos);
	if (!write || err)
		return err;

	if (rxe_cc_algo_find(strim(val), &ops))
		return -ENOENT;

	mutex_lock(&rxe_cc_default_lock);
	strscpy(rxe_cc_default, rxe_cc_algo_name(ops), sizeof(rxe_cc_default));
	mutex_unlock(&rxe_cc_default_lock);
	return 0;
}

static char rxe_cc_available[RXE_CC_NAME_MAX * (RXE_CC_NUM_ALGOS + 1)];

static struct ctl_table rxe_cc_sysctl[] = {
	{
		.procname = "cc_default",
		.maxlen = RXE_CC_NAME_MAX,
		.mode = 0644,
		.proc_handler = rxe_cc_proc_default,
	},
	{
		.procname = "cc_available",
		.data = rxe_cc_available,
		.maxlen = sizeof(rxe_cc_available),
		.mode = 0444,
		.proc_handler = proc_dostring,
	},
};

static struct ctl_table_header *rxe_cc_sysctl_hdr;

/* ---- counters ------------------------------------------------------------ */

static const enum rxe_counters rxe_cc_stat_ids[] = {
	RXE_CNT_CC_CNP_SENT,
	RXE_CNT_CC_CNP_RCVD,
	RXE_CNT_CC_CNP_IGNORED,
	RXE_CNT_CC_ECN_CE_RCVD,
	RXE_CNT_CC_PACER_WAITS,
	RXE_CNT_CC_PACER_UNUSED_US,
	RXE_CNT_CC_RATE_DEC,
	RXE_CNT_CC_RATE_INC,
	RXE_CNT_PFC_PAUSE_RCVD,
	RXE_CNT_PFC_RESUME_RCVD,
	RXE_CNT_PFC_IGNORED,
	RXE_CNT_PFC_WAITS,
	RXE_CNT_PFC_PAUSED_US,
};

unsigned int rxe_cc_stat_count(void)
{
	return ARRAY_SIZE(rxe_cc_stat_ids);
}

const char *rxe_cc_stat_name(unsigned int i)
{
	return rxe_counter_name(rxe_cc_stat_ids[i]);
}

u64 rxe_cc_stat_value(struct rxe_dev *rxe, unsigned int i)
{
	return atomic64_read(&rxe->stats_counters[rxe_cc_stat_ids[i]]);
}

/* Account the events the hooks left in @ev (taken under the QP lock). */
static void rxe_cc_count_events(struct rxe_dev *rxe, u32 ev)
{
	if (ev & RXE_CC_EV_RATE_DEC)
		rxe_counter_inc(rxe, RXE_CNT_CC_RATE_DEC);
	if (ev & RXE_CC_EV_RATE_INC)
		rxe_counter_inc(rxe, RXE_CNT_CC_RATE_INC);
}

/*
 * Called under qp->cc.lock after a hook: take its events, count them per
 * QP, trace a change of rate or window and multicast it (RATE_EVENT).
 */
static u32 rxe_cc_take_events(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;
	struct rxe_cc_out *out = &cc->ctx.out;
	u32 ev = out->events;

	out->events = 0;
	if (ev & RXE_CC_EV_RATE_DEC)
		cc->stats.rate_dec++;
	if (ev & RXE_CC_EV_RATE_INC)
		cc->stats.rate_inc++;
	if (out->rate_bps != cc->last_rate || ev) {
		cc->last_rate = out->rate_bps;
		trace_rxe_cc_rate(dev_name(&qp->ibqp.device->dev), qp_num(qp),
				  rxe_cc_algo_name(cc->ctx.ops), out->rate_bps,
				  out->window_bytes, ev);
		rxe_cc_nl_rate_event(qp, out->rate_bps, out->window_bytes, ev);
	}
	return ev;
}

/* ---- parameters ---------------------------------------------------------- */

static void rxe_cc_defaults(const struct rxe_cc_ops *ops, u32 *params,
			    const struct rxe_cc_link *link)
{
	unsigned int i;

	for (i = 0; i < ops->n_params; i++)
		params[i] = ops->params[i].def;
	if (ops->defaults)
		ops->defaults(params, link);
}

/**
 * rxe_cc_params_parse - apply a netlink parameter nest to a parameter set
 * @ops: the algorithm the parameters belong to
 * @params: set to update (ops->n_params values)
 * @nest: RXE_CC_A_PARAMS with RXE_CC_A_PARAM entries, or NULL
 * @extack: where to say what is wrong
 *
 * Return: 0, or -EINVAL with @params partly updated (callers work on a copy).
 */
int rxe_cc_params_parse(const struct rxe_cc_ops *ops, u32 *params,
			const struct nlattr *nest,
			struct netlink_ext_ack *extack)
{
	static const struct nla_policy policy[RXE_CC_A_P_MAX + 1] = {
		[RXE_CC_A_P_NAME] = { .type = NLA_NUL_STRING,
				      .len = RXE_CC_NAME_MAX - 1 },
		[RXE_CC_A_P_VALUE] = { .type = NLA_U32 },
	};
	struct nlattr *tb[RXE_CC_A_P_MAX + 1];
	const struct rxe_cc_param_desc *d;
	const struct nlattr *attr;
	const char *name;
	unsigned int i;
	int rem, err;
	u32 val;

	if (!nest)
		return 0;
	if (!ops) {
		NL_SET_ERR_MSG(extack, "algorithm none has no parameters");
		return -EINVAL;
	}

	nla_for_each_nested(attr, nest, rem) {
		if (nla_type(attr) != RXE_CC_A_PARAM) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "expected a parameter");
			return -EINVAL;
		}
		err = nla_parse_nested(tb, RXE_CC_A_P_MAX, attr, policy, extack);
		if (err)
			return err;
		if (!tb[RXE_CC_A_P_NAME] || !tb[RXE_CC_A_P_VALUE]) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "a parameter needs a name and a value");
			return -EINVAL;
		}
		name = nla_data(tb[RXE_CC_A_P_NAME]);
		val = nla_get_u32(tb[RXE_CC_A_P_VALUE]);
		for (i = 0; i < ops->n_params; i++)
			if (!strcmp(name, ops->params[i].name))
				break;
		if (i == ops->n_params) {
			NL_SET_ERR_MSG_FMT(extack, "%s has no parameter %s",
					   ops->name, name);
			return -EINVAL;
		}
		d = &ops->params[i];
		if (val < d->min || val > d->max) {
			NL_SET_ERR_MSG_FMT(extack, "%s=%u out of range [%u, %u]",
					   name, val, d->min, d->max);
			return -ERANGE;
		}
		params[i] = val;
	}
	return 0;
}

/* A compiled configuration of @ops for @params, or an ERR_PTR. */
static void *rxe_cc_compile(const struct rxe_cc_ops *ops, const u32 *params,
			    const struct rxe_cc_link *link,
			    struct netlink_ext_ack *extack)
{
	const char *why = NULL;
	void *cfg;
	int err;

	cfg = kzalloc(max_t(u32, ops->cfg_size, 1), GFP_KERNEL);
	if (!cfg)
		return ERR_PTR(-ENOMEM);
	err = ops->setup(cfg, params, link, &why);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "%s: %s", ops->name,
				   why ?: "inconsistent parameters");
		kfree(cfg);
		return ERR_PTR(err);
	}
	return cfg;
}

/* ---- devices ------------------------------------------------------------- */

static u64 rxe_cc_netdev_rate(struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;
	int err;

	rtnl_lock();
	err = __ethtool_get_link_ksettings(ndev, &ks);
	rtnl_unlock();
	if (err || ks.base.speed == (u32)SPEED_UNKNOWN || !ks.base.speed)
		return RXE_CC_DEFAULT_RATE_BPS;
	return (u64)ks.base.speed * 1000 * 1000;
}

/**
 * rxe_cc_dev_init - set a new device's congestion control defaults
 * @rxe: the device
 * @ndev: its netdev
 *
 * Process context, RTNL not held (rdma link add).
 */
void rxe_cc_dev_init(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct rxe_cc_dev *cd = &rxe->cc;

	mutex_init(&cd->lock);
	cd->algo = rxe_cc_default_ops();
	cd->netdev_rate_bps = rxe_cc_netdev_rate(ndev);
	cd->ecn = true;
	cd->cnp_dscp = RXE_CC_DEFAULT_CNP_DSCP;
	cd->ack_dscp = RXE_CC_DSCP_OWN;
	rxe_pfc_set_rate(rxe, cd->netdev_rate_bps);
	rxe_pfc_dev_init(rxe, ndev);
	rxe_cc_nl_dev_add(rxe);
}

/* rxe_dealloc(): every QP is gone (process context). */
void rxe_cc_dev_cleanup(struct rxe_dev *rxe)
{
	unsigned int i;

	rxe_pfc_dev_cleanup(rxe);
	rxe_cc_nl_dev_del(rxe);
	for (i = 0; i < RXE_CC_NUM_ALGOS; i++) {
		kfree(rxe->cc.params[i]);
		rxe->cc.params[i] = NULL;
	}
	mutex_destroy(&rxe->cc.lock);
}

/* Called with cd->lock held. */
static void rxe_cc_dev_link(struct rxe_dev *rxe, struct rxe_cc_link *link)
{
	struct rxe_cc_dev *cd = &rxe->cc;

	link->rate_bps = cd->line_rate_bps ?: cd->netdev_rate_bps;
	link->base_rtt_ns = cd->base_rtt_ns;
	link->mtu = rxe->port.mtu_cap;
}

/* The device default set of algorithm @idx; called with cd->lock held. */
static u32 *rxe_cc_dev_params(struct rxe_dev *rxe, int idx)
{
	const struct rxe_cc_ops *ops = rxe_cc_algos[idx];
	struct rxe_cc_dev *cd = &rxe->cc;
	struct rxe_cc_link link;

	if (!cd->params[idx]) {
		cd->params[idx] = kcalloc(ops->n_params, sizeof(u32),
					  GFP_KERNEL);
		if (!cd->params[idx])
			return NULL;
		rxe_cc_dev_link(rxe, &link);
		rxe_cc_defaults(ops, cd->params[idx], &link);
	}
	return cd->params[idx];
}

void rxe_cc_dev_get_conf(struct rxe_dev *rxe, struct rxe_cc_dev_conf *conf)
{
	struct rxe_cc_dev *cd = &rxe->cc;
	struct rxe_cc_link link;

	mutex_lock(&cd->lock);
	rxe_cc_dev_link(rxe, &link);
	conf->algo = cd->algo;
	conf->line_rate_bps = cd->line_rate_bps;
	conf->eff_rate_bps = link.rate_bps;
	conf->base_rtt_ns = cd->base_rtt_ns;
	conf->ecn = cd->ecn;
	conf->ack_every = cd->ack_every;
	conf->cnp_dscp = cd->cnp_dscp;
	conf->ack_dscp = cd->ack_dscp;
	mutex_unlock(&cd->lock);
}

int rxe_cc_dev_get_params(struct rxe_dev *rxe, const struct rxe_cc_ops *ops,
			  u32 *params)
{
	int idx = rxe_cc_algo_index(ops);
	u32 *p;

	if (idx < 0)
		return -ENOENT;
	mutex_lock(&rxe->cc.lock);
	p = rxe_cc_dev_params(rxe, idx);
	if (p)
		memcpy(params, p, ops->n_params * sizeof(u32));
	mutex_unlock(&rxe->cc.lock);
	return p ? 0 : -ENOMEM;
}

/**
 * rxe_cc_dev_set - change device settings, all or nothing
 * @rxe: the device
 * @req: the fields to change
 * @extack: where to say what is wrong
 *
 * New settings apply to QPs that start afterwards.
 *
 * Return: 0 or a negative errno; on error nothing was changed.
 */
int rxe_cc_dev_set(struct rxe_dev *rxe, const struct rxe_cc_dev_req *req,
		   struct netlink_ext_ack *extack)
{
	u32 *scaled[RXE_CC_NUM_ALGOS] = {};
	struct rxe_cc_dev *cd = &rxe->cc;
	const struct rxe_cc_ops *algo;
	struct rxe_cc_link link;
	u32 *np = NULL, *cur;
	int idx = -1, err = 0;
	unsigned int i;
	void *cfg;

	mutex_lock(&cd->lock);
	algo = req->has_algo ? req->algo : cd->algo;

	/* the link as it will be, to check every parameter set against */
	rxe_cc_dev_link(rxe, &link);
	if (req->has_line_rate && req->line_rate_bps)
		link.rate_bps = req->line_rate_bps;
	else if (req->has_line_rate)
		link.rate_bps = cd->netdev_rate_bps;
	if (req->has_base_rtt)
		link.base_rtt_ns = req->base_rtt_ns;

	if (req->params) {
		if (!algo) {
			NL_SET_ERR_MSG(extack, "algorithm none has no parameters");
			err = -EINVAL;
			goto out;
		}
		idx = rxe_cc_algo_index(algo);
		cur = rxe_cc_dev_params(rxe, idx);
		np = cur ? kmemdup(cur, algo->n_params * sizeof(u32),
				   GFP_KERNEL) : NULL;
		if (!np) {
			err = -ENOMEM;
			goto out;
		}
		err = rxe_cc_params_parse(algo, np, req->params, extack);
		if (err)
			goto out;
	}

	/* sets that follow the link are rescaled; every set must compile */
	for (i = 0; i < RXE_CC_NUM_ALGOS; i++) {
		const struct rxe_cc_ops *ops = rxe_cc_algos[i];
		const u32 *p;

		if ((int)i == idx) {
			p = np;
		} else if (!cd->params[i]) {
			continue;
		} else if (!cd->user_params[i] &&
			   (req->has_line_rate || req->has_base_rtt)) {
			scaled[i] = kcalloc(ops->n_params, sizeof(u32),
					    GFP_KERNEL);
			if (!scaled[i]) {
				err = -ENOMEM;
				goto out;
			}
			rxe_cc_defaults(ops, scaled[i], &link);
			p = scaled[i];
		} else {
			p = cd->params[i];
		}
		cfg = rxe_cc_compile(ops, p, &link, extack);
		if (IS_ERR(cfg)) {
			err = PTR_ERR(cfg);
			goto out;
		}
		kfree(cfg);
	}

	/* commit */
	for (i = 0; i < RXE_CC_NUM_ALGOS; i++)
		if (scaled[i])
			swap(cd->params[i], scaled[i]);
	if (np) {
		swap(cd->params[idx], np);
		cd->user_params[idx] = true;
	}
	if (req->has_algo)
		cd->algo = req->algo;
	if (req->has_line_rate) {
		cd->line_rate_bps = req->line_rate_bps;
		rxe_pfc_set_rate(rxe, cd->line_rate_bps ?: cd->netdev_rate_bps);
	}
	if (req->has_base_rtt)
		cd->base_rtt_ns = req->base_rtt_ns;
	if (req->has_ecn)
		cd->ecn = req->ecn;
	if (req->has_ack_every)
		cd->ack_every = req->ack_every;
	if (req->has_cnp_dscp)
		cd->cnp_dscp = req->cnp_dscp;
	if (req->has_ack_dscp)
		cd->ack_dscp = req->ack_dscp;
out:
	mutex_unlock(&cd->lock);
	for (i = 0; i < RXE_CC_NUM_ALGOS; i++)
		kfree(scaled[i]);
	kfree(np);
	return err;
}

/* ---- QPs ----------------------------------------------------------------- */

static enum hrtimer_restart rxe_cc_timer_fn(struct hrtimer *timer)
{
	struct rxe_qp *qp = container_of(timer, struct rxe_qp, cc.timer);
	unsigned long flags;

	if (!rxe_get(qp))
		return HRTIMER_NORESTART;

	spin_lock_irqsave(&qp->state_lock, flags);
	if (qp->valid) {
		rxe_sched_task(&qp->send_task);
		if (xchg(&qp->cc.resp_wait, 0))
			rxe_sched_task(&qp->recv_task);
	}
	spin_unlock_irqrestore(&qp->state_lock, flags);

	rxe_put(qp);
	return HRTIMER_NORESTART;
}

/* QP creation (process context): no algorithm until the QP reaches RTR. */
void rxe_cc_qp_init(struct rxe_qp *qp)
{
	spin_lock_init(&qp->cc.lock);
	hrtimer_init(&qp->cc.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	qp->cc.timer.function = rxe_cc_timer_fn;
	rxe_pfc_qp_init(qp);
}

struct rxe_cc_alloc {
	void *priv;
	void *cfg;
	u32 *params;
};

static void rxe_cc_free(struct rxe_cc_alloc *a)
{
	kfree(a->priv);
	kfree(a->cfg);
	kfree(a->params);
}

/*
 * Install @ops with @params on @qp (process context). With @ops NULL the QP
 * stops running congestion control.
 */
static int rxe_cc_qp_install(struct rxe_qp *qp, const struct rxe_cc_ops *ops,
			     const u32 *params, const struct rxe_cc_link *link,
			     struct netlink_ext_ack *extack)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_cc_alloc na = {}, old;
	struct rxe_cc_qp *cc = &qp->cc;
	u8 cnp_dscp, ack_dscp;
	u32 ack_every;
	void *cfg;
	bool ecn;

	if (ops) {
		cfg = rxe_cc_compile(ops, params, link, extack);
		if (IS_ERR(cfg))
			return PTR_ERR(cfg);
		na.cfg = cfg;
		na.priv = kzalloc(max_t(u32, ops->priv_size, 1), GFP_KERNEL);
		na.params = kmemdup(params, ops->n_params * sizeof(u32),
				    GFP_KERNEL);
		if (!na.priv || !na.params) {
			rxe_cc_free(&na);
			return -ENOMEM;
		}
	}

	mutex_lock(&rxe->cc.lock);
	ecn = rxe->cc.ecn;
	cnp_dscp = rxe->cc.cnp_dscp;
	ack_dscp = rxe->cc.ack_dscp;
	ack_every = rxe->cc.ack_every;
	mutex_unlock(&rxe->cc.lock);

	spin_lock_bh(&cc->lock);
	if (cc->ctx.ops && cc->ctx.ops->release)
		cc->ctx.ops->release(&cc->ctx);
	old.priv = cc->ctx.priv;
	old.cfg = (void *)cc->ctx.cfg;
	old.params = cc->params;

	memset(&cc->ctx.out, 0, sizeof(cc->ctx.out));
	cc->ctx.priv = na.priv;
	cc->ctx.cfg = na.cfg;
	cc->params = na.params;
	cc->link = *link;
	cc->burst_ns = max(rxe_cc_tx_time_ns(RXE_CC_BURST_PKTS * link->mtu,
					     link->rate_bps),
			   rxe_cc_slack_ns());
	/* read without the lock by the transmit path */
	WRITE_ONCE(cc->ect, ecn && ops && (ops->wire & RXE_CC_WIRE_ECT));
	WRITE_ONCE(cc->cnp_dscp, cnp_dscp);
	WRITE_ONCE(cc->ack_dscp, ack_dscp);
	WRITE_ONCE(cc->ack_every, ops ? ack_every : 0);
	if (ops)
		ops->init(&cc->ctx, ktime_get_ns());
	/* publish last: the data path tests ops without the lock */
	WRITE_ONCE(cc->ctx.ops, ops);
	cc->started = true;
	spin_unlock_bh(&cc->lock);

	rxe_cc_free(&old);
	return 0;
}

/* The QP reaches RTR (process context): start the device's default. */
void rxe_cc_qp_start(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	u32 params[RXE_CC_MAX_PARAMS];
	const struct rxe_cc_ops *ops;
	struct rxe_cc_link link;
	u32 *p = NULL;
	int err;

	if (qp_type(qp) != IB_QPT_RC || qp->cc.started)
		return;

	mutex_lock(&rxe->cc.lock);
	ops = rxe->cc.algo;
	if (ops) {
		p = rxe_cc_dev_params(rxe, rxe_cc_algo_index(ops));
		if (p)
			memcpy(params, p, ops->n_params * sizeof(u32));
	}
	rxe_cc_dev_link(rxe, &link);
	mutex_unlock(&rxe->cc.lock);
	if (ops && !p)
		return;

	err = rxe_cc_qp_install(qp, ops, params, &link, NULL);
	if (err)
		rxe_dbg_qp(qp, "congestion control %s not started: %d\n",
			   rxe_cc_algo_name(ops), err);
}

static void rxe_cc_qp_stop(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;
	struct rxe_cc_alloc old;

	/* no longer a PAUSE waiter: nothing re-arms the timer afterwards */
	rxe_pfc_qp_stop(qp);
	hrtimer_cancel(&cc->timer);

	spin_lock_bh(&cc->lock);
	if (cc->ctx.ops && cc->ctx.ops->release)
		cc->ctx.ops->release(&cc->ctx);
	WRITE_ONCE(cc->ctx.ops, NULL);
	old.priv = cc->ctx.priv;
	old.cfg = (void *)cc->ctx.cfg;
	old.params = cc->params;
	cc->ctx.priv = NULL;
	cc->ctx.cfg = NULL;
	cc->params = NULL;
	memset(&cc->ctx.out, 0, sizeof(cc->ctx.out));
	cc->t_next = 0;
	WRITE_ONCE(cc->ack_every, 0);
	cc->started = false;
	memset(&cc->stats, 0, sizeof(cc->stats));
	spin_unlock_bh(&cc->lock);

	rxe_cc_free(&old);
}

/* RESET, with the QP's tasks disabled (process context). */
void rxe_cc_qp_reset(struct rxe_qp *qp)
{
	rxe_cc_qp_stop(qp);
}

/*
 * ERR, once the state is set (process context or a QP task). The QP sends
 * nothing more: it stops waiting for a pause now, so that the time it stays
 * in ERR is not counted as paused. A timer that still fires finds an
 * invalid QP.
 */
void rxe_cc_qp_error(struct rxe_qp *qp)
{
	rxe_pfc_qp_stop(qp);
	hrtimer_try_to_cancel(&qp->cc.timer);
}

/* Destroy, before the tasks are cleaned up (process context). */
void rxe_cc_qp_cleanup(struct rxe_qp *qp)
{
	rxe_cc_qp_stop(qp);
}

/**
 * rxe_cc_qp_set - switch a QP's algorithm and parameters (netlink)
 * @qp: an RC QP
 * @ops: the new algorithm, NULL for none
 * @params: parameters overriding the device defaults of @ops, or NULL
 * @extack: where to say what is wrong
 *
 * Allowed at any time; the QP keeps sending. A QP that has not reached RTR
 * yet starts with this setting instead of the device's default.
 */
int rxe_cc_qp_set(struct rxe_qp *qp, const struct rxe_cc_ops *ops,
		  const struct nlattr *params, struct netlink_ext_ack *extack)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	u32 p[RXE_CC_MAX_PARAMS];
	struct rxe_cc_link link;
	int err;

	if (qp_type(qp) != IB_QPT_RC) {
		NL_SET_ERR_MSG(extack, "congestion control runs on RC QPs only");
		return -EOPNOTSUPP;
	}
	if (ops) {
		err = rxe_cc_dev_get_params(rxe, ops, p);
		if (err)
			return err;
		err = rxe_cc_params_parse(ops, p, params, extack);
		if (err)
			return err;
	} else if (params) {
		NL_SET_ERR_MSG(extack, "algorithm none has no parameters");
		return -EINVAL;
	}

	mutex_lock(&rxe->cc.lock);
	rxe_cc_dev_link(rxe, &link);
	mutex_unlock(&rxe->cc.lock);

	return rxe_cc_qp_install(qp, ops, p, &link, extack);
}

void rxe_cc_qp_snapshot(struct rxe_qp *qp, struct rxe_cc_qp_info *info)
{
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	u64 now = ktime_get_ns();

	memset(info, 0, sizeof(*info));
	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	info->ops = ops;
	if (ops) {
		memcpy(info->params, cc->params, ops->n_params * sizeof(u32));
		info->rate_bps = cc->ctx.out.rate_bps;
		info->window_bytes = cc->ctx.out.window_bytes;
		ops->get_state(&cc->ctx, now, info->state);
	}
	info->stats = cc->stats;
	spin_unlock_bh(&cc->lock);
}

/* ---- data path ----------------------------------------------------------- */

/* Bytes a packet of @pkt's QP costs on the link (IP header to ICRC + L2). */
static u32 rxe_cc_wire_bytes(const struct rxe_qp *qp, u32 paylen)
{
	u32 l3 = qp->pri_av.network_type == RXE_NETWORK_TYPE_IPV6 ?
		 sizeof(struct ipv6hdr) : sizeof(struct iphdr);

	return paylen + l3 + sizeof(struct udphdr) + RXE_CC_L2_BYTES;
}

static void rxe_cc_send_cnp(struct rxe_qp *qp, const struct rxe_cc_np_msg *msg);

/*
 * The transmit gate: send_task before the requester builds a data packet,
 * or recv_task (@resp) before the responder builds a READ response packet.
 * Reached for QPs that run an algorithm or can be paused (rxe_cc_fw.h).
 */
bool rxe_cc_hold_slow(struct rxe_qp *qp, bool resp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_np_msg msg;
	u64 now = ktime_get_ns();
	bool window_full = false;
	bool send = false;
	u64 until = 0;
	u32 ev;

	/* a PAUSE of the QP's priority holds it whatever its algorithm */
	if (cc->pfc && rxe_pfc_hold(qp, resp))
		return true;
	if (!READ_ONCE(cc->ctx.ops))
		return false;

	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (!ops) {
		spin_unlock_bh(&cc->lock);
		return false;
	}
	if ((cc->ctx.out.flags & RXE_CC_OUT_TIMER) && ops->on_timer &&
	    rxe_cc_after_eq(now, cc->ctx.out.timer_ns))
		ops->on_timer(&cc->ctx, now);
	if ((cc->ctx.out.flags & RXE_CC_OUT_RX_TIMER) && ops->rx_timer &&
	    rxe_cc_after_eq(now, cc->ctx.out.rx_timer_ns))
		send = ops->rx_timer(&cc->ctx, now, &msg);

	if (cc->ctx.out.rate_bps &&
	    rxe_cc_before(now + rxe_cc_slack_ns(), cc->t_next))
		until = cc->t_next - rxe_cc_slack_ns();
	if ((cc->ctx.out.flags & RXE_CC_OUT_HALT) &&
	    rxe_cc_before(now, cc->ctx.out.halt_ns) &&
	    (!until || rxe_cc_before(until, cc->ctx.out.halt_ns)))
		until = cc->ctx.out.halt_ns;
	/*
	 * Window: bytes in flight, estimated from the unacknowledged PSNs at
	 * full frames; one packet may always go when nothing is in flight.
	 * No timer: the completer re-runs the requester after each ACK.
	 */
	if (!resp && !until && cc->ctx.out.window_bytes) {
		int pkts = psn_compare(qp->req.psn, qp->comp.psn);
		u64 frame = rxe_cc_wire_bytes(qp, qp->mtu);

		if (pkts > 0 &&
		    (u64)(pkts + 1) * frame > cc->ctx.out.window_bytes)
			window_full = true;
	}
	if (until || window_full)
		cc->stats.pacer_waits++;
	ev = rxe_cc_take_events(qp);
	spin_unlock_bh(&cc->lock);

	rxe_cc_count_events(rxe, ev);
	if (send)
		rxe_cc_send_cnp(qp, &msg);
	if (window_full) {
		rxe_counter_inc(rxe, RXE_CNT_CC_PACER_WAITS);
		return true;
	}
	if (!until)
		return false;

	rxe_counter_inc(rxe, RXE_CNT_CC_PACER_WAITS);
	if (resp)
		WRITE_ONCE(cc->resp_wait, 1);
	hrtimer_start_range_ns(&cc->timer, ns_to_ktime(until),
			       RXE_CC_TIMER_SLACK_NS, HRTIMER_MODE_ABS_SOFT);
	return true;
}

/* After a data packet was transmitted: a request (send_task) or a READ
 * response (recv_task).
 */
void rxe_cc_sent_slow(struct rxe_qp *qp, const struct rxe_pkt_info *pkt)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_tx tx = {
		.bytes = rxe_cc_wire_bytes(qp, pkt->paylen),
		.psn = pkt->psn,
	};
	u64 now = ktime_get_ns();
	u64 unused, us = 0;
	u32 ev;

	if (pkt->mask & RXE_START_MASK)
		tx.flags |= RXE_CC_TX_MSG_FIRST;
	if (pkt->mask & RXE_END_MASK)
		tx.flags |= RXE_CC_TX_MSG_LAST;
	if (!(pkt->mask & RXE_REQ_MASK))
		tx.flags |= RXE_CC_TX_READ_RESP;

	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (!ops) {
		spin_unlock_bh(&cc->lock);
		return;
	}
	if (ops->on_send)
		ops->on_send(&cc->ctx, &tx, now);
	/* the device counter gains the whole microseconds this QP's total does */
	unused = rxe_cc_pace_unused(cc->t_next, now, cc->burst_ns,
				    cc->ctx.out.rate_bps);
	if (unused) {
		us = div_u64(cc->stats.pacer_unused_ns + unused,
			     NSEC_PER_USEC) -
		     div_u64(cc->stats.pacer_unused_ns, NSEC_PER_USEC);
		cc->stats.pacer_unused_ns += unused;
	}
	cc->t_next = rxe_cc_pace(cc->t_next, now, cc->burst_ns, tx.bytes,
				 cc->ctx.out.rate_bps);
	ev = rxe_cc_take_events(qp);
	spin_unlock_bh(&cc->lock);

	rxe_cc_count_events(rxe, ev);
	if (us)
		atomic64_add(us, &rxe->stats_counters[RXE_CNT_CC_PACER_UNUSED_US]);
}

/* IP TOS of a packet a CC QP sends (rxe_prepare) */
u8 rxe_cc_tos_slow(const struct rxe_pkt_info *pkt, u8 tc)
{
	const struct rxe_cc_qp *cc = &pkt->qp->cc;
	u8 ack_dscp = READ_ONCE(cc->ack_dscp);

	/* CNPs carry the DSCP their builder chose, Not-ECT */
	if (pkt->opcode == RXE_OPCODE_CNP)
		return tc;
	/* data: requests and READ responses */
	if (pkt->mask & (RXE_REQ_MASK | RXE_PAYLOAD_MASK)) {
		if (READ_ONCE(cc->ect))
			return (tc & ~INET_ECN_MASK) | INET_ECN_ECT_0;
		return tc;
	}
	/* ACKs are never ECN-capable */
	if (ack_dscp != RXE_CC_DSCP_OWN)
		return ack_dscp << 2;
	return tc & ~INET_ECN_MASK;
}

static u8 rxe_cc_skb_ecn(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IP))
		return ip_hdr(skb)->tos & INET_ECN_MASK;
	if (skb->protocol == htons(ETH_P_IPV6))
		return ipv6_get_dsfield(ipv6_hdr(skb)) & INET_ECN_MASK;
	return INET_ECN_NOT_ECT;
}

/* rxe_rcv, for a checked packet of a CC QP (softirq or loopback) */
void rxe_cc_rcv_slow(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_np_msg msg;
	struct rxe_cc_rx rx;
	bool send = false;
	u64 now;

	/* data-bearing packets only: requests and READ responses */
	if (!(pkt->mask & (RXE_REQ_MASK | RXE_PAYLOAD_MASK)))
		return;

	rx.bytes = rxe_cc_wire_bytes(qp, pkt->paylen);
	rx.psn = pkt->psn;
	rx.ecn = rxe_cc_skb_ecn(skb);
	rx.ackreq = bth_ack(pkt);
	now = ktime_get_ns();

	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (ops) {
		if (rx.ecn == INET_ECN_CE)
			cc->stats.ce_rx++;
		if (ops->rx_data)
			send = ops->rx_data(&cc->ctx, &rx, now, &msg);
	}
	spin_unlock_bh(&cc->lock);

	if (ops && rx.ecn == INET_ECN_CE)
		rxe_counter_inc(pkt->rxe, RXE_CNT_CC_ECN_CE_RCVD);
	if (send)
		rxe_cc_send_cnp(qp, &msg);
}

/* Build and send a RoCEv2 CNP to the QP's peer (any context). */
static void rxe_cc_send_cnp(struct rxe_qp *qp, const struct rxe_cc_np_msg *msg)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	int paylen = RXE_BTH_BYTES + RXE_CNP_BODY_BYTES + RXE_ICRC_SIZE;
	struct rxe_pkt_info pkt = {};
	struct sk_buff *skb;
	struct rxe_av av;
	u8 dscp;

	if (msg->type != RXE_CC_MSG_CNP)
		return;

	/* the QP's path with the CNP's DSCP, Not-ECT */
	av = qp->pri_av;
	dscp = msg->dscp != 0xff ? msg->dscp : READ_ONCE(qp->cc.cnp_dscp);
	av.grh.traffic_class = dscp << 2;

	skb = rxe_init_packet(rxe, &av, paylen, &pkt);
	if (!skb)
		return;

	pkt.qp = qp;
	pkt.opcode = RXE_OPCODE_CNP;
	pkt.mask |= rxe_opcode[RXE_OPCODE_CNP].mask;
	pkt.paylen = paylen;
	pkt.psn = 0;
	bth_init(&pkt, RXE_OPCODE_CNP, 0, 0, 0, IB_DEFAULT_PKEY_FULL,
		 qp->attr.dest_qp_num, 0, 0);
	bth_set_becn(&pkt, 1);
	memset(pkt.hdr + RXE_BTH_BYTES, 0, RXE_CNP_BODY_BYTES);

	if (rxe_prepare(&av, &pkt, skb)) {
		kfree_skb(skb);
		return;
	}
	if (rxe_xmit_packet(qp, &pkt, skb))
		return;

	spin_lock_bh(&qp->cc.lock);
	qp->cc.stats.cnp_tx++;
	spin_unlock_bh(&qp->cc.lock);
	rxe_counter_inc(rxe, RXE_CNT_CC_CNP_SENT);
	trace_rxe_cc_cnp(dev_name(&rxe->ib_dev.dev), qp_num(qp), true, true);
}

/**
 * rxe_cc_rcv_cnp - a CNP arrived (rxe_rcv, before the QP checks)
 * @pkt: its packet info; length, opcode and destination GID are checked
 * @skb: the packet; consumed, with the device reference of rxe_rcv
 *
 * A CNP for an RC QP running congestion control goes to the algorithm; any
 * other CNP (unknown QP, bad ICRC, no BECN, QP without CC) is counted as
 * ignored. The QP is never disturbed.
 */
void rxe_cc_rcv_cnp(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	struct rxe_dev *rxe = pkt->rxe;
	const struct rxe_cc_ops *ops;
	bool handled = false;
	struct rxe_qp *qp;
	u32 ev = 0;

	qp = rxe_pool_get_index(&rxe->qp_pool, bth_qpn(pkt));
	if (!qp)
		goto out;
	if (qp_type(qp) == IB_QPT_RC && qp_state(qp) >= IB_QPS_RTS &&
	    bth_becn(pkt) && !rxe_icrc_check(skb, pkt)) {
		u64 now = ktime_get_ns();
		struct rxe_cc_qp *cc = &qp->cc;

		spin_lock_bh(&cc->lock);
		ops = cc->ctx.ops;
		if (ops && ops->on_cnp) {
			ops->on_cnp(&cc->ctx, now);
			cc->stats.cnp_rx++;
			ev = rxe_cc_take_events(qp);
			handled = true;
		}
		spin_unlock_bh(&cc->lock);
	}
	trace_rxe_cc_cnp(dev_name(&rxe->ib_dev.dev), qp_num(qp), false,
			 handled);
	rxe_put(qp);
out:
	rxe_counter_inc(rxe, handled ? RXE_CNT_CC_CNP_RCVD :
				       RXE_CNT_CC_CNP_IGNORED);
	rxe_cc_count_events(rxe, ev);
	kfree_skb(skb);
	ib_device_put(&rxe->ib_dev);
}

/* ---- restrack: rdma resource show qp -dd --------------------------------- */

int rxe_cc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_cc_qp_info *info;
	struct nlattr *table;
	unsigned int i;
	int err = -EMSGSIZE;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	rxe_cc_qp_snapshot(qp, info);

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		goto out;
	if (rdma_nl_put_driver_string(msg, "cc_algo",
				      rxe_cc_algo_name(info->ops)))
		goto cancel;
	if (info->ops) {
		if (rdma_nl_put_driver_u64(msg, "cc_rate_bps", info->rate_bps) ||
		    rdma_nl_put_driver_u64(msg, "cc_window_bytes",
					   info->window_bytes))
			goto cancel;
		for (i = 0; i < info->ops->n_state; i++)
			if (rdma_nl_put_driver_u64(msg,
						   info->ops->state[i].name,
						   info->state[i]))
				goto cancel;
		if (rdma_nl_put_driver_u64(msg, "cc_cnp_rx", info->stats.cnp_rx) ||
		    rdma_nl_put_driver_u64(msg, "cc_cnp_tx", info->stats.cnp_tx) ||
		    rdma_nl_put_driver_u64(msg, "cc_ce_rx", info->stats.ce_rx))
			goto cancel;
	}
	nla_nest_end(msg, table);
	err = 0;
	goto out;
cancel:
	nla_nest_cancel(msg, table);
out:
	kfree(info);
	return err;
}

/* ---- module -------------------------------------------------------------- */

int rxe_cc_init(void)
{
	const struct rxe_cc_ops *ops;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(rxe_cc_algos); i++) {
		ops = rxe_cc_algos[i];
		if (WARN_ON(ops->n_params > RXE_CC_MAX_PARAMS ||
			    ops->n_state > RXE_CC_MAX_STATE))
			return -EINVAL;
	}

	if (rxe_cc_algo_find(rxe_cc_default, &ops)) {
		pr_err("cc_default=%s: unknown algorithm (none, fixed, dcqcn)\n",
		       rxe_cc_default);
		return -EINVAL;
	}

	strscpy(rxe_cc_available, "none", sizeof(rxe_cc_available));
	for (i = 0; i < ARRAY_SIZE(rxe_cc_algos); i++) {
		strlcat(rxe_cc_available, " ", sizeof(rxe_cc_available));
		strlcat(rxe_cc_available, rxe_cc_algos[i]->name,
			sizeof(rxe_cc_available));
	}

	rxe_cc_sysctl_hdr = register_sysctl("net/rdma_rxe", rxe_cc_sysctl);
	if (!rxe_cc_sysctl_hdr)
		return -ENOMEM;

	err = rxe_cc_nl_init();
	if (err) {
		unregister_sysctl_table(rxe_cc_sysctl_hdr);
		return err;
	}
	return 0;
}

void rxe_cc_exit(void)
{
	rxe_cc_nl_exit();
	unregister_sysctl_table(rxe_cc_sysctl_hdr);
}
