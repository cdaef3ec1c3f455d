// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc DCQCN: reaction point (RP, the data sender's per-QP rate limiter)
 * and notification point (NP, CNP generation at the data receiver).
 *
 * Parameters carry NVIDIA's names and meanings; rates are in kbit/s (suffix
 * _kbps) because the steps scaled to emulated links are below 1 Mbit/s.
 * Two RP models are provided: the vendor model (default; cuts at the
 * boundary of the rate-reduce monitor period, alpha updated on a free
 * running timer) and the SIGCOMM'15 paper model (cut on every CNP).
 *
 * Fixed point: rates u32 kbit/s, alpha Q16, times u64 ns. The three RP
 * timers (alpha update, monitor period, rate increase) are not kernel
 * timers: every hook first runs all expiries up to "now" in time order
 * (at equal times: alpha, increase, monitor check), which gives the same
 * result as firing each timer on time. rxe_cc_out.timer_ns tells the
 * framework when the rate will next change on its own.
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "rxe_cc.h"

#define ONE		RXE_CC_Q16_ONE
#define STAGE_MAX	0xffff

enum dcqcn_param {
	P_CLAMP_TGT_RATE,
	P_CLAMP_TGT_RATE_ATI,
	P_TIME_RESET,
	P_BYTE_RESET,
	P_THRESHOLD,
	P_AI_RATE,
	P_HAI_RATE,
	P_MAX_RATE,
	P_MIN_DEC_FAC,
	P_MIN_RATE,
	P_RATE_FIRST_CNP,
	P_DCE_TCP_G,
	P_DCE_TCP_RTT,
	P_INITIAL_ALPHA,
	P_RATE_REDUCE_PERIOD,
	P_GD,
	P_MODE,
	P_HAI_LINEAR,
	P_HAI_HALVE,
	P_RELEASE_AT_MAX,
	P_NP_MIN_TIME,
	P_NP_DEFER,
	P_NP_CNP_DSCP,
	P_NP_CNP_PRIO,
	P_NUM
};

#define US_MAX		10000000	/* 10 s, for periods in us */

static const struct rxe_cc_param_desc dcqcn_params[P_NUM] = {
	[P_CLAMP_TGT_RATE] = { "rp_clamp_tgt_rate",
		"every cut sets the target rate to the current rate",
		RXE_CC_UNIT_BOOL, 0, 0, 1 },
	[P_CLAMP_TGT_RATE_ATI] = { "rp_clamp_tgt_rate_ati",
		"timer increases also let the next cut set the target rate",
		RXE_CC_UNIT_BOOL, 1, 0, 1 },
	[P_TIME_RESET] = { "rp_time_reset",
		"period of timer-triggered rate increase events",
		RXE_CC_UNIT_US, 30000, 1, US_MAX },
	[P_BYTE_RESET] = { "rp_byte_reset",
		"bytes sent between byte-counter increase events, 0 = off",
		RXE_CC_UNIT_BYTES, 0, 0, 1000000000 },
	[P_THRESHOLD] = { "rp_threshold",
		"increase events per phase (fast recovery, additive)",
		RXE_CC_UNIT_NONE, 1, 1, 31 },
	[P_AI_RATE] = { "rp_ai_rate_kbps",
		"target rate step of additive increase",
		RXE_CC_UNIT_KBPS, 20, 1, RXE_CC_RATE_KBPS_MAX },
	[P_HAI_RATE] = { "rp_hai_rate_kbps",
		"target rate step of hyper increase",
		RXE_CC_UNIT_KBPS, 200, 1, RXE_CC_RATE_KBPS_MAX },
	[P_MAX_RATE] = { "rp_max_rate_kbps",
		"maximum rate, 0 = line rate",
		RXE_CC_UNIT_KBPS, 0, 0, RXE_CC_RATE_KBPS_MAX },
	[P_MIN_DEC_FAC] = { "rp_min_dec_fac",
		"one cut keeps at least this share of the current rate",
		RXE_CC_UNIT_PERCENT, 50, 0, 100 },
	[P_MIN_RATE] = { "rp_min_rate_kbps",
		"minimum rate",
		RXE_CC_UNIT_KBPS, 1000, 1, RXE_CC_RATE_KBPS_MAX },
	[P_RATE_FIRST_CNP] = { "rp_rate_to_set_on_first_cnp_kbps",
		"rate set when the first CNP allocates the limiter, 0 = line rate",
		RXE_CC_UNIT_KBPS, 0, 0, RXE_CC_RATE_KBPS_MAX },
	[P_DCE_TCP_G] = { "rp_dce_tcp_g",
		"alpha gain g, as (1 - g) * 1024",
		RXE_CC_UNIT_Q10, 1020, 0, 1023 },
	[P_DCE_TCP_RTT] = { "rp_dce_tcp_rtt",
		"alpha update period (paper model: alpha decay period K)",
		RXE_CC_UNIT_US, 100, 1, US_MAX },
	[P_INITIAL_ALPHA] = { "rp_initial_alpha_value",
		"alpha set by the first CNP",
		RXE_CC_UNIT_Q10, 1024, 1, 1024 },
	[P_RATE_REDUCE_PERIOD] = { "rp_rate_reduce_monitor_period",
		"minimum time between two cuts",
		RXE_CC_UNIT_US, 400, 1, US_MAX },
	[P_GD] = { "rp_gd",
		"a cut removes rate * alpha / 2^(rp_gd - 10)",
		RXE_CC_UNIT_LOG2, 11, 10, 16 },
	[P_MODE] = { "rp_mode",
		"0 = vendor model, 1 = SIGCOMM'15 paper model",
		RXE_CC_UNIT_NONE, 0, 0, 1 },
	[P_HAI_LINEAR] = { "rp_hai_linear",
		"the i-th hyper increase adds i * rp_hai_rate_kbps",
		RXE_CC_UNIT_BOOL, 0, 0, 1 },
	[P_HAI_HALVE] = { "rp_hai_halve",
		"halve the increase timer and byte threshold in hyper increase",
		RXE_CC_UNIT_BOOL, 0, 0, 1 },
	[P_RELEASE_AT_MAX] = { "rp_release_at_max",
		"release the limiter when the rates reach the maximum rate",
		RXE_CC_UNIT_BOOL, 0, 0, 1 },
	[P_NP_MIN_TIME] = { "np_min_time_between_cnps",
		"minimum gap between two CNPs of a QP",
		RXE_CC_UNIT_US, 100, 0, US_MAX },
	[P_NP_DEFER] = { "np_defer",
		"a mark inside the gap sends one CNP at the gap's end",
		RXE_CC_UNIT_BOOL, 0, 0, 1 },
	[P_NP_CNP_DSCP] = { "np_cnp_dscp",
		"DSCP of the CNPs sent",
		RXE_CC_UNIT_DSCP, 48, 0, 63 },
	[P_NP_CNP_PRIO] = { "np_cnp_prio",
		"802.1p priority of the CNPs sent",
		RXE_CC_UNIT_PCP, 6, 0, 7 },
};

enum dcqcn_state_value {
	S_LIMITED,
	S_RC,
	S_RT,
	S_ALPHA,
	S_T_STAGE,
	S_B_STAGE,
	S_BYTES,
	S_CUTS,
	S_CNPS,
	S_NP_CE,
	S_NP_CNPS,
	S_NUM
};

static const struct rxe_cc_state_desc dcqcn_state_desc[S_NUM] = {
	[S_LIMITED] = { "limited", RXE_CC_UNIT_BOOL },
	[S_RC] = { "rate_kbps", RXE_CC_UNIT_KBPS },
	[S_RT] = { "target_rate_kbps", RXE_CC_UNIT_KBPS },
	[S_ALPHA] = { "alpha", RXE_CC_UNIT_Q16 },
	[S_T_STAGE] = { "time_stage", RXE_CC_UNIT_NONE },
	[S_B_STAGE] = { "byte_stage", RXE_CC_UNIT_NONE },
	[S_BYTES] = { "byte_counter", RXE_CC_UNIT_BYTES },
	[S_CUTS] = { "rate_cuts", RXE_CC_UNIT_NONE },
	[S_CNPS] = { "cnp_handled", RXE_CC_UNIT_NONE },
	[S_NP_CE] = { "np_ecn_marked", RXE_CC_UNIT_NONE },
	[S_NP_CNPS] = { "np_cnp_sent", RXE_CC_UNIT_NONE },
};

/* compiled parameters */
struct dcqcn_cfg {
	u64 t_alpha;		/* ns */
	u64 t_dec;		/* ns */
	u64 t_inc;		/* ns */
	u64 np_gap;		/* ns */
	u64 byte_reset;		/* bytes, 0 = off */
	u32 r_max;		/* kbit/s */
	u32 r_min;
	u32 r_ai;
	u32 r_hai;
	u32 first_rate;		/* 0 = r_max */
	u32 g;			/* Q16 */
	u32 alpha0;		/* Q16 */
	u32 mdf;		/* Q16 */
	u32 n_zero;		/* decays that take ONE to 0 */
	u32 threshold;		/* F */
	u32 gd_shift;		/* rp_gd + 6: alpha is Q16, rp_gd is Q10 */
	bool clamp;
	bool ati;
	bool paper;
	bool hai_linear;
	bool hai_halve;
	bool release;
	bool np_defer;
	u8 cnp_dscp;
	u8 cnp_prio;
};

/* per-QP state */
struct dcqcn_qp {
	u64 t_last;		/* time of the last advance, never decreases */
	u64 t_alpha_next;
	u64 t_dec_next;
	u64 t_inc_next;
	u64 bytes;		/* byte counter */
	u64 np_last_cnp;
	u32 rc;			/* current rate, kbit/s */
	u32 rt;			/* target rate, kbit/s */
	u32 alpha;		/* Q16 */
	u32 cuts;
	u32 cnps;
	u32 np_ce;
	u32 np_cnps;
	u16 t_stage;
	u16 b_stage;
	bool limited;
	bool inc_armed;
	bool alpha_cnp;		/* a CNP arrived in this alpha period */
	bool dec_cnp;		/* a CNP arrived in this monitor period */
	bool np_sent_once;
	bool np_pending;	/* a deferred CNP is due at np_last + gap */
};

enum dcqcn_phase {
	PH_FR,			/* fast recovery */
	PH_AI,			/* additive increase */
	PH_HAI,			/* hyper increase */
};

/* @v clamped to the range of parameter @i */
static u32 dcqcn_in_range(u64 v, int i)
{
	return (u32)clamp_t(u64, v, dcqcn_params[i].min, dcqcn_params[i].max);
}

static void dcqcn_defaults(u32 *p, const struct rxe_cc_link *link)
{
	u64 c = div64_u64(link->rate_bps, 1000);
	u64 tau = 1000;
	int i;

	if (link->base_rtt_ns)
		tau = div64_u64(link->base_rtt_ns, 1000);

	for (i = 0; i < P_NUM; i++)
		p[i] = dcqcn_params[i].def;

	/*
	 * Rate steps scale with the line rate and periods with the base RTT
	 * (1 ms if unknown), from the reference 25 Gbit/s, 10 us network of
	 * the NVIDIA defaults: 5 and 50 Mbit/s steps, 1, 4 and 300 us.
	 */
	p[P_AI_RATE] = dcqcn_in_range(div64_u64(c, 5000), P_AI_RATE);
	p[P_HAI_RATE] = dcqcn_in_range(div64_u64(c, 500), P_HAI_RATE);
	p[P_MIN_RATE] = dcqcn_in_range(div64_u64(c, 100), P_MIN_RATE);
	p[P_DCE_TCP_RTT] = dcqcn_in_range(div64_u64(tau, 10), P_DCE_TCP_RTT);
	p[P_RATE_REDUCE_PERIOD] = dcqcn_in_range(div64_u64(tau * 4, 10),
						 P_RATE_REDUCE_PERIOD);
	p[P_TIME_RESET] = dcqcn_in_range(tau * 30, P_TIME_RESET);
	p[P_NP_MIN_TIME] = dcqcn_in_range(div64_u64(tau, 10), P_NP_MIN_TIME);
}

static u32 dcqcn_decay(u32 alpha, u32 g)
{
	return (u32)(((u64)alpha * (ONE - g)) >> 16);
}

/*
 * Legal but doubtful settings (specs/dcqcn.md §3.6): reported as a warning
 * by the framework, never rejected. The first one found is returned.
 */
static const char *dcqcn_warning(const struct dcqcn_cfg *c,
				 const struct rxe_cc_link *link)
{
	/* one frame of the path MTU, with RoCEv2 and IP headers, at R_max */
	u64 frame_ns = div64_u64(((u64)link->mtu + 70) * 8 * 1000000ULL,
				 c->r_max);

	if (!c->paper && c->t_dec < c->t_alpha)
		return "rp_rate_reduce_monitor_period < rp_dce_tcp_rtt: alpha lags the cuts";
	if (c->paper && c->t_alpha <= c->np_gap)
		return "paper model: rp_dce_tcp_rtt should exceed np_min_time_between_cnps";
	if (!c->paper && c->np_gap > c->t_alpha)
		return "np_min_time_between_cnps > rp_dce_tcp_rtt: alpha periods with no CNP";
	if (c->t_alpha < frame_ns || c->t_inc < frame_ns ||
	    (!c->paper && c->t_dec < frame_ns))
		return "a period is shorter than one frame at the maximum rate";
	return NULL;
}

static int dcqcn_setup(void *cfgp, const u32 *p,
		       const struct rxe_cc_link *link, const char **why)
{
	struct dcqcn_cfg *c = cfgp;
	u64 line = div64_u64(link->rate_bps, 1000);
	u32 a;
	int i;

	/* the framework checks the ranges first, with a better message */
	for (i = 0; i < P_NUM; i++) {
		if (p[i] < dcqcn_params[i].min || p[i] > dcqcn_params[i].max) {
			*why = "parameter out of range";
			return -EINVAL;
		}
	}
	if (!line || line > RXE_CC_RATE_KBPS_MAX) {
		*why = "line rate must be 1 kbit/s to 2^31 kbit/s";
		return -EINVAL;
	}

	c->r_max = p[P_MAX_RATE] ? p[P_MAX_RATE] : (u32)line;
	c->r_min = p[P_MIN_RATE];
	c->r_ai = p[P_AI_RATE];
	c->r_hai = p[P_HAI_RATE];
	c->first_rate = p[P_RATE_FIRST_CNP];
	if (c->r_min > c->r_max) {
		*why = "rp_min_rate_kbps exceeds the maximum rate";
		return -EINVAL;
	}
	if (c->first_rate && c->first_rate < c->r_min) {
		*why = "rp_rate_to_set_on_first_cnp_kbps is below rp_min_rate_kbps";
		return -EINVAL;
	}

	c->t_alpha = (u64)p[P_DCE_TCP_RTT] * 1000;
	c->t_dec = (u64)p[P_RATE_REDUCE_PERIOD] * 1000;
	c->t_inc = (u64)p[P_TIME_RESET] * 1000;
	c->np_gap = (u64)p[P_NP_MIN_TIME] * 1000;
	c->byte_reset = p[P_BYTE_RESET];
	c->g = (1024 - p[P_DCE_TCP_G]) * 64;
	c->alpha0 = p[P_INITIAL_ALPHA] * 64;
	c->mdf = p[P_MIN_DEC_FAC] * ONE / 100;
	c->threshold = p[P_THRESHOLD];
	c->gd_shift = p[P_GD] + 6;
	c->clamp = p[P_CLAMP_TGT_RATE];
	c->ati = p[P_CLAMP_TGT_RATE_ATI];
	c->paper = p[P_MODE] == 1;
	c->hai_linear = p[P_HAI_LINEAR];
	c->hai_halve = p[P_HAI_HALVE];
	c->release = p[P_RELEASE_AT_MAX];
	c->np_defer = p[P_NP_DEFER];
	c->cnp_dscp = (u8)p[P_NP_CNP_DSCP];
	c->cnp_prio = (u8)p[P_NP_CNP_PRIO];

	/* alpha decay is monotone: after n_zero decays every alpha is 0 */
	c->n_zero = 0;
	for (a = ONE; a; a = dcqcn_decay(a, c->g))
		c->n_zero++;

	*why = dcqcn_warning(c, link);
	return 0;
}

static u16 stage_add(u16 stage, u64 n)
{
	return (u16)min_t(u64, (u64)stage + n, STAGE_MAX);
}

static void dcqcn_release(struct dcqcn_qp *s)
{
	s->limited = false;
	s->inc_armed = false;
	s->alpha_cnp = false;
	s->dec_cnp = false;
}

/* phase of the next increase event, from the counts before it */
static enum dcqcn_phase dcqcn_phase(const struct dcqcn_qp *s,
				    const struct dcqcn_cfg *c, u32 *lo)
{
	u32 it = s->t_stage;
	u32 ib = c->byte_reset ? s->b_stage : s->t_stage;

	*lo = min(it, ib);
	if (max(it, ib) < c->threshold)
		return PH_FR;
	if (*lo > c->threshold)
		return PH_HAI;
	return PH_AI;
}

static enum dcqcn_phase dcqcn_increase(struct rxe_cc_ctx *cc, bool timer)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	enum dcqcn_phase ph;
	u64 rt = s->rt;
	u32 lo;

	ph = dcqcn_phase(s, c, &lo);
	if (ph == PH_HAI)
		rt += (u64)c->r_hai * (c->hai_linear ? lo - c->threshold : 1);
	else if (ph == PH_AI)
		rt += c->r_ai;
	s->rt = (u32)min_t(u64, rt, c->r_max);
	s->rc = (u32)(((u64)s->rc + s->rt + 1) >> 1);

	if (timer)
		s->t_stage = stage_add(s->t_stage, 1);
	else
		s->b_stage = stage_add(s->b_stage, 1);
	cc->out.events |= RXE_CC_EV_RATE_INC;

	if (c->release && s->rc >= c->r_max && s->rt >= c->r_max) {
		dcqcn_release(s);
		cc->out.events |= RXE_CC_EV_RELEASE;
	}
	return ph;
}

static void dcqcn_cut(struct rxe_cc_ctx *cc)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	u32 rc = s->rc;
	u32 n = rc - (u32)(((u64)rc * s->alpha) >> c->gd_shift);
	u32 keep = (u32)(((u64)rc * c->mdf) >> 16);

	n = max(n, keep);
	s->rc = max(n, c->r_min);
	s->cuts++;
	cc->out.events |= RXE_CC_EV_RATE_DEC;
}

/* Rt <- Rc at a cut? (rp_clamp_tgt_rate, rp_clamp_tgt_rate_ati) */
static bool dcqcn_clamp_rt(const struct dcqcn_qp *s,
			   const struct dcqcn_cfg *c)
{
	return c->clamp || s->b_stage || (c->ati && s->t_stage);
}

static void dcqcn_alpha_tick(struct dcqcn_qp *s, const struct dcqcn_cfg *c)
{
	s->alpha = dcqcn_decay(s->alpha, c->g) + (s->alpha_cnp ? c->g : 0);
	s->alpha_cnp = false;
	s->t_alpha_next += c->t_alpha;
}

static void dcqcn_check(struct rxe_cc_ctx *cc)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	u64 t = s->t_dec_next;

	if (s->dec_cnp) {
		if (dcqcn_clamp_rt(s, c))
			s->rt = s->rc;
		dcqcn_cut(cc);
		s->t_stage = 0;
		s->b_stage = 0;
		s->bytes = 0;
		s->dec_cnp = false;
		s->t_inc_next = t + c->t_inc;
		s->inc_armed = true;
	}
	s->t_dec_next = t + c->t_dec;
}

static u64 dcqcn_inc_period(const struct dcqcn_cfg *c, enum dcqcn_phase ph)
{
	return c->hai_halve && ph == PH_HAI ? c->t_inc / 2 : c->t_inc;
}

static void dcqcn_inc_timer(struct rxe_cc_ctx *cc)
{
	struct dcqcn_qp *s = cc->priv;
	u64 t = s->t_inc_next;
	enum dcqcn_phase ph = dcqcn_increase(cc, true);

	if (s->limited)
		s->t_inc_next = t + dcqcn_inc_period(cc->cfg, ph);
}

enum dcqcn_event { EV_NONE, EV_ALPHA, EV_INC, EV_DEC };

/* the earliest timer expiry at or before @now; ties: alpha, inc, check */
static enum dcqcn_event dcqcn_next_event(const struct dcqcn_qp *s,
					 const struct dcqcn_cfg *c, u64 now)
{
	enum dcqcn_event ev = EV_ALPHA;
	u64 t = s->t_alpha_next;

	if (s->inc_armed && rxe_cc_before(s->t_inc_next, t)) {
		ev = EV_INC;
		t = s->t_inc_next;
	}
	if (!c->paper && rxe_cc_before(s->t_dec_next, t)) {
		ev = EV_DEC;
		t = s->t_dec_next;
	}
	return rxe_cc_after_eq(now, t) ? ev : EV_NONE;
}

/*
 * Quiet increase events that are alike, in one step: the phase is settled
 * (the time stage is past F, so only it moves), the step is the same for
 * each (not hyper increase with rp_hai_linear and the time stage as the
 * lower count), the gap Rt - Rc is at its fixed point under that step
 * (floor((d + step) / 2) == d: it converges within about 32 events), and Rt
 * stays below the maximum rate. Each such event adds the step to Rt and Rc
 * exactly, so k of them add k steps. Leaves the events that reach the
 * maximum (clamp, release) to be done one by one. Caller: an increase is
 * due at or before @now.
 *
 * Return: the number of events done.
 */
static u64 dcqcn_skip_increases(struct rxe_cc_ctx *cc, u64 now)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	enum dcqcn_phase ph;
	u64 step, period, k;
	u32 lo, d;

	if (s->t_stage <= c->threshold || s->rt >= c->r_max)
		return 0;
	ph = dcqcn_phase(s, c, &lo);
	if (ph == PH_HAI && c->hai_linear && lo == s->t_stage &&
	    s->t_stage < STAGE_MAX)
		return 0;	/* each step is larger than the previous one */
	if (ph == PH_HAI)
		step = (u64)c->r_hai * (c->hai_linear ? lo - c->threshold : 1);
	else
		step = c->r_ai;
	d = s->rt - s->rc;
	if (((d + step) >> 1) != d)
		return 0;
	period = dcqcn_inc_period(c, ph);
	k = div64_u64(now - s->t_inc_next, period) + 1;
	k = min(k, div64_u64(c->r_max - s->rt - 1, step));
	if (k < 2)
		return 0;
	s->rt += k * step;
	s->rc += k * step;
	s->t_stage = stage_add(s->t_stage, k);
	s->t_inc_next += k * period;
	cc->out.events |= RXE_CC_EV_RATE_INC;
	return k;
}

/*
 * Increase events of a quiet period (no CNP flag set) up to @now. The work
 * is bounded whatever the parameters: events that are alike are done in
 * one step (dcqcn_skip_increases()), those at the maximum rate are only
 * counted, and what is left one by one is the convergence of the rates
 * (about 32 events per phase change or clamp) or, with rp_hai_linear,
 * growing hyper steps (at most about sqrt(2 * R_max / rp_hai_rate_kbps):
 * 65536 events at 2^31 kbit/s and 1 kbit/s).
 */
static void dcqcn_quiet_increases(struct rxe_cc_ctx *cc, u64 now, u64 *t_end)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	enum dcqcn_phase ph;
	u64 period, n;
	u32 lo;

	while (s->inc_armed && rxe_cc_after_eq(now, s->t_inc_next)) {
		/*
		 * Once both rates sit at the maximum and the period can no
		 * longer change (it only depends on the phase, which is fixed
		 * once the time stage exceeds F), the remaining events only
		 * count: do them in one step.
		 */
		if (!c->release && s->rc >= c->r_max && s->rt >= c->r_max &&
		    (!c->hai_halve || s->t_stage > c->threshold)) {
			ph = dcqcn_phase(s, c, &lo);
			period = dcqcn_inc_period(c, ph);
			n = div64_u64(now - s->t_inc_next, period) + 1;
			s->t_stage = stage_add(s->t_stage, n);
			s->t_inc_next += n * period;
			return;
		}
		if (dcqcn_skip_increases(cc, now))
			continue;
		*t_end = s->t_inc_next;
		dcqcn_inc_timer(cc);
		if (!s->limited)
			return;	/* released: alpha ticks stop here */
		*t_end = now;
	}
}

/* apply @n alpha decays */
static u32 dcqcn_decay_n(u32 alpha, const struct dcqcn_cfg *c, u64 n)
{
	if (n >= c->n_zero)
		return 0;
	while (n-- && alpha)
		alpha = dcqcn_decay(alpha, c->g);
	return alpha;
}

/* run every timer expiry up to @now */
static void dcqcn_advance(struct rxe_cc_ctx *cc, u64 now)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	u64 t_end, n;

	if (rxe_cc_before(now, s->t_last))
		now = s->t_last;
	s->t_last = now;

	/* new rate bounds apply from the first event after a change */
	if (s->limited) {
		s->rt = clamp(s->rt, c->r_min, c->r_max);
		s->rc = clamp(s->rc, c->r_min, s->rt);
	}

	/*
	 * While a CNP flag is set, alpha, the cut and the stages interact:
	 * run the events one by one (vendor model only; the paper model
	 * never sets the flags).
	 */
	while (s->limited && (s->alpha_cnp || s->dec_cnp)) {
		switch (dcqcn_next_event(s, c, now)) {
		case EV_ALPHA:
			dcqcn_alpha_tick(s, c);
			break;
		case EV_INC:
			dcqcn_inc_timer(cc);
			break;
		case EV_DEC:
			dcqcn_check(cc);
			break;
		case EV_NONE:
			return;
		}
	}
	if (!s->limited)
		return;

	/*
	 * Quiet: alpha only decays, checks do nothing and increases do not
	 * read alpha, so the three timer streams are independent.
	 */
	t_end = now;
	dcqcn_quiet_increases(cc, now, &t_end);
	if (rxe_cc_after_eq(t_end, s->t_alpha_next)) {
		n = div64_u64(t_end - s->t_alpha_next, c->t_alpha) + 1;
		s->alpha = dcqcn_decay_n(s->alpha, c, n);
		s->t_alpha_next += n * c->t_alpha;
	}
	if (!c->paper && rxe_cc_after_eq(now, s->t_dec_next)) {
		n = div64_u64(now - s->t_dec_next, c->t_dec) + 1;
		s->t_dec_next += n * c->t_dec;
	}
}

static void dcqcn_output(struct rxe_cc_ctx *cc)
{
	const struct dcqcn_cfg *c = cc->cfg;
	const struct dcqcn_qp *s = cc->priv;
	struct rxe_cc_out *out = &cc->out;
	bool inc, dec;
	u32 rate;

	rate = s->limited ? min(s->rc, c->r_max) : c->r_max;
	out->rate_bps = (u64)rate * 1000;
	out->window_bytes = 0;

	/* the next time the rate changes without a new event */
	out->flags &= ~(RXE_CC_OUT_TIMER | RXE_CC_OUT_RX_TIMER |
			RXE_CC_OUT_SEND_QUIET);
	/* not rate limited: on_send counts nothing and starts no event */
	if (!s->limited)
		out->flags |= RXE_CC_OUT_SEND_QUIET;
	dec = s->limited && !c->paper && s->dec_cnp;
	inc = s->limited && s->inc_armed &&
	      (c->release || s->rc < c->r_max || s->rt < c->r_max);
	if (dec && (!inc || rxe_cc_before(s->t_dec_next, s->t_inc_next)))
		out->timer_ns = s->t_dec_next;
	else if (inc)
		out->timer_ns = s->t_inc_next;
	if (dec || inc)
		out->flags |= RXE_CC_OUT_TIMER;

	if (s->np_pending) {
		out->rx_timer_ns = s->np_last_cnp + c->np_gap;
		out->flags |= RXE_CC_OUT_RX_TIMER;
	}
}

static void dcqcn_init(struct rxe_cc_ctx *cc, u64 now)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;

	s->t_last = now;
	s->rc = c->r_max;
	s->rt = c->r_max;
	s->alpha = c->alpha0;
	dcqcn_output(cc);
}

static void dcqcn_on_send(struct rxe_cc_ctx *cc, const struct rxe_cc_tx *tx,
			  u64 now)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	u64 thr = c->byte_reset;
	u32 lo;

	dcqcn_advance(cc, now);
	if (s->limited && thr) {
		if (c->hai_halve && dcqcn_phase(s, c, &lo) == PH_HAI)
			thr = max_t(u64, thr / 2, 1);
		s->bytes += tx->bytes;
		if (s->bytes >= thr) {
			s->bytes = 0;
			dcqcn_increase(cc, false);
		}
	}
	dcqcn_output(cc);
}

static void dcqcn_limit(struct rxe_cc_ctx *cc)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;

	s->limited = true;
	s->alpha = c->alpha0;
	s->rc = c->first_rate ? min(c->first_rate, c->r_max) : c->r_max;
	s->rt = s->rc;
	s->t_stage = 0;
	s->b_stage = 0;
	s->bytes = 0;
	cc->out.events |= RXE_CC_EV_LIMIT;
}

static void dcqcn_on_cnp(struct rxe_cc_ctx *cc, u64 now)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;

	dcqcn_advance(cc, now);
	now = s->t_last;
	s->cnps++;

	if (c->paper) {
		if (!s->limited)
			dcqcn_limit(cc);
		if (dcqcn_clamp_rt(s, c))
			s->rt = s->rc;
		dcqcn_cut(cc);	/* with alpha before this CNP */
		s->alpha = dcqcn_decay(s->alpha, c->g) + c->g;
		s->t_stage = 0;
		s->b_stage = 0;
		s->bytes = 0;
		s->t_inc_next = now + c->t_inc;
		s->inc_armed = true;
		s->t_alpha_next = now + c->t_alpha;
	} else if (!s->limited) {
		/* the first CNP allocates the limiter; the cut follows at
		 * the end of the first monitor period
		 */
		dcqcn_limit(cc);
		s->alpha_cnp = false;
		s->dec_cnp = true;
		s->inc_armed = false;
		s->t_alpha_next = now + c->t_alpha;
		s->t_dec_next = now + c->t_dec;
	} else {
		s->alpha_cnp = true;
		s->dec_cnp = true;
	}
	dcqcn_output(cc);
}

/* the reaction point reacts to CNPs only (not to PAUSE) */
static void dcqcn_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			      const union rxe_cc_fb *fb, u64 now)
{
	if (kind == RXE_CC_FB_CNP)
		dcqcn_on_cnp(cc, now);
}

static void dcqcn_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	dcqcn_advance(cc, now);
	dcqcn_output(cc);
}

/* notification point: a deferred CNP whose gap has ended is sent now */
static bool dcqcn_np_due(struct dcqcn_qp *s, const struct dcqcn_cfg *c,
			 u64 now)
{
	u64 t = s->np_last_cnp + c->np_gap;

	if (!s->np_pending || rxe_cc_before(now, t))
		return false;
	s->np_last_cnp = t;
	s->np_pending = false;
	return true;
}

static bool dcqcn_np_send(struct rxe_cc_ctx *cc, bool send,
			  struct rxe_cc_np_msg *msg)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;

	if (send) {
		s->np_cnps++;
		msg->type = RXE_CC_MSG_CNP;
		msg->dscp = c->cnp_dscp;
		msg->pcp = c->cnp_prio;
	}
	dcqcn_output(cc);
	return send;
}

static bool dcqcn_rx_data(struct rxe_cc_ctx *cc, const struct rxe_cc_rx *rx,
			  u64 now, struct rxe_cc_np_msg *msg)
{
	const struct dcqcn_cfg *c = cc->cfg;
	struct dcqcn_qp *s = cc->priv;
	bool send = dcqcn_np_due(s, c, now);

	if (rx->ecn == RXE_CC_ECN_CE) {
		s->np_ce++;
		if (!s->np_sent_once ||
		    (s64)(now - s->np_last_cnp) >= (s64)c->np_gap) {
			/* one CNP also covers a deferred one due now */
			send = true;
			s->np_last_cnp = now;
			s->np_sent_once = true;
			s->np_pending = false;
		} else if (c->np_defer) {
			s->np_pending = true;
		}
	}
	return dcqcn_np_send(cc, send, msg);
}

static bool dcqcn_rx_timer(struct rxe_cc_ctx *cc, u64 now,
			   struct rxe_cc_np_msg *msg)
{
	return dcqcn_np_send(cc, dcqcn_np_due(cc->priv, cc->cfg, now), msg);
}

static void dcqcn_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *v)
{
	struct dcqcn_qp s = *(const struct dcqcn_qp *)cc->priv;
	struct rxe_cc_ctx copy = *cc;

	copy.priv = &s;
	dcqcn_advance(&copy, now);

	v[S_LIMITED] = s.limited;
	v[S_RC] = s.rc;
	v[S_RT] = s.rt;
	v[S_ALPHA] = s.alpha;
	v[S_T_STAGE] = s.t_stage;
	v[S_B_STAGE] = s.b_stage;
	v[S_BYTES] = s.bytes;
	v[S_CUTS] = s.cuts;
	v[S_CNPS] = s.cnps;
	v[S_NP_CE] = s.np_ce;
	v[S_NP_CNPS] = s.np_cnps;
}

struct rxe_cc_ops rxe_cc_dcqcn_ops = {
	.name = "dcqcn",
	.wire = RXE_CC_WIRE_ECT | RXE_CC_WIRE_CNP_RX | RXE_CC_WIRE_CNP_TX,
	.flags = RXE_CC_F_LAZY_TIMER | RXE_CC_F_RX_CE_ONLY,
	.priv_size = sizeof(struct dcqcn_qp),
	.cfg_size = sizeof(struct dcqcn_cfg),
	.params = dcqcn_params,
	.n_params = P_NUM,
	.state = dcqcn_state_desc,
	.n_state = S_NUM,
	.defaults = dcqcn_defaults,
	.setup = dcqcn_setup,
	.init = dcqcn_init,
	.on_send = dcqcn_on_send,
	.on_feedback = dcqcn_on_feedback,
	.on_timer = dcqcn_on_timer,
	.rx_data = dcqcn_rx_data,
	.rx_timer = dcqcn_rx_timer,
	.get_state = dcqcn_get_state,
};
