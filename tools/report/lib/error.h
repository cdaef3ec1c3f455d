// Errors and text helpers shared by the report's units.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rxecc::report
{

// A bad input or an output that cannot be written. The message names the
// file (and line) and is shown to the operator as it is.
class Error : public std::runtime_error
{
public:
	explicit Error(const std::string &msg) : std::runtime_error(msg) {}
};

// printf into a std::string.
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// A whole decimal number (digits only, no sign), or nullopt (also on
// 64-bit overflow).
std::optional<std::uint64_t> parse_uint(std::string_view s);

// A non-negative decimal number as awk reads it: digits with an optional
// fraction and exponent ("12", "0.5", ".5", "1e3"), or nullopt.
std::optional<double> parse_number(std::string_view s);

// A name of a flow, host, switch or port: [A-Za-z0-9_.-]+.
bool is_name(std::string_view s);

// SWITCH.PORTNAME, both names.
bool is_port_key(std::string_view s);

// Splits on one character; "" gives one empty field.
std::vector<std::string> split(std::string_view s, char sep);

} // namespace rxecc::report
