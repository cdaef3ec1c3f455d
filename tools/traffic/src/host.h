// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One host of rxecc-traffic: every flow it drives or receives, over
// rdma_cm and libibverbs, in one thread: listen, connect, wait for T0, start
// each flow at its time, collect completions, write DIR/HOST/.
#ifndef RXECC_TRAFFIC_HOST_H
#define RXECC_TRAFFIC_HOST_H

#include <cstdint>
#include <optional>
#include <string>

#include "hosts.h"
#include "schedule.h"

namespace rxecc::traffic
{

enum class MessageLog { kAuto, kAll, kNone };

struct HostConfig {
	const Schedule *schedule = nullptr;
	const Hosts *hosts = nullptr;
	std::string host;
	std::string out_dir;
	std::string mode; // "launch" or "run", for host.json
	std::uint64_t bin_ns = 1000000;
	MessageLog messages = MessageLog::kAuto;
	std::uint16_t port = 18520;
	std::uint64_t connect_timeout_ns = 30000000000ULL;
	std::uint64_t spin_ns = 20000000;
	bool busy_poll = false;
	// SCHED_FIFO priority of the host process, 0 = normal scheduling
	int rt_priority = 10;
	// After T0; unset: the last scheduled start or end plus 120 s.
	std::optional<std::uint64_t> deadline_ns;
};

// How the host learns when to connect and when T0 is, and tells how far it
// got: through the launcher's pipe, or on its own (run).
class Coordinator
{
public:
	virtual ~Coordinator() = default;
	// A descriptor to watch for messages (-1: none); on_readable() reads it.
	virtual int fd() const = 0;
	// Reads what arrived on fd(). Returns false if the peer is gone.
	virtual bool on_readable() = 0;
	virtual void listening() = 0;
	// Whether to start connecting now.
	virtual bool may_connect() const = 0;
	virtual void ready(unsigned ok_flows, unsigned failed_flows) = 0;
	// T0 on CLOCK_MONOTONIC once known.
	virtual std::optional<std::int64_t> t0_mono() const = 0;
	// The same instant on CLOCK_REALTIME (for host.json).
	virtual std::optional<std::int64_t> t0_real() const = 0;
	// Set when the run is to end early (stop, abort); the flows then get
	// this status.
	virtual std::optional<std::string> stop_status() const = 0;
	// A fatal error before the host could listen or connect.
	virtual void failed(const std::string &why) = 0;
	virtual void done(int status) = 0;
};

// Runs the host; returns the exit status (0: every flow it drove and
// received ended ok; 1: some did not, or a fatal error).
int run_host(const HostConfig &cfg, Coordinator &coord);

} // namespace rxecc::traffic

#endif // RXECC_TRAFFIC_HOST_H
