// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCurate's congestion point (CP): the rate unit in front of one link
// direction (specs/accurate.md §2.3-§2.5, §2.10, §2.11, §4.4, §7).
// Integer only: rates are kb/s in u32, sums u64.  Pure: no clock, no
// packets; the switch feature (accurate.h) feeds it ACCETHs and epochs.
//
// The listing of accurate.md §2.4, with C and Ceff = C - C*alpha_ppm/10^6:
//
//   COMPUTE_FSR(m, b, nb, bmax):
//       if m == 0:
//           if b == 0 or nb == 0: return Ceff                   (idle)
//           m = 1; b -= min(b, bmax); nb -= 1                   (m_zero)
//       if b >= Ceff: return C' / (m + nb)                      (negative)
//       return (Ceff - b) / m
//     C' = C, or Ceff with neg = ceff.  The result is raised to 1 kb/s
//     if it is 0 (a link of a few kb/s with more flows than kb/s), as a
//     CR of 0 is an invalid FRP [our reading].
//   RRP_END: old registers = current; FSR = COMPUTE_FSR(current);
//            accumulators = 0.
//   forward NORMAL / INIT p:
//       cr_in = p.CR
//       INIT: FSR_o <= p.CR ? M_o += 1 : (B_o += CR, NB_o += 1,
//             BMAX_o = max); FSR = COMPUTE_FSR(old registers)
//       thr = FSR (faithful) or min(FSR, FSR_o) (hysteresis, §2.10)
//       thr <= p.CR: M += 1; p.CR = min(p.CR, FSR)       ("here", ties too)
//       else:        B += p.CR; NB += 1; BMAX = max(BMAX, p.CR)
//       p.DR = min(p.DR, FSR)
//       short-circuit if K_SC > 0 and cr_in * 1000 > k_sc_milli * FSR
//   forward STOP p:
//       COUNTED: thr <= p.CR ? M -= 1 : (B -= p.CR, NB -= 1), clamped at 0
//       p.CR = min(p.CR, FSR)
//
// RRP roll-over from the hosts' epochs (our reading, replacing the
// synchronized clock of §4.4/§4.6 on the switch side): the hosts stamp
// every forward FRP with epoch = floor(host_time / RRP) mod 2^16 from one
// shared clock.  The CP keeps the epoch of its current RRP and compares
// each FRP's epoch with it (u16 serial numbers):
//   - the first FRP ever: its epoch becomes the current one;
//   - equal: the current RRP;
//   - newer by d (1..32767): RRP_END min(d, 3) times, then current.  Two
//     ends leave FSR = Ceff and the old counts at 0 (idle, §4.4); the
//     third also sets FSR_o = Ceff, so any d >= 3 gives exactly the
//     state of d ends;
//   - older by 1..kAccStaleWindow: stale, counted, the FRP is not
//     processed (the switch forwards it unmodified) -- beyond the spec,
//     which has no late FRPs with a synchronized clock;
//   - older by more: the hosts' clock restarted or the fabric was idle
//     for more than half the epoch space: taken as newer (resync,
//     counted), so the CP cannot get stuck calling every FRP stale.
#ifndef RXECC_FABRIC_ACCURATE_CP_H
#define RXECC_FABRIC_ACCURATE_CP_H

#include <cstddef>
#include <cstdint>

namespace rxecc::fabric
{

// ACCETH (specs/accurate.md §3.2), 16 bytes big-endian after the BTH.
inline constexpr size_t kAccEthBytes = 16;
inline constexpr uint8_t kAccVersion = 1;
inline constexpr uint8_t kOpcodeFrp = 0xC0;
inline constexpr uint8_t kOpcodeFrpResp = 0xC1;
inline constexpr uint8_t kAccTypeNormal = 0;
inline constexpr uint8_t kAccTypeInit = 1;
inline constexpr uint8_t kAccTypeStop = 2;
inline constexpr uint8_t kAccFlagResp = 0x8;
inline constexpr uint8_t kAccFlagSc = 0x4;
inline constexpr uint8_t kAccFlagCounted = 0x2;

struct AccEth {
	uint8_t type = kAccTypeNormal; // byte 0, bits 7..4
	uint8_t flags = 0;             // byte 0, bits 3..0
	uint8_t sc_hop = 0;            // byte 1
	uint16_t epoch = 0;            // bytes 2..3
	uint32_t cr_kbps = 0;          // bytes 4..7
	uint32_t dr_kbps = 0;          // bytes 8..11
	uint8_t version = kAccVersion; // byte 12
	uint32_t src_qpn = 0;          // bytes 13..15, 24 bits

	static AccEth parse(const uint8_t *b);
	void put(uint8_t *b) const;
};

struct AccCpParams {
	uint32_t c_kbps = 10000000;
	uint32_t alpha_ppm = 50000; // 0 .. 999999
	uint32_t k_sc_milli = 1500; // 0: no short-circuits
	bool neg_ceff = false;      // negative FSR: Ceff / #flows, not C
	bool hysteresis = false;    // §2.10 variant
};

// Older epochs up to this far back are stale; further back, a resync.
inline constexpr uint16_t kAccStaleWindow = 16;
// RRP ends run for an epoch jump (more changes nothing).
inline constexpr uint16_t kAccMaxRolls = 3;

// The registers of one RRP.
struct AccRegs {
	uint32_t fsr = 0;
	uint32_t m = 0;
	uint32_t nb = 0;
	uint64_t b = 0;
	uint32_t bmax = 0;
};

struct AccCpCounters {
	uint64_t frp_normal = 0; // forward FRPs processed, by type
	uint64_t frp_init = 0;
	uint64_t frp_stop = 0;
	uint64_t frp_stale = 0;     // older epoch: not processed
	uint64_t frp_bad = 0;       // invalid (the feature's verdict): not processed
	uint64_t frp_bad_icrc = 0;  // of which: a wrong ICRC
	uint64_t rate_updates = 0;  // RRP ends run
	uint64_t epoch_resyncs = 0; // far-older epochs taken as newer
	uint64_t short_circuits = 0;
	uint64_t negative_fsr = 0; // COMPUTE_FSR: B >= Ceff (RRP ends and INITs)
	uint64_t m_zero = 0;       // COMPUTE_FSR: M = 0, b_max promoted
	uint64_t idle = 0;         // COMPUTE_FSR: M = 0 and B = 0 (or NB = 0)
};

// The last RRP that ended: its closing M, B, NB, BMAX and the FSR computed
// from them.
using AccLastRrp = AccRegs;

enum class AccEpoch { kCurrent, kStale };

class AccCp
{
public:
	explicit AccCp(const AccCpParams &p = {});

	const AccCpParams &params() const { return p_; }
	uint32_t c() const { return p_.c_kbps; }
	uint32_t ceff() const { return ceff_; }
	uint32_t fsr() const { return cur_.fsr; }
	// This RRP's accumulators (fsr: the FSR in force).
	const AccRegs &current() const { return cur_; }
	// The previous RRP's registers (as INITs have updated them).
	const AccRegs &old() const { return old_; }
	const AccLastRrp &last_rrp() const { return last_; }
	bool has_epoch() const { return has_epoch_; }
	uint16_t epoch() const { return epoch_; }
	const AccCpCounters &counters() const { return c_; }
	AccCpCounters &counters() { return c_; }

	// §2.5 on the given registers; counts its corner cases.
	uint32_t compute_fsr(uint32_t m, uint64_t b, uint32_t nb, uint32_t bmax);
	void rrp_end();
	// The epoch of a forward FRP: rolls the RRP over as above.
	AccEpoch on_epoch(uint16_t epoch);
	// A valid forward FRP of the current RRP (NORMAL, INIT or STOP):
	// rewrites p.cr_kbps and p.dr_kbps; true if it is to be
	// short-circuited (never for STOP).
	bool on_forward(AccEth &p);

private:
	uint32_t eq1(uint32_t m, uint64_t b, uint32_t nb, uint32_t bmax);
	uint32_t threshold() const;

	AccCpParams p_;
	uint32_t ceff_;
	AccRegs cur_, old_;
	AccLastRrp last_;
	bool has_epoch_ = false;
	uint16_t epoch_ = 0;
	AccCpCounters c_;
};

} // namespace rxecc::fabric

#endif
