// FCT slowdown arithmetic, size buckets, the generator's and the monitor's
// records, clock alignment and the per-flow CC state.
#include <gtest/gtest.h>

#include "error.h"
#include "traffic.h"

using namespace rxecc::report;

namespace
{

// 100 Mbit/s, 1024 B of payload per packet, 58 B of headers + 24 B of
// preamble, IFG and FCS per packet
const WireModel kWire{100000000, 1024, 82};

const std::string kTrafficHeader = "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,"
				   "sched_start_ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,"
				   "bytes,msgs,retx,qpns,status";

TrafficFlow sized(const std::string &name, std::uint64_t size, std::uint64_t fct_ns)
{
	TrafficFlow f;
	f.flow = name;
	f.size_bytes = size;
	f.start_ns = 1000;
	f.complete_ns = 1000 + fct_ns;
	f.status = "ok";
	return f;
}

} // namespace

TEST(Slowdown, WireBytes)
{
	// 10000 B in one message: ceil(10000 / 1024) = 10 packets, 820 B more
	EXPECT_EQ(wire_bytes(10000, 0, kWire), 10820u);
	// in 4096 B messages: 2 * 4 packets + ceil(1808 / 1024) = 2: 10 again
	EXPECT_EQ(wire_bytes(10000, 4096, kWire), 10820u);
	// 3000 B in 1500 B messages: 2 * 2 packets (one message: 3)
	EXPECT_EQ(wire_bytes(3000, 1500, kWire), 3000u + 4 * 82);
	EXPECT_EQ(wire_bytes(3000, 0, kWire), 3000u + 3 * 82);
	EXPECT_EQ(wire_bytes(1, 0, kWire), 83u);
}

TEST(Slowdown, IdealFctAndRatio)
{
	// 10820 B = 86560 bits at 100 Mbit/s = 865.6 us, + 100 us base RTT
	EXPECT_DOUBLE_EQ(ideal_fct_ns(10000, 0, 100000, kWire), 965600);
	// 1000 B: 1082 B = 86.56 us + 100 us = 186.56 us
	EXPECT_DOUBLE_EQ(ideal_fct_ns(1000, 0, 100000, kWire), 186560);
	auto rep = slowdowns({sized("a", 10000, 1931200), sized("b", 1000, 279840)}, 100000, kWire,
	                     {100000});
	ASSERT_EQ(rep.flows.size(), 2u);
	EXPECT_DOUBLE_EQ(rep.flows[0].slowdown, 2.0);
	EXPECT_DOUBLE_EQ(rep.flows[1].slowdown, 1.5);
	ASSERT_TRUE(rep.all.has_value());
	EXPECT_DOUBLE_EQ(rep.all->p50, 1.5); // rank ceil(1) of {1.5, 2}
	EXPECT_DOUBLE_EQ(rep.all->p99, 2.0);
	EXPECT_DOUBLE_EQ(rep.all->mean, 1.75);
}

TEST(Slowdown, WhichFlowsCount)
{
	TrafficFlow failed = sized("f", 1000, 5000);
	failed.status = "wc_error";
	TrafficFlow open = sized("o", 0, 5000);
	open.size_bytes.reset(); // a duration flow: no size, no slowdown
	TrafficFlow unfinished = sized("u", 1000, 0);
	unfinished.complete_ns.reset();
	auto rep =
		slowdowns({failed, open, unfinished, sized("ok", 1000, 186560)}, 100000, kWire, {});
	ASSERT_EQ(rep.flows.size(), 1u);
	EXPECT_EQ(rep.flows[0].flow, "ok");
	EXPECT_EQ(rep.skipped, 2u); // sized, but failed or not complete
}

TEST(Slowdown, Buckets)
{
	// ACC's buckets: < 100 KB, 100 KB - 10 MB, >= 10 MB
	auto b = make_buckets({100000, 10000000});
	ASSERT_EQ(b.size(), 3u);
	EXPECT_EQ(b[0].label, "0-100KB");
	EXPECT_EQ(b[1].label, "100KB-10MB");
	EXPECT_EQ(b[2].label, "10MB-inf");
	EXPECT_FALSE(b[2].hi.has_value());
	auto rep = slowdowns({sized("s", 99999, 1000000), sized("m", 100000, 10000000),
	                      sized("l", 10000000, 2000000000)},
	                     100000, kWire, {100000, 10000000});
	ASSERT_EQ(rep.buckets.size(), 3u);
	for (const auto &bs : rep.buckets) // one flow in each: [lo, hi)
		EXPECT_EQ(bs.dist->count, 1u) << bs.bucket.label;
	EXPECT_EQ(*rep.buckets[1].median_size, 100000);
	EXPECT_EQ(size_label(1500000), "1.5MB");
	EXPECT_EQ(size_label(1500), "1.5KB");
	EXPECT_EQ(size_label(1234), "1234B");
	EXPECT_EQ(log_bounds(60000),
	          (std::vector<std::uint64_t>{1000, 2000, 5000, 10000, 20000, 50000}));
}

TEST(Slowdown, BucketList)
{
	EXPECT_EQ(parse_bucket_list("100KB,10MB"), (std::vector<std::uint64_t>{100000, 10000000}));
	EXPECT_EQ(parse_bucket_list("64KiB"), (std::vector<std::uint64_t>{65536}));
	EXPECT_THROW(parse_bucket_list("10MB,100KB"), Error);
	EXPECT_THROW(parse_bucket_list("0"), Error);
	EXPECT_THROW(parse_bucket_list("big"), Error);
	EXPECT_THROW(parse_bucket_list("1KB,,2KB"), Error);
}

TEST(TrafficRecords, ParseFlowsBinsAndClock)
{
	std::string flows =
		kTrafficHeader +
		",extra\n"
		"f1,h1,r,write,10000,,1000,2,26,1000000,1000000,1100000,1800000,1900000,"
		"10000,10,,17;18,ok,x\n"
		"f2,h2,r,write,,5000000000,65536,1,26,0,2000,,,,,,,19,ok,y\n";
	std::string bins = "flow,bin_start_ns,bytes\nf1,1000000,6000\nf1,2000000,4000\n";
	std::string json =
		R"({"t0_monotonic_ns":1000000000000,"t0_realtime_ns":1764000010000000000,"host":"h1"})";
	TrafficHost h = parse_traffic("h1", "fl", flows, "bi", bins, "js", json);
	ASSERT_EQ(h.flows.size(), 2u);
	EXPECT_EQ(h.flows[0].qpns, (std::vector<std::uint64_t>{17, 18}));
	EXPECT_EQ(*h.flows[0].complete_ns, 1900000u);
	EXPECT_FALSE(h.flows[0].retx.has_value()); // empty: unknown, not 0
	EXPECT_FALSE(h.flows[1].size_bytes.has_value());
	EXPECT_EQ(h.bins.size(), 2u);
	EXPECT_EQ(h.clock.t0_monotonic_ns, 1000000000000u);
	EXPECT_EQ(h.clock.bin_ns, 1000000u); // default
	EXPECT_THROW(parse_traffic("h1", "fl", "flow,src\nf1,h1\n", "bi", std::nullopt, "js", json),
	             Error);
	EXPECT_THROW(parse_traffic("h1", "fl", flows, "bi",
	                           std::string("flow,bin_start_ns,bytes\nf9,0,1\n"), "js", json),
	             Error);
	EXPECT_THROW(parse_traffic("h1", "fl", flows, "bi", std::nullopt, "js",
	                           "{\"t0_monotonic_ns\":1}"),
	             Error);
	EXPECT_THROW(parse_traffic("h1", "fl", flows, "bi", std::nullopt, "js", "not json"), Error);
}

TEST(TrafficRecords, HostJsonSettingsAndUnknownT0)
{
	std::string flows = kTrafficHeader + "\n";
	// the generator's host.json: bin_ns under settings
	TrafficHost h = parse_traffic(
		"h1", "fl", flows, "bi", std::nullopt, "js",
		R"({"host":"h1","t0_monotonic_ns":5,"t0_realtime_ns":7,"settings":{"bin_ns":500000}})");
	EXPECT_TRUE(h.clock.known);
	EXPECT_EQ(h.clock.bin_ns, 500000u);
	// a host that never reached T0 writes null: its times are not placed
	h = parse_traffic("h1", "fl", flows, "bi", std::nullopt, "js",
	                  R"({"t0_monotonic_ns":null,"t0_realtime_ns":null})");
	EXPECT_FALSE(h.clock.known);
	EXPECT_FALSE(align_clocks({h}, 1764000000000000000ULL, Ports{}, {}).known);
	EXPECT_THROW(parse_traffic("h1", "fl", flows, "bi", std::nullopt, "js",
	                           R"({"t0_monotonic_ns":-1,"t0_realtime_ns":1})"),
	             Error);
}

TEST(Monitor, ParseRows)
{
	std::string csv =
		"time_ns,dev,qpn,algo,rate_bps,window_bytes,dcqcn.target_rate_kbps,dcqcn.alpha,"
		"dcqcn.cnp_handled,event\n"
		"5,rxe_h1,17,dcqcn,40000000,,60000,32768,3,\n"
		"6,rxe_h1,17,dcqcn,30000000,,,,,rate_dec\n";
	MonitorFile m = parse_monitor("h1", "mon", csv);
	EXPECT_EQ(m.state_columns.size(), 3u);
	ASSERT_EQ(m.rows.size(), 2u);
	EXPECT_EQ(m.rows[0].state.at("dcqcn.alpha"), 32768u);
	EXPECT_FALSE(m.rows[0].window_bytes.has_value());
	EXPECT_EQ(m.rows[1].event, "rate_dec");
	EXPECT_TRUE(m.rows[1].state.empty());
	EXPECT_THROW(parse_monitor("h1", "mon", "time,dev\n"), Error);
	EXPECT_THROW(parse_monitor("h1", "mon",
	                           "time_ns,dev,qpn,algo,rate_bps,window_bytes\nx,d,1,a,,\n"),
	             Error);
}

TEST(Monitor, ColumnsByNameWithTheQpCounters)
{
	// rxecc monitor -e: the QP counters after the fixed columns, then the
	// state; a column it may add later is ignored
	std::string csv =
		"time_ns,dev,qpn,algo,rate_bps,window_bytes,cnp_rx,cnp_tx,ce_rx,pacer_waits,"
		"pacer_unused_us,rate_dec,rate_inc,retx_pkts,inflight_bytes,acked_bytes,"
		"fixed.rate_kbps,dcqcn.alpha,dcqcn.rate_cuts,future,event\n"
		"5,rxe_h1,17,dcqcn,40000000,0,3,0,0,9,12,2,1,4,8192,1000000,,32768,2,x,\n"
		"6,rxe_h1,17,dcqcn,30000000,0,4,0,0,9,12,3,1,4,4096,1100000,,30000,3,y,rate_dec\n"
		"7,rxe_h1,18,fixed,1000000,0,,,,,,,,,,,1000,,,,\n";
	MonitorFile m = parse_monitor("h1", "mon", csv);
	EXPECT_EQ(m.state_columns,
	          (std::vector<std::string>{"fixed.rate_kbps", "dcqcn.alpha", "dcqcn.rate_cuts"}));
	EXPECT_EQ(m.counter_columns.size(), 10u);
	ASSERT_EQ(m.rows.size(), 3u);
	EXPECT_EQ(m.rows[0].rate_bps, std::optional<std::uint64_t>(40000000));
	EXPECT_EQ(m.rows[0].state.at("dcqcn.alpha"), 32768u);
	EXPECT_EQ(m.rows[0].state.count("fixed.rate_kbps"), 0u);
	EXPECT_EQ(m.rows[0].counters.at("cnp_rx"), 3u);
	EXPECT_EQ(m.rows[0].counters.at("retx_pkts"), 4u);
	EXPECT_EQ(m.rows[0].counters.at("acked_bytes"), 1000000u);
	EXPECT_EQ(m.rows[0].event, "");
	// an event row carries state and counters too
	EXPECT_EQ(m.rows[1].event, "rate_dec");
	EXPECT_EQ(m.rows[1].state.at("dcqcn.rate_cuts"), 3u);
	EXPECT_EQ(m.rows[1].counters.at("inflight_bytes"), 4096u);
	// counters not reported are absent, not 0
	EXPECT_TRUE(m.rows[2].counters.empty());
	EXPECT_EQ(m.rows[2].state.at("fixed.rate_kbps"), 1000u);
	// a malformed counter names its column and line
	try {
		parse_monitor(
			"h1", "mon",
			"time_ns,dev,qpn,algo,rate_bps,window_bytes,retx_pkts\n1,d,2,a,,,many\n");
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_NE(
			std::string(e.what()).find("mon:2: retx_pkts 'many' is not a whole number"),
			std::string::npos)
			<< e.what();
	}
	// a fixed column missing, wherever the others are
	try {
		parse_monitor("h1", "mon", "time_ns,dev,algo,qpn,rate_bps\n");
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_NE(std::string(e.what()).find("has no column 'window_bytes'"),
		          std::string::npos)
			<< e.what();
	}
}

namespace
{

// The generator's T0: CLOCK_MONOTONIC 1000 s, CLOCK_REALTIME 10 s after
// the fabric's time 0 (fabric_t0 1764000000 s). Flow f1 of h1 starts 1 ms
// after T0: 10.001 s of fabric time by the wall clocks. Its ingress s0.h1
// takes in 2000 bytes per 1 ms sample from the sample at 10.003 s, i.e.
// its data arrives between 10.002 and 10.003 s: midpoint 10.0025 s, so
// T0 is at 10.0015 s of fabric time, 1.5 ms after the wall-clock estimate.
struct Fixture {
	std::vector<TrafficHost> hosts;
	Ports ports;
	std::map<std::string, std::string> host_port{{"h1", "s0.h1"}};
	std::uint64_t fabric_t0 = 1764000000000000000ULL;

	Fixture()
	{
		TrafficHost h;
		h.name = "h1";
		h.clock.t0_monotonic_ns = 1000000000000ULL;
		h.clock.t0_realtime_ns = 1764000010000000000ULL;
		TrafficFlow f = sized("f1", 100000, 5000000);
		f.src = "h1";
		f.start_ns = 1000000;
		f.complete_ns = 6000000;
		f.qpns = {17, 18};
		h.flows.push_back(f);
		hosts.push_back(h);
		std::string p = std::string(kPortsHeader) + "\n";
		for (int t = 9990000; t <= 10020000; t += 1000) {
			int rx = t < 10003000 ? 300
			                      : 300 + (t - 10002000) / 1000 *
			                                        2000; // 300: ARP and set-up
			p += std::to_string(t) + ",s0,1,h1,0," + std::to_string(rx) + ",0,0,0,0\n";
		}
		ports = parse_ports("p", p);
	}
};

} // namespace

TEST(Align, WallClockRefinedByFirstData)
{
	Fixture fx;
	Alignment al = align_clocks(fx.hosts, fx.fabric_t0, fx.ports, fx.host_port);
	ASSERT_TRUE(al.known);
	EXPECT_EQ(al.estimate_ns, 10000000000LL);
	EXPECT_EQ(al.offset_ns, 10001500000LL);
	EXPECT_EQ(al.method, "first data of flow f1 at s0.h1");
}

TEST(Align, DataFarFromTheWallClockIsNotUsed)
{
	Fixture fx;
	fx.fabric_t0 -= 5000000000ULL; // the wall clocks say 15 s: the data at 10 s is too far
	Alignment al = align_clocks(fx.hosts, fx.fabric_t0, fx.ports, fx.host_port);
	ASSERT_TRUE(al.known);
	EXPECT_EQ(al.offset_ns, 15000000000LL);
	EXPECT_EQ(al.method, "wall clock");
	// without fabric_t0 the data alone places T0
	al = align_clocks(fx.hosts, 0, fx.ports, fx.host_port);
	EXPECT_EQ(al.offset_ns, 10001500000LL);
}

TEST(Align, AProbeBurstIsNotTheFirstData)
{
	// the base RTT probe on the same port: 3500 bytes in (9.950, 9.951] s,
	// within 2 s of the estimate, then nothing for 20 ms: not the flow's
	// start, which is still found at 10.0025 s
	Fixture fx;
	std::string p = std::string(kPortsHeader) + "\n";
	for (int t = 9940000; t <= 10020000; t += 1000) {
		int rx = (t >= 9951000 ? 3500 : 0) +
		         (t < 10003000 ? 300 : 300 + (t - 10002000) / 1000 * 2000);
		p += std::to_string(t) + ",s0,1,h1,0," + std::to_string(rx) + ",0,0,0,0\n";
	}
	fx.ports = parse_ports("p", p);
	Alignment al = align_clocks(fx.hosts, fx.fabric_t0, fx.ports, fx.host_port);
	EXPECT_EQ(al.offset_ns, 10001500000LL);
	EXPECT_EQ(al.method, "first data of flow f1 at s0.h1");
	// a flow that stops after 4 packets' worth is not seen as starting
	fx.ports =
		parse_ports("p", std::string(kPortsHeader) + "\n10002000,s0,1,h1,0,0,0,0,0,0\n"
	                                                     "10003000,s0,1,h1,0,4000,0,0,0,0\n"
	                                                     "10030000,s0,1,h1,0,4000,0,0,0,0\n");
	al = align_clocks(fx.hosts, fx.fabric_t0, fx.ports, fx.host_port);
	EXPECT_EQ(al.method, "wall clock");
	// a 500-byte flow that starts first cannot be told from the probe: the
	// first flow of 10 KB or more places T0
	fx = Fixture();
	TrafficFlow tiny = fx.hosts[0].flows[0];
	tiny.flow = "tiny";
	tiny.size_bytes = 500;
	tiny.start_ns = 0;
	fx.hosts[0].flows.push_back(tiny);
	al = align_clocks(fx.hosts, fx.fabric_t0, fx.ports, fx.host_port);
	EXPECT_EQ(al.method, "first data of flow f1 at s0.h1");
	EXPECT_EQ(al.offset_ns, 10001500000LL);
	// with small flows only, the first of them
	fx.hosts[0].flows[0].size_bytes = 600;
	al = align_clocks(fx.hosts, fx.fabric_t0, fx.ports, fx.host_port);
	EXPECT_EQ(al.method.rfind("first data of flow tiny", 0), 0u) << al.method;
}

TEST(CcState, SenderQpsOfTheFlowSummed)
{
	Fixture fx;
	Alignment al = align_clocks(fx.hosts, fx.fabric_t0, fx.ports, fx.host_port);
	std::uint64_t t0 = fx.hosts[0].clock.t0_monotonic_ns;
	auto row = [&](std::uint64_t dt, unsigned qpn, const char *rest) {
		return std::to_string(t0 + dt) + ",rxe_h1," + std::to_string(qpn) + ",dcqcn," +
		       rest + "\n";
	};
	std::string csv =
		"time_ns,dev,qpn,algo,rate_bps,window_bytes,dcqcn.target_rate_kbps,dcqcn.alpha,"
		"dcqcn.cnp_handled,event\n" +
		row(500000, 17, "1,,1,1,1,") +                 // before the flow starts
		row(2000000, 17, "40000000,,60000,32768,3,") + // 40 Mbit/s, alpha 0.5
		row(2000000, 18, "50000000,,70000,65536,4,") + // 50 Mbit/s, alpha 1
		row(2000000, 19, "99000000,,1,1,100,") +       // another flow's QP
		row(2100000, 17, "20000000,,,,,rate_dec") +    // an event row
		row(9000000, 17, "1,,1,1,1,");                 // after its completion
	MonitorFile m = parse_monitor("h1", "mon", csv);
	auto s = cc_series(fx.hosts[0].flows[0], m, fx.hosts[0].clock, al);
	ASSERT_EQ(s.size(), 1u);
	// 2 ms after T0, T0 at 10.0015 s of fabric time
	EXPECT_NEAR(s[0].t_s, 10.0035, 1e-9);
	EXPECT_DOUBLE_EQ(*s[0].rate_mbps, 90);
	EXPECT_DOUBLE_EQ(*s[0].target_mbps, 130);
	EXPECT_DOUBLE_EQ(*s[0].alpha, 0.75);
	EXPECT_DOUBLE_EQ(s[0].feedback.at("CNPs handled"), 7);
	EXPECT_FALSE(s[0].window_kb.has_value());
}

TEST(FlowsCsv, FromTheGeneratorOnTheFabricClock)
{
	Fixture fx;
	TrafficHost &h = fx.hosts[0];
	h.flows[0].dst = "r";
	h.flows[0].bytes = 100000;
	TrafficFlow lng; // a flow with a duration: no FCT
	lng.flow = "f2";
	lng.src = "h1";
	lng.dst = "r";
	lng.duration_ns = 2000000000;
	lng.start_ns = 0;
	lng.complete_ns = 2000000000;
	lng.bytes = 25000000;
	lng.status = "ok";
	h.flows.push_back(lng);
	TrafficFlow bad; // failed before its first message
	bad.flow = "f3";
	bad.src = "h9";
	bad.dst = "r";
	bad.size_bytes = 10;
	bad.status = "connect_timeout";
	h.flows.push_back(bad);
	Alignment al;
	al.known = true;
	al.offset_ns = 10001500000LL;
	EXPECT_EQ(flows_csv_from_traffic(fx.hosts, al, fx.host_port),
	          "flow,src,dst,ingress,start_s,end_s,bytes,gbps,fct_s,status\n"
	          // 100 kB in 5 ms: 0.16 Gbit/s; from 10.0015 + 1 ms to + 6 ms
	          "f1,h1,r,s0.h1,10.002500,10.007500,100000,0.160000,0.005000,ok\n"
	          "f2,h1,r,s0.h1,10.001500,12.001500,25000000,0.100000,,ok\n"
	          "f3,h9,r,,,,0,0,,failed\n");
	// and the report's reader takes it
	EXPECT_EQ(parse_flows("fl", flows_csv_from_traffic(fx.hosts, al, fx.host_port)).size(), 3u);
	// an unknown clock, an ok flow without a port or a completion: errors
	EXPECT_THROW(flows_csv_from_traffic(fx.hosts, Alignment{}, fx.host_port), Error);
	h.flows[2].status = "ok";
	EXPECT_THROW(flows_csv_from_traffic(fx.hosts, al, fx.host_port), Error);
	h.flows.pop_back();
	h.flows[1].complete_ns.reset();
	EXPECT_THROW(flows_csv_from_traffic(fx.hosts, al, fx.host_port), Error);
}

TEST(ProbeRtt, MedianOfTheCompletedMessages)
{
	const std::string h = "flow,msg,bytes,post_ns,complete_ns,qp\n";
	std::string csv = h;
	// latencies 50, 10, 30, 20, 40 us and one that did not complete
	for (int i : {50, 10, 30, 20, 40})
		csv += "p," + std::to_string(i) + ",64,1000000," +
		       std::to_string(1000000 + i * 1000) + ",0\n";
	EXPECT_EQ(probe_rtt_ns("m", csv + "p,9,64,1000000,,0\n"), 30000u);
	// fewer than 5 completed, a completion before its post, a bad field
	EXPECT_THROW(probe_rtt_ns("m", h + "p,0,64,1,2,0\n"), Error);
	EXPECT_THROW(probe_rtt_ns("m", csv + "p,9,64,1000000,999,0\n"), Error);
	EXPECT_THROW(probe_rtt_ns("m", csv + "p,9,64,x,1,0\n"), Error);
	EXPECT_THROW(probe_rtt_ns("m", "flow,msg\np,1\n"), Error);
}
