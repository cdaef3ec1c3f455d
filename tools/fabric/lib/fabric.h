// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Several switches joined by internal links (leaf-spine, dumbbell, parking
// lot), with the same event API as one switch.  A frame sent on a linked
// port is delivered to the peer port when its last bit arrives (end of
// serialisation + propagation delay); frames sent on other ports are
// returned by poll() for the process (or simulator) to deliver.
//
// An external port with an uplink (the topology's uplink directive;
// uplink.h) has the host's NIC in front of it: frames from the host are
// serialised at the port's rate before the switch gets them, and the NIC's
// PFC frames to its host are returned by poll() with the switch's.
//
// Events of all switches, links and uplinks are processed in time order
// (ties: link deliveries first, then uplinks, then switches, each in index
// order), so the result does not depend on when poll() is called.
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
#include "uplink.h"

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

	// The uplink of (sw, port); null if it has none.
	const Uplink *uplink(int sw, int port) const;

	// A frame received from outside on an external port: at once into
	// the switch, or into the port's uplink.
	void on_ingress(int sw, int port, std::vector<uint8_t> frame, Time now);
	Time next_event_time() const;
	// Frames that left external ports by now.
	std::vector<FabricTransmission> poll(Time now);

private:
	// A frame reaching port of switch sw, or (uplink >= 0) a PFC or
	// PAUSE frame of that port reaching its uplink's NIC.
	struct InFlight {
		int sw, port;
		std::vector<uint8_t> frame;
		int uplink = -1;
		PauseRequest pause{};
	};
	using Endpoint = std::pair<int, int>;

	void advance(Time now);
	void collect(int sw, Time now);
	void collect_uplink(size_t i);
	void to_nic(size_t i, const Transmission &tx);

	Topology topo_;
	std::vector<std::unique_ptr<Switch>> switches_;
	std::map<Endpoint, Endpoint> peer_;
	std::vector<std::unique_ptr<Uplink>> uplinks_;
	std::vector<int> uplink_sw_; // the switch of each uplink
	std::map<Endpoint, size_t> uplink_of_;
	// Keyed by (arrival time, sequence) so equal times keep send order.
	std::map<std::pair<Time, uint64_t>, InFlight> in_flight_;
	uint64_t seq_ = 0;
	std::vector<FabricTransmission> outbox_;
	Time now_ = 0;
};

} // namespace rxecc::fabric

#endif
