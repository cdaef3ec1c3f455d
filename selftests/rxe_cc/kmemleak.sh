#!/bin/bash
# The debug kernel's leak detector after the other selftests (scripts/test
# --debug runs it last): two scans, then every suspected leak whose
# allocation backtrace passes through rdma_rxe or the RDMA core fails the
# test, printed in full; others are counted. Skips on a kernel without
# kmemleak.
. "$(dirname "$0")/lib.sh"
require_root

f=/sys/kernel/debug/kmemleak
[ -e "$f" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
[ -w "$f" ] || skip "this kernel has no kmemleak (the debug kernel has it: make test-debug)"

# an object is reported once it has gone unreferenced for a while: scan,
# wait, scan again
echo scan >"$f" || die "cannot start a kmemleak scan"
sleep 6
echo scan >"$f" || die "cannot start a kmemleak scan"
cat "$f" >"$TMP/leaks"
all=$(grep -c '^unreferenced object' "$TMP/leaks")
# one report per object: from its "unreferenced object" line to the next
# (rdma_rxe is a module, its frames say so; the RDMA core is built in:
# its functions are ib_*, rdma_*, uverbs_*)
awk -v RS='unreferenced object' 'NR > 1 && /\[rdma_rxe\]|\] (ib|rdma|rxe|uverbs)_[a-z0-9_]+\+0x/ {
	printf "unreferenced object%s", $0 }' "$TMP/leaks" >"$TMP/ours"
ours=$(grep -c '^unreferenced object' "$TMP/ours")
log "$all suspected leaks in all, $ours from rdma_rxe or the RDMA core"
if [ "$ours" != 0 ]; then
	fail "kmemleak: $ours leaks from rdma_rxe or the RDMA core:"
	sed 's/^/#   /' "$TMP/ours" | head -200
fi
ksft_exit
