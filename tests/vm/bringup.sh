#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Scripted bring-up in a QEMU guest (ctest vm-bringup/GUEST):
#
#   tests/vm/bringup.sh GUEST CLI
#
# Drives QEMU's edu device end to end from one `pfnmap batch` file
# (guest/bringup.sh): config space, factorial, a DMA round trip through
# hidden RAM (x86: below 256 MiB, edu's default 28-bit DMA reach), cmp, sum,
# a poll that times out and a batch that stops before running. The
# pattern and its CRC-32 (zlib's, computed here) come from the host.
# VM_TIMEOUT (default 240 s) is the hard stop; KEEP=1 keeps the work dir.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

# Exact number of guest checks and skips (see vm_expected in run.sh)
vm_expected() {	# GUEST: "CHECKS SKIPS"
	echo "15 0"
}

[ $# = 2 ] || vm_die "usage: $0 GUEST CLI"
guest=$1
cli=$2
limit=${VM_TIMEOUT:-240}

[ -e "$cli" ] || vm_die "guest $guest: no pfnmap CLI at $cli"
kver=$(vm_kernel "$guest") || exit 1
vm_check_host "$kver"

vm_workdir pfnmap-bringup

# The machine: x86 hides 1 MiB at 128 MiB, within edu's default 28-bit DMA
# reach; ARM has no RAM below 1 GiB, so edu reaches 40 (32 on armhf) bits
# there and the memory beyond mem= is the hidden RAM
phys_bits=
if vm_is_arm64 "$kver"; then
	hidden=0x180000000
	append="console=$(vm_console "$kver") quiet panic=-1 $(vm_hidden_append "$kver")"
	read -r -a machine <<< "$(vm_hidden_mem "$kver")"
	machine+=(-device "edu,dma_mask=0xffffffffff")
	# a Cortex-A57: PARange 44 bits (QEMU's ID_AA64MMFR0_EL1 0x1124),
	# fewer than the kernel's 48, which the helper must not promise
	export VM_CPU=cortex-a57
	phys_bits=44
elif vm_is_cross "$kver"; then
	# armhf: 32-bit DMA address writes (guest/bringup.sh), so the hidden
	# RAM below 4 GiB: 2 GiB of System RAM from 0x40000000
	hidden=0xc0000000
	append="console=$(vm_console "$kver") quiet panic=-1 mem=2G"
	machine=(-m 3G -device "edu,dma_mask=0xffffffff")
	phys_bits=40	# LPAE's long descriptors
else
	hidden=0x8000000
	append="console=ttyS0 quiet panic=-1 tsc=unstable memmap=1M\$$hidden"
	machine=(-m 1G -device edu)
fi

echo "# guest $guest (bringup): kernel $kver, CLI $cli"
vm_build_module "$kver" "$work"
head -c 2048 /dev/urandom > "$work/pattern"
# a zero word would not differ from the zeros it is compared with
read -r crc ndiff < <(python3 - "$work/pattern" <<'EOF'
import struct, sys, zlib
b = open(sys.argv[1], 'rb').read()
words = struct.unpack('<512I', b)
print('%08x' % zlib.crc32(b), sum(1 for w in words if w))
EOF
)
cat > "$work/env" <<EOF
GUEST=$guest
PHYS_BITS=$phys_bits
HIDDEN=$hidden
CRC=$crc
NDIFF=$ndiff
EOF
vm_build_initrd "$kver" "$work" "$cli" "$here/guest/bringup.sh" \
	"$work/env:data/env" "$work/pattern:data/pattern"

vm_qemu_start "$kver" "$work" "$limit" "$append" -smp 1 "${machine[@]}"
vm_qemu_end
qemu_rc=$?

status=0
grep -E '^[0-9.]+ (ok |not ok |# |1\.\.|VM-)' "$work/console.log"
read -r want_total want_skips <<< "$(vm_expected "$guest")"
vm_verdict "$work/console.log" "$guest" "$guest (bringup)" \
	'# pfnmap bringup guest ' "$qemu_rc" "$limit" "$want_total" \
	"$want_skips" tests/vm/bringup.sh || status=1

echo "# guest $guest (bringup): $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
