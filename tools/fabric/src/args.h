// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Small value parsers shared by the rxecc-fabric command line: numbers and
// priority lists.  Each returns nullopt for anything malformed (sign, junk,
// overflow, empty), never a partial value.
#ifndef RXECC_FABRIC_PROC_ARGS_H
#define RXECC_FABRIC_PROC_ARGS_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace rxecc::fabric::proc {

// Decimal, no sign, at most max.
std::optional<uint64_t> parse_uint(std::string_view s, uint64_t max);

// "3", "3,4", "*" (all eight); a bit mask of the listed priorities (0..7).
// Duplicates are accepted; an empty list or element is not.
std::optional<uint8_t> parse_prio_list(std::string_view s);

} // namespace rxecc::fabric::proc

#endif
