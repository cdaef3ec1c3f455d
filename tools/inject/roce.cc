// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "roce.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace rxecc::inject
{

std::uint32_t crc32_le(std::uint32_t crc, const std::uint8_t *p, std::size_t n)
{
	for (std::size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320U & (0U - (crc & 1U)));
	}
	return crc;
}

namespace
{

constexpr std::size_t kMaxBytes = 1500;

void put16(std::uint8_t *p, std::uint16_t v)
{
	p[0] = static_cast<std::uint8_t>(v >> 8);
	p[1] = static_cast<std::uint8_t>(v);
}

void put32(std::uint8_t *p, std::uint32_t v)
{
	put16(p, static_cast<std::uint16_t>(v >> 16));
	put16(p + 2, static_cast<std::uint16_t>(v));
}

// The IPv4 header (no options, DF, TTL 64, UDP; the checksum left to the
// kernel) and the UDP header (checksum 0: none) of a datagram of `len`
// bytes, at `ip`.
void put_ip_udp(std::uint8_t *ip, std::size_t len, std::uint32_t saddr, std::uint32_t daddr,
                std::uint8_t tos, std::uint16_t id, std::uint16_t sport, std::uint16_t dport)
{
	ip[0] = 0x45;
	ip[1] = tos;
	put16(ip + 2, static_cast<std::uint16_t>(len));
	put16(ip + 4, id);
	put16(ip + 6, 0x4000); // DF
	ip[8] = 64;
	ip[9] = 17;
	std::memcpy(ip + 12, &saddr, 4);
	std::memcpy(ip + 16, &daddr, 4);
	std::uint8_t *udp = ip + kIpBytes;
	put16(udp, sport);
	put16(udp + 2, dport);
	put16(udp + 4, static_cast<std::uint16_t>(len - kIpBytes));
}

// A BTH at `bth`.
void put_bth(std::uint8_t *bth, std::uint8_t opcode, std::uint8_t flags, std::uint16_t pkey,
             std::uint8_t fecn_becn, std::uint32_t dest_qp, std::uint8_t ackreq, std::uint32_t psn)
{
	bth[0] = opcode;
	bth[1] = flags;
	put16(bth + 2, pkey);
	bth[4] = fecn_becn;
	bth[5] = static_cast<std::uint8_t>(dest_qp >> 16);
	bth[6] = static_cast<std::uint8_t>(dest_qp >> 8);
	bth[7] = static_cast<std::uint8_t>(dest_qp);
	bth[8] = ackreq;
	bth[9] = static_cast<std::uint8_t>(psn >> 16);
	bth[10] = static_cast<std::uint8_t>(psn >> 8);
	bth[11] = static_cast<std::uint8_t>(psn);
}

} // namespace

std::vector<std::uint8_t> int_shim(unsigned n_hop, std::uint16_t path_id,
                                   const std::vector<IntHop> &hops)
{
	std::vector<std::uint8_t> s(kIntShimBytes, 0);
	put16(s.data(), static_cast<std::uint16_t>((n_hop & 0xfU) << 12 | (path_id & 0xfffU)));
	for (std::size_t i = 0; i < hops.size() && i < kIntMaxHops; i++) {
		const IntHop &h = hops[i];
		std::uint64_t v = std::uint64_t{h.b & 0xfU} << 60 |
		                  std::uint64_t{h.ts & 0xffffffU} << 36 |
		                  std::uint64_t{h.tx_bytes & 0xfffffU} << 16 | h.qlen;
		for (std::size_t j = 0; j < 8; j++)
			s[2 + 8 * i + j] = static_cast<std::uint8_t>(v >> (56 - 8 * j));
	}
	return s;
}

std::vector<std::uint8_t> pcn_payload(const PcnPayload &p)
{
	std::vector<std::uint8_t> b(kCnpBodyBytes, 0);
	put32(b.data(), p.rec_rate);
	put16(b.data() + 4, p.magic);
	b[6] = p.flags;
	b[7] = p.version;
	put32(b.data() + 8, p.seq);
	return b;
}

std::vector<std::uint8_t> frp_body(const Frp &f)
{
	std::vector<std::uint8_t> b(kFrpBodyBytes, 0);
	b[0] = static_cast<std::uint8_t>((f.type & 0xfU) << 4 | (f.flags & 0xfU));
	b[1] = f.sc_hop;
	put16(b.data() + 2, f.epoch);
	put32(b.data() + 4, f.cr_kbps);
	put32(b.data() + 8, f.dr_kbps);
	put32(b.data() + 12, (f.src_qpn & 0xffffffU) | std::uint32_t{f.version} << 24);
	return b;
}

std::uint32_t icrc(const std::vector<std::uint8_t> &d, std::size_t shim_bytes)
{
	// CRC of 8 bytes of 0xff (the masked LRH of InfiniBand) from ~0
	std::uint32_t crc = 0xdebb20e3U;
	std::array<std::uint8_t, kMaxBytes> m{};
	constexpr std::size_t hdrs = kIpBytes + kUdpBytes;
	if (d.size() < hdrs + shim_bytes + kBthBytes + kIcrcBytes || d.size() > m.size())
		return 0;
	// the IP and UDP headers, then the BTH onwards: rxe skips the shim
	std::size_t n = d.size() - shim_bytes - kIcrcBytes;
	std::copy(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(hdrs), m.begin());
	std::copy(d.begin() + static_cast<std::ptrdiff_t>(hdrs + shim_bytes),
	          d.end() - static_cast<std::ptrdiff_t>(kIcrcBytes), m.begin() + hdrs);
	m[1] = 0xff;            // TOS
	m[8] = 0xff;            // TTL
	m[10] = m[11] = 0xff;   // IP checksum
	m[kIpBytes + 6] = 0xff; // UDP checksum
	m[kIpBytes + 7] = 0xff;
	m[kIpBytes + kUdpBytes + 4] = 0xff; // BTH resv8a (FECN, BECN)
	crc = crc32_le(crc, m.data(), n);
	return ~crc;
}

std::vector<std::uint8_t> build(const Packet &p)
{
	std::size_t len =
		kIpBytes + kUdpBytes + p.shim.size() + kBthBytes + p.body.size() + kIcrcBytes;
	std::array<std::uint8_t, kMaxBytes> buf{};
	if (len > buf.size())
		return {};
	std::uint8_t *ip = buf.data();
	put_ip_udp(ip, len, p.saddr, p.daddr, p.tos, p.ip_id, p.sport, p.dport);
	std::uint8_t *udp = ip + kIpBytes;
	std::copy(p.shim.begin(), p.shim.end(), udp + kUdpBytes);
	std::uint8_t *bth = udp + kUdpBytes + p.shim.size();
	put_bth(bth, p.opcode, p.bth_flags, p.pkey, p.fecn_becn, p.dest_qp, p.ackreq, p.psn);
	std::copy(p.body.begin(), p.body.end(), bth + kBthBytes);
	std::vector<std::uint8_t> d(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(len));
	std::uint32_t c = icrc(d, p.shim.size());
	if (!p.icrc_valid)
		c ^= 1;
	// the kernel stores the CRC value as it is in memory (little-endian)
	for (int i = 0; i < 4; i++)
		d[len - kIcrcBytes + static_cast<std::size_t>(i)] =
			static_cast<std::uint8_t>(c >> (8 * i));
	return d;
}

std::vector<std::uint8_t> build_bts(const Bts &b)
{
	std::size_t len = kIpBytes + kUdpBytes + kBtsMinBytes + b.extra.size();
	std::array<std::uint8_t, kMaxBytes> buf{};
	if (len > buf.size())
		return {};
	std::uint8_t *ip = buf.data();
	put_ip_udp(ip, len, b.saddr, b.daddr, b.tos, b.ip_id, b.sport, b.dport);
	std::uint8_t *h = ip + kIpBytes + kUdpBytes;
	h[0] = static_cast<std::uint8_t>((b.version & 0xfU) << 4 | (b.type & 0xfU));
	h[1] = b.flags;
	h[2] = b.orig_tos;
	h[3] = b.reserved;
	put32(h + 4, b.pause_us);
	put32(h + 8, b.qdepth);
	std::uint8_t *udp = h + kBtsHdrBytes;
	put16(udp, b.inner_sport);
	put16(udp + 2, b.inner_dport);
	put16(udp + 4, b.inner_len);
	put16(udp + 6, b.inner_csum);
	put_bth(udp + kUdpBytes, b.opcode, b.bth_flags, b.pkey, b.fecn_becn, b.dest_qp, b.ackreq,
	        b.psn);
	std::copy(b.extra.begin(), b.extra.end(), udp + kUdpBytes + kBthBytes);
	return std::vector<std::uint8_t>(buf.begin(),
	                                 buf.begin() + static_cast<std::ptrdiff_t>(len));
}

std::vector<std::uint8_t> truncate_udp(const std::vector<std::uint8_t> &d,
                                       std::size_t payload_bytes)
{
	constexpr std::size_t hdrs = kIpBytes + kUdpBytes;
	if (d.size() < hdrs)
		return d;
	std::size_t len = hdrs + std::min(payload_bytes, d.size() - hdrs);
	std::vector<std::uint8_t> t(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(len));
	put16(t.data() + 2, static_cast<std::uint16_t>(len));
	put16(t.data() + kIpBytes + 4, static_cast<std::uint16_t>(len - kIpBytes));
	return t;
}

} // namespace rxecc::inject
