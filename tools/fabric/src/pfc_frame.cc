// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "pfc_frame.h"

#include <array>

namespace rxecc::fabric::proc
{

std::vector<uint8_t> make_pfc(const Mac &src, uint8_t prio_mask, uint16_t quanta)
{
	std::array<uint16_t, kNumPriorities> times{};
	times.fill(quanta);
	// build_pfc_frame() writes 0 for the priorities not enabled.
	return build_pfc_frame(src, prio_mask, times);
}

std::vector<uint8_t> make_legacy_pause(const Mac &src, uint16_t quanta)
{
	std::vector<uint8_t> f(kPfcFrameBytes, 0);
	for (size_t i = 0; i < 6; i++) {
		f[i] = kPfcDestMac[i];
		f[6 + i] = src[i];
	}
	f[12] = static_cast<uint8_t>(kEthTypeMacControl >> 8);
	f[13] = static_cast<uint8_t>(kEthTypeMacControl & 0xff);
	f[14] = static_cast<uint8_t>(kMacControlPause >> 8);
	f[15] = static_cast<uint8_t>(kMacControlPause & 0xff);
	f[16] = static_cast<uint8_t>(quanta >> 8);
	f[17] = static_cast<uint8_t>(quanta & 0xff);
	return f;
}

} // namespace rxecc::fabric::proc
