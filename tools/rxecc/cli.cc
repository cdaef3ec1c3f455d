// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <rdma/rxe_cc.h>
#include <set>
#include <sstream>

#include "dscp_map.h"
#include "format.h"
#include "help.h"
#include "messages.h"
#include "parse.h"
#include "units.h"

#ifndef RXECC_VERSION
#define RXECC_VERSION "0.1.0"
#endif

namespace rxecc
{

const char *const kVersion = RXECC_VERSION;

namespace
{

// JSON documents keep their keys in the order they are written.
using Json = nlohmann::ordered_json;

// A rate per second as format_per_second() rounds it: an integer, or a
// number with one or two decimals.
Json per_second_json(std::uint64_t delta, std::uint64_t elapsed_ns)
{
	const std::string t = format_per_second(delta, elapsed_ns);
	if (t.find('.') == std::string::npos)
		return std::stoull(t);
	return std::stod(t);
}

// ---------------------------------------------------------------- errors

struct CliError {
	int code;
	std::string msg;
	std::string topic; // usage errors: the help topic to point at
};

[[noreturn]] void usage_error(const std::string &topic, std::string msg)
{
	throw CliError{kExitUsage, std::move(msg), topic};
}

[[noreturn]] void runtime_error(std::string msg)
{
	throw CliError{kExitError, std::move(msg), {}};
}

bool is_not_found(int err)
{
	return err == ENODEV || err == ENOENT || err == ENXIO || err == ESRCH;
}

std::string in_quotes(std::string_view s)
{
	return "'" + std::string(s) + "'";
}

std::string join(const std::vector<std::string> &v, std::string_view sep = ", ")
{
	std::string r;
	for (const std::string &s : v) {
		if (!r.empty())
			r += sep;
		r += s;
	}
	return r;
}

std::size_t edit_distance(std::string_view a, std::string_view b)
{
	std::vector<std::size_t> row(b.size() + 1);
	for (std::size_t j = 0; j <= b.size(); ++j)
		row[j] = j;
	for (std::size_t i = 1; i <= a.size(); ++i) {
		std::size_t diag = row[0];
		row[0] = i;
		for (std::size_t j = 1; j <= b.size(); ++j) {
			std::size_t up = row[j];
			row[j] = std::min({row[j] + 1, row[j - 1] + 1,
			                   diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
			diag = up;
		}
	}
	return row[b.size()];
}

// "; did you mean 'x'?" for a close candidate, else "".
std::string suggestion(std::string_view name, const std::vector<std::string> &candidates)
{
	std::string best;
	std::size_t best_d = std::max<std::size_t>(2, name.size() / 4) + 1;
	for (const std::string &c : candidates) {
		std::size_t d = edit_distance(name, c);
		if (d < best_d || (c.size() > name.size() && c.compare(0, name.size(), name) == 0 &&
		                   best.empty())) {
			best_d = std::min(d, best_d);
			best = c;
		}
	}
	return best.empty() ? "" : "; did you mean " + in_quotes(best) + "?";
}

// A (sub)command word or its abbreviation; as in iproute2, the first word
// of the list wins an ambiguous prefix ("s" is "show", not "set").
std::string match_word(std::string_view word, const std::vector<std::string> &words)
{
	if (word.empty())
		return {};
	for (const std::string &w : words)
		if (w.compare(0, word.size(), word) == 0)
			return w;
	return {};
}

// ---------------------------------------------------------------- options

struct OptSpec {
	char short_name;
	std::string_view long_name;
	bool takes_value;
};

struct Parsed {
	std::vector<std::string> positionals;
	std::map<char, std::string> opts;
	bool help = false;

	bool has(char c) const { return opts.count(c) != 0; }
};

struct GlobalOpts {
	bool json = false;
	bool pretty = false;
	bool details = false;
};

bool global_flag(char c, GlobalOpts &g)
{
	switch (c) {
	case 'j': g.json = true; return true;
	case 'p': g.pretty = g.json = true; return true;
	case 'd': g.details = true; return true;
	default: return false;
	}
}

bool global_long(std::string_view name, GlobalOpts &g)
{
	if (name == "json")
		return global_flag('j', g);
	if (name == "pretty")
		return global_flag('p', g);
	if (name == "details")
		return global_flag('d', g);
	return false;
}

// Splits a command's arguments into operands and options (its own, the
// global -j/-p/-d and -h/--help). `stop_at_operand` stops at the first
// operand (the command word of the tool).
Parsed parse_args(const std::vector<std::string> &args, std::size_t from,
                  const std::vector<OptSpec> &specs, GlobalOpts &g, const std::string &topic,
                  std::size_t *stopped_at = nullptr)
{
	Parsed p;
	bool options_done = false;
	for (std::size_t i = from; i < args.size(); ++i) {
		const std::string &a = args[i];
		// "-1" is a (bad) value, not an option: the value's check says why.
		bool negative = a.size() >= 2 && a[0] == '-' && a[1] >= '0' && a[1] <= '9';
		if (options_done || a.size() < 2 || a[0] != '-' || negative) {
			if (stopped_at) {
				*stopped_at = i;
				return p;
			}
			p.positionals.push_back(a);
			continue;
		}
		if (a == "--") {
			options_done = true;
			continue;
		}
		if (a[1] == '-') {
			std::string name = a.substr(2);
			std::optional<std::string> value;
			if (std::size_t eq = name.find('='); eq != std::string::npos) {
				value = name.substr(eq + 1);
				name.resize(eq);
			}
			if (name == "help" && !value) {
				p.help = true;
				continue;
			}
			if (!value && global_long(name, g))
				continue;
			const OptSpec *spec = nullptr;
			for (const OptSpec &s : specs)
				if (s.long_name == name)
					spec = &s;
			if (!spec)
				usage_error(topic, "unknown option " + in_quotes(a));
			if (spec->takes_value) {
				if (!value) {
					if (i + 1 >= args.size())
						usage_error(topic, "option " +
						                           in_quotes("--" + name) +
						                           " needs a value");
					value = args[++i];
				}
				p.opts[spec->short_name] = *value;
			} else {
				if (value)
					usage_error(topic, "option " + in_quotes("--" + name) +
					                           " takes no value");
				p.opts[spec->short_name] = "";
			}
			continue;
		}
		for (std::size_t k = 1; k < a.size(); ++k) {
			char c = a[k];
			if (c == 'h') {
				p.help = true;
				continue;
			}
			if (global_flag(c, g))
				continue;
			const OptSpec *spec = nullptr;
			for (const OptSpec &s : specs)
				if (s.short_name == c)
					spec = &s;
			if (!spec)
				usage_error(topic,
				            "unknown option " + in_quotes(std::string("-") + c) +
				                    (a.size() > 2 ? " in " + in_quotes(a) : ""));
			if (!spec->takes_value) {
				p.opts[c] = "";
				continue;
			}
			if (k + 1 < a.size()) {
				p.opts[c] = a.substr(k + 1);
			} else {
				if (i + 1 >= args.size())
					usage_error(topic, "option " +
					                           in_quotes(std::string("-") + c) +
					                           " needs a value");
				p.opts[c] = args[++i];
			}
			break;
		}
	}
	if (stopped_at)
		*stopped_at = args.size();
	return p;
}

// ---------------------------------------------------------------- context

class Ctx
{
public:
	explicit Ctx(Env &e) : env(e) {}

	Env &env;
	GlobalOpts g;
	std::string topic;

	Transport &tp()
	{
		if (!tp_) {
			std::unique_ptr<Transport> t;
			Status s = env.connect(t);
			if (!s.ok())
				fail(s, "connect");
			if (!t)
				runtime_error("connect: no transport");
			tp_ = std::move(t);
		}
		return *tp_;
	}

	Status call(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies)
	{
		replies.clear();
		return tp().request(req, dump, replies);
	}

	// A request that must succeed; errors become messages for the operator.
	std::vector<GenlMsg> must(const GenlMsg &req, bool dump, const std::string &what,
	                          const std::string &dev = {},
	                          std::optional<std::uint32_t> qpn = std::nullopt,
	                          bool write = false)
	{
		std::vector<GenlMsg> replies;
		Status s = call(req, dump, replies);
		if (!s.ok())
			fail(s, what, dev, qpn, write);
		// A success with a message: the kernel accepted a legal but
		// doubtful setting.
		if (!s.extack.empty())
			env.err << "rxecc: warning: " << what << ": " << s.extack << '\n';
		if (!dump && replies.empty() && req.cmd != RXE_CC_CMD_DEV_SET &&
		    req.cmd != RXE_CC_CMD_QP_SET)
			fail(Status::malformed("no reply message"), what);
		return replies;
	}

	const std::vector<AlgoInfo> &algos()
	{
		if (!algos_) {
			std::vector<AlgoInfo> list;
			for (const GenlMsg &m : must(algo_get_request(), true, "algo")) {
				AlgoInfo a;
				Status s = decode_algo(m, a);
				if (!s.ok())
					fail(s, "algo");
				list.push_back(std::move(a));
			}
			algos_ = std::move(list);
		}
		return *algos_;
	}

	const AlgoInfo *lookup_algo(std::string_view name)
	{
		for (const AlgoInfo &a : algos())
			if (a.name == name)
				return &a;
		return nullptr;
	}

	std::vector<std::string> algo_names()
	{
		std::vector<std::string> v;
		for (const AlgoInfo &a : algos())
			v.push_back(a.name);
		return v;
	}

	// An algorithm named on the command line: unknown is a usage error.
	const AlgoInfo &algo_arg(const std::string &name)
	{
		if (const AlgoInfo *a = lookup_algo(name))
			return *a;
		std::vector<std::string> names = algo_names();
		usage_error(topic, "unknown algorithm " + in_quotes(name) +
		                           suggestion(name, names) + "; available: " + join(names));
	}

	// Names of the rxe devices, best effort (for error messages).
	std::vector<std::string> dev_names()
	{
		std::vector<std::string> names;
		std::vector<GenlMsg> replies;
		if (!call(dev_get_request(""), true, replies).ok())
			return names;
		for (const GenlMsg &m : replies) {
			DevInfo d;
			if (decode_dev(m, d).ok())
				names.push_back(d.name);
		}
		return names;
	}

	[[noreturn]] void device_not_found(const std::string &dev, const std::string &tail)
	{
		std::vector<std::string> names = dev_names();
		runtime_error("device " + in_quotes(dev) + " not found" +
		              (names.empty()
		                       ? "; there are no rxe devices"
		                       : suggestion(dev, names) + "; rxe devices: " + join(names)) +
		              tail);
	}

	[[noreturn]] void fail(const Status &s, const std::string &what,
	                       const std::string &dev = {},
	                       std::optional<std::uint32_t> qpn = std::nullopt, bool write = false)
	{
		switch (s.kind) {
		case Status::kNoFamily:
			runtime_error(
				"the patched rdma_rxe module is not loaded: the kernel has no "
				"generic netlink family '" RXE_CC_GENL_NAME "'");
		case Status::kSystem:
			runtime_error(what + ": " + s.detail + ": " + std::strerror(s.err));
		case Status::kMalformed:
			runtime_error(what + ": unexpected reply from the kernel (" + s.detail +
			              "); do rxecc and the rdma_rxe module match?");
		case Status::kInterrupted: runtime_error(what + ": interrupted");
		case Status::kOk:
		case Status::kKernel: break;
		}
		const std::string tail = s.extack.empty() ? "" : " (kernel: " + s.extack + ")";
		if (s.err == EPERM || s.err == EACCES) {
			runtime_error(what + ": permission denied" +
			              (write ? ": changing congestion control settings needs "
			                       "CAP_NET_ADMIN (run as root)"
			                     : "") +
			              tail);
		}
		if (is_not_found(s.err) && !dev.empty()) {
			// Which of the names was not found? Ask with reads.
			std::vector<GenlMsg> replies;
			Status probe = call(dev_get_request(dev), false, replies);
			if (!probe.ok() && probe.kind == Status::kKernel && is_not_found(probe.err))
				device_not_found(dev, tail);
			if (probe.ok() && qpn) {
				probe = call(qp_get_request(dev, qpn), false, replies);
				if (!probe.ok() && probe.kind == Status::kKernel &&
				    is_not_found(probe.err))
					runtime_error("QP " + std::to_string(*qpn) +
					              " not found on " + dev + tail);
			}
		}
		if (!s.extack.empty())
			runtime_error(what + ": " + s.extack + " (" + std::strerror(s.err) + ")");
		runtime_error(what + ": " + std::strerror(s.err));
	}

	// Output of a JSON document: one line, or indented with -p. Invalid
	// UTF-8 in a kernel string becomes U+FFFD.
	void print_json(const Json &j)
	{
		env.out << j.dump(g.pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace)
			<< '\n';
	}

private:
	std::unique_ptr<Transport> tp_;
	std::optional<std::vector<AlgoInfo>> algos_;
};

std::uint32_t unit_of_param(const AlgoInfo *a, const std::string &name)
{
	const ParamInfo *p = a ? a->find_param(name) : nullptr;
	return p ? p->unit : std::uint32_t{RXE_CC_UNIT_ID_NONE};
}

std::uint32_t unit_of_state(const AlgoInfo *a, const std::string &name)
{
	const StateInfo *s = a ? a->find_state(name) : nullptr;
	return s ? s->unit : std::uint32_t{RXE_CC_UNIT_ID_NONE};
}

void no_more(const Ctx &ctx, const std::vector<std::string> &p, std::size_t n)
{
	if (p.size() > n)
		usage_error(ctx.topic, "unexpected argument " + in_quotes(p[n]));
}

// Limits of the device settings that the kernel enforces but the uapi
// header does not export (rxe_cc_nl.c); a header that defines them wins.
#ifdef RXE_CC_LINE_RATE_MIN
constexpr std::uint64_t kLineRateMin = RXE_CC_LINE_RATE_MIN;
#else
constexpr std::uint64_t kLineRateMin = 1000000ULL;      // 1 Mbit/s
#endif
#ifdef RXE_CC_LINE_RATE_MAX
constexpr std::uint64_t kLineRateMax = RXE_CC_LINE_RATE_MAX;
#else
constexpr std::uint64_t kLineRateMax = 800000000000ULL; // 800 Gbit/s
#endif
#ifdef RXE_CC_BASE_RTT_MAX
constexpr std::uint64_t kBaseRttMax = RXE_CC_BASE_RTT_MAX;
#else
constexpr std::uint64_t kBaseRttMax = 10000000000ULL;   // 10 s
#endif
#ifdef RXE_CC_ACK_EVERY_MAX
constexpr std::uint32_t kAckEveryMax = RXE_CC_ACK_EVERY_MAX;
#else
constexpr std::uint32_t kAckEveryMax = 1024;
#endif
// IB_DEVICE_NAME_MAX - 1
constexpr std::size_t kDevNameMax = 63;

void check_dev_name(const Ctx &ctx, const std::string &dev)
{
	if (dev.size() > kDevNameMax)
		usage_error(ctx.topic, "device name " + in_quotes(dev.substr(0, 16) + "...") +
		                               " is too long (at most " +
		                               std::to_string(kDevNameMax) + " characters)");
}

// ---------------------------------------------------------------- algo

int cmd_algo(Ctx &ctx, const std::vector<std::string> &args)
{
	ctx.topic = "algo";
	Parsed p = parse_args(args, 0, {}, ctx.g, ctx.topic);
	if (p.help) {
		ctx.env.out << help_text("algo");
		return kExitOk;
	}
	no_more(ctx, p.positionals, 1);
	std::vector<const AlgoInfo *> list;
	if (!p.positionals.empty()) {
		list.push_back(&ctx.algo_arg(p.positionals[0]));
	} else {
		for (const AlgoInfo &a : ctx.algos())
			list.push_back(&a);
	}

	if (ctx.g.json) {
		Json doc = Json::array();
		for (const AlgoInfo *a : list) {
			Json ja = {{"name", a->name}};
			Json params = Json::array();
			for (const ParamInfo &pi : a->params)
				params.push_back({{"name", pi.name},
				                  {"unit", unit_id(pi.unit)},
				                  {"default", std::uint64_t{pi.def}},
				                  {"min", std::uint64_t{pi.min}},
				                  {"max", std::uint64_t{pi.max}},
				                  {"help", pi.help}});
			ja["params"] = std::move(params);
			Json state = Json::array();
			for (const StateInfo &si : a->state)
				state.push_back({{"name", si.name}, {"unit", unit_id(si.unit)}});
			ja["state"] = std::move(state);
			doc.push_back(std::move(ja));
		}
		ctx.print_json(doc);
		return kExitOk;
	}

	std::ostream &os = ctx.env.out;
	bool first = true;
	for (const AlgoInfo *a : list) {
		if (!first)
			os << '\n';
		first = false;
		os << a->name;
		os << '\n';
		if (a->params.empty()) {
			os << "    no parameters\n";
		} else {
			Table t;
			t.row({"PARAMETER", "UNIT", "DEFAULT", "MIN", "MAX", "DESCRIPTION"});
			for (const ParamInfo &pi : a->params) {
				std::string unit = unit_label(pi.unit);
				t.row({pi.name, unit.empty() ? "-" : unit, std::to_string(pi.def),
				       std::to_string(pi.min), std::to_string(pi.max), pi.help});
			}
			t.print(os, "    ");
		}
		if (!a->state.empty()) {
			std::vector<std::pair<std::string, std::string>> items;
			std::string line = "    state:";
			for (std::size_t i = 0; i < a->state.size(); ++i) {
				const StateInfo &si = a->state[i];
				std::string u = unit_label(si.unit);
				std::string tok = si.name + (u.empty() ? "" : " (" + u + ")") +
				                  (i + 1 < a->state.size() ? "," : "");
				if (line.size() + 1 + tok.size() > 100) {
					os << line << '\n';
					line = "           ";
					line += tok;
				} else {
					line += " " + tok;
				}
			}
			os << line << '\n';
		}
	}
	return kExitOk;
}

// ---------------------------------------------------------------- dev

Json json_params(const std::vector<NamedValue> &params)
{
	Json o = Json::object();
	for (const NamedValue &nv : params)
		o[nv.name] = nv.value;
	return o;
}

// "NAME: key value key value ...", continued on lines indented by four
// spaces where it would pass 100 columns.
void print_head(std::ostream &os, const std::string &first,
                const std::vector<std::pair<std::string, std::string>> &pairs)
{
	std::string line = first;
	for (const auto &[k, v] : pairs) {
		const std::string tok = k + " " + v;
		if (line.size() + 1 + tok.size() > 100 && line != first) {
			os << line << '\n';
			line = "    " + tok;
			continue;
		}
		line += " " + tok;
	}
	os << line << '\n';
}

// A time in us as 'dev set' takes it back: "50ms", "500us".
std::string format_us(std::uint64_t us)
{
	if (us > UINT64_MAX / 1000)
		return std::to_string(us) + "us";
	return units::format_time_ns(us * 1000);
}

// The device's DSCP map as 'dev set ... dscp_prio' takes it back.
std::string format_dscp_prio(const DscpPrio &m)
{
	const std::string s = dscp::format(m);
	return s.empty() ? "none" : s;
}

int cmd_dev_show(Ctx &ctx, const std::vector<std::string> &args)
{
	ctx.topic = "dev show";
	Parsed p = parse_args(args, 0, {}, ctx.g, ctx.topic);
	if (p.help) {
		ctx.env.out << help_text("dev show");
		return kExitOk;
	}
	const std::vector<std::string> &pos = p.positionals;
	std::string dev, algo;
	std::size_t i = 0;
	if (i < pos.size() && pos[i] != "algo")
		dev = pos[i++];
	if (i < pos.size()) {
		if (pos[i] != "algo")
			usage_error(ctx.topic, "unexpected argument " + in_quotes(pos[i]));
		if (i + 1 >= pos.size())
			usage_error(ctx.topic, "'algo' needs an algorithm name");
		algo = pos[i + 1];
		i += 2;
	}
	no_more(ctx, pos, i);
	check_dev_name(ctx, dev);

	if (!algo.empty())
		ctx.algo_arg(algo);
	else
		ctx.algos();
	std::string what = dev.empty() ? "dev show" : "dev show " + dev;
	std::vector<DevInfo> devs;
	for (const GenlMsg &m : ctx.must(dev_get_request(dev, algo), dev.empty(), what, dev)) {
		DevInfo d;
		Status s = decode_dev(m, d);
		if (!s.ok())
			ctx.fail(s, what);
		devs.push_back(std::move(d));
	}

	if (ctx.g.json) {
		Json doc = Json::array();
		for (const DevInfo &d : devs) {
			Json jd = {{"dev", d.name}};
			if (d.index)
				jd["index"] = std::uint64_t{*d.index};
			jd["algo"] = d.algo;
			auto opt = [&jd](const char *k, const std::optional<std::uint64_t> &v) {
				if (v)
					jd[k] = *v;
			};
			opt("line_rate_bps", d.line_rate_bps);
			opt("base_rtt_ns", d.base_rtt_ns);
			if (d.ecn)
				jd["ecn"] = *d.ecn != 0;
			opt("ack_every", d.ack_every);
			opt("cnp_dscp", d.cnp_dscp);
			opt("ack_dscp", d.ack_dscp);
			if (d.dscp_prio) {
				// DSCP -> priority, the DSCPs not on priority 0
				Json m = Json::object();
				for (std::size_t ds = 0; ds < d.dscp_prio->size(); ++ds)
					if ((*d.dscp_prio)[ds])
						m[std::to_string(ds)] =
							std::uint64_t{(*d.dscp_prio)[ds]};
				jd["dscp_prio"] = std::move(m);
			}
			if (d.sfc)
				jd["sfc"] = *d.sfc != 0;
			opt("sfc_max_us", d.sfc_max_us);
			if (d.sfc_mode)
				jd["sfc_mode"] = sfc_mode_name(*d.sfc_mode);
			jd["params_algo"] = algo.empty() ? d.algo : algo;
			jd["params"] = json_params(d.params);
			jd["params_user"] = d.user_params;
			doc.push_back(std::move(jd));
		}
		ctx.print_json(doc);
		return kExitOk;
	}

	std::ostream &os = ctx.env.out;
	bool first = true;
	for (const DevInfo &d : devs) {
		if (!first)
			os << '\n';
		first = false;
		std::vector<std::pair<std::string, std::string>> head;
		if (ctx.g.details && d.index)
			head.emplace_back("index", std::to_string(*d.index));
		head.emplace_back("algo", d.algo.empty() ? "-" : d.algo);
		if (d.line_rate_bps)
			head.emplace_back("line_rate", *d.line_rate_bps ? units::format_rate_bps(
										  *d.line_rate_bps)
			                                                : "auto");
		if (d.base_rtt_ns)
			head.emplace_back("base_rtt",
			                  *d.base_rtt_ns ? units::format_time_ns(*d.base_rtt_ns)
			                                 : "unknown");
		if (d.ecn)
			head.emplace_back("ecn", *d.ecn ? "on" : "off");
		if (d.ack_every)
			head.emplace_back("ack_every",
			                  *d.ack_every ? std::to_string(*d.ack_every) : "default");
		if (d.cnp_dscp)
			head.emplace_back("cnp_dscp", std::to_string(*d.cnp_dscp));
		if (d.ack_dscp)
			head.emplace_back("ack_dscp", *d.ack_dscp == kAckDscpOwn
			                                      ? "own"
			                                      : std::to_string(*d.ack_dscp));
		if (d.dscp_prio)
			head.emplace_back("dscp_prio", format_dscp_prio(*d.dscp_prio));
		if (d.sfc)
			head.emplace_back("sfc", *d.sfc ? "on" : "off");
		if (d.sfc_max_us)
			head.emplace_back("sfc_max", format_us(*d.sfc_max_us));
		if (d.sfc_mode)
			head.emplace_back("sfc_mode", sfc_mode_name(*d.sfc_mode));
		print_head(os, d.name + ":", head);

		const std::string palgo = algo.empty() ? d.algo : algo;
		const AlgoInfo *a = ctx.lookup_algo(palgo);
		if (d.params.empty())
			continue;
		// A parameter the user set keeps its value when line_rate or
		// base_rtt change; a '*' after the value marks it.
		auto value = [&](const NamedValue &nv, std::uint32_t unit) {
			return format_param_value(unit, nv.value) +
			       (d.user_set(nv.name) ? "*" : "");
		};
		os << "    " << palgo << " parameters"
		   << (d.user_params.empty() ? "" : " (* = set by the user)") << ":\n";
		if (ctx.g.details) {
			Table t;
			t.row({"PARAMETER", "VALUE", "RANGE", "DESCRIPTION"});
			for (const NamedValue &nv : d.params) {
				const ParamInfo *pi = a ? a->find_param(nv.name) : nullptr;
				t.row({nv.name, value(nv, pi ? pi->unit : 0),
				       pi ? format_range(*pi) : "", pi ? pi->help : ""});
			}
			t.print(os, "        ");
		} else {
			std::vector<std::pair<std::string, std::string>> pairs;
			for (const NamedValue &nv : d.params)
				pairs.emplace_back(nv.name, value(nv, unit_of_param(a, nv.name)));
			print_pairs(os, pairs, "        ");
		}
	}
	return kExitOk;
}

// Reads "PARAM VALUE" pairs for `algo`; unknown names and bad values are
// usage errors.
std::vector<NamedValue> check_params(Ctx &ctx, const AlgoInfo &algo,
                                     const std::vector<std::pair<std::string, std::string>> &raw,
                                     const std::string &whose)
{
	std::vector<NamedValue> out;
	for (const auto &[name, text] : raw) {
		const ParamInfo *pi = algo.find_param(name);
		if (!pi) {
			if (algo.params.empty())
				usage_error(ctx.topic, "algorithm " + in_quotes(algo.name) +
				                               " has no parameters, so " +
				                               in_quotes(name) + " cannot be set" +
				                               whose);
			std::vector<std::string> names;
			for (const ParamInfo &q : algo.params)
				names.push_back(q.name);
			usage_error(ctx.topic, "algorithm " + in_quotes(algo.name) +
			                               " has no parameter " + in_quotes(name) +
			                               whose + suggestion(name, names) +
			                               "; its parameters: " + join(names));
		}
		std::uint32_t v;
		std::string err;
		if (!parse_param_value(*pi, text, v, err))
			usage_error(ctx.topic, err);
		out.push_back({name, v});
	}
	return out;
}

const std::set<std::string> kDevKeywords = {
	"algo",     "line_rate", "base_rtt", "ecn",     "ack_every", "cnp_dscp",
	"ack_dscp", "dscp_prio", "sfc",      "sfc_max", "sfc_mode",
};

int cmd_dev_set(Ctx &ctx, const std::vector<std::string> &args)
{
	ctx.topic = "dev set";
	Parsed p = parse_args(args, 0, {}, ctx.g, ctx.topic);
	if (p.help) {
		ctx.env.out << help_text("dev set");
		return kExitOk;
	}
	const std::vector<std::string> &pos = p.positionals;
	if (pos.empty())
		usage_error(ctx.topic, "missing DEV");
	if (kDevKeywords.count(pos[0]))
		usage_error(ctx.topic, "missing DEV before " + in_quotes(pos[0]));
	DevSet set;
	set.dev = pos[0];
	check_dev_name(ctx, set.dev);
	std::vector<std::pair<std::string, std::string>> raw_params;
	std::set<std::string> seen;
	for (std::size_t i = 1; i < pos.size(); i += 2) {
		const std::string &kw = pos[i];
		bool keyword = kDevKeywords.count(kw) != 0;
		if (i + 1 >= pos.size())
			usage_error(ctx.topic,
			            (keyword ? in_quotes(kw) : "parameter " + in_quotes(kw)) +
			                    " needs a value");
		const std::string &val = pos[i + 1];
		if (!seen.insert(kw).second)
			usage_error(ctx.topic, in_quotes(kw) + " is given twice");
		std::string err;
		if (kw == "algo") {
			set.algo = val;
		} else if (kw == "line_rate") {
			std::uint64_t bps = 0;
			if (val != "auto") {
				auto r = units::parse_rate_bps(val, &err);
				if (!r)
					usage_error(ctx.topic, "line_rate: " + err);
				bps = *r;
			}
			if (bps && (bps < kLineRateMin || bps > kLineRateMax))
				usage_error(ctx.topic,
				            "line_rate: " + val + " is out of range " +
				                    units::format_rate_bps(kLineRateMin) + ".." +
				                    units::format_rate_bps(kLineRateMax) +
				                    " (or 0 or auto for the netdev's speed)");
			set.line_rate_bps = bps;
		} else if (kw == "base_rtt") {
			std::uint64_t ns = 0;
			if (val != "unknown") {
				auto t = units::parse_time_ns(val, &err);
				if (!t)
					usage_error(ctx.topic, "base_rtt: " + err);
				ns = *t;
			}
			if (ns > kBaseRttMax)
				usage_error(ctx.topic, "base_rtt: " + val + " is out of range 0.." +
				                               units::format_time_ns(kBaseRttMax));
			set.base_rtt_ns = ns;
		} else if (kw == "ecn") {
			bool on;
			if (!parse_bool(val, on, err))
				usage_error(ctx.topic, "ecn: " + err);
			set.ecn = on;
		} else if (kw == "ack_every") {
			std::uint32_t n = 0;
			if (val != "default" && !parse_u32(val, n, err))
				usage_error(ctx.topic, "ack_every: " + err);
			if (n > kAckEveryMax)
				usage_error(ctx.topic, "ack_every: " + val +
				                               " is out of range 0.." +
				                               std::to_string(kAckEveryMax));
			set.ack_every = n;
		} else if (kw == "cnp_dscp" || kw == "ack_dscp") {
			std::uint32_t n = kAckDscpOwn;
			if (!(kw == "ack_dscp" && val == "own")) {
				if (!parse_u32(val, n, err))
					usage_error(ctx.topic,
					            kw + ": " + err + "; expected a DSCP, 0..63" +
					                    (kw == "ack_dscp" ? ", or own" : ""));
				if (n > 63)
					usage_error(ctx.topic,
					            kw + ": " + val + " is out of range 0..63" +
					                    (kw == "ack_dscp" ? " (or own)" : ""));
			}
			(kw == "cnp_dscp" ? set.cnp_dscp : set.ack_dscp) =
				static_cast<std::uint8_t>(n);
		} else if (kw == "dscp_prio") {
			// the form of the module parameter; "none" as 'dev show'
			// prints an empty map
			auto m = dscp::parse(val == "none" ? "" : val, &err);
			if (!m)
				usage_error(ctx.topic, "dscp_prio: " + err);
			set.dscp_prio = *m;
		} else if (kw == "sfc") {
			bool on;
			if (!parse_bool(val, on, err))
				usage_error(ctx.topic, "sfc: " + err);
			set.sfc = on;
		} else if (kw == "sfc_max") {
			std::uint32_t us;
			if (!parse_sfc_max_us(val, us, err))
				usage_error(ctx.topic, "sfc_max: " + err);
			set.sfc_max_us = us;
		} else if (kw == "sfc_mode") {
			std::uint8_t mode;
			if (!parse_sfc_mode(val, mode, err))
				usage_error(ctx.topic, "sfc_mode: " + err);
			set.sfc_mode = mode;
		} else {
			raw_params.emplace_back(kw, val);
		}
	}
	if (pos.size() == 1)
		usage_error(ctx.topic, "nothing to set for " + set.dev);

	// Everything below only reads until the final DEV_SET.
	const std::string what = "dev set " + set.dev;
	std::vector<GenlMsg> cur_msgs = ctx.must(dev_get_request(set.dev), false, what, set.dev);
	DevInfo cur;
	Status s = decode_dev(cur_msgs.front(), cur);
	if (!s.ok())
		ctx.fail(s, what);
	const AlgoInfo *target = nullptr;
	if (set.algo)
		target = &ctx.algo_arg(*set.algo);
	if (!raw_params.empty()) {
		std::string whose;
		if (!target) {
			target = ctx.lookup_algo(cur.algo);
			if (!target)
				runtime_error(what + ": the kernel reports default algorithm " +
				              in_quotes(cur.algo) + ", which it does not list");
			whose = " (parameters apply to the default algorithm of " + set.dev +
			        "; name another with 'algo NAME')";
		}
		set.params = check_params(ctx, *target, raw_params, whose);
	}
	ctx.must(dev_set_request(set), false, what, set.dev, std::nullopt, true);
	return kExitOk;
}

// ---------------------------------------------------------------- qp

std::uint32_t parse_qpn(const Ctx &ctx, const std::string &s)
{
	std::uint32_t qpn;
	std::string err;
	if (!parse_u32(s, qpn, err))
		usage_error(ctx.topic, "QPN: " + err);
	if (qpn > 0xffffff)
		usage_error(ctx.topic, "QPN " + s + " is out of range: QP numbers have 24 bits");
	return qpn;
}

const NamedValue *find_value(const std::vector<NamedValue> &v, std::string_view name)
{
	for (const NamedValue &nv : v)
		if (nv.name == name)
			return &nv;
	return nullptr;
}

// The QP counters 'qp show' prints without -d: bytes in flight, bytes
// acknowledged, packets retransmitted.
struct ShownCounter {
	const char *name;  // in QP_STATS and in JSON
	const char *label; // for people
	bool bytes;
};
const ShownCounter kQpShowCounters[] = {
	{"inflight_bytes", "inflight", true},
	{"acked_bytes", "acked", true},
	{"retx_pkts", "retx", false},
};

// SFC's counters of a QP for people, in the kernel's order: the times in
// us with a unit ("pause_last 500us").
std::vector<std::pair<std::string, std::string>> sfc_pairs(const std::vector<NamedValue> &stats)
{
	std::vector<std::pair<std::string, std::string>> pairs;
	for (const NamedValue &nv : stats) {
		if (!is_sfc_stat(nv.name))
			continue;
		const std::string_view us = "_us";
		const std::string &n = nv.name;
		if (n.size() > us.size() && n.compare(n.size() - us.size(), us.size(), us) == 0 &&
		    nv.value <= UINT64_MAX / 1000)
			pairs.emplace_back(n.substr(0, n.size() - us.size()),
			                   nv.value ? format_time_ns(nv.value * 1000) : "0");
		else
			pairs.emplace_back(n, std::to_string(nv.value));
	}
	return pairs;
}

// "LABEL name value ...", continued under the first name.
void print_group(std::ostream &os, const std::string &label,
                 const std::vector<std::pair<std::string, std::string>> &pairs)
{
	std::ostringstream text;
	print_pairs(text, pairs, std::string(label.size(), ' '));
	std::string s = text.str();
	s.replace(0, label.size(), label);
	os << s;
}

void print_qp_human(Ctx &ctx, const QpInfo &q)
{
	std::ostream &os = ctx.env.out;
	const AlgoInfo *a = ctx.lookup_algo(q.algo);
	std::vector<std::pair<std::string, std::string>> head = {
		{"qpn", std::to_string(q.qpn)}, {"algo", q.algo.empty() ? "-" : q.algo}};
	if (q.rate_bps)
		head.emplace_back("rate", *q.rate_bps ? format_rate_bps(*q.rate_bps) : "unpaced");
	if (q.window_bytes)
		head.emplace_back("window",
		                  *q.window_bytes ? format_bytes(*q.window_bytes) : "none");
	for (const ShownCounter &c : kQpShowCounters)
		if (const NamedValue *nv = find_value(q.stats, c.name))
			head.emplace_back(c.label, c.bytes ? format_bytes(nv->value)
			                                   : std::to_string(nv->value));
	if (q.sfc)
		head.emplace_back("sfc", *q.sfc ? "on" : "off");
	print_head(os, q.dev, head);
	std::vector<std::pair<std::string, std::string>> pairs;
	for (const NamedValue &nv : q.state)
		pairs.emplace_back(nv.name,
		                   format_state_value(unit_of_state(a, nv.name), nv.value));
	print_pairs(os, pairs, "    ");
	// SFC's pauses: for a QP that takes BTS or took some, or with -d.
	bool sfc_active = q.sfc && *q.sfc;
	for (const NamedValue &nv : q.stats)
		if (is_sfc_stat(nv.name) && nv.value)
			sfc_active = true;
	pairs = sfc_pairs(q.stats);
	if (!pairs.empty() && (sfc_active || ctx.g.details))
		print_group(os, "    sfc: ", pairs);
	if (!ctx.g.details)
		return;
	if (!q.params.empty()) {
		os << "    parameters:\n";
		pairs.clear();
		for (const NamedValue &nv : q.params)
			pairs.emplace_back(nv.name,
			                   format_param_value(unit_of_param(a, nv.name), nv.value));
		print_pairs(os, pairs, "        ");
	}
	// The congestion control's counters; SFC's are above.
	pairs.clear();
	for (const NamedValue &nv : q.stats)
		if (!is_sfc_stat(nv.name))
			pairs.emplace_back(nv.name, std::to_string(nv.value));
	if (!pairs.empty()) {
		os << "    counters:\n";
		print_pairs(os, pairs, "        ");
	}
}

// The QPs of `dev`, or of every device; a device that disappears during
// the walk over all devices is skipped.
std::vector<QpInfo> collect_qps(Ctx &ctx, const std::string &dev, const std::string &what)
{
	std::vector<std::string> devs;
	if (!dev.empty()) {
		devs.push_back(dev);
	} else {
		for (const GenlMsg &m : ctx.must(dev_get_request(""), true, what)) {
			DevInfo d;
			Status s = decode_dev(m, d);
			if (!s.ok())
				ctx.fail(s, what);
			devs.push_back(d.name);
		}
	}
	std::vector<QpInfo> qps;
	for (const std::string &d : devs) {
		std::vector<GenlMsg> replies;
		Status s = ctx.call(qp_get_request(d, std::nullopt), true, replies);
		if (!s.ok()) {
			if (dev.empty() && s.kind == Status::kKernel && is_not_found(s.err))
				continue;
			ctx.fail(s, what, d);
		}
		// The kernel filters a dump by DEV_NAME: a device that does not
		// exist gives an empty dump, not an error.
		if (replies.empty() && !dev.empty()) {
			std::vector<GenlMsg> probe;
			Status ps = ctx.call(dev_get_request(d), false, probe);
			if (!ps.ok())
				ctx.fail(ps, what, d);
		}
		for (const GenlMsg &m : replies) {
			QpInfo q;
			Status ds = decode_qp(m, q);
			if (!ds.ok())
				ctx.fail(ds, what);
			qps.push_back(std::move(q));
		}
	}
	return qps;
}

int cmd_qp_show(Ctx &ctx, const std::vector<std::string> &args)
{
	ctx.topic = "qp show";
	Parsed p = parse_args(args, 0, {}, ctx.g, ctx.topic);
	if (p.help) {
		ctx.env.out << help_text("qp show");
		return kExitOk;
	}
	const std::vector<std::string> &pos = p.positionals;
	no_more(ctx, pos, 2);
	std::string dev = pos.empty() ? "" : pos[0];
	check_dev_name(ctx, dev);
	std::optional<std::uint32_t> qpn;
	if (pos.size() > 1)
		qpn = parse_qpn(ctx, pos[1]);

	ctx.algos();
	std::string what = "qp show" + (dev.empty() ? "" : " " + dev) +
	                   (qpn ? " " + std::to_string(*qpn) : "");
	std::vector<QpInfo> qps;
	if (qpn) {
		for (const GenlMsg &m : ctx.must(qp_get_request(dev, qpn), false, what, dev, qpn)) {
			QpInfo q;
			Status s = decode_qp(m, q);
			if (!s.ok())
				ctx.fail(s, what);
			qps.push_back(std::move(q));
		}
	} else {
		qps = collect_qps(ctx, dev, what);
	}

	if (ctx.g.json) {
		Json doc = Json::array();
		for (const QpInfo &q : qps) {
			Json jq = {{"dev", q.dev}, {"qpn", std::uint64_t{q.qpn}}, {"algo", q.algo}};
			if (q.rate_bps)
				jq["rate_bps"] = *q.rate_bps;
			if (q.window_bytes)
				jq["window_bytes"] = *q.window_bytes;
			for (const ShownCounter &c : kQpShowCounters)
				if (const NamedValue *nv = find_value(q.stats, c.name))
					jq[c.name] = nv->value;
			if (q.sfc)
				jq["sfc"] = *q.sfc != 0;
			jq["state"] = json_params(q.state);
			Json sfc_stats = Json::object();
			for (const NamedValue &nv : q.stats)
				if (is_sfc_stat(nv.name))
					sfc_stats[nv.name] = nv.value;
			if (!sfc_stats.empty())
				jq["sfc_stats"] = std::move(sfc_stats);
			if (ctx.g.details) {
				jq["params"] = json_params(q.params);
				jq["stats"] = json_params(q.stats);
			}
			doc.push_back(std::move(jq));
		}
		ctx.print_json(doc);
		return kExitOk;
	}
	for (const QpInfo &q : qps)
		print_qp_human(ctx, q);
	return kExitOk;
}

int cmd_qp_set(Ctx &ctx, const std::vector<std::string> &args)
{
	ctx.topic = "qp set";
	Parsed p = parse_args(args, 0, {}, ctx.g, ctx.topic);
	if (p.help) {
		ctx.env.out << help_text("qp set");
		return kExitOk;
	}
	const std::vector<std::string> &pos = p.positionals;
	auto keyword = [](const std::string &w) { return w == "algo" || w == "sfc"; };
	if (pos.empty() || keyword(pos[0]))
		usage_error(ctx.topic, "missing DEV");
	if (pos.size() < 2 || keyword(pos[1]))
		usage_error(ctx.topic, "missing QPN");
	QpSet set;
	set.dev = pos[0];
	check_dev_name(ctx, set.dev);
	set.qpn = parse_qpn(ctx, pos[1]);
	std::optional<std::string> algo;
	std::vector<std::pair<std::string, std::string>> raw_params;
	std::set<std::string> seen;
	for (std::size_t i = 2; i < pos.size(); i += 2) {
		const std::string &kw = pos[i];
		if (i + 1 >= pos.size())
			usage_error(ctx.topic,
			            (keyword(kw) ? in_quotes(kw) : "parameter " + in_quotes(kw)) +
			                    " needs a value");
		if (!seen.insert(kw).second)
			usage_error(ctx.topic, in_quotes(kw) + " is given twice");
		if (kw == "algo") {
			algo = pos[i + 1];
		} else if (kw == "sfc") {
			bool on;
			std::string err;
			if (!parse_bool(pos[i + 1], on, err))
				usage_error(ctx.topic, "sfc: " + err);
			set.sfc = on;
		} else {
			raw_params.emplace_back(kw, pos[i + 1]);
		}
	}
	if (!algo && !raw_params.empty())
		usage_error(ctx.topic, "missing 'algo NAME' for parameter " +
		                               in_quotes(raw_params.front().first) +
		                               " (the QP's algorithm, even if unchanged)");
	if (!algo && !set.sfc)
		usage_error(ctx.topic, "missing 'algo NAME' (the QP's algorithm, even if "
		                       "unchanged) or 'sfc on|off'");

	const std::string what = "qp set " + set.dev + " " + std::to_string(set.qpn);
	if (algo) {
		const AlgoInfo &a = ctx.algo_arg(*algo);
		set.algo = a.name;
		set.params = check_params(ctx, a, raw_params, "");
	}
	// The QP must exist before anything is written.
	ctx.must(qp_get_request(set.dev, set.qpn), false, what, set.dev, set.qpn);
	ctx.must(qp_set_request(set), false, what, set.dev, set.qpn, true);
	return kExitOk;
}

// ---------------------------------------------------------------- stats

std::vector<DevStats> fetch_stats(Ctx &ctx, const std::string &dev)
{
	const std::string what = dev.empty() ? "stats" : "stats " + dev;
	std::vector<DevStats> out;
	for (const GenlMsg &m : ctx.must(stats_get_request(dev), dev.empty(), what, dev)) {
		DevStats d;
		Status s = decode_stats(m, d);
		if (!s.ok())
			ctx.fail(s, what);
		out.push_back(std::move(d));
	}
	return out;
}

void print_stats(Ctx &ctx, const std::vector<DevStats> &all)
{
	if (ctx.g.json) {
		Json doc = Json::array();
		for (const DevStats &d : all)
			doc.push_back({{"dev", d.dev}, {"stats", json_params(d.stats)}});
		ctx.print_json(doc);
		return;
	}
	bool first = true;
	for (const DevStats &d : all) {
		if (!first)
			ctx.env.out << '\n';
		first = false;
		ctx.env.out << d.dev << ":\n";
		Table t;
		for (const NamedValue &nv : d.stats)
			t.row({nv.name, std::to_string(nv.value)});
		t.print(ctx.env.out, "    ");
	}
}

void print_stats_delta(Ctx &ctx, const std::vector<DevStats> &prev,
                       const std::vector<DevStats> &cur, std::uint64_t now_ns,
                       std::uint64_t elapsed_ns)
{
	for (const DevStats &d : cur) {
		const DevStats *old = nullptr;
		for (const DevStats &o : prev)
			if (o.dev == d.dev)
				old = &o;
		if (!old)
			continue; // appeared during this interval: next time
		std::vector<std::pair<std::string, std::string>> rates;
		Json per_second = Json::object();
		for (const NamedValue &nv : d.stats) {
			std::uint64_t before = 0;
			for (const NamedValue &o : old->stats)
				if (o.name == nv.name)
					before = o.value;
			// A counter that went down was reset: count from zero.
			std::uint64_t delta = nv.value >= before ? nv.value - before : nv.value;
			rates.emplace_back(nv.name, format_per_second(delta, elapsed_ns));
			per_second[nv.name] = per_second_json(delta, elapsed_ns);
		}
		if (ctx.g.json) {
			ctx.print_json({{"dev", d.dev},
			                {"time_ns", now_ns},
			                {"interval_ns", elapsed_ns},
			                {"per_second", std::move(per_second)}});
		} else {
			ctx.env.out << d.dev << ": per second over " << format_time_ns(elapsed_ns)
				    << '\n';
			Table t;
			for (const auto &[k, v] : rates)
				t.row({k, v});
			t.print(ctx.env.out, "    ");
		}
	}
	ctx.env.out.flush();
}

int cmd_stats(Ctx &ctx, const std::vector<std::string> &args)
{
	ctx.topic = "stats";
	Parsed p =
		parse_args(args, 0, {{'w', "watch", true}, {'c', "count", true}}, ctx.g, ctx.topic);
	if (p.help) {
		ctx.env.out << help_text("stats");
		return kExitOk;
	}
	no_more(ctx, p.positionals, 1);
	std::string dev = p.positionals.empty() ? "" : p.positionals[0];
	check_dev_name(ctx, dev);
	std::uint64_t every_ns = 0, count = 0;
	std::string err;
	if (p.has('w')) {
		auto t = units::parse_time_ns(p.opts['w'], &err, 1000000000ULL);
		if (!t)
			usage_error(ctx.topic, "-w: " + err);
		every_ns = *t;
		if (every_ns == 0)
			usage_error(ctx.topic, "-w: the period must be longer than 0");
	}
	if (p.has('c')) {
		if (!p.has('w'))
			usage_error(ctx.topic, "-c needs -w SECONDS");
		if (!parse_u64(p.opts['c'], count, err))
			usage_error(ctx.topic, "-c: " + err);
		if (count == 0)
			usage_error(ctx.topic, "-c: COUNT must be at least 1");
	}

	if (!every_ns) {
		print_stats(ctx, fetch_stats(ctx, dev));
		return kExitOk;
	}
	Clock &clock = ctx.env.clock;
	std::vector<DevStats> prev = fetch_stats(ctx, dev);
	clock.catch_stop_signals();
	const std::uint64_t t0 = clock.now_ns();
	std::uint64_t t_prev = t0, k = 1, reports = 0;
	while (!clock.stop_requested()) {
		if (!clock.sleep_until(t0 + k * every_ns))
			break;
		std::vector<DevStats> cur = fetch_stats(ctx, dev);
		std::uint64_t now = clock.now_ns();
		print_stats_delta(ctx, prev, cur, now, now - t_prev);
		prev = std::move(cur);
		t_prev = now;
		if (count && ++reports >= count)
			break;
		// Skip the ticks that a slow reply made us miss.
		k = std::max(k + 1, (now - t0) / every_ns + 1);
	}
	return kExitOk;
}

// ---------------------------------------------------------------- monitor

// The QP counters of QP_GET and RATE_EVENT that 'monitor' writes, after the
// fixed columns, in the kernel's order (tools/rxecc/help.cc describes them).
const char *const kMonitorCounters[] = {
	"cnp_rx",   "cnp_tx",   "ce_rx",     "pacer_waits",    "pacer_unused_us",
	"rate_dec", "rate_inc", "retx_pkts", "inflight_bytes", "acked_bytes",
};

std::string event_names(std::uint32_t ev)
{
	static const std::pair<std::uint32_t, const char *> names[] = {
		{RXE_CC_EVENT_RATE_DEC, "rate_dec"}, {RXE_CC_EVENT_RATE_INC, "rate_inc"},
		{RXE_CC_EVENT_LIMIT, "limit"},       {RXE_CC_EVENT_RELEASE, "release"},
		{RXE_CC_EVENT_HALT, "halt"},
	};
	std::string s;
	for (const auto &[bit, name] : names) {
		if (ev & bit) {
			if (!s.empty())
				s += '|';
			s += name;
			ev &= ~bit;
		}
	}
	if (ev) {
		if (!s.empty())
			s += '|';
		s += "0x" + [ev] {
			char buf[16];
			std::snprintf(buf, sizeof(buf), "%x", ev);
			return std::string(buf);
		}();
	}
	return s;
}

class Monitor
{
public:
	Monitor(Ctx &ctx, std::string dev, bool events, std::ostream &os)
	    : ctx_(ctx), dev_(std::move(dev)), events_(events), os_(os)
	{
		// One column per algorithm and state value, "dcqcn.alpha": names
		// repeat across algorithms (rate_kbps) and may repeat the fixed
		// columns (window_bytes), but mean different things.
		for (const AlgoInfo &a : ctx_.algos())
			for (const StateInfo &s : a.state)
				columns_.emplace_back(a.name, s.name);
	}

	void header()
	{
		os_ << "time_ns,dev,qpn,algo,rate_bps,window_bytes";
		for (const char *c : kMonitorCounters)
			os_ << ',' << c;
		for (const auto &[algo, name] : columns_)
			os_ << ',' << csv_field(algo + "." + name);
		if (events_)
			os_ << ",event";
		os_ << '\n';
		os_.flush();
	}

	void poll()
	{
		std::vector<QpInfo> qps = collect_qps(ctx_, dev_, "monitor");
		std::uint64_t t = ctx_.env.clock.now_ns();
		for (const QpInfo &q : qps)
			row(t, q.dev, q.qpn, q.algo, q.rate_bps, q.window_bytes, q.stats, q.state,
			    nullptr);
		os_.flush();
	}

	// Wait until `deadline`, writing the events that arrive meanwhile.
	// False if interrupted.
	bool wait_until(std::uint64_t deadline)
	{
		Clock &clock = ctx_.env.clock;
		if (!events_)
			return clock.sleep_until(deadline);
		for (;;) {
			if (clock.stop_requested())
				return false;
			std::uint64_t now = clock.now_ns();
			if (now >= deadline)
				return true;
			std::vector<GenlMsg> msgs;
			Status s = ctx_.tp().wait_events(deadline - now, msgs);
			if (s.kind == Status::kInterrupted)
				return false;
			if (!s.ok())
				ctx_.fail(s, "monitor: events");
			for (const GenlMsg &m : msgs)
				event_row(m);
			if (!msgs.empty())
				os_.flush();
		}
	}

private:
	static std::string opt(const std::optional<std::uint64_t> &v)
	{
		return v ? std::to_string(*v) : "";
	}

	// One row: the fixed columns, the QP counters, the state columns of
	// `algo` (empty for the other algorithms' columns), and with -e the
	// event column (empty in poll rows).
	void row(std::uint64_t t, const std::string &dev, std::uint32_t qpn,
	         const std::string &algo, const std::optional<std::uint64_t> &rate,
	         const std::optional<std::uint64_t> &window, const std::vector<NamedValue> &stats,
	         const std::vector<NamedValue> &state, const std::string *event)
	{
		os_ << t << ',' << csv_field(dev) << ',' << qpn << ',' << csv_field(algo) << ','
		    << opt(rate) << ',' << opt(window);
		for (const char *c : kMonitorCounters) {
			os_ << ',';
			if (const NamedValue *nv = find_value(stats, c))
				os_ << nv->value;
		}
		for (const auto &[calgo, name] : columns_) {
			os_ << ',';
			if (calgo != algo)
				continue;
			if (const NamedValue *nv = find_value(state, name))
				os_ << nv->value;
		}
		if (events_)
			os_ << ',' << (event ? *event : std::string());
		os_ << '\n';
	}

	void event_row(const GenlMsg &m)
	{
		RateEvent ev;
		if (!decode_rate_event(m, ev).ok())
			return; // not ours, or malformed: polling still reports the QP
		if (!dev_.empty() && ev.dev != dev_)
			return;
		std::uint64_t t = ev.time_ns ? *ev.time_ns : ctx_.env.clock.now_ns();
		const std::string names = event_names(ev.events);
		row(t, ev.dev, ev.qpn, ev.algo, ev.rate_bps, ev.window_bytes, ev.stats, ev.state,
		    &names);
	}

	Ctx &ctx_;
	std::string dev_;
	bool events_;
	std::ostream &os_;
	std::vector<std::pair<std::string, std::string>> columns_; // algorithm, state
};

int cmd_monitor(Ctx &ctx, const std::vector<std::string> &args)
{
	ctx.topic = "monitor";
	Parsed p = parse_args(args, 0,
	                      {{'i', "interval", true},
	                       {'c', "count", true},
	                       {'t', "time", true},
	                       {'o', "output", true},
	                       {'e', "events", false}},
	                      ctx.g, ctx.topic);
	if (p.help) {
		ctx.env.out << help_text("monitor");
		return kExitOk;
	}
	no_more(ctx, p.positionals, 1);
	std::string dev = p.positionals.empty() ? "" : p.positionals[0];
	check_dev_name(ctx, dev);
	std::uint64_t interval_ns = 100000000ULL, count = 0, duration_ns = 0;
	std::string err;
	if (p.has('i')) {
		auto t = units::parse_time_ns(p.opts['i'], &err, 1000000ULL);
		if (!t)
			usage_error(ctx.topic, "-i: " + err);
		interval_ns = *t;
		if (interval_ns == 0)
			usage_error(ctx.topic, "-i: the interval must be longer than 0");
	}
	if (p.has('c') && p.has('t'))
		usage_error(ctx.topic, "-c and -t exclude each other");
	if (p.has('c')) {
		if (!parse_u64(p.opts['c'], count, err))
			usage_error(ctx.topic, "-c: " + err);
		if (count == 0)
			usage_error(ctx.topic, "-c: COUNT must be at least 1");
	}
	if (p.has('t')) {
		auto t = units::parse_time_ns(p.opts['t'], &err, 1000000000ULL);
		if (!t)
			usage_error(ctx.topic, "-t: " + err);
		duration_ns = *t;
		if (duration_ns == 0)
			usage_error(ctx.topic, "-t: the duration must be longer than 0");
	}
	if (p.has('o') && p.opts['o'].empty())
		usage_error(ctx.topic, "-o: empty file name");
	const bool events = p.has('e');

	ctx.algos();
	if (!dev.empty())
		ctx.must(dev_get_request(dev), false, "monitor " + dev, dev);
	if (events) {
		Status s = ctx.tp().subscribe_events();
		if (!s.ok())
			ctx.fail(s, "monitor: join the events group");
	}
	std::unique_ptr<std::ostream> file;
	if (p.has('o') && p.opts['o'] != "-") {
		std::string why;
		file = ctx.env.open_file(p.opts['o'], why);
		if (!file)
			runtime_error("cannot write " + in_quotes(p.opts['o']) + ": " + why);
	}
	Monitor mon(ctx, dev, events, file ? *file : ctx.env.out);
	mon.header();

	Clock &clock = ctx.env.clock;
	clock.catch_stop_signals();
	const std::uint64_t t0 = clock.now_ns();
	std::uint64_t k = 0, polls = 0;
	for (;;) {
		std::uint64_t next = t0 + k * interval_ns;
		if (duration_ns && next - t0 >= duration_ns) {
			mon.wait_until(t0 + duration_ns);
			break;
		}
		if (!mon.wait_until(next))
			break;
		mon.poll();
		if (count && ++polls >= count)
			break;
		if (clock.stop_requested())
			break;
		std::uint64_t now = clock.now_ns();
		k = std::max(k + 1, (now - t0) / interval_ns + 1);
	}
	return kExitOk;
}

// ---------------------------------------------------------------- dispatch

const std::vector<std::string> kCommands = {"algo", "dev", "qp", "stats", "monitor", "help"};

// `rxecc dev ...` and `rxecc qp ...`: show (default, alias list) or set.
int cmd_group(Ctx &ctx, const std::string &group, const std::vector<std::string> &args,
              int (*show)(Ctx &, const std::vector<std::string> &),
              int (*set)(Ctx &, const std::vector<std::string> &))
{
	ctx.topic = group;
	if (args.empty() || (args[0].size() > 1 && args[0][0] == '-')) {
		// Options only: help for the group, else 'show'.
		for (const std::string &a : args)
			if (a == "-h" || a == "--help") {
				ctx.env.out << help_text(group);
				return kExitOk;
			}
		return show(ctx, args);
	}
	std::string sub = match_word(args[0], {"show", "list", "set", "help"});
	std::vector<std::string> rest(args.begin() + 1, args.end());
	if (sub == "show" || sub == "list")
		return show(ctx, rest);
	if (sub == "set")
		return set(ctx, rest);
	if (sub == "help") {
		ctx.env.out << help_text(group);
		return kExitOk;
	}
	usage_error(group,
	            "unknown " + group + " command " + in_quotes(args[0]) + " (show or set)");
}

int dispatch(Ctx &ctx, const std::vector<std::string> &args)
{
	std::size_t at = 0;
	Parsed top = parse_args(args, 0, {{'V', "version", false}}, ctx.g, "", &at);
	if (top.has('V')) {
		ctx.env.out << "rxecc " << kVersion << " (" RXE_CC_GENL_NAME
			    << " generic netlink family version " << RXE_CC_GENL_VERSION << ")\n";
		return kExitOk;
	}
	if (at >= args.size()) {
		if (top.help) {
			ctx.env.out << help_text("");
			return kExitOk;
		}
		usage_error("", "missing command (algo, dev, qp, stats or monitor)");
	}
	std::string cmd = match_word(args[at], kCommands);
	std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(at) + 1,
	                              args.end());
	if (top.help && cmd != "help")
		rest.insert(rest.begin(), "--help");
	if (cmd == "help") {
		std::string topic;
		for (const std::string &w : rest) {
			if (w == "--help")
				continue;
			topic += (topic.empty() ? "" : " ") + w;
		}
		std::string_view text = help_text(topic);
		if (text.empty())
			usage_error("", "no help on " + in_quotes(topic));
		ctx.env.out << text;
		return kExitOk;
	}
	if (cmd == "algo")
		return cmd_algo(ctx, rest);
	if (cmd == "dev")
		return cmd_group(ctx, "dev", rest, cmd_dev_show, cmd_dev_set);
	if (cmd == "qp")
		return cmd_group(ctx, "qp", rest, cmd_qp_show, cmd_qp_set);
	if (cmd == "stats")
		return cmd_stats(ctx, rest);
	if (cmd == "monitor")
		return cmd_monitor(ctx, rest);
	usage_error("", "unknown command " + in_quotes(args[at]) +
	                        " (algo, dev, qp, stats or monitor)");
}

} // namespace

int run(const std::vector<std::string> &args, Env &env)
{
	Ctx ctx(env);
	try {
		return dispatch(ctx, args);
	} catch (const CliError &e) {
		env.out.flush();
		env.err << "rxecc: " << e.msg << '\n';
		if (e.code == kExitUsage)
			env.err << "Try 'rxecc " << (e.topic.empty() ? "" : e.topic + " ")
				<< "--help'.\n";
		return e.code;
	}
}

} // namespace rxecc
