// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Output formatting: human units, tables and CSV. JSON is nlohmann-json
// (cli_test.cc checks the documents).
#include <gtest/gtest.h>
#include <rdma/rxe_cc.h>
#include <sstream>

#include "format.h"
#include "parse.h"
#include "units.h"

namespace rxecc
{
namespace
{

TEST(FormatRate, Units)
{
	EXPECT_EQ(format_rate_bps(0), "0bit");
	EXPECT_EQ(format_rate_bps(999), "999bit");
	EXPECT_EQ(format_rate_bps(1000), "1Kbit");
	EXPECT_EQ(format_rate_bps(100000000), "100Mbit");
	EXPECT_EQ(format_rate_bps(1500000000), "1.5Gbit");
	EXPECT_EQ(format_rate_bps(25000000000ULL), "25Gbit");
	EXPECT_EQ(format_rate_bps(8512345678ULL), "8.512Gbit");
	EXPECT_EQ(format_rate_bps(1234567), "1.235Mbit"); // rounded half up
	EXPECT_EQ(format_rate_bps(999999999), "1Gbit");   // rounding reaches the next unit
	EXPECT_EQ(format_rate_bps(UINT64_MAX), "18446744.074Tbit");
}

TEST(FormatRate, ParsesBackExactly)
{
	for (std::uint64_t v : {0ULL, 1ULL, 999ULL, 1000ULL, 1500ULL, 100000000ULL, 1500000000ULL,
	                        25000000000ULL, 123000000000ULL}) {
		std::string err;
		EXPECT_EQ(units::parse_rate_bps(format_rate_bps(v), &err), v) << err;
	}
}

TEST(FormatTime, Units)
{
	EXPECT_EQ(format_time_ns(0), "0ns");
	EXPECT_EQ(format_time_ns(250), "250ns");
	EXPECT_EQ(format_time_ns(100000), "100us");
	EXPECT_EQ(format_time_ns(1500000), "1.5ms");
	EXPECT_EQ(format_time_ns(2000000000), "2s");
	EXPECT_EQ(format_time_ns(3600000000000ULL), "3600s");
	EXPECT_EQ(format_time_ns(1000999), "1.001ms");
	for (std::uint64_t v : {0ULL, 7ULL, 100000ULL, 1500000ULL, 2000000000ULL}) {
		std::string err;
		EXPECT_EQ(units::parse_time_ns(format_time_ns(v), &err), v) << err;
	}
}

TEST(FormatBytes, ExactBinaryUnitsOnly)
{
	EXPECT_EQ(format_bytes(0), "0B");
	EXPECT_EQ(format_bytes(1500), "1500B");
	EXPECT_EQ(format_bytes(65536), "64KiB");
	EXPECT_EQ(format_bytes(3ULL << 20), "3MiB");
	EXPECT_EQ(format_bytes((1ULL << 30) + 1024), "1048577KiB");
	EXPECT_EQ(format_bytes(2ULL << 30), "2GiB");
}

TEST(FormatFixed, Q16AndQ10)
{
	EXPECT_EQ(format_fixed(65536, 16), "1.0000");
	EXPECT_EQ(format_fixed(16384, 16), "0.2500");
	EXPECT_EQ(format_fixed(1, 16), "0.0000");
	EXPECT_EQ(format_fixed(3, 16), "0.0000");
	EXPECT_EQ(format_fixed(4, 16), "0.0001"); // 0.000061 rounds up
	EXPECT_EQ(format_fixed(1020, 10), "0.9961");
	EXPECT_EQ(format_state_value(RXE_CC_UNIT_ID_Q16, 32768), "0.5000");
	EXPECT_EQ(format_state_value(RXE_CC_UNIT_ID_KBPS, 8500000), "8500000");
	EXPECT_EQ(format_state_value(RXE_CC_UNIT_ID_US, 30), "30us");
}

TEST(FormatUnits, LabelsAndIds)
{
	EXPECT_EQ(unit_label(RXE_CC_UNIT_ID_KBPS), "kbit/s");
	EXPECT_EQ(unit_label(RXE_CC_UNIT_ID_NONE), "");
	EXPECT_EQ(unit_label(RXE_CC_UNIT_ID_PERCENT), "%");
	EXPECT_EQ(unit_label(99), "unit99");
	EXPECT_EQ(unit_id(RXE_CC_UNIT_ID_KBPS), "kbps");
	EXPECT_EQ(unit_id(RXE_CC_UNIT_ID_NONE), "none");
	EXPECT_EQ(unit_id(RXE_CC_UNIT_ID_PCP), "pcp");
	ParamInfo p;
	p.min = 1;
	p.max = 31;
	EXPECT_EQ(format_range(p), "1..31");
	p.unit = RXE_CC_UNIT_ID_BOOL;
	EXPECT_EQ(format_range(p), "1..31 (bool)");
	p.unit = RXE_CC_UNIT_ID_DSCP;
	EXPECT_EQ(format_range(p), "1..31 DSCP");
}

TEST(TableFormat, AlignsColumnsWithoutTrailingSpaces)
{
	Table t;
	t.row({"NAME", "VALUE", "HELP"});
	t.row({"rp_gd", "11", ""});
	t.row({"rp_time_reset", "30000us", "period"});
	std::ostringstream os;
	t.print(os, "  ");
	EXPECT_EQ(os.str(), "  NAME           VALUE    HELP\n"
	                    "  rp_gd          11\n"
	                    "  rp_time_reset  30000us  period\n");
}

TEST(Pairs, WrapAtWidth)
{
	std::ostringstream os;
	print_pairs(os, {{"aaaa", "1"}, {"bbbb", "2"}, {"cccc", "3"}}, "  ", 16);
	EXPECT_EQ(os.str(), "  aaaa 1 bbbb 2\n  cccc 3\n");
	std::ostringstream none;
	print_pairs(none, {}, "  ");
	EXPECT_EQ(none.str(), "");
}

TEST(Csv, QuotesOnlyWhenNeeded)
{
	EXPECT_EQ(csv_field("rxe0"), "rxe0");
	EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
	EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
	EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
}

TEST(PerSecond, Rates)
{
	EXPECT_EQ(format_per_second(12, 1000000000), "12");
	EXPECT_EQ(format_per_second(25, 2000000000), "12.5");
	EXPECT_EQ(format_per_second(1, 3000000000), "0.33");
	EXPECT_EQ(format_per_second(100, 500000000), "200");
	EXPECT_EQ(format_per_second(0, 1000000000), "0");
	EXPECT_EQ(format_per_second(7, 0), "0");
	EXPECT_EQ(format_per_second(1, 1000000001), "1"); // 0.999999999 rounds to 1
}

} // namespace
} // namespace rxecc
