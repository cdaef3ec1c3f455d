// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The frames of send-pfc against specs/wire.md §5.1 and Appendix A.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pfc_frame.h"
#include "send_pfc.h"

using namespace rxecc::fabric;
using namespace rxecc::fabric::proc;

namespace
{

const Mac kSrc = {0x02, 0x00, 0x00, 0x00, 0x00, 0xfe};

std::vector<uint8_t> hex(const std::string &s, size_t zero_pad)
{
	std::vector<uint8_t> v;
	for (size_t i = 0; i + 1 < s.size(); i += 2)
		v.push_back(static_cast<uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
	v.resize(v.size() + zero_pad, 0);
	return v;
}

} // namespace

// Vector P1: PFC XOFF, priority 3, 0xFFFF quanta.
TEST(PfcFrame, MatchesWireP1)
{
	auto want = hex("0180c20000010200000000fe880801010008000000000000ffff0000000000000000", 26);
	ASSERT_EQ(want.size(), 60u);
	EXPECT_EQ(make_pfc(kSrc, 0x08, 0xffff), want);
}

// Vector P2: 802.3x PAUSE, 0xFFFF quanta.
TEST(PfcFrame, MatchesWireP2)
{
	auto want = hex("0180c20000010200000000fe88080001ffff", 42);
	ASSERT_EQ(want.size(), 60u);
	EXPECT_EQ(make_legacy_pause(kSrc, 0xffff), want);
}

TEST(PfcFrame, SeveralPrioritiesAndXon)
{
	auto f = make_pfc(kSrc, 0x18, 0x1234);
	ASSERT_EQ(f.size(), 60u);
	EXPECT_EQ(f[16], 0x00);
	EXPECT_EQ(f[17], 0x18);
	for (size_t n = 0; n < 8; n++) {
		uint16_t t = static_cast<uint16_t>(f[18 + 2 * n] << 8 | f[19 + 2 * n]);
		EXPECT_EQ(t, n == 3 || n == 4 ? 0x1234 : 0) << n;
	}
	auto xon = make_pfc(kSrc, 0x08, 0);
	EXPECT_EQ(xon[17], 0x08);
	EXPECT_EQ(xon[24], 0);
	EXPECT_EQ(xon[25], 0);
}

TEST(SendPfcOptions, DefaultsAreXoffPrio3Forever)
{
	SendPfcOptions o;
	std::string err;
	ASSERT_TRUE(parse_send_pfc({"veth0"}, o, err)) << err;
	EXPECT_EQ(o.ifname, "veth0");
	EXPECT_EQ(o.prio_mask, 0x08);
	EXPECT_EQ(o.quanta, 0xffff);
	EXPECT_EQ(o.count, 1u);
	EXPECT_EQ(o.interval_ns, 0u);
	EXPECT_FALSE(o.legacy);
	EXPECT_FALSE(o.src);
	EXPECT_EQ(send_pfc_frame(o, kSrc), make_pfc(kSrc, 0x08, 0xffff));
}

TEST(SendPfcOptions, AllOptions)
{
	SendPfcOptions o;
	std::string err;
	ASSERT_TRUE(parse_send_pfc({"--prio", "*", "--quanta=0", "eth1", "--src",
	                            "02:00:00:00:00:fe", "--count", "5", "--interval", "200ms"},
	                           o, err))
		<< err;
	EXPECT_EQ(o.prio_mask, 0xff);
	EXPECT_EQ(o.quanta, 0);
	EXPECT_EQ(o.count, 5u);
	EXPECT_EQ(o.interval_ns, 200000000u);
	ASSERT_TRUE(o.src);
	EXPECT_EQ(*o.src, kSrc);
	ASSERT_TRUE(parse_send_pfc({"eth1", "--interval", "0.25s"}, o, err)) << err;
	EXPECT_EQ(o.interval_ns, 250000000u);
	ASSERT_TRUE(parse_send_pfc({"eth1", "--legacy", "--quanta", "65535"}, o, err)) << err;
	EXPECT_EQ(send_pfc_frame(o, kSrc), make_legacy_pause(kSrc, 0xffff));
}

TEST(SendPfcOptions, RejectsBadInput)
{
	const std::vector<std::vector<std::string>> bad = {
		{},
		{"--prio", "3"},
		{"eth0", "eth1"},
		{"eth0", "--prio", "9"},
		{"eth0", "--prio"},
		{"eth0", "--quanta", "65536"},
		{"eth0", "--quanta", "-1"},
		{"eth0", "--count", "0"},
		{"eth0", "--count", "1000001"},
		{"eth0", "--interval"},
		{"eth0", "--interval", "0"},
		{"eth0", "--interval", "61s"},
		{"eth0", "--interval", "fast"},
		{"eth0", "--src", "02:00:00:00:00"},
		{"eth0", "--legacy", "--prio", "3"},
		{"eth0", "--legacy=1"},
		{"eth0", "--bogus"},
		{"this-name-is-too-long"},
		{"a/b"},
	};
	for (const auto &args : bad) {
		SendPfcOptions o;
		std::string err;
		EXPECT_FALSE(parse_send_pfc(args, o, err)) << testing::PrintToString(args);
		EXPECT_NE(err.find("send-pfc: "), std::string::npos) << err;
	}
	SendPfcOptions o;
	std::string err;
	EXPECT_FALSE(parse_send_pfc({"eth0", "--interval", "fast"}, o, err));
	EXPECT_EQ(err,
	          "send-pfc: bad --interval: 'fast' is not a time (examples: 300us, 1.5ms, 2s)");
}
