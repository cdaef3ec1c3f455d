// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Switches joined by internal links; see fabric.h.
#include "fabric.h"

#include <algorithm>
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
	switch_at(sw).on_ingress(port, std::move(frame), now_);
	collect(sw, now_);
}

Time Fabric::next_event_time() const
{
	if (!outbox_.empty())
		return now_;
	Time t = in_flight_.empty() ? kNever : in_flight_.begin()->first.first;
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
		Time t_sw = kNever;
		int which = -1;
		for (int i = 0; i < num_switches(); i++) {
			Time t = switch_at(i).next_event_time();
			if (t < t_sw) {
				t_sw = t;
				which = i;
			}
		}
		Time t = std::min(t_link, t_sw);
		if (t == kNever || t > now)
			break;
		if (t_link <= t_sw) {
			auto it = in_flight_.begin();
			InFlight f = std::move(it->second);
			in_flight_.erase(it);
			switch_at(f.sw).on_ingress(f.port, std::move(f.frame), t_link);
			collect(f.sw, t_link);
		} else {
			collect(which, t_sw);
		}
	}
	now_ = now;
}

// Takes what switch sw sent by now: linked ports feed the peer, the others
// go to the outbox.
void Fabric::collect(int sw, Time now)
{
	for (Transmission &tx : switch_at(sw).poll(now)) {
		auto it = peer_.find({sw, tx.port});
		if (it == peer_.end()) {
			outbox_.push_back({sw, std::move(tx)});
			continue;
		}
		in_flight_.emplace(
			std::make_pair(tx.arrive_ns, seq_++),
			InFlight{it->second.first, it->second.second, std::move(tx.frame)});
	}
}

} // namespace rxecc::fabric
