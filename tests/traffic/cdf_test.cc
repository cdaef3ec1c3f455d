// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Flow-size distributions: the file format, the inverse CDF, exact moments,
// sampling against the CDF (fixed seeds; tolerances are a few standard
// errors of the estimate, computed from the distribution itself), and the
// shipped files against the tables they transcribe.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cdf.h"
#include "rng.h"
#include "text.h"

namespace
{

using namespace rxecc::traffic;

SizeCdf parse_ok(const std::string &text)
{
	std::string err;
	auto c = SizeCdf::parse(text, "t", &err);
	EXPECT_TRUE(c) << err;
	return c ? *c : SizeCdf{};
}

SizeCdf shipped(const std::string &name)
{
	std::string text, err;
	const std::string path = std::string(RXECC_TRAFFIC_CDF_DIR) + "/" + name + ".cdf";
	EXPECT_TRUE(read_file(path, text, &err)) << err;
	auto c = SizeCdf::parse(text, path, &err);
	EXPECT_TRUE(c) << err;
	return c ? *c : SizeCdf{};
}

TEST(Cdf, QuantileAndCdfAreInverse)
{
	// 50 % uniform in [0, 1000], 50 % uniform in [1000, 3000]
	SizeCdf c = parse_ok("0 0\n1000 50\n3000 100\n");
	EXPECT_DOUBLE_EQ(c.quantile(0), 0);
	EXPECT_DOUBLE_EQ(c.quantile(0.25), 500);
	EXPECT_DOUBLE_EQ(c.quantile(0.5), 1000);
	EXPECT_DOUBLE_EQ(c.quantile(0.75), 2000);
	EXPECT_DOUBLE_EQ(c.quantile(1), 3000);
	EXPECT_DOUBLE_EQ(c.cdf(500), 0.25);
	EXPECT_DOUBLE_EQ(c.cdf(2000), 0.75);
	EXPECT_DOUBLE_EQ(c.cdf(5000), 1);
	// mean 0.5 * 500 + 0.5 * 2000; E[X^2] = 0.5 * 1000^2/3 + 0.5 * (1000^2 + 3000000 + 3000^2)/3
	EXPECT_DOUBLE_EQ(c.mean(), 1250);
	EXPECT_DOUBLE_EQ(c.second_moment(), 0.5 * 1e6 / 3 + 0.5 * 13e6 / 3);
}

TEST(Cdf, StepsAreAtoms)
{
	// 80 % exactly 20 KB, 20 % exactly 1 MB
	SizeCdf c = shipped("accurate_c");
	EXPECT_DOUBLE_EQ(c.quantile(0.5), 20000);
	EXPECT_DOUBLE_EQ(c.quantile(0.8), 20000);
	EXPECT_DOUBLE_EQ(c.quantile(0.80001), 1e6);
	EXPECT_DOUBLE_EQ(c.mean(), 0.8 * 20000 + 0.2 * 1e6);
	Rng rng(7);
	std::size_t small = 0;
	const std::size_t n = 100000;
	for (std::size_t i = 0; i < n; i++) {
		const auto v = c.sample(rng);
		ASSERT_TRUE(v == 20000 || v == 1000000) << v;
		small += v == 20000;
	}
	// binomial: sd = sqrt(n p (1 - p)) = 126.5; 5 sd
	EXPECT_NEAR(static_cast<double>(small), 0.8 * n, 5 * std::sqrt(n * 0.8 * 0.2));
}

TEST(Cdf, BadFiles)
{
	const std::pair<const char *, const char *> cases[] = {
		{"0 0\n10 50\n5 100\n", "t:3: sizes must not decrease"},
		{"0 0\n10 50\n20 40\n", "t:3: percentages must not decrease"},
		{"0 0\n10 101\n", "t:2: '101' is not a percentage from 0 to 100"},
		{"0 0\n10 x\n", "t:2: 'x' is not a percentage from 0 to 100"},
		{"0 0 0\n", "t:1: expected SIZE PERCENT"},
		{"0 0\n10 90\n", "t: the last point must be at 100%"},
		{"# nothing\n", "t: no points"},
		{"0 0\n10 100\n20 100\n", "t:3: a point after 100%"},
	};
	for (const auto &[text, want] : cases) {
		std::string err;
		EXPECT_FALSE(SizeCdf::parse(text, "t", &err)) << text;
		EXPECT_EQ(err, want);
	}
	std::string err;
	EXPECT_FALSE(SizeCdf::parse("0 0\n1Q 100\n", "t", &err));
	EXPECT_EQ(err.rfind("t:2: '1Q' is not a size", 0), 0u) << err;
}

// Draws n sizes with a fixed seed and compares them with the CDF: the
// sample mean within 5 standard errors (sd of the distribution / sqrt(n))
// of the exact mean, and the fraction of sizes at or below each point of
// the CDF within 5 binomial standard errors of the point's percentage.
void check_sampling(const SizeCdf &c, std::uint64_t seed, std::size_t n)
{
	Rng rng(seed);
	std::vector<double> v(n);
	double sum = 0;
	for (auto &x : v) {
		x = static_cast<double>(c.sample(rng));
		sum += x;
	}
	const double mean = c.mean();
	const double sd = std::sqrt(c.second_moment() - mean * mean);
	EXPECT_NEAR(sum / static_cast<double>(n), mean, 5 * sd / std::sqrt(static_cast<double>(n)));
	std::sort(v.begin(), v.end());
	for (const auto &p : c.points()) {
		// sizes are rounded to whole bytes, at least 1: a size b holds
		// what the CDF puts in [b - 0.5, b + 0.5)
		const double want = p.bytes < 1 ? 0 : c.cdf(p.bytes + 0.5);
		const double got =
			static_cast<double>(std::upper_bound(v.begin(), v.end(), p.bytes) -
		                            v.begin()) /
			static_cast<double>(n);
		const double se = std::sqrt(want * (1 - want) / static_cast<double>(n));
		EXPECT_NEAR(got, want, 5 * se) << "at " << p.bytes << " bytes";
	}
	// and the median of the samples is the CDF's median, within the
	// sizes whose CDF lies 5 standard errors around 50 %
	const double se50 = 0.5 / std::sqrt(static_cast<double>(n));
	const double med = v[n / 2];
	EXPECT_GE(med, std::floor(c.quantile(0.5 - 5 * se50)));
	EXPECT_LE(med, std::ceil(c.quantile(0.5 + 5 * se50)));
}

TEST(Cdf, SamplingFollowsTheShippedDistributions)
{
	for (const char *name : {"websearch", "fb_hadoop", "pcn_w1", "pcn_w2", "accurate_c"}) {
		SCOPED_TRACE(name);
		check_sampling(shipped(name), 42, 200000);
	}
}

TEST(Cdf, SameSeedSameSizes)
{
	SizeCdf c = shipped("websearch");
	Rng a(3), b(3), d(4);
	bool differ = false;
	for (int i = 0; i < 100; i++) {
		const auto x = c.sample(a);
		EXPECT_EQ(x, c.sample(b));
		differ = differ || x != c.sample(d);
	}
	EXPECT_TRUE(differ);
}

TEST(Cdf, ShippedFilesMatchTheSpecs)
{
	// hpcc.md 5.2: WebSearch (10K, 15) ... (30M, 100)
	SizeCdf ws = shipped("websearch");
	EXPECT_DOUBLE_EQ(ws.cdf(10000), 0.15);
	EXPECT_DOUBLE_EQ(ws.cdf(80000), 0.53);
	EXPECT_DOUBLE_EQ(ws.cdf(10e6), 0.97);
	EXPECT_DOUBLE_EQ(ws.points().back().bytes, 30e6);
	// FB_Hadoop: (350, 15) (1000, 60) (1M, 97.5) (10M, 100)
	SizeCdf fb = shipped("fb_hadoop");
	EXPECT_DOUBLE_EQ(fb.cdf(350), 0.15);
	EXPECT_DOUBLE_EQ(fb.cdf(1000), 0.60);
	EXPECT_DOUBLE_EQ(fb.cdf(1e6), 0.975);
	EXPECT_DOUBLE_EQ(fb.points().back().bytes, 10e6);

	// pcn.md Table 1: share of flows per class; XL's bytes against L's
	struct Table {
		const char *name;
		double s, m, l;           // % of flows in S, M, L
		double l_bytes, xl_bytes; // % of bytes in L, XL
	};
	for (const Table &t : {Table{"pcn_w1", 80.14, 10.32, 9.12, 83.8, 7.04},
	                       Table{"pcn_w2", 70.79, 16.59, 3.52, 1.53, 96.7}}) {
		SCOPED_TRACE(t.name);
		SizeCdf c = shipped(t.name);
		EXPECT_NEAR(c.cdf(10000) * 100, t.s, 1e-9);
		EXPECT_NEAR((c.cdf(100000) - c.cdf(10000)) * 100, t.m, 1e-9);
		EXPECT_NEAR((c.cdf(1e6) - c.cdf(100000)) * 100, t.l, 1e-9);
		// bytes of a uniform class = share * (lo + hi) / 2
		const auto &pts = c.points();
		const double xl_hi = pts.back().bytes;
		const double l_b = t.l * (100000 + 1e6) / 2;
		const double xl_b = (100 - c.cdf(1e6) * 100) * (1e6 + xl_hi) / 2;
		EXPECT_NEAR(xl_b / l_b, t.xl_bytes / t.l_bytes, 0.005 * t.xl_bytes / t.l_bytes);
	}
}

} // namespace
