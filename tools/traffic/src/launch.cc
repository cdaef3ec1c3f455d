// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// `launch` and `run`: the coordination of the host processes. launch forks
// one child per host of the schedule; the child enters the host's network
// namespace (setns) and runs the host. Parent and children talk over a
// socket pair, one line per message:
//
//   child -> parent: listening | ready OK FAILED | failed WHY | done STATUS
//   parent -> child: connect | start T0_MONOTONIC_NS T0_REALTIME_NS | stop | abort
//
// The parent sends "connect" once every child listens, and "start" with T0
// = now + --start-delay once every child is ready, so that no set-up falls
// after T0.
#include "launch.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "clock.h"
#include "host.h"
#include "records.h"
#include "text.h"

namespace rxecc::traffic
{

namespace
{

volatile std::sig_atomic_t g_parent_signal = 0;
void on_parent_signal(int sig)
{
	g_parent_signal = sig;
}

bool write_line(int fd, const std::string &l)
{
	const std::string s = l + "\n";
	size_t off = 0;
	while (off < s.size()) {
		const ssize_t n = write(fd, s.data() + off, s.size() - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		off += static_cast<size_t>(n);
	}
	return true;
}

// Reads what is there; appends complete lines to `lines`. False on EOF or
// error.
bool read_lines(int fd, std::string &buf, std::vector<std::string> &lines)
{
	char b[512];
	const ssize_t n = read(fd, b, sizeof(b));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	buf.append(b, static_cast<size_t>(n));
	size_t nl;
	while ((nl = buf.find('\n')) != std::string::npos) {
		lines.push_back(buf.substr(0, nl));
		buf.erase(0, nl + 1);
	}
	return true;
}

class PipeCoordinator : public Coordinator
{
public:
	explicit PipeCoordinator(int fd) : fd_(fd) {}
	int fd() const override { return fd_; }
	bool on_readable() override
	{
		std::vector<std::string> lines;
		const bool alive = read_lines(fd_, buf_, lines);
		for (const auto &l : lines) {
			const auto w = split_words(l);
			if (w.empty())
				continue;
			if (w[0] == "connect") {
				go_ = true;
			} else if (w[0] == "start" && w.size() == 3) {
				t0_ = parse_int(w[1]);
				t0r_ = parse_int(w[2]);
			} else if (w[0] == "stop") {
				stop_ = "interrupted";
			} else if (w[0] == "abort") {
				stop_ = "aborted";
			}
		}
		return alive;
	}
	void listening() override { write_line(fd_, "listening"); }
	bool may_connect() const override { return go_; }
	void ready(unsigned ok, unsigned bad) override
	{
		write_line(fd_, "ready " + std::to_string(ok) + " " + std::to_string(bad));
	}
	std::optional<std::int64_t> t0_mono() const override { return t0_; }
	std::optional<std::int64_t> t0_real() const override { return t0r_; }
	std::optional<std::string> stop_status() const override { return stop_; }
	void failed(const std::string &why) override { write_line(fd_, "failed " + why); }
	void done(int status) override { write_line(fd_, "done " + std::to_string(status)); }

private:
	int fd_;
	std::string buf_;
	bool go_ = false;
	std::optional<std::int64_t> t0_, t0r_;
	std::optional<std::string> stop_;
};

class SoloCoordinator : public Coordinator
{
public:
	explicit SoloCoordinator(const RunArgs &a) : a_(a) {}
	int fd() const override { return -1; }
	bool on_readable() override { return true; }
	void listening() override {}
	bool may_connect() const override { return true; }
	void ready(unsigned, unsigned) override
	{
		const std::int64_t now = mono_ns();
		if (a_.start_at_real_ns) {
			const std::int64_t real_now = real_at(now);
			t0_ = now + (*a_.start_at_real_ns - real_now);
			t0r_ = *a_.start_at_real_ns;
		} else {
			t0_ = now + static_cast<std::int64_t>(a_.start_after_ns.value_or(0));
			t0r_ = real_at(*t0_);
		}
	}
	std::optional<std::int64_t> t0_mono() const override { return t0_; }
	std::optional<std::int64_t> t0_real() const override { return t0r_; }
	std::optional<std::string> stop_status() const override { return std::nullopt; }
	void failed(const std::string &) override {}
	void done(int) override {}

private:
	const RunArgs &a_;
	std::optional<std::int64_t> t0_, t0r_;
};

HostConfig host_config(const RunArgs &a, const Schedule &s, const Hosts &h, const std::string &host,
                       const char *mode)
{
	HostConfig c;
	c.schedule = &s;
	c.hosts = &h;
	c.host = host;
	c.out_dir = a.out;
	c.mode = mode;
	c.bin_ns = a.bin_ns;
	c.messages = a.messages == "all"    ? MessageLog::kAll
	             : a.messages == "none" ? MessageLog::kNone
	                                    : MessageLog::kAuto;
	c.port = a.port;
	c.connect_timeout_ns = a.connect_timeout_ns;
	c.spin_ns = a.spin_ns;
	c.busy_poll = a.busy_poll;
	c.rt_priority = static_cast<int>(a.rt_priority);
	c.deadline_ns = a.deadline_ns;
	return c;
}

bool enter_netns(const std::string &ns, std::string *err)
{
	if (ns.empty())
		return true;
	const std::string path = "/run/netns/" + ns;
	const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = path + ": " + std::strerror(errno);
		return false;
	}
	const int r = setns(fd, CLONE_NEWNET);
	const int e = errno;
	close(fd);
	if (r != 0) {
		*err = "setns " + path + ": " + std::strerror(e);
		return false;
	}
	return true;
}

struct Child {
	std::string host;
	pid_t pid = -1;
	int fd = -1;
	std::string buf;
	bool listening = false, ready = false, done = false, gone = false, failed = false;
	int status = -1;
};

} // namespace

bool netns_exists(const std::string &ns)
{
	return ns.empty() || access(("/run/netns/" + ns).c_str(), F_OK) == 0;
}

int launch_hosts(const RunArgs &a, const Schedule &s, const Hosts &hosts)
{
	std::vector<Child> kids;
	for (const auto &h : s.hosts()) {
		Child c;
		c.host = h;
		kids.push_back(c);
	}
	std::fflush(stdout);
	std::fflush(stderr);
	for (size_t i = 0; i < kids.size(); i++) {
		int sv[2];
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
			std::fprintf(stderr, "rxecc-traffic: socketpair: %s\n",
			             std::strerror(errno));
			return 1;
		}
		const pid_t pid = fork();
		if (pid < 0) {
			std::fprintf(stderr, "rxecc-traffic: fork: %s\n", std::strerror(errno));
			return 1;
		}
		if (pid == 0) {
			close(sv[0]);
			for (size_t j = 0; j < i; j++)
				close(kids[j].fd);
			PipeCoordinator coord(sv[1]);
			const HostSpec *hs = hosts.find(kids[i].host);
			std::string err;
			if (!enter_netns(hs->netns, &err)) {
				std::fprintf(stderr, "rxecc-traffic[%s]: %s\n",
				             kids[i].host.c_str(), err.c_str());
				coord.failed(err);
				_exit(1);
			}
			const HostConfig cfg = host_config(a, s, hosts, kids[i].host, "launch");
			const int rc = run_host(cfg, coord);
			std::fflush(stderr);
			_exit(rc);
		}
		close(sv[1]);
		kids[i].pid = pid;
		kids[i].fd = sv[0];
	}

	struct sigaction sa {
	};
	sa.sa_handler = on_parent_signal;
	sigaction(SIGINT, &sa, nullptr);
	sigaction(SIGTERM, &sa, nullptr);
	std::signal(SIGPIPE, SIG_IGN);

	auto broadcast = [&](const std::string &l) {
		for (auto &k : kids)
			if (!k.gone)
				write_line(k.fd, l);
	};
	bool sent_connect = false, sent_start = false, aborted = false, stopped = false;
	for (;;) {
		if (g_parent_signal && !stopped) {
			stopped = true;
			broadcast("stop");
		}
		std::vector<pollfd> pfds;
		std::vector<size_t> idx;
		for (size_t i = 0; i < kids.size(); i++)
			if (!kids[i].gone) {
				pfds.push_back(pollfd{kids[i].fd, POLLIN, 0});
				idx.push_back(i);
			}
		if (pfds.empty())
			break;
		const int n = poll(pfds.data(), pfds.size(), 200);
		if (n < 0 && errno != EINTR)
			break;
		for (size_t j = 0; n > 0 && j < pfds.size(); j++) {
			if (!(pfds[j].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			Child &k = kids[idx[j]];
			std::vector<std::string> lines;
			const bool alive = read_lines(k.fd, k.buf, lines);
			for (const auto &l : lines) {
				const auto w = split_words(l);
				if (w.empty())
					continue;
				if (w[0] == "listening")
					k.listening = true;
				else if (w[0] == "ready")
					k.ready = true;
				else if (w[0] == "failed")
					k.failed = true;
				else if (w[0] == "done") {
					k.done = true;
					k.status = w.size() > 1
					                   ? static_cast<int>(
								     parse_int(w[1]).value_or(1))
					                   : 1;
				}
			}
			if (!alive) {
				k.gone = true;
				close(k.fd);
				if (!k.done)
					k.failed = true;
			}
		}
		bool any_failed = false, all_listen = true, all_ready = true;
		for (const auto &k : kids) {
			any_failed = any_failed || k.failed;
			all_listen = all_listen && k.listening;
			all_ready = all_ready && k.ready;
		}
		if (any_failed && !aborted && !sent_start) {
			aborted = true;
			std::fprintf(stderr, "rxecc-traffic: a host failed to set up: aborting\n");
			broadcast("abort");
		}
		if (!aborted && !stopped && all_listen && !sent_connect) {
			sent_connect = true;
			broadcast("connect");
		}
		if (!aborted && !stopped && all_ready && !sent_start) {
			sent_start = true;
			const std::int64_t t0 =
				mono_ns() + static_cast<std::int64_t>(a.start_delay_ns);
			broadcast("start " + std::to_string(t0) + " " +
			          std::to_string(real_at(t0)));
		}
	}
	int worst = 0;
	for (auto &k : kids) {
		int st = 0;
		while (waitpid(k.pid, &st, 0) < 0 && errno == EINTR) {
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			worst = 1;
		if (!WIFEXITED(st))
			std::fprintf(stderr,
			             "rxecc-traffic: the process of host %s died (signal %d)\n",
			             k.host.c_str(), WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	}
	return worst;
}

int run_solo(const RunArgs &a, const Schedule &s, const Hosts &hosts)
{
	SoloCoordinator coord(a);
	std::string err;
	if (!enter_netns(hosts.find(a.host)->netns, &err)) {
		std::fprintf(stderr, "rxecc-traffic[%s]: %s\n", a.host.c_str(), err.c_str());
		return 1;
	}
	const HostConfig cfg = host_config(a, s, hosts, a.host, "run");
	return run_host(cfg, coord);
}

} // namespace rxecc::traffic
