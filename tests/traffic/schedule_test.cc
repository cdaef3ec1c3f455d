// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The schedule parser: a complete file, defaults, the normalised form and
// its hash, and every kind of bad line rejected with its line number.
#include <string>

#include <gtest/gtest.h>

#include "hosts.h"
#include "qpcc.h"
#include "schedule.h"

namespace
{

using namespace rxecc::traffic;

const char kGood[] = R"(# a schedule
w1   h1 r 0        size=1MB
defaults verb=send msg=4KiB qps=2   # from here on
s1   h2 r 1.5ms    size=10000 dscp=10
long h1 r 2s       duration=10s verb=write depth=16 timeout=20

r1   h2 r 100us    size=64KiB verb=read msg=1MiB qps=4
)";

TEST(Schedule, ParsesEveryField)
{
	std::string err;
	auto s = parse_schedule(kGood, "sched", &err);
	ASSERT_TRUE(s) << err;
	ASSERT_EQ(s->flows.size(), 4u);
	const FlowSpec &w1 = s->flows[0];
	EXPECT_EQ(w1.name, "w1");
	EXPECT_EQ(w1.src, "h1");
	EXPECT_EQ(w1.dst, "r");
	EXPECT_EQ(w1.start_ns, 0u);
	EXPECT_EQ(w1.size_bytes, 1000000u);
	EXPECT_FALSE(w1.duration_ns);
	EXPECT_EQ(w1.opt.verb, Verb::kWrite);
	EXPECT_EQ(w1.opt.msg_bytes, 65536u);
	EXPECT_EQ(w1.opt.qps, 1u);
	EXPECT_EQ(w1.opt.dscp, 26u);
	EXPECT_EQ(w1.opt.depth, 128u);
	EXPECT_EQ(w1.opt.ack_timeout, 18u);
	EXPECT_EQ(w1.line, 2);

	const FlowSpec &s1 = s->flows[1];
	EXPECT_EQ(s1.start_ns, 1500000u);
	EXPECT_EQ(s1.size_bytes, 10000u);
	EXPECT_EQ(s1.opt.verb, Verb::kSend); // from defaults
	EXPECT_EQ(s1.opt.msg_bytes, 4096u);
	EXPECT_EQ(s1.opt.qps, 2u);
	EXPECT_EQ(s1.opt.dscp, 10u);
	EXPECT_EQ(s1.line, 4);

	const FlowSpec &l = s->flows[2];
	EXPECT_EQ(l.start_ns, 2000000000u);
	EXPECT_EQ(l.duration_ns, 10000000000u);
	EXPECT_FALSE(l.size_bytes);
	EXPECT_EQ(l.opt.verb, Verb::kWrite); // the line overrides the defaults
	EXPECT_EQ(l.opt.msg_bytes, 4096u);
	EXPECT_EQ(l.opt.depth, 16u);
	EXPECT_EQ(l.opt.ack_timeout, 20u);

	const FlowSpec &r1 = s->flows[3];
	EXPECT_EQ(r1.opt.verb, Verb::kRead);
	EXPECT_EQ(r1.driver(), "r"); // READ: dst posts, src's data moves
	EXPECT_EQ(r1.passive(), "h2");
	EXPECT_EQ(r1.line, 7);
	EXPECT_EQ(s1.driver(), "h2");

	EXPECT_EQ(s->hosts(), (std::vector<std::string>{"h1", "r", "h2"}));
}

TEST(Schedule, MessagesOfASizedFlow)
{
	FlowSpec f;
	f.size_bytes = 10000;
	f.opt.msg_bytes = 4096;
	EXPECT_EQ(f.messages(), 3u);
	EXPECT_EQ(f.message_bytes(0), 4096u);
	EXPECT_EQ(f.message_bytes(1), 4096u);
	EXPECT_EQ(f.message_bytes(2), 10000u - 8192u);
	f.size_bytes = 8192;
	EXPECT_EQ(f.messages(), 2u);
	EXPECT_EQ(f.message_bytes(1), 4096u);
	f.size_bytes = 100; // smaller than a message: one short message
	EXPECT_EQ(f.messages(), 1u);
	EXPECT_EQ(f.message_bytes(0), 100u);
	f.size_bytes.reset();
	f.duration_ns = 1;
	EXPECT_EQ(f.messages(), 0u);
	EXPECT_EQ(f.message_bytes(7), 4096u);
}

TEST(Schedule, BaseOptionsApplyBeforeDefaults)
{
	FlowOptions base;
	base.ack_timeout = 14;
	std::string err;
	auto s = parse_schedule("a h1 h2 0 size=1\ndefaults timeout=19\nb h1 h2 0 size=1\n", "x",
	                        &err, base);
	ASSERT_TRUE(s) << err;
	EXPECT_EQ(s->flows[0].opt.ack_timeout, 14u);
	EXPECT_EQ(s->flows[1].opt.ack_timeout, 19u);
}

TEST(Schedule, FormatParsesBackAndHashIgnoresLayout)
{
	std::string err;
	auto s = parse_schedule(kGood, "sched", &err);
	ASSERT_TRUE(s) << err;
	s->header = {"made by a test"};
	const std::string text = format_schedule(*s);
	EXPECT_EQ(text.rfind("# made by a test\nw1 h1 r 0ns size=1MB verb=write msg=64KiB qps=1 "
	                     "dscp=26 depth=128 timeout=18\n",
	                     0),
	          0u)
		<< text;
	auto back = parse_schedule(text, "again", &err);
	ASSERT_TRUE(back) << err;
	ASSERT_EQ(back->flows.size(), s->flows.size());
	for (size_t i = 0; i < s->flows.size(); i++)
		EXPECT_EQ(format_flow(back->flows[i]), format_flow(s->flows[i]));
	EXPECT_EQ(schedule_hash(*back), schedule_hash(*s));

	// the same flows written differently hash the same; a change does not
	auto a = parse_schedule("f h1 h2 1000us size=1000 verb=write\n", "a", &err);
	auto b = parse_schedule("  f  h1\th2 1ms size=1KB # same\n", "b", &err);
	auto c = parse_schedule("f h1 h2 1ms size=1001\n", "c", &err);
	ASSERT_TRUE(a && b && c);
	EXPECT_EQ(schedule_hash(*a), schedule_hash(*b));
	EXPECT_NE(schedule_hash(*a), schedule_hash(*c));
}

TEST(Schedule, CrLfAndCommentsOnly)
{
	std::string err;
	auto s = parse_schedule("# c\r\nf h1 h2 0 size=1\r\n", "x", &err);
	ASSERT_TRUE(s) << err;
	EXPECT_EQ(s->flows[0].size_bytes, 1u);
	EXPECT_FALSE(parse_schedule("# nothing\n\n", "empty", &err));
	EXPECT_EQ(err, "empty: no flows");
}

struct Bad {
	const char *text;
	const char *error; // the message; a final '*' matches any rest
};

class ScheduleBad : public ::testing::TestWithParam<Bad>
{
};

TEST_P(ScheduleBad, RejectedWithLine)
{
	std::string err;
	EXPECT_FALSE(parse_schedule(GetParam().text, "s.txt", &err));
	std::string want = GetParam().error;
	if (!want.empty() && want.back() == '*') {
		want.pop_back();
		EXPECT_EQ(err.substr(0, want.size()), want);
	} else {
		EXPECT_EQ(err, want);
	}
}

INSTANTIATE_TEST_SUITE_P(
	Lines, ScheduleBad,
	::testing::Values(
		Bad{"ok h1 h2 0 size=1\nf h1 h2 0\n", "s.txt:2: expected NAME SRC DST START "
                                                      "size=SIZE|duration=TIME [KEY=VALUE ...] or "
                                                      "defaults KEY=VALUE ..."},
		Bad{"f,1 h1 h2 0 size=1\n", "s.txt:1: flow name 'f,1' is not a name (letters, "
                                            "digits, '_', '-', '.'; at most 64)"},
		Bad{"f h/1 h2 0 size=1\n", "s.txt:1: SRC 'h/1' is not a name (letters, digits, "
                                           "'_', '-', '.'; at most 64)"},
		Bad{"f h1 h2 0 size=1\n\nf h2 h1 0 size=1\n",
                    "s.txt:3: flow 'f' is already defined on line 1"},
		Bad{"f h1 h1 0 size=1\n", "s.txt:1: flow 'f': SRC and DST are the same host 'h1'"},
		Bad{"f h1 h2 5 size=1\n", "s.txt:1: START: '5' is not a time*"},
		Bad{"f h1 h2 0 size=1 duration=1s\n",
                    "s.txt:1: flow 'f' has both size and duration"},
		Bad{"f h1 h2 0 verb=send\n", "s.txt:1: flow 'f' needs size=SIZE or duration=TIME"},
		Bad{"f h1 h2 0 size=0\n", "s.txt:1: size: a flow moves at least 1 byte"},
		Bad{"f h1 h2 0 duration=0\n", "s.txt:1: duration: must be longer than 0"},
		Bad{"f h1 h2 0 size=1 color=red\n", "s.txt:1: unknown setting 'color' (known: "
                                                    "size, duration, verb, msg, qps, dscp, "
                                                    "depth, timeout, rate)"},
		Bad{"f h1 h2 0 size=1 qps=2 qps=3\n", "s.txt:1: qps given twice"},
		Bad{"f h1 h2 0 size=1 verb=atomic\n",
                    "s.txt:1: verb: 'atomic' is not write, send or read"},
		Bad{"f h1 h2 0 size=1 msg=0\n",
                    "s.txt:1: msg: 0 is not a message size from 1B to 1GiB"},
		Bad{"f h1 h2 0 size=1 msg=2GiB\n",
                    "s.txt:1: msg: 2GiB is not a message size from 1B to 1GiB"},
		Bad{"f h1 h2 0 size=1 qps=0\n",
                    "s.txt:1: qps: '0' is not a whole number from 1 to 64"},
		Bad{"f h1 h2 0 size=1 qps=65\n",
                    "s.txt:1: qps: '65' is not a whole number from 1 to 64"},
		Bad{"f h1 h2 0 size=1 dscp=64\n",
                    "s.txt:1: dscp: '64' is not a whole number from 0 to 63"},
		Bad{"f h1 h2 0 size=1 depth=0\n",
                    "s.txt:1: depth: '0' is not a whole number from 1 to 4096"},
		Bad{"f h1 h2 0 size=1 timeout=32\n",
                    "s.txt:1: timeout: '32' is not a whole number from 0 to 31"},
		Bad{"f h1 h2 0 size=1 timeout=-1\n",
                    "s.txt:1: timeout: '-1' is not a whole number from 0 to 31"},
		Bad{"f h1 h2 0 size\n",
                    "s.txt:1: 'size' is not KEY=VALUE (expected NAME SRC DST START "
                    "size=SIZE|duration=TIME [KEY=VALUE ...] or defaults KEY=VALUE ...)"},
		Bad{"defaults\n", "s.txt:1: defaults: expected KEY=VALUE ..."},
		Bad{"defaults size=1\n", "s.txt:1: defaults: unknown setting 'size' (known: verb, "
                                         "msg, qps, dscp, depth, "
                                         "timeout, rate)"},
		Bad{"defaults qps=1 qps=2\n", "s.txt:1: defaults: qps given twice"},
		Bad{"# one\n# two\ndefaults qps=x\n",
                    "s.txt:3: qps: 'x' is not a whole number from 1 to 64"},
		Bad{"f h1 h2 0 size=1 rate=0\n",
                    "s.txt:1: rate: 0 is not a whole number of kbit/s from 1kbit to "
                    "2147483648kbit"},
		Bad{"f h1 h2 0 size=1 rate=1500\n",
                    "s.txt:1: rate: 1500 is not a whole number of kbit/s from 1kbit to "
                    "2147483648kbit"},
		Bad{"f h1 h2 0 size=1 rate=3T\n",
                    "s.txt:1: rate: 3T is not a whole number of kbit/s from 1kbit to "
                    "2147483648kbit"},
		Bad{"f h1 h2 0 size=1 rate=10MB\n", "s.txt:1: rate: *"},
		Bad{"f h1 h2 0 size=1 verb=read rate=10M\n",
                    "s.txt:1: flow 'f': rate= paces the driver's QPs, and a READ flow's data "
                    "comes from the other host (write and send only)"},
		Bad{"defaults rate=10M\nf h1 h2 0 size=1 verb=read\n",
                    "s.txt:2: flow 'f': rate= paces the driver's QPs, and a READ flow's data "
                    "comes from the other host (write and send only)"}));

TEST(Schedule, RateIsKeptAndFormatted)
{
	std::string err;
	auto s = parse_schedule("defaults rate=12.5M\na h1 h2 0 size=1\n"
	                        "b h1 h2 0 size=1 rate=1kbit verb=send\nc h1 h2 0 size=1 "
	                        "rate=2147483648000\n",
	                        "s", &err);
	ASSERT_TRUE(s) << err;
	EXPECT_EQ(s->flows[0].opt.rate_bps, 12500000u);
	EXPECT_EQ(s->flows[1].opt.rate_bps, 1000u);
	EXPECT_EQ(s->flows[2].opt.rate_bps, 2147483648000u);
	EXPECT_NE(format_flow(s->flows[0]).find(" rate=12.5Mbit"), std::string::npos)
		<< format_flow(s->flows[0]);
	auto back = parse_schedule(format_schedule(*s), "again", &err);
	ASSERT_TRUE(back) << err;
	for (std::size_t i = 0; i < 3; ++i)
		EXPECT_EQ(back->flows[i].opt.rate_bps, s->flows[i].opt.rate_bps);
	EXPECT_EQ(schedule_hash(*back), schedule_hash(*s));
	// without rate= the line has no rate key and the flow none
	auto n = parse_schedule("a h1 h2 0 size=1\n", "s", &err);
	ASSERT_TRUE(n) << err;
	EXPECT_FALSE(n->flows[0].opt.rate_bps);
	EXPECT_EQ(format_flow(n->flows[0]).find("rate="), std::string::npos);
}

TEST(Schedule, PaceRequestSetsFixedAtTheRate)
{
	const rxecc::QpSet q = pace_request("rxe_h1", 17, 12500000);
	EXPECT_EQ(q.dev, "rxe_h1");
	EXPECT_EQ(q.qpn, 17u);
	EXPECT_EQ(q.algo, "fixed");
	ASSERT_EQ(q.params.size(), 1u);
	EXPECT_EQ(q.params[0].name, "rate_kbps");
	EXPECT_EQ(q.params[0].value, 12500u);
	EXPECT_FALSE(q.sfc);
}

TEST(Schedule, SizeErrorQuotesTheUnitsLibrary)
{
	std::string err;
	EXPECT_FALSE(parse_schedule("f h1 h2 0 size=10XB\n", "s", &err));
	EXPECT_EQ(err.rfind("s:1: size: '10XB'", 0), 0u) << err;
}

TEST(Hosts, ExperimentFileAndOptions)
{
	std::string err;
	auto h = parse_hosts("# NAME IP MAC SWITCH:PORT\n"
	                     "h1 10.9.0.1 02:00:00:00:00:01 s0:h1\n"
	                     "r 10.9.0.2 02:00:00:00:00:02 s0:r\n"
	                     "x 192.168.1.7 netns=- dev=mlx5_0\n"
	                     "y 192.168.1.8 netns=other dev=any\n",
	                     "hosts.txt", &err);
	ASSERT_TRUE(h) << err;
	ASSERT_EQ(h->hosts.size(), 4u);
	EXPECT_EQ(h->hosts[0].name, "h1");
	EXPECT_EQ(h->hosts[0].ip, "10.9.0.1");
	EXPECT_EQ(h->hosts[0].netns, "h1");
	EXPECT_EQ(h->hosts[0].dev, "rxe_h1");
	EXPECT_EQ(h->hosts[1].line, 3);
	EXPECT_EQ(h->hosts[2].netns, "");
	EXPECT_EQ(h->hosts[2].dev, "mlx5_0");
	EXPECT_EQ(h->hosts[3].netns, "other");
	EXPECT_EQ(h->hosts[3].dev, "");
	EXPECT_EQ(h->find("r")->ip, "10.9.0.2");
	EXPECT_EQ(h->find("z"), nullptr);
}

TEST(Hosts, BadLines)
{
	const std::pair<const char *, const char *> cases[] = {
		{"h1\n", "h:1: expected NAME IPV4 [netns=NS|-] [dev=DEV|any] [other fields]"},
		{"h1 10.9.0.256\n", "h:1: '10.9.0.256' is not an IPv4 address"},
		{"h1 fe80::1\n", "h:1: 'fe80::1' is not an IPv4 address"},
		{"h1 10.0.0.1\nh1 10.0.0.2\n", "h:2: host 'h1' is already defined on line 1"},
		{"h1 10.0.0.1\nh2 10.0.0.1\n", "h:2: address 10.0.0.1 is already used on line 1"},
		{"h1 10.0.0.1 mtu=9000\n",
	         "h:1: unknown setting 'mtu=9000' (known: netns=NS|-, dev=DEV|any)"},
		{"h1 10.0.0.1 netns=a netns=b\n", "h:1: netns given twice"},
		{"h1 10.0.0.1 netns=a/b\n", "h:1: netns: 'a/b' is not a namespace name (or '-')"},
		{"h:1 10.0.0.1\n",
	         "h:1: host name 'h:1' is not a name (letters, digits, '_', '-', '.'; at most 64)"},
		{"\n# none\n", "h: no hosts"},
	};
	for (const auto &[text, want] : cases) {
		std::string err;
		EXPECT_FALSE(parse_hosts(text, "h", &err)) << text;
		EXPECT_EQ(err, want);
	}
}

TEST(Hosts, ScheduleNamesOnlyKnownHosts)
{
	std::string err;
	auto h = parse_hosts("h1 10.0.0.1\nr 10.0.0.2\n", "hosts.txt", &err);
	auto good = parse_schedule("f h1 r 0 size=1\n", "s", &err);
	auto bad = parse_schedule("f h1 r 0 size=1\n\ng r h9 0 size=1\n", "s", &err);
	ASSERT_TRUE(h && good && bad);
	EXPECT_TRUE(check_schedule_hosts(*good, *h, "s", "hosts.txt", &err));
	EXPECT_FALSE(check_schedule_hosts(*bad, *h, "s", "hosts.txt", &err));
	EXPECT_EQ(err, "s:3: flow 'g' names host 'h9', which hosts.txt does not define");
}

} // namespace
