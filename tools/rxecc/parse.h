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

// SFC's ceiling of a pause and of a run of pauses (RXE_CC_A_SFC_MAX_US):
// a time with a unit ("50ms", "500us"), a whole number of microseconds
// from 1us to 1s.
constexpr std::uint32_t kSfcMaxUsMax = 1000000;
bool parse_sfc_max_us(std::string_view s, std::uint32_t &us, std::string &err);

// SFC's mode (RXE_CC_A_SFC_MODE): replace or max.
bool parse_sfc_mode(std::string_view s, std::uint8_t &mode, std::string &err);
// The mode's name, or its number if this rxecc does not know it.
std::string sfc_mode_name(std::uint64_t mode);

// A value for parameter `p`, in its unit (kbit/s parameters also take
// rates such as "5Mbit", us/ns parameters times such as "2ms", percent
// parameters a trailing '%'), within [p.min, p.max]. The error names the
// parameter, its range and unit.
bool parse_param_value(const ParamInfo &p, std::string_view s, std::uint32_t &v, std::string &err);

} // namespace rxecc

#endif // RXECC_PARSE_H
