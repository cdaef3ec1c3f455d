// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The topology file parser: a complete file, value syntax, and bad files
// rejected with the right line and nothing returned.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "fabric.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;

const char kDumbbell[] = R"(# a dumbbell
seed 7
switch s0 buffer=1MiB alpha=1/8 strict=6,7 quantum=3:3000,0:1500 dscp=10:1
switch s1 buffer=512KB   # trailing comment
port s0:h1 rate=100M delay=5us attach=veth-h1 mac=02:00:00:00:00:01
port s0:h2 rate=100Mbps delay=500ns flood=no

link s0:up s1:down rate=1G delay=10us pause_quanta=1000
port s1:r rate=2.5G delay=1ms overhead=0
route s0 10.0.0.0/24 up
route s0 10.0.0.1 h1
route s1 fd00::/64 r
mac s1 02:00:00:00:00:09 r
ecn s0:* prio=3 kmin=40KB kmax=160KB pmax=0.2
ecn s1:r prio=3,4 kmin=5KB kmax=10KB pmax=1 at=enqueue
pfc *:* prio=3 xoff=64KB xon=48KB headroom=32KB
)";

TEST(TopologyParse, CompleteFile)
{
	TopologyResult r = parse_topology(kDumbbell);
	ASSERT_TRUE(r) << r.error.to_string();
	const Topology &t = *r.topology;
	EXPECT_EQ(t.seed, 7u);
	ASSERT_EQ(t.switches.size(), 2u);
	const SwitchConfig &s0 = t.switches[0], &s1 = t.switches[1];
	EXPECT_EQ(s0.buffer_bytes, 1048576u);
	EXPECT_EQ(s1.buffer_bytes, 512000u);
	EXPECT_EQ(s0.alpha_q16, 8192u);
	EXPECT_EQ(s1.alpha_q16, 65536u);
	EXPECT_EQ(s0.strict_mask, 0xc0);
	EXPECT_EQ(s0.quantum[3], 3000u);
	EXPECT_EQ(s0.quantum[0], 1500u);
	// dscp= is the whole map, as rxe's dscp_prio: DSCPs not named are on
	// priority 0; without it a switch has the conventional map
	EXPECT_EQ(s0.dscp_to_prio[10], 1);
	EXPECT_EQ(s0.dscp_to_prio[26], 0);
	EXPECT_EQ(s0.dscp_to_prio[48], 0);
	EXPECT_EQ(s1.dscp_to_prio[10], 0);
	EXPECT_EQ(s1.dscp_to_prio[26], 3);
	EXPECT_EQ(s1.dscp_to_prio[48], 6);

	ASSERT_EQ(s0.ports.size(), 3u);
	ASSERT_EQ(s1.ports.size(), 2u);
	const PortConfig &h1 = s0.ports[0], &h2 = s0.ports[1], &up = s0.ports[2];
	EXPECT_EQ(h1.name, "h1");
	EXPECT_EQ(h1.rate_bps, 100000000u);
	EXPECT_EQ(h1.delay_ns, 5000u);
	EXPECT_EQ(h1.attach, "veth-h1");
	EXPECT_EQ(h1.mac, (Mac{2, 0, 0, 0, 0, 1}));
	EXPECT_TRUE(h1.flood);
	EXPECT_FALSE(h2.flood);
	EXPECT_EQ(h2.delay_ns, 500u);
	EXPECT_EQ(h2.mac, (Mac{0x02, 0xfb, 0, 0, 0, 1})); // generated
	EXPECT_EQ(up.rate_bps, 1000000000u);
	EXPECT_EQ(up.delay_ns, 10000u);
	EXPECT_EQ(up.pause_quanta, 1000);
	EXPECT_EQ(s1.ports[0].name, "down");
	EXPECT_EQ(s1.ports[0].pause_quanta, 1000);
	EXPECT_EQ(s1.ports[1].rate_bps, 2500000000u);
	EXPECT_EQ(s1.ports[1].delay_ns, 1000000u);
	EXPECT_EQ(s1.ports[1].overhead_bytes, 0u);

	ASSERT_EQ(t.links.size(), 1u);
	EXPECT_EQ(t.links[0].sw_a, 0);
	EXPECT_EQ(t.links[0].port_a, 2);
	EXPECT_EQ(t.links[0].sw_b, 1);
	EXPECT_EQ(t.links[0].port_b, 0);

	ASSERT_EQ(s0.routes.size(), 2u);
	EXPECT_EQ(s0.routes[0].prefix, IpAddr::v4(10, 0, 0, 0));
	EXPECT_EQ(s0.routes[0].prefix_len, 24u);
	EXPECT_EQ(s0.routes[0].port, 2);
	EXPECT_EQ(s0.routes[1].prefix_len, 32u);
	EXPECT_EQ(s0.routes[1].port, 0);
	ASSERT_EQ(s1.routes.size(), 1u);
	EXPECT_TRUE(s1.routes[0].prefix.v6);
	EXPECT_EQ(s1.routes[0].prefix.b[0], 0xfd);
	EXPECT_EQ(s1.routes[0].prefix_len, 64u);
	ASSERT_EQ(s1.macs.size(), 1u);
	EXPECT_EQ(s1.macs[0].port, 1);

	for (const PortConfig &p : s0.ports) {
		EXPECT_TRUE(p.red[3].enabled);
		EXPECT_EQ(p.red[3].kmin, 40000u);
		EXPECT_EQ(p.red[3].kmax, 160000u);
		EXPECT_EQ(p.red[3].pmax_q16, 13107u);
		EXPECT_EQ(p.red[3].point, MarkPoint::kDequeue);
		EXPECT_FALSE(p.red[4].enabled);
	}
	EXPECT_FALSE(s1.ports[0].red[3].enabled);
	EXPECT_EQ(s1.ports[1].red[4].pmax_q16, 65536u);
	EXPECT_EQ(s1.ports[1].red[4].point, MarkPoint::kEnqueue);
	for (const SwitchConfig *s : {&s0, &s1})
		for (const PortConfig &p : s->ports) {
			EXPECT_TRUE(p.pfc[3].enabled);
			EXPECT_EQ(p.pfc[3].xoff, 64000u);
			EXPECT_EQ(p.pfc[3].xon, 48000u);
			EXPECT_EQ(p.pfc[3].headroom, 32000u);
			EXPECT_FALSE(p.pfc[2].enabled);
		}

	Fabric f(t);
	EXPECT_EQ(f.num_switches(), 2);
	EXPECT_EQ(f.find_switch("s1"), 1);
	EXPECT_TRUE(f.is_internal(0, 2));
	EXPECT_FALSE(f.is_internal(0, 0));
	EXPECT_EQ(f.switch_at(0).buffer().pool_size(), 1048576u - 3 * 32000u);
}

// Sizes, rates and times are the common grammar (units_test.cc); here
// the forms the topology files and the scripts write, through a file.
TEST(TopologyValues, SizesRatesAndTimes)
{
	TopologyResult r = parse_topology("switch s0 buffer=64KiB\n"
	                                  "switch s1 buffer=1.5KB\n"
	                                  "port s0:a rate=2.5Gbps delay=1.5us\n"
	                                  "port s0:b rate=9600 delay=0\n"
	                                  "port s1:c rate=40mbit delay=0.1ms\n"
	                                  "port s1:d rate=400kbit/s delay=2s\n");
	ASSERT_TRUE(r) << r.error.to_string();
	const Topology &t = *r.topology;
	EXPECT_EQ(t.switches[0].buffer_bytes, 65536u);
	EXPECT_EQ(t.switches[1].buffer_bytes, 1500u);
	EXPECT_EQ(t.switches[0].ports[0].rate_bps, 2500000000u);
	EXPECT_EQ(t.switches[0].ports[0].delay_ns, 1500u);
	EXPECT_EQ(t.switches[0].ports[1].rate_bps, 9600u);
	EXPECT_EQ(t.switches[0].ports[1].delay_ns, 0u);
	EXPECT_EQ(t.switches[1].ports[0].rate_bps, 40000000u);
	EXPECT_EQ(t.switches[1].ports[0].delay_ns, 100000u);
	EXPECT_EQ(t.switches[1].ports[1].rate_bps, 400000u);
	EXPECT_EQ(t.switches[1].ports[1].delay_ns, 2000000000u);
}

TEST(TopologyValues, Fractions)
{
	EXPECT_EQ(parse_fraction_q16("0.2"), 13107u);
	EXPECT_EQ(parse_fraction_q16("0.01"), 655u);
	EXPECT_EQ(parse_fraction_q16("1/8"), 8192u);
	EXPECT_EQ(parse_fraction_q16("1/3"), 21845u);
	EXPECT_EQ(parse_fraction_q16("2"), 131072u);
	EXPECT_FALSE(parse_fraction_q16("1/0"));
	EXPECT_FALSE(parse_fraction_q16("x"));
}

struct BadCase {
	const char *text;
	int line;
	const char *message; // a part of the message
};

class TopologyErrors : public ::testing::TestWithParam<BadCase>
{
};

TEST_P(TopologyErrors, RejectedWithLineAndReason)
{
	const BadCase &c = GetParam();
	TopologyResult r = parse_topology(c.text);
	ASSERT_FALSE(r) << c.text;
	EXPECT_FALSE(r.topology.has_value());
	EXPECT_EQ(r.error.line, c.line) << r.error.to_string();
	EXPECT_NE(r.error.message.find(c.message), std::string::npos) << r.error.to_string();
	if (c.line > 0) {
		EXPECT_EQ(r.error.to_string().rfind("line " + std::to_string(c.line) + ": ", 0),
		          0u);
	}
}

#define SW "switch s0 buffer=1MB\n"
#define PA "port s0:a rate=1G delay=1us\n"
#define PB "port s0:b rate=1G delay=1us\n"

INSTANTIATE_TEST_SUITE_P(
	BadFiles, TopologyErrors,
	::testing::Values(
		BadCase{"", 0, "no switch declared"},
		BadCase{"# only a comment\n", 0, "no switch declared"},
		BadCase{SW "bogus x\n", 2, "unknown directive 'bogus'"},
		BadCase{"switch s0\n", 1, "missing attribute 'buffer'"},
		BadCase{"switch s0 buffer=0\n", 1, "buffer"},
		BadCase{"switch s0 buffer=1MB colour=red\n", 1, "unknown attribute 'colour'"},
		BadCase{"switch s0 buffer=1MB buffer=2MB\n", 1, "given twice"},
		BadCase{"switch s0 buffer\n", 1, "expected key=value"},
		BadCase{"switch s0 buffer=1MB alpha=0\n", 1, "alpha"},
		BadCase{"switch s0 buffer=1MB dscp=64:1\n", 1,
                        "dscp: '64:1': DSCP 64 is not 0..63"},
		BadCase{"switch s0 buffer=1MB dscp=26:8\n", 1,
                        "dscp: '26:8': priority 8 is not 0..7"},
		BadCase{"switch s0 buffer=1MB dscp=26:3,26:4\n", 1, "dscp: DSCP 26 is named twice"},
		BadCase{"switch s0 buffer=1MB dscp=26:3,\n", 1, "dscp: '' is not DSCP:PRIO"},
		BadCase{"switch s0 buffer=1MB quantum=10\n", 1, "quantum"},
		BadCase{"switch s/0 buffer=1MB\n", 1, "bad switch name"},
		BadCase{SW SW, 2, "declared twice"},
		BadCase{SW "port s0:a rate=100X delay=1us\n", 2,
                        "rate: '100X' is not a rate: unknown unit 'X' (examples: 100M, 2.5Gbit, "
                        "400kbit/s)"},
		BadCase{SW "port s0:a rate=1GBps delay=1us\n", 2,
                        "rate: '1GBps' is not a rate: rates are in bits"},
		BadCase{SW "port s0:a rate=1G delay=5\n", 2,
                        "delay: '5' is not a time: it needs a unit"},
		BadCase{SW "port s0:a rate=1G delay=1.5ns\n", 2,
                        "delay: '1.5ns' is not a time: not a whole"},
		BadCase{"switch s0 buffer=1Mb\n", 1,
                        "buffer: '1Mb' is not a size: sizes are in bytes"},
		BadCase{"switch s0 buffer=1MB quantum=1.5\n", 1, "quantum: '1.5' is not a size"},
		BadCase{SW "port s0:a delay=5us\n", 2, "missing attribute 'rate'"},
		BadCase{SW "port s0:a rate=10 delay=5us\n", 2, "rate must be"},
		BadCase{SW "port s0:a rate=1G delay=5us flood=maybe\n", 2, "bad boolean"},
		BadCase{SW "port s0:a rate=1G delay=5us mac=zz\n", 2, "bad MAC"},
		BadCase{SW "port s0:a rate=1G delay=5us pause_quanta=0\n", 2, "pause_quanta"},
		BadCase{SW "port s0 rate=1G delay=5us\n", 2, "expected switch:port"},
		BadCase{"port s9:a rate=1G delay=1us\n", 1, "unknown switch 's9'"},
		BadCase{SW PA "port s0:a rate=1G delay=1us\n", 3, "already has a port 'a'"},
		BadCase{SW "switch s1 buffer=1MB\n" PA "link s0:a s1:b rate=1G delay=1us\n", 4,
                        "already has a port 'a'"},
		BadCase{SW "link s0:a s0:a rate=1G delay=1us\n", 2, "to itself"},
		BadCase{SW PA "route s0 10.0.0.0/33 a\n", 3, "bad prefix length"},
		BadCase{SW PA "route s0 10.0.0.256 a\n", 3, "bad IP address"},
		BadCase{SW PA "route s0 10.0.0.1 b\n", 3, "has no port 'b'"},
		BadCase{SW PA "route s0 10.0.0.1\n", 3, "usage: route"},
		BadCase{SW PA "mac s0 02:00:00:00:00 a\n", 3, "bad MAC"},
		BadCase{SW PA "ecn s0:a prio=3 kmin=10KB kmax=10KB pmax=0.1\n", 3,
                        "kmin must be below"},
		BadCase{SW PA "ecn s0:a prio=3 kmin=1KB kmax=10KB pmax=1.5\n", 3, "pmax above 1"},
		BadCase{SW PA "ecn s0:a prio=8 kmin=1KB kmax=10KB pmax=1\n", 3, "priority '8'"},
		BadCase{SW PA "ecn s0:zz prio=3 kmin=1KB kmax=10KB pmax=1\n", 3,
                        "matches no declared port"},
		BadCase{SW PA "ecn s0:a prio=3 kmin=1KB kmax=10KB pmax=1 at=later\n", 3,
                        "at must be"},
		BadCase{SW PA "pfc s0:a prio=3 xoff=10KB xon=10KB headroom=5KB\n", 3,
                        "xon must be below"},
		BadCase{"switch s0 buffer=10KB\n" PA PB
                        "pfc s0:* prio=3 xoff=4KB xon=2KB headroom=6KB\n",
                        4, "headroom now totals 12000"},
		BadCase{SW "switch s1 buffer=1MB\nport s1:a rate=1G delay=0ns\n", 1, "no ports"},
		BadCase{SW "seed x\n", 2, "bad seed"}));

TEST(TopologyParse, LaterLinesOverrideEarlierOnes)
{
	TopologyResult r = parse_topology(SW PA PB "ecn s0:* prio=* kmin=1KB kmax=2KB pmax=1\n"
	                                           "ecn s0:b prio=3 kmin=5KB kmax=6KB pmax=0.5\n"
	                                           "switch s1 buffer=1MB strict=none\n"
	                                           "port s1:x rate=1G delay=0ns\n");
	ASSERT_TRUE(r) << r.error.to_string();
	const SwitchConfig &s0 = r.topology->switches[0];
	EXPECT_EQ(s0.ports[0].red[3].kmin, 1000u);
	EXPECT_EQ(s0.ports[1].red[3].kmin, 5000u);
	EXPECT_EQ(s0.ports[1].red[0].kmin, 1000u);
	EXPECT_EQ(r.topology->switches[1].strict_mask, 0);
}

TEST(TopologyParse, WindowsLineEndingsAndTabs)
{
	TopologyResult r =
		parse_topology("switch\ts0\tbuffer=1MB\r\nport s0:a rate=1G delay=1us\r\n");
	ASSERT_TRUE(r) << r.error.to_string();
	EXPECT_EQ(r.topology->switches[0].ports[0].name, "a");
}

} // namespace
