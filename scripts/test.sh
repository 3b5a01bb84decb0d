#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build everything and run every test: the CLI 64- and 32-bit with -Werror,
# the helper module warning-free (W=1) against every kernel whose headers
# are installed (6.1 amd64, 6.12 amd64 from backports, 6.1 686-pae), then
# ctest on both builds, which fails also when a build skipped other tests
# than tests/expected-skips lists for it. The README gives this command;
# .ci/run calls it after scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n=== %s\n' "$*"; }
die() { printf 'test.sh: %s\n' "$*" >&2; exit 1; }

# Kernel build directories: by what is installed, never by `uname -r`
# (that is the CI host's own kernel, without headers).
kdirs=()
for d in /lib/modules/*/build; do
	[ -e "$d/Makefile" ] && kdirs+=("$d")
done
[ ${#kdirs[@]} -ge 3 ] ||
	die "need three kernel build directories under /lib/modules, found ${#kdirs[@]}: ${kdirs[*]:-none}"
kdir_amd64=
kdir_pae=
for d in "${kdirs[@]}"; do
	v=${d#/lib/modules/}
	v=${v%/build}
	case $v in
	6.1.*-amd64) kdir_amd64=$d ;;
	*-686-pae) kdir_pae=$d ;;
	esac
done
[ -n "$kdir_amd64" ] || die "no 6.1 amd64 kernel headers in /lib/modules"
[ -n "$kdir_pae" ] || die "no 686-pae kernel headers in /lib/modules"

log "CLI (amd64), module against $kdir_amd64"
cmake -B build -DPFNMAP_KERNEL_DIR="$kdir_amd64"
cmake --build build -j"$(nproc)"

# Each kernel separately with plain Kbuild, in scratch copies of kmod/
for d in "${kdirs[@]}"; do
	v=${d#/lib/modules/}
	v=${v%/build}
	log "module for $v"
	scratch=$PWD/build/kmod-ci/$v
	rm -rf "$scratch"
	mkdir -p "$scratch"
	# what Kbuild needs: kmod/kbuild-files, one path a line, # comments
	while read -r f; do
		case $f in '' | '#'*) continue ;; esac
		(cd kmod && cp --parents -- "$f" "$scratch")
	done <kmod/kbuild-files
	make -C "$d" M="$scratch" W=1 modules 2>&1 | tee "$scratch/build.log"
	[ -f "$scratch/pfnmap.ko" ] || die "no pfnmap.ko for $v"
	if grep -qi 'warning:' "$scratch/build.log"; then
		die "the module build for $v printed warnings (see above)"
	fi
done

log "CLI (i386), module against $kdir_pae"
cmake -B build32 -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/i386-toolchain.cmake" \
	-DPFNMAP_KERNEL_DIR="$kdir_pae"
cmake --build build32 -j"$(nproc)"

# run_tests BUILD: its ctest tests, the QEMU guests (label vm) after all
# the others, each run's results in BUILD/ctest-*.xml (JUnit); then the
# tests it skipped must be those tests/expected-skips lists for its kind
# (scripts/check-skips.sh). Every test works in a mktemp directory (the
# guests in a /dev/shm file of their own too): the tests run in parallel.
run_tests() {
	local b=$1 rc=0

	rm -f "$b"/ctest-*.xml
	ctest --test-dir "$b" --output-on-failure -j"$(nproc)" -LE vm \
		--output-junit "$PWD/$b/ctest-main.xml" || rc=1
	# no `ctest | grep -q` under pipefail: grep may leave ctest a SIGPIPE
	if [ "$(ctest --test-dir "$b" -N -L vm | tail -n1)" != 'Total Tests: 0' ]; then
		ctest --test-dir "$b" --output-on-failure -j"$(nproc)" -L vm \
			--output-junit "$PWD/$b/ctest-vm.xml" || rc=1
	fi
	log "skipped tests in $b"
	bash scripts/check-skips.sh tests/expected-skips \
		"$(cat "$b/pfnmap-test-kind")" "$b"/ctest-*.xml || rc=1
	return $rc
}

status=0
log "tests: build"
run_tests build || status=1
log "tests: build32"
run_tests build32 || status=1
[ $status = 0 ] || die "tests failed, or skipped other tests than tests/expected-skips lists (see above)"
