#!/usr/bin/env bash
# no_fp.sh FILE...: fail if an object or archive holds floating-point code:
# x87 (f...), SSE/AVX scalar or packed float and double arithmetic and
# compares (...ss, ...sd, ...ps, ...pd), scalar moves (movss, movsd) and
# conversions (cvt...). Register-wide moves and logic (movdqu, movups,
# pxor, xorps: what a compiler may use to copy or clear a struct) are not
# floating point. A file objdump cannot read, or one without any
# instruction, fails too: it proves nothing.
set -uo pipefail
[ $# -gt 0 ] || { echo "usage: ${0##*/} FILE..." >&2; exit 2; }
bad=0
for f in "$@"; do
	if ! dis=$(objdump -d --no-show-raw-insn "$f" 2>&1); then
		echo "${0##*/}: objdump failed on $f: $dis" >&2
		bad=1
		continue
	fi
	# "  1c:	mulss  %xmm1,%xmm0": the mnemonic is the first word after
	# the address's tab
	mnem=$(awk -F'\t' '/^ *[0-9a-f]+:\t/ { split($2, w, " "); print w[1] }' <<<"$dis")
	if [ -z "$mnem" ]; then
		echo "${0##*/}: no instructions in $f" >&2
		bad=1
		continue
	fi
	# (bitwise moves of whole registers, movups or xorps, copy and
	# clear structs and are left out; scalar moves are float data)
	fp=$(grep -E '^(f[a-z0-9]+|v?(add|sub|mul|div|sqrt|min|max|cmp[a-z]*|u?comi|rcp|rsqrt|round|hadd|hsub|addsub|dp|fn?m(add|sub)[0-9]*)(ss|sd|ps|pd)|v?movs[sd]|v?cvt[a-z0-9]*)$' <<<"$mnem" |
		grep -vE '^(fxsave|fxrstor|fwait)' | sort | uniq -c)
	if [ -n "$fp" ]; then
		echo "${0##*/}: floating-point instructions in $f:"
		echo "$fp"
		bad=1
	fi
done
exit $bad
