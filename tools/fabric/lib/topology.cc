// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Topology file parser; the format is in
// Documentation/rxe-cc/fabric-topology.rst.
#include "topology.h"

#include "dscp_map.h"
#include "units.h"

#include <array>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace rxecc::fabric
{

std::string TopologyError::to_string() const
{
	if (line <= 0)
		return message;
	return "line " + std::to_string(line) + ": " + message;
}

namespace
{

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

// A whole number or a decimal with up to 9 fraction digits, times mult;
// nullopt unless the result is a whole number that fits.
std::optional<uint64_t> scaled_decimal(std::string_view s, uint64_t mult)
{
	uint64_t mantissa = 0, divisor = 1;
	bool dot = false, digits = false;
	size_t ndigits = 0;
	for (char c : s) {
		if (c == '.' && !dot) {
			dot = true;
			continue;
		}
		if (c < '0' || c > '9')
			return std::nullopt;
		if (++ndigits > 18)
			return std::nullopt;
		digits = true;
		mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
		if (dot) {
			divisor *= 10;
			if (divisor > 1000000000)
				return std::nullopt;
		}
	}
	if (!digits)
		return std::nullopt;
	if (mult != 0 && mantissa > kU64Max / mult)
		return std::nullopt;
	uint64_t v = mantissa * mult;
	if (v % divisor)
		return std::nullopt;
	return v / divisor;
}

std::optional<uint64_t> parse_uint(std::string_view s)
{
	if (s.empty() || s.size() > 19)
		return std::nullopt;
	uint64_t v = 0;
	for (char c : s) {
		if (c < '0' || c > '9')
			return std::nullopt;
		v = v * 10 + static_cast<uint64_t>(c - '0');
	}
	return v;
}

} // namespace

std::optional<uint32_t> parse_fraction_q16(std::string_view s)
{
	uint64_t v;
	size_t slash = s.find('/');
	if (slash != std::string_view::npos) {
		auto num = parse_uint(s.substr(0, slash));
		auto den = parse_uint(s.substr(slash + 1));
		if (!num || !den || *den == 0 || *num > (uint64_t{1} << 32))
			return std::nullopt;
		v = (*num << 16) / *den;
	} else {
		// floor(x * 65536): scale by 65536 * 10^9, then drop the 10^9.
		auto scaled = scaled_decimal(s, uint64_t{65536} * 1000000000);
		if (!scaled)
			return std::nullopt;
		v = *scaled / 1000000000;
	}
	if (v > std::numeric_limits<uint32_t>::max())
		return std::nullopt;
	return static_cast<uint32_t>(v);
}

namespace
{

struct Failure {
	std::string message;
};

[[noreturn]] void fail(const std::string &msg)
{
	throw Failure{msg};
}

bool valid_name(std::string_view s)
{
	if (s.empty() || s.size() > 64)
		return false;
	for (char c : s) {
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
		if (!ok)
			return false;
	}
	return true;
}

std::vector<std::string> split(std::string_view s, char sep)
{
	std::vector<std::string> out;
	size_t start = 0;
	for (;;) {
		size_t pos = s.find(sep, start);
		out.emplace_back(s.substr(start, pos - start));
		if (pos == std::string_view::npos)
			return out;
		start = pos + 1;
	}
}

int parse_prio(const std::string &s)
{
	auto v = parse_uint(s);
	if (!v || *v >= kNumPriorities)
		fail("priority '" + s + "' is not 0..7");
	return static_cast<int>(*v);
}

// The key=value attributes after the positional words of a line.
class Attrs
{
public:
	Attrs(const std::vector<std::string> &words, size_t first, std::set<std::string> allowed)
	{
		for (size_t i = first; i < words.size(); i++) {
			size_t eq = words[i].find('=');
			if (eq == std::string::npos || eq == 0)
				fail("expected key=value, got '" + words[i] + "'");
			std::string key = words[i].substr(0, eq);
			if (!allowed.count(key))
				fail("unknown attribute '" + key + "'");
			if (!kv_.emplace(key, words[i].substr(eq + 1)).second)
				fail("attribute '" + key + "' given twice");
		}
	}

	bool has(const std::string &key) const { return kv_.count(key) != 0; }
	const std::string &get(const std::string &key) const
	{
		auto it = kv_.find(key);
		if (it == kv_.end())
			fail("missing attribute '" + key + "'");
		return it->second;
	}

	// Sizes, rates and times: Documentation/rxe-cc/units.rst.
	uint64_t size(const std::string &key) const
	{
		std::string err;
		auto v = units::parse_size_bytes(get(key), &err);
		if (!v)
			fail(key + ": " + err);
		return *v;
	}
	uint64_t rate(const std::string &key) const
	{
		std::string err;
		auto v = units::parse_rate_bps(get(key), &err);
		if (!v)
			fail(key + ": " + err);
		return *v;
	}
	uint64_t time(const std::string &key) const
	{
		std::string err;
		auto v = units::parse_time_ns(get(key), &err);
		if (!v)
			fail(key + ": " + err);
		return *v;
	}
	uint32_t fraction(const std::string &key) const
	{
		auto v = parse_fraction_q16(get(key));
		if (!v)
			fail("bad fraction " + key + "='" + get(key) + "' (e.g. 0.2, 1/8, 2)");
		return *v;
	}
	uint64_t number(const std::string &key, uint64_t max) const
	{
		auto v = parse_uint(get(key));
		if (!v || *v > max)
			fail("bad number " + key + "='" + get(key) + "' (0.." +
			     std::to_string(max) + ")");
		return *v;
	}
	bool boolean(const std::string &key) const
	{
		const std::string &v = get(key);
		if (v == "yes" || v == "on" || v == "1")
			return true;
		if (v == "no" || v == "off" || v == "0")
			return false;
		fail("bad boolean " + key + "='" + v + "' (yes or no)");
	}
	std::vector<int> priorities(const std::string &key) const
	{
		const std::string &v = get(key);
		std::vector<int> out;
		if (v == "*") {
			for (int p = 0; p < kNumPriorities; p++)
				out.push_back(p);
			return out;
		}
		for (const std::string &s : split(v, ','))
			out.push_back(parse_prio(s));
		return out;
	}

private:
	std::map<std::string, std::string> kv_;
};

class Parser
{
public:
	Topology topo;

	void line(const std::vector<std::string> &w)
	{
		const std::string &d = w[0];
		if (d == "seed")
			seed(w);
		else if (d == "switch")
			declare_switch(w);
		else if (d == "port")
			declare_port(w);
		else if (d == "link")
			declare_link(w);
		else if (d == "route")
			route(w);
		else if (d == "mac")
			mac(w);
		else if (d == "ecn")
			ecn(w);
		else if (d == "tcd")
			tcd(w);
		else if (d == "npecn")
			npecn(w);
		else if (d == "pfc")
			pfc(w);
		else if (d == "int")
			int_directive(w);
		else if (d == "int_port")
			int_port_directive(w);
		else if (d == "int_rate_code")
			int_rate_code_directive(w);
		else if (d == "sfc")
			sfc(w);
		else if (d == "bts_port")
			bts_port_directive(w);
		else if (d == "bts_dscp")
			bts_dscp_directive(w);
		else if (d == "accurate")
			accurate(w);
		else if (d == "uplink")
			uplink(w);
		else
			fail("unknown directive '" + d +
			     "' (seed, switch, port, link, route, mac, ecn, tcd, npecn, pfc, int, "
			     "int_port, int_rate_code, sfc, bts_port, bts_dscp, accurate, uplink)");
	}

	// The fabric-wide INT settings, copied into every switch at the end.
	IntConfig int_config;
	// Likewise the BTS port and DSCP of SFC.
	uint16_t bts_port = kDefaultBtsPort;
	uint8_t bts_dscp = kDefaultBtsDscp;
	int bts_port_line = 0;
	int bts_dscp_line = 0;
	int int_port_line = 0;

	std::vector<int> switch_line; // declaration line of each switch

	int line_no = 0;

	// Switch i, if it stamps, has an INT ID no earlier stamping switch has.
	void unique_int_id(size_t i) const
	{
		const SwitchConfig &b = topo.switches[i];
		if (!stamps_int(b))
			return;
		for (size_t j = 0; j < i; j++) {
			const SwitchConfig &a = topo.switches[j];
			if (stamps_int(a) && a.int_config.switch_id == b.int_config.switch_id)
				fail("switch " + b.name + ": INT switch ID " +
				     std::to_string(b.int_config.switch_id) + " is also switch " +
				     a.name + "'s (line " + std::to_string(switch_line[j]) +
				     "; set switch_id=)");
		}
	}

private:
	static void want_words(const std::vector<std::string> &w, size_t n, const char *usage)
	{
		if (w.size() < n)
			fail(std::string("too few words; usage: ") + usage);
	}

	SwitchConfig &sw(const std::string &name)
	{
		int i = topo.find_switch(name);
		if (i < 0)
			fail("unknown switch '" + name + "'");
		return topo.switches[static_cast<size_t>(i)];
	}

	static int port_of(const SwitchConfig &s, const std::string &name)
	{
		int p = s.find_port(name);
		if (p < 0)
			fail("switch " + s.name + " has no port '" + name + "'");
		return p;
	}

	// "sw:port" split in two.
	static std::pair<std::string, std::string> endpoint(const std::string &s)
	{
		size_t c = s.find(':');
		if (c == std::string::npos || s.find(':', c + 1) != std::string::npos)
			fail("expected switch:port, got '" + s + "'");
		return {s.substr(0, c), s.substr(c + 1)};
	}

	// Ports named by "sw:port", "sw:*" or "*:*".
	std::vector<std::pair<int, int>> targets(const std::string &s)
	{
		auto [swn, pn] = endpoint(s);
		std::vector<std::pair<int, int>> out;
		for (size_t i = 0; i < topo.switches.size(); i++) {
			const SwitchConfig &c = topo.switches[i];
			if (swn != "*" && c.name != swn)
				continue;
			for (size_t p = 0; p < c.ports.size(); p++)
				if (pn == "*" || c.ports[p].name == pn)
					out.push_back({static_cast<int>(i), static_cast<int>(p)});
		}
		if (swn != "*")
			sw(swn);
		if (out.empty())
			fail("'" + s + "' matches no declared port");
		return out;
	}

	void seed(const std::vector<std::string> &w)
	{
		if (w.size() != 2)
			fail("usage: seed N");
		auto v = parse_uint(w[1]);
		if (!v)
			fail("bad seed '" + w[1] + "'");
		topo.seed = *v;
	}

	void declare_switch(const std::vector<std::string> &w)
	{
		want_words(w, 2,
		           "switch NAME buffer=SIZE [alpha=F] [dscp=D:P,..] [strict=P,..] "
		           "[quantum=BYTES|P:BYTES,..] [switch_id=N]");
		if (!valid_name(w[1]))
			fail("bad switch name '" + w[1] + "'");
		if (topo.find_switch(w[1]) >= 0)
			fail("switch '" + w[1] + "' declared twice");
		Attrs a(w, 2, {"buffer", "alpha", "dscp", "strict", "quantum", "switch_id"});
		SwitchConfig c;
		c.name = w[1];
		// INT switch ID: by default 1, 2, 3, ... in declaration order.
		c.int_config.switch_id =
			static_cast<uint16_t>((topo.switches.size() + 1) % (kMaxIntSwitchId + 1));
		if (a.has("switch_id"))
			c.int_config.switch_id =
				static_cast<uint16_t>(a.number("switch_id", kMaxIntSwitchId));
		c.buffer_bytes = a.size("buffer");
		if (c.buffer_bytes == 0 || c.buffer_bytes > kMaxBufferBytes)
			fail("buffer must be between 1 byte and 1 TiB");
		if (a.has("alpha")) {
			c.alpha_q16 = a.fraction("alpha");
			if (c.alpha_q16 == 0 || c.alpha_q16 > kMaxAlphaQ16)
				fail("alpha must be above 0 and at most 64");
		}
		if (a.has("dscp")) {
			// The whole map, as rxe's dscp_prio takes it: DSCPs not
			// named are on priority 0.
			std::string err;
			auto m = dscp::parse(a.get("dscp"), &err);
			if (!m)
				fail("dscp: " + err);
			c.dscp_to_prio = *m;
		}
		if (a.has("strict")) {
			c.strict_mask = 0;
			if (a.get("strict") != "none")
				for (int p : a.priorities("strict"))
					c.strict_mask =
						static_cast<uint8_t>(c.strict_mask | (1u << p));
		}
		if (a.has("quantum"))
			quantum(c, a.get("quantum"));
		topo.switches.push_back(std::move(c));
		switch_line.push_back(line_no);
	}

	static void quantum(SwitchConfig &c, const std::string &v)
	{
		auto check = [](const std::string &s) {
			std::string err;
			auto q = units::parse_size_bytes(s, &err);
			if (!q)
				fail("quantum: " + err);
			if (*q < kMinQuantum || *q > kMaxFrameBytes * 16)
				fail("DWRR quantum '" + s + "' is not 64..262144 bytes");
			return static_cast<uint32_t>(*q);
		};
		if (v.find(':') == std::string::npos) {
			c.quantum.fill(check(v));
			return;
		}
		for (const std::string &e : split(v, ',')) {
			auto [p, q] = endpoint(e);
			c.quantum[static_cast<size_t>(parse_prio(p))] = check(q);
		}
	}

	PortConfig &add_port(SwitchConfig &s, int sw_index, const std::string &name)
	{
		if (!valid_name(name))
			fail("bad port name '" + name + "'");
		if (s.find_port(name) >= 0)
			fail("switch " + s.name + " already has a port '" + name + "'");
		if (s.ports.size() >= 0xffff)
			fail("too many ports");
		PortConfig p;
		p.name = name;
		// Locally administered: 02:fb:<switch>:<port>, 16 bits each.
		auto pi = s.ports.size();
		auto si = static_cast<size_t>(sw_index);
		p.mac = {0x02,
		         0xfb,
		         static_cast<uint8_t>(si >> 8),
		         static_cast<uint8_t>(si & 0xff),
		         static_cast<uint8_t>(pi >> 8),
		         static_cast<uint8_t>(pi & 0xff)};
		s.ports.push_back(p);
		return s.ports.back();
	}

	static void link_attrs(PortConfig &p, const Attrs &a)
	{
		p.rate_bps = a.rate("rate");
		if (p.rate_bps < kMinRateBps || p.rate_bps > kMaxRateBps)
			fail("rate must be between 1 kbit/s and 2 Tbit/s");
		p.delay_ns = a.time("delay");
		if (p.delay_ns > kMaxDelayNs)
			fail("delay above 10 s");
		if (a.has("overhead"))
			p.overhead_bytes = static_cast<uint32_t>(a.number("overhead", 1024));
		if (a.has("flood"))
			p.flood = a.boolean("flood");
		if (a.has("pause_quanta")) {
			p.pause_quanta = static_cast<uint16_t>(a.number("pause_quanta", 0xffff));
			if (p.pause_quanta == 0)
				fail("pause_quanta must be 1..65535 (0 is XON)");
		}
	}

	void declare_port(const std::vector<std::string> &w)
	{
		want_words(w, 2,
		           "port SWITCH:PORT rate=RATE delay=TIME [overhead=N] [mac=MAC] "
		           "[flood=yes|no] [pause_quanta=N] [attach=STRING]");
		auto [swn, pn] = endpoint(w[1]);
		SwitchConfig &s = sw(swn);
		Attrs a(w, 2,
		        {"rate", "delay", "overhead", "mac", "flood", "pause_quanta", "attach"});
		PortConfig &p = add_port(s, topo.find_switch(swn), pn);
		link_attrs(p, a);
		if (a.has("mac")) {
			auto m = parse_mac(a.get("mac"));
			if (!m)
				fail("bad MAC '" + a.get("mac") + "' (e.g. 02:00:00:00:00:01)");
			p.mac = *m;
		}
		if (a.has("attach"))
			p.attach = a.get("attach");
	}

	void declare_link(const std::vector<std::string> &w)
	{
		want_words(w, 3,
		           "link SWITCH:PORT SWITCH:PORT rate=RATE delay=TIME [overhead=N] "
		           "[flood=yes|no] [pause_quanta=N]");
		auto [sa, pa] = endpoint(w[1]);
		auto [sb, pb] = endpoint(w[2]);
		if (sa == sb && pa == pb)
			fail("link from a port to itself");
		Attrs a(w, 3, {"rate", "delay", "overhead", "flood", "pause_quanta"});
		int ia = topo.find_switch(sa), ib = topo.find_switch(sb);
		PortConfig &pa_cfg = add_port(sw(sa), ia, pa);
		link_attrs(pa_cfg, a);
		pa_cfg.server_facing = false;
		PortConfig &pb_cfg = add_port(sw(sb), ib, pb);
		link_attrs(pb_cfg, a);
		pb_cfg.server_facing = false;
		LinkConfig l;
		l.sw_a = ia;
		l.port_a = sw(sa).find_port(pa);
		l.sw_b = ib;
		l.port_b = sw(sb).find_port(pb);
		topo.links.push_back(l);
	}

	void route(const std::vector<std::string> &w)
	{
		if (w.size() != 4)
			fail("usage: route SWITCH PREFIX/LEN PORT");
		SwitchConfig &s = sw(w[1]);
		IpRoute r;
		size_t slash = w[2].find('/');
		std::string addr = w[2].substr(0, slash);
		auto ip = parse_ip(addr);
		if (!ip)
			fail("bad IP address '" + addr + "'");
		r.prefix = *ip;
		unsigned max_len = ip->v6 ? 128 : 32;
		r.prefix_len = max_len;
		if (slash != std::string::npos) {
			auto len = parse_uint(w[2].substr(slash + 1));
			if (!len || *len > max_len)
				fail("bad prefix length in '" + w[2] + "'");
			r.prefix_len = static_cast<unsigned>(*len);
		}
		r.port = port_of(s, w[3]);
		s.routes.push_back(r);
	}

	void mac(const std::vector<std::string> &w)
	{
		if (w.size() != 4)
			fail("usage: mac SWITCH MAC PORT");
		SwitchConfig &s = sw(w[1]);
		auto m = parse_mac(w[2]);
		if (!m)
			fail("bad MAC '" + w[2] + "' (e.g. 02:00:00:00:00:01)");
		s.macs.push_back({*m, port_of(s, w[3])});
	}

	void ecn(const std::vector<std::string> &w)
	{
		want_words(w, 2,
		           "ecn TARGET prio=LIST kmin=SIZE kmax=SIZE pmax=F [at=dequeue|enqueue]");
		Attrs a(w, 2, {"prio", "kmin", "kmax", "pmax", "at"});
		RedParams r;
		r.enabled = true;
		r.kmin = a.size("kmin");
		r.kmax = a.size("kmax");
		r.pmax_q16 = a.fraction("pmax");
		if (r.kmin >= r.kmax)
			fail("kmin must be below kmax");
		if (r.pmax_q16 > kQ16One)
			fail("pmax above 1");
		if (a.has("at")) {
			if (a.get("at") == "dequeue")
				r.point = MarkPoint::kDequeue;
			else if (a.get("at") == "enqueue")
				r.point = MarkPoint::kEnqueue;
			else
				fail("at must be dequeue or enqueue");
		}
		std::vector<int> prios = a.priorities("prio");
		for (auto [si, pi] : targets(w[1]))
			for (int prio : prios) {
				one_marking_mode(si, pi, prio, kEcnMarking);
				topo.switches[static_cast<size_t>(si)]
					.ports[static_cast<size_t>(pi)]
					.red[static_cast<size_t>(prio)] = r;
			}
	}

	void tcd(const std::vector<std::string> &w)
	{
		want_words(w, 2, "tcd TARGET prio=LIST thr=SIZE max_ton=TIME");
		Attrs a(w, 2, {"prio", "thr", "max_ton"});
		TcdParams t;
		t.enabled = true;
		t.threshold = a.size("thr");
		if (t.threshold == 0 || t.threshold > kMaxBufferBytes)
			fail("thr must be between 1 byte and 1 TiB (ACC: 2 MTU)");
		t.max_ton_ns = a.time("max_ton");
		if (t.max_ton_ns > kMaxTcdMaxTonNs)
			fail("max_ton above 10 s");
		std::vector<int> prios = a.priorities("prio");
		for (auto [si, pi] : targets(w[1]))
			for (int prio : prios) {
				one_marking_mode(si, pi, prio, kTcdMarking);
				topo.switches[static_cast<size_t>(si)]
					.ports[static_cast<size_t>(pi)]
					.tcd[static_cast<size_t>(prio)] = t;
			}
	}

	void npecn(const std::vector<std::string> &w)
	{
		want_words(w, 2, "npecn TARGET prio=LIST [k=SIZE]");
		Attrs a(w, 2, {"prio", "k"});
		NpEcnParams n;
		n.enabled = true;
		n.k = a.has("k") ? a.size("k") : 0;
		if (n.k > kMaxBufferBytes)
			fail("k above 1 TiB (PCN: 0)");
		std::vector<int> prios = a.priorities("prio");
		for (auto [si, pi] : targets(w[1]))
			for (int prio : prios) {
				one_marking_mode(si, pi, prio, kNpEcnMarking);
				topo.switches[static_cast<size_t>(si)]
					.ports[static_cast<size_t>(pi)]
					.npecn[static_cast<size_t>(prio)] = n;
			}
	}

	// The marking modes of a queue and the line that set each on a
	// (switch, port, priority).
	enum Marking { kEcnMarking, kTcdMarking, kNpEcnMarking, kNumMarkings };
	using QueueKey = std::tuple<int, int, int>;
	std::array<std::map<QueueKey, int>, kNumMarkings> marking_line;

	// One marking mode per (port, priority) (specs/wire.md §7.4 (d)):
	// fails if a line set another mode on it, else records this line's.
	void one_marking_mode(int si, int pi, int prio, Marking mode)
	{
		static const char *const name[kNumMarkings] = {"ECN", "TCD", "NP-ECN"};
		for (int other = 0; other < kNumMarkings; other++) {
			if (other == mode)
				continue;
			const std::map<QueueKey, int> &lines =
				marking_line[static_cast<size_t>(other)];
			auto it = lines.find({si, pi, prio});
			if (it == lines.end())
				continue;
			const SwitchConfig &s = topo.switches[static_cast<size_t>(si)];
			fail(std::string(name[mode]) + " on " + s.name + ":" +
			     s.ports[static_cast<size_t>(pi)].name + " priority " +
			     std::to_string(prio) + ": line " + std::to_string(it->second) +
			     " set " + name[other] +
			     " marking there (one marking mode per port and priority)");
		}
		marking_line[static_cast<size_t>(mode)][{si, pi, prio}] = line_no;
	}

	void pfc(const std::vector<std::string> &w)
	{
		want_words(w, 2, "pfc TARGET prio=LIST xoff=SIZE xon=SIZE headroom=SIZE");
		Attrs a(w, 2, {"prio", "xoff", "xon", "headroom"});
		PfcParams f;
		f.enabled = true;
		f.xoff = a.size("xoff");
		f.xon = a.size("xon");
		f.headroom = a.size("headroom");
		if (f.xoff == 0)
			fail("xoff must be positive");
		if (f.xon >= f.xoff)
			fail("xon must be below xoff");
		std::vector<int> prios = a.priorities("prio");
		for (auto [si, pi] : targets(w[1])) {
			SwitchConfig &s = topo.switches[static_cast<size_t>(si)];
			for (int prio : prios)
				s.ports[static_cast<size_t>(pi)].pfc[static_cast<size_t>(prio)] = f;
			uint64_t hr = reserved_headroom(s);
			if (hr >= s.buffer_bytes)
				fail("switch " + s.name + ": PFC headroom now totals " +
				     std::to_string(hr) + " bytes, not below its buffer of " +
				     std::to_string(s.buffer_bytes));
		}
	}

	// The INT rate code of a stamping port's rate, or a failure naming it.
	void need_int_code(const SwitchConfig &s, const PortConfig &p) const
	{
		if (int_rate_code(int_config.rates, p.rate_bps) != 0)
			return;
		std::string codes;
		for (size_t c = 1; c < kIntRateCodes; c++)
			if (int_config.rates[c])
				codes += std::string(codes.empty() ? "" : ", ") +
				         std::to_string(c) + "=" +
				         units::format_rate_bps(int_config.rates[c]);
		fail("INT on port " + s.name + ":" + p.name + ": its rate " +
		     units::format_rate_bps(p.rate_bps) + " has no INT rate code (" + codes +
		     "; set one of 11..15 with int_rate_code)");
	}

	void int_directive(const std::vector<std::string> &w)
	{
		want_words(w, 2, "int TARGET [stamp=yes|no]");
		Attrs a(w, 2, {"stamp"});
		bool on = a.has("stamp") ? a.boolean("stamp") : true;
		for (auto [si, pi] : targets(w[1])) {
			SwitchConfig &s = topo.switches[static_cast<size_t>(si)];
			PortConfig &p = s.ports[static_cast<size_t>(pi)];
			if (on)
				need_int_code(s, p);
			p.int_stamp = on;
		}
	}

	void int_port_directive(const std::vector<std::string> &w)
	{
		if (w.size() != 2)
			fail("usage: int_port N");
		if (int_port_line)
			fail("int_port given twice (first on line " +
			     std::to_string(int_port_line) + ")");
		auto v = parse_uint(w[1]);
		if (!v || *v == 0 || *v > 0xffff || *v == kRoceV2Port)
			fail("bad int_port '" + w[1] + "' (a UDP port 1..65535, not 4791)");
		if (bts_port_line && *v == bts_port)
			fail("int_port " + w[1] + " is the BTS port of line " +
			     std::to_string(bts_port_line));
		int_config.udp_port = static_cast<uint16_t>(*v);
		int_port_line = line_no;
	}

	// SFC (sfc.h): the switch-wide settings of every switch of TARGET
	// and the thresholds of its ports.  A switch's settings may come
	// from several lines if they agree.
	void sfc(const std::vector<std::string> &w)
	{
		want_words(w, 2,
		           "sfc TARGET q_th=SIZE q_tg=SIZE [prio=LIST] [variant=ingress|egress] "
		           "[cache=on|off] [cache_own=on|off] [cache_entries=N] [bloom_bits=N] "
		           "[bloom_reset=TIME] [max_pause=TIME] [drop_zero=on|off] [sfcp=on|off]");
		Attrs a(w, 2,
		        {"q_th", "q_tg", "prio", "variant", "cache", "cache_own", "cache_entries",
		         "bloom_bits", "bloom_reset", "max_pause", "drop_zero", "sfcp"});
		SfcPortParams pp;
		pp.enabled = true;
		pp.q_th = a.size("q_th");
		pp.q_tg = a.size("q_tg");
		if (pp.q_th == 0 || pp.q_th > kMaxBufferBytes)
			fail("q_th must be between 1 byte and 1 TiB (SFC: 2 BDP)");
		if (pp.q_tg >= pp.q_th)
			fail("q_tg must be below q_th (SFC: q_tg 1 BDP, q_th 2 BDP)");
		SfcParams f;
		f.enabled = true;
		if (a.has("prio")) {
			f.prio_mask = 0;
			for (int p : a.priorities("prio"))
				f.prio_mask = static_cast<uint8_t>(f.prio_mask | (1u << p));
		}
		if (a.has("variant")) {
			if (a.get("variant") == "ingress")
				f.variant = SfcVariant::kIngress;
			else if (a.get("variant") == "egress")
				f.variant = SfcVariant::kEgress;
			else
				fail("variant must be ingress or egress");
		}
		f.cache = f.variant == SfcVariant::kIngress;
		if (a.has("cache")) {
			f.cache = a.boolean("cache");
			if (f.cache && f.variant == SfcVariant::kEgress)
				fail("cache=on needs variant=ingress");
		}
		if (a.has("cache_own"))
			f.cache_own = a.boolean("cache_own");
		if (a.has("cache_entries")) {
			f.cache_entries = static_cast<uint32_t>(
				a.number("cache_entries", kMaxSfcCacheEntries));
			if (f.cache_entries == 0)
				fail("cache_entries must be at least 1");
		}
		if (a.has("bloom_bits")) {
			f.bloom_bits =
				static_cast<uint32_t>(a.number("bloom_bits", kMaxSfcBloomBits));
			if (f.bloom_bits < kMinSfcBloomBits)
				fail("bloom_bits must be at least " +
				     std::to_string(kMinSfcBloomBits));
		}
		if (a.has("bloom_reset")) {
			f.bloom_reset_ns = a.time("bloom_reset");
			if (f.bloom_reset_ns == 0 || f.bloom_reset_ns > kMaxSfcBloomResetNs)
				fail("bloom_reset must be above 0 and at most 10 s (SFC: RTT/2)");
		}
		if (a.has("max_pause")) {
			Time t = a.time("max_pause");
			if (t % 1000 || t == 0 || t / 1000 > kMaxSfcPauseUs)
				fail("max_pause must be whole microseconds, 1 us..10 s");
			f.max_pause_us = static_cast<uint32_t>(t / 1000);
		}
		if (a.has("drop_zero"))
			f.drop_zero = a.boolean("drop_zero");
		if (a.has("sfcp"))
			f.sfcp = a.boolean("sfcp");
		for (auto [si, pi] : targets(w[1])) {
			SwitchConfig &s = topo.switches[static_cast<size_t>(si)];
			auto line = sfc_line.find(si);
			if (line != sfc_line.end() && !same_sfc(s.sfc, f))
				fail("switch " + s.name + ": SFC settings differ from line " +
				     std::to_string(line->second) +
				     " (prio, variant, cache*, bloom*, max_pause, drop_zero and "
				     "sfcp "
				     "are per switch)");
			sfc_line.emplace(si, line_no);
			s.sfc = f;
			s.ports[static_cast<size_t>(pi)].sfc = pp;
		}
	}

	static bool same_sfc(const SfcParams &a, const SfcParams &b)
	{
		return a.prio_mask == b.prio_mask && a.variant == b.variant && a.cache == b.cache &&
		       a.cache_own == b.cache_own && a.cache_entries == b.cache_entries &&
		       a.bloom_bits == b.bloom_bits && a.bloom_reset_ns == b.bloom_reset_ns &&
		       a.max_pause_us == b.max_pause_us && a.drop_zero == b.drop_zero &&
		       a.sfcp == b.sfcp;
	}

	std::map<int, int> sfc_line; // switch -> first sfc line naming it

	void bts_port_directive(const std::vector<std::string> &w)
	{
		if (w.size() != 2)
			fail("usage: bts_port N");
		if (bts_port_line)
			fail("bts_port given twice (first on line " +
			     std::to_string(bts_port_line) + ")");
		auto v = parse_uint(w[1]);
		if (!v || *v == 0 || *v > 0xffff || *v == kRoceV2Port)
			fail("bad bts_port '" + w[1] + "' (a UDP port 1..65535, not 4791)");
		if (*v == int_config.udp_port)
			fail("bts_port " + w[1] + " is the INT port (int_port, default 4792)");
		bts_port = static_cast<uint16_t>(*v);
		bts_port_line = line_no;
	}

	// ACCurate (accurate.h): congestion points on the ports of TARGET.  A
	// later line naming a port replaces what an earlier one set there.
	void accurate(const std::vector<std::string> &w)
	{
		want_words(w, 2,
		           "accurate TARGET [alpha=F] [k_sc=F] [neg=c|ceff] [hysteresis=on|off] "
		           "[ingress=on|off] [hop=N]");
		Attrs a(w, 2, {"alpha", "k_sc", "neg", "hysteresis", "ingress", "hop"});
		AccParams p;
		p.enabled = true;
		if (a.has("alpha")) {
			auto v = scaled_decimal(a.get("alpha"), 1000000);
			if (!v || *v > kAccMaxAlphaPpm)
				fail("bad alpha='" + a.get("alpha") +
				     "' (a decimal 0 <= alpha < 1 with at most 6 decimals; "
				     "ACCurate: 0.05)");
			p.alpha_ppm = static_cast<uint32_t>(*v);
		}
		if (a.has("k_sc")) {
			auto v = scaled_decimal(a.get("k_sc"), 1000);
			if (!v || (*v != 0 && (*v < 1000 || *v > kAccMaxKScMilli)))
				fail("bad k_sc='" + a.get("k_sc") +
				     "' (0 = off, or 1..1000 with at most 3 decimals; ACCurate: "
				     "1.5)");
			p.k_sc_milli = static_cast<uint32_t>(*v);
		}
		if (a.has("neg")) {
			if (a.get("neg") == "c")
				p.neg_ceff = false;
			else if (a.get("neg") == "ceff")
				p.neg_ceff = true;
			else
				fail("neg must be c or ceff (what a negative FSR divides)");
		}
		if (a.has("hysteresis"))
			p.hysteresis = a.boolean("hysteresis");
		if (a.has("ingress"))
			p.ingress = a.boolean("ingress");
		if (a.has("hop")) {
			p.hop = static_cast<uint8_t>(a.number("hop", 255));
			if (p.hop == 0)
				fail("hop must be 1..255 (0 means no short-circuit in sc_hop)");
		}
		bool named = endpoint(w[1]).second != "*";
		for (auto [si, pi] : targets(w[1])) {
			SwitchConfig &s = topo.switches[static_cast<size_t>(si)];
			PortConfig &pc = s.ports[static_cast<size_t>(pi)];
			if (named && a.has("ingress") && p.ingress && !pc.server_facing)
				fail("ingress=on on " + s.name + ":" + pc.name +
				     ", a link port: the ingress CP is the uplink's of a host "
				     "(port directive)");
			pc.accurate = p;
		}
	}

	// Host uplinks (uplink.h) on the host ports of TARGET: a named link
	// port is an error, a wildcard skips link ports.  Without xoff and
	// xon the thresholds follow each port's rate; with one of them the
	// other is twice or half of it.  A later line replaces an earlier one.
	void uplink(const std::vector<std::string> &w)
	{
		want_words(w, 2, "uplink TARGET [xoff=SIZE] [xon=SIZE]");
		Attrs a(w, 2, {"xoff", "xon"});
		std::optional<uint64_t> xoff, xon;
		if (a.has("xoff"))
			xoff = a.size("xoff");
		if (a.has("xon"))
			xon = a.size("xon");
		if (xoff && !xon)
			xon = *xoff / 2;
		if (xon && !xoff) {
			if (*xon > kMaxBufferBytes)
				fail("uplink xon above 1 TiB");
			xoff = 2 * *xon;
		}
		if (xoff && (*xoff == 0 || *xoff > kMaxBufferBytes))
			fail("uplink xoff must be between 1 byte and 1 TiB");
		if (xoff && *xon >= *xoff)
			fail("uplink xon must be below xoff");
		bool named = endpoint(w[1]).second != "*";
		bool any = false;
		for (auto [si, pi] : targets(w[1])) {
			SwitchConfig &s = topo.switches[static_cast<size_t>(si)];
			PortConfig &pc = s.ports[static_cast<size_t>(pi)];
			if (!pc.server_facing) {
				if (named)
					fail("uplink on " + s.name + ":" + pc.name +
					     ", a link port: only a host's port (port directive) "
					     "has an uplink");
				continue;
			}
			UplinkParams u = default_uplink_params(pc.rate_bps);
			if (xoff) {
				u.xoff = *xoff;
				u.xon = *xon;
			}
			pc.uplink = u;
			any = true;
		}
		if (!any)
			fail("'" + w[1] + "' matches no host port (port directive)");
	}

	void bts_dscp_directive(const std::vector<std::string> &w)
	{
		if (w.size() != 2)
			fail("usage: bts_dscp N");
		if (bts_dscp_line)
			fail("bts_dscp given twice (first on line " +
			     std::to_string(bts_dscp_line) + ")");
		auto v = parse_uint(w[1]);
		if (!v || *v > 63)
			fail("bad bts_dscp '" + w[1] + "' (0..63)");
		bts_dscp = static_cast<uint8_t>(*v);
		bts_dscp_line = line_no;
	}

	void int_rate_code_directive(const std::vector<std::string> &w)
	{
		if (w.size() != 3)
			fail("usage: int_rate_code CODE RATE|none");
		auto code = parse_uint(w[1]);
		if (!code || *code < kIntFirstConfigurableCode || *code >= kIntRateCodes)
			fail("bad INT rate code '" + w[1] +
			     "' (only 11..15 can be set; 0 is no rate, 1..10 are fixed)");
		auto c = static_cast<size_t>(*code);
		if (code_line[c])
			fail("int_rate_code " + w[1] + " given twice (first on line " +
			     std::to_string(code_line[c]) + ")");
		uint64_t rate = 0;
		if (w[2] != "none") {
			std::string err;
			auto r = units::parse_rate_bps(w[2], &err);
			if (!r)
				fail("rate: " + err);
			if (*r == 0)
				fail("INT rate code " + w[1] +
				     ": rate 0 (use none to unassign it)");
			rate = *r;
		}
		std::string e =
			check_int_rate_code(int_config.rates, static_cast<unsigned>(c), rate);
		if (!e.empty())
			fail(e);
		int_config.rates[c] = rate;
		code_line[c] = line_no;
		// A port already stamping may have lost its code.
		for (const SwitchConfig &s : topo.switches)
			for (const PortConfig &p : s.ports)
				if (p.int_stamp)
					need_int_code(s, p);
	}

	std::array<int, kIntRateCodes> code_line{};

	static std::optional<IpAddr> parse_ip(const std::string &s)
	{
		if (s.find(':') == std::string::npos) {
			std::vector<std::string> parts = split(s, '.');
			if (parts.size() != 4)
				return std::nullopt;
			IpAddr ip;
			for (size_t i = 0; i < 4; i++) {
				auto v = parse_uint(parts[i]);
				if (!v || *v > 255 || parts[i].size() > 3)
					return std::nullopt;
				ip.b[i] = static_cast<uint8_t>(*v);
			}
			return ip;
		}
		return parse_ipv6(s);
	}

	static std::optional<IpAddr> parse_ipv6(const std::string &s)
	{
		// Groups of up to 4 hex digits, at most one "::".
		size_t gap = s.find("::");
		if (gap != std::string::npos && s.find("::", gap + 1) != std::string::npos)
			return std::nullopt;
		auto groups = [](const std::string &part) -> std::optional<std::vector<uint16_t>> {
			std::vector<uint16_t> out;
			if (part.empty())
				return out;
			for (const std::string &g : split(part, ':')) {
				if (g.empty() || g.size() > 4)
					return std::nullopt;
				unsigned v = 0;
				for (char c : g) {
					unsigned d;
					if (c >= '0' && c <= '9')
						d = static_cast<unsigned>(c - '0');
					else if (c >= 'a' && c <= 'f')
						d = static_cast<unsigned>(c - 'a' + 10);
					else if (c >= 'A' && c <= 'F')
						d = static_cast<unsigned>(c - 'A' + 10);
					else
						return std::nullopt;
					v = v * 16 + d;
				}
				out.push_back(static_cast<uint16_t>(v));
			}
			return out;
		};
		std::optional<std::vector<uint16_t>> head, tail;
		if (gap == std::string::npos) {
			head = groups(s);
			tail = std::vector<uint16_t>{};
			if (!head || head->size() != 8)
				return std::nullopt;
		} else {
			head = groups(s.substr(0, gap));
			tail = groups(s.substr(gap + 2));
			if (!head || !tail || head->size() + tail->size() > 7)
				return std::nullopt;
		}
		IpAddr ip;
		ip.v6 = true;
		size_t i = 0;
		for (uint16_t g : *head) {
			ip.b[i++] = static_cast<uint8_t>(g >> 8);
			ip.b[i++] = static_cast<uint8_t>(g & 0xff);
		}
		i = 16 - 2 * tail->size();
		for (uint16_t g : *tail) {
			ip.b[i++] = static_cast<uint8_t>(g >> 8);
			ip.b[i++] = static_cast<uint8_t>(g & 0xff);
		}
		return ip;
	}
};

std::vector<std::string> words_of(std::string_view line)
{
	size_t hash = line.find('#');
	if (hash != std::string_view::npos)
		line = line.substr(0, hash);
	std::vector<std::string> w;
	size_t i = 0;
	while (i < line.size()) {
		while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		size_t start = i;
		while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			i++;
		if (i > start)
			w.emplace_back(line.substr(start, i - start));
	}
	return w;
}

} // namespace

TopologyResult parse_topology(std::string_view text)
{
	TopologyResult res;
	Parser parser;
	size_t pos = 0;
	try {
		while (pos <= text.size()) {
			size_t nl = text.find('\n', pos);
			std::string_view line = text.substr(pos, nl == std::string_view::npos
			                                                 ? std::string_view::npos
			                                                 : nl - pos);
			parser.line_no++;
			std::vector<std::string> w = words_of(line);
			if (!w.empty())
				parser.line(w);
			if (nl == std::string_view::npos)
				break;
			pos = nl + 1;
		}
		for (SwitchConfig &s : parser.topo.switches) {
			s.int_config.udp_port = parser.int_config.udp_port;
			s.int_config.rates = parser.int_config.rates;
			s.sfc.bts_port = parser.bts_port;
			s.sfc.bts_dscp = parser.bts_dscp;
		}
		// Checks that need the whole file, reported at the switch's line.
		parser.line_no = 0;
		for (size_t i = 0; i < parser.topo.switches.size(); i++) {
			parser.line_no = parser.switch_line[i];
			std::string e = validate(parser.topo.switches[i]);
			if (!e.empty())
				fail(e);
			parser.unique_int_id(i);
		}
		parser.line_no = 0;
		if (parser.topo.switches.empty())
			fail("no switch declared");
		std::string e = validate(parser.topo);
		if (!e.empty())
			fail(e);
	} catch (const Failure &f) {
		res.error = {parser.line_no, f.message};
		return res;
	}
	res.topology = std::move(parser.topo);
	return res;
}

} // namespace rxecc::fabric
