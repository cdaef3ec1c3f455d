// Unit tests of rxe_cc_sfc.h: the BTS format of specs/wire.md §7.4 (a), (f)
// and specs/sfc.md §3.3, byte by byte, and a QP's pause (sfc.md §2.6,
// §2.10, §7 items 9, 15, 16): replace and max updates, the ceiling of one
// pause and of a run of pauses, and the paused-time account.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wpedantic"
extern "C" {
#include "rxe_cc_sfc.h"
}
#pragma GCC diagnostic pop

namespace
{

constexpr uint64_t kUs = 1000;
constexpr uint64_t kMs = 1000 * kUs;
constexpr uint16_t kIntPort = 4792;

// A BTS's UDP payload as a switch builds it (sfc.md §3.3): header, the
// original UDP header, the original BTH of an RDMA WRITE ONLY.
std::vector<uint8_t> bts(uint32_t pause_us, uint8_t flags = RXE_CC_BTS_C, uint8_t opcode = 0x0a,
                         uint16_t dport = 4791)
{
	std::vector<uint8_t> b = {
		0x10,
		flags,
		26 << 2 | 2,
		0, // ver/type, flags, DSCP/ECN
		static_cast<uint8_t>(pause_us >> 24),
		static_cast<uint8_t>(pause_us >> 16),
		static_cast<uint8_t>(pause_us >> 8),
		static_cast<uint8_t>(pause_us),
		0,
		0,
		0x01,
		0x2c, // qdepth 300 x 64 B
		0xc1,
		0x23,
		static_cast<uint8_t>(dport >> 8),
		static_cast<uint8_t>(dport),
		0,
		0x4c,
		0,
		0, // UDP: sport 0xc123, length, csum
		opcode,
		0x40,
		0xff,
		0xff, // BTH: opcode, SE/M/pad/tver, P_Key
		0,
		0x00,
		0x12,
		0x34, // DestQP 0x1234
		0x80,
		0xab,
		0xcd,
		0xef, // AckReq, PSN 0xabcdef
	};
	return b;
}

rxe_cc_bts_err parse(const std::vector<uint8_t> &b, rxe_cc_bts *out, uint16_t int_port = kIntPort)
{
	return rxe_cc_bts_parse(b.data(), static_cast<uint32_t>(b.size()), int_port, out);
}

TEST(BtsParse, ReadsEveryField)
{
	rxe_cc_bts out{};
	std::vector<uint8_t> b = bts(1234, RXE_CC_BTS_C | RXE_CC_BTS_H);
	ASSERT_EQ(b.size(), static_cast<size_t>(RXE_CC_BTS_MIN_BYTES));
	ASSERT_EQ(parse(b, &out), RXE_CC_BTS_OK);
	EXPECT_EQ(out.flags, RXE_CC_BTS_C | RXE_CC_BTS_H);
	EXPECT_EQ(out.dscp_ecn, 26 << 2 | 2);
	EXPECT_EQ(out.pause_us, 1234u);
	EXPECT_EQ(out.qdepth, 300u);
	EXPECT_EQ(out.sport, 0xc123);
	EXPECT_EQ(out.dport, 4791);
	EXPECT_EQ(out.opcode, 0x0a);
	EXPECT_EQ(out.dqpn, 0x1234u);
	EXPECT_EQ(out.psn, 0xabcdefu);
}

TEST(BtsParse, FullWidthPauseAndTrailingBytes)
{
	rxe_cc_bts out{};
	std::vector<uint8_t> b = bts(0xfffffffe);
	b.resize(b.size() + 16, 0xee); // the optional 16 bytes after the BTH
	ASSERT_EQ(parse(b, &out), RXE_CC_BTS_OK);
	EXPECT_EQ(out.pause_us, 0xfffffffeu);
}

TEST(BtsParse, ShorterThanHeaderUdpAndBthIsShort)
{
	rxe_cc_bts out{};
	std::vector<uint8_t> b = bts(10);
	for (size_t n = 0; n < b.size(); n++)
		EXPECT_EQ(rxe_cc_bts_parse(b.data(), static_cast<uint32_t>(n), kIntPort, &out),
		          RXE_CC_BTS_SHORT)
			<< n << " bytes";
}

TEST(BtsParse, VersionAndType)
{
	rxe_cc_bts out{};
	std::vector<uint8_t> b = bts(10);
	for (int v : {0x00, 0x20, 0xf0}) {
		b[0] = static_cast<uint8_t>(v);
		EXPECT_EQ(parse(b, &out), RXE_CC_BTS_BAD_VERSION) << v;
	}
	for (int t : {0x11, 0x1f}) {
		b[0] = static_cast<uint8_t>(t);
		EXPECT_EQ(parse(b, &out), RXE_CC_BTS_BAD_TYPE) << t;
	}
}

TEST(BtsParse, InnerPortMustMatchFlagI)
{
	rxe_cc_bts out{};
	// the INT port with flag I: the original was shimmed (wire.md §7.4 (f))
	EXPECT_EQ(parse(bts(10, RXE_CC_BTS_I, 0x0a, kIntPort), &out), RXE_CC_BTS_OK);
	EXPECT_EQ(parse(bts(10, RXE_CC_BTS_I, 0x0a, 4791), &out), RXE_CC_BTS_BAD_PORT);
	EXPECT_EQ(parse(bts(10, 0, 0x0a, kIntPort), &out), RXE_CC_BTS_BAD_PORT);
	EXPECT_EQ(parse(bts(10, 0, 0x0a, 4793), &out), RXE_CC_BTS_BAD_PORT);
	// no INT port on this host: a shimmed original cannot be ours
	EXPECT_EQ(parse(bts(10, RXE_CC_BTS_I, 0x0a, kIntPort), &out, 0), RXE_CC_BTS_BAD_PORT);
	EXPECT_EQ(parse(bts(10, RXE_CC_BTS_I, 0x0a, 0), &out, 0), RXE_CC_BTS_BAD_PORT);
}

TEST(BtsParse, OnlyRequestsCarryingDataNameAQp)
{
	rxe_cc_bts out{};
	for (int op = 0; op < 256; op++) {
		bool data = op <= 0x0c || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17;
		EXPECT_EQ(parse(bts(10, 0, static_cast<uint8_t>(op)), &out),
		          data ? RXE_CC_BTS_OK : RXE_CC_BTS_NOT_DATA)
			<< "opcode " << op;
	}
}

// ---- the QP's pause -----------------------------------------------------------

constexpr uint32_t kMaxUs = 10000; // 10 ms ceiling
const uint64_t t0 = 5 * kMs;

TEST(SfcPause, ABtsPausesUntilNowPlusItsTime)
{
	rxe_cc_sfc s{};
	EXPECT_FALSE(rxe_cc_sfc_paused(&s, t0));
	uint32_t r = rxe_cc_sfc_take(&s, 1000, RXE_CC_BTS_C, kMaxUs, RXE_CC_SFC_REPLACE, t0);
	EXPECT_EQ(r, RXE_CC_SFC_TAKEN);
	EXPECT_EQ(s.end_ns, t0 + 1 * kMs);
	EXPECT_TRUE(rxe_cc_sfc_paused(&s, t0 + 999 * kUs));
	EXPECT_FALSE(rxe_cc_sfc_paused(&s, t0 + 1 * kMs));
	EXPECT_EQ(s.bts_rx, 1u);
	EXPECT_EQ(s.bts_cache, 0u);
	EXPECT_EQ(s.pause_starts, 1u);
	EXPECT_EQ(s.last_pause_us, 1000u);
}

TEST(SfcPause, ReplaceTakesTheNewestEvenShorter)
{
	rxe_cc_sfc s{};
	rxe_cc_sfc_take(&s, 1000, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0);
	uint32_t r = rxe_cc_sfc_take(&s, 200, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0 + 100 * kUs);
	EXPECT_EQ(r, RXE_CC_SFC_TAKEN | RXE_CC_SFC_SHORTER);
	EXPECT_EQ(s.end_ns, t0 + 300 * kUs);
	// longer: no SHORTER
	r = rxe_cc_sfc_take(&s, 2000, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0 + 200 * kUs);
	EXPECT_EQ(r, RXE_CC_SFC_TAKEN);
	EXPECT_EQ(s.end_ns, t0 + 2200 * kUs);
	EXPECT_EQ(s.pause_starts, 1u); // one run
	EXPECT_EQ(s.bts_rx, 3u);
}

TEST(SfcPause, ZeroPauseEndsThePauseInForce)
{
	rxe_cc_sfc s{};
	rxe_cc_sfc_take(&s, 1000, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0);
	uint32_t r = rxe_cc_sfc_take(&s, 0, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0 + 300 * kUs);
	EXPECT_EQ(r, RXE_CC_SFC_TAKEN | RXE_CC_SFC_SHORTER);
	EXPECT_FALSE(rxe_cc_sfc_paused(&s, t0 + 300 * kUs));
	EXPECT_EQ(rxe_cc_sfc_paused_total(&s, t0 + 5 * kMs), 300 * kUs);
	// a zero pause on a QP not paused starts nothing
	rxe_cc_sfc_take(&s, 0, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0 + 1 * kMs);
	EXPECT_EQ(s.pause_starts, 1u);
	EXPECT_FALSE(rxe_cc_sfc_paused(&s, t0 + 1 * kMs));
}

TEST(SfcPause, MaxModeOnlyLengthens)
{
	rxe_cc_sfc s{};
	rxe_cc_sfc_take(&s, 1000, 0, kMaxUs, RXE_CC_SFC_MAX, t0);
	uint32_t r = rxe_cc_sfc_take(&s, 200, 0, kMaxUs, RXE_CC_SFC_MAX, t0 + 100 * kUs);
	EXPECT_EQ(r, RXE_CC_SFC_TAKEN);
	EXPECT_EQ(s.end_ns, t0 + 1 * kMs);
	rxe_cc_sfc_take(&s, 1000, 0, kMaxUs, RXE_CC_SFC_MAX, t0 + 500 * kUs);
	EXPECT_EQ(s.end_ns, t0 + 1500 * kUs);
}

TEST(SfcPause, CacheHitsAreCounted)
{
	rxe_cc_sfc s{};
	rxe_cc_sfc_take(&s, 100, RXE_CC_BTS_H, kMaxUs, RXE_CC_SFC_REPLACE, t0);
	rxe_cc_sfc_take(&s, 100, RXE_CC_BTS_C, kMaxUs, RXE_CC_SFC_REPLACE, t0 + 1 * kMs);
	EXPECT_EQ(s.bts_rx, 2u);
	EXPECT_EQ(s.bts_cache, 1u);
}

// A pause above the ceiling is cut to it (sfc.md review note 1: u32 us
// times 1000 must not wrap), and uses the run's budget: no BTS is taken
// for as long again.
TEST(SfcPause, AboveTheCeilingIsClampedAndUsesTheBudget)
{
	rxe_cc_sfc s{};
	uint32_t r = rxe_cc_sfc_take(&s, 0xffffffffu, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0);
	EXPECT_EQ(r, RXE_CC_SFC_TAKEN | RXE_CC_SFC_CLAMPED);
	EXPECT_EQ(s.end_ns, t0 + 10 * kMs);
	EXPECT_EQ(s.bts_clamped, 1u);
	EXPECT_EQ(s.last_pause_us, kMaxUs);
	// while paused and for 10 ms after: capped, the pause unchanged
	for (uint64_t t = t0 + 1 * kMs; t < t0 + 20 * kMs; t += 1 * kMs) {
		EXPECT_EQ(rxe_cc_sfc_take(&s, 500, 0, kMaxUs, RXE_CC_SFC_REPLACE, t),
		          RXE_CC_SFC_CAPPED)
			<< (t - t0) / kMs << " ms";
		EXPECT_EQ(s.end_ns, t0 + 10 * kMs);
	}
	EXPECT_EQ(s.bts_capped, 19u);
	EXPECT_EQ(s.bts_rx, 1u);
	// then taken again
	EXPECT_EQ(rxe_cc_sfc_take(&s, 500, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0 + 20 * kMs),
	          RXE_CC_SFC_TAKEN);
	EXPECT_EQ(s.end_ns, t0 + 20 * kMs + 500 * kUs);
	EXPECT_EQ(s.pause_starts, 2u);
}

// A stream of BTS, each within the ceiling, cannot hold the QP longer than
// the ceiling in a row, and leaves it free at least half the time.
TEST(SfcPause, AStreamOfBtsCannotHoldTheQpForGood)
{
	rxe_cc_sfc s{};
	uint64_t held = 0, free_ns = 0, run = 0, longest = 0;
	const uint64_t step = 100 * kUs;
	for (uint64_t t = t0; t < t0 + 1000 * kMs; t += step) {
		rxe_cc_sfc_take(&s, 4000, 0, kMaxUs, RXE_CC_SFC_REPLACE, t);
		if (rxe_cc_sfc_paused(&s, t)) {
			held += step;
			run += step;
			longest = std::max(longest, run);
		} else {
			free_ns += step;
			run = 0;
		}
	}
	EXPECT_LE(longest, uint64_t{kMaxUs} * kUs);
	EXPECT_GE(longest, uint64_t{kMaxUs} * kUs - step); // it did hold that long
	EXPECT_GE(free_ns, held - step * 10);
	EXPECT_GT(s.bts_capped, 0u);
	EXPECT_EQ(rxe_cc_sfc_paused_total(&s, t0 + 1000 * kMs), held);
}

TEST(SfcPause, PausedTimeAddsUpRuns)
{
	rxe_cc_sfc s{};
	rxe_cc_sfc_take(&s, 1000, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0);
	EXPECT_EQ(rxe_cc_sfc_paused_total(&s, t0 + 400 * kUs), 400 * kUs); // the run in force
	rxe_cc_sfc_take(&s, 2000, 0, kMaxUs, RXE_CC_SFC_REPLACE, t0 + 3 * kMs);
	EXPECT_EQ(s.pause_starts, 2u);
	EXPECT_EQ(rxe_cc_sfc_paused_total(&s, t0 + 4 * kMs), 1 * kMs + 1 * kMs);
	EXPECT_EQ(rxe_cc_sfc_paused_total(&s, t0 + 9 * kMs), 1 * kMs + 2 * kMs);
}

} // namespace
