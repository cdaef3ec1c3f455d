// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Event-driven switch model; see switch_model.h.
#include "switch_model.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "red.h"

namespace rxecc::fabric
{

namespace
{

size_t u(int i)
{
	return static_cast<size_t>(i);
}

const SwitchConfig &checked(const SwitchConfig &cfg)
{
	std::string e = validate(cfg);
	if (!e.empty())
		throw std::invalid_argument(e);
	return cfg;
}

} // namespace

Switch::Switch(const SwitchConfig &cfg, uint64_t seed)
    : Switch(cfg, std::make_unique<SplitMix64>(seed))
{
}

Switch::Switch(const SwitchConfig &cfg, std::unique_ptr<Rng> rng)
    : cfg_(checked(cfg)), rng_(std::move(rng)),
      buffer_(cfg.buffer_bytes, reserved_headroom(cfg), cfg.alpha_q16)
{
	ports_.reserve(cfg_.ports.size());
	for (const PortConfig &pc : cfg_.ports)
		ports_.emplace_back(pc, cfg_);
	features_.push_back(std::make_shared<RedMarker>(cfg_));
	tcd_ = std::make_shared<TcdMarker>(cfg_);
	features_.push_back(tcd_);
	npecn_ = std::make_shared<NpEcnMarker>(cfg_);
	features_.push_back(npecn_);
	int_ = std::make_shared<IntStamper>(cfg_);
	features_.push_back(int_);
	sfc_ = std::make_shared<SfcEngine>(cfg_);
	features_.push_back(sfc_);
	accurate_ = std::make_shared<AccurateEngine>(cfg_);
	features_.push_back(accurate_);
}

void Switch::add_feature(std::shared_ptr<Feature> f)
{
	features_.push_back(std::move(f));
}

const PortCounters &Switch::port_counters(int p) const
{
	return port(p).pc;
}

const IntCounters &Switch::int_counters(int p) const
{
	return int_->counters(p);
}

uint8_t Switch::int_rate_code(int p) const
{
	return int_->rate_code(p);
}

TcdStatus Switch::tcd_status(int p, int prio, Time now) const
{
	return tcd_->status(p, prio, now);
}

NpEcnStatus Switch::npecn_status(int p, int prio) const
{
	return npecn_->status(p, prio);
}

SfcStatus Switch::sfc_status(Time now) const
{
	return sfc_->status(now);
}

AccStatus Switch::accurate_status(int p) const
{
	return accurate_->status(p);
}

const PfcParams &Switch::pfc_params(int i, int prio) const
{
	return cfg_.ports[u(i)].pfc[u(prio)];
}

uint64_t Switch::total_drops() const
{
	uint64_t sum = 0;
	for (uint64_t d : drops_)
		sum += d;
	return sum;
}

bool Switch::xoff_asserted(int p, int prio) const
{
	return port(p).pfc[u(prio)].xoff;
}

QueueStatus Switch::queue_status(int p, int prio, Time now) const
{
	const Port &pt = port(p);
	QueueStatus s;
	s.bytes = pt.egress.queue_bytes(prio);
	s.packets = pt.egress.queue_packets(prio);
	s.paused = pt.egress.paused(prio, now);
	s.paused_until = pt.egress.paused_until(prio);
	s.paused_ns = pt.egress.paused_ns(prio, now);
	s.ingress_bytes = pt.ingress[u(prio)].total();
	s.ingress_headroom_bytes = pt.ingress[u(prio)].headroom;
	s.xoff = pt.pfc[u(prio)].xoff;
	s.counters = pt.qc[u(prio)];
	return s;
}

void Switch::on_ingress(int p, std::vector<uint8_t> frame, Time now)
{
	if (p < 0 || p >= num_ports())
		throw std::out_of_range("switch " + cfg_.name + ": no port " + std::to_string(p));
	advance(now);
	now = now_;
	Port &pt = port(p);
	pt.pc.rx_frames++;
	pt.pc.rx_bytes += frame.size();

	auto pkt = Packet::parse(std::move(frame), nullptr, cfg_.int_config.udp_port);
	if (!pkt) {
		count_drop(p, 0, DropReason::kMalformed);
		return;
	}
	if (pkt->info().mac_control) {
		pt.pc.mac_control_rx++;
		handle_pause(p, *pkt, now);
		return;
	}
	if (is_link_local(pkt->info().dst)) {
		count_drop(p, classify(pkt->info()), DropReason::kLinkLocal);
		return;
	}
	forward(p, std::move(*pkt), now);
	drain_emitted(now);
}

Time Switch::next_event_time() const
{
	if (!outbox_.empty())
		return now_;
	return next_internal_event();
}

std::vector<Transmission> Switch::poll(Time now)
{
	advance(now);
	return std::exchange(outbox_, {});
}

void Switch::advance(Time now)
{
	now = std::max(now, now_);
	for (;;) {
		Time t = next_internal_event();
		if (t == kNever || t > now)
			break;
		run_events_at(t);
	}
	now_ = now;
}

Time Switch::next_internal_event() const
{
	Time t = kNever;
	for (const Port &pt : ports_) {
		t = std::min({t, pt.egress.next_start(), pt.egress.next_pause_expiry()});
		for (const PfcState &s : pt.pfc)
			t = std::min(t, s.refresh_at);
	}
	return t;
}

// Everything due at t: pause expiries, PFC refreshes, then transmissions
// in port order.  Whatever these schedule at t runs in the next round.
void Switch::run_events_at(Time t)
{
	for (int p = 0; p < num_ports(); p++)
		for (int prio : port(p).egress.take_expired(t))
			notify_pause(p, prio, false, t);
	for (int p = 0; p < num_ports(); p++)
		for (int prio = 0; prio < kNumPriorities; prio++)
			if (port(p).pfc[u(prio)].refresh_at <= t)
				send_pfc(p, prio, true, t);
	for (int p = 0; p < num_ports(); p++)
		if (port(p).egress.next_start() <= t)
			start_transmission(p, t);
	drain_emitted(t);
}

void Switch::start_transmission(int e, Time t)
{
	Port &pt = port(e);
	std::optional<int> sel = pt.egress.select(t);
	if (!sel)
		return;
	Transmission tx;
	tx.port = e;
	tx.start_ns = t;
	if (*sel == EgressPort::kControl) {
		tx.frame = pt.egress.pop_control();
		pt.pc.tx_control_frames++;
	} else {
		int prio = *sel;
		QueuedPacket qp = pt.egress.pop(prio);
		IngressAccount *acct =
			qp.ingress >= 0 ? &port(qp.ingress).ingress[u(prio)] : nullptr;
		buffer_.release(acct, qp.charged);
		if (qp.lossless && port(qp.ingress).pfc[u(prio)].xoff &&
		    pfc_xon_due(*acct, pfc_params(qp.ingress, prio)))
			send_pfc(qp.ingress, prio, false, t);

		QueueView v = view(e, prio, t);
		v.start_ns = t;
		QueueCounters &qc = pt.qc[u(prio)];
		for (auto &f : features_) {
			FeatureContext ctx(qp.packet, qp.ingress, v, t, *rng_, qc, emitted_);
			f->on_dequeue(ctx);
		}
		tx.priority = prio;
		tx.frame = qp.packet.release();
		qc.tx_packets++;
		qc.tx_bytes += tx.frame.size();
	}
	tx.end_ns = pt.egress.link().transmit(t, tx.frame.size());
	tx.arrive_ns = tx.end_ns + pt.egress.config().delay_ns;
	pt.pc.tx_frames++;
	pt.pc.tx_bytes += tx.frame.size();
	outbox_.push_back(std::move(tx));
}

void Switch::handle_pause(int in, const Packet &pkt, Time now)
{
	std::optional<PauseRequest> req = parse_pause(pkt);
	if (!req)
		return;
	Port &pt = port(in);
	for (int prio = 0; prio < kNumPriorities; prio++) {
		if (!((req->enable_mask >> prio) & 1))
			continue;
		uint16_t quanta = req->times[u(prio)];
		if (quanta)
			pt.qc[u(prio)].pause_rx++;
		else
			pt.qc[u(prio)].resume_rx++;
		Time dur = quanta ? pause_quanta_to_ns(quanta, pt.egress.config().rate_bps) : 0;
		PauseChange c = pt.egress.pause(prio, now, dur);
		if (c != PauseChange::kNone)
			notify_pause(in, prio, c == PauseChange::kStarted, now);
	}
}

void Switch::notify_pause(int p, int prio, bool paused, Time now)
{
	tcd_->pause_change(p, prio, paused, port(p).egress.queue_bytes(prio), now);
	npecn_->pause_change(p, prio, paused, port(p).egress.queue_packets(prio));
	for (auto &f : features_)
		f->on_pause_change(p, prio, paused, now);
}

int Switch::classify(const FrameInfo &fi) const
{
	if (fi.is_ip())
		return cfg_.dscp_to_prio[fi.dscp];
	if (fi.vlan)
		return fi.pcp;
	return 0;
}

std::vector<int> Switch::lookup(const FrameInfo &fi, int in) const
{
	int out = -1;
	if (fi.is_ip()) {
		int best_len = -1;
		for (const IpRoute &r : cfg_.routes) {
			if (fi.dst_ip.matches(r.prefix, r.prefix_len) &&
			    static_cast<int>(r.prefix_len) > best_len) {
				best_len = static_cast<int>(r.prefix_len);
				out = r.port;
			}
		}
	}
	if (out < 0) {
		for (const MacRoute &m : cfg_.macs) {
			if (m.mac == fi.dst) {
				out = m.port;
				break;
			}
		}
	}
	if (out >= 0) {
		if (out == in)
			return {};
		return {out};
	}
	std::vector<int> flood;
	for (int p = 0; p < num_ports(); p++)
		if (p != in && cfg_.ports[u(p)].flood)
			flood.push_back(p);
	return flood;
}

void Switch::forward(int in, Packet pkt, Time now)
{
	int prio = classify(pkt.info());
	std::vector<int> outs = lookup(pkt.info(), in);
	if (outs.empty()) {
		count_drop(in, prio, DropReason::kNoRoute);
		return;
	}
	for (size_t i = 0; i + 1 < outs.size(); i++)
		enqueue(in, outs[i], prio, pkt, now);
	enqueue(in, outs.back(), prio, std::move(pkt), now);
}

void Switch::enqueue(int in, int e, int prio, Packet pkt, Time now)
{
	uint64_t len = pkt.size();
	Port &out = port(e);
	IngressAccount *acct = in >= 0 ? &port(in).ingress[u(prio)] : nullptr;
	bool lossless = in >= 0 && pfc_params(in, prio).enabled;
	DropReason why = DropReason::kHeadroom;
	Admit a = lossless ? buffer_.admit_lossless(*acct, pfc_params(in, prio), len)
	                   : buffer_.admit_lossy(acct, out.egress.queue_bytes(prio), len, &why);
	if (a == Admit::kDropped) {
		count_drop(why == DropReason::kHeadroom ? in : e, prio, why);
		return;
	}

	QueueView v = view(e, prio, now);
	QueueCounters &qc = out.qc[u(prio)];
	bool consumed = false;
	for (auto &f : features_) {
		FeatureContext ctx(pkt, in, v, now, *rng_, qc, emitted_, &consumed);
		f->on_enqueue(ctx);
		if (consumed)
			break;
	}
	if (consumed) {
		// Replaced by what the feature emitted: never queued.
		buffer_.release(acct, len);
		if (lossless && port(in).pfc[u(prio)].xoff &&
		    pfc_xon_due(*acct, pfc_params(in, prio)))
			send_pfc(in, prio, false, now);
		return;
	}
	out.egress.enqueue({std::move(pkt), in, prio, lossless, static_cast<uint32_t>(len), now});
	qc.max_queue_bytes = std::max(qc.max_queue_bytes, out.egress.queue_bytes(prio));

	if (lossless && !port(in).pfc[u(prio)].xoff && pfc_xoff_due(*acct, pfc_params(in, prio)))
		send_pfc(in, prio, true, now);
}

void Switch::drain_emitted(Time now)
{
	while (!emitted_.empty()) {
		std::vector<EmittedFrame> batch = std::exchange(emitted_, {});
		for (EmittedFrame &ef : batch) {
			if (ef.port >= 0) {
				if (ef.port < num_ports())
					port(ef.port).egress.enqueue_control(std::move(ef.frame),
					                                     now);
				continue;
			}
			auto pkt = Packet::parse(std::move(ef.frame), nullptr,
			                         cfg_.int_config.udp_port);
			if (!pkt || pkt->info().mac_control || is_link_local(pkt->info().dst)) {
				count_drop(-1, 0, DropReason::kMalformed);
				continue;
			}
			forward(-1, std::move(*pkt), now);
		}
	}
}

// XOFF carries the port's pause time and is refreshed at half of it while
// congestion lasts; XON is a PFC frame with time 0 (wire.md §5.2).
void Switch::send_pfc(int i, int prio, bool xoff, Time now)
{
	Port &pt = port(i);
	const PortConfig &pc = cfg_.ports[u(i)];
	std::array<uint16_t, kNumPriorities> times{};
	times[u(prio)] = xoff ? pc.pause_quanta : 0;
	pt.egress.enqueue_control(build_pfc_frame(pc.mac, static_cast<uint8_t>(1u << prio), times),
	                          now);
	PfcState &s = pt.pfc[u(prio)];
	s.xoff = xoff;
	if (xoff) {
		Time half = pause_quanta_to_ns(pc.pause_quanta, pc.rate_bps) / 2;
		s.refresh_at = now + std::max<Time>(half, 1);
		pt.qc[u(prio)].xoff_sent++;
	} else {
		s.refresh_at = kNever;
		pt.qc[u(prio)].xon_sent++;
	}
}

void Switch::count_drop(int p, int prio, DropReason r)
{
	drops_[static_cast<size_t>(r)]++;
	if (p >= 0)
		port(p).qc[u(prio)].drops[static_cast<size_t>(r)]++;
}

QueueView Switch::view(int e, int prio, Time now) const
{
	const Port &pt = port(e);
	QueueView v;
	v.port = e;
	v.priority = prio;
	v.bytes = pt.egress.queue_bytes(prio);
	v.packets = pt.egress.queue_packets(prio);
	v.port_bytes = pt.egress.total_bytes();
	v.paused = pt.egress.paused(prio, now);
	v.paused_until = pt.egress.paused_until(prio);
	v.rate_bps = pt.egress.config().rate_bps;
	v.tx_bytes = pt.pc.tx_bytes;
	v.tx_wire_bytes = pt.egress.link().wire_bytes_sent();
	return v;
}

} // namespace rxecc::fabric
