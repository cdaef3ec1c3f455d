// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#ifndef RXECC_TRAFFIC_LAUNCH_H
#define RXECC_TRAFFIC_LAUNCH_H

#include <string>

#include "cli.h"
#include "hosts.h"
#include "schedule.h"

namespace rxecc::traffic
{

// Whether /run/netns/NS exists ("" is this process's namespace).
bool netns_exists(const std::string &ns);

// launch: one process per host of the schedule; returns 0 if every host
// process exited 0. The records are in a.out/HOST/.
int launch_hosts(const RunArgs &a, const Schedule &s, const Hosts &hosts);

// run: host a.host in this process, in its network namespace.
int run_solo(const RunArgs &a, const Schedule &s, const Hosts &hosts);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_LAUNCH_H
