// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The attribute codec and the ABI messages, checked against libnl: requests
// built by rxecc are parsed with libnl, replies built with libnl are decoded
// by rxecc.
#include <cstring>
#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <rdma/rxe_cc.h>

#include "fake_kernel.h"
#include "messages.h"
#include "nlattr.h"

namespace rxecc
{
namespace
{

// libnl's view of attribute bytes built by rxecc.
struct LibnlView {
	std::vector<std::uint8_t> buf;
	struct nlattr *tb[RXE_CC_A_MAX + 1] = {};

	explicit LibnlView(const std::vector<std::uint8_t> &bytes) : buf(bytes)
	{
		int err = nla_parse(tb, RXE_CC_A_MAX, reinterpret_cast<struct nlattr *>(buf.data()),
		                    static_cast<int>(bytes.size()), nullptr);
		EXPECT_EQ(err, 0);
	}
};

TEST(AttrWriter, LayoutIsAlignedAndLibnlReadsIt)
{
	nl::AttrWriter w;
	w.put_u8(RXE_CC_A_ECN, 1);
	w.put_u32(RXE_CC_A_QPN, 0x11223344);
	w.put_u64(RXE_CC_A_LINE_RATE, 25000000000ULL);
	w.put_string(RXE_CC_A_DEV_NAME, "rxe0");
	// u8: 4 + 1 padded to 8; u32: 8; u64: 12; "rxe0\0": 4 + 5 padded to 12
	ASSERT_EQ(w.bytes().size(), 8u + 8u + 12u + 12u);
	EXPECT_EQ(w.bytes()[0], 5); // nla_len of the u8 is 5, not the padded size
	LibnlView v(w.bytes());
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_ECN]), 1);
	EXPECT_EQ(nla_get_u8(v.tb[RXE_CC_A_ECN]), 1);
	EXPECT_EQ(nla_get_u32(v.tb[RXE_CC_A_QPN]), 0x11223344u);
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_LINE_RATE]), 8);
	EXPECT_EQ(nla_get_u64(v.tb[RXE_CC_A_LINE_RATE]), 25000000000ULL);
	EXPECT_STREQ(nla_get_string(v.tb[RXE_CC_A_DEV_NAME]), "rxe0");
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_DEV_NAME]), 5); // NUL-terminated
}

TEST(AttrWriter, NestsCarryTheNestedFlag)
{
	nl::AttrWriter w;
	std::size_t outer = w.begin_nest(RXE_CC_A_PARAMS);
	std::size_t inner = w.begin_nest(RXE_CC_A_PARAM);
	w.put_string(RXE_CC_A_P_NAME, "rp_gd");
	w.put_u32(RXE_CC_A_P_VALUE, 12);
	w.end_nest(inner);
	w.end_nest(outer);
	LibnlView v(w.bytes());
	struct nlattr *params = v.tb[RXE_CC_A_PARAMS];
	ASSERT_NE(params, nullptr);
	EXPECT_TRUE(params->nla_type & NLA_F_NESTED);
	EXPECT_EQ(nla_len(params), static_cast<int>(w.bytes().size()) - 4);
	auto *param = static_cast<struct nlattr *>(nla_data(params));
	EXPECT_TRUE(param->nla_type & NLA_F_NESTED);
	struct nlattr *ptb[RXE_CC_A_P_MAX + 1] = {};
	ASSERT_EQ(nla_parse_nested(ptb, RXE_CC_A_P_MAX, param, nullptr), 0);
	EXPECT_STREQ(nla_get_string(ptb[RXE_CC_A_P_NAME]), "rp_gd");
	EXPECT_EQ(nla_get_u32(ptb[RXE_CC_A_P_VALUE]), 12u);

	// Our own decoder masks the flag.
	std::vector<nl::Attr> top;
	ASSERT_TRUE(nl::parse_attrs(w.bytes().data(), w.bytes().size(), top));
	ASSERT_EQ(top.size(), 1u);
	EXPECT_EQ(top[0].type, RXE_CC_A_PARAMS);
}

TEST(AttrParse, RejectsTruncatedAndOverlongAttributes)
{
	nl::AttrWriter w;
	w.put_u32(RXE_CC_A_QPN, 7);
	std::vector<std::uint8_t> b = w.bytes();
	std::vector<nl::Attr> out;
	EXPECT_TRUE(nl::parse_attrs(b.data(), b.size(), out));
	EXPECT_FALSE(nl::parse_attrs(b.data(), 3, out)); // header cut
	b[0] = 9;                                        // nla_len beyond the buffer
	EXPECT_FALSE(nl::parse_attrs(b.data(), b.size(), out));
	b[0] = 2; // nla_len below the header
	EXPECT_FALSE(nl::parse_attrs(b.data(), b.size(), out));
	EXPECT_TRUE(nl::parse_attrs(b.data(), 0, out));
	EXPECT_TRUE(out.empty());
}

TEST(Attr, IntegersOfEverySizeAndStrings)
{
	std::uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	nl::Attr a;
	a.data = data;
	for (std::size_t len : {std::size_t{1}, std::size_t{2}, std::size_t{4}, std::size_t{8}}) {
		a.len = len;
		std::uint64_t expect = 0;
		std::memcpy(&expect, data, len);
		ASSERT_TRUE(a.as_uint());
		EXPECT_EQ(*a.as_uint(), expect);
	}
	a.len = 3;
	EXPECT_FALSE(a.as_uint());
	const char s[] = "ab\0cd";
	a.data = reinterpret_cast<const std::uint8_t *>(s);
	a.len = 5;
	EXPECT_EQ(a.as_string(), "ab");
	a.len = 2; // no NUL
	EXPECT_EQ(a.as_string(), "ab");
}

TEST(Requests, DevSetCarriesExactlyTheGivenFields)
{
	DevSet set;
	set.dev = "rxe0";
	set.algo = "dcqcn";
	set.params = {{"rp_gd", 12}, {"rp_ai_rate_kbps", 5000}};
	set.line_rate_bps = 1500000000;
	set.ecn = true;
	set.ack_dscp = kAckDscpOwn;
	GenlMsg m = dev_set_request(set);
	EXPECT_EQ(m.cmd, RXE_CC_CMD_DEV_SET);
	LibnlView v(m.attrs);
	EXPECT_STREQ(nla_get_string(v.tb[RXE_CC_A_DEV_NAME]), "rxe0");
	EXPECT_STREQ(nla_get_string(v.tb[RXE_CC_A_ALGO]), "dcqcn");
	EXPECT_EQ(nla_get_u64(v.tb[RXE_CC_A_LINE_RATE]), 1500000000u);
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_ECN]), 1);
	EXPECT_EQ(nla_get_u8(v.tb[RXE_CC_A_ECN]), 1);
	EXPECT_EQ(nla_get_u8(v.tb[RXE_CC_A_ACK_DSCP]), 255);
	EXPECT_EQ(v.tb[RXE_CC_A_BASE_RTT_NS], nullptr);
	EXPECT_EQ(v.tb[RXE_CC_A_ACK_EVERY], nullptr);
	EXPECT_EQ(v.tb[RXE_CC_A_CNP_DSCP], nullptr);
	ASSERT_NE(v.tb[RXE_CC_A_PARAMS], nullptr);
	std::vector<std::pair<std::string, std::uint32_t>> got;
	int rem = nla_len(v.tb[RXE_CC_A_PARAMS]);
	auto *a = static_cast<struct nlattr *>(nla_data(v.tb[RXE_CC_A_PARAMS]));
	while (nla_ok(a, rem)) {
		EXPECT_EQ(nla_type(a), RXE_CC_A_PARAM);
		struct nlattr *ptb[RXE_CC_A_P_MAX + 1] = {};
		nla_parse_nested(ptb, RXE_CC_A_P_MAX, a, nullptr);
		EXPECT_EQ(nla_len(ptb[RXE_CC_A_P_VALUE]), 4);
		got.emplace_back(nla_get_string(ptb[RXE_CC_A_P_NAME]),
		                 nla_get_u32(ptb[RXE_CC_A_P_VALUE]));
		a = nla_next(a, &rem);
	}
	EXPECT_EQ(got, (std::vector<std::pair<std::string, std::uint32_t>>{
			       {"rp_gd", 12}, {"rp_ai_rate_kbps", 5000}}));
	EXPECT_EQ(v.tb[RXE_CC_A_DSCP_PRIO], nullptr);
	EXPECT_EQ(v.tb[RXE_CC_A_SFC], nullptr);
	EXPECT_EQ(v.tb[RXE_CC_A_SFC_MAX_US], nullptr);
	EXPECT_EQ(v.tb[RXE_CC_A_SFC_MODE], nullptr);
}

TEST(Requests, DevSetSfcIsU8U32U8)
{
	DevSet set;
	set.dev = "rxe0";
	set.sfc = true;
	set.sfc_max_us = 50000;
	set.sfc_mode = RXE_CC_SFC_MODE_MAX;
	GenlMsg m = dev_set_request(set);
	LibnlView v(m.attrs);
	ASSERT_NE(v.tb[RXE_CC_A_SFC], nullptr);
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_SFC]), 1);
	EXPECT_EQ(nla_get_u8(v.tb[RXE_CC_A_SFC]), 1);
	ASSERT_NE(v.tb[RXE_CC_A_SFC_MAX_US], nullptr);
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_SFC_MAX_US]), 4);
	EXPECT_EQ(nla_get_u32(v.tb[RXE_CC_A_SFC_MAX_US]), 50000u);
	ASSERT_NE(v.tb[RXE_CC_A_SFC_MODE], nullptr);
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_SFC_MODE]), 1);
	EXPECT_EQ(nla_get_u8(v.tb[RXE_CC_A_SFC_MODE]), RXE_CC_SFC_MODE_MAX);
	// nothing else but the device
	std::vector<nl::Attr> top;
	ASSERT_TRUE(nl::parse_attrs(m.attrs.data(), m.attrs.size(), top));
	EXPECT_EQ(top.size(), 4u);

	DevSet off;
	off.dev = "rxe0";
	off.sfc = false;
	LibnlView o(dev_set_request(off).attrs);
	ASSERT_NE(o.tb[RXE_CC_A_SFC], nullptr);
	EXPECT_EQ(nla_get_u8(o.tb[RXE_CC_A_SFC]), 0) << "off is sent, not left out";
	EXPECT_EQ(o.tb[RXE_CC_A_SFC_MAX_US], nullptr);
	EXPECT_EQ(o.tb[RXE_CC_A_SFC_MODE], nullptr);
}

// The attribute types of a request, in order.
std::vector<std::uint16_t> types_of(const GenlMsg &m)
{
	std::vector<nl::Attr> top;
	EXPECT_TRUE(nl::parse_attrs(m.attrs.data(), m.attrs.size(), top));
	std::vector<std::uint16_t> t;
	for (const nl::Attr &a : top)
		t.push_back(a.type);
	return t;
}

TEST(Requests, QpSetAlgoSfcOrBoth)
{
	using T = std::vector<std::uint16_t>;
	QpSet s;
	s.dev = "rxe0";
	s.qpn = 17;
	s.sfc = false;
	GenlMsg m = qp_set_request(s);
	EXPECT_EQ(m.cmd, RXE_CC_CMD_QP_SET);
	EXPECT_EQ(types_of(m), (T{RXE_CC_A_DEV_NAME, RXE_CC_A_QPN, RXE_CC_A_SFC}));
	LibnlView v(m.attrs);
	EXPECT_EQ(nla_len(v.tb[RXE_CC_A_SFC]), 1);
	EXPECT_EQ(nla_get_u8(v.tb[RXE_CC_A_SFC]), 0);

	s.algo = "fixed";
	s.params = {{"rate_kbps", 5000}};
	s.sfc = true;
	m = qp_set_request(s);
	EXPECT_EQ(types_of(m), (T{RXE_CC_A_DEV_NAME, RXE_CC_A_QPN, RXE_CC_A_ALGO, RXE_CC_A_PARAMS,
	                          RXE_CC_A_SFC}));
	LibnlView b(m.attrs);
	EXPECT_STREQ(nla_get_string(b.tb[RXE_CC_A_ALGO]), "fixed");
	EXPECT_EQ(nla_get_u8(b.tb[RXE_CC_A_SFC]), 1);

	s.sfc.reset();
	EXPECT_EQ(types_of(qp_set_request(s)),
	          (T{RXE_CC_A_DEV_NAME, RXE_CC_A_QPN, RXE_CC_A_ALGO, RXE_CC_A_PARAMS}));

	// parameters travel with their algorithm only: the kernel refuses
	// PARAMS without ALGO
	s.algo.reset();
	s.sfc = true;
	EXPECT_EQ(types_of(qp_set_request(s)), (T{RXE_CC_A_DEV_NAME, RXE_CC_A_QPN, RXE_CC_A_SFC}));
}

TEST(Requests, DevSetDscpPrioIsTheWhole64ByteMap)
{
	DevSet set;
	set.dev = "rxe0";
	set.dscp_prio = DscpPrio{};
	(*set.dscp_prio)[26] = 5;
	(*set.dscp_prio)[63] = 7;
	LibnlView v(dev_set_request(set).attrs);
	ASSERT_NE(v.tb[RXE_CC_A_DSCP_PRIO], nullptr);
	ASSERT_EQ(nla_len(v.tb[RXE_CC_A_DSCP_PRIO]), RXE_CC_DSCPS);
	const auto *m = static_cast<const std::uint8_t *>(nla_data(v.tb[RXE_CC_A_DSCP_PRIO]));
	for (int d = 0; d < RXE_CC_DSCPS; ++d)
		EXPECT_EQ(m[d], d == 26 ? 5 : d == 63 ? 7 : 0) << d;
}

TEST(Requests, GetsAndQpSet)
{
	EXPECT_TRUE(algo_get_request().attrs.empty());
	EXPECT_EQ(algo_get_request().cmd, RXE_CC_CMD_ALGO_GET);
	EXPECT_TRUE(dev_get_request("").attrs.empty()); // a dump names no device
	LibnlView d(dev_get_request("rxe1", "fixed").attrs);
	EXPECT_STREQ(nla_get_string(d.tb[RXE_CC_A_ALGO]), "fixed");
	LibnlView q(qp_get_request("rxe0", 17u).attrs);
	EXPECT_EQ(nla_get_u32(q.tb[RXE_CC_A_QPN]), 17u);
	LibnlView qd(qp_get_request("rxe0", std::nullopt).attrs);
	EXPECT_EQ(qd.tb[RXE_CC_A_QPN], nullptr);
	QpSet s;
	s.dev = "rxe0";
	s.qpn = 18;
	s.algo = "fixed";
	LibnlView qs(qp_set_request(s).attrs);
	EXPECT_EQ(nla_get_u32(qs.tb[RXE_CC_A_QPN]), 18u);
	EXPECT_STREQ(nla_get_string(qs.tb[RXE_CC_A_ALGO]), "fixed");
	EXPECT_EQ(qs.tb[RXE_CC_A_PARAMS], nullptr); // no empty nest
	LibnlView st(stats_get_request("rxe0").attrs);
	EXPECT_STREQ(nla_get_string(st.tb[RXE_CC_A_DEV_NAME]), "rxe0");
}

// Replies built by the fake kernel with libnl's nla_put_*() decode.
TEST(Replies, AlgoMetadata)
{
	test::FakeKernel k;
	k.standard_setup();
	std::vector<GenlMsg> r;
	ASSERT_TRUE(k.request(algo_get_request(), true, r).ok());
	ASSERT_EQ(r.size(), 3u);
	AlgoInfo a;
	ASSERT_TRUE(decode_algo(r[2], a).ok());
	EXPECT_EQ(a.name, "dcqcn");
	const ParamInfo *p = a.find_param("rp_ai_rate_kbps");
	ASSERT_NE(p, nullptr);
	EXPECT_EQ(p->unit, static_cast<std::uint32_t>(RXE_CC_UNIT_ID_KBPS));
	EXPECT_EQ(p->def, 20u);
	EXPECT_EQ(p->min, 1u);
	EXPECT_EQ(p->max, 1u << 31);
	EXPECT_EQ(p->help, "target rate step of additive increase");
	ASSERT_EQ(a.state.size(), 5u);
	EXPECT_EQ(a.state[3].name, "alpha");
	EXPECT_EQ(a.state[3].unit, static_cast<std::uint32_t>(RXE_CC_UNIT_ID_Q16));
	ASSERT_TRUE(decode_algo(r[0], a).ok());
	EXPECT_EQ(a.name, "none");
	EXPECT_TRUE(a.params.empty());
}

TEST(Replies, DeviceWithPadAttributes)
{
	test::FakeKernel k;
	k.standard_setup();
	std::vector<GenlMsg> r;
	ASSERT_TRUE(k.request(dev_get_request("rxe0"), false, r).ok());
	ASSERT_EQ(r.size(), 1u);
	DevInfo d;
	ASSERT_TRUE(decode_dev(r[0], d).ok());
	EXPECT_EQ(d.name, "rxe0");
	EXPECT_EQ(d.index, std::optional<std::uint32_t>(1));
	EXPECT_EQ(d.algo, "dcqcn");
	EXPECT_EQ(d.line_rate_bps, std::optional<std::uint64_t>(10000000000ULL));
	EXPECT_EQ(d.base_rtt_ns, std::optional<std::uint64_t>(100000));
	EXPECT_EQ(d.ecn, std::optional<std::uint64_t>(1));
	EXPECT_EQ(d.ack_dscp, std::optional<std::uint64_t>(255));
	ASSERT_EQ(d.params.size(), 11u);
	EXPECT_EQ(d.params[3], (NamedValue{"rp_ai_rate_kbps", 2000}));
	EXPECT_TRUE(d.user_params.empty());
	ASSERT_TRUE(d.dscp_prio);
	for (std::size_t i = 0; i < d.dscp_prio->size(); ++i)
		EXPECT_EQ((*d.dscp_prio)[i], i == 26 ? 3 : i == 48 ? 6 : 0) << i;
}

TEST(Replies, DeviceSfcSettingsOrNoneFromAnOlderKernel)
{
	test::FakeKernel k;
	k.standard_setup();
	k.devs[0].sfc_max_us = 20000;
	k.devs[0].sfc_mode = RXE_CC_SFC_MODE_MAX;
	std::vector<GenlMsg> r;
	ASSERT_TRUE(k.request(dev_get_request("rxe0"), false, r).ok());
	DevInfo d;
	ASSERT_TRUE(decode_dev(r[0], d).ok());
	EXPECT_EQ(d.sfc, std::optional<std::uint64_t>(1));
	EXPECT_EQ(d.sfc_max_us, std::optional<std::uint64_t>(20000));
	EXPECT_EQ(d.sfc_mode, std::optional<std::uint64_t>(RXE_CC_SFC_MODE_MAX));
	k.sfc_attrs = false;
	r.clear();
	ASSERT_TRUE(k.request(dev_get_request("rxe0"), false, r).ok());
	ASSERT_TRUE(decode_dev(r[0], d).ok());
	EXPECT_FALSE(d.sfc);
	EXPECT_FALSE(d.sfc_max_us);
	EXPECT_FALSE(d.sfc_mode);
}

TEST(Replies, QpSfcAndItsCounters)
{
	test::FakeKernel k;
	k.standard_setup();
	std::vector<GenlMsg> r;
	ASSERT_TRUE(k.request(qp_get_request("rxe0", std::nullopt), true, r).ok());
	ASSERT_EQ(r.size(), 2u);
	QpInfo q;
	ASSERT_TRUE(decode_qp(r[0], q).ok());
	EXPECT_EQ(q.sfc, std::optional<std::uint64_t>(1));
	std::vector<std::string> sfc;
	for (const NamedValue &nv : q.stats)
		if (is_sfc_stat(nv.name))
			sfc.push_back(nv.name);
	EXPECT_EQ(sfc, (std::vector<std::string>{"bts_rx", "bts_cache", "bts_clamped", "bts_capped",
	                                         "pause_starts", "pause_last_us", "pause_left_us",
	                                         "paused_us"}));
	ASSERT_TRUE(decode_qp(r[1], q).ok());
	EXPECT_EQ(q.sfc, std::optional<std::uint64_t>(0));
	k.sfc_attrs = false;
	r.clear();
	ASSERT_TRUE(k.request(qp_get_request("rxe0", 17u), false, r).ok());
	ASSERT_TRUE(decode_qp(r[0], q).ok());
	EXPECT_FALSE(q.sfc) << "missing, not off";
	for (const char *n : {"cnp_rx", "inflight_bytes", "acked_bytes", "retx_pkts", "rate_dec",
	                      "pacer_unused_us", "paused", "pause", "bts"})
		EXPECT_FALSE(is_sfc_stat(n)) << n;
}

TEST(Replies, DeviceParametersTheUserSet)
{
	test::FakeKernel k;
	k.standard_setup();
	k.devs[0].user["dcqcn"] = {"rp_gd", "rp_ai_rate_kbps"};
	k.devs[0].user["fixed"] = {"rate_kbps"};
	std::vector<GenlMsg> r;
	ASSERT_TRUE(k.request(dev_get_request("rxe0"), false, r).ok());
	DevInfo d;
	ASSERT_TRUE(decode_dev(r[0], d).ok());
	// in the order of the parameter table, only those with the flag
	EXPECT_EQ(d.user_params, (std::vector<std::string>{"rp_ai_rate_kbps", "rp_gd"}));
	EXPECT_TRUE(d.user_set("rp_gd"));
	EXPECT_FALSE(d.user_set("rp_min_rate_kbps"));
	EXPECT_FALSE(d.user_set("rate_kbps")) << "another algorithm's";
}

TEST(Replies, DeviceDscpMapMustBe64PrioritiesOf0To7)
{
	for (std::size_t len : {std::size_t{0}, std::size_t{63}, std::size_t{65}}) {
		nl::AttrWriter w;
		w.put_string(RXE_CC_A_DEV_NAME, "rxe0");
		std::vector<std::uint8_t> m(len, 0);
		w.put_bytes(RXE_CC_A_DSCP_PRIO, m.data(), m.size());
		DevInfo d;
		Status s = decode_dev(GenlMsg{RXE_CC_CMD_DEV_GET, w.bytes()}, d);
		EXPECT_EQ(s.kind, Status::kMalformed) << len;
		EXPECT_NE(s.detail.find("DSCP_PRIO has " + std::to_string(len) + " bytes, not 64"),
		          std::string::npos)
			<< s.detail;
	}
	nl::AttrWriter w;
	w.put_string(RXE_CC_A_DEV_NAME, "rxe0");
	std::vector<std::uint8_t> m(64, 0);
	m[40] = 8;
	w.put_bytes(RXE_CC_A_DSCP_PRIO, m.data(), m.size());
	DevInfo d;
	Status s = decode_dev(GenlMsg{RXE_CC_CMD_DEV_GET, w.bytes()}, d);
	EXPECT_EQ(s.kind, Status::kMalformed);
	EXPECT_NE(s.detail.find("DSCP_PRIO puts DSCP 40 on priority 8, above 7"), std::string::npos)
		<< s.detail;
}

TEST(Replies, QpStateInEitherLayout)
{
	for (bool nest : {false, true}) {
		test::FakeKernel k;
		k.standard_setup();
		k.state_in_names_nest = nest;
		std::vector<GenlMsg> r;
		ASSERT_TRUE(k.request(qp_get_request("rxe0", 17u), false, r).ok());
		QpInfo q;
		ASSERT_TRUE(decode_qp(r[0], q).ok());
		EXPECT_EQ(q.dev, "rxe0");
		EXPECT_EQ(q.qpn, 17u);
		EXPECT_EQ(q.algo, "dcqcn");
		EXPECT_EQ(q.rate_bps, std::optional<std::uint64_t>(8500000000ULL));
		EXPECT_EQ(q.window_bytes, std::optional<std::uint64_t>(0));
		ASSERT_EQ(q.state.size(), 5u) << "nest " << nest;
		EXPECT_EQ(q.state[3], (NamedValue{"alpha", 16384}));
		ASSERT_EQ(q.stats.size(), 18u);
		EXPECT_EQ(q.stats[0], (NamedValue{"cnp_rx", 5}));
		EXPECT_EQ(q.stats[7], (NamedValue{"retx_pkts", 2}));
		EXPECT_EQ(q.stats[9], (NamedValue{"acked_bytes", 123456789}));
		EXPECT_EQ(q.params.size(), 11u);
	}
}

TEST(Replies, StatsAndEvents)
{
	test::FakeKernel k;
	k.standard_setup();
	std::vector<GenlMsg> r;
	ASSERT_TRUE(k.request(stats_get_request(""), true, r).ok());
	ASSERT_EQ(r.size(), 2u);
	DevStats s;
	ASSERT_TRUE(decode_stats(r[0], s).ok());
	EXPECT_EQ(s.dev, "rxe0");
	EXPECT_EQ(s.stats[0], (NamedValue{"cnp_sent", 100}));

	RateEvent ev;
	GenlMsg m = test::FakeKernel::rate_event("rxe0", 17, "dcqcn", 5000000000ULL, 0, 123,
	                                         RXE_CC_EVENT_RATE_DEC | RXE_CC_EVENT_LIMIT);
	ASSERT_TRUE(decode_rate_event(m, ev).ok());
	EXPECT_EQ(ev.qpn, 17u);
	EXPECT_EQ(ev.rate_bps, std::optional<std::uint64_t>(5000000000ULL));
	EXPECT_EQ(ev.time_ns, std::optional<std::uint64_t>(123));
	EXPECT_EQ(ev.events, RXE_CC_EVENT_RATE_DEC | RXE_CC_EVENT_LIMIT);
	EXPECT_TRUE(ev.state.empty());
	EXPECT_TRUE(ev.stats.empty());
	// the state and counters the event carries
	m = test::FakeKernel::rate_event(
		"rxe0", 17, "dcqcn", 5000000000ULL, 0, 123, RXE_CC_EVENT_RATE_DEC,
		{{"alpha", 32768}, {"rate_cuts", 4}}, {{"cnp_rx", 6}, {"retx_pkts", 1}});
	ASSERT_TRUE(decode_rate_event(m, ev).ok());
	EXPECT_EQ(ev.state, (std::vector<NamedValue>{{"alpha", 32768}, {"rate_cuts", 4}}));
	EXPECT_EQ(ev.stats, (std::vector<NamedValue>{{"cnp_rx", 6}, {"retx_pkts", 1}}));
	m.cmd = RXE_CC_CMD_QP_GET;
	EXPECT_EQ(decode_rate_event(m, ev).kind, Status::kMalformed);
}

TEST(Replies, AValueIsNeverReadAsZeroWhenItIsMissing)
{
	// A counter nest with a name and no value breaks the ABI.
	nl::AttrWriter w;
	w.put_string(RXE_CC_A_DEV_NAME, "rxe0");
	w.put_u32(RXE_CC_A_QPN, 17);
	std::size_t list = w.begin_nest(RXE_CC_A_QP_STATS);
	std::size_t one = w.begin_nest(RXE_CC_A_STAT);
	w.put_string(RXE_CC_A_ST_NAME, "retx_pkts");
	w.end_nest(one);
	w.end_nest(list);
	QpInfo q;
	Status s = decode_qp(GenlMsg{RXE_CC_CMD_QP_GET, w.bytes()}, q);
	EXPECT_EQ(s.kind, Status::kMalformed);
	EXPECT_NE(s.detail.find("QP_STATS entry retx_pkts without a value"), std::string::npos)
		<< s.detail;
	RateEvent ev;
	s = decode_rate_event(GenlMsg{RXE_CC_CMD_RATE_EVENT, w.bytes()}, ev);
	EXPECT_EQ(s.kind, Status::kMalformed);
}

TEST(Replies, MalformedRepliesAreReportedNotTrusted)
{
	// No DEV_NAME in a device reply.
	nl::AttrWriter w;
	w.put_string(RXE_CC_A_ALGO, "none");
	GenlMsg m{RXE_CC_CMD_DEV_GET, w.bytes()};
	DevInfo d;
	Status s = decode_dev(m, d);
	EXPECT_EQ(s.kind, Status::kMalformed);
	EXPECT_NE(s.detail.find("DEV_NAME"), std::string::npos) << s.detail;

	// A LINE_RATE of 3 bytes.
	nl::AttrWriter w2;
	w2.put_string(RXE_CC_A_DEV_NAME, "rxe0");
	std::size_t at = w2.begin_nest(RXE_CC_A_LINE_RATE); // a bad attribute: header only
	w2.end_nest(at);
	m.attrs = w2.bytes();
	s = decode_dev(m, d);
	EXPECT_EQ(s.kind, Status::kMalformed);
	EXPECT_NE(s.detail.find("LINE_RATE"), std::string::npos) << s.detail;

	// Attributes that overrun the message.
	m.attrs = {0x40, 0, 2, 0, 'r', 'x'};
	EXPECT_EQ(decode_dev(m, d).kind, Status::kMalformed);

	// A parameter without a name.
	nl::AttrWriter w3;
	w3.put_string(RXE_CC_A_ALGO, "x");
	std::size_t ps = w3.begin_nest(RXE_CC_A_PARAMS);
	std::size_t p = w3.begin_nest(RXE_CC_A_PARAM);
	w3.put_u32(RXE_CC_A_P_UNIT, 1);
	w3.end_nest(p);
	w3.end_nest(ps);
	AlgoInfo a;
	s = decode_algo(GenlMsg{RXE_CC_CMD_ALGO_GET, w3.bytes()}, a);
	EXPECT_EQ(s.kind, Status::kMalformed);
	EXPECT_NE(s.detail.find("without a name"), std::string::npos) << s.detail;

	// A QP without a QPN.
	nl::AttrWriter w4;
	w4.put_string(RXE_CC_A_DEV_NAME, "rxe0");
	QpInfo q;
	EXPECT_EQ(decode_qp(GenlMsg{RXE_CC_CMD_QP_GET, w4.bytes()}, q).kind, Status::kMalformed);
}

TEST(Replies, UnknownAttributesAreIgnored)
{
	// A newer kernel may add attributes: they must not break decoding.
	nl::AttrWriter w;
	w.put_string(RXE_CC_A_DEV_NAME, "rxe0");
	w.put_u64(RXE_CC_A_MAX + 5, 42);
	w.put_u8(RXE_CC_A_ECN, 0);
	DevInfo d;
	ASSERT_TRUE(decode_dev(GenlMsg{RXE_CC_CMD_DEV_GET, w.bytes()}, d).ok());
	EXPECT_EQ(d.ecn, std::optional<std::uint64_t>(0));
}

} // namespace
} // namespace rxecc
