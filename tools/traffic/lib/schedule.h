// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The schedule of rxecc-traffic: one line per flow (name, source and
// destination host, start time, size or duration, verb, message size, QPs,
// DSCP, ...). The format is in Documentation/rxe-cc/traffic.rst.
#ifndef RXECC_TRAFFIC_SCHEDULE_H
#define RXECC_TRAFFIC_SCHEDULE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rxecc::traffic
{

enum class Verb { kWrite, kSend, kRead };

const char *verb_name(Verb v);
std::optional<Verb> parse_verb(std::string_view s);

// Settings of a flow that a "defaults" line (or the command line) can set
// for the flow lines after it.
struct FlowOptions {
	Verb verb = Verb::kWrite;
	std::uint64_t msg_bytes = 65536;
	unsigned qps = 1;
	unsigned dscp = 26;
	unsigned depth = 128;
	unsigned ack_timeout = 18; // IB local ACK timeout exponent: 4.096 us << n
	// The flow's QPs paced at this rate (the rxe_cc algorithm "fixed" set
	// on each of them before T0); none: the device's algorithm. WRITE and
	// SEND only.
	std::optional<std::uint64_t> rate_bps;
};

// Limits of the values above (and of the flow line's own fields).
constexpr std::uint64_t kMaxMsgBytes = 1ULL << 30;
constexpr unsigned kMaxQps = 64;
constexpr unsigned kMaxDepth = 4096;
constexpr unsigned kMaxAckTimeout = 31;
constexpr unsigned kMaxDscp = 63;
constexpr std::size_t kMaxNameLen = 64;
// rate=: 1 kbit/s (fixed's smallest rate_kbps) to 2^31 kbit/s (its largest),
// whole kbit/s
constexpr std::uint64_t kMinRateBps = 1000;
constexpr std::uint64_t kMaxRateBps = (1ULL << 31) * 1000;

struct FlowSpec {
	std::string name;
	std::string src; // the host whose data moves (for READ: the responder)
	std::string dst; // the host the data moves to
	std::uint64_t start_ns = 0;
	// Exactly one of these is set.
	std::optional<std::uint64_t> size_bytes;
	std::optional<std::uint64_t> duration_ns;
	FlowOptions opt;
	int line = 0; // line of the schedule file, 0 if not from a file

	// The host that posts the work requests and sees the completions: src
	// for WRITE and SEND, dst for READ. It connects (rdma_cm active side);
	// the other host accepts.
	const std::string &driver() const { return opt.verb == Verb::kRead ? dst : src; }
	const std::string &passive() const { return opt.verb == Verb::kRead ? src : dst; }
	// Messages of a sized flow (the last one may be shorter); 0 for a
	// flow with a duration.
	std::uint64_t messages() const;
	// Bytes of message `index` (0-based) of a sized flow; msg_bytes for a
	// flow with a duration.
	std::uint64_t message_bytes(std::uint64_t index) const;
};

struct Schedule {
	std::vector<FlowSpec> flows;
	// Comment lines ("# ...") to write at the head of the file.
	std::vector<std::string> header;

	const FlowSpec *find(std::string_view name) const;
	// Every host named by a flow, in order of first appearance.
	std::vector<std::string> hosts() const;
};

// Parses a schedule file's text. `source` names it in error messages
// ("SOURCE:LINE: ..."). `base` holds the settings of flows before any
// "defaults" line. On error returns nullopt and sets *err.
std::optional<Schedule> parse_schedule(std::string_view text, const std::string &source,
                                       std::string *err, const FlowOptions &base = {});

// One flow as a schedule line with every setting explicit.
std::string format_flow(const FlowSpec &f);
// A schedule file: the header comments, then one line per flow. Parsing it
// gives the same flows.
std::string format_schedule(const Schedule &s);

// A hash of the flows (of format_schedule without the header), so that
// hosts started apart can check that they run the same schedule.
std::uint64_t schedule_hash(const Schedule &s);

// Host and flow names: letters, digits, '_', '-', '.', at most kMaxNameLen.
bool valid_name(std::string_view s);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_SCHEDULE_H
