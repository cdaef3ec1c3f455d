// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc "aimd": a small congestion control algorithm in a module of its
 * own, built out of tree against rdma_rxe, the way a third party would add
 * one. It halves its rate on a CNP (at most once per period) and adds a
 * step every period up to the line rate; as a notification point it sends
 * a CNP for a CE-marked packet, at most one per period. It also sums what
 * on_ack reports, so that a test can compare it with the bytes the
 * receiver got. The selftest cc_module uses it.
 */

#include <linux/module.h>

#include "rxe_cc.h"

enum aimd_param { P_STEP, P_PERIOD, P_MIN, P_NUM };

static const struct rxe_cc_param_desc aimd_params[P_NUM] = {
	[P_STEP] = { "step_kbps", "rate added every period",
		     RXE_CC_UNIT_KBPS, 1000, 1, RXE_CC_RATE_KBPS_MAX },
	[P_PERIOD] = { "period_us", "increase period and least time between cuts",
		       RXE_CC_UNIT_US, 1000, 10, 10000000 },
	[P_MIN] = { "min_rate_kbps", "rate floor",
		    RXE_CC_UNIT_KBPS, 1000, 1, RXE_CC_RATE_KBPS_MAX },
};

enum aimd_state { S_RATE, S_CUTS, S_CNPS, S_ACKS, S_ACKED, S_RTT, S_NUM };

static const struct rxe_cc_state_desc aimd_state_desc[S_NUM] = {
	[S_RATE] = { "rate_kbps", RXE_CC_UNIT_KBPS },
	[S_CUTS] = { "cuts", RXE_CC_UNIT_NONE },
	[S_CNPS] = { "cnps", RXE_CC_UNIT_NONE },
	[S_ACKS] = { "acks", RXE_CC_UNIT_NONE },
	[S_ACKED] = { "acked_bytes", RXE_CC_UNIT_BYTES },
	[S_RTT] = { "rtt_ns", RXE_CC_UNIT_NS },
};

struct aimd_cfg {
	u64 period;	/* ns */
	u32 step;	/* kbit/s */
	u32 min;
	u32 max;	/* the line rate */
};

struct aimd_qp {
	u64 t_next;	/* next increase */
	u64 t_cut;	/* last cut */
	u64 np_last;	/* last CNP sent */
	u64 acked;
	u64 rtt;
	u32 rate;	/* kbit/s */
	u32 cuts;
	u32 cnps;
	u32 acks;
	bool np_sent;
	bool cut_once;
};

static void aimd_defaults(u32 *p, const struct rxe_cc_link *link)
{
	u64 line = div64_u64(link->rate_bps, 1000);

	p[P_STEP] = clamp_t(u64, div64_u64(line, 100), 1, RXE_CC_RATE_KBPS_MAX);
	p[P_MIN] = clamp_t(u64, div64_u64(line, 100), 1, RXE_CC_RATE_KBPS_MAX);
	if (link->base_rtt_ns)
		p[P_PERIOD] = clamp_t(u64, div64_u64(link->base_rtt_ns, 1000),
				      10, 10000000);
}

static int aimd_setup(void *cfgp, const u32 *p, const struct rxe_cc_link *link,
		      const char **msg)
{
	struct aimd_cfg *c = cfgp;
	u64 line = div64_u64(link->rate_bps, 1000);

	if (!line || line > RXE_CC_RATE_KBPS_MAX) {
		*msg = "line rate must be 1 kbit/s to 2^31 kbit/s";
		return -EINVAL;
	}
	if (p[P_MIN] > line) {
		*msg = "min_rate_kbps exceeds the line rate";
		return -EINVAL;
	}
	c->period = (u64)p[P_PERIOD] * 1000;
	c->step = p[P_STEP];
	c->min = p[P_MIN];
	c->max = line;
	return 0;
}

static void aimd_output(struct rxe_cc_ctx *cc)
{
	const struct aimd_cfg *c = cc->cfg;
	const struct aimd_qp *s = cc->priv;

	cc->out.rate_bps = (u64)s->rate * 1000;
	cc->out.flags &= ~RXE_CC_OUT_TIMER;
	if (s->rate < c->max) {
		cc->out.timer_ns = s->t_next;
		cc->out.flags |= RXE_CC_OUT_TIMER;
	}
}

static void aimd_init(struct rxe_cc_ctx *cc, u64 now)
{
	const struct aimd_cfg *c = cc->cfg;
	struct aimd_qp *s = cc->priv;

	s->rate = c->max;
	s->t_next = now + c->period;
	aimd_output(cc);
}

static void aimd_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	const struct aimd_cfg *c = cc->cfg;
	struct aimd_qp *s = cc->priv;

	s->rate = clamp(s->rate, c->min, c->max);
	while (s->rate < c->max && rxe_cc_after_eq(now, s->t_next)) {
		s->rate = min_t(u64, (u64)s->rate + c->step, c->max);
		s->t_next += c->period;
		cc->out.events |= RXE_CC_EV_RATE_INC;
	}
	if (s->rate >= c->max && rxe_cc_before(s->t_next, now))
		s->t_next = now + c->period;
	aimd_output(cc);
}

static void aimd_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			     const union rxe_cc_fb *fb, u64 now)
{
	const struct aimd_cfg *c = cc->cfg;
	struct aimd_qp *s = cc->priv;

	if (kind != RXE_CC_FB_CNP)
		return;
	s->cnps++;
	aimd_on_timer(cc, now);
	if (s->cut_once && rxe_cc_before(now, s->t_cut + c->period))
		return;
	s->rate = max(s->rate / 2, c->min);
	s->cuts++;
	s->t_cut = now;
	s->cut_once = true;
	s->t_next = now + c->period;
	cc->out.events |= RXE_CC_EV_RATE_DEC;
	aimd_output(cc);
}

static void aimd_on_ack(struct rxe_cc_ctx *cc, const struct rxe_cc_ack *ack,
			u64 now)
{
	struct aimd_qp *s = cc->priv;

	s->acks++;
	s->acked += ack->acked_bytes;
	if (ack->rtt_ns)
		s->rtt = ack->rtt_ns;
}

static bool aimd_rx_data(struct rxe_cc_ctx *cc, const struct rxe_cc_rx *rx,
			 u64 now, struct rxe_cc_np_msg *msg)
{
	const struct aimd_cfg *c = cc->cfg;
	struct aimd_qp *s = cc->priv;

	if (rx->ecn != RXE_CC_ECN_CE ||
	    (s->np_sent && rxe_cc_before(now, s->np_last + c->period)))
		return false;
	s->np_sent = true;
	s->np_last = now;
	msg->type = RXE_CC_MSG_CNP;
	msg->dscp = 0xff;
	msg->pcp = 0xff;
	return true;
}

static void aimd_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *v)
{
	const struct aimd_qp *s = cc->priv;

	v[S_RATE] = s->rate;
	v[S_CUTS] = s->cuts;
	v[S_CNPS] = s->cnps;
	v[S_ACKS] = s->acks;
	v[S_ACKED] = s->acked;
	v[S_RTT] = s->rtt;
}

static struct rxe_cc_ops rxe_cc_aimd_ops = {
	.name = "aimd",
	.owner = THIS_MODULE,
	.wire = RXE_CC_WIRE_ECT | RXE_CC_WIRE_CNP_RX | RXE_CC_WIRE_CNP_TX,
	.flags = RXE_CC_F_RX_CE_ONLY,
	.priv_size = sizeof(struct aimd_qp),
	.cfg_size = sizeof(struct aimd_cfg),
	.params = aimd_params,
	.n_params = P_NUM,
	.state = aimd_state_desc,
	.n_state = S_NUM,
	.defaults = aimd_defaults,
	.setup = aimd_setup,
	.init = aimd_init,
	.on_ack = aimd_on_ack,
	.on_feedback = aimd_on_feedback,
	.on_timer = aimd_on_timer,
	.rx_data = aimd_rx_data,
	.get_state = aimd_get_state,
};

static int __init rxe_cc_aimd_init(void)
{
	return rxe_cc_register(&rxe_cc_aimd_ops);
}

static void __exit rxe_cc_aimd_exit(void)
{
	rxe_cc_unregister(&rxe_cc_aimd_ops);
}

module_init(rxe_cc_aimd_init);
module_exit(rxe_cc_aimd_exit);

MODULE_DESCRIPTION("rxe-cc example algorithm: AIMD on CNPs, in a module of its own");
MODULE_LICENSE("Dual BSD/GPL");
