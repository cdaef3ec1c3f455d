// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The rxecc command line, kept apart from main() so that the tests run it
// in-process against a fake kernel.
#ifndef RXECC_CLI_H
#define RXECC_CLI_H

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "transport.h"

namespace rxecc
{

enum ExitStatus {
	kExitOk = 0,
	kExitError = 1, // runtime or kernel error
	kExitUsage = 2, // bad command line
};

extern const char *const kVersion;

struct Env {
	std::ostream &out;
	std::ostream &err;
	Clock &clock;
	// Open the transport to the rxe_cc family. Called only once the command
	// line has been checked, so a usage error needs no kernel.
	std::function<Status(std::unique_ptr<Transport> &)> connect;
	// Open FILE for 'monitor -o FILE'; on failure return null and say why.
	std::function<std::unique_ptr<std::ostream>(const std::string &path, std::string &why)>
		open_file;
};

// Run rxecc with `args` (argv without the program name); returns the exit
// status.
int run(const std::vector<std::string> &args, Env &env);

} // namespace rxecc

#endif // RXECC_CLI_H
