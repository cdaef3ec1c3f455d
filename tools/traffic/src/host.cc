// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The data path of rxecc-traffic. One thread, one epoll set: the rdma_cm
// event channel, the completion channel, a timerfd for the next flow start
// and the coordinator's descriptor. A flow's start is waited for with the
// timer until `spin` before it, then by reading the clock (a timer wake-up
// under emulation is about a millisecond late).
#include "host.h"

#include <arpa/inet.h>
#include <endian.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "clock.h"
#include "nl_transport.h"
#include "progress.h"
#include "qpcc.h"
#include "rdma/rxe_cc.h"
#include "records.h"
#include "retx.h"
#include "startwait.h"
#include "units.h"

namespace rxecc::traffic
{

namespace
{

constexpr std::uint32_t kMagic = 0x52584354; // "RXCT"
constexpr std::uint16_t kProtoVersion = 1;
constexpr unsigned kQpShift = 48;
constexpr std::uint64_t kMsgMask = (1ULL << kQpShift) - 1;
constexpr std::int64_t kRetryNs = 200000000;       // between connection attempts
constexpr int kResolveMs = 2000;                   // rdma_resolve_addr/route
constexpr std::int64_t kFinalizeGapNs = 20000000;  // finalize flows only this far from a start
constexpr std::int64_t kSpinSleepMaxNs = 10000000; // a start's wait sleeps until 2-10 ms before it
constexpr std::int64_t kSpinSleepMinNs = 2000000;  // (sleep_margin()),
constexpr std::int64_t kSpinQuietNs = 3000000;     // handles events until this before it
constexpr std::int64_t kSpinTightNs = 1000000;     // and only reads the clock in the last part
constexpr unsigned kSmallMsg = 4096;               // --messages auto logs flows up to this

// rdma_cm private data (network byte order)
struct ConnReq {
	std::uint32_t magic;
	std::uint16_t version;
	std::uint16_t qp;
	std::uint32_t flow;
	std::uint32_t pad;
	std::uint64_t hash;
};
struct ConnRep {
	std::uint32_t magic;
	std::uint32_t rkey;
	std::uint64_t addr;
	std::uint32_t len;
	std::uint32_t pad;
};
struct RejInfo {
	std::uint32_t magic;
	std::uint32_t code;
};
enum RejCode : std::uint32_t {
	kRejSchedule = 1, // the schedules differ
	kRejFlow = 2,     // no such flow here
	kRejSetup = 3,    // the receiver could not set up the QP
	kRejDup = 4,      // that QP of the flow is already connected
};

const char *rej_name(std::uint32_t c)
{
	switch (c) {
	case kRejSchedule: return "schedule_mismatch";
	case kRejFlow: return "unknown_flow";
	case kRejSetup: return "peer_setup_failed";
	case kRejDup: return "duplicate";
	default: return "unknown";
	}
}

volatile std::sig_atomic_t g_signal = 0;
void on_signal(int sig)
{
	g_signal = sig;
}

// A short token for a completion status ("retry_exc_err"), CSV-safe.
std::string wc_status_token(ibv_wc_status s)
{
	switch (s) {
	case IBV_WC_SUCCESS: return "success";
	case IBV_WC_LOC_LEN_ERR: return "loc_len_err";
	case IBV_WC_LOC_QP_OP_ERR: return "loc_qp_op_err";
	case IBV_WC_LOC_EEC_OP_ERR: return "loc_eec_op_err";
	case IBV_WC_LOC_PROT_ERR: return "loc_prot_err";
	case IBV_WC_WR_FLUSH_ERR: return "wr_flush_err";
	case IBV_WC_MW_BIND_ERR: return "mw_bind_err";
	case IBV_WC_BAD_RESP_ERR: return "bad_resp_err";
	case IBV_WC_LOC_ACCESS_ERR: return "loc_access_err";
	case IBV_WC_REM_INV_REQ_ERR: return "rem_inv_req_err";
	case IBV_WC_REM_ACCESS_ERR: return "rem_access_err";
	case IBV_WC_REM_OP_ERR: return "rem_op_err";
	case IBV_WC_RETRY_EXC_ERR: return "retry_exc_err";
	case IBV_WC_RNR_RETRY_EXC_ERR: return "rnr_retry_exc_err";
	case IBV_WC_LOC_RDD_VIOL_ERR: return "loc_rdd_viol_err";
	case IBV_WC_REM_INV_RD_REQ_ERR: return "rem_inv_rd_req_err";
	case IBV_WC_REM_ABORT_ERR: return "rem_abort_err";
	case IBV_WC_INV_EECN_ERR: return "inv_eecn_err";
	case IBV_WC_INV_EEC_STATE_ERR: return "inv_eec_state_err";
	case IBV_WC_FATAL_ERR: return "fatal_err";
	case IBV_WC_RESP_TIMEOUT_ERR: return "resp_timeout_err";
	case IBV_WC_GENERAL_ERR: return "general_err";
	default: return "status_" + std::to_string(static_cast<int>(s));
	}
}

std::string errno_token(int e)
{
	const char *n = strerrorname_np(e);
	return n ? n : "errno_" + std::to_string(e);
}

enum class ConnState { kIdle, kAddr, kRoute, kConnect, kUp, kClosed, kFailed };

struct Flow;

struct Conn {
	Flow *flow = nullptr;
	unsigned qpi = 0;
	rdma_cm_id *id = nullptr;
	ConnState st = ConnState::kIdle;
	std::uint64_t raddr = 0;
	std::uint32_t rkey = 0;
	std::uint32_t local_qpn = 0, remote_qpn = 0;
	std::int64_t retry_at = 0; // CLOCK_MONOTONIC
	std::string last_error;
	unsigned recv_to_post = 0;
	bool ever_up = false;
};

struct Flow {
	const FlowSpec *spec = nullptr;
	std::uint32_t index = 0;
	bool driver = false;
	std::vector<Conn> conns;
	std::unique_ptr<FlowProgress> prog; // driver
	RxRecord rx;                        // receiver of a SEND flow
	ibv_cq *cq = nullptr;
	unsigned cq_unacked = 0;
	ibv_mr *mr = nullptr;
	void *buf = nullptr;
	std::size_t buf_len = 0;
	unsigned rdepth = 0;
	std::string fail; // the first failure
	bool started = false, finalized = false, final_pending = false, dirty = false;
	std::int64_t start_abs = 0;
	unsigned up = 0, closed = 0;
};

class Host
{
public:
	Host(const HostConfig &cfg, Coordinator &coord) : cfg_(cfg), coord_(coord) {}
	~Host() { teardown(); }
	int run();

private:
	enum class Phase { kWaitGo, kConnecting, kWaitStart, kRunning, kDone };

	void log(const std::string &m) const
	{
		std::fprintf(stderr, "rxecc-traffic[%s]: %s\n", cfg_.host.c_str(), m.c_str());
	}
	bool setup(std::string *err);
	bool add_fd(int fd, std::uint32_t tag, std::string *err);
	void build_flows();
	bool ensure_flow_res(Flow &f, std::string *err);
	void start_connect(Conn &c, std::int64_t now);
	void conn_retry(Conn &c, const std::string &why, std::int64_t now);
	void conn_fail(Conn &c, const std::string &status);
	void destroy_conn(Conn &c);
	void handle_cm();
	void on_connect_request(rdma_cm_id *id, const rdma_conn_param &p, const std::uint8_t *pd,
	                        std::size_t pd_len);
	void on_cm_event(rdma_cm_event_type type, int status, rdma_cm_id *id,
	                 const rdma_conn_param &p, const std::uint8_t *pd, std::size_t pd_len);
	void reject(rdma_cm_id *id, RejCode code);
	void handle_cq_events();
	void poll_flow(Flow &f);
	bool service(int timeout_ms);
	std::int64_t sleep_margin() const;
	void note_sleep_late(std::int64_t late);
	void post_more(Flow &f, std::int64_t rel, std::uint64_t cap = UINT64_MAX);
	void post_recvs(Flow &f, Conn &c);
	bool start_flow(Flow &f, std::uint64_t first_wrs);
	void finalize(Flow &f);
	void probe_retx();
	void pace_flows();
	void stop_all(const std::string &status);
	bool connect_phase_over(std::int64_t now);
	bool all_done() const;
	std::int64_t rel(std::int64_t mono) const { return mono - t0_; }
	int finish();
	void teardown();

	const HostConfig &cfg_;
	Coordinator &coord_;
	const HostSpec *me_ = nullptr;
	std::uint64_t hash_ = 0;
	Phase phase_ = Phase::kWaitGo;

	rdma_event_channel *ch_ = nullptr;
	rdma_cm_id *listener_ = nullptr;
	ibv_context *ctx_ = nullptr;
	ibv_device_attr dev_attr_{};
	std::string dev_name_;
	ibv_pd *pd_ = nullptr;
	ibv_comp_channel *comp_ = nullptr;
	int epfd_ = -1, tfd_ = -1;
	std::unique_ptr<rxecc::NlTransport> nl_;

	std::vector<std::unique_ptr<Flow>> flows_;
	std::vector<Flow *> starts_; // driven flows in start order
	std::size_t next_start_ = 0;
	std::int64_t connect_deadline_ = 0;
	std::int64_t t0_ = 0, t0_real_ = 0;
	std::int64_t deadline_abs_ = 0;
	std::int64_t proc_start_ = 0, ready_at_ = 0;
	rusage ru0_{};
	std::vector<ibv_send_wr> wrs_;
	std::vector<ibv_sge> sges_;
	std::vector<ibv_recv_wr> rwrs_;
	std::vector<ibv_sge> rsges_;
	std::vector<Flow *> dirty_;
	std::int64_t timer_at_ = 0;            // when the armed timer expires (0: none)
	std::vector<std::int64_t> timer_late_; // how late each timer wake-up was
	std::int64_t spin_total_ = 0;          // time spent reading the clock before starts
	std::vector<std::int64_t> spin_gaps_;  // longest gap between readings, per start
	std::size_t arrived_late_ = 0;         // starts reached after their time
	int service_events_ = 0;               // events of the last service() round
	std::int64_t sleep_late_ = 5000000;    // how late a 1 ms sleep ends (decaying max)
	// the longest single round of each kind of work after T0: what may
	// hold up a start that falls due meanwhile
	struct {
		std::int64_t cm = 0, completions = 0, finalize = 0, starts = 0;
	} longest_;
};

enum : std::uint32_t { kTagCm = 1, kTagComp = 2, kTagTimer = 3, kTagCoord = 4 };

bool Host::add_fd(int fd, std::uint32_t tag, std::string *err)
{
	epoll_event ev{};
	ev.events = EPOLLIN;
	ev.data.u32 = tag;
	if (epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
		*err = std::string("epoll_ctl: ") + std::strerror(errno);
		return false;
	}
	return true;
}

bool Host::setup(std::string *err)
{
	me_ = cfg_.hosts->find(cfg_.host);
	if (!me_) {
		*err = "host '" + cfg_.host + "' is not in the hosts file";
		return false;
	}
	hash_ = schedule_hash(*cfg_.schedule);
	epfd_ = epoll_create1(EPOLL_CLOEXEC);
	tfd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (epfd_ < 0 || tfd_ < 0) {
		*err = std::string("epoll/timerfd: ") + std::strerror(errno);
		return false;
	}
	ch_ = rdma_create_event_channel();
	if (!ch_) {
		*err = std::string("rdma_create_event_channel: ") + std::strerror(errno) +
		       " (is rdma_ucm loaded?)";
		return false;
	}
	fcntl(ch_->fd, F_SETFL, fcntl(ch_->fd, F_GETFL) | O_NONBLOCK);
	if (!add_fd(ch_->fd, kTagCm, err) || !add_fd(tfd_, kTagTimer, err))
		return false;
	if (coord_.fd() >= 0 && !add_fd(coord_.fd(), kTagCoord, err))
		return false;

	if (rdma_create_id(ch_, &listener_, nullptr, RDMA_PS_TCP) != 0) {
		*err = std::string("rdma_create_id: ") + std::strerror(errno);
		return false;
	}
	sockaddr_in sa{};
	sa.sin_family = AF_INET;
	sa.sin_port = htons(cfg_.port);
	inet_pton(AF_INET, me_->ip.c_str(), &sa.sin_addr);
	if (rdma_bind_addr(listener_, reinterpret_cast<sockaddr *>(&sa)) != 0) {
		*err = "cannot bind " + me_->ip + ":" + std::to_string(cfg_.port) + ": " +
		       std::strerror(errno) +
		       " (is the address on an RDMA device in this namespace?)";
		return false;
	}
	if (!listener_->verbs) {
		*err = "address " + me_->ip + " is not on an RDMA device";
		return false;
	}
	ctx_ = listener_->verbs;
	dev_name_ = ibv_get_device_name(ctx_->device);
	if (!me_->dev.empty() && dev_name_ != me_->dev) {
		*err = "address " + me_->ip + " is on device " + dev_name_ +
		       ", the hosts file says " + me_->dev;
		return false;
	}
	if (ibv_query_device(ctx_, &dev_attr_) != 0) {
		*err = std::string("ibv_query_device: ") + std::strerror(errno);
		return false;
	}
	if (rdma_listen(listener_, 1024) != 0) {
		*err = std::string("rdma_listen: ") + std::strerror(errno);
		return false;
	}
	pd_ = ibv_alloc_pd(ctx_);
	if (!pd_) {
		*err = std::string("ibv_alloc_pd: ") + std::strerror(errno);
		return false;
	}
	if (!cfg_.busy_poll) {
		comp_ = ibv_create_comp_channel(ctx_);
		if (!comp_) {
			*err = std::string("ibv_create_comp_channel: ") + std::strerror(errno);
			return false;
		}
		fcntl(comp_->fd, F_SETFL, fcntl(comp_->fd, F_GETFL) | O_NONBLOCK);
		if (!add_fd(comp_->fd, kTagComp, err))
			return false;
	}
	unsigned maxd = 1;
	for (const auto &f : flows_)
		maxd = std::max({maxd, f->spec->opt.depth, f->rdepth});
	wrs_.resize(maxd);
	sges_.resize(maxd);
	rwrs_.resize(maxd);
	rsges_.resize(maxd);
	return true;
}

void Host::build_flows()
{
	const auto &fl = cfg_.schedule->flows;
	for (std::uint32_t i = 0; i < fl.size(); i++) {
		const FlowSpec &s = fl[i];
		const bool drv = s.driver() == cfg_.host, pas = s.passive() == cfg_.host;
		if (!drv && !pas)
			continue;
		auto f = std::make_unique<Flow>();
		f->spec = &s;
		f->index = i;
		f->driver = drv;
		f->conns.resize(s.opt.qps);
		for (unsigned q = 0; q < s.opt.qps; q++) {
			f->conns[q].flow = f.get();
			f->conns[q].qpi = q;
		}
		f->buf_len = static_cast<std::size_t>(
			s.size_bytes ? std::min(s.opt.msg_bytes, *s.size_bytes) : s.opt.msg_bytes);
		if (drv) {
			bool log = cfg_.messages == MessageLog::kAll ||
			           (cfg_.messages == MessageLog::kAuto &&
			            s.opt.msg_bytes <= kSmallMsg);
			f->prog = std::make_unique<FlowProgress>(s, cfg_.bin_ns, log);
		}
		// receives for a SEND flow: twice the sender's depth and 4 MiB
		// at least (a receiver that stalls must not run dry: the
		// sender would take an RNR NAK and retransmit), at most 4096
		if (!drv && s.opt.verb == Verb::kSend) {
			const std::uint64_t by_bytes = (4ULL << 20) / s.opt.msg_bytes;
			f->rdepth = static_cast<unsigned>(std::min<std::uint64_t>(
				std::max<std::uint64_t>({2ULL * s.opt.depth, by_bytes, 256}),
				4096));
		}
		flows_.push_back(std::move(f));
	}
}

bool Host::ensure_flow_res(Flow &f, std::string *err)
{
	if (f.cq)
		return true;
	const FlowSpec &s = *f.spec;
	const int maxcqe = dev_attr_.max_cqe > 0 ? dev_attr_.max_cqe : 32767;
	if (f.rdepth) {
		const unsigned per = static_cast<unsigned>(maxcqe - 16) / s.opt.qps;
		f.rdepth = std::max(1u, std::min(f.rdepth, per > 2 ? per - 2 : 1));
	}
	const long want = static_cast<long>(s.opt.qps) *
	                          static_cast<long>((f.driver ? s.opt.depth : 1) + f.rdepth + 1) +
	                  16;
	const int cqe = static_cast<int>(std::min<long>(want, maxcqe));
	f.cq = ibv_create_cq(ctx_, cqe, &f, comp_, 0);
	if (!f.cq) {
		*err = "setup_error:create_cq:" + errno_token(errno);
		return false;
	}
	if (comp_ && ibv_req_notify_cq(f.cq, 0) != 0) {
		*err = "setup_error:req_notify_cq:" + errno_token(errno);
		return false;
	}
	const std::size_t len = (f.buf_len + 4095) / 4096 * 4096;
	if (posix_memalign(&f.buf, 4096, len) != 0) {
		f.buf = nullptr;
		*err = "setup_error:memory";
		return false;
	}
	std::memset(f.buf, 0x5a, len);
	unsigned access = 0;
	if (f.driver) {
		if (s.opt.verb == Verb::kRead)
			access = IBV_ACCESS_LOCAL_WRITE;
	} else if (s.opt.verb == Verb::kWrite)
		access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	else if (s.opt.verb == Verb::kRead)
		access = IBV_ACCESS_REMOTE_READ;
	else
		access = IBV_ACCESS_LOCAL_WRITE;
	f.mr = ibv_reg_mr(pd_, f.buf, f.buf_len, access);
	if (!f.mr) {
		*err = "setup_error:reg_mr:" + errno_token(errno);
		return false;
	}
	return true;
}

void Host::destroy_conn(Conn &c)
{
	if (!c.id)
		return;
	if (c.id->qp)
		rdma_destroy_qp(c.id);
	rdma_destroy_id(c.id);
	c.id = nullptr;
}

void Host::conn_fail(Conn &c, const std::string &status)
{
	c.st = ConnState::kFailed;
	Flow &f = *c.flow;
	if (f.fail.empty()) {
		f.fail = status;
		log("flow " + f.spec->name + ": " + status);
	}
	if (f.prog)
		f.prog->stop_posting();
}

void Host::conn_retry(Conn &c, const std::string &why, std::int64_t now)
{
	destroy_conn(c);
	c.last_error = why;
	if (now + kRetryNs < connect_deadline_) {
		c.st = ConnState::kIdle;
		c.retry_at = now + kRetryNs;
	} else {
		conn_fail(c, "connect_timeout:" + why);
	}
}

void Host::start_connect(Conn &c, std::int64_t now)
{
	Flow &f = *c.flow;
	const FlowSpec &s = *f.spec;
	const HostSpec *peer = cfg_.hosts->find(s.passive());
	if (rdma_create_id(ch_, &c.id, &c, RDMA_PS_TCP) != 0) {
		c.id = nullptr;
		conn_retry(c, "create_id_" + errno_token(errno), now);
		return;
	}
	std::uint8_t tos = static_cast<std::uint8_t>(s.opt.dscp << 2);
	std::uint8_t tmo = static_cast<std::uint8_t>(s.opt.ack_timeout);
	if (rdma_set_option(c.id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos)) != 0 ||
	    rdma_set_option(c.id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &tmo, sizeof(tmo)) !=
	            0) {
		destroy_conn(c);
		conn_fail(c, "setup_error:set_option:" + errno_token(errno));
		return;
	}
	sockaddr_in src{}, dst{};
	src.sin_family = dst.sin_family = AF_INET;
	inet_pton(AF_INET, me_->ip.c_str(), &src.sin_addr);
	inet_pton(AF_INET, peer->ip.c_str(), &dst.sin_addr);
	dst.sin_port = htons(cfg_.port);
	if (rdma_resolve_addr(c.id, reinterpret_cast<sockaddr *>(&src),
	                      reinterpret_cast<sockaddr *>(&dst), kResolveMs) != 0) {
		conn_retry(c, "resolve_addr_" + errno_token(errno), now);
		return;
	}
	c.st = ConnState::kAddr;
}

void Host::reject(rdma_cm_id *id, RejCode code)
{
	RejInfo r{htonl(kMagic), htonl(code)};
	rdma_reject(id, &r, sizeof(r));
	rdma_destroy_id(id);
}

void Host::post_recvs(Flow &f, Conn &c)
{
	unsigned n = 0;
	while (c.recv_to_post > 0 && n < rwrs_.size()) {
		ibv_sge &sg = rsges_[n];
		sg.addr = reinterpret_cast<std::uintptr_t>(f.buf);
		sg.length = static_cast<std::uint32_t>(f.buf_len);
		sg.lkey = f.mr->lkey;
		ibv_recv_wr &w = rwrs_[n];
		w = ibv_recv_wr{};
		w.wr_id = static_cast<std::uint64_t>(c.qpi) << kQpShift;
		w.sg_list = &sg;
		w.num_sge = 1;
		if (n > 0)
			rwrs_[n - 1].next = &w;
		n++;
		c.recv_to_post--;
	}
	if (!n)
		return;
	ibv_recv_wr *bad = nullptr;
	const int e = ibv_post_recv(c.id->qp, &rwrs_[0], &bad);
	if (e && f.rx.status.empty())
		f.rx.status = "post_error:" + errno_token(e);
}

void Host::on_connect_request(rdma_cm_id *id, const rdma_conn_param &p, const std::uint8_t *pd,
                              std::size_t pd_len)
{
	ConnReq req{};
	if (pd_len < sizeof(req)) {
		reject(id, kRejFlow);
		return;
	}
	std::memcpy(&req, pd, sizeof(req));
	if (ntohl(req.magic) != kMagic || ntohs(req.version) != kProtoVersion ||
	    be64toh(req.hash) != hash_) {
		log("rejected a connection: its schedule differs from ours");
		reject(id, kRejSchedule);
		return;
	}
	const std::uint32_t fi = ntohl(req.flow);
	const unsigned qi = ntohs(req.qp);
	Flow *f = nullptr;
	for (auto &x : flows_)
		if (x->index == fi && !x->driver)
			f = x.get();
	if (!f || qi >= f->conns.size()) {
		reject(id, kRejFlow);
		return;
	}
	Conn &c = f->conns[qi];
	if (c.st == ConnState::kUp || c.st == ConnState::kClosed) {
		reject(id, kRejDup);
		return;
	}
	destroy_conn(c); // a half-open earlier attempt
	if (id->verbs != ctx_) {
		log("flow " + f->spec->name + ": request on device " +
		    ibv_get_device_name(id->verbs->device) + ", not " + dev_name_);
		reject(id, kRejSetup);
		return;
	}
	std::string err;
	if (!ensure_flow_res(*f, &err)) {
		conn_fail(c, err);
		reject(id, kRejSetup);
		return;
	}
	ibv_qp_init_attr qa{};
	qa.send_cq = qa.recv_cq = f->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 1;
	qa.cap.max_recv_wr = f->rdepth ? f->rdepth : 1;
	qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(id, pd_, &qa) != 0) {
		conn_fail(c, "setup_error:create_qp:" + errno_token(errno));
		reject(id, kRejSetup);
		return;
	}
	c.id = id;
	id->context = &c;
	c.local_qpn = id->qp->qp_num;
	c.remote_qpn = p.qp_num;
	if (f->rdepth) {
		c.recv_to_post = f->rdepth;
		post_recvs(*f, c);
	}
	ConnRep rep{};
	rep.magic = htonl(kMagic);
	rep.rkey = htonl(f->mr->rkey);
	rep.addr = htobe64(reinterpret_cast<std::uintptr_t>(f->buf));
	rep.len = htonl(static_cast<std::uint32_t>(f->buf_len));
	rdma_conn_param cp{};
	cp.private_data = &rep;
	cp.private_data_len = sizeof(rep);
	cp.responder_resources = static_cast<std::uint8_t>(
		std::min<int>(p.initiator_depth, dev_attr_.max_qp_rd_atom));
	cp.initiator_depth = static_cast<std::uint8_t>(
		std::min<int>(p.responder_resources, dev_attr_.max_qp_init_rd_atom));
	cp.rnr_retry_count = 7;
	if (rdma_accept(id, &cp) != 0) {
		const int e = errno;
		rdma_destroy_qp(id);
		c.id = nullptr;
		rdma_reject(id, nullptr, 0);
		rdma_destroy_id(id);
		c.st = ConnState::kIdle;
		c.last_error = "accept_" + errno_token(e);
		return;
	}
	// 0.64 ms between a sender's retries after an RNR NAK (rdma_cm leaves
	// 0, i.e. 655 ms); the receiver reposts its receives as they complete
	ibv_qp_attr a{};
	a.min_rnr_timer = 12;
	ibv_modify_qp(id->qp, &a, IBV_QP_MIN_RNR_TIMER);
	c.st = ConnState::kConnect;
}

void Host::on_cm_event(rdma_cm_event_type type, int status, rdma_cm_id *id,
                       const rdma_conn_param &p, const std::uint8_t *pd, std::size_t pd_len)
{
	const std::int64_t now = mono_ns();
	if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		on_connect_request(id, p, pd, pd_len);
		return;
	}
	auto *c = static_cast<Conn *>(id->context);
	if (!c || id == listener_) {
		if (type == RDMA_CM_EVENT_DEVICE_REMOVAL)
			stop_all("device_removed");
		return;
	}
	Flow &f = *c->flow;
	switch (type) {
	case RDMA_CM_EVENT_ADDR_RESOLVED: {
		if (c->id->verbs != ctx_) {
			destroy_conn(*c);
			conn_fail(*c, "setup_error:wrong_device");
			return;
		}
		if (rdma_resolve_route(c->id, kResolveMs) != 0)
			conn_retry(*c, "resolve_route_" + errno_token(errno), now);
		else
			c->st = ConnState::kRoute;
		return;
	}
	case RDMA_CM_EVENT_ROUTE_RESOLVED: {
		std::string err;
		if (!ensure_flow_res(f, &err)) {
			destroy_conn(*c);
			conn_fail(*c, err);
			return;
		}
		ibv_qp_init_attr qa{};
		qa.send_cq = qa.recv_cq = f.cq;
		qa.qp_type = IBV_QPT_RC;
		qa.cap.max_send_wr = f.spec->opt.depth;
		qa.cap.max_recv_wr = 1;
		qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
		if (rdma_create_qp(c->id, pd_, &qa) != 0) {
			const int e = errno;
			destroy_conn(*c);
			conn_fail(*c, "setup_error:create_qp:" + errno_token(e));
			return;
		}
		c->local_qpn = c->id->qp->qp_num;
		ConnReq req{};
		req.magic = htonl(kMagic);
		req.version = htons(kProtoVersion);
		req.qp = htons(static_cast<std::uint16_t>(c->qpi));
		req.flow = htonl(f.index);
		req.hash = htobe64(hash_);
		rdma_conn_param cp{};
		cp.private_data = &req;
		cp.private_data_len = sizeof(req);
		if (f.spec->opt.verb == Verb::kRead) {
			cp.initiator_depth = static_cast<std::uint8_t>(
				std::min(dev_attr_.max_qp_init_rd_atom, 128));
			cp.responder_resources = cp.initiator_depth;
		}
		cp.retry_count = 7;
		cp.rnr_retry_count = 7;
		if (rdma_connect(c->id, &cp) != 0)
			conn_retry(*c, "connect_" + errno_token(errno), now);
		else
			c->st = ConnState::kConnect;
		return;
	}
	case RDMA_CM_EVENT_ESTABLISHED: {
		if (f.driver) {
			ConnRep rep{};
			if (pd_len < sizeof(rep)) {
				conn_fail(*c, "setup_error:no_private_data");
				return;
			}
			std::memcpy(&rep, pd, sizeof(rep));
			if (ntohl(rep.magic) != kMagic) {
				conn_fail(*c, "setup_error:bad_private_data");
				return;
			}
			c->rkey = ntohl(rep.rkey);
			c->raddr = be64toh(rep.addr);
			c->remote_qpn = p.qp_num;
		}
		c->st = ConnState::kUp;
		c->ever_up = true;
		f.up++;
		if (!f.driver && f.fail == "not_connected" && f.up == f.conns.size())
			f.fail.clear(); // late, but connected after all
		return;
	}
	case RDMA_CM_EVENT_REJECTED: {
		RejInfo r{};
		if (pd_len >= sizeof(r)) {
			std::memcpy(&r, pd, sizeof(r));
			if (ntohl(r.magic) == kMagic) {
				destroy_conn(*c);
				conn_fail(*c, std::string("rejected:") + rej_name(ntohl(r.code)));
				return;
			}
		}
		conn_retry(*c, "rejected_" + std::to_string(status), now);
		return;
	}
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		if (f.driver) {
			conn_retry(*c, "unreachable_" + std::to_string(status), now);
		} else {
			destroy_conn(*c);
			c->st = ConnState::kIdle;
		}
		return;
	case RDMA_CM_EVENT_DISCONNECTED:
		if (c->st == ConnState::kUp) {
			c->st = ConnState::kClosed;
			f.closed++;
		}
		if (f.driver && !f.finalized && !f.final_pending && f.started && f.fail.empty()) {
			f.fail = "disconnected";
			f.prog->stop_posting();
			f.dirty = true;
			dirty_.push_back(&f);
		}
		return;
	case RDMA_CM_EVENT_DEVICE_REMOVAL: stop_all("device_removed"); return;
	default: return;
	}
}

void Host::handle_cm()
{
	for (;;) {
		rdma_cm_event *e = nullptr;
		if (rdma_get_cm_event(ch_, &e) != 0)
			return;
		// copy what we need, ack, then act (acting may destroy the id)
		const rdma_cm_event_type type = e->event;
		const int status = e->status;
		rdma_cm_id *id = e->id;
		rdma_conn_param p = e->param.conn;
		std::uint8_t pd[256];
		const std::size_t pd_len =
			p.private_data ? std::min<std::size_t>(p.private_data_len, sizeof(pd)) : 0;
		if (pd_len)
			std::memcpy(pd, p.private_data, pd_len);
		p.private_data = nullptr;
		rdma_ack_cm_event(e);
		on_cm_event(type, status, id, p, pd, pd_len);
	}
}

// Keeps up to depth work requests outstanding on every QP of the flow (at
// most `cap` posted in all).
void Host::post_more(Flow &f, std::int64_t now_rel, std::uint64_t cap)
{
	FlowProgress &pg = *f.prog;
	const FlowSpec &s = *f.spec;
	for (Conn &c : f.conns) {
		if (c.st != ConnState::kUp)
			continue;
		unsigned n = 0;
		while (pg.outstanding(c.qpi) < s.opt.depth && cap > 0) {
			cap--;
			auto m = pg.post(c.qpi, now_rel);
			if (!m)
				break;
			ibv_sge &sg = sges_[n];
			sg.addr = reinterpret_cast<std::uintptr_t>(f.buf);
			sg.length = static_cast<std::uint32_t>(m->bytes);
			sg.lkey = f.mr->lkey;
			ibv_send_wr &w = wrs_[n];
			w = ibv_send_wr{};
			w.wr_id = (static_cast<std::uint64_t>(c.qpi) << kQpShift) | m->msg;
			w.sg_list = &sg;
			w.num_sge = 1;
			w.send_flags = IBV_SEND_SIGNALED;
			switch (s.opt.verb) {
			case Verb::kWrite: w.opcode = IBV_WR_RDMA_WRITE; break;
			case Verb::kRead: w.opcode = IBV_WR_RDMA_READ; break;
			case Verb::kSend: w.opcode = IBV_WR_SEND; break;
			}
			if (s.opt.verb != Verb::kSend) {
				w.wr.rdma.remote_addr = c.raddr;
				w.wr.rdma.rkey = c.rkey;
			}
			if (n > 0)
				wrs_[n - 1].next = &w;
			n++;
		}
		if (!n)
			continue;
		ibv_send_wr *bad = nullptr;
		const int e = ibv_post_send(c.id->qp, &wrs_[0], &bad);
		if (e) {
			for (ibv_send_wr *w = bad; w; w = w->next)
				pg.fail_completion(w->wr_id & kMsgMask, c.qpi);
			if (f.fail.empty())
				f.fail = "post_error:" + errno_token(e);
			pg.stop_posting();
		}
	}
}

// Starts the flow with its first `first_wrs` work requests (at most depth
// per QP); false if it cannot start.
bool Host::start_flow(Flow &f, std::uint64_t first_wrs)
{
	f.started = true;
	if (!f.fail.empty()) {
		f.final_pending = true;
		return false;
	}
	for (const Conn &c : f.conns)
		if (c.st != ConnState::kUp) {
			f.fail = "not_started:" + (c.last_error.empty()
			                                   ? std::string("not_connected")
			                                   : c.last_error);
			f.final_pending = true;
			return false;
		}
	const std::int64_t now = rel(mono_ns());
	f.prog->start(now);
	post_more(f, now, first_wrs);
	return true;
}

void Host::poll_flow(Flow &f)
{
	ibv_wc wc[64];
	const int n = ibv_poll_cq(f.cq, 64, wc);
	if (n <= 0) {
		f.dirty = false;
		return;
	}
	const std::int64_t now = rel(mono_ns());
	for (int i = 0; i < n; i++) {
		const unsigned qpi = static_cast<unsigned>(wc[i].wr_id >> kQpShift);
		const std::uint64_t msg = wc[i].wr_id & kMsgMask;
		if (qpi >= f.conns.size())
			continue;
		if (f.driver) {
			if (wc[i].opcode & IBV_WC_RECV)
				continue; // never posted
			if (wc[i].status == IBV_WC_SUCCESS) {
				f.prog->complete(msg, qpi, now);
			} else {
				f.prog->fail_completion(msg, qpi);
				if (f.fail.empty()) {
					f.fail = "wc_error:" + wc_status_token(wc[i].status);
					log("flow " + f.spec->name + ": " + f.fail);
				}
				f.prog->stop_posting();
			}
		} else {
			if (!(wc[i].opcode & IBV_WC_RECV))
				continue;
			if (wc[i].status == IBV_WC_SUCCESS) {
				f.rx.bytes += wc[i].byte_len;
				f.rx.msgs++;
				if (!f.rx.first_byte_ns)
					f.rx.first_byte_ns = now;
				f.rx.last_byte_ns = now;
				f.conns[qpi].recv_to_post++;
			} else if (wc[i].status != IBV_WC_WR_FLUSH_ERR && f.rx.status.empty()) {
				f.rx.status = "wc_error:" + wc_status_token(wc[i].status);
			}
		}
	}
	if (f.driver) {
		if (f.fail.empty())
			post_more(f, now);
		if (f.prog->finished(now))
			f.final_pending = true;
	} else {
		for (Conn &c : f.conns)
			if (c.st == ConnState::kUp && c.recv_to_post >= 16)
				post_recvs(f, c);
	}
	if (n < 64)
		f.dirty = false;
}

void Host::handle_cq_events()
{
	for (;;) {
		ibv_cq *cq = nullptr;
		void *ctx = nullptr;
		if (ibv_get_cq_event(comp_, &cq, &ctx) != 0)
			return;
		auto *f = static_cast<Flow *>(ctx);
		if (++f->cq_unacked >= 64) {
			ibv_ack_cq_events(cq, f->cq_unacked);
			f->cq_unacked = 0;
		}
		ibv_req_notify_cq(cq, 0);
		if (!f->dirty) {
			f->dirty = true;
			dirty_.push_back(f);
		}
	}
}

void Host::finalize(Flow &f)
{
	if (f.finalized)
		return;
	f.finalized = true;
	f.final_pending = false;
	FlowRecord &r = f.prog->record();
	std::optional<std::uint64_t> retx = 0;
	bool any = false;
	for (Conn &c : f.conns) {
		std::vector<std::uint32_t> *mine =
			f.spec->opt.verb == Verb::kRead ? &r.dst_qpns : &r.qpns;
		std::vector<std::uint32_t> *theirs =
			f.spec->opt.verb == Verb::kRead ? &r.qpns : &r.dst_qpns;
		if (c.local_qpn && c.ever_up) {
			mine->push_back(c.local_qpn);
			theirs->push_back(c.remote_qpn);
			any = true;
			const auto v = nl_ && c.id && c.id->qp
			                       ? qp_retx(*nl_, dev_name_, c.local_qpn)
			                       : std::nullopt;
			if (v && retx)
				*retx += *v;
			else
				retx.reset();
		}
	}
	if (any && retx)
		r.retx = retx;
	f.prog->finish(f.fail.empty() ? "ok" : f.fail);
	for (Conn &c : f.conns)
		if (c.id && c.st == ConnState::kUp)
			rdma_disconnect(c.id);
}

// Before T0: open the netlink socket and check, on one of our QPs, that the
// kernel counts retransmissions per QP; if not, the column stays empty and
// no time is spent asking for it after each flow.
void Host::probe_retx()
{
	const Conn *probe = nullptr;
	for (auto &fp : flows_)
		for (const Conn &c : fp->conns)
			if (!probe && fp->driver && c.st == ConnState::kUp)
				probe = &c;
	if (!probe)
		return;
	const rxecc::Status st = rxecc::NlTransport::open(
		RXE_CC_GENL_NAME, RXE_CC_GENL_VERSION, [] { return false; }, nl_);
	if (!st.ok()) {
		nl_.reset();
		log("no rxe_cc netlink family: the retx column stays empty");
		return;
	}
	if (!qp_retx(*nl_, dev_name_, probe->local_qpn)) {
		nl_.reset();
		log(std::string("the kernel reports no per-QP '") + kRetxStat +
		    "' statistic: the retx column stays empty");
	}
}

// Before T0: the QPs of every flow with a rate= go to the algorithm
// "fixed" at that rate. A flow whose QPs cannot be paced does not start
// (not_started:rate_not_set): it would run at another rate than asked.
void Host::pace_flows()
{
	std::unique_ptr<rxecc::NlTransport> nl;
	std::string no_nl; // why the socket could not be had, once tried
	for (auto &fp : flows_) {
		Flow &f = *fp;
		if (!f.driver || !f.fail.empty() || !f.spec->opt.rate_bps)
			continue;
		const std::uint64_t bps = *f.spec->opt.rate_bps;
		if (!nl && no_nl.empty()) {
			const rxecc::Status st = rxecc::NlTransport::open(
				RXE_CC_GENL_NAME, RXE_CC_GENL_VERSION, [] { return false; }, nl);
			if (!st.ok()) {
				nl.reset();
				no_nl = st.kind == rxecc::Status::kNoFamily
				                ? "the kernel has no rxe_cc netlink family"
				                : "cannot open the rxe_cc netlink socket: " +
				                          st.detail;
			}
		}
		std::string why = no_nl;
		for (const Conn &c : f.conns) {
			if (!why.empty())
				break;
			if (c.st != ConnState::kUp)
				continue;
			why = pace_qp(*nl, dev_name_, c.local_qpn, bps);
			if (!why.empty())
				why = "QP " + std::to_string(c.local_qpn) + ": " + why;
		}
		if (!why.empty()) {
			log("flow " + f.spec->name + ": cannot pace its QPs at " +
			    units::format_rate_bps(bps) + ": " + why);
			f.fail = "not_started:rate_not_set"; // start_flow() ends it
		}
	}
}

void Host::stop_all(const std::string &status)
{
	const std::int64_t now = rel(mono_ns());
	for (auto &fp : flows_) {
		Flow &f = *fp;
		if (f.driver) {
			if (f.finalized)
				continue;
			if (f.fail.empty())
				f.fail = status;
			if (f.prog->started() && !f.prog->finished(now))
				f.prog->stop_posting();
			finalize(f);
		} else if (f.rx.status.empty() && f.closed < f.up) {
			f.rx.status = status;
		}
	}
	phase_ = Phase::kDone;
}

bool Host::connect_phase_over(std::int64_t now)
{
	bool over = true;
	for (auto &fp : flows_)
		for (Conn &c : fp->conns)
			if (fp->driver ? (c.st != ConnState::kUp && c.st != ConnState::kFailed)
			               : (!c.ever_up && fp->fail.empty()))
				over = false;
	if (over || now < connect_deadline_)
		return over;
	for (auto &fp : flows_)
		for (Conn &c : fp->conns) {
			if (c.st == ConnState::kFailed || c.ever_up)
				continue;
			if (fp->driver) {
				destroy_conn(c);
				conn_fail(c,
				          "connect_timeout:" + (c.last_error.empty()
				                                        ? std::string("no_answer")
				                                        : c.last_error));
			} else if (fp->fail.empty()) {
				fp->fail = "not_connected";
			}
		}
	return true;
}

bool Host::all_done() const
{
	for (const auto &fp : flows_) {
		const Flow &f = *fp;
		if (f.driver) {
			if (!f.finalized)
				return false;
			continue;
		}
		// a receiving flow is done when every QP that connected has been
		// disconnected, and no more will connect
		unsigned ever = 0;
		for (const Conn &c : f.conns)
			ever += c.ever_up ? 1 : 0;
		if (f.closed < ever)
			return false;
		if (ever < f.conns.size() && f.fail.empty())
			return false;
	}
	return true;
}

// How long before a start the host stops sleeping: the 1 ms sleep plus
// twice what such a sleep has been late, 2 to 10 ms. Under TCG a wake-up
// is milliseconds late (10 ms); on a machine whose timers are punctual
// the host sleeps until 2 ms before, so that with one CPU (User-Mode
// Linux) the kernel's threads run between starts a few ms apart.
std::int64_t Host::sleep_margin() const
{
	return std::clamp<std::int64_t>(1000000 + 2 * sleep_late_, kSpinSleepMinNs,
	                                kSpinSleepMaxNs);
}

// A 1 ms sleep that no event ended was LATE ns late: the estimate takes
// it if larger and otherwise loses an eighth of itself.
void Host::note_sleep_late(std::int64_t late)
{
	sleep_late_ = std::max<std::int64_t>(std::max<std::int64_t>(late, 0),
	                                     sleep_late_ - sleep_late_ / 8);
}

// One round of event handling: the rdma_cm channel, completion events,
// the start timer and the launcher's pipe (epoll_wait up to timeout_ms),
// then a bounded batch of completions from each CQ that has some. False
// when the loop must end (epoll failed: every flow is stopped).
bool Host::service(int timeout_ms)
{
	epoll_event evs[16];
	const int n = epoll_wait(epfd_, evs, 16, timeout_ms);
	const std::int64_t tc = mono_ns();
	service_events_ = n;
	if (n < 0 && errno != EINTR) {
		log(std::string("epoll_wait: ") + std::strerror(errno));
		stop_all("internal_error");
		return false;
	}
	for (int i = 0; i < n; i++) {
		switch (evs[i].data.u32) {
		case kTagCm: {
			const std::int64_t t = mono_ns();
			handle_cm();
			if (phase_ == Phase::kRunning)
				longest_.cm = std::max(longest_.cm, mono_ns() - t);
			break;
		}
		case kTagComp: handle_cq_events(); break;
		case kTagTimer: {
			std::uint64_t x;
			ssize_t r = read(tfd_, &x, sizeof(x));
			(void)r;
			if (timer_at_)
				timer_late_.push_back(tc - timer_at_);
			timer_at_ = 0;
			break;
		}
		case kTagCoord:
			if (!coord_.on_readable() && phase_ != Phase::kDone) {
				log("the launcher is gone");
				stop_all("launcher_gone");
			}
			break;
		default: break;
		}
	}
	// completions, a bounded batch per CQ per round
	std::vector<Flow *> work;
	work.swap(dirty_);
	const std::int64_t tw = mono_ns();
	for (Flow *f : work) {
		poll_flow(*f);
		if (f->dirty)
			dirty_.push_back(f);
	}
	if (phase_ == Phase::kRunning)
		longest_.completions = std::max(longest_.completions, mono_ns() - tw);
	return true;
}

int Host::run()
{
	proc_start_ = mono_ns();
	build_flows();
	std::string err;
	if (!setup(&err)) {
		log(err);
		coord_.failed(err);
		for (auto &fp : flows_) {
			if (fp->driver) {
				fp->fail = "not_started:host_setup_failed";
				fp->prog->finish(fp->fail);
			} else {
				fp->rx.status = "not_started:host_setup_failed";
			}
		}
		return finish();
	}
	if (cfg_.rt_priority > 0 && !cfg_.busy_poll) {
		sched_param sp{};
		sp.sched_priority = cfg_.rt_priority;
		if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
			log(std::string("cannot run at SCHED_FIFO priority ") +
			    std::to_string(cfg_.rt_priority) + ": " + std::strerror(errno) +
			    " (flows may start late)");
	}
	log("listening on " + me_->ip + ":" + std::to_string(cfg_.port) + " (" + dev_name_ + ")");
	coord_.listening();

	struct sigaction sa {
	};
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, nullptr);
	sigaction(SIGTERM, &sa, nullptr);
	std::signal(SIGPIPE, SIG_IGN);

	std::int64_t deadline_rel = 0;
	for (const auto &f : cfg_.schedule->flows)
		deadline_rel = std::max<std::int64_t>(
			deadline_rel,
			static_cast<std::int64_t>(f.start_ns + f.duration_ns.value_or(0)));
	deadline_rel = cfg_.deadline_ns ? static_cast<std::int64_t>(*cfg_.deadline_ns)
	                                : deadline_rel + 120000000000LL;

	for (;;) {
		std::int64_t now = mono_ns();
		if (g_signal && phase_ != Phase::kDone) {
			log("stopped by a signal");
			stop_all("interrupted");
		}
		if (auto st = coord_.stop_status(); st && phase_ != Phase::kDone) {
			log("stopped: " + *st);
			stop_all(*st);
		}
		if (phase_ == Phase::kDone)
			break;

		if (phase_ == Phase::kWaitGo && coord_.may_connect()) {
			phase_ = Phase::kConnecting;
			connect_deadline_ =
				now + static_cast<std::int64_t>(cfg_.connect_timeout_ns);
			for (auto &fp : flows_)
				if (fp->driver)
					for (Conn &c : fp->conns)
						start_connect(c, now);
		}
		if (phase_ == Phase::kConnecting || phase_ == Phase::kWaitStart ||
		    phase_ == Phase::kRunning)
			for (auto &fp : flows_)
				if (fp->driver && fp->fail.empty())
					for (Conn &c : fp->conns)
						if (c.st == ConnState::kIdle && c.retry_at <= now)
							start_connect(c, now);
		if (phase_ == Phase::kConnecting && connect_phase_over(now)) {
			pace_flows();
			unsigned ok = 0, bad = 0;
			for (auto &fp : flows_)
				if (fp->driver)
					(fp->fail.empty() ? ok : bad)++;
			probe_retx();
			ready_at_ = now;
			log("ready: " + std::to_string(ok) + " flows connected, " +
			    std::to_string(bad) + " failed, set-up took " +
			    std::to_string((now - proc_start_) / 1000000) + " ms");
			phase_ = Phase::kWaitStart;
			coord_.ready(ok, bad);
		}
		if (phase_ == Phase::kWaitStart) {
			if (auto t0 = coord_.t0_mono()) {
				t0_ = *t0;
				t0_real_ = coord_.t0_real().value_or(0);
				deadline_abs_ = t0_ + deadline_rel;
				for (auto &fp : flows_)
					if (fp->driver) {
						fp->start_abs = t0_ + static_cast<std::int64_t>(
									      fp->spec->start_ns);
						starts_.push_back(fp.get());
					}
				std::stable_sort(starts_.begin(), starts_.end(),
				                 [](Flow *a, Flow *b) {
							 return a->start_abs < b->start_abs;
						 });
				getrusage(RUSAGE_SELF, &ru0_);
				if (t0_ < now)
					log("T0 is " + std::to_string((now - t0_) / 1000) +
					    " us in the past: the flows start late");
				phase_ = Phase::kRunning;
			}
		}
		if (phase_ == Phase::kRunning) {
			// flows due within spin: wait for them by reading the clock
			while (next_start_ < starts_.size() &&
			       starts_[next_start_]->start_abs - now <=
			               static_cast<std::int64_t>(cfg_.spin_ns)) {
				const std::int64_t due = starts_[next_start_]->start_abs;
				// the start before: this wait sleeps at least from
				// halfway between the two (startwait.h)
				const std::int64_t wake = sleep_until(
					due, next_start_ ? starts_[next_start_ - 1]->start_abs : -1,
					sleep_margin());
				// Until 3 ms before, handle events (completions of the
				// flows already running: their times, their next
				// messages), sleeping up to 1 ms for them until
				// sleep_margin() before (a wake-up can be ms late), or
				// halfway from the start before if that is later, and
				// yielding at every reading after that. A SCHED_FIFO process that
				// only read the clock kept its CPU from every ordinary
				// thread, rxe's workers and softirq threads among them,
				// for the whole --spin: the packets of its own flows
				// and of the other hosts on that CPU waited, and so did
				// its completions (the first of 40 flows 5 ms apart
				// took 194 ms). The last 3 ms leave out events (a round
				// of completions can take milliseconds) and the last
				// 1 ms the yields, which let other hosts' processes
				// waiting at the same priority run. `gap` is the longest
				// time between two readings, this process's own work
				// left out: when it did not run (its CPU was taken, or
				// the emulated CPU itself was not running). A yield can
				// take hundreds of us under emulation: the last
				// millisecond is spun.
				const std::int64_t spin0 = mono_ns();
				std::int64_t gap = 0;
				bool stop = false;
				for (std::int64_t t = spin0, prev = spin0; t < due;
				     prev = t, t = mono_ns()) {
					gap = std::max(gap, t - prev);
					if (t < wake) {
						// a 1 ms sleep far from the start
						if (!service(1) || phase_ == Phase::kDone) {
							stop = true;
							break;
						}
						const std::int64_t t1 = mono_ns();
						if (!service_events_)
							note_sleep_late(t1 - t - 1000000);
						t = t1;
					} else if (due - t > kSpinQuietNs) {
						if (!service(0) || phase_ == Phase::kDone) {
							stop = true;
							break;
						}
						t = mono_ns();
						sched_yield();
					} else if (due - t > kSpinTightNs) {
						sched_yield();
					}
				}
				if (stop)
					break;
				if (spin0 > due)
					arrived_late_++;
				spin_gaps_.push_back(gap);
				spin_total_ += std::max<std::int64_t>(0, due - spin0);
				// Several flows due by now start with one work request
				// each, then each gets the rest: flows that start
				// together then wait for one posting call of each flow
				// before them, not for all of its work requests. A flow
				// due alone gets them all in its first call.
				std::vector<Flow *> due_now, started;
				const std::int64_t ts = mono_ns();
				while (next_start_ < starts_.size() &&
				       starts_[next_start_]->start_abs <= ts)
					due_now.push_back(starts_[next_start_++]);
				const std::uint64_t first = due_now.size() > 1 ? 1 : UINT64_MAX;
				for (Flow *f : due_now)
					if (start_flow(*f, first))
						started.push_back(f);
				if (first != UINT64_MAX)
					for (Flow *f : started)
						post_more(*f, rel(mono_ns()));
				now = mono_ns();
				longest_.starts = std::max(longest_.starts, now - ts);
			}
			if (phase_ == Phase::kDone)
				break; // stopped while waiting for a start
			itimerspec its{};
			std::int64_t at = 0;
			if (next_start_ < starts_.size())
				at = starts_[next_start_]->start_abs -
				     static_cast<std::int64_t>(cfg_.spin_ns);
			if (at != timer_at_) {
				its.it_value.tv_sec = at / 1000000000;
				its.it_value.tv_nsec = at % 1000000000;
				timerfd_settime(tfd_, TFD_TIMER_ABSTIME, &its, nullptr);
				timer_at_ = at;
			}
			// flows that ended without a completion to tell (a failure)
			for (Flow *f : starts_) {
				if (!f->started)
					break;
				if (!f->finalized && !f->final_pending && f->prog->started() &&
				    f->prog->finished(rel(now)))
					f->final_pending = true;
			}
			// wrap-up work (netlink reads, disconnects) only away from a start
			const bool far = next_start_ >= starts_.size() ||
			                 starts_[next_start_]->start_abs - now > kFinalizeGapNs;
			if (far)
				for (auto &fp : flows_)
					if (fp->driver && fp->final_pending && !fp->finalized) {
						const std::int64_t t = mono_ns();
						finalize(*fp);
						longest_.finalize =
							std::max(longest_.finalize, mono_ns() - t);
						break; // one per round: the loop checks the clock again
					}
			if (now >= deadline_abs_) {
				log("deadline reached");
				stop_all("deadline");
				break;
			}
			if (next_start_ >= starts_.size() && all_done()) {
				phase_ = Phase::kDone;
				break;
			}
		}

		// busy poll: every CQ each round
		if (cfg_.busy_poll && phase_ == Phase::kRunning)
			for (auto &fp : flows_)
				if (fp->cq && !fp->dirty) {
					fp->dirty = true;
					dirty_.push_back(fp.get());
				}
		int timeout_ms = 100;
		if (!dirty_.empty() || cfg_.busy_poll)
			timeout_ms = 0;
		if (!service(timeout_ms))
			break;
	}
	return finish();
}

int Host::finish()
{
	rusage ru1{};
	getrusage(RUSAGE_SELF, &ru1);
	const std::int64_t end = mono_ns();
	auto tv_ns = [](const timeval &a, const timeval &b) {
		return (static_cast<std::int64_t>(b.tv_sec) - a.tv_sec) * 1000000000LL +
		       (static_cast<std::int64_t>(b.tv_usec) - a.tv_usec) * 1000LL;
	};
	HostOutput out;
	out.host = cfg_.host;
	bool all_ok = true;
	nlohmann::json fst = nlohmann::json::object(), rst = nlohmann::json::object();
	for (auto &fp : flows_) {
		Flow &f = *fp;
		if (f.driver) {
			if (!f.finalized && !f.prog->record().status.size())
				f.prog->finish(f.fail.empty() ? "not_started" : f.fail);
			out.driven.emplace_back(f.spec, f.prog.get());
			fst[f.spec->name] = f.prog->record().status;
			all_ok = all_ok && f.prog->record().status == "ok";
		} else if (f.spec->opt.verb == Verb::kSend) {
			if (f.rx.status.empty())
				f.rx.status = f.fail.empty() ? "ok" : f.fail;
			out.received.emplace_back(f.spec->name, f.rx);
			rst[f.spec->name] = f.rx.status;
			all_ok = all_ok && f.rx.status == "ok";
		} else if (!f.fail.empty()) {
			all_ok = false;
		}
	}
	char hash[32];
	std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(hash_));
	nlohmann::json &m = out.meta;
	m["host"] = cfg_.host;
	m["version"] = RXECC_TRAFFIC_VERSION;
	m["mode"] = cfg_.mode;
	m["schedule_hash"] = hash;
	m["device"] = dev_name_;
	m["ip"] = me_ ? me_->ip : "";
	m["t0_monotonic_ns"] = t0_ ? nlohmann::json(t0_) : nlohmann::json(nullptr);
	m["t0_realtime_ns"] = t0_real_ ? nlohmann::json(t0_real_) : nlohmann::json(nullptr);
	m["setup_ns"] =
		ready_at_ ? nlohmann::json(ready_at_ - proc_start_) : nlohmann::json(nullptr);
	m["settings"] = {{"bin_ns", cfg_.bin_ns},
	                 {"messages", cfg_.messages == MessageLog::kAll    ? "all"
	                              : cfg_.messages == MessageLog::kNone ? "none"
	                                                                   : "auto"},
	                 {"port", cfg_.port},
	                 {"connect_timeout_ns", cfg_.connect_timeout_ns},
	                 {"spin_ns", cfg_.spin_ns},
	                 {"poll", cfg_.busy_poll ? "busy" : "event"},
	                 {"rt_priority", cfg_.rt_priority},
	                 {"deadline_ns", deadline_abs_ ? nlohmann::json(deadline_abs_ - t0_)
	                                               : nlohmann::json(nullptr)}};
	if (t0_) {
		m["cpu"] = {{"user_ns", tv_ns(ru0_.ru_utime, ru1.ru_utime)},
		            {"sys_ns", tv_ns(ru0_.ru_stime, ru1.ru_stime)},
		            {"run_ns", end - std::max(t0_, ready_at_)}};
	} else {
		m["cpu"] = nullptr;
	}
	const StartErrors tl = start_errors(timer_late_);
	m["timer_wakeups"] = {
		{"count", tl.count},
		{"late_p50_ns", tl.count ? nlohmann::json(tl.p50) : nlohmann::json(nullptr)},
		{"late_p99_ns", tl.count ? nlohmann::json(tl.p99) : nlohmann::json(nullptr)},
		{"late_max_ns", tl.count ? nlohmann::json(tl.max) : nlohmann::json(nullptr)}};
	const StartErrors sg = start_errors(spin_gaps_);
	m["start_wait"] = {
		{"waits", sg.count},
		{"reached_late", arrived_late_},
		{"spin_total_ns", spin_total_},
		{"gap_p50_ns", sg.count ? nlohmann::json(sg.p50) : nlohmann::json(nullptr)},
		{"gap_p99_ns", sg.count ? nlohmann::json(sg.p99) : nlohmann::json(nullptr)},
		{"gap_max_ns", sg.count ? nlohmann::json(sg.max) : nlohmann::json(nullptr)}};
	m["longest_ns"] = {{"cm_events", longest_.cm},
	                   {"completions", longest_.completions},
	                   {"flow_ends", longest_.finalize},
	                   {"starts", longest_.starts}};
	m["flows"] = fst;
	m["rx"] = rst;
	std::string err;
	int rc = all_ok ? 0 : 1;
	if (!write_host_output(cfg_.out_dir, out, &err)) {
		log("cannot write the records: " + err);
		rc = 1;
	}
	teardown();
	coord_.done(rc);
	return rc;
}

void Host::teardown()
{
	for (auto &fp : flows_) {
		Flow &f = *fp;
		for (Conn &c : f.conns)
			destroy_conn(c);
		if (f.cq) {
			if (f.cq_unacked)
				ibv_ack_cq_events(f.cq, f.cq_unacked);
			f.cq_unacked = 0;
			ibv_destroy_cq(f.cq);
			f.cq = nullptr;
		}
		if (f.mr) {
			ibv_dereg_mr(f.mr);
			f.mr = nullptr;
		}
		std::free(f.buf);
		f.buf = nullptr;
	}
	if (pd_) {
		ibv_dealloc_pd(pd_);
		pd_ = nullptr;
	}
	if (comp_) {
		ibv_destroy_comp_channel(comp_);
		comp_ = nullptr;
	}
	if (listener_) {
		rdma_destroy_id(listener_);
		listener_ = nullptr;
	}
	if (ch_) {
		rdma_destroy_event_channel(ch_);
		ch_ = nullptr;
	}
	if (tfd_ >= 0)
		close(tfd_);
	if (epfd_ >= 0)
		close(epfd_);
	tfd_ = epfd_ = -1;
}

} // namespace

int run_host(const HostConfig &cfg, Coordinator &coord)
{
	Host h(cfg, coord);
	return h.run();
}

} // namespace rxecc::traffic
