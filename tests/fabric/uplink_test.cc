// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Host uplinks (uplink.h): a shaped port hands the switch its host's
// frames at the port's rate, pauses the host with PFC while the NIC's queue
// is long and resumes it, honours the switch's own pauses and never ends
// them early; an unshaped port is unchanged; the directive and its errors;
// the summaries' uplink_* fields.
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fabric.h"
#include "lateness.h"
#include "telemetry.h"
#include "test_frames.h"
#include "topology.h"
#include "uplink.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

// A 1000-byte frame is 1000 + 24 = 1024 bytes on the wire: 8192 bits,
// 81920 ns at 100 Mbit/s, 8192 ns at 1 Gbit/s, 819200 ns at 10 Mbit/s.
// A PFC frame is 60 + 24 = 84 bytes: 6720 ns at 100 Mbit/s.
constexpr Time kFrame100M = 81920;
constexpr Time kFrame1G = 8192;
constexpr Time kPfc100M = 6720;

Topology parse_or_die(const std::string &text)
{
	TopologyResult r = parse_topology(text);
	EXPECT_TRUE(r) << r.error.to_string();
	return r ? *r.topology : Topology{};
}

// Polls every event up to t (kNever: until nothing is left).
void run_until(Fabric &f, Time t, std::vector<FabricTransmission> &out)
{
	for (Time n = f.next_event_time(); n != kNever && n <= t; n = f.next_event_time())
		for (FabricTransmission &tx : f.poll(n))
			out.push_back(std::move(tx));
}

std::vector<FabricTransmission> run_all(Fabric &f)
{
	std::vector<FabricTransmission> out;
	run_until(f, kNever, out);
	return out;
}

// The data frames that left port of switch 0.
std::vector<Transmission> data_on(const std::vector<FabricTransmission> &all, int port)
{
	std::vector<Transmission> out;
	for (const FabricTransmission &t : all)
		if (t.sw == 0 && t.tx.port == port && t.tx.priority >= 0)
			out.push_back(t.tx);
	return out;
}

// A PFC frame sent out of port of switch 0, by the switch (it takes time
// on the link) or by the port's uplink (it does not).
struct Pfc {
	size_t index; // in the output
	Time at;      // arrive_ns: when the host has it
	bool uplink;
	uint16_t quanta; // of priority 3
};

std::vector<Pfc> pfc_on(const std::vector<FabricTransmission> &all, int port)
{
	std::vector<Pfc> out;
	for (size_t i = 0; i < all.size(); i++) {
		const Transmission &tx = all[i].tx;
		if (all[i].sw != 0 || tx.port != port || tx.priority >= 0)
			continue;
		auto q = static_cast<uint16_t>(tx.frame[24] << 8 | tx.frame[25]);
		out.push_back({i, tx.arrive_ns, tx.start_ns == tx.end_ns, q});
	}
	return out;
}

// Replays the PFC frames as the host gets them (in arrival order, ties in
// the order sent, as the process delivers them; 1 quantum = 5.12 us at 100
// Mbit/s): while the NIC asks for a pause the host is paused, and the NIC
// never resumes the host while the switch's pause is in force.
void check_host_view(std::vector<Pfc> pfc)
{
	std::stable_sort(pfc.begin(), pfc.end(),
	                 [](const Pfc &a, const Pfc &b) { return a.at < b.at; });
	Time host_until = 0, switch_until = 0;
	bool nic_xoff = false;
	for (size_t i = 0; i < pfc.size(); i++) {
		const Pfc &p = pfc[i];
		Time until = p.at + (p.quanta * 512ull * 1000000000 + 99999999) / 100000000;
		host_until = until;
		if (p.uplink) {
			EXPECT_TRUE(p.quanta != 0 || switch_until <= p.at)
				<< "the NIC's XON at " << p.at << " ends the switch's pause";
			nic_xoff = p.quanta != 0;
		} else {
			switch_until = until;
		}
		Time next = i + 1 < pfc.size() ? pfc[i + 1].at : p.at + 1;
		if (nic_xoff && next != p.at) {
			EXPECT_GE(host_until, next)
				<< "the host runs at " << p.at << " while the NIC asks for a pause";
		}
	}
}

// A host h on s:h sending to r behind s:r (1 Gbit/s, never a bottleneck
// for h's 100 Mbit/s).
std::string two_ports(const std::string &extra)
{
	return "switch s buffer=1MB\n"
	       "port s:h rate=100M delay=1us\n"
	       "port s:r rate=1G delay=1us\n"
	       "route s 10.0.0.2 r\n" +
	       extra;
}

// The host sends n 1000-byte frames, one every 40960 ns: 200 Mbit/s on the
// wire, twice the port's rate.
void send_at_twice_the_rate(Fabric &f, int n)
{
	for (int k = 0; k < n; k++)
		f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 1000), static_cast<Time>(k) * 40960);
}

TEST(Uplink, FramesReachTheSwitchAtThePortRate)
{
	Fabric f(parse_or_die(two_ports("uplink s:h\n")));
	ASSERT_NE(f.uplink(0, 0), nullptr);
	EXPECT_EQ(f.uplink(0, 1), nullptr);
	send_at_twice_the_rate(f, 20);
	std::vector<Transmission> out = data_on(run_all(f), 1);
	ASSERT_EQ(out.size(), 20u);
	// Frame k starts on the uplink when frame k-1 has left, at
	// k * 81920, and its last bit reaches the switch 81920 + 1000 ns
	// later; port r (1G) sends it at once.
	for (size_t k = 0; k < out.size(); k++) {
		EXPECT_EQ(out[k].start_ns, (k + 1) * kFrame100M + 1000) << k;
		EXPECT_EQ(out[k].end_ns, out[k].start_ns + kFrame1G) << k;
	}
	// The default thresholds at 100 Mbit/s (62.5 KB, 125 KB) are far
	// above the 10 KB queued here.
	const Uplink &u = *f.uplink(0, 0);
	EXPECT_EQ(u.params().xon, 62500u);
	EXPECT_EQ(u.params().xoff, 125000u);
	EXPECT_EQ(u.counters().rx_frames, 20u);
	EXPECT_EQ(u.counters().rx_bytes, 20000u);
	EXPECT_EQ(u.counters().xoff_sent, 0u);
	// Frame 19 arrives at 19 * 40960 and waits for frames 10..18.
	EXPECT_EQ(u.counters().max_backlog_bytes, 10000u);
	EXPECT_EQ(u.backlog_bytes(), 0u);
	EXPECT_EQ(f.switch_at(0).port_counters(0).rx_frames, 20u);
}

TEST(Uplink, ShortFramesArePaddedAndCarryTheOverhead)
{
	Fabric f(parse_or_die(two_ports("uplink s:h\n")));
	// 58 bytes: max(58, 60) + 24 = 84 wire bytes, 6720 ns; then 1000
	// bytes, 81920 ns; both at t = 0.
	f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 58), 0);
	f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 1000), 0);
	std::vector<Transmission> out = data_on(run_all(f), 1);
	ASSERT_EQ(out.size(), 2u);
	EXPECT_EQ(out[0].start_ns, 6720u + 1000);
	EXPECT_EQ(out[1].start_ns, 6720u + kFrame100M + 1000);
}

TEST(Uplink, AnUnshapedPortHandsFramesOverAtOnce)
{
	Fabric f(parse_or_die(two_ports("")));
	EXPECT_EQ(f.uplink(0, 0), nullptr);
	send_at_twice_the_rate(f, 20);
	std::vector<Transmission> out = data_on(run_all(f), 1);
	ASSERT_EQ(out.size(), 20u);
	// As before uplinks: the switch has each frame when it is read, and
	// sends it at once: 200 Mbit/s into a port of 100.
	for (size_t k = 0; k < out.size(); k++)
		EXPECT_EQ(out[k].start_ns, k * 40960) << k;
}

void expect_pfc_frame(const std::vector<uint8_t> &f, uint16_t quanta)
{
	ASSERT_EQ(f.size(), 60u);
	std::vector<uint8_t> want = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, // PFC group
	                             0x02, 0xfb, 0x00, 0x00, 0x00, 0x00, // port s:h
	                             0x88, 0x08,                         // MAC control
	                             0x01, 0x01,                         // PFC
	                             0x00, 0x08};                        // priority 3
	for (int p = 0; p < kNumPriorities; p++) {
		uint16_t q = p == 3 ? quanta : 0;
		want.push_back(static_cast<uint8_t>(q >> 8));
		want.push_back(static_cast<uint8_t>(q & 0xff));
	}
	want.resize(60, 0);
	EXPECT_EQ(f, want);
}

TEST(Uplink, PausesTheHostAboveXoffAndResumesItAtXon)
{
	Fabric f(parse_or_die(two_ports("uplink s:h xoff=4KB xon=2KB\n")));
	// Frame k arrives at k * 40960 and frame j starts at j * 81920, so
	// after frame k, frames ceil(k/2) .. k are not sent yet: frames
	// 4..7, 4000 bytes, after frame 7 at 286720: XOFF.  The host stops
	// there.  Frames 4 and 5 start at 327680 and 409600, leaving 2000
	// bytes: XON at 409600.
	send_at_twice_the_rate(f, 8);
	std::vector<FabricTransmission> all = run_all(f);
	std::vector<Pfc> pfc = pfc_on(all, 0);
	ASSERT_EQ(pfc.size(), 2u);
	const Transmission &xoff = all[pfc[0].index].tx;
	const Transmission &xon = all[pfc[1].index].tx;
	EXPECT_EQ(xoff.start_ns, 286720u);
	EXPECT_EQ(xoff.end_ns, 286720u);
	EXPECT_EQ(xoff.arrive_ns, 286720u);
	expect_pfc_frame(xoff.frame, 0xffff);
	EXPECT_EQ(xon.arrive_ns, 409600u);
	expect_pfc_frame(xon.frame, 0);

	const UplinkCounters &c = f.uplink(0, 0)->counters();
	EXPECT_EQ(c.xoff_sent, 1u);
	EXPECT_EQ(c.xon_sent, 1u);
	EXPECT_EQ(c.xon_deferred, 0u);
	EXPECT_EQ(c.max_backlog_bytes, 4000u);
	EXPECT_FALSE(f.uplink(0, 0)->xoff(3));
	// The frames still all went through, at the port's rate, and the
	// PFC frames are the NIC's, not the switch's.
	std::vector<Transmission> out = data_on(all, 1);
	ASSERT_EQ(out.size(), 8u);
	EXPECT_EQ(out.back().start_ns, 8 * kFrame100M + 1000);
	EXPECT_EQ(f.switch_at(0).port_counters(0).tx_frames, 0u);
	EXPECT_EQ(f.switch_at(0).queue_status(0, 3, 0).counters.xoff_sent, 0u);
}

TEST(Uplink, RefreshesItsPauseAtHalfThePauseTime)
{
	// 10 quanta at 100 Mbit/s: 10 * 512 bits, 51200 ns; refreshed every
	// 25600 ns from the XOFF at 286720 until the XON at 409600: 4 times.
	Fabric f(parse_or_die("switch s buffer=1MB\n"
	                      "port s:h rate=100M delay=1us pause_quanta=10\n"
	                      "port s:r rate=1G delay=1us\n"
	                      "route s 10.0.0.2 r\n"
	                      "uplink s:h xoff=4KB xon=2KB\n"));
	send_at_twice_the_rate(f, 8);
	std::vector<FabricTransmission> all = run_all(f);
	std::vector<Pfc> pfc = pfc_on(all, 0);
	ASSERT_EQ(pfc.size(), 6u);
	for (size_t n = 0; n < 5; n++) {
		EXPECT_EQ(pfc[n].at, 286720 + 25600 * n) << n;
		EXPECT_EQ(pfc[n].quanta, 10) << n;
	}
	EXPECT_EQ(pfc[5].at, 409600u);
	EXPECT_EQ(pfc[5].quanta, 0);
	EXPECT_EQ(f.uplink(0, 0)->counters().xoff_sent, 5u);
}

// The switch pauses the host too (PFC at its ingress s:h, 10 Mbit/s toward
// r), with a long delay on h's link so that its XOFF takes a while to reach
// the NIC.  The host sends 17 frames at 0, and extra frames at 2 ms.
//
// Uplink: frame j starts at j * 81920 and reaches the switch 81920 +
// 500000 ns later; 6000 bytes wait after frame 6 arrives: XOFF at 0.
// Switch: frame 0 arrives at 581920 and leaves for r at once; frames 1, 2
// arrive at 663840, 745760: 2000 bytes at the ingress, XOFF at 745760,
// which reaches the NIC at 745760 + 6720 + 500000 = 1252480.  Meanwhile
// the NIC goes on: after frame 13 starts at 1064960 3000 bytes wait, down
// to xon, but the switch asserts XOFF: the XON is deferred.  From 1252480
// the NIC holds frame 16.  Port r sends a frame every 819200 ns from
// 581920; the switch's ingress is back to 1000 bytes when frame 14
// starts, at 581920 + 14 * 819200 = 12050720, its XON reaching the NIC at
// 12050720 + 6720 + 500000 = 12557440.  The NIC sends frame 16 then, and
// the XON it deferred.
std::string paused_by_the_switch()
{
	return "switch s buffer=1MB\n"
	       "port s:h rate=100M delay=500us\n"
	       "port s:r rate=10M delay=1us\n"
	       "route s 10.0.0.2 r\n"
	       "pfc s:h prio=3 xoff=2KB xon=1KB headroom=40KB\n"
	       "uplink s:h xoff=6KB xon=3KB\n";
}

constexpr Time kSwitchXonAtNic = 12557440;

std::vector<FabricTransmission> run_paused(Fabric &f, int extra, bool every_event)
{
	std::vector<FabricTransmission> all;
	for (int k = 0; k < 17; k++)
		f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 1000), 0);
	if (every_event)
		run_until(f, 2000000, all);
	for (int k = 0; k < extra; k++)
		f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 1000), 2000000);
	if (every_event) {
		run_until(f, kNever, all);
	} else {
		for (FabricTransmission &tx : f.poll(1000000000))
			all.push_back(std::move(tx));
	}
	return all;
}

TEST(Uplink, DefersItsXonWhileTheSwitchPausesTheHost)
{
	Fabric f(parse_or_die(paused_by_the_switch()));
	std::vector<FabricTransmission> all;
	for (int k = 0; k < 17; k++)
		f.on_ingress(0, 0, udp_frame(1, 2, kTosData, 1000), 0);
	// The switch's pause holds the NIC: 16 frames reached the switch
	// when its XON reaches the NIC, and the 17th then.
	run_until(f, kSwitchXonAtNic - 1, all);
	EXPECT_EQ(f.switch_at(0).port_counters(0).rx_frames, 16u);
	EXPECT_TRUE(f.uplink(0, 0)->paused(3, kSwitchXonAtNic - 1));
	EXPECT_TRUE(f.uplink(0, 0)->xoff(3));
	run_until(f, kNever, all);
	EXPECT_EQ(f.switch_at(0).port_counters(0).rx_frames, 17u);

	std::vector<Pfc> pfc = pfc_on(all, 0);
	ASSERT_EQ(pfc.size(), 4u);
	// The NIC's XOFF at 0, the switch's at 1252480, the switch's XON,
	// and only after it (the same time, later in the output) the
	// NIC's XON: never while the switch's pause is in force.
	EXPECT_TRUE(pfc[0].uplink);
	EXPECT_EQ(pfc[0].at, 0u);
	EXPECT_EQ(pfc[0].quanta, 0xffff);
	EXPECT_FALSE(pfc[1].uplink);
	EXPECT_EQ(pfc[1].at, 745760 + kPfc100M + 500000);
	EXPECT_EQ(pfc[1].quanta, 0xffff);
	EXPECT_FALSE(pfc[2].uplink);
	EXPECT_EQ(pfc[2].at, kSwitchXonAtNic);
	EXPECT_EQ(pfc[2].quanta, 0);
	EXPECT_TRUE(pfc[3].uplink);
	EXPECT_EQ(pfc[3].at, kSwitchXonAtNic);
	EXPECT_EQ(pfc[3].quanta, 0);
	EXPECT_GT(pfc[3].index, pfc[2].index);
	check_host_view(pfc);

	const UplinkCounters &c = f.uplink(0, 0)->counters();
	EXPECT_EQ(c.xoff_sent, 1u);
	EXPECT_EQ(c.xon_sent, 1u);
	EXPECT_EQ(c.xon_deferred, 1u);
	EXPECT_EQ(c.pause_rx, 2u);
	EXPECT_EQ(c.max_backlog_bytes, 16000u);
	std::vector<Transmission> out = data_on(all, 1);
	ASSERT_EQ(out.size(), 17u);
	EXPECT_EQ(f.switch_at(0).total_drops(), 0u);
	// Frame 16 left the NIC at the XON and reached the switch 81920 +
	// 500000 ns later, while r still sent frame 15: r never idled.
	EXPECT_EQ(out.back().start_ns, 581920u + 16 * 819200);
	EXPECT_EQ(out.back().start_ns, out[15].end_ns);
	EXPECT_LT(kSwitchXonAtNic + kFrame100M + 500000, out[15].end_ns);
}

TEST(Uplink, PausesTheHostAgainAfterTheSwitchsXon)
{
	// As above, with 10 more frames at 2 ms, while the switch holds the
	// NIC: 11000 bytes wait when the switch's XON reaches the host, and
	// would end the NIC's pause there: the NIC sends its XOFF again,
	// right after it.
	Fabric f(parse_or_die(paused_by_the_switch()));
	std::vector<FabricTransmission> all = run_paused(f, 10, true);
	std::vector<Pfc> pfc = pfc_on(all, 0);
	ASSERT_GE(pfc.size(), 4u);
	EXPECT_FALSE(pfc[2].uplink);
	EXPECT_EQ(pfc[2].at, kSwitchXonAtNic);
	EXPECT_EQ(pfc[2].quanta, 0);
	EXPECT_TRUE(pfc[3].uplink);
	EXPECT_EQ(pfc[3].at, kSwitchXonAtNic);
	EXPECT_EQ(pfc[3].quanta, 0xffff);
	EXPECT_GT(pfc[3].index, pfc[2].index);
	// Whatever follows (the switch pauses the host again), neither ends
	// the other's pause.
	check_host_view(pfc);
	EXPECT_GE(f.uplink(0, 0)->counters().xoff_sent, 2u);
	EXPECT_EQ(data_on(all, 1).size(), 27u);
	EXPECT_EQ(f.switch_at(0).total_drops(), 0u);
	EXPECT_FALSE(f.uplink(0, 0)->xoff(3));
	EXPECT_EQ(f.uplink(0, 0)->backlog_bytes(), 0u);
}

TEST(Uplink, ResultDoesNotDependOnPollTiming)
{
	Fabric a(parse_or_die(paused_by_the_switch()));
	Fabric b(parse_or_die(paused_by_the_switch()));
	std::vector<FabricTransmission> x = run_paused(a, 10, true);
	std::vector<FabricTransmission> y = run_paused(b, 10, false);
	ASSERT_EQ(x.size(), y.size());
	for (size_t i = 0; i < x.size(); i++) {
		EXPECT_EQ(x[i].tx.port, y[i].tx.port) << i;
		EXPECT_EQ(x[i].tx.start_ns, y[i].tx.start_ns) << i;
		EXPECT_EQ(x[i].tx.arrive_ns, y[i].tx.arrive_ns) << i;
		EXPECT_EQ(x[i].tx.frame, y[i].tx.frame) << i;
	}
}

// ---- the directive ----------------------------------------------------------

const char kTwoSwitches[] = "switch s0 buffer=1MB\n"
			    "switch s1 buffer=1MB\n"
			    "port s0:h rate=25M delay=1us\n"
			    "link s0:up s1:down rate=100M delay=1us\n"
			    "port s1:r rate=100M delay=1us attach=if:r\n";

TEST(UplinkDirective, WildcardTakesHostPortsWithDefaultsFromTheirRate)
{
	Topology t = parse_or_die(std::string(kTwoSwitches) + "uplink *:*\n");
	const PortConfig &h = t.switches[0].ports[0], &up = t.switches[0].ports[1];
	const PortConfig &down = t.switches[1].ports[0], &r = t.switches[1].ports[1];
	// 5 ms of the port's rate for xon, twice that for xoff.
	EXPECT_TRUE(h.uplink.enabled);
	EXPECT_EQ(h.uplink.xon, 15625u);
	EXPECT_EQ(h.uplink.xoff, 31250u);
	EXPECT_TRUE(r.uplink.enabled);
	EXPECT_EQ(r.uplink.xon, 62500u);
	EXPECT_EQ(r.uplink.xoff, 125000u);
	EXPECT_FALSE(up.uplink.enabled);
	EXPECT_FALSE(down.uplink.enabled);
	// Off without the directive.
	Topology none = parse_or_die(kTwoSwitches);
	EXPECT_FALSE(none.switches[0].ports[0].uplink.enabled);
	// A floor of two frames on slow links.
	EXPECT_EQ(default_uplink_params(1000000).xon, 3000u);
}

TEST(UplinkDirective, Thresholds)
{
	auto h = [](const std::string &line) {
		Topology t = parse_or_die(std::string(kTwoSwitches) + line + "\n");
		return t.switches[0].ports[0].uplink;
	};
	UplinkParams u = h("uplink s0:h xoff=10KB xon=1KB");
	EXPECT_EQ(u.xoff, 10000u);
	EXPECT_EQ(u.xon, 1000u);
	u = h("uplink s0:h xoff=10KB");
	EXPECT_EQ(u.xon, 5000u);
	u = h("uplink s0:* xon=3KB");
	EXPECT_EQ(u.xoff, 6000u);
	u = h("uplink s0:h xoff=1 xon=0");
	EXPECT_EQ(u.xoff, 1u);
	EXPECT_EQ(u.xon, 0u);
	// A later line replaces an earlier one.
	u = h("uplink *:* xoff=8KB\nuplink s0:h");
	EXPECT_EQ(u.xoff, 31250u);
}

const char kLinkPortError[] =
	"line 6: uplink on s0:up, a link port: only a host's port (port directive) has an uplink";
const char kLinkPortError2[] =
	"line 6: uplink on s1:down, a link port: only a host's port (port directive) has an uplink";

TEST(UplinkDirective, Errors)
{
	struct Case {
		const char *line;
		const char *error;
	} cases[] = {
		{"uplink s0:up", kLinkPortError},
		{"uplink s0:h xoff=0", "line 6: uplink xoff must be between 1 byte and 1 TiB"},
		{"uplink s0:h xon=0", "line 6: uplink xoff must be between 1 byte and 1 TiB"},
		{"uplink s0:h xoff=2TiB", "line 6: uplink xoff must be between 1 byte and 1 TiB"},
		{"uplink s0:h xoff=4KB xon=4KB", "line 6: uplink xon must be below xoff"},
		{"uplink s0:h xoff=4KB xon=8KB", "line 6: uplink xon must be below xoff"},
		{"uplink s0:h xoff=lots", nullptr},
		{"uplink s0:h rate=1G", "line 6: unknown attribute 'rate'"},
		{"uplink", "line 6: too few words; usage: uplink TARGET [xoff=SIZE] [xon=SIZE]"},
		{"uplink s0:nope", "line 6: 's0:nope' matches no declared port"},
		{"uplink s1:down", kLinkPortError2},
	};
	for (const Case &c : cases) {
		TopologyResult r = parse_topology(std::string(kTwoSwitches) + c.line + "\n");
		ASSERT_FALSE(r) << c.line;
		if (c.error)
			EXPECT_EQ(r.error.to_string(), c.error) << c.line;
		else
			EXPECT_EQ(r.error.line, 6) << c.line << ": " << r.error.to_string();
	}
	// A wildcard that finds only link ports.
	TopologyResult r = parse_topology("switch s0 buffer=1MB\nswitch s1 buffer=1MB\n"
	                                  "link s0:up s1:down rate=1G delay=1us\n"
	                                  "uplink *:*\n");
	ASSERT_FALSE(r);
	EXPECT_EQ(r.error.to_string(), "line 4: '*:*' matches no host port (port directive)");
	// validate() refuses an uplink on a link's end built by hand.
	Topology t = parse_or_die(kTwoSwitches);
	t.switches[0].ports[1].uplink = default_uplink_params(100000000);
	EXPECT_EQ(validate(t),
	          "switch s0: port up: uplink on a link's end (only host ports have one)");
	EXPECT_THROW(Fabric{t}, std::invalid_argument);
	t = parse_or_die(kTwoSwitches);
	t.switches[0].ports[0].uplink = {true, 1000, 1000};
	EXPECT_EQ(validate(t), "switch s0: port h: uplink xon must be below xoff");
}

// ---- telemetry -------------------------------------------------------------

std::string flat_value(const std::string &flat, const std::string &key)
{
	std::istringstream in(flat);
	std::string l;
	while (std::getline(in, l))
		if (l.rfind(key + " ", 0) == 0)
			return l.substr(key.size() + 1);
	return "<missing>";
}

TEST(UplinkTelemetry, SummariesCarryTheCountersOfShapedPortsOnly)
{
	Fabric f(parse_or_die(two_ports("uplink s:h xoff=4KB xon=2KB\n")));
	send_at_twice_the_rate(f, 8);
	run_all(f);
	rxecc::fabric::proc::Telemetry t(f, {{"if:h", "if:r"}});
	rxecc::fabric::proc::LatenessHistogram lat;
	std::string flat = t.flat(1000000, lat);
	EXPECT_EQ(flat_value(flat, "s.h.uplink_xoff"), "4000");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_xon"), "2000");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_rx_frames"), "8");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_rx_bytes"), "8000");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_backlog_bytes"), "0");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_max_backlog_bytes"), "4000");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_xoff_sent"), "1");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_xon_sent"), "1");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_xon_deferred"), "0");
	EXPECT_EQ(flat_value(flat, "s.h.uplink_pause_rx"), "0");
	EXPECT_EQ(flat.find("s.r.uplink_"), std::string::npos);
	// The NIC's PFC frames are not the switches'.
	EXPECT_EQ(flat_value(flat, "pfc_frames_sent"), "0");
	std::string json = t.json(1000000, lat);
	EXPECT_NE(json.find("\"uplink_xoff_sent\":1"), std::string::npos);
}

} // namespace
