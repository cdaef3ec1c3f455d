// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Output formatting: human units, tables, JSON (escaping, structure) and CSV.
#include <gtest/gtest.h>
#include <rdma/rxe_cc.h>
#include <sstream>

#include "format.h"
#include "json_mini.h"
#include "parse.h"
#include "units.h"

namespace rxecc {
namespace {

using test::Json;
using test::JsonParser;

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
	EXPECT_EQ(format_rate_bps(999999999), "1Gbit");	  // rounding reaches the next unit
	EXPECT_EQ(format_rate_bps(UINT64_MAX), "18446744.074Tbit");
}

TEST(FormatRate, ParsesBackExactly)
{
	for (std::uint64_t v : { 0ULL, 1ULL, 999ULL, 1000ULL, 1500ULL, 100000000ULL, 1500000000ULL,
				 25000000000ULL, 123000000000ULL }) {
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
	for (std::uint64_t v : { 0ULL, 7ULL, 100000ULL, 1500000ULL, 2000000000ULL }) {
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

TEST(JsonQuote, EscapesWhatJsonRequires)
{
	EXPECT_EQ(json_quote(""), "\"\"");
	EXPECT_EQ(json_quote("rxe0"), "\"rxe0\"");
	EXPECT_EQ(json_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
	EXPECT_EQ(json_quote("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
	EXPECT_EQ(json_quote(std::string("\x01\x1f\x00", 3)), "\"\\u0001\\u001f\\u0000\"");
	EXPECT_EQ(json_quote("/ and \x7f stay"), "\"/ and \x7f stay\"");
}

TEST(JsonQuote, Utf8KeptAndInvalidBytesReplaced)
{
	EXPECT_EQ(json_quote("\xc2\xb5s"), "\"\xc2\xb5s\"");			  // µs
	EXPECT_EQ(json_quote("\xe2\x82\xac"), "\"\xe2\x82\xac\"");		  // €
	EXPECT_EQ(json_quote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");	  // emoji
	EXPECT_EQ(json_quote("\xff"), "\"\\ufffd\"");				  // never valid
	EXPECT_EQ(json_quote("\xc0\xaf"), "\"\\ufffd\\ufffd\"");		  // overlong
	EXPECT_EQ(json_quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");	  // surrogate
	EXPECT_EQ(json_quote("a\xe2\x82"), "\"a\\ufffd\\ufffd\"");		  // truncated
	EXPECT_EQ(json_quote("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); // > U+10FFFF
}

TEST(JsonQuote, EveryByteStringIsValidJson)
{
	// Every single byte and every pair of high bytes: the result parses
	// and, for ASCII, decodes back to the input.
	for (int c = 0; c < 256; ++c) {
		std::string s(1, static_cast<char>(c));
		Json j = JsonParser::parse(json_quote(s));
		if (c < 0x80) {
			EXPECT_EQ(j.str(), s) << c;
		}
	}
	for (int a = 0x80; a < 256; ++a)
		for (int b = 0x80; b < 256; b += 7) {
			std::string s = { static_cast<char>(a), static_cast<char>(b) };
			EXPECT_NO_THROW(JsonParser::parse(json_quote(s))) << a << " " << b;
		}
}

TEST(JsonWriter, CompactStructure)
{
	JsonWriter w(false);
	w.begin_array();
	w.begin_object();
	w.key("dev");
	w.value("rxe\"0");
	w.key("n");
	w.value(std::uint64_t{ 18446744073709551615ULL });
	w.key("on");
	w.value(true);
	w.key("none");
	w.value_null();
	w.key("empty");
	w.begin_object();
	w.end_object();
	w.key("list");
	w.begin_array();
	w.value(std::uint64_t{ 1 });
	w.value_number("2.5");
	w.end_array();
	w.end_object();
	w.begin_array();
	w.end_array();
	w.end_array();
	EXPECT_EQ(w.str(), "[{\"dev\":\"rxe\\\"0\",\"n\":18446744073709551615,\"on\":true,"
			   "\"none\":null,\"empty\":{},\"list\":[1,2.5]},[]]");
	Json j = JsonParser::parse(w.str());
	EXPECT_EQ(j[0]["dev"].str(), "rxe\"0");
	EXPECT_EQ(j[0]["list"][1].text, "2.5");
}

TEST(JsonWriter, PrettyIsIndentedAndEquivalent)
{
	JsonWriter w(true);
	w.begin_array();
	w.begin_object();
	w.key("a");
	w.value(std::uint64_t{ 1 });
	w.key("b");
	w.begin_array();
	w.value("x");
	w.end_array();
	w.key("c");
	w.begin_object();
	w.end_object();
	w.end_object();
	w.end_array();
	EXPECT_EQ(w.str(), "[\n"
			   "  {\n"
			   "    \"a\": 1,\n"
			   "    \"b\": [\n"
			   "      \"x\"\n"
			   "    ],\n"
			   "    \"c\": {}\n"
			   "  }\n"
			   "]");
	EXPECT_EQ(JsonParser::parse(w.str())[0]["b"][0].str(), "x");
}

TEST(TableFormat, AlignsColumnsWithoutTrailingSpaces)
{
	Table t;
	t.row({ "NAME", "VALUE", "HELP" });
	t.row({ "rp_gd", "11", "" });
	t.row({ "rp_time_reset", "30000us", "period" });
	std::ostringstream os;
	t.print(os, "  ");
	EXPECT_EQ(os.str(), "  NAME           VALUE    HELP\n"
			    "  rp_gd          11\n"
			    "  rp_time_reset  30000us  period\n");
}

TEST(Pairs, WrapAtWidth)
{
	std::ostringstream os;
	print_pairs(os, { { "aaaa", "1" }, { "bbbb", "2" }, { "cccc", "3" } }, "  ", 16);
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
