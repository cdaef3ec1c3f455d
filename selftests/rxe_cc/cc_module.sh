#!/bin/bash
# An algorithm in a module of its own (selftests/rxe_cc/modules, "aimd"):
# it registers, QPs and devices that use it hold its module (rmmod is
# refused), and it goes once nothing uses it. Its on_ack sees exactly the
# bytes the receiver got: a transfer of known size between two namespaces
# whose QPs stay after it, compared with the receiving veth's byte count.
. "$(dirname "$0")/lib.sh"
require_root

need_aimd_ko
need_qptest

aimd_loaded() { grep -q '^rxe_cc_aimd ' /proc/modules; }
available() { sysctl -n net.rdma_rxe.cc_available; }

rxe_load
check "aimd is not available before its module" eval '! available | grep -qw aimd'
check "the module loads" insmod "$RXECC_AIMD_KO"
check "cc_available lists aimd ($(available))" eval 'available | grep -qw aimd'
check "rxecc algo aimd describes its parameters" \
	eval 'rxecc algo aimd | grep -q "step_kbps.*kbit/s"'

netns_add cm_a
netns_add cm_b
veth_link cm_a va 10.9.3.1/24 cm_b vb 10.9.3.2/24
# nothing but RoCE on the receiving link: no IPv6, no ARP
for p in "cm_a va" "cm_b vb"; do
	read -r ns dev <<<"$p"
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$dev.disable_ipv6=1"
done
ip -n cm_a neigh replace 10.9.3.2 lladdr "$(ip -n cm_b -br link show vb | awk '{ print $3 }')" \
	dev va nud permanent
ip -n cm_b neigh replace 10.9.3.1 lladdr "$(ip -n cm_a -br link show va | awk '{ print $3 }')" \
	dev vb nud permanent
rxe_add cm_a rxe_a va
rxe_add cm_b rxe_b vb
wait_gid rxe_a 10.9.3.1 && wait_gid rxe_b 10.9.3.2 || ksft_exit
rxecc dev set rxe_a algo aimd line_rate 1G >/dev/null || fail "dev set rxe_a algo aimd"
rxecc dev set rxe_b algo aimd line_rate 1G >/dev/null || fail "dev set rxe_b algo aimd"

# ---- 1. exact acknowledged bytes ------------------------------------------------
count=200 size=65536
rx0=$(ip netns exec cm_b cat /sys/class/net/vb/statistics/rx_bytes)
"$QPTEST" --count $count --size $size rxe_a "$(gid_index rxe_a 10.9.3.1)" \
	rxe_b "$(gid_index rxe_b 10.9.3.2)" >"$TMP/qptest1.out" 2>&1 &
qp_pid=$!
wait_until 60 eval 'grep -qs "^completed" "$TMP/qptest1.out"' ||
	fail "rxecc-qptest: the $count WRITEs did not complete ($(tail -1 "$TMP/qptest1.out"))"
rx1=$(ip netns exec cm_b cat /sys/class/net/vb/statistics/rx_bytes)
read -r _ qpn _ < <(grep '^qpn ' "$TMP/qptest1.out")
check "the sending QP $qpn runs aimd" test "$(qp_field rxe_a "$qpn" cc_algo)" = aimd
check "rmmod is refused while a QP runs aimd" eval '! rmmod rxe_cc_aimd 2>/dev/null'
retx=$(qp_field rxe_a "$qpn" cc_retx_pkts)
acked=$(qp_field rxe_a "$qpn" cc_acked_bytes)
on_ack=$(qp_field rxe_a "$qpn" acked_bytes)
inflight=$(qp_field rxe_a "$qpn" cc_inflight_bytes)
rtt=$(qp_field rxe_a "$qpn" rtt_ns)
log "$count WRITEs of $size bytes: receiver got $((rx1 - rx0)) bytes, acknowledged $acked," \
	"on_ack summed $on_ack, $retx retransmitted, RTT $rtt ns"
check "no packet was retransmitted" test "$retx" = 0
check "nothing is left in flight" test "$inflight" = 0
check "acknowledged bytes = the receiver's bytes ($acked = $((rx1 - rx0)))" \
	test "$acked" = $((rx1 - rx0))
check "on_ack was given every acknowledged byte ($on_ack)" test "$on_ack" = "$acked"
check "on_ack got RTT samples ($rtt ns)" test "${rtt:-0}" -gt 0
kill "$qp_pid"
wait "$qp_pid"
check "a device that defaults to aimd holds it" eval '! rmmod rxe_cc_aimd 2>/dev/null'
rxecc dev set rxe_a algo none >/dev/null
rxecc dev set rxe_b algo none >/dev/null

# ---- 2. selected and left under traffic ----------------------------------------
"$QPTEST" rxe_a "$(gid_index rxe_a 10.9.3.1)" rxe_b "$(gid_index rxe_b 10.9.3.2)" \
	>"$TMP/qptest2.out" 2>&1 &
qp_pid=$!
if wait_until 60 eval 'grep -qs "^flowing" "$TMP/qptest2.out"'; then
	read -r _ qpn _ < <(grep '^qpn ' "$TMP/qptest2.out")
	check "QP $qpn switched to aimd under traffic" rxecc qp set rxe_a "$qpn" algo aimd
	check "QP $qpn runs aimd" test "$(qp_field rxe_a "$qpn" cc_algo)" = aimd
	check "rmmod is refused while it does" eval '! rmmod rxe_cc_aimd 2>/dev/null'
	check "QP $qpn switched back to none" rxecc qp set rxe_a "$qpn" algo none
	check "rmmod succeeds once nothing uses aimd" rmmod rxe_cc_aimd
	check "aimd is no longer available" eval '! available | grep -qw aimd'
	a=$(ip netns exec cm_b cat /sys/class/net/vb/statistics/rx_bytes)
	sleep 1
	b=$(ip netns exec cm_b cat /sys/class/net/vb/statistics/rx_bytes)
	check "the QP still moves data ($((b - a)) bytes/s)" test $((b - a)) -gt 100000
else
	fail "rxecc-qptest: no RDMA WRITE completed"
fi
kill "$qp_pid" 2>/dev/null
wait "$qp_pid"
check "rxecc-qptest ended cleanly" grep -q '^done writes' "$TMP/qptest2.out"
aimd_loaded && rmmod rxe_cc_aimd

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
