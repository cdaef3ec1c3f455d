// How a host waits for a start: until when it sleeps (startwait.h).
#include "startwait.h"

#include <gtest/gtest.h>

using rxecc::traffic::sleep_until;

namespace
{
constexpr std::int64_t kMs = 1000000;
}

TEST(SleepUntil, TheMarginBeforeAStartFarFromThePreviousOne)
{
	// starts 100 ms apart, a 2 ms margin: sleep until 2 ms before
	EXPECT_EQ(sleep_until(1000 * kMs, 900 * kMs, 2 * kMs), 998 * kMs);
	// no start before
	EXPECT_EQ(sleep_until(1000 * kMs, -1, 10 * kMs), 990 * kMs);
}

TEST(SleepUntil, NeverPastHalfwayFromThePreviousStart)
{
	// starts 5 ms apart and sleeps 4 ms late (margin 10 ms): the host
	// still sleeps from the previous start until halfway, 2.5 ms before
	EXPECT_EQ(sleep_until(1005 * kMs, 1000 * kMs, 10 * kMs), 1002 * kMs + kMs / 2);
	// the margin when it is the shorter wait
	EXPECT_EQ(sleep_until(1005 * kMs, 1000 * kMs, 2 * kMs), 1003 * kMs);
}

TEST(SleepUntil, StartsTogetherOrOutOfOrderAndABadMargin)
{
	// a start due with the one before: no wait by reading the clock
	EXPECT_EQ(sleep_until(1000 * kMs, 1000 * kMs, 2 * kMs), 1000 * kMs);
	// a "previous" start after this one is no bound
	EXPECT_EQ(sleep_until(1000 * kMs, 1001 * kMs, 2 * kMs), 998 * kMs);
	// a negative margin is none
	EXPECT_EQ(sleep_until(1000 * kMs, 900 * kMs, -5), 1000 * kMs);
}
