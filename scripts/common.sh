# Shared settings for rxe-cc scripts. Source it; it defines paths and
# helpers, and runs nothing.
# shellcheck shell=bash

RXECC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The testbed's traffic classes: DSCPs, priorities, the DSCP map, --tclass.
# shellcheck source=scripts/testbed.env
. "$RXECC_TOP/scripts/testbed.env"
RXECC_CACHE=${RXECC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxe-cc}
RXECC_TARBALL=${RXECC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
RXECC_JOBS=${RXECC_JOBS:-$(($(nproc) + 1))}

rxecc_die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

# The tools of `make user`.
RXECC_BIN=${RXECC_BIN:-$RXECC_TOP/build/user/bin}

# rxecc_units KIND WHAT [--bare-unit TIME] VALUE...: the VALUEs, rates,
# sizes or times (KIND rate, size or time) of the grammar of
# Documentation/rxe-cc/units.rst, as integers (bit/s, bytes, ns) in the
# array RXECC_UNITS; or exit with the reason, naming WHAT (an option, a
# file line). Needs build/user/bin/rxecc-units (make user).
RXECC_UNITS=()
rxecc_units() {
	local kind=$1 what=$2 bin=$RXECC_BIN/rxecc-units out bare=()
	shift 2
	if [ "${1:-}" = --bare-unit ]; then
		bare=(--bare-unit "$2")
		shift 2
	fi
	[ -x "$bin" ] || rxecc_die "$bin is not built (run 'make user' first)"
	out=$("$bin" "$kind" "${bare[@]}" -- "$@" 2>&1) || rxecc_die "$what: ${out#rxecc-units: }"
	# shellcheck disable=SC2034 # read by the scripts that source this file
	mapfile -t RXECC_UNITS <<<"$out"
}

# rxecc_ccache_launcher BASEDIR: a CMake compiler launcher (a list) that
# runs ccache with its cache in $RXECC_CACHE/ccache (at most 2 GB) and
# paths under BASEDIR made relative, so that builds in other directories
# share it; nothing if ccache is not installed (scripts/user-build,
# scripts/deb-build).
rxecc_ccache_launcher() {
	command -v ccache >/dev/null || return 0
	mkdir -p "$RXECC_CACHE/ccache"
	echo "env;CCACHE_DIR=$RXECC_CACHE/ccache;CCACHE_MAXSIZE=2G;CCACHE_BASEDIR=$1;CCACHE_NOHASHDIR=1;ccache"
}

# Kernel version of the Debian source package, e.g. 6.12.117-1~deb12u1.
rxecc_src_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null ||
		rxecc_die "linux-source-6.12 is not installed (run scripts/install-deps)"
}

# Pristine extract of the kernel source, shared by the test kernel and module builds.
rxecc_src_dir() {
	echo "$RXECC_CACHE/src-$(rxecc_src_version | tr '~' '_')"
}

# The test kernel's architecture: x86 (booted under QEMU by scripts/vm-run,
# the default) or um (User-Mode Linux, run by scripts/um-run).
RXECC_ARCH=${RXECC_ARCH:-x86}
case "$RXECC_ARCH" in
x86 | um) ;;
*) rxecc_die "RXECC_ARCH must be x86 or um, not '$RXECC_ARCH'" ;;
esac

# Config fragments that define a test kernel flavour, in merge order (a
# later fragment overrides an earlier one).
rxecc_fragments() {
	echo "$RXECC_TOP/kernel/vm.config"
	if [ "$RXECC_ARCH" = um ]; then
		echo "$RXECC_TOP/kernel/um.config"
	fi
	if [ "${RXECC_DEBUG:-0}" = 1 ]; then
		echo "$RXECC_TOP/kernel/debug.config"
		if [ "$RXECC_ARCH" = um ]; then
			echo "$RXECC_TOP/kernel/um-debug.config"
		fi
	fi
}

# Cache key: source version + hash of the fragments (content, not paths).
rxecc_kernel_key() {
	local h
	local arch=
	h=$(rxecc_fragments | xargs cat | sha256sum | cut -c1-12)
	[ "$RXECC_ARCH" = x86 ] || arch=$RXECC_ARCH-
	echo "$arch$(rxecc_src_version | tr '~' '_')-$h"
}

rxecc_kernel_dir() {
	echo "$RXECC_CACHE/kernel-$(rxecc_kernel_key)"
}

# rxecc_kmake KDIR ARG...: make in the prepared kernel tree KDIR, for
# out-of-tree modules. A User-Mode Linux tree needs ARCH=um on every make
# command line (it is not recorded in the tree).
rxecc_kmake() {
	local kdir=$1 arch=()
	shift
	grep -qx 'CONFIG_UML=y' "$kdir/.config" 2>/dev/null && arch=(ARCH=um)
	make -C "$kdir" "${arch[@]}" "$@"
}

# ---- QEMU (vm-run, distro-run) ----------------------------------------------
# Paths reach QEMU in two ways. In a QEMU option string (-virtfs path=,
# -chardev logfile=, -netdev local.path=) a comma separates options, so
# rxecc_qemu_opt doubles every comma of a path. On the kernel command line,
# which hands the shares' paths to the guest's init, a space or a quote
# splits a word: rxecc_qemu_cmdline_path refuses such paths. (um-run has
# its own, stricter check: UML's command line takes fewer characters.)
rxecc_qemu_opt() { printf '%s' "${1//,/,,}"; }
rxecc_qemu_cmdline_path() {
	[[ $2 != *[[:space:]\"\']* ]] ||
		rxecc_die "$1 '$2': a path with a space or a quote cannot be passed to the VM"
}

# The kernel command line's TSC settings under TCG. The guest's TSC is the
# host's. The guest calibrates its TSC, and then its local APIC timer
# against the TSC, by counting PIT ticks; on a busy host the vCPU misses
# ticks, calibration fails ("Unable to calibrate against PIT") and the
# guest can boot with timers that never fire (RCU stalls). The host's TSC
# rate is known: x86 Linux derives the delay loop from it, so BogoMIPS is
# twice the TSC rate in MHz (tsc_early_khz). The TSC must also stay the
# clocksource: the kernel's clocksource watchdog compares it with the HPET
# every half second, a vCPU descheduled between the two reads looks like a
# skew of the TSC, which is then marked unstable and the HPET takes over
# (seen in about one boot in three). Every clock read
# (ktime_get_ns(), clock_gettime()) then becomes an emulated MMIO access
# costing microseconds, which no real host pays: a timestamp per packet cut
# rxe's throughput by a third, and how fast the tests ran depended on the
# boot. The TSC is the host's, so it is reliable.
rxecc_qemu_tsc_append() {
	local khz
	khz=$(awk -F: '/^bogomips/ { printf "%d", $2 * 500; exit }' /proc/cpuinfo)
	[ "${khz:-0}" -le 0 ] || printf ' tsc_early_khz=%s' "$khz"
	printf ' tsc=reliable'
}

# rxecc_qemu_exit WHO RC TIMEOUT LOG VMDIR: exit with the status the guest
# wrote to VMDIR/status; 124 if QEMU's `timeout` (RC) killed it, 125 if
# the guest ended without a status
rxecc_qemu_exit() {
	local who=$1 rc=$2 timeout=$3 log=$4 vmdir=$5 status
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "$who: timed out after ${timeout}s, VM killed (console: $log)" >&2
		exit 124
	fi
	if [ ! -f "$vmdir/status" ]; then
		echo "$who: the VM ended without reporting a status (qemu exit $rc, console: $log)" >&2
		exit 125
	fi
	read -r status <"$vmdir/status"
	exit "$status"
}

# The fabric agent beside a test VM (scripts/fabric-agent), for vm-run and
# um-run. rxecc_agent_start DIR N WHERE starts it in the background (WHERE:
# a socket directory or tap:PREFIX); rxecc_agent_stop ends it and waits for
# it, and does nothing if none runs (an EXIT trap may call it twice).
RXECC_AGENT_PID=
rxecc_agent_start() {
	"$RXECC_TOP/scripts/fabric-agent" "$@" &
	RXECC_AGENT_PID=$!
	RXECC_AGENT_DIR=$1
}
rxecc_agent_stop() {
	[ -n "$RXECC_AGENT_PID" ] || return 0
	# the agent's loop ends when its ready file goes; the signal alone was
	# once lost (bash took it between two commands and never ran the
	# trap) and left vm-run waiting forever
	rm -f "$RXECC_AGENT_DIR/ready"
	kill -TERM "$RXECC_AGENT_PID" 2>/dev/null
	wait "$RXECC_AGENT_PID" 2>/dev/null
	RXECC_AGENT_PID=
}
