// The scenarios' metrics: the pieces on small series, then long_short,
// incast_long and the fairness steps on runs built in memory (figures worked
// out by hand in the comments), and how the comparison shows them.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "analysis.h"
#include "error.h"
#include "output.h"
#include "scenario.h"

using namespace rxecc::report;

namespace
{

// ports.csv rows every 1000 us from 0 to END_MS ms: for each port, the
// bytes it receives in the millisecond ending at t (one frame per ms in
// which it receives any) and, for s0.r, tx of the sum.
using RxFn = std::function<std::uint64_t(int ms)>;
std::string ports_csv(const std::vector<std::pair<std::string, RxFn>> &ports, int end_ms)
{
	std::string s = std::string(kPortsHeader) + "\n";
	std::vector<std::uint64_t> rx(ports.size()), fr(ports.size());
	std::uint64_t tx = 0, txf = 0;
	for (int k = 0; k <= end_ms; ++k) {
		for (std::size_t i = 0; i < ports.size(); ++i) {
			std::uint64_t b = k ? ports[i].second(k) : 0;
			rx[i] += b;
			fr[i] += b ? 1 : 0;
			tx += b;
			txf += b ? 1 : 0;
			s += std::to_string(k * 1000) + ",s0," + std::to_string(i + 1) + "," +
			     ports[i].first.substr(3) + "," + std::to_string(fr[i]) + "," +
			     std::to_string(rx[i]) + ",0,0,0,0\n";
		}
		s += std::to_string(k * 1000) + ",s0,99,r,0,0," + std::to_string(txf) + "," +
		     std::to_string(tx) + ",0,0\n";
	}
	return s;
}

RunInputs run(const std::string &meta, const std::string &flows, const std::string &ports,
              const std::string &queues = "")
{
	RunInputs in;
	in.results = "R";
	in.meta_path = "R/meta.env";
	in.flows_path = "R/flows.csv";
	in.ports_path = "R/fabric/ports.csv";
	in.queues_path = "R/fabric/queues.csv";
	in.flat_path = "R/fabric/summary.flat";
	in.set = settings_from(Meta::parse(in.meta_path, "algo=hpcc\nlink_rate_bps=16000000\n"
	                                                 "bottleneck=s0.r\ndata_prio=3\n"
	                                                 "overhead=0\nwindow_mode=any\n" +
	                                                         meta));
	in.flows = parse_flows(in.flows_path, std::string(kFlowsHeader) + "\n" + flows);
	in.ports = parse_ports(in.ports_path, ports);
	in.queues =
		parse_queues(in.queues_path, std::string(kQueuesHeader) + "\n" + queues, "s0.r", 3);
	in.flat = parse_flat(in.flat_path, "total_drops 0\npfc_frames_sent 0\npfc_frames_rx 0\n");
	return in;
}

std::string value(const Analysis &a, const std::string &key)
{
	for (const auto &[k, v] : a.summary)
		if (k == key)
			return v;
	return "(no " + key + ")";
}

Options opts()
{
	Options o;
	o.scenario.rate_avg_us = 10000; // 10 ms
	o.scenario.hold_us = 50000;
	o.scenario.settle_us = 10000;
	o.scenario.pre_burst_us = 50000;
	return o;
}

// long_short at 16 Mbit/s = 2000 bytes/ms: the long flow alone at the line
// rate, 1000 B/ms while the short flow sends 1000 B/ms (100 to 200 ms), still
// 1000 B/ms until RESUME_MS, then AFTER B/ms to 400 ms.
RunInputs long_short_run(int resume_ms, std::uint64_t after, const std::string &extra = "")
{
	RxFn lng = [=](int ms) -> std::uint64_t {
		return ms <= 100 ? 2000 : ms <= resume_ms ? 1000 : after;
	};
	RxFn sht = [](int ms) -> std::uint64_t { return ms > 100 && ms <= 200 ? 1000 : 0; };
	return run("scenario=long_short\nlong_flow=long\nshort_flow=short\n" + extra,
	           "long,h1,r,s0.h1,0,0.4,0,0.01,,ok\nshort,h2,r,s0.h2,0.1,0.2,0,0.01,0.1,ok\n",
	           ports_csv({{"s0.h1", lng}, {"s0.h2", sht}}, 400));
}

} // namespace

TEST(Scenario, CentredRateWithOverhead)
{
	// 1000 bytes and one frame per ms; 24 B of overhead: 8.192 Mbit/s
	std::vector<PortSample> s;
	for (std::uint64_t k = 0; k <= 10; ++k)
		s.push_back({k * 1000, k * 1000, 0, 0, k});
	Series r = centred_rate(s, 4000, 24);
	ASSERT_EQ(r.size(), 11u);
	for (const auto &[t, v] : r)
		EXPECT_DOUBLE_EQ(v, 8.192) << t;
	// a window narrower than the sampling interval holds one sample: none
	EXPECT_TRUE(centred_rate(s, 500, 24).empty());
	// 2000 bytes in (5, 6] ms only: the window 3..7 ms sees it over 4 ms
	std::vector<PortSample> b;
	for (std::uint64_t k = 0; k <= 10; ++k)
		b.push_back({k * 1000, k >= 6 ? 2000u : 0u, 0, 0, 0});
	r = centred_rate(b, 4000, 0);
	EXPECT_DOUBLE_EQ(r[5].second, 2000.0 * 8 / 4000);
	EXPECT_DOUBLE_EQ(r[9].second, 0); // 7..10 ms (the series' end)
}

TEST(Scenario, DataSpanSkipsSmallGrowth)
{
	std::vector<PortSample> s;
	std::uint64_t v = 0;
	for (std::uint64_t k = 0; k <= 10; ++k) {
		// 300 bytes (a CM message) at 2 ms, data at 4..6 ms, 300 again at 9
		v += k == 2 || k == 9 ? 300 : (k >= 4 && k <= 6 ? 1500 : 0);
		s.push_back({k * 1000, v, 0, 0, 0});
	}
	auto sp = data_span(s, 0, 10000, 1000);
	ASSERT_TRUE(sp.has_value());
	EXPECT_EQ(*sp, std::make_pair(3000.0, 6000.0)); // (3, 4] .. (5, 6]
	// any growth counts with a threshold of 1
	EXPECT_EQ(*data_span(s, 0, 10000, 1), std::make_pair(1000.0, 9000.0));
	// only from 5 ms on
	EXPECT_EQ(*data_span(s, 5000, 10000, 1000), std::make_pair(4000.0, 6000.0));
	EXPECT_FALSE(data_span(s, 7000, 8000, 1).has_value());
}

TEST(Scenario, ForwardMeansOverTheHold)
{
	// 1000 bytes per ms to 5 ms, then 2000: one frame per ms, 24 B each
	std::vector<PortSample> s;
	std::uint64_t v = 0;
	for (std::uint64_t k = 0; k <= 10; ++k) {
		v += k == 0 ? 0 : (k <= 5 ? 1000 : 2000);
		s.push_back({k * 1000, v, 0, 0, k});
	}
	// from 3 ms over 4 ms: 2 x 1024 + 2 x 2024 bytes = 6096 B in 4 ms
	Series m = forward_means(s, 3000, 10000, 4000, 24);
	ASSERT_EQ(m.size(), 4u); // 3, 4, 5 and 6 ms: 6 + 4 = 10 ms is the last
	EXPECT_EQ(m[0].first, 3000);
	EXPECT_DOUBLE_EQ(m[0].second, 6096.0 * 8 / 4000);
	EXPECT_DOUBLE_EQ(m[3].second, 2024.0 * 8 / 1000);
	// 95 % of 16.192 Mbit/s: 15.3824; the means from 3, 4, 5 ms are 12.192,
	// 14.192, 16.192: first at 5 ms
	EXPECT_EQ(first_at_least(m, 0.95 * 16.192), 5000.0);
	EXPECT_FALSE(first_at_least(m, 17).has_value());
	// a hold longer than what is left: none
	EXPECT_TRUE(forward_means(s, 3000, 10000, 8000, 24).empty());
}

TEST(Scenario, QueueDrainAfterThePeak)
{
	Series q = {{0, 0}, {1, 5}, {2, 30}, {3, 30}, {4, 12}, {5, 1}, {6, 8}};
	auto d = queue_drain(q, 1, 4, 2);
	ASSERT_TRUE(d.has_value());
	EXPECT_EQ(d->peak_t_us, 2); // the first sample of the largest value
	EXPECT_EQ(d->peak_bytes, 30);
	EXPECT_EQ(d->drained_t_us, 5.0);
	// at or below 1: never after the peak
	d = queue_drain(q, 1, 4, 0.5);
	EXPECT_FALSE(d->drained_t_us.has_value());
	EXPECT_FALSE(queue_drain(q, 10, 20, 2).has_value());
}

TEST(Scenario, StepsOfAStaircase)
{
	// f1 0..30, f2 10..20, f3 10..30: {f1} {f1,f2,f3} {f1,f3}
	auto st = flow_steps({{"f1", 0, 30}, {"f2", 10, 20}, {"f3", 10, 30}});
	ASSERT_EQ(st.size(), 3u);
	EXPECT_EQ(st[0].flows, std::vector<std::string>({"f1"}));
	EXPECT_EQ(st[1].flows, std::vector<std::string>({"f1", "f2", "f3"}));
	EXPECT_EQ(st[2].flows, std::vector<std::string>({"f1", "f3"}));
	EXPECT_EQ(st[2].t0_us, 20);
	EXPECT_EQ(st[2].t1_us, 30);
	// a gap with no flow is no step; a flow without length is ignored
	st = flow_steps({{"a", 0, 10}, {"b", 20, 30}, {"c", 5, 5}});
	ASSERT_EQ(st.size(), 2u);
	EXPECT_EQ(st[1].t0_us, 20);
}

TEST(Scenario, LongShortRecovery)
{
	// short flow's data: (100, 101] .. (199, 200] ms. From 230 ms the long
	// flow receives 2000 B/ms: its mean over the 50 ms from T is at least 95 %
	// of 16 Mbit/s (1900 B/ms) once at most 5 of them are before 230 ms,
	// first at T = 225 ms, 25 ms after the short flow's end; 12.5 base RTTs
	// of 2 ms
	Analysis a = analyse(long_short_run(230, 2000, "base_rtt_ns=2000000\n"), opts());
	EXPECT_EQ(value(a, "short_start_s"), "0.100000");
	EXPECT_EQ(value(a, "short_end_s"), "0.200000");
	EXPECT_EQ(value(a, "long_alone_pct"), "100.00");
	EXPECT_EQ(value(a, "recovery_ms"), "25.0");
	EXPECT_EQ(value(a, "recovery_rtts"), "12.5");
	EXPECT_EQ(value(a, "recovery_pre_ms"), "25.0");
	EXPECT_EQ(value(a, "long_after_max_pct"), "100.00");
	EXPECT_EQ(value(a, "recovery_note"), "n/a");
	ASSERT_TRUE(a.focus.has_value());
	EXPECT_EQ(a.focus->kind, "recovery");
	EXPECT_DOUBLE_EQ(a.focus->threshold, 15.2);
	EXPECT_DOUBLE_EQ(*a.focus->mark_s, 0.025);
	// rows: time since the short flow's end, long and short rate (10 ms
	// centred means: full rate from 235 ms)
	EXPECT_EQ(a.focus->columns, std::vector<std::string>({"long", "short"}));
	EXPECT_EQ(a.focus->rows.front().size(), 3u);
	EXPECT_NE(focus_dat(*a.focus).find("0.034000 15.200 0.000\n"), std::string::npos);
	EXPECT_NE(focus_dat(*a.focus).find("0.035000 16.000 0.000\n"), std::string::npos);
	EXPECT_NE(a.text.find("25.0 ms = 12.5 base RTTs"), std::string::npos) << a.text;
}

TEST(Scenario, LongShortNotRecovered)
{
	// back at 1800 B/ms = 90 %: never 95 % of the line rate, and no base
	// RTT: no figure in RTTs either; 95 % of its rate alone is 1900: no
	Analysis a = analyse(long_short_run(230, 1800), opts());
	EXPECT_EQ(value(a, "recovery_ms"), "n/a");
	EXPECT_EQ(value(a, "recovery_rtts"), "n/a");
	EXPECT_EQ(value(a, "long_after_max_pct"), "90.00");
	EXPECT_EQ(value(a, "recovery_note").rfind("not recovered: ", 0), 0u)
		<< value(a, "recovery_note");
	EXPECT_FALSE(a.focus->mark_s.has_value());
	// recovered, but no base RTT: in ms only, and the note says why
	a = analyse(long_short_run(230, 2000), opts());
	EXPECT_EQ(value(a, "recovery_ms"), "25.0");
	EXPECT_EQ(value(a, "recovery_rtts"), "n/a");
	EXPECT_EQ(value(a, "recovery_note").rfind("no base RTT", 0), 0u);
}

TEST(Scenario, LongShortRolesThatCannotBeMeasured)
{
	Analysis a = analyse(long_short_run(230, 2000, "short_flow=nope\n"), opts());
	EXPECT_EQ(value(a, "recovery_ms"), "n/a");
	EXPECT_EQ(value(a, "recovery_note"), "short_flow nope is not a flow of flows.csv");
	EXPECT_FALSE(a.focus.has_value());
	// the long flow ends 40 ms after the short one: no 50 ms mean, no figure
	RunInputs in = long_short_run(230, 2000);
	for (PortSample &p : in.ports.series.at("s0.h1"))
		if (p.t_us > 240000)
			p.rx_bytes = in.ports.series.at("s0.h1")[240].rx_bytes;
	a = analyse(in, opts());
	EXPECT_EQ(value(a, "long_after_max_pct"), "n/a");
	EXPECT_EQ(value(a, "recovery_note"),
	          "the long flow's data ends less than 50 ms after the short flow's");
	// without the roles, none of its keys
	in = long_short_run(230, 2000);
	in.set.long_flow.clear();
	a = analyse(in, opts());
	EXPECT_EQ(value(a, "recovery_ms"), "(no recovery_ms)");
	EXPECT_THROW(settings_from(Meta::parse("m", "scenario=x\nalgo=a\nlink_rate_bps=1\n"
	                                            "bottleneck=s.p\ndata_prio=3\n"
	                                            "incast_flows=f1,,f2\n")),
	             Error);
}

TEST(Scenario, IncastLongDrain)
{
	// long flow h0 at 1000 B/ms throughout; f1 and f2 send 2000 B/ms from
	// 100 to 150 ms. Queue: 500 B before (p50 500 < a frame of 1082 B:
	// threshold 1082), k * 1000 B at 100 + k ms up to 30 KB at 130 ms, then
	// 2000 B less per ms: 0 at 145 ms, drained 45 ms after the burst's start
	RxFn lng = [](int) -> std::uint64_t { return 1000; };
	RxFn inc = [](int ms) -> std::uint64_t { return ms > 100 && ms <= 150 ? 2000 : 0; };
	auto queue = [](int floor) {
		std::string q;
		for (int ms = 1; ms <= 300; ++ms) {
			int b = ms < 100    ? 500
			        : ms <= 130 ? (ms - 100) * 1000
			                    : std::max(floor, 30000 - (ms - 130) * 2000);
			if (b)
				q += std::to_string(ms * 1000) + ",s0,99,r,3," + std::to_string(b) +
				     ",1,0,0,0,0,0,0,0,0,0\n";
		}
		return q;
	};
	auto in = [&](int floor) {
		return run(
			"scenario=incast_long\nlong_flow=long\nincast_flows=f1,f2\n"
			"base_rtt_ns=3000000\n",
			"long,h0,r,s0.h0,0,0.3,0,0.01,,ok\nf1,h1,r,s0.h1,0.1,0.15,0,0.01,0.05,ok\n"
			"f2,h2,r,s0.h2,0.1,0.15,0,0.01,0.05,ok\n",
			ports_csv({{"s0.h0", lng}, {"s0.h1", inc}, {"s0.h2", inc}}, 300),
			queue(floor));
	};
	Analysis a = analyse(in(0), opts());
	EXPECT_EQ(value(a, "burst_start_s"), "0.100000");
	EXPECT_EQ(value(a, "burst_end_s"), "0.150000");
	EXPECT_EQ(value(a, "incast_peak_kb"), "30.000");
	EXPECT_EQ(value(a, "incast_peak_ms"), "30.0");
	EXPECT_EQ(value(a, "drain_threshold_kb"), "1.082");
	EXPECT_EQ(value(a, "drain_ms"), "45.0");
	EXPECT_EQ(value(a, "drain_rtts"), "15.0");
	EXPECT_EQ(value(a, "drain_note"), "n/a");
	ASSERT_TRUE(a.focus.has_value());
	EXPECT_EQ(a.focus->kind, "drain");
	EXPECT_DOUBLE_EQ(*a.focus->mark_s, 0.045);
	// the queue never below 2 KB after the peak: not drained
	a = analyse(in(2000), opts());
	EXPECT_EQ(value(a, "drain_ms"), "n/a");
	EXPECT_EQ(value(a, "drain_note").rfind("not drained", 0), 0u);
}

TEST(Scenario, FairnessJainPerStep)
{
	// f1 0..300 ms at 1000 B/ms; f2 100..200 ms at 500 B/ms: steps {f1},
	// {f1, f2}: (1500)^2 / (2 (1000^2 + 500^2)) = 0.9, {f1}
	RxFn f1 = [](int) -> std::uint64_t { return 1000; };
	RxFn f2 = [](int ms) -> std::uint64_t { return ms > 100 && ms <= 200 ? 500 : 0; };
	RunInputs in = run("scenario=fairness\n",
	                   "f1,h1,r,s0.h1,0,0.3,0,0.01,,ok\nf2,h2,r,s0.h2,0.1,0.2,0,0.01,,ok\n",
	                   ports_csv({{"s0.h1", f1}, {"s0.h2", f2}}, 300));
	Analysis a = analyse(in, opts());
	EXPECT_EQ(value(a, "jain_step.1.jain"), "1.0000");
	EXPECT_EQ(value(a, "jain_step.2.start_s"), "0.100000");
	EXPECT_EQ(value(a, "jain_step.2.flows"), "2");
	EXPECT_EQ(value(a, "jain_step.2.jain"), "0.9000");
	EXPECT_EQ(value(a, "jain_step.3.flows"), "1");
	EXPECT_EQ(value(a, "jain_steps"), "1");
	EXPECT_EQ(value(a, "jain_step_min"), "0.9000");
	// a settling time longer than the steps: nothing to measure
	Options o = opts();
	o.scenario.settle_us = 150000;
	a = analyse(in, o);
	EXPECT_EQ(value(a, "jain_step.2.jain"), "n/a");
	EXPECT_EQ(value(a, "jain_step_min"), "n/a");
	EXPECT_EQ(value(a, "jain_step_note"),
	          "no step with two or more flows long enough to settle");
}

TEST(Scenario, VictimBRatesPerStep)
{
	// f1 (h1 -> d1) 0..300 ms and f4 (h1 -> d4) 100..200 ms share h1's
	// ingress, so each is measured at its receiver's port (tx); f2 (h2 ->
	// d2) 0..300 ms at its own ingress. Steps {f1, f2}, {f1, f2, f4},
	// {f1, f2}; the first 10 ms of each left out. h1 takes in 3000 B/ms
	// but s0.d1 sends 2000 B/ms (16 Mbit/s) throughout and s0.d4 1000 B/ms
	// (8 Mbit/s) in the second step; f2 1000 B/ms (8 Mbit/s), 500 B/ms
	// (4 Mbit/s) in the second.
	std::string s = std::string(kPortsHeader) + "\n";
	std::uint64_t h1 = 0, h2 = 0, d1 = 0, d4 = 0;
	for (int k = 0; k <= 300; ++k) {
		if (k) {
			const bool mid = k > 100 && k <= 200;
			h1 += mid ? 3000 : 2000;
			h2 += mid ? 500 : 1000;
			d1 += 2000;
			d4 += mid ? 1000 : 0;
		}
		const std::string t = std::to_string(k * 1000);
		s += t + ",s0,1,h1,0," + std::to_string(h1) + ",0,0,0,0\n";
		s += t + ",s0,2,h2,0," + std::to_string(h2) + ",0,0,0,0\n";
		s += t + ",s0,3,d1,0,0,0," + std::to_string(d1) + ",0,0\n";
		s += t + ",s0,4,d4,0,0,0," + std::to_string(d4) + ",0,0\n";
		s += t + ",s0,99,r,0,0,0,0,0,0\n";
	}
	RunInputs in = run("scenario=victim_b\nvictim=f1\n",
	                   "f1,h1,d1,s0.h1,0,0.3,0,0.01,,ok\nf2,h2,d2,s0.h2,0,0.3,0,0.01,,ok\n"
	                   "f4,h1,d4,s0.h1,0.1,0.2,0,0.01,,ok\n",
	                   s);
	in.host_port = {{"h1", "s0.h1"}, {"h2", "s0.h2"}, {"d1", "s0.d1"}, {"d4", "s0.d4"}};
	const std::vector<FlowPort> fp = flow_ports(in);
	ASSERT_EQ(fp.size(), 3u);
	EXPECT_EQ(fp[0].port, "s0.d1");
	EXPECT_TRUE(fp[0].tx);
	EXPECT_EQ(fp[1].port, "s0.h2"); // its own ingress (d2 has no samples anyway)
	EXPECT_FALSE(fp[1].tx);
	EXPECT_EQ(fp[2].port, "s0.d4");
	Analysis a = analyse(in, opts());
	EXPECT_EQ(value(a, "step.1.end_s"), "0.100000");
	EXPECT_EQ(value(a, "step.1.f1.rate_mbps"), "16.000");
	EXPECT_EQ(value(a, "step.1.f2.rate_mbps"), "8.000");
	EXPECT_EQ(value(a, "step.1.f4.rate_mbps"), "(no step.1.f4.rate_mbps)");
	EXPECT_EQ(value(a, "step.2.start_s"), "0.100000");
	EXPECT_EQ(value(a, "step.2.f1.rate_mbps"), "16.000");
	EXPECT_EQ(value(a, "step.2.f2.rate_mbps"), "4.000");
	EXPECT_EQ(value(a, "step.2.f4.rate_mbps"), "8.000");
	EXPECT_EQ(value(a, "step.3.f2.rate_mbps"), "8.000");
	EXPECT_NE(a.text.find("rates per step"), std::string::npos) << a.text;
	// a settling time longer than the steps: nothing to measure
	Options o = opts();
	o.scenario.settle_us = 150000;
	a = analyse(in, o);
	EXPECT_EQ(value(a, "step.2.f4.rate_mbps"), "n/a");
	// another scenario has no step rates
	in.set.scenario = "incast";
	a = analyse(in, opts());
	EXPECT_EQ(value(a, "step.1.start_s"), "(no step.1.start_s)");
}

TEST(Scenario, RateStepRatesAndPfcPerStep)
{
	// f0 (h0 -> r0) 0..300 ms; h1's f1_a 0..100 ms and f1_b 150..300 ms,
	// one after the other at h1's ingress, so both are measured there (r1
	// is the receiver of two flows). f0 1000 B/ms (8 Mbit/s) throughout,
	// h1 2000 B/ms (16 Mbit/s) until 100 ms and 500 B/ms (4 Mbit/s) from
	// 150. The port s0.s1 (a switch's, no host's) sends a PFC frame every
	// ms until 100 ms, the port to h0 two every ms from 150 ms.
	std::string s = std::string(kPortsHeader) + "\n";
	std::uint64_t h0 = 0, h1 = 0, sw = 0, ph = 0;
	for (int k = 0; k <= 300; ++k) {
		if (k) {
			h0 += 1000;
			h1 += k <= 100 ? 2000 : k > 150 ? 500 : 0;
			sw += k <= 100 ? 1 : 0;
			ph += k > 150 ? 2 : 0;
		}
		const std::string t = std::to_string(k * 1000);
		s += t + ",s0,1,h0,0," + std::to_string(h0) + ",0,0," + std::to_string(ph) + ",0\n";
		s += t + ",s0,2,h1,0," + std::to_string(h1) + ",0,0,0,0\n";
		s += t + ",s0,3,s1,0,0,0,0," + std::to_string(sw) + ",0\n";
		s += t + ",s0,99,r,0,0,0,0,0,0\n";
	}
	RunInputs in = run("scenario=rate_step\nvictim=f0\n",
	                   "f0,h0,r0,s0.h0,0,0.3,0,0.01,,ok\nf1_a,h1,r1,s0.h1,0,0.1,0,0.01,,ok\n"
	                   "f1_b,h1,r1,s0.h1,0.15,0.3,0,0.01,,ok\n",
	                   s);
	in.host_port = {{"h0", "s0.h0"}, {"h1", "s0.h1"}, {"r0", "s0.r0"}, {"r1", "s0.r1"}};
	Analysis a = analyse(in, opts());
	EXPECT_EQ(value(a, "step.1.end_s"), "0.100000");
	EXPECT_EQ(value(a, "step.1.f0.rate_mbps"), "8.000");
	EXPECT_EQ(value(a, "step.1.f1_a.rate_mbps"), "16.000");
	EXPECT_EQ(value(a, "step.1.pfc_to_switches"), "90"); // 10 .. 100 ms
	EXPECT_EQ(value(a, "step.1.pfc_to_hosts"), "0");
	EXPECT_EQ(value(a, "step.2.start_s"), "0.100000");
	EXPECT_EQ(value(a, "step.2.f1_a.rate_mbps"), "(no step.2.f1_a.rate_mbps)");
	EXPECT_EQ(value(a, "step.2.pfc_to_switches"), "0");
	EXPECT_EQ(value(a, "step.2.pfc_to_hosts"), "0");
	EXPECT_EQ(value(a, "step.3.f0.rate_mbps"), "8.000");
	EXPECT_EQ(value(a, "step.3.f1_b.rate_mbps"), "4.000");
	EXPECT_EQ(value(a, "step.3.pfc_to_hosts"), "280"); // 160 .. 300 ms
	EXPECT_EQ(value(a, "step.3.pfc_to_switches"), "0");
	EXPECT_NE(a.text.find("PFC>sw"), std::string::npos) << a.text;
	// the comparison shows each run's steps: flows in the order the steps
	// first name them, "-" where a flow is not in the step
	CompareRun cr;
	cr.dir = "R";
	for (const auto &[k, v] : a.summary)
		cr.summary[k] = v;
	const std::string t = comparison_scenario_txt({cr});
	EXPECT_NE(
		t.find("step  start [s]    end [s]       f0     f1_a     f1_b  PFC>host    PFC>sw"),
		std::string::npos)
		<< t;
	EXPECT_NE(t.find("  1      0.000000   0.100000    8.000   16.000        -         0        "
	                 "90"),
	          std::string::npos)
		<< t;
	EXPECT_NE(t.find("  3      0.150000   0.300000    8.000        -    4.000       280        "
	                 " 0"),
	          std::string::npos)
		<< t;
	// a step shorter than the settling time counts no frames
	Options o = opts();
	o.scenario.settle_us = 60000;
	a = analyse(in, o);
	EXPECT_EQ(value(a, "step.2.pfc_to_hosts"), "n/a");
	EXPECT_EQ(value(a, "step.1.pfc_to_switches"), "40"); // 60 .. 100 ms
}

TEST(Scenario, ComparisonColumnsAndSections)
{
	Analysis a1 = analyse(long_short_run(230, 2000, "base_rtt_ns=2000000\n"), opts());
	Analysis a2 = analyse(long_short_run(230, 1800, "label=slow\n"), opts());
	Analysis a3 = analyse(long_short_run(230, 1800, "label=none\nshort_flow=x\n"), opts());
	std::vector<CompareRun> runs;
	for (const Analysis *a : {&a1, &a2, &a3})
		runs.push_back({"R", "W", parse_summary(summary_csv(*a)), a});
	std::string csv = comparison_csv(runs);
	std::string head = csv.substr(0, csv.find('\n'));
	EXPECT_NE(head.find(",fct_mean_s,jain_step_min,recovery_ms,recovery_rtts,"),
	          std::string::npos)
		<< head;
	// hpcc: recovered; slow: n/a (and no Jain per step in this scenario)
	EXPECT_NE(csv.find("\nhpcc,"), std::string::npos);
	EXPECT_NE(csv.find(",n/a,25.0,12.5,25.0,100.00,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a\n"),
	          std::string::npos)
		<< csv;
	std::string txt = comparison_txt("long_short", runs);
	EXPECT_NE(txt.find("long flow recovery"), std::string::npos) << txt;
	EXPECT_NE(txt.find("not recovered: "), std::string::npos) << txt;
	EXPECT_EQ(txt.find("queue after the incast"), std::string::npos);
	// a run without the figures: n/a and why, no unit after n/a
	EXPECT_NE(txt.find("short_flow x is not a flow of flows.csv"), std::string::npos) << txt;
	EXPECT_EQ(txt.find("n/a%"), std::string::npos) << txt;
	PlotContext c{"png", "D", "t", "10 ms"};
	std::string gp = cmp_focus_gp(c, runs);
	EXPECT_NE(gp.find("'W/focus.dat' using 1:2"), std::string::npos) << gp;
	EXPECT_NE(gp.find("set output 'D/recovery.png'"), std::string::npos) << gp;
	for (CompareRun &r : runs)
		r.analysis = nullptr;
	EXPECT_EQ(cmp_focus_gp(c, runs), "");
}

namespace
{

// The generator's messages.csv of a mice flow posting a message every
// 2 ms from 0: messages 0..4 (0..8 ms) fall in a warm-up of 10 ms; 5..13
// (10..26 ms) completed after 1000, 1100, .., 1700 and 5000 us; 14 (28 ms)
// never completed. Rows of another flow and a column the report does not
// read are in between.
std::string mice_messages_csv()
{
	std::string s = "flow,msg,bytes,post_ns,complete_ns,qp\n";
	for (int i = 0; i <= 14; ++i) {
		const std::uint64_t post = static_cast<std::uint64_t>(i) * 2000000;
		const std::uint64_t us =
			i == 13 ? 5000 : 1000 + 100 * static_cast<std::uint64_t>(i < 5 ? 0 : i - 5);
		s += "mice," + std::to_string(i) + ",1000," + std::to_string(post) + "," +
		     (i == 14 ? std::string() : std::to_string(post + us * 1000)) + ",0\n";
		s += "other," + std::to_string(i) + ",64," + std::to_string(post) + ",,0\n";
	}
	return s;
}

RunInputs mice_run(const std::string &extra = "")
{
	RxFn el = [](int) -> std::uint64_t { return 1500; };
	RxFn mi = [](int) -> std::uint64_t { return 500; };
	RunInputs in = run("scenario=mice\nmice_flow=mice\n" + extra,
	                   "e1,e1,r,s0.e1,0,0.1,0,0.012,,ok\nmice,m,r,s0.m,0,0.1,0,0.004,,ok\n",
	                   ports_csv({{"s0.e1", el}, {"s0.m", mi}}, 100));
	in.messages_path = "R/traffic/messages.csv";
	in.mice_messages = parse_messages(in.messages_path, mice_messages_csv(), "mice");
	return in;
}

Options mice_opts()
{
	Options o = opts();
	o.scenario.mice_warmup_us = 10000;
	o.scenario.mice_min_messages = 5;
	return o;
}

} // namespace

TEST(Scenario, MiceMessagesParsed)
{
	std::vector<MessageRecord> m = parse_messages("M", mice_messages_csv(), "mice");
	ASSERT_EQ(m.size(), 15u); // the other flow's rows left out
	EXPECT_EQ(m[5].msg, 5u);
	EXPECT_EQ(m[5].bytes, 1000u);
	EXPECT_EQ(m[5].post_ns, 10000000u);
	EXPECT_EQ(m[5].complete_ns, std::optional<std::uint64_t>(11000000));
	EXPECT_FALSE(m[14].complete_ns.has_value());
	EXPECT_TRUE(parse_messages("M", mice_messages_csv(), "nope").empty());
	// columns by name, in any order
	m = parse_messages("M", "qp,complete_ns,post_ns,bytes,msg,flow\n0,300,100,1000,0,mice\n",
	                   "mice");
	ASSERT_EQ(m.size(), 1u);
	EXPECT_EQ(*m[0].complete_ns - m[0].post_ns, 200u);
	// a missing column, a short row, a bad number, a completion before
	// its post: errors with the file (and line)
	auto what = [](const std::string &csv) {
		try {
			parse_messages("M", csv, "mice");
		} catch (const Error &e) {
			return std::string(e.what());
		}
		return std::string("no error");
	};
	const std::string h = "flow,msg,bytes,post_ns,complete_ns,qp\n";
	EXPECT_EQ(what("flow,msg,bytes,complete_ns\nmice,0,1,2\n"),
	          "M: no column 'post_ns' in the header 'flow,msg,bytes,complete_ns'");
	EXPECT_EQ(what(h + "mice,0,1000,5,6,0\nmice,1,1000\n"), "M:3: expected 6 fields, found 3");
	EXPECT_EQ(what(h + "mice,0,1000,-5,6,0\n"), "M:2: post_ns '-5' is not a whole number");
	EXPECT_EQ(what(h + "mice,0,1000,7,6,0\n"), "M:2: complete_ns 6 is before post_ns 7");
	EXPECT_EQ(what(h + "mice,0,1000,,6,0\n"), "M:2: post_ns is empty");
}

TEST(Scenario, MiceLatencyAfterTheWarmUp)
{
	const std::vector<MessageRecord> msgs = parse_messages("M", mice_messages_csv(), "mice");
	MiceLatency m = mice_latency("M", "mice", msgs, 10000, 5);
	// counted: 1000, 1100, .., 1700 and 5000 us (9); p50 the 5th = 1400,
	// p95 and p99 the 9th = 5000; mean 15800 / 9
	EXPECT_EQ(m.messages, 9u);
	EXPECT_EQ(m.warmup, 5u);
	EXPECT_EQ(m.incomplete, 1u);
	EXPECT_EQ(m.msg_bytes, 1000u);
	EXPECT_DOUBLE_EQ(m.us.p50, 1400);
	EXPECT_DOUBLE_EQ(m.us.p95, 5000);
	EXPECT_DOUBLE_EQ(m.us.p99, 5000);
	EXPECT_DOUBLE_EQ(m.us.max, 5000);
	EXPECT_NEAR(m.us.mean, 15800.0 / 9, 1e-9);
	ASSERT_EQ(m.points.size(), 9u);
	EXPECT_DOUBLE_EQ(m.points.front().first, 0.010); // s since the first post
	EXPECT_DOUBLE_EQ(m.points.front().second, 1000);
	EXPECT_DOUBLE_EQ(m.points.back().second, 5000);
	// without a warm-up messages 0..4 count too, 1000 us each: 14
	// messages, six of 1000 us, p50 the 7th = 1100
	m = mice_latency("M", "mice", msgs, 0, 5);
	EXPECT_EQ(m.messages, 14u);
	EXPECT_EQ(m.warmup, 0u);
	EXPECT_DOUBLE_EQ(m.us.p50, 1100);
	// the flow's first post need not be its first row
	std::vector<MessageRecord> late(msgs.begin() + 1, msgs.end());
	late.push_back(msgs.front());
	EXPECT_EQ(mice_latency("M", "mice", late, 10000, 5).warmup, 5u);
	// fewer counted messages than the minimum, or none at all: an error
	// naming the file and the flow, never a 0
	try {
		mice_latency("M", "mice", msgs, 10000, 10);
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_EQ(std::string(e.what()),
		          "M: 9 completed messages of flow mice after its first 0.010 s (5 posted "
		          "in them, 1 not completed); the mice latency needs at least 10");
	}
	EXPECT_THROW(mice_latency("M", "mice", {}, 0, 1), Error);
	EXPECT_THROW(mice_latency("M", "mice", msgs, 1e9, 1), Error); // all in the warm-up
}

TEST(Scenario, MiceSummaryAndText)
{
	// base RTT 1 ms: p50 1.40 and p99 5.00 base RTTs. One message alone:
	// 1000 B + 58 B of headers at 16 Mbit/s = 529 us after the base RTT
	Analysis a = analyse(mice_run("base_rtt_ns=1000000\n"), mice_opts());
	EXPECT_EQ(value(a, "mice_flow"), "mice");
	EXPECT_EQ(value(a, "mice_msg_bytes"), "1000");
	EXPECT_EQ(value(a, "mice_warmup_s"), "0.010");
	EXPECT_EQ(value(a, "mice_messages"), "9");
	EXPECT_EQ(value(a, "mice_warmup_messages"), "5");
	EXPECT_EQ(value(a, "mice_incomplete_messages"), "1");
	EXPECT_EQ(value(a, "mice_p50_us"), "1400.0");
	EXPECT_EQ(value(a, "mice_p95_us"), "5000.0");
	EXPECT_EQ(value(a, "mice_p99_us"), "5000.0");
	EXPECT_EQ(value(a, "mice_mean_us"), "1755.6");
	EXPECT_EQ(value(a, "mice_max_us"), "5000.0");
	EXPECT_EQ(value(a, "mice_base_rtt_us"), "1000.0");
	EXPECT_EQ(value(a, "mice_ideal_us"), "1529.0");
	EXPECT_EQ(value(a, "mice_p50_rtts"), "1.40");
	EXPECT_EQ(value(a, "mice_p99_rtts"), "5.00");
	EXPECT_EQ(value(a, "mice_note"), "n/a");
	EXPECT_NE(a.text.find("latency p50/p95/p99      1400.0 / 5000.0 / 5000.0 us"),
	          std::string::npos)
		<< a.text;
	EXPECT_NE(a.text.find("over the base RTT        p50 1.40, p99 5.00"), std::string::npos)
		<< a.text;
	ASSERT_TRUE(a.mice.has_value());
	EXPECT_DOUBLE_EQ(*a.mice->base_rtt_us, 1000);
	// the plot data: every counted message, then the CDF (9 values, 1000
	// us is 1 of 9)
	const std::string dat = mice_dat(*a.mice);
	EXPECT_EQ(dat.rfind("# mice: t_s latency_ms\n0.010000 1.0000\n0.012000 1.1000\n", 0), 0u)
		<< dat;
	EXPECT_NE(dat.find("\n\n\n# mice: latency_ms fraction\n1.0000 0.111111\n"),
	          std::string::npos)
		<< dat;
	EXPECT_NE(dat.find("\n5.0000 1.000000\n"), std::string::npos) << dat;
	PlotContext c{"png", "D", "mice / hpcc", "10 ms"};
	const std::string gp = mice_gp(c, *a.mice);
	EXPECT_NE(gp.find("set output 'D/mice.png'"), std::string::npos) << gp;
	EXPECT_NE(gp.find("'D/mice.dat' index 0 using 1:2"), std::string::npos) << gp;
	EXPECT_NE(gp.find(", 1.0000 with lines dt 2"), std::string::npos) << gp; // base RTT
	EXPECT_NE(gp.find("set arrow from 1.0000, graph 0 to 1.0000, graph 1"), std::string::npos)
		<< gp;
}

TEST(Scenario, MiceWithoutBaseRttOrOk)
{
	// no base RTT: the latency, but no ratio, and the note says why; a
	// mice flow that failed: its completed messages, and the note says so
	RunInputs in = mice_run();
	TrafficHost h;
	TrafficFlow f;
	f.flow = "mice";
	f.status = "wc_error:retry_exc_err";
	h.flows.push_back(f);
	in.traffic.push_back(h);
	Analysis a = analyse(in, mice_opts());
	EXPECT_EQ(value(a, "mice_p50_us"), "1400.0");
	EXPECT_EQ(value(a, "mice_base_rtt_us"), "n/a");
	EXPECT_EQ(value(a, "mice_ideal_us"), "n/a");
	EXPECT_EQ(value(a, "mice_p50_rtts"), "n/a");
	EXPECT_EQ(value(a, "mice_p99_rtts"), "n/a");
	EXPECT_EQ(value(a, "mice_note"),
	          "flow mice ended with status wc_error:retry_exc_err: its completed messages "
	          "only; no base RTT (base_rtt_ns in meta.env or --base-rtt): latency in RTTs "
	          "n/a");
	EXPECT_EQ(mice_gp(PlotContext{"png", "D", "t", "10 ms"}, *a.mice).find("base RTT"),
	          std::string::npos);
	// --base-rtt supplies it
	Options o = mice_opts();
	o.base_rtt_ns = 2000000;
	EXPECT_EQ(value(analyse(in, o), "mice_p50_rtts"), "0.70");
	// no messages read, or too few: an error, not a figure
	in = mice_run();
	in.messages_path.clear();
	EXPECT_THROW(analyse(in, mice_opts()), Error);
	in = mice_run();
	o = mice_opts();
	o.scenario.mice_min_messages = 10;
	EXPECT_THROW(analyse(in, o), Error);
	// another scenario (no mice_flow): no mice keys, messages or not
	in = mice_run();
	in.set.mice_flow.clear();
	a = analyse(in, mice_opts());
	EXPECT_EQ(value(a, "mice_p50_us"), "(no mice_p50_us)");
	EXPECT_FALSE(a.mice.has_value());
}

TEST(Scenario, MiceInTheComparison)
{
	Analysis a1 = analyse(mice_run("base_rtt_ns=1000000\nalgo=dcqcn\n"), mice_opts());
	Analysis a2 = analyse(mice_run("label=nortt\n"), mice_opts());
	std::vector<CompareRun> runs;
	for (const Analysis *a : {&a1, &a2})
		runs.push_back({"R", "W" + std::to_string(runs.size() + 1),
		                parse_summary(summary_csv(*a)), a});
	std::string csv = comparison_csv(runs);
	EXPECT_NE(csv.substr(0, csv.find('\n'))
	                  .find(",halt_ratio_p50,mice_p50_us,mice_p99_us,mice_p50_rtts,"
	                        "mice_p99_rtts"),
	          std::string::npos)
		<< csv;
	EXPECT_NE(csv.find(",1400.0,5000.0,1.40,5.00\n"), std::string::npos) << csv;
	EXPECT_NE(csv.find(",1400.0,5000.0,n/a,n/a\n"), std::string::npos) << csv;
	std::string txt = comparison_txt("mice", runs);
	EXPECT_NE(txt.find("\nmice latency ("), std::string::npos) << txt;
	EXPECT_NE(txt.find("dcqcn                  9     1400.0     5000.0     5000.0     5000.0 "
	                   "    1000.0     1.40     5.00"),
	          std::string::npos)
		<< txt;
	EXPECT_NE(txt.find("nortt                  9     1400.0     5000.0     5000.0     5000.0 "
	                   "       n/a      n/a      n/a  no base RTT"),
	          std::string::npos)
		<< txt;
	PlotContext c{"png", "D", "t", "10 ms"};
	std::string gp = cmp_mice_gp(c, runs);
	EXPECT_NE(gp.find("set output 'D/mice.png'"), std::string::npos) << gp;
	EXPECT_NE(gp.find("'W1/mice.dat' index 1 using 1:2 with steps lw 2 lc 1 title \"dcqcn\""),
	          std::string::npos)
		<< gp;
	EXPECT_NE(gp.find("'W2/mice.dat' index 1 using 1:2 with steps lw 2 lc 2 title \"nortt\""),
	          std::string::npos)
		<< gp;
	// one base RTT, one dashed line, in the run's colour
	EXPECT_NE(gp.find("set arrow from 1.0000, graph 0 to 1.0000, graph 1 nohead dt 2 lc 1\n"),
	          std::string::npos)
		<< gp;
	EXPECT_EQ(gp.find("lc 2\n"), std::string::npos) << gp;
	// other scenarios: no section, no plot
	Analysis a3 = analyse(long_short_run(230, 2000), opts());
	std::vector<CompareRun> ls = {{"R", "W", parse_summary(summary_csv(a3)), &a3}};
	EXPECT_EQ(comparison_txt("long_short", ls).find("mice latency"), std::string::npos);
	EXPECT_EQ(cmp_mice_gp(c, ls), "");
}
