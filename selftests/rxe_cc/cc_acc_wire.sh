#!/bin/bash
# ACC's mark echo on the wire, through a router whose RED queue marks CE
# (a bottleneck of 40 Mbit/s; RED's CE is what a TCD congestion port
# sends). ACC on both ends: the sender's data is ECT(0) and asks for an ACK
# per packet, the router marks some of it, the receiver echoes the marks
# in BTH byte 4 of its ACKs (cc_tcd_echo_tx) with CAP, and the sender's
# algorithm takes them (cc_tcd_rx), counts the periods they mark and knows
# its peer echoes (peer_cap 1); no echo is out of the window
# (cc_tcd_bad). ACC towards a receiver that runs none: the data is marked
# just the same, but nothing is echoed, the sender sees no CAP (peer_cap
# 0), and the WRITEs complete.
. "$(dirname "$0")/lib.sh"
require_root

need_qptest
dmesg_mark
rxe_load
router_hosts aw
red_bottleneck aw_r out 40
rxe_add aw_s rxe_s eth0
rxe_add aw_d rxe_d eth0
wait_gid rxe_s 10.8.1.1 && wait_gid rxe_d 10.8.2.1 || ksft_exit

# counters TAG: the TCD counters of both ends
counters() {
	local d
	for d in rxe_s rxe_d; do
		printf '%s: tcd_echo_tx %s tcd_rx %s tcd_bad %s ce_rcvd %s; ' "$d" \
			"$(hw_counter "$d" cc_tcd_echo_tx)" "$(hw_counter "$d" cc_tcd_rx)" \
			"$(hw_counter "$d" cc_tcd_bad)" "$(hw_counter "$d" cc_ecn_ce_rcvd)"
	done
	echo
}
# state NAME...: values of the sending QP's ACC state, space-separated
state() { qp_fields rxe_s "$SQPN" "$@"; }

# ---- ACC to ACC ------------------------------------------------------------
rxecc dev set rxe_s algo acc line_rate 100M >/dev/null || die "acc on rxe_s"
rxecc dev set rxe_d algo acc line_rate 100M >/dev/null || die "acc on rxe_d"
m0=$(red_marked aw_r out)
router_writes acc
marked=$(($(red_marked aw_r out) - m0))
log "$(counters)"
log "router marked $marked; ACC: $(state peer_cap periods congested_periods partial_periods clear_periods halts rate_kbps marks_ignored)"
check "acc: the router marked CE ($marked packets)" test "$marked" -gt 0
check "acc: rxe_d echoed marks in its ACKs" nonzero "$(hw_counter rxe_d cc_tcd_echo_tx)"
check "acc: rxe_s's algorithm took marked echoes" nonzero "$(hw_counter rxe_s cc_tcd_rx)"
check "acc: no echo was out of the window" \
	test "$(hw_counter rxe_s cc_tcd_bad)$(hw_counter rxe_d cc_tcd_bad)" = 00
check "acc: the sender knows its peer echoes (peer_cap 1)" \
	test "$(qp_field rxe_s "$SQPN" peer_cap)" = 1
cp=$(($(qp_field rxe_s "$SQPN" congested_periods) + $(qp_field rxe_s "$SQPN" partial_periods)))
check "acc: periods with CE were classified ($cp)" test "$cp" -gt 0
check "acc: every echo fitted its ACK (marks_ignored 0)" \
	test "$(qp_field rxe_s "$SQPN" marks_ignored)" = 0
qptest_writes_stop

# ---- ACC to none -------------------------------------------------------------
rxecc dev set rxe_d algo none >/dev/null || die "none on rxe_d"
echo0=$(hw_counter rxe_d cc_tcd_echo_tx) rx0=$(hw_counter rxe_s cc_tcd_rx)
m0=$(red_marked aw_r out)
router_writes none
marked=$(($(red_marked aw_r out) - m0))
log "$(counters)"
log "router marked $marked; ACC: $(state peer_cap periods congested_periods partial_periods clear_periods rate_kbps)"
check "to none: the router marked CE ($marked packets)" test "$marked" -gt 0
check "to none: nothing was echoed" test "$(hw_counter rxe_d cc_tcd_echo_tx)" = "$echo0"
check "to none: the sender took no marked echo" test "$(hw_counter rxe_s cc_tcd_rx)" = "$rx0"
check "to none: the sender saw no CAP (peer_cap 0)" test "$(qp_field rxe_s "$SQPN" peer_cap)" = 0
check "to none: no period was marked" \
	test "$(state congested_periods partial_periods ue_periods)" = "0 0 0 "
qptest_writes_stop

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
