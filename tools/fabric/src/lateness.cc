// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "lateness.h"

namespace rxecc::fabric::proc
{

size_t LatenessHistogram::bucket_of(uint64_t ns)
{
	if (ns < 128)
		return static_cast<size_t>(ns);
	unsigned msb = 63u - static_cast<unsigned>(__builtin_clzll(ns));
	unsigned shift = msb - 6; // ns >> shift is in 64..127
	return static_cast<size_t>(shift) * 64 + static_cast<size_t>(ns >> shift);
}

uint64_t LatenessHistogram::bucket_floor(size_t b)
{
	if (b < 128)
		return b;
	size_t shift = b / 64 - 1;
	uint64_t m = b - shift * 64;
	return m << shift;
}

void LatenessHistogram::add(uint64_t ns)
{
	buckets_[bucket_of(ns)]++;
	count_++;
	if (ns > max_)
		max_ = ns;
}

uint64_t LatenessHistogram::percentile_ns(unsigned pct) const
{
	if (count_ == 0)
		return 0;
	// Rank ceil(pct/100 * count), at least 1.
	uint64_t rank = (count_ * pct + 99) / 100;
	if (rank == 0)
		rank = 1;
	uint64_t seen = 0;
	for (size_t b = 0; b < kBuckets; b++) {
		seen += buckets_[b];
		if (seen >= rank)
			return bucket_floor(b) < max_ ? bucket_floor(b) : max_;
	}
	return max_;
}

} // namespace rxecc::fabric::proc
