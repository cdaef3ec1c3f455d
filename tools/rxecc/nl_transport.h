// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The real Transport: a generic netlink socket through libnl-genl, with
// extended ACKs enabled so that the kernel's error messages reach the
// operator.
#ifndef RXECC_NL_TRANSPORT_H
#define RXECC_NL_TRANSPORT_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "transport.h"

struct nl_sock;
struct nlmsghdr;

namespace rxecc
{

class NlTransport : public Transport
{
public:
	// Connect and resolve `family`; Status::kNoFamily if the kernel does
	// not know it. `stop` tells wait_events() that a signal asked to stop.
	static Status open(const std::string &family, std::uint8_t version,
	                   std::function<bool()> stop, std::unique_ptr<NlTransport> &out);
	~NlTransport() override;

	NlTransport(const NlTransport &) = delete;
	NlTransport &operator=(const NlTransport &) = delete;

	Status request(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies) override;
	Status subscribe_events() override;
	Status wait_events(std::uint64_t timeout_ns, std::vector<GenlMsg> &events) override;

	// Join multicast group `group` of the family (subscribe_events() joins
	// RXE_CC_MCGRP_EVENTS).
	Status subscribe(const std::string &group);

private:
	NlTransport() = default;

	struct nl_sock *sk_ = nullptr;
	struct nl_sock *ev_ = nullptr;
	int family_id_ = 0;
	std::string family_;
	std::uint8_t version_ = 0;
	std::function<bool()> stop_;
};

// The extended ACK message (NLMSGERR_ATTR_MSG) of an NLMSG_ERROR or an
// NLMSG_DONE message, or "" if it has none; with error 0 it is a warning.
// `nlh` points at `len` bytes.
std::string extack_message(const struct nlmsghdr *nlh, std::size_t len);

} // namespace rxecc

#endif // RXECC_NL_TRANSPORT_H
