#!/bin/bash
# Load the patched rdma_rxe, add and remove rxe links in the initial and in
# other network namespaces, check that each namespace's RoCEv2 socket exists
# exactly while it has an rxe device, and unload.
. "$(dirname "$0")/lib.sh"
require_root

# udp_port_open NS: is UDP port 4791 bound in NS ("" = initial namespace)?
udp_port_open() {
	local ex=()
	[ -n "$1" ] && ex=(ip netns exec "$1")
	"${ex[@]}" ss -Hulan "sport = :4791" | grep -q .
}

dmesg_mark
rxe_load
check "module loaded" rxe_loaded
check "no RoCEv2 socket before any device" eval '! udp_port_open ""'

for round in 1 2; do
	netns_add ml_a
	netns_add ml_b
	veth_link ml_a va 10.9.0.1/24 ml_b vb 10.9.0.2/24
	ip link add vinit type veth peer name vpeer
	ip link set vinit up
	ip link set vpeer up

	rdma link add rxe_init type rxe netdev vinit || fail "rdma link add in init_net"
	rxe_add ml_a rxe_a va
	rxe_add ml_b rxe_b vb
	check "round $round: three rxe links listed" \
		test "$(rdma link show | grep -c -E 'rxe_(init|a|b)/')" = 3
	check "round $round: rxe_a port ACTIVE" \
		eval 'rdma link show rxe_a/1 | grep -q "state ACTIVE"'
	check "round $round: socket in ml_a" udp_port_open ml_a
	check "round $round: socket in ml_b" udp_port_open ml_b
	check "round $round: socket in init_net" udp_port_open ""

	# A second device on the same netdev is refused.
	check "round $round: duplicate link refused" \
		eval '! ip netns exec ml_a rdma link add rxe_dup type rxe netdev va 2>/dev/null'

	rdma link delete rxe_a || fail "rdma link delete rxe_a"
	check "round $round: ml_a socket closed with its last device" \
		eval '! udp_port_open ml_a'
	check "round $round: ml_b socket kept" udp_port_open ml_b

	rdma link delete rxe_init || fail "rdma link delete rxe_init"
	check "round $round: init_net socket closed" eval '! udp_port_open ""'
	ip link del vinit

	# rxe_b goes with its namespace.
	ip netns del ml_b
	ip netns del ml_a
	_netns=()
	check "round $round: rxe_b removed with its namespace" \
		wait_until 60 eval '! rdma link show | grep -q rxe_b/'
done

check "rmmod" rmmod rdma_rxe
check "module unloaded" eval '! rxe_loaded'
dmesg_check
ksft_exit
