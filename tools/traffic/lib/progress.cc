// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "progress.h"

#include <cmath>

namespace rxecc::traffic
{

std::int64_t Bins::index(std::int64_t t_ns) const
{
	const auto b = static_cast<std::int64_t>(bin_ns_);
	return t_ns >= 0 ? t_ns / b : -((-t_ns + b - 1) / b);
}

void Bins::extend(std::int64_t k)
{
	if (bytes_.empty()) {
		first_ = k;
		bytes_.assign(1, 0);
		return;
	}
	if (k < first_) {
		bytes_.insert(bytes_.begin(), static_cast<size_t>(first_ - k), 0);
		first_ = k;
	}
	const auto last = first_ + static_cast<std::int64_t>(bytes_.size()) - 1;
	if (k > last)
		bytes_.resize(bytes_.size() + static_cast<size_t>(k - last), 0);
}

void Bins::add(std::int64_t t_ns, std::uint64_t bytes)
{
	const std::int64_t k = index(t_ns);
	extend(k);
	bytes_[static_cast<size_t>(k - first_)] += bytes;
}

void Bins::cover(std::int64_t from_ns, std::int64_t to_ns)
{
	extend(index(from_ns));
	extend(index(to_ns));
}

std::uint64_t Bins::total() const
{
	std::uint64_t t = 0;
	for (auto b : bytes_)
		t += b;
	return t;
}

FlowProgress::FlowProgress(const FlowSpec &f, std::uint64_t bin_ns, bool log_messages)
    : f_(f), bins_(bin_ns), log_messages_(log_messages), qp_outstanding_(f.opt.qps, 0)
{
}

void FlowProgress::start(std::int64_t now)
{
	rec_.start_ns = now;
	rec_.bytes = 0;
	rec_.msgs = 0;
}

bool FlowProgress::posting_over(std::int64_t now) const
{
	if (stopped_ || !started())
		return true;
	if (f_.size_bytes)
		return posted_ >= f_.messages();
	return now - *rec_.start_ns >= static_cast<std::int64_t>(*f_.duration_ns);
}

std::optional<FlowProgress::Posted> FlowProgress::post(unsigned qp, std::int64_t now)
{
	if (posting_over(now))
		return std::nullopt;
	const Posted p{posted_, f_.message_bytes(posted_)};
	posted_++;
	qp_outstanding_[qp]++;
	if (log_messages_)
		log_.push_back(MessageRecord{p.bytes, now, std::nullopt, qp});
	return p;
}

std::uint64_t FlowProgress::outstanding(unsigned qp) const
{
	return qp_outstanding_[qp];
}

void FlowProgress::complete(std::uint64_t msg, unsigned qp, std::int64_t now)
{
	const std::uint64_t bytes = f_.message_bytes(msg);
	done_++;
	qp_outstanding_[qp]--;
	done_bytes_ += bytes;
	rec_.bytes = done_bytes_;
	rec_.msgs = done_;
	if (!first_done_)
		first_done_ = now;
	last_done_ = now;
	bins_.add(now, bytes);
	if (log_messages_ && msg < log_.size())
		log_[msg].complete_ns = now;
}

void FlowProgress::fail_completion(std::uint64_t /*msg*/, unsigned qp)
{
	done_failed_++;
	qp_outstanding_[qp]--;
}

bool FlowProgress::finished(std::int64_t now) const
{
	return posting_over(now) && outstanding() == 0;
}

void FlowProgress::finish(const std::string &status)
{
	rec_.status = status;
	// a flow that never started moved nothing (known), its times are unknown
	if (!rec_.bytes)
		rec_.bytes = 0;
	if (!rec_.msgs)
		rec_.msgs = 0;
	if (f_.opt.verb != Verb::kSend) {
		rec_.first_byte_ns = first_done_;
		rec_.last_byte_ns = last_done_;
	}
	if (status == "ok")
		rec_.complete_ns = last_done_;
	if (rec_.start_ns)
		bins_.cover(*rec_.start_ns, last_done_.value_or(*rec_.start_ns));
}

WireCount message_frames(Verb v, std::uint64_t msg_bytes, std::uint64_t mtu)
{
	// Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4
	constexpr std::uint64_t kBase = 14 + 20 + 8 + 12 + 4;
	constexpr std::uint64_t kReth = 16, kAeth = 4;
	WireCount w;
	const std::uint64_t n = msg_bytes == 0 ? 1 : (msg_bytes + mtu - 1) / mtu;
	for (std::uint64_t i = 0; i < n; i++) {
		const std::uint64_t pay = i + 1 < n ? mtu : msg_bytes - i * mtu;
		std::uint64_t ext = 0;
		if (v == Verb::kWrite && i == 0)
			ext = kReth;
		if (v == Verb::kRead && (i == 0 || i + 1 == n))
			ext = kAeth;
		w.frames++;
		w.bytes += kBase + ext + pay + (4 - pay % 4) % 4;
	}
	return w;
}

std::int64_t percentile(const std::vector<std::int64_t> &sorted, double p)
{
	const double n = static_cast<double>(sorted.size());
	auto rank = static_cast<size_t>(std::ceil(p * n / 100.0));
	if (rank < 1)
		rank = 1;
	if (rank > sorted.size())
		rank = sorted.size();
	return sorted[rank - 1];
}

} // namespace rxecc::traffic
