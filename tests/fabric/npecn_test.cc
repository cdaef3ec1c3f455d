// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// NP-ECN marking (npecn.h; specs/pcn.md §2.2, §4.3, §7 items 6, 8, 14):
// the per-queue rule (PAUSE, RESUME, PN, threshold K) on its own, the
// marks (CE on ECT only; Not-ECT and CE untouched) with their checksums,
// the feature's counters, a switch driven through PAUSE, RESUME, pause
// expiry and a second PAUSE, and the configuration (the npecn directive,
// one marking mode per queue, validate()).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "npecn.h"
#include "switch_model.h"
#include "test_frames.h"
#include "test_switch.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

NpEcnParams params(uint64_t k = 0)
{
	NpEcnParams p;
	p.enabled = true;
	p.k = k;
	return p;
}

constexpr NpEcnVerdict kPaused = NpEcnVerdict::kPaused;
constexpr NpEcnVerdict kMark = NpEcnVerdict::kMark;
constexpr NpEcnVerdict kClear = NpEcnVerdict::kClear;

constexpr uint8_t kEct0 = 0x6a; // DSCP 26 (priority 3), ECT(0)
constexpr uint8_t kEct1 = 0x69; // ECT(1)
constexpr uint8_t kCe = 0x6b;
constexpr uint8_t kNotEct = 0x68;

} // namespace

// ---- The rule of one queue -------------------------------------------------

TEST(NpEcnQueue, EmptyQueueBehindIsNeverMarked)
{
	NpEcnQueue q(params());
	EXPECT_FALSE(q.paused());
	EXPECT_EQ(q.pn(), 0u);
	for (int i = 0; i < 5; i++)
		EXPECT_EQ(q.on_dequeue(0), kClear) << i;
}

TEST(NpEcnQueue, BacklogWithoutPauseIsMarked)
{
	NpEcnQueue q(params());
	EXPECT_EQ(q.on_dequeue(1), kMark);
	EXPECT_EQ(q.on_dequeue(64), kMark);
	EXPECT_EQ(q.on_dequeue(1000000), kMark);
	EXPECT_EQ(q.on_dequeue(0), kClear);
	EXPECT_EQ(q.pn(), 0u);
}

TEST(NpEcnQueue, ResumeExemptsThePacketsThePauseHeld)
{
	NpEcnQueue q(params());
	q.on_pause_change(true, 2); // PAUSE: PN unchanged
	EXPECT_TRUE(q.paused());
	EXPECT_EQ(q.pn(), 0u);
	q.on_pause_change(false, 5); // RESUME with 5 packets waiting
	EXPECT_FALSE(q.paused());
	EXPECT_EQ(q.pn(), 5u);
	// The five leave unmarked whatever is behind them.
	for (int i = 0; i < 5; i++) {
		EXPECT_EQ(q.on_dequeue(100000), kPaused) << i;
		EXPECT_EQ(q.pn(), static_cast<uint64_t>(4 - i));
	}
	// Then the ordinary rule.
	EXPECT_EQ(q.on_dequeue(100000), kMark);
	EXPECT_EQ(q.on_dequeue(0), kClear);
	EXPECT_EQ(q.counters().pauses, 1u);
	EXPECT_EQ(q.counters().resumes, 1u);
}

TEST(NpEcnQueue, PnIsUsedUpEvenWithNothingBehind)
{
	NpEcnQueue q(params());
	q.on_pause_change(true, 3);
	q.on_pause_change(false, 3);
	EXPECT_EQ(q.on_dequeue(2000), kPaused);
	EXPECT_EQ(q.on_dequeue(0), kPaused); // an empty queue behind: PN still
	EXPECT_EQ(q.pn(), 1u);
	EXPECT_EQ(q.on_dequeue(0), kPaused);
	EXPECT_EQ(q.pn(), 0u);
	EXPECT_EQ(q.on_dequeue(0), kClear);
}

TEST(NpEcnQueue, SecondPauseKeepsPnAndTheNextResumeOverwritesIt)
{
	NpEcnQueue q(params());
	q.on_pause_change(true, 5);
	q.on_pause_change(false, 5);
	EXPECT_EQ(q.on_dequeue(4000), kPaused);
	EXPECT_EQ(q.on_dequeue(3000), kPaused);
	q.on_pause_change(true, 3); // PN 3 left: kept
	EXPECT_TRUE(q.paused());
	EXPECT_EQ(q.pn(), 3u);
	q.on_pause_change(false, 7); // 3 old + 4 new: overwritten, not added
	EXPECT_EQ(q.pn(), 7u);
	// A RESUME with fewer packets than PN lowers it.
	q.on_pause_change(true, 7);
	q.on_pause_change(false, 2);
	EXPECT_EQ(q.pn(), 2u);
	EXPECT_EQ(q.on_dequeue(1000), kPaused);
	EXPECT_EQ(q.on_dequeue(1000), kPaused);
	EXPECT_EQ(q.on_dequeue(1000), kMark);
	EXPECT_EQ(q.counters().pauses, 3u);
	EXPECT_EQ(q.counters().resumes, 3u);
}

TEST(NpEcnQueue, RepeatedPauseOrResumeIsNoEvent)
{
	NpEcnQueue q(params());
	q.on_pause_change(false, 9); // a RESUME while not paused: nothing
	EXPECT_EQ(q.pn(), 0u);
	EXPECT_EQ(q.counters().resumes, 0u);
	q.on_pause_change(true, 9);
	q.on_pause_change(true, 9); // a refreshed pause
	EXPECT_EQ(q.counters().pauses, 1u);
	q.on_pause_change(false, 4);
	q.on_pause_change(false, 8); // no second RESUME
	EXPECT_EQ(q.pn(), 4u);
	EXPECT_EQ(q.counters().resumes, 1u);
}

TEST(NpEcnQueue, ThresholdK)
{
	NpEcnQueue q(params(3000));
	EXPECT_EQ(q.on_dequeue(0), kClear);
	EXPECT_EQ(q.on_dequeue(3000), kClear); // not > K
	EXPECT_EQ(q.on_dequeue(3001), kMark);
	EXPECT_EQ(q.on_dequeue(50000), kMark);
	q.on_pause_change(true, 1);
	q.on_pause_change(false, 1);
	EXPECT_EQ(q.on_dequeue(50000), kPaused); // PN goes before K
	EXPECT_EQ(q.on_dequeue(50000), kMark);
}

// ---- Marks -----------------------------------------------------------------

TEST(NpEcnMark, MarkSetsEctToCe)
{
	for (uint8_t tos : {kEct0, kEct1}) {
		std::vector<uint8_t> in = udp_frame(1, 2, tos, 200);
		auto p = Packet::parse(in);
		ASSERT_TRUE(p);
		EXPECT_EQ(npecn_mark(*p, kMark), NpEcnMark::kMarked);
		EXPECT_EQ(tos_of(p->bytes()), kCe) << int{tos};
		EXPECT_EQ(p->info().ecn, Ecn::kCe);
		EXPECT_EQ(p->info().dscp, 26);
		EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
		EXPECT_TRUE(only_tos_and_checksum_differ(in, p->bytes()));
	}
}

TEST(NpEcnMark, PausedAndClearLeaveEctAlone)
{
	for (uint8_t tos : {kEct0, kEct1}) {
		std::vector<uint8_t> in = udp_frame(1, 2, tos, 200);
		auto p = Packet::parse(in);
		ASSERT_TRUE(p);
		EXPECT_EQ(npecn_mark(*p, kPaused), NpEcnMark::kPausedExempt);
		EXPECT_EQ(p->bytes(), in);
		EXPECT_EQ(npecn_mark(*p, kClear), NpEcnMark::kUnmarked);
		EXPECT_EQ(p->bytes(), in);
	}
}

TEST(NpEcnMark, CeStaysCe)
{
	std::vector<uint8_t> in = udp_frame(1, 2, kCe, 200);
	for (NpEcnVerdict v : {kPaused, kMark, kClear}) {
		auto p = Packet::parse(in);
		ASSERT_TRUE(p);
		EXPECT_EQ(npecn_mark(*p, v), NpEcnMark::kCeIn);
		EXPECT_EQ(p->bytes(), in);
	}
}

TEST(NpEcnMark, NotEctAndNonIpAreNeverMarked)
{
	std::vector<uint8_t> arp(60, 0);
	arp[12] = 0x08;
	arp[13] = 0x06;
	for (const std::vector<uint8_t> &in :
	     {udp_frame(1, 2, kNotEct, 200), udp_frame(1, 2, kTosCnp, 200), a1(), arp}) {
		for (NpEcnVerdict v : {kPaused, kMark, kClear}) {
			auto p = Packet::parse(in);
			ASSERT_TRUE(p);
			EXPECT_EQ(npecn_mark(*p, v), NpEcnMark::kNotEct);
			EXPECT_EQ(p->bytes(), in);
		}
	}
}

// A real RoCEv2 packet (wire.md W1): only TOS and the checksum change, so
// the ICRC, which masks the TOS byte, stays valid; the incremental
// checksum equals a full recomputation.
TEST(NpEcnMark, RoceW1KeepsEverythingButTosAndChecksum)
{
	std::vector<uint8_t> in = w1();
	ASSERT_TRUE(ipv4_checksum_ok(in));
	auto p = Packet::parse(in);
	ASSERT_TRUE(p);
	EXPECT_EQ(npecn_mark(*p, kMark), NpEcnMark::kMarked);
	EXPECT_EQ(tos_of(p->bytes()), kCe);
	EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
	EXPECT_TRUE(only_tos_and_checksum_differ(in, p->bytes()));
	std::vector<uint8_t> ce = in;
	ce[15] = kCe;
	uint16_t full = ipv4_header_checksum(ce.data() + 14, 20);
	EXPECT_EQ(p->bytes()[24], full >> 8);
	EXPECT_EQ(p->bytes()[25], full & 0xff);
}

TEST(NpEcnMark, Ipv6TrafficClass)
{
	auto p = Packet::parse(ipv6_udp(kEct0));
	ASSERT_TRUE(p);
	ASSERT_TRUE(p->info().ipv6);
	EXPECT_EQ(npecn_mark(*p, kMark), NpEcnMark::kMarked);
	EXPECT_EQ(ipv6_tc(p->bytes()), kCe);
	EXPECT_EQ(p->bytes(), ipv6_udp(kCe)); // the flow label is kept
	auto n = Packet::parse(ipv6_udp(kNotEct));
	ASSERT_TRUE(n);
	EXPECT_EQ(npecn_mark(*n, kMark), NpEcnMark::kNotEct);
	EXPECT_EQ(n->bytes(), ipv6_udp(kNotEct));
}

// ---- The feature -----------------------------------------------------------

namespace
{

// Three ports at 100 Mbit/s (a 1000-byte frame: 1024 wire bytes, 81.92
// us); 10.0.0.i is out of port i; NP-ECN on port 2, priority 3.
SwitchConfig npecn_switch(uint64_t k = 0)
{
	SwitchConfig c;
	c.name = "s";
	c.buffer_bytes = 1000000;
	for (int i = 0; i < 3; i++) {
		PortConfig p;
		p.name = "p" + std::to_string(i);
		p.rate_bps = 100000000;
		c.ports.push_back(p);
		IpRoute r;
		r.prefix = IpAddr::v4(10, 0, 0, static_cast<uint8_t>(i));
		r.prefix_len = 32;
		r.port = i;
		c.routes.push_back(r);
	}
	c.ports[2].npecn[3] = params(k);
	return c;
}

// Runs the marker at dequeue on a packet with the given TOS, q bytes left
// behind it; returns the TOS afterwards.
uint8_t dequeue(NpEcnMarker &m, int port, int prio, uint8_t tos, uint64_t q, FeatureCounters &fc)
{
	auto p = Packet::parse(udp_frame(1, 2, tos, 200));
	EXPECT_TRUE(p);
	QueueView v;
	v.port = port;
	v.priority = prio;
	v.bytes = q;
	SplitMix64 rng(1);
	std::vector<EmittedFrame> em;
	FeatureContext ctx(*p, 1, v, 0, rng, fc, em);
	m.on_enqueue(ctx); // does nothing at enqueue
	m.on_dequeue(ctx);
	EXPECT_TRUE(em.empty());
	EXPECT_TRUE(ipv4_checksum_ok(p->bytes()));
	return tos_of(p->bytes());
}

uint64_t sum(const NpEcnCounters &c)
{
	return c.marked + c.paused_exempt + c.unmarked + c.ce_in + c.not_ect;
}

} // namespace

TEST(NpEcnMarker, CountsEveryDequeuedPacketOnce)
{
	NpEcnMarker m(npecn_switch());
	EXPECT_TRUE(m.enabled(2, 3));
	EXPECT_FALSE(m.enabled(2, 0));
	EXPECT_FALSE(m.enabled(1, 3));
	EXPECT_FALSE(m.enabled(3, 3));
	EXPECT_FALSE(m.enabled(-1, 3));
	EXPECT_TRUE(m.any(2));
	EXPECT_FALSE(m.any(0));
	FeatureCounters fc;
	// Nothing behind: unmarked.
	EXPECT_EQ(dequeue(m, 2, 3, kEct0, 0, fc), kEct0);
	EXPECT_EQ(dequeue(m, 2, 3, kNotEct, 0, fc), kNotEct);
	// A queue behind: CE.
	EXPECT_EQ(dequeue(m, 2, 3, kEct0, 9000, fc), kCe);
	EXPECT_EQ(dequeue(m, 2, 3, kEct1, 9000, fc), kCe);
	EXPECT_EQ(dequeue(m, 2, 3, kNotEct, 9000, fc), kNotEct);
	EXPECT_EQ(dequeue(m, 2, 3, kCe, 9000, fc), kCe);
	// Four packets held by a pause: a Not-ECT and a CE one use up PN too.
	m.pause_change(2, 3, true, 4);
	m.pause_change(2, 3, false, 4);
	EXPECT_EQ(m.status(2, 3).pn, 4u);
	EXPECT_EQ(dequeue(m, 2, 3, kEct0, 9000, fc), kEct0);
	EXPECT_EQ(dequeue(m, 2, 3, kNotEct, 8000, fc), kNotEct);
	EXPECT_EQ(dequeue(m, 2, 3, kCe, 7000, fc), kCe);
	EXPECT_EQ(dequeue(m, 2, 3, kEct1, 6000, fc), kEct1);
	EXPECT_EQ(dequeue(m, 2, 3, kEct1, 5000, fc), kCe);
	// Other queues are not NP-ECN's, whatever their pauses.
	m.pause_change(2, 0, true, 0);
	m.pause_change(1, 3, true, 0);
	EXPECT_EQ(dequeue(m, 2, 0, kEct0, 90000, fc), kEct0);
	EXPECT_EQ(dequeue(m, 1, 3, kEct0, 90000, fc), kEct0);

	NpEcnStatus st = m.status(2, 3);
	ASSERT_TRUE(st.enabled);
	EXPECT_FALSE(st.paused);
	EXPECT_EQ(st.pn, 0u);
	EXPECT_EQ(st.params.k, 0u);
	EXPECT_EQ(st.counters.marked, 3u);
	EXPECT_EQ(st.counters.paused_exempt, 2u);
	EXPECT_EQ(st.counters.unmarked, 1u);
	EXPECT_EQ(st.counters.ce_in, 2u);
	EXPECT_EQ(st.counters.not_ect, 3u);
	EXPECT_EQ(st.counters.pauses, 1u);
	EXPECT_EQ(st.counters.resumes, 1u);
	EXPECT_EQ(sum(st.counters), 11u); // the eleven packets of (2, 3)
	EXPECT_EQ(fc.ecn_marks, 3u);      // CE marks are ECN marks too
	EXPECT_FALSE(m.status(2, 0).enabled);
	EXPECT_EQ(m.status(2, 0).counters.pauses, 0u);
	EXPECT_FALSE(m.status(1, 3).enabled);
}

// ---- Through a switch ------------------------------------------------------

namespace
{

// A data frame to port 2 with the given TOS and a sequence number.
std::vector<uint8_t> data(uint8_t tos, size_t len = 1000, uint16_t seq = 0)
{
	std::vector<uint8_t> f = udp_frame(1, 2, tos, len);
	f[60] = static_cast<uint8_t>(seq >> 8);
	f[61] = static_cast<uint8_t>(seq & 0xff);
	return f;
}

uint16_t seq_of(const std::vector<uint8_t> &f)
{
	return static_cast<uint16_t>(f[60] << 8 | f[61]);
}

// Every packet port 2 sent at priority 3 is in exactly one counter, and
// every CE mark is an ECN mark of the queue.
void expect_counted_once(const Switch &sw)
{
	NpEcnStatus st = sw.npecn_status(2, 3);
	QueueCounters qc = sw.queue_status(2, 3, 0).counters;
	EXPECT_EQ(sum(st.counters), qc.tx_packets);
	EXPECT_EQ(st.counters.marked, qc.ecn_marks);
}

void expect_tos(const std::vector<Transmission> &out, const std::vector<uint8_t> &want)
{
	ASSERT_EQ(out.size(), want.size());
	for (size_t k = 0; k < want.size(); k++) {
		EXPECT_EQ(tos_of(out[k].frame), want[k]) << k << " at " << out[k].start_ns;
		EXPECT_TRUE(ipv4_checksum_ok(out[k].frame)) << k;
	}
}

} // namespace

// Frames that find the link idle leave with nothing behind them: a port
// that is not congested never marks.
TEST(NpEcnSwitch, NonCongestedPortNeverMarks)
{
	Switch sw(npecn_switch());
	std::vector<Transmission> all;
	for (int i = 0; i < 20; i++) {
		// One every 100 us; each takes 81.92 us.
		Time t = static_cast<Time>(i) * 100000;
		for (Transmission &tx : sw.poll(t))
			all.push_back(std::move(tx));
		sw.on_ingress(1, data(i % 2 ? kEct1 : kEct0), t);
	}
	for (Transmission &tx : run_all(sw))
		all.push_back(std::move(tx));
	std::vector<Transmission> out = data_out(all, 2);
	ASSERT_EQ(out.size(), 20u);
	for (size_t k = 0; k < out.size(); k++)
		EXPECT_EQ(tos_of(out[k].frame), k % 2 ? kEct1 : kEct0) << k;
	NpEcnStatus st = sw.npecn_status(2, 3);
	EXPECT_EQ(st.counters.unmarked, 20u);
	EXPECT_EQ(st.counters.marked, 0u);
	expect_counted_once(sw);
}

// A queue that builds without a pause: every ECT packet with a packet
// behind it is CE (the first leaves before the second arrives; the last
// has nothing behind it).
TEST(NpEcnSwitch, CongestedPortMarksEveryEctPacket)
{
	Switch sw(npecn_switch());
	const uint8_t in[] = {kEct0, kEct0, kEct1, kEct0, kNotEct,
	                      kEct0, kEct1, kEct0, kEct0, kEct0};
	for (uint8_t tos : in)
		sw.on_ingress(1, data(tos), 0);
	std::vector<Transmission> out = data_out(run_all(sw), 2);
	expect_tos(out, {kEct0, kCe, kCe, kCe, kNotEct, kCe, kCe, kCe, kCe, kEct0});
	NpEcnStatus st = sw.npecn_status(2, 3);
	EXPECT_EQ(st.counters.marked, 7u);
	EXPECT_EQ(st.counters.unmarked, 2u);
	EXPECT_EQ(st.counters.not_ect, 1u);
	EXPECT_EQ(st.counters.paused_exempt, 0u);
	EXPECT_EQ(st.counters.resumes, 0u);
	expect_counted_once(sw);
	EXPECT_FALSE(sw.npecn_status(1, 3).enabled);
}

// PAUSE from downstream holds four packets (of different sizes: PN counts
// packets, not bytes); after the RESUME those four leave unmarked with a
// queue behind them, and the packets that arrived after the RESUME are
// marked while a packet is behind them.
TEST(NpEcnSwitch, PauseThenResumeExemptsExactlyTheHeldPackets)
{
	Switch sw(npecn_switch());
	sw.on_ingress(2, pause_frame(3, 0xffff), 0); // XOFF priority 3 at the egress port
	const size_t sizes[] = {1000, 200, 1400, 500};
	for (size_t len : sizes)
		sw.on_ingress(1, data(len == 1400 ? kEct1 : kEct0, len), 1000);
	EXPECT_TRUE(data_out(sw.poll(500000), 2).empty());
	NpEcnStatus held = sw.npecn_status(2, 3);
	EXPECT_TRUE(held.paused);
	EXPECT_EQ(held.pn, 0u);
	EXPECT_EQ(held.counters.pauses, 1u);

	const Time on = 600000;
	sw.on_ingress(2, pause_frame(3, 0), on); // XON
	NpEcnStatus resumed = sw.npecn_status(2, 3);
	EXPECT_FALSE(resumed.paused);
	EXPECT_EQ(resumed.pn, 4u);
	EXPECT_EQ(resumed.counters.resumes, 1u);
	for (int i = 0; i < 4; i++)
		sw.on_ingress(1, data(kEct0), on);
	std::vector<Transmission> out = data_out(run_all(sw), 2);
	expect_tos(out, {kEct0, kEct0, kEct1, kEct0, kCe, kCe, kCe, kEct0});
	EXPECT_EQ(out[0].start_ns, on);
	NpEcnStatus st = sw.npecn_status(2, 3);
	EXPECT_EQ(st.pn, 0u);
	EXPECT_EQ(st.counters.paused_exempt, 4u);
	EXPECT_EQ(st.counters.marked, 3u);
	EXPECT_EQ(st.counters.unmarked, 1u);
	expect_counted_once(sw);
}

// A pause that runs out is a RESUME: PN is the queue then, Not-ECT and CE
// packets use it up too (and are never changed).
TEST(NpEcnSwitch, PauseExpiryActsAsResume)
{
	Switch sw(npecn_switch());
	// 100 quanta at 100 Mbit/s: 100 * 512 bit times = 512 us.
	sw.on_ingress(2, pause_frame(3, 100), 0);
	const uint8_t held[] = {kEct0, kCe, kNotEct, kEct1, kEct0, kEct0};
	for (uint8_t tos : held)
		sw.on_ingress(1, data(tos), 1000);
	NpEcnStatus paused = sw.npecn_status(2, 3);
	EXPECT_TRUE(paused.paused);
	EXPECT_EQ(paused.pn, 0u);
	// After the expiry (512 us), while the held packets leave.
	for (int i = 0; i < 3; i++)
		sw.on_ingress(1, data(kEct0), 520000);
	NpEcnStatus after = sw.npecn_status(2, 3);
	EXPECT_FALSE(after.paused);
	EXPECT_EQ(after.pn, 5u); // 6 at the expiry, one left at once
	EXPECT_EQ(after.counters.resumes, 1u);
	std::vector<Transmission> out = data_out(run_all(sw), 2);
	expect_tos(out, {kEct0, kCe, kNotEct, kEct1, kEct0, kEct0, kCe, kCe, kEct0});
	EXPECT_EQ(out[0].start_ns, 512000u);
	NpEcnStatus st = sw.npecn_status(2, 3);
	EXPECT_EQ(st.counters.paused_exempt, 4u);
	EXPECT_EQ(st.counters.ce_in, 1u);
	EXPECT_EQ(st.counters.not_ect, 1u);
	EXPECT_EQ(st.counters.marked, 2u);
	EXPECT_EQ(st.counters.unmarked, 1u);
	EXPECT_EQ(st.counters.pauses, 1u);
	expect_counted_once(sw);
}

// A second PAUSE while PN > 0 keeps PN; the next RESUME sets it to the
// queue then (the held packets still unsent and those that came since).
TEST(NpEcnSwitch, SecondPauseKeepsPn)
{
	Switch sw(npecn_switch());
	sw.on_ingress(2, pause_frame(3, 0xffff), 0);
	for (int i = 0; i < 5; i++)
		sw.on_ingress(1, data(kEct0), 1000);
	sw.on_ingress(2, pause_frame(3, 0), 600000);
	EXPECT_EQ(sw.npecn_status(2, 3).pn, 5u);
	// Two leave (at 600 and 681.92 us); the third would start at 763.84.
	sw.on_ingress(2, pause_frame(3, 0xffff), 700000);
	NpEcnStatus again = sw.npecn_status(2, 3);
	EXPECT_TRUE(again.paused);
	EXPECT_EQ(again.pn, 3u);
	EXPECT_EQ(again.counters.pauses, 2u);
	for (int i = 0; i < 2; i++)
		sw.on_ingress(1, data(kEct1), 710000);
	sw.on_ingress(2, pause_frame(3, 0), 800000);
	EXPECT_EQ(sw.npecn_status(2, 3).pn, 5u); // 3 + 2 waiting: not 8, not 3
	for (int i = 0; i < 2; i++)
		sw.on_ingress(1, data(kEct0), 800000);
	std::vector<Transmission> out = data_out(run_all(sw), 2);
	expect_tos(out, {kEct0, kEct0, kEct0, kEct0, kEct0, kEct1, kEct1, kCe, kEct0});
	EXPECT_EQ(out[2].start_ns, 800000u);
	NpEcnStatus st = sw.npecn_status(2, 3);
	EXPECT_EQ(st.counters.paused_exempt, 7u);
	EXPECT_EQ(st.counters.marked, 1u);
	EXPECT_EQ(st.counters.unmarked, 1u);
	EXPECT_EQ(st.counters.resumes, 2u);
	expect_counted_once(sw);
}

// K: marked only with more than K bytes behind.
TEST(NpEcnSwitch, ThresholdK)
{
	for (uint64_t k : {uint64_t{0}, uint64_t{2999}, uint64_t{3000}, uint64_t{8000}}) {
		Switch sw(npecn_switch(k));
		for (int i = 0; i < 10; i++)
			sw.on_ingress(1, data(kEct0), 0);
		std::vector<Transmission> out = data_out(run_all(sw), 2);
		ASSERT_EQ(out.size(), 10u);
		// The k-th leaves (9 - k) * 1000 bytes behind it (the first
		// none).
		uint64_t marked = 0;
		for (size_t j = 0; j < 10; j++) {
			uint64_t behind = j == 0 ? 0 : (9 - j) * 1000;
			EXPECT_EQ(tos_of(out[j].frame), behind > k ? kCe : kEct0) << k << " " << j;
			marked += behind > k;
		}
		EXPECT_EQ(sw.npecn_status(2, 3).counters.marked, marked) << k;
		EXPECT_EQ(sw.npecn_status(2, 3).counters.unmarked, 10 - marked) << k;
		expect_counted_once(sw);
	}
}

// Ports and priorities without NP-ECN forward byte-identical frames
// however long their queues and whatever their pauses.
TEST(NpEcnSwitch, OtherQueuesPassUntouched)
{
	Switch sw(npecn_switch());
	sw.on_ingress(1, pause_frame(3, 0xffff), 0); // pause port 1's priority 3
	sw.on_ingress(1, pause_frame(3, 0), 1000);
	std::vector<uint8_t> back = udp_frame(2, 1, kTosData, 1000);
	std::vector<uint8_t> be = udp_frame(1, 2, 0x02, 1000); // DSCP 0 ECT(0): prio 0
	for (int i = 0; i < 10; i++) {
		sw.on_ingress(2, back, 2000);
		sw.on_ingress(1, be, 2000);
	}
	int n = 0;
	for (const Transmission &tx : run_all(sw)) {
		if (tx.priority < 0)
			continue;
		EXPECT_EQ(tx.frame, tx.port == 1 ? back : be);
		n++;
	}
	EXPECT_EQ(n, 20);
	EXPECT_EQ(sum(sw.npecn_status(2, 3).counters), 0u);
}

// A long run of random traffic, pauses, resumes and expiries: every packet
// is counted once, in the counter its TOS in and out says.
TEST(NpEcnSwitch, EveryPacketCountedOnce)
{
	Switch sw(npecn_switch());
	uint64_t x = 12345;
	auto rnd = [&x](uint64_t n) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		return (x >> 33) % n;
	};
	const uint8_t kinds[] = {kEct0, kEct1, kCe, kNotEct, kEct0, kEct0};
	std::vector<uint8_t> sent_tos;
	std::vector<Transmission> all;
	Time t = 0;
	for (uint16_t i = 0; i < 400; i++) {
		// Bursts (a frame takes 5 to 86 us) and quiet spells.
		t += rnd(4) ? rnd(30000) : rnd(400000);
		for (Transmission &tx : sw.poll(t))
			all.push_back(std::move(tx));
		switch (rnd(16)) {
		case 0: sw.on_ingress(2, pause_frame(3, 0xffff), t); break;
		case 1:
			sw.on_ingress(2, pause_frame(3, static_cast<uint16_t>(1 + rnd(400))), t);
			break;
		case 2: sw.on_ingress(2, pause_frame(3, 0), t); break;
		default: break;
		}
		uint8_t tos = kinds[rnd(6)];
		sent_tos.push_back(tos);
		sw.on_ingress(1, data(tos, 64 + rnd(1000), i), t);
	}
	sw.on_ingress(2, pause_frame(3, 0), t + 1);
	for (Transmission &tx : run_all(sw))
		all.push_back(std::move(tx));
	std::vector<Transmission> out = data_out(all, 2);
	ASSERT_EQ(out.size(), sent_tos.size());
	NpEcnCounters want;
	for (const Transmission &tx : out) {
		uint8_t in = sent_tos[seq_of(tx.frame)];
		uint8_t got = tos_of(tx.frame);
		EXPECT_TRUE(ipv4_checksum_ok(tx.frame));
		if (in == kNotEct) {
			EXPECT_EQ(got, in);
			want.not_ect++;
		} else if (in == kCe) {
			EXPECT_EQ(got, in);
			want.ce_in++;
		} else if (got == kCe) {
			want.marked++;
		} else {
			EXPECT_EQ(got, in);
			want.unmarked++; // or paused_exempt
		}
	}
	NpEcnStatus st = sw.npecn_status(2, 3);
	EXPECT_EQ(st.counters.marked, want.marked);
	EXPECT_EQ(st.counters.unmarked + st.counters.paused_exempt, want.unmarked);
	EXPECT_EQ(st.counters.ce_in, want.ce_in);
	EXPECT_EQ(st.counters.not_ect, want.not_ect);
	expect_counted_once(sw);
	EXPECT_EQ(sum(st.counters), 400u);
	EXPECT_EQ(sw.total_drops(), 0u);
	// The run exercised every case.
	EXPECT_GT(st.counters.marked, 0u);
	EXPECT_GT(st.counters.paused_exempt, 0u);
	EXPECT_GT(st.counters.unmarked, 0u);
	EXPECT_GT(st.counters.resumes, 5u);
	EXPECT_EQ(st.pn, 0u);
	EXPECT_GT(st.counters.ce_in, 0u);
	EXPECT_GT(st.counters.not_ect, 0u);
}

// ---- Configuration ---------------------------------------------------------

namespace
{

const std::string kTwoPorts = "switch s0 buffer=1MB\n"
			      "port s0:a rate=100M delay=1us\n"
			      "port s0:b rate=100M delay=1us\n";

} // namespace

TEST(NpEcnConfig, Directive)
{
	TopologyResult r = parse_topology(kTwoPorts + "npecn s0:* prio=3\n"
	                                              "npecn s0:b prio=3,5 k=1500\n"
	                                              "ecn s0:a prio=5 kmin=1KB kmax=2KB pmax=1\n"
	                                              "tcd s0:a prio=6 thr=3KB max_ton=10us\n");
	ASSERT_TRUE(r) << r.error.to_string();
	const SwitchConfig &s = r.topology->switches[0];
	const NpEcnParams &a3 = s.ports[0].npecn[3], &b3 = s.ports[1].npecn[3],
			  &b5 = s.ports[1].npecn[5];
	EXPECT_TRUE(a3.enabled);
	EXPECT_EQ(a3.k, 0u); // the default: PCN's K = 0
	EXPECT_TRUE(b3.enabled);
	EXPECT_EQ(b3.k, 1500u); // the later line overrides
	EXPECT_TRUE(b5.enabled);
	EXPECT_FALSE(s.ports[0].npecn[5].enabled);
	EXPECT_TRUE(s.ports[0].red[5].enabled); // other queues of the port
	EXPECT_TRUE(s.ports[0].tcd[6].enabled);
	EXPECT_FALSE(s.ports[0].npecn[0].enabled);
	Switch sw(s);
	EXPECT_TRUE(sw.npecn_status(1, 5).enabled);
	EXPECT_EQ(sw.npecn_status(1, 5).params.k, 1500u);
	EXPECT_FALSE(sw.npecn_status(0, 5).enabled);

	TopologyResult all = parse_topology(kTwoPorts + "npecn *:* prio=* k=64KiB\n");
	ASSERT_TRUE(all) << all.error.to_string();
	for (const PortConfig &p : all.topology->switches[0].ports)
		for (const NpEcnParams &n : p.npecn) {
			EXPECT_TRUE(n.enabled);
			EXPECT_EQ(n.k, 65536u);
		}
}

TEST(NpEcnConfig, BadDirectivesNameTheLine)
{
	struct Bad {
		std::string line;
		int at;
		std::string message;
	};
	const Bad cases[] = {
		{"npecn s0:a prio=3 k=lots\n", 4, "k: "},
		{"npecn s0:a prio=3 k=-1\n", 4, "k: "},
		{"npecn s0:a prio=3 k=2TiB\n", 4, "k above 1 TiB"},
		{"npecn s0:a prio=8\n", 4, "priority '8' is not 0..7"},
		{"npecn s0:a prio=x\n", 4, "priority 'x' is not 0..7"},
		{"npecn s0:c prio=3\n", 4, "'s0:c' matches no declared port"},
		{"npecn s1:a prio=3\n", 4, "unknown switch 's1'"},
		{"npecn s0 prio=3\n", 4, "expected switch:port, got 's0'"},
		{"npecn s0:a k=0\n", 4, "missing attribute 'prio'"},
		{"npecn s0:a prio=3 thr=3KB\n", 4, "unknown attribute 'thr'"},
		{"npecn s0:a prio=3 k=1 k=2\n", 4, "attribute 'k' given twice"},
		{"npecn s0:a prio=3 k\n", 4, "expected key=value, got 'k'"},
		{"npecn\n", 4, "too few words; usage: npecn TARGET prio=LIST [k=SIZE]"},
		// One marking mode per (port, priority), whichever comes first.
		{"ecn s0:* prio=3 kmin=1KB kmax=2KB pmax=1\n"
	         "npecn s0:b prio=2,3\n",
	         5,
	         "NP-ECN on s0:b priority 3: line 4 set ECN marking there (one marking mode per "
	         "port and priority)"},
		{"\nnpecn *:* prio=3\n"
	         "ecn s0:a prio=3 kmin=1KB kmax=2KB pmax=1\n",
	         6, "ECN on s0:a priority 3: line 5 set NP-ECN marking there"},
		{"tcd s0:b prio=3 thr=3KB max_ton=10us\n"
	         "npecn *:* prio=*\n",
	         5, "NP-ECN on s0:b priority 3: line 4 set TCD marking there"},
		{"npecn s0:b prio=*\n"
	         "ecn s0:a prio=7 kmin=1KB kmax=2KB pmax=1\n"
	         "tcd s0:b prio=7 thr=3KB max_ton=10us\n",
	         6, "TCD on s0:b priority 7: line 4 set NP-ECN marking there"},
	};
	for (const Bad &c : cases) {
		TopologyResult r = parse_topology(kTwoPorts + c.line);
		EXPECT_FALSE(r) << c.line;
		EXPECT_FALSE(r.topology.has_value());
		EXPECT_EQ(r.error.line, c.at) << c.line << r.error.to_string();
		EXPECT_EQ(r.error.message.rfind(c.message, 0), 0u)
			<< c.line << "\ngot: " << r.error.message;
	}
	// The three modes on different queues are fine, and a repeated npecn
	// on a queue is an override.
	EXPECT_TRUE(parse_topology(kTwoPorts + "ecn s0:a prio=3 kmin=1KB kmax=2KB pmax=1\n"
	                                       "tcd s0:b prio=3 thr=3KB max_ton=10us\n"
	                                       "npecn s0:a prio=4\n"
	                                       "npecn s0:a prio=4 k=1KB\n"
	                                       "npecn s0:b prio=5\n"));
	// The unknown-directive message lists npecn.
	TopologyResult u = parse_topology(kTwoPorts + "npcen s0:a\n");
	ASSERT_FALSE(u);
	EXPECT_NE(u.error.message.find(" ecn, tcd, npecn, pfc,"), std::string::npos)
		<< u.error.message;
}

TEST(NpEcnConfig, ValidateRejectsBadConfigs)
{
	SwitchConfig c = npecn_switch();
	EXPECT_EQ(validate(c), "");
	SwitchConfig red = c;
	red.ports[2].red[3].enabled = true;
	red.ports[2].red[3].kmin = 1000;
	red.ports[2].red[3].kmax = 2000;
	EXPECT_EQ(validate(red), "switch s: port p2: priority 3: both ECN (RED) and NP-ECN "
	                         "marking (one marking mode per queue)");
	EXPECT_THROW(Switch{red}, std::invalid_argument);
	SwitchConfig tcd = c;
	tcd.ports[2].tcd[3].enabled = true;
	tcd.ports[2].tcd[3].threshold = 3000;
	EXPECT_EQ(validate(tcd), "switch s: port p2: priority 3: both TCD and NP-ECN marking "
	                         "(one marking mode per queue)");
	EXPECT_THROW(Switch{tcd}, std::invalid_argument);
	SwitchConfig big = c;
	big.ports[2].npecn[3].k = kMaxBufferBytes + 1;
	EXPECT_EQ(validate(big), "switch s: port p2: priority 3: NP-ECN k above 1 TiB");
	big.ports[2].npecn[3].k = kMaxBufferBytes;
	EXPECT_EQ(validate(big), "");
	// Disabled parameters are not checked, and other queues may mix.
	SwitchConfig off = c;
	off.ports[1].npecn[3].k = kMaxBufferBytes + 1;
	off.ports[1].red[3] = red.ports[2].red[3];
	off.ports[2].red[4] = red.ports[2].red[3];
	EXPECT_EQ(validate(off), "");
}
