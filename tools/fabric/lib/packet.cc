// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Frame parsing and header rewriting; see packet.h.
#include "packet.h"

#include <cstdio>

namespace rxecc::fabric
{

namespace
{

uint16_t be16(const uint8_t *p)
{
	return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = static_cast<uint8_t>(v >> 8);
	p[1] = static_cast<uint8_t>(v & 0xff);
}

// Adds 16-bit words in one's complement (end-around carry).
uint16_t ones_add(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return static_cast<uint16_t>(sum);
}

ParseStatus parse_ipv4(const uint8_t *data, size_t len, size_t off, FrameInfo &fi, size_t &l4,
                       size_t &l4_end)
{
	if (len - off < 20)
		return ParseStatus::kIpTruncated;
	const uint8_t *ip = data + off;
	if ((ip[0] >> 4) != 4)
		return ParseStatus::kIpBadVersion;
	size_t ihl = static_cast<size_t>(ip[0] & 0x0f) * 4;
	if (ihl < 20)
		return ParseStatus::kIpBadHeaderLength;
	if (ihl > len - off)
		return ParseStatus::kIpTruncated;
	size_t total = be16(ip + 2);
	// Shorter frames cannot hold the datagram; longer ones may carry
	// Ethernet padding after it.
	if (total < ihl || total > len - off)
		return ParseStatus::kIpBadTotalLength;

	fi.ipv4 = true;
	fi.l3_offset = off;
	fi.dscp = static_cast<uint8_t>(ip[1] >> 2);
	fi.ecn = static_cast<Ecn>(ip[1] & 3);
	fi.ip_proto = ip[9];
	fi.src_ip = IpAddr::v4(ip[12], ip[13], ip[14], ip[15]);
	fi.dst_ip = IpAddr::v4(ip[16], ip[17], ip[18], ip[19]);
	// Only unfragmented datagrams have a transport header to look at.
	bool fragment = (be16(ip + 6) & 0x3fff) != 0;
	if (!fragment) {
		l4 = off + ihl;
		l4_end = off + total;
	}
	return ParseStatus::kOk;
}

ParseStatus parse_ipv6(const uint8_t *data, size_t len, size_t off, FrameInfo &fi, size_t &l4,
                       size_t &l4_end)
{
	if (len - off < 40)
		return ParseStatus::kIpTruncated;
	const uint8_t *ip = data + off;
	if ((ip[0] >> 4) != 6)
		return ParseStatus::kIpBadVersion;
	size_t payload = be16(ip + 4);
	if (payload > len - off - 40)
		return ParseStatus::kIpBadTotalLength;

	uint8_t tc = static_cast<uint8_t>(((ip[0] & 0x0f) << 4) | (ip[1] >> 4));
	fi.ipv6 = true;
	fi.l3_offset = off;
	fi.dscp = static_cast<uint8_t>(tc >> 2);
	fi.ecn = static_cast<Ecn>(tc & 3);
	fi.ip_proto = ip[6];
	fi.src_ip.v6 = true;
	fi.dst_ip.v6 = true;
	for (size_t i = 0; i < 16; i++) {
		fi.src_ip.b[i] = ip[8 + i];
		fi.dst_ip.b[i] = ip[24 + i];
	}
	// Extension headers are not followed: rxe never sends them.
	l4 = off + 40;
	l4_end = off + 40 + payload;
	return ParseStatus::kOk;
}

} // namespace

const char *to_string(ParseStatus s)
{
	switch (s) {
	case ParseStatus::kOk: return "ok";
	case ParseStatus::kTooShort: return "frame too short";
	case ParseStatus::kTooLong: return "frame too long";
	case ParseStatus::kMacControlTruncated: return "MAC control frame truncated";
	case ParseStatus::kIpTruncated: return "IP header truncated";
	case ParseStatus::kIpBadVersion: return "IP version mismatch";
	case ParseStatus::kIpBadHeaderLength: return "IPv4 header length below 20";
	case ParseStatus::kIpBadTotalLength: return "IP length inconsistent with frame";
	case ParseStatus::kUdpTruncated: return "UDP header truncated";
	case ParseStatus::kUdpBadLength: return "UDP length inconsistent with IP";
	case ParseStatus::kBthTruncated: return "RoCEv2 BTH truncated";
	}
	return "unknown";
}

IpAddr IpAddr::v4(uint8_t a, uint8_t b1, uint8_t c, uint8_t d)
{
	IpAddr ip;
	ip.b[0] = a;
	ip.b[1] = b1;
	ip.b[2] = c;
	ip.b[3] = d;
	return ip;
}

bool IpAddr::matches(const IpAddr &prefix, unsigned prefix_len) const
{
	if (v6 != prefix.v6 || prefix_len > (v6 ? 128u : 32u))
		return false;
	unsigned full = prefix_len / 8, rest = prefix_len % 8;
	for (unsigned i = 0; i < full; i++)
		if (b[i] != prefix.b[i])
			return false;
	if (rest == 0)
		return true;
	auto mask = static_cast<uint8_t>(0xff << (8 - rest));
	return (b[full] & mask) == (prefix.b[full] & mask);
}

std::string IpAddr::to_string() const
{
	char buf[64];
	if (!v6) {
		std::snprintf(buf, sizeof(buf), "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
		return buf;
	}
	std::string s;
	for (size_t i = 0; i < 16; i += 2) {
		std::snprintf(buf, sizeof(buf), "%s%x", i ? ":" : "", be16(&b[i]));
		s += buf;
	}
	return s;
}

ParseStatus parse_frame(const uint8_t *data, size_t len, FrameInfo &out, uint16_t int_port)
{
	FrameInfo fi;
	if (len < kEthHeaderBytes)
		return ParseStatus::kTooShort;
	if (len > kMaxFrameBytes)
		return ParseStatus::kTooLong;
	for (size_t i = 0; i < 6; i++) {
		fi.dst[i] = data[i];
		fi.src[i] = data[6 + i];
	}
	uint16_t type = be16(data + 12);
	size_t off = kEthHeaderBytes;
	if (type == kEthTypeVlan) {
		if (len < off + 4)
			return ParseStatus::kTooShort;
		uint16_t tci = be16(data + 14);
		fi.vlan = true;
		fi.pcp = static_cast<uint8_t>(tci >> 13);
		fi.vid = tci & 0x0fff;
		type = be16(data + 16);
		off += 4;
	}
	fi.ethertype = type;

	// MAC control frames are recognised untagged only (wire.md §5.2).
	if (type == kEthTypeMacControl && !fi.vlan) {
		if (len < off + 2)
			return ParseStatus::kMacControlTruncated;
		fi.mac_control = true;
		fi.mac_control_opcode = be16(data + off);
		size_t need = off + 2;
		if (fi.mac_control_opcode == kMacControlPfc)
			need += 2 + 2 * kNumPriorities;
		else if (fi.mac_control_opcode == kMacControlPause)
			need += 2;
		if (len < need)
			return ParseStatus::kMacControlTruncated;
		out = fi;
		return ParseStatus::kOk;
	}

	size_t l4 = 0, l4_end = 0;
	ParseStatus st = ParseStatus::kOk;
	if (type == kEthTypeIpv4)
		st = parse_ipv4(data, len, off, fi, l4, l4_end);
	else if (type == kEthTypeIpv6)
		st = parse_ipv6(data, len, off, fi, l4, l4_end);
	if (st != ParseStatus::kOk)
		return st;

	if (l4 != 0 && fi.ip_proto == kIpProtoUdp) {
		if (l4_end - l4 < 8)
			return ParseStatus::kUdpTruncated;
		size_t ulen = be16(data + l4 + 4);
		if (ulen < 8 || ulen > l4_end - l4)
			return ParseStatus::kUdpBadLength;
		fi.udp = true;
		fi.l4_offset = l4;
		fi.sport = be16(data + l4);
		fi.dport = be16(data + l4 + 2);
		if (fi.dport == kRoceV2Port) {
			if (ulen - 8 < kBthBytes)
				return ParseStatus::kBthTruncated;
			fi.roce = true;
			fi.bth_offset = l4 + 8;
			fi.bth_opcode = data[fi.bth_offset];
		} else if (int_port != 0 && fi.dport == int_port) {
			// Shorter ones are forwarded as they are (the INT
			// stamper counts them), not dropped.
			fi.int_encap = true;
			if (ulen - 8 >= kIntShimBytes + kBthBytes) {
				fi.roce = true;
				fi.int_offset = l4 + 8;
				fi.bth_offset = fi.int_offset + kIntShimBytes;
				fi.bth_opcode = data[fi.bth_offset];
			}
		}
	}
	out = fi;
	return ParseStatus::kOk;
}

uint16_t ipv4_header_checksum(const uint8_t *hdr, size_t hdr_len)
{
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < hdr_len; i += 2) {
		if (i == 10)
			continue;
		sum += be16(hdr + i);
	}
	return static_cast<uint16_t>(~ones_add(sum));
}

uint16_t checksum_update16(uint16_t hc, uint16_t old_word, uint16_t new_word)
{
	uint32_t sum = static_cast<uint16_t>(~hc);
	sum += static_cast<uint16_t>(~old_word);
	sum += new_word;
	return static_cast<uint16_t>(~ones_add(sum));
}

std::optional<Packet> Packet::parse(std::vector<uint8_t> bytes, ParseStatus *status,
                                    uint16_t int_port)
{
	Packet p;
	p.bytes_ = std::move(bytes);
	p.int_port_ = int_port;
	ParseStatus st = p.reparse();
	if (status)
		*status = st;
	if (st != ParseStatus::kOk)
		return std::nullopt;
	return p;
}

ParseStatus Packet::reparse()
{
	FrameInfo fi;
	ParseStatus st = parse_frame(bytes_.data(), bytes_.size(), fi, int_port_);
	info_ = st == ParseStatus::kOk ? fi : FrameInfo{};
	return st;
}

bool Packet::set_ds_field(uint8_t ds)
{
	if (info_.ipv4) {
		uint8_t *ip = bytes_.data() + info_.l3_offset;
		uint16_t old_word = be16(ip);
		ip[1] = ds;
		uint16_t new_word = be16(ip);
		put_be16(ip + 10, checksum_update16(be16(ip + 10), old_word, new_word));
	} else if (info_.ipv6) {
		// Traffic Class = low nibble of byte 0 and high nibble of byte 1.
		uint8_t *ip = bytes_.data() + info_.l3_offset;
		ip[0] = static_cast<uint8_t>((ip[0] & 0xf0) | (ds >> 4));
		ip[1] = static_cast<uint8_t>((ip[1] & 0x0f) | ((ds & 0x0f) << 4));
	} else {
		return false;
	}
	info_.dscp = static_cast<uint8_t>(ds >> 2);
	info_.ecn = static_cast<Ecn>(ds & 3);
	return true;
}

bool Packet::set_ecn(Ecn ecn)
{
	return set_ds_field(static_cast<uint8_t>((info_.dscp << 2) | static_cast<uint8_t>(ecn)));
}

bool Packet::set_dscp(uint8_t dscp)
{
	if (dscp > 63)
		return false;
	return set_ds_field(static_cast<uint8_t>((dscp << 2) | static_cast<uint8_t>(info_.ecn)));
}

bool Packet::mark_ce()
{
	if (!info_.is_ip() || !info_.ect())
		return false;
	return set_ecn(Ecn::kCe);
}

std::vector<uint8_t> build_pfc_frame(const Mac &src, uint8_t enable_mask,
                                     const std::array<uint16_t, kNumPriorities> &times)
{
	std::vector<uint8_t> f(kPfcFrameBytes, 0);
	for (size_t i = 0; i < 6; i++) {
		f[i] = kPfcDestMac[i];
		f[6 + i] = src[i];
	}
	put_be16(&f[12], kEthTypeMacControl);
	put_be16(&f[14], kMacControlPfc);
	put_be16(&f[16], enable_mask);
	for (size_t n = 0; n < kNumPriorities; n++)
		put_be16(&f[18 + 2 * n], (enable_mask >> n) & 1 ? times[n] : 0);
	return f;
}

std::optional<PauseRequest> parse_pause(const Packet &p)
{
	const FrameInfo &fi = p.info();
	if (!fi.mac_control)
		return std::nullopt;
	const uint8_t *d = p.bytes().data();
	PauseRequest r;
	// parse_frame() checked that the frame holds these fields.
	if (fi.mac_control_opcode == kMacControlPfc) {
		r.enable_mask = static_cast<uint8_t>(be16(d + 16) & 0xff);
		for (size_t n = 0; n < kNumPriorities; n++)
			r.times[n] = be16(d + 18 + 2 * n);
		return r;
	}
	if (fi.mac_control_opcode == kMacControlPause) {
		r.enable_mask = 0xff;
		r.times.fill(be16(d + 16));
		return r;
	}
	return std::nullopt;
}

bool is_link_local(const Mac &m)
{
	return m[0] == 0x01 && m[1] == 0x80 && m[2] == 0xC2 && m[3] == 0 && m[4] == 0 &&
	       (m[5] & 0xf0) == 0;
}

bool is_multicast(const Mac &m)
{
	return (m[0] & 1) != 0;
}

std::string mac_to_string(const Mac &m)
{
	char buf[18];
	std::snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
	              m[4], m[5]);
	return buf;
}

std::optional<Mac> parse_mac(const std::string &s)
{
	if (s.size() != 17)
		return std::nullopt;
	Mac m{};
	for (size_t i = 0; i < 6; i++) {
		if (i > 0 && s[3 * i - 1] != ':')
			return std::nullopt;
		unsigned v = 0;
		for (size_t k = 0; k < 2; k++) {
			char c = s[3 * i + k];
			unsigned d;
			if (c >= '0' && c <= '9')
				d = static_cast<unsigned>(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = static_cast<unsigned>(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = static_cast<unsigned>(c - 'A' + 10);
			else
				return std::nullopt;
			v = v * 16 + d;
		}
		m[i] = static_cast<uint8_t>(v);
	}
	return m;
}

} // namespace rxecc::fabric
