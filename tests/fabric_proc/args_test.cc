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

TEST(OptionCursor, WalksOptionsValuesAndWords)
{
	std::vector<std::string> args = {"run", "--sample=2ms", "-t", "topo", "word", "--x="};
	OptionCursor c(args, 1, "run");
	std::string err;
	ASSERT_TRUE(c.next());
	EXPECT_EQ(c.name(), "--sample");
	EXPECT_TRUE(c.has_value());
	ASSERT_TRUE(c.value(err));
	EXPECT_EQ(c.val(), "2ms");
	ASSERT_TRUE(c.next());
	EXPECT_EQ(c.name(), "-t");
	EXPECT_FALSE(c.has_value());
	ASSERT_TRUE(c.value(err));
	EXPECT_EQ(c.val(), "topo");
	ASSERT_TRUE(c.next());
	EXPECT_EQ(c.name(), "word");
	ASSERT_TRUE(c.next());
	EXPECT_EQ(c.name(), "--x");
	EXPECT_TRUE(c.has_value());
	EXPECT_EQ(c.val(), "");
	EXPECT_FALSE(c.next());
}

TEST(OptionCursor, MissingValueNamesCommandAndOption)
{
	std::vector<std::string> args = {"--prio"};
	OptionCursor c(args, 0, "send-pfc");
	std::string err;
	ASSERT_TRUE(c.next());
	EXPECT_FALSE(c.value(err));
	EXPECT_EQ(err, "send-pfc: --prio needs a value");
	EXPECT_FALSE(c.next());
}

TEST(OptionCursor, ShortOptionsNeverSplitOnEquals)
{
	std::vector<std::string> args = {"-a", "s0:p=if:eth0", "-x=1"};
	OptionCursor c(args, 0, "run");
	std::string err;
	ASSERT_TRUE(c.next());
	ASSERT_TRUE(c.value(err));
	EXPECT_EQ(c.val(), "s0:p=if:eth0");
	ASSERT_TRUE(c.next());
	EXPECT_EQ(c.name(), "-x=1");
	EXPECT_FALSE(c.has_value());
}
