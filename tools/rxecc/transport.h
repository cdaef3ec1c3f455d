// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The seam between the command logic and the kernel: a Transport sends one
// generic netlink request of the rxe_cc family and returns the replies. The
// real one (nl_transport.h) uses libnl; the tests use a fake kernel.
#ifndef RXECC_TRANSPORT_H
#define RXECC_TRANSPORT_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rxecc
{

// One generic netlink message of the family: the command and the attribute
// bytes after the genlmsghdr.
struct GenlMsg {
	std::uint8_t cmd = 0;
	std::vector<std::uint8_t> attrs;
};

struct Status {
	enum Kind {
		kOk,
		kKernel,      // the kernel answered with an error: err, extack
		kNoFamily,    // the rxe_cc family is not registered
		kSystem,      // socket-level failure: err, detail
		kMalformed,   // a reply that does not follow the ABI: detail
		kInterrupted, // a signal asked to stop
	};
	Kind kind = kOk;
	int err = 0; // positive errno
	// The kernel's extended ACK message, if any: why it refused the
	// request, or with kOk a warning about a legal but doubtful setting.
	std::string extack;
	std::string detail; // what failed, for kSystem and kMalformed

	bool ok() const { return kind == kOk; }
	static Status kernel(int err, std::string extack = {})
	{
		Status s;
		s.kind = kKernel;
		s.err = err;
		s.extack = std::move(extack);
		return s;
	}
	static Status system(int err, std::string detail)
	{
		Status s;
		s.kind = kSystem;
		s.err = err;
		s.detail = std::move(detail);
		return s;
	}
	static Status malformed(std::string detail)
	{
		Status s;
		s.kind = kMalformed;
		s.detail = std::move(detail);
		return s;
	}
	static Status interrupted()
	{
		Status s;
		s.kind = kInterrupted;
		return s;
	}
};

class Transport
{
public:
	virtual ~Transport() = default;

	// Send `req` (with NLM_F_DUMP if `dump`) and collect every reply message
	// until the ACK or the end of the dump. On a kernel error the replies
	// received before it are kept. A success may carry a warning in
	// Status::extack.
	virtual Status request(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies) = 0;

	// Join the RXE_CC_MCGRP_EVENTS multicast group.
	virtual Status subscribe_events() = 0;

	// Wait up to `timeout_ns` for event messages and append them to
	// `events`. Returns kInterrupted if a signal asked to stop.
	virtual Status wait_events(std::uint64_t timeout_ns, std::vector<GenlMsg> &events) = 0;
};

// Monotonic time and sleeping, replaceable in tests.
class Clock
{
public:
	virtual ~Clock() = default;
	// CLOCK_MONOTONIC nanoseconds (the clock of RXE_CC_A_TIME_NS).
	virtual std::uint64_t now_ns() = 0;
	// Sleep until `deadline_ns`; false if a signal asked to stop.
	virtual bool sleep_until(std::uint64_t deadline_ns) = 0;
	// True once a signal asked to stop.
	virtual bool stop_requested() = 0;
	// From now on, SIGINT and SIGTERM ask to stop instead of killing the
	// process (for the commands that run until interrupted).
	virtual void catch_stop_signals() {}
};

} // namespace rxecc

#endif // RXECC_TRANSPORT_H
