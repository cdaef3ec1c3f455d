// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Histogram of delivery lateness (now - arrive_ns when a frame is written
// to its port), log-linear: exact below 128 ns, then 64 buckets per power
// of two (at most 1/64 relative error).  Constant memory, O(1) add.
#ifndef RXECC_FABRIC_PROC_LATENESS_H
#define RXECC_FABRIC_PROC_LATENESS_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace rxecc::fabric::proc
{

class LatenessHistogram
{
public:
	void add(uint64_t ns);
	uint64_t count() const { return count_; }
	uint64_t max_ns() const { return max_; }
	// Nearest-rank percentile (0 < pct <= 100), as the lower bound of
	// its bucket; 0 when empty.
	uint64_t percentile_ns(unsigned pct) const;

	static size_t bucket_of(uint64_t ns);
	static uint64_t bucket_floor(size_t b);

private:
	static constexpr size_t kBuckets = 58 * 64 + 128;
	std::array<uint64_t, kBuckets> buckets_{};
	uint64_t count_ = 0;
	uint64_t max_ = 0;
};

} // namespace rxecc::fabric::proc

#endif
