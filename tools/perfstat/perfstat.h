// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// perfstat: parse the result tables printed by perftest (ib_*_bw, ib_*_lat).
//
// A result table starts with a header line whose first column is "#bytes",
// e.g.
//
//    #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
//    65536      5000             28.84              28.79              0.000461
//
// and continues with one numeric row per message size until a line that is
// not a row (the dashed separator, a blank line, a message).  Every column
// is kept with the unit written in its header.
#ifndef RXECC_PERFSTAT_H
#define RXECC_PERFSTAT_H

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perfstat
{

// The value of a computation that can fail, or the reason it failed.
template <typename T>
class Result
{
public:
	static Result ok(T value)
	{
		Result r;
		r.value_ = std::move(value);
		return r;
	}

	static Result fail(std::string error)
	{
		Result r;
		r.error_ = std::move(error);
		return r;
	}

	explicit operator bool() const { return value_.has_value(); }

	const T &value() const
	{
		if (!value_)
			throw std::logic_error("perfstat::Result::value() on error: " + error_);
		return *value_;
	}

	const T &operator*() const { return value(); }
	const T *operator->() const { return &value(); }

	// Empty when the result holds a value.
	const std::string &error() const { return error_; }

private:
	Result() = default;

	std::optional<T> value_;
	std::string error_;
};

// One column of a row other than #bytes and #iterations.
struct Field {
	std::string key;    // normalised name: "bw_avg", "t_typical", "t_p99", ...
	std::string label;  // as in the header, without unit: "BW average"
	std::string unit;   // as in the header, without brackets: "MB/sec"; may be empty
	double value = 0.0; // in `unit`
};

struct Row {
	std::uint64_t bytes = 0;
	std::uint64_t iterations = 0;
	std::vector<Field> fields; // in header order

	// The field with this normalised key, or nullptr.
	const Field *find(std::string_view key) const;

	// Bandwidth columns converted to Gbit/s (10^9 bit/s).
	std::optional<double> bw_avg_gbps() const;
	std::optional<double> bw_peak_gbps() const;
	// Message rate in Mpps.
	std::optional<double> msg_rate_mpps() const;
	// Latency columns in microseconds.
	std::optional<double> lat_avg_usec() const;
	std::optional<double> lat_typical_usec() const;
};

struct Report {
	std::vector<Row> rows; // at least one
	const Row &last() const { return rows.back(); }
};

// Parse perftest output.  Fails when the text holds no result table, when a
// table has no rows, when a row has a malformed number or the wrong number
// of columns, and when two tables have different columns.
Result<Report> parse(std::string_view text);

// Read and parse a whole stream; `name` prefixes error messages.
Result<Report> parse_stream(std::istream &in, const std::string &name);

// Read and parse a file.
Result<Report> parse_file(const std::string &path);

// A bandwidth in `unit` ("MB/sec" with perftest's MB = 2^20 bytes, or
// "Gb/sec") converted to Gbit/s; nullopt for any other unit.
std::optional<double> to_gbps(double value, std::string_view unit);

// test / base; fails unless base is positive and both are finite.
Result<double> bandwidth_ratio(double base_gbps, double test_gbps);

// The name and value a field is printed with: bandwidths as "<key>_gbps" in
// Gbit/s, other columns as "<key>_<unit>" ("t_avg_usec", "msg_rate_mpps")
// in their own unit.
struct OutputField {
	std::string name;
	double value;
	bool is_bandwidth;
};
OutputField output_field(const Field &field);

// "bytes=65536 iterations=5000 bw_peak_gbps=0.2419 ..." (no newline).
std::string format_key_values(const Row &row);

// {"rows":[{"bytes":65536,"iterations":5000,"bw_peak_gbps":0.2419,...}]}
std::string format_json(const Report &report);

} // namespace perfstat

#endif // RXECC_PERFSTAT_H
