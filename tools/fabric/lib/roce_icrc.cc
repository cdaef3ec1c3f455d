// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CRC-32 and the RoCEv2 ICRC; see roce_icrc.h.
#include "roce_icrc.h"

#include <array>

namespace rxecc::fabric
{

namespace
{

std::array<uint32_t, 256> make_table()
{
	std::array<uint32_t, 256> t{};
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		t[i] = c;
	}
	return t;
}

const std::array<uint32_t, 256> kTable = make_table();

// The register, without the presetting and final inversion of crc32().
uint32_t feed(uint32_t reg, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++)
		reg = kTable[(reg ^ data[i]) & 0xff] ^ (reg >> 8);
	return reg;
}

uint16_t be16(const std::vector<uint8_t> &f, size_t off)
{
	return static_cast<uint16_t>(f[off] << 8 | f[off + 1]);
}

} // namespace

uint32_t crc32(uint32_t crc, const uint8_t *data, size_t len)
{
	return ~feed(~crc, data, len);
}

std::optional<size_t> roce_icrc_offset(const std::vector<uint8_t> &frame, const FrameInfo &fi)
{
	if (!fi.roce || fi.int_encap || fi.dport != kRoceV2Port || !fi.udp)
		return std::nullopt;
	size_t udp_end = fi.l4_offset + be16(frame, fi.l4_offset + 4);
	if (udp_end > frame.size() || udp_end < fi.bth_offset + kBthBytes + kIcrcBytes)
		return std::nullopt;
	return udp_end - kIcrcBytes;
}

std::optional<uint32_t> roce_icrc_compute(const std::vector<uint8_t> &frame, const FrameInfo &fi)
{
	std::optional<size_t> end = roce_icrc_offset(frame, fi);
	if (!end)
		return std::nullopt;
	static const uint8_t ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	uint32_t reg = feed(0xffffffffu, ones, sizeof(ones));
	// IP and UDP headers, masked.
	std::vector<uint8_t> h(frame.begin() + static_cast<long>(fi.l3_offset),
	                       frame.begin() + static_cast<long>(fi.l4_offset + 8));
	if (fi.ipv4) {
		h[1] = 0xff;          // TOS
		h[8] = 0xff;          // TTL
		h[10] = h[11] = 0xff; // header checksum
	} else {
		h[0] |= 0x0f; // traffic class and flow label
		h[1] = h[2] = h[3] = 0xff;
		h[7] = 0xff; // hop limit
	}
	size_t udp = fi.l4_offset - fi.l3_offset;
	h[udp + 6] = h[udp + 7] = 0xff; // UDP checksum
	reg = feed(reg, h.data(), h.size());
	// BTH with byte 4 masked, then the rest up to the ICRC.
	uint8_t bth[kBthBytes];
	for (size_t i = 0; i < kBthBytes; i++)
		bth[i] = frame[fi.bth_offset + i];
	bth[4] = 0xff;
	reg = feed(reg, bth, kBthBytes);
	size_t rest = fi.bth_offset + kBthBytes;
	reg = feed(reg, frame.data() + rest, *end - rest);
	return ~reg;
}

std::optional<uint32_t> roce_icrc_read(const std::vector<uint8_t> &frame, const FrameInfo &fi)
{
	std::optional<size_t> off = roce_icrc_offset(frame, fi);
	if (!off)
		return std::nullopt;
	const uint8_t *p = frame.data() + *off;
	return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
	       static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

bool roce_icrc_ok(const std::vector<uint8_t> &frame, const FrameInfo &fi)
{
	std::optional<uint32_t> want = roce_icrc_compute(frame, fi);
	return want && roce_icrc_read(frame, fi) == want;
}

bool roce_icrc_update(std::vector<uint8_t> &frame, const FrameInfo &fi)
{
	std::optional<uint32_t> v = roce_icrc_compute(frame, fi);
	if (!v)
		return false;
	size_t off = *roce_icrc_offset(frame, fi);
	for (size_t i = 0; i < kIcrcBytes; i++)
		frame[off + i] = static_cast<uint8_t>(*v >> (8 * i));
	return true;
}

} // namespace rxecc::fabric
