#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install every Debian 12 package pfnmap needs to build and test:
#   scripts/install-deps.sh            everything: build, host tests, module
#                                      builds, QEMU guest tests
#   scripts/install-deps.sh --no-vm    no QEMU, busybox or kernel images
# Idempotent; needs root and Debian's package registry.
set -euo pipefail

want_vm=1
[ "${1:-}" = "--no-vm" ] && want_vm=0

export DEBIAN_FRONTEND=noninteractive
apt_get() { apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }

# bookworm-backports for the 6.12 kernel, on the mirror already configured
add_backports() {
	local list=/etc/apt/sources.list.d/pfnmap-backports.sources uri
	[ -e "$list" ] && return 0
	# sed quits at the first match itself: `sed | head -n1` could end sed
	# by SIGPIPE, and under pipefail and -e the script with it (as would
	# a sed error for no *.sources at all, hence || true)
	uri=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*debian\/\?\)$/\1/;T;p;q' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null || true)
	if [ -z "$uri" ]; then
		echo "install-deps: no Debian mirror configured" >&2
		exit 1
	fi
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" > "$list"
}

dpkg --add-architecture i386
# arm64: Debian's kernel headers, unpacked, for the W=1 module build
# (scripts/cross-module-check.sh), and the :arm64 libraries of the CLI's
# cross build (cmake/arm64-toolchain.cmake), whose tests run under
# qemu-aarch64
dpkg --add-architecture arm64
# armhf: Debian's armmp-lpae kernel headers, unpacked, for the W=1 module
# build (scripts/cross-module-check.sh), and the :armhf libraries of the
# CLI's 32-bit ARM cross build (cmake/armhf-toolchain.cmake), whose tests
# run under qemu-arm
dpkg --add-architecture armhf
add_backports
# A mirror in the middle of a sync serves index files of the wrong size
# ("Mirror sync in progress?") and apt-get update fails; that passes once
# the sync is over, so try again. A mirror that stays half-synced for one
# index (seen: bookworm-security's i386 list, through every retry) must
# not stop the whole install: apt keeps the other lists, and an install
# that needs the missing one fails below with its own message.
for try in 1 2 3; do
	apt_get update && break
	if [ $try = 3 ]; then
		echo "install-deps: apt-get update failed 3 times; going on with the index files it did fetch" >&2
		break
	fi
	echo "install-deps: apt-get update failed (try $try of 3), again in $((try * 20))s" >&2
	sleep $((try * 20))
done

# gcc-12-multilib, not the gcc-multilib metapackage, which Debian declares
# in conflict with every cross compiler (gcc-aarch64-linux-gnu and
# gcc-arm-linux-gnueabihf below); -m32 needs only gcc-12-multilib
pkgs=(build-essential cmake ninja-build pkg-config gcc-12-multilib valgrind
      libc6-dbg:i386	# valgrind on build32's CLI, where i386 runs natively
      memtester		# bench: memtest against memtester
      libpci-dev libkmod-dev libcmocka-dev
      libpci-dev:i386 libkmod-dev:i386 libcmocka-dev:i386
      zlib1g-dev libjson-c-dev libssl-dev	# sum's crc32, --json, sha256
      zlib1g-dev:i386 libjson-c-dev:i386 libssl-dev:i386
      # the arm64 CLI and its unit tests (test.sh's build-arm64); they
      # bring libc6-dev:arm64, the headers and libc aarch64-linux-gnu-gcc
      # finds in the multiarch directories
      libpci-dev:arm64 libkmod-dev:arm64 libcmocka-dev:arm64
      zlib1g-dev:arm64 libjson-c-dev:arm64 libssl-dev:arm64
      # the armhf CLI and its unit tests (test.sh's build-armhf), the same
      # way: libc6-dev:armhf for arm-linux-gnueabihf-gcc
      libpci-dev:armhf libkmod-dev:armhf libcmocka-dev:armhf
      zlib1g-dev:armhf libjson-c-dev:armhf libssl-dev:armhf
      bsdextrautils xxd kmod pciutils
      strace		# cli/mmap-offset: the offsets pfnmap asks mmap for
      qemu-user		# qemu-i386, qemu-aarch64 and qemu-arm: build32's,
			# build-arm64's and build-armhf's tests
      linux-headers-amd64 linux-headers-686-pae:i386
      mandoc groff-base man-db bash-completion zsh fish dkms
      lintian	# scripts/ci-packages.sh: the packages lintian clean
      clang libclang-rt-14-dev	# libFuzzer, ASan, UBSan (tests/fuzz,
				# test.sh's build-asan), build-matrix.sh
      gcc-aarch64-linux-gnu	# the module (W=1) and the CLI for arm64
      gcc-arm-linux-gnueabihf)	# the module (W=1) and the CLI for armhf
[ $want_vm = 1 ] && pkgs+=(qemu-system-x86 qemu-system-arm busybox-static cpio xz-utils
			   linux-image-amd64 linux-image-686-pae:i386)
# Multi-Arch: same packages (libssl3, zlib1g, ...) must be the same version
# in amd64, i386, arm64 and armhf. When bookworm-security's i386 (or
# arm64, armhf) list is the one that failed above, amd64 sees a security
# update that i386 cannot follow; then take bookworm's own versions for
# all (priority 990 over the 500 of -security), which is what the lists
# still agree on.
if ! apt_get install --no-install-recommends "${pkgs[@]}"; then
	echo "install-deps: install failed; again with bookworm's versions first (APT::Default-Release=bookworm)" >&2
	if ! apt_get -o APT::Default-Release=bookworm install --no-install-recommends "${pkgs[@]}"; then
		# an amd64 package already at its security version (the image's
		# linux-libc-dev) goes back to bookworm's, which i386 has too
		echo "install-deps: again, bookworm's versions over installed security updates (downgrades allowed)" >&2
		pin=/etc/apt/preferences.d/pfnmap-bookworm
		printf 'Package: *\nPin: release n=bookworm\nPin-Priority: 1001\n' >"$pin"
		apt_get --allow-downgrades install --no-install-recommends "${pkgs[@]}" || { rm -f "$pin"; exit 1; }
		rm -f "$pin"
	fi
fi

# The 6.12 kernel from backports, beside bookworm's 6.1
bp=(linux-headers-amd64)
[ $want_vm = 1 ] && bp+=(linux-image-amd64)
apt_get install --no-install-recommends -t bookworm-backports "${bp[@]}"

if [ $want_vm = 1 ] && [ ! -x /usr/lib/pfnmap-i386/busybox ]; then
	# The amd64 busybox cannot run in a 32-bit guest
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download busybox-static:i386 &&
	 dpkg-deb -x busybox-static_*_i386.deb root)
	install -D -m755 "$tmp/root/bin/busybox" /usr/lib/pfnmap-i386/busybox
	rm -rf "$tmp"
fi

# Debian's arm64 and armhf (armmp-lpae) headers of the 6.1 kernel, and for
# the QEMU guests its images with their modules and busybox, unpacked into
# /usr/lib/pfnmap-ARCH: their packages' dependencies would pull in cross
# toolchains (scripts/cross-module-check.sh)
for a in arm64 armhf; do
	if [ $want_vm = 1 ]; then
		bash "$(dirname "$0")/cross-module-check.sh" $a --guest
	else
		bash "$(dirname "$0")/cross-module-check.sh" $a --fetch-only
	fi
done

# VM: everything tests/vm/ needs must now be there; CI runs on a fresh
# machine, and the guest tests fail (never skip) when something is missing
if [ $want_vm = 1 ]; then
	missing=()
	for t in qemu-system-x86_64 qemu-system-aarch64 qemu-system-arm cpio gzip \
		xz readelf; do
		command -v "$t" > /dev/null || missing+=("$t")
	done
	for f in /bin/busybox /usr/lib/pfnmap-i386/busybox /lib/ld-linux.so.2 \
		/lib/i386-linux-gnu/libkmod.so.2 /usr/lib/i386-linux-gnu/libc.a \
		/usr/lib/pfnmap-arm64/busybox /usr/lib/pfnmap-armhf/busybox \
		/usr/lib/aarch64-linux-gnu/libc.a /usr/lib/arm-linux-gnueabihf/libc.a; do
		[ -e "$f" ] || missing+=("$f")
	done
	# one kernel of each kind with both an image and a build directory
	for pat in '6.1.*-amd64' '6.12.*-amd64' '6.1.*-686-pae' \
		'arm64 6.1.*-arm64' 'armhf 6.1.*-armmp-lpae'; do
		found=0
		# the cross kernels' headers: cross-module-check.sh above
		root='' need=build/Makefile
		case $pat in
		arm*) root=/usr/lib/pfnmap-${pat%% *} pat=${pat#* } need=modules.dep ;;
		esac
		for d in "$root"/lib/modules/$pat; do
			[ -e "$root/boot/vmlinuz-${d##*/}" ] && [ -e "$d/$need" ] &&
				found=1
		done
		[ $found = 1 ] || missing+=("kernel $pat ($root/boot/vmlinuz-* + $root/lib/modules/*/$need)")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		printf 'install-deps: still missing for the QEMU guest tests: %s\n' \
			"${missing[@]}" >&2
		exit 1
	fi
fi
