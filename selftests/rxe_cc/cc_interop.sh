#!/bin/bash
# A QP running congestion control talks to a peer that runs none, through
# an ECN-marking bottleneck, in both directions: nothing breaks. The peer
# without CC sends no CNPs; CNPs reaching a QP without CC are counted as
# ignored and leave the QP alone.
. "$(dirname "$0")/lib.sh"
require_root

dmesg_mark
rxe_load
router_hosts io
red_bottleneck io_r out 40
rxe_add io_s rxe_s eth0
rxe_add io_d rxe_d eth0
wait_gid rxe_s 10.8.1.1 && wait_gid rxe_d 10.8.2.1 || ksft_exit

# 1. DCQCN sender, receiver without CC: ECT data, no CNPs come back
rxecc dev set rxe_s algo dcqcn line_rate 100M || die "dcqcn on rxe_s"
rxecc dev set rxe_d algo none || die "none on rxe_d"
if perf_pair cc_to_none 180 io_d rxe_d 10.8.2.1 io_s rxe_s 10.8.1.1 19400 -- \
	ib_write_bw -F -n 600; then
	bw=$(gbps "$TMP/cc_to_none.client")
	check "dcqcn -> none transfer ($bw Gbit/s)" nonzero "${bw:-0}"
fi
check "the router marked the DCQCN sender's packets" \
	test "$(red_marked io_r out)" -gt 0
check "the receiver without CC sent no CNP" test "$(hw_counter rxe_d cc_cnp_sent)" = 0
check "the receiver without CC counted no CE" test "$(hw_counter rxe_d cc_ecn_ce_rcvd)" = 0

# 2. sender without CC, DCQCN receiver: its CNPs reach a QP without CC
rxecc dev set rxe_s algo none || die "none on rxe_s"
rxecc dev set rxe_d algo dcqcn line_rate 100M || die "dcqcn on rxe_d"
# ECN-capable data is what gets marked: let the sender's traffic class
# carry ECT(0) (--tclass=2) as an ECN-capable application would
if perf_pair none_to_cc 180 io_d rxe_d 10.8.2.1 io_s rxe_s 10.8.1.1 19401 -- \
	ib_write_bw -F -n 600 --tclass=2; then
	bw=$(gbps "$TMP/none_to_cc.client")
	check "none -> dcqcn transfer ($bw Gbit/s)" nonzero "${bw:-0}"
fi
sent=$(hw_counter rxe_d cc_cnp_sent)
ign=$(hw_counter rxe_s cc_cnp_ignored)
log "the DCQCN receiver sent $sent CNPs; the sender without CC ignored $ign"
check "the DCQCN receiver sent CNPs" test "$sent" -gt 0
check "every CNP was ignored by the QP without CC" test "$ign" = "$sent"
check "no CNP was handled by the QP without CC" test "$(hw_counter rxe_s cc_cnp_rcvd)" = 0
check "no send errors" test "$(hw_counter rxe_s send_err)$(hw_counter rxe_d send_err)" = 00

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
