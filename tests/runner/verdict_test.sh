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

# run.sh --testbed: unmarked tests on um, "qemu" on QEMU only, "both" on
# both; no --testbed: every test
mkdir -p "$tmp/tb"
cp "$run_sh" "$tmp/tb/run.sh"
printf '# comment
fast
both_a both

slow qemu  # why
last
' >"$tmp/tb/TESTS"
for t in fast both_a slow last; do printf '#!/bin/bash
exit 0
' >"$tmp/tb/$t.sh"; done
chmod +x "$tmp/tb"/*.sh
sel() { "$tmp/tb/run.sh" --list "$@" 2>&1 | tr '\n' ' '; }
for want in "um:fast both_a last " "qemu:both_a slow " ":fast both_a slow last "; do
	tb=${want%%:*}
	got=$(sel ${tb:+--testbed "$tb"})
	if [ "$got" = "${want#*:}" ]; then
		echo "ok run_sh_testbed_${tb:-all}"
	else
		echo "FAIL run_sh_testbed_${tb:-all}: got '$got', want '${want#*:}'"
		bad=1
	fi
done
if "$tmp/tb/run.sh" --testbed kvm --list >/dev/null 2>&1; then
	echo "FAIL run_sh_testbed_bad: --testbed kvm accepted"
	bad=1
else
	echo "ok run_sh_testbed_bad"
fi
out=$(RXECC_OUT=$tmp/tb "$tmp/tb/run.sh" --testbed qemu 2>&1)
if [ "$(grep -c '^ok ' "$tmp/tb/selftests.tap")" = 2 ] && grep -qx '1..2' "$tmp/tb/selftests.tap"; then
	echo "ok run_sh_testbed_runs_selection"
else
	echo "FAIL run_sh_testbed_runs_selection:"
	sed 's/^/  /' "$tmp/tb/selftests.tap"
	bad=1
fi

# run.sh --shard K/N: parts of about equal time (TESTS' ~SECONDS, 10
# without), the longest test first to the least loaded part, each part in
# the selection's order; together exactly the selection
mkdir -p "$tmp/sh"
cp "$run_sh" "$tmp/sh/run.sh"
printf 'a ~50
b both ~10
c ~40
d qemu ~5
e
f ~30 # a comment ~99
' >"$tmp/sh/TESTS"
for t in a b c d e f; do printf '#!/bin/bash
exit 0
' >"$tmp/sh/$t.sh"; done
chmod +x "$tmp/sh"/*.sh
# longest first: a(50) -> 1, c(40) -> 2, f(30) -> 2 (70), b(10) -> 1 (60),
# e(10) -> 1 (70), d(5) -> 1 (75, the first part on a tie)
for want in "1/2::a b d e " "2/2::c f " "1/2:um:a b e " "2/2:um:c f " \
	"1/1::a b c d e f " "3/3::b d f " "2/2:qemu:d " "1/2:qemu:b "; do
	s=${want%%:*} rest=${want#*:}
	tb=${rest%%:*}
	got=$("$tmp/sh/run.sh" --list --shard "$s" ${tb:+--testbed "$tb"} 2>&1 | tr '\n' ' ')
	if [ "$got" = "${rest#*:}" ]; then
		echo "ok run_sh_shard_${s%/*}_of_${s#*/}_${tb:-all}"
	else
		echo "FAIL run_sh_shard_${s%/*}_of_${s#*/}_${tb:-all}: got '$got', want '${rest#*:}'"
		bad=1
	fi
done
got=$("$tmp/sh/run.sh" --list --shard 2/2 f a 2>&1 | tr '\n' ' ')
if [ "$got" = "f " ]; then
	echo "ok run_sh_shard_named"
else
	echo "FAIL run_sh_shard_named: got '$got', want 'f '"
	bad=1
fi
# an option after a test name is no test: --list refuses it as it refuses
# any name without a test
if "$tmp/sh/run.sh" --list a --shard 1/2 >/dev/null 2>&1; then
	echo "FAIL run_sh_list_unknown_name: '--shard' after a name listed as a test"
	bad=1
else
	echo "ok run_sh_list_unknown_name"
fi
# a test marked alone: in no part of two or more, in the only part of one,
# and what --alone lists; on um like an unmarked one, never on QEMU
mkdir -p "$tmp/al"
cp "$run_sh" "$tmp/al/run.sh"
printf 'a ~50\np alone ~80\nb both ~10\nc ~40\n' >"$tmp/al/TESTS"
for t in a p b c; do printf '#!/bin/bash\nexit 0\n' >"$tmp/al/$t.sh"; done
chmod +x "$tmp/al"/*.sh
for want in "--shard 1/2:a " "--shard 2/2:b c " "--shard 1/1:a p b c " "--alone:p " \
	"--alone --testbed um:p " "--alone --testbed qemu:" "--testbed qemu:b " \
	"--testbed um:a p b c " "--alone a b:" "--alone c p:p "; do
	args=${want%%:*}
	# shellcheck disable=SC2086
	got=$("$tmp/al/run.sh" --list $args 2>&1 | tr '\n' ' ')
	if [ "$got" = "${want#*:}" ]; then
		echo "ok run_sh_alone '$args'"
	else
		echo "FAIL run_sh_alone '$args': got '$got', want '${want#*:}'"
		bad=1
	fi
done
if "$tmp/al/run.sh" --list --alone --shard 1/2 >/dev/null 2>&1; then
	echo "FAIL run_sh_alone_shard: --alone with --shard accepted"
	bad=1
else
	echo "ok run_sh_alone_shard"
fi
for s in 0/2 3/2 2 1/0 x/y; do
	if "$tmp/sh/run.sh" --list --shard "$s" >/dev/null 2>&1; then
		echo "FAIL run_sh_shard_bad: --shard $s accepted"
		bad=1
	else
		echo "ok run_sh_shard_bad $s"
	fi
done
exit $bad
