// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared-buffer admission: dynamic thresholds of lossy queues, lossless
// accounting with headroom, PFC XOFF/XON thresholds, pause quanta.
#include <cstdint>

#include <gtest/gtest.h>

#include "buffer.h"

namespace
{

using namespace rxecc::fabric;

// Offers 1000-byte packets to one queue until one is refused; returns how
// many were accepted.
int fill(SharedBuffer &b, uint64_t &queue, DropReason *why)
{
	int n = 0;
	while (b.admit_lossy(nullptr, queue, 1000, why) == Admit::kAccepted) {
		queue += 1000;
		n++;
	}
	return n;
}

TEST(DynamicThreshold, AlphaOneSettlesAtHalfThePool)
{
	// q < 1 * (10000 - q): q = 0..4000 admitted, at q = 5000 free is 5000.
	SharedBuffer b(10000, 0, kQ16One);
	uint64_t q = 0;
	DropReason why;
	EXPECT_EQ(fill(b, q, &why), 5);
	EXPECT_EQ(why, DropReason::kDynamicThreshold);
	EXPECT_EQ(b.pool_used(), 5000u);
	EXPECT_EQ(b.dynamic_threshold(), 5000u);
}

TEST(DynamicThreshold, AlphaOneHalf)
{
	// q < (10000 - q) / 2: 0<5000, 1000<4500, 2000<4000, 3000<3500,
	// then 4000 >= 3000.
	SharedBuffer b(10000, 0, kQ16One / 2);
	uint64_t q = 0;
	DropReason why;
	EXPECT_EQ(fill(b, q, &why), 4);
	EXPECT_EQ(b.dynamic_threshold(), 3000u);
}

TEST(DynamicThreshold, SecondQueueGetsWhatIsLeft)
{
	// After queue 1 holds 5000: queue 2 sees 0<5000, 1000<4000,
	// 2000<3000, then 3000 >= 2000.
	SharedBuffer b(10000, 0, kQ16One);
	uint64_t q1 = 0, q2 = 0;
	DropReason why;
	EXPECT_EQ(fill(b, q1, &why), 5);
	EXPECT_EQ(fill(b, q2, &why), 3);
	// Queue 1 is now far above alpha * free = 2000.
	EXPECT_EQ(b.admit_lossy(nullptr, q1, 1000, &why), Admit::kDropped);
	EXPECT_EQ(why, DropReason::kDynamicThreshold);
}

TEST(DynamicThreshold, PoolExhaustionIsBufferFull)
{
	SharedBuffer b(2500, 0, 64 * kQ16One);
	uint64_t q = 0;
	DropReason why;
	EXPECT_EQ(fill(b, q, &why), 2);
	EXPECT_EQ(why, DropReason::kBufferFull);
	// Releasing makes room again.
	b.release(nullptr, 1000);
	EXPECT_EQ(b.pool_used(), 1000u);
	EXPECT_EQ(b.admit_lossy(nullptr, 1000, 1000, &why), Admit::kAccepted);
}

TEST(DynamicThreshold, HeadroomIsNotPartOfThePool)
{
	SharedBuffer b(100000, 30000, kQ16One);
	EXPECT_EQ(b.pool_size(), 70000u);
	EXPECT_EQ(b.dynamic_threshold(), 70000u);
}

PfcParams pfc(uint64_t xoff, uint64_t xon, uint64_t headroom)
{
	PfcParams p;
	p.enabled = true;
	p.xoff = xoff;
	p.xon = xon;
	p.headroom = headroom;
	return p;
}

TEST(Lossless, SharedUpToXoffThenHeadroomThenDrop)
{
	SharedBuffer b(110000, 10000, kQ16One);
	IngressAccount a;
	PfcParams p = pfc(3000, 1000, 10000);
	for (int i = 0; i < 3; i++) {
		EXPECT_FALSE(pfc_xoff_due(a, p)) << i;
		ASSERT_EQ(b.admit_lossless(a, p, 1000), Admit::kAccepted);
	}
	EXPECT_EQ(a.shared, 3000u);
	EXPECT_EQ(a.headroom, 0u);
	EXPECT_TRUE(pfc_xoff_due(a, p)); // reached xoff exactly
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(b.admit_lossless(a, p, 1000), Admit::kAccepted) << i;
	EXPECT_EQ(a.headroom, 10000u);
	EXPECT_EQ(b.pool_used(), 3000u);
	EXPECT_EQ(b.admit_lossless(a, p, 1000), Admit::kDropped);
	EXPECT_EQ(b.admit_lossless(a, p, 1), Admit::kDropped);
}

TEST(Lossless, PacketThatWouldCrossXoffGoesToHeadroom)
{
	SharedBuffer b(110000, 10000, kQ16One);
	IngressAccount a;
	PfcParams p = pfc(4500, 1000, 10000);
	for (int i = 0; i < 4; i++)
		b.admit_lossless(a, p, 1000);
	EXPECT_FALSE(pfc_xoff_due(a, p)); // 4000 < 4500
	b.admit_lossless(a, p, 1000);
	EXPECT_EQ(a.shared, 4000u);
	EXPECT_EQ(a.headroom, 1000u);
	EXPECT_TRUE(pfc_xoff_due(a, p));
	// Once in headroom, smaller packets that would fit under xoff stay
	// in headroom too.
	b.admit_lossless(a, p, 100);
	EXPECT_EQ(a.headroom, 1100u);
}

TEST(Lossless, ReleaseEmptiesHeadroomFirstThenXon)
{
	SharedBuffer b(110000, 10000, kQ16One);
	IngressAccount a;
	PfcParams p = pfc(3000, 1000, 10000);
	for (int i = 0; i < 5; i++)
		b.admit_lossless(a, p, 1000); // 3000 shared + 2000 headroom
	b.release(&a, 1000);
	EXPECT_EQ(a.headroom, 1000u);
	EXPECT_EQ(a.shared, 3000u);
	EXPECT_EQ(b.pool_used(), 3000u);
	EXPECT_FALSE(pfc_xon_due(a, p));
	b.release(&a, 1000);
	b.release(&a, 1000);
	EXPECT_EQ(a.total(), 2000u);
	EXPECT_EQ(b.pool_used(), 2000u);
	EXPECT_FALSE(pfc_xon_due(a, p)); // 2000 > xon
	EXPECT_TRUE(pfc_xoff_due(a, p) == false);
	b.release(&a, 1000);
	EXPECT_TRUE(pfc_xon_due(a, p)); // 1000 <= xon
	b.release(&a, 1000);
	EXPECT_EQ(a.total(), 0u);
	EXPECT_EQ(b.pool_used(), 0u);
}

TEST(Lossless, FullSharedPoolSendsLosslessTrafficToHeadroom)
{
	// Pool of 2000 taken by lossy traffic: a lossless packet far below
	// xoff still fits in headroom, and asks for XOFF.
	SharedBuffer b(12000, 10000, kQ16One);
	DropReason why;
	ASSERT_EQ(b.admit_lossy(nullptr, 0, 1000, &why), Admit::kAccepted);
	ASSERT_EQ(b.admit_lossy(nullptr, 0, 1000, &why), Admit::kAccepted);
	IngressAccount a;
	PfcParams p = pfc(50000, 40000, 10000);
	EXPECT_EQ(b.admit_lossless(a, p, 1000), Admit::kAccepted);
	EXPECT_EQ(a.headroom, 1000u);
	EXPECT_TRUE(pfc_xoff_due(a, p));
}

TEST(PauseQuanta, FiveHundredTwelveBitTimes)
{
	EXPECT_EQ(pause_quanta_to_ns(1, 100000000), 5120u);
	EXPECT_EQ(pause_quanta_to_ns(65535, 100000000), 335539200u);
	EXPECT_EQ(pause_quanta_to_ns(65535, 1000000000), 33553920u);
	EXPECT_EQ(pause_quanta_to_ns(65535, 10000000000ull), 3355392u);
	EXPECT_EQ(pause_quanta_to_ns(3, 3000000000ull), 512u);
	// 5.12 ns and 170.67 ns round up.
	EXPECT_EQ(pause_quanta_to_ns(1, 100000000000ull), 6u);
	EXPECT_EQ(pause_quanta_to_ns(1, 3000000000ull), 171u);
	EXPECT_EQ(pause_quanta_to_ns(0, 100000000), 0u);
}

} // namespace
