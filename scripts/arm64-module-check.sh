#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The helper module, built for arm64 with W=1, must build without a single
# warning: the non-x86 paths of kmod/ (auto mode through
# phys_mem_access_prot(), write-combining only where the architecture has
# it, no x86 PAT read-back) compile nowhere else.
#
#   scripts/arm64-module-check.sh [--fetch | --fetch-only]
#
# Uses Debian's arm64 headers of the installed 6.1 amd64 kernel's version,
# unpacked (not installed: their dependencies pull in arm64 toolchains)
# into $ARM64_HEADERS (default /usr/lib/pfnmap-arm64, where
# scripts/install-deps.sh puts them); --fetch downloads and unpacks them
# there first (apt-get download, dpkg-deb -x; needs the arm64 architecture
# in dpkg), --fetch-only does only that and links their kbuild (below),
# leaving a tree that builds. The host's own linux-kbuild-6.1 and common
# headers of that version do the rest, with aarch64-linux-gnu-gcc. The
# build takes 10-20 s.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'arm64-module-check: %s\n' "$*" >&2; exit 1; }

hdrs=${ARM64_HEADERS:-/usr/lib/pfnmap-arm64}

# The 6.1 ABI number of the installed amd64 kernel: the arm64 headers'
# Makefile includes the host's common headers of that version
abi=
for d in /lib/modules/6.1.*-amd64; do
	[ -e "$d/build/Makefile" ] && abi=${d#/lib/modules/6.1.}
done
abi=${abi%-amd64}
[ -n "$abi" ] || die "no 6.1 amd64 kernel headers in /lib/modules; run scripts/install-deps.sh"
kver=6.1.$abi-arm64
kdir=$hdrs/usr/src/linux-headers-$kver

case ${1:-} in
'' | --fetch | --fetch-only) ;;
*) die "usage: $0 [--fetch | --fetch-only]" ;;
esac
if [ -n "${1:-}" ] && [ ! -e "$kdir/Makefile" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"	# apt's sandbox user writes the download there
	(cd "$tmp" && apt-get -q download "linux-headers-$kver:arm64") ||
		die "cannot download linux-headers-$kver:arm64 (dpkg --add-architecture arm64; apt-get update)"
	mkdir -p "$hdrs"
	dpkg-deb -x "$tmp"/linux-headers-*.deb "$hdrs"
fi
[ -e "$kdir/Makefile" ] ||
	die "no arm64 headers at $kdir; run $0 --fetch or scripts/install-deps.sh"

# The headers' scripts link points into usr/lib/linux-kbuild-6.1 of their
# own tree: the host's (amd64) kbuild of the same version runs there. Made
# by --fetch-only too, so that the tree install-deps.sh leaves builds as it
# is (scripts/ci-packages.sh's dkms build for arm64 uses it).
kbuild=$hdrs/usr/lib/linux-kbuild-6.1
if [ ! -e "$kbuild/scripts" ]; then
	[ -d /usr/lib/linux-kbuild-6.1 ] ||
		die "no /usr/lib/linux-kbuild-6.1 (linux-kbuild-6.1, with the amd64 headers)"
	rm -rf "$kbuild"
	mkdir -p "$(dirname "$kbuild")"
	ln -s /usr/lib/linux-kbuild-6.1 "$kbuild"
fi
[ "${1:-}" != --fetch-only ] || exit 0
command -v aarch64-linux-gnu-gcc > /dev/null ||
	die "no aarch64-linux-gnu-gcc; install gcc-aarch64-linux-gnu"

# A scratch copy of what Kbuild needs (kmod/kbuild-files)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-arm64.XXXXXX")
trap 'rm -rf "$scratch" ${tmp:+"$tmp"}' EXIT
while read -r f; do
	case $f in '' | '#'*) continue ;; esac
	(cd kmod && cp --parents -- "$f" "$scratch")
done < kmod/kbuild-files

make -C "$kdir" M="$scratch" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
	W=1 modules > "$scratch/build.log" 2>&1 || {
	cat "$scratch/build.log" >&2
	die "the module build for arm64 ($kver) failed"
}
if grep -qi 'warning:' "$scratch/build.log"; then
	cat "$scratch/build.log" >&2
	die "the module build for arm64 ($kver) printed warnings"
fi
[ -f "$scratch/pfnmap.ko" ] || die "no pfnmap.ko for arm64"
echo "arm64-module-check: pfnmap.ko for $kver built with W=1, no warnings"
