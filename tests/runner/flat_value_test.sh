#!/usr/bin/env bash
# flat_value and host_counter_sum (selftests/rxe_cc/fabric_lib.sh): a key
# that is missing fails the checks that read it, a present one is read.
#
#   tests/runner/flat_value_test.sh SELFTEST_DIR
set -uo pipefail
# shellcheck source=selftests/rxe_cc/lib.sh
. "$1/lib.sh"
# shellcheck source=selftests/rxe_cc/fabric_lib.sh
. "$1/fabric_lib.sh"
bad=0
ok_if() {
	if "${@:2}"; then echo "ok $1"; else echo "FAIL $1"; bad=1; fi
}
# ok_unless NAME CMD...: CMD (a function or command) must fail
ok_unless() {
	if "${@:2}"; then echo "FAIL $1"; bad=1; else echo "ok $1"; fi
}
f=$TMP/summary.flat
mkdir -p "$TMP/hosts"
printf 'total_drops 0\npfc_frames_sent 12\n' >"$f"
printf 'pfc_pause_rcvd 3\n' >"$TMP/hosts/a.counters"
printf 'pfc_pause_rcvd 4\n' >"$TMP/hosts/b.counters"

ok_if present_zero test "$(flat_value "$f" total_drops)" = 0
ok_if present_value test "$(flat_value "$f" pfc_frames_sent)" = 12
ok_if summed test "$(host_counter_sum "$TMP/hosts" pfc_pause_rcvd)" = 7
# a renamed key: the value is not 0 and the lookup fails
v=$(flat_value "$f" drops_total 2>"$TMP/err")
rc=$?
ok_if missing_fails test $rc = 1
ok_if missing_not_zero test "$v" != 0
ok_if missing_is_empty test -z "$v"
ok_if missing_says_so grep -q 'no key drops_total' "$TMP/err"
# the selftests' own checks on a missing key fail
ok_unless zero_check_fails_on_missing_key test "$(flat_value "$f" drops_total 2>/dev/null)" = 0
ok_unless nonzero_fails_on_missing_key nonzero "$(flat_value "$f" x 2>/dev/null)"
ok_unless missing_file_fails flat_value "$TMP/none.flat" total_drops 2>/dev/null
v=$(host_counter_sum "$TMP/hosts" pfc_pause_recv 2>/dev/null)
rc=$?
ok_if missing_counter_fails test "$rc:$v" = "1:"
cleanup
exit $bad
