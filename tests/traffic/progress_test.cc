// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A flow's accounting at its driver: what is posted on which QP, the
// record, the throughput bins and the message log; the wire model and
// nearest-rank percentiles.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "progress.h"

namespace
{

using namespace rxecc::traffic;

FlowSpec sized(std::uint64_t size, std::uint64_t msg, unsigned qps, Verb v = Verb::kWrite)
{
	FlowSpec f;
	f.name = "f";
	f.src = "a";
	f.dst = "b";
	f.size_bytes = size;
	f.opt.msg_bytes = msg;
	f.opt.qps = qps;
	f.opt.verb = v;
	return f;
}

TEST(Bins, CompletionsLandInTheirBin)
{
	Bins b(1000);
	b.add(999, 10);
	b.add(1000, 20);
	b.add(1999, 1);
	b.add(3500, 5);
	EXPECT_EQ(b.first_bin(), 0);
	EXPECT_EQ(b.bytes(), (std::vector<std::uint64_t>{10, 21, 0, 5}));
	b.cover(-1, 5000); // t = -1 ns is in bin -1, t = 5000 in bin 5
	EXPECT_EQ(b.first_bin(), -1);
	EXPECT_EQ(b.bytes(), (std::vector<std::uint64_t>{0, 10, 21, 0, 5, 0, 0}));
	EXPECT_EQ(b.total(), 36u);
}

TEST(FlowProgress, SizedFlowStripesOverQps)
{
	FlowProgress p(sized(10000, 4096, 2), 1000000, true);
	EXPECT_FALSE(p.started());
	EXPECT_FALSE(p.post(0, 5)); // not started: nothing to post
	p.start(100);
	EXPECT_EQ(p.record().start_ns, 100);
	auto m0 = p.post(0, 100), m1 = p.post(1, 101), m2 = p.post(0, 102);
	ASSERT_TRUE(m0 && m1 && m2);
	EXPECT_EQ(m0->msg, 0u);
	EXPECT_EQ(m1->msg, 1u);
	EXPECT_EQ(m2->msg, 2u);
	EXPECT_EQ(m2->bytes, 10000u - 8192u);
	EXPECT_FALSE(p.post(1, 103)); // all three posted
	EXPECT_EQ(p.outstanding(), 3u);
	EXPECT_EQ(p.outstanding(0), 2u);
	EXPECT_EQ(p.outstanding(1), 1u);
	EXPECT_FALSE(p.finished(200));

	p.complete(1, 1, 1500000);
	p.complete(0, 0, 1600000);
	EXPECT_EQ(p.record().bytes, 8192u);
	EXPECT_EQ(p.record().msgs, 2u);
	EXPECT_FALSE(p.finished(1600000));
	p.complete(2, 0, 3200000);
	EXPECT_TRUE(p.finished(3200000));
	p.finish("ok");
	const FlowRecord &r = p.record();
	EXPECT_EQ(r.bytes, 10000u);
	EXPECT_EQ(r.msgs, 3u);
	EXPECT_EQ(r.first_byte_ns, 1500000);
	EXPECT_EQ(r.last_byte_ns, 3200000);
	EXPECT_EQ(r.complete_ns, 3200000);
	EXPECT_EQ(r.status, "ok");
	// bins of 1 ms from the start (bin 0) to the last completion (bin 3)
	EXPECT_EQ(p.bins().first_bin(), 0);
	EXPECT_EQ(p.bins().bytes(), (std::vector<std::uint64_t>{0, 8192, 0, 1808}));
	ASSERT_EQ(p.messages().size(), 3u);
	EXPECT_EQ(p.messages()[1].post_ns, 101);
	EXPECT_EQ(p.messages()[1].complete_ns, 1500000);
	EXPECT_EQ(p.messages()[1].qp, 1u);
	EXPECT_EQ(p.messages()[2].bytes, 1808u);
}

TEST(FlowProgress, DurationFlowStopsPostingAtItsEnd)
{
	FlowSpec f;
	f.duration_ns = 1000;
	f.opt.msg_bytes = 100;
	f.opt.qps = 1;
	FlowProgress p(f, 1000, false);
	p.start(50);
	EXPECT_TRUE(p.post(0, 50));
	EXPECT_TRUE(p.post(0, 1049));  // 999 ns after the start
	EXPECT_FALSE(p.post(0, 1050)); // start + duration
	EXPECT_TRUE(p.posting_over(1050));
	p.complete(0, 0, 600);
	EXPECT_FALSE(p.finished(1100));
	p.complete(1, 0, 1300);
	EXPECT_TRUE(p.finished(1300));
	p.finish("ok");
	EXPECT_EQ(p.record().bytes, 200u);
	EXPECT_EQ(p.record().complete_ns, 1300);
	EXPECT_TRUE(p.messages().empty()); // not logged
}

TEST(FlowProgress, FailedFlowKeepsWhatMovedAndHasNoCompletion)
{
	FlowProgress p(sized(4000, 1000, 1), 1000, false);
	p.start(0);
	for (int i = 0; i < 4; i++)
		ASSERT_TRUE(p.post(0, 0));
	p.complete(0, 0, 10);
	p.fail_completion(1, 0);
	p.stop_posting();
	EXPECT_EQ(p.outstanding(), 2u);
	p.fail_completion(2, 0);
	p.fail_completion(3, 0);
	EXPECT_TRUE(p.finished(20));
	p.finish("wc_error:retry_exc_err");
	EXPECT_EQ(p.record().bytes, 1000u);
	EXPECT_EQ(p.record().last_byte_ns, 10);
	EXPECT_FALSE(p.record().complete_ns);
	EXPECT_EQ(p.record().status, "wc_error:retry_exc_err");
}

TEST(FlowProgress, SendLeavesByteTimesToTheReceiver)
{
	FlowProgress p(sized(100, 100, 1, Verb::kSend), 1000, false);
	p.start(0);
	ASSERT_TRUE(p.post(0, 0));
	p.complete(0, 0, 700);
	p.finish("ok");
	EXPECT_FALSE(p.record().first_byte_ns);
	EXPECT_FALSE(p.record().last_byte_ns);
	EXPECT_EQ(p.record().complete_ns, 700);
	EXPECT_EQ(p.first_completion(), 700);
}

TEST(FlowProgress, NeverStarted)
{
	FlowProgress p(sized(100, 100, 1), 1000, true);
	p.finish("connect_timeout:rejected_8");
	EXPECT_FALSE(p.record().start_ns);
	EXPECT_EQ(p.record().bytes, 0u); // it moved nothing
	EXPECT_EQ(p.record().msgs, 0u);
	EXPECT_FALSE(p.record().first_byte_ns); // times unknown
	EXPECT_FALSE(p.record().complete_ns);
	EXPECT_TRUE(p.bins().empty());
}

TEST(Wire, FramesPerMessage)
{
	// 14 + 20 + 8 + 12 + 4 = 58 bytes around every payload
	// WRITE 2500 B at MTU 1024: 1024 (+RETH 16), 1024, 452
	WireCount w = message_frames(Verb::kWrite, 2500, 1024);
	EXPECT_EQ(w.frames, 3u);
	EXPECT_EQ(w.bytes, 2500u + 3 * 58 + 16);
	// SEND 1 B: padded to 4
	w = message_frames(Verb::kSend, 1, 1024);
	EXPECT_EQ(w.frames, 1u);
	EXPECT_EQ(w.bytes, 58u + 4);
	// READ response 3 packets: AETH on first and last
	w = message_frames(Verb::kRead, 3000, 1024);
	EXPECT_EQ(w.frames, 3u);
	EXPECT_EQ(w.bytes, 3000u + 3 * 58 + 2 * 4);
	// READ response in one packet (ONLY): one AETH
	w = message_frames(Verb::kRead, 1024, 1024);
	EXPECT_EQ(w.frames, 1u);
	EXPECT_EQ(w.bytes, 1024u + 58 + 4);
	// 64 KiB WRITE: 64 packets
	w = message_frames(Verb::kWrite, 65536, 1024);
	EXPECT_EQ(w.frames, 64u);
	EXPECT_EQ(w.bytes, 65536u + 64 * 58 + 16);
}

TEST(Percentile, NearestRank)
{
	const std::vector<std::int64_t> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	EXPECT_EQ(percentile(v, 50), 5);
	EXPECT_EQ(percentile(v, 99), 10);
	EXPECT_EQ(percentile(v, 90), 9);
	EXPECT_EQ(percentile(v, 91), 10);
	EXPECT_EQ(percentile(v, 1), 1);
	const std::vector<std::int64_t> one{42};
	EXPECT_EQ(percentile(one, 50), 42);
	std::vector<std::int64_t> hundred;
	for (int i = 1; i <= 100; i++)
		hundred.push_back(i);
	EXPECT_EQ(percentile(hundred, 99), 99);
	EXPECT_EQ(percentile(hundred, 50), 50);
}

} // namespace
