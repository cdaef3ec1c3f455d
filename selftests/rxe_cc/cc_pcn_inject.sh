#!/bin/bash
# Forged PCN reports (rxecc-inject --kinds pcn...) at a sending QP, while it
# sends to a peer that reports nothing itself (none):
#  - a DCQCN QP counts well-formed rate reports 0xC2 as ignored
#    (cc_pcn_inc_ignored) and keeps its line rate: only PCN takes them;
#  - switched to PCN, the QP takes well-formed decreases from its peer (the
#    control: cc_cnp_rcvd, its rate goes to RecRate (1 - w_min));
#  - truncated, misaddressed, non-peer, bad-ICRC reports and ones with a
#    rate of 0 or above the line rate, DEC against the opcode, another
#    version, no rate, or an old sequence are each counted exactly once
#    (cc_cnp_ignored + cc_pcn_inc_ignored + cc_pcn_bad grow by the number
#    sent), none is taken and the rate stays;
#  - a stream of well-formed decreases to 1 Mbit/s cannot take the QP below
#    its floor (min_rate_kbps), and well-formed increases raise it again;
# the QP stays in RTS and keeps sending, and the kernel logs nothing. The
# seed is printed; RXECC_INJECT_SEED=N replays it.
. "$(dirname "$0")/lib.sh"
require_root

inject_init 50
FLOOR=20000

dmesg_mark
rxe_load
rxe_pair pi_a pi_b 10.7.5 || ksft_exit
rxecc dev set rxe_a algo dcqcn line_rate 100M >/dev/null || die "dcqcn on rxe_a"

traffic_start pi_b rxe_b 10.7.5.2 pi_a rxe_a 10.7.5.1 19600
qp=$QPN
log "QP under test: rxe_a QP $qp, sending to rxe_b (none)"
wait_until 30 eval '[ "$(qp_rate_kbps rxe_a "$qp")" = 100000 ]' ||
	die "the QP does not run at its line rate ($(qp_rate_kbps rxe_a "$qp") kbit/s)"

# inject NAME ARGS...: one rxecc-inject run from rxe_b's namespace; sets
# COUNTED (its "counted as CNPs")
inject() {
	local name=$1
	shift
	ip netns exec pi_b "$INJECT" --seed "$seed" --peer 10.7.5.2 --spoof 10.7.5.99 \
		--dst 10.7.5.1 --qpn "$qp" --pcn-line 100 "$@" >"$TMP/$name" 2>&1
	check "rxecc-inject $name ran (seed $seed)" test $? = 0
	sed 's/^/# /' "$TMP/$name"
	COUNTED=$(sed -n 's/.*packets, \([0-9]*\) counted as CNPs$/\1/p' "$TMP/$name")
	# the counters are updated in softirq: give the last packets a moment
	sleep 1
}
counters() {
	echo $(($(hw_counter rxe_a cc_cnp_ignored) + $(hw_counter rxe_a cc_pcn_inc_ignored) +
		$(hw_counter rxe_a cc_pcn_bad))) "$(hw_counter rxe_a cc_cnp_rcvd)" \
		"$(hw_counter rxe_a cc_pcn_inc_rcvd)"
}
state() { qp_fields rxe_a "$qp" "$@"; }

# ---- a DCQCN QP and rate reports -------------------------------------------------
ign0=$(hw_counter rxe_a cc_pcn_inc_ignored) rcv0=$(hw_counter rxe_a cc_cnp_rcvd)
inject dcqcn-inc --pcn-valid --pcn-inc --pcn-seq 1 --count 20
check "dcqcn: the 20 rate reports were ignored (cc_pcn_inc_ignored +$(($(hw_counter rxe_a cc_pcn_inc_ignored) - ign0)))" \
	test $(($(hw_counter rxe_a cc_pcn_inc_ignored) - ign0)) = 20
check "dcqcn: no CNP was taken" test "$(hw_counter rxe_a cc_cnp_rcvd)" = "$rcv0"
check "dcqcn: the QP kept its line rate" test "$(qp_rate_kbps rxe_a "$qp")" = 100000

# ---- PCN: the control ------------------------------------------------------------
# idle_periods 0: a sender idle for 100 periods (100 ms) restarts at line
# rate (tests/cc/pcn_test.cc), and the debug kernel has stalled the sender
# that long, which put the QP back at line rate between a forged report and
# the check of its rate; this test is about the reports
rxecc qp set rxe_a "$qp" algo pcn min_rate_kbps "$FLOOR" idle_periods 0 >/dev/null ||
	die "pcn on QP $qp"
wait_until 5 eval '[ "$(qp_rate_kbps rxe_a "$qp")" = 100000 ]'
read -r bad0 rcv0 inc0 < <(counters)
inject control --pcn-valid --pcn-seq 1000 --count 5 --pcn-rate 50
read -r bad rcv inc < <(counters)
log "QP: $(state rate_kbps cnp_dec cnp_inc cnp_bad cnp_old)"
check "control: 5 well-formed decreases were taken ($((rcv - rcv0)))" test $((rcv - rcv0)) = 5
check "control: the QP's cnp_dec is 5" test "$(state cnp_dec)" = "5 "
# RecRate 50 Mbit/s less w_min = 1/128
check "control: the rate went to 49609 kbit/s ($(qp_rate_kbps rxe_a "$qp"))" \
	test "$(qp_rate_kbps rxe_a "$qp")" = 49609

# ---- PCN: the bad reports --------------------------------------------------------
read -r bad0 rcv0 inc0 < <(counters)
inject bad --count "$COUNT" --pcn-seq 1005 --kinds \
	pcn_non_peer,pcn_truncated,pcn_bad_icrc,pcn_unknown_qp,pcn_rate_zero,pcn_rate_high,pcn_flag_mismatch,pcn_bad_version,pcn_no_rate
read -r bad rcv inc < <(counters)
log "QP: $(state rate_kbps cnp_dec cnp_inc cnp_bad cnp_old); counted +$((bad - bad0)) of $COUNTED"
check "bad: all $((9 * COUNT)) were sent and counted by rxe ($COUNTED)" test "$COUNTED" = $((9 * COUNT))
check "bad: each was counted once as ignored or refused (+$((bad - bad0)))" \
	test $((bad - bad0)) = "$COUNTED"
check "bad: none was taken" test "$rcv $inc" = "$rcv0 $inc0"
check "bad: the QP took nothing new and refused those that reached PCN" \
	test "$(state cnp_dec cnp_inc cnp_bad)" = "5 0 $((5 * COUNT)) "
check "bad: the rate stayed at 49609 kbit/s" test "$(qp_rate_kbps rxe_a "$qp")" = 49609

read -r bad0 rcv0 inc0 < <(counters)
inject old --count "$COUNT" --pcn-seq 1000 --kinds pcn_old_seq
read -r bad rcv inc < <(counters)
check "old: each old sequence was refused (+$((bad - bad0)) of $COUNT)" \
	test $((bad - bad0)) = "$COUNT"
check "old: the QP counted them (cnp_old $(state cnp_old))" test "$(state cnp_old)" = "$COUNT "
check "old: the rate stayed" test "$(qp_rate_kbps rxe_a "$qp")" = 49609

# ---- PCN: the floor, and the way back up ------------------------------------------
inject floor --pcn-valid --pcn-seq 2000 --count 20 --pcn-rate 1
check "floor: 20 decreases to 1 Mbit/s leave the QP at its floor ($(qp_rate_kbps rxe_a "$qp"))" \
	test "$(qp_rate_kbps rxe_a "$qp")" = "$FLOOR"
inject up --pcn-valid --pcn-inc --pcn-seq 3000 --count 10
up=$(qp_rate_kbps rxe_a "$qp")
log "QP: $(state rate_kbps w cnp_dec cnp_inc)"
check "up: 10 increases raised the rate ($up kbit/s)" test "$up" -gt "$FLOOR"
check "up: the QP's cnp_inc is 10" test "$(state cnp_inc)" = "10 "

check "the QP is in RTS" eval 'rdma resource show qp link rxe_a/1 lqpn "$qp" | grep -q "state RTS"'
rx0=$(ip netns exec pi_b cat /sys/class/net/vb/statistics/rx_bytes)
sleep 1
rx1=$(ip netns exec pi_b cat /sys/class/net/vb/statistics/rx_bytes)
check "the QP kept sending ($((rx1 - rx0)) bytes in a second)" test $((rx1 - rx0)) -gt 1000000
check "the sender is still running" kill -0 "$CLI_PID"
traffic_stop
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
