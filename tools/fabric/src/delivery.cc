// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "delivery.h"

namespace rxecc::fabric::proc
{

void DeliveryQueue::push(Time arrive_ns, std::vector<uint8_t> frame)
{
	// Transmissions of one port come in time order, so this is almost
	// always an append; search from the back otherwise.
	auto it = q_.end();
	while (it != q_.begin() && std::prev(it)->arrive_ns > arrive_ns)
		--it;
	q_.insert(it, PendingFrame{arrive_ns, std::move(frame)});
}

} // namespace rxecc::fabric::proc
