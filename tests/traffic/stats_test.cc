// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The figures of `rxecc-traffic stats`: goodput over ok flows, start
// errors, a host's CPU share, medians.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "stats.h"

namespace
{

using namespace rxecc::traffic;

Schedule sched()
{
	std::string err;
	auto s = parse_schedule("a h1 h2 0 size=1000\n"
	                        "b h1 h2 1ms size=3000\n"
	                        "c h1 h2 2ms duration=1s\n",
	                        "s", &err);
	EXPECT_TRUE(s) << err;
	return *s;
}

FlowRecord rec(std::int64_t start, std::int64_t complete, std::uint64_t bytes,
               const char *status = "ok")
{
	FlowRecord r;
	r.start_ns = start;
	r.complete_ns = complete;
	r.bytes = bytes;
	r.status = status;
	return r;
}

TEST(Stats, GoodputFromFirstStartToLastCompletion)
{
	Schedule s = sched();
	std::map<std::string, FlowRecord> recs;
	recs["a"] = rec(10, 1000010, 1000);      // 8000 bits in 1 ms
	recs["b"] = rec(1000020, 2000010, 3000); // ends 2 ms after a's start
	// (1000 + 3000) * 8 bits over 2 ms = 16 Mbit/s
	EXPECT_DOUBLE_EQ(*goodput_bps(s, recs), 16e6);
	const std::set<std::string> only{"a"};
	EXPECT_DOUBLE_EQ(*goodput_bps(s, recs, &only), 8e6);
	// failed flows do not count
	recs["b"].status = "deadline";
	EXPECT_DOUBLE_EQ(*goodput_bps(s, recs), 8e6);
	recs["a"].complete_ns.reset();
	EXPECT_FALSE(goodput_bps(s, recs));
}

TEST(Stats, StartErrors)
{
	Schedule s = sched();
	std::map<std::string, FlowRecord> recs;
	recs["a"] = rec(7, 100, 1);
	recs["b"] = rec(1000500, 2000000, 1);
	recs["c"].status = "connect_timeout:no_answer"; // never started
	EXPECT_EQ(start_error_list(s, recs), (std::vector<std::int64_t>{7, 500}));
}

TEST(Stats, CpuShareAndMedian)
{
	auto h = nlohmann::json::parse(R"({"cpu":{"user_ns":100,"sys_ns":300,"run_ns":1000}})");
	EXPECT_DOUBLE_EQ(*cpu_share(h), 0.4);
	EXPECT_FALSE(cpu_share(nlohmann::json::parse(R"({"cpu":null})")));
	EXPECT_FALSE(cpu_share(nlohmann::json::parse(R"({"cpu":{"user_ns":1,"run_ns":2}})")));
	EXPECT_FALSE(
		cpu_share(nlohmann::json::parse(R"({"cpu":{"user_ns":1,"sys_ns":1,"run_ns":0}})")));
	EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
	EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
	EXPECT_DOUBLE_EQ(median({5}), 5);
}

} // namespace
