// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// SFC back-to-sender pause; see sfc.h.
#include "sfc.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace rxecc::fabric
{

namespace
{

constexpr uint32_t kU32Max = std::numeric_limits<uint32_t>::max();

size_t u(int i)
{
	return static_cast<size_t>(i);
}

// A 64-bit mixing function (xor-shift / multiply rounds) for the hashes
// of the filter and the cache.
uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dull;
	x ^= x >> 33;
	return x;
}

uint32_t ipv4_u32(const IpAddr &a)
{
	return static_cast<uint32_t>(a.b[0]) << 24 | static_cast<uint32_t>(a.b[1]) << 16 |
	       static_cast<uint32_t>(a.b[2]) << 8 | a.b[3];
}

uint16_t get16(const uint8_t *p)
{
	return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

uint32_t get32(const uint8_t *p)
{
	return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
	       static_cast<uint32_t>(p[2]) << 8 | p[3];
}

void put16(std::vector<uint8_t> &f, uint16_t v)
{
	f.push_back(static_cast<uint8_t>(v >> 8));
	f.push_back(static_cast<uint8_t>(v & 0xff));
}

void put32(std::vector<uint8_t> &f, uint32_t v)
{
	put16(f, static_cast<uint16_t>(v >> 16));
	put16(f, static_cast<uint16_t>(v & 0xffff));
}

} // namespace

bool sfc_triggers_opcode(uint8_t op)
{
	return op <= 0x0c || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
}

uint32_t sfc_pause_us(uint64_t qd, uint64_t q_tg, uint64_t rate_bps, uint32_t max_us)
{
	if (qd <= q_tg)
		return 0;
	if (rate_bps == 0)
		return max_us;
	// us = ceil(bytes * 8 * 10^6 / rate_bps); saturated long before
	// the product could overflow.
	uint64_t bytes = qd - q_tg;
	constexpr uint64_t kScale = 8000000;
	if (bytes > std::numeric_limits<uint64_t>::max() / kScale)
		return max_us;
	uint64_t us = (bytes * kScale + rate_bps - 1) / rate_bps;
	return static_cast<uint32_t>(std::min<uint64_t>(us, max_us));
}

uint32_t sfc_remaining_us(Time end, Time now)
{
	if (end <= now)
		return 0;
	return static_cast<uint32_t>(std::min<uint64_t>((end - now + 999) / 1000, kU32Max));
}

uint16_t sfcp_quanta(uint32_t pause_us, uint64_t rate_bps)
{
	// quanta = ceil(pause_us * rate_bps / (512 * 10^6)).
	constexpr uint64_t kQuantumBitUs = 512000000;
	if (rate_bps && pause_us > std::numeric_limits<uint64_t>::max() / rate_bps)
		return 0xffff;
	uint64_t q = (uint64_t{pause_us} * rate_bps + kQuantumBitUs - 1) / kQuantumBitUs;
	return static_cast<uint16_t>(std::min<uint64_t>(q, 0xffff));
}

std::optional<std::vector<uint8_t>> build_bts(const Packet &data, const BtsHeader &h,
                                              uint16_t bts_port, uint8_t bts_dscp, uint8_t bts_pcp)
{
	const FrameInfo &fi = data.info();
	if (!fi.ipv4 || !fi.udp || !fi.roce || !fi.l4_offset || !fi.bth_offset)
		return std::nullopt;
	const std::vector<uint8_t> &d = data.bytes();
	if (fi.bth_offset + kBthBytes > d.size())
		return std::nullopt;
	std::vector<uint8_t> f;
	f.reserve(kBtsFrameBytes + 4);
	f.insert(f.end(), fi.src.begin(), fi.src.end()); // back to the sender
	f.insert(f.end(), fi.dst.begin(), fi.dst.end());
	if (fi.vlan) {
		put16(f, kEthTypeVlan);
		put16(f, static_cast<uint16_t>((bts_pcp & 7u) << 13 | (fi.vid & 0xfffu)));
	}
	put16(f, kEthTypeIpv4);

	size_t ip = f.size();
	constexpr uint16_t kIpLen = 20 + 8 + kBtsHeaderBytes + 8 + kBthBytes;
	f.push_back(0x45);
	f.push_back(static_cast<uint8_t>(bts_dscp << 2)); // Not-ECT
	put16(f, kIpLen);
	put16(f, 0);      // ID
	put16(f, 0x4000); // DF
	f.push_back(64);  // TTL
	f.push_back(kIpProtoUdp);
	put16(f, 0); // checksum, below
	f.insert(f.end(), fi.dst_ip.b.begin(), fi.dst_ip.b.begin() + 4);
	f.insert(f.end(), fi.src_ip.b.begin(), fi.src_ip.b.begin() + 4);
	uint16_t ck = ipv4_header_checksum(&f[ip], 20);
	f[ip + 10] = static_cast<uint8_t>(ck >> 8);
	f[ip + 11] = static_cast<uint8_t>(ck & 0xff);

	put16(f, fi.sport);
	put16(f, bts_port);
	put16(f, static_cast<uint16_t>(kIpLen - 20));
	put16(f, 0);

	uint8_t flags = h.flags;
	if (fi.int_encap)
		flags |= kBtsFlagInt;
	f.push_back(static_cast<uint8_t>(kBtsVersion << 4 | kBtsTypePause));
	f.push_back(flags);
	f.push_back(h.orig_ds);
	f.push_back(0);
	put32(f, h.pause_us);
	put32(f, h.qdepth_64);

	f.insert(f.end(), d.begin() + static_cast<long>(fi.l4_offset),
	         d.begin() + static_cast<long>(fi.l4_offset + 8));
	f.insert(f.end(), d.begin() + static_cast<long>(fi.bth_offset),
	         d.begin() + static_cast<long>(fi.bth_offset + kBthBytes));
	return f;
}

std::optional<BtsHeader> parse_bts(const Packet &p, uint16_t bts_port)
{
	const FrameInfo &fi = p.info();
	if (!fi.ipv4 || !fi.udp || fi.dport != bts_port || !fi.l4_offset)
		return std::nullopt;
	const std::vector<uint8_t> &b = p.bytes();
	size_t at = fi.l4_offset + 8;
	if (at + kBtsHeaderBytes + 8 + kBthBytes > b.size() ||
	    get16(&b[fi.l4_offset + 4]) < 8 + kBtsHeaderBytes + 8 + kBthBytes)
		return std::nullopt;
	if (b[at] != (kBtsVersion << 4 | kBtsTypePause))
		return std::nullopt;
	BtsHeader h;
	h.flags = b[at + 1];
	h.orig_ds = b[at + 2];
	h.pause_us = get32(&b[at + 4]);
	h.qdepth_64 = get32(&b[at + 8]);
	return h;
}

// ---- Bloom filter -----------------------------------------------------------

SfcBloom::SfcBloom(uint32_t bits, Time reset_ns)
    : words_((bits + 63) / 64), bits_(bits), reset_ns_(reset_ns ? reset_ns : 1)
{
}

bool SfcBloom::test_and_set(uint64_t key_a, uint64_t key_b, Time now)
{
	uint64_t epoch = now / reset_ns_;
	if (epoch != epoch_) {
		std::fill(words_.begin(), words_.end(), 0);
		epoch_ = epoch;
		set_ = 0;
	}
	uint64_t h = mix(key_a ^ mix(key_b ^ mix(epoch + 0x5bd1e995)));
	bool all = true;
	size_t idx[3];
	for (uint64_t i = 0; i < 3; i++) {
		idx[i] = static_cast<size_t>(mix(h + i * 0x9e3779b97f4a7c15ull) % bits_);
		if (!((words_[idx[i] / 64] >> (idx[i] % 64)) & 1))
			all = false;
	}
	if (all)
		return true;
	for (size_t i : idx) {
		uint64_t bit = uint64_t{1} << (i % 64);
		if (!(words_[i / 64] & bit)) {
			words_[i / 64] |= bit;
			set_++;
		}
	}
	max_set_ = std::max(max_set_, set_);
	return false;
}

// ---- Pause cache ------------------------------------------------------------

SfcCache::SfcCache(uint32_t entries) : slots_(entries ? entries : 1) {}

size_t SfcCache::slot(uint32_t ip, uint8_t dscp) const
{
	return static_cast<size_t>(mix(uint64_t{ip} << 8 | dscp) % slots_.size());
}

SfcCache::Update SfcCache::update(uint32_t ip, uint8_t dscp, Time end, Time now)
{
	Slot &s = slots_[slot(ip, dscp)];
	bool live = s.end > now;
	bool same = s.ip == ip && s.dscp == dscp;
	if (live && !same)
		return Update::kCollision;
	if (end <= now || (live && s.end >= end))
		return Update::kKept;
	s.ip = ip;
	s.dscp = dscp;
	s.end = end;
	if (live)
		return Update::kExtended;
	max_live_ = std::max(max_live_, this->live(now));
	return Update::kInserted;
}

Time SfcCache::lookup(uint32_t ip, uint8_t dscp, Time now) const
{
	const Slot &s = slots_[slot(ip, dscp)];
	return s.end > now && s.ip == ip && s.dscp == dscp ? s.end : 0;
}

uint32_t SfcCache::live(Time now) const
{
	uint32_t n = 0;
	for (const Slot &s : slots_)
		if (s.end > now)
			n++;
	return n;
}

// ---- The feature --------------------------------------------------------------

SfcEngine::SfcEngine(const SwitchConfig &cfg)
    : p_(cfg.sfc), dscp_to_prio_(cfg.dscp_to_prio),
      bloom_(cfg.sfc.enabled ? cfg.sfc.bloom_bits : 64, cfg.sfc.bloom_reset_ns),
      cache_(cfg.sfc.enabled && cfg.sfc.cache ? cfg.sfc.cache_entries : 1)
{
	for (const PortConfig &pc : cfg.ports) {
		port_.push_back(pc.sfc);
		server_facing_.push_back(pc.server_facing);
		rate_bps_.push_back(pc.rate_bps);
		mac_.push_back(pc.mac);
	}
}

void SfcEngine::on_enqueue(FeatureContext &ctx)
{
	if (!p_.enabled)
		return;
	const FrameInfo &fi = ctx.packet().info();
	if (fi.udp && fi.dport == p_.bts_port) {
		std::optional<BtsHeader> h = parse_bts(ctx.packet(), p_.bts_port);
		if (h)
			on_bts(ctx, *h);
		else
			c_.bts_invalid++;
		return;
	}
	if (p_.variant == SfcVariant::kIngress)
		on_data(ctx, false);
}

void SfcEngine::on_dequeue(FeatureContext &ctx)
{
	if (!p_.enabled || p_.variant != SfcVariant::kEgress)
		return;
	const FrameInfo &fi = ctx.packet().info();
	if (fi.udp && fi.dport == p_.bts_port)
		return;
	on_data(ctx, true);
}

void SfcEngine::on_bts(FeatureContext &ctx, const BtsHeader &h)
{
	c_.bts_seen++;
	Time now = ctx.now();
	if (h.cacheable() && p_.cache && (ctx.ingress_port() >= 0 || p_.cache_own)) {
		Time end = now + uint64_t{h.pause_us} * 1000;
		switch (cache_.update(ipv4_u32(ctx.packet().info().src_ip), h.orig_dscp(), end,
		                      now)) {
		case SfcCache::Update::kInserted:
		case SfcCache::Update::kExtended: c_.cache_updates++; break;
		case SfcCache::Update::kCollision: c_.cache_collisions++; break;
		case SfcCache::Update::kKept: break;
		}
	}
	int e = ctx.egress_port();
	if (!p_.sfcp || e < 0 || !server_facing_[u(e)])
		return;
	// SFC-P: the host's NIC priority of the original is paused instead.
	int prio = dscp_to_prio_[h.orig_dscp()];
	std::array<uint16_t, kNumPriorities> times{};
	times[u(prio)] = sfcp_quanta(h.pause_us, rate_bps_[u(e)]);
	if (!ctx.consume())
		return;
	ctx.emit_control(e, build_pfc_frame(mac_[u(e)], static_cast<uint8_t>(1u << prio), times));
	c_.sfcp_frames++;
}

void SfcEngine::on_data(FeatureContext &ctx, bool egress)
{
	const Packet &pkt = ctx.packet();
	const FrameInfo &fi = pkt.info();
	if (!fi.ipv4 || !fi.roce || !sfc_triggers_opcode(fi.bth_opcode))
		return;
	int prio = ctx.priority();
	if (prio < 0 || prio >= kNumPriorities || !((p_.prio_mask >> prio) & 1))
		return;
	int e = ctx.egress_port();
	if (e < 0 || u(e) >= port_.size())
		return;
	const SfcPortParams &pp = port_[u(e)];
	Time now = ctx.now();
	uint64_t qd = ctx.queue().bytes;
	bool congested = pp.enabled && qd > pp.q_th;
	uint32_t dst = ipv4_u32(fi.dst_ip);
	uint32_t cache_us = 0;
	if (!egress && p_.cache) {
		cache_us = sfc_remaining_us(cache_.lookup(dst, fi.dscp, now), now);
		if (cache_us)
			c_.cache_hits++;
	}
	if (!congested && cache_us == 0)
		return;

	const std::vector<uint8_t> &b = pkt.bytes();
	uint32_t qpn = get32(&b[fi.bth_offset + 4]) & 0xffffff;
	uint64_t key_a = uint64_t{ipv4_u32(fi.src_ip)} << 32 | dst;
	uint64_t key_b = uint64_t{fi.ip_proto} << 56 | uint64_t{fi.sport} << 40 |
	                 uint64_t{fi.dport} << 24 | qpn;
	if (bloom_.test_and_set(key_a, key_b, now)) {
		c_.bts_suppressed++;
		return;
	}

	uint32_t tp =
		pp.enabled ? sfc_pause_us(qd, pp.q_tg, ctx.queue().rate_bps, p_.max_pause_us) : 0;
	BtsHeader h;
	h.orig_ds = static_cast<uint8_t>(fi.dscp << 2 | static_cast<uint8_t>(fi.ecn));
	h.pause_us = std::min(std::max(cache_us, tp), p_.max_pause_us);
	if (congested)
		h.qdepth_64 =
			static_cast<uint32_t>(std::min<uint64_t>(qd / kBtsQdepthUnit, kU32Max));
	if (congested && !egress && server_facing_[u(e)])
		h.flags |= kBtsFlagCacheable;
	if (cache_us && (!congested || cache_us >= tp))
		h.flags |= kBtsFlagCacheHit;
	if (egress)
		h.flags |= kBtsFlagEgress;
	if (h.pause_us == 0) {
		c_.bts_zero++;
		if (p_.drop_zero) {
			c_.bts_zero_dropped++;
			return;
		}
	}
	std::optional<std::vector<uint8_t>> f =
		build_bts(pkt, h, p_.bts_port, p_.bts_dscp, dscp_to_prio_[p_.bts_dscp & 63]);
	if (!f)
		return;
	ctx.emit(std::move(*f));
	if (congested)
		c_.bts_generated_queue++;
	else
		c_.bts_generated_cache++;
}

SfcStatus SfcEngine::status(Time now) const
{
	SfcStatus st;
	if (!p_.enabled)
		return st;
	st.enabled = true;
	st.counters = c_;
	if (p_.cache) {
		st.cache_entries = cache_.live(now);
		st.cache_entries_max = cache_.max_live();
	}
	st.bloom_bits_max = bloom_.max_set_bits();
	return st;
}

} // namespace rxecc::fabric
