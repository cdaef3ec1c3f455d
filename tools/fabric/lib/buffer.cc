// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared buffer admission and PFC thresholds; see buffer.h.
#include "buffer.h"

#include <algorithm>

namespace rxecc::fabric
{

const char *to_string(DropReason r)
{
	switch (r) {
	case DropReason::kMalformed: return "malformed";
	case DropReason::kNoRoute: return "no_route";
	case DropReason::kLinkLocal: return "link_local";
	case DropReason::kBufferFull: return "buffer_full";
	case DropReason::kDynamicThreshold: return "dynamic_threshold";
	case DropReason::kHeadroom: return "pfc_headroom";
	}
	return "unknown";
}

SharedBuffer::SharedBuffer(uint64_t buffer_bytes, uint64_t reserved_headroom, uint32_t alpha_q16)
    : pool_size_(buffer_bytes > reserved_headroom ? buffer_bytes - reserved_headroom : 0),
      alpha_q16_(alpha_q16)
{
}

uint64_t SharedBuffer::dynamic_threshold() const
{
	// free < 2^40 and alpha < 2^23, so the product fits.
	return (pool_free() * alpha_q16_) >> 16;
}

Admit SharedBuffer::admit_lossy(IngressAccount *acct, uint64_t egress_queue_bytes, uint64_t len,
                                DropReason *why)
{
	if (len > pool_free()) {
		*why = DropReason::kBufferFull;
		return Admit::kDropped;
	}
	if (egress_queue_bytes >= dynamic_threshold()) {
		*why = DropReason::kDynamicThreshold;
		return Admit::kDropped;
	}
	pool_used_ += len;
	if (acct)
		acct->shared += len;
	return Admit::kAccepted;
}

Admit SharedBuffer::admit_lossless(IngressAccount &acct, const PfcParams &pfc, uint64_t len)
{
	if (acct.headroom == 0 && acct.shared + len <= pfc.xoff && len <= pool_free()) {
		acct.shared += len;
		pool_used_ += len;
		return Admit::kAccepted;
	}
	if (acct.headroom + len <= pfc.headroom) {
		acct.headroom += len;
		return Admit::kAccepted;
	}
	return Admit::kDropped;
}

void SharedBuffer::release(IngressAccount *acct, uint64_t len)
{
	uint64_t from_pool = len;
	if (acct) {
		uint64_t from_headroom = std::min(acct->headroom, len);
		acct->headroom -= from_headroom;
		from_pool = len - from_headroom;
		acct->shared -= from_pool;
	}
	pool_used_ -= from_pool;
}

bool pfc_xoff_due(const IngressAccount &a, const PfcParams &p)
{
	return a.headroom > 0 || a.total() >= p.xoff;
}

bool pfc_xon_due(const IngressAccount &a, const PfcParams &p)
{
	return a.headroom == 0 && a.total() <= p.xon;
}

Time pause_quanta_to_ns(uint16_t quanta, uint64_t rate_bps)
{
	// 65535 * 512 * 1e9 < 2^55.
	uint64_t bits_ns = uint64_t{quanta} * 512 * 1000000000ull;
	return (bits_ns + rate_bps - 1) / rate_bps;
}

} // namespace rxecc::fabric
