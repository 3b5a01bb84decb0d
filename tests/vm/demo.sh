#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pfnmap in a QEMU guest, for machines that cannot load modules:
#
#   tests/vm/demo.sh [CLI]
#
# Boots Debian's 6.1 amd64 kernel under QEMU (TCG, about 15 s) with the
# helper built against its headers and CLI (default: build/cli/pfnmap),
# and shows `pfnmap info`, `fill`, `load`, `dump | hexdump -C`, `hexdump`
# there, then `bars` and the edu device's registers by BAR identifier.
# Needs what `scripts/install-deps.sh` installs.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

cli=${1:-$vm_top/build/cli/pfnmap}
[ -x "$cli" ] || vm_die "no pfnmap at $cli; build it first: cmake -B build && cmake --build build"
kver=$(vm_kernel 6.1-amd64) || exit 1
vm_check_host "$kver"

work=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-demo.XXXXXX")
shm=$(mktemp /dev/shm/pfnmap-demo.XXXXXX)
trap 'rm -rf "$work" "$shm"' EXIT
truncate -s 2G "$shm"

echo "Building pfnmap.ko for $kver and a guest initramfs ..."
vm_build_module "$kver" "$work"
vm_build_initrd "$kver" "$work" "$cli" "$here/guest/demo.sh"
echo "Booting Linux $kver in QEMU (TCG) ..."
vm_boot "$kver" "$work" "$shm" 150 |
	sed -u -n '/ DEMO-BEGIN$/,/ DEMO-END$/{/ DEMO-\(BEGIN\|END\)$/d;s/^[0-9.]* //;p}'
status=${PIPESTATUS[0]}
[ "$status" = 0 ] || vm_die "QEMU ended with status $status"
