// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCurate's congestion point (accurate_cp.h) and its switch feature
// (accurate.h): CRC-32 and the ICRC against specs/wire.md Appendix A, the
// CP listing of specs/accurate.md §2.4 with the corner cases of §2.5, the
// worked example of Fig. 2, the §2.9 test vectors driven by an RRP-level
// model of sources over chains of CPs, the hysteresis variant and the
// convergence property of §2.10 on random small topologies, the epoch
// roll-over, the switch's FRP rewrite, short-circuit responses and
// validation, and the topology directive.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "accurate.h"
#include "accurate_cp.h"
#include "roce_icrc.h"
#include "switch_model.h"
#include "test_frames.h"
#include "test_switch.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

constexpr uint32_t kC = 10000000;   // 10 Gb/s in kb/s
constexpr uint32_t kCeff = 9500000; // alpha = 0.05
constexpr uint32_t kMinRate = kC / 1000;

// ---- CRC-32 and ICRC --------------------------------------------------------

// C1 of wire.md Appendix A: an rxe-style CNP, DSCP 48.
std::vector<uint8_t> c1()
{
	return from_hex("02000000000a02000000000b080045c0003c00024000401125ed0a0000020a000001"
	                "c13212b7002800008100ffff40000012000000000000000000000000000000000000"
	                "00004637ceaa");
}

FrameInfo info_of(const std::vector<uint8_t> &f)
{
	FrameInfo fi;
	EXPECT_EQ(parse_frame(f.data(), f.size(), fi), ParseStatus::kOk);
	return fi;
}

TEST(AccIcrc, Crc32CheckValue)
{
	const char *s = "123456789";
	EXPECT_EQ(crc32(0, reinterpret_cast<const uint8_t *>(s), 9), 0xCBF43926u);
	EXPECT_EQ(crc32(0, nullptr, 0), 0u);
	// Chaining.
	uint32_t a = crc32(0, reinterpret_cast<const uint8_t *>(s), 4);
	EXPECT_EQ(crc32(a, reinterpret_cast<const uint8_t *>(s) + 4, 5), 0xCBF43926u);
}

TEST(AccIcrc, AppendixAVectors)
{
	for (const auto &f : {c0(), w1(), a1(), c1()}) {
		FrameInfo fi = info_of(f);
		ASSERT_TRUE(roce_icrc_compute(f, fi).has_value());
		EXPECT_EQ(roce_icrc_compute(f, fi), roce_icrc_read(f, fi));
		EXPECT_TRUE(roce_icrc_ok(f, fi));
		// The masked fields do not matter: TOS, TTL, IP checksum, UDP
		// checksum, BTH byte 4.
		for (size_t at : {15u, 22u, 24u, 40u, 46u}) {
			std::vector<uint8_t> g = f;
			g[at] ^= 0x5a;
			EXPECT_TRUE(roce_icrc_ok(g, info_of(g))) << "byte " << at;
		}
		// The IP ID and the BTH's resv7/AckReq byte do.
		for (size_t at : {18u, 50u}) {
			std::vector<uint8_t> g = f;
			g[at] ^= 0x01;
			EXPECT_FALSE(roce_icrc_ok(g, info_of(g))) << "byte " << at;
		}
	}
	// The wire bytes of C0's ICRC are 82 fd 00 2a: least significant first.
	std::vector<uint8_t> f = c0();
	EXPECT_EQ(roce_icrc_compute(f, info_of(f)), 0x2a00fd82u);
	// Updating rewrites exactly those bytes.
	std::vector<uint8_t> g = w1();
	std::fill(g.end() - 4, g.end(), 0);
	EXPECT_TRUE(roce_icrc_update(g, info_of(g)));
	EXPECT_EQ(g, w1());
}

// ---- ACCETH -----------------------------------------------------------------

TEST(AccEthLayout, ParseAndPut)
{
	AccEth a;
	a.type = kAccTypeStop;
	a.flags = kAccFlagCounted;
	a.sc_hop = 0x17;
	a.epoch = 0xbeef;
	a.cr_kbps = 9500000;  // 0x0090f560
	a.dr_kbps = 10000000; // 0x00989680
	a.src_qpn = 0x123456;
	uint8_t b[kAccEthBytes];
	a.put(b);
	const uint8_t want[] = {0x22, 0x17, 0xbe, 0xef, 0x00, 0x90, 0xf5, 0x60,
	                        0x00, 0x98, 0x96, 0x80, 0x01, 0x12, 0x34, 0x56};
	EXPECT_TRUE(std::equal(b, b + kAccEthBytes, want));
	AccEth r = AccEth::parse(b);
	EXPECT_EQ(r.type, a.type);
	EXPECT_EQ(r.flags, a.flags);
	EXPECT_EQ(r.sc_hop, a.sc_hop);
	EXPECT_EQ(r.epoch, a.epoch);
	EXPECT_EQ(r.cr_kbps, a.cr_kbps);
	EXPECT_EQ(r.dr_kbps, a.dr_kbps);
	EXPECT_EQ(r.version, kAccVersion);
	EXPECT_EQ(r.src_qpn, a.src_qpn);
}

// ---- The CP on its own ------------------------------------------------------

AccEth frp(uint8_t type, uint32_t cr, uint32_t dr = kC, uint8_t flags = 0)
{
	AccEth a;
	a.type = type;
	a.cr_kbps = cr;
	a.dr_kbps = dr;
	a.flags = flags;
	return a;
}

uint32_t normal(AccCp &cp, uint32_t cr, uint32_t dr = kC)
{
	AccEth a = frp(kAccTypeNormal, cr, dr);
	cp.on_forward(a);
	return a.cr_kbps;
}

AccCpParams params(uint32_t alpha_ppm = 50000)
{
	AccCpParams p;
	p.c_kbps = kC;
	p.alpha_ppm = alpha_ppm;
	return p;
}

TEST(AccCpTest, StartsIdleAtCeff)
{
	AccCp cp(params());
	EXPECT_EQ(cp.ceff(), kCeff);
	EXPECT_EQ(cp.fsr(), kCeff);
	EXPECT_EQ(cp.old().fsr, kCeff);
	// M = B = 0: Ceff (§2.5, A5), counted as idle.
	cp.rrp_end();
	EXPECT_EQ(cp.fsr(), kCeff);
	EXPECT_EQ(cp.counters().idle, 1u);
	EXPECT_EQ(cp.counters().rate_updates, 1u);
}

// Fig. 2: C = 10 Gb/s, alpha = 0, FSR 3 Gb/s; CR = 5, 2, 4, 1.5, 1.5 give
// M, B, M, B, B: M = 2, B = 5 -> FSR = (10 - 5) / 2 = 2.5 Gb/s.
TEST(AccCpTest, Fig2WorkedExample)
{
	AccCp cp(params(0));
	// An RRP that leaves FSR = (10 - 1) / 3 = 3 Gb/s.
	for (uint32_t cr : {kC, kC, kC, 1000000u})
		normal(cp, cr);
	cp.rrp_end();
	ASSERT_EQ(cp.fsr(), 3000000u);
	EXPECT_EQ(normal(cp, 5000000), 3000000u); // here: clamped
	EXPECT_EQ(normal(cp, 2000000), 2000000u); // elsewhere: untouched
	EXPECT_EQ(normal(cp, 4000000), 3000000u);
	EXPECT_EQ(normal(cp, 1500000), 1500000u);
	EXPECT_EQ(normal(cp, 1500000), 1500000u);
	EXPECT_EQ(cp.current().m, 2u);
	EXPECT_EQ(cp.current().b, 5000000u);
	EXPECT_EQ(cp.current().nb, 3u);
	EXPECT_EQ(cp.current().bmax, 2000000u);
	cp.rrp_end();
	EXPECT_EQ(cp.fsr(), 2500000u);
	EXPECT_EQ(cp.last_rrp().m, 2u);
	EXPECT_EQ(cp.last_rrp().b, 5000000u);
	EXPECT_EQ(cp.last_rrp().fsr, 2500000u);
}

TEST(AccCpTest, TieIsHereAndDrClampedToFsr)
{
	AccCp cp(params());
	AccEth a = frp(kAccTypeNormal, kCeff, kC);
	cp.on_forward(a);
	EXPECT_EQ(cp.current().m, 1u); // FSR <= CR: here
	EXPECT_EQ(a.cr_kbps, kCeff);
	EXPECT_EQ(a.dr_kbps, kCeff);
	a = frp(kAccTypeNormal, 1000000, 2000000);
	cp.on_forward(a);
	EXPECT_EQ(cp.current().nb, 1u);
	EXPECT_EQ(a.cr_kbps, 1000000u); // elsewhere: CR untouched
	EXPECT_EQ(a.dr_kbps, 2000000u); // DR below FSR: untouched
}

TEST(AccCpTest, MZeroPromotesBmax)
{
	AccCp cp(params());
	normal(cp, 2000000);
	normal(cp, 3000000);
	cp.rrp_end();
	// M = 0, B = 5, b_max = 3: M = 1, B = 2 -> 9.5 - 2 = 7.5.
	EXPECT_EQ(cp.fsr(), 7500000u);
	EXPECT_EQ(cp.counters().m_zero, 1u);
	EXPECT_EQ(cp.counters().idle, 0u);
}

TEST(AccCpTest, NegativeFsrDividesCByAllFlows)
{
	for (bool ceff : {false, true}) {
		AccCpParams p = params();
		p.neg_ceff = ceff;
		AccCp cp(p);
		normal(cp, 5000000);
		normal(cp, 5000000);
		normal(cp, kC); // here
		cp.rrp_end();   // M = 1, B = 10 >= 9.5: C / 3
		EXPECT_EQ(cp.fsr(), (ceff ? kCeff : kC) / 3) << ceff;
		EXPECT_EQ(cp.counters().negative_fsr, 1u);
	}
	// B == Ceff exactly is negative too (no FSR of 0).
	AccCp cp(params());
	normal(cp, 4750000);
	normal(cp, 4750000);
	normal(cp, kC);
	cp.rrp_end();
	EXPECT_EQ(cp.fsr(), kC / 3);
	// M = 0 promoted and still negative: B - b_max >= Ceff.
	AccCp cq(params());
	AccEth init = frp(kAccTypeInit, kC);
	for (int i = 0; i < 3; i++) { // FSR 9.5, 4.75, 3.166: INITs here
		init.cr_kbps = kC;
		cq.on_forward(init);
	}
	cq.rrp_end(); // M = 3 -> 3.166
	ASSERT_EQ(cq.fsr(), kCeff / 3);
	for (int i = 0; i < 8; i++)
		normal(cq, 3000000); // all elsewhere: M = 0, B = 24, b_max 3
	cq.rrp_end();                // M = 1, B = 21, NB = 7: C / 8
	EXPECT_EQ(cq.fsr(), kC / 8);
	EXPECT_EQ(cq.counters().m_zero, 1u);
	EXPECT_EQ(cq.counters().negative_fsr, 1u);
	// FSR never 0: a 2 kb/s link with 5 flows.
	AccCpParams tiny = params();
	tiny.c_kbps = 2;
	AccCp ct(tiny);
	EXPECT_EQ(ct.ceff(), 2u); // 2 - floor(0.1)
	for (int i = 0; i < 5; i++)
		normal(ct, 2);
	ct.rrp_end();
	EXPECT_EQ(ct.fsr(), 1u);
}

TEST(AccCpTest, StopReversesOnlyWhenCounted)
{
	// Two flows here at 4.75.
	auto two = [] {
		AccCp cp(params());
		normal(cp, kC);
		normal(cp, kC);
		cp.rrp_end();
		EXPECT_EQ(cp.fsr(), 4750000u);
		normal(cp, 4750000);
		normal(cp, 4750000);
		return cp;
	};
	AccCp a = two();
	AccEth s = frp(kAccTypeStop, 4750000, 0, kAccFlagCounted);
	EXPECT_FALSE(a.on_forward(s));
	EXPECT_EQ(a.current().m, 1u);
	a.rrp_end();
	EXPECT_EQ(a.fsr(), kCeff);
	EXPECT_EQ(a.counters().frp_stop, 1u);

	AccCp b = two();
	s = frp(kAccTypeStop, kC, 0); // not COUNTED: nothing reversed
	b.on_forward(s);
	EXPECT_EQ(s.cr_kbps, 4750000u); // CR clamped for the CPs downstream
	EXPECT_EQ(s.dr_kbps, 0u);
	EXPECT_EQ(b.current().m, 2u);
	b.rrp_end();
	EXPECT_EQ(b.fsr(), 4750000u);

	// Elsewhere: B and NB reversed; clamped at 0 when reversal overshoots.
	AccCp c(params());
	normal(c, 2000000);
	s = frp(kAccTypeStop, 3000000, 0, kAccFlagCounted);
	c.on_forward(s);
	EXPECT_EQ(c.current().b, 0u);
	EXPECT_EQ(c.current().nb, 0u);
	s = frp(kAccTypeStop, 3000000, 0, kAccFlagCounted);
	c.on_forward(s); // nothing left: stays 0
	s = frp(kAccTypeStop, kC, 0, kAccFlagCounted);
	c.on_forward(s);
	EXPECT_EQ(c.current().m, 0u);
	// M = 0, B > 0, NB = 0 (after an approximate reversal): Ceff, no
	// division by zero (§2.4 review note 1).
	AccCp d(params());
	normal(d, 5000000);
	s = frp(kAccTypeStop, 2000000, 0, kAccFlagCounted);
	d.on_forward(s);
	EXPECT_EQ(d.current().b, 3000000u);
	EXPECT_EQ(d.current().nb, 0u);
	d.rrp_end();
	EXPECT_EQ(d.fsr(), kCeff);
}

TEST(AccCpTest, InitUpdatesPromptlyFromOldRegisters)
{
	AccCp cp(params());
	normal(cp, kC);
	cp.rrp_end(); // one flow here: 9.5
	normal(cp, kCeff);
	AccEth i = frp(kAccTypeInit, kC, kC);
	cp.on_forward(i);
	// Old registers: M_o = 2 -> 4.75 at once, and the INIT is counted
	// in this RRP too (A3).
	EXPECT_EQ(cp.fsr(), 4750000u);
	EXPECT_EQ(cp.old().m, 2u);
	EXPECT_EQ(cp.current().m, 2u);
	EXPECT_EQ(i.cr_kbps, 4750000u);
	EXPECT_EQ(i.dr_kbps, 4750000u);
	EXPECT_EQ(cp.counters().frp_init, 1u);
	// A later FRP of this RRP sees the new FSR.
	EXPECT_EQ(normal(cp, kCeff), 4750000u);
	// An INIT below FSR_o goes to B_o: M_o = 2, B_o = 1 -> 4.25.
	AccEth j = frp(kAccTypeInit, 1000000, kC);
	cp.on_forward(j);
	EXPECT_EQ(cp.old().nb, 1u);
	EXPECT_EQ(cp.old().b, 1000000u);
	EXPECT_EQ(cp.fsr(), 4250000u);
	EXPECT_EQ(j.cr_kbps, 1000000u);
	EXPECT_EQ(j.dr_kbps, 4250000u);
	// The old FSR itself stays: it is the previous RRP's (A2).
	EXPECT_EQ(cp.old().fsr, kCeff);
}

TEST(AccCpTest, ShortCircuitThreshold)
{
	AccCp cp(params());
	normal(cp, kC);
	normal(cp, kC);
	cp.rrp_end(); // 4.75
	// 1.5 * 4.75 = 7.125: above short-circuits, at it does not.
	AccEth a = frp(kAccTypeNormal, 7125001);
	EXPECT_TRUE(cp.on_forward(a));
	EXPECT_EQ(a.cr_kbps, 4750000u); // the response carries the clamped CR
	a = frp(kAccTypeNormal, 7125000);
	EXPECT_FALSE(cp.on_forward(a));
	EXPECT_EQ(cp.counters().short_circuits, 1u);
	// An INIT is tested against the prompt FSR: M_o = 3 -> 3.167, and
	// 10 > 1.5 * 3.167.
	AccEth i = frp(kAccTypeInit, kC);
	EXPECT_TRUE(cp.on_forward(i));
	EXPECT_EQ(cp.fsr(), kCeff / 3);
	// k_sc = 0: never.
	AccCpParams p = params();
	p.k_sc_milli = 0;
	AccCp off(p);
	for (int n = 0; n < 4; n++) {
		AccEth x = frp(kAccTypeInit, kC);
		EXPECT_FALSE(off.on_forward(x));
	}
	// STOP never short-circuits.
	AccEth s = frp(kAccTypeStop, kC, 0);
	EXPECT_FALSE(cp.on_forward(s));
}

// ---- Epochs -----------------------------------------------------------------

TEST(AccEpochTest, RollsOncePerElapsedEpoch)
{
	AccCp cp(params());
	EXPECT_EQ(cp.on_epoch(0xfffe), AccEpoch::kCurrent); // adopted
	EXPECT_EQ(cp.counters().rate_updates, 0u);
	normal(cp, kC);
	normal(cp, kC);
	EXPECT_EQ(cp.on_epoch(0xfffe), AccEpoch::kCurrent);
	EXPECT_EQ(cp.counters().rate_updates, 0u);
	EXPECT_EQ(cp.on_epoch(0xffff), AccEpoch::kCurrent);
	EXPECT_EQ(cp.counters().rate_updates, 1u);
	EXPECT_EQ(cp.fsr(), 4750000u);
	normal(cp, kC);
	normal(cp, kC);
	// Wrap at 2^16: 0xffff -> 0 is one epoch.
	EXPECT_EQ(cp.on_epoch(0), AccEpoch::kCurrent);
	EXPECT_EQ(cp.counters().rate_updates, 2u);
	EXPECT_EQ(cp.fsr(), 4750000u);
	EXPECT_EQ(cp.epoch(), 0u);
	normal(cp, kC);
	normal(cp, kC);
	// Two elapsed epochs (epoch 1 had no FRP): idle.
	EXPECT_EQ(cp.on_epoch(2), AccEpoch::kCurrent);
	EXPECT_EQ(cp.counters().rate_updates, 4u);
	EXPECT_EQ(cp.fsr(), kCeff);
	EXPECT_EQ(cp.old().m, 0u);
	EXPECT_EQ(cp.old().b, 0u);
	EXPECT_EQ(cp.old().fsr, 4750000u); // the RRP before the empty one
	EXPECT_EQ(cp.last_rrp().m, 0u);
}

TEST(AccEpochTest, LongGapEqualsEveryEnd)
{
	for (int gap : {3, 4, 1000, 32767}) {
		AccCp lazy(params()), ref(params());
		lazy.on_epoch(100);
		for (AccCp *cp : {&lazy, &ref}) {
			normal(*cp, kC);
			normal(*cp, 3000000);
		}
		lazy.on_epoch(static_cast<uint16_t>(100 + gap));
		for (int i = 0; i < gap; i++)
			ref.rrp_end();
		EXPECT_EQ(lazy.fsr(), ref.fsr()) << gap;
		EXPECT_EQ(lazy.old().fsr, ref.old().fsr) << gap;
		EXPECT_EQ(lazy.old().fsr, kCeff) << gap;
		EXPECT_EQ(lazy.old().m, ref.old().m) << gap;
		EXPECT_EQ(lazy.old().b, ref.old().b) << gap;
		EXPECT_EQ(lazy.counters().rate_updates, 3u);
	}
}

TEST(AccEpochTest, OlderIsStaleFarOlderResyncs)
{
	AccCp cp(params());
	cp.on_epoch(5);
	EXPECT_EQ(cp.on_epoch(4), AccEpoch::kStale);
	EXPECT_EQ(cp.on_epoch(static_cast<uint16_t>(5 - kAccStaleWindow)), AccEpoch::kStale);
	EXPECT_EQ(cp.counters().frp_stale, 2u);
	EXPECT_EQ(cp.epoch(), 5u);
	// Across the wrap: 0xfffe is older than 1.
	AccCp w(params());
	w.on_epoch(1);
	EXPECT_EQ(w.on_epoch(0xfffe), AccEpoch::kStale);
	// Far older (a restarted host clock): taken as new, idle.
	normal(cp, kC);
	EXPECT_EQ(cp.on_epoch(static_cast<uint16_t>(5 - kAccStaleWindow - 1)), AccEpoch::kCurrent);
	EXPECT_EQ(cp.counters().epoch_resyncs, 1u);
	EXPECT_EQ(cp.epoch(), static_cast<uint16_t>(5 - kAccStaleWindow - 1));
	EXPECT_EQ(cp.fsr(), kCeff);
	EXPECT_EQ(cp.counters().rate_updates, kAccMaxRolls);
}

// ---- RRP-level model of sources over chains of CPs (§2.7, §2.9) -------------

// Every flow sends one FRP per RRP along its path of CPs; its response
// comes back within the RRP and sets R = max(CR, DR), capped at DR_src and
// floored at MIN_RATE (§2.7 lines 10-14).  Per RRP: the epoch advances;
// the flows that start send INIT first, in the order given, at R =
// INIT_RATE = C (they start at the boundary: the INIT is their FRP of
// this RRP); then the other active flows send theirs in index order (a
// flow that stops sends STOP instead, COUNTED = 0).  This order gives the
// §2.9 vectors ("f2 = f3 = 4.75 at once", "f1 = 4.75 for 2 RRPs").  The
// CPs roll over lazily from the FRPs' epochs, as in the switch.
class Model
{
public:
	struct Flow {
		std::vector<int> path;
		uint32_t r = 0;
		uint32_t dr_src = kC;
		bool active = false;
	};

	Model(size_t links, const AccCpParams &p) : cps(links, AccCp(p)) {}

	int add(std::vector<int> path)
	{
		flows.push_back({std::move(path), 0, kC, false});
		return static_cast<int>(flows.size()) - 1;
	}

	void rrp(const std::vector<int> &start = {}, const std::vector<int> &stop = {})
	{
		epoch++;
		for (int f : start) {
			Flow &fl = flows[static_cast<size_t>(f)];
			fl.active = true;
			fl.r = kC;
			send(fl, kAccTypeInit);
		}
		for (size_t f = 0; f < flows.size(); f++) {
			Flow &fl = flows[f];
			if (!fl.active || std::find(start.begin(), start.end(),
			                            static_cast<int>(f)) != start.end())
				continue;
			if (std::find(stop.begin(), stop.end(), static_cast<int>(f)) !=
			    stop.end()) {
				send(fl, kAccTypeStop);
				fl.active = false;
				continue;
			}
			send(fl, kAccTypeNormal);
		}
		for (const Flow &fl : flows)
			peak = std::max(peak, fl.active ? fl.r : 0u);
	}

	uint32_t rate(int f) const { return flows[static_cast<size_t>(f)].r; }

	std::vector<AccCp> cps;
	std::vector<Flow> flows;
	uint16_t epoch = 0;
	uint32_t peak = 0;
	uint64_t short_circuits = 0;

private:
	void send(Flow &fl, uint8_t type)
	{
		AccEth a = frp(type, fl.r, type == kAccTypeStop ? 0 : fl.dr_src);
		a.epoch = epoch;
		bool sc = false;
		for (int l : fl.path) {
			AccCp &cp = cps[static_cast<size_t>(l)];
			if (cp.on_epoch(a.epoch) != AccEpoch::kCurrent)
				continue;
			if (cp.on_forward(a) && !sc) {
				// A short-circuit response: only slows (§2.7 line 12).
				sc = true;
				short_circuits++;
				fl.r = std::max(kMinRate, std::min(fl.r, a.cr_kbps));
			}
		}
		if (type == kAccTypeStop)
			return;
		uint32_t r = std::max(a.cr_kbps, a.dr_kbps);
		fl.r = std::clamp(r, kMinRate, fl.dr_src);
	}
};

// Rates in kb/s are compared with the integer rounding of the CPs
// (floors of 9.5 G / 3 and the like): within 3 kb/s.
constexpr double kTol = 3;

TEST(AccModel, SteadyStateThreeFlows)
{
	Model m(1, params());
	m.rrp({0 + m.add({0}), m.add({0}), m.add({0})});
	for (int k = 0; k < 5; k++)
		m.rrp();
	for (int f = 0; f < 3; f++)
		EXPECT_NEAR(m.rate(f), 3166667, kTol);
	EXPECT_EQ(m.cps[0].fsr(), kCeff / 3); // M = 3: 9.5 / 3
	EXPECT_EQ(m.cps[0].last_rrp().m, 3u);
}

// Parking lot: f1, f2 over leafA->spine (0), spine->leafB (1), leafB->H4
// (2); f3 over leafB->H4 only.  All start at once.
struct ParkingLot {
	explicit ParkingLot(const AccCpParams &p) : m(3, p)
	{
		f1 = m.add({0, 1, 2});
		f2 = m.add({0, 1, 2});
		f3 = m.add({2});
	}
	Model m;
	int f1, f2, f3;
	std::vector<std::vector<uint32_t>> trace; // rates after each RRP

	void run(int rrps)
	{
		m.rrp({f1, f2, f3});
		trace.push_back({m.rate(f1), m.rate(f2), m.rate(f3)});
		for (int k = 1; k < rrps; k++) {
			m.rrp();
			trace.push_back({m.rate(f1), m.rate(f2), m.rate(f3)});
		}
	}
};

TEST(AccModel, ParkingLot)
{
	ParkingLot p(params());
	p.run(12);
	// RRP 0 (the INITs, in order): 9.5, 4.75, 2.375.
	EXPECT_EQ(p.trace[0], (std::vector<uint32_t>{kCeff, 4750000, 2375000}));
	// RRP 1: all three at 3.167.
	for (uint32_t r : p.trace[1])
		EXPECT_NEAR(r, 3166667, kTol);
	// RRP 2: the one-RRP 12.5 % overshoot to 3.5625.
	EXPECT_EQ(p.trace[2], (std::vector<uint32_t>{3562500, 3562500, 3562500}));
	// From RRP 3 on: 3.167 for good.
	for (size_t k = 3; k < p.trace.size(); k++)
		for (uint32_t r : p.trace[k])
			EXPECT_NEAR(r, 3166667, kTol) << "RRP " << k;
	// The upper links settle at FSR 6.333 (M = 0, b_max promoted).
	EXPECT_NEAR(p.m.cps[0].fsr(), 6333333, kTol);
	EXPECT_NEAR(p.m.cps[1].fsr(), 6333333, kTol);
	EXPECT_EQ(p.m.cps[0].last_rrp().m, 0u);
	EXPECT_NEAR(p.m.cps[2].fsr(), 3166667, kTol);
}

// Victim: f1 H1 -> local (H1's uplink 0, leaf -> local 4); f2, f3, f4
// share leaf -> spine (3) from uplinks 1, 2 and 0 (f4 shares H1's uplink).
struct Victim {
	explicit Victim(const AccCpParams &p) : m(5, p)
	{
		f1 = m.add({0, 4});
		f2 = m.add({1, 3});
		f3 = m.add({2, 3});
		f4 = m.add({0, 3});
	}
	Model m;
	int f1, f2, f3, f4;
};

TEST(AccModel, Victim)
{
	Victim v(params());
	Model &m = v.m;
	m.rrp({v.f1, v.f2});
	for (int k = 0; k < 4; k++)
		m.rrp();
	EXPECT_EQ(m.rate(v.f1), kCeff);
	EXPECT_EQ(m.rate(v.f2), kCeff);
	// f3 starts: f2 = f3 = 4.75 at once (INIT prompt update).
	m.rrp({v.f3});
	EXPECT_EQ(m.rate(v.f3), 4750000u);
	EXPECT_EQ(m.rate(v.f2), 4750000u);
	for (int k = 0; k < 4; k++) {
		m.rrp();
		EXPECT_EQ(m.rate(v.f2), 4750000u);
		EXPECT_EQ(m.rate(v.f3), 4750000u);
	}
	// f4 starts: f2 = f3 = f4 = 3.167 at once; f1 4.75 for 2 RRPs, then
	// 6.333.
	m.rrp({v.f4});
	std::vector<uint32_t> f1 = {m.rate(v.f1)};
	EXPECT_NEAR(m.rate(v.f2), 3166667, kTol);
	EXPECT_NEAR(m.rate(v.f3), 3166667, kTol);
	EXPECT_NEAR(m.rate(v.f4), 3166667, kTol);
	for (int k = 0; k < 6; k++) {
		m.rrp();
		f1.push_back(m.rate(v.f1));
		EXPECT_NEAR(m.rate(v.f2), 3166667, kTol);
		EXPECT_NEAR(m.rate(v.f3), 3166667, kTol);
		EXPECT_NEAR(m.rate(v.f4), 3166667, kTol);
	}
	EXPECT_EQ(f1[0], 4750000u);
	EXPECT_EQ(f1[1], 4750000u);
	for (size_t k = 2; k < f1.size(); k++)
		EXPECT_NEAR(f1[k], 6333333, kTol) << k;
	// f4 stops: f1 9.5 after 1 RRP; f2 = f3: 4.75 -> 6.333 -> 4.75.
	m.rrp({}, {v.f4});
	std::vector<uint32_t> f2;
	for (int k = 0; k < 6; k++) {
		m.rrp();
		EXPECT_EQ(m.rate(v.f1), kCeff) << k;
		EXPECT_EQ(m.rate(v.f2), m.rate(v.f3));
		f2.push_back(m.rate(v.f2));
	}
	EXPECT_EQ(f2[0], 4750000u);
	EXPECT_NEAR(f2[1], 6333333, kTol); // the one-RRP overshoot
	for (size_t k = 2; k < f2.size(); k++)
		EXPECT_EQ(f2[k], 4750000u) << k;
}

TEST(AccModel, DepartureOnOneLink)
{
	Model m(1, params());
	m.rrp({m.add({0}), m.add({0}), m.add({0})});
	for (int k = 0; k < 5; k++)
		m.rrp();
	m.rrp({}, {2});
	std::vector<uint32_t> r;
	for (int k = 0; k < 6; k++) {
		m.rrp();
		EXPECT_EQ(m.rate(0), m.rate(1));
		r.push_back(m.rate(0));
	}
	EXPECT_EQ(r[0], 4750000u);
	EXPECT_NEAR(r[1], 6333333, kTol);
	for (size_t k = 2; k < r.size(); k++)
		EXPECT_EQ(r[k], 4750000u) << k;
}

AccCpParams hysteresis()
{
	AccCpParams p = params();
	p.hysteresis = true;
	return p;
}

TEST(AccModel, HysteresisRemovesTheOvershoots)
{
	// Parking lot: no 3.5625 in RRP 2; 3.167 from RRP 1 on, same fixed
	// point (6.333 on the upper links).
	ParkingLot p(hysteresis());
	p.run(12);
	for (size_t k = 1; k < p.trace.size(); k++)
		for (uint32_t r : p.trace[k])
			EXPECT_NEAR(r, 3166667, kTol) << "RRP " << k;
	EXPECT_NEAR(p.m.cps[0].fsr(), 6333333, kTol);
	EXPECT_NEAR(p.m.cps[2].fsr(), 3166667, kTol);

	// Departure: 4.75 and no 6.333.
	Model m(1, hysteresis());
	m.rrp({m.add({0}), m.add({0}), m.add({0})});
	for (int k = 0; k < 5; k++)
		m.rrp();
	m.rrp({}, {2});
	for (int k = 0; k < 6; k++) {
		m.rrp();
		EXPECT_EQ(m.rate(0), 4750000u) << k;
		EXPECT_EQ(m.rate(1), 4750000u) << k;
	}

	// Victim: same fixed points, f2 = f3 never above 4.75 after f4 stops.
	Victim v(hysteresis());
	Model &n = v.m;
	n.rrp({v.f1, v.f2});
	for (int k = 0; k < 4; k++)
		n.rrp();
	n.rrp({v.f3});
	for (int k = 0; k < 4; k++)
		n.rrp();
	n.rrp({v.f4});
	for (int k = 0; k < 6; k++)
		n.rrp();
	EXPECT_NEAR(n.rate(v.f1), 6333333, kTol);
	for (int f : {v.f2, v.f3, v.f4})
		EXPECT_NEAR(n.rate(f), 3166667, kTol);
	n.rrp({}, {v.f4});
	for (int k = 0; k < 6; k++) {
		n.rrp();
		EXPECT_EQ(n.rate(v.f1), kCeff) << k;
		EXPECT_LE(n.rate(v.f2), 4750000u) << k;
		EXPECT_LE(n.rate(v.f3), 4750000u) << k;
	}
	EXPECT_EQ(n.rate(v.f2), 4750000u);
}

// ---- §2.10: convergence on random small topologies --------------------------

// Max-min fair rates (progressive filling) of the active flows over links
// of capacity Ceff, in kb/s.
std::vector<double> max_min(const Model &m)
{
	size_t nf = m.flows.size(), nl = m.cps.size();
	std::vector<double> rate(nf, 0);
	std::vector<bool> frozen(nf, false);
	for (size_t f = 0; f < nf; f++)
		frozen[f] = !m.flows[f].active;
	for (;;) {
		double best = -1;
		std::vector<size_t> bottleneck;
		for (size_t l = 0; l < nl; l++) {
			double used = 0;
			int n = 0;
			for (size_t f = 0; f < nf; f++) {
				const auto &p = m.flows[f].path;
				if (!m.flows[f].active ||
				    std::find(p.begin(), p.end(), static_cast<int>(l)) == p.end())
					continue;
				if (frozen[f])
					used += rate[f];
				else
					n++;
			}
			if (n == 0)
				continue;
			double share = (kCeff - used) / n;
			if (best < 0 || share < best - 1e-9) {
				best = share;
				bottleneck = {l};
			} else if (share < best + 1e-9) {
				bottleneck.push_back(l);
			}
		}
		if (best < 0)
			return rate;
		for (size_t l : bottleneck)
			for (size_t f = 0; f < nf; f++) {
				const auto &p = m.flows[f].path;
				if (!frozen[f] &&
				    std::find(p.begin(), p.end(), static_cast<int>(l)) != p.end()) {
					rate[f] = best;
					frozen[f] = true;
				}
			}
	}
}

struct ConvergenceResult {
	int events = 0;
	int converged20 = 0;
	int max_rrps = 0; // longest convergence among those that converged
	std::vector<int> times;
};

// 6 links, 2-7 flows on random 1-3-link paths, 3 rounds of random starts
// and stops per trial; after each round 40 RRPs.  Converged at RRP t: all
// rates within 20 kb/s of max-min from t to the end of the round.
ConvergenceResult convergence(const AccCpParams &p, int trials, uint32_t seed)
{
	std::mt19937 rng(seed);
	auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
	ConvergenceResult res;
	for (int t = 0; t < trials; t++) {
		Model m(6, p);
		int nf = uni(2, 7);
		for (int f = 0; f < nf; f++) {
			std::vector<int> links = {0, 1, 2, 3, 4, 5};
			std::shuffle(links.begin(), links.end(), rng);
			links.resize(static_cast<size_t>(uni(1, 3)));
			m.add(links);
		}
		for (int round = 0; round < 3; round++) {
			std::vector<int> start, stop;
			while (start.empty() && stop.empty())
				for (int f = 0; f < nf; f++)
					if (uni(0, 1)) {
						if (m.flows[static_cast<size_t>(f)].active)
							stop.push_back(f);
						else
							start.push_back(f);
					}
			std::shuffle(start.begin(), start.end(), rng);
			m.rrp(start, stop);
			std::vector<double> want = max_min(m);
			int last_bad = 0;
			for (int k = 1; k <= 40; k++) {
				bool ok = true;
				for (size_t f = 0; f < m.flows.size(); f++)
					if (m.flows[f].active &&
					    std::abs(m.flows[f].r - want[f]) > 20)
						ok = false;
				if (!ok)
					last_bad = k;
				m.rrp();
			}
			res.events++;
			res.times.push_back(last_bad);
			if (last_bad <= 20) {
				res.converged20++;
				res.max_rrps = std::max(res.max_rrps, last_bad);
			}
		}
	}
	return res;
}

int percentile(std::vector<int> v, int pct)
{
	std::sort(v.begin(), v.end());
	return v[(v.size() * static_cast<size_t>(pct) + 99) / 100 - 1];
}

TEST(AccModel, ConvergenceOnRandomTopologies)
{
	constexpr int kTrials = 2000;
	ConvergenceResult faithful = convergence(params(), kTrials, 20260101);
	ConvergenceResult hyst = convergence(hysteresis(), kTrials, 20260101);
	std::printf("faithful:   %d/%d converged within 20 RRPs; median %d, p99 %d, max %d\n",
	            faithful.converged20, faithful.events, percentile(faithful.times, 50),
	            percentile(faithful.times, 99), percentile(faithful.times, 100));
	std::printf("hysteresis: %d/%d converged within 20 RRPs; median %d, p99 %d, max %d\n",
	            hyst.converged20, hyst.events, percentile(hyst.times, 50),
	            percentile(hyst.times, 99), percentile(hyst.times, 100));
	EXPECT_EQ(faithful.events, 3 * kTrials);
	// Nearly all (accurate.md §2.10: 5999/6000) ...
	EXPECT_GE(faithful.converged20, faithful.events * 995 / 1000);
	// ... and all with hysteresis.
	EXPECT_EQ(hyst.converged20, hyst.events);
}

// ---- The switch feature -----------------------------------------------------

// Hosts 1, 2, 3 on ports h1, h2, h3 (index 0, 1, 2) of s0, 10 Gb/s, and a
// link port up to s1; ACCurate as the line says.
Switch acc_switch(const std::string &acc = "accurate s0:*")
{
	std::string text = "switch s0 buffer=1MiB\n"
	                   "switch s1 buffer=1MiB\n"
	                   "port s0:h1 rate=10G delay=1us\n"
	                   "port s0:h2 rate=10G delay=1us\n"
	                   "port s0:h3 rate=10G delay=1us\n"
	                   "link s0:up s1:down rate=10G delay=1us\n"
	                   "port s1:h9 rate=10G delay=1us\n"
	                   "route s0 10.0.0.1 h1\n"
	                   "route s0 10.0.0.2 h2\n"
	                   "route s0 10.0.0.3 h3\n"
	                   "route s0 10.0.0.9 up\n" +
	                   acc + "\n";
	TopologyResult r = parse_topology(text);
	if (!r)
		throw std::runtime_error(r.error.to_string());
	return Switch(r.topology->switches[0]);
}

constexpr size_t kBthAt = 42, kAccEthAt = 54;

// A forward FRP from 10.0.0.src (QP 0x100 + src) to 10.0.0.dst (QP 0x200 +
// dst), DSCP 48, 74 bytes, with a valid ICRC.
std::vector<uint8_t> frp_frame(uint8_t src, uint8_t dst, const AccEth &a,
                               uint8_t opcode = kOpcodeFrp)
{
	std::vector<uint8_t> f = udp_frame(src, dst, kTosCnp, 74);
	f[kBthAt] = opcode;
	f[kBthAt + 2] = f[kBthAt + 3] = 0xff;
	f[kBthAt + 6] = 0x02;
	f[kBthAt + 7] = dst;
	f[kBthAt + 10] = static_cast<uint8_t>(a.epoch >> 8);
	f[kBthAt + 11] = static_cast<uint8_t>(a.epoch);
	a.put(f.data() + kAccEthAt);
	FrameInfo fi = info_of(f);
	EXPECT_TRUE(roce_icrc_update(f, fi));
	return f;
}

AccEth frp_of(uint8_t type, uint32_t cr, uint32_t dr, uint16_t epoch, uint8_t src)
{
	AccEth a = frp(type, cr, dr);
	a.epoch = epoch;
	a.src_qpn = 0x100u + src;
	return a;
}

AccEth acceth_of(const std::vector<uint8_t> &f)
{
	return AccEth::parse(f.data() + kAccEthAt);
}

std::vector<Transmission> send(Switch &sw, int port, std::vector<uint8_t> f, Time t = 1000)
{
	sw.on_ingress(port, std::move(f), t);
	return run_all(sw);
}

TEST(AccSwitch, RewritesCrDrAndIcrcAtIngressAndEgressCps)
{
	Switch sw = acc_switch();
	auto out = send(sw, 0, frp_frame(1, 2, frp_of(kAccTypeNormal, kC, kC, 7, 1)));
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].port, 1);
	EXPECT_EQ(out[0].priority, 6); // DSCP 48: the strict class
	AccEth a = acceth_of(out[0].frame);
	EXPECT_EQ(a.cr_kbps, kCeff);
	EXPECT_EQ(a.dr_kbps, kCeff);
	EXPECT_EQ(a.epoch, 7u);
	EXPECT_EQ(a.src_qpn, 0x101u);
	EXPECT_TRUE(roce_icrc_ok(out[0].frame, info_of(out[0].frame)));
	AccStatus in = sw.accurate_status(0), eg = sw.accurate_status(1);
	ASSERT_TRUE(in.ingress && eg.egress);
	EXPECT_EQ(in.ingress->counters().frp_normal, 1u);
	EXPECT_EQ(in.egress->counters().frp_normal, 0u); // h1's egress: not passed
	EXPECT_EQ(eg.egress->counters().frp_normal, 1u);
	EXPECT_EQ(eg.ingress->counters().frp_normal, 0u);
	EXPECT_EQ(in.ingress->current().m, 1u);
	EXPECT_EQ(eg.egress->current().m, 1u);
	// Link ports have no ingress CP.
	EXPECT_TRUE(sw.accurate_status(3).enabled);
	EXPECT_FALSE(sw.accurate_status(3).ingress);
	// A data packet passes untouched.
	std::vector<uint8_t> d = udp_frame(1, 2, kTosData, 90);
	out = send(sw, 0, d, 2000);
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].frame, d);
}

TEST(AccSwitch, ShortCircuitResponseTowardTheSource)
{
	Switch sw = acc_switch();
	// Epoch 1: one flow h1 -> h2; epoch 2: it again and a new flow from
	// h1 (INIT at 10 G): the ingress CP's prompt FSR 4.75 short-circuits.
	send(sw, 0, frp_frame(1, 2, frp_of(kAccTypeNormal, kC, kC, 1, 1)));
	send(sw, 0, frp_frame(1, 2, frp_of(kAccTypeNormal, kCeff, kC, 2, 1)), 2000);
	std::vector<uint8_t> init = frp_frame(1, 2, frp_of(kAccTypeInit, kC, kC, 2, 1));
	auto out = send(sw, 0, init, 3000);
	ASSERT_EQ(out.size(), 2u);
	const Transmission *fwd = nullptr, *resp = nullptr;
	for (const Transmission &tx : out)
		(tx.port == 1 ? fwd : resp) = &tx;
	ASSERT_TRUE(fwd && resp);
	EXPECT_EQ(acceth_of(fwd->frame).cr_kbps, 4750000u);
	EXPECT_EQ(acceth_of(fwd->frame).flags, 0u);
	// The response: back out of h1, high priority.
	EXPECT_EQ(resp->port, 0);
	EXPECT_EQ(resp->priority, 6);
	const std::vector<uint8_t> &r = resp->frame;
	ASSERT_EQ(r.size(), 74u);
	FrameInfo fi = info_of(r);
	EXPECT_EQ(fi.dst, host_mac(1));
	EXPECT_EQ(fi.src, host_mac(2));
	EXPECT_EQ(fi.dst_ip, IpAddr::v4(10, 0, 0, 1));
	EXPECT_EQ(fi.src_ip, IpAddr::v4(10, 0, 0, 2));
	EXPECT_EQ(fi.dport, kRoceV2Port);
	EXPECT_EQ(fi.sport, init[kUdpAt] << 8 | init[kUdpAt + 1]); // kept
	EXPECT_EQ(fi.dscp, 48);
	EXPECT_EQ(fi.ecn, Ecn::kNotEct);
	EXPECT_EQ(r[14 + 8], 64); // TTL
	EXPECT_TRUE(ipv4_checksum_ok(r));
	EXPECT_EQ(fi.bth_opcode, kOpcodeFrpResp);
	EXPECT_EQ(r[kBthAt + 5] << 16 | r[kBthAt + 6] << 8 | r[kBthAt + 7], 0x101); // src_qpn
	EXPECT_EQ(r[kBthAt + 8], 0);
	EXPECT_EQ(r[kBthAt + 11], 2); // PSN = epoch
	AccEth a = acceth_of(r);
	EXPECT_EQ(a.type, kAccTypeInit);
	EXPECT_EQ(a.flags, kAccFlagResp | kAccFlagSc);
	EXPECT_EQ(a.sc_hop, acc_hop(sw.config(), 0));
	EXPECT_NE(a.sc_hop, 0);
	EXPECT_EQ(a.cr_kbps, 4750000u);
	EXPECT_EQ(a.dr_kbps, 4750000u);
	EXPECT_EQ(a.epoch, 2u);
	EXPECT_TRUE(roce_icrc_ok(r, fi));
	EXPECT_EQ(sw.accurate_status(0).ingress->counters().short_circuits, 1u);
	EXPECT_EQ(sw.accurate_status(1).egress->counters().short_circuits, 0u);
	// A response passes every CP untouched (and counts as resp_seen on
	// the egress port).
	AccEth e = frp_of(kAccTypeNormal, 1000, 2000, 2, 2);
	e.flags = kAccFlagResp;
	std::vector<uint8_t> echo = frp_frame(2, 1, e, kOpcodeFrpResp);
	out = send(sw, 1, echo, 4000);
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].frame, echo);
	EXPECT_EQ(sw.accurate_status(0).resp_seen, 2u); // the SC response, the echo
	EXPECT_EQ(sw.accurate_status(1).ingress->counters().frp_normal, 0u);
}

TEST(AccSwitch, InvalidAndStaleFrpsPassUntouched)
{
	Switch sw = acc_switch();
	Time t = 1000;
	auto pass_untouched = [&](std::vector<uint8_t> f) {
		auto out = send(sw, 0, f, t += 1000);
		ASSERT_EQ(out.size(), 1u);
		EXPECT_EQ(out[0].frame, f);
	};
	AccEth ok = frp_of(kAccTypeNormal, kC, kC, 5, 1);
	std::vector<uint8_t> f = frp_frame(1, 2, ok);
	f[kAccEthAt + 12] = 2; // version 2
	roce_icrc_update(f, info_of(f));
	EXPECT_EQ(check_frp(*Packet::parse(f), nullptr), FrpCheck::kVersion);
	pass_untouched(f);
	f = frp_frame(1, 2, ok);
	f[kAccEthAt + 7] ^= 1; // CR changed without a new ICRC
	EXPECT_EQ(check_frp(*Packet::parse(f), nullptr), FrpCheck::kIcrc);
	pass_untouched(f);
	AccEth zero = ok;
	zero.cr_kbps = 0;
	EXPECT_EQ(check_frp(*Packet::parse(frp_frame(1, 2, zero)), nullptr), FrpCheck::kRate);
	pass_untouched(frp_frame(1, 2, zero));
	AccEth resp = ok;
	resp.flags = kAccFlagResp;
	pass_untouched(frp_frame(1, 2, resp));
	AccEth type = ok;
	type.type = 3;
	pass_untouched(frp_frame(1, 2, type));
	// No room for the ACCETH and the ICRC: 12 bytes of it only.
	std::vector<uint8_t> s = udp_frame(1, 2, kTosCnp, 14 + 20 + 8 + 12 + 12 + 4);
	s[kBthAt] = kOpcodeFrp;
	EXPECT_EQ(check_frp(*Packet::parse(s), nullptr), FrpCheck::kTruncated);
	pass_untouched(s);
	for (const auto &cp : {sw.accurate_status(0).ingress, sw.accurate_status(1).egress}) {
		EXPECT_EQ(cp->counters().frp_bad, 6u);
		EXPECT_EQ(cp->counters().frp_bad_icrc, 1u);
		EXPECT_EQ(cp->counters().frp_normal, 0u);
		EXPECT_EQ(cp->current().m + cp->current().nb, 0u);
	}
	// A STOP with DR = 0 is valid.
	AccEth stop = frp_of(kAccTypeStop, kC, 0, 5, 1);
	EXPECT_EQ(check_frp(*Packet::parse(frp_frame(1, 2, stop)), nullptr), FrpCheck::kOk);
	// Epoch 5 then 4: the older one is stale at both CPs.
	send(sw, 0, frp_frame(1, 2, ok), t += 1000);
	pass_untouched(frp_frame(1, 2, frp_of(kAccTypeNormal, kC, kC, 4, 1)));
	EXPECT_EQ(sw.accurate_status(0).ingress->counters().frp_stale, 1u);
	EXPECT_EQ(sw.accurate_status(1).egress->counters().frp_stale, 1u);
	EXPECT_EQ(sw.accurate_status(1).egress->counters().frp_normal, 1u);
}

TEST(AccSwitch, IngressOffAndPortsWithout)
{
	Switch sw = acc_switch("accurate s0:h2 ingress=off alpha=0 k_sc=0 hop=77");
	EXPECT_FALSE(sw.accurate_status(0).enabled);
	AccStatus h2 = sw.accurate_status(1);
	ASSERT_TRUE(h2.enabled);
	EXPECT_FALSE(h2.ingress);
	EXPECT_EQ(h2.egress->ceff(), kC);
	EXPECT_EQ(h2.hop, 77);
	auto out = send(sw, 0, frp_frame(1, 2, frp_of(kAccTypeInit, 20000000, 20000000, 1, 1)));
	ASSERT_EQ(out.size(), 1u);                      // k_sc = 0: no response
	EXPECT_EQ(acceth_of(out[0].frame).cr_kbps, kC); // CR above C: clamped
	// From h2 to h1: neither h2's ingress nor h1 has a CP.
	std::vector<uint8_t> f = frp_frame(2, 1, frp_of(kAccTypeNormal, kC, kC, 1, 2));
	out = send(sw, 1, f, 2000);
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].frame, f);
}

// ---- The directive ----------------------------------------------------------

const char kAccBase[] = "switch s0 buffer=1MiB\n"
			"switch s1 buffer=1MiB\n"
			"port s0:h1 rate=10G delay=1us\n"
			"link s0:up s1:down rate=25G delay=1us\n";

TEST(AccTopology, Directive)
{
	TopologyResult r = parse_topology(std::string(kAccBase) + "accurate *:*\n" +
	                                  "accurate s0:h1 alpha=0.1 k_sc=2.25 neg=ceff "
	                                  "hysteresis=on ingress=off hop=9\n");
	ASSERT_TRUE(r) << r.error.to_string();
	const AccParams &d = r.topology->switches[1].ports[0].accurate;
	EXPECT_TRUE(d.enabled);
	EXPECT_EQ(d.alpha_ppm, 50000u);
	EXPECT_EQ(d.k_sc_milli, 1500u);
	EXPECT_FALSE(d.neg_ceff);
	EXPECT_FALSE(d.hysteresis);
	EXPECT_TRUE(d.ingress);
	EXPECT_EQ(d.hop, 0);
	const AccParams &h = r.topology->switches[0].ports[0].accurate;
	EXPECT_EQ(h.alpha_ppm, 100000u);
	EXPECT_EQ(h.k_sc_milli, 2250u);
	EXPECT_TRUE(h.neg_ceff);
	EXPECT_TRUE(h.hysteresis);
	EXPECT_FALSE(h.ingress);
	EXPECT_EQ(h.hop, 9);
	Switch sw(r.topology->switches[0]);
	EXPECT_EQ(sw.accurate_status(1).egress->c(), 25000000u); // C = port rate
	EXPECT_EQ(sw.accurate_status(1).egress->ceff(), 23750000u);
	// alpha=0 and k_sc=0 are allowed.
	EXPECT_TRUE(parse_topology(std::string(kAccBase) + "accurate s0:* alpha=0 k_sc=0\n"));
}

TEST(AccTopology, Errors)
{
	struct Case {
		const char *line;
		const char *message;
	} cases[] = {
		{"accurate", "too few words; usage: accurate TARGET"},
		{"accurate s0:h1 alpha=1", "bad alpha='1'"},
		{"accurate s0:h1 alpha=0.0000001", "bad alpha"},
		{"accurate s0:h1 alpha=-0.1", "bad alpha"},
		{"accurate s0:h1 k_sc=0.5", "bad k_sc='0.5' (0 = off, or 1..1000"},
		{"accurate s0:h1 k_sc=1001", "bad k_sc"},
		{"accurate s0:h1 neg=half", "neg must be c or ceff"},
		{"accurate s0:h1 hysteresis=maybe", "bad boolean hysteresis"},
		{"accurate s0:h1 hop=0", "hop must be 1..255"},
		{"accurate s0:h1 hop=256", "bad number hop"},
		{"accurate s0:h1 rate=1G", "unknown attribute 'rate'"},
		{"accurate s0:up ingress=on", "ingress=on on s0:up, a link port"},
		{"accurate s0:nope", "'s0:nope' matches no declared port"},
		{"accurate s7:*", "unknown switch 's7'"},
	};
	for (const Case &c : cases) {
		TopologyResult r = parse_topology(std::string(kAccBase) + c.line + "\n");
		ASSERT_FALSE(r) << c.line;
		EXPECT_EQ(r.error.line, 5) << c.line;
		EXPECT_NE(r.error.message.find(c.message), std::string::npos)
			<< c.line << ": " << r.error.message;
	}
	// ingress=on over a wildcard skips the link ports.
	EXPECT_TRUE(parse_topology(std::string(kAccBase) + "accurate s0:* ingress=on\n"));
	// A config built by hand is validated too.
	SwitchConfig sc = parse_topology(kAccBase).topology->switches.front();
	sc.ports[0].accurate.enabled = true;
	sc.ports[0].accurate.k_sc_milli = 999;
	EXPECT_NE(validate(sc).find("k_sc"), std::string::npos);
	sc.ports[0].accurate.k_sc_milli = 0;
	sc.ports[0].accurate.alpha_ppm = 1000000;
	EXPECT_NE(validate(sc).find("alpha"), std::string::npos);
}

} // namespace
