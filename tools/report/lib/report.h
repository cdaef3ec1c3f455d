// The report's file side: reading a results directory, writing its
// outputs (nothing unless every input is valid), running gnuplot.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "analysis.h"

namespace rxecc::report
{

// What load_run reads: everything, or what flows.csv and the data periods
// need (meta.env, ports.csv, hosts.txt, fabric_t0, the generator's
// records), which is what runs under emulation at the end of every
// experiment: queues.csv alone is twice the size of ports.csv.
enum class Load { all, flows };

// Reads and checks every input (of PARTS) of the results directory DIR;
// without NEED_FLOWS a missing flows.csv leaves the flows empty.
RunInputs load_run(const std::string &dir, bool need_flows = true, Load parts = Load::all);

struct ReportOptions {
	Options analysis;
	bool plots = true;
	std::string bin_text = "10 ms";
};

// `rxecc-report RESULTS`: writes RESULTS/summary.{txt,csv}, the plots and
// the traffic outputs; prints summary.txt on OUT.
void report_one(const std::string &dir, const ReportOptions &opt, std::ostream &out,
                std::ostream &err);

// `rxecc-report --compare OUTDIR RESULTS...`
void report_compare(const std::string &outdir, const std::vector<std::string> &dirs,
                    const ReportOptions &opt, std::ostream &out, std::ostream &err);

// `rxecc-report window RESULTS`: the flows' data periods and the window;
// with WRITE_DATA also flows/NAME.data ("START END" in fabric seconds).
void report_window(const std::string &dir, bool write_data, std::ostream &out);

// `rxecc-report flows RESULTS`: writes RESULTS/flows.csv from the traffic
// generator's records (traffic/) on the fabric's clock, prints the clock
// alignment, then does what report_window(RESULTS, true) does.
void report_flows(const std::string &dir, std::ostream &out);

// `rxecc-report base-rtt MESSAGES_CSV`: prints probe_rtt_ns of the file.
// The table of scripts/testbed-table from two testbeds' key=value files.
void report_testbed(const std::string &a_env, const std::string &b_env, std::ostream &out);
void report_base_rtt(const std::string &messages_csv, std::ostream &out);

// `rxecc-report index OUTDIR COMPAREDIR...`: OUTDIR/index.html.
void report_index(const std::string &outdir, const std::vector<std::string> &cmpdirs,
                  const std::string &title, std::ostream &out);

} // namespace rxecc::report
