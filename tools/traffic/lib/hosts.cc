// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "hosts.h"

#include <arpa/inet.h>

#include <map>

#include "text.h"

namespace rxecc::traffic
{

const HostSpec *Hosts::find(std::string_view name) const
{
	for (const auto &h : hosts)
		if (h.name == name)
			return &h;
	return nullptr;
}

std::optional<Hosts> parse_hosts(std::string_view text, const std::string &source, std::string *err)
{
	Hosts out;
	std::map<std::string, int> names, ips;
	int lineno = 0;
	auto fail = [&](const std::string &msg) {
		if (err)
			*err = source + ":" + std::to_string(lineno) + ": " + msg;
		return std::nullopt;
	};
	for (std::string_view line : split_lines(text)) {
		lineno++;
		const auto tok = split_words(strip_comment(line));
		if (tok.empty())
			continue;
		if (tok.size() < 2)
			return fail("expected NAME IPV4 [netns=NS|-] [dev=DEV|any] [other fields]");
		HostSpec h;
		h.line = lineno;
		h.name = std::string(tok[0]);
		if (!valid_name(h.name))
			return fail("host name '" + h.name +
			            "' is not a name (letters, digits, '_', '-', '.'; at most 64)");
		h.ip = std::string(tok[1]);
		in_addr a{};
		if (inet_pton(AF_INET, h.ip.c_str(), &a) != 1)
			return fail("'" + h.ip + "' is not an IPv4 address");
		h.netns = h.name;
		h.dev = "rxe_" + h.name;
		bool have_ns = false, have_dev = false;
		for (size_t i = 2; i < tok.size(); i++) {
			const std::string_view t = tok[i];
			if (t.rfind("netns=", 0) == 0) {
				if (have_ns)
					return fail("netns given twice");
				have_ns = true;
				const std::string_view v = t.substr(6);
				if (v == "-") {
					h.netns.clear();
				} else if (valid_name(v)) {
					h.netns = std::string(v);
				} else {
					return fail("netns: '" + std::string(v) +
					            "' is not a namespace name (or '-')");
				}
			} else if (t.rfind("dev=", 0) == 0) {
				if (have_dev)
					return fail("dev given twice");
				have_dev = true;
				const std::string_view v = t.substr(4);
				if (v == "any") {
					h.dev.clear();
				} else if (valid_name(v)) {
					h.dev = std::string(v);
				} else {
					return fail("dev: '" + std::string(v) +
					            "' is not a device name (or 'any')");
				}
			} else if (t.find('=') != std::string_view::npos) {
				return fail("unknown setting '" + std::string(t) +
				            "' (known: netns=NS|-, dev=DEV|any)");
			}
			// other fields (the experiments' MAC and SWITCH:PORT) are not used
		}
		if (auto it = names.find(h.name); it != names.end())
			return fail("host '" + h.name + "' is already defined on line " +
			            std::to_string(it->second));
		if (auto it = ips.find(h.ip); it != ips.end())
			return fail("address " + h.ip + " is already used on line " +
			            std::to_string(it->second));
		names.emplace(h.name, lineno);
		ips.emplace(h.ip, lineno);
		out.hosts.push_back(std::move(h));
	}
	if (out.hosts.empty()) {
		if (err)
			*err = source + ": no hosts";
		return std::nullopt;
	}
	return out;
}

bool check_schedule_hosts(const Schedule &s, const Hosts &hosts, const std::string &sched_source,
                          const std::string &hosts_source, std::string *err)
{
	for (const auto &f : s.flows)
		for (const std::string *h : {&f.src, &f.dst})
			if (!hosts.find(*h)) {
				if (err)
					*err = sched_source + ":" + std::to_string(f.line) +
					       ": flow '" + f.name + "' names host '" + *h +
					       "', which " + hosts_source + " does not define";
				return false;
			}
	return true;
}

} // namespace rxecc::traffic
