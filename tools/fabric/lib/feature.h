// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Extension point of the switch pipeline.  A Feature sees every packet at
// egress enqueue and at dequeue with the state of its queue and port, may
// rewrite header fields, and may emit new frames.  ECN marking (red.h) is
// one, ACC's TCD marking (tcd.h), PCN's NP-ECN marking (npecn.h) and
// HPCC's INT stamping (int_stamp.h) and SFC's BTS generation (sfc.h)
// others; per-port fair-rate units are meant to be more.
//
// Order within a switch, per packet:
//   ingress: parse, classify (DSCP -> priority), forward, admit to the
//            buffer (drops happen here), then on_enqueue() of every
//            feature in the order they were added, then the packet joins
//            its queue and PFC XOFF is checked;
//   egress:  when the link can start it, the packet leaves its queue, its
//            buffer is released and PFC XON is checked, then on_dequeue()
//            of every feature, then it is serialised with its final size.
// Frames passed to emit() are forwarded by the same switch after the step
// that emitted them, at the same time, as if received on no port: they are
// lossy, charged to the shared pool, and may go out of any port (a BTS back
// toward the sender, say).  Frames passed to emit_control() leave the given
// port directly like PFC frames: before every queue, never paused, outside
// the buffer (an SFC-P pause toward a host, say).
#ifndef RXECC_FABRIC_FEATURE_H
#define RXECC_FABRIC_FEATURE_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "packet.h"
#include "rng.h"

namespace rxecc::fabric
{

// Queue and port state as a feature sees it.
struct QueueView {
	int port = -1; // egress port
	int priority = 0;
	// At enqueue: the queue ahead of the packet.  At dequeue: what is
	// left behind it.  (The packet itself is never included.)
	uint64_t bytes = 0;
	size_t packets = 0;
	uint64_t port_bytes = 0; // all queues of the egress port, same rule
	bool paused = false;     // egress priority paused by a PAUSE now
	Time paused_until = 0;
	uint64_t rate_bps = 0;
	uint64_t tx_bytes = 0; // frame bytes sent on the port before this packet
	// Wire bytes sent on the port before this packet, every frame (PFC
	// included) counted as the link serialises it: max(L, 60) +
	// overhead (LinkSerializer::wire_bytes_sent()).
	uint64_t tx_wire_bytes = 0;
	Time start_ns = 0; // dequeue only: when its first bit leaves
};

struct EmittedFrame {
	int port = -1; // -1: forward; else send out of this port as control
	std::vector<uint8_t> frame;
};

// Counters a feature may bump through FeatureContext.
struct FeatureCounters {
	uint64_t ecn_marks = 0;
};

class FeatureContext
{
public:
	// consumed: where consume() records its call; null where a packet
	// cannot be consumed (at dequeue).
	FeatureContext(Packet &packet, int ingress_port, const QueueView &queue, Time now, Rng &rng,
	               FeatureCounters &counters, std::vector<EmittedFrame> &emitted,
	               bool *consumed = nullptr)
	    : packet_(packet), ingress_port_(ingress_port), queue_(queue), now_(now), rng_(rng),
	      counters_(counters), emitted_(emitted), consumed_(consumed)
	{
	}

	Packet &packet() { return packet_; }
	int ingress_port() const { return ingress_port_; } // -1: made by the switch
	int egress_port() const { return queue_.port; }
	int priority() const { return queue_.priority; }
	const QueueView &queue() const { return queue_; }
	Time now() const { return now_; }
	Rng &rng() { return rng_; }

	// ECT(0)/ECT(1) -> CE with the IPv4 checksum fixed, counted as an ECN
	// mark of this queue.  False (nothing changed) for Not-ECT, CE, non-IP.
	bool mark_ce()
	{
		if (!packet_.mark_ce())
			return false;
		counters_.ecn_marks++;
		return true;
	}

	// At enqueue only: the packet does not join its queue (its buffer
	// is returned, the features after this one do not see it): a
	// feature replaces it by what it emits (SFC-P's PFC frame for a BTS,
	// say).  False, and nothing done, where that is not possible.
	bool consume()
	{
		if (!consumed_)
			return false;
		*consumed_ = true;
		return true;
	}

	void emit(std::vector<uint8_t> frame) { emitted_.push_back({-1, std::move(frame)}); }
	void emit_control(int port, std::vector<uint8_t> frame)
	{
		emitted_.push_back({port, std::move(frame)});
	}

private:
	Packet &packet_;
	int ingress_port_;
	const QueueView &queue_;
	Time now_;
	Rng &rng_;
	FeatureCounters &counters_;
	std::vector<EmittedFrame> &emitted_;
	bool *consumed_;
};

class Feature
{
public:
	virtual ~Feature() = default;
	virtual void on_enqueue(FeatureContext &) {}
	virtual void on_dequeue(FeatureContext &) {}
	// Egress priority prio of port was paused (PAUSE/PFC received) or
	// resumed (XON received, or the pause time ran out) at now.
	virtual void on_pause_change(int /*port*/, int /*prio*/, bool /*paused*/, Time /*now*/) {}
};

} // namespace rxecc::fabric

#endif
