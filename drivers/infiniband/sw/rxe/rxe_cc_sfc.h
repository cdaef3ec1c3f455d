/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc: SFC's back-to-sender pause (specs/sfc.md), the pure part.
 *
 * A switch whose egress queue is over its threshold sends the sender of a
 * data packet a BTS: a UDP packet to the bts_port (specs/wire.md §7.4 (a),
 * (f)) that names the QP by the packet's own UDP and BTH headers, swapped
 * addresses, and asks it to pause for a number of microseconds. The sender
 * holds that QP's data until the pause ends; its congestion control is not
 * told. This header decodes a BTS and keeps a QP's pause: the newest BTS
 * replaces the pause in force (or, in max mode, may only lengthen it). A
 * pause is clamped to a ceiling, and so is a run of pauses: a QP held for
 * the ceiling in a row takes no BTS for as long again, so that a stream
 * of BTS, forged or not, cannot hold it for good.
 *
 * Time is passed in; nothing here locks (the framework holds the QP's
 * cc.lock). Included by the unit tests through the userspace shim.
 */

#ifndef RXE_CC_SFC_H
#define RXE_CC_SFC_H

#include <linux/bits.h>
#include <linux/types.h>

/* BTS header (12 bytes), then the original UDP header and BTH */
#define RXE_CC_BTS_HDR_BYTES	12
#define RXE_CC_BTS_MIN_BYTES	(RXE_CC_BTS_HDR_BYTES + 8 + 12)
#define RXE_CC_BTS_VERSION	1
#define RXE_CC_BTS_TYPE_PAUSE	0

/* flags, byte 1 */
#define RXE_CC_BTS_C		BIT(0)	/* cacheable: congestion on a host port */
#define RXE_CC_BTS_H		BIT(1)	/* answered from a switch's cache */
#define RXE_CC_BTS_E		BIT(2)	/* egress variant */
#define RXE_CC_BTS_I		BIT(3)	/* the original carried the INT shim */

/* RoCEv2's own UDP port */
#define RXE_CC_ROCE_PORT	4791

/* ceiling of one pause and of a run of pauses, us */
#define RXE_CC_SFC_MAX_US_DEFAULT	50000U
#define RXE_CC_SFC_MAX_US_MAX		1000000U

/* how a BTS for a QP already paused updates its pause */
enum rxe_cc_sfc_mode {
	RXE_CC_SFC_REPLACE,	/* the newest BTS wins (sfc.md §2.6) */
	RXE_CC_SFC_MAX,		/* a pause may only grow */
};

/* why a BTS is malformed */
enum rxe_cc_bts_err {
	RXE_CC_BTS_OK,
	RXE_CC_BTS_SHORT,	/* shorter than header, UDP and BTH */
	RXE_CC_BTS_BAD_VERSION,
	RXE_CC_BTS_BAD_TYPE,
	RXE_CC_BTS_BAD_PORT,	/* inner port not RoCEv2 nor INT, or not flag I's */
	RXE_CC_BTS_NOT_DATA,	/* inner opcode not a request carrying data */
};

/**
 * struct rxe_cc_bts - a decoded BTS
 * @flags: RXE_CC_BTS_*
 * @dscp_ecn: the original packet's DSCP and ECN byte
 * @pause_us: the pause asked for
 * @qdepth: the queue at the congestion point, 64-byte units
 * @sport: the original UDP source port (the QP's)
 * @dport: the original UDP destination port
 * @opcode: the original BTH opcode
 * @dqpn: the original BTH destination QP: the sender's peer QP
 * @psn: the original PSN
 */
struct rxe_cc_bts {
	u8 flags;
	u8 dscp_ecn;
	u32 pause_us;
	u32 qdepth;
	u16 sport;
	u16 dport;
	u8 opcode;
	u32 dqpn;
	u32 psn;
};

static inline u32 rxe_cc_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/*
 * A request that carries data, the only kind a switch answers with a BTS:
 * RC SEND, WRITE, READ request (0x00-0x0c), the atomics (0x13, 0x14) and
 * SEND with invalidate (0x16, 0x17). Not a response, ACK, CNP or UC/UD.
 */
static inline bool rxe_cc_bts_data_opcode(u8 op)
{
	return op <= 0x0c || op == 0x13 || op == 0x14 || op == 0x16 ||
	       op == 0x17;
}

/**
 * rxe_cc_bts_parse() - decode and check a BTS
 * @p: the UDP payload
 * @len: its length
 * @int_port: the INT port (0: none), which an original with flag I used
 * @bts: filled in
 *
 * Return: RXE_CC_BTS_OK, or why the BTS is malformed.
 */
static inline enum rxe_cc_bts_err rxe_cc_bts_parse(const u8 *p, u32 len,
						   u16 int_port,
						   struct rxe_cc_bts *bts)
{
	const u8 *udp = p + RXE_CC_BTS_HDR_BYTES, *bth = udp + 8;
	bool shim;

	if (len < RXE_CC_BTS_MIN_BYTES)
		return RXE_CC_BTS_SHORT;
	if (p[0] >> 4 != RXE_CC_BTS_VERSION)
		return RXE_CC_BTS_BAD_VERSION;
	if ((p[0] & 0xf) != RXE_CC_BTS_TYPE_PAUSE)
		return RXE_CC_BTS_BAD_TYPE;
	bts->flags = p[1];
	bts->dscp_ecn = p[2];
	bts->pause_us = rxe_cc_be32(p + 4);
	bts->qdepth = rxe_cc_be32(p + 8);
	bts->sport = (u16)(udp[0] << 8 | udp[1]);
	bts->dport = (u16)(udp[2] << 8 | udp[3]);
	bts->opcode = bth[0];
	bts->dqpn = rxe_cc_be32(bth + 4) & 0xffffff;
	bts->psn = rxe_cc_be32(bth + 8) & 0xffffff;
	shim = bts->flags & RXE_CC_BTS_I;
	if (shim ? !int_port || bts->dport != int_port :
		   bts->dport != RXE_CC_ROCE_PORT)
		return RXE_CC_BTS_BAD_PORT;
	if (!rxe_cc_bts_data_opcode(bts->opcode))
		return RXE_CC_BTS_NOT_DATA;
	return RXE_CC_BTS_OK;
}

/**
 * struct rxe_cc_sfc - a QP's back-to-sender pause
 * @end_ns: the pause in force ends; not in force if not after now
 * @run_ns: when the run of pauses in force began
 * @quiet_ns: BTS are not taken before this time (the run used the ceiling)
 * @paused_ns: time paused in runs that have ended
 * @bts_rx: BTS taken
 * @bts_cache: of those, answered from a switch's cache (flag H)
 * @bts_clamped: of those, asking for more than the ceiling
 * @bts_capped: BTS not taken: the QP had been held for the ceiling
 * @pause_starts: runs of pauses
 * @last_pause_us: the pause the last BTS taken asked for (clamped)
 */
struct rxe_cc_sfc {
	u64 end_ns;
	u64 run_ns;
	u64 quiet_ns;
	u64 paused_ns;
	u64 bts_rx;
	u64 bts_cache;
	u64 bts_clamped;
	u64 bts_capped;
	u64 pause_starts;
	u32 last_pause_us;
};

/* what rxe_cc_sfc_take() did */
#define RXE_CC_SFC_TAKEN	BIT(0)
#define RXE_CC_SFC_CLAMPED	BIT(1)	/* the pause asked for was too long */
#define RXE_CC_SFC_CAPPED	BIT(2)	/* not taken: the hold budget is used */
#define RXE_CC_SFC_SHORTER	BIT(3)	/* the pause in force ends earlier */

static inline bool rxe_cc_sfc_paused(const struct rxe_cc_sfc *s, u64 now)
{
	return (s64)(s->end_ns - now) > 0;
}

/**
 * rxe_cc_sfc_take() - a valid BTS for the QP arrived
 * @s: the QP's pause
 * @pause_us: the pause it asks for
 * @flags: its RXE_CC_BTS_* flags
 * @max_us: the ceiling of a pause and of a run of pauses (at least 1)
 * @mode: enum rxe_cc_sfc_mode
 * @now: the time
 *
 * A pause of 0 in replace mode ends the pause in force: the freshest news
 * of the queue wins (sfc.md §7 item 9).
 *
 * Return: RXE_CC_SFC_* bits.
 */
static inline u32 rxe_cc_sfc_take(struct rxe_cc_sfc *s, u32 pause_us,
				  u8 flags, u32 max_us, u32 mode, u64 now)
{
	u64 budget = (u64)max_us * 1000, old = s->end_ns, end, limit;
	bool running = rxe_cc_sfc_paused(s, now);
	u32 ret = RXE_CC_SFC_TAKEN;

	if ((s64)(s->quiet_ns - now) > 0) {
		s->bts_capped++;
		return RXE_CC_SFC_CAPPED;
	}
	if (pause_us > max_us) {
		pause_us = max_us;
		ret |= RXE_CC_SFC_CLAMPED;
		s->bts_clamped++;
	}
	if (!running) {
		/* the run before this one is over: account it */
		if (s->run_ns && (s64)(old - s->run_ns) > 0)
			s->paused_ns += old - s->run_ns;
		s->run_ns = now;
		old = now;
	}
	end = now + (u64)pause_us * 1000;
	if (mode == RXE_CC_SFC_MAX && (s64)(old - end) > 0)
		end = old;
	limit = s->run_ns + budget;
	if ((s64)(end - limit) >= 0) {
		end = limit;
		s->quiet_ns = limit + budget;
	}
	if (!running && (s64)(end - now) > 0)
		s->pause_starts++;
	if (running && (s64)(old - end) > 0)
		ret |= RXE_CC_SFC_SHORTER;
	s->end_ns = end;
	s->bts_rx++;
	if (flags & RXE_CC_BTS_H)
		s->bts_cache++;
	s->last_pause_us = pause_us;
	return ret;
}

/* Total time paused up to @now, the run in force included. */
static inline u64 rxe_cc_sfc_paused_total(const struct rxe_cc_sfc *s,
					  u64 now)
{
	u64 end = rxe_cc_sfc_paused(s, now) ? now : s->end_ns;

	if (!s->run_ns || (s64)(end - s->run_ns) <= 0)
		return s->paused_ns;
	return s->paused_ns + end - s->run_ns;
}

#endif /* RXE_CC_SFC_H */
