// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCEv2 packets over IPv4 as rxecc-inject builds them: IP, UDP, BTH, the
// opcode's headers and the ICRC (IBTA Annex A17: a CRC-32 over the packet
// with the variant fields of IP, UDP and BTH masked), optionally with the
// HPCC INT shim between UDP and BTH (specs/wire.md §7.4 (a)), which the
// ICRC does not cover; and SFC back-to-sender packets (BTS: specs/sfc.md
// §3.3, specs/wire.md §7.4 (a), (f)), which have no ICRC. No I/O: unit
// tested.
#ifndef RXECC_INJECT_ROCE_H
#define RXECC_INJECT_ROCE_H

#include <cstdint>
#include <string>
#include <vector>

namespace rxecc::inject
{

constexpr std::uint16_t kRocePort = 4791;
constexpr std::uint16_t kIntPort = 4792; // rdma_rxe's int_port by default
constexpr std::uint8_t kOpCnp = 0x81;
constexpr std::uint8_t kOpAck = 0x11;  // RC ACKNOWLEDGE
constexpr std::uint8_t kBthCap = 0x20; // BTH byte 4: the rxe-cc CAP bit
// BTH byte 4 of ACK-class packets of ACC-echo QPs, the TCD mark echo
// (specs/wire.md §7.4 (c)): BECN (CE seen), CE_CNT (CE packets, 0..15, in
// bits 4..1) and UE (ECT(1) seen and no CE); ICRC-masked like all of byte 4
constexpr std::uint8_t kTcdBecn = 0x40;
constexpr std::uint8_t kTcdCeCnt = 0x1e;
constexpr unsigned kTcdCeCntShift = 1;
constexpr std::uint8_t kTcdUe = 0x01;
// PCN feedback (specs/wire.md §7.4 (b), (d), (e), (e′); specs/pcn.md §3.2):
// the CNP 0x81 (decrease: BECN, IP ECN CE) and the rate report 0xC2
// (increase: no BECN, Not-ECT), both DSCP 48 and with the same 16-byte
// payload in place of the CNP's reserved bytes
constexpr std::uint8_t kOpPcnRate = 0xC2;
constexpr std::uint8_t kBecn = 0x40; // BTH byte 4
constexpr std::uint8_t kDscpCnp = 48;
constexpr std::uint8_t kEcnNotEct = 0;
constexpr std::uint8_t kEcnCe = 3;
constexpr std::uint16_t kPcnMagic = 0x5043;  // "PC"
constexpr std::uint8_t kPcnDec = 0x01;       // flags bit 0: must equal opcode == 0x81
constexpr std::uint8_t kPcnRateValid = 0x02; // flags bit 1: RecRate is a rate
constexpr std::uint8_t kPcnVersion = 1;
// SFC back-to-sender (specs/sfc.md §3.3, specs/wire.md §7.4 (a), (e),
// (f)): to UDP bts_port, DSCP 48, Not-ECT, a 12-byte BTS header, then the
// original packet's UDP header and BTH (and optionally 16 more bytes)
constexpr std::uint16_t kBtsPort = 4793; // rdma_rxe's bts_port by default
constexpr std::uint8_t kBtsVersion = 1;
constexpr std::uint8_t kBtsTypePause = 0;
constexpr std::uint8_t kBtsCacheable = 0x01; // flags bit 0 C
constexpr std::uint8_t kBtsCacheHit = 0x02;  // flags bit 1 H
constexpr std::uint8_t kBtsEgress = 0x04;    // flags bit 2 E
constexpr std::uint8_t kBtsInt = 0x08;       // flags bit 3 I: the original was INT-shimmed
// ACCurate flow rate packets (specs/accurate.md §3.2, specs/wire.md §7.4
// (b)): opcode 0xC0 (forward) or 0xC1 (response), DSCP 48, Not-ECT, the
// epoch as the PSN, then the 16-byte ACCETH (frp_body()) and the ICRC
constexpr std::uint8_t kOpFrp = 0xC0;
constexpr std::uint8_t kOpFrpResp = 0xC1;
constexpr std::uint8_t kFrpVersion = 1;
constexpr std::uint8_t kFrpNormal = 0; // byte 0, bits 7..4: the type
constexpr std::uint8_t kFrpInit = 1;
constexpr std::uint8_t kFrpStop = 2;
constexpr std::uint8_t kFrpResp = 0x08;    // byte 0, bit 3: a response
constexpr std::uint8_t kFrpSc = 0x04;      // bit 2: a switch's short-circuit
constexpr std::uint8_t kFrpCounted = 0x02; // bit 1: STOP, this RRP's FRP was sent
constexpr std::uint8_t kDscpData = 26;
constexpr std::uint8_t kEcnEct0 = 2;
constexpr std::uint8_t kOpWriteOnly = 0x0A; // RC RDMA WRITE ONLY
constexpr std::size_t kIpBytes = 20;
constexpr std::size_t kUdpBytes = 8;
constexpr std::size_t kBthBytes = 12;
constexpr std::size_t kAethBytes = 4;
constexpr std::size_t kCnpBodyBytes = 16;
constexpr std::size_t kIcrcBytes = 4;
constexpr std::size_t kFrpBodyBytes = 16; // the ACCETH
constexpr std::size_t kRethBytes = 16;
constexpr std::size_t kBtsHdrBytes = 12;
// the shortest UDP payload the kernel takes as a BTS: its header, the
// original UDP header and BTH
constexpr std::size_t kBtsMinBytes = kBtsHdrBytes + kUdpBytes + kBthBytes;
// the bytes after the original BTH a BTS may carry (a RETH, or the first
// payload bytes)
constexpr std::size_t kBtsExtraBytes = 16;
constexpr std::size_t kIntMaxHops = 5;
// nHop | pathID, then kIntMaxHops slots of 8 bytes
constexpr std::size_t kIntShimBytes = 2 + 8 * kIntMaxHops;

// One INT slot, what a hop wrote (specs/hpcc.md §3.1): the link rate code
// (4 bits; 0 is never a rate), departure time (24 bits, ns), bytes sent
// (20 bits, units of 128 B) and queue length (16 bits, units of 80 B).
struct IntHop {
	std::uint8_t b = 0;
	std::uint32_t ts = 0;
	std::uint32_t tx_bytes = 0;
	std::uint16_t qlen = 0;
};

// The kIntShimBytes of an INT shim: the big-endian word nHop << 12 |
// pathID, then a slot per hop of `hops` (the big-endian word B << 60 |
// TS << 36 | txBytes << 16 | qLen, each field cut to its width), zero
// slots after them. `n_hop` (4 bits) need not be hops.size(), so that a
// malformed stack can be written; hops past kIntMaxHops are left out.
std::vector<std::uint8_t> int_shim(unsigned n_hop, std::uint16_t path_id,
                                   const std::vector<IntHop> &hops);

// The IPv4 DS field (TOS) of a DSCP and an ECN codepoint.
constexpr std::uint8_t ds_field(std::uint8_t dscp, std::uint8_t ecn)
{
	return static_cast<std::uint8_t>((dscp & 0x3fU) << 2 | (ecn & 3U));
}

// The fields of the PCN payload; the defaults are those of a well-formed
// one but for the rate and the sequence.
struct PcnPayload {
	std::uint32_t rec_rate = 0; // Mbit/s
	std::uint16_t magic = kPcnMagic;
	std::uint8_t flags = 0;
	std::uint8_t version = kPcnVersion;
	std::uint32_t seq = 0; // the NP's period sequence number
};

// The kCnpBodyBytes of a PCN payload: RecRate (big-endian), the magic,
// the flags, the version, the sequence (big-endian) and 4 zero bytes.
std::vector<std::uint8_t> pcn_payload(const PcnPayload &p);

// The fields of an ACCETH (the kernel's struct rxe_cc_frp); the defaults
// are those of a well-formed forward NORMAL FRP but for the epoch, the
// rates and src_qpn.
struct Frp {
	std::uint8_t type = kFrpNormal; // 4 bits
	std::uint8_t flags = 0;         // 4 bits: kFrpResp, kFrpSc, kFrpCounted
	std::uint8_t sc_hop = 0;
	std::uint16_t epoch = 0;
	std::uint32_t cr_kbps = 0;
	std::uint32_t dr_kbps = 0;
	std::uint8_t version = kFrpVersion;
	std::uint32_t src_qpn = 0; // 24 bits
};

// The kFrpBodyBytes of an ACCETH, as rxe_cc_frp_put() writes them: type <<
// 4 | flags, sc_hop, the epoch, CR and DR (big-endian), the version and
// src_qpn (big-endian, 24 bits); type and flags are cut to 4 bits.
std::vector<std::uint8_t> frp_body(const Frp &f);

// CRC-32 (reflected, polynomial 0xEDB88320) from `crc`, without the
// initial or final inversion (the kernel's crc32_le()).
std::uint32_t crc32_le(std::uint32_t crc, const std::uint8_t *p, std::size_t n);

struct Packet {
	std::uint32_t saddr = 0; // network order
	std::uint32_t daddr = 0; // network order
	std::uint16_t sport = 49152;
	std::uint16_t dport = kRocePort;
	std::uint16_t ip_id = 1;
	std::uint8_t tos = 0; // DSCP | ECN; masked in the ICRC
	std::uint8_t opcode = kOpCnp;
	std::uint8_t bth_flags = 0; // SE, M, pad, TVer
	std::uint16_t pkey = 0xffff;
	std::uint8_t fecn_becn = 0x40; // the byte before DestQP: BECN set
	std::uint32_t dest_qp = 0;
	std::uint8_t ackreq = 0;
	std::uint32_t psn = 0;
	std::vector<std::uint8_t> shim; // between UDP and BTH (empty: none)
	std::vector<std::uint8_t> body; // after the BTH, before the ICRC
	bool icrc_valid = true;         // false: the ICRC is off by one bit
};

// The fields of a BTS; the defaults are those of a well-formed one but for
// the addresses, ports, QPN and PSN (wire order: see build_bts()).
struct Bts {
	std::uint32_t saddr = 0;     // network order: the data receiver
	std::uint32_t daddr = 0;     // network order: the data sender
	std::uint16_t sport = 49152; // the original packet's UDP sport
	std::uint16_t dport = kBtsPort;
	std::uint16_t ip_id = 1;
	std::uint8_t tos = ds_field(kDscpCnp, kEcnNotEct);
	// the BTS header
	std::uint8_t version = kBtsVersion; // 4 bits
	std::uint8_t type = kBtsTypePause;  // 4 bits
	std::uint8_t flags = 0;
	std::uint8_t orig_tos = ds_field(kDscpData, kEcnEct0);
	std::uint8_t reserved = 0;
	std::uint32_t pause_us = 0;
	std::uint32_t qdepth = 0; // units of 64 bytes
	// the original UDP header
	std::uint16_t inner_sport = 49152;
	std::uint16_t inner_dport = kRocePort;
	std::uint16_t inner_len = 0;
	std::uint16_t inner_csum = 0;
	// the original BTH
	std::uint8_t opcode = kOpWriteOnly;
	std::uint8_t bth_flags = 0; // SE, M, pad, TVer
	std::uint16_t pkey = 0xffff;
	std::uint8_t fecn_becn = 0;
	std::uint32_t dest_qp = 0; // the data receiver's QPN
	std::uint8_t ackreq = 0;
	std::uint32_t psn = 0;
	std::vector<std::uint8_t> extra; // after the original BTH
};

// The IPv4 datagram (header included) of `b`: IP (proto 17, TTL 64, DF,
// TOS `tos`) | UDP (checksum 0) | the BTS header (version << 4 | type,
// flags, orig_tos, reserved, pause_us and qdepth big-endian) | the original
// UDP header | the original BTH | extra, with no ICRC; IP and UDP lengths
// cover all of it; empty if it would exceed 1500 bytes.
std::vector<std::uint8_t> build_bts(const Bts &b);

// The IPv4 datagram (header included) of `p`, IP | UDP | shim | BTH | body
// | ICRC, with IP and UDP lengths that cover all of it; empty if it would
// exceed 1500 bytes. The ICRC covers the IP and UDP headers (masked) and
// then the BTH onwards, without the shim, as rxe computes it.
std::vector<std::uint8_t> build(const Packet &p);

// The ICRC of a datagram built by build() whose last 4 bytes are the ICRC
// and whose UDP payload starts with a shim of `shim_bytes`.
std::uint32_t icrc(const std::vector<std::uint8_t> &datagram, std::size_t shim_bytes = 0);

// `datagram` cut to its IP and UDP headers and the first `payload_bytes`
// of its UDP payload (all of it if it is shorter), the IP and UDP lengths
// rewritten to match (the IP checksum is left to the kernel, which fills
// it in on a raw socket).
std::vector<std::uint8_t> truncate_udp(const std::vector<std::uint8_t> &datagram,
                                       std::size_t payload_bytes);

} // namespace rxecc::inject

#endif // RXECC_INJECT_ROCE_H
