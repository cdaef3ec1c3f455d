// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe network namespace support.
 *
 * Every network namespace that holds at least one rxe device gets its own
 * pair of RoCEv2 UDP tunnel sockets (IPv4 and IPv6, port 4791), and a second
 * pair on another port if one was set with rxe_ns_set_port2() (a port that
 * carries RoCEv2 with a shim before the BTH), and a third pair with its own
 * receive function if one was set with rxe_ns_set_port3() (SFC's
 * back-to-sender packets, which are not RoCEv2). The sockets are opened
 * when the first rxe device is created on a netdev of that namespace and
 * closed when the last such device is freed, so namespaces without rxe
 * devices never have the ports taken.
 *
 * Lifetime: neither rxe devices nor their per-QP kernel sockets hold a
 * reference on the namespace. Instead the namespace exit handler waits until
 * every rxe device that was attached to the namespace has been freed. The
 * netdevs of a dying namespace are unregistered before pernet subsystems
 * exit, and that queues the unregistration of their rxe devices, so the wait
 * ends once the devices' last users (e.g. open verbs contexts) are gone.
 */

#include <linux/mutex.h>
#include <linux/wait.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_verbs.h>

#include "rxe.h"
#include "rxe_net.h"
#include "rxe_ns.h"

/* How often a namespace exit that waits for rxe devices reports it. */
#define RXE_NS_EXIT_WARN_SECS	30

struct rxe_ns {
	struct socket		*sk4;
	struct socket		*sk6;
	struct socket		*sk4_2;	/* on rxe_ns_port2, if set */
	struct socket		*sk6_2;
	struct socket		*sk4_3;	/* on rxe_ns_port3, if set */
	struct socket		*sk6_3;
	unsigned int		ndev;	/* attached rxe devices; written under rxe_ns_lock */
	wait_queue_head_t	wait;
};

static unsigned int rxe_ns_id __read_mostly;
static u16 rxe_ns_port2 __read_mostly;
static u16 rxe_ns_port3 __read_mostly;
static udp_tunnel_encap_rcv_t rxe_ns_rcv3 __read_mostly;

/* serialises socket open/close and the device count of every namespace */
static DEFINE_MUTEX(rxe_ns_lock);

static struct rxe_ns *rxe_ns_get(struct net *net)
{
	return net_generic(net, rxe_ns_id);
}

static struct socket *rxe_ns_udp_open(struct net *net, bool ipv6, u16 port,
				      udp_tunnel_encap_rcv_t rcv)
{
	struct udp_tunnel_sock_cfg tnl_cfg = {};
	struct udp_port_cfg udp_cfg = {};
	struct socket *sock;
	int err;

	if (ipv6) {
		udp_cfg.family = AF_INET6;
		udp_cfg.ipv6_v6only = 1;
	} else {
		udp_cfg.family = AF_INET;
	}
	udp_cfg.local_udp_port = htons(port);

	err = udp_sock_create(net, &udp_cfg, &sock);
	if (err < 0)
		return ERR_PTR(err);

	tnl_cfg.encap_type = 1;
	tnl_cfg.encap_rcv = rcv;
	setup_udp_tunnel_sock(net, sock, &tnl_cfg);

	return sock;
}

static void rxe_ns_release(struct socket **sk)
{
	if (*sk) {
		udp_tunnel_sock_release(*sk);
		WRITE_ONCE(*sk, NULL);
	}
}

static void rxe_ns_close(struct rxe_ns *ns)
{
	rxe_ns_release(&ns->sk6_3);
	rxe_ns_release(&ns->sk4_3);
	rxe_ns_release(&ns->sk6_2);
	rxe_ns_release(&ns->sk4_2);
	rxe_ns_release(&ns->sk6);
	rxe_ns_release(&ns->sk4);
}

/* the IPv4 and IPv6 sockets on @port, or none if IPv6 is not supported */
static int rxe_ns_open_port(struct net *net, u16 port,
			    udp_tunnel_encap_rcv_t rcv, struct socket **sk4,
			    struct socket **sk6)
{
	struct socket *sock;

	sock = rxe_ns_udp_open(net, false, port, rcv);
	if (IS_ERR(sock)) {
		pr_err("failed to open the IPv4 socket on UDP port %u: %pe\n",
		       port, sock);
		return PTR_ERR(sock);
	}
	WRITE_ONCE(*sk4, sock);

	if (!IS_ENABLED(CONFIG_IPV6))
		return 0;

	sock = rxe_ns_udp_open(net, true, port, rcv);
	if (PTR_ERR(sock) == -EAFNOSUPPORT) {
		pr_warn_once("IPv6 is not supported, no UDPv6 socket\n");
		return 0;
	}
	if (IS_ERR(sock)) {
		pr_err("failed to open the IPv6 socket on UDP port %u: %pe\n",
		       port, sock);
		return PTR_ERR(sock);
	}
	WRITE_ONCE(*sk6, sock);

	return 0;
}

static int rxe_ns_open(struct net *net, struct rxe_ns *ns)
{
	int err;

	err = rxe_ns_open_port(net, ROCE_V2_UDP_DPORT, rxe_udp_encap_recv,
			       &ns->sk4, &ns->sk6);
	if (!err && rxe_ns_port2)
		err = rxe_ns_open_port(net, rxe_ns_port2, rxe_udp_encap_recv,
				       &ns->sk4_2, &ns->sk6_2);
	if (!err && rxe_ns_port3)
		err = rxe_ns_open_port(net, rxe_ns_port3, rxe_ns_rcv3,
				       &ns->sk4_3, &ns->sk6_3);
	if (err)
		rxe_ns_close(ns);
	return err;
}

/**
 * rxe_ns_set_port2 - receive RoCEv2 on a second UDP port too
 * @port: the port, 0 for none
 *
 * For namespaces whose sockets open afterwards: call it before the first
 * rxe device is created. rxe_udp_encap_recv() receives on both ports.
 */
void rxe_ns_set_port2(u16 port)
{
	rxe_ns_port2 = port;
}

/**
 * rxe_ns_set_port3 - receive another protocol on a third UDP port
 * @port: the port, 0 for none
 * @rcv: what receives its packets (as a UDP tunnel's encap_rcv)
 *
 * For namespaces whose sockets open afterwards: call it before the first
 * rxe device is created.
 */
void rxe_ns_set_port3(u16 port,
		      int (*rcv)(struct sock *sk, struct sk_buff *skb))
{
	rxe_ns_rcv3 = rcv;
	rxe_ns_port3 = port;
}

/**
 * rxe_ns_dev_attach - account a new rxe device to its netdev's namespace
 * @rxe: the device being created
 * @net: namespace of the device's netdev
 *
 * Opens the namespace's sockets for the first device. Must be balanced by
 * rxe_ns_dev_detach(), which rxe_dealloc() calls.
 *
 * Return: 0, or a negative errno if the sockets cannot be opened.
 */
int rxe_ns_dev_attach(struct rxe_dev *rxe, struct net *net)
{
	struct rxe_ns *ns = rxe_ns_get(net);
	int err = 0;

	mutex_lock(&rxe_ns_lock);
	if (!ns->ndev)
		err = rxe_ns_open(net, ns);
	if (!err) {
		WRITE_ONCE(ns->ndev, ns->ndev + 1);
		rxe->ns_net = net;
	}
	mutex_unlock(&rxe_ns_lock);

	return err;
}

/**
 * rxe_ns_dev_detach - drop a device from its namespace
 * @rxe: the device being freed; no QP of it may remain
 *
 * Idempotent. Closes the namespace's sockets with the last device.
 */
void rxe_ns_dev_detach(struct rxe_dev *rxe)
{
	struct net *net = rxe->ns_net;
	struct rxe_ns *ns;

	if (!net)
		return;

	ns = rxe_ns_get(net);
	mutex_lock(&rxe_ns_lock);
	rxe->ns_net = NULL;
	if (!WARN_ON(!ns->ndev)) {
		/* close first: a namespace exit may proceed once ndev is 0 */
		if (ns->ndev == 1)
			rxe_ns_close(ns);
		WRITE_ONCE(ns->ndev, ns->ndev - 1);
		if (!ns->ndev)
			wake_up_all(&ns->wait);
	}
	mutex_unlock(&rxe_ns_lock);
}

/**
 * rxe_ns_sk6 - the namespace's IPv6 tunnel socket, for route lookups
 * @net: a namespace with at least one rxe device
 *
 * Return: the socket, or NULL if the namespace has no IPv6 socket.
 */
struct sock *rxe_ns_sk6(struct net *net)
{
	struct socket *sock = READ_ONCE(rxe_ns_get(net)->sk6);

	return sock ? sock->sk : NULL;
}

static int __net_init rxe_ns_net_init(struct net *net)
{
	struct rxe_ns *ns = rxe_ns_get(net);

	init_waitqueue_head(&ns->wait);

	return 0;
}

static void __net_exit rxe_ns_net_exit(struct net *net)
{
	struct rxe_ns *ns = rxe_ns_get(net);

	while (!wait_event_timeout(ns->wait, !READ_ONCE(ns->ndev),
				   RXE_NS_EXIT_WARN_SECS * HZ))
		pr_warn("namespace exit waits for %u rxe device(s) still in use\n",
			READ_ONCE(ns->ndev));

	/*
	 * The last detach may still be waking us up; taking the lock waits
	 * for it to leave ns before the namespace is freed.
	 */
	mutex_lock(&rxe_ns_lock);
	WARN_ON(ns->sk4 || ns->sk6 || ns->sk4_2 || ns->sk6_2);
	mutex_unlock(&rxe_ns_lock);
}

static struct pernet_operations rxe_ns_ops = {
	.init = rxe_ns_net_init,
	.exit = rxe_ns_net_exit,
	.id = &rxe_ns_id,
	.size = sizeof(struct rxe_ns),
};

int rxe_ns_init(void)
{
	return register_pernet_subsys(&rxe_ns_ops);
}

void rxe_ns_exit(void)
{
	unregister_pernet_subsys(&rxe_ns_ops);
}
