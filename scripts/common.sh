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
