// Window, rates, data periods and rate bins, and the analysis of a small
// run built in memory (figures worked out by hand in the comments).
#include <gtest/gtest.h>

#include "analysis.h"
#include "error.h"

using namespace rxecc::report;

namespace
{

// Samples every 1000 us from 0 to 12000 us of ports s0.h1 and s0.h2 (rx)
// and s0.r (tx):
//   s0.h1 rx: 0 up to 2000, then +100 per sample to 500 at 7000, flat
//   s0.h2 rx: 0 up to 5000, then +100 per sample to 400 at 9000, flat
//   s0.r tx:  +1000 bytes and 1 frame per sample from 1000 on
std::string ports_csv()
{
	std::string s = std::string(kPortsHeader) + "\n";
	for (int k = 0; k <= 12; ++k) {
		int t = k * 1000;
		int h1 = k <= 2 ? 0 : (k <= 7 ? (k - 2) * 100 : 500);
		int h2 = k <= 5 ? 0 : (k <= 9 ? (k - 5) * 100 : 400);
		s += std::to_string(t) + ",s0,1,h1,0," + std::to_string(h1) + ",0,0,0,0\n";
		s += std::to_string(t) + ",s0,2,h2,0," + std::to_string(h2) + ",0,0,0,0\n";
		s += std::to_string(t) + ",s0,9,r,0,0," + std::to_string(k) + "," +
		     std::to_string(k * 1000) + ",0,0\n";
	}
	return s;
}

RunInputs run(const std::string &extra_meta)
{
	RunInputs in;
	in.results = "R";
	in.meta_path = "R/meta.env";
	in.flows_path = "R/flows.csv";
	in.ports_path = "R/fabric/ports.csv";
	in.queues_path = "R/fabric/queues.csv";
	in.flat_path = "R/fabric/summary.flat";
	in.set = settings_from(
		Meta::parse(in.meta_path, "scenario=incast\nalgo=dcqcn\nlink_rate_bps=1000000\n"
	                                  "bottleneck=s0.r\ndata_prio=3\n" +
	                                          extra_meta));
	in.flows = parse_flows(in.flows_path, std::string(kFlowsHeader) +
	                                              "\nf1,h1,r,s0.h1,0.002,0.010,500,0.0004,,ok\n"
	                                              "f2,h2,r,s0.h2,0.002,0.010,400,0.0004,,ok\n");
	in.ports = parse_ports(in.ports_path, ports_csv());
	// queue of 2000 bytes at 6000 and 4000 at 7000, none else
	in.queues = parse_queues(in.queues_path,
	                         std::string(kQueuesHeader) +
	                                 "\n6000,s0,9,r,3,2000,2,0,0,0,0,0,0,0,0,0\n"
	                                 "7000,s0,9,r,3,4000,4,0,0,0,0,0,0,0,0,0\n",
	                         "s0.r", 3);
	in.flat = parse_flat(in.flat_path, "total_drops 0\npfc_frames_sent 0\npfc_frames_rx 0\n");
	return in;
}

std::string value(const Analysis &a, const std::string &key)
{
	for (const auto &[k, v] : a.summary)
		if (k == key)
			return v;
	ADD_FAILURE() << "no " << key << " in the summary";
	return "";
}

} // namespace

TEST(Window, RoundedInwardToSamples)
{
	RunInputs in = run("");
	const auto &s = in.ports.series.at("s0.r");
	auto [a, b] = window_of(s, 1500, 4000, "p", "s0.r");
	EXPECT_EQ(s[a].t_us, 2000u);
	EXPECT_EQ(s[b].t_us, 4000u);
	try {
		window_of(s, 4100, 4900, "p", "s0.r");
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_STREQ(e.what(),
		             "p: port s0.r: fewer than two samples in the window 4100..4900 us");
	}
}

TEST(Rate, CounterDeltaOverTime)
{
	RunInputs in = run("");
	const auto &s = in.ports.series.at("s0.h1");
	// 100 bytes in 1000 us: 0.8 Mbit/s
	EXPECT_DOUBLE_EQ(rate_mbps(s, 3, 4, &PortSample::rx_bytes, "p", "s0.h1"), 0.8);
	// 500 bytes from 2000 to 12000 us: 4000 bits / 10000 us
	EXPECT_DOUBLE_EQ(rate_mbps(s, 2, 12, &PortSample::rx_bytes, "p", "s0.h1"), 0.4);
	EXPECT_THROW(rate_mbps(s, 12, 2, &PortSample::rx_bytes, "p", "s0.h1"), Error);
}

TEST(ActivePeriod, FirstToLastGrowth)
{
	RunInputs in = run("");
	auto a = active_period(in.ports.series.at("s0.r"));
	ASSERT_TRUE(a.has_value());
	EXPECT_EQ(a->first, 1000u);
	EXPECT_EQ(a->second, 12000u);
	EXPECT_FALSE(active_period(in.ports.series.at("s0.h1")).has_value()); // no tx
}

TEST(DataPeriod, TwoToNinetyEightPercent)
{
	RunInputs in = run("");
	// s0.h1 from 2000 us: base 0, total 500; 2% = 10 bytes first reached at
	// 3000, 98% = 490 at 7000
	auto p = data_period(in.ports.series.at("s0.h1"), 2000, 10000);
	ASSERT_TRUE(p.has_value());
	EXPECT_EQ(*p, std::make_pair(std::uint64_t{3000}, std::uint64_t{7000}));
	// s0.h2: total 400; 8 bytes at 6000, 392 at 9000
	p = data_period(in.ports.series.at("s0.h2"), 2000, 10000);
	EXPECT_EQ(*p, std::make_pair(std::uint64_t{6000}, std::uint64_t{9000}));
	// nothing received: no period
	EXPECT_FALSE(data_period(in.ports.series.at("s0.h2"), 10000, 11000).has_value());
}

TEST(DataPeriod, CombineAllAndAny)
{
	std::vector<std::pair<std::uint64_t, std::uint64_t>> p = {{3000, 7000}, {6000, 9000}};
	EXPECT_EQ(*combine_periods(p, true),
	          std::make_pair(std::uint64_t{6000}, std::uint64_t{7000}));
	EXPECT_EQ(*combine_periods(p, false),
	          std::make_pair(std::uint64_t{3000}, std::uint64_t{9000}));
	EXPECT_FALSE(combine_periods({{1, 2}, {3, 4}}, true).has_value());
	EXPECT_FALSE(combine_periods({}, false).has_value());
}

TEST(RateBins, IntervalSharedInProportionToTime)
{
	RateBins b{1000, 0, std::vector<double>(3), std::vector<double>(3)};
	// 200 bytes over (500, 2500]: 50 in bin 0, 100 in bin 1, 50 in bin 2
	spread(b, 500, 2500, 200);
	EXPECT_DOUBLE_EQ(b.bytes[0], 50);
	EXPECT_DOUBLE_EQ(b.bytes[1], 100);
	EXPECT_DOUBLE_EQ(b.bytes[2], 50);
	EXPECT_DOUBLE_EQ(b.covered_us[0], 500);
	// 50 bytes in 500 us: 0.8 Mbit/s, the interval's rate, in every bin
	EXPECT_DOUBLE_EQ(b.mbps(0), 0.8);
	EXPECT_DOUBLE_EQ(b.mbps(1), 0.8);
}

TEST(Analyse, WindowModes)
{
	// active (default): 1000..12000 us
	Analysis a = analyse(run(""), Options{});
	EXPECT_EQ(value(a, "window_start_us"), "1000");
	EXPECT_EQ(value(a, "window_end_us"), "12000");
	// all: intersection of 3000..7000 and 6000..9000; f1 takes in 100 bytes
	// in it (0.8 Mbit/s), f2 100 bytes too
	a = analyse(run("window_mode=all\n"), Options{});
	EXPECT_EQ(value(a, "window_start_us"), "6000");
	EXPECT_EQ(value(a, "window_end_us"), "7000");
	EXPECT_EQ(value(a, "flow.f1.rate_mbps"), "0.800");
	EXPECT_EQ(value(a, "flow.f2.rate_mbps"), "0.800");
	EXPECT_NE(a.text.find("(0.001 s, while every flow sends)"), std::string::npos) << a.text;
	// any: span 3000..9000
	a = analyse(run("window_mode=any\n"), Options{});
	EXPECT_EQ(value(a, "window_start_us"), "3000");
	EXPECT_EQ(value(a, "window_end_us"), "9000");
	// meta.env's window overrides the mode
	a = analyse(run("window_mode=all\nwindow_start_us=2000\nwindow_end_us=4000\n"), Options{});
	EXPECT_EQ(value(a, "window_start_us"), "2000");
	EXPECT_EQ(value(a, "window_end_us"), "4000");
}

TEST(Analyse, QueueAndUtilisation)
{
	Analysis a = analyse(run("window_mode=all\n"), Options{});
	// samples 6000 and 7000 in the window: 2 and 4 KB; p50 = rank 1
	EXPECT_EQ(value(a, "queue_samples"), "2");
	EXPECT_EQ(value(a, "queue_p50_kb"), "2.000");
	EXPECT_EQ(value(a, "queue_max_kb"), "4.000");
	EXPECT_EQ(a.queue_window_kb, (std::vector<double>{2, 4}));
	// 1000 bytes + 1 frame * 24 in 1000 us on 1 Mbit/s: 8192 / 1000 bits
	EXPECT_EQ(value(a, "util"), "8.1920");
	EXPECT_EQ(value(a, "bottleneck_tx_mbps"), "8.000");
}

TEST(Analyse, SfcTotalsAndThePeakQueue)
{
	// Without SFC: every sfc.* name, 0; no peak line for the bottleneck.
	Analysis off = analyse(run("window_mode=all\n"), Options{});
	EXPECT_EQ(value(off, "sfc"), "off");
	for (const char *name : kSfcSummaryNames)
		EXPECT_EQ(value(off, std::string("sfc.") + name), "0") << name;
	EXPECT_EQ(value(off, "bottleneck_peak_kb"), "n/a");
	EXPECT_EQ(off.text.find("SFC (sum over switches)"), std::string::npos);

	RunInputs in = run("window_mode=all\n");
	in.flat = parse_flat(in.flat_path, "total_drops 0\npfc_frames_sent 0\npfc_frames_rx 0\n"
	                                   "s0.r.q3.max_queue_bytes 123456\n"
	                                   "s0.r.q6.max_queue_bytes 74\n"
	                                   "s0.h1.q3.max_queue_bytes 999999\n"
	                                   "sfc.bts_generated 12\nsfc.bts_generated_queue 10\n"
	                                   "sfc.bts_generated_cache 2\nsfc.cache_hits 3\n"
	                                   "sfc.bloom_bits_max 9\nsfc.future_counter 4\n");
	Analysis on = analyse(in, Options{});
	EXPECT_EQ(value(on, "sfc"), "on");
	EXPECT_EQ(value(on, "sfc.bts_generated"), "12");
	EXPECT_EQ(value(on, "sfc.bts_generated_queue"), "10");
	EXPECT_EQ(value(on, "sfc.bts_generated_cache"), "2");
	EXPECT_EQ(value(on, "sfc.cache_hits"), "3");
	EXPECT_EQ(value(on, "sfc.bloom_bits_max"), "9");
	EXPECT_EQ(value(on, "sfc.sfcp_frames"), "0"); // not in the file
	EXPECT_EQ(value(on, "sfc.future_counter"), "4");
	// The data priority's queue of the bottleneck s0.r.
	EXPECT_EQ(value(on, "bottleneck_peak_kb"), "123.456");
	EXPECT_NE(on.text.find("bottleneck peak queue      123.5 KB"), std::string::npos)
		<< on.text;
	EXPECT_NE(on.text.find("BTS generated            12 (10 by queue, 2 from a cache)"),
	          std::string::npos)
		<< on.text;
}

TEST(Analyse, SharedIngressRateAtTheReceiversPort)
{
	// f1 (h1 -> r) and f2 (h1 -> h2) share h1's ingress; each has its
	// receiver's port to itself, so its rate is that port's tx: s0.r's
	// 1000 bytes per 1000 us = 8 Mbit/s for f1, s0.h2's none for f2.
	RunInputs in = run("window_start_us=6000\nwindow_end_us=7000\n");
	in.flows =
		parse_flows(in.flows_path, std::string(kFlowsHeader) +
	                                           "\nf1,h1,r,s0.h1,0.002,0.010,500,0.0004,,ok\n"
	                                           "f2,h1,h2,s0.h1,0.002,0.010,400,0.0004,,ok\n");
	in.host_port = {{"h1", "s0.h1"}, {"h2", "s0.h2"}, {"r", "s0.r"}};
	Analysis a = analyse(in, Options{});
	EXPECT_EQ(value(a, "flow.f1.rate_mbps"), "8.000");
	EXPECT_EQ(value(a, "flow.f2.rate_mbps"), "0.000");
	EXPECT_NE(a.text.find("shared-ingress, rate at s0.r"), std::string::npos) << a.text;
	EXPECT_EQ(a.rate_columns,
	          (std::vector<std::string>{"s0.r", "f1+f2", "f1@s0.r", "f2@s0.h2"}));
	EXPECT_EQ(a.rate_bins.size(), 4u);

	// Both to r: the receiver's port is shared too, so the ingress (h1's
	// 100 bytes in the window, 0.8 Mbit/s) is all there is, for each.
	in.flows[1].dst = "r";
	a = analyse(in, Options{});
	EXPECT_EQ(value(a, "flow.f1.rate_mbps"), "0.800");
	EXPECT_EQ(value(a, "flow.f2.rate_mbps"), "0.800");
	EXPECT_EQ(a.text.find("rate at"), std::string::npos) << a.text;
	EXPECT_EQ(a.rate_columns, (std::vector<std::string>{"s0.r", "f1+f2"}));

	// A flow with an ingress of its own keeps it, whatever its receiver.
	in = run("window_start_us=6000\nwindow_end_us=7000\n");
	in.host_port = {{"h1", "s0.h1"}, {"h2", "s0.h2"}, {"r", "s0.r"}};
	a = analyse(in, Options{});
	EXPECT_EQ(value(a, "flow.f1.rate_mbps"), "0.800");
	EXPECT_EQ(a.rate_columns, (std::vector<std::string>{"s0.r", "f1", "f2"}));
}

TEST(Analyse, Inconsistencies)
{
	RunInputs in = run("victim=f9\n");
	try {
		analyse(in, Options{});
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_STREQ(e.what(), "R/meta.env: victim f9 is not a flow of R/flows.csv");
	}
	in = run("");
	in.flows[0].ingress = "s0.h9";
	try {
		analyse(in, Options{});
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_STREQ(e.what(),
		             "R/fabric/ports.csv: no rows for port s0.h9 (ingress of flow f1)");
	}
}

TEST(FlowRatePoints, GeneratorBinsSummedIntoTheReportsBins)
{
	std::vector<TrafficBin> bins;
	for (std::uint64_t i = 0; i < 10; ++i)
		bins.push_back({"f", i * 1000000, 1000});
	bins.push_back({"g", 0, 999999}); // another flow's
	// 10 ms: one bin, 10000 bytes in 10 ms = 8 Mbit/s, at 5 ms (+ offset)
	auto p = flow_rate_points(bins, "f", 1000000, 10000000, 2000000000);
	ASSERT_EQ(p.size(), 1u);
	EXPECT_DOUBLE_EQ(p[0].first, 2.005);
	EXPECT_DOUBLE_EQ(p[0].second, 8.0);
	// the generator's own width, and a width below it: one point per bin
	for (std::uint64_t w : {1000000ull, 1000ull}) {
		p = flow_rate_points(bins, "f", 1000000, w, 0);
		ASSERT_EQ(p.size(), 10u) << w;
		EXPECT_DOUBLE_EQ(p[9].first, 0.0095);
		EXPECT_DOUBLE_EQ(p[9].second, 8.0);
	}
	// 2.4 ms rounds to 2 generator bins: 5 points of 2000 bytes per 2 ms
	p = flow_rate_points(bins, "f", 1000000, 2400000, 0);
	ASSERT_EQ(p.size(), 5u);
	EXPECT_DOUBLE_EQ(p[0].second, 8.0);
	// out of order input, a gap: time order, the empty bin absent
	std::vector<TrafficBin> b2 = {{"f", 30000000, 500}, {"f", 0, 250}};
	p = flow_rate_points(b2, "f", 1000000, 10000000, 0);
	ASSERT_EQ(p.size(), 2u);
	EXPECT_DOUBLE_EQ(p[0].first, 0.005);
	EXPECT_DOUBLE_EQ(p[0].second, 0.2);
	EXPECT_DOUBLE_EQ(p[1].first, 0.035);
	EXPECT_TRUE(flow_rate_points(bins, "none", 1000000, 10000000, 0).empty());
}

TEST(SecondHalf, GoodputFromTheBinsAfterTheMiddle)
{
	// 1 ms bins; f's data from 0.5 ms to 9.5 ms, 1000 bytes per ms until
	// 4 ms and 3000 after: the middle is 5 ms, so bins 5..9 count, 15000
	// bytes in 5 ms = 24 Mbit/s (the first half left out)
	TrafficFlow f;
	f.flow = "f";
	f.first_byte_ns = 500000;
	f.last_byte_ns = 9500000;
	std::vector<TrafficBin> bins;
	for (std::uint64_t i = 0; i < 10; ++i)
		bins.push_back({"f", i * 1000000, i < 4 ? 1000u : 3000u});
	bins.push_back({"g", 6000000, 999999}); // another flow's
	auto g = second_half_mbps(f, bins, 1000000);
	ASSERT_TRUE(g);
	EXPECT_DOUBLE_EQ(*g, 24.0);
	// a middle inside a bin: from the next bin on (6..9: 12000 B in 4 ms)
	f.last_byte_ns = 10600000; // middle 5.55 ms
	g = second_half_mbps(f, bins, 1000000);
	ASSERT_TRUE(g);
	EXPECT_DOUBLE_EQ(*g, 24.0);
	// an empty bin in the half counts as time, not bytes
	bins[7].bytes = 0;
	g = second_half_mbps(f, bins, 1000000);
	ASSERT_TRUE(g);
	EXPECT_DOUBLE_EQ(*g, 18.0);
	// too short, no times, no bins
	f.first_byte_ns = 8000000;
	f.last_byte_ns = 9500000;
	EXPECT_FALSE(second_half_mbps(f, bins, 1000000));
	f.first_byte_ns.reset();
	EXPECT_FALSE(second_half_mbps(f, bins, 1000000));
	f.first_byte_ns = 0;
	EXPECT_FALSE(second_half_mbps(f, bins, 0));
	f.flow = "h";
	f.last_byte_ns = 9500000;
	EXPECT_FALSE(second_half_mbps(f, bins, 1000000));
}

TEST(FlowPlotBin, FourMessagesOrTheReportsBin)
{
	TrafficFlow f;
	EXPECT_EQ(flow_plot_bin_ns(f, 10000000), 10000000u); // no times, no messages
	f.start_ns = 1000000000;
	f.complete_ns = 9000000000; // 8 s
	f.msgs = 400;               // one message every 20 ms
	EXPECT_EQ(flow_plot_bin_ns(f, 10000000), 80000000u);
	EXPECT_EQ(flow_plot_bin_ns(f, 100000000), 100000000u);
	f.msgs = 0;
	EXPECT_EQ(flow_plot_bin_ns(f, 10000000), 10000000u);
	f.msgs = 400;
	f.complete_ns = f.start_ns; // nothing moved in no time
	EXPECT_EQ(flow_plot_bin_ns(f, 10000000), 10000000u);
}
