#!/bin/bash
# ACCurate's flow rate packets on the wire, through a router (no rate unit
# on the path), and beside peers that do not run it:
#  - ACCurate to ACCurate: once the receiver's responses have shown CAP,
#    the sender sends an FRP 0xC0 every RRP (cc_frp_sent), the receiver
#    echoes each one under 0xC1 (cc_frp_echoed; a STOP at the end needs no
#    echo: cc_frp_stops), the sender's algorithm takes every echo
#    (cc_frp_rcvd = its QP's resp_rx, plus the late ones an idle flow
#    drops, inactive_rx), none is malformed or ignored, and
#    with no switch lowering CR or DR the sender stays at the line rate;
#  - ACCurate to none: the receiver's packets carry no CAP, so no FRP goes
#    out (cc_frp_withheld grows, cc_frp_sent does not) and the sender keeps
#    the line rate;
#  - ACCurate to PCN: a PCN QP sets CAP and echoes FRPs too;
# and every run's WRITEs complete.
. "$(dirname "$0")/lib.sh"
require_root

need_qptest
dmesg_mark
rxe_load
router_hosts aw
rxe_add aw_s rxe_s eth0
rxe_add aw_d rxe_d eth0
wait_gid rxe_s 10.8.1.1 && wait_gid rxe_d 10.8.2.1 || ksft_exit

ACR="rrp_us 2000"
COUNTERS="cc_frp_sent cc_frp_withheld cc_frp_echoed cc_frp_stops cc_frp_rcvd cc_frp_bad cc_frp_ignored"

counters() {
	local d c
	for d in rxe_s rxe_d; do
		printf '%s:' "$d"
		for c in $COUNTERS; do printf ' %s %s' "${c#cc_frp_}" "$(hw_counter "$d" "$c")"; done
		printf '; '
	done
	echo
}
snap() { hw_snap "rxe_s rxe_d" "$COUNTERS"; }

# ---- ACCurate to ACCurate ------------------------------------------------------------
rxecc dev set rxe_s algo accurate line_rate 100M $ACR >/dev/null || die "accurate on rxe_s"
rxecc dev set rxe_d algo accurate line_rate 100M $ACR >/dev/null || die "accurate on rxe_d"
snap
router_writes accurate
# the sender goes idle: its STOP follows within an RRP or two
nap 0.5
log "$(counters)"
log "sender: $(qp_fields rxe_s "$SQPN" rate_kbps frp_tx_init frp_tx_normal frp_tx_stop resp_rx inactive_rx bad_rx stale_rx no_resp)"
sent=$(hw_delta rxe_s cc_frp_sent) echoed=$(hw_delta rxe_d cc_frp_echoed)
stops=$(hw_delta rxe_d cc_frp_stops) rcvd=$(hw_delta rxe_s cc_frp_rcvd)
check "accurate: the sender sent FRPs ($sent)" test "$sent" -gt 10
check "accurate: the receiver echoed every forward FRP but the STOPs ($echoed + $stops of $sent)" \
	test $((echoed + stops)) = "$sent"
check "accurate: the STOP at the end arrived ($stops)" test "$stops" -ge 1
check "accurate: the sender took every echo ($rcvd of $echoed)" test "$rcvd" = "$echoed"
# a response to the FRP before a STOP may come after it: the idle flow
# drops it (inactive_rx)
read -r resp inactive < <(qp_fields rxe_s "$SQPN" resp_rx inactive_rx)
check "accurate: the QP took or dropped as late each response ($resp + $inactive of $rcvd)" \
	test $((resp + inactive)) = "$rcvd"
check "accurate: nothing malformed or ignored" \
	test "$(hw_delta rxe_s cc_frp_bad) $(hw_delta rxe_d cc_frp_bad) $(hw_delta rxe_s cc_frp_ignored) $(hw_delta rxe_d cc_frp_ignored)" = "0 0 0 0"
check "accurate: no rate unit on the path, the sender kept the line rate" \
	test "$(qp_field rxe_s "$SQPN" rate_kbps)" = 100000
qptest_writes_stop

# ---- ACCurate to none ----------------------------------------------------------------
rxecc dev set rxe_d algo none >/dev/null || die "none on rxe_d"
snap
router_writes none
log "$(counters)"
log "sender: $(qp_fields rxe_s "$SQPN" rate_kbps frp_tx_init frp_tx_normal resp_rx no_resp)"
check "to none: no FRP went out" test "$(hw_delta rxe_s cc_frp_sent)" = 0
check "to none: the sender withheld them ($(hw_delta rxe_s cc_frp_withheld))" \
	test "$(hw_delta rxe_s cc_frp_withheld)" -gt 0
check "to none: the receiver saw none" \
	test "$(hw_delta rxe_d cc_frp_echoed) $(hw_delta rxe_d cc_frp_ignored)" = "0 0"
check "to none: the sender kept the line rate" \
	test "$(qp_field rxe_s "$SQPN" rate_kbps)" = 100000
qptest_writes_stop

# ---- ACCurate to PCN -----------------------------------------------------------------
rxecc dev set rxe_d algo pcn >/dev/null || die "pcn on rxe_d"
snap
router_writes pcn
log "$(counters)"
check "to pcn: the PCN QP (CAP) echoed the FRPs ($(hw_delta rxe_d cc_frp_echoed))" \
	test "$(hw_delta rxe_d cc_frp_echoed)" -gt 0
check "to pcn: the sender took them ($(hw_delta rxe_s cc_frp_rcvd))" \
	test "$(hw_delta rxe_s cc_frp_rcvd)" -gt 0
qptest_writes_stop

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
