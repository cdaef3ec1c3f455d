// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Rates, sizes and times: parsing and formatting, exact in integers. The
// grammar is in Documentation/rxe-cc/units.rst.
#include "units.h"

#include <algorithm>
#include <limits>

namespace rxecc::units
{

const char *const kRateExamples = "100M, 2.5Gbit, 400kbit/s";
const char *const kSizeExamples = "1500, 64KiB, 4MB";
const char *const kTimeExamples = "300us, 1.5ms, 2s";

namespace
{

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

struct Unit {
	std::string_view name;
	std::uint64_t mult;
};

bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string lower(std::string_view s)
{
	std::string r(s);
	for (char &c : r)
		if (c >= 'A' && c <= 'Z')
			c = static_cast<char>(c - 'A' + 'a');
	return r;
}

// What a value is, for messages.
struct Kind {
	const char *noun;     // "rate"
	const char *base;     // "bit/s": the unit of the result
	const char *examples; // "100M, 2.5Gbit, 400kbit/s"
};

const Kind kRate{"rate", "bit/s", kRateExamples};
const Kind kSize{"size", "bytes", kSizeExamples};
const Kind kTime{"time", "ns", kTimeExamples};

std::nullopt_t fail(std::string *err, std::string_view text, const Kind &kind,
                    const std::string &reason, const std::string &extra = {})
{
	if (err) {
		*err = "'" + std::string(text) + "' is not a " + kind.noun;
		if (!reason.empty())
			*err += ": " + reason;
		*err += " (examples: " + std::string(kind.examples) + extra + ")";
	}
	return std::nullopt;
}

// The text split into its number ("2.5") and its unit ("Gbit").
struct Split {
	std::string_view number;
	std::string_view unit;
};

Split split(std::string_view s)
{
	std::size_t i = 0;
	while (i < s.size() && (is_digit(s[i]) || s[i] == '.'))
		++i;
	return {s.substr(0, i), s.substr(i)};
}

// A number is digits with at most one '.', and at least one digit.
bool valid_number(std::string_view n)
{
	bool digit = false;
	int dots = 0;
	for (char c : n) {
		if (c == '.')
			++dots;
		else
			digit = true;
	}
	return digit && dots <= 1;
}

bool all_zero(std::string_view n)
{
	for (char c : n)
		if (c != '0' && c != '.')
			return false;
	return true;
}

enum class Exact { ok, not_whole, overflow };

// Divides the decimal digit string `d` by k (2 or 5) in place; false if
// the division leaves a remainder.
bool divide_digits(std::string &d, unsigned k)
{
	unsigned carry = 0;
	for (char &c : d) {
		unsigned cur = carry * 10 + static_cast<unsigned>(c - '0');
		c = static_cast<char>('0' + cur / k);
		carry = cur % k;
	}
	return carry == 0;
}

unsigned factors(std::uint64_t v, unsigned p)
{
	unsigned n = 0;
	while (v != 0 && v % p == 0) {
		v /= p;
		++n;
	}
	return n;
}

// number * scale, exactly, for a valid number ("12.50") and scale >= 1.
// With f fraction digits (trailing zeros dropped) and the digits D of the
// number without its point, the value is D * scale / (2^f * 5^f). The
// powers of 2 and 5 that scale has cancel first; D must be divisible by
// what is left. As the last digit of D is not 0 when f > 0, what is left
// cannot contain both a 2 and a 5, and it is at most 2^27 or 5^63.
Exact scaled(std::string_view number, std::uint64_t scale, std::uint64_t &out)
{
	std::size_t dot = number.find('.');
	std::string_view ip = number.substr(0, dot);
	std::string_view fp =
		dot == std::string_view::npos ? std::string_view() : number.substr(dot + 1);
	while (!fp.empty() && fp.back() == '0')
		fp.remove_suffix(1);
	std::string d = std::string(ip) + std::string(fp);
	const std::size_t f = fp.size();
	const std::size_t c2 = std::min<std::size_t>(f, factors(scale, 2));
	const std::size_t c5 = std::min<std::size_t>(f, factors(scale, 5));
	for (std::size_t i = 0; i < c2; ++i)
		scale /= 2;
	for (std::size_t i = 0; i < c5; ++i)
		scale /= 5;
	const std::size_t need2 = f - c2, need5 = f - c5;
	if (need2 > 0 && need5 > 0)
		return Exact::not_whole;
	for (std::size_t i = 0; i < need2; ++i)
		if (!divide_digits(d, 2))
			return Exact::not_whole;
	for (std::size_t i = 0; i < need5; ++i)
		if (!divide_digits(d, 5))
			return Exact::not_whole;
	std::uint64_t v = 0;
	for (char c : d)
		if (__builtin_mul_overflow(v, 10u, &v) ||
		    __builtin_add_overflow(v, static_cast<unsigned>(c - '0'), &v))
			return Exact::overflow;
	if (__builtin_mul_overflow(v, scale, &v))
		return Exact::overflow;
	out = v;
	return Exact::ok;
}

// The checks every kind shares before its unit is looked at; false (and
// the message) if the text is refused.
bool precheck(std::string_view text, const Kind &kind, const Split &sp, std::string *err,
              const std::string &extra = {})
{
	if (text.empty()) {
		fail(err, text, kind, "empty", extra);
		return false;
	}
	for (char c : text)
		if (is_space(c)) {
			fail(err, text, kind, "it contains a space", extra);
			return false;
		}
	if (text[0] == '-' && text.size() > 1 && (is_digit(text[1]) || text[1] == '.')) {
		fail(err, text, kind, "it is negative", extra);
		return false;
	}
	if (!valid_number(sp.number)) {
		fail(err, text, kind, {}, extra);
		return false;
	}
	return true;
}

std::optional<std::uint64_t> finish(std::string_view text, const Kind &kind,
                                    std::string_view number, std::uint64_t scale, std::string *err,
                                    const std::string &extra = {})
{
	std::uint64_t v = 0;
	switch (scaled(number, scale, v)) {
	case Exact::ok: return v;
	case Exact::not_whole:
		return fail(err, text, kind, std::string("not a whole number of ") + kind.base,
		            extra);
	case Exact::overflow: break;
	}
	return fail(err, text, kind, "too large, at most " + std::to_string(kMax) + " " + kind.base,
	            extra);
}

bool is_bit_word(std::string_view rest)
{
	if (rest.empty() || rest == "b" || rest == "bps" || rest == "b/s")
		return true;
	std::string l = lower(rest);
	return l == "bit" || l == "bits" || l == "bit/s" || l == "bits/s";
}

bool is_byte_word(std::string_view rest)
{
	if (!rest.empty() && rest[0] == 'B')
		return true; // B, Bps, B/s, BPS, Byte (but not Bit: a bit word)
	return lower(rest).compare(0, 4, "byte") == 0;
}

// "m" and "g" and "t" in lower case are tc's spelling (40mbit).
std::uint64_t rate_prefix(char c)
{
	switch (c) {
	case 'k':
	case 'K': return 1000ULL;
	case 'm':
	case 'M': return 1000000ULL;
	case 'g':
	case 'G': return 1000000000ULL;
	case 't':
	case 'T': return 1000000000000ULL;
	default: return 0;
	}
}

constexpr Unit kSizeUnits[] = {
	{"", 1},
	{"B", 1},
	{"k", 1000ULL},
	{"K", 1000ULL},
	{"kB", 1000ULL},
	{"KB", 1000ULL},
	{"KiB", 1ULL << 10},
	{"M", 1000000ULL},
	{"MB", 1000000ULL},
	{"MiB", 1ULL << 20},
	{"G", 1000000000ULL},
	{"GB", 1000000000ULL},
	{"GiB", 1ULL << 30},
	{"T", 1000000000000ULL},
	{"TB", 1000000000000ULL},
	{"TiB", 1ULL << 40},
};

constexpr Unit kTimeUnits[] = {
	{"ns", 1},
	{"nsec", 1},
	{"us", 1000ULL},
	{"usec", 1000ULL},
	{"\xc2\xb5s", 1000ULL}, // U+00B5 MICRO SIGN
	{"\xce\xbcs", 1000ULL}, // U+03BC GREEK SMALL LETTER MU
	{"ms", 1000000ULL},
	{"msec", 1000000ULL},
	{"s", 1000000000ULL},
	{"sec", 1000000000ULL},
};

// v in unit `mult` with every decimal it needs: "2.5", "64", "0.0001".
// mult is a product of powers of 2 and 5, so the fraction ends.
std::string exact_decimal(std::uint64_t v, std::uint64_t mult)
{
	std::string s = std::to_string(v / mult);
	std::uint64_t rem = v % mult;
	if (rem) {
		s += '.';
		while (rem) {
			rem *= 10; // rem < mult <= 2^40: no overflow
			s += static_cast<char>('0' + rem / mult);
			rem %= mult;
		}
	}
	return s;
}

// The shortest exact text over `units` (in increasing order of mult; the
// first one is always a candidate), the smaller unit on a tie.
template <std::size_t N>
std::string shortest(std::uint64_t v, const Unit (&units)[N])
{
	std::string best;
	for (std::size_t i = 0; i < N; ++i) {
		if (i > 0 && v < units[i].mult)
			continue;
		std::string s = exact_decimal(v, units[i].mult) + std::string(units[i].name);
		if (best.empty() || s.size() < best.size())
			best = s;
	}
	return best;
}

} // namespace

std::optional<std::uint64_t> parse_rate_bps(std::string_view text, std::string *err)
{
	const Split sp = split(text);
	if (!precheck(text, kRate, sp, err))
		return std::nullopt;
	std::uint64_t scale = 1;
	std::string_view rest = sp.unit;
	if (!rest.empty() && rate_prefix(rest[0])) {
		scale = rate_prefix(rest[0]);
		rest.remove_prefix(1);
	}
	if (is_bit_word(rest))
		return finish(text, kRate, sp.number, scale, err);
	if (is_byte_word(rest))
		return fail(err, text, kRate,
		            "rates are in bits, '" + std::string(rest) + "' is bytes");
	return fail(err, text, kRate, "unknown unit '" + std::string(sp.unit) + "'");
}

std::optional<std::uint64_t> parse_size_bytes(std::string_view text, std::string *err)
{
	const Split sp = split(text);
	if (!precheck(text, kSize, sp, err))
		return std::nullopt;
	for (const Unit &u : kSizeUnits)
		if (sp.unit == u.name)
			return finish(text, kSize, sp.number, u.mult, err);
	if (sp.unit.back() == 'b' || lower(sp.unit).find("bit") != std::string::npos)
		return fail(err, text, kSize,
		            "sizes are in bytes, '" + std::string(sp.unit) + "' is bits");
	return fail(err, text, kSize, "unknown unit '" + std::string(sp.unit) + "'");
}

std::optional<std::uint64_t> parse_time_ns(std::string_view text, std::string *err,
                                           std::uint64_t bare_unit_ns)
{
	const std::string extra =
		bare_unit_ns ? "; a bare number counts in units of " + format_time_ns(bare_unit_ns)
			     : "";
	const Split sp = split(text);
	if (!precheck(text, kTime, sp, err, extra))
		return std::nullopt;
	if (sp.unit.empty()) {
		if (bare_unit_ns)
			return finish(text, kTime, sp.number, bare_unit_ns, err, extra);
		if (all_zero(sp.number))
			return 0;
		return fail(err, text, kTime, "it needs a unit, ns, us, ms or s");
	}
	for (const Unit &u : kTimeUnits)
		if (sp.unit == u.name)
			return finish(text, kTime, sp.number, u.mult, err, extra);
	return fail(err, text, kTime, "unknown unit '" + std::string(sp.unit) + "'", extra);
}

std::string format_rate_bps(std::uint64_t bps)
{
	static constexpr Unit units[] = {
		{"bit", 1},
		{"kbit", 1000ULL},
		{"Mbit", 1000000ULL},
		{"Gbit", 1000000000ULL},
		{"Tbit", 1000000000000ULL},
	};
	return shortest(bps, units);
}

std::string format_size_bytes(std::uint64_t bytes)
{
	static constexpr Unit units[] = {
		{"B", 1},
		{"KB", 1000ULL},
		{"KiB", 1ULL << 10},
		{"MB", 1000000ULL},
		{"MiB", 1ULL << 20},
		{"GB", 1000000000ULL},
		{"GiB", 1ULL << 30},
		{"TB", 1000000000000ULL},
		{"TiB", 1ULL << 40},
	};
	return shortest(bytes, units);
}

std::string format_time_ns(std::uint64_t ns)
{
	static constexpr Unit units[] = {
		{"ns", 1},
		{"us", 1000ULL},
		{"ms", 1000000ULL},
		{"s", 1000000000ULL},
	};
	return shortest(ns, units);
}

} // namespace rxecc::units
