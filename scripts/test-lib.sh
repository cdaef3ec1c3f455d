# shellcheck shell=bash
# The counting and the selftest runs of scripts/test and scripts/test-debug.
# Source it after common.sh.

B=$RXECC_TOP/build
mkdir -p "$B"
pass=0 failn=0 skipn=0
failed=() skipped=()

ok() { pass=$((pass + 1)); echo "PASS: $1"; }
ko() { failn=$((failn + 1)); failed+=("$1"); echo "FAIL: $1"; }
sk() { skipn=$((skipn + 1)); skipped+=("$1"); echo "SKIP: $1"; }

# step WHAT: a stage's heading, with the seconds since the runner started
# (the budget: Documentation/rxe-cc/testing.rst)
step() { echo; echo "==== $* ==== (at $SECONDS s)"; }

# build_user: configure and build the userspace tools and unit tests in
# build/user through scripts/user-build (log in build/user-build.log).
build_user() {
	"$RXECC_TOP/scripts/user-build" "$B/user" >"$B/user-build.log" 2>&1
}

# selftests RUNNER KDIR OUT SELECT WHAT [RUNNER_OPTION...]: run.sh SELECT
# (its options and test names, one string) under RUNNER (vm-run or um-run)
# and count its verdict; WHAT names the testbed in the lines of tests that
# run on both; RUNNER_OPTIONs go to the runner after the defaults. With
# SELFTEST_PARTS=N (N > 1), N test kernels run the N parts of run.sh
# --shard side by side, each in OUT/partK, and their consoles are printed
# one after the other when all have ended. SELFTEST_LAST names a test that
# runs last in every kernel (kmemleak: what the tests before it left).
selftests() {
	local runner=$1 kd=$2 out=$3 sel=$4 what=$5 parts=${SELFTEST_PARTS:-1} k t0 names
	local -a pids=() dirs=() sela
	read -r -a sela <<<"$sel"
	shift 5
	t0=$SECONDS
	if [ "$parts" -le 1 ]; then
		selftest_run "$runner" "$kd" "$out" "$sel ${SELFTEST_LAST:-}" "$@"
		echo "selftests on $what: $((SECONDS - t0)) s"
		selftest_count "$out" "$what"
		return
	fi
	for k in $(seq 1 "$parts"); do
		mkdir -p "$out/part$k"
		names=$("$RXECC_TOP/selftests/rxe_cc/run.sh" --list --shard "$k/$parts" "${sela[@]}" |
			tr '\n' ' ')
		# a part can be empty (fewer tests than parts)
		[ -n "$names" ] || continue
		selftest_run "$runner" "$kd" "$out/part$k" "$names ${SELFTEST_LAST:-}" "$@" \
			>"$out/part$k/run.log" 2>&1 &
		pids+=($!)
		dirs+=("$out/part$k")
	done
	for k in "${!pids[@]}"; do
		wait "${pids[$k]}"
		echo "---- ${dirs[$k]##*/} of $parts: $(tr '\n' ' ' <"${dirs[$k]}/tests.list")----"
		cat "${dirs[$k]}/run.log"
	done
	# the tests TESTS marks "alone", in one kernel after the parts
	names=$("$RXECC_TOP/selftests/rxe_cc/run.sh" --list --alone "${sela[@]}" | tr '\n' ' ')
	if [ -n "$names" ]; then
		mkdir -p "$out/alone"
		echo "---- alone: $names----"
		selftest_run "$runner" "$kd" "$out/alone" "$names" "$@"
		dirs+=("$out/alone")
	fi
	echo "selftests on $what: $((SECONDS - t0)) s ($parts test kernels side by side${names:+, then $names alone})"
	for k in "${!dirs[@]}"; do
		selftest_count "${dirs[$k]}" "$what"
	done
}

# selftest_run RUNNER KDIR OUT SELECT [RUNNER_OPTION...]: one test kernel
# runs run.sh SELECT; OUT gets tests.list, the TAP file, the console and
# "rc", the runner's exit status. 12 fabric NICs: the largest scenario of
# the suite, cc_pcn's victim with eight senders, has 11 hosts.
selftest_run() {
	local runner=$1 kd=$2 out=$3 rc
	local -a sel
	read -r -a sel <<<"$4"
	shift 4
	mkdir -p "$out"
	"$RXECC_TOP/selftests/rxe_cc/run.sh" --list "${sel[@]}" >"$out/tests.list"
	rm -f "$out/selftests.tap" "$out/kunit.ktap" "$out/rc"
	"$RXECC_TOP/scripts/$runner" --kernel "$kd" --out "$out" --timeout 4200 --fabric-nics 12 \
		"$@" -- selftests/rxe_cc/run.sh "${sel[@]}"
	rc=$?
	echo "$rc" >"$out/rc"
	return $rc
}

# selftest_count OUT WHAT: count the verdict of selftest_run's OUT, and the
# KUnit cases the kunit selftest ran (its KTAP), one count each.
selftest_count() {
	local out=$1 what=$2 line verdict name
	while read -r line; do
		case "$line" in
		"PASS: "*) ok "${line#PASS: }${what:+ ($what)}" ;;
		"SKIP: "*) sk "${line#SKIP: }${what:+ ($what)}" ;;
		*) ko "${line#FAIL: }${what:+ ($what)}" ;;
		esac
	done < <("$RXECC_TOP/scripts/selftest-verdict" "$out/selftests.tap" "$out/tests.list" \
		"$(cat "$out/rc" 2>/dev/null || echo 1)" "$out/console.log")
	[ -f "$out/kunit.ktap" ] || return 0
	while read -r verdict name; do
		case $verdict in
		ok) ok "kunit $name" ;;
		skip) sk "kunit $name" ;;
		*) ko "kunit $name (see $out/kunit.ktap)" ;;
		esac
	done < <(awk '
		/^ +# Subtest: / { suite = $3 }
		/^ +(not )?ok [0-9]+ / {
			v = ($1 == "not") ? "fail" : "ok"; n = (v == "ok") ? $3 : $4
			if ($0 ~ /# SKIP/) v = "skip"
			print v, suite "." n
		}' "$out/kunit.ktap")
}

# closing_line: the time since the runner started, what failed and was
# skipped, then "N passed, N failed[, N skipped]"; returns non-zero if
# anything failed.
closing_line() {
	echo
	echo "total: $SECONDS s ($((SECONDS / 60)) min $((SECONDS % 60)) s)"
	for f in "${failed[@]}"; do echo "failed: $f"; done
	for s in "${skipped[@]}"; do echo "skipped: $s"; done
	if [ "$skipn" -gt 0 ]; then
		echo "$pass passed, $failn failed, $skipn skipped"
	else
		echo "$pass passed, $failn failed"
	fi
	[ "$failn" = 0 ]
}

# debug_selftests "TEST...": build the debug kernel (User-Mode Linux) and
# the module for it, and run the TESTs and the kmemleak check there.
debug_selftests() {
	local dk
	step "debug kernel: User-Mode Linux with lockdep, KASAN, UBSAN, kmemleak (cached in $RXECC_CACHE)"
	if ! dk=$(RXECC_DEBUG=1 RXECC_ARCH=um "$RXECC_TOP/scripts/kernel-build"); then
		ko "debug kernel build"
		return 1
	fi
	ok "debug kernel $(cat "$dk/release")"
	if ! "$RXECC_TOP/scripts/module-build" "$dk/build"; then
		ko "module build (debug kernel)"
		return 1
	fi
	step "selftests on the debug kernel: $1 kmemleak"
	SELFTEST_LAST=kmemleak selftests um-run "$dk" "$B/selftest-debug" "$1" "debug kernel" \
		--mem 3072
}
