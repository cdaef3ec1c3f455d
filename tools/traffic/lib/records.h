// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The records rxecc-traffic writes: per host (DIR/HOST/) the flows it
// drove, what it received, bins and messages, and host.json; merged (DIR/)
// flows.csv, bins.csv, messages.csv and summary.json. Columns are defined
// in Documentation/rxe-cc/traffic.rst.
#ifndef RXECC_TRAFFIC_RECORDS_H
#define RXECC_TRAFFIC_RECORDS_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "progress.h"
#include "schedule.h"

namespace rxecc::traffic
{

extern const char kFlowsHeader[];
extern const char kRxHeader[];
extern const char kBinsHeader[];
extern const char kMessagesHeader[];

// One row of flows.csv (no newline).
std::string flow_row(const FlowSpec &f, const FlowRecord &r);
std::string rx_row(const std::string &flow, const RxRecord &r);
// Rows of bins.csv / messages.csv for one flow (each with a newline).
std::string bins_rows(const std::string &flow, const Bins &b);
std::string messages_rows(const std::string &flow, const std::vector<MessageRecord> &m);

// What one host writes into DIR/HOST/.
struct HostOutput {
	std::string host;
	std::vector<std::pair<const FlowSpec *, FlowProgress *>> driven;
	std::vector<std::pair<std::string, RxRecord>> received; // SEND flows
	nlohmann::json meta;                                    // host.json
};
bool write_host_output(const std::string &dir, const HostOutput &out, std::string *err);

// Start errors (start_ns - sched_start_ns) of the flows that started.
struct StartErrors {
	std::size_t count = 0;
	std::int64_t p50 = 0, p99 = 0, max = 0;
};
StartErrors start_errors(const std::vector<std::int64_t> &errors_ns);

// Merges DIR/HOST/ of every host of the schedule into DIR/flows.csv,
// DIR/bins.csv, DIR/messages.csv and DIR/summary.json. Every input file is
// checked first (header, fields, flows of the schedule driven by that
// host); on error nothing is written and *err names the file and line. A
// host without records leaves its flows with status "no_record".
struct MergeResult {
	std::size_t flows = 0, ok = 0;
	StartErrors start;
	std::map<std::string, std::string> failed; // flow -> status
};
bool merge_records(const std::string &dir, const Schedule &s, MergeResult &res, std::string *err);

// Reads a flows.csv: a host's (`driver` = that host; a missing file is
// empty) or the merged one (`driver` empty; the file must exist). Checks
// every row against the schedule; *err names the file and line.
bool read_flows_table(const std::string &path, const Schedule &s, const std::string &driver,
                      std::map<std::string, FlowRecord> &out, std::string *err);

// What the flows that ended ok put on the wire, per (src, dst, dscp):
// `data`, the data-bearing frames (WRITE and SEND packets, READ
// responses), from src to dst; `cm`, the connection management MADs of
// their QPs in that direction (REQ, RTU and DREQ from the host that
// connects, REP and DREP from the other; rdma_cm sends them with the QP's
// traffic class). ACKs and READ requests are not counted. Flows that did not
// end ok are listed in *skipped (their last messages may be partial).
struct WireKey {
	std::string src, dst;
	unsigned dscp = 0;
	bool operator<(const WireKey &o) const
	{
		return std::tie(src, dst, dscp) < std::tie(o.src, o.dst, o.dscp);
	}
};
struct WireTotals {
	WireCount data, cm;
};
// A connection management MAD on the wire: Ethernet, IPv4, UDP, BTH, DETH,
// the 256-byte MAD, ICRC.
constexpr std::uint64_t kCmFrameBytes = 14 + 20 + 8 + 12 + 8 + 256 + 4;
std::map<WireKey, WireTotals> wire_counts(const Schedule &s,
                                          const std::map<std::string, FlowRecord> &recs,
                                          std::uint64_t mtu, std::vector<std::string> *skipped);

// Compares what a fabric queue carried (frames, bytes) from src to dst on
// the flows' DSCP with what the records account for. It matches when
// nothing is missing and every extra frame is a connection management MAD:
// the CM repeats a MAD whose answer is late (a stalled host), while a
// retransmitted or stray data frame has another size.
struct WireCompare {
	bool match = false;
	std::uint64_t repeated_cm = 0; // extra CM frames
	std::string message;
};
WireCompare compare_wire(const WireTotals &want, std::uint64_t frames, std::uint64_t bytes);

// The summary line launch and merge print.
std::string summary_line(const MergeResult &r);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_RECORDS_H
