#!/bin/bash
# Forged feedback (rxecc-inject): CNPs and ACKs at a DCQCN sender's QP from
# a non-peer address, to wrong QPNs, truncated, oversize, with a bad ICRC
# or garbage fields, and ACKs/NAKs from the peer with PSNs the QP did not
# send, while the QP sends. Every forged CNP is counted as ignored
# (cc_cnp_ignored: by the CNP handler, or by rxe_rcv's drop of one too
# short for its headers), none acts on the QP (its
# rate stays at the line rate, its cnp_rx at 0), the QP stays in RTS and
# keeps sending, and the kernel logs nothing. The control: well-formed
# CNPs from the peer, sent the same way, do act (counted, rate cut). The
# seed is printed; RXECC_INJECT_SEED=N replays it.
. "$(dirname "$0")/lib.sh"
require_root

inject_init 100

dmesg_mark
rxe_load
rxe_pair fi_a fi_b 10.7.3 || ksft_exit
# the innocent QP: a DCQCN sender at its line rate, which only a CNP cuts
rxecc dev set rxe_a algo dcqcn line_rate 100M || die "dcqcn on rxe_a"
line_kbps=100000

traffic_start fi_b rxe_b 10.7.3.2 fi_a rxe_a 10.7.3.1 19500
qp=$QPN
log "innocent QP: rxe_a QP $qp, sending to rxe_b"
wait_until 30 eval '[ "$(qp_rate_kbps rxe_a "$qp")" = "$line_kbps" ]' ||
	die "the QP does not run at its line rate ($(qp_rate_kbps rxe_a "$qp") kbit/s)"

ign0=$(hw_counter rxe_a cc_cnp_ignored)
rcv0=$(hw_counter rxe_a cc_cnp_rcvd)
rx0=$(ip netns exec fi_b cat /sys/class/net/vb/statistics/rx_bytes)
ip netns exec fi_b "$INJECT" --seed "$seed" --count "$COUNT" --peer 10.7.3.2 --spoof 10.7.3.99 \
	--dst 10.7.3.1 --qpn "$qp" >"$TMP/inject" 2>&1
rc=$?
sed 's/^/# /' "$TMP/inject"
check "rxecc-inject ran (seed $seed)" test $rc = 0
# the counters are updated in softirq: give the last packets a moment
sleep 1
reach=$(sed -n 's/.*packets, \([0-9]*\) counted as CNPs$/\1/p' "$TMP/inject")
ign=$(($(hw_counter rxe_a cc_cnp_ignored) - ign0))
rcv=$(($(hw_counter rxe_a cc_cnp_rcvd) - rcv0))
log "forged CNPs: $reach sent; cc_cnp_ignored +$ign, cc_cnp_rcvd +$rcv"
check "every forged CNP was counted as ignored ($ign of ${reach:-?})" \
	test "$ign" = "${reach:--1}"
check "no forged CNP was taken (cc_cnp_rcvd +$rcv)" test "$rcv" = 0
check "the QP's cnp_rx is 0 ($(qp_field rxe_a "$qp" cc_cnp_rx))" test "$(qp_field rxe_a "$qp" cc_cnp_rx)" = 0
rate=$(qp_rate_kbps rxe_a "$qp")
check "the QP still runs at its line rate ($rate kbit/s)" test "$rate" = "$line_kbps"
check "the QP is in RTS" eval 'rdma resource show qp link rxe_a/1 lqpn "$qp" | grep -q "state RTS"'
sleep 1
rx1=$(ip netns exec fi_b cat /sys/class/net/vb/statistics/rx_bytes)
check "the QP kept sending ($((rx1 - rx0)) bytes meanwhile)" test $((rx1 - rx0)) -gt 1000000
check "the sender is still running" kill -0 "$CLI_PID"

# the control: the same injector's well-formed CNPs from the peer act
ip netns exec fi_b "$INJECT" --seed "$seed" --valid --count 5 --peer 10.7.3.2 --spoof 10.7.3.99 \
	--dst 10.7.3.1 --qpn "$qp" >"$TMP/valid" 2>&1 || fail "rxecc-inject --valid"
sleep 1
rcv=$(($(hw_counter rxe_a cc_cnp_rcvd) - rcv0))
check "control: 5 well-formed CNPs from the peer were taken ($rcv)" test "$rcv" = 5
check "control: the QP's cnp_rx is 5" test "$(qp_field rxe_a "$qp" cc_cnp_rx)" = 5
traffic_stop
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
