// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rxecc-fabric-bench: the cost of ACCurate's rate unit per FRP in the
// software switch, for target T9 of specs/accurate.md §5.6 ("CP cost: a
// few hundred ns per FRP in software").  In one run, N iterations each,
// timed with steady_clock:
//   (a) a RoCEv2 data packet (RC WRITE ONLY, 1 KiB payload) through a
//       2-port switch without ACCurate: on_ingress(), then poll() until
//       it leaves -- the baseline;
//   (b) the same packet through the same switch with ACCurate on both
//       ports (ACCurate does not look at data: about 1 x);
//   (c) a valid forward FRP (0xC0, NORMAL) through the ACCurate switch,
//       where it meets two CPs (host port h1's ingress CP and h2's egress
//       CP), which clamp its DR and so recompute the ICRC.  16 flows at
//       their fair share Ceff / 16 send one FRP each per epoch, and the
//       epoch advances every 16 FRPs, so the RRP ends run as in steady
//       state;
//   (d) the CP alone: AccCp::on_epoch() and on_forward() on the same
//       ACCETHs, no packet.
// Each case runs in three interleaved rounds; the median round is
// printed with its ratio to (a).  Speed is never a failure: the exit
// status is 1 only if it could not measure (an FRP not processed, a
// packet that did not leave), 2 on bad arguments.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accurate.h"
#include "accurate_cp.h"
#include "packet.h"
#include "roce_icrc.h"
#include "switch_config.h"
#include "switch_model.h"
#include "topology.h"

namespace
{

using namespace rxecc::fabric;

constexpr uint64_t kDefaultIterations = 200000;
constexpr uint64_t kMinIterations = 1000;
constexpr uint64_t kMaxIterations = 100000000;
constexpr int kRounds = 3;
constexpr uint32_t kFlows = 16; // FRPs per epoch
constexpr uint32_t kPortKbps = 10000000;
constexpr Time kGapNs = 2000; // > a 1 KiB frame's serialisation at 10 Gb/s

const char kUsage[] = "Usage: rxecc-fabric-bench [--iterations N]\n"
		      "\n"
		      "The cost of ACCurate's rate unit per FRP in the software switch\n"
		      "(specs/accurate.md T9), against a data packet through the same model\n"
		      "in the same run: ns per packet and the ratio to the first line.\n"
		      "\n"
		      "  --iterations N  packets per case and round, 1000..100000000\n"
		      "                  (default 200000)\n"
		      "  -h, --help      this text\n"
		      "\n"
		      "Exit status: 0 measured (whatever the figures), 1 could not measure,\n"
		      "2 bad arguments.\n";

volatile uint64_t g_sink; // keeps the work observable

// ---- Frames -----------------------------------------------------------------

constexpr size_t kEthBytes = 14, kIpBytes = 20, kUdpBytes = 8;
constexpr size_t kBthAt = kEthBytes + kIpBytes + kUdpBytes;
constexpr size_t kRethBytes = 16;
constexpr size_t kDataPayload = 1024;
constexpr uint8_t kOpcodeWriteOnly = 0x0a; // RC RDMA WRITE ONLY
constexpr uint8_t kTosData = 0x6a;         // DSCP 26, ECT(0): priority 3
constexpr uint8_t kTosFrp = 0xc0;          // DSCP 48, Not-ECT: priority 6

void put16(uint8_t *p, size_t v)
{
	p[0] = static_cast<uint8_t>(v >> 8);
	p[1] = static_cast<uint8_t>(v);
}

// An IPv4 RoCEv2 frame from 10.0.0.src to 10.0.0.dst (MACs 02:00:00:00:00:n,
// QP 0x200 + dst) whose UDP payload is a BTH with opcode, extra bytes of
// zeros (the opcode's extension headers and payload), then the ICRC, left
// for the caller to compute.
std::vector<uint8_t> roce_frame(uint8_t src, uint8_t dst, uint8_t tos, uint8_t opcode, size_t extra)
{
	const size_t udp_len = kUdpBytes + kBthBytes + extra + kIcrcBytes;
	std::vector<uint8_t> f(kEthBytes + kIpBytes + udp_len, 0);
	const std::array<uint8_t, 6> d = {0x02, 0, 0, 0, 0, dst}, s = {0x02, 0, 0, 0, 0, src};
	std::copy(d.begin(), d.end(), f.begin());
	std::copy(s.begin(), s.end(), f.begin() + 6);
	put16(&f[12], 0x0800);
	uint8_t *ip = &f[kEthBytes];
	ip[0] = 0x45;
	ip[1] = tos;
	put16(ip + 2, kIpBytes + udp_len);
	ip[6] = 0x40; // DF
	ip[8] = 64;   // TTL
	ip[9] = 17;   // UDP
	ip[12] = 10;
	ip[15] = src;
	ip[16] = 10;
	ip[19] = dst;
	put16(ip + 10, ipv4_header_checksum(ip, kIpBytes));
	uint8_t *udp = ip + kIpBytes;
	put16(udp, 0xc000u | src);
	put16(udp + 2, kRoceV2Port);
	put16(udp + 4, udp_len);
	uint8_t *bth = udp + kUdpBytes;
	bth[0] = opcode;
	bth[2] = bth[3] = 0xff; // P_Key
	bth[6] = 0x02;          // DestQP 0x0002dd
	bth[7] = dst;
	return f;
}

// Writes the ICRC; false if the frame is no RoCEv2 packet the model parses.
bool seal(std::vector<uint8_t> &f)
{
	FrameInfo fi;
	if (parse_frame(f.data(), f.size(), fi) != ParseStatus::kOk || !fi.roce)
		return false;
	return roce_icrc_update(f, fi);
}

// The 1 KiB WRITE ONLY of cases (a) and (b): BTH, RETH, payload, ICRC.
std::vector<uint8_t> data_frame()
{
	std::vector<uint8_t> f =
		roce_frame(1, 2, kTosData, kOpcodeWriteOnly, kRethBytes + kDataPayload);
	put16(&f[kBthAt + kBthBytes + 12], kDataPayload); // RETH DMA length
	for (size_t i = 0; i < kDataPayload; i++)
		f[kBthAt + kBthBytes + kRethBytes + i] = static_cast<uint8_t>(i);
	return f;
}

// The ACCETH of the FRP of flow k of an epoch: NORMAL at the fair share
// of 16 flows on a 10 Gb/s link with alpha 0.05, DR the line rate.
AccEth frp_acceth(uint16_t epoch, uint32_t k)
{
	AccEth a;
	a.type = kAccTypeNormal;
	a.epoch = epoch;
	a.cr_kbps = (kPortKbps - kPortKbps / 20) / kFlows;
	a.dr_kbps = kPortKbps;
	a.src_qpn = 0x100u + k;
	return a;
}

// A forward FRP of specs/accurate.md §3.2 (74 bytes: BTH with PSN = epoch,
// ACCETH, ICRC) from h1 to h2 with a valid ICRC.
std::vector<uint8_t> frp_frame(const AccEth &a)
{
	std::vector<uint8_t> f = roce_frame(1, 2, kTosFrp, kOpcodeFrp, kAccEthBytes);
	f[kBthAt + 10] = static_cast<uint8_t>(a.epoch >> 8);
	f[kBthAt + 11] = static_cast<uint8_t>(a.epoch);
	a.put(f.data() + kBthAt + kBthBytes);
	return f;
}

// ---- Switches ---------------------------------------------------------------

// Two host ports at 10 Gb/s, h1 (port 0) and h2 (port 1), routes to both;
// with ACCurate (defaults: alpha 0.05, K_SC 1.5, ingress CPs) on both or
// on none.
std::optional<SwitchConfig> switch_config(bool accurate, std::string &err)
{
	TopologyResult r = parse_topology("switch s0 buffer=1MiB\n"
	                                  "port s0:h1 rate=10G delay=1us\n"
	                                  "port s0:h2 rate=10G delay=1us\n"
	                                  "route s0 10.0.0.1 h1\n"
	                                  "route s0 10.0.0.2 h2\n");
	if (!r) {
		err = "topology: " + r.error.to_string();
		return std::nullopt;
	}
	SwitchConfig c = r.topology->switches[0];
	for (PortConfig &p : c.ports)
		p.accurate.enabled = accurate;
	if (std::string e = validate(c); !e.empty()) {
		err = "switch: " + e;
		return std::nullopt;
	}
	return c;
}

// Feeds frames into port 0 of a switch, kGapNs apart, and polls until
// each has left; counts those that left on port 1.
struct Feeder {
	explicit Feeder(const SwitchConfig &c) : sw(c) {}
	Switch sw;
	Time now = 0;
	uint64_t sent = 0;
	uint64_t out_port1 = 0;
	uint64_t out_other = 0;
	uint64_t sink = 0;

	// False if nothing left and nothing is pending (the frame vanished).
	bool pass(const uint8_t *frame, size_t len)
	{
		now += kGapNs;
		sw.on_ingress(0, std::vector<uint8_t>(frame, frame + len), now);
		sent++;
		uint64_t got = 0;
		for (;;) {
			for (Transmission &tx : sw.poll(now)) {
				got++;
				(tx.port == 1 ? out_port1 : out_other)++;
				sink += tx.frame[tx.frame.size() - 1];
			}
			if (got > 0)
				return true;
			Time t = sw.next_event_time();
			if (t == kNever)
				return false;
			now = std::max(now, t);
		}
	}
};

// ---- Cases ------------------------------------------------------------------

using Clock = std::chrono::steady_clock;

double ns_per(Clock::time_point t0, Clock::time_point t1, uint64_t n)
{
	return static_cast<double>(
		       std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()) /
	       static_cast<double>(n);
}

// n data packets; -1 if one did not leave.
double time_data(Feeder &f, const std::vector<uint8_t> &frame, uint64_t n)
{
	Clock::time_point t0 = Clock::now();
	for (uint64_t i = 0; i < n; i++)
		if (!f.pass(frame.data(), frame.size()))
			return -1;
	Clock::time_point t1 = Clock::now();
	g_sink = f.sink;
	return ns_per(t0, t1, n);
}

// The FRPs of every epoch, prebuilt (74 bytes each, 4.8 MB): FRP i of the
// run carries epoch (i / 16) mod 2^16.
struct FrpTable {
	static constexpr size_t kEpochs = 65536;
	size_t len = 0;
	std::vector<uint8_t> bytes;

	bool build()
	{
		for (size_t e = 0; e < kEpochs; e++) {
			std::vector<uint8_t> f = frp_frame(frp_acceth(static_cast<uint16_t>(e), 0));
			if (!seal(f))
				return false;
			if (e == 0) {
				len = f.size();
				bytes.reserve(len * kEpochs);
			}
			bytes.insert(bytes.end(), f.begin(), f.end());
		}
		return true;
	}
	const uint8_t *at(uint64_t i) const { return &bytes[((i / kFlows) % kEpochs) * len]; }
};

// n FRPs from FRP number *next on; -1 if one did not leave.
double time_frp(Feeder &f, const FrpTable &tab, uint64_t &next, uint64_t n)
{
	Clock::time_point t0 = Clock::now();
	for (uint64_t i = 0; i < n; i++, next++)
		if (!f.pass(tab.at(next), tab.len))
			return -1;
	Clock::time_point t1 = Clock::now();
	g_sink = f.sink;
	return ns_per(t0, t1, n);
}

// n calls of the CP alone from FRP number *next on.
double time_cp(AccCp &cp, uint64_t &next, uint64_t n)
{
	uint64_t sink = 0;
	Clock::time_point t0 = Clock::now();
	for (uint64_t i = 0; i < n; i++, next++) {
		AccEth a = frp_acceth(static_cast<uint16_t>(next / kFlows),
		                      static_cast<uint32_t>(next % kFlows));
		if (cp.on_epoch(a.epoch) == AccEpoch::kCurrent)
			sink += cp.on_forward(a);
		sink += a.cr_kbps ^ a.dr_kbps;
	}
	Clock::time_point t1 = Clock::now();
	g_sink = sink;
	return ns_per(t0, t1, n);
}

// The CPs an FRP from h1 to h2 meets: h1's ingress CP, h2's egress CP.
struct CpCounts {
	AccCpCounters in, out;
};

std::optional<CpCounts> cp_counts(const Switch &sw)
{
	AccStatus h1 = sw.accurate_status(0), h2 = sw.accurate_status(1);
	if (!h1.ingress || !h2.egress)
		return std::nullopt;
	return CpCounts{h1.ingress->counters(), h2.egress->counters()};
}

// Empty if every FRP since before was processed as a NORMAL at both CPs
// (none bad, stale or short-circuited), otherwise why not.
std::string check_processed(const CpCounts &before, const CpCounts &after, uint64_t n)
{
	const std::pair<const char *, std::pair<AccCpCounters, AccCpCounters>> cps[] = {
		{"h1's ingress CP", {before.in, after.in}},
		{"h2's egress CP", {before.out, after.out}},
	};
	for (const auto &[name, c] : cps) {
		const AccCpCounters &b = c.first, &a = c.second;
		char buf[256];
		if (a.frp_normal - b.frp_normal != n || a.frp_bad != b.frp_bad ||
		    a.frp_stale != b.frp_stale || a.short_circuits != b.short_circuits) {
			std::snprintf(
				buf, sizeof buf,
				"%s: of %llu FRPs sent, %llu processed as NORMAL, %llu bad "
				"(%llu ICRC), %llu stale, %llu short-circuited",
				name, static_cast<unsigned long long>(n),
				static_cast<unsigned long long>(a.frp_normal - b.frp_normal),
				static_cast<unsigned long long>(a.frp_bad - b.frp_bad),
				static_cast<unsigned long long>(a.frp_bad_icrc - b.frp_bad_icrc),
				static_cast<unsigned long long>(a.frp_stale - b.frp_stale),
				static_cast<unsigned long long>(a.short_circuits -
			                                        b.short_circuits));
			return buf;
		}
		if (a.rate_updates == b.rate_updates && n >= 2 * kFlows)
			return std::string(name) + ": no RRP end ran";
	}
	return {};
}

double median(std::array<double, kRounds> v)
{
	std::sort(v.begin(), v.end());
	return v[kRounds / 2];
}

int cannot_measure(const std::string &why)
{
	std::fprintf(stderr, "rxecc-fabric-bench: cannot measure: %s\n", why.c_str());
	return 1;
}

// --iterations: digits only, kMinIterations..kMaxIterations.
std::optional<uint64_t> parse_iterations(const std::string &s)
{
	if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
		return std::nullopt;
	uint64_t v = std::stoull(s);
	if (v < kMinIterations || v > kMaxIterations)
		return std::nullopt;
	return v;
}

int usage_error(const std::string &msg)
{
	std::fprintf(stderr, "rxecc-fabric-bench: %s\nTry 'rxecc-fabric-bench --help'.\n",
	             msg.c_str());
	return 2;
}

} // namespace

int main(int argc, char **argv)
{
	uint64_t n = kDefaultIterations;
	std::vector<std::string> args(argv + 1, argv + argc);
	for (size_t i = 0; i < args.size(); i++) {
		if (args[i] == "-h" || args[i] == "--help") {
			std::fputs(kUsage, stdout);
			return 0;
		}
		if (args[i] != "--iterations")
			return usage_error("unknown argument '" + args[i] + "'");
		if (i + 1 >= args.size())
			return usage_error("--iterations needs a value");
		std::optional<uint64_t> v = parse_iterations(args[++i]);
		if (!v)
			return usage_error(
				"--iterations: an integer from 1000 to 100000000, got '" + args[i] +
				"'");
		n = *v;
	}

	std::string err;
	std::optional<SwitchConfig> plain = switch_config(false, err);
	std::optional<SwitchConfig> acc = plain ? switch_config(true, err) : std::nullopt;
	if (!plain || !acc)
		return cannot_measure(err);
	Feeder fa(*plain), fb(*acc), fc(*acc);
	std::vector<uint8_t> data = data_frame();
	FrpTable tab;
	if (!seal(data) || !tab.build())
		return cannot_measure("the model does not parse the frames built as RoCEv2");

	// Warm up every case, and check that the FRPs are processed as
	// NORMAL at both CPs, the RRP ends run, and all left on h2.
	uint64_t next_frp = 0, next_cp = 0;
	const uint64_t warm = std::min<uint64_t>(n, 64 * kFlows);
	AccCpParams cpp;
	cpp.c_kbps = kPortKbps;
	AccCp cp(cpp);
	std::optional<CpCounts> c0 = cp_counts(fc.sw);
	if (!c0)
		return cannot_measure(
			"the ACCurate switch has no CP on h1's ingress or h2's egress");
	if (time_data(fa, data, warm) < 0 || time_data(fb, data, warm) < 0 ||
	    time_frp(fc, tab, next_frp, warm) < 0)
		return cannot_measure("a packet did not leave the switch");
	time_cp(cp, next_cp, warm);
	std::string why = check_processed(*c0, *cp_counts(fc.sw), warm);
	if (why.empty() && cp.counters().frp_normal != warm)
		why = "the CP alone processed " + std::to_string(cp.counters().frp_normal) +
		      " of " + std::to_string(warm) + " FRPs";
	if (!why.empty())
		return cannot_measure(why);

	std::array<std::array<double, kRounds>, 4> ns{};
	CpCounts c1 = *cp_counts(fc.sw);
	for (int r = 0; r < kRounds; r++) {
		const auto ri = static_cast<size_t>(r);
		ns[0][ri] = time_data(fa, data, n);
		ns[1][ri] = time_data(fb, data, n);
		ns[2][ri] = time_frp(fc, tab, next_frp, n);
		ns[3][ri] = time_cp(cp, next_cp, n);
		for (size_t k = 0; k < 3; k++)
			if (ns[k][ri] < 0)
				return cannot_measure("a packet did not leave the switch");
	}
	// The timed FRPs too.
	why = check_processed(c1, *cp_counts(fc.sw), kRounds * n);
	for (const Feeder *f : {&fa, &fb, &fc})
		if (why.empty() && (f->out_port1 != f->sent || f->out_other != 0))
			why = "of " + std::to_string(f->sent) + " packets, " +
			      std::to_string(f->out_port1) + " left on h2 and " +
			      std::to_string(f->out_other) + " elsewhere";
	if (!why.empty())
		return cannot_measure(why);

	const char *names[4] = {"data, no ACCurate", "data, ACCurate on", "FRP through 2 CPs",
	                        "CP alone"};
	const char *units[4] = {"packet", "packet", "FRP", "FRP"};
	double med[4];
	for (size_t k = 0; k < 4; k++)
		med[k] = median(ns[k]);
	if (!(med[0] > 0))
		return cannot_measure("the baseline took no measurable time");
	std::printf("rxecc-fabric-bench: %llu iterations per case, median of %d rounds\n",
	            static_cast<unsigned long long>(n), kRounds);
	for (size_t k = 0; k < 4; k++)
		std::printf("  %-20s %7.0f ns/%-7s %5.2f x\n", names[k], med[k], units[k],
		            med[k] / med[0]);
	std::printf("T9 (specs/accurate.md §5.6) asks a few hundred ns per FRP at most in "
	            "software (hardware: 6.4 ns); here an FRP costs %.0f ns, %+.0f ns against "
	            "a data packet through the same switch.\n",
	            med[2], med[2] - med[1]);
	return 0;
}
