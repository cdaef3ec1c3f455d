// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-inject's kinds: which there are, and the datagrams of the TCD echo
// kinds (specs/wire.md §7.4 (c)): an ACK's layout, the source, DestQP,
// PSN and ICRC each kind forges, and the mark in BTH byte 4.
#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <gtest/gtest.h>
#include <set>

#include "kinds.h"

using namespace rxecc::inject;

namespace
{

// the offsets in a datagram without a shim
constexpr std::size_t kSaddr = 12, kDaddr = 16, kDport = 22, kUdpLen = 24;
constexpr std::size_t kBth = kIpBytes + kUdpBytes;
constexpr std::size_t kAeth = kBth + kBthBytes;
constexpr std::size_t kAckBytes = kAeth + kAethBytes + kIcrcBytes; // 48

constexpr std::uint32_t kQpn = 0x000011;

std::uint32_t addr(const char *s)
{
	std::uint32_t a = 0;
	inet_pton(AF_INET, s, &a);
	return a;
}

Target target(std::uint32_t psn_base)
{
	Target t;
	t.peer = addr("10.0.0.2");
	t.spoof = addr("10.0.0.99");
	t.dst = addr("10.0.0.1");
	t.qpn = kQpn;
	t.psn_base = psn_base;
	return t;
}

std::uint32_t get32(const std::vector<std::uint8_t> &d, std::size_t off)
{
	std::uint32_t v = 0;
	std::memcpy(&v, d.data() + off, 4); // network order, as Target holds it
	return v;
}

unsigned be16(const std::vector<std::uint8_t> &d, std::size_t off)
{
	return static_cast<unsigned>(d[off] << 8 | d[off + 1]);
}

std::uint32_t be24(const std::vector<std::uint8_t> &d, std::size_t off)
{
	return static_cast<std::uint32_t>(d[off] << 16 | d[off + 1] << 8 | d[off + 2]);
}

std::uint32_t stored_icrc(const std::vector<std::uint8_t> &d)
{
	return d[d.size() - 4] | d[d.size() - 3] << 8 | d[d.size() - 2] << 16 |
	       static_cast<std::uint32_t>(d[d.size() - 1]) << 24;
}

// a - b as rxe compares PSNs (24 bits, signed)
std::int32_t psn_diff(std::uint32_t a, std::uint32_t b)
{
	std::uint32_t d = (a - b) & 0xffffff;
	return d & 0x800000 ? static_cast<std::int32_t>(d) - 0x1000000
	                    : static_cast<std::int32_t>(d);
}

// What the datagrams of one kind carried, over many.
struct Seen {
	std::set<unsigned> ce_cnts; // of the BECN marks
	unsigned ue = 0, becn = 0;
	std::set<std::uint32_t> psns, qpns, msns;
};

// Checks what every TCD kind's datagram has in common: an ACK (opcode
// 0x11, syndrome 0) of 48 bytes to UDP 4791 at --dst, P_Key 0xffff, TVer
// and resv7 0, and in byte 4 CAP with BECN and a CE_CNT of 1..15 or UE
// alone; records the rest in `seen`.
void check_tcd_ack(const std::vector<std::uint8_t> &d, const Target &t, Seen &seen)
{
	ASSERT_EQ(d.size(), kAckBytes);
	EXPECT_EQ(d[0], 0x45);
	EXPECT_EQ(be16(d, 2), kAckBytes); // IP total length
	EXPECT_EQ(d[9], 17);              // UDP
	EXPECT_EQ(get32(d, kDaddr), t.dst);
	EXPECT_EQ(be16(d, kDport), kRocePort);
	EXPECT_EQ(be16(d, kUdpLen), kAckBytes - kIpBytes);
	EXPECT_EQ(d[kBth], kOpAck);
	EXPECT_EQ(d[kBth + 1], 0);             // SE, M, pad, TVer
	EXPECT_EQ(be16(d, kBth + 2), 0xffffu); // P_Key
	EXPECT_EQ(d[kBth + 8], 0);             // AckReq, resv7
	EXPECT_EQ(d[kAeth], 0);                // syndrome: ACK
	std::uint8_t b4 = d[kBth + 4];
	EXPECT_EQ(b4 & kBthCap, kBthCap) << std::hex << unsigned{b4};
	EXPECT_EQ(b4 & 0x80, 0) << "FECN";
	unsigned ce_cnt = (b4 & kTcdCeCnt) >> kTcdCeCntShift;
	if (b4 & kTcdBecn) {
		EXPECT_EQ(b4 & kTcdUe, 0) << "BECN and UE";
		EXPECT_GE(ce_cnt, 1u);
		seen.becn++;
		seen.ce_cnts.insert(ce_cnt);
	} else {
		EXPECT_EQ(b4, kBthCap | kTcdUe) << "neither BECN nor UE alone";
		seen.ue++;
	}
	seen.psns.insert(be24(d, kBth + 9));
	seen.qpns.insert(be24(d, kBth + 5));
	seen.msns.insert(be24(d, kAeth + 1));
}

constexpr unsigned kN = 2000;

// `kN` datagrams of kind `k` for `t` from a fixed seed, each checked by
// check_tcd_ack() and then by `each`.
template <typename F>
Seen run(const std::string &k, const Target &t, F each)
{
	std::mt19937_64 rng(20261127);
	Seen seen;
	for (unsigned i = 0; i < kN; i++) {
		bool reach = true;
		auto d = make(k, rng, t, reach);
		EXPECT_FALSE(reach) << k; // not a CNP
		check_tcd_ack(d, t, seen);
		if (d.size() != kAckBytes)
			break;
		each(d);
	}
	return seen;
}

// the marks are drawn per packet: both UE and BECN, every CE_CNT
void expect_random_marks(const Seen &s, const std::string &k)
{
	EXPECT_GT(s.ue, kN / 3) << k;
	EXPECT_GT(s.becn, kN / 3) << k;
	std::set<unsigned> all;
	for (unsigned n = 1; n <= 15; n++)
		all.insert(n);
	EXPECT_EQ(s.ce_cnts, all) << k;
	EXPECT_GT(s.msns.size(), kN / 2) << k << ": the MSN is random";
}

// the PSN bases the tests run with: the window PSN wraps for 0
const std::uint32_t kBases[] = {0x000105, 0, 0xfffff0, 0x400000};

} // namespace

TEST(InjectKinds, TheTcdGroupIsTheFiveKindsAndNotTheControl)
{
	const std::vector<std::string> tcd = {"tcd_non_peer", "tcd_wrong_qpn", "tcd_bad_icrc",
	                                      "tcd_bad_psn", "tcd_old_psn"};
	EXPECT_EQ(kTcdKinds, tcd);
	EXPECT_EQ(expand_kinds({"tcd"}), tcd);
	// not in the default set, nor in "int"
	for (const auto &k : kKinds)
		EXPECT_NE(k.compare(0, 4, "tcd_"), 0) << k;
	for (const auto &k : expand_kinds({"int"}))
		EXPECT_NE(k.compare(0, 4, "tcd_"), 0) << k;
	// each once, in the order of first appearance; the control by name
	EXPECT_EQ(expand_kinds({"tcd_old_psn", "tcd", "tcd_valid", "tcd_bad_icrc"}),
	          (std::vector<std::string>{"tcd_old_psn", "tcd_non_peer", "tcd_wrong_qpn",
	                                    "tcd_bad_icrc", "tcd_bad_psn", "tcd_valid"}));
	auto mixed = expand_kinds({"int", "tcd", "ack_bad_psn"});
	EXPECT_EQ(mixed.size(), kIntKinds.size() + tcd.size() + 1);
	EXPECT_EQ(mixed.back(), "ack_bad_psn");
	// --kinds takes the kinds, the control and the group
	auto names = kind_names();
	for (const auto &k : tcd)
		EXPECT_NE(std::find(names.begin(), names.end(), k), names.end()) << k;
	EXPECT_NE(std::find(names.begin(), names.end(), "tcd_valid"), names.end());
	EXPECT_NE(std::find(names.begin(), names.end(), "tcd"), names.end());
	EXPECT_NE(std::find(names.begin(), names.end(), "int_valid"), names.end());
}

TEST(InjectKinds, TcdNonPeerComesFromTheSpoofedAddressInTheWindow)
{
	for (std::uint32_t base : kBases) {
		Target t = target(base);
		auto s = run("tcd_non_peer", t, [&](const std::vector<std::uint8_t> &d) {
			EXPECT_EQ(get32(d, kSaddr), t.spoof);
			EXPECT_EQ(stored_icrc(d), icrc(d));
		});
		EXPECT_EQ(s.psns, std::set<std::uint32_t>{(base - 1) & 0xffffff}) << base;
		EXPECT_EQ(s.qpns, std::set<std::uint32_t>{kQpn});
		expect_random_marks(s, "tcd_non_peer");
	}
}

TEST(InjectKinds, TcdWrongQpnGoesToAQpnThatDoesNotExist)
{
	Target t = target(0x105);
	auto s = run("tcd_wrong_qpn", t, [&](const std::vector<std::uint8_t> &d) {
		EXPECT_EQ(get32(d, kSaddr), t.peer);
		EXPECT_EQ(stored_icrc(d), icrc(d));
	});
	EXPECT_EQ(s.psns, std::set<std::uint32_t>{0x104});
	// above any QPN rxe hands out, never 0 (nor 0xffffff, multicast)
	EXPECT_GT(s.qpns.size(), kN / 2);
	EXPECT_GE(*s.qpns.begin(), 0x800000u);
	EXPECT_LT(*s.qpns.rbegin(), 0xffffffu);
	expect_random_marks(s, "tcd_wrong_qpn");
}

TEST(InjectKinds, TcdBadIcrcIsOffByOneBit)
{
	Target t = target(0x105);
	auto s = run("tcd_bad_icrc", t, [&](const std::vector<std::uint8_t> &d) {
		EXPECT_EQ(get32(d, kSaddr), t.peer);
		EXPECT_EQ(stored_icrc(d), icrc(d) ^ 1);
	});
	EXPECT_EQ(s.psns, std::set<std::uint32_t>{0x104});
	EXPECT_EQ(s.qpns, std::set<std::uint32_t>{kQpn});
	expect_random_marks(s, "tcd_bad_icrc");
}

// rxe's send window is the 256 PSNs before the next one to send
TEST(InjectKinds, TcdBadPsnIsFarAheadOfAnythingSent)
{
	for (std::uint32_t base : kBases) {
		Target t = target(base);
		std::int32_t lo = 0x7fffffff, hi = -0x7fffffff;
		auto s = run("tcd_bad_psn", t, [&](const std::vector<std::uint8_t> &d) {
			EXPECT_EQ(get32(d, kSaddr), t.peer);
			EXPECT_EQ(stored_icrc(d), icrc(d));
			std::int32_t diff = psn_diff(be24(d, kBth + 9), base);
			lo = std::min(lo, diff);
			hi = std::max(hi, diff);
		});
		EXPECT_GE(lo, 0x400000) << base;
		EXPECT_LE(hi, 0x7fffff) << base;
		// spread over the range
		EXPECT_LT(lo, 0x400000 + 0x10000) << base;
		EXPECT_GT(hi, 0x7fffff - 0x10000) << base;
		EXPECT_GT(s.psns.size(), kN / 2);
		EXPECT_EQ(s.qpns, std::set<std::uint32_t>{kQpn});
		expect_random_marks(s, "tcd_bad_psn");
	}
}

TEST(InjectKinds, TcdOldPsnIsFarBehindTheWindow)
{
	for (std::uint32_t base : kBases) {
		Target t = target(base);
		std::int32_t lo = 0x7fffffff, hi = -0x7fffffff;
		auto s = run("tcd_old_psn", t, [&](const std::vector<std::uint8_t> &d) {
			EXPECT_EQ(get32(d, kSaddr), t.peer);
			EXPECT_EQ(stored_icrc(d), icrc(d));
			std::int32_t diff = psn_diff(be24(d, kBth + 9), base);
			lo = std::min(lo, diff);
			hi = std::max(hi, diff);
		});
		EXPECT_GE(lo, -0x7fffff) << base;
		EXPECT_LE(hi, -0x400000) << base;
		EXPECT_LT(lo, -0x7fffff + 0x10000) << base;
		EXPECT_GT(hi, -0x400000 - 0x10000) << base;
		EXPECT_GT(s.psns.size(), kN / 2);
		EXPECT_EQ(s.qpns, std::set<std::uint32_t>{kQpn});
		expect_random_marks(s, "tcd_old_psn");
	}
}

TEST(InjectKinds, TcdValidIsAWellFormedAckWithBecnAndOneCe)
{
	for (std::uint32_t base : kBases) {
		Target t = target(base);
		auto s = run("tcd_valid", t, [&](const std::vector<std::uint8_t> &d) {
			EXPECT_EQ(get32(d, kSaddr), t.peer);
			EXPECT_EQ(stored_icrc(d), icrc(d));
			EXPECT_EQ(d[kBth + 4], 0x62); // CAP | BECN | CE_CNT 1
		});
		EXPECT_EQ(s.psns, std::set<std::uint32_t>{(base - 1) & 0xffffff}) << base;
		EXPECT_EQ(s.qpns, std::set<std::uint32_t>{kQpn});
		EXPECT_EQ(s.ue, 0u);
		EXPECT_EQ(s.ce_cnts, std::set<unsigned>{1});
	}
}

// BTH byte 4 is masked in the ICRC: the mark never changes it, so a
// mark-less ACK with the same ICRC is what the forged ones differ from.
TEST(InjectKinds, TheTcdMarksDoNotChangeTheIcrc)
{
	for (const char *k : {"tcd_non_peer", "tcd_wrong_qpn", "tcd_bad_icrc", "tcd_bad_psn",
	                      "tcd_old_psn", "tcd_valid"}) {
		std::mt19937_64 rng(7);
		for (unsigned i = 0; i < 64; i++) {
			bool reach = false;
			auto d = make(k, rng, target(0x105), reach);
			ASSERT_EQ(d.size(), kAckBytes);
			auto c = icrc(d);
			for (unsigned b4 : {0x00u, 0x20u, 0x40u, 0x7fu, 0xffu}) {
				auto e = d;
				e[kBth + 4] = static_cast<std::uint8_t>(b4);
				EXPECT_EQ(icrc(e), c) << k;
			}
			// the PSN is covered
			auto e = d;
			e[kBth + 11] ^= 0x01;
			EXPECT_NE(icrc(e), c) << k;
		}
	}
}

TEST(InjectKinds, ASeedSendsWhatItSentBefore)
{
	for (const char *k : {"tcd_non_peer", "tcd_bad_psn", "tcd_old_psn", "tcd_valid"}) {
		std::mt19937_64 a(99), b(99);
		bool reach = false;
		for (unsigned i = 0; i < 16; i++)
			EXPECT_EQ(make(k, a, target(0x105), reach),
			          make(k, b, target(0x105), reach))
				<< k;
	}
}
