// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-inject's packet builder: the CRC, the layout and the ICRC's masks,
// the INT shim's encoding, the ICRC of a packet that carries it, the TOS,
// the PCN payload, and the SFC back-to-sender packet (BTS).
#include <algorithm>
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include "roce.h"

using namespace rxecc::inject;

TEST(Roce, Crc32MatchesTheStandardCheckValue)
{
	const char *s = "123456789";
	// CRC-32/ISO-HDLC of "123456789" is 0xCBF43926
	EXPECT_EQ(~crc32_le(0xffffffffU, reinterpret_cast<const std::uint8_t *>(s), 9),
	          0xCBF43926U);
}

TEST(Roce, TheIcrcSeedIsTheCrcOfAMaskedLrh)
{
	std::uint8_t lrh[8];
	std::fill(lrh, lrh + 8, 0xff);
	EXPECT_EQ(crc32_le(0xffffffffU, lrh, 8), 0xdebb20e3U);
}

TEST(Roce, CnpLayout)
{
	Packet p;
	inet_pton(AF_INET, "10.0.0.2", &p.saddr);
	inet_pton(AF_INET, "10.0.0.1", &p.daddr);
	p.dest_qp = 0x123456;
	p.body.assign(kCnpBodyBytes, 0);
	auto d = build(p);
	ASSERT_EQ(d.size(), 20u + 8 + 12 + 16 + 4);
	EXPECT_EQ(d[0], 0x45);
	EXPECT_EQ(d[9], 17);
	EXPECT_EQ((d[22] << 8) | d[23], kRocePort);
	EXPECT_EQ((d[24] << 8) | d[25], 8 + 32); // UDP length: a CNP's payload is 32 bytes
	EXPECT_EQ(d[28], kOpCnp);
	EXPECT_EQ(d[32], 0x40); // BECN
	EXPECT_EQ(d[33], 0x12);
	EXPECT_EQ(d[35], 0x56);
	std::uint32_t c = icrc(d);
	std::uint32_t stored = d[d.size() - 4] | d[d.size() - 3] << 8 | d[d.size() - 2] << 16 |
	                       static_cast<std::uint32_t>(d[d.size() - 1]) << 24;
	EXPECT_EQ(stored, c);
}

TEST(Roce, TheIcrcIgnoresTheMaskedFieldsOnly)
{
	Packet p;
	p.saddr = 0x0200000a;
	p.daddr = 0x0100000a;
	p.dest_qp = 17;
	p.body.assign(kCnpBodyBytes, 0);
	auto base = build(p);
	auto c0 = icrc(base);
	// TOS, TTL, IP checksum, UDP checksum and the FECN/BECN byte are masked
	for (std::size_t off : {1u, 8u, 10u, 11u, 26u, 27u, 32u}) {
		auto d = base;
		d[off] ^= 0x5a;
		EXPECT_EQ(icrc(d), c0) << off;
	}
	// the addresses, the ports, the DestQP and the body are not
	for (std::size_t off : {12u, 16u, 20u, 22u, 33u, 36u, 40u}) {
		auto d = base;
		d[off] ^= 0x5a;
		EXPECT_NE(icrc(d), c0) << off;
	}
	p.icrc_valid = false;
	auto bad = build(p);
	EXPECT_NE(bad, base);
}

namespace
{

// B's ACK of specs/wire.md §1.10 (A's WRITE of PSN 0x100 to QP 0x11
// acknowledged to QP 0x12), as build() makes it: TOS, TTL and the IP
// checksum 0 (the kernel fills the checksum in), which the ICRC masks
Packet spec_ack()
{
	Packet p;
	inet_pton(AF_INET, "10.0.0.2", &p.saddr);
	inet_pton(AF_INET, "10.0.0.1", &p.daddr);
	p.sport = 0xc132;
	p.ip_id = 1;
	p.dest_qp = 0x000012;
	p.opcode = kOpAck;
	p.fecn_becn = 0;
	p.psn = 0x000100;
	p.body = {0x1f, 0x00, 0x00, 0x01};
	return p;
}

std::uint32_t stored_icrc(const std::vector<std::uint8_t> &d)
{
	return d[d.size() - 4] | d[d.size() - 3] << 8 | d[d.size() - 2] << 16 |
	       static_cast<std::uint32_t>(d[d.size() - 1]) << 24;
}

// the big-endian 16-bit word at `off`
unsigned be16(const std::vector<std::uint8_t> &d, std::size_t off)
{
	return static_cast<unsigned>(d[off] << 8 | d[off + 1]);
}

// the specs/hpcc.md §3.1 encoding vector
std::vector<std::uint8_t> vector_shim()
{
	return int_shim(2, 0x123,
	                {{11, 0xABCDEF, 0x12345, 0x0102}, {4, 0x000001, 0xFFFFF, 0xFFFF}});
}

} // namespace

// The bytes build() made before the shim and the port were added (the
// ACK's ICRC is the one specs/wire.md §1.10 gives, 7b 09 c7 73).
TEST(Roce, WithoutAShimThePacketsAreUnchanged)
{
	const std::vector<std::uint8_t> ack = {
		0x45, 0x00, 0x00, 0x30, 0x00, 0x01, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0xc1, 0x32, 0x12, 0xb7,
		0x00, 0x1c, 0x00, 0x00, 0x11, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x01, 0x00, 0x1f, 0x00, 0x00, 0x01, 0x7b, 0x09, 0xc7, 0x73};
	EXPECT_EQ(build(spec_ack()), ack);
	const std::vector<std::uint8_t> cnp = {
		0x45, 0x00, 0x00, 0x3c, 0x00, 0x01, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0xc0, 0x00, 0x12, 0xb7,
		0x00, 0x28, 0x00, 0x00, 0x81, 0x00, 0xff, 0xff, 0x40, 0x12, 0x34, 0x56,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46, 0x43, 0xfa, 0x59};
	Packet c;
	inet_pton(AF_INET, "10.0.0.2", &c.saddr);
	inet_pton(AF_INET, "10.0.0.1", &c.daddr);
	c.dest_qp = 0x123456;
	c.body.assign(kCnpBodyBytes, 0);
	EXPECT_EQ(build(c), cnp);
}

// The same ACK with a TCD mark echo in BTH byte 4 (specs/wire.md §7.4
// (c): CAP | BECN | CE_CNT 1, 0x62, as tcd_valid sends it; or UE): byte 4
// changes and nothing else, the ICRC least of all (7b 09 c7 73).
TEST(Roce, ATcdMarkChangesByte4AndNotTheIcrc)
{
	auto plain = build(spec_ack());
	for (std::uint8_t mark :
	     {std::uint8_t{kBthCap | kTcdBecn | 1 << kTcdCeCntShift},
	      std::uint8_t{kBthCap | kTcdBecn | kTcdCeCnt}, std::uint8_t{kBthCap | kTcdUe}}) {
		Packet p = spec_ack();
		p.fecn_becn = mark;
		auto d = build(p);
		auto want = plain;
		want[32] = mark;
		EXPECT_EQ(d, want) << unsigned{mark};
		EXPECT_EQ(stored_icrc(d), 0x73c7097bU);
	}
	EXPECT_EQ(kBthCap | kTcdBecn | 1 << kTcdCeCntShift, 0x62);
	EXPECT_EQ(kBthCap | kTcdBecn | kTcdCeCnt, 0x7e); // CE_CNT 15
}

// Vector C1 of specs/wire.md (Appendix A): an rxe-style CNP, DSCP 48,
// Not-ECT, as build() makes it (the IP checksum left to the kernel), its
// ICRC 46 37 ce aa; the DS field is the one byte a TOS changes.
TEST(Roce, TheTosIsTheDsFieldAndNotInTheIcrc)
{
	const std::vector<std::uint8_t> c1 = {
		0x45, 0xc0, 0x00, 0x3c, 0x00, 0x02, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0xc1, 0x32, 0x12, 0xb7,
		0x00, 0x28, 0x00, 0x00, 0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46, 0x37, 0xce, 0xaa};
	Packet p;
	inet_pton(AF_INET, "10.0.0.2", &p.saddr);
	inet_pton(AF_INET, "10.0.0.1", &p.daddr);
	p.sport = 0xc132;
	p.ip_id = 2;
	p.dest_qp = 0x12;
	p.body.assign(kCnpBodyBytes, 0);
	p.tos = ds_field(kDscpCnp, kEcnNotEct);
	EXPECT_EQ(build(p), c1);
	for (unsigned tos : {0x00u, 0xc3u, 0xffu}) {
		p.tos = static_cast<std::uint8_t>(tos);
		auto want = c1;
		want[1] = static_cast<std::uint8_t>(tos);
		EXPECT_EQ(build(p), want) << tos;
	}
	EXPECT_EQ(ds_field(48, kEcnCe), 0xc3);
	EXPECT_EQ(ds_field(48, kEcnNotEct), 0xc0);
	EXPECT_EQ(ds_field(26, 2), 0x6a);      // data: DSCP 26, ECT(0)
	EXPECT_EQ(ds_field(0xff, 0xff), 0xff); // each cut to its width
	EXPECT_EQ(ds_field(0x40, 0x04), 0x00);
}

// specs/wire.md §7.4 (e′): RecRate BE, 0x50 0x43, flags, version, the
// sequence BE, 4 zero bytes; every field where it belongs, none cut
TEST(Roce, PcnPayloadLayout)
{
	PcnPayload pl;
	pl.rec_rate = 50;
	pl.flags = kPcnDec | kPcnRateValid;
	pl.seq = 0x01020304;
	EXPECT_EQ(pcn_payload(pl),
	          (std::vector<std::uint8_t>{0x00, 0x00, 0x00, 0x32, 0x50, 0x43, 0x03, 0x01, 0x01,
	                                     0x02, 0x03, 0x04, 0x00, 0x00, 0x00, 0x00}));
	pl.rec_rate = 0xfedcba98;
	pl.magic = 0xa1b2;
	pl.flags = 0xc5;
	pl.version = 0xd6;
	pl.seq = 0xffeeddcc;
	EXPECT_EQ(pcn_payload(pl),
	          (std::vector<std::uint8_t>{0xfe, 0xdc, 0xba, 0x98, 0xa1, 0xb2, 0xc5, 0xd6, 0xff,
	                                     0xee, 0xdd, 0xcc, 0x00, 0x00, 0x00, 0x00}));
	// the defaults: the magic and version 1, nothing else
	EXPECT_EQ(pcn_payload({}), (std::vector<std::uint8_t>{0, 0, 0, 0, 0x50, 0x43, 0, 1, 0, 0, 0,
	                                                      0, 0, 0, 0, 0}));
	EXPECT_EQ(kPcnMagic, 0x5043);
	EXPECT_EQ(kOpPcnRate, 0xc2);
}

// A PCN decrease (CNP 0x81, BECN, CE, DEC | RATE_VALID) and increase
// (0xC2, no BECN, Not-ECT, RATE_VALID), DSCP 48, RecRate 50: the C1 CNP
// with the payload; the ICRCs computed apart from this code with the
// specs/wire.md §1.8 recipe (which gives C1's).
TEST(Roce, PcnDecreaseAndIncreaseBytes)
{
	const std::vector<std::uint8_t> dec = {
		0x45, 0xc3, 0x00, 0x3c, 0x00, 0x02, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0xc1, 0x32, 0x12, 0xb7,
		0x00, 0x28, 0x00, 0x00, 0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x32, 0x50, 0x43, 0x03, 0x01,
		0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x00, 0x00, 0x59, 0x20, 0x57, 0x6a};
	const std::vector<std::uint8_t> inc = {
		0x45, 0xc0, 0x00, 0x3c, 0x00, 0x02, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0xc1, 0x32, 0x12, 0xb7,
		0x00, 0x28, 0x00, 0x00, 0xc2, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x32, 0x50, 0x43, 0x02, 0x01,
		0x01, 0x02, 0x03, 0x05, 0x00, 0x00, 0x00, 0x00, 0xb0, 0x22, 0x54, 0xd7};
	Packet p;
	inet_pton(AF_INET, "10.0.0.2", &p.saddr);
	inet_pton(AF_INET, "10.0.0.1", &p.daddr);
	p.sport = 0xc132;
	p.ip_id = 2;
	p.dest_qp = 0x12;
	p.tos = ds_field(kDscpCnp, kEcnCe);
	PcnPayload pl;
	pl.rec_rate = 50;
	pl.flags = kPcnDec | kPcnRateValid;
	pl.seq = 0x01020304;
	p.body = pcn_payload(pl);
	EXPECT_EQ(build(p), dec);

	p.opcode = kOpPcnRate;
	p.fecn_becn = 0;
	p.tos = ds_field(kDscpCnp, kEcnNotEct);
	pl.flags = kPcnRateValid;
	pl.seq = 0x01020305;
	p.body = pcn_payload(pl);
	EXPECT_EQ(build(p), inc);
}

TEST(Roce, IntShimEncoding)
{
	std::vector<std::uint8_t> want = {0x21, 0x23, 0xBA, 0xBC, 0xDE, 0xF1, 0x23, 0x45, 0x01,
	                                  0x02, 0x40, 0x00, 0x00, 0x1F, 0xFF, 0xFF, 0xFF, 0xFF};
	want.resize(kIntShimBytes, 0);
	ASSERT_EQ(want.size(), 42u);
	EXPECT_EQ(vector_shim(), want);
}

TEST(Roce, IntShimFieldsAreCutToTheirWidths)
{
	// nHop 4 bits, pathID 12, B 4, TS 24, txBytes 20; slots past the 5th
	// are left out
	std::vector<IntHop> hops(7, IntHop{0x1b, 0x1abcdef, 0x112345, 0x0102});
	auto s = int_shim(0x12, 0xf123, hops);
	ASSERT_EQ(s.size(), kIntShimBytes);
	EXPECT_EQ(be16(s, 0), 0x2123u);
	for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(kIntMaxHops); i++) {
		std::vector<std::uint8_t> slot(s.begin() + 2 + 8 * i, s.begin() + 10 + 8 * i);
		EXPECT_EQ(slot, (std::vector<std::uint8_t>{0xBA, 0xBC, 0xDE, 0xF1, 0x23, 0x45, 0x01,
		                                           0x02}))
			<< i;
	}
	// no hops: the header alone, every slot zero
	auto e = int_shim(6, 0, {});
	EXPECT_EQ(e[0], 0x60);
	EXPECT_TRUE(std::all_of(e.begin() + 1, e.end(), [](std::uint8_t b) { return b == 0; }));
}

TEST(Roce, TheShimSitsBetweenUdpAndBth)
{
	Packet p = spec_ack();
	p.dport = kIntPort;
	p.shim = vector_shim();
	auto d = build(p);
	auto plain = build(spec_ack());
	ASSERT_EQ(d.size(), plain.size() + kIntShimBytes);
	EXPECT_EQ(be16(d, 2), d.size());       // IP total length
	EXPECT_EQ(be16(d, 22), kIntPort);      // UDP destination port
	EXPECT_EQ(be16(d, 24), d.size() - 20); // UDP length
	// UDP payload offsets 0..41: the shim; then the BTH, AETH and ICRC
	EXPECT_EQ(std::vector<std::uint8_t>(d.begin() + 28, d.begin() + 28 + 42), p.shim);
	EXPECT_EQ(std::vector<std::uint8_t>(d.begin() + 28 + 42, d.end() - 4),
	          std::vector<std::uint8_t>(plain.begin() + 28, plain.end() - 4));
	EXPECT_EQ(d[28 + 42], kOpAck);
	EXPECT_EQ(stored_icrc(d), icrc(d, kIntShimBytes));
}

// rxe computes the ICRC over the IP and UDP headers it finds, lengths
// included, and then from the BTH on: the ICRC of an INT packet is the
// one of the same packet without the shim whose IP and UDP lengths count
// the shim all the same.
TEST(Roce, TheIcrcSkipsTheShimButCountsItInTheLengths)
{
	Packet p = spec_ack();
	p.dport = kIntPort;
	p.shim = vector_shim();
	auto d = build(p);

	// without the shim, to the same port, lengths grown by 42
	Packet q = spec_ack();
	q.dport = kIntPort;
	auto lens = build(q);
	std::uint32_t unshimmed = stored_icrc(lens);
	lens[2] = static_cast<std::uint8_t>((be16(lens, 2) + 42) >> 8);
	lens[3] = static_cast<std::uint8_t>(be16(lens, 2) + 42);
	lens[24] = static_cast<std::uint8_t>((be16(lens, 24) + 42) >> 8);
	lens[25] = static_cast<std::uint8_t>(be16(lens, 24) + 42);
	std::uint32_t want = icrc(lens);
	EXPECT_EQ(stored_icrc(d), want);
	// which would not be the case if the lengths were not covered, or if
	// the shim were
	EXPECT_NE(want, unshimmed);
	EXPECT_NE(icrc(d, 0), want);
	// the shim's bytes do not count, the BTH's do
	for (std::size_t off = 28; off < 28 + kIntShimBytes; off++) {
		auto e = d;
		e[off] ^= 0xa5;
		EXPECT_EQ(icrc(e, kIntShimBytes), want) << off;
	}
	for (std::size_t off : {28u + 42 + 1, 28u + 42 + 5, 28u + 42 + 9, 28u + 42 + 12}) {
		auto e = d;
		e[off] ^= 0xa5;
		EXPECT_NE(icrc(e, kIntShimBytes), want) << off;
	}
	// the masks apply to the BTH after the shim: resv8a (CAP, BECN) is free
	auto e = d;
	e[28 + 42 + 4] ^= 0x60;
	EXPECT_EQ(icrc(e, kIntShimBytes), want);

	p.icrc_valid = false;
	auto bad = build(p);
	EXPECT_EQ(stored_icrc(bad), want ^ 1);
}

TEST(Roce, TruncateUdpRewritesTheLengths)
{
	Packet p = spec_ack();
	p.dport = kIntPort;
	p.shim = vector_shim();
	auto d = build(p);
	for (std::size_t n : {0u, 1u, 41u, 53u}) {
		auto t = truncate_udp(d, n);
		ASSERT_EQ(t.size(), 28 + n) << n;
		EXPECT_EQ(be16(t, 2), 28 + n);
		EXPECT_EQ(be16(t, 24), 8 + n);
		EXPECT_EQ(be16(t, 22), kIntPort);
		EXPECT_TRUE(std::equal(t.begin() + 28, t.end(), d.begin() + 28)) << n;
	}
	EXPECT_EQ(truncate_udp(d, 10000), d);
}

// ---- SFC back-to-sender (specs/sfc.md §3.3, specs/wire.md §7.4 (a), (f)) ----

namespace
{

// A BTS for A's (10.0.0.1, sport 0xc132) RDMA WRITE ONLY to B's QP 0x34
// (PSN 7), from B back to A: cacheable, pause 1000 µs, qdepth 0x123
Bts spec_bts()
{
	Bts b;
	inet_pton(AF_INET, "10.0.0.2", &b.saddr);
	inet_pton(AF_INET, "10.0.0.1", &b.daddr);
	b.sport = 0xc132;
	b.ip_id = 2;
	b.flags = kBtsCacheable;
	b.pause_us = 1000;
	b.qdepth = 0x123;
	b.inner_sport = 0xc132;
	b.inner_len = 1064; // 8 + BTH + RETH + 1024 + ICRC
	b.dest_qp = 0x34;
	b.psn = 7;
	return b;
}

} // namespace

// The bytes written out by hand: IPv4 (DSCP 48, Not-ECT, DF, TTL 64, UDP;
// the checksum left to the kernel), UDP 0xc132 -> 4793 (checksum 0), the
// BTS header (ver 1 | type 0, flags C, 0x6a, 0, pause 1000, qdepth 0x123),
// the original UDP header 0xc132 -> 4791, length 1064, checksum 0, the
// original BTH (WRITE ONLY, P_Key 0xffff, QP 0x34, PSN 7); no ICRC.
TEST(Roce, BtsBytes)
{
	const std::vector<std::uint8_t> bts = {
		0x45, 0xc0, 0x00, 0x3c, 0x00, 0x02, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, // IP
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01,                         //
		0xc1, 0x32, 0x12, 0xb9, 0x00, 0x28, 0x00, 0x00,                         // UDP
		0x10, 0x01, 0x6a, 0x00, 0x00, 0x00, 0x03, 0xe8, 0x00, 0x00, 0x01, 0x23, // BTS
		0xc1, 0x32, 0x12, 0xb7, 0x04, 0x28, 0x00, 0x00,                         // UDP
		0x0a, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x34, 0x00, 0x00, 0x00, 0x07, // BTH
	};
	EXPECT_EQ(build_bts(spec_bts()), bts);
	EXPECT_EQ(bts.size(), kIpBytes + kUdpBytes + kBtsMinBytes);

	// for an INT-shimmed WRITE (flag I, the original dport 4792), from
	// the cache (H, not C), with its RETH: 16 more bytes, the lengths
	// grown by 16, the rest where it was
	Bts b = spec_bts();
	b.flags = kBtsCacheHit | kBtsInt;
	b.inner_dport = kIntPort;
	for (std::uint8_t i = 0; i < kBtsExtraBytes; i++)
		b.extra.push_back(static_cast<std::uint8_t>(0xa0 + i));
	auto want = bts;
	want[3] = 0x4c;  // IP length 76
	want[25] = 0x38; // UDP length 56
	want[29] = 0x0a; // H | I
	want[43] = 0xb8; // 4792
	want.insert(want.end(), b.extra.begin(), b.extra.end());
	EXPECT_EQ(build_bts(b), want);
}

// The defaults are a well-formed BTS but for the addresses, the ports, the
// QPN and the PSN; every field is where it belongs and cut to its width.
TEST(Roce, BtsFieldsAndDefaults)
{
	Bts b;
	EXPECT_EQ(b.dport, 4793);
	EXPECT_EQ(b.tos, 0xc0);      // DSCP 48, Not-ECT
	EXPECT_EQ(b.orig_tos, 0x6a); // DSCP 26, ECT(0)
	EXPECT_EQ(b.inner_dport, 4791);
	EXPECT_EQ(b.opcode, 0x0a);
	auto d = build_bts(b);
	ASSERT_EQ(d.size(), 60u);
	EXPECT_EQ(d[28], 0x10); // version 1, type 0 (PAUSE)
	EXPECT_EQ(d[29], 0x00);
	EXPECT_EQ(be16(d, 50), 0xffffu); // P_Key

	b.version = 0x1f;
	b.type = 0xf3;
	b.flags = 0xff;
	b.orig_tos = 0xab;
	b.reserved = 0xcd;
	b.pause_us = 0xfedcba98;
	b.qdepth = 0x89abcdef;
	b.inner_sport = 0x1234;
	b.inner_dport = 0x5678;
	b.inner_len = 0x9abc;
	b.inner_csum = 0xdef0;
	b.opcode = 0x81;
	b.bth_flags = 0x5a;
	b.pkey = 0x8001;
	b.fecn_becn = 0x60;
	b.dest_qp = 0xfff123;
	b.ackreq = 0x80;
	b.psn = 0xabcdef;
	d = build_bts(b);
	ASSERT_EQ(d.size(), 60u);
	EXPECT_EQ(std::vector<std::uint8_t>(d.begin() + 28, d.end()),
	          (std::vector<std::uint8_t>{0xf3, 0xff, 0xab, 0xcd, 0xfe, 0xdc, 0xba, 0x98,
	                                     0x89, 0xab, 0xcd, 0xef, 0x12, 0x34, 0x56, 0x78,
	                                     0x9a, 0xbc, 0xde, 0xf0, 0x81, 0x5a, 0x80, 0x01,
	                                     0x60, 0xff, 0xf1, 0x23, 0x80, 0xab, 0xcd, 0xef}));

	// too long for one datagram: nothing
	b.extra.assign(1500, 0);
	EXPECT_TRUE(build_bts(b).empty());
}

// truncate_udp() cuts a BTS like any datagram: the UDP payload's first
// bytes, the lengths rewritten
TEST(Roce, ATruncatedBtsKeepsItsFirstBytes)
{
	auto d = build_bts(spec_bts());
	for (std::size_t n : {0u, 1u, 11u, 12u, 31u}) {
		auto t = truncate_udp(d, n);
		ASSERT_EQ(t.size(), 28 + n);
		EXPECT_EQ(be16(t, 2), 28 + n);
		EXPECT_EQ(be16(t, 24), 8 + n);
		EXPECT_EQ(be16(t, 22), kBtsPort);
		EXPECT_TRUE(std::equal(t.begin() + 28, t.end(), d.begin() + 28)) << n;
	}
}

// ---- ACCurate FRPs (specs/accurate.md §3.2) ----

// The ACCETH as rxe_cc_frp_put() writes it: the fabric's vector
// (tests/fabric/accurate_test.cc AccEthLayout) and every field where it
// belongs, none cut
TEST(Roce, FrpBodyLayout)
{
	Frp f;
	f.type = kFrpStop;
	f.flags = kFrpCounted;
	f.sc_hop = 0x17;
	f.epoch = 0xbeef;
	f.cr_kbps = 9500000;
	f.dr_kbps = 10000000;
	f.src_qpn = 0x123456;
	EXPECT_EQ(frp_body(f),
	          (std::vector<std::uint8_t>{0x22, 0x17, 0xbe, 0xef, 0x00, 0x90, 0xf5, 0x60, 0x00,
	                                     0x98, 0x96, 0x80, 0x01, 0x12, 0x34, 0x56}));
	f.type = 0xf;
	f.flags = 0xf;
	f.sc_hop = 0xa5;
	f.epoch = 0x0102;
	f.cr_kbps = 0xfedcba98;
	f.dr_kbps = 0x76543210;
	f.version = 0xc3;
	f.src_qpn = 0xabcdef;
	EXPECT_EQ(frp_body(f),
	          (std::vector<std::uint8_t>{0xff, 0xa5, 0x01, 0x02, 0xfe, 0xdc, 0xba, 0x98, 0x76,
	                                     0x54, 0x32, 0x10, 0xc3, 0xab, 0xcd, 0xef}));
	// type and flags are 4 bits each, src_qpn 24
	f.type = 0x12;
	f.flags = 0x34;
	f.src_qpn = 0xff000001;
	auto b = frp_body(f);
	EXPECT_EQ(b[0], 0x24);
	EXPECT_EQ(b[12], 0xc3);
	EXPECT_EQ(b[15], 0x01);
	EXPECT_EQ(b[13], 0x00);
	// the defaults: a forward NORMAL, version 1, nothing else
	EXPECT_EQ(frp_body({}),
	          (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
	EXPECT_EQ(kOpFrp, 0xc0);
	EXPECT_EQ(kOpFrpResp, 0xc1);
	EXPECT_EQ(kFrpResp, 0x08);
	EXPECT_EQ(kFrpSc, 0x04);
	EXPECT_EQ(kFrpCounted, 0x02);
	EXPECT_EQ(kBthBytes + kFrpBodyBytes + kIcrcBytes, 32u);
}

namespace
{

// an FRP from 10.0.0.2 to QP 0x12 at 10.0.0.1, sport 0xC132, DSCP 48,
// Not-ECT, epoch (and PSN) 0x0102, CR 50000, DR 100000
Packet spec_frp(bool resp)
{
	Packet p;
	inet_pton(AF_INET, "10.0.0.2", &p.saddr);
	inet_pton(AF_INET, "10.0.0.1", &p.daddr);
	p.sport = 0xc132;
	p.ip_id = 2;
	p.tos = ds_field(kDscpCnp, kEcnNotEct);
	p.opcode = resp ? kOpFrpResp : kOpFrp;
	p.fecn_becn = 0;
	p.dest_qp = 0x12;
	p.psn = 0x0102;
	Frp f;
	f.flags = resp ? kFrpResp : 0;
	f.epoch = 0x0102;
	f.cr_kbps = 50000;
	f.dr_kbps = 100000;
	// a response carries the sender's QPN back to it, a forward FRP the
	// sender's QPN to its peer
	f.src_qpn = resp ? 0x12 : 0x11;
	p.body = frp_body(f);
	return p;
}

} // namespace

// A well-formed response and forward FRP, byte for byte: 32 bytes of UDP
// payload; the ICRCs computed apart from this code with zlib's crc32()
// over 8 x 0xFF and the masked headers (specs/accurate.md §3.2, the
// specs/wire.md §1.8 recipe that gives vector C1's), stored
// least-significant byte first as rxe stores it.
TEST(Roce, FrpResponseAndForwardBytes)
{
	const std::vector<std::uint8_t> resp = {
		0x45, 0xc0, 0x00, 0x3c, 0x00, 0x02, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0xc1, 0x32, 0x12, 0xb7,
		0x00, 0x28, 0x00, 0x00, 0xc1, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x01, 0x02, 0x08, 0x00, 0x01, 0x02, 0x00, 0x00, 0xc3, 0x50,
		0x00, 0x01, 0x86, 0xa0, 0x01, 0x00, 0x00, 0x12, 0x4c, 0x1c, 0xf9, 0xc6};
	const std::vector<std::uint8_t> fwd = {
		0x45, 0xc0, 0x00, 0x3c, 0x00, 0x02, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
		0x0a, 0x00, 0x00, 0x02, 0x0a, 0x00, 0x00, 0x01, 0xc1, 0x32, 0x12, 0xb7,
		0x00, 0x28, 0x00, 0x00, 0xc0, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0xc3, 0x50,
		0x00, 0x01, 0x86, 0xa0, 0x01, 0x00, 0x00, 0x11, 0xa4, 0x2f, 0x56, 0x2d};
	auto r = build(spec_frp(true));
	auto f = build(spec_frp(false));
	EXPECT_EQ(r, resp);
	EXPECT_EQ(f, fwd);
	// UDP length 8 + BTH 12 + ACCETH 16 + ICRC 4
	EXPECT_EQ(be16(r, 24), 8u + 32u);
	// the ICRC is the tool's CNP ICRC of the same headers
	EXPECT_EQ(stored_icrc(r), icrc(r));
	EXPECT_EQ(stored_icrc(f), icrc(f));
	// and that of a CNP built with the same fields: only the opcode, byte
	// 4 (masked) and the body differ, and they are set alike
	Packet cnp;
	inet_pton(AF_INET, "10.0.0.2", &cnp.saddr);
	inet_pton(AF_INET, "10.0.0.1", &cnp.daddr);
	cnp.sport = 0xc132;
	cnp.ip_id = 2;
	cnp.dest_qp = 0x12;
	cnp.psn = 0x0102;
	cnp.body.assign(kCnpBodyBytes, 0);
	auto c = build(cnp);
	ASSERT_EQ(c.size(), r.size());
	std::copy(r.begin() + 28, r.end() - 4, c.begin() + 28);
	c[1] = 0xc0; // the TOS and byte 4 are masked anyway
	EXPECT_EQ(icrc(c), stored_icrc(r));
	// the masked fields leave it as it is, the ACCETH does not
	for (std::size_t off : {1u, 8u, 10u, 11u, 26u, 27u, 32u}) {
		auto d = r;
		d[off] ^= 0x5a;
		EXPECT_EQ(icrc(d), stored_icrc(r)) << off;
	}
	for (std::size_t off = 40; off < 56; off++) {
		auto d = r;
		d[off] ^= 0x01;
		EXPECT_NE(icrc(d), stored_icrc(r)) << off;
	}
	auto bad = spec_frp(true);
	bad.icrc_valid = false;
	EXPECT_EQ(stored_icrc(build(bad)), stored_icrc(r) ^ 1U);
}
