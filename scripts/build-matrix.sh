#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/build-matrix.sh [-j JOBS] [--no-tests] [DIR]
#
# Configure and build the CLI and its tests (BUILD_TESTING, not run) with
# -DPFNMAP_WERROR=ON in every combination of
#   build type  Debug, RelWithDebInfo, Release, MinSizeRel
#   compiler    gcc, clang
#   word size   64-bit, 32-bit (cmake/i386-toolchain.cmake, -m32)
# without the helper module (-DPFNMAP_BUILD_MODULE=OFF: scripts/test.sh
# builds it), then run the unit and CLI tests of the clang 64-bit Debug
# build (not with --no-tests: scripts/test.sh, which calls this, runs them
# on its clang ASan build). Each build goes on past an error
# (-k) so that its log has every warning, not just the first one. Ninja
# where it is installed (package ninja-build), make otherwise.
# Builds in DIR/<compiler>-<bits>-<type> (default DIR: build-matrix),
# JOBS builds at a time (default: the number of CPUs), each one compiling
# one file at a time. Prints a table and every warning and error line;
# exit status 1 when a build or a test failed.
# Needs clang besides gcc-12-multilib and the :i386 packages
# (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD

jobs=$(nproc)
tests=1
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=${2:-}; shift 2 || { echo "build-matrix: -j wants a number" >&2; exit 64; } ;;
	--no-tests) tests=0; shift ;;
	*) break ;;
	esac
done
case $jobs in '' | *[!0-9]* | 0) echo "build-matrix: -j wants a number" >&2; exit 64 ;; esac
[ $# -le 1 ] || { echo "usage: $0 [-j JOBS] [--no-tests] [DIR]" >&2; exit 64; }
out=${1:-build-matrix}
mkdir -p "$out"
out=$(cd "$out" && pwd)

types=(Debug RelWithDebInfo Release MinSizeRel)
compilers=(gcc clang)
configs=()
for cc in "${compilers[@]}"; do
	for bits in 64 32; do
		for t in "${types[@]}"; do
			configs+=("$cc-$bits-$t")
		done
	done
done
test_config=clang-64-Debug
gen=() keep_going=(-k)
if command -v ninja >/dev/null; then
	gen=(-G Ninja)
	keep_going=(-k 0)
fi

# build CONFIG: configure and build DIR/CONFIG; its output goes to
# build.log there, its exit status (0: both succeeded) to build.rc, its
# time in seconds to build.secs
build() {
	local cfg=$1 cc bits t b args rc=0 t0=$SECONDS
	IFS=- read -r cc bits t <<<"$cfg"
	b=$out/$cfg
	args=("${gen[@]}" -S "$src" -B "$b" -DCMAKE_BUILD_TYPE="$t"
	      -DCMAKE_C_COMPILER="$cc" -DPFNMAP_WERROR=ON
	      -DPFNMAP_BUILD_MODULE=OFF -DBUILD_TESTING=ON)
	[ "$bits" = 32 ] &&
		args+=(-DCMAKE_TOOLCHAIN_FILE="$src/cmake/i386-toolchain.cmake")
	# a fresh directory: the compiler of a cache cannot change
	rm -rf "$b"
	mkdir -p "$b"
	{
		cmake "${args[@]}" &&
		cmake --build "$b" -j1 -- "${keep_going[@]}"
	} >"$b/build.log" 2>&1 || rc=$?
	echo $rc >"$b/build.rc"
	echo $((SECONDS - t0)) >"$b/build.secs"
}

log() { printf '\n=== %s\n' "$*"; }

log "build matrix: ${#configs[@]} builds in $out, $jobs at a time"
t0=$SECONDS
for cfg in "${configs[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	build "$cfg" &
done
wait
total=$((SECONDS - t0))
declare -A rc_of=()
for cfg in "${configs[@]}"; do
	rc_of[$cfg]=$(cat "$out/$cfg/build.rc" 2>/dev/null || echo "?")
done

status=0
printf '\n%-24s %-7s %8s %6s\n' CONFIGURATION RESULT WARNINGS SECS
for cfg in "${configs[@]}"; do
	l=$out/$cfg/build.log
	n=$(grep -c -E '(warning|error):' "$l" || true)
	if [ "${rc_of[$cfg]}" = 0 ]; then
		r=ok
	else
		r=FAILED
		status=1
	fi
	printf '%-24s %-7s %8s %6s\n' "$cfg" "$r" "$n" \
		"$(cat "$out/$cfg/build.secs" 2>/dev/null || echo "?")"
done
echo "all ${#configs[@]} builds: ${total}s"
for cfg in "${configs[@]}"; do
	l=$out/$cfg/build.log
	if [ "${rc_of[$cfg]}" != 0 ] || grep -q -E '(warning|error):' "$l"; then
		log "$cfg: warnings and errors ($l)"
		grep -E '(warning|error):' "$l" | sed "s|$src/||" | sort -u || true
		[ "${rc_of[$cfg]}" = 0 ] || tail -n 5 "$l"
	fi
done

b=$out/$test_config
if [ $tests = 0 ]; then
	:
elif [ "${rc_of[$test_config]}" != 0 ]; then
	log "unit and CLI tests of $test_config"
	echo "build-matrix: $test_config did not build; no tests"
	status=1
else
	log "unit and CLI tests of $test_config"
	t1=$SECONDS
	rm -f "$b/ctest-matrix.xml"
	ctest --test-dir "$b" --output-on-failure -j"$(nproc)" \
		-L '^(unit|cli)$' --output-junit "$b/ctest-matrix.xml" || status=1
	# nothing skipped that tests/expected-skips does not expect
	bash scripts/check-skips.sh tests/expected-skips \
		"$(cat "$b/pfnmap-test-kind")" "$b/ctest-matrix.xml" || status=1
	echo "tests: $((SECONDS - t1))s"
fi
[ $status = 0 ] || echo "build-matrix: FAILED (see above)"
exit $status
