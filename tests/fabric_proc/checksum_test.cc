// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion of TCP/UDP checksums left to "hardware" (checksum.h), and the
// oversize rule of if: ports (port_io.h).  Expected checksums come from a
// hand-written frame and from a byte-at-a-time reference that builds the
// pseudo header as its own buffer, not from the code under test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checksum.h"
#include "port_io.h"

using namespace rxecc::fabric;
using namespace rxecc::fabric::proc;

namespace
{

using Bytes = std::vector<uint8_t>;

Bytes hex(const std::string &s)
{
	Bytes v;
	for (size_t i = 0; i + 1 < s.size(); i += 2)
		v.push_back(static_cast<uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
	return v;
}

void put16(Bytes &b, size_t off, uint32_t v)
{
	b[off] = static_cast<uint8_t>(v >> 8);
	b[off + 1] = static_cast<uint8_t>(v);
}

uint16_t get16(const Bytes &b, size_t off)
{
	return static_cast<uint16_t>(b[off] << 8 | b[off + 1]);
}

// RFC 1071 in its plainest form: the one's-complement sum of 16-bit words,
// carries added back after every word.
uint16_t ref_sum(const Bytes &b)
{
	uint32_t s = 0;
	for (size_t i = 0; i < b.size(); i += 2) {
		uint32_t w = static_cast<uint32_t>(b[i]) << 8;
		if (i + 1 < b.size())
			w |= b[i + 1];
		s += w;
		if (s > 0xffff)
			s = (s & 0xffff) + 1;
	}
	return static_cast<uint16_t>(s);
}

// The pseudo header of RFC 793/768 (IPv4) or RFC 8200 §8.1 (IPv6)
// followed by the segment.
Bytes ref_covered(const Bytes &src, const Bytes &dst, uint8_t proto, const Bytes &seg)
{
	Bytes b(src);
	b.insert(b.end(), dst.begin(), dst.end());
	if (src.size() == 4) {
		b.push_back(0);
		b.push_back(proto);
		b.push_back(static_cast<uint8_t>(seg.size() >> 8));
		b.push_back(static_cast<uint8_t>(seg.size()));
	} else {
		b.push_back(0);
		b.push_back(0);
		b.push_back(static_cast<uint8_t>(seg.size() >> 8));
		b.push_back(static_cast<uint8_t>(seg.size()));
		b.push_back(0);
		b.push_back(0);
		b.push_back(0);
		b.push_back(proto);
	}
	b.insert(b.end(), seg.begin(), seg.end());
	return b;
}

// The checksum a correct sender puts in the segment (field taken as 0).
uint16_t ref_checksum(const Bytes &src, const Bytes &dst, uint8_t proto, Bytes seg, size_t field)
{
	seg[field] = 0;
	seg[field + 1] = 0;
	auto c = static_cast<uint16_t>(~ref_sum(ref_covered(src, dst, proto, seg)));
	if (proto == 17 && c == 0)
		c = 0xffff;
	return c;
}

// What a CHECKSUM_PARTIAL sender leaves in the field: the folded pseudo
// header sum, not complemented.
uint16_t ref_partial(const Bytes &src, const Bytes &dst, uint8_t proto, size_t seg_len)
{
	return ref_sum(ref_covered(src, dst, proto, Bytes(seg_len, 0)));
}

const Bytes kSrc4 = {10, 0, 0, 1};
const Bytes kDst4 = {10, 0, 0, 2};
const Bytes kSrc6 = hex("fd000000000000000000000000000001");
const Bytes kDst6 = hex("fd00000000000000000000000000abcd");

struct Built {
	Bytes frame;
	size_t l4 = 0;    // offset of the TCP/UDP header
	size_t field = 0; // offset of the checksum within it
	Bytes seg;        // the L4 segment as built
};

// Ethernet [+ tags] + IPv4/IPv6 + TCP/UDP header + payload (+ padding).
Built build(bool v6, uint8_t proto, size_t payload, size_t tags = 0, size_t pad = 0,
            size_t ip_opts = 0)
{
	Built r;
	Bytes &f = r.frame;
	f = hex("020000000002020000000001");
	for (size_t t = 0; t < tags; t++) {
		Bytes tag = hex(t == 0 && tags == 2 ? "88a80064" : "81006003");
		f.insert(f.end(), tag.begin(), tag.end());
	}
	Bytes seg;
	if (proto == 6) {
		seg = hex("a1b2005012345678000000015018faf000000000");
		r.field = 16;
	} else {
		seg = hex("c35012b700000000");
		put16(seg, 4, static_cast<uint32_t>(8 + payload));
		r.field = 6;
	}
	for (size_t i = 0; i < payload; i++)
		seg.push_back(static_cast<uint8_t>(0x5a ^ (i * 7)));
	if (!v6) {
		Bytes t = hex("0800");
		f.insert(f.end(), t.begin(), t.end());
		size_t ip = f.size();
		Bytes h = hex("45000000abcd400040000000");
		h[0] = static_cast<uint8_t>(0x40 | (5 + ip_opts / 4));
		h[9] = proto;
		f.insert(f.end(), h.begin(), h.end());
		f.insert(f.end(), kSrc4.begin(), kSrc4.end());
		f.insert(f.end(), kDst4.begin(), kDst4.end());
		for (size_t i = 0; i < ip_opts; i++)
			f.push_back(1); // NOP options
		put16(f, ip + 2, static_cast<uint32_t>(20 + ip_opts + seg.size()));
	} else {
		Bytes t = hex("86dd60000000");
		f.insert(f.end(), t.begin(), t.end());
		f.push_back(static_cast<uint8_t>(seg.size() >> 8));
		f.push_back(static_cast<uint8_t>(seg.size()));
		f.push_back(proto);
		f.push_back(64);
		f.insert(f.end(), kSrc6.begin(), kSrc6.end());
		f.insert(f.end(), kDst6.begin(), kDst6.end());
	}
	r.l4 = f.size();
	f.insert(f.end(), seg.begin(), seg.end());
	for (size_t i = 0; i < pad; i++)
		f.push_back(0xee);
	r.seg = seg;
	return r;
}

// A TCP SYN as a Linux host sends it (MSS, SACK permitted, timestamps,
// window scale), 10.0.0.1:41394 -> 10.0.0.2:80, written out by hand; its
// TCP checksum 0x2e5d and IPv4 header checksum 0x0a74 were worked out
// separately from the bytes.
const char *kSyn = "020000000002020000000001"
		   "0800"
		   "4500003c1c46400040060a740a0000010a000002"
		   "a1b20050"
		   "12345678"
		   "00000000"
		   "a002faf0"
		   "2e5d0000"
		   "020405b40402080a000000010000000001030307";

} // namespace

TEST(Checksum, ReferenceSumAgrees)
{
	// RFC 1071 §3 example: 0001 f203 f4f5 f6f7 sums to 0xddf2.
	Bytes b = hex("0001f203f4f5f6f7");
	EXPECT_EQ(ref_sum(b), 0xddf2);
	EXPECT_EQ(ones_fold(ones_sum(b.data(), b.size(), 0)), 0xddf2);
	// An odd byte counts as the high half of a word.
	EXPECT_EQ(ones_fold(ones_sum(b.data(), 3, 0)), 0xf201);
}

TEST(Checksum, HandWrittenSynCompletedFromPartial)
{
	const Bytes good = hex(kSyn);
	ASSERT_EQ(good.size(), 74u);
	ASSERT_EQ(get16(good, 14 + 20 + 16), 0x2e5d);
	// The frame is valid: pseudo header + segment sum to 0xffff.
	Bytes seg(good.begin() + 34, good.end());
	EXPECT_EQ(ref_sum(ref_covered(kSrc4, kDst4, 6, seg)), 0xffff);

	// What veth hands over: the pseudo-header sum (0x1431) in the field.
	Bytes f = good;
	put16(f, 50, ref_partial(kSrc4, kDst4, 6, 40));
	EXPECT_EQ(get16(f, 50), 0x1431);
	EXPECT_EQ(complete_l4_checksum(f.data(), f.size()), L4Checksum::kCompleted);
	EXPECT_EQ(f, good);

	// Whatever the field held, and a finished checksum stays as it is.
	put16(f, 50, 0xdead);
	EXPECT_EQ(complete_l4_checksum(f.data(), f.size()), L4Checksum::kCompleted);
	EXPECT_EQ(f, good);
	EXPECT_EQ(complete_l4_checksum(f.data(), f.size()), L4Checksum::kCompleted);
	EXPECT_EQ(f, good);
}

TEST(Checksum, MatchesReferenceAcrossShapes)
{
	for (bool v6 : {false, true}) {
		for (uint8_t proto : {uint8_t{6}, uint8_t{17}}) {
			for (size_t tags : {0u, 1u, 2u}) {
				for (size_t payload : {0u, 1u, 2u, 5u, 101u, 1400u, 8999u}) {
					SCOPED_TRACE(std::string(v6 ? "v6" : "v4") +
					             (proto == 6 ? " tcp" : " udp") + " tags " +
					             std::to_string(tags) + " payload " +
					             std::to_string(payload));
					Built b = build(v6, proto, payload, tags);
					const Bytes &src = v6 ? kSrc6 : kSrc4;
					const Bytes &dst = v6 ? kDst6 : kDst4;
					uint16_t want =
						ref_checksum(src, dst, proto, b.seg, b.field);
					put16(b.frame, b.l4 + b.field,
					      ref_partial(src, dst, proto, b.seg.size()));
					Bytes before = b.frame;
					ASSERT_EQ(complete_l4_checksum(b.frame.data(),
					                               b.frame.size()),
					          L4Checksum::kCompleted);
					EXPECT_EQ(get16(b.frame, b.l4 + b.field), want);
					// Nothing but the two checksum bytes changed.
					put16(before, b.l4 + b.field, want);
					EXPECT_EQ(b.frame, before);
				}
			}
		}
	}
}

TEST(Checksum, PaddingAndIpOptionsAreNotCovered)
{
	// A short UDP frame padded to 60 bytes with non-zero bytes, and a
	// TCP segment behind 8 bytes of IPv4 options.
	Built u = build(false, 17, 3, 0, 60 - (14 + 20 + 8 + 3));
	ASSERT_EQ(u.frame.size(), 60u);
	uint16_t want = ref_checksum(kSrc4, kDst4, 17, u.seg, u.field);
	EXPECT_EQ(complete_l4_checksum(u.frame.data(), u.frame.size()), L4Checksum::kCompleted);
	EXPECT_EQ(get16(u.frame, u.l4 + u.field), want);

	Built t = build(false, 6, 33, 0, 0, 8);
	EXPECT_EQ(t.l4, 14u + 28u);
	want = ref_checksum(kSrc4, kDst4, 6, t.seg, t.field);
	EXPECT_EQ(complete_l4_checksum(t.frame.data(), t.frame.size()), L4Checksum::kCompleted);
	EXPECT_EQ(get16(t.frame, t.l4 + t.field), want);
}

TEST(Checksum, UdpZeroIsSentAsAllOnes)
{
	for (bool v6 : {false, true}) {
		// Choose the last two payload bytes so the sum is 0xffff and
		// the checksum computes to 0.
		Built b = build(v6, 17, 10);
		const Bytes &src = v6 ? kSrc6 : kSrc4;
		const Bytes &dst = v6 ? kDst6 : kDst4;
		Bytes seg = b.seg;
		seg[6] = seg[7] = 0;
		put16(seg, seg.size() - 2, 0);
		uint16_t rest = ref_sum(ref_covered(src, dst, 17, seg));
		put16(seg, seg.size() - 2, static_cast<uint16_t>(0xffff - rest));
		ASSERT_EQ(ref_sum(ref_covered(src, dst, 17, seg)), 0xffff);
		std::copy(seg.begin(), seg.end(), b.frame.begin() + static_cast<long>(b.l4));
		ASSERT_EQ(complete_l4_checksum(b.frame.data(), b.frame.size()),
		          L4Checksum::kCompleted);
		EXPECT_EQ(get16(b.frame, b.l4 + 6), 0xffff);
	}
}

TEST(Checksum, Ipv4UdpWithZeroFieldIsComputed)
{
	// With TP_STATUS_CSUMNOTREADY the field holds the pseudo-header sum,
	// which may be anything, 0 included: always computed.
	Built b = build(false, 17, 20);
	put16(b.frame, b.l4 + 6, 0);
	uint16_t want = ref_checksum(kSrc4, kDst4, 17, b.seg, 6);
	ASSERT_NE(want, 0);
	EXPECT_EQ(complete_l4_checksum(b.frame.data(), b.frame.size()), L4Checksum::kCompleted);
	EXPECT_EQ(get16(b.frame, b.l4 + 6), want);
}

TEST(Checksum, UnsupportedFramesAreLeftUnchanged)
{
	std::vector<std::pair<std::string, Bytes>> cases;
	cases.push_back({"too short", hex("0200000000020200000000")});
	cases.push_back({"ARP", hex("ffffffffffff020000000001080600010800060400010200000000"
	                            "010a0000010000000000000a000002")});
	{
		Built b = build(false, 1, 0); // ICMP
		cases.push_back({"ICMP", b.frame});
	}
	{
		Built b = build(false, 6, 100);
		put16(b.frame, 14 + 6, 0x2000); // more fragments
		cases.push_back({"first fragment", b.frame});
		put16(b.frame, 14 + 6, 0x0010); // an offset
		cases.push_back({"later fragment", b.frame});
	}
	{
		Built b = build(false, 17, 10);
		put16(b.frame, 14 + 2, static_cast<uint32_t>(b.frame.size())); // past the frame
		cases.push_back({"IPv4 length past the frame", b.frame});
		b = build(false, 17, 10);
		b.frame[14] = 0x44; // IHL 4
		cases.push_back({"IHL below 5", b.frame});
		b = build(false, 17, 10);
		b.frame[14] = 0x65; // version 6 under 0x0800
		cases.push_back({"version disagrees", b.frame});
		b = build(false, 17, 10);
		put16(b.frame, b.l4 + 4, 7);
		cases.push_back({"UDP length below 8", b.frame});
		b = build(false, 17, 10);
		put16(b.frame, b.l4 + 4, 19);
		cases.push_back({"UDP length past the IP payload", b.frame});
		b = build(false, 6, 10);
		b.frame[b.l4 + 12] = 0x40; // data offset 16 bytes
		cases.push_back({"TCP data offset below 20", b.frame});
		b = build(false, 6, 10);
		b.frame[b.l4 + 12] = 0xf0; // 60 bytes of header in 30
		cases.push_back({"TCP data offset past the segment", b.frame});
		b = build(false, 6, 10);
		put16(b.frame, 14 + 2, 20 + 19); // IP payload shorter than TCP
		cases.push_back({"TCP header truncated", b.frame});
	}
	{
		Built b = build(true, 6, 10);
		b.frame[14 + 6] = 0; // hop-by-hop options first
		cases.push_back({"IPv6 extension header", b.frame});
		b = build(true, 6, 10);
		put16(b.frame, 14 + 4, 0);
		cases.push_back({"IPv6 jumbogram", b.frame});
		b = build(true, 17, 10);
		put16(b.frame, 14 + 4, 19);
		cases.push_back({"IPv6 payload past the frame", b.frame});
		b = build(true, 17, 10);
		b.frame.resize(14 + 39);
		cases.push_back({"IPv6 header truncated", b.frame});
	}
	{
		Built b = build(false, 6, 10, 2);
		Bytes third = hex("81000005");
		b.frame.insert(b.frame.begin() + 20, third.begin(), third.end());
		cases.push_back({"three VLAN tags", b.frame});
		Bytes t = hex("0200000000020200000000018100");
		cases.push_back({"tag without its EtherType", t});
	}
	for (auto &c : cases) {
		SCOPED_TRACE(c.first);
		Bytes f = c.second;
		EXPECT_EQ(complete_l4_checksum(f.data(), f.size()), L4Checksum::kUnsupported);
		EXPECT_EQ(f, c.second);
	}
}

TEST(IfRx, RingFramesHoldTheLongestFrameOfTheMtuWithTheirHeader)
{
	EXPECT_EQ(if_ring_frame(if_max_frame(1500)), 2048u);
	EXPECT_EQ(if_ring_frame(1920), 2048u);
	EXPECT_EQ(if_ring_frame(1921), 4096u); // 1921 + 128 > 2048
	EXPECT_EQ(if_ring_frame(if_max_frame(9000)), 16384u);
	EXPECT_EQ(if_ring_frame(kMaxFrameBytes), 32768u);
	EXPECT_EQ(if_ring_frame(0), 2048u);
}

TEST(IfRx, OversizeRule)
{
	// 1500-byte MTU: 1500 + 14 + two tags.
	EXPECT_EQ(if_max_frame(1500), 1522u);
	EXPECT_EQ(if_max_frame(9000), 9022u);
	EXPECT_EQ(if_max_frame(65535), kMaxFrameBytes);
	EXPECT_FALSE(if_rx_oversize(1514, 1514, 1522));
	EXPECT_FALSE(if_rx_oversize(1522, 1522, 1522));
	EXPECT_TRUE(if_rx_oversize(1523, 1523, 1522));             // GRO/GSO super-frame
	EXPECT_TRUE(if_rx_oversize(65226, 16308, kMaxFrameBytes)); // cut in the ring
	EXPECT_TRUE(if_rx_oversize(100, 99, 1522));
	EXPECT_TRUE(if_rx_oversize(static_cast<uint32_t>(kMaxFrameBytes) + 1,
	                           static_cast<uint32_t>(kMaxFrameBytes) + 1, 1u << 20));
}

TEST(IfRx, OversizeWarningNamesTheFix)
{
	std::string w = oversize_warning("veth1", 4410, 1522);
	EXPECT_NE(w.find("if:veth1"), std::string::npos) << w;
	EXPECT_NE(w.find("4410"), std::string::npos) << w;
	EXPECT_NE(w.find("1522"), std::string::npos) << w;
	EXPECT_NE(w.find("ethtool -K veth1 gso off tso off gro off"), std::string::npos) << w;
	EXPECT_EQ(w.back(), '\n');
	EXPECT_EQ(w.find('\n'), w.size() - 1); // one line
}
