#!/bin/bash
# Tear hosts down under active QPs whose congestion control has timers
# armed: delete a netdev under a QP the pacer holds (fixed, 20 Mbit/s),
# delete a namespace under DCQCN QPs taking CNPs (every packet arriving
# marked CE), and delete an rxe device (rdma link delete) under a paced QP,
# while ib_write_bw runs across them. Nothing may crash or warn, the
# client's QP must fail (its peer is gone), the rxe devices must go away
# once the processes that hold them have exited, and the module must
# unload.
#
# rxe, like upstream, cannot take a device away from a process that has it
# open (it has no disassociate_ucontext): unregistering the netdev waits
# until the last such process has closed it. The client exits by itself when
# its QP fails; the server only hears of the end over its TCP connection,
# which went with the link, so the test ends it as an operator would.
. "$(dirname "$0")/lib.sh"
require_root

# start_traffic TAG NS_S DEV_S IP_S NS_C DEV_C IP_C PORT: a long ib_write_bw
# in the background (SERVER_PID, CLIENT_PID); returns once data flows.
# "Flows" is read from the kernel, not from perftest's output (which it
# writes to a file only when it exits): the client's device has an RC QP
# and has sent 200 packets more than before it started. Start-up takes
# seconds under emulation on a busy host, so this waits up to 90 s, and
# gives up early if the client exits.
start_traffic() {
	local tag=$1 sns=$2 sdev=$3 sip=$4 cns=$5 cdev=$6 cip=$7 port=$8 t0 p0 p
	bg ip netns exec "$sns" ib_write_bw -d "$sdev" -x "$(gid_index "$sdev" "$sip")" \
		-p "$port" -F -D 300 >"$TMP/$tag.server" 2>&1
	SERVER_PID=$BG_PID
	wait_listen "$sns" "$port" || { fail "$tag: server did not start"; return 1; }
	p0=$(hw_counter "$cdev" sent_pkts)
	bg ip netns exec "$cns" ib_write_bw -d "$cdev" -x "$(gid_index "$cdev" "$cip")" \
		-p "$port" -F -D 300 "$sip" >"$TMP/$tag.client" 2>&1
	CLIENT_PID=$BG_PID
	t0=$SECONDS
	# (ends early if the client exits; the data check is then made again)
	if wait_until 90 eval 'p=$(hw_counter "$cdev" sent_pkts)
			[ -n "$(qpns "$cdev")" ] && [ $((p - p0)) -ge 200 ] ||
			! kill -0 "$CLIENT_PID" 2>/dev/null' &&
		[ -n "$(qpns "$cdev")" ] && [ $((p - p0)) -ge 200 ]; then
		log "$tag: traffic flows after $((SECONDS - t0)) s ($((p - p0)) packets sent)"
		return 0
	fi
	fail "$tag: no traffic after $((SECONDS - t0)) s ($((p - p0)) packets sent, client $(kill -0 "$CLIENT_PID" 2>/dev/null && echo running || echo exited))"
	sed 's/^/#   /' "$TMP/$tag.client" "$TMP/$tag.server" | tail -20
	return 1
}

# wait_gone DEV SECONDS: until the rxe device has been unregistered.
wait_gone() {
	local dev=$1
	wait_until "$2" eval '! rdma link show | grep -q "^link $dev/"'
}

# wait_pid PID SECONDS: until the process has exited.
wait_pid() {
	local pid=$1
	wait_until "$2" eval '! kill -0 "$pid" 2>/dev/null'
}

# client_fails WHAT SECONDS: the client exits within SECONDS, and with an
# error status: its QP has failed.
client_fails() {
	local rc
	if ! wait_pid "$CLIENT_PID" "$2"; then
		fail "$1: the ib_write_bw client still runs after $2 s"
		return
	fi
	wait "$CLIENT_PID"
	rc=$?
	check "$1: the ib_write_bw client exits with an error (status $rc)" [ "$rc" != 0 ]
}

# stop_traffic: end the remaining perftest processes.
stop_traffic() {
	local pid
	for pid in "${_bg_pids[@]}"; do kill "$pid" 2>/dev/null; done
	for pid in "${_bg_pids[@]}"; do wait "$pid" 2>/dev/null; done
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
rxecc dev set rxe_a algo fixed rate_kbps 20000 line_rate 1G >/dev/null ||
	die "rxecc dev set rxe_a algo fixed"
if start_traffic del_link td_b rxe_b 10.3.0.2 td_a rxe_a 10.3.0.1 18700; then
	check "the pacer holds the client's QP (fixed, 20 Mbit/s)" \
		wait_until 10 eval '[ "$(hw_counter rxe_a cc_pacer_waits)" -gt 0 ]'
	# the deletion returns once both rxe devices have let go of va and vb
	ip -n td_b link del vb &
	del_pid=$!
	log "deleting vb (and its peer va) under traffic"
	client_fails "link loss" 30
	stop_traffic
	if wait_pid "$del_pid" 60; then
		wait "$del_pid"
		check "ip link del vb completes once the server has exited" [ $? = 0 ]
	else
		fail "ip link del vb still waits 60 s after the server exited"
	fi
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
mapfile -t cnp_args < <(cnp_class_args dcqcn)
for d in rxe_c rxe_d; do
	rxecc dev set "$d" algo dcqcn line_rate 1G "${cnp_args[@]}" >/dev/null ||
		die "rxecc dev set $d algo dcqcn"
done
# RoCEv2 (UDP 4791) arriving at vd leaves tc marked CE, its IP checksum fixed
ip netns exec td_c tc qdisc add dev vd ingress &&
	ip netns exec td_c tc filter add dev vd ingress protocol ip u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff \
		action pedit ex munge ip dsfield set 3 retain 3 pipe action csum ip ||
	die "tc pedit on vd"
if start_traffic del_ns td_c rxe_d 10.3.1.2 td_a rxe_c 10.3.1.1 18701; then
	check "the DCQCN client takes CNPs" \
		wait_until 10 eval '[ "$(hw_counter rxe_c cc_cnp_rcvd)" -gt 0 ]'
	ip netns del td_c || fail "ip netns del td_c"
	_netns=(td_a td_b)
	log "deleted namespace td_c under traffic"
	# the server's process keeps td_c alive: once it is ended, the namespace
	# goes, and with it both ends of the link
	kill "$SERVER_PID"
	client_fails "peer namespace gone" 60
	stop_traffic
	check "rxe_d unregistered with its namespace" wait_gone rxe_d 120
	check "rxe_c unregistered with its peer link" wait_gone rxe_c 60
fi

# 3. the rxe device itself is deleted under a QP the pacer holds; the
# deletion waits for the processes that have it open, which the test ends
veth_link td_a vx 10.3.2.1/24 td_b vy 10.3.2.2/24
rxe_add td_a rxe_e vx
rxe_add td_b rxe_f vy
wait_gid rxe_e 10.3.2.1 && wait_gid rxe_f 10.3.2.2 || ksft_exit
rxecc dev set rxe_e algo fixed rate_kbps 20000 line_rate 1G >/dev/null ||
	die "rxecc dev set rxe_e algo fixed"
if start_traffic del_rxe td_b rxe_f 10.3.2.2 td_a rxe_e 10.3.2.1 18702; then
	w0=$(hw_counter rxe_e cc_pacer_waits)
	check "the pacer holds the client's QP" \
		wait_until 10 eval '[ "$(hw_counter rxe_e cc_pacer_waits)" -gt "$w0" ]'
	rdma link delete rxe_e &
	del_pid=$!
	log "rdma link delete rxe_e under traffic"
	nap 1
	stop_traffic
	if wait_pid "$del_pid" 60; then
		wait "$del_pid"
		check "rdma link delete rxe_e completes once its users have exited" [ $? = 0 ]
	else
		fail "rdma link delete rxe_e still waits 60 s after the traffic ended"
	fi
	check "rxe_e unregistered" wait_gone rxe_e 60
fi
stop_traffic

cleanup
check "rmmod after teardown" rxe_unload
check "module unloaded" eval '! rxe_loaded'
dmesg_check
ksft_exit
