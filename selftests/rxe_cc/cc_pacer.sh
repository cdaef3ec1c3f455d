#!/bin/bash
# The rate pacer: a QP running "fixed" achieves its set rate within 2%
# across 5%..100% of the line rate, for RDMA WRITEs and for READ responses
# (sent by the responder), and a paced QP does not slow an unpaced QP of
# the same hosts.
. "$(dirname "$0")/lib.sh"
require_root

# The pacer charges each frame from the IP header to the ICRC plus the
# Ethernet header: exactly what the receiving veth counts in rx_bytes. So the
# achieved rate is measured there, over a window in the middle of a run.
MSG=65536

# (wire_rate is in lib.sh)

# paced_run TAG PORT SECONDS [TOOL RXNS RXIF]: TOOL (default ib_write_bw)
# with its server on rxe_b and its client on rxe_a; sets RATE to the wire
# rate measured on RXNS/RXIF (default pc_b/vb, where WRITE data arrives)
# for SECONDS once data flows.
paced_run() {
	local tag=$1 port=$2 secs=$3 tool=${4:-ib_write_bw} rxns=${5:-pc_b} rxif=${6:-vb}
	local f=/sys/class/net/$rxif/statistics/rx_bytes spid cpid b0
	RATE=
	# a run longer than any measurement; stopped once measured
	ip netns exec pc_b "$tool" -d rxe_b -x "$(gid_index rxe_b 10.9.1.2)" \
		-p "$port" -F -s $MSG -n 1000000 >"$TMP/$tag.server" 2>&1 &
	spid=$!
	wait_listen pc_b "$port" || { kill $spid; return 1; }
	b0=$(ip netns exec "$rxns" cat "$f")
	ip netns exec pc_a "$tool" -d rxe_a -x "$(gid_index rxe_a 10.9.1.1)" \
		-p "$port" -F -s $MSG -n 1000000 10.9.1.2 >"$TMP/$tag.client" 2>&1 &
	cpid=$!
	# data flows once the receiver has seen a few messages
	for _ in $(seq 1 200); do
		[ $(($(ip netns exec "$rxns" cat "$f") - b0)) -gt 300000 ] && break
		sleep 0.05
	done
	sleep 0.5
	RATE=$(wire_rate "$rxns" "$rxif" "$secs")
	# the client must still be running, or the window was not all traffic
	if ! kill -0 $cpid 2>/dev/null; then
		fail "$tag: the client ended during the measurement"
		sed 's/^/#   /' "$TMP/$tag.client" | tail -5
		RATE=0
	fi
	kill $cpid $spid 2>/dev/null
	wait $cpid $spid 2>/dev/null
	return 0
}

# paced_err TAG PORT SECONDS KBPS [TOOL RXNS RXIF]: a paced_run whose
# rate is set to KBPS; sets ERR to the error in percent. A rate short of
# the set one is measured once more: the emulated host's throughput drifts
# (CPU steal, other guests), and a dip below the set rate is the host's,
# not the pacer's. A rate above it is never retried.
paced_err() {
	local tag=$1 port=$2 secs=$3 kbps=$4
	shift 4
	ERR=
	paced_run "$tag" "$port" "$secs" "$@" || return 1
	ERR=$(awk -v k="$kbps" -v g="$RATE" 'BEGIN { printf "%.2f", (g / 1000 - k) / k * 100 }')
	awk -v e="$ERR" 'BEGIN { exit !(e < -2) }' || return 0
	log "$tag: $ERR% under the set rate; measured once more"
	paced_run "$tag.2" $((port + 50)) "$secs" "$@" || return 1
	ERR=$(awk -v k="$kbps" -v g="$RATE" 'BEGIN { printf "%.2f", (g / 1000 - k) / k * 100 }')
}

dmesg_mark
rxe_load
netns_add pc_a
netns_add pc_b
veth_link pc_a va 10.9.1.1/24 pc_b vb 10.9.1.2/24
veth_link pc_a wa 10.9.2.1/24 pc_b wb 10.9.2.2/24
rxe_add pc_a rxe_a va
rxe_add pc_b rxe_b vb
rxe_add pc_a rxe_c wa
rxe_add pc_b rxe_d wb
for d in "rxe_a 10.9.1.1" "rxe_b 10.9.1.2" "rxe_c 10.9.2.1" "rxe_d 10.9.2.2"; do
	# shellcheck disable=SC2086
	wait_gid $d || ksft_exit
done

# The line rate: 35% of what an unpaced QP reaches here, so that every
# set rate is one the (emulated, CPU-bound) host can sustain.
rxecc dev set rxe_a algo none || die "set none"
paced_run solo 19200 3 || die "unpaced run failed"
solo=$RATE
line=$(awk -v r="$solo" 'BEGIN { m = int(r / 1e6 * 0.35); print (m < 4 ? 4 : m) }')
log "unpaced QP: $(awk -v r="$solo" 'BEGIN { print r / 1e6 }') Mbit/s on the wire; line rate for the test: $line Mbit/s"
rxecc dev set rxe_a line_rate "${line}M" || die "set line rate"

printf '# %8s %12s %12s %8s\n' "share" "set[Mbit/s]" "got[Mbit/s]" "error"
port=19210
for pct in 5 25 50 75 100; do
	kbps=$((line * 10 * pct))
	rxecc dev set rxe_a algo fixed rate_kbps "$kbps" || die "set rate"
	port=$((port + 1))
	secs=3
	[ "$pct" -le 5 ] && secs=6
	paced_err "p$pct" $port $secs "$kbps" || { fail "run at $pct% failed"; continue; }
	got=$RATE
	err=$ERR
	printf '# %7s%% %12.3f %12.3f %7s%%\n' "$pct" "$(awk -v k="$kbps" 'BEGIN { print k / 1000 }')" \
		"$(awk -v g="$got" 'BEGIN { print g / 1e6 }')" "$err"
	check "fixed at $pct% of line rate within 2% ($err%)" \
		awk -v e="$err" 'BEGIN { exit !(e <= 2 && e >= -2) }'
done

# READ responses are data sent by the responder: a QP of rxe_b serving
# ib_read_bw is paced like a requester.
rxecc dev set rxe_a algo none || die "none on rxe_a"
rxecc dev set rxe_b algo fixed rate_kbps $((line * 500)) line_rate "${line}M" ||
	die "fixed on rxe_b"
paced_err read 19240 3 $((line * 500)) ib_read_bw pc_a va || fail "READ run failed"
log "READ responses paced at $((line / 2)) Mbit/s: got $(awk -v g="$RATE" 'BEGIN { print g / 1e6 }') Mbit/s ($ERR%)"
check "READ responses at 50% of line rate within 2% ($ERR%)" \
	awk -v e="$ERR" 'BEGIN { exit !(e <= 2 && e >= -2) }'
# single-packet READs: every response is the first of its READ. Each READ
# is a round trip, so they move far less than 64 KiB ones: paced at half
# the line rate or 40% of what they reach unpaced, whichever is lower.
rxecc dev set rxe_b algo none || die "none on rxe_b"
MSG=1024 paced_run read1k_solo 19242 3 ib_read_bw pc_a va || die "unpaced 1 KiB READ run failed"
k1=$(awk -v r="$RATE" -v l=$((line * 500)) 'BEGIN { k = int(r * 0.4 / 1000); print (k < l ? k : l) }')
log "unpaced 1 KiB READs: $(awk -v g="$RATE" 'BEGIN { print g / 1e6 }') Mbit/s; paced at $((k1 / 1000)) Mbit/s"
rxecc dev set rxe_b algo fixed rate_kbps "$k1" || die "fixed on rxe_b"
MSG=1024 paced_err read1k 19241 3 "$k1" ib_read_bw pc_a va || fail "1 KiB READ run failed"
log "1 KiB READs: got $(awk -v g="$RATE" 'BEGIN { print g / 1e6 }') Mbit/s ($ERR%)"
check "single-packet READ responses within 2% ($ERR%)" \
	awk -v e="$ERR" 'BEGIN { exit !(e <= 2 && e >= -2) }'
rxecc dev set rxe_b algo none || die "none on rxe_b"

# A paced QP next to an unpaced one: the unpaced QP (rxe_c -> rxe_d) keeps
# its throughput. A pacer that busy-waited would take a CPU of this
# two-CPU VM and cost the neighbour about half of it.
unpaced_rate() {
	local tag=$1 port=$2 spid cpid
	ip netns exec pc_b ib_write_bw -d rxe_d -x "$(gid_index rxe_d 10.9.2.2)" \
		-p "$port" -F -s $MSG -n 1000000 >"$TMP/$tag.server" 2>&1 &
	spid=$!
	wait_listen pc_b "$port" || { kill $spid; return 1; }
	ip netns exec pc_a ib_write_bw -d rxe_c -x "$(gid_index rxe_c 10.9.2.1)" \
		-p "$port" -F -s $MSG -n 1000000 10.9.2.2 >"$TMP/$tag.client" 2>&1 &
	cpid=$!
	sleep 2
	RATE=$(wire_rate pc_b wb 3)
	kill $cpid $spid 2>/dev/null
	wait $cpid $spid 2>/dev/null
	return 0
}

rxecc dev set rxe_a algo fixed rate_kbps $((line * 50)) || die "set rate"
unpaced_rate alone 19230 || die "unpaced run"
alone=$RATE
ip netns exec pc_b ib_write_bw -d rxe_b -x "$(gid_index rxe_b 10.9.1.2)" -p 19231 \
	-F -s $MSG -n 1000000 >"$TMP/paced.server" 2>&1 &
ps=$!
wait_listen pc_b 19231 || die "paced server"
ip netns exec pc_a ib_write_bw -d rxe_a -x "$(gid_index rxe_a 10.9.1.1)" -p 19231 \
	-F -s $MSG -n 1000000 10.9.1.2 >"$TMP/paced.client" 2>&1 &
pc=$!
sleep 2
unpaced_rate beside 19232 || die "unpaced run beside"
beside=$RATE
kill $pc $ps 2>/dev/null
wait $pc $ps 2>/dev/null
# alone again: the emulated host's throughput drifts, so the baseline is
# the lower of the runs before and after
unpaced_rate alone2 19233 || die "unpaced run"
[ "$RATE" -lt "$alone" ] && alone=$RATE
log "unpaced QP alone: $((alone / 1000000)) Mbit/s; beside a QP paced at $((line / 20)) Mbit/s: $((beside / 1000000)) Mbit/s"
check "the unpaced QP is not slowed by the paced one" \
	awk -v a="$alone" -v b="$beside" 'BEGIN { exit !(b >= a * 0.7) }'

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
