#!/bin/bash
# ACC against DCQCN in the same run (specs/acc.md §5.2, the paper's own
# SoftRoCE testbed shape): a 4:1 incast through the fabric, run by the
# experiment runner on the traffic generator (the four flows start
# together), once with DCQCN (ECN thresholds by the scaling rule of
# user-guide.rst, PFC on) and once with ACC (TCD marking instead of ECN on
# every port, the same PFC). ACC keeps the bottleneck's p99 queue at a
# quarter of DCQCN's or less, drops nothing and needs no PAUSE; the switch
# marked CE, and every mark it made was echoed by the receiver and taken
# by a sender's algorithm exactly once (no echo refused, none out of the
# window); the senders halted, and no halt reached the ceiling.
# Utilisation: the paper's ACC keeps the link busy; here ACC reaches
# 0.92-0.95 x DCQCN's (91.9-93.5 % against 99.3-99.6 % in five runs with
# the fabric on the host, acc.rst, "Figures"; 76-87 % with the fabric in
# the guest), so the test asserts at least 0.85 x DCQCN's in the same run
# and prints both. How fast the aggregate
# computed rate comes down and the halts against the backlog come from the
# kernel's rate events (scripts/experiment --events), which cost the
# emulated hosts enough CPU that with them this test failed twice in CI
# (p99 208 and 120 KB, beside the other test kernel): they are measured by
# make eval (acc_incast) and the experiment of acc.rst, "Figures".
#
# The link runs at 25 Mbit/s, as cc_hpcc's. ACC's period T must be at least
# the RTT its ACKs see, and on User-Mode Linux ACKs come in bursts: with
# T = 1 ms (the default for the probed RTT) 86 % of the periods had no ACK
# at all; T = 4 ms here.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

dmesg_mark
# Mbit/s: 25, or less on a host too slow for four senders to exceed it
RATE=$(fabric_link_mbit 25)

# acc_sum NAME: the senders' ACC state value NAME at their last monitor
# record, summed; nothing and status 1 if no record has it
acc_sum() {
	cat "$R"/hosts/*.monitor.csv 2>/dev/null | awk -F, -v k="acc.$1" '
		$1 == "time_ns" { c = 0; for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
		c && $4 == "acc" { last[$2 "/" $3] = $c; f = 1 }
		END { for (q in last) s += last[q]; if (f) print s; exit !f }' || {
		echo "# FAIL: acc_sum: no $1 in $R/hosts/*.monitor.csv" >&2
		return 1
	}
}

# each run repeated while the fabric was late (repeat_if_late): in the
# first CI of 4fca874, ACC kept 70.4 % of the link against DCQCN's 99.5 %
# in a run 2.4 ms late at the p99, the host contended
repeat_if_late incast_run dcqcn --algo dcqcn
dq99=$Q99 du=$UTIL dp=$PAUSES
repeat_if_late incast_run acc --algo acc --param period_us=4000
marked=$(flat_value "$R/fabric/summary.flat" "s0.r.q$RXECC_DATA_PRIO.tcd_ce") || fail "acc: no tcd_ce"
ue=$(flat_value "$R/fabric/summary.flat" "s0.r.q$RXECC_DATA_PRIO.tcd_ue") || fail "acc: no tcd_ue"
echoed=$(host_counter_sum "$R/hosts" cc_tcd_echo_tx) || fail "acc: no cc_tcd_echo_tx"
taken=$(host_counter_sum "$R/hosts" cc_tcd_rx) || fail "acc: no cc_tcd_rx"
bad=$(host_counter_sum "$R/hosts" cc_tcd_bad) || fail "acc: no cc_tcd_bad"
halts=$(acc_sum halts) || fail "acc: no halts"
capped=$(acc_sum halts_capped) || fail "acc: no halts_capped"
ignored=$(acc_sum marks_ignored) || fail "acc: no marks_ignored"
log "acc: the switch marked $marked packets CE and $ue UE toward r; r echoed $echoed;" \
	"the senders took $taken, $bad out of the window, $ignored refused;" \
	"they halted $halts times, $capped at the ceiling"
log "acc: PAUSE frames $PAUSES (DCQCN $dp); utilisation $UTIL bit/s =" \
	"$(awk -v h="$UTIL" -v d="$du" 'BEGIN { printf "%.2f", h / d }') x DCQCN's"
check "acc: p99 queue $Q99 bytes <= 0.25 x DCQCN's $dq99" \
	awk -v h="$Q99" -v d="$dq99" 'BEGIN { exit !(d > 0 && h <= 0.25 * d) }'
check "acc: bottleneck utilisation $UTIL bit/s >= 0.85 x DCQCN's $du" \
	awk -v h="$UTIL" -v d="$du" 'BEGIN { exit !(d > 0 && h >= 0.85 * d) }'
check "acc: zero drops" test "$DROPS" = 0
check "acc: no PAUSE frame sent" test "$PAUSES" = 0
check "acc: the switch marked CE" nonzero "$marked"
check "acc: every mark was echoed ($echoed of $((marked + ue)))" test "$echoed" = $((marked + ue))
check "acc: every echo was taken ($taken)" test "$taken" = "$echoed"
check "acc: no echo out of the window, none refused" test "$bad/$ignored" = 0/0
check "acc: the senders halted ($halts)" nonzero "$halts"
check "acc: no halt reached the ceiling" test "$capped" = 0
dmesg_check
ksft_exit
