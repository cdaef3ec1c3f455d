// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The rxe_cc netlink ABI (include/uapi/rdma/rxe_cc.h) as C++ values: request
// builders and reply decoders.
#ifndef RXECC_MESSAGES_H
#define RXECC_MESSAGES_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport.h"

namespace rxecc
{

struct ParamInfo {
	std::string name;
	std::uint32_t unit = 0; // enum rxe_cc_unit_id
	std::uint32_t def = 0;
	std::uint32_t min = 0;
	std::uint32_t max = 0;
	std::string help;
};

struct StateInfo {
	std::string name;
	std::uint32_t unit = 0;
};

struct AlgoInfo {
	std::string name;
	std::vector<ParamInfo> params;
	std::vector<StateInfo> state;

	const ParamInfo *find_param(std::string_view n) const;
	const StateInfo *find_state(std::string_view n) const;
};

struct NamedValue {
	std::string name;
	std::uint64_t value = 0;

	bool operator==(const NamedValue &o) const { return name == o.name && value == o.value; }
};

// The 802.1p priority of each DSCP (RXE_CC_A_DSCP_PRIO).
using DscpPrio = std::array<std::uint8_t, 64>;

struct DevInfo {
	std::string name;
	std::optional<std::uint32_t> index;
	std::string algo; // the default algorithm for new QPs
	std::vector<NamedValue> params;
	// Names of the parameters the user set (RXE_CC_A_P_USER): they keep
	// their values when the line rate or base RTT changes.
	std::vector<std::string> user_params;
	std::optional<std::uint64_t> line_rate_bps;
	std::optional<std::uint64_t> base_rtt_ns;
	std::optional<std::uint64_t> ecn;
	std::optional<std::uint64_t> ack_every;
	std::optional<std::uint64_t> cnp_dscp;
	std::optional<std::uint64_t> ack_dscp;
	std::optional<DscpPrio> dscp_prio;
	// SFC: whether new QPs take back-to-sender pauses (BTS), the ceiling
	// of a pause and of a run of pauses in us, and how a BTS updates a
	// pause in force (RXE_CC_SFC_MODE_*). Absent from an older kernel.
	std::optional<std::uint64_t> sfc;
	std::optional<std::uint64_t> sfc_max_us;
	std::optional<std::uint64_t> sfc_mode;

	bool user_set(std::string_view param) const;
};

struct QpInfo {
	std::string dev;
	std::uint32_t qpn = 0;
	std::string algo;
	std::vector<NamedValue> params;
	std::optional<std::uint64_t> rate_bps;
	std::optional<std::uint64_t> window_bytes;
	std::vector<NamedValue> state;
	std::vector<NamedValue> stats;
	std::optional<std::uint64_t> sfc; // the QP takes BTS
};

// A QP counter of SFC's (bts_*, pause_*, paused_us) rather than of the
// congestion control.
bool is_sfc_stat(std::string_view name);

struct DevStats {
	std::string dev;
	std::vector<NamedValue> stats;
};

struct RateEvent {
	std::string dev;
	std::uint32_t qpn = 0;
	std::string algo;
	std::optional<std::uint64_t> rate_bps;
	std::optional<std::uint64_t> window_bytes;
	std::optional<std::uint64_t> time_ns;
	std::uint32_t events = 0;
	std::vector<NamedValue> state; // the QP's state values at the event
	std::vector<NamedValue> stats; // and its counters
};

// A DEV_SET request; absent fields are not sent.
struct DevSet {
	std::string dev;
	std::optional<std::string> algo;
	std::vector<NamedValue> params; // values fit in u32
	std::optional<std::uint64_t> line_rate_bps;
	std::optional<std::uint64_t> base_rtt_ns;
	std::optional<bool> ecn;
	std::optional<std::uint32_t> ack_every;
	std::optional<std::uint8_t> cnp_dscp;
	std::optional<std::uint8_t> ack_dscp;
	std::optional<DscpPrio> dscp_prio; // each at most 7
	std::optional<bool> sfc;
	std::optional<std::uint32_t> sfc_max_us;
	std::optional<std::uint8_t> sfc_mode; // RXE_CC_SFC_MODE_*
};

// A QP_SET request: the algorithm with its parameters, SFC, or both.
struct QpSet {
	std::string dev;
	std::uint32_t qpn = 0;
	std::optional<std::string> algo;
	std::vector<NamedValue> params; // only with algo
	std::optional<bool> sfc;
};

constexpr std::uint8_t kAckDscpOwn = 255;

// Request builders.
GenlMsg algo_get_request();
GenlMsg dev_get_request(const std::string &dev, const std::string &algo = {});
GenlMsg dev_set_request(const DevSet &set);
GenlMsg qp_get_request(const std::string &dev, std::optional<std::uint32_t> qpn);
GenlMsg qp_set_request(const QpSet &set);
GenlMsg stats_get_request(const std::string &dev);

// Reply decoders: Status::malformed() when a reply breaks the ABI.
Status decode_algo(const GenlMsg &msg, AlgoInfo &out);
Status decode_dev(const GenlMsg &msg, DevInfo &out);
Status decode_qp(const GenlMsg &msg, QpInfo &out);
Status decode_stats(const GenlMsg &msg, DevStats &out);
Status decode_rate_event(const GenlMsg &msg, RateEvent &out);

} // namespace rxecc

#endif // RXECC_MESSAGES_H
