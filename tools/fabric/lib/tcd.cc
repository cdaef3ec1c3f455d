// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// TCD detector and marking; see tcd.h.
#include "tcd.h"

namespace rxecc::fabric
{

namespace
{

size_t u(int i)
{
	return static_cast<size_t>(i);
}

size_t si(TcdState s)
{
	return static_cast<size_t>(s);
}

} // namespace

const char *to_string(TcdState s)
{
	switch (s) {
	case TcdState::kNonCongestion: return "noncongestion";
	case TcdState::kUndetermined: return "undetermined";
	case TcdState::kCongestion: return "congestion";
	}
	return "unknown";
}

void TcdDetector::enter(TcdState s, Time now)
{
	if (s == state_)
		return;
	if (now > since_)
		done_ns_[si(state_)] += now - since_;
	state_ = s;
	since_ = now > since_ ? now : since_;
	c_.entered[si(s)]++;
}

void TcdDetector::evaluate(uint64_t queue_bytes, Time now)
{
	if (queue_bytes <= p_.threshold)
		enter(TcdState::kNonCongestion, now);
	else if (state_ == TcdState::kNonCongestion)
		enter(TcdState::kCongestion, now); // a queue without any pause
	else if (state_ == TcdState::kUndetermined && now > t_on_start_ &&
	         now - t_on_start_ > p_.max_ton_ns)
		enter(TcdState::kCongestion, now); // ON longer than PFC explains
}

void TcdDetector::on_pause_change(bool paused, uint64_t queue_bytes, Time now)
{
	if (paused == paused_)
		return;
	paused_ = paused;
	if (paused) {
		if (resumed_) {
			Time on = now > t_on_start_ ? now - t_on_start_ : 0;
			c_.max_on_ns = on > c_.max_on_ns ? on : c_.max_on_ns;
			c_.on_periods++;
		}
		enter(TcdState::kUndetermined, now);
		return;
	}
	t_on_start_ = now;
	resumed_ = true;
	evaluate(queue_bytes, now);
}

TcdState TcdDetector::on_dequeue(uint64_t queue_bytes, Time now)
{
	// A paused queue sends nothing; should a dequeue still come, the
	// state stays what the pause made it.
	if (!paused_)
		evaluate(queue_bytes, now);
	return state_;
}

Time TcdDetector::time_in(TcdState s, Time now) const
{
	Time t = done_ns_[si(s)];
	if (s == state_ && now > since_)
		t += now - since_;
	return t;
}

TcdMark tcd_mark(Packet &pkt, TcdState state)
{
	const FrameInfo &fi = pkt.info();
	if (!fi.is_ip() || fi.ecn == Ecn::kNotEct)
		return TcdMark::kNotEct;
	if (fi.ecn == Ecn::kCe)
		return TcdMark::kCeIn;
	switch (state) {
	case TcdState::kCongestion: pkt.mark_ce(); return TcdMark::kCe;
	case TcdState::kUndetermined:
		if (fi.ecn != Ecn::kEct1)
			pkt.set_ecn(Ecn::kEct1);
		return TcdMark::kUe;
	case TcdState::kNonCongestion: break;
	}
	return TcdMark::kNo;
}

TcdMarker::TcdMarker(const SwitchConfig &cfg)
{
	for (const PortConfig &p : cfg.ports) {
		det_.emplace_back();
		for (int prio = 0; prio < kNumPriorities; prio++)
			det_.back()[u(prio)] = TcdDetector(p.tcd[u(prio)]);
	}
}

bool TcdMarker::enabled(int port, int prio) const
{
	return port >= 0 && u(port) < det_.size() && prio >= 0 && prio < kNumPriorities &&
	       det_[u(port)][u(prio)].params().enabled;
}

TcdDetector *TcdMarker::find(int port, int prio)
{
	return enabled(port, prio) ? &det_[u(port)][u(prio)] : nullptr;
}

bool TcdMarker::any(int port) const
{
	for (int prio = 0; prio < kNumPriorities; prio++)
		if (enabled(port, prio))
			return true;
	return false;
}

void TcdMarker::on_dequeue(FeatureContext &ctx)
{
	TcdDetector *d = find(ctx.egress_port(), ctx.priority());
	if (!d)
		return;
	TcdState s = d->on_dequeue(ctx.queue().bytes, ctx.now());
	TcdCounters &c = d->counters();
	const FrameInfo &fi = ctx.packet().info();
	// CE through the context, so that it also counts as an ECN mark.
	if (s == TcdState::kCongestion && fi.is_ip() && fi.ect()) {
		ctx.mark_ce();
		c.ce++;
		return;
	}
	switch (tcd_mark(ctx.packet(), s)) {
	case TcdMark::kCe: c.ce++; break; // (CONGESTION marks above)
	case TcdMark::kUe: c.ue++; break;
	case TcdMark::kNo: c.no++; break;
	case TcdMark::kCeIn: c.ce_in++; break;
	case TcdMark::kNotEct: c.not_ect++; break;
	}
}

void TcdMarker::pause_change(int port, int prio, bool paused, uint64_t queue_bytes, Time now)
{
	if (TcdDetector *d = find(port, prio))
		d->on_pause_change(paused, queue_bytes, now);
}

TcdStatus TcdMarker::status(int port, int prio, Time now) const
{
	TcdStatus st;
	if (!enabled(port, prio))
		return st;
	const TcdDetector &d = det_[u(port)][u(prio)];
	st.enabled = true;
	st.params = d.params();
	st.state = d.state();
	st.counters = d.counters();
	for (int s = 0; s < kNumTcdStates; s++)
		st.time_ns[u(s)] = d.time_in(static_cast<TcdState>(s), now);
	return st;
}

} // namespace rxecc::fabric
