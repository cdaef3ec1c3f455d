// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// SFC's formulas checked on the switch model in a closed loop
// (specs/sfc.md §2.6, §2.10, §2.11, §5.5 (App. C)).
//
// One Switch: ports 0..N-1 face the senders 10.0.0.1..N, port N faces
// the receiver 10.0.0.100, the bottleneck, an SFC port.  The senders are
// simulated here: each sends RC WRITE ONLY frames of a fixed size back to
// back at its line rate R_host, the frame reaching the switch
// S * 8 / R_host + d after its first bit left; the switch's BTS reaches the
// sender d after its last bit left the switch port (the port's delay).
// A sender reacts as rxe does (§2.10): pause_end = arrival + pause_us
// (replace), and starts no frame before pause_end; a frame on the wire
// completes.  Everything runs in time order through on_ingress, poll and
// next_event_time.
//
// The BTS feedback loop is then
//   T_F = d + S * 8 / R_host   (the trigger frame to the switch)
//       + 74 * 8 / R + d        (its BTS back to the sender)
// which is App. C's 2 T_A + T_S (the BTS's own serialisation added).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "packet.h"
#include "sfc.h"
#include "switch_model.h"
#include "test_frames.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

constexpr uint8_t kReceiver = 100;
constexpr int kDataPrio = 3;

struct Scenario {
	int senders = 2;
	uint64_t rate_bps = 1000000000;      // R, every switch port
	uint64_t host_rate_bps = 1000000000; // R_host
	uint32_t frame = 1000;               // S, bytes (no wire overhead)
	Time delay_ns = 100000;              // d, each direction
	uint64_t q_th = 0, q_tg = 0;
	bool cache = true;
	Time bloom_reset_ns = 500000;
	Time stop_ns = 20000000; // the senders start no frame from then on
};

Time ser_ns(uint64_t bytes, uint64_t rate_bps)
{
	return static_cast<Time>(bytes * 8 * 1000000000ull / rate_bps);
}

Time feedback_ns(const Scenario &s)
{
	return 2 * s.delay_ns + ser_ns(s.frame, s.host_rate_bps) +
	       ser_ns(kBtsFrameBytes, s.rate_bps);
}

// R * T_F in bytes, rounded up.
uint64_t bdp_bytes(const Scenario &s)
{
	return (feedback_ns(s) * s.rate_bps + 8000000000ull - 1) / 8000000000ull;
}

SwitchConfig config(const Scenario &s)
{
	SwitchConfig c;
	c.name = "sw";
	c.buffer_bytes = 64000000;
	for (int i = 0; i <= s.senders; i++) {
		PortConfig p;
		p.name = "p" + std::to_string(i);
		p.rate_bps = s.rate_bps;
		p.delay_ns = i < s.senders ? s.delay_ns : 1000;
		p.overhead_bytes = 0;
		p.mac = {0x02, 0xfb, 0, 0, 0, static_cast<uint8_t>(i)};
		if (i == s.senders) {
			p.sfc.enabled = true;
			p.sfc.q_th = s.q_th;
			p.sfc.q_tg = s.q_tg;
		}
		c.ports.push_back(p);
		uint8_t host = i < s.senders ? static_cast<uint8_t>(i + 1) : kReceiver;
		c.routes.push_back({IpAddr::v4(10, 0, 0, host), 32, i});
	}
	c.sfc.enabled = true;
	c.sfc.cache = s.cache;
	c.sfc.bloom_reset_ns = s.bloom_reset_ns;
	return c;
}

// Sender i's frame number psn: WRITE ONLY to the receiver, UDP source
// port and dest QPN per sender, the PSN in the BTH.
std::vector<uint8_t> write_frame(const Scenario &s, int i, uint32_t psn)
{
	std::vector<uint8_t> f =
		udp_frame(static_cast<uint8_t>(i + 1), kReceiver, kTosData, s.frame);
	f[kUdpAt] = 0xc0;
	f[kUdpAt + 1] = static_cast<uint8_t>(i);
	f[42] = 0x0a;                           // RC WRITE ONLY
	f[49] = static_cast<uint8_t>(0x10 + i); // dest QPN
	f[51] = static_cast<uint8_t>(psn >> 16);
	f[52] = static_cast<uint8_t>(psn >> 8);
	f[53] = static_cast<uint8_t>(psn);
	return f;
}

struct Bts {
	int host = -1;
	uint32_t psn = 0;    // of the frame that triggered it
	Time trigger_ns = 0; // that frame's ingress (= the BTS's start)
	Time arrive_ns = 0;  // at the sender
	uint64_t qd = 0;     // queued ahead of that frame, measured here
	BtsHeader h;
};

struct Send {
	Time start_ns = 0, at_switch_ns = 0;
};

struct Result {
	std::vector<std::pair<Time, Time>> out; // bottleneck data: start, end
	std::vector<Bts> bts;
	std::vector<std::vector<Send>> sends;         // per sender, by PSN
	std::vector<std::vector<uint64_t>> qd;        // per sender, by PSN
	uint64_t peak = 0;                            // most bytes queued
	std::vector<std::pair<Time, uint64_t>> depth; // after each ingress
	uint64_t drops = 0;
	SfcCounters counters;
};

struct HostState {
	Time link_free = 0, pause_end = 0;
};

Result simulate(const Scenario &s)
{
	Switch sw(config(s));
	const int b = s.senders;
	Result r;
	r.sends.resize(static_cast<size_t>(s.senders));
	r.qd.resize(static_cast<size_t>(s.senders));
	std::vector<HostState> hosts(static_cast<size_t>(s.senders));
	const Time t_s = ser_ns(s.frame, s.host_rate_bps);
	// Frames on their way to the switch and BTS on their way to a
	// sender, earliest first; (time, host, PSN or pause).
	using Ev = std::pair<Time, std::pair<int, uint32_t>>;
	std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> to_switch, to_host;
	auto next_start = [&](const HostState &h) {
		Time t = std::max(h.link_free, h.pause_end);
		return t < s.stop_ns ? t : kNever;
	};
	for (;;) {
		Time t = sw.next_event_time();
		if (!to_switch.empty())
			t = std::min(t, to_switch.top().first);
		if (!to_host.empty())
			t = std::min(t, to_host.top().first);
		for (const HostState &h : hosts)
			t = std::min(t, next_start(h));
		if (t == kNever)
			break;
		// The switch up to t: data out of the bottleneck, BTS out
		// toward a sender.
		for (Transmission &tx : sw.poll(t)) {
			if (tx.port == b) {
				r.out.emplace_back(tx.start_ns, tx.end_ns);
				continue;
			}
			auto p = Packet::parse(tx.frame);
			std::optional<BtsHeader> h =
				p ? parse_bts(*p, kDefaultBtsPort) : std::nullopt;
			if (!h) {
				ADD_FAILURE() << "not a BTS out of port " << tx.port;
				continue;
			}
			const std::vector<uint8_t> &f = tx.frame;
			Bts x;
			x.host = tx.port;
			x.psn = static_cast<uint32_t>(f[f.size() - 3]) << 16 |
			        static_cast<uint32_t>(f[f.size() - 2]) << 8 | f[f.size() - 1];
			x.trigger_ns = tx.start_ns;
			x.arrive_ns = tx.arrive_ns;
			x.qd = r.qd[static_cast<size_t>(x.host)][x.psn];
			x.h = *h;
			r.bts.push_back(x);
			to_host.push({tx.arrive_ns, {tx.port, h->pause_us}});
		}
		// BTS reaching a sender: replace the pause end (§2.10).
		while (!to_host.empty() && to_host.top().first == t) {
			auto [host, pause_us] = to_host.top().second;
			to_host.pop();
			hosts[static_cast<size_t>(host)].pause_end = t + Time{pause_us} * 1000;
		}
		// Frames reaching the switch, with the depth each finds.
		while (!to_switch.empty() && to_switch.top().first == t) {
			auto [host, psn] = to_switch.top().second;
			to_switch.pop();
			r.qd[static_cast<size_t>(host)].push_back(
				sw.queue_status(b, kDataPrio, t).bytes);
			sw.on_ingress(host, write_frame(s, host, psn), t);
			uint64_t q = sw.queue_status(b, kDataPrio, t).bytes;
			r.peak = std::max(r.peak, q);
			r.depth.emplace_back(t, q);
		}
		// Senders whose link is free and whose pause is over.
		for (size_t i = 0; i < hosts.size(); i++) {
			HostState &h = hosts[i];
			if (next_start(h) != t)
				continue;
			auto psn = static_cast<uint32_t>(r.sends[i].size());
			Time at = t + t_s + s.delay_ns;
			r.sends[i].push_back({t, at});
			to_switch.push({at, {static_cast<int>(i), psn}});
			h.link_free = t + t_s;
		}
	}
	r.drops = sw.total_drops();
	r.counters = sw.sfc_status(0).counters;
	return r;
}

// Idle time of the bottleneck between from and until: the gaps between
// its transmissions.
Time idle_ns(const Result &r, Time from, Time until)
{
	Time idle = 0;
	for (size_t k = 1; k < r.out.size(); k++) {
		Time a = std::max(r.out[k - 1].second, from), z = std::min(r.out[k].first, until);
		if (z > a)
			idle += z - a;
	}
	return idle;
}

// The base of every scenario: R = R_host = 1 Gbit/s, S = 1000 B (T_S =
// 8 us), d = 99.704 us, so T_F = 2 d + T_S + 0.592 us = 208 us = 26 T_S
// exactly and R T_F = 26000 B = 26 frames: a sender has exactly
// R T_F bytes out from the start of a frame until that frame's BTS
// stops it.
Scenario base(int senders)
{
	Scenario s;
	s.senders = senders;
	s.delay_ns = 99704;
	return s;
}

constexpr uint64_t kBdp = 26000; // R T_F

TEST(SfcModel, FeedbackLoopOfTheLinkDelays)
{
	Scenario s = base(2);
	EXPECT_EQ(feedback_ns(s), 208000u);
	EXPECT_EQ(bdp_bytes(s), kBdp);
}

// §2.11's worst case is a pause sized by the last frame the sender
// queued: nothing of it is in flight behind the trigger.  The model gets
// there when the Bloom filter suppresses nothing (a reset period of 1 us,
// shorter than a flow's 8 us between frames): every frame draws a BTS
// and the one of the last frame before the sender stopped replaces the
// others.  Its data resumes at trigger + T_F + (qd - Q_Tg) / R, when
// Q_Tg - R T_F (+ the frames of the round) are left: with Q_Tg >= T_F R
// the link never idles while the senders have data, with Q_Tg = T_F R / 4
// it idles up to T_F - Q_Tg / R per pause.  With the usual suppression
// (reset 4 T_F) there is data in flight behind the trigger and no
// underrun either.
TEST(SfcModel, NoUnderrunWhenTheTargetCoversTheFeedbackLoop)
{
	for (int n : {2, 4}) {
		for (Time reset : {Time{1000}, Time{4 * 208000}}) {
			Scenario s = base(n);
			s.q_tg = kBdp;
			s.q_th = s.q_tg + kBdp; // X = 1 BDP
			s.bloom_reset_ns = reset;
			Result r = simulate(s);
			ASSERT_GE(r.bts.size(), 10u) << n;
			EXPECT_EQ(r.drops, 0u);
			EXPECT_EQ(idle_ns(r, r.bts[0].trigger_ns, s.stop_ns), 0u)
				<< "n " << n << " reset " << reset;
			// Every frame sent was delivered.
			size_t sent = 0;
			for (const std::vector<Send> &v : r.sends)
				sent += v.size();
			EXPECT_EQ(r.out.size(), sent);
		}
	}
}

TEST(SfcModel, UnderrunWhenTheTargetIsBelowTheFeedbackLoop)
{
	for (int n : {2, 4}) {
		Scenario s = base(n);
		s.q_tg = kBdp / 4;
		s.q_th = s.q_tg + kBdp;
		s.bloom_reset_ns = 1000;
		Result r = simulate(s);
		ASSERT_GE(r.bts.size(), 10u);
		Time from = r.bts[0].trigger_ns, idle = idle_ns(r, from, s.stop_ns);
		// The longest gap is T_F - Q_Tg / R = 208 - 52 us less what
		// the trigger's depth did not count but was still there: the
		// trigger frame, the frame on the wire and the other N - 1
		// senders' frames of that round, (N + 1) T_S; the 1 us
		// rounding of the pause can only shorten it.
		Time longest = 0;
		for (size_t k = 1; k < r.out.size(); k++)
			if (r.out[k].first < s.stop_ns)
				longest = std::max(longest, r.out[k].first - r.out[k - 1].second);
		Time bound = 208000 - 52000;
		Time rounds = static_cast<Time>(n + 1) * 8000;
		EXPECT_GE(longest + rounds + 1000, bound) << n;
		EXPECT_LE(longest + rounds, bound) << n;
		EXPECT_GT(idle * 20, s.stop_ns - from) << n; // > 5 % idle
		std::printf("underrun n=%d: idle %.1f %% of %.1f ms, longest gap %.1f us\n", n,
		            100.0 * static_cast<double>(idle) /
		                    static_cast<double>(s.stop_ns - from),
		            static_cast<double>(s.stop_ns - from) / 1e6,
		            static_cast<double>(longest) / 1e3);
	}
}

// App. C (3): N flows starting together at line rate.  The first BTS of
// each flow comes from its first frame that finds q > Q_Th; the flow
// still has R T_F bytes out from that frame on, while the bottleneck
// drains R T_F: the peak is Q_Th + (N - 1) R T_F, which is App. C's
// B_incast = N R T_F with footnote 6's k MTU = Q_Th = T_F R (the sweep's
// (0.5, 1) BDP pair).  Tolerance N S: the N frames of a round arrive
// together, so the trigger falls somewhere within one round of N frames
// above Q_Th.
TEST(SfcModel, SynchronizedIncastPeaksAtNRTF)
{
	for (int n : {2, 4, 8}) {
		Scenario s = base(n);
		s.q_th = kBdp;
		s.q_tg = kBdp / 2;
		s.bloom_reset_ns = 4 * feedback_ns(s);
		Result r = simulate(s);
		ASSERT_FALSE(r.bts.empty());
		EXPECT_EQ(r.drops, 0u);
		// The first wave: what reaches the switch until the first
		// resumed frame can (trigger + T_F + the shortest pause).
		Time first = r.bts[0].trigger_ns, until = first + feedback_ns(s);
		uint64_t peak = 0;
		for (auto [t, q] : r.depth)
			if (t <= until)
				peak = std::max(peak, q);
		uint64_t want = static_cast<uint64_t>(n) * kBdp,
			 tol = static_cast<uint64_t>(n) * 1000;
		EXPECT_GE(peak + tol, want) << n;
		EXPECT_LE(peak, want + tol) << n;
		// Each flow got exactly one BTS from the queue in that wave.
		int queue_bts = 0;
		for (const Bts &x : r.bts)
			if (x.trigger_ns < until && x.h.cacheable())
				queue_bts++;
		EXPECT_EQ(queue_bts, n);
		std::printf("incast n=%d: first-wave peak %lu B, N R T_F %lu B\n", n,
		            static_cast<unsigned long>(peak), static_cast<unsigned long>(want));
	}
}

// §2.11 / §5.3 (Fig. 5): the queue settles at T_F N R.  Each cycle every
// flow sends R T_F (its BTS loop), then pauses (q - Q_Tg) / R for the
// depth q its first frame of the cycle found; the bottleneck drains
// R (T_F + pause) meanwhile, so the next cycle's first frames find
//   q' = q + N R T_F - R T_F - (q - Q_Tg) = Q_Tg + (N - 1) R T_F,
// = N R T_F at the default Q_Tg = 1 BDP, whatever q was.  A Bloom epoch
// that starts inside a flow's window gives it a second, later BTS that
// replaces the pause and lowers that cycle's q' by N R s (s its offset),
// so the reset period is 4 T_F (longer than the paper's 1/2-2 RTT, which
// in this model puts a second BTS into most windows) and the median over
// the cycles is compared.  Tolerance S: depths are sampled at frame
// arrivals, one frame apart; the 1 us rounding of the pause is 125 B.
TEST(SfcModel, SynchronizedIncastSettlesAtNRTF)
{
	for (int n : {2, 4, 8}) {
		Scenario s = base(n);
		s.q_tg = kBdp;
		s.q_th = 2 * kBdp;
		s.bloom_reset_ns = 4 * feedback_ns(s);
		Result r = simulate(s);
		EXPECT_EQ(r.drops, 0u);
		// The depth the first frame after each pause finds (second
		// half of the run: settled).
		std::vector<uint64_t> q;
		for (size_t i = 0; i < r.sends.size(); i++)
			for (size_t k = 1; k < r.sends[i].size(); k++)
				if (r.sends[i][k].start_ns > r.sends[i][k - 1].start_ns + 8000 &&
				    r.sends[i][k].start_ns > s.stop_ns / 2)
					q.push_back(r.qd[i][k]);
		ASSERT_GE(q.size(), 10u) << n;
		std::sort(q.begin(), q.end());
		uint64_t median = q[q.size() / 2], want = static_cast<uint64_t>(n) * kBdp;
		EXPECT_GE(median + 1000, want) << n;
		EXPECT_LE(median, want + 1000) << n;
		EXPECT_EQ(idle_ns(r, r.bts[0].trigger_ns, s.stop_ns), 0u) << n;
		std::printf("settled n=%d: median depth at resume %lu B (of %zu, %lu..%lu), N R "
		            "T_F %lu B\n",
		            n, static_cast<unsigned long>(median), q.size(),
		            static_cast<unsigned long>(q.front()),
		            static_cast<unsigned long>(q.back()), static_cast<unsigned long>(want));
	}
}

// §2.6 and §2.10 end to end: every BTS from the queue carries
// ceil((qd - Q_Tg) * 8 / R_Mbps) us for the depth qd its trigger frame
// found (measured here before the ingress), and its sender's next frame
// starts exactly pause_us after the BTS arrived (or when its link frees)
// and reaches the switch T_F + pause after the trigger.
TEST(SfcModel, PauseIsTheDrainTimeOfTheTriggerDepth)
{
	for (bool cache : {false, true}) {
		Scenario s = base(4);
		s.q_tg = kBdp;
		s.q_th = 2 * kBdp;
		s.cache = cache;
		s.bloom_reset_ns = feedback_ns(s) / 2; // the spec's 1/2 RTT
		s.stop_ns = 10000000;
		Result r = simulate(s);
		ASSERT_GE(r.bts.size(), 20u);
		const uint64_t r_mbps = s.rate_bps / 1000000;
		size_t checked = 0, resumed = 0;
		for (size_t j = 0; j < r.bts.size(); j++) {
			const Bts &x = r.bts[j];
			bool from_queue = x.qd > s.q_th;
			EXPECT_EQ(x.h.cacheable(), from_queue);
			uint64_t tp = from_queue ? ((x.qd - s.q_tg) * 8 + r_mbps - 1) / r_mbps : 0;
			if (!(x.h.flags & kBtsFlagCacheHit)) {
				ASSERT_TRUE(from_queue);
				EXPECT_EQ(x.h.pause_us, tp) << "qd " << x.qd;
				EXPECT_EQ(x.h.qdepth_64, x.qd / 64);
				checked++;
			} else {
				ASSERT_TRUE(cache);
				EXPECT_GE(x.h.pause_us, tp); // max(cached, own)
			}
			EXPECT_EQ(x.arrive_ns - x.trigger_ns,
			          ser_ns(kBtsFrameBytes, s.rate_bps) + s.delay_ns);
			// The sender's next frame after this BTS, unless another
			// BTS reaches it first (replace).
			const std::vector<Send> &v = r.sends[static_cast<size_t>(x.host)];
			auto it = std::lower_bound(
				v.begin(), v.end(), x.arrive_ns,
				[](const Send &a, Time t) { return a.start_ns < t; });
			if (it == v.end())
				continue;
			bool replaced = false;
			for (const Bts &y : r.bts)
				if (&y != &x && y.host == x.host && y.arrive_ns >= x.arrive_ns &&
				    y.arrive_ns <= it->start_ns)
					replaced = true;
			if (replaced)
				continue;
			Time pause_end = x.arrive_ns + Time{x.h.pause_us} * 1000;
			Time link_free = it == v.begin() ? 0 : std::prev(it)->start_ns + 8000;
			EXPECT_EQ(it->start_ns, std::max(pause_end, link_free));
			if (pause_end >= link_free) {
				EXPECT_EQ(it->at_switch_ns - x.trigger_ns,
				          feedback_ns(s) + Time{x.h.pause_us} * 1000);
				resumed++;
			}
		}
		EXPECT_GE(checked, 10u);
		EXPECT_GE(resumed, 10u);
		std::printf("pause (cache %d): %zu BTS, %zu from the queue alone checked, %zu "
		            "resumes timed\n",
		            cache, r.bts.size(), checked, resumed);
	}
}

} // namespace
