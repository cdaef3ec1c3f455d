#!/bin/bash
# Forged INT feedback (rxecc-inject --kinds int) at an HPCC sender's QP
# while it sends: ACKs to the INT port (4792) whose shim has more hops
# than slots, a hop with rate code 0 or an unassigned one (14, 15), or that
# are shorter than shim + BTH, go to a QPN that does not exist, come from
# a non-peer, carry a bad ICRC or a PSN the QP has not sent. Each one must
# be counted once in cc_int_bad and change nothing else: the ACKs with a
# PSN not sent are also counted in rcvd_unsent_psn, the stacks HPCC
# rejects (codes 0, 14, 15) in the QP's int_ignored; the QP's HPCC state
# stays as a veth leaves it (no hop stamps the shim there, so only a
# forged stack could change it): int_active 0, no INT sample, W = W_init,
# the line rate. The QP stays in RTS and keeps sending, and the kernel logs
# nothing. The control: 5 well-formed 1-hop stacks from the peer
# (--int-valid) must each be taken by HPCC (int_samples + int_restarts +5,
# int_active 1), which nothing else on a veth can cause.
#
# The in-window kinds are ACKs for the PSN before the QP's sq-psn, read
# just before each injection; the framework takes an INT ACK only for one
# of the last 256 PSNs sent. The sender's veth is shaped to 1 Mbit/s (tbf)
# so that the QP sends ~100 packets a second and its PSN moves by far
# fewer than 256 while an injection runs (logged); at the line rate the
# ACKs would fall behind the window and be counted there instead. The seed
# is printed; RXECC_INJECT_SEED=N replays it, RXECC_INJECT_COUNT=N sends N
# of each kind (default 100).
. "$(dirname "$0")/lib.sh"
require_root

need_qptest
inject_init 100
KINDS="int_hops6 int_truncated int_code0 int_code_unassigned int_wrong_qpn int_non_peer
	int_bad_icrc int_bad_psn"
# the sender's shaped rate, and the PSN advance an injection must stay below
SHAPE=1mbit
WINDOW_MARGIN=200

dmesg_mark
rxe_load
rxe_pair hi_a hi_b 10.9.8 || ksft_exit
rxecc dev set rxe_a algo hpcc line_rate 100M >/dev/null || die "hpcc on rxe_a"
rxecc dev set rxe_b algo hpcc line_rate 100M >/dev/null || die "hpcc on rxe_b"
ip netns exec hi_a tc qdisc add dev va root tbf rate $SHAPE burst 4kb limit 1mb ||
	die "tbf on va"

# ctr NAME: a port counter of rxe_a; snap: the sending QP's driver fields
# (rdma resource -dd), f NAME: one of them; sq_psn: its next send PSN
ctr() { hw_counter rxe_a "$1"; }
snap() { qp_snap rxe_a "$SQPN"; }
f() { snap_field "$1"; }
sq_psn() { qp_sq_psn rxe_a "$SQPN"; }

# WRITEs from rxe_a to rxe_b, kept outstanding until SIGTERM
"$QPTEST" --size 16384 --depth 8 rxe_a "$(gid_index rxe_a 10.9.8.1)" \
	rxe_b "$(gid_index rxe_b 10.9.8.2)" >"$TMP/qptest.out" 2>&1 &
qp_pid=$!
wait_until 60 eval 'grep -qs "^flowing" "$TMP/qptest.out"' ||
	die "rxecc-qptest does not flow ($(tail -1 "$TMP/qptest.out"))"
read -r _ SQPN _ < <(grep '^qpn ' "$TMP/qptest.out")
log "sending QP: rxe_a QP $SQPN, WRITEs to rxe_b, seed $seed"
wait_until 30 eval '[ "$(qp_field rxe_a "$SQPN" cc_int_tx)" = 1 ] && nonzero "$(ctr cc_int_rx)"' ||
	die "the QP does not send with INT (cc_int_tx $(qp_field rxe_a "$SQPN" cc_int_tx), cc_int_rx $(ctr cc_int_rx))"

# W_init = line rate * base_rtt_us / 8, the rate W_init / base_rtt_us
t_us=$(rxecc -j dev show rxe_a | grep -o '"base_rtt_us":[0-9]*' | cut -d: -f2)
[ -n "$t_us" ] || die "no base_rtt_us in 'rxecc -j dev show rxe_a'"
w_init=$((100000000 * t_us / 8000000))
snap
w0=$(f window_bytes) rate0=$(f cc_rate_bps) u0=$(f u_q16)
samples0=$(f int_samples) restarts0=$(f int_restarts) ignored0=$(f int_ignored)
log "HPCC before: base_rtt_us $t_us, W_init $w_init bytes; window_bytes $w0 wc_bytes $(f wc_bytes)" \
	"cc_window_bytes $(f cc_window_bytes) cc_rate_bps $rate0 u_q16 $u0 int_active $(f int_active)" \
	"int_samples $samples0 int_restarts $restarts0 int_ignored $ignored0"
check "before: no hop on the veth: int_active 0, no INT sample" \
	test "$(f int_active)/$samples0/$restarts0/$ignored0" = 0/0/0/0
check "before: the window is W_init ($w0 = $w_init bytes)" test "$w0" = "$w_init"
check "before: the rate is W_init / base_rtt ($rate0 = $((w_init * 8000000 / t_us)) bit/s)" \
	test "$rate0" = $((w_init * 8000000 / t_us))

bad0=$(ctr cc_int_bad)
unsent0=$(ctr rcvd_unsent_psn)
rx0=$(ctr cc_int_rx)
declare -A sent
total=0 max_adv=0
for kind in $KINDS; do
	psn=$(sq_psn)
	ip netns exec hi_b "$INJECT" --seed "$seed" --count "$COUNT" --kinds "$kind" \
		--psn-base "$psn" --peer 10.9.8.2 --spoof 10.9.8.99 --dst 10.9.8.1 \
		--qpn "$SQPN" >"$TMP/inject" 2>&1 ||
		die "rxecc-inject --kinds $kind: $(tail -1 "$TMP/inject")"
	adv=$((($(sq_psn) - psn) & 0xffffff))
	n=$(sed -n "s/^$kind: \([0-9]*\) sent.*/\1/p" "$TMP/inject")
	[ -n "$n" ] || die "rxecc-inject --kinds $kind printed no count: $(cat "$TMP/inject")"
	sent[$kind]=$n
	total=$((total + n))
	[ "$adv" -gt "$max_adv" ] && max_adv=$adv
	log "$kind: $n sent (psn-base $psn; the QP sent $adv packets meanwhile)"
done
log "malformed INT packets sent: $total"
check "the QP's PSN moved by at most $max_adv (< $WINDOW_MARGIN) during an injection: its ACKs were in the window" \
	test "$max_adv" -lt "$WINDOW_MARGIN"

bad_d() { echo $(($(ctr cc_int_bad) - bad0)); }
unsent_d() { echo $(($(ctr rcvd_unsent_psn) - unsent0)); }
ignored_d() { snap && echo $(($(f int_ignored) - ignored0)); }
rejected=$((sent[int_code0] + sent[int_code_unassigned]))
bad=$(settle bad_d "$total")
unsent=$(settle unsent_d "${sent[int_bad_psn]}")
ignored=$(settle ignored_d "$rejected")
log "cc_int_bad +$bad, rcvd_unsent_psn +$unsent, int_ignored +$ignored, cc_int_rx +$(($(ctr cc_int_rx) - rx0))"
check "every malformed INT packet was counted once in cc_int_bad (+$bad of $total)" \
	test "$bad" = "$total"
check "every ACK for a PSN not sent was counted in rcvd_unsent_psn (+$unsent of ${sent[int_bad_psn]})" \
	test "$unsent" = "${sent[int_bad_psn]}"
check "HPCC ignored every stack with a rate code 0 or unassigned (int_ignored +$ignored of $rejected)" \
	test "$ignored" = "$rejected"
snap
log "HPCC after: window_bytes $(f window_bytes) wc_bytes $(f wc_bytes) cc_window_bytes" \
	"$(f cc_window_bytes) cc_rate_bps $(f cc_rate_bps) u_q16 $(f u_q16) int_active $(f int_active)" \
	"n_hops $(f n_hops) int_samples $(f int_samples) int_restarts $(f int_restarts)"
check "no forged stack was taken: int_active 0, int_samples +0, int_restarts +0" \
	test "$(f int_active)/$(f int_samples)/$(f int_restarts)" = "0/$samples0/$restarts0"
check "the window is still W_init ($(f window_bytes), W^c $(f wc_bytes), framework $(f cc_window_bytes))" \
	test "$(f window_bytes)/$(f wc_bytes)/$(f cc_window_bytes)" = "$w_init/$w_init/$w_init"
check "the rate is still the line rate ($(f cc_rate_bps) bit/s) and U unchanged ($(f u_q16))" \
	test "$(f cc_rate_bps)/$(f u_q16)" = "$rate0/$u0"
nonzero "$(($(ctr cc_int_rx) - rx0))" || fail "the peer's echoed stacks were no longer taken"
check "the QP is in RTS" eval 'rdma resource show qp link rxe_a/1 lqpn "$SQPN" | grep -q "state RTS"'
p0=$(sq_psn)
sleep 1
adv=$((($(sq_psn) - p0) & 0xffffff))
check "the QP kept sending ($adv packets in 1 s)" test "$adv" -gt 0
check "rxecc-qptest is still running, without a completion error" \
	eval 'kill -0 "$qp_pid" && ! grep -q "error" "$TMP/qptest.out"'

# the control: well-formed 1-hop stacks from the peer are taken
snap
taken0=$(($(f int_samples) + $(f int_restarts)))
ignored0=$(f int_ignored)
bad0=$(ctr cc_int_bad)
psn=$(sq_psn)
ip netns exec hi_b "$INJECT" --seed "$seed" --int-valid --count 5 --psn-base "$psn" \
	--peer 10.9.8.2 --spoof 10.9.8.99 --dst 10.9.8.1 --qpn "$SQPN" >"$TMP/valid" 2>&1 ||
	fail "rxecc-inject --int-valid: $(tail -1 "$TMP/valid")"
taken_d() { snap && echo $(($(f int_samples) + $(f int_restarts) - taken0)); }
taken=$(settle taken_d 5)
snap
log "control: int_samples $(f int_samples) int_restarts $(f int_restarts) int_active $(f int_active)" \
	"n_hops $(f n_hops) window_bytes $(f window_bytes) cc_rate_bps $(f cc_rate_bps)"
check "control: HPCC took the 5 well-formed stacks (int_samples + int_restarts +$taken)" \
	test "$taken" = 5
check "control: int_active 1, a 1-hop path" test "$(f int_active)/$(f n_hops)" = 1/1
check "control: none of them was counted as bad (cc_int_bad +$(($(ctr cc_int_bad) - bad0)), int_ignored +$(($(f int_ignored) - ignored0)))" \
	test "$(($(ctr cc_int_bad) - bad0))/$(f int_ignored)" = "0/$ignored0"

kill "$qp_pid" 2>/dev/null
wait "$qp_pid" 2>/dev/null
cleanup
rxe_unload || fail "unload"
dmesg_check
ksft_exit
