// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// `rxecc-fabric send-pfc IFNAME [--prio LIST] [--quanta N] [--legacy]
// [--src MAC] [--count N] [--interval TIME]`: writes PFC (or 802.3x PAUSE)
// frames on an AF_PACKET socket bound to IFNAME; with --interval, one every
// TIME, each reported on stdout with the wall-clock time it was sent.
#ifndef RXECC_FABRIC_PROC_SEND_PFC_H
#define RXECC_FABRIC_PROC_SEND_PFC_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "packet.h"

namespace rxecc::fabric::proc
{

inline constexpr uint64_t kMaxPfcCount = 1000000;
inline constexpr uint64_t kMaxPfcIntervalNs = 60ULL * 1000 * 1000 * 1000;

struct SendPfcOptions {
	std::string ifname;
	uint8_t prio_mask = 1u << 3;
	uint16_t quanta = 0xffff;
	bool legacy = false;
	std::optional<Mac> src; // default: the interface's address
	uint64_t count = 1;
	// ns between frames; 0: back to back, nothing printed
	uint64_t interval_ns = 0;
};

// args are the words after "send-pfc".  False and *err on bad input.
bool parse_send_pfc(const std::vector<std::string> &args, SendPfcOptions &opts, std::string &err);

// The frame the options describe, with src as source address.
std::vector<uint8_t> send_pfc_frame(const SendPfcOptions &opts, const Mac &src);

// Sends the frames; returns the exit status (0, or 1 with a message on
// stderr).
int run_send_pfc(const SendPfcOptions &opts);

} // namespace rxecc::fabric::proc

#endif
