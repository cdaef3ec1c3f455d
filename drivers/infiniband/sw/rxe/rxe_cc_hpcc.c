// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc HPCC: High Precision Congestion Control (Li et al., SIGCOMM 2019),
 * the sender's window law of Algorithm 1 driven by in-band network
 * telemetry (specs/hpcc.md §2).
 *
 * Every hop stamps its egress port's link rate, time, transmitted bytes and
 * queue length into the data packet's INT shim; the receiver echoes the
 * stack in its ACK and the framework hands it to on_feedback(RXE_CC_FB_INT)
 * right after the ACK's on_ack. From two stacks of the same path the sender
 * estimates each hop's normalised in-flight bytes
 *
 *	u_j = qlen_j / (B_j * T) + txRate_j / B_j
 *
 * smooths the largest one into U (an EWMA weighted by the sample gap over
 * T) and sets its window W = W^c / (U / eta) + W_AI, or W^c + W_AI for at
 * most max_stage rounds while U < eta. W^c, the reference window, moves
 * only once per RTT: when an ACK covers the first packet sent after the
 * previous move. The pacing rate is W / T. There are no timers.
 *
 * Fixed point (specs/hpcc.md §2.7): U, u and eta in Q16, windows in the
 * bytes the framework charges (whole frames), times in ns. The bounds that
 * keep every intermediate below 2^64 for any accepted parameter set and any
 * wire input are given where the products are formed.
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "rxe_cc.h"

#define ONE		RXE_CC_Q16_ONE
#define NS_PER_US	1000ULL
#define NS_PER_MS	1000000ULL
/* bits per byte times ns per second: rate_bps = bytes * BYTE_NS / ns */
#define BYTE_NS		8000000000ULL
/* bits per byte times ns per us: Mbit/s = bytes * MBPS_BYTE_NS / ns */
#define MBPS_BYTE_NS	8000ULL

#define T_US_MAX	1000000		/* 1 s: T_ns < 2^30 */
#define MBPS_MAX	4000000		/* codes 11..15: < 2^22 */
#define W_MAX		BIT(31)	/* W_init, so W * BYTE_NS < 2^64 */
#define W_AI_MAX	BIT(24)
#define STAGE_MAX	100

/* a sample u is capped at 16384.0, so U (their EWMA) never exceeds it */
#define U_CAP		BIT(30)

/*
 * A record L older than this is treated as absent: three quarters of the
 * 24-bit ns timestamp wrap (16.78 ms), the rest a margin for the
 * difference between the host's and the hops' sample gaps (the change in
 * queueing after the hop between the two packets).
 */
#define STALE_NS	(12 * NS_PER_MS)
/* half the 2^27-byte wrap of txBytes, times MBPS_BYTE_NS: / B = ns */
#define TXB_HALF_WRAP	(((u64)RXE_CC_INT_TXB_MASK + 1) * \
			 RXE_CC_INT_TXB_UNIT * MBPS_BYTE_NS / 2)

/* ack->psn of a NAK is the first PSN not acknowledged */
#define PSN_MASK	0xffffffU

enum hpcc_param {
	P_BASE_RTT,
	P_ETA,
	P_MAX_STAGE,
	P_W_AI,
	P_W_MIN,
	P_MAX_HOPS,
	P_B11,
	P_B12,
	P_B13,
	P_B14,
	P_B15,
	P_NUM
};

static const struct rxe_cc_param_desc hpcc_params[P_NUM] = {
	[P_BASE_RTT] = { "base_rtt_us",
		"T: global base RTT constant, above the largest idle RTT",
		RXE_CC_UNIT_US, 1000, 1, T_US_MAX },
	[P_ETA] = { "eta_pct",
		"target utilisation of the most loaded hop",
		RXE_CC_UNIT_PERCENT, 95, 50, 100 },
	[P_MAX_STAGE] = { "max_stage",
		"additive increase rounds before a multiplicative increase",
		RXE_CC_UNIT_NONE, 5, 0, STAGE_MAX },
	[P_W_AI] = { "w_ai_bytes",
		"additive increase of the window per RTT",
		RXE_CC_UNIT_BYTES, 39, 1, W_AI_MAX },
	[P_W_MIN] = { "w_min_bytes",
		"smallest window",
		RXE_CC_UNIT_BYTES, 125, 1, W_MAX },
	[P_MAX_HOPS] = { "int_max_hops",
		"INT stacks with more hops are ignored",
		RXE_CC_UNIT_NONE, RXE_CC_INT_MAX_HOPS, 1, RXE_CC_INT_MAX_HOPS },
	[P_B11] = { "b11_mbps", "link rate of INT rate code 11, 0 = unassigned",
		RXE_CC_UNIT_NONE, 100, 0, MBPS_MAX },
	[P_B12] = { "b12_mbps", "link rate of INT rate code 12, 0 = unassigned",
		RXE_CC_UNIT_NONE, 200, 0, MBPS_MAX },
	[P_B13] = { "b13_mbps", "link rate of INT rate code 13, 0 = unassigned",
		RXE_CC_UNIT_NONE, 500, 0, MBPS_MAX },
	[P_B14] = { "b14_mbps", "link rate of INT rate code 14, 0 = unassigned",
		RXE_CC_UNIT_NONE, 0, 0, MBPS_MAX },
	[P_B15] = { "b15_mbps", "link rate of INT rate code 15, 0 = unassigned",
		RXE_CC_UNIT_NONE, 0, 0, MBPS_MAX },
};

enum hpcc_state_value {
	S_WINDOW,
	S_WC,
	S_U,
	S_INC_STAGE,
	S_RATE,
	S_INT_ACTIVE,
	S_N_HOPS,
	S_PATH_ID,
	S_INT_SAMPLES,
	S_WC_SYNCS,
	S_MD_STEPS,
	S_AI_STEPS,
	S_INT_IGNORED,
	S_INT_RESTARTS,
	S_LAST_UPDATE_PSN,
	S_SND_NXT,
	S_NUM
};

static const struct rxe_cc_state_desc hpcc_state_desc[S_NUM] = {
	[S_WINDOW] = { "window_bytes", RXE_CC_UNIT_BYTES },
	[S_WC] = { "wc_bytes", RXE_CC_UNIT_BYTES },
	[S_U] = { "u_q16", RXE_CC_UNIT_Q16 },
	[S_INC_STAGE] = { "inc_stage", RXE_CC_UNIT_NONE },
	[S_RATE] = { "rate_kbps", RXE_CC_UNIT_KBPS },
	[S_INT_ACTIVE] = { "int_active", RXE_CC_UNIT_BOOL },
	[S_N_HOPS] = { "n_hops", RXE_CC_UNIT_NONE },
	[S_PATH_ID] = { "path_id", RXE_CC_UNIT_NONE },
	[S_INT_SAMPLES] = { "int_samples", RXE_CC_UNIT_NONE },
	[S_WC_SYNCS] = { "wc_syncs", RXE_CC_UNIT_NONE },
	[S_MD_STEPS] = { "md_steps", RXE_CC_UNIT_NONE },
	[S_AI_STEPS] = { "ai_steps", RXE_CC_UNIT_NONE },
	[S_INT_IGNORED] = { "int_ignored", RXE_CC_UNIT_NONE },
	[S_INT_RESTARTS] = { "int_restarts", RXE_CC_UNIT_NONE },
	[S_LAST_UPDATE_PSN] = { "last_update_psn", RXE_CC_UNIT_NONE },
	[S_SND_NXT] = { "snd_nxt", RXE_CC_UNIT_NONE },
};

/* compiled parameters */
struct hpcc_cfg {
	u64 t_ns;				/* T, 1000 .. 10^9 */
	u64 bt[RXE_CC_INT_B_CODES];		/* B * T in Mbit/s * ns */
	u64 stale_ns[RXE_CC_INT_B_CODES];	/* L's lifetime per code */
	u32 mbps[RXE_CC_INT_B_CODES];		/* 0 = not a rate */
	u32 w_init;				/* bytes, 1 .. 2^31 */
	u32 w_min;				/* 1 .. w_init */
	u32 w_ai;				/* 1 .. 2^24 */
	u32 eta;				/* Q16, 32768 .. 65536 */
	u32 max_stage;
	u32 max_hops;
};

/* per-QP state */
struct hpcc_qp {
	u64 t_last;		/* latest time seen, never decreases */
	u64 t_sample;		/* when L was taken */
	struct rxe_cc_int_hop l[RXE_CC_INT_MAX_HOPS];	/* L */
	u32 w;			/* W, bytes */
	u32 wc;			/* W^c, bytes */
	u32 u;			/* U, Q16, 1 .. U_CAP */
	u32 inc_stage;
	u32 last_update_psn;
	u32 snd_nxt;		/* PSN after the newest new packet */
	u32 nak_psn;		/* PSN of the NAK just processed */
	u32 int_samples;	/* stacks that ran the window law */
	u32 wc_syncs;		/* per-RTT updates of W^c */
	u32 md_steps;		/* multiplicative steps (decrease or MI) */
	u32 ai_steps;		/* additive steps */
	u32 int_ignored;	/* malformed stacks */
	u32 int_restarts;	/* stacks taken as a first sample */
	u16 path_id;		/* of L */
	u8 n_hops;		/* of L */
	bool int_active;	/* L holds a stack with at least one hop */
	bool sent;		/* snd_nxt is valid */
	bool nak;		/* the last on_ack was a NAK of nak_psn */
};

/* @v clamped to the range of parameter @i */
static u32 hpcc_in_range(u64 v, int i)
{
	return (u32)clamp_t(u64, v, hpcc_params[i].min, hpcc_params[i].max);
}

/*
 * W_init = rate * T / 8 in bytes, exactly rounded down without overflow:
 * rate = q * BYTE_NS + r with q < 2^64 / BYTE_NS < 2^32 and r < 2^33,
 * T_ns < 2^30, so q * T_ns < 2^62 and r * T_ns < 2^63.
 */
static u64 hpcc_w_init(u64 rate_bps, u64 t_ns)
{
	u64 q = div64_u64(rate_bps, BYTE_NS);
	u64 r = rate_bps - q * BYTE_NS;

	return q * t_ns + div64_u64(r * t_ns, BYTE_NS);
}

static void hpcc_defaults(u32 *p, const struct rxe_cc_link *link)
{
	u64 rtt = min_t(u64, link->base_rtt_ns, (u64)T_US_MAX * NS_PER_US);
	u64 w_init;
	int i;

	for (i = 0; i < P_NUM; i++)
		p[i] = hpcc_params[i].def;

	/* the measured base RTT plus 10 %, rounded up to whole us */
	if (rtt)
		p[P_BASE_RTT] = hpcc_in_range(div64_u64(rtt * 11 + 9999,
							10000), P_BASE_RTT);

	/*
	 * W_AI = W_init * (1 - eta) / N for N = 16 flows per link, W_min =
	 * W_init / 100, both at least one byte.
	 */
	w_init = hpcc_w_init(link->rate_bps, (u64)p[P_BASE_RTT] * NS_PER_US);
	w_init = min_t(u64, w_init, W_MAX);
	p[P_W_AI] = hpcc_in_range(div64_u64(w_init * (100 - p[P_ETA]),
					    100 * 16), P_W_AI);
	p[P_W_MIN] = hpcc_in_range(div64_u64(w_init, 100), P_W_MIN);
}

/*
 * Legal but doubtful settings, reported as a warning by the framework. The
 * first one found is returned.
 */
static const char *hpcc_warning(const struct hpcc_cfg *c, const u32 *p,
				const struct rxe_cc_link *link)
{
	/* specs/hpcc.md §7 pitfall 7: 16 * W_AI > W_init * (1 - eta) */
	if ((u64)c->w_ai * 16 * 100 > (u64)c->w_init * (100 - p[P_ETA]))
		return "w_ai_bytes * 16 > W_init * (1 - eta): 16 flows keep a standing queue";
	/* pitfall 6: T below the base RTT leaves the link idle */
	if (link->base_rtt_ns && c->t_ns < link->base_rtt_ns)
		return "base_rtt_us is below the measured base RTT: W_init cannot fill the link";
	return NULL;
}

static int hpcc_setup(void *cfgp, const u32 *p,
		      const struct rxe_cc_link *link, const char **why)
{
	struct hpcc_cfg *c = cfgp;
	u64 w_init;
	int i;

	/* the framework checks the ranges first, with a better message */
	for (i = 0; i < P_NUM; i++) {
		if (p[i] < hpcc_params[i].min || p[i] > hpcc_params[i].max) {
			*why = "parameter out of range";
			return -EINVAL;
		}
	}
	c->t_ns = (u64)p[P_BASE_RTT] * NS_PER_US;
	w_init = hpcc_w_init(link->rate_bps, c->t_ns);
	if (!w_init || w_init > W_MAX) {
		*why = "W_init = line rate * base_rtt_us / 8 must be 1 byte to 2^31 bytes";
		return -EINVAL;
	}
	if (p[P_W_MIN] > w_init) {
		*why = "w_min_bytes exceeds W_init = line rate * base_rtt_us / 8";
		return -EINVAL;
	}
	c->w_init = (u32)w_init;
	c->w_min = p[P_W_MIN];
	c->w_ai = p[P_W_AI];
	c->eta = p[P_ETA] * ONE / 100;
	c->max_stage = p[P_MAX_STAGE];
	c->max_hops = p[P_MAX_HOPS];

	/*
	 * Per rate code: B in Mbit/s (< 2^22), B * T (< 2^22 * 2^30 = 2^52,
	 * at least 1000 for a rate), and how long L stays usable: STALE_NS,
	 * or half the txBytes wrap at B if that is shorter (1.3 ms at
	 * 400 Gbit/s).
	 */
	for (i = 0; i < RXE_CC_INT_B_CODES; i++) {
		if (i < RXE_CC_INT_B_FIXED)
			c->mbps[i] = rxe_cc_int_code_mbps(i);
		else
			c->mbps[i] = p[P_B11 + i - RXE_CC_INT_B_FIXED];
		c->bt[i] = (u64)c->mbps[i] * c->t_ns;
		c->stale_ns[i] = STALE_NS;
		if (c->mbps[i])
			c->stale_ns[i] = min_t(u64, STALE_NS,
					       div64_u64(TXB_HALF_WRAP,
							 c->mbps[i]));
	}

	*why = hpcc_warning(c, p, link);
	return 0;
}

/* pacing rate of window @w: W / T */
static u64 hpcc_rate(const struct hpcc_cfg *c, u32 w)
{
	/* w <= 2^31, so w * BYTE_NS < 1.72e19 < 2^64 */
	return div64_u64((u64)w * BYTE_NS, c->t_ns);
}

static void hpcc_output(struct rxe_cc_ctx *cc, u32 old_w)
{
	const struct hpcc_qp *s = cc->priv;
	struct rxe_cc_out *out = &cc->out;

	out->window_bytes = s->w;
	out->rate_bps = hpcc_rate(cc->cfg, s->w);
	/* no timers; on_send always tracks snd_nxt, so it is never quiet */
	out->flags &= ~(RXE_CC_OUT_TIMER | RXE_CC_OUT_RX_TIMER |
			RXE_CC_OUT_SEND_QUIET);
	if (s->w < old_w)
		out->events |= RXE_CC_EV_RATE_DEC;
	else if (s->w > old_w)
		out->events |= RXE_CC_EV_RATE_INC;
}

/* the time of an event, never before one already seen */
static u64 hpcc_now(struct hpcc_qp *s, u64 now)
{
	if (rxe_cc_before(now, s->t_last))
		now = s->t_last;
	s->t_last = now;
	return now;
}

/**
 * hpcc_init() - start HPCC on a QP: line rate, W = W^c = W_init, U = 1.0
 * @cc: the QP's context, state zeroed
 * @now: the time
 */
static void hpcc_init(struct rxe_cc_ctx *cc, u64 now)
{
	const struct hpcc_cfg *c = cc->cfg;
	struct hpcc_qp *s = cc->priv;

	s->t_last = now;
	s->w = c->w_init;
	s->wc = c->w_init;
	s->u = ONE;
	hpcc_output(cc, s->w);
}

/**
 * hpcc_on_timer() - refresh the outputs, e.g. after a parameter change
 * @cc: the QP's context
 * @now: the time
 *
 * HPCC arms no timer; the framework calls this after installing new
 * parameters. W and W^c are brought into the new [w_min, W_init], and a QP
 * that has not had INT feedback yet follows the new W_init. L stays: T,
 * eta and the rate table apply from the next sample.
 */
static void hpcc_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	const struct hpcc_cfg *c = cc->cfg;
	struct hpcc_qp *s = cc->priv;
	u32 old_w = s->w;

	hpcc_now(s, now);
	if (!s->int_active) {
		s->w = c->w_init;
		s->wc = c->w_init;
	}
	s->w = clamp(s->w, c->w_min, c->w_init);
	s->wc = clamp(s->wc, c->w_min, c->w_init);
	/* the same next step (MI) as a larger count, within the new range */
	s->inc_stage = min(s->inc_stage, c->max_stage);
	hpcc_output(cc, old_w);
}

/**
 * hpcc_on_send() - a data packet was sent: track snd_nxt
 * @cc: the QP's context
 * @tx: the packet
 * @now: the time
 *
 * Retransmissions do not move snd_nxt (go-back-N never pulls the next W^c
 * sync back, specs/hpcc.md §7 pitfall 13), and READ responses the QP sends
 * as a responder carry PSNs of the peer's requests.
 */
static void hpcc_on_send(struct rxe_cc_ctx *cc, const struct rxe_cc_tx *tx,
			 u64 now)
{
	struct hpcc_qp *s = cc->priv;
	u32 nxt = (tx->psn + 1) & PSN_MASK;

	hpcc_now(s, now);
	if (tx->flags & (RXE_CC_TX_RETX | RXE_CC_TX_READ_RESP))
		return;
	if (!s->sent || rxe_cc_psn_diff(nxt, s->snd_nxt) > 0)
		s->snd_nxt = nxt;
	s->sent = true;
}

/**
 * hpcc_on_ack() - the completer processed a response packet
 * @cc: the QP's context
 * @ack: the packet
 * @now: the time
 *
 * The window law runs on the INT feedback that follows. Only remember
 * whether this packet is a NAK: its PSN is the first one not acknowledged,
 * so it covers the packets before it.
 */
static void hpcc_on_ack(struct rxe_cc_ctx *cc, const struct rxe_cc_ack *ack,
			u64 now)
{
	struct hpcc_qp *s = cc->priv;

	hpcc_now(s, now);
	s->nak = ack->type == RXE_CC_ACK_NAK_SEQ ||
		 ack->type == RXE_CC_ACK_NAK_RNR ||
		 ack->type == RXE_CC_ACK_NAK_OTHER;
	s->nak_psn = ack->psn & PSN_MASK;
}

/* every hop has a rate and the stack fits int_max_hops */
static bool hpcc_stack_ok(const struct hpcc_cfg *c,
			  const struct rxe_cc_fb_int *fb)
{
	int i;

	if (fb->n_hops > c->max_hops)
		return false;
	for (i = 0; i < fb->n_hops; i++)
		if (fb->hop[i].b >= RXE_CC_INT_B_CODES ||
		    !c->mbps[fb->hop[i].b])
			return false;
	return true;
}

/* L is missing, of another path, or too old to difference against */
static bool hpcc_restart(const struct hpcc_cfg *c, const struct hpcc_qp *s,
			 const struct rxe_cc_fb_int *fb, u64 now)
{
	u64 stale = STALE_NS;
	int i;

	if (!s->int_active || fb->n_hops != s->n_hops ||
	    fb->path_id != s->path_id)
		return true;
	for (i = 0; i < fb->n_hops; i++)
		stale = min(stale, c->stale_ns[fb->hop[i].b]);
	return now - s->t_sample > stale;
}

static void hpcc_take_l(struct hpcc_qp *s, const struct rxe_cc_fb_int *fb,
			u64 now)
{
	int i;

	for (i = 0; i < fb->n_hops; i++)
		s->l[i] = fb->hop[i];
	s->n_hops = fb->n_hops;
	s->path_id = fb->path_id;
	s->t_sample = now;
}

/*
 * MEASUREINFLIGHT (Algorithm 1, lines 1-10): U from the stack against L.
 * Bounds, for any wire input and parameter set:
 *	q < 2^16 * 80 < 2^23, so q * 8000 * 2^16 < 2^52;
 *	dtx < 2^20 * 128 = 2^27, so dtx * 8000 * 2^16 < 2^56;
 *	1000 <= B * T < 2^52 and 0 < dts * B < 2^24 * 2^22 = 2^46;
 *	u, umax, U <= U_CAP = 2^30 and tau <= T < 2^30, so
 *	U * (T - tau) + umax * tau <= 2^30 * T < 2^60.
 * U stays >= 1: it starts at 1.0, and a sample moves it (tau > 0) only
 * with umax >= 1, which makes the sum at least T.
 */
static void hpcc_measure_inflight(const struct hpcc_cfg *c,
				  struct hpcc_qp *s,
				  const struct rxe_cc_fb_int *fb)
{
	const struct rxe_cc_int_hop *h, *l;
	u64 umax = 0, tau = 0;
	u64 dts, dtx, q, u;
	int i;

	for (i = 0; i < fb->n_hops; i++) {
		h = &fb->hop[i];
		l = &s->l[i];
		dts = (h->ts - l->ts) & RXE_CC_INT_TS_MASK;
		if (!dts)
			continue;	/* a duplicate: no rate */
		dtx = (u64)((h->tx_bytes - l->tx_bytes) &
			    RXE_CC_INT_TXB_MASK) * RXE_CC_INT_TXB_UNIT;
		q = (u64)min(h->qlen, l->qlen) * RXE_CC_INT_QLEN_UNIT;
		u = div64_u64((q * MBPS_BYTE_NS) << 16, c->bt[h->b]) +
		    div64_u64((dtx * MBPS_BYTE_NS) << 16,
			      dts * c->mbps[h->b]);
		u = min_t(u64, u, U_CAP);
		if (u > umax) {
			umax = u;
			tau = dts;
		}
	}
	tau = min(tau, c->t_ns);
	s->u = (u32)div64_u64((u64)s->u * (c->t_ns - tau) + umax * tau,
			      c->t_ns);
}

/*
 * COMPUTEWIND (Algorithm 1, lines 11-20), W clamped to [w_min, W_init].
 * Wc <= 2^31 and eta <= 2^16: Wc * eta < 2^47.
 */
static void hpcc_compute_wind(const struct hpcc_cfg *c, struct hpcc_qp *s,
			      bool update)
{
	u32 stage;
	u64 w;

	if (s->u >= c->eta || s->inc_stage >= c->max_stage) {
		w = div64_u64((u64)s->wc * c->eta, max(s->u, 1U)) + c->w_ai;
		stage = 0;
		s->md_steps++;
	} else {
		w = (u64)s->wc + c->w_ai;
		stage = s->inc_stage + 1;
		s->ai_steps++;
	}
	s->w = (u32)clamp_t(u64, w, c->w_min, c->w_init);
	if (update) {
		s->wc = s->w;
		s->inc_stage = stage;
		s->wc_syncs++;
	}
}

/*
 * snd_nxt, or the PSN after @fb's if the QP has sent nothing (not for a
 * data sender: only its data packets are stamped)
 */
static u32 hpcc_snd_nxt(const struct hpcc_qp *s,
			const struct rxe_cc_fb_int *fb)
{
	return s->sent ? s->snd_nxt : (fb->psn + 1) & PSN_MASK;
}

/* the new L, a first sample: W stays, the next ACK starts a new round */
static void hpcc_first_sample(struct hpcc_qp *s,
			      const struct rxe_cc_fb_int *fb, u64 now)
{
	bool same_path = s->int_active && fb->n_hops == s->n_hops &&
			 fb->path_id == s->path_id;

	hpcc_take_l(s, fb, now);
	s->int_active = true;
	s->int_restarts++;
	/*
	 * A new path starts a new round. A stale L on the same path only
	 * loses its deltas: moving the round's end on at every such gap
	 * would keep W^c from ever syncing on a host whose ACKs come in
	 * bursts further apart than STALE_NS.
	 */
	if (!same_path)
		s->last_update_psn = hpcc_snd_nxt(s, fb);
}

static void hpcc_on_int(struct rxe_cc_ctx *cc, const struct rxe_cc_fb_int *fb,
			u64 now)
{
	const struct hpcc_cfg *c = cc->cfg;
	struct hpcc_qp *s = cc->priv;
	u32 old_w = s->w;
	u32 psn = fb->psn & PSN_MASK;
	bool update;

	if (!fb->n_hops)
		return;		/* no INT hop on the path */
	if (!hpcc_stack_ok(c, fb)) {
		s->int_ignored++;
		cc->out.events |= RXE_CC_EV_FB_BAD;
		return;
	}
	now = hpcc_now(s, now);
	if (hpcc_restart(c, s, fb, now)) {
		hpcc_first_sample(s, fb, now);
		return;
	}

	/* NEWACK (Algorithm 1, lines 21-27) */
	hpcc_measure_inflight(c, s, fb);
	hpcc_take_l(s, fb, now);
	s->int_samples++;
	if (s->nak && s->nak_psn == psn)
		psn = (psn - 1) & PSN_MASK;
	update = rxe_cc_psn_diff(psn, s->last_update_psn) >= 0;
	hpcc_compute_wind(c, s, update);
	if (update)
		s->last_update_psn = hpcc_snd_nxt(s, fb);
	hpcc_output(cc, old_w);
}

/**
 * hpcc_on_feedback() - feedback for the QP as a data sender
 * @cc: the QP's context
 * @kind: RXE_CC_FB_INT is used; CNP and PAUSE change nothing
 * @fb: the INT stack of a response packet
 * @now: its arrival
 *
 * A stack without hops (no INT switch on the path) changes nothing. A
 * stack with more than int_max_hops hops or a hop without a rate is
 * ignored as a whole and flagged RXE_CC_EV_FB_BAD. The first stack, one
 * of another path (path ID or hop count) and one after L went stale only
 * become L; the others run the window law against L.
 */
static void hpcc_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			     const union rxe_cc_fb *fb, u64 now)
{
	if (kind == RXE_CC_FB_INT)
		hpcc_on_int(cc, &fb->int_stack, now);
}

/**
 * hpcc_get_state() - the state values of hpcc_state_desc, read only
 * @cc: the QP's context
 * @now: the time (HPCC has no time-driven state)
 * @v: S_NUM values
 */
static void hpcc_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *v)
{
	const struct hpcc_qp *s = cc->priv;

	v[S_WINDOW] = s->w;
	v[S_WC] = s->wc;
	v[S_U] = s->u;
	v[S_INC_STAGE] = s->inc_stage;
	v[S_RATE] = div64_u64(hpcc_rate(cc->cfg, s->w), 1000);
	v[S_INT_ACTIVE] = s->int_active;
	v[S_N_HOPS] = s->n_hops;
	v[S_PATH_ID] = s->path_id;
	v[S_INT_SAMPLES] = s->int_samples;
	v[S_WC_SYNCS] = s->wc_syncs;
	v[S_MD_STEPS] = s->md_steps;
	v[S_AI_STEPS] = s->ai_steps;
	v[S_INT_IGNORED] = s->int_ignored;
	v[S_INT_RESTARTS] = s->int_restarts;
	v[S_LAST_UPDATE_PSN] = s->last_update_psn;
	v[S_SND_NXT] = s->snd_nxt;
}

/*
 * rxe_cc_hpcc_ops - HPCC: an INT-driven window and pacing rate W / T
 *
 * Uses the INT shim on data and ACKs (RXE_CC_WIRE_INT) and asks for an ACK
 * per request packet (RXE_CC_F_ACK_EVERY). No timers.
 */
struct rxe_cc_ops rxe_cc_hpcc_ops = {
	.name = "hpcc",
	.wire = RXE_CC_WIRE_INT,
	.flags = RXE_CC_F_ACK_EVERY,
	.priv_size = sizeof(struct hpcc_qp),
	.cfg_size = sizeof(struct hpcc_cfg),
	.params = hpcc_params,
	.n_params = P_NUM,
	.state = hpcc_state_desc,
	.n_state = S_NUM,
	.defaults = hpcc_defaults,
	.setup = hpcc_setup,
	.init = hpcc_init,
	.on_send = hpcc_on_send,
	.on_ack = hpcc_on_ack,
	.on_feedback = hpcc_on_feedback,
	.on_timer = hpcc_on_timer,
	.get_state = hpcc_get_state,
};
