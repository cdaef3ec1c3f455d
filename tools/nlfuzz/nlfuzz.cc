// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-nlfuzz: seeded, bounded fuzzing of the rxe_cc generic netlink
// family, sent around rxecc's own parser (Documentation/rxe-cc/testing.rst).
#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <map>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <random>
#include <rdma/rxe_cc.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <vector>

#include "gen.h"
#include "nlattr.h"

using rxecc::nlfuzz::AlgoDesc;
using rxecc::nlfuzz::Expect;
using rxecc::nlfuzz::Generator;
using rxecc::nlfuzz::Request;
using rxecc::nlfuzz::Target;

namespace
{

// One reply message: its command and attribute bytes.
struct Reply {
	std::uint8_t cmd = 0;
	std::vector<std::uint8_t> attrs;
};

// What the kernel answered to one request.
struct Answer {
	int err = 0;           // 0 or a positive errno
	std::string msg;       // NLMSGERR_ATTR_MSG
	int miss_type = -1;    // NLMSGERR_ATTR_MISS_TYPE
	bool offs = false;     // NLMSGERR_ATTR_OFFS
	bool io_error = false; // the exchange itself failed
	std::vector<Reply> replies;
	bool has_extack() const { return !msg.empty() || miss_type >= 0; }
	std::string extack() const
	{
		if (!msg.empty())
			return msg;
		if (miss_type >= 0)
			return "missing attribute " + std::to_string(miss_type);
		return "";
	}
};

class Socket
{
public:
	bool open(std::string &why)
	{
		sk_ = nl_socket_alloc();
		if (!sk_ || genl_connect(sk_) < 0) {
			why = "cannot open a generic netlink socket";
			return false;
		}
		nl_socket_disable_seq_check(sk_);
		nl_socket_enable_msg_peek(sk_);
		int one = 1;
		setsockopt(nl_socket_get_fd(sk_), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
		setsockopt(nl_socket_get_fd(sk_), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
		family_ = genl_ctrl_resolve(sk_, RXE_CC_GENL_NAME);
		if (family_ < 0) {
			why = "generic netlink family " RXE_CC_GENL_NAME
			      " not found (module not loaded?)";
			return false;
		}
		return true;
	}
	~Socket()
	{
		if (sk_)
			nl_socket_free(sk_);
	}

	Answer send(std::uint8_t cmd, bool dump, const std::vector<std::uint8_t> &attrs)
	{
		Answer a;
		struct nl_msg *m = nlmsg_alloc();
		if (!m) {
			a.io_error = true;
			return a;
		}
		genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, dump ? NLM_F_DUMP : NLM_F_ACK,
		            cmd, RXE_CC_GENL_VERSION);
		// exact bytes: no padding, so that trailing bytes stay trailing
		if (!attrs.empty() && nlmsg_append(m, const_cast<std::uint8_t *>(attrs.data()),
		                                   attrs.size(), 0) < 0) {
			nlmsg_free(m);
			a.io_error = true;
			return a;
		}
		int n = nl_send_auto(sk_, m);
		std::uint32_t seq = nlmsg_hdr(m)->nlmsg_seq;
		nlmsg_free(m);
		if (n < 0) {
			a.io_error = true;
			return a;
		}
		for (;;) {
			struct sockaddr_nl peer;
			unsigned char *buf = nullptr;
			int len = nl_recv(sk_, &peer, &buf, nullptr);
			if (len <= 0) {
				free(buf);
				a.io_error = true;
				return a;
			}
			bool done = false;
			for (auto *h = reinterpret_cast<struct nlmsghdr *>(buf); nlmsg_ok(h, len);
			     h = nlmsg_next(h, &len)) {
				if (h->nlmsg_seq != seq)
					continue;
				if (h->nlmsg_type == NLMSG_ERROR) {
					parse_error(h, a);
					done = true;
				} else if (h->nlmsg_type == NLMSG_DONE) {
					int e = 0;
					if (nlmsg_datalen(h) >= 4)
						std::memcpy(&e, nlmsg_data(h), 4);
					a.err = e < 0 ? -e : 0;
					parse_tlvs(h, 4, a);
					done = true;
				} else if (h->nlmsg_type == family_) {
					auto *g = static_cast<struct genlmsghdr *>(nlmsg_data(h));
					Reply r;
					r.cmd = g->cmd;
					const auto *p = reinterpret_cast<const std::uint8_t *>(
						genlmsg_attrdata(g, 0));
					r.attrs.assign(p, p + genlmsg_attrlen(g, 0));
					a.replies.push_back(std::move(r));
				}
			}
			free(buf);
			if (done)
				return a;
		}
	}

private:
	static void parse_tlvs(const struct nlmsghdr *h, std::size_t skip, Answer &a)
	{
		if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
			return;
		std::size_t payload = h->nlmsg_len - NLMSG_HDRLEN;
		skip = NLMSG_ALIGN(skip);
		if (skip > payload)
			return;
		std::vector<rxecc::nl::Attr> at;
		const auto *base = reinterpret_cast<const std::uint8_t *>(h) + NLMSG_HDRLEN + skip;
		if (!rxecc::nl::parse_attrs(base, payload - skip, at))
			return;
		for (const auto &x : at) {
			if (x.type == NLMSGERR_ATTR_MSG)
				a.msg = x.as_string();
			else if (x.type == NLMSGERR_ATTR_MISS_TYPE)
				a.miss_type = static_cast<int>(x.as_uint().value_or(0));
			else if (x.type == NLMSGERR_ATTR_OFFS)
				a.offs = true;
		}
	}
	static void parse_error(const struct nlmsghdr *h, Answer &a)
	{
		struct nlmsgerr e;
		if (nlmsg_datalen(h) < static_cast<int>(sizeof(e)))
			return;
		std::memcpy(&e, nlmsg_data(h), sizeof(e));
		a.err = e.error < 0 ? -e.error : e.error;
		std::size_t skip = sizeof(e);
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			skip += e.msg.nlmsg_len - NLMSG_HDRLEN;
		parse_tlvs(h, skip, a);
	}

	struct nl_sock *sk_ = nullptr;
	int family_ = -1;
};

std::vector<rxecc::nl::Attr> attrs_of(const std::vector<std::uint8_t> &b)
{
	std::vector<rxecc::nl::Attr> v;
	rxecc::nl::parse_attrs(b.data(), b.size(), v);
	return v;
}

const rxecc::nl::Attr *find(const std::vector<rxecc::nl::Attr> &v, std::uint16_t type)
{
	for (const auto &a : v)
		if (a.type == type)
			return &a;
	return nullptr;
}

std::string bytes_of(const rxecc::nl::Attr *a)
{
	return a ? std::string(reinterpret_cast<const char *>(a->data), a->len) : std::string("-");
}

// Registered algorithms and their parameters, from the ALGO_GET dump.
std::vector<AlgoDesc> read_algos(Socket &s)
{
	std::vector<AlgoDesc> out;
	Answer a = s.send(RXE_CC_CMD_ALGO_GET, true, {});
	for (const Reply &r : a.replies) {
		auto top = attrs_of(r.attrs);
		const auto *name = find(top, RXE_CC_A_ALGO);
		if (!name)
			continue;
		AlgoDesc d;
		d.name = name->as_string();
		if (const auto *ps = find(top, RXE_CC_A_PARAMS)) {
			std::vector<rxecc::nl::Attr> list;
			rxecc::nl::parse_nested(*ps, list);
			for (const auto &p : list) {
				std::vector<rxecc::nl::Attr> f;
				rxecc::nl::parse_nested(p, f);
				rxecc::nlfuzz::ParamDesc pd;
				if (const auto *n = find(f, RXE_CC_A_P_NAME))
					pd.name = n->as_string();
				if (const auto *n = find(f, RXE_CC_A_P_RANGE_MIN))
					pd.min = static_cast<std::uint32_t>(
						n->as_uint().value_or(0));
				if (const auto *n = find(f, RXE_CC_A_P_RANGE_MAX))
					pd.max = static_cast<std::uint32_t>(
						n->as_uint().value_or(0));
				d.params.push_back(pd);
			}
		}
		out.push_back(d);
	}
	return out;
}

// The configuration of the owned devices and their QPs, as the kernel
// reports it: per device its DEV_GET (and DEV_GET for every algorithm),
// per QP its algorithm and parameters. Rates, state and counters move
// with traffic and are left out.
struct Snapshot {
	std::map<std::string, std::string> dev;                          // key -> bytes
	std::map<std::pair<std::string, std::uint32_t>, std::string> qp; // (dev, qpn)
	std::vector<std::uint32_t> qpns;
};

bool snapshot(Socket &s, const std::vector<std::string> &devs, const std::vector<AlgoDesc> &algos,
              Snapshot &out, std::string &why)
{
	out = Snapshot();
	for (const std::string &d : devs) {
		std::vector<std::string> picks{""};
		for (const auto &a : algos)
			picks.push_back(a.name);
		for (const std::string &p : picks) {
			rxecc::nl::AttrWriter w;
			w.put_string(RXE_CC_A_DEV_NAME, d);
			if (!p.empty())
				w.put_string(RXE_CC_A_ALGO, p);
			Answer a = s.send(RXE_CC_CMD_DEV_GET, false, w.bytes());
			if (a.io_error || a.err || a.replies.size() != 1) {
				why = "DEV_GET " + d + (p.empty() ? "" : " algo " + p) +
				      " failed: " +
				      (a.io_error ? "I/O error" : std::strerror(a.err)) + " " +
				      a.extack();
				return false;
			}
			out.dev[d + "/" + p] =
				std::string(a.replies[0].attrs.begin(), a.replies[0].attrs.end());
		}
		rxecc::nl::AttrWriter w;
		w.put_string(RXE_CC_A_DEV_NAME, d);
		Answer a = s.send(RXE_CC_CMD_QP_GET, true, w.bytes());
		if (a.io_error || a.err) {
			why = "QP_GET dump of " + d +
			      " failed: " + (a.io_error ? "I/O error" : std::strerror(a.err));
			return false;
		}
		for (const Reply &r : a.replies) {
			auto top = attrs_of(r.attrs);
			const auto *q = find(top, RXE_CC_A_QPN);
			const auto *dn = find(top, RXE_CC_A_DEV_NAME);
			if (!q || !dn || dn->as_string() != d)
				continue;
			std::uint32_t qpn = static_cast<std::uint32_t>(q->as_uint().value_or(0));
			out.qp[{d, qpn}] = bytes_of(find(top, RXE_CC_A_ALGO)) + "|" +
			                   bytes_of(find(top, RXE_CC_A_PARAMS));
			out.qpns.push_back(qpn);
		}
	}
	return true;
}

// What differs between two snapshots (QPs present in both only: traffic
// creates and destroys QPs meanwhile).
std::string diff(const Snapshot &a, const Snapshot &b)
{
	std::string out;
	for (const auto &[k, v] : a.dev) {
		auto it = b.dev.find(k);
		if (it == b.dev.end() || it->second != v)
			out += " device " + k;
	}
	for (const auto &[k, v] : a.qp) {
		auto it = b.qp.find(k);
		if (it != b.qp.end() && it->second != v)
			out += " QP " + k.first + "/" + std::to_string(k.second);
	}
	return out;
}

std::string hex(const std::vector<std::uint8_t> &b)
{
	std::string s;
	char t[4];
	for (std::uint8_t x : b) {
		std::snprintf(t, sizeof(t), "%02x", x);
		s += t;
	}
	return s;
}

std::string read_taint()
{
	std::ifstream f("/proc/sys/kernel/tainted");
	std::string s;
	std::getline(f, s);
	return s;
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{
		"rxecc-nlfuzz: send seeded random, boundary and malformed requests of the rxe_cc "
		"generic netlink family to the kernel and check its answers: every bad request "
		"refused with an extended ACK message and the configuration read back unchanged, "
		"no kernel taint. Needs CAP_NET_ADMIN for the SET commands."};
	std::uint64_t seed = 0;
	bool seed_given = false;
	unsigned requests = 2000;
	double seconds = 0;
	unsigned at_least = 0;
	long only = -1;
	unsigned check_every = 1;
	std::vector<std::string> devs;
	bool verbose = false;
	app.add_option("--dev", devs,
	               "an rxe device this process may change (repeatable); "
	               "other devices are only read")
		->required();
	app.add_option("--seed", seed, "the seed (default: from the clock; printed)")
		->each([&](const std::string &) { seed_given = true; });
	app.add_option("--requests", requests, "requests to send (default 2000)")
		->check(CLI::Range(1U, 10000000U));
	app.add_option("--seconds", seconds, "stop after this many seconds (default: no limit)")
		->check(CLI::Range(0.0, 86400.0));
	app.add_option("--at-least", at_least,
	               "--seconds does not stop the run before this many requests were sent "
	               "(default 0): a slow machine sends as many, only later")
		->check(CLI::Range(0U, 10000000U))
		->needs("--seconds");
	app.add_option("--only", only,
	               "send only request N of the seed's sequence (to reproduce a failure)")
		->check(CLI::Range(0L, 10000000L));
	app.add_option("--check-every", check_every,
	               "read the configuration back after every N-th request (default 1)")
		->check(CLI::Range(1U, 1000000U));
	app.add_flag("-v,--verbose", verbose, "print every request and its answer");
	std::string log_path;
	app.add_option("--log", log_path,
	               "write every accepted request that may change the configuration to "
	               "FILE, one line each: seconds since the start, request number, what "
	               "it set (to see what ran before something beside the fuzzer failed)")
		->type_name("FILE");
	CLI11_PARSE(app, argc, argv);

	if (!seed_given)
		seed = static_cast<std::uint64_t>(
			       std::chrono::steady_clock::now().time_since_epoch().count()) ^
		       std::random_device{}();
	std::printf("rxecc-nlfuzz: seed %llu, devices", static_cast<unsigned long long>(seed));
	for (const auto &d : devs)
		std::printf(" %s", d.c_str());
	std::printf("\n");
	std::fflush(stdout);

	Socket s;
	std::string why;
	if (!s.open(why)) {
		std::fprintf(stderr, "rxecc-nlfuzz: %s\n", why.c_str());
		return 1;
	}
	std::vector<AlgoDesc> algos = read_algos(s);
	if (algos.empty()) {
		std::fprintf(stderr, "rxecc-nlfuzz: the ALGO_GET dump returned no algorithm\n");
		return 1;
	}
	Snapshot before;
	if (!snapshot(s, devs, algos, before, why)) {
		std::fprintf(stderr, "rxecc-nlfuzz: %s\n", why.c_str());
		return 1;
	}
	std::string taint0 = read_taint();
	Target t;
	t.devs = devs;
	t.algos = algos;
	t.qpns = before.qpns;

	FILE *logf = nullptr;
	if (!log_path.empty()) {
		logf = std::fopen(log_path.c_str(), "w");
		if (!logf) {
			std::fprintf(stderr, "rxecc-nlfuzz: %s: %s\n", log_path.c_str(),
			             std::strerror(errno));
			return 1;
		}
	}

	Generator g(seed);
	unsigned long sent = 0, rejected = 0, accepted = 0, core = 0, failures = 0;
	std::map<int, unsigned long> by_errno;
	auto t0 = std::chrono::steady_clock::now();
	auto fail = [&](unsigned long n, const Request &r, const std::string &what) {
		failures++;
		std::printf(
			"FAIL request %lu (%s, cmd %u%s, expect %s): %s\n  attrs %s\n  reproduce: "
			"rxecc-nlfuzz --seed %llu --only %lu",
			n, r.what.c_str(), r.cmd, r.dump ? " dump" : "",
			rxecc::nlfuzz::expect_name(r.expect), what.c_str(), hex(r.attrs).c_str(),
			static_cast<unsigned long long>(seed), n);
		for (const auto &d : devs)
			std::printf(" --dev %s", d.c_str());
		std::printf("\n");
	};
	for (unsigned long n = 0; n < requests; n++) {
		if (seconds > 0 && sent >= at_least &&
		    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >
		            seconds)
			break;
		Request r = g.next(t);
		if (only >= 0 && static_cast<long>(n) != only) {
			if (static_cast<long>(n) > only)
				break;
			continue;
		}
		Answer a = s.send(r.cmd, r.dump, r.attrs);
		sent++;
		if (a.io_error) {
			fail(n, r, "the netlink exchange failed");
			break;
		}
		if (a.err)
			by_errno[a.err]++;
		if (verbose)
			std::printf("%lu: %s -> %s %s\n", n, r.what.c_str(),
			            a.err ? std::strerror(a.err) : "ok", a.extack().c_str());
		bool ok_answer = true;
		if (r.expect == Expect::kCore) {
			core++;
			if (a.err != EOPNOTSUPP) {
				fail(n, r,
				     std::string("expected EOPNOTSUPP, got ") +
				             (a.err ? std::strerror(a.err) : "success"));
				ok_answer = false;
			}
		} else if (a.err) {
			rejected++;
			if (!a.has_extack()) {
				fail(n, r,
				     std::string("refused (") + std::strerror(a.err) +
				             ") without an extack message");
				ok_answer = false;
			}
		} else {
			accepted++;
			if (logf && r.may_change) {
				double at = std::chrono::duration<double>(
						    std::chrono::steady_clock::now() - t0)
				                    .count();
				std::fprintf(logf, "%.3f %lu %s\n", at, n, r.what.c_str());
				std::fflush(logf);
			}
			if (r.expect == Expect::kReject) {
				fail(n, r, "a bad request was accepted");
				ok_answer = false;
			}
		}
		bool changed_ok = !a.err && r.may_change;
		if (!ok_answer && !a.err)
			changed_ok = true; // reported above; take the new state as the base
		if (changed_ok || n % check_every == 0 || only >= 0) {
			Snapshot now;
			if (!snapshot(s, devs, algos, now, why)) {
				fail(n, r, "reading the configuration back: " + why);
				break;
			}
			if (!changed_ok) {
				std::string d = diff(before, now);
				if (!d.empty())
					fail(n, r, "the configuration changed:" + d);
			}
			before = now;
			t.qpns = now.qpns;
		}
	}
	if (logf)
		std::fclose(logf);
	std::string taint1 = read_taint();
	if (taint1 != taint0) {
		failures++;
		std::printf("FAIL the kernel's taint changed from %s to %s (a WARN, an oops: see "
		            "dmesg)\n",
		            taint0.c_str(), taint1.c_str());
	}
	double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	std::printf(
		"rxecc-nlfuzz: seed %llu: %lu requests in %.1f s: %lu refused with an extack, %lu "
		"refused by the genetlink core, %lu accepted; %lu failures\n",
		static_cast<unsigned long long>(seed), sent, secs, rejected, core, accepted,
		failures);
	std::printf("rxecc-nlfuzz: errors:");
	for (const auto &[e, c] : by_errno)
		std::printf(" %s=%lu",
		            strerrorname_np(e) ? strerrorname_np(e) : std::to_string(e).c_str(), c);
	std::printf("\n");
	return failures ? 1 : 0;
}
