#!/usr/bin/env bash
# Tests of scripts/report on small synthetic results directories with known
# figures. Usage: report_test.sh REPORT CASE (CASE is one of the functions
# named case_*; "all" runs every case). Exit 77 when a case needs gnuplot
# and it is not installed.
set -euo pipefail

REPORT=${1:?usage: report_test.sh REPORT CASE}
CASE=${2:?usage: report_test.sh REPORT CASE}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/report-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
failures=0

fail() {
	echo "FAIL [$CASE]: $*" >&2
	failures=$((failures + 1))
}

# mkrun DIR [key=value ...]: writes a results directory. Samples every
# 1000 us from t0_us, samples 0..nsamp-1. Every counter of the flows and of
# the bottleneck grows in samples a0..a1 (so the active period is
# t0+a0*1000 .. t0+a1*1000 us) and starts at base (to test counters past
# 2^32). Keys:
#   flows   NAME:INGRESS:MBPS[:STATUS[:FCT[:GOODPUT_MBPS]]],... (rx rate
#           MBPS over the active period; goodput defaults to MBPS)
#   btx     bottleneck tx bytes per sample (default: sum of flow bytes)
#   bfr     bottleneck tx frames per sample (default 10)
#   qrows   bottleneck data-priority rows K:BYTES[:PAUSED],... (others absent)
#   meta    extra meta.env lines separated by ';'
#   hosts   HOST:NAME=V/NAME=V,... host counter files
mkrun() {
	local dir=$1
	shift
	local flows='f1:s0.h1:10,f2:s0.h2:10' btx='' bfr=10 qrows='' meta='' hosts=''
	local nsamp=120 a0=10 a1=109 t0=5000000 base=0 kv
	for kv in "$@"; do
		case $kv in
		flows=* | btx=* | bfr=* | qrows=* | meta=* | hosts=* | nsamp=* | a0=* | a1=* | t0=* | base=*)
			local "$kv" ;;
		*) echo "mkrun: bad argument $kv" >&2; exit 2 ;;
		esac
	done
	mkdir -p "$dir/fabric" "$dir/hosts"
	{
		echo "scenario=incast"
		echo "algo=dcqcn"
		echo "link_rate_bps=100000000"
		echo "overhead=24"
		echo "bottleneck=s0.r"
		echo "data_prio=3"
		echo "ecn=10KB,60KB,0.2"
		echo "params="
		echo "victim="
		echo "window_start_us="
		echo "window_end_us="
		tr ';' '\n' <<<"$meta"
	} >"$dir/meta.env"
	awk -v flows="$flows" -v btx="$btx" -v bfr="$bfr" -v qrows="$qrows" \
		-v nsamp="$nsamp" -v a0="$a0" -v a1="$a1" -v t0="$t0" -v base="$base" \
		-v dir="$dir" '
	function grown(k) { return k < a0 ? 0 : (k > a1 ? a1 : k) - a0 + 1 }
	BEGIN {
		nfl = split(flows, F, ",")
		sum = 0
		fl = dir "/flows.csv"
		print "flow,src,dst,ingress,start_s,end_s,bytes,gbps,fct_s,status" > fl
		for (i = 1; i <= nfl; i++) {
			n = split(F[i], x, ":")
			name[i] = x[1]
			ing[i] = x[2]
			per[i] = x[3] * 125
			sum += per[i]
			st = n >= 4 ? x[4] : "ok"
			fct = n >= 5 ? x[5] : ""
			gp = n >= 6 ? x[6] : x[3]
			printf "%s,h%d,h0,%s,%.3f,%.3f,%.0f,%s,%s,%s\n", x[1], i, x[2],
			       (t0 + a0 * 1000) / 1e6, (t0 + a1 * 1000) / 1e6,
			       per[i] * (a1 - a0 + 1), st == "failed" ? "" : gp / 1000, fct, st > fl
		}
		if (btx == "")
			btx = sum
		pf = dir "/fabric/ports.csv"
		print "time_us,switch,port,name,rx_frames,rx_bytes,tx_frames,tx_bytes,tx_control_frames,mac_control_rx" > pf
		qf = dir "/fabric/queues.csv"
		print "time_us,switch,port,name,prio,queue_bytes,queue_pkts,paused,tx_pkts,tx_bytes,ecn_marks,xoff_sent,xon_sent,pause_rx,paused_us,drops" > qf
		nq = split(qrows, Q, ",")
		for (i = 1; i <= nq; i++) {
			split(Q[i], x, ":")
			qb[x[1]] = x[2]
			qp[x[1]] = x[3] + 0
		}
		pus = 0
		ecn = 0
		for (k = 0; k < nsamp; k++) {
			t = t0 + k * 1000
			g = grown(k)
			for (i = 1; i <= nfl; i++)
				printf "%d,s0,%d,%s,%.0f,%.0f,0,0,0,0\n", t, i, substr(ing[i], 4),
				       base + g * 10, base + g * per[i], 0 > pf
			printf "%d,s0,9,r,0,0,%.0f,%.0f,0,0\n", t, base + g * bfr, base + g * btx > pf
			# Rows that must not count: other priority, other port.
			printf "%d,s0,9,r,0,900000,600,0,0,0,0,0,0,0,0,0\n", t > qf
			printf "%d,s0,1,h1,3,800000,500,1,0,0,0,0,0,0,0,0\n", t > qf
			if (k in qb) {
				if (qp[k])
					pus += 1000
				ecn += 2
				printf "%d,s0,9,r,3,%d,%d,%d,%.0f,%.0f,%d,0,0,0,%d,0\n", t, qb[k],
				       int(qb[k] / 1000), qp[k], base + g, base + g * btx, ecn, pus > qf
			}
		}
	}'
	cat >"$dir/fabric/summary.flat" <<FLAT
time_us 5200000
s0.h1.attach /tmp/fabric h1.sock
s0.r.attach -
s0.r.q3.max_queue_bytes 9000
total_drops 7
pfc_frames_sent 11
pfc_frames_rx 13
s0.r.q3.ecn_marks 100
s0.h1.q3.ecn_marks 23
FLAT
	local h names
	if [ -n "$hosts" ]; then
		for h in ${hosts//,/ }; do
			names=${h#*:}
			tr '/' '\n' <<<"${names//=/ }" >"$dir/hosts/${h%%:*}.counters"
		done
	fi
}

# val DIR KEY: the value of KEY in DIR/summary.csv.
val() {
	awk -F, -v k="$2" '$1 == k { print $2; found = 1 } END { exit !found }' "$1/summary.csv" ||
		echo "<no $2>"
}

expect() {
	local what=$1 got=$2 want=$3
	[ "$got" = "$want" ] || fail "$what: got '$got', want '$want'"
}

# report ARGS...: runs the report, output in $TMP/out; fails the case on a
# non-zero exit.
report() {
	if ! "$REPORT" "$@" >"$TMP/out" 2>"$TMP/err"; then
		fail "scripts/report $* exited non-zero: $(cat "$TMP/err")"
		return 1
	fi
}

# report_fails PATTERN ARGS...: the report must exit 1 and say PATTERN.
report_fails() {
	local pat=$1 rc=0
	shift
	"$REPORT" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	[ "$rc" = 1 ] || fail "scripts/report $* exited $rc, want 1"
	grep -qF -- "$pat" "$TMP/err" || fail "scripts/report $*: message lacks '$pat': $(cat "$TMP/err")"
}

is_png() {
	[ -s "$1" ] || { fail "$1: missing or empty"; return; }
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$1: not a PNG (bad magic bytes)"
}

need_gnuplot() {
	command -v gnuplot >/dev/null || { echo "SKIP [$CASE]: gnuplot not installed"; exit 77; }
}

case_jain() {
	local r=$TMP/equal
	mkrun "$r" flows='f1:s0.h1:10,f2:s0.h2:10,f3:s0.h3:10,f4:s0.h4:10'
	report --no-plots "$r" || return
	expect "equal rates: jain" "$(val "$r" jain)" 1.0000
	expect "equal rates: jain_flows" "$(val "$r" jain_flows)" 4
	expect "f3 fabric rate" "$(val "$r" flow.f3.rate_mbps)" 10.000

	r=$TMP/half
	mkrun "$r" flows='f1:s0.h1:10,f2:s0.h2:0'
	report --no-plots "$r" || return
	expect "rates 10,0: jain" "$(val "$r" jain)" 0.5000

	# (10+20+30+40)^2 / (4 * (100+400+900+1600)) = 10000/12000
	r=$TMP/ramp
	mkrun "$r" flows='f1:s0.h1:10,f2:s0.h2:20,f3:s0.h3:30,f4:s0.h4:40'
	report --no-plots "$r" || return
	expect "rates 10..40: jain" "$(val "$r" jain)" 0.8333
	expect "rates 10..40: f4 rate" "$(val "$r" flow.f4.rate_mbps)" 40.000
	expect "aggregate goodput" "$(val "$r" goodput_mbps)" 100.000

	r=$TMP/zero
	mkrun "$r" flows='f1:s0.h1:0,f2:s0.h2:0' btx=5000
	report --no-plots "$r" || return
	expect "all rates 0: jain undefined" "$(val "$r" jain)" n/a
}

case_util() {
	# 11000 bytes and 10 frames per 1 ms sample on a 100 Mbit/s link:
	# (11000 + 10 * 24) * 8 bits / 1 ms = 89.92 Mbit/s. Counters start past 2^32.
	local r=$TMP/util
	mkrun "$r" btx=11000 bfr=10 base=5000000000000
	report --no-plots "$r" || return
	expect "util" "$(val "$r" util)" 0.8992
	expect "bottleneck tx" "$(val "$r" bottleneck_tx_mbps)" 88.000
	expect "window start (first growth)" "$(val "$r" window_start_us)" 5010000
	expect "window end (last growth)" "$(val "$r" window_end_us)" 5109000
	expect "flow rate past 2^32" "$(val "$r" flow.f1.rate_mbps)" 10.000

	# A repeated sample (the telemetry writes one after a stall) changes nothing.
	awk -F, 'NR > 1 && $1 == 5050000 { print }' "$r/fabric/ports.csv" >"$TMP/rep"
	awk -F, 'NR > 1 && $1 == 5050000 { print }' "$r/fabric/queues.csv" >"$TMP/repq"
	awk -v f="$TMP/rep" -F, '{ print } $1 == 5050000 && $4 == "r" { while ((getline l < f) > 0) print l }' \
		"$r/fabric/ports.csv" >"$TMP/p" && mv "$TMP/p" "$r/fabric/ports.csv"
	awk -v f="$TMP/repq" -F, '{ print } $1 == 5050000 && $4 == "h1" { while ((getline l < f) > 0) print l }' \
		"$r/fabric/queues.csv" >"$TMP/q" && mv "$TMP/q" "$r/fabric/queues.csv"
	[ "$(grep -c '^5050000,s0,9,r,0,' "$r/fabric/ports.csv")" = 2 ] || fail "fixture: no repeated sample"
	report --no-plots "$r" || return
	expect "util with a repeated sample" "$(val "$r" util)" 0.8992
	expect "queue samples with a repeated sample" "$(val "$r" queue_samples)" 100

	r=$TMP/util0
	mkrun "$r" btx=11000 bfr=10 meta='overhead=0'
	report --no-plots "$r" || return
	expect "util without overhead" "$(val "$r" util)" 0.8800
}

case_window() {
	# Rates are constant over the active period; a window inside it must
	# give the same figures, one outside the samples must fail.
	local r=$TMP/win
	mkrun "$r" meta='window_start_us=5050500;window_end_us=5080000' \
		qrows='40:5000,50:7000,60:9000,85:99000'
	report --no-plots "$r" || return
	expect "window rounded inward: start" "$(val "$r" window_start_us)" 5051000
	expect "window end" "$(val "$r" window_end_us)" 5080000
	expect "window seconds" "$(val "$r" window_s)" 0.029000
	expect "rate in window" "$(val "$r" flow.f2.rate_mbps)" 10.000
	expect "queue max in window (85 is outside)" "$(val "$r" queue_max_kb)" 9.000

	r=$TMP/win_bad
	mkrun "$r" meta='window_start_us=9000000;window_end_us=9100000'
	report_fails "fewer than two samples" --no-plots "$r"
	mkrun "$r" meta='window_start_us=5080000;window_end_us=5050000'
	report_fails "is empty" --no-plots "$r"
}

case_queue() {
	# Window = samples 10..109: 100 queue samples. The queue appears at
	# sample 60 with 1..50 KB; the 50 samples before count as 0. Nearest
	# rank: p50 = 50th smallest = 0, p95 = 95th = 45 KB, p99 = 99th = 49 KB,
	# max 50 KB. (Without the zeros p50 would be 25 KB; interpolation would
	# give p99 49.01 KB.)
	local r=$TMP/queue q='' k
	for k in $(seq 60 109); do
		q+="${q:+,}$k:$(((k - 59) * 1000))"
	done
	# A sample before the window that must not count.
	mkrun "$r" qrows="5:999000,$q"
	report --no-plots "$r" || return
	expect "queue samples" "$(val "$r" queue_samples)" 100
	expect "p50" "$(val "$r" queue_p50_kb)" 0.000
	expect "p95" "$(val "$r" queue_p95_kb)" 45.000
	expect "p99" "$(val "$r" queue_p99_kb)" 49.000
	expect "max" "$(val "$r" queue_max_kb)" 50.000

	# Ten samples 1..10 KB (window 100..109): p50 = rank 5, p99 = rank 10.
	r=$TMP/queue10
	q=
	for k in $(seq 100 109); do
		q+="${q:+,}$k:$(((110 - k) * 1000))"
	done
	mkrun "$r" qrows="$q" meta='window_start_us=5100000;window_end_us=5109000'
	report --no-plots "$r" || return
	expect "10 samples: p50" "$(val "$r" queue_p50_kb)" 5.000
	expect "10 samples: p99" "$(val "$r" queue_p99_kb)" 10.000
	expect "10 samples: max" "$(val "$r" queue_max_kb)" 10.000

	# Paused samples 70..79 add 1000 us each to the cumulative paused_us.
	r=$TMP/paused
	q=
	for k in $(seq 60 99); do
		q+="${q:+,}$k:1000:$(((k >= 70 && k < 80) ? 1 : 0))"
	done
	mkrun "$r" qrows="$q"
	report --no-plots "$r" || return
	expect "paused time" "$(val "$r" paused_ms)" 10.000
	# ECN marks grow by 2 per row: 40 rows from sample 60, first one
	# counted at the window start is 0 (rows start after it).
	expect "bottleneck ECN marks" "$(val "$r" bottleneck_ecn_marks)" 80
}

case_fct() {
	local r=$TMP/fct
	mkrun "$r" flows='f1:s0.h1:10:ok:0.5,f2:s0.h2:10:ok:1.5,f3:s0.h3:10:ok:'
	report --no-plots "$r" || return
	expect "f1 fct" "$(val "$r" flow.f1.fct_s)" 0.5
	expect "f3 fct (long-running)" "$(val "$r" flow.f3.fct_s)" n/a
	expect "mean fct" "$(val "$r" fct_mean_s)" 1.000000
	expect "max fct" "$(val "$r" fct_max_s)" 1.500000
	grep -Eq '^f3 .* -$' "$r/summary.txt" || fail "summary.txt: f3 FCT not shown as '-'"
	grep -Eq '^f1 .* 0\.500000$' "$r/summary.txt" || fail "summary.txt: f1 FCT not shown"
}

case_victim() {
	local r=$TMP/victim
	mkrun "$r" flows='f1:s0.h1:10,f2:s0.h2:10,f3:s0.h3:10,f5:s0.h4:50' meta='victim=f5'
	report --no-plots "$r" || return
	expect "jain without the victim" "$(val "$r" jain)" 1.0000
	expect "jain flows" "$(val "$r" jain_flows)" 3
	expect "victim rate" "$(val "$r" victim_rate_mbps)" 50.000
	expect "goodput includes the victim" "$(val "$r" goodput_mbps)" 80.000
	grep -q '^victim f5 rate  *50\.00 Mbit/s$' "$r/summary.txt" ||
		fail "summary.txt: no victim line: $(cat "$r/summary.txt")"

	r=$TMP/novictim
	mkrun "$r" flows='f1:s0.h1:10,f2:s0.h2:10,f3:s0.h3:10,f5:s0.h4:50'
	report --no-plots "$r" || return
	expect "jain with f5 counted" "$(val "$r" jain)" 0.5714
	expect "no victim rate" "$(val "$r" victim_rate_mbps)" n/a

	r=$TMP/badvictim
	mkrun "$r" meta='victim=f9'
	report_fails "victim f9 is not a flow" --no-plots "$r"
}

case_failed() {
	local r=$TMP/failed
	mkrun "$r" flows='f1:s0.h1:10,f2:s0.h2:10,f3:s0.h3:0:failed'
	report --no-plots "$r" || return
	expect "failed flow excluded from jain" "$(val "$r" jain)" 1.0000
	expect "status" "$(val "$r" flow.f3.status)" failed
	expect "goodput" "$(val "$r" flow.f3.goodput_mbps)" n/a
	expect "flows_failed" "$(val "$r" flows_failed)" 1
	expect "aggregate goodput of ok flows" "$(val "$r" goodput_mbps)" 20.000
	grep -q '^f3 .*FAILED' "$r/summary.txt" || fail "summary.txt: f3 not shown as FAILED"
	grep -q '^f3 .*FAILED' "$TMP/out" || fail "stdout: no summary table"

	# The runner's row for a flow that never started.
	echo 'f4,,,,,,0,0,,failed' >>"$r/flows.csv"
	report --no-plots "$r" || return
	expect "f4 status" "$(val "$r" flow.f4.status)" failed
	expect "f4 rate" "$(val "$r" flow.f4.rate_mbps)" n/a
	expect "flows_failed" "$(val "$r" flows_failed)" 2
	expect "jain" "$(val "$r" jain)" 1.0000
	grep -Eq '^f4 +-> +FAILED +- +-$' "$r/summary.txt" || fail "summary.txt: f4 row: $(grep ^f4 "$r/summary.txt")"
	echo 'f6,,,,,,0,0,,ok' >>"$r/flows.csv"
	report_fails "flow f6: bad src or dst" --no-plots "$r"
}

case_counters() {
	local r=$TMP/counters
	mkrun "$r" hosts='h1:cc_cnp_sent=5/cc_rate_dec=2,h2:cc_cnp_sent=7/pfc_pause_rcvd=1'
	report --no-plots "$r" || return
	expect "drops" "$(val "$r" drops)" 7
	expect "pfc sent" "$(val "$r" pfc_sent)" 11
	expect "pfc rx" "$(val "$r" pfc_rx)" 13
	expect "ecn marks (all queues)" "$(val "$r" ecn_marks)" 123
	expect "hosts" "$(val "$r" hosts)" 2
	expect "cnp sent summed" "$(val "$r" host.cc_cnp_sent)" 12
	expect "rate dec" "$(val "$r" host.cc_rate_dec)" 2
	expect "pause rcvd" "$(val "$r" host.pfc_pause_rcvd)" 1
	grep -q 'host counters (sum over 2 hosts)' "$r/summary.txt" ||
		fail "summary.txt: no host counters"
}

case_png() {
	need_gnuplot
	local r=$TMP/png q='' k
	for k in $(seq 20 99); do
		q+="${q:+,}$k:$((k * 100)):$(((k > 50 && k < 60) ? 1 : 0))"
	done
	mkrun "$r" qrows="$q"
	report "$r" || return
	is_png "$r/rate.png"
	is_png "$r/queue.png"
	report --bin 500us "$r" || return
	is_png "$r/rate.png"
}

case_compare() {
	need_gnuplot
	local a=$TMP/cmp_a b=$TMP/cmp_b out=$TMP/cmp_out
	mkrun "$a" flows='f1:s0.h1:10,f2:s0.h2:30' qrows='20:4000,30:8000'
	mkrun "$b" flows='f1:s0.h1:20,f2:s0.h2:20:ok:2.5' qrows='20:1000' \
		meta='algo=none;label=nocc' t0=9000000
	report "$b" || return
	report --compare "$out" "$a" "$b" || return
	[ -f "$a/summary.csv" ] || fail "compare did not write the missing report of $a"
	is_png "$a/rate.png"
	local csv=$out/comparison.csv
	[ -f "$csv" ] || { fail "$csv missing"; return; }
	expect "comparison.csv header" "$(head -n1 "$csv")" \
		label,goodput_mbps,jain,util,queue_p50_kb,queue_p99_kb,queue_max_kb,ecn_marks,pfc_sent,pfc_rx,drops,fct_mean_s,jain_step_min,recovery_ms,recovery_rtts,recovery_pre_ms,long_alone_pct,drain_ms,drain_rtts,incast_peak_kb,rate_settle_ms,first_halt_ratio_mean,halt_ratio_p50,mice_p50_us,mice_p99_us,mice_p50_rtts,mice_p99_rtts
	expect "rows" "$(awk 'END { print NR - 1 }' "$csv")" 2
	# an incast has none of the scenarios' own figures
	expect "scenario columns" "$(sed -n 2p "$csv" | cut -d, -f13-)" "n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a"
	expect "row 1" "$(sed -n 2p "$csv" | cut -d, -f1,3,7,12)" dcqcn,0.8000,8.000,n/a
	expect "row 2" "$(sed -n 3p "$csv" | cut -d, -f1,3,7,12)" nocc,1.0000,1.000,2.500000
	grep -Eq '^dcqcn +40\.00 +0\.800 ' "$out/comparison.txt" ||
		fail "comparison.txt: no dcqcn row: $(cat "$out/comparison.txt")"
	grep -Eq '^nocc +40\.00 +1\.000 ' "$out/comparison.txt" || fail "comparison.txt: no nocc row"
	cmp -s "$out/comparison.txt" "$TMP/out" || fail "stdout differs from comparison.txt"
	is_png "$out/queue.png"
	is_png "$out/rate.png"

	report_fails "at least one results directory" --compare "$out"
	# one run is a comparison of one (make eval's single-run scenarios)
	rm -f "$out"/*
	"$REPORT" --compare "$out" "$a" >/dev/null || fail "--compare with one run failed"
	expect "one run: rows" "$(awk 'END { print NR - 1 }' "$out/comparison.csv")" 1
	grep -Eq '^dcqcn +40\.00 +0\.800 ' "$out/comparison.txt" ||
		fail "one run: no dcqcn row: $(cat "$out/comparison.txt")"
	rm "$b/fabric/ports.csv"
	rm -f "$out"/*
	report_fails "ports.csv: missing" --compare "$out" "$a" "$b"
	[ ! -e "$out/comparison.csv" ] || fail "failed compare wrote comparison.csv"
}

case_traffic() {
	need_gnuplot
	# The generator's records of two sized flows and h1's monitor file on
	# top of a plain run (figures: tests/report/results_test.cc); every
	# new plot is drawn, the slowdown table is printed.
	local r=$TMP/traffic d th
	mkrun "$r" meta='base_rtt_ns=100000' qrows='20:4000,30:8000'
	echo 1764000000.000000 >"$r/fabric_t0"
	th=flow,src,dst,verb,size_bytes,duration_ns,msg_bytes,qps,dscp,sched_start_ns,start_ns,first_byte_ns,last_byte_ns,complete_ns,bytes,msgs,retx,qpns,status
	for d in h1 h2; do
		mkdir -p "$r/traffic/$d"
		echo '{"t0_monotonic_ns":1000000000000,"t0_realtime_ns":1764000005000000000}' \
			>"$r/traffic/$d/summary.json"
	done
	printf '%s\n%s\n' "$th" 'f1,h1,h0,write,10000,,1000,2,26,10000000,10000000,,,15000000,10000,10,,17;18,ok' \
		>"$r/traffic/h1/flows.csv"
	printf '%s\n%s\n' "$th" 'f2,h2,h0,write,5000,,1000,1,26,20000000,20000000,,,23000000,5000,5,,21,ok' \
		>"$r/traffic/h2/flows.csv"
	printf 'flow,bin_start_ns,bytes\nf1,10000000,6000\nf1,11000000,4000\n' >"$r/traffic/h1/bins.csv"
	# the columns of rxecc monitor -e: fixed, QP counters, state, event
	{
		echo time_ns,dev,qpn,algo,rate_bps,window_bytes,cnp_rx,cnp_tx,ce_rx,pacer_waits,pacer_unused_us,rate_dec,rate_inc,retx_pkts,inflight_bytes,acked_bytes,dcqcn.target_rate_kbps,dcqcn.alpha,dcqcn.cnp_handled,event
		echo 1000011000000,rxe_h1,17,dcqcn,40000000,,3,0,0,5,0,2,1,0,4096,5000,60000,32768,3,
		echo 1000012000000,rxe_h1,17,dcqcn,30000000,,5,0,0,6,0,3,1,0,2048,8000,60000,40000,5,
		echo 1000012500000,rxe_h1,17,dcqcn,20000000,,5,0,0,6,0,4,1,0,2048,8000,60000,30000,5,rate_dec
	} >"$r/hosts/h1.monitor.csv"
	report "$r" || return
	for f in rate queue queue_cdf slowdown flows; do is_png "$r/$f.png"; done
	expect "slowdown flows" "$(val "$r" slowdown_flows)" 2
	expect "slowdown p50" "$(val "$r" slowdown.all.p50)" 5.178
	grep -q '^  0-100KB  *2 ' "$TMP/out" || fail "stdout: no slowdown row: $(cat "$TMP/out")"
	[ "$(head -n1 "$r/slowdown.csv")" = flow,size_bytes,fct_ns,ideal_fct_ns,slowdown ] ||
		fail "slowdown.csv: bad header"
}

case_bad_input() {
	local r=$TMP/bad
	mkrun "$r"
	rm "$r/flows.csv"
	report_fails "$r/flows.csv: missing" --no-plots "$r"

	mkrun "$r"
	sed -i 1d "$r/fabric/queues.csv"
	report_fails "$r/fabric/queues.csv: header is" --no-plots "$r"

	mkrun "$r"
	sed -i '1s/paused_us/pause_us/' "$r/fabric/queues.csv"
	report_fails "$r/fabric/queues.csv: header is" --no-plots "$r"

	mkrun "$r"
	: >"$r/fabric/ports.csv"
	report_fails "$r/fabric/ports.csv: empty" --no-plots "$r"

	mkrun "$r"
	sed -i '3s/,h2,0,/,h2,x,/' "$r/fabric/ports.csv"
	report_fails "ports.csv:3: bad value 'x'" --no-plots "$r"

	mkrun "$r"
	echo 'f9,h9,h0,s0.h9,1,2,3,0.1,,ok,extra' >>"$r/flows.csv"
	report_fails "flows.csv:4: expected 10 fields, found 11" --no-plots "$r"

	mkrun "$r"
	echo 'f9,h9,h0,s0.h9,1,2,3,0.1,,maybe' >>"$r/flows.csv"
	report_fails "status 'maybe'" --no-plots "$r"

	mkrun "$r"
	echo 'f9,h9,h0,s0.h9,1,2,3,0.1,,ok' >>"$r/flows.csv"
	report_fails "no rows for port s0.h9" --no-plots "$r"

	mkrun "$r" meta='link_rate_bps=fast'
	report_fails "link_rate_bps=fast: not a positive bit rate" --no-plots "$r"

	mkrun "$r" meta='data_prio=8'
	report_fails "data_prio=8" --no-plots "$r"

	mkrun "$r" meta='bottleneck=s0.nope'
	report_fails "no rows for the bottleneck port s0.nope" --no-plots "$r"

	mkrun "$r" meta='$(touch pwned)'
	report_fails "not a key=value line" --no-plots "$r"

	mkrun "$r"
	sed -i '/^pfc_frames_rx/d' "$r/fabric/summary.flat"
	report_fails "summary.flat: no pfc_frames_rx line" --no-plots "$r"

	mkrun "$r"
	echo 'total_drops many' >>"$r/fabric/summary.flat"
	report_fails "summary.flat:10: expected 'key value' with a whole number" --no-plots "$r"

	mkrun "$r" btx=0
	report_fails "has no active period" --no-plots "$r"

	mkrun "$r"
	sed -n 2p "$r/fabric/ports.csv" >>"$r/fabric/ports.csv"
	report_fails "time_us goes backwards" --no-plots "$r"

	report_fails "not a directory" --no-plots "$TMP/nonexistent"
	report_fails "--bin: not a time" --bin 10minutes "$r"
	report_fails "unknown option" --frobnicate "$r"
	report_fails "expected one results directory" --no-plots

	# None of the failures above wrote anything.
	[ ! -e "$r/summary.csv" ] && [ ! -e "$r/summary.txt" ] ||
		fail "a failed report wrote into $r"
	[ ! -e pwned ] || fail "meta.env was executed"
}

if [ "$CASE" = all ]; then
	for c in $(declare -F | awk '$3 ~ /^case_/ { sub(/^case_/, "", $3); print $3 }'); do
		CASE=$c
		"case_$c"
	done
else
	declare -F "case_$CASE" >/dev/null || { echo "no test case $CASE" >&2; exit 2; }
	"case_$CASE"
fi
if [ "$failures" -gt 0 ]; then
	echo "$failures check(s) failed" >&2
	exit 1
fi
echo "PASS [$CASE]"
