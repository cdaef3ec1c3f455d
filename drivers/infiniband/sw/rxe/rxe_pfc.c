// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: honour 802.1Qbb PFC and 802.3x PAUSE frames.
 *
 * A virtual NIC ignores PAUSE frames. On the rxe devices the pfc_netdevs
 * module parameter names, a receive handler for ETH_P_PAUSE on the device's
 * netdev keeps, per 802.1p priority, the time the pause in force ends. The
 * transmit gate of the congestion control framework (rxe_cc_hold_slow())
 * holds a QP whose data maps to a paused priority and arms the QP's pacer
 * timer for the end of the pause. A resume (time 0) or a shorter pause
 * re-arms the timers of the waiting QPs to fire at once.
 *
 * Frame formats: Documentation/rxe-cc/user-guide.rst, "Honouring PFC PAUSE".
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/unaligned.h>

#include "rxe.h"
#include "rxe_pfc.h"

/* MAC Control opcodes */
#define RXE_PFC_OP_PAUSE	0x0001	/* 802.3x: one time, every priority */
#define RXE_PFC_OP_PFC		0x0101	/* 802.1Qbb: vector and eight times */
/* opcode, priority enable vector and eight times */
#define RXE_PFC_CTRL_LEN	20
/* wake-up slack of a paused QP's timer */
#define RXE_PFC_TIMER_SLACK_NS	(20 * NSEC_PER_USEC)
/* room for the pfc_netdevs list */
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

/* ---- waiters --------------------------------------------------------------- */

/* A QP starts waiting for a pause; BH disabled (under its cc lock). */
static void rxe_pfc_waiter_add(struct rxe_pfc_dev *pd)
{
	spin_lock(&pd->lock);
	if (!pd->waiters++)
		pd->since = ktime_get_ns();
	spin_unlock(&pd->lock);
}

/* A QP stops waiting; BH disabled. Accounts the paused time. */
static void rxe_pfc_waiter_del(struct rxe_dev *rxe)
{
	struct rxe_pfc_dev *pd = &rxe->cc.pfc;

	spin_lock(&pd->lock);
	if (!WARN_ON_ONCE(!pd->waiters) && !--pd->waiters) {
		pd->paused_ns += ktime_get_ns() - pd->since;
		atomic64_set(&rxe->stats_counters[RXE_CNT_PFC_PAUSED_US],
			     div_u64(pd->paused_ns, NSEC_PER_USEC));
	}
	spin_unlock(&pd->lock);
}

/*
 * The pause of some of @prios ended or was shortened: let their waiting QPs
 * re-run the gate now. Receive softirq.
 *
 * Ordering against rxe_pfc_hold(): the new pause times are written before
 * pd->lock is taken here, and a QP registers as a waiter under pd->lock
 * before it reads the pause time again. Either this function sees the
 * waiter, or the QP sees the new time.
 */
static void rxe_pfc_wake(struct rxe_dev *rxe, u8 prios)
{
	struct rxe_pfc_dev *pd = &rxe->cc.pfc;
	struct rxe_pool_elem *elem;
	unsigned int waiters;
	unsigned long index;
	struct rxe_qp *qp;

	spin_lock(&pd->lock);
	waiters = pd->waiters;
	spin_unlock(&pd->lock);
	if (!waiters)
		return;

	rcu_read_lock();
	xa_for_each(&rxe->qp_pool.xa, index, elem) {
		/* a QP being destroyed has no references left: skip it */
		if (!kref_get_unless_zero(&elem->ref_cnt))
			continue;
		qp = elem->obj;
		spin_lock(&qp->cc.lock);
		if (qp->cc.pfc_wait && (prios & BIT(qp->cc.pfc_prio)))
			hrtimer_start_range_ns(&qp->cc.timer,
					       ns_to_ktime(ktime_get_ns()), 0,
					       HRTIMER_MODE_ABS_SOFT);
		spin_unlock(&qp->cc.lock);
		rxe_put(qp);
	}
	rcu_read_unlock();
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
	struct rxe_pfc_dev *pd = &rxe->cc.pfc;
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
static int rxe_pfc_rcv(struct sk_buff *skb, struct net_device *ndev,
		       struct packet_type *pt, struct net_device *orig_dev)
{
	struct rxe_dev *rxe = container_of(pt, struct rxe_dev, cc.pfc.pt);
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

/* ---- devices --------------------------------------------------------------- */

/**
 * rxe_pfc_dev_init - start honouring PAUSE if pfc_netdevs names @ndev
 * @rxe: a new device (rxe_cc_dev_init(), its rate already set)
 * @ndev: its netdev
 *
 * Process context, RTNL not held.
 */
void rxe_pfc_dev_init(struct rxe_dev *rxe, struct net_device *ndev)
{
	struct rxe_pfc_dev *pd = &rxe->cc.pfc;
	char name[IFNAMSIZ];
	int err;

	spin_lock_init(&pd->lock);

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
	struct rxe_pfc_dev *pd = &rxe->cc.pfc;

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
	WRITE_ONCE(rxe->cc.pfc.rate_bps, rate_bps);
}

/* ---- QPs ------------------------------------------------------------------- */

/* QP creation: connected QPs of a device that honours PAUSE can be paused. */
void rxe_pfc_qp_init(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);

	qp->cc.pfc = rxe->cc.pfc.on &&
		     (qp_type(qp) == IB_QPT_RC || qp_type(qp) == IB_QPT_UC);
	qp->cc.pfc_wait = false;
}

/**
 * rxe_pfc_hold - the PAUSE part of the transmit gate
 * @qp: a QP with qp->cc.pfc set, before it sends a data packet
 * @resp: the responder asks (READ response), not the requester
 *
 * The QP's priority is the testbed map of the DSCP of its path. If that
 * priority is paused, the QP waits and its timer is armed for the end of
 * the pause; the timer re-runs the task, which asks again.
 *
 * Return: true if the QP must not send now.
 */
bool rxe_pfc_hold(struct rxe_qp *qp, bool resp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_pfc_dev *pd = &rxe->cc.pfc;
	struct rxe_cc_qp *cc = &qp->cc;
	bool held = false, first = false;
	unsigned int prio;
	u64 until, now;

	prio = rxe_pfc_dscp_prio(READ_ONCE(qp->pri_av.grh.traffic_class) >> 2);
	until = READ_ONCE(pd->until[prio]);
	if (!until && !READ_ONCE(cc->pfc_wait))
		return false;

	now = ktime_get_ns();
	spin_lock_bh(&cc->lock);
	if (!cc->pfc_wait) {
		/*
		 * A QP in ERR does not start waiting. rxe_cc_qp_error() runs
		 * after the state is set and takes cc->lock: either it finds
		 * this registration and ends it, or this check sees ERR.
		 */
		if (!until || !rxe_cc_before(now, until) ||
		    qp_state(qp) == IB_QPS_ERR)
			goto out;
		cc->pfc_wait = true;
		rxe_pfc_waiter_add(pd);
		first = true;
	}
	cc->pfc_prio = prio;
	/* again, as a registered waiter: see rxe_pfc_wake() */
	until = READ_ONCE(pd->until[prio]);
	if (until && rxe_cc_before(now, until)) {
		held = true;
		if (resp)
			WRITE_ONCE(cc->resp_wait, 1);
		hrtimer_start_range_ns(&cc->timer, ns_to_ktime(until),
				       RXE_PFC_TIMER_SLACK_NS,
				       HRTIMER_MODE_ABS_SOFT);
	} else {
		cc->pfc_wait = false;
		rxe_pfc_waiter_del(rxe);
	}
out:
	spin_unlock_bh(&cc->lock);

	if (held && first)
		rxe_counter_inc(rxe, RXE_CNT_PFC_WAITS);
	return held;
}

/*
 * The QP no longer sends: it entered ERR (after the state was set), or its
 * congestion control state ends (RESET or destroy, tasks disabled), before
 * its timer is cancelled. Process context or a QP task. Once it no longer
 * waits, rxe_pfc_wake() leaves its timer alone.
 */
void rxe_pfc_qp_stop(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;

	spin_lock_bh(&cc->lock);
	if (cc->pfc_wait) {
		cc->pfc_wait = false;
		rxe_pfc_waiter_del(to_rdev(qp->ibqp.device));
	}
	spin_unlock_bh(&cc->lock);
}
