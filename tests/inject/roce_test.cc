// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-inject's packet builder: the CRC, the layout and the ICRC's masks.
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
