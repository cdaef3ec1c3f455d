// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// HPCC INT stamping (int_stamp.h): the shim's encoding against the test
// vector the kernel's parser shares, parsing of INT-port packets as RoCE,
// the fields a switch writes at dequeue through one and two switches, what
// passes untouched, txBytes/txRate against the link's byte accounting, and
// the configuration (topology directives and validate()).
//
// Unless a test says otherwise: one switch, ports at 10 Gbit/s (rate code
// 4) with 24 bytes of overhead, host k on port k at 10.0.0.k; INT stamped
// on port 2 only.  A 1000-byte frame is 1024 wire bytes: 819.2 ns.
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "fabric.h"
#include "int_stamp.h"
#include "switch_model.h"
#include "test_frames.h"
#include "test_switch.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

constexpr uint64_t k10G = 10000000000ull;

// The vector of the task (and of the kernel's parser test): nHop 2,
// pathID 0x123, two hops, slots 2..4 zero.
const std::vector<uint8_t> kVector = from_hex("2123"
                                              "babcdef123450102"
                                              "4000001fffffffff"
                                              "0000000000000000"
                                              "0000000000000000"
                                              "0000000000000000");

SwitchConfig make_config(uint16_t switch_id = 0x5a5)
{
	SwitchConfig c;
	c.name = "s0";
	c.buffer_bytes = 1000000;
	c.int_config.switch_id = switch_id;
	for (int i = 0; i < 3; i++) {
		PortConfig p;
		p.name = "p" + std::to_string(i);
		p.rate_bps = k10G;
		p.delay_ns = 1000;
		c.ports.push_back(p);
		IpRoute r;
		r.prefix = IpAddr::v4(10, 0, 0, static_cast<uint8_t>(i));
		r.prefix_len = 32;
		r.port = i;
		c.routes.push_back(r);
	}
	c.ports[2].int_stamp = true;
	return c;
}

std::vector<FabricTransmission> run_all(Fabric &f)
{
	std::vector<FabricTransmission> all;
	for (Time t = f.next_event_time(); t != kNever; t = f.next_event_time())
		for (FabricTransmission &tx : f.poll(t))
			all.push_back(std::move(tx));
	return all;
}

IntShim shim_of(const std::vector<uint8_t> &f)
{
	EXPECT_GE(f.size(), kShimAt + kIntShimBytes);
	return decode_int_shim(f.data() + kShimAt);
}

void set_shim_header(std::vector<uint8_t> &f, uint8_t nhop, uint16_t path_id)
{
	f[kShimAt] = static_cast<uint8_t>(nhop << 4 | path_id >> 8);
	f[kShimAt + 1] = static_cast<uint8_t>(path_id & 0xff);
}

// f with the shim of g: a stamp changes nothing else.
std::vector<uint8_t> with_shim_of(std::vector<uint8_t> f, const std::vector<uint8_t> &g)
{
	for (size_t i = kShimAt; i < kShimAt + kIntShimBytes; i++)
		f[i] = g[i];
	return f;
}

Topology parse_or_die(const std::string &text)
{
	TopologyResult r = parse_topology(text);
	EXPECT_TRUE(r) << r.error.to_string();
	return r ? *r.topology : Topology{};
}

} // namespace

TEST(IntShim, EncodesTheTestVector)
{
	IntShim s;
	s.nhop = 2;
	s.path_id = 0x123;
	s.hop[0] = {11, 0xabcdef, 0x12345, 0x0102};
	s.hop[1] = {4, 0x000001, 0xfffff, 0xffff};
	std::vector<uint8_t> out(kIntShimBytes, 0xee);
	encode_int_shim(s, out.data());
	EXPECT_EQ(out, kVector);
	ASSERT_EQ(kIntShimBytes, 42u);
}

TEST(IntShim, DecodesTheTestVector)
{
	IntShim s = decode_int_shim(kVector.data());
	EXPECT_EQ(s.nhop, 2);
	EXPECT_EQ(s.path_id, 0x123);
	EXPECT_EQ(s.hop[0], (IntHop{11, 0xabcdef, 0x12345, 0x0102}));
	EXPECT_EQ(s.hop[1], (IntHop{4, 0x000001, 0xfffff, 0xffff}));
	for (size_t i = 2; i < kIntMaxHops; i++)
		EXPECT_EQ(s.hop[i], IntHop{}) << "slot " << i;
}

TEST(IntShim, FieldsKeepTheirLowBits)
{
	EXPECT_EQ(encode_int_hop({0x1b, 0x1abcdef, 0x312345, 0x0102}), 0xbabcdef123450102ull);
	IntHop h = decode_int_hop(0xffffffffffffffffull);
	EXPECT_EQ(h, (IntHop{15, 0xffffff, 0xfffff, 0xffff}));
}

TEST(IntShim, StampedOpcodesAreTheDataRequests)
{
	std::vector<int> want;
	for (int op = 0x00; op <= 0x0b; op++)
		want.push_back(op); // RC SEND and WRITE
	want.push_back(0x16);       // RC SEND last with invalidate
	want.push_back(0x17);       // RC SEND only with invalidate
	for (int op = 0x20; op <= 0x2b; op++)
		want.push_back(op); // UC SEND and WRITE
	want.push_back(0x64);       // UD SEND only
	want.push_back(0x65);       // UD SEND only with immediate
	std::vector<int> got;
	for (int op = 0; op < 256; op++)
		if (int_stamps_opcode(static_cast<uint8_t>(op)))
			got.push_back(op);
	EXPECT_EQ(got, want);
}

TEST(IntParse, IntPortPacketsAreRoceWithTheBth42BytesLater)
{
	auto f = int_frame(1, 2, kTosData, 200, 0x0a);
	auto p = Packet::parse(f, nullptr, kDefaultIntPort);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().roce);
	EXPECT_TRUE(p->info().int_encap);
	EXPECT_EQ(p->info().int_offset, kShimAt);
	EXPECT_EQ(p->info().bth_offset, kIntBthAt);
	EXPECT_EQ(p->info().bth_opcode, 0x0a);
	EXPECT_EQ(p->info().dscp, 26);

	// Without an INT port it is plain UDP.
	auto plain = Packet::parse(f);
	ASSERT_TRUE(plain);
	EXPECT_FALSE(plain->info().roce);
	EXPECT_FALSE(plain->info().int_encap);

	// Another INT port.
	auto other = Packet::parse(int_frame(1, 2, kTosData, 200, 0x0a, 5000), nullptr, 5000);
	ASSERT_TRUE(other);
	EXPECT_EQ(other->info().bth_offset, kIntBthAt);

	// 4791 keeps its BTH right after UDP whatever the INT port.
	auto roce = Packet::parse(w1(), nullptr, kDefaultIntPort);
	ASSERT_TRUE(roce);
	EXPECT_TRUE(roce->info().roce);
	EXPECT_FALSE(roce->info().int_encap);
	EXPECT_EQ(roce->info().bth_offset, kShimAt);
	EXPECT_EQ(roce->info().bth_opcode, 0x0a);
}

TEST(IntParse, ShortIntPacketsParseButAreNotRoce)
{
	// UDP payloads 0, 8, 42 and 53 bytes: no room for shim + BTH (54).
	for (size_t len : {42u, 50u, 84u, 95u}) {
		ParseStatus st;
		auto p = Packet::parse(int_frame(1, 2, kTosData, len, 0x0a), &st, kDefaultIntPort);
		ASSERT_TRUE(p) << len << ": " << to_string(st);
		EXPECT_TRUE(p->info().int_encap) << len;
		EXPECT_FALSE(p->info().roce) << len;
		EXPECT_EQ(p->info().int_offset, 0u) << len;
	}
	auto p = Packet::parse(int_frame(1, 2, kTosData, 96, 0x0a), nullptr, kDefaultIntPort);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().roce);
}

TEST(IntParse, Ipv6AndVlan)
{
	// IPv6: 14 + 40 + 8 = 62 is the shim; tagged IPv4: 46.
	std::vector<uint8_t> f(62 + 42 + 12 + 4, 0);
	f[12] = 0x86;
	f[13] = 0xdd;
	f[14] = 0x60;
	size_t ulen = f.size() - 54;
	f[18] = static_cast<uint8_t>(ulen >> 8);
	f[19] = static_cast<uint8_t>(ulen);
	f[20] = kIpProtoUdp;
	f[56] = 0x12;
	f[57] = 0xb8; // 4792
	f[58] = static_cast<uint8_t>(ulen >> 8);
	f[59] = static_cast<uint8_t>(ulen);
	f[62 + 42] = 0x64;
	auto p = Packet::parse(f, nullptr, kDefaultIntPort);
	ASSERT_TRUE(p);
	EXPECT_TRUE(p->info().roce);
	EXPECT_EQ(p->info().int_offset, 62u);
	EXPECT_EQ(p->info().bth_offset, 104u);
	EXPECT_EQ(p->info().bth_opcode, 0x64);

	std::vector<uint8_t> v = int_frame(1, 2, kTosData, 200, 0x06);
	v.insert(v.begin() + 12, {0x81, 0x00, 0x60, 0x05});
	auto t = Packet::parse(v, nullptr, kDefaultIntPort);
	ASSERT_TRUE(t);
	EXPECT_EQ(t->info().int_offset, 46u);
	EXPECT_EQ(t->info().bth_opcode, 0x06);
}

// The fields of one stamp from the feature alone: masks and saturation.
TEST(IntStamper, FieldsFromTheQueueView)
{
	SwitchConfig c = make_config(0xabc);
	IntStamper st(c);
	EXPECT_EQ(st.rate_code(0), 0);
	EXPECT_EQ(st.rate_code(2), 4);
	struct Case {
		Time start;
		uint64_t wire, port_bytes;
		IntHop want;
	};
	const Case cases[] = {
		{0x1234567, 128 * 5 + 127, 80 * 3 + 79, {4, 0x234567, 5, 3}},
		// txBytes wraps at 2^20 units of 128 bytes.
		{0xffffff, (uint64_t{0x100000} << 7) + 128 * 7, 0, {4, 0xffffff, 7, 0}},
		{0x1000000,
	         (uint64_t{0xfffff} << 7) + 127,
	         80ull * 0xffff,
	         {4, 0, 0xfffff, 0xffff}},
		// qLen saturates at 0xffff units of 80 bytes.
		{1, 0, 80ull * 0xffff + 80, {4, 1, 0, 0xffff}},
		{1, 0, uint64_t{1} << 40, {4, 1, 0, 0xffff}},
	};
	for (const Case &k : cases) {
		auto p = Packet::parse(int_frame(1, 2, kTosData, 200, 0x0a), nullptr, 4792);
		ASSERT_TRUE(p);
		QueueView v;
		v.port = 2;
		v.priority = 3;
		v.start_ns = k.start;
		v.tx_wire_bytes = k.wire;
		v.port_bytes = k.port_bytes;
		v.bytes = 12345; // the packet's own queue: not what qLen uses
		SplitMix64 rng(1);
		FeatureCounters fc;
		std::vector<EmittedFrame> em;
		FeatureContext ctx(*p, 1, v, k.start, rng, fc, em);
		st.on_dequeue(ctx);
		IntShim s = shim_of(p->bytes());
		EXPECT_EQ(s.nhop, 1);
		EXPECT_EQ(s.path_id, 0xabc);
		EXPECT_EQ(s.hop[0], k.want) << "start " << k.start;
		EXPECT_TRUE(em.empty());
	}
	EXPECT_EQ(st.counters(2).stamped, 5u);
}

// Three packets through one switch: exact TS, txBytes, qLen, B, nHop and
// pathID; qLen counts the other priority's queue and not the packet.
TEST(IntSwitch, StampsAtDequeue)
{
	Switch sw(make_config(0x5a5));
	EXPECT_EQ(sw.int_rate_code(2), 4);
	EXPECT_EQ(sw.int_rate_code(1), 0);
	const Time t0 = 0x3000000 + 5; // TS keeps the low 24 bits
	std::vector<std::vector<uint8_t>> in = {
		int_frame(1, 2, kTosData, 1000, 0x0a),       // priority 3
		int_frame(1, 2, kTosData, 800, 0x06),        // priority 3
		int_frame(1, 2, kTosBestEffort, 1200, 0x04), // priority 0
	};
	for (auto &f : in) {
		set_shim_header(f, 0, 0x123);
		sw.on_ingress(1, f, t0);
	}
	std::vector<Transmission> out = run_all(sw);
	ASSERT_EQ(out.size(), 3u);
	// The first left alone at t0; the other two back to back, one from
	// each queue.
	EXPECT_EQ(out[0].frame.size(), 1000u);
	EXPECT_EQ(out[0].start_ns, t0);
	EXPECT_EQ(out[1].start_ns, out[0].end_ns);
	EXPECT_EQ(out[2].start_ns, out[1].end_ns);
	EXPECT_NE(out[1].priority, out[2].priority);

	uint64_t wire_before = 0;
	for (size_t i = 0; i < 3; i++) {
		const Transmission &tx = out[i];
		uint64_t left = i == 1 ? out[2].frame.size() : 0;
		IntShim s = shim_of(tx.frame);
		EXPECT_EQ(s.nhop, 1) << i;
		EXPECT_EQ(s.path_id, 0x123 ^ 0x5a5) << i;
		EXPECT_EQ(s.hop[0].b, 4) << i;
		EXPECT_EQ(s.hop[0].ts, tx.start_ns & 0xffffff) << i;
		EXPECT_EQ(s.hop[0].tx_bytes, wire_before >> 7) << i;
		EXPECT_EQ(s.hop[0].qlen, left / 80) << i;
		for (size_t h = 1; h < kIntMaxHops; h++)
			EXPECT_EQ(s.hop[h], IntHop{}) << i;
		wire_before += tx.frame.size() + 24;
	}
	EXPECT_EQ(shim_of(out[0].frame).hop[0], (IntHop{4, 5, 0, 0}));
	EXPECT_EQ(shim_of(out[1].frame).hop[0].tx_bytes, 8u); // 1024 >> 7
	EXPECT_EQ(shim_of(out[1].frame).hop[0].ts, (t0 + 819) & 0xffffff);

	// Nothing but the shim changed.
	for (const Transmission &tx : out) {
		for (const auto &f : in) {
			if (f.size() == tx.frame.size()) {
				EXPECT_EQ(with_shim_of(f, tx.frame), tx.frame);
			}
		}
	}
	EXPECT_EQ(sw.int_counters(2).stamped, 3u);
	EXPECT_EQ(sw.int_counters(2).no_space, 0u);
	EXPECT_EQ(sw.int_counters(1).stamped, 0u);
}

// Two switches: each writes its own slot with its own port's state, and
// the pathID is the XOR of both IDs.
TEST(IntSwitch, TwoSwitchesTwoSlots)
{
	Fabric f(parse_or_die("switch s0 buffer=1MB switch_id=15\n"
	                      "switch s1 buffer=1MB switch_id=240\n"
	                      "port s0:h rate=1G delay=1us\n"
	                      "link s0:up s1:down rate=1G delay=10us\n"
	                      "port s1:r rate=100M delay=1us\n"
	                      "route s0 10.0.0.2 up\n"
	                      "route s1 10.0.0.2 r\n"
	                      "int s0:up\n"
	                      "int s1:r\n"));
	for (int i = 0; i < 2; i++) {
		auto fr = int_frame(1, 2, kTosData, 1000, 0x0a);
		set_shim_header(fr, 0, 0x001);
		f.on_ingress(0, 0, fr, 1000);
	}
	std::vector<FabricTransmission> out = run_all(f);
	ASSERT_EQ(out.size(), 2u);
	// s0: 1000-byte frames take 8192 ns at 1 Gbit/s; they leave at 1000
	// and 9192 and reach s1 at 19192 and 27384.  s1: 81920 ns each at
	// 100 Mbit/s (code 11), from 19192 and 101112.
	IntShim a = shim_of(out[0].tx.frame), b = shim_of(out[1].tx.frame);
	EXPECT_EQ(a.nhop, 2);
	EXPECT_EQ(a.path_id, 0x001 ^ 15 ^ 240);
	EXPECT_EQ(a.hop[0], (IntHop{1, 1000, 0, 0}));
	EXPECT_EQ(a.hop[1], (IntHop{11, 19192, 0, 0}));
	EXPECT_EQ(b.nhop, 2);
	EXPECT_EQ(b.path_id, 0x0fe);
	EXPECT_EQ(b.hop[0], (IntHop{1, 9192, 8, 0}));
	EXPECT_EQ(b.hop[1], (IntHop{11, 101112, 8, 0}));
	for (size_t h = 2; h < kIntMaxHops; h++)
		EXPECT_EQ(a.hop[h], IntHop{});
	EXPECT_EQ(out[1].tx.start_ns, 101112u);
	EXPECT_EQ(f.switch_at(0).int_counters(1).stamped, 2u);
	EXPECT_EQ(f.switch_at(1).int_counters(1).stamped, 2u);
}

TEST(IntSwitch, SixthHopIsNotStamped)
{
	Switch sw(make_config(0x001));
	auto four = int_frame(1, 2, kTosData, 200, 0x0a);
	set_shim_header(four, 4, 0x010);
	auto five = int_frame(1, 2, kTosData, 201, 0x0a);
	set_shim_header(five, 5, 0x010);
	five[kShimAt + 2 + 8 * 4] = 0x55; // a fifth slot somebody wrote
	auto bad = int_frame(1, 2, kTosData, 202, 0x0a);
	set_shim_header(bad, 15, 0x010);
	for (const auto &fr : {four, five, bad})
		sw.on_ingress(1, fr, 0);
	std::vector<Transmission> out = run_all(sw);
	ASSERT_EQ(out.size(), 3u);
	IntShim s = shim_of(out[0].frame);
	EXPECT_EQ(s.nhop, 5);
	EXPECT_EQ(s.path_id, 0x011);
	// It left alone (the others came after it started): qLen 0.
	EXPECT_EQ(s.hop[4], (IntHop{4, 0, 0, 0}));
	EXPECT_EQ(with_shim_of(four, out[0].frame), out[0].frame);
	EXPECT_EQ(out[1].frame, five);
	EXPECT_EQ(out[2].frame, bad);
	EXPECT_EQ(sw.int_counters(2).stamped, 1u);
	EXPECT_EQ(sw.int_counters(2).no_space, 2u);
}

// Everything but the data requests of INT packets leaves byte-identical.
TEST(IntSwitch, OtherPacketsPassUntouched)
{
	Switch sw(make_config());
	std::vector<std::vector<uint8_t>> in;
	// ACK, atomic ACK, READ request and responses, atomics, CNP, an
	// unknown opcode, UC opcodes past WRITE, UD other than SEND only.
	for (int op : {0x11, 0x12, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x13, 0x14, 0x15, 0x81, 0xc0, 0x2c,
	               0x36, 0x66}) {
		auto fr = int_frame(1, 2, kTosData, 200, static_cast<uint8_t>(op));
		set_shim_header(fr, 1, 0x777);
		in.push_back(fr);
	}
	size_t not_data = in.size();
	// Too short for shim + BTH (UDP payload 0, 8, 42, 53 bytes).
	for (size_t len : {42u, 50u, 84u, 95u})
		in.push_back(int_frame(1, 2, kTosData, len, 0x0a));
	// Plain RoCEv2 on 4791 (W1 and a WRITE ONLY), other UDP, non-IP.
	in.push_back(w1());
	in.push_back(udp_frame(1, 2, kTosData, 200));
	in.push_back(udp_frame(1, 2, kTosData, 200, 4793));
	for (const auto &fr : in)
		sw.on_ingress(1, fr, 0);
	std::vector<Transmission> out = run_all(sw);
	ASSERT_EQ(out.size(), in.size());
	// One priority: FIFO.
	for (size_t i = 0; i < in.size(); i++)
		EXPECT_EQ(out[i].frame, in[i]) << "frame " << i;
	EXPECT_EQ(sw.int_counters(2).stamped, 0u);
	EXPECT_EQ(sw.int_counters(2).not_data, not_data);
	EXPECT_EQ(sw.int_counters(2).too_short, 4u);
	EXPECT_EQ(sw.int_counters(2).no_space, 0u);
	EXPECT_EQ(sw.total_drops(), 0u);
}

TEST(IntSwitch, PortsWithoutIntPassUntouched)
{
	Switch sw(make_config());
	auto fr = int_frame(2, 1, kTosData, 300, 0x0a);
	sw.on_ingress(2, fr, 0);
	std::vector<Transmission> out = run_all(sw);
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0].port, 1);
	EXPECT_EQ(out[0].frame, fr);
	EXPECT_EQ(sw.int_counters(1).stamped + sw.int_counters(1).not_data, 0u);
}

// A frame the switch sends itself (here a control frame a feature emits)
// counts like any other: txBytes is wire bytes, max(L, 60) + 24.
class EmitOnce : public Feature
{
public:
	void on_enqueue(FeatureContext &ctx) override
	{
		if (done_)
			return;
		done_ = true;
		ctx.emit_control(2, std::vector<uint8_t>(64, 0x11));
	}

private:
	bool done_ = false;
};

TEST(IntSwitch, TxBytesCountsAllTrafficAsTheLinkDoes)
{
	Switch sw(make_config());
	sw.add_feature(std::make_shared<EmitOnce>());
	sw.on_ingress(1, udp_frame(1, 2, kTosData, 100), 0);        // 124 wire bytes
	sw.on_ingress(1, udp_frame(1, 2, kTosData, 50, 9), 0);      // 60 + 24
	sw.on_ingress(1, udp_frame(1, 2, kTosData, 1000, 4793), 0); // 1024
	sw.on_ingress(1, int_frame(1, 2, kTosData, 1000, 0x00), 0); // stamped
	std::vector<Transmission> out = run_all(sw);
	ASSERT_EQ(out.size(), 5u); // the 64-byte control frame too (88)
	EXPECT_EQ(out.back().frame.size(), 1000u);
	// 88 + 124 + 84 + 1024 = 1320 wire bytes (frame bytes: 1214).
	EXPECT_EQ(shim_of(out.back().frame).hop[0].tx_bytes, 1320u >> 7);
	EXPECT_EQ(shim_of(out.back().frame).hop[0].tx_bytes, 10u);
	EXPECT_EQ(sw.port_counters(2).tx_bytes, 64u + 100 + 50 + 1000 + 1000);
}

TEST(IntSwitch, TxBytesWrapsAt20BitsOf128Bytes)
{
	SwitchConfig c = make_config();
	for (PortConfig &p : c.ports)
		p.rate_bps = 100 * 1000000000ull; // code 8
	Switch sw(c);
	// 8200 frames of 16384 bytes (16408 on the wire, 1312.64 ns each).
	const uint64_t n = 8200, len = 16384;
	Time t = 0;
	for (uint64_t i = 0; i < n; i++, t += 1313) {
		sw.on_ingress(1, udp_frame(1, 2, kTosData, len), t);
		sw.poll(t);
	}
	sw.on_ingress(1, int_frame(1, 2, kTosData, 500, 0x0a), t);
	std::vector<Transmission> out = run_all(sw);
	ASSERT_FALSE(out.empty());
	const uint64_t wire = n * (len + 24);
	ASSERT_GT(wire >> 7, 0xfffffu);
	IntShim s = shim_of(out.back().frame);
	EXPECT_EQ(s.hop[0].b, 8);
	EXPECT_EQ(s.hop[0].tx_bytes, (wire >> 7) & 0xfffff);
	EXPECT_EQ(s.hop[0].tx_bytes, 2561u);
}

// txRate from two stamps of a saturated port is the port's rate: both
// count wire bytes, so only the 128-byte unit and the ns floor of the
// departure times are lost.
TEST(IntSwitch, TxRateOfASaturatedPortIsTheLinkRate)
{
	for (uint64_t rate : {k10G, uint64_t{1000000000}, uint64_t{100000000}}) {
		SwitchConfig c = make_config();
		for (PortConfig &p : c.ports)
			p.rate_bps = rate;
		Switch sw(c);
		// INT frames of several sizes between plain frames, some
		// shorter than 60 bytes, all in one queue.
		const size_t sizes[] = {1000, 96, 1500, 300};
		size_t n_int = 0;
		for (size_t i = 0; i < 200; i++) {
			sw.on_ingress(1, int_frame(1, 2, kTosData, sizes[i % 4], 0x0a), 0);
			n_int++;
			if (i % 3 == 0)
				sw.on_ingress(1, udp_frame(1, 2, kTosData, 44, 9), 0);
		}
		std::vector<Transmission> out = run_all(sw);
		std::vector<IntHop> hops;
		for (const Transmission &tx : out)
			if (tx.frame.size() >= 96)
				hops.push_back(shim_of(tx.frame).hop[0]);
		ASSERT_EQ(hops.size(), n_int);
		EXPECT_EQ(sw.int_counters(2).stamped, n_int);
		// From the second departure on the port never idles.
		for (size_t i = 1; i + 40 < hops.size(); i += 7) {
			const IntHop &a = hops[i], &b = hops[i + 40];
			uint64_t bytes = ((b.tx_bytes - a.tx_bytes) & 0xfffff) * 128;
			uint64_t ns = (b.ts - a.ts) & 0xffffff;
			// |bytes * 8e9 - rate * ns| <= 128 B * 8e9 + rate * 1 ns
			auto lhs = static_cast<double>(bytes) * 8e9;
			auto rhs = static_cast<double>(rate) * static_cast<double>(ns);
			EXPECT_LE(std::abs(lhs - rhs), 128 * 8e9 + static_cast<double>(rate))
				<< "rate " << rate << " from hop " << i << ": " << bytes
				<< " bytes in " << ns << " ns";
		}
	}
}

TEST(IntSwitch, NonZeroUdpChecksumIsKeptValid)
{
	// A checksum the host (or the process) filled in: it must still
	// verify after the stamp.  Sum of the UDP datagram and pseudo-header.
	auto udp_sum = [](const std::vector<uint8_t> &f) {
		uint32_t sum = 0;
		auto word = [&](size_t i) { return static_cast<uint32_t>(f[i] << 8 | f[i + 1]); };
		for (size_t i = 26; i < 34; i += 2)
			sum += word(i); // addresses
		sum += 17;
		size_t ulen = word(kUdpAt + 4);
		sum += static_cast<uint32_t>(ulen);
		for (size_t i = kUdpAt; i + 1 < kUdpAt + ulen; i += 2)
			sum += word(i);
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		return sum;
	};
	auto fr = int_frame(1, 2, kTosData, 300, 0x0a);
	for (size_t i = kIntBthAt + 12; i < fr.size(); i++)
		fr[i] = static_cast<uint8_t>(i * 7);
	uint32_t ck = ~udp_sum(fr) & 0xffff;
	fr[kUdpAt + 6] = static_cast<uint8_t>(ck >> 8);
	fr[kUdpAt + 7] = static_cast<uint8_t>(ck);
	ASSERT_EQ(udp_sum(fr), 0xffffu);
	Switch sw(make_config());
	sw.on_ingress(1, fr, 123456);
	std::vector<Transmission> out = run_all(sw);
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(shim_of(out[0].frame).nhop, 1);
	EXPECT_NE(out[0].frame, fr);
	EXPECT_EQ(udp_sum(out[0].frame), 0xffffu);
}

TEST(IntConfig, TopologyDirectivesAndDefaults)
{
	Topology t = parse_or_die("switch a buffer=1MB\n"
	                          "switch b buffer=1MB switch_id=4095\n"
	                          "port a:h rate=100M delay=1us\n"
	                          "port a:x rate=3G delay=1us\n"
	                          "link a:up b:down rate=10G delay=1us\n"
	                          "port b:r rate=300M delay=1us\n"
	                          "int_rate_code 14 3G\n"
	                          "int_rate_code 13 none\n"
	                          "int_rate_code 15 300M\n"
	                          "int_port 5000\n"
	                          "int *:*\n"
	                          "int a:up stamp=no\n");
	ASSERT_EQ(t.switches.size(), 2u);
	const SwitchConfig &a = t.switches[0], &b = t.switches[1];
	EXPECT_EQ(a.int_config.switch_id, 1); // declaration order from 1
	EXPECT_EQ(b.int_config.switch_id, 4095);
	EXPECT_EQ(a.int_config.udp_port, 5000);
	EXPECT_EQ(b.int_config.udp_port, 5000);
	IntRateTable want = default_int_rate_table();
	want[13] = 0;
	want[14] = 3000000000ull;
	want[15] = 300000000ull;
	EXPECT_EQ(a.int_config.rates, want);
	EXPECT_EQ(b.int_config.rates, want);
	EXPECT_TRUE(a.ports[0].int_stamp);
	EXPECT_TRUE(a.ports[1].int_stamp);
	EXPECT_FALSE(a.ports[2].int_stamp);
	Fabric f(t);
	EXPECT_EQ(f.switch_at(0).int_rate_code(0), 11);
	EXPECT_EQ(f.switch_at(0).int_rate_code(1), 14);
	EXPECT_EQ(f.switch_at(0).int_rate_code(2), 0);
	EXPECT_EQ(f.switch_at(1).int_rate_code(0), 4);
	EXPECT_EQ(f.switch_at(1).int_rate_code(1), 15);

	Topology d = parse_or_die("switch a buffer=1MB\nport a:h rate=1G delay=1us\n");
	EXPECT_EQ(d.switches[0].int_config.udp_port, 4792);
	EXPECT_EQ(d.switches[0].int_config.rates, default_int_rate_table());
	EXPECT_FALSE(d.switches[0].ports[0].int_stamp);
}

TEST(IntConfig, DefaultRateTable)
{
	IntRateTable t = default_int_rate_table();
	const uint64_t M = 1000000, G = 1000 * M;
	const IntRateTable want = {0,       1 * G,   2500 * M, 5 * G,   10 * G,  25 * G,
	                           40 * G,  50 * G,  100 * G,  200 * G, 400 * G, 100 * M,
	                           200 * M, 500 * M, 0,        0};
	EXPECT_EQ(t, want);
	EXPECT_EQ(int_rate_code(t, 2500 * M), 2);
	EXPECT_EQ(int_rate_code(t, 500 * M), 13);
	EXPECT_EQ(int_rate_code(t, 3 * G), 0);
	EXPECT_EQ(int_rate_code(t, 0), 0);
	EXPECT_EQ(validate_int_rate_table(t), "");
}

struct BadInt {
	std::string text;
	int line;
	std::string message;
};

TEST(IntConfig, BadTopologiesAreRejectedWhole)
{
	const std::string sw = "switch s0 buffer=1MB\nport s0:a rate=10G delay=1us\n"
			       "port s0:b rate=3G delay=1us\n";
	const BadInt cases[] = {
		{"switch s0 buffer=1MB switch_id=4096\n", 1,
	         "bad number switch_id='4096' (0..4095)"},
		{"switch s0 buffer=1MB switch_id=-1\n", 1, "bad number switch_id='-1'"},
		{sw + "int s0:b\n", 4,
	         "INT on port s0:b: its rate 3Gbit has no INT rate code (1=1Gbit, "},
		{sw + "int s0:*\n", 4, "INT on port s0:b: its rate 3Gbit has no INT rate code"},
		{sw + "int s1:a\n", 4, "unknown switch 's1'"},
		{sw + "int s0:c\n", 4, "'s0:c' matches no declared port"},
		{sw + "int s0:a stamp=maybe\n", 4, "bad boolean stamp='maybe'"},
		{sw + "int s0:a bogus=1\n", 4, "unknown attribute 'bogus'"},
		// A code a stamping port uses cannot be taken away later.
		{"switch s0 buffer=1MB\nport s0:a rate=100M delay=1us\nint s0:a\n"
	         "int_rate_code 11 none\n",
	         4, "INT on port s0:a: its rate 100Mbit has no INT rate code (1=1Gbit, "},
		{sw + "int_rate_code 4 3G\n", 4, "bad INT rate code '4' (only 11..15 can be set"},
		{sw + "int_rate_code 0 3G\n", 4, "bad INT rate code '0'"},
		{sw + "int_rate_code 16 3G\n", 4, "bad INT rate code '16'"},
		{sw + "int_rate_code 14 100M\n", 4, "INT rate code 14: 100Mbit is already code 11"},
		{sw + "int_rate_code 14 10G\n", 4, "INT rate code 14: 10Gbit is already code 4"},
		{sw + "int_rate_code 14 1.5M\n", 4,
	         "INT rate code 14: 1.5Mbit is not a whole number of Mbit/s"},
		{sw + "int_rate_code 14 0\n", 4,
	         "INT rate code 14: rate 0 (use none to unassign it)"},
		{sw + "int_rate_code 14 3T\n", 4,
	         "INT rate code 14: rate must be between 1 Mbit/s and 2 Tbit/s"},
		{sw + "int_rate_code 14 fast\n", 4, "rate: "},
		{sw + "int_rate_code 14\n", 4, "usage: int_rate_code CODE RATE|none"},
		{sw + "int_rate_code 14 3G\nint_rate_code 14 4G\n", 5,
	         "int_rate_code 14 given twice (first on line 4)"},
		{sw + "int_port 4791\n", 4, "bad int_port '4791' (a UDP port 1..65535, not 4791)"},
		{sw + "int_port 0\n", 4, "bad int_port '0'"},
		{sw + "int_port 65536\n", 4, "bad int_port '65536'"},
		{sw + "int_port 4793\nint_port 4794\n", 5,
	         "int_port given twice (first on line 4)"},
		{"switch a buffer=1MB switch_id=7\nswitch b buffer=1MB switch_id=7\n"
	         "link a:x b:y rate=1G delay=1us\nint *:*\n",
	         2, "switch b: INT switch ID 7 is also switch a's (line 1; set switch_id=)"},
		// Defaults 1, 2: b's explicit 1 collides with a's default.
		{"switch a buffer=1MB\nswitch b buffer=1MB switch_id=1\n"
	         "link a:x b:y rate=1G delay=1us\nint *:*\n",
	         2, "switch b: INT switch ID 1 is also switch a's"},
	};
	for (const BadInt &c : cases) {
		TopologyResult r = parse_topology(c.text);
		EXPECT_FALSE(r) << c.text;
		EXPECT_FALSE(r.topology.has_value());
		EXPECT_EQ(r.error.line, c.line) << c.text << r.error.to_string();
		EXPECT_EQ(r.error.message.rfind(c.message, 0), 0u)
			<< c.text << "\ngot: " << r.error.message;
	}
	// The same IDs are fine when one of the switches does not stamp.
	EXPECT_TRUE(parse_topology("switch a buffer=1MB switch_id=7\nswitch b buffer=1MB "
	                           "switch_id=7\nlink a:x b:y rate=1G delay=1us\nint a:x\n"));
}

TEST(IntConfig, ValidateRejectsBadConfigs)
{
	EXPECT_EQ(validate(make_config()), "");
	SwitchConfig c = make_config();
	c.int_config.switch_id = 0x1000;
	EXPECT_EQ(validate(c), "switch s0: INT switch ID 4096 is not 0..4095");
	EXPECT_THROW(Switch{c}, std::invalid_argument);

	c = make_config();
	c.int_config.udp_port = 4791;
	EXPECT_EQ(validate(c), "switch s0: INT UDP port must be 1..65535 and not 4791");
	c.int_config.udp_port = 0;
	EXPECT_NE(validate(c), "");

	c = make_config();
	c.ports[2].rate_bps = 3000000000ull;
	EXPECT_EQ(validate(c).rfind("switch s0: port p2: INT: its rate 3Gbit has no INT rate "
	                            "code",
	                            0),
	          0u)
		<< validate(c);
	EXPECT_THROW(Switch{c}, std::invalid_argument);
	c.ports[2].int_stamp = false; // the rate needs a code only to stamp
	EXPECT_EQ(validate(c), "");

	c = make_config();
	c.int_config.rates[4] = 3000000000ull;
	EXPECT_EQ(validate(c), "switch s0: INT rate code 4 must be 10Gbit");
	c = make_config();
	c.int_config.rates[0] = 1;
	EXPECT_EQ(validate(c), "switch s0: INT rate code 0 must be no rate");
	c = make_config();
	c.int_config.rates[15] = 100000000ull;
	EXPECT_EQ(validate(c), "switch s0: INT rate code 11: 100Mbit is already code 15");
	c = make_config();
	c.int_config.rates[15] = 1500000ull;
	EXPECT_NE(validate(c), "");

	// One INT port and table per fabric; IDs distinct among stampers.
	Topology t;
	t.switches = {make_config(1), make_config(2)};
	t.switches[1].name = "s1";
	EXPECT_EQ(validate(t), "");
	t.switches[1].int_config.udp_port = 5000;
	EXPECT_EQ(validate(t), "switch s1: INT UDP port 5000 differs from switch s0's 4792");
	t.switches[1].int_config.udp_port = 4792;
	t.switches[1].int_config.rates[14] = 3000000000ull;
	EXPECT_EQ(validate(t), "switch s1: INT rate codes differ from switch s0's");
	t.switches[1].int_config.rates[14] = 0;
	t.switches[1].int_config.switch_id = 1;
	EXPECT_EQ(validate(t), "switch s1: INT switch ID 1 is also switch s0's");
	EXPECT_THROW(Fabric{t}, std::invalid_argument);
}

// Random corruptions of INT frames: whatever parses has the shim and BTH
// inside the frame, and a stamp changes at most the shim and the UDP
// checksum, never the length.
TEST(IntParse, RandomInputStaysInBounds)
{
	SplitMix64 rng(17);
	std::vector<uint8_t> v6(62 + 42 + 12 + 30, 0);
	v6[12] = 0x86;
	v6[13] = 0xdd;
	v6[14] = 0x60;
	v6[19] = static_cast<uint8_t>(v6.size() - 54);
	v6[20] = kIpProtoUdp;
	v6[56] = 0x12;
	v6[57] = 0xb8;
	v6[59] = v6[19];
	const std::vector<std::vector<uint8_t>> seeds = {int_frame(1, 2, kTosData, 200, 0x0a),
	                                                 int_frame(1, 2, kTosData, 96, 0x64),
	                                                 int_frame(1, 2, kTosData, 95, 0x00), v6};
	size_t stamped = 0;
	for (int i = 0; i < 50000; i++) {
		std::vector<uint8_t> f = seeds[rng.next_u32() % seeds.size()];
		int flips = static_cast<int>(rng.next_u32() % 4);
		for (int k = 0; k < flips; k++)
			f[rng.next_u32() % f.size()] = static_cast<uint8_t>(rng.next_u32());
		f.resize(rng.next_u32() % (f.size() + 8), 0);
		auto p = Packet::parse(f, nullptr, kDefaultIntPort);
		if (!p)
			continue;
		const FrameInfo fi = p->info();
		if (fi.int_encap && fi.roce) {
			EXPECT_EQ(fi.bth_offset, fi.int_offset + kIntShimBytes);
			EXPECT_LE(fi.bth_offset + kBthBytes, f.size());
		}
		if (stamp_int(*p, IntHop{4, 1, 2, 3}, 0x0f0) != IntOutcome::kStamped) {
			EXPECT_EQ(p->bytes(), f);
			continue;
		}
		stamped++;
		ASSERT_EQ(p->size(), f.size());
		for (size_t k = 0; k < f.size(); k++) {
			bool shim = k >= fi.int_offset && k < fi.int_offset + kIntShimBytes;
			bool csum = k == fi.l4_offset + 6 || k == fi.l4_offset + 7;
			if (!shim && !csum) {
				EXPECT_EQ(p->bytes()[k], f[k]) << "byte " << k;
			}
		}
	}
	EXPECT_GT(stamped, 1000u);
}
