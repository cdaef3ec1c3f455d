// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cli.h"

#include "args.h"
#include "topology.h"
#include "units.h"

namespace rxecc::fabric::proc
{

namespace
{

bool valid_name(const std::string &s)
{
	if (s.empty() || s.size() > 64)
		return false;
	for (char c : s) {
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
		if (!ok)
			return false;
	}
	return true;
}

// Options of run and check.
bool parse_run(const std::vector<std::string> &args, bool check, RunOptions &o, std::string &err)
{
	const std::string cmd = check ? "check" : "run";
	bool have_topology = false;
	OptionCursor cur(args, 1, cmd);
	while (cur.next()) {
		const std::string &a = cur.name();
		const std::string &val = cur.val();
		const bool has_val = cur.has_value();
		auto value = [&]() -> bool { return cur.value(err); };
		auto run_only = [&]() -> bool {
			if (!check)
				return true;
			err = "check: " + a + " applies to run only";
			return false;
		};
		if (a == "-t" || a == "--topology") {
			if (!value())
				return false;
			if (have_topology) {
				err = cmd + ": -t given twice";
				return false;
			}
			if (val.empty()) {
				err = cmd + ": empty topology path";
				return false;
			}
			o.topology = val;
			have_topology = true;
		} else if (a == "-a" || a == "--attach") {
			if (!value())
				return false;
			AttachArg at;
			if (!parse_attach_arg(val, at, err)) {
				err = cmd + ": " + err;
				return false;
			}
			o.attach.push_back(at);
		} else if (a == "--telemetry") {
			if (!run_only() || !value())
				return false;
			if (val.empty()) {
				err = "run: empty --telemetry directory";
				return false;
			}
			o.telemetry_dir = val;
		} else if (a == "--sample") {
			if (!run_only() || !value())
				return false;
			auto t = units::parse_time_ns(val, &err);
			if (!t) {
				err = "run: bad --sample: " + err;
				return false;
			}
			if (*t < kMinSampleNs || *t > kMaxDelayNs) {
				err = "run: bad --sample '" + val +
				      "' (a time from 10us to 10s, e.g. 1ms)";
				return false;
			}
			o.sample_ns = *t;
		} else if (a == "--control") {
			if (!run_only() || !value())
				return false;
			if (val.empty() || val.size() > 107) {
				err = "run: bad --control path '" + val + "' (1..107 bytes)";
				return false;
			}
			o.control = val;
		} else if (a == "--duration") {
			if (!run_only() || !value())
				return false;
			auto t = units::parse_time_ns(val, &err);
			if (!t) {
				err = "run: bad --duration: " + err;
				return false;
			}
			if (*t == 0 || *t > 1000000ull * 1000000000ull) {
				err = "run: bad --duration '" + val +
				      "' (more than 0, at most 1000000s)";
				return false;
			}
			o.duration_ns = *t;
		} else if (a == "--cpu") {
			if (!run_only() || !value())
				return false;
			auto c = parse_uint(val, kMaxCpu);
			if (!c) {
				err = "run: bad --cpu '" + val + "' (a CPU number)";
				return false;
			}
			o.cpu = static_cast<int>(*c);
		} else if (a == "--busy-poll") {
			if (!run_only())
				return false;
			if (has_val) {
				err = "run: --busy-poll takes no value";
				return false;
			}
			o.busy_poll = true;
		} else if (a == "-q" || a == "--quiet") {
			if (has_val) {
				err = cmd + ": --quiet takes no value";
				return false;
			}
			o.quiet = true;
		} else if (!a.empty() && a[0] == '-') {
			err = cmd + ": unknown option '" + a + "'";
			return false;
		} else {
			err = cmd + ": unexpected argument '" + a + "'";
			return false;
		}
	}
	if (!have_topology) {
		err = cmd + ": missing -t TOPOLOGY";
		return false;
	}
	return true;
}

} // namespace

bool parse_attach_arg(const std::string &s, AttachArg &out, std::string &err)
{
	size_t eq = s.find('=');
	size_t colon = s.find(':');
	if (eq == std::string::npos || colon == std::string::npos || colon > eq) {
		err = "bad attachment '" + s + "' (SW:PORT=SPEC)";
		return false;
	}
	out.sw = s.substr(0, colon);
	out.port = s.substr(colon + 1, eq - colon - 1);
	out.spec = s.substr(eq + 1);
	if (!valid_name(out.sw) || !valid_name(out.port)) {
		err = "bad port '" + s.substr(0, eq) + "' in attachment (SW:PORT=SPEC)";
		return false;
	}
	if (out.spec.empty()) {
		err = "empty SPEC in attachment '" + s + "'";
		return false;
	}
	return true;
}

std::optional<ControlRequest> parse_control_request(const std::string &s)
{
	if (s == "stats")
		return ControlRequest::kStats;
	if (s == "flat")
		return ControlRequest::kFlat;
	if (s == "quit")
		return ControlRequest::kQuit;
	return std::nullopt;
}

const char *to_string(ControlRequest r)
{
	switch (r) {
	case ControlRequest::kStats: return "stats";
	case ControlRequest::kFlat: return "flat";
	case ControlRequest::kQuit: return "quit";
	}
	return "?";
}

CliResult parse_cli(const std::vector<std::string> &args)
{
	CliResult res;
	Cli cli;
	if (args.empty()) {
		res.error = "missing command (run, check, query, send-pfc, help)";
		return res;
	}
	const std::string &c = args[0];
	if (c == "--help" || c == "-h" || c == "help") {
		if (args.size() > 1) {
			res.error = "help takes no arguments";
			return res;
		}
		cli.command = Command::kHelp;
	} else if (c == "--version") {
		if (args.size() > 1) {
			res.error = "--version takes no arguments";
			return res;
		}
		cli.command = Command::kVersion;
	} else if (c == "run" || c == "check") {
		cli.command = c == "run" ? Command::kRun : Command::kCheck;
		if (!parse_run(args, c == "check", cli.run, res.error))
			return res;
	} else if (c == "query") {
		cli.command = Command::kQuery;
		if (args.size() < 2 || args.size() > 3) {
			res.error = "query: usage: query SOCKPATH [stats|flat|quit]";
			return res;
		}
		cli.query.socket = args[1];
		if (cli.query.socket.empty() || cli.query.socket.size() > 107) {
			res.error = "query: bad socket path '" + args[1] + "' (1..107 bytes)";
			return res;
		}
		if (args.size() == 3) {
			auto r = parse_control_request(args[2]);
			if (!r) {
				res.error = "query: unknown request '" + args[2] +
				            "' (stats, flat, quit)";
				return res;
			}
			cli.query.request = *r;
		}
	} else if (c == "send-pfc") {
		cli.command = Command::kSendPfc;
		std::vector<std::string> rest(args.begin() + 1, args.end());
		if (!parse_send_pfc(rest, cli.send_pfc, res.error))
			return res;
	} else {
		res.error = "unknown command '" + c + "' (run, check, query, send-pfc, help)";
		return res;
	}
	res.cli = std::move(cli);
	return res;
}

const char *usage_text()
{
	return "Usage:\n"
	       "  rxecc-fabric run -t TOPOLOGY [-a SW:PORT=SPEC]... [--telemetry DIR]\n"
	       "                   [--sample TIME] [--control SOCKPATH] [--duration TIME]\n"
	       "                   [--cpu N] [--busy-poll] [-q]\n"
	       "  rxecc-fabric check -t TOPOLOGY [-a SW:PORT=SPEC]...\n"
	       "  rxecc-fabric query SOCKPATH [stats|flat|quit]\n"
	       "  rxecc-fabric send-pfc IFNAME [--prio LIST] [--quanta N] [--legacy]\n"
	       "                        [--src MAC] [--count N] [--interval TIME]\n"
	       "  rxecc-fabric --help | help | --version\n"
	       "\n"
	       "Moves Ethernet frames between the external ports of a software switch\n"
	       "fabric (see Documentation/rxe-cc/fabric.rst).\n"
	       "\n"
	       "Attachment SPEC (or the topology's attach= attribute of a port):\n"
	       "  if:IFNAME                       AF_PACKET socket with TPACKET rings\n"
	       "  dgram:LHOST:LPORT:RHOST:RPORT   UDP, one frame per datagram (QEMU dgram)\n"
	       "  dgram:LPATH:RPATH               unix datagram socket (QEMU dgram), lossless\n"
	       "  stream:PATH                     listening unix socket (QEMU stream)\n"
	       "\n"
	       "run:\n"
	       "  -t, --topology FILE   topology file\n"
	       "  -a, --attach SW:PORT=SPEC  attach an external port (overrides attach=)\n"
	       "  --telemetry DIR       write queues.csv, ports.csv, summary.json/.flat\n"
	       "  --sample TIME         telemetry sampling period (default 1ms)\n"
	       "  --control SOCKPATH    unix socket answering stats, flat and quit\n"
	       "  --duration TIME       stop after TIME (default: until SIGINT/SIGTERM)\n"
	       "  --cpu N               pin the process to CPU N\n"
	       "  --busy-poll           spin instead of sleeping\n"
	       "  -q, --quiet           no summary on stderr at exit\n"
	       "\n"
	       "send-pfc (needs CAP_NET_RAW):\n"
	       "  --prio LIST           priorities: 3, 3,4 or * (default 3)\n"
	       "  --quanta N            pause time in quanta, 0 = XON (default 65535)\n"
	       "  --legacy              802.3x PAUSE (opcode 0x0001) instead of PFC\n"
	       "  --src MAC             source address (default: the interface's)\n"
	       "  --count N             frames to send (default 1)\n"
	       "  --interval TIME       one frame every TIME (at most 60s), each printed\n"
	       "                        as \"frame N SECONDS\" (wall clock) once sent\n"
	       "\n"
	       "INT (HPCC) stamping is set in the topology file: 'int TARGET\n"
	       "[stamp=yes|no]' per port, 'switch_id=N' (0..4095) on a switch line,\n"
	       "'int_port N' (default 4792), 'int_rate_code CODE RATE|none' (codes\n"
	       "11..15); check prints it.  See \"INT (HPCC)\" in\n"
	       "Documentation/rxe-cc/fabric.rst.\n"
	       "\n"
	       "TIME: 500us, 1.5ms, 2s (Documentation/rxe-cc/units.rst).  Exit status:\n"
	       "0 ok, 1 failure (check: invalid configuration), 2 usage or\n"
	       "configuration error of run.\n";
}

const char *version_text()
{
	return "rxecc-fabric " RXECC_FABRIC_VERSION "\n";
}

} // namespace rxecc::fabric::proc
