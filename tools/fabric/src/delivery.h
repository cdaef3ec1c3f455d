// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Frames waiting to be written to an external port: a transmission of the
// model leaves its port's queue when its last bit reaches the far end
// (arrive_ns), in time order (equal times keep the order they came in).
#ifndef RXECC_FABRIC_PROC_DELIVERY_H
#define RXECC_FABRIC_PROC_DELIVERY_H

#include <cstdint>
#include <deque>
#include <vector>

#include "packet.h"

namespace rxecc::fabric::proc
{

struct PendingFrame {
	Time arrive_ns = 0;
	std::vector<uint8_t> frame;
};

class DeliveryQueue
{
public:
	void push(Time arrive_ns, std::vector<uint8_t> frame);
	bool empty() const { return q_.empty(); }
	size_t size() const { return q_.size(); }
	// kNever when empty.
	Time next_ns() const { return q_.empty() ? kNever : q_.front().arrive_ns; }
	// The first frame if it is due at now, else null.
	const PendingFrame *due(Time now) const
	{
		return !q_.empty() && q_.front().arrive_ns <= now ? &q_.front() : nullptr;
	}
	void pop() { q_.pop_front(); }

private:
	std::deque<PendingFrame> q_;
};

} // namespace rxecc::fabric::proc

#endif
