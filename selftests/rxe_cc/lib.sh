# shellcheck shell=bash
# Shared helpers for the rxe_cc selftests. Source it from a test script; the
# test then calls its steps and finishes with "ksft_exit".
#
# Environment (set by scripts/vm-init inside the test VM):
#   RXECC_TOP       project tree
#   RXECC_MODPROBE  modprobe bound to the test kernel's modules
#   RXECC_RXE_KO    patched module (default: build/module/<uname -r>/rdma_rxe.ko,
#                   the build for the running kernel)

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

RXECC_TOP=${RXECC_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# The testbed's traffic classes (RXECC_DATA_DSCP, RXECC_DSCP_PRIO, ...): the
# module is loaded with their DSCP map, topologies and perftest use them.
# shellcheck source=scripts/testbed.env
. "$RXECC_TOP/scripts/testbed.env"
RXECC_MODPROBE=${RXECC_MODPROBE:-modprobe}
RXECC_RXE_KO=${RXECC_RXE_KO:-$RXECC_TOP/build/module/$(uname -r)/rdma_rxe.ko}
PERFSTAT=${PERFSTAT:-$RXECC_TOP/build/user/bin/perfstat}

TEST_NAME=$(basename "$0" .sh)
TMP=$(mktemp -d "/tmp/$TEST_NAME.XXXXXX")
_failures=0
_netns=()
_bg_pids=()
_dmesg_mark=

log() { echo "# $*"; }

fail() {
	echo "# FAIL: $*"
	_failures=$((_failures + 1))
}

# Stop the test now with a failure (for steps the rest depends on).
die() {
	fail "$*"
	ksft_exit
}

skip() {
	echo "# SKIP: $*"
	cleanup
	exit $KSFT_SKIP
}

# wait_until SECS CMD...: runs CMD every 0.1 s until it succeeds (status 0)
# or SECS seconds have passed (status 1). Start-up waits are bounded in
# seconds, not in polls: under emulation on a busy host a poll's own
# process start-ups take longer than its sleep, and a server or a QP can
# take many seconds to come up.
# CMD may be "eval STRING"; STRING then sees the caller's local variables
# (not its positional parameters).
wait_until() {
	local _wu_t0=$SECONDS _wu_secs=$1
	shift
	until "$@"; do
		[ $((SECONDS - _wu_t0)) -ge "$_wu_secs" ] && return 1
		nap 0.1
	done
}

# nap SECS: sleep without starting a process (a process start costs
# ~0.1-0.2 s under emulation, longer than the polls that sleep): a read
# with a timeout on a FIFO nobody writes to. Falls back to sleep(1).
_nap_fd=
nap() {
	if [ -z "$_nap_fd" ]; then
		{ [ -p "$TMP/.nap" ] || mkfifo "$TMP/.nap"; } 2>/dev/null &&
			exec {_nap_fd}<>"$TMP/.nap" || _nap_fd=none
	fi
	if [ "$_nap_fd" = none ]; then
		sleep "$1"
	else
		read -r -t "$1" -u "$_nap_fd" _ || true
	fi
}

check() {
	local what=$1
	shift
	if "$@"; then
		log "ok: $what"
	else
		fail "$what"
	fi
}

# on_debug_kernel: true on the debug test kernel (release ending in
# -debug: KASAN, lockdep, kmemleak, scripts/test-debug), where rxe runs
# three to four times slower and kmemleak's scans stall the machine
on_debug_kernel() { [[ $(uname -r) == *-debug ]]; }

# check_timing DESCRIPTION CMD...: check, except on the debug kernel, where
# the result is logged and counts as no failure. For figures of timing
# that the plain kernel's runs assert (how close a pacer comes to its rate
# from below, how much of its credit a sender could use) and that the
# sanitizers' cost takes out of reach. The test's other checks, and its
# kernel log, still count there.
check_timing() {
	local what=$1
	shift
	if ! on_debug_kernel; then
		check "$what" "$@"
	elif "$@"; then
		log "ok: $what"
	else
		log "not asserted on the debug kernel (timing): $what"
	fi
}

cleanup() {
	local pid ns
	for pid in "${_bg_pids[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	# give the VM's fabric NICs back before their namespaces go
	if declare -F fabric_release >/dev/null; then
		fabric_release
	fi
	for ns in "${_netns[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	_bg_pids=()
	_netns=()
	# a failed test leaves its files (experiment results among them) in
	# the runner's output directory, for the run's log to be read with
	if [ "$_failures" -gt 0 ] && [ -n "${RXECC_OUT:-}" ] && [ -d "$TMP" ]; then
		mkdir -p "$RXECC_OUT/failed" &&
			rm -rf "$RXECC_OUT/failed/$TEST_NAME" &&
			cp -r "$TMP" "$RXECC_OUT/failed/$TEST_NAME" &&
			echo "# kept: $RXECC_OUT/failed/$TEST_NAME"
	fi
	rm -rf "$TMP"
}

ksft_exit() {
	cleanup
	if [ "$_failures" -gt 0 ]; then
		exit $KSFT_FAIL
	fi
	exit $KSFT_PASS
}

trap 'cleanup' INT TERM

require_root() {
	[ "$(id -u)" = 0 ] || skip "must run as root (inside the test VM: scripts/vm-run)"
}

# ---- kernel log ----------------------------------------------------------

# dmesg_mark: remember where the kernel log is now (the time stamp of its
# last record: once the ring buffer is full, old records drop out and a
# count of lines no longer says where the new ones begin). lib.sh marks when
# a test sources it.
dmesg_mark() {
	_dmesg_mark=$(dmesg 2>/dev/null | tail -n 1 | sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/p')
	_dmesg_mark=${_dmesg_mark:--1}
}

# dmesg_since_mark: the kernel log's records after the mark (a line without
# a time stamp goes with the record before it)
dmesg_since_mark() {
	dmesg | awk -v m="${_dmesg_mark:--1}" '
		/^\[ *[0-9]+\.[0-9]+\]/ { t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) }
		t + 0 > m + 0 { print }'
}
dmesg_mark 2>/dev/null

# Fail on any kernel warning, bug, oops, lockdep or sanitizer report printed
# since dmesg_mark.
dmesg_check() {
	local bad
	bad=$(dmesg_since_mark |
		grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace|lockdep|possible recursive locking|circular locking|KASAN|UBSAN|kmemleak|refcount_t|unregister_netdevice: waiting|namespace exit waits|list_del corruption|sleeping function called')
	if [ -n "$bad" ]; then
		fail "kernel reported problems:"
		echo "$bad" | sed 's/^/#   /'
		return 1
	fi
	log "ok: dmesg clean"
}

# ---- module --------------------------------------------------------------

rxe_loaded() { grep -q '^rdma_rxe ' /proc/modules; }

# Remove every rxe link, then the module.
rxe_unload() {
	local dev
	for dev in $(rdma link show 2>/dev/null | awk '/ rxe/ || /netdev/ {print $2}' | cut -d/ -f1); do
		rdma link delete "$dev" 2>/dev/null
	done
	if rxe_loaded; then
		rmmod rdma_rxe || return 1
	fi
}

# Load the patched module (its dependencies come from the test kernel), its
# devices with the testbed's DSCP map; rxe_load_params takes more module
# parameters.
rxe_load() {
	rxe_load_params "$@"
}

# Load the test kernel's own, unpatched rdma_rxe.
rxe_load_stock() {
	rxe_unload || die "cannot unload the previous rdma_rxe"
	"$RXECC_MODPROBE" rdma_rxe || die "cannot load the stock rdma_rxe"
}

# ---- hosts: network namespaces -------------------------------------------

netns_add() {
	ip netns add "$1" || die "ip netns add $1"
	_netns+=("$1")
	ip -n "$1" link set lo up
}

# veth_link NS1 IF1 ADDR1/LEN NS2 IF2 [ADDR2/LEN]: a veth pair between two
# namespaces, addresses optional on the second end.
veth_link() {
	local ns1=$1 if1=$2 a1=$3 ns2=$4 if2=$5 a2=${6:-}
	ip link add "$if1" netns "$ns1" type veth peer name "$if2" netns "$ns2" ||
		die "veth $ns1/$if1 <-> $ns2/$if2"
	[ -n "$a1" ] && ip -n "$ns1" addr add "$a1" dev "$if1"
	[ -n "$a2" ] && ip -n "$ns2" addr add "$a2" dev "$if2"
	ip -n "$ns1" link set "$if1" up
	ip -n "$ns2" link set "$if2" up
}

# rxe_add NS DEV NETDEV: an rxe device on a netdev of namespace NS.
rxe_add() {
	ip netns exec "$1" rdma link add "$2" type rxe netdev "$3" ||
		die "rdma link add $2 on $1/$3"
}

# rxe_pair NS_A NS_B NET: namespaces NS_A and NS_B joined by a veth pair
# (va with NET.1/24, vb with NET.2/24), rxe_a on va and rxe_b on vb; returns
# 1 if either GID never came.
rxe_pair() {
	netns_add "$1"
	netns_add "$2"
	veth_link "$1" va "$3.1/24" "$2" vb "$3.2/24"
	rxe_add "$1" rxe_a va
	rxe_add "$2" rxe_b vb
	wait_gid rxe_a "$3.1" && wait_gid rxe_b "$3.2"
}

# inject_init COUNT: for the forged-packet tests, INJECT (rxecc-inject, which
# must be built), seed (RXECC_INJECT_SEED, or a random one) and COUNT
# (RXECC_INJECT_COUNT, or the test's default COUNT).
inject_init() {
	INJECT=${INJECT:-$RXECC_TOP/build/user/bin/rxecc-inject}
	[ -x "$INJECT" ] || die "$INJECT not built (make user)"
	seed=${RXECC_INJECT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
	COUNT=${RXECC_INJECT_COUNT:-$1}
}

# gid_index DEV IPV4: index of the RoCE v2 GID of IPV4 on port 1 of DEV.
# (builtins only: a process per sysfs read costs ~0.1 s under emulation)
gid_index() {
	local d=/sys/class/infiniband/$1/ports/1 i gid type want
	printf -v want '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${2//./ }
	for ((i = 0; i < 16; i++)); do
		read -r gid 2>/dev/null <"$d/gids/$i" || continue
		[ "$gid" = "$want" ] || continue
		read -r type 2>/dev/null <"$d/gid_attrs/types/$i" || continue
		if [ "$type" = "RoCE v2" ]; then
			echo "$i"
			return 0
		fi
	done
	return 1
}

# wait_gid DEV IPV4: the GID table is filled asynchronously (at most 30 s).
wait_gid() {
	local dev=$1 ip=$2
	wait_until 30 eval 'gid_index "$dev" "$ip" >/dev/null' && return 0
	fail "no RoCE v2 GID for $2 on $1"
	return 1
}

# wait_listen NS PORT: until a TCP listener on PORT exists in NS (at most
# 30 s).
wait_listen() {
	local ns=$1 port=$2
	wait_until 30 eval 'ip netns exec "$ns" ss -Htln "sport = :$port" | grep -q .'
}

# wait_cm_listen PORT DEV: until an rdma_cm ID listens on PORT on device
# DEV (rdma_cm servers have no TCP listener); at most 30 s. A server on a
# wildcard address listens on every device in turn, each with an ID of
# its own: one on another device says nothing of DEV's, and a client that
# connected then was rejected (REJ reason 8, no listener for the service;
# netns_basic's cm_write_bw in the CI of 3526c7c, the machine slow).
wait_cm_listen() {
	local port=$1 dev=$2
	wait_until 30 eval \
		'rdma resource show cm_id link "$dev" 2>/dev/null | grep "state LISTEN" | grep -q ":$port "'
}

# bg CMD...: run in the background, remembered for cleanup; sets BG_PID.
bg() {
	"$@" &
	BG_PID=$!
	_bg_pids+=("$BG_PID")
}

# perf_pair NAME TIMEOUT SNS SDEV SIP CNS CDEV CIP PORT -- TOOL [ARGS...]
# Runs a perftest-style server in SNS and its client in CNS (both with
# TOOL ARGS, plus device, GID index and port), waits for both. Output goes to
# $TMP/NAME.server and $TMP/NAME.client. With -R in ARGS the tool uses
# rdma_cm and no GID index is passed.
perf_pair() {
	local name=$1 to=$2 sns=$3 sdev=$4 sip=$5 cns=$6 cdev=$7 cip=$8 port=$9
	shift 9
	[ "$1" = "--" ] && shift
	local tool=$1
	shift
	local sargs=(-d "$sdev") cargs=(-d "$cdev") spid rc=0 src=0 gflag=-x
	local ready=(wait_listen "$sns" "$port")
	[ "$tool" = ibv_rc_pingpong ] && gflag=-g
	if [[ " $* " != *" -R "* ]]; then
		sargs+=("$gflag" "$(gid_index "$sdev" "$sip")")
		cargs+=("$gflag" "$(gid_index "$cdev" "$cip")")
	else
		ready=(wait_cm_listen "$port" "$sdev")
	fi
	ip netns exec "$sns" timeout "$to" "$tool" "${sargs[@]}" -p "$port" "$@" \
		>"$TMP/$name.server" 2>&1 &
	spid=$!
	if ! "${ready[@]}"; then
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		fail "$name: server did not start"
		sed 's/^/#   server: /' "$TMP/$name.server"
		return 1
	fi
	ip netns exec "$cns" timeout "$to" "$tool" "${cargs[@]}" -p "$port" "$@" "$sip" \
		>"$TMP/$name.client" 2>&1 || rc=$?
	wait "$spid" || src=$?
	[ "$rc" != 0 ] || rc=$src
	if [ "$rc" != 0 ]; then
		fail "$name: $tool exited with $rc"
		sed 's/^/#   client: /' "$TMP/$name.client" | tail -15
		sed 's/^/#   server: /' "$TMP/$name.server" | tail -15
		return 1
	fi
	return 0
}

# gbps FILE: average bandwidth of a perftest bandwidth report, in Gbit/s.
gbps() {
	[ -x "$PERFSTAT" ] || die "$PERFSTAT not built (make user)"
	"$PERFSTAT" gbps "$1"
}

# nonzero VALUE: true if a decimal number is > 0.
nonzero() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }

# wire_rate NS IF SECONDS [OVERHEAD [FILE]]: bit/s received on IF over
# SECONDS, counting OVERHEAD bytes (default 0) per frame beyond what the
# interface counts. With FILE (a counter, read from within NS), prints a
# second number: FILE's increase per second over the same window.
# Counters and times are read with shell builtins in one process, so no
# process start-up (slow under emulation) falls between a reading and its
# timestamp. Each reading is bracketed by two timestamps and taken again
# (up to 20 times) while they lie more than 1 ms apart: a vCPU descheduled
# between a reading and its timestamp would skew the rate by the length of
# the stall. The time of a reading is its bracket's middle.
wire_rate() {
	ip netns exec "$1" bash -c '
		d=/sys/class/net/$1/statistics f=$4
		snap() {
			local i ta tb
			for i in {1..20}; do
				ta=${EPOCHREALTIME/[.,]/}
				read -r B <"$d/rx_bytes"; read -r P <"$d/rx_packets"
				X=0; [ -n "$f" ] && read -r X <"$f"
				tb=${EPOCHREALTIME/[.,]/}
				[ $((tb - ta)) -le 1000 ] && break
			done
			[ "$i" -gt 1 ] &&
				echo "# wire_rate: reading taken $i times (last in $((tb - ta)) us)" >&2
			T=$(((ta + tb) / 2))
		}
		snap; b0=$B p0=$P x0=$X t0=$T
		sleep "$2"
		snap; b1=$B p1=$P x1=$X t1=$T
		awk -v b="$((b1 - b0))" -v p="$((p1 - p0))" -v o="$3" -v us="$((t1 - t0))" \
			-v x="$((x1 - x0))" -v f="$f" \
			"BEGIN { printf \"%.0f\", (b + p * o) * 8 * 1e6 / us
				if (f != \"\") printf \" %.0f\", x * 1e6 / us
				printf \"\\n\" }"' _ "$2" "$3" "${4:-0}" "${5:-}"
}

# ---- congestion control ----------------------------------------------------

RXECC=${RXECC:-$RXECC_TOP/build/user/bin/rxecc}

rxecc() {
	[ -x "$RXECC" ] || die "$RXECC not built (make user)"
	"$RXECC" "$@"
}

# cnp_class_args ALGO [PARAMS]: the words of 'rxecc dev set' that put the
# CNPs of a device running ALGO on the testbed's class (scripts/testbed.env):
# cnp_dscp, and the CNP DSCP and priority parameters of an algorithm that
# has its own (dcqcn: np_cnp_dscp, np_cnp_prio) unless PARAMS
# (NAME=VALUE,...) sets them. One word per line.
cnp_class_args() {
	local algo=$1 params=",${2:-}," table
	table=$(rxecc algo "$algo") || return 1
	printf '%s\n' cnp_dscp "$RXECC_CNP_DSCP"
	if [[ $params != *,np_cnp_dscp=* ]] && grep -qw np_cnp_dscp <<<"$table"; then
		printf '%s\n' np_cnp_dscp "$RXECC_CNP_DSCP"
	fi
	if [[ $params != *,np_cnp_prio=* ]] && grep -qw np_cnp_prio <<<"$table"; then
		printf '%s\n' np_cnp_prio "$RXECC_CNP_PRIO"
	fi
}

# hw_counter DEV NAME: a port counter of an rxe device (a builtin read: no
# process, for tests that poll counters)
hw_counter() {
	local v
	read -r v <"/sys/class/infiniband/$1/ports/1/hw_counters/$2" || return
	echo "$v"
}

# qpns DEV: the QP numbers of a device's RC QPs, one per line
qpns() {
	rdma resource show qp link "$1/1" 2>/dev/null |
		awk '/type RC/ { for (i = 1; i < NF; i++) if ($i == "lqpn") print $(i + 1) }'
}

# qp_rate_kbps DEV QPN: the QP's current CC rate in kbit/s (0 = unpaced)
qp_rate_kbps() {
	rdma resource show qp link "$1/1" lqpn "$2" -dd 2>/dev/null |
		tr ' ' '\n' | awk 'p { print int($1 / 1000); exit } $1 == "drv_cc_rate_bps" { p = 1 }'
}

# router_hosts PREFIX: hosts PREFIX_s and PREFIX_d joined through a router
# namespace PREFIX_r (10.8.1.0/24 and 10.8.2.0/24); the router's egress
# towards PREFIX_d is "out", where tests put their bottleneck qdisc.
router_hosts() {
	local p=$1
	netns_add "${p}_s"
	netns_add "${p}_r"
	netns_add "${p}_d"
	veth_link "${p}_s" eth0 10.8.1.1/24 "${p}_r" in 10.8.1.254/24
	veth_link "${p}_r" out 10.8.2.254/24 "${p}_d" eth0 10.8.2.1/24
	ip -n "${p}_s" route add default via 10.8.1.254
	ip -n "${p}_d" route add default via 10.8.2.254
	ip netns exec "${p}_r" sysctl -qw net.ipv4.ip_forward=1
}

# qptest_writes TAG N SECONDS SDEV SIP DDEV DIP: rxecc-qptest's N WRITEs
# of 64 KiB from SDEV to DDEV (by their GIDs of SIP and DIP) in the
# background, checked to complete within SECONDS; the QPs stay until
# qptest_writes_stop. Sets SQPN (the sender's QP) and DQPN (the receiver's).
qptest_writes() {
	OUT=$TMP/$1.out
	"$QPTEST" --count "$2" "$4" "$(gid_index "$4" "$5")" \
		"$6" "$(gid_index "$6" "$7")" >"$OUT" 2>&1 &
	QP_PID=$!
	wait_until "$3" eval 'grep -qs "^completed" "$OUT"'
	check "$1: the $2 WRITEs completed" grep -q "^completed $2" "$OUT"
	read -r _ SQPN DQPN < <(grep '^qpn ' "$OUT")
}
qptest_writes_stop() {
	kill "$QP_PID" 2>/dev/null
	wait "$QP_PID" 2>/dev/null
}

# router_writes TAG: 400 WRITEs from rxe_s to rxe_d, the devices on
# router_hosts' ends, within 150 s (qptest_writes)
router_writes() {
	qptest_writes "$1" 400 150 rxe_s 10.8.1.1 rxe_d 10.8.2.1
}

# red_bottleneck NS DEV RATE_MBIT: shape DEV to RATE with RED ECN marking
red_bottleneck() {
	local ns=$1 dev=$2 rate=$3
	ip netns exec "$ns" tc qdisc replace dev "$dev" root handle 1: \
		tbf rate "${rate}mbit" burst 20kb latency 200ms || die "tbf on $dev"
	ip netns exec "$ns" tc qdisc replace dev "$dev" parent 1:1 handle 10: \
		red limit 400000 min 15000 max 60000 avpkt 1100 burst 25 \
		bandwidth "${rate}mbit" probability 0.2 ecn || die "red on $dev"
}

# red_marked NS DEV: packets RED marked CE on DEV
red_marked() {
	ip netns exec "$1" tc -s qdisc show dev "$2" |
		awk '$1 == "marked" { print $2; exit }'
}

# traffic_start SNS SDEV SIP CNS CDEV CIP PORT: an open-ended ib_write_bw
# from CDEV to SDEV in the background (SRV_PID, CLI_PID; output in
# $TMP/srv and $TMP/cli); returns once the client's QP exists (at most
# 60 s), with its number in QPN. Stop it with traffic_stop.
traffic_start() {
	local sns=$1 sdev=$2 sip=$3 cns=$4 cdev=$5 cip=$6 port=$7
	ip netns exec "$sns" ib_write_bw -d "$sdev" -x "$(gid_index "$sdev" "$sip")" \
		-p "$port" -F -n 1000000 >"$TMP/srv" 2>&1 &
	SRV_PID=$!
	wait_listen "$sns" "$port" || die "ib_write_bw server did not start"
	ip netns exec "$cns" ib_write_bw -d "$cdev" -x "$(gid_index "$cdev" "$cip")" \
		-p "$port" -F -n 1000000 "$sip" >"$TMP/cli" 2>&1 &
	CLI_PID=$!
	QPN=
	wait_until 60 eval 'QPN=$(qpns "$cdev" | head -1); [ -n "$QPN" ]' && return 0
	die "no RC QP on $cdev"
}

traffic_stop() {
	kill "$CLI_PID" "$SRV_PID" 2>/dev/null
	wait "$CLI_PID" "$SRV_PID" 2>/dev/null
	return 0
}

# rxe_load_params PARAM=VALUE...: rxe_load with further module parameters
# (e.g. pfc_netdevs=va); a dscp_prio among them replaces the testbed's.
rxe_load_params() {
	[ -f "$RXECC_RXE_KO" ] || die "patched module $RXECC_RXE_KO not built (make module)"
	rxe_unload || die "cannot unload the previous rdma_rxe"
	"$RXECC_MODPROBE" -a udp_tunnel ip6_udp_tunnel || die "cannot load udp_tunnel"
	# The test VM runs under TCG, where a timer wake-up takes about a
	# millisecond: give the pacer a matching slack.
	insmod "$RXECC_RXE_KO" cc_pacer_slack_us="${RXECC_PACER_SLACK_US:-2000}" \
		dscp_prio="$RXECC_DSCP_PRIO" "$@" ||
		die "insmod $RXECC_RXE_KO $* failed"
}

# rxecc-qptest (make user) and the example algorithm module built next to
# rdma_rxe.ko (make module); need_* end the test if they are missing.
QPTEST=${RXECC_QPTEST:-$RXECC_TOP/build/user/bin/rxecc-qptest}
RXECC_AIMD_KO=${RXECC_AIMD_KO:-$(dirname "$RXECC_RXE_KO")/rxe_cc_aimd.ko}
need_qptest() { [ -x "$QPTEST" ] || die "$QPTEST not built (make user)"; }
need_aimd_ko() { [ -f "$RXECC_AIMD_KO" ] || die "$RXECC_AIMD_KO not built (make module)"; }

# qp_field DEV QPN NAME: NAME's value in the driver part of the restrack
# view of a QP (rdma resource show qp -dd: drv_NAME VALUE)
qp_field() {
	rdma resource show qp link "$1/1" lqpn "$2" -dd |
		awk -v k="drv_$3" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}

# qp_snap DEV QPN: the driver fields of a QP's restrack view (rdma resource
# show qp -dd) into QP_SNAP, read with snap_field NAME (drv_NAME's value)
qp_snap() { QP_SNAP=$(rdma resource show qp link "$1/1" lqpn "$2" -dd); }
snap_field() {
	awk -v k="drv_$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<<"$QP_SNAP"
}

# qp_fields DEV QPN NAME...: the values of the NAMEs in one restrack view
# of a QP (qp_snap), each followed by a space
qp_fields() {
	local n
	qp_snap "$1" "$2"
	shift 2
	for n in "$@"; do printf '%s ' "$(snap_field "$n")"; done
}

# hw_snap "DEV..." "COUNTER...": remember these hw counters of these
# devices; hw_delta DEV COUNTER: a counter's increase since
hw_snap() {
	local d c
	for d in $1; do
		for c in $2; do printf -v "HW_SNAP_${d}_$c" '%s' "$(hw_counter "$d" "$c")"; done
	done
}
hw_delta() {
	local v="HW_SNAP_$1_$2"
	echo $(($(hw_counter "$1" "$2") - ${!v}))
}

# qp_sq_psn DEV QPN: the QP's next send PSN
qp_sq_psn() {
	rdma resource show qp link "$1/1" lqpn "$2" |
		awk '{ for (i = 1; i < NF; i++) if ($i == "sq-psn") print $(i + 1) }'
}

# settle FUNC WANT: FUNC's value once it has reached WANT (then a moment
# later, so that a count past WANT shows) or has stopped changing for 2 s
# (at most 20 s)
settle() {
	local fn=$1 want=$2 v prev='' t0=$SECONDS tc=$SECONDS
	while :; do
		v=$($fn)
		if [ "$v" -ge "$want" ]; then
			nap 0.5
			v=$($fn)
			break
		fi
		[ "$v" != "$prev" ] && tc=$SECONDS
		prev=$v
		[ $((SECONDS - tc)) -ge 2 ] || [ $((SECONDS - t0)) -ge 20 ] && break
		nap 0.2
	done
	echo "$v"
}
