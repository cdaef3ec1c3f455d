// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The host end of a shaped external port (the topology's uplink
// directive): the emulated host's NIC, which the fabric otherwise does not
// have.  A host's frames arrive as fast as it writes them; a real NIC
// serialises them at its link's rate and, when its transmit queue fills,
// holds the host's stack back without losing anything.  Here:
//
// - A frame from the host joins the NIC's queue of its priority (the
//   switch's classification: DSCP map, PCP, else 0; MAC control frames go
//   first, as the switch's own do).  The NIC serves the queues as an egress
//   port of the switch does (strict priorities, then DWRR; egress_port.h)
//   onto a link of the port's rate, overhead and delay, the same
//   arithmetic as every link of the fabric: a frame reaches the switch when
//   its last bit does, end of serialisation plus the port's delay.  Nothing
//   is ever dropped.
// - The NIC honours the PFC and PAUSE frames the switch sends out of the
//   port (as a real NIC does: its queue of that priority stops at once),
//   from when their last bit reaches it.  They still go to the host too.
// - Backpressure: when a priority's queue (bytes waiting, the frame on the
//   wire not included) reaches xoff, a PFC XOFF for that priority, with the
//   port's pause_quanta, goes to the host; it is repeated every half pause
//   time while it lasts, and an XON (time 0) follows once the queue has
//   fallen to xon.  These frames are the NIC's word to its own host: they
//   take no time on the link and do not count as the switch's.
// - The switch's pauses toward the host are not disturbed: no XON goes to
//   the host for a priority while the switch asserts XOFF on that
//   (port, priority) or its pause holds the NIC's queue; the XON is sent
//   when that ends.  And a frame of the switch that would end the host's
//   pause sooner than the NIC's (an XON, a shorter pause) is followed at
//   once by the NIC's XOFF again, while the NIC still asserts it.
//
// Event-driven like the switch (switch_model.h): calls in non-decreasing
// time, output a pure function of the calls.
#ifndef RXECC_FABRIC_UPLINK_H
#define RXECC_FABRIC_UPLINK_H

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "egress_port.h"
#include "packet.h"
#include "switch_model.h"

namespace rxecc::fabric
{

struct UplinkCounters {
	uint64_t rx_frames = 0; // received from the host
	uint64_t rx_bytes = 0;
	uint64_t max_backlog_bytes = 0; // all priorities' queues together
	uint64_t xoff_sent = 0;         // PFC frames to the host (refreshes too)
	uint64_t xon_sent = 0;
	uint64_t xon_deferred = 0; // XONs held back while the switch paused
	uint64_t pause_rx = 0;     // PFC/PAUSE frames of the switch that reached the NIC
};

// A frame on its way to the switch: it reaches the ingress at arrive_ns.
struct UplinkDelivery {
	Time arrive_ns = 0;
	std::vector<uint8_t> frame;
};

class Uplink
{
public:
	// The uplink of port (which has uplink.enabled) of sw; sw must
	// outlive it.
	Uplink(const Switch &sw, int port);

	int port() const { return port_; }
	const UplinkParams &params() const { return params_; }

	// A frame from the host at now.
	void on_frame(std::vector<uint8_t> frame, Time now);
	// A PFC or PAUSE frame the switch sent out of the port, when its last
	// bit reaches the NIC.
	void on_switch_pause(const PauseRequest &req, Time now);

	// kNever when nothing is pending.
	Time next_event_time() const;
	// Everything due at t (t = next_event_time()): pause expiries, XOFF
	// refreshes, a transmission.
	void run_events_at(Time t);

	// What the calls above produced since the last take: frames toward
	// the switch, and PFC frames to the host (port(), priority -1, start,
	// end and arrival at the time of the decision).
	std::vector<UplinkDelivery> take_deliveries() { return std::exchange(to_switch_, {}); }
	std::vector<Transmission> take_to_host() { return std::exchange(to_host_, {}); }

	uint64_t backlog_bytes() const { return nic_.total_bytes(); }
	uint64_t backlog_bytes(int prio) const { return nic_.queue_bytes(prio); }
	// True while the NIC asks its host to pause prio.
	bool xoff(int prio) const { return pfc_[static_cast<size_t>(prio)].xoff; }
	// True while a pause of the switch holds the NIC's queue of prio.
	bool paused(int prio, Time now) const { return nic_.paused(prio, now); }
	const UplinkCounters &counters() const { return c_; }

private:
	struct PfcState {
		bool xoff = false;
		bool deferred = false; // an XON is due but held back
		Time refresh_at = kNever;
	};

	void start_transmission(Time t);
	void send_pfc(int prio, bool xoff, Time now);
	void maybe_xon(int prio, Time now);

	const Switch &sw_;
	int port_;
	const PortConfig &pc_;
	UplinkParams params_;
	EgressPort nic_;
	std::array<PfcState, kNumPriorities> pfc_{};
	std::vector<UplinkDelivery> to_switch_;
	std::vector<Transmission> to_host_;
	UplinkCounters c_;
};

} // namespace rxecc::fabric

#endif
