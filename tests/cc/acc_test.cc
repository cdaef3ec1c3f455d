// ACC core (drivers/infiniband/sw/rxe/rxe_cc_acc.c) against the worked
// examples of specs/acc.md §2.13 and Algorithm 1 / §2.9 line by line, plus
// seeded random runs for the halt ceiling and for lazy against on-time
// period processing. Times in ns from QP creation; rates in kbit/s; bytes
// as the framework charges them.
//
// Unless a test says otherwise the link is 10 Gbit/s with T = 50 us (the
// paper's testbed), data packets of 625 bytes (500 ns at 10 Gbit/s, so a
// period at line rate is 100 packets = 62 500 bytes), and one ACK per
// packet. Defaults at 10 Gbit/s: RI_Low = 10^7 / 250 = 40 000 kbit/s,
// RI_High = 400 000, min rate = 10^7 / 1000 = 10 000, p_thresh = 1,
// ce_pct = 90. The fixed point of the core:
//   R      = dA * 8e6 / dt           (kbit/s, dt = T or the ACK gap)
//   t_Halt = (dS - dA) * 8e6 / R     (ns)
//   r      = sent_i - sent_i * R / R_pre, t_extend = r * 8e6 / R
//   R_s   += (line - R_s) * RI / line
// every division rounding down.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cc_harness.h"

namespace cc
{
namespace
{

const rxe_cc_ops *const kOps = &rxe_cc_acc_ops;
constexpr uint64_t k10G = 10'000'000'000ULL;
constexpr uint64_t k100M = 100'000'000ULL;
constexpr uint64_t kT = 50 * kUs;
constexpr uint32_t kPkt = 625;
constexpr uint32_t kPsnMask = 0xffffff;

constexpr uint8_t kNo = 0;
constexpr uint8_t kCe = RXE_CC_TCD_BECN;
constexpr uint8_t kUe = RXE_CC_TCD_UE;

// values of "state" and "class"
enum { kWaitAck, kNormal, kHalted, kHaltOver };
enum { kNone, kCongested, kPartial, kVictim, kClear, kEmpty };

// One ACC QP. Sends get consecutive PSNs; an ACK acknowledges the oldest
// unacknowledged packets and is followed by its mark echo, as the
// framework delivers them.
class Acc
{
public:
	explicit Acc(const Params &over = {}, uint64_t line = k10G, uint64_t t0 = 0,
	             uint64_t rtt = 0, uint32_t psn0 = 0)
	    : qp_(kOps, line, rtt, with_t(over), t0), nxt_(psn0), una_(psn0)
	{
	}

	void send(uint64_t t, uint32_t bytes = kPkt, uint32_t flags = 0)
	{
		rxe_cc_tx tx{};
		tx.bytes = bytes;
		tx.psn = nxt_;
		tx.flags = flags;
		kOps->on_send(&qp_.ctx(), &tx, qp_.abs(t));
		if (!(flags & RXE_CC_TX_RETX))
			nxt_ = (nxt_ + 1) & kPsnMask;
	}
	// n packets from t, one every gap ns; returns the time after them
	uint64_t sends(uint64_t t, int n, uint64_t gap = 500)
	{
		for (int i = 0; i < n; i++, t += gap)
			send(t);
		return t;
	}
	// an ACK for `pkts` packets of `bytes` in all, then its echo
	uint32_t ack(uint64_t t, uint32_t pkts, uint64_t bytes, uint8_t echo, bool fb = true,
	             uint32_t type = RXE_CC_ACK)
	{
		rxe_cc_ack a{};
		a.type = type;
		una_ = (una_ + pkts) & kPsnMask;
		a.psn = (una_ - 1) & kPsnMask;
		a.acked_pkts = pkts;
		a.acked_bytes = static_cast<uint32_t>(bytes);
		kOps->on_ack(&qp_.ctx(), &a, qp_.abs(t));
		if (fb)
			tcd(t, a.psn, echo);
		return a.psn;
	}
	// one ACK per packet, n of them from t, one every gap ns
	uint64_t acks(uint64_t t, int n, uint64_t gap, uint8_t echo)
	{
		for (int i = 0; i < n; i++, t += gap)
			ack(t, 1, kPkt, echo);
		return t;
	}
	void tcd(uint64_t t, uint32_t psn, uint8_t echo)
	{
		rxe_cc_fb fb{};
		fb.tcd.psn = psn;
		fb.tcd.echo = echo;
		kOps->on_feedback(&qp_.ctx(), RXE_CC_FB_TCD, &fb, qp_.abs(t));
	}
	void timer(uint64_t t) { qp_.timer(t); }
	uint64_t st(const char *name, uint64_t t) const { return qp_.state(name, t); }
	std::vector<uint64_t> states(uint64_t t) const { return qp_.states(t); }
	const rxe_cc_out &out() const { return qp_.out(); }
	uint32_t events()
	{
		uint32_t ev = qp_.ctx().out.events;
		qp_.ctx().out.events = 0;
		return ev;
	}
	bool halted() const { return out().flags & RXE_CC_OUT_HALT; }
	// halt end relative to t0
	uint64_t halt_end() const { return out().halt_ns - qp_.abs(0); }
	int64_t timer_at() const { return qp_.timer_at(); }
	uint64_t rate_kbps() const { return out().rate_bps / 1000; }
	Qp &qp() { return qp_; }

private:
	static Params with_t(Params p)
	{
		if (!p.count("period_us"))
			p["period_us"] = 50;
		return p;
	}
	Qp qp_;
	uint32_t nxt_;
	uint32_t una_;
};

// ---- parameters ------------------------------------------------------------

std::vector<uint32_t> Defaults(uint64_t line, uint64_t rtt)
{
	rxe_cc_link link{};
	link.rate_bps = line;
	link.base_rtt_ns = rtt;
	link.mtu = 1024;
	return make_params(kOps, link, {});
}

uint32_t P(const std::vector<uint32_t> &p, const char *name)
{
	return p[static_cast<size_t>(param_index(kOps, name))];
}

TEST(AccParams, TableIsWellFormed)
{
	EXPECT_STREQ(kOps->name, "acc");
	ASSERT_LE(kOps->n_params, static_cast<uint32_t>(RXE_CC_MAX_PARAMS));
	ASSERT_LE(kOps->n_state, static_cast<uint32_t>(RXE_CC_MAX_STATE));
	for (uint32_t i = 0; i < kOps->n_params; i++) {
		const rxe_cc_param_desc &d = kOps->params[i];
		EXPECT_LE(d.min, d.def) << d.name;
		EXPECT_LE(d.def, d.max) << d.name;
		EXPECT_LT(std::string(d.name).size(), 48u);
	}
	// the wire features and flags the framework must provide
	EXPECT_EQ(kOps->wire, RXE_CC_WIRE_ECT | RXE_CC_WIRE_TCD);
	EXPECT_TRUE(kOps->flags & RXE_CC_F_ACK_EVERY);
	EXPECT_FALSE(kOps->flags & RXE_CC_F_LAZY_TIMER);
	EXPECT_NE(kOps->on_ack, nullptr);
	EXPECT_NE(kOps->on_send, nullptr);
	EXPECT_NE(kOps->on_timer, nullptr);
	EXPECT_NE(kOps->on_feedback, nullptr);
	EXPECT_EQ(kOps->rx_data, nullptr);
}

TEST(AccParams, DefaultsAtTheReferenceLinkAreTheTable)
{
	auto p = Defaults(k100M, 0);
	for (uint32_t i = 0; i < kOps->n_params; i++)
		EXPECT_EQ(p[i], kOps->params[i].def) << kOps->params[i].name;
	EXPECT_EQ(P(p, "period_us"), 1000u);
	EXPECT_EQ(P(p, "ri_low_kbps"), 400u); // 10^5 / 250
	EXPECT_EQ(P(p, "ri_high_kbps"), 4000u);
	EXPECT_EQ(P(p, "min_rate_kbps"), 1000u); // 10^5 / 1000 = 100 < 1 Mbit/s
	EXPECT_EQ(P(p, "max_halt_us"), 1000000u);
	EXPECT_EQ(P(p, "p_thresh"), 1u);
	EXPECT_EQ(P(p, "ce_pct"), 90u);
	EXPECT_EQ(P(p, "halt"), 1u);
	EXPECT_EQ(P(p, "partial_ce"), 0u);
}

TEST(AccParams, DefaultsScaleWithTheLink)
{
	// §2.10 at 10 G: RI_Low 40 Mbit/s, RI_High 400 Mbit/s; T = RTT + 10 %
	auto p = Defaults(k10G, 20 * kUs);
	EXPECT_EQ(P(p, "period_us"), 22u);
	EXPECT_EQ(P(p, "ri_low_kbps"), 40000u);
	EXPECT_EQ(P(p, "ri_high_kbps"), 400000u);
	EXPECT_EQ(P(p, "min_rate_kbps"), 10000u);
	EXPECT_EQ(P(p, "max_halt_us"), 22000u); // 1000 T
	// 100 G: RI_Low 400 Mbit/s, RI_High 4 Gbit/s (the paper's sims)
	p = Defaults(100 * 1000 * 1000 * 1000ULL, 12500);
	EXPECT_EQ(P(p, "period_us"), 14u); // 13.75 rounded up
	EXPECT_EQ(P(p, "ri_low_kbps"), 400000u);
	EXPECT_EQ(P(p, "ri_high_kbps"), 4000000u);
	// 1 Mbit/s: the floor is the line rate itself
	p = Defaults(1000 * 1000, 0);
	EXPECT_EQ(P(p, "min_rate_kbps"), 1000u);
	EXPECT_EQ(P(p, "ri_low_kbps"), 4u);
}

const char *SetupMsg(const Params &over, uint64_t line = k10G, uint64_t rtt = 0, int *err = nullptr)
{
	rxe_cc_link link{};
	link.rate_bps = line;
	link.base_rtt_ns = rtt;
	link.mtu = 1024;
	auto p = make_params(kOps, link, over);
	static std::vector<uint64_t> cfg;
	cfg.assign(kOps->cfg_size / 8 + 1, 0);
	const char *why = nullptr;
	int e = kOps->setup(cfg.data(), p.data(), &link, &why);
	if (err)
		*err = e;
	return why;
}

TEST(AccParams, SetupChecksAndWarns)
{
	int err = 1;
	EXPECT_EQ(SetupMsg({}, k10G, 0, &err), nullptr);
	EXPECT_EQ(err, 0);
	// legal but doubtful: compiled, with a warning
	EXPECT_NE(SetupMsg({{"ri_low_kbps", 500000}}, k10G, 0, &err), nullptr);
	EXPECT_EQ(err, 0);
	EXPECT_NE(SetupMsg({{"period_us", 10}}, k10G, 20 * kUs, &err), nullptr);
	EXPECT_EQ(err, 0);
	EXPECT_NE(SetupMsg({{"period_us", 100}, {"max_halt_us", 50}}, k10G, 0, &err), nullptr);
	EXPECT_EQ(err, 0);
	EXPECT_NE(SetupMsg({{"min_rate_kbps", 20000000}}, k10G, 0, &err), nullptr);
	EXPECT_EQ(err, 0);
	// out of range, or no line rate: refused
	SetupMsg({{"ce_pct", 100}}, k10G, 0, &err);
	EXPECT_EQ(err, -EINVAL);
	SetupMsg({{"period_us", 0}}, k10G, 0, &err);
	EXPECT_EQ(err, -EINVAL);
	SetupMsg({}, 999, 0, &err);
	EXPECT_EQ(err, -EINVAL);
}

// ---- start -----------------------------------------------------------------

TEST(Acc, StartsAtLineRateWithoutAPeriod)
{
	Acc q;
	EXPECT_EQ(q.out().rate_bps, k10G);
	EXPECT_EQ(q.out().window_bytes, 0u);
	EXPECT_FALSE(q.halted());
	EXPECT_EQ(q.timer_at(), -1);
	EXPECT_EQ(q.st("state", 0), static_cast<uint64_t>(kWaitAck));
	// sending alone starts no period: the timer starts at the first ACK
	q.sends(0, 10);
	EXPECT_EQ(q.timer_at(), -1);
	EXPECT_EQ(q.st("periods", 10 * kMs), 0u);
	q.ack(10 * kMs, 1, kPkt, kNo);
	EXPECT_EQ(q.timer_at(), static_cast<int64_t>(10 * kMs + kT));
	EXPECT_EQ(q.st("state", 10 * kMs), static_cast<uint64_t>(kNormal));
	EXPECT_EQ(q.rate_kbps(), 10'000'000u);
}

// ---- helpers --------------------------------------------------------------

// The period [t, t + T): `n_send` sends spread over it, `n_ack` ACKs
// (one packet each, marked `echo`) from t + 500 ns, in time order; then
// the period's end. Returns the end.
uint64_t RunPeriod(Acc &q, uint64_t t, int n_send, int n_ack, uint8_t echo)
{
	int i = 0, j = 0;

	while (i < n_send || j < n_ack) {
		uint64_t ts = i < n_send ? t + kT / static_cast<uint64_t>(n_send) *
		                                           static_cast<uint64_t>(i)
		                         : ~0ULL;
		uint64_t ta = j < n_ack ? t + 500 +
		                                  kT / static_cast<uint64_t>(n_ack) *
		                                          static_cast<uint64_t>(j)
		                        : ~0ULL;
		if (ts <= ta) {
			q.send(ts);
			i++;
		} else {
			q.ack(ta, 1, kPkt, echo);
			j++;
		}
	}
	q.timer(t + kT);
	return t + kT;
}

uint64_t Period(Acc &q, uint64_t t, int n, uint8_t echo)
{
	return RunPeriod(q, t, n, n, echo);
}

// A QP cut to 2.5 G without a halt and with nothing in flight: 25 packets
// before the first ACK, 25 CE ACKs in period 1 (dS = dA, R = 2.5 G).
// Returns the end of period 1.
uint64_t CutTo2500M(Acc &q)
{
	q.sends(0, 25);
	q.acks(50 * kUs, 25, 2000, kCe);
	q.timer(100 * kUs);
	EXPECT_EQ(q.rate_kbps(), 2'500'000u);
	EXPECT_FALSE(q.halted());
	return 100 * kUs;
}

// ---- §2.13 worked examples ---------------------------------------------------

// 4 -> 1 at 10 G, T = 50 us, every flow at 10 G from the start of T_{i-1}
// = [0, 50 us): the first ACK at 50 us starts period 1 = T_i, whose dS is
// what was sent before it (A12). The flow keeps sending at 10 G in T_i
// while its ACKs come at 2.5 G (one per 2 us), all CE.
void WorkedExample4to1(uint64_t t0)
{
	Acc q({}, k10G, t0);
	q.sends(0, 100); // T_{i-1}: 62 500 bytes
	for (int i = 0; i < 100; i++) {
		// T_i: sends every 500 ns, ACKs every 2 us, in time order
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	EXPECT_EQ(q.st("periods", 99999), 0u);
	EXPECT_FALSE(q.halted());
	q.events();

	// end of T_i: congested, eligible (snd_una 15 625 > snd_nxt_start 0)
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("class", 100 * kUs), static_cast<uint64_t>(kCongested));
	EXPECT_EQ(q.st("delta_s_bytes", 100 * kUs), 62500u);
	EXPECT_EQ(q.st("delta_a_bytes", 100 * kUs), 15625u);
	EXPECT_EQ(q.st("ack_rate_kbps", 100 * kUs), 2'500'000u); // R = 2.5 G
	EXPECT_EQ(q.rate_kbps(), 2'500'000u);                    // R_s = R
	// t_Halt = 46 875 * 8 / 2.5e9 = 150 us
	ASSERT_TRUE(q.halted());
	EXPECT_EQ(q.halt_end(), 250 * kUs);
	EXPECT_EQ(q.st("halt_ns", 100 * kUs), 150 * kUs);
	EXPECT_EQ(q.st("state", 100 * kUs), static_cast<uint64_t>(kHalted));
	EXPECT_EQ(q.st("halt_left_ns", 100 * kUs), 150 * kUs);
	EXPECT_EQ(q.st("halts", 100 * kUs), 1u);
	uint32_t ev = q.events();
	EXPECT_TRUE(ev & RXE_CC_EV_HALT);
	EXPECT_TRUE(ev & RXE_CC_EV_RATE_DEC);
	EXPECT_EQ(q.timer_at(), static_cast<int64_t>(150 * kUs));

	// T_{i+1}: halted, its ACKs still arrive at 2.5 G, CE
	q.acks(100 * kUs, 25, 2000, kCe);
	EXPECT_EQ(q.halt_end(), 250 * kUs);
	// end of T_{i+1}: r = 62 500 * (1 - 2.5 / 10) = 46 875 bytes, 150 us
	q.timer(150 * kUs);
	EXPECT_EQ(q.st("extensions", 150 * kUs), 1u);
	EXPECT_EQ(q.halt_end(), 400 * kUs);
	EXPECT_EQ(q.st("halt_ns", 150 * kUs), 300 * kUs); // = 375 KB / 10 G
	EXPECT_EQ(q.rate_kbps(), 2'500'000u);
	EXPECT_TRUE(q.events() & RXE_CC_EV_HALT);

	// T_{i+2} .. : CE ACKs of data sent before the halt act no more
	uint64_t t = 150 * kUs;
	for (int p = 0; p < 5; p++) {
		t = q.acks(t, 25, 2000, kCe);
		q.timer(t);
		EXPECT_TRUE(q.halted() || t >= 400 * kUs);
		EXPECT_EQ(q.halt_end(), 400 * kUs);
	}
	EXPECT_EQ(t, 400 * kUs);
	EXPECT_EQ(q.st("ce_ignored", t), 5u);
	EXPECT_EQ(q.st("halts", t), 1u);
	EXPECT_EQ(q.st("extensions", t), 1u);
	// the halt is over at 400 us (A4)
	EXPECT_FALSE(q.halted());
	EXPECT_EQ(q.st("state", t), static_cast<uint64_t>(kNormal));
	EXPECT_EQ(q.rate_kbps(), 2'500'000u); // aggregate 4 x 2.5 G = 10 G

	// §2.13 increase at 10 G from 2.5 G: +30, +29.88 (RI_Low), +297.6 (RI_High)
	const uint64_t want[] = {2'530'000, 2'559'880, 2'857'484};
	for (uint64_t w : want) {
		t = RunPeriod(q, t, 25, 25, kNo);
		EXPECT_EQ(q.st("class", t), static_cast<uint64_t>(kClear));
		EXPECT_EQ(q.rate_kbps(), w);
	}
	EXPECT_EQ(q.st("n_u", t), 3u);
	EXPECT_TRUE(q.events() & RXE_CC_EV_RATE_INC);
}

TEST(AccWorked, FourToOne)
{
	WorkedExample4to1(0);
}

// The same run across a wrap of the u64 clock (mid-halt).
TEST(AccWorked, FourToOneAcrossAClockWrap)
{
	WorkedExample4to1(0ULL - 200 * kUs);
}

// 2 -> 1 at 10 G: R = 5 G, t_Halt = 50 us, t_extend = 50 us; the backlog
// 2 x 5 G x 100 us = 125 KB takes 100 us at 10 G. The halt ends exactly at
// the end of T_{i+1}, where the extension halts the QP on.
TEST(AccWorked, TwoToOne)
{
	Acc q;
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 2 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	q.timer(100 * kUs);
	EXPECT_EQ(q.rate_kbps(), 5'000'000u);
	EXPECT_EQ(q.halt_end(), 150 * kUs);
	q.acks(100 * kUs, 50, 1000, kCe);
	q.timer(150 * kUs);
	EXPECT_TRUE(q.halted());
	EXPECT_EQ(q.halt_end(), 200 * kUs);
	EXPECT_EQ(q.st("halt_ns", 150 * kUs), 100 * kUs);
}

// ---- Algorithm 1, line by line -------------------------------------------------

// lines 2-5 without 27-34: "ACC w/o halt" cuts R_s = R and never halts
TEST(AccAlgorithm1, AblationCutsWithoutHalting)
{
	Acc q({{"halt", 0}});
	// the 4 -> 1 example: dS > dA, yet only the rate is cut
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	uint64_t t = 100 * kUs;
	q.timer(t);
	EXPECT_EQ(q.rate_kbps(), 2'500'000u);
	EXPECT_FALSE(q.halted());
	EXPECT_EQ(q.st("halts", t), 0u);
	// the cut recorded snd_nxt_start: CE ACKs of earlier data do not cut
	// again, those of later data do
	t = Period(q, t, 10, kCe); // ACKs of packets sent before the cut
	EXPECT_EQ(q.st("ce_ignored", t), 1u);
	EXPECT_EQ(q.rate_kbps(), 2'500'000u);
}

// line 2: a halt needs ACKs of data sent after the last one
TEST(AccAlgorithm1, EligibilityNeedsAckedPostHaltData)
{
	Acc q;
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	q.timer(100 * kUs);
	q.acks(100 * kUs, 25, 2000, kCe);
	q.timer(150 * kUs); // extended to 400 us
	uint64_t t = 150 * kUs;
	// 150 of the 200 packets sent before the halt are unacknowledged;
	// 125 of them are acknowledged by 400 us, CE: no new halt
	for (; t < 400 * kUs; t += kT) {
		q.acks(t, 25, 2000, kCe);
		q.timer(t + kT);
	}
	EXPECT_EQ(q.st("halts", t), 1u);
	EXPECT_EQ(q.st("ce_ignored", t), 5u);
	EXPECT_FALSE(q.halted());
	// [400, 450): 30 new packets; the ACKs are of the last 25 old ones:
	// snd_una = snd_nxt_start, still not eligible
	t = RunPeriod(q, t, 30, 25, kCe);
	EXPECT_EQ(q.st("halts", t), 1u);
	EXPECT_EQ(q.st("ce_ignored", t), 6u);
	EXPECT_FALSE(q.halted());
	// [450, 500): 25 of the new packets acknowledged, CE: a new halt,
	// dS = 30 packets, dA = 25, R = 2.5 G: 3125 B take 10 us
	t = RunPeriod(q, t, 0, 25, kCe);
	EXPECT_EQ(q.st("halts", t), 2u);
	EXPECT_EQ(q.st("class", t), static_cast<uint64_t>(kCongested));
	EXPECT_EQ(q.st("delta_s_bytes", t), 30u * kPkt);
	EXPECT_EQ(q.st("delta_a_bytes", t), 25u * kPkt);
	EXPECT_TRUE(q.halted());
	EXPECT_EQ(q.halt_end(), t + 10 * kUs);
}

// lines 28-33: congested with dS <= dA cuts the rate but does not halt
TEST(AccAlgorithm1, NoExcessNoHalt)
{
	Acc q;
	q.sends(0, 10);
	q.acks(50 * kUs, 10, 2000, kCe); // dS = dA = 6250
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("class", 100 * kUs), static_cast<uint64_t>(kCongested));
	EXPECT_EQ(q.st("ack_rate_kbps", 100 * kUs), 1'000'000u); // 6250 B / 50 us
	EXPECT_EQ(q.rate_kbps(), 1'000'000u);
	EXPECT_FALSE(q.halted());
	EXPECT_EQ(q.st("halts", 100 * kUs), 0u);
}

// line 7 with R >= R_pre: no extension (r would be negative, and wrap in
// u64 to a huge halt)
TEST(AccAlgorithm1, NoNegativeExtension)
{
	Acc q({{"p_thresh", 0}});
	q.sends(0, 1);
	q.ack(50 * kUs, 1, kPkt, kNo); // P1: clear, at line rate
	q.send(100 * kUs);
	q.ack(101 * kUs, 1, kPkt, kUe); // P2: 5 G
	q.send(150 * kUs);
	q.ack(151 * kUs, 1, kPkt, kUe); // P3: 2.5 G
	q.timer(200 * kUs);
	q.sends(200 * kUs, 30, 1000);
	q.ack(240 * kUs, 1, kPkt, kUe); // P4: 1.25 G, sends 30 packets
	q.timer(250 * kUs);
	ASSERT_EQ(q.rate_kbps(), 1'250'000u);
	// P5 = T_i: 20 CE ACKs (R = 2 G > R_pre = 1.25 G), 10 sends
	for (int i = 0; i < 20; i++) {
		if (i < 10)
			q.send(250 * kUs + 1000 * static_cast<uint64_t>(i));
		q.ack(250 * kUs + 1000 * static_cast<uint64_t>(i) + 500, 1, kPkt, kCe);
	}
	q.timer(300 * kUs);
	EXPECT_EQ(q.st("ack_rate_kbps", 300 * kUs), 2'000'000u);
	EXPECT_EQ(q.rate_kbps(), 2'000'000u);
	ASSERT_TRUE(q.halted());
	EXPECT_EQ(q.halt_end(), 325 * kUs); // 10 packets over at 2 G
	// T_{i+1}: CE, the extension is due and adds nothing
	q.acks(300 * kUs, 5, 1000, kCe);
	q.timer(350 * kUs);
	EXPECT_EQ(q.st("extensions", 350 * kUs), 1u);
	EXPECT_EQ(q.st("halt_ns", 350 * kUs), 25 * kUs);
	EXPECT_FALSE(q.halted());
	EXPECT_EQ(q.st("halts_capped", 350 * kUs), 0u);
}

// the extension is due once, at the end of T_{i+1}, and only if that
// period is congested too (A3)
TEST(AccAlgorithm1, ExtensionDroppedWhenTheNextPeriodIsNotCongested)
{
	Acc q;
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	q.timer(100 * kUs);
	ASSERT_EQ(q.halt_end(), 250 * kUs);
	q.acks(100 * kUs, 25, 2000, kUe); // T_{i+1}: UE only
	q.timer(150 * kUs);
	EXPECT_EQ(q.st("extensions", 150 * kUs), 0u);
	EXPECT_EQ(q.halt_end(), 250 * kUs);
	// a CE period later extends nothing either
	q.acks(150 * kUs, 25, 2000, kCe);
	q.timer(200 * kUs);
	EXPECT_EQ(q.st("extensions", 200 * kUs), 0u);
	EXPECT_EQ(q.halt_end(), 250 * kUs);
	EXPECT_EQ(q.st("ce_ignored", 200 * kUs), 1u);
	// A5: the UE period changed R_s during the halt (N_v = 1: kept)
	EXPECT_EQ(q.rate_kbps(), 2'500'000u);
	q.acks(200 * kUs, 25, 2000, kNo);
	q.timer(250 * kUs);
	EXPECT_FALSE(q.halted());
	EXPECT_EQ(q.st("state", 250 * kUs), static_cast<uint64_t>(kNormal));
}

// A4: a halt rounded to 0 ns (dS - dA = 1 byte at R = 9 G) still gets its
// extension at the end of T_{i+1}, which then halts the QP from there
TEST(AccAlgorithm1, ZeroLengthHaltKeepsItsExtension)
{
	Acc q;
	q.sends(0, 90);
	q.send(45 * kUs, 1); // dS = 56 251 bytes
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i < 90)
			q.ack(t, 1, kPkt, kCe);
		q.send(t); // T_i: 62 500 bytes
	}
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("ack_rate_kbps", 100 * kUs), 9'000'000u);
	EXPECT_EQ(q.st("halts", 100 * kUs), 1u);
	EXPECT_EQ(q.halt_end(), 100 * kUs); // 8 bit at 9 G: 0 ns
	// r = 62 500 - 62 500 * 9 / 10 = 6250 bytes: 5555 ns at 9 G
	q.acks(100 * kUs, 20, 2000, kCe);
	q.timer(150 * kUs);
	EXPECT_EQ(q.st("extensions", 150 * kUs), 1u);
	EXPECT_TRUE(q.halted());
	EXPECT_EQ(q.halt_end(), 150 * kUs + 5555);
	EXPECT_EQ(q.st("state", 150 * kUs), static_cast<uint64_t>(kHalted));
}

// lines 22-26 with P_thresh = 1: the first UE period keeps the rate, each
// following one halves it
TEST(AccAlgorithm1, VictimPthreshOne)
{
	Acc q({{"halt", 0}});
	uint64_t t = CutTo2500M(q);
	t = Period(q, t, 10, kUe);
	EXPECT_EQ(q.st("class", t), static_cast<uint64_t>(kVictim));
	EXPECT_EQ(q.st("n_v", t), 1u);
	EXPECT_EQ(q.rate_kbps(), 2'500'000u);
	t = Period(q, t, 10, kUe);
	EXPECT_EQ(q.rate_kbps(), 1'250'000u);
	t = Period(q, t, 10, kUe);
	EXPECT_EQ(q.rate_kbps(), 625'000u);
	EXPECT_EQ(q.st("halvings", t), 2u);
	EXPECT_TRUE(q.events() & RXE_CC_EV_RATE_DEC);
	// a clear period resets N_v: the next UE period keeps the rate again,
	// and the clear one after it starts with RI_Low again (N_u reset)
	t = Period(q, t, 10, kNo);
	EXPECT_EQ(q.rate_kbps(), 625'000ULL + (10'000'000ULL - 625'000) * 40'000 / 10'000'000);
	uint64_t r = q.rate_kbps();
	t = Period(q, t, 10, kUe);
	EXPECT_EQ(q.st("n_v", t), 1u);
	EXPECT_EQ(q.st("n_u", t), 0u);
	EXPECT_EQ(q.rate_kbps(), r);
	t = Period(q, t, 10, kNo);
	EXPECT_EQ(q.rate_kbps(), r + (10'000'000 - r) * 40'000 / 10'000'000);
}

// P_thresh = 0: "victim flows will always reduce half of the sending rate
// per T", down to the floor
TEST(AccAlgorithm1, VictimPthreshZeroHalvesEveryPeriodToTheFloor)
{
	Acc q({{"halt", 0}, {"p_thresh", 0}});
	uint64_t t = CutTo2500M(q);
	uint64_t want = 2'500'000;
	for (int i = 0; i < 10; i++) {
		t = Period(q, t, 10, kUe);
		want = std::max<uint64_t>(want / 2, 10'000);
		EXPECT_EQ(q.rate_kbps(), want) << i;
	}
	EXPECT_EQ(q.rate_kbps(), 10'000u); // min_rate_kbps
}

// lines 13-21: RI_Low for N_u = 0 and 1, RI_High from N_u = 2; the step
// shrinks towards the line rate, which is never exceeded
TEST(AccAlgorithm1, IncreaseStagesAndLineRate)
{
	Acc q({{"halt", 0}});
	uint64_t t = CutTo2500M(q);
	uint64_t r = 2'500'000;
	for (int i = 0; i < 200; i++) {
		t = Period(q, t, 10, kNo);
		uint64_t ri = i < 2 ? 40'000 : 400'000;
		r += (10'000'000 - r) * ri / 10'000'000;
		ASSERT_EQ(q.rate_kbps(), r) << i;
	}
	EXPECT_LE(q.rate_kbps(), 10'000'000u);
	EXPECT_EQ(q.st("n_u", t), 200u);
	// a CE period (partial here) resets N_u: RI_Low again
	t = Period(q, t, 10, kNo);
	r = q.rate_kbps();
	for (int i = 0; i < 10; i++) {
		q.send(t + 1000 * static_cast<uint64_t>(i));
		q.ack(t + 1000 * static_cast<uint64_t>(i) + 500, 1, kPkt, i == 0 ? kCe : kNo);
	}
	t += kT;
	q.timer(t);
	EXPECT_EQ(q.st("class", t), static_cast<uint64_t>(kPartial));
	EXPECT_EQ(q.rate_kbps(), r);
	t = Period(q, t, 10, kNo);
	EXPECT_EQ(q.rate_kbps(), r + (10'000'000 - r) * 40'000 / 10'000'000);
}

// §2.3: congested means MORE than 90 % CE; 0 < CE <= 90 % holds (A2) or,
// with partial_ce 1, counts as UE
TEST(AccAlgorithm1, CeShareThreshold)
{
	for (int partial : {0, 1}) {
		Acc q({{"halt", 0}, {"partial_ce", static_cast<uint32_t>(partial)}});
		uint64_t t = CutTo2500M(q);
		t = Period(q, t, 10, kNo); // 2 530 000, N_u = 1
		uint64_t r = q.rate_kbps();
		// 9 CE of 10 = 90 %: not congested
		for (int i = 0; i < 10; i++) {
			q.send(t + 1000 * static_cast<uint64_t>(i));
			q.ack(t + 1000 * static_cast<uint64_t>(i) + 500, 1, kPkt,
			      i < 9 ? kCe : kNo);
		}
		t += kT;
		q.timer(t);
		EXPECT_EQ(q.st("class", t), static_cast<uint64_t>(kPartial));
		EXPECT_EQ(q.st("n_u", t), 0u);
		EXPECT_EQ(q.st("n_v", t), partial ? 1u : 0u);
		EXPECT_EQ(q.rate_kbps(), r); // N_v = 1 <= P_thresh: kept
		// a second partial period: held, or halved as a victim
		for (int i = 0; i < 10; i++) {
			q.send(t + 1000 * static_cast<uint64_t>(i));
			q.ack(t + 1000 * static_cast<uint64_t>(i) + 500, 1, kPkt,
			      i < 9 ? kCe : kNo);
		}
		t += kT;
		q.timer(t);
		EXPECT_EQ(q.rate_kbps(), partial ? r / 2 : r);
		// 10 CE of 11 = 90.9 %: congested (data after the cut: eligible);
		// the last ACK no later in its period than the one before: dt = T
		for (int i = 0; i < 11; i++) {
			q.send(t + 900 * static_cast<uint64_t>(i));
			q.ack(t + 900 * static_cast<uint64_t>(i) + 500, 1, kPkt,
			      i < 10 ? kCe : kNo);
		}
		t += kT;
		q.timer(t);
		EXPECT_EQ(q.st("class", t), static_cast<uint64_t>(kCongested));
		EXPECT_EQ(q.rate_kbps(), 1'100'000u); // R = 11 x 625 B / 50 us
	}
}

// ce_pct is the threshold: at 50 %, 6 CE of 10 is congested
TEST(AccAlgorithm1, CePctParameter)
{
	Acc q({{"ce_pct", 50}});
	q.sends(0, 10);
	for (int i = 0; i < 10; i++)
		q.ack(50 * kUs + 1000 * static_cast<uint64_t>(i), 1, kPkt, i < 6 ? kCe : kNo);
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("class", 100 * kUs), static_cast<uint64_t>(kCongested));
}

// §2.9 A12: the first period's dS is what was sent before the first ACK,
// and that ACK counts in its dA
TEST(AccAlgorithm1, FirstPeriodDeltaS)
{
	Acc q;
	q.sends(0, 40);                // 25 000 bytes before the first ACK
	q.ack(30 * kUs, 1, kPkt, kNo); // starts period 1 = [30, 80) us
	q.sends(31 * kUs, 10);         // period 1 sends 6 250
	q.acks(40 * kUs, 9, 1000, kNo);
	EXPECT_EQ(q.timer_at(), static_cast<int64_t>(80 * kUs));
	q.timer(80 * kUs);
	EXPECT_EQ(q.st("delta_s_bytes", 80 * kUs), 40u * kPkt);
	EXPECT_EQ(q.st("delta_a_bytes", 80 * kUs), 10u * kPkt);
	// and period 2's dS is period 1's sends
	q.acks(81 * kUs, 10, 1000, kNo);
	q.timer(130 * kUs);
	EXPECT_EQ(q.st("delta_s_bytes", 130 * kUs), 10u * kPkt);
}

// §4.2 / A1: a period without ACKs is not classified, and its sends add to
// the next dS
TEST(AccAlgorithm1, NoAckPeriodAccumulatesDeltaS)
{
	Acc q;
	q.sends(0, 1);
	q.ack(50 * kUs, 1, kPkt, kNo); // period 1 = [50, 100)
	q.sends(51 * kUs, 20);
	q.timer(100 * kUs); // 1 ACK: clear
	uint64_t r = q.rate_kbps();
	q.sends(101 * kUs, 20);
	q.timer(150 * kUs); // no ACK
	EXPECT_EQ(q.st("class", 150 * kUs), static_cast<uint64_t>(kEmpty));
	EXPECT_EQ(q.st("empty_periods", 150 * kUs), 1u);
	EXPECT_EQ(q.rate_kbps(), r);
	EXPECT_EQ(q.st("n_u", 150 * kUs), 1u); // not counted as uncongested
	// 4 CE ACKs at 150 .. 151.5 us: dS = 40 packets, dA = 4;
	// dt = 151.5 - 50 = 101.5 us (the ACK gap, A6)
	for (int i = 0; i < 4; i++)
		q.ack(150 * kUs + 500 * static_cast<uint64_t>(i), 1, kPkt, kCe);
	q.timer(200 * kUs);
	EXPECT_EQ(q.st("delta_s_bytes", 200 * kUs), 40u * kPkt);
	EXPECT_EQ(q.st("delta_a_bytes", 200 * kUs), 4u * kPkt);
	const uint64_t rr = 4ULL * kPkt * 8'000'000 / 101'500; // 197 044
	EXPECT_EQ(q.st("ack_rate_kbps", 200 * kUs), rr);
	EXPECT_EQ(q.halt_end(), 200 * kUs + 36ULL * kPkt * 8'000'000 / rr);
}

// §4.3 / A6: one ACK in several periods: R over the inter-arrival time
TEST(AccAlgorithm1, SparseAcksUseTheInterArrivalTime)
{
	Acc q;
	q.sends(0, 1);
	q.ack(50 * kUs, 1, kPkt, kNo);
	q.sends(51 * kUs, 10); // 6250 bytes in period 1
	q.timer(100 * kUs);
	q.timer(150 * kUs);
	q.timer(200 * kUs);
	q.ack(230 * kUs, 1, kPkt, kCe); // 180 us after the last one
	q.timer(250 * kUs);
	EXPECT_EQ(q.st("ack_rate_kbps", 250 * kUs), 27'777u); // 625 B / 180 us
	EXPECT_EQ(q.rate_kbps(), 27'777u);
	EXPECT_EQ(q.halt_end(), 250 * kUs + 1'620'045); // 5625 B at 27 777 kbit/s
}

// an idle QP (nothing in flight) does not stretch the next ACK's rate
// over the idle time, and its old sends are no backlog
TEST(AccAlgorithm1, IdleTimeIsNotAnAckGap)
{
	Acc q;
	q.sends(0, 10);
	q.acks(50 * kUs, 10, 1000, kNo);
	q.timer(100 * kUs);
	for (uint64_t t = 150 * kUs; t <= 1000 * kUs; t += kT)
		q.timer(t);
	EXPECT_EQ(q.timer_at(), -1); // idle: no period timer
	q.sends(1001 * kUs, 10);
	for (int i = 0; i < 10; i++)
		q.ack(1010 * kUs + 1000 * static_cast<uint64_t>(i), 1, kPkt, kCe);
	q.timer(1050 * kUs);
	EXPECT_EQ(q.st("ack_rate_kbps", 1050 * kUs), 1'000'000u); // 6250 B / T
	EXPECT_EQ(q.st("delta_s_bytes", 1050 * kUs), 0u);
	EXPECT_FALSE(q.halted());
}

// The QP's own halt is no shortage of ACKs: after a halt that outlasted its
// queue, the first congested period's R is measured over T (or from the
// halt's end), not from the last ACK before the halt. Measured from that
// ACK, an over-long halt would make the next R smaller and the next halt
// longer still (the cc_acc runs that reached the ceiling).
TEST(AccAlgorithm1, HaltTimeIsNotAnAckGap)
{
	Acc q;
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	q.timer(100 * kUs); // the worked example: halted to 250 us
	q.acks(100 * kUs, 25, 2000, kCe);
	q.timer(150 * kUs); // extended to 400 us
	ASSERT_EQ(q.halt_end(), 400 * kUs);
	// the queue drains by 195 us: 149 of the 150 packets left are ACKed
	q.acks(150 * kUs, 149, 300, kNo);
	for (uint64_t t = 200 * kUs; t <= 400 * kUs; t += kT)
		q.timer(t);
	EXPECT_FALSE(q.halted());
	EXPECT_EQ(q.st("empty_periods", 400 * kUs), 4u);
	// after the halt: 100 sends, 10 CE ACKs at 420 .. 438 us
	q.sends(400 * kUs, 100);
	q.acks(420 * kUs, 10, 2000, kCe);
	q.timer(450 * kUs);
	EXPECT_EQ(q.st("class", 450 * kUs), static_cast<uint64_t>(kCongested));
	// 6250 B in T = 1 Gbit/s; from the ACK at 194.4 us it would be 205 Mbit/s
	EXPECT_EQ(q.st("ack_rate_kbps", 450 * kUs), 1'000'000u);
	EXPECT_EQ(q.rate_kbps(), 1'000'000u);
	EXPECT_EQ(q.st("halts", 450 * kUs), 1u); // dS = 0: no halt
}

// With T longer than the RTT a period's own ACKs fall in it, so dS - dA
// can exceed what is still in flight; the halt drains at most that.
TEST(AccAlgorithm1, HaltDrainsAtMostTheBytesInFlight)
{
	Acc q;
	q.sends(0, 1);
	q.ack(50 * kUs, 1, kPkt, kNo); // period 1 = [50, 100)
	q.sends(51 * kUs, 20);
	q.acks(80 * kUs, 10, 1000, kNo); // 10 of the 20 already
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("class", 100 * kUs), static_cast<uint64_t>(kClear));
	q.ack(120 * kUs, 1, kPkt, kCe);
	q.timer(150 * kUs);
	EXPECT_EQ(q.st("class", 150 * kUs), static_cast<uint64_t>(kCongested));
	EXPECT_EQ(q.st("delta_s_bytes", 150 * kUs), 20u * kPkt);
	EXPECT_EQ(q.st("delta_a_bytes", 150 * kUs), 1u * kPkt);
	EXPECT_EQ(q.st("ack_rate_kbps", 150 * kUs), 100'000u); // 625 B / T
	// 9 packets in flight, not dS - dA = 19: 5625 B at 100 Mbit/s = 450 us
	ASSERT_TRUE(q.halted());
	EXPECT_EQ(q.halt_end(), 600 * kUs);
}

// ---- the halt ceiling -----------------------------------------------------------

TEST(AccHalt, CeilingCapsTheHaltAndTheExtension)
{
	Acc q({{"max_halt_us", 100}});
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	q.timer(100 * kUs);
	EXPECT_EQ(q.halt_end(), 200 * kUs); // 150 us capped to 100
	EXPECT_EQ(q.st("halts_capped", 100 * kUs), 1u);
	q.acks(100 * kUs, 25, 2000, kCe);
	q.timer(150 * kUs);
	EXPECT_EQ(q.halt_end(), 200 * kUs); // +150 us capped again
	EXPECT_EQ(q.st("halts_capped", 150 * kUs), 2u);
	EXPECT_EQ(q.st("halt_ns", 150 * kUs), 100 * kUs);
}

// One CE ACK in a period after a full period of sends: R = 625 B / 50 us
// = 100 Mbit/s asks for a halt of 61 875 B at that rate, 4.95 ms; the
// ceiling holds it to 1 ms.
TEST(AccHalt, SlowCeAcksCannotHaltLongerThanTheCeiling)
{
	Acc q({{"max_halt_us", 1000}});
	q.sends(0, 100);
	q.ack(50 * kUs, 1, kPkt, kCe);
	q.sends(50 * kUs, 100);
	q.timer(100 * kUs);
	EXPECT_EQ(q.halt_end(), 100 * kUs + 1000 * kUs);
	EXPECT_EQ(q.st("halts_capped", 100 * kUs), 1u);
	EXPECT_LE(q.st("halt_left_ns", 100 * kUs), 1000 * kUs);
}

// Random ACK streams, marks (valid or not) and sends: whenever the gate
// would hold the QP, the halt ends at most max_halt after it began.
TEST(AccHalt, RandomStreamsNeverExceedTheCeiling)
{
	std::mt19937_64 rng(20261127);
	uint64_t halts = 0, capped = 0;
	for (int run = 0; run < 20; run++) {
		const uint64_t max_halt = (20 + rng() % 500) * kUs;
		Acc q({{"max_halt_us", static_cast<uint32_t>(max_halt / kUs)},
		       {"period_us", static_cast<uint32_t>(5 + rng() % 100)}});
		uint64_t t = 0, sent = 0, acked = 0, start = 0;
		bool was = false;
		for (int i = 0; i < 5000; i++) {
			t += rng() % 20000;
			switch (rng() % 4) {
			case 0:
			case 1:
				q.send(t, static_cast<uint32_t>(64 + rng() % 4000));
				sent++;
				break;
			case 2:
				if (acked < sent) {
					auto n = static_cast<uint32_t>(
						1 + rng() % std::min<uint64_t>(sent - acked, 20));
					uint64_t bytes = n * (64 + rng() % 4000);
					auto echo = static_cast<uint8_t>(rng());
					q.ack(t, n, bytes, echo);
					acked += n;
				}
				break;
			default: q.timer(t);
			}
			bool now = q.halted() && q.halt_end() > t;
			if (now && !was)
				start = t;
			if (now) {
				ASSERT_LE(q.halt_end() - start, max_halt) << run << " " << i;
			}
			ASSERT_LE(q.st("halt_ns", t), max_halt);
			was = now;
		}
		halts += q.st("halts", t);
		capped += q.st("halts_capped", t);
	}
	// the runs did halt, and hit the ceiling
	EXPECT_GT(halts, 100u);
	EXPECT_GT(capped, 10u);
}

// ---- marks ----------------------------------------------------------------------

// The state values other than marks_ignored.
std::vector<uint64_t> Others(const Acc &q, uint64_t t)
{
	auto v = q.states(t);
	v[static_cast<size_t>(state_index(kOps, "marks_ignored"))] = 0;
	return v;
}

// Marks that are not valid feedback are counted, flagged and change
// nothing else: the period they fall in stays clear.
TEST(AccMarks, InvalidMarksAreCountedAndIgnored)
{
	struct Case {
		const char *what;
		uint8_t echo;
		uint32_t pkts; // the ACK's packets (0: a duplicate)
		int psn_off;   // echo PSN relative to the ACK's
		bool twice;    // a second echo for the same ACK
	};
	const Case cases[] = {
		{"BECN with UE", kCe | kUe, 1, 0, false},
		{"CE count without BECN", 1 << RXE_CC_TCD_CE_CNT_SHIFT, 1, 0, false},
		{"more CE than packets", kCe | 3 << RXE_CC_TCD_CE_CNT_SHIFT, 2, 0, false},
		{"saturated count on 2 packets", kCe | RXE_CC_TCD_CE_CNT, 2, 0, false},
		{"CE on a duplicate", kCe, 0, 0, false},
		{"UE on a duplicate", kUe, 0, 0, false},
		{"not the ACK's PSN", kCe, 1, 1, false},
		{"a second echo", kCe, 1, 0, true},
	};
	for (const Case &c : cases) {
		Acc q({{"halt", 0}});
		uint64_t t = CutTo2500M(q);
		q.sends(t, 10, 1000);
		q.acks(t + 10 * kUs, 5, 1000, kNo);
		const uint64_t ta = t + 20 * kUs;
		uint64_t bad = q.st("marks_ignored", ta);
		// the ACK, with its own (empty) echo only for the second-echo case
		uint32_t psn = q.ack(ta, c.pkts, c.pkts * kPkt, kNo, c.twice);
		auto before = Others(q, ta);
		q.events();
		q.tcd(ta, (psn + static_cast<uint32_t>(c.psn_off)) & kPsnMask, c.echo);
		EXPECT_EQ(q.st("marks_ignored", ta), bad + 1) << c.what;
		EXPECT_TRUE(q.events() & RXE_CC_EV_FB_BAD) << c.what;
		EXPECT_EQ(Others(q, ta), before) << c.what;
		q.timer(t + kT);
		EXPECT_EQ(q.st("class", t + kT), static_cast<uint64_t>(kClear)) << c.what;
	}
}

// A mark that arrives after a period boundary is not applied to the new
// period (its ACK counted in the old one).
TEST(AccMarks, MarkAcrossAPeriodEndIsIgnored)
{
	Acc q;
	q.sends(0, 10);
	uint32_t psn = q.ack(50 * kUs, 1, kPkt, kNo, false);
	q.tcd(100 * kUs, psn, kCe);
	EXPECT_EQ(q.st("marks_ignored", 100 * kUs), 1u);
	EXPECT_EQ(q.st("class", 100 * kUs), static_cast<uint64_t>(kClear));
}

TEST(AccMarks, FecnCapAndForeignFeedback)
{
	Acc q({{"halt", 0}});
	uint64_t t = CutTo2500M(q);
	q.send(t + 100);
	// FECN is ignored, CAP is noted; neither is a mark
	q.ack(t + 200, 1, kPkt, RXE_CC_TCD_FECN | RXE_CC_TCD_CAP);
	EXPECT_EQ(q.st("marks_ignored", t + 200), 0u);
	EXPECT_EQ(q.st("peer_cap", t + 200), 1u);
	auto before = q.states(t + 300);
	// CNPs (a DCQCN receiver's) and PAUSE change nothing
	rxe_cc_fb fb{};
	kOps->on_feedback(&q.qp().ctx(), RXE_CC_FB_CNP, &fb, q.qp().abs(t + 300));
	fb.pause.paused = 1;
	fb.pause.until_ns = q.qp().abs(t + 400);
	kOps->on_feedback(&q.qp().ctx(), RXE_CC_FB_PAUSE, &fb, q.qp().abs(t + 300));
	EXPECT_EQ(q.states(t + 300), before);
	q.timer(t + kT);
	EXPECT_EQ(q.st("class", t + kT), static_cast<uint64_t>(kClear));
}

// Coalesced ACKs: each covers its packets; the CE count says how many were
// CE, no count means all, a saturated count (15) means at least 15.
TEST(AccMarks, CoalescedAcksWeighWhatTheyCover)
{
	auto run = [](uint8_t echo, uint32_t pkts) {
		Acc q;
		q.sends(0, static_cast<int>(pkts) * 2);
		q.ack(50 * kUs, pkts, pkts * kPkt, echo);
		q.ack(60 * kUs, pkts, pkts * kPkt, kNo);
		q.timer(100 * kUs);
		return q.st("class", 100 * kUs);
	};
	// 10 + 10 packets, all 10 of the first ACK CE: 50 %, partial
	EXPECT_EQ(run(kCe, 10), static_cast<uint64_t>(kPartial));
	EXPECT_EQ(run(kCe | 10 << RXE_CC_TCD_CE_CNT_SHIFT, 10), static_cast<uint64_t>(kPartial));
	EXPECT_EQ(run(kCe | 1 << RXE_CC_TCD_CE_CNT_SHIFT, 10), static_cast<uint64_t>(kPartial));
	EXPECT_EQ(run(kUe, 10), static_cast<uint64_t>(kVictim));
	// one coalesced ACK of 20 CE among 21: 95 %
	Acc q;
	q.sends(0, 21);
	q.ack(50 * kUs, 20, 20 * kPkt, kCe | RXE_CC_TCD_CE_CNT);
	q.ack(51 * kUs, 1, kPkt, kNo);
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("class", 100 * kUs), static_cast<uint64_t>(kCongested));
	// 2 CE of 21 counted: partial
	Acc p;
	p.sends(0, 21);
	p.ack(50 * kUs, 20, 20 * kPkt, kCe | 2 << RXE_CC_TCD_CE_CNT_SHIFT);
	p.ack(51 * kUs, 1, kPkt, kNo);
	p.timer(100 * kUs);
	EXPECT_EQ(p.st("class", 100 * kUs), static_cast<uint64_t>(kPartial));
}

// The responder's side: the echo byte from the marks of the packets an ACK
// covers.
TEST(AccMarks, ReceiverEcho)
{
	rxe_cc_tcd_rx r{};
	EXPECT_EQ(rxe_cc_tcd_echo(&r), 0);
	rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_ECT0);
	rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_NOT_ECT);
	EXPECT_EQ(rxe_cc_tcd_echo(&r), 0);
	rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_ECT1);
	EXPECT_EQ(rxe_cc_tcd_echo(&r), RXE_CC_TCD_UE);
	EXPECT_EQ(rxe_cc_tcd_echo(&r), 0); // reset
	rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_ECT1);
	rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_CE);
	rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_CE);
	EXPECT_EQ(rxe_cc_tcd_echo(&r), RXE_CC_TCD_BECN | 2 << RXE_CC_TCD_CE_CNT_SHIFT);
	for (int i = 0; i < 40; i++)
		rxe_cc_tcd_rx_data(&r, RXE_CC_ECN_CE);
	EXPECT_EQ(rxe_cc_tcd_echo(&r), RXE_CC_TCD_BECN | RXE_CC_TCD_CE_CNT);
	// the bits of specs/wire.md §7.4 (c)
	EXPECT_EQ(RXE_CC_TCD_BECN, 0x40);
	EXPECT_EQ(RXE_CC_TCD_CAP, 0x20);
	EXPECT_EQ(RXE_CC_TCD_CE_CNT, 0x1e);
	EXPECT_EQ(RXE_CC_TCD_UE, 0x01);
}

// The responder keeps marks by PSN: a response takes those of the PSNs it
// acknowledges, so a packet noted before the response to an earlier one
// waits for its own, and a duplicate's response takes none.
TEST(AccMarks, ReceiverMarksByPsn)
{
	const uint8_t ce1 = RXE_CC_TCD_BECN | 1 << RXE_CC_TCD_CE_CNT_SHIFT;
	const uint8_t ce2 = RXE_CC_TCD_BECN | 2 << RXE_CC_TCD_CE_CNT_SHIFT;
	rxe_cc_tcd_marks m{};

	rxe_cc_tcd_note(&m, 10, RXE_CC_ECN_CE);
	rxe_cc_tcd_note(&m, 11, RXE_CC_ECN_ECT0); // not a mark
	rxe_cc_tcd_note(&m, 12, RXE_CC_ECN_ECT1);
	rxe_cc_tcd_note(&m, 13, RXE_CC_ECN_CE);
	// the first response looks back half the span
	EXPECT_EQ(rxe_cc_tcd_take(&m, 10), ce1);
	EXPECT_EQ(rxe_cc_tcd_take(&m, 10), 0); // the duplicate's response
	EXPECT_EQ(rxe_cc_tcd_take(&m, 9), 0);  // an older one
	EXPECT_EQ(rxe_cc_tcd_take(&m, 11), 0);
	EXPECT_EQ(rxe_cc_tcd_take(&m, 12), RXE_CC_TCD_UE);
	EXPECT_EQ(rxe_cc_tcd_take(&m, 13), ce1);
	// a coalesced response: CE of two packets and UE of a third
	rxe_cc_tcd_note(&m, 14, RXE_CC_ECN_CE);
	rxe_cc_tcd_note(&m, 15, RXE_CC_ECN_ECT1);
	rxe_cc_tcd_note(&m, 16, RXE_CC_ECN_CE);
	EXPECT_EQ(rxe_cc_tcd_take(&m, 16), ce2);
	// 100 marked packets ahead of the responder: each response takes its own
	for (uint32_t psn = 17; psn < 117; psn++)
		rxe_cc_tcd_note(&m, psn, RXE_CC_ECN_CE);
	for (uint32_t psn = 17; psn < 117; psn++)
		EXPECT_EQ(rxe_cc_tcd_take(&m, psn), ce1) << psn;
	EXPECT_EQ(rxe_cc_tcd_take(&m, 117), 0);
	// a count of more than 15 saturates
	for (uint32_t psn = 118; psn < 138; psn++)
		rxe_cc_tcd_note(&m, psn, RXE_CC_ECN_CE);
	EXPECT_EQ(rxe_cc_tcd_take(&m, 137), RXE_CC_TCD_BECN | RXE_CC_TCD_CE_CNT);
	// across the wrap of the 24-bit PSN
	rxe_cc_tcd_marks w{};
	EXPECT_EQ(rxe_cc_tcd_take(&w, 0xfffffd), 0);
	rxe_cc_tcd_note(&w, 0xfffffe, RXE_CC_ECN_CE);
	rxe_cc_tcd_note(&w, 0xffffff, RXE_CC_ECN_CE);
	rxe_cc_tcd_note(&w, 0, RXE_CC_ECN_CE);
	rxe_cc_tcd_note(&w, 1, RXE_CC_ECN_ECT1);
	EXPECT_EQ(rxe_cc_tcd_take(&w, 0xffffff), ce2);
	EXPECT_EQ(rxe_cc_tcd_take(&w, 0x1000000), ce1); // PSN 0
	EXPECT_EQ(rxe_cc_tcd_take(&w, 1), RXE_CC_TCD_UE);
	// a jump of more than half the span (more than the requester may have
	// unacknowledged) takes every mark kept
	rxe_cc_tcd_note(&w, 2, RXE_CC_ECN_CE);
	rxe_cc_tcd_note(&w, 600, RXE_CC_ECN_CE);
	rxe_cc_tcd_note(&w, 300, RXE_CC_ECN_ECT1);
	EXPECT_EQ(rxe_cc_tcd_take(&w, 600), ce2);
	EXPECT_EQ(rxe_cc_tcd_take(&w, 900), 0);
}

// ---- send side, wraps, timers -------------------------------------------------------

TEST(AccSend, RetransmissionsAndReadResponsesAreNotNewData)
{
	Acc q;
	q.sends(0, 10);
	q.send(6000, kPkt, RXE_CC_TX_RETX);
	q.send(6500, kPkt, RXE_CC_TX_READ_RESP);
	EXPECT_EQ(q.st("retx_pkts", 7000), 1u);
	// an ACK never acknowledges more than was sent
	q.ack(50 * kUs, 12, 12 * kPkt, kNo);
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("delta_s_bytes", 100 * kUs), 10u * kPkt);
	EXPECT_EQ(q.st("delta_a_bytes", 100 * kUs), 10u * kPkt);
}

// PSNs wrap at 2^24: an echo matches its ACK across the wrap.
TEST(AccWrap, PsnWrap)
{
	Acc q({}, k10G, 0, 0, 0xfffff0);
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	q.timer(100 * kUs);
	EXPECT_EQ(q.st("marks_ignored", 100 * kUs), 0u);
	EXPECT_EQ(q.halt_end(), 250 * kUs);
	// bits above the 24-bit PSN are ignored
	uint32_t psn = q.ack(100 * kUs, 1, kPkt, kNo, false);
	q.tcd(100 * kUs, psn | 0x5000000, kCe);
	EXPECT_EQ(q.st("marks_ignored", 100 * kUs), 0u);
}

// A long idle time is caught up at once, exactly.
TEST(AccTimer, IdleCatchUpIsBounded)
{
	Acc q({{"period_us", 1}});
	q.sends(0, 1);
	q.ack(1000, 1, kPkt, kNo);
	q.timer(2000);
	EXPECT_EQ(q.timer_at(), -1);
	// 2^50 ns (13 days) later: 1.1 * 10^12 periods, far too many to
	// process one by one within the test's timeout
	const uint64_t later = (1ULL << 50) + 500;
	q.send(later);
	// the periods ending at 2 us, 3 us, ..., 2^50 ns rounded down
	EXPECT_EQ(q.st("periods", later), (later - 2000) / 1000 + 1);
	EXPECT_EQ(q.st("empty_periods", later), (later - 2000) / 1000);
	EXPECT_EQ(q.timer_at(), static_cast<int64_t>((later / 1000 + 1) * 1000));
}

// Events between deadlines, with on_timer served on time in one QP and
// never in the other: the same state and outputs after every event.
TEST(AccTimer, LazyEqualsOnTime)
{
	std::mt19937_64 rng(7);
	for (int run = 0; run < 20; run++) {
		const Params p = {{"period_us", static_cast<uint32_t>(10 + rng() % 60)},
		                  {"p_thresh", static_cast<uint32_t>(rng() % 3)},
		                  {"max_halt_us", static_cast<uint32_t>(100 + rng() % 2000)}};
		Acc a(p), b(p);
		uint64_t t = 0, sent = 0, acked = 0;
		for (int i = 0; i < 3000; i++) {
			t += rng() % (i % 500 < 400 ? 3000 : 200000);
			while (a.timer_at() >= 0 && static_cast<uint64_t>(a.timer_at()) <= t)
				a.timer(static_cast<uint64_t>(a.timer_at()));
			static const uint8_t kEchoes[] = {kNo, kCe, kUe, kCe};
			int what = static_cast<int>(rng() % 3);
			if (what == 0 || acked == sent) {
				auto bytes = static_cast<uint32_t>(100 + rng() % 2000);
				a.send(t, bytes);
				b.send(t, bytes);
				sent++;
			} else {
				auto n = static_cast<uint32_t>(
					1 + rng() % std::min<uint64_t>(sent - acked, 4));
				uint8_t echo = kEchoes[rng() % 4];
				a.ack(t, n, n * 700, echo);
				b.ack(t, n, n * 700, echo);
				acked += n;
			}
			ASSERT_EQ(a.states(t), b.states(t)) << run << " " << i;
			ASSERT_EQ(a.out().rate_bps, b.out().rate_bps);
			ASSERT_EQ(a.halted(), b.halted());
			if (a.halted()) {
				ASSERT_EQ(a.out().halt_ns, b.out().halt_ns);
			}
		}
		EXPECT_GT(a.st("halts", t) + a.st("halvings", t), 0u) << run;
	}
}

// New parameters apply at the next on_timer: the rate moves into the new
// range and a halt under way is held to the new ceiling.
TEST(AccTimer, ParameterChange)
{
	Acc q;
	q.sends(0, 100);
	for (int i = 0; i < 100; i++) {
		uint64_t t = 50 * kUs + 500 * static_cast<uint64_t>(i);
		if (i % 4 == 0)
			q.ack(t, 1, kPkt, kCe);
		q.send(t);
	}
	q.timer(100 * kUs);
	ASSERT_EQ(q.halt_end(), 250 * kUs);
	rxe_cc_link link{};
	link.rate_bps = k10G;
	link.mtu = 1024;
	auto p = make_params(
		kOps, link, {{"period_us", 50}, {"max_halt_us", 60}, {"min_rate_kbps", 3'000'000}});
	std::vector<uint64_t> cfg(kOps->cfg_size / 8 + 1);
	const char *why = nullptr;
	ASSERT_EQ(kOps->setup(cfg.data(), p.data(), &link, &why), 0);
	q.qp().ctx().cfg = cfg.data();
	q.timer(110 * kUs);
	EXPECT_EQ(q.halt_end(), 160 * kUs);
	EXPECT_EQ(q.rate_kbps(), 3'000'000u);
	EXPECT_EQ(q.st("halts_capped", 110 * kUs), 1u);
}

} // namespace
} // namespace cc
