// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-traffic: the RDMA traffic generator of rxe-cc
// (Documentation/rxe-cc/traffic.rst).
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cdf.h"
#include "cli.h"
#include "generators.h"
#include "hosts.h"
#include "launch.h"
#include "records.h"
#include "schedule.h"
#include "stats.h"
#include "text.h"
#include "units.h"

using namespace rxecc::traffic;

namespace
{

int fail(const std::string &msg, int code = 2)
{
	std::fprintf(stderr, "rxecc-traffic: %s\n", msg.c_str());
	return code;
}

bool load_schedule(const std::string &path, const FlowOptions &base, Schedule &s, std::string &err)
{
	std::string text;
	if (!read_file(path, text, &err))
		return false;
	auto r = parse_schedule(text, path, &err, base);
	if (!r)
		return false;
	s = std::move(*r);
	return true;
}

bool load_hosts(const std::string &path, Hosts &h, std::string &err)
{
	std::string text;
	if (!read_file(path, text, &err))
		return false;
	auto r = parse_hosts(text, path, &err);
	if (!r)
		return false;
	h = std::move(*r);
	return true;
}

bool make_dir(const std::string &d, std::string &err)
{
	if (mkdir(d.c_str(), 0755) == 0 || errno == EEXIST)
		return true;
	err = d + ": " + std::strerror(errno);
	return false;
}

int merge_and_report(const std::string &dir, const Schedule &s)
{
	MergeResult res;
	std::string err;
	if (!merge_records(dir, s, res, &err))
		return fail(err, 1);
	std::printf("rxecc-traffic: %s\n", summary_line(res).c_str());
	for (const auto &[flow, st] : res.failed)
		std::printf("rxecc-traffic: flow %s: %s\n", flow.c_str(), st.c_str());
	return res.ok == res.flows ? 0 : 1;
}

int cmd_launch_or_run(const Cli &c)
{
	const RunArgs &a = c.run;
	FlowOptions base;
	base.ack_timeout = a.ack_timeout;
	Schedule s;
	Hosts hosts;
	std::string err;
	if (!load_schedule(a.schedule, base, s, err) || !load_hosts(a.hosts, hosts, err) ||
	    !check_schedule_hosts(s, hosts, a.schedule, a.hosts, &err))
		return fail(err);
	if (c.cmd == "run") {
		bool in = false;
		for (const auto &h : s.hosts())
			in = in || h == a.host;
		if (!hosts.find(a.host))
			return fail("--host: '" + a.host + "' is not in " + a.hosts);
		if (!in)
			return fail("--host: no flow of " + a.schedule + " involves '" + a.host +
			            "'");
	}
	for (const auto &h : s.hosts()) {
		const HostSpec *hs = hosts.find(h);
		if ((c.cmd == "launch" || h == a.host) && !netns_exists(hs->netns))
			return fail(a.hosts + ":" + std::to_string(hs->line) + ": host " + h +
			            ": no network namespace " + hs->netns + " (/run/netns/" +
			            hs->netns + "; netns=- for this process's own)");
	}
	if (!make_dir(a.out, err) || !write_file(a.out + "/schedule.txt", format_schedule(s), &err))
		return fail(err, 1);
	if (c.cmd == "run")
		return run_solo(a, s, hosts);
	const int rc = launch_hosts(a, s, hosts);
	const int mrc = merge_and_report(a.out, s);
	return rc ? 1 : mrc;
}

int cmd_merge(const Cli &c)
{
	const std::string path = c.schedule.empty() ? c.dir + "/schedule.txt" : c.schedule;
	Schedule s;
	std::string err;
	if (!load_schedule(path, FlowOptions{}, s, err))
		return fail(err);
	return merge_and_report(c.dir, s);
}

int cmd_check(const Cli &c)
{
	FlowOptions base;
	base.ack_timeout = c.run.ack_timeout;
	Schedule s;
	std::string err;
	if (!load_schedule(c.schedule, base, s, err))
		return fail(err);
	if (!c.hosts.empty()) {
		Hosts h;
		if (!load_hosts(c.hosts, h, err) ||
		    !check_schedule_hosts(s, h, c.schedule, c.hosts, &err))
			return fail(err);
	}
	std::uint64_t bytes = 0, last = 0;
	std::size_t sized = 0;
	for (const auto &f : s.flows) {
		if (f.size_bytes) {
			bytes += *f.size_bytes;
			sized++;
		}
		last = std::max(last, f.start_ns + f.duration_ns.value_or(0));
	}
	const auto hs = s.hosts();
	std::printf("%zu flows (%zu sized, %zu with a duration) between %zu hosts; %s in sized "
	            "flows; last start or end at %s\n",
	            s.flows.size(), sized, s.flows.size() - sized, hs.size(),
	            rxecc::units::format_size_bytes(bytes).c_str(),
	            rxecc::units::format_time_ns(last).c_str());
	return 0;
}

int cmd_wire(const Cli &c)
{
	Schedule s;
	std::string err;
	if (!load_schedule(c.dir + "/schedule.txt", FlowOptions{}, s, err))
		return fail(err);
	std::map<std::string, FlowRecord> recs;
	if (!read_flows_table(c.dir + "/flows.csv", s, "", recs, &err))
		return fail(err);
	std::vector<std::string> skipped;
	const auto w = wire_counts(s, recs, c.mtu, &skipped);
	if (c.do_compare) {
		for (const auto &f : skipped)
			std::fprintf(stderr, "rxecc-traffic: flow %s did not end ok\n", f.c_str());
		auto it = w.find(WireKey{c.compare.src, c.compare.dst, c.compare.dscp});
		const WireCompare r = compare_wire(it == w.end() ? WireTotals{} : it->second,
		                                   c.compare.frames, c.compare.bytes);
		std::printf("%s\n", r.message.c_str());
		return r.match && skipped.empty() ? 0 : 1;
	}
	std::printf("src dst dscp frames bytes cm_frames cm_bytes all_frames all_bytes\n");
	auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
	for (const auto &[k, v] : w)
		std::printf("%s %s %u %llu %llu %llu %llu %llu %llu\n", k.src.c_str(),
		            k.dst.c_str(), k.dscp, u(v.data.frames), u(v.data.bytes),
		            u(v.cm.frames), u(v.cm.bytes), u(v.data.frames + v.cm.frames),
		            u(v.data.bytes + v.cm.bytes));
	for (const auto &f : skipped)
		std::fprintf(stderr, "rxecc-traffic: flow %s did not end ok: not counted\n",
		             f.c_str());
	return skipped.empty() ? 0 : 1;
}

int cmd_stats(const Cli &c)
{
	const std::set<std::string> only(c.flows.begin(), c.flows.end());
	const std::set<std::string> *sel = c.flows.empty() ? nullptr : &only;
	std::vector<double> goodputs;
	std::vector<std::int64_t> all_errs;
	for (const auto &dir : c.dirs) {
		Schedule s;
		std::string err, text;
		if (!load_schedule(dir + "/schedule.txt", FlowOptions{}, s, err))
			return fail(err);
		for (const auto &f : c.flows)
			if (!s.find(f))
				return fail("--flows: no flow '" + f + "' in " + dir +
				            "/schedule.txt");
		std::map<std::string, FlowRecord> recs;
		if (!read_flows_table(dir + "/flows.csv", s, "", recs, &err))
			return fail(err);
		if (!read_file(dir + "/summary.json", text, &err))
			return fail(err);
		const auto sum = nlohmann::json::parse(text, nullptr, false);
		if (sum.is_discarded() || !sum.contains("hosts") || !sum["hosts"].is_object())
			return fail(dir + "/summary.json: not a summary of rxecc-traffic");
		std::size_t n = 0, ok = 0;
		for (const auto &f : s.flows)
			if (!sel || sel->count(f.name)) {
				n++;
				ok += recs[f.name].status == "ok";
			}
		const auto g = goodput_bps(s, recs, sel);
		const auto errs = start_error_list(s, recs, sel);
		all_errs.insert(all_errs.end(), errs.begin(), errs.end());
		const StartErrors se = start_errors(errs);
		std::string line =
			dir + ": " + std::to_string(ok) + " of " + std::to_string(n) + " flows ok";
		char b[200];
		if (g) {
			goodputs.push_back(*g / 1e9);
			std::snprintf(b, sizeof(b), ", goodput %.4f Gbit/s", *g / 1e9);
			line += b;
		}
		if (se.count) {
			std::snprintf(b, sizeof(b),
			              "; start error p50 %.1f us, p99 %.1f us, max %.1f us",
			              static_cast<double>(se.p50) / 1e3,
			              static_cast<double>(se.p99) / 1e3,
			              static_cast<double>(se.max) / 1e3);
			line += b;
		}
		for (const auto &[h, hj] : sum["hosts"].items())
			if (const auto cpu = cpu_share(hj)) {
				std::snprintf(b, sizeof(b), "; %s CPU %.1f%%", h.c_str(),
				              *cpu * 100);
				line += b;
			}
		std::printf("%s\n", line.c_str());
		// how each host waited for its starts (host.json's start_wait and
		// timer_wakeups)
		for (const auto &[h, hj] : sum["hosts"].items()) {
			if (!hj.contains("start_wait") || !hj["start_wait"].is_object() ||
			    !hj.contains("timer_wakeups") || !hj["timer_wakeups"].is_object())
				continue;
			const auto &w = hj["start_wait"];
			const auto &t = hj["timer_wakeups"];
			auto ms = [](const nlohmann::json &v) {
				char x[32];
				if (!v.is_number())
					return std::string("-");
				std::snprintf(x, sizeof(x), "%.2f", v.get<double>() / 1e6);
				return std::string(x);
			};
			std::printf("  %s: %s waits for a start, %s begun late; timer wake-ups "
			            "late p50 "
			            "%s ms, max %s ms; longest pause while waiting p50 %s ms, max "
			            "%s ms\n",
			            h.c_str(), w.value("waits", nlohmann::json()).dump().c_str(),
			            w.value("reached_late", nlohmann::json()).dump().c_str(),
			            ms(t.value("late_p50_ns", nlohmann::json())).c_str(),
			            ms(t.value("late_max_ns", nlohmann::json())).c_str(),
			            ms(w.value("gap_p50_ns", nlohmann::json())).c_str(),
			            ms(w.value("gap_max_ns", nlohmann::json())).c_str());
			if (hj.contains("longest_ns") && hj["longest_ns"].is_object()) {
				const auto &l = hj["longest_ns"];
				std::printf("  %s: longest rounds: rdma_cm events %s ms, "
				            "completions %s ms, "
				            "flow ends %s ms, starts %s ms\n",
				            h.c_str(),
				            ms(l.value("cm_events", nlohmann::json())).c_str(),
				            ms(l.value("completions", nlohmann::json())).c_str(),
				            ms(l.value("flow_ends", nlohmann::json())).c_str(),
				            ms(l.value("starts", nlohmann::json())).c_str());
			}
		}
	}
	if (c.dirs.size() > 1 && !all_errs.empty()) {
		const StartErrors se = start_errors(all_errs);
		std::printf("all: start error p50 %.1f us, p99 %.1f us, max %.1f us (%zu flows)\n",
		            static_cast<double>(se.p50) / 1e3, static_cast<double>(se.p99) / 1e3,
		            static_cast<double>(se.max) / 1e3, se.count);
	}
	if (c.dirs.size() > 1 && !goodputs.empty())
		std::printf("median goodput %.4f Gbit/s\n", median(goodputs));
	if (!c.baseline_gbps.empty()) {
		const double base = median(c.baseline_gbps);
		std::printf("median baseline %.4f Gbit/s\n", base);
		if (goodputs.empty())
			return fail("no goodput to compare with the baseline", 1);
		std::printf("ratio=%.3f\n", median(goodputs) / base);
	}
	return 0;
}

int cmd_gen(const Cli &c)
{
	const GenArgs &g = c.gen;
	std::string err;
	std::optional<Schedule> s;
	if (g.kind == "incast") {
		IncastParams p;
		p.senders = g.senders;
		p.receiver = g.receiver;
		p.size_bytes = g.size_bytes;
		p.repeats = g.repeats;
		p.period_ns = g.period_ns;
		p.start_ns = g.start_ns;
		p.prefix = g.prefix;
		p.opt = g.opt;
		s = gen_incast(p, &err);
	} else if (g.kind == "poisson") {
		const std::string path = cdf_path(g.cdf);
		std::string text;
		if (!read_file(path, text, &err))
			return fail("--cdf: " + err);
		auto cdf = SizeCdf::parse(text, path, &err);
		if (!cdf)
			return fail(err);
		PoissonParams p;
		p.srcs = g.srcs;
		p.dsts = g.dsts;
		p.cdf = *cdf;
		p.cdf_name = g.cdf;
		p.load = g.load;
		p.rate_bps = g.rate_bps;
		p.bottleneck = g.bottleneck;
		p.start_ns = g.start_ns;
		p.duration_ns = g.duration_ns;
		p.seed = g.seed;
		p.prefix = g.prefix;
		p.opt = g.opt;
		s = gen_poisson(p, &err);
	} else if (g.kind == "alltoall") {
		AllToAllParams p;
		p.hosts = g.hosts;
		p.size_bytes = g.size_bytes;
		p.repeats = g.repeats;
		p.period_ns = g.period_ns;
		p.start_ns = g.start_ns;
		p.prefix = g.prefix;
		p.opt = g.opt;
		s = gen_alltoall(p, &err);
	} else if (g.kind == "staircase") {
		StaircaseParams p;
		p.senders = g.senders;
		p.receiver = g.receiver;
		p.step_ns = g.step_ns;
		p.start_ns = g.start_ns;
		p.prefix = g.prefix;
		p.opt = g.opt;
		s = gen_staircase(p, &err);
	} else {
		LongShortParams p;
		p.long_src = g.long_src;
		p.short_src = g.short_src;
		p.dst = g.dst;
		p.long_duration_ns = g.long_duration_ns;
		p.short_size_bytes = g.size_bytes;
		p.short_at_ns = g.short_at_ns;
		p.count = g.count;
		p.period_ns = g.period_ns;
		p.start_ns = g.start_ns;
		p.opt = g.opt;
		s = gen_longshort(p, &err);
	}
	if (!s)
		return fail(g.kind + ": " + err);
	s->header.insert(s->header.begin(), "generated by: " + g.command_line);
	s->header.insert(
		s->header.begin() + 1,
		"NAME SRC DST START size=SIZE|duration=TIME verb msg qps dscp depth timeout");
	const std::string text = format_schedule(*s);
	if (g.output.empty()) {
		std::fwrite(text.data(), 1, text.size(), stdout);
		return 0;
	}
	if (!write_file(g.output, text, &err))
		return fail(err, 1);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	Cli c;
	std::string out, err;
	const int rc = parse_cli(argc, argv, c, out, err);
	std::fputs(out.c_str(), stdout);
	std::fputs(err.c_str(), stderr);
	if (rc >= 0)
		return rc;
	if (c.cmd == "launch" || c.cmd == "run")
		return cmd_launch_or_run(c);
	if (c.cmd == "merge")
		return cmd_merge(c);
	if (c.cmd == "check")
		return cmd_check(c);
	if (c.cmd == "wire")
		return cmd_wire(c);
	if (c.cmd == "stats")
		return cmd_stats(c);
	return cmd_gen(c);
}
