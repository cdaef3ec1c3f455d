// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Small units of the process: lateness histogram, delivery queue, QEMU
// stream framing, control request parsing and the control server.
#include <gtest/gtest.h>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "control.h"
#include "delivery.h"
#include "lateness.h"
#include "port_io.h"

using namespace rxecc::fabric;
using namespace rxecc::fabric::proc;

TEST(Lateness, BucketsAreContiguousAndTight)
{
	const uint64_t values[] = {
		0, 1, 127, 128, 129, 255, 256, 1000, 123456789, uint64_t{1} << 40, UINT64_MAX};
	for (uint64_t v : values) {
		size_t b = LatenessHistogram::bucket_of(v);
		uint64_t lo = LatenessHistogram::bucket_floor(b);
		EXPECT_LE(lo, v) << v;
		EXPECT_LE(v - lo, v / 64) << v;
		if (v != UINT64_MAX) {
			EXPECT_GT(LatenessHistogram::bucket_floor(b + 1), v) << v;
		}
	}
}

TEST(Lateness, Percentiles)
{
	LatenessHistogram h;
	EXPECT_EQ(h.percentile_ns(50), 0u);
	for (uint64_t i = 1; i <= 100; i++)
		h.add(i * 1000);
	EXPECT_EQ(h.count(), 100u);
	EXPECT_EQ(h.max_ns(), 100000u);
	uint64_t p50 = h.percentile_ns(50), p99 = h.percentile_ns(99);
	EXPECT_LE(p50, 50000u);
	EXPECT_GE(p50, 50000u - 50000u / 64);
	EXPECT_LE(p99, 99000u);
	EXPECT_GE(p99, 99000u - 99000u / 64);
	EXPECT_EQ(h.percentile_ns(100), h.bucket_floor(h.bucket_of(100000)));
}

TEST(DeliveryQueue, TimeOrderStableForTies)
{
	DeliveryQueue q;
	EXPECT_EQ(q.next_ns(), kNever);
	q.push(30, {3});
	q.push(10, {1});
	q.push(30, {4});
	q.push(20, {2});
	EXPECT_EQ(q.next_ns(), 10u);
	EXPECT_EQ(q.due(9), nullptr);
	std::vector<uint8_t> order;
	while (const PendingFrame *f = q.due(30)) {
		order.push_back(f->frame[0]);
		q.pop();
	}
	EXPECT_EQ(order, (std::vector<uint8_t>{1, 2, 3, 4}));
	EXPECT_TRUE(q.empty());
}

TEST(StreamFraming, RoundTripAndPartial)
{
	std::string wire;
	std::vector<uint8_t> a(60, 0xaa), b(1514, 0xbb);
	stream_encode(a.data(), a.size(), wire);
	stream_encode(b.data(), b.size(), wire);
	EXPECT_EQ(wire.substr(0, 4), std::string("\0\0\0\x3c", 4));
	std::string buf = wire.substr(0, 100); // first frame and a bit
	std::vector<std::vector<uint8_t>> out;
	ASSERT_TRUE(stream_decode(buf, out));
	ASSERT_EQ(out.size(), 1u);
	EXPECT_EQ(out[0], a);
	EXPECT_EQ(buf.size(), 100u - 64u);
	buf += wire.substr(100);
	ASSERT_TRUE(stream_decode(buf, out));
	ASSERT_EQ(out.size(), 2u);
	EXPECT_EQ(out[1], b);
	EXPECT_TRUE(buf.empty());
}

TEST(StreamFraming, BadLengthsAreFatal)
{
	std::vector<std::vector<uint8_t>> out;
	std::string zero("\0\0\0\0", 4);
	EXPECT_FALSE(stream_decode(zero, out));
	std::string huge("\0\1\0\0", 4); // 65536 > kMaxFrameBytes
	EXPECT_FALSE(stream_decode(huge, out));
	EXPECT_TRUE(out.empty());
}

TEST(ControlRequest, Lines)
{
	auto ok = [](const std::string &s, bool eof, ControlRequest want) {
		RequestParse r = parse_request(s, eof);
		EXPECT_EQ(r.status, RequestParse::kOk) << s;
		EXPECT_EQ(r.request, want) << s;
	};
	ok("stats\n", false, ControlRequest::kStats);
	ok("flat\r\n", false, ControlRequest::kFlat);
	ok("quit", true, ControlRequest::kQuit);
	ok("stats\nignored", false, ControlRequest::kStats);
	EXPECT_EQ(parse_request("sta", false).status, RequestParse::kIncomplete);
	EXPECT_EQ(parse_request("", false).status, RequestParse::kIncomplete);
	EXPECT_EQ(parse_request("dump\n", false).status, RequestParse::kError);
	EXPECT_EQ(parse_request("", true).status, RequestParse::kError);
	EXPECT_EQ(parse_request(" stats\n", false).status, RequestParse::kError);
	EXPECT_EQ(parse_request(std::string(65, 's'), false).status, RequestParse::kError);
}

namespace
{

// One client request served by a ControlServer driven by hand.
std::string serve_one(ControlServer &srv, int epfd, const std::string &path,
                      const std::string &request)
{
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	sockaddr_un sa{};
	sa.sun_family = AF_UNIX;
	std::strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
	EXPECT_EQ(connect(c, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)), 0);
	EXPECT_EQ(write(c, request.data(), request.size()), static_cast<ssize_t>(request.size()));
	for (int round = 0; round < 10; round++) {
		epoll_event ev[4];
		int n = epoll_wait(epfd, ev, 4, 100);
		for (int i = 0; i < n; i++) {
			int fd = static_cast<int>(ev[i].data.u64 & 0xffffffffu);
			srv.on_event(fd, ev[i].events, 0, [](ControlRequest r) {
				return std::string("answer to ") + to_string(r) + "\n";
			});
		}
	}
	std::string got;
	char buf[256];
	ssize_t n;
	while ((n = read(c, buf, sizeof(buf))) > 0)
		got.append(buf, static_cast<size_t>(n));
	close(c);
	return got;
}

} // namespace

TEST(ControlServer, AnswersThenEof)
{
	char dir[] = "/tmp/rxecc-fabric-ctl-XXXXXX";
	ASSERT_NE(mkdtemp(dir), nullptr);
	std::string path = std::string(dir) + "/c.sock";
	// A stale socket file is replaced.
	{
		int s = socket(AF_UNIX, SOCK_STREAM, 0);
		sockaddr_un sa{};
		sa.sun_family = AF_UNIX;
		std::strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
		ASSERT_EQ(bind(s, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)), 0);
		close(s);
	}
	int epfd = epoll_create1(0);
	ControlServer srv;
	std::string err;
	ASSERT_TRUE(srv.open(path, epfd, 1ull << 32, err)) << err;
	EXPECT_EQ(serve_one(srv, epfd, path, "flat\n"), "answer to flat\n");
	EXPECT_EQ(serve_one(srv, epfd, path, "stats\n"), "answer to stats\n");
	EXPECT_EQ(serve_one(srv, epfd, path, "bogus\n"),
	          "error: unknown request (stats, flat, quit)\n");
	srv.close_all();
	EXPECT_NE(access(path.c_str(), F_OK), 0); // removed at exit
	close(epfd);
	rmdir(dir);
}

TEST(ControlServer, RefusesToReplaceARegularFile)
{
	char dir[] = "/tmp/rxecc-fabric-ctl-XXXXXX";
	ASSERT_NE(mkdtemp(dir), nullptr);
	std::string path = std::string(dir) + "/file";
	FILE *f = std::fopen(path.c_str(), "w");
	ASSERT_NE(f, nullptr);
	std::fclose(f);
	int epfd = epoll_create1(0);
	ControlServer srv;
	std::string err;
	EXPECT_FALSE(srv.open(path, epfd, 1ull << 32, err));
	EXPECT_NE(err.find("not a socket"), std::string::npos) << err;
	EXPECT_EQ(access(path.c_str(), F_OK), 0);
	unlink(path.c_str());
	close(epfd);
	rmdir(dir);
}
