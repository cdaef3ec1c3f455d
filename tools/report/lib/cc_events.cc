#include "cc_events.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "stats.h"

namespace rxecc::report
{

namespace
{
std::optional<std::uint64_t> state_of(const MonitorRow &r, const char *name)
{
	auto it = r.state.find(name);
	if (it == r.state.end())
		return std::nullopt;
	return it->second;
}

bool names(const std::string &event, const char *name)
{
	std::size_t p = 0;
	while (p <= event.size()) {
		std::size_t q = event.find('|', p);
		if (q == std::string::npos)
			q = event.size();
		if (event.compare(p, q - p, name) == 0)
			return true;
		p = q + 1;
	}
	return false;
}
} // namespace

std::vector<Halt> acc_halts(const MonitorFile &mon, const TrafficClock &clock, const Alignment &al)
{
	std::vector<Halt> out;
	if (!clock.known)
		return out;
	// rows of each QP in time order (events and polls interleave)
	std::map<std::pair<std::string, std::uint64_t>, std::vector<const MonitorRow *>> qps;
	for (const MonitorRow &r : mon.rows)
		if (r.algo == "acc")
			qps[{r.dev, r.qpn}].push_back(&r);
	for (auto &[key, rows] : qps) {
		std::stable_sort(rows.begin(), rows.end(),
		                 [](const MonitorRow *a, const MonitorRow *b) {
					 return a->time_ns < b->time_ns;
				 });
		std::uint64_t seen = 0;
		constexpr std::size_t kNone = static_cast<std::size_t>(-1);
		std::size_t open = kNone; // the open halt's index in out
		for (const MonitorRow *r : rows) {
			auto n = state_of(*r, "acc.halts");
			auto len = state_of(*r, "acc.halt_ns");
			if (!n || !len)
				continue;
			if (*n > seen && !r->event.empty() && names(r->event, "halt")) {
				Halt h;
				h.host = mon.host;
				h.qpn = key.second;
				h.index = *n;
				h.t_s = monitor_fabric_s(r->time_ns, clock, al);
				h.length_ns = *len;
				out.push_back(h);
				open = out.size() - 1;
			} else if (open != kNone && *n == out[open].index) {
				out[open].length_ns = *len;
			} else if (*n != seen) {
				open = kNone; // a halt whose start was not seen
			}
			seen = std::max(seen, *n);
		}
	}
	std::stable_sort(out.begin(), out.end(), [](const Halt &a, const Halt &b) {
		return std::tie(a.t_s, a.host, a.qpn) < std::tie(b.t_s, b.host, b.qpn);
	});
	return out;
}

void attach_backlog(std::vector<Halt> &halts, const std::vector<QueueSample> &queue)
{
	if (queue.empty())
		return;
	std::uint64_t step = queue.size() > 1 ? queue[1].t_us - queue[0].t_us : 0;
	for (Halt &h : halts) {
		h.queue_bytes.reset();
		if (h.t_s < 0)
			continue;
		auto t_us = static_cast<std::uint64_t>(h.t_s * 1e6);
		auto it = std::upper_bound(
			queue.begin(), queue.end(), t_us,
			[](std::uint64_t t, const QueueSample &s) { return t < s.t_us; });
		if (it == queue.begin())
			continue;
		--it;
		if (std::next(it) == queue.end() && t_us - it->t_us > step)
			continue;
		h.queue_bytes = it->queue_bytes;
	}
}

std::optional<HaltFigures> halt_figures(const std::vector<Halt> &halts, std::uint64_t link_bps)
{
	HaltFigures f;
	std::vector<double> len, ideal, ratio;
	for (const Halt &h : halts) {
		if (!h.queue_bytes)
			continue;
		f.halts++;
		double l = static_cast<double>(h.length_ns) / 1e6;
		double i =
			static_cast<double>(*h.queue_bytes) * 8e3 / static_cast<double>(link_bps);
		len.push_back(l);
		ideal.push_back(i);
		if (!*h.queue_bytes) {
			f.empty++;
			continue;
		}
		ratio.push_back(l / i);
	}
	if (!f.halts || !link_bps)
		return std::nullopt;
	std::sort(len.begin(), len.end());
	std::sort(ideal.begin(), ideal.end());
	f.length_ms_p50 = nearest_rank(len, 50);
	f.ideal_ms_p50 = nearest_rank(ideal, 50);
	f.ratios = ratio.size();
	if (!ratio.empty()) {
		std::sort(ratio.begin(), ratio.end());
		f.ratio_p10 = nearest_rank(ratio, 10);
		f.ratio_p50 = nearest_rank(ratio, 50);
		f.ratio_p90 = nearest_rank(ratio, 90);
		auto in = std::count_if(ratio.begin(), ratio.end(),
		                        [](double r) { return r >= 0.75 && r <= 1.25; });
		f.within_25_pct =
			100.0 * static_cast<double>(in) / static_cast<double>(ratio.size());
	}
	return f;
}

std::optional<FirstHalts> first_halts(const std::vector<Halt> &halts,
                                      const std::vector<QueueSample> &queue, std::uint64_t link_bps)
{
	std::map<std::pair<std::string, std::uint64_t>, const Halt *> first;
	for (const Halt &h : halts) {
		auto &f = first[{h.host, h.qpn}];
		if (!f || h.index < f->index)
			f = &h;
	}
	if (first.empty() || queue.empty() || !link_bps)
		return std::nullopt;
	double end_s = 0;
	for (const auto &[k, h] : first)
		end_s = std::max(end_s, h->t_s + static_cast<double>(h->length_ns) / 1e9);
	std::uint64_t peak = 0;
	for (const QueueSample &q : queue)
		if (static_cast<double>(q.t_us) <= end_s * 1e6)
			peak = std::max(peak, q.queue_bytes);
	if (!peak)
		return std::nullopt;
	FirstHalts f;
	f.qps = first.size();
	f.peak_kb = static_cast<double>(peak) / 1e3;
	f.ideal_ms = static_cast<double>(peak) * 8e3 / static_cast<double>(link_bps);
	std::vector<double> r;
	double sum = 0;
	for (const auto &[k, h] : first) {
		r.push_back(static_cast<double>(h->length_ns) / 1e6 / f.ideal_ms);
		sum += r.back();
	}
	std::sort(r.begin(), r.end());
	f.ratio_min = r.front();
	f.ratio_max = r.back();
	f.ratio_p50 = nearest_rank(r, 50);
	f.ratio_mean = sum / static_cast<double>(r.size());
	return f;
}

std::vector<RateStep> rate_steps(const MonitorFile &mon, const TrafficClock &clock,
                                 const Alignment &al)
{
	std::vector<RateStep> out;
	if (!clock.known)
		return out;
	for (const MonitorRow &r : mon.rows) {
		if (!r.rate_bps || r.algo == "none")
			continue;
		RateStep s;
		s.t_s = monitor_fabric_s(r.time_ns, clock, al);
		s.qp = mon.host + "/" + r.dev + "/" + std::to_string(r.qpn);
		s.rate_bps = *r.rate_bps;
		s.cut = names(r.event, "rate_dec");
		out.push_back(std::move(s));
	}
	return out;
}

std::optional<RateSettle> rate_settle(std::vector<RateStep> steps, std::uint64_t link_bps,
                                      double slack)
{
	std::stable_sort(steps.begin(), steps.end(),
	                 [](const RateStep &a, const RateStep &b) { return a.t_s < b.t_s; });
	std::map<std::string, std::uint64_t> latest;
	std::optional<double> detect;
	const double limit = (1 + slack) * static_cast<double>(link_bps);
	for (const RateStep &s : steps) {
		latest[s.qp] = s.rate_bps ? s.rate_bps : link_bps; // 0: unpaced
		if (!detect && s.cut)
			detect = s.t_s;
		if (!detect)
			continue;
		double sum = 0;
		for (const auto &[qp, v] : latest)
			sum += static_cast<double>(v);
		if (sum <= limit)
			return RateSettle{*detect, s.t_s, sum};
	}
	return std::nullopt;
}

} // namespace rxecc::report
