#!/bin/bash
# Tear hosts down under active QPs: delete a netdev, and delete a namespace,
# while ib_write_bw runs across it. Nothing may crash or warn, the rxe devices
# must go away, and the module must unload afterwards.
. "$(dirname "$0")/lib.sh"
require_root

# start_traffic TAG NS_S DEV_S IP_S NS_C DEV_C IP_C PORT: a long ib_write_bw
# in the background; returns once the client has connected.
start_traffic() {
	local tag=$1 sns=$2 sdev=$3 sip=$4 cns=$5 cdev=$6 cip=$7 port=$8
	bg ip netns exec "$sns" ib_write_bw -d "$sdev" -x "$(gid_index "$sdev" "$sip")" \
		-p "$port" -F -D 60 >"$TMP/$tag.server" 2>&1
	wait_listen "$sns" "$port" || { fail "$tag: server did not start"; return 1; }
	bg ip netns exec "$cns" ib_write_bw -d "$cdev" -x "$(gid_index "$cdev" "$cip")" \
		-p "$port" -F -D 60 "$sip" >"$TMP/$tag.client" 2>&1
	CLIENT_PID=$BG_PID
	# wait until data flows: the client prints its table header
	for t in $(seq 1 100); do
		grep -q '#bytes' "$TMP/$tag.client" && return 0
		sleep 0.1
	done
	fail "$tag: no traffic started"
	sed 's/^/#   /' "$TMP/$tag.client" "$TMP/$tag.server" | tail -20
	return 1
}

# wait_gone DEV SECONDS: until the rxe device has been unregistered.
wait_gone() {
	local t
	for t in $(seq 1 $(($2 * 10))); do
		rdma link show | grep -q "^link $1/" || return 0
		sleep 0.1
	done
	return 1
}

# wait_pid PID SECONDS: until the process has exited.
wait_pid() {
	local t
	for t in $(seq 1 $(($2 * 10))); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# stop_traffic: end the remaining perftest processes (the server has no
# deadline of its own once its control connection is gone).
stop_traffic() {
	local pid
	for pid in "${_bg_pids[@]}"; do kill "$pid" 2>/dev/null; done
	wait 2>/dev/null
	_bg_pids=()
}

dmesg_mark
rxe_load

# 1. the netdev under an active QP disappears
netns_add td_a
netns_add td_b
veth_link td_a va 10.3.0.1/24 td_b vb 10.3.0.2/24
rxe_add td_a rxe_a va
rxe_add td_b rxe_b vb
wait_gid rxe_a 10.3.0.1 && wait_gid rxe_b 10.3.0.2 || ksft_exit
if start_traffic del_link td_b rxe_b 10.3.0.2 td_a rxe_a 10.3.0.1 18700; then
	ip -n td_b link del vb || fail "ip link del vb"
	log "deleted vb (and its peer va) under traffic"
	# the client's QP sees errors once its retries run out, and it exits
	check "ib_write_bw client exited after link loss" wait_pid "$CLIENT_PID" 120
	stop_traffic
	check "rxe_a unregistered" wait_gone rxe_a 60
	check "rxe_b unregistered" wait_gone rxe_b 60
fi
stop_traffic

# 2. a whole namespace is deleted while a QP in it is active
netns_add td_c
veth_link td_a vc 10.3.1.1/24 td_c vd 10.3.1.2/24
rxe_add td_a rxe_c vc
rxe_add td_c rxe_d vd
wait_gid rxe_c 10.3.1.1 && wait_gid rxe_d 10.3.1.2 || ksft_exit
if start_traffic del_ns td_c rxe_d 10.3.1.2 td_a rxe_c 10.3.1.1 18701; then
	ip netns del td_c || fail "ip netns del td_c"
	_netns=(td_a td_b)
	log "deleted namespace td_c under traffic"
	# the server in td_c keeps the namespace alive until it exits
	sleep 2
	stop_traffic
	check "rxe_d unregistered with its namespace" wait_gone rxe_d 120
	check "rxe_c unregistered with its peer link" wait_gone rxe_c 60
fi

cleanup
check "rmmod after teardown" rxe_unload
check "module unloaded" eval '! rxe_loaded'
dmesg_check
ksft_exit
