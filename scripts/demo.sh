#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build pfnmap and show it doing its job. On a machine whose kernel can load
# modules (and has its headers), on the machine itself: the helper is built
# for the running kernel, loaded by pfnmap through libkmod, and the reset
# vector of the firmware ROM (0xffff0) is read. Elsewhere (containers, CI
# machines) the same happens inside a QEMU guest booting Debian's kernel,
# with memory hidden above 4 GiB and QEMU's edu device: tests/vm/demo.sh.
# Run scripts/install-deps.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."

kdir=/lib/modules/$(uname -r)/build
cmake -B build -S . -DPFNMAP_KERNEL_DIR="$kdir" > /dev/null
cmake --build build -j"$(nproc)" > /dev/null

if [ -e /proc/modules ] && [ -f build/kmod/pfnmap.ko ]; then
	run() { printf '\n$ %s\n' "$*"; "$@"; }
	echo "pfnmap on this machine ($(uname -r))"
	run build/cli/pfnmap -v --module=build/kmod/pfnmap.ko info 0xf0000+64K
	run build/cli/pfnmap --module=build/kmod/pfnmap.ko hexdump 0xffff0+16
	run build/cli/pfnmap bars
else
	echo "This kernel cannot load modules here; showing pfnmap in a QEMU guest."
	exec bash tests/vm/demo.sh build/cli/pfnmap
fi
