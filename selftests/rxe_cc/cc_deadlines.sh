#!/bin/bash
# The framework serves an algorithm's deadlines on time, also on a QP that
# has gone quiet: DCQCN's deferred CNP goes out at the end of the gap after
# the last marked packet of a burst (np_defer), and the rate of a QP whose
# algorithm raises it by timer ("aimd", selftests/rxe_cc/modules) recovers
# while the QP sends nothing. Every data packet reaching the receiver is
# marked CE by a tc pedit action on its veth.
. "$(dirname "$0")/lib.sh"
require_root

need_aimd_ko
need_qptest

rxe_load
insmod "$RXECC_AIMD_KO" || die "insmod $RXECC_AIMD_KO"
netns_add cd_a
netns_add cd_b
veth_link cd_a va 10.9.4.1/24 cd_b vb 10.9.4.2/24
# RoCEv2 (UDP 4791) arriving at vb leaves tc marked CE, its IP checksum fixed
ip netns exec cd_b tc qdisc add dev vb ingress &&
	ip netns exec cd_b tc filter add dev vb ingress protocol ip u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff \
		action pedit ex munge ip dsfield set 3 retain 3 pipe action csum ip ||
	die "tc pedit on vb"
rxe_add cd_a rxe_a va
rxe_add cd_b rxe_b vb
wait_gid rxe_a 10.9.4.1 && wait_gid rxe_b 10.9.4.2 || ksft_exit

# burst TAG COUNT: COUNT WRITEs of 64 KiB from rxe_a to rxe_b; QPs stay
# until stopped. Sets SQPN and RQPN.
burst() {
	BURST_OUT=$TMP/$1.out
	"$QPTEST" --count "$2" rxe_a "$(gid_index rxe_a 10.9.4.1)" \
		rxe_b "$(gid_index rxe_b 10.9.4.2)" >"$BURST_OUT" 2>&1 &
	QP_PID=$!
	wait_until 60 eval 'grep -qs "^completed" "$BURST_OUT"' || {
		fail "$1: the WRITEs did not complete ($(tail -1 "$BURST_OUT"))"
		stop_burst
		return 1
	}
	read -r _ SQPN RQPN < <(grep '^qpn ' "$BURST_OUT")
}

stop_burst() {
	kill "$QP_PID" 2>/dev/null
	wait "$QP_PID"
}

# ---- DCQCN's deferred CNP ----------------------------------------------------
# A gap of 3 s, far longer than the burst and than reading the first count
# on a loaded emulated host (rxecc-qptest's completion, a poll interval and
# an rxecc process start): the first marked packet gets a CNP at once, the
# others one deferred CNP at the end of the gap, when no packet arrives any
# more.
rxecc dev set rxe_b algo dcqcn np_defer 1 np_min_time_between_cnps 3s >/dev/null ||
	fail "dcqcn with np_defer on rxe_b"
if burst defer 2; then
	c1=$(qp_field rxe_b "$RQPN" np_cnp_sent)
	marked=$(qp_field rxe_b "$RQPN" np_ecn_marked)
	sleep 4
	c2=$(qp_field rxe_b "$RQPN" np_cnp_sent)
	log "receiver QP $RQPN: $marked CE packets; CNPs $c1 when the burst ended, $c2 after 4 s"
	check "every packet of the burst arrived marked ($marked)" test "${marked:-0}" -gt 10
	check "one CNP at the first marked packet" test "$c1" = 1
	check "the deferred CNP went out at the end of the gap" test "$c2" = 2
	check "the device counted both" test "$(hw_counter rxe_b cc_cnp_sent)" = 2
	stop_burst
fi
rxecc dev set rxe_b algo none >/dev/null

# ---- a timer that raises the rate of an idle QP --------------------------------
# aimd halves its rate on a CNP and adds step_kbps every period_us (here
# 25 kbit/s a millisecond: at most 4 s from its 1 Mbit/s floor back to the
# 100 Mbit/s line rate, and at least 1.6 s from half of it to 90 Mbit/s);
# nothing but its timer runs it once the burst is over. The recovery is
# slow enough for the test to read the cut rate however late it sees the
# burst end (with 100 kbit/s a millisecond, in the CI of 5b2590d, the rate
# read after the burst had already come back to the line rate).
rxecc dev set rxe_a algo aimd line_rate 100M step_kbps 25 period_us 1000 >/dev/null ||
	fail "aimd on rxe_a"
rxecc dev set rxe_b algo aimd line_rate 100M >/dev/null || fail "aimd on rxe_b"
if burst aimd 5; then
	cuts=$(qp_field rxe_a "$SQPN" cuts)
	rate=$(qp_field rxe_a "$SQPN" rate_kbps)
	check "the sender was cut ($cuts cuts, rate $rate kbit/s)" \
		test "${cuts:-0}" -gt 0 -a "${rate:-0}" -lt 90000
	sleep 5
	rate=$(qp_field rxe_a "$SQPN" rate_kbps)
	check "idle for 5 s, its rate is back at the line rate ($rate kbit/s)" test "$rate" = 100000
	stop_burst
fi

cleanup
rmmod rxe_cc_aimd || fail "rmmod rxe_cc_aimd"
rxe_unload || fail "unload"
dmesg_check
ksft_exit
