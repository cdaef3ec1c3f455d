// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Flow-size distributions given as a piecewise-linear CDF (the form the
// HPCC simulator's workload files use): points (size, cumulative percent),
// linear between points; a repeated size is a step (that size has a
// probability of its own). Files are in tools/traffic/cdf/; the format is
// in Documentation/rxe-cc/traffic.rst.
#ifndef RXECC_TRAFFIC_CDF_H
#define RXECC_TRAFFIC_CDF_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rng.h"

namespace rxecc::traffic
{

class SizeCdf
{
public:
	struct Point {
		double bytes;
		double percent; // cumulative, 0..100
	};

	// "SIZE PERCENT" lines ('#' comments): sizes and percents never
	// decrease, the last percent is 100. Errors name "SOURCE:LINE".
	static std::optional<SizeCdf> parse(std::string_view text, const std::string &source,
	                                    std::string *err);

	// The size at cumulative probability p in [0, 1] (inverse CDF).
	double quantile(double p) const;
	// P(size <= bytes), in [0, 1].
	double cdf(double bytes) const;
	// A random size: quantile(u) rounded to whole bytes, at least 1.
	std::uint64_t sample(Rng &rng) const;
	// Mean and second moment of the distribution (of the continuous
	// sizes, before rounding).
	double mean() const;
	double second_moment() const;

	const std::vector<Point> &points() const { return pts_; }

private:
	std::vector<Point> pts_;
};

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_CDF_H
