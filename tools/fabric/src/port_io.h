// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Port backends: where the frames of an external port come from and go to.
//
//   if:      AF_PACKET socket (ETH_P_ALL, promiscuous) with TPACKET_V2 RX
//            and TX rings; frames the interface sends are ignored.
//   dgram:   UDP or unix datagram socket, one frame per datagram (QEMU
//            -netdev dgram).
//   stream:  listening unix stream socket, one client at a time, frames
//            prefixed with their length as 4 bytes big endian (QEMU
//            -netdev stream).
//
// A backend registers its descriptors with the event loop's epoll (data:
// tag | fd) and reports received frames through a callback with their
// receive time on CLOCK_MONOTONIC (the ring's timestamp for if:, the read
// time otherwise).
#ifndef RXECC_FABRIC_PROC_PORT_IO_H
#define RXECC_FABRIC_PROC_PORT_IO_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attach.h"
#include "packet.h"

namespace rxecc::fabric::proc
{

struct PortIoStats {
	uint64_t rx_frames = 0;
	uint64_t rx_errors = 0; // truncated, oversized, bad framing, foreign sender
	// if: only.  Frames dropped as longer than the port carries
	// (segmentation offload super-frames; also counted in rx_errors).
	uint64_t rx_oversize = 0;
	// if: only.  Frames whose TCP/UDP checksum the sending host left to
	// "hardware" (TP_STATUS_CSUMNOTREADY): completed here, or forwarded
	// unchanged because the frame is not one complete_l4_checksum() knows.
	uint64_t rx_csum_fixed = 0;
	uint64_t rx_csum_unsupported = 0;
	// if: only.  Frames the kernel dropped on their way in because the
	// receive ring was full (the fabric fell behind the sending hosts).
	uint64_t rx_lost = 0;
	uint64_t tx_frames = 0;
	uint64_t tx_dropped = 0; // not connected, queue full, send error
	// Frames the model had sent out of this port that were still on their
	// way (propagation delay, or held for a full receiver) when the fabric
	// stopped: in flight, not dropped.  Set at exit.
	uint64_t tx_unsent = 0;
	uint64_t connects = 0; // stream: clients accepted
};

class PortIo
{
public:
	// data, len, receive time in ns of CLOCK_MONOTONIC (absolute).
	using RxFn = std::function<void(const uint8_t *, size_t, uint64_t)>;
	enum class Tx { kSent, kBusy, kDropped };

	virtual ~PortIo() = default;
	virtual bool open(int epfd, uint64_t tag, std::string &err) = 0;
	// Reads at most budget frames; returns how many were read.
	virtual size_t on_event(int fd, uint32_t events, size_t budget, const RxFn &rx) = 0;
	// Queues a frame for sending; kBusy: try again later (nothing taken).
	virtual Tx send(const uint8_t *data, size_t len) = 0;
	// Pushes queued frames to the kernel.
	virtual void flush() {}
	// For if: rings, whether frames may be waiting without an epoll event.
	virtual bool rx_pending() const { return false; }
	// Brings the counters the kernel keeps for the port (if: ring drops)
	// into stats().
	virtual void collect() {}
	virtual int poll_fd() const = 0;

	const PortIoStats &stats() const { return stats_; }
	void set_unsent(uint64_t frames) { stats_.tx_unsent = frames; }

protected:
	PortIoStats stats_;
};

std::unique_ptr<PortIo> make_port_io(const AttachSpec &spec);

// Frames of an if: port longer than the port carries: cut short in the
// ring (tp_snaplen < tp_len), or longer than max_len, which is
// if_max_frame() of the interface's MTU.  Such frames are segmentation
// offload super-frames (GSO/TSO of the sender, GRO of the interface).
bool if_rx_oversize(uint32_t tp_len, uint32_t tp_snaplen, size_t max_len);
// The longest frame an interface of this MTU carries: MTU plus an Ethernet
// header and two VLAN tags, at most kMaxFrameBytes.
size_t if_max_frame(unsigned mtu);
// The size of an if: port's ring frames for frames up to max_len bytes: a
// power of two from 2048, with room for the ring's own header.
unsigned if_ring_frame(size_t max_len);
// The one-line warning (with newline) printed the first time an if: port
// drops an oversize frame.
std::string oversize_warning(const std::string &ifname, size_t len, size_t max_len);

// Monotonic and realtime clocks in ns.
uint64_t mono_ns();
uint64_t real_ns();

// Encodes one frame of QEMU's stream format (4-byte big-endian length).
void stream_encode(const uint8_t *data, size_t len, std::string &out);
// Decodes complete frames from the front of buf (consumed bytes are
// erased).  False on a length of 0 or above kMaxFrameBytes: the stream is
// out of step and must be closed.
bool stream_decode(std::string &buf, std::vector<std::vector<uint8_t>> &frames);

} // namespace rxecc::fabric::proc

#endif
