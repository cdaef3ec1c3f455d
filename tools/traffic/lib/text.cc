// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "text.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <unistd.h>

namespace rxecc::traffic
{

std::vector<std::string_view> split_lines(std::string_view text)
{
	std::vector<std::string_view> out;
	while (!text.empty()) {
		auto nl = text.find('\n');
		std::string_view line = text.substr(0, nl);
		if (!line.empty() && line.back() == '\r')
			line.remove_suffix(1);
		out.push_back(line);
		if (nl == std::string_view::npos)
			break;
		text.remove_prefix(nl + 1);
	}
	return out;
}

std::string_view strip_comment(std::string_view line)
{
	auto h = line.find('#');
	return h == std::string_view::npos ? line : line.substr(0, h);
}

std::vector<std::string_view> split_words(std::string_view line)
{
	std::vector<std::string_view> out;
	size_t i = 0;
	while (i < line.size()) {
		while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
			i++;
		size_t j = i;
		while (j < line.size() && line[j] != ' ' && line[j] != '\t')
			j++;
		if (j > i)
			out.push_back(line.substr(i, j - i));
		i = j;
	}
	return out;
}

std::vector<std::string_view> split_on(std::string_view s, char sep)
{
	std::vector<std::string_view> out;
	for (;;) {
		auto p = s.find(sep);
		out.push_back(s.substr(0, p));
		if (p == std::string_view::npos)
			break;
		s.remove_prefix(p + 1);
	}
	return out;
}

std::optional<std::uint64_t> parse_uint(std::string_view s)
{
	if (s.empty() || s.size() > 20)
		return std::nullopt;
	std::uint64_t v = 0;
	for (char c : s) {
		if (c < '0' || c > '9')
			return std::nullopt;
		const auto d = static_cast<std::uint64_t>(c - '0');
		if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
			return std::nullopt;
		v = v * 10 + d;
	}
	return v;
}

std::optional<std::int64_t> parse_int(std::string_view s)
{
	bool neg = false;
	if (!s.empty() && s[0] == '-') {
		neg = true;
		s.remove_prefix(1);
	}
	auto v = parse_uint(s);
	constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
	if (!v || *v > kMax)
		return std::nullopt;
	const auto i = static_cast<std::int64_t>(*v);
	return neg ? -i : i;
}

std::optional<double> parse_double(std::string_view s)
{
	if (s.empty() || s.size() > 64)
		return std::nullopt;
	for (char c : s)
		if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' ||
		      c == '+'))
			return std::nullopt;
	const std::string str(s);
	char *end = nullptr;
	errno = 0;
	const double v = std::strtod(str.c_str(), &end);
	if (errno || end != str.c_str() + str.size() || !std::isfinite(v))
		return std::nullopt;
	return v;
}

bool read_file(const std::string &path, std::string &out, std::string *err)
{
	std::ifstream in(path, std::ios::binary);
	if (!in) {
		if (err)
			*err = path + ": " + std::strerror(errno);
		return false;
	}
	std::ostringstream ss;
	ss << in.rdbuf();
	if (in.bad()) {
		if (err)
			*err = path + ": read error";
		return false;
	}
	out = ss.str();
	return true;
}

bool write_file(const std::string &path, std::string_view data, std::string *err)
{
	// unique per process: hosts run apart may write the same file
	const std::string tmp = path + ".tmp." + std::to_string(getpid());
	std::FILE *f = std::fopen(tmp.c_str(), "w");
	if (!f) {
		if (err)
			*err = tmp + ": " + std::strerror(errno);
		return false;
	}
	const bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
	const int e = errno;
	if (std::fclose(f) != 0 || !ok) {
		if (err)
			*err = tmp + ": " + std::strerror(ok ? errno : e);
		std::remove(tmp.c_str());
		return false;
	}
	if (std::rename(tmp.c_str(), path.c_str()) != 0) {
		if (err)
			*err = path + ": " + std::strerror(errno);
		std::remove(tmp.c_str());
		return false;
	}
	return true;
}

} // namespace rxecc::traffic
