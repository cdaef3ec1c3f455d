#!/bin/bash
# Run rxe_cc selftests with TAP output (kselftest style).
#
#   selftests/rxe_cc/run.sh [-t SECONDS] [--testbed um|qemu] [--list] [TEST...]
#
# Runs the named tests (default: every test in TESTS, or with --testbed
# those scripts/test runs on that testbed), each with a timeout. Exit status
# 0 if none failed. --list prints the selection instead. With RXECC_OUT
# set, the TAP stream is also written to $RXECC_OUT/selftests.tap.
DIR=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=${RXECC_SELFTEST_TIMEOUT:-1200}

# select_tests TESTBED: the names in TESTS for TESTBED ("" for all). A
# line is "NAME [qemu|both]": no mark runs on the fast testbed (um), qemu
# only on QEMU, both on both.
select_tests() {
	awk -v tb="$1" '
		/^#/ || NF == 0 { next }
		{ mark = (NF > 1 && $2 !~ /^#/) ? $2 : "" }
		tb == "" || (tb == "um" && mark != "qemu") || (tb == "qemu" && mark != "") { print $1 }
	' "$DIR/TESTS"
}

usage() {
	echo "usage: ${0##*/} [-t SECONDS] [--testbed um|qemu] [--list] [TEST...]"
	echo "tests: $(select_tests "" | tr '\n' ' ')"
}

testbed= list=0
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
	--list) list=1; shift ;;
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
if [ $list = 1 ]; then
	printf '%s\n' "${tests[@]}"
	exit 0
fi
if [ ${#tests[@]} -eq 0 ]; then
	echo "${0##*/}: no tests to run" >&2
	exit 2
fi
for t in "${tests[@]}"; do
	[ -x "$DIR/$t.sh" ] || { echo "${0##*/}: no such test: $t" >&2; usage >&2; exit 2; }
done

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
