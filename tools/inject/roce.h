// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCEv2 packets over IPv4 as rxecc-inject builds them: IP, UDP, BTH, the
// opcode's headers and the ICRC (IBTA Annex A17: a CRC-32 over the packet
// with the variant fields of IP, UDP and BTH masked). No I/O: unit tested.
#ifndef RXECC_INJECT_ROCE_H
#define RXECC_INJECT_ROCE_H

#include <cstdint>
#include <string>
#include <vector>

namespace rxecc::inject
{

constexpr std::uint16_t kRocePort = 4791;
constexpr std::uint8_t kOpCnp = 0x81;
constexpr std::uint8_t kOpAck = 0x11; // RC ACKNOWLEDGE
constexpr std::size_t kBthBytes = 12;
constexpr std::size_t kCnpBodyBytes = 16;
constexpr std::size_t kIcrcBytes = 4;

// CRC-32 (reflected, polynomial 0xEDB88320) from `crc`, without the
// initial or final inversion (the kernel's crc32_le()).
std::uint32_t crc32_le(std::uint32_t crc, const std::uint8_t *p, std::size_t n);

struct Packet {
	std::uint32_t saddr = 0; // network order
	std::uint32_t daddr = 0; // network order
	std::uint16_t sport = 49152;
	std::uint16_t ip_id = 1;
	std::uint8_t opcode = kOpCnp;
	std::uint8_t bth_flags = 0; // SE, M, pad, TVer
	std::uint16_t pkey = 0xffff;
	std::uint8_t fecn_becn = 0x40; // the byte before DestQP: BECN set
	std::uint32_t dest_qp = 0;
	std::uint8_t ackreq = 0;
	std::uint32_t psn = 0;
	std::vector<std::uint8_t> body; // after the BTH, before the ICRC
	bool icrc_valid = true;         // false: the ICRC is off by one bit
};

// The IPv4 datagram (header included) of `p`, with its ICRC.
std::vector<std::uint8_t> build(const Packet &p);

// The ICRC of a datagram built by build() whose last 4 bytes are the ICRC.
std::uint32_t icrc(const std::vector<std::uint8_t> &datagram);

} // namespace rxecc::inject

#endif // RXECC_INJECT_ROCE_H
