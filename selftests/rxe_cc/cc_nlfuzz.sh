#!/bin/bash
# The rxe_cc generic netlink family under rxecc-nlfuzz: random, boundary
# and malformed requests of every command, sent around rxecc's parser, from
# two processes at once (each changing its own two devices) while a third
# dumps everything and traffic runs on the QPs being changed. Every bad
# request must be refused with an extended ACK message and leave the
# configuration as it was; no kernel warning. The seeds are printed; a
# failure is reproduced with the command the fuzzer prints
# (Documentation/rxe-cc/testing.rst).
. "$(dirname "$0")/lib.sh"
require_root

NLFUZZ=${NLFUZZ:-$RXECC_TOP/build/user/bin/rxecc-nlfuzz}
[ -x "$NLFUZZ" ] || die "$NLFUZZ not built (make user)"
# RXECC_NLFUZZ_SEED=N replays a run; by default each run takes new seeds
seed=${RXECC_NLFUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
REQUESTS=${RXECC_NLFUZZ_REQUESTS:-3000}
# 40 s, or longer until a tenth of REQUESTS was sent: the fuzz a run does
# does not depend on the machine's speed (the debug kernel on a contended
# machine sent 285 in 60 s in the CI of 4fca874, against 3000 in 36 s on
# User-Mode Linux)
FUZZ_SECONDS=40
AT_LEAST=$((REQUESTS / 10))

dmesg_mark
rxe_load
netns_add nf_a
netns_add nf_b
veth_link nf_a va 10.7.1.1/24 nf_b vb 10.7.1.2/24
veth_link nf_a wa 10.7.2.1/24 nf_b wb 10.7.2.2/24
rxe_add nf_a rxe_a va
rxe_add nf_b rxe_b vb
rxe_add nf_a rxe_c wa
rxe_add nf_b rxe_d wb
for d in "rxe_a 10.7.1.1" "rxe_b 10.7.1.2" "rxe_c 10.7.2.1" "rxe_d 10.7.2.2"; do
	# shellcheck disable=SC2086
	wait_gid $d || ksft_exit
done

# traffic on both pairs: its QPs are among those the fuzzers change
ip netns exec nf_b ib_write_bw -d rxe_b -x "$(gid_index rxe_b 10.7.1.2)" -p 19400 -F \
	-s 4096 -D 600 >"$TMP/srv1" 2>&1 &
s1=$!
ip netns exec nf_b ib_write_bw -d rxe_d -x "$(gid_index rxe_d 10.7.2.2)" -p 19401 -F \
	-s 4096 -D 600 >"$TMP/srv2" 2>&1 &
s2=$!
_bg_pids+=("$s1" "$s2")
wait_listen nf_b 19400 || die "server 1"
wait_listen nf_b 19401 || die "server 2"
ip netns exec nf_a ib_write_bw -d rxe_a -x "$(gid_index rxe_a 10.7.1.1)" -p 19400 -F \
	-s 4096 -D 600 10.7.1.2 >"$TMP/cli1" 2>&1 &
c1=$!
ip netns exec nf_a ib_write_bw -d rxe_c -x "$(gid_index rxe_c 10.7.2.1)" -p 19401 -F \
	-s 4096 -D 600 10.7.2.2 >"$TMP/cli2" 2>&1 &
c2=$!
_bg_pids+=("$c1" "$c2")
wait_until 60 eval '[ -n "$(qpns rxe_a)" ] && [ -n "$(qpns rxe_c)" ]' || die "no traffic QPs"

# the reader: dumps of every kind, as fast as it goes, until told to stop
(
	n=0
	while [ ! -f "$TMP/stop" ]; do
		rxecc -d qp show >/dev/null 2>&1
		rxecc dev show >/dev/null 2>&1
		rxecc stats >/dev/null 2>&1
		n=$((n + 3))
	done
	echo "$n" >"$TMP/reader"
) &
reader=$!
_bg_pids+=("$reader")

# watchers: when a traffic client ends, the seconds since the fuzzers'
# start go to $TMP/endN (to find what the fuzzer of that pair had set)
t0=$(date +%s.%N)
for i in 1 2; do
	c=c$i
	(
		while kill -0 "${!c}" 2>/dev/null && [ ! -f "$TMP/stop" ]; do
			sleep 0.2
		done
		kill -0 "${!c}" 2>/dev/null ||
			awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' >"$TMP/end$i"
	) &
	_bg_pids+=($!)
done

"$NLFUZZ" --seed "$seed" --requests "$REQUESTS" --seconds $FUZZ_SECONDS \
	--at-least $AT_LEAST --dev rxe_a --dev rxe_b \
	--log "$TMP/log1" >"$TMP/fuzz1" 2>&1 &
f1=$!
"$NLFUZZ" --seed $((seed + 1)) --requests "$REQUESTS" \
	--seconds $FUZZ_SECONDS --at-least $AT_LEAST --dev rxe_c --dev rxe_d \
	--log "$TMP/log2" >"$TMP/fuzz2" 2>&1 &
f2=$!
wait $f1
r1=$?
wait $f2
r2=$?
touch "$TMP/stop"
wait $reader
sed 's/^/# fuzzer 1: /' "$TMP/fuzz1" | head -40
sed 's/^/# fuzzer 2: /' "$TMP/fuzz2" | head -40
log "reader: $(cat "$TMP/reader" 2>/dev/null || echo '?') dump requests beside the fuzzers"
check "fuzzer 1 (seed $seed): every answer as expected" test $r1 = 0
check "fuzzer 2 (seed $((seed + 1))): every answer as expected" test $r2 = 0
# each sent at least a tenth of its requests, however long it took (a
# fuzzer stuck on a request would time out above)
for f in fuzz1 fuzz2; do
	n=$(sed -n 's/.*: \([0-9]*\) requests in .*/\1/p' "$TMP/$f")
	check "$f sent at least $AT_LEAST requests (${n:-none})" test "${n:-0}" -ge $AT_LEAST
done
check "the traffic's QPs were not errored: client 1 still runs" kill -0 $c1
check "client 2 still runs" kill -0 $c2
# a client that ended: its last words and the changes its pair's fuzzer
# had made up to then (seconds since the start, request number, what)
for i in 1 2; do
	[ -s "$TMP/end$i" ] || continue
	e=$(cat "$TMP/end$i")
	log "client $i ended about $e s after the fuzzers started; its output ends:"
	tail -n 5 "$TMP/cli$i" | sed 's/^/#   /'
	log "fuzzer $i's last accepted changes up to then:"
	awk -v e="$e" '$1 <= e + 0.5' "$TMP/log$i" | tail -n 25 | sed 's/^/#   /'
done
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
