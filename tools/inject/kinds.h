// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The kinds of rxecc-inject (Documentation/rxe-cc/testing.rst): which
// there are, and the datagram of each, built with roce.h. No I/O: unit
// tested (tests/inject).
#ifndef RXECC_INJECT_KINDS_H
#define RXECC_INJECT_KINDS_H

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "roce.h"

namespace rxecc::inject
{

// where the packets go, and the PSNs they refer to (addresses in network
// order)
struct Target {
	std::uint32_t peer = 0, spoof = 0, dst = 0, qpn = 0;
	std::uint32_t ack_psn = 0;
	// the QP's next PSN to send: the int and tcd kinds' "in the window"
	// is psn_base - 1
	std::uint32_t psn_base = 0;
	std::uint16_t int_port = kIntPort;
	std::uint16_t valid_path_id = 0;
	// PCN, in Mbit/s: the RecRate of well-formed decrease CNPs and the
	// QP's line rate; the first sequence number of a run (pcn_old_seq's
	// are behind it)
	std::uint32_t pcn_rate = 50, pcn_line = 100, pcn_seq = 0;
	// pcn_valid sends rate reports "not congested" (0xC2) instead of
	// decreases
	bool pcn_inc = false;
	// SFC BTS (specs/sfc.md §3.3-§3.4): the peer's QPN (the original
	// BTH's DestQP), the QP's own UDP source port, the BTS port, the pause
	// of well-formed ones (µs), their C, H and E flags, and whether they
	// are for an INT-shimmed original (flag I, original dport int_port)
	std::uint32_t peer_qpn = 0;
	std::uint16_t sport = 0;
	std::uint16_t bts_port = kBtsPort;
	std::uint32_t bts_pause_us = 1000;
	std::uint8_t bts_flags = 0;
	bool bts_int = false;
	// ACCurate FRPs (specs/accurate.md §3.2): the epoch, CR and DR (kb/s)
	// of well-formed ones, the QP's line rate (kb/s; frp_rate_high's CR is
	// above it), and the src_qpn of forward ones (the receiving QP's
	// peer's QPN); their UDP source port is `sport` if it is not 0, else
	// random
	std::uint16_t frp_epoch = 0;
	std::uint32_t frp_cr = 50000, frp_dr = 50000, frp_line = 100000;
	std::uint32_t frp_src_qpn = 0;
};

// What a packet of a run hands on to the next: the sequence number the
// next PCN packet takes (Target::pcn_seq at the start; every PCN kind but
// pcn_old_seq takes one and counts it up, modulo 2^32).
struct RunState {
	std::uint32_t pcn_seq = 0;
};

// the default set ("all")
extern const std::vector<std::string> kKinds;
// malformed INT ACKs to the INT port ("int"); not in the default set
extern const std::vector<std::string> kIntKinds;
// ACKs with a TCD mark echo in BTH byte 4 that the QP's algorithm must
// not see ("tcd"); not in the default set
extern const std::vector<std::string> kTcdKinds;
// PCN CNPs (0x81) and rate reports (0xC2) that the QP's algorithm must
// count and ignore ("pcn"); not in the default set
extern const std::vector<std::string> kPcnKinds;

// bts_over_ceiling's pauses are above this (10 s, in µs): above any pause
// the kernel takes unclamped
constexpr std::uint32_t kBtsOverCeilingUs = 10000000;

// malformed or misaddressed SFC back-to-sender packets that the QP's host
// must count and drop ("bts"); not in the default set
extern const std::vector<std::string> kBtsKinds;

// ACCurate FRP responses (0xC1) that a sending QP running ACCurate must
// count and drop ("frp"); not in the default set; frp_stale (well-formed
// but old) and the control frp_valid are not among them
extern const std::vector<std::string> kFrpKinds;
// malformed forward FRPs (0xC0) that a receiving QP that sets CAP must
// count and not echo ("frp_fwd"); not in the default set; frp_fwd_stop (a
// well-formed STOP) and the control frp_fwd_valid are not among them
extern const std::vector<std::string> kFrpFwdKinds;

// Every name --kinds takes: the kinds, the controls int_valid, tcd_valid,
// pcn_valid, bts_valid, frp_valid and frp_fwd_valid, bts_over_ceiling,
// frp_stale and frp_fwd_stop, and the groups int, tcd, pcn, bts, frp and
// frp_fwd.
std::vector<std::string> kind_names();

// whether `k` is an FRP kind (frp_*, the forward ones too)
bool is_frp_kind(const std::string &k);

// whether `k` is a forward FRP kind (frp_fwd_*): one that needs
// Target::frp_src_qpn
bool is_frp_fwd_kind(const std::string &k);

// whether `k` is a BTS kind (bts_*): one that needs Target::peer_qpn and
// Target::sport
bool is_bts_kind(const std::string &k);

// `kinds` with the groups ("int", "tcd", "pcn", "bts", "frp", "frp_fwd")
// replaced by their kinds, each kind once, in the order of its first
// appearance.
std::vector<std::string> expand_kinds(const std::vector<std::string> &kinds);

// The datagram of kind `k` (a kind, bts_over_ceiling, or one of the
// controls cnp_valid, ack_psn, int_valid, tcd_valid, pcn_valid,
// bts_valid, frp_valid, frp_fwd_valid); `run` is the state of the run it is part of. `reach` tells whether rxe counts it as a CNP or PCN rate
// report: every packet of opcode 0x81 or 0xC2 with at least a BTH after
// UDP. The handler of CNPs and rate reports counts one it ignores
// (cc_cnp_ignored for 0x81, cc_pcn_inc_ignored for 0xC2), that PCN
// refuses as malformed (cc_pcn_bad) or that it takes (the controls:
// cc_cnp_rcvd, cc_pcn_inc_rcvd); rxe_rcv counts one it drops as
// shorter than its opcode's headers (BTH + 16 + ICRC) in cc_cnp_ignored or
// cc_pcn_inc_ignored by its opcode. rxe routes any other opcode elsewhere.
// A BTS (bts_*) goes to the BTS port and is never counted as a CNP: `reach`
// false. Nor is an FRP (frp_*: opcode 0xC0 or 0xC1, counted in cc_frp_*).
// The frp_* kinds also take frp_stale, frp_valid, frp_fwd_stop and
// frp_fwd_valid.
std::vector<std::uint8_t> make(const std::string &k, std::mt19937_64 &rng, const Target &t,
                               RunState &run, bool &reach);

} // namespace rxecc::inject

#endif // RXECC_INJECT_KINDS_H
