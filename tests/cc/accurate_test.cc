// Unit tests of rxe_cc_accurate.c, ACCurate's reaction point: the FRPs of
// specs/accurate.md §2.7 (INIT at activation, one NORMAL per RRP at the
// phase, STOP with COUNTED), the response rules and their validation, the
// epochs across the u16 and u64 wraps, and §2.9's rate vectors, fed by hand
// and in a closed loop through a transcription of the contention point of
// §2.4 (the switch side is not part of the core).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "cc_harness.h"

namespace
{

using cc::kMs;
using cc::kUs;
using cc::Qp;

const rxe_cc_ops *acr()
{
	return &rxe_cc_accurate_ops;
}

constexpr uint64_t k10G = 10'000'000'000ULL;
constexpr uint64_t kLine = 10'000'000; // kbit/s
constexpr uint64_t kRrp = 1 * kMs;     // default rrp_us
constexpr uint64_t kPhase = 100 * kUs; // rrp / 10
constexpr uint32_t kPkt = 1100;

rxe_cc_frp resp(uint16_t epoch, uint32_t cr, uint32_t dr, uint8_t type = RXE_CC_FRP_NORMAL,
                uint8_t flags = RXE_CC_FRP_RESP)
{
	rxe_cc_frp f{};
	f.type = type;
	f.flags = flags;
	f.epoch = epoch;
	f.cr_kbps = cr;
	f.dr_kbps = dr;
	f.version = RXE_CC_FRP_VERSION;
	return f;
}

uint16_t epoch_of(uint64_t abs_t)
{
	return static_cast<uint16_t>((abs_t / kRrp) & 0xffff);
}

// The parameters with link_overhead_bytes 0 unless they set it: the pacer
// then runs at R itself, which the tests below read from rate_bps.
cc::Params exact(cc::Params p)
{
	p.emplace("link_overhead_bytes", 0);
	return p;
}

// One flow: a QP and the FRPs it sends.
struct Flow {
	explicit Flow(const cc::Params &p = {}, uint64_t t0 = 0, uint64_t line = k10G)
	    : qp(acr(), line, 0, exact(p), t0)
	{
		// the peer takes FRPs (its ACKs carried CAP) unless a test says not
		qp.ctx().in = RXE_CC_IN_PEER_CAP;
	}
	void send(uint64_t t, uint32_t bytes = kPkt) { qp.send(t, bytes); }
	// rx_timer at `t` if it is due by then; the FRP it sent, if any.
	std::optional<rxe_cc_frp> tick(uint64_t t)
	{
		if (qp.rx_timer_at() < 0 || static_cast<int64_t>(t) < qp.rx_timer_at())
			return std::nullopt;
		rxe_cc_np_msg m{};
		if (!qp.rx_timer(t, &m))
			return std::nullopt;
		EXPECT_EQ(m.type, RXE_CC_MSG_FRP);
		EXPECT_EQ(m.dscp, 0xff);
		EXPECT_EQ(m.pcp, 0xff);
		return m.frp;
	}
	void put(const rxe_cc_frp &f, uint64_t t)
	{
		rxe_cc_fb fb{};
		fb.frp = f;
		qp.ctx().out.events = 0;
		qp.feedback(RXE_CC_FB_FRP, fb, t);
	}
	uint64_t v(const char *name) { return qp.state(name, 0); }
	uint64_t rate() { return v("rate_kbps"); }
	// start: packets every 10 us from `t` until the INIT has gone
	rxe_cc_frp start(uint64_t t)
	{
		for (int i = 0; i < 100; i++, t += 10 * kUs) {
			send(t);
			if (auto f = tick(t))
				return *f;
		}
		ADD_FAILURE() << "no INIT";
		return {};
	}
	Qp qp;
};

// ---- parameters ---------------------------------------------------------

size_t pidx(const char *name)
{
	int i = cc::param_index(acr(), name);
	EXPECT_GE(i, 0) << name;
	return static_cast<size_t>(i);
}

TEST(AccurateParams, DefaultsScaleToTheLink)
{
	std::vector<uint32_t> p(acr()->n_params);
	rxe_cc_link link{k10G, 0, 1024};
	acr()->defaults(p.data(), &link);
	EXPECT_EQ(p[pidx("rrp_us")], 1000u);
	EXPECT_EQ(p[pidx("min_rate_kbps")], 10'000u); // line / 1000
	EXPECT_EQ(p[pidx("dr_kbps")], 0u);
	EXPECT_EQ(p[pidx("small_flow_bytes")], 4096u);
	EXPECT_EQ(p[pidx("idle_stop_rrps")], 1u);
	EXPECT_EQ(p[pidx("resp_timeout_rrps")], 4u);
	EXPECT_EQ(p[pidx("link_overhead_bytes")], 24u);
	// the RRP is at least 4 base RTTs
	link.base_rtt_ns = 2500 * kUs;
	acr()->defaults(p.data(), &link);
	EXPECT_EQ(p[pidx("rrp_us")], 10'000u);
	// a slow link: MIN_RATE at least 1 kbit/s
	link = {500'000, 0, 1024};
	acr()->defaults(p.data(), &link);
	EXPECT_EQ(p[pidx("min_rate_kbps")], 1u);
	EXPECT_EQ(acr()->wire, uint32_t{RXE_CC_WIRE_CNP_TX | RXE_CC_WIRE_FRP});
}

TEST(AccurateParams, SetupChecksRelationsAndWarns)
{
	std::vector<uint64_t> cfg(acr()->cfg_size / 8 + 1);
	rxe_cc_link link{k10G, 0, 1024};
	auto run = [&](const cc::Params &over, const char **why) {
		auto p = cc::make_params(acr(), link, over);
		*why = nullptr;
		return acr()->setup(cfg.data(), p.data(), &link, why);
	};
	const char *why;
	EXPECT_EQ(run({}, &why), 0);
	EXPECT_EQ(why, nullptr);
	EXPECT_EQ(run({{"phase_us", 1000}}, &why), -EINVAL);
	EXPECT_EQ(run({{"rrp_us", 50}, {"phase_us", 50}}, &why), -EINVAL);
	// phase 0 follows the RRP
	EXPECT_EQ(run({{"rrp_us", 50}}, &why), 0);
	EXPECT_EQ(run({{"dr_kbps", 20'000'000}}, &why), 0);
	ASSERT_NE(why, nullptr);
	EXPECT_NE(std::strstr(why, "dr_kbps"), nullptr) << why;
	EXPECT_EQ(run({{"dr_kbps", 5000}, {"min_rate_kbps", 6000}}, &why), 0);
	ASSERT_NE(why, nullptr);
	EXPECT_NE(std::strstr(why, "min_rate_kbps"), nullptr) << why;
	link.base_rtt_ns = 300 * kUs;
	EXPECT_EQ(run({{"rrp_us", 1000}}, &why), 0);
	ASSERT_NE(why, nullptr); // 1 ms < 4 x 300 us
	EXPECT_NE(std::strstr(why, "4 base RTTs"), nullptr) << why;
	EXPECT_EQ(run({{"rrp_us", 1000}, {"phase_us", 900}}, &why), 0);
	link.base_rtt_ns = 240 * kUs;
	EXPECT_EQ(run({{"rrp_us", 1000}, {"phase_us", 900}}, &why), 0);
	ASSERT_NE(why, nullptr); // 900 + 120 us > 1 ms
	EXPECT_NE(std::strstr(why, "one-way"), nullptr) << why;
	EXPECT_EQ(run({}, &why), 0); // defaults: 1 ms, 100 us
	EXPECT_EQ(why, nullptr);
	link = {10'000'000, 0, 1024}; // 10 Mbit/s: 784 kbit/s of FRPs per flow
	EXPECT_EQ(run({}, &why), 0);
	ASSERT_NE(why, nullptr);
	EXPECT_NE(std::strstr(why, "1 %"), nullptr) << why;
	link = {0, 0, 1024};
	EXPECT_EQ(run({}, &why), -EINVAL);
}

// ---- §2.7 lines 1-4: activation and INIT ----------------------------------

TEST(AccurateRp, SmallFlowsSendNoFrp)
{
	Flow f;
	EXPECT_EQ(f.rate(), kLine);
	EXPECT_EQ(f.qp.out().rate_bps, k10G);
	EXPECT_EQ(f.qp.rx_timer_at(), -1);
	for (int i = 0; i < 3; i++) // 3300 bytes < 4096
		f.send(10 * kUs * static_cast<uint64_t>(i));
	EXPECT_EQ(f.qp.rx_timer_at(), -1);
	EXPECT_EQ(f.v("active"), 0u);
	// idle for an RRP: the count starts again
	f.send(2 * kMs);
	f.send(2 * kMs + 10 * kUs);
	f.send(2 * kMs + 20 * kUs);
	EXPECT_EQ(f.v("active"), 0u);
	f.send(2 * kMs + 30 * kUs); // 4400 bytes since it was idle
	EXPECT_EQ(f.v("active"), 1u);
	EXPECT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(2 * kMs + 30 * kUs));
}

TEST(AccurateRp, InitGoesAtOnceWithCrAtTheLineRate)
{
	Flow f({{"small_flow_bytes", 0}});
	const uint64_t t = 5 * kRrp + 700 * kUs;
	f.send(t);
	EXPECT_EQ(f.v("active"), 1u);
	ASSERT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(t));
	auto m = f.tick(t);
	ASSERT_TRUE(m);
	EXPECT_EQ(m->type, RXE_CC_FRP_INIT);
	EXPECT_EQ(m->flags, 0);
	EXPECT_EQ(m->epoch, 5);
	EXPECT_EQ(m->cr_kbps, kLine);
	EXPECT_EQ(m->dr_kbps, kLine);
	EXPECT_EQ(f.rate(), kLine);
	EXPECT_EQ(f.v("frp_tx_init"), 1u);
	EXPECT_EQ(f.v("epoch"), 5u);
	// the next FRP at the phase of the next RRP
	EXPECT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(6 * kRrp + kPhase));
}

TEST(AccurateRp, DrSrcCapsTheStartAndTheFrps)
{
	Flow f({{"small_flow_bytes", 0}, {"dr_kbps", 4'000'000}});
	auto m = f.start(0);
	EXPECT_EQ(m.cr_kbps, 4'000'000u);
	EXPECT_EQ(m.dr_kbps, 4'000'000u);
	EXPECT_EQ(f.rate(), 4'000'000u);
}

// ---- §2.7 lines 5-9: one NORMAL per RRP at the phase -----------------------

TEST(AccurateRp, OneNormalPerRrpAtThePhase)
{
	Flow f({{"small_flow_bytes", 0}});
	// INIT before the phase of RRP 3: it is RRP 3's FRP
	auto init = f.start(3 * kRrp + 20 * kUs);
	EXPECT_EQ(init.epoch, 3);
	int normals = 0;
	for (uint64_t t = 3 * kRrp + 30 * kUs; t < 13 * kRrp; t += 10 * kUs) {
		f.send(t);
		if (auto m = f.tick(t)) {
			EXPECT_EQ(m->type, RXE_CC_FRP_NORMAL);
			EXPECT_EQ(t % kRrp, kPhase) << t;
			EXPECT_EQ(m->epoch, epoch_of(t));
			EXPECT_EQ(m->cr_kbps, f.rate());
			EXPECT_EQ(m->dr_kbps, kLine);
			normals++;
		}
	}
	EXPECT_EQ(normals, 9); // RRPs 4..12
	EXPECT_EQ(f.v("frp_tx_normal"), 9u);
	// a call at the same instant again sends nothing
	EXPECT_EQ(f.v("frp_tx_init"), 1u);
}

TEST(AccurateRp, InitAfterThePhaseWaitsForTheNextRrp)
{
	Flow f({{"small_flow_bytes", 0}});
	auto init = f.start(3 * kRrp + 500 * kUs);
	EXPECT_EQ(init.epoch, 3);
	EXPECT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(4 * kRrp + kPhase));
	f.send(4 * kRrp);
	EXPECT_FALSE(f.tick(4 * kRrp + kPhase - 1));
	auto m = f.tick(4 * kRrp + kPhase);
	ASSERT_TRUE(m);
	EXPECT_EQ(m->epoch, 4);
	EXPECT_FALSE(f.qp.rx_timer(4 * kRrp + kPhase));
}

TEST(AccurateRp, ALateTimerWaitsForThePhaseAndSkipsAMissedRrp)
{
	Flow f({{"small_flow_bytes", 0}, {"idle_stop_rrps", 10}});
	f.start(3 * kRrp + 500 * kUs);
	// served in RRP 5 before its phase: RRP 4's FRP is lost, none yet
	f.send(5 * kRrp + 10 * kUs);
	EXPECT_FALSE(f.qp.rx_timer(5 * kRrp + 50 * kUs));
	EXPECT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(5 * kRrp + kPhase));
	// served late within RRP 5, after its phase: RRP 5's FRP
	rxe_cc_np_msg m{};
	EXPECT_TRUE(f.qp.rx_timer(5 * kRrp + 900 * kUs, &m));
	EXPECT_EQ(m.frp.epoch, 5);
	EXPECT_EQ(f.v("frp_tx_normal"), 1u);
}

// ---- §2.7 lines 7-8: STOP -------------------------------------------------

TEST(AccurateRp, StopAfterIdleIsCountedIfThisRrpsFrpWent)
{
	Flow f({{"small_flow_bytes", 0}});
	f.start(2 * kRrp + 50 * kUs);
	f.put(resp(2, 3'000'000, 3'000'000), 2 * kRrp + 60 * kUs);
	EXPECT_EQ(f.rate(), 3'000'000u);
	const uint64_t last = 3 * kRrp + 500 * kUs;
	for (uint64_t t = 2 * kRrp + 100 * kUs; t <= last; t += 100 * kUs) {
		f.send(t);
		f.tick(t);
	}
	auto n = f.tick(4 * kRrp + kPhase); // RRP 4's FRP: 0.6 RRP idle
	ASSERT_TRUE(n);
	EXPECT_EQ(n->type, RXE_CC_FRP_NORMAL);
	EXPECT_EQ(n->cr_kbps, 3'000'000u);
	// its response moves R; the STOP still carries what was counted
	f.put(resp(4, 2'000'000, 2'000'000), 4 * kRrp + 150 * kUs);
	EXPECT_EQ(f.rate(), 2'000'000u);
	EXPECT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(last + kRrp));
	EXPECT_FALSE(f.tick(last + kRrp - 1));
	auto s = f.tick(last + kRrp);
	ASSERT_TRUE(s);
	EXPECT_EQ(s->type, RXE_CC_FRP_STOP);
	EXPECT_EQ(s->flags, RXE_CC_FRP_COUNTED);
	EXPECT_EQ(s->epoch, 4);
	EXPECT_EQ(s->cr_kbps, 3'000'000u);
	EXPECT_EQ(s->dr_kbps, 0u);
	EXPECT_EQ(f.v("active"), 0u);
	EXPECT_EQ(f.v("frp_tx_stop"), 1u);
	// not rate limited any more, and nothing to send
	EXPECT_EQ(f.rate(), kLine);
	EXPECT_EQ(f.qp.rx_timer_at(), -1);
}

TEST(AccurateRp, StopBeforeThePhaseIsNotCounted)
{
	Flow f({{"small_flow_bytes", 0}});
	f.start(2 * kRrp + 500 * kUs);
	f.put(resp(2, 3'000'000, 3'000'000), 2 * kRrp + 510 * kUs);
	const uint64_t last = 3 * kRrp + 50 * kUs;
	f.send(3 * kRrp);
	f.send(last);
	auto n = f.tick(3 * kRrp + kPhase); // RRP 3's FRP, 50 us idle
	ASSERT_TRUE(n);
	EXPECT_EQ(n->type, RXE_CC_FRP_NORMAL);
	auto s = f.tick(last + kRrp); // before RRP 4's phase
	ASSERT_TRUE(s);
	EXPECT_EQ(s->type, RXE_CC_FRP_STOP);
	EXPECT_EQ(s->flags, 0);
	EXPECT_EQ(s->epoch, 4);
	EXPECT_EQ(s->cr_kbps, 3'000'000u); // R
	EXPECT_FALSE(f.tick(4 * kRrp + kPhase));
}

TEST(AccurateRp, IdleStopCountsRrps)
{
	Flow f({{"small_flow_bytes", 0}, {"idle_stop_rrps", 3}});
	f.start(500 * kUs);
	int normals = 0;
	std::optional<rxe_cc_frp> stop;
	for (uint64_t t = 510 * kUs; t < 10 * kRrp && !stop; t += 10 * kUs) {
		if (auto m = f.tick(t)) {
			if (m->type == RXE_CC_FRP_STOP)
				stop = m;
			else
				normals++;
			if (m->type == RXE_CC_FRP_STOP) {
				EXPECT_EQ(t, 3 * kRrp + 500 * kUs);
			}
		}
	}
	ASSERT_TRUE(stop);
	EXPECT_EQ(normals, 3); // RRPs 1, 2, 3
	EXPECT_EQ(stop->flags, RXE_CC_FRP_COUNTED);
}

// §7 item 13: a flow whose packets wait (the pacer, PAUSE, the send
// queue) is busy, however long it sends nothing; idle_stop_rrps count from
// when nothing was left to send.
TEST(AccurateRp, AFlowWithDataWaitingIsNotIdle)
{
	Flow f({{"small_flow_bytes", 0}});
	f.start(500 * kUs);
	f.qp.ctx().in = RXE_CC_IN_BACKLOG;
	int normals = 0;
	for (uint64_t t = 510 * kUs; t < 10 * kRrp; t += 10 * kUs) {
		if (auto m = f.tick(t)) {
			EXPECT_EQ(m->type, RXE_CC_FRP_NORMAL) << t;
			normals++;
		}
	}
	EXPECT_EQ(normals, 9); // RRPs 1 to 9, no STOP
	EXPECT_EQ(f.v("active"), 1u);
	// its last packet went at 10 RRPs: idle one RRP later
	f.send(10 * kRrp);
	f.qp.ctx().in = 0;
	std::optional<rxe_cc_frp> stop;
	uint64_t when = 0;
	for (uint64_t t = 10 * kRrp + 10 * kUs; t < 13 * kRrp && !stop; t += 10 * kUs) {
		auto m = f.tick(t);
		if (m && m->type == RXE_CC_FRP_STOP) {
			stop = m;
			when = t;
		}
	}
	ASSERT_TRUE(stop);
	EXPECT_EQ(when, 11 * kRrp);
	EXPECT_EQ(f.v("active"), 0u);
	EXPECT_EQ(f.v("frp_tx_stop"), 1u);
}

// The framework withholds FRPs until the peer's CAP is known, and a flow's
// first packets go before its first ACK: the INIT goes again, at once, once
// a hook sees CAP; never more than once, and not for a peer without CAP.
TEST(AccurateRp, AnInitWithheldForWantOfCapGoesAgainOnceCapIsKnown)
{
	Flow f({{"small_flow_bytes", 0}});
	f.qp.ctx().in = 0;
	auto i1 = f.start(2 * kRrp + 300 * kUs);
	EXPECT_EQ(i1.type, RXE_CC_FRP_INIT);
	EXPECT_EQ(i1.epoch, 2);
	f.send(2 * kRrp + 400 * kUs); // no CAP yet: nothing due
	EXPECT_FALSE(f.tick(2 * kRrp + 400 * kUs));
	// the first ACK carried CAP; the next packet's hook sees it
	f.qp.ctx().in = RXE_CC_IN_PEER_CAP;
	f.send(2 * kRrp + 600 * kUs);
	EXPECT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(2 * kRrp + 600 * kUs));
	auto i2 = f.tick(2 * kRrp + 600 * kUs);
	ASSERT_TRUE(i2);
	EXPECT_EQ(i2->type, RXE_CC_FRP_INIT);
	EXPECT_EQ(i2->epoch, 2);
	EXPECT_EQ(i2->cr_kbps, i1.cr_kbps);
	EXPECT_EQ(f.v("frp_tx_init"), 2u);
	// once: the next FRP is RRP 3's NORMAL
	f.send(2 * kRrp + 700 * kUs);
	EXPECT_FALSE(f.tick(2 * kRrp + 700 * kUs));
	auto n = f.tick(3 * kRrp + kPhase);
	ASSERT_TRUE(n);
	EXPECT_EQ(n->type, RXE_CC_FRP_NORMAL);
	EXPECT_EQ(f.v("frp_tx_init"), 2u);

	// a peer that never sets CAP: one INIT, then NORMALs (withheld)
	Flow g({{"small_flow_bytes", 0}});
	g.qp.ctx().in = 0;
	g.start(500 * kUs);
	for (uint64_t t = 510 * kUs; t < 4 * kRrp; t += 10 * kUs) {
		g.send(t);
		if (auto m = g.tick(t)) {
			EXPECT_EQ(m->type, RXE_CC_FRP_NORMAL) << t;
		}
	}
	EXPECT_EQ(g.v("frp_tx_init"), 1u);
	EXPECT_EQ(g.v("frp_tx_normal"), 3u);
}

// A short flow can end before its first ACK shows the peer's CAP: its INIT
// was withheld and never went again, so no contention point counted it,
// and its STOP must not go either (it would take another flow's place from
// them); a flow whose INIT went again once CAP was known stops as usual.
TEST(AccurateRp, NoStopForAFlowWhoseInitWasWithheld)
{
	Flow f({{"small_flow_bytes", 0}});
	f.qp.ctx().in = 0;
	auto i = f.start(2 * kRrp + 300 * kUs);
	EXPECT_EQ(i.type, RXE_CC_FRP_INIT);
	// its last packet went at 2.3 ms; RRP 3's FRP (withheld: NORMAL) at
	// 3.1 ms; then the ACK with CAP came, at 3.2 ms, but the flow is done
	// and idle at 3.3 ms: no INIT went again, so no STOP goes
	auto n = f.tick(3 * kRrp + kPhase);
	ASSERT_TRUE(n);
	EXPECT_EQ(n->type, RXE_CC_FRP_NORMAL);
	f.qp.ctx().in = RXE_CC_IN_PEER_CAP;
	for (uint64_t t = 3 * kRrp + 200 * kUs; t < 6 * kRrp; t += 100 * kUs)
		if (auto m = f.tick(t))
			ADD_FAILURE() << "FRP type " << int(m->type) << " at " << t;
	EXPECT_EQ(f.v("active"), 0u);
	EXPECT_EQ(f.v("frp_tx_stop"), 0u);
	EXPECT_EQ(f.v("frp_tx_init"), 1u);

	// the same flow, but a packet after CAP: the INIT goes again, and so
	// does the STOP at the end
	Flow g({{"small_flow_bytes", 0}});
	g.qp.ctx().in = 0;
	g.start(2 * kRrp + 300 * kUs);
	g.qp.ctx().in = RXE_CC_IN_PEER_CAP;
	g.send(2 * kRrp + 500 * kUs);
	auto i2 = g.tick(2 * kRrp + 500 * kUs);
	ASSERT_TRUE(i2);
	EXPECT_EQ(i2->type, RXE_CC_FRP_INIT);
	std::optional<rxe_cc_frp> stop;
	for (uint64_t t = 2 * kRrp + 600 * kUs; t < 6 * kRrp && !stop; t += 100 * kUs)
		if (auto m = g.tick(t); m && m->type == RXE_CC_FRP_STOP)
			stop = m;
	EXPECT_TRUE(stop);
	EXPECT_EQ(g.v("frp_tx_stop"), 1u);
}

// Rates are the link's (§4.2: 24 bytes of preamble, IFG and FCS per frame
// beyond what rxe_cc_wire_bytes charges): the pacer runs at R * F / (F + 24),
// F = 1024 + 58 bytes for the harness's MTU.
TEST(AccurateRp, ThePacerRunsAtTheLinkRateLessTheFramesOverhead)
{
	Flow f({{"small_flow_bytes", 0}, {"link_overhead_bytes", 24}});
	EXPECT_EQ(f.rate(), kLine);
	EXPECT_EQ(f.qp.out().rate_bps, k10G * 1082 / 1106);
	f.start(500 * kUs);
	f.put(resp(0, 3'000'000, 3'000'000), 600 * kUs);
	EXPECT_EQ(f.rate(), 3'000'000u);
	EXPECT_EQ(f.qp.out().rate_bps, 3'000'000'000ULL * 1082 / 1106);
	Flow z({{"link_overhead_bytes", 0}});
	EXPECT_EQ(z.qp.out().rate_bps, k10G);
	EXPECT_THROW(Flow({{"link_overhead_bytes", 257}}), std::invalid_argument);
}

TEST(AccurateRp, ATimerLateForTheStopSendsItThenTheNewInit)
{
	Flow f({{"small_flow_bytes", 0}});
	f.start(2 * kRrp + 500 * kUs);
	ASSERT_TRUE(f.tick(3 * kRrp + kPhase)); // RRP 3's NORMAL
	// the STOP was due at 3.5 RRP; a packet at 3.7 RRP comes first
	f.send(3 * kRrp + 700 * kUs);
	EXPECT_EQ(f.qp.rx_timer_at(), static_cast<int64_t>(3 * kRrp + 700 * kUs));
	auto s = f.tick(3 * kRrp + 700 * kUs);
	ASSERT_TRUE(s);
	EXPECT_EQ(s->type, RXE_CC_FRP_STOP);
	EXPECT_EQ(s->flags, RXE_CC_FRP_COUNTED); // RRP 3's NORMAL went at 3.1
	auto i = f.tick(3 * kRrp + 700 * kUs);
	ASSERT_TRUE(i);
	EXPECT_EQ(i->type, RXE_CC_FRP_INIT);
	EXPECT_EQ(i->epoch, 3);
	EXPECT_EQ(f.v("active"), 1u);
}

// ---- §2.7 lines 10-14: responses ---------------------------------------------

struct AccurateResp : ::testing::Test {
	// an active flow at RRP 10, its INIT answered at R = 5 Gbit/s
	void SetUp() override
	{
		f = std::make_unique<Flow>(
			cc::Params{{"small_flow_bytes", 0}, {"idle_stop_rrps", 1000}});
		f->start(10 * kRrp + 20 * kUs);
		f->put(resp(10, 5'000'000, 5'000'000, RXE_CC_FRP_INIT), 10 * kRrp + 30 * kUs);
		ASSERT_EQ(f->rate(), 5'000'000u);
	}
	// the NORMAL of RRP `k`
	void normal(uint64_t k)
	{
		auto m = f->tick(k * kRrp + kPhase);
		ASSERT_TRUE(m);
		ASSERT_EQ(m->epoch, epoch_of(k * kRrp));
	}
	std::unique_ptr<Flow> f;
};

TEST_F(AccurateResp, EndToEndSetsMaxOfCrAndDr)
{
	normal(11);
	f->put(resp(11, 3'000'000, 4'000'000), 11 * kRrp + 200 * kUs);
	EXPECT_EQ(f->rate(), 4'000'000u); // DR > CR: DR (here below R)
	EXPECT_TRUE(f->qp.out().events & RXE_CC_EV_RATE_DEC);
	EXPECT_EQ(f->qp.out().rate_bps, 4'000'000'000u);
	f->put(resp(11, 6'000'000, 2'000'000), 11 * kRrp + 300 * kUs);
	EXPECT_EQ(f->rate(), 6'000'000u); // CR sets the limit
	EXPECT_TRUE(f->qp.out().events & RXE_CC_EV_RATE_INC);
	EXPECT_EQ(f->v("epoch"), 11u);
	EXPECT_EQ(f->v("resp_rx"), 3u);
	EXPECT_EQ(f->v("resp_cr_kbps"), 6'000'000u);
	EXPECT_EQ(f->v("resp_dr_kbps"), 2'000'000u);
	EXPECT_EQ(f->v("rate_up"), 1u);
	EXPECT_EQ(f->v("rate_down"), 2u); // 10 G -> 5 G -> 4 G
}

TEST(AccurateRp, EndToEndIsClampedToMinRateAndDrSrc)
{
	Flow f({{"small_flow_bytes", 0}, {"dr_kbps", 4'000'000}, {"min_rate_kbps", 50'000}});
	f.start(0);
	f.put(resp(0, 4'000'000, 9'000'000), 10 * kUs);
	EXPECT_EQ(f.rate(), 4'000'000u);
	f.put(resp(0, 1, 1), 20 * kUs);
	EXPECT_EQ(f.rate(), 50'000u);
	EXPECT_EQ(f.qp.out().rate_bps, 50'000'000u);
}

TEST_F(AccurateResp, ShortCircuitOnlySlows)
{
	const uint8_t sc = RXE_CC_FRP_RESP | RXE_CC_FRP_SC;
	normal(11);
	f->put(resp(11, 8'000'000, 8'000'000, RXE_CC_FRP_NORMAL, sc), 11 * kRrp + 110 * kUs);
	EXPECT_EQ(f->rate(), 5'000'000u);
	f->put(resp(11, 3'000'000, 9'000'000, RXE_CC_FRP_NORMAL, sc), 11 * kRrp + 120 * kUs);
	EXPECT_EQ(f->rate(), 3'000'000u);
	f->put(resp(11, 1, 1, RXE_CC_FRP_NORMAL, sc), 11 * kRrp + 130 * kUs);
	EXPECT_EQ(f->rate(), 10'000u); // min_rate = line / 1000
	EXPECT_EQ(f->v("sc_rx"), 3u);
	// an SC does not move the epoch: an older SC is still taken...
	EXPECT_EQ(f->v("epoch"), 10u);
	f->put(resp(10, 5000, 5000, RXE_CC_FRP_INIT, sc), 11 * kRrp + 140 * kUs);
	EXPECT_EQ(f->rate(), 10'000u);
	EXPECT_EQ(f->v("sc_rx"), 4u);
	// ...and the end-to-end response of RRP 11 is
	f->put(resp(11, 2'000'000, 2'000'000), 11 * kRrp + 150 * kUs);
	EXPECT_EQ(f->rate(), 2'000'000u);
	EXPECT_EQ(f->v("epoch"), 11u);
	// an SC of an epoch before that is stale
	f->put(resp(10, 1000, 1000, RXE_CC_FRP_NORMAL, sc), 11 * kRrp + 160 * kUs);
	EXPECT_EQ(f->rate(), 2'000'000u);
	EXPECT_EQ(f->v("stale_rx"), 1u);
}

TEST_F(AccurateResp, StaleResponsesAreDropped)
{
	normal(11);
	normal(12);
	f->put(resp(12, 2'000'000, 2'000'000), 12 * kRrp + 200 * kUs);
	f->put(resp(11, 7'000'000, 7'000'000), 12 * kRrp + 210 * kUs);
	EXPECT_EQ(f->rate(), 2'000'000u);
	EXPECT_EQ(f->v("stale_rx"), 1u);
	EXPECT_TRUE(f->qp.out().events & RXE_CC_EV_FB_BAD);
	EXPECT_EQ(f->v("epoch"), 12u);
	// the same epoch again is not stale
	f->put(resp(12, 3'000'000, 3'000'000), 12 * kRrp + 220 * kUs);
	EXPECT_EQ(f->rate(), 3'000'000u);
}

TEST(AccurateRp, ResponsesForAnInactiveFlowAreDropped)
{
	Flow f({{"small_flow_bytes", 0}});
	f.put(resp(0, 1'000'000, 1'000'000), 0);
	EXPECT_EQ(f.rate(), kLine);
	EXPECT_EQ(f.v("inactive_rx"), 1u);
	EXPECT_FALSE(f.qp.out().events & RXE_CC_EV_FB_BAD);
	f.start(kRrp + 500 * kUs);
	f.put(resp(1, 1'000'000, 1'000'000), kRrp + 510 * kUs);
	EXPECT_EQ(f.rate(), 1'000'000u);
	// idle: the STOP at 2.5 RRP (not counted: RRP 2's FRP went at 2.1)
	ASSERT_TRUE(f.tick(2 * kRrp + kPhase));
	auto s = f.tick(2 * kRrp + 500 * kUs);
	ASSERT_TRUE(s);
	ASSERT_EQ(s->type, RXE_CC_FRP_STOP);
	EXPECT_EQ(f.rate(), kLine);
	// the response to RRP 2's NORMAL comes after the STOP
	f.put(resp(2, 1'000'000, 1'000'000), 2 * kRrp + 600 * kUs);
	EXPECT_EQ(f.rate(), kLine);
	EXPECT_EQ(f.v("inactive_rx"), 2u);
	EXPECT_EQ(f.v("resp_rx"), 1u);
	// a new activity: the old activity's responses are stale
	f.start(5 * kRrp + 500 * kUs);
	f.put(resp(2, 1'000'000, 1'000'000), 5 * kRrp + 600 * kUs);
	EXPECT_EQ(f.rate(), kLine);
	EXPECT_EQ(f.v("stale_rx"), 1u);
}

TEST_F(AccurateResp, MalformedResponsesAreFlaggedAndChangeNothing)
{
	normal(11);
	std::vector<rxe_cc_frp> bad;
	rxe_cc_frp r = resp(11, 1'000'000, 1'000'000);
	r.version = 0;
	bad.push_back(r);
	r.version = 2;
	bad.push_back(r);
	bad.push_back(resp(11, 1'000'000, 1'000'000, RXE_CC_FRP_NORMAL, 0)); // no RESP
	bad.push_back(resp(11, 1'000'000, 1'000'000, RXE_CC_FRP_NORMAL, RXE_CC_FRP_SC));
	bad.push_back(resp(11, 1'000'000, 1'000'000, RXE_CC_FRP_STOP));
	bad.push_back(resp(11, 1'000'000, 1'000'000, 3));
	bad.push_back(resp(11, 1'000'000, 1'000'000, 15));
	bad.push_back(resp(11, 0, 1'000'000));
	bad.push_back(resp(11, kLine + 1, 1'000'000));
	bad.push_back(resp(11, 0xffffffff, 1'000'000));
	bad.push_back(resp(11, 1'000'000, 0));
	bad.push_back(resp(11, 1'000'000, kLine + 1));
	bad.push_back(resp(12, 1'000'000, 1'000'000)); // after the last FRP
	bad.push_back(resp(11 + 30000, 1'000'000, 1'000'000));
	uint64_t n = 0;
	for (const auto &b : bad) {
		f->put(b, 11 * kRrp + 200 * kUs);
		n++;
		EXPECT_TRUE(f->qp.out().events & RXE_CC_EV_FB_BAD) << n;
		EXPECT_EQ(f->rate(), 5'000'000u) << n;
		EXPECT_EQ(f->v("epoch"), 10u) << n;
		EXPECT_EQ(f->v("bad_rx"), n);
		EXPECT_EQ(f->qp.out().rate_bps, 5'000'000'000u);
	}
	EXPECT_EQ(f->v("resp_rx"), 1u);
	EXPECT_EQ(f->v("sc_rx"), 0u);
	// the good one still counts; at the line rate exactly
	f->put(resp(11, kLine, kLine), 11 * kRrp + 300 * kUs);
	EXPECT_FALSE(f->qp.out().events & RXE_CC_EV_FB_BAD);
	EXPECT_EQ(f->rate(), kLine);
}

TEST_F(AccurateResp, MissingResponsesRaiseTheTimeoutAndKeepTheRate)
{
	// RRP 10's INIT was answered; RRPs 11.. are not
	for (uint64_t k = 11; k <= 15; k++)
		normal(k);
	// 11..14 missed: 4, not beyond resp_timeout_rrps
	EXPECT_EQ(f->v("no_resp"), 0u);
	normal(16); // 11..15 missed
	EXPECT_EQ(f->v("no_resp"), 1u);
	EXPECT_EQ(f->v("resp_timeouts"), 1u);
	normal(17);
	EXPECT_EQ(f->v("resp_timeouts"), 2u);
	EXPECT_EQ(f->rate(), 5'000'000u);
	// an SC is no answer from the peer
	f->put(resp(17, 1'000'000, 1'000'000, RXE_CC_FRP_NORMAL, RXE_CC_FRP_RESP | RXE_CC_FRP_SC),
	       17 * kRrp + 200 * kUs);
	EXPECT_EQ(f->v("no_resp"), 1u);
	f->put(resp(17, 2'000'000, 2'000'000), 17 * kRrp + 300 * kUs);
	EXPECT_EQ(f->v("no_resp"), 0u);
	normal(18);
	EXPECT_EQ(f->v("resp_timeouts"), 2u);
}

// ---- epochs across the wraps -------------------------------------------------

TEST(AccurateEpoch, AcrossTheU16Wrap)
{
	// RRP 65534 .. 65538: epochs 65534, 65535, 0, 1, 2
	Flow f({{"small_flow_bytes", 0}, {"idle_stop_rrps", 1000}});
	const uint64_t base = 65534 * kRrp;
	auto init = f.start(base + 20 * kUs);
	EXPECT_EQ(init.epoch, 65534);
	f.put(resp(65534, 9'000'000, 9'000'000, RXE_CC_FRP_INIT), base + 30 * kUs);
	uint16_t want[] = {65535, 0, 1};
	uint32_t r = 8'000'000;
	for (int i = 0; i < 3; i++) {
		auto m = f.tick(base + static_cast<uint64_t>(i + 1) * kRrp + kPhase);
		ASSERT_TRUE(m);
		EXPECT_EQ(m->epoch, want[i]);
		f.put(resp(m->epoch, r, r), base + static_cast<uint64_t>(i + 1) * kRrp + 200 * kUs);
		EXPECT_EQ(f.rate(), r) << i;
		EXPECT_EQ(f.v("epoch"), want[i]);
		r -= 1'000'000;
	}
	// epoch 1 taken: 65535 and 0 are older across the wrap
	f.put(resp(65535, 9'000'000, 9'000'000), base + 3 * kRrp + 300 * kUs);
	f.put(resp(0, 9'000'000, 9'000'000), base + 3 * kRrp + 300 * kUs);
	EXPECT_EQ(f.v("stale_rx"), 2u);
	EXPECT_EQ(f.rate(), 6'000'000u);
	// and 2, not yet sent, is after the last FRP
	f.put(resp(2, 9'000'000, 9'000'000), base + 3 * kRrp + 300 * kUs);
	EXPECT_EQ(f.v("bad_rx"), 1u);
	EXPECT_EQ(f.rate(), 6'000'000u);
}

TEST(AccurateEpoch, AcrossTheU64ClockWrap)
{
	// the QP's clock wraps 3.5 RRPs into the run; the RRP the wrap cuts
	// short ends at 0, the epochs start again at 0
	const uint64_t t0 = 0 - (3 * kRrp + 500 * kUs);
	Flow f({{"small_flow_bytes", 0}, {"idle_stop_rrps", 1000}}, t0);
	std::vector<rxe_cc_frp> frps;
	std::vector<uint64_t> when;
	for (uint64_t t = 0; t < 10 * kRrp; t += 10 * kUs) {
		f.send(t);
		// served exactly at its deadline
		const int64_t d = f.qp.rx_timer_at();
		if (d < 0 || d > static_cast<int64_t>(t))
			continue;
		if (auto m = f.tick(static_cast<uint64_t>(d))) {
			frps.push_back(*m);
			when.push_back(t0 + static_cast<uint64_t>(d));
			f.put(resp(m->epoch, 4'000'000 + static_cast<uint32_t>(frps.size()),
			           4'000'000 + static_cast<uint32_t>(frps.size())),
			      t + 5 * kUs);
			EXPECT_EQ(f.rate(), 4'000'000 + frps.size()) << frps.size();
		}
	}
	ASSERT_GE(frps.size(), 9u);
	EXPECT_EQ(frps[0].type, RXE_CC_FRP_INIT);
	for (size_t i = 0; i < frps.size(); i++) {
		EXPECT_EQ(frps[i].epoch, epoch_of(when[i])) << i;
		if (i) {
			EXPECT_EQ(frps[i].type, RXE_CC_FRP_NORMAL);
			EXPECT_EQ(when[i] % kRrp, kPhase) << i;
		}
	}
	// one FRP per RRP of the clock: the cut-short one included
	uint64_t last = ~0ULL / kRrp;
	EXPECT_EQ(when[0] / kRrp, last - 3);
	size_t after = 0;
	for (size_t i = 0; i < when.size(); i++)
		if (when[i] < kRrp * 100)
			after++;
	EXPECT_EQ(after, 7u);        // RRPs 0..6 after the wrap
	EXPECT_EQ(when.size(), 11u); // and RRPs last - 3 .. last before it
	EXPECT_EQ(f.v("stale_rx"), 0u);
	EXPECT_EQ(f.v("bad_rx"), 0u);
}

// ---- §2.9: rate vectors ---------------------------------------------------

TEST(AccurateVectors, RateFollowsTheResponsesExactly)
{
	// one flow of three on C = 10 Gbit/s, alpha = 0.05 (Ceff = 9.5 G);
	// the (CR, DR) a single-bottleneck CP returns, RRP by RRP
	struct Step {
		uint32_t cr, dr, want;
	};
	const Step steps[] = {
		{3'166'666, 3'166'666, 3'166'666}, // steady: Ceff / 3
		{3'166'666, 3'166'666, 3'166'666},
		{3'166'666, 4'750'000, 4'750'000}, // a flow left: Ceff / 2 in DR
		{4'750'000, 6'333'334, 6'333'334}, // b_max promoted: overshoot
		{4'750'000, 4'750'000, 4'750'000}, // settled
		{4'750'000, 4'750'000, 4'750'000},
	};
	Flow f({{"small_flow_bytes", 0}, {"idle_stop_rrps", 1000}});
	f.start(20 * kUs);
	uint64_t k = 1;
	for (const auto &s : steps) {
		auto m = f.tick(k * kRrp + kPhase);
		ASSERT_TRUE(m);
		f.put(resp(m->epoch, s.cr, s.dr), k * kRrp + 300 * kUs);
		EXPECT_EQ(f.rate(), s.want) << k;
		EXPECT_EQ(f.qp.out().rate_bps, uint64_t{s.want} * 1000) << k;
		k++;
	}
}

// The contention point of specs/accurate.md §2.4, one link direction, in
// the integer form of §2.3 (kbit/s), with K_SC = 1.5.
struct Cp {
	explicit Cp(uint64_t c, uint64_t alpha_ppm = 50'000)
	    : C(c), ceff(c - c * alpha_ppm / 1'000'000), fsr(ceff), fsr_o(ceff)
	{
	}
	uint64_t compute(uint64_t m_, uint64_t b_, uint64_t nb_, uint64_t bmax_) const
	{
		if (m_ == 0) {
			if (b_ == 0 || nb_ == 0)
				return ceff;
			m_ = 1;
			b_ -= std::min(b_, bmax_);
			nb_--;
		}
		if (b_ >= ceff)
			return C / (m_ + nb_);
		return (ceff - b_) / m_;
	}
	void rrp_end()
	{
		fsr_o = fsr, m_o = m, b_o = b, nb_o = nb, bmax_o = bmax;
		fsr = compute(m, b, nb, bmax);
		m = b = nb = bmax = 0;
	}
	// a forward FRP; true with `sc` set if the CP short-circuits it
	bool forward(rxe_cc_frp &p, rxe_cc_frp &sc)
	{
		const uint64_t cr = p.cr_kbps;
		if (p.type == RXE_CC_FRP_STOP) {
			if (p.flags & RXE_CC_FRP_COUNTED) {
				if (fsr <= cr) {
					m = m ? m - 1 : 0;
				} else {
					b -= std::min(b, cr);
					nb = nb ? nb - 1 : 0;
				}
			}
			p.cr_kbps = static_cast<uint32_t>(std::min<uint64_t>(cr, fsr));
			return false;
		}
		if (p.type == RXE_CC_FRP_INIT) {
			if (fsr_o <= cr) {
				m_o++;
			} else {
				b_o += cr, nb_o++;
				bmax_o = std::max(bmax_o, cr);
			}
			fsr = compute(m_o, b_o, nb_o, bmax_o);
		}
		if (fsr <= cr) {
			m++;
			p.cr_kbps = static_cast<uint32_t>(fsr);
		} else {
			b += cr, nb++;
			bmax = std::max(bmax, cr);
		}
		p.dr_kbps = static_cast<uint32_t>(std::min<uint64_t>(p.dr_kbps, fsr));
		if (cr * 1000 > 1500 * fsr) {
			sc = p;
			sc.flags = RXE_CC_FRP_RESP | RXE_CC_FRP_SC;
			return true;
		}
		return false;
	}
	uint64_t C, ceff, fsr, fsr_o;
	uint64_t m = 0, b = 0, nb = 0, bmax = 0;
	uint64_t m_o = 0, b_o = 0, nb_o = 0, bmax_o = 0;
};

// RPs and CPs at RRP level: each flow sends a packet every 10 us while it
// is on; FRPs cross their path's CPs and come back at once (RTT << RRP).
struct Fabric {
	struct F {
		std::unique_ptr<Flow> flow;
		std::vector<size_t> path;
		uint64_t on = 0, off = ~0ULL;
	};
	void run_rrp(uint64_t k)
	{
		for (auto &cp : cps)
			cp.rrp_end();
		for (uint64_t t = k * kRrp; t < (k + 1) * kRrp; t += 10 * kUs) {
			for (auto &f : flows) {
				if (t >= f.on && t < f.off)
					f.flow->send(t);
				while (auto m = f.flow->tick(t)) {
					rxe_cc_frp p = *m, sc{};
					p.version = RXE_CC_FRP_VERSION;
					for (size_t i : f.path)
						if (cps[i].forward(p, sc))
							f.flow->put(sc, t);
					if (p.type != RXE_CC_FRP_STOP) {
						p.flags = RXE_CC_FRP_RESP;
						f.flow->put(p, t);
					}
				}
			}
		}
	}
	size_t add(std::vector<size_t> path, uint64_t on, uint64_t off = ~0ULL)
	{
		flows.push_back({std::make_unique<Flow>(cc::Params{{"small_flow_bytes", 0}}),
		                 std::move(path), on, off});
		return flows.size() - 1;
	}
	uint64_t rate(size_t i) { return flows[i].flow->rate(); }
	std::vector<Cp> cps;
	std::vector<F> flows;
};

TEST(AccurateVectors, SingleBottleneckStartsAndDeparture)
{
	Fabric fab;
	fab.cps.emplace_back(kLine);
	size_t a = fab.add({0}, 0);
	size_t b = fab.add({0}, 3 * kRrp + 500 * kUs);
	size_t c = fab.add({0}, 6 * kRrp + 500 * kUs, 12 * kRrp + 500 * kUs);
	std::vector<std::vector<uint64_t>> r;
	for (uint64_t k = 0; k < 20; k++) {
		fab.run_rrp(k);
		r.push_back({fab.rate(a), fab.rate(b), fab.rate(c)});
	}
	EXPECT_EQ(r[2][0], 9'500'000u); // alone: Ceff
	// b starts: at once at Ceff / 2 (INIT's prompt update), a one RRP later
	EXPECT_EQ(r[3][1], 4'750'000u);
	EXPECT_EQ(r[4][0], 4'750'000u);
	EXPECT_EQ(r[4][1], 4'750'000u);
	// c starts: Ceff / 3 at once
	EXPECT_EQ(r[6][2], 3'166'666u);
	for (uint64_t k = 7; k <= 12; k++)
		for (int i = 0; i < 3; i++)
			EXPECT_EQ(r[k][static_cast<size_t>(i)], 3'166'666u) << k << " " << i;
	// c stops at 12.5 RRP: its counted STOP at 13.5 frees its share for
	// RRP 14; the others go 4.75 -> 6.333 (overshoot) -> 4.75 G
	EXPECT_EQ(r[13][0], 3'166'666u);
	EXPECT_EQ(r[14][0], 4'750'000u);
	EXPECT_EQ(r[15][0], 6'333'334u);
	for (uint64_t k = 16; k < 20; k++) {
		EXPECT_EQ(r[k][0], 4'750'000u) << k;
		EXPECT_EQ(r[k][1], 4'750'000u) << k;
	}
	EXPECT_EQ(r[19][2], kLine); // not limited when idle
	EXPECT_EQ(fab.flows[c].flow->v("frp_tx_stop"), 1u);
	EXPECT_GE(fab.flows[c].flow->v("sc_rx"), 1u);
}

TEST(AccurateVectors, VictimKeepsItsShareAndRecovers)
{
	// f1: H1 -> local (H1's uplink); f4: H1 -> remote (uplink and the
	// leaf -> spine link); f2, f3 from two other hosts over leaf -> spine
	Fabric fab;
	for (int i = 0; i < 4; i++)
		fab.cps.emplace_back(kLine); // 0 H1 up, 1 leaf->spine, 2 H2 up, 3 H3 up
	size_t f1 = fab.add({0}, 0);
	size_t f2 = fab.add({2, 1}, 0);
	size_t f3 = fab.add({3, 1}, 8 * kRrp + 500 * kUs);
	size_t f4 = fab.add({0, 1}, 18 * kRrp + 500 * kUs, 28 * kRrp + 500 * kUs);
	std::vector<std::vector<uint64_t>> r;
	for (uint64_t k = 0; k < 36; k++) {
		fab.run_rrp(k);
		r.push_back({fab.rate(f1), fab.rate(f2), fab.rate(f3), fab.rate(f4)});
	}
	EXPECT_EQ(r[7][0], 9'500'000u);
	EXPECT_EQ(r[7][1], 9'500'000u);
	// f3 starts: f2 = f3 = 4.75, f1 unaffected
	EXPECT_EQ(r[8][2], 4'750'000u);
	EXPECT_EQ(r[10][1], 4'750'000u);
	EXPECT_EQ(r[10][0], 9'500'000u);
	// f4 starts: it gets Ceff / 3 at once
	EXPECT_EQ(r[18][3], 3'166'666u);
	for (uint64_t k = 24; k < 28; k++) {
		EXPECT_EQ(r[k][1], 3'166'666u) << k;
		EXPECT_EQ(r[k][2], 3'166'666u) << k;
		EXPECT_EQ(r[k][3], 3'166'666u) << k;
		EXPECT_EQ(r[k][0], 6'333'334u) << k; // the victim keeps Ceff - Ceff / 3
	}
	// the victim: Ceff / 2 on H1's uplink first, then Ceff - Ceff / 3, two
	// RRP boundaries after f4's start
	EXPECT_EQ(r[18][0], 9'500'000u);
	EXPECT_EQ(r[19][0], 4'750'000u);
	EXPECT_EQ(r[20][0], 6'333'334u);
	// f4 stops at 28.5 RRP (its counted STOP at 29.5): f1 = Ceff after one
	// RRP, f2 = f3 go 4.75 -> 6.333 (overshoot) -> 4.75 G
	EXPECT_EQ(r[29][0], 6'333'334u);
	EXPECT_EQ(r[30][0], 9'500'000u);
	EXPECT_EQ(r[30][1], 4'750'000u);
	EXPECT_EQ(r[31][1], 6'333'334u);
	EXPECT_EQ(r[31][2], 6'333'334u);
	EXPECT_EQ(r[32][1], 4'750'000u);
	EXPECT_EQ(r[35][0], 9'500'000u);
	EXPECT_EQ(r[35][1], 4'750'000u);
	EXPECT_EQ(r[35][2], 4'750'000u);
}

} // namespace
