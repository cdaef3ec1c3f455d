#!/bin/bash
# rxecc-traffic through the fabric: two hosts, a schedule of 20 sized flows
# (RDMA WRITE, SEND and READ, some with small messages) and 2 long ones.
# Every flow completes with its bytes; the data frames and connection
# management frames the fabric carried to the receiver are exactly those
# the records account for (so nothing was lost, duplicated or
# retransmitted; the connection manager may repeat a MAD); the start-time
# error is printed. Then the two hosts run
# apart (rxecc-traffic run, agreeing on T0 by the wall clock) and merge,
# a flow with rate= moves data at that rate, and flows start 5 ms apart
# while earlier ones complete.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

TRAFFIC=${TRAFFIC:-$RXECC_TOP/build/user/bin/rxecc-traffic}
[ -x "$TRAFFIC" ] || skip "$TRAFFIC not built (make user)"
FAB=tg_fab
OUT=$TMP/out

dmesg_mark
rxe_load_params pfc_netdevs=eth0
fabric_ns $FAB
fabric_host $FAB tg_a 10.9.0.1
fabric_host $FAB tg_b 10.9.0.2
# links faster than the senders: the flows run at what rxe reaches, PFC
# guards the receiver's port anyway
cat >"$TMP/topo" <<T
switch s0 buffer=4MB
port s0:a rate=1G delay=10us attach=if:tg_a
port s0:b rate=1G delay=10us attach=if:tg_b
route s0 10.9.0.1 a
route s0 10.9.0.2 b
pfc s0:* prio=3 xoff=300KB xon=250KB headroom=400KB
T
fabric_start $FAB "$TMP/topo" "$TMP/tel" --sample 10ms
wait_gid rxe_tg_a 10.9.0.1 && wait_gid rxe_tg_b 10.9.0.2 || ksft_exit
ip netns exec tg_a ping -c 1 -W 2 10.9.0.2 >/dev/null
ip netns exec tg_b ping -c 1 -W 2 10.9.0.1 >/dev/null

printf 'tg_a 10.9.0.1\ntg_b 10.9.0.2\n' >"$TMP/hosts"
# every flow moves data from tg_a to tg_b (READ: tg_b reads tg_a's memory)
cat >"$TMP/sched" <<S
defaults msg=64KiB depth=32 timeout=19
long_w tg_a tg_b 0     duration=5s qps=2
long_s tg_a tg_b 100ms duration=5s verb=send
w1 tg_a tg_b 400ms  size=100KB
w2 tg_a tg_b 650ms  size=1MB
w3 tg_a tg_b 900ms  size=333333 msg=4KiB
w4 tg_a tg_b 1150ms size=64KiB
w5 tg_a tg_b 1400ms size=2MB qps=4
w6 tg_a tg_b 1650ms size=1 msg=1KiB
w7 tg_a tg_b 1900ms size=500KB
w8 tg_a tg_b 2050ms size=40000 qps=2
s1 tg_a tg_b 2150ms size=100KB verb=send
s2 tg_a tg_b 2400ms size=700KB verb=send msg=4KiB
s3 tg_a tg_b 2650ms size=1MB verb=send qps=2
s4 tg_a tg_b 2900ms size=3000 verb=send msg=1KiB
s5 tg_a tg_b 3150ms size=256KiB verb=send
s6 tg_a tg_b 3400ms size=1500KB verb=send
r1 tg_a tg_b 3650ms size=100KB verb=read
r2 tg_a tg_b 3900ms size=1MB verb=read
r3 tg_a tg_b 4150ms size=200KB verb=read msg=4KiB
r4 tg_a tg_b 4400ms size=64KiB verb=read qps=2
r5 tg_a tg_b 4650ms size=777777 verb=read
r6 tg_a tg_b 4900ms size=2MB verb=read
S
check "the schedule passes check" "$TRAFFIC" check --schedule "$TMP/sched" --hosts "$TMP/hosts"

rt_a=$(hw_counter rxe_tg_a completer_retry_err)
rt_b=$(hw_counter rxe_tg_b completer_retry_err)
rc=0
"$TRAFFIC" launch --schedule "$TMP/sched" --hosts "$TMP/hosts" --out "$OUT" \
	--deadline 90s >"$TMP/launch.out" 2>"$TMP/launch.err" || rc=$?
sed 's/^/#   /' "$TMP/launch.out"
grep -v ': listening on \|: ready: ' "$TMP/launch.err" | sed 's/^/#   /'
check "rxecc-traffic exited 0 (every flow ok)" test "$rc" = 0
check "merged flows.csv has 22 flows" test "$(tail -n +2 "$OUT/flows.csv" | wc -l)" = 22
bad=$(awk -F, 'NR > 1 && $19 != "ok" { printf "%s:%s ", $1, $19 }' "$OUT/flows.csv")
check "every flow ended ok ${bad:+($bad)}" test -z "$bad"
# sized flows moved exactly their size; the long ones moved something
bad=$(awk -F, 'NR > 1 && (($5 != "" && $15 != $5) || $15 == "" || $15 == 0) { printf "%s ", $1 }' \
	"$OUT/flows.csv")
check "every flow's bytes are its size ${bad:+(not: $bad)}" test -z "$bad"
bad=$(awk -F, 'NR > 1 && ($11 == "" || $12 == "" || $13 == "" || $14 == "" || $18 == "" || $20 == "") {
	printf "%s ", $1 }' "$OUT/flows.csv")
check "start, byte and completion times and QPs recorded ${bad:+(missing: $bad)}" test -z "$bad"
check "per-message records of the 4 KiB and 1 KiB flows" \
	test "$(awk -F, '$1 == "s4" && $5 != ""' "$OUT/messages.csv" | wc -l)" = 3
check "throughput bins written" grep -q '^long_w,' "$OUT/bins.csv"

# The fabric's port to tg_b carried, on the data priority, exactly the
# flows' data frames and their connection set-up and tear-down (the
# connection manager may repeat a MAD whose answer was late): wait for the
# last frames of the tear-down, then compare.
want_f=$("$TRAFFIC" wire "$OUT" | awk '$1 == "tg_a" && $2 == "tg_b" && $3 == 26 { print $8 }')
wait_until 10 eval '[ "$(fabric_stat s0.b.q3.tx_pkts)" -ge "${want_f:-0}" ]'
read -r got_f got_b < <(fabric_flat | awk '$1 == "s0.b.q3.tx_pkts" { f = $2 }
	$1 == "s0.b.q3.tx_bytes" { b = $2 } END { print f + 0, b + 0 }')
cmp=$("$TRAFFIC" wire "$OUT" --compare "tg_a,tg_b,26,$got_f,$got_b")
rc=$?
log "to tg_b on priority 3: $cmp"
check "the frames and bytes to tg_b are those of the records" test "$rc" = 0
drops=$(fabric_drops)
check "nothing dropped${drops:+: $drops}" test -z "$drops"
check "no retransmission (tg_a)" test "$(hw_counter rxe_tg_a completer_retry_err)" = "$rt_a"
check "no retransmission (tg_b)" test "$(hw_counter rxe_tg_b completer_retry_err)" = "$rt_b"

# the start error over the 22 flows (p99 is the largest of them)
log "$(grep 'start error' "$TMP/launch.out" | sed 's/^rxecc-traffic: //')"
# The hosts started apart (run, as on separate machines) agree on T0
# through CLOCK_REALTIME; merge joins their records.
cat >"$TMP/sched2" <<S
apart_w tg_a tg_b 0    size=1MB
apart_r tg_a tg_b 50ms size=500KB verb=read
apart_s tg_a tg_b 100ms size=100KB verb=send msg=4KiB
S
at=$(date -d '+8 sec' +%s.%N)
"$TRAFFIC" run --host tg_b --start-at "$at" --schedule "$TMP/sched2" --hosts "$TMP/hosts" \
	--out "$TMP/apart" >"$TMP/run_b.log" 2>&1 &
rb=$!
rc=0
"$TRAFFIC" run --host tg_a --start-at "$at" --schedule "$TMP/sched2" --hosts "$TMP/hosts" \
	--out "$TMP/apart" >"$TMP/run_a.log" 2>&1 || rc=$?
wait "$rb" || rc=$?
check "run on each host exited 0" test "$rc" = 0
"$TRAFFIC" merge "$TMP/apart" >"$TMP/merge.out" 2>&1 || fail "merge: $(cat "$TMP/merge.out")"
bad=$(awk -F, 'NR > 1 && ($19 != "ok" || $15 != $5 || $12 == "") { printf "%s:%s ", $1, $19 }' \
	"$TMP/apart/flows.csv")
check "the hosts run apart moved every flow ${bad:+($bad)}" \
	test "$(tail -n +2 "$TMP/apart/flows.csv" | wc -l)" = 3 -a -z "$bad"
log "run apart: $(sed 's/^rxecc-traffic: //' "$TMP/merge.out")"

# rate=: the flow's QP is switched to the algorithm "fixed" at the rate
# before T0, so it moves about 20 Mbit/s (the same flow unpaced moved
# ten times that and more here)
echo "paced tg_a tg_b 0 duration=1500ms rate=20M msg=4KiB depth=16" >"$TMP/sched4"
rc=0
"$TRAFFIC" launch --schedule "$TMP/sched4" --hosts "$TMP/hosts" --out "$TMP/paced" \
	>"$TMP/paced.out" 2>&1 || rc=$?
check "the flow with rate=20M completed" test "$rc" = 0
# its goodput from its first to its last byte, in Mbit/s
mbps=$(awk -F, 'NR == 2 && $19 == "ok" && $13 > $12 {
	printf "%.2f", $15 * 8 / ($13 - $12) * 1000 }' "$TMP/paced/flows.csv")
log "rate=20M: goodput ${mbps:-none} Mbit/s"
check "rate=20M paced the flow (goodput ${mbps:-none} Mbit/s, want 16 to 21)" \
	awk -v m="${mbps:-0}" 'BEGIN { exit !(m >= 16 && m <= 21) }'

# Starts 5 ms apart, closer than --spin (20 ms): the host waits for each
# start by reading the clock and must handle completions meanwhile. A
# message takes a few ms here; when a host only read the clock until its
# last start, every completion waited for it (the first flow's FCT was
# 194 ms). Most flows complete before the flow ten places later starts.
for i in $(seq 0 29); do
	echo "d$i tg_a tg_b $((i * 5))ms size=1000 msg=1000 depth=1"
done >"$TMP/sched3"
rc=0
"$TRAFFIC" launch --schedule "$TMP/sched3" --hosts "$TMP/hosts" --out "$TMP/dense" \
	>"$TMP/dense.out" 2>&1 || rc=$?
check "the 30 flows 5 ms apart completed" test "$rc" = 0
# complete_ns of dI against sched_start_ns of dI+10, I = 0..19
early=$(awk -F, 'NR > 1 { sub(/^d/, "", $1); c[$1] = $14; s[$1] = $10 }
	END { for (i = 0; i < 20; i++) if (c[i] != "" && c[i] < s[i + 10]) n++; print n + 0 }' \
	"$TMP/dense/flows.csv")
log "flows 5 ms apart: $early of 20 completed before the start 50 ms after theirs"
check "completions are handled between close starts ($early of 20 within 50 ms, want 15)" \
	test "$early" -ge 15

# keep the records with the VM's output
if [ -n "${RXECC_OUT:-}" ]; then
	rm -rf "$RXECC_OUT/traffic_gen"
	cp -r "$OUT" "$RXECC_OUT/traffic_gen"
fi
fabric_stop
cleanup
rxe_unload || fail "rmmod"
dmesg_check
ksft_exit
