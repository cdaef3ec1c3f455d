// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A seeded random source whose sequence is the same on every platform: the
// 64-bit Mersenne Twister (its output is fixed by the C++ standard) with
// our own conversions (the standard distributions are not).
#ifndef RXECC_TRAFFIC_RNG_H
#define RXECC_TRAFFIC_RNG_H

#include <cmath>
#include <cstdint>
#include <random>

namespace rxecc::traffic
{

class Rng
{
public:
	explicit Rng(std::uint64_t seed) : g_(seed) {}

	// Uniform in [0, 1), 53 random bits.
	double uniform() { return static_cast<double>(g_() >> 11) * 0x1.0p-53; }

	// Exponentially distributed with the given mean.
	double exponential(double mean) { return -mean * std::log1p(-uniform()); }

	// Uniform in [0, n), n > 0, without modulo bias.
	std::uint64_t below(std::uint64_t n)
	{
		const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
		for (;;) {
			const std::uint64_t x = g_();
			if (x < limit)
				return x % n;
		}
	}

private:
	std::mt19937_64 g_;
};

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_RNG_H
