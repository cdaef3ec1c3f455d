// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Network interface look-ups for if: ports and send-pfc.
#ifndef RXECC_FABRIC_PROC_NETIF_H
#define RXECC_FABRIC_PROC_NETIF_H

#include <string>

#include "packet.h"

namespace rxecc::fabric::proc
{

// 1..15 bytes, no '/', ':', whitespace or NUL (what the kernel accepts,
// minus ':' which the attach syntax uses).
bool valid_ifname(const std::string &name);
// The ifindex, or 0 with *err ("no interface 'x'").
int interface_index(const std::string &name, std::string &err);
// The MTU, or 0 with *err.
unsigned interface_mtu(const std::string &name, std::string &err);
bool interface_mac(const std::string &name, Mac &mac, std::string &err);

} // namespace rxecc::fabric::proc

#endif
