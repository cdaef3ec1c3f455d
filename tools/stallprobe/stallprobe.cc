// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-stallprobe: how much of a window a sleeping task could not run on
// time. One thread per CPU (pinned) sleeps to absolute deadlines PERIOD
// apart; a wake-up later than ALLOWANCE counts its lateness beyond the
// allowance as stalled time (a vCPU the host did not run, a CPU kept busy).
// It measures the machine, not the code under test: selftests compare a
// timer-driven sender's shortfall with it (selftests/rxe_cc/cc_pacer.sh),
// and scripts/testbed-table compares testbeds by its wake-up lateness.
// It also times a system call that does nothing (getppid): on User-Mode
// Linux each of a guest process's costs a round trip through the kernel's
// ptrace tracer, which bounds what a process that makes many (the software
// fabric inside the guest) can do.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace
{

std::uint64_t now_ns()
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
	       static_cast<std::uint64_t>(ts.tv_nsec);
}

struct Result {
	std::uint64_t stalled_ns = 0;
	std::uint64_t worst_ns = 0;
	std::vector<std::uint64_t> late_ns; // every wake-up's lateness
};

// The q-quantile (0..1) of v, nearest rank; v is reordered.
double quantile_us(std::vector<std::uint64_t> &v, double q)
{
	if (v.empty())
		return 0;
	auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
	std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
	return static_cast<double>(v[k]) / 1e3;
}

void probe(unsigned cpu, std::uint64_t end, std::uint64_t period, std::uint64_t allow, Result &r)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	std::uint64_t t = now_ns();
	while (t < end) {
		t += period;
		struct timespec ts;
		ts.tv_sec = static_cast<time_t>(t / 1000000000ULL);
		ts.tv_nsec = static_cast<long>(t % 1000000000ULL);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
		}
		std::uint64_t late = now_ns() - t;
		r.late_ns.push_back(late);
		if (late > r.worst_ns)
			r.worst_ns = late;
		if (late > allow)
			r.stalled_ns += late - allow;
		// a long stall: resume from now, not with a burst of wake-ups
		if (late > period)
			t = now_ns();
	}
}

// The mean cost of a getppid() in us, over n calls made back to back.
double syscall_us(unsigned n)
{
	std::uint64_t t0 = now_ns();
	for (unsigned i = 0; i < n; i++)
		syscall(SYS_getppid);
	return static_cast<double>(now_ns() - t0) / 1e3 / n;
}

} // namespace

int main(int argc, char **argv)
{
	CLI::App app{
		"rxecc-stallprobe: the share of a window in which a sleeping task could not run on "
		"time, per CPU and on average (one pinned thread per CPU). Prints "
		"'stalled SHARE' (0..1, the mean over the CPUs), per-CPU details and "
		"'lateness_us P50 P99' of every wake-up, then 'syscall_us MEAN', what a system "
		"call that does nothing costs here."};
	double seconds = 1, period_us = 1000, allow_us = 2000;
	app.add_option("seconds", seconds, "the window in seconds")
		->required()
		->check(CLI::Range(0.01, 3600.0));
	app.add_option("--period-us", period_us, "sleep between wake-ups (default 1000)")
		->check(CLI::Range(10.0, 1e6));
	app.add_option("--allow-us", allow_us, "lateness not counted as stalled (default 2000)")
		->check(CLI::Range(0.0, 1e7));
	unsigned syscalls = 20000;
	app.add_option("--syscalls", syscalls,
	               "system calls timed after the window, 0 for none (default 20000)")
		->check(CLI::Range(0u, 10000000u));
	CLI11_PARSE(app, argc, argv);

	unsigned n = std::thread::hardware_concurrency();
	if (n == 0)
		n = 1;
	std::uint64_t t0 = now_ns();
	std::uint64_t end = t0 + static_cast<std::uint64_t>(seconds * 1e9);
	std::vector<Result> res(n);
	std::vector<std::thread> th;
	for (unsigned c = 0; c < n; c++)
		th.emplace_back(probe, c, end, static_cast<std::uint64_t>(period_us * 1e3),
		                static_cast<std::uint64_t>(allow_us * 1e3), std::ref(res[c]));
	for (auto &x : th)
		x.join();
	double span = static_cast<double>(now_ns() - t0);
	double sum = 0;
	for (unsigned c = 0; c < n; c++) {
		double s = static_cast<double>(res[c].stalled_ns) / span;
		sum += s;
		std::printf("cpu%u stalled %.4f worst %.1f ms\n", c, s,
		            static_cast<double>(res[c].worst_ns) / 1e6);
	}
	std::printf("stalled %.4f\n", sum / n);
	std::vector<std::uint64_t> all;
	for (auto &r : res)
		all.insert(all.end(), r.late_ns.begin(), r.late_ns.end());
	double p50 = quantile_us(all, 0.5), p99 = quantile_us(all, 0.99);
	std::printf("lateness_us %.1f %.1f\n", p50, p99);
	if (syscalls > 0)
		std::printf("syscall_us %.2f\n", syscall_us(syscalls));
	return 0;
}
