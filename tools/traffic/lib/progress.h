// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What a flow's driver (the host that posts its work requests) has posted
// and seen completed: the next message to post on a QP, completions, the
// flow's record, its throughput bins and its per-message log. No verbs:
// the engine calls it with times, the tests drive it directly.
#ifndef RXECC_TRAFFIC_PROGRESS_H
#define RXECC_TRAFFIC_PROGRESS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schedule.h"

namespace rxecc::traffic
{

// Times are ns since the schedule's T0 (CLOCK_MONOTONIC). An unknown value
// is nullopt (an empty CSV field).
struct FlowRecord {
	std::optional<std::int64_t> start_ns;
	std::optional<std::int64_t> first_byte_ns;
	std::optional<std::int64_t> last_byte_ns;
	std::optional<std::int64_t> complete_ns;
	std::optional<std::uint64_t> bytes;
	std::optional<std::uint64_t> msgs;
	std::optional<std::uint64_t> retx;
	std::vector<std::uint32_t> qpns;     // QPs at src
	std::vector<std::uint32_t> dst_qpns; // QPs at dst
	std::string status;                  // "ok" or the failure
};

// What the receiving host of a SEND flow saw: its receive completions.
struct RxRecord {
	std::optional<std::int64_t> first_byte_ns;
	std::optional<std::int64_t> last_byte_ns;
	std::uint64_t bytes = 0;
	std::uint64_t msgs = 0;
	std::string status;
};

struct MessageRecord {
	std::uint64_t bytes = 0;
	std::int64_t post_ns = 0;
	std::optional<std::int64_t> complete_ns;
	unsigned qp = 0;
};

// Bytes completed per bin of bin_ns: bin k covers [k * bin_ns, (k+1) * bin_ns)
// of T0-relative time.
class Bins
{
public:
	explicit Bins(std::uint64_t bin_ns) : bin_ns_(bin_ns) {}
	void add(std::int64_t t_ns, std::uint64_t bytes);
	// Makes the bins cover [from_ns, to_ns] (zeros where nothing completed).
	void cover(std::int64_t from_ns, std::int64_t to_ns);
	std::uint64_t bin_ns() const { return bin_ns_; }
	bool empty() const { return bytes_.empty(); }
	std::int64_t first_bin() const { return first_; }
	const std::vector<std::uint64_t> &bytes() const { return bytes_; }
	std::uint64_t total() const;

private:
	std::int64_t index(std::int64_t t_ns) const;
	void extend(std::int64_t k);
	std::uint64_t bin_ns_;
	std::int64_t first_ = 0;
	std::vector<std::uint64_t> bytes_;
};

class FlowProgress
{
public:
	struct Posted {
		std::uint64_t msg;
		std::uint64_t bytes;
	};

	FlowProgress(const FlowSpec &f, std::uint64_t bin_ns, bool log_messages);

	const FlowSpec &spec() const { return f_; }
	bool started() const { return rec_.start_ns.has_value(); }
	void start(std::int64_t now);
	// The next message to post on QP `qp` at `now`, or nullopt if the flow
	// posts nothing more (a sized flow posted every message; a flow with a
	// duration reached start + duration; or stop_posting() was called).
	std::optional<Posted> post(unsigned qp, std::int64_t now);
	// Message `msg`, posted on QP `qp`, completed successfully at `now`.
	void complete(std::uint64_t msg, unsigned qp, std::int64_t now);
	// Message `msg` on QP `qp` completed with an error (or was flushed): it
	// is no longer outstanding, and moved nothing.
	void fail_completion(std::uint64_t msg, unsigned qp);
	// No more posts (an error, the deadline).
	void stop_posting() { stopped_ = true; }

	std::uint64_t outstanding() const { return posted_ - done_ - done_failed_; }
	std::uint64_t outstanding(unsigned qp) const;
	// Nothing more to post at `now` and nothing outstanding.
	bool finished(std::int64_t now) const;
	bool posting_over(std::int64_t now) const;

	FlowRecord &record() { return rec_; }
	const FlowRecord &record() const { return rec_; }
	const Bins &bins() const { return bins_; }
	const std::vector<MessageRecord> &messages() const { return log_; }
	bool logs_messages() const { return log_messages_; }

	// Ends the record: first_byte_ns and last_byte_ns are the first and
	// last completion (left unknown for SEND, whose receiver sees them),
	// complete_ns the last completion if status is "ok"; the bins cover
	// the start to the last completion.
	void finish(const std::string &status);
	// The first and last completion so far.
	std::optional<std::int64_t> first_completion() const { return first_done_; }
	std::optional<std::int64_t> last_completion() const { return last_done_; }

private:
	FlowSpec f_;
	FlowRecord rec_;
	Bins bins_;
	bool log_messages_;
	std::vector<MessageRecord> log_;
	std::vector<std::uint64_t> qp_outstanding_;
	std::uint64_t posted_ = 0, done_ = 0, done_failed_ = 0, done_bytes_ = 0;
	std::optional<std::int64_t> first_done_, last_done_;
	bool stopped_ = false;
};

// Data-bearing frames on the wire for one message of a verb: RoCEv2 over
// IPv4 and untagged Ethernet, without FCS, with path MTU `mtu` (packets:
// WRITE first/only carry a RETH, READ responses first/last/only an AETH;
// payload padded to 4 bytes; ICRC).
struct WireCount {
	std::uint64_t frames = 0;
	std::uint64_t bytes = 0;
};
WireCount message_frames(Verb v, std::uint64_t msg_bytes, std::uint64_t mtu);

// Nearest-rank percentile (p in (0, 100]) of sorted values: the value of
// rank ceil(p * N / 100), at least 1. Values must not be empty.
std::int64_t percentile(const std::vector<std::int64_t> &sorted, double p);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_PROGRESS_H
