// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// NP-ECN marking; see npecn.h.
#include "npecn.h"

namespace rxecc::fabric
{

namespace
{

size_t u(int i)
{
	return static_cast<size_t>(i);
}

} // namespace

void NpEcnQueue::on_pause_change(bool paused, size_t queue_packets)
{
	if (paused == paused_)
		return;
	paused_ = paused;
	if (paused) {
		c_.pauses++; // PN is kept
		return;
	}
	pn_ = queue_packets; // the packets the pause held
	c_.resumes++;
}

NpEcnVerdict NpEcnQueue::on_dequeue(uint64_t queue_bytes)
{
	if (pn_ > 0) {
		pn_--;
		return NpEcnVerdict::kPaused;
	}
	return queue_bytes > p_.k ? NpEcnVerdict::kMark : NpEcnVerdict::kClear;
}

NpEcnMark npecn_mark(Packet &pkt, NpEcnVerdict v)
{
	const FrameInfo &fi = pkt.info();
	if (!fi.is_ip() || fi.ecn == Ecn::kNotEct)
		return NpEcnMark::kNotEct;
	if (fi.ecn == Ecn::kCe)
		return NpEcnMark::kCeIn;
	switch (v) {
	case NpEcnVerdict::kPaused: return NpEcnMark::kPausedExempt;
	case NpEcnVerdict::kMark: pkt.mark_ce(); return NpEcnMark::kMarked;
	case NpEcnVerdict::kClear: break;
	}
	return NpEcnMark::kUnmarked;
}

NpEcnMarker::NpEcnMarker(const SwitchConfig &cfg)
{
	for (const PortConfig &p : cfg.ports) {
		q_.emplace_back();
		for (int prio = 0; prio < kNumPriorities; prio++)
			q_.back()[u(prio)] = NpEcnQueue(p.npecn[u(prio)]);
	}
}

bool NpEcnMarker::enabled(int port, int prio) const
{
	return port >= 0 && u(port) < q_.size() && prio >= 0 && prio < kNumPriorities &&
	       q_[u(port)][u(prio)].params().enabled;
}

NpEcnQueue *NpEcnMarker::find(int port, int prio)
{
	return enabled(port, prio) ? &q_[u(port)][u(prio)] : nullptr;
}

bool NpEcnMarker::any(int port) const
{
	for (int prio = 0; prio < kNumPriorities; prio++)
		if (enabled(port, prio))
			return true;
	return false;
}

void NpEcnMarker::on_dequeue(FeatureContext &ctx)
{
	NpEcnQueue *q = find(ctx.egress_port(), ctx.priority());
	if (!q)
		return;
	NpEcnVerdict v = q->on_dequeue(ctx.queue().bytes);
	NpEcnCounters &c = q->counters();
	const FrameInfo &fi = ctx.packet().info();
	// CE through the context, so that it also counts as an ECN mark.
	if (v == NpEcnVerdict::kMark && fi.is_ip() && fi.ect()) {
		ctx.mark_ce();
		c.marked++;
		return;
	}
	switch (npecn_mark(ctx.packet(), v)) {
	case NpEcnMark::kMarked: c.marked++; break; // (marked above)
	case NpEcnMark::kPausedExempt: c.paused_exempt++; break;
	case NpEcnMark::kUnmarked: c.unmarked++; break;
	case NpEcnMark::kCeIn: c.ce_in++; break;
	case NpEcnMark::kNotEct: c.not_ect++; break;
	}
}

void NpEcnMarker::pause_change(int port, int prio, bool paused, size_t queue_packets)
{
	if (NpEcnQueue *q = find(port, prio))
		q->on_pause_change(paused, queue_packets);
}

NpEcnStatus NpEcnMarker::status(int port, int prio) const
{
	NpEcnStatus st;
	if (!enabled(port, prio))
		return st;
	const NpEcnQueue &q = q_[u(port)][u(prio)];
	st.enabled = true;
	st.params = q.params();
	st.paused = q.paused();
	st.pn = q.pn();
	st.counters = q.counters();
	return st;
}

} // namespace rxecc::fabric
