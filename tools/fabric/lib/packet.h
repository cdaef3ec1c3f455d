// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Packet model of the fabric: an owned Ethernet frame (without FCS, as
// AF_PACKET and QEMU sockets deliver it) plus the metadata the switch needs,
// parsed defensively because frames come from the wire.
//
// Byte layouts follow specs/wire.md: §1.2 (Ethernet, 802.1Q), §1.3 (IPv4 and
// IPv6 DS field, RFC 1624 checksum update), §1.4 (UDP 4791), §1.5 (BTH),
// §4.1 (ECN codepoints), §5 (802.1Qbb PFC and 802.3x PAUSE frames) and
// §7.4 (a), (h) (HPCC's INT shim: RoCE on the INT port, the BTH 42 bytes
// after the UDP header; specs/hpcc.md §3.1, §3.3 option A).
#ifndef RXECC_FABRIC_PACKET_H
#define RXECC_FABRIC_PACKET_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rxecc::fabric
{

// Time in nanoseconds, supplied by the caller (never read from a clock).
using Time = uint64_t;
inline constexpr Time kNever = UINT64_MAX;

inline constexpr int kNumPriorities = 8;

using Mac = std::array<uint8_t, 6>;

inline constexpr Mac kPfcDestMac = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};

inline constexpr uint16_t kEthTypeIpv4 = 0x0800;
inline constexpr uint16_t kEthTypeIpv6 = 0x86DD;
inline constexpr uint16_t kEthTypeVlan = 0x8100;
inline constexpr uint16_t kEthTypeMacControl = 0x8808;
inline constexpr uint16_t kMacControlPause = 0x0001; // 802.3x
inline constexpr uint16_t kMacControlPfc = 0x0101;   // 802.1Qbb
inline constexpr uint16_t kRoceV2Port = 4791;
// RoCEv2 with HPCC's INT shim between UDP and BTH (configurable).
inline constexpr uint16_t kDefaultIntPort = 4792;
inline constexpr size_t kIntMaxHops = 5;
inline constexpr size_t kIntShimBytes = 2 + 8 * kIntMaxHops; // 42
inline constexpr uint8_t kIpProtoUdp = 17;

inline constexpr size_t kEthHeaderBytes = 14;
inline constexpr size_t kMinFrameBytes = 60; // without FCS
inline constexpr size_t kPfcFrameBytes = 60;
inline constexpr size_t kBthBytes = 12;
// Larger frames are rejected: the fabric carries at most jumbo frames, never
// GSO super-packets (the attaching process must turn segmentation offloads
// off on its interfaces).
inline constexpr size_t kMaxFrameBytes = 16384;

// ECN field values (RFC 3168).
enum class Ecn : uint8_t { kNotEct = 0, kEct1 = 1, kEct0 = 2, kCe = 3 };

enum class ParseStatus {
	kOk,
	kTooShort,            // shorter than an Ethernet (or tagged) header
	kTooLong,             // longer than kMaxFrameBytes
	kMacControlTruncated, // 0x8808 frame too short for its opcode
	kIpTruncated,         // IP header runs past the frame
	kIpBadVersion,        // version nibble disagrees with the EtherType
	kIpBadHeaderLength,   // IPv4 IHL < 5
	kIpBadTotalLength,    // IP length field inconsistent with the frame
	kUdpTruncated,        // UDP header runs past the IP payload
	kUdpBadLength,        // UDP length < 8 or past the IP payload
	kBthTruncated,        // UDP 4791 payload shorter than a BTH
};
// (A packet to the INT port too short for the shim and a BTH is not an
// error: it parses with int_encap set and roce clear.)

const char *to_string(ParseStatus s);

// An IPv4 or IPv6 address; IPv4 uses the first 4 bytes of b.
struct IpAddr {
	bool v6 = false;
	std::array<uint8_t, 16> b{};

	static IpAddr v4(uint8_t a, uint8_t b1, uint8_t c, uint8_t d);
	bool operator==(const IpAddr &o) const { return v6 == o.v6 && b == o.b; }
	// True if the first prefix_len bits equal those of prefix (same family).
	bool matches(const IpAddr &prefix, unsigned prefix_len) const;
	std::string to_string() const;
};

// Metadata parsed from a frame.  Offsets are from the start of the frame;
// an offset of 0 means "absent".
struct FrameInfo {
	Mac dst{};
	Mac src{};
	uint16_t ethertype = 0; // after the 802.1Q tag, if any
	bool vlan = false;
	uint8_t pcp = 0; // 802.1p priority of the tag
	uint16_t vid = 0;

	bool mac_control = false; // untagged EtherType 0x8808
	uint16_t mac_control_opcode = 0;

	size_t l3_offset = 0;
	bool ipv4 = false;
	bool ipv6 = false;
	uint8_t dscp = 0;
	Ecn ecn = Ecn::kNotEct;
	uint8_t ip_proto = 0; // IPv6: the next header after the fixed header
	IpAddr src_ip;
	IpAddr dst_ip;

	size_t l4_offset = 0; // only for unfragmented UDP
	bool udp = false;
	uint16_t sport = 0;
	uint16_t dport = 0;

	// RoCEv2: UDP dport 4791 with a complete BTH right after the UDP
	// header, or dport = the INT port with a complete 42-byte shim and
	// a complete BTH after it.
	bool roce = false;
	size_t bth_offset = 0;
	uint8_t bth_opcode = 0;

	// UDP to the INT port given to the parser (0: none), whatever its
	// length; int_offset is the shim's offset when roce is set.
	bool int_encap = false;
	size_t int_offset = 0;

	bool is_ip() const { return ipv4 || ipv6; }
	bool ect() const { return ecn == Ecn::kEct0 || ecn == Ecn::kEct1; }
};

// Parses len bytes at data into out.  Never reads outside [data, data+len).
// int_port: the UDP port of INT-encapsulated RoCE (0: none; 4791 always
// means plain RoCEv2).
ParseStatus parse_frame(const uint8_t *data, size_t len, FrameInfo &out, uint16_t int_port = 0);

// One's-complement checksum of an IPv4 header of hdr_len bytes, computed
// with the checksum field (bytes 10-11) taken as zero.
uint16_t ipv4_header_checksum(const uint8_t *hdr, size_t hdr_len);

// RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') for one changed 16-bit word.
uint16_t checksum_update16(uint16_t hc, uint16_t old_word, uint16_t new_word);

// A frame and its parsed metadata.  The bytes are only changed through the
// methods below, which keep the metadata and the IPv4 checksum in step.
class Packet
{
public:
	Packet() = default;

	// Takes ownership of bytes; nullopt (and *status) if malformed.
	// int_port as for parse_frame(); reparse() keeps it.
	static std::optional<Packet> parse(std::vector<uint8_t> bytes,
	                                   ParseStatus *status = nullptr, uint16_t int_port = 0);

	const std::vector<uint8_t> &bytes() const { return bytes_; }
	size_t size() const { return bytes_.size(); }
	const FrameInfo &info() const { return info_; }
	uint16_t int_port() const { return int_port_; }
	std::vector<uint8_t> release() { return std::move(bytes_); }

	// Rewrites the IP DS field (DSCP << 2 | ECN), fixing the IPv4 header
	// checksum incrementally.  False (and nothing changed) if not IP.
	bool set_ds_field(uint8_t ds);
	bool set_ecn(Ecn ecn);
	bool set_dscp(uint8_t dscp);
	// ECT(0)/ECT(1) -> CE.  True if the packet was changed.
	bool mark_ce();

	// For features that edit other bytes: edit, then call reparse().  If
	// the edited bytes no longer parse, the metadata is cleared and the
	// status says why.
	std::vector<uint8_t> &mutable_bytes() { return bytes_; }
	ParseStatus reparse();

private:
	std::vector<uint8_t> bytes_;
	FrameInfo info_;
	uint16_t int_port_ = 0;
};

// An 802.1Qbb PFC frame (60 bytes, no FCS): bit n of enable_mask enables
// priority n, times[n] is its pause time in quanta (0 = XON).
std::vector<uint8_t> build_pfc_frame(const Mac &src, uint8_t enable_mask,
                                     const std::array<uint16_t, kNumPriorities> &times);

// The content of a received PAUSE or PFC frame.  A legacy 802.3x PAUSE is
// reported as enabling all eight priorities with the same time.
struct PauseRequest {
	uint8_t enable_mask = 0;
	std::array<uint16_t, kNumPriorities> times{};
};

// nullopt for a MAC control frame that is neither PFC nor PAUSE (or for a
// frame that is not MAC control).
std::optional<PauseRequest> parse_pause(const Packet &p);

// True for the reserved link-local group 01:80:C2:00:00:00..0F, which
// bridges never forward.
bool is_link_local(const Mac &m);
bool is_multicast(const Mac &m); // includes broadcast

std::string mac_to_string(const Mac &m);
std::optional<Mac> parse_mac(const std::string &s);

} // namespace rxecc::fabric

#endif
