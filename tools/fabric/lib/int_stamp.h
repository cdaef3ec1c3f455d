// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// HPCC's in-band network telemetry (specs/hpcc.md §3.1, §3.3 option A,
// §4.3; specs/wire.md §7.4 (a), (h)).  INT packets are RoCEv2 packets to
// the INT UDP port (default 4792) with a fixed 42-byte shim between the
// UDP header and the BTH:
//
//     2 bytes  big-endian  nHop << 12 | pathID            (nHop 0..5)
//     5 x 8    big-endian  B << 60 | TS << 36 | txBytes << 16 | qLen
//
// slot i written by the i-th hop.  The shim is outside the ICRC and the
// packet length never changes, so a switch rewrites it in place.
//
// IntStamper stamps at dequeue, on the ports with PortConfig::int_stamp,
// every INT packet whose BTH opcode is a request carrying data (RC and UC
// SEND and RDMA WRITE first/middle/last/only, with immediate too; RC SEND
// last/only with invalidate; UD SEND only, with immediate too):
//
//     TS      = departure time (QueueView::start_ns) & 0xFFFFFF      ns
//     txBytes = (wire bytes the port sent before the packet >> 7)
//               & 0xFFFFF                                 units of 128 B
//     qLen    = min(0xFFFF, bytes left in all the port's queues / 80)
//     B       = the rate code of the port's rate (IntConfig::rates)
//     nHop   += 1,  pathID ^= switch ID
//
// Packets that are not stamped pass byte-identical: other opcodes (ACK,
// ATOMIC ACK, READ request and response, CNP, ...), INT packets too short
// for the shim and a BTH, and stacks already holding 5 hops (nHop >= 5);
// each of these is counted on its port.  A non-zero UDP checksum (a host
// that sent one, or one the process completed for it) is updated for the
// rewritten words (RFC 1624); RoCE sends 0, which stays 0.
#ifndef RXECC_FABRIC_INT_STAMP_H
#define RXECC_FABRIC_INT_STAMP_H

#include <array>
#include <cstdint>
#include <vector>

#include "feature.h"
#include "packet.h"
#include "switch_config.h"

namespace rxecc::fabric
{

inline constexpr uint32_t kIntTsMask = 0xffffff; // ns
inline constexpr uint32_t kIntTxBytesMask = 0xfffff;
inline constexpr unsigned kIntTxBytesShift = 7; // units of 128 bytes
inline constexpr uint32_t kIntQlenUnit = 80;    // bytes
inline constexpr uint32_t kIntQlenMax = 0xffff;
inline constexpr uint16_t kIntPathMask = 0xfff;

// One slot.  Encoding keeps the low bits of each field (B 4, TS 24,
// txBytes 20, qLen 16).
struct IntHop {
	uint8_t b = 0;
	uint32_t ts = 0;
	uint32_t tx_bytes = 0;
	uint16_t qlen = 0;
	bool operator==(const IntHop &o) const
	{
		return b == o.b && ts == o.ts && tx_bytes == o.tx_bytes && qlen == o.qlen;
	}
};

// The whole shim.  nhop is 4 bits on the wire (a value above 5 is
// malformed), path_id 12.
struct IntShim {
	uint8_t nhop = 0;
	uint16_t path_id = 0;
	std::array<IntHop, kIntMaxHops> hop{};
};

uint64_t encode_int_hop(const IntHop &h);
IntHop decode_int_hop(uint64_t word);
// out: kIntShimBytes bytes.
void encode_int_shim(const IntShim &s, uint8_t *out);
// in: kIntShimBytes bytes.  All five slots are decoded, used or not.
IntShim decode_int_shim(const uint8_t *in);

// Whether a switch stamps a packet with this BTH opcode.
bool int_stamps_opcode(uint8_t opcode);

// Per egress port.
struct IntCounters {
	uint64_t stamped = 0;   // a slot written
	uint64_t no_space = 0;  // data packets already carrying 5 hops
	uint64_t too_short = 0; // to the INT port, no room for shim + BTH
	uint64_t not_data = 0;  // complete INT packets of other opcodes
};

enum class IntOutcome { kNotInt, kStamped, kNoSpace, kTooShort, kNotData };

// Stamps hop into the next slot of pkt (parsed with its INT port), XORing
// switch_id into the pathID; changes nothing unless the result is
// kStamped.
IntOutcome stamp_int(Packet &pkt, const IntHop &hop, uint16_t switch_id);

// The feature.  Built into every Switch after the RED marker; does nothing
// on ports without int_stamp.
class IntStamper : public Feature
{
public:
	// cfg must be valid (validate()).
	explicit IntStamper(const SwitchConfig &cfg);

	void on_dequeue(FeatureContext &ctx) override;

	// 0 for a port that does not stamp.
	uint8_t rate_code(int port) const;
	const IntCounters &counters(int port) const;

private:
	uint16_t switch_id_;
	std::vector<uint8_t> code_;
	std::vector<IntCounters> counters_;
};

} // namespace rxecc::fabric

#endif
