#!/bin/bash
# DCQCN end to end: a RED/ECN bottleneck on a router hop (not on an rxe
# netdev) marks CE, the receiving QP sends CNPs, the sender's rate drops,
# and recovers once the congestion is gone; the counters of both hosts and
# of the router agree.
. "$(dirname "$0")/lib.sh"
require_root

LINE=100	# Mbit/s, the hosts' line rate for DCQCN
BOTTLENECK=40	# Mbit/s at the router

dmesg_mark
rxe_load
router_hosts dq
red_bottleneck dq_r out $BOTTLENECK
rxe_add dq_s rxe_s eth0
rxe_add dq_d rxe_d eth0
for d in rxe_s rxe_d; do
	rxecc dev set $d algo dcqcn line_rate ${LINE}M || die "dcqcn on $d"
done
wait_gid rxe_s 10.8.1.1 && wait_gid rxe_d 10.8.2.1 || ksft_exit

traffic_start dq_d rxe_d 10.8.2.1 dq_s rxe_s 10.8.1.1 19300
qpn=$QPN

# congestion: sample the sender's rate; rxecc monitor records the same as
# CSV, with the kernel's rate events (multicast in the device's namespace)
ip netns exec dq_s "$RXECC" monitor rxe_s -i 200 -t 5 -e -o "$TMP/monitor.csv" &
mon=$!
# On a busy host the sender is not always run in time and sends less than
# its pacer allows: by the share of time its pacing credit went unused
# (cc_pacer_unused_us), which then also lowers the marks it draws. What the
# sender can use of its rate is the rate less that share, measured over
# each sampling interval.
# congested_sample: 6 s of rate samples; sets min, emin and uall (the
# unused share of the credit in per mille)
congested_sample() {
	local r u u0 u1 t0 t1 us e ustart tstart
	min=$((LINE * 1000)) emin=$((LINE * 1000))
	u0=$(hw_counter rxe_s cc_pacer_unused_us) t0=${EPOCHREALTIME/[.,]/}
	ustart=$u0 tstart=$t0
	for _ in $(seq 1 12); do
		sleep 0.5
		r=$(qp_rate_kbps rxe_s "$qpn")
		u1=$(hw_counter rxe_s cc_pacer_unused_us) t1=${EPOCHREALTIME/[.,]/}
		[ -n "$r" ] || continue
		u=$((u1 - u0)) us=$((t1 - t0)) u0=$u1 t0=$t1
		[ "$r" -lt "$min" ] && min=$r
		e=$((r * (us - (u < us ? u : us)) / us))
		[ "$e" -lt "$emin" ] && emin=$e
	done
	uall=$(((u0 - ustart) * 1000 / (t0 > tstart ? t0 - tstart : 1)))
}
# A sender that could not use half its credit was starved by the host, and
# its rate says little about DCQCN: measure again, up to three times.
for try in 1 2 3; do
	congested_sample
	[ "$uall" -le 500 ] && break
	log "try $try: $((uall / 10))% of the pacing credit went unused (host busy)"
done
log "rate during congestion: min $min kbit/s, $emin kbit/s usable; $((uall / 10))% of the credit unused (line $LINE Mbit/s, bottleneck $BOTTLENECK Mbit/s)"
check "the sender cut its rate well below the line rate" test "$min" -lt $((LINE * 800))
check "the sender cut its usable rate below the bottleneck's" test "$emin" -lt $((BOTTLENECK * 1000))
check_timing "at most half of the pacing credit went unused" test "$uall" -le 500
wait $mon
check "rxecc monitor sampled the QP" \
	eval "grep -c ',rxe_s,$qpn,dcqcn,' '$TMP/monitor.csv' | awk '{ exit !(\$1 >= 5) }'"
check "rxecc monitor received rate-decrease events" \
	eval "grep ',rxe_s,$qpn,dcqcn,' '$TMP/monitor.csv' | grep -q 'rate_dec'"
[ -n "${RXECC_OUT:-}" ] && cp "$TMP/monitor.csv" "$RXECC_OUT/cc_dcqcn_cnp.monitor.csv"
dec_congested=$(hw_counter rxe_s cc_rate_dec)
check "rate decreases counted ($dec_congested)" test "$dec_congested" -gt 0

# congestion over: a bottleneck above the line rate, no more marks
red_bottleneck dq_r out 1000
marked_then=$(red_marked dq_r out)
inc0=$(hw_counter rxe_s cc_rate_inc)
r_end=$(qp_rate_kbps rxe_s "$qpn")
sleep 3
r_after=$(qp_rate_kbps rxe_s "$qpn")
inc1=$(hw_counter rxe_s cc_rate_inc)
log "rate after the congestion: $r_end -> $r_after kbit/s ($((inc1 - inc0)) increases)"
check "the rate recovered above its minimum" test "${r_after:-0}" -gt "$min"
# A sender the host starved may have drawn few marks at the end and be
# back at the line rate already; then there is nothing left to increase,
# and its recovery from the minimum was counted before
if [ "${r_end:-0}" -lt $((LINE * 1000)) ]; then
	check "rate increases counted after the congestion" test "$inc1" -gt "$inc0"
else
	check "rate increases counted (back at the line rate when the congestion ended)" \
		nonzero "$inc0"
fi

check "the transfer is still running" kill -0 "$CLI_PID"
traffic_stop

# counters: router marks = CE seen by the receiver; CNPs sent = received
ce=$(hw_counter rxe_d cc_ecn_ce_rcvd)
cnp_tx=$(hw_counter rxe_d cc_cnp_sent)
cnp_rx=$(hw_counter rxe_s cc_cnp_rcvd)
log "router marked $marked_then, receiver saw $ce CE, sent $cnp_tx CNPs; sender got $cnp_rx"
check "the router marked packets" test "${marked_then:-0}" -gt 0
check "every CE mark reached the receiver" test "$ce" = "$marked_then"
check "CNPs were sent" test "$cnp_tx" -gt 0
check "CNPs are rate-limited (no more than CE marks)" test "$cnp_tx" -le "$ce"
check "every CNP reached the sender" test "$cnp_rx" = "$cnp_tx"
check "no CNP was ignored" test "$(hw_counter rxe_s cc_cnp_ignored)" = 0
check "pacer held the sender" test "$(hw_counter rxe_s cc_pacer_waits)" -gt 0
# RED drops even ECN-capable packets once its average queue passes max: a
# sender that reacts keeps that rare
read -r sent dropped < <(ip netns exec dq_r tc -s qdisc show dev out |
	awk '/^qdisc red/ { r = 1 } r && /Sent/ { gsub(/[(,]/, " "); print $4, $7; exit }')
log "bottleneck: $sent packets sent, $dropped dropped"
check "drops at the bottleneck below 2%" \
	awk -v s="${sent:-0}" -v d="${dropped:-1}" 'BEGIN { exit !(s > 0 && d * 50 < s) }'
check "no send errors" test "$(hw_counter rxe_s send_err)" = 0

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
