#!/usr/bin/env bash
# Tests of scripts/common.sh's QEMU helpers, shared by vm-run and
# distro-run: option quoting, the kernel command line's path check, the
# TSC settings and the exit status from the guest's status file; and that
# vm-run and distro-run refuse a path with a space before they boot.
#
#   tests/runner/qemu_helpers_test.sh SCRIPTS_DIR
#
# Each case prints "ok CASE" or "FAIL CASE: why"; exit status 1 if any failed.
set -uo pipefail
scripts=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
ok() { echo "ok $1"; }
no() { echo "FAIL $1: $2"; bad=1; }
# each case in a subshell: rxecc_die and rxecc_qemu_exit exit
in_common() { (RXECC_TOP=$scripts/.. && . "$scripts/common.sh" && eval "$1"); }

out=$(in_common 'rxecc_qemu_opt "/a,b,,c"')
[ "$out" = "/a,,b,,,,c" ] && ok opt_commas || no opt_commas "got '$out'"

for p in "/a b" "/a	b" "/a'b" '/a"b'; do
	if err=$(in_common "rxecc_qemu_cmdline_path --out '${p//\'/\'\\\'\'}'" 2>&1); then
		no "cmdline_refuses '$p'" "accepted"
	else
		case "$err" in *"a path with a space or a quote cannot be passed to the VM"*)
			ok "cmdline_refuses '$p'" ;;
		*) no "cmdline_refuses '$p'" "$err" ;; esac
	fi
done
in_common 'rxecc_qemu_cmdline_path --out "/a,b/c-d_e.f"' && ok cmdline_accepts || no cmdline_accepts "refused"

out=$(in_common rxecc_qemu_tsc_append)
[[ $out =~ ^(\ tsc_early_khz=[1-9][0-9]*)?\ tsc=reliable$ ]] && ok tsc || no tsc "got '$out'"
if grep -q '^bogomips' /proc/cpuinfo; then
	[[ $out == " tsc_early_khz="* ]] && ok tsc_khz || no tsc_khz "no tsc_early_khz: '$out'"
fi

# exit: the guest's status; 124 on timeout (124 or 137 from timeout(1));
# 125 without a status file
mkdir -p "$tmp/vm"
echo 7 >"$tmp/vm/status"
in_common "rxecc_qemu_exit who 0 5 log '$tmp/vm'" 2>/dev/null
[ $? = 7 ] && ok exit_status || no exit_status "not the status file's 7"
for rc in 124 137; do
	err=$(in_common "rxecc_qemu_exit who $rc 5 con.log '$tmp/vm'" 2>&1)
	r=$?
	[ $r = 124 ] && [[ $err == "who: timed out after 5s, VM killed (console: con.log)" ]] &&
		ok "exit_timeout_$rc" || no "exit_timeout_$rc" "rc $r: $err"
done
rm "$tmp/vm/status"
err=$(in_common "rxecc_qemu_exit who 1 5 con.log '$tmp/vm'" 2>&1)
r=$?
[ $r = 125 ] && [[ $err == *"the VM ended without reporting a status (qemu exit 1"* ]] &&
	ok exit_no_status || no exit_no_status "rc $r: $err"

# the scripts refuse such an --out before anything boots (--kernel names
# no directory: a check that let the path through would stop there)
for s in vm-run distro-run; do
	err=$("$scripts/$s" --kernel "$tmp/none" --out "$tmp/a b" -- true 2>&1)
	r=$?
	[ $r != 0 ] && [[ $err == *"--out '$tmp/a b': a path with a space"* ]] &&
		ok "${s}_out_space" || no "${s}_out_space" "rc $r: $err"
done
exit $bad
