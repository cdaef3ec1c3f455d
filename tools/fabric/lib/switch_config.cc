// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Defaults and validation of the fabric configuration.
#include "switch_config.h"

#include "dscp_map.h"
#include "units.h"

#include <algorithm>
#include <set>
#include <utility>

namespace rxecc::fabric
{

std::array<uint8_t, 64> SwitchConfig::default_dscp_map()
{
	return dscp::conventional();
}

int SwitchConfig::find_port(const std::string &port_name) const
{
	for (size_t i = 0; i < ports.size(); i++)
		if (ports[i].name == port_name)
			return static_cast<int>(i);
	return -1;
}

int Topology::find_switch(const std::string &name) const
{
	for (size_t i = 0; i < switches.size(); i++)
		if (switches[i].name == name)
			return static_cast<int>(i);
	return -1;
}

uint64_t reserved_headroom(const SwitchConfig &c)
{
	uint64_t sum = 0;
	for (const PortConfig &p : c.ports)
		for (const PfcParams &pfc : p.pfc)
			if (pfc.enabled)
				sum += pfc.headroom;
	return sum;
}

UplinkParams default_uplink_params(uint64_t rate_bps)
{
	UplinkParams u;
	u.enabled = true;
	// Bytes in kUplinkHostReactNs; at most 2 Tbit/s / 8 * 5e6 < 2^64.
	u.xon = std::max<uint64_t>(rate_bps / 8 * kUplinkHostReactNs / 1000000000, kUplinkMinXon);
	u.xoff = 2 * u.xon;
	return u;
}

IntRateTable default_int_rate_table()
{
	constexpr uint64_t M = 1000000, G = 1000 * M;
	return {0,       1 * G,   2500 * M, 5 * G,   10 * G,  25 * G,  40 * G, 50 * G,
	        100 * G, 200 * G, 400 * G,  100 * M, 200 * M, 500 * M, 0,      0};
}

uint8_t int_rate_code(const IntRateTable &t, uint64_t rate_bps)
{
	if (rate_bps == 0)
		return 0;
	for (size_t c = 1; c < kIntRateCodes; c++)
		if (t[c] == rate_bps)
			return static_cast<uint8_t>(c);
	return 0;
}

std::string check_int_rate_code(const IntRateTable &t, unsigned code, uint64_t rate_bps)
{
	std::string where = "INT rate code " + std::to_string(code) + ": ";
	if (code < kIntFirstConfigurableCode || code >= kIntRateCodes)
		return where + "only codes 11..15 can be set (0 is no rate, 1..10 are fixed)";
	if (rate_bps == 0)
		return "";
	if (rate_bps % kIntRateUnitBps)
		return where + units::format_rate_bps(rate_bps) +
		       " is not a whole number of Mbit/s (the kernel's table is in Mbit/s)";
	if (rate_bps < kIntRateUnitBps || rate_bps > kMaxRateBps)
		return where + "rate must be between 1 Mbit/s and 2 Tbit/s";
	for (size_t c = 1; c < kIntRateCodes; c++)
		if (c != code && t[c] == rate_bps)
			return where + units::format_rate_bps(rate_bps) + " is already code " +
			       std::to_string(c);
	return "";
}

std::string validate_int_rate_table(const IntRateTable &t)
{
	IntRateTable fixed = default_int_rate_table();
	for (size_t c = 0; c < kIntFirstConfigurableCode; c++)
		if (t[c] != fixed[c])
			return "INT rate code " + std::to_string(c) + " must be " +
			       (c ? units::format_rate_bps(fixed[c]) : std::string("no rate"));
	for (unsigned c = kIntFirstConfigurableCode; c < kIntRateCodes; c++) {
		std::string e = check_int_rate_code(t, c, t[c]);
		if (!e.empty())
			return e;
	}
	return "";
}

namespace
{

std::string validate_port(const PortConfig &p, const IntConfig &ic)
{
	std::string where = "port " + p.name + ": ";
	if (p.rate_bps < kMinRateBps || p.rate_bps > kMaxRateBps)
		return where + "rate must be between 1 kbit/s and 2 Tbit/s";
	if (p.delay_ns > kMaxDelayNs)
		return where + "delay above 10 s";
	if (p.overhead_bytes > 1024)
		return where + "overhead above 1024 bytes";
	if (p.pause_quanta == 0)
		return where + "pause quanta must be positive (0 is XON)";
	const UplinkParams &up = p.uplink;
	if (up.enabled && (up.xoff == 0 || up.xoff > kMaxBufferBytes))
		return where + "uplink xoff must be between 1 byte and 1 TiB";
	if (up.enabled && up.xon >= up.xoff)
		return where + "uplink xon must be below xoff";
	const AccParams &acc = p.accurate;
	if (acc.enabled && acc.alpha_ppm > kAccMaxAlphaPpm)
		return where + "ACCurate alpha must be below 1";
	if (acc.enabled && acc.k_sc_milli != 0 &&
	    (acc.k_sc_milli < 1000 || acc.k_sc_milli > kAccMaxKScMilli))
		return where + "ACCurate k_sc must be 0 (off) or 1..1000";
	if (p.int_stamp && int_rate_code(ic.rates, p.rate_bps) == 0)
		return where + "INT: its rate " + units::format_rate_bps(p.rate_bps) +
		       " has no INT rate code (codes 1..10 are 1G, 2.5G, 5G, 10G, 25G, 40G, "
		       "50G, 100G, 200G, 400G; set one of 11..15 to it with int_rate_code)";
	for (int prio = 0; prio < kNumPriorities; prio++) {
		std::string wp = where + "priority " + std::to_string(prio) + ": ";
		const RedParams &r = p.red[static_cast<size_t>(prio)];
		if (r.enabled && r.kmin >= r.kmax)
			return wp + "ECN kmin must be below kmax";
		if (r.enabled && r.pmax_q16 > kQ16One)
			return wp + "ECN pmax above 1";
		const TcdParams &t = p.tcd[static_cast<size_t>(prio)];
		if (t.enabled && r.enabled)
			return wp + "both ECN (RED) and TCD marking (one marking mode per queue)";
		if (t.enabled && (t.threshold == 0 || t.threshold > kMaxBufferBytes))
			return wp + "TCD threshold must be between 1 byte and 1 TiB";
		if (t.enabled && t.max_ton_ns > kMaxTcdMaxTonNs)
			return wp + "TCD max_ton above 10 s";
		const NpEcnParams &n = p.npecn[static_cast<size_t>(prio)];
		if (n.enabled && r.enabled)
			return wp +
			       "both ECN (RED) and NP-ECN marking (one marking mode per queue)";
		if (n.enabled && t.enabled)
			return wp + "both TCD and NP-ECN marking (one marking mode per queue)";
		if (n.enabled && n.k > kMaxBufferBytes)
			return wp + "NP-ECN k above 1 TiB";
		const PfcParams &f = p.pfc[static_cast<size_t>(prio)];
		if (f.enabled && f.xoff == 0)
			return wp + "PFC xoff must be positive";
		if (f.enabled && f.xon >= f.xoff)
			return wp + "PFC xon must be below xoff";
	}
	return "";
}

std::string validate_sfc(const SwitchConfig &c)
{
	const SfcParams &f = c.sfc;
	if (f.bts_port == 0 || f.bts_port == kRoceV2Port || f.bts_port == c.int_config.udp_port)
		return "SFC BTS UDP port must be 1..65535, not 4791 nor the INT port";
	if (f.bts_dscp > 63)
		return "SFC BTS DSCP above 63";
	for (const PortConfig &p : c.ports) {
		const SfcPortParams &pp = p.sfc;
		if (!pp.enabled)
			continue;
		std::string where = "port " + p.name + ": SFC ";
		if (!f.enabled)
			return where + "on a port of a switch without SFC";
		if (pp.q_tg >= pp.q_th)
			return where + "q_tg must be below q_th";
		if (pp.q_th > kMaxBufferBytes)
			return where + "q_th above 1 TiB";
	}
	if (!f.enabled)
		return "";
	if (f.prio_mask == 0)
		return "SFC without a priority";
	if (f.variant == SfcVariant::kEgress && f.cache)
		return "SFC cache with the egress variant (the cache is ingress SFC's)";
	if (f.cache_entries == 0 || f.cache_entries > kMaxSfcCacheEntries)
		return "SFC cache_entries must be 1.." + std::to_string(kMaxSfcCacheEntries);
	if (f.bloom_bits < kMinSfcBloomBits || f.bloom_bits > kMaxSfcBloomBits)
		return "SFC bloom_bits must be " + std::to_string(kMinSfcBloomBits) + ".." +
		       std::to_string(kMaxSfcBloomBits);
	if (f.bloom_reset_ns == 0 || f.bloom_reset_ns > kMaxSfcBloomResetNs)
		return "SFC bloom_reset must be above 0 and at most 10 s";
	if (f.max_pause_us == 0 || f.max_pause_us > kMaxSfcPauseUs)
		return "SFC max_pause must be 1 us..10 s";
	return "";
}

} // namespace

std::string validate(const SwitchConfig &c)
{
	std::string where = "switch " + c.name + ": ";
	if (c.ports.empty())
		return where + "no ports";
	if (c.buffer_bytes == 0 || c.buffer_bytes > kMaxBufferBytes)
		return where + "buffer must be between 1 byte and 1 TiB";
	if (c.alpha_q16 == 0 || c.alpha_q16 > kMaxAlphaQ16)
		return where + "alpha must be above 0 and at most 64";
	for (uint8_t prio : c.dscp_to_prio)
		if (prio >= kNumPriorities)
			return where + "DSCP map to a priority above 7";
	for (uint32_t q : c.quantum)
		if (q < kMinQuantum)
			return where + "DWRR quantum below 64 bytes";
	const IntConfig &ic = c.int_config;
	if (ic.udp_port == 0 || ic.udp_port == kRoceV2Port)
		return where + "INT UDP port must be 1..65535 and not 4791";
	if (ic.switch_id > kMaxIntSwitchId)
		return where + "INT switch ID " + std::to_string(ic.switch_id) + " is not 0..4095";
	std::string te = validate_int_rate_table(ic.rates);
	if (!te.empty())
		return where + te;
	std::set<std::string> names;
	for (const PortConfig &p : c.ports) {
		if (!names.insert(p.name).second)
			return where + "duplicate port " + p.name;
		std::string e = validate_port(p, ic);
		if (!e.empty())
			return where + e;
	}
	std::string se = validate_sfc(c);
	if (!se.empty())
		return where + se;
	uint64_t hr = reserved_headroom(c);
	if (hr >= c.buffer_bytes)
		return where + "PFC headroom (" + std::to_string(hr) +
		       " bytes) leaves no shared buffer of " + std::to_string(c.buffer_bytes);
	auto nports = static_cast<int>(c.ports.size());
	for (const IpRoute &r : c.routes) {
		if (r.port < 0 || r.port >= nports)
			return where + "route to a port that does not exist";
		if (r.prefix_len > (r.prefix.v6 ? 128u : 32u))
			return where + "route prefix length too long";
	}
	for (const MacRoute &m : c.macs)
		if (m.port < 0 || m.port >= nports)
			return where + "MAC entry for a port that does not exist";
	return "";
}

bool stamps_int(const SwitchConfig &s)
{
	for (const PortConfig &p : s.ports)
		if (p.int_stamp)
			return true;
	return false;
}

std::string validate(const Topology &t)
{
	std::set<std::string> names;
	for (const SwitchConfig &s : t.switches) {
		if (!names.insert(s.name).second)
			return "duplicate switch " + s.name;
		std::string e = validate(s);
		if (!e.empty())
			return e;
	}
	// The hosts have one INT port and one rate table: so has the fabric.
	for (const SwitchConfig &s : t.switches) {
		const IntConfig &a = t.switches[0].int_config, &b = s.int_config;
		if (b.udp_port != a.udp_port)
			return "switch " + s.name + ": INT UDP port " + std::to_string(b.udp_port) +
			       " differs from switch " + t.switches[0].name + "'s " +
			       std::to_string(a.udp_port);
		if (b.rates != a.rates)
			return "switch " + s.name + ": INT rate codes differ from switch " +
			       t.switches[0].name + "'s";
		// Likewise one BTS port and DSCP (the hosts listen on one).
		const SfcParams &fa = t.switches[0].sfc, &fb = s.sfc;
		if (fb.bts_port != fa.bts_port || fb.bts_dscp != fa.bts_dscp)
			return "switch " + s.name + ": SFC BTS port or DSCP differs from switch " +
			       t.switches[0].name + "'s";
	}
	for (size_t i = 0; i < t.switches.size(); i++)
		for (size_t j = 0; j < i; j++) {
			const SwitchConfig &a = t.switches[j], &b = t.switches[i];
			if (stamps_int(a) && stamps_int(b) &&
			    a.int_config.switch_id == b.int_config.switch_id)
				return "switch " + b.name + ": INT switch ID " +
				       std::to_string(b.int_config.switch_id) + " is also switch " +
				       a.name + "'s";
		}
	std::set<std::pair<int, int>> used;
	auto nsw = static_cast<int>(t.switches.size());
	for (const LinkConfig &l : t.links) {
		if (l.sw_a < 0 || l.sw_a >= nsw || l.sw_b < 0 || l.sw_b >= nsw)
			return "link between switches that do not exist";
		const SwitchConfig &a = t.switches[static_cast<size_t>(l.sw_a)];
		const SwitchConfig &b = t.switches[static_cast<size_t>(l.sw_b)];
		if (l.port_a < 0 || l.port_a >= static_cast<int>(a.ports.size()) || l.port_b < 0 ||
		    l.port_b >= static_cast<int>(b.ports.size()))
			return "link between ports that do not exist";
		if (l.sw_a == l.sw_b && l.port_a == l.port_b)
			return "link from a port to itself";
		if (!used.insert({l.sw_a, l.port_a}).second ||
		    !used.insert({l.sw_b, l.port_b}).second)
			return "port in more than one link";
		for (auto [s, p] : {std::make_pair(&a, l.port_a), std::make_pair(&b, l.port_b)})
			if (s->ports[static_cast<size_t>(p)].uplink.enabled)
				return "switch " + s->name + ": port " +
				       s->ports[static_cast<size_t>(p)].name +
				       ": uplink on a link's end (only host ports have one)";
	}
	return "";
}

} // namespace rxecc::fabric
