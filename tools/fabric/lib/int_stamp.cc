// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// HPCC INT shim and stamping; see int_stamp.h.
#include "int_stamp.h"

#include <algorithm>

namespace rxecc::fabric
{

namespace
{

uint16_t be16(const uint8_t *p)
{
	return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = static_cast<uint8_t>(v >> 8);
	p[1] = static_cast<uint8_t>(v & 0xff);
}

uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (size_t i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

void put_be64(uint8_t *p, uint64_t v)
{
	for (size_t i = 0; i < 8; i++)
		p[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
}

uint16_t shim_word0(uint8_t nhop, uint16_t path_id)
{
	return static_cast<uint16_t>(((nhop & 0xfu) << 12) | (path_id & kIntPathMask));
}

} // namespace

uint64_t encode_int_hop(const IntHop &h)
{
	return uint64_t{h.b & 0xfu} << 60 | uint64_t{h.ts & kIntTsMask} << 36 |
	       uint64_t{h.tx_bytes & kIntTxBytesMask} << 16 | h.qlen;
}

IntHop decode_int_hop(uint64_t w)
{
	IntHop h;
	h.b = static_cast<uint8_t>(w >> 60);
	h.ts = static_cast<uint32_t>(w >> 36) & kIntTsMask;
	h.tx_bytes = static_cast<uint32_t>(w >> 16) & kIntTxBytesMask;
	h.qlen = static_cast<uint16_t>(w & 0xffff);
	return h;
}

void encode_int_shim(const IntShim &s, uint8_t *out)
{
	put_be16(out, shim_word0(s.nhop, s.path_id));
	for (size_t i = 0; i < kIntMaxHops; i++)
		put_be64(out + 2 + 8 * i, encode_int_hop(s.hop[i]));
}

IntShim decode_int_shim(const uint8_t *in)
{
	IntShim s;
	uint16_t w = be16(in);
	s.nhop = static_cast<uint8_t>(w >> 12);
	s.path_id = w & kIntPathMask;
	for (size_t i = 0; i < kIntMaxHops; i++)
		s.hop[i] = decode_int_hop(be64(in + 2 + 8 * i));
	return s;
}

bool int_stamps_opcode(uint8_t op)
{
	// RC (0x00-0x1f) and UC (0x20-0x3f): SEND first, middle, last,
	// last with immediate, only, only with immediate (0x00-0x05), RDMA
	// WRITE the same (0x06-0x0b); RC SEND last and only with invalidate.
	if (op < 0x40)
		return (op & 0x1f) <= 0x0b || op == 0x16 || op == 0x17;
	// UD SEND only, only with immediate.
	return op == 0x64 || op == 0x65;
}

IntOutcome stamp_int(Packet &pkt, const IntHop &hop, uint16_t switch_id)
{
	const FrameInfo &fi = pkt.info();
	if (!fi.int_encap)
		return IntOutcome::kNotInt;
	if (!fi.roce)
		return IntOutcome::kTooShort;
	if (!int_stamps_opcode(fi.bth_opcode))
		return IntOutcome::kNotData;
	uint8_t *d = pkt.mutable_bytes().data();
	uint8_t *shim = d + fi.int_offset;
	uint16_t w0 = be16(shim);
	auto nhop = static_cast<uint8_t>(w0 >> 12);
	if (nhop >= kIntMaxHops)
		return IntOutcome::kNoSpace;

	// The shim starts 8 bytes into the UDP header, so its 16-bit words
	// are words of the UDP checksum.
	uint8_t *slot = shim + 2 + 8 * static_cast<size_t>(nhop);
	std::array<uint16_t, 5> before{w0, be16(slot), be16(slot + 2), be16(slot + 4),
	                               be16(slot + 6)};
	put_be16(shim, shim_word0(static_cast<uint8_t>(nhop + 1),
	                          static_cast<uint16_t>((w0 ^ switch_id) & kIntPathMask)));
	put_be64(slot, encode_int_hop(hop));
	std::array<uint16_t, 5> after{be16(shim), be16(slot), be16(slot + 2), be16(slot + 4),
	                              be16(slot + 6)};

	uint8_t *ck = d + fi.l4_offset + 6;
	uint16_t sum = be16(ck);
	if (sum != 0) {
		for (size_t i = 0; i < before.size(); i++)
			sum = checksum_update16(sum, before[i], after[i]);
		put_be16(ck, sum ? sum : 0xffff); // 0 would mean "no checksum"
	}
	return IntOutcome::kStamped;
}

IntStamper::IntStamper(const SwitchConfig &cfg)
    : switch_id_(cfg.int_config.switch_id & kIntPathMask)
{
	for (const PortConfig &p : cfg.ports) {
		code_.push_back(p.int_stamp ? int_rate_code(cfg.int_config.rates, p.rate_bps) : 0);
		counters_.emplace_back();
	}
}

uint8_t IntStamper::rate_code(int port) const
{
	return code_.at(static_cast<size_t>(port));
}

const IntCounters &IntStamper::counters(int port) const
{
	return counters_.at(static_cast<size_t>(port));
}

void IntStamper::on_dequeue(FeatureContext &ctx)
{
	auto port = static_cast<size_t>(ctx.egress_port());
	if (port >= code_.size() || code_[port] == 0)
		return;
	const QueueView &q = ctx.queue();
	IntHop h;
	h.b = code_[port];
	h.ts = static_cast<uint32_t>(q.start_ns & kIntTsMask);
	h.tx_bytes = static_cast<uint32_t>((q.tx_wire_bytes >> kIntTxBytesShift) & kIntTxBytesMask);
	h.qlen =
		static_cast<uint16_t>(std::min<uint64_t>(kIntQlenMax, q.port_bytes / kIntQlenUnit));
	IntCounters &c = counters_[port];
	switch (stamp_int(ctx.packet(), h, switch_id_)) {
	case IntOutcome::kNotInt: break;
	case IntOutcome::kStamped: c.stamped++; break;
	case IntOutcome::kNoSpace: c.no_space++; break;
	case IntOutcome::kTooShort: c.too_short++; break;
	case IntOutcome::kNotData: c.not_data++; break;
	}
}

} // namespace rxecc::fabric
