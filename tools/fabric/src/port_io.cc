// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "port_io.h"

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "checksum.h"
#include "netif.h"

namespace rxecc::fabric::proc
{

uint64_t mono_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t real_ns()
{
	timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

void stream_encode(const uint8_t *data, size_t len, std::string &out)
{
	auto n = static_cast<uint32_t>(len);
	char h[4] = {static_cast<char>(n >> 24), static_cast<char>(n >> 16),
	             static_cast<char>(n >> 8), static_cast<char>(n)};
	out.append(h, 4);
	out.append(reinterpret_cast<const char *>(data), len);
}

bool stream_decode(std::string &buf, std::vector<std::vector<uint8_t>> &frames)
{
	size_t pos = 0;
	bool ok = true;
	while (buf.size() - pos >= 4) {
		auto b = [&](size_t i) {
			return static_cast<uint32_t>(static_cast<uint8_t>(buf[pos + i]));
		};
		uint32_t n = b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
		if (n == 0 || n > kMaxFrameBytes) {
			ok = false;
			break;
		}
		if (buf.size() - pos - 4 < n)
			break;
		const auto *d = reinterpret_cast<const uint8_t *>(buf.data() + pos + 4);
		frames.emplace_back(d, d + n);
		pos += 4 + n;
	}
	buf.erase(0, pos);
	return ok;
}

bool if_rx_oversize(uint32_t tp_len, uint32_t tp_snaplen, size_t max_len)
{
	return tp_snaplen < tp_len || tp_len > max_len || tp_len > kMaxFrameBytes;
}

unsigned if_ring_frame(size_t max_len)
{
	// the frame's header, its sockaddr_ll and the alignment of the network
	// header come before the data: 128 bytes are plenty
	size_t need = max_len + 128;
	unsigned f = 2048;
	while (f < need && f < (1u << 16))
		f <<= 1;
	return f;
}

size_t if_max_frame(unsigned mtu)
{
	size_t m = static_cast<size_t>(mtu) + kEthHeaderBytes + 8;
	return m < kMaxFrameBytes ? m : kMaxFrameBytes;
}

std::string oversize_warning(const std::string &ifname, size_t len, size_t max_len)
{
	return "rxecc-fabric: warning: if:" + ifname + " dropped a frame of " +
	       std::to_string(len) + " bytes (the port carries " + std::to_string(max_len) +
	       "): segmentation offload is on; run 'ethtool -K " + ifname +
	       " gso off tso off gro off' and the same on the interface sending to it\n";
}

namespace
{

bool epoll_add(int epfd, int fd, uint32_t events, uint64_t tag, std::string &err)
{
	epoll_event ev{};
	ev.events = events;
	ev.data.u64 = tag | static_cast<uint32_t>(fd);
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		err = std::string("epoll: ") + std::strerror(errno);
		return false;
	}
	return true;
}

void epoll_mod(int epfd, int fd, uint32_t events, uint64_t tag)
{
	epoll_event ev{};
	ev.events = events;
	ev.data.u64 = tag | static_cast<uint32_t>(fd);
	epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
}

socklen_t to_sockaddr(const InetAddr &a, sockaddr_storage &ss)
{
	ss = sockaddr_storage{};
	if (a.v6) {
		auto *s6 = reinterpret_cast<sockaddr_in6 *>(&ss);
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(a.port);
		std::memcpy(&s6->sin6_addr, a.addr.data(), 16);
		return sizeof(sockaddr_in6);
	}
	auto *s4 = reinterpret_cast<sockaddr_in *>(&ss);
	s4->sin_family = AF_INET;
	s4->sin_port = htons(a.port);
	std::memcpy(&s4->sin_addr, a.addr.data(), 4);
	return sizeof(sockaddr_in);
}

bool same_sockaddr(const sockaddr_storage &a, const sockaddr_storage &b)
{
	if (a.ss_family != b.ss_family)
		return false;
	if (a.ss_family == AF_INET) {
		const auto *x = reinterpret_cast<const sockaddr_in *>(&a);
		const auto *y = reinterpret_cast<const sockaddr_in *>(&b);
		return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
	const auto *x = reinterpret_cast<const sockaddr_in6 *>(&a);
	const auto *y = reinterpret_cast<const sockaddr_in6 *>(&b);
	return x->sin6_port == y->sin6_port && std::memcmp(&x->sin6_addr, &y->sin6_addr, 16) == 0;
}

// Removes a stale socket file at path before a bind; false (with err) if
// something other than a socket is there.
bool remove_stale_socket(const std::string &path, std::string &err)
{
	struct stat st;
	if (lstat(path.c_str(), &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			err = path + " exists and is not a socket";
			return false;
		}
		unlink(path.c_str());
	}
	return true;
}

// ---- dgram: ----------------------------------------------------------------

socklen_t to_sockaddr_un(const std::string &path, sockaddr_storage &ss)
{
	ss = sockaddr_storage{};
	auto *su = reinterpret_cast<sockaddr_un *>(&ss);
	su->sun_family = AF_UNIX;
	std::memcpy(su->sun_path, path.data(), path.size()); // parse: <= kMaxUnixPath
	return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size() + 1);
}

bool same_sockaddr_un(const sockaddr_storage &a, socklen_t alen, const std::string &path)
{
	if (a.ss_family != AF_UNIX || alen <= offsetof(sockaddr_un, sun_path))
		return false;
	const auto *su = reinterpret_cast<const sockaddr_un *>(&a);
	size_t n = alen - offsetof(sockaddr_un, sun_path);
	return strnlen(su->sun_path, n) == path.size() &&
	       std::memcmp(su->sun_path, path.data(), path.size()) == 0;
}

// UDP, or a unix datagram socket.  A unix receiver whose queue is full
// makes the sender wait (EAGAIN) instead of dropping: towards QEMU the
// fabric holds the frame and retries (Tx::kBusy), and QEMU holds a frame
// for the fabric in its queue and stops reading the guest's NIC.  The
// port connects to QEMU's socket, so that the kernel's datagram queue
// limit (net.unix.max_dgram_qlen, 10 by default) does not apply to frames
// from it: those are limited by QEMU's send buffer instead.
class DgramPort : public PortIo
{
public:
	explicit DgramPort(const AttachSpec &s) : spec_(s), unix_(s.kind == AttachKind::kUnixDgram)
	{
	}
	~DgramPort() override
	{
		if (fd_ >= 0) {
			close(fd_);
			if (unix_)
				unlink(spec_.path.c_str());
		}
	}

	bool open(int epfd, uint64_t tag, std::string &err) override
	{
		sockaddr_storage local;
		socklen_t ll;
		int family;
		if (unix_) {
			if (!remove_stale_socket(spec_.path, err))
				return false;
			ll = to_sockaddr_un(spec_.path, local);
			rl_ = to_sockaddr_un(spec_.remote_path, remote_);
			family = AF_UNIX;
		} else {
			ll = to_sockaddr(spec_.local, local);
			rl_ = to_sockaddr(spec_.remote, remote_);
			family = spec_.local.v6 ? AF_INET6 : AF_INET;
		}
		int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			err = std::string("socket: ") + std::strerror(errno);
			return false;
		}
		int sz = 4 << 20;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
		if (bind(fd, reinterpret_cast<const sockaddr *>(&local), ll) < 0) {
			err = "bind " + (unix_ ? spec_.path : spec_.local.to_string()) + ": " +
			      std::strerror(errno);
			close(fd);
			return false;
		}
		fd_ = fd;
		for (auto &b : bufs_)
			b.resize(kMaxFrameBytes + 1);
		try_connect();
		return epoll_add(epfd, fd_, EPOLLIN, tag, err);
	}

	size_t on_event(int, uint32_t, size_t budget, const RxFn &rx) override
	{
		size_t done = 0;
		while (done < budget) {
			mmsghdr msgs[kBatch];
			iovec iov[kBatch];
			sockaddr_storage from[kBatch];
			size_t want = budget - done < kBatch ? budget - done : kBatch;
			for (size_t i = 0; i < want; i++) {
				iov[i] = {bufs_[i].data(), bufs_[i].size()};
				msgs[i] = mmsghdr{};
				msgs[i].msg_hdr.msg_iov = &iov[i];
				msgs[i].msg_hdr.msg_iovlen = 1;
				msgs[i].msg_hdr.msg_name = &from[i];
				msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
			}
			int n = recvmmsg(fd_, msgs, static_cast<unsigned>(want), MSG_DONTWAIT,
			                 nullptr);
			if (n <= 0)
				break;
			uint64_t t = mono_ns();
			for (size_t i = 0; i < static_cast<size_t>(n); i++) {
				size_t len = msgs[i].msg_len;
				bool from_remote =
					unix_ ? same_sockaddr_un(from[i],
				                                 msgs[i].msg_hdr.msg_namelen,
				                                 spec_.remote_path)
					      : same_sockaddr(from[i], remote_);
				if ((msgs[i].msg_hdr.msg_flags & MSG_TRUNC) ||
				    len > kMaxFrameBytes || len == 0 || !from_remote) {
					stats_.rx_errors++;
					continue;
				}
				stats_.rx_frames++;
				rx(bufs_[i].data(), len, t);
			}
			done += static_cast<size_t>(n);
			if (static_cast<size_t>(n) < want)
				break;
		}
		return done;
	}

	Tx send(const uint8_t *data, size_t len) override
	{
		for (int attempt = 0; attempt < 2; attempt++) {
			if (unix_ && !connected_)
				try_connect();
			ssize_t n;
			if (connected_)
				n = ::send(fd_, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
			else
				n = sendto(fd_, data, len, MSG_DONTWAIT | MSG_NOSIGNAL,
				           reinterpret_cast<const sockaddr *>(&remote_), rl_);
			if (n == static_cast<ssize_t>(len)) {
				stats_.tx_frames++;
				return Tx::kSent;
			}
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS))
				return Tx::kBusy;
			// The unix peer went away (QEMU restarted): connect to the
			// socket now at its path and send there.
			if (n < 0 && connected_ && (errno == ECONNREFUSED || errno == ENOTCONN)) {
				connected_ = false;
				continue;
			}
			break;
		}
		stats_.tx_dropped++;
		return Tx::kDropped;
	}

	int poll_fd() const override { return fd_; }

private:
	static constexpr size_t kBatch = 32;

	void try_connect()
	{
		if (!unix_)
			return;
		connected_ = connect(fd_, reinterpret_cast<const sockaddr *>(&remote_), rl_) == 0;
	}

	AttachSpec spec_;
	bool unix_;
	bool connected_ = false;
	sockaddr_storage remote_{};
	socklen_t rl_ = 0;
	int fd_ = -1;
	std::vector<uint8_t> bufs_[kBatch];
};

// ---- stream: ---------------------------------------------------------------

class StreamPort : public PortIo
{
public:
	explicit StreamPort(const AttachSpec &s) : spec_(s) {}
	~StreamPort() override
	{
		if (conn_ >= 0)
			close(conn_);
		if (lfd_ >= 0) {
			close(lfd_);
			unlink(spec_.path.c_str());
		}
	}

	bool open(int epfd, uint64_t tag, std::string &err) override
	{
		epfd_ = epfd;
		tag_ = tag;
		sockaddr_un sa{};
		sa.sun_family = AF_UNIX;
		std::memcpy(sa.sun_path, spec_.path.c_str(), spec_.path.size());
		if (!remove_stale_socket(spec_.path, err))
			return false;
		lfd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (lfd_ < 0) {
			err = std::string("socket: ") + std::strerror(errno);
			return false;
		}
		if (bind(lfd_, reinterpret_cast<const sockaddr *>(&sa), sizeof(sa)) < 0 ||
		    listen(lfd_, 4) < 0) {
			err = "listen on " + spec_.path + ": " + std::strerror(errno);
			close(lfd_);
			lfd_ = -1;
			return false;
		}
		return epoll_add(epfd, lfd_, EPOLLIN, tag, err);
	}

	size_t on_event(int fd, uint32_t events, size_t budget, const RxFn &rx) override
	{
		if (fd == lfd_) {
			int c = accept4(lfd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
			if (c < 0)
				return 0;
			// A new client (QEMU restarted) replaces the old one.
			drop_conn();
			std::string err;
			if (!epoll_add(epfd_, c, EPOLLIN | EPOLLRDHUP, tag_, err)) {
				close(c);
				return 0;
			}
			int sz = 4 << 20;
			setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
			conn_ = c;
			stats_.connects++;
			return 0;
		}
		if (fd != conn_)
			return 0;
		if (events & EPOLLOUT)
			flush();
		if (conn_ < 0)
			return 0;
		bool eof = (events & (EPOLLHUP | EPOLLERR)) != 0;
		size_t done = 0;
		char buf[65536];
		while (done < budget) {
			ssize_t n = recv(conn_, buf, sizeof(buf), MSG_DONTWAIT);
			if (n > 0) {
				in_.append(buf, static_cast<size_t>(n));
				std::vector<std::vector<uint8_t>> frames;
				bool ok = stream_decode(in_, frames);
				uint64_t t = mono_ns();
				for (auto &f : frames) {
					stats_.rx_frames++;
					rx(f.data(), f.size(), t);
				}
				done += frames.size();
				if (!ok) {
					stats_.rx_errors++;
					eof = true;
					break;
				}
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
				eof = true;
			break;
		}
		if (eof)
			drop_conn();
		return done;
	}

	Tx send(const uint8_t *data, size_t len) override
	{
		if (conn_ < 0 || out_.size() - sent_ > kMaxOut) {
			stats_.tx_dropped++;
			return Tx::kDropped;
		}
		stream_encode(data, len, out_);
		stats_.tx_frames++;
		return Tx::kSent;
	}

	void flush() override
	{
		if (conn_ < 0)
			return;
		while (sent_ < out_.size()) {
			ssize_t n = ::send(conn_, out_.data() + sent_, out_.size() - sent_,
			                   MSG_DONTWAIT | MSG_NOSIGNAL);
			if (n > 0) {
				sent_ += static_cast<size_t>(n);
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
				if (!want_out_) {
					epoll_mod(epfd_, conn_, EPOLLIN | EPOLLRDHUP | EPOLLOUT,
					          tag_);
					want_out_ = true;
				}
				return;
			}
			drop_conn();
			return;
		}
		out_.clear();
		sent_ = 0;
		if (want_out_) {
			epoll_mod(epfd_, conn_, EPOLLIN | EPOLLRDHUP, tag_);
			want_out_ = false;
		}
	}

	int poll_fd() const override { return lfd_; }

private:
	static constexpr size_t kMaxOut = 4u << 20;

	void drop_conn()
	{
		if (conn_ < 0)
			return;
		epoll_ctl(epfd_, EPOLL_CTL_DEL, conn_, nullptr);
		close(conn_);
		conn_ = -1;
		in_.clear();
		out_.clear();
		sent_ = 0;
		want_out_ = false;
	}

	AttachSpec spec_;
	int epfd_ = -1;
	uint64_t tag_ = 0;
	int lfd_ = -1;
	int conn_ = -1;
	std::string in_, out_;
	size_t sent_ = 0;
	bool want_out_ = false;
};

// ---- if: -------------------------------------------------------------------

class IfPort : public PortIo
{
public:
	explicit IfPort(const AttachSpec &s) : spec_(s) {}
	~IfPort() override
	{
		if (ring_ != nullptr)
			munmap(ring_, ring_bytes_);
		if (fd_ >= 0)
			close(fd_);
	}

	bool open(int epfd, uint64_t tag, std::string &err) override
	{
		int ifindex = interface_index(spec_.ifname, err);
		if (ifindex <= 0)
			return false;
		fd_ = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
		if (fd_ < 0) {
			err = std::string("AF_PACKET socket: ") + std::strerror(errno) +
			      (errno == EPERM ? " (needs CAP_NET_RAW)" : "");
			return false;
		}
		int v = TPACKET_V2;
		if (setsockopt(fd_, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) < 0)
			return fail(err, "PACKET_VERSION");
		int one = 1;
		// Frames this socket (or anything else) sends out of the
		// interface are not input of the switch.
		setsockopt(fd_, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
		unsigned mtu = interface_mtu(spec_.ifname, err);
		if (mtu == 0)
			return false;
		max_len_ = if_max_frame(mtu);
		// Ring frames hold the longest frame of the MTU at start (a
		// longer one arrives cut short and counts as oversize).
		frame_ = if_ring_frame(max_len_);
		tpacket_req req{};
		req.tp_block_size = kBlock;
		req.tp_frame_size = frame_;
		req.tp_block_nr = kRxBlocks;
		req.tp_frame_nr = kRxBlocks * (kBlock / frame_);
		if (setsockopt(fd_, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) < 0)
			return fail(err, "PACKET_RX_RING");
		rx_frames_ = req.tp_frame_nr;
		req.tp_block_nr = kTxBlocks;
		req.tp_frame_nr = kTxBlocks * (kBlock / frame_);
		if (setsockopt(fd_, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) < 0)
			return fail(err, "PACKET_TX_RING");
		tx_frames_ = req.tp_frame_nr;
		ring_bytes_ = static_cast<size_t>(kBlock) * (kRxBlocks + kTxBlocks);
		void *m = mmap(nullptr, ring_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
		if (m == MAP_FAILED)
			return fail(err, "mmap of the rings");
		ring_ = static_cast<uint8_t *>(m);
		sockaddr_ll sll{};
		sll.sll_family = AF_PACKET;
		sll.sll_protocol = htons(ETH_P_ALL);
		sll.sll_ifindex = ifindex;
		if (bind(fd_, reinterpret_cast<const sockaddr *>(&sll), sizeof(sll)) < 0)
			return fail(err, "bind");
		packet_mreq mr{};
		mr.mr_ifindex = ifindex;
		mr.mr_type = PACKET_MR_PROMISC;
		if (setsockopt(fd_, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0)
			return fail(err, "promiscuous mode");
		// Clock offset for the ring's CLOCK_REALTIME timestamps.
		uint64_t m0 = mono_ns(), r0 = real_ns(), m1 = mono_ns();
		real_minus_mono_ = static_cast<int64_t>(r0) - static_cast<int64_t>(m0 / 2 + m1 / 2);
		return epoll_add(epfd, fd_, EPOLLIN, tag, err);
	}

	size_t on_event(int, uint32_t, size_t budget, const RxFn &rx) override
	{
		// A kernel timestamp ahead of the caller's clock is the caller's
		// to clamp (Runner::loop): reading the clock here would cost a
		// system call per wake-up.
		size_t done = 0;
		while (done < budget) {
			auto *h = reinterpret_cast<tpacket2_hdr *>(rx_frame(rx_idx_));
			if (!(__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
				break;
			const auto *sll = reinterpret_cast<const sockaddr_ll *>(
				reinterpret_cast<const uint8_t *>(h) + kHdrAligned);
			uint8_t *data = reinterpret_cast<uint8_t *>(h) + h->tp_mac;
			if (sll->sll_pkttype == PACKET_OUTGOING) {
				// ignored
			} else if (oversize(h->tp_len, h->tp_snaplen)) {
				stats_.rx_errors++;
				stats_.rx_oversize++;
				if (!warned_) {
					warned_ = true;
					std::fputs(
						oversize_warning(spec_.ifname, h->tp_len, max_len_)
							.c_str(),
						stderr);
				}
			} else if (h->tp_len < kEthHeaderBytes) {
				stats_.rx_errors++;
			} else {
				uint64_t ts = static_cast<uint64_t>(h->tp_sec) * 1000000000ull +
				              h->tp_nsec;
				uint64_t mono = static_cast<uint64_t>(static_cast<int64_t>(ts) -
				                                      real_minus_mono_);
				stats_.rx_frames++;
				// The ring frame is ours until it goes back to the
				// kernel: the checksum is completed in place.
				bool csum = (h->tp_status & TP_STATUS_CSUMNOTREADY) != 0;
				if (h->tp_status & TP_STATUS_VLAN_VALID) {
					// The kernel took the 802.1Q tag out; put it back.
					uint16_t tpid = (h->tp_status & TP_STATUS_VLAN_TPID_VALID)
					                        ? h->tp_vlan_tpid
					                        : 0x8100;
					tmp_.assign(data, data + 12);
					tmp_.push_back(static_cast<uint8_t>(tpid >> 8));
					tmp_.push_back(static_cast<uint8_t>(tpid));
					tmp_.push_back(static_cast<uint8_t>(h->tp_vlan_tci >> 8));
					tmp_.push_back(static_cast<uint8_t>(h->tp_vlan_tci));
					tmp_.insert(tmp_.end(), data + 12, data + h->tp_len);
					if (csum)
						complete_checksum(tmp_.data(), tmp_.size());
					rx(tmp_.data(), tmp_.size(), mono);
				} else {
					if (csum)
						complete_checksum(data, h->tp_len);
					rx(data, h->tp_len, mono);
				}
			}
			// the kernel marks frames while it has dropped some
			// since its counters were last read
			if (h->tp_status & TP_STATUS_LOSING)
				collect();
			__atomic_store_n(&h->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
			rx_idx_ = (rx_idx_ + 1) % rx_frames_;
			done++;
		}
		return done;
	}

	void collect() override
	{
		// reading the counters resets them
		tpacket_stats st{};
		socklen_t len = sizeof(st);
		if (fd_ >= 0 && getsockopt(fd_, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
			stats_.rx_lost += st.tp_drops;
	}

	bool rx_pending() const override
	{
		auto *h = reinterpret_cast<tpacket2_hdr *>(rx_frame(rx_idx_));
		return (__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER) != 0;
	}

	Tx send(const uint8_t *data, size_t len) override
	{
		if (len > frame_ - kHdrAligned) {
			stats_.tx_dropped++;
			return Tx::kDropped;
		}
		auto *h = reinterpret_cast<tpacket2_hdr *>(tx_frame(tx_idx_));
		uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
		if (st == TP_STATUS_WRONG_FORMAT) {
			stats_.tx_dropped++; // the kernel refused the previous frame here
		} else if (st != TP_STATUS_AVAILABLE) {
			flush();
			return Tx::kBusy;
		}
		uint8_t *dst = reinterpret_cast<uint8_t *>(h) + kHdrAligned;
		std::memcpy(dst, data, len);
		h->tp_len = static_cast<uint32_t>(len);
		__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
		tx_idx_ = (tx_idx_ + 1) % tx_frames_;
		queued_++;
		stats_.tx_frames++;
		return Tx::kSent;
	}

	void flush() override
	{
		if (queued_ == 0)
			return;
		if (::send(fd_, nullptr, 0, MSG_DONTWAIT) >= 0 || errno != EAGAIN)
			queued_ = 0;
	}

	int poll_fd() const override { return fd_; }

private:
	// TPACKET_ALIGN(sizeof(tpacket2_hdr)): where the sockaddr_ll of an RX
	// frame and the data of a TX frame start.
	static constexpr size_t kHdrAligned = (sizeof(tpacket2_hdr) + TPACKET_ALIGNMENT - 1) &
	                                      ~static_cast<size_t>(TPACKET_ALIGNMENT - 1);
	static constexpr unsigned kBlock = 1u << 16;
	// 16 MiB to receive (8192 frames at an MTU of 1500): the hosts'
	// senders may run ahead of the fabric by many QP windows (128
	// packets each), e.g. while they and the fabric share one CPU
	// (User-Mode Linux); 4 MiB to send.
	static constexpr unsigned kRxBlocks = 256;
	static constexpr unsigned kTxBlocks = 64;

	static constexpr uint64_t kMtuRecheckNs = 100000000; // 100 ms

	// Whether a frame is too long for the port.  A frame above the MTU
	// seen at open() makes the MTU be read again (at most every 100 ms):
	// it may have been raised since.
	bool oversize(uint32_t len, uint32_t snaplen)
	{
		if (!if_rx_oversize(len, snaplen, max_len_))
			return false;
		if (snaplen < len || len > kMaxFrameBytes)
			return true;
		uint64_t t = mono_ns();
		if (t - mtu_checked_ns_ >= kMtuRecheckNs) {
			mtu_checked_ns_ = t;
			std::string err;
			unsigned mtu = interface_mtu(spec_.ifname, err);
			if (mtu != 0)
				max_len_ = if_max_frame(mtu);
		}
		return if_rx_oversize(len, snaplen, max_len_);
	}

	void complete_checksum(uint8_t *frame, size_t len)
	{
		if (complete_l4_checksum(frame, len) == L4Checksum::kCompleted)
			stats_.rx_csum_fixed++;
		else
			stats_.rx_csum_unsupported++;
	}

	bool fail(std::string &err, const char *what)
	{
		err = std::string(what) + " on " + spec_.ifname + ": " + std::strerror(errno);
		return false;
	}
	uint8_t *rx_frame(unsigned i) const { return ring_ + static_cast<size_t>(i) * frame_; }
	uint8_t *tx_frame(unsigned i) const
	{
		return ring_ + static_cast<size_t>(kBlock) * kRxBlocks +
		       static_cast<size_t>(i) * frame_;
	}

	AttachSpec spec_;
	int fd_ = -1;
	uint8_t *ring_ = nullptr;
	size_t ring_bytes_ = 0;
	unsigned frame_ = 0;
	unsigned rx_frames_ = 0;
	unsigned tx_frames_ = 0;
	unsigned rx_idx_ = 0, tx_idx_ = 0;
	unsigned queued_ = 0;
	int64_t real_minus_mono_ = 0;
	std::vector<uint8_t> tmp_;
	size_t max_len_ = kMaxFrameBytes;
	uint64_t mtu_checked_ns_ = 0;
	bool warned_ = false;
};

} // namespace

std::unique_ptr<PortIo> make_port_io(const AttachSpec &spec)
{
	switch (spec.kind) {
	case AttachKind::kIf: return std::make_unique<IfPort>(spec);
	case AttachKind::kDgram:
	case AttachKind::kUnixDgram: return std::make_unique<DgramPort>(spec);
	case AttachKind::kStream: return std::make_unique<StreamPort>(spec);
	}
	return nullptr;
}

} // namespace rxecc::fabric::proc
