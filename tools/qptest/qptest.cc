// rxecc-qptest: an RC QP pair between two local RDMA devices, driven so that
// a test can change the sending QP's state while it is busy; or many pairs,
// for a scale benchmark.
//
//   rxecc-qptest [--tclass N] [--size SIZE] [--depth N] [--count N]
//                SRC_DEV SRC_GID_INDEX DST_DEV DST_GID_INDEX
//   rxecc-qptest --churn N [--tclass N] [--size SIZE]
//                SRC_DEV SRC_GID_INDEX DST_DEV DST_GID_INDEX
//   rxecc-qptest --scale N [--tclass N] [--size SIZE] [--depth N] [--rate RATE]
//                SRC_DEV SRC_GID_INDEX DST_DEV DST_GID_INDEX
//
// --churn N: N cycles of create, connect (RESET to RTS on both sides), one
// RDMA WRITE of SIZE waited for, destroy, on the same PD, CQ and MR; prints
// "churn I" every 1000 cycles and "churned N" at the end (a failed verbs
// call or a WRITE not completed within 10 s: exit 1).
//
// --scale N: N RC QP pairs from SRC_DEV to DST_DEV, on one PD, one CQ and
// one MR of SIZE per device (--depth: WRITEs outstanding per QP when
// loaded, default 2; N x DEPTH at most 32000, one CQ holds them). Each
// SIGUSR1 moves it one step on, so that a benchmark can read the kernel's
// memory and CPU between the steps; it prints (line by line, flushed):
//
//   setup                    devices, PDs, CQs and MRs ready, no QP yet
//   connected N              (SIGUSR1) N QP pairs created and connected
//   loaded                   (SIGUSR1) every sending QP keeps DEPTH RDMA
//                            WRITEs of SIZE outstanding to its peer
//   idle writes W bytes B    (SIGUSR1) no more WRITEs posted, every one
//                            posted completed; W and B since the start
//   loaded, idle ...         (SIGUSR1, SIGUSR1, ...) again
//   done qps N writes W bytes B
//                            at SIGTERM/SIGINT: the WRITEs posted have
//                            completed; then the QPs are destroyed, exit 0
//
// A QP starts a WRITE as soon as one of its DEPTH completes; with --rate,
// at most every SIZE x 8 / RATE instead (RATE of payload: 100k, 2Mbit; the
// QPs' first WRITEs spread over one such interval, the WRITEs due started
// in batches, 5 ms apart or more), so that an application, not the
// kernel's pacer, holds the QPs to a rate. It waits in the kernel between
// events (a completion channel or a timed sleep, no busy polling). A
// failed verbs call, a completion with an error or a WRITE not completed
// within 60 s of the end of posting: exit 1.
//
// Connects an RC QP on SRC_DEV to one on DST_DEV (port 1, RoCE GIDs) and
// keeps DEPTH RDMA WRITEs of SIZE bytes (1 to 16MiB; 65536, 64KiB: the
// grammar of Documentation/rxe-cc/units.rst) outstanding from the first to the
// second; with --count, N WRITEs in all, after which the QPs stay as they
// are (so that their state can be read) until SIGTERM. It prints (line by
// line, flushed):
//
//   qpn SRC_QPN DST_QPN      once the QPs are connected
//   flowing                  once the first WRITE completed
//   completed N              after the N WRITEs of --count completed
//   err                      after SIGUSR1 moved the sending QP to ERR
//   done writes N flushed M  at SIGTERM/SIGINT, before it exits 0
//
// After "err" it posts nothing more and collects the flushed completions.
// Errors (bad arguments, a verbs call that fails, a completion with an
// error before SIGUSR1) go to stderr with exit status 2 (usage) or 1.
#include <infiniband/verbs.h>
#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "units.h"

namespace
{

volatile std::sig_atomic_t g_to_err = 0;
volatile std::sig_atomic_t g_stop = 0;
// SIGUSR1s received (--scale: each moves it one step on)
volatile std::sig_atomic_t g_steps = 0;

void on_usr1(int /*sig*/)
{
	g_to_err = 1;
	g_steps = g_steps + 1;
}
void on_stop(int /*sig*/)
{
	g_stop = 1;
}

[[noreturn]] void usage_error(const std::string &msg)
{
	std::fprintf(stderr,
	             "rxecc-qptest: %s\n"
	             "usage: rxecc-qptest [--tclass N] [--size SIZE] [--depth N] "
	             "[--count N | --churn N | --scale N [--rate RATE]] SRC_DEV SRC_GID_INDEX "
	             "DST_DEV DST_GID_INDEX\n",
	             msg.c_str());
	std::exit(2);
}

[[noreturn]] void fatal(const std::string &what, int err)
{
	std::fprintf(stderr, "rxecc-qptest: %s: %s\n", what.c_str(), std::strerror(err));
	std::exit(1);
}

// A whole decimal number in [lo, hi], or a usage error naming WHAT.
unsigned long parse_num(const char *what, const char *s, unsigned long lo, unsigned long hi)
{
	if (!s || !*s || *s == '-' || *s == '+')
		usage_error(std::string(what) + ": expected a number");
	char *end = nullptr;
	errno = 0;
	const unsigned long v = std::strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		usage_error(std::string(what) + ": '" + s + "' is not a number in " +
		            std::to_string(lo) + ".." + std::to_string(hi));
	return v;
}

struct Side {
	std::string name;
	uint8_t gid_index = 0;
	ibv_context *ctx = nullptr;
	ibv_pd *pd = nullptr;
	ibv_comp_channel *channel = nullptr;
	ibv_cq *cq = nullptr;
	ibv_qp *qp = nullptr;
	ibv_mr *mr = nullptr;
	ibv_gid gid{};
	std::vector<unsigned char> buf;
};

ibv_context *open_device(const std::string &name)
{
	int n = 0;
	ibv_device **list = ibv_get_device_list(&n);
	if (!list) {
		std::fprintf(stderr, "rxecc-qptest: no RDMA device '%s' (%s)\n", name.c_str(),
		             std::strerror(errno));
		std::exit(2);
	}
	ibv_context *ctx = nullptr;
	for (int i = 0; i < n; i++) {
		if (name == ibv_get_device_name(list[i])) {
			ctx = ibv_open_device(list[i]);
			if (!ctx)
				fatal("ibv_open_device " + name, errno);
			break;
		}
	}
	ibv_free_device_list(list);
	if (!ctx) {
		std::fprintf(stderr, "rxecc-qptest: no RDMA device '%s'\n", name.c_str());
		std::exit(2);
	}
	return ctx;
}

// The device, a PD, a CQ of CQE entries (with a completion channel if
// CHANNEL) and an MR of SIZE bytes.
void setup(Side &s, size_t size, int cqe, bool channel = false)
{
	s.ctx = open_device(s.name);
	if (ibv_query_gid(s.ctx, 1, s.gid_index, &s.gid))
		fatal(s.name + ": GID index " + std::to_string(s.gid_index), errno);
	static const ibv_gid zero{};
	if (!std::memcmp(&s.gid, &zero, sizeof(zero))) {
		std::fprintf(stderr, "rxecc-qptest: %s has no GID at index %u\n", s.name.c_str(),
		             s.gid_index);
		std::exit(2);
	}
	s.pd = ibv_alloc_pd(s.ctx);
	if (!s.pd)
		fatal(s.name + ": ibv_alloc_pd", errno);
	if (channel) {
		s.channel = ibv_create_comp_channel(s.ctx);
		if (!s.channel)
			fatal(s.name + ": ibv_create_comp_channel", errno);
	}
	s.cq = ibv_create_cq(s.ctx, cqe, nullptr, s.channel, 0);
	if (!s.cq)
		fatal(s.name + ": ibv_create_cq", errno);
	s.buf.assign(size, 0x5a);
	s.mr = ibv_reg_mr(s.pd, s.buf.data(), s.buf.size(),
	                  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!s.mr)
		fatal(s.name + ": ibv_reg_mr", errno);
}

void create_qp(Side &s, unsigned depth)
{
	ibv_qp_init_attr ia{};
	ia.send_cq = s.cq;
	ia.recv_cq = s.cq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = depth;
	ia.cap.max_recv_wr = 1;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	s.qp = ibv_create_qp(s.pd, &ia);
	if (!s.qp)
		fatal(s.name + ": ibv_create_qp", errno);
}

void modify(Side &s, ibv_qp_attr &a, int mask, const char *state)
{
	const int err = ibv_modify_qp(s.qp, &a, mask);
	if (err)
		fatal(s.name + ": modify QP to " + state, err);
}

// RESET -> INIT -> RTR -> RTS towards PEER.
void connect(Side &s, const Side &peer, uint8_t tclass)
{
	ibv_qp_attr a{};
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	modify(s, a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, "INIT");

	a = {};
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer.qp->qp_num;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer.gid;
	a.ah_attr.grh.sgid_index = s.gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.traffic_class = tclass;
	a.ah_attr.port_num = 1;
	modify(s, a,
	       IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
	               IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
	       "RTR");

	a = {};
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 18; // 1 s: a held sender must not time out meanwhile
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	modify(s, a,
	       IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
	               IBV_QP_MAX_QP_RD_ATOMIC,
	       "RTS");
}

// One signalled RDMA WRITE of the whole buffer on QP (SRC's), wr_id ID.
void post_write(ibv_qp *qp, const Side &src, const Side &dst, uint64_t id = 0)
{
	ibv_sge sge{};
	sge.addr = reinterpret_cast<uintptr_t>(src.buf.data());
	sge.length = static_cast<uint32_t>(src.buf.size());
	sge.lkey = src.mr->lkey;
	ibv_send_wr wr{};
	wr.wr_id = id;
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.wr.rdma.remote_addr = reinterpret_cast<uintptr_t>(dst.buf.data());
	wr.wr.rdma.rkey = dst.mr->rkey;
	ibv_send_wr *bad = nullptr;
	const int err = ibv_post_send(qp, &wr, &bad);
	if (err)
		fatal(src.name + ": ibv_post_send", err);
}

void teardown(Side &s);

// Waits up to 10 s for one completion on S's CQ; it must be a success.
void wait_one(Side &s)
{
	timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	const timespec nap{0, 100000};
	for (;;) {
		ibv_wc wc;
		const int n = ibv_poll_cq(s.cq, 1, &wc);
		if (n < 0)
			fatal(s.name + ": ibv_poll_cq", EIO);
		if (n == 1) {
			if (wc.status != IBV_WC_SUCCESS) {
				std::fprintf(stderr, "rxecc-qptest: %s: completion error: %s\n",
				             s.name.c_str(), ibv_wc_status_str(wc.status));
				std::exit(1);
			}
			return;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 10) {
			std::fprintf(stderr, "rxecc-qptest: %s: no completion within 10 s\n",
			             s.name.c_str());
			std::exit(1);
		}
		nanosleep(&nap, nullptr);
	}
}

// N cycles of create, connect, one WRITE, destroy (the head of the file).
int churn(Side &src, Side &dst, unsigned long n, uint8_t tclass)
{
	for (unsigned long i = 1; i <= n && !g_stop; i++) {
		create_qp(src, 1);
		create_qp(dst, 1);
		connect(src, dst, tclass);
		connect(dst, src, tclass);
		post_write(src.qp, src, dst);
		wait_one(src);
		if (ibv_destroy_qp(src.qp))
			fatal(src.name + ": ibv_destroy_qp", errno);
		if (ibv_destroy_qp(dst.qp))
			fatal(dst.name + ": ibv_destroy_qp", errno);
		src.qp = dst.qp = nullptr;
		if (i % 1000 == 0) {
			std::printf("churn %lu\n", i);
			std::fflush(stdout);
		}
		if (i == n) {
			std::printf("churned %lu\n", n);
			std::fflush(stdout);
		}
	}
	teardown(src);
	teardown(dst);
	return g_stop ? 1 : 0;
}

// ---- --scale: many QP pairs (the head of the file) --------------------------

// The QP pairs of --scale and their WRITEs.
struct Scale {
	Side *src = nullptr;
	Side *dst = nullptr;
	std::vector<ibv_qp *> sq, dq;   // sending and receiving QPs
	std::vector<unsigned> inflight; // WRITEs outstanding per sending QP
	unsigned depth = 0;
	unsigned long outstanding = 0, writes = 0;
	bool posting = false;
	unsigned events = 0; // CQ events not yet acknowledged
	// --rate: a sending QP starts a WRITE every interval_ns at most, the
	// next one at next_ns (CLOCK_MONOTONIC); 0: as soon as one completes
	uint64_t interval_ns = 0;
	std::vector<uint64_t> next_ns;
};

uint64_t mono_ns()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return static_cast<uint64_t>(t.tv_sec) * 1000000000ULL + static_cast<uint64_t>(t.tv_nsec);
}

// Waits, with the signals of OPEN delivered, until a SIGUSR1 beyond SEEN
// (true, SEEN counts it) or SIGTERM/SIGINT (false).
bool next_step(long &seen, const sigset_t &open)
{
	while (!g_stop && g_steps <= seen)
		sigsuspend(&open);
	if (g_stop)
		return false;
	seen++;
	return true;
}

void post_one(Scale &sc, size_t i)
{
	post_write(sc.sq[i], *sc.src, *sc.dst, i);
	sc.inflight[i]++;
	sc.outstanding++;
}

// Takes the completions there are, posting again on their QPs while
// posting; returns how many.
int reap(Scale &sc)
{
	ibv_wc wc[64];
	const int n = ibv_poll_cq(sc.src->cq, 64, wc);
	if (n < 0)
		fatal(sc.src->name + ": ibv_poll_cq", EIO);
	for (int k = 0; k < n; k++) {
		if (wc[k].status != IBV_WC_SUCCESS) {
			std::fprintf(stderr, "rxecc-qptest: %s: QP %u: completion error: %s\n",
			             sc.src->name.c_str(), wc[k].qp_num,
			             ibv_wc_status_str(wc[k].status));
			std::exit(1);
		}
		const size_t i = wc[k].wr_id;
		if (i >= sc.sq.size() || !sc.inflight[i]) {
			std::fprintf(stderr, "rxecc-qptest: %s: unexpected completion %zu\n",
			             sc.src->name.c_str(), i);
			std::exit(1);
		}
		sc.inflight[i]--;
		sc.outstanding--;
		sc.writes++;
		if (sc.posting && !sc.interval_ns)
			post_one(sc, i);
	}
	return n;
}

// Sleeps until the CQ has a completion, a signal of OPEN arrives or
// TIMEOUT_MS (-1: none) passes.
void wait_cq(Scale &sc, const sigset_t &open, int timeout_ms)
{
	if (ibv_req_notify_cq(sc.src->cq, 0))
		fatal(sc.src->name + ": ibv_req_notify_cq", EIO);
	// a completion that came before the CQ was armed raises no event
	if (reap(sc))
		return;
	pollfd pfd{sc.src->channel->fd, POLLIN, 0};
	timespec ts{timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
	const int r = ppoll(&pfd, 1, timeout_ms < 0 ? nullptr : &ts, &open);
	if (r < 0 && errno != EINTR)
		fatal("ppoll", errno);
	if (r > 0 && (pfd.revents & POLLIN)) {
		ibv_cq *cq;
		void *ctx;
		if (ibv_get_cq_event(sc.src->channel, &cq, &ctx))
			fatal(sc.src->name + ": ibv_get_cq_event", errno);
		if (++sc.events >= 256) {
			ibv_ack_cq_events(sc.src->cq, sc.events);
			sc.events = 0;
		}
	}
}

// --rate: starts the WRITEs that are due (one per QP at most) and returns
// how long to sleep, in ms: until the next one is due, 5 ms at least (the
// WRITEs start in batches, so that the wake-ups cost little).
long post_due(Scale &sc)
{
	const uint64_t now = mono_ns();
	uint64_t first = UINT64_MAX;
	for (size_t i = 0; i < sc.sq.size(); i++) {
		if (sc.inflight[i] >= sc.depth)
			continue;
		if (sc.next_ns[i] <= now) {
			post_one(sc, i);
			sc.next_ns[i] += sc.interval_ns;
			// a QP that fell behind (its WRITEs slower than the rate)
			// does not catch up in a burst
			if (sc.next_ns[i] + sc.interval_ns < now)
				sc.next_ns[i] = now;
		}
		if (sc.inflight[i] < sc.depth && sc.next_ns[i] < first)
			first = sc.next_ns[i];
	}
	if (first == UINT64_MAX || first <= now)
		return 5;
	return std::max(5L, static_cast<long>((first - now + 999999) / 1000000));
}

// Stops posting and waits (at most 60 s) for the WRITEs posted.
void drain(Scale &sc)
{
	timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sc.posting = false;
	while (sc.outstanding) {
		if (reap(sc))
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		const long ms =
			(now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms >= 60000) {
			std::fprintf(stderr,
			             "rxecc-qptest: %s: %lu WRITEs not completed within 60 s\n",
			             sc.src->name.c_str(), sc.outstanding);
			std::exit(1);
		}
		// the signals stay blocked: they are served once drained
		sigset_t none;
		sigfillset(&none);
		sigdelset(&none, SIGKILL);
		wait_cq(sc, none, static_cast<int>(60000 - ms));
	}
}

// N QP pairs driven by SIGUSR1 (the head of the file). The signals it
// waits for are blocked outside its waits, which OPEN unblocks.
int scale(Side &src, Side &dst, unsigned long n, unsigned depth, uint8_t tclass, size_t size,
          uint64_t rate_bps, const sigset_t &open)
{
	Scale sc;
	sc.src = &src;
	sc.dst = &dst;
	sc.depth = depth;
	if (rate_bps)
		sc.interval_ns = std::max<uint64_t>(1, size * 8 * 1000000000ULL / rate_bps);
	long seen = 0;
	std::printf("setup\n");
	std::fflush(stdout);
	if (next_step(seen, open)) {
		for (unsigned long i = 0; i < n; i++) {
			create_qp(src, depth);
			create_qp(dst, 1);
			connect(src, dst, tclass);
			connect(dst, src, tclass);
			sc.sq.push_back(src.qp);
			sc.dq.push_back(dst.qp);
			src.qp = dst.qp = nullptr;
		}
		sc.inflight.assign(n, 0);
		std::printf("connected %lu\n", n);
		std::fflush(stdout);
		while (next_step(seen, open)) {
			sc.posting = true;
			if (sc.interval_ns) {
				// the QPs' first WRITEs spread over one interval
				const uint64_t now = mono_ns();
				sc.next_ns.resize(n);
				for (size_t i = 0; i < n; i++)
					sc.next_ns[i] = now + sc.interval_ns * i / n;
			} else {
				for (size_t i = 0; i < sc.sq.size(); i++)
					for (unsigned d = 0; d < depth; d++)
						post_one(sc, i);
			}
			std::printf("loaded\n");
			std::fflush(stdout);
			while (!g_stop && g_steps <= seen) {
				if (sc.interval_ns) {
					reap(sc);
					const long ms = post_due(sc);
					const timespec ts{ms / 1000, (ms % 1000) * 1000000L};
					ppoll(nullptr, 0, &ts, &open);
				} else if (!reap(sc)) {
					wait_cq(sc, open, -1);
				} else {
					// busy: let a pending signal in
					const timespec zero{0, 0};
					ppoll(nullptr, 0, &zero, &open);
				}
			}
			drain(sc);
			if (g_stop)
				break;
			seen++;
			std::printf("idle writes %lu bytes %lu\n", sc.writes, sc.writes * size);
			std::fflush(stdout);
		}
	}
	drain(sc);
	std::printf("done qps %zu writes %lu bytes %lu\n", sc.sq.size(), sc.writes,
	            sc.writes * size);
	std::fflush(stdout);
	if (sc.events)
		ibv_ack_cq_events(src.cq, sc.events);
	for (size_t i = 0; i < sc.sq.size(); i++) {
		if (ibv_destroy_qp(sc.sq[i]))
			fatal(src.name + ": ibv_destroy_qp", errno);
		if (ibv_destroy_qp(sc.dq[i]))
			fatal(dst.name + ": ibv_destroy_qp", errno);
	}
	teardown(src);
	teardown(dst);
	return 0;
}

void teardown(Side &s)
{
	if (s.qp)
		ibv_destroy_qp(s.qp);
	if (s.mr)
		ibv_dereg_mr(s.mr);
	if (s.cq)
		ibv_destroy_cq(s.cq);
	if (s.channel)
		ibv_destroy_comp_channel(s.channel);
	if (s.pd)
		ibv_dealloc_pd(s.pd);
	if (s.ctx)
		ibv_close_device(s.ctx);
}

} // namespace

int main(int argc, char **argv)
{
	unsigned long tclass = 0, size = 65536, depth = 0, count = 0, nchurn = 0, nscale = 0;
	uint64_t rate_bps = 0;
	std::vector<const char *> pos;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
		if (a == "-h" || a == "--help") {
			std::printf(
				"usage: rxecc-qptest [--tclass N] [--size SIZE] [--depth N] "
				"[--count N | --churn N | --scale N [--rate RATE]] SRC_DEV "
				"SRC_GID_INDEX DST_DEV DST_GID_INDEX\n"
				"RDMA WRITEs over an RC QP pair between two local devices; "
				"SIGUSR1 moves the sender to ERR,\nSIGTERM ends it; --churn N: "
				"N cycles of create, connect, one WRITE, destroy;\n"
				"--scale N: N QP pairs on one PD, CQ and MR per device; each "
				"SIGUSR1 a step on:\nsetup, connected N, loaded (--depth WRITEs "
				"outstanding per QP, default 2; --rate RATE:\nstarted at most at "
				"RATE per QP), idle, loaded, ...; SIGTERM: totals, exit\n"
				"(see the head of tools/qptest/qptest.cc).\n");
			return 0;
		} else if (a == "--tclass") {
			tclass = parse_num("--tclass", v, 0, 255);
			i++;
		} else if (a == "--size") {
			std::string err;
			auto b = rxecc::units::parse_size_bytes(v ? v : "", &err);
			if (!b)
				usage_error("--size: " + err);
			if (*b < 1 || *b > (1UL << 24))
				usage_error(std::string("--size: '") + v +
				            "' is not 1 byte to 16MiB");
			size = *b;
			i++;
		} else if (a == "--depth") {
			depth = parse_num("--depth", v, 1, 1024);
			i++;
		} else if (a == "--count") {
			count = parse_num("--count", v, 1, 1UL << 30);
			i++;
		} else if (a == "--churn") {
			nchurn = parse_num("--churn", v, 1, 10000000);
			i++;
		} else if (a == "--rate") {
			std::string err;
			auto r = rxecc::units::parse_rate_bps(v ? v : "", &err);
			if (!r)
				usage_error("--rate: " + err);
			if (!*r)
				usage_error("--rate: must be above 0");
			rate_bps = *r;
			i++;
		} else if (a == "--scale") {
			nscale = parse_num("--scale", v, 1, 16000);
			i++;
		} else if (!a.empty() && a[0] == '-') {
			usage_error("unknown option '" + a + "'");
		} else {
			pos.push_back(argv[i]);
		}
	}
	if (pos.size() != 4)
		usage_error("expected SRC_DEV SRC_GID_INDEX DST_DEV DST_GID_INDEX");
	if ((count != 0) + (nchurn != 0) + (nscale != 0) > 1)
		usage_error("--count, --churn and --scale exclude each other");
	if (rate_bps && !nscale)
		usage_error("--rate is an option of --scale");
	if (!depth)
		depth = nscale ? 2 : 16;
	// one CQ takes the completions of every sending QP
	if (nscale && nscale * depth > 32000)
		usage_error("--scale " + std::to_string(nscale) + " with --depth " +
		            std::to_string(depth) + ": more than 32000 WRITEs outstanding");

	Side src, dst;
	src.name = pos[0];
	src.gid_index = static_cast<uint8_t>(parse_num("SRC_GID_INDEX", pos[1], 0, 255));
	dst.name = pos[2];
	dst.gid_index = static_cast<uint8_t>(parse_num("DST_GID_INDEX", pos[3], 0, 255));
	if (src.name == dst.name)
		usage_error("SRC_DEV and DST_DEV must differ");

	struct sigaction sa {
	};
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, nullptr);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, nullptr);
	sigaction(SIGINT, &sa, nullptr);

	if (nscale) {
		// delivered only while it waits for them
		sigset_t block, open;
		sigemptyset(&block);
		sigaddset(&block, SIGUSR1);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGINT);
		sigprocmask(SIG_BLOCK, &block, &open);
		sigdelset(&open, SIGUSR1);
		sigdelset(&open, SIGTERM);
		sigdelset(&open, SIGINT);
		setup(src, size, static_cast<int>(nscale * depth + 16), true);
		setup(dst, size, 16);
		return scale(src, dst, nscale, static_cast<unsigned>(depth),
		             static_cast<uint8_t>(tclass), size, rate_bps, open);
	}
	setup(src, size, static_cast<int>(depth * 2 + 16));
	setup(dst, size, static_cast<int>(depth * 2 + 16));
	if (nchurn)
		return churn(src, dst, nchurn, static_cast<uint8_t>(tclass));
	create_qp(src, static_cast<unsigned>(depth));
	create_qp(dst, static_cast<unsigned>(depth));
	connect(src, dst, static_cast<uint8_t>(tclass));
	connect(dst, src, static_cast<uint8_t>(tclass));
	std::printf("qpn %u %u\n", src.qp->qp_num, dst.qp->qp_num);
	std::fflush(stdout);

	unsigned long outstanding = 0, posted = 0, writes = 0, flushed = 0;
	bool flowing = false, in_err = false, completed = false;
	const timespec nap{0, 1000000};
	while (!g_stop) {
		if (g_to_err && !in_err) {
			ibv_qp_attr a{};
			a.qp_state = IBV_QPS_ERR;
			modify(src, a, IBV_QP_STATE, "ERR");
			in_err = true;
			std::printf("err\n");
			std::fflush(stdout);
		}
		while (!in_err && outstanding < depth && (!count || posted < count)) {
			post_write(src.qp, src, dst);
			outstanding++;
			posted++;
		}
		ibv_wc wc[16];
		const int n = ibv_poll_cq(src.cq, 16, wc);
		if (n < 0)
			fatal(src.name + ": ibv_poll_cq", EIO);
		for (int i = 0; i < n; i++) {
			outstanding--;
			if (wc[i].status == IBV_WC_SUCCESS) {
				writes++;
			} else if (in_err && wc[i].status == IBV_WC_WR_FLUSH_ERR) {
				flushed++;
			} else {
				std::fprintf(stderr, "rxecc-qptest: %s: completion error: %s\n",
				             src.name.c_str(), ibv_wc_status_str(wc[i].status));
				return 1;
			}
		}
		if (writes && !flowing) {
			flowing = true;
			std::printf("flowing\n");
			std::fflush(stdout);
		}
		if (count && writes == count && !completed) {
			completed = true;
			std::printf("completed %lu\n", writes);
			std::fflush(stdout);
		}
		if (!n)
			nanosleep(&nap, nullptr);
	}
	std::printf("done writes %lu flushed %lu\n", writes, flushed);
	std::fflush(stdout);
	teardown(src);
	teardown(dst);
	return 0;
}
