// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cli.h"

#include <sstream>

#include <CLI/CLI.hpp>

#include "text.h"
#include "units.h"

namespace rxecc::traffic
{

namespace
{

const char kIntro[] =
	"rxecc-traffic: the RDMA traffic generator of rxe-cc. One process per host runs\n"
	"every flow of a schedule (RDMA WRITE, SEND or READ over rdma_cm), with\n"
	"connections set up before the schedule's clock starts, and records per flow,\n"
	"per message and per time bin. Documentation/rxe-cc/traffic.rst has the formats.";

// Textual values converted after parsing (units and the like).
struct Raw {
	std::string bin = "1ms", connect_timeout = "30s", spin = "20ms", deadline,
		    start_delay = "200ms", start_at;
	// gen
	std::string size, rate, start = "0", period, duration, step, long_duration, short_at,
				short_size, msg = "64KiB", verb = "write", load;
	// comma-separated lists
	std::string senders, srcs, dsts, hosts, flows, baseline, compare;
};

// Splits a comma-separated list of OPT; false with `err` if an item is
// empty.
bool split_list(const char *opt, const std::string &v, std::vector<std::string> &out,
                std::string &err)
{
	out.clear();
	if (v.empty())
		return true;
	for (auto item : split_on(v, ',')) {
		if (item.empty()) {
			err = std::string(opt) + ": '" + v + "' has an empty item";
			return false;
		}
		out.emplace_back(item);
	}
	return true;
}

bool conv_time(const std::string &opt, const std::string &v, std::uint64_t &out, std::string &err,
               bool positive = false)
{
	std::string e;
	auto t = units::parse_time_ns(v, &e);
	if (!t) {
		err = opt + ": " + e;
		return false;
	}
	if (positive && *t == 0) {
		err = opt + ": must be longer than 0";
		return false;
	}
	out = *t;
	return true;
}

bool conv_size(const std::string &opt, const std::string &v, std::uint64_t &out, std::string &err)
{
	std::string e;
	auto t = units::parse_size_bytes(v, &e);
	if (!t) {
		err = opt + ": " + e;
		return false;
	}
	if (*t == 0) {
		err = opt + ": must be at least 1 byte";
		return false;
	}
	out = *t;
	return true;
}

void add_run_options(CLI::App *s, RunArgs &a, Raw &r)
{
	s->add_option("--schedule", a.schedule, "schedule file (format: traffic.rst)")
		->required()
		->check(CLI::ExistingFile);
	s->add_option("--hosts", a.hosts,
	              "hosts file: NAME IPV4 [netns=NS|-] [dev=DEV|any] per line (an "
	              "experiment's hosts.txt works)")
		->required()
		->check(CLI::ExistingFile);
	s->add_option("--out", a.out, "output directory (created)")->required();
	s->add_option("--bin", r.bin, "width of the throughput bins (default 1ms)");
	s->add_option("--messages", a.messages,
	              "per-message records: auto (flows with messages of at most 4KiB), all, "
	              "none (default auto)")
		->check(CLI::IsMember({"auto", "all", "none"}));
	s->add_option("--port", a.port, "rdma_cm port every host listens on (default 18520)")
		->check(CLI::Range(1, 65535));
	s->add_option("--connect-timeout", r.connect_timeout,
	              "give up connecting a flow's QPs after this (default 30s)");
	s->add_option("--spin", r.spin,
	              "wait for a flow's start by reading the clock for the last TIME of it "
	              "(default 20ms)");
	s->add_flag("--busy-poll", a.busy_poll,
	            "poll the completion queues without sleeping (a CPU per host, at normal "
	            "priority; default: completion events)");
	s->add_option("--rt-priority", a.rt_priority,
	              "run each host process at this SCHED_FIFO priority, so that a flow's start "
	              "is not held up by other work; 0: normal scheduling (default 10; not with "
	              "--busy-poll)")
		->check(CLI::Range(0u, 99u));
	s->add_option("--deadline", r.deadline,
	              "stop unfinished flows this long after T0 (default: the last scheduled "
	              "start or end plus 120s)");
	s->add_option("--ack-timeout", a.ack_timeout,
	              "IB local ACK timeout exponent (4.096us << N) of flows whose schedule line "
	              "sets none (default 18, about 1s)")
		->check(CLI::Range(0u, kMaxAckTimeout));
}

bool finish_run(const std::string &cmd, RunArgs &a, const Raw &r, std::string &err)
{
	if (!conv_time("--bin", r.bin, a.bin_ns, err, true) ||
	    !conv_time("--connect-timeout", r.connect_timeout, a.connect_timeout_ns, err, true) ||
	    !conv_time("--spin", r.spin, a.spin_ns, err))
		return false;
	if (!r.deadline.empty()) {
		std::uint64_t d = 0;
		if (!conv_time("--deadline", r.deadline, d, err, true))
			return false;
		a.deadline_ns = d;
	}
	if (cmd == "launch" && !conv_time("--start-delay", r.start_delay, a.start_delay_ns, err))
		return false;
	if (cmd == "run") {
		if (!r.start_at.empty() && r.start_at[0] == '+') {
			std::uint64_t d = 0;
			if (!conv_time("--start-at", r.start_at.substr(1), d, err))
				return false;
			a.start_after_ns = d;
		} else {
			std::string e;
			auto t = units::parse_time_ns(r.start_at, &e, 1000000000ULL);
			if (!t || *t > static_cast<std::uint64_t>(INT64_MAX)) {
				err = "--start-at: '" + r.start_at +
				      "' is not seconds since the epoch (e.g. 1767225600.5, as "
				      "from "
				      "date +%s.%N) or +TIME (e.g. +2s)";
				return false;
			}
			a.start_at_real_ns = static_cast<std::int64_t>(*t);
		}
	}
	return true;
}

void add_flow_options(CLI::App *s, GenArgs &g, Raw &r)
{
	s->add_option("--verb", r.verb, "write, send or read (default write)")
		->check(CLI::IsMember({"write", "send", "read"}));
	s->add_option("--msg", r.msg, "message size (default 64KiB)");
	s->add_option("--qps", g.opt.qps, "QPs per flow (default 1)")
		->check(CLI::Range(1u, kMaxQps));
	s->add_option("--dscp", g.opt.dscp, "DSCP (default 26)")->check(CLI::Range(0u, kMaxDscp));
	s->add_option("--depth", g.opt.depth, "work requests outstanding per QP (default 128)")
		->check(CLI::Range(1u, kMaxDepth));
	s->add_option("--timeout", g.opt.ack_timeout, "ACK timeout exponent (default 18)")
		->check(CLI::Range(0u, kMaxAckTimeout));
	s->add_option("-o,--output", g.output,
	              "write the schedule here (default: standard output)");
	s->add_option("--start", r.start, "time of the first flow (default 0)");
}

bool valid_hosts(const char *opt, const std::vector<std::string> &v, std::string &err)
{
	for (const auto &h : v)
		if (!valid_name(h)) {
			err = std::string(opt) + ": '" + h + "' is not a host name";
			return false;
		}
	return true;
}

bool finish_gen(GenArgs &g, const Raw &r, std::string &err)
{
	if (!split_list("--senders", r.senders, g.senders, err) ||
	    !split_list("--src", r.srcs, g.srcs, err) ||
	    !split_list("--dst", r.dsts, g.dsts, err) ||
	    !split_list("--hosts", r.hosts, g.hosts, err))
		return false;
	g.opt.verb = *parse_verb(r.verb);
	if (!conv_size("--msg", r.msg, g.opt.msg_bytes, err))
		return false;
	if (g.opt.msg_bytes > kMaxMsgBytes) {
		err = "--msg: at most 1GiB";
		return false;
	}
	if (!conv_time("--start", r.start, g.start_ns, err))
		return false;
	if (!r.size.empty() && !conv_size("--size", r.size, g.size_bytes, err))
		return false;
	if (!r.short_size.empty() && !conv_size("--short-size", r.short_size, g.size_bytes, err))
		return false;
	if (!r.period.empty() && !conv_time("--period", r.period, g.period_ns, err, true))
		return false;
	if (!r.duration.empty() && !conv_time("--duration", r.duration, g.duration_ns, err, true))
		return false;
	if (!r.step.empty() && !conv_time("--step", r.step, g.step_ns, err, true))
		return false;
	if (!r.long_duration.empty() &&
	    !conv_time("--long-duration", r.long_duration, g.long_duration_ns, err, true))
		return false;
	if (!r.short_at.empty() && !conv_time("--short-at", r.short_at, g.short_at_ns, err))
		return false;
	if (!r.rate.empty()) {
		std::string e;
		auto v = units::parse_rate_bps(r.rate, &e);
		if (!v || *v == 0) {
			err = "--rate: " + (v ? std::string("must be above 0") : e);
			return false;
		}
		g.rate_bps = *v;
	}
	if (!r.load.empty()) {
		auto v = parse_double(r.load);
		if (!v || !(*v > 0) || *v > 10) {
			err = "--load: '" + r.load + "' is not a fraction above 0 (e.g. 0.3)";
			return false;
		}
		g.load = *v;
	}
	if ((g.repeats > 1 || g.count > 1) && g.period_ns == 0) {
		err = "--period: needed with more than one repetition";
		return false;
	}
	return valid_hosts("--senders", g.senders, err) && valid_hosts("--src", g.srcs, err) &&
	       valid_hosts("--dst", g.dsts, err) && valid_hosts("--hosts", g.hosts, err);
}

} // namespace

std::string cdf_path(const std::string &name)
{
	if (name.find('/') != std::string::npos || name.find('.') != std::string::npos)
		return name;
	return std::string(RXECC_TRAFFIC_CDF_DIR) + "/" + name + ".cdf";
}

int parse_cli(int argc, const char *const *argv, Cli &cli, std::string &out, std::string &err)
{
	CLI::App app{kIntro, "rxecc-traffic"};
	app.require_subcommand(1);
	app.set_version_flag("--version", std::string("rxecc-traffic ") + RXECC_TRAFFIC_VERSION);
	Raw r;

	auto *launch = app.add_subcommand(
		"launch",
		"run every host of the schedule: one process per host (entering its network "
		"namespace), connected before T0; writes DIR/HOST/ and the merged records");
	add_run_options(launch, cli.run, r);
	launch->add_option("--start-delay", r.start_delay,
	                   "T0 is this long after every host is ready (default 200ms)");

	auto *run = app.add_subcommand(
		"run", "run one host of the schedule in this process (hosts on separate machines); "
		       "writes DIR/HOST/");
	add_run_options(run, cli.run, r);
	run->add_option("--host", cli.run.host, "the host to run (a name in the hosts file)")
		->required();
	run->add_option("--start-at", r.start_at,
	                "T0: CLOCK_REALTIME seconds since the epoch (e.g. 1767225600.5; hosts "
	                "synchronised by PTP or NTP), or +TIME after this host is ready")
		->required();

	auto *merge = app.add_subcommand(
		"merge",
		"merge DIR/HOST/ of every host into DIR/flows.csv, bins.csv, messages.csv, "
		"summary.json");
	merge->add_option("dir", cli.dir, "results directory")
		->required()
		->check(CLI::ExistingDirectory);
	merge->add_option("--schedule", cli.schedule, "schedule (default DIR/schedule.txt)")
		->check(CLI::ExistingFile);

	auto *check =
		app.add_subcommand("check", "check a schedule (and hosts file); print a summary");
	check->add_option("--schedule", cli.schedule, "schedule file")
		->required()
		->check(CLI::ExistingFile);
	check->add_option("--hosts", cli.hosts, "hosts file")->check(CLI::ExistingFile);
	check->add_option("--ack-timeout", cli.run.ack_timeout, "as for launch")
		->check(CLI::Range(0u, kMaxAckTimeout));

	auto *wire = app.add_subcommand(
		"wire", "the data-bearing frames the flows of DIR/flows.csv put on the wire, per "
			"source, destination and DSCP");
	wire->add_option("dir", cli.dir, "results directory")
		->required()
		->check(CLI::ExistingDirectory);
	wire->add_option("--mtu", cli.mtu, "path MTU in bytes (default 1024)")
		->check(CLI::IsMember({256, 512, 1024, 2048, 4096}));
	wire->add_option(
		"--compare", r.compare,
		"SRC,DST,DSCP,FRAMES,BYTES: compare what a fabric queue carried from SRC to "
		"DST on DSCP with the records (exit 1 unless it matches)");

	auto *stats = app.add_subcommand(
		"stats",
		"goodput, start errors and the host processes' CPU of results directories; "
		"with several, the median goodput, and its ratio to a baseline");
	stats->add_option("dirs", cli.dirs, "results directories")
		->required()
		->check(CLI::ExistingDirectory);
	stats->add_option("--flows", r.flows, "only these flows, comma-separated");
	stats->add_option("--baseline", r.baseline,
	                  "goodputs in Gbit/s of a reference (e.g. perftest, from perfstat gbps), "
	                  "comma-separated");

	auto *gen = app.add_subcommand("gen", "write a schedule");
	gen->require_subcommand(1);
	GenArgs &g = cli.gen;
	auto *inc = gen->add_subcommand("incast", "N:1 incast, repeated every PERIOD");
	inc->add_option("--senders", r.senders, "senders, comma-separated")->required();
	inc->add_option("--receiver", g.receiver, "receiver")->required();
	inc->add_option("--size", r.size, "bytes per sender")->required();
	inc->add_option("--repeat", g.repeats, "bursts (default 1)")
		->check(CLI::Range(1u, 1000000u));
	inc->add_option("--period", r.period, "time between bursts");
	inc->add_option("--prefix", g.prefix, "flow name prefix (default incast)");
	add_flow_options(inc, g, r);

	auto *poi = gen->add_subcommand(
		"poisson", "Poisson arrivals at a target load of a bottleneck, sizes from a CDF");
	poi->add_option("--src", r.srcs, "sources, comma-separated")->required();
	poi->add_option("--dst", r.dsts, "destinations, comma-separated")->required();
	poi->add_option("--cdf", g.cdf,
	                "size distribution: websearch, fb_hadoop, pcn_w1, pcn_w2, accurate_c, or a "
	                "file")
		->required();
	poi->add_option("--load", r.load, "offered load as a fraction of --rate (e.g. 0.3)")
		->required();
	poi->add_option("--rate", r.rate, "rate of the bottleneck every flow crosses")->required();
	poi->add_option("--bottleneck", g.bottleneck, "its name, for the header (e.g. s0.r)");
	poi->add_option("--duration", r.duration, "arrivals during this long")->required();
	poi->add_option("--seed", g.seed, "random seed (default 1)");
	poi->add_option("--prefix", g.prefix, "flow name prefix (default p)");
	add_flow_options(poi, g, r);

	auto *a2a = gen->add_subcommand("alltoall", "every host to every other host");
	a2a->add_option("--hosts", r.hosts, "hosts, comma-separated")->required();
	a2a->add_option("--size", r.size, "bytes per pair")->required();
	a2a->add_option("--repeat", g.repeats, "rounds (default 1)")
		->check(CLI::Range(1u, 1000000u));
	a2a->add_option("--period", r.period, "time between rounds");
	a2a->add_option("--prefix", g.prefix, "flow name prefix (default a2a)");
	add_flow_options(a2a, g, r);

	auto *st = gen->add_subcommand(
		"staircase", "long-lived flows join one every STEP, then leave in reverse order");
	st->add_option("--senders", r.senders, "senders, comma-separated")->required();
	st->add_option("--receiver", g.receiver, "receiver")->required();
	st->add_option("--step", r.step, "time between joins (and leaves)")->required();
	st->add_option("--prefix", g.prefix, "flow name prefix (default stair)");
	add_flow_options(st, g, r);

	auto *ls = gen->add_subcommand("longshort",
	                               "a long flow and short flows beside it (HPCC's long-short)");
	ls->add_option("--long-src", g.long_src, "source of the long flow")->required();
	ls->add_option("--short-src", g.short_src, "source of the short flows")->required();
	ls->add_option("--dst", g.dst, "destination of both")->required();
	ls->add_option("--long-duration", r.long_duration, "duration of the long flow")->required();
	ls->add_option("--short-size", r.short_size, "size of each short flow")->required();
	ls->add_option("--short-at", r.short_at, "first short flow, after the long one's start")
		->required();
	ls->add_option("--count", g.count, "short flows (default 1)")
		->check(CLI::Range(1u, 1000000u));
	ls->add_option("--period", r.period, "time between short flows");
	add_flow_options(ls, g, r);

	std::ostringstream o, e;
	try {
		app.parse(argc, argv);
	} catch (const CLI::CallForHelp &x) {
		app.exit(x, o, e);
		out = o.str();
		return 0;
	} catch (const CLI::CallForAllHelp &x) {
		app.exit(x, o, e);
		out = o.str();
		return 0;
	} catch (const CLI::CallForVersion &x) {
		app.exit(x, o, e);
		out = o.str();
		return 0;
	} catch (const CLI::ParseError &x) {
		err = std::string("rxecc-traffic: ") + x.what() +
		      "\nRun with --help for more information.\n";
		return 2;
	}

	std::string msg;
	bool ok = true;
	for (CLI::App *sub : {launch, run, merge, check, wire, stats}) {
		if (sub->parsed())
			cli.cmd = sub->get_name();
	}
	if (gen->parsed()) {
		cli.cmd = "gen";
		for (CLI::App *sub : {inc, poi, a2a, st, ls})
			if (sub->parsed())
				g.kind = sub->get_name();
		if (g.kind == "incast" && g.prefix.empty())
			g.prefix = "incast";
		else if (g.kind == "poisson" && g.prefix.empty())
			g.prefix = "p";
		else if (g.kind == "alltoall" && g.prefix.empty())
			g.prefix = "a2a";
		else if (g.kind == "staircase" && g.prefix.empty())
			g.prefix = "stair";
		ok = finish_gen(g, r, msg);
		for (int i = 0; i < argc; i++)
			g.command_line +=
				(i ? " " : "") + std::string(i ? argv[i] : "rxecc-traffic");
	} else if (cli.cmd == "launch" || cli.cmd == "run") {
		ok = finish_run(cli.cmd, cli.run, r, msg);
	} else if (cli.cmd == "wire" && !r.compare.empty()) {
		const auto f = split_on(r.compare, ',');
		std::optional<std::uint64_t> dscp, fr, by;
		if (f.size() == 5) {
			dscp = parse_uint(f[2]);
			fr = parse_uint(f[3]);
			by = parse_uint(f[4]);
		}
		if (f.size() != 5 || !valid_name(f[0]) || !valid_name(f[1]) || !dscp ||
		    *dscp > kMaxDscp || !fr || !by) {
			msg = "--compare: '" + r.compare + "' is not SRC,DST,DSCP,FRAMES,BYTES";
			ok = false;
		} else {
			cli.do_compare = true;
			cli.compare.src = std::string(f[0]);
			cli.compare.dst = std::string(f[1]);
			cli.compare.dscp = static_cast<unsigned>(*dscp);
			cli.compare.frames = *fr;
			cli.compare.bytes = *by;
		}
	} else if (cli.cmd == "stats") {
		std::vector<std::string> baseline;
		ok = split_list("--flows", r.flows, cli.flows, msg) &&
		     split_list("--baseline", r.baseline, baseline, msg);
		for (const auto &b : baseline) {
			auto v = parse_double(b);
			if (!v || !(*v > 0)) {
				msg = "--baseline: '" + b + "' is not a goodput in Gbit/s above 0";
				ok = false;
				break;
			}
			cli.baseline_gbps.push_back(*v);
		}
	}
	if (!ok) {
		err = "rxecc-traffic: " + msg + "\n";
		return 2;
	}
	return -1;
}

} // namespace rxecc::traffic
