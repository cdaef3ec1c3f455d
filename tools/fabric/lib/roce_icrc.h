// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CRC-32 and the RoCEv2 ICRC (specs/wire.md §1.8, Appendix A).
//
// crc32() is the standard (zlib) CRC-32: IEEE 802.3 polynomial, reflected,
// register preset to all-ones and inverted at the end; crc32(0, "", 0) is
// 0 and chaining crc32(crc32(0, a), b) equals crc32(0, a || b).
//
// The ICRC of a RoCEv2 packet (UDP 4791, BTH right after UDP) is crc32()
// over
//     8 x 0xFF || IP header || UDP header || BTH || the rest up to the ICRC
// with the variant fields set to all-ones: IPv4 TOS, TTL and header
// checksum (IPv6: traffic class, flow label and hop limit), the UDP
// checksum, and BTH byte 4 (FECN, BECN, resv6a).  The ICRC is the last 4
// bytes of the UDP payload, stored as rxe stores it on x86: the value's
// least significant byte first.
#ifndef RXECC_FABRIC_ROCE_ICRC_H
#define RXECC_FABRIC_ROCE_ICRC_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "packet.h"

namespace rxecc::fabric
{

inline constexpr size_t kIcrcBytes = 4;

uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len);

// Where the ICRC of a plain RoCEv2 packet is (the last 4 bytes of its UDP
// payload), or nullopt: not RoCEv2 on UDP 4791 (the INT shim is not
// handled), or no room for a BTH and an ICRC.
std::optional<size_t> roce_icrc_offset(const std::vector<uint8_t> &frame, const FrameInfo &fi);

// The ICRC the packet should carry (nullopt as above).
std::optional<uint32_t> roce_icrc_compute(const std::vector<uint8_t> &frame, const FrameInfo &fi);

// The ICRC the packet carries (nullopt as above).
std::optional<uint32_t> roce_icrc_read(const std::vector<uint8_t> &frame, const FrameInfo &fi);

// Whether the ICRC carried is the one computed (false where there is none).
bool roce_icrc_ok(const std::vector<uint8_t> &frame, const FrameInfo &fi);

// Writes the computed ICRC; false (nothing changed) where there is none.
bool roce_icrc_update(std::vector<uint8_t> &frame, const FrameInfo &fi);

} // namespace rxecc::fabric

#endif
