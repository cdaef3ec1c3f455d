// The framework header's pure helpers (pacer arithmetic, wrap-safe time
// and PSN comparison) and the consistency of every algorithm's tables.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "cc_harness.h"

namespace cc {
namespace {

const rxe_cc_ops *const kAll[] = {&rxe_cc_fixed_ops, &rxe_cc_dcqcn_ops};

TEST(Framework, TxTimeMatchesTv5) {
  // specs/dcqcn.md TV-5: a 1100 B frame at the TV-1 rates.
  const std::vector<std::pair<uint64_t, uint64_t>> tv5 = {
      {100000, 88000},   {50779, 173299}, {26460, 332577},
      {63230, 139174},   {54220, 162301}, {1000, 8800000}};
  for (const auto &[kbps, ns] : tv5)
    EXPECT_EQ(rxe_cc_tx_time_ns(1100, kbps * 1000), ns) << kbps;
  // Extremes: a 64 KiB frame at 1 bit/s, a small one at 2.1 Tbit/s.
  EXPECT_EQ(rxe_cc_tx_time_ns(65536, 1), 65536ULL * 8 * 1'000'000'000ULL);
  EXPECT_EQ(rxe_cc_tx_time_ns(64, 2'147'483'648'000ULL), 0u);
}

TEST(Framework, PacerAccumulatesAndBoundsCatchUp) {
  const uint64_t rate = 100'000'000;  // 88 us per 1100 B
  const uint64_t burst = 176'000;     // two frames
  uint64_t t_next = 0;
  // Back to back sends keep accumulating the gap.
  t_next = rxe_cc_pace(t_next, 1'000'000, burst, 1100, rate);
  EXPECT_EQ(t_next, 1'000'000 - burst + 88'000);
  t_next = rxe_cc_pace(t_next, 1'000'000, burst, 1100, rate);
  EXPECT_EQ(t_next, 1'000'000u);
  t_next = rxe_cc_pace(t_next, 1'000'000, burst, 1100, rate);
  EXPECT_EQ(t_next, 1'088'000u);
  // A late wake-up keeps the schedule (jitter is absorbed).
  t_next = rxe_cc_pace(t_next, 1'100'000, burst, 1100, rate);
  EXPECT_EQ(t_next, 1'176'000u);
  // After a long idle period at most `burst` of credit is kept.
  t_next = rxe_cc_pace(t_next, 5'000'000, burst, 1100, rate);
  EXPECT_EQ(t_next, 5'000'000 - burst + 88'000);
  // Not paced: the next packet may go at once.
  EXPECT_EQ(rxe_cc_pace(7'000'000, 5'000'000, burst, 1100, 0), 5'000'000u);
}

TEST(Framework, PacerUnusedCreditIsWhatTheCatchUpBoundDrops) {
  const uint64_t rate = 100'000'000;  // 88 us per 1100 B
  const uint64_t burst = 176'000;
  // Nothing sent yet, or not paced: nothing is unused.
  EXPECT_EQ(rxe_cc_pace_unused(0, 5'000'000, burst, rate), 0u);
  EXPECT_EQ(rxe_cc_pace_unused(1'000'000, 5'000'000, burst, 0), 0u);
  // Late by less than the budget, or exactly by it: all credit is used.
  EXPECT_EQ(rxe_cc_pace_unused(1'000'000, 1'100'000, burst, rate), 0u);
  EXPECT_EQ(rxe_cc_pace_unused(1'000'000, 1'000'000 + burst, burst, rate), 0u);
  // Ahead of the schedule: nothing unused.
  EXPECT_EQ(rxe_cc_pace_unused(2'000'000, 1'000'000, burst, rate), 0u);
  // Late by 4 ms: all but the budget is dropped, and rxe_cc_pace() keeps
  // exactly the budget.
  const uint64_t t_next = 1'000'000, now = 5'000'000;
  const uint64_t unused = rxe_cc_pace_unused(t_next, now, burst, rate);
  EXPECT_EQ(unused, now - t_next - burst);
  EXPECT_EQ(rxe_cc_pace(t_next, now, burst, 1100, rate),
            t_next + unused + 88'000);
}

TEST(Framework, PacerAcrossAClockWrap) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const uint64_t rate = 100'000'000;
  uint64_t now = max - 50'000;  // 50 us before the wrap
  uint64_t t_next = rxe_cc_pace(now, now, 0, 1100, rate);
  EXPECT_EQ(t_next, 88'000 - 50'000 - 1);  // wrapped
  EXPECT_TRUE(rxe_cc_before(now, t_next));
  EXPECT_TRUE(rxe_cc_after_eq(t_next, now));
  EXPECT_FALSE(rxe_cc_after_eq(now + 87'999, t_next));
  EXPECT_TRUE(rxe_cc_after_eq(now + 88'000, t_next));
  // The burst bound also holds across the wrap.
  t_next = rxe_cc_pace(max - 10, 1'000'000, 176'000, 1100, rate);
  EXPECT_EQ(t_next, 1'000'000 - 176'000 + 88'000);
}

TEST(Framework, PsnDistanceWraps) {
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

TEST(Framework, TablesAreConsistent) {
  std::set<std::string> names;
  std::set<uint32_t> ids;
  for (const rxe_cc_ops *ops : kAll) {
    SCOPED_TRACE(ops->name);
    EXPECT_TRUE(names.insert(ops->name).second);
    EXPECT_TRUE(ids.insert(ops->id).second);
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
    for (uint32_t i = 0; i < ops->n_params; i++) p[i] = ops->params[i].def;
    std::vector<uint64_t> cfg(ops->cfg_size / 8 + 1);
    const char *why = nullptr;
    EXPECT_EQ(ops->setup(cfg.data(), p.data(), &link, &why), 0);
  }
}

TEST(Framework, ReceiverHooksOnlyWhereNeeded) {
  EXPECT_EQ(rxe_cc_fixed_ops.rx_data, nullptr);
  EXPECT_EQ(rxe_cc_fixed_ops.wire, 0u);
  EXPECT_NE(rxe_cc_dcqcn_ops.rx_data, nullptr);
  EXPECT_NE(rxe_cc_dcqcn_ops.rx_timer, nullptr);
  EXPECT_EQ(rxe_cc_dcqcn_ops.rx_ack, nullptr);
}

}  // namespace
}  // namespace cc
