// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-units: the project's grammar of rates, sizes and times for scripts.
//
//   rxecc-units rate|size|time [--bare-unit TIME] VALUE...
//
// Prints each VALUE as an integer (bit/s, bytes, ns), one per line. If any
// VALUE is not valid, prints nothing on stdout, the reason on stderr, and
// exits 1; a usage error exits 2.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "units.h"

namespace units = rxecc::units;

int main(int argc, char **argv)
{
	CLI::App app{"Converts rates, sizes and times to integers: bit/s, bytes and ns, one per\n"
	             "line. Nothing is printed unless every VALUE is valid. The grammar is in\n"
	             "Documentation/rxe-cc/units.rst. Exit status: 0 all valid, 1 a VALUE is\n"
	             "invalid, 2 usage error. A VALUE that starts with '-' goes after '--'.",
	             "rxecc-units"};
	app.require_subcommand(1);

	std::vector<std::string> values;
	std::string bare;

	CLI::App *rate =
		app.add_subcommand("rate", std::string("rates in bit/s (") + units::kRateExamples +
	                                           "; a bare number is bit/s)");
	CLI::App *size =
		app.add_subcommand("size", std::string("sizes in bytes (") + units::kSizeExamples +
	                                           "; a bare number is bytes)");
	CLI::App *time =
		app.add_subcommand("time", std::string("times in ns (") + units::kTimeExamples +
	                                           "; a bare number needs --bare-unit)");
	for (CLI::App *sub : {rate, size, time})
		sub->add_option("VALUE", values, "the values to convert")->required();
	time->add_option(
		    "--bare-unit", bare,
		    "a bare number counts in units of TIME (e.g. 1s; default: refused, except 0)")
		->type_name("TIME");

	try {
		app.parse(argc, argv);
	} catch (const CLI::ParseError &e) {
		int rc = app.exit(e);
		return rc == 0 ? 0 : 2;
	}

	std::uint64_t bare_ns = 0;
	std::string err;
	if (time->parsed() && !bare.empty()) {
		auto b = units::parse_time_ns(bare, &err);
		if (!b || *b == 0) {
			std::cerr << "rxecc-units: --bare-unit: "
				  << (b ? "'" + bare + "' is zero, expected a time such as 1s"
			                : err)
				  << "\n";
			return 2;
		}
		bare_ns = *b;
	}

	std::vector<std::uint64_t> out;
	for (const std::string &v : values) {
		std::optional<std::uint64_t> r;
		if (rate->parsed())
			r = units::parse_rate_bps(v, &err);
		else if (size->parsed())
			r = units::parse_size_bytes(v, &err);
		else
			r = units::parse_time_ns(v, &err, bare_ns);
		if (!r) {
			std::cerr << "rxecc-units: " << err << "\n";
			return 1;
		}
		out.push_back(*r);
	}
	for (std::uint64_t v : out)
		std::cout << v << "\n";
	std::cout.flush();
	return std::cout ? 0 : 1;
}
