// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// TCD marking (tcd.h; specs/acc.md §3.2, §4.3, §6.1): the detector's state
// machine with a fake clock, the marks (CE, UE = ECT(1), NO; Not-ECT and
// CE untouched) with their checksums, the feature's counters, a switch
// driven through PAUSE, RESUME and pause expiry, and the configuration
// (the tcd directive, one marking mode per queue, validate()).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "switch_model.h"
#include "tcd.h"
#include "test_frames.h"
#include "test_switch.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

constexpr uint64_t kThr = 3000;
constexpr Time kMaxTon = 100000; // 100 us

TcdParams params(uint64_t thr = kThr, Time max_ton = kMaxTon)
{
	TcdParams p;
	p.enabled = true;
	p.threshold = thr;
	p.max_ton_ns = max_ton;
	return p;
}

constexpr TcdState kNon = TcdState::kNonCongestion;
constexpr TcdState kUnd = TcdState::kUndetermined;
constexpr TcdState kCong = TcdState::kCongestion;

uint64_t entered(const TcdDetector &d, TcdState s)
{
	return d.counters().entered[static_cast<size_t>(s)];
}

} // namespace

// ---- The detector ----------------------------------------------------------

TEST(TcdDetector, QueueAtOrBelowThresholdIsNonCongestion)
{
	TcdDetector d(params());
	EXPECT_EQ(d.state(), kNon);
	EXPECT_EQ(d.on_dequeue(0, 10), kNon);
	EXPECT_EQ(d.on_dequeue(kThr, 20), kNon);
	EXPECT_EQ(entered(d, kCong), 0u);
	EXPECT_EQ(entered(d, kUnd), 0u);
}

TEST(TcdDetector, QueueAboveThresholdWithoutPauseIsCongestion)
{
	TcdDetector d(params());
	EXPECT_EQ(d.on_dequeue(kThr + 1, 10), kCong);
	EXPECT_EQ(d.on_dequeue(50000, 20), kCong);
	EXPECT_EQ(d.on_dequeue(kThr + 1, 30), kCong);
	EXPECT_EQ(d.on_dequeue(kThr, 40), kNon);
	EXPECT_EQ(d.on_dequeue(kThr + 1, 50), kCong);
	EXPECT_EQ(entered(d, kCong), 2u);
	EXPECT_EQ(entered(d, kNon), 1u);
}

TEST(TcdDetector, PauseIsUndeterminedUntilOnLongerThanMaxTon)
{
	TcdDetector d(params());
	EXPECT_EQ(d.on_dequeue(10000, 0), kCong);
	d.on_pause_change(true, 20000, 1000); // a pause, whatever the queue
	EXPECT_TRUE(d.paused());
	EXPECT_EQ(d.state(), kUnd);
	const Time on = 50000;
	d.on_pause_change(false, 20000, on); // RESUME with a queue
	EXPECT_FALSE(d.paused());
	EXPECT_EQ(d.on_since(), on);
	EXPECT_EQ(d.state(), kUnd);
	// Queue above the threshold, ON for up to max_Ton: undetermined.
	EXPECT_EQ(d.on_dequeue(19000, on), kUnd);
	EXPECT_EQ(d.on_dequeue(18000, on + kMaxTon / 2), kUnd);
	EXPECT_EQ(d.on_dequeue(17000, on + kMaxTon), kUnd); // not > max_Ton
	// ON for longer than PFC modulation allows: the queue is its own.
	EXPECT_EQ(d.on_dequeue(16000, on + kMaxTon + 1), kCong);
	EXPECT_EQ(d.on_dequeue(15000, on + kMaxTon + 2), kCong);
	EXPECT_EQ(entered(d, kUnd), 1u);
	EXPECT_EQ(entered(d, kCong), 2u);
}

TEST(TcdDetector, UndeterminedClearsWhenTheQueueDrains)
{
	TcdDetector d(params());
	d.on_pause_change(true, 0, 100);
	d.on_pause_change(false, 9000, 200);
	EXPECT_EQ(d.on_dequeue(8000, 300), kUnd);
	EXPECT_EQ(d.on_dequeue(kThr, 400), kNon);
	// From NONCONGESTION a queue building without a pause is congestion
	// at once, however short the ON period.
	EXPECT_EQ(d.on_dequeue(kThr + 1, 500), kCong);
}

TEST(TcdDetector, ResumeEvaluatesTheQueue)
{
	TcdDetector d(params());
	d.on_pause_change(true, 9000, 100);
	d.on_pause_change(false, kThr, 200); // small queue at RESUME
	EXPECT_EQ(d.state(), kNon);
	EXPECT_EQ(d.on_dequeue(kThr + 1, 201), kCong);
}

TEST(TcdDetector, EachPauseRestartsTheOnTimer)
{
	TcdDetector d(params());
	Time t = 0;
	// PFC modulation: ON periods of 80 us, each shorter than max_Ton,
	// with a standing queue: undetermined throughout.
	for (int i = 0; i < 5; i++) {
		d.on_pause_change(true, 10000, t);
		t += 20000;
		d.on_pause_change(false, 10000, t);
		for (Time dt = 0; dt <= 80000; dt += 10000)
			EXPECT_EQ(d.on_dequeue(10000, t + dt), kUnd) << i << " " << dt;
		t += 80000;
	}
	EXPECT_EQ(entered(d, kUnd), 1u);
	EXPECT_EQ(entered(d, kCong), 0u);
	// Four ON periods ended by a PAUSE, of 80 us each.
	EXPECT_EQ(d.counters().on_periods, 4u);
	EXPECT_EQ(d.counters().max_on_ns, 80000u);
	// A PAUSE while paused or a RESUME while ON is no change.
	d.on_pause_change(false, 10000, t + 90000);
	EXPECT_EQ(d.on_since(), t - 80000);
	EXPECT_EQ(d.on_dequeue(10000, t + 90000), kCong);
	d.on_pause_change(true, 10000, t + 100000);
	d.on_pause_change(true, 10000, t + 110000);
	EXPECT_EQ(d.state(), kUnd);
	EXPECT_EQ(entered(d, kUnd), 2u);
	// The fifth ON period, 180 us, is the longest.
	EXPECT_EQ(d.counters().on_periods, 5u);
	EXPECT_EQ(d.counters().max_on_ns, 180000u);
}

TEST(TcdDetector, OnPeriodBeforeTheFirstPauseIsNotMeasured)
{
	TcdDetector d(params());
	d.on_dequeue(9000, 5000000);
	d.on_pause_change(true, 9000, 9000000);
	EXPECT_EQ(d.counters().on_periods, 0u);
	EXPECT_EQ(d.counters().max_on_ns, 0u);
	d.on_pause_change(false, 9000, 9000500);
	d.on_pause_change(true, 9000, 9000700);
	EXPECT_EQ(d.counters().on_periods, 1u);
	EXPECT_EQ(d.counters().max_on_ns, 200u);
}

TEST(TcdDetector, MaxTonZeroLeavesUndeterminedAfterTheResumeInstant)
{
	TcdDetector d(params(kThr, 0));
	d.on_pause_change(true, 9000, 10);
	d.on_pause_change(false, 9000, 20);
	EXPECT_EQ(d.on_dequeue(8000, 20), kUnd);
	EXPECT_EQ(d.on_dequeue(7000, 21), kCong);
}

TEST(TcdDetector, TimeInEachState)
{
	TcdDetector d(params());
	d.on_dequeue(9000, 1000);            // NON 0..1000, then CONG
	d.on_pause_change(true, 9000, 4000); // CONG 1000..4000, then UND
	d.on_pause_change(false, 0, 4500);   // UND 4000..4500, then NON
	EXPECT_EQ(d.time_in(kNon, 10000), 1000u + 5500u);
	EXPECT_EQ(d.time_in(kCong, 10000), 3000u);
	EXPECT_EQ(d.time_in(kUnd, 10000), 500u);
	EXPECT_EQ(d.time_in(kNon, 10000) + d.time_in(kCong, 10000) + d.time_in(kUnd, 10000),
	          10000u);
}

// ---- Marks -----------------------------------------------------------------

TEST(TcdMark, CongestionMarksEctAsCe)
{
	for (uint8_t tos : {uint8_t{0x6a}, uint8_t{0x69}}) { // ECT(0), ECT(1)
		std::vector<uint8_t> in = udp_frame(1, 2, tos, 200);
		auto p = Packet::parse(in);
		ASSERT_TRUE(p);
		EXPECT_EQ(tcd_mark(*p, kCong), TcdMark::kCe);
		EXPECT_EQ(tos_of(p->bytes()), 0x6b) << int{tos};
		EXPECT_EQ(p->info().ecn, Ecn::kCe);
		EXPECT_EQ(p->info().dscp, 26);
		EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
		EXPECT_TRUE(only_tos_and_checksum_differ(in, p->bytes()));
	}
}

TEST(TcdMark, UndeterminedMarksEct0AsUe)
{
	std::vector<uint8_t> in = udp_frame(1, 2, 0x6a, 200);
	ASSERT_TRUE(ipv4_checksum_ok(in));
	auto p = Packet::parse(in);
	ASSERT_TRUE(p);
	EXPECT_EQ(tcd_mark(*p, kUnd), TcdMark::kUe);
	EXPECT_EQ(tos_of(p->bytes()), 0x69);
	EXPECT_EQ(p->info().ecn, Ecn::kEct1);
	EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
	EXPECT_NE(p->bytes(), in);
	EXPECT_TRUE(only_tos_and_checksum_differ(in, p->bytes()));

	// ECT(1) already: UE, unchanged.
	std::vector<uint8_t> ue = udp_frame(1, 2, 0x69, 200);
	auto q = Packet::parse(ue);
	ASSERT_TRUE(q);
	EXPECT_EQ(tcd_mark(*q, kUnd), TcdMark::kUe);
	EXPECT_EQ(q->bytes(), ue);
}

TEST(TcdMark, CeIsNeverDowngraded)
{
	std::vector<uint8_t> in = udp_frame(1, 2, 0x6b, 200);
	for (TcdState s : {kNon, kUnd, kCong}) {
		auto p = Packet::parse(in);
		ASSERT_TRUE(p);
		EXPECT_EQ(tcd_mark(*p, s), TcdMark::kCeIn) << to_string(s);
		EXPECT_EQ(p->bytes(), in) << to_string(s);
	}
}

TEST(TcdMark, NotEctAndNonIpAreNeverMarked)
{
	std::vector<uint8_t> arp(60, 0);
	arp[12] = 0x08;
	arp[13] = 0x06;
	for (const std::vector<uint8_t> &in :
	     {udp_frame(1, 2, kTosDataNotEct, 200), udp_frame(1, 2, kTosCnp, 200), a1(), arp}) {
		for (TcdState s : {kNon, kUnd, kCong}) {
			auto p = Packet::parse(in);
			ASSERT_TRUE(p);
			EXPECT_EQ(tcd_mark(*p, s), TcdMark::kNotEct) << to_string(s);
			EXPECT_EQ(p->bytes(), in) << to_string(s);
		}
	}
}

TEST(TcdMark, NonCongestionLeavesEctAlone)
{
	std::vector<uint8_t> in = udp_frame(1, 2, 0x6a, 200);
	auto p = Packet::parse(in);
	ASSERT_TRUE(p);
	EXPECT_EQ(tcd_mark(*p, kNon), TcdMark::kNo);
	EXPECT_EQ(p->bytes(), in);
}

// A real RoCEv2 packet (wire.md W1): only TOS and the checksum change, so
// the ICRC, which masks the TOS byte, stays valid.
TEST(TcdMark, RoceW1KeepsEverythingButTosAndChecksum)
{
	std::vector<uint8_t> in = w1();
	ASSERT_TRUE(ipv4_checksum_ok(in));
	for (auto [s, tos] : {std::pair{kUnd, 0x69}, std::pair{kCong, 0x6b}}) {
		auto p = Packet::parse(in);
		ASSERT_TRUE(p);
		tcd_mark(*p, s);
		EXPECT_EQ(tos_of(p->bytes()), tos);
		EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
		EXPECT_TRUE(only_tos_and_checksum_differ(in, p->bytes()));
	}
	// Marked UE, then CE by a later hop: 0x6a -> 0x69 -> 0x6b.
	auto p = Packet::parse(in);
	ASSERT_TRUE(p);
	tcd_mark(*p, kUnd);
	EXPECT_EQ(tcd_mark(*p, kCong), TcdMark::kCe);
	EXPECT_EQ(tos_of(p->bytes()), 0x6b);
	EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
	// Checksum 0x2634 of W1 with TOS 0x6b (recomputed, not incremental).
	std::vector<uint8_t> ce = in;
	ce[15] = 0x6b;
	uint16_t full = ipv4_header_checksum(ce.data() + 14, 20);
	EXPECT_EQ(p->bytes()[24], full >> 8);
	EXPECT_EQ(p->bytes()[25], full & 0xff);
}

TEST(TcdMark, Ipv6TrafficClass)
{
	std::vector<uint8_t> in = ipv6_udp(0x6a);
	auto p = Packet::parse(in);
	ASSERT_TRUE(p);
	ASSERT_TRUE(p->info().ipv6);
	EXPECT_EQ(tcd_mark(*p, kUnd), TcdMark::kUe);
	EXPECT_EQ(ipv6_tc(p->bytes()), 0x69);
	EXPECT_EQ(p->bytes()[15] & 0x0f, 0x0a); // the flow label is kept
	EXPECT_EQ(tcd_mark(*p, kCong), TcdMark::kCe);
	EXPECT_EQ(ipv6_tc(p->bytes()), 0x6b);
	std::vector<uint8_t> want = ipv6_udp(0x6b);
	EXPECT_EQ(p->bytes(), want);
	auto n = Packet::parse(ipv6_udp(0x68));
	ASSERT_TRUE(n);
	EXPECT_EQ(tcd_mark(*n, kCong), TcdMark::kNotEct);
	EXPECT_EQ(n->bytes(), ipv6_udp(0x68));
}

// ---- The feature -----------------------------------------------------------

namespace
{

SwitchConfig tcd_switch(int nports = 3)
{
	SwitchConfig c;
	c.name = "s";
	c.buffer_bytes = 1000000;
	for (int i = 0; i < nports; i++) {
		PortConfig p;
		p.name = "p" + std::to_string(i);
		p.rate_bps = 100000000; // 1000-byte frame: 1024 wire bytes, 81.92 us
		c.ports.push_back(p);
		IpRoute r;
		r.prefix = IpAddr::v4(10, 0, 0, static_cast<uint8_t>(i));
		r.prefix_len = 32;
		r.port = i;
		c.routes.push_back(r);
	}
	c.ports[2].tcd[3] = params();
	return c;
}

// Runs the marker at dequeue on a packet with the given TOS, queue q left
// behind it, at now; returns the TOS afterwards.
uint8_t dequeue(TcdMarker &m, int port, int prio, uint8_t tos, uint64_t q, Time now,
                FeatureCounters &fc)
{
	auto p = Packet::parse(udp_frame(1, 2, tos, 200));
	EXPECT_TRUE(p);
	QueueView v;
	v.port = port;
	v.priority = prio;
	v.bytes = q;
	SplitMix64 rng(1);
	std::vector<EmittedFrame> em;
	FeatureContext ctx(*p, 1, v, now, rng, fc, em);
	m.on_enqueue(ctx); // does nothing at enqueue
	m.on_dequeue(ctx);
	EXPECT_TRUE(em.empty());
	EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
	return tos_of(p->bytes());
}

} // namespace

TEST(TcdMarker, CountsEveryDequeuedPacketOnce)
{
	TcdMarker m(tcd_switch());
	EXPECT_TRUE(m.enabled(2, 3));
	EXPECT_FALSE(m.enabled(2, 0));
	EXPECT_FALSE(m.enabled(1, 3));
	EXPECT_FALSE(m.enabled(3, 3));
	EXPECT_TRUE(m.any(2));
	EXPECT_FALSE(m.any(0));
	FeatureCounters fc;
	// NONCONGESTION.
	EXPECT_EQ(dequeue(m, 2, 3, 0x6a, 0, 10, fc), 0x6a);
	EXPECT_EQ(dequeue(m, 2, 3, 0x68, 0, 20, fc), 0x68);
	// CONGESTION.
	EXPECT_EQ(dequeue(m, 2, 3, 0x6a, 9000, 30, fc), 0x6b);
	EXPECT_EQ(dequeue(m, 2, 3, 0x69, 9000, 40, fc), 0x6b);
	EXPECT_EQ(dequeue(m, 2, 3, 0x68, 9000, 50, fc), 0x68);
	EXPECT_EQ(dequeue(m, 2, 3, 0x6b, 9000, 60, fc), 0x6b);
	// UNDETERMINED.
	m.pause_change(2, 3, true, 9000, 70);
	m.pause_change(2, 3, false, 9000, 80);
	EXPECT_EQ(dequeue(m, 2, 3, 0x6a, 8000, 90, fc), 0x69);
	EXPECT_EQ(dequeue(m, 2, 3, 0x6b, 8000, 100, fc), 0x6b);
	EXPECT_EQ(dequeue(m, 2, 3, 0x68, 8000, 110, fc), 0x68);
	// Other queues are not TCD's, whatever their state.
	m.pause_change(2, 0, true, 0, 120);
	m.pause_change(1, 3, true, 0, 120);
	EXPECT_EQ(dequeue(m, 2, 0, 0x6a, 90000, 130, fc), 0x6a);
	EXPECT_EQ(dequeue(m, 1, 3, 0x6a, 90000, 140, fc), 0x6a);

	TcdStatus st = m.status(2, 3, 200);
	ASSERT_TRUE(st.enabled);
	EXPECT_EQ(st.state, kUnd);
	EXPECT_EQ(st.params.threshold, kThr);
	EXPECT_EQ(st.counters.ce, 2u);
	EXPECT_EQ(st.counters.ue, 1u);
	EXPECT_EQ(st.counters.no, 1u);
	EXPECT_EQ(st.counters.ce_in, 2u);
	EXPECT_EQ(st.counters.not_ect, 3u);
	EXPECT_EQ(fc.ecn_marks, 2u); // CE marks are ECN marks too
	EXPECT_EQ(st.time_ns[0] + st.time_ns[1] + st.time_ns[2], 200u);
	EXPECT_FALSE(m.status(2, 0, 200).enabled);
	EXPECT_EQ(m.status(2, 0, 200).counters.not_ect, 0u);
}

// ---- Through a switch ------------------------------------------------------

// Ten 1000-byte frames arrive together at an idle port: the queue builds
// without a pause, so the packets that leave more than thr behind are CE.
TEST(TcdSwitch, QueueWithoutPauseIsCongestion)
{
	Switch sw(tcd_switch());
	for (int i = 0; i < 10; i++)
		sw.on_ingress(1, udp_frame(1, 2, kTosData, 1000), 0);
	std::vector<Transmission> out = data_out(run_all(sw), 2);
	ASSERT_EQ(out.size(), 10u);
	// The first leaves before the second arrives (events at the time of
	// an arrival go first), then 8000, 7000, ..., 0 are left behind;
	// thr = 3000.
	for (size_t k = 0; k < 10; k++) {
		EXPECT_EQ(tos_of(out[k].frame), k >= 1 && k <= 5 ? 0x6b : 0x6a) << k;
		EXPECT_TRUE(ipv4_checksum_ok(out[k].frame)) << k;
	}
	TcdStatus st = sw.tcd_status(2, 3, out.back().end_ns);
	EXPECT_EQ(st.state, kNon);
	EXPECT_EQ(st.counters.ce, 5u);
	EXPECT_EQ(st.counters.no, 5u);
	EXPECT_EQ(st.counters.ue, 0u);
	EXPECT_EQ(st.counters.entered[static_cast<size_t>(kCong)], 1u);
	EXPECT_EQ(st.counters.entered[static_cast<size_t>(kNon)], 1u);
	EXPECT_EQ(st.time_ns[static_cast<size_t>(kCong)], out[6].start_ns - out[1].start_ns);
	EXPECT_EQ(sw.queue_status(2, 3, 0).counters.ecn_marks, 5u);
	EXPECT_FALSE(sw.tcd_status(1, 3, 0).enabled);
}

// PAUSE from downstream holds the queue: the first packets after RESUME
// are UE; ON for longer than max_Ton (100 us) with the queue still above
// thr makes the port a congestion port: CE.
TEST(TcdSwitch, PauseResumeThenMaxTon)
{
	Switch sw(tcd_switch());
	sw.on_ingress(2, pause_frame(3, 0xffff), 0); // XOFF prio 3 on the egress port
	for (int i = 0; i < 10; i++)
		sw.on_ingress(1, udp_frame(1, 2, kTosData, 1000), 1000);
	// Paused: nothing of priority 3 leaves.
	EXPECT_TRUE(data_out(sw.poll(500000), 2).empty());
	EXPECT_EQ(sw.tcd_status(2, 3, 500000).state, kUnd);
	const Time on = 600000;
	sw.on_ingress(2, pause_frame(3, 0), on); // XON
	std::vector<Transmission> out = data_out(run_all(sw), 2);
	ASSERT_EQ(out.size(), 10u);
	EXPECT_EQ(out[0].start_ns, on);
	// Departures every 81.92 us: UE at on + 0 and on + 81.92 us, CE from
	// on + 163.84 us (> 100 us) while more than 3000 bytes are left.
	const uint8_t want[] = {0x69, 0x69, 0x6b, 0x6b, 0x6b, 0x6b, 0x6a, 0x6a, 0x6a, 0x6a};
	for (size_t k = 0; k < 10; k++) {
		EXPECT_EQ(tos_of(out[k].frame), want[k]) << k << " at " << out[k].start_ns - on;
		EXPECT_TRUE(ipv4_checksum_ok(out[k].frame)) << k;
	}
	EXPECT_LE(out[1].start_ns - on, kMaxTon);
	EXPECT_GT(out[2].start_ns - on, kMaxTon);
	TcdStatus st = sw.tcd_status(2, 3, out.back().end_ns);
	EXPECT_EQ(st.counters.ue, 2u);
	EXPECT_EQ(st.counters.ce, 4u);
	EXPECT_EQ(st.counters.no, 4u);
	EXPECT_EQ(st.counters.entered[static_cast<size_t>(kUnd)], 1u);
	EXPECT_EQ(st.counters.entered[static_cast<size_t>(kCong)], 1u);
	EXPECT_EQ(st.counters.entered[static_cast<size_t>(kNon)], 1u);
	// UNDETERMINED from the pause (t = 0) to the third departure.
	EXPECT_EQ(st.time_ns[static_cast<size_t>(kUnd)], out[2].start_ns);
	EXPECT_EQ(sw.queue_status(2, 3, 0).counters.ecn_marks, 4u);
}

// A pause that runs out is a RESUME too; Not-ECT packets are never marked
// and CE stays CE while undetermined.
TEST(TcdSwitch, PauseExpiryNotEctAndCe)
{
	Switch sw(tcd_switch());
	// 100 quanta at 100 Mbit/s: 100 * 512 bit times = 512 us.
	sw.on_ingress(2, pause_frame(3, 100), 0);
	const uint8_t tos[] = {kTosData, 0x6b, kTosDataNotEct, kTosData, kTosData, kTosData};
	for (uint8_t t : tos)
		sw.on_ingress(1, udp_frame(1, 2, t, 1000), 1000);
	EXPECT_EQ(sw.tcd_status(2, 3, 1000).state, kUnd);
	std::vector<Transmission> out = data_out(run_all(sw), 2);
	ASSERT_EQ(out.size(), 6u);
	EXPECT_EQ(out[0].start_ns, 512000u);
	// Left behind 5000, 4000 (UNDETERMINED: UE, CE kept), then 3000
	// (NONCONGESTION: Not-ECT as it was), 2000 ...: NO.
	const uint8_t want[] = {0x69, 0x6b, kTosDataNotEct, 0x6a, 0x6a, 0x6a};
	for (size_t k = 0; k < 6; k++)
		EXPECT_EQ(tos_of(out[k].frame), want[k]) << k;
	TcdStatus st = sw.tcd_status(2, 3, out.back().end_ns);
	EXPECT_EQ(st.counters.ue, 1u);
	EXPECT_EQ(st.counters.not_ect, 1u);
	EXPECT_EQ(st.counters.ce_in, 1u);
	EXPECT_EQ(st.counters.no, 3u);
	EXPECT_EQ(st.counters.ce, 0u);
	EXPECT_EQ(sw.queue_status(2, 3, 0).counters.ecn_marks, 0u);
}

// A port without TCD (and TCD's port at other priorities) forwards
// byte-identical frames however long its queue.
TEST(TcdSwitch, OtherQueuesPassUntouched)
{
	Switch sw(tcd_switch());
	std::vector<uint8_t> data = udp_frame(2, 1, kTosData, 1000);
	std::vector<uint8_t> be = udp_frame(1, 2, 0x02, 1000); // DSCP 0 ECT(0): prio 0
	for (int i = 0; i < 10; i++) {
		sw.on_ingress(2, data, 0);
		sw.on_ingress(1, be, 0);
	}
	int n = 0;
	for (const Transmission &tx : run_all(sw)) {
		EXPECT_EQ(tx.frame, tx.port == 1 ? data : be);
		n++;
	}
	EXPECT_EQ(n, 20);
}

// ---- Configuration ---------------------------------------------------------

namespace
{

const std::string kTwoPorts = "switch s0 buffer=1MB\n"
			      "port s0:a rate=100M delay=1us\n"
			      "port s0:b rate=100M delay=1us\n";

} // namespace

TEST(TcdConfig, Directive)
{
	TopologyResult r = parse_topology(kTwoPorts + "tcd s0:* prio=3 thr=3KB max_ton=100us\n"
	                                              "tcd s0:b prio=3,5 thr=8KiB max_ton=1.5ms\n"
	                                              "ecn s0:a prio=5 kmin=1KB kmax=2KB pmax=1\n");
	ASSERT_TRUE(r) << r.error.to_string();
	const SwitchConfig &s = r.topology->switches[0];
	const TcdParams &a3 = s.ports[0].tcd[3], &b3 = s.ports[1].tcd[3], &b5 = s.ports[1].tcd[5];
	EXPECT_TRUE(a3.enabled);
	EXPECT_EQ(a3.threshold, 3000u);
	EXPECT_EQ(a3.max_ton_ns, 100000u);
	EXPECT_TRUE(b3.enabled); // the later line overrides
	EXPECT_EQ(b3.threshold, 8192u);
	EXPECT_EQ(b3.max_ton_ns, 1500000u);
	EXPECT_TRUE(b5.enabled);
	EXPECT_FALSE(s.ports[0].tcd[5].enabled);
	EXPECT_TRUE(s.ports[0].red[5].enabled); // another queue of the port
	EXPECT_FALSE(s.ports[0].tcd[0].enabled);
	Switch sw(s);
	EXPECT_TRUE(sw.tcd_status(1, 5, 0).enabled);
	EXPECT_FALSE(sw.tcd_status(0, 5, 0).enabled);

	TopologyResult all = parse_topology(kTwoPorts + "tcd *:* prio=* thr=1 max_ton=0\n");
	ASSERT_TRUE(all) << all.error.to_string();
	for (const PortConfig &p : all.topology->switches[0].ports)
		for (const TcdParams &t : p.tcd) {
			EXPECT_TRUE(t.enabled);
			EXPECT_EQ(t.threshold, 1u);
			EXPECT_EQ(t.max_ton_ns, 0u);
		}
}

TEST(TcdConfig, BadDirectivesNameTheLine)
{
	struct Bad {
		std::string line;
		int at;
		std::string message;
	};
	const Bad cases[] = {
		{"tcd s0:a prio=3 thr=0 max_ton=10us\n", 4, "thr must be between 1 byte and 1 TiB"},
		{"tcd s0:a prio=3 thr=2TiB max_ton=10us\n", 4,
	         "thr must be between 1 byte and 1 TiB"},
		{"tcd s0:a prio=3 thr=lots max_ton=10us\n", 4, "thr: "},
		{"tcd s0:a prio=3 thr=3KB max_ton=10\n", 4, "max_ton: "},
		{"tcd s0:a prio=3 thr=3KB max_ton=soon\n", 4, "max_ton: "},
		{"tcd s0:a prio=3 thr=3KB max_ton=11s\n", 4, "max_ton above 10 s"},
		{"tcd s0:a prio=8 thr=3KB max_ton=10us\n", 4, "priority '8' is not 0..7"},
		{"tcd s0:a prio=x thr=3KB max_ton=10us\n", 4, "priority 'x' is not 0..7"},
		{"tcd s0:c prio=3 thr=3KB max_ton=10us\n", 4, "'s0:c' matches no declared port"},
		{"tcd s1:a prio=3 thr=3KB max_ton=10us\n", 4, "unknown switch 's1'"},
		{"tcd s0 prio=3 thr=3KB max_ton=10us\n", 4, "expected switch:port, got 's0'"},
		{"tcd s0:a prio=3 max_ton=10us\n", 4, "missing attribute 'thr'"},
		{"tcd s0:a prio=3 thr=3KB\n", 4, "missing attribute 'max_ton'"},
		{"tcd s0:a thr=3KB max_ton=10us\n", 4, "missing attribute 'prio'"},
		{"tcd s0:a prio=3 thr=3KB max_ton=10us kmin=1\n", 4, "unknown attribute 'kmin'"},
		{"tcd s0:a prio=3 thr=3KB thr=4KB max_ton=10us\n", 4,
	         "attribute 'thr' given twice"},
		{"tcd\n", 4, "too few words; usage: tcd TARGET prio=LIST thr=SIZE max_ton=TIME"},
		// One marking mode per (port, priority), whichever comes first.
		{"ecn s0:* prio=3 kmin=1KB kmax=2KB pmax=1\n"
	         "tcd s0:b prio=2,3 thr=3KB max_ton=10us\n",
	         5,
	         "TCD on s0:b priority 3: line 4 set ECN marking there (one marking mode per port "
	         "and priority)"},
		{"\ntcd *:* prio=3 thr=3KB max_ton=10us\n"
	         "ecn s0:a prio=3 kmin=1KB kmax=2KB pmax=1\n",
	         6, "ECN on s0:a priority 3: line 5 set TCD marking there"},
	};
	for (const Bad &c : cases) {
		TopologyResult r = parse_topology(kTwoPorts + c.line);
		EXPECT_FALSE(r) << c.line;
		EXPECT_FALSE(r.topology.has_value());
		EXPECT_EQ(r.error.line, c.at) << c.line << r.error.to_string();
		EXPECT_EQ(r.error.message.rfind(c.message, 0), 0u)
			<< c.line << "\ngot: " << r.error.message;
	}
	// The same modes on different queues are fine.
	EXPECT_TRUE(parse_topology(kTwoPorts + "ecn s0:a prio=3 kmin=1KB kmax=2KB pmax=1\n"
	                                       "tcd s0:b prio=3 thr=3KB max_ton=10us\n"
	                                       "tcd s0:a prio=4 thr=3KB max_ton=10us\n"));
	// The unknown-directive message lists tcd.
	TopologyResult u = parse_topology(kTwoPorts + "tdc s0:a\n");
	ASSERT_FALSE(u);
	EXPECT_NE(u.error.message.find(" ecn, tcd, npecn, pfc,"), std::string::npos)
		<< u.error.message;
}

TEST(TcdConfig, ValidateRejectsBadConfigs)
{
	SwitchConfig c = tcd_switch();
	EXPECT_EQ(validate(c), "");
	SwitchConfig both = c;
	both.ports[2].red[3].enabled = true;
	both.ports[2].red[3].kmin = 1000;
	both.ports[2].red[3].kmax = 2000;
	EXPECT_EQ(validate(both), "switch s: port p2: priority 3: both ECN (RED) and TCD "
	                          "marking (one marking mode per queue)");
	EXPECT_THROW(Switch{both}, std::invalid_argument);
	SwitchConfig zero = c;
	zero.ports[2].tcd[3].threshold = 0;
	EXPECT_EQ(validate(zero),
	          "switch s: port p2: priority 3: TCD threshold must be between 1 byte and 1 TiB");
	SwitchConfig slow = c;
	slow.ports[2].tcd[3].max_ton_ns = kMaxTcdMaxTonNs + 1;
	EXPECT_EQ(validate(slow), "switch s: port p2: priority 3: TCD max_ton above 10 s");
	// Disabled parameters are not checked.
	SwitchConfig off = c;
	off.ports[1].tcd[3].threshold = 0;
	EXPECT_EQ(validate(off), "");
}
