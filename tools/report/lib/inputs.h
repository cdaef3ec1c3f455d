// The inputs of one results directory, parsed and checked from their text
// (the caller reads the files): meta.env, flows.csv, fabric/ports.csv,
// fabric/queues.csv, fabric/summary.flat and hosts/*.counters. Every
// parser throws Error with the file (and line) on bad input.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rxecc::report
{

inline constexpr std::string_view kFlowsHeader =
	"flow,src,dst,ingress,start_s,end_s,bytes,gbps,fct_s,status";
inline constexpr std::string_view kQueuesHeader =
	"time_us,switch,port,name,prio,queue_bytes,queue_pkts,paused,tx_pkts,tx_bytes,ecn_marks,"
	"xoff_sent,xon_sent,pause_rx,paused_us,drops";
inline constexpr std::string_view kPortsHeader =
	"time_us,switch,port,name,rx_frames,rx_bytes,tx_frames,tx_bytes,tx_control_frames,"
	"mac_control_rx";

// meta.env: key=value lines, never executed.
class Meta
{
public:
	// Throws "PATH:N: not a key=value line: ..." on a line that is neither
	// blank, a comment nor key=value. Quotes around a value are removed.
	static Meta parse(const std::string &path, std::string_view text);

	// The value of KEY, "" when absent.
	std::string get(const std::string &key) const;
	bool has(const std::string &key) const { return !get(key).empty(); }
	const std::string &path() const { return path_; }

private:
	std::string path_;
	std::map<std::string, std::string> kv_;
};

// How the window is chosen when meta.env does not set it (window_mode).
enum class WindowMode {
	kActive, // the bottleneck's active period
	kAll,    // while every flow sends data
	kAny,    // from the first flow's data to the last flow's
};

// The settings of meta.env the report uses, checked.
struct Settings {
	std::string scenario, algo, label;
	std::uint64_t link_rate_bps = 0;
	std::uint64_t overhead = 24;
	std::string bottleneck; // SWITCH.PORTNAME
	unsigned data_prio = 0;
	std::optional<std::uint64_t> window_start_us, window_end_us;
	WindowMode window_mode = WindowMode::kActive;
	std::string victim;
	// The scenario's roles (long_short, incast_long, mice): the long flow,
	// the short flow, the incast's flows and the mice flow, "" / empty when
	// not set
	std::string long_flow, short_flow;
	std::vector<std::string> incast_flows;
	std::string mice_flow;
	// For FCT slowdowns (traffic records)
	std::optional<std::uint64_t> base_rtt_ns;
	std::uint64_t mtu_bytes = 1024;
	std::uint64_t header_bytes = 58;
	// fabric_t0 of the results directory: the wall-clock time of the
	// fabric's time 0, in ns since the epoch (0 if unknown)
	std::uint64_t fabric_t0_ns = 0;
};

// Checks the keys of META; throws "meta.env: KEY=VALUE: not ..." or
// "meta.env: KEY missing or empty".
Settings settings_from(const Meta &meta);

// A row of flows.csv (perftest flows).
struct Flow {
	std::string name, src, dst, ingress; // ingress SWITCH.PORTNAME, "" if unknown
	std::string start_s, end_s;          // as written ("" if unknown)
	double gbps = 0;
	std::string fct_s; // as written, "" for long-running flows
	bool ok = true;
};

std::vector<Flow> parse_flows(const std::string &path, std::string_view text);

// One sample of a port counter row of ports.csv.
struct PortSample {
	std::uint64_t t_us = 0;
	std::uint64_t rx_bytes = 0, tx_frames = 0, tx_bytes = 0;
	std::uint64_t rx_frames = 0;
	std::uint64_t tx_control_frames = 0; // PFC frames (XOFF and XON) sent
};

// One row of the data-priority queue of the bottleneck in queues.csv.
struct QueueSample {
	std::uint64_t t_us = 0;
	std::uint64_t queue_bytes = 0;
	bool paused = false;
	std::uint64_t ecn_marks = 0, paused_us = 0;
};

struct Ports {
	// "SWITCH.NAME" -> samples in time order; a repeated time replaces the
	// earlier row (the telemetry repeats a sample after a stall)
	std::map<std::string, std::vector<PortSample>> series;
	std::vector<std::uint64_t> times; // every distinct sample time
};

Ports parse_ports(const std::string &path, std::string_view text);

struct Queues {
	std::vector<QueueSample> bottleneck; // the data-priority queue of the bottleneck
	std::vector<std::uint64_t> times;    // every distinct sample time
};

// Keeps the rows of BOTTLENECK (SWITCH.PORTNAME) at priority PRIO.
Queues parse_queues(const std::string &path, std::string_view text, const std::string &bottleneck,
                    unsigned prio);

// The counters of summary.flat the report uses.
struct Flat {
	std::optional<std::uint64_t> total_drops, pfc_frames_sent, pfc_frames_rx;
	std::uint64_t ecn_total = 0; // sum of every *.ecn_marks
	// "SWITCH.PORT.qPRIO" -> its max_queue_bytes: the queue's peak over
	// the whole run, exact (not sampled)
	std::map<std::string, std::uint64_t> max_queue_bytes;
	// The fabric's SFC totals (sfc.NAME lines; NAME without the prefix),
	// in file order; empty when no switch ran SFC
	std::vector<std::pair<std::string, std::uint64_t>> sfc;
};

Flat parse_flat(const std::string &path, std::string_view text);

// hosts/*.counters summed by name, in the order names first appear.
struct HostCounters {
	std::size_t files = 0;
	std::vector<std::pair<std::string, std::uint64_t>> sums;

	void add(const std::string &path, std::string_view text);
};

// fabric_t0: decimal seconds of the wall clock ("1764000000.123456"); ns.
std::uint64_t parse_fabric_t0(const std::string &path, std::string_view text);

} // namespace rxecc::report
