#!/bin/bash
# Forged TCD mark echoes (rxecc-inject --kinds tcd) at an ACC sender's QP
# while it sends over a veth, where nothing marks ECN: ACKs carrying BECN
# with a CE count, or UE, from a non-peer, to a QPN that does not exist,
# with a bad ICRC (rxe drops all three before congestion control sees
# them), or for a PSN ahead of anything sent or far behind (they reach the
# completer, lie outside the send window, and each is counted once in
# cc_tcd_bad). None may reach ACC: no marked echo is taken (cc_tcd_rx), no
# period is classified as marked, no halt, the rate stays the line rate,
# the QP stays in RTS and keeps sending, and the kernel logs nothing. The
# control: one well-formed echo from the peer (--tcd-valid: BECN, CE count
# 1) for the last PSN sent, still unacknowledged behind the shaped veth,
# must be taken (cc_tcd_rx +1), which nothing else on a veth can cause.
#
# The sender's veth is shaped to 1 Mbit/s (tbf, 1 MB of queue) so that its
# PSN moves slowly and the last PSN sent waits in the queue for a good
# part of a second. The seed is printed; RXECC_INJECT_SEED=N replays it,
# RXECC_INJECT_COUNT=N sends N of each kind (default 100).
. "$(dirname "$0")/lib.sh"
require_root

need_qptest
inject_init 100
DROPPED="tcd_non_peer tcd_wrong_qpn tcd_bad_icrc"
OUTSIDE="tcd_bad_psn tcd_old_psn"

dmesg_mark
rxe_load
rxe_pair ai_a ai_b 10.9.9 || ksft_exit
rxecc dev set rxe_a algo acc line_rate 100M >/dev/null || die "acc on rxe_a"
rxecc dev set rxe_b algo acc line_rate 100M >/dev/null || die "acc on rxe_b"
ip netns exec ai_a tc qdisc add dev va root tbf rate 1mbit burst 4kb limit 1mb ||
	die "tbf on va"

# ctr NAME: a port counter of rxe_a; snap: the sending QP's driver fields
# (rdma resource -dd), f NAME: one of them; sq_psn: its next send PSN
ctr() { hw_counter rxe_a "$1"; }
snap() { qp_snap rxe_a "$SQPN"; }
f() { snap_field "$1"; }
sq_psn() { qp_sq_psn rxe_a "$SQPN"; }
# marked: ACC's periods classified with marks, halts and refused marks
marked() {
	snap
	echo "$(f congested_periods)/$(f partial_periods)/$(f ue_periods)/$(f halts)/$(f halvings)/$(f marks_ignored)"
}

"$QPTEST" --size 16384 --depth 8 rxe_a "$(gid_index rxe_a 10.9.9.1)" \
	rxe_b "$(gid_index rxe_b 10.9.9.2)" >"$TMP/qptest.out" 2>&1 &
qp_pid=$!
wait_until 60 eval 'grep -qs "^flowing" "$TMP/qptest.out"' ||
	die "rxecc-qptest does not flow ($(tail -1 "$TMP/qptest.out"))"
read -r _ SQPN _ < <(grep '^qpn ' "$TMP/qptest.out")
log "sending QP: rxe_a QP $SQPN, WRITEs to rxe_b, seed $seed"
wait_until 30 eval 'snap; [ "$(f periods)" -gt 2 ]' || die "ACC's periods do not start"
snap
rate0=$(f rate_kbps)
log "ACC before: $(marked) (congested/partial/ue periods/halts/halvings/marks_ignored)," \
	"rate_kbps $rate0, peer_cap $(f peer_cap)"
check "before: nothing marked on a veth" test "$(marked)" = "0/0/0/0/0/0"
check "before: the line rate ($rate0 kbit/s)" test "$rate0" = 100000
check "before: the peer echoes (peer_cap 1)" test "$(f peer_cap)" = 1

bad0=$(ctr cc_tcd_bad) rx0=$(ctr cc_tcd_rx)
declare -A sent
outside=0
for kind in $DROPPED $OUTSIDE; do
	psn=$(sq_psn)
	ip netns exec ai_b "$INJECT" --seed "$seed" --count "$COUNT" --kinds "$kind" \
		--psn-base "$psn" --peer 10.9.9.2 --spoof 10.9.9.99 --dst 10.9.9.1 \
		--qpn "$SQPN" >"$TMP/inject" 2>&1 ||
		die "rxecc-inject --kinds $kind: $(tail -1 "$TMP/inject")"
	n=$(sed -n "s/^$kind: \([0-9]*\) sent.*/\1/p" "$TMP/inject")
	[ -n "$n" ] || die "rxecc-inject --kinds $kind printed no count: $(cat "$TMP/inject")"
	sent[$kind]=$n
	[[ " $OUTSIDE " == *" $kind "* ]] && outside=$((outside + n))
	log "$kind: $n sent (psn-base $psn)"
done

bad_d() { echo $(($(ctr cc_tcd_bad) - bad0)); }
bad=$(settle bad_d "$outside")
log "cc_tcd_bad +$bad, cc_tcd_rx +$(($(ctr cc_tcd_rx) - rx0)); ACC: $(marked), rate_kbps $(f rate_kbps)"
check "every forged echo outside the window was counted once in cc_tcd_bad (+$bad of $outside)" \
	test "$bad" = "$outside"
check "no forged echo was taken (cc_tcd_rx +$(($(ctr cc_tcd_rx) - rx0)))" \
	test "$(ctr cc_tcd_rx)" = "$rx0"
check "ACC saw no mark: no marked period, no halt, no halving, none refused" \
	test "$(marked)" = "0/0/0/0/0/0"
check "the rate is still the line rate ($(f rate_kbps) kbit/s)" test "$(f rate_kbps)" = 100000
check "the QP is in RTS" eval 'rdma resource show qp link rxe_a/1 lqpn "$SQPN" | grep -q "state RTS"'
p0=$(sq_psn)
sleep 1
adv=$((($(sq_psn) - p0) & 0xffffff))
check "the QP kept sending ($adv packets in 1 s)" test "$adv" -gt 0
check "rxecc-qptest is still running, without a completion error" \
	eval 'kill -0 "$qp_pid" && ! grep -q "error" "$TMP/qptest.out"'

# the control: one well-formed echo from the peer for the last PSN sent
rx0=$(ctr cc_tcd_rx) bad0=$(ctr cc_tcd_bad)
psn=$(sq_psn)
ip netns exec ai_b "$INJECT" --seed "$seed" --tcd-valid --count 1 --psn-base "$psn" \
	--peer 10.9.9.2 --spoof 10.9.9.99 --dst 10.9.9.1 --qpn "$SQPN" >"$TMP/valid" 2>&1 ||
	fail "rxecc-inject --tcd-valid: $(tail -1 "$TMP/valid")"
rx_d() { echo $(($(ctr cc_tcd_rx) - rx0)); }
taken=$(settle rx_d 1)
log "control: cc_tcd_rx +$taken, cc_tcd_bad +$(($(ctr cc_tcd_bad) - bad0)); ACC: $(marked)"
check "control: the well-formed echo was taken (cc_tcd_rx +$taken)" test "$taken" = 1
check "control: it was not refused (cc_tcd_bad +$(($(ctr cc_tcd_bad) - bad0)))" \
	test "$(ctr cc_tcd_bad)" = "$bad0"

kill "$qp_pid" 2>/dev/null
wait "$qp_pid" 2>/dev/null
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
