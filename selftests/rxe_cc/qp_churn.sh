#!/bin/bash
# QP churn: many cycles of create, connect, one WRITE and destroy between
# two hosts whose devices run DCQCN (every new QP gets CC state, its timers
# armed by the WRITE), while an ib_write_bw keeps sending on another QP
# pair and the algorithm of its QPs is switched back and forth. Afterwards
# no QP is left but the traffic's, nor a vmalloc'ed queue, the slab
# objects in use are back where they were after a warm-up (but for the
# vmalloc bookkeeping the kernel frees lazily; a leak of 100 bytes per QP
# pair would exceed the bound; the caches that grew are printed), the
# traffic still runs and the kernel log is clean.
. "$(dirname "$0")/lib.sh"
require_root
need_qptest

CYCLES=${QP_CHURN_CYCLES:-10000}
# bytes of slab objects the churn may leave: other activity in the VM
# moves them by up to a few hundred KB whatever the number of cycles, and
# a leak of 100 bytes per QP pair adds as much again at 10 000 cycles
SLACK=$((512 * 1024 + CYCLES * 100))

dmesg_mark
rxe_load
netns_add qc_a
netns_add qc_b
veth_link qc_a va 10.9.5.1/24 qc_b vb 10.9.5.2/24
rxe_add qc_a rxe_a va
rxe_add qc_b rxe_b vb
wait_gid rxe_a 10.9.5.1 && wait_gid rxe_b 10.9.5.2 || ksft_exit
for d in rxe_a rxe_b; do
	rxecc dev set "$d" algo dcqcn line_rate 1G >/dev/null || die "rxecc dev set $d algo dcqcn"
done
ga=$(gid_index rxe_a 10.9.5.1) gb=$(gid_index rxe_b 10.9.5.2)

# slab_bytes: bytes of slab objects in use (/proc/slabinfo: active objects
# x object size), vmap_area left out: the kernel frees the bookkeeping of
# freed vmalloc areas (a QP's queues are vmalloc'ed) lazily, in batches
# slab_bytes: bytes of slab objects in use, but for vmap_area (see
# vmalloc_queues) and, on the debug kernel, the caches of kmemleak and
# debug objects: their own bookkeeping of every object, freed or refilled
# later and in batches (a full run there saw them grow 1.4 MB over the
# churn, with kmemleak reporting nothing); a leak in rxe shows in the
# caches of its objects, and kmemleak reports it
slab_bytes() {
	awk 'NR > 2 && $1 != "vmap_area" && $1 !~ /^(kmemleak_object|kmemleak_scan_area|debug_objects_cache)$/ {
		s += $2 * $4 } END { printf "%d\n", s }' /proc/slabinfo
}
# vmalloc_queues: live vmalloc areas of rxe's queues (a QP's send and
# receive queues are vmalloc'ed, freed with it; the kernel purges the
# freed areas' bookkeeping lazily, which shows in the slab as vmap_area)
vmalloc_queues() { grep -c 'rxe_queue_init' /proc/vmallocinfo; }
# qp_count DEV: RC QPs of DEV
qp_count() { qpns "$1" | wc -l; }

traffic_start qc_b rxe_b 10.9.5.2 qc_a rxe_a 10.9.5.1 18600
tqp=$QPN
base_a=$(qp_count rxe_a) base_b=$(qp_count rxe_b)
log "traffic QP $tqp; QPs before the churn: rxe_a $base_a, rxe_b $base_b"

# the traffic's QP switched between none and dcqcn every 0.2 s meanwhile
(
	a=none
	while :; do
		rxecc qp set rxe_a "$tqp" algo "$a" >/dev/null 2>&1 || exit 1
		if [ "$a" = none ]; then a=dcqcn; else a=none; fi
		nap 0.2
	done
) &
SW_PID=$!
_bg_pids+=("$SW_PID")

# warm-up: slab caches grow to what the churn needs, then the baseline
"$QPTEST" --churn 200 --size 4096 rxe_a "$ga" rxe_b "$gb" >"$TMP/warm.out" 2>&1
check "warm-up: 200 cycles" grep -q '^churned 200$' "$TMP/warm.out" ||
	sed 's/^/#   /' "$TMP/warm.out"
slab0=$(slab_bytes)
vq0=$(vmalloc_queues)
cp /proc/slabinfo "$TMP/slabinfo.0" 2>/dev/null
t0=$SECONDS
"$QPTEST" --churn "$CYCLES" --size 4096 rxe_a "$ga" rxe_b "$gb" >"$TMP/churn.out" 2>&1
rc=$?
log "churn: $CYCLES cycles in $((SECONDS - t0)) s (exit $rc): $(tail -1 "$TMP/churn.out")"
check "rxecc-qptest churned $CYCLES QP pairs" grep -q "^churned $CYCLES\$" "$TMP/churn.out"
kill -0 "$SW_PID" 2>/dev/null
check "the algorithm switches went on throughout" test $? = 0
kill "$SW_PID" 2>/dev/null
wait "$SW_PID" 2>/dev/null
check "the traffic still runs" kill -0 "$CLI_PID"
check "no QP left on rxe_a but the traffic's" test "$(qp_count rxe_a)" = "$base_a"
check "no QP left on rxe_b but the traffic's" test "$(qp_count rxe_b)" = "$base_b"
slab1=$(slab_bytes)
vq1=$(vmalloc_queues)
check "rxe's queue memory returned ($vq0 vmalloc areas before, $vq1 after)" test "$vq1" = "$vq0"
check "the traffic's queues are counted" test "$vq0" -gt 0
log "slab objects: $((slab0 / 1024)) kB after the warm-up, $((slab1 / 1024)) kB after the churn (bound +$((SLACK / 1024)) kB)"
check "slab memory returned (grew $(((slab1 - slab0) / 1024)) kB)" test $((slab1 - slab0)) -le "$SLACK"
# where it went: the caches whose objects in use grew by 64 kB or more
if [ -r "$TMP/slabinfo.0" ]; then
	awk 'FNR <= 2 { next } FNR == NR { b[$1] = $2 * $4; next }
		{ d = $2 * $4 - b[$1]; if (d >= 65536) printf "#   %s +%d kB (%d objects of %d B)\n",
			$1, d / 1024, $2 - b[$1] / $4, $4 }' "$TMP/slabinfo.0" /proc/slabinfo
fi
traffic_stop
dmesg_check
ksft_exit
