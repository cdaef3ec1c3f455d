#!/bin/bash
# SFC on top of DCQCN against DCQCN alone in the same run (specs/sfc.md
# §5.7 E2): a 4:1 incast across two switches (scripts/experiment incast2:
# four senders on s0, the receiver on s1, the s0 -> s1 link four times the
# hosts' rate, so the bottleneck is s1 -> r), every flow starting at line
# rate together. DCQCN (ECN thresholds by the scaling rule of
# user-guide.rst) runs in both; the second run adds SFC: the switches send
# the senders back-to-sender pauses (BTS, with the near-source pause cache
# on s0) and the hosts take them.
#
# Asserted: with SFC the peak of the bottleneck queue is at most half
# DCQCN's alone and its p99 below DCQCN's, nothing is dropped, the
# bottleneck's throughput is at least 0.95 of DCQCN's alone, and the BTS
# the fabric generated are the BTS the hosts took (none malformed,
# misaddressed, ignored or capped), as the issue asks. With the fabric on
# the host (sfc.rst, "Figures": twenty runs, nine of them this test) the
# p99 was 0.15 to 0.37 of DCQCN's and the peak 0.16 to 0.47 in nineteen
# runs; in the twentieth, whose fabric delivered frames 4.3 ms late at the
# p99 during the SFC run, 0.51 and 0.63. SFC's first wave stays under
# 50 KB, and after the start its median queue was 13.0 KB against
# DCQCN's 16.2 to 17.9.
#
# A run whose fabric was more than 1 ms late at the p99 is repeated, twice
# at most in the test (repeat_if_late, fabric_lib.sh): in the second CI of
# 4fca874 SFC's run and its one repeat were 3.5 and 11.8 ms late; in the
# 22 runs of sfc.rst's pairs by hand the p99 was 178 to 885 us but once
# (1147 us, a DCQCN run). The figures are wall-clock ones: the test runs
# alone (TESTS); with a second test kernel beside it (the fabric in the
# guest) SFC's p99 rose to 0.29-0.89 of DCQCN's.
#
# PFC's XOFF is 400 KB in both runs (the testbed's default is 120 KB): a
# lossless fabric that paused at 120 KB would cap both peaks at XOFF and
# hide DCQCN's peak (sfc.md §5.7 E1/E2 run with a large buffer). With
# 120 KB, SFC still lowered the p99 queue (23.9 and 22.8 against 67.1 and
# 75.7 KB) and the PAUSE frames (0 against 6 and 4) in two runs (sfc.rst,
# "Figures").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

dmesg_mark
# Mbit/s: 25, or less on a host too slow for four senders to exceed it
RATE=$(fabric_link_mbit 25)
PFC="--pfc 400KB,200KB,200KB"

# sfc_run TAG OPTIONS...: the incast; sets PEAK (bytes), UTIL (bit/s of
# s1 -> r over the window), DROPS, GEN (BTS the fabric generated), TAKEN
# (BTS the hosts took), OTHER (BTS the hosts counted otherwise) and R
sfc_run() {
	local tag=$1 r n v
	shift
	scenario_run "$tag" s1.r --algo dcqcn "$@" $PFC --hosts 4 --rate "${RATE}M" \
		--duration 6 incast2
	r=$R
	# the fabric reports SFC totals where a switch runs SFC, none elsewhere
	if grep -q '^sfc\.' "$r/fabric/summary.flat"; then
		GEN=$(flat_value "$r/fabric/summary.flat" sfc.bts_generated) ||
			fail "$tag: no sfc.bts_generated"
	else
		GEN=none
	fi
	TAKEN=$(host_counter_sum "$r/hosts" cc_bts_rcvd) || fail "$tag: no cc_bts_rcvd"
	OTHER=0
	for n in cc_bts_bad cc_bts_no_qp cc_bts_ignored cc_bts_capped; do
		v=$(host_counter_sum "$r/hosts" $n) || fail "$tag: no $n"
		OTHER=$((OTHER + ${v:-1}))
	done
	UTIL=$(port_rate "$r/fabric/ports.csv" s1.r tx "$A" "$B")
	log "$tag: peak queue $PEAK bytes, p99 $Q99 bytes, bottleneck $UTIL bit/s over [$A, $B] s, drops $DROPS," \
		"BTS generated $GEN, taken by the hosts $TAKEN, counted otherwise $OTHER"
}

repeat_if_late sfc_run dcqcn
d_peak=$PEAK d_q99=$Q99 d_util=$UTIL
check "dcqcn: zero drops" test "$DROPS" = 0
check "dcqcn: no SFC in the fabric, no BTS at the hosts ($GEN, $TAKEN taken)" \
	test "$GEN $TAKEN $OTHER" = "none 0 0"

repeat_if_late sfc_run sfc --sfc
ratio=$(awk -v p="$PEAK" -v d="$d_peak" 'BEGIN { printf "%.2f", (d > 0 ? p / d : 9) }')
r99=$(awk -v p="$Q99" -v d="$d_q99" 'BEGIN { printf "%.2f", (d > 0 ? p / d : 9) }')
tput=$(awk -v u="$UTIL" -v d="$d_util" 'BEGIN { printf "%.3f", (d > 0 ? u / d : 0) }')
log "peak queue: dcqcn+sfc $PEAK bytes, dcqcn $d_peak bytes ($ratio x); p99 $r99 x;" \
	"throughput $tput x dcqcn's"
check "sfc: the peak queue is at most half DCQCN's alone ($ratio x)" \
	awk -v p="$PEAK" -v d="$d_peak" 'BEGIN { exit !(d > 0 && 2 * p <= d) }'
check "sfc: the queue's p99 is below DCQCN's alone ($r99 x)" \
	awk -v p="$Q99" -v d="$d_q99" 'BEGIN { exit !(d > 0 && p < d) }'
check "sfc: zero drops" test "$DROPS" = 0
check "sfc: throughput unchanged ($tput x DCQCN's alone, >= 0.95)" \
	awk -v t="$tput" 'BEGIN { exit !(t >= 0.95) }'
check "sfc: the fabric sent BTS ($GEN)" nonzero "$GEN"
check "sfc: the hosts took every BTS the fabric generated ($TAKEN of $GEN)" test "$TAKEN" = "$GEN"
check "sfc: no BTS was malformed, misaddressed, ignored or capped ($OTHER)" test "$OTHER" = 0
dmesg_check
ksft_exit
