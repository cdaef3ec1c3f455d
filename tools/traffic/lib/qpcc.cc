// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "qpcc.h"

#include <cstring>
#include <vector>

namespace rxecc::traffic
{

rxecc::QpSet pace_request(const std::string &dev, std::uint32_t qpn, std::uint64_t rate_bps)
{
	rxecc::QpSet s;
	s.dev = dev;
	s.qpn = qpn;
	s.algo = "fixed";
	s.params.push_back({"rate_kbps", rate_bps / 1000});
	return s;
}

std::string pace_qp(rxecc::Transport &t, const std::string &dev, std::uint32_t qpn,
                    std::uint64_t rate_bps)
{
	std::vector<rxecc::GenlMsg> replies;
	const rxecc::Status st =
		t.request(rxecc::qp_set_request(pace_request(dev, qpn, rate_bps)), false, replies);
	if (st.ok())
		return {};
	std::string why;
	switch (st.kind) {
	case rxecc::Status::kNoFamily: return "the kernel has no rxe_cc netlink family";
	case rxecc::Status::kKernel:
		why = std::strerror(st.err);
		if (!st.extack.empty())
			why += " (" + st.extack + ")";
		return why;
	case rxecc::Status::kMalformed: return "malformed reply: " + st.detail;
	default: return st.detail + (st.err ? std::string(": ") + std::strerror(st.err) : "");
	}
}

} // namespace rxecc::traffic
