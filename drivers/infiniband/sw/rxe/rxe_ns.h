/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe network namespace support: per-namespace RoCEv2 UDP sockets.
 */

#ifndef RXE_NS_H
#define RXE_NS_H

#include <linux/types.h>

struct net;
struct sock;
struct sk_buff;
struct rxe_dev;

int rxe_ns_init(void);
void rxe_ns_exit(void);

int rxe_ns_dev_attach(struct rxe_dev *rxe, struct net *net);
void rxe_ns_dev_detach(struct rxe_dev *rxe);

struct sock *rxe_ns_sk6(struct net *net);
void rxe_ns_set_port2(u16 port);
void rxe_ns_set_port3(u16 port,
		      int (*rcv)(struct sock *sk, struct sk_buff *skb));

#endif /* RXE_NS_H */
