// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion of TCP and UDP checksums the sending host left to "hardware".
//
// A Linux interface without a real NIC behind it (veth, tun, bridge ports
// of those) hands AF_PACKET frames whose L4 checksum is unfinished
// (CHECKSUM_PARTIAL, TP_STATUS_CSUMNOTREADY in the ring): the field holds
// the pseudo-header sum, not the checksum.  Forwarded as is, every receiver
// drops them.  complete_l4_checksum() computes the full checksum in
// software, whatever the field holds, so it is right for partial and for
// finished checksums alike.
//
// Supported: Ethernet II, at most two VLAN tags (0x8100, 0x88a8), IPv4
// (options allowed, not a fragment) or IPv6 (TCP or UDP as the first next
// header: extension headers are not walked), TCP or UDP.  A UDP checksum
// that computes to 0 is sent as 0xffff (0 means "none").
#ifndef RXECC_FABRIC_PROC_CHECKSUM_H
#define RXECC_FABRIC_PROC_CHECKSUM_H

#include <cstddef>
#include <cstdint>

namespace rxecc::fabric::proc
{

enum class L4Checksum {
	kCompleted,   // the TCP or UDP checksum field now holds the checksum
	kUnsupported, // not a frame this completes; left unchanged
};

// frame: an Ethernet frame without FCS, len its length (trailing padding
// beyond the IP length is allowed and not covered).  Changes only the two
// checksum bytes, and only on kCompleted.
L4Checksum complete_l4_checksum(uint8_t *frame, size_t len);

// The 16-bit one's-complement sum (RFC 1071) of len bytes added to sum,
// not folded; bytes are taken as big-endian 16-bit words, an odd last byte
// padded with zero.
uint64_t ones_sum(const uint8_t *p, size_t len, uint64_t sum);
// Folds a sum to 16 bits (the checksum is its complement).
uint16_t ones_fold(uint64_t sum);

} // namespace rxecc::fabric::proc

#endif
