// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "generators.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "units.h"

namespace rxecc::traffic
{

namespace
{

bool check_names(const std::vector<std::string> &list, const char *what, std::string *err)
{
	if (list.empty()) {
		*err = std::string(what) + ": no hosts";
		return false;
	}
	std::set<std::string> seen;
	for (const auto &h : list) {
		if (!valid_name(h)) {
			*err = std::string(what) + ": '" + h + "' is not a host name";
			return false;
		}
		if (!seen.insert(h).second) {
			*err = std::string(what) + ": host '" + h + "' named twice";
			return false;
		}
	}
	return true;
}

bool check_host(const std::string &h, const char *what, std::string *err)
{
	if (!valid_name(h)) {
		*err = std::string(what) + ": '" + h + "' is not a host name";
		return false;
	}
	return true;
}

bool check_prefix(const std::string &prefix, std::string *err)
{
	if (!prefix.empty() && !valid_name(prefix)) {
		*err = "prefix '" + prefix + "' is not a name";
		return false;
	}
	return true;
}

bool check_repeats(unsigned repeats, std::uint64_t period_ns, std::string *err)
{
	if (repeats < 1) {
		*err = "repeats: at least 1";
		return false;
	}
	if (repeats > 1 && period_ns == 0) {
		*err = "repeats > 1 needs a period longer than 0";
		return false;
	}
	return true;
}

FlowSpec make_flow(std::string name, const std::string &src, const std::string &dst,
                   std::uint64_t start, const FlowOptions &opt)
{
	FlowSpec f;
	f.name = std::move(name);
	f.src = src;
	f.dst = dst;
	f.start_ns = start;
	f.opt = opt;
	return f;
}

bool check_names_fit(const Schedule &s, std::string *err)
{
	for (const auto &f : s.flows)
		if (!valid_name(f.name)) {
			*err = "flow name '" + f.name + "' is too long (at most " +
			       std::to_string(kMaxNameLen) + " characters): use a shorter prefix";
			return false;
		}
	return true;
}

// v with `prec` digits after the point; prec < 0: the shortest form (%g)
std::string fmt(int prec, double v)
{
	char b[64];
	if (prec < 0)
		std::snprintf(b, sizeof(b), "%g", v);
	else
		std::snprintf(b, sizeof(b), "%.*f", prec, v);
	return b;
}

} // namespace

std::optional<Schedule> gen_incast(const IncastParams &p, std::string *err)
{
	if (!check_names(p.senders, "senders", err) || !check_host(p.receiver, "receiver", err) ||
	    !check_prefix(p.prefix, err) || !check_repeats(p.repeats, p.period_ns, err))
		return std::nullopt;
	if (std::find(p.senders.begin(), p.senders.end(), p.receiver) != p.senders.end()) {
		*err = "the receiver '" + p.receiver + "' is also a sender";
		return std::nullopt;
	}
	if (p.size_bytes == 0) {
		*err = "size: at least 1 byte";
		return std::nullopt;
	}
	Schedule s;
	for (unsigned k = 0; k < p.repeats; k++)
		for (const auto &h : p.senders) {
			FlowSpec f = make_flow(p.prefix + std::to_string(k) + "." + h, h,
			                       p.receiver, p.start_ns + k * p.period_ns, p.opt);
			f.size_bytes = p.size_bytes;
			s.flows.push_back(std::move(f));
		}
	s.header.push_back(std::to_string(p.senders.size()) + ":1 incast to " + p.receiver + ", " +
	                   units::format_size_bytes(p.size_bytes) + " per sender, " +
	                   std::to_string(p.repeats) + " times" +
	                   (p.repeats > 1 ? " every " + units::format_time_ns(p.period_ns) : ""));
	if (!check_names_fit(s, err))
		return std::nullopt;
	return s;
}

std::optional<Schedule> gen_poisson(const PoissonParams &p, std::string *err)
{
	if (!check_names(p.srcs, "sources", err) || !check_names(p.dsts, "destinations", err) ||
	    !check_prefix(p.prefix, err))
		return std::nullopt;
	for (const auto &h : p.srcs)
		if (p.dsts.size() == 1 && p.dsts[0] == h) {
			*err = "source '" + h + "' has no destination other than itself";
			return std::nullopt;
		}
	if (!(p.load > 0) || p.load > 10) {
		*err = "load: a fraction of the bottleneck's rate above 0 (and at most 10)";
		return std::nullopt;
	}
	if (p.rate_bps == 0 || p.duration_ns == 0) {
		*err = "rate and duration must be above 0";
		return std::nullopt;
	}
	const double mean = p.cdf.mean();
	if (!(mean > 0)) {
		*err = "the size distribution has a mean of 0";
		return std::nullopt;
	}
	// mean time between arrivals, ns
	const double gap_ns = mean * 8 * 1e9 / (p.load * static_cast<double>(p.rate_bps));
	const double expected = static_cast<double>(p.duration_ns) / gap_ns;
	if (expected > 2e6) {
		*err = "about " + fmt(0, expected) +
		       " flows: more than 2 million (shorten the duration or lower the load)";
		return std::nullopt;
	}
	Rng rng(p.seed);
	Schedule s;
	double t = 0;
	const double end = static_cast<double>(p.duration_ns);
	for (std::uint64_t i = 0;; i++) {
		t += rng.exponential(gap_ns);
		if (t >= end)
			break;
		const std::string &src = p.srcs[rng.below(p.srcs.size())];
		std::string dst;
		do
			dst = p.dsts[rng.below(p.dsts.size())];
		while (dst == src);
		FlowSpec f = make_flow(p.prefix + std::to_string(i), src, dst,
		                       p.start_ns + static_cast<std::uint64_t>(t), p.opt);
		f.size_bytes = p.cdf.sample(rng);
		s.flows.push_back(std::move(f));
	}
	if (s.flows.empty()) {
		*err = "no flow arrived in the duration (lengthen it or raise the load)";
		return std::nullopt;
	}
	const double offered = offered_load(s, p.start_ns, p.duration_ns, p.rate_bps);
	s.header.push_back("Poisson arrivals, sizes from " + p.cdf_name + " (mean " + fmt(0, mean) +
	                   " B), load " + fmt(-1, p.load) + " of " +
	                   (p.bottleneck.empty() ? std::string("the bottleneck") : p.bottleneck) +
	                   " at " + units::format_rate_bps(p.rate_bps) + " over " +
	                   units::format_time_ns(p.duration_ns) + ", seed " +
	                   std::to_string(p.seed));
	s.header.push_back(std::to_string(s.flows.size()) + " flows, offered load " +
	                   fmt(4, offered));
	if (!check_names_fit(s, err))
		return std::nullopt;
	return s;
}

double offered_load(const Schedule &s, std::uint64_t start_ns, std::uint64_t duration_ns,
                    std::uint64_t rate_bps)
{
	double bytes = 0;
	for (const auto &f : s.flows)
		if (f.size_bytes && f.start_ns >= start_ns && f.start_ns - start_ns < duration_ns)
			bytes += static_cast<double>(*f.size_bytes);
	return bytes * 8 * 1e9 / (static_cast<double>(rate_bps) * static_cast<double>(duration_ns));
}

std::optional<Schedule> gen_alltoall(const AllToAllParams &p, std::string *err)
{
	if (!check_names(p.hosts, "hosts", err) || !check_prefix(p.prefix, err) ||
	    !check_repeats(p.repeats, p.period_ns, err))
		return std::nullopt;
	if (p.hosts.size() < 2) {
		*err = "hosts: at least 2";
		return std::nullopt;
	}
	if (p.size_bytes == 0) {
		*err = "size: at least 1 byte";
		return std::nullopt;
	}
	Schedule s;
	for (unsigned k = 0; k < p.repeats; k++)
		for (const auto &a : p.hosts)
			for (const auto &b : p.hosts) {
				if (a == b)
					continue;
				FlowSpec f =
					make_flow(p.prefix + std::to_string(k) + "." + a + "." + b,
				                  a, b, p.start_ns + k * p.period_ns, p.opt);
				f.size_bytes = p.size_bytes;
				s.flows.push_back(std::move(f));
			}
	s.header.push_back("all-to-all among " + std::to_string(p.hosts.size()) + " hosts, " +
	                   units::format_size_bytes(p.size_bytes) + " per pair, " +
	                   std::to_string(p.repeats) + " times" +
	                   (p.repeats > 1 ? " every " + units::format_time_ns(p.period_ns) : ""));
	if (!check_names_fit(s, err))
		return std::nullopt;
	return s;
}

std::optional<Schedule> gen_staircase(const StaircaseParams &p, std::string *err)
{
	if (!check_names(p.senders, "senders", err) || !check_host(p.receiver, "receiver", err) ||
	    !check_prefix(p.prefix, err))
		return std::nullopt;
	if (std::find(p.senders.begin(), p.senders.end(), p.receiver) != p.senders.end()) {
		*err = "the receiver '" + p.receiver + "' is also a sender";
		return std::nullopt;
	}
	if (p.step_ns == 0) {
		*err = "step must be longer than 0";
		return std::nullopt;
	}
	Schedule s;
	const std::uint64_t n = p.senders.size();
	for (std::uint64_t i = 0; i < n; i++) {
		FlowSpec f = make_flow(p.prefix + std::to_string(i) + "." + p.senders[i],
		                       p.senders[i], p.receiver, p.start_ns + i * p.step_ns, p.opt);
		f.duration_ns = (2 * (n - i) - 1) * p.step_ns;
		s.flows.push_back(std::move(f));
	}
	s.header.push_back("staircase: " + std::to_string(n) + " flows to " + p.receiver +
	                   " join every " + units::format_time_ns(p.step_ns) +
	                   " and leave in reverse order");
	if (!check_names_fit(s, err))
		return std::nullopt;
	return s;
}

std::optional<Schedule> gen_longshort(const LongShortParams &p, std::string *err)
{
	if (!check_host(p.long_src, "long source", err) ||
	    !check_host(p.short_src, "short source", err) ||
	    !check_host(p.dst, "destination", err) || !check_repeats(p.count, p.period_ns, err))
		return std::nullopt;
	if (p.long_src == p.dst || p.short_src == p.dst) {
		*err = "the destination '" + p.dst + "' is also a source";
		return std::nullopt;
	}
	if (p.long_duration_ns == 0 || p.short_size_bytes == 0) {
		*err = "the long flow's duration and the short flows' size must be above 0";
		return std::nullopt;
	}
	const std::uint64_t last = p.short_at_ns + (p.count - 1) * p.period_ns;
	if (last >= p.long_duration_ns) {
		*err = "the last short flow starts at " + units::format_time_ns(last) +
		       ", not within the long flow (" + units::format_time_ns(p.long_duration_ns) +
		       ")";
		return std::nullopt;
	}
	Schedule s;
	FlowSpec l = make_flow("long", p.long_src, p.dst, p.start_ns, p.opt);
	l.duration_ns = p.long_duration_ns;
	s.flows.push_back(std::move(l));
	for (unsigned k = 0; k < p.count; k++) {
		FlowSpec f = make_flow("short" + std::to_string(k), p.short_src, p.dst,
		                       p.start_ns + p.short_at_ns + k * p.period_ns, p.opt);
		f.size_bytes = p.short_size_bytes;
		s.flows.push_back(std::move(f));
	}
	s.header.push_back("long-short: a " + units::format_time_ns(p.long_duration_ns) + " flow " +
	                   p.long_src + " -> " + p.dst + " and " + std::to_string(p.count) +
	                   " short flows of " + units::format_size_bytes(p.short_size_bytes) + " " +
	                   p.short_src + " -> " + p.dst);
	return s;
}

} // namespace rxecc::traffic
