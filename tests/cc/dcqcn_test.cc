// DCQCN core against the test vectors of specs/dcqcn.md §4.5 and
// hand-computed sequences. Rates in kbit/s, alpha in Q16, times in us from
// QP creation unless a test says otherwise.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cc_harness.h"

namespace cc
{
namespace
{

const rxe_cc_ops *const kOps = &rxe_cc_dcqcn_ops;
constexpr uint64_t kLine = 100'000'000; // 100 Mbit/s
constexpr uint64_t kRtt = kMs;          // 1 ms: the Profile V values
constexpr uint64_t kFar = 1ULL << 40;

struct Expect {
	uint64_t rc, rt, alpha, t_stage;
};

void ExpectState(const Qp &qp, uint64_t t_us, const Expect &e, const std::string &where)
{
	SCOPED_TRACE(where + " at " + std::to_string(t_us) + " us");
	uint64_t t = t_us * kUs;
	EXPECT_EQ(qp.state("rate_kbps", t), e.rc);
	EXPECT_EQ(qp.state("target_rate_kbps", t), e.rt);
	EXPECT_EQ(qp.state("alpha", t), e.alpha);
	EXPECT_EQ(qp.state("time_stage", t), e.t_stage);
}

// ---------------------------------------------------------------- TV-1

struct Tv1Row {
	uint64_t t_us;
	char event; // 'c' = CNP, 'a' = advance (on_timer)
	Expect e;
};

const std::vector<Tv1Row> kTv1 = {
	{1000, 'c', {100000, 100000, 65536, 0}}, {1100, 'a', {100000, 100000, 65280, 0}},
	{1399, 'a', {100000, 100000, 64770, 0}}, {1400, 'a', {50779, 100000, 64516, 0}},
	{2000, 'c', {50779, 100000, 63013, 0}},  {2100, 'a', {50779, 100000, 63022, 0}},
	{2200, 'a', {26460, 100000, 62775, 0}},  {32199, 'a', {26460, 100000, 19393, 0}},
	{32200, 'a', {63230, 100000, 19317, 1}}, {33050, 'c', {63230, 100000, 18718, 1}},
	{33400, 'a', {54220, 63230, 18678, 0}},  {63400, 'a', {58725, 63230, 5685, 1}},
	{93400, 'a', {60988, 63250, 1673, 2}},   {123400, 'a', {62219, 63450, 436, 3}},
	{153399, 'a', {62219, 63450, 47, 3}},    {153400, 'a', {62935, 63650, 46, 4}},
};

void RunTv1(uint64_t t0)
{
	Qp qp(kOps, kLine, kRtt, {}, t0);
	ExpectState(qp, 0, {100000, 100000, 65536, 0}, "create");
	EXPECT_EQ(qp.state("limited", 0), 0u);
	EXPECT_EQ(qp.out().rate_bps, 100'000'000u);
	for (const auto &row : kTv1) {
		if (row.event == 'c')
			qp.cnp(row.t_us * kUs);
		else
			qp.timer(row.t_us * kUs);
		ExpectState(qp, row.t_us, row.e, std::string(1, row.event));
		EXPECT_EQ(qp.out().rate_bps, row.e.rc * 1000);
	}
	EXPECT_EQ(qp.state("limited", 153400 * kUs), 1u);
	EXPECT_EQ(qp.state("rate_cuts", 153400 * kUs), 3u);
	EXPECT_EQ(qp.state("cnp_handled", 153400 * kUs), 3u);
}

TEST(DcqcnTv1, VendorModelRowByRow)
{
	RunTv1(0);
}

TEST(DcqcnTv1, OnlyTheCnpsThenOneAdvance)
{
	Qp qp(kOps, kLine, kRtt);
	qp.cnp(1000 * kUs);
	qp.cnp(2000 * kUs);
	qp.cnp(33050 * kUs);
	qp.timer(153400 * kUs);
	ExpectState(qp, 153400, {62935, 63650, 46, 4}, "lazy");
	EXPECT_EQ(qp.out().rate_bps, 62935u * 1000);
}

TEST(DcqcnTv1, SameResultAcrossAClockWrap)
{
	// The run starts 50 ms before the u64 ns clock wraps.
	RunTv1(std::numeric_limits<uint64_t>::max() - 50 * kMs + 1);
}

TEST(DcqcnTv1, StateDumpDoesNotChangeTheState)
{
	Qp qp(kOps, kLine, kRtt);
	qp.cnp(1000 * kUs);
	// cut at 1400, then FR, AI, AI, AI, AI every 30 ms: 50779, 75390,
	// 87695, 93848, 96924, 98462 (Rt stays at the line rate)
	EXPECT_EQ(qp.state("rate_kbps", 153400 * kUs), 98462u);
	EXPECT_EQ(qp.state("alpha", 10'000 * kMs), 0u);
	qp.timer(1400 * kUs);
	ExpectState(qp, 1400, {50779, 100000, 64516, 0}, "after dumps");
}

TEST(DcqcnTv1, TimerDeadlines)
{
	Qp qp(kOps, kLine, kRtt);
	EXPECT_EQ(qp.timer_at(), -1) << "no limiter, nothing will change";
	qp.cnp(1000 * kUs);
	EXPECT_EQ(qp.timer_at(), static_cast<int64_t>(1400 * kUs))
		<< "the first cut at the end of the monitor period";
	qp.timer(1400 * kUs);
	EXPECT_EQ(qp.timer_at(), static_cast<int64_t>(31400 * kUs)) << "then the increase timer";
	qp.cnp(2000 * kUs);
	EXPECT_EQ(qp.timer_at(), static_cast<int64_t>(2200 * kUs));
	qp.timer(2200 * kUs);
	EXPECT_EQ(qp.timer_at(), static_cast<int64_t>(32200 * kUs));
	// Served late, the deadline is caught up exactly.
	qp.timer(40000 * kUs);
	EXPECT_EQ(qp.timer_at(), static_cast<int64_t>(62200 * kUs));
	// Once both rates are back at line rate nothing changes on its own.
	qp.timer(kFar);
	EXPECT_EQ(qp.state("rate_kbps", kFar), 100000u);
	EXPECT_EQ(qp.state("target_rate_kbps", kFar), 100000u);
	EXPECT_EQ(qp.timer_at(), -1);
	EXPECT_EQ(qp.out().rate_bps, 100'000'000u);
}

// ---------------------------------------------------------------- TV-2

const Params kPaper = {{"rp_mode", 1},           {"rp_threshold", 2},
                       {"rp_ai_rate_kbps", 100}, {"rp_hai_rate_kbps", 500},
                       {"rp_hai_linear", 1},     {"rp_hai_halve", 1},
                       {"rp_dce_tcp_rtt", 5500}, {"rp_time_reset", 5500},
                       {"rp_byte_reset", 55000}, {"rp_clamp_tgt_rate", 1}};

struct Tv2Row {
	uint64_t t_us;
	char event; // 'c' = CNP, 'a' = advance, 't' = transmit `bytes`
	uint32_t bytes;
	uint64_t rc, rt, alpha, t_stage, b_stage;
};

TEST(DcqcnTv2, PaperModelRowByRow)
{
	const std::vector<Tv2Row> rows = {
		{0, 'c', 0, 50000, 100000, 65536, 0, 0},
		{1000, 't', 55000, 75000, 100000, 65536, 0, 1},
		{2000, 'c', 0, 37500, 75000, 65536, 0, 0},
		{3000, 't', 55000, 56250, 75000, 65536, 0, 1},
		{4000, 't', 55000, 65625, 75000, 65536, 0, 2},
		{5000, 't', 55000, 70363, 75100, 65536, 0, 3},
		{6000, 't', 55000, 72782, 75200, 65536, 0, 4},
		{7500, 'a', 0, 74041, 75300, 65280, 1, 4},
		{13000, 'a', 0, 74721, 75400, 65025, 2, 4},
		{18500, 'a', 0, 75111, 75500, 64770, 3, 4},
		{19000, 't', 55000, 75556, 76000, 64770, 3, 5},
		{20000, 't', 55000, 76028, 76500, 64770, 3, 6},
		{24000, 'a', 0, 76514, 77000, 64516, 4, 6},
		{25000, 't', 27500, 77257, 78000, 64516, 4, 7},
		{26750, 'a', 0, 78129, 79000, 64516, 5, 7},
		{29500, 'a', 0, 79315, 80500, 64263, 6, 7},
	};
	Qp qp(kOps, kLine, kRtt, kPaper);
	for (const auto &r : rows) {
		SCOPED_TRACE(std::string(1, r.event) + " at " + std::to_string(r.t_us));
		uint64_t t = r.t_us * kUs;
		if (r.event == 'c')
			qp.cnp(t);
		else if (r.event == 't')
			qp.send(t, r.bytes);
		else
			qp.timer(t);
		EXPECT_EQ(qp.state("rate_kbps", t), r.rc);
		EXPECT_EQ(qp.state("target_rate_kbps", t), r.rt);
		EXPECT_EQ(qp.state("alpha", t), r.alpha);
		EXPECT_EQ(qp.state("time_stage", t), r.t_stage);
		EXPECT_EQ(qp.state("byte_stage", t), r.b_stage);
	}
	// After the hyper increase at 26750 the increase timer runs at T_i / 2.
	EXPECT_EQ(qp.timer_at(), static_cast<int64_t>((29500 + 2750) * kUs));
}

TEST(DcqcnTv2, PaperModelCutsOnEveryCnp)
{
	Qp qp(kOps, kLine, kRtt, kPaper);
	qp.cnp(0);
	qp.cnp(10 * kUs);
	qp.cnp(20 * kUs);
	EXPECT_EQ(qp.state("rate_cuts", 20 * kUs), 3u);
	EXPECT_EQ(qp.state("rate_kbps", 20 * kUs), 12500u);
}

// ---------------------------------------------------------------- TV-3

const std::vector<std::pair<uint64_t, uint8_t>> kTv3Packets = {
	{0, RXE_CC_ECN_CE},   {30, RXE_CC_ECN_CE},    {90, RXE_CC_ECN_CE},
	{100, RXE_CC_ECN_CE}, {120, RXE_CC_ECN_ECT0}, {150, RXE_CC_ECN_CE},
	{260, RXE_CC_ECN_CE}, {270, RXE_CC_ECN_CE},   {500, RXE_CC_ECN_CE}};

// Plays the framework (rxe_cc_qp.c): the QP's timer serves every deadline
// rxe_cc_next_deadline() reports when it is due, and rx_data sees the
// packets the algorithm's flags ask for. With `timers` false nothing serves
// deadlines, as a framework that never armed the timer would.
std::vector<uint64_t> RunNp(const Params &p, bool timers = true)
{
	Qp qp(kOps, kLine, kRtt, p);
	std::vector<uint64_t> cnps;
	auto serve = [&](uint64_t until) {
		uint64_t d = 0;
		while (timers && rxe_cc_next_deadline(&qp.out(), kOps->flags, &d) &&
		       d <= qp.abs(until)) {
			ASSERT_EQ(qp.rx_timer_at(), static_cast<int64_t>(d - qp.abs(0)));
			if (qp.rx_timer(d - qp.abs(0)))
				cnps.push_back((d - qp.abs(0)) / kUs);
		}
	};
	for (const auto &[t_us, ecn] : kTv3Packets) {
		serve(t_us * kUs);
		if ((kOps->flags & RXE_CC_F_RX_CE_ONLY) && ecn != RXE_CC_ECN_CE)
			continue;
		if (qp.rx(t_us * kUs, ecn))
			cnps.push_back(t_us);
	}
	serve(kFar);
	return cnps;
}

TEST(DcqcnTv3, VendorSuppressesInsideTheGap)
{
	EXPECT_EQ(RunNp({{"np_min_time_between_cnps", 100}}),
	          (std::vector<uint64_t>{0, 100, 260, 500}));
}

TEST(DcqcnTv3, PaperDefersToTheGapsEnd)
{
	EXPECT_EQ(RunNp({{"np_min_time_between_cnps", 100}, {"np_defer", 1}}),
	          (std::vector<uint64_t>{0, 100, 200, 300, 500}));
}

// DCQCN's timers are lazy, but its deferred CNP is a deadline the
// framework must arm: at the end of a burst no packet comes to send it.
// (This test used to expect {0, 100, 260, 500}, what a framework that
// served the deadline only with the next packet produced.)
TEST(DcqcnTv3, DeferredCnpIsArmedAlthoughTimersAreLazy)
{
	Qp qp(kOps, kLine, kRtt, {{"np_min_time_between_cnps", 100}, {"np_defer", 1}});
	EXPECT_TRUE(qp.rx(0, RXE_CC_ECN_CE));
	EXPECT_FALSE(qp.rx(30 * kUs, RXE_CC_ECN_CE));
	uint64_t d = 0;
	ASSERT_TRUE(rxe_cc_next_deadline(&qp.out(), kOps->flags, &d));
	EXPECT_EQ(d, qp.abs(100 * kUs));
	// Without the timer the last CNP of the burst is never sent.
	EXPECT_EQ(RunNp({{"np_min_time_between_cnps", 100}, {"np_defer", 1}}, false),
	          (std::vector<uint64_t>{0, 100, 260, 500}));
}

TEST(DcqcnTv3, LateDeferredCnpCountsFromItsDueTime)
{
	Qp qp(kOps, kLine, kRtt, {{"np_min_time_between_cnps", 100}, {"np_defer", 1}});
	EXPECT_TRUE(qp.rx(0, RXE_CC_ECN_CE));
	EXPECT_FALSE(qp.rx(30 * kUs, RXE_CC_ECN_CE));
	EXPECT_EQ(qp.rx_timer_at(), static_cast<int64_t>(100 * kUs));
	EXPECT_TRUE(qp.rx_timer(150 * kUs)); // served 50 us late
	EXPECT_EQ(qp.rx_timer_at(), -1);
	// The gap runs from 100 us, when the deferred CNP was due.
	EXPECT_TRUE(qp.rx(200 * kUs, RXE_CC_ECN_CE));
	EXPECT_EQ(qp.rx_timer_at(), -1);
	EXPECT_FALSE(qp.rx_timer(kFar));
	EXPECT_EQ(qp.state("np_cnp_sent", 0), 3u);
}

TEST(DcqcnTv3, OnlyCeTriggersACnp)
{
	Qp qp(kOps, kLine, kRtt, {{"np_min_time_between_cnps", 0}});
	for (uint64_t t = 0; t < 1000; t++) {
		EXPECT_FALSE(qp.rx(t * kUs, RXE_CC_ECN_NOT_ECT));
		EXPECT_FALSE(qp.rx(t * kUs, RXE_CC_ECN_ECT0));
		EXPECT_FALSE(qp.rx(t * kUs, RXE_CC_ECN_ECT1));
	}
	EXPECT_EQ(qp.state("np_ecn_marked", 0), 0u);
	rxe_cc_np_msg msg{};
	msg.type = 0xee;
	EXPECT_TRUE(qp.rx(1000 * kUs, RXE_CC_ECN_CE, &msg));
	EXPECT_EQ(msg.type, RXE_CC_MSG_CNP);
	EXPECT_EQ(msg.dscp, 48);
	EXPECT_EQ(msg.pcp, 6);
	// A gap of 0 sends a CNP for every CE packet, even at the same time.
	EXPECT_TRUE(qp.rx(1000 * kUs, RXE_CC_ECN_CE));
	EXPECT_EQ(qp.state("np_ecn_marked", 0), 2u);
	EXPECT_EQ(qp.state("np_cnp_sent", 0), 2u);
	EXPECT_EQ(qp.rx_timer_at(), -1);
}

TEST(DcqcnTv3, GapAcrossAClockWrap)
{
	const uint64_t t0 = std::numeric_limits<uint64_t>::max() - 50 * kUs;
	Qp qp(kOps, kLine, kRtt, {{"np_min_time_between_cnps", 100}}, t0);
	EXPECT_TRUE(qp.rx(0, RXE_CC_ECN_CE));
	EXPECT_FALSE(qp.rx(99 * kUs, RXE_CC_ECN_CE)); // after the wrap
	EXPECT_TRUE(qp.rx(100 * kUs, RXE_CC_ECN_CE));
}

// ---------------------------------------------------------------- TV-6

TEST(DcqcnTv6, FirstCnpRateAndRelease)
{
	const Params p = {{"rp_rate_to_set_on_first_cnp_kbps", 60000}, {"rp_release_at_max", 1}};
	Qp qp(kOps, kLine, kRtt, p);
	qp.cnp(0);
	ExpectState(qp, 0, {60000, 60000, 65536, 0}, "limiter at 60 Mbit/s");
	EXPECT_EQ(qp.out().rate_bps, 60'000'000u);
	ExpectState(qp, 400, {30467, 60000, 64516, 0}, "first cut");
	ExpectState(qp, 30400, {45234, 60000, 19855, 1}, "FR");
	ExpectState(qp, 60400, {52627, 60020, 6049, 2}, "AI");
	ExpectState(qp, 90400, {56424, 60220, 1780, 3}, "HAI");
	// HAI brings Rt to the line rate, then Rc closes in by halving the gap.
	EXPECT_EQ(qp.state("limited", 6300399 * kUs), 1u);
	EXPECT_EQ(qp.state("time_stage", 6300399 * kUs), 209u);
	EXPECT_EQ(qp.state("target_rate_kbps", 6300399 * kUs), 100000u);
	EXPECT_LT(qp.state("rate_kbps", 6300399 * kUs), 100000u);
	ExpectState(qp, 6300400, {100000, 100000, 0, 210}, "released");
	EXPECT_EQ(qp.state("limited", 6300400 * kUs), 0u);

	qp.timer(10'000'000 * kUs); // one advance over the whole recovery
	ExpectState(qp, 10'000'000, {100000, 100000, 0, 210}, "one advance");
	EXPECT_EQ(qp.timer_at(), -1);
	EXPECT_EQ(qp.out().rate_bps, 100'000'000u);

	qp.cnp(10'000'000 * kUs); // a first CNP again
	ExpectState(qp, 10'000'000, {60000, 60000, 65536, 0}, "limited again");
	EXPECT_EQ(qp.timer_at(), static_cast<int64_t>(10'000'400 * kUs));
	ExpectState(qp, 10'000'100, {60000, 60000, 65280, 0}, "alpha tick");
	ExpectState(qp, 10'000'400, {30467, 60000, 64516, 0}, "cut");
}

// ---------------------------------------------------- vendor model details

TEST(DcqcnVendor, CnpsInOneMonitorPeriodGiveOneCut)
{
	Qp qp(kOps, kLine, kRtt);
	qp.cnp(0);
	qp.timer(400 * kUs); // first cut
	for (uint64_t t = 401; t < 800; t += 7)
		qp.cnp(t * kUs);
	qp.timer(800 * kUs);
	EXPECT_EQ(qp.state("rate_cuts", 800 * kUs), 2u);
	EXPECT_EQ(qp.state("cnp_handled", 800 * kUs), 58u);
}

TEST(DcqcnVendor, RateFloorIsRpMinRate)
{
	Qp qp(kOps, kLine, kRtt);
	uint64_t prev = 100000;
	for (uint64_t t = 0; t < 20 * kMs; t += 100 * kUs) {
		qp.cnp(t);
		uint64_t rc = qp.state("rate_kbps", t);
		EXPECT_GE(rc, 1000u);
		EXPECT_LE(rc, prev);
		prev = rc;
	}
	EXPECT_EQ(prev, 1000u);
	EXPECT_EQ(qp.out().rate_bps, 1'000'000u);
}

TEST(DcqcnVendor, MinDecFacBoundsOneCut)
{
	// rp_gd = 10 cuts by alpha itself: alpha = 1 would stop the QP.
	Qp half(kOps, kLine, kRtt, {{"rp_gd", 10}});
	half.cnp(0);
	EXPECT_EQ(half.state("rate_kbps", 400 * kUs), 50000u);
	Qp none(kOps, kLine, kRtt, {{"rp_min_dec_fac", 100}});
	none.cnp(0);
	EXPECT_EQ(none.state("rate_kbps", 400 * kUs), 100000u);
	EXPECT_EQ(none.state("rate_cuts", 400 * kUs), 1u);
	Qp no_fac(kOps, kLine, kRtt, {{"rp_gd", 10}, {"rp_min_dec_fac", 0}});
	no_fac.cnp(0);
	// Cut with alpha after four ticks: 100000 - 100000 * 64516 / 65536
	EXPECT_EQ(no_fac.state("rate_kbps", 400 * kUs), 1557u);
	no_fac.cnp(500 * kUs);
	no_fac.cnp(900 * kUs);
	EXPECT_EQ(no_fac.state("rate_kbps", 1200 * kUs), 1000u);
}

TEST(DcqcnVendor, ClampTargetRateAlways)
{
	Qp qp(kOps, kLine, kRtt, {{"rp_clamp_tgt_rate", 1}});
	qp.cnp(1000 * kUs);
	ExpectState(qp, 1400, {50779, 100000, 64516, 0}, "first cut");
	qp.cnp(2000 * kUs);
	ExpectState(qp, 2200, {26460, 50779, 62775, 0}, "Rt = Rc before cut");
}

TEST(DcqcnVendor, ClampAfterTimerIncreaseNeedsAti)
{
	Qp qp(kOps, kLine, kRtt, {{"rp_clamp_tgt_rate_ati", 0}});
	qp.cnp(1000 * kUs);
	qp.cnp(2000 * kUs);
	qp.cnp(33050 * kUs);
	// TV-1 row 12 without the clamp: the timer increase does not count.
	ExpectState(qp, 33400, {54220, 100000, 18678, 0}, "no clamp");
}

TEST(DcqcnVendor, ByteCounterStages)
{
	const Params p = {{"rp_byte_reset", 10000}, {"rp_clamp_tgt_rate", 1}};
	Qp qp(kOps, kLine, kRtt, p);
	qp.send(500 * kUs, 20000); // not limited yet: not counted
	qp.cnp(1000 * kUs);
	EXPECT_EQ(qp.state("byte_counter", 1000 * kUs), 0u);
	qp.send(1200 * kUs, 6000);
	EXPECT_EQ(qp.state("byte_counter", 1200 * kUs), 6000u);
	qp.cnp(2000 * kUs);
	// The cut at 1400 reset the counter; the cut at 2200 sets Rt = Rc.
	EXPECT_EQ(qp.state("byte_counter", 1400 * kUs), 0u);
	ExpectState(qp, 2200, {26460, 50779, 62775, 0}, "cut");

	struct Step {
		char ev;
		uint64_t t_us;
		uint64_t rc, rt, t_stage, b_stage;
	};
	const std::vector<Step> steps = {
		{'t', 2300, 38620, 50779, 0, 1},  // FR: both stages < F
		{'t', 2400, 44710, 50799, 0, 2},  // AI: byte stage = F
		{'t', 2500, 47765, 50819, 0, 3},  // AI: time stage 0 < F
		{'a', 32200, 49302, 50839, 1, 3}, // timer: AI
		{'a', 62200, 50081, 50859, 2, 3}, // AI: min stage = F
		{'a', 92200, 50570, 51059, 3, 3}, // HAI: both stages > F
		{'t', 92300, 50915, 51259, 3, 4}, // HAI by bytes
	};
	for (const auto &s : steps) {
		SCOPED_TRACE(std::string(1, s.ev) + " at " + std::to_string(s.t_us));
		uint64_t t = s.t_us * kUs;
		if (s.ev == 't')
			qp.send(t, 10000);
		else
			qp.timer(t);
		EXPECT_EQ(qp.state("rate_kbps", t), s.rc);
		EXPECT_EQ(qp.state("target_rate_kbps", t), s.rt);
		EXPECT_EQ(qp.state("time_stage", t), s.t_stage);
		EXPECT_EQ(qp.state("byte_stage", t), s.b_stage);
		EXPECT_EQ(qp.state("byte_counter", t), 0u);
	}
}

TEST(DcqcnVendor, RecoveryStopsExactlyAtLineRate)
{
	Qp qp(kOps, kLine, kRtt, {{"rp_clamp_tgt_rate", 1}});
	qp.cnp(0);
	qp.cnp(500 * kUs);
	// Rt was clamped to 50779; HAI climbs 200 kbit/s per 30 ms.
	uint64_t t = 800 * kUs;
	uint64_t prev_rt = qp.state("target_rate_kbps", t);
	for (int i = 0; i < 400; i++) {
		t += 30 * kMs;
		qp.timer(t);
		uint64_t rc = qp.state("rate_kbps", t);
		uint64_t rt = qp.state("target_rate_kbps", t);
		EXPECT_LE(rc, rt);
		EXPECT_LE(rt, 100000u);
		EXPECT_GE(rt, prev_rt);
		prev_rt = rt;
	}
	EXPECT_EQ(qp.state("rate_kbps", t), 100000u);
	EXPECT_EQ(qp.state("target_rate_kbps", t), 100000u);
	EXPECT_EQ(qp.out().rate_bps, kLine);
}

TEST(DcqcnVendor, StagesSaturateAfterALongIdle)
{
	Qp qp(kOps, kLine, kRtt);
	qp.cnp(0);
	const uint64_t t = 70000ULL * 30 * kMs; // 70000 increase periods
	qp.timer(t);
	EXPECT_EQ(qp.state("time_stage", t), 0xffffu);
	EXPECT_EQ(qp.state("rate_kbps", t), 100000u);
	EXPECT_EQ(qp.state("alpha", t), 0u);
	EXPECT_EQ(qp.state("limited", t), 1u);
}

TEST(DcqcnVendor, MaxRateAndFirstCnpRate)
{
	const Params p = {{"rp_max_rate_kbps", 50000}, {"rp_rate_to_set_on_first_cnp_kbps", 60000}};
	Qp qp(kOps, kLine, kRtt, p);
	EXPECT_EQ(qp.out().rate_bps, 50'000'000u);
	qp.cnp(0);
	ExpectState(qp, 0, {50000, 50000, 65536, 0}, "min(first, max)");
}

TEST(DcqcnVendor, TimeNeverRunsBackwards)
{
	Qp a(kOps, kLine, kRtt);
	Qp b(kOps, kLine, kRtt);
	a.cnp(1000 * kUs);
	b.cnp(1000 * kUs);
	a.timer(1350 * kUs);
	a.cnp(1300 * kUs); // an older arrival time is taken as 1350
	b.cnp(1350 * kUs);
	for (uint64_t t : {1350ULL, 1400ULL, 1800ULL, 40000ULL})
		ExpectState(a, t,
		            {b.state("rate_kbps", t * kUs), b.state("target_rate_kbps", t * kUs),
		             b.state("alpha", t * kUs), b.state("time_stage", t * kUs)},
		            "backwards");
}

TEST(DcqcnVendor, AlphaStopsAtTheRelease)
{
	// Fast recovery to the line rate while alpha is still large.
	const Params p = {{"rp_release_at_max", 1},
	                  {"rp_dce_tcp_g", 1023},
	                  {"rp_time_reset", 3000},
	                  {"rp_hai_rate_kbps", 20000}};
	Qp lazy(kOps, kLine, kRtt, p);
	Qp eager(kOps, kLine, kRtt, p);
	lazy.cnp(0);
	eager.cnp(0);
	for (uint64_t t = 10 * kUs; t <= 200 * kMs; t += 10 * kUs)
		eager.timer(t);
	ASSERT_EQ(eager.state("limited", 200 * kMs), 0u);
	uint64_t alpha = eager.state("alpha", 200 * kMs);
	EXPECT_GT(alpha, 30000u);
	lazy.timer(200 * kMs);
	EXPECT_EQ(lazy.state("limited", 200 * kMs), 0u);
	EXPECT_EQ(lazy.state("alpha", 200 * kMs), alpha);
	EXPECT_EQ(lazy.state("time_stage", 200 * kMs), eager.state("time_stage", 200 * kMs));
}

TEST(DcqcnVendor, HyperPeriodAfterSaturationWithLargeF)
{
	// With F = 31 the rates reach the line rate during fast recovery; the
	// halved hyper-increase period only starts after the first hyper
	// increase, event 33 (stages 0..30: FR, 31: AI, 32: HAI).
	const Params p = {{"rp_threshold", 31}, {"rp_hai_halve", 1}};
	Qp lazy(kOps, kLine, kRtt, p);
	Qp eager(kOps, kLine, kRtt, p);
	lazy.cnp(0);
	eager.cnp(0);
	const uint64_t end = 5000 * kMs;
	for (uint64_t t = 100 * kUs; t <= end; t += 100 * kUs)
		eager.timer(t);
	lazy.timer(end);
	// 400 us + k * 30 ms for k = 1..33, then every 15 ms
	const uint64_t expect = 33 + (end - 400 * kUs - 33 * 30 * kMs) / (15 * kMs);
	EXPECT_EQ(eager.state("time_stage", end), expect);
	EXPECT_EQ(lazy.state("time_stage", end), expect);
	EXPECT_EQ(lazy.state("rate_kbps", end), 100000u);
}

TEST(DcqcnVendor, ParameterChangeKeepsTheInvariants)
{
	Qp qp(kOps, kLine, kRtt, {{"rp_clamp_tgt_rate", 1}});
	qp.cnp(0);
	qp.cnp(500 * kUs);
	// alpha 64516, 64263 at 500, 64267 (CNP), 64015, 63764 at 800;
	// cut 50779 - 50779 * 63764 / 2^17
	ExpectState(qp, 800, {26076, 50779, 63764, 0}, "two clamped cuts");
	// The framework installs a new set (without the clamp); the QP reads it
	// at its next event, before the check due at 800 that it has not run yet.
	rxe_cc_link link{kLine, kRtt, 1024};
	auto p =
		make_params(kOps, link, {{"rp_min_rate_kbps", 60000}, {"rp_max_rate_kbps", 70000}});
	const char *why = nullptr;
	ASSERT_EQ(kOps->setup(const_cast<void *>(qp.ctx().cfg), p.data(), &link, &why), 0);
	qp.cnp(900 * kUs);
	EXPECT_EQ(qp.state("rate_kbps", 900 * kUs), 60000u);
	EXPECT_EQ(qp.state("target_rate_kbps", 900 * kUs), 70000u);
	EXPECT_EQ(qp.out().rate_bps, 60'000'000u);
	qp.timer(1200 * kUs); // a cut on the new floor
	EXPECT_EQ(qp.state("rate_kbps", 1200 * kUs), 60000u);
	EXPECT_EQ(qp.state("rate_cuts", 1200 * kUs), 3u); // at 400, 800, 1200
	for (uint64_t t = 1200 * kUs; t < 2000 * kMs; t += 7 * kMs) {
		qp.timer(t);
		uint64_t rc = qp.state("rate_kbps", t);
		uint64_t rt = qp.state("target_rate_kbps", t);
		EXPECT_LE(60000u, rc);
		EXPECT_LE(rc, rt);
		EXPECT_LE(rt, 70000u);
		EXPECT_LE(qp.out().rate_bps, 70'000'000u);
	}
	EXPECT_EQ(qp.out().rate_bps, 70'000'000u);
}

// ------------------------------------------------------------ alpha decay

// Number of decays alpha = alpha * (1 - g) takes from 1.0 to 0.
uint32_t DecaysToZero(uint32_t g_q16)
{
	uint32_t n = 0;
	for (uint64_t a = 65536; a; a = (a * (65536 - g_q16)) >> 16)
		n++;
	return n;
}

TEST(DcqcnAlpha, DecayReachesZeroExactly)
{
	const std::vector<std::pair<uint32_t, uint32_t>> cases = {
		{1008, 477}, {1019, 1296}, {1020, 1565}, {1023, 4856}};
	for (const auto &[g, n_zero] : cases) {
		SCOPED_TRACE("rp_dce_tcp_g " + std::to_string(g));
		uint32_t g_q16 = (1024 - g) * 64;
		ASSERT_EQ(DecaysToZero(g_q16), n_zero); // specs/dcqcn.md §4.4
		// No clamp and no release: the limiter stays, alpha decays every
		// 100 us from the first CNP at 0.
		Qp lazy(kOps, kLine, kRtt, {{"rp_dce_tcp_g", g}});
		Qp eager(kOps, kLine, kRtt, {{"rp_dce_tcp_g", g}});
		lazy.cnp(0);
		eager.cnp(0);
		std::vector<uint64_t> expect = {65536};
		for (uint32_t k = 1; k <= n_zero + 2; k++) {
			expect.push_back((expect.back() * (65536 - g_q16)) >> 16);
			eager.timer(k * 100 * kUs);
			ASSERT_EQ(eager.state("alpha", k * 100 * kUs), expect[k]) << k;
		}
		EXPECT_GT(expect[n_zero - 1], 0u);
		EXPECT_EQ(expect[n_zero], 0u);
		// One lazy step over many periods, just before and at n_zero ticks.
		EXPECT_EQ(lazy.state("alpha", (n_zero - 1) * 100 * kUs + 99 * kUs),
		          expect[n_zero - 1]);
		EXPECT_EQ(lazy.state("alpha", n_zero * 100 * kUs), 0u);
		lazy.timer(n_zero / 2 * 100 * kUs + 50 * kUs);
		EXPECT_EQ(lazy.state("alpha", n_zero / 2 * 100 * kUs + 50 * kUs),
		          expect[n_zero / 2]);
	}
}

TEST(DcqcnAlpha, CnpEveryPeriodKeepsAlphaAtOne)
{
	Qp qp(kOps, kLine, kRtt);
	for (uint64_t t = 0; t < 5 * kMs; t += 50 * kUs)
		qp.cnp(t);
	EXPECT_EQ(qp.state("alpha", 5 * kMs), 65536u);
}

TEST(DcqcnAlpha, GainOfOne)
{
	// rp_dce_tcp_g = 0: g = 1, alpha is 1 after a period with a CNP and 0
	// after one without.
	Qp qp(kOps, kLine, kRtt, {{"rp_dce_tcp_g", 0}});
	qp.cnp(0);
	EXPECT_EQ(qp.state("alpha", 100 * kUs), 0u);
	qp.cnp(150 * kUs);
	EXPECT_EQ(qp.state("alpha", 200 * kUs), 65536u);
	EXPECT_EQ(qp.state("alpha", 300 * kUs), 0u);
}

// ------------------------------------------------ fixed-point edge cases

TEST(DcqcnEdges, RatesNearZero)
{
	const Params p = {{"rp_min_rate_kbps", 1}, {"rp_gd", 10}, {"rp_min_dec_fac", 0}};
	Qp qp(kOps, kLine, kRtt, p);
	for (uint64_t t = 0; t < 10 * kMs; t += 500 * kUs)
		qp.cnp(t);
	EXPECT_EQ(qp.state("rate_kbps", 10 * kMs), 1u);
	EXPECT_EQ(qp.out().rate_bps, 1000u);
	// One 1100 B frame takes 8.8 s at 1 kbit/s.
	EXPECT_EQ(rxe_cc_tx_time_ns(1100, qp.out().rate_bps), 8'800'000'000u);
	// Recovery from 1 kbit/s: Rt stayed at 100000 (no clamp).
	qp.timer(10 * kMs + 30 * kMs);
	EXPECT_EQ(qp.state("rate_kbps", 40 * kMs), 50001u);
}

TEST(DcqcnEdges, RatesNearTheLargestLineRate)
{
	const uint64_t line = uint64_t{RXE_CC_RATE_KBPS_MAX} * 1000;
	const Params p = {{"rp_hai_rate_kbps", RXE_CC_RATE_KBPS_MAX},
	                  {"rp_ai_rate_kbps", RXE_CC_RATE_KBPS_MAX},
	                  {"rp_hai_linear", 1},
	                  {"rp_clamp_tgt_rate", 1}};
	Qp qp(kOps, line, kRtt, p);
	EXPECT_EQ(qp.out().rate_bps, line);
	qp.cnp(0);
	qp.cnp(500 * kUs);
	uint64_t rc = qp.state("rate_kbps", 800 * kUs);
	EXPECT_LT(rc, RXE_CC_RATE_KBPS_MAX / 2);
	for (uint64_t t = 800 * kUs; t < 800 * kUs + 40 * 30 * kMs; t += 30 * kMs) {
		qp.timer(t);
		EXPECT_LE(qp.state("rate_kbps", t), qp.state("target_rate_kbps", t));
		EXPECT_LE(qp.state("target_rate_kbps", t), RXE_CC_RATE_KBPS_MAX);
	}
	EXPECT_EQ(qp.state("rate_kbps", kFar), RXE_CC_RATE_KBPS_MAX);
	EXPECT_EQ(qp.out().rate_bps, line);
}

TEST(DcqcnEdges, ByteCounterOfOneByte)
{
	const Params p = {{"rp_byte_reset", 1}, {"rp_hai_halve", 1}};
	Qp qp(kOps, kLine, kRtt, p);
	qp.cnp(0);
	for (uint64_t i = 1; i <= 100; i++)
		qp.send((400 + i) * kUs, 1);
	EXPECT_EQ(qp.state("byte_stage", 500 * kUs), 100u);
	EXPECT_EQ(qp.state("rate_kbps", 500 * kUs), 100000u);
}

// --------------------------------------------- lazy equals eager, randomly

struct Model {
	const char *name;
	Params p;
};

TEST(DcqcnLazy, LazyTimersMatchEagerTimers)
{
	const std::vector<Model> models = {
		{"vendor", {}},
		{"vendor bytes",
	         {{"rp_byte_reset", 30000},
	          {"rp_threshold", 3},
	          {"rp_hai_halve", 1},
	          {"rp_hai_linear", 1}}},
		{"vendor clamp release",
	         {{"rp_clamp_tgt_rate", 1}, {"rp_release_at_max", 1}, {"rp_hai_rate_kbps", 5000}}},
		{"vendor halve F31",
	         {{"rp_threshold", 31}, {"rp_hai_halve", 1}, {"rp_byte_reset", 200000}}},
		{"release early",
	         {{"rp_release_at_max", 1},
	          {"rp_dce_tcp_g", 1023},
	          {"rp_time_reset", 3000},
	          {"rp_hai_rate_kbps", 20000}}},
		{"paper",
	         {{"rp_mode", 1},
	          {"rp_threshold", 5},
	          {"rp_byte_reset", 100000},
	          {"rp_hai_linear", 1},
	          {"rp_hai_halve", 1},
	          {"rp_clamp_tgt_rate", 1},
	          {"rp_dce_tcp_rtt", 550},
	          {"rp_time_reset", 550}}},
		// thousands of small increases per quiet period: done in steps
		{"small steps",
	         {{"rp_time_reset", 10},
	          {"rp_ai_rate_kbps", 1},
	          {"rp_hai_rate_kbps", 3},
	          {"rp_threshold", 2}}},
		{"small steps release",
	         {{"rp_time_reset", 10},
	          {"rp_ai_rate_kbps", 2},
	          {"rp_hai_rate_kbps", 7},
	          {"rp_release_at_max", 1}}},
		{"small linear steps by bytes",
	         {{"rp_time_reset", 10},
	          {"rp_byte_reset", 1000000},
	          {"rp_hai_linear", 1},
	          {"rp_hai_rate_kbps", 1},
	          {"rp_threshold", 1}}},
		{"small linear steps halved",
	         {{"rp_time_reset", 20},
	          {"rp_hai_linear", 1},
	          {"rp_hai_halve", 1},
	          {"rp_hai_rate_kbps", 1}}},
	};
	for (const auto &m : models) {
		SCOPED_TRACE(m.name);
		std::mt19937_64 rng(7);
		Qp lazy(kOps, kLine, kRtt, m.p);
		Qp eager(kOps, kLine, kRtt, m.p);
		uint64_t t = 0, tick = 0;
		for (int i = 0; i < 3000; i++) {
			// bursts of CNPs, quiet periods of up to 200 ms, sends between
			uint64_t r = rng();
			uint64_t gap = (r % 8 == 0) ? (r >> 8) % (200 * kMs) : (r >> 8) % kMs;
			t += gap;
			for (; tick + 10 * kUs <= t; tick += 10 * kUs)
				eager.timer(tick);
			if (r % 3 == 0) {
				lazy.cnp(t);
				eager.cnp(t);
			} else {
				lazy.send(t, 1100);
				eager.send(t, 1100);
			}
			for (const char *s :
			     {"limited", "rate_kbps", "target_rate_kbps", "alpha", "time_stage",
			      "byte_stage", "byte_counter", "rate_cuts"})
				ASSERT_EQ(lazy.state(s, t), eager.state(s, t))
					<< s << " event " << i;
			ASSERT_EQ(lazy.out().rate_bps, eager.out().rate_bps);
			ASSERT_EQ(lazy.out().flags, eager.out().flags);
			if (lazy.out().flags & RXE_CC_OUT_TIMER) {
				ASSERT_EQ(lazy.out().timer_ns, eager.out().timer_ns);
			}
		}
	}
}

// The worst accepted parameters: 1 kbit/s steps every 1 us at the largest
// line rate, so that the rate takes about 2^31 increase events to recover
// from its floor. The catch-up is done under the QP's lock, with BH off,
// and for every state dump: it must not take one step per event (ctest
// gives the suite a timeout).
TEST(DcqcnEdges, QuietCatchUpIsBoundedForTheWorstParameters)
{
	const uint64_t line = uint64_t{RXE_CC_RATE_KBPS_MAX} * 1000;
	for (uint32_t linear : {0u, 1u}) {
		SCOPED_TRACE(linear ? "linear hyper increase" : "constant steps");
		Qp qp(kOps, line, kRtt,
		      {{"rp_ai_rate_kbps", 1},
		       {"rp_hai_rate_kbps", 1},
		       {"rp_time_reset", 1},
		       {"rp_min_rate_kbps", 1},
		       {"rp_min_dec_fac", 0},
		       {"rp_hai_linear", linear},
		       {"rp_rate_to_set_on_first_cnp_kbps", 1}});
		qp.cnp(0);
		qp.timer(kMs); // the cut at the end of the first monitor period
		EXPECT_LT(qp.state("rate_kbps", kMs), uint64_t{RXE_CC_RATE_KBPS_MAX} / 1000);
		// an hour later, as a dump sees it, and as the QP catches up
		const uint64_t later = 3600ULL * 1000 * kMs;
		EXPECT_EQ(qp.state("rate_kbps", later), uint64_t{RXE_CC_RATE_KBPS_MAX});
		EXPECT_EQ(qp.state("target_rate_kbps", later), uint64_t{RXE_CC_RATE_KBPS_MAX});
		EXPECT_EQ(qp.state("time_stage", later), 0xffffu);
		qp.timer(later);
		EXPECT_EQ(qp.out().rate_bps, line);
	}
}

// ------------------------------------------------------------- parameters

TEST(DcqcnParams, NvidiaNames)
{
	for (const char *name :
	     {"rp_clamp_tgt_rate", "rp_clamp_tgt_rate_ati", "rp_time_reset", "rp_byte_reset",
	      "rp_threshold", "rp_ai_rate_kbps", "rp_hai_rate_kbps", "rp_max_rate_kbps",
	      "rp_min_dec_fac", "rp_min_rate_kbps", "rp_rate_to_set_on_first_cnp_kbps",
	      "rp_dce_tcp_g", "rp_dce_tcp_rtt", "rp_initial_alpha_value",
	      "rp_rate_reduce_monitor_period", "rp_gd", "np_min_time_between_cnps", "np_cnp_dscp",
	      "np_cnp_prio"})
		EXPECT_GE(param_index(kOps, name), 0) << name;
}

uint32_t Param(const std::vector<uint32_t> &p, const char *name)
{
	int i = param_index(kOps, name);
	EXPECT_GE(i, 0) << name;
	return i < 0 ? 0 : p[static_cast<size_t>(i)];
}

TEST(DcqcnParams, DefaultsAreProfileVAt100MbitAnd1ms)
{
	rxe_cc_link link{kLine, kRtt, 1024};
	auto p = make_params(kOps, link, {});
	for (uint32_t i = 0; i < kOps->n_params; i++)
		EXPECT_EQ(p[i], kOps->params[i].def) << kOps->params[i].name;
	EXPECT_EQ(Param(p, "rp_ai_rate_kbps"), 20u);
	EXPECT_EQ(Param(p, "rp_hai_rate_kbps"), 200u);
	EXPECT_EQ(Param(p, "rp_min_rate_kbps"), 1000u);
	EXPECT_EQ(Param(p, "rp_dce_tcp_rtt"), 100u);
	EXPECT_EQ(Param(p, "rp_rate_reduce_monitor_period"), 400u);
	EXPECT_EQ(Param(p, "rp_time_reset"), 30000u);
	EXPECT_EQ(Param(p, "np_min_time_between_cnps"), 100u);
	EXPECT_EQ(Param(p, "rp_dce_tcp_g"), 1020u);
	EXPECT_EQ(Param(p, "rp_initial_alpha_value"), 1024u);
	EXPECT_EQ(Param(p, "rp_gd"), 11u);
	EXPECT_EQ(Param(p, "rp_min_dec_fac"), 50u);
	EXPECT_EQ(Param(p, "rp_clamp_tgt_rate"), 0u);
	EXPECT_EQ(Param(p, "rp_clamp_tgt_rate_ati"), 1u);
	EXPECT_EQ(Param(p, "rp_byte_reset"), 0u);
	EXPECT_EQ(Param(p, "rp_threshold"), 1u);
}

TEST(DcqcnParams, DefaultsScaleWithLineRateAndRtt)
{
	// The reference network of the vendor values: 25 Gbit/s, 10 us.
	rxe_cc_link ref{25'000'000'000ULL, 10 * kUs, 1024};
	auto p = make_params(kOps, ref, {});
	EXPECT_EQ(Param(p, "rp_ai_rate_kbps"), 5000u);
	EXPECT_EQ(Param(p, "rp_hai_rate_kbps"), 50000u);
	EXPECT_EQ(Param(p, "rp_dce_tcp_rtt"), 1u);
	EXPECT_EQ(Param(p, "rp_rate_reduce_monitor_period"), 4u);
	EXPECT_EQ(Param(p, "rp_time_reset"), 300u);
	EXPECT_EQ(Param(p, "np_min_time_between_cnps"), 1u);
	// 0.5 ms and 1 Gbit/s; an unknown RTT counts as 1 ms.
	rxe_cc_link half{1'000'000'000ULL, 500 * kUs, 1024};
	p = make_params(kOps, half, {});
	EXPECT_EQ(Param(p, "rp_dce_tcp_rtt"), 50u);
	EXPECT_EQ(Param(p, "rp_rate_reduce_monitor_period"), 200u);
	EXPECT_EQ(Param(p, "rp_time_reset"), 15000u);
	EXPECT_EQ(Param(p, "rp_ai_rate_kbps"), 200u);
	rxe_cc_link unknown{1'000'000'000ULL, 0, 1024};
	p = make_params(kOps, unknown, {});
	EXPECT_EQ(Param(p, "rp_time_reset"), 30000u);
	// Tiny and huge links stay within the ranges.
	for (uint64_t rate : {1000ULL, 1'000'000ULL, 10'000'000'000'000ULL}) {
		for (uint64_t rtt : {uint64_t{1}, 100 * kMs, 1000'000 * kMs}) {
			rxe_cc_link l{rate, rtt, 1024};
			p = make_params(kOps, l, {});
			for (uint32_t i = 0; i < kOps->n_params; i++) {
				EXPECT_GE(p[i], kOps->params[i].min) << kOps->params[i].name;
				EXPECT_LE(p[i], kOps->params[i].max) << kOps->params[i].name;
			}
		}
	}
}

int RunSetup(const rxe_cc_link &link, const Params &over, const char **why)
{
	auto p = make_params(kOps, link, over);
	std::vector<uint64_t> cfg(kOps->cfg_size / 8 + 1);
	return kOps->setup(cfg.data(), p.data(), &link, why);
}

TEST(DcqcnParams, SetupRejectsInconsistentSets)
{
	rxe_cc_link link{kLine, kRtt, 1024};
	const char *why = nullptr;
	EXPECT_EQ(RunSetup(link, {}, &why), 0);
	why = nullptr;
	EXPECT_EQ(RunSetup(link, {{"rp_min_rate_kbps", 100001}}, &why), -EINVAL);
	EXPECT_NE(why, nullptr);
	EXPECT_EQ(RunSetup(link, {{"rp_max_rate_kbps", 500}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"rp_rate_to_set_on_first_cnp_kbps", 999}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"rp_dce_tcp_g", 1024}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"rp_gd", 9}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"rp_initial_alpha_value", 0}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"rp_time_reset", 0}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"rp_threshold", 32}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"rp_min_dec_fac", 101}}, &why), -EINVAL);
	EXPECT_EQ(RunSetup(link, {{"np_cnp_dscp", 64}}, &why), -EINVAL);
	rxe_cc_link zero{999, kRtt, 1024};
	EXPECT_EQ(RunSetup(zero, {{"rp_min_rate_kbps", 1}}, &why), -EINVAL);
	rxe_cc_link huge{(uint64_t{RXE_CC_RATE_KBPS_MAX} + 1) * 1000, kRtt, 1024};
	EXPECT_EQ(RunSetup(huge, {}, &why), -EINVAL);
}

TEST(DcqcnParams, OpsDescribeTheAlgorithm)
{
	EXPECT_STREQ(kOps->name, "dcqcn");
	EXPECT_EQ(kOps->wire, RXE_CC_WIRE_ECT | RXE_CC_WIRE_CNP_RX | RXE_CC_WIRE_CNP_TX);
	EXPECT_NE(kOps->flags & RXE_CC_F_LAZY_TIMER, 0u);
	// The notification point reacts to CE marks only.
	EXPECT_NE(kOps->flags & RXE_CC_F_RX_CE_ONLY, 0u);
	EXPECT_EQ(kOps->on_ack, nullptr);
	EXPECT_NE(kOps->on_feedback, nullptr);
}

TEST(DcqcnParams, PauseFeedbackChangesNothing)
{
	Qp paused(kOps, kLine, kRtt);
	Qp plain(kOps, kLine, kRtt);
	paused.cnp(0);
	plain.cnp(0);
	rxe_cc_fb fb{};
	fb.pause.paused = 1;
	fb.pause.until_ns = paused.abs(5 * kMs);
	fb.pause.prio = 3;
	paused.feedback(RXE_CC_FB_PAUSE, fb, 1 * kMs);
	fb.pause.paused = 0;
	paused.feedback(RXE_CC_FB_PAUSE, fb, 5 * kMs);
	for (const char *name :
	     {"rate_kbps", "target_rate_kbps", "alpha", "rate_cuts", "cnp_handled", "limited"})
		EXPECT_EQ(paused.state(name, 20 * kMs), plain.state(name, 20 * kMs)) << name;
}

// specs/dcqcn.md §3.6: legal but doubtful sets compile, with a warning.
TEST(DcqcnParams, DoubtfulSetsCompileWithAWarning)
{
	rxe_cc_link link{kLine, kRtt, 1024};
	const char *msg = nullptr;
	EXPECT_EQ(RunSetup(link, {}, &msg), 0);
	EXPECT_EQ(msg, nullptr); // the scaled defaults are not doubtful
	const std::vector<Params> doubtful = {
		// t_dec < t_alpha
		{{"rp_rate_reduce_monitor_period", 50}, {"rp_dce_tcp_rtt", 100}},
		// paper model with K <= N
		{{"rp_mode", 1}, {"rp_dce_tcp_rtt", 100}, {"np_min_time_between_cnps", 100}},
		// vendor model with N > t_alpha
		{{"np_min_time_between_cnps", 200},
	         {"rp_dce_tcp_rtt", 100},
	         {"rp_rate_reduce_monitor_period", 400}},
		// a period shorter than one frame at R_max (88 us at 100 Mbit/s)
		{{"rp_time_reset", 10}},
	};
	for (const Params &p : doubtful) {
		msg = nullptr;
		EXPECT_EQ(RunSetup(link, p, &msg), 0);
		EXPECT_NE(msg, nullptr) << p.begin()->first;
	}
}

} // namespace
} // namespace cc
