// The analysis of one results directory: window, rates, fairness, queue,
// counters (the summary), the plot series, and the figures of the traffic
// generator's and the monitor's records when the directory has them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "inputs.h"
#include "scenario.h"
#include "traffic.h"

namespace rxecc::report
{

// Everything read from one results directory.
struct RunInputs {
	std::string results; // the directory as named, without a trailing '/'
	std::string meta_path, flows_path, ports_path, queues_path, flat_path;
	Settings set;
	std::vector<Flow> flows;
	Ports ports;
	Queues queues;
	Flat flat;
	HostCounters hosts;
	std::map<std::string, std::string> host_port; // host -> SWITCH.PORTNAME
	std::vector<TrafficHost> traffic;             // empty without generator records
	std::vector<MonitorFile> monitors;            // hosts/NAME.monitor.csv
	// mice: the mice flow's rows of the generator's messages.csv and its
	// path ("" when not read)
	std::string messages_path;
	std::vector<MessageRecord> mice_messages;
};

struct Options {
	double bin_us = 10000;                                   // rate plot bins
	std::vector<std::uint64_t> buckets = {100000, 10000000}; // slowdown buckets
	std::optional<std::uint64_t> base_rtt_ns;                // overrides meta.env
	std::size_t flow_panels = 8;                             // flows with CC state panels
	ScenarioOptions scenario; // recovery, drain, mice latency, Jain per step
};

// ---- pieces (tested one by one) --------------------------------------------

// First and last sample index of SERIES in [ws, we]; throws "PORTS: port
// KEY: fewer than two samples in the window WS..WE us" unless two.
std::pair<std::size_t, std::size_t> window_of(const std::vector<PortSample> &series, double ws,
                                              double we, const std::string &ports_path,
                                              const std::string &key);

// Mean rate in Mbit/s of a counter between two samples; throws when the
// counter goes backwards.
double rate_mbps(const std::vector<PortSample> &s, std::size_t i0, std::size_t i1,
                 std::uint64_t PortSample::*counter, const std::string &ports_path,
                 const std::string &key);

// First and last sample time at which tx_bytes grew (nullopt if fewer
// than two such samples... i.e. no period).
std::optional<std::pair<std::uint64_t, std::uint64_t>>
active_period(const std::vector<PortSample> &s);

// When a flow's data crossed its ingress port: from the first sample at
// which 2% of the bytes the port received while the flow ran (from START_US
// to END_US + 100 ms) had arrived to the first at which 98% had. nullopt
// with fewer than two samples or no growth.
std::optional<std::pair<std::uint64_t, std::uint64_t>> data_period(const std::vector<PortSample> &s,
                                                                   double start_us, double end_us);

// The window of several data periods: their intersection (all) or their
// span (any); nullopt when empty.
std::optional<std::pair<std::uint64_t, std::uint64_t>>
combine_periods(const std::vector<std::pair<std::uint64_t, std::uint64_t>> &periods, bool all);

// Rate bins of one cumulative counter series: each sampling interval's
// bytes are shared between the bins it covers in proportion to time.
struct RateBins {
	double bin_us = 0;
	long first = 0; // index of the first bin
	std::vector<double> bytes, covered_us;
	// Mbit/s of bin I (0 when nothing covers it)
	double mbps(std::size_t i) const
	{
		return covered_us[i] > 0 ? bytes[i] * 8 / covered_us[i] : 0;
	}
};

void spread(RateBins &b, double ta, double tb, double d);

// ---- the analysis ---------------------------------------------------------

struct FlowData {
	std::string flow;
	std::optional<std::pair<std::uint64_t, std::uint64_t>> period; // data period, us
};

struct QueuePoint {
	std::uint64_t t_us = 0, bytes = 0;
	bool paused = false;
};

struct FlowRateSeries { // generator bins of one flow, fabric time
	std::string flow;
	double bin_s = 0;                              // width of its bins
	std::vector<std::pair<double, double>> points; // (s, Mbit/s)
	std::vector<CcPoint> cc;
};

struct Analysis {
	std::uint64_t w0 = 0, w1 = 0; // the window, us
	std::string how;
	std::vector<std::pair<std::string, std::string>> summary; // summary.csv
	std::string text;                                         // summary.txt
	std::vector<FlowData> data_periods;

	// plots
	std::vector<std::string>
		rate_columns;                // bottleneck, then each ingress (flows joined by '+')
	std::vector<RateBins> rate_bins;     // one per column, same bins
	std::vector<QueuePoint> queue;       // every sample time
	std::vector<double> queue_window_kb; // the samples of the window (CDF)

	std::optional<Alignment> align;
	std::optional<SlowdownReport> slowdown;
	std::string slowdown_note; // why there is none
	std::vector<FlowRateSeries> flow_rates;
	std::optional<FocusPlot> focus;  // the scenario's event (long_short, incast_long)
	std::optional<MiceLatency> mice; // the mice flow's latencies (mice)
};

// The SFC totals every summary has (sfc.NAME, 0 without SFC), in order;
// summary.flat's sfc.* lines (Documentation/rxe-cc/fabric.rst, "SFC").
inline constexpr const char *kSfcSummaryNames[] = {"bts_generated",
                                                   "bts_generated_queue",
                                                   "bts_generated_cache",
                                                   "bts_suppressed",
                                                   "bts_zero",
                                                   "bts_zero_dropped",
                                                   "bts_seen",
                                                   "bts_invalid",
                                                   "cache_updates",
                                                   "cache_hits",
                                                   "cache_collisions",
                                                   "cache_entries",
                                                   "cache_entries_max",
                                                   "bloom_bits_max",
                                                   "sfcp_frames"};

// Checks the inputs against each other and computes everything. Throws
// Error for inconsistent inputs (unknown ports, victim, empty window...).
Analysis analyse(const RunInputs &in, const Options &opt);

// The rate of FLOW from the generator's BINS (each BIN_NS wide), summed
// into bins of WIDTH_NS rounded to a whole number of BIN_NS (at least one):
// (mid-point in s of fabric time = generator time + OFFSET_NS, Mbit/s),
// in time order. Messages of 64 KB at 100 Mbit/s take 5 ms: 1 ms bins show
// them as spikes, not as a rate.
std::vector<std::pair<double, double>>
flow_rate_points(const std::vector<TrafficBin> &bins, const std::string &flow, std::uint64_t bin_ns,
                 std::uint64_t width_ns, std::int64_t offset_ns);

// The width of the bins a flow's rate is plotted in: WIDTH_NS, or four of
// its messages' mean interval if that is longer (the generator counts a
// message's bytes when it completes: bins holding one message or none show
// spikes, not a rate). 0 messages or no times: WIDTH_NS.
std::uint64_t flow_plot_bin_ns(const TrafficFlow &f, std::uint64_t width_ns);

// The goodput (Mbit/s) of F in the second half of its data: the bytes of
// its BINS (each BIN_NS wide) that start at or after the first bin start
// at or after the middle of [first_byte_ns, last_byte_ns], over the time
// from that bin's start to the end of the last bin with bytes. A flow's
// start (every flow at the line rate, PCN's first cuts) then leaves it out.
// nullopt without both byte times or with fewer than two such bins.
std::optional<double> second_half_mbps(const TrafficFlow &f, const std::vector<TrafficBin> &bins,
                                       std::uint64_t bin_ns);

// Data periods of the flows of IN and the window they give in MODE (the
// "window" subcommand and the default window).
std::vector<FlowData> flow_data_periods(const RunInputs &in);

} // namespace rxecc::report
