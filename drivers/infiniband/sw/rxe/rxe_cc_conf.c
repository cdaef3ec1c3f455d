// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: parameters and device settings.
 *
 * A device has a default algorithm for new QPs, a line rate and base RTT
 * that the algorithms scale their defaults to, ECN/DSCP/AckReq settings
 * and, per algorithm used or configured on it, a parameter set. A
 * parameter the user set keeps its value; the others follow the link, so
 * a change of line rate or base RTT rescales exactly the parameters nobody
 * chose. Every change is checked in full before anything is changed.
 */

#include <kunit/visibility.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <rdma/rxe_cc.h>

#include "rxe.h"
#include "rxe_cc_int.h"

/* line rate when the netdev does not tell one */
#define RXE_CC_DEFAULT_RATE_BPS	(10ULL * 1000 * 1000 * 1000)
#define RXE_CC_DEFAULT_CNP_DSCP	48

/* ---- parameters ------------------------------------------------------------ */

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
 * @user: if not NULL, the bits of the parameters named are set
 * @nest: RXE_CC_A_PARAMS with RXE_CC_A_PARAM entries, or NULL
 * @extack: where to say what is wrong
 *
 * Return: 0, or a negative errno with @params and @user partly updated
 * (callers work on copies).
 */
int rxe_cc_params_parse(const struct rxe_cc_ops *ops, u32 *params, u32 *user,
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
		if (user)
			*user |= BIT(i);
	}
	/* bytes too few for an attribute after the last one */
	if (rem > 0) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, nest,
					"%d bytes after the last parameter",
					rem);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_params_parse);

/**
 * rxe_cc_compile - compile a parameter set
 * @ops: the algorithm
 * @params: the set (within the table's ranges)
 * @link: the link it is for
 * @extack: where the reason for a rejection, or a warning, goes
 *
 * Return: the algorithm's compiled configuration (kfree() it), or an
 * ERR_PTR.
 */
void *rxe_cc_compile(const struct rxe_cc_ops *ops, const u32 *params,
		     const struct rxe_cc_link *link,
		     struct netlink_ext_ack *extack)
{
	const char *msg = NULL;
	void *cfg;
	int err;

	cfg = kzalloc(max_t(u32, ops->cfg_size, 1), GFP_KERNEL);
	if (!cfg)
		return ERR_PTR(-ENOMEM);
	err = ops->setup(cfg, params, link, &msg);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "%s: %s", ops->name,
				   msg ?: "inconsistent parameters");
		kfree(cfg);
		return ERR_PTR(err);
	}
	/* a message on success is a warning */
	if (msg)
		NL_SET_ERR_MSG_FMT(extack, "%s: %s", ops->name, msg);
	return cfg;
}

/* ---- the device list, for netlink dumps ------------------------------------ */

static LIST_HEAD(rxe_cc_devs);
static DEFINE_MUTEX(rxe_cc_devs_lock);

/**
 * rxe_cc_dev_next - the next device a dump in @net sees
 * @net: the namespace of the requester
 * @min: the smallest ib_device index to return
 *
 * Return: the visible device with the lowest index >= @min, with a
 * reference (ib_device_put()), or NULL.
 */
struct rxe_dev *rxe_cc_dev_next(struct net *net, long min)
{
	struct rxe_dev *rxe, *found = NULL;

	mutex_lock(&rxe_cc_devs_lock);
	list_for_each_entry(rxe, &rxe_cc_devs, cc.node) {
		if ((long)rxe->ib_dev.index < min ||
		    (found && found->ib_dev.index < rxe->ib_dev.index))
			continue;
		if (!ib_device_try_get(&rxe->ib_dev))
			continue;
		if (!rdma_dev_access_netns(&rxe->ib_dev, net)) {
			ib_device_put(&rxe->ib_dev);
			continue;
		}
		if (found)
			ib_device_put(&found->ib_dev);
		found = rxe;
	}
	mutex_unlock(&rxe_cc_devs_lock);
	return found;
}

/* ---- devices --------------------------------------------------------------- */

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
	INIT_LIST_HEAD(&cd->params);
	cd->algo = rxe_cc_default_get();
	cd->netdev_rate_bps = rxe_cc_netdev_rate(ndev);
	cd->ecn = true;
	cd->cnp_dscp = RXE_CC_DEFAULT_CNP_DSCP;
	cd->ack_dscp = RXE_CC_DSCP_OWN;
	cd->sfc_max_us = RXE_CC_SFC_MAX_US_DEFAULT;
	cd->sfc_mode = RXE_CC_SFC_REPLACE;
	rxe_pfc_dev_init(rxe, ndev);
	rxe_pfc_set_rate(rxe, cd->netdev_rate_bps);

	mutex_lock(&rxe_cc_devs_lock);
	list_add_tail(&cd->node, &rxe_cc_devs);
	mutex_unlock(&rxe_cc_devs_lock);
}

/* rxe_dealloc(): every QP is gone (process context). */
void rxe_cc_dev_cleanup(struct rxe_dev *rxe)
{
	struct rxe_cc_dev *cd = &rxe->cc;
	struct rxe_cc_dev_params *set, *tmp;

	mutex_lock(&rxe_cc_devs_lock);
	list_del(&cd->node);
	mutex_unlock(&rxe_cc_devs_lock);

	rxe_pfc_dev_cleanup(rxe);
	list_for_each_entry_safe(set, tmp, &cd->params, node) {
		list_del(&set->node);
		kfree(set);
	}
	rxe_cc_algo_put(cd->algo);
	cd->algo = NULL;
	mutex_destroy(&cd->lock);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_dev_cleanup);

/* The link the algorithms of @rxe are told about; cd->lock held. */
static void rxe_cc_dev_link(struct rxe_dev *rxe, struct rxe_cc_link *link)
{
	struct rxe_cc_dev *cd = &rxe->cc;

	link->rate_bps = cd->line_rate_bps ?: cd->netdev_rate_bps;
	link->base_rtt_ns = cd->base_rtt_ns;
	link->mtu = rxe->port.mtu_cap;
}

/* The device's set of @ops, or NULL; cd->lock held. */
static struct rxe_cc_dev_params *rxe_cc_dev_find(struct rxe_dev *rxe,
						 const struct rxe_cc_ops *ops)
{
	struct rxe_cc_dev_params *set;

	list_for_each_entry(set, &rxe->cc.params, node)
		if (!strcmp(set->name, ops->name))
			return set;
	return NULL;
}

/* A set of @ops with the defaults for @link and no user value. */
static struct rxe_cc_dev_params *
rxe_cc_dev_params_new(const struct rxe_cc_ops *ops,
		      const struct rxe_cc_link *link)
{
	struct rxe_cc_dev_params *set;

	set = kzalloc(struct_size(set, vals, ops->n_params), GFP_KERNEL);
	if (!set)
		return NULL;
	strscpy(set->name, ops->name, sizeof(set->name));
	set->n = ops->n_params;
	rxe_cc_defaults(ops, set->vals, link);
	return set;
}

/*
 * The values of @set at @link in @vals (not @set's own): its user values,
 * the defaults for @link for the others.
 */
static void rxe_cc_dev_params_at(const struct rxe_cc_ops *ops,
				 const struct rxe_cc_dev_params *set,
				 const struct rxe_cc_link *link, u32 *vals)
{
	unsigned int i;

	rxe_cc_defaults(ops, vals, link);
	for (i = 0; i < ops->n_params; i++)
		if (set->user & BIT(i))
			vals[i] = set->vals[i];
}

/*
 * The device's current set of @ops at the device's link, made if it has
 * none yet (or one of an earlier version of the algorithm with another
 * number of parameters); cd->lock held.
 */
static struct rxe_cc_dev_params *rxe_cc_dev_params(struct rxe_dev *rxe,
						   const struct rxe_cc_ops *ops)
{
	struct rxe_cc_dev_params *set = rxe_cc_dev_find(rxe, ops);
	u32 vals[RXE_CC_MAX_PARAMS];
	struct rxe_cc_link link;

	rxe_cc_dev_link(rxe, &link);
	if (set && set->n == ops->n_params) {
		/* the link may have changed while @ops was not registered */
		rxe_cc_dev_params_at(ops, set, &link, vals);
		memcpy(set->vals, vals, set->n * sizeof(*set->vals));
		return set;
	}
	if (set) {
		list_del(&set->node);
		kfree(set);
	}
	set = rxe_cc_dev_params_new(ops, &link);
	if (set)
		list_add_tail(&set->node, &rxe->cc.params);
	return set;
}

void rxe_cc_dev_get_conf(struct rxe_dev *rxe, struct rxe_cc_dev_conf *conf)
{
	struct rxe_cc_dev *cd = &rxe->cc;
	struct rxe_cc_link link;

	mutex_lock(&cd->lock);
	rxe_cc_dev_link(rxe, &link);
	conf->algo = cd->algo;
	rxe_cc_algo_hold(conf->algo);
	conf->line_rate_bps = cd->line_rate_bps;
	conf->eff_rate_bps = link.rate_bps;
	conf->base_rtt_ns = cd->base_rtt_ns;
	conf->ecn = cd->ecn;
	conf->ack_every = cd->ack_every;
	conf->cnp_dscp = cd->cnp_dscp;
	conf->ack_dscp = cd->ack_dscp;
	rxe_pfc_get_map(rxe, conf->dscp_prio);
	conf->sfc = cd->sfc;
	conf->sfc_max_us = cd->sfc_max_us;
	conf->sfc_mode = cd->sfc_mode;
	mutex_unlock(&cd->lock);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_dev_get_conf);

/**
 * rxe_cc_dev_get_params - a device's parameter set of an algorithm
 * @rxe: the device
 * @ops: the algorithm (referenced by the caller)
 * @params: its values (ops->n_params)
 * @user: if not NULL, which of them the user set
 *
 * Return: 0 or -ENOMEM.
 */
int rxe_cc_dev_get_params(struct rxe_dev *rxe, const struct rxe_cc_ops *ops,
			  u32 *params, u32 *user)
{
	struct rxe_cc_dev_params *set;

	mutex_lock(&rxe->cc.lock);
	set = rxe_cc_dev_params(rxe, ops);
	if (set) {
		memcpy(params, set->vals, ops->n_params * sizeof(u32));
		if (user)
			*user = set->user;
	}
	mutex_unlock(&rxe->cc.lock);
	return set ? 0 : -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_dev_get_params);

/**
 * rxe_cc_dev_qp_conf - the settings a QP starts with
 * @rxe: its device
 * @ops: the algorithm (referenced by the caller), or NULL for the device's
 *	 default
 * @qc: filled in; qc->ops holds a new reference (rxe_cc_algo_put())
 *
 * Return: 0 or -ENOMEM.
 */
int rxe_cc_dev_qp_conf(struct rxe_dev *rxe, const struct rxe_cc_ops *ops,
		       struct rxe_cc_qp_conf *qc)
{
	struct rxe_cc_dev *cd = &rxe->cc;
	struct rxe_cc_dev_params *set;
	int err = 0;

	mutex_lock(&cd->lock);
	qc->ops = ops ?: cd->algo;
	if (qc->ops) {
		set = rxe_cc_dev_params(rxe, qc->ops);
		if (!set) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(qc->params, set->vals, qc->ops->n_params * sizeof(u32));
		rxe_cc_algo_hold(qc->ops);
	}
	rxe_cc_dev_link(rxe, &qc->link);
	qc->ecn = cd->ecn;
	qc->ack_every = cd->ack_every;
	qc->cnp_dscp = cd->cnp_dscp;
	qc->ack_dscp = cd->ack_dscp;
	qc->sfc = cd->sfc;
	qc->sfc_max_us = cd->sfc_max_us;
	qc->sfc_mode = cd->sfc_mode;
out:
	mutex_unlock(&cd->lock);
	return err;
}

/*
 * Check that the device's set of @ops (or @over, if not NULL) compiles at
 * @link, and return the values it would have in @vals; cd->lock held.
 */
static int rxe_cc_dev_check(struct rxe_dev *rxe, const struct rxe_cc_ops *ops,
			    const struct rxe_cc_dev_params *over,
			    const struct rxe_cc_link *link, u32 *vals,
			    struct netlink_ext_ack *extack)
{
	const struct rxe_cc_dev_params *set = over ?: rxe_cc_dev_find(rxe, ops);
	void *cfg;

	if (set && set->n == ops->n_params)
		rxe_cc_dev_params_at(ops, set, link, vals);
	else
		rxe_cc_defaults(ops, vals, link);
	cfg = rxe_cc_compile(ops, vals, link, extack);
	if (IS_ERR(cfg))
		return PTR_ERR(cfg);
	kfree(cfg);
	return 0;
}

/**
 * rxe_cc_dev_set - change device settings, all or nothing
 * @rxe: the device
 * @req: the fields to change
 * @extack: where to say what is wrong (or warn)
 *
 * New settings apply to QPs that start afterwards. With a new line rate or
 * base RTT, every parameter set follows the new link but for the values
 * the user set; every set of a registered algorithm must compile at the
 * new link. Parameters in the same request are set at the new link.
 *
 * Return: 0 or a negative errno; on error nothing was changed.
 */
int rxe_cc_dev_set(struct rxe_dev *rxe, const struct rxe_cc_dev_req *req,
		   struct netlink_ext_ack *extack)
{
	struct rxe_cc_dev_params *np = NULL, *set;
	struct rxe_cc_dev *cd = &rxe->cc;
	const struct rxe_cc_ops *algo, *ops;
	bool relink = req->has_line_rate || req->has_base_rtt;
	struct rxe_cc_link link;
	u32 *vals = NULL;
	int err = 0;

	vals = kcalloc(RXE_CC_MAX_PARAMS, sizeof(u32), GFP_KERNEL);
	if (!vals)
		return -ENOMEM;

	mutex_lock(&cd->lock);
	algo = req->has_algo ? req->algo : cd->algo;

	/* the link as it will be */
	rxe_cc_dev_link(rxe, &link);
	if (req->has_line_rate)
		link.rate_bps = req->line_rate_bps ?: cd->netdev_rate_bps;
	if (req->has_base_rtt)
		link.base_rtt_ns = req->base_rtt_ns;

	if (req->params) {
		if (!algo) {
			NL_SET_ERR_MSG(extack, "algorithm none has no parameters");
			err = -EINVAL;
			goto out;
		}
		/* the new set: the user values so far, the rest at @link */
		np = rxe_cc_dev_params_new(algo, &link);
		if (!np) {
			err = -ENOMEM;
			goto out;
		}
		set = rxe_cc_dev_find(rxe, algo);
		if (set && set->n == algo->n_params) {
			rxe_cc_dev_params_at(algo, set, &link, np->vals);
			np->user = set->user;
		}
		err = rxe_cc_params_parse(algo, np->vals, &np->user,
					  req->params, extack);
		if (err)
			goto out;
		err = rxe_cc_dev_check(rxe, algo, np, &link, vals, extack);
		if (err)
			goto out;
	}

	/* with a new link: the default's set, made or not, ... */
	if (relink && algo && !np && !rxe_cc_dev_find(rxe, algo)) {
		err = rxe_cc_dev_check(rxe, algo, NULL, &link, vals, extack);
		if (err)
			goto out;
	}
	/* ... and every other set of a registered algorithm */
	if (relink) {
		list_for_each_entry(set, &cd->params, node) {
			if (np && !strcmp(set->name, np->name))
				continue;
			if (rxe_cc_algo_get(set->name, &ops))
				continue;
			err = rxe_cc_dev_check(rxe, ops, NULL, &link, vals,
					       extack);
			rxe_cc_algo_put(ops);
			if (err)
				goto out;
		}
	}

	/* commit: nothing below fails */
	if (relink) {
		list_for_each_entry(set, &cd->params, node) {
			if (rxe_cc_algo_get(set->name, &ops))
				continue;
			if (set->n == ops->n_params) {
				rxe_cc_dev_params_at(ops, set, &link, vals);
				memcpy(set->vals, vals,
				       set->n * sizeof(*set->vals));
			}
			rxe_cc_algo_put(ops);
		}
	}
	if (np) {
		set = rxe_cc_dev_find(rxe, algo);
		if (set) {
			list_del(&set->node);
			kfree(set);
		}
		list_add_tail(&np->node, &cd->params);
		np = NULL;
	}
	if (req->has_algo) {
		rxe_cc_algo_hold(req->algo);
		rxe_cc_algo_put(cd->algo);
		cd->algo = req->algo;
	}
	if (req->has_line_rate) {
		cd->line_rate_bps = req->line_rate_bps;
		rxe_pfc_set_rate(rxe, link.rate_bps);
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
	if (req->dscp_prio)
		rxe_pfc_set_map(rxe, req->dscp_prio);
	if (req->has_sfc)
		cd->sfc = req->sfc;
	if (req->has_sfc_max_us)
		cd->sfc_max_us = req->sfc_max_us;
	if (req->has_sfc_mode)
		cd->sfc_mode = req->sfc_mode;
out:
	mutex_unlock(&cd->lock);
	kfree(np);
	kfree(vals);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_dev_set);
