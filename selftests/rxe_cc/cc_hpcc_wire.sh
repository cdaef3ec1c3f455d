#!/bin/bash
# HPCC's INT on the wire between two hosts joined by a veth pair (no switch,
# so no hop stamps the shim): an HPCC sender whose peer runs HPCC learns
# from the CAP bit of the peer's ACKs that it takes INT, sends its requests
# to the INT port (4792) with the 42-byte shim, the peer echoes the shim
# into its ACKs, and the sender's algorithm gets every echoed stack
# (cc_int_rx) with no hop in it: it stays at its full window and line rate
# and says so (int_active 0). The same sender with a peer that runs none
# sends plain RoCEv2 to 4791 only, as upstream rxe does, and its WRITEs
# complete. tc counts the packets by UDP port on the receiving veth.
. "$(dirname "$0")/lib.sh"
require_root

need_qptest
dmesg_mark
rxe_load
netns_add hw_a
netns_add hw_b
veth_link hw_a va 10.9.7.1/24 hw_b vb 10.9.7.2/24
rxe_add hw_a rxe_a va
rxe_add hw_b rxe_b vb
wait_gid rxe_a 10.9.7.1 && wait_gid rxe_b 10.9.7.2 || ksft_exit
# count what reaches vb by UDP destination port (tc actions' counters)
ip netns exec hw_b tc qdisc add dev vb ingress || die "ingress qdisc on vb"
for port in 4791 4792; do
	ip netns exec hw_b tc filter add dev vb ingress protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport $port 0xffff action ok ||
		die "tc filter for port $port"
done
# port_pkts PORT: packets to UDP PORT that reached vb
port_pkts() {
	ip netns exec hw_b tc -s filter show dev vb ingress |
		awk -v m="$(printf '%08x/0000ffff' "$1")" '
			$1 == "match" && $2 == m { f = 1 }
			f && $1 == "Sent" { print $4; exit }'
}
counters() {
	local d
	for d in "$@"; do
		printf '%s: int_req_tx %s int_ack_tx %s int_rx %s int_bad %s; ' "$d" \
			"$(hw_counter "$d" cc_int_req_tx)" "$(hw_counter "$d" cc_int_ack_tx)" \
			"$(hw_counter "$d" cc_int_rx)" "$(hw_counter "$d" cc_int_bad)"
	done
	echo
}

# writes TAG: 200 WRITEs from rxe_a to rxe_b within 120 s (qptest_writes)
writes() {
	qptest_writes "$1" 200 120 rxe_a 10.9.7.1 rxe_b 10.9.7.2
}

# ---- HPCC to HPCC ------------------------------------------------------------
rxecc dev set rxe_a algo hpcc line_rate 100M >/dev/null || die "hpcc on rxe_a"
rxecc dev set rxe_b algo hpcc line_rate 100M >/dev/null || die "hpcc on rxe_b"
p0=$(port_pkts 4791)
writes hpcc
log "$(counters rxe_a rxe_b)"
log "packets at vb: $(($(port_pkts 4791) - p0)) to 4791, $(port_pkts 4792) to 4792"
check "hpcc: rxe_a sent requests with the INT shim" nonzero "$(hw_counter rxe_a cc_int_req_tx)"
check "hpcc: they reached vb on the INT port 4792" nonzero "$(port_pkts 4792)"
check "hpcc: rxe_b echoed the shim into its ACKs" nonzero "$(hw_counter rxe_b cc_int_ack_tx)"
check "hpcc: rxe_a's algorithm took the echoed stacks" nonzero "$(hw_counter rxe_a cc_int_rx)"
check "hpcc: no INT stack was bad" test "$(hw_counter rxe_a cc_int_bad)$(hw_counter rxe_b cc_int_bad)" = 00
check "hpcc: the QP sends with INT (cc_int_tx 1)" test "$(qp_field rxe_a "$SQPN" cc_int_tx)" = 1
check "hpcc: no hop stamped the shim: int_active 0" test "$(qp_field rxe_a "$SQPN" int_active)" = 0
w=$(qp_field rxe_a "$SQPN" cc_window_bytes)
check "hpcc: the window stays W_init ($w bytes)" test "$w" = "$(qp_field rxe_a "$SQPN" window_bytes)"
check "hpcc: the rate stays the line rate" test "$(qp_rate_kbps rxe_a "$SQPN")" -ge 99000
qptest_writes_stop

# ---- HPCC to none: plain RoCEv2 ----------------------------------------------
rxecc dev set rxe_b algo none >/dev/null || die "none on rxe_b"
req0=$(hw_counter rxe_a cc_int_req_tx)
i0=$(port_pkts 4792)
p0=$(port_pkts 4791)
writes none
log "$(counters rxe_a rxe_b)"
check "to none: the QP does not send with INT (cc_int_tx 0)" test "$(qp_field rxe_a "$SQPN" cc_int_tx)" = 0
check "to none: no request with a shim" test "$(hw_counter rxe_a cc_int_req_tx)" = "$req0"
check "to none: nothing reached vb on 4792" test "$(port_pkts 4792)" = "$i0"
check "to none: the WRITEs went to 4791 ($(($(port_pkts 4791) - p0)) packets)" \
	test $(($(port_pkts 4791) - p0)) -ge 200
check "to none: no INT stack was bad" test "$(hw_counter rxe_a cc_int_bad)$(hw_counter rxe_b cc_int_bad)" = 00
qptest_writes_stop

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
