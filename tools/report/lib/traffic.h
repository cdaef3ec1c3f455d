// Records of the traffic generator (rxecc-traffic) and of the rxe_cc
// monitor (rxecc monitor) in a results directory, the alignment of their
// clocks with the fabric's, and the FCT slowdown. Formats and definitions:
// Documentation/rxe-cc/experiments.rst, "Traffic records" and "Metrics".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "inputs.h"
#include "stats.h"

namespace rxecc::report
{

// Columns the report needs in the generator's flows CSV (others may follow).
inline constexpr const char *kTrafficFlowColumns[] = {
	"flow",        "src",           "dst",          "verb",        "size_bytes",
	"duration_ns", "msg_bytes",     "qps",          "dscp",        "sched_start_ns",
	"start_ns",    "first_byte_ns", "last_byte_ns", "complete_ns", "bytes",
	"msgs",        "retx",          "qpns",         "status"};

struct TrafficFlow {
	std::string flow, src, dst, verb, status, host; // host: whose records
	std::optional<std::uint64_t> size_bytes, duration_ns, msg_bytes, qps, dscp;
	std::optional<std::uint64_t> sched_start_ns, start_ns, first_byte_ns, last_byte_ns,
		complete_ns, bytes, msgs, retx;
	std::vector<std::uint64_t> qpns;
};

struct TrafficBin {
	std::string flow;
	std::uint64_t start_ns = 0, bytes = 0;
};

// The generator's T0 on both clocks of the machine that ran it.
struct TrafficClock {
	bool known = true; // false: the records have no T0 (null in the JSON)
	std::uint64_t t0_monotonic_ns = 0, t0_realtime_ns = 0;
	std::uint64_t bin_ns = 1000000;
};

// The records of one host (or of all hosts, in one directory).
struct TrafficHost {
	std::string name; // "" when the records are not per host
	TrafficClock clock;
	std::vector<TrafficFlow> flows;
	std::vector<TrafficBin> bins;
};

TrafficHost parse_traffic(const std::string &name, const std::string &flows_path,
                          std::string_view flows_csv, const std::string &bins_path,
                          std::optional<std::string_view> bins_csv, const std::string &json_path,
                          std::string_view json);

// The QP counters `rxecc monitor` writes (rxecc monitor --help).
inline constexpr const char *kMonitorCounters[] = {
	"cnp_rx",   "cnp_tx",   "ce_rx",     "pacer_waits",    "pacer_unused_us",
	"rate_dec", "rate_inc", "retx_pkts", "inflight_bytes", "acked_bytes",
};

// One poll (or event) row of `rxecc monitor` for one QP.
struct MonitorRow {
	std::uint64_t time_ns = 0; // CLOCK_MONOTONIC
	std::string dev;
	std::uint64_t qpn = 0;
	std::string algo;
	std::optional<std::uint64_t> rate_bps, window_bytes;
	std::map<std::string, std::uint64_t> state;    // ALGO.NAME -> value (filled columns)
	std::map<std::string, std::uint64_t> counters; // kMonitorCounters -> value (filled)
	std::string event;                             // "" for poll rows
};

// A monitor file, read by column name: time_ns, dev, qpn, algo, rate_bps and
// window_bytes must be there; the state columns (ALGO.NAME), the counter
// columns and event are read when present, other columns are ignored.
struct MonitorFile {
	std::string host;
	std::vector<std::string> state_columns;   // ALGO.NAME in header order
	std::vector<std::string> counter_columns; // of kMonitorCounters, in header order
	std::vector<MonitorRow> rows;
};

MonitorFile parse_monitor(const std::string &host, const std::string &path, std::string_view text);

// ---- slowdown ---------------------------------------------------------------

struct WireModel {
	std::uint64_t line_rate_bps = 0;
	std::uint64_t mtu_bytes = 1024;      // payload per packet
	std::uint64_t per_packet_bytes = 82; // header_bytes + overhead
};

// Bytes a flow of SIZE payload bytes in messages of MSG bytes (0: one
// message) puts on the wire: SIZE + packets * per_packet_bytes, each
// message cut into ceil(message / mtu) packets.
std::uint64_t wire_bytes(std::uint64_t size, std::uint64_t msg, const WireModel &w);

// Ideal FCT in ns: base RTT + wire bytes at the line rate.
double ideal_fct_ns(std::uint64_t size, std::uint64_t msg, std::uint64_t base_rtt_ns,
                    const WireModel &w);

// Size buckets [lo, hi): BOUNDS are the upper bounds, ascending; the last
// bucket is open.
struct Bucket {
	std::uint64_t lo = 0;
	std::optional<std::uint64_t> hi;
	std::string label; // "0-100KB", "100KB-10MB", "10MB-inf"
};

std::vector<Bucket> make_buckets(const std::vector<std::uint64_t> &bounds);
// The 1-2-5 series of bounds from 1KB that covers MAX_SIZE (plot buckets).
std::vector<std::uint64_t> log_bounds(std::uint64_t max_size);
// "100KB", "1.5MB", "2KiB" -> bytes for --buckets (throws Error).
std::vector<std::uint64_t> parse_bucket_list(std::string_view text);
std::string size_label(std::uint64_t bytes);

struct FlowSlowdown {
	std::string flow;
	std::uint64_t size = 0;
	double fct_ns = 0, ideal_ns = 0, slowdown = 0;
};

struct BucketStats {
	Bucket bucket;
	std::optional<Distribution> dist;
	std::optional<double> median_size; // of the flows in the bucket
};

struct SlowdownReport {
	std::vector<FlowSlowdown> flows; // sized flows that completed
	std::size_t skipped = 0;         // sized flows without a completion
	std::optional<Distribution> all;
	std::vector<BucketStats> buckets, fine;
};

// FCT = complete_ns - start_ns of every flow with status ok and a size.
SlowdownReport slowdowns(const std::vector<TrafficFlow> &flows, std::uint64_t base_rtt_ns,
                         const WireModel &w, const std::vector<std::uint64_t> &bounds);

// ---- clocks -----------------------------------------------------------------

// fabric time (ns since the fabric's time 0) = generator time (ns since
// its T0) + offset_ns
struct Alignment {
	bool known = false;
	std::int64_t offset_ns = 0;
	std::int64_t estimate_ns = 0; // wall-clock estimate
	std::string method;           // "wall clock", "first data of flow F at PORT"
};

// Wall-clock estimate T0_realtime - fabric_t0, refined by the first
// telemetry interval in which the first flow's ingress port took in at
// least a packet's worth of bytes (within 2 s of the estimate).
Alignment align_clocks(const std::vector<TrafficHost> &hosts, std::uint64_t fabric_t0_ns,
                       const Ports &ports, const std::map<std::string, std::string> &host_port);

// The experiment's flows.csv (kFlowsHeader) from the generator's records:
// per flow its actual start and completion on the fabric's clock (seconds,
// through AL), its bytes, its goodput (bytes * 8 over completion - start,
// Gbit/s), its FCT (sized flows) and ok or failed; the ingress is the
// source host's port (HOST_PORT). Throws when AL is not known or a flow
// that ended ok lacks its times or its source's port.
std::string flows_csv_from_traffic(const std::vector<TrafficHost> &hosts, const Alignment &al,
                                   const std::map<std::string, std::string> &host_port);

// Base RTT from the generator's messages.csv of a probe (small messages,
// one outstanding): the nearest-rank median of complete_ns - post_ns over
// the messages that completed, in ns. Throws on a malformed file or when
// fewer than 5 messages completed.
std::uint64_t probe_rtt_ns(const std::string &path, std::string_view messages_csv);

// One row of the generator's messages.csv (traffic.rst, "Records").
struct MessageRecord {
	std::uint64_t msg = 0, bytes = 0, post_ns = 0;
	std::optional<std::uint64_t> complete_ns; // empty: it did not complete
};

// The rows of FLOW in a messages.csv, in file order; the columns flow, msg,
// bytes, post_ns and complete_ns are read by name, others are ignored.
// Throws Error (with the line) on a missing column, a row with another
// number of fields than the header, a field that is not a whole number
// (complete_ns may be empty) or a completion before its post.
std::vector<MessageRecord> parse_messages(const std::string &path, std::string_view messages_csv,
                                          const std::string &flow);

// ---- CC state per flow ----------------------------------------------------

// What a state column means for the plots.
enum class Role { kTarget, kAlpha, kFeedback };
struct StateColumn {
	const char *column; // ALGO.NAME
	Role role;
	double scale; // value * scale = plotted unit (Mbit/s, fraction, count)
	const char *label;
};
// The known columns (dcqcn today; new algorithms add theirs).
const std::vector<StateColumn> &state_columns();

struct CcPoint {
	double t_s = 0; // fabric seconds
	std::optional<double> rate_mbps, target_mbps, alpha, window_kb;
	std::map<std::string, double> feedback; // label -> cumulative count
};

// A monitor row's time (CLOCK_MONOTONIC, ns) in fabric seconds: through the
// generator's T0 on that clock and the alignment of T0 to the fabric.
double monitor_fabric_s(std::uint64_t time_ns, const TrafficClock &clock, const Alignment &al);

// The sender QPs' state of FLOW over time: poll rows of the monitor file of
// its source host whose qpn is one of the flow's, from its start to its
// completion (or the end of the records), summed over the QPs at each poll
// (alpha: mean).
std::vector<CcPoint> cc_series(const TrafficFlow &flow, const MonitorFile &mon,
                               const TrafficClock &clock, const Alignment &al);

} // namespace rxecc::report
