// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cli.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <string_view>

#include "perfstat.h"

namespace perfstat
{

namespace
{

constexpr std::string_view kToolHelp =
	"Usage: perfstat COMMAND [OPTIONS]\n"
	"\n"
	"Read the result tables printed by perftest (ib_write_bw, ib_send_bw,\n"
	"ib_read_bw, ib_send_lat, ib_write_lat, ...).\n"
	"\n"
	"Commands:\n"
	"  parse [-j] FILE|-     print every result row as key=value pairs, or JSON\n"
	"  gbps FILE|-           print the average bandwidth of the last row in Gbit/s\n"
	"  ratio --base FILE --test FILE [--label-base NAME] [--label-test NAME]\n"
	"                        compare the average bandwidths of two runs\n"
	"\n"
	"Run 'perfstat COMMAND --help' for the details of a command.\n"
	"Exit status: 0 on success, 1 when an input has no usable result,\n"
	"2 on a usage error.\n";

constexpr std::string_view kParseHelp =
	"Usage: perfstat parse [-j|--json] FILE|-\n"
	"\n"
	"Print each row of the perftest result table(s) in FILE ('-' for standard\n"
	"input) on one line of key=value pairs, e.g.\n"
	"  bytes=65536 iterations=5000 bw_peak_gbps=0.2419 bw_avg_gbps=0.2415 "
	"msg_rate_mpps=0.000461\n"
	"Bandwidths are converted to Gbit/s (perftest's MB/sec is 2^20 bytes/s);\n"
	"other columns keep the unit of their header (t_avg_usec, t_p99_usec, ...).\n"
	"\n"
	"  -j, --json   print {\"rows\":[{...},...]} instead\n";

constexpr std::string_view kGbpsHelp =
	"Usage: perfstat gbps FILE|-\n"
	"\n"
	"Print the average bandwidth of the last result row of FILE ('-' for\n"
	"standard input) in Gbit/s with 4 decimals.  Exit 1 if FILE has no\n"
	"bandwidth result.\n";

constexpr std::string_view kRatioHelp =
	"Usage: perfstat ratio --base FILE --test FILE [--label-base NAME]\n"
	"                      [--label-test NAME]\n"
	"\n"
	"Print the average bandwidths (last result row) of two perftest runs in\n"
	"Gbit/s and, on the last line, their ratio test/base as ratio=X.XXX.\n"
	"Exit 1 if either file has no bandwidth result or the base bandwidth is 0.\n"
	"\n"
	"  --base FILE        output of the reference run ('-' for standard input)\n"
	"  --test FILE        output of the run under test ('-' for standard input)\n"
	"  --label-base NAME  name of the reference run in the table (default: base)\n"
	"  --label-test NAME  name of the run under test in the table (default: test)\n";

struct CommandSpec {
	std::string_view name;
	std::string_view help;
	std::vector<std::string_view> flags;         // options without a value
	std::vector<std::string_view> value_options; // options followed by a value
	std::size_t positionals;                     // exact number of operands
};

struct Invocation {
	std::map<std::string, std::string, std::less<>> options;
	std::vector<std::string> operands;
	bool help = false;

	bool has(std::string_view option) const { return options.find(option) != options.end(); }

	std::optional<std::string> get(std::string_view option) const
	{
		auto it = options.find(option);
		if (it == options.end())
			return std::nullopt;
		return it->second;
	}
};

bool contains(const std::vector<std::string_view> &list, std::string_view s)
{
	return std::find(list.begin(), list.end(), s) != list.end();
}

// Split the arguments after the command name into options and operands.
// "-" is an operand (standard input); "--" ends the options.
Result<Invocation> parse_arguments(const CommandSpec &spec, const std::vector<std::string> &args)
{
	Invocation inv;
	bool options_done = false;
	for (std::size_t i = 1; i < args.size(); ++i) {
		const std::string &arg = args[i];
		if (options_done || arg == "-" || arg.empty() || arg[0] != '-') {
			inv.operands.push_back(arg);
			continue;
		}
		if (arg == "--") {
			options_done = true;
			continue;
		}
		if (arg == "-h" || arg == "--help") {
			inv.help = true;
			continue;
		}
		std::string name = arg;
		std::optional<std::string> value;
		if (std::size_t eq = arg.find('=');
		    arg.rfind("--", 0) == 0 && eq != std::string::npos) {
			name = arg.substr(0, eq);
			value = arg.substr(eq + 1);
		}
		if (contains(spec.flags, name) && !value) {
			inv.options[name] = "";
		} else if (contains(spec.value_options, name)) {
			if (!value) {
				if (i + 1 >= args.size())
					return Result<Invocation>::fail("option '" + name +
					                                "' needs a value");
				value = args[++i];
			}
			inv.options[name] = *value;
		} else {
			return Result<Invocation>::fail("unknown option '" + arg + "'");
		}
	}
	if (!inv.help && inv.operands.size() != spec.positionals) {
		if (spec.positionals == 0)
			return Result<Invocation>::fail("unexpected argument '" +
			                                inv.operands.front() + "'");
		if (inv.operands.size() < spec.positionals)
			return Result<Invocation>::fail("missing FILE argument");
		return Result<Invocation>::fail("too many arguments");
	}
	return Result<Invocation>::ok(std::move(inv));
}

class Command
{
public:
	Command(const CommandSpec &spec, std::istream &in, std::ostream &out, std::ostream &err)
	    : spec_(spec), in_(in), out_(out), err_(err)
	{
	}

	int usage_error(const std::string &message) const
	{
		err_ << "perfstat " << spec_.name << ": " << message << "\n"
		     << "Try 'perfstat " << spec_.name << " --help'.\n";
		return kExitUsage;
	}

	int failure(const std::string &message) const
	{
		err_ << "perfstat " << spec_.name << ": " << message << "\n";
		return kExitNoResult;
	}

	Result<Report> read(const std::string &path) const
	{
		return path == "-" ? parse_stream(in_, "<stdin>") : parse_file(path);
	}

	// Average bandwidth of the last row of the report in `path`.
	Result<double> last_gbps(const std::string &path) const
	{
		Result<Report> report = read(path);
		if (!report)
			return Result<double>::fail(report.error());
		std::optional<double> gbps = report->last().bw_avg_gbps();
		if (!gbps)
			return Result<double>::fail(path +
			                            ": result table has no average "
			                            "bandwidth column (latency test output?)");
		return Result<double>::ok(*gbps);
	}

	std::ostream &out() const { return out_; }

private:
	const CommandSpec &spec_;
	std::istream &in_;
	std::ostream &out_;
	std::ostream &err_;
};

std::string fixed(double v, int decimals)
{
	char buf[64];
	std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return buf;
}

std::string pad_right(const std::string &s, std::size_t width)
{
	return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string pad_left(const std::string &s, std::size_t width)
{
	return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

int cmd_parse(const Command &cmd, const Invocation &inv)
{
	Result<Report> report = cmd.read(inv.operands[0]);
	if (!report)
		return cmd.failure(report.error());
	if (inv.has("-j") || inv.has("--json")) {
		cmd.out() << format_json(*report) << "\n";
	} else {
		for (const Row &row : report->rows)
			cmd.out() << format_key_values(row) << "\n";
	}
	return kExitOk;
}

int cmd_gbps(const Command &cmd, const Invocation &inv)
{
	Result<double> gbps = cmd.last_gbps(inv.operands[0]);
	if (!gbps)
		return cmd.failure(gbps.error());
	cmd.out() << fixed(*gbps, 4) << "\n";
	return kExitOk;
}

int cmd_ratio(const Command &cmd, const Invocation &inv)
{
	std::optional<std::string> base_path = inv.get("--base");
	std::optional<std::string> test_path = inv.get("--test");
	if (!base_path || !test_path)
		return cmd.usage_error("both --base FILE and --test FILE are required");
	if (*base_path == "-" && *test_path == "-")
		return cmd.usage_error("only one of --base and --test can read standard input");

	Result<double> base = cmd.last_gbps(*base_path);
	if (!base)
		return cmd.failure(base.error());
	Result<double> test = cmd.last_gbps(*test_path);
	if (!test)
		return cmd.failure(test.error());
	Result<double> ratio = bandwidth_ratio(*base, *test);
	if (!ratio)
		return cmd.failure(*base_path + ": " + ratio.error());

	const std::string base_label = inv.get("--label-base").value_or("base");
	const std::string test_label = inv.get("--label-test").value_or("test");
	const std::string run_header = "run";
	const std::string bw_header = "bw_avg[Gbit/s]";
	const std::size_t w = std::max({run_header.size(), base_label.size(), test_label.size()});

	cmd.out() << pad_right(run_header, w) << "  " << bw_header << "\n"
		  << pad_right(base_label, w) << "  " << pad_left(fixed(*base, 4), bw_header.size())
		  << "\n"
		  << pad_right(test_label, w) << "  " << pad_left(fixed(*test, 4), bw_header.size())
		  << "\n"
		  << "ratio=" << fixed(*ratio, 3) << "\n";
	return kExitOk;
}

struct CommandEntry {
	CommandSpec spec;
	int (*run)(const Command &, const Invocation &);
};

const std::vector<CommandEntry> &commands()
{
	static const std::vector<CommandEntry> table = {
		{{"parse", kParseHelp, {"-j", "--json"}, {}, 1}, cmd_parse},
		{{"gbps", kGbpsHelp, {}, {}, 1}, cmd_gbps},
		{{"ratio", kRatioHelp, {}, {"--base", "--test", "--label-base", "--label-test"}, 0},
	         cmd_ratio},
	};
	return table;
}

} // namespace

int run_cli(const std::vector<std::string> &args, std::istream &in, std::ostream &out,
            std::ostream &err)
{
	if (args.empty()) {
		err << kToolHelp;
		return kExitUsage;
	}
	const std::string &name = args[0];
	if (name == "-h" || name == "--help" || name == "help") {
		out << kToolHelp;
		return kExitOk;
	}
	for (const CommandEntry &entry : commands()) {
		if (entry.spec.name != name)
			continue;
		Command cmd(entry.spec, in, out, err);
		Result<Invocation> inv = parse_arguments(entry.spec, args);
		if (!inv)
			return cmd.usage_error(inv.error());
		if (inv->help) {
			out << entry.spec.help;
			return kExitOk;
		}
		return entry.run(cmd, *inv);
	}
	if (!name.empty() && name[0] == '-')
		err << "perfstat: unknown option '" << name << "'\n";
	else
		err << "perfstat: unknown command '" << name << "'\n";
	err << "Try 'perfstat --help'.\n";
	return kExitUsage;
}

} // namespace perfstat
