#!/bin/bash
# SFC back-to-sender pauses (BTS) forged with rxecc-inject --kinds bts... at
# a sending QP (algorithm none), as a switch would send them:
#  - with SFC off on the QP, well-formed BTS are counted as ignored
#    (cc_bts_ignored) and the QP keeps sending;
#  - with SFC on, a well-formed BTS of 900 ms (the control) is taken
#    (cc_bts_rcvd): the QP sends nothing while it lasts, then resumes; its
#    stats show one pause of about that length;
#  - truncated, other-version, other-type, non-data, wrong-port,
#    INT-mismatched, unknown-QP, non-peer and wrong-sport BTS are each
#    counted exactly once (cc_bts_bad + cc_bts_no_qp grow by the number
#    sent), none is taken, and the QP keeps sending;
#  - a BTS above the ceiling (sfc_max 1 s) is clamped and taken
#    (cc_bts_clamped), it uses the QP's budget, so streams of BTS right
#    after it, long and short, are capped (cc_bts_capped) and cannot hold
#    the QP longer: it resumes within the ceiling and takes BTS again once
#    as long has passed;
# the QP stays in RTS and the kernel logs nothing. The seed is printed;
# RXECC_INJECT_SEED=N replays it.
. "$(dirname "$0")/lib.sh"
require_root

inject_init 20

dmesg_mark
rxe_load
rxe_pair si_a si_b 10.7.6 || ksft_exit
# the ceiling for the QPs that start from now on
rxecc dev set rxe_a sfc_max 1s >/dev/null || die "sfc_max on rxe_a"

traffic_start si_b rxe_b 10.7.6.2 si_a rxe_a 10.7.6.1 19700
qp=$QPN
rxecc qp set rxe_a "$qp" sfc on >/dev/null || die "sfc on QP $qp"
sport=$(qp_field rxe_a "$qp" cc_sfc_sport)
peer_qpn=$(rdma resource show qp link rxe_a/1 lqpn "$qp" |
	awk '{ for (i = 1; i < NF; i++) if ($i == "rqpn") print $(i + 1) }')
log "QP under test: rxe_a QP $qp (UDP source port $sport), sending to rxe_b QP $peer_qpn"
[ -n "$sport" ] && [ -n "$peer_qpn" ] || die "no source port or peer QP in the restrack view"

# inject NAME ARGS...: one rxecc-inject run from the peer's namespace (as
# the switch would, from the peer's address)
inject() {
	local name=$1
	shift
	local rc
	ip netns exec si_b "$INJECT" --seed "$seed" --peer 10.7.6.2 --spoof 10.7.6.99 \
		--dst 10.7.6.1 --qpn "$qp" --peer-qpn "$peer_qpn" --sport "$sport" "$@" \
		>"$TMP/$name" 2>&1
	rc=$?
	# the device's sent packets and the time as soon as the packets are
	# out (before the logging below, which a slow machine can take a
	# good part of a pause over)
	read -r INJ_SENT <"/sys/class/infiniband/rxe_a/ports/1/hw_counters/sent_pkts"
	INJ_US=${EPOCHREALTIME/./}
	check "rxecc-inject $name ran (seed $seed)" test $rc = 0
	sed 's/^/# /' "$TMP/$name"
}
# the counters are updated in softirq: give the last packets a moment
counters() {
	nap 0.3
	echo "$(hw_counter rxe_a cc_bts_rcvd)" "$(hw_counter rxe_a cc_bts_bad)" \
		"$(hw_counter rxe_a cc_bts_no_qp)" "$(hw_counter rxe_a cc_bts_ignored)" \
		"$(hw_counter rxe_a cc_bts_clamped)" "$(hw_counter rxe_a cc_bts_capped)"
}
# sent_in SECONDS: packets the QP's device sent in that time (its only
# sender is the QP under test; builtin reads, so that the window is the
# time asked for even on a slow kernel)
sent_in() {
	local a b
	a=$(hw_counter rxe_a sent_pkts)
	nap "$1"
	b=$(hw_counter rxe_a sent_pkts)
	echo $((b - a))
}
state() { qp_fields rxe_a "$qp" "$@"; }

n=$(sent_in 0.5)
check "the QP sends ($n packets in 0.5 s)" test "$n" -gt 200

# ---- SFC off: ignored ---------------------------------------------------------------
rxecc qp set rxe_a "$qp" sfc off >/dev/null || die "sfc off on QP $qp"
read -r rcv0 bad0 noqp0 ign0 clamp0 cap0 < <(counters)
inject off --kinds bts_valid --count "$COUNT" --bts-pause-us 900000
read -r rcv bad noqp ign clamp cap < <(counters)
check "off: the $COUNT BTS were ignored (cc_bts_ignored +$((ign - ign0)))" \
	test $((ign - ign0)) = "$COUNT"
check "off: none was taken" test "$rcv" = "$rcv0"
n=$(sent_in 0.3)
check "off: the QP kept sending ($n packets in 0.3 s)" test "$n" -gt 100

# ---- SFC on: the control --------------------------------------------------------------
rxecc qp set rxe_a "$qp" sfc on >/dev/null || die "sfc on QP $qp"
read -r rcv0 bad0 noqp0 ign0 clamp0 cap0 < <(counters)
t0=$(date +%s%N)
inject control --kinds bts_valid --count 1 --bts-pause-us 900000
# the 0.3 s from the moment the BTS was out (INJ_US), not from here
nap "$(awk -v a="$INJ_US" -v b="${EPOCHREALTIME/./}" \
	'BEGIN { d = (300000 - (b - a)) / 1e6; print (d > 0 ? d : 0) }')"
read -r held <"/sys/class/infiniband/rxe_a/ports/1/hw_counters/sent_pkts"
held=$((held - INJ_SENT))
log "the window ended $(((${EPOCHREALTIME/./} - INJ_US) / 1000)) ms after the BTS was out"
read -r rcv bad noqp ign clamp cap < <(counters)
log "QP: $(state cc_bts_rx cc_pause_starts cc_paused_us)"
check "control: the BTS was taken (cc_bts_rcvd +$((rcv - rcv0)))" test $((rcv - rcv0)) = 1
check "control: the QP sent nothing while paused ($held packets in 0.3 s)" test "$held" -le 4
wait_until 5 eval '[ "$(sent_in 0.1)" -gt 20 ]' || fail "control: the QP did not resume"
t1=$(date +%s%N)
log "resumed after $(((t1 - t0) / 1000000)) ms"
check "control: it resumed after the pause (>= 900 ms after the BTS)" \
	test $(((t1 - t0) / 1000000)) -ge 900
paused=$(state cc_paused_us)
check "control: the QP counts one pause of 900 ms ($(state cc_pause_starts)start, ${paused}us)" \
	eval '[ "$(state cc_pause_starts)" = "1 " ] && [ "$paused" = "900000 " ]'

# ---- bad BTS ---------------------------------------------------------------------------
read -r rcv0 bad0 noqp0 ign0 clamp0 cap0 < <(counters)
inject bad --count "$COUNT" --bts-pause-us 900000 --kinds \
	bts_truncated,bts_bad_version,bts_bad_type,bts_non_data,bts_inner_port,bts_int_mismatch,bts_unknown_qp,bts_non_peer,bts_wrong_sport
sent=$(sent_in 0.3)
read -r rcv bad noqp ign clamp cap < <(counters)
log "counted: bad +$((bad - bad0)), no QP +$((noqp - noqp0)), ignored +$((ign - ign0))"
check "bad: the 6 malformed kinds were counted as bad (+$((bad - bad0)) of $((6 * COUNT)))" \
	test $((bad - bad0)) = $((6 * COUNT))
check "bad: the 3 misaddressed kinds named no QP (+$((noqp - noqp0)) of $((3 * COUNT)))" \
	test $((noqp - noqp0)) = $((3 * COUNT))
check "bad: none was taken or ignored" test "$rcv $ign" = "$rcv0 $ign0"
check "bad: the QP kept sending ($sent packets in 0.3 s)" test "$sent" -gt 100
check "bad: the QP's pause count stayed" test "$(state cc_pause_starts cc_bts_rx)" = "1 1 "

# ---- the ceiling and the budget --------------------------------------------------------
read -r rcv0 bad0 noqp0 ign0 clamp0 cap0 < <(counters)
paused0=$(state cc_paused_us)
# the long BTS and the streams right after it in one run (a few ms; two
# runs were a second apart on a slow machine, past the ceiling's pause):
# COUNT BTS above the ceiling, of which the first is taken and the rest
# capped, then COUNT of 900 ms, all capped
inject ceiling --kinds bts_over_ceiling,bts_valid --count "$COUNT" --bts-pause-us 900000
# t0: no earlier than the long BTS arrived (the budget counts from then)
t0=${INJ_US}000
read -r rcv bad noqp ign clamp cap < <(counters)
check "ceiling: the long BTS was clamped and taken (clamped +$((clamp - clamp0)), rcvd +$((rcv - rcv0)))" \
	test "$((clamp - clamp0)) $((rcv - rcv0))" = "1 1"
check "ceiling: the streams after it were capped (+$((cap - cap0)) of $((2 * COUNT - 1)))" \
	test $((cap - cap0)) = $((2 * COUNT - 1))
wait_until 5 eval '[ "$(sent_in 0.1)" -gt 20 ]' || fail "ceiling: the QP did not resume"
t1=$(date +%s%N)
paused=$(($(state cc_paused_us) - paused0))
log "resumed after $(((t1 - t0) / 1000000)) ms (polled), paused for ${paused} us"
check "ceiling: the QP was paused for the ceiling, 1 s, no longer (${paused} us)" \
	test "$paused" = 1000000
# the budget is as long again as the ceiling: 2 s after the long BTS
nap $(awk -v ms=$(((t1 - t0) / 1000000)) 'BEGIN { d = (2100 - ms) / 1000; print (d > 0 ? d : 0) }')
read -r rcv0 bad0 noqp0 ign0 clamp0 cap0 < <(counters)
inject again --kinds bts_valid --count 1 --bts-pause-us 1000
read -r rcv bad noqp ign clamp cap < <(counters)
check "ceiling: once the budget is back, a BTS is taken again" test $((rcv - rcv0)) = 1

check "the QP is in RTS" eval 'rdma resource show qp link rxe_a/1 lqpn "$qp" | grep -q "state RTS"'
n=$(sent_in 0.5)
check "the QP kept sending ($n packets in 0.5 s)" test "$n" -gt 200
check "the sender is still running" kill -0 "$CLI_PID"
traffic_stop
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
