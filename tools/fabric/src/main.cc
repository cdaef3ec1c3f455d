// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-fabric: the process that moves real frames through the software
// switch fabric, plus its query and PFC test helpers.
#include <cstdio>
#include <string>
#include <vector>

#include "cli.h"
#include "commands.h"
#include "send_pfc.h"

using namespace rxecc::fabric::proc;

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + 1, argv + argc);
	CliResult r = parse_cli(args);
	if (!r) {
		std::fprintf(stderr, "rxecc-fabric: %s\nTry 'rxecc-fabric --help'.\n",
		             r.error.c_str());
		return 2;
	}
	const Cli &cli = *r.cli;
	switch (cli.command) {
	case Command::kHelp: std::fputs(usage_text(), stdout); return 0;
	case Command::kVersion: std::fputs(version_text(), stdout); return 0;
	case Command::kRun: return cmd_run(cli.run);
	case Command::kCheck: return cmd_check(cli.run);
	case Command::kQuery: return cmd_query(cli.query);
	case Command::kSendPfc: return run_send_pfc(cli.send_pfc);
	}
	return 2;
}
