// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Several switches joined by internal links (leaf-spine, dumbbell, parking
// lot), with the same event API as one switch.  A frame sent on a linked
// port is delivered to the peer port when its last bit arrives (end of
// serialisation + propagation delay); frames sent on other ports are
// returned by poll() for the process (or simulator) to deliver.
//
// Events of all switches and links are processed in time order (ties: link
// deliveries first, then switches in index order), so the result does not
// depend on when poll() is called.
#ifndef RXECC_FABRIC_FABRIC_H
#define RXECC_FABRIC_FABRIC_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "switch_config.h"
#include "switch_model.h"

namespace rxecc::fabric
{

struct FabricTransmission {
	int sw = -1;
	Transmission tx;
};

class Fabric
{
public:
	// Throws std::invalid_argument if validate(topo) fails.  Switch i is
	// seeded with topo.seed + i.
	explicit Fabric(const Topology &topo);

	int num_switches() const { return static_cast<int>(switches_.size()); }
	Switch &switch_at(int i) { return *switches_[static_cast<size_t>(i)]; }
	const Switch &switch_at(int i) const { return *switches_[static_cast<size_t>(i)]; }
	int find_switch(const std::string &name) const;
	// Whether (sw, port) is the end of an internal link.
	bool is_internal(int sw, int port) const;

	// A frame received from outside on an external port.
	void on_ingress(int sw, int port, std::vector<uint8_t> frame, Time now);
	Time next_event_time() const;
	// Frames that left external ports by now.
	std::vector<FabricTransmission> poll(Time now);

private:
	struct InFlight {
		int sw, port;
		std::vector<uint8_t> frame;
	};
	using Endpoint = std::pair<int, int>;

	void advance(Time now);
	void collect(int sw, Time now);

	Topology topo_;
	std::vector<std::unique_ptr<Switch>> switches_;
	std::map<Endpoint, Endpoint> peer_;
	// Keyed by (arrival time, sequence) so equal times keep send order.
	std::map<std::pair<Time, uint64_t>, InFlight> in_flight_;
	uint64_t seq_ = 0;
	std::vector<FabricTransmission> outbox_;
	Time now_ = 0;
};

} // namespace rxecc::fabric

#endif
