// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Switches joined by internal links; see fabric.h.
#include "fabric.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace rxecc::fabric
{

Fabric::Fabric(const Topology &topo) : topo_(topo)
{
	std::string e = validate(topo_);
	if (!e.empty())
		throw std::invalid_argument(e);
	for (size_t i = 0; i < topo_.switches.size(); i++)
		switches_.push_back(std::make_unique<Switch>(topo_.switches[i], topo_.seed + i));
	for (const LinkConfig &l : topo_.links) {
		peer_[{l.sw_a, l.port_a}] = {l.sw_b, l.port_b};
		peer_[{l.sw_b, l.port_b}] = {l.sw_a, l.port_a};
	}
	for (int s = 0; s < num_switches(); s++)
		for (int p = 0; p < switch_at(s).num_ports(); p++)
			if (switch_at(s).config().ports[static_cast<size_t>(p)].uplink.enabled) {
				uplink_of_[{s, p}] = uplinks_.size();
				uplinks_.push_back(std::make_unique<Uplink>(switch_at(s), p));
				uplink_sw_.push_back(s);
			}
}

const Uplink *Fabric::uplink(int sw, int port) const
{
	auto it = uplink_of_.find({sw, port});
	return it == uplink_of_.end() ? nullptr : uplinks_[it->second].get();
}

int Fabric::find_switch(const std::string &name) const
{
	return topo_.find_switch(name);
}

bool Fabric::is_internal(int sw, int port) const
{
	return peer_.count({sw, port}) != 0;
}

void Fabric::on_ingress(int sw, int port, std::vector<uint8_t> frame, Time now)
{
	if (sw < 0 || sw >= num_switches())
		throw std::out_of_range("no switch " + std::to_string(sw));
	advance(now);
	auto up = uplink_of_.find({sw, port});
	if (up != uplink_of_.end()) {
		uplinks_[up->second]->on_frame(std::move(frame), now_);
		collect_uplink(up->second);
		return;
	}
	switch_at(sw).on_ingress(port, std::move(frame), now_);
	collect(sw, now_);
}

Time Fabric::next_event_time() const
{
	if (!outbox_.empty())
		return now_;
	Time t = in_flight_.empty() ? kNever : in_flight_.begin()->first.first;
	for (const auto &u : uplinks_)
		t = std::min(t, u->next_event_time());
	for (const auto &s : switches_)
		t = std::min(t, s->next_event_time());
	return t;
}

std::vector<FabricTransmission> Fabric::poll(Time now)
{
	advance(now);
	return std::exchange(outbox_, {});
}

void Fabric::advance(Time now)
{
	now = std::max(now, now_);
	for (;;) {
		Time t_link = in_flight_.empty() ? kNever : in_flight_.begin()->first.first;
		Time t_up = kNever;
		size_t which_up = 0;
		for (size_t i = 0; i < uplinks_.size(); i++) {
			Time t = uplinks_[i]->next_event_time();
			if (t < t_up) {
				t_up = t;
				which_up = i;
			}
		}
		Time t_sw = kNever;
		int which = -1;
		for (int i = 0; i < num_switches(); i++) {
			Time t = switch_at(i).next_event_time();
			if (t < t_sw) {
				t_sw = t;
				which = i;
			}
		}
		Time t = std::min({t_link, t_up, t_sw});
		if (t == kNever || t > now)
			break;
		if (t_link == t) {
			auto it = in_flight_.begin();
			InFlight f = std::move(it->second);
			in_flight_.erase(it);
			if (f.uplink >= 0) {
				auto i = static_cast<size_t>(f.uplink);
				uplinks_[i]->on_switch_pause(f.pause, t);
				collect_uplink(i);
				continue;
			}
			switch_at(f.sw).on_ingress(f.port, std::move(f.frame), t);
			collect(f.sw, t);
		} else if (t_up == t) {
			uplinks_[which_up]->run_events_at(t);
			collect_uplink(which_up);
		} else {
			collect(which, t);
		}
	}
	now_ = now;
}

// Takes what switch sw sent by now: linked ports feed the peer, the others
// go to the outbox, and the PFC and PAUSE frames of a port with an uplink
// also reach its NIC.
void Fabric::collect(int sw, Time now)
{
	for (Transmission &tx : switch_at(sw).poll(now)) {
		auto it = peer_.find({sw, tx.port});
		if (it == peer_.end()) {
			auto up = uplink_of_.find({sw, tx.port});
			if (up != uplink_of_.end() && tx.priority < 0)
				to_nic(up->second, tx);
			outbox_.push_back({sw, std::move(tx)});
			continue;
		}
		in_flight_.emplace(
			std::make_pair(tx.arrive_ns, seq_++),
			InFlight{it->second.first, it->second.second, std::move(tx.frame)});
	}
}

// A PFC or PAUSE frame the switch sent out of the port of uplink i reaches
// its NIC (as well as the host) when its last bit does.
void Fabric::to_nic(size_t i, const Transmission &tx)
{
	auto pkt = Packet::parse(tx.frame);
	std::optional<PauseRequest> req = pkt ? parse_pause(*pkt) : std::nullopt;
	if (!req)
		return;
	InFlight f{uplink_sw_[i], tx.port, {}, static_cast<int>(i), *req};
	in_flight_.emplace(std::make_pair(tx.arrive_ns, seq_++), std::move(f));
}

// Takes what uplink i produced: frames toward its switch, PFC frames to its
// host.
void Fabric::collect_uplink(size_t i)
{
	Uplink &u = *uplinks_[i];
	int sw = uplink_sw_[i];
	for (UplinkDelivery &d : u.take_deliveries())
		in_flight_.emplace(std::make_pair(d.arrive_ns, seq_++),
		                   InFlight{sw, u.port(), std::move(d.frame)});
	for (Transmission &tx : u.take_to_host())
		outbox_.push_back({sw, std::move(tx)});
}

} // namespace rxecc::fabric
