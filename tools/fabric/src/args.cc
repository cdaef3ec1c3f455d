// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "args.h"

namespace rxecc::fabric::proc
{

std::optional<uint64_t> parse_uint(std::string_view s, uint64_t max)
{
	if (s.empty() || s.size() > 20)
		return std::nullopt;
	uint64_t v = 0;
	for (char c : s) {
		if (c < '0' || c > '9')
			return std::nullopt;
		auto d = static_cast<uint64_t>(c - '0');
		if (d > max || v > (max - d) / 10)
			return std::nullopt;
		v = v * 10 + d;
	}
	return v;
}

std::optional<uint8_t> parse_prio_list(std::string_view s)
{
	if (s == "*")
		return static_cast<uint8_t>(0xff);
	unsigned mask = 0;
	size_t pos = 0;
	while (true) {
		size_t comma = s.find(',', pos);
		std::string_view item =
			s.substr(pos, comma == std::string_view::npos ? std::string_view::npos
		                                                      : comma - pos);
		auto p = parse_uint(item, 7);
		if (!p)
			return std::nullopt;
		mask |= 1u << *p;
		if (comma == std::string_view::npos)
			break;
		pos = comma + 1;
	}
	return static_cast<uint8_t>(mask);
}

bool OptionCursor::next()
{
	if (next_ >= args_.size())
		return false;
	name_ = args_[next_++];
	val_.clear();
	has_val_ = false;
	if (name_.rfind("--", 0) == 0) {
		size_t eq = name_.find('=');
		if (eq != std::string::npos) {
			val_ = name_.substr(eq + 1);
			name_.resize(eq);
			has_val_ = true;
		}
	}
	return true;
}

bool OptionCursor::value(std::string &err)
{
	if (has_val_)
		return true;
	if (next_ >= args_.size()) {
		err = cmd_ + ": " + name_ + " needs a value";
		return false;
	}
	val_ = args_[next_++];
	return true;
}

} // namespace rxecc::fabric::proc
