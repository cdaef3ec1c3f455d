// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "commands.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "attach.h"
#include "control.h"
#include "runner.h"
#include "topology.h"
#include "units.h"

namespace rxecc::fabric::proc
{

namespace
{

constexpr std::streamsize kMaxTopologyBytes = 16 << 20;

bool load(const RunOptions &o, Topology &topo, std::vector<PortAttachment> &ports, std::string &err)
{
	std::ifstream in(o.topology, std::ios::binary);
	if (!in) {
		err = "cannot read topology " + o.topology;
		return false;
	}
	std::string text;
	text.resize(static_cast<size_t>(kMaxTopologyBytes) + 1);
	in.read(text.data(), kMaxTopologyBytes + 1);
	if (in.bad()) {
		err = "cannot read topology " + o.topology;
		return false;
	}
	if (in.gcount() > kMaxTopologyBytes) {
		err = o.topology + ": larger than 16 MiB";
		return false;
	}
	text.resize(static_cast<size_t>(in.gcount()));
	TopologyResult r = parse_topology(text);
	if (!r) {
		err = o.topology + ": " + r.error.to_string();
		return false;
	}
	topo = *r.topology;
	return resolve_attachments(topo, o.attach, true, ports, err);
}

void print_errors(const std::string &err)
{
	std::istringstream ss(err);
	std::string line;
	while (std::getline(ss, line))
		std::fprintf(stderr, "rxecc-fabric: %s\n", line.c_str());
}

// The INT (HPCC) stamping of the topology, if any port stamps.
void print_int(const Topology &topo)
{
	std::string lines;
	for (const SwitchConfig &s : topo.switches) {
		std::string ports;
		for (const PortConfig &p : s.ports) {
			if (!p.int_stamp)
				continue;
			unsigned code = int_rate_code(s.int_config.rates, p.rate_bps);
			ports += std::string(ports.empty() ? " " : ", ") + p.name + " code " +
			         std::to_string(code) + " (" + units::format_rate_bps(p.rate_bps) +
			         ")";
		}
		if (!ports.empty())
			lines += "  INT " + s.name +
			         " switch_id=" + std::to_string(s.int_config.switch_id) + ":" +
			         ports + "\n";
	}
	if (lines.empty())
		return;
	const IntConfig &ic = topo.switches[0].int_config;
	std::string codes;
	for (size_t c = kIntFirstConfigurableCode; c < kIntRateCodes; c++)
		codes += " " + std::to_string(c) + "=" +
		         (ic.rates[c] ? units::format_rate_bps(ic.rates[c]) : std::string("none"));
	std::printf("  INT int_port=%u, rate codes%s\n%s", unsigned{ic.udp_port}, codes.c_str(),
	            lines.c_str());
}

// The TCD (ACC) marking of the topology, one line per switch with any:
// each queue's port, priority, threshold and max_Ton.
void print_tcd(const Topology &topo)
{
	for (const SwitchConfig &s : topo.switches) {
		std::string queues;
		for (const PortConfig &p : s.ports)
			for (int prio = 0; prio < kNumPriorities; prio++) {
				const TcdParams &t = p.tcd[static_cast<size_t>(prio)];
				if (!t.enabled)
					continue;
				queues += std::string(queues.empty() ? " " : ", ") + p.name +
				          " prio " + std::to_string(prio) +
				          " thr=" + units::format_size_bytes(t.threshold) +
				          " max_ton=" + units::format_time_ns(t.max_ton_ns);
			}
		if (!queues.empty())
			std::printf("  TCD %s:%s\n", s.name.c_str(), queues.c_str());
	}
}

// The NP-ECN (PCN) marking of the topology, one line per switch with any:
// each queue's port, priority and threshold k.
void print_npecn(const Topology &topo)
{
	for (const SwitchConfig &s : topo.switches) {
		std::string queues;
		for (const PortConfig &p : s.ports)
			for (int prio = 0; prio < kNumPriorities; prio++) {
				const NpEcnParams &n = p.npecn[static_cast<size_t>(prio)];
				if (!n.enabled)
					continue;
				queues += std::string(queues.empty() ? " " : ", ") + p.name +
				          " prio " + std::to_string(prio) +
				          " k=" + units::format_size_bytes(n.k);
			}
		if (!queues.empty())
			std::printf("  NP-ECN %s:%s\n", s.name.c_str(), queues.c_str());
	}
}

} // namespace

int cmd_check(const RunOptions &o)
{
	Topology topo;
	std::vector<PortAttachment> ports;
	std::string err;
	if (!load(o, topo, ports, err)) {
		print_errors(err);
		return 1;
	}
	if (!o.quiet) {
		std::printf("%s: ok, %zu switches, %zu links, %zu external ports\n",
		            o.topology.c_str(), topo.switches.size(), topo.links.size(),
		            ports.size());
		for (const auto &p : ports)
			std::printf("  %s = %s\n", p.name.c_str(), p.spec.text.c_str());
		print_int(topo);
		print_tcd(topo);
		print_npecn(topo);
	}
	return 0;
}

int cmd_run(const RunOptions &o)
{
	Topology topo;
	std::vector<PortAttachment> ports;
	std::string err;
	if (!load(o, topo, ports, err)) {
		print_errors(err);
		return 2;
	}
	return run_fabric(o, topo, ports);
}

int cmd_query(const QueryOptions &o)
{
	std::string answer, err;
	if (!control_query(o.socket, o.request, answer, err)) {
		std::fprintf(stderr, "rxecc-fabric: query: %s\n", err.c_str());
		return 1;
	}
	std::fwrite(answer.data(), 1, answer.size(), stdout);
	return 0;
}

} // namespace rxecc::fabric::proc
