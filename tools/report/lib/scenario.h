// The metrics of particular scenarios (Documentation/rxe-cc/experiments.rst,
// "Metrics"): the long flow's rate recovery after a short flow (long_short),
// the queue's peak and drain after an incast into a long flow
// (incast_long), the mice flow's message latency beside two elephants
// (mice) and Jain's index per step of the fairness staircase. Pure
// functions over the parsed inputs; analyse() calls analyse_scenario().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "inputs.h"
#include "stats.h"
#include "traffic.h"

namespace rxecc::report
{

// Their definitions' constants (Options carries them to the analysis).
struct ScenarioOptions {
	double recovery_fraction = 0.95; // of the line rate
	double rate_avg_us = 20000;      // the long flow's plotted rate: mean over this, centred
	double hold_us = 50000;          // recovered: the mean over this long at the threshold
	double settle_us = 100000;     // fairness and victim_b steps: left out at each step's start
	double pre_burst_us = 1000000; // incast_long: the queue's level before the burst
	double mice_warmup_us = 1000000;    // mice: left out after the flow's first message
	std::size_t mice_min_messages = 10; // mice: fewer counted messages are an error
};

// A (time in us, value) series.
using Series = std::vector<std::pair<double, double>>;

// The wire rate (Mbit/s) of the frames a port received, at every sample
// time T of S: (rx_bytes + rx_frames * OVERHEAD) * 8 between the first
// sample at or after T - AVG_US / 2 and the last at or before T + AVG_US / 2,
// over the time between them. Samples whose window holds fewer than two
// samples are left out.
Series centred_rate(const std::vector<PortSample> &s, double avg_us, std::uint64_t overhead);

// When a port's rx_bytes grew by at least MIN_BYTES in one sampling
// interval (t(k-1), t(k)] with t(k) in [FROM_US, TO_US]: the start of the
// first such interval and the end of the last; nullopt if none.
std::optional<std::pair<double, double>> data_span(const std::vector<PortSample> &s, double from_us,
                                                   double to_us, std::uint64_t min_bytes);

// At every sample time T of S in [FROM_US, UNTIL_US - HOLD_US]: the port's
// mean received wire rate (Mbit/s of rx_bytes + rx_frames * OVERHEAD) from T
// to the last sample at or before T + HOLD_US.
Series forward_means(const std::vector<PortSample> &s, double from_us, double until_us,
                     double hold_us, std::uint64_t overhead);

// The first point of SERIES at or above THRESHOLD (its time); nullopt if none.
std::optional<double> first_at_least(const Series &series, double threshold);

// The queue after a burst: its peak in [FROM_US, TO_US] (the first sample of
// the largest value) and the first sample after the peak at or below
// THRESHOLD (nullopt: not drained by the end of Q).
struct Drain {
	double peak_t_us = 0, peak_bytes = 0;
	std::optional<double> drained_t_us;
};
std::optional<Drain> queue_drain(const Series &q, double from_us, double to_us, double threshold);

// One step of a staircase: an interval in which the set of active flows
// does not change. FLOWS: (name, start_us, end_us).
struct Step {
	double t0_us = 0, t1_us = 0;
	std::vector<std::string> flows; // active, in the order of FLOWS
};
std::vector<Step> flow_steps(const std::vector<std::tuple<std::string, double, double>> &flows);

// The latency of a mice flow's messages (mice): complete_ns - post_ns of
// every message that completed and was posted at least WARMUP_US after the
// flow's first message.
struct MiceLatency {
	std::string flow;
	std::uint64_t msg_bytes = 0; // its first message's size
	std::size_t messages = 0;    // counted
	std::size_t warmup = 0;      // left out: posted in the warm-up
	std::size_t incomplete = 0;  // left out: posted after it, never completed
	double warmup_us = 0;
	Distribution us;                               // of the counted latencies, in us
	std::vector<std::pair<double, double>> points; // (s since the first post, latency us)
	std::optional<double> base_rtt_us;             // the run's base RTT, for the plots
};

// MSGS: the flow's rows of messages.csv (PATH, for errors). Throws Error
// naming PATH and FLOW when MSGS is empty or fewer than MIN_MESSAGES count.
MiceLatency mice_latency(const std::string &path, const std::string &flow,
                         const std::vector<MessageRecord> &msgs, double warmup_us,
                         std::size_t min_messages);

// ---- the analysis -----------------------------------------------------------

// A plot of one scenario's event: the value against the time since the
// event (s); threshold and mark are drawn as lines.
struct FocusPlot {
	std::string kind;                      // "recovery" (long_short), "drain" (incast_long)
	std::string ylabel, event;             // axis label; what happens at 0
	std::vector<std::string> columns;      // names of the values
	std::vector<std::vector<double>> rows; // t_s, value per column (nan: none)
	double threshold = 0;                  // in the values' unit
	std::optional<double> mark_s;          // recovered / drained at
	double x0_s = 0, x1_s = 0;             // the interval worth plotting
};

struct RunInputs;
struct Analysis;
struct Options;

// Where each flow of IN.flows (same order) is measured on its own: the
// receiver's port (its tx) for a flow that shares its ingress with other
// flows but is the only one to its receiver's port, which has samples;
// else its ingress (rx), "" if it has none.
struct FlowPort {
	std::string port;
	bool tx = false;
};
std::vector<FlowPort> flow_ports(const RunInputs &in);

// mice: the latency of meta.env's mice_flow from IN.mice_messages (summary
// keys mice_*; throws Error when they cannot give one).
// victim_b: every flow's rate (Mbit/s of payload bytes at its flow_ports
// port) in every step of flows.csv's starts and ends, the first SETTLE_US
// of each step left out: summary keys step.K.start_s, step.K.end_s and
// step.K.FLOW.rate_mbps (n/a for a step too short to measure).
void analyse_scenario(const RunInputs &in, const Options &opt, Analysis &A);

} // namespace rxecc::report
