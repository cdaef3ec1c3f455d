// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cdf.h"

#include <algorithm>
#include <cmath>

#include "text.h"
#include "units.h"

namespace rxecc::traffic
{

std::optional<SizeCdf> SizeCdf::parse(std::string_view text, const std::string &source,
                                      std::string *err)
{
	SizeCdf c;
	int lineno = 0;
	auto fail = [&](const std::string &msg) {
		if (err)
			*err = source + ":" + std::to_string(lineno) + ": " + msg;
		return std::nullopt;
	};
	for (std::string_view line : split_lines(text)) {
		lineno++;
		const auto tok = split_words(strip_comment(line));
		if (tok.empty())
			continue;
		if (tok.size() != 2)
			return fail("expected SIZE PERCENT");
		std::string e;
		auto size = units::parse_size_bytes(tok[0], &e);
		if (!size)
			return fail(e);
		auto pct = parse_double(tok[1]);
		if (!pct || *pct < 0 || *pct > 100)
			return fail("'" + std::string(tok[1]) +
			            "' is not a percentage from 0 to 100");
		const Point p{static_cast<double>(*size), *pct};
		if (!c.pts_.empty()) {
			if (p.bytes < c.pts_.back().bytes)
				return fail("sizes must not decrease");
			if (p.percent < c.pts_.back().percent)
				return fail("percentages must not decrease");
			if (c.pts_.back().percent >= 100)
				return fail("a point after 100%");
		}
		c.pts_.push_back(p);
	}
	if (c.pts_.empty()) {
		if (err)
			*err = source + ": no points";
		return std::nullopt;
	}
	if (c.pts_.back().percent != 100) {
		if (err)
			*err = source + ": the last point must be at 100%";
		return std::nullopt;
	}
	return c;
}

double SizeCdf::quantile(double p) const
{
	const double u = std::clamp(p, 0.0, 1.0) * 100.0;
	if (u <= pts_[0].percent)
		return pts_[0].bytes;
	for (size_t i = 1; i < pts_.size(); i++) {
		const Point &a = pts_[i - 1], &b = pts_[i];
		if (u > b.percent)
			continue;
		// u in (a.percent, b.percent], so b.percent > a.percent
		return a.bytes + (b.bytes - a.bytes) * (u - a.percent) / (b.percent - a.percent);
	}
	return pts_.back().bytes;
}

double SizeCdf::cdf(double bytes) const
{
	if (bytes < pts_[0].bytes)
		return 0;
	double p = pts_[0].percent;
	for (size_t i = 1; i < pts_.size(); i++) {
		const Point &a = pts_[i - 1], &b = pts_[i];
		if (bytes >= b.bytes) {
			p = b.percent;
			continue;
		}
		if (bytes > a.bytes)
			p = a.percent +
			    (b.percent - a.percent) * (bytes - a.bytes) / (b.bytes - a.bytes);
		break;
	}
	return p / 100.0;
}

std::uint64_t SizeCdf::sample(Rng &rng) const
{
	const double v = std::round(quantile(rng.uniform()));
	return v < 1 ? 1 : static_cast<std::uint64_t>(v);
}

double SizeCdf::mean() const
{
	// an atom at the first point, then uniform pieces
	double m = pts_[0].percent / 100.0 * pts_[0].bytes;
	for (size_t i = 1; i < pts_.size(); i++) {
		const Point &a = pts_[i - 1], &b = pts_[i];
		m += (b.percent - a.percent) / 100.0 * (a.bytes + b.bytes) / 2;
	}
	return m;
}

double SizeCdf::second_moment() const
{
	double m = pts_[0].percent / 100.0 * pts_[0].bytes * pts_[0].bytes;
	for (size_t i = 1; i < pts_.size(); i++) {
		const Point &a = pts_[i - 1], &b = pts_[i];
		// E[X^2] of uniform(a, b) = (a^2 + ab + b^2) / 3
		m += (b.percent - a.percent) / 100.0 *
		     (a.bytes * a.bytes + a.bytes * b.bytes + b.bytes * b.bytes) / 3;
	}
	return m;
}

} // namespace rxecc::traffic
