// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A flow's rate limit (the schedule's rate=): its QPs are switched to the
// rxe_cc algorithm "fixed", whose parameter rate_kbps paces them, with
// RXE_CC_CMD_QP_SET of the rxe_cc generic netlink family (see
// include/uapi/rdma/rxe_cc.h and Documentation/rxe-cc/traffic.rst).
#ifndef RXECC_TRAFFIC_QPCC_H
#define RXECC_TRAFFIC_QPCC_H

#include <cstdint>
#include <string>

#include "messages.h"
#include "transport.h"

namespace rxecc::traffic
{

// The request that paces QP `qpn` of device `dev` at RATE_BPS (a whole
// number of kbit/s, as the schedule checks).
rxecc::QpSet pace_request(const std::string &dev, std::uint32_t qpn, std::uint64_t rate_bps);

// Sends it; "" on success, else why the kernel or the socket refused it.
std::string pace_qp(rxecc::Transport &t, const std::string &dev, std::uint32_t qpn,
                    std::uint64_t rate_bps);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_QPCC_H
