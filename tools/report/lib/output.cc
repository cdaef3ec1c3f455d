#include "output.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "error.h"

namespace rxecc::report
{

namespace
{

std::string q(const std::string &path) // a gnuplot single-quoted string
{
	std::string out = "'";
	for (char c : path)
		out += c == '\'' ? std::string("''") : std::string(1, c);
	return out + "'";
}

std::string dq(const std::string &text) // a gnuplot double-quoted string
{
	std::string out = "\"";
	for (char c : text) {
		if (c == '"' || c == '\\')
			out += '\\';
		out += c;
	}
	return out + "\"";
}

std::string header(const PlotContext &c, const char *name, int w, int h)
{
	return strf("set terminal %s size %d,%d\nset output %s\n", c.term.c_str(), w, h,
	            q(c.dir + "/" + name + ".png").c_str());
}

double rate_ymax(const Analysis &a)
{
	double m = 1;
	for (const RateBins &b : a.rate_bins)
		for (std::size_t i = 0; i < b.bytes.size(); ++i)
			m = std::max(m, b.mbps(i));
	return m * 1.05;
}

double queue_ymax(const Analysis &a)
{
	double m = 1;
	for (const QueuePoint &p : a.queue)
		m = std::max(m, static_cast<double>(p.bytes) / 1000);
	return m * 1.05;
}

} // namespace

std::string summary_csv(const Analysis &a)
{
	std::string out;
	for (const auto &[k, v] : a.summary)
		out += k + "," + v + "\n";
	return out;
}

std::map<std::string, std::string> parse_summary(std::string_view text)
{
	std::map<std::string, std::string> m;
	for (const std::string &l : split(text, '\n')) {
		auto c = l.find(',');
		if (c == std::string::npos)
			continue;
		std::string v = l.substr(c + 1);
		auto c2 = v.find(',');
		if (c2 != std::string::npos) // awk -F, reads the second field only
			v.resize(c2);
		m[l.substr(0, c)] = v;
	}
	return m;
}

std::string rate_dat(const Analysis &a)
{
	std::string out = "time_s";
	for (const std::string &c : a.rate_columns)
		out += " " + c;
	out += "\n";
	if (a.rate_bins.empty())
		return out;
	const RateBins &b0 = a.rate_bins.front();
	for (std::size_t i = 0; i < b0.bytes.size(); ++i) {
		out += strf("%.6f", (static_cast<double>(b0.first + static_cast<long>(i)) + 0.5) *
		                            b0.bin_us / 1e6);
		for (const RateBins &b : a.rate_bins)
			out += strf(" %.3f", b.mbps(i));
		out += "\n";
	}
	return out;
}

std::string queue_dat(const Analysis &a)
{
	std::string out = "time_s queue_kb paused width_s\n";
	const auto &Q = a.queue;
	for (std::size_t k = 0; k < Q.size(); ++k) {
		double w = k + 1 < Q.size() ? static_cast<double>(Q[k + 1].t_us - Q[k].t_us)
		           : Q.size() > 1   ? static_cast<double>(Q[k].t_us - Q[k - 1].t_us)
		                            : 1000;
		out += strf("%.6f %.3f %d %.6f\n", static_cast<double>(Q[k].t_us) / 1e6,
		            static_cast<double>(Q[k].bytes) / 1000, Q[k].paused ? 1 : 0, w / 1e6);
	}
	return out;
}

std::string queue_cdf_dat(const Analysis &a)
{
	std::string out = "queue_kb fraction\n";
	for (const auto &[x, f] : empirical_cdf(a.queue_window_kb))
		out += strf("%.3f %.6f\n", x, f);
	return out;
}

std::string slowdown_dat(const SlowdownReport &s)
{
	std::string out = "size_bytes p50 p95 p99 flows bucket\n";
	for (const BucketStats &b : s.fine)
		if (b.dist)
			out += strf("%.0f %.4f %.4f %.4f %zu %s\n", *b.median_size, b.dist->p50,
			            b.dist->p95, b.dist->p99, b.dist->count,
			            b.bucket.label.c_str());
	return out;
}

std::string slowdown_flows_csv(const SlowdownReport &s)
{
	std::string out = "flow,size_bytes,fct_ns,ideal_fct_ns,slowdown\n";
	for (const FlowSlowdown &f : s.flows)
		out += strf("%s,%llu,%.0f,%.0f,%.4f\n", f.flow.c_str(),
		            static_cast<unsigned long long>(f.size), f.fct_ns, f.ideal_ns,
		            f.slowdown);
	return out;
}

std::string flow_rate_dat(const Analysis &a)
{
	std::string out;
	for (const FlowRateSeries &f : a.flow_rates) {
		out += "# " + f.flow + "\n";
		if (f.points.empty())
			out += "nan nan\n";
		for (const auto &[t, r] : f.points)
			out += strf("%.6f %.3f\n", t, r);
		out += "\n\n";
	}
	return out;
}

std::string flow_cc_dat(const Analysis &a, std::vector<std::string> &labels)
{
	labels.clear();
	for (const FlowRateSeries &f : a.flow_rates)
		for (const CcPoint &p : f.cc)
			for (const auto &kv : p.feedback)
				if (std::find(labels.begin(), labels.end(), kv.first) ==
				    labels.end())
					labels.push_back(kv.first);
	auto o = [](const std::optional<double> &v) {
		return v ? strf(" %.6g", *v) : std::string(" nan");
	};
	std::string out;
	for (const FlowRateSeries &f : a.flow_rates) {
		out += "# " + f.flow + ": t_s rate_mbps target_mbps alpha window_kb";
		for (const std::string &l : labels)
			out += " '" + l + "'";
		out += "\n";
		if (f.cc.empty())
			out += "nan nan nan nan nan" + std::string(labels.size() * 4, ' ') + "\n";
		for (const CcPoint &p : f.cc) {
			out += strf("%.6f", p.t_s) + o(p.rate_mbps) + o(p.target_mbps) +
			       o(p.alpha) + o(p.window_kb);
			for (const std::string &l : labels) {
				auto it = p.feedback.find(l);
				out += it == p.feedback.end() ? " nan" : strf(" %.0f", it->second);
			}
			out += "\n";
		}
		out += "\n\n";
	}
	return out;
}

std::string focus_dat(const FocusPlot &f)
{
	std::string out = "t_s";
	for (const std::string &c : f.columns)
		out += " " + c;
	out += "\n";
	for (const std::vector<double> &r : f.rows) {
		for (std::size_t i = 0; i < r.size(); ++i)
			out += std::isnan(r[i]) ? std::string(" nan")
			                        : strf(i ? " %.3f" : "%.6f", r[i]);
		out += "\n";
	}
	return out;
}

std::string mice_dat(const MiceLatency &m)
{
	std::string out = "# " + m.flow + ": t_s latency_ms\n";
	for (const auto &[t, us] : m.points)
		out += strf("%.6f %.4f\n", t, us / 1e3);
	out += "\n\n# " + m.flow + ": latency_ms fraction\n";
	std::vector<double> v;
	for (const auto &p : m.points)
		v.push_back(p.second / 1e3);
	for (const auto &[x, f] : empirical_cdf(v))
		out += strf("%.4f %.6f\n", x, f);
	return out;
}

namespace
{

std::string focus_title(const FocusPlot &f)
{
	return f.kind == "recovery" ? "the long flow's rate around the short flow's end"
	                            : "bottleneck queue after the incast's start";
}

// the threshold (and, for one run, the mark) as arrows
std::string focus_lines(const FocusPlot &f, double x0, double x1, bool mark)
{
	std::string g = strf("set arrow from %.6f,%.3f to %.6f,%.3f nohead dt 2 lc rgb \"red\"\n",
	                     x0, f.threshold, x1, f.threshold);
	g += strf(
		"set label %s at %.6f,%.3f right offset 0,0.6 tc rgb \"red\"\n",
		dq(f.kind == "recovery" ? "recovered at or above" : "drained at or below").c_str(),
		x1, f.threshold);
	if (mark && f.mark_s)
		g += strf("set arrow from %.6f, graph 0 to %.6f, graph 1 nohead dt 3 lc rgb "
		          "\"dark-green\"\n",
		          *f.mark_s, *f.mark_s);
	return g;
}

} // namespace

std::string focus_gp(const PlotContext &c, const FocusPlot &f)
{
	std::string g = header(c, f.kind.c_str(), 1000, 500);
	g += "set title " + dq(c.title + ": " + focus_title(f)) + "\n";
	g += "set xlabel " + dq("time since " + f.event + " (s)") + "\n";
	g += "set ylabel " + dq(f.ylabel) + "\nset yrange [0:*]\n";
	g += strf("set xrange [%.6f:%.6f]\n", f.x0_s, f.x1_s);
	g += "set grid\nset key outside right top\nset key autotitle columnhead\n";
	g += focus_lines(f, f.x0_s, f.x1_s, true);
	g += "plot " + q(c.dir + "/focus.dat") +
	     strf(" using 1:2 with lines lw 2 lc rgb \"blue\" title columnheader(2)");
	if (f.columns.size() > 1)
		g += strf(", for [i=3:%zu] '' using 1:i with lines lw 1 title columnheader(i)",
		          f.columns.size() + 1);
	g += "\n";
	return g;
}

std::string mice_gp(const PlotContext &c, const MiceLatency &m)
{
	std::string g = header(c, "mice", 1000, 800);
	const std::string dat = q(c.dir + "/mice.dat");
	g += strf("set multiplot layout 2,1 title %s\n",
	          dq(strf("%s: mice latency (flow %s, %llu-byte messages one at a time; %zu after "
	                  "the first %g s)",
	                  c.title.c_str(), m.flow.c_str(),
	                  static_cast<unsigned long long>(m.msg_bytes), m.messages,
	                  m.warmup_us / 1e6))
	                  .c_str());
	g += "set grid\nset key outside right top\n";
	g += "set title \"each message: completion - post\"\n";
	g += "set xlabel \"time since the mice flow's first message (s)\"\n";
	g += "set ylabel \"latency (ms)\"\nset yrange [0:*]\n";
	g += "plot " + dat + " index 0 using 1:2 with points pt 7 ps 0.3 lc rgb \"blue\" title " +
	     "\"message\"";
	if (m.base_rtt_us)
		g += strf(", %.4f with lines dt 2 lw 2 lc rgb \"red\" title \"base RTT\"",
		          *m.base_rtt_us / 1e3);
	g += "\n";
	g += "set title \"CDF\"\nset xlabel \"latency (ms)\"\n";
	g += "set ylabel \"fraction of messages\"\nset yrange [0:1.02]\nset xrange [0:*]\n";
	if (m.base_rtt_us)
		g += strf("set arrow from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lw 2 lc rgb "
		          "\"red\"\nset label \"base RTT\" at %.4f, graph 0.5 left offset 0.5,0 "
		          "tc rgb \"red\"\n",
		          *m.base_rtt_us / 1e3, *m.base_rtt_us / 1e3, *m.base_rtt_us / 1e3);
	g += "plot " + dat +
	     " index 1 using 1:2 with steps lw 2 lc rgb \"blue\" title \"latency\"\n";
	g += "unset multiplot\n";
	return g;
}

std::string rate_gp(const PlotContext &c, const Analysis &a, const Settings &s)
{
	std::string g = header(c, "rate", 1000, 600);
	const bool egress = std::any_of(
		a.rate_columns.begin(), a.rate_columns.end(),
		[](const std::string &col) { return col.find('@') != std::string::npos; });
	g += "set title " +
	     dq(c.title + ": rate per flow (fabric ingress" +
	        (egress ? "; FLOW@PORT: the receiver's port" : "") + ", " + c.bin_text + " bins)") +
	     "\n";
	g += "set xlabel \"time (s)\"\nset ylabel \"Mbit/s\"\n";
	g += strf("set yrange [0:%.3f]\n", rate_ymax(a));
	g += "set grid\nset key outside right top\nset key autotitle columnhead\n";
	g += "plot " + q(c.dir + "/rate.dat") +
	     " using 1:2 with lines lw 3 lc rgb \"black\" title " +
	     dq("bottleneck " + s.bottleneck + " tx") + ", \\\n";
	g += strf("     for [i=3:%zu] '' using 1:i with lines lw 1.5 title columnheader(i)\n",
	          a.rate_columns.size() + 1);
	return g;
}

std::string queue_gp(const PlotContext &c, const Analysis &a, const Settings &s)
{
	std::string g = header(c, "queue", 1000, 500);
	double ymax = queue_ymax(a);
	g += "set title " +
	     dq(c.title + ": bottleneck " + s.bottleneck + " queue, priority " +
	        std::to_string(s.data_prio)) +
	     "\n";
	g += "set xlabel \"time (s)\"\nset ylabel \"KB\"\n";
	g += strf("set yrange [0:%.3f]\n", ymax);
	g += "set grid\nset key outside right top\nset style fill transparent solid 0.25 noborder\n"
	     "set key autotitle columnhead\n";
	bool paused = std::any_of(a.queue.begin(), a.queue.end(),
	                          [](const QueuePoint &p) { return p.paused; });
	std::string dat = q(c.dir + "/queue.dat");
	if (paused)
		g += "plot " + dat +
		     strf(" using ($1 + $4 / 2):($3 > 0 ? %.3f : 1/0):4 with boxes lc rgb \"red\" "
		          "title \"egress paused (PFC)\", \\\n",
		          ymax) +
		     "     '' using 1:2 with lines lw 1.5 lc rgb \"blue\" title \"queue\"\n";
	else
		g += "plot " + dat +
		     " using 1:2 with lines lw 1.5 lc rgb \"blue\" title \"queue\"\n";
	return g;
}

std::string queue_cdf_gp(const PlotContext &c, const Settings &s)
{
	std::string g = header(c, "queue_cdf", 1000, 500);
	g += "set title " +
	     dq(c.title + ": CDF of the bottleneck " + s.bottleneck + " queue (priority " +
	        std::to_string(s.data_prio) + ", window samples)") +
	     "\n";
	g += "set xlabel \"queue (KB)\"\nset ylabel \"fraction of samples\"\nset yrange [0:1.02]\n"
	     "set xrange [0:*]\nset grid\nset key outside right top\n";
	g += "plot " + q(c.dir + "/queue_cdf.dat") +
	     " using 1:2 with steps lw 2 lc rgb \"blue\" title \"queue\"\n";
	return g;
}

std::string slowdown_gp(const PlotContext &c)
{
	std::string g = header(c, "slowdown", 1000, 500);
	g += "set title " + dq(c.title + ": FCT slowdown by flow size") + "\n";
	g += "set xlabel \"flow size (bytes, median of each size bucket)\"\nset ylabel \"FCT "
	     "slowdown\"\n"
	     "set logscale x\nset logscale y\nset grid\nset key outside right top\n";
	std::string d = q(c.dir + "/slowdown.dat");
	g += "plot " + d +
	     " using 1:4 with linespoints lw 2 title \"p99\", \\\n"
	     "     '' using 1:3 with linespoints lw 2 title \"p95\", \\\n"
	     "     '' using 1:2 with linespoints lw 2 title \"p50\"\n";
	return g;
}

std::string flows_gp(const PlotContext &c, const Analysis &a, const std::vector<std::string> &fb)
{
	std::size_t n = a.flow_rates.size();
	std::size_t panels = 0;
	for (const FlowRateSeries &f : a.flow_rates)
		panels += f.cc.empty() ? 1u : 2u;
	std::string g = header(c, "flows", 1000, static_cast<int>(200 * panels + 60));
	g += strf("set multiplot layout %zu,1 title %s\n", panels,
	          dq(c.title + ": per-flow rate (generator bins) and sender CC state").c_str());
	g += "set lmargin at screen 0.08\nset rmargin at screen 0.80\nset grid\n"
	     "set key outside right top\nset xlabel \"time (s, fabric clock)\"\n";
	std::string rd = q(c.dir + "/flow_rate.dat"), cd = q(c.dir + "/flow_cc.dat");
	for (std::size_t i = 0; i < n; ++i) {
		const FlowRateSeries &f = a.flow_rates[i];
		// the rate and the state panels of a flow share their time axis
		double lo = 1e300, hi = -1e300;
		for (const auto &p : f.points) {
			lo = std::min(lo, p.first);
			hi = std::max(hi, p.first);
		}
		for (const CcPoint &p : f.cc) {
			lo = std::min(lo, p.t_s);
			hi = std::max(hi, p.t_s);
		}
		if (hi <= lo)
			hi = lo + 0.001;
		g += strf("set xrange [%.6f:%.6f]\n", lo, hi);
		g += "unset y2tics\nunset y2label\nset ytics mirror\nset yrange [0:*]\n";
		g += "set title " +
		     dq(strf("flow %s (%.0f ms bins)", f.flow.c_str(), f.bin_s * 1e3)) +
		     "\nset ylabel \"Mbit/s\"\n";
		g += strf("plot %s index %zu using 1:2 with histeps lw 1.5 lc rgb \"black\" title "
		          "\"goodput\"",
		          rd.c_str(), i);
		if (!f.cc.empty())
			g += strf(", \\\n     %s index %zu using 1:2 with steps lw 1.5 lc rgb "
			          "\"blue\" title \"CC rate\", "
			          "\\\n     %s index %zu using 1:3 with steps lw 1.5 dt 2 lc rgb "
			          "\"dark-green\" "
			          "title \"target rate\"",
			          cd.c_str(), i, cd.c_str(), i);
		g += "\n";
		if (f.cc.empty())
			continue;
		bool window = std::any_of(f.cc.begin(), f.cc.end(),
		                          [](const CcPoint &p) { return p.window_kb.has_value(); });
		g += "set title " + dq("flow " + f.flow + ": sender QP state") + "\n";
		g += window ? "set ylabel \"alpha / window (KB)\"\nset yrange [0:*]\n"
		            : "set ylabel \"alpha\"\nset yrange [0:1.05]\n";
		g += "set y2label \"feedback (cumulative)\"\nset y2tics\nset ytics nomirror\nset "
		     "y2range [0:*]\n";
		g += strf("plot %s index %zu using 1:4 with steps lw 1.5 lc rgb \"purple\" title "
		          "\"alpha\"",
		          cd.c_str(), i);
		if (window)
			g += strf(", \\\n     %s index %zu using 1:5 with steps lw 1.5 lc rgb "
			          "\"orange\" title \"window (KB)\"",
			          cd.c_str(), i);
		for (std::size_t k = 0; k < fb.size(); ++k)
			g += strf(", \\\n     %s index %zu using 1:%zu axes x1y2 with steps lw 1 "
			          "title %s",
			          cd.c_str(), i, 6 + k, dq(fb[k]).c_str());
		g += "\n";
	}
	g += "unset multiplot\n";
	return g;
}

// ---- comparison ---------------------------------------------------------------

const std::vector<std::string> kCompareKeys = {
	"label",        "goodput_mbps", "jain",     "util",   "queue_p50_kb", "queue_p99_kb",
	"queue_max_kb", "ecn_marks",    "pfc_sent", "pfc_rx", "drops",        "fct_mean_s"};

const std::vector<std::string> kCompareScenarioKeys = {"jain_step_min",  "recovery_ms",
                                                       "recovery_rtts",  "recovery_pre_ms",
                                                       "long_alone_pct", "drain_ms",
                                                       "drain_rtts",     "incast_peak_kb",
                                                       "rate_settle_ms", "first_halt_ratio_mean",
                                                       "halt_ratio_p50", "mice_p50_us",
                                                       "mice_p99_us",    "mice_p50_rtts",
                                                       "mice_p99_rtts"};

namespace
{

std::string get_or_na(const CompareRun &r, const std::string &k)
{
	auto it = r.summary.find(k);
	return it == r.summary.end() ? std::string("n/a") : it->second;
}

bool any_has(const std::vector<CompareRun> &runs, const char *k)
{
	return std::any_of(runs.begin(), runs.end(),
	                   [&](const CompareRun &r) { return r.summary.count(k) > 0; });
}

} // namespace

std::string comparison_csv(const std::vector<CompareRun> &runs)
{
	std::string out;
	for (std::size_t i = 0; i < kCompareKeys.size(); ++i)
		out += (i ? "," : "") + kCompareKeys[i];
	for (const std::string &k : kCompareScenarioKeys)
		out += "," + k;
	out += "\n";
	for (const CompareRun &r : runs) {
		for (std::size_t i = 0; i < kCompareKeys.size(); ++i)
			out += (i ? "," : "") + r.summary.at(kCompareKeys[i]);
		for (const std::string &k : kCompareScenarioKeys)
			out += "," + get_or_na(r, k);
		out += "\n";
	}
	return out;
}

std::string comparison_scenario_txt(const std::vector<CompareRun> &runs)
{
	std::string t;
	// a figure, or its note when it is n/a
	auto cell = [](const CompareRun &r, const char *k, const char *note) {
		std::string v = get_or_na(r, k);
		if (v != "n/a")
			return v;
		std::string n = get_or_na(r, note);
		return n == "n/a" ? v : "n/a: " + n;
	};
	auto pct = [](const std::string &v) { return v == "n/a" ? v : v + "%"; };
	if (any_has(runs, "recovery_ms")) {
		t += strf("\nlong flow recovery after the short flow (its mean rate over the next "
		          "50 ms at 95 %% of the line rate or of its rate alone)\n\n%-14s %9s %9s "
		          "%10s %9s %9s  %s\n",
		          "label", "alone", "max after", "line: ms", "RTTs", "alone: ms", "note");
		for (const CompareRun &r : runs) {
			std::string n = get_or_na(r, "recovery_note");
			t += strf("%-14s %9s %9s %10s %9s %9s  %s\n", r.summary.at("label").c_str(),
			          pct(get_or_na(r, "long_alone_pct")).c_str(),
			          pct(get_or_na(r, "long_after_max_pct")).c_str(),
			          get_or_na(r, "recovery_ms").c_str(),
			          get_or_na(r, "recovery_rtts").c_str(),
			          get_or_na(r, "recovery_pre_ms").c_str(),
			          n == "n/a" ? "" : n.c_str());
		}
	}
	if (any_has(runs, "drain_ms")) {
		t += strf("\nqueue after the incast (times from the burst's first data)\n\n%-14s "
		          "%10s %10s %10s %10s %9s  %s\n",
		          "label", "peak [KB]", "at [ms]", "thr [KB]", "drain [ms]", "RTTs",
		          "note");
		for (const CompareRun &r : runs) {
			std::string n = get_or_na(r, "drain_note");
			t += strf("%-14s %10s %10s %10s %10s %9s  %s\n",
			          r.summary.at("label").c_str(),
			          get_or_na(r, "incast_peak_kb").c_str(),
			          get_or_na(r, "incast_peak_ms").c_str(),
			          get_or_na(r, "drain_threshold_kb").c_str(),
			          get_or_na(r, "drain_ms").c_str(),
			          get_or_na(r, "drain_rtts").c_str(), n == "n/a" ? "" : n.c_str());
		}
	}
	if (any_has(runs, "mice_p50_us")) {
		t += strf("\nmice latency (the mice flow's messages, completion - post, after its "
		          "warm-up; RTTs: over the run's base RTT)\n\n%-14s %9s %10s %10s %10s "
		          "%10s %10s %8s %8s  %s\n",
		          "label", "messages", "p50 [us]", "p95 [us]", "p99 [us]", "max [us]",
		          "base [us]", "p50/base", "p99/base", "note");
		for (const CompareRun &r : runs) {
			std::string n = get_or_na(r, "mice_note");
			t += strf("%-14s %9s %10s %10s %10s %10s %10s %8s %8s  %s\n",
			          r.summary.at("label").c_str(),
			          get_or_na(r, "mice_messages").c_str(),
			          get_or_na(r, "mice_p50_us").c_str(),
			          get_or_na(r, "mice_p95_us").c_str(),
			          get_or_na(r, "mice_p99_us").c_str(),
			          get_or_na(r, "mice_max_us").c_str(),
			          get_or_na(r, "mice_base_rtt_us").c_str(),
			          get_or_na(r, "mice_p50_rtts").c_str(),
			          get_or_na(r, "mice_p99_rtts").c_str(),
			          n == "n/a" ? "" : n.c_str());
		}
	}
	if (any_has(runs, "rate_settle_ms")) {
		t += strf(
			"\nthe senders' computed rates (monitor events): from the first cut to an "
			"aggregate of 1.1 x link or less;\nACC's halts over the backlog they "
			"should drain at the link rate (first halts: the first peak)\n\n%-14s "
			"%10s %10s %10s %10s %10s\n",
			"label", "settle", "1st halt", "1st halt", "1st halt", "halts");
		t += strf("%-14s %10s %10s %10s %10s %10s\n", "", "[ms]", "min", "mean", "max",
		          "p50");
		for (const CompareRun &r : runs)
			t += strf("%-14s %10s %10s %10s %10s %10s\n", r.summary.at("label").c_str(),
			          get_or_na(r, "rate_settle_ms").c_str(),
			          get_or_na(r, "first_halt_ratio_min").c_str(),
			          get_or_na(r, "first_halt_ratio_mean").c_str(),
			          get_or_na(r, "first_halt_ratio_max").c_str(),
			          get_or_na(r, "halt_ratio_p50").c_str());
	}
	if (any_has(runs, "step.1.start_s")) {
		t += "\nrates per step [Mbit/s] (each flow at its own port, the settling time left "
		     "out; steps too short for it not shown) and the PFC frames the fabric sent "
		     "meanwhile to hosts and to switches\n";
		for (const CompareRun &r : runs) {
			if (!r.summary.count("step.1.start_s"))
				continue;
			// the flows of the step.K.FLOW.rate_mbps keys, as steps
			// first name them
			const std::string suffix = ".rate_mbps";
			std::vector<std::string> flows;
			std::size_t steps = 0;
			while (r.summary.count("step." + std::to_string(steps + 1) + ".start_s")) {
				const std::string pre = "step." + std::to_string(++steps) + ".";
				for (auto it = r.summary.lower_bound(pre);
				     it != r.summary.end() &&
				     it->first.compare(0, pre.size(), pre) == 0;
				     ++it) {
					const std::string rest = it->first.substr(pre.size());
					if (rest.size() <= suffix.size() ||
					    rest.compare(rest.size() - suffix.size(), suffix.size(),
					                 suffix) != 0)
						continue;
					const std::string f =
						rest.substr(0, rest.size() - suffix.size());
					if (std::find(flows.begin(), flows.end(), f) == flows.end())
						flows.push_back(f);
				}
			}
			t += strf("\n%s\n  %-4s %10s %10s", r.summary.at("label").c_str(), "step",
			          "start [s]", "end [s]");
			for (const std::string &f : flows)
				t += strf(" %8s", f.c_str());
			t += strf(" %9s %9s\n", "PFC>host", "PFC>sw");
			for (std::size_t k = 1; k <= steps; ++k) {
				const std::string pre = "step." + std::to_string(k) + ".";
				std::string row;
				bool any = false;
				for (const std::string &f : flows) {
					auto it = r.summary.find(pre + f + suffix);
					const std::string v =
						it == r.summary.end() ? "-" : it->second;
					any = any || (v != "-" && v != "n/a");
					row += strf(" %8s", v.c_str());
				}
				if (!any)
					continue;
				t += strf("  %-4zu %10s %10s", k,
				          get_or_na(r, pre + "start_s").c_str(),
				          get_or_na(r, pre + "end_s").c_str()) +
				     row +
				     strf(" %9s %9s\n", get_or_na(r, pre + "pfc_to_hosts").c_str(),
				          get_or_na(r, pre + "pfc_to_switches").c_str());
			}
		}
	}
	if (any_has(runs, "jain_step_min")) {
		std::size_t steps = 0;
		for (const CompareRun &r : runs)
			while (r.summary.count("jain_step." + std::to_string(steps + 1) + ".jain"))
				++steps;
		t += strf("\nJain index per step (flows active in the step)\n\n%-14s %8s", "label",
		          "lowest");
		for (std::size_t i = 1; i <= steps; ++i)
			t += strf(" %9s", strf("step %zu", i).c_str());
		t += "\n";
		for (const CompareRun &r : runs) {
			t += strf("%-14s %8s", r.summary.at("label").c_str(),
			          cell(r, "jain_step_min", "jain_step_note").c_str());
			for (std::size_t i = 1; i <= steps; ++i) {
				std::string k = "jain_step." + std::to_string(i) + ".";
				std::string j = get_or_na(r, k + "jain");
				t += strf(" %9s",
				          r.summary.count(k + "jain")
				                  ? (j + "(" + get_or_na(r, k + "flows") + ")")
				                            .c_str()
				                  : "-");
			}
			t += "\n";
		}
	}
	return t;
}

std::string comparison_txt(const std::string &scenario, const std::vector<CompareRun> &runs)
{
	std::string t = strf("comparison: scenario %s\n\n", scenario.c_str());
	t += strf("%-14s %10s %6s %7s %9s %9s %9s %9s %9s %9s %7s %10s\n", "label", "goodput",
	          "Jain", "util", "q p50", "q p99", "q max", "ECN", "PFC sent", "PFC rx", "drops",
	          "mean FCT");
	t += strf("%-14s %10s %6s %7s %9s %9s %9s %9s %9s %9s %7s %10s\n", "", "[Mbit/s]", "",
	          "[%]", "[KB]", "[KB]", "[KB]", "marks", "", "", "", "[s]");
	auto num = [](const std::string &s) { return std::strtod(s.c_str(), nullptr); };
	for (const CompareRun &r : runs) {
		auto v = [&](const char *k) { return r.summary.at(k); };
		t += strf("%-14s %10.2f %6s %7.2f %9.1f %9.1f %9.1f %9s %9s %9s %7s %10s\n",
		          v("label").c_str(), num(v("goodput_mbps")),
		          v("jain") == "n/a" ? "n/a" : strf("%.3f", num(v("jain"))).c_str(),
		          num(v("util")) * 100, num(v("queue_p50_kb")), num(v("queue_p99_kb")),
		          num(v("queue_max_kb")), v("ecn_marks").c_str(), v("pfc_sent").c_str(),
		          v("pfc_rx").c_str(), v("drops").c_str(),
		          v("fct_mean_s") == "n/a" ? "-"
		                                   : strf("%.6f", num(v("fct_mean_s"))).c_str());
	}
	t += comparison_scenario_txt(runs);
	// FCT slowdown per size bucket, for the runs that have it
	const SlowdownReport *first = nullptr;
	for (const CompareRun &r : runs)
		if (!first && r.analysis && r.analysis->slowdown)
			first = &*r.analysis->slowdown;
	if (!first)
		return t;
	t += strf("\nFCT slowdown (p50 / p99 per size bucket)\n\n%-14s", "label");
	for (const BucketStats &b : first->buckets)
		t += strf(" %19s", b.bucket.label.c_str());
	t += strf(" %19s\n", "all");
	for (const CompareRun &r : runs) {
		t += strf("%-14s", r.summary.at("label").c_str());
		auto cell = [&](const std::optional<Distribution> &d) {
			t += d ? strf(" %9.2f/%9.2f", d->p50, d->p99) : strf(" %19s", "-");
		};
		if (!r.analysis || !r.analysis->slowdown) {
			t += " " + (r.analysis ? r.analysis->slowdown_note : std::string("n/a")) +
			     "\n";
			continue;
		}
		for (const BucketStats &b : r.analysis->slowdown->buckets)
			cell(b.dist);
		cell(r.analysis->slowdown->all);
		t += "\n";
	}
	return t;
}

std::string comparison_slowdown_csv(const std::vector<CompareRun> &runs)
{
	std::string out = "label,bucket,count,p50,p95,p99,mean\n";
	bool any = false;
	for (const CompareRun &r : runs) {
		if (!r.analysis || !r.analysis->slowdown)
			continue;
		any = true;
		const SlowdownReport &s = *r.analysis->slowdown;
		auto row = [&](const std::string &label, const std::optional<Distribution> &d) {
			if (d)
				out += strf("%s,%s,%zu,%.3f,%.3f,%.3f,%.3f\n",
				            r.summary.at("label").c_str(), label.c_str(), d->count,
				            d->p50, d->p95, d->p99, d->mean);
			else
				out += r.summary.at("label") + "," + label + ",0,n/a,n/a,n/a,n/a\n";
		};
		for (const BucketStats &b : s.buckets)
			row(b.bucket.label, b.dist);
		row("all", s.all);
	}
	return any ? out : std::string();
}

std::string cmp_queue_gp(const PlotContext &c, const std::vector<CompareRun> &runs)
{
	double qmax = 1, xmax = 1;
	std::string plot;
	for (const CompareRun &r : runs) {
		const Analysis &a = *r.analysis;
		qmax = std::max(qmax, queue_ymax(a));
		xmax = std::max(xmax, static_cast<double>(a.w1 - a.w0) / 1e6 + 2);
		plot += (plot.empty() ? "" : ", ") + q(r.work + "/queue.dat") +
		        strf(" using ($1 - %.6f):2 with lines lw 1.5 title ",
		             static_cast<double>(a.w0) / 1e6) +
		        dq(r.summary.at("label"));
	}
	std::string g = header(c, "queue", 1000, 500);
	g += "set title " + dq(c.title + ": bottleneck queue, data priority") + "\n";
	g += strf("set xlabel \"time since the window start (s)\"\nset xrange [-2:%.6f]\n", xmax);
	g += strf("set ylabel \"KB\"\nset yrange [0:%.3f]\n", qmax);
	g += "set grid\nset key outside right top\nset key autotitle columnhead\n";
	g += "plot " + plot + "\n";
	return g;
}

std::string cmp_rate_gp(const PlotContext &c, const std::vector<CompareRun> &runs)
{
	double rmax = 1, xmax = 1;
	std::string tplot, panels;
	for (const CompareRun &r : runs) {
		const Analysis &a = *r.analysis;
		rmax = std::max(rmax, rate_ymax(a));
		xmax = std::max(xmax, static_cast<double>(a.w1 - a.w0) / 1e6 + 2);
		double t0 = static_cast<double>(a.w0) / 1e6;
		const std::string &lab = r.summary.at("label");
		std::string dat = q(r.work + "/rate.dat");
		tplot += (tplot.empty() ? "" : ", ") + dat +
		         strf(" using ($1 - %.6f):2 with lines lw 2 title ", t0) + dq(lab);
		panels += "set title " + dq(lab + ": rate per flow") + "\n";
		panels += "plot " + dat +
		          strf(" using ($1 - %.6f):2 with lines lw 3 lc rgb \"black\" title "
		               "\"bottleneck tx\", for [i=3:%zu] '' using ($1 - %.6f):i with lines "
		               "lw 1.5 title columnheader(i)\n",
		               t0, a.rate_columns.size() + 1, t0);
	}
	std::string g = header(c, "rate", 1000, static_cast<int>(300 * (runs.size() + 1)));
	g += strf("set multiplot layout %zu,1\n", runs.size() + 1);
	g += "set lmargin at screen 0.08\nset rmargin at screen 0.82\n";
	g += strf("set xlabel \"time since the window start (s)\"\nset xrange [-2:%.6f]\n", xmax);
	g += strf("set ylabel \"Mbit/s\"\nset yrange [0:%.3f]\n", rmax);
	g += "set grid\nset key outside right top\nset key autotitle columnhead\n";
	g += "set title " + dq(c.title + ": bottleneck tx rate (" + c.bin_text + " bins)") + "\n";
	g += "plot " + tplot + "\n" + panels + "unset multiplot\n";
	return g;
}

std::string cmp_queue_cdf_gp(const PlotContext &c, const std::vector<CompareRun> &runs)
{
	std::string plot;
	for (const CompareRun &r : runs)
		plot += (plot.empty() ? "" : ", ") + q(r.work + "/queue_cdf.dat") +
		        " using 1:2 with steps lw 2 title " + dq(r.summary.at("label"));
	std::string g = header(c, "queue_cdf", 1000, 500);
	g += "set title " +
	     dq(c.title + ": CDF of the bottleneck queue (data priority, window samples)") + "\n";
	g += "set xlabel \"queue (KB)\"\nset ylabel \"fraction of samples\"\nset yrange [0:1.02]\n"
	     "set xrange [0:*]\nset grid\nset key outside right top\nset key autotitle "
	     "columnhead\n";
	g += "plot " + plot + "\n";
	return g;
}

std::string cmp_slowdown_gp(const PlotContext &c, const std::vector<CompareRun> &runs)
{
	std::string plot;
	int k = 0;
	for (const CompareRun &r : runs) {
		if (!r.analysis->slowdown)
			continue;
		++k;
		std::string d = q(r.work + "/slowdown.dat");
		const std::string &lab = r.summary.at("label");
		plot += (plot.empty() ? "" : ", \\\n     ") + d +
		        strf(" using 1:4 with linespoints lw 2 lc %d title ", k) +
		        dq(lab + " p99") + ", " + d +
		        strf(" using 1:2 with linespoints lw 1 dt 2 lc %d title ", k) +
		        dq(lab + " p50");
	}
	std::string g = header(c, "slowdown", 1000, 500);
	g += "set title " + dq(c.title + ": FCT slowdown by flow size") + "\n";
	g += "set xlabel \"flow size (bytes)\"\nset ylabel \"FCT slowdown\"\nset logscale x\nset "
	     "logscale y\n"
	     "set grid\nset key outside right top\nset key autotitle columnhead\n";
	g += "plot " + plot + "\n";
	return g;
}

std::string cmp_focus_gp(const PlotContext &c, const std::vector<CompareRun> &runs)
{
	const FocusPlot *first = nullptr;
	double x0 = 0, x1 = 0;
	std::string plot;
	for (const CompareRun &r : runs) {
		if (!r.analysis || !r.analysis->focus)
			continue;
		const FocusPlot &f = *r.analysis->focus;
		if (!first) {
			first = &f;
			x0 = f.x0_s;
			x1 = f.x1_s;
		}
		x0 = std::min(x0, f.x0_s);
		x1 = std::max(x1, f.x1_s);
		plot += (plot.empty() ? "" : ", ") + q(r.work + "/focus.dat") +
		        " using 1:2 with lines lw 2 title " + dq(r.summary.at("label"));
	}
	if (!first)
		return "";
	std::string g = header(c, first->kind.c_str(), 1000, 500);
	g += "set title " + dq(c.title + ": " + focus_title(*first)) + "\n";
	g += "set xlabel " + dq("time since " + first->event + " (s)") + "\n";
	g += "set ylabel " + dq(first->ylabel) + "\nset yrange [0:*]\n";
	g += strf("set xrange [%.6f:%.6f]\n", x0, x1);
	g += "set grid\nset key outside right top\nset key autotitle columnhead\n";
	// the line-rate threshold is common; the drain thresholds differ per run
	if (first->kind == "recovery")
		g += focus_lines(*first, x0, x1, false);
	g += "plot " + plot + "\n";
	return g;
}

std::string cmp_mice_gp(const PlotContext &c, const std::vector<CompareRun> &runs)
{
	std::string plot, arrows;
	int k = 0;
	for (const CompareRun &r : runs) {
		if (!r.analysis || !r.analysis->mice)
			continue;
		++k;
		const MiceLatency &m = *r.analysis->mice;
		plot += (plot.empty() ? "" : ", \\\n     ") + q(r.work + "/mice.dat") +
		        strf(" index 1 using 1:2 with steps lw 2 lc %d title ", k) +
		        dq(r.summary.at("label"));
		if (m.base_rtt_us)
			arrows +=
				strf("set arrow from %.4f, graph 0 to %.4f, graph 1 nohead dt 2 lc "
			             "%d\n",
			             *m.base_rtt_us / 1e3, *m.base_rtt_us / 1e3, k);
	}
	if (plot.empty())
		return "";
	std::string g = header(c, "mice", 1000, 500);
	g += "set title " +
	     dq(c.title + ": CDF of the mice flow's message latency (dashed: each run's base "
	                  "RTT)") +
	     "\n";
	g += "set xlabel \"latency (ms, log scale)\"\nset logscale x\n";
	g += "set ylabel \"fraction of messages\"\nset yrange [0:1.02]\n";
	g += "set grid\nset key outside right top\n" + arrows;
	g += "plot " + plot + "\n";
	return g;
}

// ---- index page ------------------------------------------------------------

std::string html_escape(std::string_view s)
{
	std::string out;
	for (char c : s) {
		switch (c) {
		case '&': out += "&amp;"; break;
		case '<': out += "&lt;"; break;
		case '>': out += "&gt;"; break;
		case '"': out += "&quot;"; break;
		case '\'': out += "&#39;"; break;
		default: out += c;
		}
	}
	return out;
}

std::string index_html(const std::string &title, const std::vector<IndexScenario> &sc)
{
	std::string h =
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
		html_escape(title) +
		"</title>\n<style>\n"
		"body { font-family: sans-serif; margin: 1em; }\n"
		"pre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; }\n"
		"p.paper { margin: 0.2em 0; }\n"
		"table.plots td { vertical-align: top; padding: 4px; }\n"
		"table.plots img { width: 100%; max-width: 700px; }\n"
		"</style>\n</head>\n<body>\n<h1>" +
		html_escape(title) + "</h1>\n<ul>\n";
	for (const IndexScenario &s : sc)
		h += "<li><a href=\"#" + html_escape(s.name) + "\">" + html_escape(s.name) +
		     "</a>" + (s.paper.empty() ? "" : ": " + html_escape(s.paper.front())) +
		     "</li>\n";
	h += "</ul>\n";
	for (const IndexScenario &s : sc) {
		h += "<h2 id=\"" + html_escape(s.name) + "\">" + html_escape(s.name) + "</h2>\n";
		for (const std::string &l : s.paper)
			h += "<p class=\"paper\"><b>Paper:</b> " + html_escape(l) + "</p>\n";
		h += "<p>Results: <a href=\"" + html_escape(s.dir) + "\">" + html_escape(s.dir) +
		     "</a></p>\n";
		h += "<pre>" + html_escape(s.comparison_txt) + "</pre>\n";
		if (!s.cmp_plots.empty()) {
			h += "<table class=\"plots\"><tr>\n";
			for (const std::string &p : s.cmp_plots)
				h += "<td><img src=\"" + html_escape(p) + "\" alt=\"" +
				     html_escape(p) + "\"></td>\n";
			h += "</tr></table>\n";
		}
		if (s.runs.empty())
			continue;
		// one column per run, one row per plot kind
		std::vector<std::string> kinds;
		for (const auto &r : s.runs)
			for (const std::string &p : r.second) {
				std::string base = p.substr(p.find_last_of('/') + 1);
				if (std::find(kinds.begin(), kinds.end(), base) == kinds.end())
					kinds.push_back(base);
			}
		h += "<table class=\"plots\">\n<tr>";
		for (const auto &r : s.runs)
			h += "<th>" + html_escape(r.first) + "</th>";
		h += "</tr>\n";
		for (const std::string &k : kinds) {
			h += "<tr>";
			for (const auto &r : s.runs) {
				std::string cell;
				for (const std::string &p : r.second)
					if (p.substr(p.find_last_of('/') + 1) == k)
						cell = "<img src=\"" + html_escape(p) +
						       "\" alt=\"" +
						       html_escape(r.first + " " + k) + "\">";
				h += "<td>" + cell + "</td>";
			}
			h += "</tr>\n";
		}
		h += "</table>\n";
	}
	h += "</body>\n</html>\n";
	return h;
}

} // namespace rxecc::report
