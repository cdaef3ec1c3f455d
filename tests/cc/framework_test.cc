// The framework header's pure helpers (pacer arithmetic, wrap-safe time
// and PSN comparison) and the consistency of every algorithm's tables.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "cc_harness.h"
#include "rdma/rxe_cc.h"

namespace cc
{
namespace
{

const rxe_cc_ops *const kAll[] = {&rxe_cc_fixed_ops, &rxe_cc_dcqcn_ops};

TEST(Framework, TxTimeMatchesTv5)
{
	// specs/dcqcn.md TV-5: a 1100 B frame at the TV-1 rates.
	const std::vector<std::pair<uint64_t, uint64_t>> tv5 = {{100000, 88000}, {50779, 173299},
	                                                        {26460, 332577}, {63230, 139174},
	                                                        {54220, 162301}, {1000, 8800000}};
	for (const auto &[kbps, ns] : tv5)
		EXPECT_EQ(rxe_cc_tx_time_ns(1100, kbps * 1000), ns) << kbps;
	// Extremes: a 64 KiB frame at 1 bit/s, a small one at 2.1 Tbit/s.
	EXPECT_EQ(rxe_cc_tx_time_ns(65536, 1), 65536ULL * 8 * 1'000'000'000ULL);
	EXPECT_EQ(rxe_cc_tx_time_ns(64, 2'147'483'648'000ULL), 0u);
}

// A pacer at `rate` with two 1100 B frames of idle credit.
rxe_cc_pacer MakePacer(uint64_t rate)
{
	rxe_cc_pacer p{};
	rxe_cc_pacer_set_burst(&p, 2200);
	rxe_cc_pacer_set_rate(&p, rate);
	return p;
}

TEST(Framework, PacerAccumulatesAndBoundsIdleCredit)
{
	const uint64_t rate = 100'000'000; // 88 us per 1100 B
	rxe_cc_pacer p = MakePacer(rate);
	EXPECT_EQ(p.idle_ns, 176'000u);
	// The first packet goes at once and starts the schedule.
	EXPECT_FALSE(rxe_cc_pacer_hold(&p, 1'000'000));
	EXPECT_EQ(rxe_cc_pacer_sent(&p, 1'000'000, 1100, 0), 0u);
	EXPECT_EQ(p.t_next, 1'088'000u);
	EXPECT_TRUE(rxe_cc_pacer_hold(&p, 1'087'999));
	EXPECT_FALSE(rxe_cc_pacer_hold(&p, 1'088'000));
	// Back to back sends keep accumulating the gap.
	rxe_cc_pacer_sent(&p, 1'088'000, 1100, 0);
	EXPECT_EQ(p.t_next, 1'176'000u);
	// A send late by less than the idle credit keeps the schedule.
	EXPECT_EQ(rxe_cc_pacer_sent(&p, 1'300'000, 1100, 0), 0u);
	EXPECT_EQ(p.t_next, 1'264'000u);
	// After a long idle period two frames of credit are kept: two packets
	// may go at once, the third waits (no burst of the whole idle time).
	EXPECT_EQ(rxe_cc_pacer_sent(&p, 5'000'000, 1100, 0), 5'000'000u - 176'000 - 1'264'000);
	EXPECT_EQ(p.t_next, 5'000'000u - 176'000 + 88'000);
	EXPECT_FALSE(rxe_cc_pacer_hold(&p, 5'000'000));
	rxe_cc_pacer_sent(&p, 5'000'000, 1100, 0);
	EXPECT_FALSE(rxe_cc_pacer_hold(&p, 5'000'000));
	rxe_cc_pacer_sent(&p, 5'000'000, 1100, 0);
	EXPECT_TRUE(rxe_cc_pacer_hold(&p, 5'000'000));
}

TEST(Framework, PacerHeldQpWokenLateKeepsTheSlack)
{
	const uint64_t rate = 100'000'000;
	const uint64_t slack = 2'000'000; // a wake-up under emulation
	rxe_cc_pacer p = MakePacer(rate);
	rxe_cc_pacer_sent(&p, 0, 1100, 0);
	// Held until 88 us, woken at 1.5 ms: within the slack nothing is lost
	// and the QP catches up with its schedule.
	EXPECT_EQ(rxe_cc_pacer_sent(&p, 1'500'000, 1100, slack), 0u);
	EXPECT_EQ(p.t_next, 176'000u);
	// Woken 3 ms late: what is beyond the slack is dropped.
	rxe_cc_pacer q = MakePacer(rate);
	rxe_cc_pacer_sent(&q, 0, 1100, 0);
	EXPECT_EQ(rxe_cc_pacer_sent(&q, 3'088'000, 1100, slack), 1'000'000u);
	EXPECT_EQ(q.t_next, 1'088'000u + 88'000);
}

TEST(Framework, PacerRateChangeRetimesThePendingGap)
{
	rxe_cc_pacer p = MakePacer(1'000); // 1 kbit/s: 8.8 s per 1100 B
	rxe_cc_pacer_sent(&p, 0, 1100, 0);
	EXPECT_EQ(p.t_next, 8'800'000'000u);
	// Raised to 100 Mbit/s: the QP does not wait the old gap out.
	rxe_cc_pacer_set_rate(&p, 100'000'000);
	EXPECT_EQ(p.t_next, 88'000u);
	EXPECT_FALSE(rxe_cc_pacer_hold(&p, 100'000));
	// Cut to 50 Mbit/s: the pending gap stretches from its start.
	rxe_cc_pacer_set_rate(&p, 50'000'000);
	EXPECT_EQ(p.t_next, 176'000u);
	EXPECT_TRUE(rxe_cc_pacer_hold(&p, 100'000));
	// Not paced: nothing holds.
	rxe_cc_pacer_set_rate(&p, 0);
	EXPECT_FALSE(rxe_cc_pacer_hold(&p, 100'000));
	EXPECT_EQ(rxe_cc_pacer_sent(&p, 100'000, 1100, 0), 0u);
	// The burst can change without touching the schedule.
	rxe_cc_pacer_set_rate(&p, 100'000'000);
	uint64_t t_next = p.t_next;
	rxe_cc_pacer_set_burst(&p, 4400);
	EXPECT_EQ(p.t_next, t_next);
	EXPECT_EQ(p.idle_ns, 352'000u);
}

TEST(Framework, PacerAcrossAClockWrap)
{
	const uint64_t max = std::numeric_limits<uint64_t>::max();
	rxe_cc_pacer p = MakePacer(100'000'000);
	uint64_t now = max - 50'000; // 50 us before the wrap
	rxe_cc_pacer_sent(&p, now, 1100, 0);
	EXPECT_EQ(p.t_next, 88'000 - 50'000 - 1); // wrapped
	EXPECT_TRUE(rxe_cc_pacer_hold(&p, now));
	EXPECT_TRUE(rxe_cc_pacer_hold(&p, now + 87'999));
	EXPECT_FALSE(rxe_cc_pacer_hold(&p, now + 88'000));
	// The idle credit bound also holds across the wrap.
	rxe_cc_pacer_sent(&p, 1'000'000, 1100, 0);
	EXPECT_EQ(p.t_next, 1'000'000 - 176'000 + 88'000);
}

TEST(Framework, DeadlinesLazyTimersWaitRxTimersAreArmed)
{
	rxe_cc_out out{};
	uint64_t t = 0;
	EXPECT_FALSE(rxe_cc_next_deadline(&out, 0, &t));
	out.flags = RXE_CC_OUT_TIMER;
	out.timer_ns = 500;
	EXPECT_TRUE(rxe_cc_next_deadline(&out, 0, &t));
	EXPECT_EQ(t, 500u);
	// A lazy algorithm's timer waits for the QP's next event...
	EXPECT_FALSE(rxe_cc_next_deadline(&out, RXE_CC_F_LAZY_TIMER, &t));
	// ...but its receiver timer always wakes the QP: it sends packets.
	out.flags |= RXE_CC_OUT_RX_TIMER;
	out.rx_timer_ns = 700;
	EXPECT_TRUE(rxe_cc_next_deadline(&out, RXE_CC_F_LAZY_TIMER, &t));
	EXPECT_EQ(t, 700u);
	// The earlier of the two, also across a wrap of the clock.
	EXPECT_TRUE(rxe_cc_next_deadline(&out, 0, &t));
	EXPECT_EQ(t, 500u);
	out.timer_ns = std::numeric_limits<uint64_t>::max() - 10;
	out.rx_timer_ns = 5;
	EXPECT_TRUE(rxe_cc_next_deadline(&out, 0, &t));
	EXPECT_EQ(t, out.timer_ns);
}

// The in-flight record gives on_ack exact byte counts (rxe_cc_gate.c).
class Inflight : public ::testing::Test
{
protected:
	std::vector<rxe_cc_sent> ring_ = std::vector<rxe_cc_sent>(RXE_CC_SENT_SLOTS);
	rxe_cc_inflight inf_{};
	void SetUp() override { inf_.slot = ring_.data(); }
	bool sent(uint32_t psn, uint32_t bytes, bool ackreq, uint64_t t)
	{
		return rxe_cc_inflight_sent(&inf_, psn, bytes, ackreq, t);
	}
	rxe_cc_ack acked(uint32_t comp_psn, uint32_t ack_psn, uint64_t t)
	{
		rxe_cc_ack a{};
		rxe_cc_inflight_acked(&inf_, comp_psn, ack_psn, t, &a);
		return a;
	}
};

TEST_F(Inflight, AcksCountTheBytesOfThePacketsTheyCover)
{
	// PSNs 0..9 of 1000 + PSN bytes, AckReq on 4 and 9, sent at 100 ns each
	uint64_t total = 0;
	for (uint32_t psn = 0; psn < 10; psn++) {
		EXPECT_FALSE(sent(psn, 1000 + psn, psn == 4 || psn == 9, psn * 100));
		total += 1000 + psn;
	}
	EXPECT_EQ(inf_.bytes, total);
	// The ACK of PSN 4: packets 0..4, and an RTT sample of packet 4.
	rxe_cc_ack a = acked(5, 4, 10'000);
	EXPECT_EQ(a.acked_pkts, 5u);
	EXPECT_EQ(a.acked_bytes, 1000u + 1001 + 1002 + 1003 + 1004);
	EXPECT_EQ(a.rtt_ns, 10'000u - 400);
	EXPECT_EQ(a.inflight_bytes, total - a.acked_bytes);
	// A duplicate acknowledges nothing and samples nothing.
	a = acked(5, 4, 11'000);
	EXPECT_EQ(a.acked_pkts, 0u);
	EXPECT_EQ(a.acked_bytes, 0u);
	EXPECT_EQ(a.rtt_ns, 0u);
	// Go-back-N from PSN 5: retransmissions are not counted again.
	EXPECT_TRUE(sent(5, 1005, false, 12'000));
	EXPECT_TRUE(sent(6, 1006, false, 12'100));
	EXPECT_EQ(inf_.bytes, 1005u + 1006 + 1007 + 1008 + 1009);
	// A NAK-sequence at PSN 7 acknowledges 5 and 6; 7 is not acknowledged,
	// so it gives no sample.
	a = acked(7, 7, 13'000);
	EXPECT_EQ(a.acked_pkts, 2u);
	EXPECT_EQ(a.acked_bytes, 1005u + 1006);
	EXPECT_EQ(a.rtt_ns, 0u);
	// The ACK of 9 ends it; every byte sent was acknowledged once.
	a = acked(10, 9, 20'000);
	EXPECT_EQ(a.acked_pkts, 3u);
	EXPECT_EQ(a.rtt_ns, 20'000u - 900);
	EXPECT_EQ(a.inflight_bytes, 0u);
	EXPECT_EQ(inf_.acked_bytes, total);
}

TEST_F(Inflight, AReadRequestIsOnePacketAckedByItsFirstResponse)
{
	EXPECT_FALSE(sent(10, 90, true, 0));    // READ of 5 responses: 10..14
	EXPECT_FALSE(sent(15, 1100, true, 50)); // the next request
	EXPECT_EQ(inf_.bytes, 1190u);
	// The first READ response (PSN 10) moves the completer to 11.
	rxe_cc_ack a = acked(11, 10, 1'000);
	EXPECT_EQ(a.acked_pkts, 1u);
	EXPECT_EQ(a.acked_bytes, 90u);
	EXPECT_EQ(a.rtt_ns, 1'000u);
	// Later responses acknowledge nothing new until the ACK of 15.
	EXPECT_EQ(acked(15, 14, 1'500).acked_pkts, 0u);
	a = acked(16, 15, 2'000);
	EXPECT_EQ(a.acked_bytes, 1100u);
	EXPECT_EQ(a.inflight_bytes, 0u);
}

TEST_F(Inflight, PsnsWrap)
{
	for (uint32_t i = 0; i < 4; i++)
		EXPECT_FALSE(sent((0xfffffe + i) & 0xffffff, 100, i == 3, i));
	EXPECT_TRUE(sent(0xffffff, 100, false, 9)); // a retransmission
	rxe_cc_ack a = acked(2, 1, 100);
	EXPECT_EQ(a.acked_pkts, 4u);
	EXPECT_EQ(a.acked_bytes, 400u);
	EXPECT_EQ(a.rtt_ns, 97u);
}

TEST_F(Inflight, AFullRingRecordsNothing)
{
	for (uint32_t psn = 0; psn < RXE_CC_SENT_SLOTS; psn++)
		EXPECT_FALSE(sent(psn, 10, false, 0));
	EXPECT_FALSE(sent(RXE_CC_SENT_SLOTS, 10, false, 0));
	EXPECT_EQ(inf_.bytes, 10u * RXE_CC_SENT_SLOTS);
	EXPECT_EQ(acked(RXE_CC_SENT_SLOTS + 1, RXE_CC_SENT_SLOTS, 1).acked_pkts,
	          static_cast<uint32_t>(RXE_CC_SENT_SLOTS));
}

TEST(Framework, PsnDistanceWraps)
{
	EXPECT_EQ(rxe_cc_psn_diff(5, 3), 2);
	EXPECT_EQ(rxe_cc_psn_diff(3, 5), -2);
	EXPECT_EQ(rxe_cc_psn_diff(0, 0xffffff), 1);
	EXPECT_EQ(rxe_cc_psn_diff(0xffffff, 0), -1);
	EXPECT_EQ(rxe_cc_psn_diff(2, 0xfffffe), 4);
	EXPECT_EQ(rxe_cc_psn_diff(0x7fffff, 0), 0x7fffff);
	EXPECT_EQ(rxe_cc_psn_diff(0x800000, 0), -0x800000);
	// Bits above the 24-bit PSN are ignored.
	EXPECT_EQ(rxe_cc_psn_diff(0x1000005, 3), 2);
}

TEST(Framework, TablesAreConsistent)
{
	std::set<std::string> names;
	for (const rxe_cc_ops *ops : kAll) {
		SCOPED_TRACE(ops->name);
		EXPECT_TRUE(names.insert(ops->name).second);
		// Names travel in netlink strings of at most RXE_CC_NAME_MAX bytes.
		EXPECT_LT(std::string(ops->name).size(), size_t{RXE_CC_NAME_MAX});
		EXPECT_NE(std::string(ops->name), "none");
		// Built into rdma_rxe: no module of their own.
		EXPECT_EQ(ops->owner, nullptr);
		EXPECT_LE(ops->n_params, static_cast<uint32_t>(RXE_CC_MAX_PARAMS));
		EXPECT_LE(ops->n_state, static_cast<uint32_t>(RXE_CC_MAX_STATE));
		EXPECT_NE(ops->setup, nullptr);
		EXPECT_NE(ops->init, nullptr);
		EXPECT_NE(ops->get_state, nullptr);
		EXPECT_NE(ops->on_timer, nullptr);
		std::set<std::string> params;
		for (uint32_t i = 0; i < ops->n_params; i++) {
			const rxe_cc_param_desc &d = ops->params[i];
			ASSERT_NE(d.name, nullptr) << i;
			EXPECT_NE(d.help, nullptr) << d.name;
			EXPECT_TRUE(params.insert(d.name).second) << d.name;
			EXPECT_LT(std::string(d.name).size(), size_t{RXE_CC_NAME_MAX}) << d.name;
			EXPECT_LE(d.min, d.def) << d.name;
			EXPECT_LE(d.def, d.max) << d.name;
			EXPECT_LE(d.unit, static_cast<uint32_t>(RXE_CC_UNIT_PCP)) << d.name;
		}
		std::set<std::string> state;
		for (uint32_t i = 0; i < ops->n_state; i++) {
			ASSERT_NE(ops->state[i].name, nullptr) << i;
			EXPECT_TRUE(state.insert(ops->state[i].name).second);
		}
		// The table defaults form a valid set for the reference link.
		rxe_cc_link link{100'000'000, kMs, 1024};
		std::vector<uint32_t> p(ops->n_params);
		for (uint32_t i = 0; i < ops->n_params; i++)
			p[i] = ops->params[i].def;
		std::vector<uint64_t> cfg(ops->cfg_size / 8 + 1);
		const char *why = nullptr;
		EXPECT_EQ(ops->setup(cfg.data(), p.data(), &link, &why), 0);
	}
}

TEST(Framework, ReceiverHooksOnlyWhereNeeded)
{
	EXPECT_EQ(rxe_cc_fixed_ops.rx_data, nullptr);
	EXPECT_EQ(rxe_cc_fixed_ops.wire, 0u);
	EXPECT_NE(rxe_cc_dcqcn_ops.rx_data, nullptr);
	EXPECT_NE(rxe_cc_dcqcn_ops.rx_timer, nullptr);
}

} // namespace
} // namespace cc
