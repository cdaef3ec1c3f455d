// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "fake_kernel.h"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <rdma/rxe_cc.h>
#include <sstream>

namespace rxecc::test
{

namespace
{

// A message built with libnl; take() returns its attributes.
class Builder
{
public:
	Builder() : m_(nlmsg_alloc()) {}
	~Builder() { nlmsg_free(m_); }
	Builder(const Builder &) = delete;
	Builder &operator=(const Builder &) = delete;

	struct nl_msg *m() { return m_; }

	void str(int type, const std::string &s) { nla_put_string(m_, type, s.c_str()); }
	void u8(int type, std::uint8_t v) { nla_put_u8(m_, type, v); }
	void u32(int type, std::uint32_t v) { nla_put_u32(m_, type, v); }
	// As nla_put_u64_64bit() in the kernel: a PAD attribute may precede.
	void u64(int type, std::uint64_t v, int pad)
	{
		nla_put(m_, pad, 0, nullptr);
		nla_put_u64(m_, type, v);
	}
	struct nlattr *nest(int type) { return nla_nest_start(m_, type); }
	void end(struct nlattr *n) { nla_nest_end(m_, n); }

	void named_values(int list, int item, int name_attr, int value_attr, const Values &vals,
	                  bool u64, int pad)
	{
		struct nlattr *l = nest(list);
		for (const auto &[name, value] : vals) {
			struct nlattr *i = nest(item);
			str(name_attr, name);
			if (u64)
				this->u64(value_attr, value, pad);
			else
				u32(value_attr, static_cast<std::uint32_t>(value));
			end(i);
		}
		end(l);
	}

	GenlMsg take(std::uint8_t cmd)
	{
		struct nlmsghdr *h = nlmsg_hdr(m_);
		const auto *p = static_cast<const std::uint8_t *>(nlmsg_data(h));
		GenlMsg g;
		g.cmd = cmd;
		g.attrs.assign(p, p + nlmsg_datalen(h));
		return g;
	}

private:
	struct nl_msg *m_;
};

struct Err {
	int err = 0;
	std::string msg;
};

Err einval(std::string msg)
{
	return {EINVAL, std::move(msg)};
}

// Walks the attributes at `data` as the kernel's strict validation does:
// known types only, exact sizes, NUL-terminated strings, NLA_F_NESTED on
// nests, no trailing bytes. `kinds[type]` is 's', '1', '4', '8', 'n' or 'm'
// (the 64 bytes of a DSCP map).
Err strict(void *data, int len, const std::map<int, char> &kinds, const char *where)
{
	int rem = len;
	auto *a = static_cast<struct nlattr *>(data);
	while (nla_ok(a, rem)) {
		int type = nla_type(a);
		auto k = kinds.find(type);
		if (k == kinds.end())
			return einval(std::string(where) + ": unknown attribute type " +
			              std::to_string(type));
		int n = nla_len(a);
		const char *p = static_cast<const char *>(nla_data(a));
		bool ok = true;
		switch (k->second) {
		case 's': ok = n >= 1 && p[n - 1] == '\0' && n <= RXE_CC_NAME_MAX * 2; break;
		case '1': ok = n == 1; break;
		case '4': ok = n == 4; break;
		case '8': ok = n == 8; break;
		case 'n': ok = (a->nla_type & NLA_F_NESTED) != 0; break;
		case 'm': ok = n == RXE_CC_DSCPS; break; // NLA_POLICY_EXACT_LEN
		default: break;
		}
		if (!ok)
			return einval(std::string(where) + ": attribute " + std::to_string(type) +
			              " has a bad length or lacks NLA_F_NESTED");
		a = nla_next(a, &rem);
	}
	if (rem != 0)
		return einval(std::string(where) + ": trailing bytes");
	return {};
}

struct Request {
	std::vector<std::uint8_t> buf;
	struct nlattr *tb[RXE_CC_A_MAX + 1] = {};
	std::vector<std::pair<std::string, std::uint32_t>> params;
	bool has_params = false;

	std::string s(int t) const { return tb[t] ? nla_get_string(tb[t]) : ""; }
};

Err parse(const GenlMsg &g, Request &r, bool sfc)
{
	r.buf = g.attrs;
	r.buf.resize(r.buf.size() + 4); // room for libnl to read safely
	std::map<int, char> top = {
		{RXE_CC_A_DEV_NAME, 's'},  {RXE_CC_A_ALGO, 's'},        {RXE_CC_A_PARAMS, 'n'},
		{RXE_CC_A_LINE_RATE, '8'}, {RXE_CC_A_BASE_RTT_NS, '8'}, {RXE_CC_A_ECN, '1'},
		{RXE_CC_A_ACK_EVERY, '4'}, {RXE_CC_A_CNP_DSCP, '1'},    {RXE_CC_A_ACK_DSCP, '1'},
		{RXE_CC_A_QPN, '4'},       {RXE_CC_A_DSCP_PRIO, 'm'},
	};
	if (sfc) {
		top[RXE_CC_A_SFC] = '1';
		top[RXE_CC_A_SFC_MAX_US] = '4';
		top[RXE_CC_A_SFC_MODE] = '1';
	}
	int len = static_cast<int>(g.attrs.size());
	Err e = strict(r.buf.data(), len, top, "request");
	if (e.err)
		return e;
	if (nla_parse(r.tb, RXE_CC_A_MAX, reinterpret_cast<struct nlattr *>(r.buf.data()), len,
	              nullptr) < 0)
		return einval("request: nla_parse failed");
	if (struct nlattr *params = r.tb[RXE_CC_A_PARAMS]) {
		r.has_params = true;
		e = strict(nla_data(params), nla_len(params), {{RXE_CC_A_PARAM, 'n'}}, "PARAMS");
		if (e.err)
			return e;
		int rem = nla_len(params);
		auto *a = static_cast<struct nlattr *>(nla_data(params));
		while (nla_ok(a, rem)) {
			e = strict(nla_data(a), nla_len(a),
			           {{RXE_CC_A_P_NAME, 's'}, {RXE_CC_A_P_VALUE, '4'}}, "PARAM");
			if (e.err)
				return e;
			struct nlattr *ptb[RXE_CC_A_P_MAX + 1] = {};
			nla_parse_nested(ptb, RXE_CC_A_P_MAX, a, nullptr);
			if (!ptb[RXE_CC_A_P_NAME] || !ptb[RXE_CC_A_P_VALUE])
				return einval("PARAM needs NAME and VALUE");
			r.params.emplace_back(nla_get_string(ptb[RXE_CC_A_P_NAME]),
			                      nla_get_u32(ptb[RXE_CC_A_P_VALUE]));
			a = nla_next(a, &rem);
		}
	}
	return {};
}

void set_value(Values &vals, const std::string &name, std::uint64_t v)
{
	for (auto &nv : vals)
		if (nv.first == name) {
			nv.second = v;
			return;
		}
	vals.emplace_back(name, v);
}

std::uint64_t get_value(const Values &vals, const std::string &name)
{
	for (const auto &nv : vals)
		if (nv.first == name)
			return nv.second;
	return 0;
}

// Applies `params` of `a` onto `vals`: range checks, then the relation
// checks of the algorithm's setup().
Err apply_params(const FakeAlgo &a,
                 const std::vector<std::pair<std::string, std::uint32_t>> &params, Values &vals)
{
	for (const auto &[name, v] : params) {
		const FakeParam *p = nullptr;
		for (const FakeParam &q : a.params)
			if (q.name == name)
				p = &q;
		if (!p)
			return einval(a.name + " has no parameter " + name);
		if (v < p->min || v > p->max)
			return {ERANGE, name + "=" + std::to_string(v) + " out of range [" +
			                        std::to_string(p->min) + ", " +
			                        std::to_string(p->max) + "]"};
		set_value(vals, name, v);
	}
	if (a.name == "dcqcn") {
		std::uint64_t max = get_value(vals, "rp_max_rate_kbps");
		if (max && get_value(vals, "rp_min_rate_kbps") > max)
			return einval("dcqcn: rp_min_rate_kbps is above rp_max_rate_kbps");
	}
	return {};
}

// The warning the kernel's DCQCN gives in the extended ACK of a success
// when a period is shorter than one frame (1024 bytes of payload and 70 of
// headers) at the line rate; "" if none. A model of dcqcn_warning().
std::string dcqcn_warning(const Values &vals, std::uint64_t line_rate_bps)
{
	if (!line_rate_bps)
		return {};
	const std::uint64_t frame_ns = (1024 + 70) * 8 * 1000000000ULL / line_rate_bps;
	if (get_value(vals, "rp_time_reset") * 1000 < frame_ns)
		return "dcqcn: a period is shorter than one frame at the maximum rate";
	return {};
}

} // namespace

std::array<std::uint8_t, 64> FakeDev::conventional_dscp_prio()
{
	std::array<std::uint8_t, 64> m{};
	m[26] = 3;
	m[48] = 6;
	return m;
}

Values FakeAlgo::defaults() const
{
	Values v;
	for (const FakeParam &p : params)
		v.emplace_back(p.name, p.def);
	return v;
}

FakeQp *FakeDev::qp(std::uint32_t qpn)
{
	for (FakeQp &q : qps)
		if (q.qpn == qpn)
			return &q;
	return nullptr;
}

bool FakeClock::sleep_until(std::uint64_t deadline)
{
	sleeps.push_back(deadline);
	if (interrupt_at && sleeps.size() >= interrupt_at) {
		stopped = true;
		return false;
	}
	now = std::max(now, deadline);
	return true;
}

FakeKernel::FakeKernel(FakeClock *clock) : clock_(clock) {}

std::vector<FakeAlgo> FakeKernel::standard_algos()
{
	const std::uint32_t kRateMax = 1U << 31;
	return {
		{"none", {}, {}},
		{"fixed",
	         {
			 {"rate_kbps", RXE_CC_UNIT_ID_KBPS, 100000, 1, kRateMax, "pacing rate"},
			 {"window_bytes", RXE_CC_UNIT_ID_BYTES, 0, 0, 1U << 30,
	                  "limit on bytes in flight, 0 = none"},
		 },
	         {{"rate_kbps", RXE_CC_UNIT_ID_KBPS}, {"window_bytes", RXE_CC_UNIT_ID_BYTES}}},
		{"dcqcn",
	         {
			 {"rp_clamp_tgt_rate", RXE_CC_UNIT_ID_BOOL, 0, 0, 1,
	                  "every cut sets the target rate to the current rate"},
			 {"rp_time_reset", RXE_CC_UNIT_ID_US, 30000, 1, 10000000,
	                  "period of timer-triggered rate increase events"},
			 {"rp_threshold", RXE_CC_UNIT_ID_NONE, 1, 1, 31,
	                  "increase events per phase (fast recovery, additive)"},
			 {"rp_ai_rate_kbps", RXE_CC_UNIT_ID_KBPS, 20, 1, kRateMax,
	                  "target rate step of additive increase"},
			 {"rp_max_rate_kbps", RXE_CC_UNIT_ID_KBPS, 0, 0, kRateMax,
	                  "maximum rate, 0 = line rate"},
			 {"rp_min_dec_fac", RXE_CC_UNIT_ID_PERCENT, 50, 0, 100,
	                  "one cut keeps at least this share of the current rate"},
			 {"rp_min_rate_kbps", RXE_CC_UNIT_ID_KBPS, 1000, 1, kRateMax,
	                  "minimum rate"},
			 {"rp_dce_tcp_g", RXE_CC_UNIT_ID_Q10, 1020, 0, 1023,
	                  "alpha gain g, as (1 - g) * 1024"},
			 {"rp_gd", RXE_CC_UNIT_ID_LOG2, 11, 10, 16,
	                  "a cut removes rate * alpha / 2^(rp_gd - 10)"},
			 {"np_min_time_between_cnps", RXE_CC_UNIT_ID_US, 100, 0, 10000000,
	                  "minimum gap between two CNPs of a QP"},
			 {"np_cnp_dscp", RXE_CC_UNIT_ID_DSCP, 48, 0, 63, "DSCP of the CNPs sent"},
		 },
	         {{"limited", RXE_CC_UNIT_ID_BOOL},
	          {"rate_kbps", RXE_CC_UNIT_ID_KBPS},
	          {"target_rate_kbps", RXE_CC_UNIT_ID_KBPS},
	          {"alpha", RXE_CC_UNIT_ID_Q16},
	          {"rate_cuts", RXE_CC_UNIT_ID_NONE}}},
	};
}

void FakeKernel::standard_setup()
{
	algos = standard_algos();
	FakeDev rxe0;
	rxe0.name = "rxe0";
	rxe0.index = 1;
	rxe0.algo = "dcqcn";
	for (const FakeAlgo &a : algos)
		rxe0.params[a.name] = a.defaults();
	set_value(rxe0.params["dcqcn"], "rp_ai_rate_kbps", 2000); // scaled to 10G
	rxe0.line_rate = 10000000000ULL;
	rxe0.base_rtt = 100000;
	rxe0.ecn = 1;
	rxe0.sfc = 1;
	rxe0.stats = {{"cnp_sent", 100}, {"cnp_received", 40}, {"pacer_waits", 7}};
	FakeQp q17;
	q17.qpn = 17;
	q17.algo = "dcqcn";
	q17.params = rxe0.params["dcqcn"];
	q17.rate = 8500000000ULL;
	q17.state = {{"limited", 1},
	             {"rate_kbps", 8500000},
	             {"target_rate_kbps", 10000000},
	             {"alpha", 16384},
	             {"rate_cuts", 3}};
	q17.stats = {{"cnp_rx", 5},
	             {"cnp_tx", 0},
	             {"ce_rx", 0},
	             {"pacer_waits", 7},
	             {"pacer_unused_us", 12},
	             {"rate_dec", 3},
	             {"rate_inc", 1},
	             {"retx_pkts", 2},
	             {"inflight_bytes", 4096},
	             {"acked_bytes", 123456789},
	             {"bts_rx", 4},
	             {"bts_cache", 1},
	             {"bts_clamped", 1},
	             {"bts_capped", 0},
	             {"pause_starts", 2},
	             {"pause_last_us", 500},
	             {"pause_left_us", 120},
	             {"paused_us", 1500}};
	q17.sfc = true;
	FakeQp q18;
	q18.qpn = 18;
	q18.algo = "fixed";
	q18.params = rxe0.params["fixed"];
	q18.rate = 100000000ULL;
	q18.window = 65536;
	q18.state = {{"rate_kbps", 100000}, {"window_bytes", 65536}};
	q18.stats = {{"cnp_rx", 0},
	             {"cnp_tx", 0},
	             {"ce_rx", 0},
	             {"pacer_waits", 0},
	             {"pacer_unused_us", 0},
	             {"rate_dec", 0},
	             {"rate_inc", 0},
	             {"retx_pkts", 0},
	             {"inflight_bytes", 65536},
	             {"acked_bytes", 1048576},
	             {"bts_rx", 0},
	             {"bts_cache", 0},
	             {"bts_clamped", 0},
	             {"bts_capped", 0},
	             {"pause_starts", 0},
	             {"pause_last_us", 0},
	             {"pause_left_us", 0},
	             {"paused_us", 0}};
	rxe0.qps = {q17, q18};

	FakeDev rxe1;
	rxe1.name = "rxe1";
	rxe1.index = 2;
	for (const FakeAlgo &a : algos)
		rxe1.params[a.name] = a.defaults();
	rxe1.stats = {{"cnp_sent", 0}, {"cnp_received", 0}, {"pacer_waits", 0}};
	FakeQp q5;
	q5.qpn = 5;
	q5.algo = "none";
	rxe1.qps = {q5};
	devs = {rxe0, rxe1};
}

std::size_t FakeKernel::count(std::uint8_t cmd) const
{
	return static_cast<std::size_t>(std::count_if(
		calls.begin(), calls.end(), [cmd](const Call &c) { return c.cmd == cmd; }));
}

FakeDev *FakeKernel::dev(const std::string &name)
{
	for (FakeDev &d : devs)
		if (d.name == name)
			return &d;
	return nullptr;
}

const FakeAlgo *FakeKernel::algo(const std::string &name) const
{
	for (const FakeAlgo &a : algos)
		if (a.name == name)
			return &a;
	return nullptr;
}

namespace
{

GenlMsg algo_msg(const FakeAlgo &a)
{
	Builder b;
	b.str(RXE_CC_A_ALGO, a.name);
	struct nlattr *ps = b.nest(RXE_CC_A_PARAMS);
	for (const FakeParam &p : a.params) {
		struct nlattr *pn = b.nest(RXE_CC_A_PARAM);
		b.str(RXE_CC_A_P_NAME, p.name);
		b.u32(RXE_CC_A_P_UNIT, p.unit);
		b.u32(RXE_CC_A_P_DEFAULT, p.def);
		b.u32(RXE_CC_A_P_RANGE_MIN, p.min);
		b.u32(RXE_CC_A_P_RANGE_MAX, p.max);
		b.str(RXE_CC_A_P_HELP, p.help);
		b.end(pn);
	}
	b.end(ps);
	struct nlattr *sn = b.nest(RXE_CC_A_STATE_NAMES);
	for (const auto &[name, unit] : a.state) {
		struct nlattr *s = b.nest(RXE_CC_A_STATE);
		b.str(RXE_CC_A_S_NAME, name);
		b.u32(RXE_CC_A_S_UNIT, unit);
		b.end(s);
	}
	b.end(sn);
	return b.take(RXE_CC_CMD_ALGO_GET);
}

GenlMsg dev_msg(const FakeDev &d, const std::string &palgo, bool sfc)
{
	Builder b;
	b.str(RXE_CC_A_DEV_NAME, d.name);
	b.u32(RXE_CC_A_DEV_INDEX, d.index);
	b.str(RXE_CC_A_ALGO, d.algo);
	auto it = d.params.find(palgo);
	if (it != d.params.end() && !it->second.empty()) {
		auto user = d.user.find(palgo);
		struct nlattr *l = b.nest(RXE_CC_A_PARAMS);
		for (const auto &[name, value] : it->second) {
			struct nlattr *i = b.nest(RXE_CC_A_PARAM);
			b.str(RXE_CC_A_P_NAME, name);
			b.u32(RXE_CC_A_P_VALUE, static_cast<std::uint32_t>(value));
			if (user != d.user.end() && user->second.count(name))
				nla_put_flag(b.m(), RXE_CC_A_P_USER);
			b.end(i);
		}
		b.end(l);
	}
	b.u64(RXE_CC_A_LINE_RATE, d.line_rate, RXE_CC_A_PAD);
	b.u64(RXE_CC_A_BASE_RTT_NS, d.base_rtt, RXE_CC_A_PAD);
	b.u8(RXE_CC_A_ECN, d.ecn);
	b.u32(RXE_CC_A_ACK_EVERY, d.ack_every);
	b.u8(RXE_CC_A_CNP_DSCP, d.cnp_dscp);
	b.u8(RXE_CC_A_ACK_DSCP, d.ack_dscp);
	nla_put(b.m(), RXE_CC_A_DSCP_PRIO, RXE_CC_DSCPS, d.dscp_prio.data());
	if (sfc) {
		b.u8(RXE_CC_A_SFC, d.sfc);
		b.u32(RXE_CC_A_SFC_MAX_US, d.sfc_max_us);
		b.u8(RXE_CC_A_SFC_MODE, d.sfc_mode);
	}
	return b.take(RXE_CC_CMD_DEV_GET);
}

GenlMsg qp_msg(const FakeDev &d, const FakeQp &q, bool names_nest, bool sfc)
{
	Builder b;
	b.str(RXE_CC_A_DEV_NAME, d.name);
	b.u32(RXE_CC_A_QPN, q.qpn);
	b.str(RXE_CC_A_ALGO, q.algo);
	if (!q.params.empty())
		b.named_values(RXE_CC_A_PARAMS, RXE_CC_A_PARAM, RXE_CC_A_P_NAME, RXE_CC_A_P_VALUE,
		               q.params, false, 0);
	b.u64(RXE_CC_A_RATE, q.rate, RXE_CC_A_PAD);
	b.u64(RXE_CC_A_WINDOW, q.window, RXE_CC_A_PAD);
	if (names_nest) {
		b.named_values(RXE_CC_A_STATE_NAMES, RXE_CC_A_STATE, RXE_CC_A_S_NAME,
		               RXE_CC_A_S_VALUE, q.state, true, RXE_CC_A_S_PAD);
	} else {
		for (const auto &[name, value] : q.state) {
			struct nlattr *s = b.nest(RXE_CC_A_STATE);
			b.str(RXE_CC_A_S_NAME, name);
			b.u64(RXE_CC_A_S_VALUE, value, RXE_CC_A_S_PAD);
			b.end(s);
		}
	}
	if (!q.stats.empty())
		b.named_values(RXE_CC_A_QP_STATS, RXE_CC_A_STAT, RXE_CC_A_ST_NAME,
		               RXE_CC_A_ST_VALUE, q.stats, true, RXE_CC_A_ST_PAD);
	if (sfc)
		b.u8(RXE_CC_A_SFC, q.sfc ? 1 : 0);
	return b.take(RXE_CC_CMD_QP_GET);
}

GenlMsg stats_msg(const FakeDev &d)
{
	Builder b;
	b.str(RXE_CC_A_DEV_NAME, d.name);
	b.named_values(RXE_CC_A_STATS, RXE_CC_A_STAT, RXE_CC_A_ST_NAME, RXE_CC_A_ST_VALUE, d.stats,
	               true, RXE_CC_A_ST_PAD);
	return b.take(RXE_CC_CMD_STATS_GET);
}

} // namespace

GenlMsg FakeKernel::rate_event(const std::string &dev, std::uint32_t qpn, const std::string &algo,
                               std::uint64_t rate, std::uint64_t window, std::uint64_t time_ns,
                               std::uint32_t ev, const Values &state, const Values &stats)
{
	Builder b;
	b.str(RXE_CC_A_DEV_NAME, dev);
	b.u32(RXE_CC_A_QPN, qpn);
	b.str(RXE_CC_A_ALGO, algo);
	b.u64(RXE_CC_A_RATE, rate, RXE_CC_A_PAD);
	b.u64(RXE_CC_A_WINDOW, window, RXE_CC_A_PAD);
	b.u64(RXE_CC_A_TIME_NS, time_ns, RXE_CC_A_PAD);
	b.u32(RXE_CC_A_EVENT, ev);
	b.named_values(RXE_CC_A_STATE_NAMES, RXE_CC_A_STATE, RXE_CC_A_S_NAME, RXE_CC_A_S_VALUE,
	               state, true, RXE_CC_A_S_PAD);
	b.named_values(RXE_CC_A_QP_STATS, RXE_CC_A_STAT, RXE_CC_A_ST_NAME, RXE_CC_A_ST_VALUE, stats,
	               true, RXE_CC_A_ST_PAD);
	return b.take(RXE_CC_CMD_RATE_EVENT);
}

Status FakeKernel::request(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies)
{
	Status s = handle(req, dump, replies);
	if (s.ok() && mangle)
		mangle(req.cmd, replies);
	return s;
}

Status FakeKernel::handle(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies)
{
	calls.push_back({req.cmd, dump, req.attrs});
	if (before)
		before(*this, req.cmd);
	if (clock_)
		clock_->now += clock_->request_ns;
	auto f = fail_next.find(req.cmd);
	if (f != fail_next.end()) {
		Status s = Status::kernel(f->second.first, f->second.second);
		fail_next.erase(f);
		return s;
	}
	Request r;
	Err e = parse(req, r, sfc_attrs);
	if (e.err)
		return Status::kernel(e.err, e.msg);
	const bool writes = req.cmd == RXE_CC_CMD_DEV_SET || req.cmd == RXE_CC_CMD_QP_SET;
	if (writes && !admin)
		return Status::kernel(EPERM); // GENL_UNS_ADMIN_PERM: no message
	// The algorithm is looked up first, then the device.
	if (r.tb[RXE_CC_A_ALGO] && req.cmd != RXE_CC_CMD_QP_GET && !algo(r.s(RXE_CC_A_ALGO)))
		return Status::kernel(ENOENT, "unknown algorithm " + r.s(RXE_CC_A_ALGO) +
		                                      " (see cc_available)");
	const std::string dev_name = r.s(RXE_CC_A_DEV_NAME);
	FakeDev *d = nullptr;
	if (r.tb[RXE_CC_A_DEV_NAME]) {
		d = dev(dev_name);
		// A dump filters by name: an unknown name gives nothing.
		if (!d && !dump)
			return Status::kernel(ENODEV, "no rxe device " + dev_name);
	}
	if (r.tb[RXE_CC_A_ACK_EVERY] && nla_get_u32(r.tb[RXE_CC_A_ACK_EVERY]) > 1024)
		return Status::kernel(ERANGE, "integer out of range");
	// NLA_POLICY_MAX of SFC and SFC_MODE
	if ((r.tb[RXE_CC_A_SFC] && nla_get_u8(r.tb[RXE_CC_A_SFC]) > 1) ||
	    (r.tb[RXE_CC_A_SFC_MODE] && nla_get_u8(r.tb[RXE_CC_A_SFC_MODE]) > RXE_CC_SFC_MODE_MAX))
		return Status::kernel(ERANGE, "integer out of range");
	if (r.tb[RXE_CC_A_LINE_RATE]) {
		std::uint64_t v = nla_get_u64(r.tb[RXE_CC_A_LINE_RATE]);
		if (v && (v < 1000000 || v > 800000000000ULL))
			return Status::kernel(ERANGE,
			                      "line rate must be 0 (netdev speed) or 1 Mbit/s "
			                      "to 800 Gbit/s");
	}
	const std::string no_qp =
		r.tb[RXE_CC_A_QPN] ? "no QP " + std::to_string(nla_get_u32(r.tb[RXE_CC_A_QPN])) +
					     " on " + dev_name
				   : "";

	switch (req.cmd) {
	case RXE_CC_CMD_ALGO_GET:
		if (!dump)
			return Status::kernel(EOPNOTSUPP);
		for (const FakeAlgo &a : algos)
			replies.push_back(algo_msg(a));
		return Status();

	case RXE_CC_CMD_DEV_GET: {
		std::string palgo = r.s(RXE_CC_A_ALGO);
		if (!dump) {
			if (!d)
				return Status::kernel(EINVAL, "DEV_NAME is required");
			replies.push_back(dev_msg(*d, palgo.empty() ? d->algo : palgo, sfc_attrs));
			return Status();
		}
		for (const FakeDev &x : devs)
			replies.push_back(dev_msg(x, palgo.empty() ? x.algo : palgo, sfc_attrs));
		return Status();
	}

	case RXE_CC_CMD_DEV_SET: {
		if (dump || !d)
			return Status::kernel(EINVAL, "DEV_NAME is required");
		FakeDev n = *d;
		if (r.tb[RXE_CC_A_ALGO])
			n.algo = r.s(RXE_CC_A_ALGO);
		if (r.has_params) {
			if (n.algo == "none")
				return Status::kernel(EINVAL, "algorithm none has no parameters");
			Err pe = apply_params(*algo(n.algo), r.params, n.params[n.algo]);
			if (pe.err)
				return Status::kernel(pe.err, pe.msg);
			for (const auto &p : r.params)
				n.user[n.algo].insert(p.first);
		}
		if (r.tb[RXE_CC_A_LINE_RATE])
			n.line_rate = nla_get_u64(r.tb[RXE_CC_A_LINE_RATE]);
		if (r.tb[RXE_CC_A_BASE_RTT_NS])
			n.base_rtt = nla_get_u64(r.tb[RXE_CC_A_BASE_RTT_NS]);
		if (r.tb[RXE_CC_A_ECN]) {
			std::uint8_t v = nla_get_u8(r.tb[RXE_CC_A_ECN]);
			if (v > 1)
				return Status::kernel(EINVAL, "ECN is 0 or 1");
			n.ecn = v;
		}
		if (r.tb[RXE_CC_A_ACK_EVERY])
			n.ack_every = nla_get_u32(r.tb[RXE_CC_A_ACK_EVERY]);
		if (r.tb[RXE_CC_A_CNP_DSCP]) {
			std::uint8_t v = nla_get_u8(r.tb[RXE_CC_A_CNP_DSCP]);
			if (v > 63)
				return Status::kernel(EINVAL, "CNP_DSCP above 63");
			n.cnp_dscp = v;
		}
		if (r.tb[RXE_CC_A_ACK_DSCP]) {
			std::uint8_t v = nla_get_u8(r.tb[RXE_CC_A_ACK_DSCP]);
			if (v > 63 && v != 255)
				return Status::kernel(EINVAL, "ACK_DSCP above 63");
			n.ack_dscp = v;
		}
		if (struct nlattr *m = r.tb[RXE_CC_A_DSCP_PRIO]) {
			const auto *prio = static_cast<const std::uint8_t *>(nla_data(m));
			for (unsigned ds = 0; ds < RXE_CC_DSCPS; ++ds)
				if (prio[ds] > 7)
					return Status::kernel(ERANGE,
					                      "DSCP " + std::to_string(ds) +
					                              " maps to priority " +
					                              std::to_string(prio[ds]) +
					                              ", above 7");
			std::copy(prio, prio + RXE_CC_DSCPS, n.dscp_prio.begin());
		}
		if (r.tb[RXE_CC_A_SFC])
			n.sfc = nla_get_u8(r.tb[RXE_CC_A_SFC]);
		if (struct nlattr *m = r.tb[RXE_CC_A_SFC_MAX_US]) {
			std::uint32_t v = nla_get_u32(m);
			if (v == 0 || v > 1000000)
				return Status::kernel(ERANGE,
				                      "SFC pause ceiling must be 1 us to 1 s");
			n.sfc_max_us = v;
		}
		if (r.tb[RXE_CC_A_SFC_MODE])
			n.sfc_mode = nla_get_u8(r.tb[RXE_CC_A_SFC_MODE]);
		*d = n;
		Status ok;
		if (n.algo == "dcqcn")
			ok.extack = dcqcn_warning(n.params[n.algo], n.line_rate);
		return ok;
	}

	case RXE_CC_CMD_QP_GET: {
		if (!d && !dump)
			return Status::kernel(EINVAL, "DEV_NAME is required");
		if (!dump) {
			if (!r.tb[RXE_CC_A_QPN])
				return Status::kernel(EINVAL, "QPN is required");
			FakeQp *q = d->qp(nla_get_u32(r.tb[RXE_CC_A_QPN]));
			if (!q)
				return Status::kernel(ENOENT, no_qp);
			replies.push_back(qp_msg(*d, *q, state_in_names_nest, sfc_attrs));
			return Status();
		}
		if (d)
			for (const FakeQp &q : d->qps)
				replies.push_back(qp_msg(*d, q, state_in_names_nest, sfc_attrs));
		return Status();
	}

	case RXE_CC_CMD_QP_SET: {
		// ALGO (with PARAMS), SFC, or both; all or nothing
		struct nlattr *sfc = r.tb[RXE_CC_A_SFC];
		if (!d || !r.tb[RXE_CC_A_QPN] || (!r.tb[RXE_CC_A_ALGO] && !sfc))
			return Status::kernel(EINVAL, "DEV_NAME, QPN and ALGO are required");
		if (!r.tb[RXE_CC_A_ALGO] && r.has_params)
			return Status::kernel(EINVAL, "parameters need the algorithm they are for");
		FakeQp *q = d->qp(nla_get_u32(r.tb[RXE_CC_A_QPN]));
		if (!q)
			return Status::kernel(ENOENT, no_qp);
		if (sfc && !q->rc)
			return Status::kernel(EOPNOTSUPP, "SFC pauses RC QPs only");
		Status ok;
		if (r.tb[RXE_CC_A_ALGO]) {
			if (!q->rc)
				return Status::kernel(EOPNOTSUPP,
				                      "congestion control runs on RC QPs only");
			const FakeAlgo *a = algo(r.s(RXE_CC_A_ALGO));
			if (a->name == "none" && r.has_params)
				return Status::kernel(EINVAL, "algorithm none has no parameters");
			Values vals = d->params[a->name];
			Err pe = apply_params(*a, r.params, vals);
			if (pe.err)
				return Status::kernel(pe.err, pe.msg);
			q->algo = a->name;
			q->params = vals;
			q->state.clear();
			for (const auto &[name, unit] : a->state)
				q->state.emplace_back(name, 0);
			if (a->name == "dcqcn")
				ok.extack = dcqcn_warning(vals, d->line_rate);
		}
		if (sfc) {
			q->sfc = nla_get_u8(sfc) != 0;
			if (!q->sfc) // ends a pause in force
				for (auto &[name, value] : q->stats)
					if (name == "pause_left_us")
						value = 0;
		}
		return ok;
	}

	case RXE_CC_CMD_STATS_GET:
		if (!dump) {
			if (!d)
				return Status::kernel(EINVAL, "DEV_NAME is required");
			replies.push_back(stats_msg(*d));
			return Status();
		}
		for (const FakeDev &x : devs)
			replies.push_back(stats_msg(x));
		return Status();

	default: return Status::kernel(EOPNOTSUPP);
	}
}

Status FakeKernel::subscribe_events()
{
	subscribed = true;
	return Status();
}

Status FakeKernel::wait_events(std::uint64_t timeout_ns, std::vector<GenlMsg> &out)
{
	if (!subscribed)
		return Status::system(EINVAL, "not subscribed");
	if (!clock_)
		return Status();
	if (clock_->stopped)
		return Status::interrupted();
	std::uint64_t end = clock_->now + timeout_ns;
	std::stable_sort(events.begin(), events.end(),
	                 [](const auto &a, const auto &b) { return a.first < b.first; });
	if (!events.empty() && events.front().first <= end) {
		std::uint64_t t = std::max(clock_->now, events.front().first);
		clock_->now = t;
		while (!events.empty() && events.front().first <= t) {
			out.push_back(events.front().second);
			events.erase(events.begin());
		}
		return Status();
	}
	clock_->now = end;
	return Status();
}

RunResult run_rxecc(FakeKernel &k, FakeClock &clock, const std::vector<std::string> &args,
                    bool no_family)
{
	RunResult res;
	std::ostringstream out, err;
	Env env{
		out,
		err,
		clock,
		[&](std::unique_ptr<Transport> &t) {
			++res.connects;
			if (no_family) {
				Status s;
				s.kind = Status::kNoFamily;
				return s;
			}
			t = std::make_unique<Proxy>(k);
			return Status();
		},
		[](const std::string &path, std::string &why) -> std::unique_ptr<std::ostream> {
			auto f = std::make_unique<std::ofstream>(path);
			if (!f->is_open()) {
				why = "No such file or directory";
				return nullptr;
			}
			return f;
		},
	};
	res.code = run(args, env);
	res.out = out.str();
	res.err = err.str();
	return res;
}

} // namespace rxecc::test
