// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The grammar of rates, sizes and times (Documentation/rxe-cc/units.rst):
// every accepted form, every class of error with its message, exactness at
// the 64-bit edge, and format -> parse round trips.
#include "units.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace
{

using namespace rxecc::units;

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// The value of an accepted text; a failure names the text and the message.
std::uint64_t rate(const std::string &s)
{
	std::string err;
	auto v = parse_rate_bps(s, &err);
	EXPECT_TRUE(v.has_value()) << "'" << s << "': " << err;
	EXPECT_EQ(err, "") << "an accepted value leaves the message alone";
	return v.value_or(12345);
}

std::uint64_t size(const std::string &s)
{
	std::string err;
	auto v = parse_size_bytes(s, &err);
	EXPECT_TRUE(v.has_value()) << "'" << s << "': " << err;
	return v.value_or(12345);
}

std::uint64_t time_ns(const std::string &s, std::uint64_t bare = 0)
{
	std::string err;
	auto v = parse_time_ns(s, &err, bare);
	EXPECT_TRUE(v.has_value()) << "'" << s << "': " << err;
	return v.value_or(12345);
}

// The message of a refused text.
std::string rate_error(const std::string &s)
{
	std::string err;
	auto v = parse_rate_bps(s, &err);
	EXPECT_FALSE(v.has_value()) << "'" << s << "' parsed as " << *v;
	EXPECT_FALSE(parse_rate_bps(s).has_value()) << "without err too";
	return err;
}

std::string size_error(const std::string &s)
{
	std::string err;
	auto v = parse_size_bytes(s, &err);
	EXPECT_FALSE(v.has_value()) << "'" << s << "' parsed as " << *v;
	EXPECT_FALSE(parse_size_bytes(s).has_value()) << "without err too";
	return err;
}

std::string time_error(const std::string &s, std::uint64_t bare = 0)
{
	std::string err;
	auto v = parse_time_ns(s, &err, bare);
	EXPECT_FALSE(v.has_value()) << "'" << s << "' parsed as " << *v;
	EXPECT_FALSE(parse_time_ns(s, nullptr, bare).has_value()) << "without err too";
	return err;
}

const std::string kRateEx = " (examples: 100M, 2.5Gbit, 400kbit/s)";
const std::string kSizeEx = " (examples: 1500, 64KiB, 4MB)";
const std::string kTimeEx = " (examples: 300us, 1.5ms, 2s)";

// ---- rates ----------------------------------------------------------------

TEST(UnitsRate, BareNumbersAreBitsPerSecond)
{
	EXPECT_EQ(rate("0"), 0u);
	EXPECT_EQ(rate("9600"), 9600u);
	EXPECT_EQ(rate("007"), 7u);
	EXPECT_EQ(rate("18446744073709551615"), kMax);
}

TEST(UnitsRate, Prefixes)
{
	EXPECT_EQ(rate("1k"), 1000u);
	EXPECT_EQ(rate("1K"), 1000u);
	EXPECT_EQ(rate("100M"), 100000000u);
	EXPECT_EQ(rate("100m"), 100000000u); // tc's spelling: 40mbit
	EXPECT_EQ(rate("2G"), 2000000000u);
	EXPECT_EQ(rate("2g"), 2000000000u);
	EXPECT_EQ(rate("2T"), 2000000000000u);
	EXPECT_EQ(rate("2t"), 2000000000000u);
}

TEST(UnitsRate, EveryBitUnit)
{
	for (const char *u :
	     {"", "b", "bit", "bits", "bit/s", "bits/s", "bps", "b/s", "Bit", "BIT", "Bits/s"}) {
		EXPECT_EQ(rate(std::string("25") + u), 25u) << u;
		EXPECT_EQ(rate(std::string("25G") + u), 25000000000u) << u;
		EXPECT_EQ(rate(std::string("25k") + u), 25000u) << u;
	}
	EXPECT_EQ(rate("2.5Gbps"), 2500000000u);
	EXPECT_EQ(rate("100Mbps"), 100000000u);
	EXPECT_EQ(rate("400kbit/s"), 400000u);
	EXPECT_EQ(rate("40mbit"), 40000000u);
	EXPECT_EQ(rate("10Kbps"), 10000u);
}

TEST(UnitsRate, FractionsAreExact)
{
	EXPECT_EQ(rate("2.5G"), 2500000000u);
	EXPECT_EQ(rate("0.001k"), 1u);
	EXPECT_EQ(rate(".5k"), 500u);
	EXPECT_EQ(rate("5."), 5u);
	EXPECT_EQ(rate("1.000000000000000000000000000000"), 1u);
	EXPECT_EQ(rate("0.000000000001T"), 1u);
	EXPECT_EQ(rate("8.512345678G"), 8512345678u);
	// 2^64 - 1 in every prefix
	EXPECT_EQ(rate("18446744073709551.615k"), kMax);
	EXPECT_EQ(rate("18446744073.709551615Gbit"), kMax);
	EXPECT_EQ(rate("18446744.073709551615T"), kMax);
}

TEST(UnitsRate, BytesAreRefusedWithTheReason)
{
	EXPECT_EQ(rate_error("1.5GBps"),
	          "'1.5GBps' is not a rate: rates are in bits, 'Bps' is bytes" + kRateEx);
	for (const char *s :
	     {"10B", "10MB", "10MB/s", "10Bps", "10BPS", "10MBps", "1byte", "1Gbyte/s", "1GBytes"})
		EXPECT_NE(rate_error(s).find("rates are in bits"), std::string::npos) << s;
}

TEST(UnitsRate, UnknownUnits)
{
	EXPECT_EQ(rate_error("2.5Gbq"), "'2.5Gbq' is not a rate: unknown unit 'Gbq'" + kRateEx);
	for (const char *s :
	     {"10Mbit/sec", "1e9", "1Gib", "1Kibit", "1P", "1ms", "100Mx", "1Gbit/s/s"})
		EXPECT_NE(rate_error(s).find("unknown unit"), std::string::npos) << s;
}

TEST(UnitsRate, NotANumber)
{
	EXPECT_EQ(rate_error("fast"), "'fast' is not a rate" + kRateEx);
	EXPECT_EQ(rate_error("G"), "'G' is not a rate" + kRateEx);
	EXPECT_EQ(rate_error("."), "'.' is not a rate" + kRateEx);
	EXPECT_EQ(rate_error("1.2.3M"), "'1.2.3M' is not a rate" + kRateEx);
	EXPECT_EQ(rate_error("+1G"), "'+1G' is not a rate" + kRateEx);
	EXPECT_EQ(rate_error("0x10"), "'0x10' is not a rate: unknown unit 'x10'" + kRateEx);
}

TEST(UnitsRate, EmptySpacesAndNegatives)
{
	EXPECT_EQ(rate_error(""), "'' is not a rate: empty" + kRateEx);
	EXPECT_EQ(rate_error("1 G"), "'1 G' is not a rate: it contains a space" + kRateEx);
	EXPECT_EQ(rate_error(" 1G"), "' 1G' is not a rate: it contains a space" + kRateEx);
	EXPECT_EQ(rate_error("1G\n"), "'1G\n' is not a rate: it contains a space" + kRateEx);
	EXPECT_EQ(rate_error("1G\t"), "'1G\t' is not a rate: it contains a space" + kRateEx);
	EXPECT_EQ(rate_error("-1G"), "'-1G' is not a rate: it is negative" + kRateEx);
	EXPECT_EQ(rate_error("-0"), "'-0' is not a rate: it is negative" + kRateEx);
	EXPECT_EQ(rate_error("-.5G"), "'-.5G' is not a rate: it is negative" + kRateEx);
	EXPECT_EQ(rate_error("--rate"),
	          "'--rate' is not a rate" + kRateEx); // an option, not a number
	EXPECT_EQ(rate_error("-"), "'-' is not a rate" + kRateEx);
}

TEST(UnitsRate, NotAWholeNumber)
{
	EXPECT_EQ(rate_error("1.5"), "'1.5' is not a rate: not a whole number of bit/s" + kRateEx);
	EXPECT_NE(rate_error("0.0001k").find("not a whole number of bit/s"), std::string::npos);
	EXPECT_NE(rate_error("0.0000000000001T").find("not a whole number"), std::string::npos);
	EXPECT_NE(rate_error("1.0000000000000000000000000000001").find("not a whole number"),
	          std::string::npos);
}

TEST(UnitsRate, OverflowByOne)
{
	const std::string too_large = ": too large, at most 18446744073709551615 bit/s";
	EXPECT_EQ(rate_error("18446744073709551616"),
	          "'18446744073709551616' is not a rate" + too_large + kRateEx);
	EXPECT_NE(rate_error("18446744073709551.616k").find(too_large), std::string::npos);
	EXPECT_NE(rate_error("18446744073.709551616G").find(too_large), std::string::npos);
	EXPECT_NE(rate_error("18446744.073709551616T").find(too_large), std::string::npos);
	EXPECT_NE(rate_error("99999999999T").find(too_large), std::string::npos);
	EXPECT_NE(rate_error("100000000000000000000000000000000").find(too_large),
	          std::string::npos);
}

TEST(UnitsRate, ErrIsOptional)
{
	EXPECT_EQ(parse_rate_bps("100M"), 100000000u);
	EXPECT_FALSE(parse_rate_bps("100MB"));
}

// ---- sizes ----------------------------------------------------------------

TEST(UnitsSize, EveryUnit)
{
	struct {
		const char *unit;
		std::uint64_t mult;
	} const units[] = {
		{"", 1},
		{"B", 1},
		{"k", 1000},
		{"K", 1000},
		{"kB", 1000},
		{"KB", 1000},
		{"KiB", 1024},
		{"M", 1000000},
		{"MB", 1000000},
		{"MiB", 1048576},
		{"G", 1000000000},
		{"GB", 1000000000},
		{"GiB", 1073741824},
		{"T", 1000000000000},
		{"TB", 1000000000000},
		{"TiB", 1099511627776},
	};
	for (const auto &u : units) {
		EXPECT_EQ(size(std::string("3") + u.unit), 3 * u.mult) << u.unit;
		EXPECT_EQ(size(std::string("0") + u.unit), 0u) << u.unit;
	}
}

TEST(UnitsSize, Examples)
{
	EXPECT_EQ(size("1500"), 1500u);
	EXPECT_EQ(size("64KB"), 64000u);
	EXPECT_EQ(size("64KiB"), 65536u);
	EXPECT_EQ(size("1.5KB"), 1500u);
	EXPECT_EQ(size("1.5KiB"), 1536u);
	EXPECT_EQ(size("0.5KiB"), 512u);
	EXPECT_EQ(size("0.0009765625KiB"), 1u);
	EXPECT_EQ(size("4MB"), 4000000u);
	EXPECT_EQ(size("1MiB"), 1048576u);
	// 1 byte written with 30 decimals: the exact arithmetic does not
	// depend on the number fitting in 64 bits
	EXPECT_EQ(size("0.000000000931322574615478515625GiB"), 1u);
	EXPECT_EQ(size("18446744073709551615B"), kMax);
	EXPECT_EQ(size("16777215.9999999999990905052982270717620849609375TiB"), kMax);
}

TEST(UnitsSize, Errors)
{
	EXPECT_EQ(size_error("1.0001KB"),
	          "'1.0001KB' is not a size: not a whole number of bytes" + kSizeEx);
	EXPECT_EQ(size_error("KB"), "'KB' is not a size" + kSizeEx);
	EXPECT_EQ(size_error(""), "'' is not a size: empty" + kSizeEx);
	EXPECT_EQ(size_error("-1"), "'-1' is not a size: it is negative" + kSizeEx);
	EXPECT_EQ(size_error("64 KB"), "'64 KB' is not a size: it contains a space" + kSizeEx);
	EXPECT_EQ(size_error("64Kb"),
	          "'64Kb' is not a size: sizes are in bytes, 'Kb' is bits" + kSizeEx);
	EXPECT_EQ(size_error("1Mbit"),
	          "'1Mbit' is not a size: sizes are in bytes, 'Mbit' is bits" + kSizeEx);
	EXPECT_EQ(size_error("64kiB"), "'64kiB' is not a size: unknown unit 'kiB'" + kSizeEx);
	for (const char *s : {"1m", "1mB", "1KIB", "1PB", "1Ki", "5s", "1KBB"})
		EXPECT_NE(size_error(s).find("unknown unit"), std::string::npos) << s;
	EXPECT_EQ(size_error("18446744073709551616"), "'18446744073709551616' is not a size: too "
	                                              "large, at most 18446744073709551615 bytes" +
	                                                      kSizeEx);
	EXPECT_NE(size_error("16777216TiB").find("too large"), std::string::npos);
	EXPECT_NE(size_error("18446744073709552KB").find("too large"), std::string::npos);
}

// ---- times ----------------------------------------------------------------

TEST(UnitsTime, EveryUnit)
{
	EXPECT_EQ(time_ns("250ns"), 250u);
	EXPECT_EQ(time_ns("250nsec"), 250u);
	EXPECT_EQ(time_ns("300us"), 300000u);
	EXPECT_EQ(time_ns("3usec"), 3000u);
	EXPECT_EQ(time_ns("7\xc2\xb5s"), 7000u); // micro sign
	EXPECT_EQ(time_ns("7\xce\xbcs"), 7000u); // Greek mu
	EXPECT_EQ(time_ns("1.5ms"), 1500000u);
	EXPECT_EQ(time_ns("4msec"), 4000000u);
	EXPECT_EQ(time_ns("2s"), 2000000000u);
	EXPECT_EQ(time_ns("1sec"), 1000000000u);
	EXPECT_EQ(time_ns("0ns"), 0u);
}

TEST(UnitsTime, FractionsAreExact)
{
	EXPECT_EQ(time_ns("0.1us"), 100u);
	EXPECT_EQ(time_ns("0.000000001s"), 1u);
	EXPECT_EQ(time_ns("1.000001ms"), 1000001u);
	EXPECT_EQ(time_ns("18446744073.709551615s"), kMax);
	EXPECT_EQ(time_error("1.5ns"), "'1.5ns' is not a time: not a whole number of ns" + kTimeEx);
	EXPECT_NE(time_error("0.0000000001s").find("not a whole number"), std::string::npos);
	EXPECT_NE(time_error("18446744073.709551616s")
	                  .find("too large, at most 18446744073709551615 ns"),
	          std::string::npos);
}

TEST(UnitsTime, BareNumbersNeedAUnitUnlessZero)
{
	EXPECT_EQ(time_ns("0"), 0u);
	EXPECT_EQ(time_ns("0.000"), 0u);
	EXPECT_EQ(time_ns("000"), 0u);
	EXPECT_EQ(time_error("100"),
	          "'100' is not a time: it needs a unit, ns, us, ms or s" + kTimeEx);
	EXPECT_NE(time_error("0.5").find("needs a unit"), std::string::npos);
}

TEST(UnitsTime, BareUnit)
{
	EXPECT_EQ(time_ns("100", 1000000), 100000000u); // milliseconds
	EXPECT_EQ(time_ns("0.5", 1000000000), 500000000u);
	EXPECT_EQ(time_ns("500ms", 1000000000), 500000000u); // a unit still wins
	EXPECT_EQ(time_ns("3", 250), 750u);
	EXPECT_EQ(time_error("0.1", 1),
	          "'0.1' is not a time: not a whole number of ns (examples: 300us, "
	          "1.5ms, 2s; a bare number counts in units of 1ns)");
	EXPECT_EQ(time_error("x", 1000000), "'x' is not a time (examples: 300us, 1.5ms, 2s; a bare "
	                                    "number counts in units of 1ms)");
	EXPECT_NE(time_error("18446744073709552", 1000).find("too large"), std::string::npos);
	EXPECT_EQ(time_ns("18446744073709551615", 1), kMax);
}

TEST(UnitsTime, Errors)
{
	EXPECT_EQ(time_error("5min"), "'5min' is not a time: unknown unit 'min'" + kTimeEx);
	for (const char *s : {"5S", "5Ms", "5US", "5m", "5h", "5usecs", "5 ms", "1e3ns"})
		EXPECT_FALSE(parse_time_ns(s)) << s;
	EXPECT_EQ(time_error("ms"), "'ms' is not a time" + kTimeEx);
	EXPECT_EQ(time_error(""), "'' is not a time: empty" + kTimeEx);
	EXPECT_EQ(time_error("-1ms"), "'-1ms' is not a time: it is negative" + kTimeEx);
	EXPECT_EQ(time_error("1 ms"), "'1 ms' is not a time: it contains a space" + kTimeEx);
	EXPECT_EQ(time_error("1msx"), "'1msx' is not a time: unknown unit 'msx'" + kTimeEx);
}

// ---- formatting ---------------------------------------------------------

TEST(UnitsFormat, Rates)
{
	EXPECT_EQ(format_rate_bps(0), "0bit");
	EXPECT_EQ(format_rate_bps(999), "999bit");
	EXPECT_EQ(format_rate_bps(1000), "1kbit");
	EXPECT_EQ(format_rate_bps(1001), "1001bit");
	EXPECT_EQ(format_rate_bps(1500), "1500bit"); // a tie: the smaller unit
	EXPECT_EQ(format_rate_bps(400000), "400kbit");
	EXPECT_EQ(format_rate_bps(100000000), "100Mbit");
	EXPECT_EQ(format_rate_bps(2500000000), "2.5Gbit");
	EXPECT_EQ(format_rate_bps(8512345678), "8512345678bit"); // 8.512345678Gbit is longer
	EXPECT_EQ(format_rate_bps(2000000000000), "2Tbit");
	EXPECT_EQ(format_rate_bps(kMax), "18446744073709551615bit");
}

TEST(UnitsFormat, Sizes)
{
	EXPECT_EQ(format_size_bytes(0), "0B");
	EXPECT_EQ(format_size_bytes(1500), "1500B");
	EXPECT_EQ(format_size_bytes(1536), "1536B");
	EXPECT_EQ(format_size_bytes(64000), "64KB");
	EXPECT_EQ(format_size_bytes(65536), "64KiB");
	EXPECT_EQ(format_size_bytes(4000000), "4MB");
	EXPECT_EQ(format_size_bytes(1572864), "1.5MiB");
	EXPECT_EQ(format_size_bytes(1024000), "1024KB");
	EXPECT_EQ(format_size_bytes(1ULL << 40), "1TiB");
	EXPECT_EQ(format_size_bytes(kMax), "18446744073709551615B");
}

TEST(UnitsFormat, Times)
{
	EXPECT_EQ(format_time_ns(0), "0ns");
	EXPECT_EQ(format_time_ns(250), "250ns");
	EXPECT_EQ(format_time_ns(1500), "1.5us");
	EXPECT_EQ(format_time_ns(300000), "300us");
	EXPECT_EQ(format_time_ns(1500000), "1.5ms");
	EXPECT_EQ(format_time_ns(1000001), "1000001ns");
	EXPECT_EQ(format_time_ns(2000000000), "2s");
	EXPECT_EQ(format_time_ns(3600000000000), "3600s");
	EXPECT_EQ(format_time_ns(kMax),
	          "18446744073709551615ns"); // a tie with 18446744073.709551615s
}

// Values near every unit boundary and every power of 2 and 10, and their
// neighbours.
std::vector<std::uint64_t> interesting_values()
{
	std::vector<std::uint64_t> v = {
		0,    1,    2,    7,    9,     99,   999,      1001,     1023,
		1025, 1500, 1536, 9000, 65535, kMax, kMax - 1, kMax / 2, 1234567890123456789ULL};
	for (std::uint64_t p = 1;; p *= 10) {
		for (std::uint64_t m : {1ULL, 2ULL, 3ULL, 5ULL, 7ULL, 25ULL})
			if (p <= kMax / m)
				v.insert(v.end(), {p * m - 1, p * m, p * m + 1});
		if (p > kMax / 10)
			break;
	}
	for (unsigned s = 0; s < 64; ++s) {
		std::uint64_t p = 1ULL << s;
		v.insert(v.end(), {p - 1, p, p + 1, p + p / 2});
	}
	return v;
}

TEST(UnitsFormat, RoundTrips)
{
	const auto values = interesting_values();
	ASSERT_GT(values.size(), 400u);
	for (std::uint64_t v : values) {
		std::string err;
		const std::string r = format_rate_bps(v);
		EXPECT_EQ(parse_rate_bps(r, &err), v) << r << " " << err;
		const std::string s = format_size_bytes(v);
		EXPECT_EQ(parse_size_bytes(s, &err), v) << s << " " << err;
		const std::string t = format_time_ns(v);
		EXPECT_EQ(parse_time_ns(t, &err), v) << t << " " << err;
	}
}

TEST(UnitsFormat, TheShortestFormIsNeverLongerThanTheBaseUnit)
{
	for (std::uint64_t v : interesting_values()) {
		EXPECT_LE(format_rate_bps(v).size(), std::to_string(v).size() + 3) << v;
		EXPECT_LE(format_size_bytes(v).size(), std::to_string(v).size() + 1) << v;
		EXPECT_LE(format_time_ns(v).size(), std::to_string(v).size() + 2) << v;
	}
}

} // namespace
