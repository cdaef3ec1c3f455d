// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RED-style ECN marking on the instantaneous egress queue (the DCQCN
// congestion point), exactly as specs/dcqcn.md §2.2 and the integer rule of
// §4.2:
//
//     p_q16 = q <= Kmin ? 0
//           : q >  Kmax ? 65536
//           : Pmax_q16 * (q - Kmin) / (Kmax - Kmin)      (floored)
//     mark iff rnd16() < p_q16,  rnd16() uniform in 0..65535
//
// q is the queue's bytes after removing the packet (mark point "dequeue",
// the default) or ahead of it (mark point "enqueue").  Only ECT(0)/ECT(1)
// packets are marked (to CE, IPv4 checksum fixed); Not-ECT and CE packets
// pass unchanged.  The random source is drawn only when 0 < p_q16 < 65536,
// so a run's draws depend only on the packets that fall between Kmin and
// Kmax.
#ifndef RXECC_FABRIC_RED_H
#define RXECC_FABRIC_RED_H

#include <array>
#include <cstdint>
#include <vector>

#include "feature.h"
#include "switch_config.h"

namespace rxecc::fabric
{

uint32_t red_probability_q16(uint64_t queue_bytes, const RedParams &p);

// The marker as a pipeline feature, configured per (port, priority).
class RedMarker : public Feature
{
public:
	explicit RedMarker(const SwitchConfig &cfg);

	void on_enqueue(FeatureContext &ctx) override;
	void on_dequeue(FeatureContext &ctx) override;

private:
	void maybe_mark(FeatureContext &ctx, MarkPoint point);

	std::vector<std::array<RedParams, kNumPriorities>> params_;
};

} // namespace rxecc::fabric

#endif
