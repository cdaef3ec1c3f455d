// rxecc-report: summary tables and plots of experiment results directories
// (Documentation/rxe-cc/experiments.rst, "Reports").
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "error.h"
#include "report.h"
#include "traffic.h"
#include "units.h"

using namespace rxecc::report;

namespace
{

const char *const kFooter = R"(Outputs: RESULTS/summary.txt (also printed), summary.csv, rate.png,
queue.png, queue_cdf.png, with the traffic generator's records
slowdown.csv, slowdown.png and flows.png, and recovery.png (long_short) or
drain.png (incast_long). With --compare, each run without a summary.csv gets
its report first; then OUTDIR/comparison.txt (printed), comparison.csv,
runs.csv, queue.png, rate.png, queue_cdf.png, when runs have FCT slowdowns
comparison_slowdown.csv and slowdown.png, and recovery.png or drain.png.
Nothing is written unless every input is valid.

  rxecc-report window [--write-data] RESULTS
      the flows' data periods and the window they give (all, any)
  rxecc-report flows RESULTS
      RESULTS/flows.csv from the traffic generator's records (traffic/),
      then what 'window --write-data' does
  rxecc-report base-rtt MESSAGES_CSV
      the median latency of a probe's messages (ns), a measured base RTT
  rxecc-report index [--title TEXT] OUTDIR COMPAREDIR...
      OUTDIR/index.html: the comparisons of several scenarios side by side
  rxecc-report testbed A_ENV B_ENV
      the table of scripts/testbed-table: two testbeds' figures and B/A

See Documentation/rxe-cc/experiments.rst.)";

int fail(const std::string &msg)
{
	std::cerr << "rxecc-report: " << msg << "\n";
	return 1;
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{"Summary table and plots of experiment results directories.\n\n"
	             "  rxecc-report [options] RESULTS\n"
	             "  rxecc-report [options] --compare OUTDIR RESULTS1 [RESULTS2 ...]\n"
	             "  rxecc-report window [--write-data] RESULTS\n"
	             "  rxecc-report flows RESULTS\n"
	             "  rxecc-report base-rtt MESSAGES_CSV\n"
	             "  rxecc-report index [--title TEXT] OUTDIR COMPAREDIR...\n"
	             "  rxecc-report testbed A_ENV B_ENV\n",
	             "rxecc-report"};
	app.footer(kFooter);
	std::string bin = "10ms", buckets, base_rtt, compare;
	std::size_t panels = 8;
	bool no_plots = false;
	std::vector<std::string> runs;
	app.add_option("--bin", bin,
	               "bin of the rate plots: a time, a bare number is ms (default 10ms)");
	app.add_flag("--no-plots", no_plots, "write the tables only (no gnuplot needed)");
	app.add_option("--buckets", buckets,
	               "upper bounds of the FCT slowdown size buckets (default 100KB,10MB)");
	app.add_option("--base-rtt", base_rtt,
	               "base RTT for FCT slowdowns (instead of meta.env base_rtt_ns)");
	app.add_option("--flow-panels", panels, "flows with a panel in flows.png (default 8)")
		->check(CLI::Range(1, 64));
	app.add_option("--compare", compare, "compare the RESULTS directories into OUTDIR");
	app.add_option("runs", runs, "results directories");

	CLI::App *win = app.add_subcommand("window", "the flows' data periods and the window");
	bool write_data = false;
	std::string win_dir;
	win->add_flag("--write-data", write_data, "also write RESULTS/flows/NAME.data");
	win->add_option("results", win_dir, "results directory")->required();

	CLI::App *fl = app.add_subcommand("flows", "flows.csv from the generator's records");
	std::string fl_dir;
	fl->add_option("results", fl_dir, "results directory")->required();

	CLI::App *rtt = app.add_subcommand("base-rtt", "median message latency of a probe");
	std::string rtt_file;
	rtt->add_option("messages", rtt_file, "the probe's messages.csv")->required();

	CLI::App *idx = app.add_subcommand("index", "an HTML page of several comparisons");
	std::string idx_out, title = "rxe-cc evaluation";
	std::vector<std::string> idx_dirs;
	idx->add_option("--title", title, "the page's title");
	idx->add_option("outdir", idx_out, "where index.html goes")->required();
	idx->add_option("comparisons", idx_dirs, "--compare output directories")->required();
	CLI::App *tb = app.add_subcommand("testbed", "two testbeds' figures side by side");
	std::string tb_a, tb_b;
	tb->add_option("a", tb_a, "the first testbed's key=value file")->required();
	tb->add_option("b", tb_b, "the second testbed's key=value file")->required();
	app.require_subcommand(0, 1);

	try {
		app.parse(argc, argv);
	} catch (const CLI::CallForHelp &e) {
		return app.exit(e);
	} catch (const CLI::ExtrasError &e) {
		std::string extra = e.what();
		for (int i = 1; i < argc; ++i)
			if (argv[i][0] == '-' && argv[i][1] != '\0') {
				std::string a = argv[i];
				if (a.find('=') != std::string::npos)
					a.resize(a.find('='));
				if (!app.get_option_no_throw(a) &&
				    extra.find(a) != std::string::npos)
					return fail("unknown option " + a + " (see --help)");
			}
		return fail(extra + " (see --help)");
	} catch (const CLI::ParseError &e) {
		return fail(std::string(e.what()) + " (see --help)");
	}

	try {
		if (*win) {
			report_window(win_dir, write_data, std::cout);
			return 0;
		}
		if (*fl) {
			report_flows(fl_dir, std::cout);
			return 0;
		}
		if (*rtt) {
			report_base_rtt(rtt_file, std::cout);
			return 0;
		}
		if (*tb) {
			report_testbed(tb_a, tb_b, std::cout);
			return 0;
		}
		if (*idx) {
			report_index(idx_out, idx_dirs, title, std::cout);
			return 0;
		}
		ReportOptions opt;
		opt.plots = !no_plots;
		opt.analysis.flow_panels = panels;
		std::string err;
		auto bin_ns = rxecc::units::parse_time_ns(bin, &err, 1000000);
		if (!bin_ns)
			return fail("--bin: not a time (" + err + ")");
		if (*bin_ns < 1000 || *bin_ns > 1000000000000ULL)
			return fail("--bin: must be between 1us and 1000s: " + bin);
		opt.analysis.bin_us = static_cast<double>(*bin_ns) / 1e3;
		opt.bin_text = rxecc::units::format_time_ns(*bin_ns);
		if (!buckets.empty())
			opt.analysis.buckets = parse_bucket_list(buckets);
		if (!base_rtt.empty()) {
			auto v = rxecc::units::parse_time_ns(base_rtt, &err);
			if (!v || *v == 0)
				return fail("--base-rtt: " +
				            (v ? std::string("must be longer than 0") : err));
			opt.analysis.base_rtt_ns = v;
		}
		if (!compare.empty() || app.count("--compare")) {
			if (compare.empty())
				return fail("--compare needs OUTDIR (see --help)");
			if (runs.empty())
				return fail("--compare needs at least one results directory (see "
				            "--help)");
			report_compare(compare, runs, opt, std::cout, std::cerr);
		} else {
			if (runs.size() != 1)
				return fail("expected one results directory (see --help)");
			report_one(runs[0], opt, std::cout, std::cerr);
		}
	} catch (const Error &e) {
		return fail(e.what());
	} catch (const std::exception &e) {
		return fail(std::string("unexpected error: ") + e.what());
	}
	return 0;
}
