// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-inject: send forged RoCEv2 feedback (CNPs, ACKs) at an rxe QP over
// a raw IPv4 socket: from a non-peer address, to a wrong QPN, truncated,
// oversize, with a bad ICRC or garbage fields, ACKs and NAKs from the peer
// with PSNs the QP never sent, (--valid) well-formed CNPs from the peer as a
// control, or (--ack-psn) well-formed ACKs from the peer for one PSN; and
// (--kinds int...) malformed HPCC INT ACKs to the INT port, with
// (--int-valid) well-formed ones as their control; and (--kinds tcd...)
// ACKs with a TCD mark echo that ACC must not see, with (--tcd-valid) one
// it must take as their control; and (--kinds pcn...) PCN CNPs and rate
// reports that PCN must count and ignore, with (--pcn-valid) well-formed
// decrease CNPs as their control; and (--kinds bts...) SFC back-to-sender
// packets (BTS) to --bts-port, malformed or matching none of the host's
// QPs, that the QP's host must count and drop, with (--bts-valid)
// well-formed ones that pause the QP as their control and (--kinds
// bts_over_ceiling) well-formed ones whose pause the host must clamp; a BTS
// is never counted as a CNP; and (--kinds frp...) ACCurate FRP responses
// (0xC1) that a sending QP must count and drop, with (--frp-valid)
// well-formed ones as their control and (--kinds frp_stale) old ones, and
// (--kinds frp_fwd...) malformed forward FRPs (0xC0) that a receiving QP
// must count and not echo, with (--frp-fwd-valid) well-formed ones it
// echoes as their control and (--kinds frp_fwd_stop) STOPs; an FRP is
// never counted as a CNP either (Documentation/rxe-cc/testing.rst).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <netinet/in.h>
#include <random>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "kinds.h"

using rxecc::inject::kBtsKinds;
using rxecc::inject::kFrpFwdKinds;
using rxecc::inject::kFrpKinds;
using rxecc::inject::kIntKinds;
using rxecc::inject::kKinds;
using rxecc::inject::kPcnKinds;
using rxecc::inject::kTcdKinds;
using rxecc::inject::RunState;
using rxecc::inject::Target;

namespace
{

const char *const kKindsHelp = R"(Kinds (--kinds; all from --peer to --qpn at --dst unless said):
  cnp_non_peer         CNP from --spoof, valid ICRC
  cnp_wrong_qpn        CNP to a QPN that does not exist
  cnp_bad_icrc         CNP with a wrong ICRC
  cnp_oversize         CNP 4..256 bytes too long
  cnp_truncated        CNP shorter than its headers
  cnp_garbage          CNP from --spoof, random flags, P_Key, PSN, body, length, ICRC
  ack_non_peer         ACK from --spoof
  nak_non_peer         NAK (sequence, invalid, access, operation) from --spoof
  ack_wrong_qpn        ACK to a QPN that does not exist
  ack_truncated        ACK without its AETH
  ack_bad_icrc         NAK with a wrong ICRC
  ack_bad_psn          ACK with a random PSN (nearly always one the QP has not sent)
  nak_bad_psn          NAK with a random PSN
rxe counts every cnp_* packet as an ignored CNP (cc_cnp_ignored), none of the
ack_* and nak_*: in its CNP handler, or in rxe_rcv, which drops cnp_truncated
(and a cnp_garbage shorter than BTH + 16 + its pad) as too short.
The INT kinds ("int" selects them all; not in the default set; none counted
as a CNP) are ACKs (opcode 0x11, syndrome 0) to --int-port with the 42-byte
INT shim; "PSN in the window" is --psn-base - 1, "a valid 1-hop stack" is
nHop 1 with a rate code B in 1..13 and random slot fields:
  int_hops6            nHop 6..15 (more than the 5 slots), random slots, PSN in the window
  int_truncated        a UDP payload of 0..53 bytes: shorter than the shim and a BTH
  int_code0            1..5 hops, one of them with rate code B = 0, PSN in the window
  int_code_unassigned  1..5 hops, one of them with B = 14 or 15, PSN in the window
  int_wrong_qpn        a valid 1-hop stack to a QPN that does not exist
  int_non_peer         a valid 1-hop stack from --spoof, PSN in the window
  int_bad_icrc         a valid 1-hop stack, PSN in the window, ICRC off by one bit
  int_bad_psn          a valid 1-hop stack, PSN --psn-base + 0x400000..0x7fffff
                       (ahead of anything the QP has sent)
  int_valid            (only with --int-valid or --kinds int_valid) the control: a
                       valid 1-hop stack (B = 11, random TS and txBytes, qLen 0, one
                       path ID per run), PSN in the window: taken by HPCC
The TCD kinds ("tcd" selects them all; not in the default set; none counted
as a CNP) are ACKs (opcode 0x11, syndrome 0, random MSN) to UDP 4791 whose BTH
byte 4 (ICRC-masked) has CAP 0x20 and a mark drawn per packet: BECN with
CE_CNT 1..15 (0x40 | CE_CNT << 1) or UE (0x01); "PSN in the window" is
--psn-base - 1.
The algorithm must see none of their marks; what each is expected to hit in rxe:
  tcd_non_peer         from --spoof, PSN in the window: rxe's address check
  tcd_wrong_qpn        to a QPN that does not exist, PSN in the window: rxe's QP lookup
  tcd_bad_icrc         PSN in the window, ICRC off by one bit: rxe's ICRC check
  tcd_bad_psn          PSN --psn-base + 0x400000..0x7fffff (ahead of anything sent):
                       dropped by the completer (rcvd_unsent_psn, patch 0005, if a
                       WQE is pending); outside the send window: cc_tcd_bad
  tcd_old_psn          PSN --psn-base - 0x400000..0x7fffff (mod 2^24), far behind:
                       ignored by the completer as old; outside the window: cc_tcd_bad
  tcd_valid            (only with --tcd-valid or --kinds tcd_valid) the control: PSN
                       in the window, BECN with CE_CNT 1 (byte 4 0x62): delivered to
                       the algorithm, which takes it if the ACK acknowledges packets
                       (ACC counts marks on an ACK that acknowledges none as bad)
The PCN kinds ("pcn" selects them all; not in the default set) are a decrease CNP
(opcode 0x81, BECN, IP ECN CE) or a rate report (0xC2, not congested: no BECN,
Not-ECT), DSCP 48, to UDP 4791 with a 16-byte PCN payload: RecRate (u32 BE,
Mbit/s), magic 0x5043, flags (DEC = opcode 0x81, RATE_VALID), version 1,
sequence (u32 BE), 4 zero bytes. "Well-formed" is RecRate --pcn-rate,
RATE_VALID and the next sequence number (--pcn-seq, then one up per packet);
"either" is a decrease or a rate report at random. PCN must count and ignore
each; rxe counts every one as a CNP (0x81) or rate report (0xC2):
pcn_truncated in rxe_rcv, which drops it as too short (cc_cnp_ignored or
cc_pcn_inc_ignored by its opcode), the others in the handler of CNPs and rate
reports (those two counters, or cc_pcn_bad for a report PCN refuses):
  pcn_non_peer         a well-formed decrease from --spoof
  pcn_truncated        either, a payload of 0..15 bytes (ICRC over them): rxe_rcv
                       drops it (shorter than BTH + 16) and counts it
  pcn_bad_icrc         either, well-formed, ICRC off by one bit
  pcn_unknown_qp       either, well-formed, to a QPN that does not exist (--qpn with
                       bit 23 flipped, or 0x800000..0xfffffe)
  pcn_rate_zero        a decrease, RATE_VALID and RecRate 0
  pcn_rate_high        a decrease, RecRate --pcn-line + 1..0xffffffff
  pcn_old_seq          a well-formed decrease, sequence --pcn-seq - 1..2^30 (mod 2^32):
                       behind pcn_valid CNPs sent before from --pcn-seq
  pcn_flag_mismatch    0x81 with DEC 0, or 0xC2 with DEC 1
  pcn_bad_version      either, version 0 or 2..255
  pcn_no_rate          a decrease without RATE_VALID (RecRate --pcn-rate)
  pcn_valid            (only with --pcn-valid or --kinds pcn_valid) the control: a
                       well-formed decrease from the peer (with --pcn-inc a rate
                       report 0xC2): taken by PCN, by no other algorithm
The BTS kinds ("bts" selects them all; not in the default set; none counted
as a CNP) are SFC back-to-sender packets (no BTH of their own, no ICRC) for a
data packet the QP sent to its peer: from --peer to --dst, DSCP 48, Not-ECT,
UDP from --sport to --bts-port (checksum 0); the 12-byte BTS header: version 1,
type 0 (PAUSE), the flags C, H, E of --bts-cacheable, --bts-cache-hit and
--bts-egress (and I with --bts-int), the original DS field 0x6a (DSCP 26,
ECT(0)), pause --bts-pause-us, a random qdepth; the original UDP header from
--sport to 4791 (with --bts-int: --int-port), checksum 0; the original BTH, an
RDMA WRITE ONLY (0x0A) to --peer-qpn with a random PSN; then 16 random bytes
or none. Each kind breaks one of these; what the QP's host, running SFC,
counts:
  bts_truncated        a UDP payload of 0..31 bytes: cc_bts_bad
  bts_bad_version      version 0 or 2..15: cc_bts_bad
  bts_bad_type         type 1..15: cc_bts_bad
  bts_non_data         the original opcode an ACK (0x11), a READ response
                       (0x0D..0x10), an atomic ACK (0x12), a CNP (0x81) or any
                       other but a request carrying data: cc_bts_bad
  bts_inner_port       the original dport neither 4791 nor --int-port, flag I
                       clear: cc_bts_bad
  bts_int_mismatch     flag I with the original dport 4791, or the original
                       dport --int-port without I: cc_bts_bad
  bts_unknown_qp       to a peer QPN no rxe QP has (--peer-qpn with bit 23
                       flipped, or 0x800000..0xfffffe): cc_bts_no_qp
  bts_non_peer         from --spoof: cc_bts_no_qp
  bts_wrong_sport      the original (and outer) sport one other than --sport:
                       cc_bts_no_qp
  bts_over_ceiling     (only with --kinds bts_over_ceiling) well-formed, pause
                       0xffffffff or 10000001..0xffffffff us: clamped to the
                       ceiling and taken: cc_bts_rcvd and cc_bts_clamped
  bts_valid            (only with --bts-valid or --kinds bts_valid) the control:
                       well-formed: taken, cc_bts_rcvd
On a QP or device that does not run SFC, a BTS that would be taken counts in
cc_bts_ignored instead. A QP held for its ceiling (sfc_max_us) in a row takes
no BTS for as long again: those count in cc_bts_capped (neither taken nor
clamped). So of a run of bts_over_ceiling only the first is taken, and a run
of bts_valid is all taken only if it holds the QP for less than the ceiling:
(--count - 1) x --gap-us + --bts-pause-us.
The FRP kinds ("frp" selects the bad responses, "frp_fwd" the bad forward
FRPs; not in the default set; none counted as a CNP) are ACCurate flow rate
packets from --peer to --qpn, DSCP 48, Not-ECT, UDP from --sport (if given,
else random) to 4791; BTH: opcode 0xC1 (response) or 0xC0 (forward), P_Key
0xFFFF, byte 4 0, PSN the epoch; the 16-byte ACCETH (byte 0 type << 4 |
flags: RESP 8, SC 4, COUNTED 2; sc_hop 0; the epoch; CR and DR in kb/s;
version 1; src_qpn), big-endian; the ICRC. A well-formed response is type
NORMAL, RESP, src_qpn --qpn; a well-formed forward FRP type NORMAL, no
flags, src_qpn --frp-src-qpn; both epoch --frp-epoch, CR --frp-cr, DR
--frp-dr. Each kind breaks one of these; what rxe counts, the responses at a
QP running ACCurate (an algorithm that sends FRPs; at any other QP those that
would reach it count in cc_frp_ignored):
  frp_truncated        a response with 0..15 ACCETH bytes (ICRC over them):
                       rxe_rcv drops it (shorter than BTH + 16): cc_frp_bad
  frp_bad_icrc         a well-formed response, ICRC off by one bit: cc_frp_ignored
  frp_non_peer         a well-formed response from --spoof: cc_frp_ignored
  frp_unknown_qp       a well-formed response to a QPN no rxe QP has (--qpn with
                       bit 23 flipped, or 0x800000..0xfffffe): cc_frp_ignored
  frp_bad_version      a response, version 0 or 2..255: cc_frp_bad
  frp_no_resp          a 0xC1 without the RESP flag: cc_frp_bad
  frp_bad_type         a response, type 3..15: cc_frp_bad
  frp_rate_zero        a response, CR 0: cc_frp_bad
  frp_rate_high        a response, CR --frp-line + 1..0xffffffff: cc_frp_bad
  frp_dr_zero          a response, DR 0: cc_frp_bad
  frp_stale            (only with --kinds frp_stale) a well-formed response, epoch
                       --frp-epoch - 1..32767 (mod 2^16): refused by ACCurate
                       as stale: cc_frp_bad (stale_rx in its QP state)
  frp_valid            (only with --frp-valid or --kinds frp_valid) the control:
                       a well-formed response: cc_frp_rcvd, taken by ACCurate
and the forward FRPs at a QP that sets CAP (it runs an rxe-cc algorithm with
extensions; at any other QP every one counts in cc_frp_ignored):
  frp_fwd_bad_version  version 0 or 2..255: cc_frp_bad
  frp_fwd_resp_flag    RESP, SC or both set on 0xC0: cc_frp_bad
  frp_fwd_bad_type     type 3..15: cc_frp_bad
  frp_fwd_wrong_src    src_qpn not --frp-src-qpn (--qpn, or any other): cc_frp_bad
  frp_fwd_stop         (only with --kinds frp_fwd_stop) a well-formed STOP, DR 0,
                       COUNTED or not: cc_frp_stops, no response
  frp_fwd_valid        (only with --frp-fwd-valid or --kinds frp_fwd_valid) the
                       control: a well-formed forward NORMAL FRP: echoed to the
                       QP's peer as 0xC1, cc_frp_echoed
Any FRP to a QP not in RTS counts in cc_frp_ignored. ACCurate refuses
(cc_frp_bad) a response with an epoch after the last FRP the QP sent, and one
for a flow that is not active is taken but changes nothing: give --frp-epoch
the QP's epoch (its last response taken) while it sends.)";

bool parse_ip(const std::string &s, std::uint32_t &out)
{
	struct in_addr a;
	if (inet_pton(AF_INET, s.c_str(), &a) != 1)
		return false;
	out = a.s_addr;
	return true;
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{
		"rxecc-inject: send forged RoCEv2 CNPs and ACKs (the int kinds: HPCC INT ACKs, "
		"with the INT shim; the tcd kinds: ACKs with a TCD mark echo; the pcn kinds: PCN "
		"CNPs and rate reports; the bts kinds: SFC back-to-sender packets to --bts-port; "
		"the frp kinds: ACCurate flow rate packets 0xC0 and 0xC1) "
		"at an rxe QP over "
		"a raw IPv4 socket (needs CAP_NET_RAW) and print how many of each kind were sent, "
		"and how many of them rxe counts (\"counted as CNPs\"): as CNPs (opcode 0x81) or "
		"PCN rate reports (0xC2) that it ignores (cc_cnp_ignored, cc_pcn_inc_ignored), "
		"that PCN refuses (cc_pcn_bad) or, the controls, that it takes (never a BTS or "
		"an FRP)."};
	app.footer(kKindsHelp);
	std::string peer_s, spoof_s, dst_s;
	Target t;
	unsigned count = 100;
	std::uint64_t seed = 0;
	bool seed_given = false, valid = false, int_valid = false, tcd_valid = false,
	     pcn_valid = false, bts_valid = false, bts_cacheable = false, bts_cache_hit = false,
	     bts_egress = false, frp_valid = false, frp_fwd_valid = false;
	std::vector<std::string> kinds;
	double gap_us = 200;
	app.add_option("--peer", peer_s,
	               "the QP's peer's IPv4 address (the source of a genuine packet)")
		->required();
	app.add_option("--spoof", spoof_s, "a non-peer IPv4 source address")->required();
	app.add_option("--dst", dst_s, "the QP's own IPv4 address (a GID of its device)")
		->required();
	app.add_option("--qpn", t.qpn, "the target QP's number")
		->required()
		->check(CLI::Range(1U, 0xffffffU));
	app.add_option("--count", count, "packets of each kind (default 100)")
		->check(CLI::Range(1U, 1000000U));
	app.add_option("--seed", seed, "the seed (default: from the clock; printed)")
		->each([&](const std::string &) { seed_given = true; });
	std::vector<std::string> names = rxecc::inject::kind_names();
	std::string kinds_help = "kinds to send, comma-separated (default: all of";
	for (const auto &k : kKinds)
		kinds_help += " " + k;
	kinds_help += "; \"int\": all of";
	for (const auto &k : kIntKinds)
		kinds_help += " " + k;
	kinds_help += "; \"tcd\": all of";
	for (const auto &k : kTcdKinds)
		kinds_help += " " + k;
	kinds_help += "; \"pcn\": all of";
	for (const auto &k : kPcnKinds)
		kinds_help += " " + k;
	kinds_help += "; \"bts\": all of";
	for (const auto &k : kBtsKinds)
		kinds_help += " " + k;
	kinds_help += "; \"frp\": all of";
	for (const auto &k : kFrpKinds)
		kinds_help += " " + k;
	kinds_help += "; \"frp_fwd\": all of";
	for (const auto &k : kFrpFwdKinds)
		kinds_help += " " + k;
	kinds_help += "; also int_valid, tcd_valid, pcn_valid, bts_valid, frp_valid, "
		      "frp_fwd_valid, bts_over_ceiling, frp_stale and frp_fwd_stop; see below)";
	app.add_option("--kinds", kinds, kinds_help)->delimiter(',')->check(CLI::IsMember(names));
	app.add_flag("--valid", valid,
	             "send only well-formed CNPs from the peer (the control: they must act)");
	auto *ack_opt = app.add_option("--ack-psn", t.ack_psn,
	                               "send only well-formed ACKs from the peer for this PSN "
	                               "(one the QP has sent: they must act; one it has not: "
	                               "they must not)")
	                        ->check(CLI::Range(0U, 0xffffffU));
	app.add_flag("--int-valid", int_valid,
	             "send only well-formed INT ACKs from the peer, kind int_valid (the control "
	             "of the int kinds: HPCC must take their stacks)");
	app.add_flag("--tcd-valid", tcd_valid,
	             "send only well-formed ACKs from the peer with a TCD mark (BECN, CE_CNT 1) "
	             "for --psn-base - 1, kind tcd_valid (the control of the tcd kinds: the "
	             "algorithm must take their marks)");
	app.add_flag("--pcn-valid", pcn_valid,
	             "send only well-formed PCN decrease CNPs from the peer (RecRate --pcn-rate, "
	             "sequence --pcn-seq counting up), kind pcn_valid (the control of the pcn "
	             "kinds: PCN must take them)");
	app.add_flag("--pcn-inc", t.pcn_inc,
	             "with --pcn-valid or --kinds pcn_valid: rate reports \"not congested\" "
	             "(0xC2, Not-ECT) instead of decreases");
	app.add_option("--int-port", t.int_port,
	               "the UDP destination port of the int kinds: rdma_rxe's int_port "
	               "(default 4792)")
		->check(CLI::Range(1, 65535));
	app.add_option("--psn-base", t.psn_base,
	               "the QP's next PSN to send, as read just before (rdma resource: sq-psn; "
	               "default 0): the int and tcd kinds' ACKs are for PSN-1, in the QP's "
	               "window, int_bad_psn's and tcd_bad_psn's 0x400000..0x7fffff ahead, "
	               "tcd_old_psn's 0x400000..0x7fffff behind")
		->check(CLI::Range(0U, 0xffffffU));
	app.add_option("--pcn-rate", t.pcn_rate,
	               "the RecRate of the well-formed PCN CNPs in Mbit/s, at most --pcn-line "
	               "(default 50)")
		->check(CLI::Range(1U, 0xfffffffeU));
	app.add_option("--pcn-line", t.pcn_line,
	               "the QP's line rate in Mbit/s: pcn_rate_high's RecRate is above it "
	               "(default 100)")
		->check(CLI::Range(1U, 0xfffffffeU));
	app.add_option("--pcn-seq", t.pcn_seq,
	               "the sequence number of the first PCN packet (default 0); the others "
	               "count up by one, but pcn_old_seq's are 1..2^30 behind it")
		->check(CLI::Range(0U, 0xffffffffU));
	app.add_flag("--bts-valid", bts_valid,
	             "send only well-formed BTS from the peer (pause --bts-pause-us), kind "
	             "bts_valid (the control of the bts kinds: the QP's host must take them, "
	             "cc_bts_rcvd)");
	auto *peer_qpn_opt =
		app.add_option("--peer-qpn", t.peer_qpn,
	                       "the bts kinds: the QP's peer's QPN (the DestQP of the QP's data "
	                       "packets, which a BTS carries back); needed by the bts kinds, "
	                       "the frp_fwd kinds' src_qpn unless --frp-src-qpn is given")
			->check(CLI::Range(1U, 0xffffffU));
	auto *sport_opt = app.add_option("--sport", t.sport,
	                                 "the bts kinds: the QP's own UDP source port (that of "
	                                 "its data packets: rdma resource show qp, "
	                                 "cc_sfc_sport); needed by the bts kinds, the frp "
	                                 "kinds' source port if given (else random)")
	                          ->check(CLI::Range(1, 65535));
	app.add_option("--bts-port", t.bts_port,
	               "the UDP destination port of the bts kinds: rdma_rxe's bts_port (default "
	               "4793); neither 4791 nor --int-port")
		->check(CLI::Range(1, 65535));
	app.add_option("--bts-pause-us", t.bts_pause_us,
	               "the pause of the well-formed BTS in microseconds (default 1000); "
	               "bts_over_ceiling's are above 10000000")
		->check(CLI::Range(0U, 0xffffffffU));
	app.add_flag("--bts-cacheable", bts_cacheable,
	             "the bts kinds: set flag C (cacheable: congestion on a server-facing port)");
	app.add_flag("--bts-cache-hit", bts_cache_hit,
	             "the bts kinds: set flag H (generated from the switch's pause cache)");
	app.add_flag("--bts-egress", bts_egress, "the bts kinds: set flag E (egress-variant BTS)");
	app.add_flag("--bts-int", t.bts_int,
	             "the bts kinds: BTS for an INT-shimmed packet (flag I, the original dport "
	             "--int-port) instead of a plain one (4791); bts_inner_port and "
	             "bts_int_mismatch forge their own");
	app.add_flag("--frp-valid", frp_valid,
	             "send only well-formed FRP responses (0xC1) from the peer (RESP, NORMAL, "
	             "--frp-epoch, --frp-cr, --frp-dr), kind frp_valid (the control of the frp "
	             "kinds: ACCurate must take them, cc_frp_rcvd)");
	app.add_flag("--frp-fwd-valid", frp_fwd_valid,
	             "send only well-formed forward FRPs (0xC0) from the peer (NORMAL, "
	             "src_qpn --frp-src-qpn), kind frp_fwd_valid (the control of the frp_fwd "
	             "kinds: a QP that sets CAP must echo them, cc_frp_echoed)");
	app.add_option("--frp-epoch", t.frp_epoch,
	               "the epoch (and PSN) of the well-formed FRPs (default 0): for responses "
	               "the QP's own, not before the last response it took nor after the last "
	               "FRP it sent; frp_stale's are 1..32767 behind it")
		->check(CLI::Range(0, 65535));
	app.add_option("--frp-cr", t.frp_cr,
	               "the CR of the well-formed FRPs in kb/s, at most --frp-line (default "
	               "50000)")
		->check(CLI::Range(1U, 0xfffffffeU));
	app.add_option("--frp-dr", t.frp_dr,
	               "the DR of the well-formed FRPs in kb/s, at most --frp-line (default "
	               "50000)")
		->check(CLI::Range(1U, 0xfffffffeU));
	app.add_option("--frp-line", t.frp_line,
	               "the QP's line rate in kb/s: frp_rate_high's CR is above it (default "
	               "100000)")
		->check(CLI::Range(1U, 0xfffffffeU));
	auto *frp_src_opt =
		app.add_option("--frp-src-qpn", t.frp_src_qpn,
	                       "the src_qpn of the forward FRPs: the receiving QP's peer's QPN "
	                       "(default --peer-qpn); the frp_fwd kinds need one of the two")
			->check(CLI::Range(1U, 0xffffffU));
	app.add_option("--gap-us", gap_us, "pause between packets in microseconds (default 200)")
		->check(CLI::Range(0.0, 1e6));
	CLI11_PARSE(app, argc, argv);
	if ((valid ? 1 : 0) + (int_valid ? 1 : 0) + (tcd_valid ? 1 : 0) + (pcn_valid ? 1 : 0) +
	            (bts_valid ? 1 : 0) + (frp_valid ? 1 : 0) + (frp_fwd_valid ? 1 : 0) +
	            (*ack_opt ? 1 : 0) + (kinds.empty() ? 0 : 1) >
	    1) {
		std::fprintf(stderr,
		             "rxecc-inject: --valid, --int-valid, --tcd-valid, --pcn-valid, "
		             "--bts-valid, --frp-valid, --frp-fwd-valid, --ack-psn and --kinds "
		             "exclude each other\n");
		return 2;
	}
	if (t.pcn_rate > t.pcn_line) {
		std::fprintf(stderr, "rxecc-inject: --pcn-rate must not exceed --pcn-line\n");
		return 2;
	}
	if (t.frp_cr > t.frp_line || t.frp_dr > t.frp_line) {
		std::fprintf(stderr,
		             "rxecc-inject: --frp-cr and --frp-dr must not exceed --frp-line\n");
		return 2;
	}

	if (!parse_ip(peer_s, t.peer) || !parse_ip(spoof_s, t.spoof) || !parse_ip(dst_s, t.dst)) {
		std::fprintf(stderr,
		             "rxecc-inject: --peer, --spoof and --dst take IPv4 addresses\n");
		return 2;
	}
	if (t.spoof == t.peer) {
		std::fprintf(stderr, "rxecc-inject: --spoof must differ from --peer\n");
		return 2;
	}
	if (!seed_given)
		seed = static_cast<std::uint64_t>(
			std::chrono::steady_clock::now().time_since_epoch().count());
	if (valid) {
		kinds = {"cnp_valid"};
	} else if (int_valid) {
		kinds = {"int_valid"};
	} else if (tcd_valid) {
		kinds = {"tcd_valid"};
	} else if (pcn_valid) {
		kinds = {"pcn_valid"};
	} else if (bts_valid) {
		kinds = {"bts_valid"};
	} else if (frp_valid) {
		kinds = {"frp_valid"};
	} else if (frp_fwd_valid) {
		kinds = {"frp_fwd_valid"};
	} else if (*ack_opt) {
		kinds = {"ack_psn"};
	} else if (kinds.empty()) {
		kinds = kKinds;
	} else {
		// "int", "tcd", "pcn", "bts", "frp" and "frp_fwd" stand for
		// their kinds; each kind once, in order
		kinds = rxecc::inject::expand_kinds(kinds);
	}
	if (std::any_of(kinds.begin(), kinds.end(), rxecc::inject::is_bts_kind)) {
		if (!*peer_qpn_opt || !*sport_opt) {
			std::fprintf(stderr,
			             "rxecc-inject: the bts kinds need --peer-qpn and --sport\n");
			return 2;
		}
		if (t.int_port == rxecc::inject::kRocePort) {
			std::fprintf(
				stderr,
				"rxecc-inject: the bts kinds need an --int-port other than 4791\n");
			return 2;
		}
		if (t.bts_port == rxecc::inject::kRocePort || t.bts_port == t.int_port) {
			std::fprintf(
				stderr,
				"rxecc-inject: --bts-port must differ from 4791 and --int-port\n");
			return 2;
		}
		t.bts_flags = static_cast<std::uint8_t>(
			(bts_cacheable ? rxecc::inject::kBtsCacheable : 0) |
			(bts_cache_hit ? rxecc::inject::kBtsCacheHit : 0) |
			(bts_egress ? rxecc::inject::kBtsEgress : 0));
	}
	if (std::any_of(kinds.begin(), kinds.end(), rxecc::inject::is_frp_fwd_kind) &&
	    !*frp_src_opt) {
		if (!*peer_qpn_opt) {
			std::fprintf(stderr, "rxecc-inject: the frp_fwd kinds need --frp-src-qpn "
			                     "or --peer-qpn\n");
			return 2;
		}
		t.frp_src_qpn = t.peer_qpn;
	}
	std::printf("rxecc-inject: seed %llu\n", static_cast<unsigned long long>(seed));

	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		std::fprintf(stderr, "rxecc-inject: raw socket: %s\n", std::strerror(errno));
		return 1;
	}
	std::mt19937_64 rng(seed);
	// one path for every int_valid stack of the run, so that HPCC takes
	// the first for its reference and runs its window law on the others
	// (from a generator of its own: a seed sends what it sent before)
	t.valid_path_id = static_cast<std::uint16_t>(std::mt19937_64(~seed)() & 0xfff);
	struct sockaddr_in to = {};
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = t.dst;
	RunState run;
	run.pcn_seq = t.pcn_seq;
	unsigned long total = 0, reach_total = 0;
	for (const auto &k : kinds) {
		unsigned long sent = 0, reach_n = 0;
		for (unsigned i = 0; i < count; i++) {
			bool reach = false;
			auto d = rxecc::inject::make(k, rng, t, run, reach);
			if (sendto(fd, d.data(), d.size(), 0,
			           reinterpret_cast<struct sockaddr *>(&to),
			           sizeof(to)) != static_cast<ssize_t>(d.size())) {
				std::fprintf(stderr, "rxecc-inject: send %s: %s\n", k.c_str(),
				             std::strerror(errno));
				close(fd);
				return 1;
			}
			sent++;
			reach_n += reach;
			if (gap_us > 0)
				std::this_thread::sleep_for(
					std::chrono::duration<double, std::micro>(gap_us));
		}
		std::printf("%s: %lu sent, %lu counted as CNPs\n", k.c_str(), sent, reach_n);
		total += sent;
		reach_total += reach_n;
	}
	close(fd);
	std::printf("rxecc-inject: seed %llu: %lu packets, %lu counted as CNPs\n",
	            static_cast<unsigned long long>(seed), total, reach_total);
	return 0;
}
