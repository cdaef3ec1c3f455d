#!/usr/bin/env bash
# scripts/experiment --prepare-only, scripts/eval and scripts/demo without
# a VM: inputs are checked before anything is written, errors name the
# line, the generated schedule starts the flows together, every line of
# scripts/eval.list is accepted, and the demo prepares its default runs.
# Usage: experiment_cli_test.sh TOP BINDIR
set -euo pipefail

TOP=${1:?usage: experiment_cli_test.sh TOP BINDIR}
export RXECC_BIN=${2:?usage: experiment_cli_test.sh TOP BINDIR}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/experiment-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
EXP=$TOP/scripts/experiment

# a bad flows line: rejected with the file's line number, DIR untouched
printf 'a h1 r 0 duration=2\n# comment\n\nb h1 r 0 bogus=1\n' >"$TMP/bad.flows"
mkdir "$TMP/out"
echo keep >"$TMP/out/summary.txt"
if "$EXP" --prepare-only -o "$TMP/out" --flows "$TMP/bad.flows" incast 2>"$TMP/err"; then
	fail "a bad flows file was accepted"
fi
grep -q "bad.flows:4: expected duration=S" "$TMP/err" || fail "no line number: $(cat "$TMP/err")"
[ "$(ls "$TMP/out")" = summary.txt ] && [ "$(cat "$TMP/out/summary.txt")" = keep ] ||
	fail "the results directory was touched: $(ls "$TMP/out")"
"$EXP" --prepare-only -o "$TMP/new" --flows "$TMP/bad.flows" incast 2>/dev/null &&
	fail "accepted"
[ ! -e "$TMP/new" ] || fail "a rejected run created its results directory"
# open flows need perftest
printf 'a h1 r 0 open\n' >"$TMP/open.flows"
"$EXP" --prepare-only -o "$TMP/o" --flows "$TMP/open.flows" incast 2>"$TMP/err" &&
	fail "open accepted with the generator"
grep -q "open.flows:1: open needs --gen perftest" "$TMP/err" || fail "open: $(cat "$TMP/err")"
"$EXP" --prepare-only --gen perftest -o "$TMP/o" --flows "$TMP/open.flows" incast >/dev/null ||
	fail "open rejected with --gen perftest"
"$EXP" --prepare-only --gen nope -o "$TMP/o" incast 2>/dev/null && fail "--gen nope accepted"

# the generator's incast: every flow at 0; the victim's incast in the
# middle third; the default ECN thresholds follow the rate
"$EXP" --prepare-only -o "$TMP/i" --rate 200M incast >/dev/null || fail "incast rejected"
[ "$(awk '$1 ~ /^f[0-9]$/ { print $4 }' "$TMP/i/schedule.txt" | sort -u)" = 0s ] ||
	fail "incast flows do not all start at 0: $(cat "$TMP/i/schedule.txt")"
grep -q 'kmin=80000B kmax=320000B pmax=0.2' "$TMP/i/topology.txt" || fail "ECN rule at 200M"
# the probe: 20 isolated one-message flows on the first flow's path
[ "$(grep -c '^probe[0-9]* h1 r [0-9]*ms size=64 msg=64 depth=1 ' "$TMP/i/probe.txt")" = 20 ] ||
	fail "probe: $(cat "$TMP/i/probe.txt")"
grep -q '^probe19 h1 r 475ms ' "$TMP/i/probe.txt" || fail "probe19 is not at 475 ms"
"$EXP" --prepare-only -o "$TMP/v" --duration 9 victim >/dev/null || fail "victim rejected"
grep -q '^fv v x 0s duration=9s' "$TMP/v/schedule.txt" || fail "victim flow"
[ "$(awk '$1 ~ /^f[0-9]$/ { print $4, $5 }' "$TMP/v/schedule.txt" | sort -u)" = "3.000s duration=3.000s" ] ||
	fail "victim incast: $(cat "$TMP/v/schedule.txt")"

# poisson: every flow of the generator's schedule, sized, in flows.txt and
# the schedule; the same seed gives the same flows; its options are its own
"$EXP" --prepare-only -o "$TMP/p" --duration 3 poisson 2>"$TMP/err" || fail "poisson rejected: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "poisson warned: $(cat "$TMP/err")"
"$RXECC_BIN/rxecc-traffic" gen poisson --src h1,h2,h3,h4 --dst r --cdf fb_hadoop --load 0.5 \
	--rate 100M --duration 3s --seed 1 -o "$TMP/p.gen" >/dev/null || fail "gen poisson"
n=$(grep -c '^p[0-9]' "$TMP/p.gen")
[ "$n" -gt 20 ] || fail "poisson: only $n flows generated"
[ "$(wc -l <"$TMP/p/flows.txt")" = "$n" ] || fail "poisson: $(wc -l <"$TMP/p/flows.txt") flows, not $n"
[ "$(grep -c '^p[0-9]* h[1-4] r [0-9.]*s size=[0-9]*$' "$TMP/p/schedule.txt")" = "$n" ] ||
	fail "poisson schedule: $(head -5 "$TMP/p/schedule.txt")"
[ "$(awk '{ print $2, $3, $5 }' "$TMP/p/flows.txt")" = \
	"$(awk '/^p[0-9]/ { sub(/^size=/, "", $5); sub(/B$/, "", $5); print $2, $3, "bytes=" $5 }' "$TMP/p.gen")" ] ||
	fail "poisson: flows.txt does not hold the generator's sources and sizes"
"$EXP" --prepare-only -o "$TMP/p2" --duration 3 --seed 2 poisson >/dev/null || fail "--seed 2 rejected"
cmp -s "$TMP/p/flows.txt" "$TMP/p2/flows.txt" && fail "poisson: --seed changes nothing"
"$EXP" --prepare-only -o "$TMP/x" --cdf nope poisson 2>"$TMP/err" && fail "--cdf nope accepted"
grep -q "refused --cdf 'nope'" "$TMP/err" || fail "--cdf nope: $(cat "$TMP/err")"
[ ! -e "$TMP/x" ] || fail "a rejected poisson created its results directory"
"$EXP" --prepare-only -o "$TMP/x" --load 0.3 incast 2>/dev/null && fail "--load accepted for incast"
"$EXP" --prepare-only -o "$TMP/x" --gen perftest poisson 2>/dev/null && fail "poisson on perftest accepted"

# INT: on by default for hpcc, with a rate code for a link rate below 1G and
# hpcc's parameter to match; off for dcqcn; --int/--no-int override
"$EXP" --prepare-only -o "$TMP/i1" --algo hpcc --rate 50M incast >/dev/null || fail "hpcc incast"
grep -qx 'int \*:\*' "$TMP/i1/topology.txt" || fail "hpcc: no 'int *:*' in the topology"
grep -qx 'int_rate_code 11 50M' "$TMP/i1/topology.txt" || fail "hpcc at 50M: no rate code 11"
grep -qx 'params=b11_mbps=50' "$TMP/i1/meta.env" || fail "hpcc at 50M: $(grep params "$TMP/i1/meta.env")"
"$EXP" --prepare-only -o "$TMP/i2" --algo hpcc --rate 10G --param b11_mbps=7 incast >/dev/null ||
	fail "hpcc at 10G"
grep -q '^int_rate_code' "$TMP/i2/topology.txt" && fail "hpcc at 10G: a rate code for a fixed rate"
grep -qx 'params=b11_mbps=7' "$TMP/i2/meta.env" || fail "hpcc at 10G: the user's b11_mbps was changed"
"$EXP" --prepare-only -o "$TMP/i3" --algo dcqcn incast >/dev/null || fail "dcqcn incast"
grep -q '^int' "$TMP/i3/topology.txt" && fail "dcqcn: INT in the topology without --int"
"$EXP" --prepare-only -o "$TMP/i4" --algo dcqcn --int incast >/dev/null || fail "dcqcn --int"
grep -qx 'int \*:\*' "$TMP/i4/topology.txt" || fail "dcqcn --int: no 'int *:*'"
"$EXP" --prepare-only -o "$TMP/i5" --algo hpcc --no-int incast >/dev/null || fail "hpcc --no-int"
grep -q '^int' "$TMP/i5/topology.txt" && fail "hpcc --no-int: INT in the topology"
"$EXP" --prepare-only -o "$TMP/x" --algo hpcc --rate 1500k incast 2>"$TMP/err" && fail "INT at 1500 kbit/s accepted"
grep -q "not a whole number of Mbit/s" "$TMP/err" || fail "--rate 1500k: $(cat "$TMP/err")"

# TCD: on by default for acc, in place of the ECN line (one marking mode
# per queue); --tcd/--no-tcd override; max_ton from --pfc, --rate, --delay:
# 2 * (XOFF - XON) * 8 / rate + 2 * (delay + 1106 * 8 / rate)
tcd_of() { grep -e '^tcd' -e '^ecn' "$1/topology.txt" | tr '\n' ' '; }
"$EXP" --prepare-only -o "$TMP/t1" --algo acc incast >/dev/null || fail "acc incast"
[ "$(tcd_of "$TMP/t1")" = 'tcd *:* prio=3 thr=2200B max_ton=9796960ns ' ] ||
	fail "acc at 100M: $(tcd_of "$TMP/t1")"
grep -qx 'tcd=1' "$TMP/t1/meta.env" || fail "acc: no tcd=1 in meta.env"
grep -qx 'ack_dscp=48' "$TMP/t1/meta.env" || fail "acc: ACKs not on DSCP 48 in meta.env"
grep -qx 'ecn=' "$TMP/t1/meta.env" || fail "acc: RED in meta.env"
"$EXP" --prepare-only -o "$TMP/t2" --algo acc --rate 25M victim >/dev/null || fail "acc victim at 25M"
[ "$(tcd_of "$TMP/t2")" = 'tcd *:* prio=3 thr=2200B max_ton=39127840ns ' ] ||
	fail "acc at 25M: $(tcd_of "$TMP/t2")"
"$EXP" --prepare-only -o "$TMP/t3" --algo dcqcn --tcd --pfc 100KB,90KB,200KB --delay 5us \
	incast >/dev/null || fail "dcqcn --tcd"
[ "$(tcd_of "$TMP/t3")" = 'tcd *:* prio=3 thr=2200B max_ton=1786960ns ' ] ||
	fail "dcqcn --tcd: $(tcd_of "$TMP/t3")"
"$EXP" --prepare-only -o "$TMP/t4" --algo acc --no-tcd incast >/dev/null || fail "acc --no-tcd"
[ "$(tcd_of "$TMP/t4")" = 'ecn *:* prio=3 kmin=40000B kmax=160000B pmax=0.2 ' ] ||
	fail "acc --no-tcd: $(tcd_of "$TMP/t4")"
grep -qx 'tcd=0' "$TMP/t4/meta.env" || fail "acc --no-tcd: no tcd=0 in meta.env"
grep -qx 'ack_dscp=' "$TMP/t4/meta.env" || fail "acc --no-tcd: ACKs on their own class"
grep -qx 'ack_dscp=' "$TMP/i3/meta.env" || fail "dcqcn: ACKs on their own class"
grep -q '^tcd' "$TMP/i3/topology.txt" && fail "dcqcn: TCD in the topology without --tcd"

# NP-ECN replaces RED/ECN on the data priority: on for --algo pcn,
# --npecn/--no-npecn override; never together with TCD
mark_of() { grep -e '^npecn' -e '^ecn' -e '^tcd' "$1/topology.txt" | tr '\n' ' '; }
"$EXP" --prepare-only -o "$TMP/n1" --algo pcn incast >/dev/null || fail "pcn"
[ "$(mark_of "$TMP/n1")" = 'npecn *:* prio=3 ' ] || fail "pcn: $(mark_of "$TMP/n1")"
grep -qx 'npecn=1' "$TMP/n1/meta.env" || fail "pcn: no npecn=1 in meta.env"
"$EXP" --prepare-only -o "$TMP/n2" --algo pcn --no-npecn incast >/dev/null || fail "pcn --no-npecn"
[ "$(mark_of "$TMP/n2")" = 'ecn *:* prio=3 kmin=40000B kmax=160000B pmax=0.2 ' ] ||
	fail "pcn --no-npecn: $(mark_of "$TMP/n2")"
grep -qx 'npecn=0' "$TMP/n2/meta.env" || fail "pcn --no-npecn: no npecn=0 in meta.env"
"$EXP" --prepare-only -o "$TMP/n3" --algo dcqcn --npecn victim >/dev/null || fail "dcqcn --npecn"
[ "$(mark_of "$TMP/n3")" = 'npecn *:* prio=3 ' ] || fail "dcqcn --npecn: $(mark_of "$TMP/n3")"
grep -q '^npecn' "$TMP/i3/topology.txt" && fail "dcqcn: NP-ECN in the topology without --npecn"
out=$("$EXP" --prepare-only -o "$TMP/n4" --algo acc --npecn incast 2>&1) &&
	fail "acc --npecn: accepted with TCD"
[[ $out == *"one marking mode per queue"* ]] || fail "acc --npecn: $out"

# the monitors record the kernel's rate events with --events only
grep -qx 'monitor_events=0' "$TMP/i3/meta.env" || fail "monitor events on by default"
"$EXP" --prepare-only -o "$TMP/ev" --algo acc --events incast >/dev/null || fail "--events"
grep -qx 'monitor_events=1' "$TMP/ev/meta.env" || fail "--events: no monitor_events=1"

# long_short: the long flow for --duration, the 1 MB short flow from a
# third of it; the roles in meta.env; --hosts is fixed, --size the short
# flow's
"$EXP" --prepare-only -o "$TMP/ls" --duration 6 long_short >/dev/null || fail "long_short rejected"
[ "$(cat "$TMP/ls/flows.txt")" = "long h1 r 0 duration=6
short h2 r 2.000 bytes=1000000" ] || fail "long_short flows: $(cat "$TMP/ls/flows.txt")"
grep -qx 'long_flow=long' "$TMP/ls/meta.env" && grep -qx 'short_flow=short' "$TMP/ls/meta.env" &&
	grep -qx 'incast_flows=' "$TMP/ls/meta.env" || fail "long_short roles: $(cat "$TMP/ls/meta.env")"
"$EXP" --prepare-only -o "$TMP/ls2" --size 200KB long_short >/dev/null || fail "long_short --size"
grep -qx 'short h2 r 2.666 bytes=200000' "$TMP/ls2/flows.txt" || fail "long_short --size: $(cat "$TMP/ls2/flows.txt")"
"$EXP" --prepare-only -o "$TMP/x" --hosts 3 long_short 2>"$TMP/err" && fail "long_short --hosts 3 accepted"
grep -q "long_short has two senders" "$TMP/err" || fail "long_short --hosts: $(cat "$TMP/err")"
# incast_long: h0's long flow, 7 incast flows of 500 KB from a third of
# --duration by default; their names in meta.env
"$EXP" --prepare-only -o "$TMP/il" --duration 3 incast_long >/dev/null || fail "incast_long rejected"
[ "$(grep -c '^f[0-9] h[1-7] r 1.000 bytes=500000$' "$TMP/il/flows.txt")" = 7 ] &&
	grep -qx 'long h0 r 0 duration=3' "$TMP/il/flows.txt" || fail "incast_long flows: $(cat "$TMP/il/flows.txt")"
grep -qx 'incast_flows=f1,f2,f3,f4,f5,f6,f7' "$TMP/il/meta.env" && grep -qx 'long_flow=long' "$TMP/il/meta.env" ||
	fail "incast_long roles: $(grep flow "$TMP/il/meta.env")"
[ "$(wc -l <"$TMP/il/hosts.txt")" = 9 ] || fail "incast_long: $(wc -l <"$TMP/il/hosts.txt") hosts, not 9"
"$EXP" --prepare-only -o "$TMP/il2" --hosts 2 --size 1MB incast_long >/dev/null || fail "incast_long --hosts 2"
grep -qx 'incast_flows=f1,f2' "$TMP/il2/meta.env" && grep -q 'bytes=1000000$' "$TMP/il2/flows.txt" ||
	fail "incast_long --hosts 2 --size 1MB: $(cat "$TMP/il2/flows.txt")"
"$EXP" --prepare-only -o "$TMP/x" --gen perftest incast_long 2>/dev/null && fail "incast_long on perftest accepted"
"$EXP" --prepare-only -o "$TMP/x" --size 1MB fairness 2>/dev/null && fail "--size accepted for fairness"
# --flows replaces the flows and with them the roles
printf 'a h0 r 0 duration=2\n' >"$TMP/one.flows"
"$EXP" --prepare-only -o "$TMP/il3" --flows "$TMP/one.flows" incast_long >/dev/null || fail "incast_long --flows"
grep -qx 'incast_flows=' "$TMP/il3/meta.env" && grep -qx 'long_flow=' "$TMP/il3/meta.env" ||
	fail "incast_long --flows kept the roles"
# mice (HPCC's Fig. 9e,f): the elephants e1 and e2 for --duration from 0,
# the mice flow m1 -> r from 0.5 s to the end in 1 KB writes one at a time
# (its own msg and depth in the schedule, the elephants the defaults); its
# role in meta.env, none in other scenarios' or with --flows
"$EXP" --prepare-only -o "$TMP/mi" --duration 3 mice >/dev/null || fail "mice rejected"
[ "$(cat "$TMP/mi/flows.txt")" = "e1 e1 r 0 duration=3
e2 e2 r 0 duration=3
mice m1 r 0.500 duration=2.500" ] || fail "mice flows: $(cat "$TMP/mi/flows.txt")"
[ "$(grep -v '^#' "$TMP/mi/schedule.txt")" = "defaults msg=64000 dscp=26 depth=16
e1 e1 r 0s duration=3s
e2 e2 r 0s duration=3s
mice m1 r 0.500s duration=2.500s msg=1000 depth=1" ] || fail "mice schedule: $(cat "$TMP/mi/schedule.txt")"
[ "$(cut -d' ' -f1,4 "$TMP/mi/hosts.txt" | tr '\n' ' ')" = "e1 s0:e1 e2 s0:e2 m1 s0:m1 r s0:r " ] ||
	fail "mice hosts: $(cat "$TMP/mi/hosts.txt")"
grep -qx 'mice_flow=mice' "$TMP/mi/meta.env" && grep -qx 'bottleneck=s0.r' "$TMP/mi/meta.env" &&
	grep -qx 'window_mode=all' "$TMP/mi/meta.env" || fail "mice meta: $(cat "$TMP/mi/meta.env")"
grep -qx 'mice_flow=' "$TMP/il/meta.env" || fail "incast_long has a mice flow"
"$EXP" --prepare-only -o "$TMP/mi2" --flows "$TMP/one.flows" mice 2>/dev/null && fail "mice --flows: h0 is not a host of mice"
printf 'a e1 r 0 duration=2\n' >"$TMP/mice.flows"
"$EXP" --prepare-only -o "$TMP/mi2" --flows "$TMP/mice.flows" mice >/dev/null || fail "mice --flows"
grep -qx 'mice_flow=' "$TMP/mi2/meta.env" || fail "mice --flows kept the role"
"$EXP" --prepare-only -o "$TMP/x" --hosts 4 mice 2>"$TMP/err" && fail "mice --hosts 4 accepted"
grep -q "mice has three senders" "$TMP/err" || fail "mice --hosts: $(cat "$TMP/err")"
"$EXP" --prepare-only -o "$TMP/x" --duration 1.5 mice 2>"$TMP/err" && fail "mice --duration 1.5 accepted"
grep -q "mice needs at least 2 seconds" "$TMP/err" || fail "mice --duration 1.5: $(cat "$TMP/err")"
"$EXP" --prepare-only -o "$TMP/x" --gen perftest mice 2>"$TMP/err" && fail "mice on perftest accepted"
grep -q "mice runs on the traffic generator" "$TMP/err" || fail "mice --gen perftest: $(cat "$TMP/err")"
"$EXP" --prepare-only -o "$TMP/x" --size 1MB mice 2>/dev/null && fail "--size accepted for mice"
[ ! -e "$TMP/x" ] || fail "a rejected mice run created its results directory"
"$EXP" --prepare-only -o "$TMP/x" nope 2>"$TMP/err" && fail "scenario nope accepted"
grep -q "long_short, incast_long, parking2, victim_b, groups, mice, rate_step)" "$TMP/err" || fail "unknown scenario: $(cat "$TMP/err")"

# rate_step (PCN's E1): f0 at half the rate and the b flows unlimited
# throughout, h1's flow to r1 in six rate-limited steps of --duration / 6,
# each ending 250 ms before the next; the limits are schedule keys
"$EXP" --prepare-only -o "$TMP/rs" --rate 25M --duration 12 rate_step >/dev/null 2>&1 || fail "rate_step rejected"
[ "$(grep -v '^#' "$TMP/rs/schedule.txt")" = "defaults msg=64000 dscp=26 depth=16
f0 h0 r0 0s duration=12.000s rate=12500kbit
b1 b1 r1 0s duration=12.000s
b2 b2 r1 0s duration=12.000s
b3 b3 r1 0s duration=12.000s
f1_50 h1 r1 0.000s duration=1.500s rate=12500kbit msg=4KiB depth=95
f1_40 h1 r1 2.000s duration=1.500s rate=10000kbit msg=4KiB depth=76
f1_30 h1 r1 4.000s duration=1.500s rate=7500kbit msg=4KiB depth=57
f1_25 h1 r1 6.000s duration=1.500s rate=6250kbit msg=4KiB depth=47
f1_20 h1 r1 8.000s duration=1.500s rate=5000kbit msg=4KiB depth=38
f1_10 h1 r1 10.000s duration=1.500s rate=2500kbit msg=4KiB depth=19" ] ||
	fail "rate_step schedule: $(cat "$TMP/rs/schedule.txt")"
grep -qx 'bottleneck=s1.r1' "$TMP/rs/meta.env" && grep -qx 'victim=f0' "$TMP/rs/meta.env" ||
	fail "rate_step meta: $(cat "$TMP/rs/meta.env")"
grep -q '^link s0:s1 s1:s0 rate=25M ' "$TMP/rs/topology.txt" || fail "rate_step link: $(cat "$TMP/rs/topology.txt")"
"$EXP" --prepare-only -o "$TMP/rs2" --hosts 2 rate_step >/dev/null 2>&1 || fail "rate_step --hosts 2"
[ "$(cut -d' ' -f1 "$TMP/rs2/hosts.txt" | tr '\n' ' ')" = "h0 h1 b1 b2 r0 r1 " ] || fail "rate_step hosts: $(cat "$TMP/rs2/hosts.txt")"
# steps of at least 2 s; at 1 Mbit/s the slowest step keeps 2 messages out
"$EXP" --prepare-only -o "$TMP/rs4" --duration 3 --rate 1M rate_step >/dev/null 2>&1 || fail "rate_step --duration 3"
grep -q '^f0 h0 r0 0s duration=12.000s ' "$TMP/rs4/schedule.txt" &&
	grep -q '^f1_10 h1 r1 10.000s duration=1.500s rate=100kbit msg=4KiB depth=2$' "$TMP/rs4/schedule.txt" ||
	fail "rate_step --duration 3: $(cat "$TMP/rs4/schedule.txt")"
"$EXP" --prepare-only -o "$TMP/rs5" --duration 18 rate_step >/dev/null 2>&1 || fail "rate_step --duration 18"
grep -q '^f1_20 h1 r1 12.000s duration=2.500s ' "$TMP/rs5/schedule.txt" ||
	fail "rate_step --duration 18: $(cat "$TMP/rs5/schedule.txt")"
"$EXP" --prepare-only -o "$TMP/x" --gen perftest rate_step 2>"$TMP/err" && fail "rate_step on perftest accepted"
grep -q "rate_step runs on the traffic generator" "$TMP/err" || fail "rate_step --gen perftest: $(cat "$TMP/err")"
printf 'a h0 r0 0 duration=2\n' >"$TMP/rs.flows"
"$EXP" --prepare-only -o "$TMP/rs3" --flows "$TMP/rs.flows" rate_step >/dev/null 2>&1 || fail "rate_step --flows"
grep -q 'rate=' "$TMP/rs3/schedule.txt" && fail "rate_step --flows kept the scenario's rates: $(cat "$TMP/rs3/schedule.txt")"
grep -qx 'victim=' "$TMP/rs3/meta.env" || fail "rate_step --flows kept the victim"

# parking2 (ACCurate's parking lot): h1 .. h(N-1) under s0, hN under s1
# beside r, every link at --rate, every flow to r for --duration
"$EXP" --prepare-only -o "$TMP/p2" --hosts 4 --rate 25M --duration 3 parking2 >/dev/null ||
	fail "parking2 rejected"
grep -q '^link s0:s1 s1:s0 rate=25M ' "$TMP/p2/topology.txt" || fail "parking2 link: $(grep ^link "$TMP/p2/topology.txt")"
[ "$(grep -c '^port s0:h[0-9]' "$TMP/p2/topology.txt")" = 3 ] &&
	grep -q '^port s1:h4 ' "$TMP/p2/topology.txt" && grep -q '^port s1:r ' "$TMP/p2/topology.txt" ||
	fail "parking2 hosts: $(grep ^port "$TMP/p2/topology.txt")"
[ "$(cat "$TMP/p2/flows.txt")" = "$(printf 'f%d h%d r 0 duration=3\n' 1 1 2 2 3 3 4 4)" ] ||
	fail "parking2 flows: $(cat "$TMP/p2/flows.txt")"
grep -qx 'bottleneck=s1.r' "$TMP/p2/meta.env" && grep -qx 'window_mode=all' "$TMP/p2/meta.env" ||
	fail "parking2 meta"
"$EXP" --prepare-only -o "$TMP/x" --hosts 1 parking2 2>"$TMP/err" && fail "parking2 --hosts 1 accepted"
grep -q "remote and a local sender" "$TMP/err" || fail "parking2 --hosts 1: $(cat "$TMP/err")"
# victim_b (ACCurate's Exp. B): f1 and f4 from h1, f3 from a fifth of
# --duration, f4 from 0.45 to 0.7 of it; s0 -> s1 the bottleneck
"$EXP" --prepare-only -o "$TMP/vb" --duration 10 victim_b >/dev/null || fail "victim_b rejected"
[ "$(cat "$TMP/vb/flows.txt")" = "$(printf '%s\n' 'f1 h1 d1 0 duration=10' 'f2 h2 d2 0 duration=10' \
	'f3 h3 d3 2.000 duration=8.000' 'f4 h1 d4 4.500 duration=2.500')" ] ||
	fail "victim_b flows: $(cat "$TMP/vb/flows.txt")"
grep -q '^port s0:d1 ' "$TMP/vb/topology.txt" && grep -q '^port s1:d4 ' "$TMP/vb/topology.txt" ||
	fail "victim_b hosts: $(grep ^port "$TMP/vb/topology.txt")"
grep -qx 'bottleneck=s0.s1' "$TMP/vb/meta.env" && grep -qx 'victim=f1' "$TMP/vb/meta.env" ||
	fail "victim_b meta"
"$EXP" --prepare-only -o "$TMP/x" --hosts 4 victim_b 2>/dev/null && fail "victim_b --hosts accepted"
# groups (ACCurate's Exp. C): a1 .. aN on s0, b1 .. bN on s1, one link;
# every host sends to other hosts of both groups; --load is each host's
# share of its link, so the generator's rate is 2N links
"$EXP" --prepare-only -o "$TMP/g" --hosts 2 --rate 25M --duration 3 --cdf accurate_c --load 0.4 groups \
	2>"$TMP/err" || fail "groups rejected: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "groups warned: $(cat "$TMP/err")"
[ "$(grep '^port' "$TMP/g/topology.txt" | cut -d' ' -f2 | tr '\n' ' ')" = "s0:a1 s0:a2 s1:b1 s1:b2 " ] ||
	fail "groups hosts: $(grep ^port "$TMP/g/topology.txt")"
grep -q '^link s0:s1 s1:s0 rate=25M ' "$TMP/g/topology.txt" || fail "groups link"
grep -q 'load 0.4 of the_2x2_host_links at 100Mbit' "$TMP/g/poisson.txt" ||
	fail "groups load: $(grep Poisson "$TMP/g/poisson.txt")"
n=$(wc -l <"$TMP/g/flows.txt")
[ "$n" -gt 10 ] || fail "groups: only $n flows"
awk '$2 == $3 || $2 !~ /^[ab][12]$/ || $3 !~ /^[ab][12]$/ || $5 !~ /^bytes=(20000|1000000)$/' \
	"$TMP/g/flows.txt" | grep -q . && fail "groups: bad flows: $(head -3 "$TMP/g/flows.txt")"
for pair in 'a. b.' 'b. a.' 'a. a.' 'b. b.'; do
	grep -q "^p[0-9]* ${pair% *} ${pair#* } " "$TMP/g/flows.txt" || fail "groups: no flow ${pair/ /->}"
done
grep -qx 'bottleneck=s0.s1' "$TMP/g/meta.env" && grep -qx 'window_mode=any' "$TMP/g/meta.env" ||
	fail "groups meta"
"$EXP" --prepare-only -o "$TMP/x" --hosts 1 groups 2>"$TMP/err" && fail "groups --hosts 1 accepted"
grep -q "2..8 hosts per group" "$TMP/err" || fail "groups --hosts 1: $(cat "$TMP/err")"
"$EXP" --prepare-only -o "$TMP/x" --hosts 9 groups 2>/dev/null && fail "groups --hosts 9 accepted"
"$EXP" --prepare-only -o "$TMP/x" --gen perftest groups 2>/dev/null && fail "groups on perftest accepted"
# --accurate-hysteresis: the rate units' hysteresis variant, on any algorithm
"$EXP" --prepare-only -o "$TMP/ah" --algo none --accurate-hysteresis fairness >/dev/null ||
	fail "--accurate-hysteresis rejected"
grep -qx 'accurate \*:\* hysteresis=on' "$TMP/ah/topology.txt" ||
	fail "--accurate-hysteresis: $(grep ^accurate "$TMP/ah/topology.txt")"
"$EXP" --prepare-only -o "$TMP/x" --accurate-hysteresis --no-accurate fairness 2>"$TMP/err" &&
	fail "--accurate-hysteresis with --no-accurate accepted"
grep -q "exclude each other" "$TMP/err" || fail "--accurate-hysteresis --no-accurate: $(cat "$TMP/err")"
# --shape-hosts: the hosts' uplinks shaped (uplink *:*), off by default
"$EXP" --prepare-only -o "$TMP/sh" --algo none --shape-hosts victim_b >/dev/null ||
	fail "--shape-hosts rejected"
grep -qx 'uplink \*:\*' "$TMP/sh/topology.txt" || fail "--shape-hosts: no uplink line"
! grep -q '^uplink' "$TMP/ah/topology.txt" || fail "uplink without --shape-hosts"
"$EXP" --prepare-only -o "$TMP/x" --shape-hosts --no-pfc fairness 2>"$TMP/err" &&
	fail "--shape-hosts with --no-pfc accepted"
grep -q "shape-hosts needs PFC" "$TMP/err" || fail "--shape-hosts --no-pfc: $(cat "$TMP/err")"

# scripts/eval: a bad list line is rejected before build/eval is touched
printf 'ok incast none\nbad incast none -o x\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted -o"
grep -q "list:2: -o is set by scripts/eval" "$TMP/err" || fail "eval: $(cat "$TMP/err")"
printf 'twice incast dcqcn,hpcc:base_rtt_us=2000,dcqcn\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted an algorithm twice"
grep -q "list:1: run 'dcqcn' appears twice" "$TMP/err" || fail "eval twice: $(cat "$TMP/err")"
printf 'bad incast dcqcn,hpcc:base_rtt_us\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted a parameter without a value"
grep -q "list:1: scripts/experiment rejected the line" "$TMP/err" || fail "eval bad param: $(cat "$TMP/err")"

# ALGO@LABEL: one algorithm twice with labels; a label twice, an empty
# or bad label or a bad algorithm name are rejected, naming the line.
# Every list here ends in a bad line, so that scripts/eval stops before
# the VM (and build/eval) even if it accepted every line before it.
bad_line='zz incast none -o x'
printf 'sw incast hpcc@a1:w_ai_bytes=100,hpcc@a2:w_ai_bytes=200,dcqcn\n%s\n' "$bad_line" >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted -o"
grep -q "list:2: -o is set by scripts/eval" "$TMP/err" || fail "eval @LABEL line rejected: $(cat "$TMP/err")"
for bad in 'hpcc@a1,hpcc@a1:w_ai_bytes=5|run '"'a1'"' appears twice' \
	'dcqcn,hpcc@dcqcn|run '"'dcqcn'"' appears twice' \
	'hpcc@|bad label '"''" 'hpcc@.x|bad label '"'.x'" 'hpcc@a/b|bad label '"'a/b'" \
	'HP@x|not an algorithm name: '"'HP'"; do
	printf 'l incast %s\n%s\n' "${bad%%|*}" "$bad_line" >"$TMP/list"
	RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted ${bad%%|*}"
	grep -q "list:1: ${bad#*|}" "$TMP/err" || fail "eval ${bad%%|*}: $(cat "$TMP/err")"
done
# the labels and parameters reach the runs (scripts/eval's trace)
printf 'sw incast hpcc@a1:w_ai_bytes=100,hpcc@a2:w_ai_bytes=200,dcqcn --rate 25M\n%s\n' "$bad_line" >"$TMP/list"
RXECC_TOP=$TOP bash -x "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/trace" && fail "eval accepted $bad_line"
grep -q -- "--algo hpcc --label a1 --param w_ai_bytes=100 " "$TMP/trace" &&
	grep -q -- "--algo hpcc --label a2 --param w_ai_bytes=200 " "$TMP/trace" &&
	grep -q -- "--algo dcqcn --label dcqcn --duration" "$TMP/trace" ||
	fail "eval: the runs' labels and parameters: $(grep -- '--prepare-only' "$TMP/trace")"

# a NAME on several lines: one scenario with the runs of every line, each
# with its own line's options; another scenario under the same NAME, or a
# label twice within the NAME, rejected
printf 'g incast none --rate 25M\ng incast none@s:x --rate 25M --sfc\n%s\n' "$bad_line" >"$TMP/list"
sed -i 's/none@s:x/none@s/' "$TMP/list"
RXECC_TOP=$TOP bash -x "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/trace" && fail "eval accepted $bad_line"
grep -q "list:3: -o is set by scripts/eval" "$TMP/trace" || fail "eval: a NAME twice: $(grep -v '^+' "$TMP/trace")"
grep -q -- "/g/none --algo none --label none --duration 3 --rate 25M incast$" "$TMP/trace" &&
	grep -q -- "/g/s --algo none --label s --duration 3 --rate 25M --sfc incast$" "$TMP/trace" ||
	fail "eval: a NAME twice: $(grep -- '--prepare-only' "$TMP/trace")"
printf 'g incast none\ng incast2 none@s\n%s\n' "$bad_line" >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted $bad_line"
grep -q "list:2: 'g' is scenario incast on an earlier line, not incast2" "$TMP/err" ||
	fail "eval: a NAME with two scenarios: $(cat "$TMP/err")"
printf 'g incast none\ng incast none --sfc\n%s\n' "$bad_line" >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted $bad_line"
grep -q "list:2: run 'none' appears twice" "$TMP/err" || fail "eval: a label twice in a NAME: $(cat "$TMP/err")"

# qemu: and um: lines: each runs on its testbed only, with the testbed
# passed to the runs; another prefix, --testbed in a line or a bad
# --testbed rejected
printf 'qemu: t incast hpcc:base_rtt_us=8000 --rate 25M\num: t incast hpcc:base_rtt_us=2000 --rate 25M\n%s\n' \
	"$bad_line" >"$TMP/list"
for tb in qemu um; do
	RXECC_TOP=$TOP bash -x "$TOP/scripts/eval" --list "$TMP/list" --testbed $tb 2>"$TMP/trace" &&
		fail "eval accepted $bad_line"
	grep -q "list:3: -o is set by scripts/eval" "$TMP/trace" || fail "eval $tb: $(grep -v '^+' "$TMP/trace")"
	want=8000 other=2000
	[ $tb = qemu ] || want=2000 other=8000
	grep -q -- "--prepare-only --testbed $tb -o .*/t/hpcc --algo hpcc --label hpcc --param base_rtt_us=$want " \
		"$TMP/trace" && ! grep -- "--prepare-only" "$TMP/trace" | grep -q -- "base_rtt_us=$other " ||
		fail "eval --testbed $tb: $(grep -- '--prepare-only' "$TMP/trace")"
done
printf 'kvm: t incast none\n%s\n' "$bad_line" >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted kvm:"
grep -q "list:1: 'kvm:' is not a testbed (qemu: or um:)" "$TMP/err" || fail "eval kvm:: $(cat "$TMP/err")"
printf 't incast none --testbed um\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted --testbed in a line"
grep -q "list:1: --testbed is set by scripts/eval" "$TMP/err" || fail "eval --testbed line: $(cat "$TMP/err")"
RXECC_TOP=$TOP "$TOP/scripts/eval" --testbed kvm 2>"$TMP/err" && fail "eval accepted --testbed kvm"
grep -q -- "--testbed: qemu or um, got 'kvm'" "$TMP/err" || fail "eval --testbed kvm: $(cat "$TMP/err")"
RXECC_TOP=$TOP "$TOP/scripts/eval" --testbed um --kvm 2>"$TMP/err" && fail "eval accepted --kvm on um"
grep -q -- "--kvm: a QEMU option" "$TMP/err" || fail "eval um --kvm: $(cat "$TMP/err")"

# paper: NAME TEXT: a bad name, no text, or a NAME no line runs, rejected
# with the line's number (the last after every line is read: before the
# VM and build/eval)
printf 'g incast none\npaper: g/x some text\n%s\n' "$bad_line" >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted a bad paper: name"
grep -q "list:2: bad name 'g/x'" "$TMP/err" || fail "eval: paper: bad name: $(cat "$TMP/err")"
printf 'g incast none\npaper: g\n%s\n' "$bad_line" >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted paper: without text"
grep -q "list:2: expected paper: NAME TEXT" "$TMP/err" || fail "eval: paper: no text: $(cat "$TMP/err")"
printf 'g incast none --hosts 2\npaper: g Fig. 1\npaper: h Fig. 2\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" --only zz 2>"$TMP/err" && fail "eval accepted paper: for no scenario"
grep -q "list:3: paper: names 'h', which no line of the list runs" "$TMP/err" ||
	fail "eval: paper: unknown name: $(cat "$TMP/err")"
# every scenario of the shipped list says what it reproduces
for name in $(awk '!/^[[:space:]]*(#|$)/ && $1 != "paper:" { print ($1 ~ /^(qemu|um):$/ ? $2 : $1) }' \
	"$TOP/scripts/eval.list" | sort -u); do
	grep -q "^paper: $name [^ ]" "$TOP/scripts/eval.list" || fail "eval.list: no paper: line for $name"
done

# the shipped scripts/eval.list: every line accepted (the bad line after
# them is the first rejected), the PCN runs with their T
cp "$TOP/scripts/eval.list" "$TMP/list"
echo "$bad_line" >>"$TMP/list"
n=$(wc -l <"$TMP/list")
RXECC_TOP=$TOP bash -x "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/trace" && fail "eval accepted $bad_line"
grep -q "^eval: .*list:$n: -o is set by scripts/eval" "$TMP/trace" ||
	fail "eval.list: a line before the last rejected: $(grep -v '^+' "$TMP/trace")"
for name in pcn_victim pcn_incast pcn_fairness pcn_scale pcn_parking pcn_hadoop; do
	grep -q -- "/$name/pcn --algo pcn --label pcn --param period_us=10000 " "$TMP/trace" ||
		fail "eval.list: no PCN run with T = 10 ms in $name"
done
# SFC's E1: the four runs of one scenario, CC off (each sender paced at its
# line rate by fixed), each with its variant
for run in 'line-rate --algo fixed --label line-rate --param rate_kbps=25000 --duration 3 --hosts 4 --rate 25M --pfc 400KB,200KB,200KB incast2' \
	'sfc-egress --algo fixed .* --sfc --sfc-variant egress incast2' \
	'sfc-ingress --algo fixed .* --sfc --sfc-variant ingress incast2' \
	'sfc-cache --algo fixed .* --sfc incast2'; do
	grep -q -- "/sfc_e1/$run$" "$TMP/trace" || fail "eval.list: no sfc_e1 run '$run'"
done

# scripts/demo: --help shows the whole header; in a copy of scripts/ whose
# vm-run records its arguments and fails, the default runs are prepared
# (PCN with T = 10 ms and NP-ECN) and ACC runs last, the compatibility
# line's algorithm
want=$(sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$TOP/scripts/demo")
[ "$("$TOP/scripts/demo" --help)" = "$want" ] || fail "demo --help is not the whole header"
mkdir "$TMP/top"
cp -r "$TOP/scripts" "$TMP/top/"
cat >"$TMP/top/scripts/vm-run" <<'STUB'
#!/bin/sh
printf '%s\n' "$@" >"$(dirname "$0")/../vm-run.args"
exit 1
STUB
"$TMP/top/scripts/demo" >/dev/null 2>"$TMP/err" && fail "demo ran without a VM"
grep -q "the demo failed in the VM" "$TMP/err" || fail "demo: $(cat "$TMP/err")"
d=$TMP/top/build/demo
[ "$(sed -n '/^--compat$/,$p' "$TMP/top/vm-run.args" | tail -n +3 | tr '\n' ' ')" = \
	"$d/none $d/dcqcn $d/dcqcn+sfc $d/hpcc $d/pcn $d/accurate $d/acc " ] ||
	fail "demo: the runs given to the VM: $(tr '\n' ' ' <"$TMP/top/vm-run.args")"
grep -qx 'params=period_us=10000' "$d/pcn/meta.env" && grep -qx 'npecn=1' "$d/pcn/meta.env" ||
	fail "demo: pcn: $(grep -E '^(params|npecn)=' "$d/pcn/meta.env")"
grep -qx 'params=period_us=4000' "$d/acc/meta.env" || fail "demo: acc: $(grep '^params=' "$d/acc/meta.env")"
# ACCurate: its RRP, a rate unit on every port, no ECN marks
grep -qx 'params=rrp_us=10000' "$d/accurate/meta.env" && grep -qx 'accurate=1' "$d/accurate/meta.env" &&
	grep -q '^accurate \*:\*$' "$d/accurate/topology.txt" && ! grep -q '^ecn ' "$d/accurate/topology.txt" ||
	fail "demo: accurate: $(grep -E '^(params|accurate)=' "$d/accurate/meta.env")"
# the SFC row: DCQCN with --sfc (the rule's thresholds at 100M), its label;
# the other rows without SFC
grep -qx 'algo=dcqcn' "$d/dcqcn+sfc/meta.env" && grep -qx 'label=dcqcn+sfc' "$d/dcqcn+sfc/meta.env" &&
	grep -qx 'sfc=50000,25000' "$d/dcqcn+sfc/meta.env" && grep -q '^sfc ' "$d/dcqcn+sfc/topology.txt" ||
	fail "demo: dcqcn+sfc: $(grep -E '^(algo|label|sfc)=' "$d/dcqcn+sfc/meta.env")"
grep -qx 'sfc=' "$d/dcqcn/meta.env" || fail "demo: dcqcn has SFC"
# a row's options and label; options the demo sets rejected
"$TMP/top/scripts/demo" --algos 'none@x:--sfc:--sfc-variant=egress' >/dev/null 2>&1 && fail "demo ran without a VM"
grep -qx 'sfc_variant=egress' "$d/x/meta.env" && grep -qx 'label=x' "$d/x/meta.env" ||
	fail "demo: a row's options: $(grep -E '^(label|sfc)' "$d/x/meta.env")"
"$TMP/top/scripts/demo" --algos 'none:--hosts=2' >/dev/null 2>"$TMP/err" && fail "demo accepted --hosts in a row"
grep -q -- "--hosts is set by the demo" "$TMP/err" || fail "demo: --hosts in a row: $(cat "$TMP/err")"
"$TMP/top/scripts/demo" --algos 'dcqcn,dcqcn:--sfc' >/dev/null 2>"$TMP/err" && fail "demo accepted dcqcn twice"
grep -q "'dcqcn' appears twice" "$TMP/err" || fail "demo: a label twice: $(cat "$TMP/err")"

# incast2 and --sfc: the senders under s0, the receiver under s1, the s0-s1
# link at --rate x --hosts; --sfc adds one sfc line (default thresholds
# from --rate: 2 ms of it, at least 4400 bytes, Q_TH twice that) and the
# run is otherwise the same; --sfc-variant selects cache, ingress, egress
"$EXP" --prepare-only -o "$TMP/i2" --hosts 3 incast2 >/dev/null || fail "incast2 rejected"
grep -q '^link s0:s1 s1:s0 rate=300000000 ' "$TMP/i2/topology.txt" || fail "incast2 link: $(grep ^link "$TMP/i2/topology.txt")"
[ "$(grep -c '^port s0:h[0-9]' "$TMP/i2/topology.txt")" = 3 ] && grep -q '^port s1:r ' "$TMP/i2/topology.txt" ||
	fail "incast2 hosts: $(grep ^port "$TMP/i2/topology.txt")"
grep -qx 'bottleneck=s1.r' "$TMP/i2/meta.env" && grep -qx 'sfc=' "$TMP/i2/meta.env" || fail "incast2 meta"
! grep -q '^sfc' "$TMP/i2/topology.txt" || fail "sfc without --sfc"
"$EXP" --prepare-only -o "$TMP/i2s" --hosts 3 --sfc incast2 >/dev/null || fail "--sfc rejected"
[ "$(diff "$TMP/i2/topology.txt" "$TMP/i2s/topology.txt" | grep -c '^[<>]')" = 1 ] ||
	fail "--sfc changed more than one line: $(diff "$TMP/i2/topology.txt" "$TMP/i2s/topology.txt")"
grep -qx 'sfc \*:\* q_th=50000B q_tg=25000B prio=3 max_pause=50ms' "$TMP/i2s/topology.txt" ||
	fail "--sfc at 100M: $(grep ^sfc "$TMP/i2s/topology.txt")"
grep -qx 'sfc=50000,25000' "$TMP/i2s/meta.env" && grep -qx 'sfc_variant=cache' "$TMP/i2s/meta.env" ||
	fail "--sfc meta: $(grep ^sfc "$TMP/i2s/meta.env")"
"$EXP" --prepare-only -o "$TMP/i2e" --rate 1M --sfc 20KB,8KB --sfc-variant egress incast2 >/dev/null ||
	fail "--sfc Q_TH,Q_TG rejected"
grep -qx 'sfc \*:\* q_th=20000B q_tg=8000B prio=3 max_pause=50ms variant=egress' "$TMP/i2e/topology.txt" ||
	fail "--sfc 20KB,8KB egress: $(grep ^sfc "$TMP/i2e/topology.txt")"
"$EXP" --prepare-only -o "$TMP/i2i" --rate 1M --sfc --sfc-variant ingress incast >/dev/null ||
	fail "--sfc-variant ingress rejected"
grep -qx 'sfc \*:\* q_th=8800B q_tg=4400B prio=3 max_pause=50ms cache=off' "$TMP/i2i/topology.txt" ||
	fail "--sfc at 1M (the 4 MTU floor): $(grep ^sfc "$TMP/i2i/topology.txt")"
for bad in "--sfc 10KB,20KB" "--sfc 10KB" "--sfc-variant cache" "--sfc --sfc-variant both"; do
	# shellcheck disable=SC2086
	"$EXP" --prepare-only -o "$TMP/bad" $bad incast2 2>/dev/null && fail "accepted: $bad"
done
[ ! -e "$TMP/bad" ] || fail "a rejected --sfc run created its results directory"

[ "$failures" = 0 ] || exit 1
echo "ok"
