// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: generic netlink control of congestion control
 * (include/uapi/rdma/rxe_cc.h describes the commands).
 */

#include <kunit/visibility.h>
#include <linux/list.h>
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/rxe_cc.h>

#include "rxe.h"
#include "rxe_cc_int.h"
#include "rxe_cc_trace.h"

/* highest line rate and base RTT a device may be configured with */
#define RXE_CC_LINE_RATE_MAX	(800ULL * 1000 * 1000 * 1000)
#define RXE_CC_LINE_RATE_MIN	(1000ULL * 1000)
#define RXE_CC_BASE_RTT_MAX	(10ULL * NSEC_PER_SEC)
#define RXE_CC_ACK_EVERY_MAX	1024

static struct genl_family rxe_cc_family;

VISIBLE_IF_KUNIT const struct nla_policy rxe_cc_policy[RXE_CC_A_MAX + 1] = {
	[RXE_CC_A_DEV_NAME] = { .type = NLA_NUL_STRING,
				.len = IB_DEVICE_NAME_MAX - 1 },
	[RXE_CC_A_ALGO] = { .type = NLA_NUL_STRING,
			    .len = RXE_CC_NAME_MAX - 1 },
	[RXE_CC_A_PARAMS] = { .type = NLA_NESTED },
	[RXE_CC_A_LINE_RATE] = { .type = NLA_U64 },
	[RXE_CC_A_BASE_RTT_NS] = { .type = NLA_U64 },
	[RXE_CC_A_ECN] = NLA_POLICY_MAX(NLA_U8, 1),
	[RXE_CC_A_ACK_EVERY] = NLA_POLICY_MAX(NLA_U32, RXE_CC_ACK_EVERY_MAX),
	[RXE_CC_A_CNP_DSCP] = NLA_POLICY_MAX(NLA_U8, 63),
	[RXE_CC_A_ACK_DSCP] = { .type = NLA_U8 },
	[RXE_CC_A_QPN] = { .type = NLA_U32 },
	[RXE_CC_A_DSCP_PRIO] = NLA_POLICY_EXACT_LEN(RXE_CC_DSCPS),
	[RXE_CC_A_SFC] = NLA_POLICY_MAX(NLA_U8, 1),
	[RXE_CC_A_SFC_MAX_US] = { .type = NLA_U32 },
	[RXE_CC_A_SFC_MODE] = NLA_POLICY_MAX(NLA_U8, RXE_CC_SFC_MODE_MAX),
};
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_policy);

/* The rxe device named in the request, with a reference, or an ERR_PTR. */
static struct rxe_dev *rxe_cc_get_dev(struct genl_info *info)
{
	struct ib_device *ibdev;
	const char *name;

	if (GENL_REQ_ATTR_CHECK(info, RXE_CC_A_DEV_NAME))
		return ERR_PTR(-EINVAL);
	name = nla_data(info->attrs[RXE_CC_A_DEV_NAME]);
	ibdev = ib_device_get_by_name(name, RDMA_DRIVER_RXE);
	if (!ibdev || !rdma_dev_access_netns(ibdev, genl_info_net(info))) {
		if (ibdev)
			ib_device_put(ibdev);
		NL_SET_ERR_MSG_ATTR_FMT(info->extack,
					info->attrs[RXE_CC_A_DEV_NAME],
					"no rxe device %s", name);
		return ERR_PTR(-ENODEV);
	}
	return container_of(ibdev, struct rxe_dev, ib_dev);
}

/*
 * The algorithm named by RXE_CC_A_ALGO, referenced (rxe_cc_algo_put());
 * -ENOENT with a message if it is not registered.
 */
static int rxe_cc_get_algo(struct nlattr **attrs,
			   struct netlink_ext_ack *extack,
			   const struct rxe_cc_ops **ops)
{
	struct nlattr *attr = attrs[RXE_CC_A_ALGO];

	if (!rxe_cc_algo_get(nla_data(attr), ops))
		return 0;
	NL_SET_ERR_MSG_ATTR_FMT(extack, attr,
				"unknown algorithm %s (see cc_available)",
				(char *)nla_data(attr));
	return -ENOENT;
}

/* ---- message building ---------------------------------------------------- */

static int rxe_cc_put_params(struct sk_buff *msg, const struct rxe_cc_ops *ops,
			     const u32 *params, u32 user, bool describe)
{
	struct nlattr *nest, *p;
	unsigned int i;

	nest = nla_nest_start(msg, RXE_CC_A_PARAMS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; ops && i < ops->n_params; i++) {
		const struct rxe_cc_param_desc *d = &ops->params[i];

		p = nla_nest_start(msg, RXE_CC_A_PARAM);
		if (!p || nla_put_string(msg, RXE_CC_A_P_NAME, d->name))
			goto err;
		if (params && nla_put_u32(msg, RXE_CC_A_P_VALUE, params[i]))
			goto err;
		if ((user & BIT(i)) && nla_put_flag(msg, RXE_CC_A_P_USER))
			goto err;
		if (describe &&
		    (nla_put_u32(msg, RXE_CC_A_P_UNIT, d->unit) ||
		     nla_put_u32(msg, RXE_CC_A_P_DEFAULT, d->def) ||
		     nla_put_u32(msg, RXE_CC_A_P_RANGE_MIN, d->min) ||
		     nla_put_u32(msg, RXE_CC_A_P_RANGE_MAX, d->max) ||
		     nla_put_string(msg, RXE_CC_A_P_HELP, d->help)))
			goto err;
		nla_nest_end(msg, p);
	}
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

static int rxe_cc_put_state(struct sk_buff *msg, int type,
			    const struct rxe_cc_ops *ops, const u64 *vals)
{
	struct nlattr *nest, *s;
	unsigned int i;

	nest = nla_nest_start(msg, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; ops && i < ops->n_state; i++) {
		s = nla_nest_start(msg, RXE_CC_A_STATE);
		if (!s || nla_put_string(msg, RXE_CC_A_S_NAME, ops->state[i].name) ||
		    nla_put_u32(msg, RXE_CC_A_S_UNIT, ops->state[i].unit) ||
		    (vals && nla_put_u64_64bit(msg, RXE_CC_A_S_VALUE, vals[i],
					       RXE_CC_A_S_PAD)))
			goto err;
		nla_nest_end(msg, s);
	}
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

static int rxe_cc_put_stat(struct sk_buff *msg, const char *name, u64 val)
{
	struct nlattr *s = nla_nest_start(msg, RXE_CC_A_STAT);

	if (!s || nla_put_string(msg, RXE_CC_A_ST_NAME, name) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_ST_VALUE, val, RXE_CC_A_ST_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, s);
	return 0;
}

static void *rxe_cc_hdr(struct sk_buff *msg, struct genl_info *info,
			struct netlink_callback *cb, u8 cmd)
{
	if (cb)
		return genlmsg_put(msg, NETLINK_CB(cb->skb).portid,
				   cb->nlh->nlmsg_seq, &rxe_cc_family,
				   NLM_F_MULTI, cmd);
	return genlmsg_put_reply(msg, info, &rxe_cc_family, 0, cmd);
}

/* A reply message for a do request, or NULL. */
static struct sk_buff *rxe_cc_new_reply(void)
{
	return genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
}

/* Send @msg as the reply to @info if it was filled (@err 0), else free it. */
static int rxe_cc_reply(struct sk_buff *msg, struct genl_info *info, int err)
{
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* ---- ALGO_GET ------------------------------------------------------------ */

static int rxe_cc_fill_algo(struct sk_buff *msg, struct genl_info *info,
			    struct netlink_callback *cb,
			    const struct rxe_cc_ops *ops)
{
	void *hdr = rxe_cc_hdr(msg, info, cb, RXE_CC_CMD_ALGO_GET);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, RXE_CC_A_ALGO, rxe_cc_algo_name(ops)) ||
	    rxe_cc_put_params(msg, ops, NULL, 0, true) ||
	    rxe_cc_put_state(msg, RXE_CC_A_STATE_NAMES, ops, NULL)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int rxe_cc_algo_dumpit(struct sk_buff *msg, struct netlink_callback *cb)
{
	const struct rxe_cc_ops *ops = NULL;
	unsigned int i = cb->args[0];
	int err;

	/* index 0 is "none", then the registered algorithms */
	for (;; i++) {
		if (i && rxe_cc_algo_get_nth(i - 1, &ops))
			break;
		err = rxe_cc_fill_algo(msg, NULL, cb, ops);
		rxe_cc_algo_put(ops);
		if (err)
			break;
	}
	cb->args[0] = i;
	return msg->len;
}

/* ---- DEV_GET / DEV_SET --------------------------------------------------- */

static int rxe_cc_fill_dev(struct sk_buff *msg, struct genl_info *info,
			   struct netlink_callback *cb, struct rxe_dev *rxe,
			   const struct rxe_cc_ops *pick, bool has_pick)
{
	const struct rxe_cc_ops *ops;
	struct rxe_cc_dev_conf *conf;
	u32 params[RXE_CC_MAX_PARAMS];
	bool have_params = false;
	int err = -EMSGSIZE;
	u32 user = 0;
	void *hdr;

	conf = kmalloc(sizeof(*conf), GFP_KERNEL);
	if (!conf)
		return -ENOMEM;
	rxe_cc_dev_get_conf(rxe, conf);
	ops = has_pick ? pick : conf->algo;
	if (ops && !rxe_cc_dev_get_params(rxe, ops, params, &user))
		have_params = true;

	hdr = rxe_cc_hdr(msg, info, cb, RXE_CC_CMD_DEV_GET);
	if (!hdr)
		goto out;
	if (nla_put_string(msg, RXE_CC_A_DEV_NAME, dev_name(&rxe->ib_dev.dev)) ||
	    nla_put_u32(msg, RXE_CC_A_DEV_INDEX, rxe->ib_dev.index) ||
	    nla_put_string(msg, RXE_CC_A_ALGO, rxe_cc_algo_name(conf->algo)) ||
	    (have_params &&
	     rxe_cc_put_params(msg, ops, params, user, false)) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_LINE_RATE, conf->eff_rate_bps,
			      RXE_CC_A_PAD) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_BASE_RTT_NS, conf->base_rtt_ns,
			      RXE_CC_A_PAD) ||
	    nla_put_u8(msg, RXE_CC_A_ECN, conf->ecn) ||
	    nla_put_u32(msg, RXE_CC_A_ACK_EVERY, conf->ack_every) ||
	    nla_put_u8(msg, RXE_CC_A_CNP_DSCP, conf->cnp_dscp) ||
	    nla_put_u8(msg, RXE_CC_A_ACK_DSCP, conf->ack_dscp) ||
	    nla_put(msg, RXE_CC_A_DSCP_PRIO, RXE_CC_DSCPS, conf->dscp_prio) ||
	    nla_put_u8(msg, RXE_CC_A_SFC, conf->sfc) ||
	    nla_put_u32(msg, RXE_CC_A_SFC_MAX_US, conf->sfc_max_us) ||
	    nla_put_u8(msg, RXE_CC_A_SFC_MODE, conf->sfc_mode)) {
		genlmsg_cancel(msg, hdr);
		goto out;
	}
	genlmsg_end(msg, hdr);
	err = 0;
out:
	rxe_cc_algo_put(conf->algo);
	kfree(conf);
	return err;
}

static int rxe_cc_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct rxe_cc_ops *pick = NULL;
	bool has_pick = false;
	struct rxe_dev *rxe;
	struct sk_buff *msg;
	int err;

	if (info->attrs[RXE_CC_A_ALGO]) {
		err = rxe_cc_get_algo(info->attrs, info->extack, &pick);
		if (err)
			return err;
		has_pick = true;
	}
	rxe = rxe_cc_get_dev(info);
	if (IS_ERR(rxe)) {
		rxe_cc_algo_put(pick);
		return PTR_ERR(rxe);
	}

	msg = rxe_cc_new_reply();
	err = msg ? rxe_cc_reply(msg, info,
				 rxe_cc_fill_dev(msg, info, NULL, rxe, pick,
						 has_pick)) : -ENOMEM;
	ib_device_put(&rxe->ib_dev);
	rxe_cc_algo_put(pick);
	return err;
}

/*
 * Dump one message per visible device, built by @fill; cb->args[0] is the
 * index of the next device to dump.
 */
static int rxe_cc_dump_devs(struct sk_buff *msg, struct netlink_callback *cb,
			    int (*fill)(struct sk_buff *msg,
					struct netlink_callback *cb,
					struct rxe_dev *rxe))
{
	struct rxe_dev *rxe;
	int err;

	while ((rxe = rxe_cc_dev_next(sock_net(cb->skb->sk), cb->args[0]))) {
		err = fill(msg, cb, rxe);
		if (!err)
			cb->args[0] = rxe->ib_dev.index + 1;
		ib_device_put(&rxe->ib_dev);
		if (err)
			break;
	}
	return msg->len;
}

static int rxe_cc_dump_dev(struct sk_buff *msg, struct netlink_callback *cb,
			   struct rxe_dev *rxe)
{
	return rxe_cc_fill_dev(msg, NULL, cb, rxe, NULL, false);
}

static int rxe_cc_dev_get_dumpit(struct sk_buff *msg,
				 struct netlink_callback *cb)
{
	return rxe_cc_dump_devs(msg, cb, rxe_cc_dump_dev);
}

/**
 * rxe_cc_dev_req_parse - check a DEV_SET request's attributes
 * @a: the attributes, checked against rxe_cc_policy
 * @req: filled in; req->algo holds a reference (rxe_cc_algo_put()) even
 *	 on error
 * @extack: where to say what is wrong
 *
 * Return: 0, or a negative errno for a value out of range or an unknown
 * algorithm.
 */
VISIBLE_IF_KUNIT int rxe_cc_dev_req_parse(struct nlattr **a,
					  struct rxe_cc_dev_req *req,
					  struct netlink_ext_ack *extack)
{
	int err;

	memset(req, 0, sizeof(*req));
	if (a[RXE_CC_A_ALGO]) {
		err = rxe_cc_get_algo(a, extack, &req->algo);
		if (err)
			return err;
		req->has_algo = true;
	}
	req->params = a[RXE_CC_A_PARAMS];
	if (a[RXE_CC_A_LINE_RATE]) {
		req->line_rate_bps = nla_get_u64(a[RXE_CC_A_LINE_RATE]);
		if (req->line_rate_bps &&
		    (req->line_rate_bps < RXE_CC_LINE_RATE_MIN ||
		     req->line_rate_bps > RXE_CC_LINE_RATE_MAX)) {
			NL_SET_ERR_MSG_ATTR(extack, a[RXE_CC_A_LINE_RATE],
					    "line rate must be 0 (netdev speed) or 1 Mbit/s to 800 Gbit/s");
			return -ERANGE;
		}
		req->has_line_rate = true;
	}
	if (a[RXE_CC_A_BASE_RTT_NS]) {
		req->base_rtt_ns = nla_get_u64(a[RXE_CC_A_BASE_RTT_NS]);
		if (req->base_rtt_ns > RXE_CC_BASE_RTT_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a[RXE_CC_A_BASE_RTT_NS],
					    "base RTT must be at most 10 s");
			return -ERANGE;
		}
		req->has_base_rtt = true;
	}
	if (a[RXE_CC_A_ECN]) {
		req->ecn = nla_get_u8(a[RXE_CC_A_ECN]);
		req->has_ecn = true;
	}
	if (a[RXE_CC_A_ACK_EVERY]) {
		req->ack_every = nla_get_u32(a[RXE_CC_A_ACK_EVERY]);
		req->has_ack_every = true;
	}
	if (a[RXE_CC_A_CNP_DSCP]) {
		req->cnp_dscp = nla_get_u8(a[RXE_CC_A_CNP_DSCP]);
		req->has_cnp_dscp = true;
	}
	if (a[RXE_CC_A_ACK_DSCP]) {
		req->ack_dscp = nla_get_u8(a[RXE_CC_A_ACK_DSCP]);
		if (req->ack_dscp > 63 && req->ack_dscp != RXE_CC_DSCP_OWN) {
			NL_SET_ERR_MSG_ATTR(extack, a[RXE_CC_A_ACK_DSCP],
					    "ACK DSCP must be 0..63, or 255 for the QP's own");
			return -ERANGE;
		}
		req->has_ack_dscp = true;
	}
	if (a[RXE_CC_A_DSCP_PRIO]) {
		const u8 *prio = nla_data(a[RXE_CC_A_DSCP_PRIO]);
		unsigned int d;

		for (d = 0; d < RXE_CC_DSCPS; d++) {
			if (prio[d] > 7) {
				NL_SET_ERR_MSG_ATTR_FMT(extack,
							a[RXE_CC_A_DSCP_PRIO],
							"DSCP %u maps to priority %u, above 7",
							d, prio[d]);
				return -ERANGE;
			}
		}
		req->dscp_prio = prio;
	}
	if (a[RXE_CC_A_SFC]) {
		req->sfc = nla_get_u8(a[RXE_CC_A_SFC]);
		req->has_sfc = true;
	}
	if (a[RXE_CC_A_SFC_MAX_US]) {
		req->sfc_max_us = nla_get_u32(a[RXE_CC_A_SFC_MAX_US]);
		if (!req->sfc_max_us ||
		    req->sfc_max_us > RXE_CC_SFC_MAX_US_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a[RXE_CC_A_SFC_MAX_US],
					    "SFC pause ceiling must be 1 us to 1 s");
			return -ERANGE;
		}
		req->has_sfc_max_us = true;
	}
	if (a[RXE_CC_A_SFC_MODE]) {
		req->sfc_mode = nla_get_u8(a[RXE_CC_A_SFC_MODE]);
		req->has_sfc_mode = true;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_dev_req_parse);

static int rxe_cc_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rxe_cc_dev_req req;
	struct rxe_dev *rxe;
	int err;

	err = rxe_cc_dev_req_parse(info->attrs, &req, info->extack);
	if (err)
		goto out;
	rxe = rxe_cc_get_dev(info);
	if (IS_ERR(rxe)) {
		err = PTR_ERR(rxe);
		goto out;
	}
	err = rxe_cc_dev_set(rxe, &req, info->extack);
	ib_device_put(&rxe->ib_dev);
out:
	rxe_cc_algo_put(req.algo);
	return err;
}

/* ---- QP_GET / QP_SET ----------------------------------------------------- */

/*
 * A QP's counters, its bytes in flight and acknowledged, and its BTS
 * pauses (SFC) at @now.
 */
static int rxe_cc_put_qp_stats(struct sk_buff *msg,
			       const struct rxe_cc_qp_stats *st,
			       u64 inflight_bytes, u64 acked_bytes,
			       const struct rxe_cc_sfc *sfc, u64 now)
{
	struct nlattr *nest = nla_nest_start(msg, RXE_CC_A_QP_STATS);
	u64 left = rxe_cc_sfc_paused(sfc, now) ? sfc->end_ns - now : 0;

	if (!nest ||
	    rxe_cc_put_stat(msg, "cnp_rx", st->cnp_rx) ||
	    rxe_cc_put_stat(msg, "cnp_tx", st->cnp_tx) ||
	    rxe_cc_put_stat(msg, "ce_rx", st->ce_rx) ||
	    rxe_cc_put_stat(msg, "pacer_waits", st->pacer_waits) ||
	    rxe_cc_put_stat(msg, "pacer_unused_us",
			    div_u64(st->pacer_unused_ns, NSEC_PER_USEC)) ||
	    rxe_cc_put_stat(msg, "rate_dec", st->rate_dec) ||
	    rxe_cc_put_stat(msg, "rate_inc", st->rate_inc) ||
	    rxe_cc_put_stat(msg, "retx_pkts", st->retx_pkts) ||
	    rxe_cc_put_stat(msg, "inflight_bytes", inflight_bytes) ||
	    rxe_cc_put_stat(msg, "acked_bytes", acked_bytes) ||
	    rxe_cc_put_stat(msg, "bts_rx", sfc->bts_rx) ||
	    rxe_cc_put_stat(msg, "bts_cache", sfc->bts_cache) ||
	    rxe_cc_put_stat(msg, "bts_clamped", sfc->bts_clamped) ||
	    rxe_cc_put_stat(msg, "bts_capped", sfc->bts_capped) ||
	    rxe_cc_put_stat(msg, "pause_starts", sfc->pause_starts) ||
	    rxe_cc_put_stat(msg, "pause_last_us", sfc->last_pause_us) ||
	    rxe_cc_put_stat(msg, "pause_left_us",
			    div_u64(left, NSEC_PER_USEC)) ||
	    rxe_cc_put_stat(msg, "paused_us",
			    div_u64(rxe_cc_sfc_paused_total(sfc, now),
				    NSEC_PER_USEC)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int rxe_cc_fill_qp(struct sk_buff *msg, struct genl_info *info,
			  struct netlink_callback *cb, struct rxe_dev *rxe,
			  struct rxe_qp *qp)
{
	struct rxe_cc_qp_info *qi;
	void *hdr;
	int err = -EMSGSIZE;

	qi = kmalloc(sizeof(*qi), GFP_KERNEL);
	if (!qi)
		return -ENOMEM;
	rxe_cc_qp_snapshot(qp, qi);

	hdr = rxe_cc_hdr(msg, info, cb, RXE_CC_CMD_QP_GET);
	if (!hdr)
		goto out;
	if (nla_put_string(msg, RXE_CC_A_DEV_NAME, dev_name(&rxe->ib_dev.dev)) ||
	    nla_put_u32(msg, RXE_CC_A_QPN, qp_num(qp)) ||
	    nla_put_string(msg, RXE_CC_A_ALGO, rxe_cc_algo_name(qi->ops)) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_RATE, qi->rate_bps, RXE_CC_A_PAD) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_WINDOW, qi->window_bytes,
			      RXE_CC_A_PAD) ||
	    (qi->ops && rxe_cc_put_params(msg, qi->ops, qi->params, 0, false)) ||
	    (qi->ops && rxe_cc_put_state(msg, RXE_CC_A_STATE_NAMES, qi->ops,
					 qi->state)) ||
	    rxe_cc_put_qp_stats(msg, &qi->stats, qi->inflight_bytes,
				qi->acked_bytes, &qi->sfc, qi->now) ||
	    nla_put_u8(msg, RXE_CC_A_SFC, qi->sfc_on))
		goto cancel;
	genlmsg_end(msg, hdr);
	err = 0;
	goto out;
cancel:
	genlmsg_cancel(msg, hdr);
out:
	rxe_cc_algo_put(qi->ops);
	kfree(qi);
	return err;
}

/* The QP named in the request, with a reference, or an ERR_PTR. */
static struct rxe_qp *rxe_cc_get_qp(struct rxe_dev *rxe, struct genl_info *info)
{
	struct rxe_qp *qp;
	u32 qpn;

	if (GENL_REQ_ATTR_CHECK(info, RXE_CC_A_QPN))
		return ERR_PTR(-EINVAL);
	qpn = nla_get_u32(info->attrs[RXE_CC_A_QPN]);
	qp = rxe_pool_get_index(&rxe->qp_pool, qpn);
	if (!qp) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, info->attrs[RXE_CC_A_QPN],
					"no QP %u on %s", qpn,
					dev_name(&rxe->ib_dev.dev));
		return ERR_PTR(-ENOENT);
	}
	return qp;
}

static int rxe_cc_qp_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rxe_dev *rxe;
	struct sk_buff *msg;
	struct rxe_qp *qp;
	int err;

	rxe = rxe_cc_get_dev(info);
	if (IS_ERR(rxe))
		return PTR_ERR(rxe);
	qp = rxe_cc_get_qp(rxe, info);
	if (IS_ERR(qp)) {
		err = PTR_ERR(qp);
		goto put_dev;
	}
	msg = rxe_cc_new_reply();
	err = msg ? rxe_cc_reply(msg, info,
				 rxe_cc_fill_qp(msg, info, NULL, rxe, qp)) :
		    -ENOMEM;
	rxe_put(qp);
put_dev:
	ib_device_put(&rxe->ib_dev);
	return err;
}

/*
 * QP dump of one device (RXE_CC_A_DEV_NAME) or of all: args[0] is the index
 * of the device being dumped, args[1] the next QP pool index in it.
 */
static int rxe_cc_qp_get_dumpit(struct sk_buff *msg,
				struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct nlattr *name_attr = info->attrs[RXE_CC_A_DEV_NAME];
	struct rxe_dev *rxe;
	unsigned long idx;
	struct rxe_qp *qp;
	int err = 0;

	while ((rxe = rxe_cc_dev_next(sock_net(cb->skb->sk), cb->args[0]))) {
		if (rxe->ib_dev.index != cb->args[0]) {
			cb->args[0] = rxe->ib_dev.index;
			cb->args[1] = 0;
		}
		if (!name_attr ||
		    !strcmp(nla_data(name_attr), dev_name(&rxe->ib_dev.dev))) {
			for (idx = cb->args[1];
			     xa_find(&rxe->qp_pool.xa, &idx, ULONG_MAX,
				     XA_PRESENT); idx++) {
				qp = rxe_pool_get_index(&rxe->qp_pool, idx);
				if (!qp)
					continue;
				err = rxe_cc_fill_qp(msg, NULL, cb, rxe, qp);
				rxe_put(qp);
				if (err)
					break;
				cb->args[1] = idx + 1;
			}
		}
		ib_device_put(&rxe->ib_dev);
		if (err)
			break;
		cb->args[0]++;
		cb->args[1] = 0;
	}
	return msg->len;
}

static int rxe_cc_qp_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct rxe_cc_ops *ops;
	struct rxe_dev *rxe;
	struct rxe_qp *qp;
	int err;

	if (!info->attrs[RXE_CC_A_SFC] &&
	    GENL_REQ_ATTR_CHECK(info, RXE_CC_A_ALGO))
		return -EINVAL;
	if (!info->attrs[RXE_CC_A_ALGO] && info->attrs[RXE_CC_A_PARAMS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RXE_CC_A_PARAMS],
				    "parameters need the algorithm they are for");
		return -EINVAL;
	}
	ops = NULL;
	if (info->attrs[RXE_CC_A_ALGO]) {
		err = rxe_cc_get_algo(info->attrs, info->extack, &ops);
		if (err)
			return err;
	}
	rxe = rxe_cc_get_dev(info);
	if (IS_ERR(rxe)) {
		err = PTR_ERR(rxe);
		goto put_algo;
	}
	qp = rxe_cc_get_qp(rxe, info);
	if (IS_ERR(qp)) {
		err = PTR_ERR(qp);
		goto put_dev;
	}
	err = 0;
	/* all or nothing: SFC is for RC QPs */
	if (info->attrs[RXE_CC_A_SFC] && qp_type(qp) != IB_QPT_RC) {
		NL_SET_ERR_MSG(info->extack, "SFC pauses RC QPs only");
		err = -EOPNOTSUPP;
	}
	if (!err && info->attrs[RXE_CC_A_ALGO])
		err = rxe_cc_qp_set(qp, ops, info->attrs[RXE_CC_A_PARAMS],
				    info->extack);
	if (!err && info->attrs[RXE_CC_A_SFC])
		err = rxe_cc_qp_set_sfc(qp,
					nla_get_u8(info->attrs[RXE_CC_A_SFC]),
					info->extack);
	rxe_put(qp);
put_dev:
	ib_device_put(&rxe->ib_dev);
put_algo:
	rxe_cc_algo_put(ops);
	return err;
}

/* ---- STATS_GET ----------------------------------------------------------- */

static int rxe_cc_fill_stats(struct sk_buff *msg, struct genl_info *info,
			     struct netlink_callback *cb, struct rxe_dev *rxe)
{
	struct nlattr *nest;
	unsigned int i;
	void *hdr;

	hdr = rxe_cc_hdr(msg, info, cb, RXE_CC_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, RXE_CC_A_DEV_NAME, dev_name(&rxe->ib_dev.dev)))
		goto err;
	nest = nla_nest_start(msg, RXE_CC_A_STATS);
	if (!nest)
		goto err;
	for (i = 0; i < rxe_cc_stat_count(); i++)
		if (rxe_cc_put_stat(msg, rxe_cc_stat_name(i),
				    rxe_cc_stat_value(rxe, i)))
			goto err;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return 0;
err:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

static int rxe_cc_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rxe_dev *rxe;
	struct sk_buff *msg;
	int err;

	rxe = rxe_cc_get_dev(info);
	if (IS_ERR(rxe))
		return PTR_ERR(rxe);
	msg = rxe_cc_new_reply();
	err = msg ? rxe_cc_reply(msg, info,
				 rxe_cc_fill_stats(msg, info, NULL, rxe)) :
		    -ENOMEM;
	ib_device_put(&rxe->ib_dev);
	return err;
}

static int rxe_cc_dump_stats(struct sk_buff *msg, struct netlink_callback *cb,
			     struct rxe_dev *rxe)
{
	return rxe_cc_fill_stats(msg, NULL, cb, rxe);
}

static int rxe_cc_stats_get_dumpit(struct sk_buff *msg,
				   struct netlink_callback *cb)
{
	return rxe_cc_dump_devs(msg, cb, rxe_cc_dump_stats);
}

/* ---- RATE_EVENT ---------------------------------------------------------- */

/*
 * A probe on the rxe_cc_rate tracepoint: multicast a QP's rate or window
 * change, with its state and counters, to the events group of the
 * namespace of the device's netdev. Called under the QP's cc.lock, in any
 * context; built only when somebody listens there.
 */
/* RXE_CC_A_EVENT carries the RXE_CC_EV_* bits userspace knows as they are */
static_assert(RXE_CC_EV_RATE_DEC == RXE_CC_EVENT_RATE_DEC);
static_assert(RXE_CC_EV_RATE_INC == RXE_CC_EVENT_RATE_INC);
static_assert(RXE_CC_EV_LIMIT == RXE_CC_EVENT_LIMIT);
static_assert(RXE_CC_EV_RELEASE == RXE_CC_EVENT_RELEASE);
static_assert(RXE_CC_EV_HALT == RXE_CC_EVENT_HALT);

static void rxe_cc_nl_rate_event(void *data, struct rxe_qp *qp, u64 rate_bps,
				 u64 window_bytes, u32 events)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	const struct rxe_cc_ops *ops = qp->cc.ctx.ops;
	u64 state[RXE_CC_MAX_STATE];
	struct net *net = rxe->ns_net;
	struct sk_buff *msg;
	u64 now;
	void *hdr;

	if (!net || !genl_has_listeners(&rxe_cc_family, net, 0))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		return;
	now = ktime_get_ns();
	ops->get_state(&qp->cc.ctx, now, state);
	hdr = genlmsg_put(msg, 0, 0, &rxe_cc_family, 0, RXE_CC_CMD_RATE_EVENT);
	if (!hdr ||
	    nla_put_string(msg, RXE_CC_A_DEV_NAME, dev_name(&rxe->ib_dev.dev)) ||
	    nla_put_u32(msg, RXE_CC_A_QPN, qp_num(qp)) ||
	    nla_put_string(msg, RXE_CC_A_ALGO, ops->name) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_RATE, rate_bps, RXE_CC_A_PAD) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_WINDOW, window_bytes,
			      RXE_CC_A_PAD) ||
	    nla_put_u64_64bit(msg, RXE_CC_A_TIME_NS, now, RXE_CC_A_PAD) ||
	    nla_put_u32(msg, RXE_CC_A_EVENT, events) ||
	    rxe_cc_put_state(msg, RXE_CC_A_STATE_NAMES, ops, state) ||
	    rxe_cc_put_qp_stats(msg, &qp->cc.stats,
				READ_ONCE(qp->cc.inflight.bytes),
				READ_ONCE(qp->cc.inflight.acked_bytes),
				&qp->cc.sfc, now)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&rxe_cc_family, net, msg, 0, 0, GFP_ATOMIC);
}

/* ---- family -------------------------------------------------------------- */

static const struct genl_ops rxe_cc_ops[] = {
	{
		.cmd = RXE_CC_CMD_ALGO_GET,
		.dumpit = rxe_cc_algo_dumpit,
	},
	{
		.cmd = RXE_CC_CMD_DEV_GET,
		.doit = rxe_cc_dev_get_doit,
		.dumpit = rxe_cc_dev_get_dumpit,
	},
	{
		.cmd = RXE_CC_CMD_DEV_SET,
		.doit = rxe_cc_dev_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = RXE_CC_CMD_QP_GET,
		.doit = rxe_cc_qp_get_doit,
		.dumpit = rxe_cc_qp_get_dumpit,
	},
	{
		.cmd = RXE_CC_CMD_QP_SET,
		.doit = rxe_cc_qp_set_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = RXE_CC_CMD_STATS_GET,
		.doit = rxe_cc_stats_get_doit,
		.dumpit = rxe_cc_stats_get_dumpit,
	},
};

static const struct genl_multicast_group rxe_cc_mcgrps[] = {
	{ .name = RXE_CC_MCGRP_EVENTS, },
};

static struct genl_family rxe_cc_family __ro_after_init = {
	.name = RXE_CC_GENL_NAME,
	.version = RXE_CC_GENL_VERSION,
	.maxattr = RXE_CC_A_MAX,
	.policy = rxe_cc_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = rxe_cc_ops,
	.n_ops = ARRAY_SIZE(rxe_cc_ops),
	.mcgrps = rxe_cc_mcgrps,
	.n_mcgrps = ARRAY_SIZE(rxe_cc_mcgrps),
};

int rxe_cc_nl_init(void)
{
	int err;

	err = genl_register_family(&rxe_cc_family);
	if (err)
		return err;
	err = register_trace_rxe_cc_rate(rxe_cc_nl_rate_event, NULL);
	if (err)
		genl_unregister_family(&rxe_cc_family);
	return err;
}

void rxe_cc_nl_exit(void)
{
	unregister_trace_rxe_cc_rate(rxe_cc_nl_rate_event, NULL);
	tracepoint_synchronize_unregister();
	genl_unregister_family(&rxe_cc_family);
}
