#!/usr/bin/env bash
# scripts/experiment --prepare-only and scripts/eval without a VM: inputs
# are checked before anything is written, errors name the line, and the
# generated schedule starts the flows together.
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

# scripts/eval: a bad list line is rejected before build/eval is touched
printf 'ok incast none\nbad incast none -o x\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted -o"
grep -q "list:2: -o is set by scripts/eval" "$TMP/err" || fail "eval: $(cat "$TMP/err")"
printf 'twice incast dcqcn,hpcc:base_rtt_us=2000,dcqcn\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted an algorithm twice"
grep -q "list:1: algorithm 'dcqcn' appears twice" "$TMP/err" || fail "eval twice: $(cat "$TMP/err")"
printf 'bad incast dcqcn,hpcc:base_rtt_us\n' >"$TMP/list"
RXECC_TOP=$TOP "$TOP/scripts/eval" --list "$TMP/list" 2>"$TMP/err" && fail "eval accepted a parameter without a value"
grep -q "list:1: scripts/experiment rejected the line" "$TMP/err" || fail "eval bad param: $(cat "$TMP/err")"

[ "$failures" = 0 ] || exit 1
echo "ok"
