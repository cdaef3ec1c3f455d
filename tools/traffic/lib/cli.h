// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The command line of rxecc-traffic (CLI11): subcommands launch, run,
// merge, check, wire and gen; every value checked and converted (rates,
// sizes and times through the units library) before anything runs.
#ifndef RXECC_TRAFFIC_CLI_H
#define RXECC_TRAFFIC_CLI_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schedule.h"

namespace rxecc::traffic
{

struct RunArgs {
	std::string schedule, hosts, out;
	std::string host; // run
	std::uint64_t bin_ns = 1000000;
	std::string messages = "auto"; // auto | all | none
	std::uint16_t port = 18520;
	std::uint64_t connect_timeout_ns = 30000000000ULL;
	std::uint64_t spin_ns = 20000000;
	bool busy_poll = false;
	unsigned rt_priority = 10;
	std::optional<std::uint64_t> deadline_ns;
	unsigned ack_timeout = 18;
	std::uint64_t start_delay_ns = 200000000; // launch
	// run: an absolute CLOCK_REALTIME instant, or a delay after set-up
	std::optional<std::int64_t> start_at_real_ns;
	std::optional<std::uint64_t> start_after_ns;
};

struct GenArgs {
	std::string kind; // incast poisson alltoall staircase longshort
	std::string output;
	FlowOptions opt;
	std::vector<std::string> senders, srcs, dsts, hosts;
	std::string receiver, bottleneck, cdf, prefix;
	std::string long_src, short_src, dst;
	std::uint64_t size_bytes = 0, rate_bps = 0;
	std::uint64_t start_ns = 0, period_ns = 0, duration_ns = 0, step_ns = 0;
	std::uint64_t long_duration_ns = 0, short_at_ns = 0;
	unsigned repeats = 1, count = 1;
	double load = 0;
	std::uint64_t seed = 1;
	std::string command_line; // for the header
};

struct Cli {
	std::string cmd; // launch run merge check wire stats gen
	RunArgs run;
	GenArgs gen;
	std::string dir;      // merge, wire
	std::string schedule; // merge (default DIR/schedule.txt), check
	std::string hosts;    // check
	std::uint64_t mtu = 1024;
	// wire --compare SRC,DST,DSCP,FRAMES,BYTES
	struct {
		std::string src, dst;
		unsigned dscp = 0;
		std::uint64_t frames = 0, bytes = 0;
	} compare;
	bool do_compare = false;
	// stats
	std::vector<std::string> dirs, flows;
	std::vector<double> baseline_gbps;
};

// Parses the command line. Returns -1 with `cli` filled when there is work
// to do; otherwise the exit status to return at once (0 after --help, 2
// after a usage error), with what to print in `out` (stdout) and `err`
// (stderr).
int parse_cli(int argc, const char *const *argv, Cli &cli, std::string &out, std::string &err);

// The directory holding the distributions named without a path
// (websearch, fb_hadoop, ...): tools/traffic/cdf of the source tree.
std::string cdf_path(const std::string &name_or_path);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_CLI_H
