// Figures from the event rows of `rxecc monitor -e`, which carry each QP's
// rate and state as it changes:
// - ACC's source halts against the bottleneck's backlog (specs/acc.md
//   §5.3: "actual halt time ≈ ideal halt = bottleneck queue / link
//   bandwidth"), from the events named "halt" (state acc.halts and
//   acc.halt_ns) and the fabric's queue telemetry of the bottleneck;
// - how long the senders' aggregate computed rate takes to come down to
//   the link rate once the first of them cut its rate (§5.2, Fig. 9).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "inputs.h"
#include "traffic.h"

namespace rxecc::report
{

struct Halt {
	std::string host;
	std::uint64_t qpn = 0;
	std::uint64_t index = 0;                  // acc.halts: the QP's halt count with this one
	double t_s = 0;                           // its start: its first event, fabric seconds
	std::uint64_t length_ns = 0;              // acc.halt_ns at its last row: with the extension
	std::optional<std::uint64_t> queue_bytes; // the bottleneck's backlog at t_s
};

// The halts of the ACC QPs of MON, in time order: a halt begins at an
// event row naming "halt" whose acc.halts exceeds the QP's count before;
// its length is acc.halt_ns in the last row (event or poll) with that
// count. Times go onto the fabric's clock as cc_series() does. Empty
// without event rows or with an unknown clock.
std::vector<Halt> acc_halts(const MonitorFile &mon, const TrafficClock &clock, const Alignment &al);

// Each halt's backlog: the last queue sample at or before its start (none
// if it started before the first sample or more than one sample interval
// after the last).
void attach_backlog(std::vector<Halt> &halts, const std::vector<QueueSample> &queue);

struct HaltFigures {
	std::size_t halts = 0;  // with a backlog sample
	std::size_t empty = 0;  // of those, with an empty queue at the start
	std::size_t ratios = 0; // with a backlog: length / (backlog / C)
	double length_ms_p50 = 0, ideal_ms_p50 = 0;
	double ratio_p10 = 0, ratio_p50 = 0, ratio_p90 = 0;
	double within_25_pct = 0; // of the ratios, share within [0.75, 1.25]
};

// The figures of HALTS at a link of LINK_BPS (> 0): ideal = backlog * 8 /
// link; nullopt if no halt has a backlog sample.
std::optional<HaltFigures> halt_figures(const std::vector<Halt> &halts, std::uint64_t link_bps);

// The first halt of each QP against the first backlog peak: IDEAL_MS is
// the largest queue sample up to the end of the last of those halts over
// the link rate; the ratios are each first halt's length (extension
// included) over it. nullopt without halts or backlog samples.
struct FirstHalts {
	std::size_t qps = 0;
	double peak_kb = 0, ideal_ms = 0;
	double ratio_min = 0, ratio_p50 = 0, ratio_max = 0, ratio_mean = 0;
};
std::optional<FirstHalts> first_halts(const std::vector<Halt> &halts,
                                      const std::vector<QueueSample> &queue,
                                      std::uint64_t link_bps);

// A QP's computed rate over time, fabric seconds (its monitor rows).
struct RateStep {
	double t_s = 0;
	std::string qp; // HOST/DEV/QPN
	std::uint64_t rate_bps = 0;
	bool cut = false; // the row's event names rate_dec
};

// The rows of MON with a rate, placed on the fabric's clock; QPs running
// "none" (no rate) are left out.
std::vector<RateStep> rate_steps(const MonitorFile &mon, const TrafficClock &clock,
                                 const Alignment &al);

// From the first cut of any QP (DETECT_S), the time until the sum of every
// QP's latest rate is first at most (1 + SLACK) x LINK_BPS (SETTLE_S) and
// the sum then. A QP counts from its first row, a rate of 0 (unpaced) as
// the link rate. nullopt without a cut or
// if the sum never comes down.
struct RateSettle {
	double detect_s = 0, settle_s = 0, sum_bps = 0;
	double ms() const { return (settle_s - detect_s) * 1e3; }
};
std::optional<RateSettle> rate_settle(std::vector<RateStep> steps, std::uint64_t link_bps,
                                      double slack);

} // namespace rxecc::report
