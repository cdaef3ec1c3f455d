// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Output helpers: human units, aligned tables and CSV. JSON is written
// with nlohmann-json (cli.cc).
#ifndef RXECC_FORMAT_H
#define RXECC_FORMAT_H

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "messages.h"

namespace rxecc
{

// For reading, not for typing back: "100Mbit", "1.5Gbit", "999bit", at
// most three decimals, rounded ("8.512Gbit"). units::format_rate_bps and
// units::format_time_ns (units.h) are exact.
std::string format_rate_bps(std::uint64_t bps);
// "250ns", "100us", "1.5ms", "2s", rounded to three decimals.
std::string format_time_ns(std::uint64_t ns);
// "64KiB", "1500B".
std::string format_bytes(std::uint64_t bytes);
// A Q10 / Q16 fixed-point value with four decimals: "0.2500".
std::string format_fixed(std::uint64_t v, unsigned frac_bits);

// Unit of enum rxe_cc_unit_id for people ("kbit/s", "us", "%", "" for a
// count) and for JSON ("kbps", "us", "percent", "none").
std::string unit_label(std::uint32_t unit);
std::string unit_id(std::uint32_t unit);
// "1..2147483648 kbit/s"
std::string format_range(const ParamInfo &p);
// A parameter value as 'rxecc ... set' accepts it back: "3000us", "50%",
// "1020".
std::string format_param_value(std::uint32_t unit, std::uint64_t v);
// A state value for people: fractions for Q10/Q16, else the integer.
std::string format_state_value(std::uint32_t unit, std::uint64_t v);

// Columns padded to the widest cell; the last column is not padded.
class Table
{
public:
	void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
	void print(std::ostream &os, std::string_view indent = {}) const;
	bool empty() const { return rows_.empty(); }

private:
	std::vector<std::vector<std::string>> rows_;
};

// "name value" pairs on lines of at most `width` characters after `indent`.
void print_pairs(std::ostream &os, const std::vector<std::pair<std::string, std::string>> &pairs,
                 std::string_view indent, std::size_t width = 100);

// One CSV field, quoted if needed (RFC 4180).
std::string csv_field(std::string_view s);

// "12", "12.5", "0.33" - a rate per second with at most two decimals.
std::string format_per_second(std::uint64_t delta, std::uint64_t elapsed_ns);

} // namespace rxecc

#endif // RXECC_FORMAT_H
