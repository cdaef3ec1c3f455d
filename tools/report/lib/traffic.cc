#include "traffic.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "csv_table.h"
#include "error.h"

namespace rxecc::report
{

namespace
{

std::optional<std::uint64_t> opt_uint(const CsvTable &t, const CsvRow &r, std::size_t col,
                                      const char *name)
{
	const std::string &v = r.fields[col];
	if (v.empty())
		return std::nullopt;
	auto n = parse_uint(v);
	if (!n)
		throw Error(t.where(r) + ": " + name + " '" + v + "' is not a whole number");
	return n;
}

std::uint64_t need_uint(const CsvTable &t, const CsvRow &r, std::size_t col, const char *name)
{
	auto v = opt_uint(t, r, col, name);
	if (!v)
		throw Error(t.where(r) + ": " + name + " is empty");
	return *v;
}

} // namespace

TrafficHost parse_traffic(const std::string &name, const std::string &flows_path,
                          std::string_view flows_csv, const std::string &bins_path,
                          std::optional<std::string_view> bins_csv, const std::string &json_path,
                          std::string_view json)
{
	TrafficHost h;
	h.name = name;
	nlohmann::json j;
	try {
		j = nlohmann::json::parse(json);
	} catch (const nlohmann::json::exception &e) {
		throw Error(json_path + ": not JSON (" + e.what() + ")");
	}
	if (!j.is_object())
		throw Error(json_path + ": not a JSON object");
	// a whole number of ns; null: unknown (the host never reached T0)
	auto u64 = [&](const nlohmann::json &obj, const char *key,
	               bool required) -> std::optional<std::uint64_t> {
		if (!obj.contains(key) || obj[key].is_null()) {
			if (required && !obj.contains(key))
				throw Error(json_path + ": no \"" + key + "\"");
			return std::nullopt;
		}
		const auto &v = obj[key];
		if (!v.is_number_unsigned())
			throw Error(json_path + ": \"" + key + "\" is not a whole number of ns");
		return v.get<std::uint64_t>();
	};
	auto mono = u64(j, "t0_monotonic_ns", true), real = u64(j, "t0_realtime_ns", true);
	h.clock.known = mono && real;
	h.clock.t0_monotonic_ns = mono.value_or(0);
	h.clock.t0_realtime_ns = real.value_or(0);
	std::optional<std::uint64_t> bin_ns = u64(j, "bin_ns", false);
	if (!bin_ns && j.contains("settings") && j["settings"].is_object())
		bin_ns = u64(j["settings"], "bin_ns", false);
	if (bin_ns) {
		if (*bin_ns == 0)
			throw Error(json_path + ": \"bin_ns\" is 0");
		h.clock.bin_ns = *bin_ns;
	}

	CsvTable t = parse_csv(flows_path, flows_csv);
	std::map<std::string, std::size_t> col;
	for (const char *c : kTrafficFlowColumns)
		col[c] = t.need_column(c);
	std::map<std::string, bool> seen;
	for (const CsvRow &r : t.rows) {
		if (r.fields.size() != t.header.size())
			throw Error(strf("%s: expected %zu fields, found %zu", t.where(r).c_str(),
			                 t.header.size(), r.fields.size()));
		TrafficFlow f;
		f.host = name;
		f.flow = r.fields[col["flow"]];
		if (!is_name(f.flow))
			throw Error(t.where(r) + ": bad flow name '" + f.flow + "'");
		if (seen[f.flow])
			throw Error(t.where(r) + ": flow " + f.flow + " appears twice");
		seen[f.flow] = true;
		f.src = r.fields[col["src"]];
		f.dst = r.fields[col["dst"]];
		if (!is_name(f.src) || !is_name(f.dst))
			throw Error(t.where(r) + ": flow " + f.flow + ": bad src or dst '" + f.src +
			            "', '" + f.dst + "'");
		f.verb = r.fields[col["verb"]];
		f.status = r.fields[col["status"]];
		if (f.status.empty())
			throw Error(t.where(r) + ": flow " + f.flow + ": empty status");
		f.size_bytes = opt_uint(t, r, col["size_bytes"], "size_bytes");
		f.duration_ns = opt_uint(t, r, col["duration_ns"], "duration_ns");
		f.msg_bytes = opt_uint(t, r, col["msg_bytes"], "msg_bytes");
		f.qps = opt_uint(t, r, col["qps"], "qps");
		f.dscp = opt_uint(t, r, col["dscp"], "dscp");
		f.sched_start_ns = opt_uint(t, r, col["sched_start_ns"], "sched_start_ns");
		f.start_ns = opt_uint(t, r, col["start_ns"], "start_ns");
		f.first_byte_ns = opt_uint(t, r, col["first_byte_ns"], "first_byte_ns");
		f.last_byte_ns = opt_uint(t, r, col["last_byte_ns"], "last_byte_ns");
		f.complete_ns = opt_uint(t, r, col["complete_ns"], "complete_ns");
		f.bytes = opt_uint(t, r, col["bytes"], "bytes");
		f.msgs = opt_uint(t, r, col["msgs"], "msgs");
		f.retx = opt_uint(t, r, col["retx"], "retx");
		if (f.start_ns && f.complete_ns && *f.complete_ns < *f.start_ns)
			throw Error(t.where(r) + ": flow " + f.flow +
			            ": complete_ns before start_ns");
		const std::string &q = r.fields[col["qpns"]];
		std::string cur;
		for (std::size_t i = 0; i <= q.size(); ++i) {
			if (i == q.size() || q[i] == ' ' || q[i] == ';' || q[i] == '|') {
				if (!cur.empty()) {
					auto n = parse_uint(cur);
					if (!n)
						throw Error(t.where(r) + ": flow " + f.flow +
						            ": qpns '" + q +
						            "' is not a list of QP numbers");
					f.qpns.push_back(*n);
				}
				cur.clear();
			} else {
				cur += q[i];
			}
		}
		h.flows.push_back(std::move(f));
	}

	if (bins_csv) {
		CsvTable b = parse_csv(bins_path, *bins_csv);
		std::size_t cf = b.need_column("flow"), cs = b.need_column("bin_start_ns"),
			    cb = b.need_column("bytes");
		for (const CsvRow &r : b.rows) {
			if (r.fields.size() != b.header.size())
				throw Error(strf("%s: expected %zu fields, found %zu",
				                 b.where(r).c_str(), b.header.size(),
				                 r.fields.size()));
			TrafficBin bin;
			bin.flow = r.fields[cf];
			if (!seen.count(bin.flow))
				throw Error(b.where(r) + ": flow '" + bin.flow + "' is not in " +
				            flows_path);
			bin.start_ns = need_uint(b, r, cs, "bin_start_ns");
			bin.bytes = need_uint(b, r, cb, "bytes");
			h.bins.push_back(std::move(bin));
		}
	}
	return h;
}

MonitorFile parse_monitor(const std::string &host, const std::string &path, std::string_view text)
{
	MonitorFile m;
	m.host = host;
	CsvTable t = parse_csv(path, text);
	// Columns by name: the fixed ones must be there; ALGO.NAME columns are
	// state values, the QP counters (kMonitorCounters) are read when
	// present, and other columns (of a newer rxecc) are left alone.
	static const char *const fixed[] = {"time_ns", "dev",      "qpn",
	                                    "algo",    "rate_bps", "window_bytes"};
	std::size_t col[6];
	for (std::size_t i = 0; i < 6; ++i) {
		auto c = t.column(fixed[i]);
		if (!c)
			throw Error(path + ": header is '" + t.header_text +
			            "', which has no column '" + fixed[i] +
			            "' (expected time_ns,dev,qpn,algo,rate_bps,window_bytes,...)");
		col[i] = *c;
	}
	const std::optional<std::size_t> event = t.column("event");
	std::vector<std::size_t> state_cols, counter_cols;
	for (std::size_t i = 0; i < t.header.size(); ++i) {
		const std::string &c = t.header[i];
		if (std::find(std::begin(kMonitorCounters), std::end(kMonitorCounters), c) !=
		    std::end(kMonitorCounters)) {
			m.counter_columns.push_back(c);
			counter_cols.push_back(i);
			continue;
		}
		auto dot = c.find('.');
		if (dot == std::string::npos)
			continue;
		if (dot == 0 || dot + 1 == c.size())
			throw Error(path + ": state column '" + c + "' is not ALGO.NAME");
		m.state_columns.push_back(c);
		state_cols.push_back(i);
	}
	for (const CsvRow &r : t.rows) {
		const auto &f = r.fields;
		if (f.size() != t.header.size())
			throw Error(strf("%s: expected %zu fields, found %zu", t.where(r).c_str(),
			                 t.header.size(), f.size()));
		MonitorRow row;
		row.time_ns = need_uint(t, r, col[0], "time_ns");
		row.dev = f[col[1]];
		row.qpn = need_uint(t, r, col[2], "qpn");
		row.algo = f[col[3]];
		row.rate_bps = opt_uint(t, r, col[4], "rate_bps");
		row.window_bytes = opt_uint(t, r, col[5], "window_bytes");
		for (std::size_t i = 0; i < state_cols.size(); ++i)
			if (auto v = opt_uint(t, r, state_cols[i], m.state_columns[i].c_str()))
				row.state[m.state_columns[i]] = *v;
		for (std::size_t i = 0; i < counter_cols.size(); ++i)
			if (auto v = opt_uint(t, r, counter_cols[i], m.counter_columns[i].c_str()))
				row.counters[m.counter_columns[i]] = *v;
		if (event)
			row.event = f[*event];
		m.rows.push_back(std::move(row));
	}
	return m;
}

// ---- slowdown ---------------------------------------------------------------

std::uint64_t wire_bytes(std::uint64_t size, std::uint64_t msg, const WireModel &w)
{
	if (msg == 0 || msg > size)
		msg = size;
	auto packets = [&](std::uint64_t b) { return (b + w.mtu_bytes - 1) / w.mtu_bytes; };
	std::uint64_t pk = 0;
	if (msg > 0)
		pk = (size / msg) * packets(msg) + packets(size % msg);
	return size + pk * w.per_packet_bytes;
}

double ideal_fct_ns(std::uint64_t size, std::uint64_t msg, std::uint64_t base_rtt_ns,
                    const WireModel &w)
{
	return static_cast<double>(base_rtt_ns) + static_cast<double>(wire_bytes(size, msg, w)) *
	                                                  8e9 /
	                                                  static_cast<double>(w.line_rate_bps);
}

std::string size_label(std::uint64_t b)
{
	static const struct {
		std::uint64_t mult;
		const char *unit;
	} units[] = {{1000000000000ULL, "TB"},
	             {1000000000ULL, "GB"},
	             {1000000ULL, "MB"},
	             {1000ULL, "KB"}};
	for (const auto &u : units)
		if (b >= u.mult && b % (u.mult / 10) == 0) {
			if (b % u.mult == 0)
				return std::to_string(b / u.mult) + u.unit;
			return strf("%llu.%llu%s", static_cast<unsigned long long>(b / u.mult),
			            static_cast<unsigned long long>(b % u.mult / (u.mult / 10)),
			            u.unit);
		}
	return std::to_string(b) + "B";
}

std::vector<Bucket> make_buckets(const std::vector<std::uint64_t> &bounds)
{
	std::vector<Bucket> out;
	std::uint64_t lo = 0;
	for (std::uint64_t b : bounds) {
		out.push_back({lo, b,
		               size_label(lo) == "0B" ? "0-" + size_label(b)
		                                      : size_label(lo) + "-" + size_label(b)});
		lo = b;
	}
	out.push_back({lo, std::nullopt, (lo == 0 ? std::string("0") : size_label(lo)) + "-inf"});
	return out;
}

std::vector<std::uint64_t> log_bounds(std::uint64_t max_size)
{
	std::vector<std::uint64_t> out;
	for (std::uint64_t dec = 1000; dec <= max_size && dec <= 1000000000000000ULL; dec *= 10)
		for (std::uint64_t m : {1u, 2u, 5u})
			if (dec * m <= max_size)
				out.push_back(dec * m);
	return out;
}

SlowdownReport slowdowns(const std::vector<TrafficFlow> &flows, std::uint64_t base_rtt_ns,
                         const WireModel &w, const std::vector<std::uint64_t> &bounds)
{
	SlowdownReport rep;
	std::uint64_t max_size = 0;
	for (const TrafficFlow &f : flows) {
		if (!f.size_bytes || *f.size_bytes == 0)
			continue;
		if (f.status != "ok" || !f.start_ns || !f.complete_ns) {
			++rep.skipped;
			continue;
		}
		FlowSlowdown s;
		s.flow = f.flow;
		s.size = *f.size_bytes;
		s.fct_ns = static_cast<double>(*f.complete_ns - *f.start_ns);
		s.ideal_ns = ideal_fct_ns(s.size, f.msg_bytes.value_or(0), base_rtt_ns, w);
		s.slowdown = s.fct_ns / s.ideal_ns;
		max_size = std::max(max_size, s.size);
		rep.flows.push_back(s);
	}
	std::vector<double> all;
	for (const auto &s : rep.flows)
		all.push_back(s.slowdown);
	rep.all = distribution(all);
	auto fill = [&](const std::vector<std::uint64_t> &b) {
		std::vector<BucketStats> out;
		for (const Bucket &bk : make_buckets(b)) {
			std::vector<double> v, sizes;
			for (const auto &s : rep.flows)
				if (s.size >= bk.lo && (!bk.hi || s.size < *bk.hi)) {
					v.push_back(s.slowdown);
					sizes.push_back(static_cast<double>(s.size));
				}
			BucketStats st{bk, distribution(v), std::nullopt};
			if (!sizes.empty()) {
				std::sort(sizes.begin(), sizes.end());
				st.median_size = nearest_rank(sizes, 50);
			}
			out.push_back(st);
		}
		return out;
	};
	rep.buckets = fill(bounds);
	rep.fine = fill(log_bounds(max_size));
	return rep;
}

// ---- the experiment's flows.csv ---------------------------------------------

std::string flows_csv_from_traffic(const std::vector<TrafficHost> &hosts, const Alignment &al,
                                   const std::map<std::string, std::string> &host_port)
{
	if (!al.known)
		throw Error("the generator's times cannot be placed on the fabric's clock "
		            "(no fabric_t0 and no data seen at an ingress port)");
	std::string out = std::string(kFlowsHeader) + "\n";
	auto secs = [&](std::uint64_t ns) {
		return strf("%.6f",
		            (static_cast<double>(ns) + static_cast<double>(al.offset_ns)) / 1e9);
	};
	for (const TrafficHost &h : hosts)
		for (const TrafficFlow &f : h.flows) {
			bool ok = f.status == "ok";
			auto port = host_port.find(f.src);
			if (ok && (!f.start_ns || !f.complete_ns || !f.bytes ||
			           *f.complete_ns <= *f.start_ns))
				throw Error("flow " + f.flow +
				            ": ended ok without a start, a completion or bytes");
			if (ok && port == host_port.end())
				throw Error("flow " + f.flow + ": no port for its source host '" +
				            f.src + "'");
			std::string start, end, gbps = "0", fct;
			if (f.start_ns)
				start = secs(*f.start_ns);
			if (f.complete_ns)
				end = secs(*f.complete_ns);
			if (ok) {
				double d = static_cast<double>(*f.complete_ns - *f.start_ns);
				gbps = strf("%.6f", static_cast<double>(*f.bytes) * 8 / d);
				if (f.size_bytes)
					fct = strf("%.6f", d / 1e9);
			} else if (start.empty() || end.empty()) {
				start.clear();
				end.clear();
			}
			out += f.flow + "," + f.src + "," + f.dst + "," +
			       (port == host_port.end() ? std::string() : port->second) + "," +
			       start + "," + end + "," + std::to_string(f.bytes.value_or(0)) + "," +
			       gbps + "," + fct + "," + (ok ? "ok" : "failed") + "\n";
		}
	return out;
}

std::uint64_t probe_rtt_ns(const std::string &path, std::string_view messages_csv)
{
	CsvTable t = parse_csv(path, messages_csv);
	std::size_t cp = t.need_column("post_ns"), cc = t.need_column("complete_ns");
	std::vector<double> lat;
	for (const CsvRow &r : t.rows) {
		if (r.fields.size() != t.header.size())
			throw Error(strf("%s: expected %zu fields, found %zu", t.where(r).c_str(),
			                 t.header.size(), r.fields.size()));
		if (r.fields[cc].empty())
			continue;
		auto p = parse_uint(r.fields[cp]), c = parse_uint(r.fields[cc]);
		if (!p || !c || *c < *p)
			throw Error(t.where(r) + ": post_ns '" + r.fields[cp] + "', complete_ns '" +
			            r.fields[cc] +
			            "' are not times, the completion after the post");
		lat.push_back(static_cast<double>(*c - *p));
	}
	if (lat.size() < 5)
		throw Error(strf("%s: %zu completed messages, a base RTT needs at least 5",
		                 path.c_str(), lat.size()));
	std::sort(lat.begin(), lat.end());
	return static_cast<std::uint64_t>(nearest_rank(lat, 50));
}

std::vector<MessageRecord> parse_messages(const std::string &path, std::string_view messages_csv,
                                          const std::string &flow)
{
	CsvTable t = parse_csv(path, messages_csv);
	const std::size_t cf = t.need_column("flow"), cm = t.need_column("msg"),
			  cb = t.need_column("bytes"), cp = t.need_column("post_ns"),
			  cc = t.need_column("complete_ns");
	std::vector<MessageRecord> out;
	for (const CsvRow &r : t.rows) {
		if (r.fields.size() != t.header.size())
			throw Error(strf("%s: expected %zu fields, found %zu", t.where(r).c_str(),
			                 t.header.size(), r.fields.size()));
		if (r.fields[cf] != flow)
			continue;
		MessageRecord m;
		m.msg = need_uint(t, r, cm, "msg");
		m.bytes = need_uint(t, r, cb, "bytes");
		m.post_ns = need_uint(t, r, cp, "post_ns");
		m.complete_ns = opt_uint(t, r, cc, "complete_ns");
		if (m.complete_ns && *m.complete_ns < m.post_ns)
			throw Error(t.where(r) + ": complete_ns " + r.fields[cc] +
			            " is before post_ns " + r.fields[cp]);
		out.push_back(m);
	}
	return out;
}

// ---- clocks -----------------------------------------------------------------

Alignment align_clocks(const std::vector<TrafficHost> &hosts, std::uint64_t fabric_t0_ns,
                       const Ports &ports, const std::map<std::string, std::string> &host_port)
{
	Alignment al;
	const TrafficFlow *first = nullptr;
	const TrafficHost *first_host = nullptr;
	const TrafficHost *known = nullptr;
	for (const TrafficHost &h : hosts)
		if (h.clock.known && !known)
			known = &h;
	// the first flow to start, of those large enough to tell from the base
	// RTT probe on the same path (10 KB: see below) if there is one
	for (bool big : {true, false}) {
		for (const TrafficHost &h : hosts)
			for (const TrafficFlow &f : h.flows)
				if (h.clock.known && f.start_ns && host_port.count(f.src) &&
				    (!big || !f.size_bytes || *f.size_bytes >= 10000) &&
				    (!first ||
				     *f.start_ns + h.clock.t0_realtime_ns <
				             *first->start_ns + first_host->clock.t0_realtime_ns)) {
					first = &f;
					first_host = &h;
				}
		if (first)
			break;
	}
	if (!known)
		return al;
	const TrafficHost &ref = first_host ? *first_host : *known;
	if (fabric_t0_ns) {
		al.known = true;
		al.estimate_ns = static_cast<std::int64_t>(ref.clock.t0_realtime_ns) -
		                 static_cast<std::int64_t>(fabric_t0_ns);
		al.offset_ns = al.estimate_ns;
		al.method = "wall clock";
	}
	if (!first)
		return al;
	const std::string &port = host_port.at(first->src);
	auto it = ports.series.find(port);
	if (it == ports.series.end() || it->second.size() < 2)
		return al;
	const auto &s = it->second;
	// a packet's worth: at least one data packet of the flow, but more than
	// an ARP, ping or connection set-up message; and the flow's data goes
	// on: ten packets' worth (or the whole flow) within 20 ms, which the
	// base RTT probe on the same path (a few 64-byte writes and their
	// connection messages, bunched by a stall) does not send
	std::uint64_t thr = 1000;
	if (first->size_bytes && *first->size_bytes < thr)
		thr = std::max<std::uint64_t>(*first->size_bytes, 1);
	std::uint64_t more = 10 * thr;
	if (first->size_bytes && *first->size_bytes < more)
		more = std::max<std::uint64_t>(*first->size_bytes, 1);
	double est_us = al.known ? (static_cast<double>(*first->start_ns) +
	                            static_cast<double>(al.estimate_ns)) /
	                                   1e3
	                         : 0;
	for (std::size_t k = 1; k < s.size(); ++k) {
		if (s[k].rx_bytes < s[k - 1].rx_bytes || s[k].rx_bytes - s[k - 1].rx_bytes < thr)
			continue;
		std::size_t j = k;
		while (j + 1 < s.size() && s[j + 1].t_us <= s[k - 1].t_us + 20000)
			++j;
		if (s[j].rx_bytes - s[k - 1].rx_bytes < more)
			continue;
		double mid_us =
			(static_cast<double>(s[k - 1].t_us) + static_cast<double>(s[k].t_us)) / 2;
		if (al.known && std::fabs(mid_us - est_us) > 2e6)
			continue;
		al.offset_ns = static_cast<std::int64_t>(std::llround(mid_us * 1e3)) -
		               static_cast<std::int64_t>(*first->start_ns);
		if (!al.known)
			al.estimate_ns = al.offset_ns;
		al.known = true;
		al.method = "first data of flow " + first->flow + " at " + port;
		return al;
	}
	return al;
}

// ---- CC state ----------------------------------------------------------------

const std::vector<StateColumn> &state_columns()
{
	static const std::vector<StateColumn> cols = {
		{"dcqcn.target_rate_kbps", Role::kTarget, 1e-3, "target rate"},
		{"dcqcn.alpha", Role::kAlpha, 1.0 / 65536, "alpha"},
		{"dcqcn.cnp_handled", Role::kFeedback, 1, "CNPs handled"},
		{"dcqcn.rate_cuts", Role::kFeedback, 1, "rate cuts"},
	};
	return cols;
}

double monitor_fabric_s(std::uint64_t time_ns, const TrafficClock &clock, const Alignment &al)
{
	double rel = static_cast<double>(static_cast<std::int64_t>(time_ns) -
	                                 static_cast<std::int64_t>(clock.t0_monotonic_ns));
	return (rel + static_cast<double>(al.offset_ns)) / 1e9;
}

std::vector<CcPoint> cc_series(const TrafficFlow &flow, const MonitorFile &mon,
                               const TrafficClock &clock, const Alignment &al)
{
	std::vector<CcPoint> out;
	if (flow.qpns.empty() || !flow.start_ns || !clock.known)
		return out;
	std::int64_t t_lo = static_cast<std::int64_t>(clock.t0_monotonic_ns + *flow.start_ns);
	std::optional<std::int64_t> t_hi;
	if (flow.complete_ns)
		t_hi = static_cast<std::int64_t>(clock.t0_monotonic_ns + *flow.complete_ns);
	std::map<std::uint64_t, std::vector<const MonitorRow *>> by_time;
	for (const MonitorRow &r : mon.rows) {
		if (!r.event.empty())
			continue;
		if (std::find(flow.qpns.begin(), flow.qpns.end(), r.qpn) == flow.qpns.end())
			continue;
		auto t = static_cast<std::int64_t>(r.time_ns);
		if (t < t_lo || (t_hi && t > *t_hi))
			continue;
		by_time[r.time_ns].push_back(&r);
	}
	for (const auto &[t, rows] : by_time) {
		CcPoint p;
		p.t_s = monitor_fabric_s(t, clock, al);
		double alpha_sum = 0;
		int alpha_n = 0;
		for (const MonitorRow *r : rows) {
			if (r->rate_bps)
				p.rate_mbps = p.rate_mbps.value_or(0) +
				              static_cast<double>(*r->rate_bps) / 1e6;
			if (r->window_bytes && *r->window_bytes)
				p.window_kb = p.window_kb.value_or(0) +
				              static_cast<double>(*r->window_bytes) / 1e3;
			for (const StateColumn &c : state_columns()) {
				auto it = r->state.find(c.column);
				if (it == r->state.end())
					continue;
				double v = static_cast<double>(it->second) * c.scale;
				switch (c.role) {
				case Role::kTarget:
					p.target_mbps = p.target_mbps.value_or(0) + v;
					break;
				case Role::kAlpha:
					alpha_sum += v;
					++alpha_n;
					break;
				case Role::kFeedback: p.feedback[c.label] += v; break;
				}
			}
		}
		if (alpha_n)
			p.alpha = alpha_sum / alpha_n;
		out.push_back(std::move(p));
	}
	return out;
}

} // namespace rxecc::report
