// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe-cc: the QP as a data sender.
 *
 * The transmit gate, asked before each data packet by the requester and
 * (for READ responses) the responder: it holds the QP while its priority
 * is paused (rxe_pfc.c), until the pacer's next send time, or while its
 * bytes in flight fill the algorithm's window. After each transmission the
 * pacer advances and the algorithm sees the packet (on_send); request
 * packets are recorded in flight until the completer sees them
 * acknowledged, which gives on_ack exact byte counts and RTT samples.
 *
 * The requester and the completer run in one task (send_task), so the
 * in-flight record needs no lock; everything the algorithm sees is under
 * the QP's cc.lock, which the responder and softirq take too.
 */

#include <kunit/visibility.h>

#include "rxe.h"
#include "rxe_cc_int.h"

/* ---- in flight -------------------------------------------------------------- */

/* What kind of feedback @pkt is for the completer */
static u32 rxe_cc_ack_type(struct rxe_pkt_info *pkt)
{
	u8 syn;

	if (pkt->mask & RXE_ATMACK_MASK)
		return RXE_CC_ACK_ATOMIC;
	if (pkt->mask & RXE_PAYLOAD_MASK)
		return RXE_CC_ACK_READ_RESP;
	syn = aeth_syn(pkt);
	switch (syn & AETH_TYPE_MASK) {
	case AETH_ACK:
		return RXE_CC_ACK;
	case AETH_RNR_NAK:
		return RXE_CC_ACK_NAK_RNR;
	default:
		return syn == AETH_NAK_PSN_SEQ_ERROR ? RXE_CC_ACK_NAK_SEQ :
						       RXE_CC_ACK_NAK_OTHER;
	}
}

/*
 * INT on a response packet of a QP whose algorithm uses it. Only a
 * response inside the send window counts: a PSN the QP has sent, no
 * further back than the in-flight record reaches. Its CAP makes the QP's
 * requests carry the shim from now on, and an ACK that came with a shim
 * has its stack parsed into @fb. The stack of a response outside the
 * window, or with more hops than slots, is ignored and counted.
 * Return: true if @fb is for the algorithm.
 */
static bool rxe_cc_in_window(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	struct rxe_cc_inflight *inf = &qp->cc.inflight;
	s32 d = rxe_cc_psn_diff(pkt->psn, inf->snd_nxt);

	return inf->started && d < 0 && d >= -RXE_CC_SENT_SLOTS;
}

static bool rxe_cc_int_acked(struct rxe_qp *qp, struct rxe_pkt_info *pkt,
			     struct rxe_cc_fb_int *fb)
{
	struct rxe_bth *bth = (struct rxe_bth *)pkt->hdr;
	bool stack = rxe_cc_int_pkt(PKT_TO_SKB(pkt)) &&
		     rxe_cc_int_ack_op(pkt->opcode);

	if (!rxe_cc_in_window(qp, pkt))
		goto bad;
	if ((bth->qpn & cpu_to_be32(RXE_CC_BTH_CAP)) &&
	    !READ_ONCE(qp->cc.int_tx))
		WRITE_ONCE(qp->cc.int_tx, true);
	if (!stack)
		return false;
	if (rxe_cc_int_parse(pkt->hdr - RXE_CC_INT_SHIM_BYTES, pkt->psn, fb))
		return true;
bad:
	if (stack)
		rxe_counter_inc(to_rdev(qp->ibqp.device), RXE_CNT_CC_INT_BAD);
	return false;
}

/**
 * rxe_cc_acked_slow - the completer has processed a response packet
 * @qp: an RC QP with an in-flight record
 * @pkt: the ACK, NAK, READ response or atomic ACK (send_task)
 *
 * Every request packet whose PSN the completer's PSN has passed is
 * acknowledged: its bytes leave the bytes in flight, and an AckReq packet
 * acknowledged by a response to its own PSN gives an RTT sample. Then the
 * algorithm's on_ack sees the packet, and on_feedback the INT stack it
 * echoed, if the algorithm uses INT, and its TCD mark echo, if the
 * algorithm takes those (RXE_CC_WIRE_TCD) and the packet acknowledges
 * (it has an AETH). Feedback of a response outside the send window is
 * not delivered: a mark on it is counted in cc_tcd_bad.
 */
void rxe_cc_acked_slow(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_ack ack = {
		.type = rxe_cc_ack_type(pkt),
		.psn = pkt->psn,
	};
	union rxe_cc_fb fb, tfb;
	bool int_fb = false, int_bad = false, tcd_fb = false, tcd_bad = false;
	u64 now = ktime_get_ns();
	u8 marks = 0;
	u32 ev = 0;

	rxe_cc_inflight_acked(&cc->inflight, qp->comp.psn, pkt->psn, now, &ack);

	ops = READ_ONCE(cc->ctx.ops);
	if (!ops)
		return;
	if (READ_ONCE(cc->int_cap))
		int_fb = rxe_cc_int_acked(qp, pkt, &fb.int_stack);
	/* an FRP sender's peer that sets CAP echoes FRPs (wire.md §7.4 (g)) */
	if (READ_ONCE(cc->frp) && !READ_ONCE(cc->peer_cap) &&
	    (((struct rxe_bth *)pkt->hdr)->qpn & cpu_to_be32(RXE_CC_BTH_CAP)) &&
	    rxe_cc_in_window(qp, pkt))
		WRITE_ONCE(cc->peer_cap, true);
	/*
	 * The mark echo of every response that acknowledges (an AETH with an
	 * ACK syndrome) inside the send window; marks on any other are
	 * counted and left. A NAK carries no echo.
	 */
	if (READ_ONCE(cc->tcd) && rxe_cc_aeth_ack(pkt)) {
		marks = pkt->hdr[4] & (RXE_CC_TCD_BECN | RXE_CC_TCD_CE_CNT |
				       RXE_CC_TCD_UE);
		if (rxe_cc_in_window(qp, pkt)) {
			tfb.tcd.psn = pkt->psn;
			tfb.tcd.echo = pkt->hdr[4];
			tcd_fb = true;
		} else {
			tcd_bad = marks;
		}
	}
	if (!ops->on_ack && !int_fb && !tcd_fb)
		goto out;
	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (ops && ops->on_ack)
		ops->on_ack(&cc->ctx, &ack, now);
	if (ops && int_fb)
		int_bad = rxe_cc_feedback(qp, RXE_CC_FB_INT, &fb, now);
	if (ops && tcd_fb && rxe_cc_feedback(qp, RXE_CC_FB_TCD, &tfb, now))
		tcd_bad = marks;
	if (ops)
		ev = rxe_cc_qp_after(qp);
	spin_unlock_bh(&cc->lock);
	if (int_fb)
		rxe_counter_inc(rxe, int_bad ? RXE_CNT_CC_INT_BAD :
					       RXE_CNT_CC_INT_RX);
	rxe_cc_count_events(rxe, ev);
out:
	if (tcd_bad)
		rxe_counter_inc(rxe, RXE_CNT_CC_TCD_BAD);
	else if (tcd_fb && marks)
		rxe_counter_inc(rxe, RXE_CNT_CC_TCD_RX);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_acked_slow);

/* ---- the gate --------------------------------------------------------------- */

/*
 * The window: bytes in flight plus a full frame must fit. One packet may
 * always go when nothing is in flight, so that a window below one frame
 * cannot stop the QP, and a retransmission (go-back-N) always may: its
 * bytes are in flight already. No timer: the completer runs the requester
 * again after each ACK. The packet after which the window is full asks
 * for an ACK (rxe_cc_ack_limit()): with the upstream policy of an AckReq
 * every 64 packets, a smaller window would otherwise wait for an ACK that
 * nobody asked for.
 */
static bool rxe_cc_window_full(struct rxe_qp *qp, u64 window)
{
	struct rxe_cc_inflight *inf = &qp->cc.inflight;
	u32 frame = rxe_cc_wire_bytes(qp, qp->mtu + RXE_BTH_BYTES +
				      RXE_ICRC_SIZE + rxe_cc_int_tx_bytes(qp));

	if (inf->started && rxe_cc_psn_diff(qp->req.psn, inf->snd_nxt) < 0)
		return false;
	WRITE_ONCE(qp->cc.ackreq, inf->bytes + 2 * frame > window);
	return inf->bytes && inf->bytes + frame > window;
}

/*
 * The gate's common case, decided without the QP's lock: no PAUSE, no
 * window, no deadline due, and the pacer, at the rate in force, lets the
 * packet go. The fields are written under the lock by hooks in other
 * contexts; a value read a moment early (a CNP's cut arriving just now)
 * only decides this one packet as if the cut had come a moment later.
 */
static bool rxe_cc_gate_open(const struct rxe_qp *qp, u64 now)
{
	const struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_out *out = &cc->ctx.out;
	u32 flags = READ_ONCE(out->flags);

	if (READ_ONCE(cc->paused) || READ_ONCE(cc->ackreq) ||
	    READ_ONCE(out->window_bytes) || READ_ONCE(cc->halted) ||
	    READ_ONCE(cc->sfc_held))
		return false;
	if ((flags & RXE_CC_OUT_HALT) &&
	    rxe_cc_before(now, READ_ONCE(out->halt_ns)))
		return false;
	if ((flags & RXE_CC_OUT_TIMER) &&
	    rxe_cc_after_eq(now, READ_ONCE(out->timer_ns)))
		return false;
	if ((flags & RXE_CC_OUT_RX_TIMER) &&
	    rxe_cc_after_eq(now, READ_ONCE(out->rx_timer_ns)))
		return false;
	if (READ_ONCE(out->rate_bps) != READ_ONCE(cc->pacer.rate_bps))
		return false;
	return !rxe_cc_pacer_hold(&cc->pacer, now);
}

/**
 * rxe_cc_hold_at - the transmit gate at a given time
 * @qp: a QP that runs an algorithm or can be paused (rxe_cc_fw.h)
 * @resp: the responder asks, before a READ response; else the requester,
 *	  before a data packet
 * @now: the time (ktime_get_ns(); the unit tests pass their own)
 *
 * Holds the QP while its priority is paused, while its algorithm halts
 * it (RXE_CC_OUT_HALT, until rxe_cc_out.halt_ns), (requester) while a BTS
 * pauses it (SFC, rxe_cc_sfc.c), until the pacer's next send time, or
 * (requester) while the window is full. A held QP's timer runs its task
 * again when the wait is over. The algorithm's outputs are made fresh
 * first: its deadlines that have passed are served. A halt or a BTS pause
 * earns no pacing credit: the first packet after it starts the pacer's
 * schedule afresh. A BTS pause is not the algorithm's business: it is not
 * told (specs/sfc.md §2.10).
 *
 * Return: true if the QP must not send now.
 */
VISIBLE_IF_KUNIT bool rxe_cc_hold_at(struct rxe_qp *qp, bool resp, u64 now)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_cc_qp *cc = &qp->cc;
	bool paused = false, halted = false, paced = false, window_full = false;
	bool send = false, sfc = false, held;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_np_msg msg;
	union rxe_cc_fb fb;
	u64 until = 0;
	u32 ev = 0;

	if (qp->pfc.on)
		paused = rxe_pfc_hold(qp, now, &until);
	/* a BTS pause in force, or one whose end the gate has not seen yet */
	if (!resp && READ_ONCE(cc->sfc_on))
		sfc = READ_ONCE(cc->sfc_held) ||
		      rxe_cc_before(now, READ_ONCE(cc->sfc.end_ns));
	if (!paused && !sfc &&
	    (!READ_ONCE(cc->ctx.ops) || rxe_cc_gate_open(qp, now)))
		return false;

	spin_lock_bh(&cc->lock);
	if (sfc) {
		sfc = cc->sfc_on && rxe_cc_sfc_paused(&cc->sfc, now);
		if (sfc) {
			if (!paused || rxe_cc_before(until, cc->sfc.end_ns))
				until = cc->sfc.end_ns;
			WRITE_ONCE(cc->sfc_held, true);
		} else if (cc->sfc_held) {
			WRITE_ONCE(cc->pacer_fresh, true);
			WRITE_ONCE(cc->sfc_held, false);
		}
	}
	ops = cc->ctx.ops;
	if (ops) {
		if (paused != cc->paused) {
			fb.pause.until_ns = paused ? until : 0;
			fb.pause.prio = rxe_pfc_qp_prio(qp);
			fb.pause.paused = paused;
			rxe_cc_feedback(qp, RXE_CC_FB_PAUSE, &fb, now);
		}
		send = rxe_cc_serve_deadlines(qp, now, &msg) &&
		       (ops->wire & RXE_CC_WIRE_CNP_TX);
		ev = rxe_cc_qp_after(qp);
		if ((cc->ctx.out.flags & RXE_CC_OUT_HALT) &&
		    rxe_cc_before(now, cc->ctx.out.halt_ns)) {
			halted = true;
			if ((!paused && !sfc) ||
			    rxe_cc_before(until, cc->ctx.out.halt_ns))
				until = cc->ctx.out.halt_ns;
			WRITE_ONCE(cc->halted, true);
		} else if (cc->halted) {
			WRITE_ONCE(cc->pacer_fresh, true);
			WRITE_ONCE(cc->halted, false);
		}
		rxe_cc_pacer_set_rate(&cc->pacer, cc->ctx.out.rate_bps);
		if (!halted && !sfc && rxe_cc_pacer_hold(&cc->pacer, now)) {
			paced = true;
			if (!paused || rxe_cc_before(until, cc->pacer.t_next))
				until = cc->pacer.t_next;
		}
		if (!resp && !paused && !halted && !sfc && !paced &&
		    cc->ctx.out.window_bytes)
			window_full = rxe_cc_window_full(qp,
							 cc->ctx.out.window_bytes);
		else if (!resp && cc->ackreq)
			WRITE_ONCE(cc->ackreq, false);
	}
	WRITE_ONCE(cc->paused, paused);
	held = paused || halted || sfc || paced;
	if (held) {
		cc->held = true;
		if (!(cc->tx_wait || cc->resp_wait) ||
		    rxe_cc_before(until, cc->wait_ns))
			cc->wait_ns = until;
		if (resp)
			cc->resp_wait = true;
		else
			cc->tx_wait = true;
		/* a wake-up up to two frames late serves two packets */
		cc->range_ns = paced && !paused ?
			       min(cc->slack_ns, cc->pacer.idle_ns) : 0;
		rxe_cc_arm_slack(qp, until, cc->range_ns);
	}
	if (paced || window_full)
		cc->stats.pacer_waits++;
	spin_unlock_bh(&cc->lock);

	rxe_cc_count_events(rxe, ev);
	if (send)
		rxe_cc_send_cnp(qp, &msg);
	if (paced || window_full)
		rxe_counter_inc(rxe, RXE_CNT_CC_PACER_WAITS);
	return held || window_full;
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_hold_at);

bool rxe_cc_hold_slow(struct rxe_qp *qp, bool resp)
{
	return rxe_cc_hold_at(qp, resp, ktime_get_ns());
}

/*
 * The requester asks for an ACK every 64 packets or at a message's end
 * (rxe_req.c), and the retransmission timer fires when no ACK has come
 * for the QP's transport timeout. A QP paced so slowly that those packets
 * take longer than the timeout retransmits what is merely slow to go:
 * 64 packets of 1 KiB take 1.3 s at 400 kbit/s, against the 1.07 s of
 * the usual timeout exponent 18. So, at such rates, the packets between
 * two AckReqs may take at most a quarter of the timeout
 * (rxe_cc_ack_limit()).
 */
/* a quarter of the QP's transport timeout (4 s at most), and its frame */
static u64 rxe_cc_ack_quarter(struct rxe_qp *qp, unsigned long tmo, u32 *frame)
{
	*frame = rxe_cc_wire_bytes(qp, qp->mtu + RXE_BTH_BYTES + RXE_ICRC_SIZE);
	/* 4 s at most: kbit/s times ns stays within 64 bits */
	return min_t(u64, jiffies_to_nsecs(tmo) / 4, 4ULL * NSEC_PER_SEC);
}

static void rxe_cc_ack_bound(struct rxe_qp *qp, u64 rate_bps)
{
	struct rxe_cc_qp *cc = &qp->cc;
	unsigned long tmo = READ_ONCE(qp->qp_timeout_jiffies);
	u64 quarter_ns, bytes;
	u32 frame, n;

	/*
	 * Per timeout and MTU, the rate from which a quarter of the timeout
	 * carries more than upstream's spacing: no bound there, decided by
	 * a compare (HPCC's rate changes with every ACK).
	 */
	if (tmo != cc->ack_paced_tmo || qp->mtu != cc->ack_paced_mtu) {
		cc->ack_paced_tmo = tmo;
		cc->ack_paced_mtu = qp->mtu;
		cc->ack_paced_rate = 0;
		cc->ack_paced_max_bps = 0;
		if (tmo && qp_type(qp) == IB_QPT_RC) {
			quarter_ns = rxe_cc_ack_quarter(qp, tmo, &frame);
			cc->ack_paced_max_bps = 1000 *
				DIV64_U64_ROUND_UP((u64)(RXE_MAX_PKT_PER_ACK + 1) *
						   frame * 8 * USEC_PER_SEC,
						   quarter_ns);
		}
	}
	if (!rate_bps || rate_bps >= cc->ack_paced_max_bps) {
		if (cc->ack_paced)
			WRITE_ONCE(cc->ack_paced, 0);
		cc->ack_paced_rate = 0;
		return;
	}
	if (rate_bps == cc->ack_paced_rate)
		return;
	cc->ack_paced_rate = rate_bps;
	quarter_ns = rxe_cc_ack_quarter(qp, tmo, &frame);
	bytes = div_u64(div_u64(rate_bps, 1000) * quarter_ns, 8 * USEC_PER_SEC);
	n = max_t(u32, div_u64(bytes, frame), 1);
	WRITE_ONCE(cc->ack_paced, n);
}

/**
 * rxe_cc_sent_at - a data packet was transmitted at a given time
 * @qp: a QP running an algorithm
 * @pkt: the packet: a request (send_task) or a READ response (recv_task)
 * @now: the time (ktime_get_ns(); the unit tests pass their own)
 */
VISIBLE_IF_KUNIT void rxe_cc_sent_at(struct rxe_qp *qp,
				     struct rxe_pkt_info *pkt, u64 now)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_tx tx = {
		.bytes = rxe_cc_wire_bytes(qp, pkt->paylen),
		.psn = pkt->psn,
	};
	u64 unused, late, us = 0;
	bool retx = false, ackreq;
	u32 ev;

	if (pkt->mask & RXE_START_MASK)
		tx.flags |= RXE_CC_TX_MSG_FIRST;
	if (pkt->mask & RXE_END_MASK)
		tx.flags |= RXE_CC_TX_MSG_LAST;
	if (pkt->mask & RXE_REQ_MASK) {
		/* it was built a moment ago, with the shim if int_tx */
		tx.bytes += rxe_cc_int_tx_bytes(qp);
		/*
		 * Not from the packet's BTH: the skb may be gone already (a
		 * veth peer in this kernel receives, and frees, it before
		 * rxe_xmit_packet() returns). The requester has just built
		 * the packet, and an RC requester asks for an ACK exactly
		 * when it resets noack_pkts.
		 */
		ackreq = qp_type(qp) == IB_QPT_RC && !qp->req.noack_pkts;
		if (ackreq)
			tx.flags |= RXE_CC_TX_ACKREQ;
		if (READ_ONCE(cc->inflight.slot)) {
			/* the PSN window keeps the ring from filling */
			WARN_ON_ONCE(cc->inflight.tail - cc->inflight.head >=
				     RXE_CC_SENT_SLOTS);
			retx = rxe_cc_inflight_sent(&cc->inflight, pkt->psn,
						    tx.bytes, ackreq, now);
		}
		if (retx)
			tx.flags |= RXE_CC_TX_RETX;
		/*
		 * A retransmission ends INT until a response with CAP comes
		 * again: should the CAP that started it not have come from
		 * an INT peer (forged from the peer's address), the requests
		 * would go to a port nobody listens on, and the QP would
		 * stall in retries. A real INT peer sets CAP on every
		 * response, so INT resumes after one round trip.
		 */
		if (retx && READ_ONCE(cc->int_tx))
			WRITE_ONCE(cc->int_tx, false);
	} else {
		tx.flags |= RXE_CC_TX_READ_RESP;
	}

	/*
	 * Nothing to account, and no lock to take: the algorithm has no use
	 * for the packet and its rate, at or above the netdev's own speed,
	 * paces nothing (DCQCN not rate limited). Should the rate fall,
	 * the pacer's schedule starts afresh at the next packet. A
	 * retransmission, rare, is still counted.
	 */
	if (!retx && (READ_ONCE(cc->ctx.out.flags) & RXE_CC_OUT_SEND_QUIET) &&
	    rxe->cc.netdev_rate_bps &&
	    READ_ONCE(cc->ctx.out.rate_bps) >= rxe->cc.netdev_rate_bps) {
		if (!READ_ONCE(cc->pacer_fresh))
			WRITE_ONCE(cc->pacer_fresh, true);
		if (READ_ONCE(cc->ack_paced))
			WRITE_ONCE(cc->ack_paced, 0);
		return;
	}

	spin_lock_bh(&cc->lock);
	ops = cc->ctx.ops;
	if (!ops) {
		spin_unlock_bh(&cc->lock);
		return;
	}
	if (READ_ONCE(cc->pacer_fresh)) {
		WRITE_ONCE(cc->pacer_fresh, false);
		WRITE_ONCE(cc->pacer.bytes, 0);
	}
	if (ops->on_send) {
		rxe_cc_in_refresh(qp);
		ops->on_send(&cc->ctx, &tx, now);
	}
	if (retx)
		cc->stats.retx_pkts++;
	/*
	 * The gap before this packet is the one the gate let it through
	 * with; the gap after it takes the rate in force now. A QP woken up
	 * late may catch up by the slack (or two frames, if more) beyond
	 * the range its timer was given: a wake-up late by the range alone,
	 * the gate's own choice, costs it no credit.
	 */
	late = 0;
	if (cc->held)
		late = cc->range_ns + max(cc->slack_ns, cc->pacer.idle_ns);
	unused = rxe_cc_pacer_sent(&cc->pacer, now, tx.bytes, late);
	rxe_cc_pacer_set_rate(&cc->pacer, cc->ctx.out.rate_bps);
	if (pkt->mask & RXE_REQ_MASK)
		rxe_cc_ack_bound(qp, cc->ctx.out.rate_bps);
	/* a QP woken up late keeps its allowance until it has caught up */
	cc->held = cc->held && !rxe_cc_pacer_hold(&cc->pacer, now);
	/*
	 * The device counter gains whole microseconds, a millisecond at a
	 * time: a QP paced far above what it sends drops credit at every
	 * packet, and the counter is shared by the device's QPs.
	 */
	if (unused) {
		cc->stats.pacer_unused_ns += unused;
		cc->unused_ns += unused;
		if (cc->unused_ns >= NSEC_PER_MSEC) {
			us = div_u64(cc->unused_ns, NSEC_PER_USEC);
			cc->unused_ns -= us * NSEC_PER_USEC;
		}
	}
	ev = rxe_cc_qp_after(qp);
	spin_unlock_bh(&cc->lock);

	rxe_cc_count_events(rxe, ev);
	if (us)
		atomic64_add(us, &rxe->stats_counters[RXE_CNT_CC_PACER_UNUSED_US]);
}
EXPORT_SYMBOL_IF_KUNIT(rxe_cc_sent_at);

void rxe_cc_sent_slow(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	rxe_cc_sent_at(qp, pkt, ktime_get_ns());
}
