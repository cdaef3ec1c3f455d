// Order statistics, Jain's index and the CDF of the report.
#include <gtest/gtest.h>

#include "stats.h"

using namespace rxecc::report;

TEST(NearestRank, SmallestSampleWithPPercentAtOrBelow)
{
	// 10 samples 1..10: p50 is rank ceil(5) = 5, p99 rank ceil(9.9) = 10,
	// p10 rank 1, p11 rank ceil(1.1) = 2
	std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	EXPECT_EQ(nearest_rank(v, 50), 5);
	EXPECT_EQ(nearest_rank(v, 99), 10);
	EXPECT_EQ(nearest_rank(v, 10), 1);
	EXPECT_EQ(nearest_rank(v, 11), 2);
	EXPECT_EQ(nearest_rank(v, 0), 1);
	EXPECT_EQ(nearest_rank(v, 100), 10);
}

TEST(NearestRank, NoInterpolation)
{
	// 50 zeros and 1..50: p50 = 50th smallest = 0 (not 0.5), p99 = 99th =
	// 49 (interpolation would give 49.01)
	std::vector<double> v(50, 0.0);
	for (int i = 1; i <= 50; ++i)
		v.push_back(i);
	EXPECT_EQ(nearest_rank(v, 50), 0);
	EXPECT_EQ(nearest_rank(v, 99), 49);
}

TEST(Jain, Definition)
{
	EXPECT_DOUBLE_EQ(*jain_index({10, 10, 10, 10}), 1.0);
	EXPECT_DOUBLE_EQ(*jain_index({10, 0}), 0.5);
	// (10+20+30+40)^2 / (4 * (100+400+900+1600)) = 10000 / 12000
	EXPECT_DOUBLE_EQ(*jain_index({10, 20, 30, 40}), 10000.0 / 12000.0);
	EXPECT_FALSE(jain_index({}).has_value());
	EXPECT_FALSE(jain_index({0, 0}).has_value());
}

TEST(Distribution, PercentilesMeanMax)
{
	std::vector<double> v;
	for (int i = 100; i >= 1; --i) // unsorted on purpose
		v.push_back(i);
	auto d = distribution(v);
	ASSERT_TRUE(d.has_value());
	EXPECT_EQ(d->count, 100u);
	EXPECT_EQ(d->p50, 50);
	EXPECT_EQ(d->p95, 95);
	EXPECT_EQ(d->p99, 99);
	EXPECT_DOUBLE_EQ(d->mean, 50.5);
	EXPECT_EQ(d->max, 100);
	EXPECT_FALSE(distribution({}).has_value());
}

TEST(EmpiricalCdf, FractionAtOrBelowEachDistinctValue)
{
	auto c = empirical_cdf({3, 1, 1, 2});
	ASSERT_EQ(c.size(), 3u);
	EXPECT_EQ(c[0], std::make_pair(1.0, 0.5));
	EXPECT_EQ(c[1], std::make_pair(2.0, 0.75));
	EXPECT_EQ(c[2], std::make_pair(3.0, 1.0));
}
