# Shared settings for rxe-cc scripts. Source it; it defines paths only.
# shellcheck shell=bash

RXECC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RXECC_CACHE=${RXECC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rxe-cc}
RXECC_TARBALL=${RXECC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
RXECC_JOBS=${RXECC_JOBS:-$(($(nproc) + 1))}

rxecc_die() {
	echo "${0##*/}: $*" >&2
	exit 1
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

# Config fragments that define a test kernel flavour.
rxecc_fragments() {
	echo "$RXECC_TOP/kernel/vm.config"
	if [ "${RXECC_DEBUG:-0}" = 1 ]; then
		echo "$RXECC_TOP/kernel/debug.config"
	fi
}

# Cache key: source version + hash of the fragments (content, not paths).
rxecc_kernel_key() {
	local h
	h=$(rxecc_fragments | xargs cat | sha256sum | cut -c1-12)
	echo "$(rxecc_src_version | tr '~' '_')-$h"
}

rxecc_kernel_dir() {
	echo "$RXECC_CACHE/kernel-$(rxecc_kernel_key)"
}
