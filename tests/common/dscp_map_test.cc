// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The DSCP map grammar of rxe's dscp_prio, rxecc and the fabric, and the
// testbed's classes (scripts/testbed.env) against it and against rxe's
// built-in default.
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>

#include "dscp_map.h"

namespace rxecc::dscp
{
namespace
{

Map with(std::initializer_list<std::pair<int, int>> entries)
{
	Map m{};
	for (auto [d, p] : entries)
		m[static_cast<std::size_t>(d)] = static_cast<std::uint8_t>(p);
	return m;
}

TEST(DscpMap, ParsesPairs)
{
	EXPECT_EQ(parse("26:3,48:6"), with({{26, 3}, {48, 6}}));
	EXPECT_EQ(parse("0:7"), with({{0, 7}}));
	EXPECT_EQ(parse("63:1,0:2"), with({{63, 1}, {0, 2}}));
	// a DSCP may be named with priority 0, as the default is
	EXPECT_EQ(parse("26:0"), Map{});
	EXPECT_EQ(parse("026:03"), with({{26, 3}}));
}

TEST(DscpMap, EmptyIsAllZero)
{
	std::optional<Map> m = parse("");
	ASSERT_TRUE(m);
	for (std::uint8_t p : *m)
		EXPECT_EQ(p, 0);
}

TEST(DscpMap, RejectsWhatTheKernelRejects)
{
	const std::map<std::string, std::string> bad = {
		{"64:1", "'64:1': DSCP 64 is not 0..63"},
		{"26:8", "'26:8': priority 8 is not 0..7"},
		{"26:3,26:4", "DSCP 26 is named twice"},
		{"26:3,", "'' is not DSCP:PRIO (example: 26:3,48:6)"},
		{",26:3", "'' is not DSCP:PRIO"},
		{"26", "'26' is not DSCP:PRIO"},
		{"26:", "'26:': '' is not a priority (0..7)"},
		{":3", "':3': '' is not a DSCP (0..63)"},
		{"x:3", "'x:3': 'x' is not a DSCP (0..63)"},
		{"26:-1", "'26:-1': '-1' is not a priority"},
		{"26:3 ", "'26:3 ': '3 ' is not a priority"},
		{" 26:3", "' 26:3': ' 26' is not a DSCP"},
		{"26:3;48:6", "'3;48:6' is not a priority"},
		{"1000:1", "'1000' is not a DSCP"},
		{"26:3:1", "'3:1' is not a priority"},
	};
	for (const auto &[text, why] : bad) {
		std::string err;
		EXPECT_FALSE(parse(text, &err)) << text;
		EXPECT_NE(err.find(why), std::string::npos) << text << ": " << err;
	}
	EXPECT_FALSE(parse("99:9")) << "no error text asked for";
}

TEST(DscpMap, FormatsTheNonZeroEntriesInOrder)
{
	EXPECT_EQ(format(with({{48, 6}, {26, 3}})), "26:3,48:6");
	EXPECT_EQ(format(Map{}), "");
	Map all{};
	for (std::size_t d = 0; d < kDscps; ++d)
		all[d] = static_cast<std::uint8_t>(d % kPriorities);
	EXPECT_EQ(parse(format(all)), all);
	EXPECT_EQ(format(conventional()), "26:3,48:6");
}

// scripts/testbed.env's variables, as bash sees them after sourcing it.
std::map<std::string, std::string> testbed_env()
{
	const std::string cmd = std::string("bash -c '. \"") + RXECC_TESTBED_ENV +
	                        "\" && for v in RXECC_DATA_DSCP RXECC_DATA_PRIO RXECC_CNP_DSCP "
	                        "RXECC_CNP_PRIO RXECC_DSCP_PRIO RXECC_DATA_TCLASS "
	                        "RXECC_DATA_TCLASS_ECT0; do echo \"$v=${!v}\"; done'";
	std::map<std::string, std::string> vars;
	FILE *p = popen(cmd.c_str(), "r");
	EXPECT_NE(p, nullptr);
	if (!p)
		return vars;
	char line[256];
	while (std::fgets(line, sizeof(line), p)) {
		std::string l(line);
		if (!l.empty() && l.back() == '\n')
			l.pop_back();
		std::size_t eq = l.find('=');
		if (eq != std::string::npos)
			vars[l.substr(0, eq)] = l.substr(eq + 1);
	}
	EXPECT_EQ(pclose(p), 0);
	return vars;
}

unsigned number(const std::map<std::string, std::string> &vars, const std::string &name)
{
	auto it = vars.find(name);
	EXPECT_NE(it, vars.end()) << name;
	if (it == vars.end())
		return 9999;
	std::size_t used = 0;
	unsigned v = static_cast<unsigned>(std::stoul(it->second, &used));
	EXPECT_EQ(used, it->second.size()) << name << "=" << it->second;
	return v;
}

TEST(TestbedEnv, ClassesAgreeWithTheMapAndTheTrafficClasses)
{
	const auto vars = testbed_env();
	const unsigned data = number(vars, "RXECC_DATA_DSCP"),
		       data_prio = number(vars, "RXECC_DATA_PRIO");
	const unsigned cnp = number(vars, "RXECC_CNP_DSCP"),
		       cnp_prio = number(vars, "RXECC_CNP_PRIO");
	ASSERT_LT(data, kDscps);
	ASSERT_LT(cnp, kDscps);
	EXPECT_NE(data, cnp);
	EXPECT_NE(data_prio, cnp_prio) << "CNPs must not share the paused priority";
	std::string err;
	std::optional<Map> m = parse(vars.at("RXECC_DSCP_PRIO"), &err);
	ASSERT_TRUE(m) << err;
	Map want{};
	want[data] = static_cast<std::uint8_t>(data_prio);
	want[cnp] = static_cast<std::uint8_t>(cnp_prio);
	EXPECT_EQ(*m, want);
	// ToS = DSCP << 2 | ECN (RFC 2474, 3168): Not-ECT 0, ECT(0) 2
	EXPECT_EQ(number(vars, "RXECC_DATA_TCLASS"), data * 4);
	EXPECT_EQ(number(vars, "RXECC_DATA_TCLASS_ECT0"), data * 4 + 2);
}

TEST(TestbedEnv, IsTheConventionalMapOfRxeAndTheFabric)
{
	const auto vars = testbed_env();
	EXPECT_EQ(vars.at("RXECC_DSCP_PRIO"), "26:3,48:6");
	EXPECT_EQ(parse(vars.at("RXECC_DSCP_PRIO")), conventional());
	// rxe's dscp_prio module parameter starts out as the same map
	std::ifstream f(RXECC_PFC_C);
	ASSERT_TRUE(f.is_open()) << RXECC_PFC_C;
	std::stringstream ss;
	ss << f.rdbuf();
	const std::string src = ss.str();
	std::smatch match;
	ASSERT_TRUE(std::regex_search(
		src, match, std::regex(R"re(char rxe_pfc_dscp_prio\[[A-Z_]+\] = "([^"]*)";)re")))
		<< "the default of dscp_prio in rxe_pfc.c";
	EXPECT_EQ(parse(match[1].str()), conventional()) << match[1];
}

} // namespace
} // namespace rxecc::dscp
