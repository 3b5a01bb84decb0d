#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# Run by /init in the guest of bench/guest.sh: bulk throughput of pfnmap
# against /dev/mem on the same physical memory, for each cache type
#   dump   pfnmap dump -o FILE       dd if=/dev/mem of=FILE bs=1M skip=
#   load   pfnmap load REGION FILE   dd if=FILE of=/dev/mem seek= conv=notrunc
#   fill   pfnmap fill REGION 0      dd if=/dev/zero of=/dev/mem ...
#   floor  dd from the tmpfs input file to /dev/null and to another file:
#	   the part of load and dump that is not the tool's
# on every region that bench/guest.sh gives the guest: hidden memory
# inside RAM (below high_memory), hidden memory past the end of RAM (mem=,
# above high_memory) and ivshmem's BAR2; and a register-sized region (edu's
# BAR0) dumped by pfnmap, by dd, and by a shell loop of `busybox devmem`
# a 32-bit word at a time. Outputs go to tmpfs, never /dev/null: write(2)
# to /dev/null would let pfnmap skip reading the mapping at all.
# Every dump is checked against the data loaded before it, every load
# and fill by reading the region back, so a fast wrong answer shows.
#
# Prints, with seconds from /proc/timer_list (nanoseconds; /proc/uptime's
# 10 ms steps when it is missing):
#   BULK-REGION NAME START BYTES WHAT
#   BULK OP NAME TOOL BYTES SECONDS      the best of RUNS runs
#   BULK-NA OP NAME TOOL MESSAGE         TOOL could not do it: its error
#   BULK-BAD OP NAME TOOL MESSAGE        TOOL did it, with wrong data
# then BULK-END (BULK-FAIL for a broken set-up).
set -u
. /data/env	# BULK_MB RUNS REG_BYTES HIDDEN TOP

pf() { pfnmap --module=/pfnmap.ko "$@"; }

# Nanoseconds since boot
now() {
	if [ -r /proc/timer_list ]; then
		sed -n '/^now at /{s/^now at \([0-9]*\) nsecs$/\1/p;q}' \
			/proc/timer_list
	else
		awk '{ printf "%.0f\n", $1 * 1e9 }' /proc/uptime
	fi
}

# best CMD...: the fastest of RUNS runs of CMD in nanoseconds; status 1
# and CMD's message in /tmp/err when a run fails
best() {
	local b='' i=0 t0 t1 t

	while [ $i -lt "$RUNS" ]; do
		t0=$(now)
		"$@" 2> /tmp/err || return 1
		t1=$(now)
		t=$((t1 - t0))
		{ [ -z "$b" ] || [ $t -lt "$b" ]; } && b=$t
		i=$((i + 1))
	done
	echo "$b"
}

secs() { awk -v n="$1" 'BEGIN { printf "%.4f", n / 1e9 }'; }
md5() { md5sum "$1" | cut -d' ' -f1; }
# the first line of a failed command's message, on one line
why() { head -n1 /tmp/err | tr -d '\r'; }

# row OP NAME TOOL BYTES CMD...: time CMD, print its BULK or BULK-NA line;
# status 1 when it failed
row() {
	local op=$1 name=$2 tool=$3 bytes=$4 ns
	shift 4
	if ns=$(best "$@"); then
		echo "BULK $op $name $tool $bytes $(secs "$ns")"
		return 0
	fi
	echo "BULK-NA $op $name $tool $(why)"
	return 1
}

# is OP NAME TOOL FILE WANT: FILE's MD5 must be WANT
is() {
	local got
	got=$(md5 "$4")
	[ "$got" = "$5" ] ||
		echo "BULK-BAD $1 $2 $3 md5 $got, want $5"
}

# readback OP NAME TOOL WANT: the region (pfnmap, --cache=auto) must hold
# what TOOL just wrote
readback() {
	if pf -w 64 dump "$region" -o /tmp/back.bin 2> /tmp/err; then
		is "$1" "$2" "$3" /tmp/back.bin "$4"
	else
		echo "BULK-BAD $1 $2 $3 read back failed: $(why)"
	fi
	rm -f /tmp/back.bin
}

# pf_opts CACHE: pfnmap's options for a row; uncached and write-combined
# accesses are exact-width, so the widest width (64) is the fair one
pf_opts() { echo "--cache=$1 -w 64"; }

# bulk NAME START MIB WHAT: every row on START+MIB MiB
bulk() {
	name=$1 start=$2 mib=$3
	bytes=$((mib << 20))
	region=$(printf '0x%x+%dM' "$start" "$mib")
	mb=$((start >> 20))
	echo "BULK-REGION $name $(printf '0x%x' "$start") $bytes $4"
	[ $((start & 0xfffff)) = 0 ] || echo "BULK-FAIL $name: not MiB-aligned for dd bs=1M"

	for c in wb uc wc; do
		# shellcheck disable=SC2046 # pf_opts is words
		row load "$name" "pfnmap-$c" $bytes \
			pf $(pf_opts $c) load "$region" /tmp/in.bin &&
			readback load "$name" "pfnmap-$c" "$in_md5"
		# shellcheck disable=SC2046
		pf $(pf_opts $c) fill "$region" 0 2> /dev/null
	done
	row load "$name" dd $bytes dd if=/tmp/in.bin of=/dev/mem bs=1M \
		seek=$mb count="$mib" conv=notrunc status=none &&
		readback load "$name" dd "$in_md5"

	# the data to dump: in.bin, as the loads above left it
	pf -w 64 load "$region" /tmp/in.bin 2> /dev/null
	for c in wb uc wc; do
		# shellcheck disable=SC2046
		row dump "$name" "pfnmap-$c" $bytes \
			pf $(pf_opts $c) dump "$region" -o /tmp/out.bin &&
			is dump "$name" "pfnmap-$c" /tmp/out.bin "$in_md5"
		rm -f /tmp/out.bin
	done
	row dump "$name" dd $bytes dd if=/dev/mem of=/tmp/out.bin bs=1M \
		skip=$mb count="$mib" status=none &&
		is dump "$name" dd /tmp/out.bin "$in_md5"
	rm -f /tmp/out.bin

	for c in wb uc wc; do
		pf -w 64 load "$region" /tmp/in.bin 2> /dev/null
		# shellcheck disable=SC2046
		row fill "$name" "pfnmap-$c" $bytes \
			pf $(pf_opts $c) fill "$region" 0 &&
			readback fill "$name" "pfnmap-$c" "$zero_md5"
	done
	pf -w 64 load "$region" /tmp/in.bin 2> /dev/null
	row fill "$name" dd $bytes dd if=/dev/zero of=/dev/mem bs=1M \
		seek=$mb count="$mib" conv=notrunc status=none &&
		readback fill "$name" dd "$zero_md5"
}

# reg NAME SLOT START BYTES: a register block, 32-bit word by word
reg() {
	name=$1 slot=$2 start=$3 bytes=$4
	echo "BULK-REGION $name $(printf '0x%x' "$start") $bytes $slot/bar0, registers (32-bit)"
	row dump "$name" pfnmap-auto "$bytes" \
		pf -w 32 dump "$slot/bar0+$bytes" -o /tmp/reg.bin || return
	od -An -tx4 -v /tmp/reg.bin | tr -s ' ' '\n' | sed '/^$/d' > /tmp/reg.pf
	# one process per word, as a script without pfnmap does it
	devmem_words() {
		a=$start
		while [ "$a" -lt $((start + bytes)) ]; do
			busybox devmem "$a" 32
			a=$((a + 4))
		done > /tmp/reg.dm
	}
	if row dump "$name" devmem "$bytes" devmem_words; then
		sed 's/^0x//' /tmp/reg.dm | tr A-F a-f | cmp -s - /tmp/reg.pf ||
			echo "BULK-BAD dump $name devmem words differ from pfnmap's"
	fi
	if row dump "$name" dd "$bytes" dd if=/dev/mem of=/tmp/reg.dd bs=4096 \
		skip=$((start >> 12)) count=$((bytes >> 12)) status=none; then
		cmp -s /tmp/reg.dd /tmp/reg.bin ||
			echo "BULK-BAD dump $name dd $(od -An -tx4 -N8 /tmp/reg.dd | tr -s ' ') at +0, pfnmap and devmem read $(head -n2 /tmp/reg.pf | tr '\n' ' ')"
	fi
	rm -f /tmp/reg.bin /tmp/reg.pf /tmp/reg.dm /tmp/reg.dd
}

pci_find() {	# VENDOR DEVICE: the sysfs directories of such devices
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor"):$(cat "$d/device")" = "$1:$2" ] && echo "$d"
	done
}
bar() {		# DIR N: BAR N's start
	sed -n "$(($2 + 1))p" "$1/resource" | cut -d' ' -f1
}
bar_mib() {	# DIR N: BAR N's size in MiB
	sed -n "$(($2 + 1))p" "$1/resource" | {
		read -r s e _
		echo $(((e - s + 1) >> 20))
	}
}

bmib=$BULK_MB
head -c $((bmib << 20)) /dev/urandom > /tmp/in.bin || echo "BULK-FAIL no room in /tmp"
in_md5=$(md5 /tmp/in.bin)
zero_md5=$(head -c $((bmib << 20)) /dev/zero | md5sum | cut -d' ' -f1)
echo "BULK-INFO $(uname -r); high_memory: System RAM ends at $(grep 'System RAM' /proc/iomem | tail -n1 | sed 's/ *\([0-9a-f]*\)-\([0-9a-f]*\).*/0x\2/')"
echo "BULK-INFO timer: $([ -r /proc/timer_list ] && echo /proc/timer_list || echo /proc/uptime), $RUNS run(s) a row, best kept"

# What the files alone cost: load reads one, dump writes one
echo "BULK-REGION tmpfs 0x0 $((bmib << 20)) /tmp, no physical memory: what the files alone cost"
row floor tmpfs read $((bmib << 20)) \
	dd if=/tmp/in.bin of=/dev/null bs=1M status=none
row floor tmpfs write $((bmib << 20)) \
	dd if=/tmp/in.bin of=/tmp/out.bin bs=1M status=none
rm -f /tmp/out.bin

bulk hidden "$((HIDDEN))" "$bmib" "hidden by memmap= inside System RAM"
bulk top "$((TOP))" "$bmib" "past the end of System RAM (mem=)"
n=0
for d in $(pci_find 0x1af4 0x1110); do
	iv=$(bar "$d" 2)
	m=$(bar_mib "$d" 2)
	[ "$m" -lt "$bmib" ] || m=$bmib
	bulk "ivshmem$n" "$((iv))" "$m" "${d##*/0000:}/bar2, prefetchable"
	n=$((n + 1))
done
[ $n -gt 0 ] || echo "BULK-FAIL no ivshmem device"
for d in $(pci_find 0x1234 0x11e8); do
	pf -w 16 set "${d##*/0000:}/config@0x4" 0x2 ||
		echo "BULK-FAIL enabling edu's memory decoding"
	reg edu "${d##*/0000:}" "$(($(bar "$d" 0)))" "$REG_BYTES"
done
rm -f /tmp/in.bin
echo BULK-END
