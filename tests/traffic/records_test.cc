// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Records: rows with unknown values left empty, the per-host files and
// their merge (SEND byte times from the receiver, a host without records,
// start-error percentiles), bad per-host files rejected with nothing
// written, the wire counts, CSV reading, and the netlink read of a QP's
// retransmissions against a fake kernel.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "csv_read.h"
#include "messages.h"
#include "nlattr.h"
#include "rdma/rxe_cc.h"
#include "records.h"
#include "retx.h"
#include "text.h"

namespace
{

using namespace rxecc::traffic;

const char kSched[] = "w a b 0 size=2500 msg=1KiB\n"
		      "s a b 1ms size=100 verb=send msg=100\n"
		      "r a b 2ms duration=1s verb=read msg=1000 qps=2\n"
		      "x c a 3ms size=1\n";

Schedule sched()
{
	std::string err;
	auto s = parse_schedule(kSched, "sched", &err);
	EXPECT_TRUE(s) << err;
	return *s;
}

class TempDir
{
public:
	TempDir()
	{
		char t[] = "/tmp/traffic_test.XXXXXX";
		path_ = mkdtemp(t);
	}
	~TempDir() { std::system(("rm -rf " + path_).c_str()); }
	const std::string &path() const { return path_; }
	std::string read(const std::string &rel) const
	{
		std::string s, err;
		read_file(path_ + "/" + rel, s, &err);
		return s;
	}
	bool exists(const std::string &rel) const
	{
		struct stat st {
		};
		return stat((path_ + "/" + rel).c_str(), &st) == 0;
	}
	void write(const std::string &rel, const std::string &text) const
	{
		std::string err;
		ASSERT_TRUE(write_file(path_ + "/" + rel, text, &err)) << err;
	}

private:
	std::string path_;
};

TEST(Records, UnknownValuesAreEmptyFields)
{
	Schedule s = sched();
	FlowRecord r;
	r.status = "connect_timeout:rejected_8";
	EXPECT_EQ(flow_row(s.flows[0], r),
	          "w,a,b,write,2500,,1024,1,26,0,,,,,,,,,connect_timeout:rejected_8,");
	r.start_ns = 5;
	r.bytes = 0;
	r.retx = 3;
	r.qpns = {17, 18};
	r.dst_qpns = {19};
	EXPECT_EQ(flow_row(s.flows[2], r), "r,a,b,read,,1000000000,1000,2,26,2000000,5,,,,0,,3,17;"
	                                   "18,connect_timeout:rejected_8,19");
	RxRecord rx;
	rx.first_byte_ns = 10;
	rx.status = "ok";
	EXPECT_EQ(rx_row("s", rx), "s,10,,0,0,ok");
}

// The three hosts' files for kSched as the engine writes them: a drives w
// and s, b drives r and receives s, c drives x but wrote nothing.
void write_hosts(const TempDir &d, const Schedule &s)
{
	FlowProgress w(s.flows[0], 1000000, false), sp(s.flows[1], 1000000, true),
		r(s.flows[2], 1000000, false);
	w.start(1000);
	for (int i = 0; i < 3; i++)
		w.post(0, 1000);
	w.complete(0, 0, 300000);
	w.complete(1, 0, 400000);
	w.complete(2, 0, 1200000);
	w.record().qpns = {17};
	w.record().dst_qpns = {33};
	w.finish("ok");
	sp.start(1000500); // 500 ns late
	sp.post(0, 1000500);
	sp.complete(0, 0, 1100000);
	sp.finish("ok");
	r.start(2004000); // 4 us late
	r.post(0, 2004000);
	r.post(1, 2004000);
	r.complete(0, 0, 2500000);
	r.fail_completion(1, 1);
	r.finish("wc_error:rem_access_err");

	HostOutput a;
	a.host = "a";
	a.driven = {{&s.flows[0], &w}, {&s.flows[1], &sp}};
	a.meta = {{"host", "a"},
	          {"version", "0.1.0"},
	          {"t0_monotonic_ns", 123},
	          {"t0_realtime_ns", 456},
	          {"settings", {{"bin_ns", 1000000}}}};
	HostOutput b;
	b.host = "b";
	b.driven = {{&s.flows[2], &r}};
	RxRecord rx;
	rx.first_byte_ns = 1090000;
	rx.last_byte_ns = 1090000;
	rx.bytes = 100;
	rx.msgs = 1;
	rx.status = "ok";
	b.received = {{"s", rx}};
	b.meta = {{"host", "b"},
	          {"version", "0.1.0"},
	          {"t0_monotonic_ns", 123},
	          {"t0_realtime_ns", 456},
	          {"settings", {{"bin_ns", 1000000}}}};
	std::string err;
	ASSERT_TRUE(write_host_output(d.path(), a, &err)) << err;
	ASSERT_TRUE(write_host_output(d.path(), b, &err)) << err;
}

TEST(Records, HostFilesAndMerge)
{
	TempDir d;
	Schedule s = sched();
	write_hosts(d, s);
	EXPECT_EQ(d.read("a/flows.csv"),
	          std::string(kFlowsHeader) + "\n" +
	                  "w,a,b,write,2500,,1024,1,26,0,1000,300000,1200000,1200000,2500,3,,17,ok,"
	                  "33\n"
	                  "s,a,b,send,100,,100,1,26,1000000,1000500,,,1100000,100,1,,,ok,\n");
	EXPECT_EQ(d.read("b/rx.csv"), std::string(kRxHeader) + "\ns,1090000,1090000,100,1,ok\n");
	EXPECT_EQ(d.read("a/messages.csv"),
	          std::string(kMessagesHeader) + "\ns,0,100,1000500,1100000,0\n");
	// w's bins: 0 .. 1 ms: 2048 B, 1 .. 2 ms: 452 B
	EXPECT_EQ(d.read("a/bins.csv"),
	          std::string(kBinsHeader) + "\nw,0,2048\nw,1000000,452\ns,1000000,100\n");

	MergeResult res;
	std::string err;
	ASSERT_TRUE(merge_records(d.path(), s, res, &err)) << err;
	EXPECT_EQ(d.read("flows.csv"),
	          std::string(kFlowsHeader) + "\n" +
	                  "w,a,b,write,2500,,1024,1,26,0,1000,300000,1200000,1200000,2500,3,,17,ok,"
	                  "33\n"
	                  // SEND: first and last byte from the receiver
	                  "s,a,b,send,100,,100,1,26,1000000,1000500,1090000,1090000,1100000,100,1,,"
	                  ",ok,\n"
	                  "r,a,b,read,,1000000000,1000,2,26,2000000,2004000,2500000,2500000,,1000,"
	                  "1,,,"
	                  "wc_error:rem_access_err,\n"
	                  // c wrote nothing
	                  "x,c,a,write,1,,65536,1,26,3000000,,,,,,,,,no_record,\n");
	EXPECT_EQ(d.read("bins.csv"),
	          std::string(kBinsHeader) +
	                  "\nw,0,2048\nw,1000000,452\ns,1000000,100\nr,2000000,1000\n");
	EXPECT_EQ(d.read("messages.csv"),
	          std::string(kMessagesHeader) + "\ns,0,100,1000500,1100000,0\n");
	EXPECT_EQ(res.flows, 4u);
	EXPECT_EQ(res.ok, 2u);
	EXPECT_EQ(res.failed.at("x"), "no_record");
	// start errors 1000, 500, 4000 ns: p50 1000, p99 = max = 4000
	EXPECT_EQ(res.start.count, 3u);
	EXPECT_EQ(res.start.p50, 1000);
	EXPECT_EQ(res.start.p99, 4000);
	EXPECT_EQ(res.start.max, 4000);
	EXPECT_EQ(summary_line(res),
	          "2 of 4 flows ok; start error p50 1.0 us, p99 4.0 us, max 4.0 us (3 flows)");

	const auto j = nlohmann::json::parse(d.read("summary.json"));
	EXPECT_EQ(j["t0_monotonic_ns"], 123);
	EXPECT_EQ(j["t0_realtime_ns"], 456);
	EXPECT_EQ(j["bin_ns"], 1000000);
	EXPECT_EQ(j["version"], "0.1.0");
	EXPECT_EQ(j["flows"]["total"], 4);
	EXPECT_EQ(j["flows"]["failed"], 2);
	EXPECT_EQ(j["flows"]["status"]["r"], "wc_error:rem_access_err");
	EXPECT_EQ(j["start_error_ns"]["p99"], 4000);
	EXPECT_EQ(j["hosts"]["b"]["host"], "b");
	EXPECT_FALSE(j["hosts"].contains("c"));
	EXPECT_EQ(j["schedule_hash"].get<std::string>().size(), 16u);

	// the merged file reads back
	std::map<std::string, FlowRecord> recs;
	ASSERT_TRUE(read_flows_table(d.path() + "/flows.csv", s, "", recs, &err)) << err;
	EXPECT_EQ(recs.at("s").first_byte_ns, 1090000);
	EXPECT_FALSE(recs.at("x").bytes);
	EXPECT_EQ(recs.at("w").qpns, (std::vector<std::uint32_t>{17}));
}

struct BadFile {
	const char *file;
	const char *text;
	const char *error; // after "DIR/"
};

class MergeBad : public ::testing::TestWithParam<BadFile>
{
};

TEST_P(MergeBad, RejectedAndNothingWritten)
{
	TempDir d;
	Schedule s = sched();
	write_hosts(d, s);
	d.write(GetParam().file, GetParam().text);
	MergeResult res;
	std::string err;
	EXPECT_FALSE(merge_records(d.path(), s, res, &err));
	std::string want = d.path() + "/" + GetParam().error;
	if (want.back() == '*') { // any message after the file and line
		want.pop_back();
		EXPECT_EQ(err.substr(0, want.size()), want);
	} else {
		EXPECT_EQ(err, want);
	}
	EXPECT_FALSE(d.exists("flows.csv"));
	EXPECT_FALSE(d.exists("summary.json"));
}

INSTANTIATE_TEST_SUITE_P(
	Files, MergeBad,
	::testing::Values(
		BadFile{"a/flows.csv", "flow,src\n",
                        "a/flows.csv:1: the header is not "
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns"},
		BadFile{"a/flows.csv",
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns\n"
                        "w,a,b,write,2500,,1024,1,26,0,1000\n",
                        "a/flows.csv:2: expected 20 fields, found 11"},
		BadFile{"a/flows.csv",
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns\n"
                        "\n"
                        "w,a,b,write,2500,,1024,1,26,0,1x,,,,,,,,ok,\n",
                        "a/flows.csv:3: start_ns: '1x' is not a whole number"},
		BadFile{"a/flows.csv",
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns\n"
                        "r,a,b,read,,1000000000,1000,2,26,2000000,,,,,,,,,ok,\n",
                        "a/flows.csv:2: flow 'r' is not driven by a"},
		BadFile{"a/flows.csv",
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns\n"
                        "w,a,b,write,2501,,1024,1,26,0,,,,,,,,,ok,\n",
                        "a/flows.csv:2: flow 'w' does not match the schedule "
                        "(w,a,b,write,2501,,1024,1,26,0)"},
		BadFile{"a/flows.csv",
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns\n"
                        "w,a,b,write,2500,,1024,1,26,0,,,,,,,,1;x,ok,\n",
                        "a/flows.csv:2: qpns: '1;x' is not a list of QP numbers (a;b;...)"},
		BadFile{"a/flows.csv",
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns\n"
                        "w,a,b,write,2500,,1024,1,26,0,,,,,,,,,,\n",
                        "a/flows.csv:2: status: empty or not a single field"},
		BadFile{"a/flows.csv",
                        "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_"
                        "ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,"
                        "status,dst_qpns\n"
                        "zz,a,b,write,2500,,1024,1,26,0,,,,,,,,,ok,\n",
                        "a/flows.csv:2: flow 'zz' is not in the schedule"},
		BadFile{"b/rx.csv",
                        "flow,first_byte_ns,last_byte_ns,bytes,msgs,status\nw,1,2,3,4,ok\n",
                        "b/rx.csv:2: flow 'w' is not a SEND flow received by b"},
		BadFile{"b/rx.csv",
                        "flow,first_byte_ns,last_byte_ns,bytes,msgs,status\ns,1,2,,4,ok\n",
                        "b/rx.csv:2: bytes: empty"},
		BadFile{"a/bins.csv", "flow,bin_start_ns,bytes\nw,0,-5\n",
                        "a/bins.csv:2: bytes: '-5' is not a whole number"},
		BadFile{"a/messages.csv", "flow,msg,bytes,post_ns,complete_ns,qp\ns,0,1,\"2,3\n",
                        "a/messages.csv:2: *"},
		BadFile{"b/host.json", "{\"host\": \"a\"}\n",
                        "b/host.json:1: \"host\" is not \"b\""}));

TEST(Wire, CountsOkFlowsPerDirection)
{
	Schedule s = sched();
	std::map<std::string, FlowRecord> recs;
	FlowRecord ok;
	ok.status = "ok";
	ok.msgs = 3;
	recs["w"] = ok; // WRITEs of 1024, 1024 and 452 B: one packet each
	ok.msgs = 1;
	recs["s"] = ok; // one SEND of 100 B
	ok.msgs = 5;
	recs["r"] = ok; // READ of 1000 B each: one response packet, 2 QPs
	FlowRecord bad;
	bad.status = "deadline";
	recs["x"] = bad;
	std::vector<std::string> skipped;
	auto w = wire_counts(s, recs, 1024, &skipped);
	EXPECT_EQ(skipped, (std::vector<std::string>{"x"}));
	ASSERT_EQ(w.size(), 2u);
	const WireTotals &ab = w.at(WireKey{"a", "b", 26});
	EXPECT_EQ(ab.data.frames, 3u + 1 + 5);
	// 58 B per frame; a RETH (16) on every WRITE ONLY packet; an AETH (4)
	// on a READ response ONLY packet
	EXPECT_EQ(ab.data.bytes, (2500u + 3 * 58 + 3 * 16) + (100 + 58) + 5 * (1000 + 58 + 4));
	// a connects w and s (1 QP each): REQ, RTU, DREQ each; b connects r
	// (2 QPs), a answers REP and DREP on each
	EXPECT_EQ(ab.cm.frames, 3u + 3 + 2 * 2);
	EXPECT_EQ(ab.cm.bytes, 10u * 322);
	const WireTotals &ba = w.at(WireKey{"b", "a", 26});
	EXPECT_EQ(ba.data.frames, 0u);
	EXPECT_EQ(ba.cm.frames, 2u + 2 + 3 * 2);
}

TEST(Wire, CompareWithTheFabric)
{
	WireTotals want;
	want.data = {100, 108000};
	want.cm = {5, 5 * 322};
	const std::uint64_t f = 105, b = 108000 + 5 * 322;
	WireCompare c = compare_wire(want, f, b);
	EXPECT_TRUE(c.match);
	EXPECT_EQ(c.repeated_cm, 0u);
	EXPECT_EQ(c.message,
	          "match: 105 frames, 109610 bytes; the records account for 100 data "
	          "frames (108000 bytes) and 5 connection management frames (1610 bytes)");
	// two MADs sent again: still a match
	c = compare_wire(want, f + 2, b + 2 * 322);
	EXPECT_TRUE(c.match);
	EXPECT_EQ(c.repeated_cm, 2u);
	EXPECT_NE(c.message.find(", and 2 repeated connection management frames"),
	          std::string::npos);
	// a data frame sent again (1082 bytes) is not a MAD
	c = compare_wire(want, f + 1, b + 1082);
	EXPECT_FALSE(c.match);
	EXPECT_EQ(c.message.rfind("1 extra frames of 1082 bytes are not connection management", 0),
	          0u)
		<< c.message;
	// a frame short
	c = compare_wire(want, f - 1, b - 1080);
	EXPECT_FALSE(c.match);
	EXPECT_EQ(c.message.rfind("fewer frames or bytes than the records account for", 0), 0u);
	// as many frames but fewer bytes
	EXPECT_FALSE(compare_wire(want, f, b - 1).match);
}

TEST(Csv, LinesFieldsAndErrors)
{
	std::vector<CsvRow> rows;
	std::string err;
	ASSERT_TRUE(read_csv("a,b,\n\n\"x,y\",,z\nlast", "f", rows, &err)) << err;
	ASSERT_EQ(rows.size(), 3u);
	EXPECT_EQ(rows[0].line, 1);
	EXPECT_EQ(rows[0].fields, (std::vector<std::string>{"a", "b", ""}));
	EXPECT_EQ(rows[1].line, 3);
	EXPECT_EQ(rows[1].fields, (std::vector<std::string>{"x,y", "", "z"}));
	EXPECT_EQ(rows[2].line, 4);
	EXPECT_EQ(rows[2].fields, (std::vector<std::string>{"last"}));
	rows.clear();
	EXPECT_FALSE(read_csv("a\nb\"c\n", "f", rows, &err));
	EXPECT_EQ(err.rfind("f:2: ", 0), 0u) << err;
}

// A Transport that answers QP_GET with one canned QP.
class FakeQp : public rxecc::Transport
{
public:
	std::optional<std::uint64_t> retx;
	bool fail = false;
	rxecc::Status request(const rxecc::GenlMsg &req, bool,
	                      std::vector<rxecc::GenlMsg> &out) override
	{
		if (fail)
			return rxecc::Status::kernel(2, "no such QP");
		EXPECT_EQ(req.cmd, RXE_CC_CMD_QP_GET);
		rxecc::nl::AttrWriter w;
		w.put_string(RXE_CC_A_DEV_NAME, "rxe_a");
		w.put_u32(RXE_CC_A_QPN, 17);
		w.put_string(RXE_CC_A_ALGO, "none");
		const auto st = w.begin_nest(RXE_CC_A_QP_STATS);
		auto stat = [&](const char *n, std::uint64_t v) {
			const auto t = w.begin_nest(RXE_CC_A_STAT);
			w.put_string(RXE_CC_A_ST_NAME, n);
			w.put_u64(RXE_CC_A_ST_VALUE, v);
			w.end_nest(t);
		};
		stat("cnp_rx", 4);
		if (retx)
			stat("retx_pkts", *retx);
		w.end_nest(st);
		out.push_back(rxecc::GenlMsg{RXE_CC_CMD_QP_GET, w.bytes()});
		return {};
	}
	rxecc::Status subscribe_events() override { return {}; }
	rxecc::Status wait_events(std::uint64_t, std::vector<rxecc::GenlMsg> &) override
	{
		return {};
	}
};

TEST(Retx, ReadFromTheQpStats)
{
	FakeQp k;
	EXPECT_FALSE(qp_retx(k, "rxe_a", 17)); // no such statistic: unknown
	k.retx = 0;
	EXPECT_EQ(qp_retx(k, "rxe_a", 17), 0u);
	k.retx = 12;
	EXPECT_EQ(qp_retx(k, "rxe_a", 17), 12u);
	EXPECT_FALSE(qp_retx(k, "rxe_a", 18)); // the reply is for another QP
	k.fail = true;
	EXPECT_FALSE(qp_retx(k, "rxe_a", 17));
}

} // namespace
