// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Small text helpers for the line-oriented input files of rxecc-traffic.
#ifndef RXECC_TRAFFIC_TEXT_H
#define RXECC_TRAFFIC_TEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rxecc::traffic
{

// The lines of `text` (without "\n" or "\r\n"); a last line without a
// newline counts.
std::vector<std::string_view> split_lines(std::string_view text);
// `line` up to the first '#'.
std::string_view strip_comment(std::string_view line);
// Words separated by spaces and tabs.
std::vector<std::string_view> split_words(std::string_view line);
// Splits on `sep` (empty fields kept).
std::vector<std::string_view> split_on(std::string_view s, char sep);
// A whole decimal number without sign, spaces or junk that fits in 64 bits.
std::optional<std::uint64_t> parse_uint(std::string_view s);
// A signed whole decimal number ("-12", "7") that fits in 64 bits.
std::optional<std::int64_t> parse_int(std::string_view s);
// A finite decimal number ("0.3", "30", "1e-3"), nothing else.
std::optional<double> parse_double(std::string_view s);
// Reads a whole file; false with *err ("FILE: reason") on failure.
bool read_file(const std::string &path, std::string &out, std::string *err);
// Writes a whole file (through a temporary file renamed into place).
bool write_file(const std::string &path, std::string_view data, std::string *err);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_TEXT_H
