// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// NP-ECN, the switch side (CP) of PCN (specs/pcn.md §2.2, §3.3, §4.3, §7
// items 6, 8, 14; specs/wire.md §7.4 (d), (h)).  ECN marking with
// threshold K (default 0), except that the packets a PFC PAUSE from
// downstream held in the queue leave unmarked: a really congested port
// (link busy, backlog) marks every ECT packet, a non-congested one none,
// and a port that is only paused ("quasi-congested") does not mark the
// packets the pause held.
//
// State per egress queue (port, priority) with npecn:
//
//     PAUSE received for the queue's priority:  paused = true (PN kept)
//     RESUME (XON, or the pause time running out):
//                                               paused = false
//                                               PN = packets in the queue
//     packet dequeued, q = bytes left in the queue behind it:
//         if PN > 0:   PN -= 1, never marked
//         else if q > K and the packet is ECT:  CE
//
// PN counts packets of every kind (specs/pcn.md: "N packets"), so a
// Not-ECT packet held by the pause also uses up one.  A pause refreshed
// while in force is no new PAUSE, and a PAUSE while PN > 0 keeps PN: the
// next RESUME overwrites it with the queue length then, which includes
// the packets still unsent.
//
// Marks, at dequeue, ECT packets only (wire.md §7.4 (h)): ECT(0) and
// ECT(1) become CE; a CE packet stays CE; Not-ECT and non-IP packets are
// never changed.  The IPv4 header checksum is updated incrementally (RFC
// 1624); IPv6 has none; the RoCEv2 ICRC masks the TOS / traffic class
// byte, so it stays valid.  CE marks also count as the queue's ecn_marks,
// like RED's and TCD's.
#ifndef RXECC_FABRIC_NPECN_H
#define RXECC_FABRIC_NPECN_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "feature.h"
#include "switch_config.h"

namespace rxecc::fabric
{

// Per (port, priority) with NP-ECN.  Every packet dequeued from the queue
// is counted in exactly one of marked, paused_exempt, unmarked, ce_in and
// not_ect.
struct NpEcnCounters {
	uint64_t marked = 0;        // ECT packets set to CE (PN 0, q > K)
	uint64_t paused_exempt = 0; // ECT packets left unmarked as PN > 0
	uint64_t unmarked = 0;      // ECT packets left unmarked: PN 0, q <= K
	uint64_t ce_in = 0;         // packets that arrived CE, left CE
	uint64_t not_ect = 0;       // Not-ECT and non-IP packets, never marked
	uint64_t pauses = 0;        // PAUSEs (the queue's priority paused)
	uint64_t resumes = 0;       // RESUMEs: XON or pause expiry; each sets PN
};

// What the rule says of a dequeued packet, whatever its ECN.
enum class NpEcnVerdict {
	kPaused, // PN was > 0: never mark (PN was decremented)
	kMark,   // PN 0 and more than K bytes behind: CE if ECT
	kClear,  // PN 0 and at most K bytes behind: leave it
};

// The state of one queue on its own, driven by calls (the unit tests drive
// it without a switch).
class NpEcnQueue
{
public:
	explicit NpEcnQueue(const NpEcnParams &p = {}) : p_(p) {}

	// The queue's priority was paused (PAUSE received) or resumed, with
	// queue_packets packets waiting in the queue.  A call that does not
	// change paused() changes nothing.
	void on_pause_change(bool paused, size_t queue_packets);
	// A packet leaves with queue_bytes left behind it.
	NpEcnVerdict on_dequeue(uint64_t queue_bytes);

	bool paused() const { return paused_; }
	uint64_t pn() const { return pn_; }
	const NpEcnParams &params() const { return p_; }
	const NpEcnCounters &counters() const { return c_; }
	NpEcnCounters &counters() { return c_; }

private:
	NpEcnParams p_;
	bool paused_ = false;
	uint64_t pn_ = 0;
	NpEcnCounters c_;
};

// What a packet became.
enum class NpEcnMark { kMarked, kPausedExempt, kUnmarked, kCeIn, kNotEct };

// Marks pkt as v says (see above); counts nothing.
NpEcnMark npecn_mark(Packet &pkt, NpEcnVerdict v);

// A snapshot of one queue's NP-ECN state.
struct NpEcnStatus {
	bool enabled = false;
	NpEcnParams params;
	bool paused = false;
	uint64_t pn = 0;
	NpEcnCounters counters;
};

// The feature, built into every Switch after the TCD marker; does nothing
// on the (port, priority) pairs without NpEcnParams::enabled.  The switch
// reports pauses through pause_change(), with the queue's packets (the
// generic Feature::on_pause_change() does not carry them).
class NpEcnMarker : public Feature
{
public:
	// cfg must be valid (validate()).
	explicit NpEcnMarker(const SwitchConfig &cfg);

	void on_dequeue(FeatureContext &ctx) override;
	void pause_change(int port, int prio, bool paused, size_t queue_packets);

	bool enabled(int port, int prio) const;
	// Whether any priority of port has NP-ECN.
	bool any(int port) const;
	NpEcnStatus status(int port, int prio) const;

private:
	NpEcnQueue *find(int port, int prio);

	std::vector<std::array<NpEcnQueue, kNumPriorities>> q_;
};

} // namespace rxecc::fabric

#endif
