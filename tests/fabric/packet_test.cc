// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Frame parsing, ECN rewriting and PAUSE/PFC frames against the byte
// vectors of specs/wire.md Appendix A.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "packet.h"
#include "rng.h"
#include "test_frames.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

uint16_t ip_checksum_field(const Packet &p)
{
	const uint8_t *ip = p.bytes().data() + p.info().l3_offset;
	return static_cast<uint16_t>((ip[10] << 8) | ip[11]);
}

TEST(PacketParse, RoceWriteOnly)
{
	ParseStatus st;
	auto p = Packet::parse(w1(), &st);
	ASSERT_TRUE(p) << to_string(st);
	const FrameInfo &fi = p->info();
	EXPECT_EQ(p->size(), 90u);
	EXPECT_EQ(fi.dst, host_mac(0x0b));
	EXPECT_EQ(fi.src, host_mac(0x0a));
	EXPECT_EQ(fi.ethertype, kEthTypeIpv4);
	EXPECT_FALSE(fi.vlan);
	EXPECT_TRUE(fi.ipv4);
	EXPECT_EQ(fi.l3_offset, 14u);
	EXPECT_EQ(fi.dscp, 26);
	EXPECT_EQ(fi.ecn, Ecn::kEct0);
	EXPECT_EQ(fi.ip_proto, 17);
	EXPECT_EQ(fi.src_ip, IpAddr::v4(10, 0, 0, 1));
	EXPECT_EQ(fi.dst_ip, IpAddr::v4(10, 0, 0, 2));
	EXPECT_TRUE(fi.udp);
	EXPECT_EQ(fi.l4_offset, 34u);
	EXPECT_EQ(fi.sport, 0xc132);
	EXPECT_EQ(fi.dport, 4791);
	EXPECT_TRUE(fi.roce);
	EXPECT_EQ(fi.bth_offset, 42u);
	EXPECT_EQ(fi.bth_opcode, 0x0a);
	EXPECT_EQ(ipv4_header_checksum(p->bytes().data() + 14, 20), 0x2634);
}

TEST(PacketParse, HardwareCnp)
{
	auto p = Packet::parse(c0());
	ASSERT_TRUE(p);
	EXPECT_EQ(p->size(), 74u);
	EXPECT_EQ(p->info().dscp, 48);
	EXPECT_EQ(p->info().ecn, Ecn::kEct0);
	EXPECT_EQ(p->info().sport, 0);
	EXPECT_EQ(p->info().bth_opcode, 0x81);
	EXPECT_EQ(ipv4_header_checksum(p->bytes().data() + 14, 20), 0x9161);
}

TEST(PacketParse, VlanTagShiftsOffsetsAndGivesPcp)
{
	std::vector<uint8_t> f = w1();
	// TPID 0x8100, PCP 5, DEI 0, VID 0x123.
	f.insert(f.begin() + 12, {0x81, 0x00, 0xa1, 0x23});
	auto p = Packet::parse(f);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().vlan);
	EXPECT_EQ(p->info().pcp, 5);
	EXPECT_EQ(p->info().vid, 0x123);
	EXPECT_EQ(p->info().ethertype, kEthTypeIpv4);
	EXPECT_EQ(p->info().l3_offset, 18u);
	EXPECT_EQ(p->info().bth_offset, 46u);
	EXPECT_TRUE(p->info().roce);
}

TEST(PacketParse, EveryTruncationOfW1IsRejectedWithItsReason)
{
	const std::vector<uint8_t> full = w1();
	for (size_t n = 0; n < full.size(); n++) {
		std::vector<uint8_t> f(full.begin(), full.begin() + static_cast<long>(n));
		ParseStatus st;
		EXPECT_FALSE(Packet::parse(f, &st)) << n;
		ParseStatus want = n < 14   ? ParseStatus::kTooShort
		                   : n < 34 ? ParseStatus::kIpTruncated
		                            : ParseStatus::kIpBadTotalLength; // IP total 76 + 14
		EXPECT_EQ(st, want) << "length " << n;
	}
	EXPECT_TRUE(Packet::parse(full));
}

TEST(PacketParse, EthernetPaddingAfterTheDatagramIsAccepted)
{
	std::vector<uint8_t> f = a1(); // 62 bytes, IP total 48
	f.resize(80, 0);
	auto p = Packet::parse(f);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().roce);
	EXPECT_EQ(p->info().bth_opcode, 0x11);
}

TEST(PacketParse, BadIpv4Headers)
{
	ParseStatus st;
	std::vector<uint8_t> f = w1();
	f[14] = 0x44; // IHL 4
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kIpBadHeaderLength);

	f = w1();
	f[14] = 0x65; // version 6 under EtherType 0x0800
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kIpBadVersion);

	f = w1();
	f.resize(40);
	f[14] = 0x4f; // IHL 15 = 60 bytes, frame has 26 after L2
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kIpTruncated);

	f = w1();
	f[16] = 0x00; // total length 19 < IHL
	f[17] = 0x13;
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kIpBadTotalLength);
}

TEST(PacketParse, BadUdpAndBth)
{
	ParseStatus st;
	std::vector<uint8_t> f = w1();
	f[38] = 0x00; // UDP length 7
	f[39] = 0x07;
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kUdpBadLength);

	f = w1();
	f[38] = 0xff; // UDP length past the IP payload
	f[39] = 0xff;
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kUdpBadLength);

	// IP total 20 + 4: no room for the UDP header.
	f = udp_frame(1, 2, kTosData, 60);
	f[16] = 0;
	f[17] = 24;
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kUdpTruncated);

	// UDP to 4791 with 11 bytes of payload: a BTH needs 12.
	f = udp_frame(1, 2, kTosData, 14 + 20 + 8 + 11);
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kBthTruncated);
	// The same to another port is plain UDP.
	f = udp_frame(1, 2, kTosData, 14 + 20 + 8 + 11, 5000);
	auto p = Packet::parse(f);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().udp);
	EXPECT_FALSE(p->info().roce);
}

TEST(PacketParse, FragmentsAreNotParsedPastIp)
{
	std::vector<uint8_t> f = w1();
	f[20] = 0x20; // MF, and a UDP length that would be invalid
	f[38] = 0x00;
	f[39] = 0x01;
	auto p = Packet::parse(f);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().ipv4);
	EXPECT_FALSE(p->info().udp);
	EXPECT_FALSE(p->info().roce);
}

TEST(PacketParse, TooLongAndNonIp)
{
	ParseStatus st;
	std::vector<uint8_t> f(kMaxFrameBytes + 1, 0);
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kTooLong);

	f = std::vector<uint8_t>(42, 0);
	f[12] = 0x08;
	f[13] = 0x06; // ARP
	auto p = Packet::parse(f);
	ASSERT_TRUE(p);
	EXPECT_FALSE(p->info().is_ip());
	EXPECT_EQ(p->info().ethertype, 0x0806);
}

std::vector<uint8_t> ipv6_roce(uint8_t tc)
{
	std::vector<uint8_t> f(14 + 40 + 8 + 12 + 4, 0);
	f[12] = 0x86;
	f[13] = 0xdd;
	uint8_t *ip = &f[14];
	ip[0] = static_cast<uint8_t>(0x60 | (tc >> 4));
	ip[1] = static_cast<uint8_t>((tc & 0x0f) << 4);
	ip[5] = 24; // payload length
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
	udp[8] = 0x04; // SEND ONLY
	return f;
}

TEST(PacketParse, Ipv6Roce)
{
	auto p = Packet::parse(ipv6_roce(0x6a));
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().ipv6);
	EXPECT_EQ(p->info().dscp, 26);
	EXPECT_EQ(p->info().ecn, Ecn::kEct0);
	EXPECT_EQ(p->info().dst_ip.to_string(), "fd00:0:0:0:0:0:0:2");
	EXPECT_TRUE(p->info().roce);
	EXPECT_EQ(p->info().bth_offset, 62u);
	EXPECT_EQ(p->info().bth_opcode, 0x04);

	std::vector<uint8_t> f = ipv6_roce(0x6a);
	f[19] = 200; // payload length past the frame
	ParseStatus st;
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kIpBadTotalLength);
}

TEST(PacketEcn, MarkCeFixesIpv4ChecksumIncrementally)
{
	auto p = Packet::parse(w1());
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->mark_ce());
	EXPECT_EQ(p->bytes()[15], 0x6b);
	EXPECT_EQ(p->info().ecn, Ecn::kCe);
	EXPECT_EQ(p->info().dscp, 26);
	// RFC 1624: word 0x456a -> 0x456b lowers the checksum by one.
	EXPECT_EQ(ip_checksum_field(*p), 0x2633);
	EXPECT_EQ(ipv4_header_checksum(p->bytes().data() + 14, 20), 0x2633);
	// Only the TOS byte and the checksum changed.
	std::vector<uint8_t> orig = w1();
	int changed = 0;
	for (size_t i = 0; i < orig.size(); i++)
		changed += orig[i] != p->bytes()[i];
	EXPECT_EQ(changed, 2);
	// CE stays CE.
	EXPECT_FALSE(p->mark_ce());
}

TEST(PacketEcn, NotEctAndNonIpAreNeverMarked)
{
	auto p = Packet::parse(a1());
	ASSERT_TRUE(p);
	EXPECT_FALSE(p->mark_ce());
	EXPECT_EQ(p->bytes(), a1());

	auto pfc = Packet::parse(p1());
	ASSERT_TRUE(pfc);
	EXPECT_FALSE(pfc->mark_ce());
	EXPECT_FALSE(pfc->set_dscp(10));
	EXPECT_EQ(pfc->bytes(), p1());
}

TEST(PacketEcn, Ipv6EcnBitsAreByte1Mask0x30)
{
	auto p = Packet::parse(ipv6_roce(0x69)); // DSCP 26, ECT(1)
	ASSERT_TRUE(p);
	EXPECT_EQ(p->info().ecn, Ecn::kEct1);
	EXPECT_TRUE(p->mark_ce());
	EXPECT_EQ(p->bytes()[14], 0x66);
	EXPECT_EQ(p->bytes()[15], 0xb0);
	EXPECT_EQ(p->info().ecn, Ecn::kCe);
	EXPECT_EQ(p->info().dscp, 26);
}

TEST(PacketEcn, SetDscpKeepsEcn)
{
	auto p = Packet::parse(w1());
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->set_dscp(48));
	EXPECT_EQ(p->bytes()[15], 0xc2);
	EXPECT_EQ(ip_checksum_field(*p), ipv4_header_checksum(p->bytes().data() + 14, 20));
	EXPECT_FALSE(p->set_dscp(64));
}

// The incremental update must equal a full recomputation for any header
// and any change of the DS field.
TEST(PacketEcn, IncrementalChecksumEqualsFullOnRandomHeaders)
{
	SplitMix64 rng(7);
	for (int i = 0; i < 20000; i++) {
		uint8_t h[20];
		for (uint8_t &b : h)
			b = static_cast<uint8_t>(rng.next_u32());
		h[0] = 0x45;
		uint16_t ck = ipv4_header_checksum(h, 20);
		h[10] = static_cast<uint8_t>(ck >> 8);
		h[11] = static_cast<uint8_t>(ck);
		uint16_t old_word = static_cast<uint16_t>((h[0] << 8) | h[1]);
		h[1] = static_cast<uint8_t>(rng.next_u32());
		uint16_t new_word = static_cast<uint16_t>((h[0] << 8) | h[1]);
		ASSERT_EQ(checksum_update16(ck, old_word, new_word), ipv4_header_checksum(h, 20))
			<< "iteration " << i;
	}
}

// Random bytes and random corruptions of valid frames: whatever parses has
// every offset inside the frame.  (Run under a sanitizer to check reads.)
TEST(PacketParse, RandomInputStaysInBounds)
{
	SplitMix64 rng(11);
	const std::vector<std::vector<uint8_t>> seeds = {w1(), a1(), c0(),
	                                                 p1(), p2(), ipv6_roce(0x6a)};
	for (int i = 0; i < 50000; i++) {
		std::vector<uint8_t> f = seeds[rng.next_u32() % seeds.size()];
		int flips = static_cast<int>(rng.next_u32() % 4);
		for (int k = 0; k < flips; k++)
			f[rng.next_u32() % f.size()] = static_cast<uint8_t>(rng.next_u32());
		f.resize(rng.next_u32() % (f.size() + 8), 0);
		FrameInfo fi;
		if (parse_frame(f.data(), f.size(), fi) != ParseStatus::kOk)
			continue;
		EXPECT_LE(fi.l3_offset, f.size());
		if (fi.udp) {
			EXPECT_LE(fi.l4_offset + 8, f.size());
		}
		if (fi.roce) {
			EXPECT_LE(fi.bth_offset + kBthBytes, f.size());
		}
	}
}

TEST(PfcFrame, BuildMatchesWireVectorP1)
{
	std::array<uint16_t, kNumPriorities> t{};
	t[3] = 0xffff;
	std::vector<uint8_t> f = build_pfc_frame({0x02, 0, 0, 0, 0, 0xfe}, 0x08, t);
	EXPECT_EQ(f, p1());
	EXPECT_EQ(f.size(), 60u);
}

TEST(PfcFrame, DisabledPrioritiesCarryZeroTime)
{
	std::array<uint16_t, kNumPriorities> t;
	t.fill(7);
	std::vector<uint8_t> f = build_pfc_frame({0x02, 0, 0, 0, 0, 1}, 0x81, t);
	EXPECT_EQ(f[17], 0x81);
	for (size_t n = 0; n < 8; n++) {
		uint16_t v = static_cast<uint16_t>((f[18 + 2 * n] << 8) | f[19 + 2 * n]);
		EXPECT_EQ(v, (n == 0 || n == 7) ? 7 : 0) << n;
	}
}

TEST(PfcFrame, ParsePfcAndLegacyPause)
{
	auto p = Packet::parse(p1());
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().mac_control);
	EXPECT_EQ(p->info().mac_control_opcode, kMacControlPfc);
	auto r = parse_pause(*p);
	ASSERT_TRUE(r);
	EXPECT_EQ(r->enable_mask, 0x08);
	EXPECT_EQ(r->times[3], 0xffff);
	EXPECT_EQ(r->times[2], 0);

	auto q = Packet::parse(p2());
	ASSERT_TRUE(q);
	auto r2 = parse_pause(*q);
	ASSERT_TRUE(r2);
	EXPECT_EQ(r2->enable_mask, 0xff);
	for (uint16_t t : r2->times)
		EXPECT_EQ(t, 0xffff);
}

TEST(PfcFrame, TruncatedMacControlIsRejected)
{
	ParseStatus st;
	std::vector<uint8_t> f = p1();
	f.resize(33); // PFC needs opcode + vector + 8 times = 34 bytes
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kMacControlTruncated);
	f = p2();
	f.resize(17); // PAUSE needs its time at 16..17
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kMacControlTruncated);
	f.resize(15);
	EXPECT_FALSE(Packet::parse(f, &st));
	EXPECT_EQ(st, ParseStatus::kMacControlTruncated);
}

TEST(PfcFrame, TaggedOrUnknownMacControl)
{
	std::vector<uint8_t> f = p1();
	f.insert(f.begin() + 12, {0x81, 0x00, 0x00, 0x01});
	auto p = Packet::parse(f);
	ASSERT_TRUE(p);
	EXPECT_FALSE(p->info().mac_control);
	EXPECT_FALSE(parse_pause(*p));

	f = p1();
	f[15] = 0x03; // opcode 0x0103: not PAUSE, not PFC
	auto q = Packet::parse(f);
	ASSERT_TRUE(q);
	EXPECT_TRUE(q->info().mac_control);
	EXPECT_FALSE(parse_pause(*q));
}

TEST(Addresses, MacAndPrefixHelpers)
{
	EXPECT_TRUE(is_link_local(kPfcDestMac));
	EXPECT_TRUE(is_link_local({0x01, 0x80, 0xc2, 0, 0, 0x0e}));
	EXPECT_FALSE(is_link_local({0x01, 0x80, 0xc2, 0, 0, 0x10}));
	EXPECT_TRUE(is_multicast({0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
	EXPECT_FALSE(is_multicast(host_mac(1)));
	EXPECT_EQ(parse_mac("02:00:00:00:00:0B"), host_mac(0x0b));
	EXPECT_FALSE(parse_mac("02:00:00:00:00"));
	EXPECT_FALSE(parse_mac("02-00-00-00-00-0b"));
	EXPECT_EQ(mac_to_string(host_mac(0xab)), "02:00:00:00:00:ab");

	IpAddr a = IpAddr::v4(10, 1, 2, 3);
	EXPECT_TRUE(a.matches(IpAddr::v4(10, 0, 0, 0), 8));
	EXPECT_TRUE(a.matches(IpAddr::v4(10, 1, 2, 0), 23));
	EXPECT_FALSE(a.matches(IpAddr::v4(10, 1, 4, 0), 23));
	EXPECT_TRUE(a.matches(IpAddr::v4(0, 0, 0, 0), 0));
	EXPECT_FALSE(a.matches(IpAddr::v4(10, 1, 2, 3), 33));
}

} // namespace
