// A whole results directory with the traffic generator's records and a
// monitor file, through report_one, report_window and report_index.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "error.h"
#include "output.h"
#include "report.h"

using namespace rxecc::report;
namespace fs = std::filesystem;

namespace
{

void put(const fs::path &p, const std::string &text)
{
	fs::create_directories(p.parent_path());
	std::ofstream(p) << text;
}

std::string get(const fs::path &p)
{
	std::ifstream in(p);
	std::stringstream s;
	s << in.rdbuf();
	return s.str();
}

class Results : public ::testing::Test
{
protected:
	fs::path dir;

	void SetUp() override
	{
		std::string tmpl = (fs::temp_directory_path() / "report-results.XXXXXX").string();
		ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
		dir = tmpl;
		// An incast of two flows through s0 on a 100 Mbit/s link,
		// samples every 1 ms from 9.990 to 10.030 s of fabric time.
		// h1's flow f1 (write, 10000 B in 1000 B messages, QPs 17 and
		// 18) starts 1 ms after T0 and completes 5 ms later; h2's f2
		// (5000 B) 2 ms after T0, 3 ms long.
		put(dir / "meta.env", "scenario=incast\nalgo=dcqcn\nlink_rate_bps=100000000\n"
		                      "bottleneck=s0.r\ndata_prio=3\nbase_rtt_ns=100000\n");
		put(dir / "fabric_t0", "1764000000.000000\n");
		put(dir / "hosts.txt",
		    "h1 10.9.0.1 02:00:0a:09:00:01 s0:h1\nh2 10.9.0.2 02:00:0a:09:00:02 s0:h2\n"
		    "r 10.9.0.3 02:00:0a:09:00:03 s0:r\n");
		put(dir / "flows.csv",
		    "flow,src,dst,ingress,start_s,end_s,bytes,gbps,fct_s,status\n"
		    "f1,h1,r,s0.h1,10.0,10.02,100000,0.08,,ok\n"
		    "f2,h2,r,s0.h2,10.0,10.02,50000,0.08,,ok\n");
		std::string ports =
			"time_us,switch,port,name,rx_frames,rx_bytes,tx_frames,tx_bytes,"
			"tx_control_frames,mac_control_rx\n";
		for (int t = 9990000; t <= 10030000; t += 1000) {
			// h1 sends 20000 B per ms from the sample at 10.003 s for 5 ms
			int k1 = std::clamp((t - 10002000) / 1000, 0, 5);
			int k2 = std::clamp((t - 10003000) / 1000, 0, 3);
			ports += std::to_string(t) + ",s0,1,h1,0," + std::to_string(k1 * 20000) +
			         ",0,0,0,0\n";
			ports += std::to_string(t) + ",s0,2,h2,0," + std::to_string(k2 * 16667) +
			         ",0,0,0,0\n";
			ports += std::to_string(t) + ",s0,9,r,0,0," +
			         std::to_string(k1 * 20 + k2 * 17) + "," +
			         std::to_string(k1 * 20000 + k2 * 16667) + ",0,0\n";
		}
		put(dir / "fabric/ports.csv", ports);
		put(dir / "fabric/queues.csv", "time_us,switch,port,name,prio,queue_bytes,queue_"
		                               "pkts,paused,tx_pkts,tx_bytes,ecn_marks,"
		                               "xoff_sent,xon_sent,pause_rx,paused_us,drops\n"
		                               "10004000,s0,9,r,3,30000,30,0,0,0,5,0,0,0,0,0\n");
		put(dir / "fabric/summary.flat",
		    "total_drops 0\npfc_frames_sent 0\npfc_frames_rx 0\n");
		// generator records: T0 10 s after the fabric's time 0 by the wall clocks
		put(dir / "traffic/h1/summary.json",
		    R"({"t0_monotonic_ns":1000000000000,"t0_realtime_ns":1764000010000000000})");
		put(dir / "traffic/h2/summary.json",
		    R"({"t0_monotonic_ns":1000000000000,"t0_realtime_ns":1764000010000000000})");
		std::string th = "flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,";
		th += "sched_start_ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,";
		th += "retx,qpns,status\n";
		put(dir / "traffic/h1/flows.csv",
		    th + "f1,h1,r,write,10000,,1000,2,26,1000000,1000000,1100000,5900000,6000000,"
		         "10000,10,,17;18,ok\n");
		put(dir / "traffic/h2/flows.csv",
		    th + "f2,h2,r,write,5000,,1000,1,26,2000000,2000000,2100000,4900000,5000000,"
		         "5000,5,,21,ok\n");
		put(dir / "traffic/h1/bins.csv",
		    "flow,bin_start_ns,bytes\nf1,1000000,20000\nf1,2000000,20000\n");
		put(dir / "hosts/h1.monitor.csv",
		    "time_ns,dev,qpn,algo,rate_bps,window_bytes,dcqcn.target_rate_kbps,dcqcn.alpha,"
		    "dcqcn.cnp_handled\n"
		    "1000002000000,rxe_h1,17,dcqcn,40000000,,60000,32768,3\n"
		    "1000002000000,rxe_h1,18,dcqcn,50000000,,70000,65536,4\n");
	}

	void TearDown() override { fs::remove_all(dir); }

	std::map<std::string, std::string> summary()
	{
		return parse_summary(get(dir / "summary.csv"));
	}
};

} // namespace

TEST_F(Results, TrafficFigures)
{
	ReportOptions opt;
	opt.plots = false;
	opt.analysis.buckets = {10000};
	std::ostringstream out, err;
	report_one(dir.string(), opt, out, err);
	auto s = summary();
	// f1 starts at fabric 10.002-10.003 s: T0 at 10.0015 s (+1.5 ms)
	EXPECT_EQ(s["align_method"], "first data of flow f1 at s0.h1");
	EXPECT_EQ(s["align_offset_ms"], "10001.500000");
	EXPECT_EQ(s["align_correction_ms"], "1.500000");
	// f1: 10 messages of 1000 B, one packet each: 10000 + 10 * 82 B =
	// 865.6 us at 100 Mbit/s + 100 us = 965.6 us; FCT 5 ms: 5.178
	// f2: 5 packets: 5410 B = 432.8 us + 100 us = 532.8 us; FCT 3 ms: 5.631
	EXPECT_EQ(s["slowdown_flows"], "2");
	EXPECT_EQ(s["slowdown.all.p50"], "5.178");
	EXPECT_EQ(s["slowdown.all.p99"], "5.631");
	EXPECT_EQ(s["slowdown.0-10KB.count"], "1"); // f2
	EXPECT_EQ(s["slowdown.0-10KB.p50"], "5.631");
	EXPECT_EQ(s["slowdown.10KB-inf.p50"], "5.178"); // f1: 10000 is in [10KB, inf)
	EXPECT_EQ(s.count("slowdown.0-100KB.p50"), 0u);
	std::string csv = get(dir / "slowdown.csv");
	EXPECT_NE(csv.find("f1,10000,5000000,965600,5.1781\n"), std::string::npos) << csv;
	EXPECT_NE(out.str().find("traffic generator records (2 flows, 2 hosts)"), std::string::npos)
		<< out.str();
	// the old figures are still there
	EXPECT_EQ(s["flows"], "2");
	EXPECT_EQ(s["queue_max_kb"], "30.000");
}

TEST_F(Results, NoBaseRttNoSlowdown)
{
	put(dir / "meta.env", "scenario=incast\nalgo=dcqcn\nlink_rate_bps=100000000\n"
	                      "bottleneck=s0.r\ndata_prio=3\n");
	put(dir / "slowdown.csv", "stale\n");
	ReportOptions opt;
	opt.plots = false;
	std::ostringstream out, err;
	report_one(dir.string(), opt, out, err);
	auto s = summary();
	EXPECT_EQ(s["slowdown_flows"], "n/a");
	EXPECT_EQ(s["base_rtt_ns"], "n/a");
	EXPECT_FALSE(fs::exists(dir / "slowdown.csv")); // an earlier report's
	EXPECT_NE(out.str().find("FCT slowdown             n/a: no base RTT"), std::string::npos)
		<< out.str();
	// --base-rtt supplies it
	opt.analysis.base_rtt_ns = 100000;
	report_one(dir.string(), opt, out, err);
	EXPECT_EQ(summary()["slowdown.all.p50"], "5.178");
}

TEST_F(Results, BadTrafficRecordWritesNothing)
{
	put(dir / "traffic/h2/flows.csv", "flow,src\nf2,h2\n");
	ReportOptions opt;
	opt.plots = false;
	std::ostringstream out, err;
	try {
		report_one(dir.string(), opt, out, err);
		ADD_FAILURE() << "no error";
	} catch (const Error &e) {
		EXPECT_NE(std::string(e.what()).find("traffic/h2/flows.csv: no column 'dst'"),
		          std::string::npos)
			<< e.what();
	}
	EXPECT_FALSE(fs::exists(dir / "summary.csv"));
}

TEST_F(Results, WindowSubcommand)
{
	std::ostringstream out;
	report_window(dir.string(), true, out);
	// f1 receives 100000 B from 10.003 to 10.007 s: 2% (2000 B) at 10.003,
	// 98% at 10.007; f2 50001 B, 16667 per ms from 10.004: 10.004 .. 10.006
	EXPECT_EQ(out.str(), "flow f1 data 10.003000 10.007000\n"
	                     "flow f2 data 10.004000 10.006000\n"
	                     "window all 10004000 10006000\n"
	                     "window any 10003000 10007000\n");
	EXPECT_EQ(get(dir / "flows/f1.data"), "10.003000 10.007000\n");
}

TEST_F(Results, CompareAndIndex)
{
	fs::path b = dir.string() + "-b";
	fs::copy(dir, b, fs::copy_options::recursive);
	put(b / "meta.env", "scenario=incast\nalgo=none\nlink_rate_bps=100000000\n"
	                    "bottleneck=s0.r\ndata_prio=3\nbase_rtt_ns=100000\n");
	ReportOptions opt;
	opt.plots = false;
	std::ostringstream out, err;
	fs::path cmp = dir / "cmp";
	report_compare(cmp.string(), {dir.string(), b.string()}, opt, out, err);
	EXPECT_NE(out.str().find("FCT slowdown (p50 / p99 per size bucket)"), std::string::npos)
		<< out.str();
	// both flows under 100 KB: mean of 5.1781 and 5.6306 is 5.4044
	std::string sd = get(cmp / "comparison_slowdown.csv");
	EXPECT_NE(sd.find("none,0-100KB,2,5.178,5.631,5.631,5.404\n"), std::string::npos) << sd;
	std::string runs = get(cmp / "runs.csv");
	EXPECT_EQ(runs.rfind("label,results\ndcqcn,/", 0), 0u) << runs;

	// index: one scenario, the runs' columns, relative image paths
	put(dir / "rate.png", "png");
	put(b / "rate.png", "png");
	put(cmp / "queue.png", "png");
	fs::path site = dir / "site";
	report_index(site.string(), {cmp.string()}, "eval <1>", out);
	std::string html = get(site / "index.html");
	EXPECT_NE(html.find("<title>eval &lt;1&gt;</title>"), std::string::npos);
	EXPECT_NE(html.find("<h2 id=\"incast\">incast</h2>"), std::string::npos);
	EXPECT_NE(html.find("<img src=\"../cmp/queue.png\""), std::string::npos) << html;
	EXPECT_NE(html.find("<img src=\"../rate.png\""), std::string::npos) << html;
	EXPECT_NE(html.find("<th>dcqcn</th><th>none</th>"), std::string::npos) << html;
	EXPECT_EQ(html.find("http"), std::string::npos); // self-contained
	// no paper.txt: no paper line
	EXPECT_EQ(html.find("class=\"paper\""), std::string::npos) << html;

	// paper.txt (scripts/eval): a paragraph per non-blank line under the
	// heading, escaped, and the first line beside the scenario's name in
	// the contents
	put(cmp / "paper.txt", "HPCC Fig. 9c,d: queue < 2 RTTs & no PFC\n\nsecond line\n");
	report_index(site.string(), {cmp.string()}, "eval <1>", out);
	html = get(site / "index.html");
	std::size_t h2 = html.find("<h2 id=\"incast\">incast</h2>\n");
	ASSERT_NE(h2, std::string::npos) << html;
	EXPECT_EQ(html.find("<p class=\"paper\"><b>Paper:</b> HPCC Fig. 9c,d: queue &lt; 2 RTTs "
	                    "&amp; no PFC</p>\n<p class=\"paper\"><b>Paper:</b> second line</p>\n"),
	          h2 + std::string("<h2 id=\"incast\">incast</h2>\n").size())
		<< html;
	EXPECT_NE(html.find("<li><a href=\"#incast\">incast</a>: HPCC Fig. 9c,d: queue &lt; 2 RTTs "
	                    "&amp; no PFC</li>"),
	          std::string::npos)
		<< html;
	EXPECT_EQ(html.find("<p class=\"paper\"><b>Paper:</b> </p>"), std::string::npos) << html;
	fs::remove_all(b);
}

namespace
{

// The fixture as the mice scenario, f2 (h2's) the mice flow, and its
// messages.csv beside h2's flows.csv: 10 messages 300 us apart, completed
// after 100, 200, .., 1000 us (base RTT 100 us: p50 500 us = 5 RTTs).
void make_mice(const fs::path &dir, int messages = 10)
{
	put(dir / "meta.env", "scenario=mice\nalgo=hpcc\nlink_rate_bps=100000000\n"
	                      "bottleneck=s0.r\ndata_prio=3\nbase_rtt_ns=100000\nmice_flow=f2\n");
	std::string m = "flow,msg,bytes,post_ns,complete_ns,qp\n";
	for (int i = 0; i < messages; ++i)
		m += "f2," + std::to_string(i) + ",1000," + std::to_string(2000000 + i * 300000) +
		     "," + std::to_string(2000000 + i * 300000 + (i + 1) * 100000) + ",0\n";
	put(dir / "traffic/h2/messages.csv", m);
}

ReportOptions mice_options(bool plots)
{
	ReportOptions opt;
	opt.plots = plots;
	opt.analysis.scenario.mice_warmup_us = 0;
	return opt;
}

std::string report_error(const fs::path &dir, const ReportOptions &opt)
{
	std::ostringstream out, err;
	try {
		report_one(dir.string(), opt, out, err);
	} catch (const Error &e) {
		return e.what();
	}
	return "no error";
}

} // namespace

TEST_F(Results, MiceLatency)
{
	make_mice(dir);
	std::ostringstream out, err;
	report_one(dir.string(), mice_options(false), out, err);
	auto s = summary();
	EXPECT_EQ(s["mice_flow"], "f2");
	EXPECT_EQ(s["mice_messages"], "10");
	EXPECT_EQ(s["mice_p50_us"], "500.0");
	EXPECT_EQ(s["mice_p95_us"], "1000.0");
	EXPECT_EQ(s["mice_p99_us"], "1000.0");
	EXPECT_EQ(s["mice_p50_rtts"], "5.00");
	EXPECT_EQ(s["mice_p99_rtts"], "10.00");
	EXPECT_NE(out.str().find("mice latency (flow f2:"), std::string::npos) << out.str();
	// the default warm-up (1 s) leaves out all of these 2.7 ms: an error
	ReportOptions opt = mice_options(false);
	opt.analysis.scenario.mice_warmup_us = 1000000;
	EXPECT_NE(report_error(dir, opt).find("traffic/h2/messages.csv: 0 completed messages of "
	                                      "flow f2 after its first 1.000 s"),
	          std::string::npos);
}

TEST_F(Results, MiceWithoutUsableMessagesWritesNothing)
{
	make_mice(dir, 9); // fewer than the 10 it needs
	EXPECT_NE(report_error(dir, mice_options(false))
	                  .find("traffic/h2/messages.csv: 9 completed messages of flow f2"),
	          std::string::npos)
		<< report_error(dir, mice_options(false));
	// malformed
	put(dir / "traffic/h2/messages.csv",
	    "flow,msg,bytes,post_ns,complete_ns,qp\nf2,0,1000,5,x,0\n");
	EXPECT_NE(report_error(dir, mice_options(false))
	                  .find("traffic/h2/messages.csv:2: complete_ns 'x' is not a whole number"),
	          std::string::npos)
		<< report_error(dir, mice_options(false));
	// missing
	fs::remove(dir / "traffic/h2/messages.csv");
	EXPECT_NE(report_error(dir, mice_options(false)).find("traffic/h2/messages.csv: missing"),
	          std::string::npos)
		<< report_error(dir, mice_options(false));
	// a mice flow the generator did not run
	make_mice(dir);
	put(dir / "meta.env", "scenario=mice\nalgo=hpcc\nlink_rate_bps=100000000\n"
	                      "bottleneck=s0.r\ndata_prio=3\nmice_flow=nope\n");
	EXPECT_NE(report_error(dir, mice_options(false))
	                  .find("traffic: no flow nope (meta.env mice_flow)"),
	          std::string::npos)
		<< report_error(dir, mice_options(false));
	// no generator records at all
	make_mice(dir);
	fs::remove_all(dir / "traffic");
	EXPECT_NE(report_error(dir, mice_options(false))
	                  .find("traffic: no traffic generator records"),
	          std::string::npos)
		<< report_error(dir, mice_options(false));
	EXPECT_FALSE(fs::exists(dir / "summary.csv"));
}

TEST_F(Results, MicePlotsAndComparison)
{
	if (std::system("gnuplot --version >/dev/null 2>&1") != 0)
		GTEST_SKIP() << "no gnuplot";
	make_mice(dir);
	fs::path b = dir.string() + "-b";
	fs::copy(dir, b, fs::copy_options::recursive);
	put(b / "meta.env", "scenario=mice\nalgo=dcqcn\nlink_rate_bps=100000000\n"
	                    "bottleneck=s0.r\ndata_prio=3\nbase_rtt_ns=200000\nmice_flow=f2\n");
	std::ostringstream out, err;
	report_one(dir.string(), mice_options(true), out, err);
	EXPECT_EQ(get(dir / "mice.png").rfind("\x89PNG", 0), 0u);
	fs::path cmp = dir / "cmp";
	report_compare(cmp.string(), {dir.string(), b.string()}, mice_options(true), out, err);
	EXPECT_EQ(get(cmp / "mice.png").rfind("\x89PNG", 0), 0u);
	EXPECT_EQ(get(b / "mice.png").rfind("\x89PNG", 0), 0u); // its missing report
	std::string txt = get(cmp / "comparison.txt");
	EXPECT_NE(txt.find("dcqcn                 10      500.0     1000.0     1000.0     1000.0 "
	                   "     200.0     2.50     5.00"),
	          std::string::npos)
		<< txt;
	// the index shows the comparison's and each run's mice.png
	report_index((dir / "site").string(), {cmp.string()}, "eval", out);
	std::string html = get(dir / "site/index.html");
	EXPECT_NE(html.find("<img src=\"../cmp/mice.png\""), std::string::npos) << html;
	EXPECT_NE(html.find("<img src=\"../mice.png\""), std::string::npos) << html;
	// a later report of another scenario removes the stale mice.png
	put(dir / "meta.env", "scenario=incast\nalgo=hpcc\nlink_rate_bps=100000000\n"
	                      "bottleneck=s0.r\ndata_prio=3\nbase_rtt_ns=100000\n");
	report_one(dir.string(), mice_options(true), out, err);
	EXPECT_FALSE(fs::exists(dir / "mice.png"));
	fs::remove_all(b);
}
