// The "fixed" algorithm: a static rate and window from its parameters.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cc_harness.h"

namespace cc
{
namespace
{

const rxe_cc_ops *const kOps = &rxe_cc_fixed_ops;

TEST(Fixed, DefaultsToLineRateWithoutWindow)
{
	Qp qp(kOps, 1'000'000'000, kMs);
	EXPECT_EQ(qp.out().rate_bps, 1'000'000'000u);
	EXPECT_EQ(qp.out().window_bytes, 0u);
	EXPECT_EQ(qp.out().flags, 0u);
	EXPECT_EQ(qp.state("rate_kbps", 0), 1'000'000u);
}

TEST(Fixed, RateAndWindowFromParameters)
{
	Qp qp(kOps, 1'000'000'000, kMs, {{"rate_kbps", 5000}, {"window_bytes", 65536}});
	EXPECT_EQ(qp.out().rate_bps, 5'000'000u);
	EXPECT_EQ(qp.out().window_bytes, 65536u);
	EXPECT_EQ(qp.state("window_bytes", 0), 65536u);
}

TEST(Fixed, ParameterChangeSeenAtTheNextTimerCall)
{
	Qp qp(kOps, 1'000'000'000, kMs, {{"rate_kbps", 5000}});
	// The framework compiles a new parameter set and refreshes the outputs
	// through on_timer.
	rxe_cc_link link{1'000'000'000, kMs, 1024};
	auto p = make_params(kOps, link, {{"rate_kbps", 7000}});
	const char *why = nullptr;
	ASSERT_EQ(kOps->setup(const_cast<void *>(qp.ctx().cfg), p.data(), &link, &why), 0);
	qp.timer(kMs);
	EXPECT_EQ(qp.out().rate_bps, 7'000'000u);
}

TEST(Fixed, RangesAndDefaultsClamp)
{
	const char *why = nullptr;
	rxe_cc_link link{1'000'000'000, kMs, 1024};
	std::vector<uint64_t> cfg(kOps->cfg_size / 8 + 1);
	auto p = make_params(kOps, link, {{"rate_kbps", 0}});
	EXPECT_EQ(kOps->setup(cfg.data(), p.data(), &link, &why), -EINVAL);
	EXPECT_NE(why, nullptr);
	// A line rate above the largest rate parameter is clamped.
	rxe_cc_link huge{(uint64_t{RXE_CC_RATE_KBPS_MAX} + 5) * 1000, kMs, 1024};
	p = make_params(kOps, huge, {});
	EXPECT_EQ(p[0], RXE_CC_RATE_KBPS_MAX);
	rxe_cc_link tiny{10, kMs, 1024};
	p = make_params(kOps, tiny, {});
	EXPECT_EQ(p[0], 1u);
}

} // namespace
} // namespace cc
