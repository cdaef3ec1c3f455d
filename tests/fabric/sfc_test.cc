// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// SFC back-to-sender pause (sfc.h; specs/sfc.md §2.4-§2.8, §3.3, §3.6,
// §7; specs/wire.md §7.4 (f)): the pause and quanta arithmetic, the Bloom
// filter and its epochs, the pause cache, the BTS bytes, which packets
// trigger, the engine's ingress and egress variants with the cache, SFC-P
// through a switch, a two-switch fabric where the sender's switch answers
// from its cache, and the sfc, bts_port and bts_dscp directives.
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "fabric.h"
#include "sfc.h"
#include "switch_model.h"
#include "test_frames.h"
#include "test_switch.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;
using namespace fabric_test;

constexpr uint64_t k10G = 10000000000ull;
constexpr uint16_t kBtsPort = 4793;

// ---- Arithmetic ------------------------------------------------------------

TEST(SfcPause, DrainTimeToTheTarget)
{
	// sfc.md §2.6: 125000 B above q_tg at 10000 Mbit/s = 100 us.
	EXPECT_EQ(sfc_pause_us(125000 + 50000, 50000, k10G, 10000), 100u);
	// 1250 B at 10 Gbit/s is exactly 1 us; one byte more rounds up.
	EXPECT_EQ(sfc_pause_us(1250, 0, k10G, 10000), 1u);
	EXPECT_EQ(sfc_pause_us(1251, 0, k10G, 10000), 2u);
	EXPECT_EQ(sfc_pause_us(1, 0, k10G, 10000), 1u);
	// 3125 B at 25 Mbit/s = 1000 us.
	EXPECT_EQ(sfc_pause_us(3125, 0, 25000000, 10000), 1000u);
}

TEST(SfcPause, ClampsAtZeroAndSaturates)
{
	EXPECT_EQ(sfc_pause_us(50000, 50000, k10G, 10000), 0u);
	EXPECT_EQ(sfc_pause_us(1000, 50000, k10G, 10000), 0u);
	// 1 MB at 1 Mbit/s is 8 s: saturated at the maximum.
	EXPECT_EQ(sfc_pause_us(1000000, 0, 1000000, 10000), 10000u);
	EXPECT_EQ(sfc_pause_us(UINT64_MAX, 0, 1000000, 777), 777u);
}

TEST(SfcPause, RemainingCachedPauseRoundsUp)
{
	EXPECT_EQ(sfc_remaining_us(1500, 0), 2u);
	EXPECT_EQ(sfc_remaining_us(2000, 1000), 1u);
	EXPECT_EQ(sfc_remaining_us(1001, 1000), 1u);
	EXPECT_EQ(sfc_remaining_us(1000, 1000), 0u);
	EXPECT_EQ(sfc_remaining_us(1000, 5000), 0u);
}

TEST(SfcPause, PfcQuantaOfSfcP)
{
	// 1 quantum = 512 bit times: 5.12 ns at 100 G, 51.2 ns at 10 G.
	EXPECT_EQ(sfcp_quanta(100, 100000000000ull), 19532u); // 19531.25
	EXPECT_EQ(sfcp_quanta(1, k10G), 20u);                 // 19.53
	EXPECT_EQ(sfcp_quanta(512, 1000000), 1u);             // exactly 1
	EXPECT_EQ(sfcp_quanta(513, 1000000), 2u);
	EXPECT_EQ(sfcp_quanta(0, k10G), 0u);
	// 335 us is the most 65535 quanta cover at 100 G.
	EXPECT_EQ(sfcp_quanta(10000, 100000000000ull), 65535u);
	EXPECT_EQ(sfcp_quanta(UINT32_MAX, 2000000000000ull), 65535u);
}

TEST(SfcTrigger, OnlyRequestsCarryingData)
{
	for (unsigned op = 0; op < 256; op++) {
		bool want = op <= 0x0c || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
		EXPECT_EQ(sfc_triggers_opcode(static_cast<uint8_t>(op)), want) << op;
	}
	// Named ones: ACK, READ responses, atomic ACK, CNP, the project's.
	for (int op : {0x11, 0x0d, 0x0e, 0x0f, 0x10, 0x12, 0x81, 0xc0, 0xc1, 0xc2})
		EXPECT_FALSE(sfc_triggers_opcode(static_cast<uint8_t>(op))) << op;
}

// ---- Bloom filter -------------------------------------------------------------

TEST(SfcBloom, SuppressesTheSameKeyWithinAnEpoch)
{
	SfcBloom b(4096, 500000);
	EXPECT_FALSE(b.test_and_set(1, 2, 0));
	uint32_t set = b.set_bits();
	EXPECT_GE(set, 1u);
	EXPECT_LE(set, 3u);
	EXPECT_TRUE(b.test_and_set(1, 2, 100));
	EXPECT_TRUE(b.test_and_set(1, 2, 499999));
	EXPECT_EQ(b.set_bits(), set);
	// Another key (another QPN, say) is not suppressed.
	EXPECT_FALSE(b.test_and_set(1, 3, 499999));
	EXPECT_TRUE(b.test_and_set(1, 3, 499999));
}

TEST(SfcBloom, ResetEveryPeriod)
{
	SfcBloom b(4096, 500000);
	EXPECT_FALSE(b.test_and_set(7, 8, 10));
	EXPECT_FALSE(b.test_and_set(9, 8, 10));
	uint32_t before = b.set_bits();
	EXPECT_EQ(b.epoch(), 0u);
	// The next epoch starts empty: the flow gets a BTS again.
	EXPECT_FALSE(b.test_and_set(7, 8, 500000));
	EXPECT_EQ(b.epoch(), 1u);
	EXPECT_LE(b.set_bits(), 3u);
	EXPECT_EQ(b.max_set_bits(), before);
	EXPECT_TRUE(b.test_and_set(7, 8, 999999));
	EXPECT_FALSE(b.test_and_set(9, 8, 999999));
	// Skipped epochs clear too.
	EXPECT_FALSE(b.test_and_set(7, 8, 5000000));
	EXPECT_EQ(b.epoch(), 10u);
}

TEST(SfcBloom, FillsUpWithManyFlows)
{
	SfcBloom b(64, 1000000);
	for (uint64_t k = 0; k < 200; k++)
		b.test_and_set(k, 0, 0);
	// A small filter saturates: everything is suppressed.
	EXPECT_EQ(b.set_bits(), 64u);
	EXPECT_TRUE(b.test_and_set(12345, 6789, 0));
	EXPECT_EQ(b.max_set_bits(), 64u);
}

// ---- Pause cache --------------------------------------------------------------

constexpr uint32_t kIp2 = 0x0a000002, kIp3 = 0x0a000003;

TEST(SfcCache, InsertHitExpire)
{
	SfcCache c(16);
	EXPECT_EQ(c.lookup(kIp2, 26, 0), 0u);
	EXPECT_EQ(c.update(kIp2, 26, 5000, 1000), SfcCache::Update::kInserted);
	EXPECT_EQ(c.lookup(kIp2, 26, 1000), 5000u);
	EXPECT_EQ(c.lookup(kIp2, 26, 4999), 5000u);
	EXPECT_EQ(c.lookup(kIp2, 26, 5000), 0u); // expired
	// The key is (IP, DSCP).
	EXPECT_EQ(c.lookup(kIp2, 48, 1000), 0u);
	EXPECT_EQ(c.lookup(kIp3, 26, 1000), 0u);
	EXPECT_EQ(c.live(1000), 1u);
	EXPECT_EQ(c.live(5000), 0u);
	EXPECT_EQ(c.max_live(), 1u);
}

TEST(SfcCache, KeepsTheLaterPauseEnd)
{
	SfcCache c(16);
	EXPECT_EQ(c.update(kIp2, 26, 9000, 0), SfcCache::Update::kInserted);
	EXPECT_EQ(c.update(kIp2, 26, 3000, 100), SfcCache::Update::kKept);
	EXPECT_EQ(c.lookup(kIp2, 26, 100), 9000u);
	EXPECT_EQ(c.update(kIp2, 26, 12000, 200), SfcCache::Update::kExtended);
	EXPECT_EQ(c.lookup(kIp2, 26, 200), 12000u);
	// A pause of 0 (end = now) changes nothing.
	EXPECT_EQ(c.update(kIp3, 26, 300, 300), SfcCache::Update::kKept);
	EXPECT_EQ(c.live(300), 1u);
}

TEST(SfcCache, CollisionSkipsUntilTheEntryExpires)
{
	SfcCache c(1); // every key in one slot
	EXPECT_EQ(c.update(kIp2, 26, 5000, 0), SfcCache::Update::kInserted);
	EXPECT_EQ(c.update(kIp3, 26, 8000, 100), SfcCache::Update::kCollision);
	EXPECT_EQ(c.lookup(kIp3, 26, 100), 0u);
	EXPECT_EQ(c.lookup(kIp2, 26, 100), 5000u); // not evicted
	// Once expired, the slot is free for another key.
	EXPECT_EQ(c.update(kIp3, 26, 9000, 5000), SfcCache::Update::kInserted);
	EXPECT_EQ(c.lookup(kIp3, 26, 5000), 9000u);
	EXPECT_EQ(c.lookup(kIp2, 26, 5000), 0u);
}

TEST(SfcCache, CountsLiveEntries)
{
	SfcCache c(4096);
	for (uint32_t i = 0; i < 10; i++)
		c.update(0x0a000100 + i, 26, 1000 + i * 100, 0);
	EXPECT_EQ(c.live(0), 10u);
	EXPECT_EQ(c.live(1450), 5u); // ends 1500..1900 left
	EXPECT_EQ(c.max_live(), 10u);
	c.update(0x0a000200, 26, 3000, 2000);
	EXPECT_EQ(c.live(2000), 1u);
	EXPECT_EQ(c.max_live(), 10u);
}

// ---- BTS bytes ----------------------------------------------------------------

std::vector<uint8_t> bts_of(const std::vector<uint8_t> &data, uint8_t flags, uint32_t pause,
                            uint32_t qdepth)
{
	auto p = Packet::parse(data, nullptr, kDefaultIntPort);
	EXPECT_TRUE(p);
	BtsHeader h;
	h.flags = flags;
	h.orig_ds = p->info().dscp << 2 | static_cast<uint8_t>(p->info().ecn);
	h.pause_us = pause;
	h.qdepth_64 = qdepth;
	auto f = build_bts(*p, h, kBtsPort, 48, 6);
	EXPECT_TRUE(f);
	return f ? *f : std::vector<uint8_t>{};
}

TEST(SfcBts, BytesOfW1)
{
	// W1: RC WRITE ONLY 10.0.0.1 -> 10.0.0.2, UDP 0xc132 -> 4791, TOS
	// 0x6a, dest QP 0x11, PSN 0x000100.  Swapped MACs and IPs, DSCP 48
	// Not-ECT, ID 0, DF, TTL 64, UDP 0xc132 -> 4793 checksum 0, header
	// 0x10 / C / 0x6a / 0 / 100 us / 7, W1's UDP header and BTH.
	EXPECT_EQ(bts_of(w1(), kBtsFlagCacheable, 100, 7),
	          from_hex("02000000000a02000000000b080045c0003c00004000401125ef0a0000020a000001"
	                   "c13212b90028000010016a000000006400000007c13212b7003800000a30ffff"
	                   "0000001180000100"));
	EXPECT_EQ(bts_of(w1(), 0, 0, 0).size(), kBtsFrameBytes);
	EXPECT_EQ(kBtsFrameBytes, 74u);
}

TEST(SfcBts, ParsesBackAndChecksums)
{
	std::vector<uint8_t> f = bts_of(w1(), kBtsFlagCacheHit, 0x01020304, 0x0a0b0c0d);
	EXPECT_TRUE(ipv4_checksum_ok(f));
	auto p = Packet::parse(f, nullptr, kDefaultIntPort);
	ASSERT_TRUE(p);
	EXPECT_EQ(p->info().dscp, 48);
	EXPECT_EQ(p->info().ecn, Ecn::kNotEct);
	EXPECT_EQ(p->info().dst_ip.to_string(), "10.0.0.1");
	EXPECT_EQ(p->info().src_ip.to_string(), "10.0.0.2");
	EXPECT_EQ(p->info().dport, kBtsPort);
	EXPECT_FALSE(p->info().roce);
	std::optional<BtsHeader> h = parse_bts(*p, kBtsPort);
	ASSERT_TRUE(h);
	EXPECT_EQ(h->flags, kBtsFlagCacheHit);
	EXPECT_FALSE(h->cacheable());
	EXPECT_EQ(h->orig_ds, 0x6a);
	EXPECT_EQ(h->orig_dscp(), 26);
	EXPECT_EQ(h->pause_us, 0x01020304u);
	EXPECT_EQ(h->qdepth_64, 0x0a0b0c0du);
	// Not a BTS: another port, a bad version, too short.
	EXPECT_FALSE(parse_bts(*p, 4794));
	std::vector<uint8_t> bad = f;
	bad[42] = 0x20;
	EXPECT_FALSE(parse_bts(*Packet::parse(bad), kBtsPort));
	EXPECT_FALSE(parse_bts(*Packet::parse(udp_frame(2, 1, 0xc0, 70, kBtsPort)), kBtsPort));
}

TEST(SfcBts, IntShimmedOriginalCarriesTheBthAfterTheShim)
{
	std::vector<uint8_t> d = int_frame(1, 2, kTosData, 200, 0x06); // WRITE FIRST
	for (size_t i = 1; i < kBthBytes; i++)
		d[kIntBthAt + i] = static_cast<uint8_t>(0xa0 + i);
	std::vector<uint8_t> f = bts_of(d, kBtsFlagCacheable, 5, 1);
	ASSERT_EQ(f.size(), kBtsFrameBytes);
	EXPECT_EQ(f[43], kBtsFlagCacheable | kBtsFlagInt);
	// The UDP header verbatim (dport 4792), then the BTH after the shim.
	EXPECT_EQ(std::vector<uint8_t>(f.begin() + 54, f.begin() + 62),
	          std::vector<uint8_t>(d.begin() + kUdpAt, d.begin() + kUdpAt + 8));
	EXPECT_EQ(f[56], 0x12);
	EXPECT_EQ(f[57], 0xb8);
	EXPECT_EQ(std::vector<uint8_t>(f.begin() + 62, f.end()),
	          std::vector<uint8_t>(d.begin() + kIntBthAt, d.begin() + kIntBthAt + 12));
	// A plain original has no I.
	EXPECT_EQ(bts_of(w1(), 0, 5, 1)[43], 0);
}

TEST(SfcBts, TaggedOriginalGivesATaggedBts)
{
	std::vector<uint8_t> d = w1();
	// 802.1Q tag PCP 3, VID 100 after the MACs.
	const uint8_t tag[] = {0x81, 0x00, 0x60, 0x64};
	d.insert(d.begin() + 12, tag, tag + 4);
	std::vector<uint8_t> f = bts_of(d, 0, 1, 1);
	ASSERT_EQ(f.size(), kBtsFrameBytes + 4);
	EXPECT_EQ(f[12], 0x81);
	EXPECT_EQ(f[14], 0xc0); // PCP 6 (the BTS priority), VID 100
	EXPECT_EQ(f[15], 0x64);
	auto p = Packet::parse(f);
	ASSERT_TRUE(p);
	EXPECT_EQ(p->info().vid, 100);
	// The rest as untagged.
	std::vector<uint8_t> plain = bts_of(w1(), 0, 1, 1);
	EXPECT_EQ(std::vector<uint8_t>(f.begin(), f.begin() + 12),
	          std::vector<uint8_t>(plain.begin(), plain.begin() + 12));
	EXPECT_EQ(std::vector<uint8_t>(f.begin() + 16, f.end()),
	          std::vector<uint8_t>(plain.begin() + 12, plain.end()));
}

// ---- The engine -----------------------------------------------------------------

// After an edit of an untagged IPv4 header.
void fix_ipv4_checksum(std::vector<uint8_t> &f)
{
	uint16_t ck = ipv4_header_checksum(&f[14], 20);
	f[24] = static_cast<uint8_t>(ck >> 8);
	f[25] = static_cast<uint8_t>(ck & 0xff);
}

// A data frame: RC request opcode from 10.0.0.src to 10.0.0.dst, UDP
// source port sport, dest QP qpn, 1000 bytes.
std::vector<uint8_t> data(uint8_t src, uint8_t dst, uint8_t opcode = 0x0a, uint16_t sport = 0xc001,
                          uint32_t qpn = 0x11)
{
	std::vector<uint8_t> f = udp_frame(src, dst, kTosData, 1000);
	f[kUdpAt] = static_cast<uint8_t>(sport >> 8);
	f[kUdpAt + 1] = static_cast<uint8_t>(sport & 0xff);
	f[42] = opcode;
	f[47] = static_cast<uint8_t>(qpn >> 16);
	f[48] = static_cast<uint8_t>(qpn >> 8);
	f[49] = static_cast<uint8_t>(qpn & 0xff);
	return f;
}

// Switch x: port 0 host 10.0.0.1, port 1 host 10.0.0.2, port 2 an
// uplink (not server-facing) to 10.0.1.0/24; all 10 Gbit/s; SFC on every
// port with q_th 100 KB, q_tg 50 KB.
SwitchConfig sfc_config()
{
	SwitchConfig c;
	c.name = "x";
	c.buffer_bytes = 4000000;
	for (int i = 0; i < 3; i++) {
		PortConfig p;
		p.name = "p" + std::to_string(i);
		p.rate_bps = k10G;
		p.server_facing = i < 2;
		p.mac = {0x02, 0xfb, 0, 0, 0, static_cast<uint8_t>(i)};
		p.sfc.enabled = true;
		p.sfc.q_th = 100000;
		p.sfc.q_tg = 50000;
		c.ports.push_back(p);
	}
	c.routes.push_back({IpAddr::v4(10, 0, 0, 1), 32, 0});
	c.routes.push_back({IpAddr::v4(10, 0, 0, 2), 32, 1});
	c.routes.push_back({IpAddr::v4(10, 0, 1, 0), 24, 2});
	c.sfc.enabled = true;
	return c;
}

struct Engine {
	explicit Engine(const SwitchConfig &c = sfc_config()) : cfg(c), sfc(cfg) {}

	// The packet f at enqueue (or dequeue) on port out, with qd bytes
	// ahead of (left behind) it, at now; returns what was emitted.
	std::vector<EmittedFrame> run(std::vector<uint8_t> f, int in, int out, uint64_t qd,
	                              Time now, bool dequeue = false, bool *consumed = nullptr)
	{
		auto p = Packet::parse(std::move(f), nullptr, kDefaultIntPort);
		EXPECT_TRUE(p);
		QueueView v;
		v.port = out;
		v.priority = cfg.dscp_to_prio[p->info().dscp];
		v.bytes = qd;
		v.rate_bps = cfg.ports[static_cast<size_t>(out)].rate_bps;
		SplitMix64 rng(1);
		FeatureCounters fc;
		std::vector<EmittedFrame> em;
		FeatureContext ctx(*p, in, v, now, rng, fc, em, dequeue ? nullptr : consumed);
		if (dequeue)
			sfc.on_dequeue(ctx);
		else
			sfc.on_enqueue(ctx);
		return em;
	}

	SfcCounters counters(Time now = 0) const { return sfc.status(now).counters; }

	SwitchConfig cfg;
	SfcEngine sfc;
};

BtsHeader header_of(const EmittedFrame &e)
{
	EXPECT_EQ(e.port, -1); // forwarded by the switch
	auto p = Packet::parse(e.frame);
	EXPECT_TRUE(p);
	std::optional<BtsHeader> h = parse_bts(*p, kBtsPort);
	EXPECT_TRUE(h);
	return h ? *h : BtsHeader{};
}

TEST(SfcEngine, CongestedQueueTriggersAtIngress)
{
	Engine e;
	// At the threshold: not congested.
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 100000, 0).empty());
	// Above it: a BTS back to the sender with the drain time to q_tg.
	std::vector<uint8_t> d = data(1, 2);
	std::vector<EmittedFrame> em = e.run(d, 0, 1, 175000, 0);
	ASSERT_EQ(em.size(), 1u);
	BtsHeader h = header_of(em[0]);
	EXPECT_EQ(h.pause_us, 100u); // 125000 B at 10 Gbit/s
	EXPECT_EQ(h.qdepth_64, 175000u / 64);
	EXPECT_EQ(h.flags, kBtsFlagCacheable); // port 1 faces a host
	EXPECT_EQ(h.orig_ds, kTosData);
	EXPECT_EQ(em[0].frame, bts_of(d, kBtsFlagCacheable, 100, 175000 / 64));
	SfcCounters c = e.counters();
	EXPECT_EQ(c.bts_generated_queue, 1u);
	EXPECT_EQ(c.bts_generated_cache, 0u);
	EXPECT_EQ(c.cache_hits, 0u);
}

TEST(SfcEngine, UplinkCongestionIsNotCacheable)
{
	Engine e;
	std::vector<EmittedFrame> em = e.run(data(1, 0x63), 0, 2, 200000, 0);
	ASSERT_EQ(em.size(), 1u);
	EXPECT_EQ(header_of(em[0]).flags, 0);
}

TEST(SfcEngine, PauseSaturatesAtMaxPause)
{
	SwitchConfig c = sfc_config();
	c.sfc.max_pause_us = 50;
	Engine e(c);
	std::vector<EmittedFrame> em = e.run(data(1, 2), 0, 1, 175000, 0);
	ASSERT_EQ(em.size(), 1u);
	EXPECT_EQ(header_of(em[0]).pause_us, 50u);
}

TEST(SfcEngine, BloomSuppressesPerFlowAndEpoch)
{
	Engine e;
	EXPECT_EQ(e.run(data(1, 2), 0, 1, 200000, 0).size(), 1u);
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 200000, 1000).empty());
	// Another QP of the same 5-tuple, another UDP source port.
	EXPECT_EQ(e.run(data(1, 2, 0x0a, 0xc001, 0x12), 0, 1, 200000, 2000).size(), 1u);
	EXPECT_EQ(e.run(data(1, 2, 0x0a, 0xc002), 0, 1, 200000, 2000).size(), 1u);
	EXPECT_EQ(e.counters().bts_suppressed, 1u);
	// The next epoch (500 us) lets the first flow through again.
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 200000, 499999).empty());
	EXPECT_EQ(e.run(data(1, 2), 0, 1, 200000, 500000).size(), 1u);
	SfcStatus st = e.sfc.status(500000);
	EXPECT_EQ(st.counters.bts_generated_queue, 4u);
	EXPECT_EQ(st.counters.bts_suppressed, 2u);
	EXPECT_GE(st.bloom_bits_max, 3u);
	EXPECT_LE(st.bloom_bits_max, 9u);
}

TEST(SfcEngine, NonDataNeverTriggers)
{
	Engine e;
	for (int op : {0x11, 0x0d, 0x10, 0x12, 0x81, 0xc0, 0xc2, 0x64})
		EXPECT_TRUE(e.run(data(1, 2, static_cast<uint8_t>(op)), 0, 1, 500000, 0).empty())
			<< op;
	// Not RoCE (another UDP port), another priority, an INT packet of
	// a non-data opcode.
	EXPECT_TRUE(e.run(udp_frame(1, 2, kTosData, 1000, 5000), 0, 1, 500000, 0).empty());
	EXPECT_TRUE(e.run(udp_frame(1, 2, kTosCnp, 1000), 0, 1, 500000, 0).empty());
	EXPECT_TRUE(e.run(udp_frame(1, 2, kTosBestEffort, 1000), 0, 1, 500000, 0).empty());
	EXPECT_TRUE(e.run(int_frame(1, 2, kTosData, 1000, 0x11), 0, 1, 500000, 0).empty());
	SfcCounters c = e.counters();
	EXPECT_EQ(c.bts_generated(), 0u);
	EXPECT_EQ(c.bts_suppressed, 0u);
	// An INT data packet does trigger, with I.
	std::vector<EmittedFrame> em =
		e.run(int_frame(1, 2, kTosData, 1000, 0x0a), 0, 1, 500000, 0);
	ASSERT_EQ(em.size(), 1u);
	EXPECT_EQ(header_of(em[0]).flags, kBtsFlagCacheable | kBtsFlagInt);
}

TEST(SfcEngine, PriorityListSelectsTheTriggeringClasses)
{
	SwitchConfig c = sfc_config();
	c.sfc.prio_mask = 1u << 0;
	Engine e(c);
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 500000, 0).empty());
	std::vector<uint8_t> be = data(1, 2);
	be[15] = 0x02; // DSCP 0, ECT(0): priority 0
	fix_ipv4_checksum(be);
	EXPECT_EQ(e.run(be, 0, 1, 500000, 0).size(), 1u);
}

TEST(SfcEngine, BtsNeverTriggersABts)
{
	Engine e;
	std::vector<uint8_t> b = bts_of(data(2, 1), 0, 10, 0); // to 10.0.0.2
	EXPECT_TRUE(e.run(b, 0, 1, 500000, 0).empty());
	SfcCounters c = e.counters();
	EXPECT_EQ(c.bts_seen, 1u);
	EXPECT_EQ(c.bts_generated(), 0u);
	// An invalid one is only counted.
	std::vector<uint8_t> bad = udp_frame(2, 1, 0xc0, 80, kBtsPort);
	EXPECT_TRUE(e.run(bad, 1, 0, 500000, 0).empty());
	EXPECT_EQ(e.counters().bts_invalid, 1u);
}

TEST(SfcEngine, CacheableBtsFromAPortIsCachedAndAnswersOtherSenders)
{
	Engine e;
	// A BTS from the uplink: 10.0.0.9's port (behind port 2 here) is
	// congested, pause 500 us, toward 10.0.0.1.
	std::vector<uint8_t> b = bts_of(data(1, 0x09, 0x0a, 0xc001), kBtsFlagCacheable, 500, 99);
	EXPECT_TRUE(e.run(b, 2, 0, 0, 1000).empty()); // forwarded, nothing emitted
	SfcCounters c = e.counters(1000);
	EXPECT_EQ(c.cache_updates, 1u);
	EXPECT_EQ(e.sfc.status(1000).cache_entries, 1u);
	// Host 10.0.0.2 sends to 10.0.0.9 over an empty uplink, 100 us later:
	// answered from the cache with the rest of the pause.
	std::vector<EmittedFrame> em = e.run(data(2, 0x09), 1, 2, 0, 101000);
	ASSERT_EQ(em.size(), 1u);
	BtsHeader h = header_of(em[0]);
	EXPECT_EQ(h.pause_us, 400u);
	EXPECT_EQ(h.flags, kBtsFlagCacheHit); // never cacheable
	EXPECT_EQ(h.qdepth_64, 0u);
	auto p = Packet::parse(em[0].frame);
	EXPECT_EQ(p->info().dst_ip.to_string(), "10.0.0.2");
	EXPECT_EQ(p->info().src_ip.to_string(), "10.0.0.9");
	c = e.counters();
	EXPECT_EQ(c.cache_hits, 1u);
	EXPECT_EQ(c.bts_generated_cache, 1u);
	EXPECT_EQ(c.bts_generated_queue, 0u);
	// That BTS passing (here, as the switch's own) does not update the
	// cache: C is clear.
	EXPECT_TRUE(e.run(em[0].frame, -1, 1, 0, 101000).empty());
	EXPECT_EQ(e.counters().cache_updates, 1u);
	// Another DSCP to the same IP is another key: no hit.
	std::vector<uint8_t> other = data(2, 0x09, 0x0a, 0xc005);
	other[15] = 0x0a; // DSCP 2 (priority 0): not an SFC priority either
	fix_ipv4_checksum(other);
	EXPECT_TRUE(e.run(other, 1, 2, 0, 102000).empty());
	// After the pause ends, nothing.
	EXPECT_TRUE(e.run(data(2, 0x09, 0x0a, 0xc006), 1, 2, 0, 501000).empty());
	EXPECT_EQ(e.sfc.status(501000).cache_entries, 0u);
	EXPECT_EQ(e.sfc.status(501000).cache_entries_max, 1u);
}

TEST(SfcEngine, CachedPauseAndQueueTakeTheMax)
{
	Engine e;
	std::vector<uint8_t> b = bts_of(data(1, 2), kBtsFlagCacheable, 30, 0); // from 10.0.0.2
	e.run(b, 2, 0, 0, 0);
	// The queue's drain time (100 us) beats the cache (30 us): H clear.
	std::vector<EmittedFrame> em = e.run(data(3, 2), 2, 1, 175000, 0);
	ASSERT_EQ(em.size(), 1u);
	EXPECT_EQ(header_of(em[0]).pause_us, 100u);
	EXPECT_EQ(header_of(em[0]).flags, kBtsFlagCacheable);
	// The cache (30 us) beats a queue at 60000 (not congested, 8 us).
	em = e.run(data(4, 2), 2, 1, 60000, 0);
	ASSERT_EQ(em.size(), 1u);
	EXPECT_EQ(header_of(em[0]).pause_us, 30u);
	EXPECT_EQ(header_of(em[0]).flags, kBtsFlagCacheHit);
	EXPECT_EQ(header_of(em[0]).qdepth_64, 0u);
	// Congested and the cache longer: the cache's value, H and C.
	b = bts_of(data(1, 2, 0x0a, 0xc009), kBtsFlagCacheable, 900, 0);
	e.run(b, 2, 0, 0, 0);
	em = e.run(data(5, 2), 2, 1, 175000, 0);
	ASSERT_EQ(em.size(), 1u);
	EXPECT_EQ(header_of(em[0]).pause_us, 900u);
	EXPECT_EQ(header_of(em[0]).flags, kBtsFlagCacheable | kBtsFlagCacheHit);
	SfcCounters c = e.counters();
	EXPECT_EQ(c.bts_generated_queue, 2u);
	EXPECT_EQ(c.bts_generated_cache, 1u);
	EXPECT_EQ(c.cache_updates, 2u); // 30 us, then extended to 900 us
}

TEST(SfcEngine, OwnCacheableBtsIsCachedUnlessCacheOwnIsOff)
{
	for (bool own : {true, false}) {
		SwitchConfig c = sfc_config();
		c.sfc.cache_own = own;
		Engine e(c);
		std::vector<EmittedFrame> em = e.run(data(1, 2), 0, 1, 175000, 0);
		ASSERT_EQ(em.size(), 1u);
		// Recirculated: the switch sees its own BTS (no ingress port).
		EXPECT_TRUE(e.run(em[0].frame, -1, 0, 0, 0).empty());
		EXPECT_EQ(e.counters().cache_updates, own ? 1u : 0u) << own;
		// Then another sender to 10.0.0.2 is paused from the cache
		// although the queue has drained below q_th.
		em = e.run(data(3, 2), 2, 1, 0, 50000);
		EXPECT_EQ(em.size(), own ? 1u : 0u) << own;
		if (own) {
			EXPECT_EQ(header_of(em[0]).pause_us, 50u);
			EXPECT_EQ(header_of(em[0]).flags, kBtsFlagCacheHit);
		}
		// The same BTS from a port is cached either way.
		e.run(bts_of(data(1, 2), kBtsFlagCacheable, 700, 0), 2, 0, 0, 60000);
		EXPECT_EQ(e.counters().cache_updates, own ? 2u : 1u) << own;
	}
}

TEST(SfcEngine, CacheOffNeitherCachesNorAnswers)
{
	SwitchConfig c = sfc_config();
	c.sfc.cache = false;
	Engine e(c);
	e.run(bts_of(data(1, 2), kBtsFlagCacheable, 700, 0), 2, 0, 0, 0);
	EXPECT_TRUE(e.run(data(3, 2), 2, 1, 0, 1000).empty());
	SfcStatus st = e.sfc.status(1000);
	EXPECT_EQ(st.counters.cache_updates, 0u);
	EXPECT_EQ(st.counters.cache_hits, 0u);
	EXPECT_EQ(st.cache_entries, 0u);
	// Congestion still triggers.
	EXPECT_EQ(e.run(data(3, 2), 2, 1, 175000, 1000).size(), 1u);
}

TEST(SfcEngine, CacheCollisionsAreCounted)
{
	SwitchConfig c = sfc_config();
	c.sfc.cache_entries = 1;
	Engine e(c);
	e.run(bts_of(data(1, 2), kBtsFlagCacheable, 700, 0), 2, 0, 0, 0);
	std::vector<uint8_t> b3 = bts_of(data(1, 3), kBtsFlagCacheable, 700, 0);
	e.run(b3, 2, 0, 0, 0);
	SfcStatus st = e.sfc.status(0);
	EXPECT_EQ(st.counters.cache_updates, 1u);
	EXPECT_EQ(st.counters.cache_collisions, 1u);
	EXPECT_EQ(st.cache_entries, 1u);
}

TEST(SfcEngine, EgressVariantTriggersAtDequeueOnTheQueueBehind)
{
	SwitchConfig c = sfc_config();
	c.sfc.variant = SfcVariant::kEgress;
	c.sfc.cache = false;
	Engine e(c);
	// Nothing at enqueue, however deep.
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 500000, 0).empty());
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 100000, 0, true).empty());
	std::vector<EmittedFrame> em = e.run(data(1, 2), 0, 1, 175000, 0, true);
	ASSERT_EQ(em.size(), 1u);
	BtsHeader h = header_of(em[0]);
	EXPECT_EQ(h.flags, kBtsFlagEgress); // never cacheable
	EXPECT_EQ(h.pause_us, 100u);
	EXPECT_EQ(h.qdepth_64, 175000u / 64);
	// Suppressed like the ingress variant.
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 175000, 10, true).empty());
	EXPECT_EQ(e.counters().bts_suppressed, 1u);
	EXPECT_EQ(e.counters().bts_generated_queue, 1u);
}

TEST(SfcEngine, DisabledDoesNothing)
{
	SwitchConfig c = sfc_config();
	c.sfc.enabled = false;
	for (PortConfig &p : c.ports)
		p.sfc.enabled = false;
	Engine e(c);
	EXPECT_TRUE(e.run(data(1, 2), 0, 1, 500000, 0).empty());
	EXPECT_TRUE(e.run(bts_of(data(1, 2), kBtsFlagCacheable, 700, 0), 2, 0, 0, 0).empty());
	EXPECT_FALSE(e.sfc.status(0).enabled);
	EXPECT_EQ(e.sfc.status(0).counters.bts_seen, 0u);
}

TEST(SfcEngine, PortWithoutSfcOnlyAnswersFromTheCache)
{
	SwitchConfig c = sfc_config();
	c.ports[2].sfc.enabled = false;
	Engine e(c);
	EXPECT_TRUE(e.run(data(1, 0x09), 0, 2, 500000, 0).empty());
	std::vector<uint8_t> b = bts_of(data(1, 0x09), kBtsFlagCacheable, 200, 0);
	e.run(b, 2, 0, 0, 0);
	std::vector<EmittedFrame> em = e.run(data(2, 0x09), 1, 2, 500000, 0);
	ASSERT_EQ(em.size(), 1u);
	EXPECT_EQ(header_of(em[0]).pause_us, 200u); // not the queue's
	EXPECT_EQ(header_of(em[0]).flags, kBtsFlagCacheHit);
}

// ---- Through a switch ---------------------------------------------------------

TEST(SfcSwitch, BtsLeavesTowardTheSenderInTheBtsPriority)
{
	SwitchConfig c = sfc_config();
	c.ports[1].rate_bps = 100000000; // 100 Mbit/s toward 10.0.0.2
	c.ports[1].sfc.q_th = 10000;
	c.ports[1].sfc.q_tg = 5000;
	Switch sw(c);
	// 20 frames of one flow at once.  The first leaves at once, so
	// frame k sees (k - 2) * 1000 bytes ahead: the 13th, 11000 > q_th,
	// triggers; 14..20 are suppressed.
	for (int i = 0; i < 20; i++)
		sw.on_ingress(0, data(1, 2), 0);
	std::vector<Transmission> all = run_all(sw);
	std::vector<Transmission> bts;
	for (const Transmission &t : all)
		if (t.port == 0)
			bts.push_back(t);
	ASSERT_EQ(bts.size(), 1u); // then suppressed
	EXPECT_EQ(bts[0].priority, 6);
	// 6000 B above q_tg at 100 Mbit/s = 480 us.
	auto p = Packet::parse(bts[0].frame);
	ASSERT_TRUE(p);
	BtsHeader h = *parse_bts(*p, kBtsPort);
	EXPECT_EQ(h.pause_us, 480u);
	EXPECT_EQ(h.qdepth_64, 11000u / 64);
	EXPECT_EQ(h.flags, kBtsFlagCacheable);
	// The data is unchanged and all delivered.
	std::vector<Transmission> out = data_out(all, 1);
	ASSERT_EQ(out.size(), 20u);
	for (const Transmission &t : out)
		EXPECT_EQ(t.frame, data(1, 2));
	SfcStatus st = sw.sfc_status(kNever - 1);
	EXPECT_EQ(st.counters.bts_generated_queue, 1u);
	EXPECT_EQ(st.counters.bts_suppressed, 7u);
	EXPECT_EQ(st.counters.bts_seen, 1u);      // its own
	EXPECT_EQ(st.counters.cache_updates, 1u); // cache_own
	EXPECT_EQ(sw.queue_status(0, 6, 0).counters.tx_packets, 1u);
}

TEST(SfcSwitch, SfcPReplacesTheBtsByPfcTowardTheHost)
{
	SwitchConfig c = sfc_config();
	c.sfc.sfcp = true;
	Switch sw(c);
	// A cacheable BTS from the uplink to host 10.0.0.1, pause 100 us,
	// original DSCP 26 (priority 3).
	std::vector<uint8_t> b = bts_of(data(1, 2), kBtsFlagCacheable, 100, 0);
	sw.on_ingress(2, b, 0);
	std::vector<Transmission> all = run_all(sw);
	ASSERT_EQ(all.size(), 1u);
	EXPECT_EQ(all[0].port, 0);
	EXPECT_EQ(all[0].priority, -1); // a control frame
	auto p = Packet::parse(all[0].frame);
	ASSERT_TRUE(p);
	std::optional<PauseRequest> r = parse_pause(*p);
	ASSERT_TRUE(r);
	EXPECT_EQ(r->enable_mask, 1u << 3);
	EXPECT_EQ(r->times[3], 1954u); // 100 us at 10 G = 1953.125 quanta
	EXPECT_EQ(std::vector<uint8_t>(all[0].frame.begin() + 6, all[0].frame.begin() + 12),
	          std::vector<uint8_t>(c.ports[0].mac.begin(), c.ports[0].mac.end()));
	SfcStatus st = sw.sfc_status(0);
	EXPECT_EQ(st.counters.sfcp_frames, 1u);
	EXPECT_EQ(st.counters.cache_updates, 1u); // cached before converting
	EXPECT_EQ(sw.buffer().pool_used(), 0u);
	EXPECT_EQ(sw.queue_status(0, 6, 0).counters.tx_packets, 0u);
	// A BTS toward the uplink (not server-facing) is forwarded as is.
	std::vector<uint8_t> up = bts_of(data(0x09, 2), kBtsFlagCacheable, 100, 0);
	up[32] = 1; // dst 10.0.1.9
	fix_ipv4_checksum(up);
	sw.on_ingress(1, up, 1000);
	all = run_all(sw);
	ASSERT_EQ(all.size(), 1u);
	EXPECT_EQ(all[0].port, 2);
	EXPECT_EQ(all[0].priority, 6);
	EXPECT_EQ(sw.sfc_status(0).counters.sfcp_frames, 1u);
}

// ---- Two switches: the sender's switch answers from its cache ------------------

TEST(SfcFabric, SenderSwitchCachesAndAnswersOtherSenders)
{
	TopologyResult r = parse_topology("switch a buffer=1MB\n"
	                                  "switch b buffer=1MB\n"
	                                  "port a:h1 rate=100M delay=1us\n"
	                                  "port a:h3 rate=100M delay=1us\n"
	                                  "link a:up b:down rate=1G delay=10us\n"
	                                  "port b:r rate=100M delay=1us\n"
	                                  "route a 10.0.0.1 h1\n"
	                                  "route a 10.0.0.3 h3\n"
	                                  "route a 10.0.0.2 up\n"
	                                  "route b 10.0.0.2 r\n"
	                                  "route b 10.0.0.0/24 down\n"
	                                  "sfc *:* q_th=10KB q_tg=5KB\n");
	ASSERT_TRUE(r) << r.error.to_string();
	Fabric f(*r.topology);
	// h1 sends 16 frames 9 us apart (faster than r drains them, slower
	// than the 1G link): b's port r builds a queue.
	for (int i = 0; i < 16; i++)
		f.on_ingress(0, 0, data(1, 2), static_cast<Time>(i) * 9000);
	// h3 sends one frame at 400 us, after b's BTS has passed a.
	f.on_ingress(0, 1, data(3, 2, 0x0a, 0xc003), 400000);
	std::vector<FabricTransmission> all;
	for (Time t = f.next_event_time(); t != kNever; t = f.next_event_time())
		for (FabricTransmission &tx : f.poll(t))
			all.push_back(std::move(tx));
	std::vector<BtsHeader> to_h1, to_h3;
	size_t data_to_r = 0;
	for (const FabricTransmission &x : all) {
		auto p = Packet::parse(x.tx.frame);
		ASSERT_TRUE(p);
		std::optional<BtsHeader> h = parse_bts(*p, kBtsPort);
		if (x.sw == 1) {
			EXPECT_FALSE(h); // nothing reaches the receiver
			data_to_r++;
			continue;
		}
		ASSERT_TRUE(h);
		EXPECT_EQ(x.tx.priority, 6);
		(x.tx.port == 0 ? to_h1 : to_h3).push_back(*h);
	}
	EXPECT_EQ(data_to_r, 17u);
	ASSERT_GE(to_h1.size(), 1u);
	EXPECT_EQ(to_h1[0].flags, kBtsFlagCacheable); // from b's queue
	// h3 first hears from a's cache (one hop), then from b's queue,
	// still over q_th when h3's frame gets there.
	ASSERT_EQ(to_h3.size(), 2u);
	EXPECT_EQ(to_h3[0].flags, kBtsFlagCacheHit);
	EXPECT_GT(to_h3[0].pause_us, 0u);
	EXPECT_LT(to_h3[0].pause_us, to_h1[0].pause_us);
	EXPECT_EQ(to_h3[0].qdepth_64, 0u);
	EXPECT_EQ(to_h3[1].flags, kBtsFlagCacheable);
	EXPECT_GT(to_h3[1].qdepth_64, 0u);
	SfcStatus a = f.switch_at(0).sfc_status(0), b = f.switch_at(1).sfc_status(0);
	EXPECT_EQ(b.counters.bts_generated_queue, 2u); // h1's, h3's
	EXPECT_EQ(b.counters.bts_generated_cache, 0u);
	EXPECT_EQ(b.counters.cache_updates, 2u); // its own: inserted, extended
	EXPECT_EQ(a.counters.bts_generated_queue, 0u);
	EXPECT_EQ(a.counters.bts_generated_cache, 1u);
	EXPECT_EQ(a.counters.cache_hits, 1u);
	EXPECT_EQ(a.counters.cache_updates, 2u); // b's two, not its own
	// BTS per port: the BTS priority's tx counters.
	EXPECT_EQ(f.switch_at(0).queue_status(0, 6, 0).counters.tx_packets, 1u);
	EXPECT_EQ(f.switch_at(0).queue_status(1, 6, 0).counters.tx_packets, 2u);
}

// ---- Directives -------------------------------------------------------------

const std::string kBase = "switch a buffer=1MB\n"
			  "switch b buffer=1MB\n"
			  "port a:h rate=10G delay=1us\n"
			  "link a:up b:down rate=10G delay=1us\n"
			  "port b:r rate=10G delay=1us\n";

TopologyResult parse(const std::string &extra)
{
	return parse_topology(kBase + extra);
}

TEST(SfcTopology, DirectiveSetsSwitchAndPorts)
{
	TopologyResult r = parse("sfc b:r q_th=200KB q_tg=100KB prio=3,4 cache_entries=64 "
	                         "bloom_bits=1024 bloom_reset=1ms max_pause=2ms drop_zero=on "
	                         "sfcp=on cache_own=off\n"
	                         "sfc b:down q_th=400KB q_tg=150KB prio=3,4 cache_entries=64 "
	                         "bloom_bits=1024 bloom_reset=1ms max_pause=2ms drop_zero=on "
	                         "sfcp=on cache_own=off\n"
	                         "bts_port 5000\nbts_dscp 46\n");
	ASSERT_TRUE(r) << r.error.to_string();
	const SwitchConfig &a = r.topology->switches[0], &b = r.topology->switches[1];
	EXPECT_FALSE(a.sfc.enabled);
	EXPECT_TRUE(b.sfc.enabled);
	EXPECT_EQ(b.sfc.prio_mask, 0x18);
	EXPECT_EQ(b.sfc.variant, SfcVariant::kIngress);
	EXPECT_TRUE(b.sfc.cache);
	EXPECT_FALSE(b.sfc.cache_own);
	EXPECT_EQ(b.sfc.cache_entries, 64u);
	EXPECT_EQ(b.sfc.bloom_bits, 1024u);
	EXPECT_EQ(b.sfc.bloom_reset_ns, 1000000u);
	EXPECT_EQ(b.sfc.max_pause_us, 2000u);
	EXPECT_TRUE(b.sfc.drop_zero);
	EXPECT_TRUE(b.sfc.sfcp);
	// Fabric-wide: in every switch.
	EXPECT_EQ(a.sfc.bts_port, 5000);
	EXPECT_EQ(b.sfc.bts_port, 5000);
	EXPECT_EQ(a.sfc.bts_dscp, 46);
	const PortConfig &pr = b.ports[static_cast<size_t>(b.find_port("r"))];
	const PortConfig &pd = b.ports[static_cast<size_t>(b.find_port("down"))];
	EXPECT_TRUE(pr.sfc.enabled);
	EXPECT_EQ(pr.sfc.q_th, 200000u);
	EXPECT_EQ(pr.sfc.q_tg, 100000u);
	EXPECT_EQ(pd.sfc.q_th, 400000u);
	// port = a host (server-facing); link = another switch.
	EXPECT_TRUE(pr.server_facing);
	EXPECT_FALSE(pd.server_facing);
	EXPECT_TRUE(a.ports[0].server_facing);
	EXPECT_FALSE(a.ports[1].server_facing);
	EXPECT_FALSE(a.ports[0].sfc.enabled);
}

TEST(SfcTopology, Defaults)
{
	TopologyResult r = parse("sfc *:* q_th=20KB q_tg=10KB\n");
	ASSERT_TRUE(r) << r.error.to_string();
	for (const SwitchConfig &s : r.topology->switches) {
		EXPECT_TRUE(s.sfc.enabled);
		EXPECT_EQ(s.sfc.prio_mask, 1u << 3);
		EXPECT_TRUE(s.sfc.cache);
		EXPECT_TRUE(s.sfc.cache_own);
		EXPECT_EQ(s.sfc.cache_entries, 4096u);
		EXPECT_EQ(s.sfc.bloom_bits, 4096u);
		EXPECT_EQ(s.sfc.bloom_reset_ns, 500000u);
		EXPECT_EQ(s.sfc.max_pause_us, 10000u);
		EXPECT_FALSE(s.sfc.drop_zero);
		EXPECT_FALSE(s.sfc.sfcp);
		EXPECT_EQ(s.sfc.bts_port, 4793);
		EXPECT_EQ(s.sfc.bts_dscp, 48);
		for (const PortConfig &p : s.ports)
			EXPECT_TRUE(p.sfc.enabled);
	}
	// The egress variant has no cache.
	r = parse("sfc *:* q_th=20KB q_tg=10KB variant=egress\n");
	ASSERT_TRUE(r) << r.error.to_string();
	EXPECT_EQ(r.topology->switches[0].sfc.variant, SfcVariant::kEgress);
	EXPECT_FALSE(r.topology->switches[0].sfc.cache);
}

TEST(SfcTopology, Errors)
{
	struct Case {
		std::string text;
		int line;
		std::string message;
	};
	const Case cases[] = {
		{"sfc b:r q_th=10KB q_tg=10KB\n", 6, "q_tg must be below q_th"},
		{"sfc b:r q_th=10KB\n", 6, "missing attribute 'q_tg'"},
		{"sfc b:r q_tg=10KB\n", 6, "missing attribute 'q_th'"},
		{"sfc b:r q_th=0 q_tg=0\n", 6, "q_th must be between"},
		{"sfc b:r q_th=20KB q_tg=10KB variant=middle\n", 6,
	         "variant must be ingress or egress"},
		{"sfc b:r q_th=20KB q_tg=10KB variant=egress cache=on\n", 6,
	         "cache=on needs variant=ingress"},
		{"sfc b:r q_th=20KB q_tg=10KB cache_entries=0\n", 6, "cache_entries must be"},
		{"sfc b:r q_th=20KB q_tg=10KB bloom_bits=10\n", 6, "bloom_bits must be at least"},
		{"sfc b:r q_th=20KB q_tg=10KB bloom_reset=0\n", 6, "bloom_reset must be"},
		{"sfc b:r q_th=20KB q_tg=10KB max_pause=1500ns\n", 6, "whole microseconds"},
		{"sfc b:r q_th=20KB q_tg=10KB max_pause=11s\n", 6, "max_pause must be"},
		{"sfc b:r q_th=20KB q_tg=10KB prio=9\n", 6, "priority '9' is not 0..7"},
		{"sfc b:r q_th=20KB q_tg=10KB sfcp=maybe\n", 6, "bad boolean sfcp"},
		{"sfc b:r q_th=20KB q_tg=10KB colour=red\n", 6, "unknown attribute 'colour'"},
		{"sfc b:x q_th=20KB q_tg=10KB\n", 6, "matches no declared port"},
		{"sfc b:r q_th=20KB q_tg=10KB\nsfc b:down q_th=20KB q_tg=10KB cache=off\n", 7,
	         "SFC settings differ from line 6"},
		{"sfc\n", 6, "too few words"},
		{"bts_port 4791\n", 6, "bad bts_port '4791'"},
		{"bts_port 4792\n", 6, "is the INT port"},
		{"int_port 5000\nbts_port 5000\n", 7, "is the INT port"},
		{"bts_port 5000\nint_port 5000\n", 7, "is the BTS port of line 6"},
		{"bts_port 0\n", 6, "bad bts_port"},
		{"bts_port 5000\nbts_port 5001\n", 7, "bts_port given twice (first on line 6)"},
		{"bts_dscp 64\n", 6, "bad bts_dscp '64' (0..63)"},
		{"bts_dscp 46\nbts_dscp 47\n", 7, "bts_dscp given twice"},
		{"bts_dscp\n", 6, "usage: bts_dscp N"},
	};
	for (const Case &c : cases) {
		TopologyResult r = parse(c.text);
		ASSERT_FALSE(r) << c.text;
		EXPECT_EQ(r.error.line, c.line) << c.text << r.error.to_string();
		EXPECT_NE(r.error.message.find(c.message), std::string::npos)
			<< c.text << " -> " << r.error.to_string();
	}
}

TEST(SfcTopology, ValidateChecksTheConfiguration)
{
	SwitchConfig c = sfc_config();
	EXPECT_EQ(validate(c), "");
	SwitchConfig bad = c;
	bad.ports[1].sfc.q_tg = bad.ports[1].sfc.q_th;
	EXPECT_NE(validate(bad).find("q_tg must be below q_th"), std::string::npos);
	bad = c;
	bad.sfc.enabled = false;
	EXPECT_NE(validate(bad).find("switch without SFC"), std::string::npos);
	bad = c;
	bad.sfc.variant = SfcVariant::kEgress;
	EXPECT_NE(validate(bad).find("egress variant"), std::string::npos);
	bad = c;
	bad.sfc.bts_port = kDefaultIntPort;
	EXPECT_NE(validate(bad).find("INT port"), std::string::npos);
	bad = c;
	bad.sfc.bts_dscp = 64;
	EXPECT_NE(validate(bad).find("DSCP"), std::string::npos);
	bad = c;
	bad.sfc.bloom_bits = 1;
	EXPECT_NE(validate(bad).find("bloom_bits"), std::string::npos);
	EXPECT_THROW({ Switch sw(bad); }, std::invalid_argument);
}

} // namespace
