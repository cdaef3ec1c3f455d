// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The libnl transport against the running kernel. The rxe_cc family is not
// needed: the generic netlink controller ("nlctrl") is a family every kernel
// has, so dumps, do requests, kernel errors with extended ACKs and multicast
// groups go through the real socket code. The extended-ACK decoder is also
// checked on hand-built messages.
#include <cerrno>
#include <cstring>
#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl_transport.h"
#include "nlattr.h"

namespace rxecc
{
namespace
{

std::unique_ptr<NlTransport> open_ctrl()
{
	std::unique_ptr<NlTransport> t;
	Status s = NlTransport::open("nlctrl", 2, nullptr, t);
	EXPECT_TRUE(s.ok()) << s.detail;
	return t;
}

std::string family_name(const GenlMsg &m)
{
	std::vector<nl::Attr> attrs;
	EXPECT_TRUE(nl::parse_attrs(m.attrs.data(), m.attrs.size(), attrs));
	for (const nl::Attr &a : attrs)
		if (a.type == CTRL_ATTR_FAMILY_NAME)
			return a.as_string();
	return {};
}

TEST(NlTransport, UnknownFamilyIsNoFamily)
{
	std::unique_ptr<NlTransport> t;
	Status s = NlTransport::open("rxecc_nosuch", 1, nullptr, t);
	EXPECT_EQ(s.kind, Status::kNoFamily);
	EXPECT_EQ(t, nullptr);
}

TEST(NlTransport, DumpReturnsEveryMessage)
{
	auto t = open_ctrl();
	ASSERT_TRUE(t);
	std::vector<GenlMsg> replies;
	Status s = t->request(GenlMsg{CTRL_CMD_GETFAMILY, {}}, true, replies);
	ASSERT_TRUE(s.ok()) << s.detail << " " << s.err;
	ASSERT_GE(replies.size(), 1u);
	bool found = false;
	for (const GenlMsg &m : replies) {
		EXPECT_EQ(m.cmd, CTRL_CMD_NEWFAMILY);
		found |= family_name(m) == "nlctrl";
	}
	EXPECT_TRUE(found);
	// The socket is reusable: a second request sees only its own replies.
	std::vector<GenlMsg> again;
	ASSERT_TRUE(t->request(GenlMsg{CTRL_CMD_GETFAMILY, {}}, true, again).ok());
	EXPECT_EQ(again.size(), replies.size());
}

TEST(NlTransport, DoRequestGetsOneReplyAndTheAck)
{
	auto t = open_ctrl();
	ASSERT_TRUE(t);
	nl::AttrWriter w;
	w.put_string(CTRL_ATTR_FAMILY_NAME, "nlctrl");
	for (int i = 0; i < 3; ++i) {
		std::vector<GenlMsg> replies;
		Status s = t->request(GenlMsg{CTRL_CMD_GETFAMILY, w.bytes()}, false, replies);
		ASSERT_TRUE(s.ok()) << s.err;
		ASSERT_EQ(replies.size(), 1u);
		EXPECT_EQ(family_name(replies[0]), "nlctrl");
	}
}

TEST(NlTransport, KernelErrorsCarryErrnoAndExtack)
{
	auto t = open_ctrl();
	ASSERT_TRUE(t);
	nl::AttrWriter w;
	w.put_string(CTRL_ATTR_FAMILY_NAME, "rxecc_nosuch");
	std::vector<GenlMsg> replies;
	Status s = t->request(GenlMsg{CTRL_CMD_GETFAMILY, w.bytes()}, false, replies);
	EXPECT_EQ(s.kind, Status::kKernel);
	EXPECT_EQ(s.err, ENOENT);
	EXPECT_TRUE(replies.empty());

	// A name longer than GENL_NAMSIZ fails the policy, and the kernel says
	// so in the extended ACK.
	nl::AttrWriter longname;
	longname.put_string(CTRL_ATTR_FAMILY_NAME, "rxecc_name_too_long_for_genl");
	s = t->request(GenlMsg{CTRL_CMD_GETFAMILY, longname.bytes()}, false, replies);
	EXPECT_EQ(s.kind, Status::kKernel);
	EXPECT_EQ(s.err, EINVAL);
	EXPECT_FALSE(s.extack.empty()) << "NETLINK_EXT_ACK is enabled on the socket";

	// So does a FAMILY_ID of one byte (it is a u16; ERANGE or EINVAL
	// depending on the kernel).
	nl::AttrWriter bad;
	bad.put_u8(CTRL_ATTR_FAMILY_ID, 1);
	s = t->request(GenlMsg{CTRL_CMD_GETFAMILY, bad.bytes()}, false, replies);
	EXPECT_EQ(s.kind, Status::kKernel);
	EXPECT_GT(s.err, 0);
	EXPECT_FALSE(s.extack.empty());

	// The socket still works after errors.
	std::vector<GenlMsg> ok;
	EXPECT_TRUE(t->request(GenlMsg{CTRL_CMD_GETFAMILY, {}}, true, ok).ok());
	EXPECT_FALSE(ok.empty());
}

TEST(NlTransport, MulticastGroups)
{
	auto t = open_ctrl();
	ASSERT_TRUE(t);
	std::vector<GenlMsg> events;
	EXPECT_EQ(t->wait_events(1000, events).kind, Status::kSystem) << "not subscribed yet";
	Status s = t->subscribe("rxecc_no_group");
	EXPECT_EQ(s.kind, Status::kMalformed);
	EXPECT_NE(s.detail.find("no multicast group 'rxecc_no_group'"), std::string::npos);
	ASSERT_TRUE(t->subscribe("notify").ok());
	s = t->wait_events(20000000, events); // 20 ms
	EXPECT_TRUE(s.ok());
}

// --- extack_message() on hand-built messages

std::vector<std::uint8_t> error_msg(int err, bool capped, const std::string &text,
                                    bool tlv_flag = true)
{
	// The original request: a header and 8 bytes of payload.
	struct nlmsghdr orig = {};
	orig.nlmsg_len = NLMSG_HDRLEN + 8;
	orig.nlmsg_type = 0x20;
	nl::AttrWriter tlv;
	tlv.put_u32(NLMSGERR_ATTR_OFFS, 20);
	tlv.put_string(NLMSGERR_ATTR_MSG, text);
	std::size_t payload = sizeof(struct nlmsgerr) + (capped ? 0 : 8);
	std::vector<std::uint8_t> buf(NLMSG_HDRLEN + NLMSG_ALIGN(payload), 0);
	struct nlmsghdr h = {};
	h.nlmsg_type = NLMSG_ERROR;
	h.nlmsg_flags = static_cast<std::uint16_t>((capped ? NLM_F_CAPPED : 0) |
	                                           (tlv_flag ? NLM_F_ACK_TLVS : 0));
	struct nlmsgerr e = {};
	e.error = -err;
	e.msg = orig;
	std::memcpy(buf.data() + NLMSG_HDRLEN, &e, sizeof(e));
	if (!capped)
		std::memset(buf.data() + NLMSG_HDRLEN + sizeof(e), 0xab, 8);
	buf.insert(buf.end(), tlv.bytes().begin(), tlv.bytes().end());
	h.nlmsg_len = static_cast<std::uint32_t>(buf.size());
	std::memcpy(buf.data(), &h, sizeof(h));
	return buf;
}

std::string extack_of(const std::vector<std::uint8_t> &b)
{
	// Copy into aligned storage, as a socket buffer would be.
	std::vector<std::uint32_t> aligned((b.size() + 3) / 4);
	std::memcpy(aligned.data(), b.data(), b.size());
	return extack_message(reinterpret_cast<const struct nlmsghdr *>(aligned.data()), b.size());
}

TEST(Extack, ErrorMessagesCappedOrNot)
{
	EXPECT_EQ(extack_of(error_msg(EINVAL, true, "rp_gd out of range")), "rp_gd out of range");
	EXPECT_EQ(extack_of(error_msg(EINVAL, false, "with the request echoed")),
	          "with the request echoed");
	EXPECT_EQ(extack_of(error_msg(EINVAL, true, "flag missing", false)), "");
}

TEST(Extack, WarningInTheAckOfASuccess)
{
	// error 0: the kernel applied the request and warns (the request is
	// never echoed in an ACK of a success)
	EXPECT_EQ(extack_of(error_msg(0, true, "dcqcn: a period is shorter than one frame")),
	          "dcqcn: a period is shorter than one frame");
	EXPECT_EQ(extack_of(error_msg(0, true, "no TLVs", false)), "");
}

TEST(Extack, TruncatedOrForeignMessagesGiveNothing)
{
	std::vector<std::uint8_t> b = error_msg(EPERM, true, "x");
	EXPECT_EQ(extack_of(std::vector<std::uint8_t>(b.begin(), b.begin() + 10)), "");
	// nlmsg_len larger than the buffer
	std::vector<std::uint8_t> longer = b;
	longer[0] = static_cast<std::uint8_t>(longer[0] + 40);
	EXPECT_EQ(extack_of(longer), "");
	// An echoed request claiming more than there is.
	std::vector<std::uint8_t> u = error_msg(EPERM, false, "x");
	struct nlmsgerr e;
	std::memcpy(&e, u.data() + NLMSG_HDRLEN, sizeof(e));
	e.msg.nlmsg_len = 4096;
	std::memcpy(u.data() + NLMSG_HDRLEN, &e, sizeof(e));
	EXPECT_EQ(extack_of(u), "");
	// Not an error or done message.
	b[4] = 0x30;
	b[5] = 0;
	EXPECT_EQ(extack_of(b), "");
}

TEST(Extack, DoneMessageOfAFailedDump)
{
	nl::AttrWriter tlv;
	tlv.put_string(NLMSGERR_ATTR_MSG, "device went away");
	std::vector<std::uint8_t> buf(NLMSG_HDRLEN + 4, 0);
	int err = -ENODEV;
	std::memcpy(buf.data() + NLMSG_HDRLEN, &err, sizeof(err));
	buf.insert(buf.end(), tlv.bytes().begin(), tlv.bytes().end());
	struct nlmsghdr h = {};
	h.nlmsg_len = static_cast<std::uint32_t>(buf.size());
	h.nlmsg_type = NLMSG_DONE;
	h.nlmsg_flags = NLM_F_MULTI | NLM_F_ACK_TLVS;
	std::memcpy(buf.data(), &h, sizeof(h));
	EXPECT_EQ(extack_of(buf), "device went away");
}

} // namespace
} // namespace rxecc
