#include "scenario.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "analysis.h"
#include "error.h"
#include "stats.h"

namespace rxecc::report
{

Series centred_rate(const std::vector<PortSample> &s, double avg_us, std::uint64_t overhead)
{
	Series out;
	std::size_t lo = 0, hi = 0;
	auto wire = [&](const PortSample &p) {
		return static_cast<double>(p.rx_bytes) +
		       static_cast<double>(p.rx_frames) * static_cast<double>(overhead);
	};
	for (std::size_t k = 0; k < s.size(); ++k) {
		const double t = static_cast<double>(s[k].t_us);
		while (lo < s.size() && static_cast<double>(s[lo].t_us) < t - avg_us / 2)
			++lo;
		if (hi < k)
			hi = k;
		while (hi + 1 < s.size() && static_cast<double>(s[hi + 1].t_us) <= t + avg_us / 2)
			++hi;
		if (hi <= lo || s[hi].t_us <= s[lo].t_us || wire(s[hi]) < wire(s[lo]))
			continue;
		out.emplace_back(t, (wire(s[hi]) - wire(s[lo])) * 8 /
		                            static_cast<double>(s[hi].t_us - s[lo].t_us));
	}
	return out;
}

std::optional<std::pair<double, double>> data_span(const std::vector<PortSample> &s, double from_us,
                                                   double to_us, std::uint64_t min_bytes)
{
	std::optional<std::pair<double, double>> span;
	for (std::size_t k = 1; k < s.size(); ++k) {
		const double t = static_cast<double>(s[k].t_us);
		if (t < from_us || t > to_us || s[k].rx_bytes < s[k - 1].rx_bytes ||
		    s[k].rx_bytes - s[k - 1].rx_bytes < std::max<std::uint64_t>(min_bytes, 1))
			continue;
		if (!span)
			span = std::make_pair(static_cast<double>(s[k - 1].t_us), t);
		span->second = t;
	}
	return span;
}

Series forward_means(const std::vector<PortSample> &s, double from_us, double until_us,
                     double hold_us, std::uint64_t overhead)
{
	auto wire = [&](const PortSample &p) {
		return static_cast<double>(p.rx_bytes) +
		       static_cast<double>(p.rx_frames) * static_cast<double>(overhead);
	};
	Series out;
	std::size_t j = 0;
	for (std::size_t k = 0; k < s.size(); ++k) {
		const double t = static_cast<double>(s[k].t_us);
		if (t < from_us)
			continue;
		if (t + hold_us > until_us)
			break;
		j = std::max(j, k);
		while (j + 1 < s.size() && static_cast<double>(s[j + 1].t_us) <= t + hold_us)
			++j;
		if (j == k || wire(s[j]) < wire(s[k]))
			continue;
		out.emplace_back(t, (wire(s[j]) - wire(s[k])) * 8 /
		                            static_cast<double>(s[j].t_us - s[k].t_us));
	}
	return out;
}

std::optional<double> first_at_least(const Series &series, double threshold)
{
	for (const auto &[t, v] : series)
		if (v >= threshold)
			return t;
	return std::nullopt;
}

std::optional<Drain> queue_drain(const Series &q, double from_us, double to_us, double threshold)
{
	std::optional<std::size_t> peak;
	for (std::size_t k = 0; k < q.size(); ++k)
		if (q[k].first >= from_us && q[k].first <= to_us &&
		    (!peak || q[k].second > q[*peak].second))
			peak = k;
	if (!peak)
		return std::nullopt;
	Drain d;
	d.peak_t_us = q[*peak].first;
	d.peak_bytes = q[*peak].second;
	for (std::size_t k = *peak; k < q.size(); ++k)
		if (q[k].second <= threshold) {
			d.drained_t_us = q[k].first;
			break;
		}
	return d;
}

std::vector<Step> flow_steps(const std::vector<std::tuple<std::string, double, double>> &flows)
{
	std::set<double> b;
	for (const auto &[n, s, e] : flows)
		if (e > s) {
			b.insert(s);
			b.insert(e);
		}
	std::vector<double> bs(b.begin(), b.end());
	std::vector<Step> out;
	for (std::size_t i = 0; i + 1 < bs.size(); ++i) {
		Step st{bs[i], bs[i + 1], {}};
		for (const auto &[n, s, e] : flows)
			if (e > s && s <= bs[i] && e >= bs[i + 1])
				st.flows.push_back(n);
		if (st.flows.empty())
			continue;
		if (!out.empty() && out.back().flows == st.flows && out.back().t1_us == st.t0_us)
			out.back().t1_us = st.t1_us;
		else
			out.push_back(std::move(st));
	}
	return out;
}

MiceLatency mice_latency(const std::string &path, const std::string &flow,
                         const std::vector<MessageRecord> &msgs, double warmup_us,
                         std::size_t min_messages)
{
	if (msgs.empty())
		throw Error(path + ": no message of flow " + flow +
		            " (the mice flow; are its messages recorded?)");
	MiceLatency m;
	m.flow = flow;
	m.msg_bytes = msgs.front().bytes;
	m.warmup_us = warmup_us;
	std::uint64_t first = msgs.front().post_ns;
	for (const MessageRecord &r : msgs)
		first = std::min(first, r.post_ns);
	std::vector<double> lat;
	for (const MessageRecord &r : msgs) {
		const double since_us = static_cast<double>(r.post_ns - first) / 1e3;
		if (since_us < warmup_us) {
			++m.warmup;
			continue;
		}
		if (!r.complete_ns) {
			++m.incomplete;
			continue;
		}
		const double us = static_cast<double>(*r.complete_ns - r.post_ns) / 1e3;
		lat.push_back(us);
		m.points.emplace_back(since_us / 1e6, us);
	}
	if (lat.size() < std::max<std::size_t>(min_messages, 1))
		throw Error(strf("%s: %zu completed messages of flow %s after its first %.3f s "
		                 "(%zu posted in them, %zu not completed); the mice latency needs "
		                 "at least %zu",
		                 path.c_str(), lat.size(), flow.c_str(), warmup_us / 1e6, m.warmup,
		                 m.incomplete, std::max<std::size_t>(min_messages, 1)));
	std::sort(m.points.begin(), m.points.end());
	m.messages = lat.size();
	m.us = *distribution(std::move(lat));
	return m;
}

namespace
{

std::string fmt(double x, int prec)
{
	return strf("%.*f", prec, x);
}

const Flow *find_flow(const RunInputs &in, const std::string &name)
{
	for (const Flow &f : in.flows)
		if (f.name == name)
			return &f;
	return nullptr;
}

// Why FLOW (a role of meta.env KEY) cannot be measured, or "".
std::string unusable(const RunInputs &in, const Flow *f, const std::string &key,
                     const std::string &name)
{
	if (!f)
		return key + " " + name + " is not a flow of flows.csv";
	if (!f->ok)
		return "flow " + name + " failed";
	if (f->ingress.empty() || !in.ports.series.count(f->ingress))
		return "flow " + name + " has no ingress port in ports.csv";
	if (!parse_number(f->start_s) || !parse_number(f->end_s))
		return "flow " + name + " has no start or end time in flows.csv";
	for (const Flow &o : in.flows)
		if (&o != f && o.ingress == f->ingress)
			return "flow " + name + " shares its ingress port " + f->ingress +
			       " with flow " + o.name;
	return "";
}

// The flow's data at its ingress: growth of at least a packet (1000 bytes,
// more than a connection message) per interval from its start to 5 ms
// after its completion.
std::optional<std::pair<double, double>> flow_span(const RunInputs &in, const Flow &f)
{
	return data_span(in.ports.series.at(f.ingress), *parse_number(f.start_s) * 1e6,
	                 *parse_number(f.end_s) * 1e6 + 5000, 1000);
}

// The first sample at or after T0 and the last at or before T1, if they
// are two.
std::optional<std::pair<std::size_t, std::size_t>> sample_span(const std::vector<PortSample> &s,
                                                               double t0, double t1)
{
	std::optional<std::size_t> a, b;
	for (std::size_t k = 0; k < s.size(); ++k) {
		const double t = static_cast<double>(s[k].t_us);
		if (t >= t0 && !a)
			a = k;
		if (t <= t1)
			b = k;
	}
	if (!a || !b || *b <= *a)
		return std::nullopt;
	return std::make_pair(*a, *b);
}

// Mean wire rate (Mbit/s) of a port's received frames between the first
// sample at or after T0 and the last at or before T1; nullopt with fewer
// than two samples.
std::optional<double> mean_wire_mbps(const std::vector<PortSample> &s, double t0, double t1,
                                     std::uint64_t overhead, bool with_overhead)
{
	const auto span = sample_span(s, t0, t1);
	if (!span)
		return std::nullopt;
	const auto [a, b] = *span;
	if (s[b].rx_bytes < s[a].rx_bytes || s[b].rx_frames < s[a].rx_frames)
		return std::nullopt;
	double bytes = static_cast<double>(s[b].rx_bytes - s[a].rx_bytes);
	if (with_overhead)
		bytes += static_cast<double>(s[b].rx_frames - s[a].rx_frames) *
		         static_cast<double>(overhead);
	return bytes * 8 / static_cast<double>(s[b].t_us - s[a].t_us);
}

void long_short(const RunInputs &in, const Options &opt, std::optional<std::uint64_t> rtt,
                Analysis &A)
{
	const Settings &set = in.set;
	const ScenarioOptions &so = opt.scenario;
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	std::string &T = A.text;
	const double line = static_cast<double>(set.link_rate_bps) / 1e6;
	const double thr = so.recovery_fraction * line;
	T += strf("long flow recovery (long %s, short %s; rate: wire Mbit/s at its ingress; "
	          "recovered: its mean over the next %.0f ms >= %.0f %% of %.3f Mbit/s)\n",
	          set.long_flow.c_str(), set.short_flow.c_str(), so.hold_us / 1e3,
	          so.recovery_fraction * 100, line);
	const Flow *lf = find_flow(in, set.long_flow), *sf = find_flow(in, set.short_flow);
	std::string why = unusable(in, lf, "long_flow", set.long_flow);
	if (why.empty())
		why = unusable(in, sf, "short_flow", set.short_flow);
	std::optional<std::pair<double, double>> ls, ss;
	if (why.empty()) {
		ls = flow_span(in, *lf);
		ss = flow_span(in, *sf);
		if (!ls)
			why = "no data of the long flow at its ingress port";
		else if (!ss)
			why = "no data of the short flow at its ingress port";
		else if (ss->second >= ls->second)
			why = "the short flow's data ends after the long flow's";
	}
	const char *keys[] = {"short_start_s",      "short_end_s",      "long_alone_pct",
	                      "long_after_max_pct", "recovery_ms",      "recovery_rtts",
	                      "recovery_pre_ms",    "recovery_pre_rtts"};
	if (!why.empty()) {
		for (const char *k : keys)
			kv(k, "n/a");
		kv("recovery_note", why);
		T += "  n/a: " + why + "\n";
		return;
	}
	const auto &LS = in.ports.series.at(lf->ingress);
	Series rate = centred_rate(LS, so.rate_avg_us, set.overhead);
	// the long flow's own data only: after its end the rate falls to 0
	rate.erase(std::remove_if(rate.begin(), rate.end(),
	                          [&](const auto &p) { return p.first > ls->second; }),
	           rate.end());
	const double s_end = ss->second;
	auto alone = mean_wire_mbps(LS, ls->first + so.settle_us, ss->first, set.overhead, true);
	const Series means = forward_means(LS, s_end, ls->second, so.hold_us, set.overhead);
	if (means.empty()) {
		why = strf("the long flow's data ends less than %.0f ms after the short flow's",
		           so.hold_us / 1e3);
		for (const char *k : keys)
			kv(k, "n/a");
		kv("recovery_note", why);
		T += "  n/a: " + why + "\n";
		return;
	}
	double after_max = 0;
	for (const auto &[t, v] : means)
		after_max = std::max(after_max, v);
	auto rec = first_at_least(means, thr);
	std::optional<double> rec_pre;
	if (alone)
		rec_pre = first_at_least(means, so.recovery_fraction * *alone);
	auto ms = [&](const std::optional<double> &t) {
		return t ? fmt((*t - s_end) / 1e3, 1) : std::string("n/a");
	};
	auto rtts = [&](const std::optional<double> &t) {
		return t && rtt ? fmt((*t - s_end) * 1e3 / static_cast<double>(*rtt), 1)
		                : std::string("n/a");
	};
	kv("short_start_s", fmt(ss->first / 1e6, 6));
	kv("short_end_s", fmt(s_end / 1e6, 6));
	kv("long_alone_pct", alone ? fmt(*alone * 100 / line, 2) : "n/a");
	kv("long_after_max_pct", fmt(after_max * 100 / line, 2));
	kv("recovery_ms", ms(rec));
	kv("recovery_rtts", rtts(rec));
	kv("recovery_pre_ms", ms(rec_pre));
	kv("recovery_pre_rtts", rtts(rec_pre));
	std::string note;
	const double left = (ls->second - s_end) / 1e3;
	if (!rec)
		note = strf("not recovered: the long flow's mean rate over %.0f ms never reached "
		            "%.0f %% of the line rate in the %.0f ms after the short flow (at most "
		            "%.1f %%)",
		            so.hold_us / 1e3, so.recovery_fraction * 100, left,
		            after_max * 100 / line);
	else if (!rtt)
		note = "no base RTT (base_rtt_ns in meta.env or --base-rtt): recovery in RTTs n/a";
	kv("recovery_note", note.empty() ? "n/a" : note);
	T += strf("  %-24s %.3f .. %.3f s (its data at its ingress)\n", "short flow",
	          ss->first / 1e6, s_end / 1e6);
	T += strf("  %-24s %s %% of the line rate (before the short flow, after %.0f ms)\n",
	          "long flow alone", alone ? fmt(*alone * 100 / line, 1).c_str() : "n/a",
	          so.settle_us / 1e3);
	T += strf("  %-24s %s\n", "recovery (line rate)",
	          rec ? strf("%s ms = %s base RTTs after the short flow's end", ms(rec).c_str(),
	                     rtts(rec).c_str())
	                          .c_str()
	              : note.c_str());
	T += strf("  %-24s %s\n", "recovery (alone rate)",
	          rec_pre ? strf("%s ms = %s base RTTs (>= %.0f %% of its rate alone)",
	                         ms(rec_pre).c_str(), rtts(rec_pre).c_str(),
	                         so.recovery_fraction * 100)
	                            .c_str()
	          : alone ? "not recovered"
	                  : "n/a (no rate alone)");

	FocusPlot fp;
	fp.kind = "recovery";
	fp.ylabel = "Mbit/s (wire, " + fmt(so.rate_avg_us / 1e3, 0) + " ms mean)";
	fp.event = "the short flow's end";
	fp.columns = {set.long_flow, set.short_flow};
	fp.threshold = thr;
	if (rec)
		fp.mark_s = (*rec - s_end) / 1e6;
	// from before the short flow joined to a second after the recovery
	fp.x0_s = -(s_end - ss->first) / 1e6 - 0.2;
	fp.x1_s = std::min((ls->second - s_end) / 1e6, std::max(1.0, fp.mark_s.value_or(0) + 0.5));
	Series srate = centred_rate(in.ports.series.at(sf->ingress), so.rate_avg_us, set.overhead);
	std::map<double, double> sr(srate.begin(), srate.end());
	for (const auto &[t, v] : rate) {
		auto it = sr.find(t);
		fp.rows.push_back(
			{(t - s_end) / 1e6, v,
		         it == sr.end() ? std::numeric_limits<double>::quiet_NaN() : it->second});
	}
	A.focus = std::move(fp);
}

void incast_long(const RunInputs &in, const Options &opt, std::optional<std::uint64_t> rtt,
                 Analysis &A)
{
	const Settings &set = in.set;
	const ScenarioOptions &so = opt.scenario;
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	std::string &T = A.text;
	const double frame = static_cast<double>(set.mtu_bytes + set.header_bytes);
	T += strf("incast into the long flow %s (%zu incast flows; drained: the queue at or "
	          "below max(one frame, its p50 in the %.0f ms before the burst))\n",
	          set.long_flow.c_str(), set.incast_flows.size(), so.pre_burst_us / 1e3);
	std::string why;
	std::optional<std::pair<double, double>> burst;
	for (const std::string &n : set.incast_flows) {
		const Flow *f = find_flow(in, n);
		why = unusable(in, f, "incast_flows", n);
		if (!why.empty())
			break;
		auto sp = flow_span(in, *f);
		if (!sp) {
			why = "no data of incast flow " + n + " at its ingress port";
			break;
		}
		if (!burst)
			burst = sp;
		burst->first = std::min(burst->first, sp->first);
		burst->second = std::max(burst->second, sp->second);
	}
	Series q;
	for (const QueuePoint &p : A.queue)
		q.emplace_back(static_cast<double>(p.t_us), static_cast<double>(p.bytes));
	std::optional<Drain> d;
	double thr = frame, pre50 = 0;
	if (why.empty()) {
		std::vector<double> pre;
		for (const auto &[t, v] : q)
			if (t < burst->first && t >= burst->first - so.pre_burst_us)
				pre.push_back(v);
		std::sort(pre.begin(), pre.end());
		if (!pre.empty())
			pre50 = nearest_rank(pre, 50);
		thr = std::max(frame, pre50);
		d = queue_drain(q, burst->first, burst->second, thr);
		if (!d)
			why = "no queue sample during the burst";
	}
	const char *keys[] = {"burst_start_s",  "burst_end_s",        "incast_peak_kb",
	                      "incast_peak_ms", "drain_threshold_kb", "drain_ms",
	                      "drain_rtts"};
	if (!why.empty()) {
		for (const char *k : keys)
			kv(k, "n/a");
		kv("drain_note", why);
		T += "  n/a: " + why + "\n";
		return;
	}
	const double b0 = burst->first;
	auto rel_ms = [&](double t) { return fmt((t - b0) / 1e3, 1); };
	kv("burst_start_s", fmt(b0 / 1e6, 6));
	kv("burst_end_s", fmt(burst->second / 1e6, 6));
	kv("incast_peak_kb", fmt(d->peak_bytes / 1000, 3));
	kv("incast_peak_ms", rel_ms(d->peak_t_us));
	kv("drain_threshold_kb", fmt(thr / 1000, 3));
	kv("drain_ms", d->drained_t_us ? rel_ms(*d->drained_t_us) : "n/a");
	kv("drain_rtts", d->drained_t_us && rtt
	                         ? fmt((*d->drained_t_us - b0) * 1e3 / static_cast<double>(*rtt), 1)
	                         : "n/a");
	std::string note;
	if (!d->drained_t_us)
		note = strf("not drained: the queue stayed above %.1f KB after its peak until the "
		            "end of the telemetry",
		            thr / 1000);
	else if (!rtt)
		note = "no base RTT (base_rtt_ns in meta.env or --base-rtt): drain in RTTs n/a";
	kv("drain_note", note.empty() ? "n/a" : note);
	T += strf("  %-24s %.3f .. %.3f s (the incast flows' data at their ingress)\n", "burst",
	          b0 / 1e6, burst->second / 1e6);
	T += strf("  %-24s %.1f KB, %s ms after the burst's start\n", "queue peak",
	          d->peak_bytes / 1000, rel_ms(d->peak_t_us).c_str());
	T += strf("  %-24s %.1f KB (p50 before the burst %.1f KB, a frame %.0f B)\n",
	          "drain threshold", thr / 1000, pre50 / 1000, frame);
	if (d->drained_t_us)
		T += strf("  %-24s %s ms after the burst's start = %s base RTTs\n", "drained",
		          rel_ms(*d->drained_t_us).c_str(),
		          rtt ? fmt((*d->drained_t_us - b0) * 1e3 / static_cast<double>(*rtt), 1)
		                          .c_str()
		              : "n/a");
	else
		T += strf("  %-24s %s\n", "drained", note.c_str());

	FocusPlot fp;
	fp.kind = "drain";
	fp.ylabel = "queue (KB)";
	fp.event = "the burst's start";
	fp.columns = {"queue"};
	fp.threshold = thr / 1000;
	if (d->drained_t_us)
		fp.mark_s = (*d->drained_t_us - b0) / 1e6;
	fp.x0_s = -0.2;
	fp.x1_s = std::max((burst->second - b0) / 1e6, fp.mark_s.value_or(0)) + 0.3;
	for (const auto &[t, v] : q)
		fp.rows.push_back({(t - b0) / 1e6, v / 1000});
	A.focus = std::move(fp);
}

void mice(const RunInputs &in, const Options &opt, std::optional<std::uint64_t> rtt, Analysis &A)
{
	const Settings &set = in.set;
	const ScenarioOptions &so = opt.scenario;
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	std::string &T = A.text;
	if (in.messages_path.empty())
		throw Error(in.results + "/traffic: no messages.csv read for the mice flow " +
		            set.mice_flow + " (meta.env mice_flow)");
	MiceLatency m = mice_latency(in.messages_path, set.mice_flow, in.mice_messages,
	                             so.mice_warmup_us, so.mice_min_messages);
	std::string status;
	for (const TrafficHost &h : in.traffic)
		for (const TrafficFlow &f : h.flows)
			if (f.flow == set.mice_flow)
				status = f.status;
	std::optional<double> ideal_us;
	if (rtt) {
		m.base_rtt_us = static_cast<double>(*rtt) / 1e3;
		const WireModel w{set.link_rate_bps, set.mtu_bytes,
		                  set.header_bytes + set.overhead};
		ideal_us = ideal_fct_ns(m.msg_bytes, m.msg_bytes, *rtt, w) / 1e3;
	}
	auto rtts = [&](double us) { return m.base_rtt_us ? fmt(us / *m.base_rtt_us, 2) : "n/a"; };
	std::string note;
	if (!status.empty() && status != "ok")
		note = "flow " + set.mice_flow + " ended with status " + status +
		       ": its completed messages only";
	if (!rtt)
		note += std::string(note.empty() ? "" : "; ") +
		        "no base RTT (base_rtt_ns in meta.env or --base-rtt): latency in RTTs n/a";
	kv("mice_flow", set.mice_flow);
	kv("mice_msg_bytes", std::to_string(m.msg_bytes));
	kv("mice_warmup_s", fmt(so.mice_warmup_us / 1e6, 3));
	kv("mice_messages", std::to_string(m.messages));
	kv("mice_warmup_messages", std::to_string(m.warmup));
	kv("mice_incomplete_messages", std::to_string(m.incomplete));
	kv("mice_p50_us", fmt(m.us.p50, 1));
	kv("mice_p95_us", fmt(m.us.p95, 1));
	kv("mice_p99_us", fmt(m.us.p99, 1));
	kv("mice_mean_us", fmt(m.us.mean, 1));
	kv("mice_max_us", fmt(m.us.max, 1));
	kv("mice_base_rtt_us", m.base_rtt_us ? fmt(*m.base_rtt_us, 1) : "n/a");
	kv("mice_ideal_us", ideal_us ? fmt(*ideal_us, 1) : "n/a");
	kv("mice_p50_rtts", rtts(m.us.p50));
	kv("mice_p99_rtts", rtts(m.us.p99));
	kv("mice_note", note.empty() ? "n/a" : note);
	T += strf("mice latency (flow %s: complete_ns - post_ns of its %llu-byte messages; the "
	          "first %g s after its first message left out)\n",
	          set.mice_flow.c_str(), static_cast<unsigned long long>(m.msg_bytes),
	          so.mice_warmup_us / 1e6);
	T += strf("  %-24s %zu counted (%zu in the warm-up, %zu not completed)\n", "messages",
	          m.messages, m.warmup, m.incomplete);
	T += strf("  %-24s %.1f / %.1f / %.1f us (mean %.1f, max %.1f)\n", "latency p50/p95/p99",
	          m.us.p50, m.us.p95, m.us.p99, m.us.mean, m.us.max);
	if (rtt) {
		T += strf("  %-24s %.1f us (one message alone at the line rate: %.1f us)\n",
		          "base RTT", *m.base_rtt_us, *ideal_us);
		T += strf("  %-24s p50 %s, p99 %s\n", "over the base RTT", rtts(m.us.p50).c_str(),
		          rtts(m.us.p99).c_str());
	}
	if (!note.empty())
		T += "  " + note + "\n";
	A.mice = std::move(m);
}

void fairness_steps(const RunInputs &in, const Options &opt, Analysis &A)
{
	const double settle = opt.scenario.settle_us;
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	std::string &T = A.text;
	std::vector<std::tuple<std::string, double, double>> fl;
	std::map<std::string, const Flow *> by;
	std::string why;
	for (const Flow &f : in.flows) {
		if (f.name == in.set.victim || !f.ok)
			continue;
		std::string u = unusable(in, &f, "flow", f.name);
		if (!u.empty()) {
			why = u;
			break;
		}
		fl.emplace_back(f.name, *parse_number(f.start_s) * 1e6,
		                *parse_number(f.end_s) * 1e6);
		by[f.name] = &f;
	}
	T += strf("Jain fairness per step (the flows' start..end in flows.csv; the first %.0f "
	          "ms of each step left out)\n",
	          settle / 1e3);
	if (!why.empty()) {
		kv("jain_steps", "n/a");
		kv("jain_step_min", "n/a");
		kv("jain_step_note", why);
		T += "  n/a: " + why + "\n";
		return;
	}
	std::vector<Step> steps = flow_steps(fl);
	T += strf("  %-4s %10s %10s %6s %8s\n", "step", "start [s]", "end [s]", "flows", "Jain");
	double jmin = 1;
	std::size_t counted = 0;
	for (std::size_t i = 0; i < steps.size(); ++i) {
		const Step &st = steps[i];
		std::vector<double> x;
		bool ok = st.t1_us - st.t0_us > settle;
		for (const std::string &n : st.flows) {
			if (!ok)
				break;
			auto r = mean_wire_mbps(in.ports.series.at(by[n]->ingress),
			                        st.t0_us + settle, st.t1_us, 0, false);
			if (!r)
				ok = false;
			else
				x.push_back(*r);
		}
		// (no std::optional here: GCC 12 sees it as maybe uninitialised)
		const std::optional<double> jo = ok ? jain_index(x) : std::nullopt;
		const bool have = jo.has_value();
		const double j = jo.value_or(0);
		std::string k = "jain_step." + std::to_string(i + 1) + ".";
		kv(k + "start_s", fmt(st.t0_us / 1e6, 6));
		kv(k + "end_s", fmt(st.t1_us / 1e6, 6));
		kv(k + "flows", std::to_string(st.flows.size()));
		kv(k + "jain", have ? fmt(j, 4) : "n/a");
		T += strf("  %-4zu %10.3f %10.3f %6zu %8s%s\n", i + 1, st.t0_us / 1e6,
		          st.t1_us / 1e6, st.flows.size(), have ? fmt(j, 3).c_str() : "n/a",
		          !ok ? "  (shorter than the settling time and two samples)"
		          : st.flows.size() < 2 ? "  (one flow)"
		                                : "");
		if (have && st.flows.size() >= 2) {
			jmin = counted ? std::min(jmin, j) : j;
			++counted;
		}
	}
	kv("jain_steps", std::to_string(counted));
	kv("jain_step_min", counted ? fmt(jmin, 4) : "n/a");
	kv("jain_step_note",
	   counted ? "n/a" : "no step with two or more flows long enough to settle");
	T += strf("  %-24s %s (over %zu steps with two or more flows)\n", "lowest",
	          counted ? fmt(jmin, 3).c_str() : "n/a", counted);
}

// Mean rate (Mbit/s) of a port's FIELD bytes from the first sample at or
// after T0 to the last at or before T1; nullopt with fewer than two.
std::optional<double> mean_mbps(const std::vector<PortSample> &s, double t0, double t1,
                                std::uint64_t PortSample::*field)
{
	const auto span = sample_span(s, t0, t1);
	if (!span)
		return std::nullopt;
	const auto [a, b] = *span;
	if (s[b].*field < s[a].*field)
		return std::nullopt;
	return static_cast<double>(s[b].*field - s[a].*field) * 8 /
	       static_cast<double>(s[b].t_us - s[a].t_us);
}

// The PFC frames (XOFF and XON) the ports of P that TO_HOSTS says (a
// host's port, or not: a link between switches) sent from the first sample
// at or after T0 to the last at or before T1, summed; nullopt if one of
// them has fewer than two samples there.
std::optional<std::uint64_t> pfc_sent(const RunInputs &in, bool to_hosts, double t0, double t1)
{
	std::set<std::string> hosts;
	for (const auto &[h, port] : in.host_port)
		hosts.insert(port);
	std::uint64_t n = 0;
	for (const auto &[name, s] : in.ports.series) {
		if (hosts.count(name) != static_cast<std::size_t>(to_hosts))
			continue;
		const auto span = sample_span(s, t0, t1);
		if (!span || s[span->second].tx_control_frames < s[span->first].tx_control_frames)
			return std::nullopt;
		n += s[span->second].tx_control_frames - s[span->first].tx_control_frames;
	}
	return n;
}

void step_rates(const RunInputs &in, const Options &opt, Analysis &A)
{
	const double settle = opt.scenario.settle_us;
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	std::string &T = A.text;
	const std::vector<FlowPort> ports = flow_ports(in);
	std::vector<std::tuple<std::string, double, double>> fl;
	std::map<std::string, std::size_t> idx;
	for (std::size_t i = 0; i < in.flows.size(); ++i) {
		const Flow &f = in.flows[i];
		if (!f.ok || ports[i].port.empty() || !in.ports.series.count(ports[i].port) ||
		    !parse_number(f.start_s) || !parse_number(f.end_s))
			continue;
		fl.emplace_back(f.name, *parse_number(f.start_s) * 1e6,
		                *parse_number(f.end_s) * 1e6);
		idx[f.name] = i;
	}
	T += strf("rates per step [Mbit/s] (each flow at its own port; the first %.0f ms of "
	          "each step left out), and the PFC frames the fabric sent meanwhile to "
	          "hosts and to switches\n",
	          settle / 1e3);
	std::vector<Step> steps = flow_steps(fl);
	T += strf("  %-4s %10s %10s", "step", "start [s]", "end [s]");
	for (const auto &f : fl)
		T += strf(" %8s", std::get<0>(f).c_str());
	T += strf(" %9s %9s\n", "PFC>host", "PFC>sw");
	for (std::size_t k = 0; k < steps.size(); ++k) {
		const Step &st = steps[k];
		const std::string key = "step." + std::to_string(k + 1) + ".";
		kv(key + "start_s", fmt(st.t0_us / 1e6, 6));
		kv(key + "end_s", fmt(st.t1_us / 1e6, 6));
		T += strf("  %-4zu %10.3f %10.3f", k + 1, st.t0_us / 1e6, st.t1_us / 1e6);
		for (const auto &f : fl) {
			const std::string &n = std::get<0>(f);
			if (std::find(st.flows.begin(), st.flows.end(), n) == st.flows.end()) {
				T += strf(" %8s", "-");
				continue;
			}
			const FlowPort &p = ports[idx[n]];
			std::optional<double> r;
			if (st.t1_us - st.t0_us > settle)
				r = mean_mbps(in.ports.series.at(p.port), st.t0_us + settle,
				              st.t1_us,
				              p.tx ? &PortSample::tx_bytes : &PortSample::rx_bytes);
			kv(key + n + ".rate_mbps", r ? fmt(*r, 3) : "n/a");
			T += strf(" %8s", r ? fmt(*r, 2).c_str() : "n/a");
		}
		for (const bool to_hosts : {true, false}) {
			std::optional<std::uint64_t> c;
			if (st.t1_us - st.t0_us > settle)
				c = pfc_sent(in, to_hosts, st.t0_us + settle, st.t1_us);
			const std::string v = c ? std::to_string(*c) : "n/a";
			kv(key + (to_hosts ? "pfc_to_hosts" : "pfc_to_switches"), v);
			T += strf(" %9s", v.c_str());
		}
		T += "\n";
	}
}

} // namespace

std::vector<FlowPort> flow_ports(const RunInputs &in)
{
	std::map<std::string, int> nin, ndst;
	for (const Flow &f : in.flows) {
		if (!f.ingress.empty())
			++nin[f.ingress];
		if (auto it = in.host_port.find(f.dst); it != in.host_port.end())
			++ndst[it->second];
	}
	std::vector<FlowPort> out(in.flows.size());
	for (std::size_t i = 0; i < in.flows.size(); ++i) {
		const Flow &f = in.flows[i];
		auto it = in.host_port.find(f.dst);
		if (!f.ingress.empty() && nin[f.ingress] > 1 && it != in.host_port.end() &&
		    ndst[it->second] == 1 && in.ports.series.count(it->second))
			out[i] = {it->second, true};
		else
			out[i] = {f.ingress, false};
	}
	return out;
}

void analyse_scenario(const RunInputs &in, const Options &opt, Analysis &A)
{
	const Settings &set = in.set;
	auto rtt = opt.base_rtt_ns ? opt.base_rtt_ns : set.base_rtt_ns;
	if (!set.long_flow.empty() && !set.short_flow.empty())
		long_short(in, opt, rtt, A);
	if (!set.long_flow.empty() && !set.incast_flows.empty())
		incast_long(in, opt, rtt, A);
	if (!set.mice_flow.empty())
		mice(in, opt, rtt, A);
	if (set.scenario == "fairness")
		fairness_steps(in, opt, A);
	if (set.scenario == "victim_b" || set.scenario == "rate_step")
		step_rates(in, opt, A);
}

} // namespace rxecc::report
