// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Parsing of command-line values: integers, booleans and algorithm
// parameters. Each function returns false and sets `err` to a
// sentence for the operator when the text is not acceptable.
#ifndef RXECC_PARSE_H
#define RXECC_PARSE_H

#include <cstdint>
#include <string>
#include <string_view>

#include "messages.h"

namespace rxecc
{

// A non-negative integer: decimal, or hexadecimal with 0x. No sign, no
// spaces, no overflow.
bool parse_u64(std::string_view s, std::uint64_t &v, std::string &err);
bool parse_u32(std::string_view s, std::uint32_t &v, std::string &err);

// Rates and times are parsed by rxecc::units (tools/common/units.h,
// Documentation/rxe-cc/units.rst).

// on/off, yes/no, true/false, 1/0.
bool parse_bool(std::string_view s, bool &v, std::string &err);

// A value for parameter `p`, in its unit (kbit/s parameters also take
// rates such as "5Mbit", us/ns parameters times such as "2ms", percent
// parameters a trailing '%'), within [p.min, p.max]. The error names the
// parameter, its range and unit.
bool parse_param_value(const ParamInfo &p, std::string_view s, std::uint32_t &v, std::string &err);

} // namespace rxecc

#endif // RXECC_PARSE_H
