# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by run.sh and by every tests/pci/ts/ script, on top of
# tests/cli/functions.sh (pfnmap, ts_run, ts_od, ts_plant, ts_skip, ...).
# The current directory is the test's own; `mem` is an 8 GiB sparse file.
#
# Fake sysfs trees for libpci: `sys` below the test's directory, laid out as
# /sys/bus/pci is: sys/devices/DDDD:BB:DD.F/{vendor,device,class,irq,
# config,resource,resourceN[_wc]} and a `driver` link. pfnmap reads it with
# `-A linux-sysfs -O sysfs.path=$PWD/sys` only (ts_pci), never the machine's.
set -u

# shellcheck source=../cli/functions.sh
. "$TS_TOPDIR/../cli/functions.sh"

PCI_TREE=$PWD/sys
PCI_PAGE=$(getconf PAGESIZE) || exit 2

# pfnmap and ts_run with libpci forced onto the fake tree; ts_pci shows the
# command without -A/-O, and the tree's path in the outputs as SYS
pci()
{
	pfnmap -A linux-sysfs -O sysfs.path="$PCI_TREE" "$@"
}

ts_pci()
{
	local rc d=.ts

	printf '$ pfnmap'
	[ $# = 0 ] || printf ' %q' "$@"
	printf '\n'
	pci "$@" >"$d/out" 2>"$d/err"
	rc=$?
	sed "s|$PCI_TREE|SYS|g" -- "$d/out"
	if [ -s "$d/out" ] && [ "$(tail -c 1 -- "$d/out" | od -An -tx1)" != " 0a" ]
	then
		printf '\n(no newline at the end of stdout)\n'
	fi
	sed "s|$PCI_TREE|SYS|g; s/^/stderr: /" -- "$d/err"
	echo "exit: $rc"
}

# Little-endian VALUE of BYTES bytes at OFFSET of FILE
pci_le()
{
	local i v=$(($3)) s=

	for ((i = 0; i < $2; i++)); do
		s+=$(printf '\\x%02x' $(((v >> (8 * i)) & 0xff)))
	done
	# shellcheck disable=SC2059
	printf "$s" | ts_plant "$1" "$4"
}

# fake_dev SLOT VENDOR DEVICE CLASS DRIVER BAR0 ... BAR5
#   SLOT    DDDD:BB:DD.F          VENDOR, DEVICE  hex without 0x
#   CLASS   6 hex digits (class, subclass, prog-if), e.g. 020000
#   DRIVER  - for none, or the name the `driver` link points at
#   BARn    - (not implemented, or the upper half of a 64-bit BAR),
#           KIND:START:SIZE (SIZE may end in K or M) with KIND mem32, mem32p, mem64, mem64p (p:
#           prefetchable) or io; START 0 is a BAR the kernel could not
#           assign (start 0, end SIZE - 1, IORESOURCE_UNSET).
# The resource file has the kernel's 13 lines (6 BARs, ROM, 6 IOV BARs),
# with its flags: IORESOURCE_IO 0x100, _MEM 0x200, _PREFETCH 0x2000,
# _SIZEALIGN 0x40000, _MEM_64 0x100000, _UNSET 0x20000000, and the low bits
# of the BAR register (0x1 I/O, 0x4 64-bit, 0x8 prefetchable).
# resourceN is a sparse file that holds what an mmap of the kernel's gives:
# pci_mmap_resource_range() adds start >> PAGE_SHIFT to the page offset, so
# offset 0 is the page that holds the BAR's start, and the BAR's byte 0 is at
# START % PAGESIZE (pci_res_at); pci_mmap_fits() allows (SIZE - 1) / PAGESIZE
# + 1 pages. For a memory BAR the file is that long: the BAR's size when it
# starts on a page, one page for a sub-page BAR such as mem32:0xfeb11100:256
# (the kernel's file says 256 bytes, but mmap is all a memory BAR's file
# has, and it shows the page). An I/O BAR's file is SIZE bytes.
# resourceN_wc (prefetchable BARs, as the kernel makes it) is a hard link to
# resourceN: the same bytes, as in sysfs; pci_split_wc makes it a file of
# its own, to tell which one pfnmap mapped.
fake_dev()
{
	local slot=$1 vendor=$2 device=$3 class=$4 driver=$5 dir i spec
	local kind start size flags reg flen

	shift 5
	dir=$PCI_TREE/devices/$slot
	mkdir -p -- "$dir" || exit 2
	printf '0x%s\n' "$vendor" >"$dir/vendor"
	printf '0x%s\n' "$device" >"$dir/device"
	printf '0x%s\n' "$class" >"$dir/class"
	echo 11 >"$dir/irq"
	# config space: IDs, command (I/O, memory, bus master on), revision 1,
	# class, header type 0, the BARs
	head -c 256 /dev/zero >"$dir/config"
	pci_le 0 2 "0x$vendor" "$dir/config"
	pci_le 2 2 "0x$device" "$dir/config"
	pci_le 4 2 0x0007 "$dir/config"
	pci_le 8 4 "0x${class}01" "$dir/config"
	: >"$dir/resource"
	for i in 0 1 2 3 4 5; do
		spec=${1:--}
		shift
		if [ "$spec" = - ]; then
			printf '0x%016x 0x%016x 0x%016x\n' 0 0 0 >>"$dir/resource"
			continue
		fi
		IFS=: read -r kind start size <<<"$spec"
		size=${size/K/*1024}
		size=${size/M/*1048576}
		case $kind in
		mem32)	flags=0x40200 reg=0x0 ;;
		mem32p)	flags=0x42208 reg=0x8 ;;
		mem64)	flags=0x140204 reg=0x4 ;;
		mem64p)	flags=0x14220c reg=0xc ;;
		io)	flags=0x40101 reg=0x1 ;;
		*)	echo "fake_dev: bad BAR '$spec'" >&2; exit 2 ;;
		esac
		[ $((start)) = 0 ] && flags=$((flags | 0x20000000))
		printf '0x%016x 0x%016x 0x%016x\n' $((start)) \
			$((start + size - 1)) $((flags)) >>"$dir/resource"
		pci_le $((0x10 + 4 * i)) 4 $(((start & 0xffffffff) | reg)) \
			"$dir/config"
		case $kind in
		mem64*)	pci_le $((0x14 + 4 * i)) 4 $((start >> 32)) \
				"$dir/config" ;;
		esac
		flen=$((size))
		[ "$kind" = io ] || flen=$(((start % PCI_PAGE + size + PCI_PAGE - 1) /
					    PCI_PAGE * PCI_PAGE))
		truncate -s $flen "$dir/resource$i" || exit 2
		[ "$kind" = mem32p ] || [ "$kind" = mem64p ] &&
			ln "$dir/resource$i" "$dir/resource${i}_wc"
	done
	for i in 6 7 8 9 10 11 12; do
		printf '0x%016x 0x%016x 0x%016x\n' 0 0 0 >>"$dir/resource"
	done
	if [ "$driver" != - ]; then
		mkdir -p -- "$PCI_TREE/bus/pci/drivers/$driver"
		ln -s "../../bus/pci/drivers/$driver" "$dir/driver"
	fi
}

# pci_command SLOT VALUE: SLOT's COMMAND register (fake_dev makes it 0x0007:
# I/O, memory and bus master on); 0x0005 is memory decoding off, as firmware
# leaves a device without a driver on arm64
pci_command()
{
	pci_le 4 2 "$2" "$PCI_TREE/devices/$1/config"
}

# BAR N of SLOT's resourceN file, for ts_od/ts_plant/ts_extract
pci_res()
{
	echo "$PCI_TREE/devices/$1/resource$2"
}

# pci_res_at SLOT N [OFFSET]: where byte OFFSET (default 0) of BAR N is in
# its resourceN file (see fake_dev): START % PAGESIZE + OFFSET, in hex
pci_res_at()
{
	local start

	start=$(sed -n "$(($2 + 1))s/ .*//p" \
		"$PCI_TREE/devices/$1/resource") || exit 2
	printf '0x%x\n' $((start % PCI_PAGE + ${3:-0}))
}

# pci_split_wc SLOT N: resourceN_wc a file of its own, with resourceN's
# bytes for now (the kernel's two files map the same BAR; tests that plant
# different bytes in them see which file pfnmap mapped)
pci_split_wc()
{
	local r

	r=$(pci_res "$1" "$2")
	[ -e "${r}_wc" ] || { echo "pci_split_wc: no ${r}_wc" >&2; exit 2; }
	rm -f -- "${r}_wc" && cp --sparse=always -- "$r" "${r}_wc" || exit 2
}

# The tree most tests use:
#   0000:00:04.0 1af4:1110  bar0 4K at 0xfe000000, bar2 64-bit prefetchable
#                           1M at 0x800000000 (bar3 its upper half), bar4 I/O
#   0000:00:05.0 8086:100e  driver e1000; bar0 128K, bar1 I/O, bar2 16K that
#                           the kernel could not assign
#   0000:00:06.0 8086:7010  I/O BARs only (left out of `bars`)
#   0000:00:07.0 1234:1111  driver bochs-drm; bar0 32-bit prefetchable 16M,
#                           bar2 4K
#   0000:03:00.0 1af4:1110  bar0 4K, bar2 64-bit prefetchable 1M below 4G
#   0001:02:00.0 1af4:1110  bar0 4K, bar2 64-bit prefetchable 1M above 4G
pci_std_tree()
{
	fake_dev 0000:00:04.0 1af4 1110 050000 - mem32:0xfe000000:4K \
		- mem64p:0x800000000:1M - io:0xc000:0x40 -
	fake_dev 0000:00:05.0 8086 100e 020000 e1000 mem32:0xfebc0000:128K \
		io:0xc040:0x40 mem32:0:16K - - -
	fake_dev 0000:00:06.0 8086 7010 010180 - - - - - io:0xc080:16 -
	fake_dev 0000:00:07.0 1234 1111 030000 bochs-drm \
		mem32p:0xf8000000:16M - mem32:0xfebf0000:4K - - -
	fake_dev 0000:03:00.0 1af4 1110 050000 - mem32:0xfd000000:4K \
		- mem64p:0xc0000000:1M - - -
	fake_dev 0001:02:00.0 1af4 1110 050000 - mem32:0xfc000000:4K \
		- mem64p:0x1000000000:1M - - -
}
