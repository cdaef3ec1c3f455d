// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc end to end against the fake kernel: output, errors, exit status and
// what was (or was not) sent.
#include <array>
#include <cerrno>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <rdma/rxe_cc.h>
#include <sstream>

#include "fake_kernel.h"
#include "help.h"
#include "messages.h"
#include "nlattr.h"

namespace rxecc::test
{
namespace
{

using Json = nlohmann::ordered_json;

// rxecc's JSON output as a document; text that is not JSON fails the test.
Json parse(const std::string &text)
{
	try {
		return Json::parse(text);
	} catch (const Json::parse_error &e) {
		ADD_FAILURE() << e.what() << "\n" << text;
		return Json();
	}
}

// Values of the type the schema says: a string, an unsigned integer.
std::string str(const Json &j)
{
	EXPECT_TRUE(j.is_string()) << j;
	return j.is_string() ? j.get<std::string>() : std::string();
}

std::uint64_t u64(const Json &j)
{
	EXPECT_TRUE(j.is_number_unsigned()) << j;
	return j.is_number_unsigned() ? j.get<std::uint64_t>() : ~std::uint64_t{0};
}

class Cli : public ::testing::Test
{
protected:
	void SetUp() override { k.standard_setup(); }

	RunResult run(const std::vector<std::string> &args) { return run_rxecc(k, clock, args); }

	// A usage error: exit 2, the message, a pointer to the help, no kernel.
	void expect_usage(const std::vector<std::string> &args, const std::string &msg,
	                  bool may_connect = false)
	{
		std::size_t before = k.calls.size();
		RunResult r = run(args);
		std::string shown;
		for (const auto &a : args)
			shown += a + " ";
		EXPECT_EQ(r.code, 2) << shown << "\n" << r.err;
		EXPECT_NE(r.err.find(msg), std::string::npos) << shown << "\n" << r.err;
		EXPECT_NE(r.err.find("--help'."), std::string::npos) << r.err;
		EXPECT_EQ(r.out, "");
		if (!may_connect) {
			EXPECT_EQ(r.connects, 0) << shown;
			EXPECT_EQ(k.calls.size(), before) << shown;
		}
		expect_no_writes();
	}

	void expect_no_writes()
	{
		EXPECT_EQ(k.count(RXE_CC_CMD_DEV_SET), 0u);
		EXPECT_EQ(k.count(RXE_CC_CMD_QP_SET), 0u);
	}

	std::vector<std::string> lines(const std::string &s)
	{
		std::vector<std::string> v;
		std::istringstream is(s);
		for (std::string l; std::getline(is, l);)
			v.push_back(l);
		return v;
	}

	FakeClock clock;
	FakeKernel k{&clock};
};

// ------------------------------------------------------------ help, version

TEST_F(Cli, HelpOfTheToolAndOfEveryCommand)
{
	RunResult r = run({"--help"});
	EXPECT_EQ(r.code, 0);
	EXPECT_EQ(r.out, help_text(""));
	EXPECT_EQ(run({"-h"}).out, help_text(""));
	EXPECT_EQ(run({"help"}).out, help_text(""));
	const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
		{{"algo", "--help"}, "algo"},
		{{"dev", "--help"}, "dev"},
		{{"dev", "show", "--help"}, "dev show"},
		{{"dev", "set", "--help"}, "dev set"},
		{{"dev", "set", "rxe0", "-h"}, "dev set"},
		{{"qp", "-h"}, "qp"},
		{{"qp", "show", "-h"}, "qp show"},
		{{"qp", "set", "--help"}, "qp set"},
		{{"stats", "--help"}, "stats"},
		{{"monitor", "--help"}, "monitor"},
		{{"help", "dev", "set"}, "dev set"},
		{{"-h", "monitor"}, "monitor"},
		{{"dev", "help"}, "dev"},
	};
	for (const auto &[args, topic] : cases) {
		RunResult c = run(args);
		EXPECT_EQ(c.code, 0) << topic;
		EXPECT_EQ(c.out, help_text(topic)) << topic;
		EXPECT_FALSE(c.out.empty()) << topic;
		EXPECT_EQ(c.connects, 0) << topic;
	}
	EXPECT_TRUE(k.calls.empty());
}

TEST_F(Cli, EveryHelpTextFitsATerminal)
{
	for (std::string_view topic : help_topics()) {
		std::string_view text = help_text(topic);
		ASSERT_FALSE(text.empty());
		EXPECT_EQ(text.back(), '\n');
		std::size_t start = 0;
		while (start < text.size()) {
			std::size_t end = text.find('\n', start);
			EXPECT_LE(end - start, 80u)
				<< "'" << topic << "': " << text.substr(start, end - start);
			start = end + 1;
		}
		EXPECT_EQ(text.find("Usage: rxecc"), 0u) << topic;
	}
}

TEST_F(Cli, Version)
{
	RunResult r = run({"--version"});
	EXPECT_EQ(r.code, 0);
	EXPECT_EQ(r.out, "rxecc 0.1.0 (rxe_cc generic netlink family version 1)\n");
	EXPECT_EQ(run({"-V"}).out, r.out);
	EXPECT_EQ(r.connects, 0);
}

TEST_F(Cli, UsageErrorsOfTheCommandLine)
{
	expect_usage({}, "missing command");
	expect_usage({"frobnicate"},
	             "unknown command 'frobnicate' (algo, dev, qp, stats or monitor)");
	expect_usage({"-x", "algo"}, "unknown option '-x'");
	expect_usage({"--bogus"}, "unknown option '--bogus'");
	expect_usage({"dev", "frob"}, "unknown dev command 'frob' (show or set)");
	expect_usage({"qp", "delete"}, "unknown qp command 'delete'");
	expect_usage({"algo", "a", "b"}, "unexpected argument 'b'");
	expect_usage({"help", "nope"}, "no help on 'nope'");
	expect_usage({"qp", "show", "rxe0", "17", "x"}, "unexpected argument 'x'");
	expect_usage({"qp", "show", "rxe0", "seventeen"}, "QPN: 'seventeen' is not a number");
	expect_usage({"qp", "show", "rxe0", "0x1000000"}, "QP numbers have 24 bits");
	expect_usage({"dev", "show", "rxe0", "algo"}, "'algo' needs an algorithm name");
	expect_usage({"dev", "show", "rxe0", "fixed"}, "unexpected argument 'fixed'");
	expect_usage({"monitor", "-i"}, "option '-i' needs a value");
	expect_usage({"monitor", "--interval"}, "option '--interval' needs a value");
	expect_usage({"monitor", "--events=yes"}, "option '--events' takes no value");
	expect_usage({"stats", "-z"}, "unknown option '-z'");
}

TEST_F(Cli, AbbreviationsPreferTheFirstWord)
{
	// As in iproute2: 's' is 'show' (listed before 'set'), 'se' is 'set'.
	RunResult r = run({"s"});
	EXPECT_EQ(r.code, 0) << "'s' is stats";
	EXPECT_EQ(r.out, run({"stats"}).out);
	ASSERT_EQ(run({"d", "se", "rxe0", "ecn", "off"}).code, 0);
	EXPECT_EQ(k.devs[0].ecn, 0);
	EXPECT_EQ(run({"q", "s", "rxe1"}).out, run({"qp", "show", "rxe1"}).out);
}

TEST_F(Cli, AbbreviationsAndOptionsAfterTheCommand)
{
	RunResult full = run({"dev", "show", "rxe0"});
	ASSERT_EQ(full.code, 0) << full.err;
	EXPECT_EQ(run({"d", "s", "rxe0"}).out, full.out);
	EXPECT_EQ(run({"dev", "list", "rxe0"}).out, full.out);
	EXPECT_EQ(run({"dev"}).out, run({"dev", "show"}).out);
	RunResult j1 = run({"-j", "dev", "show", "rxe0"});
	RunResult j2 = run({"dev", "show", "rxe0", "-j"});
	RunResult j3 = run({"dev", "-j"});
	EXPECT_EQ(j1.out, j2.out);
	EXPECT_EQ(j1.out[0], '[');
	EXPECT_EQ(j3.out[0], '[');
	RunResult jd = run({"-jd", "qp", "show", "rxe0", "17"});
	Json doc = parse(jd.out);
	EXPECT_TRUE(doc.at(0).contains("params"));
	EXPECT_EQ(run({"--json", "--details", "qp", "show", "rxe0", "17"}).out, jd.out);
}

// The kernel is not reached for a command line that is wrong.
TEST_F(Cli, ModuleNotLoaded)
{
	RunResult r = run_rxecc(k, clock, {"dev", "show"}, true);
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: the patched rdma_rxe module is not loaded: the kernel has no "
	                 "generic netlink family 'rxe_cc'\n");
	EXPECT_EQ(r.out, "");
	// A usage error is reported as such even without the module.
	RunResult u = run_rxecc(k, clock, {"dev", "set", "rxe0", "ecn", "maybe"}, true);
	EXPECT_EQ(u.code, 2);
	EXPECT_EQ(u.connects, 0);
}

// ------------------------------------------------------------ algo

TEST_F(Cli, AlgoListsParametersWithUnitsAndRanges)
{
	RunResult r = run({"algo"});
	ASSERT_EQ(r.code, 0) << r.err;
	std::vector<std::string> l = lines(r.out);
	ASSERT_GE(l.size(), 10u);
	EXPECT_EQ(l[0], "none");
	EXPECT_EQ(l[1], "    no parameters");
	EXPECT_EQ(l[2], "");
	EXPECT_EQ(l[3], "fixed");
	EXPECT_EQ(l[4], "    PARAMETER     UNIT    DEFAULT  MIN  MAX         DESCRIPTION");
	EXPECT_EQ(l[5], "    rate_kbps     kbit/s  100000   1    2147483648  pacing rate");
	EXPECT_EQ(l[6], "    window_bytes  bytes   0        0    1073741824  limit on bytes in "
	                "flight, 0 = none");
	EXPECT_EQ(l[7], "    state: rate_kbps (kbit/s), window_bytes (bytes)");
	EXPECT_NE(r.out.find("\ndcqcn\n"), std::string::npos);
	EXPECT_NE(r.out.find("\n    rp_threshold              -       1        1    31          "
	                     "increase events"),
	          std::string::npos)
		<< r.out;
	EXPECT_NE(r.out.find("alpha (Q16)"), std::string::npos);
	EXPECT_EQ(k.count(RXE_CC_CMD_ALGO_GET), 1u);
	EXPECT_TRUE(k.calls[0].dump);
}

TEST_F(Cli, AlgoStateLineWrapsUnderItself)
{
	for (int i = 0; i < 8; ++i)
		k.algos[2].state.emplace_back("extra_state_value_" + std::to_string(i), 0);
	RunResult r = run({"algo", "dcqcn"});
	std::vector<std::string> l = lines(r.out);
	std::size_t at = 0;
	while (at < l.size() && l[at].find("    state: ") != 0)
		++at;
	ASSERT_LT(at + 1, l.size()) << "the state list wraps: " << r.out;
	EXPECT_EQ(l[at].find("    state: limited (bool), "), 0u) << r.out;
	for (std::size_t i = at; i < l.size(); ++i) {
		EXPECT_LE(l[i].size(), 100u) << l[i];
		if (i > at) {
			EXPECT_EQ(l[i].find_first_not_of(' '), 11u)
				<< "aligned under the first: " << l[i];
		}
	}
	EXPECT_EQ(l.back().substr(l.back().size() - 19), "extra_state_value_7") << r.out;
}

TEST_F(Cli, AlgoByName)
{
	RunResult r = run({"algo", "fixed"});
	ASSERT_EQ(r.code, 0);
	EXPECT_EQ(r.out.find("fixed"), 0u);
	EXPECT_EQ(r.out.find("dcqcn"), std::string::npos);
}

TEST_F(Cli, UnknownAlgorithmListsTheAvailableOnes)
{
	RunResult r = run({"algo", "dcqn"});
	EXPECT_EQ(r.code, 2);
	EXPECT_EQ(r.err, "rxecc: unknown algorithm 'dcqn'; did you mean 'dcqcn'?; available: none, "
	                 "fixed, dcqcn\nTry 'rxecc algo --help'.\n");
	r = run({"algo", "hpcc"});
	EXPECT_EQ(r.err.find("rxecc: unknown algorithm 'hpcc'; available: none, fixed, dcqcn"), 0u)
		<< r.err;
}

TEST_F(Cli, AlgoJson)
{
	RunResult r = run({"-j", "algo"});
	ASSERT_EQ(r.code, 0);
	EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "compact JSON is one line";
	Json doc = parse(r.out);
	ASSERT_EQ(doc.size(), 3u);
	EXPECT_EQ(str(doc.at(0).at("name")), "none");
	EXPECT_EQ(doc.at(0).at("params").size(), 0u);
	const Json &d = doc.at(2);
	EXPECT_EQ(str(d.at("name")), "dcqcn");
	EXPECT_FALSE(d.contains("id"));
	const Json &ai = d.at("params").at(3);
	EXPECT_EQ(str(ai.at("name")), "rp_ai_rate_kbps");
	EXPECT_EQ(str(ai.at("unit")), "kbps");
	EXPECT_EQ(u64(ai.at("default")), 20u);
	EXPECT_EQ(u64(ai.at("min")), 1u);
	EXPECT_EQ(u64(ai.at("max")), 2147483648u);
	EXPECT_EQ(str(ai.at("help")), "target rate step of additive increase");
	EXPECT_EQ(str(d.at("state").at(3).at("name")), "alpha");
	EXPECT_EQ(str(d.at("state").at(3).at("unit")), "q16");

	RunResult p = run({"-p", "algo", "fixed"});
	EXPECT_NE(p.out.find("\n  {\n    \"name\": \"fixed\","), std::string::npos) << p.out;
	EXPECT_EQ(str(parse(p.out).at(0).at("params").at(0).at("name")), "rate_kbps");
}

TEST_F(Cli, JsonEscapesKernelStrings)
{
	k.algos[1].params[0].help = "rate \"R\" in kbit/s\\\tline\n\x01";
	RunResult r = run({"-j", "algo", "fixed"});
	ASSERT_EQ(r.code, 0);
	Json doc = parse(r.out);
	EXPECT_EQ(str(doc.at(0).at("params").at(0).at("help")),
	          "rate \"R\" in kbit/s\\\tline\n\x01");
	EXPECT_NE(r.out.find("\"rate \\\"R\\\" in kbit/s\\\\\\tline\\n\\u0001\""),
	          std::string::npos)
		<< r.out;
	// Bytes that are not UTF-8 become U+FFFD: the output stays JSON.
	k.algos[1].params[0].help = "bad \xff\xc0 bytes";
	r = run({"-j", "algo", "fixed"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(str(parse(r.out).at(0).at("params").at(0).at("help")),
	          "bad \xef\xbf\xbd\xef\xbf\xbd bytes");
}

// ------------------------------------------------------------ dev show

TEST_F(Cli, DevShowOneDevice)
{
	RunResult r = run({"dev", "show", "rxe0"});
	ASSERT_EQ(r.code, 0) << r.err;
	std::vector<std::string> l = lines(r.out);
	ASSERT_EQ(l.size(), 6u) << r.out;
	// The settings, wrapped at 100 columns.
	EXPECT_EQ(l[0], "rxe0: algo dcqcn line_rate 10Gbit base_rtt 100us ecn on ack_every default "
	                "cnp_dscp 48 ack_dscp own");
	EXPECT_EQ(l[1], "    dscp_prio 26:3,48:6 sfc on sfc_max 50ms sfc_mode replace");
	EXPECT_EQ(l[2], "    dcqcn parameters:");
	// Wrapped at 100 columns.
	EXPECT_EQ(l[3], "        rp_clamp_tgt_rate 0 rp_time_reset 30000us rp_threshold 1 "
	                "rp_ai_rate_kbps 2000");
	EXPECT_EQ(l[5], "        np_min_time_between_cnps 100us np_cnp_dscp 48");
	EXPECT_NE(r.out.find("rp_min_dec_fac 50%"), std::string::npos);
	EXPECT_NE(r.out.find("np_cnp_dscp 48"), std::string::npos);
	for (const std::string &line : l)
		EXPECT_LE(line.size(), 100u);
	// A do request named the device; no write.
	ASSERT_EQ(k.count(RXE_CC_CMD_DEV_GET), 1u);
	expect_no_writes();
}

TEST_F(Cli, DevShowAllDevices)
{
	k.devs[1].line_rate = 0;
	k.devs[1].base_rtt = 0;
	k.devs[1].ack_every = 4;
	k.devs[1].ack_dscp = 26;
	RunResult r = run({"dev", "show"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_NE(r.out.find(
			  "\n\nrxe1: algo none line_rate auto base_rtt unknown ecn off ack_every 4 "
			  "cnp_dscp 48 ack_dscp 26\n    dscp_prio 26:3,48:6 sfc off sfc_max 50ms "
			  "sfc_mode replace\n"),
	          std::string::npos)
		<< r.out;
	EXPECT_EQ(r.out.find("rxe0: "), 0u);
	// none has no parameters: nothing after rxe1's settings.
	const std::string tail = "sfc_mode replace\n";
	EXPECT_TRUE(r.out.size() > tail.size() &&
	            r.out.compare(r.out.size() - tail.size(), tail.size(), tail) == 0)
		<< r.out;
}

TEST_F(Cli, DevShowParametersOfAnotherAlgorithm)
{
	RunResult r = run({"dev", "show", "rxe0", "algo", "fixed"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_NE(r.out.find("rxe0: algo dcqcn "), std::string::npos);
	EXPECT_NE(r.out.find("    fixed parameters:\n        rate_kbps 100000 window_bytes 0\n"),
	          std::string::npos)
		<< r.out;
	RunResult j = run({"-j", "dev", "show", "rxe0", "algo", "fixed"});
	Json doc = parse(j.out);
	EXPECT_EQ(str(doc.at(0).at("algo")), "dcqcn");
	EXPECT_EQ(str(doc.at(0).at("params_algo")), "fixed");
	EXPECT_EQ(u64(doc.at(0).at("params").at("rate_kbps")), 100000u);
	expect_usage({"dev", "show", "rxe0", "algo", "fxed"},
	             "unknown algorithm 'fxed'; did you mean 'fixed'?", true);
}

TEST_F(Cli, DevShowDetailsHaveRangesAndHelp)
{
	RunResult r = run({"-d", "dev", "show", "rxe0"});
	ASSERT_EQ(r.code, 0);
	EXPECT_NE(r.out.find("rxe0: index 1 algo dcqcn"), std::string::npos);
	EXPECT_NE(r.out.find("        PARAMETER                 VALUE    RANGE"), std::string::npos)
		<< r.out;
	EXPECT_NE(
		r.out.find("        rp_ai_rate_kbps           2000     1..2147483648 kbit/s       "
	                   "target rate step of additive increase\n"),
		std::string::npos)
		<< r.out;
	EXPECT_NE(r.out.find("rp_dce_tcp_g              1020     0..1023 (Q10, 1024 = 1.0)"),
	          std::string::npos)
		<< r.out;
}

TEST_F(Cli, DevShowJson)
{
	RunResult r = run({"-j", "dev", "show"});
	ASSERT_EQ(r.code, 0);
	Json doc = parse(r.out);
	ASSERT_EQ(doc.size(), 2u);
	const Json &d = doc.at(0);
	EXPECT_EQ(str(d.at("dev")), "rxe0");
	EXPECT_EQ(u64(d.at("index")), 1u);
	EXPECT_EQ(str(d.at("algo")), "dcqcn");
	EXPECT_EQ(u64(d.at("line_rate_bps")), 10000000000u);
	EXPECT_EQ(u64(d.at("base_rtt_ns")), 100000u);
	EXPECT_EQ(d.at("ecn"), Json(true));
	EXPECT_EQ(u64(d.at("ack_every")), 0u);
	EXPECT_EQ(u64(d.at("cnp_dscp")), 48u);
	EXPECT_EQ(u64(d.at("ack_dscp")), 255u);
	EXPECT_EQ(str(d.at("params_algo")), "dcqcn");
	EXPECT_EQ(u64(d.at("params").at("rp_ai_rate_kbps")), 2000u);
	EXPECT_EQ(d.at("params").size(), 11u);
	EXPECT_EQ(d.at("params_user"), Json::array());
	EXPECT_EQ(d.at("dscp_prio"), (Json{{"26", 3}, {"48", 6}}));
	EXPECT_EQ(doc.at(1).at("params").size(), 0u);
	EXPECT_EQ(doc.at(1).at("ecn"), Json(false));
}

TEST_F(Cli, DevShowTheDscpMapAndTheParametersTheUserSet)
{
	k.devs[0].dscp_prio = {};
	k.devs[0].dscp_prio[10] = 1;
	k.devs[0].dscp_prio[46] = 5;
	k.devs[1].dscp_prio = {};
	k.devs[0].user["dcqcn"] = {"rp_ai_rate_kbps", "rp_gd"};
	RunResult r = run({"dev", "show"});
	ASSERT_EQ(r.code, 0) << r.err;
	std::vector<std::string> l = lines(r.out);
	ASSERT_GE(l.size(), 4u) << r.out;
	EXPECT_EQ(l[1], "    dscp_prio 10:1,46:5 sfc on sfc_max 50ms sfc_mode replace");
	// a '*' marks the values the user set, and the heading says so
	EXPECT_EQ(l[2], "    dcqcn parameters (* = set by the user):");
	EXPECT_EQ(l[3], "        rp_clamp_tgt_rate 0 rp_time_reset 30000us rp_threshold 1 "
	                "rp_ai_rate_kbps 2000*");
	EXPECT_NE(r.out.find(" rp_gd 11*\n"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find(" rp_min_rate_kbps 1000 "), std::string::npos) << r.out;
	// an empty map: every DSCP on priority 0
	EXPECT_NE(r.out.find("\nrxe1: algo none line_rate auto base_rtt unknown ecn off ack_every "
	                     "default cnp_dscp 48 ack_dscp own\n    dscp_prio none sfc off"),
	          std::string::npos)
		<< r.out;

	RunResult d = run({"-d", "dev", "show", "rxe0"});
	EXPECT_NE(d.out.find("    dcqcn parameters (* = set by the user):\n"), std::string::npos);
	EXPECT_NE(d.out.find("        rp_ai_rate_kbps           2000*    1..2147483648 kbit/s"),
	          std::string::npos)
		<< d.out;
	EXPECT_NE(d.out.find("        rp_min_rate_kbps          1000     1..2147483648 kbit/s"),
	          std::string::npos)
		<< d.out;

	Json doc = parse(run({"-j", "dev", "show"}).out);
	EXPECT_EQ(doc.at(0).at("params_user"), (Json{"rp_ai_rate_kbps", "rp_gd"}));
	EXPECT_EQ(u64(doc.at(0).at("params").at("rp_ai_rate_kbps")), 2000u);
	EXPECT_EQ(doc.at(0).at("dscp_prio"), (Json{{"10", 1}, {"46", 5}}));
	EXPECT_EQ(doc.at(1).at("dscp_prio"), Json::object());

	// the other algorithm's parameters carry their own marks
	RunResult f = run({"dev", "show", "rxe0", "algo", "fixed"});
	EXPECT_NE(f.out.find("    fixed parameters:\n        rate_kbps 100000 window_bytes 0\n"),
	          std::string::npos)
		<< f.out;
	// a parameter set with 'dev set' is marked from then on
	ASSERT_EQ(run({"dev", "set", "rxe0", "algo", "fixed", "window_bytes", "64KiB"}).code, 0);
	f = run({"dev", "show", "rxe0", "algo", "fixed"});
	EXPECT_NE(f.out.find("    fixed parameters (* = set by the user):\n"
	                     "        rate_kbps 100000 window_bytes 65536*\n"),
	          std::string::npos)
		<< f.out;
}

TEST_F(Cli, DevShowUnknownDevice)
{
	RunResult r = run({"dev", "show", "rxe9"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err,
	          "rxecc: device 'rxe9' not found; did you mean 'rxe0'?; rxe devices: rxe0, rxe1 "
	          "(kernel: no rxe device rxe9)\n");
	EXPECT_EQ(r.out, "");
	k.devs.clear();
	r = run({"dev", "show", "eth0"});
	EXPECT_EQ(r.err, "rxecc: device 'eth0' not found; there are no rxe devices (kernel: no rxe "
	                 "device eth0)\n");
}

TEST_F(Cli, KernelErrorsShowTheExtack)
{
	k.fail_next[RXE_CC_CMD_DEV_GET] = {EIO, "device is being torn down"};
	RunResult r = run({"dev", "show", "rxe0"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: dev show rxe0: device is being torn down (Input/output error)\n");
	k.fail_next[RXE_CC_CMD_ALGO_GET] = {EOPNOTSUPP, ""};
	r = run({"algo"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: algo: Operation not supported\n");
}

TEST_F(Cli, MalformedReplyIsARuntimeError)
{
	k.mangle = [](std::uint8_t cmd, std::vector<GenlMsg> &replies) {
		if (cmd == RXE_CC_CMD_DEV_GET)
			for (GenlMsg &m : replies)
				// Cut into the last attribute (ACK_DSCP, 5 bytes and 3
				// of padding): losing the padding alone is harmless.
				m.attrs.resize(m.attrs.size() - 6);
	};
	RunResult r = run({"dev", "show"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err,
	          "rxecc: dev show: unexpected reply from the kernel (DEV_GET reply: "
	          "attributes overrun the message); do rxecc and the rdma_rxe module match?\n");
	EXPECT_EQ(r.out, "");
}

// ------------------------------------------------------------ dev set

TEST_F(Cli, DevSetEverySetting)
{
	RunResult r = run({"dev",   "set",
	                   "rxe1",  "algo",
	                   "dcqcn", "rp_ai_rate_kbps",
	                   "5Mbit", "rp_time_reset",
	                   "2ms",   "rp_clamp_tgt_rate",
	                   "on",    "line_rate",
	                   "1.5G",  "base_rtt",
	                   "80us",  "ecn",
	                   "on",    "ack_every",
	                   "8",     "cnp_dscp",
	                   "46",    "ack_dscp",
	                   "26"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(r.err, "");
	const FakeDev &d = k.devs[1];
	EXPECT_EQ(d.algo, "dcqcn");
	EXPECT_EQ(d.line_rate, 1500000000u);
	EXPECT_EQ(d.base_rtt, 80000u);
	EXPECT_EQ(d.ecn, 1);
	EXPECT_EQ(d.ack_every, 8u);
	EXPECT_EQ(d.cnp_dscp, 46);
	EXPECT_EQ(d.ack_dscp, 26);
	const Values &p = d.params.at("dcqcn");
	auto get = [&p](const std::string &n) {
		for (const auto &[name, v] : p)
			if (name == n)
				return v;
		return std::uint64_t{999999};
	};
	EXPECT_EQ(get("rp_ai_rate_kbps"), 5000u);
	EXPECT_EQ(get("rp_time_reset"), 2000u);
	EXPECT_EQ(get("rp_clamp_tgt_rate"), 1u);
	EXPECT_EQ(k.count(RXE_CC_CMD_DEV_SET), 1u) << "one request: all or nothing";
}

TEST_F(Cli, DevSetWordValues)
{
	ASSERT_EQ(run({"dev", "set", "rxe0", "line_rate", "auto", "base_rtt", "unknown",
	               "ack_every", "default", "ack_dscp", "own", "ecn", "off"})
	                  .code,
	          0);
	EXPECT_EQ(k.devs[0].line_rate, 0u);
	EXPECT_EQ(k.devs[0].base_rtt, 0u);
	EXPECT_EQ(k.devs[0].ack_every, 0u);
	EXPECT_EQ(k.devs[0].ack_dscp, 255);
	EXPECT_EQ(k.devs[0].ecn, 0);
	ASSERT_EQ(run({"dev", "set", "rxe0", "line_rate", "0"}).code, 0);
}

TEST_F(Cli, DevSetTakesEveryFormOfTheUnitsGrammar)
{
	// bps is bits (Documentation/rxe-cc/units.rst); before the common
	// grammar rxecc refused it
	for (const char *r :
	     {"10Gbps", "10Gbit", "10G", "10gbit", "10Gb/s", "10000Mbit/s", "0.01T"}) {
		k.devs[0].line_rate = 0;
		ASSERT_EQ(run({"dev", "set", "rxe0", "line_rate", r}).code, 0) << r;
		EXPECT_EQ(k.devs[0].line_rate, 10000000000u) << r;
	}
	for (const char *t : {"100us", "100usec", "0.1ms", "100000ns", "100\xc2\xb5s"}) {
		k.devs[0].base_rtt = 0;
		ASSERT_EQ(run({"dev", "set", "rxe0", "base_rtt", t}).code, 0) << t;
		EXPECT_EQ(k.devs[0].base_rtt, 100000u) << t;
	}
}

TEST_F(Cli, DevSetParametersOfTheCurrentDefault)
{
	// rxe0 runs dcqcn: its parameters are meant.
	ASSERT_EQ(run({"dev", "set", "rxe0", "rp_gd", "12"}).code, 0);
	bool found = false;
	for (const auto &[n, v] : k.devs[0].params["dcqcn"])
		if (n == "rp_gd") {
			EXPECT_EQ(v, 12u);
			found = true;
		}
	EXPECT_TRUE(found);
	// rxe1 runs none: no parameters, and the error says where they went.
	RunResult r = run({"dev", "set", "rxe1", "rp_gd", "12"});
	EXPECT_EQ(r.code, 2);
	EXPECT_EQ(
		r.err.find("rxecc: algorithm 'none' has no parameters, so 'rp_gd' cannot be set "
	                   "(parameters apply to the default algorithm of rxe1; name another with "
	                   "'algo NAME')"),
		0u)
		<< r.err;
	EXPECT_EQ(k.count(RXE_CC_CMD_DEV_SET), 1u);
}

TEST_F(Cli, DevSetRejectsBadInputBeforeSendingAndChangesNothing)
{
	const std::vector<FakeDev> before = k.devs;
	struct Case {
		std::vector<std::string> args;
		std::string msg;
		bool reaches_kernel; // for reads of metadata and the device only
	};
	const std::vector<Case> cases = {
		{{"dev", "set"}, "missing DEV", false},
		{{"dev", "set", "algo", "dcqcn"}, "missing DEV before 'algo'", false},
		{{"dev", "set", "rxe0"}, "nothing to set for rxe0", false},
		{{"dev", "set", "rxe0", "ecn"}, "'ecn' needs a value", false},
		{{"dev", "set", "rxe0", "rp_gd"}, "parameter 'rp_gd' needs a value", false},
		{{"dev", "set", "rxe0", "ecn", "maybe"}, "ecn: 'maybe' is not on or off", false},
		{{"dev", "set", "rxe0", "ecn", "on", "ecn", "off"}, "'ecn' is given twice", false},
		{{"dev", "set", "rxe0", "line_rate", "fast"},
	         "line_rate: 'fast' is not a rate",
	         false},
		{{"dev", "set", "rxe0", "line_rate", "10GB"},
	         "line_rate: '10GB' is not a rate: rates are in bits, 'B' is bytes (examples: "
	         "100M, "
	         "2.5Gbit, 400kbit/s)",
	         false},
		{{"dev", "set", "rxe0", "line_rate", "10GBps"},
	         "rates are in bits, 'Bps' is bytes",
	         false},
		{{"dev", "set", "rxe0", "base_rtt", "100"},
	         "base_rtt: '100' is not a time: it needs a unit, ns, us, ms or s",
	         false},
		{{"dev", "set", "rxe0", "ack_every", "-1"},
	         "ack_every: '-1' is not a number",
	         false},
		{{"dev", "set", "rxe0", "cnp_dscp", "64"},
	         "cnp_dscp: 64 is out of range 0..63",
	         false},
		{{"dev", "set", "rxe0", "ack_dscp", "99"},
	         "ack_dscp: 99 is out of range 0..63 (or own)",
	         false},
		{{"dev", "set", "rxe0", "ack_dscp", "x"}, "expected a DSCP, 0..63, or own", false},
		{{"dev", "set", "rxe0", "algo", "dcqn"},
	         "unknown algorithm 'dcqn'; did you mean 'dcqcn'?; available: none, fixed, dcqcn",
	         true},
		{{"dev", "set", "rxe0", "rp_bogus", "1"},
	         "algorithm 'dcqcn' has no parameter 'rp_bogus' (parameters apply to the default "
	         "algorithm of rxe0; name another with 'algo NAME'); its parameters: "
	         "rp_clamp_tgt_rate, "
	         "rp_time_reset,",
	         true},
		{{"dev", "set", "rxe0", "rp_ai_rate", "1"},
	         "did you mean 'rp_ai_rate_kbps'?",
	         true},
		{{"dev", "set", "rxe0", "algo", "fixed", "rp_gd", "11"},
	         "algorithm 'fixed' has no parameter 'rp_gd'; its parameters: rate_kbps, "
	         "window_bytes",
	         true},
		{{"dev", "set", "rxe0", "rp_ai_rate_kbps", "0"},
	         "rp_ai_rate_kbps: 0 is out of range 1..2147483648 kbit/s",
	         true},
		{{"dev", "set", "rxe0", "rp_ai_rate_kbps", "lots"},
	         "rp_ai_rate_kbps: 'lots' is not a rate",
	         true},
		{{"dev", "set", "rxe0", "rp_gd", "17"},
	         "rp_gd: 17 is out of range 10..16 log2",
	         true},
		{{"dev", "set", "rxe0", "rp_gd", "12", "ecn", "on", "rp_gd", "13"},
	         "'rp_gd' is given twice",
	         false},
		{{"dev", "set", "rxe0", "rp_time_reset", "20s"},
	         "rp_time_reset: 20s (20000000) is out of range 1..10000000 us",
	         true},
	};
	for (const Case &c : cases)
		expect_usage(c.args, c.msg, c.reaches_kernel);
	// Nothing changed, nothing was written.
	ASSERT_EQ(k.devs.size(), before.size());
	for (std::size_t i = 0; i < before.size(); ++i) {
		EXPECT_EQ(k.devs[i].algo, before[i].algo);
		EXPECT_EQ(k.devs[i].params, before[i].params);
		EXPECT_EQ(k.devs[i].line_rate, before[i].line_rate);
		EXPECT_EQ(k.devs[i].ecn, before[i].ecn);
		EXPECT_EQ(k.devs[i].cnp_dscp, before[i].cnp_dscp);
	}
	for (const Call &c : k.calls)
		EXPECT_NE(c.cmd, RXE_CC_CMD_DEV_SET);
}

TEST_F(Cli, DevSetDscpPrio)
{
	ASSERT_EQ(run({"dev", "set", "rxe1", "dscp_prio", "26:5,48:6,0:1"}).code, 0);
	std::array<std::uint8_t, 64> want{};
	want[0] = 1;
	want[26] = 5;
	want[48] = 6;
	EXPECT_EQ(k.devs[1].dscp_prio, want);
	EXPECT_EQ(k.devs[0].dscp_prio, FakeDev::conventional_dscp_prio()) << "only rxe1";
	EXPECT_NE(run({"dev", "show", "rxe1"}).out.find("dscp_prio 0:1,26:5,48:6 sfc"),
	          std::string::npos);
	// empty, or none as 'dev show' prints it: every DSCP on priority 0
	for (const char *empty : {"", "none"}) {
		k.devs[1].dscp_prio = want;
		ASSERT_EQ(run({"dev", "set", "rxe1", "dscp_prio", empty}).code, 0) << empty;
		EXPECT_EQ(k.devs[1].dscp_prio, (std::array<std::uint8_t, 64>{})) << empty;
	}
	// with other settings, in one request
	ASSERT_EQ(run({"dev", "set", "rxe1", "ecn", "on", "dscp_prio", "26:3,48:6"}).code, 0);
	EXPECT_EQ(k.devs[1].dscp_prio, FakeDev::conventional_dscp_prio());
	EXPECT_EQ(k.devs[1].ecn, 1);

	const std::vector<std::pair<std::string, std::string>> bad = {
		{"26:8", "dscp_prio: '26:8': priority 8 is not 0..7"},
		{"64:1", "dscp_prio: '64:1': DSCP 64 is not 0..63"},
		{"26:3,26:4", "dscp_prio: DSCP 26 is named twice"},
		{"26:3,", "dscp_prio: '' is not DSCP:PRIO (example: 26:3,48:6)"},
		{"26=3", "dscp_prio: '26=3' is not DSCP:PRIO"},
		{"all", "dscp_prio: 'all' is not DSCP:PRIO"},
	};
	const auto before = k.devs[1].dscp_prio;
	const std::size_t sets = k.count(RXE_CC_CMD_DEV_SET);
	for (const auto &[map, msg] : bad) {
		RunResult r = run({"dev", "set", "rxe1", "dscp_prio", map});
		EXPECT_EQ(r.code, 2) << map;
		EXPECT_NE(r.err.find("rxecc: " + msg), std::string::npos) << r.err;
		EXPECT_EQ(r.connects, 0) << map << ": checked before the kernel is asked";
	}
	EXPECT_EQ(k.count(RXE_CC_CMD_DEV_SET), sets);
	EXPECT_EQ(k.devs[1].dscp_prio, before);
}

TEST_F(Cli, FakeKernelChecksTheDscpMapAsTheKernelDoes)
{
	// What rxecc never sends, the fake refuses as rxe_cc_nl.c does: a
	// priority above 7, a map that is not 64 bytes.
	DevSet set;
	set.dev = "rxe0";
	set.dscp_prio = DscpPrio{};
	(*set.dscp_prio)[12] = 9;
	std::vector<GenlMsg> r;
	Status s = k.request(dev_set_request(set), false, r);
	EXPECT_EQ(s.err, ERANGE);
	EXPECT_EQ(s.extack, "DSCP 12 maps to priority 9, above 7");
	nl::AttrWriter w;
	w.put_string(RXE_CC_A_DEV_NAME, "rxe0");
	std::uint8_t short_map[63] = {};
	w.put_bytes(RXE_CC_A_DSCP_PRIO, short_map, sizeof(short_map));
	s = k.request(GenlMsg{RXE_CC_CMD_DEV_SET, w.bytes()}, false, r);
	EXPECT_EQ(s.err, EINVAL);
	EXPECT_EQ(k.devs[0].dscp_prio, FakeDev::conventional_dscp_prio());
}

TEST_F(Cli, AWarningOfTheKernelGoesToStderrAndTheChangeStands)
{
	// 1 ms is shorter than one frame at 1 Mbit/s (8.75 ms): DCQCN accepts
	// it and warns in the extended ACK of the success.
	RunResult r = run({"dev", "set", "rxe0", "line_rate", "1M", "rp_time_reset", "1ms"});
	EXPECT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "");
	EXPECT_EQ(r.err, "rxecc: warning: dev set rxe0: dcqcn: a period is shorter than one frame "
	                 "at the maximum rate\n");
	EXPECT_EQ(k.devs[0].line_rate, 1000000u);
	bool found = false;
	for (const auto &[n, v] : k.devs[0].params["dcqcn"])
		if (n == "rp_time_reset") {
			EXPECT_EQ(v, 1000u);
			found = true;
		}
	EXPECT_TRUE(found);
	// QP_SET warns the same way
	r = run({"qp", "set", "rxe0", "17", "algo", "dcqcn", "rp_time_reset", "2ms"});
	EXPECT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.err,
	          "rxecc: warning: qp set rxe0 17: dcqcn: a period is shorter than one frame "
	          "at the maximum rate\n");
	// and a setting beyond doubt gets no warning
	r = run({"dev", "set", "rxe0", "rp_time_reset", "20ms"});
	EXPECT_EQ(r.code, 0);
	EXPECT_EQ(r.err, "");
}

TEST_F(Cli, DevSetUnknownDeviceIsFoundBeforeWriting)
{
	RunResult r = run({"dev", "set", "rxe7", "ecn", "on"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(
		r.err.find(
			"rxecc: device 'rxe7' not found; did you mean 'rxe0'?; rxe devices: rxe0, "
			"rxe1"),
		0u)
		<< r.err;
	expect_no_writes();
}

TEST_F(Cli, DevSetPermissionDenied)
{
	k.admin = false;
	RunResult r = run({"dev", "set", "rxe0", "ecn", "off"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: dev set rxe0: permission denied: changing congestion control "
	                 "settings needs CAP_NET_ADMIN (run as root)\n");
	EXPECT_EQ(k.devs[0].ecn, 1);
	// Reads still work for everyone.
	EXPECT_EQ(run({"dev", "show"}).code, 0);
}

TEST_F(Cli, DevSetKernelRejectionKeepsItsReason)
{
	// Each value is in range, but together setup() refuses them.
	RunResult r =
		run({"dev", "set", "rxe0", "rp_max_rate_kbps", "500", "rp_min_rate_kbps", "1000"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: dev set rxe0: dcqcn: rp_min_rate_kbps is above rp_max_rate_kbps "
	                 "(Invalid argument)\n");
	for (const auto &[n, v] : k.devs[0].params["dcqcn"]) {
		if (n == "rp_max_rate_kbps") {
			EXPECT_EQ(v, 0u) << "a rejected request changes nothing";
		}
	}
}

// ------------------------------------------------------------ qp

TEST_F(Cli, QpShowAll)
{
	RunResult r = run({"qp", "show"});
	ASSERT_EQ(r.code, 0) << r.err;
	// bytes in flight and acknowledged and retransmitted packets, when
	// the kernel reports them (QP 5 has no counters here)
	EXPECT_EQ(r.out,
	          "rxe0 qpn 17 algo dcqcn rate 8.5Gbit window none inflight 4KiB "
	          "acked 123456789B retx 2 sfc on\n"
	          "    limited 1 rate_kbps 8500000 target_rate_kbps 10000000 alpha 0.2500 "
	          "rate_cuts 3\n"
	          "    sfc: bts_rx 4 bts_cache 1 bts_clamped 1 bts_capped 0 pause_starts 2 "
	          "pause_last 500us\n"
	          "         pause_left 120us paused 1.5ms\n"
	          "rxe0 qpn 18 algo fixed rate 100Mbit window 64KiB inflight 64KiB acked 1MiB "
	          "retx 0 sfc off\n"
	          "    rate_kbps 100000 window_bytes 65536\n"
	          "rxe1 qpn 5 algo none rate unpaced window none sfc off\n");
	EXPECT_EQ(k.count(RXE_CC_CMD_QP_GET), 2u); // one dump per device
}

TEST_F(Cli, QpShowOneDeviceAndOneQp)
{
	RunResult r = run({"qp", "show", "rxe1"});
	EXPECT_EQ(r.out, "rxe1 qpn 5 algo none rate unpaced window none sfc off\n");
	r = run({"qp", "show", "rxe0", "0x12"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out.find("rxe0 qpn 18 algo fixed"), 0u);
	EXPECT_EQ(lines(r.out).size(), 2u);
	const Call &last = k.calls.back();
	EXPECT_EQ(last.cmd, RXE_CC_CMD_QP_GET);
	EXPECT_FALSE(last.dump);
}

TEST_F(Cli, QpShowDetails)
{
	RunResult r = run({"qp", "show", "rxe0", "17", "-d"});
	ASSERT_EQ(r.code, 0);
	EXPECT_NE(r.out.find("    parameters:\n        rp_clamp_tgt_rate 0 rp_time_reset 30000us"),
	          std::string::npos)
		<< r.out;
	EXPECT_NE(r.out.find("    counters:\n        cnp_rx 5 cnp_tx 0 ce_rx 0 pacer_waits 7 "
	                     "pacer_unused_us 12 rate_dec 3 rate_inc 1 retx_pkts 2\n"
	                     "        inflight_bytes 4096 acked_bytes 123456789\n"),
	          std::string::npos)
		<< r.out;
}

TEST_F(Cli, QpShowStateAsRepeatedTopLevelNests)
{
	// The header's reading of QP_GET: STATE nests at the top level.
	k.state_in_names_nest = false;
	RunResult r = run({"qp", "show", "rxe0", "17"});
	EXPECT_NE(r.out.find("alpha 0.2500"), std::string::npos) << r.out;
}

TEST_F(Cli, QpShowJson)
{
	RunResult r = run({"-j", "qp", "show"});
	Json doc = parse(r.out);
	ASSERT_EQ(doc.size(), 3u);
	EXPECT_EQ(str(doc.at(0).at("dev")), "rxe0");
	EXPECT_EQ(u64(doc.at(0).at("qpn")), 17u);
	EXPECT_EQ(u64(doc.at(0).at("rate_bps")), 8500000000u);
	EXPECT_EQ(u64(doc.at(0).at("window_bytes")), 0u);
	EXPECT_EQ(u64(doc.at(0).at("state").at("alpha")), 16384u);
	EXPECT_EQ(u64(doc.at(0).at("inflight_bytes")), 4096u);
	EXPECT_EQ(u64(doc.at(0).at("acked_bytes")), 123456789u);
	EXPECT_EQ(u64(doc.at(0).at("retx_pkts")), 2u);
	EXPECT_FALSE(doc.at(0).contains("params"));
	EXPECT_FALSE(doc.at(0).contains("stats"));
	EXPECT_EQ(doc.at(2).at("state").size(), 0u);
	EXPECT_FALSE(doc.at(2).contains("retx_pkts")) << "not reported, not 0";
	RunResult d = run({"-j", "-d", "qp", "show", "rxe0", "17"});
	Json dd = parse(d.out);
	EXPECT_EQ(u64(dd.at(0).at("params").at("rp_ai_rate_kbps")), 2000u);
	EXPECT_EQ(u64(dd.at(0).at("stats").at("cnp_rx")), 5u);
	EXPECT_EQ(dd.at(0).at("stats").size(), 18u) << "the kernel's list, SFC's included";
	EXPECT_EQ(run({"-j", "qp", "show", "rxe1", "5"}).out.find("[{\"dev\":\"rxe1\",\"qpn\":5,"),
	          0u);
	// No QPs: an empty list, and nothing at all for people.
	k.devs[1].qps.clear();
	EXPECT_EQ(run({"-j", "qp", "show", "rxe1"}).out, "[]\n");
	EXPECT_EQ(run({"qp", "show", "rxe1"}).out, "");
}

TEST_F(Cli, QpNotFound)
{
	RunResult r = run({"qp", "show", "rxe0", "99"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: QP 99 not found on rxe0 (kernel: no QP 99 on rxe0)\n");
	r = run({"qp", "show", "rxe5", "99"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err.find("rxecc: device 'rxe5' not found"), 0u) << r.err;
	r = run({"qp", "show", "rxe5"});
	EXPECT_EQ(r.err.find("rxecc: device 'rxe5' not found"), 0u) << r.err;
}

TEST_F(Cli, QpShowSkipsADeviceThatVanishes)
{
	// rxe1 disappears between the device dump and its QP dump.
	k.before = [](FakeKernel &kk, std::uint8_t cmd) {
		if (cmd == RXE_CC_CMD_QP_GET && kk.devs.size() == 2 &&
		    kk.count(RXE_CC_CMD_QP_GET) == 2)
			kk.devs.pop_back();
	};
	RunResult r = run({"qp", "show"});
	EXPECT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(lines(r.out).size(), 6u) << r.out;
}

TEST_F(Cli, QpSetSwitchesTheAlgorithm)
{
	RunResult r = run({"qp", "set", "rxe0", "17", "algo", "fixed", "rate_kbps", "500Mbit"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "");
	const FakeQp &q = *k.devs[0].qp(17);
	EXPECT_EQ(q.algo, "fixed");
	EXPECT_EQ(q.params, (Values{{"rate_kbps", 500000}, {"window_bytes", 0}}));
	// The QP was looked up before the write.
	ASSERT_GE(k.calls.size(), 2u);
	EXPECT_EQ(k.calls[k.calls.size() - 2].cmd, RXE_CC_CMD_QP_GET);
	EXPECT_EQ(k.calls.back().cmd, RXE_CC_CMD_QP_SET);
	// Parameters in any order around 'algo'.
	ASSERT_EQ(run({"qp", "set", "rxe0", "18", "window_bytes", "4096", "algo", "fixed"}).code,
	          0);
	EXPECT_EQ(k.devs[0].qp(18)->params[1].second, 4096u);
}

TEST_F(Cli, QpSetRejectsBadInput)
{
	const Values before = k.devs[0].qp(17)->params;
	expect_usage({"qp", "set"}, "missing DEV");
	expect_usage({"qp", "set", "rxe0"}, "missing QPN");
	expect_usage({"qp", "set", "rxe0", "algo", "fixed"}, "missing QPN");
	expect_usage({"qp", "set", "algo", "fixed"}, "missing DEV");
	expect_usage({"qp", "set", "rxe0", "17"}, "missing 'algo NAME'");
	expect_usage({"qp", "set", "rxe0", "17", "rate_kbps", "5"}, "missing 'algo NAME'");
	expect_usage({"qp", "set", "rxe0", "x17", "algo", "fixed"}, "QPN: 'x17' is not a number");
	expect_usage({"qp", "set", "rxe0", "17", "algo"}, "'algo' needs a value");
	expect_usage({"qp", "set", "rxe0", "17", "algo", "fixed", "algo", "none"},
	             "'algo' is given twice");
	expect_usage({"qp", "set", "rxe0", "17", "algo", "fast"}, "unknown algorithm 'fast'", true);
	expect_usage({"qp", "set", "rxe0", "17", "algo", "fixed", "rate", "5"},
	             "algorithm 'fixed' has no parameter 'rate'; did you mean 'rate_kbps'?; its "
	             "parameters: rate_kbps, window_bytes",
	             true);
	expect_usage({"qp", "set", "rxe0", "17", "algo", "fixed", "rate_kbps", "0"},
	             "rate_kbps: 0 is out of range 1..2147483648 kbit/s", true);
	expect_usage({"qp", "set", "rxe0", "17", "algo", "none", "rate_kbps", "5"},
	             "algorithm 'none' has no parameters, so 'rate_kbps' cannot be set", true);
	EXPECT_EQ(k.devs[0].qp(17)->algo, "dcqcn");
	EXPECT_EQ(k.devs[0].qp(17)->params, before);
}

TEST_F(Cli, QpSetErrorsFromTheKernel)
{
	RunResult r = run({"qp", "set", "rxe0", "99", "algo", "fixed"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: QP 99 not found on rxe0 (kernel: no QP 99 on rxe0)\n");
	r = run({"qp", "set", "rxe3", "1", "algo", "fixed"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err.find("rxecc: device 'rxe3' not found"), 0u) << r.err;
	expect_no_writes();
	k.admin = false;
	r = run({"qp", "set", "rxe0", "17", "algo", "none"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: qp set rxe0 17: permission denied: changing congestion control "
	                 "settings needs CAP_NET_ADMIN (run as root)\n");
	EXPECT_EQ(k.devs[0].qp(17)->algo, "dcqcn");
}

TEST_F(Cli, QpShowOfAnUnknownDevice)
{
	// The kernel answers a QP dump of an unknown name with nothing; rxecc
	// asks for the device before saying so.
	RunResult r = run({"qp", "show", "rxe9"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(
		r.err.find(
			"rxecc: device 'rxe9' not found; did you mean 'rxe0'?; rxe devices: rxe0, "
			"rxe1"),
		0u)
		<< r.err;
	// A device without QPs is not an error.
	k.devs[1].qps.clear();
	r = run({"qp", "show", "rxe1"});
	EXPECT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "");
}

TEST_F(Cli, QpSetOnAQpWithoutCongestionControl)
{
	k.devs[1].qps[0].rc = false;
	RunResult r = run({"qp", "set", "rxe1", "5", "algo", "fixed"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err,
	          "rxecc: qp set rxe1 5: congestion control runs on RC QPs only (Operation not "
	          "supported)\n");
}

TEST_F(Cli, KernelNotFoundThatIsNeitherDeviceNorQp)
{
	// The algorithm disappears between the check and the write (its module
	// was unloaded): the kernel's ENOENT is not mistaken for a missing QP.
	k.before = [](FakeKernel &kk, std::uint8_t cmd) {
		if (cmd == RXE_CC_CMD_QP_SET)
			kk.algos.pop_back();
	};
	RunResult r = run({"qp", "set", "rxe0", "17", "algo", "dcqcn"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err,
	          "rxecc: qp set rxe0 17: unknown algorithm dcqcn (see cc_available) (No such "
	          "file or directory)\n");
}

TEST_F(Cli, DeviceLimitsAreCheckedBeforeSending)
{
	expect_usage({"dev", "set", "rxe0", "line_rate", "900G"},
	             "line_rate: 900G is out of range 1Mbit..800Gbit (or 0 or auto for the "
	             "netdev's speed)");
	expect_usage({"dev", "set", "rxe0", "line_rate", "999k"},
	             "line_rate: 999k is out of range");
	expect_usage({"dev", "set", "rxe0", "base_rtt", "10.001s"},
	             "base_rtt: 10.001s is out of range 0..10s");
	expect_usage({"dev", "set", "rxe0", "ack_every", "1025"},
	             "ack_every: 1025 is out of range 0..1024");
	expect_usage({"dev", "set", std::string(64, 'r'), "ecn", "on"},
	             "is too long (at most 63 characters)");
	expect_usage({"qp", "show", std::string(70, 'x')}, "is too long");
	// The limits themselves are accepted.
	ASSERT_EQ(run({"dev", "set", "rxe0", "line_rate", "800G", "base_rtt", "10s", "ack_every",
	               "1024"})
	                  .code,
	          0);
	EXPECT_EQ(k.devs[0].line_rate, 800000000000u);
	ASSERT_EQ(run({"dev", "set", "rxe0", "line_rate", "1M"}).code, 0);
	EXPECT_EQ(k.devs[0].line_rate, 1000000u);
}

// ------------------------------------------------------------ stats

TEST_F(Cli, StatsSnapshot)
{
	RunResult r = run({"stats", "rxe0"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "rxe0:\n"
	                 "    cnp_sent      100\n"
	                 "    cnp_received  40\n"
	                 "    pacer_waits   7\n");
	EXPECT_FALSE(k.calls.back().dump);
	RunResult all = run({"stats"});
	EXPECT_NE(all.out.find("\n\nrxe1:\n    cnp_sent      0\n"), std::string::npos) << all.out;
	EXPECT_TRUE(k.calls.back().dump);
	Json doc = parse(run({"-j", "stats"}).out);
	EXPECT_EQ(str(doc.at(1).at("dev")), "rxe1");
	EXPECT_EQ(u64(doc.at(0).at("stats").at("cnp_received")), 40u);
	EXPECT_EQ(run({"stats", "nope"}).code, 1);
}

TEST_F(Cli, StatsWatchPrintsRatesPerSecond)
{
	// cnp_sent grows by 50 per request, pacer_waits by 1.
	k.before = [](FakeKernel &kk, std::uint8_t cmd) {
		if (cmd != RXE_CC_CMD_STATS_GET)
			return;
		kk.devs[0].stats[0].second += 50;
		kk.devs[0].stats[2].second += 1;
	};
	RunResult r = run({"stats", "rxe0", "-w", "2", "-c", "2"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "rxe0: per second over 2s\n"
	                 "    cnp_sent      25\n"
	                 "    cnp_received  0\n"
	                 "    pacer_waits   0.5\n"
	                 "rxe0: per second over 2s\n"
	                 "    cnp_sent      25\n"
	                 "    cnp_received  0\n"
	                 "    pacer_waits   0.5\n");
	EXPECT_EQ(clock.sleeps, (std::vector<std::uint64_t>{3000000000ULL, 5000000000ULL}));
	EXPECT_TRUE(clock.signals_caught);
	EXPECT_EQ(k.count(RXE_CC_CMD_STATS_GET), 3u);
}

TEST_F(Cli, StatsWatchJsonAndCounterReset)
{
	k.before = [](FakeKernel &kk, std::uint8_t cmd) {
		if (cmd == RXE_CC_CMD_STATS_GET && kk.count(RXE_CC_CMD_STATS_GET) == 2)
			kk.devs[0].stats[0].second = 10; // the module was reloaded
	};
	RunResult r = run({"-j", "stats", "rxe0", "-w", "500ms", "-c", "1"});
	ASSERT_EQ(r.code, 0) << r.err;
	Json doc = parse(r.out);
	EXPECT_EQ(str(doc.at("dev")), "rxe0");
	EXPECT_EQ(u64(doc.at("interval_ns")), 500000000u);
	EXPECT_EQ(u64(doc.at("time_ns")), 1500000000u);
	EXPECT_EQ(u64(doc.at("per_second").at("cnp_sent")), 20u); // 10 since the reset, in 0.5 s
	EXPECT_EQ(u64(doc.at("per_second").at("cnp_received")), 0u);
	// integers stay integers: what scripts read of this line
	EXPECT_NE(r.out.find("\"per_second\":{\"cnp_sent\":20,\"cnp_received\":0,"),
	          std::string::npos)
		<< r.out;
}

TEST_F(Cli, StatsWatchStopsOnInterrupt)
{
	clock.interrupt_at = 3;
	RunResult r = run({"stats", "rxe0", "-w", "1"});
	EXPECT_EQ(r.code, 0);
	EXPECT_EQ(lines(r.out).size(), 8u); // two reports before Ctrl-C
}

TEST_F(Cli, StatsWatchSkipsTicksMissedBySlowReplies)
{
	clock.request_ns = 2500000000ULL; // every request takes 2.5 s
	RunResult r = run({"stats", "rxe0", "-w", "1", "-c", "2"});
	ASSERT_EQ(r.code, 0) << r.err;
	// t0 = 3.5 s after the first request; ticks at 4.5, then the next one
	// after 7 s (end of the second request) is 7.5.
	EXPECT_EQ(clock.sleeps, (std::vector<std::uint64_t>{4500000000ULL, 7500000000ULL}));
	EXPECT_NE(r.out.find("per second over 3.5s"), std::string::npos) << r.out;
}

TEST_F(Cli, StatsOptionErrors)
{
	expect_usage({"stats", "-c", "3"}, "-c needs -w SECONDS");
	expect_usage({"stats", "-w", "0"}, "-w: the period must be longer than 0");
	expect_usage({"stats", "-w", "soon"}, "-w: 'soon' is not a time");
	expect_usage({"stats", "-w", "1", "-c", "0"}, "-c: COUNT must be at least 1");
	expect_usage({"stats", "rxe0", "rxe1"}, "unexpected argument 'rxe1'");
}

// ------------------------------------------------------------ monitor

TEST_F(Cli, MonitorWritesACsvTimeSeries)
{
	// QP 17's rate drops by 1 Gbit/s per poll.
	k.before = [](FakeKernel &kk, std::uint8_t cmd) {
		// Only before rxe0's dump, the first of each poll.
		if (cmd == RXE_CC_CMD_QP_GET && kk.count(RXE_CC_CMD_QP_GET) % 2 == 1) {
			kk.devs[0].qps[0].rate -= 1000000000ULL;
			kk.devs[0].qps[0].state[1].second -= 1000000;
		}
	};
	RunResult r = run({"monitor", "-c", "3", "-i", "100"});
	ASSERT_EQ(r.code, 0) << r.err;
	std::vector<std::string> l = lines(r.out);
	ASSERT_EQ(l.size(), 1u + 3u * 3u) << r.out;
	// the fixed columns, the QP counters, the state of every algorithm
	EXPECT_EQ(l[0],
	          "time_ns,dev,qpn,algo,rate_bps,window_bytes,cnp_rx,cnp_tx,ce_rx,pacer_waits,"
	          "pacer_unused_us,rate_dec,rate_inc,retx_pkts,inflight_bytes,acked_bytes,"
	          "fixed.rate_kbps,fixed.window_bytes,dcqcn.limited,dcqcn.rate_kbps,"
	          "dcqcn.target_rate_kbps,dcqcn.alpha,dcqcn.rate_cuts");
	EXPECT_EQ(l[1], "1000000000,rxe0,17,dcqcn,7500000000,0,5,0,0,7,12,3,1,2,4096,123456789,,,1,"
	                "7500000,10000000,16384,3");
	EXPECT_EQ(l[2], "1000000000,rxe0,18,fixed,100000000,65536,0,0,0,0,0,0,0,0,65536,1048576,"
	                "100000,65536,,,,,");
	// counters the kernel did not report are empty, not 0
	EXPECT_EQ(l[3], "1000000000,rxe1,5,none,0,0,,,,,,,,,,,,,,,,,");
	EXPECT_EQ(l[4], "1100000000,rxe0,17,dcqcn,6500000000,0,5,0,0,7,12,3,1,2,4096,123456789,,,1,"
	                "6500000,10000000,16384,3");
	EXPECT_EQ(l[7], "1200000000,rxe0,17,dcqcn,5500000000,0,5,0,0,7,12,3,1,2,4096,123456789,,,1,"
	                "5500000,10000000,16384,3");
	EXPECT_EQ(clock.sleeps,
	          (std::vector<std::uint64_t>{1000000000ULL, 1100000000ULL, 1200000000ULL}));
	EXPECT_TRUE(clock.signals_caught);
	expect_no_writes();
}

TEST_F(Cli, MonitorOneDeviceForADuration)
{
	RunResult r = run({"monitor", "rxe1", "-t", "1", "-i", "250"});
	ASSERT_EQ(r.code, 0) << r.err;
	std::vector<std::string> l = lines(r.out);
	ASSERT_EQ(l.size(), 5u) << r.out; // polls at 0, 250, 500, 750 ms
	EXPECT_EQ(l[4], "1750000000,rxe1,5,none,0,0,,,,,,,,,,,,,,,,,");
	EXPECT_EQ(clock.now, 2000000000u) << "runs for the whole second";
}

TEST_F(Cli, MonitorToAFile)
{
	std::string path = ::testing::TempDir() + "/rxecc_monitor_test.csv";
	RunResult r = run({"monitor", "rxe0", "-c", "1", "-o", path});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "");
	std::ifstream f(path);
	std::stringstream ss;
	ss << f.rdbuf();
	EXPECT_EQ(lines(ss.str()).size(), 3u) << ss.str();
	EXPECT_EQ(ss.str().find("time_ns,dev,qpn,"), 0u);
	RunResult bad = run({"monitor", "-c", "1", "-o", "/nonexistent/dir/x.csv"});
	EXPECT_EQ(bad.code, 1);
	EXPECT_EQ(bad.err,
	          "rxecc: cannot write '/nonexistent/dir/x.csv': No such file or directory\n");
}

TEST_F(Cli, MonitorWithEvents)
{
	// An event carries the QP's state and counters at its time.
	k.events.emplace_back(1050000000ULL,
	                      FakeKernel::rate_event("rxe0", 17, "dcqcn", 4000000000ULL, 0,
	                                             1049000000ULL,
	                                             RXE_CC_EVENT_RATE_DEC | RXE_CC_EVENT_LIMIT,
	                                             {{"limited", 1},
	                                              {"rate_kbps", 4000000},
	                                              {"target_rate_kbps", 8500000},
	                                              {"alpha", 20000},
	                                              {"rate_cuts", 4}},
	                                             {{"cnp_rx", 6},
	                                              {"cnp_tx", 0},
	                                              {"ce_rx", 0},
	                                              {"pacer_waits", 9},
	                                              {"pacer_unused_us", 12},
	                                              {"rate_dec", 4},
	                                              {"rate_inc", 1},
	                                              {"retx_pkts", 2},
	                                              {"inflight_bytes", 8192},
	                                              {"acked_bytes", 123500000}}));
	k.events.emplace_back(1060000000ULL, FakeKernel::rate_event("rxe1", 5, "none", 0, 0,
	                                                            1059000000ULL, 1U << 7));
	// an event of a kernel that sends neither: those columns stay empty
	k.events.emplace_back(1070000000ULL,
	                      FakeKernel::rate_event("rxe0", 18, "fixed", 1000000, 0, 1069000000ULL,
	                                             RXE_CC_EVENT_RATE_DEC));
	RunResult r = run({"monitor", "rxe0", "-e", "-c", "2", "-i", "100"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_TRUE(k.subscribed);
	std::vector<std::string> l = lines(r.out);
	ASSERT_EQ(l.size(), 1u + 2u + 2u + 2u) << r.out;
	EXPECT_EQ(l[0].substr(l[0].size() - 22), ",dcqcn.rate_cuts,event");
	EXPECT_EQ(l[1], "1000000000,rxe0,17,dcqcn,8500000000,0,5,0,0,7,12,3,1,2,4096,123456789,,,1,"
	                "8500000,10000000,16384,3,");
	// The event rows between the polls; rxe1's event is filtered out.
	EXPECT_EQ(l[3], "1049000000,rxe0,17,dcqcn,4000000000,0,6,0,0,9,12,4,1,2,8192,123500000,,,1,"
	                "4000000,8500000,20000,4,rate_dec|limit");
	EXPECT_EQ(l[4], "1069000000,rxe0,18,fixed,1000000,0,,,,,,,,,,,,,,,,,,rate_dec");
	EXPECT_EQ(l[5].substr(0, 11), "1100000000,");
	// Unknown bits are shown in hex.
	k.events.emplace_back(
		clock.now + 1,
		FakeKernel::rate_event("rxe1", 5, "none", 0, 0, 7,
	                               RXE_CC_EVENT_RELEASE | RXE_CC_EVENT_HALT | 0x40));
	r = run({"monitor", "-e", "-c", "2", "-i", "100"});
	EXPECT_NE(r.out.find(",release|halt|0x40\n"), std::string::npos) << r.out;
}

TEST_F(Cli, MonitorStopsOnInterruptAndOnErrors)
{
	clock.interrupt_at = 2;
	RunResult r = run({"monitor"});
	EXPECT_EQ(r.code, 0);
	EXPECT_EQ(lines(r.out).size(), 4u); // header, one poll
	// The device goes away while monitored.
	clock.interrupt_at = 0;
	clock.stopped = false;
	k.calls.clear();
	k.before = [](FakeKernel &kk, std::uint8_t cmd) {
		if (cmd == RXE_CC_CMD_QP_GET && kk.count(RXE_CC_CMD_QP_GET) == 2)
			kk.devs.erase(kk.devs.begin());
	};
	r = run({"monitor", "rxe0", "-c", "5"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err.find("rxecc: device 'rxe0' not found"), 0u) << r.err;
	EXPECT_EQ(lines(r.out).size(), 3u);
}

TEST_F(Cli, MonitorOptionErrors)
{
	expect_usage({"monitor", "-c", "1", "-t", "1"}, "-c and -t exclude each other");
	expect_usage({"monitor", "-i", "0"}, "-i: the interval must be longer than 0");
	expect_usage({"monitor", "-i", "fast"}, "-i: 'fast' is not a time");
	expect_usage({"monitor", "-t", "0"}, "-t: the duration must be longer than 0");
	expect_usage({"monitor", "-c", "many"}, "-c: 'many' is not a number");
	expect_usage({"monitor", "rxe0", "rxe1"}, "unexpected argument 'rxe1'");
	RunResult r = run({"monitor", "rxe8", "-c", "1"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.out, "") << "no header for a device that does not exist";
}

TEST_F(Cli, MonitorIntervalWithUnitAndSlowKernel)
{
	clock.request_ns = 150000000ULL; // 150 ms per request, polling every 100 ms
	RunResult r = run({"monitor", "rxe1", "-c", "3", "-i", "100ms"});
	ASSERT_EQ(r.code, 0);
	std::vector<std::string> l = lines(r.out);
	ASSERT_EQ(l.size(), 4u);
	// Before the loop: ALGO_GET and DEV_GET took 300 ms (t0 = 1.3 s); each
	// poll ends 150 ms after its tick and the next tick is the first one
	// after that.
	EXPECT_EQ(clock.sleeps,
	          (std::vector<std::uint64_t>{1300000000ULL, 1500000000ULL, 1700000000ULL}));
	EXPECT_EQ(l[1].substr(0, 11), "1450000000,");
}

// ------------------------------------------------------------ SFC

// The top-level attributes of a request: type -> the integer or string.
std::map<std::uint16_t, std::string> attrs_of(const Call &c)
{
	std::vector<nl::Attr> top;
	EXPECT_TRUE(nl::parse_attrs(c.attrs.data(), c.attrs.size(), top));
	std::map<std::uint16_t, std::string> m;
	for (const nl::Attr &a : top) {
		std::string v;
		if (a.type == RXE_CC_A_DEV_NAME || a.type == RXE_CC_A_ALGO)
			v = a.as_string();
		else if (a.type != RXE_CC_A_PARAMS)
			v = std::to_string(a.as_uint().value_or(~0ULL)) + "/" +
			    std::to_string(a.len);
		EXPECT_TRUE(m.emplace(a.type, v).second) << "attribute " << a.type << " twice";
	}
	return m;
}

using AttrMap = std::map<std::uint16_t, std::string>;

TEST_F(Cli, DevSetSfcSendsExactlyItsAttributes)
{
	RunResult r =
		run({"dev", "set", "rxe1", "sfc", "on", "sfc_max", "20ms", "sfc_mode", "max"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "");
	ASSERT_EQ(k.calls.back().cmd, RXE_CC_CMD_DEV_SET);
	// value/length: u8, u32, u8
	EXPECT_EQ(attrs_of(k.calls.back()), (AttrMap{{RXE_CC_A_DEV_NAME, "rxe1"},
	                                             {RXE_CC_A_SFC, "1/1"},
	                                             {RXE_CC_A_SFC_MAX_US, "20000/4"},
	                                             {RXE_CC_A_SFC_MODE, "1/1"}}));
	EXPECT_EQ(k.devs[1].sfc, 1);
	EXPECT_EQ(k.devs[1].sfc_max_us, 20000u);
	EXPECT_EQ(k.devs[1].sfc_mode, RXE_CC_SFC_MODE_MAX);

	// one at a time, with the other settings, in any order
	ASSERT_EQ(
		run({"dev", "set", "rxe1", "sfc_mode", "replace", "ecn", "on", "sfc", "off"}).code,
		0);
	EXPECT_EQ(attrs_of(k.calls.back()), (AttrMap{{RXE_CC_A_DEV_NAME, "rxe1"},
	                                             {RXE_CC_A_ECN, "1/1"},
	                                             {RXE_CC_A_SFC, "0/1"},
	                                             {RXE_CC_A_SFC_MODE, "0/1"}}));
	EXPECT_EQ(k.devs[1].sfc, 0);
	EXPECT_EQ(k.devs[1].sfc_max_us, 20000u) << "not sent, not changed";
	EXPECT_EQ(k.devs[1].sfc_mode, RXE_CC_SFC_MODE_REPLACE);
	ASSERT_EQ(run({"dev", "set", "rxe1", "sfc_max", "1s"}).code, 0);
	EXPECT_EQ(k.devs[1].sfc_max_us, 1000000u);
	ASSERT_EQ(run({"dev", "set", "rxe1", "sfc_max", "1us"}).code, 0);
	EXPECT_EQ(k.devs[1].sfc_max_us, 1u);
	ASSERT_EQ(run({"dev", "set", "rxe1", "sfc_max", "0.5ms"}).code, 0);
	EXPECT_EQ(k.devs[1].sfc_max_us, 500u);
	// and the algorithm's parameters still go to the algorithm
	ASSERT_EQ(run({"dev", "set", "rxe0", "rp_gd", "12", "sfc", "off"}).code, 0);
	AttrMap a = attrs_of(k.calls.back());
	EXPECT_EQ(a.count(RXE_CC_A_PARAMS), 1u);
	EXPECT_EQ(a.at(RXE_CC_A_SFC), "0/1");
	EXPECT_EQ(k.devs[0].sfc, 0);
}

TEST_F(Cli, DevSetSfcRejectsBadValuesBeforeSending)
{
	const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
		{{"sfc", "maybe"}, "sfc: 'maybe' is not on or off"},
		{{"sfc"}, "'sfc' needs a value"},
		{{"sfc_max"}, "'sfc_max' needs a value"},
		{{"sfc_mode"}, "'sfc_mode' needs a value"},
		{{"sfc_max", "0"}, "sfc_max: '0' is out of range 1us..1s"},
		{{"sfc_max", "0ms"}, "sfc_max: '0ms' is out of range 1us..1s"},
		{{"sfc_max", "1.5s"}, "sfc_max: '1.5s' is out of range 1us..1s"},
		{{"sfc_max", "1500ns"}, "sfc_max: '1500ns' is not a whole number of microseconds"},
		{{"sfc_max", "50"}, "sfc_max: '50' is not a time: it needs a unit"},
		{{"sfc_max", "long"}, "sfc_max: 'long' is not a time"},
		{{"sfc_mode", "newest"}, "sfc_mode: 'newest' is not replace or max"},
		{{"sfc", "on", "sfc", "off"}, "'sfc' is given twice"},
		{{"sfc", "on", "sfc_max", "0"}, "sfc_max: '0' is out of range"},
	};
	for (const auto &[tail, msg] : cases) {
		std::vector<std::string> args = {"dev", "set", "rxe0"};
		args.insert(args.end(), tail.begin(), tail.end());
		expect_usage(args, msg);
	}
	expect_usage({"dev", "set", "sfc", "on"}, "missing DEV before 'sfc'");
	EXPECT_EQ(k.devs[0].sfc, 1);
	EXPECT_EQ(k.devs[0].sfc_max_us, 50000u);
}

TEST_F(Cli, DevShowSfc)
{
	k.devs[0].sfc_max_us = 1500;
	k.devs[0].sfc_mode = RXE_CC_SFC_MODE_MAX;
	RunResult r = run({"dev", "show"});
	ASSERT_EQ(r.code, 0) << r.err;
	std::vector<std::string> l = lines(r.out);
	ASSERT_GE(l.size(), 2u) << r.out;
	EXPECT_EQ(l[1], "    dscp_prio 26:3,48:6 sfc on sfc_max 1.5ms sfc_mode max");
	EXPECT_NE(r.out.find("\n    dscp_prio 26:3,48:6 sfc off sfc_max 50ms sfc_mode replace\n"),
	          std::string::npos)
		<< r.out;

	Json doc = parse(run({"-j", "dev", "show"}).out);
	const Json &d = doc.at(0);
	EXPECT_EQ(d.at("sfc"), Json(true));
	EXPECT_EQ(u64(d.at("sfc_max_us")), 1500u);
	EXPECT_EQ(str(d.at("sfc_mode")), "max");
	EXPECT_EQ(doc.at(1).at("sfc"), Json(false));
	EXPECT_EQ(u64(doc.at(1).at("sfc_max_us")), 50000u);
	EXPECT_EQ(str(doc.at(1).at("sfc_mode")), "replace");

	// what 'dev show' prints, 'dev set' takes back
	ASSERT_EQ(run({"dev", "set", "rxe1", "sfc_max", "1.5ms", "sfc_mode", "max"}).code, 0);
	EXPECT_EQ(k.devs[1].sfc_max_us, 1500u);

	// a mode this rxecc does not know is shown as its number
	k.devs[1].sfc_mode = 1;
	k.mangle = [](std::uint8_t cmd, std::vector<GenlMsg> &replies) {
		if (cmd != RXE_CC_CMD_DEV_GET)
			return;
		for (GenlMsg &m : replies) {
			nl::AttrWriter w;
			w.put_string(RXE_CC_A_DEV_NAME, "rxe1");
			w.put_u8(RXE_CC_A_SFC_MODE, 7);
			m.attrs = w.bytes();
		}
	};
	EXPECT_EQ(run({"dev", "show", "rxe1"}).out, "rxe1: algo - sfc_mode 7\n");
	EXPECT_EQ(str(parse(run({"-j", "dev", "show", "rxe1"}).out).at(0).at("sfc_mode")), "7");
}

TEST_F(Cli, DevShowOfAKernelWithoutSfcLeavesItOut)
{
	k.sfc_attrs = false;
	RunResult r = run({"dev", "show", "rxe1"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out,
	          "rxe1: algo none line_rate auto base_rtt unknown ecn off ack_every default "
	          "cnp_dscp 48 ack_dscp own\n    dscp_prio 26:3,48:6\n");
	Json d = parse(run({"-j", "dev", "show", "rxe1"}).out).at(0);
	EXPECT_FALSE(d.contains("sfc")) << "missing, not off";
	EXPECT_FALSE(d.contains("sfc_max_us"));
	EXPECT_FALSE(d.contains("sfc_mode"));
	// such a kernel refuses the attribute; the reason is shown
	r = run({"dev", "set", "rxe1", "sfc", "on"});
	EXPECT_EQ(r.code, 1);
	EXPECT_NE(r.err.find("unknown attribute type " + std::to_string(RXE_CC_A_SFC)),
	          std::string::npos)
		<< r.err;
}

TEST_F(Cli, QpSetSfcAloneKeepsTheAlgorithm)
{
	const FakeQp before = *k.devs[0].qp(18);
	RunResult r = run({"qp", "set", "rxe0", "18", "sfc", "on"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out, "");
	ASSERT_EQ(k.calls.back().cmd, RXE_CC_CMD_QP_SET);
	EXPECT_EQ(attrs_of(k.calls.back()), (AttrMap{{RXE_CC_A_DEV_NAME, "rxe0"},
	                                             {RXE_CC_A_QPN, "18/4"},
	                                             {RXE_CC_A_SFC, "1/1"}}));
	const FakeQp &q = *k.devs[0].qp(18);
	EXPECT_TRUE(q.sfc);
	EXPECT_EQ(q.algo, before.algo);
	EXPECT_EQ(q.params, before.params);
	EXPECT_EQ(k.count(RXE_CC_CMD_ALGO_GET), 0u) << "no algorithm to look up";
	// the QP was looked up before the write
	EXPECT_EQ(k.calls[k.calls.size() - 2].cmd, RXE_CC_CMD_QP_GET);

	// off ends the pause in force
	ASSERT_EQ(run({"qp", "set", "rxe0", "17", "sfc", "off"}).code, 0);
	EXPECT_EQ(attrs_of(k.calls.back()).at(RXE_CC_A_SFC), "0/1");
	EXPECT_FALSE(k.devs[0].qp(17)->sfc);
	EXPECT_EQ(k.devs[0].qp(17)->algo, "dcqcn");
	EXPECT_NE(run({"qp", "show", "rxe0", "17"}).out.find(" pause_left 0 "), std::string::npos);
}

TEST_F(Cli, QpSetAlgoAndSfcInOneRequest)
{
	RunResult r = run(
		{"qp", "set", "rxe0", "17", "algo", "fixed", "rate_kbps", "5Mbit", "sfc", "off"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(k.count(RXE_CC_CMD_QP_SET), 1u);
	AttrMap a = attrs_of(k.calls.back());
	EXPECT_EQ(a, (AttrMap{{RXE_CC_A_DEV_NAME, "rxe0"},
	                      {RXE_CC_A_QPN, "17/4"},
	                      {RXE_CC_A_ALGO, "fixed"},
	                      {RXE_CC_A_PARAMS, ""},
	                      {RXE_CC_A_SFC, "0/1"}}));
	const FakeQp &q = *k.devs[0].qp(17);
	EXPECT_EQ(q.algo, "fixed");
	EXPECT_EQ(q.params, (Values{{"rate_kbps", 5000}, {"window_bytes", 0}}));
	EXPECT_FALSE(q.sfc);
	// sfc anywhere after QPN
	ASSERT_EQ(run({"qp", "set", "rxe0", "17", "sfc", "yes", "algo", "none"}).code, 0);
	EXPECT_TRUE(k.devs[0].qp(17)->sfc);
	EXPECT_EQ(k.devs[0].qp(17)->algo, "none");
	// without sfc, none is sent
	ASSERT_EQ(run({"qp", "set", "rxe0", "17", "algo", "fixed"}).code, 0);
	EXPECT_EQ(attrs_of(k.calls.back()).count(RXE_CC_A_SFC), 0u);
	EXPECT_TRUE(k.devs[0].qp(17)->sfc);
}

TEST_F(Cli, QpSetSfcErrors)
{
	expect_usage({"qp", "set", "rxe0", "17", "sfc"}, "'sfc' needs a value");
	expect_usage({"qp", "set", "rxe0", "17", "sfc", "maybe"}, "sfc: 'maybe' is not on or off");
	expect_usage({"qp", "set", "rxe0", "17", "sfc", "on", "sfc", "off"},
	             "'sfc' is given twice");
	expect_usage({"qp", "set", "rxe0", "17", "rate_kbps", "5", "sfc", "on"},
	             "missing 'algo NAME' for parameter 'rate_kbps' (the QP's algorithm, even "
	             "if unchanged)");
	expect_usage({"qp", "set", "rxe0", "17"},
	             "missing 'algo NAME' (the QP's algorithm, even if unchanged) or 'sfc on|off'");
	expect_usage({"qp", "set", "sfc", "on"}, "missing DEV");
	expect_usage({"qp", "set", "rxe0", "sfc", "on"}, "missing QPN");
	expect_usage({"qp", "set", "rxe0", "17", "algo", "fixed", "rate", "1", "sfc", "on"},
	             "algorithm 'fixed' has no parameter 'rate'", true);

	// from the kernel: SFC is for RC QPs, and nothing is changed
	k.devs[1].qps[0].rc = false;
	RunResult r = run({"qp", "set", "rxe1", "5", "sfc", "on"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err,
	          "rxecc: qp set rxe1 5: SFC pauses RC QPs only (Operation not supported)\n");
	r = run({"qp", "set", "rxe1", "5", "algo", "none", "sfc", "on"});
	EXPECT_EQ(r.code, 1);
	EXPECT_NE(r.err.find("SFC pauses RC QPs only"), std::string::npos) << r.err;
	EXPECT_FALSE(k.devs[1].qps[0].sfc);
	r = run({"qp", "set", "rxe0", "99", "sfc", "on"});
	EXPECT_EQ(r.code, 1);
	EXPECT_EQ(r.err, "rxecc: QP 99 not found on rxe0 (kernel: no QP 99 on rxe0)\n");
}

TEST_F(Cli, QpShowSfc)
{
	// QP 17 takes BTS; QP 18 does not and never did: no SFC line
	RunResult r = run({"qp", "show", "rxe0"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_NE(r.out.find("retx 2 sfc on\n"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("\n    sfc: bts_rx 4 bts_cache 1 bts_clamped 1 bts_capped 0 "
	                     "pause_starts 2 pause_last 500us\n"
	                     "         pause_left 120us paused 1.5ms\n"),
	          std::string::npos)
		<< r.out;
	EXPECT_EQ(r.out.find("sfc: bts_rx 0"), std::string::npos) << r.out;
	for (const std::string &line : lines(r.out))
		EXPECT_LE(line.size(), 100u) << line;

	// a QP that no longer takes BTS but took some keeps its line
	for (auto &[name, value] : k.devs[0].qp(18)->stats)
		if (name == "bts_capped")
			value = 3;
	r = run({"qp", "show", "rxe0", "18"});
	EXPECT_NE(r.out.find("retx 0 sfc off\n"), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("    sfc: bts_rx 0 bts_cache 0 bts_clamped 0 bts_capped 3 "),
	          std::string::npos)
		<< r.out;

	// -d: the SFC counters once, grouped, not among the others
	r = run({"-d", "qp", "show", "rxe0", "17"});
	EXPECT_NE(r.out.find("    sfc: bts_rx 4 "), std::string::npos) << r.out;
	EXPECT_NE(r.out.find("        inflight_bytes 4096 acked_bytes 123456789\n"),
	          std::string::npos)
		<< r.out;
	EXPECT_EQ(r.out.find("bts_rx 4", r.out.find("counters:")), std::string::npos) << r.out;

	Json doc = parse(run({"-j", "qp", "show"}).out);
	ASSERT_EQ(doc.size(), 3u);
	EXPECT_EQ(doc.at(0).at("sfc"), Json(true));
	EXPECT_EQ(doc.at(0).at("sfc_stats"), (Json{{"bts_rx", 4},
	                                           {"bts_cache", 1},
	                                           {"bts_clamped", 1},
	                                           {"bts_capped", 0},
	                                           {"pause_starts", 2},
	                                           {"pause_last_us", 500},
	                                           {"pause_left_us", 120},
	                                           {"paused_us", 1500}}));
	EXPECT_EQ(doc.at(1).at("sfc"), Json(false));
	EXPECT_EQ(u64(doc.at(1).at("sfc_stats").at("bts_capped")), 3u);
	EXPECT_EQ(doc.at(2).at("sfc"), Json(false));
	EXPECT_FALSE(doc.at(2).contains("sfc_stats")) << "QP 5 reports no counters";
}

TEST_F(Cli, QpShowOfAKernelWithoutSfcLeavesItOut)
{
	k.sfc_attrs = false;
	for (FakeDev &d : k.devs)
		for (FakeQp &q : d.qps) {
			Values keep;
			for (const auto &nv : q.stats)
				if (!is_sfc_stat(nv.first))
					keep.push_back(nv);
			q.stats = keep;
		}
	RunResult r = run({"qp", "show"});
	ASSERT_EQ(r.code, 0) << r.err;
	EXPECT_EQ(r.out.find("sfc"), std::string::npos) << r.out;
	r = run({"-d", "qp", "show", "rxe0", "17"});
	EXPECT_EQ(r.out.find("sfc"), std::string::npos) << r.out;
	Json doc = parse(run({"-j", "qp", "show"}).out);
	for (const Json &q : doc) {
		EXPECT_FALSE(q.contains("sfc")) << q;
		EXPECT_FALSE(q.contains("sfc_stats")) << q;
	}
	// a QP that takes BTS per the kernel, with counters not reported yet
	k.sfc_attrs = true;
	r = run({"qp", "show", "rxe0", "17"});
	EXPECT_NE(r.out.find("retx 2 sfc on\n"), std::string::npos) << r.out;
	EXPECT_EQ(r.out.find("sfc:"), std::string::npos) << r.out;
}

} // namespace
} // namespace rxecc::test
