#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# The pfnmap guest tests, run by /init in the QEMU guest (busybox sh).
# Prints TAP lines on the serial console ("ok N - ...", "not ok N - ...",
# "# ..." diagnostics), then "1..N" and "VM-SUMMARY <tests> <failed>".
#
# Guest machine (tests/vm/lib.sh): 4 MiB of RAM hidden at 0x180000000,
# QEMU's edu device, ivshmem-plain BAR2 (2 GiB, above 4 GiB) on a host file
# that the host filled before boot (/data/iv-*.bin) and compares with its
# expectation after the guest powered off; the guest's writes there are
# listed in tests/vm/run.sh (ivshmem_expect) too.
#
# The CLI loads the helper itself, through libkmod, from /pfnmap.ko.
set -u

# shellcheck source=/dev/null # written by run.sh: GUEST=...
. /data/env

H=0x180000000		# hidden memory, 4 MiB
M=/tmp/mirror		# what the hidden memory must hold
MARK="pfnmap-vm-tests-start-$$"
T=0
F=0
any_out=0

ok() { T=$((T + 1)); echo "ok $T - $*"; }
notok() { T=$((T + 1)); F=$((F + 1)); echo "not ok $T - $*"; }
skip() { T=$((T + 1)); echo "ok $T - $1 # SKIP $2"; }
diag() { echo "# $*"; }
indent() { sed -n 's/^/#   /;1,20p' "$@"; }

# check DESC CMD...: CMD's status decides; its output only when it fails
check() {
	local d=$1
	shift
	if "$@" > /tmp/check.out 2>&1; then
		ok "$d"
	else
		notok "$d"
		indent /tmp/check.out
	fi
}

pf() { pfnmap --module=/pfnmap.ko "$@"; }
hx() { printf '0x%x' "$1"; }

# expect_out DESC STDOUT CMD...: status 0, exactly STDOUT, nothing on stderr
expect_out() {
	local d=$1 want=$2 rc got
	shift 2
	"$@" > /tmp/out 2> /tmp/err
	rc=$?
	got=$(cat /tmp/out)
	if [ $rc = 0 ] && [ "$got" = "$want" ] && [ ! -s /tmp/err ]; then
		ok "$d"
	else
		notok "$d"
		diag "status $rc, stdout '$got' (want '$want')"
		indent /tmp/err
	fi
}

# expect_err DESC STATUS STDERR CMD...: that status, exactly that one
# 'pfnmap: ...' line on stderr, nothing on stdout (unless any_out=1)
expect_err() {
	local d=$1 want_rc=$2 want=$3 rc got
	shift 3
	"$@" > /tmp/out 2> /tmp/err
	rc=$?
	got=$(cat /tmp/err)
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] &&
		{ [ ! -s /tmp/out ] || [ "$any_out" = 1 ]; }; then
		ok "$d"
	else
		notok "$d"
		diag "status $rc (want $want_rc)"
		diag "got:  $got"
		diag "want: $want"
	fi
}

# bytes HH...: those bytes, binary
bytes() {
	local b
	for b in "$@"; do
		# shellcheck disable=SC2059 # the format is the byte
		printf "\\$(printf %03o "0x$b")"
	done
}

# rep COUNT HH...: COUNT bytes of the repeated pattern HH...
rep() {
	local n=$(($1))
	shift
	bytes "$@" > /tmp/rep
	while [ "$(wc -c < /tmp/rep)" -lt "$n" ]; do
		cat /tmp/rep /tmp/rep > /tmp/rep2
		mv /tmp/rep2 /tmp/rep
	done
	head -c "$n" /tmp/rep
}

# mput OFFSET FILE: the mirror gets FILE at OFFSET of the hidden memory
mput() {
	dd if="$2" of=$M bs=65536 seek=$(($1)) oflag=seek_bytes conv=notrunc \
		2> /dev/null
}

# slice FILE OFFSET COUNT
slice() {
	dd if="$1" bs=65536 skip=$(($2)) count=$(($3)) \
		iflag=skip_bytes,count_bytes 2> /dev/null
}

# the whole hidden memory, dumped by pfnmap, equals the mirror
hidden_is() {
	pf dump $H+4M > /tmp/hidden && cmp /tmp/hidden $M
}

# dump_is REGION FILE [OPTIONS...]: pfnmap dump of REGION equals FILE
dump_is() {
	local r=$1 f=$2
	shift 2
	pf "$@" dump "$r" > /tmp/dump && cmp /tmp/dump "$f"
}

# hexdump_same START SIZE: `pfnmap hexdump` equals `pfnmap dump | hexdump
# -C` with busybox's offsets (from 0) turned into physical addresses
hexdump_same() {
	local a=$(($1)) n=$(($2)) off rest
	pf hexdump "$(hx $a)+$(hx $n)" > /tmp/hx1 || return 1
	pf dump "$(hx $a)+$(hx $n)" | hexdump -C > /tmp/hx2 || return 1
	while read -r off rest; do
		if [ "$off" = "*" ]; then
			echo "*"
		elif [ -z "$rest" ]; then
			printf '%x\n' $((0x$off + a))
		else
			printf '%x  %s\n' $((0x$off + a)) "$rest"
		fi
	done < /tmp/hx2 > /tmp/hx3
	# pfnmap pads the address to 8 digits, as hexdump -C does
	sed 's/^0*\([0-9a-f]\)/\1/' /tmp/hx1 > /tmp/hx4
	cmp /tmp/hx4 /tmp/hx3 && [ "$(wc -l < /tmp/hx1)" -gt 1 ]
}

pci_bar() {	# VENDOR DEVICE BAR-INDEX: start address of that BAR
	local d
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = "$1" ] && [ "$(cat "$d/device")" = "$2" ]; then
			sed -n "$(($3 + 1))p" "$d/resource" | cut -d' ' -f1
			return
		fi
	done
	echo 0
}

pat_list=/sys/kernel/debug/x86/pat_memtype_list
# pat_type ADDR: the memtype PAT tracks for a range starting at ADDR
pat_type() {
	sed -n "s/^PAT: \[mem 0x$(printf %016x $(($1)))-[0-9a-fx]*\] //p" \
		$pat_list | head -n1
}

# held_dump CACHE START SIZE: start `pfnmap -v --cache=CACHE dump` into a
# fifo that nobody reads, so that the process blocks with its mapping
# alive; wait until -v says what the kernel applied (the mapping exists
# then). Sets held_pid; held_end ends it.
held_dump() {
	local i=0
	rm -f /tmp/fifo /tmp/held.err
	mkfifo /tmp/fifo
	pf -v --cache="$1" dump "$(hx $(($2)))+$(hx $(($3)))" > /tmp/fifo \
		2> /tmp/held.err &
	held_pid=$!
	exec 4< /tmp/fifo
	while ! grep -q 'the kernel applied' /tmp/held.err && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# The x86 PAT debugfs list walks the memtype tree from 0 to ULONG_MAX
# (memtype_copy_nth_element()): a 32-bit kernel never lists a range above
# 4 GiB, although PAT tracks it.
pat_visible() {
	[ "$(uname -m)" = x86_64 ] || [ $(($1)) -lt $((0x100000000)) ]
}

held_end() {	# sets held_rc; the bytes dumped are in /tmp/held.out
	cat <&4 > /tmp/held.out
	exec 4<&-
	wait "$held_pid"
	held_rc=$?
}

# cache_check DESC CACHE START SIZE PAT-TYPE VERBOSE-LINE [EXPECTED-BYTES]
cache_check() {
	local d=$1 c=$2 a=$3 n=$4 want=$5 vline=$6 f=${7:-} got
	held_dump "$c" "$a" "$n"
	got=$(pat_type "$a")
	held_end
	if ! pat_visible "$a"; then
		skip "$d: PAT type while mapped" "a 32-bit kernel's pat_memtype_list hides ranges above 4 GiB"
	elif [ "$got" = "$want" ]; then
		ok "$d: PAT tracks $(hx $((a))) as $got while mapped"
	else
		notok "$d: PAT tracks $(hx $((a))) as '$got' (want '$want')"
		indent $pat_list
	fi
	if [ $held_rc = 0 ] && { [ -z "$f" ] || cmp /tmp/held.out "$f"; }; then
		ok "$d: the dump completes$([ -n "$f" ] && echo ", bytes exact")"
	else
		notok "$d: dump status $held_rc"
		indent /tmp/held.err
	fi
	check "$d: -v reports '$vline'" grep -qxF "$vline" /tmp/held.err
	if pat_visible "$a"; then
		check "$d: no PAT entry left after the process ended" \
			sh -c "! grep -q 'mem 0x$(printf %016x $((a)))-' $pat_list"
	fi
}

echo "# pfnmap guest $GUEST: kernel $(uname -r) $(uname -m), $(cut -d' ' -f1 /proc/uptime) s after boot"
echo "$MARK" > /dev/kmsg

# ---------------------------------------------------------------------------
diag "setup (clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource))"
check "shell arithmetic is 64-bit" [ "$((0x180000000 + 1)) $(hx $((0x200000000 + 0x7fffffff)))" = "6442450945 0x27fffffff" ]
check "/proc/iomem shows the hidden 4 MiB as Reserved" \
	grep -q '^ *180000000-1803fffff : Reserved' /proc/iomem
check "the helper is not loaded yet" \
	sh -c '! grep -q "^pfnmap " /proc/modules && [ ! -e /dev/pfnmap ]'
check "debugfs pat_memtype_list exists (x86 PAT on)" test -r $pat_list

# ---------------------------------------------------------------------------
diag "hidden memory at $H (memmap=4M\$0x180000000)"
pf info $H+4M > /tmp/info
check "info maps nothing and loads nothing" \
	sh -c "grep -qxF 'helper: /dev/pfnmap: not loaded' /tmp/info &&
		! grep -q '^pfnmap ' /proc/modules"
pf -v read $H > /tmp/out 2> /tmp/err
rc=$?
check "the first read loads the helper itself (libkmod, --module=/pfnmap.ko)" \
	sh -c "[ $rc = 0 ] && grep -qxF 'pfnmap: loading /pfnmap.ko' /tmp/err &&
		grep -q '^pfnmap ' /proc/modules && [ -c /dev/pfnmap ]"
indent /tmp/err
pf info $H+4M > /tmp/info
check "/dev/pfnmap has mode 0600" [ "$(stat -c %a /dev/pfnmap)" = 600 ]
for l in 'region: 0x180000000-0x1803fffff' 'size: 4194304' \
	'pfn: 0x180000-0x1803ff' 'pages: 1024' 'page-size: 4096' \
	'page-offset: 0x0' 'iomem: 180000000-1803fffff : Reserved' 'ram: no'; do
	check "info 0x180000000+4M: '$l'" grep -qxF "$l" /tmp/info
done
check "info: helper abi 1, pat on, allow-ram no" \
	grep -qx 'helper: abi 1, phys-bits [0-9]*, pat on, allow-ram no' /tmp/info
phys_bits=$(sed -n 's/^helper: abi 1, phys-bits \([0-9]*\),.*/\1/p' /tmp/info)
pf info 0x180000ffd+5 > /tmp/info2
check "info of an unaligned range: 2 pages from pfn 0x180000, offset 0xffd" \
	sh -c "grep -qxF 'pfn: 0x180000-0x180001' /tmp/info2 &&
		grep -qxF 'pages: 2' /tmp/info2 &&
		grep -qxF 'page-offset: 0xffd' /tmp/info2"

pf -w 64 fill $H+4M 0
head -c 4194304 /dev/zero > $M
check "fill 4 MiB with 64-bit zeros: dump is 4 MiB of zeros" hidden_is
pf fill $H+4M 0x11223344
rep 4194304 44 33 22 11 > $M
check "fill 4 MiB with 0x11223344 (32-bit): every byte as expected" hidden_is
bytes ab ab ab ab ab > /tmp/b
pf -w 8 fill 0x180000003+5 0xab && mput 3 /tmp/b
check "fill -w 8 at +3 for 5 bytes: those bytes, nothing around" hidden_is
rep 0x1ffe a5 5a > /tmp/b
pf -w 16 fill 0x180001002+0x1ffe 0x5aa5 && mput 0x1002 /tmp/b
check "fill -w 16 at +0x1002 for 0x1ffe bytes (across pages)" hidden_is
expect_err "fill at an unaligned start with --width=32 is refused" 64 \
	"pfnmap: fill: '0x180000001+4' is not aligned to --width=32: stores are 4 bytes wide, so start and size must be multiples of 4 (or use --width=8)" \
	pf fill 0x180000001+4 0

# write: width, address, value, the bytes it stores; read it back
wr() {
	local w=$1 a=$2 v=$3
	shift 3
	bytes "$@" > /tmp/b
	pf -w "$w" write "$a" "$v" && mput $((a - H)) /tmp/b
	expect_out "write -w $w $a $v, read back" "$v" pf -w "$w" read "$a"
}
wr 8 0x180002001 0x7f 7f
wr 16 0x180002006 0xbeef ef be
wr 32 0x18000200c 0xcafef00d 0d f0 fe ca
wr 64 0x180002018 0x0123456789abcdef ef cd ab 89 67 45 23 01
wr 32 0x1803ffffc 0xfeedface ce fa ed fe
wr 8 0x180000000 0x00 00
check "after the writes: every other byte of the 4 MiB untouched" hidden_is
expect_out "read (32-bit default) of 00 33 22 ab" 0xab223300 pf read $H
expect_out "read -w 16 of the last bytes but two" 0xfeed pf -w 16 read 0x1803ffffe

if [ "$(uname -m)" = x86_64 ]; then
	got=$(devmem 0x18000200c 32 | tr A-F a-f)
	check "devmem reads 0xcafef00d where pfnmap wrote it (got $got)" \
		[ "$got" = 0xcafef00d ]
	devmem 0x180002100 32 0x600dcafe
	bytes fe ca 0d 60 > /tmp/b && mput 0x2100 /tmp/b
	expect_out "pfnmap reads what devmem wrote" 0x600dcafe pf read 0x180002100
else
	# x86 devmem_is_allowed() truncates the address on a 32-bit kernel
	skip "devmem cross-check of the hidden memory" "32-bit kernel: /dev/mem aliases 0x180000000 to 0x80000000"
	skip "pfnmap reads what devmem wrote" "32-bit kernel"
fi

pf load 0x180010001 /data/rand64k && mput 0x10001 /data/rand64k
check "load a 64 KiB file at an unaligned start" hidden_is
pf load 0x180030003+1000 /data/rand64k && slice /data/rand64k 0 1000 > /tmp/b &&
	mput 0x30003 /tmp/b
check "load into a 1000-byte region: the first 1000 bytes of the file, no more" \
	hidden_is
printf 'hello, hidden memory' | pf load 0x180020005 &&
	printf 'hello, hidden memory' > /tmp/b && mput 0x20005 /tmp/b
check "load from stdin" hidden_is
printf 'ab' > /tmp/b
expect_err "load with short input: written and reported" 1 \
	"pfnmap: load: short input: standard input ended after 2 of 4 bytes; only those were written" \
	sh -c "printf ab | pfnmap load 0x180020100+4"
mput 0x20100 /tmp/b
check "short load: the 2 bytes that came, nothing else" hidden_is
pf dump 0x180010001+0x10000 | pf load 0x180200003
slice $M 0x10001 0x10000 > /tmp/b && mput 0x200003 /tmp/b
check "dump | load elsewhere (unaligned both)" hidden_is
slice $M 0x10003 13 > /tmp/b
check "dump 13 bytes at +0x10003" dump_is 0x180010003+13 /tmp/b
slice $M 0x3ffff1 15 > /tmp/b
check "dump the last 15 bytes" dump_is 0x1803ffff1-0x1803fffff /tmp/b
check "hexdump = dump | hexdump -C (unaligned 0x1234 bytes at +0x10001)" \
	hexdump_same 0x180010001 0x1234
check "hexdump = dump | hexdump -C (repeated lines squeezed to *)" \
	hexdump_same 0x180100000 0x1000
check "hexdump = dump | hexdump -C (the last 0x107 bytes)" \
	hexdump_same 0x1803ffef9 0x107
check "pfnmap dump 0x180000000+4M | md5sum = md5sum of the expectation" \
	[ "$(pf dump $H+4M | md5sum | cut -d' ' -f1)" = "$(md5sum < $M | cut -d' ' -f1)" ]
check "dump --cache=uc -w 64 of the 4 MiB" dump_is $H+4M $M --cache=uc -w 64
slice $M 0x10001 0x1001 > /tmp/b
check "dump --cache=wc -w 8, unaligned" dump_is 0x180010001+0x1001 /tmp/b --cache=wc -w 8
check "dump --cache=wb of the 4 MiB" dump_is $H+4M $M --cache=wb
expect_err "dump --cache=uc unaligned to --width=32 is refused" 64 \
	"pfnmap: dump: '0x180010001+0x1001' is not aligned to --width=32: uncached loads are 4 bytes wide, so start and size must be multiples of 4 (or use --width=8)" \
	pf --cache=uc dump 0x180010001+0x1001
pf --cache=wc load 0x180300000 /data/rand64k && mput 0x300000 /data/rand64k
pf --cache=uc -w 16 write 0x180300002 0x1234 && bytes 34 12 > /tmp/b &&
	mput 0x300002 /tmp/b
check "load --cache=wc and write --cache=uc -w 16" hidden_is

# ---------------------------------------------------------------------------
EDU=$(pci_bar 0x1234 0x11e8 0)
EDU=$(hx $((EDU)))
diag "edu BAR0 at $EDU"
check "edu device found" [ "$EDU" != 0x0 ]
expect_out "edu ID register reads 0x010000ed" 0x010000ed pf read "$EDU"
check "devmem agrees on the ID register" \
	[ "$(devmem "$EDU" 32 | tr A-F a-f)" = 0x010000ed ]
LIVE=$(hx $((EDU + 4)))
pf write "$LIVE" 0x12345678
expect_out "liveness register: NOT of 0x12345678" 0xedcba987 pf read "$LIVE"
check "devmem agrees on the liveness register" \
	[ "$(devmem "$LIVE" 32 | tr A-F a-f)" = 0xedcba987 ]
devmem "$LIVE" 32 0x0f0f0f0f
expect_out "pfnmap reads NOT of what devmem wrote" 0xf0f0f0f0 pf read "$LIVE"
bytes ed 00 00 01 f0 f0 f0 f0 > /tmp/b
check "dump of the first two registers" dump_is "$EDU+8" /tmp/b
pf hexdump "$EDU+8" > /tmp/hx
check "hexdump of the first two registers, physical addresses" \
	grep -qxF "$(printf '%08x' $((EDU)))  ed 00 00 01 f0 f0 f0 f0                           |........|" /tmp/hx
expect_out "read --cache=uc" 0x010000ed pf --cache=uc read "$EDU"
expect_out "read --cache=wc" 0x010000ed pf --cache=wc read "$EDU"
expect_err "read --cache=wb on the edu BAR is refused in words" 2 \
	"pfnmap: the helper refuses $EDU-$(hx $((EDU + 0xfff))): the kernel would map it with another cache type (an existing mapping or the MTRRs decide); use the type \`pfnmap info\` shows, or --cache=auto" \
	pf --cache=wb read "$EDU"
expect_out "auto works again after the refusal" 0x010000ed pf read "$EDU"
pf info "$EDU+1M" > /tmp/info
check "info of the edu BAR: not RAM, owned by the PCI device" \
	sh -c "grep -qxF 'ram: no' /tmp/info && grep -q '^iomem: *$(printf %x $((EDU)))-$(printf %x $((EDU + 0xfffff))) : 0000:' /tmp/info"

# ---------------------------------------------------------------------------
IV=$(pci_bar 0x1af4 0x1110 2)
IV=$((IV))
diag "ivshmem BAR2 at $(hx $IV)"
check "ivshmem BAR2 is above 4 GiB" [ $IV -ge $((0x100000000)) ]
check "host data at BAR2+0x1000, 64 KiB: bit-exact" \
	dump_is "$(hx $((IV + 0x1000)))+64K" /data/iv-a.bin
check "host data at BAR2+0x40000007, 1000 bytes (-w 8): bit-exact" \
	dump_is "$(hx $((IV + 0x40000007)))+1000" /data/iv-c.bin -w 8
check "host data in the last page of the BAR (--cache=wc -w 64)" \
	dump_is "$(hx $((IV + 0x7ffff000)))+4K" /data/iv-b.bin --cache=wc -w 64
pf hexdump "$(hx $IV)+16" > /tmp/hx
check "hexdump of the host's marker" grep -q '|pfnmap-vm-host-m|$' /tmp/hx
# the guest's writes: tests/vm/run.sh expects exactly these in the file
pf write "$(hx $((IV + 0x100000)))" 0xa5a5f00d
pf -w 16 write "$(hx $((IV + 0x100006)))" 0xbeef
pf -w 8 load "$(hx $((IV + 0x40000003)))" /data/text.txt
pf -w 8 fill "$(hx $((IV + 0x200001)))+7" 0x3c
pf -w 8 write "$(hx $((IV + 0x7fffffff)))" 0x42
pf dump "$(hx $((IV + 0x1000)))+64K" | pf -w 8 load "$(hx $((IV + 0x300001)))"
expect_out "BAR2+0x100000 reads back 0xa5a5f00d" 0xa5a5f00d pf read "$(hx $((IV + 0x100000)))"
expect_out "the last byte of BAR2 reads back 0x42" 0x42 pf -w 8 read "$(hx $((IV + 0x7fffffff)))"
check "dump | load within BAR2: 64 KiB at an odd address, bit-exact" \
	dump_is "$(hx $((IV + 0x300001)))+64K" /data/iv-a.bin -w 8

# ---------------------------------------------------------------------------
diag "PCI BAR identifiers and pfnmap bars (libpci)"
pci_slot() {	# VENDOR DEVICE: the sysfs name of the first such device
	local d
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = "$1" ] && [ "$(cat "$d/device")" = "$2" ]; then
			basename "$d"
			return
		fi
	done
}
# bars_from_sysfs SLOT: what `pfnmap -M bars SLOT` must print, read from
# the kernel's sysfs resource file (an oracle independent of libpci)
bars_from_sysfs() {
	local d=/sys/bus/pci/devices/$1 i=0 s e f sz bits pre typ cls drv
	cls=$(printf '%04x' $(($(cat "$d/class") >> 8)))
	drv=-
	[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
	while read -r s e f && [ $i -lt 6 ]; do
		if [ $((e)) -gt $((s)) ] || [ $((s)) -ne 0 ]; then
			sz=$((e - s + 1))
			if [ $((f & 0x100)) -ne 0 ]; then
				bits=- pre=- typ=io
			else
				bits=32 typ=memory pre=non-prefetchable
				[ $((f & 0x4)) -ne 0 ] && bits=64
				[ $((f & 0x8)) -ne 0 ] && pre=prefetchable
			fi
			echo "$1 $(cut -c3- "$d/vendor"):$(cut -c3- "$d/device") $cls bar$i $(hx $((s))) $(hx $sz) $bits $pre $typ $drv"
		fi
		i=$((i + 1))
	done < "$d/resource"
}
ES=$(pci_slot 0x1234 0x11e8)
IS=$(pci_slot 0x1af4 0x1110)
diag "edu at $ES, ivshmem at $IS"
expect_out "edu by slot $ES/bar0: ID register" 0x010000ed pf read "$ES/bar0"
expect_out "edu by short slot ${ES#0000:}/bar0" 0x010000ed pf read "${ES#0000:}/bar0"
expect_out "edu by vendor:device 1234:11e8/bar0" 0x010000ed pf read 1234:11e8/bar0
expect_out "edu by 1234:11e8#0/bar0@0x0" 0x010000ed pf read 1234:11e8#0/bar0@0x0
pf write 1234:11e8/bar0@0x4 0x0ff00ff0
expect_out "liveness register by name: the complement" 0xf00ff00f \
	pf read "${ES#0000:}/bar0@4"
check "devmem agrees on the liveness register" \
	[ "$(devmem $((EDU + 4)) 32 | tr A-F a-f)" = 0xf00ff00f ]
pf -n read 1234:11e8/bar0@4 2> /tmp/err
check "auto cache of the non-prefetchable edu BAR is uc" \
	grep -q 'cache uc, width 32$' /tmp/err
check "ivshmem host data by name 1af4:1110/bar2@0x1000+64K: bit-exact" \
	dump_is 1af4:1110/bar2@0x1000+64K /data/iv-a.bin
pf -n dump "$IS/bar2@0x1000+64K" > /dev/null 2> /tmp/err
check "auto cache of the prefetchable ivshmem BAR2 is wc" \
	grep -q 'cache wc, width 32$' /tmp/err
# the guest's writes by name: tests/vm/run.sh expects exactly these
pf write "$IS/bar2@0x500000" 0x11223344
pf -w 8 fill "1af4:1110/bar2@0x500011+5" 0x77
pf -w 8 load "${IS#0000:}/bar2@0x600003" /data/text.txt
expect_out "BAR2@0x500000 by name reads back" 0x11223344 \
	pf read 1af4:1110/bar2@0x500000
expect_out "the same through its physical address" 0x11223344 \
	pf read "$(hx $((IV + 0x500000)))"
pf -M bars "$ES" > /tmp/bars
bars_from_sysfs "$ES" > /tmp/want
check "bars -M $ES = the kernel's sysfs resource file" cmp /tmp/bars /tmp/want
pf -M bars 1af4:1110 > /tmp/bars
bars_from_sysfs "$IS" > /tmp/want
check "bars -M 1af4:1110 = the kernel's sysfs resource file" cmp /tmp/bars /tmp/want
check "bars -M: ivshmem BAR2 is 64-bit, prefetchable, above 4 GiB" \
	grep -qx "$IS 1af4:1110 [0-9a-f]* bar2 $(hx $IV) 0x80000000 64 prefetchable memory -" /tmp/bars
pf bars > /tmp/bars
check "bars lists edu with its BAR0 address" sh -c \
	"grep -q '^$ES 1234:11e8 ' /tmp/bars && grep -q '^  bar0  0x$(printf %016x $((EDU)))-' /tmp/bars"
check "bars lists ivshmem with its BAR2 address" sh -c \
	"grep -q '^$IS 1af4:1110 ' /tmp/bars && grep -q '^  bar2  0x$(printf %016x $IV)-0x$(printf %016x $((IV + 0x7fffffff)))  2G    64-bit prefetchable memory$' /tmp/bars"
# pci.ids, read here with awk, is the oracle for the names libpci gives
ivname=$(awk '/^1af4 /{v=substr($0, 7); next}
	/^[0-9a-f]/{v=""} v != "" && /^\t1110 /{print v " " substr($0, 8); exit}' \
	/usr/share/misc/pci.ids)
check "pci.ids names ivshmem (the oracle for the names)" \
	test "$ivname" = "Red Hat, Inc. Inter-VM shared memory"
check "bars names ivshmem as pci.ids does" \
	grep -q "^$IS 1af4:1110 $ivname \[0500\] driver: none$" /tmp/bars
pf info 1af4:1110/bar2 > /tmp/info
check "info names ivshmem as pci.ids does" \
	grep -qx "device: $IS 1af4:1110 $ivname" /tmp/info
check "info names the device, the BAR and its range" sh -c \
	"grep -q '^device: $IS 1af4:1110 ' /tmp/info && grep -qx 'bar: bar2 $(hx $IV)-$(hx $((IV + 0x7fffffff))), size 0x80000000, 64-bit, prefetchable' /tmp/info && grep -qx 'region: $(hx $IV)-$(hx $((IV + 0x7fffffff)))' /tmp/info"
expect_err "unknown device" 64 \
	"pfnmap: read: no PCI device matches '00:1f.7' (see pfnmap bars)" \
	pf read 00:1f.7/bar0
expect_err "unknown vendor:device" 64 \
	"pfnmap: read: no PCI device matches '1234:9999' (see pfnmap bars)" \
	pf read 1234:9999/bar0
nf0=$(ls /sys/bus/pci/devices | grep -c '\.0$')
expect_err "ambiguous device" 64 \
	"pfnmap: read: '*:*.0' matches $nf0 PCI devices; name one by [DOMAIN:]BUS:DEV.FN" \
	pf read '*:*.0/bar0'
expect_err "#N beyond the matches" 64 \
	"pfnmap: read: '1234:11e8#1': only 1 device matches (#0 to #0)" \
	pf read 1234:11e8#1/bar0
expect_err "BAR index out of range" 64 \
	"pfnmap: read: '1234:11e8/bar6': the BAR is bar0 to bar5, optionally followed by @OFFSET and +SIZE" \
	pf read 1234:11e8/bar6
expect_err "the upper half of the 64-bit BAR2" 64 \
	"pfnmap: read: bar3 of $IS is the upper half of the 64-bit bar2; name it bar2" \
	pf read 1af4:1110/bar3
expect_err "a BAR the device does not implement" 64 \
	"pfnmap: read: $ES has no bar1 (not implemented)" \
	pf read 1234:11e8/bar1
expect_err "offset beyond the BAR" 64 \
	"pfnmap: read: '1234:11e8/bar0@0x100000': offset 0x100000 lies beyond bar0 (size 0x100000)" \
	pf read 1234:11e8/bar0@0x100000
expect_err "offset + size beyond the BAR" 64 \
	"pfnmap: dump: '1234:11e8/bar0@0xffffc+8': 0x8 bytes from offset 0xffffc run past the end of bar0 (size 0x100000)" \
	pf dump 1234:11e8/bar0@0xffffc+8
io=
for d in /sys/bus/pci/devices/*; do
	i=0
	while read -r s e f && [ $i -lt 6 ]; do
		if [ -z "$io" ] && [ $((f & 0x100)) -ne 0 ] && [ $((e)) -gt $((s)) ]; then
			io="$(basename "$d") $i"
		fi
		i=$((i + 1))
	done < "$d/resource"
done
if [ -n "$io" ]; then
	set -- $io
	expect_err "an I/O-port BAR ($1/bar$2)" 64 \
		"pfnmap: read: bar$2 of $1 is an I/O-port BAR; pfnmap maps memory BARs only" \
		pf read "$1/bar$2"
else
	skip "an I/O-port BAR" "no device with one in this guest"
fi

# ---------------------------------------------------------------------------
diag "cache types: what PAT tracks while a pfnmap process maps the range"
cache_check "hidden auto" auto $H 0x400000 write-back \
	"pfnmap: dump: the kernel applied wb: bulk copies" $M
cache_check "hidden uc" uc $H 0x400000 uncached-minus \
	"pfnmap: dump: the kernel applied uc: 32-bit loads" $M
cache_check "hidden wc" wc $H 0x400000 write-combining \
	"pfnmap: dump: the kernel applied wc: 32-bit loads" $M
cache_check "hidden wb" wb $H 0x400000 write-back \
	"pfnmap: dump: the kernel applied wb: bulk copies" $M
cache_check "edu auto" auto "$EDU" 0x80000 uncached-minus \
	"pfnmap: dump: the kernel applied uc: 32-bit loads"
cache_check "edu wc" wc "$EDU" 0x80000 write-combining \
	"pfnmap: dump: the kernel applied wc: 32-bit loads"
cache_check "ivshmem auto" auto $IV 0x100000 write-back \
	"pfnmap: dump: the kernel applied wb: bulk copies"
cache_check "ivshmem wb" wb $IV 0x100000 write-back \
	"pfnmap: dump: the kernel applied wb: bulk copies"
cache_check "ivshmem uc" uc $IV 0x100000 uncached-minus \
	"pfnmap: dump: the kernel applied uc: 32-bit loads"
cache_check "ivshmem wc" wc $IV 0x100000 write-combining \
	"pfnmap: dump: the kernel applied wc: 32-bit loads"

# ---------------------------------------------------------------------------
diag "helper policy"
expect_err "System RAM is refused, in words" 2 \
	"pfnmap: the helper refuses 0x100000-0x100fff: it is System RAM that the kernel manages, which the helper refuses; load pfnmap with allow_ram=1 to map it (write-back only)" \
	pf read 0x100000
AR=/sys/module/pfnmap/parameters/allow_ram
check "allow_ram is a 0644 parameter" [ "$(stat -c %a $AR)" = 644 ]
echo 1 > $AR
pf read 0x100000 > /tmp/out 2> /tmp/err
check "with allow_ram=1 System RAM is read" \
	sh -c "grep -qx '0x[0-9a-f]\{8\}' /tmp/out && [ ! -s /tmp/err ]"
pf info 0x100000+4K > /tmp/info
check "info: RAM, allow-ram yes" \
	sh -c "grep -qxF 'ram: yes (System RAM, managed by the kernel)' /tmp/info &&
		grep -q '^helper: .*allow-ram yes$' /tmp/info"
expect_err "with allow_ram=1, uncached System RAM is refused" 2 \
	"pfnmap: the helper refuses 0x100000-0x100fff: System RAM can only be mapped write-back (--cache=wb or auto)" \
	pf --cache=uc read 0x100000
echo 0 > $AR
expect_err "a page mixing RAM and reserved memory is refused" 2 \
	"pfnmap: the helper refuses 0x9f000-0x9ffff: it mixes System RAM with other memory; split it at the boundary /proc/iomem shows" \
	pf dump 0x9fbf0+0x20
expect_err "allow_ram=0 again: refused" 2 \
	"pfnmap: the helper refuses 0x100000-0x100fff: it is System RAM that the kernel manages, which the helper refuses; load pfnmap with allow_ram=1 to map it (write-back only)" \
	pf read 0x100000

chmod 666 /dev/pfnmap
check "su to nobody works" [ "$(su -s /bin/sh nobody -c 'id -u')" = 65534 ]
expect_err "nobody is refused even with /dev/pfnmap mode 0666" 3 \
	"pfnmap: /dev/pfnmap: permission denied: mapping physical memory needs root with CAP_SYS_RAWIO (try sudo)" \
	su -s /bin/sh nobody -c "pfnmap read $H"
chmod 600 /dev/pfnmap

if [ -n "$phys_bits" ]; then
	lim=$((1 << phys_bits))
	diag "physical address width: $phys_bits bits"
	expect_err "an address beyond the physical address width is refused" 2 \
		"pfnmap: the helper refuses $(hx $lim)-$(hx $((lim + 3))): it ends beyond the CPU's physical address width" \
		pf read "$(hx $lim)"
	# refused as a whole: not a byte of the part below the limit comes out
	expect_err "a range ending beyond the width is refused as a whole" 2 \
		"pfnmap: the helper refuses $(hx $((lim - 4)))-$(hx $((lim + 3))): it ends beyond the CPU's physical address width" \
		pf dump "$(hx $((lim - 4)))+8"
else
	notok "physical address width from pfnmap info"
fi

# ---------------------------------------------------------------------------
diag "direct /dev/pfnmap checks (probe; MAP_PRIVATE and more)"
probe_tap() {	# PREFIX CMD...
	local p=$1 l
	shift
	"$@" > /tmp/probe.out 2>&1
	while IFS= read -r l; do
		case $l in
		PASS:*) ok "$p${l#PASS: }" ;;
		FAIL:*) notok "$p${l#FAIL: }" ;;
		SKIP:*) skip "$p${l#SKIP: }" "" ;;
		*) diag "$p$l" ;;
		esac
	done < /tmp/probe.out
}
probe_tap "probe: " probe run "$EDU" "$(hx $IV)"
if [ -x /bin/probe32 ]; then
	probe_tap "probe32: " probe32 run "$EDU" "$(hx $IV)"
fi
probe_tap "stress: " probe stress 8 300

# ---------------------------------------------------------------------------
diag "module reference counting"
held_dump auto $H 0x400000
check "rmmod is refused while a pfnmap process maps" \
	sh -c '! rmmod pfnmap 2> /dev/null && grep -q "^pfnmap " /proc/modules'
held_end
check "the blocked dump then completes" [ $held_rc = 0 ]
check "rmmod works once it has ended" rmmod pfnmap
check "/dev/pfnmap is gone" [ ! -e /dev/pfnmap ]
expect_err "--no-load without the helper: refused in words" 3 \
	"pfnmap: /dev/pfnmap does not exist and --no-load forbids loading the helper; load it (modprobe pfnmap) or drop --no-load" \
	pfnmap --no-load read $H
pf read $H > /dev/null
check "pfnmap --module loads it again" grep -q '^pfnmap ' /proc/modules
probe hold > /tmp/hold.out &
holder=$!
i=0
while ! grep -q HOLD-READY /tmp/hold.out && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "rmmod is refused while a mapping lives (its fd closed)" \
	sh -c '! rmmod pfnmap 2> /dev/null'
kill $holder
wait $holder 2> /dev/null
check "rmmod after the last mapping is gone" rmmod pfnmap

# ---------------------------------------------------------------------------
diag "kernel health since the marker"
dmesg | sed -n "/$MARK/,\$p" > /tmp/dmesg
sed 's/^/# dmesg: /' /tmp/dmesg
check "dmesg: no WARNING, BUG, Oops, Call Trace, x86/PAT:, usercopy, Bad page" \
	sh -c "! grep -e WARNING -e BUG -e Oops -e 'Call Trace' -e 'x86/PAT:' \
		-e usercopy -e 'Bad page' /tmp/dmesg"
taint=$(cat /proc/sys/kernel/tainted)
check "tainted $taint: no bit beyond 4096|8192 (out-of-tree, unsigned)" \
	[ $((taint & ~(4096 | 8192))) = 0 ]

echo "1..$T"
echo "# guest $GUEST: $T tests, $F failed, $(cut -d' ' -f1 /proc/uptime) s after boot"
echo "VM-SUMMARY $T $F"
