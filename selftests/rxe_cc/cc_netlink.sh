#!/bin/bash
# The congestion control control plane: algorithms listed, device defaults
# and per-QP settings over netlink (rxecc) and sysctl, the parameters the
# user set kept and marked, the DSCP map, a kernel warning shown, a per-QP
# switch of algorithm under traffic, every invalid input rejected without
# changing anything, and writes refused to non-admin users.
. "$(dirname "$0")/lib.sh"
require_root

# settings: what rxe_a and its QPs are set to (device settings, each QP's
# algorithm and parameters), not what they measure (state, counters)
settings() {
	rxecc dev show rxe_a
	rxecc -d qp show rxe_a | awk '/^[^ ]/ { print $1, $2, $3, $4, $5; p = 0; next }
		/^    parameters:$/ { p = 1; next } /^    [a-z]+:$/ { p = 0 } p'
}

# rejected WHAT CMD...: CMD must fail and leave the devices as they were
rejected() {
	local what=$1 before after out
	shift
	before=$(settings)
	if out=$("$@" 2>&1); then
		fail "$what: accepted"
		return
	fi
	after=$(settings)
	if [ "$before" != "$after" ]; then
		fail "$what: rejected, but the settings changed"
		return
	fi
	log "ok: $what rejected: $(echo "$out" | head -1)"
}

dmesg_mark
rxe_load

check "sysctl cc_available" \
	test "$(sysctl -n net.rdma_rxe.cc_available)" = "none fixed dcqcn hpcc acc pcn accurate"
check "sysctl cc_default is none" test "$(sysctl -n net.rdma_rxe.cc_default)" = none
check "sysctl rejects an unknown default" \
	eval '! sysctl -qw net.rdma_rxe.cc_default=bogus 2>/dev/null'
check "default unchanged" test "$(sysctl -n net.rdma_rxe.cc_default)" = none
check "sysctl accepts dcqcn" sysctl -qw net.rdma_rxe.cc_default=dcqcn

algos=$(rxecc algo | awk '/^[a-z0-9_]+$/ { print $1 }' | tr '\n' ' ')
check "rxecc algo lists none fixed dcqcn hpcc acc pcn accurate ($algos)" test "$algos" = "none fixed dcqcn hpcc acc pcn accurate "
check "rxecc algo dcqcn shows rp_ai_rate_kbps with its range" \
	eval 'rxecc algo dcqcn | grep -q "rp_ai_rate_kbps.*kbit/s"'

netns_add cn_a
netns_add cn_b
veth_link cn_a va 10.6.0.1/24 cn_b vb 10.6.0.2/24
rxe_add cn_a rxe_a va
rxe_add cn_b rxe_b vb
check "a new device takes the sysctl default" \
	eval 'rxecc dev show rxe_a | grep -q "algo dcqcn"'
sysctl -qw net.rdma_rxe.cc_default=none

check "dev set algo fixed rate" rxecc dev set rxe_a algo fixed rate_kbps 20000 line_rate 100M
check "dev show reflects it" \
	eval 'rxecc dev show rxe_a | grep -q "algo fixed line_rate 100Mbit"'
check "dev set dcqcn parameter" rxecc dev set rxe_a algo dcqcn rp_ai_rate_kbps 500
check "device keeps per-algorithm parameters" \
	eval 'rxecc dev show rxe_a algo fixed | grep -q "rate_kbps 20000"'
check "dev set the longest parameter name" \
	rxecc dev set rxe_a algo dcqcn rp_rate_to_set_on_first_cnp_kbps 5000
check "dev show reflects it" \
	eval 'rxecc dev show rxe_a algo dcqcn | grep -qw "rp_rate_to_set_on_first_cnp_kbps 5000"'

# Parameters nobody set follow the line rate, also when both come in one
# request; the ones the user set stay, marked with a '*' (the netdev says
# 10 Gbit/s).
check "dev set line rate and a parameter at once" \
	rxecc dev set rxe_b algo dcqcn line_rate 100M rp_ai_rate_kbps 50
# dcqcn_b NAME VALUE: rxe_b shows dcqcn's NAME as exactly VALUE ('50\*' for
# a value the user set)
dcqcn_b() { rxecc dev show rxe_b algo dcqcn | grep -qE "(^| )$1 $2( |\$)"; }
check "the parameter set is kept, marked as set" dcqcn_b rp_ai_rate_kbps '50\*'
check "the others scale to the new line rate (C/100)" dcqcn_b rp_min_rate_kbps 1000
check "the others scale to the new line rate (C/500)" dcqcn_b rp_hai_rate_kbps 200
check "the heading says what '*' means" \
	eval 'rxecc dev show rxe_b algo dcqcn | grep -q "dcqcn parameters (\* = set by the user):"'
check "JSON lists the parameter set" \
	eval 'rxecc -j dev show rxe_b algo dcqcn | grep -q "\"params_user\":\[\"rp_ai_rate_kbps\"\]"'
check "dev set another line rate" rxecc dev set rxe_b line_rate 1G
check "the user's value survives a new line rate" dcqcn_b rp_ai_rate_kbps '50\*'
check "the others follow the new line rate" dcqcn_b rp_min_rate_kbps 10000
# 1 Mbit/s makes DCQCN's periods shorter than one frame: legal, applied,
# and the kernel's warning reaches stderr
out=$(rxecc dev set rxe_b line_rate 1M 2>&1 >/dev/null)
rc=$?
log "dev set rxe_b line_rate 1M: status $rc, stderr: $out"
check "a doubtful setting is applied (status 0)" test "$rc" = 0
check "rxecc prints the kernel's warning" \
	eval 'echo "$out" | grep -q "^rxecc: warning: dev set rxe_b: dcqcn: "'
check "the line rate is 1 Mbit/s" eval 'rxecc dev show rxe_b | grep -q "line_rate 1Mbit"'
rxecc dev set rxe_b algo none line_rate 0

# The DSCP map: the module parameter's (the testbed's, lib.sh), changed
# over netlink, printed in DSCP order without the DSCPs on priority 0.
check "dev show has the map of dscp_prio ($RXECC_DSCP_PRIO)" \
	eval "rxecc dev show rxe_a | grep -qw 'dscp_prio $RXECC_DSCP_PRIO'"
check "dev set dscp_prio 26:5,10:1" rxecc dev set rxe_a dscp_prio 26:5,10:1
check "dev show reads it back" eval 'rxecc dev show rxe_a | grep -qw "dscp_prio 10:1,26:5"'
check "JSON maps DSCP to priority" \
	eval 'rxecc -j dev show rxe_a | grep -q "\"dscp_prio\":{\"10\":1,\"26\":5}"'
check "rxe_b keeps its map" eval "rxecc dev show rxe_b | grep -qw 'dscp_prio $RXECC_DSCP_PRIO'"
check "dev set dscp_prio none" rxecc dev set rxe_a dscp_prio none
check "every DSCP on priority 0" eval 'rxecc dev show rxe_a | grep -qw "dscp_prio none"'
rejected "a priority above 7" rxecc dev set rxe_a dscp_prio 26:8
rejected "a DSCP above 63" rxecc dev set rxe_a dscp_prio 64:1
rejected "a DSCP twice" rxecc dev set rxe_a dscp_prio 26:3,26:4
rejected "a map that is not DSCP:PRIO pairs" rxecc dev set rxe_a dscp_prio 26-3
check "dev set dscp_prio $RXECC_DSCP_PRIO" rxecc dev set rxe_a dscp_prio "$RXECC_DSCP_PRIO"

check "JSON output parses as an object" \
	eval 'rxecc -j dev show rxe_a | grep -q "^\[{\"dev\":\"rxe_a\""'

rejected "unknown algorithm" rxecc dev set rxe_a algo bogus
rejected "unknown parameter" rxecc dev set rxe_a algo dcqcn rp_bogus 1
rejected "parameter out of range" rxecc dev set rxe_a algo dcqcn rp_min_dec_fac 101
rejected "parameters in conflict" rxecc dev set rxe_a algo dcqcn rp_min_rate_kbps 2000000
rejected "line rate too high" rxecc dev set rxe_a line_rate 900G
rejected "CNP DSCP above 63" rxecc dev set rxe_a cnp_dscp 64
rejected "not a number" rxecc dev set rxe_a cnp_dscp x
rejected "unknown device" rxecc dev set rxe_nope algo none
rejected "unknown QP" rxecc qp set rxe_a 999999 algo none
rejected "a valid change next to a bad one" \
	rxecc dev set rxe_a ecn off algo dcqcn rp_gd 99

# non-admin: reads work, writes are refused
check "non-admin may read" setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$RXECC" dev show rxe_a
rejected "non-admin write" setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$RXECC" dev set rxe_a ecn off
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$RXECC" dev set rxe_a ecn off 2>&1)
check "non-admin error names CAP_NET_ADMIN" eval 'echo "$out" | grep -q CAP_NET_ADMIN'
# CAP_NET_ADMIN in a user namespace of one's own is not enough: the devices
# of every namespace are visible there (rdma's shared mode)
userns="setpriv --reuid=65534 --regid=65534 --clear-groups unshare -Urn"
check "an unprivileged user namespace may read" $userns "$RXECC" dev show rxe_a
rejected "a write from an unprivileged user namespace" $userns "$RXECC" dev set rxe_a ecn off
out=$($userns "$RXECC" dev set rxe_a ecn off 2>&1)
check "it is refused for want of a privilege ($out)" eval 'echo "$out" | grep -qi "CAP_NET_ADMIN\|not permitted"'

# per-QP switch of algorithm under traffic; the transfer must complete
rxecc dev set rxe_a algo none
wait_gid rxe_a 10.6.0.1 && wait_gid rxe_b 10.6.0.2 || ksft_exit
traffic_start cn_b rxe_b 10.6.0.2 cn_a rxe_a 10.6.0.1 19100
qpn=$QPN
rejected "a QP write from an unprivileged user namespace" \
	$userns "$RXECC" qp set rxe_a "$qpn" algo fixed rate_kbps 1
# a slow start, so that the switches happen while data flows
rxecc qp set rxe_a "$qpn" algo fixed rate_kbps 20000
for a in "fixed rate_kbps 30000" dcqcn "fixed rate_kbps 60000 window_bytes 65536" none dcqcn; do
	# shellcheck disable=SC2086
	check "QP $qpn switched to $a under traffic" rxecc qp set rxe_a "$qpn" algo $a
	check "QP $qpn reports ${a%% *}" \
		eval "rxecc qp show rxe_a $qpn | grep -q 'algo ${a%% *}'"
	sleep 0.3
done
rejected "QP parameter out of range" rxecc qp set rxe_a "$qpn" algo fixed rate_kbps 0
# A QP held back to 1 kbit/s (a frame every 8.8 s) and raised again sends
# at once: the pending gap is re-timed at the new rate.
check "QP $qpn slowed to 1 kbit/s" rxecc qp set rxe_a "$qpn" algo fixed rate_kbps 1
sleep 0.5
check "QP $qpn raised to 50 Mbit/s" rxecc qp set rxe_a "$qpn" algo fixed rate_kbps 50000
rx0=$(ip netns exec cn_b cat /sys/class/net/vb/statistics/rx_bytes)
sleep 1
rx1=$(ip netns exec cn_b cat /sys/class/net/vb/statistics/rx_bytes)
check "data flows within a second of the raise ($((rx1 - rx0)) bytes)" \
	test $((rx1 - rx0)) -gt 100000
check "QP $qpn back to dcqcn" rxecc qp set rxe_a "$qpn" algo dcqcn
check "restrack shows the QP's algorithm" \
	eval "rdma resource show qp link rxe_a/1 lqpn $qpn -dd | grep -q 'cc_algo dcqcn'"
# Every driver entry, not only the first: on kernels where netlink pads
# 64-bit attributes (no efficient unaligned access, e.g. User-Mode Linux),
# a PAD attribute among them ends iproute2's printing of the table.
drv_keys=$(rdma resource show qp link rxe_a/1 lqpn "$qpn" -dd |
	tr -s ' \t' '\n' | sed -n 's/^drv_//p' | tr '\n' ' ')
log "restrack driver entries: $drv_keys"
check "restrack shows the framework's entries, then dcqcn's state, then the counters" \
	eval '[[ "$drv_keys" == "cc_algo cc_rate_bps cc_window_bytes cc_inflight_bytes cc_acked_bytes "*" rate_kbps "*" cc_cnp_rx cc_cnp_tx cc_ce_rx cc_retx_pkts " ]]'
# rxecc stats (STATS_GET) lists every counter of the framework that the
# device's hw counters have (cc_*, pfc_*), in the order of rdma statistic
hw_cc=$(ls /sys/class/infiniband/rxe_a/ports/1/hw_counters | grep -E '^(cc|pfc)_' | sort | tr '\n' ' ')
nl_cc=$(rxecc stats rxe_a | awk 'NR > 1 { print $1 }' | sort | tr '\n' ' ')
log "hw counters: $hw_cc"
check "rxecc stats has every cc_ and pfc_ hw counter, and no other" test "$nl_cc" = "$hw_cc"
# the QP survived every switch and still moves data
check "QP $qpn still in RTS after the switches" \
	eval "rdma resource show qp link rxe_a/1 lqpn $qpn | grep -q 'state RTS'"
rx0=$(ip netns exec cn_b cat /sys/class/net/vb/statistics/rx_bytes)
sleep 1
rx1=$(ip netns exec cn_b cat /sys/class/net/vb/statistics/rx_bytes)
check "data still flows after the switches ($((rx1 - rx0)) bytes/s)" \
	test $((rx1 - rx0)) -gt 100000
check "ib_write_bw client still running" kill -0 "$CLI_PID"
traffic_stop
check "no QP went to the error state" \
	test "$(hw_counter rxe_a send_err)" = 0

cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
