// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "kinds.h"

#include <algorithm>
#include <cstdint>

namespace rxecc::inject
{

const std::vector<std::string> kKinds = {
	"cnp_non_peer", "cnp_wrong_qpn", "cnp_bad_icrc", "cnp_oversize",  "cnp_truncated",
	"cnp_garbage",  "ack_non_peer",  "nak_non_peer", "ack_wrong_qpn", "ack_truncated",
	"ack_bad_icrc", "ack_bad_psn",   "nak_bad_psn"};
// they are meant for a QP whose algorithm takes INT (HPCC), and their PSNs
// are taken from psn_base
const std::vector<std::string> kIntKinds = {"int_hops6",           "int_truncated", "int_code0",
                                            "int_code_unassigned", "int_wrong_qpn", "int_non_peer",
                                            "int_bad_icrc",        "int_bad_psn"};
// they are meant for a QP whose algorithm takes TCD echoes (ACC), and
// their PSNs are taken from psn_base
const std::vector<std::string> kTcdKinds = {"tcd_non_peer", "tcd_wrong_qpn", "tcd_bad_icrc",
                                            "tcd_bad_psn", "tcd_old_psn"};
// they are meant for a QP whose algorithm takes PCN feedback, which has
// taken pcn_valid CNPs with sequence numbers before pcn_seq
const std::vector<std::string> kPcnKinds = {
	"pcn_non_peer",  "pcn_truncated", "pcn_bad_icrc",      "pcn_unknown_qp",  "pcn_rate_zero",
	"pcn_rate_high", "pcn_old_seq",   "pcn_flag_mismatch", "pcn_bad_version", "pcn_no_rate"};

// they are meant for a QP whose host runs SFC; bts_over_ceiling is not
// one of them (it is well-formed, and taken)
const std::vector<std::string> kBtsKinds = {"bts_truncated",  "bts_bad_version", "bts_bad_type",
                                            "bts_non_data",   "bts_inner_port",  "bts_int_mismatch",
                                            "bts_unknown_qp", "bts_non_peer",    "bts_wrong_sport"};

// they are meant for a QP whose algorithm sends FRPs (ACCurate): the
// responses to them
const std::vector<std::string> kFrpKinds = {
	"frp_truncated", "frp_bad_icrc", "frp_non_peer",  "frp_unknown_qp", "frp_bad_version",
	"frp_no_resp",   "frp_bad_type", "frp_rate_zero", "frp_rate_high",  "frp_dr_zero"};
// they are meant for the peer of such a QP, whose packets carry CAP
const std::vector<std::string> kFrpFwdKinds = {"frp_fwd_bad_version", "frp_fwd_resp_flag",
                                               "frp_fwd_bad_type", "frp_fwd_wrong_src"};

bool is_bts_kind(const std::string &k)
{
	return k.compare(0, 4, "bts_") == 0;
}

bool is_frp_kind(const std::string &k)
{
	return k.compare(0, 4, "frp_") == 0;
}

bool is_frp_fwd_kind(const std::string &k)
{
	return k.compare(0, 8, "frp_fwd_") == 0;
}

std::vector<std::string> kind_names()
{
	std::vector<std::string> names = kKinds;
	names.insert(names.end(), kIntKinds.begin(), kIntKinds.end());
	names.push_back("int_valid");
	names.push_back("int");
	names.insert(names.end(), kTcdKinds.begin(), kTcdKinds.end());
	names.push_back("tcd_valid");
	names.push_back("tcd");
	names.insert(names.end(), kPcnKinds.begin(), kPcnKinds.end());
	names.push_back("pcn_valid");
	names.push_back("pcn");
	names.insert(names.end(), kBtsKinds.begin(), kBtsKinds.end());
	names.push_back("bts_over_ceiling");
	names.push_back("bts_valid");
	names.push_back("bts");
	names.insert(names.end(), kFrpKinds.begin(), kFrpKinds.end());
	names.push_back("frp_stale");
	names.push_back("frp_valid");
	names.push_back("frp");
	names.insert(names.end(), kFrpFwdKinds.begin(), kFrpFwdKinds.end());
	names.push_back("frp_fwd_stop");
	names.push_back("frp_fwd_valid");
	names.push_back("frp_fwd");
	return names;
}

std::vector<std::string> expand_kinds(const std::vector<std::string> &kinds)
{
	std::vector<std::string> ks;
	auto add = [&ks](const std::string &k) {
		if (std::find(ks.begin(), ks.end(), k) == ks.end())
			ks.push_back(k);
	};
	for (const auto &k : kinds) {
		if (k == "int")
			std::for_each(kIntKinds.begin(), kIntKinds.end(), add);
		else if (k == "tcd")
			std::for_each(kTcdKinds.begin(), kTcdKinds.end(), add);
		else if (k == "pcn")
			std::for_each(kPcnKinds.begin(), kPcnKinds.end(), add);
		else if (k == "bts")
			std::for_each(kBtsKinds.begin(), kBtsKinds.end(), add);
		else if (k == "frp")
			std::for_each(kFrpKinds.begin(), kFrpKinds.end(), add);
		else if (k == "frp_fwd")
			std::for_each(kFrpFwdKinds.begin(), kFrpFwdKinds.end(), add);
		else
			add(k);
	}
	return ks;
}

namespace
{

// A hop with a rate code of the HPCC defaults (1..13) and random fields.
IntHop valid_hop(std::mt19937_64 &rng)
{
	IntHop h;
	h.b = static_cast<std::uint8_t>(1 + rng() % 13);
	h.ts = static_cast<std::uint32_t>(rng() & 0xffffff);
	h.tx_bytes = static_cast<std::uint32_t>(rng() & 0xfffff);
	h.qlen = static_cast<std::uint16_t>(rng());
	return h;
}

// The INT ACK of kind `k` (an int_* kind), built on `p`; for int_truncated
// also how many bytes of its UDP payload to keep (`truncate`).
Packet make_int(const std::string &k, std::mt19937_64 &rng, const Target &t, Packet p,
                std::size_t &truncate)
{
	p.dport = t.int_port;
	p.opcode = kOpAck;
	p.fecn_becn = kBthCap; // as the peer's rxe-cc sends it
	p.psn = (t.psn_base - 1) & 0xffffff;
	std::uint32_t msn = static_cast<std::uint32_t>(rng() & 0xffffff);
	p.body = {0, static_cast<std::uint8_t>(msn >> 16), static_cast<std::uint8_t>(msn >> 8),
	          static_cast<std::uint8_t>(msn)};
	auto path_id = static_cast<std::uint16_t>(rng() & 0xfff);
	std::vector<IntHop> hops = {valid_hop(rng)};
	unsigned n_hop = 1;
	if (k == "int_hops6") {
		n_hop = static_cast<unsigned>(6 + rng() % 10);
		hops.clear();
		for (std::size_t i = 0; i < kIntMaxHops; i++) {
			std::uint64_t v = rng();
			hops.push_back({static_cast<std::uint8_t>(v >> 60),
			                static_cast<std::uint32_t>(v >> 36),
			                static_cast<std::uint32_t>(v >> 16),
			                static_cast<std::uint16_t>(v)});
		}
	} else if (k == "int_truncated") {
		// shorter than the shim and a BTH
		truncate = rng() % (kIntShimBytes + kBthBytes);
	} else if (k == "int_code0" || k == "int_code_unassigned") {
		n_hop = static_cast<unsigned>(1 + rng() % kIntMaxHops);
		hops.clear();
		for (unsigned i = 0; i < n_hop; i++)
			hops.push_back(valid_hop(rng));
		hops[rng() % n_hop].b =
			k == "int_code0" ? 0 : static_cast<std::uint8_t>(14 + rng() % 2);
	} else if (k == "int_wrong_qpn") {
		p.dest_qp = static_cast<std::uint32_t>(0x800000 + rng() % 0x7fffff);
	} else if (k == "int_non_peer") {
		p.saddr = t.spoof;
	} else if (k == "int_bad_icrc") {
		p.icrc_valid = false;
	} else if (k == "int_bad_psn") {
		p.psn = static_cast<std::uint32_t>(t.psn_base + 0x400000 + rng() % 0x400000) &
		        0xffffff;
	} else if (k == "int_valid") {
		hops[0].b = 11;
		hops[0].qlen = 0;
		path_id = t.valid_path_id;
	}
	p.shim = int_shim(n_hop, path_id, hops);
	return p;
}

// A TCD mark echo as an rxe-cc peer's ACK carries it: CAP, and BECN
// with a CE count of 1..15 or UE, at random.
std::uint8_t tcd_mark(std::mt19937_64 &rng)
{
	if (rng() % 2 == 0)
		return kBthCap | kTcdUe;
	auto ce_cnt = static_cast<unsigned>(1 + rng() % 15);
	return static_cast<std::uint8_t>(kBthCap | kTcdBecn | ce_cnt << kTcdCeCntShift);
}

// The TCD echo ACK of kind `k` (a tcd_* kind), built on `p`: an ACK
// (syndrome 0, a random MSN) to UDP 4791 with a mark in BTH byte 4, for
// the PSN in the window (psn_base - 1) unless the kind says otherwise.
Packet make_tcd(const std::string &k, std::mt19937_64 &rng, const Target &t, Packet p)
{
	p.opcode = kOpAck;
	p.fecn_becn = tcd_mark(rng);
	p.psn = (t.psn_base - 1) & 0xffffff;
	auto msn = static_cast<std::uint32_t>(rng() & 0xffffff);
	p.body = {0, static_cast<std::uint8_t>(msn >> 16), static_cast<std::uint8_t>(msn >> 8),
	          static_cast<std::uint8_t>(msn)};
	if (k == "tcd_non_peer") {
		p.saddr = t.spoof;
	} else if (k == "tcd_wrong_qpn") {
		p.dest_qp = static_cast<std::uint32_t>(0x800000 + rng() % 0x7fffff);
	} else if (k == "tcd_bad_icrc") {
		p.icrc_valid = false;
	} else if (k == "tcd_bad_psn") {
		// ahead of anything the QP has sent
		p.psn = static_cast<std::uint32_t>(t.psn_base + 0x400000 + rng() % 0x400000) &
		        0xffffff;
	} else if (k == "tcd_old_psn") {
		// far behind the window (its 256 PSNs before psn_base)
		p.psn = static_cast<std::uint32_t>(t.psn_base - 0x400000 - rng() % 0x400000) &
		        0xffffff;
	} else if (k == "tcd_valid") {
		// the control: CE on one packet, as the peer's rxe-cc echoes it
		p.fecn_becn = static_cast<std::uint8_t>(kBthCap | kTcdBecn | 1U << kTcdCeCntShift);
	}
	return p;
}

// A QPN that is not `qpn` and that no rxe QP has (rxe hands out QPNs below
// 0x800000): `qpn` with bit 23 flipped, or one of 0x800000..0xfffffe at
// random (never 0xffffff, the multicast QPN).
std::uint32_t unknown_qpn(std::mt19937_64 &rng, std::uint32_t qpn)
{
	std::uint32_t q = (qpn ^ 0x800000U) & 0xffffff;
	if (rng() % 2 == 0 || q < 0x800000 || q == 0xffffff) {
		do
			q = static_cast<std::uint32_t>(0x800000 + rng() % 0x7fffff);
		while (q == qpn);
	}
	return q;
}

// A RecRate above the line rate: just above it, the largest, up to twice
// the line rate or anywhere up to 2^32 - 1 (line < 2^32 - 1).
std::uint32_t rate_above(std::mt19937_64 &rng, std::uint32_t line)
{
	std::uint64_t lo = std::uint64_t{line} + 1, max = 0xffffffffU;
	switch (rng() % 4) {
	case 0: return static_cast<std::uint32_t>(lo);
	case 1: return 0xffffffffU;
	case 2:
		return static_cast<std::uint32_t>(
			lo + rng() % (std::min(2 * std::uint64_t{line}, max) - lo + 1));
	default: return static_cast<std::uint32_t>(lo + rng() % (max - lo + 1));
	}
}

// The PCN feedback of kind `k` (a pcn_* kind) built on `p`: a decrease CNP
// (opcode 0x81, BECN, IP ECN CE) or a rate report (0xC2, "not congested":
// no BECN, Not-ECT), DSCP 48, whose 16 bytes are a PCN payload with
// RecRate --pcn-rate, DEC as the opcode says, RATE_VALID, version 1 and the
// run's next sequence number, unless the kind says otherwise. Every one
// has a BTH and an ICRC after UDP: rxe counts it (make()'s `reach`).
Packet make_pcn(const std::string &k, std::mt19937_64 &rng, const Target &t, RunState &run,
                Packet p)
{
	// the kinds whose defect is not one of a decrease take either opcode
	bool dec = !(k == "pcn_valid" && t.pcn_inc);
	if (k == "pcn_truncated" || k == "pcn_bad_icrc" || k == "pcn_unknown_qp" ||
	    k == "pcn_flag_mismatch" || k == "pcn_bad_version")
		dec = rng() % 2 == 0;
	p.opcode = dec ? kOpCnp : kOpPcnRate;
	p.fecn_becn = dec ? kBecn : 0;
	p.tos = ds_field(kDscpCnp, dec ? kEcnCe : kEcnNotEct);
	PcnPayload pl;
	pl.rec_rate = t.pcn_rate;
	pl.flags = static_cast<std::uint8_t>((dec ? kPcnDec : 0) | kPcnRateValid);
	if (k == "pcn_old_seq") {
		// 1..2^30 behind --pcn-seq (mod 2^32): just behind, the
		// furthest, or anywhere between
		std::uint32_t back = 0;
		switch (rng() % 4) {
		case 0: break;
		case 1: back = (1U << 30) - 1; break;
		default: back = static_cast<std::uint32_t>(rng() % (1U << 30));
		}
		pl.seq = t.pcn_seq - 1 - back;
	} else {
		pl.seq = run.pcn_seq++;
	}
	std::size_t keep = kCnpBodyBytes;
	if (k == "pcn_non_peer") {
		p.saddr = t.spoof;
	} else if (k == "pcn_truncated") {
		// shorter than BTH + 16: rxe_rcv drops it before the handler
		// and counts it by its opcode (a BTH is there)
		keep = rng() % kCnpBodyBytes;
	} else if (k == "pcn_bad_icrc") {
		p.icrc_valid = false;
	} else if (k == "pcn_unknown_qp") {
		p.dest_qp = unknown_qpn(rng, t.qpn);
	} else if (k == "pcn_rate_zero") {
		pl.rec_rate = 0;
	} else if (k == "pcn_rate_high") {
		pl.rec_rate = rate_above(rng, t.pcn_line);
	} else if (k == "pcn_flag_mismatch") {
		pl.flags ^= kPcnDec;
	} else if (k == "pcn_bad_version") {
		// 0 or 2..255
		auto v = static_cast<std::uint8_t>(rng() % 255);
		pl.version = v == kPcnVersion ? 255 : v;
	} else if (k == "pcn_no_rate") {
		pl.flags &= static_cast<std::uint8_t>(~kPcnRateValid);
	} else if (k == "pcn_valid") {
		// the control: a decrease (or with --pcn-inc a rate report) as
		// the peer's PCN NP would send it
	}
	p.body = pcn_payload(pl);
	p.body.resize(keep);
	return p;
}

// Whether the kernel takes a BTS whose original BTH has opcode `op`: an RC
// request that carries data (SEND, RDMA WRITE, RDMA READ request, the
// atomics, SEND with invalidate).
bool bts_data_opcode(std::uint8_t op)
{
	return op <= 0x0C || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
}

// An opcode the kernel must not take from a BTS: an ACK, a READ response,
// an atomic ACK, a CNP, or any other that is not an RC request carrying
// data.
std::uint8_t bts_non_data_opcode(std::mt19937_64 &rng)
{
	switch (rng() % 6) {
	case 0: return kOpAck;
	case 1: return static_cast<std::uint8_t>(0x0D + rng() % 4); // READ response
	case 2: return 0x12;                                        // ATOMIC ACKNOWLEDGE
	case 3: return kOpCnp;
	default: {
		std::uint8_t op;
		do
			op = static_cast<std::uint8_t>(rng());
		while (bts_data_opcode(op));
		return op;
	}
	}
}

// A port other than `a` and `b`.
std::uint16_t port_but(std::mt19937_64 &rng, std::uint16_t a, std::uint16_t b)
{
	std::uint16_t p;
	do
		p = static_cast<std::uint16_t>(rng());
	while (p == a || p == b);
	return p;
}

// The BTS of kind `k` (a bts_* kind) for a data packet the QP sent to its
// peer: from the peer (the data receiver) to the QP's host, DSCP 48,
// Not-ECT, from --sport to --bts-port; version 1, type PAUSE, the flags of
// --bts-cacheable, --bts-cache-hit and --bts-egress (and I with --bts-int),
// the original DS field 0x6a (DSCP 26, ECT(0)), pause --bts-pause-us, a
// random qdepth; the original UDP header from --sport to 4791 (--int-port
// with I), its length that of a WRITE ONLY of 4..4096 bytes, checksum 0;
// the original BTH of an RDMA WRITE ONLY to --peer-qpn with a random PSN;
// 16 random bytes after it (its RETH) or none, at random; unless the kind
// says otherwise. `truncate` is how many bytes of the UDP payload to keep
// (SIZE_MAX: all).
Bts make_bts(const std::string &k, std::mt19937_64 &rng, const Target &t, std::size_t &truncate)
{
	Bts b;
	b.saddr = t.peer;
	b.daddr = t.dst;
	b.sport = t.sport;
	b.dport = t.bts_port;
	b.ip_id = static_cast<std::uint16_t>(1 + rng() % 65535);
	b.flags = static_cast<std::uint8_t>(t.bts_flags &
	                                    (kBtsCacheable | kBtsCacheHit | kBtsEgress));
	if (t.bts_int)
		b.flags |= kBtsInt;
	b.pause_us = t.bts_pause_us;
	b.qdepth = static_cast<std::uint32_t>(rng());
	b.inner_sport = t.sport;
	b.inner_dport = t.bts_int ? t.int_port : kRocePort;
	auto payload = static_cast<std::size_t>(4 * (1 + rng() % 1024));
	b.inner_len = static_cast<std::uint16_t>(kUdpBytes + (t.bts_int ? kIntShimBytes : 0) +
	                                         kBthBytes + kRethBytes + payload + kIcrcBytes);
	b.dest_qp = t.peer_qpn;
	b.psn = static_cast<std::uint32_t>(rng() & 0xffffff);
	if (rng() % 2 == 0) {
		b.extra.resize(kBtsExtraBytes);
		for (auto &x : b.extra)
			x = static_cast<std::uint8_t>(rng());
	}
	if (k == "bts_truncated") {
		// shorter than the BTS header, the original UDP header and BTH
		truncate = rng() % kBtsMinBytes;
	} else if (k == "bts_bad_version") {
		// 0 or 2..15
		auto v = static_cast<std::uint8_t>(rng() % 15);
		b.version = v == kBtsVersion ? 15 : v;
	} else if (k == "bts_bad_type") {
		b.type = static_cast<std::uint8_t>(1 + rng() % 15);
	} else if (k == "bts_non_data") {
		b.opcode = bts_non_data_opcode(rng);
	} else if (k == "bts_inner_port") {
		b.flags &= static_cast<std::uint8_t>(~kBtsInt);
		b.inner_dport = port_but(rng, kRocePort, t.int_port);
	} else if (k == "bts_int_mismatch") {
		// I without the INT port, or the INT port without I
		if (rng() % 2 == 0) {
			b.flags |= kBtsInt;
			b.inner_dport = kRocePort;
		} else {
			b.flags &= static_cast<std::uint8_t>(~kBtsInt);
			b.inner_dport = t.int_port;
		}
	} else if (k == "bts_unknown_qp") {
		b.dest_qp = unknown_qpn(rng, t.peer_qpn);
	} else if (k == "bts_non_peer") {
		b.saddr = t.spoof;
	} else if (k == "bts_wrong_sport") {
		// another flow's port, in rxe's range 0xC000..0xFFFF or
		// anywhere; the outer sport is the original's too
		std::uint16_t p;
		do
			p = static_cast<std::uint16_t>(rng() % 2 ? 0xC000 | rng() : rng());
		while (p == t.sport);
		b.sport = b.inner_sport = p;
	} else if (k == "bts_over_ceiling") {
		// well-formed: the kernel clamps the pause and takes it
		b.pause_us = rng() % 2 ? 0xffffffffU
		                       : static_cast<std::uint32_t>(
						 kBtsOverCeilingUs + 1 +
						 rng() % (0xffffffffU - kBtsOverCeilingUs));
	} else if (k == "bts_valid") {
		// the control: as a switch would send it
	}
	return b;
}

// A 4-bit type that is none of NORMAL, INIT and STOP: 3..15.
std::uint8_t frp_bad_type(std::mt19937_64 &rng)
{
	return static_cast<std::uint8_t>(kFrpStop + 1 + rng() % (15 - kFrpStop));
}

// A version other than kFrpVersion: 0 or 2..255.
std::uint8_t frp_bad_version(std::mt19937_64 &rng)
{
	auto v = static_cast<std::uint8_t>(rng() % 255);
	return v == kFrpVersion ? 255 : v;
}

// The FRP of kind `k` (an frp_* kind) built on `p`, to --qpn from the
// peer, DSCP 48, Not-ECT, BTH byte 4 0, from --sport if it was given: a
// response (0xC1; RESP, type NORMAL, src_qpn --qpn, whose FRP the QP
// sent) or, for the frp_fwd_* kinds, a forward FRP (0xC0; no flags, type
// NORMAL, src_qpn --frp-src-qpn), with sc_hop 0, the epoch --frp-epoch
// (also the PSN), CR --frp-cr, DR --frp-dr and version 1, unless the kind
// says otherwise.
Packet make_frp(const std::string &k, std::mt19937_64 &rng, const Target &t, Packet p)
{
	bool fwd = is_frp_fwd_kind(k);
	p.opcode = fwd ? kOpFrp : kOpFrpResp;
	p.fecn_becn = 0;
	p.tos = ds_field(kDscpCnp, kEcnNotEct);
	if (t.sport != 0)
		p.sport = t.sport;
	Frp f;
	f.flags = fwd ? 0 : kFrpResp;
	f.epoch = t.frp_epoch;
	f.cr_kbps = t.frp_cr;
	f.dr_kbps = t.frp_dr;
	f.src_qpn = fwd ? t.frp_src_qpn : t.qpn;
	std::size_t keep = kFrpBodyBytes;
	if (k == "frp_truncated") {
		// 0..15 ACCETH bytes, the ICRC over them: shorter than BTH +
		// 16 + ICRC, but a whole BTH, so rxe_rcv drops it and counts
		// it by its opcode
		keep = rng() % kFrpBodyBytes;
	} else if (k == "frp_bad_icrc") {
		p.icrc_valid = false;
	} else if (k == "frp_non_peer") {
		p.saddr = t.spoof;
	} else if (k == "frp_unknown_qp") {
		p.dest_qp = unknown_qpn(rng, t.qpn);
	} else if (k == "frp_bad_version" || k == "frp_fwd_bad_version") {
		f.version = frp_bad_version(rng);
	} else if (k == "frp_no_resp") {
		f.flags &= static_cast<std::uint8_t>(~kFrpResp);
	} else if (k == "frp_bad_type" || k == "frp_fwd_bad_type") {
		f.type = frp_bad_type(rng);
	} else if (k == "frp_rate_zero") {
		f.cr_kbps = 0;
	} else if (k == "frp_rate_high") {
		f.cr_kbps = rate_above(rng, t.frp_line);
	} else if (k == "frp_dr_zero") {
		f.dr_kbps = 0;
	} else if (k == "frp_stale") {
		// well-formed, 1..32767 behind --frp-epoch (mod 2^16): just
		// behind, the furthest, or anywhere between; older in u16
		// serial arithmetic
		std::uint32_t back = 1;
		switch (rng() % 4) {
		case 0: break;
		case 1: back = 0x7fff; break;
		default: back = static_cast<std::uint32_t>(1 + rng() % 0x7fff);
		}
		f.epoch = static_cast<std::uint16_t>(t.frp_epoch - back);
	} else if (k == "frp_fwd_resp_flag") {
		// RESP, SC or both
		f.flags = static_cast<std::uint8_t>((1 + rng() % 3) << 2);
	} else if (k == "frp_fwd_wrong_src") {
		// the receiving QP's own QPN, or any other 24-bit QPN
		std::uint32_t q = t.qpn;
		if (q == t.frp_src_qpn || rng() % 2 == 0) {
			do
				q = static_cast<std::uint32_t>(rng() & 0xffffff);
			while (q == t.frp_src_qpn);
		}
		f.src_qpn = q;
	} else if (k == "frp_fwd_stop") {
		// well-formed, as the sender sends it when the flow goes idle:
		// DR 0, COUNTED or not
		f.type = kFrpStop;
		f.dr_kbps = 0;
		if (rng() % 2 == 0)
			f.flags |= kFrpCounted;
	} else if (k == "frp_valid" || k == "frp_fwd_valid") {
		// the controls: as the receiver echoes it, as the sender sends it
	}
	p.psn = f.epoch;
	p.body = frp_body(f);
	p.body.resize(keep);
	return p;
}

} // namespace

std::vector<std::uint8_t> make(const std::string &k, std::mt19937_64 &rng, const Target &t,
                               RunState &run, bool &reach)
{
	Packet p;
	p.saddr = t.peer;
	p.daddr = t.dst;
	p.dest_qp = t.qpn;
	p.sport = static_cast<std::uint16_t>(49152 + rng() % 16384);
	p.ip_id = static_cast<std::uint16_t>(1 + rng() % 65535);
	p.body.assign(kCnpBodyBytes, 0);
	reach = true;
	if (k.compare(0, 4, "int_") == 0) {
		reach = false;
		std::size_t truncate = SIZE_MAX;
		auto d = build(make_int(k, rng, t, p, truncate));
		return truncate == SIZE_MAX ? d : truncate_udp(d, truncate);
	}
	if (k.compare(0, 4, "tcd_") == 0) {
		reach = false;
		return build(make_tcd(k, rng, t, p));
	}
	if (k.compare(0, 4, "pcn_") == 0)
		return build(make_pcn(k, rng, t, run, p));
	if (is_frp_kind(k)) {
		reach = false;
		return build(make_frp(k, rng, t, p));
	}
	if (is_bts_kind(k)) {
		reach = false;
		std::size_t truncate = SIZE_MAX;
		auto d = build_bts(make_bts(k, rng, t, truncate));
		return truncate == SIZE_MAX ? d : truncate_udp(d, truncate);
	}
	auto other_qpn = [&] { return static_cast<std::uint32_t>(0x800000 + rng() % 0x7fffff); };
	auto ack = [&](std::uint8_t syndrome) {
		p.opcode = kOpAck;
		p.fecn_becn = 0;
		p.psn = static_cast<std::uint32_t>(rng() & 0xffffff);
		std::uint32_t msn = static_cast<std::uint32_t>(rng() & 0xffffff);
		p.body = {syndrome, static_cast<std::uint8_t>(msn >> 16),
		          static_cast<std::uint8_t>(msn >> 8), static_cast<std::uint8_t>(msn)};
		reach = false;
	};
	if (k == "cnp_non_peer") {
		p.saddr = t.spoof;
	} else if (k == "cnp_wrong_qpn") {
		p.dest_qp = other_qpn();
	} else if (k == "cnp_bad_icrc") {
		p.icrc_valid = false;
	} else if (k == "cnp_oversize") {
		p.body.resize(kCnpBodyBytes + 4 * (1 + rng() % 64),
		              static_cast<std::uint8_t>(rng()));
	} else if (k == "cnp_truncated") {
		// a BTH and the ICRC with 0..15 bytes between: rxe_rcv drops it
		// as too short and counts it
		p.body.resize(rng() % kCnpBodyBytes);
	} else if (k == "cnp_garbage") {
		// from a non-peer, every field random but the opcode and DestQP;
		// a BTH and the ICRC with 0..47 bytes between, so rxe counts it:
		// its handler, or rxe_rcv if it is shorter than BTH + 16 + the
		// pad its BTH claims
		p.saddr = t.spoof;
		p.bth_flags = static_cast<std::uint8_t>(rng());
		p.pkey = static_cast<std::uint16_t>(rng());
		p.fecn_becn = static_cast<std::uint8_t>(rng());
		p.ackreq = static_cast<std::uint8_t>(rng());
		p.psn = static_cast<std::uint32_t>(rng() & 0xffffff);
		p.body.resize(rng() % 48);
		for (auto &b : p.body)
			b = static_cast<std::uint8_t>(rng());
		p.icrc_valid = rng() % 2;
	} else if (k == "ack_non_peer") {
		ack(0);
		p.saddr = t.spoof;
	} else if (k == "nak_non_peer") {
		ack(static_cast<std::uint8_t>(
			0x60 + rng() % 4)); // NAK: PSN seq, invalid, access, operation
		p.saddr = t.spoof;
	} else if (k == "ack_wrong_qpn") {
		ack(0);
		p.dest_qp = other_qpn();
	} else if (k == "ack_truncated") {
		ack(0);
		p.body.resize(rng() % 4);
	} else if (k == "ack_bad_icrc") {
		ack(static_cast<std::uint8_t>(0x60 + rng() % 4));
		p.icrc_valid = false;
	} else if (k == "ack_bad_psn") {
		// from the peer to the QP, a PSN the QP has not sent (nearly
		// every random one: its window is a few hundred PSNs of 2^24)
		ack(0);
	} else if (k == "nak_bad_psn") {
		// the same with a NAK: a PSN sequence error would make the
		// requester go back to that PSN
		ack(static_cast<std::uint8_t>(0x60 + rng() % 4));
	} else if (k == "ack_psn") {
		// a well-formed ACK from the peer for the PSN of --ack-psn
		ack(0);
		p.psn = t.ack_psn;
	} else if (k == "cnp_valid") {
		// the control: a CNP exactly as the peer would send it
	}
	return build(p);
}

} // namespace rxecc::inject
