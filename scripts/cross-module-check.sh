#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The helper module, built for another architecture's Debian kernel with
# W=1, must build without a single warning: the non-x86 paths of kmod/
# (auto mode through phys_mem_access_prot(), write-combining only where
# the architecture has it, the PTE read-back on arm64 only) compile nowhere
# else.
#
#   scripts/cross-module-check.sh ARCH [--fetch | --fetch-only | --guest]
#
# ARCH is arm64 (Debian's 6.1 arm64 kernel) or armhf (its 6.1 armmp-lpae
# kernel, 32-bit ARM with LPAE). Uses Debian's headers of the installed 6.1
# amd64 kernel's version, unpacked (not installed: their dependencies pull
# in cross toolchains) into $PFNMAP_CROSS_ROOT/ARCH (default
# /usr/lib/pfnmap-ARCH, where scripts/install-deps.sh puts them); --fetch
# downloads and unpacks them there first (apt-get download, dpkg-deb -x;
# needs ARCH in dpkg), --fetch-only does only that, --guest also the
# kernel image with its modules (depmod'ed) and busybox for the QEMU guest
# (tests/vm/lib.sh), and builds nothing. The host's own linux-kbuild-6.1
# and common headers of that version do the rest, with the cross gcc. The
# build takes 10-20 s.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'cross-module-check: %s\n' "$*" >&2; exit 1; }

arch=${1:-}
case $arch in
arm64) flavour=arm64 karch=arm64 cross=aarch64-linux-gnu- image=-unsigned ;;
armhf) flavour=armmp-lpae karch=arm cross=arm-linux-gnueabihf- image= ;;
*) die "usage: $0 arm64|armhf [--fetch | --fetch-only | --guest]" ;;
esac
mode=${2:-}
case $mode in
'' | --fetch | --fetch-only | --guest) ;;
*) die "usage: $0 arm64|armhf [--fetch | --fetch-only | --guest]" ;;
esac
root=${PFNMAP_CROSS_ROOT:-/usr/lib/pfnmap}-$arch

# The 6.1 ABI number of the installed amd64 kernel: the headers' Makefile
# includes the host's common headers of that version
abi=
for d in /lib/modules/6.1.*-amd64; do
	[ -e "$d/build/Makefile" ] && abi=${d#/lib/modules/6.1.}
done
abi=${abi%-amd64}
[ -n "$abi" ] || die "no 6.1 amd64 kernel headers in /lib/modules; run scripts/install-deps.sh"
kver=6.1.$abi-$flavour
kdir=$root/usr/src/linux-headers-$kver

# fetch PACKAGE... : downloaded and unpacked into $root
fetch() {
	local tmp
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# apt's sandbox user writes the download there
	(cd "$tmp" && apt-get -q download "$@") || {
		rm -rf "$tmp"
		die "cannot download $* (dpkg --add-architecture $arch; apt-get update)"
	}
	mkdir -p "$root"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
	rm -rf "$tmp"
}

if [ -n "$mode" ] && [ ! -e "$kdir/Makefile" ]; then
	fetch "linux-headers-$kver:$arch"
fi
[ -e "$kdir/Makefile" ] ||
	die "no $arch headers at $kdir; run $0 $arch --fetch or scripts/install-deps.sh"

# The headers' scripts link points into usr/lib/linux-kbuild-6.1 of their
# own tree: the host's (amd64) kbuild of the same version runs there. Made
# by --fetch-only too, so that the tree install-deps.sh leaves builds as it
# is (scripts/ci-packages.sh's dkms build for arm64 uses it).
kbuild=$root/usr/lib/linux-kbuild-6.1
if [ ! -e "$kbuild/scripts" ]; then
	[ -d /usr/lib/linux-kbuild-6.1 ] ||
		die "no /usr/lib/linux-kbuild-6.1 (linux-kbuild-6.1, with the amd64 headers)"
	rm -rf "$kbuild"
	mkdir -p "$(dirname "$kbuild")"
	ln -s /usr/lib/linux-kbuild-6.1 "$kbuild"
fi

# The guest's kernel, its modules and busybox (static, the guest's own
# user space); depmod writes the modules.dep a package's postinst would
if [ "$mode" = --guest ]; then
	if [ ! -e "$root/boot/vmlinuz-$kver" ] ||
		[ ! -e "$root/lib/modules/$kver/modules.dep" ] ||
		[ ! -x "$root/busybox" ]; then
		fetch "linux-image-$kver$image:$arch"
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		(cd "$tmp" && apt-get -q download "busybox-static:$arch" &&
		 dpkg-deb -x busybox-static_*.deb bb) ||
			die "cannot download busybox-static:$arch"
		install -m755 "$tmp/bb/bin/busybox" "$root/busybox"
		rm -rf "$tmp"
		depmod -b "$root" "$kver"
	fi
	exit 0
fi
[ "$mode" != --fetch-only ] || exit 0
command -v "${cross}gcc" > /dev/null ||
	die "no ${cross}gcc; run scripts/install-deps.sh"

# A scratch copy of what Kbuild needs (kmod/kbuild-files)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-$arch.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
while read -r f; do
	case $f in '' | '#'*) continue ;; esac
	(cd kmod && cp --parents -- "$f" "$scratch")
done < kmod/kbuild-files

make -C "$kdir" M="$scratch" ARCH=$karch CROSS_COMPILE=$cross \
	W=1 modules > "$scratch/build.log" 2>&1 || {
	cat "$scratch/build.log" >&2
	die "the module build for $arch ($kver) failed"
}
if grep -qi 'warning:' "$scratch/build.log"; then
	cat "$scratch/build.log" >&2
	die "the module build for $arch ($kver) printed warnings"
fi
[ -f "$scratch/pfnmap.ko" ] || die "no pfnmap.ko for $arch"
echo "cross-module-check: pfnmap.ko for $kver built with W=1, no warnings"
