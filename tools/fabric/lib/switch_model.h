// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One switch of the fabric: ports with egress queues and links, a shared
// buffer, forwarding, ECN, TCD, NP-ECN, INT stamping, SFC and ACCurate's
// congestion points (as features) and PFC, driven by events with time passed in.
//
//   sw.on_ingress(port, frame, now);    a frame fully received at now
//   t = sw.next_event_time();           when something happens next
//   for (auto &tx : sw.poll(now)) ...   frames whose transmission started
//                                       by now, with exact start/end times
//
// Calls must come in non-decreasing time; an earlier time is taken as the
// latest one seen.  The model is a pure function of the calls, so its
// output does not depend on how late poll() is called: a transmission
// starts at the instant the link and the queue allowed it, which may be
// before the poll() that reports it.  Events due at the same time as an
// on_ingress() are processed before the frame is.
//
// Forwarding, in order: PAUSE/PFC frames are consumed by the port that
// received them; other 01:80:C2:00:00:0x frames are dropped; IP packets
// take the longest matching static route; then the static MAC table; else
// (broadcast, multicast, unknown unicast) the frame is flooded to every
// port with flood set except the one it came in on.  A route back out of
// the ingress port counts as no route.
//
// Priority: the DSCP map for IP packets, the PCP for other tagged frames,
// else 0.
#ifndef RXECC_FABRIC_SWITCH_MODEL_H
#define RXECC_FABRIC_SWITCH_MODEL_H

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "accurate.h"
#include "buffer.h"
#include "egress_port.h"
#include "feature.h"
#include "int_stamp.h"
#include "npecn.h"
#include "packet.h"
#include "rng.h"
#include "sfc.h"
#include "switch_config.h"
#include "tcd.h"

namespace rxecc::fabric
{

struct Transmission {
	int port = -1;
	int priority = -1;  // -1: a MAC control frame (PFC) or emit_control()
	Time start_ns = 0;  // first bit leaves
	Time end_ns = 0;    // last bit leaves (floor, see LinkSerializer)
	Time arrive_ns = 0; // last bit reaches the far end: end + delay
	std::vector<uint8_t> frame;
};

// Counters of one (port, priority).  Drops are counted where they are
// decided: malformed, no_route, link_local and pfc_headroom against the
// ingress port (priority 0 when it is unknown), buffer_full and
// dynamic_threshold against the egress queue.
struct QueueCounters : FeatureCounters {
	uint64_t tx_packets = 0; // from this egress queue
	uint64_t tx_bytes = 0;
	uint64_t max_queue_bytes = 0;
	uint64_t xoff_sent = 0; // PFC frames sent out of this port for
	uint64_t xon_sent = 0;  // this priority (it is their ingress)
	uint64_t pause_rx = 0;  // received: enable bit set, time > 0
	uint64_t resume_rx = 0; // received: enable bit set, time 0
	std::array<uint64_t, kNumDropReasons> drops{};
};

struct PortCounters {
	uint64_t rx_frames = 0;
	uint64_t rx_bytes = 0;
	uint64_t mac_control_rx = 0; // consumed MAC control frames
	uint64_t tx_frames = 0;      // every frame, PFC included
	uint64_t tx_bytes = 0;
	uint64_t tx_control_frames = 0;
};

// A snapshot of one (port, priority) for telemetry.
struct QueueStatus {
	// Egress queue.
	uint64_t bytes = 0;
	size_t packets = 0;
	bool paused = false;
	Time paused_until = 0;
	Time paused_ns = 0; // total paused time up to now
	// Ingress account of the same (port, priority), for PFC.
	uint64_t ingress_bytes = 0;
	uint64_t ingress_headroom_bytes = 0;
	bool xoff = false; // XOFF in force toward the upstream
	QueueCounters counters;
};

class Switch
{
public:
	// Throws std::invalid_argument if validate(cfg) fails.
	explicit Switch(const SwitchConfig &cfg, uint64_t seed = 1);
	Switch(const SwitchConfig &cfg, std::unique_ptr<Rng> rng);

	// Features run after the built-in RED marker, TCD marker, NP-ECN
	// marker, INT stamper, SFC engine and ACCurate engine, in the order
	// added.
	void add_feature(std::shared_ptr<Feature> f);

	// Throws std::out_of_range for a port that does not exist.
	void on_ingress(int port, std::vector<uint8_t> frame, Time now);
	// kNever when nothing is pending.  If poll() has frames to return,
	// the time of the last call.
	Time next_event_time() const;
	std::vector<Transmission> poll(Time now);

	const SwitchConfig &config() const { return cfg_; }
	int num_ports() const { return static_cast<int>(ports_.size()); }
	const PortCounters &port_counters(int port) const;
	// INT stamping of the packets leaving port (int_stamp.h).
	const IntCounters &int_counters(int port) const;
	uint8_t int_rate_code(int port) const; // 0: the port does not stamp
	// TCD marking (tcd.h) of the queue (port, prio); enabled is false
	// where it is off.
	TcdStatus tcd_status(int port, int prio, Time now) const;
	// NP-ECN marking (npecn.h) of the queue (port, prio); enabled is
	// false where it is off.
	NpEcnStatus npecn_status(int port, int prio) const;
	// SFC (sfc.h) of the switch; enabled is false without it.
	SfcStatus sfc_status(Time now) const;
	// ACCurate (accurate.h) of port; enabled is false without it.
	AccStatus accurate_status(int port) const;
	QueueStatus queue_status(int port, int prio, Time now) const;
	const SharedBuffer &buffer() const { return buffer_; }
	uint64_t drops(DropReason r) const { return drops_[static_cast<size_t>(r)]; }
	uint64_t total_drops() const;
	// True while this switch asks the device on port to pause prio: the
	// process moving frames may also stop reading from a host that
	// ignores PFC frames.
	bool xoff_asserted(int port, int prio) const;
	// The priority of a frame (see the top of this file).
	int classify(const FrameInfo &fi) const;

private:
	struct PfcState {
		bool xoff = false;
		Time refresh_at = kNever;
	};
	struct Port {
		explicit Port(const PortConfig &cfg, const SwitchConfig &sc)
		    : egress(cfg, sc.strict_mask, sc.quantum)
		{
		}
		EgressPort egress;
		std::array<IngressAccount, kNumPriorities> ingress{};
		std::array<PfcState, kNumPriorities> pfc{};
		std::array<QueueCounters, kNumPriorities> qc{};
		PortCounters pc;
	};

	Port &port(int i) { return ports_[static_cast<size_t>(i)]; }
	const Port &port(int i) const { return ports_[static_cast<size_t>(i)]; }
	const PfcParams &pfc_params(int i, int prio) const;

	void advance(Time now);
	Time next_internal_event() const;
	void run_events_at(Time t);
	void start_transmission(int e, Time t);
	void handle_pause(int in, const Packet &pkt, Time now);
	void forward(int in, Packet pkt, Time now);
	void enqueue(int in, int e, int prio, Packet pkt, Time now);
	void drain_emitted(Time now);
	void send_pfc(int i, int prio, bool xoff, Time now);
	void count_drop(int port, int prio, DropReason r);
	std::vector<int> lookup(const FrameInfo &fi, int in) const;
	QueueView view(int e, int prio, Time now) const;
	void notify_pause(int port, int prio, bool paused, Time now);

	SwitchConfig cfg_;
	std::unique_ptr<Rng> rng_;
	std::vector<Port> ports_;
	SharedBuffer buffer_;
	std::shared_ptr<TcdMarker> tcd_;
	std::shared_ptr<NpEcnMarker> npecn_;
	std::shared_ptr<IntStamper> int_;
	std::shared_ptr<SfcEngine> sfc_;
	std::shared_ptr<AccurateEngine> accurate_;
	std::vector<std::shared_ptr<Feature>> features_;
	std::vector<EmittedFrame> emitted_;
	std::vector<Transmission> outbox_;
	std::array<uint64_t, kNumDropReasons> drops_{};
	Time now_ = 0;
};

} // namespace rxecc::fabric

#endif
