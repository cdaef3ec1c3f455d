// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc PCN: receiver-driven rate control for lossless Ethernet (Cheng et
 * al., "Re-architecting Congestion Management in Lossless Ethernet", NSDI
 * 2020), specs/pcn.md §2.
 *
 * Notification point (the QP as a data receiver), per period T that starts
 * at a data packet: it counts the period's data packets, their CE marks
 * (switches mark with NP-ECN: never a packet PFC held) and their bytes. At
 * the period's end it measures the receiving rate and reports it to the
 * sender: congested if at least ce_pct % of the packets were CE, in a CNP
 * 0x81 (a decrease, sent CE); else in a rate report 0xC2 (an increase,
 * Not-ECT), which only an rxe-cc peer gets (its data carries CAP): to any
 * other peer a CNP means "cut". A period without a data packet reports
 * nothing and ends the periods until the next packet.
 *
 * Reaction point (the QP as a data sender), Algorithm 1 per report:
 *
 *	decrease: rate = max(min_rate, min(rate, RecRate * (1 - w_min)));
 *		  w = w_min
 *	increase: rate = rate * (1 - w) + line * w;
 *		  w = w * (1 - w) + w_max * w	(the old w in both)
 *
 * starting at the line rate with w = w_min. It has no timer: without a
 * report the rate stays. A report is taken only if it is well formed: the
 * version, DEC agreeing with the opcode, a RecRate (RATE_VALID) on a
 * decrease, any RecRate given from 1 Mbit/s to the line rate, and a
 * sequence after the last one taken (less than 2^20 ahead); any other
 * is counted and flagged RXE_CC_EV_FB_BAD, and changes nothing. A CNP
 * without PCN's payload (a DCQCN peer's) is counted and ignored.
 *
 * Readings beyond specs/pcn.md (§2.3, §2.4 [O]): the rate is measured over
 * the period's real length (a timer served late lengthens it), and over
 * the gap before its packet when a period holds one packet that came more
 * than T after the one before (capped at 16 T; a gap longer than the idle
 * time is a new flow and T is used); RecRate is at least 1 Mbit/s and at
 * most the receiver's line rate. A sender idle for idle_periods periods
 * starts again as a new flow (line rate, w_min). With min_pkts above 1, a
 * period that holds fewer packets at T runs on by T at a time (at most 16
 * T), so that the 95 % rule decides on that many packets: with fewer than
 * 20 a flow is cut only if every one of its packets was marked, and a
 * flow with more packets than another is spared more often.
 *
 * Fixed point (specs/pcn.md §2.7): w in Q20 (the parameters are Q16 and
 * exact in Q20), rates in kbit/s (u64, at most RXE_CC_RATE_KBPS_MAX =
 * 2^31, so rate * 2^20 < 2^52), bytes as the framework charges them.
 */

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "rxe_cc.h"

#define NS_PER_US	1000ULL
#define Q20_ONE		RXE_CC_PCN_Q20_ONE
#define Q16_TO_Q20	4

#define T_US_MAX	1000000		/* 1 s */
#define IDLE_MAX	100000
/* a one-packet period's gap is used up to this many periods */
#define GAP_CAP_PERIODS	16
/* sequences further ahead than this are not the peer's */
#define SEQ_AHEAD_MAX	BIT(20)
/* byte counts in products are clamped to this: 2^40 * 8000 < 2^53 */
#define BYTES_MAX	0x10000000000ULL

enum pcn_param {
	P_PERIOD,
	P_W_MIN,
	P_W_MAX,
	P_CE_PCT,
	P_MIN_RATE,
	P_IDLE,
	P_MIN_PKTS,
	P_NUM
};

static const struct rxe_cc_param_desc pcn_params[P_NUM] = {
	[P_PERIOD] = { "period_us",
		"T: CNP period of the receiver, at least the largest RTT",
		RXE_CC_UNIT_US, 1000, 10, T_US_MAX },
	[P_W_MIN] = { "w_min",
		"decrease margin and first increase weight (1/128)",
		RXE_CC_UNIT_Q16, 512, 1, 32768 },
	[P_W_MAX] = { "w_max",
		"largest increase weight (1/2)",
		RXE_CC_UNIT_Q16, 32768, 1, 65535 },
	[P_CE_PCT] = { "ce_pct",
		"a period is congested if at least this share of its packets is CE",
		RXE_CC_UNIT_PERCENT, 95, 1, 100 },
	[P_MIN_RATE] = { "min_rate_kbps",
		"lowest sending rate, whatever the reports say (1 Mbit/s)",
		RXE_CC_UNIT_KBPS, 1000, 1, RXE_CC_RATE_KBPS_MAX },
	[P_IDLE] = { "idle_periods",
		"a sender idle this many periods starts at line rate; 0 = never",
		RXE_CC_UNIT_NONE, 100, 0, IDLE_MAX },
	[P_MIN_PKTS] = { "min_pkts",
		"a period ends at T only with this many packets, else runs on by T (at most 16 T)",
		RXE_CC_UNIT_NONE, 1, 1, 1000 },
};

enum pcn_state_value {
	S_RATE,
	S_W,
	S_REC_RATE,
	S_DEC,
	S_INC,
	S_FOREIGN,
	S_BAD,
	S_OLD,
	S_ECN_MISMATCH,
	S_IDLE_RESETS,
	S_PEER_CAP,
	S_NP_RATE,
	S_NP_DEC,
	S_NP_INC,
	S_NP_WITHHELD,
	S_NP_PKTS,
	S_NP_CE,
	S_NUM
};

static const struct rxe_cc_state_desc pcn_state_desc[S_NUM] = {
	[S_RATE] = { "rate_kbps", RXE_CC_UNIT_KBPS },
	[S_W] = { "w", RXE_CC_UNIT_Q16 },
	[S_REC_RATE] = { "rec_rate_kbps", RXE_CC_UNIT_KBPS },
	[S_DEC] = { "cnp_dec", RXE_CC_UNIT_NONE },
	[S_INC] = { "cnp_inc", RXE_CC_UNIT_NONE },
	[S_FOREIGN] = { "cnp_foreign", RXE_CC_UNIT_NONE },
	[S_BAD] = { "cnp_bad", RXE_CC_UNIT_NONE },
	[S_OLD] = { "cnp_old", RXE_CC_UNIT_NONE },
	[S_ECN_MISMATCH] = { "cnp_ecn_mismatch", RXE_CC_UNIT_NONE },
	[S_IDLE_RESETS] = { "idle_resets", RXE_CC_UNIT_NONE },
	[S_PEER_CAP] = { "peer_cap", RXE_CC_UNIT_BOOL },
	[S_NP_RATE] = { "np_rate_kbps", RXE_CC_UNIT_KBPS },
	[S_NP_DEC] = { "np_dec", RXE_CC_UNIT_NONE },
	[S_NP_INC] = { "np_inc", RXE_CC_UNIT_NONE },
	[S_NP_WITHHELD] = { "np_withheld", RXE_CC_UNIT_NONE },
	[S_NP_PKTS] = { "np_pkts", RXE_CC_UNIT_NONE },
	[S_NP_CE] = { "np_ce", RXE_CC_UNIT_NONE },
};

struct pcn_cfg {
	u64 t_ns;
	u64 idle_ns;		/* 0 = no idle reset */
	u64 line;		/* kbit/s */
	u64 min_rate;		/* kbit/s, at most @line */
	u32 line_mbps;		/* @line rounded up */
	u32 w_min;		/* Q20 */
	u32 w_max;		/* Q20 */
	u32 ce_pct;
	u32 min_pkts;
};

/**
 * struct pcn_qp - per-QP state
 * @rate: sendRate, kbit/s
 * @w: the increase weight, Q20
 * @rec_rate: RecRate of the last decrease taken, Mbit/s
 * @seq: sequence of the last report taken
 * @seq_valid: @seq is set
 * @t_tx: when the QP last sent a data packet
 * @tx_seen: @t_tx is set
 * @dec: decreases taken
 * @inc: increases taken
 * @foreign: CNPs without PCN's payload, ignored
 * @bad: malformed reports, ignored
 * @old: reports not after the last one taken, ignored
 * @ecn_mismatch: reports whose IP ECN disagreed with their DEC flag
 * @idle_resets: restarts as a new flow after idle time
 * @np_start: start of the receiver's current period
 * @np_len: its length so far: T, or more while it lacks min_pkts packets
 * @np_t_last: arrival of the last data packet
 * @np_gap: gap before the period's first packet, 0 if none
 * @np_bytes: bytes received in the period
 * @np_pkts: data packets received in the period
 * @np_ce: of those, CE
 * @np_active: a period is running
 * @np_seen: @np_t_last is set
 * @peer_cap: the peer's data carried CAP: it takes rate reports
 * @np_seq: sequence of the last report built
 * @np_rate: the last rate measured, Mbit/s
 * @np_dec: decreases sent
 * @np_inc: increases sent
 * @np_withheld: increases not sent: the peer is no rxe-cc peer
 */
struct pcn_qp {
	u64 rate;
	u32 w;
	u32 rec_rate;
	u32 seq;
	bool seq_valid;
	bool tx_seen;
	u64 t_tx;
	u64 dec;
	u64 inc;
	u64 foreign;
	u64 bad;
	u64 old;
	u64 ecn_mismatch;
	u64 idle_resets;

	u64 np_start;
	u64 np_len;
	u64 np_t_last;
	u64 np_gap;
	u64 np_bytes;
	u32 np_pkts;
	u32 np_ce;
	bool np_active;
	bool np_seen;
	bool peer_cap;
	u32 np_seq;
	u32 np_rate;
	u64 np_dec;
	u64 np_inc;
	u64 np_withheld;
};

static u32 pcn_in_range(u64 v, int i)
{
	return (u32)clamp_t(u64, v, pcn_params[i].min, pcn_params[i].max);
}

static void pcn_defaults(u32 *p, const struct rxe_cc_link *link)
{
	u64 rtt = min_t(u64, link->base_rtt_ns, (u64)T_US_MAX * NS_PER_US);
	int i;

	for (i = 0; i < P_NUM; i++)
		p[i] = pcn_params[i].def;
	/* §6.2: T is the largest RTT; the base RTT plus 10 %, whole us */
	if (rtt)
		p[P_PERIOD] = pcn_in_range(div64_u64(rtt * 11 + 9999, 10000),
					   P_PERIOD);
}

/* Legal but doubtful settings; the first one found is returned. */
static const char *pcn_warning(const struct pcn_cfg *c, const u32 *p,
			       const struct rxe_cc_link *link)
{
	if (p[P_MIN_RATE] > c->line)
		return "min_rate_kbps exceeds the line rate: the line rate is the floor";
	/* pitfall 4: decisions on stale marks over-adjust */
	if (link->base_rtt_ns && c->t_ns < link->base_rtt_ns)
		return "period_us is below the measured base RTT: the sender over-adjusts";
	return NULL;
}

static int pcn_setup(void *cfgp, const u32 *p, const struct rxe_cc_link *link,
		     const char **why)
{
	struct pcn_cfg *c = cfgp;
	int i;

	/* the framework checks the ranges first, with a better message */
	for (i = 0; i < P_NUM; i++) {
		if (p[i] < pcn_params[i].min || p[i] > pcn_params[i].max) {
			*why = "parameter out of range";
			return -EINVAL;
		}
	}
	if (p[P_W_MIN] > p[P_W_MAX]) {
		*why = "w_min exceeds w_max";
		return -EINVAL;
	}
	c->line = rxe_cc_line_kbps(link);
	if (c->line < 1000) {
		*why = "the line rate must be at least 1 Mbit/s";
		return -EINVAL;
	}
	c->line_mbps = (u32)div64_u64(c->line + 999, 1000);
	c->t_ns = (u64)p[P_PERIOD] * NS_PER_US;
	c->idle_ns = (u64)p[P_IDLE] * c->t_ns;
	c->w_min = p[P_W_MIN] << Q16_TO_Q20;
	c->w_max = p[P_W_MAX] << Q16_TO_Q20;
	c->ce_pct = p[P_CE_PCT];
	c->min_pkts = p[P_MIN_PKTS];
	c->min_rate = min_t(u64, p[P_MIN_RATE], c->line);

	*why = pcn_warning(c, p, link);
	return 0;
}

static void pcn_output(struct rxe_cc_ctx *cc)
{
	const struct pcn_qp *s = cc->priv;
	struct rxe_cc_out *out = &cc->out;

	out->rate_bps = s->rate * 1000;
	out->window_bytes = 0;
	out->flags &= ~(RXE_CC_OUT_TIMER | RXE_CC_OUT_RX_TIMER |
			RXE_CC_OUT_SEND_QUIET);
	if (s->np_active) {
		out->flags |= RXE_CC_OUT_RX_TIMER;
		out->rx_timer_ns = s->np_start + s->np_len;
	}
}

/* a new flow: the line rate, w_min */
static void pcn_restart(const struct pcn_cfg *c, struct pcn_qp *s)
{
	s->rate = c->line;
	s->w = c->w_min;
}

static void pcn_init(struct rxe_cc_ctx *cc, u64 now)
{
	pcn_restart(cc->cfg, cc->priv);
	pcn_output(cc);
}

/* new parameters: the rate within the new [min_rate, line] */
static void pcn_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	const struct pcn_cfg *c = cc->cfg;
	struct pcn_qp *s = cc->priv;

	s->rate = clamp_t(u64, s->rate, c->min_rate, c->line);
	s->w = clamp_t(u32, s->w, c->w_min, c->w_max);
	pcn_output(cc);
}

static void pcn_on_send(struct rxe_cc_ctx *cc, const struct rxe_cc_tx *tx,
			u64 now)
{
	const struct pcn_cfg *c = cc->cfg;
	struct pcn_qp *s = cc->priv;

	if (c->idle_ns && s->tx_seen && (s64)(now - s->t_tx) > (s64)c->idle_ns &&
	    (s->rate != c->line || s->w != c->w_min)) {
		pcn_restart(c, s);
		s->idle_resets++;
		cc->out.events |= RXE_CC_EV_RATE_INC;
	}
	s->t_tx = now;
	s->tx_seen = true;
	pcn_output(cc);
}

/**
 * rxe_cc_pcn_target() - where a decrease goes: RecRate * (1 - w_min)
 * @rate_mbps: RecRate, Mbit/s
 * @w_min: Q20
 *
 * Return: the rate in kbit/s.
 */
u64 rxe_cc_pcn_target(u32 rate_mbps, u32 w_min)
{
	return ((u64)rate_mbps * 1000 * (Q20_ONE - w_min)) >> 20;
}

/**
 * rxe_cc_pcn_increase() - Algorithm 1, lines 10-11, with the old w in both
 * @rate_kbps: sendRate, at most RXE_CC_RATE_KBPS_MAX
 * @w: the weight, Q20, at most 1
 * @line_kbps: the line rate, at most RXE_CC_RATE_KBPS_MAX
 * @w_max: Q20, below 1
 */
void rxe_cc_pcn_increase(u64 *rate_kbps, u32 *w, u64 line_kbps, u32 w_max)
{
	u64 v = *w;

	*rate_kbps = (*rate_kbps * (Q20_ONE - v) + line_kbps * v) >> 20;
	*w = (u32)(((v * (Q20_ONE - v)) >> 20) + (((u64)w_max * v) >> 20));
}

/* Algorithm 1, lines 6-7 */
static void pcn_decrease(const struct pcn_cfg *c, struct pcn_qp *s,
			 u32 rate_mbps)
{
	u64 tgt = rxe_cc_pcn_target(rate_mbps, c->w_min);

	s->rate = max(c->min_rate, min(s->rate, tgt));
	s->w = c->w_min;
}

static void pcn_increase(const struct pcn_cfg *c, struct pcn_qp *s)
{
	rxe_cc_pcn_increase(&s->rate, &s->w, c->line, c->w_max);
}

/* Is the report @fb well formed? */
static bool pcn_report_ok(const struct pcn_cfg *c, const struct rxe_cc_fb_cnp *fb)
{
	bool dec = fb->opcode == RXE_OPCODE_CNP;

	if (fb->version != RXE_CC_PCN_VERSION)
		return false;
	if (!!(fb->flags & RXE_CC_PCN_DEC) != dec)
		return false;
	/* a decrease needs a rate; any rate given must be one */
	if (!(fb->flags & RXE_CC_PCN_RATE_VALID))
		return !dec;
	return fb->rate_mbps && fb->rate_mbps <= c->line_mbps;
}

static void pcn_on_report(struct rxe_cc_ctx *cc, const struct rxe_cc_fb_cnp *fb)
{
	const struct pcn_cfg *c = cc->cfg;
	struct pcn_qp *s = cc->priv;
	bool dec = fb->opcode == RXE_OPCODE_CNP;
	u64 rate = s->rate;
	u32 ahead;

	if (!fb->pcn) {
		s->foreign++;
		return;
	}
	if (!pcn_report_ok(c, fb)) {
		s->bad++;
		cc->out.events |= RXE_CC_EV_FB_BAD;
		return;
	}
	ahead = fb->seq - s->seq;
	if (s->seq_valid && (!ahead || ahead >= SEQ_AHEAD_MAX)) {
		s->old++;
		cc->out.events |= RXE_CC_EV_FB_BAD;
		return;
	}
	s->seq = fb->seq;
	s->seq_valid = true;
	if (dec != (bool)(fb->ecn == RXE_CC_ECN_CE))
		s->ecn_mismatch++;

	if (dec) {
		s->dec++;
		s->rec_rate = fb->rate_mbps;
		pcn_decrease(c, s, fb->rate_mbps);
	} else {
		s->inc++;
		pcn_increase(c, s);
	}
	if (s->rate < rate)
		cc->out.events |= RXE_CC_EV_RATE_DEC;
	else if (s->rate > rate)
		cc->out.events |= RXE_CC_EV_RATE_INC;
}

/* the sender reacts to reports only (not to PAUSE) */
static void pcn_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			    const union rxe_cc_fb *fb, u64 now)
{
	if (kind == RXE_CC_FB_CNP)
		pcn_on_report(cc, &fb->cnp);
	pcn_output(cc);
}

static bool pcn_rx_data(struct rxe_cc_ctx *cc, const struct rxe_cc_rx *rx,
			u64 now, struct rxe_cc_np_msg *msg)
{
	const struct pcn_cfg *c = cc->cfg;
	struct pcn_qp *s = cc->priv;

	if (!s->np_active) {
		s->np_active = true;
		s->np_start = now;
		s->np_len = c->t_ns;
	}
	if (!s->np_pkts && s->np_seen)
		s->np_gap = now - s->np_t_last;
	s->np_pkts++;
	s->np_bytes += rx->bytes;
	if (rx->ecn == RXE_CC_ECN_CE)
		s->np_ce++;
	s->np_t_last = now;
	s->np_seen = true;
	if (rx->cap)
		s->peer_cap = true;
	pcn_output(cc);
	return false;
}

/* the receiving rate of the period that ends at @now, Mbit/s */
static u32 pcn_np_rate(const struct pcn_cfg *c, const struct pcn_qp *s,
		       u64 now)
{
	u64 interval = now - s->np_start;
	u64 bytes = min_t(u64, s->np_bytes, BYTES_MAX);
	u64 rate;

	/* one packet that came long after the one before: its gap */
	if (s->np_pkts == 1 && s->np_gap > interval &&
	    (!c->idle_ns || s->np_gap <= c->idle_ns))
		interval = min_t(u64, s->np_gap, GAP_CAP_PERIODS * c->t_ns);
	if (!interval)
		interval = 1;
	rate = div64_u64(bytes * 8000 + interval / 2, interval);
	return (u32)clamp_t(u64, rate, 1, c->line_mbps);
}

static bool pcn_rx_timer(struct rxe_cc_ctx *cc, u64 now,
			 struct rxe_cc_np_msg *msg)
{
	const struct pcn_cfg *c = cc->cfg;
	struct pcn_qp *s = cc->priv;
	bool dec, send;

	if (!s->np_active || rxe_cc_before(now, s->np_start + s->np_len)) {
		pcn_output(cc);
		return false;
	}
	if (!s->np_pkts) {
		/* no packet in T: no report, no period until the next one */
		s->np_active = false;
		pcn_output(cc);
		return false;
	}
	/* too few packets for the 95 % rule: the period runs on */
	if (s->np_pkts < c->min_pkts &&
	    s->np_len < GAP_CAP_PERIODS * c->t_ns) {
		s->np_len += c->t_ns;
		pcn_output(cc);
		return false;
	}
	dec = (u64)s->np_ce * 100 >= (u64)c->ce_pct * s->np_pkts;
	s->np_rate = pcn_np_rate(c, s, now);
	s->np_seq++;
	send = dec || s->peer_cap;
	if (send) {
		msg->type = dec ? RXE_CC_MSG_PCN_DEC : RXE_CC_MSG_PCN_INC;
		msg->dscp = 0xff;
		msg->pcp = 0xff;
		msg->flags = RXE_CC_PCN_RATE_VALID | (dec ? RXE_CC_PCN_DEC : 0);
		msg->rate_mbps = s->np_rate;
		msg->seq = s->np_seq;
		if (dec)
			s->np_dec++;
		else
			s->np_inc++;
	} else {
		s->np_withheld++;
	}
	s->np_start = now;
	s->np_len = c->t_ns;
	s->np_pkts = 0;
	s->np_ce = 0;
	s->np_bytes = 0;
	s->np_gap = 0;
	pcn_output(cc);
	return send;
}

static void pcn_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *v)
{
	const struct pcn_qp *s = cc->priv;

	v[S_RATE] = s->rate;
	v[S_W] = s->w >> Q16_TO_Q20;
	v[S_REC_RATE] = (u64)s->rec_rate * 1000;
	v[S_DEC] = s->dec;
	v[S_INC] = s->inc;
	v[S_FOREIGN] = s->foreign;
	v[S_BAD] = s->bad;
	v[S_OLD] = s->old;
	v[S_ECN_MISMATCH] = s->ecn_mismatch;
	v[S_IDLE_RESETS] = s->idle_resets;
	v[S_PEER_CAP] = s->peer_cap;
	v[S_NP_RATE] = (u64)s->np_rate * 1000;
	v[S_NP_DEC] = s->np_dec;
	v[S_NP_INC] = s->np_inc;
	v[S_NP_WITHHELD] = s->np_withheld;
	v[S_NP_PKTS] = s->np_pkts;
	v[S_NP_CE] = s->np_ce;
}

struct rxe_cc_ops rxe_cc_pcn_ops = {
	.name = "pcn",
	.wire = RXE_CC_WIRE_ECT | RXE_CC_WIRE_CNP_RX | RXE_CC_WIRE_CNP_TX |
		RXE_CC_WIRE_PCN,
	.priv_size = sizeof(struct pcn_qp),
	.cfg_size = sizeof(struct pcn_cfg),
	.params = pcn_params,
	.n_params = P_NUM,
	.state = pcn_state_desc,
	.n_state = S_NUM,
	.defaults = pcn_defaults,
	.setup = pcn_setup,
	.init = pcn_init,
	.on_send = pcn_on_send,
	.on_feedback = pcn_on_feedback,
	.on_timer = pcn_on_timer,
	.rx_data = pcn_rx_data,
	.rx_timer = pcn_rx_timer,
	.get_state = pcn_get_state,
};
