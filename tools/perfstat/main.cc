// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// perfstat: read perftest result tables (see `perfstat --help`).
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
	return perfstat::run_cli(args, std::cin, std::cout, std::cerr);
}
