// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "perfstat.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

namespace perfstat
{

namespace
{

// perftest's "MB" is 2^20 bytes; its "Gb" is 10^9 bits.
constexpr double kMebibyteBits = 1048576.0 * 8.0;
constexpr double kGigabit = 1e9;

bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s)
{
	while (!s.empty() && is_space(s.front()))
		s.remove_prefix(1);
	while (!s.empty() && is_space(s.back()))
		s.remove_suffix(1);
	return s;
}

std::vector<std::string_view> split_words(std::string_view s)
{
	std::vector<std::string_view> words;
	std::size_t i = 0;
	while (i < s.size()) {
		while (i < s.size() && is_space(s[i]))
			++i;
		std::size_t start = i;
		while (i < s.size() && !is_space(s[i]))
			++i;
		if (i > start)
			words.push_back(s.substr(start, i - start));
	}
	return words;
}

std::string join(const std::vector<std::string_view> &words)
{
	std::string out;
	for (std::string_view w : words) {
		if (!out.empty())
			out += ' ';
		out += w;
	}
	return out;
}

// Lower case, every run of other characters than [a-z0-9] turned into one
// '_', no leading or trailing '_'.
std::string identifier(std::string_view s)
{
	std::string out;
	bool pending_sep = false;
	for (char c : s) {
		auto uc = static_cast<unsigned char>(c);
		if (std::isalnum(uc)) {
			if (pending_sep && !out.empty())
				out += '_';
			pending_sep = false;
			out += static_cast<char>(std::tolower(uc));
		} else {
			pending_sep = true;
		}
	}
	return out;
}

std::string key_for_label(std::string_view label)
{
	struct Alias {
		std::string_view label;
		std::string_view key;
	};
	static constexpr Alias aliases[] = {
		{"BW peak", "bw_peak"},
		{"BW average", "bw_avg"},
		{"MsgRate", "msg_rate"},
		{"BW Port1", "bw_port1"},
		{"MsgRate Port1", "msg_rate_port1"},
		{"BW Port2", "bw_port2"},
		{"MsgRate Port2", "msg_rate_port2"},
		{"99% percentile", "t_p99"},
		{"99.9% percentile", "t_p99_9"},
		{"tps average", "tps_avg"},
	};
	for (const Alias &a : aliases)
		if (a.label == label)
			return std::string(a.key);
	return identifier(label);
}

struct Column {
	std::string label;
	std::string unit;
	std::string key;

	bool operator==(const Column &o) const { return label == o.label && unit == o.unit; }
};

// Group the header words into columns.  A word starting with '#' is a
// column by itself ("#bytes"); otherwise words accumulate until one closes a
// "[unit]" ("BW", "average[MB/sec]").  Words left at the end form a column
// without a unit ("tps average").
std::vector<Column> parse_header(std::string_view line)
{
	std::vector<Column> columns;
	std::vector<std::string_view> pending;
	bool in_unit = false;

	auto flush = [&]() {
		if (pending.empty())
			return;
		std::string text = join(pending);
		Column col;
		std::size_t open = text.find('[');
		if (open != std::string::npos && text.back() == ']') {
			col.label = std::string(trim(std::string_view(text).substr(0, open)));
			col.unit = text.substr(open + 1, text.size() - open - 2);
		} else {
			col.label = text;
		}
		col.key = key_for_label(col.label);
		columns.push_back(std::move(col));
		pending.clear();
		in_unit = false;
	};

	for (std::string_view word : split_words(line)) {
		if (word.front() == '#' && !in_unit) {
			flush();
			pending.push_back(word);
			flush();
			continue;
		}
		pending.push_back(word);
		if (word.find('[') != std::string_view::npos)
			in_unit = true;
		if (in_unit && word.back() == ']')
			flush();
	}
	flush();
	return columns;
}

bool is_header(std::string_view trimmed)
{
	return trimmed.substr(0, 6) == "#bytes" && (trimmed.size() == 6 || is_space(trimmed[6]));
}

bool looks_like_row(std::string_view trimmed)
{
	return !trimmed.empty() && std::isdigit(static_cast<unsigned char>(trimmed.front()));
}

std::string in_quotes(std::string_view s)
{
	return "'" + std::string(s) + "'";
}

std::string line_prefix(std::size_t line_no)
{
	return "line " + std::to_string(line_no) + ": ";
}

bool parse_u64(std::string_view word, std::uint64_t &out)
{
	const char *end = word.data() + word.size();
	auto [ptr, ec] = std::from_chars(word.data(), end, out);
	return ec == std::errc() && ptr == end;
}

bool parse_value(std::string_view word, double &out)
{
	const char *end = word.data() + word.size();
	auto [ptr, ec] = std::from_chars(word.data(), end, out, std::chars_format::general);
	return ec == std::errc() && ptr == end && std::isfinite(out) && out >= 0.0;
}

std::string column_name(const Column &col)
{
	return col.unit.empty() ? col.label : col.label + "[" + col.unit + "]";
}

Result<Row> parse_row(std::string_view trimmed, const std::vector<Column> &columns,
                      std::size_t line_no)
{
	std::vector<std::string_view> words = split_words(trimmed);
	if (words.size() != columns.size())
		return Result<Row>::fail(line_prefix(line_no) + "expected " +
		                         std::to_string(columns.size()) + " values, found " +
		                         std::to_string(words.size()));

	Row row;
	if (!parse_u64(words[0], row.bytes))
		return Result<Row>::fail(line_prefix(line_no) + "malformed #bytes " +
		                         in_quotes(words[0]));
	if (!parse_u64(words[1], row.iterations))
		return Result<Row>::fail(line_prefix(line_no) + "malformed #iterations " +
		                         in_quotes(words[1]));
	for (std::size_t i = 2; i < words.size(); ++i) {
		const Column &col = columns[i];
		Field f{col.key, col.label, col.unit, 0.0};
		if (!parse_value(words[i], f.value))
			return Result<Row>::fail(line_prefix(line_no) + "malformed number " +
			                         in_quotes(words[i]) + " in column " +
			                         in_quotes(column_name(col)));
		row.fields.push_back(std::move(f));
	}
	return Result<Row>::ok(std::move(row));
}

std::string format_fixed(double v, int decimals)
{
	char buf[64];
	auto [ptr, ec] =
		std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, decimals);
	return ec == std::errc() ? std::string(buf, ptr) : std::string("nan");
}

// Shortest fixed-point text that reads back as the same double.
std::string format_shortest(double v)
{
	char buf[400];
	auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
	return ec == std::errc() ? std::string(buf, ptr) : std::string("nan");
}

std::string format_output_value(const OutputField &of)
{
	return of.is_bandwidth ? format_fixed(of.value, 4) : format_shortest(of.value);
}

// The value of format_output_value as a JSON number: a bandwidth rounded
// to its four decimals, another value an integer if it is one, else the
// double (nlohmann-json prints the shortest text that reads back).
nlohmann::ordered_json json_number(const OutputField &of)
{
	if (of.is_bandwidth)
		return std::strtod(format_fixed(of.value, 4).c_str(), nullptr);
	const double v = of.value;
	if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
		if (v >= 0)
			return static_cast<std::uint64_t>(v);
		return static_cast<std::int64_t>(v);
	}
	return v;
}

} // namespace

const Field *Row::find(std::string_view key) const
{
	for (const Field &f : fields)
		if (f.key == key)
			return &f;
	return nullptr;
}

std::optional<double> Row::bw_avg_gbps() const
{
	const Field *f = find("bw_avg");
	return f ? to_gbps(f->value, f->unit) : std::nullopt;
}

std::optional<double> Row::bw_peak_gbps() const
{
	const Field *f = find("bw_peak");
	return f ? to_gbps(f->value, f->unit) : std::nullopt;
}

std::optional<double> Row::msg_rate_mpps() const
{
	const Field *f = find("msg_rate");
	if (!f || f->unit != "Mpps")
		return std::nullopt;
	return f->value;
}

std::optional<double> Row::lat_avg_usec() const
{
	const Field *f = find("t_avg");
	if (!f || f->unit != "usec")
		return std::nullopt;
	return f->value;
}

std::optional<double> Row::lat_typical_usec() const
{
	const Field *f = find("t_typical");
	if (!f || f->unit != "usec")
		return std::nullopt;
	return f->value;
}

std::optional<double> to_gbps(double value, std::string_view unit)
{
	if (unit == "MB/sec")
		return value * kMebibyteBits / kGigabit;
	if (unit == "Gb/sec")
		return value;
	return std::nullopt;
}

Result<Report> parse(std::string_view text)
{
	Report report;
	std::vector<Column> columns; // of the first table
	std::vector<Column> current; // of the table being read; empty outside one
	std::size_t header_line = 0; // of the table being read
	std::size_t current_rows = 0;

	auto end_table = [&]() -> Result<bool> {
		if (!current.empty() && current_rows == 0)
			return Result<bool>::fail(line_prefix(header_line) +
			                          "result table has no rows");
		current.clear();
		return Result<bool>::ok(true);
	};

	std::size_t line_no = 0;
	std::size_t pos = 0;
	while (pos < text.size()) {
		std::size_t nl = text.find('\n', pos);
		std::size_t len = (nl == std::string_view::npos ? text.size() : nl) - pos;
		std::string_view line = trim(text.substr(pos, len));
		pos += len + 1;
		++line_no;

		if (is_header(line)) {
			if (auto r = end_table(); !r)
				return Result<Report>::fail(r.error());
			std::vector<Column> cols = parse_header(line);
			if (cols.size() < 3 || cols[1].label != "#iterations")
				return Result<Report>::fail(line_prefix(line_no) +
				                            "unrecognised result table header");
			if (columns.empty())
				columns = cols;
			else if (cols != columns)
				return Result<Report>::fail(
					line_prefix(line_no) +
					"result table has other columns than the first one");
			current = std::move(cols);
			header_line = line_no;
			current_rows = 0;
			continue;
		}
		if (current.empty())
			continue;
		if (!looks_like_row(line)) {
			if (auto r = end_table(); !r)
				return Result<Report>::fail(r.error());
			continue;
		}
		Result<Row> row = parse_row(line, current, line_no);
		if (!row)
			return Result<Report>::fail(row.error());
		report.rows.push_back(*row);
		++current_rows;
	}
	if (auto r = end_table(); !r)
		return Result<Report>::fail(r.error());
	if (report.rows.empty())
		return Result<Report>::fail("no result table (no line starting with '#bytes')");
	return Result<Report>::ok(std::move(report));
}

Result<Report> parse_stream(std::istream &in, const std::string &name)
{
	std::ostringstream text;
	text << in.rdbuf();
	if (in.bad())
		return Result<Report>::fail(name + ": read error");
	Result<Report> r = parse(text.str());
	if (!r)
		return Result<Report>::fail(name + ": " + r.error());
	return r;
}

Result<Report> parse_file(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	if (!in)
		return Result<Report>::fail(path + ": " + std::strerror(errno));
	return parse_stream(in, path);
}

Result<double> bandwidth_ratio(double base_gbps, double test_gbps)
{
	if (!std::isfinite(base_gbps) || !std::isfinite(test_gbps))
		return Result<double>::fail("bandwidth is not a finite number");
	if (base_gbps <= 0.0)
		return Result<double>::fail("base bandwidth is " + format_fixed(base_gbps, 4) +
		                            " Gbit/s; the ratio needs a positive base");
	return Result<double>::ok(test_gbps / base_gbps);
}

OutputField output_field(const Field &field)
{
	if (std::optional<double> gbps = to_gbps(field.value, field.unit))
		return {field.key + "_gbps", *gbps, true};
	std::string suffix = identifier(field.unit);
	return {suffix.empty() ? field.key : field.key + "_" + suffix, field.value, false};
}

std::string format_key_values(const Row &row)
{
	std::string out = "bytes=" + std::to_string(row.bytes) +
	                  " iterations=" + std::to_string(row.iterations);
	for (const Field &f : row.fields) {
		OutputField of = output_field(f);
		out += " " + of.name + "=" + format_output_value(of);
	}
	return out;
}

std::string format_json(const Report &report)
{
	nlohmann::ordered_json rows = nlohmann::ordered_json::array();
	for (const Row &row : report.rows) {
		nlohmann::ordered_json r = {{"bytes", row.bytes}, {"iterations", row.iterations}};
		for (const Field &f : row.fields) {
			OutputField of = output_field(f);
			r[of.name] = json_number(of);
		}
		rows.push_back(std::move(r));
	}
	return nlohmann::ordered_json{{"rows", std::move(rows)}}.dump();
}

} // namespace perfstat
