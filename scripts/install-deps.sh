#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Install every Debian 12 package pfnmap needs to build and test:
#   scripts/install-deps.sh          build + host tests + module builds
#   scripts/install-deps.sh --vm     also QEMU, busybox and kernel images
# Idempotent; needs root and Debian's package registry.
set -euo pipefail

want_vm=0
[ "${1:-}" = "--vm" ] && want_vm=1

export DEBIAN_FRONTEND=noninteractive
apt_get() { apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }

# bookworm-backports for the 6.12 kernel, on the mirror already configured
add_backports() {
	local list=/etc/apt/sources.list.d/pfnmap-backports.sources uri
	[ -e "$list" ] && return 0
	uri=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*debian\/\?\)$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null)
	if [ -z "$uri" ]; then
		echo "install-deps: no Debian mirror configured" >&2
		exit 1
	fi
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" > "$list"
}

dpkg --add-architecture i386
add_backports
apt_get update

pkgs=(build-essential cmake pkg-config gcc-multilib
      libpci-dev libkmod-dev libcmocka-dev
      libpci-dev:i386 libkmod-dev:i386 libcmocka-dev:i386
      bsdextrautils xxd kmod pciutils
      qemu-user
      linux-headers-amd64 linux-headers-686-pae:i386)
[ $want_vm = 1 ] && pkgs+=(qemu-system-x86 busybox-static cpio
			   linux-image-amd64 linux-image-686-pae:i386)
apt_get install --no-install-recommends "${pkgs[@]}"

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
