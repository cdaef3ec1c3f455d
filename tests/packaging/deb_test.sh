#!/usr/bin/env bash
# The contents of built rxe-cc packages (scripts/deb-build runs it; no root,
# no apt, a few seconds):
#  - rxe-cc-dkms: the DKMS tree (dkms.conf fields, rxe-cc-build, the shipped
#    base and its SOURCE, the series with every patch and project file), the
#    dkms maintainer scripts, the kernel hook (which names a 6.1 kernel as
#    unsupported and succeeds); rxe-cc-build refuses kernels outside 6.12,
#    builds from the shipped base when the kernel's linux-source is not
#    installed, from that linux-source when it is (a tarball remade from the
#    base by reversing the series), and from the base when the series does
#    not apply there; modinfo's version and rxe_cc_source are generated;
#  - rxe-cc-tools: the tools and no others, their man pages, the examples,
#    one HTML page per Documentation/rxe-cc page, the flow size
#    distributions where rxecc-traffic looks for them, and a bash
#    completion that offers every command, option and dev set keyword of
#    rxecc --help.
# Usage: deb_test.sh DKMS_DEB TOOLS_DEB
set -euo pipefail

usage="usage: deb_test.sh DKMS_DEB TOOLS_DEB"
[ $# -eq 2 ] || {
	echo "$usage" >&2
	exit 2
}
DKMS_DEB=$1
TOOLS_DEB=$2
for f in "$DKMS_DEB" "$TOOLS_DEB"; do
	[ -f "$f" ] || {
		echo "deb_test.sh: $f does not exist" >&2
		exit 2
	}
done
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/deb-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
field() { dpkg-deb -f "$1" "$2"; }

# ---- rxe-cc-dkms ------------------------------------------------------------

V=$(field "$DKMS_DEB" Version)
[ "$(field "$DKMS_DEB" Package)" = rxe-cc-dkms ] || fail "dkms: Package is $(field "$DKMS_DEB" Package)"
[ "$(field "$DKMS_DEB" Architecture)" = all ] || fail "dkms: Architecture is not all"
deps=$(field "$DKMS_DEB" Depends)
for d in dkms patch xz-utils; do
	[[ ", $deps," == *", $d"[\ ,]* ]] || fail "dkms: Depends lacks $d: $deps"
done
dpkg-deb -x "$DKMS_DEB" "$TMP/dkms"
dpkg-deb -e "$DKMS_DEB" "$TMP/dkms-control"
S=$TMP/dkms/usr/src/rxe-cc-$V
[ -d "$S" ] || fail "dkms: no /usr/src/rxe-cc-$V"
for f in dkms.conf README VERSION rxe-cc-build base/SOURCE patches/series \
	base/drivers/infiniband/sw/rxe/Makefile base/drivers/infiniband/sw/rxe/rxe.c \
	base/drivers/infiniband/sw/rxe/rxe_cc.c base/include/uapi/rdma/rxe_cc.h; do
	[ -f "$S/$f" ] || fail "dkms: no $f"
done
[ -x "$S/rxe-cc-build" ] || fail "dkms: rxe-cc-build is not executable"
[ "$(cat "$S/VERSION" 2>/dev/null)" = "$V" ] || fail "dkms: VERSION is not $V"
grep -qE '^linux-source-6\.12 6\.12\.[0-9]+' "$S/base/SOURCE" ||
	fail "dkms: base/SOURCE does not name a linux-source-6.12 version: $(cat "$S/base/SOURCE")"
grep -q 'rxe_cc_' "$S/base/drivers/infiniband/sw/rxe/Makefile" ||
	fail "dkms: the base's Makefile is not patched"
while read -r p files; do
	case "$p" in '' | '#'*) continue ;; esac
	[ -f "$S/patches/$p" ] || fail "dkms: patches/$p missing"
	for f in $files; do
		[ -f "$S/project/$f" ] || fail "dkms: project/$f missing"
		cmp -s "$S/project/$f" "$S/base/$f" || fail "dkms: base/$f is not project/$f"
	done
done <"$S/patches/series"
extra=$(find "$TMP/dkms" \( -name .git -o -name '*.o' -o -name '*.ko' -o -name tree \) -print)
[ -z "$extra" ] || fail "dkms: build leftovers in the package: $extra"

# dkms.conf as dkms reads it (a bash fragment)
conf=$(
	# shellcheck disable=SC2034 # read by dkms.conf
	kernelver=6.12.117+deb12-amd64 kernel_source_dir=/lib/modules/6.12.117+deb12-amd64/build
	# shellcheck disable=SC1091
	. "$S/dkms.conf"
	# shellcheck disable=SC2154
	printf '%s\n' "name=$PACKAGE_NAME" "version=$PACKAGE_VERSION" "built=${BUILT_MODULE_NAME[0]}" \
		"loc=${BUILT_MODULE_LOCATION[0]}" "dest=${DEST_MODULE_LOCATION[0]}" \
		"make=${MAKE[0]}" "pre=$PRE_BUILD" "excl=$BUILD_EXCLUSIVE_KERNEL" "auto=${AUTOINSTALL:-}"
)
want() { grep -qxF "$1" <<<"$conf" || fail "dkms.conf: want $1, have: $(grep "^${1%%=*}=" <<<"$conf")"; }
want "name=rxe-cc"
want "version=$V"
want "built=rdma_rxe"
want "loc=tree/drivers/infiniband/sw/rxe/"
want "dest=/updates/dkms"
# no AUTOINSTALL: the kernel hook builds for new kernels (dkms 3.0.10's
# autoinstall fails for a kernel BUILD_EXCLUSIVE_KERNEL excludes)
want "auto="
want "make=./rxe-cc-build build 6.12.117+deb12-amd64 /lib/modules/6.12.117+deb12-amd64/build"
want "pre=rxe-cc-build prepare 6.12.117+deb12-amd64 /lib/modules/6.12.117+deb12-amd64/build"
excl=$(sed -n 's/^excl=//p' <<<"$conf")
for k in 6.12.117+deb12-amd64 6.12.0-1-amd64 6.12.5; do
	[[ $k =~ $excl ]] || fail "BUILD_EXCLUSIVE_KERNEL '$excl' excludes $k"
done
for k in 6.1.0-28-amd64 6.13.2 5.10.0-30-amd64 6.120.1 16.12.1; do
	[[ $k =~ $excl ]] && fail "BUILD_EXCLUSIVE_KERNEL '$excl' admits $k"
done
grep -q 'common.postinst' "$TMP/dkms-control/postinst" || fail "dkms: postinst does not run dkms's common.postinst"
grep -q 'kernel-hook' "$TMP/dkms-control/postinst" || fail "dkms: postinst does not run the kernel hook for every kernel"
H=$TMP/dkms/usr/lib/rxe-cc-dkms/kernel-hook
[ -x "$H" ] || fail "dkms: no executable /usr/lib/rxe-cc-dkms/kernel-hook"
for d in postinst.d header_postinst.d; do
	[ "$(readlink "$TMP/dkms/etc/kernel/$d/rxe-cc-dkms")" = /usr/lib/rxe-cc-dkms/kernel-hook ] ||
		fail "dkms: /etc/kernel/$d/rxe-cc-dkms is not a link to the kernel hook"
done
"$H" 2>/dev/null && fail "kernel-hook: no argument accepted"
if "$H" 6.1.0-56-amd64 2>"$TMP/err"; then
	grep -q 'kernel 6.1.0-56-amd64 is not supported.*Linux 6\.12 series' "$TMP/err" ||
		fail "kernel-hook 6.1: $(cat "$TMP/err")"
else
	fail "kernel-hook 6.1: failed (it must not fail the kernel's installation)"
fi
grep -q 'dkms remove' "$TMP/dkms-control/prerm" || fail "dkms: prerm does not remove the module"

# rxe-cc-build, from a copy (it writes tree/ beside itself)
cp -a "$S" "$TMP/b"
B=$TMP/b/rxe-cc-build
"$B" >/dev/null 2>&1 && fail "rxe-cc-build: no arguments accepted"
"$B" prepare 6.12.1 2>/dev/null && fail "rxe-cc-build: a missing argument accepted"
"$B" bogus a b 2>/dev/null && fail "rxe-cc-build: an unknown command accepted"
"$B" --help | grep -q 'rxe-cc-build prepare KERNELRELEASE' || fail "rxe-cc-build --help"
if "$B" prepare 6.1.0-28-amd64 "$TMP" 2>"$TMP/err"; then
	fail "rxe-cc-build: kernel 6.1 accepted"
fi
grep -q 'not supported.*Linux 6\.12 series' "$TMP/err" || fail "rxe-cc-build 6.1: $(cat "$TMP/err")"
"$B" prepare 6.12.999 "$TMP/none" 2>"$TMP/err" && fail "rxe-cc-build: a missing kernel dir accepted"
grep -q 'linux-headers-6.12.999' "$TMP/err" || fail "rxe-cc-build, no headers: $(cat "$TMP/err")"

# a kernel build dir that only tells its version
mkdir -p "$TMP/kdir"
printf 'kernelversion:\n\t@echo 6.12.999\n' >"$TMP/kdir/Makefile"
mkdir -p "$TMP/nosrc"
R=drivers/infiniband/sw/rxe
base=$(cat "$S/base/SOURCE")
# same tree as the base, but for the generated module info
same_as_base() {
	diff -r -x rxe_cc_pkg.c -x Makefile -x ORIGIN -x SOURCE "$S/base" "$TMP/b/tree" >/dev/null ||
		fail "$1: tree/ differs from the base"
	diff <(cat "$S/base/$R/Makefile" && printf '\n# rxe-cc-dkms\nrdma_rxe-y += rxe_cc_pkg.o\n') \
		"$TMP/b/tree/$R/Makefile" >/dev/null || fail "$1: tree/'s Makefile"
}
if RXE_CC_SRCDIR=$TMP/nosrc "$B" prepare 6.12.999+deb12-amd64 "$TMP/kdir" 2>"$TMP/err"; then
	grep -q "no linux-source of Linux 6.12.999" "$TMP/err" || fail "shipped base: no reason given: $(cat "$TMP/err")"
	grep -qF "shipped rxe sources of $base" "$TMP/err" || fail "shipped base: version not named: $(cat "$TMP/err")"
	same_as_base "shipped base"
	grep -qF "MODULE_VERSION(\"$V\");" "$TMP/b/tree/$R/rxe_cc_pkg.c" || fail "shipped base: no MODULE_VERSION"
	grep -qF "MODULE_INFO(rxe_cc_source, \"$base (shipped base)\");" "$TMP/b/tree/$R/rxe_cc_pkg.c" ||
		fail "shipped base: rxe_cc_source: $(grep MODULE_INFO "$TMP/b/tree/$R/rxe_cc_pkg.c")"
else
	fail "rxe-cc-build prepare (shipped base): $(cat "$TMP/err")"
fi

# the kernel's own linux-source: upstream rxe remade from the base
up=$TMP/up/linux-source-6.12.999
mkdir -p "$up/$R"
cp -a "$S/base/$R/." "$up/$R/"
mapfile -t series < <(grep -vE '^[[:space:]]*(#|$)' "$S/patches/series")
for ((i = ${#series[@]} - 1; i >= 0; i--)); do
	read -r p files <<<"${series[i]}"
	for f in $files; do rm -f "$up/$f"; done
	patch -d "$up" -p1 -R --batch --silent <"$S/patches/$p" || fail "cannot reverse $p on the base"
done
rm -rf "$up/include"
mkdir -p "$TMP/src"
tar -C "$TMP/up" -cJf "$TMP/src/linux-source-6.12.999.tar.xz" linux-source-6.12.999
if RXE_CC_SRCDIR=$TMP/src "$B" prepare 6.12.999+deb12-amd64 "$TMP/kdir" 2>"$TMP/err"; then
	grep -qF "its own version, Linux 6.12.999 ($TMP/src/linux-source-6.12.999.tar.xz)" "$TMP/err" ||
		fail "own source: not said: $(cat "$TMP/err")"
	same_as_base "own source"
	grep -qF "MODULE_INFO(rxe_cc_source, \"Linux 6.12.999 from $TMP/src/linux-source-6.12.999.tar.xz\");" \
		"$TMP/b/tree/$R/rxe_cc_pkg.c" || fail "own source: rxe_cc_source"
else
	fail "rxe-cc-build prepare (own source): $(cat "$TMP/err")"
fi

# a linux-source the series does not apply to: the base, with a warning
echo '/* not rxe */' >"$up/$R/rxe_req.c"
rm "$TMP/src/linux-source-6.12.999.tar.xz"
tar -C "$TMP/up" -cJf "$TMP/src/linux-source-6.12.999.tar.xz" linux-source-6.12.999
if RXE_CC_SRCDIR=$TMP/src "$B" prepare 6.12.999+deb12-amd64 "$TMP/kdir" 2>"$TMP/err"; then
	grep -q "patches do not apply to Linux 6.12.999; using the shipped base" "$TMP/err" ||
		fail "no-apply: no warning: $(cat "$TMP/err")"
	same_as_base "no-apply"
else
	fail "rxe-cc-build prepare (no-apply): $(cat "$TMP/err")"
fi
"$B" clean || fail "rxe-cc-build clean"
[ -d "$TMP/b/tree" ] || fail "rxe-cc-build clean removed the tree (dkms cleans after PRE_BUILD)"

# ---- rxe-cc-tools -----------------------------------------------------------

[ "$(field "$TOOLS_DEB" Package)" = rxe-cc-tools ] || fail "tools: Package"
[ "$(field "$TOOLS_DEB" Version)" = "$V" ] || fail "tools: Version is not the dkms package's $V"
[ "$(field "$TOOLS_DEB" Architecture)" = "$(dpkg --print-architecture)" ] || fail "tools: Architecture"
deps=$(field "$TOOLS_DEB" Depends)
for d in libnl-3-200 libnl-genl-3-200 libibverbs1 librdmacm1 libcsv3; do
	[[ $deps == *"$d"* ]] || fail "tools: Depends lacks $d: $deps"
done
dpkg-deb -x "$TOOLS_DEB" "$TMP/tools"
T=$TMP/tools
bins=$(find "$T/usr/bin" -mindepth 1 -printf '%f\n' | sort | tr '\n' ' ')
[ "$bins" = "rxecc rxecc-fabric rxecc-report rxecc-traffic " ] || fail "tools: /usr/bin has $bins"
for f in man8/rxecc.8 man1/rxecc-fabric.1 man1/rxecc-traffic.1 man1/rxecc-report.1; do
	[ -f "$T/usr/share/man/$f.gz" ] || fail "tools: no man page $f"
done
[ -f "$T/usr/share/bash-completion/completions/rxecc" ] || fail "tools: no bash completion"
doc=$T/usr/share/doc/rxe-cc-tools
for f in copyright changelog.gz examples/90-rxe-cc.conf examples/rxe-cc-modprobe.conf html/index.html; do
	[ -f "$doc/$f" ] || fail "tools: no $doc/$f"
done
grep -q '^#net.rdma_rxe.cc_default = none$' "$doc/examples/90-rxe-cc.conf" || fail "tools: sysctl example"
for rst in "$TOP"/Documentation/rxe-cc/*.rst; do
	n=$(basename "$rst" .rst)
	[ -s "$doc/html/$n.html" ] || fail "tools: no html/$n.html"
	grep -q "href=\"$n.html\"" "$doc/html/index.html" || fail "tools: index.html does not link $n.html"
done
cdf=$T/usr/share/rxe-cc-tools/cdf
[ "$(cd "$cdf" 2>/dev/null && ls)" = "$(cd "$TOP/tools/traffic/cdf" && ls)" ] ||
	fail "tools: the flow size distributions are not those of tools/traffic/cdf"
grep -q /usr/share/rxe-cc-tools/cdf "$T/usr/bin/rxecc-traffic" || fail "tools: rxecc-traffic does not look in /usr/share/rxe-cc-tools/cdf"
"$T/usr/bin/rxecc" --version | grep -q '^rxecc ' || fail "tools: rxecc --version"
"$T/usr/bin/rxecc-traffic" --version | grep -q '^rxecc-traffic ' || fail "tools: rxecc-traffic --version"
"$T/usr/bin/rxecc-fabric" --version | grep -q '^rxecc-fabric ' || fail "tools: rxecc-fabric --version"
"$T/usr/bin/rxecc-report" --help | grep -q 'rxecc-report' || fail "tools: rxecc-report --help"

# the completion against rxecc --help
complete_() { # WORD...: what the completion offers after these words
	bash -c '. "$1"; shift; COMP_WORDS=(rxecc "$@"); COMP_CWORD=$#; _rxecc; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$T/usr/share/bash-completion/completions/rxecc" "$@"
}
help=$("$T/usr/bin/rxecc" --help)
cmds=$(awk '/^Commands:/ { s = 1; next } s && /^[^ ]/ { exit } s && /^  [a-z]/ { print $1 }' <<<"$help" | sort -u)
[ -n "$cmds" ] || fail "completion: no commands in rxecc --help"
offered=$(complete_ "")
for c in $cmds; do
	grep -qx "$c" <<<"$offered" || fail "completion: command $c of rxecc --help not offered"
done
check_opts() { # HELP_TEXT WORD...: every option of the help text is offered
	local h=$1 o
	shift
	offered=$(complete_ "$@" -)
	for o in $(grep -oE '(^|[ ,])--?[a-zA-Z][a-z-]*' <<<"$h" | tr -d ' ,' | sort -u); do
		grep -qx -- "$o" <<<"$offered" || fail "completion: option $o of 'rxecc $* --help' not offered"
	done
}
check_opts "$(sed -n '/^Options/,/^$/p' <<<"$help")"
for c in stats monitor; do
	check_opts "$("$T/usr/bin/rxecc" "$c" --help | grep -E '^  -')" "$c"
done
offered=$(complete_ dev set rxe0 "")
for k in $("$T/usr/bin/rxecc" dev set --help | awk '/^  [a-z_]+ / { print $1 }'); do
	grep -qx "$k" <<<"$offered" || fail "completion: dev set keyword $k not offered"
done

if [ $failures -gt 0 ]; then
	echo "deb_test.sh: $failures failures" >&2
	exit 1
fi
echo "deb_test.sh: rxe-cc-dkms and rxe-cc-tools $V ok"
