#include "analysis.h"
#include "cc_events.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "error.h"
#include "stats.h"

namespace rxecc::report
{

std::pair<std::size_t, std::size_t> window_of(const std::vector<PortSample> &s, double ws,
                                              double we, const std::string &ports_path,
                                              const std::string &key)
{
	std::optional<std::size_t> i0, i1;
	for (std::size_t k = 0; k < s.size(); ++k) {
		auto t = static_cast<double>(s[k].t_us);
		if (t >= ws && !i0)
			i0 = k;
		if (t <= we)
			i1 = k;
	}
	if (!i0 || !i1 || *i1 <= *i0)
		throw Error(strf("%s: port %s: fewer than two samples in the window %.0f..%.0f us",
		                 ports_path.c_str(), key.c_str(), ws, we));
	return {*i0, *i1};
}

double rate_mbps(const std::vector<PortSample> &s, std::size_t i0, std::size_t i1,
                 std::uint64_t PortSample::*counter, const std::string &ports_path,
                 const std::string &key)
{
	if (s[i1].*counter < s[i0].*counter)
		throw Error(ports_path + ": port " + key +
		            ": counter goes backwards in the window");
	auto d = static_cast<double>(s[i1].*counter - s[i0].*counter);
	return d * 8 / static_cast<double>(s[i1].t_us - s[i0].t_us);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>>
active_period(const std::vector<PortSample> &s)
{
	std::optional<std::uint64_t> a0, a1;
	for (std::size_t k = 1; k < s.size(); ++k)
		if (s[k].tx_bytes > s[k - 1].tx_bytes) {
			if (!a0)
				a0 = s[k].t_us;
			a1 = s[k].t_us;
		}
	if (!a0)
		return std::nullopt;
	return std::make_pair(*a0, *a1);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> data_period(const std::vector<PortSample> &s,
                                                                   double start_us, double end_us)
{
	double base = 0;
	std::vector<const PortSample *> in;
	for (const PortSample &p : s) {
		auto t = static_cast<double>(p.t_us);
		if (t <= start_us)
			base = static_cast<double>(p.rx_bytes);
		if (t >= start_us && t <= end_us + 100000)
			in.push_back(&p);
	}
	if (in.size() < 2)
		return std::nullopt;
	double tot = static_cast<double>(in.back()->rx_bytes) - base;
	std::optional<std::uint64_t> a, e;
	for (const PortSample *p : in) {
		double got = static_cast<double>(p->rx_bytes) - base;
		if (!a && got >= 0.02 * tot)
			a = p->t_us;
		if (!e && got >= 0.98 * tot)
			e = p->t_us;
	}
	if (!a || !e || *e <= *a)
		return std::nullopt;
	return std::make_pair(*a, *e);
}

std::optional<std::pair<std::uint64_t, std::uint64_t>>
combine_periods(const std::vector<std::pair<std::uint64_t, std::uint64_t>> &periods, bool all)
{
	if (periods.empty())
		return std::nullopt;
	auto w = periods.front();
	for (const auto &p : periods) {
		if (all) {
			w.first = std::max(w.first, p.first);
			w.second = std::min(w.second, p.second);
		} else {
			w.first = std::min(w.first, p.first);
			w.second = std::max(w.second, p.second);
		}
	}
	if (w.second <= w.first)
		return std::nullopt;
	return w;
}

void spread(RateBins &b, double ta, double tb, double d)
{
	if (tb <= ta)
		return;
	for (auto k = static_cast<long>(std::floor(ta / b.bin_us));
	     static_cast<double>(k) * b.bin_us < tb; ++k) {
		double s = std::max(static_cast<double>(k) * b.bin_us, ta);
		double e = std::min(static_cast<double>(k + 1) * b.bin_us, tb);
		if (e <= s)
			continue;
		long i = k - b.first;
		if (i < 0 || static_cast<std::size_t>(i) >= b.bytes.size())
			continue;
		b.bytes[static_cast<std::size_t>(i)] += d * (e - s) / (tb - ta);
		b.covered_us[static_cast<std::size_t>(i)] += e - s;
	}
}

std::vector<FlowData> flow_data_periods(const RunInputs &in)
{
	std::vector<FlowData> out;
	for (const Flow &f : in.flows) {
		if (!f.ok || f.ingress.empty())
			continue;
		FlowData d{f.name, std::nullopt};
		auto it = in.ports.series.find(f.ingress);
		auto a = parse_number(f.start_s), e = parse_number(f.end_s);
		if (it != in.ports.series.end() && a && e)
			d.period = data_period(it->second, *a * 1e6, *e * 1e6);
		out.push_back(d);
	}
	return out;
}

namespace
{

std::string fmt(double x, int prec)
{
	return strf("%.*f", prec, x);
}
std::string big(double x)
{
	return strf("%.0f", x);
}

// The cumulative counter of the bottleneck queue at T: the last row at or
// before T, 0 before the queue first appears.
std::uint64_t queue_cum(const std::vector<QueueSample> &q, std::uint64_t QueueSample::*m,
                        std::uint64_t t)
{
	std::uint64_t v = 0;
	for (const QueueSample &s : q) {
		if (s.t_us > t)
			break;
		v = s.*m;
	}
	return v;
}

// The figures of the traffic generator's records: clock alignment, FCT
// slowdowns, per-flow rates and CC state.
// The figures of the monitors' event rows (cc_events.h): how fast the
// senders' aggregate computed rate comes down to the link rate, and ACC's
// halts against the backlog.
void analyse_cc_events(const RunInputs &in, const Alignment &al, Analysis &A)
{
	std::vector<Halt> halts;
	std::vector<RateStep> steps;
	bool acc = false, events = false;
	for (const MonitorFile &m : in.monitors) {
		const TrafficHost *h = nullptr;
		for (const TrafficHost &t : in.traffic)
			if (t.name == m.host || (!h && t.name.empty()))
				h = &t;
		for (const MonitorRow &r : m.rows) {
			acc = acc || r.algo == "acc";
			events = events || !r.event.empty();
		}
		if (!h)
			continue;
		auto v = acc_halts(m, h->clock, al);
		halts.insert(halts.end(), v.begin(), v.end());
		auto w = rate_steps(m, h->clock, al);
		steps.insert(steps.end(), w.begin(), w.end());
	}
	if (!events)
		return;
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	std::string &T = A.text;
	const std::uint64_t C = in.set.link_rate_bps;
	auto st = rate_settle(steps, C, 0.1);
	kv("rate_settle_ms", st ? fmt(st->ms(), 3) : "n/a");
	kv("rate_settle_sum_mbps", st ? fmt(st->sum_bps / 1e6, 3) : "n/a");
	kv("rate_settle_at_s", st ? fmt(st->settle_s, 6) : "n/a");
	if (st)
		T += strf("  %-24s %.3f ms from the first cut at %.6f s to an aggregate computed "
		          "rate of %.2f Mbit/s (<= 1.1 x link)\n",
		          "rate settle", st->ms(), st->detect_s, st->sum_bps / 1e6);
	else
		T += strf("  %-24s n/a (no rate cut, or the senders' computed rates never summed "
		          "to 1.1 x link or less)\n",
		          "rate settle");
	if (!acc)
		return;
	attach_backlog(halts, in.queues.bottleneck);
	auto f = halt_figures(halts, C);
	kv("halts_timed", std::to_string(halts.size()));
	kv("halts_with_backlog", f ? std::to_string(f->halts) : "0");
	kv("halts_empty_queue", f ? std::to_string(f->empty) : "n/a");
	kv("halt_ms_p50", f ? fmt(f->length_ms_p50, 3) : "n/a");
	kv("halt_ideal_ms_p50", f ? fmt(f->ideal_ms_p50, 3) : "n/a");
	bool r = f && f->ratios;
	kv("halt_ratio_p10", r ? fmt(f->ratio_p10, 3) : "n/a");
	kv("halt_ratio_p50", r ? fmt(f->ratio_p50, 3) : "n/a");
	kv("halt_ratio_p90", r ? fmt(f->ratio_p90, 3) : "n/a");
	kv("halt_within_25_pct", r ? fmt(f->within_25_pct, 1) : "n/a");
	auto fh = first_halts(halts, in.queues.bottleneck, C);
	kv("first_halt_qps", fh ? std::to_string(fh->qps) : "0");
	kv("first_halt_peak_kb", fh ? fmt(fh->peak_kb, 3) : "n/a");
	kv("first_halt_ideal_ms", fh ? fmt(fh->ideal_ms, 3) : "n/a");
	kv("first_halt_ratio_min", fh ? fmt(fh->ratio_min, 3) : "n/a");
	kv("first_halt_ratio_p50", fh ? fmt(fh->ratio_p50, 3) : "n/a");
	kv("first_halt_ratio_max", fh ? fmt(fh->ratio_max, 3) : "n/a");
	kv("first_halt_ratio_mean", fh ? fmt(fh->ratio_mean, 3) : "n/a");
	if (!f) {
		T += strf("  %-24s %zu timed, none with a backlog sample\n", "source halts (ACC)",
		          halts.size());
		return;
	}
	T += strf("  %-24s %zu with a backlog sample (%zu at an empty queue): length p50 %.3f "
	          "ms, backlog/C p50 %.3f ms\n",
	          "source halts (ACC)", f->halts, f->empty, f->length_ms_p50, f->ideal_ms_p50);
	if (r)
		T += strf("  %-24s p10 %.2f, p50 %.2f, p90 %.2f; %.1f %% within 25 %%\n",
		          "halt / (backlog/C)", f->ratio_p10, f->ratio_p50, f->ratio_p90,
		          f->within_25_pct);
	if (fh)
		T += strf("  %-24s %zu QPs, peak %.1f KB = %.3f ms at the link rate; halt / that: "
		          "min %.2f, p50 %.2f, max %.2f, mean %.2f\n",
		          "first halts", fh->qps, fh->peak_kb, fh->ideal_ms, fh->ratio_min,
		          fh->ratio_p50, fh->ratio_max, fh->ratio_mean);
}

void analyse_traffic(const RunInputs &in, const Options &opt, Analysis &A)
{
	if (in.traffic.empty())
		return;
	const Settings &set = in.set;
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	std::vector<TrafficFlow> flows;
	for (const TrafficHost &h : in.traffic)
		flows.insert(flows.end(), h.flows.begin(), h.flows.end());
	Alignment al = align_clocks(in.traffic, set.fabric_t0_ns, in.ports, in.host_port);
	if (!al.known)
		al.method =
			"none (generator time; no fabric_t0 and no data seen at an ingress port)";
	A.align = al;
	kv("traffic_flows", std::to_string(flows.size()));
	kv("traffic_hosts", std::to_string(in.traffic.size()));
	kv("align_method", al.method);
	kv("align_offset_ms", al.known ? fmt(static_cast<double>(al.offset_ns) / 1e6, 6) : "n/a");
	kv("align_correction_ms",
	   al.known ? fmt(static_cast<double>(al.offset_ns - al.estimate_ns) / 1e6, 6) : "n/a");

	std::string &T = A.text;
	T += strf("traffic generator records (%zu flows, %zu host%s)\n", flows.size(),
	          in.traffic.size(), in.traffic.size() == 1 ? "" : "s");
	if (al.known)
		T += strf(
			"  %-24s %s: T0 at %.6f s of fabric time (%+.3f ms from the wall clocks)\n",
			"clock alignment", al.method.c_str(),
			static_cast<double>(al.offset_ns) / 1e9,
			static_cast<double>(al.offset_ns - al.estimate_ns) / 1e6);
	else
		T += strf("  %-24s %s\n", "clock alignment", al.method.c_str());

	// every flow's goodput in the second half of its data (the bins
	// grouped by flow first: a run may have hundreds of flows)
	std::string halves;
	for (const TrafficHost &h : in.traffic) {
		std::map<std::string, std::vector<TrafficBin>> by_flow;
		for (const TrafficBin &b : h.bins)
			by_flow[b.flow].push_back(b);
		for (const TrafficFlow &f : h.flows) {
			const auto g = second_half_mbps(f, by_flow[f.flow], h.clock.bin_ns);
			kv("flow." + f.flow + ".goodput_2nd_half_mbps", g ? fmt(*g, 3) : "n/a");
			halves += strf(" %s %s", f.flow.c_str(), g ? fmt(*g, 2).c_str() : "n/a");
		}
	}
	if (!halves.empty())
		T += strf("  %-24s%s Mbit/s\n", "goodput, 2nd half", halves.c_str());

	auto base_rtt = opt.base_rtt_ns ? opt.base_rtt_ns : set.base_rtt_ns;
	kv("base_rtt_ns", base_rtt ? std::to_string(*base_rtt) : "n/a");
	if (!base_rtt) {
		A.slowdown_note =
			"no base RTT (base_rtt_ns in meta.env or --base-rtt): FCT slowdown n/a";
		kv("slowdown_flows", "n/a");
		kv("slowdown_note", A.slowdown_note);
		T += strf("  %-24s n/a: %s\n", "FCT slowdown", A.slowdown_note.c_str());
	} else {
		WireModel w{set.link_rate_bps, set.mtu_bytes, set.header_bytes + set.overhead};
		SlowdownReport rep = slowdowns(flows, *base_rtt, w, opt.buckets);
		kv("slowdown_flows", std::to_string(rep.flows.size()));
		kv("slowdown_skipped", std::to_string(rep.skipped));
		auto put = [&](const std::string &label, const std::optional<Distribution> &d) {
			std::string k = "slowdown." + label + ".";
			kv(k + "count", std::to_string(d ? d->count : 0));
			kv(k + "p50", d ? fmt(d->p50, 3) : "n/a");
			kv(k + "p95", d ? fmt(d->p95, 3) : "n/a");
			kv(k + "p99", d ? fmt(d->p99, 3) : "n/a");
			kv(k + "mean", d ? fmt(d->mean, 3) : "n/a");
		};
		put("all", rep.all);
		for (const BucketStats &b : rep.buckets)
			put(b.bucket.label, b.dist);
		T += strf("  %-24s base RTT %.3f us, line rate %.0f bit/s, %llu B/packet + %llu B "
		          "headers\n",
		          "FCT slowdown", static_cast<double>(*base_rtt) / 1e3,
		          static_cast<double>(set.link_rate_bps),
		          static_cast<unsigned long long>(set.mtu_bytes),
		          static_cast<unsigned long long>(w.per_packet_bytes));
		T += strf("  %-16s %7s %9s %9s %9s %9s\n", "size", "flows", "p50", "p95", "p99",
		          "mean");
		auto row = [&](const std::string &label, const std::optional<Distribution> &d) {
			if (d)
				T += strf("  %-16s %7zu %9.2f %9.2f %9.2f %9.2f\n", label.c_str(),
				          d->count, d->p50, d->p95, d->p99, d->mean);
			else
				T += strf("  %-16s %7d %9s %9s %9s %9s\n", label.c_str(), 0, "-",
				          "-", "-", "-");
		};
		for (const BucketStats &b : rep.buckets)
			row(b.bucket.label, b.dist);
		row("all", rep.all);
		if (rep.skipped)
			T += strf("  (%zu sized flows without a completion left out)\n",
			          rep.skipped);
		A.slowdown = std::move(rep);
	}

	// Per-flow rates from the generator's bins, on the fabric's clock, and
	// the sender QPs' CC state.
	std::vector<std::pair<const TrafficFlow *, const TrafficHost *>> order;
	for (const TrafficHost &h : in.traffic)
		for (const TrafficFlow &f : h.flows)
			order.emplace_back(&f, &h);
	std::stable_sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
		auto ta = a.first->start_ns.value_or(UINT64_MAX),
		     tb = b.first->start_ns.value_or(UINT64_MAX);
		return ta < tb;
	});
	for (const auto &[f, h] : order) {
		if (A.flow_rates.size() >= opt.flow_panels)
			break;
		FlowRateSeries fr;
		fr.flow = f->flow;
		const std::uint64_t w =
			flow_plot_bin_ns(*f, static_cast<std::uint64_t>(opt.bin_us * 1e3));
		fr.points = flow_rate_points(h->bins, f->flow, h->clock.bin_ns, w, al.offset_ns);
		fr.bin_s = static_cast<double>(std::max(w, h->clock.bin_ns)) / 1e9;
		for (const MonitorFile &m : in.monitors)
			if (m.host == f->src)
				fr.cc = cc_series(*f, m, h->clock, al);
		if (fr.points.empty() && fr.cc.empty())
			continue;
		A.flow_rates.push_back(std::move(fr));
	}
	analyse_cc_events(in, al, A);
}

} // namespace

std::optional<double> second_half_mbps(const TrafficFlow &f, const std::vector<TrafficBin> &bins,
                                       std::uint64_t bin_ns)
{
	if (!bin_ns || !f.first_byte_ns || !f.last_byte_ns || *f.last_byte_ns < *f.first_byte_ns)
		return std::nullopt;
	const std::uint64_t mid = *f.first_byte_ns + (*f.last_byte_ns - *f.first_byte_ns) / 2;
	const std::uint64_t from = (mid + bin_ns - 1) / bin_ns * bin_ns;
	std::uint64_t bytes = 0, end = 0;
	for (const TrafficBin &b : bins)
		if (b.flow == f.flow && b.start_ns >= from && b.bytes) {
			bytes += b.bytes;
			end = std::max(end, b.start_ns + bin_ns);
		}
	if (end < from + 2 * bin_ns)
		return std::nullopt;
	return static_cast<double>(bytes) * 8e3 / static_cast<double>(end - from);
}

std::uint64_t flow_plot_bin_ns(const TrafficFlow &f, std::uint64_t width_ns)
{
	if (!f.msgs || !*f.msgs || !f.start_ns || !f.complete_ns || *f.complete_ns <= *f.start_ns)
		return width_ns;
	return std::max(width_ns, 4 * (*f.complete_ns - *f.start_ns) / *f.msgs);
}

std::vector<std::pair<double, double>>
flow_rate_points(const std::vector<TrafficBin> &bins, const std::string &flow, std::uint64_t bin_ns,
                 std::uint64_t width_ns, std::int64_t offset_ns)
{
	std::vector<std::pair<double, double>> out;
	if (!bin_ns)
		return out;
	std::uint64_t k = (width_ns + bin_ns / 2) / bin_ns;
	const std::uint64_t w = std::max<std::uint64_t>(k, 1) * bin_ns;
	std::map<std::uint64_t, std::uint64_t> sum; // bin of width w -> bytes
	for (const TrafficBin &b : bins)
		if (b.flow == flow)
			sum[b.start_ns / w] += b.bytes;
	for (const auto &[i, bytes] : sum)
		out.emplace_back((static_cast<double>(i * w) + static_cast<double>(w) / 2 +
		                  static_cast<double>(offset_ns)) /
		                         1e9,
		                 static_cast<double>(bytes) * 8e3 / static_cast<double>(w));
	return out;
}

Analysis analyse(const RunInputs &in, const Options &opt)
{
	const Settings &set = in.set;
	const std::string &bneck = set.bottleneck;
	Analysis A;

	// ingress ports in the order flows name them, with their flows
	std::vector<std::string> ingress;
	std::map<std::string, std::string> ing_flows;
	std::map<std::string, int> nshare;
	for (const Flow &f : in.flows) {
		if (f.ingress.empty())
			continue;
		if (!ing_flows.count(f.ingress)) {
			ingress.push_back(f.ingress);
			ing_flows[f.ingress] = f.name;
		} else {
			ing_flows[f.ingress] += "+" + f.name;
		}
		++nshare[f.ingress];
	}
	// A flow that shares its ingress with others but whose receiver's port
	// carries no other flow: its own rate is that port's tx (the switch's
	// egress to the receiver), where the ingress gives only the sum.
	std::vector<std::string> egress(in.flows.size());
	{
		const std::vector<FlowPort> own = flow_ports(in);
		for (std::size_t i = 0; i < own.size(); ++i)
			if (own[i].tx)
				egress[i] = own[i].port;
	}

	if (in.flows.empty())
		throw Error(in.flows_path + ": no flows");
	auto bit = in.ports.series.find(bneck);
	if (bit == in.ports.series.end())
		throw Error(in.ports_path + ": no rows for the bottleneck port " + bneck +
		            " (meta.env bottleneck)");
	for (const std::string &p : ingress)
		if (!in.ports.series.count(p))
			throw Error(in.ports_path + ": no rows for port " + p +
			            " (ingress of flow " + ing_flows[p] + ")");
	const Flow *victim = nullptr;
	for (const Flow &f : in.flows)
		if (f.name == set.victim)
			victim = &f;
	if (!set.victim.empty() && !victim)
		throw Error(in.meta_path + ": victim " + set.victim + " is not a flow of " +
		            in.flows_path);
	if (!in.flat.total_drops)
		throw Error(in.flat_path + ": no total_drops line");
	if (!in.flat.pfc_frames_sent)
		throw Error(in.flat_path + ": no pfc_frames_sent line");
	if (!in.flat.pfc_frames_rx)
		throw Error(in.flat_path + ": no pfc_frames_rx line");

	const auto &B = bit->second;
	auto act = active_period(B);
	bool act_ok = act && act->second > act->first;

	// The window: meta.env's ends, else the flows' data (window_mode all
	// or any), else the bottleneck's active period.
	std::optional<double> ws, we;
	if (set.window_start_us)
		ws = static_cast<double>(*set.window_start_us);
	if (set.window_end_us)
		we = static_cast<double>(*set.window_end_us);
	A.data_periods = flow_data_periods(in);
	A.how = "requested";
	if (!ws && !we && set.window_mode != WindowMode::kActive) {
		std::vector<std::pair<std::uint64_t, std::uint64_t>> ps;
		for (const FlowData &d : A.data_periods)
			if (d.period)
				ps.push_back(*d.period);
		bool all = set.window_mode == WindowMode::kAll;
		if (auto w = combine_periods(ps, all)) {
			ws = static_cast<double>(w->first);
			we = static_cast<double>(w->second);
			A.how = all ? "while every flow sends"
			            : "from the first flow's data to the last's";
		} else {
			A.how = std::string("no period in which ") +
			        (all ? "every flow sends" : "any flow sends") +
			        "; active period of " + bneck;
		}
	} else if (!ws && !we) {
		A.how = "active period of " + bneck;
	}
	if (!ws || !we) {
		if (!act_ok)
			throw Error(in.ports_path + ": the bottleneck " + bneck +
			            " has no active period (its tx_bytes grows in fewer than two "
			            "samples); "
			            "set window_start_us and window_end_us");
	}
	double ws_v = ws ? *ws : static_cast<double>(act->first);
	double we_v = we ? *we : static_cast<double>(act->second);
	if (ws_v >= we_v)
		throw Error(strf("%s: the window %.0f..%.0f us is empty", in.meta_path.c_str(),
		                 ws_v, we_v));

	// Rounded inward to the bottleneck's samples; every rate uses it.
	auto [I0, I1] = window_of(B, ws_v, we_v, in.ports_path, bneck);
	A.w0 = B[I0].t_us;
	A.w1 = B[I1].t_us;
	const double W0 = static_cast<double>(A.w0), W1 = static_cast<double>(A.w1);
	const double dt = W1 - W0;
	double btx = rate_mbps(B, I0, I1, &PortSample::tx_bytes, in.ports_path, bneck);
	if (B[I1].tx_frames < B[I0].tx_frames)
		throw Error(in.ports_path + ": port " + bneck +
		            ": tx_frames goes backwards in the window");
	double txf = static_cast<double>(B[I1].tx_frames - B[I0].tx_frames);
	double wire_bits = (static_cast<double>(B[I1].tx_bytes - B[I0].tx_bytes) +
	                    txf * static_cast<double>(set.overhead)) *
	                   8;
	double util = wire_bits / (static_cast<double>(set.link_rate_bps) * dt / 1e6);

	// Flows: fabric rate over the window from the ingress port's rx_bytes,
	// or from the receiver's port's tx_bytes (egress, above).
	std::vector<std::optional<double>> rate(in.flows.size());
	double good = 0, fct_sum = 0, fct_max = 0;
	int nfailed = 0, nok = 0, nfct = 0;
	std::vector<double> jx;
	for (std::size_t i = 0; i < in.flows.size(); ++i) {
		const Flow &f = in.flows[i];
		if (!egress[i].empty()) {
			const auto &S = in.ports.series.at(egress[i]);
			auto [a, b] = window_of(S, W0, W1, in.ports_path, egress[i]);
			rate[i] =
				rate_mbps(S, a, b, &PortSample::tx_bytes, in.ports_path, egress[i]);
		} else if (!f.ingress.empty()) {
			const auto &S = in.ports.series.at(f.ingress);
			auto [a, b] = window_of(S, W0, W1, in.ports_path, f.ingress);
			rate[i] =
				rate_mbps(S, a, b, &PortSample::rx_bytes, in.ports_path, f.ingress);
		}
		if (!f.ok) {
			++nfailed;
			continue;
		}
		++nok;
		good += f.gbps * 1000;
		if (!f.fct_s.empty()) {
			double v = *parse_number(f.fct_s);
			++nfct;
			fct_sum += v;
			fct_max = std::max(fct_max, v);
		}
		if (f.name == set.victim)
			continue;
		jx.push_back(rate[i].value_or(0));
	}
	auto jain = jain_index(jx);
	std::string jain_s = jain ? fmt(*jain, 4) : "n/a";

	// Queue samples: every sample time of ports.csv and queues.csv; a time
	// without a bottleneck row is an idle (empty) queue.
	std::vector<std::uint64_t> times;
	std::merge(in.ports.times.begin(), in.ports.times.end(), in.queues.times.begin(),
	           in.queues.times.end(), std::back_inserter(times));
	times.erase(std::unique(times.begin(), times.end()), times.end());
	const auto &Q = in.queues.bottleneck;
	std::size_t j = 0;
	std::vector<double> S;
	std::size_t npaused = 0;
	for (std::uint64_t t : times) {
		while (j < Q.size() && Q[j].t_us < t)
			++j;
		bool hit = j < Q.size() && Q[j].t_us == t;
		QueuePoint qp{t, hit ? Q[j].queue_bytes : 0, hit && Q[j].paused};
		npaused += qp.paused;
		A.queue.push_back(qp);
		if (static_cast<double>(t) >= W0 && static_cast<double>(t) <= W1)
			S.push_back(static_cast<double>(qp.bytes));
	}
	std::sort(S.begin(), S.end());
	double q50 = nearest_rank(S, 50) / 1000, q95 = nearest_rank(S, 95) / 1000,
	       q99 = nearest_rank(S, 99) / 1000, qmax = S.back() / 1000;
	for (double v : S)
		A.queue_window_kb.push_back(v / 1000);
	std::uint64_t pus1 = queue_cum(Q, &QueueSample::paused_us, A.w1),
		      pus0 = queue_cum(Q, &QueueSample::paused_us, A.w0),
		      ecn1 = queue_cum(Q, &QueueSample::ecn_marks, A.w1),
		      ecn0 = queue_cum(Q, &QueueSample::ecn_marks, A.w0);
	if (pus1 < pus0 || ecn1 < ecn0)
		throw Error(strf("%s: %s prio %u: counter goes backwards in the window",
		                 in.queues_path.c_str(), bneck.c_str(), set.data_prio));
	double paused_us = static_cast<double>(pus1 - pus0),
	       becn = static_cast<double>(ecn1 - ecn0);

	// summary.csv
	auto kv = [&](const std::string &k, const std::string &v) { A.summary.emplace_back(k, v); };
	kv("scenario", set.scenario);
	kv("algo", set.algo);
	kv("label", set.label);
	kv("bottleneck", bneck);
	kv("data_prio", std::to_string(set.data_prio));
	kv("active_start_us", act ? std::to_string(act->first) : "n/a");
	kv("window_start_us", std::to_string(A.w0));
	kv("window_end_us", std::to_string(A.w1));
	kv("window_s", fmt(dt / 1e6, 6));
	kv("flows", std::to_string(in.flows.size()));
	kv("flows_failed", std::to_string(nfailed));
	for (std::size_t i = 0; i < in.flows.size(); ++i) {
		const Flow &f = in.flows[i];
		kv("flow." + f.name + ".status", f.ok ? "ok" : "failed");
		kv("flow." + f.name + ".goodput_mbps", f.ok ? fmt(f.gbps * 1000, 3) : "n/a");
		kv("flow." + f.name + ".rate_mbps", rate[i] ? fmt(*rate[i], 3) : "n/a");
		kv("flow." + f.name + ".fct_s", f.fct_s.empty() || !f.ok ? "n/a" : f.fct_s);
	}
	kv("goodput_mbps", fmt(good, 3));
	kv("jain", jain_s);
	kv("jain_flows", std::to_string(jx.size()));
	kv("victim", set.victim.empty() ? "n/a" : set.victim);
	std::optional<double> vr;
	if (victim)
		vr = rate[static_cast<std::size_t>(victim - in.flows.data())];
	kv("victim_rate_mbps", vr ? fmt(*vr, 3) : "n/a");
	kv("fct_mean_s", nfct ? fmt(fct_sum / nfct, 6) : "n/a");
	kv("fct_max_s", nfct ? fmt(fct_max, 6) : "n/a");
	kv("util", fmt(util, 4));
	kv("bottleneck_tx_mbps", fmt(btx, 3));
	kv("queue_samples", std::to_string(S.size()));
	kv("queue_p50_kb", fmt(q50, 3));
	kv("queue_p95_kb", fmt(q95, 3));
	kv("queue_p99_kb", fmt(q99, 3));
	kv("queue_max_kb", fmt(qmax, 3));
	kv("paused_ms", fmt(paused_us / 1000, 3));
	kv("bottleneck_ecn_marks", big(becn));
	kv("ecn_marks", big(static_cast<double>(in.flat.ecn_total)));
	kv("pfc_sent", big(static_cast<double>(*in.flat.pfc_frames_sent)));
	kv("pfc_rx", big(static_cast<double>(*in.flat.pfc_frames_rx)));
	kv("drops", big(static_cast<double>(*in.flat.total_drops)));
	// The bottleneck's exact peak over the whole run (the fabric's
	// max_queue_bytes), beside the sampled queue_max_kb of the window.
	auto peak = in.flat.max_queue_bytes.find(bneck + ".q" + std::to_string(set.data_prio));
	std::optional<double> peak_kb;
	if (peak != in.flat.max_queue_bytes.end())
		peak_kb = static_cast<double>(peak->second) / 1000;
	kv("bottleneck_peak_kb", peak_kb ? fmt(*peak_kb, 3) : "n/a");
	// SFC: the fabric's totals; every name in every run (0 without SFC)
	// so that runs with and without it compare.
	std::vector<std::pair<std::string, std::uint64_t>> sfc;
	for (const char *name : kSfcSummaryNames)
		sfc.emplace_back(name, 0);
	for (const auto &[name, v] : in.flat.sfc) {
		auto it = std::find_if(sfc.begin(), sfc.end(),
		                       [&](const auto &x) { return x.first == name; });
		if (it != sfc.end())
			it->second = v;
		else
			sfc.emplace_back(name, v);
	}
	kv("sfc", in.flat.sfc.empty() ? "off" : "on");
	for (const auto &[name, v] : sfc)
		kv("sfc." + name, std::to_string(v));
	kv("hosts", std::to_string(in.hosts.files));
	for (const auto &[name, v] : in.hosts.sums)
		kv("host." + name, big(static_cast<double>(v)));

	// summary.txt
	std::string &T = A.text;
	T += strf("%s: scenario %s, algo %s (label %s)\n", in.results.c_str(), set.scenario.c_str(),
	          set.algo.c_str(), set.label.c_str());
	T += strf("window %.6f .. %.6f s (%.3f s, %s)\n\n", W0 / 1e6, W1 / 1e6, dt / 1e6,
	          A.how.c_str());
	T += strf("%-12s %-21s %12s %12s %10s\n", "flow", "src->dst", "goodput", "fabric rate",
	          "FCT");
	T += strf("%-12s %-21s %12s %12s %10s\n", "", "", "[Mbit/s]", "[Mbit/s]", "[s]");
	for (std::size_t i = 0; i < in.flows.size(); ++i) {
		const Flow &f = in.flows[i];
		std::string note;
		if (f.name == set.victim)
			note += " victim";
		if (!f.ingress.empty() && nshare[f.ingress] > 1)
			note += egress[i].empty() ? " shared-ingress"
			                          : " shared-ingress, rate at " + egress[i];
		T += strf("%-12s %-21s %12s %12s %10s%s\n", f.name.c_str(),
		          (f.src + "->" + f.dst).c_str(),
		          f.ok ? fmt(f.gbps * 1000, 2).c_str() : "FAILED",
		          rate[i] ? fmt(*rate[i], 2).c_str() : "-",
		          f.fct_s.empty() || !f.ok ? "-" : fmt(*parse_number(f.fct_s), 6).c_str(),
		          note.c_str());
	}
	T += "\n";
	T += strf("%-26s %.2f Mbit/s (%d flows ok, %d failed)\n", "aggregate goodput", good, nok,
	          nfailed);
	T += strf("%-26s %s (%zu flows%s)\n", "Jain fairness index",
	          jain ? fmt(*jain, 3).c_str() : "n/a", jx.size(),
	          set.victim.empty() ? "" : (", victim " + set.victim + " excluded").c_str());
	if (victim)
		T += strf("%-26s %s Mbit/s%s\n", ("victim " + set.victim + " rate").c_str(),
		          vr ? fmt(*vr, 2).c_str() : "-", victim->ok ? "" : " (FAILED)");
	if (nfct)
		T += strf("%-26s %.6f s mean, %.6f s max (%d flows)\n", "flow completion time",
		          fct_sum / nfct, fct_max, nfct);
	T += strf("bottleneck %s\n", bneck.c_str());
	T += strf("  %-24s %.2f %% (%.0f bit/s link, %llu B/frame overhead)\n", "utilisation",
	          util * 100, static_cast<double>(set.link_rate_bps),
	          static_cast<unsigned long long>(set.overhead));
	T += strf("  %-24s %.2f Mbit/s\n", "tx rate", btx);
	T += strf("  %-24s %.1f / %.1f / %.1f KB (%zu samples)\n",
	          strf("queue p%u p50/p99/max", set.data_prio).c_str(), q50, q99, qmax, S.size());
	T += strf("  %-24s %.3f ms (%.1f %% of the window)\n", "paused", paused_us / 1000,
	          paused_us * 100 / dt);
	T += strf("  %-24s %s\n", "ECN marks", big(becn).c_str());
	T += strf("%-26s %s\n", "ECN marks (fabric)",
	          big(static_cast<double>(in.flat.ecn_total)).c_str());
	T += strf("%-26s %s / %s\n", "PFC frames sent / rx",
	          big(static_cast<double>(*in.flat.pfc_frames_sent)).c_str(),
	          big(static_cast<double>(*in.flat.pfc_frames_rx)).c_str());
	T += strf("%-26s %s\n", "drops", big(static_cast<double>(*in.flat.total_drops)).c_str());
	T += strf("%-26s %s\n", "bottleneck peak queue",
	          peak_kb ? strf("%.1f KB (whole run, exact)", *peak_kb).c_str() : "n/a");
	if (!in.flat.sfc.empty()) {
		auto sv = [&](const char *name) {
			for (const auto &[k, v] : sfc)
				if (k == name)
					return v;
			return std::uint64_t{0};
		};
		T += "SFC (sum over switches)\n";
		T += strf("  %-24s %llu (%llu by queue, %llu from a cache); %llu suppressed, "
		          "%llu with pause 0\n",
		          "BTS generated", static_cast<unsigned long long>(sv("bts_generated")),
		          static_cast<unsigned long long>(sv("bts_generated_queue")),
		          static_cast<unsigned long long>(sv("bts_generated_cache")),
		          static_cast<unsigned long long>(sv("bts_suppressed")),
		          static_cast<unsigned long long>(sv("bts_zero")));
		T += strf("  %-24s %llu updates, %llu hits, %llu collisions, at most %llu "
		          "entries\n",
		          "pause cache", static_cast<unsigned long long>(sv("cache_updates")),
		          static_cast<unsigned long long>(sv("cache_hits")),
		          static_cast<unsigned long long>(sv("cache_collisions")),
		          static_cast<unsigned long long>(sv("cache_entries_max")));
		T += strf("  %-24s %llu bits at most; SFC-P frames %llu\n", "Bloom filter",
		          static_cast<unsigned long long>(sv("bloom_bits_max")),
		          static_cast<unsigned long long>(sv("sfcp_frames")));
	}
	if (in.hosts.files) {
		T += strf("host counters (sum over %zu hosts)\n", in.hosts.files);
		for (const auto &[name, v] : in.hosts.sums)
			T += strf("  %-24s %s\n", name.c_str(),
			          big(static_cast<double>(v)).c_str());
	}

	analyse_scenario(in, opt, A);

	// Rate plot data: the bottleneck's tx, then each ingress port's rx, then
	// the receiver's port's tx of each flow that has one of its own beside
	// a shared ingress (FLOW@PORT).
	std::vector<std::pair<const std::vector<PortSample> *, std::uint64_t PortSample::*>> cols;
	cols.emplace_back(&B, &PortSample::tx_bytes);
	A.rate_columns.push_back(bneck);
	for (const std::string &p : ingress) {
		cols.emplace_back(&in.ports.series.at(p), &PortSample::rx_bytes);
		A.rate_columns.push_back(ing_flows[p]);
	}
	for (std::size_t i = 0; i < in.flows.size(); ++i)
		if (!egress[i].empty()) {
			cols.emplace_back(&in.ports.series.at(egress[i]), &PortSample::tx_bytes);
			A.rate_columns.push_back(in.flows[i].name + "@" + egress[i]);
		}
	std::optional<long> bmin, bmax;
	for (const auto &c : cols) {
		const auto &s = *c.first;
		for (std::size_t k = 1; k < s.size(); ++k) {
			auto ta = static_cast<double>(s[k - 1].t_us),
			     tb = static_cast<double>(s[k].t_us);
			if (tb <= ta)
				continue;
			auto lo = static_cast<long>(std::floor(ta / opt.bin_us));
			auto hi = static_cast<long>(std::ceil(tb / opt.bin_us)) - 1;
			bmin = bmin ? std::min(*bmin, lo) : lo;
			bmax = bmax ? std::max(*bmax, hi) : hi;
		}
	}
	if (bmin) {
		auto n = static_cast<std::size_t>(*bmax - *bmin + 1);
		if (n > 2000000)
			throw Error(strf("--bin: %.0f us bins are too many for this run (%zu); use "
			                 "a longer bin",
			                 opt.bin_us, n));
		for (const auto &c : cols) {
			RateBins rb{opt.bin_us, *bmin, std::vector<double>(n),
			            std::vector<double>(n)};
			const auto &s = *c.first;
			for (std::size_t k = 1; k < s.size(); ++k)
				spread(rb, static_cast<double>(s[k - 1].t_us),
				       static_cast<double>(s[k].t_us),
				       static_cast<double>(s[k].*c.second) -
				               static_cast<double>(s[k - 1].*c.second));
			A.rate_bins.push_back(std::move(rb));
		}
	}
	(void)npaused;
	analyse_traffic(in, opt, A);
	return A;
}

} // namespace rxecc::report
