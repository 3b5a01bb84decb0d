#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build everything and run every test: the CLI 64- and 32-bit and for arm64
# and armhf (cross-built, their tests under qemu-aarch64 and qemu-arm) with
# -Werror (PFNMAP_WERROR), the helper module warning-free (W=1) against
# every kernel whose headers are installed (6.1 amd64, 6.12 amd64 from
# backports, 6.1 686-pae) and Debian's 6.1 arm64 headers, the CLI with
# ASan and UBSan (clang, PFNMAP_SANITIZE), then ctest on the five builds
# (the cross builds' Debian packages checked too), which fails
# also when a build skipped other tests than tests/expected-skips lists for
# it; the parsers' fuzz targets for 60 s each (tests/fuzz); last the
# build matrix
# (scripts/build-matrix.sh: every build type, gcc and clang, 64- and
# 32-bit, -Werror). The README gives this command; .ci/run calls it after
# scripts/install-deps.sh.
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
cmake -B build -DPFNMAP_KERNEL_DIR="$kdir_amd64" -DPFNMAP_WERROR=ON
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

# arm64 and armhf (armmp-lpae), with Debian's headers (install-deps.sh
# unpacks them): the helper's non-x86 paths compile nowhere else; 10-20 s
# each
for a in arm64 armhf; do
	log "module for $a"
	bash scripts/cross-module-check.sh $a
done

log "CLI (i386), module against $kdir_pae"
cmake -B build32 -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/i386-toolchain.cmake" \
	-DPFNMAP_KERNEL_DIR="$kdir_pae" -DPFNMAP_WERROR=ON
cmake --build build32 -j"$(nproc)"

# cross_build ARCH QEMU GCC: the CLI cross-built for Debian's ARCH in
# build-ARCH (cmake/ARCH-toolchain.cmake) with GCC, its tests under QEMU
# below. A missing :ARCH library or GCC fails the configure
# (pkg_check_modules ... REQUIRED), a missing QEMU fails here:
# install-deps.sh installs them all, so none is ever skipped
cross_build() {
	local b=build-$1

	log "CLI ($1)"
	command -v "$2" >/dev/null ||
		die "no $2 (package qemu-user) for $b's tests: run scripts/install-deps.sh"
	cmake -B "$b" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/$1-toolchain.cmake" \
		-DPFNMAP_WERROR=ON -DPFNMAP_BUILD_MODULE=OFF ||
		die "$b: configure failed (the :$1 -dev packages and $3: scripts/install-deps.sh)"
	cmake --build "$b" -j"$(nproc)"
}
# arm64 (the module's arm64 build is cross-module-check.sh's): ~15 s to
# configure and build, ~2.5 min of tests on 2 cores
cross_build arm64 qemu-aarch64 gcc-aarch64-linux-gnu
# 32-bit ARM: ~15 s to build, 3.5 to 5 min of tests on 2 cores (qemu-arm
# is the slowest of the emulators)
cross_build armhf qemu-arm gcc-arm-linux-gnueabihf
# Its exact-width 64-bit accesses are LDRD and STRD (lib/access.h), never
# the exclusive LDREXD/STREXD loop that 64-bit __atomic code becomes on
# ARMv7, which Device memory need not support: none anywhere in the CLI
n=$(arm-linux-gnueabihf-objdump -d build-armhf/cli/pfnmap | grep -cE '\s(ldrexd|strexd)\s' || true)
[ "$n" = 0 ] ||
	die "build-armhf: $n LDREXD/STREXD in cli/pfnmap (lib/access.h's arm code not used?)"

# Every cli and pci script under ASan (leaks included) and UBSan; valgrind
# runs a few of them in build (tests/CMakeLists.txt: PFNMAP_VALGRIND_TESTS)
log "CLI (amd64) with ASan and UBSan"
cmake -B build-asan -DCMAKE_C_COMPILER=clang -DPFNMAP_WERROR=ON \
	-DPFNMAP_SANITIZE=address,undefined -DPFNMAP_BUILD_MODULE=OFF
cmake --build build-asan -j"$(nproc)"

# run_tests BUILD [LABELS]: its ctest tests (those of the labels that the
# ctest -L regex LABELS matches), the QEMU guests (label vm) after all the
# others, each run's results in BUILD/ctest-*.xml (JUnit); then the tests
# it skipped must be those tests/expected-skips lists for its kind
# (scripts/check-skips.sh). Every test works in a mktemp directory (the
# guests in a /dev/shm file of their own too): the tests run in parallel.
run_tests() {
	local b=$1 rc=0 sel=(-LE vm)

	[ $# -lt 2 ] || sel=(-L "$2")
	rm -f "$b"/ctest-*.xml
	ctest --test-dir "$b" --output-on-failure -j"$(nproc)" "${sel[@]}" \
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
# the unit, cli, pci and shim tests under qemu-aarch64 (the shim's
# LD_PRELOAD goes to the CLI as qemu-aarch64 -E): tests/expected-skips,
# kind arm64-qemu; the docs tests are build's, as for build-asan below
log "tests: build-arm64"
run_tests build-arm64 '^(unit|cli|pci|shim)$' || status=1
# cross_package BUILD ARCH MACHINE: BUILD's Debian package, made and
# checked, never installed (not on an amd64 host): Architecture ARCH
# (cmake/packaging.cmake), usr/bin/pfnmap an ELF file whose readelf
# Machine is MACHINE, lintian clean as scripts/ci-packages.sh wants the
# amd64 one; ~10 s a package
cross_package() {
	local b=$1 arch=$2 machine=$3 debs deb tags m

	rm -f "$b"/*.deb
	(cd "$b" && cpack -G DEB) || return 1
	debs=("$b"/pfnmap_*_"$arch".deb)
	deb=${debs[0]}
	[ -e "$deb" ] || { echo "cpack made no pfnmap_*_$arch.deb in $b" >&2; return 1; }
	[ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || {
		echo "$deb: Architecture $(dpkg-deb -f "$deb" Architecture), not $arch" >&2
		return 1
	}
	rm -rf "$b/deb-root"
	dpkg-deb -x "$deb" "$b/deb-root" || return 1
	# the whole field: ARM is not AArch64, nor AArch64 ARM
	m=$(readelf -h "$b/deb-root/usr/bin/pfnmap" | sed -n 's/^ *Machine: *//p')
	[ "$m" = "$machine" ] || {
		echo "$deb: usr/bin/pfnmap is no $machine binary (readelf: ${m:-no ELF header})" >&2
		return 1
	}
	rm -rf "$b/deb-root"
	tags=$(lintian --fail-on error,warning,info --display-info \
		--show-overrides "$deb") || return 1
	[ -z "$tags" ] || { printf '%s\n' "$tags"; return 1; }
	echo "$deb: Architecture $arch, $machine, no lintian tags"
}
log "package: build-arm64"
cross_package build-arm64 arm64 AArch64 || status=1
# the same for 32-bit ARM, under qemu-arm: tests/expected-skips, kind
# armhf-qemu (as i386-qemu's: offsets above 4 GiB and SIGBUS addresses)
log "tests: build-armhf"
run_tests build-armhf '^(unit|cli|pci|shim)$' || status=1
log "package: build-armhf"
cross_package build-armhf armhf ARM || status=1
# the docs tests read only --help and the sources: build runs them
log "tests: build-asan"
run_tests build-asan '^(unit|cli|pci|shim)$' || status=1
# the parsers' libFuzzer targets (tests/fuzz), 60 s each on the corpus in
# the tree (tests/fuzz/run.sh for longer runs): a finding fails the run
log "fuzz: the parsers' libFuzzer targets (clang, ASan+UBSan)"
cmake -B build-fuzz -DCMAKE_C_COMPILER=clang -DPFNMAP_FUZZ=ON \
	-DPFNMAP_WERROR=ON -DPFNMAP_BUILD_MODULE=OFF
cmake --build build-fuzz -j"$(nproc)" --target fuzz
ctest --test-dir build-fuzz -L fuzz --output-on-failure -j"$(nproc)" \
	--output-junit "$PWD/build-fuzz/ctest-fuzz.xml" || status=1
log "build matrix"
# (its unit and CLI tests ran above on a clang build: build-asan)
bash scripts/build-matrix.sh --no-tests build-matrix || status=1
[ $status = 0 ] || die "tests or matrix builds failed, or skipped other tests than tests/expected-skips lists (see above)"
