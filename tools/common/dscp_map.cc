// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "dscp_map.h"

#include <bitset>

namespace rxecc::dscp
{

namespace
{

// A decimal number of at most three digits (no sign, no blanks).
std::optional<unsigned> small_number(std::string_view s)
{
	if (s.empty() || s.size() > 3)
		return std::nullopt;
	unsigned v = 0;
	for (char c : s) {
		if (c < '0' || c > '9')
			return std::nullopt;
		v = v * 10 + static_cast<unsigned>(c - '0');
	}
	return v;
}

bool fail(std::string *err, std::string why)
{
	if (err)
		*err = std::move(why);
	return false;
}

bool parse_pair(std::string_view pair, Map &m, std::bitset<kDscps> &seen, std::string *err)
{
	const std::string quoted = "'" + std::string(pair) + "'";
	const std::size_t colon = pair.find(':');
	if (pair.empty() || colon == std::string_view::npos)
		return fail(err, quoted + " is not DSCP:PRIO (example: 26:3,48:6)");
	const std::string_view d = pair.substr(0, colon), p = pair.substr(colon + 1);
	const std::optional<unsigned> dv = small_number(d), pv = small_number(p);
	if (!dv)
		return fail(err, quoted + ": '" + std::string(d) + "' is not a DSCP (0..63)");
	if (*dv >= kDscps)
		return fail(err, quoted + ": DSCP " + std::to_string(*dv) + " is not 0..63");
	if (!pv)
		return fail(err, quoted + ": '" + std::string(p) + "' is not a priority (0..7)");
	if (*pv >= kPriorities)
		return fail(err, quoted + ": priority " + std::to_string(*pv) + " is not 0..7");
	if (seen.test(*dv))
		return fail(err, "DSCP " + std::to_string(*dv) + " is named twice");
	seen.set(*dv);
	m[*dv] = static_cast<std::uint8_t>(*pv);
	return true;
}

} // namespace

std::optional<Map> parse(std::string_view text, std::string *err)
{
	Map m{};
	std::bitset<kDscps> seen;
	if (text.empty())
		return m;
	for (;;) {
		const std::size_t comma = text.find(',');
		if (!parse_pair(text.substr(0, comma), m, seen, err))
			return std::nullopt;
		if (comma == std::string_view::npos)
			return m;
		text.remove_prefix(comma + 1);
	}
}

std::string format(const Map &m)
{
	std::string s;
	for (std::size_t d = 0; d < kDscps; ++d) {
		if (!m[d])
			continue;
		if (!s.empty())
			s += ',';
		s += std::to_string(d) + ":" + std::to_string(m[d]);
	}
	return s;
}

Map conventional()
{
	Map m{};
	m[26] = 3;
	m[48] = 6;
	return m;
}

} // namespace rxecc::dscp
