#!/bin/bash
# Forged ACCurate flow rate packets (rxecc-inject --kinds frp...) at both
# ends of a QP pair while it sends:
#  - at the sender (accurate, its peer running none at first, so that no
#    real FRP or echo flows): a well-formed response from the peer (the
#    control) sets the rate to max(CR, DR) (cc_frp_rcvd); truncated,
#    bad-ICRC, non-peer, unknown-QP, other-version, non-response,
#    other-type, rate-0, rate-above-line and DR-0 responses are each
#    counted once (cc_frp_bad + cc_frp_ignored grow by the number sent),
#    none is taken and the rate stays; stale responses are refused
#    (cc_frp_bad, the QP's stale_rx);
#  - at the receiver, switched to accurate (its packets carry CAP): bad
#    forward FRPs are counted (cc_frp_bad) and not echoed, STOPs are counted
#    (cc_frp_stops) and not echoed, well-formed ones are echoed;
# the QPs stay in RTS and keep sending, and the kernel logs nothing. The
# seed is printed; RXECC_INJECT_SEED=N replays it.
. "$(dirname "$0")/lib.sh"
require_root

inject_init 20

dmesg_mark
rxe_load
rxe_pair ai_a ai_b 10.7.7 || ksft_exit
# a flow that never goes idle (50 s): ib_write_bw on an emulated host, and
# on the debug kernel for a second or more while rxecc-inject starts,
# stalls, and each return would be a new flow (at the line rate, with a
# new INIT epoch)
rxecc dev set rxe_a algo accurate line_rate 100M rrp_us 5000 idle_stop_rrps 10000 >/dev/null ||
	die "accurate on rxe_a"

traffic_start ai_b rxe_b 10.7.7.2 ai_a rxe_a 10.7.7.1 19800
qp=$QPN
peer_qpn=$(rdma resource show qp link rxe_a/1 lqpn "$qp" |
	awk '{ for (i = 1; i < NF; i++) if ($i == "rqpn") print $(i + 1) }')
[ -n "$peer_qpn" ] || die "no peer QP of rxe_a QP $qp"
log "sender: rxe_a QP $qp; receiver: rxe_b QP $peer_qpn"
wait_until 10 eval '[ "$(qp_field rxe_a "$qp" active)" = 1 ]' ||
	die "the flow did not become active"

# inject NS NAME ARGS...: one rxecc-inject run from NS
inject() {
	local ns=$1 name=$2
	shift 2
	ip netns exec "$ns" "$INJECT" --seed "$seed" --spoof 10.7.7.99 --frp-line 100000 "$@" \
		>"$TMP/$name" 2>&1
	check "rxecc-inject $name ran (seed $seed)" test $? = 0
	sed 's/^/# /' "$TMP/$name"
	nap 0.5
}
# responses to the sender, from its peer; of the epoch EPOCH, by default
# that of the sender's last FRP (a response must not be for one it has not
# sent, nor older than the last one it took)
to_sender() {
	local name=$1 epoch=${EPOCH:-$(qp_field rxe_a "$qp" tx_epoch)}
	shift
	inject ai_b "$name" --peer 10.7.7.2 --dst 10.7.7.1 --qpn "$qp" --frp-epoch "$epoch" "$@"
}
# forward FRPs to the receiver, from its peer
to_receiver() {
	local name=$1
	shift
	inject ai_a "$name" --peer 10.7.7.1 --dst 10.7.7.2 --qpn "$peer_qpn" \
		--frp-src-qpn "$qp" "$@"
}
cnt() { hw_counter "$1" "cc_frp_$2"; }

# ---- at the sender ------------------------------------------------------------------
r0=$(cnt rxe_a rcvd) b0=$(cnt rxe_a bad) i0=$(cnt rxe_a ignored)
e_ctrl=$(qp_field rxe_a "$qp" tx_epoch)
EPOCH=$e_ctrl to_sender control --frp-valid --count 5 --frp-cr 40000 --frp-dr 60000
log "control: epoch $e_ctrl; bad +$(($(cnt rxe_a bad) - b0)), ignored +$(($(cnt rxe_a ignored) - i0));" \
	"QP: $(qp_fields rxe_a "$qp" active tx_epoch epoch resp_rx bad_rx stale_rx inactive_rx)"
check "control: 5 responses taken (cc_frp_rcvd +$(($(cnt rxe_a rcvd) - r0)))" \
	test $(($(cnt rxe_a rcvd) - r0)) = 5
read -r rate < <(qp_fields rxe_a "$qp" rate_kbps)
check "control: the rate is max(CR, DR) = 60000 kbit/s ($rate)" test "$rate" = 60000
# the rate is the link's; the pacer's frames lack the 24 bytes of
# preamble, IFG and FCS: 60000 x 1082 / (1082 + 24) for MTU 1024
check "control: the QP is paced at 58698 kbit/s ($(qp_rate_kbps rxe_a "$qp"))" \
	test "$(qp_rate_kbps rxe_a "$qp")" = 58698
# rate_kept WHAT: the QP took no response since the control and kept its
# rate
read -r resp0 < <(qp_fields rxe_a "$qp" resp_rx)
rate_kept() {
	local resp rate
	read -r resp rate < <(qp_fields rxe_a "$qp" resp_rx rate_kbps)
	check "$1: no response taken ($resp0 -> $resp), the rate kept ($rate)" \
		test "$resp $rate" = "$resp0 60000"
}

r0=$(cnt rxe_a rcvd) b0=$(cnt rxe_a bad) i0=$(cnt rxe_a ignored)
to_sender bad --count "$COUNT" --kinds frp
n=$((10 * COUNT))
bad=$(($(cnt rxe_a bad) - b0)) ign=$(($(cnt rxe_a ignored) - i0))
log "sender: bad +$bad, ignored +$ign; QP: $(qp_field rxe_a "$qp" bad_rx) refused"
check "bad: each of the $n was counted once (bad $bad + ignored $ign)" test $((bad + ign)) = "$n"
check "bad: the 7 malformed kinds as bad, the 3 misaddressed as ignored" \
	test "$bad $ign" = "$((7 * COUNT)) $((3 * COUNT))"
check "bad: none was taken" test "$(cnt rxe_a rcvd)" = "$r0"
rate_kept bad

b0=$(cnt rxe_a bad)
read -r s0 x0 < <(qp_fields rxe_a "$qp" stale_rx bad_rx)
# 1..32767 epochs before the control's: older than the last one taken (in
# u16 serial arithmetic, one far enough back may instead be "after the
# last FRP sent": refused as well, counted in bad_rx)
EPOCH=$e_ctrl to_sender stale --count "$COUNT" --kinds frp_stale --frp-cr 1000 --frp-dr 1000
read -r s1 x1 < <(qp_fields rxe_a "$qp" stale_rx bad_rx)
check "stale: each was refused (cc_frp_bad +$(($(cnt rxe_a bad) - b0)); stale_rx +$((s1 - s0)), bad_rx +$((x1 - x0)))" \
	test "$(($(cnt rxe_a bad) - b0)) $((s1 - s0 + x1 - x0))" = "$COUNT $COUNT"
rate_kept stale

# ---- at the receiver ----------------------------------------------------------------
rxecc qp set rxe_b "$peer_qpn" algo accurate >/dev/null || die "accurate on rxe_b QP $peer_qpn"
b0=$(cnt rxe_b bad) e0=$(cnt rxe_b echoed) s0=$(cnt rxe_b stops)
t0=$(qp_field rxe_a "$qp" frp_tx_stop)
to_receiver fwd-bad --count "$COUNT" --kinds frp_fwd
check "fwd: the 4 bad kinds were counted (cc_frp_bad +$(($(cnt rxe_b bad) - b0)) of $((4 * COUNT)))" \
	test $(($(cnt rxe_b bad) - b0)) = $((4 * COUNT))
to_receiver fwd-stop --count "$COUNT" --kinds frp_fwd_stop
# the sender's own STOPs arrive there too, now that the receiver sets CAP
own=$(($(qp_field rxe_a "$qp" frp_tx_stop) - t0))
check "fwd: the STOPs were counted (cc_frp_stops +$(($(cnt rxe_b stops) - s0)): $COUNT and the sender's $own)" \
	test $(($(cnt rxe_b stops) - s0)) = $((COUNT + own))
e1=$(cnt rxe_b echoed)
to_receiver fwd-valid --frp-fwd-valid --count "$COUNT"
check "fwd: the well-formed ones were echoed (cc_frp_echoed +$(($(cnt rxe_b echoed) - e1)), >= $COUNT)" \
	test $(($(cnt rxe_b echoed) - e1)) -ge "$COUNT"

check "the sender's QP is in RTS" eval 'rdma resource show qp link rxe_a/1 lqpn "$qp" | grep -q "state RTS"'
check "the receiver's QP is in RTR or RTS" \
	eval 'rdma resource show qp link rxe_b/1 lqpn "$peer_qpn" | grep -Eq "state RT[RS]"'
p0=$(hw_counter rxe_a sent_pkts)
nap 0.5
check "the sender kept sending ($(($(hw_counter rxe_a sent_pkts) - p0)) packets in 0.5 s)" \
	test $(($(hw_counter rxe_a sent_pkts) - p0)) -gt 100
check "the sender is still running" kill -0 "$CLI_PID"
traffic_stop
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
