// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Tests of the perfstat command line: output, messages and exit statuses.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.h"

namespace
{

struct Outcome {
	int status;
	std::string out;
	std::string err;
};

Outcome run(const std::vector<std::string> &args, const std::string &input = "")
{
	std::istringstream in(input);
	std::ostringstream out;
	std::ostringstream err;
	int status = perfstat::run_cli(args, in, out, err);
	return {status, out.str(), err.str()};
}

std::string data_path(const std::string &name)
{
	return std::string(PERFSTAT_TEST_DATA) + "/" + name;
}

std::vector<std::string> lines(const std::string &text)
{
	std::vector<std::string> result;
	std::istringstream in(text);
	for (std::string line; std::getline(in, line);)
		result.push_back(line);
	return result;
}

bool contains(const std::string &haystack, const std::string &needle)
{
	return haystack.find(needle) != std::string::npos;
}

constexpr char kZeroBandwidth[] =
	" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
	" 65536      5000             0.00               0.00   \t\t   0.000000\n";

TEST(PerfstatCli, Gbps)
{
	Outcome o = run({"gbps", data_path("write_bw_mb.txt")});
	EXPECT_EQ(o.status, 0) << o.err;
	EXPECT_EQ(o.out, "0.2415\n");
	EXPECT_EQ(o.err, "");

	Outcome last = run({"gbps", data_path("read_bw_all.txt")});
	EXPECT_EQ(last.status, 0) << last.err;
	EXPECT_EQ(last.out, "2.5876\n"); // 308.46 MB/sec, the 8 MiB row
}

TEST(PerfstatCli, GbpsFromStandardInput)
{
	std::ostringstream text;
	text << std::ifstream(data_path("send_bw_gb.txt")).rdbuf();
	Outcome o = run({"gbps", "-"}, text.str());
	EXPECT_EQ(o.status, 0) << o.err;
	EXPECT_EQ(o.out, "2.2700\n");
}

TEST(PerfstatCli, GbpsWithoutResultFails)
{
	Outcome none = run({"gbps", data_path("no_table.txt")});
	EXPECT_EQ(none.status, 1);
	EXPECT_EQ(none.out, "");
	EXPECT_TRUE(contains(none.err, "no result table")) << none.err;

	Outcome failed = run({"gbps", data_path("write_bw_failed.txt")});
	EXPECT_EQ(failed.status, 1);
	EXPECT_TRUE(contains(failed.err, "no rows")) << failed.err;

	Outcome latency = run({"gbps", data_path("send_lat.txt")});
	EXPECT_EQ(latency.status, 1);
	EXPECT_EQ(latency.out, "");
	EXPECT_TRUE(contains(latency.err, "no average bandwidth")) << latency.err;

	Outcome missing = run({"gbps", data_path("does-not-exist.txt")});
	EXPECT_EQ(missing.status, 1);
	EXPECT_TRUE(contains(missing.err, "does-not-exist.txt")) << missing.err;
}

TEST(PerfstatCli, ParseKeyValues)
{
	Outcome o = run({"parse", data_path("read_bw_all.txt")});
	EXPECT_EQ(o.status, 0) << o.err;
	std::vector<std::string> rows = lines(o.out);
	ASSERT_EQ(rows.size(), 23u);
	EXPECT_EQ(rows.front(), "bytes=2 iterations=5000 bw_peak_gbps=0.0049 bw_avg_gbps=0.0048 "
	                        "msg_rate_mpps=0.298844");
	EXPECT_EQ(rows.back(),
	          "bytes=8388608 iterations=5000 bw_peak_gbps=2.6248 bw_avg_gbps=2.5876 "
	          "msg_rate_mpps=0.000039");
}

TEST(PerfstatCli, ParseJson)
{
	const std::string expected =
		"{\"rows\":[{\"bytes\":65536,\"iterations\":5000,\"bw_peak_gbps\":0.2419,"
		"\"bw_avg_gbps\":0.2415,\"msg_rate_mpps\":0.000461}]}\n";
	Outcome shortopt = run({"parse", "-j", data_path("write_bw_mb.txt")});
	EXPECT_EQ(shortopt.status, 0) << shortopt.err;
	EXPECT_EQ(shortopt.out, expected);

	Outcome longopt = run({"parse", data_path("write_bw_mb.txt"), "--json"});
	EXPECT_EQ(longopt.status, 0) << longopt.err;
	EXPECT_EQ(longopt.out, expected);
}

TEST(PerfstatCli, ParseMalformedFails)
{
	Outcome o = run({"parse", "-"}, " #bytes #iterations t_avg[usec]\n 2 1000 2x.5\n");
	EXPECT_EQ(o.status, 1);
	EXPECT_EQ(o.out, "");
	EXPECT_TRUE(contains(o.err, "<stdin>: line 2: malformed number '2x.5'")) << o.err;
}

TEST(PerfstatCli, Ratio)
{
	Outcome o = run({"ratio", "--base", data_path("send_bw_gb.txt"), "--test",
	                 data_path("write_bw_mb.txt"), "--label-base", "stock", "--label-test",
	                 "dcqcn"});
	EXPECT_EQ(o.status, 0) << o.err;
	EXPECT_EQ(o.out, "run    bw_avg[Gbit/s]\n"
	                 "stock          2.2700\n"
	                 "dcqcn          0.2415\n"
	                 "ratio=0.106\n");
	EXPECT_EQ(o.err, "");
}

TEST(PerfstatCli, RatioDefaultLabelsEqualsFormAndStdin)
{
	std::ostringstream text;
	text << std::ifstream(data_path("write_bw_mb.txt")).rdbuf();
	Outcome o = run({"ratio", "--base=-", "--test=" + data_path("send_bw_gb.txt")}, text.str());
	EXPECT_EQ(o.status, 0) << o.err;
	std::vector<std::string> out = lines(o.out);
	ASSERT_EQ(out.size(), 4u);
	EXPECT_EQ(out[0], "run   bw_avg[Gbit/s]");
	EXPECT_EQ(out[1], "base          0.2415");
	EXPECT_EQ(out[2], "test          2.2700");
	EXPECT_EQ(out[3], "ratio=9.399"); // 2.27 / 0.24150802432
}

TEST(PerfstatCli, RatioWithZeroBaseFails)
{
	Outcome o = run({"ratio", "--base", "-", "--test", data_path("write_bw_mb.txt")},
	                kZeroBandwidth);
	EXPECT_EQ(o.status, 1);
	EXPECT_EQ(o.out, "");
	EXPECT_TRUE(contains(o.err, "base bandwidth is 0.0000")) << o.err;
}

TEST(PerfstatCli, RatioWithoutResultFails)
{
	Outcome base = run({"ratio", "--base", data_path("no_table.txt"), "--test",
	                    data_path("write_bw_mb.txt")});
	EXPECT_EQ(base.status, 1);
	EXPECT_EQ(base.out, "");
	EXPECT_TRUE(contains(base.err, "no_table.txt")) << base.err;

	Outcome test = run({"ratio", "--base", data_path("write_bw_mb.txt"), "--test",
	                    data_path("send_lat.txt")});
	EXPECT_EQ(test.status, 1);
	EXPECT_TRUE(contains(test.err, "send_lat.txt")) << test.err;
}

TEST(PerfstatCli, Help)
{
	for (const char *flag : {"--help", "-h", "help"}) {
		Outcome o = run({flag});
		EXPECT_EQ(o.status, 0) << flag;
		EXPECT_TRUE(contains(o.out, "Usage: perfstat COMMAND")) << flag;
	}
	for (const char *cmd : {"parse", "gbps", "ratio"}) {
		Outcome o = run({cmd, "--help"});
		EXPECT_EQ(o.status, 0) << cmd;
		EXPECT_TRUE(contains(o.out, std::string("Usage: perfstat ") + cmd)) << o.out;
		EXPECT_EQ(o.err, "");
	}
}

TEST(PerfstatCli, UsageErrors)
{
	struct Case {
		std::vector<std::string> args;
		const char *message;
	};
	const Case cases[] = {
		{{}, "Usage: perfstat COMMAND"},
		{{"frobnicate"}, "unknown command 'frobnicate'"},
		{{"--verbose"}, "unknown option '--verbose'"},
		{{"parse"}, "missing FILE argument"},
		{{"parse", "a.txt", "b.txt"}, "too many arguments"},
		{{"parse", "--yaml", "a.txt"}, "unknown option '--yaml'"},
		{{"parse", "--json=yes", "a.txt"}, "unknown option '--json=yes'"},
		{{"gbps", "-j", "a.txt"}, "unknown option '-j'"},
		{{"ratio", "--base", "a.txt"}, "both --base FILE and --test FILE are required"},
		{{"ratio", "--base", "a.txt", "--test"}, "option '--test' needs a value"},
		{{"ratio", "--base", "-", "--test", "-"}, "only one of --base and --test"},
		{{"ratio", "a.txt"}, "unexpected argument 'a.txt'"},
	};
	for (const Case &c : cases) {
		Outcome o = run(c.args);
		std::string joined;
		for (const std::string &a : c.args)
			joined += a + " ";
		EXPECT_EQ(o.status, 2) << joined;
		EXPECT_EQ(o.out, "") << joined;
		EXPECT_TRUE(contains(o.err, c.message)) << joined << "-> " << o.err;
	}
}

} // namespace
