// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Schedule parser and writer; the format is in
// Documentation/rxe-cc/traffic.rst.
#include "schedule.h"

#include <limits>
#include <map>
#include <set>

#include "text.h"
#include "units.h"

namespace rxecc::traffic
{

const char *verb_name(Verb v)
{
	switch (v) {
	case Verb::kWrite: return "write";
	case Verb::kSend: return "send";
	case Verb::kRead: return "read";
	}
	return "?";
}

std::optional<Verb> parse_verb(std::string_view s)
{
	if (s == "write")
		return Verb::kWrite;
	if (s == "send")
		return Verb::kSend;
	if (s == "read")
		return Verb::kRead;
	return std::nullopt;
}

std::uint64_t FlowSpec::messages() const
{
	if (!size_bytes)
		return 0;
	return (*size_bytes + opt.msg_bytes - 1) / opt.msg_bytes;
}

std::uint64_t FlowSpec::message_bytes(std::uint64_t index) const
{
	if (!size_bytes)
		return opt.msg_bytes;
	const std::uint64_t n = messages();
	if (index + 1 < n)
		return opt.msg_bytes;
	return *size_bytes - (n - 1) * opt.msg_bytes;
}

const FlowSpec *Schedule::find(std::string_view name) const
{
	for (const auto &f : flows)
		if (f.name == name)
			return &f;
	return nullptr;
}

std::vector<std::string> Schedule::hosts() const
{
	std::vector<std::string> out;
	std::set<std::string> seen;
	for (const auto &f : flows)
		for (const std::string *h : {&f.src, &f.dst})
			if (seen.insert(*h).second)
				out.push_back(*h);
	return out;
}

bool valid_name(std::string_view s)
{
	if (s.empty() || s.size() > kMaxNameLen)
		return false;
	for (char c : s) {
		const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		                (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
		if (!ok)
			return false;
	}
	return true;
}

namespace
{

const char kFlowUsage[] = "expected NAME SRC DST START size=SIZE|duration=TIME [KEY=VALUE ...] "
			  "or defaults KEY=VALUE ...";
const char kOptionKeys[] = "verb, msg, qps, dscp, depth, timeout, rate";

// Applies one KEY=VALUE of the flow options; false with *err if KEY is
// one of them and VALUE is bad; *known tells whether KEY is one of them.
bool apply_option(FlowOptions &o, std::string_view key, std::string_view val, bool *known,
                  std::string *err)
{
	*known = true;
	if (key == "verb") {
		auto v = parse_verb(val);
		if (!v) {
			*err = "verb: '" + std::string(val) + "' is not write, send or read";
			return false;
		}
		o.verb = *v;
		return true;
	}
	if (key == "msg") {
		std::string e;
		auto v = units::parse_size_bytes(val, &e);
		if (!v) {
			*err = "msg: " + e;
			return false;
		}
		if (*v < 1 || *v > kMaxMsgBytes) {
			*err = "msg: " + std::string(val) +
			       " is not a message size from 1B to 1GiB";
			return false;
		}
		o.msg_bytes = *v;
		return true;
	}
	if (key == "rate") {
		std::string e;
		auto v = units::parse_rate_bps(val, &e);
		if (!v) {
			*err = "rate: " + e;
			return false;
		}
		if (*v < kMinRateBps || *v > kMaxRateBps || *v % 1000) {
			*err = "rate: " + std::string(val) +
			       " is not a whole number of kbit/s from 1kbit to 2147483648kbit";
			return false;
		}
		o.rate_bps = *v;
		return true;
	}
	struct Num {
		const char *name;
		unsigned *dst;
		unsigned lo, hi;
	};
	const Num nums[] = {
		{"qps", &o.qps, 1, kMaxQps},
		{"dscp", &o.dscp, 0, kMaxDscp},
		{"depth", &o.depth, 1, kMaxDepth},
		{"timeout", &o.ack_timeout, 0, kMaxAckTimeout},
	};
	for (const Num &n : nums) {
		if (key != n.name)
			continue;
		auto v = parse_uint(val);
		if (!v || *v < n.lo || *v > n.hi) {
			*err = std::string(n.name) + ": '" + std::string(val) +
			       "' is not a whole number from " + std::to_string(n.lo) + " to " +
			       std::to_string(n.hi);
			return false;
		}
		*n.dst = static_cast<unsigned>(*v);
		return true;
	}
	*known = false;
	return true;
}

// Splits "KEY=VALUE"; false if there is no '=' or either side is empty.
bool split_kv(std::string_view tok, std::string_view &key, std::string_view &val)
{
	const auto eq = tok.find('=');
	if (eq == std::string_view::npos || eq == 0 || eq + 1 == tok.size())
		return false;
	key = tok.substr(0, eq);
	val = tok.substr(eq + 1);
	return true;
}

} // namespace

std::optional<Schedule> parse_schedule(std::string_view text, const std::string &source,
                                       std::string *err, const FlowOptions &base)
{
	Schedule s;
	FlowOptions defaults = base;
	std::map<std::string, int> names;
	int lineno = 0;
	auto fail = [&](const std::string &msg) {
		if (err)
			*err = source + ":" + std::to_string(lineno) + ": " + msg;
		return std::nullopt;
	};
	for (std::string_view line : split_lines(text)) {
		lineno++;
		const std::vector<std::string_view> tok = split_words(strip_comment(line));
		if (tok.empty())
			continue;
		if (tok[0] == "defaults") {
			if (tok.size() < 2)
				return fail("defaults: expected KEY=VALUE ...");
			std::set<std::string_view> seen;
			for (size_t i = 1; i < tok.size(); i++) {
				std::string_view key, val;
				if (!split_kv(tok[i], key, val))
					return fail("defaults: '" + std::string(tok[i]) +
					            "' is not KEY=VALUE");
				if (!seen.insert(key).second)
					return fail("defaults: " + std::string(key) +
					            " given twice");
				bool known = false;
				std::string e;
				if (!apply_option(defaults, key, val, &known, &e))
					return fail(e);
				if (!known)
					return fail("defaults: unknown setting '" +
					            std::string(key) + "' (known: " + kOptionKeys +
					            ")");
			}
			continue;
		}
		if (tok.size() < 5)
			return fail(kFlowUsage);
		FlowSpec f;
		f.line = lineno;
		f.opt = defaults;
		f.name = std::string(tok[0]);
		f.src = std::string(tok[1]);
		f.dst = std::string(tok[2]);
		for (const auto &[what, v] :
		     {std::pair{"flow name", &f.name}, {"SRC", &f.src}, {"DST", &f.dst}})
			if (!valid_name(*v))
				return fail(std::string(what) + " '" + *v +
				            "' is not a name (letters, digits, '_', '-', '.'; "
				            "at most 64)");
		if (f.name.find('=') != std::string::npos)
			return fail(kFlowUsage);
		if (auto it = names.find(f.name); it != names.end())
			return fail("flow '" + f.name + "' is already defined on line " +
			            std::to_string(it->second));
		if (f.src == f.dst)
			return fail("flow '" + f.name + "': SRC and DST are the same host '" +
			            f.src + "'");
		std::string e;
		auto start = units::parse_time_ns(tok[3], &e);
		if (!start)
			return fail("START: " + e);
		f.start_ns = *start;
		std::set<std::string_view> seen;
		for (size_t i = 4; i < tok.size(); i++) {
			std::string_view key, val;
			if (!split_kv(tok[i], key, val))
				return fail("'" + std::string(tok[i]) + "' is not KEY=VALUE (" +
				            kFlowUsage + ")");
			if (!seen.insert(key).second)
				return fail(std::string(key) + " given twice");
			if (key == "size") {
				auto v = units::parse_size_bytes(val, &e);
				if (!v)
					return fail("size: " + e);
				if (*v == 0)
					return fail("size: a flow moves at least 1 byte");
				f.size_bytes = *v;
				continue;
			}
			if (key == "duration") {
				auto v = units::parse_time_ns(val, &e);
				if (!v)
					return fail("duration: " + e);
				if (*v == 0)
					return fail("duration: must be longer than 0");
				f.duration_ns = *v;
				continue;
			}
			bool known = false;
			if (!apply_option(f.opt, key, val, &known, &e))
				return fail(e);
			if (!known)
				return fail("unknown setting '" + std::string(key) +
				            "' (known: size, duration, " + kOptionKeys + ")");
		}
		if (f.size_bytes && f.duration_ns)
			return fail("flow '" + f.name + "' has both size and duration");
		if (!f.size_bytes && !f.duration_ns)
			return fail("flow '" + f.name + "' needs size=SIZE or duration=TIME");
		if (f.opt.rate_bps && f.opt.verb == Verb::kRead)
			return fail("flow '" + f.name +
			            "': rate= paces the driver's QPs, and a READ flow's data "
			            "comes from the other host (write and send only)");
		constexpr std::uint64_t kMaxNs = std::numeric_limits<std::int64_t>::max() / 2;
		if (f.start_ns > kMaxNs || f.duration_ns.value_or(0) > kMaxNs)
			return fail("flow '" + f.name + "': start or duration too large");
		names.emplace(f.name, lineno);
		s.flows.push_back(std::move(f));
	}
	if (s.flows.empty()) {
		if (err)
			*err = source + ": no flows";
		return std::nullopt;
	}
	return s;
}

std::string format_flow(const FlowSpec &f)
{
	std::string l =
		f.name + " " + f.src + " " + f.dst + " " + units::format_time_ns(f.start_ns);
	if (f.size_bytes)
		l += " size=" + units::format_size_bytes(*f.size_bytes);
	else
		l += " duration=" + units::format_time_ns(f.duration_ns.value_or(0));
	l += std::string(" verb=") + verb_name(f.opt.verb);
	l += " msg=" + units::format_size_bytes(f.opt.msg_bytes);
	l += " qps=" + std::to_string(f.opt.qps);
	l += " dscp=" + std::to_string(f.opt.dscp);
	l += " depth=" + std::to_string(f.opt.depth);
	l += " timeout=" + std::to_string(f.opt.ack_timeout);
	if (f.opt.rate_bps)
		l += " rate=" + units::format_rate_bps(*f.opt.rate_bps);
	return l;
}

std::string format_schedule(const Schedule &s)
{
	std::string out;
	for (const auto &h : s.header)
		out += "# " + h + "\n";
	for (const auto &f : s.flows)
		out += format_flow(f) + "\n";
	return out;
}

std::uint64_t schedule_hash(const Schedule &s)
{
	// FNV-1a, 64 bits
	std::uint64_t h = 0xcbf29ce484222325ULL;
	for (const auto &f : s.flows) {
		const std::string l = format_flow(f) + "\n";
		for (char c : l) {
			h ^= static_cast<std::uint8_t>(c);
			h *= 0x100000001b3ULL;
		}
	}
	return h;
}

} // namespace rxecc::traffic
