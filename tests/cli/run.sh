#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# CLI tests, laid out like util-linux's: ts/NAME is a bash script that runs
# the real pfnmap binary; its stdout and stderr together (the exit code of
# every pfnmap run is part of that output) must equal expected/NAME.
#
#   run.sh PFNMAP [FILTER]     FILTER: run only tests whose name contains it
#
# Every test runs in a fresh directory holding `mem`, an 8 GiB sparse file
# whose offsets stand in for physical addresses (pfnmap -D mem).
#
# Environment:
#   PFNMAP_TEST_RUNNER  a command put in front of the binary (qemu-i386 for a
#                       32-bit build on a host without IA32 emulation)
#   PFNMAP_TEST_UPDATE  =1: write the outputs to expected/ instead of
#                       comparing (then read every changed file!)
#   PFNMAP_TEST_KEEP    =1: keep the work directories
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 PFNMAP [FILTER]" >&2
	exit 2
fi
PFNMAP=$(realpath -e -- "$1") || exit 2
FILTER=${2:-}
# The suite: ts/ and expected/ here, or in $TS_SUITE (tests/pci uses this
# runner with its own scripts and a functions.sh that sources this one's)
TS_TOPDIR=$(cd -- "${TS_SUITE:-$(dirname -- "$0")}" && pwd) || exit 2
export PFNMAP TS_TOPDIR
export PFNMAP_TEST_RUNNER=${PFNMAP_TEST_RUNNER:-}
# the messages compared are the C locale's
export LC_ALL=C
unset PFNMAP_IOMEM

TS_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-$(basename -- "$TS_TOPDIR").XXXXXX") || exit 2
if [ "${PFNMAP_TEST_KEEP:-}" != 1 ]; then
	trap 'rm -rf -- "$TS_TMPDIR"' EXIT
fi

# shellcheck source=functions.sh
. "$TS_TOPDIR/functions.sh"	# the suite's; tests/pci's sources tests/cli's

# Under an emulator, find out what it cannot do (qemu-user 7.2 truncates
# mmap offsets to 32 bits and reports wrong si_addr for SIGBUS); the tests
# that need it are skipped there, and only there.
probe_emulator()
{
	local d="$TS_TMPDIR/probe" got

	mkdir "$d" && cd "$d" || exit 2
	truncate -s 8G mem && truncate -s 12K short || exit 2
	printf 'LOW!' | ts_plant 0x80000000
	printf 'HIGH' | ts_plant 0x180000000
	got=$(pfnmap -D mem read 0x180000000 2>&1)
	if [ "$got" != 0x48474948 ]; then
		TS_NO_HIGH="the emulator maps offsets above 4 GiB wrongly"
		export TS_NO_HIGH="$TS_NO_HIGH (read 0x180000000 gave $got)"
	fi
	got=$(pfnmap -D short read 0x3000 2>&1)
	if [ "$got" != "pfnmap: bus error at physical 0x3000" ]; then
		export TS_NO_SIGBUS_ADDR="the emulator reports a wrong SIGBUS address ($got)"
	fi
	cd / && rm -rf -- "$d"
}
[ -n "$PFNMAP_TEST_RUNNER" ] && probe_emulator

pass=0
fail=0
skip=0
failed=()
for ts in "$TS_TOPDIR"/ts/*; do
	name=$(basename -- "$ts")
	case "$name" in
	*"$FILTER"*) ;;
	*) continue ;;
	esac
	work="$TS_TMPDIR/$name"
	out="$TS_TMPDIR/$name.output"
	mkdir -p -- "$work/.ts" || exit 2
	truncate -s 8G "$work/mem" || exit 2
	(cd "$work" && TS_NAME="$name" TS_SKIPFILE="$work/.ts/skip" \
		bash "$ts") >"$out" 2>&1
	rc=$?
	if [ "$rc" = 77 ]; then
		printf '%-24s SKIP (%s)\n' "$name" "$(cat -- "$work/.ts/skip")"
		skip=$((skip + 1))
	elif [ "${PFNMAP_TEST_UPDATE:-}" = 1 ]; then
		cp -- "$out" "$TS_TOPDIR/expected/$name"
		printf '%-24s UPDATED\n' "$name"
		pass=$((pass + 1))
	elif diff -u -- "$TS_TOPDIR/expected/$name" "$out" >"$out.diff" 2>&1 &&
	     [ "$rc" = 0 ]
	then
		printf '%-24s OK\n' "$name"
		pass=$((pass + 1))
	else
		printf '%-24s FAILED (script exit %s)\n' "$name" "$rc"
		head -n 60 -- "$out.diff"
		fail=$((fail + 1))
		failed+=("$name")
	fi
	[ "${PFNMAP_TEST_KEEP:-}" = 1 ] || rm -rf -- "$work"
done

total=$((pass + fail + skip))
echo "--------------------------------------------------------------------"
if [ "$total" = 0 ]; then
	echo "no test matches '$FILTER'"
	exit 1
fi
echo "$total tests: $pass passed, $fail failed, $skip skipped"
if [ "$fail" != 0 ]; then
	echo "failed: ${failed[*]}"
	[ "${PFNMAP_TEST_KEEP:-}" = 1 ] && echo "outputs kept in $TS_TMPDIR"
	exit 1
fi
exit 0
