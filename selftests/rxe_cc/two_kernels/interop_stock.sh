#!/bin/bash
# Interoperation with an unmodified rxe in another kernel. Two User-Mode
# Linux kernels share one Ethernet segment (scripts/interop-stock starts
# them); this script runs in both, the role naming its side:
#
#   cc     loads the patched rdma_rxe and runs each step's algorithm on its
#          device (none, dcqcn, hpcc, acc, pcn, accurate), 10.78.0.1
#   stock  loads the test kernel's own, unpatched rdma_rxe, 10.78.0.2
#
# Both walk the same list of steps: unmodified perftest moves a
# fixed number of messages from one side to the other, with the patched
# side as requester (a2b) or as responder (b2a). Each side checks what it
# sees itself:
#   - every transfer completes, and the receiving side's eth0 took in at
#     least the bytes it moved (counted by tc, from the other kernel);
#   - the patched side sends plain RoCEv2 to 4791 only: nothing reaches the
#     stock kernel on the INT port (tc, and the stock kernel's UDP NoPorts
#     count, which would grow with every packet to a port without a socket);
#   - an HPCC QP whose peer never answers with CAP does not send with INT
#     (cc_int_tx 0), says that it has no INT feedback (int_active 0), and
#     echoes no shim; an ACC QP takes no mark echo and knows its peer does
#     not echo (peer_cap 0); a PCN sender gets no report and keeps its
#     line rate; a PCN receiver of the stock side's data (which carries no
#     CAP) withholds its rate reports: no 0xC2 ever leaves the patched
#     side; an ACCurate QP whose peer never shows CAP withholds its
#     flow rate packets (cc_frp_withheld grows, cc_frp_sent does not) and
#     keeps its line rate: no FRP (opcodes 0xC0, 0xC1) reaches the stock
#     side;
#   - the only mark an HPCC, ACC, PCN or ACCurate QP leaves on upstream's packets is CAP,
#     a bit of BTH byte 4 (resv6a) that the ICRC masks and receivers
#     ignore: every packet of such a step carries it, no packet of another
#     step does (an ACC receiver has no marks to echo here: nothing on the
#     segment marks ECN).
#
#   interop_stock.sh cc|stock
. "$(dirname "$0")/../lib.sh"
require_root

role=${1:-}
case "$role" in
cc) me=1 peer=2 ;;
stock) me=2 peer=1 ;;
*) die "usage: interop_stock.sh cc|stock" ;;
esac
MY_IP=10.78.0.$me PEER_IP=10.78.0.$peer
# each transfer: N messages of 64 KiB; N_STATE in the steps whose QP
# state the patched side reads while its QP sends (a2b of HPCC, ACC, PCN
# and ACCurate), so that the QP outlives the reads
N=100 N_STATE=200 SIZE=65536

# STEP: ALGO VERB DIRECTION; the patched side is a, the stock side b
STEPS=(
	"none write a2b"
	"none write b2a"
	"dcqcn write a2b"
	"dcqcn write b2a"
	"hpcc write a2b"
	"hpcc read a2b"
	"hpcc write b2a"
	"acc write a2b"
	"acc write b2a"
	"pcn write a2b"
	"pcn write b2a"
	"accurate write a2b"
	"accurate write b2a"
)

dmesg_mark
if [ "$role" = cc ]; then rxe_load; else rxe_load_stock; fi
ip link set eth0 up || die "eth0 up"
ip addr add "$MY_IP/24" dev eth0 || die "address on eth0"
rdma link add rxe0 type rxe netdev eth0 || die "rdma link add rxe0 on eth0"
wait_gid rxe0 "$MY_IP" || ksft_exit
GIDX=$(gid_index rxe0 "$MY_IP")
wait_until 60 ping -c 1 -W 1 "$PEER_IP" >/dev/null || die "the other kernel does not answer at $PEER_IP"

# What reaches eth0 from the other kernel, counted by tc (the segment brings
# each kernel its own frames back too: they are left out by source
# address): prio 1 RoCEv2 (4791), prio 2 RoCEv2 with
# CAP (BTH byte 4 is 32 bytes into an IPv4 packet without options), prio 3
# the INT port, prio 4 RoCEv2 to QP 1 (MADs, should any come: not a QP of the
# algorithm), prio 5 ACCurate's FRPs (BTH opcode 0xC0 or 0xC1, the first
# byte of the BTH, 28 bytes into the IPv4 packet).
tc qdisc add dev eth0 ingress || die "ingress qdisc on eth0"
tc filter add dev eth0 ingress protocol ip prio 1 u32 \
	match ip src "$PEER_IP/32" match ip protocol 17 0xff match ip dport 4791 0xffff action continue || die "tc 4791"
tc filter add dev eth0 ingress protocol ip prio 2 u32 \
	match ip src "$PEER_IP/32" match ip protocol 17 0xff match ip dport 4791 0xffff match u8 0x20 0x20 at 32 \
	action continue || die "tc CAP"
tc filter add dev eth0 ingress protocol ip prio 3 u32 \
	match ip src "$PEER_IP/32" match ip protocol 17 0xff match ip dport 4792 0xffff action continue || die "tc 4792"
tc filter add dev eth0 ingress protocol ip prio 4 u32 \
	match ip src "$PEER_IP/32" match ip protocol 17 0xff match ip dport 4791 0xffff match u32 0x00000001 0x00ffffff at 32 \
	action continue || die "tc QP 1"
tc filter add dev eth0 ingress protocol ip prio 5 u32 \
	match ip src "$PEER_IP/32" match ip protocol 17 0xff match ip dport 4791 0xffff match u8 0xc0 0xfe at 28 \
	action continue || die "tc FRP"
# tc_pkts PRIO: packets filter PRIO has counted
tc_pkts() {
	tc -s filter show dev eth0 ingress prio "$1" | awk '$1 == "Sent" { print $4; exit }'
}
# rx_bytes: bytes of the RoCEv2 packets from the other kernel (IP and up)
rx_bytes() {
	tc -s filter show dev eth0 ingress prio 1 | awk '$1 == "Sent" { print $2; exit }'
}
udp_noports() { awk '$1 == "Udp:" && $2 ~ /^[0-9]+$/ { print $3; exit }' /proc/net/snmp; }
for p in 1 2 3 4 5; do
	[[ $(tc_pkts $p) =~ ^[0-9]+$ ]] || die "tc filter $p has no packet count"
done
[[ $(rx_bytes) =~ ^[0-9]+$ ]] || die "tc filter 1 has no byte count"
[[ $(udp_noports) =~ ^[0-9]+$ ]] || die "no UDP NoPorts count in /proc/net/snmp"

# all_qpns: every QP number on rxe0
all_qpns() {
	rdma resource show qp link rxe0/1 |
		awk '{ for (i = 1; i < NF; i++) if ($i == "lqpn") print $(i + 1) }' | tr '\n' ' '
}
# cc_qpn: the patched side's RC QP in RTS on rxe0 made in this step: not
# one of OLD_QPS (all_qpns before the step), which may linger a moment
# after the last step's perftest has exited
cc_qpn() {
	rdma resource show qp link rxe0/1 | awk -v old=" $OLD_QPS " '
		/type RC/ && /state RTS/ { for (i = 1; i < NF; i++)
			if ($i == "lqpn" && index(old, " " $(i + 1) " ") == 0) { print $(i + 1); exit } }'
}

# perftest TAG SERVER|CLIENT VERB PORT: one side of a transfer; the sides
# exchange their QP numbers over TCP (perftest's default), so a client that
# comes before its server fails before it makes a QP: it tries again.
perftest() {
	local tag=$1 side=$2 verb=$3 port=$4 out=$TMP/$1.$2 rc
	local cmd=(timeout 120 "ib_${verb}_bw" -d rxe0 -x "$GIDX" -p "$port" -s "$SIZE" -n "$n" -F)
	if [ "$side" = server ]; then
		"${cmd[@]}" >"$out" 2>&1
		return
	fi
	for _ in $(seq 1 240); do
		rc=0
		"${cmd[@]}" "$PEER_IP" >"$out" 2>&1 || rc=$?
		grep -q "Couldn't connect to $PEER_IP" "$out" || return $rc
		nap 0.25
	done
	return 1
}

i=0
for step in "${STEPS[@]}"; do
	read -r algo verb dir <<<"$step"
	i=$((i + 1))
	tag=$i-$algo-$verb-$dir port=$((19700 + i)) n=$N
	case "$algo $dir" in
	"hpcc a2b" | "acc a2b" | "pcn a2b" | "accurate a2b") n=$N_STATE ;;
	esac
	log "step $tag"
	if [ "$role" = cc ]; then
		rxecc dev set rxe0 algo "$algo" line_rate 100M >/dev/null || die "$algo on rxe0"
		req0=$(hw_counter rxe0 cc_int_req_tx) ack0=$(hw_counter rxe0 cc_int_ack_tx)
		bad0=$(hw_counter rxe0 cc_int_bad) tcd0=$(hw_counter rxe0 cc_tcd_rx)
		pinc0=$(hw_counter rxe0 cc_pcn_inc_sent)
		frp0=$(hw_counter rxe0 cc_frp_sent) wh0=$(hw_counter rxe0 cc_frp_withheld)
	fi
	# the patched side is the requester of a2b; READ moves data the
	# other way from WRITE
	if { [ "$dir" = a2b ] && [ "$role" = cc ]; } || { [ "$dir" = b2a ] && [ "$role" = stock ]; }; then
		side=client
	else
		side=server
	fi
	receiver=0
	if { [ "$verb" = write ] && [ "$side" = server ]; } || { [ "$verb" = read ] && [ "$side" = client ]; }; then
		receiver=1
	fi
	rx0=$(rx_bytes) p0=$(tc_pkts 1) c0=$(tc_pkts 2) i0=$(tc_pkts 3) g0=$(tc_pkts 4) f0=$(tc_pkts 5)
	n0=$(udp_noports)
	OLD_QPS=$(all_qpns)
	perftest "$tag" "$side" "$verb" "$port" &
	pid=$!
	if [ "$role" = cc ] && [ "$algo" = acc ] && [ "$dir" = a2b ]; then
		# the QP's state once ACKs have come and periods have passed
		wait_until 60 eval '[ -n "$(cc_qpn)" ]'
		q=$(cc_qpn)
		if [ -n "$q" ] &&
			wait_until 60 eval '[ "$(qp_field rxe0 "$q" periods)" -gt 2 ] 2>/dev/null'; then
			check "$tag: the ACC QP saw no CAP from its peer (peer_cap 0)" \
				test "$(qp_field rxe0 "$q" peer_cap)" = 0
		else
			fail "$tag: no RC QP on rxe0 through 3 ACC periods"
		fi
	fi
	# (b2a: the PCN receiver's QP lives for the transfer only; that it
	# sent the stock side no rate report is checked below for every step)
	if [ "$role" = cc ] && [ "$algo" = pcn ] && [ "$dir" = a2b ]; then
		wait_until 60 eval '[ -n "$(cc_qpn)" ]'
		q=$(cc_qpn)
		if [ -n "$q" ]; then
			check "$tag: the PCN sender got no report and keeps its line rate" \
				test "$(qp_field rxe0 "$q" rate_kbps) $(qp_field rxe0 "$q" cnp_dec)" = "100000 0"
		else
			fail "$tag: no RC QP in RTS on rxe0"
		fi
	fi
	if [ "$role" = cc ] && [ "$algo" = accurate ] && [ "$dir" = a2b ]; then
		wait_until 60 eval '[ -n "$(cc_qpn)" ]'
		q=$(cc_qpn)
		if [ -n "$q" ] && wait_until 60 eval '[ "$(hw_counter rxe0 cc_frp_withheld)" -gt "$wh0" ]'; then
			check "$tag: the ACCurate QP withholds its FRPs and keeps its line rate" \
				test "$(qp_field rxe0 "$q" rate_kbps)" = 100000
		else
			fail "$tag: no RC QP in RTS on rxe0 that withheld an FRP"
		fi
	fi
	if [ "$role" = cc ] && [ "$algo" = hpcc ] && [ "$dir" = a2b ]; then
		# the QP's state while it sends
		wait_until 60 eval '[ -n "$(cc_qpn)" ]'
		q=$(cc_qpn)
		if [ -n "$q" ]; then
			# one view, both fields of the same moment
			qp_snap rxe0 "$q"
			check "$tag: the HPCC QP does not send with INT (cc_int_tx 0)" \
				test "$(snap_field cc_int_tx)" = 0
			check "$tag: it says it has no INT feedback (int_active 0)" \
				test "$(snap_field int_active)" = 0
		else
			fail "$tag: no RC QP in RTS on rxe0"
		fi
	fi
	rc=0
	wait "$pid" || rc=$?
	check "$tag: ib_${verb}_bw ($side) completed" test "$rc" = 0
	[ "$rc" = 0 ] || sed 's/^/#   /' "$TMP/$tag.$side" | tail -8
	rx=$(($(rx_bytes) - rx0)) roce=$(($(tc_pkts 1) - p0)) cap=$(($(tc_pkts 2) - c0))
	gsi=$(($(tc_pkts 4) - g0))
	log "$tag: $rx bytes in, $roce RoCEv2 packets in ($gsi to QP 1), $cap with CAP"
	if [ "$receiver" = 1 ]; then
		check "$tag: the other kernel's RoCEv2 packets held the $n x $SIZE bytes ($rx)" test "$rx" -ge $((n * SIZE))
	fi
	if [ "$role" = stock ]; then
		check "$tag: nothing reached the INT port" test "$(tc_pkts 3)" = "$i0"
		check "$tag: no packet went to a UDP port without a socket" test "$(udp_noports)" = "$n0"
		check "$tag: RoCEv2 packets came in beside MADs" test $((roce - gsi)) -gt 0
		check "$tag: no FRP reached the stock side" test "$(tc_pkts 5)" = "$f0"
		if [ "$algo" = hpcc ] || [ "$algo" = acc ] || [ "$algo" = pcn ] || [ "$algo" = accurate ]; then
			check "$tag: every packet of the $algo QP carried CAP" test "$cap" = $((roce - gsi))
		else
			check "$tag: no packet of a $algo QP carried CAP" test "$cap" = 0
		fi
	else
		check "$tag: the stock peer sent no CAP" test "$cap" = 0
		check "$tag: nothing came in on the INT port" test "$(tc_pkts 3)" = "$i0"
		check "$tag: no request left with an INT shim" \
			test "$(hw_counter rxe0 cc_int_req_tx)" = "$req0"
		check "$tag: no ACK left with an INT shim" \
			test "$(hw_counter rxe0 cc_int_ack_tx)" = "$ack0"
		check "$tag: no INT stack was counted bad" test "$(hw_counter rxe0 cc_int_bad)" = "$bad0"
		check "$tag: no mark echo was taken" test "$(hw_counter rxe0 cc_tcd_rx)" = "$tcd0"
		check "$tag: no PCN rate report (0xC2) went out" \
			test "$(hw_counter rxe0 cc_pcn_inc_sent)" = "$pinc0"
		check "$tag: no FRP went out" test "$(hw_counter rxe0 cc_frp_sent)" = "$frp0"
	fi
done

tc qdisc del dev eth0 ingress 2>/dev/null
rdma link delete rxe0 || fail "rdma link delete rxe0"
rxe_unload || fail "unload"
dmesg_check
ksft_exit
