// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCurate in the switch; see accurate.h.
#include "accurate.h"

#include <algorithm>

#include "roce_icrc.h"

namespace rxecc::fabric
{

namespace
{

size_t u(int i)
{
	return static_cast<size_t>(i);
}

// Offset of the ACCETH of a plain RoCEv2 packet with room for it and an
// ICRC; 0 if there is none.
size_t acceth_offset(const Packet &p)
{
	std::optional<size_t> icrc = roce_icrc_offset(p.bytes(), p.info());
	size_t off = p.info().bth_offset + kBthBytes;
	if (!icrc || off + kAccEthBytes > *icrc)
		return 0;
	return off;
}

AccCpParams cp_params(const PortConfig &pc)
{
	AccCpParams p;
	p.c_kbps = static_cast<uint32_t>(pc.rate_bps / 1000);
	p.alpha_ppm = pc.accurate.alpha_ppm;
	p.k_sc_milli = pc.accurate.k_sc_milli;
	p.neg_ceff = pc.accurate.neg_ceff;
	p.hysteresis = pc.accurate.hysteresis;
	return p;
}

} // namespace

const char *to_string(FrpCheck c)
{
	switch (c) {
	case FrpCheck::kOk: return "ok";
	case FrpCheck::kTruncated: return "truncated";
	case FrpCheck::kVersion: return "version";
	case FrpCheck::kType: return "type";
	case FrpCheck::kFlags: return "flags";
	case FrpCheck::kRate: return "rate";
	case FrpCheck::kIcrc: return "icrc";
	}
	return "?";
}

FrpCheck check_frp(const Packet &frp, AccEth *out)
{
	size_t off = acceth_offset(frp);
	if (!off)
		return FrpCheck::kTruncated;
	AccEth a = AccEth::parse(frp.bytes().data() + off);
	if (out)
		*out = a;
	if (a.version != kAccVersion)
		return FrpCheck::kVersion;
	if (a.type > kAccTypeStop)
		return FrpCheck::kType;
	if (a.flags & (kAccFlagResp | kAccFlagSc))
		return FrpCheck::kFlags;
	if (a.cr_kbps == 0 || (a.dr_kbps == 0 && a.type != kAccTypeStop))
		return FrpCheck::kRate;
	if (!roce_icrc_ok(frp.bytes(), frp.info()))
		return FrpCheck::kIcrc;
	return FrpCheck::kOk;
}

std::optional<std::vector<uint8_t>> build_frp_sc_response(const Packet &frp, const AccEth &a,
                                                          uint8_t hop)
{
	size_t off = acceth_offset(frp);
	if (!off)
		return std::nullopt;
	const FrameInfo &fi = frp.info();
	std::vector<uint8_t> f(frp.bytes());
	// The frame ends with the ICRC (no Ethernet padding: an FRP is 74
	// bytes and more).
	f.resize(*roce_icrc_offset(f, fi) + kIcrcBytes);
	std::swap_ranges(f.begin(), f.begin() + 6, f.begin() + 6);
	size_t l3 = fi.l3_offset;
	if (fi.ipv4) {
		size_t ihl = (f[l3] & 0x0fu) * 4u;
		std::swap_ranges(f.begin() + static_cast<long>(l3 + 12),
		                 f.begin() + static_cast<long>(l3 + 16),
		                 f.begin() + static_cast<long>(l3 + 16));
		f[l3 + 1] = static_cast<uint8_t>(f[l3 + 1] & 0xfc); // Not-ECT
		f[l3 + 8] = 64;
		f[l3 + 10] = f[l3 + 11] = 0;
		uint16_t cs = ipv4_header_checksum(f.data() + l3, ihl);
		f[l3 + 10] = static_cast<uint8_t>(cs >> 8);
		f[l3 + 11] = static_cast<uint8_t>(cs);
	} else {
		std::swap_ranges(f.begin() + static_cast<long>(l3 + 8),
		                 f.begin() + static_cast<long>(l3 + 24),
		                 f.begin() + static_cast<long>(l3 + 24));
		f[l3 + 1] = static_cast<uint8_t>(f[l3 + 1] & 0xcf); // Not-ECT
		f[l3 + 7] = 64;
	}
	f[fi.l4_offset + 6] = f[fi.l4_offset + 7] = 0; // UDP checksum
	size_t bth = fi.bth_offset;
	f[bth] = kOpcodeFrpResp;
	f[bth + 5] = static_cast<uint8_t>(a.src_qpn >> 16);
	f[bth + 6] = static_cast<uint8_t>(a.src_qpn >> 8);
	f[bth + 7] = static_cast<uint8_t>(a.src_qpn);
	f[bth + 8] = 0; // AckReq, resv7
	AccEth r = a;
	r.flags = kAccFlagResp | kAccFlagSc;
	r.sc_hop = hop;
	r.put(f.data() + off);
	FrameInfo ni;
	if (parse_frame(f.data(), f.size(), ni) != ParseStatus::kOk || !roce_icrc_update(f, ni))
		return std::nullopt;
	return f;
}

uint8_t acc_hop(const SwitchConfig &cfg, int port)
{
	uint8_t h = cfg.ports[u(port)].accurate.hop;
	if (h)
		return h;
	return static_cast<uint8_t>(1 + (16u * cfg.int_config.switch_id + u(port)) % 255);
}

AccurateEngine::AccurateEngine(const SwitchConfig &cfg)
{
	for (size_t i = 0; i < cfg.ports.size(); i++) {
		const PortConfig &pc = cfg.ports[i];
		ports_.emplace_back();
		Port &p = ports_.back();
		p.params = pc.accurate;
		if (!pc.accurate.enabled)
			continue;
		p.hop = acc_hop(cfg, static_cast<int>(i));
		p.egress.emplace(cp_params(pc));
		if (pc.accurate.ingress && pc.server_facing)
			p.ingress.emplace(cp_params(pc));
	}
}

bool AccurateEngine::enabled(int port) const
{
	return port >= 0 && u(port) < ports_.size() && ports_[u(port)].params.enabled;
}

AccurateEngine::Port *AccurateEngine::find(int port)
{
	return enabled(port) ? &ports_[u(port)] : nullptr;
}

AccStatus AccurateEngine::status(int port) const
{
	AccStatus st;
	if (!enabled(port))
		return st;
	const Port &p = ports_[u(port)];
	st.enabled = true;
	st.params = p.params;
	st.hop = p.hop;
	st.resp_seen = p.resp_seen;
	st.egress = p.egress;
	st.ingress = p.ingress;
	return st;
}

void AccurateEngine::on_enqueue(FeatureContext &ctx)
{
	Packet &pkt = ctx.packet();
	const FrameInfo &fi = pkt.info();
	if (!fi.roce || fi.int_encap || fi.dport != kRoceV2Port)
		return;
	Port *out = find(ctx.egress_port());
	if (fi.bth_opcode == kOpcodeFrpResp) {
		if (out)
			out->resp_seen++;
		return;
	}
	if (fi.bth_opcode != kOpcodeFrp)
		return;
	struct Hop {
		AccCp *cp;
		uint8_t id;
	};
	Hop hops[2];
	size_t n = 0;
	if (Port *in = find(ctx.ingress_port()); in && in->ingress)
		hops[n++] = {&*in->ingress, in->hop};
	if (out)
		hops[n++] = {&*out->egress, out->hop};
	if (n == 0)
		return;

	AccEth a;
	FrpCheck chk = check_frp(pkt, &a);
	if (chk != FrpCheck::kOk) {
		for (size_t i = 0; i < n; i++) {
			hops[i].cp->counters().frp_bad++;
			if (chk == FrpCheck::kIcrc)
				hops[i].cp->counters().frp_bad_icrc++;
		}
		return;
	}
	const AccEth in_a = a;
	for (size_t i = 0; i < n; i++) {
		if (hops[i].cp->on_epoch(a.epoch) == AccEpoch::kStale)
			continue;
		if (!hops[i].cp->on_forward(a))
			continue;
		if (auto r = build_frp_sc_response(pkt, a, hops[i].id))
			ctx.emit(std::move(*r));
	}
	if (a.cr_kbps == in_a.cr_kbps && a.dr_kbps == in_a.dr_kbps)
		return;
	std::vector<uint8_t> &b = pkt.mutable_bytes();
	a.put(b.data() + fi.bth_offset + kBthBytes);
	roce_icrc_update(b, fi);
}

} // namespace rxecc::fabric
