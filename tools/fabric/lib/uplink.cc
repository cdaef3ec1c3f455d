// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The NIC of a host on a shaped port; see uplink.h.
#include "uplink.h"

#include <algorithm>

#include "buffer.h"

namespace rxecc::fabric
{

namespace
{

size_t u(int i)
{
	return static_cast<size_t>(i);
}

} // namespace

Uplink::Uplink(const Switch &sw, int port)
    : sw_(sw), port_(port), pc_(sw.config().ports[u(port)]), params_(pc_.uplink),
      nic_(pc_, sw.config().strict_mask, sw.config().quantum)
{
}

// The events due by now have run (the fabric's order), so a frame that
// finds the link idle starts at once, before its queue is measured.
void Uplink::on_frame(std::vector<uint8_t> frame, Time now)
{
	c_.rx_frames++;
	c_.rx_bytes += frame.size();
	Packet pkt;
	pkt.mutable_bytes() = std::move(frame);
	// A malformed frame waits on priority 0; the switch drops it.
	bool ok = pkt.reparse() == ParseStatus::kOk;
	int prio = -1;
	if (ok && pkt.info().mac_control) {
		nic_.enqueue_control(pkt.release(), now);
	} else {
		prio = ok ? sw_.classify(pkt.info()) : 0;
		auto len = static_cast<uint32_t>(pkt.size());
		nic_.enqueue({std::move(pkt), -1, prio, false, len, now});
	}
	if (nic_.next_start() <= now)
		start_transmission(now);
	c_.max_backlog_bytes = std::max(c_.max_backlog_bytes, nic_.total_bytes());
	if (prio >= 0 && !pfc_[u(prio)].xoff && nic_.queue_bytes(prio) >= params_.xoff)
		send_pfc(prio, true, now);
}

void Uplink::on_switch_pause(const PauseRequest &req, Time now)
{
	c_.pause_rx++;
	for (int prio = 0; prio < kNumPriorities; prio++) {
		if (!((req.enable_mask >> prio) & 1))
			continue;
		uint16_t quanta = req.times[u(prio)];
		nic_.pause(prio, now, quanta ? pause_quanta_to_ns(quanta, pc_.rate_bps) : 0);
		// The host takes the switch's frame too: its pause of prio now
		// ends sooner than the NIC's XOFF asks, if at all.
		if (!pfc_[u(prio)].xoff || quanta >= pc_.pause_quanta)
			continue;
		if (nic_.queue_bytes(prio) > params_.xon)
			send_pfc(prio, true, now);
		else
			maybe_xon(prio, now);
	}
}

Time Uplink::next_event_time() const
{
	Time t = std::min(nic_.next_start(), nic_.next_pause_expiry());
	for (const PfcState &s : pfc_)
		t = std::min(t, s.refresh_at);
	return t;
}

void Uplink::run_events_at(Time t)
{
	for (int prio : nic_.take_expired(t))
		maybe_xon(prio, t);
	for (int prio = 0; prio < kNumPriorities; prio++)
		if (pfc_[u(prio)].refresh_at <= t)
			send_pfc(prio, true, t);
	if (nic_.next_start() <= t)
		start_transmission(t);
}

void Uplink::start_transmission(Time t)
{
	std::optional<int> sel = nic_.select(t);
	if (!sel)
		return;
	std::vector<uint8_t> frame;
	int prio = -1;
	if (*sel == EgressPort::kControl) {
		frame = nic_.pop_control();
	} else {
		prio = *sel;
		frame = nic_.pop(prio).packet.release();
	}
	Time end = nic_.link().transmit(t, frame.size());
	to_switch_.push_back({end + pc_.delay_ns, std::move(frame)});
	if (prio >= 0)
		maybe_xon(prio, t);
}

// As the switch's PFC (switch_model.cc): XOFF carries the port's pause
// time and is refreshed at half of it; XON is time 0.
void Uplink::send_pfc(int prio, bool xoff, Time now)
{
	std::array<uint16_t, kNumPriorities> times{};
	times[u(prio)] = xoff ? pc_.pause_quanta : 0;
	Transmission tx;
	tx.port = port_;
	tx.start_ns = tx.end_ns = tx.arrive_ns = now;
	tx.frame = build_pfc_frame(pc_.mac, static_cast<uint8_t>(1u << prio), times);
	to_host_.push_back(std::move(tx));
	PfcState &s = pfc_[u(prio)];
	s.xoff = xoff;
	s.deferred = false;
	if (xoff) {
		Time half = pause_quanta_to_ns(pc_.pause_quanta, pc_.rate_bps) / 2;
		s.refresh_at = now + std::max<Time>(half, 1);
		c_.xoff_sent++;
	} else {
		s.refresh_at = kNever;
		c_.xon_sent++;
	}
}

// An XON is due once the queue is down to xon, unless the switch pauses
// the host on prio: it asserts XOFF (its frame may still be on the way),
// or its pause holds the NIC.  Every end of that (the XON or the expiry
// reaching the NIC) calls this again.
void Uplink::maybe_xon(int prio, Time now)
{
	PfcState &s = pfc_[u(prio)];
	if (!s.xoff || nic_.queue_bytes(prio) > params_.xon)
		return;
	if (sw_.xoff_asserted(port_, prio) || nic_.paused(prio, now)) {
		if (!s.deferred)
			c_.xon_deferred++;
		s.deferred = true;
		return;
	}
	send_pfc(prio, false, now);
}

} // namespace rxecc::fabric
