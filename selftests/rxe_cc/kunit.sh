#!/bin/bash
# Run the KUnit suites of the congestion control framework: load the
# patched rdma_rxe and rxe_cc_kunit.ko (built next to it when the kernel
# has CONFIG_KUNIT), whose suites run when it loads, and read each suite's
# results from debugfs. Fails if a case failed or none ran; skips on a
# kernel without KUnit. With RXECC_OUT set, the KTAP text of every suite
# goes to $RXECC_OUT/kunit.ktap.
. "$(dirname "$0")/lib.sh"
require_root

SUITES="rxe_cc_registry rxe_cc_dev_set rxe_cc_qp_set rxe_cc_gate rxe_cc_cnp rxe_cc_pcn rxe_pfc_rcv rxe_cc_tcd rxe_cc_int"
KUNIT_KO=${RXECC_KUNIT_KO:-$(dirname "$RXECC_RXE_KO")/rxe_cc_kunit.ko}
DEBUGFS=/sys/kernel/debug

# CONFIG_KUNIT=y shows the module's parameters (kunit.enable, ...)
[ -d /sys/module/kunit ] || skip "the running kernel has no KUnit (CONFIG_KUNIT)"
if [ -r /sys/module/kunit/parameters/enable ] &&
	[ "$(cat /sys/module/kunit/parameters/enable)" != Y ]; then
	die "KUnit is disabled on this kernel's command line (kunit.enable=0)"
fi
if [ ! -d "$DEBUGFS/kunit" ]; then
	mountpoint -q "$DEBUGFS" || mount -t debugfs debugfs "$DEBUGFS" ||
		die "cannot mount debugfs on $DEBUGFS"
fi
[ -d "$DEBUGFS/kunit" ] || die "no $DEBUGFS/kunit: the kernel lacks CONFIG_KUNIT_DEBUGFS"
[ -f "$KUNIT_KO" ] || die "$KUNIT_KO not built (make module against a kernel with CONFIG_KUNIT)"

dmesg_mark
rxe_load
grep -q '^rxe_cc_kunit ' /proc/modules && rmmod rxe_cc_kunit
# the suites run while the module loads
insmod "$KUNIT_KO" || die "insmod $KUNIT_KO failed"

ktap=$TMP/kunit.ktap
: >"$ktap"
passed=0 failed=0 skipped=0
for suite in $SUITES; do
	results=$DEBUGFS/kunit/$suite/results
	if [ ! -r "$results" ]; then
		fail "suite $suite: no $results"
		continue
	fi
	cat "$results" >>"$ktap"
	n=0
	# the cases are the subtests of the suite: "    ok 3 name [# SKIP ...]"
	while read -r status name rest; do
		n=$((n + 1))
		case "$status:$rest" in
		ok:*SKIP*)
			skipped=$((skipped + 1))
			log "$suite.$name: skipped ${rest#*SKIP}"
			;;
		ok:*)
			passed=$((passed + 1))
			log "$suite.$name: ok"
			;;
		*)
			failed=$((failed + 1))
			fail "$suite.$name"
			;;
		esac
	done < <(sed -nE 's/^    (not ok|ok) [0-9]+ ([^ ]+)(.*)$/\1 \2 \3/p' "$results" |
		sed 's/^not ok /not_ok /')
	[ "$n" -gt 0 ] || fail "suite $suite: no case ran"
	# the suite's own line: "ok N rxe_cc_gate" (not indented)
	grep -qE "^ok [0-9]+ $suite\$" "$results" || fail "suite $suite did not pass"
done
log "cases: $passed passed, $failed failed, $skipped skipped"
[ $((passed + failed)) -gt 0 ] || fail "no KUnit case ran"

if [ -n "${RXECC_OUT:-}" ]; then
	cp "$ktap" "$RXECC_OUT/kunit.ktap" || fail "cannot write $RXECC_OUT/kunit.ktap"
fi

check "rmmod rxe_cc_kunit" rmmod rxe_cc_kunit
check "rmmod rdma_rxe" rxe_unload
dmesg_check
ksft_exit
