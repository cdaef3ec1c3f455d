// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A fake rxe_cc kernel family for the rxecc tests: it keeps devices, QPs and
// algorithms, parses requests with libnl's own attribute parser (with the
// strict checks of the kernel's policies: exact sizes, NLA_F_NESTED),
// answers with messages built by libnl, range-checks writes all-or-nothing
// with extack messages, warns about a doubtful DCQCN setting in the extack
// of a success, and records every request. Its errnos, messages and reply
// layout follow drivers/infiniband/sw/rxe/rxe_cc_nl.c.
#ifndef RXECC_TEST_FAKE_KERNEL_H
#define RXECC_TEST_FAKE_KERNEL_H

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli.h"
#include "transport.h"

namespace rxecc::test
{

using Values = std::vector<std::pair<std::string, std::uint64_t>>;

struct FakeParam {
	std::string name;
	std::uint32_t unit;
	std::uint32_t def, min, max;
	std::string help;
};

struct FakeAlgo {
	std::string name;
	std::vector<FakeParam> params;
	std::vector<std::pair<std::string, std::uint32_t>> state; // name, unit

	Values defaults() const;
};

struct FakeQp {
	std::uint32_t qpn = 0;
	std::string algo;
	Values params;
	std::uint64_t rate = 0, window = 0;
	bool rc = true; // CC runs on RC QPs only
	Values state;
	Values stats;     // SFC's (bts_*, pause_*, paused_us) among them
	bool sfc = false; // takes BTS
};

struct FakeDev {
	std::string name;
	std::uint32_t index = 0;
	std::string algo = "none";
	std::map<std::string, Values> params; // per algorithm
	// per algorithm, the parameters the user set (RXE_CC_A_P_USER)
	std::map<std::string, std::set<std::string>> user;
	std::uint64_t line_rate = 0, base_rtt = 0;
	std::uint8_t ecn = 0;
	std::uint32_t ack_every = 0;
	std::uint8_t cnp_dscp = 48, ack_dscp = 255;
	// priority of each DSCP; the module parameter's default 26:3,48:6
	std::array<std::uint8_t, 64> dscp_prio = conventional_dscp_prio();
	// SFC: new QPs take BTS; ceiling of a pause, us; RXE_CC_SFC_MODE_*
	std::uint8_t sfc = 0;
	std::uint32_t sfc_max_us = 50000;
	std::uint8_t sfc_mode = 0;
	std::vector<FakeQp> qps;
	Values stats;

	static std::array<std::uint8_t, 64> conventional_dscp_prio();

	FakeQp *qp(std::uint32_t qpn);
};

class FakeClock : public Clock
{
public:
	std::uint64_t now = 1000000000ULL;
	std::vector<std::uint64_t> sleeps; // deadlines asked for
	// Act as if Ctrl-C came during sleep number `interrupt_at` (1-based).
	std::size_t interrupt_at = 0;
	bool stopped = false;
	bool signals_caught = false;
	// Extra time each request takes (a slow kernel).
	std::uint64_t request_ns = 0;

	std::uint64_t now_ns() override { return now; }
	bool sleep_until(std::uint64_t deadline) override;
	bool stop_requested() override { return stopped; }
	void catch_stop_signals() override { signals_caught = true; }
};

struct Call {
	std::uint8_t cmd;
	bool dump;
	std::vector<std::uint8_t> attrs;
};

class FakeKernel : public Transport
{
public:
	explicit FakeKernel(FakeClock *clock = nullptr);

	// Two devices, rxe0 (dcqcn default, SFC on, QPs 17 and 18) and rxe1
	// (none, SFC off, QP 5), and the algorithms none, fixed and dcqcn (a
	// subset of its parameters). QP 17 takes BTS and has been paused.
	static std::vector<FakeAlgo> standard_algos();
	void standard_setup();

	std::vector<FakeAlgo> algos;
	std::vector<FakeDev> devs;
	bool admin = true;
	// QP_GET replies wrap the STATE nests in STATE_NAMES, as the kernel
	// does; false repeats STATE at the top level, as the header reads.
	bool state_in_names_nest = true;
	// false: a kernel from before SFC, whose replies lack the SFC
	// attributes and whose policy refuses them in requests.
	bool sfc_attrs = true;
	// Errors for the next requests of a command: errno, extack.
	std::map<std::uint8_t, std::pair<int, std::string>> fail_next;
	// Called before every request with its command, e.g. to move rates
	// or counters between two polls.
	std::function<void(FakeKernel &, std::uint8_t cmd)> before;

	// Called with the replies of every successful request, to break them.
	std::function<void(std::uint8_t cmd, std::vector<GenlMsg> &replies)> mangle;

	std::vector<Call> calls;
	std::size_t count(std::uint8_t cmd) const;

	// Multicast events: (time, message), delivered in time order.
	std::vector<std::pair<std::uint64_t, GenlMsg>> events;
	bool subscribed = false;

	Status request(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies) override;
	Status handle(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies);
	Status subscribe_events() override;
	Status wait_events(std::uint64_t timeout_ns, std::vector<GenlMsg> &out) override;

	FakeDev *dev(const std::string &name);
	const FakeAlgo *algo(const std::string &name) const;

	// A RATE_EVENT message as the kernel would multicast it, with the
	// QP's state values (STATE_NAMES) and counters (QP_STATS).
	static GenlMsg rate_event(const std::string &dev, std::uint32_t qpn,
	                          const std::string &algo, std::uint64_t rate, std::uint64_t window,
	                          std::uint64_t time_ns, std::uint32_t ev, const Values &state = {},
	                          const Values &stats = {});

private:
	FakeClock *clock_;
};

// A Transport that forwards to a FakeKernel it does not own.
class Proxy : public Transport
{
public:
	explicit Proxy(FakeKernel &k) : k_(k) {}
	Status request(const GenlMsg &req, bool dump, std::vector<GenlMsg> &r) override
	{
		return k_.request(req, dump, r);
	}
	Status subscribe_events() override { return k_.subscribe_events(); }
	Status wait_events(std::uint64_t t, std::vector<GenlMsg> &e) override
	{
		return k_.wait_events(t, e);
	}

private:
	FakeKernel &k_;
};

struct RunResult {
	int code = -1;
	std::string out, err;
	int connects = 0;
};

// Runs rxecc with `args` against `k`. With `no_family`, connecting fails as
// when the module is not loaded.
RunResult run_rxecc(FakeKernel &k, FakeClock &clock, const std::vector<std::string> &args,
                    bool no_family = false);

} // namespace rxecc::test

#endif // RXECC_TEST_FAKE_KERNEL_H
