// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RED marking probability (specs/dcqcn.md §4.5 TV-4) and the marker's
// use of the random source.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "red.h"
#include "test_frames.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

RedParams tv4()
{
	RedParams p;
	p.enabled = true;
	p.kmin = 40000;
	p.kmax = 160000;
	p.pmax_q16 = 13107; // floor(0.2 * 65536)
	return p;
}

TEST(RedProbability, SpecTestVectorTv4)
{
	RedParams p = tv4();
	const uint64_t q[] = {0, 40000, 40001, 70000, 100000, 159999, 160000, 160001};
	const uint32_t want[] = {0, 0, 0, 3276, 6553, 13106, 13107, 65536};
	for (size_t i = 0; i < 8; i++)
		EXPECT_EQ(red_probability_q16(q[i], p), want[i]) << "q=" << q[i];
}

TEST(RedProbability, PmaxOneIsLinearUpToCertainty)
{
	RedParams p;
	p.kmin = 1000;
	p.kmax = 3000;
	p.pmax_q16 = kQ16One;
	EXPECT_EQ(red_probability_q16(1000, p), 0u);
	EXPECT_EQ(red_probability_q16(1500, p), 16384u);
	EXPECT_EQ(red_probability_q16(2000, p), 32768u);
	EXPECT_EQ(red_probability_q16(3000, p), 65536u);
	EXPECT_EQ(red_probability_q16(3001, p), 65536u);
}

SwitchConfig one_port_switch(const RedParams &r)
{
	SwitchConfig c;
	c.name = "s";
	c.buffer_bytes = 1000000;
	PortConfig p;
	p.name = "p0";
	p.rate_bps = 100000000;
	p.red[3] = r;
	c.ports.push_back(p);
	return c;
}

// Runs the marker at dequeue on a packet with the given TOS and a queue
// of q bytes left behind it; returns the packet's TOS afterwards.
uint8_t dequeue_tos(RedMarker &m, Rng &rng, uint8_t tos, uint64_t q, FeatureCounters &c)
{
	auto p = Packet::parse(udp_frame(1, 2, tos, 100));
	EXPECT_TRUE(p);
	QueueView v;
	v.port = 0;
	v.priority = 3;
	v.bytes = q;
	std::vector<EmittedFrame> emitted;
	FeatureContext ctx(*p, 1, v, 0, rng, c, emitted);
	m.on_dequeue(ctx);
	m.on_enqueue(ctx); // the wrong mark point: must do nothing
	return p->bytes()[15];
}

TEST(RedMarker, MarksIffRnd16BelowProbability)
{
	RedMarker m(one_port_switch(tv4()));
	ScriptedRng rng({6552, 6553});
	FeatureCounters c;
	// q = 100000 -> p_q16 = 6553.
	EXPECT_EQ(dequeue_tos(m, rng, kTosData, 100000, c), 0x6b);
	EXPECT_EQ(dequeue_tos(m, rng, kTosData, 100000, c), 0x6a);
	EXPECT_EQ(c.ecn_marks, 1u);
	EXPECT_EQ(rng.left(), 0u);
}

TEST(RedMarker, NoDrawOutsideThresholds)
{
	RedMarker m(one_port_switch(tv4()));
	ScriptedRng rng({}); // any draw throws
	FeatureCounters c;
	EXPECT_EQ(dequeue_tos(m, rng, kTosData, 40000, c), 0x6a);
	EXPECT_EQ(dequeue_tos(m, rng, kTosData, 160001, c), 0x6b);
	EXPECT_EQ(dequeue_tos(m, rng, 0x69, 160001, c), 0x6b); // ECT(1) -> CE
	EXPECT_EQ(c.ecn_marks, 2u);
}

TEST(RedMarker, NotEctAndCeAreLeftAlone)
{
	RedMarker m(one_port_switch(tv4()));
	ScriptedRng rng({});
	FeatureCounters c;
	EXPECT_EQ(dequeue_tos(m, rng, kTosDataNotEct, 1000000, c), 0x68);
	EXPECT_EQ(dequeue_tos(m, rng, 0x6b, 100000, c), 0x6b); // CE, no draw
	EXPECT_EQ(c.ecn_marks, 0u);
}

TEST(RedMarker, DisabledPriorityIsNotMarked)
{
	RedMarker m(one_port_switch(RedParams{}));
	ScriptedRng rng({});
	FeatureCounters c;
	EXPECT_EQ(dequeue_tos(m, rng, kTosData, 1000000, c), 0x6a);
}

TEST(RedMarker, SeededRunsRepeat)
{
	// The same seed gives the same marks; the observed rate is near
	// p = 6553 / 65536 (~10%).
	auto run = [](uint64_t seed) {
		RedMarker m(one_port_switch(tv4()));
		SplitMix64 rng(seed);
		FeatureCounters c;
		std::vector<uint8_t> out;
		for (int i = 0; i < 10000; i++)
			out.push_back(dequeue_tos(m, rng, kTosData, 100000, c));
		return std::make_pair(out, c.ecn_marks);
	};
	auto a = run(5), b = run(5), c = run(6);
	EXPECT_EQ(a.first, b.first);
	EXPECT_NE(a.first, c.first);
	EXPECT_GT(a.second, 900u);
	EXPECT_LT(a.second, 1100u);
}

} // namespace
