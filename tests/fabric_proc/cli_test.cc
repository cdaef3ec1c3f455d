// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"

using namespace rxecc::fabric::proc;

TEST(Cli, RunAllOptions)
{
	auto r = parse_cli({"run", "-t", "topo.txt", "-a", "s0:h1=if:veth1", "--attach",
	                    "s0:h2=stream:/tmp/x.sock", "--telemetry", "out", "--sample=500us",
	                    "--control", "/tmp/c.sock", "--duration", "2s", "--cpu", "1",
	                    "--busy-poll", "-q"});
	ASSERT_TRUE(r) << r.error;
	const Cli &c = *r.cli;
	EXPECT_EQ(c.command, Command::kRun);
	EXPECT_EQ(c.run.topology, "topo.txt");
	ASSERT_EQ(c.run.attach.size(), 2u);
	EXPECT_EQ(c.run.attach[0].sw, "s0");
	EXPECT_EQ(c.run.attach[0].port, "h1");
	EXPECT_EQ(c.run.attach[0].spec, "if:veth1");
	EXPECT_EQ(c.run.attach[1].spec, "stream:/tmp/x.sock");
	EXPECT_EQ(c.run.telemetry_dir, "out");
	EXPECT_EQ(c.run.sample_ns, 500000u);
	EXPECT_EQ(c.run.control, "/tmp/c.sock");
	EXPECT_EQ(c.run.duration_ns, 2000000000u);
	EXPECT_EQ(c.run.cpu, 1);
	EXPECT_TRUE(c.run.busy_poll);
	EXPECT_TRUE(c.run.quiet);
}

TEST(Cli, RunDefaults)
{
	auto r = parse_cli({"run", "-t", "t"});
	ASSERT_TRUE(r) << r.error;
	EXPECT_EQ(r.cli->run.sample_ns, kDefaultSampleNs);
	EXPECT_FALSE(r.cli->run.telemetry_dir);
	EXPECT_FALSE(r.cli->run.control);
	EXPECT_FALSE(r.cli->run.duration_ns);
	EXPECT_FALSE(r.cli->run.cpu);
	EXPECT_FALSE(r.cli->run.busy_poll);
}

// Times are the common grammar (Documentation/rxe-cc/units.rst).
TEST(Cli, TimesInEveryUnit)
{
	for (const char *t : {"0.002s", "2ms", "2msec", "2000us", "2000000ns", "1.5ms"}) {
		auto r = parse_cli({"run", "-t", "t", "--sample", t, "--duration", t});
		ASSERT_TRUE(r) << t << ": " << r.error;
		const uint64_t want = std::string(t) == "1.5ms" ? 1500000u : 2000000u;
		EXPECT_EQ(r.cli->run.sample_ns, want) << t;
		EXPECT_EQ(r.cli->run.duration_ns, want) << t;
	}
}

TEST(Cli, OtherCommands)
{
	EXPECT_EQ(parse_cli({"--help"}).cli->command, Command::kHelp);
	EXPECT_EQ(parse_cli({"help"}).cli->command, Command::kHelp);
	EXPECT_EQ(parse_cli({"--version"}).cli->command, Command::kVersion);
	auto q = parse_cli({"query", "/tmp/s"});
	ASSERT_TRUE(q) << q.error;
	EXPECT_EQ(q.cli->query.socket, "/tmp/s");
	EXPECT_EQ(q.cli->query.request, ControlRequest::kStats);
	q = parse_cli({"query", "/tmp/s", "flat"});
	ASSERT_TRUE(q);
	EXPECT_EQ(q.cli->query.request, ControlRequest::kFlat);
	auto c = parse_cli({"check", "-t", "t", "-a", "s:p=dgram:127.0.0.1:1:127.0.0.1:2"});
	ASSERT_TRUE(c) << c.error;
	EXPECT_EQ(c.cli->command, Command::kCheck);
	auto s = parse_cli({"send-pfc", "veth0", "--quanta", "0"});
	ASSERT_TRUE(s) << s.error;
	EXPECT_EQ(s.cli->send_pfc.quanta, 0);
}

TEST(Cli, Errors)
{
	const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
		{{}, "missing command"},
		{{"frobnicate"}, "unknown command 'frobnicate'"},
		{{"run"}, "missing -t"},
		{{"run", "-t"}, "-t needs a value"},
		{{"run", "-t", "a", "-t", "b"}, "given twice"},
		{{"run", "-t", "a", "-a", "s0h1=if:x"}, "bad attachment"},
		{{"run", "-t", "a", "-a", "s0:h1"}, "bad attachment"},
		{{"run", "-t", "a", "-a", "s0:h1="}, "empty SPEC"},
		{{"run", "-t", "a", "-a", "s 0:h1=if:x"}, "bad port"},
		{{"run", "-t", "a", "--sample", "1"},
	         "run: bad --sample: '1' is not a time: it needs a unit, ns, us, ms or s "
	         "(examples: "
	         "300us, 1.5ms, 2s)"},
		{{"run", "-t", "a", "--sample", "1us"},
	         "run: bad --sample '1us' (a time from 10us to 10s, e.g. 1ms)"},
		{{"run", "-t", "a", "--sample", "1Ms"},
	         "run: bad --sample: '1Ms' is not a time: unknown unit"},
		{{"run", "-t", "a", "--duration", "0s"}, "run: bad --duration '0s' (more than 0"},
		{{"run", "-t", "a", "--duration", "1.5ns"},
	         "run: bad --duration: '1.5ns' is not a time: not a whole number of ns"},
		{{"run", "-t", "a", "--cpu", "x"}, "bad --cpu"},
		{{"run", "-t", "a", "--busy-poll=1"}, "takes no value"},
		{{"run", "-t", "a", "--frob"}, "unknown option '--frob'"},
		{{"run", "-t", "a", "extra"}, "unexpected argument 'extra'"},
		{{"check", "-t", "a", "--telemetry", "d"}, "applies to run only"},
		{{"query"}, "usage"},
		{{"query", "/s", "dump"}, "unknown request 'dump'"},
		{{"query", "/s", "stats", "x"}, "usage"},
		{{"help", "x"}, "no arguments"},
	};
	for (const auto &[args, msg] : bad) {
		auto r = parse_cli(args);
		EXPECT_FALSE(r) << testing::PrintToString(args);
		EXPECT_NE(r.error.find(msg), std::string::npos)
			<< testing::PrintToString(args) << ": " << r.error;
	}
}

TEST(Cli, ControlRequests)
{
	EXPECT_EQ(parse_control_request("stats"), ControlRequest::kStats);
	EXPECT_EQ(parse_control_request("flat"), ControlRequest::kFlat);
	EXPECT_EQ(parse_control_request("quit"), ControlRequest::kQuit);
	EXPECT_FALSE(parse_control_request("Stats"));
	EXPECT_FALSE(parse_control_request(""));
	EXPECT_FALSE(parse_control_request("stats "));
}

namespace
{

// Runs the real binary; returns its exit status and stderr.
int run_binary(const std::string &args, std::string &err)
{
	std::string cmd = std::string(RXECC_FABRIC_BIN) + " " + args + " 2>&1 >/dev/null";
	FILE *p = popen(cmd.c_str(), "r");
	if (!p)
		return -1;
	char buf[512];
	err.clear();
	while (fgets(buf, sizeof(buf), p))
		err += buf;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

} // namespace

TEST(CliBinary, UsageErrorsExit2WithMessage)
{
	std::string err;
	EXPECT_EQ(run_binary("run", err), 2);
	EXPECT_NE(err.find("rxecc-fabric: run: missing -t TOPOLOGY"), std::string::npos) << err;
	EXPECT_EQ(run_binary("send-pfc veth0 --prio 9", err), 2);
	EXPECT_NE(err.find("bad --prio '9'"), std::string::npos) << err;
	EXPECT_EQ(run_binary("bogus", err), 2);
	EXPECT_NE(err.find("unknown command 'bogus'"), std::string::npos) << err;
}

TEST(CliBinary, SendPfcNonexistentInterfaceFails)
{
	std::string err;
	EXPECT_EQ(run_binary("send-pfc rxnosuchif0", err), 1);
	EXPECT_NE(err.find("no interface 'rxnosuchif0'"), std::string::npos) << err;
}
