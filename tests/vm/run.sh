#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One pfnmap QEMU guest test (ctest vm/GUEST):
#
#   tests/vm/run.sh GUEST CLI
#
# GUEST is 6.1-amd64, 6.12-amd64 or 6.1-686-pae (the newest installed
# kernel of that kind); CLI the pfnmap binary to test in it (64-bit for the
# amd64 guests, the 32-bit build for 686-pae). Builds pfnmap.ko against the
# guest kernel's headers, packs an initramfs (lib.sh), fills the ivshmem
# backing file with data, boots, prints the guest's TAP lines with the host
# time at which each arrived, then compares the whole ivshmem file with what
# the guest was told to write (guest/tests.sh) and nothing else.
#
# Exit status 0 only if every check passed. Anything missing (QEMU, the
# kernel, busybox, the CLI) is a failure, never a skip.
# VM_TIMEOUT (default 240 s, 360 s for the ARM guests, whose instructions
# TCG translates across architectures) is the hard stop: a run takes 40-60 s
# on an idle 2-core machine, well over 100 s when other jobs load it;
# KEEP=1 keeps the work dir.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

# The exact number of guest checks (TAP lines, SKIPs included) and of SKIPs
# among them that each guest must report. The guest script and the probe
# print a check only when they reach it, so a check that silently did not
# run (the script stopped early, a probe crashed, a branch was not taken)
# shows up only here: any difference fails the run.
# To update after adding or removing checks in guest/tests.sh or probe.c:
# run each guest, read its line "# guest G: N guest checks (S skipped), F
# failed", make sure the difference from the numbers below is exactly the
# checks you added or removed (and that nothing failed), and write N and S
# here. The guests differ: the 686-pae guest has no probe32 and skips what
# a 32-bit kernel cannot do (devmem and PAT listings above 4 GiB); a 32-bit
# probe skips the mapping longer than max_map (no address space for it).
vm_expected() {	# GUEST: "CHECKS SKIPS"
	case $1 in
	6.1-amd64) echo "431 4" ;;
	6.12-amd64) echo "431 5" ;;
	6.1-686-pae) echo "338 18" ;;
	6.1-arm64) echo "334 16" ;;
	6.1-armhf) echo "311 18" ;;
	esac
}

[ $# = 2 ] || vm_die "usage: $0 GUEST CLI"
guest=$1
cli=$2

[ -e "$cli" ] || vm_die "guest $guest: no pfnmap CLI at $cli (for the 686-pae guest: build build32/, see README, or set -DPFNMAP_CLI32=PATH)"
kver=$(vm_kernel "$guest") || exit 1
vm_check_host "$kver"
limit=${VM_TIMEOUT:-240}
vm_is_cross "$kver" && limit=${VM_TIMEOUT:-360}

vm_workdir pfnmap-vm

# put FILE OFFSET DEST: FILE's bytes at OFFSET of DEST, nothing else changed
put() {
	dd if="$1" of="$3" bs=65536 seek=$(($2)) oflag=seek_bytes conv=notrunc \
		status=none
}

# The ivshmem file before boot: sparse 2 GiB with a marker and random data
ivshmem_prepare() {
	local d=$work/data
	mkdir -p "$d"
	printf 'GUEST=%s\n' "$guest" > "$d/env"
	head -c 65536 /dev/urandom > "$d/iv-a.bin"
	head -c 4096 /dev/urandom > "$d/iv-b.bin"
	head -c 1000 /dev/urandom > "$d/iv-c.bin"
	head -c 65536 /dev/urandom > "$d/rand64k"
	printf 'written by the guest through pfnmap\n' > "$d/text.txt"
	printf 'pfnmap-vm-host-marker\0' > "$d/marker"
	truncate -s 2G "$shm"
	put "$d/marker" 0 "$shm"
	put "$d/iv-a.bin" 0x1000 "$shm"
	put "$d/iv-c.bin" 0x40000007 "$shm"
	put "$d/iv-b.bin" 0x7ffff000 "$shm"
}

# What the file must hold after the guest ran: the guest's writes in
# guest/tests.sh ("the guest's writes"), at exactly these offsets
ivshmem_expect() {
	local d=$work/data e=$work/ivshmem.expected
	cp --sparse=always "$work/ivshmem.orig" "$e"
	printf '\x0d\xf0\xa5\xa5' > "$work/w1"
	put "$work/w1" 0x100000 "$e"
	printf '\xef\xbe' > "$work/w2"
	put "$work/w2" 0x100006 "$e"
	put "$d/text.txt" 0x40000003 "$e"
	printf '\x3c\x3c\x3c\x3c\x3c\x3c\x3c' > "$work/w3"
	put "$work/w3" 0x200001 "$e"
	printf '\x42' > "$work/w4"
	put "$work/w4" 0x7fffffff "$e"
	put "$d/iv-a.bin" 0x300001 "$e"
	# by BAR name: 1af4:1110/bar2@...
	printf '\x44\x33\x22\x11' > "$work/w5"
	put "$work/w5" 0x500000 "$e"
	printf '\x77\x77\x77\x77\x77' > "$work/w6"
	put "$work/w6" 0x500011 "$e"
	put "$d/text.txt" 0x600003 "$e"
}

echo "# guest $guest: kernel $kver, CLI $cli"
vm_build_module "$kver" "$work"
ivshmem_prepare
cp --sparse=always "$shm" "$work/ivshmem.orig"
files=()
for f in env iv-a.bin iv-b.bin iv-c.bin rand64k text.txt; do
	files+=("$work/data/$f:data/$f")
done
# the e1000e driver, for exclusive resources (guest/tests.sh loads it)
vm_guest_modules "$kver" "$work" e1000e
for f in "$work"/kmods/*; do
	files+=("$f:kmods/$(basename "$f")")
done
# x86: a page of RAM that a driver made uncached (tests/vm/ucpage)
if ! vm_is_cross "$kver"; then
	vm_build_ucpage "$kver" "$work"
	files+=("$work/ucpage/pfnmap_ucpage.ko:ucpage.ko")
fi
vm_build_initrd "$kver" "$work" "$cli" "$here/guest/tests.sh" "${files[@]}"

# the helper ignores iomem=, which opens /dev/mem to exclusive claims
# (guest/tests.sh checks both): one guest boots with it
[ "$guest" = 6.12-amd64 ] && export VM_APPEND="iomem=relaxed${VM_APPEND:+ $VM_APPEND}"
vm_boot "$kver" "$work" "$shm" "$limit" > "$work/console.log"
qemu_rc=$?

status=0
# the guest's TAP lines, with the host time they arrived at
grep -E '^[0-9.]+ (ok |not ok |# |1\.\.|VM-)' "$work/console.log"
read -r want_total want_skips <<< "$(vm_expected "$guest")"
vm_verdict "$work/console.log" "$guest" "$guest" '# pfnmap guest ' \
	"$qemu_rc" "$limit" "$want_total" "$want_skips" tests/vm/run.sh ||
	status=1

# the ivshmem file: everything the host put there, and exactly the
# guest's writes on top
ivshmem_expect
if cmp "$work/ivshmem.expected" "$shm" > "$work/cmp.out" 2>&1; then
	echo "ok - host: the ivshmem file holds the host's data and exactly the guest's writes"
else
	echo "not ok - host: the ivshmem file differs from the expectation:"
	cmp -l "$work/ivshmem.expected" "$shm" 2>&1 | head -n 20 | sed 's/^/#   /'
	status=1
fi

echo "# guest $guest: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
