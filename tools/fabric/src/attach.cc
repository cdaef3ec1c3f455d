// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "attach.h"

#include <arpa/inet.h>

#include <map>
#include <set>

#include "args.h"
#include "netif.h"

namespace rxecc::fabric::proc
{

namespace
{

// Takes "HOST:PORT" from the front of s (pos advances past it and the
// following ':' if any).
bool take_hostport(const std::string &s, size_t &pos, InetAddr &out, std::string &err)
{
	std::string host;
	if (pos < s.size() && s[pos] == '[') {
		size_t close = s.find(']', pos);
		if (close == std::string::npos) {
			err = "missing ']'";
			return false;
		}
		host = s.substr(pos + 1, close - pos - 1);
		pos = close + 1;
		out.v6 = true;
	} else {
		size_t colon = s.find(':', pos);
		if (colon == std::string::npos) {
			err = "missing port";
			return false;
		}
		host = s.substr(pos, colon - pos);
		pos = colon;
		out.v6 = false;
	}
	if (pos >= s.size() || s[pos] != ':') {
		err = "missing port after host '" + host + "'";
		return false;
	}
	pos++;
	size_t end = s.find(':', pos);
	std::string port = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
	pos = end == std::string::npos ? s.size() : end + 1;
	out.addr.fill(0);
	if (out.v6) {
		if (inet_pton(AF_INET6, host.c_str(), out.addr.data()) != 1) {
			err = "bad IPv6 address '" + host + "'";
			return false;
		}
	} else {
		if (host == "localhost")
			host = "127.0.0.1";
		if (inet_pton(AF_INET, host.c_str(), out.addr.data()) != 1) {
			err = "bad host '" + host + "' (IPv4 address, [IPv6] or localhost)";
			return false;
		}
	}
	auto p = parse_uint(port, 65535);
	if (!p || *p == 0) {
		err = "bad port '" + port + "' (1..65535)";
		return false;
	}
	out.port = static_cast<uint16_t>(*p);
	return true;
}

bool valid_socket_path(const std::string &p)
{
	return !p.empty() && p.size() <= kMaxUnixPath && p.find('\0') == std::string::npos &&
	       p.back() != '/';
}

// dgram:LPATH:RPATH (s[6] is '/').
bool parse_unix_dgram(const std::string &s, AttachSpec &a, std::string &err)
{
	const std::string rule = " (two absolute paths of 1.." + std::to_string(kMaxUnixPath) +
	                         " bytes, file names without ':')";
	size_t colon = s.find(':', 6);
	if (colon == std::string::npos) {
		err = "missing remote path in '" + s + "'" + rule;
		return false;
	}
	a.kind = AttachKind::kUnixDgram;
	a.path = s.substr(6, colon - 6);
	a.remote_path = s.substr(colon + 1);
	if (!valid_socket_path(a.path) || !valid_socket_path(a.remote_path) ||
	    a.remote_path[0] != '/' || a.remote_path.find(':') != std::string::npos) {
		err = "bad socket paths in '" + s + "'" + rule;
		return false;
	}
	if (a.path == a.remote_path) {
		err = "local and remote socket are the same in '" + s + "'";
		return false;
	}
	return true;
}

} // namespace

std::string InetAddr::to_string() const
{
	char buf[INET6_ADDRSTRLEN] = "";
	inet_ntop(v6 ? AF_INET6 : AF_INET, addr.data(), buf, sizeof(buf));
	std::string h = v6 ? "[" + std::string(buf) + "]" : std::string(buf);
	return h + ":" + std::to_string(port);
}

std::string AttachSpec::resource() const
{
	switch (kind) {
	case AttachKind::kIf: return "interface " + ifname;
	case AttachKind::kDgram: return "UDP " + local.to_string();
	case AttachKind::kUnixDgram:
	case AttachKind::kStream: return "socket " + path;
	}
	return "";
}

bool parse_attach_spec(const std::string &s, AttachSpec &out, std::string &err)
{
	AttachSpec a;
	a.text = s;
	const std::string form =
		" (if:IFNAME, dgram:LHOST:LPORT:RHOST:RPORT, dgram:LPATH:RPATH or stream:PATH)";
	if (s.rfind("if:", 0) == 0) {
		a.kind = AttachKind::kIf;
		a.ifname = s.substr(3);
		if (!valid_ifname(a.ifname)) {
			err = "bad interface name in '" + s + "'";
			return false;
		}
	} else if (s.rfind("dgram:/", 0) == 0) {
		if (!parse_unix_dgram(s, a, err))
			return false;
	} else if (s.rfind("dgram:", 0) == 0) {
		a.kind = AttachKind::kDgram;
		size_t pos = 6;
		std::string e;
		if (!take_hostport(s, pos, a.local, e)) {
			err = "bad local address in '" + s + "': " + e;
			return false;
		}
		if (pos >= s.size()) {
			err = "missing remote address in '" + s + "'";
			return false;
		}
		if (!take_hostport(s, pos, a.remote, e)) {
			err = "bad remote address in '" + s + "': " + e;
			return false;
		}
		if (pos < s.size() || s.back() == ':') {
			err = "trailing text in '" + s + "'";
			return false;
		}
		if (a.local.v6 != a.remote.v6) {
			err = "local and remote address families differ in '" + s + "'";
			return false;
		}
	} else if (s.rfind("stream:", 0) == 0) {
		a.kind = AttachKind::kStream;
		a.path = s.substr(7);
		if (!valid_socket_path(a.path)) {
			err = "bad socket path in '" + s + "' (1.." + std::to_string(kMaxUnixPath) +
			      " bytes, a file name)";
			return false;
		}
	} else {
		err = "bad attachment '" + s + "'" + form;
		return false;
	}
	out = a;
	return true;
}

bool resolve_attachments(const Topology &topo, const std::vector<AttachArg> &args,
                         bool check_interfaces, std::vector<PortAttachment> &out, std::string &err)
{
	std::vector<std::string> errors;
	std::set<std::pair<int, int>> internal;
	for (const auto &l : topo.links) {
		internal.insert({l.sw_a, l.port_a});
		internal.insert({l.sw_b, l.port_b});
	}
	// (sw, port) -> spec text and where it came from.
	std::map<std::pair<int, int>, std::pair<std::string, std::string>> chosen;
	for (size_t s = 0; s < topo.switches.size(); s++) {
		const auto &sc = topo.switches[s];
		for (size_t p = 0; p < sc.ports.size(); p++) {
			auto key = std::make_pair(static_cast<int>(s), static_cast<int>(p));
			if (!internal.count(key) && !sc.ports[p].attach.empty())
				chosen[key] = {sc.ports[p].attach, "attach= of the topology"};
		}
	}
	std::set<std::pair<int, int>> given;
	for (const auto &a : args) {
		std::string name = a.sw + ":" + a.port;
		int s = topo.find_switch(a.sw);
		if (s < 0) {
			errors.push_back("-a " + name + ": no switch '" + a.sw + "'");
			continue;
		}
		int p = topo.switches[static_cast<size_t>(s)].find_port(a.port);
		if (p < 0) {
			errors.push_back("-a " + name + ": switch " + a.sw + " has no port '" +
			                 a.port + "'");
			continue;
		}
		auto key = std::make_pair(s, p);
		if (internal.count(key)) {
			errors.push_back("-a " + name +
			                 ": an internal link end cannot be attached");
			continue;
		}
		if (!given.insert(key).second) {
			errors.push_back("-a " + name + ": port attached twice");
			continue;
		}
		chosen[key] = {a.spec, "-a"};
	}
	std::vector<PortAttachment> res;
	std::map<std::string, std::string> owner; // resource -> port name
	for (size_t s = 0; s < topo.switches.size(); s++) {
		const auto &sc = topo.switches[s];
		for (size_t p = 0; p < sc.ports.size(); p++) {
			auto key = std::make_pair(static_cast<int>(s), static_cast<int>(p));
			if (internal.count(key))
				continue;
			std::string name = sc.name + ":" + sc.ports[p].name;
			auto it = chosen.find(key);
			if (it == chosen.end()) {
				errors.push_back("port " + name + " is not attached (use -a " +
				                 name + "=SPEC or attach= in the topology)");
				continue;
			}
			PortAttachment pa;
			pa.sw = key.first;
			pa.port = key.second;
			pa.name = name;
			std::string e;
			if (!parse_attach_spec(it->second.first, pa.spec, e)) {
				errors.push_back("port " + name + " (" + it->second.second +
				                 "): " + e);
				continue;
			}
			auto [o, fresh] = owner.emplace(pa.spec.resource(), name);
			if (!fresh) {
				errors.push_back("port " + name + ": " + pa.spec.resource() +
				                 " is already attached to port " + o->second);
				continue;
			}
			if (check_interfaces && pa.spec.kind == AttachKind::kIf &&
			    interface_index(pa.spec.ifname, e) <= 0) {
				errors.push_back("port " + name + ": " + e);
				continue;
			}
			res.push_back(pa);
		}
	}
	if (!errors.empty()) {
		err.clear();
		for (size_t i = 0; i < errors.size(); i++)
			err += (i ? "\n" : "") + errors[i];
		return false;
	}
	out = std::move(res);
	return true;
}

} // namespace rxecc::fabric::proc
