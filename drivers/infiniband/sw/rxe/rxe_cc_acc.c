// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc ACC: ACK-driven congestion control for lossless Ethernet (Zhang
 * et al., "Revisiting Congestion Control for Lossless Ethernet", NSDI
 * 2024), the sender's state machine of specs/acc.md §2.9.
 *
 * Switches mark data packets with TCD's ternary marks (CE through a
 * congestion port, UE through a port PFC modulates), the receiver echoes
 * them in its per-packet ACKs (RXE_CC_WIRE_TCD) and the sender classifies
 * its flow once per period T, which starts at the first ACK:
 *
 *	more than ce_pct % of the period's ACKs CE: congested. If the ACKs
 *	are of data sent after the last halt (snd_una > snd_nxt_start), the
 *	rate becomes R, the ACK arrival rate of the period, and the sender
 *	halts for (dS - dA) / R: dS the bytes sent in the period(s) before,
 *	dA the bytes acknowledged in this one, so the excess it left in the
 *	switch buffers drains. At the end of the next period the halt grows
 *	once by the excess sent during the detection period,
 *	(dS_i - dS_i * R / R_pre) / R (Algorithm 1, lines 1-11 and 27-34);
 *	some CE, at most ce_pct %: the rate holds (specs/acc.md A2);
 *	UE only: a victim; its rate halves once UE has lasted more than
 *	p_thresh periods (lines 22-26);
 *	no mark: R_s += (line - R_s) / line * RI, RI = ri_low for the first
 *	two such periods in a row, ri_high afterwards (lines 13-21);
 *	no ACK: nothing is classified and dS accumulates (A1, §4.2).
 *
 * The halt is an output (RXE_CC_OUT_HALT): the gate sends no data before
 * halt_ns. One halt, extension included, never exceeds max_halt_us, so
 * no ACK stream, however spoofed, stops a QP for longer; a new halt needs
 * an ACK for data sent after the last one.
 *
 * Readings beyond specs/acc.md §2.11: R is kept within [1 kbit/s, line]
 * and R_s within [min_rate_kbps, line]; a period that ends with nothing in
 * flight and no ACK is idle time, so the bytes sent before it are no
 * backlog and the next ACK's gap is not an ACK inter-arrival time, nor is
 * the time the QP spent halted; the excess a halt drains is at most the
 * bytes in flight; the one-shot extension of a halt that is already over
 * halts the QP again from the end of T_{i+1}, and it is dropped if T_{i+1}
 * is not congested, also for want of ACKs.
 *
 * Fixed point (specs/acc.md §4.1): rates in kbit/s (u64, at most
 * RXE_CC_RATE_KBPS_MAX), bytes as the framework charges them (whole
 * frames, u64 counters that only grow), times in ns of the QP's clock,
 * compared through their signed difference. The bounds that keep every
 * product below 2^64 are given where it is formed.
 */

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "rxe_cc.h"

#define NS_PER_US	1000ULL
/* bits per byte times ns per ms: kbit/s = bytes * KBPS_BYTE_NS / ns */
#define KBPS_BYTE_NS	8000000ULL

#define T_US_MAX	1000000		/* 1 s */
#define HALT_US_MAX	10000000	/* 10 s */
#define P_THRESH_MAX	1000
/* byte amounts in products are clamped to this: 2^40 * 8e6 < 2^63 */
#define BYTES_MAX	0x10000000000ULL	/* 2^40 */

/* ack->psn and fb->psn are 24 bits */
#define PSN_MASK	0xffffffU

enum acc_param {
	P_PERIOD,
	P_RI_LOW,
	P_RI_HIGH,
	P_P_THRESH,
	P_CE_PCT,
	P_MIN_RATE,
	P_MAX_HALT,
	P_HALT,
	P_PARTIAL_CE,
	P_NUM
};

static const struct rxe_cc_param_desc acc_params[P_NUM] = {
	[P_PERIOD] = { "period_us",
		"T: control period, at least the base RTT",
		RXE_CC_UNIT_US, 1000, 1, T_US_MAX },
	[P_RI_LOW] = { "ri_low_kbps",
		"RI_Low: increase in the first two uncongested periods (line / 250)",
		RXE_CC_UNIT_KBPS, 400, 1, RXE_CC_RATE_KBPS_MAX },
	[P_RI_HIGH] = { "ri_high_kbps",
		"RI_High: increase from the third uncongested period on (10 RI_Low)",
		RXE_CC_UNIT_KBPS, 4000, 1, RXE_CC_RATE_KBPS_MAX },
	[P_P_THRESH] = { "p_thresh",
		"a victim halves its rate once UE lasts more periods than this",
		RXE_CC_UNIT_NONE, 1, 0, P_THRESH_MAX },
	[P_CE_PCT] = { "ce_pct",
		"a period is congested if more than this share of its ACKs is CE",
		RXE_CC_UNIT_PERCENT, 90, 0, 99 },
	[P_MIN_RATE] = { "min_rate_kbps",
		"lowest sending rate (line / 1000, at least 1 Mbit/s)",
		RXE_CC_UNIT_KBPS, 1000, 1, RXE_CC_RATE_KBPS_MAX },
	[P_MAX_HALT] = { "max_halt_us",
		"ceiling of one source halt, its extension included (1000 T)",
		RXE_CC_UNIT_US, 1000000, 1, HALT_US_MAX },
	[P_HALT] = { "halt",
		"source halt; 0 is the ablation ACC w/o halt (rate cut only)",
		RXE_CC_UNIT_BOOL, 1, 0, 1 },
	[P_PARTIAL_CE] = { "partial_ce",
		"some CE, at most ce_pct: 0 holds the rate, 1 treats it as UE",
		RXE_CC_UNIT_NONE, 0, 0, 1 },
};

enum acc_state_value {
	S_STATE,
	S_RATE,
	S_ACK_RATE,
	S_HALT_LEFT,
	S_HALT_NS,
	S_PERIODS,
	S_CLASS,
	S_N_U,
	S_N_V,
	S_DELTA_S,
	S_DELTA_A,
	S_HALTS,
	S_EXTENSIONS,
	S_HALTS_CAPPED,
	S_HALVINGS,
	S_CE_IGNORED,
	S_CONGESTED,
	S_PARTIAL,
	S_VICTIM,
	S_CLEAR,
	S_EMPTY,
	S_FB_BAD,
	S_RETX,
	S_PEER_CAP,
	S_NUM
};

static const struct rxe_cc_state_desc acc_state_desc[S_NUM] = {
	[S_STATE] = { "state", RXE_CC_UNIT_NONE },
	[S_RATE] = { "rate_kbps", RXE_CC_UNIT_KBPS },
	[S_ACK_RATE] = { "ack_rate_kbps", RXE_CC_UNIT_KBPS },
	[S_HALT_LEFT] = { "halt_left_ns", RXE_CC_UNIT_NS },
	[S_HALT_NS] = { "halt_ns", RXE_CC_UNIT_NS },
	[S_PERIODS] = { "periods", RXE_CC_UNIT_NONE },
	[S_CLASS] = { "class", RXE_CC_UNIT_NONE },
	[S_N_U] = { "n_u", RXE_CC_UNIT_NONE },
	[S_N_V] = { "n_v", RXE_CC_UNIT_NONE },
	[S_DELTA_S] = { "delta_s_bytes", RXE_CC_UNIT_BYTES },
	[S_DELTA_A] = { "delta_a_bytes", RXE_CC_UNIT_BYTES },
	[S_HALTS] = { "halts", RXE_CC_UNIT_NONE },
	[S_EXTENSIONS] = { "extensions", RXE_CC_UNIT_NONE },
	[S_HALTS_CAPPED] = { "halts_capped", RXE_CC_UNIT_NONE },
	[S_HALVINGS] = { "halvings", RXE_CC_UNIT_NONE },
	[S_CE_IGNORED] = { "ce_ignored", RXE_CC_UNIT_NONE },
	[S_CONGESTED] = { "congested_periods", RXE_CC_UNIT_NONE },
	[S_PARTIAL] = { "partial_periods", RXE_CC_UNIT_NONE },
	[S_VICTIM] = { "ue_periods", RXE_CC_UNIT_NONE },
	[S_CLEAR] = { "clear_periods", RXE_CC_UNIT_NONE },
	[S_EMPTY] = { "empty_periods", RXE_CC_UNIT_NONE },
	[S_FB_BAD] = { "marks_ignored", RXE_CC_UNIT_NONE },
	[S_RETX] = { "retx_pkts", RXE_CC_UNIT_NONE },
	[S_PEER_CAP] = { "peer_cap", RXE_CC_UNIT_BOOL },
};

/* state value "state" */
enum acc_qp_state {
	ACC_WAIT_ACK,	/* no data acknowledged yet: no period runs */
	ACC_NORMAL,
	ACC_HALTED,	/* the gate holds the QP until the halt's end */
	ACC_HALT_OVER,	/* sending again; no new halt before it closes */
};

/* state value "class": the last period's classification */
enum acc_class {
	ACC_CLASS_NONE,
	ACC_CLASS_CONGESTED,	/* more than ce_pct % CE */
	ACC_CLASS_PARTIAL,	/* some CE, at most ce_pct % */
	ACC_CLASS_VICTIM,	/* UE, no CE */
	ACC_CLASS_CLEAR,	/* no mark */
	ACC_CLASS_EMPTY,	/* no ACK */
};

/* compiled parameters */
struct acc_cfg {
	u64 t_ns;		/* T, 1000 .. 10^9 */
	u64 max_halt_ns;	/* 1000 .. 10^10 */
	u64 line;		/* kbit/s, 1 .. 2^31 */
	u64 ri_low;		/* kbit/s, 1 .. 2^31 */
	u64 ri_high;
	u64 min_rate;		/* kbit/s, 1 .. line */
	u32 p_thresh;
	u32 ce_pct;		/* 0 .. 99 */
	bool halt;
	bool partial_ce;
};

/* per-QP state (specs/acc.md §2.2) */
struct acc_qp {
	u64 t_last;		/* latest time seen, never decreases */
	u64 period_end;		/* end of the current period */
	u64 snd_nxt;		/* bytes of new data sent */
	u64 snd_una;		/* bytes of it acknowledged */
	u64 snd_nxt_start;	/* snd_nxt when the last halt began */
	u64 snd_nxt_ps;		/* snd_nxt at the start of the period */
	u64 snd_una_ps;		/* snd_una at the start of the period */
	u64 s_pend;		/* sent bytes not matched with ACKs yet */
	u64 recv;		/* packets acknowledged in the period */
	u64 ce;			/* of them CE-marked */
	u64 ue;			/* of them UE-marked */
	u64 rate;		/* R_s, kbit/s */
	u64 rate_pre;		/* R_s before the halt */
	u64 ack_rate;		/* R of the halt's detection period, kbit/s */
	u64 ack_rate_meas;	/* R of the last period with ACKs */
	u64 sent_ti;		/* bytes sent in the halt's detection period */
	u64 halt_start;
	u64 halt_end;
	u64 t_last_ack;		/* arrival of the period's last ACK */
	u64 t_last_ack_prev;	/* that of the previous period with ACKs */
	u64 delta_s;		/* dS and dA of the last classified period */
	u64 delta_a;
	u64 periods;		/* periods ended since the first ACK */
	u64 mark_period;	/* the period of the ACK a mark may follow */
	u64 halts;
	u64 extensions;
	u64 halts_capped;
	u64 halvings;
	u64 ce_ignored;		/* congested periods that could not act */
	u64 n_class[ACC_CLASS_EMPTY + 1];
	u64 fb_bad;		/* marks ignored */
	u64 retx;		/* retransmitted packets (not in snd_nxt) */
	u32 n_u;		/* uncongested periods in a row */
	u32 n_v;		/* UE periods in a row */
	u32 mark_psn;		/* PSN of that ACK */
	u32 mark_pkts;		/* packets it acknowledged */
	u8 class;		/* enum acc_class of the last period */
	bool started;		/* the period timer runs */
	bool halt;		/* Algorithm 1's halt */
	bool ext_pending;	/* the one-shot extension is still due */
	bool prev_ack;		/* t_last_ack_prev is valid */
	bool mark_open;		/* the last on_ack may take a mark */
	bool peer_cap;		/* an echo carried CAP */
};

/* @v clamped to the range of parameter @i */
static u32 acc_in_range(u64 v, int i)
{
	return (u32)clamp_t(u64, v, acc_params[i].min, acc_params[i].max);
}

static void acc_defaults(u32 *p, const struct rxe_cc_link *link)
{
	u64 rtt = min_t(u64, link->base_rtt_ns, (u64)T_US_MAX * NS_PER_US);
	u64 line = rxe_cc_line_kbps(link);
	int i;

	for (i = 0; i < P_NUM; i++)
		p[i] = acc_params[i].def;

	/* T: the measured base RTT plus 10 %, rounded up to whole us */
	if (rtt)
		p[P_PERIOD] = acc_in_range(div64_u64(rtt * 11 + 9999, 10000),
					   P_PERIOD);
	/* §2.10: RI_Low = line / 250, RI_High = 10 RI_Low */
	if (line) {
		p[P_RI_LOW] = acc_in_range(div64_u64(line, 250), P_RI_LOW);
		p[P_RI_HIGH] = acc_in_range((u64)p[P_RI_LOW] * 10, P_RI_HIGH);
		/* line / 1000, at least 1 Mbit/s, at most the line rate */
		p[P_MIN_RATE] = acc_in_range(clamp_t(u64, div64_u64(line, 1000),
						     1000, line), P_MIN_RATE);
	}
	/* §2.10: a halt is capped at 1000 T */
	p[P_MAX_HALT] = acc_in_range((u64)p[P_PERIOD] * 1000, P_MAX_HALT);
}

/* Legal but doubtful settings; the first one found is returned. */
static const char *acc_warning(const struct acc_cfg *c, const u32 *p,
			       const struct rxe_cc_link *link)
{
	if (p[P_MIN_RATE] > c->line)
		return "min_rate_kbps exceeds the line rate: the line rate is the floor";
	if (c->ri_low > c->ri_high)
		return "ri_low_kbps exceeds ri_high_kbps: the increase slows down";
	/* pitfall 11: with T below the RTT, dS - dA pairs the wrong periods */
	if (link->base_rtt_ns && c->t_ns < link->base_rtt_ns)
		return "period_us is below the measured base RTT: halts pair the wrong periods";
	if (c->max_halt_ns < c->t_ns)
		return "max_halt_us is below period_us: halts cannot drain a period's excess";
	return NULL;
}

static int acc_setup(void *cfgp, const u32 *p, const struct rxe_cc_link *link,
		     const char **why)
{
	struct acc_cfg *c = cfgp;
	int i;

	/* the framework checks the ranges first, with a better message */
	for (i = 0; i < P_NUM; i++) {
		if (p[i] < acc_params[i].min || p[i] > acc_params[i].max) {
			*why = "parameter out of range";
			return -EINVAL;
		}
	}
	c->line = rxe_cc_line_kbps(link);
	if (!c->line) {
		*why = "the line rate must be at least 1 kbit/s";
		return -EINVAL;
	}
	c->t_ns = (u64)p[P_PERIOD] * NS_PER_US;
	c->max_halt_ns = (u64)p[P_MAX_HALT] * NS_PER_US;
	c->ri_low = p[P_RI_LOW];
	c->ri_high = p[P_RI_HIGH];
	c->min_rate = min_t(u64, p[P_MIN_RATE], c->line);
	c->p_thresh = p[P_P_THRESH];
	c->ce_pct = p[P_CE_PCT];
	c->halt = p[P_HALT];
	c->partial_ce = p[P_PARTIAL_CE];

	*why = acc_warning(c, p, link);
	return 0;
}

/* the time of an event, never before one already seen */
static u64 acc_now(struct acc_qp *s, u64 now)
{
	if (rxe_cc_before(now, s->t_last))
		now = s->t_last;
	s->t_last = now;
	return now;
}

/* R_s = @rate within [min_rate, line] */
static void acc_set_rate(const struct acc_cfg *c, struct acc_qp *s, u64 rate,
			 u32 *ev)
{
	rate = clamp(rate, c->min_rate, c->line);
	if (rate < s->rate)
		*ev |= RXE_CC_EV_RATE_DEC;
	else if (rate > s->rate)
		*ev |= RXE_CC_EV_RATE_INC;
	s->rate = rate;
}

/* kbit/s of @bytes in @ns (> 0) */
static u64 acc_kbps(u64 bytes, u64 ns)
{
	/* bytes < 2^40, so bytes * 8e6 < 2^63 */
	return div64_u64(min_t(u64, bytes, BYTES_MAX) * KBPS_BYTE_NS, ns);
}

/* time @bytes take at @kbps (>= 1), ns */
static u64 acc_time_ns(u64 bytes, u64 kbps)
{
	return div64_u64(min_t(u64, bytes, BYTES_MAX) * KBPS_BYTE_NS, kbps);
}

/* @a * @b / @c for @b < @c <= 2^32 without overflow, rounded down */
static u64 acc_mul_frac(u64 a, u64 b, u64 c)
{
	u64 q = div64_u64(a, c);

	/* q * b < a, and (a - q * c) * b < c * c <= 2^64 */
	return q * b + div64_u64((a - q * c) * b, c);
}

/* keep the halt within max_halt_ns of its start */
static void acc_cap_halt(const struct acc_cfg *c, struct acc_qp *s)
{
	if (rxe_cc_before(s->halt_start + c->max_halt_ns, s->halt_end)) {
		s->halt_end = s->halt_start + c->max_halt_ns;
		s->halts_capped++;
	}
}

/*
 * CONGESTED() (Algorithm 1, lines 1-11 and 27-34; specs/acc.md §2.9 a-m)
 * at the end @t of a period that sent @sent bytes, with dS @ds, dA @da and
 * the ACK arrival rate @r.
 */
static void acc_congested(const struct acc_cfg *c, struct acc_qp *s, u64 t,
			  u64 sent, u64 ds, u64 da, u64 r, u32 *ev)
{
	u64 x;

	if (!s->halt && (s64)(s->snd_una - s->snd_nxt_start) > 0) {
		/* lines 2-5: a congestion that data sent after the halt saw */
		s->ack_rate = r;
		s->rate_pre = s->rate;
		s->sent_ti = min_t(u64, sent, BYTES_MAX);
		acc_set_rate(c, s, r, ev);
		if (!c->halt) {
			/* the ablation: cut once per post-cut round */
			s->snd_nxt_start = s->snd_nxt;
			return;
		}
		if (ds <= da)
			return;
		/*
		 * lines 28-32: halt for (dS - dA) / R. The excess waits in
		 * the network, so it is at most the bytes in flight.
		 */
		x = min(ds - da, s->snd_nxt - s->snd_una);
		s->halt_start = t;
		s->halt_end = t + acc_time_ns(x, r);
		acc_cap_halt(c, s);
		s->halt = true;
		s->ext_pending = true;
		s->snd_nxt_start = s->snd_nxt;
		s->halts++;
		*ev |= RXE_CC_EV_HALT;
	} else if (s->halt && s->ext_pending) {
		/*
		 * lines 6-10, once, at the end of the period after the
		 * halt's: r = dS_i (1 - R / R_pre) with R the ACK rate of the
		 * detection period (A3); 0 unless R < R_pre (u64 would wrap).
		 * If the halt is already over, the QP halts again.
		 */
		x = 0;
		if (s->ack_rate < s->rate_pre)
			x = s->sent_ti - acc_mul_frac(s->sent_ti, s->ack_rate,
						      s->rate_pre);
		x = acc_time_ns(x, s->ack_rate);
		if (x) {
			if (rxe_cc_before(s->halt_end, t))
				s->halt_end = t;
			s->halt_end += x;
			acc_cap_halt(c, s);
			*ev |= RXE_CC_EV_HALT;
		}
		s->ext_pending = false;
		s->extensions++;
	} else {
		/* line m: ACKs of data sent before the halt, or extended */
		s->ce_ignored++;
	}
}

/* UNDETERMINED() (lines 22-26), N_v counted first (§2.8) */
static void acc_victim(const struct acc_cfg *c, struct acc_qp *s, u32 *ev)
{
	s->n_v++;
	s->n_u = 0;
	if (s->n_v > c->p_thresh) {
		acc_set_rate(c, s, s->rate / 2, ev);
		s->halvings++;
	}
}

/* UNCONGESTED() (lines 13-21) */
static void acc_clear(const struct acc_cfg *c, struct acc_qp *s, u32 *ev)
{
	u64 ri = s->n_u < 2 ? c->ri_low : c->ri_high;
	u64 rate = min(s->rate, c->line);

	/* (line - R_s) * RI < 2^31 * 2^31 */
	acc_set_rate(c, s, rate + div64_u64((c->line - rate) * ri, c->line),
		     ev);
	s->n_v = 0;
	if (s->n_u < ~0U)
		s->n_u++;
}

/* classify the period ending at @t, which has ACKs (§2.9 lines 5-14) */
static void acc_classify(const struct acc_cfg *c, struct acc_qp *s, u64 t,
			 u64 sent, u32 *ev)
{
	u64 ds = s->s_pend, da = s->snd_una - s->snd_una_ps, dt = c->t_ns, r;
	u64 from = s->t_last_ack_prev;

	s->s_pend = sent;
	s->delta_s = ds;
	s->delta_a = da;
	/*
	 * §4.3: one ACK in several periods: its inter-arrival time (A6),
	 * counted from the last halt's end if that is later: the QP's own
	 * halt is no shortage of ACKs. Otherwise an over-long halt would
	 * shrink the next R and so lengthen the next halt, without end.
	 */
	if (s->halts && rxe_cc_before(from, s->halt_end))
		from = s->halt_end;
	if (s->prev_ack && (s64)(s->t_last_ack - from) > (s64)dt)
		dt = s->t_last_ack - from;
	/* R is at least 1 kbit/s and, like R_s, at most the line rate */
	r = clamp_t(u64, acc_kbps(da, dt), 1, c->line);
	s->ack_rate_meas = r;

	if (s->ce && s->ce * 100 > (u64)c->ce_pct * s->recv) {
		s->class = ACC_CLASS_CONGESTED;
		acc_congested(c, s, t, sent, ds, da, r, ev);
		s->n_u = 0;
		s->n_v = 0;
	} else if (s->ce) {
		/* A2: neither congested nor a victim */
		s->class = ACC_CLASS_PARTIAL;
		if (c->partial_ce) {
			acc_victim(c, s, ev);
		} else {
			s->n_u = 0;
			s->n_v = 0;
		}
	} else if (s->ue) {
		s->class = ACC_CLASS_VICTIM;
		acc_victim(c, s, ev);
	} else {
		s->class = ACC_CLASS_CLEAR;
		acc_clear(c, s, ev);
	}
}

/* the period ending at @t (specs/acc.md §2.9 PERIOD_END) */
static void acc_period_end(const struct acc_cfg *c, struct acc_qp *s, u64 t,
			   u32 *ev)
{
	u64 sent = s->snd_nxt - s->snd_nxt_ps;
	bool ext_due = s->ext_pending;

	if (s->recv) {
		acc_classify(c, s, t, sent, ev);
		s->t_last_ack_prev = s->t_last_ack;
		s->prev_ack = true;
	} else {
		/* A1: no classification; dS accumulates until an ACK */
		s->class = ACC_CLASS_EMPTY;
		s->s_pend += sent;
		/*
		 * Nothing in flight: the QP is idle, not starved of ACKs.
		 * What it sent is acknowledged, so it is no backlog, and the
		 * next ACK's inter-arrival time is the idle time.
		 */
		if (s->snd_una == s->snd_nxt) {
			s->s_pend = 0;
			s->prev_ack = false;
		}
	}
	s->n_class[s->class]++;
	/* the extension is due at the end of the period after the halt's */
	if (ext_due)
		s->ext_pending = false;
	/* A4: the halt ends once extended and over */
	if (s->halt && !s->ext_pending && rxe_cc_after_eq(t, s->halt_end))
		s->halt = false;

	s->recv = 0;
	s->ce = 0;
	s->ue = 0;
	s->snd_nxt_ps = s->snd_nxt;
	s->snd_una_ps = s->snd_una;
	s->periods++;
	s->period_end = t + c->t_ns;
}

/*
 * Process every period that ended by @now. Events up to @now were
 * processed at their times, so the periods after the first one here are
 * empty; a run of empty periods with no extension due acts like its last
 * one, which bounds the work after a long idle time.
 */
static void acc_catch_up(const struct acc_cfg *c, struct acc_qp *s, u64 now,
			 u32 *ev)
{
	u64 n;

	while (s->started && rxe_cc_after_eq(now, s->period_end)) {
		if (!s->recv && s->snd_nxt == s->snd_nxt_ps &&
		    !s->ext_pending) {
			n = div64_u64(now - s->period_end, c->t_ns);
			s->period_end += n * c->t_ns;
			s->periods += n;
			s->n_class[ACC_CLASS_EMPTY] += n;
		}
		acc_period_end(c, s, s->period_end, ev);
	}
}

/* must the period timer run: is anything in flight, sent or pending? */
static bool acc_busy(const struct acc_qp *s)
{
	return s->started && (s->halt || s->ext_pending || s->recv ||
			      s->snd_nxt != s->snd_nxt_ps ||
			      s->snd_una != s->snd_nxt || s->s_pend);
}

static void acc_output(struct rxe_cc_ctx *cc, u32 ev)
{
	const struct acc_qp *s = cc->priv;
	struct rxe_cc_out *out = &cc->out;

	out->rate_bps = s->rate * 1000;
	out->window_bytes = 0;
	out->flags &= ~(RXE_CC_OUT_TIMER | RXE_CC_OUT_RX_TIMER |
			RXE_CC_OUT_SEND_QUIET | RXE_CC_OUT_HALT);
	if (s->halt) {
		out->flags |= RXE_CC_OUT_HALT;
		out->halt_ns = s->halt_end;
	}
	/* an idle QP's periods are caught up at its next event */
	if (acc_busy(s)) {
		out->flags |= RXE_CC_OUT_TIMER;
		out->timer_ns = s->period_end;
	}
	out->events |= ev;
}

/* the start of a hook: time, and the periods that ended before it */
static struct acc_qp *acc_enter(struct rxe_cc_ctx *cc, u64 *now, u32 *ev)
{
	struct acc_qp *s = cc->priv;

	*now = acc_now(s, *now);
	acc_catch_up(cc->cfg, s, *now, ev);
	return s;
}

/**
 * acc_init() - start ACC on a QP: line rate, no period before the first ACK
 * @cc: the QP's context, state zeroed
 * @now: the time
 */
static void acc_init(struct rxe_cc_ctx *cc, u64 now)
{
	const struct acc_cfg *c = cc->cfg;
	struct acc_qp *s = cc->priv;

	s->t_last = now;
	s->rate = c->line;
	acc_output(cc, 0);
}

/**
 * acc_on_timer() - catch up to @now, e.g. at a period's end
 * @cc: the QP's context
 * @now: the time
 *
 * Also applies new parameters: R_s within the new [min_rate_kbps, line],
 * a halt within the new ceiling; T applies from the next period.
 */
static void acc_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	const struct acc_cfg *c = cc->cfg;
	struct acc_qp *s;
	u32 ev = 0;

	s = acc_enter(cc, &now, &ev);
	acc_set_rate(c, s, s->rate, &ev);
	if (s->halt)
		acc_cap_halt(c, s);
	acc_output(cc, ev);
}

/**
 * acc_on_send() - a data packet was sent: snd_nxt
 * @cc: the QP's context
 * @tx: the packet
 * @now: the time
 *
 * Only new data counts (A9): a retransmission is counted apart, and READ
 * responses the QP sends as a responder are not acknowledged to it.
 */
static void acc_on_send(struct rxe_cc_ctx *cc, const struct rxe_cc_tx *tx,
			u64 now)
{
	struct acc_qp *s;
	u32 ev = 0;

	s = acc_enter(cc, &now, &ev);
	if (tx->flags & RXE_CC_TX_RETX)
		s->retx++;
	else if (!(tx->flags & RXE_CC_TX_READ_RESP))
		s->snd_nxt += tx->bytes;
	acc_output(cc, ev);
}

/**
 * acc_on_ack() - the completer processed a response packet
 * @cc: the QP's context
 * @ack: the packet
 * @now: its arrival
 *
 * Its newly acknowledged bytes (never more than were sent) advance
 * snd_una and count in dA and R; its packets count as the period's ACKs
 * (recvNum, so coalesced ACKs weigh what they cover). The first one starts
 * the periods (§2.9 A12: the bytes sent before it are the first dS). A
 * duplicate changes nothing. The mark echo that may follow applies to
 * this packet.
 */
static void acc_on_ack(struct rxe_cc_ctx *cc, const struct rxe_cc_ack *ack,
		       u64 now)
{
	const struct acc_cfg *c = cc->cfg;
	struct acc_qp *s;
	u64 acked;
	u32 ev = 0;

	s = acc_enter(cc, &now, &ev);
	acked = min_t(u64, ack->acked_bytes, s->snd_nxt - s->snd_una);
	s->mark_open = true;
	s->mark_psn = ack->psn & PSN_MASK;
	s->mark_pkts = acked ? ack->acked_pkts : 0;
	if (acked && !s->mark_pkts)
		s->mark_pkts = 1;
	if (acked) {
		if (!s->started) {
			s->started = true;
			s->period_end = now + c->t_ns;
			s->s_pend = s->snd_nxt;
			s->snd_nxt_ps = s->snd_nxt;
			s->snd_una_ps = s->snd_una;
		}
		s->snd_una += acked;
		s->recv += s->mark_pkts;
		s->t_last_ack = now;
	}
	s->mark_period = s->periods;
	acc_output(cc, ev);
}

/*
 * How many of the @pkts packets an ACK acknowledged its marks @echo
 * (non-zero) mark, in @n, and whether CE (else UE), in @ce. False if the
 * marks are not valid feedback: BECN with UE, a CE count without BECN,
 * more CE than packets, or marks on an ACK that acknowledged nothing.
 */
static bool acc_marked(u8 echo, u32 pkts, u32 *n, bool *ce)
{
	u32 cnt = (echo & RXE_CC_TCD_CE_CNT) >> RXE_CC_TCD_CE_CNT_SHIFT;
	bool becn = echo & RXE_CC_TCD_BECN, ue = echo & RXE_CC_TCD_UE;

	if (!pkts || (becn && ue) || (cnt && !becn) || cnt > pkts)
		return false;
	*ce = becn;
	/* no count: the mark stands for the packets; a full count: >= 15 */
	*n = pkts;
	if (becn && cnt && cnt < RXE_CC_TCD_CE_CNT_MAX)
		*n = cnt;
	return true;
}

static void acc_on_tcd(struct rxe_cc_ctx *cc, const struct rxe_cc_fb_tcd *fb,
		       u64 now)
{
	u8 marks = fb->echo & (RXE_CC_TCD_BECN | RXE_CC_TCD_CE_CNT |
			       RXE_CC_TCD_UE);
	bool open, ce = false;
	struct acc_qp *s;
	u32 ev = 0, n = 0;

	s = acc_enter(cc, &now, &ev);
	/* only right after its own ACK, in that ACK's period, and once */
	open = s->mark_open && s->mark_psn == (fb->psn & PSN_MASK) &&
	       s->mark_period == s->periods;
	s->mark_open = false;
	if (fb->echo & RXE_CC_TCD_CAP)
		s->peer_cap = true;
	if (marks) {
		if (!acc_marked(marks, open ? s->mark_pkts : 0, &n, &ce)) {
			s->fb_bad++;
			ev |= RXE_CC_EV_FB_BAD;
		} else if (ce) {
			s->ce += n;
		} else {
			s->ue += n;
		}
	}
	acc_output(cc, ev);
}

/**
 * acc_on_feedback() - feedback for the QP as a data sender
 * @cc: the QP's context
 * @kind: RXE_CC_FB_TCD is used; CNPs (from a receiver that runs DCQCN's
 *	notification point) and PAUSE change nothing
 * @fb: the mark echo of the response packet just given to on_ack
 * @now: its arrival
 *
 * FECN is ignored and CAP only noted. Marks that are not valid feedback
 * (acc_marked()), that do not follow their ACK's on_ack or follow it
 * twice, are counted (marks_ignored), flagged RXE_CC_EV_FB_BAD and
 * change nothing else: the ACK counts as unmarked.
 */
static void acc_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			    const union rxe_cc_fb *fb, u64 now)
{
	if (kind == RXE_CC_FB_TCD)
		acc_on_tcd(cc, &fb->tcd, now);
}

/**
 * acc_get_state() - the state values of acc_state_desc as of @now
 * @cc: the QP's context
 * @now: the time; periods that ended by then are applied to a copy
 * @v: S_NUM values
 */
static void acc_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *v)
{
	struct acc_qp st = *(const struct acc_qp *)cc->priv;
	const struct acc_qp *s = &st;
	u32 ev = 0;

	now = acc_now(&st, now);
	acc_catch_up(cc->cfg, &st, now, &ev);

	v[S_STATE] = !s->started ? ACC_WAIT_ACK :
		     !s->halt ? ACC_NORMAL :
		     rxe_cc_before(now, s->halt_end) ? ACC_HALTED :
		     ACC_HALT_OVER;
	v[S_RATE] = s->rate;
	v[S_ACK_RATE] = s->ack_rate_meas;
	v[S_HALT_LEFT] = s->halt && rxe_cc_before(now, s->halt_end) ?
			 s->halt_end - now : 0;
	v[S_HALT_NS] = s->halts ? s->halt_end - s->halt_start : 0;
	v[S_PERIODS] = s->periods;
	v[S_CLASS] = s->class;
	v[S_N_U] = s->n_u;
	v[S_N_V] = s->n_v;
	v[S_DELTA_S] = s->delta_s;
	v[S_DELTA_A] = s->delta_a;
	v[S_HALTS] = s->halts;
	v[S_EXTENSIONS] = s->extensions;
	v[S_HALTS_CAPPED] = s->halts_capped;
	v[S_HALVINGS] = s->halvings;
	v[S_CE_IGNORED] = s->ce_ignored;
	v[S_CONGESTED] = s->n_class[ACC_CLASS_CONGESTED];
	v[S_PARTIAL] = s->n_class[ACC_CLASS_PARTIAL];
	v[S_VICTIM] = s->n_class[ACC_CLASS_VICTIM];
	v[S_CLEAR] = s->n_class[ACC_CLASS_CLEAR];
	v[S_EMPTY] = s->n_class[ACC_CLASS_EMPTY];
	v[S_FB_BAD] = s->fb_bad;
	v[S_RETX] = s->retx;
	v[S_PEER_CAP] = s->peer_cap;
}

/*
 * rxe_cc_acc_ops - ACC: a rate and source halts from TCD marks
 *
 * Data as ECT(0) (RXE_CC_WIRE_ECT), the marks echoed in the ACKs
 * (RXE_CC_WIRE_TCD), an ACK per request packet (RXE_CC_F_ACK_EVERY), and a
 * hard period deadline while anything is in flight (no
 * RXE_CC_F_LAZY_TIMER: a halt must start on time).
 */
struct rxe_cc_ops rxe_cc_acc_ops = {
	.name = "acc",
	.wire = RXE_CC_WIRE_ECT | RXE_CC_WIRE_TCD,
	.flags = RXE_CC_F_ACK_EVERY,
	.priv_size = sizeof(struct acc_qp),
	.cfg_size = sizeof(struct acc_cfg),
	.params = acc_params,
	.n_params = P_NUM,
	.state = acc_state_desc,
	.n_state = S_NUM,
	.defaults = acc_defaults,
	.setup = acc_setup,
	.init = acc_init,
	.on_send = acc_on_send,
	.on_ack = acc_on_ack,
	.on_feedback = acc_on_feedback,
	.on_timer = acc_on_timer,
	.get_state = acc_get_state,
};
