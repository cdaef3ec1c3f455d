#!/bin/bash
# PFC through the fabric, run by the experiment runner on the traffic
# generator (flows start on time: the incast flows overlap by construction):
# - a 4:1 incast with PFC on and no congestion control loses nothing, the
#   fabric sends PAUSE frames and the senders' rxe honours them, and the
#   bottleneck stays at least 95% busy;
# - the victim scenario shows head-of-line blocking: a flow whose own path
#   is idle loses most of its throughput while an incast pauses the link it
#   shares.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

EXP=$RXECC_TOP/scripts/experiment
EXPVM=$RXECC_TOP/scripts/experiment-vm
dmesg_mark
# Mbit/s: 50, or less on a host too slow for four senders to exceed it
RATE=$(fabric_link_mbit 50)
r=$TMP/incast
"$EXP" --prepare-only -o "$r" --algo none --hosts 4 --rate ${RATE}M --no-ecn \
	--duration 5 incast >/dev/null || die "experiment --prepare-only incast"
"$EXPVM" "$r" | sed 's/^/# incast: /'
check "incast: every flow completed" test "${PIPESTATUS[0]}" = 0

drops=$(flat_value "$r/fabric/summary.flat" total_drops) || fail "incast: no total_drops"
sent=$(flat_value "$r/fabric/summary.flat" pfc_frames_sent) || fail "incast: no pfc_frames_sent"
honoured=$(host_counter_sum "$r/hosts" pfc_pause_rcvd) || fail "incast: no pfc_pause_rcvd"
log "incast: drops $drops, PFC frames sent $sent, PAUSEs honoured by hosts $honoured"
check "incast: zero drops with PFC" test "$drops" = 0
check "incast: the fabric sent PAUSE frames" nonzero "$sent"
check "incast: the senders honoured PAUSE frames" nonzero "$honoured"
# the window in which all four flows send data (the runner writes it)
a=$(awk -F= '$1 == "window_start_us" { print $2 / 1e6 }' "$r/meta.env")
b=$(awk -F= '$1 == "window_end_us" { print $2 / 1e6 }' "$r/meta.env")
check "incast: the four flows overlapped" test -n "$a"
util=$(port_rate "$r/fabric/ports.csv" s0.r tx "${a:-0}" "${b:-0}")
log "incast: bottleneck s0.r sent $util bit/s over [$a, $b] s"
check "incast: bottleneck utilisation >= 95%" \
	awk -v u="$util" -v r=$RATE 'BEGIN { exit !(u >= 0.95 * r * 1e6) }'

# The victim from 0 to 9 s, the four incast flows from 3 s to 6 s, all
# started on time by the generator.
victim_run victim --algo none --no-ecn
check "victim: runs at half its link rate or more alone" \
	awk -v x="$VALONE" -v r=$RATE 'BEGIN { exit !(x >= 0.5 * r * 1e6) }'
check "victim: the incast flows sent together for 2 s or more" awk -v a="$VA" -v b="$VB" 'BEGIN { exit !(b - a >= 2) }'
# (a victim held for the whole window receives nothing: that counts)
check "victim: head-of-line blocking halves it at least" \
	awk -v x="$VALONE" -v y="$VDURING" 'BEGIN { exit !(x > 0 && y <= 0.5 * x) }'
check "victim: the paused link is the inter-switch one" nonzero "$SW_PAUSES"
check "victim: zero drops" test "$DROPS" = 0
dmesg_check
ksft_exit
