#!/bin/bash
# Run rxe_cc selftests with TAP output (kselftest style).
#
#   selftests/rxe_cc/run.sh [-t SECONDS] [--testbed um|qemu]
#                           [--shard K/N | --alone] [--list] [TEST...]
#
# Runs the named tests (default: every test in TESTS, or with --testbed
# those scripts/test runs on that testbed), each with a timeout. Exit status
# 0 if none failed. --list prints the selection instead. --shard K/N keeps
# the K-th of N parts of the selection whose typical durations (TESTS)
# are about equal, so that N test kernels can run them side by side; with
# N > 1 it leaves out the tests TESTS marks "alone" (their timing must not
# share the machine with another test kernel), which --alone keeps, to run
# after the parts. With RXECC_OUT set, the TAP stream is also written to
# $RXECC_OUT/selftests.tap.
DIR=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=${RXECC_SELFTEST_TIMEOUT:-1200}

# select_tests TESTBED: the names in TESTS for TESTBED ("" for all). A
# line is "NAME [qemu|both|alone] [~SECONDS]": no mark runs on the fast
# testbed (um), qemu only on QEMU, both on both, alone on um (see --shard).
select_tests() {
	awk -v tb="$1" '
		/^#/ || NF == 0 { next }
		{ mark = ""; for (i = 2; i <= NF && $i !~ /^#/; i++) if ($i !~ /^~/) mark = $i }
		tb == "" || (tb == "um" && mark != "qemu") ||
			(tb == "qemu" && mark != "" && mark != "alone") { print $1 }
	' "$DIR/TESTS"
}

# alone ALONE TEST...: the tests marked "alone" in TESTS (ALONE 1) or the
# others (ALONE 0), in the order given
alone() {
	local want=$1
	shift
	printf '%s\n' "$@" | awk -v want="$want" '
		FNR == NR {
			if ($0 ~ /^#/ || NF == 0) next
			for (i = 2; i <= NF && $i !~ /^#/; i++) if ($i == "alone") a[$1] = 1
			next
		}
		(want == 1) == ($1 in a) { print $1 }' "$DIR/TESTS" -
}

# shard K N TEST...: the tests of part K of N, in the order given. The
# longest test (TESTS' ~SECONDS, 10 for a test without) goes first to the
# part with the least time so far, the first such part on a tie.
shard() {
	local k=$1 n=$2
	shift 2
	printf '%s\n' "$@" | awk -v k="$k" -v n="$n" '
		FNR == NR {
			if ($0 ~ /^#/ || NF == 0) next
			for (i = 2; i <= NF && $i !~ /^#/; i++)
				if ($i ~ /^~[0-9]+$/) secs[$1] = substr($i, 2) + 0
			next
		}
		{ name[++m] = $1; s[m] = ($1 in secs) ? secs[$1] : 10 }
		END {
			for (i = 1; i <= m; i++) idx[i] = i
			# by duration, longest first; equal ones in the given order
			for (i = 2; i <= m; i++)
				for (j = i; j > 1 && s[idx[j]] > s[idx[j - 1]]; j--) {
					t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t
				}
			for (p = 1; p <= n; p++) load[p] = 0
			for (i = 1; i <= m; i++) {
				best = 1
				for (p = 2; p <= n; p++) if (load[p] < load[best]) best = p
				load[best] += s[idx[i]]
				part[idx[i]] = best
			}
			for (i = 1; i <= m; i++) if (part[i] == k) print name[i]
		}' "$DIR/TESTS" -
}

usage() {
	echo "usage: ${0##*/} [-t SECONDS] [--testbed um|qemu] [--shard K/N | --alone] [--list] [TEST...]"
	echo "tests: $(select_tests "" | tr '\n' ' ')"
}

testbed='' list=0 shard='' only_alone=0
while [ $# -gt 0 ]; do
	case "$1" in
	-t)
		[[ ${2:-} =~ ^[0-9]+$ ]] || { echo "${0##*/}: -t needs seconds" >&2; exit 2; }
		TIMEOUT=$2
		shift 2
		;;
	--testbed)
		case "${2:-}" in
		um | qemu) testbed=$2 ;;
		*) echo "${0##*/}: --testbed is um or qemu" >&2; exit 2 ;;
		esac
		shift 2
		;;
	--shard)
		if ! [[ ${2:-} =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] ||
			[ "${BASH_REMATCH[1]}" -gt "${BASH_REMATCH[2]}" ]; then
			echo "${0##*/}: --shard is K/N with 1 <= K <= N" >&2
			exit 2
		fi
		shard=$2
		shift 2
		;;
	--list) list=1; shift ;;
	--alone) only_alone=1; shift ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "${0##*/}: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
done

if [ $# -gt 0 ]; then
	[ -z "$testbed" ] || { echo "${0##*/}: --testbed selects from TESTS: name no tests" >&2; exit 2; }
	tests=("$@")
else
	read -r -a tests <<<"$(select_tests "$testbed" | tr '\n' ' ')"
fi
if [ -n "$shard" ] && [ "$only_alone" = 1 ]; then
	echo "${0##*/}: --shard and --alone exclude each other" >&2
	exit 2
fi
if [ "$only_alone" = 1 ] && [ ${#tests[@]} -gt 0 ]; then
	read -r -a tests <<<"$(alone 1 "${tests[@]}" | tr '\n' ' ')"
fi
if [ -n "$shard" ] && [ ${#tests[@]} -gt 0 ]; then
	if [ "${shard#*/}" -gt 1 ]; then
		read -r -a tests <<<"$(alone 0 "${tests[@]}" | tr '\n' ' ')"
	fi
	[ ${#tests[@]} -eq 0 ] ||
		read -r -a tests <<<"$(shard "${shard%/*}" "${shard#*/}" "${tests[@]}" | tr '\n' ' ')"
fi
for t in ${tests[@]+"${tests[@]}"}; do
	[ -x "$DIR/$t.sh" ] || { echo "${0##*/}: no such test: $t" >&2; usage >&2; exit 2; }
done
if [ $list = 1 ]; then
	[ ${#tests[@]} -eq 0 ] || printf '%s\n' "${tests[@]}"
	exit 0
fi
if [ ${#tests[@]} -eq 0 ]; then
	echo "${0##*/}: no tests to run" >&2
	exit 2
fi

tap=/dev/null
if [ -n "${RXECC_OUT:-}" ]; then
	tap=$RXECC_OUT/selftests.tap
	: >"$tap"
fi
emit() { echo "$*" | tee -a "$tap"; }

emit "TAP version 13"
emit "1..${#tests[@]}"
n=0 failed=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	echo "# $t: start"
	start=$(date +%s)
	out=$(mktemp)
	timeout --kill-after=10 "$TIMEOUT" "$DIR/$t.sh" 2>&1 | sed -u "s/^\([^#]\)/# \1/; s/^$/#/" |
		tee -a "$tap" "$out"
	rc=${PIPESTATUS[0]}
	# a skipping test prints "# SKIP: REASON" (lib.sh's skip); the last one
	# is the TAP directive's reason
	reason=$(sed -n 's/^# SKIP: //p' "$out" | tail -n 1)
	rm -f "$out"
	secs=$(($(date +%s) - start))
	case $rc in
	0) emit "ok $n $t # ${secs}s" ;;
	4) emit "ok $n $t # SKIP ${reason:-no reason printed}" ;;
	124 | 137) emit "not ok $n $t # TIMEOUT after ${TIMEOUT}s"; failed=$((failed + 1)) ;;
	*) emit "not ok $n $t # exit $rc, ${secs}s"; failed=$((failed + 1)) ;;
	esac
done
[ $failed = 0 ]
