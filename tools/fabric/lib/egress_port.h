// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Egress side of a switch port: eight priority queues, a queue of MAC
// control frames, the scheduler (control frames first, then strict
// priorities from 7 down, then deficit weighted round robin among the
// others), per-priority PAUSE state, and bit-accurate link serialisation.
#ifndef RXECC_FABRIC_EGRESS_PORT_H
#define RXECC_FABRIC_EGRESS_PORT_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "packet.h"
#include "switch_config.h"

namespace rxecc::fabric
{

// Serialisation of frames on a link of rate_bps.  A frame of L bytes
// occupies W = max(L, 60) + overhead wire bytes and takes W * 8 * 1e9 /
// rate_bps ns.  Times are whole ns; the fraction of a ns is kept as a
// remainder (in units of 1/rate_bps ns) and carried into the next frame
// sent back to back, so the end of the n-th back-to-back frame is exactly
// floor(start + total_bits * 1e9 / rate_bps) however long the run.
class LinkSerializer
{
public:
	LinkSerializer(uint64_t rate_bps, uint32_t overhead_bytes)
	    : rate_(rate_bps), overhead_(overhead_bytes)
	{
	}

	uint64_t wire_bytes(size_t frame_len) const;

	// Sends a frame starting at start (clamped to busy_until()); returns
	// the time its last bit leaves, which becomes busy_until().  A start
	// after busy_until() means the link was idle: the remainder is reset.
	Time transmit(Time start, size_t frame_len);

	Time busy_until() const { return busy_until_; }
	uint64_t remainder() const { return rem_; }
	uint64_t rate_bps() const { return rate_; }
	// Wire bytes (W above) of every frame transmit() was given: the
	// byte count the link's timing follows.
	uint64_t wire_bytes_sent() const { return wire_sent_; }

private:
	uint64_t rate_;
	uint32_t overhead_;
	Time busy_until_ = 0;
	uint64_t rem_ = 0;
	uint64_t wire_sent_ = 0;
};

// A packet held in an egress queue.
struct QueuedPacket {
	Packet packet;
	int ingress = -1; // ingress port; -1 for packets the switch made
	int priority = 0;
	bool lossless = false; // admitted under PFC at its ingress
	uint32_t charged = 0;  // bytes charged to the buffer (= size at enqueue)
	Time enqueued = 0;
};

enum class PauseChange { kNone, kStarted, kReleased };

class EgressPort
{
public:
	EgressPort(const PortConfig &cfg, uint8_t strict_mask,
	           const std::array<uint32_t, kNumPriorities> &quantum);

	const PortConfig &config() const { return cfg_; }
	LinkSerializer &link() { return link_; }
	const LinkSerializer &link() const { return link_; }

	void enqueue(QueuedPacket qp);
	// MAC control frames (PFC): served before every queue, never paused,
	// not in the shared buffer.
	void enqueue_control(std::vector<uint8_t> frame, Time now);

	// Earliest time a transmission can start given the link, the queue
	// heads and the pauses in force; kNever if nothing is queued.
	Time next_start() const;

	// The queue to serve at time t (>= next_start()): kControl, a
	// priority, or nullopt if nothing is eligible at t.
	static constexpr int kControl = -1;
	std::optional<int> select(Time t);
	QueuedPacket pop(int priority);
	std::vector<uint8_t> pop_control();

	// PAUSE/PFC received on this port for priority prio at now: pause its
	// egress for duration ns (restarting the timer), or release it at once
	// when duration is 0.
	PauseChange pause(int prio, Time now, Time duration);
	bool paused(int prio, Time t) const { return t < pause_[idx(prio)].until; }
	Time paused_until(int prio) const { return pause_[idx(prio)].until; }
	// Total time priority prio has been paused up to now.
	Time paused_ns(int prio, Time now) const;
	// Earliest expiry of a pause that has not been reported yet, and the
	// priorities whose pauses expired by t (each reported once).
	Time next_pause_expiry() const;
	std::vector<int> take_expired(Time t);

	uint64_t queue_bytes(int prio) const { return bytes_[idx(prio)]; }
	size_t queue_packets(int prio) const { return q_[idx(prio)].size(); }
	uint64_t total_bytes() const;
	bool strict(int prio) const { return (strict_mask_ >> prio) & 1; }

private:
	static size_t idx(int prio) { return static_cast<size_t>(prio); }
	bool eligible(int prio, Time t) const;
	std::optional<int> select_dwrr(Time t);

	struct PauseState {
		Time since = 0;   // start of the current/last episode
		Time until = 0;   // paused while t < until
		Time done_ns = 0; // length of the finished episodes
		bool expiry_pending = false;
	};
	struct Control {
		std::vector<uint8_t> frame;
		Time enqueued;
	};

	PortConfig cfg_;
	uint8_t strict_mask_;
	std::array<uint32_t, kNumPriorities> quantum_;
	LinkSerializer link_;
	std::array<std::deque<QueuedPacket>, kNumPriorities> q_;
	std::array<uint64_t, kNumPriorities> bytes_{};
	std::deque<Control> control_;
	std::array<PauseState, kNumPriorities> pause_{};
	// Deficit round robin: the queue under the cursor keeps being served
	// while its deficit covers its head packet.
	int cursor_ = 0;
	std::array<uint64_t, kNumPriorities> deficit_{};
	std::array<bool, kNumPriorities> credited_{};
};

} // namespace rxecc::fabric

#endif
