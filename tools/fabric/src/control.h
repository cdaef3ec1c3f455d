// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The control socket of a running fabric (--control PATH): a unix stream
// socket; a client writes one line ("stats", "flat" or "quit"), gets the
// JSON summary, the flat text or "ok", then EOF.  Anything else gets
// "error: ..." and EOF.  Everything is non-blocking and driven by the event
// loop's epoll; a client that stalls is dropped after a timeout.
#ifndef RXECC_FABRIC_PROC_CONTROL_H
#define RXECC_FABRIC_PROC_CONTROL_H

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "cli.h"
#include "packet.h"

namespace rxecc::fabric::proc
{

inline constexpr size_t kMaxRequestLine = 64;

// Parsing of the bytes a client sent so far.
struct RequestParse {
	enum Status { kIncomplete, kOk, kError } status = kIncomplete;
	ControlRequest request = ControlRequest::kStats;
	std::string error;
};
// A line ends at '\n' ("\r\n" too); at EOF (eof) the text so far counts as
// the line.  Longer than kMaxRequestLine without an end is an error.
RequestParse parse_request(const std::string &buf, bool eof);

class ControlServer
{
public:
	using Handler = std::function<std::string(ControlRequest)>;

	ControlServer() = default;
	~ControlServer();
	ControlServer(const ControlServer &) = delete;
	ControlServer &operator=(const ControlServer &) = delete;

	// Removes a stale socket file at path, listens, and registers with
	// epfd using tag | fd as epoll data.
	bool open(const std::string &path, int epfd, uint64_t tag, std::string &err);
	bool owns(int fd) const { return fd == listen_fd_ || clients_.count(fd); }
	void on_event(int fd, uint32_t events, Time now, const Handler &h);
	// Drops clients idle since before now - timeout.
	void expire(Time now);
	// Closes everything and removes the socket file.
	void close_all();

private:
	struct Client {
		std::string in;
		std::string out;
		size_t sent = 0;
		bool answered = false;
		Time since = 0;
	};
	void drop(int fd);
	void write_some(int fd, Client &c);

	std::string path_;
	int epfd_ = -1;
	uint64_t tag_ = 0;
	int listen_fd_ = -1;
	std::map<int, Client> clients_;
};

// Client side, for `rxecc-fabric query`: sends the request, returns the
// whole answer (or false and *err).
bool control_query(const std::string &path, ControlRequest r, std::string &answer,
                   std::string &err);

} // namespace rxecc::fabric::proc

#endif
