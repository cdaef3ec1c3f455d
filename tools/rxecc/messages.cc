// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "messages.h"

#include <rdma/rxe_cc.h>

#include "nlattr.h"

namespace rxecc
{

using nl::Attr;
using nl::AttrWriter;

const ParamInfo *AlgoInfo::find_param(std::string_view n) const
{
	for (const ParamInfo &p : params)
		if (p.name == n)
			return &p;
	return nullptr;
}

const StateInfo *AlgoInfo::find_state(std::string_view n) const
{
	for (const StateInfo &s : state)
		if (s.name == n)
			return &s;
	return nullptr;
}

namespace
{

GenlMsg finish(std::uint8_t cmd, const AttrWriter &w)
{
	GenlMsg m;
	m.cmd = cmd;
	m.attrs = w.bytes();
	return m;
}

void put_params(AttrWriter &w, const std::vector<NamedValue> &params)
{
	if (params.empty())
		return;
	std::size_t list = w.begin_nest(RXE_CC_A_PARAMS);
	for (const NamedValue &p : params) {
		std::size_t one = w.begin_nest(RXE_CC_A_PARAM);
		w.put_string(RXE_CC_A_P_NAME, p.name);
		w.put_u32(RXE_CC_A_P_VALUE, static_cast<std::uint32_t>(p.value));
		w.end_nest(one);
	}
	w.end_nest(list);
}

// Reads attributes of one reply, remembering the first error.
class Reader
{
public:
	explicit Reader(const char *what) : what_(what) {}

	bool top(const GenlMsg &msg, std::vector<Attr> &out)
	{
		if (!nl::parse_attrs(msg.attrs.data(), msg.attrs.size(), out))
			return fail("attributes overrun the message");
		return true;
	}

	bool nested(const Attr &a, std::vector<Attr> &out, const char *name)
	{
		if (!nl::parse_nested(a, out))
			return fail(std::string("malformed nest ") + name);
		return true;
	}

	bool uint(const Attr &a, std::uint64_t &v, const char *name)
	{
		std::optional<std::uint64_t> x = a.as_uint();
		if (!x)
			return fail(std::string(name) + " has " + std::to_string(a.len) +
			            " bytes, not an integer");
		v = *x;
		return true;
	}

	template <typename T>
	bool uint(const Attr &a, std::optional<T> &v, const char *name)
	{
		std::uint64_t x = 0;
		if (!uint(a, x, name))
			return false;
		v = static_cast<T>(x);
		return true;
	}

	bool u32(const Attr &a, std::uint32_t &v, const char *name)
	{
		std::uint64_t x = 0;
		if (!uint(a, x, name))
			return false;
		if (x > UINT32_MAX)
			return fail(std::string(name) + " does not fit in 32 bits");
		v = static_cast<std::uint32_t>(x);
		return true;
	}

	bool fail(const std::string &why)
	{
		if (status_.ok())
			status_ = Status::malformed(std::string(what_) + " reply: " + why);
		return false;
	}

	Status status() const { return status_; }

private:
	const char *what_;
	Status status_;
};

// A list of (NAME, VALUE) nests inside `list`, as in PARAMS, STATS, STATE.
// With `flagged`, the names of the entries that carry the flag attribute
// `flag_attr` are appended to it.
bool named_values(Reader &r, const Attr &list, std::uint16_t inner, std::uint16_t name_attr,
                  std::uint16_t value_attr, std::vector<NamedValue> &out, const char *what,
                  std::uint16_t flag_attr = 0, std::vector<std::string> *flagged = nullptr)
{
	std::vector<Attr> items;
	if (!r.nested(list, items, what))
		return false;
	for (const Attr &item : items) {
		if (item.type != inner)
			continue;
		std::vector<Attr> fields;
		if (!r.nested(item, fields, what))
			return false;
		NamedValue nv;
		bool have_name = false, have_value = false, flag = false;
		for (const Attr &f : fields) {
			if (f.type == name_attr) {
				nv.name = f.as_string();
				have_name = true;
			} else if (f.type == value_attr) {
				if (!r.uint(f, nv.value, what))
					return false;
				have_value = true;
			} else if (flag_attr && f.type == flag_attr) {
				flag = true;
			}
		}
		if (!have_name)
			return r.fail(std::string(what) + " entry without a name");
		if (!have_value)
			return r.fail(std::string(what) + " entry " + nv.name + " without a value");
		if (flag && flagged)
			flagged->push_back(nv.name);
		out.push_back(nv);
	}
	return true;
}

// One STATE nest (NAME, VALUE) of a QP.
bool state_value(Reader &r, const Attr &a, std::vector<NamedValue> &out)
{
	std::vector<Attr> fields;
	if (!r.nested(a, fields, "STATE"))
		return false;
	NamedValue nv;
	bool have_name = false, have_value = false;
	for (const Attr &f : fields) {
		if (f.type == RXE_CC_A_S_NAME) {
			nv.name = f.as_string();
			have_name = true;
		} else if (f.type == RXE_CC_A_S_VALUE) {
			if (!r.uint(f, nv.value, "STATE value"))
				return false;
			have_value = true;
		}
	}
	if (!have_name)
		return r.fail("STATE without a name");
	if (!have_value)
		return r.fail("STATE " + nv.name + " without a value");
	out.push_back(nv);
	return true;
}

// RXE_CC_A_DSCP_PRIO: exactly 64 priorities of 0..7.
bool dscp_prio(Reader &r, const Attr &a, std::optional<DscpPrio> &out)
{
	DscpPrio m{};
	if (a.len != m.size())
		return r.fail("DSCP_PRIO has " + std::to_string(a.len) + " bytes, not " +
		              std::to_string(m.size()));
	for (std::size_t d = 0; d < m.size(); ++d) {
		m[d] = a.data[d];
		if (m[d] > 7)
			return r.fail("DSCP_PRIO puts DSCP " + std::to_string(d) + " on priority " +
			              std::to_string(m[d]) + ", above 7");
	}
	out = m;
	return true;
}

} // namespace

bool is_sfc_stat(std::string_view name)
{
	auto starts = [name](std::string_view prefix) {
		return name.substr(0, prefix.size()) == prefix;
	};
	return starts("bts_") || starts("pause_") || name == "paused_us";
}

bool DevInfo::user_set(std::string_view param) const
{
	for (const std::string &n : user_params)
		if (n == param)
			return true;
	return false;
}

GenlMsg algo_get_request()
{
	return finish(RXE_CC_CMD_ALGO_GET, AttrWriter());
}

GenlMsg dev_get_request(const std::string &dev, const std::string &algo)
{
	AttrWriter w;
	if (!dev.empty())
		w.put_string(RXE_CC_A_DEV_NAME, dev);
	if (!algo.empty())
		w.put_string(RXE_CC_A_ALGO, algo);
	return finish(RXE_CC_CMD_DEV_GET, w);
}

GenlMsg dev_set_request(const DevSet &set)
{
	AttrWriter w;
	w.put_string(RXE_CC_A_DEV_NAME, set.dev);
	if (set.algo)
		w.put_string(RXE_CC_A_ALGO, *set.algo);
	put_params(w, set.params);
	if (set.line_rate_bps)
		w.put_u64(RXE_CC_A_LINE_RATE, *set.line_rate_bps);
	if (set.base_rtt_ns)
		w.put_u64(RXE_CC_A_BASE_RTT_NS, *set.base_rtt_ns);
	if (set.ecn)
		w.put_u8(RXE_CC_A_ECN, *set.ecn ? 1 : 0);
	if (set.ack_every)
		w.put_u32(RXE_CC_A_ACK_EVERY, *set.ack_every);
	if (set.cnp_dscp)
		w.put_u8(RXE_CC_A_CNP_DSCP, *set.cnp_dscp);
	if (set.ack_dscp)
		w.put_u8(RXE_CC_A_ACK_DSCP, *set.ack_dscp);
	if (set.dscp_prio)
		w.put_bytes(RXE_CC_A_DSCP_PRIO, set.dscp_prio->data(), set.dscp_prio->size());
	if (set.sfc)
		w.put_u8(RXE_CC_A_SFC, *set.sfc ? 1 : 0);
	if (set.sfc_max_us)
		w.put_u32(RXE_CC_A_SFC_MAX_US, *set.sfc_max_us);
	if (set.sfc_mode)
		w.put_u8(RXE_CC_A_SFC_MODE, *set.sfc_mode);
	return finish(RXE_CC_CMD_DEV_SET, w);
}

GenlMsg qp_get_request(const std::string &dev, std::optional<std::uint32_t> qpn)
{
	AttrWriter w;
	w.put_string(RXE_CC_A_DEV_NAME, dev);
	if (qpn)
		w.put_u32(RXE_CC_A_QPN, *qpn);
	return finish(RXE_CC_CMD_QP_GET, w);
}

GenlMsg qp_set_request(const QpSet &set)
{
	AttrWriter w;
	w.put_string(RXE_CC_A_DEV_NAME, set.dev);
	w.put_u32(RXE_CC_A_QPN, set.qpn);
	if (set.algo) {
		w.put_string(RXE_CC_A_ALGO, *set.algo);
		put_params(w, set.params);
	}
	if (set.sfc)
		w.put_u8(RXE_CC_A_SFC, *set.sfc ? 1 : 0);
	return finish(RXE_CC_CMD_QP_SET, w);
}

GenlMsg stats_get_request(const std::string &dev)
{
	AttrWriter w;
	if (!dev.empty())
		w.put_string(RXE_CC_A_DEV_NAME, dev);
	return finish(RXE_CC_CMD_STATS_GET, w);
}

Status decode_algo(const GenlMsg &msg, AlgoInfo &out)
{
	Reader r("ALGO_GET");
	out = AlgoInfo();
	std::vector<Attr> top;
	if (!r.top(msg, top))
		return r.status();
	bool have_name = false;
	for (const Attr &a : top) {
		switch (a.type) {
		case RXE_CC_A_ALGO:
			out.name = a.as_string();
			have_name = true;
			break;
		case RXE_CC_A_PARAMS: {
			std::vector<Attr> items;
			if (!r.nested(a, items, "PARAMS"))
				break;
			for (const Attr &item : items) {
				if (item.type != RXE_CC_A_PARAM)
					continue;
				std::vector<Attr> fields;
				if (!r.nested(item, fields, "PARAM"))
					break;
				ParamInfo p;
				bool named = false;
				for (const Attr &f : fields) {
					switch (f.type) {
					case RXE_CC_A_P_NAME:
						p.name = f.as_string();
						named = true;
						break;
					case RXE_CC_A_P_UNIT: r.u32(f, p.unit, "PARAM unit"); break;
					case RXE_CC_A_P_DEFAULT:
						r.u32(f, p.def, "PARAM default");
						break;
					case RXE_CC_A_P_RANGE_MIN:
						r.u32(f, p.min, "PARAM min");
						break;
					case RXE_CC_A_P_RANGE_MAX:
						r.u32(f, p.max, "PARAM max");
						break;
					case RXE_CC_A_P_HELP: p.help = f.as_string(); break;
					default: break;
					}
				}
				if (!named) {
					r.fail("PARAM without a name");
					break;
				}
				out.params.push_back(p);
			}
			break;
		}
		case RXE_CC_A_STATE_NAMES: {
			std::vector<Attr> items;
			if (!r.nested(a, items, "STATE_NAMES"))
				break;
			for (const Attr &item : items) {
				if (item.type != RXE_CC_A_STATE)
					continue;
				std::vector<Attr> fields;
				if (!r.nested(item, fields, "STATE"))
					break;
				StateInfo s;
				bool named = false;
				for (const Attr &f : fields) {
					if (f.type == RXE_CC_A_S_NAME) {
						s.name = f.as_string();
						named = true;
					} else if (f.type == RXE_CC_A_S_UNIT) {
						r.u32(f, s.unit, "STATE unit");
					}
				}
				if (!named) {
					r.fail("STATE without a name");
					break;
				}
				out.state.push_back(s);
			}
			break;
		}
		default: break;
		}
	}
	if (r.status().ok() && !have_name)
		r.fail("no ALGO attribute");
	return r.status();
}

Status decode_dev(const GenlMsg &msg, DevInfo &out)
{
	Reader r("DEV_GET");
	out = DevInfo();
	std::vector<Attr> top;
	if (!r.top(msg, top))
		return r.status();
	bool have_name = false;
	for (const Attr &a : top) {
		switch (a.type) {
		case RXE_CC_A_DEV_NAME:
			out.name = a.as_string();
			have_name = true;
			break;
		case RXE_CC_A_DEV_INDEX: r.uint(a, out.index, "DEV_INDEX"); break;
		case RXE_CC_A_ALGO: out.algo = a.as_string(); break;
		case RXE_CC_A_PARAMS:
			named_values(r, a, RXE_CC_A_PARAM, RXE_CC_A_P_NAME, RXE_CC_A_P_VALUE,
			             out.params, "PARAMS", RXE_CC_A_P_USER, &out.user_params);
			break;
		case RXE_CC_A_LINE_RATE: r.uint(a, out.line_rate_bps, "LINE_RATE"); break;
		case RXE_CC_A_BASE_RTT_NS: r.uint(a, out.base_rtt_ns, "BASE_RTT_NS"); break;
		case RXE_CC_A_ECN: r.uint(a, out.ecn, "ECN"); break;
		case RXE_CC_A_ACK_EVERY: r.uint(a, out.ack_every, "ACK_EVERY"); break;
		case RXE_CC_A_CNP_DSCP: r.uint(a, out.cnp_dscp, "CNP_DSCP"); break;
		case RXE_CC_A_ACK_DSCP: r.uint(a, out.ack_dscp, "ACK_DSCP"); break;
		case RXE_CC_A_DSCP_PRIO: dscp_prio(r, a, out.dscp_prio); break;
		case RXE_CC_A_SFC: r.uint(a, out.sfc, "SFC"); break;
		case RXE_CC_A_SFC_MAX_US: r.uint(a, out.sfc_max_us, "SFC_MAX_US"); break;
		case RXE_CC_A_SFC_MODE: r.uint(a, out.sfc_mode, "SFC_MODE"); break;
		default: break;
		}
	}
	if (r.status().ok() && !have_name)
		r.fail("no DEV_NAME attribute");
	return r.status();
}

Status decode_qp(const GenlMsg &msg, QpInfo &out)
{
	Reader r("QP_GET");
	out = QpInfo();
	std::vector<Attr> top;
	if (!r.top(msg, top))
		return r.status();
	bool have_dev = false, have_qpn = false;
	for (const Attr &a : top) {
		switch (a.type) {
		case RXE_CC_A_DEV_NAME:
			out.dev = a.as_string();
			have_dev = true;
			break;
		case RXE_CC_A_QPN: have_qpn = r.u32(a, out.qpn, "QPN"); break;
		case RXE_CC_A_ALGO: out.algo = a.as_string(); break;
		case RXE_CC_A_PARAMS:
			named_values(r, a, RXE_CC_A_PARAM, RXE_CC_A_P_NAME, RXE_CC_A_P_VALUE,
			             out.params, "PARAMS");
			break;
		case RXE_CC_A_RATE: r.uint(a, out.rate_bps, "RATE"); break;
		case RXE_CC_A_WINDOW: r.uint(a, out.window_bytes, "WINDOW"); break;
		case RXE_CC_A_STATE:
			// The header lists the state as repeated STATE nests ...
			state_value(r, a, out.state);
			break;
		case RXE_CC_A_STATE_NAMES:
			// ... a kernel may also wrap them like ALGO_GET does.
			named_values(r, a, RXE_CC_A_STATE, RXE_CC_A_S_NAME, RXE_CC_A_S_VALUE,
			             out.state, "STATE_NAMES");
			break;
		case RXE_CC_A_QP_STATS:
			named_values(r, a, RXE_CC_A_STAT, RXE_CC_A_ST_NAME, RXE_CC_A_ST_VALUE,
			             out.stats, "QP_STATS");
			break;
		case RXE_CC_A_SFC: r.uint(a, out.sfc, "SFC"); break;
		default: break;
		}
	}
	if (r.status().ok() && !have_dev)
		r.fail("no DEV_NAME attribute");
	if (r.status().ok() && !have_qpn)
		r.fail("no QPN attribute");
	return r.status();
}

Status decode_stats(const GenlMsg &msg, DevStats &out)
{
	Reader r("STATS_GET");
	out = DevStats();
	std::vector<Attr> top;
	if (!r.top(msg, top))
		return r.status();
	bool have_dev = false;
	for (const Attr &a : top) {
		if (a.type == RXE_CC_A_DEV_NAME) {
			out.dev = a.as_string();
			have_dev = true;
		} else if (a.type == RXE_CC_A_STATS) {
			named_values(r, a, RXE_CC_A_STAT, RXE_CC_A_ST_NAME, RXE_CC_A_ST_VALUE,
			             out.stats, "STATS");
		}
	}
	if (r.status().ok() && !have_dev)
		r.fail("no DEV_NAME attribute");
	return r.status();
}

Status decode_rate_event(const GenlMsg &msg, RateEvent &out)
{
	Reader r("RATE_EVENT");
	out = RateEvent();
	if (msg.cmd != RXE_CC_CMD_RATE_EVENT)
		return Status::malformed("not a RATE_EVENT message (command " +
		                         std::to_string(msg.cmd) + ")");
	std::vector<Attr> top;
	if (!r.top(msg, top))
		return r.status();
	bool have_dev = false, have_qpn = false;
	for (const Attr &a : top) {
		switch (a.type) {
		case RXE_CC_A_DEV_NAME:
			out.dev = a.as_string();
			have_dev = true;
			break;
		case RXE_CC_A_QPN: have_qpn = r.u32(a, out.qpn, "QPN"); break;
		case RXE_CC_A_ALGO: out.algo = a.as_string(); break;
		case RXE_CC_A_RATE: r.uint(a, out.rate_bps, "RATE"); break;
		case RXE_CC_A_WINDOW: r.uint(a, out.window_bytes, "WINDOW"); break;
		case RXE_CC_A_TIME_NS: r.uint(a, out.time_ns, "TIME_NS"); break;
		case RXE_CC_A_EVENT: r.u32(a, out.events, "EVENT"); break;
		case RXE_CC_A_STATE: state_value(r, a, out.state); break;
		case RXE_CC_A_STATE_NAMES:
			named_values(r, a, RXE_CC_A_STATE, RXE_CC_A_S_NAME, RXE_CC_A_S_VALUE,
			             out.state, "STATE_NAMES");
			break;
		case RXE_CC_A_QP_STATS:
			named_values(r, a, RXE_CC_A_STAT, RXE_CC_A_ST_NAME, RXE_CC_A_ST_VALUE,
			             out.stats, "QP_STATS");
			break;
		default: break;
		}
	}
	if (r.status().ok() && !have_dev)
		r.fail("no DEV_NAME attribute");
	if (r.status().ok() && !have_qpn)
		r.fail("no QPN attribute");
	return r.status();
}

} // namespace rxecc
