// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "nl_transport.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <rdma/rxe_cc.h>
#include <sys/socket.h>
#include <time.h>

#include "nlattr.h"

namespace rxecc
{

namespace
{

// State of one request while libnl runs the callbacks.
struct Exchange {
	std::vector<GenlMsg> *replies = nullptr;
	Status status;
	bool done = false;
};

void collect(struct nl_msg *msg, std::vector<GenlMsg> &out)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return;
	auto *gh = static_cast<struct genlmsghdr *>(nlmsg_data(nlh));
	const auto *attrs = reinterpret_cast<const std::uint8_t *>(genlmsg_attrdata(gh, 0));
	int len = genlmsg_attrlen(gh, 0);
	GenlMsg m;
	m.cmd = gh->cmd;
	if (len > 0)
		m.attrs.assign(attrs, attrs + len);
	out.push_back(std::move(m));
}

int on_valid(struct nl_msg *msg, void *arg)
{
	auto *x = static_cast<Exchange *>(arg);
	collect(msg, *x->replies);
	return NL_OK;
}

// NLMSG_ERROR with error 0: the request succeeded. Its extended ACK, if
// any, is a warning (a legal but doubtful setting); libnl passes the whole
// message, the TLVs included.
int on_ack(struct nl_msg *msg, void *arg)
{
	auto *x = static_cast<Exchange *>(arg);
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	x->status.extack = extack_message(nlh, nlh->nlmsg_len);
	x->done = true;
	return NL_STOP;
}

// NLMSG_DONE: the end of a dump, possibly with an error code and message
// (or, without an error, a warning).
int on_finish(struct nl_msg *msg, void *arg)
{
	auto *x = static_cast<Exchange *>(arg);
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	if (nlmsg_datalen(nlh) >= static_cast<int>(sizeof(int))) {
		int err;
		std::memcpy(&err, nlmsg_data(nlh), sizeof(err));
		std::string ext = extack_message(nlh, nlh->nlmsg_len);
		if (err < 0)
			x->status = Status::kernel(-err, std::move(ext));
		else
			x->status.extack = std::move(ext);
	}
	x->done = true;
	return NL_STOP;
}

int on_error(struct sockaddr_nl *, struct nlmsgerr *err, void *arg)
{
	auto *x = static_cast<Exchange *>(arg);
	// libnl passes the payload of the NLMSG_ERROR message.
	const auto *nlh = reinterpret_cast<const struct nlmsghdr *>(
		reinterpret_cast<const char *>(err) - NLMSG_HDRLEN);
	x->status = Status::kernel(err->error < 0 ? -err->error : err->error,
	                           extack_message(nlh, nlh->nlmsg_len));
	x->done = true;
	return NL_STOP;
}

void set_flag(struct nl_sock *sk, int opt)
{
	int one = 1;
	// Best effort: an old kernel without extended ACKs still works.
	(void)setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, opt, &one, sizeof(one));
}

Status nl_failure(const std::string &what, int nlerr)
{
	Status s = Status::system(EIO, what + ": " + nl_geterror(nlerr));
	return s;
}

struct CbDeleter {
	void operator()(struct nl_cb *cb) const { nl_cb_put(cb); }
};

struct MsgDeleter {
	void operator()(struct nl_msg *m) const { nlmsg_free(m); }
};

} // namespace

std::string extack_message(const struct nlmsghdr *nlh, std::size_t len)
{
	if (len < NLMSG_HDRLEN || len < nlh->nlmsg_len || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return {};
	const auto *base = reinterpret_cast<const std::uint8_t *>(nlh);
	std::size_t payload = nlh->nlmsg_len - NLMSG_HDRLEN;
	std::size_t skip;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		if (payload < sizeof(struct nlmsgerr))
			return {};
		struct nlmsgerr e;
		std::memcpy(&e, base + NLMSG_HDRLEN, sizeof(e));
		skip = sizeof(e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (e.msg.nlmsg_len < NLMSG_HDRLEN)
				return {};
			skip += e.msg.nlmsg_len - NLMSG_HDRLEN;
		}
	} else if (nlh->nlmsg_type == NLMSG_DONE) {
		skip = sizeof(int);
	} else {
		return {};
	}
	skip = NLMSG_ALIGN(skip);
	if (skip > payload)
		return {};
	std::vector<nl::Attr> attrs;
	if (!nl::parse_attrs(base + NLMSG_HDRLEN + skip, payload - skip, attrs))
		return {};
	for (const nl::Attr &a : attrs)
		if (a.type == NLMSGERR_ATTR_MSG)
			return a.as_string();
	return {};
}

Status NlTransport::open(const std::string &family, std::uint8_t version,
                         std::function<bool()> stop, std::unique_ptr<NlTransport> &out)
{
	std::unique_ptr<NlTransport> t(new NlTransport());
	t->family_ = family;
	t->version_ = version;
	t->stop_ = std::move(stop);
	t->sk_ = nl_socket_alloc();
	if (!t->sk_)
		return Status::system(ENOMEM, "netlink socket");
	int err = genl_connect(t->sk_);
	if (err < 0)
		return nl_failure("generic netlink socket", err);
	nl_socket_disable_auto_ack(t->sk_);
	nl_socket_enable_msg_peek(t->sk_);
	set_flag(t->sk_, NETLINK_EXT_ACK);
	set_flag(t->sk_, NETLINK_CAP_ACK);
	int id = genl_ctrl_resolve(t->sk_, family.c_str());
	if (id == -NLE_OBJ_NOTFOUND) {
		Status s;
		s.kind = Status::kNoFamily;
		s.err = ENOENT;
		s.detail = family;
		return s;
	}
	if (id < 0)
		return nl_failure("resolve generic netlink family " + family, id);
	t->family_id_ = id;
	out = std::move(t);
	return Status();
}

NlTransport::~NlTransport()
{
	if (ev_)
		nl_socket_free(ev_);
	if (sk_)
		nl_socket_free(sk_);
}

Status NlTransport::request(const GenlMsg &req, bool dump, std::vector<GenlMsg> &replies)
{
	std::unique_ptr<struct nl_msg, MsgDeleter> msg(nlmsg_alloc());
	if (!msg)
		return Status::system(ENOMEM, "netlink message");
	int flags = dump ? NLM_F_DUMP : NLM_F_ACK;
	if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_id_, 0, flags, req.cmd,
	                 version_))
		return Status::system(ENOMEM, "netlink message");
	if (!req.attrs.empty() &&
	    nlmsg_append(msg.get(), const_cast<std::uint8_t *>(req.attrs.data()), req.attrs.size(),
	                 NLMSG_ALIGNTO) < 0)
		return Status::system(EMSGSIZE, "netlink message");
	int err = nl_send_auto(sk_, msg.get());
	if (err < 0)
		return nl_failure("send", err);

	std::unique_ptr<struct nl_cb, CbDeleter> cb(nl_cb_alloc(NL_CB_DEFAULT));
	if (!cb)
		return Status::system(ENOMEM, "netlink callbacks");
	Exchange x;
	x.replies = &replies;
	nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &x);
	nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &x);
	nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &x);
	nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &x);
	while (!x.done) {
		err = nl_recvmsgs(sk_, cb.get());
		if (x.done)
			break;
		if (err < 0)
			return nl_failure("receive", err);
		// A do request whose reply came without an ACK: libnl stopped
		// after the message, keep reading until the ACK.
	}
	return x.status;
}

Status NlTransport::subscribe(const std::string &group)
{
	int grp = genl_ctrl_resolve_grp(sk_, family_.c_str(), group.c_str());
	if (grp < 0)
		return Status::malformed("the " + family_ + " family has no multicast group '" +
		                         group + "'");
	if (!ev_) {
		ev_ = nl_socket_alloc();
		if (!ev_)
			return Status::system(ENOMEM, "netlink socket");
		int err = genl_connect(ev_);
		if (err < 0)
			return nl_failure("generic netlink socket", err);
		nl_socket_disable_seq_check(ev_);
		nl_socket_enable_msg_peek(ev_);
		nl_socket_set_nonblocking(ev_);
	}
	int err = nl_socket_add_membership(ev_, grp);
	if (err < 0)
		return nl_failure("join multicast group " + group, err);
	return Status();
}

Status NlTransport::subscribe_events()
{
	return subscribe(RXE_CC_MCGRP_EVENTS);
}

namespace
{
int accept_any_seq(struct nl_msg *, void *)
{
	return NL_OK;
}
} // namespace

Status NlTransport::wait_events(std::uint64_t timeout_ns, std::vector<GenlMsg> &events)
{
	if (!ev_)
		return Status::system(EINVAL, "not subscribed to events");
	struct pollfd pfd = {nl_socket_get_fd(ev_), POLLIN, 0};
	struct timespec ts;
	ts.tv_sec = static_cast<time_t>(timeout_ns / 1000000000ULL);
	ts.tv_nsec = static_cast<long>(timeout_ns % 1000000000ULL);
	int n = ppoll(&pfd, 1, &ts, nullptr);
	if (n < 0) {
		if (errno == EINTR)
			return stop_ && stop_() ? Status::interrupted() : Status();
		return Status::system(errno, "poll");
	}
	if (n == 0)
		return Status();
	std::unique_ptr<struct nl_cb, CbDeleter> cb(nl_cb_alloc(NL_CB_DEFAULT));
	if (!cb)
		return Status::system(ENOMEM, "netlink callbacks");
	Exchange x;
	x.replies = &events;
	nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &x);
	// Multicast messages carry sequence number 0: this callback set, not
	// only the socket's own, must skip the sequence check.
	nl_cb_set(cb.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, accept_any_seq, nullptr);
	for (;;) {
		int err = nl_recvmsgs(ev_, cb.get());
		if (err == -NLE_AGAIN)
			break;
		// An overrun (ENOBUFS) loses events but not the stream: polling
		// still reports every QP.
		if (err < 0 && err != -NLE_NOMEM)
			return nl_failure("receive events", err);
	}
	return Status();
}

} // namespace rxecc
