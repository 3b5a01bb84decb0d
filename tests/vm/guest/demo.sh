#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# The demo (tests/vm/demo.sh), run by /init in the QEMU guest: a few pfnmap
# commands on the hidden memory at 0x180000000, the PCI BARs, QEMU's edu
# device and ivshmem's BAR2 above 4 GiB, each shown as "$ command" and its
# output.

edu=0
slot=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1234:0x11e8 ]; then
		edu=$(printf '0x%x' "$(sed -n 1p "$d/resource" | cut -d' ' -f1)")
		slot=${d##*/0000:}
	fi
done

run() {
	printf '\n$ %s\n' "$1"
	sh -c "$1" 2>&1
}

echo DEMO-BEGIN
echo "Linux $(uname -r) in QEMU: 4 MiB of RAM hidden at 0x180000000 (memmap=4M\$0x180000000),"
echo "QEMU's edu device at $slot (registers at $edu) and an ivshmem device. pfnmap is at /bin/pfnmap,"
echo "its helper module at /pfnmap.ko."
run "grep 180000000 /proc/iomem"
run "pfnmap info 0x180000000+4M"
run "pfnmap --module=/pfnmap.ko -v --width=8 fill 0x180000000+256 0x2e"
run "printf 'Hello from 6 GiB up, by page frame number!' | pfnmap load 0x180000010"
run "pfnmap dump 0x180000000+256 | hexdump -C"
run "pfnmap hexdump 0x180000000+64"
echo
echo "# PCI devices and their BARs, through libpci; then the edu device's"
echo "# identification register by vendor:device, and its liveness register"
echo "# (it reads back the bitwise NOT of what was written) by slot:"
run "pfnmap bars"
run "pfnmap read 1234:11e8/bar0"
run "pfnmap write $slot/bar0@4 0x12345678 && pfnmap read $slot/bar0@4"
run "busybox devmem $(printf '0x%x' $((edu + 4))) 32"
run "pfnmap info 1af4:1110/bar2@1M+4K"
echo
echo DEMO-END
