// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Command line of rxecc-fabric:
//
//   rxecc-fabric run -t TOPOLOGY [-a SW:PORT=SPEC]... [--telemetry DIR]
//                    [--sample TIME] [--control SOCKPATH] [--duration TIME]
//                    [--cpu N] [--busy-poll] [-q]
//   rxecc-fabric check -t TOPOLOGY [-a SW:PORT=SPEC]...
//   rxecc-fabric query SOCKPATH [stats|flat|quit]
//   rxecc-fabric send-pfc IFNAME [--prio LIST] [--quanta N] [--legacy]
//                         [--src MAC] [--count N]
//   rxecc-fabric --help | help | --version
//
// Parsing is pure: words in, options or the first error out.
#ifndef RXECC_FABRIC_PROC_CLI_H
#define RXECC_FABRIC_PROC_CLI_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "packet.h"
#include "send_pfc.h"

namespace rxecc::fabric::proc
{

// "-a SW:PORT=SPEC", split but not yet checked against the topology.
struct AttachArg {
	std::string sw;
	std::string port;
	std::string spec;
};

inline constexpr Time kDefaultSampleNs = 1000000; // 1 ms
inline constexpr Time kMinSampleNs = 10000;       // 10 us
inline constexpr int kMaxCpu = 4095;

struct RunOptions {
	std::string topology;
	std::vector<AttachArg> attach;
	std::optional<std::string> telemetry_dir;
	Time sample_ns = kDefaultSampleNs;
	std::optional<std::string> control;
	std::optional<Time> duration_ns;
	std::optional<int> cpu;
	bool busy_poll = false;
	bool quiet = false;
};

enum class ControlRequest { kStats, kFlat, kQuit };

struct QueryOptions {
	std::string socket;
	ControlRequest request = ControlRequest::kStats;
};

enum class Command { kRun, kCheck, kQuery, kSendPfc, kHelp, kVersion };

struct Cli {
	Command command = Command::kHelp;
	RunOptions run; // run and check
	QueryOptions query;
	SendPfcOptions send_pfc;
};

struct CliResult {
	std::optional<Cli> cli;
	std::string error; // when cli is empty
	explicit operator bool() const { return cli.has_value(); }
};

// args: the words after the program name.
CliResult parse_cli(const std::vector<std::string> &args);

// "SW:PORT=SPEC"; false and *err if malformed.
bool parse_attach_arg(const std::string &s, AttachArg &out, std::string &err);

// "stats", "flat", "quit"; nullopt otherwise.
std::optional<ControlRequest> parse_control_request(const std::string &s);
const char *to_string(ControlRequest r);

const char *usage_text();
const char *version_text();

} // namespace rxecc::fabric::proc

#endif
