// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Configuration of switches, ports and links of the fabric.  Plain data:
// the topology parser fills it, Switch and Fabric consume it, validate()
// checks it.  Sizes are bytes of frames as carried (without FCS), rates are
// bit/s, times are ns.
#ifndef RXECC_FABRIC_SWITCH_CONFIG_H
#define RXECC_FABRIC_SWITCH_CONFIG_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "packet.h"

namespace rxecc::fabric
{

// Q16 fixed point: 65536 = 1.0.
inline constexpr uint32_t kQ16One = 65536;

// Where the RED rule is evaluated (specs/dcqcn.md §2.2): at dequeue on the
// bytes left in the queue after the packet (the default, as the reference
// simulator does), or at enqueue on the bytes queued ahead of the packet
// (classic switch WRED).
enum class MarkPoint { kDequeue, kEnqueue };

// RED/ECN marking of one egress queue (port, priority).
struct RedParams {
	bool enabled = false;
	uint64_t kmin = 0;     // bytes
	uint64_t kmax = 0;     // bytes, > kmin
	uint32_t pmax_q16 = 0; // floor(Pmax * 65536), <= 65536
	MarkPoint point = MarkPoint::kDequeue;
};

// PFC of one ingress (port, priority).  Lossless when enabled.
struct PfcParams {
	bool enabled = false;
	uint64_t xoff = 0;     // send XOFF when the ingress counter reaches it
	uint64_t xon = 0;      // send XON when it falls to it (< xoff)
	uint64_t headroom = 0; // reserved beyond xoff for in-flight bytes
};

struct PortConfig {
	std::string name;
	uint64_t rate_bps = 0;
	Time delay_ns = 0; // propagation delay of the outgoing direction
	// Bytes added to every frame for serialisation: FCS 4 + preamble and
	// SFD 8 + inter-frame gap 12.  Frames are first padded to 60 bytes.
	uint32_t overhead_bytes = 24;
	Mac mac{};                      // source address of PFC frames sent here
	bool flood = true;              // receives broadcast/multicast/unknown frames
	uint16_t pause_quanta = 0xffff; // time carried by XOFF frames sent here
	std::string attach;             // opaque, for the process that moves frames
	std::array<RedParams, kNumPriorities> red{};
	std::array<PfcParams, kNumPriorities> pfc{};
};

struct IpRoute {
	IpAddr prefix;
	unsigned prefix_len = 0;
	int port = -1;
};

struct MacRoute {
	Mac mac{};
	int port = -1;
};

struct SwitchConfig {
	std::string name;
	uint64_t buffer_bytes = 0; // shared buffer of the whole switch
	// Dynamic threshold of lossy egress queues: a queue may grow while
	// its bytes are below alpha * free shared buffer.
	uint32_t alpha_q16 = kQ16One;
	std::array<uint8_t, 64> dscp_to_prio = default_dscp_map();
	uint8_t strict_mask = 0xc0; // priorities served by strict priority
	std::array<uint32_t, kNumPriorities> quantum = {1500, 1500, 1500, 1500,
	                                                1500, 1500, 1500, 1500};
	std::vector<PortConfig> ports;
	std::vector<IpRoute> routes;
	std::vector<MacRoute> macs;

	// wire.md §6 testbed defaults: DSCP 26 -> 3, DSCP 48 -> 6, else 0.
	static std::array<uint8_t, 64> default_dscp_map();
	int find_port(const std::string &port_name) const;
};

// One internal link: port_a of switch sw_a to port_b of switch sw_b.
struct LinkConfig {
	int sw_a = -1, port_a = -1;
	int sw_b = -1, port_b = -1;
};

struct Topology {
	uint64_t seed = 1;
	std::vector<SwitchConfig> switches;
	std::vector<LinkConfig> links;

	int find_switch(const std::string &name) const;
};

// Limits checked by validate().
inline constexpr uint64_t kMinRateBps = 1000;
inline constexpr uint64_t kMaxRateBps = 2000000000000ull; // 2 Tbit/s
inline constexpr Time kMaxDelayNs = 10000000000ull;       // 10 s
inline constexpr uint64_t kMaxBufferBytes = 1ull << 40;
inline constexpr uint32_t kMaxAlphaQ16 = 64 * kQ16One;
inline constexpr uint32_t kMinQuantum = 64;

// Sum of the headroom reserved by the PFC-enabled (port, priority) pairs.
uint64_t reserved_headroom(const SwitchConfig &c);

// Empty if valid, otherwise what is wrong.
std::string validate(const SwitchConfig &c);
std::string validate(const Topology &t);

} // namespace rxecc::fabric

#endif
