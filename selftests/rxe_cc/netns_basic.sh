#!/bin/bash
# Two hosts (network namespaces) joined by a veth pair, an rxe device on each
# end: RDMA write bandwidth, send latency, RC ping-pong and an rdma_cm
# connection must work across the link, the bandwidth runs moving all their
# data. What moved is counted on the receiving veth: perftest's own
# bandwidth figure depends on its cycle-counter calibration, which under
# emulation now and then fails and reports 0 although every message arrived
# (it is logged, not checked).
. "$(dirname "$0")/lib.sh"
require_root

dmesg_mark
rxe_load
netns_add nb_a
netns_add nb_b
veth_link nb_a va 10.1.0.1/24 nb_b vb 10.1.0.2/24
rxe_add nb_a rxe_a va
rxe_add nb_b rxe_b vb
wait_gid rxe_a 10.1.0.1 || ksft_exit
wait_gid rxe_b 10.1.0.2 || ksft_exit

# vb_rx: bytes received on vb so far
vb_rx() { ip netns exec nb_b cat /sys/class/net/vb/statistics/rx_bytes; }

# RDMA WRITE bandwidth over 1000 messages (64 MiB). Not perftest's -D: on a
# slow emulated host its duration mode has reported 0 MB/s though data moved.
rx0=$(vb_rx)
if perf_pair write_bw 120 nb_b rxe_b 10.1.0.2 nb_a rxe_a 10.1.0.1 18515 -- \
	ib_write_bw -F -s 65536 -n 1000; then
	bw=$(gbps "$TMP/write_bw.client") || fail "no bandwidth in the ib_write_bw report"
	rx=$(($(vb_rx) - rx0))
	log "ib_write_bw: $bw Gbit/s by perftest's clock (single QP, 64 KiB messages); $rx bytes received"
	check "ib_write_bw moved its 1000 x 64 KiB across the link" test "$rx" -ge $((1000 * 65536))
	[ -n "${RXECC_OUT:-}" ] && cp "$TMP/write_bw.client" "$RXECC_OUT/netns_basic.ib_write_bw.txt"
fi

# SEND latency
if perf_pair send_lat 120 nb_b rxe_b 10.1.0.2 nb_a rxe_a 10.1.0.1 18516 -- \
	ib_send_lat -F -s 64 -n 200; then
	lat=$("$PERFSTAT" parse "$TMP/send_lat.client" | tr ' ' '\n' | sed -n 's/^t_avg_usec=//p' | tail -1)
	# perf_pair passed: the 200 SENDs completed. perftest's latency comes
	# from a clock calibration that fails at times on User-Mode Linux
	# (t_min "inf"): logged, not checked
	log "ib_send_lat: average ${lat:-? (perftest could not calibrate its clock)} usec (64 B)"
fi

# RC ping-pong from rdma-core
if perf_pair rc_pingpong 120 nb_b rxe_b 10.1.0.2 nb_a rxe_a 10.1.0.1 18517 -- \
	ibv_rc_pingpong -n 200 -s 4096; then
	check "ibv_rc_pingpong completed 200 iterations" \
		grep -q '200 iters' "$TMP/rc_pingpong.client"
fi

# rdma_cm: address and route resolution inside the namespaces
rx0=$(vb_rx)
if perf_pair cm_write_bw 120 nb_b rxe_b 10.1.0.2 nb_a rxe_a 10.1.0.1 18518 -- \
	ib_write_bw -R -F -s 65536 -n 500; then
	bw=$(gbps "$TMP/cm_write_bw.client") || fail "no bandwidth in the rdma_cm report"
	rx=$(($(vb_rx) - rx0))
	log "ib_write_bw -R (rdma_cm): $bw Gbit/s by perftest's clock; $rx bytes received"
	check "rdma_cm ib_write_bw moved its 500 x 64 KiB across the link" test "$rx" -ge $((500 * 65536))
fi

# the traffic really crossed the veth pair
rx=$(vb_rx)
check "traffic crossed the veth (rx_bytes=$rx)" test "$rx" -gt 10000000

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
