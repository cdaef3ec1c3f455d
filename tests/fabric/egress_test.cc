// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Link serialisation arithmetic, the egress scheduler and pause state.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "egress_port.h"
#include "test_frames.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

TEST(LinkSerializer, OneFrameAt100Mbps)
{
	// (1000 + 24) bytes * 8 bit * 10 ns/bit.
	LinkSerializer l(100000000, 24);
	EXPECT_EQ(l.transmit(0, 1000), 81920u);
	// Back to back: a start before busy_until is clamped to it.
	EXPECT_EQ(l.transmit(5, 1000), 163840u);
	EXPECT_EQ(l.remainder(), 0u);
}

TEST(LinkSerializer, ShortFramesArePaddedTo60Bytes)
{
	LinkSerializer l(100000000, 24);
	EXPECT_EQ(l.wire_bytes(42), 84u);
	EXPECT_EQ(l.transmit(1000, 42), 1000u + 84 * 80);
	LinkSerializer raw(1000000000, 0);
	EXPECT_EQ(raw.transmit(0, 1500), 12000u);
}

TEST(LinkSerializer, RemaindersCarryBetweenBackToBackFrames)
{
	// 8000 bits at 700 Mbit/s = 11428 4/7 ns.
	LinkSerializer l(700000000, 0);
	EXPECT_EQ(l.transmit(0, 1000), 11428u);
	EXPECT_EQ(l.remainder(), 400000000u);   // 4/7 ns in units of 1/7e8 ns
	EXPECT_EQ(l.transmit(0, 1000), 22857u); // 22857 1/7
	EXPECT_EQ(l.remainder(), 100000000u);
	for (int i = 2; i < 7; i++)
		l.transmit(0, 1000);
	EXPECT_EQ(l.busy_until(), 80000u); // 7 frames = 56000 bits = 80 us exactly
	EXPECT_EQ(l.remainder(), 0u);
}

TEST(LinkSerializer, LongRunDoesNotDrift)
{
	// 10^6 frames of 1000 bytes at 700 Mbit/s: 8e9 bits take
	// 8e18 / 7e8 ns = 11428571428.57 ns.  Rounding every frame down would
	// lose 4/7 ns per frame, i.e. 571428 ns.
	LinkSerializer l(700000000, 0);
	for (int i = 0; i < 1000000; i++)
		l.transmit(0, 1000);
	EXPECT_EQ(l.busy_until(), 11428571428u);
	EXPECT_EQ(l.remainder(), 400000000u);
}

TEST(LinkSerializer, IdleGapRestartsAtWholeNanosecond)
{
	LinkSerializer l(700000000, 0);
	EXPECT_EQ(l.transmit(0, 1000), 11428u);
	EXPECT_EQ(l.transmit(20000, 1000), 31428u);
	EXPECT_EQ(l.remainder(), 400000000u);
}

PortConfig port_cfg(uint64_t rate = 100000000)
{
	PortConfig c;
	c.name = "p";
	c.rate_bps = rate;
	return c;
}

QueuedPacket qp(int prio, size_t len, Time t = 0)
{
	auto p = Packet::parse(udp_frame(1, 2, kTosData, len));
	EXPECT_TRUE(p);
	QueuedPacket q;
	q.packet = std::move(*p);
	q.priority = prio;
	q.charged = static_cast<uint32_t>(len);
	q.enqueued = t;
	return q;
}

std::array<uint32_t, kNumPriorities> quanta(uint32_t q)
{
	std::array<uint32_t, kNumPriorities> a;
	a.fill(q);
	return a;
}

// Serves the port like the switch does and returns the priorities in
// transmission order.
std::vector<int> drain(EgressPort &e, size_t n)
{
	std::vector<int> order;
	for (size_t i = 0; i < n; i++) {
		Time t = e.next_start();
		if (t == kNever)
			break;
		auto s = e.select(t);
		if (!s)
			break;
		size_t len = 60;
		if (*s == EgressPort::kControl)
			len = e.pop_control().size();
		else
			len = e.pop(*s).charged;
		e.link().transmit(t, len);
		order.push_back(*s);
	}
	return order;
}

TEST(EgressPort, StrictPriorityBeforeRoundRobin)
{
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	e.enqueue(qp(0, 1000));
	e.enqueue(qp(3, 1000));
	e.enqueue(qp(6, 1000));
	e.enqueue(qp(7, 1000));
	e.enqueue_control(p1(), 0);
	std::vector<int> order = drain(e, 10);
	ASSERT_EQ(order.size(), 5u);
	EXPECT_EQ(order[0], EgressPort::kControl);
	EXPECT_EQ(order[1], 7);
	EXPECT_EQ(order[2], 6);
	EXPECT_EQ(order[3] + order[4], 3); // 0 and 3 in some order
}

TEST(EgressPort, DeficitRoundRobinFollowsQuanta)
{
	// Quantum 1500 for priority 0 and 3000 for priority 3, 1500-byte
	// packets: every round sends one of 0 then two of 3.
	auto q = quanta(1500);
	q[3] = 3000;
	EgressPort e(port_cfg(), 0xc0, q);
	for (int i = 0; i < 100; i++) {
		e.enqueue(qp(0, 1500));
		e.enqueue(qp(3, 1500));
	}
	std::vector<int> order = drain(e, 9);
	EXPECT_EQ(order, (std::vector<int>{0, 3, 3, 0, 3, 3, 0, 3, 3}));
}

TEST(EgressPort, DeficitCarriesOverForLargePackets)
{
	// Equal quanta of 1500, 1000-byte packets: deficit 500 carries over,
	// so the pattern is 0, 3, 0 0, 3 3, 0, 3, ...
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	for (int i = 0; i < 100; i++) {
		e.enqueue(qp(0, 1000));
		e.enqueue(qp(3, 1000));
	}
	std::vector<int> order = drain(e, 200);
	EXPECT_EQ(std::vector<int>(order.begin(), order.begin() + 8),
	          (std::vector<int>{0, 3, 0, 0, 3, 3, 0, 3}));
	int zeros = 0;
	for (size_t i = 0; i < 120; i++)
		zeros += order[i] == 0;
	EXPECT_EQ(zeros, 60);
}

TEST(EgressPort, PausedPriorityIsSkippedUntilExpiry)
{
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	EXPECT_EQ(e.pause(3, 0, 5000), PauseChange::kStarted);
	e.enqueue(qp(3, 1000));
	e.enqueue(qp(0, 1000));
	EXPECT_EQ(e.next_start(), 0u);
	EXPECT_EQ(e.select(0), 0);
	e.link().transmit(0, e.pop(0).charged); // busy until 81920
	EXPECT_EQ(e.next_start(), 81920u);
	EXPECT_FALSE(e.paused(3, 81920));

	// Paused alone: the start waits for the pause to end.
	EgressPort f(port_cfg(), 0xc0, quanta(1500));
	f.pause(3, 0, 5000);
	f.enqueue(qp(3, 1000));
	EXPECT_EQ(f.next_start(), 5000u);
	EXPECT_FALSE(f.select(4999));
	EXPECT_EQ(f.select(5000), 3);
}

TEST(EgressPort, ControlFramesIgnorePause)
{
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	for (int p = 0; p < kNumPriorities; p++)
		e.pause(p, 0, 100000);
	e.enqueue(qp(3, 1000));
	e.enqueue_control(p1(), 10);
	EXPECT_EQ(e.next_start(), 10u);
	EXPECT_EQ(e.select(10), EgressPort::kControl);
}

TEST(EgressPort, XonReleasesAndPausedTimeIsAccounted)
{
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	e.pause(3, 1000, 5000); // until 6000
	e.enqueue(qp(3, 1000, 1000));
	EXPECT_EQ(e.pause(3, 3000, 0), PauseChange::kReleased);
	EXPECT_EQ(e.next_start(), 3000u);
	EXPECT_EQ(e.paused_ns(3, 10000), 2000u);
	EXPECT_EQ(e.pause(3, 4000, 0), PauseChange::kNone); // XON when not paused

	// A second episode ends by expiry: 2000 + 500.
	EXPECT_EQ(e.pause(3, 7000, 500), PauseChange::kStarted);
	EXPECT_EQ(e.paused_ns(3, 7200), 2200u);
	EXPECT_EQ(e.paused_ns(3, 9000), 2500u);
	EXPECT_EQ(e.paused_ns(0, 9000), 0u);
}

TEST(EgressPort, RepeatedPauseRestartsTheTimer)
{
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	EXPECT_EQ(e.pause(3, 0, 5000), PauseChange::kStarted);
	EXPECT_EQ(e.pause(3, 3000, 5000), PauseChange::kNone);
	EXPECT_EQ(e.paused_until(3), 8000u);
	EXPECT_EQ(e.paused_ns(3, 9000), 8000u);
	// A shorter refresh shortens it too: the timer restarts.
	EXPECT_EQ(e.pause(3, 4000, 1000), PauseChange::kNone);
	EXPECT_EQ(e.paused_until(3), 5000u);
}

TEST(EgressPort, PauseExpiryIsReportedOnce)
{
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	e.pause(2, 0, 700);
	e.pause(5, 0, 300);
	EXPECT_EQ(e.next_pause_expiry(), 300u);
	EXPECT_EQ(e.take_expired(299), std::vector<int>{});
	EXPECT_EQ(e.take_expired(300), std::vector<int>{5});
	EXPECT_EQ(e.next_pause_expiry(), 700u);
	EXPECT_EQ(e.take_expired(1000), std::vector<int>{2});
	EXPECT_EQ(e.next_pause_expiry(), kNever);
	// An XON clears the pending report.
	e.pause(1, 2000, 100);
	e.pause(1, 2050, 0);
	EXPECT_EQ(e.next_pause_expiry(), kNever);
}

TEST(EgressPort, QueueBytesAndPackets)
{
	EgressPort e(port_cfg(), 0xc0, quanta(1500));
	e.enqueue(qp(3, 1000));
	e.enqueue(qp(3, 500));
	e.enqueue(qp(0, 64));
	EXPECT_EQ(e.queue_bytes(3), 1500u);
	EXPECT_EQ(e.queue_packets(3), 2u);
	EXPECT_EQ(e.total_bytes(), 1564u);
	e.pop(3);
	EXPECT_EQ(e.queue_bytes(3), 500u);
	EXPECT_EQ(e.total_bytes(), 564u);
}

} // namespace
