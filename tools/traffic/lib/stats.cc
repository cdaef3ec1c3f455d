// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "stats.h"

#include <algorithm>

namespace rxecc::traffic
{

namespace
{

bool selected(const std::set<std::string> *only, const std::string &name)
{
	return !only || only->count(name);
}

} // namespace

std::optional<double> goodput_bps(const Schedule &s, const std::map<std::string, FlowRecord> &recs,
                                  const std::set<std::string> *only)
{
	std::optional<std::int64_t> first, last;
	double bytes = 0;
	for (const auto &f : s.flows) {
		auto it = recs.find(f.name);
		if (!selected(only, f.name) || it == recs.end())
			continue;
		const FlowRecord &r = it->second;
		if (r.status != "ok" || !r.start_ns || !r.complete_ns || !r.bytes)
			continue;
		first = first ? std::min(*first, *r.start_ns) : *r.start_ns;
		last = last ? std::max(*last, *r.complete_ns) : *r.complete_ns;
		bytes += static_cast<double>(*r.bytes);
	}
	if (!first || *last <= *first)
		return std::nullopt;
	return bytes * 8 * 1e9 / static_cast<double>(*last - *first);
}

std::vector<std::int64_t> start_error_list(const Schedule &s,
                                           const std::map<std::string, FlowRecord> &recs,
                                           const std::set<std::string> *only)
{
	std::vector<std::int64_t> out;
	for (const auto &f : s.flows) {
		auto it = recs.find(f.name);
		if (selected(only, f.name) && it != recs.end() && it->second.start_ns)
			out.push_back(*it->second.start_ns - static_cast<std::int64_t>(f.start_ns));
	}
	return out;
}

std::optional<double> cpu_share(const nlohmann::json &host)
{
	if (!host.contains("cpu") || !host["cpu"].is_object())
		return std::nullopt;
	const auto &c = host["cpu"];
	for (const char *k : {"user_ns", "sys_ns", "run_ns"})
		if (!c.contains(k) || !c[k].is_number())
			return std::nullopt;
	const double run = c["run_ns"].get<double>();
	if (run <= 0)
		return std::nullopt;
	return (c["user_ns"].get<double>() + c["sys_ns"].get<double>()) / run;
}

double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	const size_t n = v.size();
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace rxecc::traffic
