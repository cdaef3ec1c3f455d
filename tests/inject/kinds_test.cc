// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-inject's kinds: which there are, and the datagrams of the TCD echo
// kinds (specs/wire.md §7.4 (c)): an ACK's layout, the source, DestQP,
// PSN and ICRC each kind forges, and the mark in BTH byte 4; and of the PCN
// kinds (§7.4 (b), (d), (e), (e′)): opcode, BECN, DSCP and ECN, the payload
// and what each kind forges in it, the sequence of a run, the ICRC; and of
// the BTS kinds (specs/sfc.md §3.3-§3.4, specs/wire.md §7.4 (a), (f)): that
// each breaks the one property it names, and which of the host's counters a
// model of the kernel's rules puts it in.
#include <algorithm>
#include <arpa/inet.h>
#include <cstring>
#include <gtest/gtest.h>
#include <set>
#include <tuple>

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
	RunState st;
	Seen seen;
	for (unsigned i = 0; i < kN; i++) {
		bool reach = true;
		auto d = make(k, rng, t, st, reach);
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
		RunState st;
		for (unsigned i = 0; i < 64; i++) {
			bool reach = false;
			auto d = make(k, rng, target(0x105), st, reach);
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
		RunState ra, rb;
		bool reach = false;
		for (unsigned i = 0; i < 16; i++)
			EXPECT_EQ(make(k, a, target(0x105), ra, reach),
			          make(k, b, target(0x105), rb, reach))
				<< k;
	}
}

// make()'s `reach`: rxe counts a packet as a CNP when it has opcode 0x81
// and at least a BTH after UDP, in the CNP handler or, when it is too
// short for BTH + 16 + ICRC (and the pad its BTH claims), in rxe_rcv's drop
// path. So every cnp_* kind is counted, cnp_truncated and cnp_garbage too,
// and no ACK, NAK, INT or TCD kind; `reach` starts as the opposite of what
// it must become.
TEST(InjectKinds, EveryCnpKindIsCountedAsACnpAndNoOtherKind)
{
	std::vector<std::string> ks = kKinds;
	ks.insert(ks.end(), kIntKinds.begin(), kIntKinds.end());
	ks.insert(ks.end(), kTcdKinds.begin(), kTcdKinds.end());
	for (const char *k : {"cnp_valid", "ack_psn", "int_valid", "tcd_valid"})
		ks.push_back(k);
	Target t = target(0x105);
	unsigned cnp_kinds = 0;
	for (const auto &k : ks) {
		bool cnp = k.compare(0, 4, "cnp_") == 0;
		cnp_kinds += cnp;
		std::mt19937_64 rng(20261211);
		RunState st;
		// the bytes after UDP, shortest and longest
		std::size_t lo = SIZE_MAX, hi = 0;
		for (unsigned i = 0; i < kN; i++) {
			bool reach = !cnp;
			auto d = make(k, rng, t, st, reach);
			EXPECT_EQ(reach, cnp) << k;
			ASSERT_GE(d.size(), kBth) << k;
			std::size_t udp = d.size() - kBth;
			lo = std::min(lo, udp);
			hi = std::max(hi, udp);
			if (cnp) {
				// a whole BTH and the ICRC, and the opcode of a CNP
				ASSERT_GE(udp, kBthBytes + kIcrcBytes) << k;
				EXPECT_EQ(d[kBth], kOpCnp) << k;
				EXPECT_EQ(be16(d, kDport), kRocePort) << k;
			} else if (k.compare(0, 4, "int_") == 0) {
				// to the INT port; rxe drops one too short for the
				// shim and a BTH, and takes the BTH after the shim
				EXPECT_EQ(be16(d, kDport), t.int_port) << k;
				if (udp >= kIntShimBytes + kBthBytes) {
					EXPECT_EQ(d[kBth + kIntShimBytes], kOpAck) << k;
				}
			} else {
				EXPECT_EQ(be16(d, kDport), kRocePort) << k;
				EXPECT_EQ(d[kBth], kOpAck) << k;
			}
		}
		if (k == "cnp_truncated") {
			// every length from a bare BTH and ICRC to one byte short
			// of the body, all dropped by rxe_rcv
			EXPECT_EQ(lo, kBthBytes + kIcrcBytes);
			EXPECT_EQ(hi, kBthBytes + kCnpBodyBytes - 1 + kIcrcBytes);
		} else if (k == "cnp_garbage") {
			// 0..47 body bytes: both lengths rxe_rcv drops and ones
			// that reach the handler
			EXPECT_EQ(lo, kBthBytes + kIcrcBytes);
			EXPECT_EQ(hi, kBthBytes + 47 + kIcrcBytes);
		}
	}
	EXPECT_EQ(cnp_kinds, 7u) << "the six cnp_* kinds and cnp_valid";
}

// ---- PCN (specs/wire.md §7.4 (b), (d), (e), (e′); specs/pcn.md §3.2) ----

namespace
{

// a PCN CNP or rate report with its 16 bytes: 60 bytes
constexpr std::size_t kPcnBytes = kBth + kBthBytes + kCnpBodyBytes + kIcrcBytes;
constexpr std::size_t kPcnBody = kBth + kBthBytes;

std::uint32_t be32(const std::vector<std::uint8_t> &d, std::size_t off)
{
	return static_cast<std::uint32_t>(d[off]) << 24 | be24(d, off + 1);
}

Target pcn_target(std::uint32_t seq)
{
	Target t = target(0x105);
	t.pcn_rate = 37;
	t.pcn_line = 100;
	t.pcn_seq = seq;
	return t;
}

// the 16 bytes written out by hand: RecRate BE, 'P' 'C', flags, version,
// sequence BE, 4 zero bytes
std::vector<std::uint8_t> payload(std::uint32_t rate, std::uint8_t flags, std::uint8_t version,
                                  std::uint32_t seq)
{
	return {static_cast<std::uint8_t>(rate >> 24),
	        static_cast<std::uint8_t>(rate >> 16),
	        static_cast<std::uint8_t>(rate >> 8),
	        static_cast<std::uint8_t>(rate),
	        0x50,
	        0x43,
	        flags,
	        version,
	        static_cast<std::uint8_t>(seq >> 24),
	        static_cast<std::uint8_t>(seq >> 16),
	        static_cast<std::uint8_t>(seq >> 8),
	        static_cast<std::uint8_t>(seq),
	        0,
	        0,
	        0,
	        0};
}

// One PCN datagram taken apart.
struct PcnPkt {
	std::vector<std::uint8_t> d;
	bool reach = false;
	bool dec = false; // opcode 0x81 (else 0xC2)
	std::uint32_t saddr = 0, qpn = 0, rate = 0, seq = 0;
	std::uint8_t flags = 0, version = 0;
	std::size_t body = 0; // payload bytes
	bool icrc_ok = false, icrc_off_by_one = false;
};

// What every PCN datagram has, whatever its kind: IPv4 to --dst, the IP
// and UDP lengths of what is there, UDP 4791, DSCP 48, opcode 0x81 with
// BECN and IP ECN CE or 0xC2 with neither BECN nor ECN (Not-ECT), SE, M,
// pad, TVer 0, P_Key 0xffff, AckReq 0, PSN 0, at most 16 payload bytes, the
// magic if the payload has it, and zero bytes 12..15; the ICRC is checked
// by the caller.
PcnPkt take_pcn(std::vector<std::uint8_t> d, bool reach, const Target &t)
{
	PcnPkt p;
	p.reach = reach;
	EXPECT_GE(d.size(), kPcnBody + kIcrcBytes);
	EXPECT_LE(d.size(), kPcnBytes);
	if (d.size() < kPcnBody + kIcrcBytes || d.size() > kPcnBytes) {
		p.d = d;
		return p;
	}
	EXPECT_EQ(d[0], 0x45);
	EXPECT_EQ(be16(d, 2), d.size());
	EXPECT_EQ(d[9], 17);
	EXPECT_EQ(get32(d, kDaddr), t.dst);
	EXPECT_EQ(be16(d, kDport), kRocePort);
	EXPECT_EQ(be16(d, kUdpLen), d.size() - kIpBytes);
	std::uint8_t op = d[kBth];
	EXPECT_TRUE(op == 0x81 || op == 0xC2) << std::hex << unsigned{op};
	p.dec = op == 0x81;
	EXPECT_EQ(d[1] >> 2, 48) << "DSCP";
	EXPECT_EQ(d[1] & 3, p.dec ? 3 : 0) << "ECN: CE for a decrease, Not-ECT for an increase";
	EXPECT_EQ(d[kBth + 4], p.dec ? 0x40 : 0x00) << "BECN";
	EXPECT_EQ(d[kBth + 1], 0);
	EXPECT_EQ(be16(d, kBth + 2), 0xffffu);
	EXPECT_EQ(d[kBth + 8], 0);
	EXPECT_EQ(be24(d, kBth + 9), 0u) << "PSN";
	p.saddr = get32(d, kSaddr);
	p.qpn = be24(d, kBth + 5);
	p.body = d.size() - kPcnBody - kIcrcBytes;
	if (p.body == kCnpBodyBytes) {
		p.rate = be32(d, kPcnBody);
		EXPECT_EQ(be16(d, kPcnBody + 4), 0x5043u) << "magic";
		p.flags = d[kPcnBody + 6];
		p.version = d[kPcnBody + 7];
		p.seq = be32(d, kPcnBody + 8);
		EXPECT_EQ(be32(d, kPcnBody + 12), 0u);
		EXPECT_EQ(p.flags & ~3U, 0u) << "undefined flags";
	}
	p.icrc_ok = stored_icrc(d) == icrc(d);
	p.icrc_off_by_one = stored_icrc(d) == (icrc(d) ^ 1);
	p.d = std::move(d);
	return p;
}

// `n` datagrams of kind `k` for `t`, one run from a fixed seed.
std::vector<PcnPkt> pcn_run(const std::string &k, const Target &t, unsigned n = kN)
{
	std::mt19937_64 rng(20261205);
	RunState st;
	st.pcn_seq = t.pcn_seq;
	std::vector<PcnPkt> out;
	for (unsigned i = 0; i < n; i++) {
		bool reach = false;
		auto d = make(k, rng, t, st, reach);
		out.push_back(take_pcn(std::move(d), reach, t));
	}
	return out;
}

// checks that the packets are well-formed but for what `except` names,
// and counts the decreases among them
struct Expect {
	bool peer = true, qpn = true, icrc = true, rate = true, flags = true, version = true,
	     seq = true, reach = true;
};

unsigned expect_pcn(const std::vector<PcnPkt> &ps, const Target &t, const Expect &e,
                    const std::string &k)
{
	unsigned decs = 0;
	std::uint32_t seq = t.pcn_seq;
	for (const auto &p : ps) {
		decs += p.dec;
		if (e.reach) {
			EXPECT_TRUE(p.reach) << k;
		}
		if (e.peer) {
			EXPECT_EQ(p.saddr, t.peer) << k;
		}
		if (e.qpn) {
			EXPECT_EQ(p.qpn, kQpn) << k;
		}
		if (e.icrc) {
			EXPECT_TRUE(p.icrc_ok) << k;
		}
		if (p.body != kCnpBodyBytes)
			continue;
		if (e.rate) {
			EXPECT_EQ(p.rate, t.pcn_rate) << k;
		}
		if (e.flags) {
			EXPECT_EQ(p.flags, p.dec ? 0x03 : 0x02) << k;
		}
		if (e.version) {
			EXPECT_EQ(p.version, 1) << k;
		}
		if (e.seq) {
			EXPECT_EQ(p.seq, seq++) << k << ": the run's sequence counts up";
		}
	}
	return decs;
}

// the sequence numbers the runs start from: the counter wraps for the last
const std::uint32_t kSeqs[] = {0, 1000, 0x80000000U, 0xffffffffU - kN / 2};

} // namespace

TEST(InjectKinds, ThePcnGroupIsTheTenKindsAndNotTheControl)
{
	const std::vector<std::string> pcn = {
		"pcn_non_peer",    "pcn_truncated", "pcn_bad_icrc", "pcn_unknown_qp",
		"pcn_rate_zero",   "pcn_rate_high", "pcn_old_seq",  "pcn_flag_mismatch",
		"pcn_bad_version", "pcn_no_rate"};
	EXPECT_EQ(kPcnKinds, pcn);
	EXPECT_EQ(expand_kinds({"pcn"}), pcn);
	// not in the default set, nor in "int" or "tcd"
	for (const auto &k : kKinds)
		EXPECT_NE(k.compare(0, 4, "pcn_"), 0) << k;
	for (const auto &k : expand_kinds({"int", "tcd"}))
		EXPECT_NE(k.compare(0, 4, "pcn_"), 0) << k;
	EXPECT_EQ(expand_kinds({"pcn_no_rate", "pcn", "pcn_valid", "tcd_valid"}),
	          (std::vector<std::string>{"pcn_no_rate", "pcn_non_peer", "pcn_truncated",
	                                    "pcn_bad_icrc", "pcn_unknown_qp", "pcn_rate_zero",
	                                    "pcn_rate_high", "pcn_old_seq", "pcn_flag_mismatch",
	                                    "pcn_bad_version", "pcn_valid", "tcd_valid"}));
	auto names = kind_names();
	for (const auto &k : pcn)
		EXPECT_EQ(std::count(names.begin(), names.end(), k), 1) << k;
	EXPECT_EQ(std::count(names.begin(), names.end(), "pcn_valid"), 1);
	EXPECT_EQ(std::count(names.begin(), names.end(), "pcn"), 1);
}

// The control, byte for byte after the BTH: a decrease from the peer with
// --pcn-rate, DEC | RATE_VALID, version 1 and a sequence counting up from
// --pcn-seq (modulo 2^32).
TEST(InjectKinds, PcnValidIsAWellFormedDecreaseWithARisingSequence)
{
	for (std::uint32_t seq0 : kSeqs) {
		Target t = pcn_target(seq0);
		auto ps = pcn_run("pcn_valid", t);
		EXPECT_EQ(expect_pcn(ps, t, {}, "pcn_valid"), kN);
		std::uint32_t seq = seq0;
		for (const auto &p : ps) {
			ASSERT_EQ(p.d.size(), kPcnBytes);
			EXPECT_TRUE(p.dec);
			EXPECT_EQ(std::vector<std::uint8_t>(p.d.begin() + kPcnBody, p.d.end() - 4),
			          payload(37, 0x03, 1, seq));
			seq++;
		}
		// it wrapped where it had to
		EXPECT_EQ(ps.back().seq, static_cast<std::uint32_t>(seq0 + kN - 1));
	}
}

// With --pcn-inc the control is a well-formed rate report 0xC2: DEC clear,
// RATE_VALID, Not-ECT, no BECN; the other kinds keep their opcodes.
TEST(InjectKinds, PcnValidWithPcnIncIsAWellFormedRateReport)
{
	Target t = pcn_target(7);
	t.pcn_inc = true;
	auto ps = pcn_run("pcn_valid", t);
	EXPECT_EQ(expect_pcn(ps, t, {}, "pcn_valid"), 0u);
	std::uint32_t seq = 7;
	for (const auto &p : ps) {
		ASSERT_EQ(p.d.size(), kPcnBytes);
		EXPECT_FALSE(p.dec); // take_pcn checked 0xC2's ECN and BECN
		EXPECT_EQ(std::vector<std::uint8_t>(p.d.begin() + kPcnBody, p.d.end() - 4),
		          payload(37, 0x02, 1, seq++));
	}
	auto rs = pcn_run("pcn_rate_zero", t);
	EXPECT_EQ(expect_pcn(rs, t, {true, true, true, false}, "pcn_rate_zero"), kN);
}

TEST(InjectKinds, PcnNonPeerIsAWellFormedDecreaseFromTheSpoofedAddress)
{
	Target t = pcn_target(77);
	Expect e;
	e.peer = false;
	auto ps = pcn_run("pcn_non_peer", t);
	EXPECT_EQ(expect_pcn(ps, t, e, "pcn_non_peer"), kN);
	for (const auto &p : ps) {
		EXPECT_EQ(p.saddr, t.spoof);
		EXPECT_EQ(p.d.size(), kPcnBytes);
	}
}

// 0..15 payload bytes, a prefix of a well-formed payload of its opcode,
// the ICRC over what is there: rxe_rcv drops it (shorter than BTH + 16 of
// either opcode) and, since it has a whole BTH, counts it by its opcode
// (pcn_run() starts each packet's `reach` false: make() must set it)
TEST(InjectKinds, PcnTruncatedIsShorterThanItsOpcodesHeaders)
{
	Target t = pcn_target(500);
	Expect e;
	auto ps = pcn_run("pcn_truncated", t);
	unsigned decs = expect_pcn(ps, t, e, "pcn_truncated");
	EXPECT_GT(decs, kN / 3);
	EXPECT_LT(decs, kN - kN / 3);
	std::set<std::size_t> lens;
	std::uint32_t seq = t.pcn_seq;
	for (const auto &p : ps) {
		EXPECT_TRUE(p.reach);
		EXPECT_LT(p.body, kCnpBodyBytes);
		lens.insert(p.body);
		auto want = payload(37, p.dec ? 0x03 : 0x02, 1, seq++);
		want.resize(p.body);
		EXPECT_EQ(std::vector<std::uint8_t>(p.d.begin() + kPcnBody, p.d.end() - 4), want);
		// below rxe's length for the opcode: BTH 12 + 16 + ICRC 4; but a
		// whole BTH, which rxe_rcv's drop path needs to count it
		EXPECT_LT(p.d.size() - kIpBytes - kUdpBytes, kBthBytes + 16 + 4);
		EXPECT_GE(p.d.size() - kIpBytes - kUdpBytes, kBthBytes + kIcrcBytes);
	}
	EXPECT_EQ(lens.size(), kCnpBodyBytes) << "every length 0..15";
}

TEST(InjectKinds, PcnBadIcrcIsWellFormedButForTheIcrc)
{
	Target t = pcn_target(9);
	Expect e;
	e.icrc = false;
	auto ps = pcn_run("pcn_bad_icrc", t);
	unsigned decs = expect_pcn(ps, t, e, "pcn_bad_icrc");
	EXPECT_GT(decs, kN / 3);
	EXPECT_LT(decs, kN - kN / 3);
	for (const auto &p : ps) {
		EXPECT_FALSE(p.icrc_ok);
		EXPECT_TRUE(p.icrc_off_by_one);
	}
}

TEST(InjectKinds, PcnUnknownQpGoesToAQpnThatIsNotTheTarget)
{
	for (std::uint32_t qpn : {kQpn, 0x7fffffU, 0x012345U}) {
		Target t = pcn_target(3);
		t.qpn = qpn;
		Expect e;
		e.qpn = false;
		auto ps = pcn_run("pcn_unknown_qp", t);
		unsigned decs = expect_pcn(ps, t, e, "pcn_unknown_qp");
		EXPECT_GT(decs, kN / 3);
		EXPECT_LT(decs, kN - kN / 3);
		std::set<std::uint32_t> qpns;
		unsigned flipped = 0;
		for (const auto &p : ps) {
			EXPECT_NE(p.qpn, qpn);
			// none rxe hands out, not the multicast QPN
			EXPECT_GE(p.qpn, 0x800000u);
			EXPECT_LT(p.qpn, 0xffffffu);
			flipped += p.qpn == (qpn ^ 0x800000U);
			qpns.insert(p.qpn);
		}
		EXPECT_GT(qpns.size(), kN / 3) << qpn;
		if (qpn == 0x7fffff) {
			EXPECT_EQ(flipped, 0u) << "0xffffff is multicast";
		} else {
			EXPECT_GT(flipped, kN / 3) << qpn;
		}
	}
}

TEST(InjectKinds, PcnRateZeroIsADecreaseWithAValidRateOfZero)
{
	Target t = pcn_target(12);
	Expect e;
	e.rate = false;
	auto ps = pcn_run("pcn_rate_zero", t);
	EXPECT_EQ(expect_pcn(ps, t, e, "pcn_rate_zero"), kN);
	for (const auto &p : ps) {
		EXPECT_EQ(p.rate, 0u);
		EXPECT_EQ(p.flags, 0x03); // DEC | RATE_VALID
	}
}

TEST(InjectKinds, PcnRateHighIsADecreaseAboveTheLineRate)
{
	for (std::uint32_t line : {100U, 1U, 40000U, 0x7fffffffU, 0xfffffffeU}) {
		Target t = pcn_target(12);
		t.pcn_line = line;
		t.pcn_rate = 1;
		Expect e;
		e.rate = false;
		auto ps = pcn_run("pcn_rate_high", t);
		EXPECT_EQ(expect_pcn(ps, t, e, "pcn_rate_high"), kN);
		std::set<std::uint32_t> rates;
		unsigned near = 0;
		for (const auto &p : ps) {
			EXPECT_GT(p.rate, line);
			EXPECT_EQ(p.flags, 0x03);
			rates.insert(p.rate);
			near += std::uint64_t{p.rate} <= 2 * std::uint64_t{line};
		}
		// just above, the largest, and both near the line and far from it
		EXPECT_EQ(rates.count(line + 1), 1u) << line;
		EXPECT_EQ(rates.count(0xffffffffU), 1u) << line;
		if (line == 100) {
			EXPECT_GT(near, kN / 3);
			EXPECT_GT(rates.size(), kN / 4); // 101..200 and the rest
			EXPECT_GT(kN - near, kN / 4);
		}
	}
}

// behind --pcn-seq by 1..2^30 (mod 2^32), the bounds included, spread
// over the range; and the run's counter is left alone
TEST(InjectKinds, PcnOldSeqIsBehindTheFirstSequence)
{
	for (std::uint32_t seq0 : kSeqs) {
		Target t = pcn_target(seq0);
		Expect e;
		e.seq = false;
		auto ps = pcn_run("pcn_old_seq", t);
		EXPECT_EQ(expect_pcn(ps, t, e, "pcn_old_seq"), kN);
		std::uint32_t lo = 0xffffffffU, hi = 0;
		std::set<std::uint32_t> seqs;
		for (const auto &p : ps) {
			std::uint32_t behind = seq0 - p.seq;
			lo = std::min(lo, behind);
			hi = std::max(hi, behind);
			seqs.insert(p.seq);
		}
		// just behind and the furthest, and spread between
		EXPECT_EQ(lo, 1u) << seq0;
		EXPECT_EQ(hi, 1U << 30) << seq0;
		EXPECT_GT(seqs.size(), kN / 3);
		unsigned low_half = 0;
		for (std::uint32_t s : seqs)
			low_half += seq0 - s <= 1U << 29;
		EXPECT_GT(low_half, seqs.size() / 4) << seq0;
		EXPECT_LT(low_half, seqs.size() - seqs.size() / 4) << seq0;

		std::mt19937_64 rng(1);
		RunState st;
		st.pcn_seq = seq0 + 5;
		bool reach = false;
		make("pcn_old_seq", rng, t, st, reach);
		EXPECT_EQ(st.pcn_seq, seq0 + 5);
		auto d = make("pcn_valid", rng, t, st, reach);
		auto v = take_pcn(std::move(d), reach, t);
		EXPECT_EQ(v.seq, seq0 + 5);
		EXPECT_EQ(st.pcn_seq, seq0 + 6);
	}
}

// DEC must equal opcode == 0x81: 0x81 without it, or 0xC2 with it; the
// IP ECN and BECN still those of the opcode
TEST(InjectKinds, PcnFlagMismatchHasTheOtherOpcodesDec)
{
	Target t = pcn_target(40);
	Expect e;
	e.flags = false;
	auto ps = pcn_run("pcn_flag_mismatch", t);
	unsigned decs = expect_pcn(ps, t, e, "pcn_flag_mismatch");
	EXPECT_GT(decs, kN / 3);
	EXPECT_LT(decs, kN - kN / 3);
	for (const auto &p : ps)
		EXPECT_EQ(p.flags, p.dec ? 0x02 : 0x03);
}

TEST(InjectKinds, PcnBadVersionIsAnyVersionButOne)
{
	Target t = pcn_target(40);
	Expect e;
	e.version = false;
	auto ps = pcn_run("pcn_bad_version", t);
	unsigned decs = expect_pcn(ps, t, e, "pcn_bad_version");
	EXPECT_GT(decs, kN / 3);
	EXPECT_LT(decs, kN - kN / 3);
	std::set<unsigned> versions;
	for (const auto &p : ps) {
		EXPECT_NE(p.version, 1);
		versions.insert(p.version);
	}
	EXPECT_EQ(versions.size(), 255u) << "0 and 2..255";
}

TEST(InjectKinds, PcnNoRateIsADecreaseWithoutRateValid)
{
	Target t = pcn_target(40);
	Expect e;
	e.flags = false;
	auto ps = pcn_run("pcn_no_rate", t);
	EXPECT_EQ(expect_pcn(ps, t, e, "pcn_no_rate"), kN);
	for (const auto &p : ps)
		EXPECT_EQ(p.flags, 0x01); // DEC alone
}

// One run through the whole group, as --kinds pcn sends it: the counter
// goes on from kind to kind (pcn_old_seq takes none), rxe counts every
// kind (pcn_truncated where rxe_rcv drops it, the others in the handler),
// and only pcn_bad_icrc's ICRC is off.
TEST(InjectKinds, ThePcnKindsShareTheRunsSequence)
{
	Target t = pcn_target(0xfffffff0U);
	std::mt19937_64 rng(5);
	RunState st;
	st.pcn_seq = t.pcn_seq;
	std::uint32_t seq = t.pcn_seq;
	for (const auto &k : expand_kinds({"pcn"})) {
		for (unsigned i = 0; i < 8; i++) {
			bool reach = false; // make() must set it
			auto d = make(k, rng, t, st, reach);
			auto p = take_pcn(std::move(d), reach, t);
			EXPECT_TRUE(p.reach) << k;
			EXPECT_EQ(p.icrc_ok, k != "pcn_bad_icrc") << k;
			if (k == "pcn_old_seq")
				continue;
			if (p.body >= 12) {
				EXPECT_EQ(be32(p.d, kPcnBody + 8), seq) << k;
			}
			seq++;
		}
	}
	EXPECT_EQ(st.pcn_seq, seq);
	EXPECT_EQ(seq, t.pcn_seq + 8 * 9);
}

// The ICRC covers the payload: a change to any of its bytes shows, a
// change of the DS field (DSCP, ECN) or of BECN does not.
TEST(InjectKinds, ThePcnPayloadIsInTheIcrc)
{
	Target t = pcn_target(1);
	for (const char *k : {"pcn_valid", "pcn_flag_mismatch", "pcn_rate_high"}) {
		std::mt19937_64 rng(3);
		RunState st;
		for (unsigned i = 0; i < 16; i++) {
			bool reach = false;
			auto d = make(k, rng, t, st, reach);
			ASSERT_EQ(d.size(), kPcnBytes);
			auto c = icrc(d);
			for (std::size_t off = kPcnBody; off < kPcnBody + kCnpBodyBytes; off++) {
				auto e = d;
				e[off] ^= 0x01;
				EXPECT_NE(icrc(e), c) << k << " " << off;
			}
			auto e = d;
			e[1] ^= 0x03;         // ECN
			e[kBth + 4] ^= kBecn; // BECN
			EXPECT_EQ(icrc(e), c) << k;
		}
	}
}

TEST(InjectKinds, ASeedSendsThePcnPacketsItSentBefore)
{
	for (const auto &k : expand_kinds({"pcn", "pcn_valid"})) {
		std::mt19937_64 a(99), b(99);
		RunState ra, rb;
		ra.pcn_seq = rb.pcn_seq = 1234;
		bool reach = false;
		for (unsigned i = 0; i < 16; i++)
			EXPECT_EQ(make(k, a, pcn_target(1234), ra, reach),
			          make(k, b, pcn_target(1234), rb, reach))
				<< k;
	}
}

// ---- SFC BTS (specs/sfc.md §3.3-§3.4, specs/wire.md §7.4 (a), (f)) ----

namespace
{

constexpr std::uint32_t kPeerQpn = 0x000034;
constexpr std::uint16_t kSport = 0xc132;
// offsets in a BTS datagram
constexpr std::size_t kBtsHdr = kIpBytes + kUdpBytes;
constexpr std::size_t kInnerUdp = kBtsHdr + kBtsHdrBytes;
constexpr std::size_t kInnerBth = kInnerUdp + kUdpBytes;

Target bts_target()
{
	Target t = target(0x105);
	t.peer_qpn = kPeerQpn;
	t.sport = kSport;
	t.bts_pause_us = 1234;
	return t;
}

// the kernel's data opcodes: RC requests that carry data
bool data_opcode(unsigned op)
{
	return op <= 0x0C || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
}

// One BTS datagram taken apart; the fields of a part that is not there
// (truncated) are left 0.
struct BtsPkt {
	std::vector<std::uint8_t> d;
	bool reach = true;
	std::size_t payload = 0; // UDP payload bytes
	std::uint32_t saddr = 0;
	unsigned sport = 0;
	unsigned version = 0, type = 0, flags = 0, orig_tos = 0, reserved = 0;
	std::uint32_t pause = 0, qdepth = 0;
	unsigned inner_sport = 0, inner_dport = 0, inner_len = 0, inner_csum = 0;
	unsigned opcode = 0;
	std::uint32_t qpn = 0, psn = 0;
};

// What every BTS datagram has, whatever its kind: IPv4 (DF, TTL 64, UDP,
// DSCP 48, Not-ECT) to --dst, UDP to --bts-port with checksum 0, IP and UDP
// lengths of what is there, and a UDP payload of at most 48 bytes (with the
// original BTH: 32 or 48); and the BTH's fields a kind never forges (flags,
// P_Key, byte 4, AckReq).
BtsPkt take_bts(std::vector<std::uint8_t> d, bool reach, const Target &t)
{
	BtsPkt p;
	p.reach = reach;
	EXPECT_GE(d.size(), kBtsHdr);
	if (d.size() < kBtsHdr) {
		p.d = std::move(d);
		return p;
	}
	EXPECT_EQ(d[0], 0x45);
	EXPECT_EQ(d[1], 0xc0) << "DSCP 48, Not-ECT";
	EXPECT_EQ(be16(d, 2), d.size());
	EXPECT_EQ(be16(d, 6), 0x4000u);
	EXPECT_EQ(d[8], 64);
	EXPECT_EQ(d[9], 17);
	EXPECT_EQ(get32(d, kDaddr), t.dst);
	EXPECT_EQ(be16(d, kDport), t.bts_port);
	EXPECT_EQ(be16(d, kUdpLen), d.size() - kIpBytes);
	EXPECT_EQ(be16(d, kUdpLen + 2), 0u) << "UDP checksum";
	p.payload = d.size() - kBtsHdr;
	EXPECT_LE(p.payload, kBtsMinBytes + kBtsExtraBytes);
	if (p.payload >= kBtsMinBytes) {
		EXPECT_TRUE(p.payload == kBtsMinBytes || p.payload == kBtsMinBytes + kBtsExtraBytes)
			<< p.payload;
	}
	p.saddr = get32(d, kSaddr);
	p.sport = be16(d, kIpBytes);
	auto at = [&](std::size_t off, std::size_t n) { return d.size() >= off + n; };
	if (at(kBtsHdr, 4)) {
		p.version = d[kBtsHdr] >> 4;
		p.type = d[kBtsHdr] & 0xfU;
		p.flags = d[kBtsHdr + 1];
		p.orig_tos = d[kBtsHdr + 2];
		p.reserved = d[kBtsHdr + 3];
	}
	if (at(kBtsHdr + 4, 4))
		p.pause = be32(d, kBtsHdr + 4);
	if (at(kBtsHdr + 8, 4))
		p.qdepth = be32(d, kBtsHdr + 8);
	if (at(kInnerUdp, kUdpBytes)) {
		p.inner_sport = be16(d, kInnerUdp);
		p.inner_dport = be16(d, kInnerUdp + 2);
		p.inner_len = be16(d, kInnerUdp + 4);
		p.inner_csum = be16(d, kInnerUdp + 6);
	}
	if (at(kInnerBth, kBthBytes)) {
		p.opcode = d[kInnerBth];
		EXPECT_EQ(d[kInnerBth + 1], 0);
		EXPECT_EQ(be16(d, kInnerBth + 2), 0xffffu);
		EXPECT_EQ(d[kInnerBth + 4], 0);
		p.qpn = be24(d, kInnerBth + 5);
		EXPECT_EQ(d[kInnerBth + 8], 0);
		p.psn = be24(d, kInnerBth + 9);
	}
	p.d = std::move(d);
	return p;
}

// `n` datagrams of kind `k` for `t`, one run from a fixed seed.
std::vector<BtsPkt> bts_run(const std::string &k, const Target &t, unsigned n = kN)
{
	std::mt19937_64 rng(20261214);
	RunState st;
	std::vector<BtsPkt> out;
	for (unsigned i = 0; i < n; i++) {
		bool reach = true; // make() must clear it
		auto d = make(k, rng, t, st, reach);
		out.push_back(take_bts(std::move(d), reach, t));
	}
	return out;
}

// The properties of a well-formed BTS, each of which one kind breaks; a
// kind's test clears the one it breaks and expect_bts() checks the others.
struct BtsExpect {
	bool whole = true;     // the header, original UDP and BTH are there
	bool version = true;   // 1
	bool type = true;      // 0, PAUSE
	bool data = true;      // the original opcode WRITE ONLY
	bool port_flag = true; // the original dport and flag I as --bts-int says
	bool qpn = true;       // --peer-qpn
	bool peer = true;      // from --peer
	bool sport = true;     // the original and outer sport --sport
	bool pause = true;     // --bts-pause-us
};

void expect_bts(const std::vector<BtsPkt> &ps, const Target &t, const BtsExpect &e,
                const std::string &k)
{
	unsigned want_flags = t.bts_flags | (t.bts_int ? kBtsInt : 0);
	unsigned want_dport = t.bts_int ? t.int_port : kRocePort;
	std::set<std::uint32_t> psns, qdepths;
	unsigned extra = 0;
	for (const auto &p : ps) {
		EXPECT_FALSE(p.reach) << k << ": a BTS is never counted as a CNP";
		if (e.peer) {
			EXPECT_EQ(p.saddr, t.peer) << k;
		}
		if (e.sport) {
			EXPECT_EQ(p.sport, t.sport) << k;
		}
		if (e.whole) {
			ASSERT_GE(p.payload, kBtsMinBytes) << k;
			extra += p.payload > kBtsMinBytes;
		}
		if (p.payload < kBtsMinBytes)
			continue;
		EXPECT_EQ(p.orig_tos, 0x6au) << k;
		EXPECT_EQ(p.reserved, 0u) << k;
		if (e.version) {
			EXPECT_EQ(p.version, 1u) << k;
		}
		if (e.type) {
			EXPECT_EQ(p.type, 0u) << k;
		}
		if (e.port_flag) {
			EXPECT_EQ(p.flags, want_flags) << k;
			EXPECT_EQ(p.inner_dport, want_dport) << k;
		} else {
			EXPECT_EQ(p.flags & ~unsigned{kBtsInt}, t.bts_flags) << k << ": C, H, E";
		}
		if (e.pause) {
			EXPECT_EQ(p.pause, t.bts_pause_us) << k;
		}
		if (e.sport) {
			EXPECT_EQ(p.inner_sport, t.sport) << k;
		}
		EXPECT_EQ(p.inner_csum, 0u) << k;
		// the length of a WRITE ONLY with a RETH, 4..4096 bytes and the
		// ICRC (and the shim with --bts-int: no kind changes it)
		unsigned shim = t.bts_int ? kIntShimBytes : 0;
		EXPECT_GE(p.inner_len, 8 + shim + 12 + 16 + 4 + 4) << k;
		EXPECT_LE(p.inner_len, 8 + shim + 12 + 16 + 4096 + 4) << k;
		EXPECT_EQ((p.inner_len - shim) % 4, 0u) << k;
		if (e.data) {
			EXPECT_EQ(p.opcode, kOpWriteOnly) << k;
		}
		if (e.qpn) {
			EXPECT_EQ(p.qpn, kPeerQpn) << k;
		}
		psns.insert(p.psn);
		qdepths.insert(p.qdepth);
	}
	if (e.whole) {
		// with the 16 bytes after the BTH and without, random PSNs and
		// queue depths
		EXPECT_GT(extra, ps.size() / 3) << k;
		EXPECT_LT(extra, ps.size() - ps.size() / 3) << k;
		EXPECT_GT(psns.size(), ps.size() / 2) << k;
		EXPECT_GT(qdepths.size(), ps.size() / 2) << k;
	}
}

// The counters of the QP's host, as the kernel's rules (the brief of the
// BTS receive path, specs/sfc.md §3.4) put a BTS in them for a host that
// runs SFC and has one QP, whose peer is t.peer's QP t.peer_qpn and whose
// source port is t.sport, with a ceiling of `ceiling` µs.
enum class Verdict { rcvd, clamped, bad, no_qp };

Verdict kernel(const BtsPkt &p, const Target &t, std::uint32_t ceiling)
{
	if (p.payload < kBtsMinBytes || p.version != 1 || p.type != 0)
		return Verdict::bad;
	bool flag_i = p.flags & kBtsInt;
	if (p.inner_dport != kRocePort && p.inner_dport != t.int_port)
		return Verdict::bad;
	if (flag_i != (p.inner_dport == t.int_port))
		return Verdict::bad;
	if (!data_opcode(p.opcode))
		return Verdict::bad;
	if (p.saddr != t.peer || p.qpn != t.peer_qpn || p.inner_sport != t.sport)
		return Verdict::no_qp;
	return p.pause > ceiling ? Verdict::clamped : Verdict::rcvd;
}

} // namespace

TEST(InjectKinds, TheBtsGroupIsTheNineBadKinds)
{
	const std::vector<std::string> bts = {
		"bts_truncated",  "bts_bad_version", "bts_bad_type",
		"bts_non_data",   "bts_inner_port",  "bts_int_mismatch",
		"bts_unknown_qp", "bts_non_peer",    "bts_wrong_sport"};
	EXPECT_EQ(kBtsKinds, bts);
	EXPECT_EQ(expand_kinds({"bts"}), bts);
	for (const auto &k : expand_kinds({"int", "tcd", "pcn"}))
		EXPECT_FALSE(is_bts_kind(k)) << k;
	for (const auto &k : kKinds)
		EXPECT_FALSE(is_bts_kind(k)) << k;
	EXPECT_FALSE(is_bts_kind("bts"));
	EXPECT_TRUE(is_bts_kind("bts_valid"));
	EXPECT_TRUE(is_bts_kind("bts_over_ceiling"));
	EXPECT_EQ(expand_kinds({"bts_valid", "bts", "bts_over_ceiling", "bts_non_data"}),
	          (std::vector<std::string>{"bts_valid", "bts_truncated", "bts_bad_version",
	                                    "bts_bad_type", "bts_non_data", "bts_inner_port",
	                                    "bts_int_mismatch", "bts_unknown_qp", "bts_non_peer",
	                                    "bts_wrong_sport", "bts_over_ceiling"}));
	auto names = kind_names();
	for (const auto &k : bts)
		EXPECT_EQ(std::count(names.begin(), names.end(), k), 1) << k;
	for (const char *k : {"bts_valid", "bts_over_ceiling", "bts"})
		EXPECT_EQ(std::count(names.begin(), names.end(), k), 1) << k;
	// the last BTS name, in the order --kinds' error lists them: the FRP
	// names follow it
	auto bts_at = std::find(names.begin(), names.end(), "bts");
	ASSERT_NE(bts_at, names.end());
	ASSERT_NE(bts_at + 1, names.end());
	EXPECT_EQ(*(bts_at + 1), "frp_truncated");
}

// The control, against a BTS written out field by field: the header of a
// well-formed PAUSE with --bts-pause-us, the original UDP header and BTH of
// the QP's WRITE ONLY to its peer; with the flags asked for.
TEST(InjectKinds, BtsValidIsAWellFormedPause)
{
	for (std::uint8_t flags : {std::uint8_t{0}, kBtsCacheable, kBtsCacheHit,
	                           std::uint8_t{kBtsCacheable | kBtsCacheHit | kBtsEgress}}) {
		Target t = bts_target();
		t.bts_flags = flags;
		auto ps = bts_run("bts_valid", t);
		expect_bts(ps, t, {}, "bts_valid");
		for (const auto &p : ps) {
			ASSERT_GE(p.d.size(), kInnerBth + kBthBytes);
			std::vector<std::uint8_t> want = {
				0xc1, 0x32,  0x12, 0xb9, // UDP 0xc132 -> 4793
				0x10, flags, 0x6a, 0x00, 0x00, 0x00, 0x04, 0xd2, // pause 1234
			};
			std::vector<std::uint8_t> got(p.d.begin() + kIpBytes,
			                              p.d.begin() + kIpBytes + 4);
			got.insert(got.end(), p.d.begin() + kBtsHdr, p.d.begin() + kBtsHdr + 8);
			EXPECT_EQ(got, want);
			EXPECT_EQ(std::vector<std::uint8_t>(p.d.begin() + kInnerUdp,
			                                    p.d.begin() + kInnerUdp + 4),
			          (std::vector<std::uint8_t>{0xc1, 0x32, 0x12, 0xb7}));
			EXPECT_EQ(std::vector<std::uint8_t>(p.d.begin() + kInnerBth,
			                                    p.d.begin() + kInnerBth + 8),
			          (std::vector<std::uint8_t>{0x0a, 0x00, 0xff, 0xff, 0x00, 0x00,
			                                     0x00, 0x34}));
			EXPECT_EQ(kernel(p, t, 50000), Verdict::rcvd);
		}
	}
}

// --bts-int: a BTS for an INT-shimmed WRITE: flag I and the original dport
// --int-port, the original length counting the shim
TEST(InjectKinds, BtsValidWithBtsIntIsForAnIntShimmedPacket)
{
	for (std::uint16_t port : {kIntPort, std::uint16_t{5000}}) {
		Target t = bts_target();
		t.bts_int = true;
		t.int_port = port;
		t.bts_port = 6000;
		auto ps = bts_run("bts_valid", t);
		expect_bts(ps, t, {}, "bts_valid");
		for (const auto &p : ps) {
			EXPECT_EQ(p.flags, kBtsInt);
			EXPECT_EQ(p.inner_dport, port);
			EXPECT_EQ(kernel(p, t, 50000), Verdict::rcvd);
		}
	}
}

TEST(InjectKinds, BtsTruncatedIsShorterThanItsHeaders)
{
	Target t = bts_target();
	BtsExpect e;
	e.whole = false;
	auto ps = bts_run("bts_truncated", t);
	expect_bts(ps, t, e, "bts_truncated");
	std::set<std::size_t> lens;
	for (const auto &p : ps) {
		EXPECT_LT(p.payload, kBtsMinBytes);
		lens.insert(p.payload);
		// a prefix of a well-formed BTS
		if (p.payload >= 1) {
			EXPECT_EQ(p.d[kBtsHdr], 0x10);
		}
		if (p.payload >= 8) {
			EXPECT_EQ(p.pause, t.bts_pause_us);
		}
		if (p.payload >= kBtsHdrBytes + kUdpBytes) {
			EXPECT_EQ(p.inner_sport, t.sport);
			EXPECT_EQ(p.inner_dport, kRocePort);
		}
		EXPECT_EQ(kernel(p, t, 50000), Verdict::bad);
	}
	EXPECT_EQ(lens.size(), kBtsMinBytes) << "every length 0..31";
}

TEST(InjectKinds, BtsBadVersionIsAnyVersionButOne)
{
	Target t = bts_target();
	BtsExpect e;
	e.version = false;
	auto ps = bts_run("bts_bad_version", t);
	expect_bts(ps, t, e, "bts_bad_version");
	std::set<unsigned> vs;
	for (const auto &p : ps) {
		EXPECT_NE(p.version, 1u);
		vs.insert(p.version);
		EXPECT_EQ(kernel(p, t, 50000), Verdict::bad);
	}
	EXPECT_EQ(vs.size(), 15u) << "0 and 2..15";
}

TEST(InjectKinds, BtsBadTypeIsAnyTypeButPause)
{
	Target t = bts_target();
	BtsExpect e;
	e.type = false;
	auto ps = bts_run("bts_bad_type", t);
	expect_bts(ps, t, e, "bts_bad_type");
	std::set<unsigned> types;
	for (const auto &p : ps) {
		EXPECT_NE(p.type, 0u);
		types.insert(p.type);
		EXPECT_EQ(kernel(p, t, 50000), Verdict::bad);
	}
	EXPECT_EQ(types.size(), 15u) << "1..15";
}

// an ACK, every READ response, an atomic ACK, a CNP, and other opcodes
// that are no RC request carrying data
TEST(InjectKinds, BtsNonDataCarriesAnOpcodeThatCarriesNoRequestData)
{
	Target t = bts_target();
	BtsExpect e;
	e.data = false;
	auto ps = bts_run("bts_non_data", t);
	expect_bts(ps, t, e, "bts_non_data");
	std::set<unsigned> ops;
	unsigned other = 0;
	for (const auto &p : ps) {
		EXPECT_FALSE(data_opcode(p.opcode)) << std::hex << p.opcode;
		ops.insert(p.opcode);
		other += !(p.opcode >= 0x0D && p.opcode <= 0x12) && p.opcode != 0x81;
		EXPECT_EQ(kernel(p, t, 50000), Verdict::bad);
	}
	for (unsigned op : {0x0Du, 0x0Eu, 0x0Fu, 0x10u, 0x11u, 0x12u, 0x81u})
		EXPECT_EQ(ops.count(op), 1u) << std::hex << op;
	EXPECT_GT(other, kN / 4);
	EXPECT_GT(ops.size(), 100u);
}

TEST(InjectKinds, BtsInnerPortIsNeitherRoceNorInt)
{
	for (bool bts_int : {false, true}) {
		Target t = bts_target();
		t.bts_int = bts_int;
		BtsExpect e;
		e.port_flag = false;
		auto ps = bts_run("bts_inner_port", t);
		expect_bts(ps, t, e, "bts_inner_port");
		std::set<unsigned> ports;
		for (const auto &p : ps) {
			EXPECT_EQ(p.flags & kBtsInt, 0u);
			EXPECT_NE(p.inner_dport, kRocePort);
			EXPECT_NE(p.inner_dport, t.int_port);
			ports.insert(p.inner_dport);
			EXPECT_EQ(kernel(p, t, 50000), Verdict::bad);
		}
		EXPECT_GT(ports.size(), kN / 2);
	}
}

TEST(InjectKinds, BtsIntMismatchHasFlagIAgainstTheOriginalPort)
{
	for (bool bts_int : {false, true}) {
		Target t = bts_target();
		t.bts_int = bts_int;
		t.int_port = 4800;
		BtsExpect e;
		e.port_flag = false;
		auto ps = bts_run("bts_int_mismatch", t);
		expect_bts(ps, t, e, "bts_int_mismatch");
		unsigned with_i = 0;
		for (const auto &p : ps) {
			if (p.flags & kBtsInt) {
				EXPECT_EQ(p.inner_dport, kRocePort);
				with_i++;
			} else {
				EXPECT_EQ(p.inner_dport, 4800u);
			}
			EXPECT_EQ(kernel(p, t, 50000), Verdict::bad);
		}
		EXPECT_GT(with_i, kN / 3);
		EXPECT_LT(with_i, kN - kN / 3);
	}
}

TEST(InjectKinds, BtsUnknownQpCarriesAPeerQpnNoQpHas)
{
	for (std::uint32_t qpn : {kPeerQpn, 0x7fffffU}) {
		Target t = bts_target();
		t.peer_qpn = qpn;
		BtsExpect e;
		e.qpn = false;
		auto ps = bts_run("bts_unknown_qp", t);
		expect_bts(ps, t, e, "bts_unknown_qp");
		std::set<std::uint32_t> qpns;
		for (const auto &p : ps) {
			EXPECT_NE(p.qpn, qpn);
			EXPECT_GE(p.qpn, 0x800000u);
			EXPECT_LT(p.qpn, 0xffffffu);
			qpns.insert(p.qpn);
			EXPECT_EQ(kernel(p, t, 50000), Verdict::no_qp);
		}
		EXPECT_GT(qpns.size(), kN / 3);
	}
}

TEST(InjectKinds, BtsNonPeerComesFromTheSpoofedAddress)
{
	Target t = bts_target();
	BtsExpect e;
	e.peer = false;
	auto ps = bts_run("bts_non_peer", t);
	expect_bts(ps, t, e, "bts_non_peer");
	for (const auto &p : ps) {
		EXPECT_EQ(p.saddr, t.spoof);
		EXPECT_EQ(kernel(p, t, 50000), Verdict::no_qp);
	}
}

// another flow's source port, in the original UDP header and outside
TEST(InjectKinds, BtsWrongSportIsAnotherSourcePort)
{
	for (std::uint16_t sport : {kSport, std::uint16_t{0xc000}, std::uint16_t{1}}) {
		Target t = bts_target();
		t.sport = sport;
		BtsExpect e;
		e.sport = false;
		auto ps = bts_run("bts_wrong_sport", t);
		expect_bts(ps, t, e, "bts_wrong_sport");
		std::set<unsigned> ports;
		unsigned rxe_range = 0;
		for (const auto &p : ps) {
			EXPECT_NE(p.inner_sport, sport);
			EXPECT_EQ(p.sport, p.inner_sport);
			ports.insert(p.inner_sport);
			rxe_range += p.inner_sport >= 0xc000;
			EXPECT_EQ(kernel(p, t, 50000), Verdict::no_qp);
		}
		EXPECT_GT(ports.size(), kN / 2);
		EXPECT_GT(rxe_range, kN / 2);
		EXPECT_LT(rxe_range, kN - kN / 8);
	}
}

// well-formed but for a pause above 10 s: the largest, or anywhere above
TEST(InjectKinds, BtsOverCeilingIsWellFormedWithAHugePause)
{
	Target t = bts_target();
	BtsExpect e;
	e.pause = false;
	auto ps = bts_run("bts_over_ceiling", t);
	expect_bts(ps, t, e, "bts_over_ceiling");
	unsigned largest = 0;
	std::set<std::uint32_t> pauses;
	for (const auto &p : ps) {
		EXPECT_GT(p.pause, 10000000u);
		largest += p.pause == 0xffffffffU;
		pauses.insert(p.pause);
		// above the largest ceiling the kernel allows (1 s)
		EXPECT_EQ(kernel(p, t, 1000000), Verdict::clamped);
	}
	EXPECT_GT(largest, kN / 3);
	EXPECT_GT(pauses.size(), kN / 3);
}

// Every bad kind is counted by the host, in cc_bts_bad or cc_bts_no_qp, and
// none is taken; with --bts-int too, and whatever C, H and E say.
TEST(InjectKinds, EachBtsKindHitsItsCounter)
{
	const std::vector<std::pair<std::string, Verdict>> want = {
		{"bts_truncated", Verdict::bad},       {"bts_bad_version", Verdict::bad},
		{"bts_bad_type", Verdict::bad},        {"bts_non_data", Verdict::bad},
		{"bts_inner_port", Verdict::bad},      {"bts_int_mismatch", Verdict::bad},
		{"bts_unknown_qp", Verdict::no_qp},    {"bts_non_peer", Verdict::no_qp},
		{"bts_wrong_sport", Verdict::no_qp},   {"bts_valid", Verdict::rcvd},
		{"bts_over_ceiling", Verdict::clamped}};
	for (bool bts_int : {false, true}) {
		Target t = bts_target();
		t.bts_int = bts_int;
		t.bts_flags = kBtsCacheable | kBtsCacheHit | kBtsEgress;
		std::mt19937_64 rng(11);
		RunState st;
		for (const auto &kw : want) {
			for (unsigned i = 0; i < 200; i++) {
				bool reach = true;
				auto d = make(kw.first, rng, t, st, reach);
				auto p = take_bts(std::move(d), reach, t);
				EXPECT_FALSE(p.reach);
				EXPECT_EQ(kernel(p, t, 1000000), kw.second) << kw.first;
			}
		}
	}
}

TEST(InjectKinds, ASeedSendsTheBtsItSentBefore)
{
	for (const auto &k : expand_kinds({"bts", "bts_valid", "bts_over_ceiling"})) {
		std::mt19937_64 a(99), b(99);
		RunState ra, rb;
		bool reach = false;
		for (unsigned i = 0; i < 16; i++)
			EXPECT_EQ(make(k, a, bts_target(), ra, reach),
			          make(k, b, bts_target(), rb, reach))
				<< k;
	}
}

// ---- ACCurate FRPs (specs/accurate.md §3.2) ----

namespace
{

constexpr std::uint32_t kFrpSrcQpn = 0x000022;
constexpr std::size_t kFrpAcceth = kBth + kBthBytes;
constexpr std::size_t kFrpBytes = kFrpAcceth + kFrpBodyBytes + kIcrcBytes; // 60

Target frp_target(std::uint16_t epoch)
{
	Target t = target(0x105);
	t.frp_epoch = epoch;
	t.frp_cr = 37000;
	t.frp_dr = 61000;
	t.frp_line = 100000;
	t.frp_src_qpn = kFrpSrcQpn;
	return t;
}

// An FRP as the kernel reads it, and what else the packet carries.
struct FrpPkt {
	std::vector<std::uint8_t> d;
	bool reach = false;
	std::size_t payload = 0; // UDP payload bytes
	std::uint32_t saddr = 0, daddr = 0;
	unsigned tos = 0, sport = 0, dport = 0;
	unsigned opcode = 0, bth_flags = 0, pkey = 0, byte4 = 0, ackreq = 0;
	std::uint32_t qpn = 0, psn = 0;
	bool whole = false; // the 16 ACCETH bytes are there
	unsigned type = 0, flags = 0, sc_hop = 0, version = 0;
	std::uint16_t epoch = 0;
	std::uint32_t cr = 0, dr = 0, src_qpn = 0;
	bool icrc_ok = false, icrc_off_by_one = false;
};

FrpPkt take_frp(std::vector<std::uint8_t> d, bool reach)
{
	FrpPkt p;
	p.reach = reach;
	EXPECT_GE(d.size(), kBth + kBthBytes + kIcrcBytes);
	if (d.size() < kBth + kBthBytes + kIcrcBytes)
		return p;
	p.payload = d.size() - kBth;
	EXPECT_EQ(be16(d, 2), d.size());
	EXPECT_EQ(be16(d, kUdpLen), p.payload + kUdpBytes);
	p.saddr = get32(d, kSaddr);
	p.daddr = get32(d, kDaddr);
	p.tos = d[1];
	p.sport = be16(d, kIpBytes);
	p.dport = be16(d, kDport);
	p.opcode = d[kBth];
	p.bth_flags = d[kBth + 1];
	p.pkey = be16(d, kBth + 2);
	p.byte4 = d[kBth + 4];
	p.qpn = be24(d, kBth + 5);
	p.ackreq = d[kBth + 8];
	p.psn = be24(d, kBth + 9);
	p.whole = p.payload == kBthBytes + kFrpBodyBytes + kIcrcBytes;
	if (p.whole) {
		const std::uint8_t *b = d.data() + kFrpAcceth;
		p.type = b[0] >> 4;
		p.flags = b[0] & 0xfU;
		p.sc_hop = b[1];
		p.epoch = static_cast<std::uint16_t>(b[2] << 8 | b[3]);
		p.cr = be32(d, kFrpAcceth + 4);
		p.dr = be32(d, kFrpAcceth + 8);
		p.version = b[12];
		p.src_qpn = be24(d, kFrpAcceth + 13);
	}
	std::uint32_t stored = d[d.size() - 4] | d[d.size() - 3] << 8 | d[d.size() - 2] << 16 |
	                       static_cast<std::uint32_t>(d[d.size() - 1]) << 24;
	p.icrc_ok = stored == icrc(d);
	p.icrc_off_by_one = stored == (icrc(d) ^ 1U);
	p.d = std::move(d);
	return p;
}

std::vector<FrpPkt> frp_run(const std::string &k, const Target &t, unsigned n = kN,
                            std::uint64_t seed = 20261127)
{
	std::mt19937_64 rng(seed);
	RunState st;
	std::vector<FrpPkt> ps;
	for (unsigned i = 0; i < n; i++) {
		bool reach = true;
		auto d = make(k, rng, t, st, reach);
		ps.push_back(take_frp(std::move(d), reach));
	}
	return ps;
}

// The properties of a well-formed FRP of the kind's direction that a kind
// may break; every other field is checked for every packet.
enum class Prop { length, icrc, peer, qpn, version, flags, type, cr, dr, epoch, src };

// which of the properties `p` breaks, as a kind of direction `fwd`
std::set<Prop> broken(const FrpPkt &p, const Target &t, bool fwd)
{
	std::set<Prop> b;
	if (!p.whole)
		b.insert(Prop::length);
	if (!p.icrc_ok)
		b.insert(Prop::icrc);
	if (p.saddr != t.peer)
		b.insert(Prop::peer);
	if (p.qpn != t.qpn)
		b.insert(Prop::qpn);
	if (!p.whole)
		return b;
	if (p.version != kFrpVersion)
		b.insert(Prop::version);
	// a STOP may carry COUNTED
	unsigned flags = p.type == kFrpStop ? p.flags & ~unsigned{kFrpCounted} : p.flags;
	if (flags != (fwd ? 0U : kFrpResp))
		b.insert(Prop::flags);
	if (p.type != kFrpNormal)
		b.insert(Prop::type);
	if (p.cr != t.frp_cr)
		b.insert(Prop::cr);
	if (p.dr != t.frp_dr)
		b.insert(Prop::dr);
	if (p.epoch != t.frp_epoch)
		b.insert(Prop::epoch);
	if (p.src_qpn != (fwd ? t.frp_src_qpn : t.qpn))
		b.insert(Prop::src);
	return b;
}

// What every FRP of a kind carries whatever it breaks: to --dst, DSCP 48,
// Not-ECT, UDP 4791 from --sport (or rxe's range), the opcode of its
// direction, BTH flags 0, P_Key 0xFFFF, byte 4 0, AckReq 0, PSN = the
// ACCETH's epoch, sc_hop 0; never counted as a CNP.
void expect_frame(const FrpPkt &p, const Target &t, bool fwd, const std::string &k)
{
	EXPECT_FALSE(p.reach) << k;
	EXPECT_EQ(p.daddr, t.dst) << k;
	EXPECT_EQ(p.tos, 0xc0u) << k;
	EXPECT_EQ(p.dport, kRocePort) << k;
	if (t.sport != 0) {
		EXPECT_EQ(p.sport, t.sport) << k;
	} else {
		EXPECT_GE(p.sport, 49152u) << k;
	}
	EXPECT_EQ(p.opcode, fwd ? kOpFrp : kOpFrpResp) << k;
	EXPECT_EQ(p.bth_flags, 0u) << k;
	EXPECT_EQ(p.pkey, 0xffffu) << k;
	EXPECT_EQ(p.byte4, 0u) << k;
	EXPECT_EQ(p.ackreq, 0u) << k;
	if (p.whole) {
		EXPECT_EQ(p.psn, p.epoch) << k;
		EXPECT_EQ(p.sc_hop, 0u) << k;
	} else {
		EXPECT_EQ(p.psn, t.frp_epoch) << k;
	}
}

// the epochs the runs are made with: the stale ones wrap for the small
const std::uint16_t kEpochs[] = {0, 1, 0x1234, 0x8000, 0xffff};

// What the kernel counts (rxe_rcv, rxe_cc_rcv_frp(), rxe_cc_frp_take() and
// ACCurate's acr_resp_ok()): a response at a sending QP running ACCurate,
// a forward FRP at a receiving QP that sets CAP, both in RTS, whose peer
// is t.peer and (the receiving QP) whose peer's QPN is t.frp_src_qpn.
enum class FrpVerdict { bad, ignored, rcvd, stale, stops, echoed };

FrpVerdict frp_kernel(const FrpPkt &p, const Target &t)
{
	if (p.payload < kBthBytes + kFrpBodyBytes + kIcrcBytes)
		return FrpVerdict::bad;
	if (!p.whole || p.qpn != t.qpn || p.saddr != t.peer || !p.icrc_ok)
		return FrpVerdict::ignored;
	if (p.opcode == kOpFrp) {
		if (p.version != kFrpVersion || (p.flags & (kFrpResp | kFrpSc)) ||
		    p.type > kFrpStop || p.src_qpn != t.frp_src_qpn)
			return FrpVerdict::bad;
		return p.type == kFrpStop ? FrpVerdict::stops : FrpVerdict::echoed;
	}
	if (p.version != kFrpVersion || !(p.flags & kFrpResp) ||
	    (p.type != kFrpNormal && p.type != kFrpInit) || p.cr == 0 || p.cr > t.frp_line ||
	    p.dr == 0 || p.dr > t.frp_line)
		return FrpVerdict::bad;
	// older than the last response taken (--frp-epoch), in u16 serial
	// arithmetic
	if (static_cast<std::int16_t>(static_cast<std::uint16_t>(p.epoch - t.frp_epoch)) < 0)
		return FrpVerdict::stale;
	return FrpVerdict::rcvd;
}

const std::vector<std::tuple<std::string, std::set<Prop>, FrpVerdict>> kFrpWant = {
	{"frp_truncated", {Prop::length}, FrpVerdict::bad},
	{"frp_bad_icrc", {Prop::icrc}, FrpVerdict::ignored},
	{"frp_non_peer", {Prop::peer}, FrpVerdict::ignored},
	{"frp_unknown_qp", {Prop::qpn}, FrpVerdict::ignored},
	{"frp_bad_version", {Prop::version}, FrpVerdict::bad},
	{"frp_no_resp", {Prop::flags}, FrpVerdict::bad},
	{"frp_bad_type", {Prop::type}, FrpVerdict::bad},
	{"frp_rate_zero", {Prop::cr}, FrpVerdict::bad},
	{"frp_rate_high", {Prop::cr}, FrpVerdict::bad},
	{"frp_dr_zero", {Prop::dr}, FrpVerdict::bad},
	{"frp_stale", {Prop::epoch}, FrpVerdict::stale},
	{"frp_valid", {}, FrpVerdict::rcvd},
	{"frp_fwd_bad_version", {Prop::version}, FrpVerdict::bad},
	{"frp_fwd_resp_flag", {Prop::flags}, FrpVerdict::bad},
	{"frp_fwd_bad_type", {Prop::type}, FrpVerdict::bad},
	{"frp_fwd_wrong_src", {Prop::src}, FrpVerdict::bad},
	{"frp_fwd_stop", {Prop::type, Prop::dr}, FrpVerdict::stops},
	{"frp_fwd_valid", {}, FrpVerdict::echoed}};

} // namespace

TEST(InjectKinds, TheFrpGroupsAreTheBadKindsAndNotTheControls)
{
	const std::vector<std::string> frp = {"frp_truncated",  "frp_bad_icrc",    "frp_non_peer",
	                                      "frp_unknown_qp", "frp_bad_version", "frp_no_resp",
	                                      "frp_bad_type",   "frp_rate_zero",   "frp_rate_high",
	                                      "frp_dr_zero"};
	const std::vector<std::string> fwd = {"frp_fwd_bad_version", "frp_fwd_resp_flag",
	                                      "frp_fwd_bad_type", "frp_fwd_wrong_src"};
	EXPECT_EQ(kFrpKinds, frp);
	EXPECT_EQ(kFrpFwdKinds, fwd);
	EXPECT_EQ(expand_kinds({"frp"}), frp);
	EXPECT_EQ(expand_kinds({"frp_fwd"}), fwd);
	EXPECT_EQ(expand_kinds({"frp_valid", "frp_fwd", "frp_bad_type", "frp", "frp_fwd_stop"}),
	          (std::vector<std::string>{"frp_valid", "frp_fwd_bad_version", "frp_fwd_resp_flag",
	                                    "frp_fwd_bad_type", "frp_fwd_wrong_src", "frp_bad_type",
	                                    "frp_truncated", "frp_bad_icrc", "frp_non_peer",
	                                    "frp_unknown_qp", "frp_bad_version", "frp_no_resp",
	                                    "frp_rate_zero", "frp_rate_high", "frp_dr_zero",
	                                    "frp_fwd_stop"}));
	// not in the default set nor in the other groups
	for (const auto &k : expand_kinds({"int", "tcd", "pcn", "bts"}))
		EXPECT_FALSE(is_frp_kind(k)) << k;
	for (const auto &k : kKinds)
		EXPECT_FALSE(is_frp_kind(k)) << k;
	for (const auto &k : frp) {
		EXPECT_TRUE(is_frp_kind(k)) << k;
		EXPECT_FALSE(is_frp_fwd_kind(k)) << k;
	}
	for (const auto &k : fwd) {
		EXPECT_TRUE(is_frp_kind(k)) << k;
		EXPECT_TRUE(is_frp_fwd_kind(k)) << k;
	}
	EXPECT_TRUE(is_frp_fwd_kind("frp_fwd_stop"));
	EXPECT_TRUE(is_frp_fwd_kind("frp_fwd_valid"));
	EXPECT_FALSE(is_frp_fwd_kind("frp_fwd"));
	EXPECT_FALSE(is_frp_kind("frp"));
	EXPECT_FALSE(is_frp_fwd_kind("frp_valid"));
	EXPECT_FALSE(is_frp_fwd_kind("frp_stale"));
	auto names = kind_names();
	for (const auto &k : frp)
		EXPECT_EQ(std::count(names.begin(), names.end(), k), 1) << k;
	for (const auto &k : fwd)
		EXPECT_EQ(std::count(names.begin(), names.end(), k), 1) << k;
	for (const char *k :
	     {"frp_stale", "frp_valid", "frp", "frp_fwd_stop", "frp_fwd_valid", "frp_fwd"})
		EXPECT_EQ(std::count(names.begin(), names.end(), k), 1) << k;
	EXPECT_EQ(names.back(), "frp_fwd");
}

// Every kind keeps every property of a well-formed FRP of its direction but
// the ones it names, and lands in the counter the kernel's rules give;
// from --sport or a random port, at several epochs.
TEST(InjectKinds, EachFrpKindBreaksOnlyWhatItNamesAndHitsItsCounter)
{
	for (std::uint16_t epoch : kEpochs) {
		for (unsigned sport : {0U, 0xc777U}) {
			Target t = frp_target(epoch);
			t.sport = static_cast<std::uint16_t>(sport);
			for (const auto &w : kFrpWant) {
				const std::string &k = std::get<0>(w);
				bool fwd = is_frp_fwd_kind(k);
				for (const auto &p : frp_run(k, t, 300)) {
					expect_frame(p, t, fwd, k);
					auto b = broken(p, t, fwd);
					EXPECT_EQ(b, std::get<1>(w)) << k << " epoch " << epoch;
					EXPECT_EQ(frp_kernel(p, t), std::get<2>(w))
						<< k << " epoch " << epoch;
					if (p.whole) {
						EXPECT_EQ(p.d.size(), kFrpBytes) << k;
					}
				}
			}
		}
	}
}

TEST(InjectKinds, FrpValidIsAWellFormedResponseByteForByte)
{
	Target t = frp_target(0x0102);
	for (const auto &p : frp_run("frp_valid", t, 50)) {
		EXPECT_EQ(std::vector<std::uint8_t>(p.d.begin() + kFrpAcceth, p.d.end() - 4),
		          (std::vector<std::uint8_t>{0x08, 0x00, 0x01, 0x02, 0x00, 0x00, 0x90, 0x88,
		                                     0x00, 0x00, 0xee, 0x48, 0x01, 0x00, 0x00,
		                                     0x11}));
		EXPECT_EQ(p.psn, 0x0102u);
		EXPECT_TRUE(p.icrc_ok);
	}
	for (const auto &p : frp_run("frp_fwd_valid", t, 50)) {
		EXPECT_EQ(std::vector<std::uint8_t>(p.d.begin() + kFrpAcceth, p.d.end() - 4),
		          (std::vector<std::uint8_t>{0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x90, 0x88,
		                                     0x00, 0x00, 0xee, 0x48, 0x01, 0x00, 0x00,
		                                     0x22}));
		EXPECT_EQ(p.opcode, kOpFrp);
	}
}

// 0..15 ACCETH bytes, a prefix of a well-formed response's, the ICRC over
// what is there: shorter than BTH + 16 + ICRC, a whole BTH
TEST(InjectKinds, FrpTruncatedIsAPrefixOfAResponse)
{
	Target t = frp_target(0x4321);
	auto want = frp_body([&] {
		Frp f;
		f.flags = kFrpResp;
		f.epoch = 0x4321;
		f.cr_kbps = t.frp_cr;
		f.dr_kbps = t.frp_dr;
		f.src_qpn = t.qpn;
		return f;
	}());
	std::set<std::size_t> lens;
	for (const auto &p : frp_run("frp_truncated", t)) {
		ASSERT_GE(p.payload, kBthBytes + kIcrcBytes);
		ASSERT_LT(p.payload, kBthBytes + kFrpBodyBytes + kIcrcBytes);
		std::size_t n = p.payload - kBthBytes - kIcrcBytes;
		lens.insert(n);
		EXPECT_TRUE(std::equal(p.d.begin() + kFrpAcceth, p.d.end() - 4, want.begin()));
		EXPECT_TRUE(p.icrc_ok);
	}
	EXPECT_EQ(lens.size(), kFrpBodyBytes) << "every length 0..15";
}

TEST(InjectKinds, FrpBadVersionsAndTypesCoverTheirRanges)
{
	Target t = frp_target(7);
	for (const char *k : {"frp_bad_version", "frp_fwd_bad_version"}) {
		std::set<unsigned> vs;
		for (const auto &p : frp_run(k, t)) {
			EXPECT_NE(p.version, kFrpVersion);
			vs.insert(p.version);
		}
		EXPECT_EQ(vs.count(0), 1u) << k;
		EXPECT_EQ(vs.count(255), 1u) << k;
		EXPECT_GT(vs.size(), 200u) << k;
	}
	for (const char *k : {"frp_bad_type", "frp_fwd_bad_type"}) {
		std::set<unsigned> ts;
		for (const auto &p : frp_run(k, t))
			ts.insert(p.type);
		EXPECT_EQ(ts, (std::set<unsigned>{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}))
			<< k;
	}
}

TEST(InjectKinds, FrpRateHighIsAboveTheLine)
{
	for (std::uint32_t line : {1U, 100000U, 0x7fffffffU, 0xfffffffeU}) {
		Target t = frp_target(9);
		t.frp_line = line;
		t.frp_cr = t.frp_dr = 1;
		unsigned just = 0, max = 0, twice = 0;
		for (const auto &p : frp_run("frp_rate_high", t)) {
			EXPECT_GT(p.cr, line);
			just += p.cr == line + 1;
			max += p.cr == 0xffffffffU;
			twice += std::uint64_t{p.cr} <= 2 * std::uint64_t{line};
		}
		EXPECT_GT(just, 0u) << line;
		EXPECT_GT(max, 0u) << line;
		EXPECT_GT(twice, kN / 8) << line;
	}
}

// 1..32767 behind --frp-epoch modulo 2^16: older in u16 serial arithmetic
TEST(InjectKinds, FrpStaleIsBehindTheEpoch)
{
	for (std::uint16_t epoch : kEpochs) {
		Target t = frp_target(epoch);
		std::set<unsigned> backs;
		for (const auto &p : frp_run("frp_stale", t)) {
			auto back = static_cast<std::uint16_t>(epoch - p.epoch);
			EXPECT_GE(back, 1u);
			EXPECT_LE(back, 0x7fffu);
			backs.insert(back);
		}
		EXPECT_EQ(backs.count(1), 1u) << epoch;
		EXPECT_EQ(backs.count(0x7fff), 1u) << epoch;
		EXPECT_GT(backs.size(), kN / 3) << epoch;
	}
}

TEST(InjectKinds, FrpFwdResponseFlagAndWrongSource)
{
	Target t = frp_target(3);
	std::set<unsigned> flags;
	for (const auto &p : frp_run("frp_fwd_resp_flag", t))
		flags.insert(p.flags);
	EXPECT_EQ(flags, (std::set<unsigned>{kFrpSc, kFrpResp, kFrpResp | kFrpSc}));
	unsigned own = 0;
	std::set<std::uint32_t> srcs;
	for (const auto &p : frp_run("frp_fwd_wrong_src", t)) {
		EXPECT_NE(p.src_qpn, kFrpSrcQpn);
		own += p.src_qpn == t.qpn;
		srcs.insert(p.src_qpn);
	}
	EXPECT_GT(own, kN / 3) << "the receiving QP's own QPN";
	EXPECT_GT(srcs.size(), kN / 3);
	// when the QP's own QPN is the peer's, never that one
	t.frp_src_qpn = t.qpn;
	for (const auto &p : frp_run("frp_fwd_wrong_src", t, 300))
		EXPECT_NE(p.src_qpn, t.qpn);
}

TEST(InjectKinds, FrpFwdStopIsAWellFormedStop)
{
	Target t = frp_target(0xfffe);
	unsigned counted = 0;
	for (const auto &p : frp_run("frp_fwd_stop", t)) {
		EXPECT_EQ(p.type, kFrpStop);
		EXPECT_EQ(p.dr, 0u);
		EXPECT_EQ(p.flags & ~static_cast<unsigned>(kFrpCounted), 0u);
		counted += (p.flags & kFrpCounted) != 0;
	}
	EXPECT_GT(counted, kN / 3);
	EXPECT_LT(counted, kN - kN / 3);
}

TEST(InjectKinds, FrpUnknownQpGoesToAQpnNoQpHas)
{
	Target t = frp_target(5);
	std::set<std::uint32_t> qpns;
	for (const auto &p : frp_run("frp_unknown_qp", t)) {
		EXPECT_NE(p.qpn, t.qpn);
		EXPECT_GE(p.qpn, 0x800000u);
		EXPECT_LT(p.qpn, 0xffffffu);
		qpns.insert(p.qpn);
	}
	EXPECT_GT(qpns.size(), kN / 3);
}

TEST(InjectKinds, ASeedSendsTheFrpsItSentBefore)
{
	auto ks = expand_kinds(
		{"frp", "frp_fwd", "frp_stale", "frp_valid", "frp_fwd_stop", "frp_fwd_valid"});
	EXPECT_EQ(ks.size(), 18u);
	for (const auto &k : ks) {
		std::mt19937_64 a(99), b(99);
		RunState ra, rb;
		bool reach = true;
		for (unsigned i = 0; i < 16; i++)
			EXPECT_EQ(make(k, a, frp_target(4), ra, reach),
			          make(k, b, frp_target(4), rb, reach))
				<< k;
		EXPECT_FALSE(reach) << k;
	}
}
