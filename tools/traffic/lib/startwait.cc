#include "startwait.h"

#include <algorithm>

namespace rxecc::traffic
{

std::int64_t sleep_until(std::int64_t due, std::int64_t prev, std::int64_t margin)
{
	std::int64_t window = std::max<std::int64_t>(margin, 0);
	if (prev >= 0 && prev <= due)
		window = std::min(window, (due - prev) / 2);
	return due - window;
}

} // namespace rxecc::traffic
