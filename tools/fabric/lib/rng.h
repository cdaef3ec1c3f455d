// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Injectable random source for the switch model, so that runs (and tests)
// are reproducible from a seed.
#ifndef RXECC_FABRIC_RNG_H
#define RXECC_FABRIC_RNG_H

#include <cstdint>

namespace rxecc::fabric
{

class Rng
{
public:
	virtual ~Rng() = default;
	virtual uint32_t next_u32() = 0;

	// Uniform in 0..65535: the rnd16() of specs/dcqcn.md §4.2.
	uint32_t rnd16() { return next_u32() >> 16; }
};

// SplitMix64 (Steele, Lea, Flood 2014): tiny, and well mixed even for
// consecutive seeds, which is how the fabric seeds its switches.
class SplitMix64 : public Rng
{
public:
	explicit SplitMix64(uint64_t seed) : state_(seed) {}

	uint32_t next_u32() override
	{
		state_ += 0x9E3779B97F4A7C15ull;
		uint64_t z = state_;
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		return static_cast<uint32_t>(z >> 32);
	}

private:
	uint64_t state_;
};

} // namespace rxecc::fabric

#endif
