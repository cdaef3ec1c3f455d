// Text the report writes: summary.csv, plot data and gnuplot scripts, the
// comparison tables and the index page. No file I/O here.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis.h"

namespace rxecc::report
{

std::string summary_csv(const Analysis &a);

// key,value lines of a summary.csv (later lines win).
std::map<std::string, std::string> parse_summary(std::string_view text);

// ---- plot data and scripts --------------------------------------------------

std::string rate_dat(const Analysis &a);           // time_s, bottleneck, one column per ingress
std::string queue_dat(const Analysis &a);          // time_s queue_kb paused width_s
std::string queue_cdf_dat(const Analysis &a);      // queue_kb fraction
std::string slowdown_dat(const SlowdownReport &s); // fine buckets: size p50 p95 p99 count
std::string slowdown_flows_csv(const SlowdownReport &s); // per flow
// One block per flow (separated by two blank lines, gnuplot "index"):
// rates "t_s mbps"; cc "t_s rate target alpha window fb1 fb2..."
std::string flow_rate_dat(const Analysis &a);
std::string flow_cc_dat(const Analysis &a, std::vector<std::string> &feedback_labels);
// the scenario's event (a.focus): "t_s COLUMN..." rows
std::string focus_dat(const FocusPlot &f);
// the mice flow's latencies (mice): two blocks (gnuplot "index"), every
// counted message "t_s latency_ms" (s since the flow's first message), then
// their CDF "latency_ms fraction"
std::string mice_dat(const MiceLatency &m);

struct PlotContext {
	std::string term; // gnuplot terminal ("pngcairo noenhanced font \",10\"")
	std::string dir;  // where the data files are and the PNGs go
	std::string title;
	std::string bin_text; // "10 ms"
};

// Each returns a gnuplot script writing DIR/NAME.png from DIR's data files.
std::string rate_gp(const PlotContext &c, const Analysis &a, const Settings &s);
std::string queue_gp(const PlotContext &c, const Analysis &a, const Settings &s);
std::string queue_cdf_gp(const PlotContext &c, const Settings &s);
std::string slowdown_gp(const PlotContext &c);
std::string flows_gp(const PlotContext &c, const Analysis &a,
                     const std::vector<std::string> &feedback_labels);
// DIR/KIND.png (recovery or drain) of a.focus, from DIR/focus.dat
std::string focus_gp(const PlotContext &c, const FocusPlot &f);
// DIR/mice.png from DIR/mice.dat: latency over time and its CDF, with the
// base RTT
std::string mice_gp(const PlotContext &c, const MiceLatency &m);

// ---- comparison ---------------------------------------------------------------

// Keys of summary.csv in comparison.csv, in order.
extern const std::vector<std::string> kCompareKeys;
// The scenarios' own keys that follow them ("n/a" when a run has none).
extern const std::vector<std::string> kCompareScenarioKeys;

struct CompareRun {
	std::string dir;  // results directory
	std::string work; // where its plot data is
	std::map<std::string, std::string> summary;
	const Analysis *analysis = nullptr;
};

std::string comparison_csv(const std::vector<CompareRun> &runs);
std::string comparison_txt(const std::string &scenario, const std::vector<CompareRun> &runs);
// The scenario's own sections of comparison.txt (recovery, drain, mice
// latency, the senders' computed rates and ACC's halts, Jain per step),
// those the runs have figures for.
std::string comparison_scenario_txt(const std::vector<CompareRun> &runs);
// slowdown per bucket of every run that has one ("" if none has)
std::string comparison_slowdown_csv(const std::vector<CompareRun> &runs);

std::string cmp_queue_gp(const PlotContext &c, const std::vector<CompareRun> &runs);
std::string cmp_rate_gp(const PlotContext &c, const std::vector<CompareRun> &runs);
std::string cmp_queue_cdf_gp(const PlotContext &c, const std::vector<CompareRun> &runs);
std::string cmp_slowdown_gp(const PlotContext &c, const std::vector<CompareRun> &runs);
// KIND.png: the runs' focus plots overlaid ("" when no run has one)
std::string cmp_focus_gp(const PlotContext &c, const std::vector<CompareRun> &runs);
// mice.png: the runs' mice latency CDFs overlaid ("" when no run has one)
std::string cmp_mice_gp(const PlotContext &c, const std::vector<CompareRun> &runs);

// ---- index page ------------------------------------------------------------

struct IndexScenario {
	std::string name;                   // scenario
	std::string dir;                    // comparison directory, relative to the page
	std::string comparison_txt;         // the table
	std::vector<std::string> paper;     // what it reproduces (paper.txt), a line each
	std::vector<std::string> cmp_plots; // relative paths of the comparison PNGs
	std::vector<std::pair<std::string, std::vector<std::string>>>
		runs; // label, its PNGs (relative)
};

std::string html_escape(std::string_view s);
std::string index_html(const std::string &title, const std::vector<IndexScenario> &sc);

} // namespace rxecc::report
