// Parsers of the results directory's files: what they accept, and the
// message (file, line) of what they refuse.
#include <gtest/gtest.h>

#include "csv_table.h"
#include "error.h"
#include "inputs.h"

using namespace rxecc::report;

namespace
{

// The message of the Error F throws ("" if none).
template <typename F>
std::string error_of(F f)
{
	try {
		f();
	} catch (const Error &e) {
		return e.what();
	}
	return "";
}

const std::string kMeta = "scenario=incast\nalgo=dcqcn\nlink_rate_bps=100000000\n"
			  "bottleneck=s0.r\ndata_prio=3\n";

} // namespace

TEST(Csv, HeaderLineNumbersAndQuoting)
{
	auto t = parse_csv("f.csv", "a,b\n1,\"x,y\"\n\n3,4\r\n");
	EXPECT_EQ(t.header_text, "a,b");
	ASSERT_EQ(t.rows.size(), 2u);
	EXPECT_EQ(t.rows[0].fields[1], "x,y");
	EXPECT_EQ(t.rows[1].line, 4u); // the blank line 3 is skipped
	EXPECT_EQ(t.where(t.rows[1]), "f.csv:4");
	EXPECT_EQ(*t.column("b"), 1u);
	EXPECT_EQ(error_of([&] { t.need_column("c"); }),
	          "f.csv: no column 'c' in the header 'a,b'");
	EXPECT_EQ(error_of([] { parse_csv("f.csv", "a,b\n1,\"open\n"); }).rfind("f.csv:", 0), 0u);
	EXPECT_EQ(error_of([] { parse_csv_exact("f.csv", "", "a,b"); }),
	          "f.csv: empty (expected header 'a,b')");
	EXPECT_EQ(error_of([] { parse_csv_exact("f.csv", "a,c\n", "a,b"); }),
	          "f.csv: header is 'a,c', expected 'a,b'");
}

TEST(Meta, KeyValueLinesNeverExecuted)
{
	auto m = Meta::parse("m", "# comment\n  \nlabel='x y'\nalgo=\"dcqcn\"\nempty=\n");
	EXPECT_EQ(m.get("label"), "x y");
	EXPECT_EQ(m.get("algo"), "dcqcn");
	EXPECT_FALSE(m.has("empty"));
	EXPECT_EQ(error_of([] { Meta::parse("m", "a=1\n$(touch x)\n"); }),
	          "m:2: not a key=value line: $(touch x)");
	EXPECT_EQ(error_of([] { Meta::parse("m", " a=1\n"); }), "m:1: not a key=value line:  a=1");
}

TEST(Settings, DefaultsAndChecks)
{
	Settings s = settings_from(Meta::parse("m", kMeta));
	EXPECT_EQ(s.label, "dcqcn"); // default: algo
	EXPECT_EQ(s.overhead, 24u);
	EXPECT_EQ(s.window_mode, WindowMode::kActive);
	EXPECT_FALSE(s.base_rtt_ns.has_value());
	EXPECT_EQ(s.mtu_bytes, 1024u);
	EXPECT_EQ(s.header_bytes, 58u);
	s = settings_from(
		Meta::parse("m", kMeta + "window_mode=all\nbase_rtt_ns=40000\nmtu_bytes=4096\n"));
	EXPECT_EQ(s.window_mode, WindowMode::kAll);
	EXPECT_EQ(*s.base_rtt_ns, 40000u);
	EXPECT_EQ(s.mtu_bytes, 4096u);
	EXPECT_EQ(error_of([] { settings_from(Meta::parse("m", kMeta + "link_rate_bps=fast\n")); }),
	          "m: link_rate_bps=fast: not a positive bit rate");
	EXPECT_EQ(error_of([] { settings_from(Meta::parse("m", kMeta + "window_mode=some\n")); }),
	          "m: window_mode=some: not active, all or any");
	EXPECT_EQ(error_of([] { settings_from(Meta::parse("m", kMeta + "base_rtt_ns=0\n")); }),
	          "m: base_rtt_ns=0: not a positive time in nanoseconds (at most 12 digits)");
	EXPECT_EQ(error_of([] { settings_from(Meta::parse("m", "algo=x\n")); }),
	          "m: scenario missing or empty");
}

TEST(Flows, RowsAndErrors)
{
	std::string h = std::string(kFlowsHeader) + "\n";
	auto f = parse_flows("flows.csv",
	                     h + "f1,h1,r,s0.h1,1.5,9.5,1000,0.0125,0.5,ok\nf2,,,,,,0,0,,failed\n");
	ASSERT_EQ(f.size(), 2u);
	EXPECT_DOUBLE_EQ(f[0].gbps, 0.0125);
	EXPECT_EQ(f[0].fct_s, "0.5");
	EXPECT_FALSE(f[1].ok);
	EXPECT_EQ(
		error_of([&] { parse_flows("flows.csv", h + "f1,h1,r,s0.h1,1,2,3,0.1,,ok,x\n"); }),
		"flows.csv:2: expected 10 fields, found 11");
	EXPECT_EQ(
		error_of([&] { parse_flows("flows.csv", h + "f1,h1,r,s0.h1,1,2,3,0.1,,maybe\n"); }),
		"flows.csv:2: flow f1: status 'maybe' is not ok or failed");
	EXPECT_EQ(
		error_of([&] { parse_flows("flows.csv", h + "f1,h1,r,s0.h1,1,2,3.5,0.1,,ok\n"); }),
		"flows.csv:2: flow f1: bytes '3.5' is not a number");
	EXPECT_EQ(error_of([&] { parse_flows("flows.csv", h + "f1,,,,,,0,0,,ok\n"); }),
	          "flows.csv:2: flow f1: bad src or dst '', ''");
}

TEST(Ports, RepeatedSampleReplacesAndTimeOrder)
{
	std::string h = std::string(kPortsHeader) + "\n";
	auto p = parse_ports("p", h + "1000,s0,1,h1,0,10,0,0,0,0\n1000,s0,9,r,0,0,1,5,0,0\n"
	                              "2000,s0,1,h1,0,20,0,0,0,0\n2000,s0,1,h1,0,25,0,0,0,0\n");
	ASSERT_EQ(p.series.at("s0.h1").size(), 2u);
	EXPECT_EQ(p.series.at("s0.h1")[1].rx_bytes, 25u);
	EXPECT_EQ(p.times, (std::vector<std::uint64_t>{1000, 2000}));
	EXPECT_EQ(error_of([&] {
			  parse_ports("p",
		                      h + "2000,s0,1,h1,0,1,0,0,0,0\n1000,s0,1,h1,0,1,0,0,0,0\n");
		  }),
	          "p:3: time_us goes backwards");
	EXPECT_EQ(error_of([&] { parse_ports("p", h + "2000,s0,1,h1,0,x,0,0,0,0\n"); }),
	          "p:2: bad value 'x' in column 6");
}

TEST(Queues, KeepsTheBottleneckDataPriority)
{
	std::string h = std::string(kQueuesHeader) + "\n";
	auto q = parse_queues("q",
	                      h + "1000,s0,9,r,3,500,1,1,0,0,7,0,0,0,40,0\n"
	                          "1000,s0,9,r,0,900,1,0,0,0,0,0,0,0,0,0\n"
	                          "2000,s0,1,h1,3,800,1,0,0,0,0,0,0,0,0,0\n",
	                      "s0.r", 3);
	ASSERT_EQ(q.bottleneck.size(), 1u);
	EXPECT_EQ(q.bottleneck[0].queue_bytes, 500u);
	EXPECT_TRUE(q.bottleneck[0].paused);
	EXPECT_EQ(q.bottleneck[0].ecn_marks, 7u);
	EXPECT_EQ(q.bottleneck[0].paused_us, 40u);
	EXPECT_EQ(q.times.size(), 2u);
	EXPECT_EQ(error_of([&] {
			  parse_queues("q", h + "1,s0,9,r,8,0,0,0,0,0,0,0,0,0,0,0\n", "s0.r", 3);
		  }),
	          "q:2: priority 8 is not 0..7");
}

TEST(Flat, CountersAndSums)
{
	auto f = parse_flat(
		"flat", "time_us 5\ns0.h1.attach /tmp/x h1.sock\ntotal_drops 7\npfc_frames_sent 1\n"
			"pfc_frames_rx 2\ns0.r.q3.ecn_marks 100\ns0.h1.q3.ecn_marks 23\n");
	EXPECT_EQ(*f.total_drops, 7u);
	EXPECT_EQ(f.ecn_total, 123u);
	EXPECT_EQ(error_of([] { parse_flat("flat", "total_drops many\n"); }),
	          "flat:1: expected 'key value' with a whole number, found 'total_drops many'");
}

TEST(Flat, PeakQueuesAndSfcTotals)
{
	auto f = parse_flat("flat", "total_drops 0\npfc_frames_sent 0\npfc_frames_rx 0\n"
	                            "s1.r.q3.max_queue_bytes 5000\ns0.up.q6.max_queue_bytes 74\n"
	                            "s1.sfc.bts_generated 3\nsfc.bts_generated 3\n"
	                            "sfc.cache_hits 1\n");
	ASSERT_EQ(f.max_queue_bytes.size(), 2u);
	EXPECT_EQ(f.max_queue_bytes.at("s1.r.q3"), 5000u);
	EXPECT_EQ(f.max_queue_bytes.at("s0.up.q6"), 74u);
	// The totals only, in file order, without the prefix.
	ASSERT_EQ(f.sfc.size(), 2u);
	EXPECT_EQ(f.sfc[0], std::make_pair(std::string("bts_generated"), std::uint64_t{3}));
	EXPECT_EQ(f.sfc[1], std::make_pair(std::string("cache_hits"), std::uint64_t{1}));
	// A switch named sfc is not a total.
	EXPECT_TRUE(parse_flat("flat", "sfc.h1.attach /tmp/x\nsfc.sfc.bts_seen 1\n").sfc.empty());
	EXPECT_EQ(error_of([] { parse_flat("flat", "sfc.bts_generated lots\n"); }),
	          "flat:1: expected 'key value' with a whole number, found 'sfc.bts_generated "
	          "lots'");
	EXPECT_EQ(error_of([] { parse_flat("flat", "s0.r.q3.max_queue_bytes -1\n"); }),
	          "flat:1: expected 'key value' with a whole number, found "
	          "'s0.r.q3.max_queue_bytes -1'");
}

TEST(HostCounters, SummedInOrderOfFirstAppearance)
{
	HostCounters h;
	h.add("a", "cnp 5\ndec 2\n");
	h.add("b", "cnp 7\npause 1\n");
	EXPECT_EQ(h.files, 2u);
	ASSERT_EQ(h.sums.size(), 3u);
	EXPECT_EQ(h.sums[0], std::make_pair(std::string("cnp"), std::uint64_t{12}));
	EXPECT_EQ(h.sums[2].first, "pause");
	EXPECT_EQ(error_of([&] { h.add("c", "x y\n"); }),
	          "c:1: expected 'name value' with a whole number, found 'x y'");
}

TEST(FabricT0, WallClockSecondsToNs)
{
	EXPECT_EQ(parse_fabric_t0("t", "1764000000.123456\n"), 1764000000123456000ULL);
	EXPECT_EQ(parse_fabric_t0("t", "1764000000"), 1764000000000000000ULL);
	EXPECT_NE(error_of([] { parse_fabric_t0("t", "soon"); }), "");
}
