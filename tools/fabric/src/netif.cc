// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "netif.h"

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rxecc::fabric::proc
{

bool valid_ifname(const std::string &name)
{
	if (name.empty() || name.size() >= IFNAMSIZ || name == "." || name == "..")
		return false;
	for (char c : name) {
		if (c == '/' || c == ':' || c == '\0' || c == ' ' || c == '\t' || c == '\n')
			return false;
	}
	return true;
}

int interface_index(const std::string &name, std::string &err)
{
	if (!valid_ifname(name)) {
		err = "bad interface name '" + name + "'";
		return 0;
	}
	unsigned idx = if_nametoindex(name.c_str());
	if (idx == 0) {
		err = "no interface '" + name + "': " + std::strerror(errno);
		return 0;
	}
	return static_cast<int>(idx);
}

unsigned interface_mtu(const std::string &name, std::string &err)
{
	if (!valid_ifname(name)) {
		err = "bad interface name '" + name + "'";
		return 0;
	}
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = std::string("socket: ") + std::strerror(errno);
		return 0;
	}
	ifreq ifr{};
	std::memcpy(ifr.ifr_name, name.c_str(), name.size());
	int r = ioctl(fd, SIOCGIFMTU, &ifr);
	int e = errno;
	close(fd);
	if (r < 0 || ifr.ifr_mtu <= 0) {
		err = "MTU of '" + name + "': " + std::strerror(r < 0 ? e : EINVAL);
		return 0;
	}
	return static_cast<unsigned>(ifr.ifr_mtu);
}

bool interface_mac(const std::string &name, Mac &mac, std::string &err)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = std::string("socket: ") + std::strerror(errno);
		return false;
	}
	ifreq ifr{};
	std::memcpy(ifr.ifr_name, name.c_str(), name.size());
	int r = ioctl(fd, SIOCGIFHWADDR, &ifr);
	int e = errno;
	close(fd);
	if (r < 0) {
		err = "address of '" + name + "': " + std::strerror(e);
		return false;
	}
	for (size_t i = 0; i < 6; i++)
		mac[i] = static_cast<uint8_t>(ifr.ifr_hwaddr.sa_data[i]);
	return true;
}

} // namespace rxecc::fabric::proc
