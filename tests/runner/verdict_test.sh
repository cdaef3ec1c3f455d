#!/usr/bin/env bash
# Tests of the selftest runner's verdict (scripts/selftest-verdict) on faked
# VM results, and of run.sh's TAP output for a skipped test.
#
#   tests/runner/verdict_test.sh VERDICT RUN_SH
#
# Each case prints "ok CASE" or "FAIL CASE: why"; exit status 1 if any failed.
set -uo pipefail
verdict=$1 run_sh=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
printf 'a\nb\n' >"$tmp/TESTS"
console=$tmp/console.log
: >"$console"

# expect CASE WANT_RC GREP VM_RC TAP_LINES...: the verdict on a TAP file of
# TAP_LINES and a VM exit status VM_RC exits WANT_RC and prints GREP.
expect() {
	local name=$1 want=$2 pat=$3 vm=$4 out rc
	shift 4
	printf '%s\n' "$@" >"$tmp/tap"
	out=$("$verdict" "$tmp/tap" "$tmp/TESTS" "$vm" "$console" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: exit $rc, want $want; output:"
		echo "$out" | sed 's/^/  /'
		bad=1
	elif ! grep -qE -- "$pat" <<<"$out"; then
		echo "FAIL $name: no line matching '$pat' in:"
		echo "$out" | sed 's/^/  /'
		bad=1
	else
		echo "ok $name"
	fi
}

expect all_pass 0 '^PASS: selftest b$' 0 'TAP version 13' '1..2' 'ok 1 a # 3s' 'ok 2 b # 4s'
expect one_failed 1 '^FAIL: selftest b \(exit 1' 1 '1..2' 'ok 1 a # 3s' 'not ok 2 b # exit 1, 4s'
# a complete, passing TAP stream, but the VM died without a status (a panic
# after the last check)
expect panic_after_last_check 1 '^FAIL: .*without reporting a status' 125 '1..2' 'ok 1 a # 3s' 'ok 2 b # 4s'
expect timeout_after_last_check 1 '^FAIL: .*timed out' 124 '1..2' 'ok 1 a # 3s' 'ok 2 b # 4s'
expect cmd_failed_no_test_failed 1 '^FAIL: .*exited 1 though no selftest failed' 1 '1..2' 'ok 1 a' 'ok 2 b'
expect failed_but_exit_0 1 '^FAIL: .*failed but the VM' 0 '1..2' 'ok 1 a' 'not ok 2 b # exit 1'
expect incomplete 1 '^FAIL: selftests: 1 reported, 2 planned' 0 '1..2' 'ok 1 a'
expect skip_reason 0 '^SKIP: selftest b \(no fabric NICs;' 0 '1..2' 'ok 1 a' 'ok 2 b # SKIP no fabric NICs'
echo 'Kernel panic - not syncing: Fatal exception' >"$console"
expect panic_on_console 1 '^FAIL: .*panicked.*Kernel panic' 0 '1..2' 'ok 1 a' 'ok 2 b'
: >"$console"
rm -f "$tmp/tap"
out=$("$verdict" "$tmp/tap" "$tmp/TESTS" 0 "$console")
if [ $? = 1 ] && grep -q '^FAIL: selftests: no TAP output' <<<"$out"; then
	echo "ok no_tap"
else
	echo "FAIL no_tap: $out"
	bad=1
fi

# run.sh: a skipped test's TAP line carries the reason it printed
mkdir -p "$tmp/st"
cp "$run_sh" "$tmp/st/run.sh"
printf 'skipper\n' >"$tmp/st/TESTS"
printf '#!/bin/bash\necho "# SKIP: no fabric NICs (vm-run --fabric-nics)"\nexit 4\n' >"$tmp/st/skipper.sh"
chmod +x "$tmp/st/run.sh" "$tmp/st/skipper.sh"
out=$(RXECC_OUT=$tmp/st "$tmp/st/run.sh" 2>&1)
if grep -qx 'ok 1 skipper # SKIP no fabric NICs (vm-run --fabric-nics)' "$tmp/st/selftests.tap"; then
	echo "ok run_sh_skip_reason"
else
	echo "FAIL run_sh_skip_reason: TAP file:"
	sed 's/^/  /' "$tmp/st/selftests.tap"
	bad=1
fi
exit $bad
