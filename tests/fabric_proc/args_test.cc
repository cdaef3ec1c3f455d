// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include "args.h"

using namespace rxecc::fabric::proc;

TEST(ParseUint, AcceptsDecimalUpToMax)
{
	EXPECT_EQ(parse_uint("0", 10), 0u);
	EXPECT_EQ(parse_uint("10", 10), 10u);
	EXPECT_EQ(parse_uint("18446744073709551615", UINT64_MAX), UINT64_MAX);
}

TEST(ParseUint, RejectsJunk)
{
	for (const char *s : {"", "11", "-1", "+1", "1x", " 1", "0x1", "1.0"})
		EXPECT_FALSE(parse_uint(s, 10)) << s;
	EXPECT_FALSE(parse_uint("18446744073709551616", UINT64_MAX));
}

TEST(ParsePrioList, Forms)
{
	EXPECT_EQ(parse_prio_list("3"), 0x08);
	EXPECT_EQ(parse_prio_list("3,4"), 0x18);
	EXPECT_EQ(parse_prio_list("0,7"), 0x81);
	EXPECT_EQ(parse_prio_list("*"), 0xff);
	EXPECT_EQ(parse_prio_list("3,3"), 0x08);
}

TEST(ParsePrioList, RejectsBad)
{
	for (const char *s : {"", "8", ",", "3,", ",3", "3,,4", "a", "*,3", "-1", " 3"})
		EXPECT_FALSE(parse_prio_list(s)) << s;
}
