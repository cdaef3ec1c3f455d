// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "fabric.h"
#include "telemetry.h"
#include "topology.h"

using namespace rxecc::fabric;
using namespace rxecc::fabric::proc;

namespace
{

// 1 Gbit/s: a 1000-byte frame takes (1000 + 24) * 8 = 8192 ns.
const char *kTopo = "switch s0 buffer=1MB\n"
		    "port s0:a rate=1G delay=1us\n"
		    "port s0:b rate=1G delay=1us\n";

std::vector<uint8_t> bcast(size_t len)
{
	std::vector<uint8_t> f(len, 0);
	for (size_t i = 0; i < 6; i++)
		f[i] = 0xff;
	f[6] = 0x02;
	f[11] = 0x01;
	f[12] = 0x88;
	f[13] = 0xb5;
	return f;
}

std::vector<std::string> lines(const std::string &s)
{
	std::vector<std::string> v;
	std::istringstream in(s);
	std::string l;
	while (std::getline(in, l))
		v.push_back(l);
	return v;
}

size_t fields(const std::string &l)
{
	return static_cast<size_t>(std::count(l.begin(), l.end(), ',')) + 1;
}

std::string flat_value(const std::string &flat, const std::string &key)
{
	for (const auto &l : lines(flat)) {
		if (l.rfind(key + " ", 0) == 0)
			return l.substr(key.size() + 1);
	}
	return "<missing>";
}

struct Bench {
	Topology topo = *parse_topology(kTopo).topology;
	Fabric f{topo};
	Telemetry t{f, {{"dgram:127.0.0.1:1:127.0.0.1:2", "stream:/tmp/b.sock"}}};
};

} // namespace

TEST(Telemetry, Headers)
{
	EXPECT_STREQ(Telemetry::queues_header(),
	             "time_us,switch,port,name,prio,queue_bytes,queue_pkts,paused,tx_pkts,"
	             "tx_bytes,ecn_marks,xoff_sent,xon_sent,pause_rx,paused_us,drops\n");
	EXPECT_STREQ(Telemetry::ports_header(),
	             "time_us,switch,port,name,rx_frames,rx_bytes,tx_frames,tx_bytes,"
	             "tx_control_frames,mac_control_rx\n");
}

TEST(Telemetry, CsvRowsOnlyForActiveQueues)
{
	Bench b;
	std::string q, p;
	b.t.sample(1000, &q, &p);
	EXPECT_EQ(q, ""); // nothing happened yet
	ASSERT_EQ(lines(p).size(), 2u);
	EXPECT_EQ(lines(p)[0], "1,s0,0,a,0,0,0,0,0,0");
	EXPECT_EQ(lines(p)[1], "1,s0,1,b,0,0,0,0,0,0");

	for (int i = 0; i < 3; i++)
		b.f.on_ingress(0, 0, bcast(1000), 2000);
	b.f.poll(3000);
	q.clear();
	p.clear();
	b.t.sample(3000, &q, &p);
	// One frame is on the wire (counted as sent), two wait: 2000 bytes.
	ASSERT_EQ(lines(q).size(), 1u) << q;
	EXPECT_EQ(lines(q)[0], "3,s0,1,b,0,2000,2,0,1,1000,0,0,0,0,0,0");
	EXPECT_EQ(fields(lines(q)[0]), fields(Telemetry::queues_header()));
	EXPECT_EQ(lines(p)[0], "3,s0,0,a,3,3000,0,0,0,0");
	EXPECT_EQ(lines(p)[1], "3,s0,1,b,0,0,1,1000,0,0");
	EXPECT_EQ(fields(lines(p)[0]), fields(Telemetry::ports_header()));

	// Drained; the queue stays in the report once it was active.
	b.f.poll(100000);
	q.clear();
	b.t.sample(100000, &q, nullptr);
	ASSERT_EQ(lines(q).size(), 1u);
	EXPECT_EQ(lines(q)[0], "100,s0,1,b,0,0,0,0,3,3000,0,0,0,0,0,0");
	EXPECT_EQ(b.t.samples(), 3u);
}

TEST(Telemetry, FlatAndJsonAgree)
{
	Bench b;
	for (int i = 0; i < 3; i++)
		b.f.on_ingress(0, 0, bcast(1000), 0);
	b.f.poll(1000);
	b.t.sample(1000, nullptr, nullptr);
	b.f.poll(100000);
	b.t.sample(100000, nullptr, nullptr);
	LatenessHistogram lat;
	lat.add(2000);
	lat.add(4000);
	lat.add(300000);
	std::string flat = b.t.flat(100000, lat);
	EXPECT_EQ(flat_value(flat, "time_us"), "100");
	EXPECT_EQ(flat_value(flat, "total_drops"), "0");
	EXPECT_EQ(flat_value(flat, "pfc_frames_sent"), "0");
	EXPECT_EQ(flat_value(flat, "pfc_frames_rx"), "0");
	EXPECT_EQ(flat_value(flat, "s0.drops.buffer_full"), "0");
	EXPECT_EQ(flat_value(flat, "s0.a.attach"), "dgram:127.0.0.1:1:127.0.0.1:2");
	EXPECT_EQ(flat_value(flat, "s0.a.rx_frames"), "3");
	EXPECT_EQ(flat_value(flat, "s0.a.rx_bytes"), "3000");
	EXPECT_EQ(flat_value(flat, "s0.b.tx_frames"), "3");
	EXPECT_EQ(flat_value(flat, "s0.b.rate_bps"), "1000000000");
	EXPECT_EQ(flat_value(flat, "s0.b.delay_ns"), "1000");
	EXPECT_EQ(flat_value(flat, "s0.b.q0.tx_pkts"), "3");
	EXPECT_EQ(flat_value(flat, "s0.b.q0.tx_bytes"), "3000");
	EXPECT_EQ(flat_value(flat, "s0.b.q0.max_queue_bytes"), "2000");
	// Samples of s0.b.q0: 2000 (at 1 us) and 0; nearest rank.
	EXPECT_EQ(flat_value(flat, "s0.b.q0.queue_bytes_p50"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q0.queue_bytes_p99"), "2000");
	EXPECT_EQ(flat_value(flat, "s0.a.q0.tx_pkts"), "<missing>"); // idle
	EXPECT_EQ(flat_value(flat, "delivery_lateness_us.p50"), "4");
	EXPECT_EQ(flat_value(flat, "delivery_lateness_us.max"), "300");

	std::string json = b.t.json(100000, lat);
	EXPECT_EQ(json.rfind("{\"time_us\":100,\"switches\":[{\"name\":\"s0\",\"drops\":{"
	                     "\"malformed\":0,\"no_route\":0,\"link_local\":0,\"buffer_full\":0,"
	                     "\"dynamic_threshold\":0,\"pfc_headroom\":0},\"ports\":[{\"index\":0,"
	                     "\"name\":\"a\",\"attach\":\"dgram:127.0.0.1:1:127.0.0.1:2\","
	                     "\"rate_bps\":1000000000,\"delay_ns\":1000,\"rx_frames\":3,"
	                     "\"rx_bytes\":3000,\"tx_frames\":0,\"tx_bytes\":0,"
	                     "\"tx_control_frames\":0,\"mac_control_rx\":0,\"tx_lost\":0,\"tx_"
	                     "unsent\":0,\"rx_lost\":0,"
	                     "\"rx_errors\":0,\"rx_oversize\":0,"
	                     "\"rx_csum_fixed\":0,\"rx_csum_unsupported\":0,\"queues\":[]},",
	                     0),
	          0u)
		<< json;
	EXPECT_NE(json.find("\"queues\":[{\"prio\":0,\"tx_pkts\":3,\"tx_bytes\":3000,"
	                    "\"ecn_marks\":0,\"xoff_sent\":0,\"xon_sent\":0,\"pause_rx\":0,"
	                    "\"resume_rx\":0,\"paused_us\":0,\"drops\":0,\"max_queue_bytes\":2000,"
	                    "\"queue_bytes_p50\":0,\"queue_bytes_p99\":2000}]}]}],"
	                    "\"total_drops\":0,\"pfc_frames_sent\":0,\"pfc_frames_rx\":0,"
	                    "\"delivery_lateness_us\":{\"p50\":4,\"p99\":"),
	          std::string::npos)
		<< json;
	EXPECT_EQ(json.back(), '\n');
}

TEST(Telemetry, DropsAndPfcAreCounted)
{
	// A tiny buffer: the third frame is a buffer_full drop.
	auto topo = *parse_topology("switch s0 buffer=2500\n"
	                            "port s0:a rate=1G delay=1us\n"
	                            "port s0:b rate=1G delay=1us\n")
	                     .topology;
	Fabric f(topo);
	Telemetry t(f, {{"x", "y"}});
	for (int i = 0; i < 4; i++)
		f.on_ingress(0, 0, bcast(1000), 0);
	f.poll(10);
	std::string q;
	t.sample(10, &q, nullptr);
	LatenessHistogram lat;
	std::string flat = t.flat(10, lat);
	EXPECT_NE(flat_value(flat, "total_drops"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q0.drops"), flat_value(flat, "total_drops"));
	EXPECT_EQ(flat_value(flat, "s0.drops.buffer_full"), flat_value(flat, "total_drops"));
	// The drops column is the last one of the row.
	ASSERT_EQ(lines(q).size(), 1u);
	EXPECT_EQ(lines(q)[0].substr(lines(q)[0].rfind(',') + 1), flat_value(flat, "total_drops"));
}

TEST(Telemetry, PortBackendCountersInSummariesOnly)
{
	Bench b;
	PortIoStats io;
	io.rx_oversize = 7;
	io.rx_csum_fixed = 1234;
	io.rx_csum_unsupported = 2;
	b.t.set_port_io(0, 1, &io);
	LatenessHistogram lat;
	std::string flat = b.t.flat(0, lat);
	EXPECT_EQ(flat_value(flat, "s0.b.rx_oversize"), "7");
	EXPECT_EQ(flat_value(flat, "s0.b.rx_csum_fixed"), "1234");
	EXPECT_EQ(flat_value(flat, "s0.b.rx_csum_unsupported"), "2");
	// A port without a backend reports zeros.
	EXPECT_EQ(flat_value(flat, "s0.a.rx_oversize"), "0");
	EXPECT_EQ(flat_value(flat, "s0.a.rx_csum_fixed"), "0");
	// Read when the summary is made, not when registered.
	io.rx_csum_fixed = 1235;
	EXPECT_EQ(flat_value(b.t.flat(0, lat), "s0.b.rx_csum_fixed"), "1235");
	std::string json = b.t.json(0, lat);
	EXPECT_NE(json.find("\"name\":\"b\",\"attach\":\"stream:/tmp/b.sock\""), std::string::npos);
	EXPECT_NE(json.find("\"mac_control_rx\":0,\"tx_lost\":0,\"tx_unsent\":0,\"rx_lost\":0,"
	                    "\"rx_errors\":0,"
	                    "\"rx_oversize\":7,\"rx_csum_fixed\":1235,"
	                    "\"rx_csum_unsupported\":2,\"queues\""),
	          std::string::npos)
		<< json;
	// ports.csv keeps its columns.
	std::string p;
	b.t.sample(0, nullptr, &p);
	ASSERT_EQ(lines(p).size(), 2u);
	EXPECT_EQ(lines(p)[1], "0,s0,1,b,0,0,0,0,0,0");
}

// A broadcast IPv4/UDP frame of len bytes to the INT port (4792): a zero
// 42-byte shim, then a BTH with opcode (if len leaves room for it).
std::vector<uint8_t> int_bcast(size_t len, uint8_t opcode)
{
	std::vector<uint8_t> f = bcast(len);
	f[12] = 0x08;
	f[13] = 0x00;
	uint8_t *ip = &f[14];
	ip[0] = 0x45;
	ip[1] = 26 << 2;
	auto tot = static_cast<uint16_t>(len - 14);
	ip[2] = static_cast<uint8_t>(tot >> 8);
	ip[3] = static_cast<uint8_t>(tot);
	ip[8] = 64;
	ip[9] = 17;
	uint16_t ck = ipv4_header_checksum(ip, 20);
	ip[10] = static_cast<uint8_t>(ck >> 8);
	ip[11] = static_cast<uint8_t>(ck);
	uint8_t *udp = ip + 20;
	udp[2] = 4792 >> 8;
	udp[3] = 4792 & 0xff;
	auto ul = static_cast<uint16_t>(tot - 20);
	udp[4] = static_cast<uint8_t>(ul >> 8);
	udp[5] = static_cast<uint8_t>(ul);
	if (len > 84)
		f[84] = opcode;
	return f;
}

// The INT counters are in the summaries of the ports that stamp, and
// nowhere else: ports.csv keeps its columns.
TEST(Telemetry, IntCountersOfStampingPorts)
{
	Topology topo = *parse_topology("switch s0 buffer=1MB\n"
	                                "port s0:a rate=1G delay=1us\n"
	                                "port s0:b rate=1G delay=1us\n"
	                                "int s0:b\n")
	                         .topology;
	Fabric f{topo};
	Telemetry t{f, {{"x", "y"}}};
	f.on_ingress(0, 0, int_bcast(1000, 0x0a), 0); // stamped
	f.on_ingress(0, 0, int_bcast(1000, 0x04), 0); // stamped
	f.on_ingress(0, 0, int_bcast(100, 0x11), 0);  // an ACK: not data
	f.on_ingress(0, 0, int_bcast(90, 0x0a), 0);   // too short
	f.poll(1000000);
	LatenessHistogram lat;
	std::string flat = t.flat(1000000, lat);
	EXPECT_EQ(flat_value(flat, "s0.b.int_rate_code"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.int_stamped"), "2");
	EXPECT_EQ(flat_value(flat, "s0.b.int_no_space"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.int_too_short"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.int_not_data"), "1");
	EXPECT_EQ(flat_value(flat, "s0.a.int_stamped"), "<missing>");
	EXPECT_EQ(flat_value(flat, "s0.a.int_rate_code"), "<missing>");
	std::string json = t.json(1000000, lat);
	EXPECT_NE(json.find("\"rx_csum_unsupported\":0,\"int_rate_code\":1,\"int_stamped\":2,"
	                    "\"int_no_space\":0,\"int_too_short\":1,\"int_not_data\":1,"
	                    "\"queues\""),
	          std::string::npos)
		<< json;
	EXPECT_EQ(json.find("\"int_", json.find("\"name\":\"a\"")), json.find("\"int_rate_code\""))
		<< "port a has no INT fields";
	std::string p;
	t.sample(1000000, nullptr, &p);
	ASSERT_EQ(lines(p).size(), 2u);
	EXPECT_EQ(fields(lines(p)[1]), fields(Telemetry::ports_header()));
}

// A broadcast IPv4/UDP frame of len bytes with the given TOS.
std::vector<uint8_t> ip_bcast(size_t len, uint8_t tos)
{
	std::vector<uint8_t> f(len, 0);
	for (size_t i = 0; i < 6; i++)
		f[i] = 0xff;
	f[6] = 0x02;
	f[11] = 0x01;
	f[12] = 0x08;
	uint8_t *ip = &f[14];
	ip[0] = 0x45;
	ip[1] = tos;
	ip[2] = static_cast<uint8_t>((len - 14) >> 8);
	ip[3] = static_cast<uint8_t>((len - 14) & 0xff);
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 10;
	ip[15] = 1;
	ip[16] = 10;
	ip[19] = 2;
	uint16_t ck = ipv4_header_checksum(ip, 20);
	ip[10] = static_cast<uint8_t>(ck >> 8);
	ip[11] = static_cast<uint8_t>(ck & 0xff);
	ip[22] = 0x12; // UDP to 4791, no BTH: plain UDP
	ip[23] = 0xb6;
	ip[25] = static_cast<uint8_t>(len - 34);
	return f;
}

// The TCD state and counters are in the summaries of the queues with TCD,
// and nowhere else; queues.csv keeps its columns.
TEST(Telemetry, TcdCountersOfTcdQueues)
{
	Topology topo =
		*parse_topology(std::string(kTopo) + "tcd s0:b prio=3 thr=1500 max_ton=100us\n")
			 .topology;
	Fabric f{topo};
	Telemetry t{f, {{"x", "y"}}};
	// DSCP 26 (priority 3): ECT(0), ECT(0), Not-ECT, ECT(0), ECT(0).  The
	// first leaves at once; the others leave 3000, 2000, 1000, 0 bytes
	// behind, one every 8192 ns: NO, CE, Not-ECT, NO, NO.
	for (int tos : {0x6a, 0x6a, 0x68, 0x6a, 0x6a})
		f.on_ingress(0, 0, ip_bcast(1000, static_cast<uint8_t>(tos)), 0);
	f.on_ingress(0, 1, bcast(1000), 0); // to a, priority 0
	f.poll(1000000);
	LatenessHistogram lat;
	std::string flat = t.flat(1000000, lat);
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tx_pkts"), "5");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.ecn_marks"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_state"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_ce"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_ue"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_no"), "3");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_ce_in"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_not_ect"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_to_congestion"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_to_undetermined"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_to_noncongestion"), "1");
	// CONGESTION from the second departure (8192 ns) to the fourth.
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_congestion_us"), "16");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_undetermined_us"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_noncongestion_us"), "983");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_on_periods"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_max_on_us"), "0");
	EXPECT_EQ(flat_value(flat, "s0.a.q0.tx_pkts"), "1");
	EXPECT_EQ(flat_value(flat, "s0.a.q0.tcd_ce"), "<missing>");
	EXPECT_EQ(flat_value(flat, "s0.a.q0.tcd_state"), "<missing>");
	std::string json = t.json(1000000, lat);
	EXPECT_NE(json.find("\"queue_bytes_p99\":0,\"tcd_state\":0,\"tcd_ce\":1,\"tcd_ue\":0,"
	                    "\"tcd_no\":3,\"tcd_ce_in\":0,\"tcd_not_ect\":1,"
	                    "\"tcd_to_congestion\":1,\"tcd_to_undetermined\":0,"
	                    "\"tcd_to_noncongestion\":1,\"tcd_congestion_us\":16,"
	                    "\"tcd_undetermined_us\":0,\"tcd_noncongestion_us\":983,"
	                    "\"tcd_on_periods\":0,\"tcd_max_on_us\":0}"),
	          std::string::npos)
		<< json;
	EXPECT_EQ(json.find("\"tcd_"), json.rfind("\"tcd_state\"")) << "one queue has TCD";
	std::string q;
	t.sample(1000000, &q, nullptr);
	for (const std::string &l : lines(q))
		EXPECT_EQ(fields(l), fields(Telemetry::queues_header())) << l;
}

// A PFC frame for priority prio with the given pause time (0: XON).
std::vector<uint8_t> pfc(int prio, uint16_t quanta)
{
	std::array<uint16_t, kNumPriorities> times{};
	times[static_cast<size_t>(prio)] = quanta;
	return build_pfc_frame(Mac{0x02, 0, 0, 0, 0, 0x09}, static_cast<uint8_t>(1u << prio),
	                       times);
}

// The NP-ECN state and counters are in the summaries of the queues with
// NP-ECN, and nowhere else; queues.csv keeps its columns.
TEST(Telemetry, NpEcnCountersOfNpEcnQueues)
{
	Topology topo = *parse_topology(std::string(kTopo) + "npecn s0:b prio=3\n").topology;
	Fabric f{topo};
	Telemetry t{f, {{"x", "y"}}};
	LatenessHistogram lat;
	// b's downstream pauses priority 3; three frames wait: ECT(0),
	// Not-ECT, ECT(0).
	f.on_ingress(0, 1, pfc(3, 0xffff), 0);
	for (int tos : {0x6a, 0x68, 0x6a})
		f.on_ingress(0, 0, ip_bcast(1000, static_cast<uint8_t>(tos)), 0);
	f.poll(50000);
	std::string held = t.flat(50000, lat);
	EXPECT_EQ(flat_value(held, "s0.b.q3.npecn_paused"), "1");
	EXPECT_EQ(flat_value(held, "s0.b.q3.npecn_pn"), "0");
	EXPECT_EQ(flat_value(held, "s0.b.q3.npecn_pauses"), "1");
	// RESUME: the three are PN, and the first leaves at once.
	f.on_ingress(0, 1, pfc(3, 0), 100000);
	std::string resumed = t.flat(100000, lat);
	EXPECT_EQ(flat_value(resumed, "s0.b.q3.npecn_paused"), "0");
	EXPECT_EQ(flat_value(resumed, "s0.b.q3.npecn_pn"), "2");
	EXPECT_EQ(flat_value(resumed, "s0.b.q3.npecn_resumes"), "1");
	// Two more behind them: the three leave unmarked, then CE (one frame
	// behind it), then the last with nothing behind.
	for (int i = 0; i < 2; i++)
		f.on_ingress(0, 0, ip_bcast(1000, 0x6a), 100000);
	f.on_ingress(0, 1, bcast(1000), 100000); // to a, priority 0
	f.poll(1000000);
	std::string flat = t.flat(1000000, lat);
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tx_pkts"), "5");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.ecn_marks"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_paused"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_pn"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_marked"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_paused_exempt"), "2");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_unmarked"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_ce_in"), "0");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_not_ect"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_pauses"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.npecn_resumes"), "1");
	EXPECT_EQ(flat_value(flat, "s0.b.q3.tcd_state"), "<missing>");
	EXPECT_EQ(flat_value(flat, "s0.a.q0.tx_pkts"), "1");
	EXPECT_EQ(flat_value(flat, "s0.a.q0.npecn_marked"), "<missing>");
	EXPECT_EQ(flat_value(flat, "s0.a.q0.npecn_pn"), "<missing>");
	std::string json = t.json(1000000, lat);
	EXPECT_NE(json.find("\"queue_bytes_p99\":0,\"npecn_paused\":0,\"npecn_pn\":0,"
	                    "\"npecn_marked\":1,\"npecn_paused_exempt\":2,\"npecn_unmarked\":1,"
	                    "\"npecn_ce_in\":0,\"npecn_not_ect\":1,\"npecn_pauses\":1,"
	                    "\"npecn_resumes\":1}"),
	          std::string::npos)
		<< json;
	EXPECT_EQ(json.find("\"npecn_"), json.rfind("\"npecn_paused\"")) << "one queue has NP-ECN";
	std::string q;
	t.sample(1000000, &q, nullptr);
	for (const std::string &l : lines(q))
		EXPECT_EQ(fields(l), fields(Telemetry::queues_header())) << l;
}

TEST(Telemetry, FramesAPortRefusedAreDrops)
{
	Bench b;
	PortIoStats io;
	io.tx_dropped = 3;
	io.rx_errors = 2;
	b.t.set_port_io(0, 1, &io);
	LatenessHistogram lat;
	std::string flat = b.t.flat(0, lat);
	EXPECT_EQ(flat_value(flat, "s0.b.tx_lost"), "3");
	EXPECT_EQ(flat_value(flat, "s0.b.rx_errors"), "2");
	EXPECT_EQ(flat_value(flat, "s0.a.tx_lost"), "0");
	EXPECT_EQ(flat_value(flat, "total_drops"), "3");
	io.tx_unsent = 4; // in flight at exit: reported, not a drop
	flat = b.t.flat(0, lat);
	EXPECT_EQ(flat_value(flat, "s0.b.tx_unsent"), "4");
	EXPECT_EQ(flat_value(flat, "total_drops"), "3");
	EXPECT_NE(b.t.json(0, lat).find("\"total_drops\":3,"), std::string::npos);
	io.rx_lost = 5; // the kernel dropped them before the fabric read them
	flat = b.t.flat(0, lat);
	EXPECT_EQ(flat_value(flat, "s0.b.rx_lost"), "5");
	EXPECT_EQ(flat_value(flat, "s0.a.rx_lost"), "0");
	EXPECT_EQ(flat_value(flat, "total_drops"), "8");
}

// The summary is one line of JSON whatever the attachments are: a path
// may hold quotes, backslashes, control characters or bytes that are not
// UTF-8 (these become U+FFFD).
TEST(Telemetry, JsonOfOddAttachmentPaths)
{
	Topology topo = *parse_topology(kTopo).topology;
	Fabric f{topo};
	Telemetry t{f, {{"stream:/tmp/a\"b\\c\td.sock", "stream:/tmp/\xff\xfe.sock"}}};
	LatenessHistogram lat;
	const std::string text = t.json(2000, lat);
	ASSERT_EQ(text.back(), '\n');
	EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line";
	const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
	const auto &ports = doc.at("switches").at(0).at("ports");
	EXPECT_EQ(ports.at(0).at("attach").get<std::string>(), "stream:/tmp/a\"b\\c\td.sock");
	EXPECT_EQ(ports.at(1).at("attach").get<std::string>(),
	          "stream:/tmp/\xef\xbf\xbd\xef\xbf\xbd.sock");
	EXPECT_TRUE(doc.at("time_us").is_number_unsigned());
	EXPECT_EQ(doc.at("time_us").get<uint64_t>(), 2u);
	EXPECT_EQ(doc.at("deliveries").get<uint64_t>(), 0u);
}

namespace
{

// An RC WRITE ONLY of len bytes from 10.0.0.1 to 10.0.0.2 (DSCP 26,
// ECT(0)), IPv4 checksum left 0 (the fabric does not check it).
std::vector<uint8_t> roce_write(size_t len)
{
	std::vector<uint8_t> f(len, 0);
	f[5] = 2;
	f[11] = 1;
	f[12] = 0x08;
	f[14] = 0x45;
	f[15] = 0x6a;
	f[16] = static_cast<uint8_t>((len - 14) >> 8);
	f[17] = static_cast<uint8_t>((len - 14) & 0xff);
	f[22] = 64;
	f[23] = 17;
	f[26] = 10;
	f[29] = 1;
	f[30] = 10;
	f[33] = 2;
	f[34] = 0xc0;
	f[35] = 0x01;
	f[36] = 0x12; // 4791
	f[37] = 0xb7;
	f[38] = static_cast<uint8_t>((len - 34) >> 8);
	f[39] = static_cast<uint8_t>((len - 34) & 0xff);
	f[42] = 0x0a;
	return f;
}

} // namespace

TEST(Telemetry, SfcCountersOfSfcSwitches)
{
	Topology topo = *parse_topology("switch s0 buffer=1MB\n"
	                                "switch s1 buffer=1MB\n"
	                                "port s0:a rate=1G delay=1us\n"
	                                "port s0:b rate=100M delay=1us\n"
	                                "port s1:c rate=1G delay=1us\n"
	                                "route s0 10.0.0.1 a\n"
	                                "route s0 10.0.0.2 b\n"
	                                "sfc *:* q_th=2KB q_tg=1KB\n")
	                         .topology;
	Fabric f{topo};
	Telemetry t{f, {{"x", "y"}, {"z"}}};
	LatenessHistogram lat;
	// Six at once toward b: the first leaves at once, the fifth sees
	// 3000 bytes ahead (> 2 KB): one BTS; the sixth is suppressed.
	for (int i = 0; i < 6; i++)
		f.on_ingress(0, 0, roce_write(1000), 0);
	f.poll(10000000);
	std::string flat = t.flat(10000000, lat);
	EXPECT_EQ(flat_value(flat, "s0.sfc.bts_generated"), "1");
	EXPECT_EQ(flat_value(flat, "s0.sfc.bts_generated_queue"), "1");
	EXPECT_EQ(flat_value(flat, "s0.sfc.bts_generated_cache"), "0");
	EXPECT_EQ(flat_value(flat, "s0.sfc.bts_suppressed"), "1");
	EXPECT_EQ(flat_value(flat, "s0.sfc.bts_seen"), "1");
	EXPECT_EQ(flat_value(flat, "s0.sfc.cache_updates"), "1"); // its own
	EXPECT_EQ(flat_value(flat, "s0.sfc.cache_entries"), "0"); // expired
	EXPECT_EQ(flat_value(flat, "s0.sfc.cache_entries_max"), "1");
	EXPECT_EQ(flat_value(flat, "s0.sfc.sfcp_frames"), "0");
	EXPECT_EQ(flat_value(flat, "s1.sfc.bts_generated"), "0");
	EXPECT_EQ(flat_value(flat, "s1.sfc.cache_entries_max"), "0");
	// The BTS went out of a in the BTS priority.
	EXPECT_EQ(flat_value(flat, "s0.a.q6.tx_pkts"), "1");
	// Totals: sums, the largest of the *_max.
	EXPECT_EQ(flat_value(flat, "sfc.bts_generated"), "1");
	EXPECT_EQ(flat_value(flat, "sfc.bts_suppressed"), "1");
	EXPECT_EQ(flat_value(flat, "sfc.cache_entries_max"), "1");
	EXPECT_EQ(flat_value(flat, "sfc.bloom_bits_max"),
	          flat_value(flat, "s0.sfc.bloom_bits_max"));
	EXPECT_NE(flat_value(flat, "sfc.bloom_bits_max"), "0");
	std::string json = t.json(10000000, lat);
	auto doc = nlohmann::json::parse(json);
	EXPECT_EQ(doc["sfc"]["bts_generated"], 1);
	EXPECT_EQ(doc["switches"][0]["sfc"]["bts_suppressed"], 1);
	EXPECT_EQ(doc["switches"][1]["sfc"]["bts_generated"], 0);

	// A fabric without SFC reports none of it.
	Bench b;
	std::string plain = b.t.flat(0, lat);
	EXPECT_EQ(flat_value(plain, "sfc.bts_generated"), "<missing>");
	EXPECT_EQ(flat_value(plain, "s0.sfc.bts_generated"), "<missing>");
	EXPECT_EQ(b.t.json(0, lat).find("sfc"), std::string::npos);
}
