// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One switch: forwarding, timing of transmissions, drops with reasons, ECN
// at either mark point, PFC XOFF/XON/refresh, reaction to received PAUSE
// frames, and the feature hooks.
//
// Unless a test says otherwise: ports at 100 Mbit/s with 24 bytes of
// overhead and 1 us of delay, so a 1000-byte frame takes (1000 + 24) * 80
// = 81920 ns and a PFC frame (60 + 24) * 80 = 6720 ns.  Host k sits on port
// k with address 10.0.0.k and MAC 02:00:00:00:00:0k.
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "switch_model.h"
#include "test_frames.h"
#include "test_switch.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

constexpr Time kFrame1000 = 81920;
constexpr Time kPfcFrame = 6720;
constexpr Time kDelay = 1000;

SwitchConfig make_config(int nports, uint64_t buffer = 1000000)
{
	SwitchConfig c;
	c.name = "s0";
	c.buffer_bytes = buffer;
	for (int i = 0; i < nports; i++) {
		PortConfig p;
		p.name = "p" + std::to_string(i);
		p.rate_bps = 100000000;
		p.delay_ns = kDelay;
		p.mac = {0x02, 0, 0, 0, 0, static_cast<uint8_t>(0xf0 + i)};
		c.ports.push_back(p);
		IpRoute r;
		r.prefix = IpAddr::v4(10, 0, 0, static_cast<uint8_t>(i));
		r.prefix_len = 32;
		r.port = i;
		c.routes.push_back(r);
	}
	return c;
}

std::vector<uint8_t> arp_like(const Mac &dst)
{
	std::vector<uint8_t> f(60, 0);
	for (size_t i = 0; i < 6; i++)
		f[i] = dst[i];
	f[6] = 0x02;
	f[12] = 0x08;
	f[13] = 0x06;
	return f;
}

std::vector<uint8_t> pfc_frame(uint8_t mask, uint16_t quanta)
{
	std::array<uint16_t, kNumPriorities> t;
	t.fill(quanta);
	return build_pfc_frame({0x02, 0, 0, 0, 0, 0x99}, mask, t);
}

std::vector<Transmission> on_port(const std::vector<Transmission> &txs, int port)
{
	std::vector<Transmission> out;
	for (const Transmission &tx : txs)
		if (tx.port == port)
			out.push_back(tx);
	return out;
}

TEST(SwitchForward, ByIpRouteWithExactTimes)
{
	Switch sw(make_config(3));
	sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 1000);
	EXPECT_EQ(sw.next_event_time(), 1000u);
	std::vector<Transmission> txs = sw.poll(1000);
	ASSERT_EQ(txs.size(), 1u);
	EXPECT_EQ(txs[0].port, 2);
	EXPECT_EQ(txs[0].priority, 3);
	EXPECT_EQ(txs[0].start_ns, 1000u);
	EXPECT_EQ(txs[0].end_ns, 1000u + kFrame1000);
	EXPECT_EQ(txs[0].arrive_ns, 1000u + kFrame1000 + kDelay);
	EXPECT_EQ(txs[0].frame, udp_frame(0, 2, kTosData, 1000));
	EXPECT_EQ(sw.next_event_time(), kNever);
	EXPECT_EQ(sw.port_counters(0).rx_frames, 1u);
	EXPECT_EQ(sw.queue_status(2, 3, 2000).counters.tx_packets, 1u);
	EXPECT_EQ(sw.queue_status(2, 3, 2000).counters.tx_bytes, 1000u);
	EXPECT_TRUE(sw.poll(kNever).empty()); // terminates
}

TEST(SwitchForward, LongestPrefixThenMacThenFlood)
{
	SwitchConfig c = make_config(4);
	c.routes.clear();
	c.routes.push_back({IpAddr::v4(10, 0, 0, 0), 24, 1});
	c.routes.push_back({IpAddr::v4(10, 0, 0, 2), 32, 2});
	c.macs.push_back({host_mac(3), 3});
	c.ports[2].flood = false;
	Switch sw(c);
	sw.on_ingress(0, udp_frame(0, 2, kTosData, 100), 0);
	sw.on_ingress(0, udp_frame(0, 9, kTosData, 100), 0);
	sw.on_ingress(0, arp_like(host_mac(3)), 0);
	// IP routes win over the MAC table: MAC of host 3, IP of host 2.
	std::vector<uint8_t> f = udp_frame(0, 2, kTosData, 100);
	for (size_t i = 0; i < 6; i++)
		f[i] = host_mac(3)[i];
	sw.on_ingress(0, f, 0);
	// Broadcast and unknown unicast go to flood ports but the ingress.
	sw.on_ingress(1, arp_like({0xff, 0xff, 0xff, 0xff, 0xff, 0xff}), 0);
	sw.on_ingress(1, arp_like(host_mac(7)), 0);
	std::vector<Transmission> txs = run_all(sw);
	EXPECT_EQ(on_port(txs, 0).size(), 2u); // the two floods
	EXPECT_EQ(on_port(txs, 1).size(), 1u); // 10.0.0.9 by /24
	EXPECT_EQ(on_port(txs, 2).size(), 2u); // 10.0.0.2 by /32, twice
	EXPECT_EQ(on_port(txs, 3).size(), 3u); // MAC entry, two floods
	EXPECT_EQ(sw.total_drops(), 0u);
}

TEST(SwitchForward, DropsAreCountedWithReasons)
{
	Switch sw(make_config(3));
	sw.on_ingress(0, udp_frame(1, 0, kTosData, 100), 0); // routed back out
	sw.on_ingress(1, std::vector<uint8_t>(10, 0), 0);    // malformed
	std::vector<uint8_t> lldp = arp_like({0x01, 0x80, 0xc2, 0, 0, 0x0e});
	lldp[12] = 0x88;
	lldp[13] = 0xcc;
	sw.on_ingress(2, lldp, 0);
	EXPECT_TRUE(run_all(sw).empty());
	EXPECT_EQ(sw.drops(DropReason::kNoRoute), 1u);
	EXPECT_EQ(sw.drops(DropReason::kMalformed), 1u);
	EXPECT_EQ(sw.drops(DropReason::kLinkLocal), 1u);
	EXPECT_EQ(sw.total_drops(), 3u);
	EXPECT_EQ(
		sw.queue_status(0, 3, 0).counters.drops[static_cast<size_t>(DropReason::kNoRoute)],
		1u);
	EXPECT_EQ(sw.queue_status(1, 0, 0)
	                  .counters.drops[static_cast<size_t>(DropReason::kMalformed)],
	          1u);
	EXPECT_EQ(sw.port_counters(1).rx_frames, 1u);
	EXPECT_THROW(sw.on_ingress(3, udp_frame(0, 1, 0, 100), 0), std::out_of_range);
}

TEST(SwitchForward, DynamicThresholdDropIsCountedAtEgress)
{
	// Buffer 3000, alpha 1, lossy: the fourth frame sees q = 2000 and
	// alpha * free = 1000 (the first one already left).
	Switch sw(make_config(3, 3000));
	for (int i = 0; i < 5; i++)
		sw.on_ingress(0, udp_frame(0, 2, kTosBestEffort, 1000), 0);
	EXPECT_EQ(run_all(sw).size(), 3u);
	QueueStatus s = sw.queue_status(2, 0, 0);
	EXPECT_EQ(s.counters.drops[static_cast<size_t>(DropReason::kDynamicThreshold)], 2u);
	EXPECT_EQ(s.counters.max_queue_bytes, 2000u);
	EXPECT_EQ(sw.buffer().pool_used(), 0u);
}

TEST(SwitchTiming, BackToBackAndLatePollGiveTheSameTimes)
{
	auto feed = [](Switch &sw) {
		for (int i = 0; i < 3; i++)
			sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 0);
		sw.on_ingress(1, udp_frame(1, 2, kTosData, 1000), 100000);
	};
	Switch a(make_config(3));
	feed(a);
	std::vector<Transmission> late = a.poll(1000000000);
	Switch b(make_config(3));
	feed(b);
	std::vector<Transmission> stepped = run_all(b);
	ASSERT_EQ(late.size(), 4u);
	ASSERT_EQ(stepped.size(), 4u);
	const Time starts[] = {0, kFrame1000, 2 * kFrame1000, 3 * kFrame1000};
	for (size_t i = 0; i < 4; i++) {
		EXPECT_EQ(late[i].start_ns, starts[i]) << i;
		EXPECT_EQ(late[i].end_ns, starts[i] + kFrame1000) << i;
		EXPECT_EQ(stepped[i].start_ns, late[i].start_ns) << i;
		EXPECT_EQ(stepped[i].frame, late[i].frame) << i;
	}
}

TEST(SwitchTiming, StrictPriorityOvertakesQueuedData)
{
	Switch sw(make_config(3));
	for (int i = 0; i < 3; i++)
		sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 0);
	sw.on_ingress(1, udp_frame(1, 2, kTosCnp, 100), 10);
	std::vector<Transmission> txs = run_all(sw);
	ASSERT_EQ(txs.size(), 4u);
	EXPECT_EQ(txs[0].priority, 3);
	EXPECT_EQ(txs[1].priority, 6);
	EXPECT_EQ(txs[1].start_ns, kFrame1000);
	EXPECT_EQ(txs[2].start_ns, kFrame1000 + (100 + 24) * 80);
}

// Five ECT(0) frames of 1000 bytes arrive at t = 0 for port 2.  The first
// starts at once (before the second is enqueued), so at dequeue the bytes
// left behind frames 1..5 are 0, 3000, 2000, 1000, 0 and at enqueue the
// bytes ahead are 0, 0, 1000, 2000, 3000.  Kmin 1500, Kmax 2500, Pmax 1:
// p = 1 above 2500, 0.5 at 2000, 0 at or below 1500.
std::vector<uint8_t> ecn_run(MarkPoint point, std::deque<uint32_t> draws, uint64_t *marks)
{
	SwitchConfig c = make_config(3);
	RedParams r;
	r.enabled = true;
	r.kmin = 1500;
	r.kmax = 2500;
	r.pmax_q16 = kQ16One;
	r.point = point;
	c.ports[2].red[3] = r;
	auto rng = std::make_unique<ScriptedRng>(std::move(draws));
	ScriptedRng *raw = rng.get();
	Switch sw(c, std::move(rng));
	for (int i = 0; i < 5; i++)
		sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 0);
	std::vector<uint8_t> tos;
	for (const Transmission &tx : run_all(sw)) {
		tos.push_back(tx.frame[15]);
		EXPECT_EQ(ipv4_header_checksum(tx.frame.data() + 14, 20),
		          (tx.frame[24] << 8) | tx.frame[25]);
	}
	EXPECT_EQ(raw->left(), 0u);
	*marks = sw.queue_status(2, 3, 0).counters.ecn_marks;
	return tos;
}

TEST(SwitchEcn, RedAtDequeue)
{
	uint64_t marks;
	// One draw, for frame 3 (p = 32768): 32767 marks.
	EXPECT_EQ(ecn_run(MarkPoint::kDequeue, {32767}, &marks),
	          (std::vector<uint8_t>{0x6a, 0x6b, 0x6b, 0x6a, 0x6a}));
	EXPECT_EQ(marks, 2u);
	// 32768 does not.
	EXPECT_EQ(ecn_run(MarkPoint::kDequeue, {32768}, &marks),
	          (std::vector<uint8_t>{0x6a, 0x6b, 0x6a, 0x6a, 0x6a}));
	EXPECT_EQ(marks, 1u);
}

TEST(SwitchEcn, RedAtEnqueue)
{
	uint64_t marks;
	// One draw, for frame 4 (2000 ahead, p = 32768): 40000 does not mark.
	EXPECT_EQ(ecn_run(MarkPoint::kEnqueue, {40000}, &marks),
	          (std::vector<uint8_t>{0x6a, 0x6a, 0x6a, 0x6a, 0x6b}));
	EXPECT_EQ(marks, 1u);
}

// Port 0 is the ingress with PFC on priority 3: XOFF at 3000 bytes, XON at
// 1000.  Five 1000-byte frames arrive at t = 0 for port 2.  The ingress
// account goes 1000, (first leaves) 0, 1000, 2000, 3000 -> XOFF at t = 0,
// then 1000 bytes of headroom.  Frames leave port 2 at 81920 * k; after
// the fourth leaves (t = 245760) the account is 1000 -> XON.
TEST(SwitchPfc, XoffThenXonWithExactFrames)
{
	SwitchConfig c = make_config(3);
	c.ports[0].mac = {0x02, 0, 0, 0, 0, 0xfe};
	c.ports[0].pfc[3] = {true, 3000, 1000, 20000};
	Switch sw(c);
	for (int i = 0; i < 5; i++)
		sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 0);
	QueueStatus s = sw.queue_status(0, 3, 0);
	EXPECT_TRUE(s.xoff);
	EXPECT_TRUE(sw.xoff_asserted(0, 3));
	EXPECT_EQ(s.ingress_bytes, 4000u);
	EXPECT_EQ(s.ingress_headroom_bytes, 1000u);
	EXPECT_EQ(sw.buffer().pool_used(), 3000u);
	EXPECT_EQ(sw.buffer().pool_size(), 1000000u - 20000u);

	std::vector<Transmission> txs = run_all(sw);
	std::vector<Transmission> pfc = on_port(txs, 0);
	ASSERT_EQ(pfc.size(), 2u);
	EXPECT_EQ(pfc[0].priority, -1);
	EXPECT_EQ(pfc[0].start_ns, 0u);
	EXPECT_EQ(pfc[0].end_ns, kPfcFrame);
	EXPECT_EQ(pfc[0].frame, p1()); // XOFF, priority 3, 0xffff quanta
	EXPECT_EQ(pfc[1].start_ns, 3 * kFrame1000);
	std::vector<uint8_t> xon = p1();
	xon[24] = 0;
	xon[25] = 0;
	EXPECT_EQ(pfc[1].frame, xon);
	EXPECT_EQ(on_port(txs, 2).size(), 5u);

	s = sw.queue_status(0, 3, 1000000);
	EXPECT_FALSE(s.xoff);
	EXPECT_EQ(s.ingress_bytes, 0u);
	EXPECT_EQ(s.counters.xoff_sent, 1u);
	EXPECT_EQ(s.counters.xon_sent, 1u);
	EXPECT_EQ(sw.port_counters(0).tx_control_frames, 2u);
	EXPECT_EQ(sw.total_drops(), 0u);
	EXPECT_EQ(sw.buffer().pool_used(), 0u);
}

TEST(SwitchPfc, XoffIsRefreshedAtHalfThePauseTime)
{
	// 100 quanta at 100 Mbit/s = 512000 ns: refresh every 256000 ns while
	// the 1 Mbit/s egress keeps the ingress above XON.
	SwitchConfig c = make_config(3);
	c.ports[0].pause_quanta = 100;
	c.ports[0].pfc[3] = {true, 3000, 1000, 20000};
	c.ports[2].rate_bps = 1000000;
	Switch sw(c);
	for (int i = 0; i < 5; i++)
		sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 0);
	std::vector<Transmission> pfc = on_port(sw.poll(1000000), 0);
	ASSERT_EQ(pfc.size(), 4u);
	for (size_t i = 0; i < 4; i++) {
		EXPECT_EQ(pfc[i].start_ns, 256000u * i) << i;
		EXPECT_EQ(pfc[i].frame[24], 0x00);
		EXPECT_EQ(pfc[i].frame[25], 100);
	}
	EXPECT_EQ(sw.next_event_time(), 1024000u);
	EXPECT_EQ(sw.queue_status(0, 3, 1000000).counters.xoff_sent, 4u);
}

TEST(SwitchPfc, HeadroomOverflowIsADrop)
{
	SwitchConfig c = make_config(3);
	c.ports[0].pfc[3] = {true, 3000, 1000, 2500};
	c.ports[2].rate_bps = 1000000;
	Switch sw(c);
	// 1 leaves at once; 3000 shared, 2000 headroom, the 7th does not fit.
	for (int i = 0; i < 7; i++)
		sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 0);
	EXPECT_EQ(sw.drops(DropReason::kHeadroom), 1u);
	EXPECT_EQ(
		sw.queue_status(0, 3, 0).counters.drops[static_cast<size_t>(DropReason::kHeadroom)],
		1u);
}

// Records what the pause hook reports.
struct PauseLog : Feature {
	std::vector<std::tuple<int, int, bool, Time>> events;
	void on_pause_change(int port, int prio, bool paused, Time now) override
	{
		events.emplace_back(port, prio, paused, now);
	}
};

TEST(SwitchPause, ReceivedPfcHoldsThatPriorityForItsQuanta)
{
	Switch sw(make_config(3));
	auto log = std::make_shared<PauseLog>();
	sw.add_feature(log);
	// 10 quanta at 100 Mbit/s = 51200 ns, priority 3 only.
	sw.on_ingress(2, pfc_frame(0x08, 10), 0);
	sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 100);
	sw.on_ingress(1, udp_frame(1, 2, kTosBestEffort, 1000), 100);
	std::vector<Transmission> txs = run_all(sw);
	ASSERT_EQ(txs.size(), 2u);
	EXPECT_EQ(txs[0].priority, 0);
	EXPECT_EQ(txs[0].start_ns, 100u);
	EXPECT_EQ(txs[1].priority, 3);
	EXPECT_EQ(txs[1].start_ns, 100u + kFrame1000); // pause long over

	QueueStatus s = sw.queue_status(2, 3, 1000000);
	EXPECT_EQ(s.counters.pause_rx, 1u);
	EXPECT_EQ(s.paused_ns, 51200u);
	EXPECT_EQ(sw.port_counters(2).mac_control_rx, 1u);
	EXPECT_EQ(sw.total_drops(), 0u);
	ASSERT_EQ(log->events.size(), 2u);
	EXPECT_EQ(log->events[0], std::make_tuple(2, 3, true, Time{0}));
	EXPECT_EQ(log->events[1], std::make_tuple(2, 3, false, Time{51200}));
}

TEST(SwitchPause, DataWaitsForExpiryOrXon)
{
	Switch sw(make_config(3));
	sw.on_ingress(2, pfc_frame(0x08, 10), 0);
	sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 100);
	std::vector<Transmission> txs = run_all(sw);
	ASSERT_EQ(txs.size(), 1u);
	EXPECT_EQ(txs[0].start_ns, 51200u);

	Switch x(make_config(3));
	auto log = std::make_shared<PauseLog>();
	x.add_feature(log);
	x.on_ingress(2, pfc_frame(0x08, 0xffff), 0);
	x.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 100);
	x.on_ingress(2, pfc_frame(0x08, 0), 20000);
	txs = run_all(x);
	ASSERT_EQ(txs.size(), 1u);
	EXPECT_EQ(txs[0].start_ns, 20000u);
	QueueStatus s = x.queue_status(2, 3, 1000000);
	EXPECT_EQ(s.counters.resume_rx, 1u);
	EXPECT_EQ(s.paused_ns, 20000u);
	ASSERT_EQ(log->events.size(), 2u);
	EXPECT_EQ(log->events[1], std::make_tuple(2, 3, false, Time{20000}));
}

TEST(SwitchPause, LegacyPausePausesEveryPriority)
{
	Switch sw(make_config(3));
	std::vector<uint8_t> pause = p2();
	pause[16] = 0;
	pause[17] = 10; // 10 quanta
	sw.on_ingress(2, pause, 0);
	sw.on_ingress(1, udp_frame(1, 2, kTosBestEffort, 1000), 100);
	std::vector<Transmission> txs = run_all(sw);
	ASSERT_EQ(txs.size(), 1u);
	EXPECT_EQ(txs[0].start_ns, 51200u);
	for (int p = 0; p < kNumPriorities; p++)
		EXPECT_EQ(sw.queue_status(2, p, 0).counters.pause_rx, 1u) << p;
}

// Records the views, rewrites the DSCP at dequeue, and emits frames.
struct Probe : Feature {
	std::vector<std::pair<uint64_t, size_t>> enq;
	std::vector<std::pair<uint64_t, Time>> deq;
	void on_enqueue(FeatureContext &ctx) override
	{
		if (ctx.egress_port() != 2)
			return; // the frame emitted below
		enq.emplace_back(ctx.queue().bytes, ctx.queue().packets);
		EXPECT_EQ(ctx.ingress_port(), 0);
		EXPECT_EQ(ctx.egress_port(), 2);
		EXPECT_EQ(ctx.queue().rate_bps, 100000000u);
		if (enq.size() == 1) {
			ctx.emit(udp_frame(9, 1, kTosCnp, 80));
			ctx.emit_control(1, p1());
		}
	}
	void on_dequeue(FeatureContext &ctx) override
	{
		if (ctx.egress_port() != 2)
			return;
		deq.emplace_back(ctx.queue().bytes, ctx.queue().start_ns);
		EXPECT_EQ(ctx.now(), ctx.queue().start_ns);
		ctx.packet().set_dscp(10);
	}
};

TEST(SwitchFeature, ViewsAtEnqueueAndDequeueRewriteAndEmit)
{
	Switch sw(make_config(3));
	auto probe = std::make_shared<Probe>();
	sw.add_feature(probe);
	for (int i = 0; i < 3; i++)
		sw.on_ingress(0, udp_frame(0, 2, kTosData, 1000), 0);
	std::vector<Transmission> txs = run_all(sw);

	// Ahead at enqueue: nothing (1 starts before 2 arrives), nothing, 2.
	EXPECT_EQ(probe->enq,
	          (std::vector<std::pair<uint64_t, size_t>>{{0, 0}, {0, 0}, {1000, 1}}));
	// Left behind at dequeue, and the start time.
	EXPECT_EQ(probe->deq, (std::vector<std::pair<uint64_t, Time>>{
				      {0, 0}, {1000, kFrame1000}, {0, 2 * kFrame1000}}));
	std::vector<Transmission> out2 = on_port(txs, 2);
	ASSERT_EQ(out2.size(), 3u);
	for (const Transmission &tx : out2) {
		EXPECT_EQ(tx.frame[15], (10 << 2) | 2);
		EXPECT_EQ(ipv4_header_checksum(tx.frame.data() + 14, 20),
		          (tx.frame[24] << 8) | tx.frame[25]);
	}
	// The emitted frames leave port 1: the control frame first.
	std::vector<Transmission> out1 = on_port(txs, 1);
	ASSERT_EQ(out1.size(), 2u);
	EXPECT_EQ(out1[0].priority, -1);
	EXPECT_EQ(out1[0].frame, p1());
	EXPECT_EQ(out1[1].priority, 6);
	EXPECT_EQ(out1[1].start_ns, kPfcFrame);
	EXPECT_EQ(sw.total_drops(), 0u);
}

TEST(SwitchConfigCheck, InvalidConfigIsRejected)
{
	SwitchConfig c = make_config(2);
	c.ports[1].pfc[3] = {true, 1000, 1000, 5000};
	EXPECT_THROW(Switch{c}, std::invalid_argument);
	c = make_config(2);
	c.ports[0].red[3] = {true, 5000, 5000, 100, MarkPoint::kDequeue};
	EXPECT_THROW(Switch{c}, std::invalid_argument);
	c = make_config(2, 10000);
	c.ports[0].pfc[3] = {true, 3000, 1000, 6000};
	c.ports[1].pfc[3] = {true, 3000, 1000, 6000};
	EXPECT_NE(validate(c).find("headroom"), std::string::npos);
	c = make_config(0);
	EXPECT_EQ(validate(c), "switch s0: no ports");
}

} // namespace
