// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Parser of the fabric topology file, a small line-based text format
// documented in Documentation/rxe-cc/fabric-topology.rst.  Parsing is pure:
// it reads a string and returns either a complete, validated Topology or
// the first error with its line number, never a partial result.
#ifndef RXECC_FABRIC_TOPOLOGY_H
#define RXECC_FABRIC_TOPOLOGY_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "switch_config.h"

namespace rxecc::fabric
{

struct TopologyError {
	int line = 0; // 1-based; 0 when not tied to a line
	std::string message;
	std::string to_string() const; // "line N: message"
};

struct TopologyResult {
	std::optional<Topology> topology;
	TopologyError error; // meaningful when topology is empty
	explicit operator bool() const { return topology.has_value(); }
};

TopologyResult parse_topology(std::string_view text);

// Sizes, rates and times are rxecc::units (units.h); nullopt if malformed.
std::optional<uint32_t> parse_fraction_q16(std::string_view s); // 0.2, 1/8 -> floor(x*65536)

} // namespace rxecc::fabric

#endif
