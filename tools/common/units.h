// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One grammar for rates, sizes and times ("100M", "2.5Gbit", "64KiB",
// "300us"), shared by every tool of the project. The grammar is written
// down in Documentation/rxe-cc/units.rst.
//
// Values are computed exactly in integers: "0.1us" is 100 ns, and a text
// whose value is not a whole number of the base unit (bit/s, byte, ns), is
// negative, empty, contains a space or trailing junk, or does not fit in 64
// bits is refused.
#ifndef RXECC_UNITS_H
#define RXECC_UNITS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rxecc::units
{

// Each returns the value, or std::nullopt and, if err is not null, a
// sentence for the operator that quotes the text and gives examples of
// accepted forms ("'2.5Gbq' is not a rate: unknown unit 'Gbq' (examples:
// 100M, 2.5Gbit, 400kbit/s)").

// bit/s: "100M", "2.5Gbit", "400kbit/s", "10Gbps"; a bare number is bit/s.
std::optional<std::uint64_t> parse_rate_bps(std::string_view text, std::string *err = nullptr);
// bytes: "1500", "1500B", "64KB" (64000), "64KiB" (65536), "4MB".
std::optional<std::uint64_t> parse_size_bytes(std::string_view text, std::string *err = nullptr);
// ns: "300us", "1.5ms", "2s". A bare number is refused unless it is 0 or
// bare_unit_ns != 0 (then it counts in those units: with 1000000, "5" is
// 5 ms).
std::optional<std::uint64_t> parse_time_ns(std::string_view text, std::string *err = nullptr,
                                           std::uint64_t bare_unit_ns = 0);

// The shortest exact form that parses back to the same value: among the
// units whose value is at least one, the shortest text, the smaller unit
// on a tie.
std::string format_rate_bps(std::uint64_t bps);     // "100Mbit", "2.5Gbit", "0bit"
std::string format_size_bytes(std::uint64_t bytes); // "64KiB", "1500B", "4MB"
std::string format_time_ns(std::uint64_t ns);       // "300us", "1.5ms", "2s"

// The examples that the error messages give, for help texts:
// "100M, 2.5Gbit, 400kbit/s", "1500, 64KiB, 4MB", "300us, 1.5ms, 2s".
extern const char *const kRateExamples;
extern const char *const kSizeExamples;
extern const char *const kTimeExamples;

} // namespace rxecc::units

#endif // RXECC_UNITS_H
