// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "parse.h"

#include <cctype>
#include <rdma/rxe_cc.h>

#include "format.h"

namespace rxecc {

namespace {

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

// Splits "1.5Gbit" into the number "1.5" and the suffix "Gbit".
void split_number(std::string_view s, std::string_view &num, std::string_view &suffix)
{
	std::size_t i = 0;
	while (i < s.size() && (is_digit(s[i]) || s[i] == '.'))
		++i;
	num = s.substr(0, i);
	suffix = s.substr(i);
}

bool has_letter(std::string_view s)
{
	for (char c : s)
		if (std::isalpha(static_cast<unsigned char>(c)))
			return true;
	return false;
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

bool parse_scaled(std::string_view s, std::uint64_t scale, std::uint64_t &v, std::string &err)
{
	std::size_t dot = s.find('.');
	std::string_view ip = s.substr(0, dot);
	std::string_view fp = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
	if ((ip.empty() && fp.empty()) || fp.find('.') != std::string_view::npos ||
	    (dot != std::string_view::npos && fp.empty())) {
		err = quoted(s) + " is not a number";
		return false;
	}
	for (char c : ip)
		if (!is_digit(c)) {
			err = quoted(s) + " is not a number";
			return false;
		}
	for (char c : fp)
		if (!is_digit(c)) {
			err = quoted(s) + " is not a number";
			return false;
		}
	while (!fp.empty() && fp.back() == '0')
		fp.remove_suffix(1);
	// value = (ip.fp) * scale = (ip * 10^n + fp) * scale / 10^n
	std::uint64_t n = 0, pow10 = 1;
	bool overflow = false;
	for (char c : ip)
		overflow |= __builtin_mul_overflow(n, 10u, &n) ||
			    __builtin_add_overflow(n, static_cast<unsigned>(c - '0'), &n);
	for (char c : fp) {
		overflow |= __builtin_mul_overflow(n, 10u, &n) ||
			    __builtin_add_overflow(n, static_cast<unsigned>(c - '0'), &n) ||
			    __builtin_mul_overflow(pow10, 10u, &pow10);
	}
	// Divide scale by the common power of ten first, to avoid overflow.
	std::uint64_t sc = scale;
	while (pow10 > 1 && sc % 10 == 0) {
		sc /= 10;
		pow10 /= 10;
	}
	std::uint64_t prod = 0;
	overflow |= __builtin_mul_overflow(n, sc, &prod);
	if (overflow) {
		err = quoted(s) + " is too large";
		return false;
	}
	if (prod % pow10 != 0) {
		err = quoted(s) + " has too many decimals";
		return false;
	}
	v = prod / pow10;
	return true;
}

bool parse_rate_bps(std::string_view s, std::uint64_t &bps, std::string &err)
{
	std::string_view num, suffix;
	split_number(s, num, suffix);
	if (num.empty()) {
		err = quoted(s) + " is not a rate (examples: 0, 100M, 1.5G, 25Gbit)";
		return false;
	}
	std::uint64_t scale = 1;
	std::string_view unit = suffix;
	if (!unit.empty()) {
		switch (unit[0]) {
		case 'k': case 'K': scale = 1000ULL; unit.remove_prefix(1); break;
		case 'm': case 'M': scale = 1000000ULL; unit.remove_prefix(1); break;
		case 'g': case 'G': scale = 1000000000ULL; unit.remove_prefix(1); break;
		case 't': case 'T': scale = 1000000000000ULL; unit.remove_prefix(1); break;
		default: break;
		}
	}
	std::string u = lower(unit);
	if (u == "bps" || u == "b/s" || unit == "B") {
		err = quoted(s) + ": '" + std::string(unit) +
		      "' could mean bytes; write bits, e.g. 25Gbit or 25G";
		return false;
	}
	if (!(u.empty() || u == "bit" || u == "bit/s" || u == "bits" || unit == "b")) {
		err = quoted(s) + " is not a rate: unknown unit '" + std::string(suffix) +
		      "' (examples: 0, 100M, 1.5G, 25Gbit, 400kbit)";
		return false;
	}
	std::string e2;
	if (!parse_scaled(num, scale, bps, e2)) {
		err = quoted(s) + " is not a rate: " + e2.substr(e2.find(' ') + 1);
		if (e2.find("decimals") != std::string::npos)
			err = quoted(s) + " is not a whole number of bit/s";
		return false;
	}
	return true;
}

bool parse_time_ns(std::string_view s, std::uint64_t &ns, std::string &err, std::uint64_t bare_unit_ns)
{
	std::string_view num, unit;
	split_number(s, num, unit);
	if (num.empty()) {
		err = quoted(s) + " is not a time (examples: 100us, 1.5ms, 2s)";
		return false;
	}
	std::uint64_t scale;
	if (unit == "ns" || unit == "nsec")
		scale = 1;
	else if (unit == "us" || unit == "usec" || unit == "\xc2\xb5s")
		scale = 1000;
	else if (unit == "ms" || unit == "msec")
		scale = 1000000;
	else if (unit == "s" || unit == "sec")
		scale = 1000000000;
	else if (unit.empty() && bare_unit_ns)
		scale = bare_unit_ns;
	else if (unit.empty()) {
		std::uint64_t zero;
		std::string e2;
		if (parse_scaled(num, 1, zero, e2) && zero == 0) {
			ns = 0;
			return true;
		}
		err = quoted(s) + " needs a unit: ns, us, ms or s (e.g. 100us)";
		return false;
	} else {
		err = quoted(s) + " is not a time: unknown unit '" + std::string(unit) +
		      "' (use ns, us, ms or s)";
		return false;
	}
	std::string e2;
	if (!parse_scaled(num, scale, ns, e2)) {
		if (e2.find("decimals") != std::string::npos)
			err = quoted(s) + " is not a whole number of nanoseconds";
		else
			err = quoted(s) + " is not a time: " + e2.substr(e2.find(' ') + 1);
		return false;
	}
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
		if (has_letter(s)) {
			std::uint64_t bps;
			ok = parse_rate_bps(s, bps, e2);
			if (ok && bps % 1000) {
				ok = false;
				e2 = quoted(s) + " is not a whole number of kbit/s";
			}
			x = bps / 1000;
		} else {
			ok = parse_u64(s, x, e2);
		}
		hint = "an integer in " + range + ", or a rate such as 5Mbit";
		break;
	case RXE_CC_UNIT_ID_US:
	case RXE_CC_UNIT_ID_NS:
		if (has_letter(s)) {
			std::uint64_t ns;
			ok = parse_time_ns(s, ns, e2);
			std::uint64_t per = p.unit == RXE_CC_UNIT_ID_US ? 1000 : 1;
			if (ok && ns % per) {
				ok = false;
				e2 = quoted(s) + " is not a whole number of microseconds";
			}
			x = ns / per;
		} else {
			ok = parse_u64(s, x, e2);
		}
		hint = "an integer in " + range + ", or a time such as 2ms";
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
