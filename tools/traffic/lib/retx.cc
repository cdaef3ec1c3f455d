// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "retx.h"

#include <vector>

#include "messages.h"

namespace rxecc::traffic
{

const char kRetxStat[] = "retx_pkts";

std::optional<std::uint64_t> qp_retx(rxecc::Transport &t, const std::string &dev, std::uint32_t qpn)
{
	std::vector<rxecc::GenlMsg> replies;
	if (!t.request(rxecc::qp_get_request(dev, qpn), false, replies).ok() || replies.size() != 1)
		return std::nullopt;
	rxecc::QpInfo qi;
	if (!rxecc::decode_qp(replies[0], qi).ok() || qi.qpn != qpn)
		return std::nullopt;
	for (const auto &s : qi.stats)
		if (s.name == kRetxStat)
			return s.value;
	return std::nullopt;
}

} // namespace rxecc::traffic
