// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Parsing of the values the operator types: integers, booleans and
// algorithm parameters. Rates and times are rxecc::units
// (tests/common/units_test.cc); here only how parameters use them.
#include <gtest/gtest.h>
#include <rdma/rxe_cc.h>

#include "format.h"
#include "parse.h"

namespace rxecc
{
namespace
{

TEST(ParseU64, DecimalAndHex)
{
	std::uint64_t v;
	std::string err;
	ASSERT_TRUE(parse_u64("0", v, err));
	EXPECT_EQ(v, 0u);
	ASSERT_TRUE(parse_u64("18446744073709551615", v, err));
	EXPECT_EQ(v, UINT64_MAX);
	ASSERT_TRUE(parse_u64("0x11", v, err));
	EXPECT_EQ(v, 17u);
	ASSERT_TRUE(parse_u64("0XfF", v, err));
	EXPECT_EQ(v, 255u);
}

TEST(ParseU64, RejectsSignsSpacesOverflowAndJunk)
{
	std::uint64_t v;
	std::string err;
	for (const char *bad : {"", "-1", "+1", " 1", "1 ", "1.0", "abc", "12k", "0x", "0xg",
	                        "18446744073709551616", "99999999999999999999999"}) {
		EXPECT_FALSE(parse_u64(bad, v, err)) << '"' << bad << '"';
		EXPECT_FALSE(err.empty());
	}
	EXPECT_FALSE(parse_u64("18446744073709551616", v, err));
	EXPECT_NE(err.find("too large"), std::string::npos) << err;
}

TEST(ParseU32, Range)
{
	std::uint32_t v;
	std::string err;
	ASSERT_TRUE(parse_u32("4294967295", v, err));
	EXPECT_EQ(v, UINT32_MAX);
	EXPECT_FALSE(parse_u32("4294967296", v, err));
	EXPECT_NE(err.find("4294967295"), std::string::npos) << err;
}

TEST(ParseBool, Words)
{
	bool v = false;
	std::string err;
	for (const char *t : {"on", "ON", "yes", "true", "1"}) {
		ASSERT_TRUE(parse_bool(t, v, err)) << t;
		EXPECT_TRUE(v);
	}
	for (const char *f : {"off", "Off", "no", "false", "0"}) {
		ASSERT_TRUE(parse_bool(f, v, err)) << f;
		EXPECT_FALSE(v);
	}
	EXPECT_FALSE(parse_bool("2", v, err));
	EXPECT_FALSE(parse_bool("enable", v, err));
	EXPECT_NE(err.find("on or off"), std::string::npos);
}

ParamInfo param(const char *name, std::uint32_t unit, std::uint32_t min, std::uint32_t max)
{
	ParamInfo p;
	p.name = name;
	p.unit = unit;
	p.min = min;
	p.max = max;
	return p;
}

std::uint32_t pv(const ParamInfo &p, const std::string &s)
{
	std::uint32_t v = 0;
	std::string err;
	EXPECT_TRUE(parse_param_value(p, s, v, err)) << s << ": " << err;
	return v;
}

std::string pv_error(const ParamInfo &p, const std::string &s)
{
	std::uint32_t v = 777;
	std::string err;
	EXPECT_FALSE(parse_param_value(p, s, v, err)) << s << " accepted as " << v;
	EXPECT_EQ(v, 777u);
	return err;
}

TEST(ParseParam, KbpsTakesIntegersAndRates)
{
	ParamInfo p = param("rp_ai_rate_kbps", RXE_CC_UNIT_ID_KBPS, 1, 1U << 31);
	EXPECT_EQ(pv(p, "20"), 20u);
	EXPECT_EQ(pv(p, "5Mbit"), 5000u);
	EXPECT_EQ(pv(p, "1.5G"), 1500000u);
	EXPECT_EQ(pv(p, "5Mbps"), 5000u); // bits, as everywhere (units.rst)
	EXPECT_EQ(pv(p, "0x14"), 20u);
	EXPECT_NE(pv_error(p, "5MBps").find("rates are in bits"), std::string::npos);
	EXPECT_NE(pv_error(p, "2.5").find("not a whole number of bit/s"), std::string::npos);
	EXPECT_EQ(pv(p, "2147483648"), 1U << 31);
	std::string e = pv_error(p, "0");
	EXPECT_EQ(e, "rp_ai_rate_kbps: 0 is out of range 1..2147483648 kbit/s");
	e = pv_error(p, "3Tbit");
	EXPECT_EQ(e, "rp_ai_rate_kbps: 3Tbit (3000000000) is out of range 1..2147483648 kbit/s");
	e = pv_error(p, "1500bit");
	EXPECT_NE(e.find("whole number of kbit/s"), std::string::npos) << e;
	e = pv_error(p, "abc");
	EXPECT_NE(e.find("rp_ai_rate_kbps: "), std::string::npos) << e;
	EXPECT_NE(e.find("1..2147483648 kbit/s"), std::string::npos) << e;
	EXPECT_NE(e.find("5Mbit"), std::string::npos) << e;
	pv_error(p, "99999999999");
}

TEST(ParseParam, MicrosecondsTakeTimes)
{
	ParamInfo p = param("rp_time_reset", RXE_CC_UNIT_ID_US, 1, 10000000);
	EXPECT_EQ(pv(p, "300"), 300u);
	EXPECT_EQ(pv(p, "2ms"), 2000u);
	EXPECT_EQ(pv(p, "300us"), 300u);
	EXPECT_EQ(pv(p, "10s"), 10000000u);
	EXPECT_NE(pv_error(p, "11s").find("out of range 1..10000000 us"), std::string::npos);
	EXPECT_NE(pv_error(p, "1500ns").find("whole number of microseconds"), std::string::npos);
	ParamInfo n = param("t_ns", RXE_CC_UNIT_ID_NS, 0, 1000000);
	EXPECT_EQ(pv(n, "1500ns"), 1500u);
	EXPECT_EQ(pv(n, "1ms"), 1000000u);
	EXPECT_EQ(pv(n, "0.1us"), 100u);
	EXPECT_NE(pv_error(n, "5min").find("t_ns: '5min' is not a time: unknown unit 'min'"),
	          std::string::npos);
}

TEST(ParseParam, BytesTakeSizes)
{
	ParamInfo p = param("window_bytes", RXE_CC_UNIT_ID_BYTES, 0, UINT32_MAX);
	EXPECT_EQ(pv(p, "65536"), 65536u);
	EXPECT_EQ(pv(p, "0x10000"), 65536u);
	EXPECT_EQ(pv(p, "64KiB"), 65536u);
	EXPECT_EQ(pv(p, "64KB"), 64000u);
	EXPECT_EQ(pv(p, "1.5KB"), 1500u);
	EXPECT_EQ(pv_error(p, "5GB"),
	          "window_bytes: 5GB (5000000000) is out of range 0..4294967295 bytes");
	const std::string e = pv_error(p, "64Kb");
	EXPECT_EQ(
		e,
		"window_bytes: '64Kb' is not a size: sizes are in bytes, 'Kb' is bits (examples: "
		"1500, 64KiB, 4MB); expected an integer in 0..4294967295 bytes, or a size such as "
		"64KiB");
}

TEST(ParseParam, BoolPercentAndPlain)
{
	ParamInfo b = param("rp_clamp_tgt_rate", RXE_CC_UNIT_ID_BOOL, 0, 1);
	EXPECT_EQ(pv(b, "on"), 1u);
	EXPECT_EQ(pv(b, "0"), 0u);
	EXPECT_NE(pv_error(b, "2").find("on or off"), std::string::npos);
	ParamInfo pc = param("rp_min_dec_fac", RXE_CC_UNIT_ID_PERCENT, 0, 100);
	EXPECT_EQ(pv(pc, "50%"), 50u);
	EXPECT_EQ(pv(pc, "100"), 100u);
	EXPECT_EQ(pv_error(pc, "101%"), "rp_min_dec_fac: 101% (101) is out of range 0..100%");
	ParamInfo g = param("rp_gd", RXE_CC_UNIT_ID_LOG2, 10, 16);
	EXPECT_EQ(pv(g, "0x10"), 16u);
	EXPECT_EQ(pv_error(g, "9"), "rp_gd: 9 is out of range 10..16 log2");
	EXPECT_NE(pv_error(g, "1ms").find("not a number"), std::string::npos);
	ParamInfo q = param("rp_dce_tcp_g", RXE_CC_UNIT_ID_Q10, 0, 1023);
	EXPECT_EQ(pv_error(q, "1024"),
	          "rp_dce_tcp_g: 1024 is out of range 0..1023 (Q10, 1024 = 1.0)");
}

// What 'dev show' prints for a parameter, 'dev set' accepts back.
TEST(ParseParam, RoundTripOfShownValues)
{
	const std::uint32_t units[] = {
		RXE_CC_UNIT_ID_NONE,    RXE_CC_UNIT_ID_BOOL, RXE_CC_UNIT_ID_KBPS,
		RXE_CC_UNIT_ID_US,      RXE_CC_UNIT_ID_NS,   RXE_CC_UNIT_ID_BYTES,
		RXE_CC_UNIT_ID_PERCENT, RXE_CC_UNIT_ID_Q10,  RXE_CC_UNIT_ID_Q16,
		RXE_CC_UNIT_ID_LOG2,    RXE_CC_UNIT_ID_DSCP, RXE_CC_UNIT_ID_PCP};
	for (std::uint32_t unit : units) {
		ParamInfo p = param("x", unit, 0, UINT32_MAX);
		if (unit == RXE_CC_UNIT_ID_BOOL)
			p.max = 1;
		for (std::uint32_t v : {0u, 1u, 63u, 4096u, 123456789u, UINT32_MAX}) {
			if (v > p.max)
				continue;
			EXPECT_EQ(pv(p, format_param_value(unit, v)), v) << "unit " << unit;
		}
	}
}

TEST(ParseSfc, MaxIsAWholeNumberOfMicrosecondsFrom1usTo1s)
{
	std::uint32_t us = 0;
	std::string err;
	const std::pair<const char *, std::uint32_t> good[] = {
		{"50ms", 50000},        {"500us", 500}, {"1us", 1},
		{"1s", 1000000},        {"0.5ms", 500}, {"2000ns", 2},
		{"1000000us", 1000000},
	};
	for (const auto &[text, want] : good) {
		ASSERT_TRUE(parse_sfc_max_us(text, us, err)) << text << ": " << err;
		EXPECT_EQ(us, want) << text;
	}
	const std::pair<const char *, const char *> bad[] = {
		{"0", "'0' is out of range 1us..1s"},
		{"0us", "'0us' is out of range 1us..1s"},
		{"2s", "'2s' is out of range 1us..1s"},
		{"1000001us", "'1000001us' is out of range 1us..1s"},
		{"1500ns", "'1500ns' is not a whole number of microseconds"},
		{"50", "'50' is not a time: it needs a unit"},
		{"soon", "'soon' is not a time"},
		{"", "is not a time"},
		{"-5ms", "is not a time"},
	};
	for (const auto &[text, msg] : bad) {
		us = 7;
		err.clear();
		EXPECT_FALSE(parse_sfc_max_us(text, us, err)) << text;
		EXPECT_NE(err.find(msg), std::string::npos) << text << ": " << err;
		EXPECT_EQ(us, 7u) << "untouched on error";
	}
}

TEST(ParseSfc, ModeReplaceOrMax)
{
	std::uint8_t mode = 9;
	std::string err;
	ASSERT_TRUE(parse_sfc_mode("replace", mode, err));
	EXPECT_EQ(mode, RXE_CC_SFC_MODE_REPLACE);
	ASSERT_TRUE(parse_sfc_mode("max", mode, err));
	EXPECT_EQ(mode, RXE_CC_SFC_MODE_MAX);
	for (const char *bad : {"", "Max", "maximum", "0", "1", "newest"}) {
		EXPECT_FALSE(parse_sfc_mode(bad, mode, err)) << bad;
		EXPECT_EQ(err, "'" + std::string(bad) + "' is not replace or max");
	}
	EXPECT_EQ(sfc_mode_name(RXE_CC_SFC_MODE_REPLACE), "replace");
	EXPECT_EQ(sfc_mode_name(RXE_CC_SFC_MODE_MAX), "max");
	EXPECT_EQ(sfc_mode_name(2), "2") << "a mode this rxecc does not know";
}

} // namespace
} // namespace rxecc
