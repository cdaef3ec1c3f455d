#!/bin/bash
# HPCC against DCQCN in the same run (specs/hpcc.md §5.7): a 4:1 incast
# through the fabric, run by the experiment runner on the traffic generator
# (the four flows start together), once with DCQCN (ECN thresholds by the
# scaling rule of user-guide.rst, PFC on) and once with HPCC (INT stamping
# on every port of the switch, the same PFC). The issue's figures: HPCC's
# peak queue at most a quarter of DCQCN's, the bottleneck at least 90 %
# busy, no drops and no PAUSE; besides, its p99 queue at most a quarter of
# DCQCN's, its peak within the windows' bound (four flows start at line
# rate with W_init = B x T each: 4 x W_init), and INT stamped by the switch,
# echoed by the receiver and taken by the senders.
#
# The link runs at 25 Mbit/s. T (base_rtt_us) is 2 ms, a little above the
# idle RTT the probe measures (0.9-1.9 ms); the first round's peak is about
# 4 x W_init (25 KB here, against DCQCN's 137-206 KB). W_AI is W_init x
# (1 - eta), the rule of thumb for one flow rather than for the incast's
# four: the emulated hosts send in bursts, and HPCC counts the queue they
# leave against its headroom (qLen / (B x T)); with the rule's W_AI for
# four flows it held 85-91 % of the link, with this 95-99 %, for a p99
# queue of 4.5 KB (hpcc.rst, "Figures"). It runs alone (TESTS): beside
# another test kernel the fabric delivered 1.9 ms late at the p99 and
# HPCC lost a tenth of its utilisation (T = 8 ms, the CI of 8b3047d); a run
# whose fabric was more than 1 ms late at the p99 is repeated, twice at
# most in the test (repeat_if_late).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

dmesg_mark
# Mbit/s: 25, or less on a host too slow for four senders to exceed it
RATE=$(fabric_link_mbit 25)

repeat_if_late incast_run dcqcn --algo dcqcn
dq=$QMAX dq99=$Q99
# W_init = RATE x T / 8; W_AI = W_init x 5 %
t_us=2000
repeat_if_late incast_run hpcc --algo hpcc --param base_rtt_us=$t_us \
	--param w_ai_bytes=$((RATE * t_us / 8 * 5 / 100))
stamped=$(flat_value "$R/fabric/summary.flat" s0.r.int_stamped) || fail "hpcc: no int_stamped"
taken=$(host_counter_sum "$R/hosts" cc_int_rx) || fail "hpcc: no cc_int_rx"
echoed=$(host_counter_sum "$R/hosts" cc_int_ack_tx) || fail "hpcc: no cc_int_ack_tx"
bad=$(host_counter_sum "$R/hosts" cc_int_bad) || fail "hpcc: no cc_int_bad"
log "hpcc: the switch stamped $stamped packets toward r; r echoed $echoed stacks;" \
	"the senders took $taken, found $bad bad"
log "hpcc: peak queue $QMAX bytes = $(awk -v h="$QMAX" -v d="$dq" 'BEGIN { printf "%.2f", h / d }') x DCQCN's $dq"
check "hpcc: peak queue $QMAX bytes <= 0.25 x DCQCN's $dq" \
	awk -v h="$QMAX" -v d="$dq" 'BEGIN { exit !(d > 0 && h <= 0.25 * d) }'
check "hpcc: p99 queue $Q99 bytes <= 0.25 x DCQCN's $dq99" \
	awk -v h="$Q99" -v d="$dq99" 'BEGIN { exit !(d > 0 && h <= 0.25 * d) }'
w_init=$((RATE * 1000000 / 8 * t_us / 1000000))
check "hpcc: peak queue $QMAX bytes <= 4 x W_init ($((4 * w_init)))" test "$QMAX" -le $((4 * w_init))
check "hpcc: bottleneck utilisation $UTIL bit/s >= 90 % of $RATE Mbit/s" \
	awk -v h="$UTIL" -v r="$RATE" 'BEGIN { exit !(h >= 0.9 * r * 1e6) }'
check "hpcc: zero drops" test "$DROPS" = 0
check "hpcc: no PAUSE frame sent" test "$PAUSES" = 0
check "hpcc: the switch stamped INT" nonzero "$stamped"
check "hpcc: the receiver echoed the stacks" nonzero "$echoed"
check "hpcc: the senders' algorithms took them" nonzero "$taken"
check "hpcc: no bad INT stack" test "$bad" = 0
dmesg_check
ksft_exit
