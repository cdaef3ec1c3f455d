// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "runner.h"

#include <sched.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "control.h"
#include "delivery.h"
#include "fabric.h"
#include "lateness.h"
#include "port_io.h"
#include "telemetry.h"

namespace rxecc::fabric::proc
{

namespace
{

constexpr uint64_t kTagSignal = 0;
constexpr uint64_t kTagControl = 1ull << 32;
constexpr uint64_t kTagPortBase = 2; // port i: (i + 2) << 32
constexpr size_t kRxBudget = 64;     // frames per port per wake-up
constexpr Time kBusyRetryNs = 20000; // a blocked port is retried after 20 us
constexpr size_t kCsvFlushBytes = 1u << 16;

struct ExtPort {
	PortAttachment att;
	std::unique_ptr<PortIo> io;
	DeliveryQueue pending;
	bool blocked = false;
};

bool write_file(const std::string &path, const std::string &text, std::string &err)
{
	FILE *f = std::fopen(path.c_str(), "w");
	if (!f) {
		err = path + ": " + std::strerror(errno);
		return false;
	}
	bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
	ok = std::fclose(f) == 0 && ok;
	if (!ok)
		err = path + ": write failed";
	return ok;
}

class Runner
{
public:
	Runner(const RunOptions &o, const Topology &topo, const std::vector<PortAttachment> &ports)
	    : o_(o), fabric_(topo), telemetry_(fabric_, attach_names(topo, ports))
	{
		for (const auto &p : ports) {
			ExtPort e;
			e.att = p;
			e.io = make_port_io(p.spec);
			index_[{p.sw, p.port}] = ports_.size();
			telemetry_.set_port_io(p.sw, p.port, &e.io->stats());
			ports_.push_back(std::move(e));
		}
	}

	~Runner()
	{
		control_.close_all();
		if (queues_f_)
			std::fclose(queues_f_);
		if (ports_f_)
			std::fclose(ports_f_);
		if (sfd_ >= 0)
			close(sfd_);
		if (epfd_ >= 0)
			close(epfd_);
	}

	bool open(std::string &err);
	int loop();

private:
	Time now() const { return mono_ns() - start_; }
	void advance(Time t);
	void move_model(Time t);
	void deliver(Time t);
	void flush_csv(bool force);
	std::string answer(ControlRequest r);
	bool finish(std::string &err);

	const RunOptions &o_;
	Fabric fabric_;
	Telemetry telemetry_;
	std::vector<ExtPort> ports_;
	std::map<std::pair<int, int>, size_t> index_;
	ControlServer control_;
	LatenessHistogram lateness_;
	int epfd_ = -1;
	int sfd_ = -1;
	uint64_t start_ = 0;
	Time model_ = 0; // latest time given to the model
	Time next_sample_ = 0;
	Time end_ = kNever; // --duration
	bool stop_ = false;
	FILE *queues_f_ = nullptr;
	FILE *ports_f_ = nullptr;
	std::string queues_csv_, ports_csv_;
	uint64_t frames_in_ = 0, frames_out_ = 0;
};

bool Runner::open(std::string &err)
{
	if (o_.cpu) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(static_cast<size_t>(*o_.cpu), &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			err = "--cpu " + std::to_string(*o_.cpu) + ": " + std::strerror(errno);
			return false;
		}
	}
	// Wake-ups at sub-ms precision need a small timer slack (default 50 us).
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	epfd_ = epoll_create1(EPOLL_CLOEXEC);
	if (epfd_ < 0) {
		err = std::string("epoll: ") + std::strerror(errno);
		return false;
	}
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, nullptr);
	signal(SIGPIPE, SIG_IGN);
	sfd_ = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd_ < 0) {
		err = std::string("signalfd: ") + std::strerror(errno);
		return false;
	}
	epoll_event ev{};
	ev.events = EPOLLIN;
	ev.data.u64 = kTagSignal | static_cast<uint32_t>(sfd_);
	epoll_ctl(epfd_, EPOLL_CTL_ADD, sfd_, &ev);
	for (size_t i = 0; i < ports_.size(); i++) {
		std::string e;
		if (!ports_[i].io->open(epfd_, (i + kTagPortBase) << 32, e)) {
			err = "port " + ports_[i].att.name + " (" + ports_[i].att.spec.text +
			      "): " + e;
			return false;
		}
	}
	if (o_.telemetry_dir) {
		const std::string &d = *o_.telemetry_dir;
		if (mkdir(d.c_str(), 0777) < 0 && errno != EEXIST) {
			err = "--telemetry " + d + ": " + std::strerror(errno);
			return false;
		}
		queues_f_ = std::fopen((d + "/queues.csv").c_str(), "w");
		ports_f_ = std::fopen((d + "/ports.csv").c_str(), "w");
		if (!queues_f_ || !ports_f_) {
			err = "--telemetry " + d + ": " + std::strerror(errno);
			return false;
		}
		std::fputs(Telemetry::queues_header(), queues_f_);
		std::fputs(Telemetry::ports_header(), ports_f_);
	}
	if (o_.control) {
		std::string e;
		if (!control_.open(*o_.control, epfd_, kTagControl, e)) {
			err = "--control: " + e;
			return false;
		}
	}
	return true;
}

// Moves the model to t, taking every sample due on the way (none beyond
// the end of the run): a sample is the model's state at its nominal time,
// so nothing may move the model past that time before it is taken, however
// late the process runs.  Only frames read at t enter the model after this.
void Runner::advance(Time t)
{
	while (next_sample_ <= t && next_sample_ <= end_) {
		move_model(next_sample_);
		telemetry_.sample(model_, queues_f_ ? &queues_csv_ : nullptr,
		                  ports_f_ ? &ports_csv_ : nullptr);
		flush_csv(false);
		next_sample_ += o_.sample_ns;
	}
	move_model(t);
}

void Runner::move_model(Time t)
{
	if (t < model_)
		t = model_;
	model_ = t;
	for (auto &ft : fabric_.poll(t)) {
		auto it = index_.find({ft.sw, ft.tx.port});
		if (it == index_.end())
			continue; // cannot happen: poll() only returns external ports
		ports_[it->second].pending.push(ft.tx.arrive_ns, std::move(ft.tx.frame));
	}
}

void Runner::deliver(Time t)
{
	for (auto &p : ports_) {
		p.blocked = false;
		bool any = false;
		while (const PendingFrame *f = p.pending.due(t)) {
			PortIo::Tx r = p.io->send(f->frame.data(), f->frame.size());
			if (r == PortIo::Tx::kBusy) {
				p.blocked = true;
				break;
			}
			if (r == PortIo::Tx::kSent) {
				lateness_.add(t - f->arrive_ns);
				frames_out_++;
			}
			any = true;
			p.pending.pop();
		}
		if (any)
			p.io->flush();
	}
}

void Runner::flush_csv(bool force)
{
	if (queues_f_ && (force || queues_csv_.size() > kCsvFlushBytes)) {
		std::fwrite(queues_csv_.data(), 1, queues_csv_.size(), queues_f_);
		queues_csv_.clear();
		if (force)
			std::fflush(queues_f_);
	}
	if (ports_f_ && (force || ports_csv_.size() > kCsvFlushBytes)) {
		std::fwrite(ports_csv_.data(), 1, ports_csv_.size(), ports_f_);
		ports_csv_.clear();
		if (force)
			std::fflush(ports_f_);
	}
}

std::string Runner::answer(ControlRequest r)
{
	Time t = now();
	advance(t);
	switch (r) {
	case ControlRequest::kStats: return telemetry_.json(model_, lateness_);
	case ControlRequest::kFlat: return telemetry_.flat(model_, lateness_);
	case ControlRequest::kQuit: stop_ = true; return "ok\n";
	}
	return "error: unknown request\n";
}

int Runner::loop()
{
	start_ = mono_ns();
	next_sample_ = o_.sample_ns;
	end_ = o_.duration_ns ? *o_.duration_ns : kNever;
	std::fputs("rxecc-fabric: ready\n", stdout);
	std::fflush(stdout);

	epoll_event events[64];
	// The clock is read twice per wake-up, not per step: a system call
	// can cost a hundred microseconds (User-Mode Linux).  t is the time
	// of the wake-up: frames read then are clamped to it, and what is due
	// by then is delivered.
	Time t = now();
	while (!stop_) {
		// A run with --duration ends at exactly its end time, however
		// late this wake-up is: no sample (nor model time) beyond it.
		if (t >= end_) {
			advance(end_);
			break;
		}
		advance(t);
		deliver(t);

		// Samples need no wake-up of their own: advance() takes each at
		// its nominal time, however late it runs.
		Time wake = std::min(fabric_.next_event_time(), end_);
		bool blocked = false;
		for (const auto &p : ports_) {
			wake = std::min(wake, p.pending.next_ns());
			blocked = blocked || p.blocked;
		}
		t = now();
		Time wait = wake > t ? wake - t : 0;
		if (blocked && wait > kBusyRetryNs)
			wait = kBusyRetryNs;
		if (o_.busy_poll)
			wait = 0;
		timespec ts;
		ts.tv_sec = static_cast<time_t>(wait / 1000000000ull);
		ts.tv_nsec = static_cast<long>(wait % 1000000000ull);
		int n = epoll_pwait2(epfd_, events, 64, &ts, nullptr);
		if (n < 0 && errno != EINTR) {
			std::fprintf(stderr, "rxecc-fabric: epoll: %s\n", std::strerror(errno));
			return 1;
		}
		t = now();
		for (int i = 0; i < n; i++) {
			uint64_t tag = events[i].data.u64 >> 32;
			int fd = static_cast<int>(events[i].data.u64 & 0xffffffffu);
			if (tag == kTagSignal) {
				signalfd_siginfo si;
				while (read(sfd_, &si, sizeof(si)) == sizeof(si))
					stop_ = true;
			} else if (tag == (kTagControl >> 32)) {
				control_.on_event(fd, events[i].events, t,
				                  [this](ControlRequest r) { return answer(r); });
			} else {
				size_t idx = static_cast<size_t>(tag - kTagPortBase);
				ExtPort &p = ports_[idx];
				p.io->on_event(fd, events[i].events, kRxBudget,
				               [&](const uint8_t *d, size_t len, uint64_t mono) {
						       Time ft = mono > start_ ? mono - start_ : 0;
						       if (ft > t)
							       ft = t;
						       advance(ft);
						       frames_in_++;
						       fabric_.on_ingress(
							       p.att.sw, p.att.port,
							       std::vector<uint8_t>(d, d + len),
							       model_);
					       });
			}
		}
		control_.expire(t);
	}
	std::string err;
	if (!finish(err)) {
		std::fprintf(stderr, "rxecc-fabric: %s\n", err.c_str());
		return 1;
	}
	return 0;
}

bool Runner::finish(std::string &err)
{
	Time t = o_.duration_ns && now() > *o_.duration_ns ? *o_.duration_ns : now();
	advance(t);
	deliver(t);
	for (auto &p : ports_) {
		p.io->set_unsent(p.pending.size());
		p.io->collect();
	}
	flush_csv(true);
	if (o_.telemetry_dir) {
		const std::string &d = *o_.telemetry_dir;
		if (!write_file(d + "/summary.json", telemetry_.json(model_, lateness_), err) ||
		    !write_file(d + "/summary.flat", telemetry_.flat(model_, lateness_), err))
			return false;
	}
	if (!o_.quiet) {
		uint64_t drops = 0;
		for (int s = 0; s < fabric_.num_switches(); s++)
			drops += fabric_.switch_at(s).total_drops();
		uint64_t io_drops = 0, io_errors = 0, unsent = 0;
		for (const auto &p : ports_) {
			io_drops += p.io->stats().tx_dropped;
			io_errors += p.io->stats().rx_errors;
			unsent += p.io->stats().tx_unsent;
		}
		std::fprintf(stderr,
		             "rxecc-fabric: %.3f s, frames in %llu out %llu, model drops %llu, "
		             "port tx drops %llu, rx errors %llu, in flight at exit %llu\n"
		             "rxecc-fabric: delivery_lateness_us p50/p99/max %.1f/%.1f/%.1f "
		             "(%llu deliveries)\n",
		             static_cast<double>(model_) / 1e9,
		             static_cast<unsigned long long>(frames_in_),
		             static_cast<unsigned long long>(frames_out_),
		             static_cast<unsigned long long>(drops),
		             static_cast<unsigned long long>(io_drops),
		             static_cast<unsigned long long>(io_errors),
		             static_cast<unsigned long long>(unsent),
		             static_cast<double>(lateness_.percentile_ns(50)) / 1e3,
		             static_cast<double>(lateness_.percentile_ns(99)) / 1e3,
		             static_cast<double>(lateness_.max_ns()) / 1e3,
		             static_cast<unsigned long long>(lateness_.count()));
	}
	return true;
}

} // namespace

std::vector<std::vector<std::string>> attach_names(const Topology &topo,
                                                   const std::vector<PortAttachment> &ports)
{
	std::vector<std::vector<std::string>> a(topo.switches.size());
	for (size_t s = 0; s < topo.switches.size(); s++)
		a[s].resize(topo.switches[s].ports.size());
	for (const auto &l : topo.links) {
		const auto &sa = topo.switches[static_cast<size_t>(l.sw_a)];
		const auto &sb = topo.switches[static_cast<size_t>(l.sw_b)];
		a[static_cast<size_t>(l.sw_a)][static_cast<size_t>(l.port_a)] =
			"link:" + sb.name + ":" + sb.ports[static_cast<size_t>(l.port_b)].name;
		a[static_cast<size_t>(l.sw_b)][static_cast<size_t>(l.port_b)] =
			"link:" + sa.name + ":" + sa.ports[static_cast<size_t>(l.port_a)].name;
	}
	for (const auto &p : ports)
		a[static_cast<size_t>(p.sw)][static_cast<size_t>(p.port)] = p.spec.text;
	return a;
}

int run_fabric(const RunOptions &o, const Topology &topo, const std::vector<PortAttachment> &ports)
{
	Runner r(o, topo, ports);
	std::string err;
	if (!r.open(err)) {
		std::fprintf(stderr, "rxecc-fabric: %s\n", err.c_str());
		return 2;
	}
	return r.loop();
}

} // namespace rxecc::fabric::proc
