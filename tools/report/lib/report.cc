#include "report.h"
#include "testbed.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "csv_table.h"
#include "error.h"
#include "output.h"

extern char **environ;

namespace rxecc::report
{

namespace fs = std::filesystem;

namespace
{

std::string strip_slash(std::string d)
{
	while (d.size() > 1 && d.back() == '/')
		d.pop_back();
	return d;
}

// The contents of a file that must exist: "PATH: missing" otherwise.
std::string read_file(const std::string &path)
{
	std::error_code ec;
	if (!fs::exists(path, ec))
		throw Error(path + ": missing");
	if (!fs::is_regular_file(path, ec))
		throw Error(path + ": not a readable file");
	std::ifstream in(path, std::ios::binary);
	if (!in)
		throw Error(path + ": not readable");
	std::ostringstream s;
	s << in.rdbuf();
	if (in.bad())
		throw Error(path + ": read error");
	return s.str();
}

bool is_file(const std::string &path)
{
	std::error_code ec;
	return fs::is_regular_file(path, ec);
}

void write_file(const std::string &path, const std::string &text)
{
	std::ofstream o(path, std::ios::binary | std::ios::trunc);
	o << text;
	o.close();
	if (!o)
		throw Error(path + ": cannot write");
}

// A temporary directory, removed with the object.
class WorkDir
{
public:
	WorkDir()
	{
		const char *t = std::getenv("TMPDIR");
		std::string tmpl = std::string(t && *t ? t : "/tmp") + "/rxecc-report.XXXXXX";
		std::vector<char> buf(tmpl.begin(), tmpl.end());
		buf.push_back('\0');
		if (!mkdtemp(buf.data()))
			throw Error(tmpl + ": cannot create a temporary directory: " +
			            std::strerror(errno));
		path_ = buf.data();
	}
	~WorkDir()
	{
		std::error_code ec;
		fs::remove_all(path_, ec);
	}
	WorkDir(const WorkDir &) = delete;
	WorkDir &operator=(const WorkDir &) = delete;
	const std::string &path() const { return path_; }

private:
	std::string path_;
};

// Runs ARGV with stdin from /dev/null and stdout+stderr into LOG; its exit
// status (or -1).
int run(const std::vector<std::string> &argv, const std::string &log)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	std::vector<char *> args;
	for (const std::string &a : argv)
		args.push_back(const_cast<char *>(a.c_str()));
	args.push_back(nullptr);
	pid_t pid;
	int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// The gnuplot terminal for PNGs: pngcairo (no X server), else libgd's png.
const std::string &png_terminal(const std::string &work)
{
	static std::string term;
	if (!term.empty())
		return term;
	std::string log = work + "/gnuplot-probe.log";
	if (run({"gnuplot", "--version"}, log) != 0)
		throw Error("gnuplot not found (install gnuplot-nox, or use --no-plots)");
	if (run({"gnuplot", "-e", "set terminal pngcairo"}, log) == 0)
		term = "pngcairo noenhanced font \",10\"";
	else if (run({"gnuplot", "-e", "set terminal png"}, log) == 0)
		term = "png noenhanced";
	else
		throw Error("this gnuplot has neither the pngcairo nor the png terminal");
	return term;
}

void gnuplot(const std::string &script_path, const std::string &script, std::ostream &err)
{
	write_file(script_path, script);
	std::string log = script_path + ".log";
	if (run({"gnuplot", script_path}, log) != 0) {
		std::ifstream l(log);
		err << l.rdbuf();
		throw Error("gnuplot failed on " + script_path);
	}
}

std::string title_of(const Settings &s)
{
	return s.scenario + " / " + s.label;
}

// Writes the data files of A into WORK (always), and its PNGs (with plots).
void make_run_files(const RunInputs &in, const Analysis &a, const std::string &work,
                    const ReportOptions &opt, bool plots, std::ostream &err)
{
	fs::create_directories(work);
	write_file(work + "/summary.csv", summary_csv(a));
	write_file(work + "/summary.txt", a.text);
	write_file(work + "/rate.dat", rate_dat(a));
	write_file(work + "/queue.dat", queue_dat(a));
	write_file(work + "/queue_cdf.dat", queue_cdf_dat(a));
	std::vector<std::string> fb;
	if (a.slowdown) {
		write_file(work + "/slowdown.dat", slowdown_dat(*a.slowdown));
		write_file(work + "/slowdown.csv", slowdown_flows_csv(*a.slowdown));
	}
	if (!a.flow_rates.empty()) {
		write_file(work + "/flow_rate.dat", flow_rate_dat(a));
		write_file(work + "/flow_cc.dat", flow_cc_dat(a, fb));
	}
	if (a.focus)
		write_file(work + "/focus.dat", focus_dat(*a.focus));
	if (a.mice)
		write_file(work + "/mice.dat", mice_dat(*a.mice));
	if (!plots)
		return;
	PlotContext c{png_terminal(work), work, title_of(in.set), opt.bin_text};
	gnuplot(work + "/rate.gp", rate_gp(c, a, in.set), err);
	gnuplot(work + "/queue.gp", queue_gp(c, a, in.set), err);
	gnuplot(work + "/queue_cdf.gp", queue_cdf_gp(c, in.set), err);
	if (a.slowdown && !a.slowdown->flows.empty())
		gnuplot(work + "/slowdown.gp", slowdown_gp(c), err);
	if (!a.flow_rates.empty())
		gnuplot(work + "/flows.gp", flows_gp(c, a, fb), err);
	if (a.focus && !a.focus->rows.empty())
		gnuplot(work + "/focus.gp", focus_gp(c, *a.focus), err);
	if (a.mice)
		gnuplot(work + "/mice.gp", mice_gp(c, *a.mice), err);
}

// Copies NAME from WORK into DIR through a temporary name (a reader never
// sees half a file).
void install(const std::string &work, const std::string &dir, const std::string &name)
{
	std::string tmp = dir + "/." + name + ".tmp";
	std::error_code ec;
	fs::copy_file(work + "/" + name, tmp, fs::copy_options::overwrite_existing, ec);
	if (!ec)
		fs::rename(tmp, dir + "/" + name, ec);
	if (ec)
		throw Error(dir + ": cannot write " + name + " (" + ec.message() + ")");
}

// The outputs of one run: those made now are installed, optional ones
// not made now are removed (they would belong to an earlier report).
void install_run(const std::string &work, const std::string &dir, bool plots)
{
	const char *always[] = {"summary.csv", "summary.txt"};
	const char *pngs[] = {"rate.png", "queue.png", "queue_cdf.png"};
	const char *optional[] = {"slowdown.csv", "slowdown.png", "flows.png",
	                          "recovery.png", "drain.png",    "mice.png"};
	for (const char *f : always)
		install(work, dir, f);
	if (plots)
		for (const char *f : pngs)
			install(work, dir, f);
	for (const char *f : optional) {
		bool png = std::strstr(f, ".png") != nullptr;
		if (is_file(work + "/" + f)) {
			install(work, dir, f);
		} else if (!png || plots) {
			std::error_code ec;
			fs::remove(dir + "/" + f, ec);
		}
	}
}

} // namespace

RunInputs load_run(const std::string &dir_in, bool need_flows, Load parts)
{
	const bool all = parts == Load::all;
	RunInputs in;
	std::string res = strip_slash(dir_in);
	in.results = res;
	std::error_code ec;
	if (!fs::is_directory(res, ec))
		throw Error(res + ": not a directory");
	in.meta_path = res + "/meta.env";
	Meta meta = Meta::parse(in.meta_path, read_file(in.meta_path));
	in.set = settings_from(meta);
	in.flows_path = res + "/flows.csv";
	in.queues_path = res + "/fabric/queues.csv";
	in.ports_path = res + "/fabric/ports.csv";
	in.flat_path = res + "/fabric/summary.flat";
	bool have_flows = need_flows || is_file(in.flows_path);
	std::string flows_text = have_flows ? read_file(in.flows_path) : std::string();
	std::string ports_text = read_file(in.ports_path);
	if (have_flows)
		in.flows = parse_flows(in.flows_path, flows_text);
	in.ports = parse_ports(in.ports_path, ports_text);
	if (all) {
		in.queues = parse_queues(in.queues_path, read_file(in.queues_path),
		                         in.set.bottleneck, in.set.data_prio);
		in.flat = parse_flat(in.flat_path, read_file(in.flat_path));
	}

	std::vector<std::string> counters, monitors;
	if (all && fs::is_directory(res + "/hosts", ec)) {
		for (const auto &e : fs::directory_iterator(res + "/hosts", ec)) {
			std::string n = e.path().filename().string();
			auto ends = [&](const std::string &suf) {
				return n.size() > suf.size() &&
				       n.compare(n.size() - suf.size(), suf.size(), suf) == 0;
			};
			if (ends(".counters"))
				counters.push_back(e.path().string());
			else if (ends(".monitor.csv"))
				monitors.push_back(e.path().string());
		}
		if (ec)
			throw Error(res + "/hosts: cannot list (" + ec.message() + ")");
	}
	std::sort(counters.begin(), counters.end());
	std::sort(monitors.begin(), monitors.end());
	for (const std::string &f : counters)
		in.hosts.add(f, read_file(f));

	if (is_file(res + "/fabric_t0"))
		in.set.fabric_t0_ns =
			parse_fabric_t0(res + "/fabric_t0", read_file(res + "/fabric_t0"));
	// host -> ingress port: hosts.txt ("NAME IP MAC SWITCH:PORT"), else the
	// flows' ingress
	for (const Flow &f : in.flows)
		if (!f.src.empty() && !f.ingress.empty())
			in.host_port.emplace(f.src, f.ingress);
	if (is_file(res + "/hosts.txt")) {
		std::string path = res + "/hosts.txt";
		std::istringstream s(read_file(path));
		std::string line;
		for (std::size_t n = 1; std::getline(s, line); ++n) {
			std::istringstream ls(line);
			std::string name, ip, mac, port;
			if (!(ls >> name))
				continue;
			if (!(ls >> ip >> mac >> port) || port.find(':') == std::string::npos ||
			    !is_name(name))
				throw Error(strf(
					"%s:%zu: expected 'NAME IP MAC SWITCH:PORT', found '%s'",
					path.c_str(), n, line.c_str()));
			port[port.find(':')] = '.';
			in.host_port[name] = port;
		}
	}

	// the traffic generator's records: traffic/ or traffic/HOST/
	std::string tdir = res + "/traffic";
	std::vector<std::pair<std::string, std::string>> tdirs; // host, dir
	if (is_file(tdir + "/flows.csv")) {
		tdirs.emplace_back("", tdir);
	} else if (fs::is_directory(tdir, ec)) {
		for (const auto &e : fs::directory_iterator(tdir, ec))
			if (e.is_directory() && is_file(e.path().string() + "/flows.csv"))
				tdirs.emplace_back(e.path().filename().string(), e.path().string());
		std::sort(tdirs.begin(), tdirs.end());
	}
	for (const auto &[host, d] : tdirs) {
		// the generator writes host.json per host and summary.json when
		// it merges the hosts' records
		std::string fl = d + "/flows.csv", bins = d + "/bins.csv", js = d + "/summary.json";
		if (!is_file(js) && is_file(d + "/host.json"))
			js = d + "/host.json";
		std::string bins_text;
		bool have_bins = is_file(bins);
		if (have_bins)
			bins_text = read_file(bins);
		std::optional<std::string_view> bv;
		if (have_bins)
			bv = bins_text;
		in.traffic.push_back(
			parse_traffic(host, fl, read_file(fl), bins, bv, js, read_file(js)));
	}
	// mice: the mice flow's per-message records, beside the flows.csv that
	// holds it (traffic/ or its driver's traffic/HOST/)
	if (all && !in.set.mice_flow.empty()) {
		if (tdirs.empty())
			throw Error(tdir +
			            ": no traffic generator records (the latency of the mice "
			            "flow " +
			            in.set.mice_flow + ", meta.env mice_flow, needs messages.csv)");
		std::string d;
		for (std::size_t i = 0; i < tdirs.size() && d.empty(); ++i)
			for (const TrafficFlow &f : in.traffic[i].flows)
				if (f.flow == in.set.mice_flow)
					d = tdirs[i].second;
		if (d.empty())
			throw Error(tdir + ": no flow " + in.set.mice_flow +
			            " (meta.env mice_flow) in the generator's flows.csv");
		in.messages_path = d + "/messages.csv";
		in.mice_messages = parse_messages(in.messages_path, read_file(in.messages_path),
		                                  in.set.mice_flow);
	}
	for (const std::string &m : monitors) {
		std::string host = fs::path(m).filename().string();
		host.resize(host.size() - std::string(".monitor.csv").size());
		in.monitors.push_back(parse_monitor(host, m, read_file(m)));
	}
	return in;
}

void report_one(const std::string &dir, const ReportOptions &opt, std::ostream &out,
                std::ostream &err)
{
	RunInputs in = load_run(dir);
	Analysis a = analyse(in, opt.analysis);
	WorkDir w;
	make_run_files(in, a, w.path() + "/run", opt, opt.plots, err);
	install_run(w.path() + "/run", in.results, opt.plots);
	out << a.text;
}

void report_compare(const std::string &outdir_in, const std::vector<std::string> &dirs,
                    const ReportOptions &opt, std::ostream &out, std::ostream &err)
{
	std::string outdir = strip_slash(outdir_in);
	WorkDir w;
	std::vector<RunInputs> ins;
	std::vector<Analysis> as;
	for (const std::string &d : dirs) {
		ins.push_back(load_run(d));
		as.push_back(analyse(ins.back(), opt.analysis));
	}
	std::vector<CompareRun> runs;
	for (std::size_t i = 0; i < ins.size(); ++i) {
		std::string work = w.path() + "/run" + std::to_string(i + 1);
		bool missing = !is_file(ins[i].results + "/summary.csv");
		make_run_files(ins[i], as[i], work, opt, opt.plots && missing, err);
		runs.push_back({ins[i].results, work, {}, &as[i]});
	}
	std::error_code ec;
	if (fs::exists(outdir, ec) && !fs::is_directory(outdir, ec))
		throw Error(outdir + ": not a directory");
	for (CompareRun &r : runs)
		if (!is_file(r.dir + "/summary.csv"))
			install_run(r.work, r.dir, opt.plots);
	fs::create_directories(outdir, ec);
	if (ec)
		throw Error(outdir + ": cannot create (" + ec.message() + ")");

	// Rows come from each run's summary.csv (written now if it was missing).
	std::string scen;
	std::vector<std::string> labels;
	for (CompareRun &r : runs) {
		std::string path = r.dir + "/summary.csv";
		r.summary = parse_summary(read_file(path));
		for (const std::string &k : kCompareKeys)
			if (!r.summary.count(k))
				throw Error(path + ": no " + k +
				            " line (rerun scripts/report on it)");
		std::string sc = r.summary.count("scenario") ? r.summary["scenario"] : "";
		if (!scen.empty() && sc != scen)
			err << "rxecc-report: warning: " << r.dir << " is scenario " << sc << ", "
			    << fs::path(runs.front().dir).filename().string() << " is " << scen
			    << "\n";
		if (scen.empty())
			scen = sc;
		const std::string &lab = r.summary["label"];
		if (std::find(labels.begin(), labels.end(), lab) != labels.end())
			err << "rxecc-report: warning: two runs are labelled " << lab
			    << " (set label= in meta.env)\n";
		labels.push_back(lab);
	}
	std::string cw = w.path() + "/cmp";
	fs::create_directories(cw);
	std::string txt = comparison_txt(scen, runs);
	write_file(cw + "/comparison.csv", comparison_csv(runs));
	write_file(cw + "/comparison.txt", txt);
	std::string runs_csv = "label,results\n";
	for (const CompareRun &r : runs)
		runs_csv += r.summary.at("label") + "," +
		            fs::absolute(r.dir).lexically_normal().string() + "\n";
	write_file(cw + "/runs.csv", runs_csv);
	std::string sd = comparison_slowdown_csv(runs);
	std::vector<std::string> outs = {"comparison.csv", "comparison.txt", "runs.csv"};
	std::vector<std::string> stale;
	if (!sd.empty()) {
		write_file(cw + "/comparison_slowdown.csv", sd);
		outs.push_back("comparison_slowdown.csv");
	} else {
		stale.push_back("comparison_slowdown.csv");
	}
	if (opt.plots) {
		PlotContext c{png_terminal(w.path()), cw, scen, opt.bin_text};
		gnuplot(cw + "/queue.gp", cmp_queue_gp(c, runs), err);
		gnuplot(cw + "/rate.gp", cmp_rate_gp(c, runs), err);
		gnuplot(cw + "/queue_cdf.gp", cmp_queue_cdf_gp(c, runs), err);
		outs.insert(outs.end(), {"queue.png", "rate.png", "queue_cdf.png"});
		bool any = false;
		for (const CompareRun &r : runs)
			any = any || (r.analysis->slowdown && !r.analysis->slowdown->flows.empty());
		if (any) {
			gnuplot(cw + "/slowdown.gp", cmp_slowdown_gp(c, runs), err);
			outs.push_back("slowdown.png");
		} else {
			stale.push_back("slowdown.png");
		}
		std::string fg = cmp_focus_gp(c, runs);
		std::string kind;
		for (const CompareRun &r : runs)
			if (kind.empty() && r.analysis->focus && !r.analysis->focus->rows.empty())
				kind = r.analysis->focus->kind;
		for (const char *k : {"recovery", "drain"})
			if (k != kind)
				stale.push_back(std::string(k) + ".png");
		if (!kind.empty()) {
			gnuplot(cw + "/focus.gp", fg, err);
			outs.push_back(kind + ".png");
		}
		std::string mg = cmp_mice_gp(c, runs);
		if (!mg.empty()) {
			gnuplot(cw + "/mice.gp", mg, err);
			outs.push_back("mice.png");
		} else {
			stale.push_back("mice.png");
		}
	}
	for (const std::string &f : outs)
		install(cw, outdir, f);
	for (const std::string &f : stale)
		fs::remove(outdir + "/" + f, ec);
	out << txt;
}

namespace
{

void window_of_run(const RunInputs &in, bool write_data, std::ostream &out)
{
	std::vector<FlowData> periods = flow_data_periods(in);
	std::vector<std::pair<std::uint64_t, std::uint64_t>> ps;
	for (const FlowData &d : periods) {
		if (d.period) {
			ps.push_back(*d.period);
			out << strf("flow %s data %.6f %.6f\n", d.flow.c_str(),
			            static_cast<double>(d.period->first) / 1e6,
			            static_cast<double>(d.period->second) / 1e6);
		} else {
			out << "flow " << d.flow << " data -\n";
		}
	}
	for (bool all : {true, false}) {
		auto w = combine_periods(ps, all);
		const char *m = all ? "all" : "any";
		if (w)
			out << "window " << m << " " << w->first << " " << w->second << "\n";
		else
			out << "window " << m << " -\n";
	}
	if (!write_data)
		return;
	std::error_code ec;
	fs::create_directories(in.results + "/flows", ec);
	if (ec)
		throw Error(in.results + "/flows: cannot create (" + ec.message() + ")");
	for (const FlowData &d : periods)
		write_file(in.results + "/flows/" + d.flow + ".data",
		           d.period
		                   ? strf("%.6f %.6f\n", static_cast<double>(d.period->first) / 1e6,
		                          static_cast<double>(d.period->second) / 1e6)
		                   : std::string());
}

} // namespace

void report_window(const std::string &dir, bool write_data, std::ostream &out)
{
	window_of_run(load_run(dir), write_data, out);
}

void report_flows(const std::string &dir, std::ostream &out)
{
	RunInputs in = load_run(dir, false, Load::flows);
	if (in.traffic.empty())
		throw Error(in.results + "/traffic: no traffic generator records");
	Alignment al = align_clocks(in.traffic, in.set.fabric_t0_ns, in.ports, in.host_port);
	std::string csv = flows_csv_from_traffic(in.traffic, al, in.host_port);
	write_file(in.flows_path, csv);
	out << strf("flows.csv: clock alignment %s, T0 at %.6f s of fabric time\n",
	            al.method.c_str(), static_cast<double>(al.offset_ns) / 1e9);
	// what `window --write-data` does, without reading everything again
	in.flows = parse_flows(in.flows_path, csv);
	window_of_run(in, true, out);
}

void report_testbed(const std::string &a_env, const std::string &b_env, std::ostream &out)
{
	out << testbed_table(a_env, read_file(a_env), b_env, read_file(b_env));
}

void report_base_rtt(const std::string &messages_csv, std::ostream &out)
{
	out << probe_rtt_ns(messages_csv, read_file(messages_csv)) << "\n";
}

void report_index(const std::string &outdir_in, const std::vector<std::string> &cmpdirs,
                  const std::string &title, std::ostream &out)
{
	std::string outdir = strip_slash(outdir_in);
	std::error_code ec;
	std::vector<IndexScenario> scs;
	fs::path base = fs::absolute(outdir).lexically_normal();
	auto rel = [&](const std::string &p) {
		return fs::absolute(p).lexically_normal().lexically_relative(base).string();
	};
	for (const std::string &d0 : cmpdirs) {
		std::string d = strip_slash(d0);
		if (!fs::is_directory(d, ec))
			throw Error(d + ": not a directory");
		IndexScenario s;
		s.comparison_txt = read_file(d + "/comparison.txt");
		std::string first = s.comparison_txt.substr(0, s.comparison_txt.find('\n'));
		const std::string pre = "comparison: scenario ";
		if (first.compare(0, pre.size(), pre) != 0)
			throw Error(
				d +
				"/comparison.txt: first line is not 'comparison: scenario NAME'");
		s.name = first.substr(pre.size());
		s.dir = rel(d);
		// scripts/eval's paper.txt: the figure and claim, a line each
		if (is_file(d + "/paper.txt")) {
			std::istringstream pin(read_file(d + "/paper.txt"));
			for (std::string l; std::getline(pin, l);)
				if (l.find_first_not_of(" \t\r") != std::string::npos)
					s.paper.push_back(l);
		}
		for (const char *p : {"rate.png", "queue.png", "queue_cdf.png", "slowdown.png",
		                      "recovery.png", "drain.png", "mice.png"})
			if (is_file(d + "/" + p))
				s.cmp_plots.push_back(rel(d + "/" + p));
		CsvTable runs = parse_csv(d + "/runs.csv", read_file(d + "/runs.csv"));
		std::size_t cl = runs.need_column("label"), cr = runs.need_column("results");
		for (const CsvRow &r : runs.rows) {
			if (r.fields.size() != runs.header.size())
				throw Error(runs.where(r) + ": expected " +
				            std::to_string(runs.header.size()) + " fields");
			std::vector<std::string> pngs;
			for (const char *p :
			     {"rate.png", "queue.png", "queue_cdf.png", "slowdown.png", "flows.png",
			      "recovery.png", "drain.png", "mice.png"})
				if (is_file(r.fields[cr] + "/" + p))
					pngs.push_back(rel(r.fields[cr] + "/" + p));
			s.runs.emplace_back(r.fields[cl], pngs);
		}
		scs.push_back(std::move(s));
	}
	fs::create_directories(outdir, ec);
	if (ec)
		throw Error(outdir + ": cannot create (" + ec.message() + ")");
	std::string tmp = outdir + "/.index.html.tmp";
	write_file(tmp, index_html(title, scs));
	fs::rename(tmp, outdir + "/index.html", ec);
	if (ec)
		throw Error(outdir + ": cannot write index.html (" + ec.message() + ")");
	out << outdir << "/index.html: " << scs.size() << " scenario"
	    << (scs.size() == 1 ? "" : "s") << "\n";
}

} // namespace rxecc::report
