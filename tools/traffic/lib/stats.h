// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Figures from a results directory, for `rxecc-traffic stats` and the
// benchmark: goodput, start errors, the host processes' CPU.
#ifndef RXECC_TRAFFIC_STATS_H
#define RXECC_TRAFFIC_STATS_H

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "progress.h"
#include "records.h"
#include "schedule.h"

namespace rxecc::traffic
{

// Goodput of the flows that ended ok (all, or those named in `only`):
// their bytes * 8 over the time from the first one's start to the last
// one's completion, in bit/s. nullopt if no such flow has both times.
std::optional<double> goodput_bps(const Schedule &s, const std::map<std::string, FlowRecord> &recs,
                                  const std::set<std::string> *only = nullptr);

// Start errors (start_ns - sched_start_ns) of the flows that started.
std::vector<std::int64_t> start_error_list(const Schedule &s,
                                           const std::map<std::string, FlowRecord> &recs,
                                           const std::set<std::string> *only = nullptr);

// A host's CPU from its host.json: (user + system) / run time, and nullopt
// without the figures.
std::optional<double> cpu_share(const nlohmann::json &host);

// The median of `v` (the mean of the two middle values for an even count);
// v must not be empty.
double median(std::vector<double> v);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_STATS_H
