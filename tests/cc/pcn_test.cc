// Unit tests of rxe_cc_pcn.c: the fixed-point laws against specs/pcn.md's
// vectors (§2.5, §2.7), the reaction point's handling of reports good and
// bad, the notification point's periods, and the fluid-model properties of
// App. A (§2.6, §5.3 item 2) on a bottleneck shared by N senders.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "cc_harness.h"

namespace
{

using cc::kMs;
using cc::kUs;
using cc::Qp;

const rxe_cc_ops *pcn()
{
	return &rxe_cc_pcn_ops;
}

constexpr uint64_t k10G = 10'000'000'000ULL;
constexpr uint64_t k100M = 100'000'000ULL;
constexpr uint32_t kWMin = 8192;   // 1/128 in Q20
constexpr uint32_t kWMax = 524288; // 1/2 in Q20

// A report as the framework delivers it: opcode, IP ECN and PCN's payload.
rxe_cc_fb report(bool dec, uint32_t rate_mbps, uint32_t seq)
{
	rxe_cc_fb fb{};
	fb.cnp.opcode = dec ? RXE_OPCODE_CNP : RXE_OPCODE_PCN_RATE;
	fb.cnp.ecn = dec ? RXE_CC_ECN_CE : RXE_CC_ECN_NOT_ECT;
	fb.cnp.pcn = true;
	fb.cnp.version = RXE_CC_PCN_VERSION;
	fb.cnp.flags = static_cast<uint8_t>(RXE_CC_PCN_RATE_VALID | (dec ? RXE_CC_PCN_DEC : 0));
	fb.cnp.rate_mbps = rate_mbps;
	fb.cnp.seq = seq;
	return fb;
}

// A sender and its reports, numbered in order.
struct Sender {
	explicit Sender(uint64_t line = k10G, const cc::Params &p = {}) : qp(pcn(), line, 0, p) {}
	void dec(uint32_t mbps, uint64_t t = 0) { put(report(true, mbps, ++seq), t); }
	void inc(uint64_t t = 0) { put(report(false, 1, ++seq), t); }
	void put(const rxe_cc_fb &fb, uint64_t t = 0)
	{
		qp.ctx().out.events = 0;
		qp.feedback(RXE_CC_FB_CNP, fb, t);
	}
	uint64_t rate() { return qp.state("rate_kbps", 0); }
	uint64_t v(const char *name) { return qp.state(name, 0); }
	Qp qp;
	uint32_t seq = 100;
};

// ---- the laws, against the spec's exact Q20 vectors ---------------------

TEST(PcnLaw, IncreaseFromZeroMatchesTheQ20Vector)
{
	// specs/pcn.md §2.7: rate 0, line 10 Gbit/s, 15 increase CNPs
	struct Step {
		int k;
		uint32_t w;
		uint64_t rate;
	};
	const Step want[] = {{1, 12224, 78125},    {2, 18193, 193791}, {3, 26973, 363930},
	                     {4, 39765, 611803},   {5, 58138, 967830}, {10, 285892, 5380863},
	                     {15, 502810, 9583870}};
	uint64_t rate = 0;
	uint32_t w = kWMin;
	size_t next = 0;
	for (int k = 1; k <= 15; k++) {
		rxe_cc_pcn_increase(&rate, &w, 10'000'000, kWMax);
		if (next < std::size(want) && want[next].k == k) {
			EXPECT_EQ(w, want[next].w) << "after CNP " << k;
			EXPECT_EQ(rate, want[next].rate) << "after CNP " << k;
			next++;
		}
	}
	EXPECT_EQ(next, std::size(want));
}

TEST(PcnLaw, Fig10RecoveryBelowTenPercentAfterFiveAboveNinetyFiveAfterFifteen)
{
	uint64_t rate = 0;
	uint32_t w = kWMin;
	for (int k = 1; k <= 15; k++) {
		rxe_cc_pcn_increase(&rate, &w, 10'000'000, kWMax);
		if (k == 5) {
			EXPECT_LT(rate, 1'000'000u);
		}
	}
	EXPECT_GE(rate, 9'500'000u);
	// w grows towards w_max and never passes it
	for (int k = 0; k < 200; k++)
		rxe_cc_pcn_increase(&rate, &w, 10'000'000, kWMax);
	EXPECT_LE(w, kWMax);
	EXPECT_GE(w, kWMax - 16);
	EXPECT_LE(rate, 10'000'000u);
}

TEST(PcnLaw, DecreaseTargetMatchesTheVector)
{
	EXPECT_EQ(rxe_cc_pcn_target(2500, kWMin), 2'480'468u);
	EXPECT_EQ(rxe_cc_pcn_target(0, kWMin), 0u);
	// the largest RecRate cannot overflow
	EXPECT_EQ(rxe_cc_pcn_target(0xffffffffU, 0), 0xffffffffULL * 1000);
}

// ---- the reaction point -----------------------------------------------------

TEST(PcnRp, StartsAtLineRateWithWMin)
{
	Sender s;
	EXPECT_EQ(s.rate(), 10'000'000u);
	EXPECT_EQ(s.v("w"), 512u); // Q16
	EXPECT_EQ(s.qp.out().rate_bps, k10G);
	// no timer of its own: the rate stays without reports
	EXPECT_EQ(s.qp.timer_at(), -1);
}

TEST(PcnRp, DecreaseGoesToTheReceivingRateLessWMinAndResetsW)
{
	Sender s;
	s.inc();
	s.inc();
	EXPECT_GT(s.v("w"), 512u);
	s.dec(2500);
	EXPECT_EQ(s.rate(), 2'480'468u);
	EXPECT_EQ(s.v("w"), 512u);
	EXPECT_EQ(s.v("rec_rate_kbps"), 2'500'000u);
	EXPECT_EQ(s.v("cnp_dec"), 1u);
	EXPECT_EQ(s.v("cnp_inc"), 2u);
	EXPECT_TRUE(s.qp.out().events & RXE_CC_EV_RATE_DEC);
	EXPECT_EQ(s.qp.out().rate_bps, 2'480'468'000u);
}

TEST(PcnRp, ADecreaseNeverRaisesTheRate)
{
	Sender s;
	s.dec(1000);
	uint64_t r = s.rate();
	s.dec(5000);
	EXPECT_EQ(s.rate(), r);
	EXPECT_FALSE(s.qp.out().events & RXE_CC_EV_RATE_INC);
}

TEST(PcnRp, IncreaseUsesTheOldWeight)
{
	Sender s;
	s.dec(2000); // rate 1,984,375 kbit/s, w = w_min
	uint64_t rate = s.rate();
	uint32_t w = kWMin;
	rxe_cc_pcn_increase(&rate, &w, 10'000'000, kWMax);
	s.inc();
	EXPECT_EQ(s.rate(), rate);
	EXPECT_EQ(s.v("w"), w >> 4);
	EXPECT_TRUE(s.qp.out().events & RXE_CC_EV_RATE_INC);
}

TEST(PcnRp, TheFloorHoldsWhateverTheReportsSay)
{
	Sender s(k100M, {{"min_rate_kbps", 5000}});
	for (int i = 0; i < 10; i++)
		s.dec(1);
	EXPECT_EQ(s.rate(), 5000u);
	EXPECT_EQ(s.qp.out().rate_bps, 5'000'000u);
}

TEST(PcnRp, MalformedReportsAreCountedAndChangeNothing)
{
	Sender s(k100M);
	s.dec(50);
	const uint64_t rate = s.rate();
	const uint64_t w = s.v("w");
	const uint32_t seq = s.seq;

	std::vector<rxe_cc_fb> bad;
	rxe_cc_fb fb = report(true, 10, seq + 1);
	fb.cnp.version = 2;
	bad.push_back(fb);
	fb = report(true, 10, seq + 1);
	fb.cnp.flags = RXE_CC_PCN_RATE_VALID; // 0x81 without DEC
	bad.push_back(fb);
	fb = report(false, 10, seq + 1);
	fb.cnp.flags |= RXE_CC_PCN_DEC; // 0xC2 with DEC
	bad.push_back(fb);
	fb = report(true, 10, seq + 1);
	fb.cnp.flags = RXE_CC_PCN_DEC; // a decrease without a rate
	bad.push_back(fb);
	bad.push_back(report(true, 0, seq + 1));   // rate 0
	bad.push_back(report(true, 101, seq + 1)); // above the line rate
	fb = report(false, 0, seq + 1);            // an increase with rate 0
	bad.push_back(fb);
	for (const auto &b : bad) {
		s.put(b);
		EXPECT_TRUE(s.qp.out().events & RXE_CC_EV_FB_BAD);
		EXPECT_FALSE(s.qp.out().events & (RXE_CC_EV_RATE_DEC | RXE_CC_EV_RATE_INC));
	}
	EXPECT_EQ(s.v("cnp_bad"), bad.size());
	EXPECT_EQ(s.rate(), rate);
	EXPECT_EQ(s.v("w"), w);
	// the line rate itself is a legal RecRate
	s.put(report(true, 100, seq + 1));
	EXPECT_FALSE(s.qp.out().events & RXE_CC_EV_FB_BAD);
	EXPECT_EQ(s.v("cnp_dec"), 2u);
}

TEST(PcnRp, OldAndFarAheadSequencesAreIgnored)
{
	Sender s(k100M);
	s.dec(50);
	const uint64_t rate = s.rate();
	const uint32_t seq = s.seq;
	s.put(report(true, 10, seq));     // a repeat
	s.put(report(true, 10, seq - 1)); // behind
	s.put(report(true, 10, seq - 0x40000000U));
	s.put(report(true, 10, seq + (1U << 20))); // too far ahead
	EXPECT_EQ(s.v("cnp_old"), 4u);
	EXPECT_EQ(s.rate(), rate);
	// a lost report in between is fine, and the sequence wraps
	s.put(report(true, 10, seq + 3));
	EXPECT_EQ(s.v("cnp_dec"), 2u);
	EXPECT_LT(s.rate(), rate);

	Sender w(k100M);
	w.put(report(false, 1, 0xffffffffU));
	w.put(report(false, 1, 0));
	EXPECT_EQ(w.v("cnp_inc"), 2u);
	EXPECT_EQ(w.v("cnp_old"), 0u);
}

TEST(PcnRp, AStandardCnpIsForeignAndIgnored)
{
	Sender s(k100M);
	rxe_cc_fb fb{};
	fb.cnp.opcode = RXE_OPCODE_CNP;
	fb.cnp.ecn = RXE_CC_ECN_NOT_ECT;
	s.put(fb);
	EXPECT_EQ(s.v("cnp_foreign"), 1u);
	EXPECT_EQ(s.v("cnp_bad"), 0u);
	EXPECT_EQ(s.rate(), 100'000u);
	EXPECT_FALSE(s.qp.out().events & RXE_CC_EV_FB_BAD);
}

TEST(PcnRp, TheFlagsDecideAndAnEcnMismatchIsCounted)
{
	Sender s(k100M);
	rxe_cc_fb fb = report(true, 40, ++s.seq);
	fb.cnp.ecn = RXE_CC_ECN_NOT_ECT; // a switch cannot un-mark CE: counted
	s.put(fb);
	EXPECT_EQ(s.v("cnp_ecn_mismatch"), 1u);
	EXPECT_EQ(s.v("cnp_dec"), 1u);
	fb = report(false, 40, ++s.seq);
	fb.cnp.ecn = RXE_CC_ECN_CE; // CE on an increase: still an increase
	s.put(fb);
	EXPECT_EQ(s.v("cnp_ecn_mismatch"), 2u);
	EXPECT_EQ(s.v("cnp_inc"), 1u);
}

TEST(PcnRp, AnIdleSenderStartsAgainAtLineRate)
{
	Sender s(k100M, {{"period_us", 1000}, {"idle_periods", 10}});
	s.qp.send(0, 1100);
	s.dec(20, 1 * kMs);
	s.qp.send(2 * kMs, 1100);
	s.qp.send(12 * kMs, 1100); // exactly 10 periods: not yet idle
	EXPECT_LT(s.rate(), 100'000u);
	s.qp.send(22 * kMs + 1, 1100);
	EXPECT_EQ(s.rate(), 100'000u);
	EXPECT_EQ(s.v("w"), 512u);
	EXPECT_EQ(s.v("idle_resets"), 1u);

	Sender never(k100M, {{"period_us", 1000}, {"idle_periods", 0}});
	never.qp.send(0, 1100);
	never.dec(20, 1 * kMs);
	never.qp.send(10'000 * kMs, 1100);
	EXPECT_LT(never.rate(), 100'000u);
}

TEST(PcnRp, ParameterChecks)
{
	EXPECT_THROW(Qp(pcn(), k100M, 0, {{"w_min", 40000}, {"w_max", 30000}}),
	             std::invalid_argument);
	EXPECT_THROW(Qp(pcn(), 999'000, 0), std::invalid_argument); // below 1 Mbit/s
	// T follows the base RTT (+10 %) when one is measured
	Qp q(pcn(), k100M, 900 * kUs);
	EXPECT_EQ(q.params()[static_cast<size_t>(cc::param_index(pcn(), "period_us"))], 990u);
}

// ---- the notification point ------------------------------------------------

struct Np {
	explicit Np(const cc::Params &p = {{"period_us", 1000}}) : qp(pcn(), k100M, 0, p) {}
	// `n` packets of `bytes` from t on, `ce` of them CE, spaced `gap`
	void rx(uint64_t t, int n, int ce, uint64_t gap = 10 * kUs, uint32_t bytes = 1100,
	        bool cap = true)
	{
		for (int i = 0; i < n; i++) {
			rxe_cc_rx r{};
			r.bytes = bytes;
			r.ecn = i < ce ? RXE_CC_ECN_CE : RXE_CC_ECN_ECT0;
			r.cap = cap;
			rxe_cc_np_msg m{};
			EXPECT_FALSE(pcn()->rx_data(
				&qp.ctx(), &r, qp.abs(t + static_cast<uint64_t>(i) * gap), &m));
		}
	}
	bool fire(uint64_t t)
	{
		msg = rxe_cc_np_msg{};
		return qp.rx_timer(t, &msg);
	}
	Qp qp;
	rxe_cc_np_msg msg{};
};

TEST(PcnNp, APeriodAtLeastNinetyFivePercentCeIsADecrease)
{
	Np np;
	np.rx(0, 20, 19);
	EXPECT_EQ(np.qp.rx_timer_at(), static_cast<int64_t>(1 * kMs));
	ASSERT_TRUE(np.fire(1 * kMs));
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_DEC);
	EXPECT_EQ(np.msg.flags, RXE_CC_PCN_DEC | RXE_CC_PCN_RATE_VALID);
	// 20 x 1100 bytes in 1 ms = 176 Mbit/s, clamped at the line rate
	EXPECT_EQ(np.msg.rate_mbps, 100u);
	EXPECT_EQ(np.msg.seq, 1u);
	EXPECT_EQ(np.msg.dscp, 0xff);

	np.rx(1 * kMs, 20, 18); // 90 %: not congested
	ASSERT_TRUE(np.fire(2 * kMs));
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_INC);
	EXPECT_EQ(np.msg.flags, RXE_CC_PCN_RATE_VALID);
	EXPECT_EQ(np.msg.seq, 2u);
	EXPECT_EQ(np.qp.state("np_dec", 0), 1u);
	EXPECT_EQ(np.qp.state("np_inc", 0), 1u);
}

TEST(PcnNp, FewerThanTwentyPacketsMustAllBeCe)
{
	Np np;
	np.rx(0, 10, 9);
	ASSERT_TRUE(np.fire(1 * kMs));
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_INC);
	np.rx(1 * kMs, 10, 10);
	ASSERT_TRUE(np.fire(2 * kMs));
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_DEC);
}

// min_pkts (a reading beyond the spec, pcn.rst "Period"): a period that
// holds fewer packets at T runs on by T until it has them, at most 16 T;
// the rate is still over its real length.
TEST(PcnNp, APeriodWithFewerThanMinPktsRunsOn)
{
	Np np({{"period_us", 1000}, {"min_pkts", 20}});
	np.rx(0, 10, 10, 50 * kUs, 1250);
	EXPECT_FALSE(np.fire(1 * kMs)); // 10 < 20: on to 2 ms
	EXPECT_EQ(np.qp.rx_timer_at(), static_cast<int64_t>(2 * kMs));
	np.rx(1 * kMs, 10, 9, 50 * kUs, 1250);
	ASSERT_TRUE(np.fire(2 * kMs));
	// 19 of 20 CE: a decrease; 200,000 bits over 2 ms
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_DEC);
	EXPECT_EQ(np.msg.rate_mbps, 100u);
	EXPECT_EQ(np.msg.seq, 1u);
	// the next period is T again
	EXPECT_EQ(np.qp.rx_timer_at(), static_cast<int64_t>(3 * kMs));
	// with the default, 1, ten packets end the period at T
	Np one;
	one.rx(0, 10, 10, 50 * kUs, 1250);
	EXPECT_TRUE(one.fire(1 * kMs));
}

TEST(PcnNp, APeriodShortOfMinPktsEndsAtSixteenT)
{
	Np np({{"period_us", 1000}, {"min_pkts", 20}});
	for (int k = 0; k < 16; k++)
		np.rx(static_cast<uint64_t>(k) * kMs, 1, 1, 0, 1250);
	for (int k = 1; k < 16; k++)
		EXPECT_FALSE(np.fire(static_cast<uint64_t>(k) * kMs)) << k << " T";
	ASSERT_TRUE(np.fire(16 * kMs));
	// 16 packets, all CE: a decrease at 160,000 bits / 16 ms = 10 Mbit/s
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_DEC);
	EXPECT_EQ(np.msg.rate_mbps, 10u);
}

TEST(PcnNp, TheRateIsTheBytesOverThePeriodsRealLength)
{
	Np np;
	np.rx(0, 5, 5, 100 * kUs, 1250); // 50,000 bits
	ASSERT_TRUE(np.fire(1 * kMs));
	EXPECT_EQ(np.msg.rate_mbps, 50u);
	// a timer served late: the period is longer, the rate is not inflated
	np.rx(1 * kMs, 5, 5, 100 * kUs, 1250);
	ASSERT_TRUE(np.fire(3 * kMs));
	EXPECT_EQ(np.msg.rate_mbps, 25u);
	// a trickle rounds up to 1 Mbit/s, never 0
	np.rx(3 * kMs, 1, 1, 0, 60);
	np.rx(3 * kMs + 500 * kUs, 1, 1, 0, 60);
	ASSERT_TRUE(np.fire(4 * kMs));
	EXPECT_EQ(np.msg.rate_mbps, 1u);
}

TEST(PcnNp, OnePacketAfterALongGapIsMeasuredOverTheGap)
{
	Np np;
	np.rx(0, 1, 1, 0, 1250);
	ASSERT_TRUE(np.fire(1 * kMs)); // 10 Mbit/s over T
	EXPECT_EQ(np.msg.rate_mbps, 10u);
	// nothing in the next period: no report, the periods stop
	EXPECT_FALSE(np.fire(2 * kMs));
	EXPECT_EQ(np.qp.rx_timer_at(), -1);
	// one packet 5 ms after the last: 10,000 bits over 5 ms = 2 Mbit/s
	np.rx(5 * kMs, 1, 1, 0, 1250);
	ASSERT_TRUE(np.fire(6 * kMs));
	EXPECT_EQ(np.msg.rate_mbps, 2u);
	EXPECT_EQ(np.msg.seq, 2u);
	// a gap beyond 16 T is capped there: 10,000 bits / 16 ms
	np.fire(7 * kMs);
	np.rx(30 * kMs, 1, 1, 0, 1250);
	ASSERT_TRUE(np.fire(31 * kMs));
	EXPECT_EQ(np.msg.rate_mbps, 1u); // 0.625 rounds to 1
	// a gap beyond the idle time is a new flow: T
	np.fire(32 * kMs);
	np.rx(500 * kMs, 1, 1, 0, 1250);
	ASSERT_TRUE(np.fire(501 * kMs));
	EXPECT_EQ(np.msg.rate_mbps, 10u);
}

TEST(PcnNp, IncreasesGoToRxeCcPeersOnly)
{
	Np np;
	np.rx(0, 20, 0, 10 * kUs, 1100, false);
	EXPECT_FALSE(np.fire(1 * kMs));
	EXPECT_EQ(np.qp.state("np_withheld", 0), 1u);
	// a decrease is a CNP any reaction point takes for a cut
	np.rx(1 * kMs, 20, 20, 10 * kUs, 1100, false);
	ASSERT_TRUE(np.fire(2 * kMs));
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_DEC);
	// once a packet carried CAP
	np.rx(2 * kMs, 20, 0, 10 * kUs, 1100, true);
	ASSERT_TRUE(np.fire(3 * kMs));
	EXPECT_EQ(np.msg.type, RXE_CC_MSG_PCN_INC);
	EXPECT_EQ(np.qp.state("peer_cap", 0), 1u);
}

TEST(PcnNp, AnEarlyCallSendsNothing)
{
	Np np;
	np.rx(0, 20, 20);
	EXPECT_FALSE(np.fire(999 * kUs));
	EXPECT_TRUE(np.fire(1 * kMs));
	EXPECT_FALSE(np.fire(1 * kMs)); // idempotent at one time
}

// ---- payload encoding ---------------------------------------------------------

TEST(PcnWire, PayloadRoundTripsAndMatchesTheLayout)
{
	rxe_cc_np_msg m{};
	m.flags = RXE_CC_PCN_DEC | RXE_CC_PCN_RATE_VALID;
	m.rate_mbps = 0x01020304;
	m.seq = 0xa0b0c0d0;
	uint8_t body[RXE_CNP_BODY_BYTES];
	std::fill(std::begin(body), std::end(body), 0xee);
	rxe_cc_pcn_put(body, &m);
	const uint8_t want[RXE_CNP_BODY_BYTES] = {1,    2,    3,    4,    0x50, 0x43, 3, 1,
	                                          0xa0, 0xb0, 0xc0, 0xd0, 0,    0,    0, 0};
	EXPECT_TRUE(std::equal(std::begin(body), std::end(body), std::begin(want)));
	rxe_cc_fb_cnp fb{};
	rxe_cc_pcn_parse(body, &fb);
	EXPECT_TRUE(fb.pcn);
	EXPECT_EQ(fb.rate_mbps, m.rate_mbps);
	EXPECT_EQ(fb.seq, m.seq);
	EXPECT_EQ(fb.flags, m.flags);
	EXPECT_EQ(fb.version, 1);
	const uint8_t zero[RXE_CNP_BODY_BYTES] = {};
	rxe_cc_pcn_parse(zero, &fb);
	EXPECT_FALSE(fb.pcn);
}

// ---- the fluid model (specs/pcn.md §2.6, App. A) ---------------------------

// N senders through one bottleneck of capacity C with synchronised periods T
// (eqs. 3, 4): the queue grows by (sum R - C) T; a period is congested when
// the queue is non-empty after it, and then every flow receives its share
// of C, else its own rate; the reports go back at once.
class Fluid
{
public:
	Fluid(int n, uint64_t c_kbps, uint64_t t_us, std::vector<uint64_t> start = {})
	    : c_(c_kbps), t_us_(t_us)
	{
		for (int i = 0; i < n; i++) {
			s_.push_back(std::make_unique<Sender>(c_kbps * 1000));
			// a decrease to about the starting rate
			if (!start.empty())
				s_.back()->dec(static_cast<uint32_t>(start[static_cast<size_t>(i)] /
				                                     1000));
		}
	}
	uint64_t sum()
	{
		uint64_t t = 0;
		for (auto &s : s_)
			t += s->rate();
		return t;
	}
	// One period; returns whether it was congested.
	bool step()
	{
		const uint64_t total = sum();
		const int64_t d = (static_cast<int64_t>(total) - static_cast<int64_t>(c_)) *
		                  static_cast<int64_t>(t_us_) / 1000; // bits
		q_bits_ = std::max<int64_t>(0, q_bits_ + d);
		const bool congested = q_bits_ > 0;
		for (auto &s : s_) {
			if (congested) {
				uint64_t share = s->rate() * c_ / total; // kbit/s
				s->dec(static_cast<uint32_t>((share + 500) / 1000));
			} else {
				s->inc();
			}
		}
		return congested;
	}
	uint64_t rate(size_t i) { return s_[i]->rate(); }
	int64_t queue_bits() const { return q_bits_; }
	size_t n() const { return s_.size(); }

private:
	uint64_t c_;
	uint64_t t_us_;
	int64_t q_bits_ = 0;
	std::vector<std::unique_ptr<Sender>> s_;
};

constexpr double kW = 1.0 / 128;

TEST(PcnFluid, AggregateIsOneMinusWMinOfCapacityAfterOneLoop)
{
	// four flows at line rate into one 10 Gbit/s link
	Fluid f(4, 10'000'000, 500);
	ASSERT_TRUE(f.step());
	const double want = 10'000'000.0 * (1.0 - kW);
	EXPECT_NEAR(static_cast<double>(f.sum()), want, 4 * 1000.0); // 1 Mbit/s rounding per flow
	EXPECT_LT(f.sum(), 10'000'000u);
	// the backlog drains at w_min C per period (pitfall 5): 3 C T takes
	// 3 / w_min = 384 periods
	int drain = 1;
	while (f.step())
		drain++;
	EXPECT_NEAR(drain, 384, 8);
}

TEST(PcnFluid, SharesConvergeToOneOverN)
{
	Fluid f(4, 10'000'000, 500, {8'000'000, 4'000'000, 1'000'000, 200'000});
	for (int k = 0; k < 3000; k++)
		f.step();
	// at a decrease the shares are what they will be
	while (!f.step()) {
	}
	const double total = static_cast<double>(f.sum());
	for (size_t i = 0; i < f.n(); i++)
		EXPECT_NEAR(static_cast<double>(f.rate(i)) / total, 0.25, 0.01) << "flow " << i;
}

// The steady cycle (Prop. 2, 3): one increase, then decreases while the
// queue it built drains; per flow the rate moves between (1 - w) C / N and
// (1 + (N - 2 + w) w) C / N, by w C (N - 1 + w) / N, which tends to w C
// (eq. 16) as N grows; the queue swings by (N - 2 + w) w C T (eq. 15).
void expect_cycle(int n)
{
	const double c = 10'000'000.0, t_us = 500;
	Fluid f(n, 10'000'000, 500);
	// past the drain of the start's backlog, (N - 1) / w periods
	for (int k = 0; k < 140 * n + 1000; k++)
		f.step();
	uint64_t lo = UINT64_MAX, hi = 0;
	int64_t qmax = 0;
	int inc = 0;
	for (int k = 0; k < 50 * n; k++) {
		inc += !f.step();
		lo = std::min(lo, f.rate(0));
		hi = std::max(hi, f.rate(0));
		qmax = std::max(qmax, f.queue_bits());
	}
	const double dr = kW * c * (n - 1 + kW) / n;
	EXPECT_NEAR(static_cast<double>(hi - lo), dr, 0.05 * dr) << n << " flows";
	EXPECT_NEAR(static_cast<double>(lo), (1 - kW) * c / n, 0.01 * c / n) << n << " flows";
	const double dq = (n - 2 + kW) * kW * c * t_us / 1000; // bits
	EXPECT_NEAR(static_cast<double>(qmax), dq, 0.05 * dq + 8000) << n << " flows";
	// one increase in every cycle of about N periods; RecRate's 1 Mbit/s
	// unit is 0.6 % of a 64th of the link, close to the w C a period
	// drains, so with many flows a cycle may end a few periods early
	EXPECT_NEAR(inc, 50, n > 8 ? 15 : 5) << n << " flows";
}

TEST(PcnFluid, FourFlowsCycleAsTheModelSays)
{
	expect_cycle(4);
}

TEST(PcnFluid, ManyFlowsSwingByWMinTimesCapacity)
{
	expect_cycle(64);
	// and the swing is then within 2 % of w_min C
	const double dr = kW * 10'000'000.0 * (64 - 1 + kW) / 64;
	EXPECT_NEAR(dr, kW * 10'000'000.0, 0.02 * kW * 10'000'000.0);
}

} // namespace
