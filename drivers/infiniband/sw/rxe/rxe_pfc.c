// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: honour 802.1Qbb PFC and 802.3x PAUSE frames.
 *
 * A virtual NIC ignores PAUSE frames. On the rxe devices the pfc_netdevs
 * module parameter names, a receive handler for ETH_P_PAUSE on the device's
 * netdev keeps, per 802.1p priority, the time the pause in force ends. The
 * transmit gate of the congestion control framework (rxe_cc_gate.c) asks
 * rxe_pfc_hold() before a QP sends data: a QP whose data maps to a paused
 * priority waits, and the gate arms the QP's timer for the end of the
 * pause. A resume (time 0) or a shorter pause runs the tasks of the waiting
 * QPs at once.
 *
 * The priority of a QP's data is the device's DSCP map applied to the DSCP
 * of its path: the dscp_prio module parameter when the device is created
 * (by default the testbed convention 26 -> 3, 48 -> 6, every other DSCP
 * 0), changed over netlink.
 *
 * Frame formats: Documentation/rxe-cc/user-guide.rst, "Honouring PFC PAUSE".
 */

#include <kunit/visibility.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/unaligned.h>

#include "rxe.h"
#include "rxe_cc.h"
#include "rxe_pfc.h"

/* MAC Control opcodes */
#define RXE_PFC_OP_PAUSE	0x0001	/* 802.3x: one time, every priority */
#define RXE_PFC_OP_PFC		0x0101	/* 802.1Qbb: vector and eight times */
/* opcode, priority enable vector and eight times */
#define RXE_PFC_CTRL_LEN	20
/* room for the pfc_netdevs and dscp_prio lists */
#define RXE_PFC_NETDEVS_LEN	256

static const u8 rxe_pfc_group_addr[ETH_ALEN] __aligned(2) = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x01
};

/* ---- module parameter ---------------------------------------------------- */

static char rxe_pfc_netdevs[RXE_PFC_NETDEVS_LEN];

/* Set pfc_netdevs: empty, "*", or netdev names separated by commas. */
static int rxe_pfc_netdevs_set(const char *val, const struct kernel_param *kp)
{
	char buf[RXE_PFC_NETDEVS_LEN], list[RXE_PFC_NETDEVS_LEN];
	char *s, *p, *name;

	if (strscpy(buf, val, sizeof(buf)) < 0) {
		pr_err("pfc_netdevs: longer than %zu characters\n",
		       sizeof(buf) - 1);
		return -EINVAL;
	}
	s = strim(buf);
	if (*s && strcmp(s, "*")) {
		strscpy(list, s, sizeof(list));
		p = list;
		while ((name = strsep(&p, ","))) {
			if (!dev_valid_name(name)) {
				pr_err("pfc_netdevs: '%s' is not a netdev name (use names separated by commas, or *)\n",
				       name);
				return -EINVAL;
			}
		}
	}
	strscpy(rxe_pfc_netdevs, s, sizeof(rxe_pfc_netdevs));
	return 0;
}

static int rxe_pfc_netdevs_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", rxe_pfc_netdevs);
}

static const struct kernel_param_ops rxe_pfc_netdevs_ops = {
	.set = rxe_pfc_netdevs_set,
	.get = rxe_pfc_netdevs_get,
};

module_param_cb(pfc_netdevs, &rxe_pfc_netdevs_ops, NULL, 0644);
MODULE_PARM_DESC(pfc_netdevs,
		 "netdevs whose rxe devices honour PFC/PAUSE frames: name,name,... or * (default none; read when a device is created)");

/* Does pfc_netdevs select the netdev called @ifname? */
static bool rxe_pfc_selected(const char *ifname)
{
	char list[RXE_PFC_NETDEVS_LEN];
	char *p = list, *name;

	kernel_param_lock(THIS_MODULE);
	strscpy(list, rxe_pfc_netdevs, sizeof(list));
	kernel_param_unlock(THIS_MODULE);

	if (!strcmp(list, "*"))
		return true;
	while ((name = strsep(&p, ",")))
		if (*name && !strcmp(name, ifname))
			return true;
	return false;
}

/**
 * rxe_pfc_parse_map - parse a DSCP to priority map
 * @s: "DSCP:PRIO" pairs separated by commas, e.g. "26:3,48:6"; DSCPs not
 *     named map to priority 0; an empty string maps all to 0
 * @prio: the map, RXE_PFC_DSCPS entries
 * @why: set to the reason on error
 *
 * Return: 0, or -EINVAL with @prio undefined.
 */
int rxe_pfc_parse_map(const char *s, u8 *prio, const char **why)
{
	char buf[RXE_PFC_NETDEVS_LEN], *p = buf, *pair, *colon;
	DECLARE_BITMAP(seen, RXE_PFC_DSCPS);
	unsigned int d, q;

	bitmap_zero(seen, RXE_PFC_DSCPS);
	memset(prio, 0, RXE_PFC_DSCPS);
	if (strscpy(buf, s, sizeof(buf)) < 0) {
		*why = "longer than 255 characters";
		return -EINVAL;
	}
	p = strim(buf);
	if (!*p)
		return 0;
	while ((pair = strsep(&p, ","))) {
		colon = strchr(pair, ':');
		if (!colon) {
			*why = "expected DSCP:PRIO pairs separated by commas";
			return -EINVAL;
		}
		*colon = '\0';
		if (kstrtouint(pair, 10, &d) || d >= RXE_PFC_DSCPS) {
			*why = "a DSCP is 0..63";
			return -EINVAL;
		}
		if (kstrtouint(colon + 1, 10, &q) || q >= RXE_PFC_PRIOS) {
			*why = "a priority is 0..7";
			return -EINVAL;
		}
		if (test_and_set_bit(d, seen)) {
			*why = "a DSCP is named twice";
			return -EINVAL;
		}
		prio[d] = q;
	}
	return 0;
}

static char rxe_pfc_dscp_prio[RXE_PFC_NETDEVS_LEN] = "26:3,48:6";

static int rxe_pfc_dscp_prio_set(const char *val,
				 const struct kernel_param *kp)
{
	u8 prio[RXE_PFC_DSCPS];
	const char *why;

	if (rxe_pfc_parse_map(val, prio, &why)) {
		pr_err("dscp_prio: %s\n", why);
		return -EINVAL;
	}
	strscpy(rxe_pfc_dscp_prio, val, sizeof(rxe_pfc_dscp_prio));
	strim(rxe_pfc_dscp_prio);
	return 0;
}

static int rxe_pfc_dscp_prio_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", rxe_pfc_dscp_prio);
}

static const struct kernel_param_ops rxe_pfc_dscp_prio_ops = {
	.set = rxe_pfc_dscp_prio_set,
	.get = rxe_pfc_dscp_prio_get,
};

module_param_cb(dscp_prio, &rxe_pfc_dscp_prio_ops, NULL, 0644);
MODULE_PARM_DESC(dscp_prio,
		 "802.1p priority of each DSCP for new rxe devices: DSCP:PRIO,... (default 26:3,48:6, others 0)");

/* ---- waiters --------------------------------------------------------------- */

/* A QP starts waiting for a pause; pd->lock held. */
static void rxe_pfc_waiter_add(struct rxe_pfc_dev *pd)
{
	if (!pd->waiters++)
		pd->since = ktime_get_ns();
}

/* A QP stops waiting; pd->lock held. Accounts the paused time. */
static void rxe_pfc_waiter_del(struct rxe_dev *rxe)
{
	struct rxe_pfc_dev *pd = &rxe->pfc;

	if (!WARN_ON_ONCE(!pd->waiters) && !--pd->waiters) {
		pd->paused_ns += ktime_get_ns() - pd->since;
		atomic64_set(&rxe->stats_counters[RXE_CNT_PFC_PAUSED_US],
			     div_u64(pd->paused_ns, NSEC_PER_USEC));
	}
}

/*
 * The pause of some of @prios ended or was shortened, or the DSCP map
 * changed: let their waiting QPs re-run the gate now. Receive softirq, or
 * process context.
 *
 * Ordering against rxe_pfc_hold(): the new pause times are written before
 * pd->lock is taken here, and a QP registers as a waiter under pd->lock
 * before it reads the pause time again. Either this function sees the
 * waiter, or the QP sees the new time.
 */
static void rxe_pfc_wake(struct rxe_dev *rxe, u8 prios)
{
	struct rxe_pfc_dev *pd = &rxe->pfc;
	struct rxe_pool_elem *elem;
	unsigned long index, flags;
	struct rxe_qp *qp;

	spin_lock_bh(&pd->lock);
	if (!pd->waiters)
		goto out;
	rcu_read_lock();
	xa_for_each(&rxe->qp_pool.xa, index, elem) {
		/* a QP being destroyed has no references left: skip it */
		if (!kref_get_unless_zero(&elem->ref_cnt))
			continue;
		qp = elem->obj;
		if (qp->pfc.wait && (prios & BIT(qp->pfc.prio))) {
			/* the gate of either task may be the one waiting */
			spin_lock_irqsave(&qp->state_lock, flags);
			if (qp->valid) {
				rxe_sched_task(&qp->send_task);
				rxe_sched_task(&qp->recv_task);
			}
			spin_unlock_irqrestore(&qp->state_lock, flags);
		}
		rxe_put(qp);
	}
	rcu_read_unlock();
out:
	spin_unlock_bh(&pd->lock);
}

/* ---- receive --------------------------------------------------------------- */

/* Pause time of @quanta pause quanta (512 bit times each) at @rate_bps. */
static u64 rxe_pfc_quanta_ns(u16 quanta, u64 rate_bps)
{
	/* at most 65535 * 512 * 10^9, far below 2^64 */
	u64 bits_ns = (u64)quanta * 512 * NSEC_PER_SEC;

	rate_bps = max_t(u64, rate_bps, 1);
	return div64_u64(bits_ns + rate_bps - 1, rate_bps);
}

/* Apply a valid frame: pause priority n of @prios for @quanta[n]. */
static void rxe_pfc_apply(struct rxe_dev *rxe, u8 prios, const u16 *quanta)
{
	struct rxe_pfc_dev *pd = &rxe->pfc;
	u64 rate = READ_ONCE(pd->rate_bps);
	u64 now = ktime_get_ns();
	bool paused = false, resumed = false;
	unsigned int n;
	u8 wake = 0;

	for (n = 0; n < RXE_PFC_PRIOS; n++) {
		u64 old, until = 0;

		if (!(prios & BIT(n)))
			continue;
		old = READ_ONCE(pd->until[n]);
		if (quanta[n]) {
			until = now + rxe_pfc_quanta_ns(quanta[n], rate);
			paused = true;
		} else {
			resumed = true;
		}
		WRITE_ONCE(pd->until[n], until);
		/* waiters of a pause that now ends earlier must re-check */
		if (old && rxe_cc_before(now, old) &&
		    (!until || rxe_cc_before(until, old)))
			wake |= BIT(n);
	}

	if (paused)
		rxe_counter_inc(rxe, RXE_CNT_PFC_PAUSE_RCVD);
	if (resumed)
		rxe_counter_inc(rxe, RXE_CNT_PFC_RESUME_RCVD);
	if (wake)
		rxe_pfc_wake(rxe, wake);
}

/*
 * ETH_P_PAUSE frames received on the device's netdev (NET_RX softirq). The
 * skb may be shared with taps: it is only read, and always consumed.
 */
VISIBLE_IF_KUNIT int rxe_pfc_rcv(struct sk_buff *skb, struct net_device *ndev,
				 struct packet_type *pt,
				 struct net_device *orig_dev)
{
	struct rxe_dev *rxe = container_of(pt, struct rxe_dev, pfc.pt);
	u16 quanta[RXE_PFC_PRIOS] = {};
	u8 buf[RXE_PFC_CTRL_LEN];
	const struct ethhdr *eth;
	const u8 *ctrl;
	unsigned int n;
	bool group;
	u16 vec;
	u8 prios;

	/*
	 * MAC Control frames are untagged; the stack strips the tag of an
	 * unknown VLAN but marks the frame PACKET_OTHERHOST.
	 */
	if (skb_vlan_tag_present(skb) || skb->pkt_type == PACKET_OTHERHOST ||
	    !skb_mac_header_was_set(skb))
		goto ignore;
	ctrl = skb_header_pointer(skb, 0, sizeof(buf), buf);
	if (!ctrl)
		goto ignore;
	eth = eth_hdr(skb);
	group = ether_addr_equal_unaligned(eth->h_dest, rxe_pfc_group_addr);

	switch (get_unaligned_be16(ctrl)) {
	case RXE_PFC_OP_PFC:
		vec = get_unaligned_be16(ctrl + 2);
		/* the upper byte of the enable vector is reserved, zero */
		if (!group || !vec || vec > 0xff)
			goto ignore;
		prios = vec;
		for (n = 0; n < RXE_PFC_PRIOS; n++)
			if (prios & BIT(n))
				quanta[n] = get_unaligned_be16(ctrl + 4 + 2 * n);
		break;
	case RXE_PFC_OP_PAUSE:
		if (!group &&
		    !ether_addr_equal_unaligned(eth->h_dest, ndev->dev_addr))
			goto ignore;
		prios = 0xff;
		for (n = 0; n < RXE_PFC_PRIOS; n++)
			quanta[n] = get_unaligned_be16(ctrl + 2);
		break;
	default:
		goto ignore;
	}

	rxe_pfc_apply(rxe, prios, quanta);
	consume_skb(skb);
	return NET_RX_SUCCESS;

ignore:
	rxe_counter_inc(rxe, RXE_CNT_PFC_IGNORED);
	kfree_skb(skb);
	return NET_RX_DROP;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_pfc_rcv);

/* ---- devices --------------------------------------------------------------- */

/**
 * rxe_pfc_dev_init - set a new device's DSCP map, and honour PAUSE if
 *	pfc_netdevs names @ndev
 * @rxe: a new device
 * @ndev: its netdev
 *
 * Process context, RTNL not held.
 */
void rxe_pfc_dev_init(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct rxe_pfc_dev *pd = &rxe->pfc;
	char name[IFNAMSIZ];
	const char *why;
	int err;

	spin_lock_init(&pd->lock);
	kernel_param_lock(THIS_MODULE);
	/* the setter accepted it, so it parses */
	WARN_ON(rxe_pfc_parse_map(rxe_pfc_dscp_prio, pd->prio, &why));
	kernel_param_unlock(THIS_MODULE);

	rtnl_lock();
	strscpy(name, ndev->name, sizeof(name));
	rtnl_unlock();
	if (!rxe_pfc_selected(name))
		return;

	/* the handler is bound to @ndev until rxe_pfc_dev_cleanup() */
	netdev_hold(ndev, &pd->tracker, GFP_KERNEL);
	pd->ndev = ndev;
	err = dev_mc_add(ndev, rxe_pfc_group_addr);
	if (err)
		netdev_warn(ndev, "rxe: PAUSE group address not added: %d\n",
			    err);
	pd->mc = !err;

	pd->pt.type = htons(ETH_P_PAUSE);
	pd->pt.dev = ndev;
	pd->pt.func = rxe_pfc_rcv;
	pd->on = true;
	dev_add_pack(&pd->pt);
	netdev_info(ndev, "rxe honours PFC and PAUSE frames\n");
}

/**
 * rxe_pfc_dev_cleanup - stop honouring PAUSE
 * @rxe: the device being freed (rxe_dealloc(), process context)
 *
 * Every QP of the device is gone. dev_remove_pack() waits for running
 * handlers, so none touches the device once it returns.
 */
void rxe_pfc_dev_cleanup(struct rxe_dev *rxe)
{
	struct rxe_pfc_dev *pd = &rxe->pfc;

	if (!pd->ndev)
		return;
	dev_remove_pack(&pd->pt);
	if (pd->mc)
		dev_mc_del(pd->ndev, rxe_pfc_group_addr);
	netdev_put(pd->ndev, &pd->tracker);
	pd->ndev = NULL;
	pd->mc = false;
	pd->on = false;
}

/* The line rate the quanta are converted with (device config lock held). */
void rxe_pfc_set_rate(struct rxe_dev *rxe, u64 rate_bps)
{
	WRITE_ONCE(rxe->pfc.rate_bps, rate_bps);
}

/*
 * The DSCP map (device config lock held). A QP's priority is read at each
 * gate decision, so the new map applies to the next packet; a QP waiting
 * for a pause of the priority its DSCP had asks again at once.
 */
void rxe_pfc_set_map(struct rxe_dev *rxe, const u8 *prio)
{
	unsigned int d;

	for (d = 0; d < RXE_PFC_DSCPS; d++)
		WRITE_ONCE(rxe->pfc.prio[d], prio[d]);
	rxe_pfc_wake(rxe, 0xff);
}

void rxe_pfc_get_map(struct rxe_dev *rxe, u8 *prio)
{
	unsigned int d;

	for (d = 0; d < RXE_PFC_DSCPS; d++)
		prio[d] = READ_ONCE(rxe->pfc.prio[d]);
}

/* ---- QPs ------------------------------------------------------------------- */

/* The 802.1p priority of the QP's data: the DSCP map of its path's DSCP. */
unsigned int rxe_pfc_qp_prio(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	u8 dscp = READ_ONCE(qp->pri_av.grh.traffic_class) >> 2;

	return READ_ONCE(rxe->pfc.prio[dscp]) & (RXE_PFC_PRIOS - 1);
}

/* QP creation: connected QPs of a device that honours PAUSE can be paused. */
void rxe_pfc_qp_init(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);

	qp->pfc.on = rxe->pfc.on &&
		     (qp_type(qp) == IB_QPT_RC || qp_type(qp) == IB_QPT_UC);
	qp->pfc.wait = false;
}

/**
 * rxe_pfc_hold - the PAUSE part of the transmit gate
 * @qp: a QP with qp->pfc.on set, before it sends a data packet (a request
 *	or a READ response)
 * @now: the time
 * @until: set to the end of the pause when the QP must wait
 *
 * If the priority of the QP's data is paused, the QP becomes a waiter
 * until a gate decision finds the pause over; the caller arms the QP's
 * timer for @until, and an earlier resume runs the QP's tasks at once.
 *
 * Return: true if the QP must not send now.
 */
bool rxe_pfc_hold(struct rxe_qp *qp, u64 now, u64 *until)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_pfc_dev *pd = &rxe->pfc;
	struct rxe_pfc_qp *pq = &qp->pfc;
	bool held = false, first = false;
	unsigned int prio;
	u64 t;

	prio = rxe_pfc_qp_prio(qp);
	t = READ_ONCE(pd->until[prio]);
	if (!t && !READ_ONCE(pq->wait))
		return false;

	spin_lock_bh(&pd->lock);
	if (!pq->wait) {
		/*
		 * A QP in ERR does not start waiting. rxe_pfc_qp_stop() runs
		 * after the state is set and takes pd->lock: either it finds
		 * this registration and ends it, or this check sees ERR.
		 */
		if (!t || !rxe_cc_before(now, t) || qp_state(qp) == IB_QPS_ERR)
			goto out;
		pq->wait = true;
		rxe_pfc_waiter_add(pd);
		first = true;
	}
	pq->prio = prio;
	/* again, as a registered waiter: see rxe_pfc_wake() */
	t = READ_ONCE(pd->until[prio]);
	if (t && rxe_cc_before(now, t)) {
		held = true;
		*until = t;
	} else {
		pq->wait = false;
		rxe_pfc_waiter_del(rxe);
	}
out:
	spin_unlock_bh(&pd->lock);

	if (held && first)
		rxe_counter_inc(rxe, RXE_CNT_PFC_WAITS);
	return held;
}

/*
 * The QP no longer sends: it entered ERR (after the state was set), or its
 * congestion control state ends (RESET or destroy, tasks disabled). Process
 * context or a QP task. Once it no longer waits, rxe_pfc_wake() leaves it
 * alone.
 */
void rxe_pfc_qp_stop(struct rxe_qp *qp)
{
	struct rxe_pfc_dev *pd = &to_rdev(qp->ibqp.device)->pfc;

	if (!qp->pfc.on)
		return;
	spin_lock_bh(&pd->lock);
	if (qp->pfc.wait) {
		qp->pfc.wait = false;
		rxe_pfc_waiter_del(to_rdev(qp->ibqp.device));
	}
	spin_unlock_bh(&pd->lock);
}
