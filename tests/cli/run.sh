#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# CLI tests, laid out like util-linux's: ts/NAME is a bash script that runs
# the real pfnmap binary; its stdout and stderr together (the exit code of
# every pfnmap run is part of that output) must equal expected/NAME.
#
#   run.sh PFNMAP [FILTER]        run the tests whose name contains FILTER
#   run.sh --exact PFNMAP NAME    run test NAME only (what ctest does: one
#                                 ctest test cli/NAME or pci/NAME a script)
#
# Exit status: 0 every test ran and passed; 1 one failed; 2 the runner
# itself could not start; 77 (ctest's SKIP_RETURN_CODE) none failed but at
# least one was skipped, by ts_skip in the script (exit 77 with a reason).
#
# Every test runs in a fresh directory holding `mem`, an 8 GiB sparse file
# whose offsets stand in for physical addresses (pfnmap -D mem).
#
# Environment:
#   PFNMAP_TEST_RUNNER  a command put in front of the binary (qemu-i386 for a
#                       32-bit build on a host without IA32 emulation)
#   PFNMAP_TEST_PROBE   emu-probe (tests/cli/emu-probe.c) built like PFNMAP,
#                       run under PFNMAP_TEST_RUNNER to find out what that
#                       cannot do; default BUILD/tests/cli/emu-probe for
#                       PFNMAP = BUILD/cli/pfnmap; empty: no probe, the
#                       runner is taken to do everything (valgrind)
#   PFNMAP_TEST_SANITIZE  the sanitizers PFNMAP is built with (a sanitizer
#                       build, tests/CMakeLists.txt): their reports go to
#                       files (log_path= added to ASAN_OPTIONS and
#                       UBSAN_OPTIONS), and a script that leaves one fails
#   PFNMAP_TEST_UPDATE  =1: write the outputs to expected/ instead of
#                       comparing (then read every changed file!)
#   PFNMAP_TEST_KEEP    =1: keep the work directories
set -u

usage()
{
	echo "usage: $0 PFNMAP [FILTER]" >&2
	echo "       $0 --exact PFNMAP NAME" >&2
	exit 2
}
EXACT=0
if [ "${1:-}" = --exact ]; then
	EXACT=1
	shift
	[ $# = 2 ] || usage
fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	usage
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
unset PFNMAP_IOMEM TS_NO_HIGH TS_NO_SIGBUS_ADDR

if [ "$EXACT" = 1 ] && [ ! -f "$TS_TOPDIR/ts/$FILTER" ]; then
	echo "$0: no test $TS_TOPDIR/ts/$FILTER" >&2
	exit 2
fi

TS_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-$(basename -- "$TS_TOPDIR").XXXXXX") || exit 2
if [ "${PFNMAP_TEST_KEEP:-}" != 1 ]; then
	trap 'rm -rf -- "$TS_TMPDIR"' EXIT
fi

# shellcheck source=functions.sh
. "$TS_TOPDIR/functions.sh"	# the suite's; tests/pci's sources tests/cli's

# Under an emulator, find out what it cannot do (qemu-user 7.2 truncates
# mmap offsets to 32 bits and reports wrong si_addr for SIGBUS); the tests
# that need it are skipped there, and only there. The probe is a program of
# its own (emu-probe.c), not pfnmap: a bug of pfnmap's must fail the tests,
# never pass for the emulator's.
# emu_probe PROBE DIR CASE VAR WHAT: emu-probe CASE; if the emulator gets
# it wrong, VAR says so ("the emulator WHAT"), for ts_need_* to skip on
emu_probe()
{
	local out rc

	out=$("${TS_RUNNER[@]}" "$1" "$3" "$2" 2>&1)
	rc=$?
	case $rc in
	0) ;;
	1) export "$4=the emulator $5 (emu-probe: $out)" ;;
	*) echo "$0: emu-probe $3 failed (exit $rc): $out" >&2; exit 2 ;;
	esac
}

probe_emulator()
{
	local probe d="$TS_TMPDIR/probe"

	probe=${PFNMAP_TEST_PROBE-$(dirname -- "$PFNMAP")/../tests/cli/emu-probe}
	[ -n "$probe" ] || return 0
	if [ ! -x "$probe" ]; then
		echo "$0: no emu-probe at $probe (build it, or set PFNMAP_TEST_PROBE)" >&2
		exit 2
	fi
	mkdir "$d" || exit 2
	emu_probe "$probe" "$d" high TS_NO_HIGH "maps offsets above 4 GiB wrongly"
	emu_probe "$probe" "$d" sigbus TS_NO_SIGBUS_ADDR "reports a wrong SIGBUS address"
	rm -rf -- "$d"
}
[ -n "$PFNMAP_TEST_RUNNER" ] && probe_emulator

san_asan=${ASAN_OPTIONS:-}
san_ubsan=${UBSAN_OPTIONS:-}

pass=0
fail=0
skip=0
failed=()
for ts in "$TS_TOPDIR"/ts/*; do
	name=$(basename -- "$ts")
	if [ "$EXACT" = 1 ]; then
		[ "$name" = "$FILTER" ] || continue
	else
		case "$name" in
		*"$FILTER"*) ;;
		*) continue ;;
		esac
	fi
	work="$TS_TMPDIR/$name"
	out="$TS_TMPDIR/$name.output"
	mkdir -p -- "$work/.ts" || exit 2
	truncate -s 8G "$work/mem" || exit 2
	san="$TS_TMPDIR/$name.sanitizer"	# the reports: san.PID
	if [ -n "${PFNMAP_TEST_SANITIZE:-}" ]; then
		export ASAN_OPTIONS="${san_asan:+$san_asan:}log_path=$san"
		export UBSAN_OPTIONS="${san_ubsan:+$san_ubsan:}log_path=$san"
	fi
	(cd "$work" && TS_NAME="$name" TS_SKIPFILE="$work/.ts/skip" \
		bash "$ts") >"$out" 2>&1
	rc=$?
	reports=("$san".*)
	if [ -e "${reports[0]}" ]; then
		printf '%-24s FAILED (a sanitizer report)\n' "$name"
		head -n 60 -- "${reports[@]}"
		fail=$((fail + 1))
		failed+=("$name")
	elif [ "$rc" = 77 ] && [ -s "$work/.ts/skip" ]; then
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
[ "$skip" = 0 ] || exit 77
exit 0
