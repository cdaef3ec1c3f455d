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
};

// the default set ("all")
extern const std::vector<std::string> kKinds;
// malformed INT ACKs to the INT port ("int"); not in the default set
extern const std::vector<std::string> kIntKinds;
// ACKs with a TCD mark echo in BTH byte 4 that the QP's algorithm must
// not see ("tcd"); not in the default set
extern const std::vector<std::string> kTcdKinds;

// Every name --kinds takes: the kinds, the controls int_valid and
// tcd_valid, and the groups int and tcd.
std::vector<std::string> kind_names();

// `kinds` with the groups ("int", "tcd") replaced by their kinds, each
// kind once, in the order of its first appearance.
std::vector<std::string> expand_kinds(const std::vector<std::string> &kinds);

// The datagram of kind `k` (a kind, or one of the controls cnp_valid,
// ack_psn, int_valid, tcd_valid); `reach` tells whether rxe hands it to
// its CNP handler (rxe_rcv drops a packet shorter than its opcode's
// headers, and routes a non-CNP elsewhere) where an ignored CNP is
// counted.
std::vector<std::uint8_t> make(const std::string &k, std::mt19937_64 &rng, const Target &t,
                               bool &reach);

} // namespace rxecc::inject

#endif // RXECC_INJECT_KINDS_H
