#!/bin/bash
# HPCC against DCQCN in the same run (specs/hpcc.md §5.7): a 4:1 incast
# through the fabric, run by the experiment runner on the traffic generator
# (the four flows start together), once with DCQCN (ECN thresholds by the
# scaling rule of user-guide.rst, PFC on) and once with HPCC (INT stamping
# on every port of the switch, the same PFC). HPCC keeps the bottleneck's
# p99 queue at a quarter of DCQCN's or less and the bottleneck busy (paper:
# about eta = 95%; here 89-93%, so the test asserts at least 85% of
# DCQCN's utilisation in the same run and prints both), drops nothing and
# needs no PAUSE; the
# switch stamped INT into the data and the senders' algorithms took the
# stacks the receiver echoed. HPCC's peak queue is its first round: four
# flows start at line rate with W_init = B x T each, and its windows bound
# the queue to 4 x W_init (asserted); against DCQCN's peak it is 0.23 to
# 0.64 here, not a quarter (printed; hpcc.rst, "Figures").
#
# The link runs at 25 Mbit/s: at 50 the emulated hosts, every packet
# acknowledged, send in bursts whose queue HPCC takes out of its
# utilisation (hpcc.rst, "Figures"). HPCC's T (base_rtt_us) is the RTT its
# windows must cover: not the idle RTT the probe measures (about 0.9 ms)
# but the RTT under load, several ms here (hpcc.rst); 8 ms. W_AI is
# W_init x (1 - eta) / N for the N = 4 flows of the incast.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

dmesg_mark
# Mbit/s: 25, or less on a host too slow for four senders to exceed it
RATE=$(fabric_link_mbit 25)

incast_run dcqcn --algo dcqcn
dq=$QMAX dq99=$Q99 du=$UTIL
# W_init = RATE x T / 8; W_AI = W_init x 5% / 4
t_us=8000
incast_run hpcc --algo hpcc --param base_rtt_us=$t_us \
	--param w_ai_bytes=$((RATE * t_us / 8 * 5 / 100 / 4))
stamped=$(flat_value "$R/fabric/summary.flat" s0.r.int_stamped) || fail "hpcc: no int_stamped"
taken=$(host_counter_sum "$R/hosts" cc_int_rx) || fail "hpcc: no cc_int_rx"
echoed=$(host_counter_sum "$R/hosts" cc_int_ack_tx) || fail "hpcc: no cc_int_ack_tx"
bad=$(host_counter_sum "$R/hosts" cc_int_bad) || fail "hpcc: no cc_int_bad"
log "hpcc: the switch stamped $stamped packets toward r; r echoed $echoed stacks;" \
	"the senders took $taken, found $bad bad"
log "hpcc: peak queue $QMAX bytes = $(awk -v h="$QMAX" -v d="$dq" 'BEGIN { printf "%.2f", h / d }') x DCQCN's $dq"
check "hpcc: p99 queue $Q99 bytes <= 0.25 x DCQCN's $dq99" \
	awk -v h="$Q99" -v d="$dq99" 'BEGIN { exit !(d > 0 && h <= 0.25 * d) }'
w_init=$((RATE * 1000000 / 8 * t_us / 1000000))
check "hpcc: peak queue $QMAX bytes <= 4 x W_init ($((4 * w_init)))" test "$QMAX" -le $((4 * w_init))
check "hpcc: bottleneck utilisation $UTIL bit/s >= 0.85 x DCQCN's $du" \
	awk -v h="$UTIL" -v d="$du" 'BEGIN { exit !(d > 0 && h >= 0.85 * d) }'
check "hpcc: zero drops" test "$DROPS" = 0
check "hpcc: no PAUSE frame sent" test "$PAUSES" = 0
check "hpcc: the switch stamped INT" nonzero "$stamped"
check "hpcc: the receiver echoed the stacks" nonzero "$echoed"
check "hpcc: the senders' algorithms took them" nonzero "$taken"
check "hpcc: no bad INT stack" test "$bad" = 0
dmesg_check
ksft_exit
