#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Throughput of pfnmap against the usual tools, on the same tmpfs data:
#   hexdump: `pfnmap hexdump` vs `hexdump -C` and `xxd` (mixed and mostly-zero)
#   dump:    `pfnmap dump` vs `cat` and `dd bs=1M`
#   fill:    `pfnmap --width=64 fill ... 0` vs `dd if=/dev/zero conv=notrunc`
#   memtest: `pfnmap memtest` vs memtester, memtester's tests and width
# Each time is the best of BENCH_RUNS (3) wall-clock runs. The ratio column
# is how many times faster pfnmap (or the formatter driver) is than the tool.
#
#   bench/bench.sh [--guest]
#
# --guest (or BENCH_ONLY=guest) runs bench/guest.sh instead: a QEMU guest
# where pfnmap meets dd on /dev/mem and busybox devmem on hidden memory and
# PCI BARs, in the same table format (its knobs are at its top).
#
# Environment:
#   PFNMAP		the CLI (default ./build/cli/pfnmap)
#   HEXDUMP_DRIVER	tests/hexdump-oracle driver binary: also time the
#			bare formatter (the only hexdump row without the CLI),
#			fed by pread(2) in pfnmap's pieces, and what mapping
#			the data costs pfnmap before any formatting
#   BENCH_HEX_MB	hexdump data size in MiB (256; hexdump -C does ~6 MB/s)
#   BENCH_BIG_MB	dump/fill data size in MiB (1024)
#   BENCH_RUNS		runs per measurement (3)
#   BENCH_MEMTEST_MB	memtest region size in MiB (16; memtester does ~8 MB/s)
#   BENCH_ONLY		hexdump, dump, fill or memtest: only that group;
#			guest: as --guest
#   BENCH_DIR		where the data goes (/dev/shm)
set -u
export LC_ALL=C

pfnmap=${PFNMAP:-./build/cli/pfnmap}
driver=${HEXDUMP_DRIVER:-}
hex_mb=${BENCH_HEX_MB:-256}
big_mb=${BENCH_BIG_MB:-1024}
runs=${BENCH_RUNS:-3}
only=${BENCH_ONLY:-}

if [ "${1:-}" = --guest ] || [ "$only" = guest ]; then
	exec "$(dirname "$0")/guest.sh" "$pfnmap"
fi
[ $# = 0 ] || { echo "usage: $0 [--guest]" >&2; exit 2; }

[ -x "$pfnmap" ] || { echo "note: no $pfnmap, pfnmap rows skipped"; pfnmap=; }
[ -z "$driver" ] || [ -x "$driver" ] || { echo "no driver $driver"; exit 2; }

tmp=$(mktemp -d "${BENCH_DIR:-/dev/shm}/pfnmap-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# Seconds of the fastest of $runs runs of "$@", stdout to $sink
sink=/dev/null
best() {
	local i t0 t1 best=

	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s.%N)
		"$@" > "$sink" || { echo "FAILED: $*" >&2; echo 0; return; }
		t1=$(date +%s.%N)
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" \
			'BEGIN { t = b - a; print (m == "" || t < m) ? t : m }')
	done
	echo "$best"
}

# row NAME BYTES SECONDS REF_SECONDS
row() {
	awk -v n="$1" -v b="$2" -v t="$3" -v r="$4" 'BEGIN {
		if (t <= 0) { printf "  %-34s %10s\n", n, "failed"; exit }
		printf "  %-34s %9.3f s %9.1f MB/s", n, t, b / t / 1e6
		if (r > 0)
			printf " %8.1fx", t / r
		printf "\n"
	}'
}

header() {
	echo
	echo "$1"
	printf "  %-34s %11s %14s %9s\n" tool time throughput ratio
}

# A MiB of mixed data: 640 KiB random, 320 KiB text, 64 KiB zero
mixed_mib() {
	head -c 655360 /dev/urandom
	head -c 245760 /dev/urandom | base64 -w 0
	head -c 65536 /dev/zero
}

# A MiB of mostly zero: 4 KiB random, 1020 KiB zero
zero_mib() {
	head -c 4096 /dev/urandom
	head -c 1044480 /dev/zero
}

make_data() {
	local file=$1 mb=$2 gen=$3 i

	for ((i = 0; i < mb; i++)); do
		$gen
	done > "$file"
}

# bench_hexdump FILE DESCRIPTION
bench_hexdump() {
	local file=$1 bytes ref='' t range

	bytes=$(stat -c %s "$file")
	range=$(printf '0x0+0x%x' "$bytes")
	header "hexdump: $2, $((bytes >> 20)) MiB"
	if [ -n "$pfnmap" ]; then
		ref=$(best "$pfnmap" --device="$file" hexdump "$range")
		row "pfnmap hexdump" "$bytes" "$ref" "$ref"
		"$pfnmap" --device="$file" hexdump "$(printf '0x0+0x%x' \
			$((bytes < 8388608 ? bytes : 8388608)))" |
			cmp -s - <(head -c 8388608 "$file" | hexdump -C) ||
			echo "  WARNING: pfnmap hexdump differs from hexdump -C"
	fi
	if [ -n "$driver" ]; then
		t=$(best "$driver" 0 "$bytes" "$file")
		[ -z "$ref" ] && ref=$t
		row "formatter (oracle driver)" "$bytes" "$t" "$ref"
		# The floor of pfnmap's reads here: what the mapping costs
		t=$(best "$driver" -t 0 "$bytes" "$file")
		row "mapping, a load a page (driver -t)" "$bytes" "$t" "$ref"
	fi
	t=$(best hexdump -C "$file")
	row "hexdump -C" "$bytes" "$t" "$ref"
	t=$(best xxd "$file")
	row "xxd" "$bytes" "$t" "$ref"
}

# Mapping-based references: what touching a fresh shared mapping costs on
# this machine, whatever tool does it (under a hypervisor that shadows page
# tables, every first access to a page of a new mapping is a VM exit, while
# read(2)/write(2) copy through the kernel's own, long-lived mapping).
py_dump='import mmap, os, sys
f = open(sys.argv[1], "rb")
m = mmap.mmap(f.fileno(), int(sys.argv[2]), prot=mmap.PROT_READ)
sys.stdout.buffer.write(m)'
py_fill='import mmap, sys
n = int(sys.argv[2])
f = open(sys.argv[1], "r+b")
m = mmap.mmap(f.fileno(), n)
z = bytes(1 << 20)
for o in range(0, n, 1 << 20):
    m[o:o + (1 << 20)] = z'

bench_dump() {
	local file=$1 bytes ref='' t

	bytes=$(stat -c %s "$file")
	# /dev/null would let a tool write from memory it never reads
	header "dump: random data, $((bytes >> 20)) MiB, to a tmpfs file"
	sink=$tmp/dump.out
	if [ -n "$pfnmap" ]; then
		ref=$(best "$pfnmap" --device="$file" dump \
			"$(printf '0x0+0x%x' "$bytes")")
		row "pfnmap dump" "$bytes" "$ref" "$ref"
	fi
	t=$(best cat "$file")
	row "cat" "$bytes" "$t" "$ref"
	t=$(best dd if="$file" bs=1M status=none)
	row "dd bs=1M" "$bytes" "$t" "$ref"
	# The floor of any mmap-based tool here: write(2) from a fresh mapping
	t=$(best python3 -c "$py_dump" "$file" "$bytes")
	row "python3 mmap + write" "$bytes" "$t" "$ref"
	rm -f "$sink"
	sink=/dev/null
}

bench_fill() {
	local file=$1 bytes ref='' t

	bytes=$(stat -c %s "$file")
	header "fill: zeroes over $((bytes >> 20)) MiB of a tmpfs file"
	if [ -n "$pfnmap" ]; then
		ref=$(best "$pfnmap" --device="$file" --width=64 fill \
			"$(printf '0x0+0x%x' "$bytes")" 0)
		row "pfnmap --width=64 fill" "$bytes" "$ref" "$ref"
	fi
	t=$(best dd if=/dev/zero of="$file" bs=1M count=$((bytes >> 20)) \
		conv=notrunc status=none)
	row "dd if=/dev/zero conv=notrunc" "$bytes" "$t" "$ref"
	# The floor of any mmap-based tool here: memcpy into a fresh mapping
	t=$(best python3 -c "$py_fill" "$file" "$bytes")
	row "python3 mmap slice stores" "$bytes" "$t" "$ref"
}

# memtester's own test set, as pfnmap memtest names it (pfnmap(8))
memtester_set=stuck-address,random,xor,sub,mul,div,or,and,seqinc,solid-bits
memtester_set+=,block-seq,checkerboard,bit-spread,bit-flip,walking-ones
memtester_set+=,walking-zeros,8bit-writes,16bit-writes

# memtester on anonymous memory against pfnmap memtest on a tmpfs file of
# the same size, with the same tests and memtester's width (its ULONG)
bench_memtest() {
	local mb=$1 bytes=$(($1 << 20)) ref='' t w

	w=$(($(getconf LONG_BIT)))
	header "memtest: memtester's 18 tests over $mb MiB, $w-bit"
	if [ -n "$pfnmap" ]; then
		truncate -s "${mb}M" "$tmp/mt"
		ref=$(best "$pfnmap" --device="$tmp/mt" --width=$w --seed=1 \
			--tests=$memtester_set memtest "0x0+${mb}M")
		row "pfnmap memtest --device tmpfs" "$bytes" "$ref" "$ref"
		rm -f "$tmp/mt"
	fi
	if ! command -v memtester > /dev/null; then
		echo "  memtester: not installed (apt-get install memtester)"
		return
	fi
	t=$(best memtester "${mb}M" 1)
	row "memtester (anonymous memory)" "$bytes" "$t" "$ref"
}

echo "pfnmap benchmark: best of $runs runs; ratio = tool time / pfnmap time"
echo "data in $tmp; $(nproc) CPUs; $(uname -r)"
if [ -z "$only" ] || [ "$only" = hexdump ]; then
	make_data "$tmp/mixed" "$hex_mb" mixed_mib
	bench_hexdump "$tmp/mixed" "mixed random/text/zero data"
	rm -f "$tmp/mixed"
	make_data "$tmp/zero" "$hex_mb" zero_mib
	bench_hexdump "$tmp/zero" "mostly zero data (squeezed)"
	rm -f "$tmp/zero"
fi
if [ -z "$only" ] || [ "$only" = dump ] || [ "$only" = fill ]; then
	head -c $((big_mb << 20)) /dev/urandom > "$tmp/big"
	[ "$only" = fill ] || bench_dump "$tmp/big"
	[ "$only" = dump ] || bench_fill "$tmp/big"
fi
if [ -z "$only" ] || [ "$only" = memtest ]; then
	bench_memtest "${BENCH_MEMTEST_MB:-16}"
fi
