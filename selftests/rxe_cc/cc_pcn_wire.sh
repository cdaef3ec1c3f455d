#!/bin/bash
# PCN's rate reports on the wire, through a router whose RED queue marks CE
# (a bottleneck of 40 Mbit/s below a 100 Mbit/s sender), and PCN beside
# peers that do not run it:
#  - PCN to PCN: the receiver reports every period, decreases in CNPs 0x81
#    (cc_cnp_sent) and increases in rate reports 0xC2 (cc_pcn_inc_sent),
#    knowing its peer takes them (peer_cap 1); the sender takes them
#    (cc_cnp_rcvd, cc_pcn_inc_rcvd), refuses none (cc_pcn_bad, cnp_bad,
#    cnp_old) and ends below the line rate;
#  - PCN to none: nothing is reported, the sender stays at the line rate;
#  - PCN to DCQCN: the receiver's standard CNPs are foreign to PCN
#    (cnp_foreign), which keeps its rate;
#  - DCQCN to PCN: the DCQCN sender's data carries no CAP, so the PCN
#    receiver withholds its increases (np_withheld) and sends no 0xC2,
#    which a DCQCN reaction point is never given;
# and every run's WRITEs complete.
. "$(dirname "$0")/lib.sh"
require_root

need_qptest
dmesg_mark
rxe_load
router_hosts pw
red_bottleneck pw_r out 40
rxe_add pw_s rxe_s eth0
rxe_add pw_d rxe_d eth0
wait_gid rxe_s 10.8.1.1 && wait_gid rxe_d 10.8.2.1 || ksft_exit

PCN="period_us 2000"

# counters: the feedback counters of both ends
counters() {
	local d c
	for d in rxe_s rxe_d; do
		printf '%s:' "$d"
		for c in cc_cnp_sent cc_cnp_rcvd cc_cnp_ignored cc_pcn_inc_sent cc_pcn_inc_rcvd \
			cc_pcn_inc_ignored cc_pcn_bad cc_ecn_ce_rcvd; do
			printf ' %s %s' "${c#cc_}" "$(hw_counter "$d" "$c")"
		done
		printf '; '
	done
	echo
}
snap() {
	hw_snap "rxe_s rxe_d" "cc_cnp_sent cc_cnp_rcvd cc_pcn_inc_sent cc_pcn_inc_rcvd cc_pcn_inc_ignored cc_pcn_bad"
}

# ---- PCN to PCN ----------------------------------------------------------------
rxecc dev set rxe_s algo pcn line_rate 100M $PCN >/dev/null || die "pcn on rxe_s"
rxecc dev set rxe_d algo pcn line_rate 100M $PCN >/dev/null || die "pcn on rxe_d"
snap
m0=$(red_marked pw_r out)
router_writes pcn
marked=$(($(red_marked pw_r out) - m0))
log "$(counters)"
log "router marked $marked; sender: $(qp_fields rxe_s "$SQPN" rate_kbps w cnp_dec cnp_inc cnp_bad cnp_old cnp_foreign cnp_ecn_mismatch)"
log "receiver: $(qp_fields rxe_d "$DQPN" peer_cap np_dec np_inc np_withheld np_rate_kbps)"
check "pcn: the router marked CE ($marked packets)" test "$marked" -gt 0
check "pcn: the receiver knows its peer takes reports (peer_cap 1)" \
	test "$(qp_field rxe_d "$DQPN" peer_cap)" = 1
check "pcn: the receiver sent decreases (cc_cnp_sent +$(hw_delta rxe_d cc_cnp_sent))" \
	nonzero "$(hw_delta rxe_d cc_cnp_sent)"
check "pcn: the receiver sent increases (cc_pcn_inc_sent +$(hw_delta rxe_d cc_pcn_inc_sent))" \
	nonzero "$(hw_delta rxe_d cc_pcn_inc_sent)"
check "pcn: the sender took decreases (cc_cnp_rcvd +$(hw_delta rxe_s cc_cnp_rcvd))" \
	nonzero "$(hw_delta rxe_s cc_cnp_rcvd)"
check "pcn: the sender took increases (cc_pcn_inc_rcvd +$(hw_delta rxe_s cc_pcn_inc_rcvd))" \
	nonzero "$(hw_delta rxe_s cc_pcn_inc_rcvd)"
check "pcn: the sender took no more than the receiver sent" \
	test "$(hw_delta rxe_s cc_pcn_inc_rcvd)" -le "$(hw_delta rxe_d cc_pcn_inc_sent)" -a \
	"$(hw_delta rxe_s cc_cnp_rcvd)" -le "$(hw_delta rxe_d cc_cnp_sent)"
check "pcn: no report was refused (cc_pcn_bad, cnp_bad, cnp_old, cnp_foreign 0)" \
	test "$(hw_delta rxe_s cc_pcn_bad) $(qp_fields rxe_s "$SQPN" cnp_bad cnp_old cnp_foreign)" = "0 0 0 0 "
check "pcn: the QP's counts match the device's" \
	test "$(qp_fields rxe_s "$SQPN" cnp_dec cnp_inc)" = \
	"$(hw_delta rxe_s cc_cnp_rcvd) $(hw_delta rxe_s cc_pcn_inc_rcvd) "
rate=$(qp_field rxe_s "$SQPN" rate_kbps)
check "pcn: the sender is below the line rate ($rate kbit/s)" test "$rate" -lt 100000
qptest_writes_stop

# ---- PCN to none ---------------------------------------------------------------
rxecc dev set rxe_d algo none >/dev/null || die "none on rxe_d"
snap
router_writes none
log "$(counters)"
log "sender: $(qp_fields rxe_s "$SQPN" rate_kbps cnp_dec cnp_inc cnp_foreign)"
check "to none: the receiver reported nothing" \
	test "$(hw_delta rxe_d cc_cnp_sent) $(hw_delta rxe_d cc_pcn_inc_sent)" = "0 0"
check "to none: the sender stayed at the line rate, with no report" \
	test "$(qp_fields rxe_s "$SQPN" rate_kbps cnp_dec cnp_inc cnp_foreign)" = "100000 0 0 0 "
qptest_writes_stop

# ---- PCN to DCQCN --------------------------------------------------------------
rxecc dev set rxe_d algo dcqcn >/dev/null || die "dcqcn on rxe_d"
snap
router_writes dcqcn
log "$(counters)"
log "sender: $(qp_fields rxe_s "$SQPN" rate_kbps cnp_dec cnp_inc cnp_foreign)"
check "to dcqcn: the DCQCN receiver sent CNPs (+$(hw_delta rxe_d cc_cnp_sent))" \
	nonzero "$(hw_delta rxe_d cc_cnp_sent)"
check "to dcqcn: PCN counted them as foreign" \
	nonzero "$(qp_field rxe_s "$SQPN" cnp_foreign)"
check "to dcqcn: the sender kept the line rate, no report taken" \
	test "$(qp_fields rxe_s "$SQPN" rate_kbps cnp_dec cnp_inc)" = "100000 0 0 "
qptest_writes_stop

# ---- DCQCN to PCN --------------------------------------------------------------
rxecc dev set rxe_s algo dcqcn >/dev/null || die "dcqcn on rxe_s"
rxecc dev set rxe_d algo pcn $PCN >/dev/null || die "pcn on rxe_d"
snap
router_writes dcqcn-to-pcn
log "$(counters)"
log "receiver: $(qp_fields rxe_d "$DQPN" peer_cap np_dec np_inc np_withheld)"
check "from dcqcn: the receiver sees no CAP (peer_cap 0)" \
	test "$(qp_field rxe_d "$DQPN" peer_cap)" = 0
check "from dcqcn: it withheld its increases ($(qp_field rxe_d "$DQPN" np_withheld))" \
	nonzero "$(qp_field rxe_d "$DQPN" np_withheld)"
check "from dcqcn: no rate report 0xC2 went out" \
	test "$(hw_delta rxe_d cc_pcn_inc_sent) $(qp_field rxe_d "$DQPN" np_inc)" = "0 0"
qptest_writes_stop

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
