// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "format.h"

#include <algorithm>
#include <cstdio>
#include <rdma/rxe_cc.h>

namespace rxecc
{

namespace
{

__extension__ typedef unsigned __int128 u128;

struct Step {
	std::uint64_t div;
	const char *name;
};

// v / div with at most three decimals, rounded half up, trailing zeros cut.
std::string decimal(std::uint64_t v, std::uint64_t div, unsigned decimals)
{
	std::uint64_t pow = 1;
	for (unsigned i = 0; i < decimals; ++i)
		pow *= 10;
	u128 scaled = (static_cast<u128>(v) * pow + div / 2) / div;
	std::uint64_t ip = static_cast<std::uint64_t>(scaled / pow);
	std::uint64_t fp = static_cast<std::uint64_t>(scaled % pow);
	std::string s = std::to_string(ip);
	if (fp) {
		std::string f = std::to_string(fp);
		f.insert(0, decimals - f.size(), '0');
		while (!f.empty() && f.back() == '0')
			f.pop_back();
		s += "." + f;
	}
	return s;
}

// Pick the largest step not above v; move up one step if rounding reaches
// the next one (999.9996K -> 1M).
std::string scaled(std::uint64_t v, const Step *steps, std::size_t n)
{
	std::size_t i = 0;
	while (i + 1 < n && v >= steps[i + 1].div)
		++i;
	if (i + 1 < n) {
		u128 milli = (static_cast<u128>(v) * 1000 + steps[i].div / 2) / steps[i].div;
		if (milli >= static_cast<u128>(steps[i + 1].div / steps[i].div) * 1000)
			++i;
	}
	return decimal(v, steps[i].div, 3) + steps[i].name;
}

} // namespace

std::string format_rate_bps(std::uint64_t bps)
{
	static const Step steps[] = {
		{1, "bit"},
		{1000ULL, "Kbit"},
		{1000000ULL, "Mbit"},
		{1000000000ULL, "Gbit"},
		{1000000000000ULL, "Tbit"},
	};
	return scaled(bps, steps, sizeof(steps) / sizeof(steps[0]));
}

std::string format_time_ns(std::uint64_t ns)
{
	static const Step steps[] = {
		{1, "ns"},
		{1000ULL, "us"},
		{1000000ULL, "ms"},
		{1000000000ULL, "s"},
	};
	return scaled(ns, steps, sizeof(steps) / sizeof(steps[0]));
}

std::string format_bytes(std::uint64_t bytes)
{
	static const Step steps[] = {
		{1ULL << 30, "GiB"},
		{1ULL << 20, "MiB"},
		{1ULL << 10, "KiB"},
	};
	for (const Step &s : steps)
		if (bytes >= s.div && bytes % s.div == 0)
			return std::to_string(bytes / s.div) + s.name;
	return std::to_string(bytes) + "B";
}

std::string format_fixed(std::uint64_t v, unsigned frac_bits)
{
	std::uint64_t one = 1ULL << frac_bits;
	u128 scaled_v = (static_cast<u128>(v) * 10000 + one / 2) / one;
	std::uint64_t ip = static_cast<std::uint64_t>(scaled_v / 10000);
	std::uint64_t fp = static_cast<std::uint64_t>(scaled_v % 10000);
	char buf[64];
	std::snprintf(buf, sizeof(buf), "%llu.%04llu", static_cast<unsigned long long>(ip),
	              static_cast<unsigned long long>(fp));
	return buf;
}

std::string unit_label(std::uint32_t unit)
{
	switch (unit) {
	case RXE_CC_UNIT_ID_NONE: return "";
	case RXE_CC_UNIT_ID_BOOL: return "bool";
	case RXE_CC_UNIT_ID_KBPS: return "kbit/s";
	case RXE_CC_UNIT_ID_US: return "us";
	case RXE_CC_UNIT_ID_NS: return "ns";
	case RXE_CC_UNIT_ID_BYTES: return "bytes";
	case RXE_CC_UNIT_ID_PERCENT: return "%";
	case RXE_CC_UNIT_ID_Q10: return "Q10";
	case RXE_CC_UNIT_ID_Q16: return "Q16";
	case RXE_CC_UNIT_ID_LOG2: return "log2";
	case RXE_CC_UNIT_ID_DSCP: return "DSCP";
	case RXE_CC_UNIT_ID_PCP: return "PCP";
	default: return "unit" + std::to_string(unit);
	}
}

std::string unit_id(std::uint32_t unit)
{
	switch (unit) {
	case RXE_CC_UNIT_ID_NONE: return "none";
	case RXE_CC_UNIT_ID_BOOL: return "bool";
	case RXE_CC_UNIT_ID_KBPS: return "kbps";
	case RXE_CC_UNIT_ID_US: return "us";
	case RXE_CC_UNIT_ID_NS: return "ns";
	case RXE_CC_UNIT_ID_BYTES: return "bytes";
	case RXE_CC_UNIT_ID_PERCENT: return "percent";
	case RXE_CC_UNIT_ID_Q10: return "q10";
	case RXE_CC_UNIT_ID_Q16: return "q16";
	case RXE_CC_UNIT_ID_LOG2: return "log2";
	case RXE_CC_UNIT_ID_DSCP: return "dscp";
	case RXE_CC_UNIT_ID_PCP: return "pcp";
	default: return "unit" + std::to_string(unit);
	}
}

std::string format_range(const ParamInfo &p)
{
	std::string r = std::to_string(p.min) + ".." + std::to_string(p.max);
	std::string u = unit_label(p.unit);
	if (p.unit == RXE_CC_UNIT_ID_Q10)
		u = "(Q10, 1024 = 1.0)";
	else if (p.unit == RXE_CC_UNIT_ID_Q16)
		u = "(Q16, 65536 = 1.0)";
	else if (p.unit == RXE_CC_UNIT_ID_BOOL)
		u = "(bool)";
	if (!u.empty() && u != "%")
		r += " ";
	return r + u;
}

std::string format_param_value(std::uint32_t unit, std::uint64_t v)
{
	switch (unit) {
	case RXE_CC_UNIT_ID_US: return std::to_string(v) + "us";
	case RXE_CC_UNIT_ID_NS: return std::to_string(v) + "ns";
	case RXE_CC_UNIT_ID_PERCENT: return std::to_string(v) + "%";
	default: return std::to_string(v);
	}
}

std::string format_state_value(std::uint32_t unit, std::uint64_t v)
{
	switch (unit) {
	case RXE_CC_UNIT_ID_Q10: return format_fixed(v, 10);
	case RXE_CC_UNIT_ID_Q16: return format_fixed(v, 16);
	default: return format_param_value(unit, v);
	}
}

void Table::print(std::ostream &os, std::string_view indent) const
{
	std::vector<std::size_t> width;
	for (const auto &r : rows_)
		for (std::size_t i = 0; i < r.size(); ++i) {
			if (width.size() <= i)
				width.push_back(0);
			width[i] = std::max(width[i], r[i].size());
		}
	for (const auto &r : rows_) {
		std::string line(indent);
		for (std::size_t i = 0; i < r.size(); ++i) {
			line += r[i];
			if (i + 1 < r.size())
				line.append(width[i] - r[i].size() + 2, ' ');
		}
		while (!line.empty() && line.back() == ' ')
			line.pop_back();
		os << line << '\n';
	}
}

void print_pairs(std::ostream &os, const std::vector<std::pair<std::string, std::string>> &pairs,
                 std::string_view indent, std::size_t width)
{
	std::string line;
	for (const auto &[name, value] : pairs) {
		std::string tok = name + " " + value;
		if (!line.empty() && indent.size() + line.size() + 1 + tok.size() > width) {
			os << indent << line << '\n';
			line.clear();
		}
		if (!line.empty())
			line += ' ';
		line += tok;
	}
	if (!line.empty())
		os << indent << line << '\n';
}

std::string csv_field(std::string_view s)
{
	if (s.find_first_of(",\"\r\n") == std::string_view::npos)
		return std::string(s);
	std::string out = "\"";
	for (char c : s) {
		if (c == '"')
			out += '"';
		out += c;
	}
	return out + "\"";
}

std::string format_per_second(std::uint64_t delta, std::uint64_t elapsed_ns)
{
	if (elapsed_ns == 0)
		return "0";
	// delta / (elapsed_ns / 1e9), in hundredths, rounded half up
	u128 hundredths =
		(static_cast<u128>(delta) * 100000000000ULL + elapsed_ns / 2) / elapsed_ns;
	std::uint64_t ip = static_cast<std::uint64_t>(hundredths / 100);
	unsigned fp = static_cast<unsigned>(hundredths % 100);
	std::string s = std::to_string(ip);
	if (fp) {
		s += '.';
		s += static_cast<char>('0' + fp / 10);
		if (fp % 10)
			s += static_cast<char>('0' + fp % 10);
	}
	return s;
}

} // namespace rxecc
