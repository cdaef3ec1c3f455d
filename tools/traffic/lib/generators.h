// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Schedule generators: N:1 incast, Poisson arrivals at a target load with
// a flow-size CDF, all-to-all, a staircase of long-lived flows, and a long
// flow with short bursts. Each returns a Schedule (flows in start order)
// or nullopt with *err for inconsistent parameters.
#ifndef RXECC_TRAFFIC_GENERATORS_H
#define RXECC_TRAFFIC_GENERATORS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cdf.h"
#include "schedule.h"

namespace rxecc::traffic
{

// Every sender sends `size` bytes to `receiver` at start + k * period,
// k = 0 .. repeats-1. Flow names: PREFIX<k>.<sender>.
struct IncastParams {
	std::vector<std::string> senders;
	std::string receiver;
	std::uint64_t size_bytes = 0;
	unsigned repeats = 1;
	std::uint64_t period_ns = 0; // needed when repeats > 1
	std::uint64_t start_ns = 0;
	std::string prefix = "incast";
	FlowOptions opt;
};
std::optional<Schedule> gen_incast(const IncastParams &p, std::string *err);

// Flows arrive as a Poisson process in [start, start + duration): each
// from a random host of `srcs` to a random other host of `dsts`, its size
// drawn from `cdf`. The arrival rate is load * rate_bps / (8 * mean size),
// so that the flows offer `load` of a bottleneck of `rate_bps` that they
// all cross (named `bottleneck`, for the header). Names: PREFIX<i>.
struct PoissonParams {
	std::vector<std::string> srcs, dsts;
	SizeCdf cdf;
	std::string cdf_name;
	double load = 0;
	std::uint64_t rate_bps = 0;
	std::string bottleneck;
	std::uint64_t start_ns = 0;
	std::uint64_t duration_ns = 0;
	std::uint64_t seed = 1;
	std::string prefix = "p";
	FlowOptions opt;
};
std::optional<Schedule> gen_poisson(const PoissonParams &p, std::string *err);

// The offered load of the flows that start in [start, start + duration):
// their bytes * 8 / (rate_bps * duration).
double offered_load(const Schedule &s, std::uint64_t start_ns, std::uint64_t duration_ns,
                    std::uint64_t rate_bps);

// Every host sends `size` bytes to every other host at start + k * period.
// Names: PREFIX<k>.<src>.<dst>.
struct AllToAllParams {
	std::vector<std::string> hosts;
	std::uint64_t size_bytes = 0;
	unsigned repeats = 1;
	std::uint64_t period_ns = 0;
	std::uint64_t start_ns = 0;
	std::string prefix = "a2a";
	FlowOptions opt;
};
std::optional<Schedule> gen_alltoall(const AllToAllParams &p, std::string *err);

// Long-lived flows join one every `step` and leave in reverse order: with
// N senders, flow i (0-based) starts at start + i * step and lasts
// (2 (N - i) - 1) * step. Names: PREFIX<i>.<sender>.
struct StaircaseParams {
	std::vector<std::string> senders;
	std::string receiver;
	std::uint64_t step_ns = 0;
	std::uint64_t start_ns = 0;
	std::string prefix = "stair";
	FlowOptions opt;
};
std::optional<Schedule> gen_staircase(const StaircaseParams &p, std::string *err);

// A long flow (long_src to dst, from start for long_duration) and short
// flows (short_src to dst) of short_size at start + short_at + k * period,
// k = 0 .. count-1; every short flow must start and, at the long flow's
// own rate, could end within the long one. Names: long, short<k>.
struct LongShortParams {
	std::string long_src, short_src, dst;
	std::uint64_t long_duration_ns = 0;
	std::uint64_t short_size_bytes = 0;
	std::uint64_t short_at_ns = 0;
	unsigned count = 1;
	std::uint64_t period_ns = 0;
	std::uint64_t start_ns = 0;
	FlowOptions opt;
};
std::optional<Schedule> gen_longshort(const LongShortParams &p, std::string *err);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_GENERATORS_H
