// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Small value parsers shared by the rxecc-fabric command line: numbers and
// priority lists.  Each returns nullopt for anything malformed (sign, junk,
// overflow, empty), never a partial value.
#ifndef RXECC_FABRIC_PROC_ARGS_H
#define RXECC_FABRIC_PROC_ARGS_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rxecc::fabric::proc
{

// Decimal, no sign, at most max.
std::optional<uint64_t> parse_uint(std::string_view s, uint64_t max);

// "3", "3,4", "*" (all eight); a bit mask of the listed priorities (0..7).
// Duplicates are accepted; an empty list or element is not.
std::optional<uint8_t> parse_prio_list(std::string_view s);

// Walks the arguments of one command, from index first: options as
// "--name=value", "--name value" or "-n value", and positional words.
//
//   OptionCursor c(args, 1, "run");
//   while (c.next())
//           if (c.name() == "--sample" && !c.value(err)) return false; ...
class OptionCursor
{
public:
	OptionCursor(const std::vector<std::string> &args, size_t first, std::string cmd)
	    : args_(args), next_(first), cmd_(std::move(cmd))
	{
	}

	// To the next argument; false past the last one.
	bool next();
	// The argument without an attached "=value" (only "--" options have
	// one).
	const std::string &name() const { return name_; }
	// Whether a value was attached with "=".
	bool has_value() const { return has_val_; }
	// The option's value: the attached one, or the next argument, which
	// this consumes.  False, with err "CMD: NAME needs a value", when
	// there is none.
	bool value(std::string &err);
	// The value value() found.
	const std::string &val() const { return val_; }

private:
	const std::vector<std::string> &args_;
	size_t next_;
	std::string cmd_;
	std::string name_, val_;
	bool has_val_ = false;
};

} // namespace rxecc::fabric::proc

#endif
