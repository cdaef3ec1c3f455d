// HPCC core (drivers/infiniband/sw/rxe/rxe_cc_hpcc.c) against hand-computed
// sequences of specs/hpcc.md §2 in the fixed point of §2.7, and a seeded
// fuzz against a reference model in 128-bit arithmetic. Times in ns from QP
// creation; windows in bytes; U, u and eta in Q16 (65536 = 1.0).
//
// Unless a test says otherwise the link is the reference one, 100 Mbit/s
// with an unknown base RTT, so T = 1000 us = 10^6 ns and
//   W_init = 10^8 bit/s * 10^-3 s / 8 = 12500 bytes,
//   eta    = 95 * 65536 / 100 = 62259 (62259.2 rounded down),
//   W_AI   = 12500 * (1 - 0.95) / 16 = 39 (39.06), W_min = 12500 / 100 = 125,
//   max_stage = 5,
// and the INT hops use rate code 11 = 100 Mbit/s, so B * T = 12500 bytes.
//
// One hop's sample, from two stacks (L and the new one):
//   u = q * 8000 * 2^16 / (B * T_ns) + dtx * 8000 * 2^16 / (dts * B)
//   with q = min(qlen) * 80 bytes, dtx = dTxBytes * 128 bytes, B in Mbit/s;
//   U = (U * (T - tau) + umax * tau) / T, tau = min(dts of the max hop, T);
//   W = Wc * eta / U + W_AI (U >= eta or inc_stage >= max_stage), else
//   W = Wc + W_AI; W clamped to [W_min, W_init]; all divisions round down.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "cc_harness.h"

namespace cc
{
namespace
{

const rxe_cc_ops *const kOps = &rxe_cc_hpcc_ops;
constexpr uint64_t kLine = 100'000'000; // 100 Mbit/s
constexpr uint64_t kT = kMs;            // T at the reference link
constexpr uint32_t kWinit = 12500;
constexpr uint32_t kEta = 62259;
constexpr uint32_t kWai = 39;
constexpr uint32_t kWmin = 125;
constexpr uint8_t k100M = 11; // configurable code 11 = 100 Mbit/s
constexpr uint32_t kTsMask = 0xffffff;
constexpr uint32_t kTxbMask = 0xfffff;

rxe_cc_int_hop Hop(uint8_t b, uint32_t ts, uint32_t txb, uint16_t qlen)
{
	rxe_cc_int_hop h{};
	h.b = b;
	h.ts = ts & kTsMask;
	h.tx_bytes = txb & kTxbMask;
	h.qlen = qlen;
	return h;
}

rxe_cc_fb_int Stack(uint32_t psn, uint16_t path, std::initializer_list<rxe_cc_int_hop> hops)
{
	rxe_cc_fb_int s{};
	s.psn = psn & 0xffffff;
	s.path_id = path;
	for (const auto &h : hops)
		s.hop[s.n_hops++] = h;
	return s;
}

// Send PSNs [from, to).
void SendPsns(Qp &qp, uint64_t t, uint32_t from, uint32_t to)
{
	for (uint32_t psn = from; psn != to; psn = (psn + 1) & 0xffffff)
		qp.send_psn(t, psn);
}

uint64_t S(const Qp &qp, const char *name)
{
	return qp.state(name, 0);
}

Qp RefQp(const Params &over = {})
{
	return Qp(kOps, kLine, 0, over);
}

uint32_t Param(const std::vector<uint32_t> &p, const char *name)
{
	int i = param_index(kOps, name);
	EXPECT_GE(i, 0) << name;
	return i < 0 ? 0 : p[static_cast<size_t>(i)];
}

int RunSetup(const rxe_cc_link &link, const Params &over, const char **why)
{
	auto p = make_params(kOps, link, over);
	std::vector<uint64_t> cfg(kOps->cfg_size / 8 + 1);
	*why = nullptr;
	return kOps->setup(cfg.data(), p.data(), &link, why);
}

// ------------------------------------------------------------- parameters

TEST(HpccParams, OpsDescribeTheAlgorithm)
{
	EXPECT_STREQ(kOps->name, "hpcc");
	EXPECT_EQ(kOps->wire, uint32_t{RXE_CC_WIRE_INT});
	EXPECT_EQ(kOps->flags, uint32_t{RXE_CC_F_ACK_EVERY}) << "no timers, nothing lazy";
	EXPECT_NE(kOps->on_send, nullptr);
	EXPECT_NE(kOps->on_ack, nullptr);
	EXPECT_NE(kOps->on_feedback, nullptr);
	EXPECT_NE(kOps->on_timer, nullptr);
	EXPECT_EQ(kOps->rx_data, nullptr);
	EXPECT_EQ(kOps->rx_timer, nullptr);
	EXPECT_LE(kOps->n_params, uint32_t{RXE_CC_MAX_PARAMS});
	EXPECT_LE(kOps->n_state, uint32_t{RXE_CC_MAX_STATE});
	for (uint32_t i = 0; i < kOps->n_params; i++) {
		EXPECT_LE(kOps->params[i].min, kOps->params[i].def) << kOps->params[i].name;
		EXPECT_LE(kOps->params[i].def, kOps->params[i].max) << kOps->params[i].name;
		EXPECT_NE(kOps->params[i].help, nullptr);
	}
	for (const char *name :
	     {"window_bytes", "wc_bytes", "u_q16", "inc_stage", "rate_kbps", "int_active", "n_hops",
	      "path_id", "int_samples", "wc_syncs", "md_steps", "ai_steps", "int_ignored",
	      "int_restarts", "last_update_psn", "snd_nxt"})
		EXPECT_GE(state_index(kOps, name), 0) << name;
}

TEST(HpccParams, TableDefaultsAreTheReferenceLink)
{
	rxe_cc_link link{kLine, 0, 1024};
	auto p = make_params(kOps, link, {});
	for (uint32_t i = 0; i < kOps->n_params; i++)
		EXPECT_EQ(p[i], kOps->params[i].def) << kOps->params[i].name;
	EXPECT_EQ(Param(p, "base_rtt_us"), 1000u); // unknown RTT
	EXPECT_EQ(Param(p, "eta_pct"), 95u);
	EXPECT_EQ(Param(p, "max_stage"), 5u);
	EXPECT_EQ(Param(p, "w_ai_bytes"), kWai);   // 12500 * 5 / 1600 = 39.06
	EXPECT_EQ(Param(p, "w_min_bytes"), kWmin); // 12500 / 100
	EXPECT_EQ(Param(p, "int_max_hops"), 5u);
	EXPECT_EQ(Param(p, "b11_mbps"), 100u);
	EXPECT_EQ(Param(p, "b12_mbps"), 200u);
	EXPECT_EQ(Param(p, "b13_mbps"), 500u);
	EXPECT_EQ(Param(p, "b14_mbps"), 0u);
	EXPECT_EQ(Param(p, "b15_mbps"), 0u);
}

TEST(HpccParams, DefaultsScaleWithLineRateAndRtt)
{
	// 10 Gbit/s, 100 us: T = 110 us, W_init = 10^10 * 110e-6 / 8 = 137500,
	// W_AI = 137500 * 5 / 1600 = 429 (429.69), W_min = 1375.
	rxe_cc_link ten{10'000'000'000ULL, 100 * kUs, 1024};
	auto p = make_params(kOps, ten, {});
	EXPECT_EQ(Param(p, "base_rtt_us"), 110u);
	EXPECT_EQ(Param(p, "w_ai_bytes"), 429u);
	EXPECT_EQ(Param(p, "w_min_bytes"), 1375u);
	EXPECT_EQ(Param(p, "eta_pct"), 95u);
	// 100 Mbit/s with a measured 1 ms: T = 1100 us, W_init = 13750,
	// W_AI = 13750 * 5 / 1600 = 42 (42.97), W_min = 137.
	rxe_cc_link ms{kLine, kMs, 1024};
	p = make_params(kOps, ms, {});
	EXPECT_EQ(Param(p, "base_rtt_us"), 1100u);
	EXPECT_EQ(Param(p, "w_ai_bytes"), 42u);
	EXPECT_EQ(Param(p, "w_min_bytes"), 137u);
	// +10 % rounds up to whole us: 100001 ns -> 110001.1 ns -> 111 us.
	rxe_cc_link odd{kLine, 100'001, 1024};
	EXPECT_EQ(Param(make_params(kOps, odd, {}), "base_rtt_us"), 111u);
	// 1 Gbit/s, 1 us: T = 2 us (1.1 rounded up), W_init = 250,
	// W_AI = max(1, 250 * 5 / 1600 = 0) = 1, W_min = 2.
	rxe_cc_link tiny{1'000'000'000ULL, 1 * kUs, 1024};
	p = make_params(kOps, tiny, {});
	EXPECT_EQ(Param(p, "base_rtt_us"), 2u);
	EXPECT_EQ(Param(p, "w_ai_bytes"), 1u);
	EXPECT_EQ(Param(p, "w_min_bytes"), 2u);
	// Extreme links stay within the ranges.
	for (uint64_t rate :
	     {uint64_t{0}, uint64_t{1}, uint64_t{1000}, kLine, uint64_t{1} << 40, ~uint64_t{0}}) {
		for (uint64_t rtt : {uint64_t{0}, uint64_t{1}, kMs, 100'000 * kMs, ~uint64_t{0}}) {
			rxe_cc_link l{rate, rtt, 1024};
			p = make_params(kOps, l, {});
			for (uint32_t i = 0; i < kOps->n_params; i++) {
				EXPECT_GE(p[i], kOps->params[i].min) << kOps->params[i].name;
				EXPECT_LE(p[i], kOps->params[i].max) << kOps->params[i].name;
			}
		}
	}
	// The largest RTT: T is clamped to 1 s.
	rxe_cc_link slow{kLine, ~uint64_t{0}, 1024};
	EXPECT_EQ(Param(make_params(kOps, slow, {}), "base_rtt_us"), 1'000'000u);
}

TEST(HpccParams, SetupRejectsInconsistentSets)
{
	rxe_cc_link link{kLine, 0, 1024};
	const char *why = nullptr;
	EXPECT_EQ(RunSetup(link, {}, &why), 0);
	EXPECT_EQ(why, nullptr);
	// W_min up to W_init = 12500.
	EXPECT_EQ(RunSetup(link, {{"w_min_bytes", kWinit}}, &why), 0);
	EXPECT_EQ(RunSetup(link, {{"w_min_bytes", kWinit + 1}}, &why), -EINVAL);
	ASSERT_NE(why, nullptr);
	EXPECT_NE(std::string(why).find("w_min_bytes"), std::string::npos);
	// Out of the table's ranges.
	for (const Params &bad : std::vector<Params>{{{"base_rtt_us", 0}},
	                                             {{"base_rtt_us", 1'000'001}},
	                                             {{"eta_pct", 49}},
	                                             {{"eta_pct", 101}},
	                                             {{"max_stage", 101}},
	                                             {{"w_ai_bytes", 0}},
	                                             {{"w_ai_bytes", (1u << 24) + 1}},
	                                             {{"w_min_bytes", 0}},
	                                             {{"int_max_hops", 0}},
	                                             {{"int_max_hops", 6}},
	                                             {{"b11_mbps", 4'000'001}},
	                                             {{"b15_mbps", 4'000'001}}}) {
		EXPECT_EQ(RunSetup(link, bad, &why), -EINVAL) << bad.begin()->first;
		EXPECT_NE(why, nullptr);
	}
	// No line rate, or one so low that W_init is 0 bytes:
	// 7999999 bit/s * 1 us / 8 = 0.99 bytes.
	rxe_cc_link zero{0, 0, 1024};
	EXPECT_EQ(RunSetup(zero, {}, &why), -EINVAL);
	rxe_cc_link low{7'999'999, 0, 1024};
	EXPECT_EQ(RunSetup(low, {{"base_rtt_us", 1}, {"w_min_bytes", 1}}, &why), -EINVAL);
	// 8 Mbit/s * 1 us / 8 = 1 byte: the smallest W_init.
	rxe_cc_link one{8'000'000, 0, 1024};
	EXPECT_EQ(RunSetup(one, {{"base_rtt_us", 1}, {"w_min_bytes", 1}}, &why), 0);
	// W_init at most 2^31: 2^34 bit/s * 1 s / 8 = 2^31 is the largest;
	// 40 Gbit/s * 1 s / 8 = 5e9 bytes is refused.
	rxe_cc_link edge{1ULL << 34, 0, 1024};
	EXPECT_EQ(RunSetup(edge, {{"base_rtt_us", 1'000'000}}, &why), 0);
	rxe_cc_link over{(1ULL << 34) + 8, 0, 1024};
	EXPECT_EQ(RunSetup(over, {{"base_rtt_us", 1'000'000}}, &why), -EINVAL);
	rxe_cc_link forty{40'000'000'000ULL, 0, 1024};
	EXPECT_EQ(RunSetup(forty, {{"base_rtt_us", 1'000'000}}, &why), -EINVAL);
	// The largest line rate does not overflow W_init's computation.
	rxe_cc_link huge{~uint64_t{0}, 0, 1024};
	EXPECT_EQ(RunSetup(huge, {{"base_rtt_us", 1}}, &why), -EINVAL);
}

TEST(HpccParams, DoubtfulSetsCompileWithAWarning)
{
	rxe_cc_link link{kLine, 0, 1024};
	const char *msg = nullptr;
	// 16 * 39 = 624 <= 12500 * 5 % = 625: fine; 16 * 40 = 640 is not.
	EXPECT_EQ(RunSetup(link, {}, &msg), 0);
	EXPECT_EQ(msg, nullptr);
	EXPECT_EQ(RunSetup(link, {{"w_ai_bytes", 40}}, &msg), 0);
	ASSERT_NE(msg, nullptr);
	EXPECT_NE(std::string(msg).find("standing queue"), std::string::npos);
	// eta = 100 %: any additive increase keeps a queue.
	EXPECT_EQ(RunSetup(link, {{"eta_pct", 100}, {"w_ai_bytes", 1}}, &msg), 0);
	EXPECT_NE(msg, nullptr);
	// T below the measured base RTT (pitfall 6).
	rxe_cc_link ms{kLine, kMs, 1024};
	EXPECT_EQ(RunSetup(ms, {}, &msg), 0);
	EXPECT_EQ(msg, nullptr) << "the scaled defaults are not doubtful";
	EXPECT_EQ(RunSetup(ms, {{"base_rtt_us", 999}, {"w_ai_bytes", 1}}, &msg), 0);
	ASSERT_NE(msg, nullptr);
	EXPECT_NE(std::string(msg).find("base RTT"), std::string::npos);
	// The scaled defaults of other links are not doubtful either.
	for (uint64_t rate : {1'000'000'000ULL, 10'000'000'000ULL, 100'000'000'000ULL}) {
		rxe_cc_link l{rate, 100 * kUs, 1024};
		EXPECT_EQ(RunSetup(l, {}, &msg), 0);
		EXPECT_EQ(msg, nullptr) << rate;
	}
}

// -------------------------------------------------------------- outputs

TEST(HpccInit, LineRateAndFullWindow)
{
	Qp qp = RefQp();
	EXPECT_EQ(qp.out().window_bytes, kWinit);
	EXPECT_EQ(qp.out().rate_bps, kLine); // 12500 * 8e9 / 1e6
	EXPECT_EQ(qp.out().flags, 0u) << "no timer, never quiet";
	EXPECT_EQ(S(qp, "window_bytes"), kWinit);
	EXPECT_EQ(S(qp, "wc_bytes"), kWinit);
	EXPECT_EQ(S(qp, "u_q16"), 65536u);
	EXPECT_EQ(S(qp, "rate_kbps"), 100'000u);
	EXPECT_EQ(S(qp, "int_active"), 0u);
	EXPECT_EQ(S(qp, "inc_stage"), 0u);

	// 10 Gbit/s, 100 us: T = 110 us, W_init = 137500,
	// rate = 137500 * 8e9 / 110000 = 10^10.
	Qp ten(kOps, 10'000'000'000ULL, 100 * kUs);
	EXPECT_EQ(ten.out().window_bytes, 137'500u);
	EXPECT_EQ(ten.out().rate_bps, 10'000'000'000u);
}

TEST(HpccInit, WithoutIntHopsTheQpStaysAtLineRate)
{
	// A peer or path without INT switches: every stack has no hop.
	Qp qp = RefQp();
	SendPsns(qp, 0, 0, 100);
	for (uint32_t psn = 0; psn < 100; psn++)
		qp.ack_int(psn * 10 * kUs, Stack(psn, 0, {}));
	qp.ack(2 * kMs, 100, RXE_CC_ACK_NAK_SEQ);
	EXPECT_EQ(S(qp, "int_active"), 0u);
	EXPECT_EQ(S(qp, "int_samples"), 0u);
	EXPECT_EQ(S(qp, "int_ignored"), 0u);
	EXPECT_EQ(qp.out().window_bytes, kWinit);
	EXPECT_EQ(qp.out().rate_bps, kLine);
	EXPECT_EQ(qp.out().events, 0u);
	// CNP and PAUSE feedback change nothing either.
	qp.cnp(3 * kMs);
	rxe_cc_fb fb{};
	fb.pause.paused = 1;
	qp.feedback(RXE_CC_FB_PAUSE, fb, 3 * kMs);
	EXPECT_EQ(qp.out().window_bytes, kWinit);
	EXPECT_EQ(qp.out().events, 0u);
}

// ------------------------------------------------ Algorithm 1, one hop

// L: ts 1000, txBytes 0, qlen 25 (2000 bytes) at 1 ms, PSNs 0..9 sent.
Qp OneHopWithL(const Params &over = {})
{
	Qp qp = RefQp(over);
	SendPsns(qp, 0, 0, 10);
	qp.ack_int(1 * kMs, Stack(0, 7, {Hop(k100M, 1000, 0, 25)}));
	return qp;
}

TEST(HpccOneHop, FirstStackOnlyBecomesL)
{
	Qp qp = OneHopWithL();
	EXPECT_EQ(S(qp, "int_active"), 1u);
	EXPECT_EQ(S(qp, "n_hops"), 1u);
	EXPECT_EQ(S(qp, "path_id"), 7u);
	EXPECT_EQ(S(qp, "int_restarts"), 1u);
	EXPECT_EQ(S(qp, "int_samples"), 0u);
	EXPECT_EQ(S(qp, "last_update_psn"), 10u) << "snd_nxt";
	EXPECT_EQ(S(qp, "snd_nxt"), 10u);
	EXPECT_EQ(S(qp, "window_bytes"), kWinit);
	EXPECT_EQ(S(qp, "u_q16"), 65536u);
	EXPECT_EQ(qp.out().window_bytes, kWinit);
	EXPECT_EQ(qp.out().events, 0u);
}

TEST(HpccOneHop, MultiplicativeDecreaseThenAdditiveIncrease)
{
	Qp qp = OneHopWithL();
	SendPsns(qp, 1 * kMs, 10, 20);
	// ACK of PSN 10 (>= last_update_psn 10: a W^c sync), 512 us later on
	// the hop: dts = 512000 ns, dtx = 50 * 128 = 6400 bytes, qlen 25 twice:
	//   txRate/B = 6400 * 8000 * 2^16 / (512000 * 100) = 65536 (1.0)
	//   q/(B*T)  = 2000 * 8000 * 2^16 / (100 * 10^6) = 10485 (10485.76)
	//   u = 76021, tau = 512000
	//   U = (65536 * 488000 + 76021 * 512000) / 10^6 = 70904 (70904.32)
	// U >= eta: W = 12500 * 62259 / 70904 + 39 = 10975 + 39 = 11014.
	qp.ctx().out.events = 0;
	qp.ack_int(1 * kMs + 512 * kUs, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}));
	EXPECT_EQ(S(qp, "u_q16"), 70904u);
	EXPECT_EQ(S(qp, "window_bytes"), 11014u);
	EXPECT_EQ(S(qp, "wc_bytes"), 11014u);
	EXPECT_EQ(S(qp, "inc_stage"), 0u);
	EXPECT_EQ(S(qp, "wc_syncs"), 1u);
	EXPECT_EQ(S(qp, "md_steps"), 1u);
	EXPECT_EQ(S(qp, "int_samples"), 1u);
	EXPECT_EQ(S(qp, "last_update_psn"), 20u);
	EXPECT_EQ(qp.out().window_bytes, 11014u);
	// rate = 11014 * 8e9 / 10^6 = 88112000 bit/s
	EXPECT_EQ(qp.out().rate_bps, 88'112'000u);
	EXPECT_EQ(S(qp, "rate_kbps"), 88'112u);
	EXPECT_EQ(qp.out().events, uint32_t{RXE_CC_EV_RATE_DEC});

	// ACK of PSN 11 (< 20: same round), another 512 us, 25 units =
	// 3200 bytes, qlen 0 now (min(0, 25) = 0):
	//   u = 3200 * 8000 * 2^16 / (512000 * 100) = 32768 (0.5)
	//   U = (70904 * 488000 + 32768 * 512000) / 10^6 = 51378 (51378.37)
	// U < eta, inc_stage 0 < 5: W = Wc + W_AI = 11014 + 39 = 11053; no
	// sync: W^c and inc_stage stay.
	qp.ctx().out.events = 0;
	qp.ack_int(1 * kMs + 1024 * kUs, Stack(11, 7, {Hop(k100M, 1'025'000, 75, 0)}));
	EXPECT_EQ(S(qp, "u_q16"), 51378u);
	EXPECT_EQ(S(qp, "window_bytes"), 11053u);
	EXPECT_EQ(S(qp, "wc_bytes"), 11014u);
	EXPECT_EQ(S(qp, "inc_stage"), 0u);
	EXPECT_EQ(S(qp, "ai_steps"), 1u);
	EXPECT_EQ(S(qp, "wc_syncs"), 1u);
	EXPECT_EQ(S(qp, "last_update_psn"), 20u);
	EXPECT_EQ(qp.out().events, uint32_t{RXE_CC_EV_RATE_INC});
}

// Fig. 5: ACKs of one round that see the same queue do not compound.
// dts = 1024000 ns >= T, so tau = T and U = u exactly:
//   txRate/B = 100 * 128 * 8000 * 2^16 / (1024000 * 100) = 65536
//   q/(B*T) = 125 * 80 * 8000 * 2^16 / (100 * 10^6) = 52428 (52428.8)
//   U = u = 117964; W = 12500 * 62259 / 117964 + 39 = 6597 + 39 = 6636
TEST(HpccOneHop, SameQueueInOneRoundGivesTheSameWindow)
{
	Qp qp = RefQp();
	SendPsns(qp, 0, 0, 10);
	qp.ack_int(0, Stack(0, 1, {Hop(k100M, 0, 0, 125)}));
	// PSNs 1 and 2 are below last_update_psn = 10: no sync.
	qp.ack_int(1024 * kUs, Stack(1, 1, {Hop(k100M, 1'024'000, 100, 125)}));
	EXPECT_EQ(S(qp, "u_q16"), 117964u);
	EXPECT_EQ(S(qp, "window_bytes"), 6636u);
	EXPECT_EQ(S(qp, "wc_bytes"), kWinit);
	qp.ack_int(2048 * kUs, Stack(2, 1, {Hop(k100M, 2'048'000, 200, 125)}));
	EXPECT_EQ(S(qp, "window_bytes"), 6636u) << "W^c / 2 twice, not W^c / 4";
	EXPECT_EQ(S(qp, "wc_syncs"), 0u);
	EXPECT_EQ(S(qp, "md_steps"), 2u);
	// PSN 9 is still below; PSN 10 reaches last_update_psn: W^c = 6636.
	qp.ack_int(3072 * kUs, Stack(9, 1, {Hop(k100M, 3'072'000, 300, 125)}));
	EXPECT_EQ(S(qp, "wc_syncs"), 0u);
	SendPsns(qp, 3072 * kUs, 10, 30);
	qp.ack_int(4096 * kUs, Stack(10, 1, {Hop(k100M, 4'096'000, 400, 125)}));
	EXPECT_EQ(S(qp, "window_bytes"), 6636u);
	EXPECT_EQ(S(qp, "wc_bytes"), 6636u);
	EXPECT_EQ(S(qp, "wc_syncs"), 1u);
	EXPECT_EQ(S(qp, "last_update_psn"), 30u);
	// The next round starts from W^c = 6636: 6636 * 62259 / 117964 + 39 =
	// 3502 + 39 = 3541, once per round again.
	qp.ack_int(5120 * kUs, Stack(11, 1, {Hop(k100M, 5'120'000, 500, 125)}));
	EXPECT_EQ(S(qp, "window_bytes"), 3541u);
	EXPECT_EQ(S(qp, "wc_bytes"), 6636u);
	qp.ack_int(6144 * kUs, Stack(29, 1, {Hop(k100M, 6'144'000, 600, 125)}));
	EXPECT_EQ(S(qp, "window_bytes"), 3541u);
	qp.ack_int(7168 * kUs, Stack(30, 1, {Hop(k100M, 7'168'000, 700, 125)}));
	EXPECT_EQ(S(qp, "wc_bytes"), 3541u);
	EXPECT_EQ(S(qp, "wc_syncs"), 2u);
}

// inc_stage counts AI rounds up to max_stage, then an MI step.
TEST(HpccOneHop, AdditiveRoundsThenMultiplicativeIncrease)
{
	Qp qp = RefQp();
	uint32_t psn = 0;
	uint64_t t = 0;
	uint32_t txb = 0;
	auto round = [&](uint32_t dtx_units, uint16_t qlen) {
		// one packet per round; its ACK covers it (PSN >= snd_nxt - 1)
		qp.send_psn(t, psn);
		t += 1024 * kUs;
		txb += dtx_units;
		qp.ack_int(t, Stack(psn, 3, {Hop(k100M, static_cast<uint32_t>(t), txb, qlen)}));
		psn++;
	};
	qp.send_psn(0, psn);
	qp.ack_int(0, Stack(psn, 3, {Hop(k100M, 0, 0, 65535)}));
	psn++;
	// The queue saturates qlen: q = 65535 * 80 = 5242800 bytes,
	//   U = 5242800 * 8000 * 2^16 / 10^8 = 27487371 (tau = T, dtx = 0)
	//   W = 12500 * 62259 / 27487371 + 39 = 28 + 39 = 67 -> W_min 125.
	round(0, 65535);
	EXPECT_EQ(S(qp, "u_q16"), 27'487'371u);
	EXPECT_EQ(S(qp, "window_bytes"), kWmin);
	EXPECT_EQ(S(qp, "wc_bytes"), kWmin);
	// Then half the link (50 units in 1024 us: U = 32768) and no queue:
	// five AI rounds 125 + 39 k, k = 1..5, with inc_stage = k.
	const uint32_t ai[] = {164, 203, 242, 281, 320};
	for (uint32_t k = 1; k <= 5; k++) {
		round(50, 0);
		EXPECT_EQ(S(qp, "u_q16"), 32768u);
		EXPECT_EQ(S(qp, "window_bytes"), ai[k - 1]) << k;
		EXPECT_EQ(S(qp, "inc_stage"), k);
	}
	// inc_stage = max_stage: MI, W = 320 * 62259 / 32768 + 39 = 607 + 39.
	round(50, 0);
	EXPECT_EQ(S(qp, "window_bytes"), 646u);
	EXPECT_EQ(S(qp, "inc_stage"), 0u);
	EXPECT_EQ(S(qp, "ai_steps"), 5u);
	EXPECT_EQ(S(qp, "md_steps"), 2u);
	// The MI steps grow W up to W_init and no further.
	for (int i = 0; i < 60; i++)
		round(50, 0);
	EXPECT_EQ(S(qp, "window_bytes"), kWinit);
	EXPECT_EQ(qp.out().rate_bps, kLine);
}

TEST(HpccOneHop, MaxStageZeroAlwaysMultiplies)
{
	Qp qp = RefQp({{"max_stage", 0}});
	SendPsns(qp, 0, 0, 3);
	qp.ack_int(0, Stack(0, 3, {Hop(k100M, 0, 0, 0)}));
	// U = 32768 < eta, but inc_stage 0 >= max_stage 0: MI from W_init,
	// 12500 * 62259 / 32768 + 39 = 23789 -> W_init.
	qp.ack_int(1024 * kUs, Stack(1, 3, {Hop(k100M, 1'024'000, 50, 0)}));
	EXPECT_EQ(S(qp, "window_bytes"), kWinit);
	EXPECT_EQ(S(qp, "ai_steps"), 0u);
	EXPECT_EQ(S(qp, "md_steps"), 1u);
}

// U reaches its smallest value, 1 (1/65536), with max_stage 0: the MI step
// divides by it without trouble. T = 100 us (W_init = 1250), a 400 Gbit/s
// hop (code 10), one 128-byte unit in dts = 167772 ns >= T:
//   u = 128 * 8000 * 2^16 / (167772 * 400000) = 1 (1.0000009), U = u = 1
//   W = 1250 * 62259 / 1 + 39 -> W_init = 1250.
TEST(HpccOneHop, SmallestUWithMaxStageZero)
{
	Qp qp = RefQp({{"base_rtt_us", 100}, {"max_stage", 0}});
	EXPECT_EQ(qp.out().window_bytes, 1250u);
	SendPsns(qp, 0, 0, 3);
	qp.ack_int(0, Stack(0, 3, {Hop(10, 0, 0, 0)}));
	qp.ack_int(168 * kUs, Stack(1, 3, {Hop(10, 167'772, 1, 0)}));
	EXPECT_EQ(S(qp, "u_q16"), 1u);
	EXPECT_EQ(S(qp, "window_bytes"), 1250u);
	// An idle hop (u = 0 < any sample) leaves U at 1: no hop is picked,
	// tau = 0 (specs/hpcc.md §2.6.4).
	qp.ack_int(336 * kUs, Stack(2, 3, {Hop(10, 335'544, 1, 0)}));
	EXPECT_EQ(S(qp, "u_q16"), 1u);
	EXPECT_EQ(S(qp, "window_bytes"), 1250u);
}

TEST(HpccOneHop, DuplicateStampsLeaveUAlone)
{
	Qp qp = OneHopWithL();
	qp.ack_int(1 * kMs + 512 * kUs, Stack(0, 7, {Hop(k100M, 513'000, 50, 25)}));
	uint64_t u = S(qp, "u_q16");
	uint64_t w = S(qp, "window_bytes");
	// The same stamps again (dts = 0): the hop is skipped, U and W stay
	// (W = Wc * eta / U + W_AI again).
	qp.ack_int(1 * kMs + 600 * kUs, Stack(0, 7, {Hop(k100M, 513'000, 50, 25)}));
	EXPECT_EQ(S(qp, "u_q16"), u);
	EXPECT_EQ(S(qp, "window_bytes"), w);
	EXPECT_EQ(S(qp, "int_samples"), 2u);
}

// -------------------------------------------------------------- wraps

// The pair of MultiplicativeDecreaseThenAdditiveIncrease placed across the
// wrap of TS (24 bits) and of txBytes (20 bits) gives U = 70904 again.
TEST(HpccWrap, TimestampAndTxBytesWrapGiveTheSameU)
{
	struct Pair {
		uint32_t ts0, txb0;
	};
	for (const Pair &p : {Pair{1000, 0}, Pair{kTsMask - 1000, 0}, Pair{1000, kTxbMask - 20},
	                      Pair{kTsMask, kTxbMask}, Pair{kTsMask - 511'999, kTxbMask - 49}}) {
		SCOPED_TRACE(std::to_string(p.ts0) + " " + std::to_string(p.txb0));
		Qp qp = RefQp();
		SendPsns(qp, 0, 0, 10);
		qp.ack_int(1 * kMs, Stack(0, 7, {Hop(k100M, p.ts0, p.txb0, 25)}));
		qp.ack_int(1 * kMs + 512 * kUs,
		           Stack(10, 7, {Hop(k100M, p.ts0 + 512'000, p.txb0 + 50, 25)}));
		EXPECT_EQ(S(qp, "u_q16"), 70904u);
		EXPECT_EQ(S(qp, "window_bytes"), 11014u);
	}
}

TEST(HpccWrap, PsnWrapAndPsnZero)
{
	// The first PSN sent is 0xfffffe; snd_nxt wraps to 0 and 1.
	Qp qp = RefQp();
	SendPsns(qp, 0, 0xfffffe, 1);
	EXPECT_EQ(S(qp, "snd_nxt"), 1u);
	qp.ack_int(1 * kMs, Stack(0xfffffe, 7, {Hop(k100M, 1000, 0, 25)}));
	EXPECT_EQ(S(qp, "last_update_psn"), 1u);
	// PSN 0 is before 1: no sync; PSN 1 is: sync.
	qp.ack_int(1 * kMs + 512 * kUs, Stack(0, 7, {Hop(k100M, 513'000, 50, 25)}));
	EXPECT_EQ(S(qp, "wc_syncs"), 0u);
	qp.send_psn(2 * kMs, 1);
	qp.ack_int(2 * kMs, Stack(1, 7, {Hop(k100M, 1'025'000, 100, 25)}));
	EXPECT_EQ(S(qp, "wc_syncs"), 1u);
	EXPECT_EQ(S(qp, "last_update_psn"), 2u);
}

// ---------------------------------------------------------- multi-hop

// Three hops; the second (200 Mbit/s, code 12) is the most loaded and its
// own dts (500 us) is tau:
//   hop 0, 10 Gbit/s (code 4): 9000 * 128 bytes in 1024 us, no queue:
//     u = 1152000 * 8000 * 2^16 / (1024000 * 10000) = 58982 (0.9)
//   hop 1, 200 Mbit/s: 100 * 128 bytes in 500 us, qlen 25 (2000 bytes):
//     u = 12800 * 8000 * 2^16 / (500000 * 200) = 67108
//       + 2000 * 8000 * 2^16 / (200 * 10^6) = 5242 -> 72350
//   hop 2, 100 Mbit/s: 50 * 128 bytes in 1024 us: u = 32768
//   U = (65536 * 500000 + 72350 * 500000) / 10^6 = 68943
//   W = 12500 * 62259 / 68943 + 39 = 11288 + 39 = 11327
TEST(HpccMultiHop, TheMostLoadedHopDecides)
{
	const uint8_t order[][3] = {{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
	for (const auto &o : order) {
		SCOPED_TRACE(std::to_string(o[0]) + std::to_string(o[1]) + std::to_string(o[2]));
		rxe_cc_int_hop l[3] = {Hop(4, 100, 1000, 0), Hop(12, 200, 2000, 25),
		                       Hop(k100M, 300, 3000, 0)};
		rxe_cc_int_hop n[3] = {Hop(4, 100 + 1'024'000, 1000 + 9000, 0),
		                       Hop(12, 200 + 500'000, 2000 + 100, 25),
		                       Hop(k100M, 300 + 1'024'000, 3000 + 50, 0)};
		Qp qp = RefQp();
		SendPsns(qp, 0, 0, 10);
		qp.ack_int(0, Stack(0, 0x123, {l[o[0]], l[o[1]], l[o[2]]}));
		qp.ack_int(kMs, Stack(10, 0x123, {n[o[0]], n[o[1]], n[o[2]]}));
		EXPECT_EQ(S(qp, "n_hops"), 3u);
		EXPECT_EQ(S(qp, "u_q16"), 68943u);
		EXPECT_EQ(S(qp, "window_bytes"), 11327u);
	}
}

// ------------------------------------------------------- path changes

TEST(HpccPath, NewPathIdOrHopCountRestartsFromANewL)
{
	Qp qp = OneHopWithL();
	SendPsns(qp, 1 * kMs, 10, 20);
	qp.ack_int(1 * kMs + 512 * kUs, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}));
	ASSERT_EQ(S(qp, "window_bytes"), 11014u);
	SendPsns(qp, 1 * kMs, 20, 25);
	// Path 8: only stored. Its stamps are far from path 7's, so a wrong
	// difference would give another U.
	qp.ctx().out.events = 0;
	qp.ack_int(2 * kMs, Stack(11, 8, {Hop(k100M, 9'000'000, 70'000, 25)}));
	EXPECT_EQ(S(qp, "path_id"), 8u);
	EXPECT_EQ(S(qp, "int_restarts"), 2u);
	EXPECT_EQ(S(qp, "int_samples"), 1u);
	EXPECT_EQ(S(qp, "window_bytes"), 11014u);
	EXPECT_EQ(S(qp, "wc_bytes"), 11014u);
	EXPECT_EQ(S(qp, "u_q16"), 70904u);
	EXPECT_EQ(S(qp, "last_update_psn"), 25u) << "snd_nxt at the restart";
	EXPECT_EQ(qp.out().events, 0u);
	// Against the new L: 512 us, 50 units, qlen 25: u = 76021,
	// U = (70904 * 488000 + 76021 * 512000) / 10^6 = 73523 (73523.90);
	// PSN 12 < 25, so W = 11014 * 62259 / 73523 + 39 = 9326 + 39 = 9365.
	qp.ack_int(2 * kMs + 512 * kUs, Stack(12, 8, {Hop(k100M, 9'512'000, 70'050, 25)}));
	EXPECT_EQ(S(qp, "u_q16"), 73523u);
	EXPECT_EQ(S(qp, "window_bytes"), 9365u);
	EXPECT_EQ(S(qp, "wc_syncs"), 1u);
	// Same path ID, two hops: a restart too.
	qp.ack_int(3 * kMs, Stack(13, 8, {Hop(k100M, 1, 1, 1), Hop(k100M, 2, 2, 2)}));
	EXPECT_EQ(S(qp, "n_hops"), 2u);
	EXPECT_EQ(S(qp, "int_restarts"), 3u);
	EXPECT_EQ(S(qp, "window_bytes"), 9365u);
	EXPECT_EQ(S(qp, "u_q16"), 73523u);
}

TEST(HpccPath, StaleLIsAFirstSample)
{
	// 12 ms after L: still used. 12 ms + 1 ns: L is replaced, W stays,
	// and the round (last_update_psn 10, set by the first stack) goes on.
	Qp fresh = OneHopWithL();
	fresh.ack_int(13 * kMs, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}));
	EXPECT_EQ(S(fresh, "int_samples"), 1u);
	Qp stale = OneHopWithL();
	SendPsns(stale, 2 * kMs, 10, 15);
	stale.ack_int(13 * kMs + 1, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}));
	EXPECT_EQ(S(stale, "int_samples"), 0u);
	EXPECT_EQ(S(stale, "int_restarts"), 2u);
	EXPECT_EQ(S(stale, "window_bytes"), kWinit);
	EXPECT_EQ(S(stale, "u_q16"), 65536u);
	EXPECT_EQ(S(stale, "last_update_psn"), 10u);
	// The next stack is differenced against the stored one.
	stale.ack_int(13 * kMs + 512 * kUs, Stack(11, 7, {Hop(k100M, 1'025'000, 100, 25)}));
	EXPECT_EQ(S(stale, "u_q16"), 70904u);
	EXPECT_EQ(S(stale, "int_samples"), 1u);
}

TEST(HpccPath, FastHopsAgeFasterThanTheirTxBytesWrap)
{
	// At 400 Gbit/s (code 10) txBytes wraps every 2^27 * 8 / 400000 us =
	// 2684 us; L lives half of that: 2^29 * 1000 / 400000 = 1342177 ns.
	Qp ok = RefQp();
	SendPsns(ok, 0, 0, 10);
	ok.ack_int(0, Stack(0, 1, {Hop(10, 0, 0, 0)}));
	ok.ack_int(1'342'177, Stack(1, 1, {Hop(10, 1'342'177, 1000, 0)}));
	EXPECT_EQ(S(ok, "int_samples"), 1u);
	Qp old = RefQp();
	SendPsns(old, 0, 0, 10);
	old.ack_int(0, Stack(0, 1, {Hop(10, 0, 0, 0)}));
	old.ack_int(1'342'178, Stack(1, 1, {Hop(10, 1'342'178, 1000, 0)}));
	EXPECT_EQ(S(old, "int_samples"), 0u);
	EXPECT_EQ(S(old, "int_restarts"), 2u);
}

// --------------------------------------------------------- bad input

TEST(HpccBad, MalformedStacksChangeNothingButTheCounter)
{
	Qp qp = OneHopWithL({{"int_max_hops", 3}});
	SendPsns(qp, 1 * kMs, 10, 20);
	qp.ack_int(1 * kMs + 512 * kUs, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}));
	const rxe_cc_out out = qp.out();
	std::vector<uint64_t> before = qp.states(0);
	const int ignored = state_index(kOps, "int_ignored");
	ASSERT_GE(ignored, 0);
	const rxe_cc_int_hop good = Hop(k100M, 600'000, 60, 0);
	const std::vector<rxe_cc_fb_int> bad = {
		// 4 hops > int_max_hops 3
		Stack(11, 7, {good, good, good, good}),
		// rate code 0 is never a rate
		Stack(11, 7, {Hop(0, 600'000, 60, 0)}),
		Stack(11, 7, {good, Hop(0, 600'000, 60, 0)}),
		// code 14 is unassigned by default
		Stack(11, 7, {Hop(14, 600'000, 60, 0)}),
		Stack(11, 7, {good, good, Hop(15, 600'000, 60, 0)}),
	};
	uint64_t n = 0;
	for (const auto &st : bad) {
		SCOPED_TRACE(n);
		qp.ctx().out.events = 0;
		qp.ack_int(2 * kMs, st);
		n++;
		std::vector<uint64_t> after = qp.states(0);
		EXPECT_EQ(after[static_cast<size_t>(ignored)], n);
		after[static_cast<size_t>(ignored)] = before[static_cast<size_t>(ignored)];
		EXPECT_EQ(after, before);
		EXPECT_EQ(qp.out().events, uint32_t{RXE_CC_EV_FB_BAD});
		EXPECT_EQ(qp.out().window_bytes, out.window_bytes);
		EXPECT_EQ(qp.out().rate_bps, out.rate_bps);
	}
	// A good stack is still differenced against the last good one
	// (ts 513000, 512 us earlier): the bad ones were not taken as L.
	qp.ack_int(3 * kMs, Stack(12, 7, {Hop(k100M, 1'025'000, 100, 25)}));
	EXPECT_EQ(S(qp, "int_samples"), 2u);
	EXPECT_EQ(S(qp, "int_restarts"), 1u);
	// u = 76021 again: U = (70904 * 488000 + 76021 * 512000) / 10^6 = 73523
	EXPECT_EQ(S(qp, "u_q16"), 73523u);
}

TEST(HpccBad, AssignedConfigurableCodesAreRates)
{
	// Code 14 becomes 100 Mbit/s: the pair of
	// MultiplicativeDecreaseThenAdditiveIncrease gives the same numbers.
	Qp qp = RefQp({{"b14_mbps", 100}});
	SendPsns(qp, 0, 0, 10);
	qp.ack_int(1 * kMs, Stack(0, 7, {Hop(14, 1000, 0, 25)}));
	qp.ack_int(1 * kMs + 512 * kUs, Stack(10, 7, {Hop(14, 513'000, 50, 25)}));
	EXPECT_EQ(S(qp, "u_q16"), 70904u);
	EXPECT_EQ(S(qp, "window_bytes"), 11014u);
	EXPECT_EQ(S(qp, "int_ignored"), 0u);
}

TEST(HpccBad, BadFirstStackIsNotTaken)
{
	Qp qp = RefQp();
	qp.send_psn(0, 0);
	qp.ack_int(0, Stack(0, 7, {Hop(0, 1, 1, 1)}));
	EXPECT_EQ(S(qp, "int_active"), 0u);
	EXPECT_EQ(S(qp, "int_ignored"), 1u);
	EXPECT_EQ(S(qp, "int_restarts"), 0u);
}

// Garbage deltas: dts = 1 ns, the largest dtx and qlen, at the slowest and
// fastest rates and the extreme T: u is capped at 2^30 and W stays at W_min.
TEST(HpccBad, GarbageDeltasAreCapped)
{
	struct Case {
		uint64_t line;
		uint32_t t_us;
		uint32_t b11;
	};
	for (const Case &c :
	     {Case{kLine, 1'000'000, 1}, Case{kLine, 1000, 4'000'000},
	      Case{100'000'000'000ULL, 1, 1}, Case{17'179'869'184ULL, 1'000'000, 1}}) {
		SCOPED_TRACE(std::to_string(c.line) + " " + std::to_string(c.t_us));
		Qp qp(kOps, c.line, 0,
		      {{"base_rtt_us", c.t_us}, {"b11_mbps", c.b11}, {"w_min_bytes", 1}});
		const uint64_t t_ns = uint64_t{c.t_us} * 1000;
		const uint64_t w_init = qp.out().window_bytes;
		// the rate of W_init is W_init * 8e9 / T: no overflow at 2^31
		EXPECT_EQ(qp.out().rate_bps, w_init * 8'000'000'000ULL / t_ns);
		SendPsns(qp, 0, 0, 10);
		qp.ack_int(0, Stack(0, 1, {Hop(k100M, 0, 0, 0xffff)}));
		qp.ack_int(1, Stack(1, 1, {Hop(k100M, 1, kTxbMask, 0xffff)}));
		// u = cap = 2^30, tau = dts = 1: U = (65536 * (T - 1) + 2^30) / T
		EXPECT_EQ(S(qp, "u_q16"), (65536 * (t_ns - 1) + (1ULL << 30)) / t_ns);
		EXPECT_LE(S(qp, "u_q16"), 1ULL << 30);
		EXPECT_GE(S(qp, "window_bytes"), 1u);
		EXPECT_LE(S(qp, "window_bytes"), w_init);
		// 2^30 for a whole T: U = 2^30, W = W_min.
		qp.ack_int(2, Stack(2, 1, {Hop(k100M, kTsMask, kTxbMask - 1, 0xffff)}));
		EXPECT_LE(S(qp, "u_q16"), 1ULL << 30);
		EXPECT_LE(S(qp, "window_bytes"), w_init);
	}
	// The largest W_init, 2^31: every window's rate fits.
	Qp big(kOps, 17'179'869'184ULL, 0, {{"base_rtt_us", 1'000'000}});
	EXPECT_EQ(big.out().window_bytes, 1ULL << 31);
	EXPECT_EQ(big.out().rate_bps, 17'179'869'184ULL);
}

// -------------------------------------------------------- transport

TEST(HpccTransport, RetransmissionsAndReadResponsesDoNotMoveSndNxt)
{
	Qp qp = RefQp();
	SendPsns(qp, 0, 100, 130);
	EXPECT_EQ(S(qp, "snd_nxt"), 130u);
	for (uint32_t psn = 110; psn < 120; psn++)
		qp.send_psn(kMs, psn, 1100, RXE_CC_TX_RETX);
	qp.send_psn(kMs, 5000, 1100, RXE_CC_TX_READ_RESP);
	EXPECT_EQ(S(qp, "snd_nxt"), 130u);
	// An older PSN without RETX (never from the framework) does not pull
	// it back either.
	qp.send_psn(kMs, 90);
	EXPECT_EQ(S(qp, "snd_nxt"), 130u);
}

TEST(HpccTransport, NakCoversOnlyThePacketsBeforeItsPsn)
{
	// After L, last_update_psn = 10. A NAK-sequence carries PSN 10, the
	// first PSN not received: it covers PSN 9 only, no sync. An ACK of
	// PSN 10 syncs.
	Qp qp = OneHopWithL();
	SendPsns(qp, 1 * kMs, 10, 20);
	qp.ack_int(1 * kMs + 512 * kUs, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}),
	           RXE_CC_ACK_NAK_SEQ);
	EXPECT_EQ(S(qp, "int_samples"), 1u) << "NAKs carry INT: processed";
	EXPECT_EQ(S(qp, "wc_syncs"), 0u);
	EXPECT_EQ(S(qp, "window_bytes"), 11014u);
	EXPECT_EQ(S(qp, "wc_bytes"), kWinit);
	// Go-back-N resends 10..19 (RETX): snd_nxt and last_update_psn stay.
	for (uint32_t psn = 10; psn < 20; psn++)
		qp.send_psn(2 * kMs, psn, 1100, RXE_CC_TX_RETX);
	qp.ack_int(2 * kMs, Stack(10, 7, {Hop(k100M, 1'025'000, 100, 25)}));
	EXPECT_EQ(S(qp, "wc_syncs"), 1u);
	EXPECT_EQ(S(qp, "last_update_psn"), 20u);
	// An RNR NAK at PSN 21 covers 20: a sync once PSN 20 is reached.
	SendPsns(qp, 2 * kMs, 20, 25);
	qp.ack_int(3 * kMs, Stack(21, 7, {Hop(k100M, 1'537'000, 150, 25)}), RXE_CC_ACK_NAK_RNR);
	EXPECT_EQ(S(qp, "wc_syncs"), 2u);
	// A NAK only moves the stack of its own PSN: a NAK of PSN 24 without
	// INT, then a stack of PSN 25 (another packet) syncs.
	SendPsns(qp, 3 * kMs, 25, 30);
	qp.ack(3 * kMs, 24, RXE_CC_ACK_NAK_SEQ);
	qp.int_stack(3 * kMs, Stack(25, 7, {Hop(k100M, 2'049'000, 200, 25)}));
	EXPECT_EQ(S(qp, "wc_syncs"), 3u);
}

// -------------------------------------------------------- framework

TEST(HpccFramework, StateDumpDoesNotChangeTheState)
{
	Qp qp = OneHopWithL();
	qp.ack_int(1 * kMs + 512 * kUs, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}));
	std::vector<uint8_t> priv(kOps->priv_size);
	std::memcpy(priv.data(), qp.ctx().priv, priv.size());
	const rxe_cc_out out = qp.out();
	std::vector<uint64_t> v = qp.states(0);
	EXPECT_EQ(qp.states(1000 * kMs), v);
	EXPECT_EQ(std::memcmp(priv.data(), qp.ctx().priv, priv.size()), 0);
	EXPECT_EQ(std::memcmp(&out, &qp.out(), sizeof(out)), 0);
}

TEST(HpccFramework, ParameterChangeReadAtTheTimerCall)
{
	Qp qp = OneHopWithL();
	SendPsns(qp, 1 * kMs, 10, 20);
	qp.ack_int(1 * kMs + 512 * kUs, Stack(10, 7, {Hop(k100M, 513'000, 50, 25)}));
	ASSERT_EQ(S(qp, "wc_bytes"), 11014u);
	// T = 500 us: W_init = 6250; W and W^c are clamped to it, the rate is
	// 6250 * 8e9 / 500000 = 10^8.
	rxe_cc_link link{kLine, 0, 1024};
	auto p = make_params(kOps, link, {{"base_rtt_us", 500}});
	const char *why = nullptr;
	ASSERT_EQ(kOps->setup(const_cast<void *>(qp.ctx().cfg), p.data(), &link, &why), 0);
	qp.ctx().out.events = 0;
	qp.timer(2 * kMs);
	EXPECT_EQ(S(qp, "window_bytes"), 6250u);
	EXPECT_EQ(S(qp, "wc_bytes"), 6250u);
	EXPECT_EQ(qp.out().rate_bps, kLine);
	EXPECT_EQ(qp.out().events, uint32_t{RXE_CC_EV_RATE_DEC});
	qp.timer(2 * kMs);
	EXPECT_EQ(S(qp, "window_bytes"), 6250u) << "idempotent";

	// A QP without INT feedback yet follows W_init both ways.
	Qp idle = RefQp();
	ASSERT_EQ(kOps->setup(const_cast<void *>(idle.ctx().cfg), p.data(), &link, &why), 0);
	idle.timer(kMs);
	EXPECT_EQ(idle.out().window_bytes, 6250u);
	p = make_params(kOps, link, {{"base_rtt_us", 2000}});
	ASSERT_EQ(kOps->setup(const_cast<void *>(idle.ctx().cfg), p.data(), &link, &why), 0);
	idle.timer(2 * kMs);
	EXPECT_EQ(idle.out().window_bytes, 25'000u);
	EXPECT_EQ(idle.out().rate_bps, kLine);
}

TEST(HpccFramework, ParsedShimGivesTheSameResult)
{
	// The stack of MultiplicativeDecreaseThenAdditiveIncrease, through
	// the wire format (rxe_cc_int_parse()).
	auto shim = [](uint16_t path, uint8_t b, uint32_t ts, uint32_t txb, uint16_t q) {
		std::vector<uint8_t> s(RXE_CC_INT_SHIM_BYTES);
		const uint32_t w = 1u << 12 | path;
		s[0] = static_cast<uint8_t>(w >> 8);
		s[1] = static_cast<uint8_t>(w);
		const uint64_t v = uint64_t{b} << 60 | uint64_t{ts} << 36 | uint64_t{txb} << 16 | q;
		for (int j = 0; j < 8; j++)
			s[static_cast<size_t>(2 + j)] = static_cast<uint8_t>(v >> (56 - 8 * j));
		return s;
	};
	Qp qp = RefQp();
	SendPsns(qp, 0, 0, 20);
	rxe_cc_fb_int st{};
	ASSERT_TRUE(rxe_cc_int_parse(shim(7, k100M, 1000, 0, 25).data(), 0, &st));
	qp.ack_int(1 * kMs, st);
	ASSERT_TRUE(rxe_cc_int_parse(shim(7, k100M, 513'000, 50, 25).data(), 0, &st));
	qp.ack_int(1 * kMs + 512 * kUs, st);
	EXPECT_EQ(S(qp, "u_q16"), 70904u);
	EXPECT_EQ(S(qp, "window_bytes"), 11014u);
}

// ------------------------------------------------ fuzz and reference

__extension__ typedef unsigned __int128 u128;

// Algorithm 1 in 128-bit arithmetic, written from specs/hpcc.md §2.7 and
// the rules above, independently of the C core's bounds.
struct Ref {
	// configuration
	uint64_t t_ns = 0, w_init = 0, w_min = 0, w_ai = 0, eta = 0, max_stage = 0, max_hops = 0;
	uint64_t mbps[16] = {};
	// state
	uint64_t w = 0, wc = 0, u = 65536, stage = 0, lup = 0, snd_nxt = 0;
	uint64_t t_last = 0, t_l = 0;
	bool sent = false, active = false, nak = false;
	uint32_t nak_psn = 0;
	rxe_cc_int_hop l[5] = {};
	uint64_t n_l = 0, path = 0;
	uint64_t samples = 0, syncs = 0, md = 0, ai = 0, ignored = 0, restarts = 0;
	uint32_t events = 0;

	static bool psn_ge(uint64_t a, uint64_t b) { return ((a - b) & 0x800000) == 0; }

	// Compile @p (a new configuration keeps the state).
	void config(const std::vector<uint32_t> &p, uint64_t rate)
	{
		t_ns = uint64_t{Param(p, "base_rtt_us")} * 1000;
		w_init = static_cast<uint64_t>(u128{rate} * t_ns / 8'000'000'000ULL);
		w_min = Param(p, "w_min_bytes");
		w_ai = Param(p, "w_ai_bytes");
		eta = uint64_t{Param(p, "eta_pct")} * 65536 / 100;
		max_stage = Param(p, "max_stage");
		max_hops = Param(p, "int_max_hops");
		const uint64_t fixed[11] = {0,     1000,  2500,   5000,   10000, 25000,
		                            40000, 50000, 100000, 200000, 400000};
		for (int i = 0; i < 11; i++)
			mbps[i] = fixed[i];
		const char *names[5] = {"b11_mbps", "b12_mbps", "b13_mbps", "b14_mbps", "b15_mbps"};
		for (int i = 0; i < 5; i++)
			mbps[11 + i] = Param(p, names[i]);
	}
	bool valid() const { return w_init >= 1 && w_init <= (1ULL << 31) && w_min <= w_init; }
	void init() { w = wc = w_init; }
	// on_timer after a parameter change
	void timer(uint64_t t)
	{
		now(t);
		uint64_t old = w;
		if (!active)
			w = wc = w_init;
		w = std::min(std::max(w, w_min), w_init);
		wc = std::min(std::max(wc, w_min), w_init);
		stage = std::min(stage, max_stage);
		if (w < old)
			events |= RXE_CC_EV_RATE_DEC;
		else if (w > old)
			events |= RXE_CC_EV_RATE_INC;
	}
	uint64_t rate(uint64_t win) const
	{
		return static_cast<uint64_t>(u128{win} * 8'000'000'000ULL / t_ns);
	}
	uint64_t now(uint64_t t)
	{
		if (static_cast<int64_t>(t - t_last) < 0)
			t = t_last;
		t_last = t;
		return t;
	}
	void send(uint64_t t, uint32_t psn, uint32_t flags)
	{
		now(t);
		if (flags & (RXE_CC_TX_RETX | RXE_CC_TX_READ_RESP))
			return;
		uint64_t nxt = (psn + 1) & 0xffffff;
		if (!sent || (psn_ge(nxt, snd_nxt) && nxt != snd_nxt))
			snd_nxt = nxt;
		sent = true;
	}
	void ack(uint64_t t, uint32_t type, uint32_t psn)
	{
		now(t);
		nak = type == RXE_CC_ACK_NAK_SEQ || type == RXE_CC_ACK_NAK_RNR ||
		      type == RXE_CC_ACK_NAK_OTHER;
		nak_psn = psn & 0xffffff;
	}
	uint64_t nxt(const rxe_cc_fb_int &fb) const
	{
		return sent ? snd_nxt : (fb.psn + 1) & 0xffffff;
	}
	void take(const rxe_cc_fb_int &fb, uint64_t t)
	{
		for (int i = 0; i < fb.n_hops; i++)
			l[i] = fb.hop[i];
		n_l = fb.n_hops;
		path = fb.path_id;
		t_l = t;
	}
	void on_int(uint64_t t, const rxe_cc_fb_int &fb)
	{
		if (!fb.n_hops)
			return;
		bool ok = fb.n_hops <= max_hops;
		for (int i = 0; ok && i < fb.n_hops; i++)
			ok = fb.hop[i].b < 16 && mbps[fb.hop[i].b];
		if (!ok) {
			ignored++;
			events |= RXE_CC_EV_FB_BAD;
			return;
		}
		t = now(t);
		uint64_t stale = 12'000'000;
		for (int i = 0; i < fb.n_hops; i++) {
			// half the 2^27-byte txBytes wrap at B
			uint64_t half = (1ULL << 27) * 8000 / 2 / mbps[fb.hop[i].b];
			stale = std::min(stale, half);
		}
		if (!active || fb.n_hops != n_l || fb.path_id != path || t - t_l > stale) {
			// a stale L on the same path keeps the round
			bool same = active && fb.n_hops == n_l && fb.path_id == path;
			take(fb, t);
			active = true;
			restarts++;
			if (!same)
				lup = nxt(fb);
			return;
		}
		u128 umax = 0, tau = 0;
		for (int i = 0; i < fb.n_hops; i++) {
			const rxe_cc_int_hop &h = fb.hop[i];
			u128 dts = (h.ts - l[i].ts) & kTsMask;
			if (!dts)
				continue;
			u128 dtx = u128{(h.tx_bytes - l[i].tx_bytes) & kTxbMask} * 128;
			u128 q = u128{std::min(h.qlen, l[i].qlen)} * 80;
			u128 b = mbps[h.b];
			// u = q / (B T) + txRate / B, B T in bytes = B * T_ns / 8000
			u128 uu = q * 8000 * 65536 / (b * t_ns) + dtx * 8000 * 65536 / (dts * b);
			if (uu > (u128{1} << 30))
				uu = u128{1} << 30;
			if (uu > umax) {
				umax = uu;
				tau = dts;
			}
		}
		if (tau > t_ns)
			tau = t_ns;
		u = static_cast<uint64_t>((u128{u} * (t_ns - tau) + umax * tau) / t_ns);
		take(fb, t);
		samples++;
		uint64_t psn = fb.psn;
		if (nak && nak_psn == psn)
			psn = (psn - 1) & 0xffffff;
		bool update = psn_ge(psn, lup);
		uint64_t old = w;
		u128 nw;
		uint64_t nstage;
		if (u >= eta || stage >= max_stage) {
			nw = u128{wc} * eta / std::max<uint64_t>(u, 1) + w_ai;
			nstage = 0;
			md++;
		} else {
			nw = u128{wc} + w_ai;
			nstage = stage + 1;
			ai++;
		}
		w = static_cast<uint64_t>(std::min<u128>(std::max<u128>(nw, w_min), w_init));
		if (update) {
			wc = w;
			stage = nstage;
			syncs++;
			lup = nxt(fb);
		}
		if (w < old)
			events |= RXE_CC_EV_RATE_DEC;
		else if (w > old)
			events |= RXE_CC_EV_RATE_INC;
	}
	std::vector<uint64_t> states() const
	{
		return {w,       wc,    u,  stage, rate(w) / 1000, active,   n_l, path,
		        samples, syncs, md, ai,    ignored,        restarts, lup, snd_nxt};
	}
};

TEST(HpccFuzz, RandomStacksKeepTheInvariantsAndMatchTheReference)
{
	std::mt19937_64 rng(20240611);
	auto pick = [&](uint64_t n) {
		return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng);
	};
	const uint32_t t_us[] = {1, 7, 100, 1000, 123'457, 1'000'000};
	const uint64_t rates[] = {8000,
	                          1'000'000,
	                          kLine,
	                          10'000'000'000ULL,
	                          100'000'000'000ULL,
	                          400'000'000'000ULL,
	                          17'179'869'184ULL};
	const uint32_t mbps[] = {0, 1, 100, 3000, 4'000'000};
	const char *names[] = {"window_bytes", "wc_bytes",     "u_q16",           "inc_stage",
	                       "rate_kbps",    "int_active",   "n_hops",          "path_id",
	                       "int_samples",  "wc_syncs",     "md_steps",        "ai_steps",
	                       "int_ignored",  "int_restarts", "last_update_psn", "snd_nxt"};
	uint64_t runs = 0, events = 0, samples = 0, bad = 0, restarts = 0, md = 0, ai = 0;
	uint64_t syncs = 0, retunes = 0;
	auto random_params = [&]() {
		return Params{
			{"base_rtt_us", t_us[pick(6)]},
			{"eta_pct", static_cast<uint32_t>(50 + pick(51))},
			{"max_stage", static_cast<uint32_t>(pick(3) ? pick(8) : pick(101))},
			{"w_ai_bytes", static_cast<uint32_t>(1 + pick(pick(2) ? 100 : 1u << 24))},
			{"w_min_bytes", static_cast<uint32_t>(1 + pick(pick(2) ? 100 : 1u << 20))},
			{"int_max_hops", static_cast<uint32_t>(1 + pick(5))},
			{"b11_mbps", mbps[pick(5)]},
			{"b12_mbps", mbps[pick(5)]},
			{"b15_mbps", mbps[pick(5)]}};
	};
	while (runs < 300) {
		rxe_cc_link link{rates[pick(7)], 0, 1024};
		Params over = random_params();
		auto p = make_params(kOps, link, over);
		std::vector<uint64_t> cfg(kOps->cfg_size / 8 + 1);
		const char *why = nullptr;
		Ref ref;
		ref.config(p, link.rate_bps);
		ASSERT_EQ(kOps->setup(cfg.data(), p.data(), &link, &why) == 0, ref.valid());
		if (!ref.valid())
			continue;
		ref.init();
		runs++;
		Qp qp(kOps, link.rate_bps, 0, over);
		uint64_t t = pick(1ULL << 40);
		// PSNs: the next to send, and the last one acknowledged
		uint32_t psn = static_cast<uint32_t>(pick(1 << 24));
		uint32_t acked = (psn - 1) & 0xffffff;
		uint32_t ts[5], txb[5];
		for (int i = 0; i < 5; i++) {
			ts[i] = static_cast<uint32_t>(pick(1 << 24));
			txb[i] = static_cast<uint32_t>(pick(1 << 20));
		}
		// mostly codes with a rate (1..10, 13 = 500 Mbit/s), sometimes
		// any code
		auto code = [&]() {
			return static_cast<uint8_t>(pick(10) ? (pick(6) ? 1 + pick(10) : 13)
			                                     : pick(16));
		};
		auto hops = [&]() {
			return static_cast<uint8_t>(pick(10) ? 1 + pick(ref.max_hops) : pick(6));
		};
		uint8_t codes[5];
		for (auto &c : codes)
			c = code();
		uint16_t path = 1;
		uint8_t n_hops = hops();
		for (int e = 0; e < 200; e++) {
			// time: mostly small steps, sometimes past the stale limit
			uint64_t gap = pick(20) ? pick(2 * ref.t_ns + 1) : pick(20'000'000);
			t += gap;
			qp.ctx().out.events = 0;
			ref.events = 0;
			if (!pick(50)) {
				// a live parameter change: on_timer reads it
				auto np = make_params(kOps, link, random_params());
				Ref next = ref;
				next.config(np, link.rate_bps);
				void *c = const_cast<void *>(qp.ctx().cfg);
				bool ok = kOps->setup(c, np.data(), &link, &why) == 0;
				ASSERT_EQ(ok, next.valid());
				if (ok) {
					ref = next;
					qp.timer(t);
					ref.timer(t);
					retunes++;
					p = np;
				} else {
					// the framework keeps the configuration in
					// force when a set is refused
					ASSERT_EQ(kOps->setup(c, p.data(), &link, &why), 0);
				}
			}
			for (uint64_t k = pick(4); k; k--) {
				qp.send_psn(t, psn);
				ref.send(t, psn, 0);
				psn = (psn + 1) & 0xffffff;
			}
			if (!pick(8)) {
				uint32_t r = static_cast<uint32_t>((acked + pick(4)) & 0xffffff);
				uint32_t fl = static_cast<uint32_t>(pick(2) ? RXE_CC_TX_RETX
				                                            : RXE_CC_TX_READ_RESP);
				qp.send_psn(t, r, 1100, fl);
				ref.send(t, r, fl);
			}
			if (!pick(30))
				path = static_cast<uint16_t>(1 + pick(3));
			if (!pick(30))
				n_hops = hops();
			rxe_cc_fb_int st{};
			// an ACK of up to 3 more packets than the last one,
			// never of a packet not sent; sometimes a duplicate
			uint32_t out = (psn - 1 - acked) & 0xffffff;
			st.psn = static_cast<uint32_t>((acked + pick(std::min(out, 3u) + 1)) &
			                               0xffffff);
			acked = st.psn;
			st.path_id = path;
			st.n_hops = n_hops;
			for (int i = 0; i < n_hops; i++) {
				// the hop's clock follows ours, or jumps anywhere
				uint64_t dts = pick(10) ? gap + pick(1000) : pick(1 << 24);
				uint64_t dtx = pick(10) ? pick(gap / 100 + 2) : pick(1 << 20);
				if (!pick(20))
					dts = 0;
				ts[i] = static_cast<uint32_t>((ts[i] + dts) & kTsMask);
				txb[i] = static_cast<uint32_t>((txb[i] + dtx) & kTxbMask);
				uint16_t q =
					static_cast<uint16_t>(pick(4) ? pick(200) : pick(65536));
				if (!pick(50))
					codes[i] = code();
				st.hop[i] = Hop(codes[i], ts[i], txb[i], q);
			}
			uint32_t type =
				pick(10) ? uint32_t{RXE_CC_ACK}
					 : static_cast<uint32_t>(RXE_CC_ACK_NAK_SEQ + pick(3));
			qp.ack_int(t, st, type);
			ref.ack(t, type, st.psn);
			ref.on_int(t, st);
			events++;

			std::vector<uint64_t> got = qp.states(t), want = ref.states();
			for (size_t i = 0; i < want.size(); i++)
				ASSERT_EQ(got[static_cast<size_t>(state_index(kOps, names[i]))],
				          want[i])
					<< names[i] << " run " << runs << " event " << e;
			ASSERT_EQ(qp.out().events, ref.events) << "run " << runs << " event " << e;
			// invariants
			const uint64_t w = qp.out().window_bytes;
			ASSERT_GE(w, ref.w_min);
			ASSERT_LE(w, ref.w_init);
			ASSERT_EQ(qp.out().rate_bps, ref.rate(w));
			ASSERT_GE(ref.u, 1u);
			ASSERT_LE(ref.u, 1ULL << 30);
			ASSERT_LE(ref.stage, ref.max_stage);
		}
		samples += ref.samples;
		bad += ref.ignored;
		restarts += ref.restarts;
		md += ref.md;
		ai += ref.ai;
		syncs += ref.syncs;
	}
	// The fuzz reached every path of the code.
	std::printf("%llu stacks: %llu samples (%llu MD/MI, %llu AI, %llu W^c syncs), "
	            "%llu ignored, %llu restarts; %llu parameter changes\n",
	            static_cast<unsigned long long>(events),
	            static_cast<unsigned long long>(samples), static_cast<unsigned long long>(md),
	            static_cast<unsigned long long>(ai), static_cast<unsigned long long>(syncs),
	            static_cast<unsigned long long>(bad), static_cast<unsigned long long>(restarts),
	            static_cast<unsigned long long>(retunes));
	EXPECT_GT(samples, events / 3);
	EXPECT_GT(md, samples / 10);
	EXPECT_GT(ai, samples / 10);
	EXPECT_GT(syncs, samples / 10);
	EXPECT_GT(bad, events / 100);
	EXPECT_GT(restarts, events / 100);
	EXPECT_GT(retunes, 50u);
}

} // namespace
} // namespace cc

// The INT shim of specs/wire.md §7.4 (a), decoded from the bytes of the
// test vector the fabric's encoder is tested with (tests/fabric): nHop 2,
// pathID 0x123, hop 0 {B 11, TS 0xABCDEF, txBytes 0x12345, qLen 0x0102},
// hop 1 {B 4, TS 1, txBytes 0xFFFFF, qLen 0xFFFF}, slots 2-4 zero.
TEST(HpccWire, ParsesTheSharedTestVector)
{
	std::array<uint8_t, RXE_CC_INT_SHIM_BYTES> v{};
	const uint8_t head[] = {0x21, 0x23, 0xBA, 0xBC, 0xDE, 0xF1, 0x23, 0x45, 0x01,
	                        0x02, 0x40, 0x00, 0x00, 0x1F, 0xFF, 0xFF, 0xFF, 0xFF};
	std::copy(std::begin(head), std::end(head), v.begin());
	rxe_cc_fb_int fb{};
	ASSERT_TRUE(rxe_cc_int_parse(v.data(), 0x1abcdef, &fb));
	EXPECT_EQ(fb.psn, 0xabcdefU); // 24 bits
	EXPECT_EQ(fb.n_hops, 2);
	EXPECT_EQ(fb.path_id, 0x123);
	EXPECT_EQ(fb.hop[0].b, 11);
	EXPECT_EQ(fb.hop[0].ts, 0xABCDEFU);
	EXPECT_EQ(fb.hop[0].tx_bytes, 0x12345U);
	EXPECT_EQ(fb.hop[0].qlen, 0x0102);
	EXPECT_EQ(fb.hop[1].b, 4);
	EXPECT_EQ(fb.hop[1].ts, 1U);
	EXPECT_EQ(fb.hop[1].tx_bytes, 0xFFFFFU);
	EXPECT_EQ(fb.hop[1].qlen, 0xFFFF);
}

TEST(HpccWire, MoreHopsThanSlotsIsRejected)
{
	std::array<uint8_t, RXE_CC_INT_SHIM_BYTES> v{};
	rxe_cc_fb_int fb{};
	v[0] = 5 << 4; // nHop 5: every slot
	EXPECT_TRUE(rxe_cc_int_parse(v.data(), 0, &fb));
	EXPECT_EQ(fb.n_hops, 5);
	for (unsigned n = 6; n < 16; n++) {
		v[0] = static_cast<uint8_t>(n << 4);
		EXPECT_FALSE(rxe_cc_int_parse(v.data(), 0, &fb)) << n;
	}
}
