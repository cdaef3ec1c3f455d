// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Helpers of the fabric tests that drive a Switch: running it until it
// is idle, a PFC frame pausing one priority, and the data frames a port
// sent.
#ifndef RXECC_FABRIC_TEST_SWITCH_H
#define RXECC_FABRIC_TEST_SWITCH_H

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "packet.h"
#include "switch_model.h"
#include "test_frames.h"

namespace fabric_test
{

// Polls until nothing is left and returns every transmission.
inline std::vector<rxecc::fabric::Transmission> run_all(rxecc::fabric::Switch &sw)
{
	using rxecc::fabric::kNever;
	std::vector<rxecc::fabric::Transmission> all;
	for (auto t = sw.next_event_time(); t != kNever; t = sw.next_event_time())
		for (rxecc::fabric::Transmission &tx : sw.poll(t))
			all.push_back(std::move(tx));
	return all;
}

// A PFC frame from host 2 that pauses priority prio for quanta.
inline std::vector<uint8_t> pause_frame(int prio, uint16_t quanta)
{
	std::array<uint16_t, rxecc::fabric::kNumPriorities> times{};
	times[static_cast<size_t>(prio)] = quanta;
	return rxecc::fabric::build_pfc_frame(host_mac(2), static_cast<uint8_t>(1u << prio), times);
}

// The data frames (priority 3) sent out of port, in order.
inline std::vector<rxecc::fabric::Transmission>
data_out(const std::vector<rxecc::fabric::Transmission> &all, int port)
{
	std::vector<rxecc::fabric::Transmission> out;
	for (const rxecc::fabric::Transmission &tx : all)
		if (tx.port == port && tx.priority == 3)
			out.push_back(tx);
	return out;
}

} // namespace fabric_test

#endif // RXECC_FABRIC_TEST_SWITCH_H
