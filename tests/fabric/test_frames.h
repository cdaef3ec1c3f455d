// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Helpers of the fabric tests: the test vectors of specs/wire.md Appendix
// A, a builder of IPv4/UDP frames with correct lengths and checksum, the
// checks of a marker's rewrite, and a scripted random source.
#ifndef RXECC_FABRIC_TEST_FRAMES_H
#define RXECC_FABRIC_TEST_FRAMES_H

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "packet.h"
#include "rng.h"

namespace fabric_test
{

using rxecc::fabric::Mac;

inline std::vector<uint8_t> from_hex(const std::string &hex)
{
	std::vector<uint8_t> out;
	for (size_t i = 0; i + 1 < hex.size(); i += 2)
		out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
	return out;
}

// wire.md Appendix A, W1: RC RDMA WRITE ONLY, IPv4, TOS 0x6a (DSCP 26,
// ECT(0)), header checksum 0x2634, UDP 0xc132 -> 4791, 90 bytes.
inline std::vector<uint8_t> w1()
{
	return from_hex("02000000000b02000000000a0800456a004c00014000401126340a0000010a000002"
	                "c13212b7003800000a30ffff000000118000010000007f0000001000000012340000"
	                "000d68656c6c6f207278652d636321000000d5336373");
}

// A1: RC ACK, TOS 0x68 (DSCP 26, Not-ECT).
inline std::vector<uint8_t> a1()
{
	return from_hex("02000000000a02000000000b08004568003000014000401126520a0000020a000001"
	                "c13212b7001c00001100ffff00000012000001001f0000017b09c773");
}

// C0: hardware CNP, TOS 0xc2 (DSCP 48, ECT(0)), opcode 0x81, 74 bytes.
inline std::vector<uint8_t> c0()
{
	return from_hex("e41d2dab2bc27cfe90643b32080045c2003c718c4000401191610a0011010a001201"
	                "000012b7002800008100ffff40000118000000000000000000000000000000000000"
	                "000082fd002a");
}

// P1: PFC XOFF for priority 3 with 0xffff quanta, 60 bytes.
inline std::vector<uint8_t> p1()
{
	std::vector<uint8_t> f =
		from_hex("0180c20000010200000000fe880801010008000000000000ffff0000000000000000");
	f.resize(60, 0);
	return f;
}

// P2: 802.3x PAUSE with 0xffff quanta, 60 bytes.
inline std::vector<uint8_t> p2()
{
	std::vector<uint8_t> f = from_hex("0180c20000010200000000fe88080001ffff");
	f.resize(60, 0);
	return f;
}

inline Mac host_mac(uint8_t n)
{
	return {0x02, 0x00, 0x00, 0x00, 0x00, n};
}

// An IPv4/UDP frame of exactly frame_len bytes (>= 42) from 10.0.0.src to
// 10.0.0.dst with the given TOS byte and UDP destination port.
inline std::vector<uint8_t> udp_frame(uint8_t src, uint8_t dst, uint8_t tos, size_t frame_len,
                                      uint16_t dport = 4791)
{
	std::vector<uint8_t> f(frame_len, 0);
	Mac d = host_mac(dst), s = host_mac(src);
	for (size_t i = 0; i < 6; i++) {
		f[i] = d[i];
		f[6 + i] = s[i];
	}
	f[12] = 0x08;
	f[13] = 0x00;
	uint8_t *ip = &f[14];
	size_t ip_len = frame_len - 14;
	ip[0] = 0x45;
	ip[1] = tos;
	ip[2] = static_cast<uint8_t>(ip_len >> 8);
	ip[3] = static_cast<uint8_t>(ip_len & 0xff);
	ip[6] = 0x40; // DF
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 10;
	ip[15] = src;
	ip[16] = 10;
	ip[19] = dst;
	uint16_t ck = rxecc::fabric::ipv4_header_checksum(ip, 20);
	ip[10] = static_cast<uint8_t>(ck >> 8);
	ip[11] = static_cast<uint8_t>(ck & 0xff);
	uint8_t *udp = ip + 20;
	size_t udp_len = ip_len - 20;
	udp[0] = 0xc0;
	udp[1] = src;
	udp[2] = static_cast<uint8_t>(dport >> 8);
	udp[3] = static_cast<uint8_t>(dport & 0xff);
	udp[4] = static_cast<uint8_t>(udp_len >> 8);
	udp[5] = static_cast<uint8_t>(udp_len & 0xff);
	if (udp_len >= 20)
		udp[8] = 0x0a; // BTH opcode: RC WRITE ONLY
	return f;
}

// Offsets in the frames of udp_frame() and int_frame() (IPv4, untagged).
constexpr size_t kUdpAt = 34;
constexpr size_t kShimAt = 42;   // the UDP payload
constexpr size_t kIntBthAt = 84; // the BTH of an INT frame: shim + 42

// An INT-encapsulated RoCE frame (specs/hpcc.md §3.3 option A): as
// udp_frame() to dport, with a zero 42-byte shim as the UDP payload's
// first bytes and the BTH opcode after it, if the frame is that long.
inline std::vector<uint8_t> int_frame(uint8_t src, uint8_t dst, uint8_t tos, size_t frame_len,
                                      uint8_t opcode, uint16_t dport = 4792)
{
	std::vector<uint8_t> f = udp_frame(src, dst, tos, frame_len, dport);
	if (f.size() > kShimAt)
		f[kShimAt] = 0; // udp_frame()'s opcode byte is the shim's first
	if (f.size() > kIntBthAt)
		f[kIntBthAt] = opcode;
	return f;
}

// ---- Marking checks (the TCD and NP-ECN tests) ------------------------------

// The TOS byte of an untagged IPv4 frame.
inline uint8_t tos_of(const std::vector<uint8_t> &f)
{
	return f[15];
}

// The IPv4 header checksum of an untagged frame verifies.
inline bool ipv4_checksum_ok(const std::vector<uint8_t> &f)
{
	const uint8_t *ip = f.data() + 14;
	auto stored = static_cast<uint16_t>(ip[10] << 8 | ip[11]);
	return rxecc::fabric::ipv4_header_checksum(ip, 20) == stored;
}

// f and g differ at most in the TOS byte and the IPv4 header checksum.
inline bool only_tos_and_checksum_differ(std::vector<uint8_t> f, std::vector<uint8_t> g)
{
	if (f.size() != g.size())
		return false;
	for (size_t i : {15u, 24u, 25u})
		f[i] = g[i] = 0;
	return f == g;
}

// An untagged IPv6/UDP RoCE frame (RC WRITE ONLY) with traffic class tc
// and flow label bits 0x0a next to it, which a marker must keep.
inline std::vector<uint8_t> ipv6_udp(uint8_t tc)
{
	std::vector<uint8_t> f(14 + 40 + 8 + 12 + 4, 0);
	f[12] = 0x86;
	f[13] = 0xdd;
	uint8_t *ip = &f[14];
	ip[0] = static_cast<uint8_t>(0x60 | (tc >> 4));
	ip[1] = static_cast<uint8_t>((tc & 0x0f) << 4 | 0x0a); // flow label bits
	ip[5] = 24;
	ip[6] = 17;
	ip[7] = 64;
	ip[8] = 0xfd;
	ip[23] = 1;
	ip[24] = 0xfd;
	ip[39] = 2;
	uint8_t *udp = ip + 40;
	udp[2] = 0x12;
	udp[3] = 0xb7;
	udp[5] = 24;
	udp[8] = 0x0a;
	return f;
}

// The traffic class of an untagged IPv6 frame.
inline uint8_t ipv6_tc(const std::vector<uint8_t> &f)
{
	return static_cast<uint8_t>((f[14] & 0x0f) << 4 | f[15] >> 4);
}

// TOS bytes of the testbed classes (wire.md §6).
constexpr uint8_t kTosData = 0x6a; // DSCP 26, ECT(0) -> priority 3
constexpr uint8_t kTosDataNotEct = 0x68;
constexpr uint8_t kTosCnp = 0xc0; // DSCP 48, Not-ECT -> priority 6
constexpr uint8_t kTosBestEffort = 0x00;

// Returns the given rnd16 values (as the top half of next_u32); throws if
// drawn more often than scripted.
class ScriptedRng : public rxecc::fabric::Rng
{
public:
	explicit ScriptedRng(std::deque<uint32_t> rnd16) : values_(std::move(rnd16)) {}
	uint32_t next_u32() override
	{
		if (values_.empty())
			throw std::logic_error("unexpected draw");
		uint32_t v = values_.front();
		values_.pop_front();
		return v << 16;
	}
	size_t left() const { return values_.size(); }

private:
	std::deque<uint32_t> values_;
};

} // namespace fabric_test

#endif
