#!/bin/bash
# A flow (one perftest run) through the fabric is held to the configured
# link rate within 3%: the fabric serialises at that rate and PFC (honoured
# by rxe) holds the sender back instead of dropping. Measured on the wire at the
# receiver, for two link rates below what the sender reaches.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

FAB=fr_fab
OVERHEAD=24	# bytes per frame on the wire beyond what veth counts

dmesg_mark
rxe_load_params pfc_netdevs=eth0
fabric_ns $FAB
fabric_host $FAB fr_a 10.9.0.1
fabric_host $FAB fr_b 10.9.0.2
wait_gid rxe_fr_a 10.9.0.1 && wait_gid rxe_fr_b 10.9.0.2 || ksft_exit

# flow_through MBIT PORT TAG: a 64 KiB WRITE flow (one perftest run, four
# QPs) from fr_a to fr_b through a fabric whose links run at MBIT Mbit/s;
# sets RATE to the bit/s on fr_b's wire over 4 s once data flows and ALIVE
# to whether the flow outlived the measurement. The fabric is left running
# (fabric_stop) for its counters.
#
# The link must never run dry for want of data, though the emulated sender
# stalls for tens of ms on a busy host. A QP has at most 128 packets (about
# 140 KB) unacknowledged, and its receiver acknowledges every 64: one QP
# keeps as little as 70 KB queued (43 ms at 13 Mbit/s), and with one QP a
# CI run fell 7% short at 13 Mbit/s. Four QPs keep up to 560 KB
# outstanding, so PFC holds the queue between XON at 250 KB and XOFF at
# 300 KB: 50 ms at 40 Mbit/s, more at lower rates. The headroom takes the
# rest of the window. Queueing delays then reach a second at the lowest
# rates, far beyond the default retransmission timeout of 67 ms (perftest's
# -u 14): a lossless link would see spurious go-back-N retransmissions that
# pile duplicates into the queue. So the QPs get a 2 s timeout (-u 19).
# The path is lossless end to end, so the sender never retransmits: the
# fabric drops nothing, and the unix datagram sockets between it and QEMU
# hold frames for a stalled guest. (With UDP sockets there, four QPs
# overflowed QEMU's socket buffer: runs saw 2 to 6 retransmissions, and
# each go-back-N cost rate, 4% at 38 Mbit/s.)
flow_through() {
	local mbit=$1 port=$2 tag=$3 spid cpid
	cat >"$TMP/topo" <<T
switch s0 buffer=2MB dscp=$RXECC_DSCP_PRIO
port s0:a rate=${mbit}M delay=20us attach=if:fr_a
port s0:b rate=${mbit}M delay=20us attach=if:fr_b
route s0 10.9.0.1 a
route s0 10.9.0.2 b
pfc s0:* prio=$RXECC_DATA_PRIO xoff=300KB xon=250KB headroom=400KB
T
	fabric_start $FAB "$TMP/topo" "$TMP/tel.$tag"
	ip netns exec fr_a ping -c 1 -W 2 10.9.0.2 >/dev/null
	ip netns exec fr_b ib_write_bw -d rxe_fr_b -x "$(gid_index rxe_fr_b 10.9.0.2)" \
		-p "$port" -F -s 65536 --tclass="$RXECC_DATA_TCLASS" -u 19 -q 4 -n 1000000 \
		>"$TMP/$tag.srv" 2>&1 &
	spid=$!
	wait_listen fr_b "$port" || die "server did not start"
	ip netns exec fr_a ib_write_bw -d rxe_fr_a -x "$(gid_index rxe_fr_a 10.9.0.1)" \
		-p "$port" -F -s 65536 --tclass="$RXECC_DATA_TCLASS" -u 19 -q 4 -n 1000000 10.9.0.2 \
		>"$TMP/$tag.cli" 2>&1 &
	cpid=$!
	sleep 3
	RATE=$(wire_rate fr_b eth0 4 "$OVERHEAD")
	ALIVE=yes
	kill -0 $cpid 2>/dev/null || ALIVE=no
	kill $cpid $spid 2>/dev/null
	wait $cpid $spid 2>/dev/null
}

# The link must be the bottleneck, so its rate has to be one the sender
# (rxe on an emulated, possibly busy host) exceeds: first measure what the
# sender reaches through a link faster than it, then test 40 and 15 Mbit/s,
# or 60% and 25% of that if the host is slower.
flow_through 1000 18700 calib
fabric_stop
log "the sender reaches $RATE bit/s through a 1000 Mbit/s link"
sender_capacity_store "$RATE"	# for the other fabric tests of this boot
check "the sender reaches 10 Mbit/s or more" awk -v r="$RATE" 'BEGIN { exit !(r >= 1e7) }'
read -r hi lo < <(awk -v r="$RATE" 'BEGIN {
	h = int(r * 0.6 / 1e6); l = int(r * 0.25 / 1e6)
	if (h > 40) h = 40; if (l > 15) l = 15; if (l < 2) l = 2; if (h < 5) h = 5
	print h, l }')

port=18700
for mbit in $hi $lo; do
	port=$((port + 1))
	rt0=$(hw_counter rxe_fr_a completer_retry_err)
	flow_through "$mbit" $port "r$mbit"
	r=$RATE
	rt=$(($(hw_counter rxe_fr_a completer_retry_err) - rt0))
	log "link ${mbit} Mbit/s: measured $r bit/s on the receiver's wire; $rt retransmissions"
	check "the flow ran through the measurement (${mbit}M)" test $ALIVE = yes
	check "rate within 3% of ${mbit} Mbit/s" awk -v r="$r" -v m="$mbit" \
		'BEGIN { e = r / (m * 1e6) - 1; exit !(e <= 0.03 && e >= -0.03) }'
	check "PFC held the sender (${mbit}M): XOFF sent" \
		nonzero "$(fabric_stat "s0.a.q$RXECC_DATA_PRIO.xoff_sent")"
	drops=$(fabric_drops)
	check "nothing dropped (${mbit}M)${drops:+: $drops}" test -z "$drops"
	check "the sender never retransmitted (${mbit}M)" test "$rt" = 0
	fabric_stop
done
check "the sender honoured PAUSE frames" nonzero "$(hw_counter rxe_fr_a pfc_pause_rcvd)"
cleanup
rxe_unload || fail "rmmod"
dmesg_check
ksft_exit
