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

// TCD (ternary congestion detection, ACC's marking: tcd.h) of one egress
// queue (port, priority).  One marking mode per queue: not with RED.
struct TcdParams {
	bool enabled = false;
	uint64_t threshold = 0; // bytes: q <= threshold is NONCONGESTION (> 0)
	Time max_ton_ns = 0;    // longest ON period PFC modulation explains
};

// NP-ECN (PCN's marking: npecn.h) of one egress queue (port, priority).
// One marking mode per queue: not with RED or TCD.
struct NpEcnParams {
	bool enabled = false;
	uint64_t k = 0; // bytes: mark when more than k are left behind (PCN: 0)
};

// PFC of one ingress (port, priority).  Lossless when enabled.
struct PfcParams {
	bool enabled = false;
	uint64_t xoff = 0;     // send XOFF when the ingress counter reaches it
	uint64_t xon = 0;      // send XON when it falls to it (< xoff)
	uint64_t headroom = 0; // reserved beyond xoff for in-flight bytes
};

// HPCC INT link-rate codes (4 bits): the rate in bit/s of each code, 0
// for none.  Code 0 is never a rate (an unwritten slot); 1..10 are fixed
// (1, 2.5, 5, 10, 25, 40, 50, 100, 200, 400 Gbit/s); 11..15 are
// configurable, by default 100, 200 and 500 Mbit/s and two unassigned,
// as in the kernel's HPCC.  Both sides must use the same table.
inline constexpr size_t kIntRateCodes = 16;
inline constexpr uint8_t kIntFirstConfigurableCode = 11;
inline constexpr uint64_t kIntRateUnitBps = 1000000; // configurable: whole Mbit/s
using IntRateTable = std::array<uint64_t, kIntRateCodes>;
IntRateTable default_int_rate_table();
// The code whose rate is exactly rate_bps; 0 if there is none.
uint8_t int_rate_code(const IntRateTable &t, uint64_t rate_bps);
// Empty if valid, otherwise what is wrong.
std::string validate_int_rate_table(const IntRateTable &t);
// Empty if code may be given rate_bps (0: unassigned) in t, otherwise why
// not (a fixed code, not a whole Mbit/s, out of range, another code's).
std::string check_int_rate_code(const IntRateTable &t, unsigned code, uint64_t rate_bps);

// INT stamping (specs/hpcc.md §3.1, §4.3) of a switch.  The UDP port and
// the table are the fabric's (the same in every switch); the ID is the
// switch's own, XORed into the pathID of the packets it stamps.
struct IntConfig {
	uint16_t udp_port = kDefaultIntPort; // not 0, not 4791
	uint16_t switch_id = 0;              // 12 bits
	IntRateTable rates = default_int_rate_table();
};

// SFC (back-to-sender pause, sfc.h; specs/sfc.md §2, §3.3, §4.3) of a
// switch: what triggers a BTS, the pause cache and the Bloom filter.  The
// UDP port and DSCP of BTS are the fabric's (the same in every switch).
enum class SfcVariant {
	kIngress, // at enqueue, on the queue ahead of the packet (SFC)
	kEgress,  // at dequeue, on the queue left behind (flag E, no cache)
};
inline constexpr uint16_t kDefaultBtsPort = 4793;
inline constexpr uint8_t kDefaultBtsDscp = 48;

struct SfcParams {
	bool enabled = false;
	uint8_t prio_mask = 1u << 3; // priorities whose data triggers BTS
	SfcVariant variant = SfcVariant::kIngress;
	bool cache = true;     // near-source pause cache (ingress only)
	bool cache_own = true; // cache this switch's own cacheable BTS
	uint32_t cache_entries = 4096;
	uint32_t bloom_bits = 4096;
	Time bloom_reset_ns = 500000;
	uint32_t max_pause_us = 10000; // pause_time saturates here
	bool drop_zero = false;        // send no BTS whose pause is 0
	bool sfcp = false;             // BTS to an attached host -> PFC
	uint16_t bts_port = kDefaultBtsPort;
	uint8_t bts_dscp = kDefaultBtsDscp;
};

// SFC of one egress port: its queues of the SFC priorities are congestion
// points.
struct SfcPortParams {
	bool enabled = false;
	uint64_t q_th = 0; // bytes: a BTS when the queue ahead exceeds it
	uint64_t q_tg = 0; // bytes: the pause drains the queue to it (< q_th)
};

// Limits checked by validate().
inline constexpr uint32_t kMaxSfcCacheEntries = 1u << 20;
inline constexpr uint32_t kMinSfcBloomBits = 64;
inline constexpr uint32_t kMaxSfcBloomBits = 1u << 24;
inline constexpr Time kMaxSfcBloomResetNs = 10000000000ull; // 10 s
inline constexpr uint32_t kMaxSfcPauseUs = 10000000;        // 10 s

// ACCurate's congestion points (accurate.h; specs/accurate.md §2.2, §4.8)
// of one port: the egress CP of the link it drives and, on a host-facing
// port, the ingress CP of the host's uplink.  C is the port's rate.
struct AccParams {
	bool enabled = false;
	uint32_t alpha_ppm = 50000; // headroom: Ceff = C - C * alpha_ppm / 10^6
	uint32_t k_sc_milli = 1500; // short-circuit if CR > K_SC * FSR; 0: off
	bool neg_ceff = false;      // negative FSR: Ceff, not C, / #flows
	bool hysteresis = false;    // classify with min(FSR, FSR_o) (§2.10)
	bool ingress = true;        // the ingress CP too (host-facing ports)
	uint8_t hop = 0;            // sc_hop of its short-circuits; 0: default
};
inline constexpr uint32_t kAccMaxAlphaPpm = 999999;
inline constexpr uint32_t kAccMaxKScMilli = 1000000; // 1000x

// The host uplink of an external port (uplink.h): frames from the host
// cross a link at the port's rate (and delay) before the switch gets them,
// queued per priority in the host's NIC, which pauses the host with PFC
// while a priority's queue is long.  Off by default: frames reach the
// switch as they are read.
struct UplinkParams {
	bool enabled = false;
	uint64_t xoff = 0; // XOFF to the host when a priority's queue reaches it
	uint64_t xon = 0;  // XON when it falls to it (< xoff)
};
// What a host in the test VM takes to react to a PFC frame (a few ms; to
// send again after an XON, about 5 ms): the default XON threshold is what
// the port's rate sends in that time, so that the link does not idle while
// the host starts again, and XOFF twice that.
inline constexpr Time kUplinkHostReactNs = 5000000;
inline constexpr uint64_t kUplinkMinXon = 3000; // two full frames
UplinkParams default_uplink_params(uint64_t rate_bps);

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
	std::array<TcdParams, kNumPriorities> tcd{};
	std::array<NpEcnParams, kNumPriorities> npecn{};
	std::array<PfcParams, kNumPriorities> pfc{};
	// Stamp INT into the packets leaving this port (its rate needs a
	// code in the switch's IntConfig::rates).
	bool int_stamp = false;
	// Attached to a host (the topology's port directive), not to
	// another switch (link): SFC's "server-facing" port, whose
	// congestion BTS may be cached (C flag) and to which SFC-P sends
	// PFC.
	bool server_facing = true;
	SfcPortParams sfc;
	AccParams accurate;
	// Only on host ports (port directive), never on a link's end.
	UplinkParams uplink;
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
	IntConfig int_config;
	SfcParams sfc;

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
inline constexpr uint16_t kMaxIntSwitchId = 0xfff;
inline constexpr Time kMaxTcdMaxTonNs = 10000000000ull; // 10 s

// Whether a port of c stamps INT.
bool stamps_int(const SwitchConfig &c);

// Sum of the headroom reserved by the PFC-enabled (port, priority) pairs.
uint64_t reserved_headroom(const SwitchConfig &c);

// Empty if valid, otherwise what is wrong.  A topology also needs one INT
// port and rate table in all switches, and distinct INT switch IDs among
// the switches that stamp.
std::string validate(const SwitchConfig &c);
std::string validate(const Topology &t);

} // namespace rxecc::fabric

#endif
