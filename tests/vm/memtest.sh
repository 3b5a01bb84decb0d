#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# memtest in a QEMU guest (ctest vm-memtest/GUEST):
#
#   tests/vm/memtest.sh GUEST CLI
#
# guest/memtest.sh runs `pfnmap memtest` on memory hidden above 4 GiB
# (vm_boot's machine: memmap=, the 32-bit CLI on 686-pae too; mem= on
# arm64), at three
# widths, and on the ivshmem BAR with uc and wc; and once while this script
# writes 0xff into one byte of the ivshmem backing file behind the guest's
# back, which memtest must report (exit 5, that address, those bits). The
# host then checks, in the backing file, that the guest changed nothing
# outside the regions it tested. VM_TIMEOUT (default 300 s) is the hard
# stop; KEEP=1 keeps the work dir.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

# Exact number of guest checks and skips (see vm_expected in run.sh)
vm_expected() {	# GUEST: "CHECKS SKIPS"
	echo "12 0"
}

[ $# = 2 ] || vm_die "usage: $0 GUEST CLI"
guest=$1
cli=$2
limit=${VM_TIMEOUT:-300}
# the ivshmem BAR's regions, offsets into it and into the backing file
iv_uc=0x100000		# 256 KiB tested with uc
iv_wc=0x200000		# 256 KiB tested with wc
iv_bad=0x300000		# 64 KiB tested while the host writes into it
iv_hit=0x301234		# the byte the host writes
iv_size=0x40000

[ -e "$cli" ] || vm_die "guest $guest: no pfnmap CLI at $cli"
kver=$(vm_kernel "$guest") || exit 1
vm_check_host "$kver"

vm_workdir pfnmap-memtest

echo "# guest $guest (memtest): kernel $kver, CLI $cli"
vm_build_module "$kver" "$work"
truncate -s 16M "$shm"
head -c 16M /dev/urandom > "$work/orig"
cp "$work/orig" "$shm"
crc_a5=$(head -c 1M /dev/zero | tr '\0' '\245' | python3 -c \
	'import sys, zlib; print("%08x" % zlib.crc32(sys.stdin.buffer.read()))')
cat > "$work/env" <<EOT
GUEST=$guest
CRC_A5=$crc_a5
IV_UC=$iv_uc
IV_WC=$iv_wc
IV_BAD=$iv_bad
IV_HIT=$iv_hit
IV_SIZE=$iv_size
EOT
vm_build_initrd "$kver" "$work" "$cli" "$here/guest/memtest.sh" \
	"$work/env:data/env"

read -r -a mem <<< "$(vm_hidden_mem "$kver")"
vm_qemu_start "$kver" "$work" "$limit" \
	"console=$(vm_console "$kver") quiet panic=-1 $(vm_hidden_append "$kver")" \
	"${mem[@]}" -smp 1 \
	-object "memory-backend-file,id=hm,mem-path=$shm,size=16M,share=on" \
	-device ivshmem-plain,memdev=hm
# the fault: 0xff into one byte, over and over, while the guest runs (it
# tests that region last, until it has seen four failures)
(
	while kill -0 "$vm_qemu_pid" 2> /dev/null; do
		printf '\xff' | dd of="$shm" bs=1 seek=$((iv_hit)) \
			conv=notrunc status=none
		sleep 0.01
	done
) &
writer=$!
vm_qemu_end
qemu_rc=$?
wait "$writer"

status=0
grep -E '^[0-9.]+ (ok |not ok |# |1\.\.|VM-)' "$work/console.log"
read -r want_total want_skips <<< "$(vm_expected "$guest")"
vm_verdict "$work/console.log" "$guest" "$guest (memtest)" \
	'# pfnmap memtest guest ' "$qemu_rc" "$limit" "$want_total" \
	"$want_skips" tests/vm/memtest.sh || status=1

# Outside the three tested regions the backing file is as the host wrote
# it: the guest's memtest touched nothing else
outside() {
	local f=$1
	head -c $((iv_uc)) "$f"
	tail -c +$((iv_uc + iv_size + 1)) "$f" | head -c $((iv_wc - iv_uc - iv_size))
	tail -c +$((iv_wc + iv_size + 1)) "$f" | head -c $((iv_bad - iv_wc - iv_size))
	tail -c +$((iv_bad + 0x10000 + 1)) "$f"
}
if cmp -s <(outside "$work/orig") <(outside "$shm"); then
	echo "ok - host: the ivshmem file is unchanged outside the tested regions"
else
	echo "not ok - host: the guest changed the ivshmem file outside the tested regions"
	status=1
fi

echo "# guest $guest (memtest): $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
