// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "parse.h"

#include <cctype>
#include <rdma/rxe_cc.h>

#include "format.h"
#include "units.h"

namespace rxecc
{

namespace
{

bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

std::string lower(std::string_view s)
{
	std::string r(s);
	for (char &c : r)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return r;
}

std::string quoted(std::string_view s)
{
	return "'" + std::string(s) + "'";
}

// A number parse_u64 takes (decimal or 0x hexadecimal), not a value with
// a unit.
bool is_plain_number(std::string_view s)
{
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return true;
	for (char c : s)
		if (!is_digit(c))
			return false;
	return !s.empty();
}

} // namespace

bool parse_u64(std::string_view s, std::uint64_t &v, std::string &err)
{
	if (s.empty()) {
		err = "empty value, expected a number";
		return false;
	}
	unsigned base = 10;
	std::string_view digits = s;
	if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = s.substr(2);
	}
	std::uint64_t r = 0;
	for (char c : digits) {
		unsigned d;
		if (is_digit(c))
			d = static_cast<unsigned>(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = static_cast<unsigned>(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = static_cast<unsigned>(c - 'A' + 10);
		else {
			err = quoted(s) + " is not a number";
			return false;
		}
		if (__builtin_mul_overflow(r, base, &r) || __builtin_add_overflow(r, d, &r)) {
			err = quoted(s) + " is too large";
			return false;
		}
	}
	v = r;
	return true;
}

bool parse_u32(std::string_view s, std::uint32_t &v, std::string &err)
{
	std::uint64_t x;
	if (!parse_u64(s, x, err))
		return false;
	if (x > UINT32_MAX) {
		err = quoted(s) + " is too large (at most 4294967295)";
		return false;
	}
	v = static_cast<std::uint32_t>(x);
	return true;
}

bool parse_bool(std::string_view s, bool &v, std::string &err)
{
	std::string l = lower(s);
	if (l == "on" || l == "yes" || l == "true" || l == "1") {
		v = true;
		return true;
	}
	if (l == "off" || l == "no" || l == "false" || l == "0") {
		v = false;
		return true;
	}
	err = quoted(s) + " is not on or off";
	return false;
}

bool parse_sfc_max_us(std::string_view s, std::uint32_t &us, std::string &err)
{
	const std::string range =
		"1us.." + units::format_time_ns(std::uint64_t{kSfcMaxUsMax} * 1000);
	auto ns = units::parse_time_ns(s, &err);
	if (!ns)
		return false;
	if (*ns % 1000) {
		err = quoted(s) + " is not a whole number of microseconds";
		return false;
	}
	if (*ns == 0 || *ns / 1000 > kSfcMaxUsMax) {
		err = quoted(s) + " is out of range " + range;
		return false;
	}
	us = static_cast<std::uint32_t>(*ns / 1000);
	return true;
}

bool parse_sfc_mode(std::string_view s, std::uint8_t &mode, std::string &err)
{
	if (s == "replace") {
		mode = RXE_CC_SFC_MODE_REPLACE;
		return true;
	}
	if (s == "max") {
		mode = RXE_CC_SFC_MODE_MAX;
		return true;
	}
	err = quoted(s) + " is not replace or max";
	return false;
}

std::string sfc_mode_name(std::uint64_t mode)
{
	switch (mode) {
	case RXE_CC_SFC_MODE_REPLACE: return "replace";
	case RXE_CC_SFC_MODE_MAX: return "max";
	default: return std::to_string(mode);
	}
}

bool parse_param_value(const ParamInfo &p, std::string_view s, std::uint32_t &v, std::string &err)
{
	const std::string range = format_range(p);
	std::uint64_t x = 0;
	std::string e2;
	bool ok;
	std::string hint;
	switch (p.unit) {
	case RXE_CC_UNIT_ID_BOOL: {
		bool b;
		ok = parse_bool(s, b, e2);
		x = b ? 1 : 0;
		hint = "on or off";
		break;
	}
	case RXE_CC_UNIT_ID_KBPS:
		if (!is_plain_number(s)) {
			auto bps = units::parse_rate_bps(s, &e2);
			ok = bps.has_value();
			if (ok && *bps % 1000) {
				ok = false;
				e2 = quoted(s) + " is not a whole number of kbit/s";
			}
			x = bps.value_or(0) / 1000;
		} else {
			ok = parse_u64(s, x, e2);
		}
		hint = "an integer in " + range + ", or a rate such as 5Mbit";
		break;
	case RXE_CC_UNIT_ID_US:
	case RXE_CC_UNIT_ID_NS:
		if (!is_plain_number(s)) {
			auto ns = units::parse_time_ns(s, &e2);
			std::uint64_t per = p.unit == RXE_CC_UNIT_ID_US ? 1000 : 1;
			ok = ns.has_value();
			if (ok && *ns % per) {
				ok = false;
				e2 = quoted(s) + " is not a whole number of microseconds";
			}
			x = ns.value_or(0) / per;
		} else {
			ok = parse_u64(s, x, e2);
		}
		hint = "an integer in " + range + ", or a time such as 2ms";
		break;
	case RXE_CC_UNIT_ID_BYTES:
		if (!is_plain_number(s)) {
			auto b = units::parse_size_bytes(s, &e2);
			ok = b.has_value();
			x = b.value_or(0);
		} else {
			ok = parse_u64(s, x, e2);
		}
		hint = "an integer in " + range + ", or a size such as 64KiB";
		break;
	case RXE_CC_UNIT_ID_PERCENT: {
		std::string_view t = s;
		if (!t.empty() && t.back() == '%')
			t.remove_suffix(1);
		ok = parse_u64(t, x, e2);
		hint = "an integer in " + range;
		break;
	}
	default:
		ok = parse_u64(s, x, e2);
		hint = "an integer in " + range;
		break;
	}
	if (!ok) {
		err = p.name + ": " + e2 + "; expected " + hint;
		return false;
	}
	if (x < p.min || x > p.max) {
		std::string shown = std::to_string(x);
		if (shown != s)
			shown = std::string(s) + " (" + shown + ")";
		err = p.name + ": " + shown + " is out of range " + range;
		return false;
	}
	v = static_cast<std::uint32_t>(x);
	return true;
}

} // namespace rxecc
