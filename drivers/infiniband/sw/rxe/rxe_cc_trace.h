/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe-cc tracepoints: rate changes and CNPs.
 *
 *   echo 1 > /sys/kernel/tracing/events/rxe_cc/enable
 *
 * The netlink family multicasts rxe_cc_rate as RXE_CC_CMD_RATE_EVENT
 * (rxe_cc_nl.c attaches a probe).
 */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM rxe_cc

#if !defined(RXE_CC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RXE_CC_TRACE_H

#include <linux/tracepoint.h>

struct rxe_qp;

/* Called under the QP's cc.lock, with an algorithm running. */
TRACE_EVENT(rxe_cc_rate,
	    TP_PROTO(struct rxe_qp *qp, u64 rate_bps, u64 window_bytes,
		     u32 events),
	    TP_ARGS(qp, rate_bps, window_bytes, events),
	    TP_STRUCT__entry(__string(dev, dev_name(&qp->ibqp.device->dev))
			     __field(u32, qpn)
			     __string(algo, qp->cc.ctx.ops->name)
			     __field(u64, rate_bps)
			     __field(u64, window_bytes)
			     __field(u32, events)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qp->ibqp.qp_num;
			   __assign_str(algo);
			   __entry->rate_bps = rate_bps;
			   __entry->window_bytes = window_bytes;
			   __entry->events = events;),
	    TP_printk("%s qpn=%u algo=%s rate_bps=%llu window=%llu events=0x%x",
		      __get_str(dev), __entry->qpn, __get_str(algo),
		      __entry->rate_bps, __entry->window_bytes,
		      __entry->events)
);

TRACE_EVENT(rxe_cc_cnp,
	    TP_PROTO(const char *dev, u32 qpn, bool tx, bool handled),
	    TP_ARGS(dev, qpn, tx, handled),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(u32, qpn)
			     __field(bool, tx)
			     __field(bool, handled)),
	    TP_fast_assign(__assign_str(dev);
			   __entry->qpn = qpn;
			   __entry->tx = tx;
			   __entry->handled = handled;),
	    TP_printk("%s qpn=%u %s%s", __get_str(dev), __entry->qpn,
		      __entry->tx ? "sent" : "received",
		      __entry->tx || __entry->handled ? "" : " (ignored)")
);

#endif /* RXE_CC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rxe_cc_trace
#include <trace/define_trace.h>
