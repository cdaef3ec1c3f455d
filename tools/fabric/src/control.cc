// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "control.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace rxecc::fabric::proc
{

namespace
{

constexpr Time kClientTimeoutNs = 2000000000ull; // 2 s
constexpr int kMaxClients = 16;

bool make_addr(const std::string &path, sockaddr_un &sa, std::string &err)
{
	sa = sockaddr_un{};
	sa.sun_family = AF_UNIX;
	if (path.empty() || path.size() >= sizeof(sa.sun_path)) {
		err = "socket path '" + path + "' is empty or too long";
		return false;
	}
	std::memcpy(sa.sun_path, path.c_str(), path.size());
	return true;
}

} // namespace

RequestParse parse_request(const std::string &buf, bool eof)
{
	RequestParse r;
	size_t nl = buf.find('\n');
	std::string line;
	if (nl != std::string::npos) {
		line = buf.substr(0, nl);
	} else if (buf.size() > kMaxRequestLine) {
		r.status = RequestParse::kError;
		r.error = "request line too long";
		return r;
	} else if (eof) {
		line = buf;
	} else {
		return r;
	}
	if (!line.empty() && line.back() == '\r')
		line.pop_back();
	if (line.size() > kMaxRequestLine) {
		r.status = RequestParse::kError;
		r.error = "request line too long";
		return r;
	}
	auto req = parse_control_request(line);
	if (!req) {
		r.status = RequestParse::kError;
		r.error = "unknown request (stats, flat, quit)";
		return r;
	}
	r.status = RequestParse::kOk;
	r.request = *req;
	return r;
}

ControlServer::~ControlServer()
{
	close_all();
}

bool ControlServer::open(const std::string &path, int epfd, uint64_t tag, std::string &err)
{
	sockaddr_un sa;
	if (!make_addr(path, sa, err))
		return false;
	struct stat st;
	if (lstat(path.c_str(), &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			err = "control socket path " + path + " exists and is not a socket";
			return false;
		}
		unlink(path.c_str());
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = std::string("control socket: ") + std::strerror(errno);
		return false;
	}
	if (bind(fd, reinterpret_cast<const sockaddr *>(&sa), sizeof(sa)) < 0 ||
	    listen(fd, 8) < 0) {
		err = "control socket " + path + ": " + std::strerror(errno);
		::close(fd);
		return false;
	}
	epoll_event ev{};
	ev.events = EPOLLIN;
	ev.data.u64 = tag | static_cast<uint32_t>(fd);
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		err = std::string("epoll: ") + std::strerror(errno);
		::close(fd);
		unlink(path.c_str());
		return false;
	}
	path_ = path;
	epfd_ = epfd;
	tag_ = tag;
	listen_fd_ = fd;
	return true;
}

void ControlServer::drop(int fd)
{
	epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
	::close(fd);
	clients_.erase(fd);
}

void ControlServer::write_some(int fd, Client &c)
{
	while (c.sent < c.out.size()) {
		ssize_t n = send(fd, c.out.data() + c.sent, c.out.size() - c.sent,
		                 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			epoll_event ev{};
			ev.events = EPOLLOUT;
			ev.data.u64 = tag_ | static_cast<uint32_t>(fd);
			epoll_ctl(epfd_, EPOLL_CTL_MOD, fd, &ev);
			return;
		}
		if (n <= 0) {
			drop(fd);
			return;
		}
		c.sent += static_cast<size_t>(n);
	}
	drop(fd); // all written: EOF tells the client the answer is complete
}

void ControlServer::on_event(int fd, uint32_t events, Time now, const Handler &h)
{
	if (fd == listen_fd_) {
		while (true) {
			int c = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
			if (c < 0)
				return;
			if (clients_.size() >= kMaxClients) {
				::close(c);
				continue;
			}
			epoll_event ev{};
			ev.events = EPOLLIN | EPOLLRDHUP;
			ev.data.u64 = tag_ | static_cast<uint32_t>(c);
			if (epoll_ctl(epfd_, EPOLL_CTL_ADD, c, &ev) < 0) {
				::close(c);
				continue;
			}
			clients_[c].since = now;
		}
	}
	auto it = clients_.find(fd);
	if (it == clients_.end())
		return;
	Client &c = it->second;
	if (c.answered) {
		if (events & (EPOLLERR | EPOLLHUP))
			drop(fd);
		else
			write_some(fd, c);
		return;
	}
	bool eof = (events & (EPOLLHUP | EPOLLERR)) != 0;
	char buf[256];
	while (true) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0) {
			c.in.append(buf, static_cast<size_t>(n));
			if (c.in.size() > 4 * kMaxRequestLine)
				break;
			continue;
		}
		if (n == 0)
			eof = true;
		else if (errno == EINTR)
			continue;
		else if (errno != EAGAIN && errno != EWOULDBLOCK)
			eof = true;
		break;
	}
	RequestParse r = parse_request(c.in, eof);
	if (r.status == RequestParse::kIncomplete) {
		if (eof)
			drop(fd);
		return;
	}
	c.answered = true;
	c.out = r.status == RequestParse::kOk ? h(r.request) : "error: " + r.error + "\n";
	write_some(fd, c);
}

void ControlServer::expire(Time now)
{
	std::vector<int> old;
	for (const auto &[fd, c] : clients_) {
		if (now > c.since + kClientTimeoutNs)
			old.push_back(fd);
	}
	for (int fd : old)
		drop(fd);
}

void ControlServer::close_all()
{
	while (!clients_.empty())
		drop(clients_.begin()->first);
	if (listen_fd_ >= 0) {
		epoll_ctl(epfd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
		::close(listen_fd_);
		listen_fd_ = -1;
		unlink(path_.c_str());
	}
}

bool control_query(const std::string &path, ControlRequest r, std::string &answer, std::string &err)
{
	sockaddr_un sa;
	if (!make_addr(path, sa, err))
		return false;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = std::string("socket: ") + std::strerror(errno);
		return false;
	}
	if (connect(fd, reinterpret_cast<const sockaddr *>(&sa), sizeof(sa)) < 0) {
		err = "connect " + path + ": " + std::strerror(errno);
		::close(fd);
		return false;
	}
	std::string line = std::string(to_string(r)) + "\n";
	if (send(fd, line.data(), line.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(line.size())) {
		err = "send to " + path + ": " + std::strerror(errno);
		::close(fd);
		return false;
	}
	answer.clear();
	char buf[4096];
	while (true) {
		pollfd p{fd, POLLIN, 0};
		int pr = poll(&p, 1, 5000);
		if (pr == 0) {
			err = "no answer from " + path + " within 5 s";
			::close(fd);
			return false;
		}
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = "receive from " + path + ": " + std::strerror(errno);
			::close(fd);
			return false;
		}
		if (n == 0)
			break;
		answer.append(buf, static_cast<size_t>(n));
	}
	::close(fd);
	if (answer.rfind("error: ", 0) == 0) {
		err = answer.substr(7);
		while (!err.empty() && err.back() == '\n')
			err.pop_back();
		return false;
	}
	return true;
}

} // namespace rxecc::fabric::proc
