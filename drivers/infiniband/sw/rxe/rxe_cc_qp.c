// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: the congestion control context of a QP.
 *
 * Its life cycle (an algorithm is chosen when the QP reaches RTR, can be
 * switched or given new parameters at any time, and stops at RESET and
 * destroy), the runner that acts on a hook's results (counters,
 * tracepoints, the QP's timer), the timer that serves the algorithm's
 * deadlines and wakes a held QP, and the receive side: CNPs for the QP as a
 * data sender and data for the QP as a notification point.
 */

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/rxe_cc.h>

#include "rxe.h"
#include "rxe_queue.h"
#include "rxe_cc_int.h"

#define CREATE_TRACE_POINTS
#include "rxe_cc_trace.h"

/* pacer credit of a QP that had nothing to send, in frames of the MTU */
#define RXE_CC_BURST_PKTS	2
/* how late the QP's timer may fire: the wake-up goes through a work queue */
#define RXE_CC_TIMER_SLACK_NS	(20 * NSEC_PER_USEC)

/*
 * Pacer slack: how late the timer of a QP the pacer holds may fire (at most
 * the time of its burst, two frames, so that one wake-up may serve two
 * packets), and how far a held QP woken up late may catch up with its
 * schedule without losing credit. A wake-up costs tens of microseconds on
 * a real host and about a millisecond under emulation.
 */
static unsigned int rxe_cc_pacer_slack_us = 100;
module_param_named(cc_pacer_slack_us, rxe_cc_pacer_slack_us, uint, 0644);
MODULE_PARM_DESC(cc_pacer_slack_us,
		 "timer slack (at most two frames' time) and catch-up allowance of a held QP, in us (default 100; ~2000 under emulation)");

static u64 rxe_cc_slack_ns(void)
{
	return min_t(u64, READ_ONCE(rxe_cc_pacer_slack_us), USEC_PER_SEC) *
	       NSEC_PER_USEC;
}

/* ---- the hook runner -------------------------------------------------------- */

/**
 * rxe_cc_arm_slack - make sure the QP's timer fires between @t and @t +
 *	@slack
 * @qp: the QP; cc.lock held
 * @t: the time
 * @slack: how late it may fire
 *
 * An earlier expiry stays: the timer function arms the next one.
 */
void rxe_cc_arm_slack(struct rxe_qp *qp, u64 t, u64 slack)
{
	struct rxe_cc_qp *cc = &qp->cc;

	lockdep_assert_held(&cc->lock);
	if (!cc->active || (cc->armed && !rxe_cc_before(t, cc->armed_ns)))
		return;
	cc->armed = true;
	cc->armed_ns = t;
	hrtimer_start_range_ns(&cc->timer, ns_to_ktime(t), slack,
			       HRTIMER_MODE_ABS_SOFT);
}

/* The QP's timer for a deadline: it fires by @t (plus the work queue's). */
void rxe_cc_arm(struct rxe_qp *qp, u64 t)
{
	rxe_cc_arm_slack(qp, t, RXE_CC_TIMER_SLACK_NS);
}

/**
 * rxe_cc_qp_after - act on what a hook left in the QP's outputs
 * @qp: the QP; cc.lock held, an algorithm running
 *
 * Takes the events (per-QP counters), traces a change of rate or window
 * (which netlink multicasts) and arms the timer for the next deadline.
 *
 * Return: the events, for rxe_cc_count_events() once the lock is dropped.
 */
u32 rxe_cc_qp_after(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;
	struct rxe_cc_out *out = &cc->ctx.out;
	u32 ev = out->events;
	u64 t;

	out->events = 0;
	if (ev & RXE_CC_EV_RATE_DEC)
		cc->stats.rate_dec++;
	if (ev & RXE_CC_EV_RATE_INC)
		cc->stats.rate_inc++;
	if (out->rate_bps != cc->last_rate || ev) {
		cc->last_rate = out->rate_bps;
		trace_rxe_cc_rate(qp, out->rate_bps, out->window_bytes, ev);
	}
	if (rxe_cc_next_deadline(out, cc->ctx.ops->flags, &t))
		rxe_cc_arm(qp, t);
	return ev;
}

/**
 * rxe_cc_in_refresh - rxe_cc_ctx.in for the hooks about to run
 * @qp: the QP; cc.lock held, an algorithm running
 *
 * Only for an algorithm that reads it (RXE_CC_F_IN): on_send runs for
 * every data packet. The send queue's indices are read without its lock:
 * a request posted a moment later is seen at the next hook.
 */
void rxe_cc_in_refresh(struct rxe_qp *qp)
{
	struct rxe_queue *q = qp->sq.queue;
	u32 in = 0;

	if (!(qp->cc.ctx.ops->flags & RXE_CC_F_IN))
		return;

	if (qp->cc.tx_wait ||
	    (q && READ_ONCE(qp->req.wqe_index) !=
		  queue_get_producer(q, QUEUE_TYPE_FROM_CLIENT)))
		in |= RXE_CC_IN_BACKLOG;
	if (READ_ONCE(qp->cc.peer_cap))
		in |= RXE_CC_IN_PEER_CAP;
	qp->cc.ctx.in = in;
}

/**
 * rxe_cc_serve_deadlines - call the hooks whose deadline has passed
 * @qp: the QP; cc.lock held, an algorithm running
 * @now: the time
 * @msg: where rx_timer puts a packet to send
 *
 * The caller runs rxe_cc_qp_after() next.
 *
 * Return: true if @msg is to be sent.
 */
bool rxe_cc_serve_deadlines(struct rxe_qp *qp, u64 now,
			    struct rxe_cc_np_msg *msg)
{
	struct rxe_cc_ctx *ctx = &qp->cc.ctx;
	const struct rxe_cc_ops *ops = ctx->ops;
	struct rxe_cc_out *out = &ctx->out;

	rxe_cc_in_refresh(qp);
	if ((out->flags & RXE_CC_OUT_TIMER) && ops->on_timer &&
	    rxe_cc_after_eq(now, out->timer_ns))
		ops->on_timer(ctx, now);
	if ((out->flags & RXE_CC_OUT_RX_TIMER) && ops->rx_timer &&
	    rxe_cc_after_eq(now, out->rx_timer_ns))
		return ops->rx_timer(ctx, now, msg);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_serve_deadlines);

/**
 * rxe_cc_feedback - hand feedback to the QP's algorithm
 * @qp: the QP; cc.lock held, an algorithm running
 * @kind: what arrived
 * @fb: its payload
 * @now: when it arrived
 *
 * The caller runs rxe_cc_qp_after() next.
 *
 * Return: true if the algorithm refused it as malformed
 * (RXE_CC_EV_FB_BAD, which is taken out of its events here).
 */
bool rxe_cc_feedback(struct rxe_qp *qp, enum rxe_cc_fb_kind kind,
		     const union rxe_cc_fb *fb, u64 now)
{
	struct rxe_cc_ctx *ctx = &qp->cc.ctx;
	bool bad;

	if (!ctx->ops->on_feedback)
		return false;
	rxe_cc_in_refresh(qp);
	ctx->ops->on_feedback(ctx, kind, fb, now);
	bad = ctx->out.events & RXE_CC_EV_FB_BAD;
	ctx->out.events &= ~RXE_CC_EV_FB_BAD;
	return bad;
}

/*
 * The QP's timer (softirq): serve the algorithm's deadlines, and run the
 * tasks the gate held once their wait is over.
 */
static enum hrtimer_restart rxe_cc_timer_fn(struct hrtimer *timer)
{
	struct rxe_qp *qp = container_of(timer, struct rxe_qp, cc.timer);
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_cc_qp *cc = &qp->cc;
	bool send = false, tx = false, resp = false;
	struct rxe_cc_np_msg msg;
	unsigned long flags;
	u32 ev = 0;
	u64 now;

	if (!rxe_get(qp))
		return HRTIMER_NORESTART;

	now = ktime_get_ns();
	spin_lock_bh(&cc->lock);
	cc->armed = false;
	if (cc->ctx.ops) {
		send = rxe_cc_serve_deadlines(qp, now, &msg);
		ev = rxe_cc_qp_after(qp);
	}
	if (cc->tx_wait || cc->resp_wait) {
		if (rxe_cc_after_eq(now, cc->wait_ns)) {
			tx = cc->tx_wait;
			resp = cc->resp_wait;
			cc->tx_wait = false;
			cc->resp_wait = false;
		} else {
			rxe_cc_arm(qp, cc->wait_ns);
		}
	}
	spin_unlock_bh(&cc->lock);

	rxe_cc_count_events(rxe, ev);
	if (send)
		rxe_cc_send_cnp(qp, &msg);
	if (tx || resp) {
		spin_lock_irqsave(&qp->state_lock, flags);
		if (qp->valid) {
			if (tx)
				rxe_sched_task(&qp->send_task);
			if (resp)
				rxe_sched_task(&qp->recv_task);
		}
		spin_unlock_irqrestore(&qp->state_lock, flags);
	}

	rxe_put(qp);
	return HRTIMER_NORESTART;
}

/* ---- life cycle ------------------------------------------------------------- */

/* QP creation (process context): no algorithm until the QP reaches RTR. */
void rxe_cc_qp_init(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;

	spin_lock_init(&cc->lock);
	hrtimer_init(&cc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	cc->timer.function = rxe_cc_timer_fn;
	cc->slack_ns = rxe_cc_slack_ns();
	cc->active = true;
	rxe_pfc_qp_init(qp);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_qp_init);

/* Can the QP run congestion control? Connected QPs: RC and UC. */
static bool rxe_cc_qp_capable(struct rxe_qp *qp)
{
	return qp_type(qp) == IB_QPT_RC || qp_type(qp) == IB_QPT_UC;
}

struct rxe_cc_alloc {
	void *priv;
	void *cfg;
	u32 *params;
	struct rxe_cc_sent *slot;
};

static void rxe_cc_free(struct rxe_cc_alloc *a)
{
	kfree(a->priv);
	kfree(a->cfg);
	kfree(a->params);
	kfree(a->slot);
}

/*
 * Install the configuration @qc on @qp (process context). The QP takes
 * over the reference qc->ops holds. A new algorithm starts from a zeroed
 * state; new parameters of the algorithm in force are read at its next
 * event (on_timer now), its state kept. The pacer keeps its schedule: the
 * gap of the last packet is re-timed at the rate in force at the next
 * gate decision.
 */
static int rxe_cc_qp_install(struct rxe_qp *qp, struct rxe_cc_qp_conf *qc,
			     struct netlink_ext_ack *extack)
{
	const struct rxe_cc_ops *ops = qc->ops, *old_ops;
	struct rxe_cc_alloc na = {}, old = {};
	struct rxe_cc_qp *cc = &qp->cc;
	u32 burst_bytes;
	u64 now;
	bool retune;
	u32 ev = 0;
	void *cfg;

	if (ops) {
		cfg = rxe_cc_compile(ops, qc->params, &qc->link, extack);
		if (IS_ERR(cfg)) {
			rxe_cc_algo_put(ops);
			return PTR_ERR(cfg);
		}
		na.cfg = cfg;
		na.params = kmemdup(qc->params, ops->n_params * sizeof(u32),
				    GFP_KERNEL);
		na.priv = kzalloc(max_t(u32, ops->priv_size, 1), GFP_KERNEL);
		/* RC: the in-flight record, kept until the QP is destroyed */
		if (qp_type(qp) == IB_QPT_RC && !cc->inflight.slot)
			na.slot = kcalloc(RXE_CC_SENT_SLOTS,
					  sizeof(*na.slot), GFP_KERNEL);
		if (!na.params || !na.priv ||
		    (qp_type(qp) == IB_QPT_RC && !cc->inflight.slot &&
		     !na.slot)) {
			rxe_cc_free(&na);
			rxe_cc_algo_put(ops);
			return -ENOMEM;
		}
	}
	burst_bytes = RXE_CC_BURST_PKTS *
		      rxe_cc_wire_bytes(qp, qp->mtu + RXE_BTH_BYTES +
					RXE_ICRC_SIZE);

	spin_lock_bh(&cc->lock);
	now = ktime_get_ns();
	old_ops = cc->ctx.ops;
	retune = ops && ops == old_ops;
	old.cfg = (void *)cc->ctx.cfg;
	old.params = cc->params;
	cc->ctx.cfg = na.cfg;
	cc->params = na.params;
	if (retune) {
		old.priv = na.priv;
	} else {
		if (old_ops && old_ops->release)
			old_ops->release(&cc->ctx);
		old.priv = cc->ctx.priv;
		cc->ctx.priv = na.priv;
		memset(&cc->ctx.out, 0, sizeof(cc->ctx.out));
	}
	if (na.slot)
		WRITE_ONCE(cc->inflight.slot, na.slot);
	cc->link = qc->link;
	rxe_cc_pacer_set_burst(&cc->pacer, burst_bytes);
	cc->slack_ns = rxe_cc_slack_ns();
	/* read without the lock by the transmit path */
	WRITE_ONCE(cc->ect, qc->ecn && ops && (ops->wire & RXE_CC_WIRE_ECT));
	WRITE_ONCE(cc->cnp_dscp, qc->cnp_dscp);
	WRITE_ONCE(cc->ack_dscp, qc->ack_dscp);
	WRITE_ONCE(cc->ack_every, !ops ? 0 :
		   (ops->flags & RXE_CC_F_ACK_EVERY) ? 1 : qc->ack_every);
	/* the next packet sent bounds the AckReq spacing anew */
	WRITE_ONCE(cc->ack_paced, 0);
	cc->ack_paced_rate = 0;
	cc->ack_paced_tmo = 0;
	cc->ack_paced_mtu = 0;
	cc->ack_paced_max_bps = 0;
	/* a new algorithm learns anew whether the peer takes INT */
	if (!retune)
		WRITE_ONCE(cc->int_tx, false);
	WRITE_ONCE(cc->int_cap, ops && (ops->wire & RXE_CC_WIRE_INT) &&
		   rxe_cc_int_port);
	if (!retune)
		memset(&cc->tcd_marks, 0, sizeof(cc->tcd_marks));
	WRITE_ONCE(cc->tcd, ops && (ops->wire & RXE_CC_WIRE_TCD));
	WRITE_ONCE(cc->rx_ce_only, ops && (ops->flags & RXE_CC_F_RX_CE_ONLY));
	/* a new algorithm learns anew whether the peer takes FRPs */
	if (!retune)
		WRITE_ONCE(cc->peer_cap, false);
	WRITE_ONCE(cc->frp, ops && (ops->wire & RXE_CC_WIRE_FRP));
	WRITE_ONCE(cc->cap, cc->int_cap || cc->tcd ||
		   (ops && (ops->wire & (RXE_CC_WIRE_PCN | RXE_CC_WIRE_FRP))));
	/* SFC is the QP's own from its start on: a new algorithm keeps it */
	if (!cc->started) {
		cc->sfc_max_us = qc->sfc_max_us;
		cc->sfc_mode = qc->sfc_mode;
		WRITE_ONCE(cc->sfc_on, qc->sfc && qp_type(qp) == IB_QPT_RC);
	}
	/* the gate asks again whether the next packet fills a window */
	WRITE_ONCE(cc->ackreq, false);
	if (retune && ops->on_timer) {
		rxe_cc_in_refresh(qp);
		ops->on_timer(&cc->ctx, now);
	} else if (ops && !retune) {
		ops->init(&cc->ctx, now);
	}
	/* publish last: the data path tests ops without the lock */
	WRITE_ONCE(cc->ctx.ops, ops);
	if (ops)
		ev = rxe_cc_qp_after(qp);
	/* a held QP asks the gate again, under the new rate */
	if (cc->tx_wait || cc->resp_wait) {
		cc->wait_ns = now;
		rxe_cc_arm(qp, now);
	}
	cc->started = true;
	spin_unlock_bh(&cc->lock);

	rxe_cc_count_events(to_rdev(qp->ibqp.device), ev);
	rxe_cc_free(&old);
	/* the reference of the algorithm that ran before */
	rxe_cc_algo_put(old_ops);
	return 0;
}

/* The QP reaches RTR (process context): start the device's default. */
void rxe_cc_qp_start(struct rxe_qp *qp)
{
	struct rxe_cc_qp_conf *qc;
	int err;

	if (!rxe_cc_qp_capable(qp) || qp->cc.started)
		return;
	qc = kmalloc(sizeof(*qc), GFP_KERNEL);
	if (!qc)
		return;
	err = rxe_cc_dev_qp_conf(to_rdev(qp->ibqp.device), NULL, qc);
	if (!err)
		err = rxe_cc_qp_install(qp, qc, NULL);
	if (err)
		rxe_dbg_qp(qp, "congestion control not started: %d\n", err);
	kfree(qc);
}

/* End the QP's congestion control state; its tasks do not run. */
static void rxe_cc_qp_stop(struct rxe_qp *qp, bool destroy)
{
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_alloc old = {};

	/* no longer a PAUSE waiter: nothing wakes the QP afterwards */
	rxe_pfc_qp_stop(qp);

	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (ops && ops->release)
		ops->release(&cc->ctx);
	WRITE_ONCE(cc->ctx.ops, NULL);
	/* nothing arms the timer from here on */
	cc->active = false;
	old.priv = cc->ctx.priv;
	old.cfg = (void *)cc->ctx.cfg;
	old.params = cc->params;
	cc->ctx.priv = NULL;
	cc->ctx.cfg = NULL;
	cc->params = NULL;
	memset(&cc->ctx.out, 0, sizeof(cc->ctx.out));
	memset(&cc->pacer, 0, sizeof(cc->pacer));
	cc->tx_wait = false;
	cc->resp_wait = false;
	cc->paused = false;
	WRITE_ONCE(cc->halted, false);
	cc->held = false;
	WRITE_ONCE(cc->pacer_fresh, false);
	WRITE_ONCE(cc->ackreq, false);
	WRITE_ONCE(cc->ack_every, 0);
	WRITE_ONCE(cc->ack_paced, 0);
	cc->ack_paced_rate = 0;
	cc->ack_paced_tmo = 0;
	cc->ack_paced_mtu = 0;
	cc->ack_paced_max_bps = 0;
	WRITE_ONCE(cc->int_cap, false);
	WRITE_ONCE(cc->int_tx, false);
	WRITE_ONCE(cc->tcd, false);
	WRITE_ONCE(cc->rx_ce_only, false);
	WRITE_ONCE(cc->frp, false);
	WRITE_ONCE(cc->peer_cap, false);
	WRITE_ONCE(cc->cap, false);
	memset(&cc->tcd_marks, 0, sizeof(cc->tcd_marks));
	WRITE_ONCE(cc->ect, false);
	WRITE_ONCE(cc->sfc_on, false);
	WRITE_ONCE(cc->sfc_held, false);
	memset(&cc->sfc, 0, sizeof(cc->sfc));
	cc->started = false;
	cc->last_rate = 0;
	cc->unused_ns = 0;
	memset(&cc->stats, 0, sizeof(cc->stats));
	/* PSNs start anew after RESET */
	cc->inflight.head = 0;
	cc->inflight.tail = 0;
	cc->inflight.bytes = 0;
	cc->inflight.acked_bytes = 0;
	cc->inflight.started = false;
	if (destroy) {
		old.slot = cc->inflight.slot;
		cc->inflight.slot = NULL;
	}
	spin_unlock_bh(&cc->lock);

	hrtimer_cancel(&cc->timer);
	cc->armed = false;
	rxe_cc_free(&old);
	rxe_cc_algo_put(ops);
}

/* RESET, with the QP's tasks disabled (process context). */
void rxe_cc_qp_reset(struct rxe_qp *qp)
{
	rxe_cc_qp_stop(qp, false);
	spin_lock_bh(&qp->cc.lock);
	qp->cc.active = true;
	spin_unlock_bh(&qp->cc.lock);
}

/*
 * ERR, once the state is set (process context or a QP task). The QP sends
 * nothing more: it stops waiting for a pause now, so that the time it stays
 * in ERR is not counted as paused. A timer that still fires finds an
 * invalid QP.
 */
void rxe_cc_qp_error(struct rxe_qp *qp)
{
	rxe_pfc_qp_stop(qp);
	hrtimer_try_to_cancel(&qp->cc.timer);
}

/* Destroy, the last reference gone, before the tasks are cleaned up. */
void rxe_cc_qp_cleanup(struct rxe_qp *qp)
{
	rxe_cc_qp_stop(qp, true);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_qp_cleanup);

/**
 * rxe_cc_qp_set - switch a QP's algorithm or parameters (netlink)
 * @qp: an RC or UC QP
 * @ops: the algorithm (referenced by the caller), NULL for none
 * @params: parameters overriding the device defaults of @ops, or NULL
 * @extack: where to say what is wrong
 *
 * Allowed at any time; the QP keeps sending. A QP that has not reached RTR
 * yet starts with this setting instead of the device's default. Setting
 * the algorithm the QP runs changes only its parameters.
 *
 * Return: 0 or a negative errno; on error the QP is unchanged.
 */
int rxe_cc_qp_set(struct rxe_qp *qp, const struct rxe_cc_ops *ops,
		  const struct nlattr *params, struct netlink_ext_ack *extack)
{
	struct rxe_cc_qp_conf *qc;
	int err;

	if (!rxe_cc_qp_capable(qp)) {
		NL_SET_ERR_MSG(extack,
			       "congestion control runs on RC and UC QPs only");
		return -EOPNOTSUPP;
	}
	if (!ops && params) {
		NL_SET_ERR_MSG(extack, "algorithm none has no parameters");
		return -EINVAL;
	}
	qc = kmalloc(sizeof(*qc), GFP_KERNEL);
	if (!qc)
		return -ENOMEM;
	/* the device's defaults for @ops (or none), then the request's */
	if (ops) {
		err = rxe_cc_dev_qp_conf(to_rdev(qp->ibqp.device), ops, qc);
		if (err)
			goto out;
		err = rxe_cc_params_parse(ops, qc->params, NULL, params,
					  extack);
		if (err) {
			rxe_cc_algo_put(qc->ops);
			goto out;
		}
	} else {
		err = rxe_cc_dev_qp_conf(to_rdev(qp->ibqp.device), NULL, qc);
		if (err)
			goto out;
		rxe_cc_algo_put(qc->ops);
		qc->ops = NULL;
	}
	err = rxe_cc_qp_install(qp, qc, extack);
out:
	kfree(qc);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_qp_set);

/**
 * rxe_cc_qp_set_sfc - let a QP take BTS or not (netlink)
 * @qp: an RC QP
 * @on: whether it takes them
 * @extack: where to say what is wrong
 *
 * A QP that has not reached RTR yet starts with this setting instead of
 * the device's. Turned off, a QP's pause in force ends at once.
 *
 * Return: 0, or -EOPNOTSUPP for a QP that is not RC.
 */
int rxe_cc_qp_set_sfc(struct rxe_qp *qp, bool on,
		      struct netlink_ext_ack *extack)
{
	struct rxe_cc_qp *cc = &qp->cc;
	struct rxe_cc_qp_conf *qc;
	u64 now;
	int err;

	if (qp_type(qp) != IB_QPT_RC) {
		NL_SET_ERR_MSG(extack, "SFC pauses RC QPs only");
		return -EOPNOTSUPP;
	}
	/* not started: start it now (the device's algorithm), then set */
	if (!READ_ONCE(cc->started)) {
		qc = kmalloc(sizeof(*qc), GFP_KERNEL);
		if (!qc)
			return -ENOMEM;
		err = rxe_cc_dev_qp_conf(to_rdev(qp->ibqp.device), NULL, qc);
		if (!err)
			err = rxe_cc_qp_install(qp, qc, extack);
		kfree(qc);
		if (err)
			return err;
	}
	now = ktime_get_ns();
	spin_lock_bh(&cc->lock);
	WRITE_ONCE(cc->sfc_on, on);
	if (!on && rxe_cc_sfc_paused(&cc->sfc, now)) {
		cc->sfc.end_ns = now;
		if (cc->tx_wait) {
			cc->wait_ns = cc->sfc.end_ns;
			rxe_cc_arm(qp, cc->wait_ns);
		}
	}
	spin_unlock_bh(&cc->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_qp_set_sfc);

void rxe_cc_qp_snapshot(struct rxe_qp *qp, struct rxe_cc_qp_info *info)
{
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	u64 now = ktime_get_ns();

	memset(info, 0, sizeof(*info));
	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	info->ops = ops;
	rxe_cc_algo_hold(ops);
	if (ops) {
		memcpy(info->params, cc->params, ops->n_params * sizeof(u32));
		info->rate_bps = cc->ctx.out.rate_bps;
		info->window_bytes = cc->ctx.out.window_bytes;
		ops->get_state(&cc->ctx, now, info->state);
	}
	info->stats = cc->stats;
	info->int_tx = READ_ONCE(cc->int_tx);
	info->inflight_bytes = READ_ONCE(cc->inflight.bytes);
	info->acked_bytes = READ_ONCE(cc->inflight.acked_bytes);
	info->sfc_on = cc->sfc_on;
	info->sfc = cc->sfc;
	info->now = now;
	spin_unlock_bh(&cc->lock);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_qp_snapshot);

/* ---- the QP as a data receiver and as a CNP receiver ------------------------ */

/* rxe_rcv, for a checked packet of a CC QP (softirq or loopback) */
void rxe_cc_rcv_slow(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_np_msg msg;
	struct rxe_cc_rx rx;
	bool send = false, tcd;
	u32 ev = 0;
	u64 now;

	/* ops only under the lock: a switch may release the old algorithm */
	if (!READ_ONCE(cc->ctx.ops) || !rxe_cc_is_data(pkt))
		return;
	rx.ecn = rxe_cc_skb_ecn(skb);
	/* a mark to echo: a new packet's CE or ECT(1), not a duplicate's */
	tcd = READ_ONCE(cc->tcd) &&
	      (rx.ecn == RXE_CC_ECN_CE || rx.ecn == RXE_CC_ECN_ECT1) &&
	      rxe_cc_psn_diff(pkt->psn, READ_ONCE(qp->resp.psn)) >= 0;
	if (rx.ecn == RXE_CC_ECN_CE)
		rxe_counter_inc(pkt->rxe, RXE_CNT_CC_ECN_CE_RCVD);
	else if (READ_ONCE(cc->rx_ce_only) && !tcd)
		return;
	rx.bytes = rxe_cc_wire_bytes(qp, pkt->paylen);
	if (rxe_cc_int_pkt(skb))
		rx.bytes += RXE_CC_INT_SHIM_BYTES;
	rx.psn = pkt->psn;
	rx.ackreq = bth_ack(pkt);
	rx.cap = !!(((struct rxe_bth *)pkt->hdr)->qpn &
		    cpu_to_be32(RXE_CC_BTH_CAP));
	now = ktime_get_ns();

	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (ops) {
		if (rx.ecn == RXE_CC_ECN_CE)
			cc->stats.ce_rx++;
		if (tcd && cc->tcd)
			rxe_cc_tcd_note(&cc->tcd_marks, pkt->psn, rx.ecn);
		if (ops->rx_data)
			send = ops->rx_data(&cc->ctx, &rx, now, &msg) &&
			       (ops->wire & RXE_CC_WIRE_CNP_TX);
		ev = rxe_cc_qp_after(qp);
	}
	spin_unlock_bh(&cc->lock);

	rxe_cc_count_events(pkt->rxe, ev);
	if (send)
		rxe_cc_send_cnp(qp, &msg);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_rcv_slow);

/* Does @ops take feedback packets with opcode @opcode? */
static bool rxe_cc_takes(const struct rxe_cc_ops *ops, u8 opcode)
{
	if (!ops || !ops->on_feedback || !(ops->wire & RXE_CC_WIRE_CNP_RX))
		return false;
	return opcode == RXE_OPCODE_CNP || (ops->wire & RXE_CC_WIRE_PCN);
}

/*
 * An ACCurate FRP (0xC0) or FRP response (0xC1) for @qp, which it may act
 * on (rxe_cc_frp_valid(): from the peer, a valid ICRC, in RTS, or for a
 * forward FRP in RTR or SQD too). A forward
 * FRP is echoed by any QP whose packets carry CAP (it announced that it
 * parses rxe-cc extensions): the ACCETH comes back unchanged under 0xC1
 * with RESP set, to the QP's peer; a STOP needs no response. A response
 * goes to the QP's algorithm if it sends FRPs. Return: the counter to
 * bump, or RXE_NUM_OF_COUNTERS if @echo is to be sent (counted then).
 */
static enum rxe_counters rxe_cc_frp_take(struct rxe_qp *qp,
					 struct rxe_pkt_info *pkt,
					 struct rxe_cc_np_msg *echo)
{
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	union rxe_cc_fb fb = {};
	bool bad = false, handled = false;
	u32 ev;

	rxe_cc_frp_parse(pkt->hdr + RXE_BTH_BYTES, &fb.frp);
	if (pkt->opcode == RXE_OPCODE_FRP) {
		if (!READ_ONCE(cc->cap))
			return RXE_CNT_CC_FRP_IGNORED;
		if (fb.frp.version != RXE_CC_FRP_VERSION ||
		    (fb.frp.flags & (RXE_CC_FRP_RESP | RXE_CC_FRP_SC)) ||
		    fb.frp.type > RXE_CC_FRP_STOP ||
		    fb.frp.src_qpn != qp->attr.dest_qp_num)
			return RXE_CNT_CC_FRP_BAD;
		if (fb.frp.type == RXE_CC_FRP_STOP)
			return RXE_CNT_CC_FRP_STOPS;
		echo->type = RXE_CC_MSG_FRP_RESP;
		echo->dscp = 0xff;
		echo->pcp = 0xff;
		echo->frp = fb.frp;
		echo->frp.flags |= RXE_CC_FRP_RESP;
		return RXE_NUM_OF_COUNTERS;
	}
	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (ops && ops->on_feedback && (ops->wire & RXE_CC_WIRE_FRP)) {
		bad = rxe_cc_feedback(qp, RXE_CC_FB_FRP, &fb, ktime_get_ns());
		ev = rxe_cc_qp_after(qp);
		handled = true;
	}
	spin_unlock_bh(&cc->lock);
	if (!handled)
		return RXE_CNT_CC_FRP_IGNORED;
	rxe_cc_count_events(to_rdev(qp->ibqp.device), ev);
	return bad ? RXE_CNT_CC_FRP_BAD : RXE_CNT_CC_FRP_RCVD;
}

/*
 * An FRP or FRP response arrived (rxe_cc_rcv_cnp()). One that names no QP,
 * does not come from its peer or has a bad ICRC is counted as ignored, a
 * malformed one as bad; nothing else is disturbed.
 */
static void rxe_cc_rcv_frp(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	struct rxe_dev *rxe = pkt->rxe;
	enum rxe_counters cnt = RXE_CNT_CC_FRP_IGNORED;
	struct rxe_cc_np_msg echo = {};
	struct rxe_qp *qp;

	qp = rxe_pool_get_index(&rxe->qp_pool, bth_qpn(pkt));
	if (qp && rxe_cc_frp_valid(pkt, skb, qp))
		cnt = rxe_cc_frp_take(qp, pkt, &echo);
	if (cnt == RXE_NUM_OF_COUNTERS)
		rxe_cc_send_cnp(qp, &echo);
	else
		rxe_counter_inc(rxe, cnt);
	if (qp)
		rxe_put(qp);
	kfree_skb(skb);
	ib_device_put(&rxe->ib_dev);
}

/**
 * rxe_cc_rcv_cnp - a CNP, a PCN rate report or an ACCurate FRP arrived
 *	(rxe_rcv, before the QP checks)
 * @pkt: its packet info; length, opcode and destination GID are checked
 * @skb: the packet; consumed, with the device reference of rxe_rcv
 *
 * A valid one (rxe_cc_cnp_valid()) for a QP whose algorithm takes it goes
 * to the algorithm as RXE_CC_FB_CNP, its body decoded (a CNP 0x81 to any
 * algorithm that takes CNPs, a rate report 0xC2 to PCN's only); any other
 * is counted as ignored, and one the algorithm found malformed as
 * cc_pcn_bad. FRPs and their responses are rxe_cc_rcv_frp()'s. The QP is
 * never disturbed.
 */
void rxe_cc_rcv_cnp(struct rxe_pkt_info *pkt, struct sk_buff *skb)
{
	struct rxe_dev *rxe = pkt->rxe;
	bool cnp = pkt->opcode == RXE_OPCODE_CNP;
	bool handled = false, bad = false;
	union rxe_cc_fb fb = {};
	struct rxe_qp *qp;
	u32 ev = 0;

	if (pkt->opcode == RXE_OPCODE_FRP || pkt->opcode == RXE_OPCODE_FRP_RESP) {
		rxe_cc_rcv_frp(pkt, skb);
		return;
	}
	qp = rxe_pool_get_index(&rxe->qp_pool, bth_qpn(pkt));
	if (!qp)
		goto out;
	/* the algorithm is looked at under the lock: it may change meanwhile */
	if (READ_ONCE(qp->cc.ctx.ops) && rxe_cc_cnp_valid(pkt, skb, qp)) {
		struct rxe_cc_qp *cc = &qp->cc;
		u64 now = ktime_get_ns();

		fb.cnp.dscp = rxe_cc_skb_dscp(skb);
		fb.cnp.ecn = rxe_cc_skb_ecn(skb);
		fb.cnp.opcode = pkt->opcode;
		rxe_cc_pcn_parse(pkt->hdr + RXE_BTH_BYTES, &fb.cnp);
		spin_lock_bh(&cc->lock);
		if (rxe_cc_takes(cc->ctx.ops, pkt->opcode)) {
			bad = rxe_cc_feedback(qp, RXE_CC_FB_CNP, &fb, now);
			if (!bad)
				cc->stats.cnp_rx++;
			ev = rxe_cc_qp_after(qp);
			handled = true;
		}
		spin_unlock_bh(&cc->lock);
	}
	trace_rxe_cc_cnp(dev_name(&rxe->ib_dev.dev), qp_num(qp), false,
			 handled && !bad);
	rxe_put(qp);
out:
	if (bad)
		rxe_counter_inc(rxe, RXE_CNT_CC_PCN_BAD);
	else if (cnp)
		rxe_counter_inc(rxe, handled ? RXE_CNT_CC_CNP_RCVD :
					       RXE_CNT_CC_CNP_IGNORED);
	else
		rxe_counter_inc(rxe, handled ? RXE_CNT_CC_PCN_INC_RCVD :
					       RXE_CNT_CC_PCN_INC_IGNORED);
	rxe_cc_count_events(rxe, ev);
	kfree_skb(skb);
	ib_device_put(&rxe->ib_dev);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_rcv_cnp);
