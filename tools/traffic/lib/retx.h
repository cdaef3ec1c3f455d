// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Retransmissions counted by a QP, from the rxe_cc generic netlink family:
// the per-QP statistic "retx_pkts" (packets retransmitted) of
// RXE_CC_CMD_QP_GET, see include/uapi/rdma/rxe_cc.h. This is the one place
// that knows where the count comes from.
#ifndef RXECC_TRAFFIC_RETX_H
#define RXECC_TRAFFIC_RETX_H

#include <cstdint>
#include <optional>
#include <string>

#include "transport.h"

namespace rxecc::traffic
{

// The name of the per-QP statistic.
extern const char kRetxStat[];

// The count of QP `qpn` of device `dev`, or nullopt if it is unknown: the
// family is not there, the QP is gone, or the kernel has no such
// statistic.
std::optional<std::uint64_t> qp_retx(rxecc::Transport &t, const std::string &dev,
                                     std::uint32_t qpn);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_RETX_H
