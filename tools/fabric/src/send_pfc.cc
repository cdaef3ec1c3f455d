// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "send_pfc.h"

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "args.h"
#include "netif.h"
#include "pfc_frame.h"
#include "port_io.h"
#include "topology.h"
#include "units.h"

namespace rxecc::fabric::proc
{

bool parse_send_pfc(const std::vector<std::string> &args, SendPfcOptions &opts, std::string &err)
{
	opts = SendPfcOptions{};
	bool prio_given = false;
	OptionCursor cur(args, 0, "send-pfc");
	while (cur.next()) {
		const std::string &a = cur.name();
		const std::string &val = cur.val();
		const bool has_val = cur.has_value();
		auto value = [&]() -> bool { return cur.value(err); };
		if (a == "--prio") {
			if (!value())
				return false;
			auto m = parse_prio_list(val);
			if (!m) {
				err = "send-pfc: bad --prio '" + val + "' (e.g. 3, 3,4 or *)";
				return false;
			}
			opts.prio_mask = *m;
			prio_given = true;
		} else if (a == "--quanta") {
			if (!value())
				return false;
			auto q = parse_uint(val, 0xffff);
			if (!q) {
				err = "send-pfc: bad --quanta '" + val + "' (0..65535)";
				return false;
			}
			opts.quanta = static_cast<uint16_t>(*q);
		} else if (a == "--count") {
			if (!value())
				return false;
			auto c = parse_uint(val, kMaxPfcCount);
			if (!c || *c == 0) {
				err = "send-pfc: bad --count '" + val + "' (1.." +
				      std::to_string(kMaxPfcCount) + ")";
				return false;
			}
			opts.count = *c;
		} else if (a == "--interval") {
			if (!value())
				return false;
			auto t = units::parse_time_ns(val, &err);
			if (!t) {
				err = "send-pfc: bad --interval: " + err;
				return false;
			}
			if (*t == 0 || *t > kMaxPfcIntervalNs) {
				err = "send-pfc: bad --interval '" + val +
				      "' (a time such as 200ms, at most 60s)";
				return false;
			}
			opts.interval_ns = *t;
		} else if (a == "--src") {
			if (!value())
				return false;
			auto m = parse_mac(val);
			if (!m) {
				err = "send-pfc: bad --src '" + val + "' (e.g. 02:00:00:00:00:fe)";
				return false;
			}
			opts.src = *m;
		} else if (a == "--legacy") {
			if (has_val) {
				err = "send-pfc: --legacy takes no value";
				return false;
			}
			opts.legacy = true;
		} else if (!a.empty() && a[0] == '-') {
			err = "send-pfc: unknown option '" + a + "'";
			return false;
		} else if (opts.ifname.empty()) {
			if (!valid_ifname(a)) {
				err = "send-pfc: bad interface name '" + a + "'";
				return false;
			}
			opts.ifname = a;
		} else {
			err = "send-pfc: unexpected argument '" + a + "'";
			return false;
		}
	}
	if (opts.ifname.empty()) {
		err = "send-pfc: missing IFNAME";
		return false;
	}
	if (opts.legacy && prio_given) {
		err = "send-pfc: --prio does not apply to --legacy (802.3x PAUSE stops all "
		      "priorities)";
		return false;
	}
	return true;
}

std::vector<uint8_t> send_pfc_frame(const SendPfcOptions &opts, const Mac &src)
{
	if (opts.legacy)
		return make_legacy_pause(src, opts.quanta);
	return make_pfc(src, opts.prio_mask, opts.quanta);
}

int run_send_pfc(const SendPfcOptions &opts)
{
	std::string err;
	int ifindex = interface_index(opts.ifname, err);
	if (ifindex <= 0) {
		std::fprintf(stderr, "rxecc-fabric: send-pfc: %s\n", err.c_str());
		return 1;
	}
	Mac src{};
	if (opts.src) {
		src = *opts.src;
	} else if (!interface_mac(opts.ifname, src, err)) {
		std::fprintf(stderr, "rxecc-fabric: send-pfc: %s\n", err.c_str());
		return 1;
	}
	// Protocol 0: this socket only sends.
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		std::fprintf(stderr, "rxecc-fabric: send-pfc: AF_PACKET socket: %s%s\n",
		             std::strerror(errno), errno == EPERM ? " (needs CAP_NET_RAW)" : "");
		return 1;
	}
	sockaddr_ll sll{};
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(kEthTypeMacControl);
	sll.sll_ifindex = ifindex;
	sll.sll_halen = 6;
	std::memcpy(sll.sll_addr, kPfcDestMac.data(), 6);
	std::vector<uint8_t> frame = send_pfc_frame(opts, src);
	// frame n leaves at start + n * interval (absolute times: a late
	// wake-up does not delay the frames after it)
	const uint64_t start = mono_ns();
	for (uint64_t n = 0; n < opts.count; n++) {
		if (opts.interval_ns && n) {
			const uint64_t at = start + n * opts.interval_ns;
			timespec ts{};
			ts.tv_sec = static_cast<time_t>(at / 1000000000ULL);
			ts.tv_nsec = static_cast<long>(at % 1000000000ULL);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) ==
			       EINTR) {
			}
		}
		ssize_t r = sendto(fd, frame.data(), frame.size(), 0,
		                   reinterpret_cast<const sockaddr *>(&sll), sizeof(sll));
		if (r < 0 && errno == ENOBUFS) {
			usleep(100);
			n--;
			continue;
		}
		if (r != static_cast<ssize_t>(frame.size())) {
			std::fprintf(stderr, "rxecc-fabric: send-pfc: send on %s: %s\n",
			             opts.ifname.c_str(),
			             r < 0 ? std::strerror(errno) : "short write");
			close(fd);
			return 1;
		}
		if (opts.interval_ns) {
			const uint64_t now = real_ns();
			std::printf("frame %llu %llu.%06llu\n",
			            static_cast<unsigned long long>(n + 1),
			            static_cast<unsigned long long>(now / 1000000000ULL),
			            static_cast<unsigned long long>(now % 1000000000ULL / 1000));
			std::fflush(stdout);
		}
	}
	close(fd);
	return 0;
}

} // namespace rxecc::fabric::proc
