#include "inputs.h"

#include <cctype>

#include "csv_table.h"
#include "error.h"

namespace rxecc::report
{

namespace
{

bool all_of(std::string_view s, const char *extra)
{
	if (s.empty())
		return false;
	for (char c : s) {
		bool ok =
			(c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		for (const char *e = extra; !ok && *e; ++e)
			ok = c == *e;
		if (!ok)
			return false;
	}
	return true;
}

bool digits(std::string_view s, std::size_t min, std::size_t max)
{
	if (s.size() < min || s.size() > max)
		return false;
	for (char c : s)
		if (c < '0' || c > '9')
			return false;
	return true;
}

// Lines of TEXT without CR/LF, numbered from 1.
template <typename F>
void each_line(std::string_view text, F f)
{
	std::size_t pos = 0, n = 0;
	while (pos < text.size()) {
		auto nl = text.find('\n', pos);
		std::string_view l = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
		if (!l.empty() && l.back() == '\r')
			l.remove_suffix(1);
		f(++n, l);
		if (nl == std::string_view::npos)
			break;
		pos = nl + 1;
	}
}

// Blank, or blanks and a comment.
bool blank_or_comment(std::string_view l)
{
	for (char c : l) {
		if (c == '#')
			return true;
		if (!std::isspace(static_cast<unsigned char>(c)))
			return false;
	}
	return true;
}

// awk's split(s, f, " "): fields separated by runs of blanks.
std::vector<std::string> words(std::string_view l)
{
	std::vector<std::string> out;
	std::size_t i = 0;
	while (i < l.size()) {
		while (i < l.size() && std::isspace(static_cast<unsigned char>(l[i])))
			++i;
		std::size_t s = i;
		while (i < l.size() && !std::isspace(static_cast<unsigned char>(l[i])))
			++i;
		if (i > s)
			out.emplace_back(l.substr(s, i - s));
	}
	return out;
}

std::string str(std::string_view s)
{
	return std::string(s);
}

// NAME[,NAME...] of is_name names.
bool name_list(std::string_view v)
{
	if (v.empty())
		return false;
	for (const std::string &n : split(v, ','))
		if (!is_name(n))
			return false;
	return true;
}

} // namespace

Meta Meta::parse(const std::string &path, std::string_view text)
{
	Meta m;
	m.path_ = path;
	each_line(text, [&](std::size_t n, std::string_view l) {
		if (blank_or_comment(l))
			return;
		auto eq = l.find('=');
		std::string_view key = l.substr(0, eq == std::string_view::npos ? 0 : eq);
		bool key_ok = !key.empty() && !(key[0] >= '0' && key[0] <= '9') && all_of(key, "_");
		if (eq == std::string_view::npos || !key_ok)
			throw Error(strf("%s:%zu: not a key=value line: %s", path.c_str(), n,
			                 str(l).c_str()));
		std::string_view val = l.substr(eq + 1);
		if (val.size() >= 2 && ((val.front() == '\'' && val.back() == '\'') ||
		                        (val.front() == '"' && val.back() == '"')))
			val = val.substr(1, val.size() - 2);
		m.kv_[str(key)] = str(val);
	});
	return m;
}

std::string Meta::get(const std::string &key) const
{
	auto it = kv_.find(key);
	return it == kv_.end() ? std::string() : it->second;
}

Settings settings_from(const Meta &m)
{
	const std::string &f = m.path();
	auto check = [&](const std::string &key, bool ok, const char *what, bool optional) {
		std::string v = m.get(key);
		if (v.empty()) {
			if (optional)
				return false;
			throw Error(f + ": " + key + " missing or empty");
		}
		if (!ok)
			throw Error(f + ": " + key + "=" + v + ": not " + what);
		return true;
	};
	const char *name_extra = "_.+-";
	Settings s;
	check("scenario", all_of(m.get("scenario"), name_extra), "a name", false);
	s.scenario = m.get("scenario");
	check("algo", all_of(m.get("algo"), name_extra), "a name", false);
	s.algo = m.get("algo");
	if (check("label", all_of(m.get("label"), name_extra), "a name", true))
		s.label = m.get("label");
	else
		s.label = s.algo;
	std::string v = m.get("link_rate_bps");
	check("link_rate_bps", digits(v, 1, 14) && v[0] != '0', "a positive bit rate", false);
	s.link_rate_bps = *parse_uint(v);
	v = m.get("overhead");
	if (check("overhead", digits(v, 1, 4), "a byte count (0..9999)", true))
		s.overhead = *parse_uint(v);
	check("bottleneck", is_port_key(m.get("bottleneck")), "SWITCH.PORTNAME", false);
	s.bottleneck = m.get("bottleneck");
	v = m.get("data_prio");
	check("data_prio", digits(v, 1, 1) && v[0] <= '7', "a priority 0..7", false);
	s.data_prio = static_cast<unsigned>(v[0] - '0');
	v = m.get("window_start_us");
	if (check("window_start_us", digits(v, 1, 15), "a time in microseconds", true))
		s.window_start_us = parse_uint(v);
	v = m.get("window_end_us");
	if (check("window_end_us", digits(v, 1, 15), "a time in microseconds", true))
		s.window_end_us = parse_uint(v);
	v = m.get("window_mode");
	if (check("window_mode", v == "active" || v == "all" || v == "any", "active, all or any",
	          true))
		s.window_mode = v == "all"   ? WindowMode::kAll
		                : v == "any" ? WindowMode::kAny
		                             : WindowMode::kActive;
	if (check("victim", is_name(m.get("victim")), "a flow name", true))
		s.victim = m.get("victim");
	if (check("long_flow", is_name(m.get("long_flow")), "a flow name", true))
		s.long_flow = m.get("long_flow");
	if (check("short_flow", is_name(m.get("short_flow")), "a flow name", true))
		s.short_flow = m.get("short_flow");
	v = m.get("incast_flows");
	if (check("incast_flows", name_list(v), "a comma-separated list of flow names", true))
		s.incast_flows = split(v, ',');
	if (check("mice_flow", is_name(m.get("mice_flow")), "a flow name", true))
		s.mice_flow = m.get("mice_flow");
	v = m.get("base_rtt_ns");
	if (check("base_rtt_ns", digits(v, 1, 12) && *parse_uint(v) > 0,
	          "a positive time in nanoseconds (at most 12 digits)", true))
		s.base_rtt_ns = parse_uint(v);
	v = m.get("mtu_bytes");
	if (check("mtu_bytes", digits(v, 1, 5) && *parse_uint(v) >= 256 && *parse_uint(v) <= 65536,
	          "a payload size per packet (256..65536)", true))
		s.mtu_bytes = *parse_uint(v);
	v = m.get("header_bytes");
	if (check("header_bytes", digits(v, 1, 4), "a byte count (0..9999)", true))
		s.header_bytes = *parse_uint(v);
	return s;
}

std::vector<Flow> parse_flows(const std::string &path, std::string_view text)
{
	static const char *const col[] = {"flow",  "src",   "dst",  "ingress", "start_s",
	                                  "end_s", "bytes", "gbps", "fct_s",   "status"};
	CsvTable t = parse_csv_exact(path, text, kFlowsHeader);
	std::vector<Flow> flows;
	std::map<std::string, bool> seen;
	for (const CsvRow &r : t.rows) {
		const auto &f = r.fields;
		std::string w = t.where(r);
		if (f.size() != 10)
			throw Error(strf("%s: expected 10 fields, found %zu", w.c_str(), f.size()));
		if (!is_name(f[0]))
			throw Error(w + ": bad flow name '" + f[0] + "'");
		if (seen.count(f[0]))
			throw Error(w + ": flow " + f[0] + " appears twice");
		seen[f[0]] = true;
		if (f[9] != "ok" && f[9] != "failed")
			throw Error(w + ": flow " + f[0] + ": status '" + f[9] +
			            "' is not ok or failed");
		// A flow that failed early may lack its hosts and ingress.
		bool empty_ok = f[9] == "failed";
		if (!(is_name(f[1]) || (empty_ok && f[1].empty())) ||
		    !(is_name(f[2]) || (empty_ok && f[2].empty())))
			throw Error(w + ": flow " + f[0] + ": bad src or dst '" + f[1] + "', '" +
			            f[2] + "'");
		if (!(is_port_key(f[3]) || (empty_ok && f[3].empty())))
			throw Error(w + ": flow " + f[0] + ": ingress '" + f[3] +
			            "' is not SWITCH.PORTNAME");
		for (std::size_t i = 4; i <= 8; ++i) {
			if (f[i].empty() && (i == 8 || f[9] == "failed"))
				continue;
			bool ok = i == 6 ? parse_uint(f[i]).has_value()
			                 : parse_number(f[i]).has_value();
			if (!ok)
				throw Error(w + ": flow " + f[0] + ": " + col[i] + " '" + f[i] +
				            "' is not a number");
		}
		Flow fl;
		fl.name = f[0];
		fl.src = f[1];
		fl.dst = f[2];
		fl.ingress = f[3];
		fl.start_s = f[4];
		fl.end_s = f[5];
		fl.gbps = f[7].empty() ? 0 : *parse_number(f[7]);
		fl.fct_s = f[8];
		fl.ok = f[9] == "ok";
		flows.push_back(std::move(fl));
	}
	return flows;
}

namespace
{

// Fields of a telemetry row: names in columns 2 and 4 (1-based), whole
// numbers elsewhere.
std::vector<std::uint64_t> telemetry_row(const CsvTable &t, const CsvRow &r, std::size_t want)
{
	const auto &f = r.fields;
	if (f.size() != want)
		throw Error(strf("%s: expected %zu fields, found %zu", t.where(r).c_str(), want,
		                 f.size()));
	std::vector<std::uint64_t> v(want, 0);
	for (std::size_t i = 0; i < want; ++i) {
		bool ok;
		if (i == 1 || i == 3) {
			ok = is_name(f[i]);
		} else {
			auto n = parse_uint(f[i]);
			ok = n.has_value();
			if (ok)
				v[i] = *n;
		}
		if (!ok)
			throw Error(strf("%s: bad value '%s' in column %zu", t.where(r).c_str(),
			                 f[i].c_str(), i + 1));
	}
	return v;
}

} // namespace

Ports parse_ports(const std::string &path, std::string_view text)
{
	CsvTable t = parse_csv_exact(path, text, kPortsHeader);
	Ports p;
	bool have_last = false;
	std::uint64_t last = 0;
	for (const CsvRow &r : t.rows) {
		auto v = telemetry_row(t, r, 10);
		std::uint64_t time = v[0];
		if (have_last && time < last)
			throw Error(t.where(r) + ": time_us goes backwards");
		if (!have_last || time != last)
			p.times.push_back(time);
		have_last = true;
		last = time;
		auto &s = p.series[r.fields[1] + "." + r.fields[3]];
		PortSample ps{time, v[5], v[6], v[7], v[4], v[8]};
		if (!s.empty() && s.back().t_us == time)
			s.back() = ps;
		else
			s.push_back(ps);
	}
	return p;
}

Queues parse_queues(const std::string &path, std::string_view text, const std::string &bottleneck,
                    unsigned prio)
{
	CsvTable t = parse_csv_exact(path, text, kQueuesHeader);
	Queues q;
	bool have_last = false;
	std::uint64_t last = 0;
	for (const CsvRow &r : t.rows) {
		auto v = telemetry_row(t, r, 16);
		if (v[4] > 7)
			throw Error(strf("%s: priority %s is not 0..7", t.where(r).c_str(),
			                 r.fields[4].c_str()));
		std::uint64_t time = v[0];
		if (have_last && time < last)
			throw Error(t.where(r) + ": time_us goes backwards");
		if (!have_last || time != last)
			q.times.push_back(time);
		have_last = true;
		last = time;
		if (r.fields[1] + "." + r.fields[3] != bottleneck || v[4] != prio)
			continue;
		QueueSample s{time, v[5], v[7] != 0, v[10], v[14]};
		if (!q.bottleneck.empty() && q.bottleneck.back().t_us == time)
			q.bottleneck.back() = s;
		else
			q.bottleneck.push_back(s);
	}
	return q;
}

Flat parse_flat(const std::string &path, std::string_view text)
{
	Flat fl;
	each_line(text, [&](std::size_t n, std::string_view l) {
		auto first = l.find_first_not_of(" \t");
		if (first == std::string_view::npos || l[first] == '#')
			return;
		auto f = words(l);
		const std::string &k = f.empty() ? std::string() : f[0];
		bool ecn = k.size() > 10 && k.compare(k.size() - 10, 10, ".ecn_marks") == 0;
		const std::string kMaxQ = ".max_queue_bytes";
		bool maxq = k.size() > kMaxQ.size() &&
		            k.compare(k.size() - kMaxQ.size(), kMaxQ.size(), kMaxQ) == 0;
		// the totals only: sfc.NAME (a switch named sfc has sfc.X.Y keys)
		bool sfc = k.size() > 4 && k.compare(0, 4, "sfc.") == 0 &&
		           k.find('.', 4) == std::string::npos;
		bool counter = k == "total_drops" || k == "pfc_frames_sent" ||
		               k == "pfc_frames_rx" || ecn || maxq || sfc;
		if (f.size() < 2 || (counter && (f.size() != 2 || !parse_uint(f[1]))))
			throw Error(strf("%s:%zu: expected 'key value'%s, found '%s'", path.c_str(),
			                 n, counter ? " with a whole number" : "", str(l).c_str()));
		if (!counter)
			return;
		std::uint64_t v = *parse_uint(f[1]);
		if (k == "total_drops")
			fl.total_drops = v;
		else if (k == "pfc_frames_sent")
			fl.pfc_frames_sent = v;
		else if (k == "pfc_frames_rx")
			fl.pfc_frames_rx = v;
		else if (maxq)
			fl.max_queue_bytes[k.substr(0, k.size() - kMaxQ.size())] = v;
		else if (sfc)
			fl.sfc.emplace_back(k.substr(4), v);
		else
			fl.ecn_total += v;
	});
	return fl;
}

void HostCounters::add(const std::string &path, std::string_view text)
{
	++files;
	each_line(text, [&](std::size_t n, std::string_view l) {
		auto first = l.find_first_not_of(" \t");
		if (first == std::string_view::npos || l[first] == '#')
			return;
		auto f = words(l);
		if (f.size() != 2 || !is_name(f[0]) || !parse_uint(f[1]))
			throw Error(strf(
				"%s:%zu: expected 'name value' with a whole number, found '%s'",
				path.c_str(), n, str(l).c_str()));
		std::uint64_t v = *parse_uint(f[1]);
		for (auto &kv : sums)
			if (kv.first == f[0]) {
				kv.second += v;
				return;
			}
		sums.emplace_back(f[0], v);
	});
}

std::uint64_t parse_fabric_t0(const std::string &path, std::string_view text)
{
	std::string s(text);
	while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
		s.pop_back();
	auto dot = s.find('.');
	std::string whole = s.substr(0, dot),
		    frac = dot == std::string::npos ? "" : s.substr(dot + 1);
	auto w = parse_uint(whole);
	if (frac.size() > 9 || (!frac.empty() && !parse_uint(frac)) || !w || *w > 9999999999ULL)
		throw Error(path + ": '" + s +
		            "' is not a wall-clock time in seconds (e.g. 1764000000.123456)");
	frac.resize(9, '0');
	return *w * 1000000000ULL + *parse_uint(frac);
}

} // namespace rxecc::report
