#!/bin/bash
# Honouring PFC PAUSE frames (module parameter pfc_netdevs). A PAUSE for the
# priority of a flow's DSCP stops its data until the pause, converted with
# the configured line rate, expires or XON arrives; an 802.3x PAUSE stops
# every priority. A PAUSE for another priority, a device not named in
# pfc_netdevs and malformed frames change nothing. The device's DSCP map
# (module parameter dscp_prio, netlink) decides a QP's priority: changed
# over netlink, it moves a running QP to another priority and wakes one
# held on its old priority. A held QP that fails stops waiting. QPs held
# by a pause and their devices go away cleanly (device removal, namespace
# exit, rmmod).
. "$(dirname "$0")/lib.sh"
require_root

FABRIC=${RXECC_FABRIC:-$RXECC_TOP/build/user/bin/rxecc-fabric}
[ -x "$FABRIC" ] || die "$FABRIC not built (make user)"
# The flows' traffic class: the testbed's data DSCP with ECT(0), on the
# data priority of the map (scripts/testbed.env); OTHER is a priority no
# flow is on.
TCLASS=$RXECC_DATA_TCLASS_ECT0
PRIO=$RXECC_DATA_PRIO
OTHER=5
[ "$OTHER" != "$PRIO" ] || OTHER=4
PARAM=/sys/module/rdma_rxe/parameters/pfc_netdevs
MAPPARAM=/sys/module/rdma_rxe/parameters/dscp_prio

# pfc NS IF ARGS...: rxecc-fabric send-pfc IF ARGS in namespace NS; the
# frames go to IF's peer.
pfc() {
	local ns=$1 ifc=$2
	shift 2
	ip netns exec "$ns" "$FABRIC" send-pfc "$ifc" "$@" >"$TMP/pfc.out" 2>&1 && return 0
	fail "send-pfc $ifc $*"
	sed 's/^/#   /' "$TMP/pfc.out"
	return 1
}

# tx_rate NS IF SECONDS: bit/s sent by IF over SECONDS. Bytes and times
# are read with shell builtins in one process (see cc_pacer.sh).
tx_rate() {
	ip netns exec "$1" bash -c '
		f=/sys/class/net/$1/statistics/tx_bytes
		read -r a <"$f"; t0=$EPOCHREALTIME
		sleep "$2"
		read -r b <"$f"; t1=$EPOCHREALTIME
		awk -v a="$a" -v b="$b" -v t0="$t0" -v t1="$t1" \
			"BEGIN { printf \"%.0f\n\", (b - a) * 8 / (t1 - t0) }"' _ "$2" "$3"
}

mbit() { awk -v r="$1" 'BEGIN { printf "%.1f", r / 1e6 }'; }

# below RATE BASE PCT: RATE < PCT% of BASE
below() { awk -v r="$1" -v b="$2" -v p="$3" 'BEGIN { exit !(r < b * p / 100) }'; }
# above RATE BASE PCT: RATE >= PCT% of BASE
above() { awk -v r="$1" -v b="$2" -v p="$3" 'BEGIN { exit !(r >= b * p / 100) }'; }

ctr() { hw_counter "$1" "$2"; }

# flow_start PORT SNS SDEV SIP CNS CDEV CIP CIF: an open-ended ib_write_bw
# with TCLASS from CDEV to SDEV (FLOW_SPID, FLOW_CPID); returns once data
# leaves CIF (at most 60 s).
flow_start() {
	local port=$1 sns=$2 sdev=$3 sip=$4 cns=$5 cdev=$6 cip=$7 cif=$8 b0
	local f=/sys/class/net/$cif/statistics/tx_bytes
	ip netns exec "$sns" ib_write_bw -d "$sdev" -x "$(gid_index "$sdev" "$sip")" \
		-p "$port" -F --tclass=$TCLASS -n 1000000 >"$TMP/flow$port.server" 2>&1 &
	FLOW_SPID=$!
	wait_listen "$sns" "$port" || die "ib_write_bw server on $sdev did not start"
	b0=$(ip netns exec "$cns" cat "$f")
	ip netns exec "$cns" ib_write_bw -d "$cdev" -x "$(gid_index "$cdev" "$cip")" \
		-p "$port" -F --tclass=$TCLASS -n 1000000 "$sip" >"$TMP/flow$port.client" 2>&1 &
	FLOW_CPID=$!
	wait_until 60 eval '[ $(($(ip netns exec "$cns" cat "$f") - b0)) -gt 1000000 ]' &&
		return 0
	sed 's/^/#   client: /' "$TMP/flow$port.client" | tail -5
	die "no data from $cdev"
}

flow_stop() {
	kill -9 "$FLOW_CPID" "$FLOW_SPID" 2>/dev/null
	wait "$FLOW_CPID" "$FLOW_SPID" 2>/dev/null
	return 0
}

# flow_alive: the client still runs (its QP did not fail)
flow_alive() { kill -0 "$FLOW_CPID" 2>/dev/null; }

dmesg_mark
rxe_load_params pfc_netdevs=va,nx
netns_add pp_a
netns_add pp_b
veth_link pp_a va 10.9.1.1/24 pp_b vb 10.9.1.2/24
veth_link pp_a wa 10.9.2.1/24 pp_b wb 10.9.2.2/24
rxe_add pp_a rxe_a va
rxe_add pp_b rxe_b vb
rxe_add pp_a rxe_c wa
rxe_add pp_b rxe_d wb
for d in "rxe_a 10.9.1.1" "rxe_b 10.9.1.2" "rxe_c 10.9.2.1" "rxe_d 10.9.2.2"; do
	# shellcheck disable=SC2086
	wait_gid $d || ksft_exit
done

check "pfc_netdevs reads back va,nx" [ "$(cat $PARAM)" = "va,nx" ]
dmesg_since_mark | grep 'rxe honours PFC' >"$TMP/honours"
check "only the named netdev's device honours PAUSE" \
	eval "grep -q ' va: ' $TMP/honours && ! grep -qE ' (vb|wa|wb): ' $TMP/honours"
for bad in 'a/b' 'va,,vb' 'name_longer_than_15' 'va vb'; do
	check "pfc_netdevs rejects '$bad' and keeps its value" \
		eval "! echo '$bad' >$PARAM 2>/dev/null && [ \"\$(cat $PARAM)\" = va,nx ]"
done
# the DSCP map: the testbed's, given at load time, on every new device
check "dscp_prio reads back $RXECC_DSCP_PRIO" [ "$(cat $MAPPARAM)" = "$RXECC_DSCP_PRIO" ]
for d in rxe_a rxe_b rxe_c rxe_d; do
	check "$d has the map of dscp_prio" \
		eval "rxecc dev show $d | grep -qw 'dscp_prio $RXECC_DSCP_PRIO'"
done
for bad in '26:8' '64:1' '26:3,26:4' '26:3,' '26' 'x:1'; do
	check "dscp_prio rejects '$bad' and keeps its value" \
		eval "! echo '$bad' >$MAPPARAM 2>/dev/null && [ \"\$(cat $MAPPARAM)\" = '$RXECC_DSCP_PRIO' ]"
done

# ---- 1. PAUSE for the flow's priority, refreshed for a second ------------
# 65535 quanta at 5 Mbit/s: each frame pauses for 6.711 s, time enough to
# measure before it expires even when the VM runs slowly.
PAUSE_S=6.711
rxecc dev set rxe_a line_rate 5M || die "line rate of rxe_a"
flow_start 19300 pp_b rxe_b 10.9.1.2 pp_a rxe_a 10.9.1.1 va
base=$(tx_rate pp_a va 1)
log "flow rxe_a -> rxe_b, DSCP $RXECC_DATA_DSCP: $(mbit "$base") Mbit/s"
nonzero "$base" || die "the flow sends nothing"
p0=$(ctr rxe_a pfc_pause_rcvd)
w0=$(ctr rxe_a pfc_waits)
u0=$(ctr rxe_a pfc_paused_us)

# six frames 0.2 s apart from one process, each logged with its wall-clock
# time ("frame N SECONDS")
t0=$EPOCHREALTIME
ip netns exec pp_b "$FABRIC" send-pfc vb --prio "$PRIO" --quanta 65535 --count 6 \
	--interval 200ms >"$TMP/refresh" 2>&1 &
refresher=$!
sleep 0.3
during=$(tx_rate pp_a va 0.6)
wait $refresher || { fail "send-pfc failed while refreshing"; sed 's/^/#   /' "$TMP/refresh"; }
sent=$(grep -c '^frame ' "$TMP/refresh")
t_first=$(awk '$1 == "frame" { print $3; exit }' "$TMP/refresh")
t_last=$(awk '$1 == "frame" { t = $3 } END { print t }' "$TMP/refresh")
sleep 0.3
# the last frame's pause still holds the flow (it ends PAUSE_S after it)
still=$(tx_rate pp_a va 1)
t_still=$EPOCHREALTIME
# and once it expired, the flow sends again
sleep "$(awk -v l="$t_last" -v n="$EPOCHREALTIME" -v p=$PAUSE_S 'BEGIN { s = l + p + 0.5 - n; print (s > 0 ? s : 0) }')"
after=$(tx_rate pp_a va 1)
log "while refreshed: $(mbit "$during") Mbit/s; after the last of $sent frames: $(mbit "$still") Mbit/s; once expired: $(mbit "$after") Mbit/s"
check "rate ~0 while PAUSE is refreshed" below "$during" "$base" 2
check "the window before expiry ended in time" \
	awk -v l="$t_last" -v e="$t_still" -v p=$PAUSE_S 'BEGIN { exit !(e < l + p - 0.3) }'
check "rate ~0 until the pause of 65535 quanta at 5 Mbit/s expires" below "$still" "$base" 2
check "the flow recovers once the pause expired" above "$after" "$base" 20
check "the flow is still running" flow_alive
p1=$(ctr rxe_a pfc_pause_rcvd)
w1=$(ctr rxe_a pfc_waits)
u1=$(ctr rxe_a pfc_paused_us)
log "pfc_pause_rcvd +$((p1 - p0)), pfc_waits +$((w1 - w0)), pfc_paused_us +$((u1 - u0))"
check "pfc_pause_rcvd counts every frame ($sent)" [ $((p1 - p0)) = "$sent" ]
check "rxecc stats shows the PFC counters" \
	eval "rxecc stats rxe_a | grep -q pfc_pause_rcvd && rxecc stats rxe_a | grep -q pfc_paused_us"
check "pfc_waits counts the held QP" [ $((w1 - w0)) -ge 1 ]
check "pfc_paused_us covers the pause" \
	awk -v u=$((u1 - u0)) -v f="$t_first" -v l="$t_last" -v s="$t0" -v p=$PAUSE_S \
	'BEGIN { lo = (l - f + p) * 0.9e6; hi = (l - s + p + 0.5) * 1e6; exit !(u >= lo && u <= hi) }'

# ---- 2. XON ends a long pause early; 802.3x PAUSE ---------------------------
# at 1 Mbit/s, 65535 quanta pause for 33.5 s
rxecc dev set rxe_a line_rate 1M || die "line rate of rxe_a"
r0=$(ctr rxe_a pfc_resume_rcvd)
t0=$EPOCHREALTIME
pfc pp_b vb --prio "$PRIO" --quanta 65535
sleep 0.3
held=$(tx_rate pp_a va 0.7)
pfc pp_b vb --prio "$PRIO" --quanta 0
sleep 0.3
resumed=$(tx_rate pp_a va 1)
t1=$EPOCHREALTIME
log "33.5 s pause: $(mbit "$held") Mbit/s; after XON: $(mbit "$resumed") Mbit/s"
check "a 33.5 s pause holds the flow" below "$held" "$base" 2
check "XON resumes it long before the pause would expire" \
	eval "above $resumed $base 20 && awk -v a=$t0 -v b=$t1 'BEGIN { exit !(b - a < 10) }'"
check "pfc_resume_rcvd counts the XON" [ $(($(ctr rxe_a pfc_resume_rcvd) - r0)) = 1 ]

pfc pp_b vb --legacy --quanta 65535
sleep 0.3
held=$(tx_rate pp_a va 0.7)
pfc pp_b vb --legacy --quanta 0
sleep 0.3
resumed=$(tx_rate pp_a va 1)
log "802.3x PAUSE: $(mbit "$held") Mbit/s; after its XON: $(mbit "$resumed") Mbit/s"
check "an 802.3x PAUSE holds the flow" below "$held" "$base" 2
check "an 802.3x XON resumes it" above "$resumed" "$base" 20

# ---- 3. a PAUSE for another priority ---------------------------------------
p0=$(ctr rxe_a pfc_pause_rcvd)
w0=$(ctr rxe_a pfc_waits)
pfc pp_b vb --prio "$OTHER" --quanta 65535
sleep 0.2
other=$(tx_rate pp_a va 1)
log "PAUSE of priority $OTHER: $(mbit "$other") Mbit/s"
check "a PAUSE of priority $OTHER does not stop DSCP $RXECC_DATA_DSCP" above "$other" "$base" 20
check "it is honoured for priority $OTHER but holds no QP" \
	eval "[ $(($(ctr rxe_a pfc_pause_rcvd) - p0)) = 1 ] && [ $(ctr rxe_a pfc_waits) = $w0 ]"
pfc pp_b vb --prio "$OTHER" --quanta 0

# ---- 3b. the device's DSCP map moves the running QP to another priority ----
# Over netlink, the map puts the flow's DSCP on priority OTHER: a PAUSE for
# the data priority no longer holds it, one for OTHER does; with the
# testbed's map back, the data priority holds it again.
moved=$RXECC_DATA_DSCP:$OTHER,$RXECC_CNP_DSCP:$RXECC_CNP_PRIO
check "dev set dscp_prio $moved" rxecc dev set rxe_a dscp_prio "$moved"
check "dev show has the new map" eval "rxecc dev show rxe_a | grep -qw 'dscp_prio $moved'"
check "the other devices keep theirs" \
	eval "rxecc dev show rxe_c | grep -qw 'dscp_prio $RXECC_DSCP_PRIO'"
w0=$(ctr rxe_a pfc_waits)
pfc pp_b vb --prio "$PRIO" --quanta 65535
sleep 0.3
rate=$(tx_rate pp_a va 1)
log "DSCP $RXECC_DATA_DSCP on priority $OTHER, PAUSE of priority $PRIO: $(mbit "$rate") Mbit/s"
check "a PAUSE of priority $PRIO no longer stops DSCP $RXECC_DATA_DSCP" above "$rate" "$base" 20
check "and holds no QP" [ "$(ctr rxe_a pfc_waits)" = "$w0" ]
pfc pp_b vb --prio "$PRIO" --quanta 0
pfc pp_b vb --prio "$OTHER" --quanta 65535
sleep 0.3
held=$(tx_rate pp_a va 0.7)
log "PAUSE of priority $OTHER: $(mbit "$held") Mbit/s"
check "a PAUSE of priority $OTHER now holds it" below "$held" "$base" 2
check "and counts a wait" [ "$(ctr rxe_a pfc_waits)" -gt "$w0" ]
pfc pp_b vb --prio "$OTHER" --quanta 0
sleep 0.3
check "its XON resumes it" above "$(tx_rate pp_a va 1)" "$base" 20
check "dev set dscp_prio back to $RXECC_DSCP_PRIO" rxecc dev set rxe_a dscp_prio "$RXECC_DSCP_PRIO"
pfc pp_b vb --prio "$PRIO" --quanta 65535
sleep 0.3
held=$(tx_rate pp_a va 0.7)
log "map restored, PAUSE of priority $PRIO: $(mbit "$held") Mbit/s"
check "with the map restored, a PAUSE of priority $PRIO holds it again" below "$held" "$base" 2
# The QP now waits on priority PRIO for 33.5 s (1 Mbit/s). Moving its DSCP
# to OTHER must wake it at once: it is no longer on a paused priority.
t0=$EPOCHREALTIME
check "dev set dscp_prio $moved while the QP is held" rxecc dev set rxe_a dscp_prio "$moved"
sleep 0.3
rate=$(tx_rate pp_a va 1)
t1=$EPOCHREALTIME
log "held on priority $PRIO, DSCP moved to $OTHER: $(mbit "$rate") Mbit/s"
check "a QP held under its old priority resumes when the map moves it" \
	eval "above $rate $base 20 && awk -v a=$t0 -v b=$t1 'BEGIN { exit !(b - a < 10) }'"
check "dev set dscp_prio back to $RXECC_DSCP_PRIO (held again)" \
	rxecc dev set rxe_a dscp_prio "$RXECC_DSCP_PRIO"
pfc pp_b vb --prio "$PRIO" --quanta 0
sleep 0.3
check "XON resumes it" above "$(tx_rate pp_a va 1)" "$base" 20
check "the flow is still running" flow_alive

# ---- 5. malformed and unsupported frames -----------------------------------
p0=$(ctr rxe_a pfc_pause_rcvd)
i0=$(ctr rxe_a pfc_ignored)
w0=$(ctr rxe_a pfc_waits)
# each asks to pause the data priority (or all) for 65535 quanta, and is
# invalid
ip netns exec pp_b /usr/bin/python3 - vb "$PRIO" >"$TMP/bad.out" 2>&1 <<'PY' || fail "cannot send malformed frames"
import socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
src = s.getsockname()[4]
grp = bytes.fromhex("0180c2000001")
other = bytes.fromhex("020000000099")
prio = int(sys.argv[2])
times = struct.pack("!8H", *[0xFFFF if n == prio else 0 for n in range(8)])
vec = 1 << prio
ctl = b"\x88\x08"
def pad(f):
    return f + bytes(max(0, 60 - len(f)))
frames = [
    grp + src + ctl + struct.pack("!HH", 0x0101, vec) + bytes(6),             # 10 bytes
    pad(grp + src + ctl + struct.pack("!HH", 0x0002, 0xFFFF)),                # opcode
    pad(other + src + ctl + struct.pack("!HH", 0x0101, vec) + times),
    pad(grp + src + ctl + struct.pack("!HH", 0x0101, 0x0100 | vec) + times),  # reserved
    pad(grp + src + ctl + struct.pack("!HH", 0x0101, 0x0000) + times),        # none
    pad(other + src + ctl + struct.pack("!HH", 0x0001, 0xFFFF)),
    pad(grp + src + b"\x81\x00\x00\x05" + ctl + struct.pack("!HH", 0x0101, vec) + times),
]
for f in frames:
    s.send(f)
print(len(frames))
PY
nbad=$(cat "$TMP/bad.out")
sleep 0.2
rate=$(tx_rate pp_a va 1)
log "$nbad malformed frames; flow: $(mbit "$rate") Mbit/s; pfc_ignored +$(($(ctr rxe_a pfc_ignored) - i0))"
check "every malformed frame is counted as ignored" [ $(($(ctr rxe_a pfc_ignored) - i0)) = "$nbad" ]
check "none pauses anything" \
	eval "[ $(ctr rxe_a pfc_pause_rcvd) = $p0 ] && [ $(ctr rxe_a pfc_waits) = $w0 ]"
check "the flow goes on" eval "above $rate $base 20 && flow_alive"
flow_stop

# ---- 4. a device not named in pfc_netdevs ------------------------------------
rxecc dev set rxe_c line_rate 1M || die "line rate of rxe_c"
flow_start 19310 pp_b rxe_d 10.9.2.2 pp_a rxe_c 10.9.2.1 wa
basec=$(tx_rate pp_a wa 1)
pfc pp_b wb --prio "$PRIO" --quanta 65535
pfc pp_b wb --legacy --quanta 65535
sleep 0.2
rate=$(tx_rate pp_a wa 1)
log "rxe_c (not named): $(mbit "$basec") Mbit/s, after PAUSE frames $(mbit "$rate") Mbit/s"
check "a device not named ignores PAUSE" above "$rate" "$basec" 20
for c in pfc_pause_rcvd pfc_resume_rcvd pfc_ignored pfc_waits pfc_paused_us; do
	check "$c of rxe_c stays 0" [ "$(ctr rxe_c $c)" = 0 ]
done
flow_stop

# ---- 7. a held QP that fails is no longer paused ---------------------------
# rxecc-qptest keeps RDMA WRITEs going from rxe_a to rxe_b over one RC QP
# (the data DSCP); SIGUSR1 moves that QP to ERR while a 33.5 s pause holds
# it.
# Its paused time is accounted when it fails, and it no longer counts as
# waiting for the pause.
need_qptest
"$QPTEST" --tclass $TCLASS rxe_a "$(gid_index rxe_a 10.9.1.1)" \
	rxe_b "$(gid_index rxe_b 10.9.1.2)" >"$TMP/qptest.out" 2>&1 &
qpt=$!
if wait_until 60 eval 'grep -qs "^flowing" "$TMP/qptest.out"'; then
	w0=$(ctr rxe_a pfc_waits)
	u0=$(ctr rxe_a pfc_paused_us)
	t0=$EPOCHREALTIME
	pfc pp_b vb --prio "$PRIO" --quanta 65535
	check "rxecc-qptest's QP is held by the pause" \
		wait_until 10 eval '[ "$(ctr rxe_a pfc_waits)" -gt "$w0" ]'
	th=$EPOCHREALTIME
	sleep 1
	t1=$EPOCHREALTIME
	kill -USR1 $qpt
	check "the held QP moves to ERR" wait_until 10 eval 'grep -q "^err" "$TMP/qptest.out"'
	sleep 0.3
	u1=$(ctr rxe_a pfc_paused_us)
	t2=$EPOCHREALTIME
	sleep 1
	u2=$(ctr rxe_a pfc_paused_us)
	log "QP held from <= $(awk -v a="$t0" -v b="$th" 'BEGIN { printf "%.1f", b - a }') s" \
		"after the PAUSE, failed at $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s;" \
		"pfc_paused_us +$((u1 - u0)) then, +$((u2 - u1)) in the second after"
	check "its paused time is accounted when it fails" \
		awk -v u=$((u1 - u0)) -v h="$th" -v a="$t0" -v b="$t1" -v c="$t2" \
		'BEGIN { exit !(u >= (b - h) * 0.95e6 && u <= (c - a) * 1e6) }'
	check "a failed QP no longer counts as paused" [ "$u2" = "$u1" ]
	pfc pp_b vb --prio "$PRIO" --quanta 0
else
	fail "rxecc-qptest: no RDMA WRITE completed"
fi
kill $qpt 2>/dev/null
wait $qpt
rc=$?
check "rxecc-qptest ended cleanly (status $rc)" [ $rc = 0 ]
sed 's/^/#   rxecc-qptest: /' "$TMP/qptest.out"

# ---- 6. teardown with a pause in force and a QP held ------------------------
flow_start 19320 pp_b rxe_b 10.9.1.2 pp_a rxe_a 10.9.1.1 va
w0=$(ctr rxe_a pfc_waits)
pfc pp_b vb --prio "$PRIO" --quanta 65535
sleep 0.5
check "the QP is held by the pause" [ "$(ctr rxe_a pfc_waits)" -gt "$w0" ]
# The device goes while its QP is held: the removal waits for the verbs
# user, whose QP is destroyed once it is killed.
t0=$EPOCHREALTIME
timeout 30 rdma link delete rxe_a >"$TMP/del.out" 2>&1 &
del=$!
sleep 1
flow_stop
wait $del
rc=$?
t1=$EPOCHREALTIME
check "rxe_a is removed while its QP is held (rc $rc)" [ $rc = 0 ]
check "the removal did not wait for the pause to expire" \
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 15) }'

# a namespace exit takes a device that honours PAUSE with it
netns_add pp_n
ip link add nx netns pp_n type veth peer name ny netns pp_n || die "veth nx"
ip -n pp_n link set nx up
ip -n pp_n link set ny up
rxe_add pp_n rxe_n nx
pfc pp_n ny --prio '*' --quanta 65535
check "rxe_n honours PAUSE" [ "$(ctr rxe_n pfc_pause_rcvd)" = 1 ]
ip netns del pp_n
check "rxe_n goes with its namespace" wait_until 60 eval '[ ! -d /sys/class/infiniband/rxe_n ]'

# rmmod with devices present, one of them paused for 33.5 s; its QP was
# destroyed while held
rxe_add pp_a rxe_a va
wait_gid rxe_a 10.9.1.1 || ksft_exit
rxecc dev set rxe_a line_rate 1M || die "line rate of rxe_a"
flow_start 19330 pp_b rxe_b 10.9.1.2 pp_a rxe_a 10.9.1.1 va
w0=$(ctr rxe_a pfc_waits)
pfc pp_b vb --prio "$PRIO" --quanta 65535
sleep 0.5
check "the new rxe_a's QP is held" [ "$(ctr rxe_a pfc_waits)" -gt "$w0" ]
flow_stop
t0=$EPOCHREALTIME
check "rmmod with a pause in force" rmmod rdma_rxe
check "rmmod did not wait for the pause" \
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { exit !(b - a < 15) }'
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
