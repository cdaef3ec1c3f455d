// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Attachment specs of external ports (the -a option and the topology's
// attach= attribute):
//
//   if:IFNAME                      AF_PACKET socket on a network interface
//   dgram:LHOST:LPORT:RHOST:RPORT  UDP socket bound to LHOST:LPORT sending to
//                                  RHOST:RPORT, one frame per datagram
//   dgram:LPATH:RPATH              unix datagram socket bound to LPATH sending
//                                  to RPATH (absolute paths without ':'); a
//                                  full receiver holds frames, nothing is lost
//   stream:PATH                    listening unix stream socket, frames with a
//                                  4-byte big-endian length prefix
//
// Hosts are numeric: IPv4 (127.0.0.1), IPv6 in brackets ([::1]), or
// "localhost" (127.0.0.1).  Ports are 1..65535.  Parsing is pure; whether
// an interface exists is checked by resolve_attachments().
#ifndef RXECC_FABRIC_PROC_ATTACH_H
#define RXECC_FABRIC_PROC_ATTACH_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cli.h"
#include "switch_config.h"

namespace rxecc::fabric::proc
{

struct InetAddr {
	bool v6 = false;
	std::array<uint8_t, 16> addr{}; // IPv4 in the first 4 bytes
	uint16_t port = 0;
	std::string to_string() const; // 127.0.0.1:5000, [::1]:5000
	bool operator==(const InetAddr &o) const
	{
		return v6 == o.v6 && addr == o.addr && port == o.port;
	}
};

enum class AttachKind { kIf, kDgram, kUnixDgram, kStream };

inline constexpr size_t kMaxUnixPath = 107;

struct AttachSpec {
	AttachKind kind = AttachKind::kIf;
	std::string ifname;      // if:
	InetAddr local, remote;  // dgram: (UDP)
	std::string path;        // stream:, dgram: (unix, local)
	std::string remote_path; // dgram: (unix)
	std::string text;        // as written
	// The resource the port owns, for duplicate detection.
	std::string resource() const;
};

bool parse_attach_spec(const std::string &s, AttachSpec &out, std::string &err);

// An external port with its attachment.
struct PortAttachment {
	int sw = -1;
	int port = -1;
	std::string name; // SW:PORT
	AttachSpec spec;
};

// Every external port of topo with its attachment: attach= of the topology,
// overridden by args.  All problems are reported (one per line in *err):
// bad specs, unknown or internal ports, a port given twice in args, two
// ports on one resource, unattached ports, and (if check_interfaces)
// interfaces that do not exist.
bool resolve_attachments(const Topology &topo, const std::vector<AttachArg> &args,
                         bool check_interfaces, std::vector<PortAttachment> &out, std::string &err);

} // namespace rxecc::fabric::proc

#endif
