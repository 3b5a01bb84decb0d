#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# The hot-plug, debugger-access and soak guest run (tests/vm/hotplug.sh),
# run by /init in the QEMU guest (busybox sh). TAP lines on the serial
# console as guest/tests.sh prints them, then "1..N" and "VM-SUMMARY N F".
#
# Machine (hotplug.sh): 1 GiB of RAM with two DIMM slots, 8 MiB of it
# hidden at $HIDDEN (memmap= on x86, mem= on arm64), ivshmem-plain (2 GiB
# BAR2), 2 CPUs. The host plugs memory when the guest prints "VM-PLUG NAME
# ADDRESS SIZE": on x86 (PLUG=dimm) a DIMM at exactly that address (QEMU
# monitor: object_add memory-backend-ram + device_add pc-dimm), on arm64
# (PLUG=virtio-mem) by raising virtio-mem's requested size so that it
# reaches ADDRESS + SIZE; the guest maps the range before it asks.
#
# Every check is printed whatever happened before it, so the number of
# checks per guest is fixed (vm_expected in hotplug.sh).
set -u

# shellcheck source=/dev/null # written by hotplug.sh
. /data/env

MARK="pfnmap-vm-hotplug-start-$$"
MEM=/sys/devices/system/memory
pat_list=/sys/kernel/debug/x86/pat_memtype_list
# shellcheck source=tap.sh # /tap.sh in the initramfs
. /tap.sh
hx() { printf '0x%x' "$1"; }
phys() { printf '0x%08x' "$1"; }	# as the kernel's %#010llx prints

# hp_tap PREFIX CMD...: a TAP line per PASS/FAIL line of the program, then
# one for its END line (present, agreeing with the lines seen, and with
# the exit status)
hp_tap() {
	local p=$1 l rc n=0 nf=0 end="" want want_rc=0
	shift
	"$@" > /tmp/tap.out 2>&1
	rc=$?
	while IFS= read -r l; do
		case $l in
		PASS:*) ok "$p${l#PASS: }"; n=$((n + 1)) ;;
		FAIL:*) notok "$p${l#FAIL: }"; n=$((n + 1)); nf=$((nf + 1)) ;;
		END:*) end=${l#END: } ;;
		*) diag "$p$l" ;;
		esac
	done < /tmp/tap.out
	want="$n checks, $nf failed"
	[ $nf = 0 ] || want_rc=1
	if [ "$end" = "$want" ] && [ $rc = $want_rc ]; then
		ok "${p}ran to its end: $want, exit status $rc"
	else
		notok "${p}exit status $rc, END '$end' (want '$want' and status $want_rc)"
	fi
}

# since_mark: the kernel log since the marker, in /tmp/dmesg
since_mark() {
	dmesg > /tmp/dmesg.all
	sed -n "/$MARK/,\$p" /tmp/dmesg.all > /tmp/dmesg
}

echo "# pfnmap hotplug guest $GUEST: kernel $(uname -r) $(uname -m), $(cut -d' ' -f1 /proc/uptime) s after boot"
echo "$MARK" > /dev/kmsg
exec 3>&1

check "insmod /pfnmap.ko" insmod /pfnmap.ko
MOM=${MOM:-0}
if [ "$MOM" = 1 ]; then
	check "memory_hotplug.memmap_on_memory is on" \
		grep -qx Y /sys/module/memory_hotplug/parameters/memmap_on_memory
fi
PLUG=${PLUG:-dimm}
if [ "$PLUG" = dimm ]; then
	check "/proc/iomem shows the hidden memory as Reserved" \
		grep -q "^ *$(printf %x $((HIDDEN)))-$(printf %x $((HIDDEN + HIDDEN_SIZE - 1))) : Reserved" /proc/iomem
else
	# beyond mem=: no resource at all
	check "/proc/iomem has no resource at the hidden memory" \
		sh -c "! grep -q '^ *$(printf %x $((HIDDEN)))-' /proc/iomem"
fi
IV=0
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1af4:0x1110 ]; then
		IV=$(sed -n 3p "$d/resource" | cut -d' ' -f1)
		# no firmware turns memory decoding on on virt (COMMAND bit 1)
		[ "$PLUG" = dimm ] ||
			printf '\002' | dd of="$d/config" bs=1 seek=4 count=1 conv=notrunc 2> /dev/null
	fi
done
check "ivshmem BAR2 found ($(hx $((IV))))" [ $((IV)) != 0 ]
[ -r $pat_list ] && cp $pat_list /tmp/pat.start

# ---------------------------------------------------------------------------
# first, while all RAM is the boot RAM: the oracle page of the RAM checks
# must not land in memory that virtio-mem adds (exclusive System RAM)
diag "debugger access: ptrace and /proc/PID/mem on RAM and non-RAM mappings"
hp_tap "access: " hotplug access "$HIDDEN"

# ---------------------------------------------------------------------------
# Memory hot-plug: the holder maps a range where the host then plugs a
# DIMM; the kernel must not online a block of it while that mapping lives.

# hold ADDR SIZE [move]: a process that maps ADDR+SIZE (and moves the
# mapping with mremap) and sleeps (holder_pid)
hold() {
	local i=0
	# the last holder's file goes first: else the wait below can read its
	# HOLD-READY before the new holder's shell has truncated the file, and
	# then find the file empty
	rm -f /tmp/hold.out
	hotplug hold "$@" > /tmp/hold.out 2>&1 &
	holder_pid=$!
	while ! grep -q '^HOLD-' /tmp/hold.out && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q '^HOLD-READY' /tmp/hold.out
}

unhold() {
	kill "$holder_pid" 2> /dev/null
	wait "$holder_pid" 2> /dev/null
}

# plug NAME ADDR SIZE: ask the host for a DIMM there; wait until every
# memory block of it exists
plug() {
	local a=$(($2)) n=$(($3)) b i=0
	# on the console even inside check (fd 3: the script's stdout)
	echo "VM-PLUG $1 $(hx $a) $(hx $n)" >&3
	while [ $i -lt 300 ]; do
		b=$((a / BS))
		while [ $b -lt $(((a + n) / BS)) ] && [ -e "$MEM/memory$b/state" ]; do
			b=$((b + 1))
		done
		[ $b = $(((a + n) / BS)) ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

state() { cat "$MEM/memory$1/state" 2> /dev/null; }

# online N [_movable]: echo online > memoryN/state; status and stderr in
# online_rc, /tmp/online.err
online() { state_write "$1" "online${2:-}"; }

# state_write N WORD: echo WORD > memoryN/state, as online does
state_write() {
	echo "$2" 2> /tmp/online.err > "$MEM/memory$1/state"
	# shellcheck disable=SC2320 # echo's status: the write's
	online_rc=$?
}

# refused DESC N WORD STAYS: echo WORD > memoryN/state fails with EBUSY
# and the block stays STAYS
refused() {
	state_write "$2" "$3"
	if [ $online_rc != 0 ] && grep -q 'Device or resource busy' /tmp/online.err &&
		[ "$(state "$2")" = "$4" ]; then
		ok "$1: echo $3 fails with EBUSY, the block stays $4"
	else
		notok "$1: echo $3 status $online_rc, '$(cat /tmp/online.err)', state '$(state "$2")' (want EBUSY and $4)"
	fi
}

memtotal() { sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo; }

# refused_msg ADDR SIZE HOLDER-ADDR HOLDER-SIZE [offlined]: the helper's
# dmesg line for the block at ADDR, naming the holder
refused_msg() {
	since_mark
	grep -qF "pfnmap: memory [mem $(phys $(($1)))-$(phys $(($1 + $2 - 1)))] not ${5:-onlined}: pid $holder_pid (hotplug) maps [mem $(phys $(($3)))-$(phys $(($3 + $4 - 1)))] through /dev/pfnmap" /tmp/dmesg
}

# hp_layout: the blocks both kinds of plug use. Memory blocks of BS bytes;
# the first plug adds two blocks at A1 (B1, B1 + 1), the second one block
# at A2 (B2)
hp_layout() {
	BS=$((0x$(cat $MEM/block_size_bytes)))
	A1=$((HP_BASE))
	A2=$((HP_BASE + 2 * BS))
	B1=$((A1 / BS))
	B2=$((A2 / BS))
}

# hp_first_pair: after the first plug, with auto-online off, block B1
# onlines and block B1 + 1, which the holder maps at H1 (8 KiB), does not
# until the holder is gone
hp_first_pair() {
	online $B1
	check "block $B1 (not mapped) onlines (echo status $online_rc)" \
		[ "$online_rc $(state $B1)" = "0 online" ]
	refused "block $((B1 + 1)) (mapped)" $((B1 + 1)) online offline
	check "dmesg: the helper names the block, the holder and its range" \
		refused_msg $((A1 + BS)) $BS $H1 0x2000
	unhold
	online $((B1 + 1))
	check "once the holder is gone, block $((B1 + 1)) onlines (echo status $online_rc)" \
		[ "$online_rc $(state $((B1 + 1)))" = "0 online" ]
}

# virtio-mem (arm64): the driver claims its whole region as exclusive
# System RAM when it loads, so the holders map first; the host raises the
# requested size, the driver plugs from the region's start on
hp_virtio_mem() {
	hp_layout
	diag "virtio-mem: blocks of $(hx $BS); its region from $(hx $A1): blocks $B1, $((B1 + 1)), then $B2"
	mem0=$(memtotal)
	echo offline > $MEM/auto_online_blocks
	H1=$((A1 + BS + 0x10000))
	H2=$((A2 + 0x5000))
	check "hold: a process maps $(hx $H2)+8K (the third block) and moves the mapping, before the driver loads" \
		hold $H2 0x2000 move
	holder2=$holder_pid
	check "hold: another maps $(hx $H1)+8K (the second block)" \
		hold $H1 0x2000
	while read -r m; do
		[ "$m" = virtio_mem ] || insmod "/kmods/$m.ko" 2> /dev/null
	done < /kmods/order
	check "insmod virtio_mem: it claims its region ($(hx $A1) on)" \
		sh -c "insmod /kmods/virtio_mem.ko && grep -q '^ *$(printf %x $A1)-[0-9a-f]* : virtio0$' /proc/iomem"
	hotplug map $((A1 + 3 * BS)) 0x1000 > /tmp/map.out 2>&1
	check "a new mmap in the region is refused: exclusive System RAM ($(cat /tmp/map.out))" \
		grep -qx 'MAP: EADDRINUSE' /tmp/map.out
	plug vmem1 $A1 $((2 * BS))
	rc=$?
	check "the host plugs two blocks at $(hx $A1); they appear offline (plug status $rc)" \
		[ "$rc $(state $B1) $(state $((B1 + 1)))" = "0 offline offline" ]
	hp_first_pair
	echo online > $MEM/auto_online_blocks
	holder_pid=$holder2
	plug vmem2 $A2 $BS
	rc=$?
	check "auto-online on: the host plugs a third block; its online was refused (plug status $rc)" \
		[ "$rc $(state $B2)" = "0 offline" ]
	check "dmesg: the refusal of block $B2 names the holder" \
		refused_msg $A2 $BS $H2 0x2000
	unhold
	echo offline > $MEM/auto_online_blocks
	online $B2
	check "once the holder is gone, block $B2 onlines (echo status $online_rc)" \
		[ "$online_rc $(state $B2)" = "0 online" ]
	mem1=$(memtotal)
	check "MemTotal grew by the three blocks ($mem0 kB -> $mem1 kB)" \
		[ $((mem1 - mem0)) = $((3 * BS / 1024)) ]
	check "/proc/iomem: they are System RAM (virtio_mem)" \
		grep -q "^ *$(printf %x $A1)-$(printf %x $((A1 + 3 * BS - 1))) : System RAM (virtio_mem)" /proc/iomem

	# no RAM mapping can hold back an offline here: arm64 never offlines
	# boot memory ("Boot memory ... offlining attempted"), and the memory
	# virtio-mem adds is exclusive System RAM, refused even with allow_ram
	echo 1 > /sys/module/pfnmap/parameters/allow_ram
	hotplug map $A2 0x1000 > /tmp/map.out 2>&1
	echo 0 > /sys/module/pfnmap/parameters/allow_ram
	check "allow_ram=1: the hot-added, online RAM is refused all the same ($(cat /tmp/map.out))" \
		grep -qx 'MAP: EADDRINUSE' /tmp/map.out
}

HP_CHECKS=22
if [ "$PLUG" = virtio-mem ]; then
	hp_virtio_mem
elif [ -r $MEM/block_size_bytes ] && [ -w $MEM/auto_online_blocks ]; then
	hp_layout
	diag "memory hot-plug: blocks of $(hx $BS); DIMM 1 at $(hx $A1) (blocks $B1, $((B1 + 1))), DIMM 2 at $(hx $A2) (block $B2)"
	mem0=$(memtotal)

	# DIMM 1, auto-online off: a user's online of the mapped block is
	# refused with EBUSY, the other block onlines
	echo offline > $MEM/auto_online_blocks
	H1=$((A1 + BS + 0x10000))
	check "hold: a process maps $(hx $H1)+8K (in DIMM 1's second block) before the plug" \
		hold $H1 0x2000
	indent /tmp/hold.out
	check "the host plugs DIMM 1 ($(hx $((2 * BS))) at $(hx $A1)); its blocks appear" \
		plug dimm1 $A1 $((2 * BS))
	check "/proc/iomem: the DIMM is System RAM now" \
		grep -q "^ *$(printf %x $A1)-$(printf %x $((A1 + 2 * BS - 1))) : System RAM" /proc/iomem
	check "with auto-online off both blocks are offline" \
		[ "$(state $B1) $(state $((B1 + 1)))" = "offline offline" ]
	hotplug map $H1 0x1000 > /tmp/map.out 2>&1
	check "a new mmap of the added, offline memory is refused as System RAM ($(cat /tmp/map.out))" \
		grep -qx 'MAP: EPERM' /tmp/map.out
	hp_first_pair

	# DIMM 2, auto-online on: the kernel's own online is refused; the
	# block waits offline until the mapping is gone
	echo online > $MEM/auto_online_blocks
	H2=$((A2 + 0x5000))
	check "hold: a process maps $(hx $H2)+8K (in DIMM 2) and moves the mapping (mremap) before the plug" \
		hold $H2 0x2000 move
	indent /tmp/hold.out
	check "the host plugs DIMM 2 ($(hx $BS) at $(hx $A2)); its block appears" \
		plug dimm2 $A2 $BS
	check "auto-online: the kernel's online of block $B2 was refused, it is offline" \
		[ "$(state $B2)" = offline ]
	check "dmesg: the refusal of block $B2 names the holder" \
		refused_msg $A2 $BS $H2 0x2000
	unhold
	# movable: nothing of the kernel's own lands there, so that the
	# offline below fails for the helper's reason only
	online $B2 _movable
	check "once the holder is gone, block $B2 onlines movable (echo status $online_rc)" \
		[ "$online_rc $(state $B2)" = "0 online" ]
	mem1=$(memtotal)
	# with memmap_on_memory the kernel keeps DIMM 2's memmap (64 bytes a
	# page) in its first pages (6.1: single-block additions only)
	memmap=0
	[ "$MOM" = 1 ] && memmap=$((BS * 64 / 4096))
	check "MemTotal grew by the three blocks less $(hx $memmap) of memmap ($mem0 kB -> $mem1 kB)" \
		[ $((mem1 - mem0)) = $(((3 * BS - memmap) / 1024)) ]
	echo offline > $MEM/auto_online_blocks

	# What PAT made of it: the holders' reservations were taken while
	# their ranges were not RAM, and x86 frees a reservation by what its
	# range is at munmap time (free_pfn_range(): System RAM now, so it
	# frees nothing). Those two stay listed, a kernel limit (pfnmap(4));
	# anything else that changed would be the helper's.
	grep -vx -e "PAT: \[mem 0x$(printf %016x $H1)-0x$(printf %016x $((H1 + 0x2000)))\] write-back" \
		-e "PAT: \[mem 0x$(printf %016x $H2)-0x$(printf %016x $((H2 + 0x2000)))\] write-back" \
		$pat_list > /tmp/pat.now
	diag "holders' reservations still listed: $(($(wc -l < $pat_list) - $(wc -l < /tmp/pat.now))) of 2"
	if cmp -s /tmp/pat.start /tmp/pat.now; then
		ok "pat_memtype_list: no change across the hot-plug but the holders' two reservations"
	else
		notok "pat_memtype_list: changed across the hot-plug beyond the holders' reservations"
		diff /tmp/pat.start $pat_list > /tmp/pat.diff
		indent /tmp/pat.diff
	fi
	# a mapping of the hot-added RAM (allow_ram) for the soak's end check
	echo 1 > /sys/module/pfnmap/parameters/allow_ram
	hotplug map $A2 0x1000 > /tmp/map.out 2>&1
	check "allow_ram=1: the hot-added, online RAM maps ($(cat /tmp/map.out))" \
		grep -qx 'MAP: success' /tmp/map.out
	echo 0 > /sys/module/pfnmap/parameters/allow_ram
	hotplug map $A2 0x1000 > /tmp/map.out 2>&1
	check "allow_ram=0: the hot-added, online RAM is refused ($(cat /tmp/map.out))" \
		grep -qx 'MAP: EPERM' /tmp/map.out

	# pfnmap(4) SECURITY "Memory hot-plug": a RAM mapping (allow_ram)
	# holds back the offline that would migrate its pages away
	echo 1 > /sys/module/pfnmap/parameters/allow_ram
	H3=$((A2 + 0x3000))
	check "allow_ram=1: a process maps $(hx $H3)+4K of the online block $B2" \
		hold $H3 0x1000
	echo 0 > /sys/module/pfnmap/parameters/allow_ram
	refused "block $B2 (mapped as RAM)" $B2 offline online
	check "dmesg: the refused offline names the block, the holder and its range" \
		refused_msg $A2 $BS $H3 0x1000 offlined
	unhold
	state_write $B2 offline
	check "once the holder is gone, block $B2 offlines (echo status $online_rc)" \
		[ "$online_rc $(state $B2)" = "0 offline" ]
else
	i=0
	while [ $i -lt $HP_CHECKS ]; do
		skip "memory hot-plug check $((i + 1))" "no memory hot-plug in this kernel (CONFIG_MEMORY_HOTPLUG off)"
		i=$((i + 1))
	done
fi


# ---------------------------------------------------------------------------
diag "soak: $SOAK_PROCS processes for $SOAK_SECONDS s"
[ -r $pat_list ] && cp $pat_list /tmp/pat.before
hp_tap "soak: " hotplug soak "$SOAK_SECONDS" "$SOAK_PROCS" "$HIDDEN" "$HIDDEN_SIZE" \
	"$(hx $((IV)))" 0x4000000
if [ ! -r $pat_list ]; then
	skip "pat_memtype_list after the soak" "no PAT on $(uname -m)"
elif diff /tmp/pat.before $pat_list > /tmp/pat.diff; then
	ok "pat_memtype_list after the soak: as before it ($(wc -l < $pat_list) entries)"
else
	notok "pat_memtype_list after the soak differs from before it:"
	indent /tmp/pat.diff
fi
check "rmmod pfnmap once the soak has ended" rmmod pfnmap

# ---------------------------------------------------------------------------
diag "kernel health since the marker"
since_mark
sed 's/^/# dmesg: /' /tmp/dmesg
check "dmesg read, with the marker written before the tests" \
	sh -c "head -n1 /tmp/dmesg | grep -qF '$MARK'"
tap_health "$MARK"
tap_end
