// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RED/ECN marking; see red.h.
#include "red.h"

namespace rxecc::fabric
{

uint32_t red_probability_q16(uint64_t queue_bytes, const RedParams &p)
{
	if (queue_bytes <= p.kmin)
		return 0;
	if (queue_bytes > p.kmax)
		return kQ16One;
	// pmax_q16 <= 2^16 and q - kmin < 2^40: the product fits in 64 bits.
	return static_cast<uint32_t>(uint64_t{p.pmax_q16} * (queue_bytes - p.kmin) /
	                             (p.kmax - p.kmin));
}

RedMarker::RedMarker(const SwitchConfig &cfg)
{
	for (const PortConfig &port : cfg.ports)
		params_.push_back(port.red);
}

void RedMarker::on_enqueue(FeatureContext &ctx)
{
	maybe_mark(ctx, MarkPoint::kEnqueue);
}

void RedMarker::on_dequeue(FeatureContext &ctx)
{
	maybe_mark(ctx, MarkPoint::kDequeue);
}

void RedMarker::maybe_mark(FeatureContext &ctx, MarkPoint point)
{
	auto port = static_cast<size_t>(ctx.egress_port());
	if (port >= params_.size())
		return;
	const RedParams &p = params_[port][static_cast<size_t>(ctx.priority())];
	const FrameInfo &fi = ctx.packet().info();
	if (!p.enabled || p.point != point || !fi.is_ip() || !fi.ect())
		return;
	uint32_t prob = red_probability_q16(ctx.queue().bytes, p);
	if (prob == 0)
		return;
	if (prob >= kQ16One || ctx.rng().rnd16() < prob)
		ctx.mark_ce();
}

} // namespace rxecc::fabric
