// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <gtest/gtest.h>

#include "attach.h"
#include "topology.h"

using namespace rxecc::fabric;
using namespace rxecc::fabric::proc;

TEST(AttachSpec, Interface)
{
	AttachSpec a;
	std::string err;
	ASSERT_TRUE(parse_attach_spec("if:veth1", a, err)) << err;
	EXPECT_EQ(a.kind, AttachKind::kIf);
	EXPECT_EQ(a.ifname, "veth1");
	EXPECT_EQ(a.text, "if:veth1");
	EXPECT_EQ(a.resource(), "interface veth1");
}

TEST(AttachSpec, Dgram)
{
	AttachSpec a;
	std::string err;
	ASSERT_TRUE(parse_attach_spec("dgram:127.0.0.1:5000:10.0.0.2:6000", a, err)) << err;
	EXPECT_EQ(a.kind, AttachKind::kDgram);
	EXPECT_EQ(a.local.to_string(), "127.0.0.1:5000");
	EXPECT_EQ(a.remote.to_string(), "10.0.0.2:6000");
	EXPECT_FALSE(a.local.v6);
	ASSERT_TRUE(parse_attach_spec("dgram:[::1]:5000:[fd00::2]:65535", a, err)) << err;
	EXPECT_TRUE(a.local.v6);
	EXPECT_EQ(a.local.to_string(), "[::1]:5000");
	EXPECT_EQ(a.remote.to_string(), "[fd00::2]:65535");
	ASSERT_TRUE(parse_attach_spec("dgram:localhost:1:localhost:2", a, err)) << err;
	EXPECT_EQ(a.local.to_string(), "127.0.0.1:1");
	EXPECT_EQ(a.resource(), "UDP 127.0.0.1:1");
}

TEST(AttachSpec, UnixDgram)
{
	AttachSpec a;
	std::string err;
	ASSERT_TRUE(parse_attach_spec("dgram:/run/fab/f0.sock:/run/fab/q0.sock", a, err)) << err;
	EXPECT_EQ(a.kind, AttachKind::kUnixDgram);
	EXPECT_EQ(a.path, "/run/fab/f0.sock");
	EXPECT_EQ(a.remote_path, "/run/fab/q0.sock");
	EXPECT_EQ(a.resource(), "socket /run/fab/f0.sock");
	std::string longest = "/" + std::string(kMaxUnixPath - 1, 'x');
	ASSERT_TRUE(parse_attach_spec("dgram:" + longest + ":/q", a, err)) << err;
	EXPECT_FALSE(parse_attach_spec("dgram:" + longest + "y:/q", a, err));
	EXPECT_NE(err.find("absolute paths"), std::string::npos) << err;
	EXPECT_FALSE(parse_attach_spec("dgram:/a:/a", a, err));
	EXPECT_NE(err.find("the same"), std::string::npos) << err;
}

TEST(AttachSpec, Stream)
{
	AttachSpec a;
	std::string err;
	ASSERT_TRUE(parse_attach_spec("stream:/tmp/vm1.sock", a, err)) << err;
	EXPECT_EQ(a.kind, AttachKind::kStream);
	EXPECT_EQ(a.path, "/tmp/vm1.sock");
}

TEST(AttachSpec, RejectsBad)
{
	const char *bad[] = {
		"",
		"veth1",
		"if:",
		"if:waytoolonginterfacename",
		"if:a/b",
		"if:a:b",
		"tap:x",
		"dgram:",
		"dgram:127.0.0.1:5000",
		"dgram:127.0.0.1:5000:",
		"dgram:127.0.0.1:5000:127.0.0.1",
		"dgram:127.0.0.1:5000:127.0.0.1:0",
		"dgram:127.0.0.1:5000:127.0.0.1:65536",
		"dgram:127.0.0.1:5000:127.0.0.1:6000:",
		"dgram:127.0.0.1:5000:127.0.0.1:6000:7",
		"dgram:127.0.0.256:5000:127.0.0.1:6000",
		"dgram:host.example:5000:127.0.0.1:6000",
		"dgram:[::1:5000:[::1]:6000",
		"dgram:[::1]:5000:127.0.0.1:6000",
		"dgram:[127.0.0.1]:5000:[::1]:6000",
		"dgram:127.0.0.1:x:127.0.0.1:6000",
		"dgram:/tmp/f.sock",
		"dgram:/tmp/f.sock:",
		"dgram:/tmp/f.sock:q.sock",
		"dgram:/tmp/f.sock:/tmp/q:1.sock",
		"dgram:/tmp/dir/:/tmp/q.sock",
		"dgram:/tmp/f.sock:/tmp/dir/",
		"dgram:/tmp/f.sock:127.0.0.1:6000",
		"stream:",
		"stream:/tmp/dir/",
	};
	for (const char *s : bad) {
		AttachSpec a;
		std::string err;
		EXPECT_FALSE(parse_attach_spec(s, a, err)) << s;
		EXPECT_FALSE(err.empty()) << s;
	}
	AttachSpec a;
	std::string err;
	EXPECT_FALSE(parse_attach_spec("stream:/" + std::string(107, 'x'), a, err));
}

namespace
{

Topology topo()
{
	auto r = parse_topology("switch s0 buffer=1MB\n"
	                        "port s0:h1 rate=1G delay=1us attach=if:lo\n"
	                        "port s0:h2 rate=1G delay=1us\n"
	                        "switch s1 buffer=1MB\n"
	                        "port s1:h3 rate=1G delay=1us attach=stream:/tmp/h3.sock\n"
	                        "link s0:up s1:down rate=1G delay=1us\n");
	EXPECT_TRUE(r) << r.error.to_string();
	return *r.topology;
}

} // namespace

TEST(ResolveAttachments, TopologyAndOverrides)
{
	std::vector<PortAttachment> out;
	std::string err;
	ASSERT_TRUE(resolve_attachments(topo(),
	                                {{"s0", "h2", "dgram:127.0.0.1:1:127.0.0.1:2"},
	                                 {"s1", "h3", "stream:/tmp/other.sock"}},
	                                false, out, err))
		<< err;
	ASSERT_EQ(out.size(), 3u);
	EXPECT_EQ(out[0].name, "s0:h1");
	EXPECT_EQ(out[0].spec.text, "if:lo");
	EXPECT_EQ(out[1].name, "s0:h2");
	EXPECT_EQ(out[1].port, 1);
	EXPECT_EQ(out[2].name, "s1:h3");
	EXPECT_EQ(out[2].sw, 1);
	EXPECT_EQ(out[2].spec.path, "/tmp/other.sock");
}

TEST(ResolveAttachments, ErrorsNameThePort)
{
	struct Case {
		std::vector<AttachArg> args;
		std::string msg;
	};
	const std::vector<Case> cases = {
		{{}, "port s0:h2 is not attached"},
		{{{"s9", "h2", "if:lo"}}, "-a s9:h2: no switch 's9'"},
		{{{"s0", "h9", "if:lo"}}, "switch s0 has no port 'h9'"},
		{{{"s0", "up", "if:lo"}}, "-a s0:up: an internal link end"},
		{{{"s0", "h2", "if:lo"}, {"s0", "h2", "if:lo"}}, "port attached twice"},
		{{{"s0", "h2", "if:lo"}}, "interface lo is already attached to port s0:h1"},
		{{{"s0", "h2", "bogus"}}, "port s0:h2 (-a): bad attachment 'bogus'"},
	};
	for (const auto &c : cases) {
		std::vector<PortAttachment> out;
		std::string err;
		EXPECT_FALSE(resolve_attachments(topo(), c.args, false, out, err)) << c.msg;
		EXPECT_NE(err.find(c.msg), std::string::npos) << err;
		EXPECT_TRUE(out.empty());
	}
}

TEST(ResolveAttachments, MissingInterface)
{
	std::vector<PortAttachment> out;
	std::string err;
	EXPECT_FALSE(resolve_attachments(topo(), {{"s0", "h2", "if:rxnosuch0"}}, true, out, err));
	EXPECT_NE(err.find("port s0:h2: no interface 'rxnosuch0'"), std::string::npos) << err;
	EXPECT_TRUE(resolve_attachments(topo(), {{"s0", "h2", "if:rxnosuch0"}}, false, out, err));
}
