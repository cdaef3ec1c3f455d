// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "gen.h"

#include <cstring>
#include <linux/netlink.h>
#include <rdma/rxe_cc.h>

namespace rxecc::nlfuzz
{

namespace
{

// The limits of the family (drivers/infiniband/sw/rxe/rxe_cc_nl.c).
constexpr std::uint64_t kLineRateMin = 1000ULL * 1000;
constexpr std::uint64_t kLineRateMax = 800ULL * 1000 * 1000 * 1000;
constexpr std::uint64_t kBaseRttMax = 10ULL * 1000 * 1000 * 1000;
constexpr std::uint32_t kAckEveryMax = 1024;
constexpr std::size_t kDevNameMax = 63; // IB_DEVICE_NAME_MAX - 1
constexpr std::size_t kNameMax = RXE_CC_NAME_MAX - 1;

// Attribute bytes with full control of type, flags and length.
class Buf
{
public:
	// An attribute of `len` payload bytes from `data`, padded to 4.
	void put(std::uint16_t type, const void *data, std::size_t len)
	{
		struct nlattr h;
		h.nla_type = type;
		h.nla_len = static_cast<std::uint16_t>(sizeof(h) + len);
		append(&h, sizeof(h));
		append(data, len);
		b_.resize((b_.size() + 3) & ~static_cast<std::size_t>(3), 0);
	}
	void u8(std::uint16_t type, std::uint8_t v) { put(type, &v, 1); }
	void u32(std::uint16_t type, std::uint32_t v) { put(type, &v, 4); }
	void u64(std::uint16_t type, std::uint64_t v) { put(type, &v, 8); }
	void str(std::uint16_t type, const std::string &s) { put(type, s.c_str(), s.size() + 1); }
	void raw(const std::vector<std::uint8_t> &v) { b_.insert(b_.end(), v.begin(), v.end()); }
	void nest(std::uint16_t type, const std::vector<std::uint8_t> &inner)
	{
		put(type | NLA_F_NESTED, inner.data(), inner.size());
	}
	std::vector<std::uint8_t> take() { return std::move(b_); }

private:
	void append(const void *p, std::size_t n)
	{
		const auto *c = static_cast<const std::uint8_t *>(p);
		b_.insert(b_.end(), c, c + n);
	}
	std::vector<std::uint8_t> b_;
};

std::vector<std::uint8_t> one_param(const std::string &name, std::uint32_t v)
{
	Buf p;
	p.str(RXE_CC_A_P_NAME, name);
	p.u32(RXE_CC_A_P_VALUE, v);
	return p.take();
}

// A u64 attribute of DEV_SET and its accepted range.
struct U64Attr {
	std::uint16_t type;
	const char *name;
};

} // namespace

std::vector<std::uint8_t> params_nest(const std::vector<std::pair<std::string, std::uint32_t>> &p)
{
	Buf n;
	for (const auto &[name, v] : p)
		n.nest(RXE_CC_A_PARAM, one_param(name, v));
	return n.take();
}

const char *expect_name(Expect e)
{
	switch (e) {
	case Expect::kReject: return "reject";
	case Expect::kCore: return "core-reject";
	case Expect::kEither: return "either";
	}
	return "?";
}

std::string Generator::dev(const Target &t)
{
	return t.devs.empty() ? std::string("rxe_none") : t.devs[pick(t.devs.size())];
}

std::string Generator::bad_dev()
{
	static const char *names[] = {"",       "rxe",    "rxe_zz", "lo",
	                              "mlx5_0", "rxe_a ", " rxe_a", "RXE_A"};
	if (coin(50))
		return names[pick(sizeof(names) / sizeof(names[0]))];
	std::string s = "nlfuzz";
	std::size_t n = 1 + pick(kDevNameMax - s.size());
	while (s.size() < n + 6)
		s += static_cast<char>('a' + pick(26));
	return s;
}

const AlgoDesc *Generator::algo(const Target &t)
{
	return t.algos.empty() ? nullptr : &t.algos[pick(t.algos.size())];
}

std::uint32_t Generator::qpn(const Target &t)
{
	return t.qpns.empty() ? 17 : t.qpns[pick(t.qpns.size())];
}

// QP numbers are 24 bits wide: anything above cannot exist; 0 (QP0, no SMI
// on RoCE) neither.
std::uint32_t Generator::bad_qpn(const Target &)
{
	switch (pick(4)) {
	case 0: return 0;
	case 1: return 0xffffffffU;
	case 2: return 0x1000000U;
	default: return 0x1000000U + (u32() % 0xff000000U);
	}
}

// A DEV_SET: valid and boundary values of every attribute, or one of them
// out of its range, of the wrong length or type, or a bad parameter.
Request Generator::dev_set(const Target &t)
{
	Request r;
	r.cmd = RXE_CC_CMD_DEV_SET;
	Buf b;
	bool bad = false;
	std::string w = "DEV_SET";
	b.str(RXE_CC_A_DEV_NAME, dev(t));
	// one to three different attributes (a repeated one would be shadowed
	// by the last, which is how netlink works); ALGO once, for case 7 or 8
	unsigned n = 1 + static_cast<unsigned>(pick(3));
	unsigned used = 0;
	for (unsigned i = 0; i < n; i++) {
		bool mk_bad = coin(60);
		unsigned c = static_cast<unsigned>(pick(9));
		if (c == 8 && (used & (1U << 7)))
			c = 7;
		if (c == 7 && (used & (1U << 8)))
			c = 8;
		if (used & (1U << c))
			continue;
		used |= 1U << c;
		switch (c) {
		case 0: { // line rate
			std::uint64_t v;
			if (mk_bad)
				v = coin(50) ? 1 + u64() % (kLineRateMin - 1)
				             : kLineRateMax + 1 + u64() % (1ULL << 40);
			else
				v = pick(3) == 0 ? 0 : (coin(50) ? kLineRateMin : kLineRateMax);
			b.u64(RXE_CC_A_LINE_RATE, v);
			w += " line_rate=" + std::to_string(v);
			break;
		}
		case 1: { // base RTT
			std::uint64_t v =
				mk_bad ? kBaseRttMax + 1 + (coin(50) ? 0 : u64() % (1ULL << 62))
				       : (coin(50) ? 0 : kBaseRttMax);
			b.u64(RXE_CC_A_BASE_RTT_NS, v);
			w += " base_rtt_ns=" + std::to_string(v);
			break;
		}
		case 2: {
			std::uint8_t v = mk_bad ? static_cast<std::uint8_t>(2 + pick(254))
			                        : static_cast<std::uint8_t>(pick(2));
			b.u8(RXE_CC_A_ECN, v);
			w += " ecn=" + std::to_string(v);
			break;
		}
		case 3: {
			std::uint32_t v =
				mk_bad ? kAckEveryMax + 1 + u32() % (0xffffffffU - kAckEveryMax)
				       : (coin(50) ? 0 : kAckEveryMax);
			b.u32(RXE_CC_A_ACK_EVERY, v);
			w += " ack_every=" + std::to_string(v);
			break;
		}
		case 4: {
			std::uint8_t v = mk_bad ? static_cast<std::uint8_t>(64 + pick(192))
			                        : static_cast<std::uint8_t>(coin(50) ? 0 : 63);
			b.u8(RXE_CC_A_CNP_DSCP, v);
			w += " cnp_dscp=" + std::to_string(v);
			break;
		}
		case 5: {
			std::uint8_t v = mk_bad ? static_cast<std::uint8_t>(64 + pick(191))
			                        : static_cast<std::uint8_t>(coin(50) ? 63 : 255);
			b.u8(RXE_CC_A_ACK_DSCP, v);
			w += " ack_dscp=" + std::to_string(v);
			break;
		}
		case 6: { // the DSCP map
			std::vector<std::uint8_t> m(RXE_CC_DSCPS);
			for (auto &x : m)
				x = static_cast<std::uint8_t>(pick(8));
			if (mk_bad) {
				if (coin(50)) {
					std::size_t d = pick(m.size());
					m[d] = static_cast<std::uint8_t>(8 + pick(248));
					w += " dscp_prio[" + std::to_string(d) +
					     "]=" + std::to_string(m[d]);
				} else {
					m.resize(coin(50) ? pick(RXE_CC_DSCPS)
					                  : RXE_CC_DSCPS + 1 + pick(64));
					w += " dscp_prio of " + std::to_string(m.size()) + " bytes";
				}
			} else {
				w += " dscp_prio";
			}
			b.put(RXE_CC_A_DSCP_PRIO, m.data(), m.size());
			break;
		}
		case 7: { // an algorithm
			if (mk_bad) {
				std::string s = coin(50)
				                        ? "nosuchalgo"
				                        : std::string(kNameMax + 1 + pick(20), 'a');
				b.str(RXE_CC_A_ALGO, s);
				w += " algo=" + s.substr(0, 16) + "(" + std::to_string(s.size()) +
				     ")";
			} else if (const AlgoDesc *a = algo(t)) {
				b.str(RXE_CC_A_ALGO, a->name);
				w += " algo=" + a->name;
			}
			break;
		}
		default: { // parameters of an algorithm
			const AlgoDesc *a = algo(t);
			if (!a)
				break;
			b.str(RXE_CC_A_ALGO, a->name);
			w += " algo=" + a->name;
			std::vector<std::pair<std::string, std::uint32_t>> ps;
			if (a->params.empty()) {
				// "none": any parameter is refused
				ps.emplace_back("rate_kbps", 1);
				mk_bad = true;
			} else {
				const ParamDesc &p = a->params[pick(a->params.size())];
				std::uint32_t v;
				if (mk_bad && p.max < 0xffffffffU && (p.min == 0 || coin(50)))
					v = p.max + 1 + u32() % (0xffffffffU - p.max);
				else if (mk_bad && p.min > 0)
					v = u32() % p.min;
				else if (mk_bad) // a full range: a name it lacks instead
					ps.emplace_back("nosuchparam", 0), v = p.min;
				else
					v = coin(50) ? p.min : p.max;
				ps.emplace_back(p.name, v);
			}
			for (const auto &[pn, pv] : ps)
				w += " " + pn + "=" + std::to_string(pv);
			b.nest(RXE_CC_A_PARAMS, params_nest(ps));
			break;
		}
		}
		bad |= mk_bad;
	}
	r.attrs = b.take();
	r.expect = bad ? Expect::kReject : Expect::kEither;
	r.may_change = !bad;
	r.what = w;
	return r;
}

// A QP_SET on a QP of an owned device (which may have gone away).
Request Generator::qp_set(const Target &t)
{
	Request r;
	r.cmd = RXE_CC_CMD_QP_SET;
	Buf b;
	const AlgoDesc *a = algo(t);
	std::string an = a ? a->name : "none";
	std::uint32_t q = qpn(t);
	b.str(RXE_CC_A_DEV_NAME, dev(t));
	b.u32(RXE_CC_A_QPN, q);
	b.str(RXE_CC_A_ALGO, an);
	r.what = "QP_SET qpn=" + std::to_string(q) + " algo=" + an;
	r.expect = Expect::kEither;
	r.may_change = true;
	if (a && !a->params.empty() && coin(70)) {
		const ParamDesc &p = a->params[pick(a->params.size())];
		std::uint32_t v = coin(50) ? p.min : p.max;
		if (coin(50) && p.max < 0xffffffffU) {
			v = p.max + 1 + u32() % (0xffffffffU - p.max);
			r.expect = Expect::kReject;
			r.may_change = false;
		}
		b.nest(RXE_CC_A_PARAMS, params_nest({{p.name, v}}));
		r.what += " " + p.name + "=" + std::to_string(v);
	}
	r.attrs = b.take();
	return r;
}

// A GET or a dump, of an owned device or of all.
Request Generator::get(const Target &t)
{
	static const std::uint8_t cmds[] = {RXE_CC_CMD_ALGO_GET, RXE_CC_CMD_DEV_GET,
	                                    RXE_CC_CMD_QP_GET, RXE_CC_CMD_STATS_GET};
	Request r;
	r.cmd = cmds[pick(sizeof(cmds))];
	r.dump = r.cmd == RXE_CC_CMD_ALGO_GET || coin(40);
	Buf b;
	r.what = std::string(r.dump ? "dump " : "") + "GET cmd " + std::to_string(r.cmd);
	if (r.cmd != RXE_CC_CMD_ALGO_GET && (!r.dump || coin(50))) {
		std::string d = dev(t);
		b.str(RXE_CC_A_DEV_NAME, d);
		r.what += " dev=" + d;
	}
	if (r.cmd == RXE_CC_CMD_QP_GET && !r.dump) {
		std::uint32_t q = qpn(t);
		b.u32(RXE_CC_A_QPN, q);
		r.what += " qpn=" + std::to_string(q);
	}
	if (r.cmd == RXE_CC_CMD_DEV_GET && !r.dump && coin(30)) {
		if (const AlgoDesc *a = algo(t)) {
			b.str(RXE_CC_A_ALGO, a->name);
			r.what += " algo=" + a->name;
		}
	}
	r.attrs = b.take();
	r.expect = Expect::kEither;
	return r;
}

// A request broken in form or naming what does not exist: every one must be
// refused, with an extack.
Request Generator::malformed(const Target &t)
{
	static const std::uint8_t doits[] = {RXE_CC_CMD_DEV_GET, RXE_CC_CMD_DEV_SET,
	                                     RXE_CC_CMD_QP_GET, RXE_CC_CMD_QP_SET,
	                                     RXE_CC_CMD_STATS_GET};
	Request r;
	r.cmd = doits[pick(sizeof(doits))];
	r.expect = Expect::kReject;
	bool qp = r.cmd == RXE_CC_CMD_QP_GET || r.cmd == RXE_CC_CMD_QP_SET;
	bool algo_needed = r.cmd == RXE_CC_CMD_QP_SET;
	std::string cmdn = "cmd " + std::to_string(r.cmd);
	// the valid attributes of the request, before the fault
	auto base = [&](Buf &b, bool with_dev, bool with_qpn, bool with_algo) {
		if (with_dev)
			b.str(RXE_CC_A_DEV_NAME, dev(t));
		if (with_qpn)
			b.u32(RXE_CC_A_QPN, qpn(t));
		if (with_algo)
			b.str(RXE_CC_A_ALGO, "none");
	};
	Buf b;
	switch (pick(12)) {
	case 0: // a required attribute missing
		if (qp && coin(50)) {
			base(b, true, false, algo_needed);
			r.what = cmdn + " without QPN";
		} else if (algo_needed && coin(50)) {
			base(b, true, true, false);
			r.what = cmdn + " without ALGO";
		} else {
			base(b, false, qp, algo_needed);
			r.what = cmdn + " without DEV_NAME";
		}
		break;
	case 1: { // an unknown device
		std::string d = bad_dev();
		b.str(RXE_CC_A_DEV_NAME, d);
		base(b, false, qp, algo_needed);
		r.what = cmdn + " unknown dev '" + d + "'";
		break;
	}
	case 2: // an unknown QP
		if (!qp)
			r.cmd = coin(50) ? RXE_CC_CMD_QP_GET : RXE_CC_CMD_QP_SET;
		b.str(RXE_CC_A_DEV_NAME, dev(t));
		{
			std::uint32_t q = bad_qpn(t);
			b.u32(RXE_CC_A_QPN, q);
			r.what = "cmd " + std::to_string(r.cmd) + " unknown qpn " +
			         std::to_string(q);
		}
		if (r.cmd == RXE_CC_CMD_QP_SET)
			b.str(RXE_CC_A_ALGO, "none");
		break;
	case 3: { // a fixed-size attribute of the wrong length
		static const std::pair<std::uint16_t, std::size_t> fixed[] = {
			{RXE_CC_A_QPN, 4},        {RXE_CC_A_ECN, 1},      {RXE_CC_A_ACK_EVERY, 4},
			{RXE_CC_A_CNP_DSCP, 1},   {RXE_CC_A_ACK_DSCP, 1}, {RXE_CC_A_LINE_RATE, 8},
			{RXE_CC_A_BASE_RTT_NS, 8}};
		auto [type, size] = fixed[pick(sizeof(fixed) / sizeof(fixed[0]))];
		std::size_t len;
		do
			len = pick(17);
		while (len == size);
		std::vector<std::uint8_t> junk(len);
		for (auto &x : junk)
			x = static_cast<std::uint8_t>(u32());
		base(b, true, qp && type != RXE_CC_A_QPN, algo_needed);
		b.put(type, junk.data(), junk.size());
		r.what = cmdn + " attr " + std::to_string(type) + " of " + std::to_string(len) +
		         " bytes (wants " + std::to_string(size) + ")";
		break;
	}
	case 4: { // a string without its NUL, or too long
		std::uint16_t type = coin(50) ? RXE_CC_A_DEV_NAME : RXE_CC_A_ALGO;
		std::size_t max = type == RXE_CC_A_DEV_NAME ? kDevNameMax : kNameMax;
		std::string s = coin(50) ? std::string(max + 1 + pick(40), 'x') : dev(t);
		bool nul = s.size() > max && coin(50);
		b.put(type, s.c_str(), s.size() + (nul ? 1 : 0));
		if (type == RXE_CC_A_ALGO)
			base(b, true, qp, false);
		else
			base(b, false, qp, algo_needed);
		r.what = cmdn + " attr " + std::to_string(type) + " string of " +
		         std::to_string(s.size()) + (nul ? " with" : " without") + " NUL";
		break;
	}
	case 5: { // an attribute type the command does not take, or none knows
		static const std::uint16_t types[] = {
			RXE_CC_A_UNSPEC, RXE_CC_A_PAD,         RXE_CC_A_DEV_INDEX,
			RXE_CC_A_PARAM,  RXE_CC_A_STATE_NAMES, RXE_CC_A_STATE,
			RXE_CC_A_RATE,   RXE_CC_A_WINDOW,      RXE_CC_A_STATS,
			RXE_CC_A_STAT,   RXE_CC_A_QP_STATS,    RXE_CC_A_TIME_NS,
			RXE_CC_A_EVENT,  RXE_CC_A_MAX + 1,     0x3fff};
		std::uint16_t type =
			coin(80) ? types[pick(sizeof(types) / sizeof(types[0]))]
				 : static_cast<std::uint16_t>(RXE_CC_A_MAX + 1 +
		                                              pick(0x3fff - RXE_CC_A_MAX));
		std::uint64_t v = u64();
		base(b, true, qp, algo_needed);
		b.put(type, &v, 4 + 4 * pick(2));
		r.what = cmdn + " unexpected attr type " + std::to_string(type);
		break;
	}
	case 6: { // NLA_F_NESTED on a plain attribute, or a nest without it
		base(b, false, qp, algo_needed);
		if (coin(50)) {
			std::string d = dev(t);
			b.put(RXE_CC_A_DEV_NAME | NLA_F_NESTED, d.c_str(), d.size() + 1);
			r.what = cmdn + " DEV_NAME flagged nested";
		} else {
			b.str(RXE_CC_A_DEV_NAME, dev(t));
			auto inner = params_nest({{"rate_kbps", 1000}});
			if (!algo_needed)
				b.str(RXE_CC_A_ALGO, "fixed");
			b.put(RXE_CC_A_PARAMS, inner.data(), inner.size());
			r.what = cmdn + " PARAMS without NLA_F_NESTED";
			if (r.cmd != RXE_CC_CMD_DEV_SET && r.cmd != RXE_CC_CMD_QP_SET)
				r.cmd = RXE_CC_CMD_DEV_SET;
		}
		break;
	}
	case 7: { // a bad parameter nest
		r.cmd = qp ? RXE_CC_CMD_QP_SET : RXE_CC_CMD_DEV_SET;
		cmdn = "cmd " + std::to_string(r.cmd);
		const AlgoDesc *a = algo(t);
		std::string an = a ? a->name : "fixed";
		std::string pn = a && !a->params.empty() ? a->params[0].name : "rate_kbps";
		b.str(RXE_CC_A_DEV_NAME, dev(t));
		if (r.cmd == RXE_CC_CMD_QP_SET)
			b.u32(RXE_CC_A_QPN, qpn(t));
		b.str(RXE_CC_A_ALGO, an);
		Buf n;
		switch (pick(7)) {
		case 0: { // not a PARAM inside
			Buf p;
			p.str(RXE_CC_A_P_NAME, pn);
			p.u32(RXE_CC_A_P_VALUE, 1);
			n.nest(static_cast<std::uint16_t>(RXE_CC_A_PARAM + 1 + pick(5)), p.take());
			r.what = cmdn + " PARAMS holding a non-PARAM";
			break;
		}
		case 1: { // no value
			Buf p;
			p.str(RXE_CC_A_P_NAME, pn);
			n.nest(RXE_CC_A_PARAM, p.take());
			r.what = cmdn + " PARAM without VALUE";
			break;
		}
		case 2: { // no name
			Buf p;
			p.u32(RXE_CC_A_P_VALUE, 1);
			n.nest(RXE_CC_A_PARAM, p.take());
			r.what = cmdn + " PARAM without NAME";
			break;
		}
		case 3: { // a value of the wrong length
			Buf p;
			p.str(RXE_CC_A_P_NAME, pn);
			std::uint64_t v = 1;
			std::size_t len = coin(50) ? 8 : pick(4);
			p.put(RXE_CC_A_P_VALUE, &v, len);
			n.nest(RXE_CC_A_PARAM, p.take());
			r.what = cmdn + " PARAM VALUE of " + std::to_string(len) + " bytes";
			break;
		}
		case 4: { // a name too long
			n.nest(RXE_CC_A_PARAM,
			       one_param(std::string(kNameMax + 1 + pick(30), 'p'), 1));
			r.what = cmdn + " PARAM NAME too long";
			break;
		}
		case 5: { // an attribute a PARAM does not take (what DEV_GET returns)
			Buf p;
			p.str(RXE_CC_A_P_NAME, pn);
			p.u32(RXE_CC_A_P_VALUE, a && !a->params.empty() ? a->params[0].min : 1);
			p.u32(static_cast<std::uint16_t>(
				      RXE_CC_A_P_UNIT + pick(RXE_CC_A_P_MAX - RXE_CC_A_P_UNIT + 3)),
			      0);
			n.nest(RXE_CC_A_PARAM, p.take());
			r.what = cmdn + " PARAM with an output-only attribute";
			break;
		}
		default: { // bytes after the last parameter that are no attribute
			n.raw(params_nest({{pn, a && !a->params.empty() ? a->params[0].min : 1}}));
			std::size_t extra = 1 + pick(3);
			for (std::size_t i = 0; i < extra; i++)
				n.raw({static_cast<std::uint8_t>(u32())});
			r.what = cmdn + " PARAMS with " + std::to_string(extra) + " trailing bytes";
			break;
		}
		}
		b.nest(RXE_CC_A_PARAMS, n.take());
		break;
	}
	case 8: { // an attribute whose length runs past the message
		base(b, true, qp, algo_needed);
		std::vector<std::uint8_t> v = b.take();
		struct nlattr h;
		h.nla_type = RXE_CC_A_ECN;
		h.nla_len = static_cast<std::uint16_t>(sizeof(h) + 1 + 4 * (1 + pick(8)));
		const auto *c = reinterpret_cast<const std::uint8_t *>(&h);
		v.insert(v.end(), c, c + sizeof(h));
		v.push_back(1);
		b.raw(v);
		r.what = cmdn + " attr length past the end";
		break;
	}
	case 9: { // trailing bytes that are no attribute
		base(b, true, qp, algo_needed);
		std::size_t extra = 1 + pick(3);
		for (std::size_t i = 0; i < extra; i++)
			b.raw({static_cast<std::uint8_t>(u32())});
		r.what = cmdn + " " + std::to_string(extra) + " trailing bytes";
		break;
	}
	case 10: { // a duplicate attribute: a valid one, then an invalid one
		base(b, true, qp, algo_needed);
		r.cmd = RXE_CC_CMD_DEV_SET;
		b.u8(RXE_CC_A_ECN, 1);
		b.u8(RXE_CC_A_ECN, static_cast<std::uint8_t>(2 + pick(254)));
		r.what = "DEV_SET ecn twice, the second out of range";
		if (qp) { // the QP attributes are not DEV_SET's
			b = Buf();
			b.str(RXE_CC_A_DEV_NAME, dev(t));
			b.u8(RXE_CC_A_CNP_DSCP, static_cast<std::uint8_t>(64 + pick(192)));
			b.u8(RXE_CC_A_CNP_DSCP, 1);
			r.what = "DEV_SET cnp_dscp twice, the first out of range";
		}
		break;
	}
	default: { // an empty request to a command that needs a device
		r.what = cmdn + " with no attributes";
		break;
	}
	}
	r.attrs = b.take();
	return r;
}

// Requests the generic netlink core refuses: commands that do not exist,
// the event command, a do of a dump-only command, a dump of a do-only one.
Request Generator::core(const Target &t)
{
	Request r;
	Buf b;
	b.str(RXE_CC_A_DEV_NAME, dev(t));
	r.expect = Expect::kCore;
	switch (pick(4)) {
	case 0: r.cmd = RXE_CC_CMD_UNSPEC; break;
	case 1: r.cmd = RXE_CC_CMD_RATE_EVENT; break;
	case 2:
		r.cmd = static_cast<std::uint8_t>(RXE_CC_CMD_MAX + 1 + pick(255 - RXE_CC_CMD_MAX));
		r.dump = coin(50);
		break;
	default:
		if (coin(50)) {
			r.cmd = RXE_CC_CMD_ALGO_GET; // dump only
		} else {
			r.cmd = coin(50) ? RXE_CC_CMD_DEV_SET : RXE_CC_CMD_QP_SET; // do only
			r.dump = true;
		}
		break;
	}
	r.what = std::string(r.dump ? "dump" : "do") + " of cmd " + std::to_string(r.cmd);
	r.attrs = b.take();
	return r;
}

Request Generator::next(const Target &t)
{
	unsigned k = static_cast<unsigned>(pick(100));
	if (k < 40)
		return malformed(t);
	if (k < 65)
		return dev_set(t);
	if (k < 75)
		return qp_set(t);
	if (k < 95)
		return get(t);
	return core(t);
}

} // namespace rxecc::nlfuzz
