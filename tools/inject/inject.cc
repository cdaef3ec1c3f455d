// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-inject: send forged RoCEv2 feedback (CNPs, ACKs) at an rxe QP over
// a raw IPv4 socket: from a non-peer address, to a wrong QPN, truncated,
// oversize, with a bad ICRC or garbage fields, ACKs and NAKs from the peer
// with PSNs the QP never sent, (--valid) well-formed CNPs from the peer as a
// control, or (--ack-psn) well-formed ACKs from the peer for one PSN; and
// (--kinds int...) malformed HPCC INT ACKs to the INT port, with
// (--int-valid) well-formed ones as their control
// (Documentation/rxe-cc/testing.rst).
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

#include "roce.h"

using rxecc::inject::IntHop;
using rxecc::inject::Packet;

namespace
{

// the default set ("all")
const std::vector<std::string> kKinds = {
	"cnp_non_peer", "cnp_wrong_qpn", "cnp_bad_icrc", "cnp_oversize",  "cnp_truncated",
	"cnp_garbage",  "ack_non_peer",  "nak_non_peer", "ack_wrong_qpn", "ack_truncated",
	"ack_bad_icrc", "ack_bad_psn",   "nak_bad_psn"};
// malformed INT ACKs to the INT port ("int"); not in the default set: they
// are meant for a QP whose algorithm takes INT (HPCC), and their PSNs are
// taken from --psn-base
const std::vector<std::string> kIntKinds = {"int_hops6",           "int_truncated", "int_code0",
                                            "int_code_unassigned", "int_wrong_qpn", "int_non_peer",
                                            "int_bad_icrc",        "int_bad_psn"};

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
The INT kinds ("int" selects them all; not in the default set) are ACKs
(opcode 0x11, syndrome 0) to --int-port with the 42-byte INT shim; "PSN in
the window" is --psn-base - 1, "a valid 1-hop stack" is nHop 1 with a rate
code B in 1..13 and random slot fields:
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
                       path ID per run), PSN in the window: taken by HPCC)";

// where the packets go, and the PSNs they refer to
struct Target {
	std::uint32_t peer = 0, spoof = 0, dst = 0, qpn = 0;
	std::uint32_t ack_psn = 0;
	std::uint32_t psn_base = 0;
	std::uint16_t int_port = rxecc::inject::kIntPort;
	std::uint16_t valid_path_id = 0;
};

bool parse_ip(const std::string &s, std::uint32_t &out)
{
	struct in_addr a;
	if (inet_pton(AF_INET, s.c_str(), &a) != 1)
		return false;
	out = a.s_addr;
	return true;
}

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
	using namespace rxecc::inject;
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

// The datagram of kind `k`; `reach` tells whether rxe hands it to its CNP
// handler (rxe_rcv drops a packet shorter than its opcode's headers, and
// routes a non-CNP elsewhere) where an ignored CNP is counted.
std::vector<std::uint8_t> make(const std::string &k, std::mt19937_64 &rng, const Target &t,
                               bool &reach)
{
	using namespace rxecc::inject;
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
		p.body.resize(rng() % kCnpBodyBytes);
		reach = false;
	} else if (k == "cnp_garbage") {
		// from a non-peer, every field random but the opcode and DestQP
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
		std::size_t pad = (p.bth_flags >> 4) & 3;
		reach = kBthBytes + p.body.size() >= kBthBytes + kCnpBodyBytes + pad;
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

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{
		"rxecc-inject: send forged RoCEv2 CNPs and ACKs (the int kinds: HPCC INT ACKs, "
		"with the INT shim) at an rxe QP over a raw IPv4 socket "
		"(needs CAP_NET_RAW) and print how many of each kind were sent, and how many reach "
		"rxe's CNP handler, where it counts the CNPs it ignores (cc_cnp_ignored)."};
	app.footer(kKindsHelp);
	std::string peer_s, spoof_s, dst_s;
	Target t;
	unsigned count = 100;
	std::uint64_t seed = 0;
	bool seed_given = false, valid = false, int_valid = false;
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
	std::vector<std::string> names = kKinds;
	names.insert(names.end(), kIntKinds.begin(), kIntKinds.end());
	names.push_back("int_valid");
	names.push_back("int");
	std::string kinds_help = "kinds to send, comma-separated (default: all of";
	for (const auto &k : kKinds)
		kinds_help += " " + k;
	kinds_help += "; \"int\": all of";
	for (const auto &k : kIntKinds)
		kinds_help += " " + k;
	kinds_help += "; also int_valid; see below)";
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
	app.add_option("--int-port", t.int_port,
	               "the UDP destination port of the int kinds: rdma_rxe's int_port "
	               "(default 4792)")
		->check(CLI::Range(1, 65535));
	app.add_option("--psn-base", t.psn_base,
	               "the QP's next PSN to send, as read just before (rdma resource: sq-psn; "
	               "default 0): the int kinds' ACKs are for PSN-1, in the QP's window, and "
	               "int_bad_psn's 0x400000..0x7fffff ahead")
		->check(CLI::Range(0U, 0xffffffU));
	app.add_option("--gap-us", gap_us, "pause between packets in microseconds (default 200)")
		->check(CLI::Range(0.0, 1e6));
	CLI11_PARSE(app, argc, argv);
	if ((valid ? 1 : 0) + (int_valid ? 1 : 0) + (*ack_opt ? 1 : 0) + (kinds.empty() ? 0 : 1) >
	    1) {
		std::fprintf(stderr, "rxecc-inject: --valid, --int-valid, --ack-psn and --kinds "
		                     "exclude each other\n");
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
	} else if (*ack_opt) {
		kinds = {"ack_psn"};
	} else if (kinds.empty()) {
		kinds = kKinds;
	} else {
		// "int" stands for the int kinds; each kind once, in order
		std::vector<std::string> ks;
		auto add = [&ks](const std::string &k) {
			if (std::find(ks.begin(), ks.end(), k) == ks.end())
				ks.push_back(k);
		};
		for (const auto &k : kinds) {
			if (k == "int")
				std::for_each(kIntKinds.begin(), kIntKinds.end(), add);
			else
				add(k);
		}
		kinds = ks;
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
	unsigned long total = 0, reach_total = 0;
	for (const auto &k : kinds) {
		unsigned long sent = 0, reach_n = 0;
		for (unsigned i = 0; i < count; i++) {
			bool reach = false;
			auto d = make(k, rng, t, reach);
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
		std::printf("%s: %lu sent, %lu to the CNP handler\n", k.c_str(), sent, reach_n);
		total += sent;
		reach_total += reach_n;
	}
	close(fd);
	std::printf("rxecc-inject: seed %llu: %lu packets, %lu to the CNP handler\n",
	            static_cast<unsigned long long>(seed), total, reach_total);
	return 0;
}
