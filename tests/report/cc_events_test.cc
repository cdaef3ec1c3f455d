// ACC's halts from the monitor's event rows, against the bottleneck's
// backlog (tools/report/lib/halts.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cc_events.h"
#include "output.h"

namespace rxecc::report
{
namespace
{

constexpr std::uint64_t kT0 = 5'000'000'000ULL; // the generator's T0, monotonic

MonitorRow Row(double t_s, std::uint64_t qpn, const std::string &algo, std::uint64_t halts,
               std::uint64_t halt_ns, const std::string &event)
{
	MonitorRow r;
	r.time_ns = kT0 + static_cast<std::uint64_t>(t_s * 1e9);
	r.dev = "rxe_h1";
	r.qpn = qpn;
	r.algo = algo;
	r.event = event;
	if (algo == "acc") {
		r.state["acc.halts"] = halts;
		r.state["acc.halt_ns"] = halt_ns;
	}
	return r;
}

struct Fixture {
	MonitorFile mon;
	TrafficClock clock;
	Alignment al;
	Fixture()
	{
		mon.host = "h1";
		clock.t0_monotonic_ns = kT0;
		al.known = true;
		al.offset_ns = 2'000'000'000; // T0 at 2 s of fabric time
	}
};

TEST(Halts, FromEventRowsWithTheirExtension)
{
	Fixture fx;
	auto &r = fx.mon.rows;
	r.push_back(Row(0.100, 17, "acc", 0, 0, ""));
	// written out of time order: an event row may follow a later poll
	r.push_back(Row(0.300, 17, "acc", 1, 300'000, ""));
	r.push_back(Row(0.250, 17, "acc", 1, 150'000, "rate_dec|halt"));
	r.push_back(Row(0.254, 17, "acc", 1, 300'000, "halt")); // extended
	r.push_back(Row(0.260, 18, "dcqcn", 0, 0, "rate_dec"));
	r.push_back(Row(0.320, 17, "acc", 1, 300'000, "rate_inc"));
	r.push_back(Row(0.400, 17, "acc", 2, 50'000, "halt"));
	r.push_back(Row(0.500, 17, "acc", 2, 50'000, ""));
	auto h = acc_halts(fx.mon, fx.clock, fx.al);
	ASSERT_EQ(h.size(), 2u);
	EXPECT_EQ(h[0].host, "h1");
	EXPECT_EQ(h[0].qpn, 17u);
	EXPECT_EQ(h[0].index, 1u);
	EXPECT_DOUBLE_EQ(h[0].t_s, 2.250);
	EXPECT_EQ(h[0].length_ns, 300'000u);
	EXPECT_EQ(h[1].index, 2u);
	EXPECT_DOUBLE_EQ(h[1].t_s, 2.400);
	EXPECT_EQ(h[1].length_ns, 50'000u);
}

TEST(Halts, OnlyHaltsWhoseStartWasSeen)
{
	Fixture fx;
	auto &r = fx.mon.rows;
	// the monitor started mid-run: 3 halts before it, the third going on
	r.push_back(Row(0.100, 17, "acc", 3, 80'000, "halt"));
	// a poll row shows a halt the events lost (an overrun): no start
	r.push_back(Row(0.200, 17, "acc", 4, 60'000, ""));
	r.push_back(Row(0.201, 17, "acc", 4, 90'000, "halt"));
	r.push_back(Row(0.300, 17, "acc", 5, 40'000, "rate_dec|halt"));
	// rows without the state columns are skipped
	MonitorRow bare = Row(0.350, 17, "acc", 0, 0, "halt");
	bare.state.clear();
	r.push_back(bare);
	auto h = acc_halts(fx.mon, fx.clock, fx.al);
	ASSERT_EQ(h.size(), 2u);
	EXPECT_EQ(h[0].index, 3u); // its start is its first event
	EXPECT_EQ(h[0].length_ns, 80'000u);
	EXPECT_EQ(h[1].index, 5u);
	EXPECT_EQ(h[1].length_ns, 40'000u);
}

TEST(Halts, NoneWithoutAClockOrEvents)
{
	Fixture fx;
	fx.mon.rows.push_back(Row(0.250, 17, "acc", 1, 150'000, "halt"));
	TrafficClock unknown;
	unknown.known = false;
	EXPECT_TRUE(acc_halts(fx.mon, unknown, fx.al).empty());
	Fixture polls;
	polls.mon.rows.push_back(Row(0.250, 17, "acc", 1, 150'000, ""));
	EXPECT_TRUE(acc_halts(polls.mon, polls.clock, polls.al).empty());
}

std::vector<QueueSample> Queue(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> v)
{
	std::vector<QueueSample> q;
	for (auto [t, b] : v) {
		QueueSample s;
		s.t_us = t;
		s.queue_bytes = b;
		q.push_back(s);
	}
	return q;
}

TEST(Halts, BacklogIsTheLastSampleAtOrBeforeTheStart)
{
	auto q = Queue({{1000, 10}, {2000, 20}, {3000, 30}});
	std::vector<Halt> h(5);
	h[0].t_s = 0.0005; // before the first sample
	h[1].t_s = 0.001;  // at it
	h[2].t_s = 0.0025; // between
	h[3].t_s = 0.0039; // within an interval after the last
	h[4].t_s = 0.0045; // later: none
	attach_backlog(h, q);
	EXPECT_FALSE(h[0].queue_bytes);
	EXPECT_EQ(h[1].queue_bytes, 10u);
	EXPECT_EQ(h[2].queue_bytes, 20u);
	EXPECT_EQ(h[3].queue_bytes, 30u);
	EXPECT_FALSE(h[4].queue_bytes);
}

TEST(Halts, FiguresAgainstBacklogOverTheLinkRate)
{
	// 31 250 B at 25 Mbit/s drain in 10 ms
	std::vector<Halt> h(6);
	const double ms[] = {10, 12, 7, 20, 3, 5};
	for (std::size_t i = 0; i < h.size(); i++) {
		h[i].length_ns = static_cast<std::uint64_t>(ms[i] * 1e6);
		h[i].queue_bytes = 31'250;
	}
	h[4].queue_bytes = 0;     // an empty queue: no ratio
	h[5].queue_bytes.reset(); // no sample: not counted
	auto f = halt_figures(h, 25'000'000);
	ASSERT_TRUE(f);
	EXPECT_EQ(f->halts, 5u);
	EXPECT_EQ(f->empty, 1u);
	EXPECT_EQ(f->ratios, 4u);
	// ratios 1.0, 1.2, 0.7, 2.0
	EXPECT_DOUBLE_EQ(f->ratio_p10, 0.7);
	EXPECT_DOUBLE_EQ(f->ratio_p50, 1.0);
	EXPECT_DOUBLE_EQ(f->ratio_p90, 2.0);
	EXPECT_DOUBLE_EQ(f->within_25_pct, 50.0);
	EXPECT_DOUBLE_EQ(f->length_ms_p50, 10.0); // of 3, 7, 10, 12, 20
	EXPECT_DOUBLE_EQ(f->ideal_ms_p50, 10.0);  // of 0, 10, 10, 10, 10
	EXPECT_FALSE(halt_figures({}, 25'000'000));
	EXPECT_FALSE(halt_figures(h, 0));
}

TEST(Halts, FirstHaltsAgainstTheFirstPeak)
{
	// 62 500 B at 25 Mbit/s: 20 ms
	auto q =
		Queue({{1000, 0}, {2000, 40'000}, {3000, 62'500}, {4000, 30'000}, {30000, 90'000}});
	std::vector<Halt> h(5);
	const char *host[] = {"h1", "h2", "h3", "h1", "h4"};
	const double len_ms[] = {20, 16, 25, 3, 30};
	const std::uint64_t index[] = {1, 1, 1, 2, 1};
	for (std::size_t i = 0; i < h.size(); i++) {
		h[i].host = host[i];
		h[i].qpn = 17;
		h[i].index = index[i];
		h[i].t_s = 0.003;
		h[i].length_ns = static_cast<std::uint64_t>(len_ms[i] * 1e6);
	}
	h[4].t_s = -0.0005; // ends at 29.5 ms: the 90 KB at 30 ms are later
	auto f = first_halts(h, q, 25'000'000);
	ASSERT_TRUE(f);
	EXPECT_EQ(f->qps, 4u); // h1's second halt is not a first one
	EXPECT_DOUBLE_EQ(f->peak_kb, 62.5);
	EXPECT_DOUBLE_EQ(f->ideal_ms, 20.0);
	EXPECT_DOUBLE_EQ(f->ratio_min, 0.8);
	EXPECT_DOUBLE_EQ(f->ratio_p50, 1.0); // of 0.8, 1.0, 1.25, 1.5
	EXPECT_DOUBLE_EQ(f->ratio_max, 1.5);
	EXPECT_DOUBLE_EQ(f->ratio_mean, 1.1375);
	EXPECT_FALSE(first_halts({}, q, 25'000'000));
	EXPECT_FALSE(first_halts(h, {}, 25'000'000));
	EXPECT_FALSE(first_halts(h, Queue({{1000, 0}}), 25'000'000)); // no backlog
}

TEST(RateSettle, StepsOfPacedQpsOnTheFabricClock)
{
	Fixture fx;
	auto &r = fx.mon.rows;
	r.push_back(Row(0.100, 17, "acc", 0, 0, ""));
	r.back().rate_bps = 25'000'000;
	r.push_back(Row(0.200, 17, "acc", 1, 5, "rate_dec|halt"));
	r.back().rate_bps = 6'000'000;
	r.push_back(Row(0.200, 18, "none", 0, 0, ""));
	r.back().rate_bps = 0;
	r.push_back(Row(0.300, 19, "acc", 0, 0, "")); // no rate column: skipped
	auto s = rate_steps(fx.mon, fx.clock, fx.al);
	ASSERT_EQ(s.size(), 2u);
	EXPECT_DOUBLE_EQ(s[0].t_s, 2.1);
	EXPECT_EQ(s[0].qp, "h1/rxe_h1/17");
	EXPECT_EQ(s[0].rate_bps, 25'000'000u);
	EXPECT_FALSE(s[0].cut);
	EXPECT_TRUE(s[1].cut);
	EXPECT_EQ(s[1].rate_bps, 6'000'000u);
}

RateStep Step(double t, const char *qp, std::uint64_t mbps, bool cut = false)
{
	RateStep s;
	s.t_s = t;
	s.qp = qp;
	s.rate_bps = mbps * 1'000'000;
	s.cut = cut;
	return s;
}

TEST(RateSettle, FromTheFirstCutToTheLinkRate)
{
	// four QPs at 25 Mbit/s on a 25 Mbit/s link; the cuts come one by one
	std::vector<RateStep>
		s =
			{
				Step(1.000, "a", 25),
				Step(1.000, "b", 25),
				Step(1.000, "c", 0),
				Step(1.001, "d", 25),
				Step(1.010, "b", 7, true), // the first cut: 25 + 7 + 25 + 25
				Step(1.012, "a", 6, true),
				Step(1.013, "c", 6, true), // 6 + 7 + 6 + 25 = 44
				Step(1.016, "d", 8, true), // 27 <= 27.5: settled
				Step(1.020, "a", 9),
			};
	// written out of order
	std::swap(s[0], s[7]);
	auto r = rate_settle(s, 25'000'000, 0.1);
	ASSERT_TRUE(r);
	EXPECT_DOUBLE_EQ(r->detect_s, 1.010);
	EXPECT_DOUBLE_EQ(r->settle_s, 1.016);
	EXPECT_NEAR(r->ms(), 6.0, 1e-9);
	EXPECT_DOUBLE_EQ(r->sum_bps, 27e6);
	// a cut is needed, and a sum that comes down
	EXPECT_FALSE(rate_settle({Step(1, "a", 5)}, 25'000'000, 0.1));
	EXPECT_FALSE(rate_settle({Step(1, "a", 25), Step(1, "b", 25), Step(2, "a", 20, true)},
	                         25'000'000, 0.1));
}

TEST(RateSettle, ComparisonSection)
{
	std::vector<CompareRun> runs(2);
	runs[0].summary = {{"label", "dcqcn"}, {"rate_settle_ms", "4.365"}};
	runs[1].summary = {{"label", "acc"},
	                   {"rate_settle_ms", "1.020"},
	                   {"first_halt_ratio_min", "0.830"},
	                   {"first_halt_ratio_mean", "2.020"},
	                   {"first_halt_ratio_max", "3.820"},
	                   {"halt_ratio_p50", "3.440"}};
	std::string t = comparison_scenario_txt(runs);
	EXPECT_NE(t.find("the senders' computed rates"), std::string::npos) << t;
	EXPECT_NE(
		t.find("\ndcqcn               4.365        n/a        n/a        n/a        n/a\n"),
		std::string::npos)
		<< t;
	EXPECT_NE(
		t.find("\nacc                 1.020      0.830      2.020      3.820      3.440\n"),
		std::string::npos)
		<< t;
	runs[0].summary.erase("rate_settle_ms");
	runs[1].summary.erase("rate_settle_ms");
	EXPECT_EQ(comparison_scenario_txt(runs).find("computed rates"), std::string::npos);
}

} // namespace
} // namespace rxecc::report
