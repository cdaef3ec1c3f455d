// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Parsing of command-line values: integers, rates, times, durations and
// algorithm parameters. Each function returns false and sets `err` to a
// sentence for the operator when the text is not acceptable.
#ifndef RXECC_PARSE_H
#define RXECC_PARSE_H

#include <cstdint>
#include <string>
#include <string_view>

#include "messages.h"

namespace rxecc {

// A non-negative integer: decimal, or hexadecimal with 0x. No sign, no
// spaces, no overflow.
bool parse_u64(std::string_view s, std::uint64_t &v, std::string &err);
bool parse_u32(std::string_view s, std::uint32_t &v, std::string &err);

// A decimal number with an optional fraction ("1.5") times `scale`,
// exactly: the result must be a whole number and fit in 64 bits.
bool parse_scaled(std::string_view s, std::uint64_t scale, std::uint64_t &v, std::string &err);

// A rate in bit/s: "0", "100M", "1.5G", "25Gbit", "400kbit/s", "1000000".
// Prefixes k, M, G, T (powers of 1000, any case); "bit", "bit/s", "bps"
// is refused as it often means bytes.
bool parse_rate_bps(std::string_view s, std::uint64_t &bps, std::string &err);

// A time in ns: "100us", "1.5ms", "250ns", "2s" ("usec", "msec", "sec"
// too). A bare number is only accepted for 0, or in `bare_unit_ns` units
// if that is non-zero.
bool parse_time_ns(std::string_view s, std::uint64_t &ns, std::string &err,
		   std::uint64_t bare_unit_ns = 0);

// on/off, yes/no, true/false, 1/0.
bool parse_bool(std::string_view s, bool &v, std::string &err);

// A value for parameter `p`, in its unit (kbit/s parameters also take
// rates such as "5Mbit", us/ns parameters times such as "2ms", percent
// parameters a trailing '%'), within [p.min, p.max]. The error names the
// parameter, its range and unit.
bool parse_param_value(const ParamInfo &p, std::string_view s, std::uint32_t &v, std::string &err);

} // namespace rxecc

#endif // RXECC_PARSE_H
