// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCurate in the switch (specs/accurate.md §3.2, §4.1, §4.4; specs/wire.md
// §1.8, §7.4 (b), (e)): the congestion points (accurate_cp.h) of the ports
// with ACCurate, run on the forward FRPs that pass them.
//
// At the enqueue of a forward FRP (UDP dport 4791, BTH opcode 0xC0, the
// 16-byte ACCETH right after the BTH, then the ICRC) to egress port e from
// ingress port i:
//   1. i's ingress CP, if i has ACCurate with ingress=on and faces a host:
//      the CP of the link host -> switch (§4.1), run when the FRP arrives
//      from that host;
//   2. e's egress CP, if e has ACCurate: the CP of the link e drives.
// Each CP first rolls its RRP over to the FRP's epoch (accurate_cp.h); an
// FRP of an older epoch is stale at that CP and passes it untouched.
// The CPs rewrite CR and DR in place; if either changed, the ICRC is
// recomputed.  A CP that short-circuits emits a response (below), which
// the switch routes back to the source.  Responses (0xC1) pass untouched
// (counted as resp_seen on an egress port with ACCurate).  Data is not
// looked at.
//
// An invalid forward FRP is counted (frp_bad) at every CP it would have
// met and forwarded untouched, so the endpoints see it too; no CP counts
// it in M or B (§3.2: "count and ignore"; our reading of "ignore").
// Invalid: no room for BTH + ACCETH + ICRC in the UDP payload, version
// other than 1, type other than NORMAL, INIT, STOP, the RESP or SC flag
// set on a forward FRP, CR = 0, DR = 0 on NORMAL or INIT (a STOP carries
// DR = 0), or an ICRC that does not check (also counted as frp_bad_icrc;
// recomputing it would hide a corrupted FRP).  CR or DR above the port's
// C is valid: a new flow starts at its host's line rate, which may exceed
// a slower link's C; the CP classifies it "here" and clamps it.
//
// Short-circuit response: a copy of the FRP after the CP's update with
// Ethernet and IP addresses swapped, IPv4 TTL (IPv6 hop limit) 64, ECN
// Not-ECT (DSCP kept, so it stays in the high class), the UDP ports and
// checksum kept (dport 4791: the sender's rxe listens there, whereas
// swapping the ports as §4.4 step 6 says would send it to the sender's
// source port, where nothing listens), BTH opcode 0xC1, DestQP = the
// ACCETH's src_qpn, AckReq 0, PSN kept, ACCETH flags RESP | SC (COUNTED
// cleared), sc_hop = the port's hop id, and a new ICRC.
//
// The queue an FRP joins is the one its DSCP maps to: the hosts send FRPs
// with DSCP 48, priority 6 in the testbed, served by strict priority;
// responses keep it.
#ifndef RXECC_FABRIC_ACCURATE_H
#define RXECC_FABRIC_ACCURATE_H

#include <cstdint>
#include <optional>
#include <vector>

#include "accurate_cp.h"
#include "feature.h"
#include "packet.h"
#include "switch_config.h"

namespace rxecc::fabric
{

enum class FrpCheck { kOk, kTruncated, kVersion, kType, kFlags, kRate, kIcrc };
const char *to_string(FrpCheck c);

// Validates a forward FRP (opcode 0xC0 on UDP 4791) and decodes its
// ACCETH into *out (when it is there, even if invalid).
FrpCheck check_frp(const Packet &frp, AccEth *out);

// The short-circuit response to frp whose ACCETH after the CP is a;
// nullopt if frp is no plain RoCEv2 packet with an ACCETH.
std::optional<std::vector<uint8_t>> build_frp_sc_response(const Packet &frp, const AccEth &a,
                                                          uint8_t hop);

// The sc_hop of a port's short-circuits: the configured hop, else
// 1 + (16 * switch_id + port) mod 255.
uint8_t acc_hop(const SwitchConfig &cfg, int port);

// A snapshot of one port's ACCurate state.
struct AccStatus {
	bool enabled = false;
	AccParams params;
	uint8_t hop = 0;
	uint64_t resp_seen = 0;
	std::optional<AccCp> egress;
	std::optional<AccCp> ingress; // host-facing ports with ingress=on
};

// The feature, built into every Switch; does nothing on ports without
// AccParams::enabled.
class AccurateEngine : public Feature
{
public:
	// cfg must be valid (validate()).
	explicit AccurateEngine(const SwitchConfig &cfg);

	void on_enqueue(FeatureContext &ctx) override;

	bool enabled(int port) const;
	AccStatus status(int port) const;

private:
	struct Port {
		AccParams params;
		uint8_t hop = 0;
		uint64_t resp_seen = 0;
		std::optional<AccCp> egress;
		std::optional<AccCp> ingress;
	};
	Port *find(int port);

	std::vector<Port> ports_;
};

} // namespace rxecc::fabric

#endif
