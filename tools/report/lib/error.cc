#include "error.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace rxecc::report
{

std::string strf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	va_list ap2;
	va_copy(ap2, ap);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	int n = std::vsnprintf(nullptr, 0, fmt, ap);
	std::string out(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
	if (n > 0)
		std::vsnprintf(out.data(), out.size() + 1, fmt, ap2);
#pragma GCC diagnostic pop
	va_end(ap2);
	va_end(ap);
	return out;
}

std::optional<std::uint64_t> parse_uint(std::string_view s)
{
	if (s.empty())
		return std::nullopt;
	std::uint64_t v = 0;
	for (char c : s) {
		if (c < '0' || c > '9')
			return std::nullopt;
		auto d = static_cast<std::uint64_t>(c - '0');
		if (v > (UINT64_MAX - d) / 10)
			return std::nullopt;
		v = v * 10 + d;
	}
	return v;
}

std::optional<double> parse_number(std::string_view s)
{
	std::size_t i = 0, n = s.size(), digits = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		++i;
		++digits;
	}
	if (i < n && s[i] == '.') {
		++i;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			++i;
			++digits;
		}
	}
	if (digits == 0)
		return std::nullopt;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		++i;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			++i;
		std::size_t e0 = i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			++i;
		if (i == e0)
			return std::nullopt;
	}
	if (i != n)
		return std::nullopt;
	std::string copy(s);
	return std::strtod(copy.c_str(), nullptr);
}

bool is_name(std::string_view s)
{
	if (s.empty())
		return false;
	for (char c : s)
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	return true;
}

bool is_port_key(std::string_view s)
{
	// awk: ^[A-Za-z0-9_.-]+\.[A-Za-z0-9_.-]+$, i.e. a name with a dot that
	// is neither first nor last
	if (!is_name(s))
		return false;
	auto dot = s.find('.', 1);
	return dot != std::string_view::npos && dot + 1 < s.size();
}

std::vector<std::string> split(std::string_view s, char sep)
{
	std::vector<std::string> out;
	std::size_t start = 0;
	for (;;) {
		auto p = s.find(sep, start);
		if (p == std::string_view::npos) {
			out.emplace_back(s.substr(start));
			return out;
		}
		out.emplace_back(s.substr(start, p - start));
		start = p + 1;
	}
}

} // namespace rxecc::report
