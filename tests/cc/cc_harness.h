// Test harness for the rxe-cc algorithm cores: plays the framework's part
// (parameters, compiled configuration, per-QP state, hook calls) for one QP.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

// The kernel header is C; its inline helpers use C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wpedantic"
extern "C" {
#include "rxe_cc.h"
}
#pragma GCC diagnostic pop

namespace cc
{

constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;

using Params = std::map<std::string, uint32_t>;

// Index of parameter or state value `name` of `ops`, or -1.
inline int param_index(const rxe_cc_ops *ops, const std::string &name)
{
	for (uint32_t i = 0; i < ops->n_params; i++)
		if (name == ops->params[i].name)
			return static_cast<int>(i);
	return -1;
}

inline int state_index(const rxe_cc_ops *ops, const std::string &name)
{
	for (uint32_t i = 0; i < ops->n_state; i++)
		if (name == ops->state[i].name)
			return static_cast<int>(i);
	return -1;
}

// Default parameter set of `ops` for `link`, with `over` applied.
inline std::vector<uint32_t> make_params(const rxe_cc_ops *ops, const rxe_cc_link &link,
                                         const Params &over)
{
	std::vector<uint32_t> p(ops->n_params);
	if (ops->defaults) {
		ops->defaults(p.data(), &link);
	} else {
		for (uint32_t i = 0; i < ops->n_params; i++)
			p[i] = ops->params[i].def;
	}
	for (const auto &[name, value] : over) {
		int i = param_index(ops, name);
		if (i < 0)
			throw std::invalid_argument("no parameter " + name);
		p[static_cast<size_t>(i)] = value;
	}
	return p;
}

// One QP running `ops`. Times given to the helpers are relative to `t0`
// (ns), so that a test can place its whole run across a clock wrap.
class Qp
{
public:
	Qp(const rxe_cc_ops *ops, uint64_t line_bps, uint64_t rtt_ns, const Params &over = {},
	   uint64_t t0 = 0, uint64_t t_create = 0)
	    : ops_(ops), t0_(t0)
	{
		link_.rate_bps = line_bps;
		link_.base_rtt_ns = rtt_ns;
		link_.mtu = 1024;
		params_ = make_params(ops, link_, over);
		cfg_.assign(ops->cfg_size / 8 + 1, 0);
		priv_.assign(ops->priv_size / 8 + 1, 0);
		const char *why = nullptr;
		int err = ops->setup(cfg_.data(), params_.data(), &link_, &why);
		if (err)
			throw std::invalid_argument(std::string("setup: ") + why);
		ctx_ = rxe_cc_ctx{};
		ctx_.ops = ops;
		ctx_.cfg = cfg_.data();
		ctx_.priv = priv_.data();
		ops->init(&ctx_, abs(t_create));
	}

	uint64_t abs(uint64_t t) const { return t0_ + t; }

	void cnp(uint64_t t)
	{
		rxe_cc_fb fb{};
		ops_->on_feedback(&ctx_, RXE_CC_FB_CNP, &fb, abs(t));
	}
	void feedback(rxe_cc_fb_kind kind, const rxe_cc_fb &fb, uint64_t t)
	{
		ops_->on_feedback(&ctx_, kind, &fb, abs(t));
	}
	void timer(uint64_t t) { ops_->on_timer(&ctx_, abs(t)); }
	void send(uint64_t t, uint32_t bytes, uint32_t flags = 0)
	{
		rxe_cc_tx tx{};
		tx.bytes = bytes;
		tx.flags = flags;
		ops_->on_send(&ctx_, &tx, abs(t));
	}
	// A data packet with PSN `psn` (algorithms that track snd_nxt).
	void send_psn(uint64_t t, uint32_t psn, uint32_t bytes = 1100, uint32_t flags = 0)
	{
		rxe_cc_tx tx{};
		tx.bytes = bytes;
		tx.psn = psn;
		tx.flags = flags;
		ops_->on_send(&ctx_, &tx, abs(t));
	}
	// The completer processed a response packet of `type` carrying `psn`.
	void ack(uint64_t t, uint32_t psn, uint32_t type = RXE_CC_ACK, uint32_t acked_pkts = 1)
	{
		rxe_cc_ack a{};
		a.type = type;
		a.psn = psn;
		a.acked_pkts = acked_pkts;
		a.acked_bytes = acked_pkts * 1100;
		if (ops_->on_ack)
			ops_->on_ack(&ctx_, &a, abs(t));
	}
	// The INT stack the response packet echoed (RXE_CC_FB_INT).
	void int_stack(uint64_t t, const rxe_cc_fb_int &st)
	{
		rxe_cc_fb fb{};
		fb.int_stack = st;
		feedback(RXE_CC_FB_INT, fb, t);
	}
	// A response packet as the framework delivers it: on_ack, then its
	// INT stack.
	void ack_int(uint64_t t, const rxe_cc_fb_int &st, uint32_t type = RXE_CC_ACK)
	{
		ack(t, st.psn, type);
		int_stack(t, st);
	}
	// All state values as of `t` (read only).
	std::vector<uint64_t> states(uint64_t t) const
	{
		std::vector<uint64_t> v(ops_->n_state);
		ops_->get_state(&ctx_, abs(t), v.data());
		return v;
	}

	// Notification point: a data packet with IP ECN `ecn` at `t`. Returns
	// whether a message is to be sent.
	bool rx(uint64_t t, uint8_t ecn, rxe_cc_np_msg *msg = nullptr)
	{
		rxe_cc_rx rx{};
		rx.bytes = 1100;
		rx.ecn = ecn;
		rxe_cc_np_msg m{};
		bool send = ops_->rx_data(&ctx_, &rx, abs(t), msg ? msg : &m);
		return send;
	}
	bool rx_timer(uint64_t t, rxe_cc_np_msg *msg = nullptr)
	{
		rxe_cc_np_msg m{};
		return ops_->rx_timer(&ctx_, abs(t), msg ? msg : &m);
	}

	// State value `name` as of `t` (read only).
	uint64_t state(const std::string &name, uint64_t t) const
	{
		std::vector<uint64_t> v(ops_->n_state);
		ops_->get_state(&ctx_, abs(t), v.data());
		int i = state_index(ops_, name);
		if (i < 0)
			throw std::invalid_argument("no state value " + name);
		return v[static_cast<size_t>(i)];
	}

	const rxe_cc_out &out() const { return ctx_.out; }
	// Deadline of on_timer relative to t0, or -1 if none is armed.
	int64_t timer_at() const
	{
		if (!(ctx_.out.flags & RXE_CC_OUT_TIMER))
			return -1;
		return static_cast<int64_t>(ctx_.out.timer_ns - t0_);
	}
	int64_t rx_timer_at() const
	{
		if (!(ctx_.out.flags & RXE_CC_OUT_RX_TIMER))
			return -1;
		return static_cast<int64_t>(ctx_.out.rx_timer_ns - t0_);
	}
	rxe_cc_ctx &ctx() { return ctx_; }
	const std::vector<uint32_t> &params() const { return params_; }

private:
	const rxe_cc_ops *ops_;
	uint64_t t0_;
	rxe_cc_link link_{};
	std::vector<uint32_t> params_;
	std::vector<uint64_t> cfg_; // u64 elements keep the blobs aligned
	std::vector<uint64_t> priv_;
	rxe_cc_ctx ctx_{};
};

} // namespace cc
