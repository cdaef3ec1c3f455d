// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// MAC control frames written by `rxecc-fabric send-pfc` (specs/wire.md §5):
// 802.1Qbb PFC (opcode 0x0101, enable vector, eight times) or legacy 802.3x
// PAUSE (opcode 0x0001, one time), 60 bytes without FCS, to
// 01:80:c2:00:00:01.
#ifndef RXECC_FABRIC_PROC_PFC_FRAME_H
#define RXECC_FABRIC_PROC_PFC_FRAME_H

#include <cstdint>
#include <vector>

#include "packet.h"

namespace rxecc::fabric::proc
{

// PFC: every priority in prio_mask gets quanta (0 = XON), the others 0.
std::vector<uint8_t> make_pfc(const Mac &src, uint8_t prio_mask, uint16_t quanta);
// 802.3x PAUSE of all traffic for quanta (0 = resume).
std::vector<uint8_t> make_legacy_pause(const Mac &src, uint16_t quanta);

} // namespace rxecc::fabric::proc

#endif
