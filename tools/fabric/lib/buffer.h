// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared buffer of a switch, admission, and the PFC decisions that depend on
// it.
//
// The buffer of B bytes is split into the headroom reserved by every
// PFC-enabled ingress (port, priority) and a shared pool of the rest.  A
// packet holds its bytes from admission until its transmission starts.  It
// is counted against its egress queue (for scheduling, ECN and the dynamic
// threshold) and against its ingress (port, priority) (for PFC).
//
// Lossy packets (no PFC on their ingress priority) are admitted iff
//     len <= free  and  q < alpha * free
// where free is the unused shared pool and q the bytes of their egress
// queue (the dynamic threshold of Choudhury and Hahne: one congested queue
// settles at alpha / (1 + alpha) of the pool).  Otherwise they are dropped.
//
// Lossless packets are admitted by their ingress account, which has a
// shared part and a headroom part:
//     headroom == 0 and shared + len <= xoff and len <= free -> shared
//     else headroom + len <= headroom limit                   -> headroom
//     else                                                    -> drop
// Bytes leave the headroom part first.  XOFF is due when the account
// reaches xoff or uses headroom (which also covers a full shared pool);
// XON is due when it has no headroom bytes and has fallen to xon.
#ifndef RXECC_FABRIC_BUFFER_H
#define RXECC_FABRIC_BUFFER_H

#include <cstdint>

#include "packet.h"
#include "switch_config.h"

namespace rxecc::fabric
{

enum class DropReason {
	kMalformed,        // the frame did not parse
	kNoRoute,          // no forwarding entry (or it points back out)
	kLinkLocal,        // 01:80:C2:00:00:0x that is not PAUSE/PFC
	kBufferFull,       // lossy: shared pool exhausted
	kDynamicThreshold, // lossy: egress queue above alpha * free
	kHeadroom,         // lossless: PFC headroom exhausted
};
inline constexpr int kNumDropReasons = 6;
const char *to_string(DropReason r);

// Bytes held by one ingress (port, priority).
struct IngressAccount {
	uint64_t shared = 0;
	uint64_t headroom = 0;
	uint64_t total() const { return shared + headroom; }
};

enum class Admit { kAccepted, kDropped };

class SharedBuffer
{
public:
	SharedBuffer(uint64_t buffer_bytes, uint64_t reserved_headroom, uint32_t alpha_q16);

	uint64_t pool_size() const { return pool_size_; }
	uint64_t pool_used() const { return pool_used_; }
	uint64_t pool_free() const { return pool_size_ - pool_used_; }
	// alpha * free, floored.
	uint64_t dynamic_threshold() const;

	// Lossy admission; on success charges the pool (and acct, if any).
	// On failure sets *why.
	Admit admit_lossy(IngressAccount *acct, uint64_t egress_queue_bytes, uint64_t len,
	                  DropReason *why);
	// Lossless admission under pfc (enabled) for the ingress account.
	Admit admit_lossless(IngressAccount &acct, const PfcParams &pfc, uint64_t len);
	// Returns len bytes of a packet leaving the switch (acct may be null
	// for packets the switch made).
	void release(IngressAccount *acct, uint64_t len);

private:
	uint64_t pool_size_;
	uint64_t pool_used_ = 0;
	uint32_t alpha_q16_;
};

bool pfc_xoff_due(const IngressAccount &a, const PfcParams &p);
bool pfc_xon_due(const IngressAccount &a, const PfcParams &p);

// One pause quantum is 512 bit times at the link rate (wire.md §5.2): the
// duration of q quanta, rounded up to whole ns.
Time pause_quanta_to_ns(uint16_t quanta, uint64_t rate_bps);

} // namespace rxecc::fabric

#endif
