// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command line: values converted through the units library, bad
// values refused with a message naming the option and exit status 2,
// help for every subcommand.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.h"

namespace
{

using namespace rxecc::traffic;

struct Parsed {
	int rc;
	Cli cli;
	std::string out, err;
};

Parsed parse(std::vector<const char *> args)
{
	args.insert(args.begin(), "rxecc-traffic");
	Parsed p;
	p.rc = parse_cli(static_cast<int>(args.size()), args.data(), p.cli, p.out, p.err);
	return p;
}

const char *kSched = RXECC_TRAFFIC_CDF_DIR "/websearch.cdf"; // any existing file

TEST(Cli, LaunchDefaultsAndValues)
{
	Parsed p = parse({"launch", "--schedule", kSched, "--hosts", kSched, "--out", "/tmp/x"});
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_EQ(p.cli.cmd, "launch");
	EXPECT_EQ(p.cli.run.bin_ns, 1000000u);
	EXPECT_EQ(p.cli.run.connect_timeout_ns, 30000000000u);
	EXPECT_EQ(p.cli.run.spin_ns, 20000000u);
	EXPECT_EQ(p.cli.run.start_delay_ns, 200000000u);
	EXPECT_EQ(p.cli.run.port, 18520);
	EXPECT_EQ(p.cli.run.messages, "auto");
	EXPECT_FALSE(p.cli.run.deadline_ns);
	EXPECT_EQ(p.cli.run.ack_timeout, 18u);

	p = parse({"launch", "--schedule",  kSched,          "--hosts", kSched, "--out",
	           "/tmp/x", "--bin",       "250us",         "--spin",  "0",    "--deadline",
	           "1.5s",   "--messages",  "all",           "--port",  "7000", "--ack-timeout",
	           "19",     "--busy-poll", "--start-delay", "1s"});
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_EQ(p.cli.run.bin_ns, 250000u);
	EXPECT_EQ(p.cli.run.spin_ns, 0u);
	EXPECT_EQ(p.cli.run.deadline_ns, 1500000000u);
	EXPECT_EQ(p.cli.run.messages, "all");
	EXPECT_EQ(p.cli.run.port, 7000);
	EXPECT_EQ(p.cli.run.ack_timeout, 19u);
	EXPECT_TRUE(p.cli.run.busy_poll);
	EXPECT_EQ(p.cli.run.start_delay_ns, 1000000000u);
}

TEST(Cli, RunStartAt)
{
	Parsed p = parse({"run", "--host", "h1", "--schedule", kSched, "--hosts", kSched, "--out",
	                  "/tmp/x", "--start-at", "1767225600.25"});
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_EQ(p.cli.run.start_at_real_ns, 1767225600250000000LL);
	EXPECT_FALSE(p.cli.run.start_after_ns);
	p = parse({"run", "--host", "h1", "--schedule", kSched, "--hosts", kSched, "--out",
	           "/tmp/x", "--start-at", "+2s"});
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_EQ(p.cli.run.start_after_ns, 2000000000u);
	p = parse({"run", "--host", "h1", "--schedule", kSched, "--hosts", kSched, "--out",
	           "/tmp/x", "--start-at", "tomorrow"});
	EXPECT_EQ(p.rc, 2);
	EXPECT_EQ(
		p.err.rfind("rxecc-traffic: --start-at: 'tomorrow' is not seconds since the epoch",
	                    0),
		0u)
		<< p.err;
	p = parse({"run", "--schedule", kSched, "--hosts", kSched, "--out", "/tmp/x", "--start-at",
	           "+1s"});
	EXPECT_EQ(p.rc, 2); // --host is required
	EXPECT_NE(p.err.find("--host"), std::string::npos) << p.err;
}

TEST(Cli, BadValuesNameTheOption)
{
	const std::vector<std::pair<std::vector<const char *>, std::string>> cases = {
		{{"--bin", "1xs"}, "rxecc-traffic: --bin: '1xs' is not a time"},
		{{"--bin", "0"}, "rxecc-traffic: --bin: must be longer than 0"},
		{{"--connect-timeout", "5"}, "rxecc-traffic: --connect-timeout: '5' is not a time"},
		{{"--deadline", "-1s"}, "rxecc-traffic: --deadline: '-1s' is not a time"},
		{{"--messages", "some"}, "rxecc-traffic: --messages: some not in {auto,all,none}"},
		{{"--port", "0"}, "rxecc-traffic: --port: Value 0 not in range"},
		{{"--ack-timeout", "40"}, "rxecc-traffic: --ack-timeout: Value 40 not in range"},
		{{"--start-delay", "soon"}, "rxecc-traffic: --start-delay: 'soon' is not a time"},
	};
	for (const auto &[extra, want] : cases) {
		std::vector<const char *> a{"launch", "--schedule", kSched, "--hosts",
		                            kSched,   "--out",      "/x"};
		a.insert(a.end(), extra.begin(), extra.end());
		Parsed p = parse(a);
		EXPECT_EQ(p.rc, 2) << extra[0];
		EXPECT_EQ(p.err.substr(0, want.size()), want) << p.err;
	}
	Parsed p =
		parse({"launch", "--schedule", "/nonexistent", "--hosts", kSched, "--out", "/x"});
	EXPECT_EQ(p.rc, 2);
	EXPECT_NE(p.err.find("--schedule"), std::string::npos) << p.err;
	EXPECT_NE(p.err.find("/nonexistent"), std::string::npos) << p.err;
	p = parse({"frobnicate"});
	EXPECT_EQ(p.rc, 2);
	p = parse({});
	EXPECT_EQ(p.rc, 2);
}

TEST(Cli, Gen)
{
	Parsed p = parse({"gen",        "poisson",   "--src",  "h1,h2", "--dst",  "r",
	                  "--cdf",      "websearch", "--load", "0.3",   "--rate", "100M",
	                  "--duration", "10s",       "--msg",  "4KiB",  "--verb", "send",
	                  "--qps",      "2",         "-o",     "/tmp/s"});
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_EQ(p.cli.cmd, "gen");
	const GenArgs &g = p.cli.gen;
	EXPECT_EQ(g.kind, "poisson");
	EXPECT_EQ(g.srcs, (std::vector<std::string>{"h1", "h2"}));
	EXPECT_EQ(g.dsts, (std::vector<std::string>{"r"}));
	EXPECT_DOUBLE_EQ(g.load, 0.3);
	EXPECT_EQ(g.rate_bps, 100000000u);
	EXPECT_EQ(g.duration_ns, 10000000000u);
	EXPECT_EQ(g.opt.msg_bytes, 4096u);
	EXPECT_EQ(g.opt.verb, Verb::kSend);
	EXPECT_EQ(g.opt.qps, 2u);
	EXPECT_EQ(g.prefix, "p");
	EXPECT_EQ(g.output, "/tmp/s");
	EXPECT_EQ(g.command_line,
	          "rxecc-traffic gen poisson --src h1,h2 --dst r --cdf websearch --load 0.3 --rate "
	          "100M --duration 10s --msg 4KiB --verb send --qps 2 -o /tmp/s");

	p = parse({"gen", "incast", "--senders", "h1,h2", "--receiver", "r", "--size", "64KiB",
	           "--repeat", "3", "--period", "1ms"});
	EXPECT_EQ(p.cli.gen.senders, (std::vector<std::string>{"h1", "h2"}));
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_EQ(p.cli.gen.size_bytes, 65536u);
	EXPECT_EQ(p.cli.gen.repeats, 3u);
	EXPECT_EQ(p.cli.gen.period_ns, 1000000u);
	EXPECT_EQ(p.cli.gen.prefix, "incast");

	const std::vector<std::pair<std::vector<const char *>, std::string>> bad = {
		{{"gen", "incast", "--senders", "h1", "--receiver", "r", "--size", "64KiB",
	          "--repeat", "2"},
	         "rxecc-traffic: --period: needed with more than one repetition"},
		{{"gen", "incast", "--senders", "h1", "--receiver", "r", "--size", "0"},
	         "rxecc-traffic: --size: must be at least 1 byte"},
		{{"gen", "incast", "--senders", "h1,h/2", "--receiver", "r", "--size", "1"},
	         "rxecc-traffic: --senders: 'h/2' is not a host name"},
		{{"gen", "poisson", "--src", "a", "--dst", "b", "--cdf", "websearch", "--load", "x",
	          "--rate", "1G", "--duration", "1s"},
	         "rxecc-traffic: --load: 'x' is not a fraction above 0 (e.g. 0.3)"},
		{{"gen", "poisson", "--src", "a", "--dst", "b", "--cdf", "websearch", "--load",
	          "0.3", "--rate", "1GBps", "--duration", "1s"},
	         "rxecc-traffic: --rate: '1GBps' is not a rate"},
		{{"gen", "staircase", "--senders", "a", "--receiver", "b", "--step", "0"},
	         "rxecc-traffic: --step: must be longer than 0"},
		{{"gen", "longshort", "--long-src", "a", "--short-src", "b", "--dst", "c",
	          "--long-duration", "1s", "--short-size", "1MB", "--short-at", "1q"},
	         "rxecc-traffic: --short-at: '1q' is not a time"},
		{{"gen", "staircase", "--senders", "a", "--receiver", "b", "--step", "1s", "--verb",
	          "atomic"},
	         "rxecc-traffic: --verb: atomic not in {write,send,read}"},
	};
	for (const auto &[args, want] : bad) {
		Parsed q = parse(args);
		EXPECT_EQ(q.rc, 2) << want;
		EXPECT_EQ(q.err.substr(0, want.size()), want) << q.err;
	}
}

TEST(Cli, Stats)
{
	// a list option takes one argument (split at commas): the directories
	// after it are not taken as more values
	Parsed p = parse({"stats", "--flows", "a,b", "/tmp", "--baseline", "0.25,0.5,1", "/"});
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_EQ(p.cli.dirs, (std::vector<std::string>{"/tmp", "/"}));
	EXPECT_EQ(p.cli.flows, (std::vector<std::string>{"a", "b"}));
	EXPECT_EQ(p.cli.baseline_gbps, (std::vector<double>{0.25, 0.5, 1}));
	p = parse({"stats", "--flows", "a,,b", "/tmp"});
	EXPECT_EQ(p.rc, 2);
	EXPECT_EQ(p.err, "rxecc-traffic: --flows: 'a,,b' has an empty item\n");
	p = parse({"stats", "/tmp", "--baseline", "fast"});
	EXPECT_EQ(p.rc, 2);
	EXPECT_EQ(p.err, "rxecc-traffic: --baseline: 'fast' is not a goodput in Gbit/s above 0\n");
	p = parse({"stats", "/nonexistent-dir"});
	EXPECT_EQ(p.rc, 2);
}

TEST(Cli, WireCompare)
{
	Parsed p = parse({"wire", "/tmp", "--compare", "a,b,26,100,2000"});
	ASSERT_EQ(p.rc, -1) << p.err;
	EXPECT_TRUE(p.cli.do_compare);
	EXPECT_EQ(p.cli.compare.src, "a");
	EXPECT_EQ(p.cli.compare.dst, "b");
	EXPECT_EQ(p.cli.compare.dscp, 26u);
	EXPECT_EQ(p.cli.compare.frames, 100u);
	EXPECT_EQ(p.cli.compare.bytes, 2000u);
	for (const char *bad : {"a,b,26,100", "a,b,64,1,1", "a,b,26,x,1", "a/,b,26,1,1"}) {
		p = parse({"wire", "/tmp", "--compare", bad});
		EXPECT_EQ(p.rc, 2) << bad;
		EXPECT_EQ(p.err, std::string("rxecc-traffic: --compare: '") + bad +
		                         "' is not SRC,DST,DSCP,FRAMES,BYTES\n");
	}
}

TEST(Cli, HelpForEverySubcommand)
{
	for (const char *sub : {"launch", "run", "merge", "check", "wire", "stats", "gen"}) {
		Parsed p = parse({sub, "--help"});
		EXPECT_EQ(p.rc, 0) << sub;
		EXPECT_NE(p.out.find(std::string("Usage: rxecc-traffic ") + sub), std::string::npos)
			<< p.out;
	}
	for (const char *sub : {"incast", "poisson", "alltoall", "staircase", "longshort"}) {
		Parsed p = parse({"gen", sub, "--help"});
		EXPECT_EQ(p.rc, 0) << sub;
		EXPECT_NE(p.out.find(std::string("gen ") + sub), std::string::npos) << p.out;
	}
	Parsed p = parse({"--version"});
	EXPECT_EQ(p.rc, 0);
	EXPECT_EQ(p.out, std::string("rxecc-traffic ") + RXECC_TRAFFIC_VERSION + "\n");
	EXPECT_EQ(parse({"--help"}).rc, 0);
}

} // namespace
