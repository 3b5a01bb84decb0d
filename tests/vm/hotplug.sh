#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The memory hot-plug, debugger-access and soak guest run (ctest
# vm-hotplug/GUEST):
#
#   tests/vm/hotplug.sh GUEST CLI [memmap-on-memory]
#
# GUEST is 6.1-amd64, 6.12-amd64, 6.1-686-pae or 6.1-arm64 (virtio-mem
# instead of DIMMs, see below), as for run.sh; CLI the
# pfnmap binary of the guest's word size (the initramfs carries it, as
# every guest run's does). Builds pfnmap.ko against the guest kernel's
# headers and tests/vm/hotplug.c for its user space, boots a machine with
# 1 GiB of RAM and two DIMM slots (-m 1G,slots=2,maxmem=4G), 8 MiB of it
# hidden at 0x3e000000, an ivshmem-plain device and two CPUs, and serves
# the guest's requests "VM-PLUG NAME ADDRESS SIZE" on the console by
# plugging a DIMM there through the QEMU monitor (guest/hotplug.sh maps the
# range first). Then the guest's TAP lines are checked as run.sh checks
# them: every check passed, exactly the expected number ran.
#
# With memmap-on-memory the kernel boots with
# memory_hotplug.memmap_on_memory=1 and the soak lasts 5 s: the hot-plug
# checks then show that a mapping of a block's first pages, where the
# kernel keeps that block's memmap, still holds back its online.
#
# SOAK_SECONDS (default 60) and SOAK_PROCS (8) size the soak; VM_TIMEOUT
# (default 240 s) is the hard stop; KEEP=1 keeps the work dir; VM_APPEND
# adds to the kernel command line (slub_debug=FZPU to hunt a corruption).
# The run takes about 90 s on an idle 2-core machine, most of it the soak.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"

# Exact number of guest checks and of skips among them (see vm_expected in
# run.sh for how to update them): the 686-pae kernel has no memory
# hot-plug, so its 18 hot-plug checks are skips.
vm_expected() {	# GUEST MOM: "CHECKS SKIPS"
	case $1 in
	6.1-amd64 | 6.12-amd64) echo "$((46 + $2)) 0" ;;
	6.1-686-pae) echo "46 22" ;;
	6.1-arm64) echo "39 1" ;;
	esac
}

[ $# = 2 ] || { [ $# = 3 ] && [ "$3" = memmap-on-memory ]; } ||
	vm_die "usage: $0 GUEST CLI [memmap-on-memory]"
guest=$1
cli=$2
mom=0
[ $# = 3 ] && mom=1
limit=${VM_TIMEOUT:-240}
soak_seconds=${SOAK_SECONDS:-60}
# memmap-on-memory: the kernel keeps a hot-added block's memmap in the
# block's first pages; the hot-plug checks are what that run is for, the
# soak is the plain run's
[ $mom = 1 ] && soak_seconds=${SOAK_SECONDS:-5}
soak_procs=${SOAK_PROCS:-8}

[ -e "$cli" ] || vm_die "guest $guest: no pfnmap CLI at $cli"
kver=$(vm_kernel "$guest") || exit 1
vm_check_host "$kver"

# The machine: x86, QEMU's pc with DIMM slots and 8 MiB of RAM hidden
# with memmap=; arm64, QEMU's virt, which plugs memory through virtio-mem
# (Debian's arm64 kernel has no ACPI memory hot-plug), the RAM beyond
# mem=1016M hidden
if vm_is_arm64 "$kver"; then
	plug=virtio-mem
	hidden=0x7f800000
	hp_base=0x80000000	# virt's device memory, after 1 GiB of RAM
	append="console=ttyAMA0 quiet panic=-1 mem=1016M"
	# shellcheck disable=SC2054 # QEMU's commas, inside one argument
	machine=(-object memory-backend-ram,id=vmem0-mem,size=1G
		-device virtio-mem-pci,id=vmem0,memdev=vmem0-mem,requested-size=0)
	# TCG translates arm64: a shorter soak does as much
	soak_seconds=${SOAK_SECONDS:-20}
elif vm_is_cross "$kver"; then
	vm_die "guest $guest: 32-bit ARM has no memory hot-plug"
else
	plug=dimm
	hidden=0x3e000000
	hp_base=0x100000000	# QEMU's device memory region with -m 1G (pc)
	# shellcheck disable=SC2016 # the $ of memmap= is literal
	append='console=ttyS0 quiet panic=-1 tsc=unstable memmap=8M$0x3e000000'
	[ $mom = 1 ] && append+=" memory_hotplug.memmap_on_memory=1"
	machine=()
fi

vm_workdir pfnmap-hotplug

echo "# guest $guest (hotplug): kernel $kver, CLI $cli"
vm_build_module "$kver" "$work"
vm_guest_cc "$kver" "$here/hotplug.c" "$work/hotplug"
files=("$work/hotplug:bin/hotplug" "$work/env:data/env")
if [ $plug = virtio-mem ]; then
	vm_guest_modules "$kver" "$work" virtio_pci virtio_mem
	for f in "$work"/kmods/*; do
		files+=("$f:kmods/$(basename "$f")")
	done
fi
cat > "$work/env" <<EOF
GUEST=$guest
PLUG=$plug
HIDDEN=$hidden
HIDDEN_SIZE=0x800000
HP_BASE=$hp_base
SOAK_SECONDS=$soak_seconds
SOAK_PROCS=$soak_procs
MOM=$mom
EOF
vm_build_initrd "$kver" "$work" "$cli" "$here/guest/hotplug.sh" "${files[@]}"
truncate -s 2G "$shm"

vm_qemu_start "$kver" "$work" "$limit" "$append${VM_APPEND:+ $VM_APPEND}" \
	-m 1G,slots=2,maxmem=4G -smp 2 "${machine[@]}" \
	-object "memory-backend-file,id=hm,mem-path=$shm,size=2G,share=on" \
	-device ivshmem-plain,memdev=hm

# shellcheck disable=SC2317 # called by name: plug_$plug
# plug_dimm NAME ADDR SIZE: a DIMM of exactly that size at exactly that
# address. plug_virtio_mem: virtio-mem asked for as much as reaches from
# its region's start to ADDR + SIZE; the guest's driver plugs it from the
# lowest address on
plug_dimm() {
	vm_monitor "object_add memory-backend-ram,id=$1-mem,size=$(($3))"
	vm_monitor "device_add pc-dimm,id=$1,memdev=$1-mem,addr=$(($2))"
	vm_monitor "info memory-devices"
}
# shellcheck disable=SC2317 # called by name, as plug_dimm
plug_virtio_mem() {
	vm_monitor "qom-set vmem0 requested-size $(($2 + $3 - hp_base))"
	vm_monitor "info memory-devices"
}

# Serve the guest's plug requests until QEMU ends, each name once
served=" "
while kill -0 "$vm_qemu_pid" 2> /dev/null; do
	while read -r _ _ name addr size; do
		case $served in *" $name "*) continue ;; esac
		served+="$name "
		"plug_${plug//-/_}" "$name" "$addr" "$size"
		echo "$(vm_elapsed "$vm_qemu_t0") # host: plugged $name, $size bytes at $addr ($plug)" >> "$work/host.log"
	done < <([ -e "$work/console.log" ] &&
		grep -E '^[0-9.]+ VM-PLUG [a-z0-9]+ 0x[0-9a-f]+ 0x[0-9a-f]+$' \
			"$work/console.log")
	sleep 0.2
done
vm_qemu_end
qemu_rc=$?

status=0
grep -E '^[0-9.]+ (ok |not ok |# |1\.\.|VM-)' "$work/console.log"
[ -e "$work/host.log" ] && cat "$work/host.log"
if grep -q '^Error' "$work/monitor.log"; then
	echo "not ok - host: the QEMU monitor reported errors:"
	grep -B1 '^Error' "$work/monitor.log" | sed 's/^/#   /'
	status=1
fi
sed -n 's/^[0-9.]* SOAK-FIGURES /# guest '"$guest"' soak: /p' "$work/console.log"
read -r want_total want_skips <<< "$(vm_expected "$guest" $mom)"
vm_verdict "$work/console.log" "$guest" "$guest (hotplug)" \
	'# pfnmap hotplug guest ' "$qemu_rc" "$limit" "$want_total" \
	"$want_skips" tests/vm/hotplug.sh || status=1

echo "# guest $guest (hotplug): $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
