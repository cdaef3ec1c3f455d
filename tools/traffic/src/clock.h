// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#ifndef RXECC_TRAFFIC_CLOCK_H
#define RXECC_TRAFFIC_CLOCK_H

#include <cstdint>
#include <ctime>

namespace rxecc::traffic
{

inline std::int64_t clock_ns(clockid_t id)
{
	timespec ts{};
	clock_gettime(id, &ts);
	return static_cast<std::int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
inline std::int64_t mono_ns()
{
	return clock_ns(CLOCK_MONOTONIC);
}
inline std::int64_t real_ns()
{
	return clock_ns(CLOCK_REALTIME);
}

// CLOCK_REALTIME at the CLOCK_MONOTONIC instant `mono`: both clocks read
// back to back, the real time taken against the middle of two monotonic
// readings.
inline std::int64_t real_at(std::int64_t mono)
{
	const std::int64_t a = mono_ns(), r = real_ns(), b = mono_ns();
	return r + (mono - (a + (b - a) / 2));
}

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_CLOCK_H
