// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc ACCurate: explicit max-min fair rates from flow rate packets
 * ("Optimizing Network Congestion Control for High-Performance Remote
 * Direct Memory Access Transfers"), the reaction point (the flow's source)
 * of specs/accurate.md §2.7.
 *
 * Time is cut into rate re-evaluation periods (RRPs) of rrp_us, numbered
 * by the epoch floor(now / RRP) mod 2^16 of the host's clock, which every
 * host and switch of the testbed shares. An active flow sends one flow
 * rate packet (FRP, opcode 0xC0) per RRP, phase_us after its boundary,
 * carrying its current rate CR = R and its desired rate DR = DR_src. Each
 * contention point on the path lowers CR to its fair share where it is the
 * bottleneck and DR to its fair share everywhere; the receiver echoes the
 * FRP (0xC1), and a switch far above its fair share may answer at once
 * with a short-circuit (SC). On a response:
 *
 *	end to end:	R = clamp(max(CR, DR), min_rate, DR_src)
 *	short-circuit:	R = max(min_rate, min(R, CR))	(only slows)
 *
 * A flow starts with an INIT FRP at R = INIT_RATE, sent at once, and ends
 * with a STOP (CR = R, DR = 0) whose COUNTED flag tells the contention
 * points that this RRP's FRP was already sent, so they take it back out
 * of the RRP's sums. Rates change only on responses; the framework's pacer
 * sends at R (rate_bps).
 *
 * A response is taken only if it is well formed: the version, RESP, type
 * NORMAL or INIT, CR and DR from 1 kbit/s to the line rate, and an epoch
 * that is not after the last FRP sent; any other is counted (bad_rx) and
 * flagged RXE_CC_EV_FB_BAD. One older than the last response taken (u16
 * serial arithmetic) is stale (§2.7 line 11): counted (stale_rx), flagged
 * likewise, as PCN flags an old report. Both change nothing. A response
 * for a flow that is not active is late, not malformed: it is counted
 * (inactive_rx) and dropped without the flag.
 *
 * Readings beyond specs/accurate.md:
 *
 * - Activity (§2.7 lines 1 and 7, §7 item 13). The framework reports sent
 *   packets, not pending bytes, so a flow becomes active once it has sent
 *   small_flow_bytes since it was last idle (0: at its first packet), the
 *   INIT going right after the packet that crossed the threshold, and it
 *   is idle once it has sent no data packet for idle_stop_rrps RRPs while
 *   the framework saw nothing waiting to be sent (RXE_CC_IN_BACKLOG: the
 *   send queue not empty, or the gate holding a packet; §7 item 13).
 *   Retransmissions count as sent packets.
 * - The STOP goes when the flow becomes idle (rx_timer is armed for that
 *   instant), not at the next RRP's phase: at the phase this RRP's FRP has
 *   not gone yet, so a STOP there would carry nothing to take back; sent
 *   when the flow goes idle, it is COUNTED if the RRP's FRP went before
 *   it, and the flow's share is free one RRP earlier. A COUNTED STOP
 *   carries the CR of that FRP, so the contention points reverse exactly
 *   what they counted (§2.4 line 36); an uncounted one carries R.
 * - The framework sends FRPs only to a peer whose packets carried CAP
 *   (RXE_CC_IN_PEER_CAP), and a flow's first packets go before its first
 *   ACK: an INIT that went before CAP was known goes again as soon as a
 *   hook sees CAP, rather than the flow waiting for the next RRP's NORMAL.
 * - INIT_RATE is DR_src (the line rate unless dr_kbps caps it): a flow
 *   never starts above the rate it wants. An inactive flow is not rate
 *   limited beyond that: its rate is INIT_RATE too.
 * - The FRP of an RRP goes at its phase or later in the same RRP; a timer
 *   served before the phase waits for it, and an RRP whose phase the QP
 *   missed entirely sends no FRP (the contention points under-count the
 *   flow once, §7 item 11). Only one FRP goes per rx_timer call: a STOP
 *   due together with a new flow's INIT goes first, the INIT right after.
 * - Staleness is measured against the epoch of the last end-to-end
 *   response taken, or of the INIT before the first one, so a response
 *   to an earlier activity of the QP is stale. A short-circuit does not
 *   move it (§2.7 line 14).
 * - RESP_TIMEOUT (§2.7, §3.5): an RRP whose FRP got no end-to-end response
 *   before the next FRP is missed; once more than resp_timeout_rrps RRPs in
 *   a row are missed, each further one is counted (resp_timeouts) and the
 *   flow is flagged no_resp until a response is taken. R is kept.
 * - The u64 clock's wrap cuts one RRP short and restarts the epochs at 0;
 *   FRPs keep their pace across it, and the stale floor follows the epoch
 *   back.
 * - Rates are the link's (§4.2: a frame costs its IP length, 14 bytes of
 *   Ethernet header and 24 of preamble, IFG and FCS), as the contention
 *   points count them; the framework's pacer charges frames without those
 *   24 bytes, so the QP is paced at R * F / (F + link_overhead_bytes), F
 *   being what the pacer charges a frame of a full MTU.
 *
 * Integer only: rates in kbit/s (u64, at most RXE_CC_RATE_KBPS_MAX, the
 * values of the FRPs used exactly as the contention points computed them,
 * §7 item 8), times in ns of the QP's clock, compared through their signed
 * difference; one division per rx_timer call (the RRP number) and one per
 * rate change (the pacing rate).
 */

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "rxe_cc.h"

#define NS_PER_US	1000ULL

#define RRP_US_MIN	10
#define RRP_US_MAX	1000000		/* 1 s */
#define RRPS_MAX	100000
#define SMALL_FLOW_MAX	0x40000000	/* 1 GiB */
#define EPOCH_MASK	0xffffU
/* an FRP on the wire: a 74-byte frame, preamble, IFG and FCS (§3.2) */
#define FRP_WIRE_BITS	(98 * 8)
/*
 * What the framework's pacer charges a full data frame beyond its MTU of
 * payload: BTH, ICRC, IPv4, UDP and Ethernet headers (rxe_cc_wire_bytes)
 */
#define PACED_HDR_BYTES	(12 + 4 + 20 + 8 + 14)
#define OVERHEAD_MAX	256

enum acr_param {
	P_RRP,
	P_PHASE,
	P_DR,
	P_MIN_RATE,
	P_SMALL_FLOW,
	P_IDLE_STOP,
	P_RESP_TIMEOUT,
	P_OVERHEAD,
	P_NUM
};

static const struct rxe_cc_param_desc acr_params[P_NUM] = {
	[P_RRP] = { "rrp_us",
		"RRP: one FRP per period; at least 4 base RTTs and 10 timer jitters",
		RXE_CC_UNIT_US, 1000, RRP_US_MIN, RRP_US_MAX },
	[P_PHASE] = { "phase_us",
		"FRPs go this long after each RRP boundary; 0 = rrp_us / 10",
		RXE_CC_UNIT_US, 0, 0, RRP_US_MAX - 1 },
	[P_DR] = { "dr_kbps",
		"DR_src: the rate the flow wants and starts at; 0 = the line rate",
		RXE_CC_UNIT_KBPS, 0, 0, RXE_CC_RATE_KBPS_MAX },
	[P_MIN_RATE] = { "min_rate_kbps",
		"lowest rate, whatever the responses say (line / 1000)",
		RXE_CC_UNIT_KBPS, 100, 1, RXE_CC_RATE_KBPS_MAX },
	[P_SMALL_FLOW] = { "small_flow_bytes",
		"a flow sends FRPs once it has sent this much since it was idle",
		RXE_CC_UNIT_BYTES, 4096, 0, SMALL_FLOW_MAX },
	[P_IDLE_STOP] = { "idle_stop_rrps",
		"a flow without a data packet for this many RRPs sends a STOP",
		RXE_CC_UNIT_NONE, 1, 1, RRPS_MAX },
	[P_RESP_TIMEOUT] = { "resp_timeout_rrps",
		"flag the flow after this many RRPs in a row without a response",
		RXE_CC_UNIT_NONE, 4, 1, RRPS_MAX },
	[P_OVERHEAD] = { "link_overhead_bytes",
		"bytes a link carries per frame beyond what the pacer charges (preamble, IFG, FCS)",
		RXE_CC_UNIT_BYTES, 24, 0, OVERHEAD_MAX },
};

enum acr_state_value {
	S_RATE,
	S_DR,
	S_ACTIVE,
	S_EPOCH,
	S_FRP_NORMAL,
	S_FRP_INIT,
	S_FRP_STOP,
	S_RESP_RX,
	S_SC_RX,
	S_STALE_RX,
	S_BAD_RX,
	S_INACTIVE_RX,
	S_RATE_UP,
	S_RATE_DOWN,
	S_RESP_TIMEOUTS,
	S_NO_RESP,
	S_RESP_CR,
	S_RESP_DR,
	S_TX_EPOCH,
	S_NUM
};

static const struct rxe_cc_state_desc acr_state_desc[S_NUM] = {
	[S_RATE] = { "rate_kbps", RXE_CC_UNIT_KBPS },
	[S_DR] = { "dr_kbps", RXE_CC_UNIT_KBPS },
	[S_ACTIVE] = { "active", RXE_CC_UNIT_BOOL },
	[S_EPOCH] = { "epoch", RXE_CC_UNIT_NONE },
	[S_FRP_NORMAL] = { "frp_tx_normal", RXE_CC_UNIT_NONE },
	[S_FRP_INIT] = { "frp_tx_init", RXE_CC_UNIT_NONE },
	[S_FRP_STOP] = { "frp_tx_stop", RXE_CC_UNIT_NONE },
	[S_RESP_RX] = { "resp_rx", RXE_CC_UNIT_NONE },
	[S_SC_RX] = { "sc_rx", RXE_CC_UNIT_NONE },
	[S_STALE_RX] = { "stale_rx", RXE_CC_UNIT_NONE },
	[S_BAD_RX] = { "bad_rx", RXE_CC_UNIT_NONE },
	[S_INACTIVE_RX] = { "inactive_rx", RXE_CC_UNIT_NONE },
	[S_RATE_UP] = { "rate_up", RXE_CC_UNIT_NONE },
	[S_RATE_DOWN] = { "rate_down", RXE_CC_UNIT_NONE },
	[S_RESP_TIMEOUTS] = { "resp_timeouts", RXE_CC_UNIT_NONE },
	[S_NO_RESP] = { "no_resp", RXE_CC_UNIT_BOOL },
	[S_RESP_CR] = { "resp_cr_kbps", RXE_CC_UNIT_KBPS },
	[S_RESP_DR] = { "resp_dr_kbps", RXE_CC_UNIT_KBPS },
	[S_TX_EPOCH] = { "tx_epoch", RXE_CC_UNIT_NONE },
};

/* compiled parameters */
struct acr_cfg {
	u64 rrp_ns;		/* 10^4 .. 10^9 */
	u64 phase_ns;		/* below @rrp_ns */
	u64 idle_ns;		/* idle_stop_rrps RRPs, at most 10^14 */
	u64 line;		/* kbit/s, 1 .. 2^31 */
	u64 dr;			/* DR_src = INIT_RATE, kbit/s, 1 .. @line */
	u64 min_rate;		/* kbit/s, 1 .. @dr */
	u64 small_flow;		/* bytes */
	u32 resp_timeout;	/* RRPs */
	u32 frame;		/* bytes the pacer charges a full frame */
	u32 overhead;		/* bytes the link adds to each frame */
};

/**
 * struct acr_qp - per-QP state (specs/accurate.md §2.7)
 * @rate: R, kbit/s
 * @pace_bps: the pacer's rate for R (link_overhead_bytes)
 * @t_last: when the QP last sent a data packet or, active, had one waiting
 * @idle_bytes: bytes sent since the flow was last idle, while inactive
 * @next_tick: the next FRP instant, an RRP boundary plus the phase
 * @tick_rrp_ns: the RRP @next_tick was computed with
 * @tick_phase_ns: the phase likewise
 * @t_pend: when the pending STOP or INIT became due
 * @counted_rrp: RRP number of the last INIT or NORMAL sent (counted_epoch)
 * @frp_cr: the CR that FRP carried
 * @stop_cr: R when the flow went idle
 * @resp_cr: CR of the last response taken
 * @resp_dr: DR of the last response taken
 * @missed: RRPs in a row whose FRP got no end-to-end response
 * @last_epoch: epoch of the last end-to-end response taken, or of the INIT
 * @active: the flow is controlled
 * @started: its INIT has gone
 * @init_pending: the INIT is due
 * @init_withheld: the INIT went before the peer's CAP was known, so the
 *	framework withheld it; it goes again once CAP is known
 * @stop_pending: the STOP is due
 * @tx_seen: @t_last is set
 * @resp_seen: an end-to-end response was taken since the last FRP
 * @no_resp: more than resp_timeout_rrps RRPs in a row were missed
 * @frp_tx_normal: NORMAL FRPs sent
 * @frp_tx_init: INIT FRPs sent
 * @frp_tx_stop: STOP FRPs sent
 * @resp_rx: end-to-end responses taken
 * @sc_rx: short-circuits taken
 * @stale_rx: responses older than @last_epoch, dropped
 * @bad_rx: malformed responses, dropped
 * @inactive_rx: responses for an inactive flow, dropped
 * @rate_up: rate increases
 * @rate_down: rate decreases
 * @resp_timeouts: RRPs missed beyond resp_timeout_rrps
 */
struct acr_qp {
	u64 rate;
	u64 pace_bps;
	u64 t_last;
	u64 idle_bytes;
	u64 next_tick;
	u64 tick_rrp_ns;
	u64 tick_phase_ns;
	u64 t_pend;
	u64 counted_rrp;
	u32 frp_cr;
	u32 stop_cr;
	u32 resp_cr;
	u32 resp_dr;
	u32 missed;
	u16 last_epoch;
	bool active;
	bool started;
	bool init_pending;
	bool init_withheld;
	bool stop_pending;
	bool tx_seen;
	bool resp_seen;
	bool no_resp;
	u64 frp_tx_normal;
	u64 frp_tx_init;
	u64 frp_tx_stop;
	u64 resp_rx;
	u64 sc_rx;
	u64 stale_rx;
	u64 bad_rx;
	u64 inactive_rx;
	u64 rate_up;
	u64 rate_down;
	u64 resp_timeouts;
};

/* true if epoch @a is before epoch @b, in u16 serial arithmetic */
static bool acr_epoch_older(u16 a, u16 b)
{
	return (s16)(a - b) < 0;
}

/* @v clamped to the range of parameter @i */
static u32 acr_in_range(u64 v, int i)
{
	return (u32)clamp_t(u64, v, acr_params[i].min, acr_params[i].max);
}

static void acr_defaults(u32 *p, const struct rxe_cc_link *link)
{
	u64 rtt = min_t(u64, link->base_rtt_ns, (u64)RRP_US_MAX * NS_PER_US);
	u64 line = rxe_cc_line_kbps(link);
	int i;

	for (i = 0; i < P_NUM; i++)
		p[i] = acr_params[i].def;
	/* §2.2: the RRP is at least 4 base RTTs, whole us */
	if (rtt)
		p[P_RRP] = acr_in_range(max_t(u64, p[P_RRP],
					      div64_u64(4 * rtt + NS_PER_US - 1,
							NS_PER_US)), P_RRP);
	/* §2.2: MIN_RATE = C / 1000 */
	if (line)
		p[P_MIN_RATE] = acr_in_range(div64_u64(line, 1000), P_MIN_RATE);
}

/* Legal but doubtful settings; the first one found is returned. */
static const char *acr_warning(const struct acr_cfg *c, const u32 *p,
			       const struct rxe_cc_link *link)
{
	u64 rtt = link->base_rtt_ns;

	if (p[P_DR] > c->line)
		return "dr_kbps exceeds the line rate: the line rate is the desired rate";
	if (p[P_MIN_RATE] > c->dr)
		return "min_rate_kbps exceeds the desired rate: the desired rate is the floor";
	/* §2.2, §7 item 1: the response is back before the next FRP */
	if (rtt && c->rrp_ns < 4 * rtt)
		return "rrp_us is below 4 base RTTs: responses come after the next FRP";
	/* §4.6 (a): the FRP reaches the last hop within its RRP */
	if (rtt && c->phase_ns + rtt / 2 >= c->rrp_ns)
		return "phase_us plus the one-way delay pass the RRP: FRPs land in the next one";
	/* §7 item 3: one flow's FRPs take more than 1 % of the line */
	if ((u64)FRP_WIRE_BITS * 100000000ULL > c->line * c->rrp_ns)
		return "one flow's FRPs take more than 1 % of the line rate: raise rrp_us";
	return NULL;
}

static int acr_setup(void *cfgp, const u32 *p, const struct rxe_cc_link *link,
		     const char **why)
{
	struct acr_cfg *c = cfgp;
	int i;

	/* the framework checks the ranges first, with a better message */
	for (i = 0; i < P_NUM; i++) {
		if (p[i] < acr_params[i].min || p[i] > acr_params[i].max) {
			*why = "parameter out of range";
			return -EINVAL;
		}
	}
	c->line = rxe_cc_line_kbps(link);
	if (!c->line) {
		*why = "the line rate must be at least 1 kbit/s";
		return -EINVAL;
	}
	c->rrp_ns = (u64)p[P_RRP] * NS_PER_US;
	c->phase_ns = (u64)p[P_PHASE] * NS_PER_US;
	if (!p[P_PHASE])
		c->phase_ns = (u64)p[P_RRP] * (NS_PER_US / 10);
	if (c->phase_ns >= c->rrp_ns) {
		*why = "phase_us must be below rrp_us";
		return -EINVAL;
	}
	c->idle_ns = (u64)p[P_IDLE_STOP] * c->rrp_ns;
	c->dr = p[P_DR] ? min_t(u64, p[P_DR], c->line) : c->line;
	c->min_rate = min_t(u64, p[P_MIN_RATE], c->dr);
	c->small_flow = p[P_SMALL_FLOW];
	c->resp_timeout = p[P_RESP_TIMEOUT];
	c->frame = (link->mtu ? link->mtu : 1024) + PACED_HDR_BYTES;
	c->overhead = p[P_OVERHEAD];

	*why = acr_warning(c, p, link);
	return 0;
}

/*
 * The next FRP instant after the one due at @now: the phase of this RRP if
 * @now is before it, else that of the next RRP. @pos is @now's offset in
 * its RRP. The RRP the u64 clock's wrap cuts short ends at 0.
 */
static void acr_plan(const struct acr_cfg *c, struct acr_qp *s, u64 now,
		     u64 pos)
{
	u64 to_boundary = c->rrp_ns - pos;

	s->tick_rrp_ns = c->rrp_ns;
	s->tick_phase_ns = c->phase_ns;
	if (pos < c->phase_ns) {
		s->next_tick = now + (c->phase_ns - pos);
		return;
	}
	if (now + to_boundary < now)
		to_boundary = -now;
	s->next_tick = now + to_boundary + c->phase_ns;
}

/* the RRP number of @now and @now's offset in it */
static u64 acr_rrp(const struct acr_cfg *c, u64 now, u64 *pos)
{
	u64 k = div64_u64(now, c->rrp_ns);

	*pos = now - k * c->rrp_ns;
	return k;
}

static void acr_output(struct rxe_cc_ctx *cc)
{
	const struct acr_cfg *c = cc->cfg;
	const struct acr_qp *s = cc->priv;
	struct rxe_cc_out *out = &cc->out;
	u64 t, idle;

	out->rate_bps = s->pace_bps;
	out->window_bytes = 0;
	out->flags &= ~(RXE_CC_OUT_TIMER | RXE_CC_OUT_RX_TIMER |
			RXE_CC_OUT_SEND_QUIET);
	if (s->stop_pending || s->init_pending) {
		t = s->t_pend;
	} else if (s->active) {
		t = s->next_tick;
		idle = s->t_last + c->idle_ns;
		if (rxe_cc_before(idle, t))
			t = idle;
	} else {
		return;
	}
	out->flags |= RXE_CC_OUT_RX_TIMER;
	out->rx_timer_ns = t;
}

/* R is the link's rate (§4.2's S): the pacer's bytes lack the overhead */
static void acr_pace(const struct acr_cfg *c, struct acr_qp *s)
{
	s->pace_bps = div64_u64(s->rate * 1000 * c->frame,
				c->frame + c->overhead);
}

static void acr_set_rate(struct rxe_cc_ctx *cc, u64 rate)
{
	struct acr_qp *s = cc->priv;

	if (rate < s->rate) {
		s->rate_down++;
		cc->out.events |= RXE_CC_EV_RATE_DEC;
	} else if (rate > s->rate) {
		s->rate_up++;
		cc->out.events |= RXE_CC_EV_RATE_INC;
	}
	s->rate = rate;
	acr_pace(cc->cfg, s);
}

/* the flow has sent enough: INIT_RATE, and the INIT goes at once */
static void acr_activate(struct rxe_cc_ctx *cc, u64 now)
{
	const struct acr_cfg *c = cc->cfg;
	struct acr_qp *s = cc->priv;

	s->active = true;
	s->started = false;
	s->init_pending = true;
	s->t_pend = now;
	s->idle_bytes = 0;
	acr_set_rate(cc, c->dr);
}

/*
 * The INIT goes again, at once, when the peer's CAP is first seen after
 * the framework withheld it (a flow's first packets go before its first
 * ACK): the contention points count the flow from then on instead of
 * from its first NORMAL, an RRP later.
 */
static void acr_cap_check(struct rxe_cc_ctx *cc, u64 now)
{
	struct acr_qp *s = cc->priv;

	if (!s->init_withheld || !(cc->in & RXE_CC_IN_PEER_CAP))
		return;
	s->init_withheld = false;
	if (s->active && s->started && !s->init_pending && !s->stop_pending) {
		s->init_pending = true;
		s->t_pend = now;
	}
}

/*
 * An active flow that has sent no data packet and had none waiting
 * (RXE_CC_IN_BACKLOG) for idle_stop_rrps RRPs is idle: its STOP is due
 * and it is no longer rate limited. No STOP goes if its INIT never went,
 * or went only while the peer's CAP was unknown, so that the framework
 * withheld it (a short flow can end before its first ACK shows CAP): the
 * contention points never counted the flow, and a STOP would take
 * another flow's place from them. A flow its pacer, PAUSE or the peer's
 * window hold is busy.
 */
static void acr_idle_check(struct rxe_cc_ctx *cc, u64 now)
{
	const struct acr_cfg *c = cc->cfg;
	struct acr_qp *s = cc->priv;

	if (s->active && (cc->in & RXE_CC_IN_BACKLOG))
		s->t_last = now;
	if (!s->active || rxe_cc_before(now, s->t_last + c->idle_ns))
		return;
	s->active = false;
	s->idle_bytes = 0;
	if (s->started && !s->init_withheld) {
		s->stop_pending = true;
		s->t_pend = now;
		s->stop_cr = (u32)s->rate;
	}
	s->started = false;
	s->init_pending = false;
	s->init_withheld = false;
	acr_set_rate(cc, c->dr);
}

static void acr_init(struct rxe_cc_ctx *cc, u64 now)
{
	const struct acr_cfg *c = cc->cfg;
	struct acr_qp *s = cc->priv;
	u64 pos;

	s->rate = c->dr;
	acr_pace(c, s);
	acr_rrp(c, now, &pos);
	acr_plan(c, s, now, pos);
	acr_output(cc);
}

/* new parameters: the rate within the new [min_rate, DR_src] */
static void acr_on_timer(struct rxe_cc_ctx *cc, u64 now)
{
	const struct acr_cfg *c = cc->cfg;
	struct acr_qp *s = cc->priv;
	u64 pos;

	acr_idle_check(cc, now);
	if (s->active)
		acr_set_rate(cc, clamp_t(u64, s->rate, c->min_rate, c->dr));
	else
		acr_set_rate(cc, c->dr);
	if (s->tick_rrp_ns != c->rrp_ns || s->tick_phase_ns != c->phase_ns) {
		acr_rrp(c, now, &pos);
		acr_plan(c, s, now, pos);
	}
	acr_output(cc);
}

static void acr_on_send(struct rxe_cc_ctx *cc, const struct rxe_cc_tx *tx,
			u64 now)
{
	const struct acr_cfg *c = cc->cfg;
	struct acr_qp *s = cc->priv;

	acr_idle_check(cc, now);
	acr_cap_check(cc, now);
	if (!s->active) {
		if (s->tx_seen && rxe_cc_after_eq(now, s->t_last + c->idle_ns))
			s->idle_bytes = 0;
		s->idle_bytes += tx->bytes;
		if (s->idle_bytes >= c->small_flow)
			acr_activate(cc, now);
	}
	s->t_last = now;
	s->tx_seen = true;
	acr_output(cc);
}

/* Is the response @p well formed? */
static bool acr_resp_ok(const struct acr_cfg *c, const struct rxe_cc_frp *p)
{
	if (p->version != RXE_CC_FRP_VERSION || !(p->flags & RXE_CC_FRP_RESP))
		return false;
	if (p->type != RXE_CC_FRP_NORMAL && p->type != RXE_CC_FRP_INIT)
		return false;
	return p->cr_kbps && p->cr_kbps <= c->line &&
	       p->dr_kbps && p->dr_kbps <= c->line;
}

/* §2.7 lines 10-14 */
static void acr_on_resp(struct rxe_cc_ctx *cc, const struct rxe_cc_frp *p)
{
	const struct acr_cfg *c = cc->cfg;
	struct acr_qp *s = cc->priv;
	u64 rate;

	/* an epoch after the last FRP sent answers no FRP of ours */
	if (!acr_resp_ok(c, p) ||
	    (s->started &&
	     acr_epoch_older(s->counted_rrp & EPOCH_MASK, p->epoch))) {
		s->bad_rx++;
		cc->out.events |= RXE_CC_EV_FB_BAD;
		return;
	}
	if (!s->active || !s->started) {
		s->inactive_rx++;
		return;
	}
	if (acr_epoch_older(p->epoch, s->last_epoch)) {
		s->stale_rx++;
		cc->out.events |= RXE_CC_EV_FB_BAD;
		return;
	}
	s->resp_cr = p->cr_kbps;
	s->resp_dr = p->dr_kbps;
	if (p->flags & RXE_CC_FRP_SC) {
		s->sc_rx++;
		rate = max_t(u64, c->min_rate, min_t(u64, s->rate, p->cr_kbps));
	} else {
		s->resp_rx++;
		rate = max(p->cr_kbps, p->dr_kbps);
		rate = clamp_t(u64, rate, c->min_rate, c->dr);
		s->last_epoch = p->epoch;
		s->resp_seen = true;
		s->missed = 0;
		s->no_resp = false;
	}
	acr_set_rate(cc, rate);
}

/* the sender reacts to FRP responses only */
static void acr_on_feedback(struct rxe_cc_ctx *cc, enum rxe_cc_fb_kind kind,
			    const union rxe_cc_fb *fb, u64 now)
{
	acr_idle_check(cc, now);
	if (kind == RXE_CC_FB_FRP)
		acr_on_resp(cc, &fb->frp);
	acr_output(cc);
}

static void acr_msg(struct rxe_cc_np_msg *msg, u8 type, u8 flags, u64 k,
		    u32 cr, u32 dr)
{
	msg->type = RXE_CC_MSG_FRP;
	msg->dscp = 0xff;
	msg->pcp = 0xff;
	msg->flags = 0;
	msg->rate_mbps = 0;
	msg->seq = 0;
	msg->frp.type = type;
	msg->frp.flags = flags;
	msg->frp.sc_hop = 0;
	msg->frp.epoch = k & EPOCH_MASK;
	msg->frp.cr_kbps = cr;
	msg->frp.dr_kbps = dr;
	msg->frp.version = RXE_CC_FRP_VERSION;
	msg->frp.src_qpn = 0;
}

/* an INIT or NORMAL for RRP @k: the flow's FRP of this RRP */
static void acr_counted(struct acr_qp *s, u64 k)
{
	u16 e = k & EPOCH_MASK;

	s->counted_rrp = k;
	s->frp_cr = (u32)s->rate;
	s->resp_seen = false;
	/* the epochs went back: the u64 clock wrapped */
	if (acr_epoch_older(e, s->last_epoch))
		s->last_epoch = e;
}

/* an RRP's FRP goes: was the previous one answered? */
static void acr_resp_check(const struct acr_cfg *c, struct acr_qp *s)
{
	if (s->resp_seen) {
		s->missed = 0;
		return;
	}
	s->missed++;
	if (s->missed > c->resp_timeout) {
		s->resp_timeouts++;
		s->no_resp = true;
	}
}

/* §2.7 lines 1-9: the flow's FRPs */
static bool acr_rx_timer(struct rxe_cc_ctx *cc, u64 now,
			 struct rxe_cc_np_msg *msg)
{
	const struct acr_cfg *c = cc->cfg;
	struct acr_qp *s = cc->priv;
	bool counted, send = true;
	u64 k, pos;

	acr_idle_check(cc, now);
	acr_cap_check(cc, now);
	k = acr_rrp(c, now, &pos);
	acr_plan(c, s, now, pos);
	if (s->stop_pending) {
		counted = s->counted_rrp == k;
		acr_msg(msg, RXE_CC_FRP_STOP, counted ? RXE_CC_FRP_COUNTED : 0,
			k, counted ? s->frp_cr : s->stop_cr, 0);
		s->stop_pending = false;
		s->frp_tx_stop++;
		/* a new flow's INIT, right after */
		s->t_pend = now;
	} else if (s->init_pending) {
		s->last_epoch = k & EPOCH_MASK;
		acr_counted(s, k);
		acr_msg(msg, RXE_CC_FRP_INIT, 0, k, s->frp_cr, (u32)c->dr);
		s->init_pending = false;
		s->init_withheld = !(cc->in & RXE_CC_IN_PEER_CAP);
		s->started = true;
		s->missed = 0;
		s->no_resp = false;
		s->frp_tx_init++;
	} else if (s->active && pos >= c->phase_ns && s->counted_rrp != k) {
		acr_resp_check(c, s);
		acr_counted(s, k);
		acr_msg(msg, RXE_CC_FRP_NORMAL, 0, k, s->frp_cr, (u32)c->dr);
		s->frp_tx_normal++;
	} else {
		send = false;
	}
	acr_output(cc);
	return send;
}

static void acr_get_state(const struct rxe_cc_ctx *cc, u64 now, u64 *v)
{
	const struct acr_cfg *c = cc->cfg;
	const struct acr_qp *s = cc->priv;

	v[S_RATE] = s->rate;
	v[S_DR] = c->dr;
	v[S_ACTIVE] = s->active;
	v[S_EPOCH] = s->last_epoch;
	v[S_FRP_NORMAL] = s->frp_tx_normal;
	v[S_FRP_INIT] = s->frp_tx_init;
	v[S_FRP_STOP] = s->frp_tx_stop;
	v[S_RESP_RX] = s->resp_rx;
	v[S_SC_RX] = s->sc_rx;
	v[S_STALE_RX] = s->stale_rx;
	v[S_BAD_RX] = s->bad_rx;
	v[S_INACTIVE_RX] = s->inactive_rx;
	v[S_RATE_UP] = s->rate_up;
	v[S_RATE_DOWN] = s->rate_down;
	v[S_RESP_TIMEOUTS] = s->resp_timeouts;
	v[S_NO_RESP] = s->no_resp;
	v[S_RESP_CR] = s->resp_cr;
	v[S_RESP_DR] = s->resp_dr;
	v[S_TX_EPOCH] = s->counted_rrp & EPOCH_MASK;
}

struct rxe_cc_ops rxe_cc_accurate_ops = {
	.name = "accurate",
	.wire = RXE_CC_WIRE_CNP_TX | RXE_CC_WIRE_FRP,
	.flags = RXE_CC_F_IN,
	.priv_size = sizeof(struct acr_qp),
	.cfg_size = sizeof(struct acr_cfg),
	.params = acr_params,
	.n_params = P_NUM,
	.state = acr_state_desc,
	.n_state = S_NUM,
	.defaults = acr_defaults,
	.setup = acr_setup,
	.init = acr_init,
	.on_send = acr_on_send,
	.on_feedback = acr_on_feedback,
	.on_timer = acr_on_timer,
	.rx_timer = acr_rx_timer,
	.get_state = acr_get_state,
};
