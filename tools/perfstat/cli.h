// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The perfstat command line, kept apart from main() so that it can be run
// in-process by the unit tests.
#ifndef RXECC_PERFSTAT_CLI_H
#define RXECC_PERFSTAT_CLI_H

#include <iosfwd>
#include <string>
#include <vector>

namespace perfstat
{

// Exit statuses of the perfstat tool.
enum ExitStatus {
	kExitOk = 0,
	kExitNoResult = 1, // an input has no usable result, or the ratio is undefined
	kExitUsage = 2,    // unknown command or option, missing argument
};

// Run the tool with `args` (argv without the program name).  "-" as a file
// name reads `in`.
int run_cli(const std::vector<std::string> &args, std::istream &in, std::ostream &out,
            std::ostream &err);

} // namespace perfstat

#endif // RXECC_PERFSTAT_CLI_H
