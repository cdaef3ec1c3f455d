// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Several switches joined by internal links: end-to-end timing, a 4:1
// incast that PFC keeps lossless (and that drops without PFC), and
// independence of the result from how often poll() is called.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fabric.h"
#include "test_frames.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

constexpr Time kFrame1000 = 81920; // 1000 + 24 bytes at 100 Mbit/s

Topology parse_or_die(const std::string &text)
{
	TopologyResult r = parse_topology(text);
	EXPECT_TRUE(r) << r.error.to_string();
	return r ? *r.topology : Topology{};
}

std::vector<FabricTransmission> run_all(Fabric &f)
{
	std::vector<FabricTransmission> all;
	for (Time t = f.next_event_time(); t != kNever; t = f.next_event_time())
		for (FabricTransmission &tx : f.poll(t))
			all.push_back(std::move(tx));
	return all;
}

TEST(Fabric, TwoHopTiming)
{
	Fabric f(parse_or_die("switch s0 buffer=1MB\n"
	                      "switch s1 buffer=1MB\n"
	                      "port s0:h rate=100M delay=1us\n"
	                      "link s0:up s1:down rate=100M delay=10us\n"
	                      "port s1:r rate=100M delay=1us\n"
	                      "route s0 10.0.0.2 up\n"
	                      "route s1 10.0.0.2 r\n"));
	f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 1000), 0);
	// s0 starts sending at once (0..81920); the frame reaches s1 at 91920.
	EXPECT_EQ(f.next_event_time(), 91920u);
	EXPECT_TRUE(f.poll(91919).empty());
	EXPECT_EQ(f.next_event_time(), 91920u);
	std::vector<FabricTransmission> out = f.poll(91920);
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].sw, 1);
	EXPECT_EQ(out[0].tx.port, 1);
	EXPECT_EQ(out[0].tx.start_ns, 91920u);
	EXPECT_EQ(out[0].tx.end_ns, 91920u + kFrame1000);
	EXPECT_EQ(out[0].tx.arrive_ns, 91920u + kFrame1000 + 1000);
	EXPECT_EQ(out[0].tx.frame, udp_frame(1, 2, kTosData, 1000));
	EXPECT_EQ(f.next_event_time(), kNever);
	// Polling "until forever" terminates.
	f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 1000), 200000);
	EXPECT_EQ(f.poll(kNever).size(), 1u);
	EXPECT_TRUE(f.poll(kNever).empty());
}

// Four leaves, each with one host sending 50 frames of 1000 bytes at t = 0,
// all to host r behind switch b: a 4:1 incast at b's port r.  The leaves
// have room for everything; b has 40 KB.
std::string incast(bool pfc)
{
	std::string t = "seed 3\nswitch b buffer=40KB\nport b:r rate=100M delay=1us\n"
			"route b 10.0.0.2 r\n";
	for (int i = 0; i < 4; i++) {
		std::string l = "l" + std::to_string(i);
		t += "switch " + l + " buffer=1MB\n";
		t += "port " + l + ":h rate=100M delay=1us\n";
		t += "link " + l + ":up b:d" + std::to_string(i) + " rate=100M delay=1us\n";
		t += "route " + l + " 10.0.0.2 up\n";
	}
	// Headroom: the XOFF takes 6720 + 1000 ns to reach the leaf, which
	// may just have started a frame; 4 KB covers two frames in flight.
	if (pfc)
		t += "pfc b:* prio=3 xoff=4KB xon=2KB headroom=4KB\n";
	return t;
}

struct IncastResult {
	std::vector<FabricTransmission> out;
	uint64_t drops = 0;
};

IncastResult run_incast(bool pfc, bool poll_every_event)
{
	Fabric f(parse_or_die(incast(pfc)));
	for (int i = 0; i < 4; i++) {
		int leaf = f.find_switch("l" + std::to_string(i));
		for (int k = 0; k < 50; k++)
			f.on_ingress(leaf, 0,
			             udp_frame(static_cast<uint8_t>(10 + i), 2, kTosData, 1000), 0);
	}
	IncastResult r;
	r.out = poll_every_event ? run_all(f) : f.poll(1000000000);
	for (int s = 0; s < f.num_switches(); s++)
		r.drops += f.switch_at(s).total_drops();

	if (pfc) {
		const Switch &b = f.switch_at(0);
		for (int i = 0; i < 4; i++) {
			int leaf = f.find_switch("l" + std::to_string(i));
			QueueStatus down = b.queue_status(1 + i, 3, 1000000000);
			QueueStatus up = f.switch_at(leaf).queue_status(1, 3, 1000000000);
			EXPECT_GT(down.counters.xoff_sent, 0u) << i;
			EXPECT_EQ(down.counters.xoff_sent, down.counters.xon_sent) << i;
			EXPECT_EQ(up.counters.pause_rx, down.counters.xoff_sent) << i;
			EXPECT_EQ(up.counters.resume_rx, down.counters.xon_sent) << i;
			EXPECT_GT(up.paused_ns, 0u) << i;
			EXPECT_FALSE(down.xoff) << i;
		}
		EXPECT_EQ(b.buffer().pool_used(), 0u);
	}
	return r;
}

TEST(FabricIncast, PfcMakesItLosslessAtFullUtilisation)
{
	IncastResult r = run_incast(true, true);
	EXPECT_EQ(r.drops, 0u);
	ASSERT_EQ(r.out.size(), 200u);
	// The bottleneck never idles: 200 frames back to back from the first
	// arrival at b (81920 + 1000 ns).
	EXPECT_EQ(r.out.front().tx.start_ns, kFrame1000 + 1000);
	EXPECT_EQ(r.out.back().tx.end_ns, kFrame1000 + 1000 + 200 * kFrame1000);
	for (size_t i = 1; i < r.out.size(); i++)
		ASSERT_EQ(r.out[i].tx.start_ns, r.out[i - 1].tx.end_ns) << i;
	// Every sender got its 50 frames through.
	int from[4] = {};
	for (const FabricTransmission &t : r.out)
		from[t.tx.frame[29] - 10]++;
	for (int n : from)
		EXPECT_EQ(n, 50);
}

TEST(FabricIncast, WithoutPfcTheIncastDrops)
{
	IncastResult r = run_incast(false, true);
	EXPECT_GT(r.drops, 0u);
	EXPECT_EQ(r.out.size() + r.drops, 200u);
}

TEST(FabricIncast, ResultDoesNotDependOnPollTiming)
{
	IncastResult a = run_incast(true, true);
	IncastResult b = run_incast(true, false);
	ASSERT_EQ(a.out.size(), b.out.size());
	for (size_t i = 0; i < a.out.size(); i++) {
		EXPECT_EQ(a.out[i].tx.start_ns, b.out[i].tx.start_ns) << i;
		EXPECT_EQ(a.out[i].tx.frame, b.out[i].tx.frame) << i;
	}
}

} // namespace
