// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The request generator of rxecc-nlfuzz: a seed gives one sequence, and the
// sequence covers every command and every kind of fault.
#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <rdma/rxe_cc.h>
#include <set>

#include "gen.h"
#include "nlattr.h"

using namespace rxecc::nlfuzz;

namespace
{

Target target()
{
	Target t;
	t.devs = {"rxe_a", "rxe_b"};
	t.algos = {{"none", {}},
	           {"fixed", {{"rate_kbps", 1, 800000000}}},
	           {"dcqcn", {{"rp_g", 1, 1024}, {"np_cnp_dscp", 0, 63}}}};
	t.qpns = {17, 18};
	return t;
}

} // namespace

TEST(NlfuzzGen, ASeedGivesOneSequence)
{
	Generator a(42), b(42), c(43);
	Target t = target();
	bool differs = false;
	for (int i = 0; i < 500; i++) {
		Request x = a.next(t), y = b.next(t), z = c.next(t);
		ASSERT_EQ(x.cmd, y.cmd) << i;
		ASSERT_EQ(x.dump, y.dump) << i;
		ASSERT_EQ(x.attrs, y.attrs) << i;
		ASSERT_EQ(x.what, y.what) << i;
		differs |= x.attrs != z.attrs;
	}
	EXPECT_TRUE(differs);
}

TEST(NlfuzzGen, CoversEveryCommandAndKind)
{
	Generator g(7);
	Target t = target();
	std::set<std::pair<int, bool>> cmds;
	std::set<Expect> kinds;
	unsigned bad_sets = 0, ok_sets = 0;
	for (int i = 0; i < 5000; i++) {
		Request r = g.next(t);
		cmds.insert({r.cmd, r.dump});
		kinds.insert(r.expect);
		if (r.cmd == RXE_CC_CMD_DEV_SET)
			(r.expect == Expect::kReject ? bad_sets : ok_sets)++;
		// a request that may change the configuration is never one that
		// must be refused
		EXPECT_FALSE(r.may_change && r.expect == Expect::kReject) << r.what;
	}
	for (int c = RXE_CC_CMD_ALGO_GET; c <= RXE_CC_CMD_STATS_GET; c++)
		EXPECT_TRUE(cmds.count({c, false}) || cmds.count({c, true})) << c;
	EXPECT_TRUE(cmds.count({RXE_CC_CMD_DEV_GET, true}));
	EXPECT_TRUE(cmds.count({RXE_CC_CMD_RATE_EVENT, false}));
	EXPECT_EQ(kinds.size(), 3u);
	EXPECT_GT(bad_sets, 100u);
	EXPECT_GT(ok_sets, 100u);
}

TEST(NlfuzzGen, DevSetNeverRepeatsAnAttribute)
{
	// netlink keeps the last of two equal attributes: a bad value followed by
	// a good one would be a valid request
	Generator g(11);
	Target t = target();
	for (int i = 0; i < 3000; i++) {
		Request r = g.next(t);
		if (r.cmd != RXE_CC_CMD_DEV_SET || r.what.find("twice") != std::string::npos)
			continue;
		std::vector<rxecc::nl::Attr> v;
		if (!rxecc::nl::parse_attrs(r.attrs.data(), r.attrs.size(), v))
			continue; // malformed on purpose
		std::set<int> seen;
		for (const auto &a : v)
			EXPECT_TRUE(seen.insert(a.type).second) << r.what;
	}
}

TEST(NlfuzzGen, ParamsNestIsWellFormed)
{
	auto b = params_nest({{"rate_kbps", 1000}, {"x", 2}});
	std::vector<rxecc::nl::Attr> v;
	ASSERT_TRUE(rxecc::nl::parse_attrs(b.data(), b.size(), v));
	ASSERT_EQ(v.size(), 2u);
	EXPECT_EQ(v[0].type, RXE_CC_A_PARAM);
	std::vector<rxecc::nl::Attr> f;
	ASSERT_TRUE(rxecc::nl::parse_nested(v[0], f));
	ASSERT_EQ(f.size(), 2u);
	EXPECT_EQ(f[0].as_string(), "rate_kbps");
	EXPECT_EQ(f[1].as_uint().value_or(0), 1000u);
}
