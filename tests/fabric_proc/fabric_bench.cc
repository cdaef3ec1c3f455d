// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// fabric_bench: maximum forwarding rate of the rxecc-fabric process on
// loopback dgram: ports.  Starts the process with a two-port switch whose
// links (400 Gbit/s, 1 us) are far faster than the process, then pushes
// frames from one UDP socket into port a and counts those leaving port b,
// keeping at most WINDOW frames in flight so that no socket buffer
// overflows.  Not a test: it prints frames/s and Gbit/s per frame size.
//
//   fabric_bench [SECONDS] [--busy-poll]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace
{

uint64_t now_ns()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return static_cast<uint64_t>(t.tv_sec) * 1000000000ull + static_cast<uint64_t>(t.tv_nsec);
}

int udp(uint16_t &port)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	int sz = 4 << 20;
	setsockopt(s, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	sockaddr_in a{};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(s, reinterpret_cast<sockaddr *>(&a), sizeof(a));
	socklen_t l = sizeof(a);
	getsockname(s, reinterpret_cast<sockaddr *>(&a), &l);
	port = ntohs(a.sin_port);
	return s;
}

uint16_t free_port()
{
	uint16_t p;
	close(udp(p));
	return p;
}

} // namespace

int main(int argc, char **argv)
{
	double seconds = 3;
	bool busy = false;
	for (int i = 1; i < argc; i++) {
		if (std::strcmp(argv[i], "--busy-poll") == 0)
			busy = true;
		else
			seconds = std::atof(argv[i]);
	}
	if (seconds <= 0) {
		std::fprintf(stderr, "usage: fabric_bench [SECONDS] [--busy-poll]\n");
		return 2;
	}
	uint16_t ha, hb;
	int a = udp(ha), b = udp(hb);
	uint16_t fa = free_port(), fb = free_port();
	char dir[] = "/tmp/fabric-bench-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	std::string topo = std::string(dir) + "/topo";
	std::ofstream(topo) << "switch s0 buffer=64MB\n"
			    << "port s0:a rate=400G delay=1us attach=dgram:127.0.0.1:" << fa
			    << ":127.0.0.1:" << ha << "\n"
			    << "port s0:b rate=400G delay=1us attach=dgram:127.0.0.1:" << fb
			    << ":127.0.0.1:" << hb << "\n"
			    << "mac s0 02:00:00:00:00:02 b\n";
	pid_t pid = fork();
	if (pid == 0) {
		if (busy)
			execl(RXECC_FABRIC_BIN, RXECC_FABRIC_BIN, "run", "-t", topo.c_str(),
			      "--busy-poll", "-q", static_cast<char *>(nullptr));
		else
			execl(RXECC_FABRIC_BIN, RXECC_FABRIC_BIN, "run", "-t", topo.c_str(), "-q",
			      static_cast<char *>(nullptr));
		_exit(127);
	}
	usleep(300000);
	sockaddr_in to{};
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	to.sin_port = htons(fa);
	std::printf("fabric_bench: %s, %.1f s per size, window 64 frames\n",
	            busy ? "--busy-poll" : "sleeping loop", seconds);
	for (size_t len : {1500u, 64u}) {
		// To 02:00:00:00:00:02 (the MAC table sends it out of b).
		std::vector<uint8_t> f = {0x02, 0, 0, 0, 0,    0x02, 0x02,
		                          0,    0, 0, 0, 0x01, 0x88, 0xb5};
		f.resize(len, 0);
		uint64_t sent = 0, got = 0;
		const uint64_t window = 64;
		uint64_t t0 = now_ns(), end = t0 + static_cast<uint64_t>(seconds * 1e9);
		char buf[2048];
		while (now_ns() < end) {
			while (sent - got < window &&
			       sendto(a, f.data(), f.size(), 0, reinterpret_cast<sockaddr *>(&to),
			              sizeof(to)) == static_cast<ssize_t>(f.size()))
				sent++;
			pollfd p{b, POLLIN, 0};
			if (poll(&p, 1, 100) == 1) {
				while (recv(b, buf, sizeof(buf), 0) > 0)
					got++;
			} else if (sent - got >= window) {
				got = sent; // lost frames: reopen the window
			}
		}
		double dt = static_cast<double>(now_ns() - t0) / 1e9;
		double fps = static_cast<double>(got) / dt;
		std::printf("  %4zu B frames: %9.0f frames/s  %6.3f Gbit/s (frame bytes)\n", len,
		            fps, fps * static_cast<double>(len) * 8 / 1e9);
		std::fflush(stdout);
		usleep(100000);
		while (recv(b, buf, sizeof(buf), 0) > 0) {
		}
	}
	kill(pid, SIGTERM);
	waitpid(pid, nullptr, 0);
	unlink(topo.c_str());
	rmdir(dir);
	return 0;
}
