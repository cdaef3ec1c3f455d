// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Schedule generators: the flows each writes, Poisson load against the
// target (fixed seeds; tolerances are standard errors of a compound Poisson
// sum, computed from the size distribution), and bad parameters.
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "generators.h"
#include "text.h"

namespace
{

using namespace rxecc::traffic;

SizeCdf shipped(const std::string &name)
{
	std::string text, err;
	const std::string path = std::string(RXECC_TRAFFIC_CDF_DIR) + "/" + name + ".cdf";
	EXPECT_TRUE(read_file(path, text, &err)) << err;
	auto c = SizeCdf::parse(text, path, &err);
	EXPECT_TRUE(c) << err;
	return c ? *c : SizeCdf{};
}

// Every generated schedule parses back to the same flows.
void round_trip(const Schedule &s)
{
	std::string err;
	auto back = parse_schedule(format_schedule(s), "gen", &err);
	ASSERT_TRUE(back) << err;
	ASSERT_EQ(back->flows.size(), s.flows.size());
	for (size_t i = 0; i < s.flows.size(); i++)
		EXPECT_EQ(format_flow(back->flows[i]), format_flow(s.flows[i]));
}

TEST(Generators, Incast)
{
	IncastParams p;
	p.senders = {"h1", "h2", "h3"};
	p.receiver = "r";
	p.size_bytes = 20000;
	p.repeats = 2;
	p.period_ns = 5000000;
	p.start_ns = 1000;
	p.opt.verb = Verb::kSend;
	std::string err;
	auto s = gen_incast(p, &err);
	ASSERT_TRUE(s) << err;
	ASSERT_EQ(s->flows.size(), 6u);
	EXPECT_EQ(s->flows[0].name, "incast0.h1");
	EXPECT_EQ(s->flows[5].name, "incast1.h3");
	EXPECT_EQ(s->flows[4].src, "h2");
	EXPECT_EQ(s->flows[4].dst, "r");
	EXPECT_EQ(s->flows[2].start_ns, 1000u);
	EXPECT_EQ(s->flows[3].start_ns, 5001000u);
	for (const auto &f : s->flows) {
		EXPECT_EQ(f.size_bytes, 20000u);
		EXPECT_EQ(f.opt.verb, Verb::kSend);
	}
	round_trip(*s);

	p.senders = {"h1", "r"};
	EXPECT_FALSE(gen_incast(p, &err));
	EXPECT_EQ(err, "the receiver 'r' is also a sender");
	p.senders = {"h1", "h1"};
	EXPECT_FALSE(gen_incast(p, &err));
	EXPECT_EQ(err, "senders: host 'h1' named twice");
	p.senders = {"h1"};
	p.period_ns = 0;
	EXPECT_FALSE(gen_incast(p, &err));
	EXPECT_EQ(err, "repeats > 1 needs a period longer than 0");
}

TEST(Generators, AllToAll)
{
	AllToAllParams p;
	p.hosts = {"a", "b", "c"};
	p.size_bytes = 1000;
	std::string err;
	auto s = gen_alltoall(p, &err);
	ASSERT_TRUE(s) << err;
	ASSERT_EQ(s->flows.size(), 6u);
	std::set<std::pair<std::string, std::string>> pairs;
	for (const auto &f : s->flows) {
		EXPECT_NE(f.src, f.dst);
		pairs.insert({f.src, f.dst});
		EXPECT_EQ(f.start_ns, 0u);
	}
	EXPECT_EQ(pairs.size(), 6u);
	EXPECT_EQ(s->flows[0].name, "a2a0.a.b");
	round_trip(*s);
	p.hosts = {"a"};
	EXPECT_FALSE(gen_alltoall(p, &err));
	EXPECT_EQ(err, "hosts: at least 2");
}

TEST(Generators, StaircaseJoinsAndLeavesInReverse)
{
	StaircaseParams p;
	p.senders = {"h1", "h2", "h3", "h4"};
	p.receiver = "r";
	p.step_ns = 1000000000;
	std::string err;
	auto s = gen_staircase(p, &err);
	ASSERT_TRUE(s) << err;
	ASSERT_EQ(s->flows.size(), 4u);
	// starts 0,1,2,3 s; ends 7,6,5,4 s
	for (std::uint64_t i = 0; i < 4; i++) {
		const FlowSpec &f = s->flows[i];
		EXPECT_EQ(f.start_ns, i * 1000000000u);
		ASSERT_TRUE(f.duration_ns);
		EXPECT_EQ(f.start_ns + *f.duration_ns, (7 - i) * 1000000000u);
		EXPECT_FALSE(f.size_bytes);
	}
	EXPECT_EQ(s->flows[2].name, "stair2.h3");
	round_trip(*s);
}

TEST(Generators, LongShort)
{
	LongShortParams p;
	p.long_src = "h1";
	p.short_src = "h2";
	p.dst = "r";
	p.long_duration_ns = 10000000000;
	p.short_size_bytes = 1000000;
	p.short_at_ns = 3000000000;
	p.count = 3;
	p.period_ns = 2000000000;
	p.start_ns = 500;
	std::string err;
	auto s = gen_longshort(p, &err);
	ASSERT_TRUE(s) << err;
	ASSERT_EQ(s->flows.size(), 4u);
	EXPECT_EQ(s->flows[0].name, "long");
	EXPECT_EQ(s->flows[0].duration_ns, 10000000000u);
	EXPECT_EQ(s->flows[0].start_ns, 500u);
	EXPECT_EQ(s->flows[1].name, "short0");
	EXPECT_EQ(s->flows[1].start_ns, 3000000500u);
	EXPECT_EQ(s->flows[3].start_ns, 7000000500u);
	EXPECT_EQ(s->flows[3].size_bytes, 1000000u);
	EXPECT_EQ(s->flows[3].src, "h2");
	round_trip(*s);
	p.count = 5; // the last would start at 11 s, after the long flow
	EXPECT_FALSE(gen_longshort(p, &err));
	EXPECT_EQ(err, "the last short flow starts at 11s, not within the long flow (10s)");
}

struct PoissonCase {
	const char *cdf;
	double load;
	std::uint64_t rate_bps;
	std::uint64_t duration_ns;
	std::uint64_t seed;
};

class Poisson : public ::testing::TestWithParam<PoissonCase>
{
};

// The offered load equals the target within 5 standard errors. With
// arrival rate L and sizes X, the bytes offered in T are a compound Poisson
// sum: mean L T E[X], variance L T E[X^2]. The number of flows is Poisson
// with mean L T.
TEST_P(Poisson, OfferedLoadMatchesTarget)
{
	const PoissonCase &c = GetParam();
	PoissonParams p;
	p.srcs = {"h1", "h2", "h3", "h4"};
	p.dsts = {"h1", "h2", "h3", "h4"};
	p.cdf = shipped(c.cdf);
	p.cdf_name = c.cdf;
	p.load = c.load;
	p.rate_bps = c.rate_bps;
	p.duration_ns = c.duration_ns;
	p.start_ns = 7;
	p.seed = c.seed;
	std::string err;
	auto s = gen_poisson(p, &err);
	ASSERT_TRUE(s) << err;

	const double mean = p.cdf.mean(), m2 = p.cdf.second_moment();
	const double T = static_cast<double>(c.duration_ns) / 1e9;
	const double lambda = c.load * static_cast<double>(c.rate_bps) / (8 * mean); // flows/s
	const double n_exp = lambda * T;
	EXPECT_NEAR(static_cast<double>(s->flows.size()), n_exp, 5 * std::sqrt(n_exp));

	const double load = offered_load(*s, p.start_ns, p.duration_ns, p.rate_bps);
	const double bytes_sd = std::sqrt(n_exp * m2);
	const double load_sd = bytes_sd * 8 / (static_cast<double>(c.rate_bps) * T);
	EXPECT_NEAR(load, c.load, 5 * load_sd) << "sd " << load_sd;
	// the tolerance is tight enough to tell a wrong rate by a factor 1.5
	EXPECT_LT(5 * load_sd, c.load / 3);

	std::uint64_t prev = 0;
	for (const auto &f : s->flows) {
		EXPECT_NE(f.src, f.dst);
		EXPECT_GE(f.start_ns, prev);
		EXPECT_GE(f.start_ns, 7u);
		EXPECT_LT(f.start_ns, 7 + c.duration_ns);
		ASSERT_TRUE(f.size_bytes);
		EXPECT_GE(*f.size_bytes, 1u);
		prev = f.start_ns;
	}
	// the header names the measured load
	ASSERT_EQ(s->header.size(), 2u);
	EXPECT_NE(s->header[1].find("offered load"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
	Loads, Poisson,
	::testing::Values(PoissonCase{"websearch", 0.3, 100000000, 3600000000000ULL, 1},
                          PoissonCase{"websearch", 0.5, 1000000000, 600000000000ULL, 2},
                          PoissonCase{"fb_hadoop", 0.3, 100000000, 600000000000ULL, 3},
                          PoissonCase{"accurate_c", 0.8, 10000000000ULL, 10000000000ULL, 4},
                          PoissonCase{"pcn_w2", 0.6, 40000000000ULL, 60000000000ULL, 5}));

TEST(Generators, PoissonSameSeedSameSchedule)
{
	PoissonParams p;
	p.srcs = {"a", "b"};
	p.dsts = {"c"};
	p.cdf = shipped("fb_hadoop");
	p.cdf_name = "fb_hadoop";
	p.load = 0.5;
	p.rate_bps = 100000000;
	p.duration_ns = 1000000000;
	p.seed = 11;
	std::string err;
	auto a = gen_poisson(p, &err), b = gen_poisson(p, &err);
	p.seed = 12;
	auto c = gen_poisson(p, &err);
	ASSERT_TRUE(a && b && c) << err;
	EXPECT_EQ(format_schedule(*a), format_schedule(*b));
	EXPECT_NE(format_schedule(*a), format_schedule(*c));
	for (const auto &f : a->flows)
		EXPECT_EQ(f.dst, "c");
}

TEST(Generators, PoissonBadParameters)
{
	PoissonParams p;
	p.srcs = {"a"};
	p.dsts = {"a"};
	p.cdf = shipped("fb_hadoop");
	p.load = 0.3;
	p.rate_bps = 1000;
	p.duration_ns = 1;
	std::string err;
	EXPECT_FALSE(gen_poisson(p, &err));
	EXPECT_EQ(err, "source 'a' has no destination other than itself");
	p.dsts = {"b"};
	p.load = 0;
	EXPECT_FALSE(gen_poisson(p, &err));
	EXPECT_EQ(err, "load: a fraction of the bottleneck's rate above 0 (and at most 10)");
	p.load = 0.3;
	EXPECT_FALSE(gen_poisson(p, &err)); // 1 ns at 1 kbit/s: nothing arrives
	EXPECT_EQ(err, "no flow arrived in the duration (lengthen it or raise the load)");
	p.rate_bps = 100000000000ULL;
	p.duration_ns = 100000000000ULL;
	EXPECT_FALSE(gen_poisson(p, &err));
	EXPECT_NE(err.find("more than 2 million"), std::string::npos) << err;
}

} // namespace
