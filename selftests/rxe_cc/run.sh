#!/bin/bash
# Run rxe_cc selftests with TAP output (kselftest style).
#
#   selftests/rxe_cc/run.sh [-t SECONDS] [TEST...]
#
# Runs the named tests (default: every test in TESTS), each with a timeout.
# Exit status 0 if none failed. With RXECC_OUT set, the TAP stream is also
# written to $RXECC_OUT/selftests.tap.
DIR=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=${RXECC_SELFTEST_TIMEOUT:-1200}

usage() {
	echo "usage: ${0##*/} [-t SECONDS] [TEST...]"
	echo "tests: $(grep -v '^#' "$DIR/TESTS" | tr '\n' ' ')"
}

while [ $# -gt 0 ]; do
	case "$1" in
	-t)
		[[ ${2:-} =~ ^[0-9]+$ ]] || { echo "${0##*/}: -t needs seconds" >&2; exit 2; }
		TIMEOUT=$2
		shift 2
		;;
	-h | --help) usage; exit 0 ;;
	-*) echo "${0##*/}: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
done

if [ $# -gt 0 ]; then
	tests=("$@")
else
	read -r -a tests <<<"$(grep -v -e '^#' -e '^$' "$DIR/TESTS" | tr '\n' ' ')"
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
