// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc: congestion control of SoftRoCE (rxe) devices and QPs (see
// `rxecc --help` and rxecc(8)).
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <rdma/rxe_cc.h>
#include <string>
#include <time.h>
#include <vector>

#include "cli.h"
#include "nl_transport.h"

namespace
{

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop_signal(int)
{
	g_stop = 1;
}

class RealClock : public rxecc::Clock
{
public:
	std::uint64_t now_ns() override
	{
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
		       static_cast<std::uint64_t>(ts.tv_nsec);
	}

	bool sleep_until(std::uint64_t deadline_ns) override
	{
		struct timespec ts;
		ts.tv_sec = static_cast<time_t>(deadline_ns / 1000000000ULL);
		ts.tv_nsec = static_cast<long>(deadline_ns % 1000000000ULL);
		while (!g_stop) {
			int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
			if (r == 0)
				return true;
			if (r != EINTR)
				return false;
		}
		return false;
	}

	bool stop_requested() override { return g_stop != 0; }

	void catch_stop_signals() override
	{
		// No SA_RESTART: a signal ends the sleep or the poll at once.
		struct sigaction sa;
		std::memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, nullptr);
		sigaction(SIGTERM, &sa, nullptr);
	}
};

} // namespace

int main(int argc, char **argv)
{
	std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
	RealClock clock;
	rxecc::Env env{
		std::cout,
		std::cerr,
		clock,
		[](std::unique_ptr<rxecc::Transport> &out) {
			std::unique_ptr<rxecc::NlTransport> t;
			rxecc::Status s = rxecc::NlTransport::open(
				RXE_CC_GENL_NAME, RXE_CC_GENL_VERSION, [] { return g_stop != 0; },
				t);
			out = std::move(t);
			return s;
		},
		[](const std::string &path, std::string &why) -> std::unique_ptr<std::ostream> {
			errno = 0;
			auto f = std::make_unique<std::ofstream>(path,
		                                                 std::ios::out | std::ios::trunc);
			if (!f->is_open()) {
				why = errno ? std::strerror(errno) : "cannot open";
				return nullptr;
			}
			return f;
		},
	};
	return rxecc::run(args, env);
}
