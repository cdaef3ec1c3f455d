// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "checksum.h"

namespace rxecc::fabric::proc
{

namespace
{

constexpr uint16_t kTypeIpv4 = 0x0800;
constexpr uint16_t kTypeIpv6 = 0x86dd;
constexpr uint16_t kTypeVlan = 0x8100;
constexpr uint16_t kTypeQinQ = 0x88a8;
constexpr uint8_t kProtoTcp = 6;
constexpr uint8_t kProtoUdp = 17;
constexpr size_t kMaxTags = 2;

uint16_t be16(const uint8_t *p)
{
	return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

} // namespace

uint64_t ones_sum(const uint8_t *p, size_t len, uint64_t sum)
{
	size_t i = 0;
	for (; i + 1 < len; i += 2)
		sum += be16(p + i);
	if (i < len)
		sum += static_cast<uint64_t>(p[i]) << 8;
	return sum;
}

uint16_t ones_fold(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return static_cast<uint16_t>(sum);
}

L4Checksum complete_l4_checksum(uint8_t *frame, size_t len)
{
	if (len < 14)
		return L4Checksum::kUnsupported;
	size_t off = 12;
	uint16_t type = be16(frame + off);
	for (size_t tags = 0; (type == kTypeVlan || type == kTypeQinQ) && tags < kMaxTags; tags++) {
		off += 4;
		if (off + 2 > len)
			return L4Checksum::kUnsupported;
		type = be16(frame + off);
	}
	off += 2; // the IP header
	uint8_t *ip = frame + off;
	size_t avail = len - off;
	uint64_t sum = 0; // the pseudo header, without the L4 length
	uint8_t proto = 0;
	size_t l4_off = 0, l4_len = 0; // within ip
	if (type == kTypeIpv4) {
		if (avail < 20 || ip[0] >> 4 != 4)
			return L4Checksum::kUnsupported;
		size_t ihl = static_cast<size_t>(ip[0] & 0x0f) * 4;
		size_t total = be16(ip + 2);
		if (ihl < 20 || total < ihl || total > avail)
			return L4Checksum::kUnsupported;
		// More fragments, or an offset: the L4 header is not whole here.
		if ((be16(ip + 6) & 0x3fff) != 0)
			return L4Checksum::kUnsupported;
		proto = ip[9];
		sum = ones_sum(ip + 12, 8, 0);
		l4_off = ihl;
		l4_len = total - ihl;
	} else if (type == kTypeIpv6) {
		if (avail < 40 || ip[0] >> 4 != 6)
			return L4Checksum::kUnsupported;
		size_t payload = be16(ip + 4);
		if (payload == 0 || payload > avail - 40) // 0: jumbogram
			return L4Checksum::kUnsupported;
		proto = ip[6];
		sum = ones_sum(ip + 8, 32, 0);
		l4_off = 40;
		l4_len = payload;
	} else {
		return L4Checksum::kUnsupported;
	}
	uint8_t *l4 = ip + l4_off;
	size_t field;
	if (proto == kProtoTcp) {
		if (l4_len < 20 || static_cast<size_t>(l4[12] >> 4) * 4 < 20 ||
		    static_cast<size_t>(l4[12] >> 4) * 4 > l4_len)
			return L4Checksum::kUnsupported;
		field = 16;
	} else if (proto == kProtoUdp) {
		if (l4_len < 8)
			return L4Checksum::kUnsupported;
		size_t ulen = be16(l4 + 4);
		if (ulen < 8 || ulen > l4_len)
			return L4Checksum::kUnsupported;
		l4_len = ulen;
		field = 6;
	} else {
		return L4Checksum::kUnsupported;
	}
	sum += proto;
	sum += l4_len; // < 65536 in both families
	sum = ones_sum(l4, field, sum);
	sum = ones_sum(l4 + field + 2, l4_len - field - 2, sum);
	auto csum = static_cast<uint16_t>(~ones_fold(sum));
	if (proto == kProtoUdp && csum == 0)
		csum = 0xffff;
	l4[field] = static_cast<uint8_t>(csum >> 8);
	l4[field + 1] = static_cast<uint8_t>(csum);
	return L4Checksum::kCompleted;
}

} // namespace rxecc::fabric::proc
