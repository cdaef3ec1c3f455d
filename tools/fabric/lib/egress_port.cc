// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Egress queues, scheduler, pause state and serialisation; see egress_port.h.
#include "egress_port.h"

#include <algorithm>
#include <utility>

namespace rxecc::fabric
{

uint64_t LinkSerializer::wire_bytes(size_t frame_len) const
{
	return std::max<uint64_t>(frame_len, kMinFrameBytes) + overhead_;
}

Time LinkSerializer::transmit(Time start, size_t frame_len)
{
	if (start > busy_until_)
		rem_ = 0;
	else
		start = busy_until_;
	// W <= 16384 + 1024 bytes, so bits * 1e9 < 2^48, and rem_ < rate_.
	uint64_t w = wire_bytes(frame_len);
	wire_sent_ += w;
	uint64_t total = w * 8 * 1000000000ull + rem_;
	busy_until_ = start + total / rate_;
	rem_ = total % rate_;
	return busy_until_;
}

EgressPort::EgressPort(const PortConfig &cfg, uint8_t strict_mask,
                       const std::array<uint32_t, kNumPriorities> &quantum)
    : cfg_(cfg), strict_mask_(strict_mask), quantum_(quantum),
      link_(cfg.rate_bps, cfg.overhead_bytes)
{
}

void EgressPort::enqueue(QueuedPacket qp)
{
	size_t p = idx(qp.priority);
	bytes_[p] += qp.charged;
	q_[p].push_back(std::move(qp));
}

void EgressPort::enqueue_control(std::vector<uint8_t> frame, Time now)
{
	control_.push_back({std::move(frame), now});
}

uint64_t EgressPort::total_bytes() const
{
	uint64_t sum = 0;
	for (uint64_t b : bytes_)
		sum += b;
	return sum;
}

bool EgressPort::eligible(int prio, Time t) const
{
	const auto &q = q_[idx(prio)];
	return !q.empty() && q.front().enqueued <= t && !paused(prio, t);
}

Time EgressPort::next_start() const
{
	Time busy = link_.busy_until();
	Time best = kNever;
	if (!control_.empty())
		best = std::max(busy, control_.front().enqueued);
	for (int p = 0; p < kNumPriorities; p++) {
		const auto &q = q_[idx(p)];
		if (q.empty())
			continue;
		Time t = std::max({busy, q.front().enqueued, pause_[idx(p)].until});
		best = std::min(best, t);
	}
	return best;
}

std::optional<int> EgressPort::select(Time t)
{
	if (!control_.empty() && control_.front().enqueued <= t)
		return kControl;
	for (int p = kNumPriorities - 1; p >= 0; p--)
		if (strict(p) && eligible(p, t))
			return p;
	return select_dwrr(t);
}

// Deficit round robin (Shreedhar and Varghese): when the cursor reaches an
// eligible queue it is credited its quantum once; the queue is served while
// its deficit covers the head packet, then the cursor moves on.  A queue
// that is empty or paused when the cursor passes loses its deficit.
std::optional<int> EgressPort::select_dwrr(Time t)
{
	bool any = false;
	for (int p = 0; p < kNumPriorities; p++)
		any = any || (!strict(p) && eligible(p, t));
	if (!any)
		return std::nullopt;
	// Terminates: every full turn adds a quantum (>= 64) to each eligible
	// queue, and heads are at most kMaxFrameBytes.
	for (;;) {
		int p = cursor_;
		size_t i = idx(p);
		if (!strict(p) && eligible(p, t)) {
			if (!credited_[i]) {
				deficit_[i] += quantum_[i];
				credited_[i] = true;
			}
			if (q_[i].front().charged <= deficit_[i])
				return p;
		} else {
			deficit_[i] = 0;
		}
		credited_[i] = false;
		cursor_ = (cursor_ + 1) % kNumPriorities;
	}
}

QueuedPacket EgressPort::pop(int priority)
{
	size_t i = idx(priority);
	QueuedPacket qp = std::move(q_[i].front());
	q_[i].pop_front();
	bytes_[i] -= qp.charged;
	if (!strict(priority)) {
		deficit_[i] -= std::min<uint64_t>(deficit_[i], qp.charged);
		if (q_[i].empty())
			deficit_[i] = 0;
	}
	return qp;
}

std::vector<uint8_t> EgressPort::pop_control()
{
	std::vector<uint8_t> f = std::move(control_.front().frame);
	control_.pop_front();
	return f;
}

PauseChange EgressPort::pause(int prio, Time now, Time duration)
{
	PauseState &s = pause_[idx(prio)];
	bool was_paused = now < s.until;
	if (duration == 0) {
		if (!was_paused)
			return PauseChange::kNone;
		s.until = now;
		s.expiry_pending = false;
		return PauseChange::kReleased;
	}
	if (was_paused) {
		s.until = now + duration;
		return PauseChange::kNone;
	}
	s.done_ns += s.until - s.since;
	s.since = now;
	s.until = now + duration;
	s.expiry_pending = true;
	return PauseChange::kStarted;
}

Time EgressPort::paused_ns(int prio, Time now) const
{
	const PauseState &s = pause_[idx(prio)];
	if (now <= s.since)
		return s.done_ns;
	return s.done_ns + std::min(now, s.until) - s.since;
}

Time EgressPort::next_pause_expiry() const
{
	Time t = kNever;
	for (const PauseState &s : pause_)
		if (s.expiry_pending)
			t = std::min(t, s.until);
	return t;
}

std::vector<int> EgressPort::take_expired(Time t)
{
	std::vector<int> out;
	for (int p = 0; p < kNumPriorities; p++) {
		PauseState &s = pause_[idx(p)];
		if (s.expiry_pending && s.until <= t) {
			s.expiry_pending = false;
			out.push_back(p);
		}
	}
	return out;
}

} // namespace rxecc::fabric
