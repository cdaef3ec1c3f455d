// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The hosts file of rxecc-traffic: host name, IPv4 address, network
// namespace and RDMA device. It accepts the experiments' hosts.txt
// ("NAME IP MAC SWITCH:PORT"); see Documentation/rxe-cc/traffic.rst.
#ifndef RXECC_TRAFFIC_HOSTS_H
#define RXECC_TRAFFIC_HOSTS_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schedule.h"

namespace rxecc::traffic
{

struct HostSpec {
	std::string name;
	std::string ip;    // dotted IPv4
	std::string netns; // "" = the namespace the tool runs in
	std::string dev;   // RDMA device expected for ip; "" = any
	int line = 0;
};

struct Hosts {
	std::vector<HostSpec> hosts;
	const HostSpec *find(std::string_view name) const;
};

// On error returns nullopt and sets *err ("SOURCE:LINE: ...").
std::optional<Hosts> parse_hosts(std::string_view text, const std::string &source,
                                 std::string *err);

// Every host a flow names must be in `hosts`; otherwise false with *err
// naming the schedule line ("SCHED:LINE: flow 'f' names host 'x', which
// HOSTS does not define").
bool check_schedule_hosts(const Schedule &s, const Hosts &hosts, const std::string &sched_source,
                          const std::string &hosts_source, std::string *err);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_HOSTS_H
