#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
#
# Run each libFuzzer target (region, devspec, value; all three when none is
# named) of a -DPFNMAP_FUZZ=ON build for SECONDS (-max_total_time), one
# after the other, each on a copy of tests/fuzz/corpus/TARGET/ in a temp
# directory, with TARGET.dict. ASan and UBSan are built in (UBSan does not
# recover); LeakSanitizer is on. Prints, a target, the executions, exec/s,
# the final coverage (cov: and ft:) and the corpus size, and exits 1 when
# any target crashed, leaked, timed out (an input running longer than
# PFNMAP_FUZZ_TIMEOUT, 60 s, of wall-clock time: generous, for a loaded
# machine) or ran out of memory. Exit 77 (a skip) when
# the build has no fuzz targets.
#
# Environment:
#   PFNMAP_FUZZ_OUT=DIR    keep each target's log, its new corpus and any
#                          crash-*/leak-*/timeout-*/oom-* input in
#                          DIR/TARGET/ (default: BUILD_DIR/tests/fuzz/out)
#   PFNMAP_FUZZ_ARGS=...   more libFuzzer options (words)
#   PFNMAP_FUZZ_STRICT_ERR=1  also fail on a control or non-ASCII byte of
#                          the input quoted in an error (fuzz_common.h)
# A crash is reproduced with BUILD_DIR/tests/fuzz/fuzz_TARGET CRASH-FILE.
set -uo pipefail

usage() {
	echo "usage: $0 BUILD_DIR SECONDS [region|devspec|value]..." >&2
	exit 2
}
[ $# -ge 2 ] || usage
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: no directory $1" >&2; exit 2; }
secs=$2
shift 2
case $secs in '' | *[!0-9]*) usage ;; esac
[ $# -gt 0 ] || set -- region devspec value
here=$(cd "$(dirname "$0")" && pwd)
out=${PFNMAP_FUZZ_OUT:-$build/tests/fuzz/out}
timeout=${PFNMAP_FUZZ_TIMEOUT:-60}

# The longest input worth trying: a device spec is at most 63 bytes, a
# region's or value's text gets quoted into 256-byte messages
max_len() {
	case $1 in devspec) echo 128 ;; *) echo 1024 ;; esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}

status=0
for t in "$@"; do
	case $t in region | devspec | value) ;; *) usage ;; esac
	bin=$build/tests/fuzz/fuzz_$t
	if [ ! -x "$bin" ]; then
		if grep -qs '^PFNMAP_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
			echo "run.sh: $bin is not built (cmake --build $build --target fuzz)" >&2
			exit 1
		fi
		echo "run.sh: $build is no -DPFNMAP_FUZZ=ON build; skipped" >&2
		exit 77
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-fuzz-$t.XXXXXX")
	dest=$out/$t
	rm -rf "$dest"
	mkdir -p "$tmp/corpus" "$dest/artifacts"
	cp "$here/corpus/$t"/* "$tmp/corpus/"
	seeds=$(find "$tmp/corpus" -type f | wc -l)
	log=$dest/log
	echo "=== fuzz_$t: ${secs} s, $seeds seeds, log $log"
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout="$timeout" \
		-max_len="$(max_len "$t")" -rss_limit_mb=2048 \
		-dict="$here/$t.dict" -print_final_stats=1 \
		-artifact_prefix="$dest/artifacts/" ${PFNMAP_FUZZ_ARGS:-} \
		"$tmp/corpus" > "$log" 2>&1
	rc=$?
	# the last status line: DONE when it ran its time
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n1)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<< "$last")
	files=$(find "$tmp/corpus" -type f | wc -l)
	# slow-unit-*: an input that took over 10 s of wall-clock time, which
	# on a loaded machine is the scheduler's doing; said, not a failure
	artifacts=$(find "$dest/artifacts" -type f ! -name 'slow-unit-*' | wc -l)
	slow=$(find "$dest/artifacts" -type f -name 'slow-unit-*' | wc -l)
	printf 'fuzz_%s: executions %s, exec/s %s, cov %s, ft %s, corpus %s (in memory), %s files (%s seeds, %s new), rc %s\n' \
		"$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
		"${corp:-?}" "$files" "$seeds" "$((files - seeds))" "$rc"
	cp -r "$tmp/corpus" "$dest/corpus"
	[ "$slow" = 0 ] || echo "fuzz_$t: note: $slow slow-unit-* in $dest/artifacts (slowest $(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$log") s; not a failure: rerun one with $bin FILE)"
	if [ "$rc" != 0 ] || [ "$artifacts" != 0 ] || ! grep -q '^#[0-9]*[[:space:]]*DONE' "$log"; then
		status=1
		echo "fuzz_$t: FAILED (rc $rc); the report:"
		grep -E -A40 '^\*\*\* pfnmap fuzz|^==[0-9]+==ERROR|runtime error:|^SUMMARY' "$log" | head -n 80
		for a in "$dest"/artifacts/*; do
			case ${a##*/} in slow-unit-*) continue ;; esac
			[ -e "$a" ] || continue
			echo "fuzz_$t: input $a (reproduce: $bin $a):"
			od -An -c "$a" | head -n 8
		done
	fi
	rm -rf "$tmp"
	echo "fuzz_$t: log, corpus and artifacts in $dest"
done
exit $status
