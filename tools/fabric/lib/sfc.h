// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// SFC, the switch side: back-to-sender (BTS) pause signals, the
// near-source pause cache and the Bloom filter that suppresses duplicate
// BTS (specs/sfc.md §2.4-§2.8 (Algorithm 1), §3.3, §3.6, §4.3, §7;
// specs/wire.md §7.4 (a), (e), (f), (h)).
//
// Ingress variant (SFC), at the enqueue of every packet, with qd = the
// bytes queued ahead of it in its egress queue:
//
//   BTS (UDP dport bts_port, valid header):
//       if C and the cache is on (and the BTS came from a port, or
//       cache_own): cache[(BTS IPv4 src, orig DSCP)] =
//       max(cache, now + pause_time); forwarded as any packet (a BTS never
//       triggers a BTS); with SFC-P, replaced by a PFC frame if its port
//       is server-facing.
//   data (IPv4 RoCEv2 request carrying data, of an SFC priority):
//       congested  = the egress port is an SFC port and qd > q_th
//       cache_us   = cached pause_end of (dst IP, DSCP) - now, in us
//                    rounded up; 0 if none or expired
//       if congested or cache_us > 0, and the Bloom filter has not seen
//       (5-tuple, BTH dest QPN) in this epoch:
//           tp_us  = ceil(max(0, qd - q_tg) * 8 / rate), rate of the
//                    egress port (0 on a port without SFC)
//           pause  = min(max(cache_us, tp_us), max_pause)
//           BTS with C = congested and the port is server-facing,
//                    H = cache_us > 0 and (not congested or
//                        cache_us >= tp_us),
//                    qdepth = congested ? qd / 64 : 0,
//           emitted, so the switch forwards it by its (swapped)
//           destination IP in the BTS priority (recirculation).
//       The data packet goes on unchanged.
//
// Egress variant: the same trigger at dequeue on the bytes left behind
// the packet, no cache lookups or updates, BTS with flag E (and C = 0),
// the same Bloom suppression.
//
// BTS frame (74 bytes untagged; a tagged original gives a tagged BTS with
// the same VID and the PCP of the BTS priority):
//   Ethernet  dst = the data's src MAC, src = the data's dst MAC
//   IPv4      src = data dst IP, dst = data src IP, DSCP bts_dscp,
//             Not-ECT, ID 0, DF clear, TTL 64, proto 17, checksum
//   UDP       sport = data UDP sport, dport = bts_port, checksum 0
//   BTS       0x10, flags (C 1, H 2, E 4, I 8), orig DS byte, 0,
//             pause_time_us (u32 BE), qdepth in 64 B (u32 BE)
//   the data's UDP header (8 bytes, verbatim) and BTH (12 bytes; the BTH
//   after the INT shim for an INT packet, with flag I); nothing after it,
//   no ICRC.
//
// Only IPv4 data triggers (the BTS format has no IPv6 variant yet).
#ifndef RXECC_FABRIC_SFC_H
#define RXECC_FABRIC_SFC_H

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "feature.h"
#include "packet.h"
#include "switch_config.h"

namespace rxecc::fabric
{

inline constexpr size_t kBtsHeaderBytes = 12;
inline constexpr uint8_t kBtsVersion = 1;
inline constexpr uint8_t kBtsTypePause = 0;
inline constexpr uint8_t kBtsFlagCacheable = 0x01; // C
inline constexpr uint8_t kBtsFlagCacheHit = 0x02;  // H
inline constexpr uint8_t kBtsFlagEgress = 0x04;    // E
inline constexpr uint8_t kBtsFlagInt = 0x08;       // I
inline constexpr uint32_t kBtsQdepthUnit = 64;
// Ethernet + IPv4 + UDP + BTS header + original UDP + original BTH.
inline constexpr size_t kBtsFrameBytes = 14 + 20 + 8 + kBtsHeaderBytes + 8 + kBthBytes;

// The BTS header and what the BTS carries of its original.
struct BtsHeader {
	uint8_t flags = 0;
	uint8_t orig_ds = 0; // DSCP << 2 | ECN of the original
	uint32_t pause_us = 0;
	uint32_t qdepth_64 = 0;
	bool cacheable() const { return flags & kBtsFlagCacheable; }
	uint8_t orig_dscp() const { return static_cast<uint8_t>(orig_ds >> 2); }
};

// Whether a RoCE packet with this BTH opcode may trigger a BTS: RC
// requests carrying data (SEND, WRITE, READ request, atomics, SEND with
// invalidate): 0x00-0x0C, 0x13, 0x14, 0x16, 0x17.
bool sfc_triggers_opcode(uint8_t opcode);

// The pause that drains qd bytes to q_tg at rate_bps, in whole us rounded
// up (bytes * 8 / Mbit/s = us); 0 if qd <= q_tg; at most max_us.
uint32_t sfc_pause_us(uint64_t qd, uint64_t q_tg, uint64_t rate_bps, uint32_t max_us);

// The remaining cached pause at now in us rounded up; 0 if end <= now.
uint32_t sfc_remaining_us(Time end, Time now);

// SFC-P: 802.1Qbb quanta (512 bit times at rate_bps) covering pause_us,
// rounded up, at most 65535.
uint16_t sfcp_quanta(uint32_t pause_us, uint64_t rate_bps);

// The BTS for the data packet data (IPv4 RoCEv2, as parsed with its INT
// port); nullopt if data is not one.
std::optional<std::vector<uint8_t>> build_bts(const Packet &data, const BtsHeader &h,
                                              uint16_t bts_port, uint8_t bts_dscp, uint8_t bts_pcp);

// The header of a BTS (IPv4, UDP dport bts_port, room for the header and
// the original UDP and BTH, version 1, type PAUSE); nullopt otherwise.
std::optional<BtsHeader> parse_bts(const Packet &p, uint16_t bts_port);

// The Bloom filter of suppression: bits bits, 3 hashes, cleared lazily at
// the first use in each epoch (now / reset_ns), the epoch mixed into the
// hashes.
class SfcBloom
{
public:
	SfcBloom(uint32_t bits, Time reset_ns);

	// True if all 3 bits of key were set in this epoch (suppress);
	// otherwise sets them and returns false.
	bool test_and_set(uint64_t key_a, uint64_t key_b, Time now);

	uint32_t set_bits() const { return set_; } // in the current epoch
	uint32_t max_set_bits() const { return max_set_; }
	uint64_t epoch() const { return epoch_; }

private:
	std::vector<uint64_t> words_;
	uint32_t bits_;
	Time reset_ns_;
	uint64_t epoch_ = 0;
	uint32_t set_ = 0, max_set_ = 0;
};

// The near-source pause cache: entries hash-addressed by (IPv4, DSCP),
// each {key, pause_end}.  An entry is live while pause_end > now.
class SfcCache
{
public:
	explicit SfcCache(uint32_t entries);

	enum class Update { kInserted, kExtended, kKept, kCollision };
	// cache[key] = max(cache[key], end) if the slot is empty, expired
	// or holds key; kCollision (nothing changed) if it holds another
	// live key.  kKept: key live with a later end already.
	Update update(uint32_t ip, uint8_t dscp, Time end, Time now);
	// The live pause_end of key, 0 if none.
	Time lookup(uint32_t ip, uint8_t dscp, Time now) const;
	uint32_t live(Time now) const;
	uint32_t max_live() const { return max_live_; }
	uint32_t size() const { return static_cast<uint32_t>(slots_.size()); }

private:
	struct Slot {
		uint32_t ip = 0;
		uint8_t dscp = 0;
		Time end = 0; // 0: empty
	};
	size_t slot(uint32_t ip, uint8_t dscp) const;

	std::vector<Slot> slots_;
	uint32_t max_live_ = 0;
};

// Per switch.
struct SfcCounters {
	uint64_t bts_generated_queue = 0; // the egress queue over q_th
	uint64_t bts_generated_cache = 0; // a live cache entry only
	uint64_t bts_suppressed = 0;      // by the Bloom filter
	uint64_t bts_zero = 0;            // pause 0 (sent unless drop_zero)
	uint64_t bts_zero_dropped = 0;    // of which not sent (drop_zero)
	uint64_t bts_seen = 0;            // valid BTS enqueued here (own too)
	uint64_t bts_invalid = 0;         // to bts_port, not a valid BTS
	uint64_t cache_updates = 0;       // inserted or extended
	uint64_t cache_hits = 0;          // data that found a live entry
	uint64_t cache_collisions = 0;
	uint64_t sfcp_frames = 0; // BTS replaced by a PFC frame
	uint64_t bts_generated() const { return bts_generated_queue + bts_generated_cache; }
};

struct SfcStatus {
	bool enabled = false;
	SfcCounters counters;
	uint64_t cache_entries = 0; // live now
	uint64_t cache_entries_max = 0;
	uint64_t bloom_bits_max = 0; // most bits set in one epoch
};

// The feature, built into every Switch after the INT stamper; does
// nothing in a switch without SfcParams::enabled.
class SfcEngine : public Feature
{
public:
	// cfg must be valid (validate()).
	explicit SfcEngine(const SwitchConfig &cfg);

	void on_enqueue(FeatureContext &ctx) override;
	void on_dequeue(FeatureContext &ctx) override;

	bool enabled() const { return p_.enabled; }
	SfcStatus status(Time now) const;

private:
	void on_bts(FeatureContext &ctx, const BtsHeader &h);
	void on_data(FeatureContext &ctx, bool egress);

	SfcParams p_;
	std::vector<SfcPortParams> port_;
	std::vector<bool> server_facing_;
	std::vector<uint64_t> rate_bps_;
	std::vector<Mac> mac_;
	std::array<uint8_t, 64> dscp_to_prio_;
	SfcBloom bloom_;
	SfcCache cache_;
	SfcCounters c_;
};

} // namespace rxecc::fabric

#endif
