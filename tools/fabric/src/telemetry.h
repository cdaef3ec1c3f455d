// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Telemetry of a running fabric: periodic samples as CSV rows
// (queues.csv, ports.csv) and the summary as JSON or flat "key value"
// text (summary.json/.flat, and the control socket's stats/flat).  Formats
// are documented in Documentation/rxe-cc/fabric.rst.  Pure formatting: the
// caller owns files, sockets and clocks.
//
// A (switch, port, priority) is reported once it has shown any activity (a
// frame sent or queued, a pause, PFC XOFF in force or a PFC frame, an ECN
// mark or a drop) and from then on in every sample.
//
// The summaries also carry the receive counters of the port backends
// (rx_oversize, rx_csum_fixed, rx_csum_unsupported; 0 for ports without
// one) and, for ports that stamp INT only, the INT counters (int_rate_code,
// int_stamped, int_no_space, int_too_short, int_not_data), and, for queues
// with TCD marking only, its state and counters (tcd_state, tcd_ce, tcd_ue,
// tcd_no, tcd_ce_in, tcd_not_ect, tcd_to_*, tcd_*_us, tcd_on_periods,
// tcd_max_on_us), and, for queues with NP-ECN marking only, its state and
// counters (npecn_paused, npecn_pn, npecn_marked, npecn_paused_exempt,
// npecn_unmarked, npecn_ce_in, npecn_not_ect, npecn_pauses, npecn_resumes),
// which ports.csv and queues.csv leave out to keep their columns.  Switches
// with SFC (sfc.h) also report its counters (SW.sfc.* in the flat form,
// "sfc" of the switch in JSON), and the fabric their totals (sfc.*, "sfc":
// sums, except the *_max fields, which are the largest of a switch).
// Ports with ACCurate (accurate.h) report its C and Ceff, acc_resp_seen,
// their egress CP's counters and gauges (acc_frp_normal, acc_frp_init,
// acc_frp_stop, acc_frp_stale, acc_frp_bad, acc_frp_bad_icrc,
// acc_rate_updates, acc_epoch_resyncs, acc_short_circuits,
// acc_negative_fsr, acc_m_zero, acc_idle, acc_epoch, acc_fsr_kbps and the
// last RRP's acc_last_fsr_kbps, acc_last_m, acc_last_b_kbps, acc_last_nb,
// acc_last_bmax_kbps) and, on host-facing ports with an ingress CP, the
// same as acc_in_*.  Ports with a host uplink (uplink.h) report its
// thresholds, counters and backlog (uplink_xoff, uplink_xon,
// uplink_rx_frames, uplink_rx_bytes, uplink_backlog_bytes,
// uplink_max_backlog_bytes, uplink_xoff_sent, uplink_xon_sent,
// uplink_xon_deferred, uplink_pause_rx); its PFC frames are not in
// pfc_frames_sent, which counts the switches'.
#ifndef RXECC_FABRIC_PROC_TELEMETRY_H
#define RXECC_FABRIC_PROC_TELEMETRY_H

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "fabric.h"
#include "lateness.h"
#include "port_io.h"

namespace rxecc::fabric::proc
{

class Telemetry
{
public:
	// attach[sw][port]: the attachment text shown for each port (the
	// spec of external ports, "link:SW:PORT" of the peer for internal
	// ones).
	Telemetry(const Fabric &f, std::vector<std::vector<std::string>> attach);

	static const char *queues_header(); // with the trailing newline
	static const char *ports_header();

	// Takes a sample at model time t (>= the fabric's last call) and
	// appends its rows to the strings given (either may be null).
	void sample(Time t, std::string *queues_csv, std::string *ports_csv);

	std::string json(Time now, const LatenessHistogram &lat) const;
	std::string flat(Time now, const LatenessHistogram &lat) const;

	// The backend counters of an external port; stats must outlive this.
	void set_port_io(int sw, int port, const PortIoStats *stats);

	uint64_t samples() const { return samples_; }

private:
	using Key = std::tuple<int, int, int>; // sw, port, prio
	bool active(const Key &k, const QueueStatus &st) const;

	const Fabric &f_;
	std::vector<std::vector<std::string>> attach_;
	std::map<std::pair<int, int>, const PortIoStats *> io_;
	// Queues seen active, with their queue_bytes at each sample since.
	std::map<Key, std::vector<uint64_t>> active_;
	uint64_t samples_ = 0;
};

} // namespace rxecc::fabric::proc

#endif
