#!/bin/bash
# An ACK for a PSN the requester has not sent yet completes nothing (patch
# 0005): one RDMA WRITE of one packet (PSN 0) waits for its ACK, every
# RoCEv2 packet leaving the requester's veth being dropped by tc, so that
# the responder never sees the WRITE. ACKs forged from the responder's
# address (rxecc-inject --ack-psn) for PSN 1, the next PSN, are dropped and
# counted in rcvd_unsent_psn, and the WRITE stays uncompleted; the control,
# ACKs for PSN 0, the WRITE's own, complete it at once. Without the fix the
# ACKs for PSN 1 complete the WRITE with success.
. "$(dirname "$0")/lib.sh"
require_root

need_qptest
INJECT=${INJECT:-$RXECC_TOP/build/user/bin/rxecc-inject}
[ -x "$INJECT" ] || die "$INJECT not built (make user)"

dmesg_mark
rxe_load
rxe_pair ua_a ua_b 10.9.6 || ksft_exit
# both neighbour entries, before the requester's side is cut
ip netns exec ua_b ping -c 1 -W 5 10.9.6.1 >/dev/null || die "ping ua_a from ua_b"
ip netns exec ua_a tc qdisc add dev va root handle 1: prio &&
	ip netns exec ua_a tc filter add dev va parent 1: protocol ip u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff action drop ||
	die "tc drop on va"

# one WRITE of 1 KiB, one packet; rxecc-qptest's QPs start at PSN 0 and
# retransmit after about 1 s
"$QPTEST" --count 1 --size 1024 rxe_a "$(gid_index rxe_a 10.9.6.1)" \
	rxe_b "$(gid_index rxe_b 10.9.6.2)" >"$TMP/qptest.out" 2>&1 &
qp_pid=$!
wait_until 30 eval 'grep -qs "^qpn " "$TMP/qptest.out"' ||
	die "rxecc-qptest did not connect ($(tail -1 "$TMP/qptest.out"))"
read -r _ sqpn _ < <(grep '^qpn ' "$TMP/qptest.out")
sq_psn() {
	rdma resource show qp link rxe_a/1 lqpn "$sqpn" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "sq-psn") print $(i + 1) }'
}
wait_until 10 eval '[ "$(sq_psn)" = 1 ]' ||
	die "the WRITE was not sent (sq-psn $(sq_psn))"
sent0=$(hw_counter rxe_a sent_pkts)

inject() {
	ip netns exec ua_b "$INJECT" --ack-psn "$1" --count "$2" --peer 10.9.6.2 \
		--spoof 10.9.6.99 --dst 10.9.6.1 --qpn "$sqpn" >"$TMP/inject" 2>&1 ||
		fail "rxecc-inject --ack-psn $1: $(tail -1 "$TMP/inject")"
}

unsent0=$(hw_counter rxe_a rcvd_unsent_psn)
inject 1 3
wait_until 5 eval '[ $(($(hw_counter rxe_a rcvd_unsent_psn) - unsent0)) -ge 3 ]'
unsent=$(($(hw_counter rxe_a rcvd_unsent_psn) - unsent0))
check "the 3 ACKs for PSN 1, not sent yet, were counted in rcvd_unsent_psn (+$unsent)" \
	test "$unsent" = 3
# the completer has handled them (counted): a completion would be there now
sleep 0.5
check "they did not complete the WRITE" eval '! grep -q "^completed" "$TMP/qptest.out"'
check "the QP is still in RTS" \
	eval 'rdma resource show qp link rxe_a/1 lqpn "$sqpn" | grep -q "state RTS"'

# the control: an ACK for the WRITE's own PSN completes it
inject 0 1
wait_until 5 eval 'grep -qs "^completed 1" "$TMP/qptest.out"'
check "control: the ACK for PSN 0 completed the WRITE" grep -q '^completed 1' "$TMP/qptest.out"
unsent=$(($(hw_counter rxe_a rcvd_unsent_psn) - unsent0))
check "control: it was not counted in rcvd_unsent_psn (+$unsent in all)" test "$unsent" = 3
log "requester packets sent meanwhile (retransmissions): $(($(hw_counter rxe_a sent_pkts) - sent0))"

kill "$qp_pid" 2>/dev/null
wait "$qp_pid" 2>/dev/null
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
