// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The DSCP to 802.1p priority map of the testbed, written as rxe's
// dscp_prio module parameter takes it: "DSCP:PRIO" pairs separated by
// commas ("26:3,48:6"), every DSCP not named on priority 0, the empty text
// for all on 0. rxe (module parameter and netlink), rxecc and the fabric's
// topology files read and write this one form.
#ifndef RXECC_DSCP_MAP_H
#define RXECC_DSCP_MAP_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rxecc::dscp
{

constexpr std::size_t kDscps = 64;  // DSCP code points, 0..63
constexpr unsigned kPriorities = 8; // 802.1p priorities, 0..7

// The priority of each DSCP.
using Map = std::array<std::uint8_t, kDscps>;

// The map of TEXT, or std::nullopt and, if err is not null, why ("'26:9':
// priority 9 is not 0..7"). DSCP 0..63, priority 0..7, decimal; no DSCP
// twice; no blanks. The kernel's parser accepts at least this.
std::optional<Map> parse(std::string_view text, std::string *err = nullptr);

// The non-zero entries in DSCP order, "26:3,48:6"; "" if every DSCP is on
// priority 0. parse(format(m)) == m.
std::string format(const Map &m);

// The map of rxe's module parameter default and of the fabric's built-in
// default (specs/wire.md §6): DSCP 26 on 3, DSCP 48 on 6.
Map conventional();

} // namespace rxecc::dscp

#endif // RXECC_DSCP_MAP_H
