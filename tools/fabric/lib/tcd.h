// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// TCD, ternary congestion detection, the switch side of ACC
// (specs/acc.md §3.1, §3.2, §4.3, §6.1; specs/wire.md §7.4 (d), (h)).  A
// detector per egress queue (port, priority) tells a congestion port (the
// root of a congestion tree: continuously ON and still building a queue)
// from an undetermined one (modulated ON/OFF by PFC from downstream, its
// true state masked) and a non-congestion one, and marks the packets it
// dequeues with the state in the IP ECN field.
//
// Detector (acc.md §6.1), evaluated on each PAUSE/RESUME of the queue's
// priority at the egress port and at each dequeue, with q the queue's
// bytes left behind the dequeued packet (as RED at dequeue):
//
//     PAUSE  (ON -> OFF):  state = UNDETERMINED
//     RESUME (OFF -> ON):  t_on_start = now, then the rule below
//     while ON:
//         q <= thr                                        -> NONCONGESTION
//         else if state == NONCONGESTION                  -> CONGESTION
//         else if state == UNDETERMINED and
//                 now - t_on_start > max_ton              -> CONGESTION
//         (else unchanged)
//
// It starts NONCONGESTION and ON (t_on_start = 0).  A pause is a PFC or
// 802.3x PAUSE frame received on the port (Switch::notify_pause); RESUME
// is an XON or the pause time running out.  A pause refreshed while in
// force is no new PAUSE.
//
// Marks, at dequeue, ECT packets only (wire.md §7.4 (h)):
//
//     CONGESTION      ECT(0), ECT(1) -> CE (11)
//     UNDETERMINED    ECT(0)         -> UE = ECT(1) (01); ECT(1) stays
//     NONCONGESTION   unchanged (NO)
//
// A packet already CE stays CE in every state (never downgraded to UE);
// Not-ECT and non-IP packets are never changed.  The IPv4 header checksum
// is updated incrementally (RFC 1624); IPv6 has none; the RoCEv2 ICRC
// masks the TOS / traffic class byte, so it stays valid.  CE marks also
// count as the queue's ecn_marks, like RED's.
#ifndef RXECC_FABRIC_TCD_H
#define RXECC_FABRIC_TCD_H

#include <array>
#include <cstdint>
#include <vector>

#include "feature.h"
#include "switch_config.h"

namespace rxecc::fabric
{

enum class TcdState : uint8_t { kNonCongestion = 0, kUndetermined = 1, kCongestion = 2 };
inline constexpr int kNumTcdStates = 3;
const char *to_string(TcdState s);

// Per (port, priority) with TCD.  Every packet dequeued from the queue is
// counted in exactly one of ce, ue, no, ce_in and not_ect.
struct TcdCounters {
	uint64_t ce = 0;      // ECT packets set to CE (state CONGESTION)
	uint64_t ue = 0;      // ECT packets sent as UE (UNDETERMINED)
	uint64_t no = 0;      // ECT packets left unmarked (NONCONGESTION)
	uint64_t ce_in = 0;   // packets that arrived CE, left CE
	uint64_t not_ect = 0; // Not-ECT and non-IP packets, never marked
	// Changes of state into each state (index: TcdState).
	std::array<uint64_t, kNumTcdStates> entered{};
	// The longest ON period that a PAUSE ended, from a RESUME to the
	// next PAUSE (what max_ton must exceed under PFC modulation; the ON
	// period before the first PAUSE is not one).
	Time max_on_ns = 0;
	uint64_t on_periods = 0; // ON periods measured for max_on_ns
};

// A detector on its own, with time passed in (the unit tests drive it
// with a fake clock).
class TcdDetector
{
public:
	explicit TcdDetector(const TcdParams &p = {}) : p_(p) {}

	// The queue's priority was paused (PAUSE received) or resumed at now.
	void on_pause_change(bool paused, uint64_t queue_bytes, Time now);
	// A packet leaves with queue_bytes left behind it: the state to mark
	// it with.
	TcdState on_dequeue(uint64_t queue_bytes, Time now);

	TcdState state() const { return state_; }
	bool paused() const { return paused_; }
	Time on_since() const { return t_on_start_; }
	const TcdParams &params() const { return p_; }
	const TcdCounters &counters() const { return c_; }
	TcdCounters &counters() { return c_; }
	// Time spent in state s up to now (>= the last event's time).
	Time time_in(TcdState s, Time now) const;

private:
	void evaluate(uint64_t queue_bytes, Time now);
	void enter(TcdState s, Time now);

	TcdParams p_;
	TcdState state_ = TcdState::kNonCongestion;
	bool paused_ = false;
	Time t_on_start_ = 0;
	bool resumed_ = false; // t_on_start_ is a RESUME's
	Time since_ = 0;       // when state_ was entered
	std::array<Time, kNumTcdStates> done_ns_{};
	TcdCounters c_;
};

// What a packet became.
enum class TcdMark { kCe, kUe, kNo, kCeIn, kNotEct };

// Marks pkt for state (see above); counts nothing.
TcdMark tcd_mark(Packet &pkt, TcdState state);

// A snapshot of one queue's detector.
struct TcdStatus {
	bool enabled = false;
	TcdParams params;
	TcdState state = TcdState::kNonCongestion;
	TcdCounters counters;
	std::array<Time, kNumTcdStates> time_ns{}; // up to now
};

// The feature, built into every Switch after the RED marker; does nothing
// on the (port, priority) pairs without TcdParams::enabled.  The switch
// reports pauses through pause_change(), with the queue's bytes (the
// generic Feature::on_pause_change() does not carry them).
class TcdMarker : public Feature
{
public:
	// cfg must be valid (validate()).
	explicit TcdMarker(const SwitchConfig &cfg);

	void on_dequeue(FeatureContext &ctx) override;
	void pause_change(int port, int prio, bool paused, uint64_t queue_bytes, Time now);

	bool enabled(int port, int prio) const;
	// Whether any priority of port has TCD.
	bool any(int port) const;
	TcdStatus status(int port, int prio, Time now) const;

private:
	TcdDetector *find(int port, int prio);

	std::vector<std::array<TcdDetector, kNumPriorities>> det_;
};

} // namespace rxecc::fabric

#endif
