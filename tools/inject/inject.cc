// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-inject: send forged RoCEv2 feedback (CNPs, ACKs) at an rxe QP over
// a raw IPv4 socket: from a non-peer address, to a wrong QPN, truncated,
// oversize, with a bad ICRC or garbage fields, ACKs and NAKs from the peer
// with PSNs the QP never sent, (--valid) well-formed CNPs from the peer as a
// control, or (--ack-psn) well-formed ACKs from the peer for one PSN
// (Documentation/rxe-cc/testing.rst).
#include <CLI/CLI.hpp>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
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

using rxecc::inject::Packet;

namespace
{

const std::vector<std::string> kKinds = {
	"cnp_non_peer", "cnp_wrong_qpn", "cnp_bad_icrc", "cnp_oversize",  "cnp_truncated",
	"cnp_garbage",  "ack_non_peer",  "nak_non_peer", "ack_wrong_qpn", "ack_truncated",
	"ack_bad_icrc", "ack_bad_psn",   "nak_bad_psn"};

bool parse_ip(const std::string &s, std::uint32_t &out)
{
	struct in_addr a;
	if (inet_pton(AF_INET, s.c_str(), &a) != 1)
		return false;
	out = a.s_addr;
	return true;
}

// The packet of kind `k`; `reach` tells whether rxe hands it to its CNP
// handler (rxe_rcv drops a packet shorter than its opcode's headers, and
// routes a non-CNP elsewhere) where an ignored CNP is counted.
Packet make(const std::string &k, std::mt19937_64 &rng, std::uint32_t peer, std::uint32_t spoof,
            std::uint32_t dst, std::uint32_t qpn, std::uint32_t ack_psn, bool &reach)
{
	using namespace rxecc::inject;
	Packet p;
	p.saddr = peer;
	p.daddr = dst;
	p.dest_qp = qpn;
	p.sport = static_cast<std::uint16_t>(49152 + rng() % 16384);
	p.ip_id = static_cast<std::uint16_t>(1 + rng() % 65535);
	p.body.assign(kCnpBodyBytes, 0);
	reach = true;
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
		p.saddr = spoof;
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
		p.saddr = spoof;
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
		p.saddr = spoof;
	} else if (k == "nak_non_peer") {
		ack(static_cast<std::uint8_t>(
			0x60 + rng() % 4)); // NAK: PSN seq, invalid, access, operation
		p.saddr = spoof;
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
		p.psn = ack_psn;
	} else if (k == "cnp_valid") {
		// the control: a CNP exactly as the peer would send it
	}
	return p;
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{
		"rxecc-inject: send forged RoCEv2 CNPs and ACKs at an rxe QP over a raw IPv4 "
		"socket "
		"(needs CAP_NET_RAW) and print how many of each kind were sent, and how many reach "
		"rxe's CNP handler, where it counts the CNPs it ignores (cc_cnp_ignored)."};
	std::string peer_s, spoof_s, dst_s;
	std::uint32_t qpn = 0;
	unsigned count = 100;
	std::uint64_t seed = 0;
	std::uint32_t ack_psn = 0;
	bool seed_given = false, valid = false;
	std::vector<std::string> kinds;
	double gap_us = 200;
	app.add_option("--peer", peer_s,
	               "the QP's peer's IPv4 address (the source of a genuine packet)")
		->required();
	app.add_option("--spoof", spoof_s, "a non-peer IPv4 source address")->required();
	app.add_option("--dst", dst_s, "the QP's own IPv4 address (a GID of its device)")
		->required();
	app.add_option("--qpn", qpn, "the target QP's number")
		->required()
		->check(CLI::Range(1U, 0xffffffU));
	app.add_option("--count", count, "packets of each kind (default 100)")
		->check(CLI::Range(1U, 1000000U));
	app.add_option("--seed", seed, "the seed (default: from the clock; printed)")
		->each([&](const std::string &) { seed_given = true; });
	std::string kinds_help = "kinds to send, comma-separated (default: all):";
	for (const auto &k : kKinds)
		kinds_help += " " + k;
	app.add_option("--kinds", kinds, kinds_help)->delimiter(',')->check(CLI::IsMember(kKinds));
	app.add_flag("--valid", valid,
	             "send only well-formed CNPs from the peer (the control: they must act)");
	auto *ack_opt = app.add_option("--ack-psn", ack_psn,
	                               "send only well-formed ACKs from the peer for this PSN "
	                               "(one the QP has sent: they must act; one it has not: "
	                               "they must not)")
	                    ->check(CLI::Range(0U, 0xffffffU));
	app.add_option("--gap-us", gap_us, "pause between packets in microseconds (default 200)")
		->check(CLI::Range(0.0, 1e6));
	CLI11_PARSE(app, argc, argv);
	if (*ack_opt && (valid || !kinds.empty())) {
		std::fprintf(stderr, "rxecc-inject: --ack-psn excludes --valid and --kinds\n");
		return 2;
	}

	std::uint32_t peer, spoof, dst;
	if (!parse_ip(peer_s, peer) || !parse_ip(spoof_s, spoof) || !parse_ip(dst_s, dst)) {
		std::fprintf(stderr,
		             "rxecc-inject: --peer, --spoof and --dst take IPv4 addresses\n");
		return 2;
	}
	if (spoof == peer) {
		std::fprintf(stderr, "rxecc-inject: --spoof must differ from --peer\n");
		return 2;
	}
	if (!seed_given)
		seed = static_cast<std::uint64_t>(
			std::chrono::steady_clock::now().time_since_epoch().count());
	if (valid)
		kinds = {"cnp_valid"};
	else if (*ack_opt)
		kinds = {"ack_psn"};
	else if (kinds.empty())
		kinds = kKinds;
	std::printf("rxecc-inject: seed %llu\n", static_cast<unsigned long long>(seed));

	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		std::fprintf(stderr, "rxecc-inject: raw socket: %s\n", std::strerror(errno));
		return 1;
	}
	std::mt19937_64 rng(seed);
	struct sockaddr_in to = {};
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = dst;
	unsigned long total = 0, reach_total = 0;
	for (const auto &k : kinds) {
		unsigned long sent = 0, reach_n = 0;
		for (unsigned i = 0; i < count; i++) {
			bool reach = false;
			auto d = rxecc::inject::build(make(k, rng, peer, spoof, dst, qpn, ack_psn, reach));
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
