#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# The pfnmap guest tests, run by /init in the QEMU guest (busybox sh).
# Prints TAP lines on the serial console ("ok N - ...", "not ok N - ...",
# "# ..." diagnostics), then "1..N" and "VM-SUMMARY <tests> <failed>".
#
# Guest machine (tests/vm/lib.sh): 4 MiB of RAM hidden at 0x180000000 (on
# x86 with memmap=, on ARM beyond mem=: the variables below say what else
# differs), QEMU's edu device, ivshmem-plain BAR2 (2 GiB, above 4 GiB) on
# a host file that the host filled before boot (/data/iv-*.bin) and
# compares with its expectation after the guest powered off; the guest's
# writes there are listed in tests/vm/run.sh (ivshmem_expect) too.
#
# The CLI loads the helper itself, through libkmod, from /pfnmap.ko.
#
# Every check fails closed: a command's exit status is checked, expected
# copies are updated whatever the command did, and "nothing there" checks
# first prove that there was something to look at. run.sh requires the
# exact number of checks and skips per guest (vm_expected in run.sh):
# adding or removing a check here or in probe.c means updating it there.
set -u

# shellcheck source=/dev/null # written by run.sh: GUEST=...
. /data/env

H=0x180000000		# hidden memory, 4 MiB
# The machine's map (tests/vm/lib.sh): a page of System RAM, where System
# RAM ends with no resource after it; K64: a 64-bit kernel; DEVMEM_HIGH:
# /dev/mem reaches the hidden memory above 4 GiB
case $(uname -m) in
aarch64) X86=0 K64=1 RAM=0x40000000 RAM_END=0x140000000 ;;
armv7l) X86=0 K64=0 RAM=0x40000000 RAM_END=0x100000000 ;;
x86_64) X86=1 K64=1 RAM=0x100000 RAM_END=0x1f4000000 ;;
*) X86=1 K64=0 RAM=0x100000 RAM_END=0x1f4000000 ;;
esac
DEVMEM_HIGH=1
[ $X86 = 1 ] && [ $K64 = 0 ] && DEVMEM_HIGH=0
# ONE64: the CPU has a 64-bit access that a device sees as one; 32-bit ARM
# has none, and pfnmap refuses --width=64 on uncached and write-combined
# memory there (W64: the width the checks of plain memory use instead)
ONE64=1 W64=64
[ $X86 = 0 ] && [ $K64 = 0 ] && ONE64=0 W64=32
# no64 CMD: the refusal's words
no64() {
	echo "pfnmap: $1: --width=64 on $2 memory: a 32-bit ARM CPU has no 64-bit access that the device is sure to see as one (LDRD may arrive as two 32-bit accesses); use --width=32, or the arm64 build on an arm64 kernel"
}
# Options of the hidden-memory section (below): on arm64, auto maps memory
# outside the kernel's linear map as Device memory, as /dev/mem does (the
# cache type checks further down prove it), where loads and stores must be
# aligned to the width; write-back there lets the section test unaligned
# ranges as on x86. (TCG models no caches: on hardware, reading back what
# a write-back mapping wrote through an uncached one, as the devmem
# checks do, would need a cache clean first.)
HC=
# what -v adds to a type the helper applied: the architecture's name for it
W_UC='' W_WC='' W_WB=''
if [ $X86 = 0 ]; then
	W_UC=' (Device-nGnRnE)' W_WC=' (Normal non-cacheable)'
	W_WB=' (Normal write-back)'
	[ $K64 = 1 ] || W_UC=' (Strongly-ordered)'
fi
# who decided the type that -v reports: the kernel, read back from the page
# table by the helper; on 32-bit ARM only what the helper asked for
APPLIED='the kernel applied'
[ $X86 = 0 ] && [ $K64 = 0 ] && APPLIED='the helper requested'
M=/tmp/mirror		# what the hidden memory must hold
MARK="pfnmap-vm-tests-start-$$"
any_out=0

# shellcheck source=tap.sh # /tap.sh in the initramfs: ok, notok, check...
. /tap.sh

# shellcheck disable=SC2086 # $HC: no option, or one
pf() { pfnmap --module=/pfnmap.ko $HC "$@"; }
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

# step DESC OFFSET FILE CMD...: CMD changes the hidden memory; the mirror
# gets FILE at OFFSET whatever CMD did (that is what the memory must hold
# now), and the check passes only if CMD exited 0 with nothing on stderr
# and the whole hidden memory equals the mirror. A command that fails
# cleanly, or does nothing, therefore fails the check.
step() {
	local d=$1 off=$2 f=$3 rc
	shift 3
	"$@" > /tmp/step.out 2> /tmp/step.err
	rc=$?
	mput "$off" "$f" || rc="$rc, and the mirror update failed"
	if [ "$rc" != 0 ] || [ -s /tmp/step.err ]; then
		notok "$d"
		diag "status $rc"
		indent /tmp/step.err
	elif hidden_is > /tmp/step.cmp 2>&1; then
		ok "$d"
	else
		notok "$d"
		diag "the hidden memory differs from the mirror:"
		indent /tmp/step.cmp
	fi
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
	while ! grep -q "$APPLIED" /tmp/held.err && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# The x86 PAT debugfs list walks the memtype tree from 0 to ULONG_MAX
# (memtype_copy_nth_element()): a 32-bit kernel never lists a range above
# 4 GiB, although PAT tracks it. Other architectures have no PAT.
pat_visible() {
	[ $X86 = 1 ] && { [ $K64 = 1 ] || [ $(($1)) -lt $((0x100000000)) ]; }
}
pat_hidden_why() {
	if [ $X86 = 1 ]; then
		echo "a 32-bit kernel's pat_memtype_list hides ranges above 4 GiB"
	elif [ $K64 = 1 ]; then
		echo "no PAT on $(uname -m): the helper reads the type back from the page table entry (the -v line)"
	else
		echo "no PAT on $(uname -m): the helper reports the type it asked for (the -v line: requested)"
	fi
}

held_end() {	# [FILE]: sets held_rc; the bytes dumped are in FILE or /tmp/held.out
	cat <&4 > "${1:-/tmp/held.out}"
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
		skip "$d: PAT type while mapped" "$(pat_hidden_why)"
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
		# gone: PAT listed the range while mapped, and now grep reads
		# the list (status 1: read, no match; 2: unreadable)
		grep -q "mem 0x$(printf %016x $((a)))-" $pat_list 2> /tmp/pat.err
		rc=$?
		if [ -n "$got" ] && [ $rc = 1 ]; then
			ok "$d: the PAT entry seen while mapped is gone after the process ended"
		else
			notok "$d: PAT entry while mapped '$got', grep for it afterwards: status $rc (want 1, no match)"
			indent /tmp/pat.err
		fi
	fi
}

echo "# pfnmap guest $GUEST: kernel $(uname -r) $(uname -m), $(cut -d' ' -f1 /proc/uptime) s after boot"
echo "$MARK" > /dev/kmsg

# ---------------------------------------------------------------------------
diag "setup (clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), tainted $(cat /proc/sys/kernel/tainted))"
check "shell arithmetic is 64-bit" [ "$((0x180000000 + 1)) $(hx $((0x200000000 + 0x7fffffff)))" = "6442450945 0x27fffffff" ]
if [ $X86 = 1 ]; then
	check "/proc/iomem shows the hidden 4 MiB as Reserved" \
		grep -q '^ *180000000-1803fffff : Reserved' /proc/iomem
	# the top-level entries from that RAM on (KASLR may put the
	# kernel's code in it)
	awk '/^180400000-/ { f = 1 } f && !/^ / { print; if (++n == 2) exit }' \
		/proc/iomem > /tmp/iomem.end
	printf '180400000-1f3ffffff : System RAM\n200000000-27fffffff : PCI Bus 0000:00\n' \
		> /tmp/iomem.want
	check "/proc/iomem: System RAM ends at 0x1f4000000 (mem=8000M), nothing after it" \
		diff /tmp/iomem.want /tmp/iomem.end
else
	# mem=4G (arm64) or 3G (armhf): RAM from 0x40000000 to RAM_END,
	# then no resource until the PCI ECAM at 256 GiB
	ram_line="40000000-$(printf %x $((RAM_END - 1))) : System RAM"
	awk -v r="$ram_line" '/^ / { next } { print } $0 == r { f = 1 }
		f && ++n == 2 { exit }' /proc/iomem | tail -n 2 > /tmp/iomem.end
	printf '%s\n4010000000-401fffffff : PCI ECAM\n' "$ram_line" \
		> /tmp/iomem.want
	check "/proc/iomem: System RAM ends at $(hx $RAM_END) ($([ $K64 = 1 ] && echo mem=4G || echo mem=3G)), nothing after it up to the PCI ECAM at 256 GiB" \
		diff /tmp/iomem.want /tmp/iomem.end
	indent /proc/iomem
	HC=--cache=wb
fi
check "the helper is not loaded yet" \
	sh -c '! grep -q "^pfnmap " /proc/modules && [ ! -e /dev/pfnmap ]'
if [ $X86 = 1 ]; then
	check "debugfs pat_memtype_list exists (x86 PAT on)" test -r $pat_list
fi

# ---------------------------------------------------------------------------
hidden_how="beyond mem=$([ $K64 = 1 ] && echo 4G || echo 3G)"
# shellcheck disable=SC2016 # the $ of memmap= is literal
[ $X86 = 1 ] && hidden_how='memmap=4M$0x180000000'
diag "hidden memory at $H ($hidden_how)"
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
iomem_line='iomem: 180000000-1803fffff : Reserved'
[ $X86 = 1 ] || iomem_line='iomem: none (no resource claims this range)'
for l in 'region: 0x180000000-0x1803fffff' 'size: 4194304' \
	'pfn: 0x180000-0x1803ff' 'pages: 1024' 'page-size: 4096' \
	'page-offset: 0x0' "$iomem_line" 'ram: no'; do
	check "info 0x180000000+4M: '$l'" grep -qxF "$l" /tmp/info
done
if [ $X86 = 1 ]; then
	check "info: helper abi 2, pat on, allow-ram no" \
		grep -qx 'helper: abi 2, phys-bits [0-9]*, pat on, allow-ram no' /tmp/info
else
	check "info: helper abi 2, allow-ram no, no PAT words" \
		grep -qx 'helper: abi 2, phys-bits [0-9]*, allow-ram no' /tmp/info
fi
phys_bits=$(sed -n 's/^helper: abi [0-9]*, phys-bits \([0-9]*\),.*/\1/p' /tmp/info)
pf info 0x180000ffd+5 > /tmp/info2
check "info of an unaligned range: 2 pages from pfn 0x180000, offset 0xffd" \
	sh -c "grep -qxF 'pfn: 0x180000-0x180001' /tmp/info2 &&
		grep -qxF 'pages: 2' /tmp/info2 &&
		grep -qxF 'page-offset: 0xffd' /tmp/info2"

# QEMU's RAM holds zeros at boot: a pattern first, so that every fill
# below changes every byte it covers
rep 4194304 ef cd ab 89 67 45 23 01 > /tmp/b
step "fill 4 MiB with 0x0123456789abcdef (64-bit): every byte as expected" \
	0 /tmp/b pf -w 64 fill $H+4M 0x0123456789abcdef
head -c 4194304 /dev/zero > /tmp/b
step "fill 4 MiB with 64-bit zeros over the pattern: 4 MiB of zeros" \
	0 /tmp/b pf -w 64 fill $H+4M 0
rep 4194304 44 33 22 11 > /tmp/b
step "fill 4 MiB with 0x11223344 (32-bit): every byte as expected" \
	0 /tmp/b pf fill $H+4M 0x11223344
bytes ab ab ab ab ab > /tmp/b
step "fill -w 8 at +3 for 5 bytes: those bytes, nothing around" \
	3 /tmp/b pf -w 8 fill 0x180000003+5 0xab
rep 0x1ffe a5 5a > /tmp/b
step "fill -w 16 at +0x1002 for 0x1ffe bytes (across pages)" \
	0x1002 /tmp/b pf -w 16 fill 0x180001002+0x1ffe 0x5aa5
expect_err "fill at an unaligned start with --width=32 is refused" 64 \
	"pfnmap: fill: '0x180000001+4' is not aligned to --width=32: stores are 4 bytes wide, so start and size must be multiples of 4 (or use --width=8)" \
	pf fill 0x180000001+4 0

# write: width, address, value, the bytes it stores: its status, the value
# read back, and the mirror updated whatever happened (the check after the
# writes compares all of the memory once)
wr() {
	local w=$1 a=$2 v=$3
	shift 3
	bytes "$@" > /tmp/b
	check "write -w $w $a $v" pf -w "$w" write "$a" "$v"
	mput $((a - H)) /tmp/b
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

if [ $DEVMEM_HIGH = 1 ]; then
	got=$(devmem 0x18000200c 32 | tr A-F a-f)
	check "devmem reads 0xcafef00d where pfnmap wrote it (got $got)" \
		[ "$got" = 0xcafef00d ]
	bytes fe ca 0d 60 > /tmp/b
	step "devmem writes 0x600dcafe at 0x180002100" 0x2100 /tmp/b \
		devmem 0x180002100 32 0x600dcafe
	expect_out "pfnmap reads what devmem wrote" 0x600dcafe pf read 0x180002100
else
	# x86 devmem_is_allowed() truncates the address on a 32-bit kernel
	skip "devmem cross-check of the hidden memory" "32-bit kernel: /dev/mem aliases 0x180000000 to 0x80000000"
	skip "devmem writes the hidden memory" "32-bit kernel"
	skip "pfnmap reads what devmem wrote" "32-bit kernel"
fi

step "load a 64 KiB file at an unaligned start" 0x10001 /data/rand64k \
	pf load 0x180010001 /data/rand64k
slice /data/rand64k 0 1000 > /tmp/b
step "load into a 1000-byte region: the first 1000 bytes of the file, no more" \
	0x30003 /tmp/b pf load 0x180030003+1000 /data/rand64k
load_stdin() { printf 'hello, hidden memory' | pf load 0x180020005; }
printf 'hello, hidden memory' > /tmp/b
step "load from stdin" 0x20005 /tmp/b load_stdin
printf 'ab' > /tmp/b
expect_err "load with short input: written and reported" 1 \
	"pfnmap: load: short input: standard input ended after 2 of 4 bytes; only those were written" \
	sh -c "printf ab | pfnmap $HC load 0x180020100+4"
mput 0x20100 /tmp/b
check "short load: the 2 bytes that came, nothing else" hidden_is
# both ends of the pipe must succeed (busybox sh has pipefail)
# dump_load FROM TO [LOAD-OPTIONS...]
dump_load() (
	set -o pipefail
	from=$1 to=$2
	shift 2
	pf dump "$from" | pf "$@" load "$to"
)
slice $M 0x10001 0x10000 > /tmp/b
step "dump | load elsewhere (unaligned both)" 0x200003 /tmp/b \
	dump_load 0x180010001+0x10000 0x180200003
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
check "dump --cache=uc -w $W64 of the 4 MiB" dump_is $H+4M $M --cache=uc -w $W64
slice $M 0x10001 0x1001 > /tmp/b
check "dump --cache=wc -w 8, unaligned" dump_is 0x180010001+0x1001 /tmp/b --cache=wc -w 8
check "dump --cache=wb of the 4 MiB" dump_is $H+4M $M --cache=wb
expect_err "dump --cache=uc unaligned to --width=32 is refused" 64 \
	"pfnmap: dump: '0x180010001+0x1001' is not aligned to --width=32: uncached loads are 4 bytes wide, so start and size must be multiples of 4 (or use --width=8)" \
	pf --cache=uc dump 0x180010001+0x1001
step "load --cache=wc" 0x300000 /data/rand64k \
	pf --cache=wc load 0x180300000 /data/rand64k
bytes 34 12 > /tmp/b
step "write --cache=uc -w 16" 0x300002 /tmp/b \
	pf --cache=uc -w 16 write 0x180300002 0x1234
HC=

# ---------------------------------------------------------------------------
EDU=$(pci_bar 0x1234 0x11e8 0)
EDU=$(hx $((EDU)))
diag "edu BAR0 at $EDU"
check "edu device found" [ "$EDU" != 0x0 ]
# memory decoding (COMMAND bit 1): firmware turns it on for every device
# on x86; on arm64 there is none, and the BARs read all ones until set
# decoding_on VENDOR:DEVICE BAR: turn it on where it is off, and check
# pfnmap's warning before and its silence after
decoding_on() {
	local dev=$1 bar=$2 cmd slot d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cut -c3- "$d/vendor"):$(cut -c3- "$d/device")" = "$dev" ] &&
			slot=${d##*/}
	done
	cmd=$(pf -w 16 read "$dev/config@0x4")
	if [ $((cmd & 2)) != 0 ]; then
		skip "$dev: memory decoding off" "on already ($cmd): the firmware set it"
		return
	fi
	pf read "$dev/$bar" > /tmp/out 2> /tmp/err
	check "$dev ($slot) with decoding off ($cmd): $bar reads all ones, and pfnmap warns once, naming the fix" \
		sh -c "[ \"\$(cat /tmp/out)\" = 0xffffffff ] && [ \$(wc -l < /tmp/err) = 1 ] &&
			grep -qxF 'pfnmap: read: $slot has memory decoding off (COMMAND bit 1 clear): its memory BARs read as all ones and ignore writes; turn it on with: pfnmap -w 16 set $slot/config@0x4 0x2' /tmp/err"
	indent /tmp/err
	check "$dev: pfnmap -w 16 set $slot/config@0x4 0x2" \
		pf -w 16 set "$slot/config@0x4" 0x2
	pf read "$dev/$bar" > /tmp/out 2> /tmp/err
	check "$dev: decoding on, $bar reads $(cat /tmp/out), no warning" \
		sh -c "[ \"\$(cat /tmp/out)\" != 0xffffffff ] && [ ! -s /tmp/err ]"
}
decoding_on 1234:11e8 bar0
decoding_on 1af4:1110 bar2
expect_out "edu ID register reads 0x010000ed" 0x010000ed pf read "$EDU"
check "devmem agrees on the ID register" \
	[ "$(devmem "$EDU" 32 | tr A-F a-f)" = 0x010000ed ]
LIVE=$(hx $((EDU + 4)))
check "write 0x12345678 to the liveness register" pf write "$LIVE" 0x12345678
expect_out "liveness register: NOT of 0x12345678" 0xedcba987 pf read "$LIVE"
check "devmem agrees on the liveness register" \
	[ "$(devmem "$LIVE" 32 | tr A-F a-f)" = 0xedcba987 ]
check "devmem writes 0x0f0f0f0f to the liveness register" \
	devmem "$LIVE" 32 0x0f0f0f0f
expect_out "pfnmap reads NOT of what devmem wrote" 0xf0f0f0f0 pf read "$LIVE"
bytes ed 00 00 01 f0 f0 f0 f0 > /tmp/b
check "dump of the first two registers" dump_is "$EDU+8" /tmp/b
pf hexdump "$EDU+8" > /tmp/hx
check "hexdump of the first two registers, physical addresses" \
	grep -qxF "$(printf '%08x' $((EDU)))  ed 00 00 01 f0 f0 f0 f0                           |........|" /tmp/hx
expect_out "read --cache=uc" 0x010000ed pf --cache=uc read "$EDU"
expect_out "read --cache=wc" 0x010000ed pf --cache=wc read "$EDU"
if [ $X86 = 1 ]; then
	expect_err "read --cache=wb on the edu BAR is refused in words" 2 \
		"pfnmap: the helper refuses $EDU-$(hx $((EDU + 0xfff))): the kernel would map it with another cache type (an existing mapping or the MTRRs decide); use the type \`pfnmap info\` shows, or --cache=auto" \
		pf --cache=wb read "$EDU"
else
	# pfnmap(4) SECURITY "Cache types": no write-back on a device's range
	expect_err "read --cache=wb on the edu BAR is refused on ARM, in words" 2 \
		"pfnmap: the helper refuses $EDU-$(hx $((EDU + 0xfff))): write-back is refused on a device's range on ARM (the CPU may read and write back cacheable memory when it likes); use --cache=auto, uc or wc" \
		pf --cache=wb read "$EDU"
fi
expect_out "auto works again after the refusal" 0x010000ed pf read "$EDU"
pf info "$EDU+1M" > /tmp/info
check "info of the edu BAR: not RAM, owned by the PCI device" \
	sh -c "grep -qxF 'ram: no' /tmp/info && grep -q '^iomem: *$(printf %x $((EDU)))-$(printf %x $((EDU + 0xfffff))) : 0000:' /tmp/info"

# ---------------------------------------------------------------------------
diag "access widths, with the edu device as the oracle"
# edu (QEMU hw/misc/edu.c) sees the width of every access:
# - below 0x80 it takes 4-byte accesses only. QEMU drops 1- and 2-byte ones
#   (reads give 0, writes nothing); edu answers an 8-byte read there with
#   all ones and ignores an 8-byte write. A narrow access widened to 32
#   bits would read bytes of the ID 0x010000ed or write the liveness
#   register; an 8-byte one split in two would read ID and liveness, or
#   write the liveness register.
# - 0x80 (DMA source), 0x88 (DMA destination) and 0x90 (DMA count) are 64
#   bits wide and take 4- and 8-byte accesses; 0x84, 0x8c and 0x94 are no
#   registers (4-byte reads give all ones, writes do nothing). So only a
#   single 8-byte access reaches a register's upper half: a 64-bit access
#   done as two 32-bit ones loses it.
# NEVER write 0x98 (the DMA command register): it starts a transfer.
er() { hx $((EDU + $1)); }	# er OFFSET: the physical address in BAR0
# - On ARM QEMU answers an access edu refuses with an external abort: the
#   exact width shows as pfnmap's bus error (exit 4) and busybox devmem's
#   SIGBUS. arm64 taints the kernel M for each (do_sea()), 32-bit ARM logs
#   an "Unhandled fault" report (do_DataAbort()); the kernel-health check
#   at the end expects exactly that from here.
taint_before=$(cat /proc/sys/kernel/tainted)
echo "pfnmap-expect-begin edu-widths" > /dev/kmsg
# narrow_read WIDTH OFFSET ZERO / narrow_write WIDTH VALUE: edu+OFFSET,
# the liveness register at edu+4
narrow_read() {
	if [ $X86 = 1 ]; then
		expect_out "read -w $1 of edu+$2: $3, edu drops $1-bit accesses (a 32-bit one reads the ID's bytes)" \
			"$3" pf -w "$1" read "$(er "$2")"
	else
		expect_err "read -w $1 of edu+$2: edu refuses it, an external abort: bus error, exit 4" \
			4 "pfnmap: bus error at physical $(er "$2")" pf -w "$1" read "$(er "$2")"
	fi
}
narrow_write() {
	if [ $X86 = 1 ]; then
		check "write -w $1 $2 to the liveness register: edu ignores it" \
			pf -w "$1" write "$(er 4)" "$2"
	else
		expect_err "write -w $1 $2 to the liveness register: edu refuses it, bus error, exit 4" \
			4 "pfnmap: bus error at physical $(er 4)" pf -w "$1" write "$(er 4)" "$2"
	fi
}
# devmem_narrow WIDTH OFFSET ZERO
devmem_narrow() {
	if [ $X86 = 1 ]; then
		check "devmem agrees: a $1-bit read of edu+$2 gives 0" \
			[ "$(devmem "$(er "$2")" "$1")" = "$3" ]
	else
		check "devmem agrees: a $1-bit read of edu+$2 dies of SIGBUS" \
			sh -c "devmem $(er "$2") $1; [ \$? = 135 ]"
	fi
}
for o in 0 1 2 3; do
	narrow_read 8 $o 0x00
done
for o in 0 2; do
	narrow_read 16 $o 0x0000
done
for o in 0 3; do
	devmem_narrow 8 $o 0x00
done
devmem_narrow 16 2 0x0000
check "write 0x12345678 to the liveness register (32-bit)" \
	pf write "$(er 4)" 0x12345678
narrow_write 16 0xffff
narrow_write 8 0xff
echo "pfnmap-expect-end edu-widths" > /dev/kmsg
taint_after=$(cat /proc/sys/kernel/tainted)
if [ $X86 = 0 ] && [ $K64 = 1 ]; then
	check "the external aborts tainted the kernel M (16): $taint_before before, $taint_after after" \
		[ "$((taint_before & 16)):$((taint_after & 16))" = 0:16 ]
fi
expect_out "the liveness register still holds NOT 0x12345678: no write was widened" \
	0xedcba987 pf read "$(er 4)"
if [ $ONE64 = 1 ]; then
	expect_out "read -w 64 of edu+0: all ones, edu's answer to one 8-byte read (two 32-bit reads give liveness:ID)" \
		0xffffffffffffffff pf -w 64 read "$(er 0)"
	check "write -w 64 0x5555555500000000 to edu+0: edu ignores it" \
		pf -w 64 write "$(er 0)" 0x5555555500000000
	expect_out "the liveness register still holds NOT 0x12345678: the 64-bit write was not split" \
		0xedcba987 pf read "$(er 4)"
	check "write -w 64 0x1122334455667788 to edu+0x80 (DMA source)" \
		pf -w 64 write "$(er 0x80)" 0x1122334455667788
	expect_out "read -w 64 of edu+0x80: all 64 bits came through" \
		0x1122334455667788 pf -w 64 read "$(er 0x80)"
	expect_out "read (32-bit) of edu+0x80: the low half" 0x55667788 \
		pf read "$(er 0x80)"
	expect_out "read (32-bit) of edu+0x84: all ones, no register (the upper half takes an 8-byte access)" \
		0xffffffff pf read "$(er 0x84)"
	check "devmem agrees: 32-bit reads of edu+0x80 and +0x84" \
		[ "$(devmem "$(er 0x80)" 32) $(devmem "$(er 0x84)" 32)" = "0x55667788 0xFFFFFFFF" ]
	# the oracle tells a split write: two 32-bit writes lose the upper half
	split_write() {
		pf write "$(er 0x88)" 0x55667788 && pf write "$(er 0x8c)" 0x11223344
	}
	check "write (32-bit) 0x55667788 to edu+0x88, 0x11223344 to edu+0x8c" \
		split_write
	expect_out "read -w 64 of edu+0x88: the split write lost its upper half" \
		0x0000000055667788 pf -w 64 read "$(er 0x88)"
	if [ $K64 = 1 ]; then
		check "devmem agrees: a 64-bit read of edu+0x80 gives 0x1122334455667788" \
			[ "$(devmem "$(er 0x80)" 64)" = 0x1122334455667788 ]
		check "devmem writes 0x0123456789abcdef to edu+0x90 (DMA count, 64-bit)" \
			devmem "$(er 0x90)" 64 0x0123456789abcdef
		expect_out "read -w 64 of edu+0x90: what devmem wrote" \
			0x0123456789abcdef pf -w 64 read "$(er 0x90)"
	else
		# busybox's devmem, built for i386, does a 64-bit access as two
		# 32-bit ones: a real split access, and the oracle shows it
		check "the oracle catches 32-bit busybox devmem's split 64-bit read of edu+0x80" \
			[ "$(devmem "$(er 0x80)" 64)" = 0xFFFFFFFF55667788 ]
		skip "devmem writes edu+0x90 (64-bit)" "32-bit busybox devmem splits 64-bit accesses"
		skip "read -w 64 of what devmem wrote" "32-bit busybox devmem splits 64-bit accesses"
	fi
	rep 24 18 07 f6 e5 d4 c3 b2 a1 > /tmp/b
	check "fill -w 64 edu+0x80+24 (the three DMA registers) with 0xa1b2c3d4e5f60718" \
		pf -w 64 fill "$(er 0x80)+24" 0xa1b2c3d4e5f60718
	for o in 0x80 0x88 0x90; do
		expect_out "read -w 64 of edu+$o after the fill" 0xa1b2c3d4e5f60718 \
			pf -w 64 read "$(er $o)"
	done
	check "dump -w 64 of edu+0x80+24: the filled bytes" dump_is "$(er 0x80)+24" /tmp/b -w 64
else
	# 32-bit ARM: refused, and nothing of it reaches the device
	check "write (32-bit) 0x11111111 to edu+0x80" pf write "$(er 0x80)" 0x11111111
	expect_err "write -w 64 to edu+0x80 is refused on 32-bit ARM, in words" 64 \
		"$(no64 write uc)" pf -w 64 write "$(er 0x80)" 0x2222222233333333
	expect_err "read -w 64 of edu+0x80 is refused" 64 "$(no64 read uc)" \
		pf -w 64 read "$(er 0x80)"
	expect_err "fill -w 64 of edu+0x80+24 is refused" 64 "$(no64 fill uc)" \
		pf -w 64 fill "$(er 0x80)+24" 0x3333333344444444
	expect_out "edu+0x80 still holds 0x11111111: nothing of the refused accesses was written" \
		0x11111111 pf read "$(er 0x80)"
	expect_err "dump --cache=wc -w 64 is refused too" 64 "$(no64 dump wc)" \
		pf --cache=wc -w 64 dump "$(er 0x80)+24"
fi

# ---------------------------------------------------------------------------
IV=$(pci_bar 0x1af4 0x1110 2)
IV=$((IV))
diag "ivshmem BAR2 at $(hx $IV)"
check "ivshmem BAR2 is above 4 GiB" [ $IV -ge $((0x100000000)) ]
check "host data at BAR2+0x1000, 64 KiB: bit-exact" \
	dump_is "$(hx $((IV + 0x1000)))+64K" /data/iv-a.bin
check "host data at BAR2+0x40000007, 1000 bytes (-w 8): bit-exact" \
	dump_is "$(hx $((IV + 0x40000007)))+1000" /data/iv-c.bin -w 8
check "host data in the last page of the BAR (--cache=wc -w $W64)" \
	dump_is "$(hx $((IV + 0x7ffff000)))+4K" /data/iv-b.bin --cache=wc -w $W64
pf hexdump "$(hx $IV)+16" > /tmp/hx
check "hexdump of the host's marker" grep -q '|pfnmap-vm-host-m|$' /tmp/hx
# the guest's writes: tests/vm/run.sh expects exactly these in the file
# (their bytes are checked there; here each command's status)
check "BAR2+0x100000: write 0xa5a5f00d" \
	pf write "$(hx $((IV + 0x100000)))" 0xa5a5f00d
check "BAR2+0x100006: write -w 16 0xbeef" \
	pf -w 16 write "$(hx $((IV + 0x100006)))" 0xbeef
check "BAR2+0x40000003: load -w 8 a text file" \
	pf -w 8 load "$(hx $((IV + 0x40000003)))" /data/text.txt
check "BAR2+0x200001: fill -w 8 7 bytes of 0x3c" \
	pf -w 8 fill "$(hx $((IV + 0x200001)))+7" 0x3c
check "the last byte of BAR2: write -w 8 0x42" \
	pf -w 8 write "$(hx $((IV + 0x7fffffff)))" 0x42
check "BAR2: dump 64 KiB at +0x1000 | load -w 8 at +0x300001" \
	dump_load "$(hx $((IV + 0x1000)))+64K" "$(hx $((IV + 0x300001)))" -w 8
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
check "write the liveness register by name" \
	pf write 1234:11e8/bar0@0x4 0x0ff00ff0
expect_out "liveness register by name: the complement" 0xf00ff00f \
	pf read "${ES#0000:}/bar0@4"
check "devmem agrees on the liveness register" \
	[ "$(devmem $((EDU + 4)) 32 | tr A-F a-f)" = 0xf00ff00f ]
if [ $ONE64 = 1 ]; then
	# 64-bit accesses by BAR identifier, with edu's DMA registers as the
	# oracle (see "access widths" above; never write bar0@0x98)
	check "write -w 64 by name: 1234:11e8/bar0@0x88 0x8877665544332211" \
		pf -w 64 write 1234:11e8/bar0@0x88 0x8877665544332211
	expect_out "read -w 64 by slot $ES/bar0@0x88: all 64 bits" \
		0x8877665544332211 pf -w 64 read "$ES/bar0@0x88"
	expect_out "read -w 64 of the same register by physical address" \
		0x8877665544332211 pf -w 64 read "$(er 0x88)"
	check "write -w 64 by physical address: edu+0x90 0x0f1e2d3c4b5a6978" \
		pf -w 64 write "$(er 0x90)" 0x0f1e2d3c4b5a6978
	expect_out "read -w 64 by name ${ES#0000:}/bar0@0x90: all 64 bits" \
		0x0f1e2d3c4b5a6978 pf -w 64 read "${ES#0000:}/bar0@0x90"
	check "fill -w 64 by name: 1234:11e8/bar0@0x80+16 with 0x0102030405060708" \
		pf -w 64 fill 1234:11e8/bar0@0x80+16 0x0102030405060708
	bytes 08 07 06 05 04 03 02 01 08 07 06 05 04 03 02 01 \
		78 69 5a 4b 3c 2d 1e 0f > /tmp/b
	check "dump -w 64 by name 1234:11e8/bar0@0x80+24: the fill, then 0x90 untouched" \
		dump_is 1234:11e8/bar0@0x80+24 /tmp/b -w 64
	check "dump --cache=wc -w 64 by slot: the same bytes" \
		dump_is "$ES/bar0@0x80+24" /tmp/b --cache=wc -w 64
	bytes 08 07 06 05 ff ff ff ff 08 07 06 05 ff ff ff ff \
		78 69 5a 4b ff ff ff ff > /tmp/b
	check "dump (32-bit loads) of bar0@0x80+24: low halves, all ones between (the width shows)" \
		dump_is 1234:11e8/bar0@0x80+24 /tmp/b
else
	expect_err "write -w 64 by name 1234:11e8/bar0@0x88 is refused on 32-bit ARM" 64 \
		"$(no64 write uc)" pf -w 64 write 1234:11e8/bar0@0x88 0x8877665544332211
fi
pf -n read 1234:11e8/bar0@4 2> /tmp/err
check "auto cache of the non-prefetchable edu BAR is uc" \
	grep -q 'cache uc, width 32$' /tmp/err
check "ivshmem host data by name 1af4:1110/bar2@0x1000+64K: bit-exact" \
	dump_is 1af4:1110/bar2@0x1000+64K /data/iv-a.bin
pf -n dump "$IS/bar2@0x1000+64K" > /dev/null 2> /tmp/err
check "auto cache of the prefetchable ivshmem BAR2 is wc" \
	grep -q 'cache wc, width 32$' /tmp/err
# the guest's writes by name: tests/vm/run.sh expects exactly these
check "by slot: write $IS/bar2@0x500000" \
	pf write "$IS/bar2@0x500000" 0x11223344
check "by vendor:device: fill -w 8 1af4:1110/bar2@0x500011+5" \
	pf -w 8 fill "1af4:1110/bar2@0x500011+5" 0x77
check "by short slot: load -w 8 ${IS#0000:}/bar2@0x600003" \
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
	"pfnmap: read: '*:*.0' matches $nf0 PCI devices; name one by [DOMAIN:]BUS:DEV.FN, or add #N for the Nth" \
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
# auto as /dev/mem: x86 takes the MTRRs' type (write-back for RAM hidden
# with memmap= and for the prefetchable ivshmem BAR), arm64 Device memory
# for all that is not in the kernel's linear map
if [ $X86 = 1 ]; then
	auto_v="pfnmap: dump: $APPLIED wb$W_WB: bulk copies"
else
	auto_v="pfnmap: dump: $APPLIED uc$W_UC: 32-bit loads"
fi
cache_check "hidden auto" auto $H 0x400000 write-back "$auto_v" $M
cache_check "hidden uc" uc $H 0x400000 uncached-minus \
	"pfnmap: dump: $APPLIED uc$W_UC: 32-bit loads" $M
cache_check "hidden wc" wc $H 0x400000 write-combining \
	"pfnmap: dump: $APPLIED wc$W_WC: 32-bit loads" $M
cache_check "hidden wb" wb $H 0x400000 write-back \
	"pfnmap: dump: $APPLIED wb$W_WB: bulk copies" $M
cache_check "edu auto" auto "$EDU" 0x80000 uncached-minus \
	"pfnmap: dump: $APPLIED uc$W_UC: 32-bit loads"
cache_check "edu wc" wc "$EDU" 0x80000 write-combining \
	"pfnmap: dump: $APPLIED wc$W_WC: 32-bit loads"
cache_check "ivshmem auto" auto $IV 0x100000 write-back "$auto_v"
if [ $X86 = 1 ]; then
	cache_check "ivshmem wb" wb $IV 0x100000 write-back \
		"pfnmap: dump: $APPLIED wb$W_WB: bulk copies"
else
	expect_err "ivshmem wb is refused on ARM: a BAR is a device's range" 2 \
		"pfnmap: the helper refuses $(hx $IV)-$(hx $((IV + 0xfffff))): write-back is refused on a device's range on ARM (the CPU may read and write back cacheable memory when it likes); use --cache=auto, uc or wc" \
		pf --cache=wb dump "$(hx $IV)+1M"
fi
cache_check "ivshmem uc" uc $IV 0x100000 uncached-minus \
	"pfnmap: dump: $APPLIED uc$W_UC: 32-bit loads"
cache_check "ivshmem wc" wc $IV 0x100000 write-combining \
	"pfnmap: dump: $APPLIED wc$W_WC: 32-bit loads"

# ---------------------------------------------------------------------------
diag "helper policy"
ram_pg="$(hx $RAM)-$(hx $((RAM + 0xfff)))"
expect_err "System RAM is refused, in words" 2 \
	"pfnmap: the helper refuses $ram_pg: it is System RAM that the kernel manages, which the helper refuses; load pfnmap with allow_ram=1 to map it (write-back only)" \
	pf read $RAM
AR=/sys/module/pfnmap/parameters/allow_ram
check "allow_ram is a 0644 parameter" [ "$(stat -c %a $AR)" = 644 ]
echo 1 > $AR
pf read $RAM > /tmp/out 2> /tmp/err
check "with allow_ram=1 System RAM is read" \
	sh -c "grep -qx '0x[0-9a-f]\{8\}' /tmp/out && [ ! -s /tmp/err ]"
pf info $RAM+4K > /tmp/info
check "info: RAM, allow-ram yes" \
	sh -c "grep -qxF 'ram: yes (System RAM, managed by the kernel)' /tmp/info &&
		grep -q '^helper: .*allow-ram yes$' /tmp/info"
expect_err "with allow_ram=1, uncached System RAM is refused" 2 \
	"pfnmap: the helper refuses $ram_pg: System RAM can only be mapped write-back (--cache=wb or auto)" \
	pf --cache=uc read $RAM
mixed="it mixes System RAM with addresses that are not System RAM; split it where System RAM ends (see /proc/iomem)"
# Above 16 MiB a hole after System RAM starts at a 64 MiB boundary (else
# e820 covers the rest with a "RAM buffer"): where pfnmap's windows part,
# so it never maps System RAM and a hole at once (the probe does, below)
pf dump "$(hx $((RAM_END - 0x100)))+0x200" > /tmp/out 2> /tmp/err
rc=$?
if [ $X86 = 1 ]; then
	check "with allow_ram=1, a dump across the end of System RAM maps each side on its own" \
		sh -c "[ $rc = 0 ] && [ \$(wc -c < /tmp/out) = 512 ] && [ ! -s /tmp/err ]"
else
	# auto: write-back RAM, Device memory after it
	check "with allow_ram=1, a dump across the end of System RAM stops where the cache type changes: RAM's 256 bytes, then exit 2" \
		sh -c "[ $rc = 2 ] && [ \$(wc -c < /tmp/out) = 256 ] && grep -qxF \"pfnmap: dump: the kernel mapped the start of '$(hx $((RAM_END - 0x100)))+0x200' wb but $(hx $RAM_END) on uc; split the region where the cache type changes (see pfnmap info)\" /tmp/err"
	indent /tmp/err
fi
echo 0 > $AR
if [ $X86 = 1 ]; then
	expect_err "a page mixing RAM and reserved memory is refused" 2 \
		"pfnmap: the helper refuses 0x9f000-0x9ffff: $mixed" \
		pf dump 0x9fbf0+0x20
else
	skip "a page mixing RAM and reserved memory" "QEMU virt has no such page"
fi
expect_err "a dump across the end of System RAM: its System RAM part is refused" 2 \
	"pfnmap: the helper refuses $(hx $((RAM_END - 0x1000)))-$(hx $((RAM_END - 1))): it is System RAM that the kernel manages, which the helper refuses; load pfnmap with allow_ram=1 to map it (write-back only)" \
	pf dump "$(hx $((RAM_END - 0x100)))+0x200"
expect_out "the hole after System RAM is not System RAM: pfnmap reads it" \
	0x00000000 pf read $RAM_END
expect_err "allow_ram=0 again: refused" 2 \
	"pfnmap: the helper refuses $ram_pg: it is System RAM that the kernel manages, which the helper refuses; load pfnmap with allow_ram=1 to map it (write-back only)" \
	pf read $RAM

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
		"pfnmap: the helper refuses $(hx $lim)-$(hx $((lim + 3))): it ends beyond the $phys_bits-bit physical addresses the helper can map (phys-bits in pfnmap info)" \
		pf read "$(hx $lim)"
	# refused as a whole: not a byte of the part below the limit comes out
	expect_err "a range ending beyond the width is refused as a whole" 2 \
		"pfnmap: the helper refuses $(hx $((lim - 4)))-$(hx $((lim + 3))): it ends beyond the $phys_bits-bit physical addresses the helper can map (phys-bits in pfnmap info)" \
		pf dump "$(hx $((lim - 4)))+8"
else
	notok "physical address width from pfnmap info"
fi

# ---------------------------------------------------------------------------
diag "cache type conflicts: PAT refuses wc over a live wb mapping"
if [ $X86 = 1 ]; then
	# 1 MiB: more than the fifo holds, so that the dump blocks with it
	# mapped
	held_dump wb $H 0x100000
	echo "pfnmap-expect-begin cli-pat-conflict" > /dev/kmsg
	expect_err "wc over a live wb mapping is refused as another cache type, in words" 2 \
		"pfnmap: the helper refuses $H-$(hx $((H + 0xfff))): the kernel would map it with another cache type (an existing mapping or the MTRRs decide); use the type \`pfnmap info\` shows, or --cache=auto" \
		pf --cache=wc read $H
	echo "pfnmap-expect-end cli-pat-conflict" > /dev/kmsg
	held_end
	check "the write-back dump held meanwhile completes" [ $held_rc = 0 ]
else
	skip "wc over a live wb mapping is refused" "no PAT on $(uname -m)"
fi

# ---------------------------------------------------------------------------
diag "exclusive resources: QEMU's e1000e with Debian's driver"
while read -r m; do
	insmod "/kmods/$m.ko" 2> /tmp/err || { diag "insmod $m:"; indent /tmp/err; }
done < /kmods/order
E1K=$(pci_bar 0x8086 0x10d3 0)
E1K=$(hx $((E1K)))
E1KS=$(pci_slot 0x8086 0x10d3)
diag "e1000e at $E1KS, BAR0 at $E1K"
check "the e1000e driver is bound to $E1KS" \
	test "$(basename "$(readlink "/sys/bus/pci/devices/$E1KS/driver")")" = e1000e
check "/proc/iomem shows e1000e's claim inside BAR0" \
	grep -q "^    $(printf %x $((E1K)))-[0-9a-f]* : e1000e$" /proc/iomem
excl="a driver claimed it exclusively (IORESOURCE_EXCLUSIVE), which forbids mapping it into user space; pfnmap info names the driver: unbind it to map the range"
expect_err "a BAR that its driver claimed exclusively is refused, in words" 2 \
	"pfnmap: the helper refuses $E1K-$(hx $((E1K + 0xfff))): $excl" \
	pf read "$E1K"
expect_err "a range that only ends in it is refused as well" 2 \
	"pfnmap: the helper refuses $(hx $((E1K - 0x1000)))-$(hx $((E1K + 0xfff))): $excl" \
	pf dump "$(hx $((E1K - 4)))+8"
# pfnmap(4) SECURITY "Ranges that drivers claimed": the helper ignores
# iomem=, which opens /dev/mem to exclusive claims (run.sh boots the
# 6.12 guest with iomem=relaxed)
if grep -qw 'iomem=relaxed' /proc/cmdline; then
	check "with iomem=relaxed /dev/mem maps e1000e's BAR0 (devmem reads it), the helper refused it above" \
		devmem "$E1K" 32
else
	expect_err "/dev/mem refuses e1000e's BAR0 too (no iomem=relaxed)" 1 \
		"devmem: mmap: Operation not permitted" devmem "$E1K" 32
fi

# SECURITY "Ranges that drivers claimed": a claim that is not exclusive
# is mapped, where /dev/mem (IO_STRICT_DEVMEM) refuses it. x86: the
# local APIC, which the kernel claims (busy, not exclusive), whose ID
# register holds /proc/cpuinfo's apicid (one CPU: this one's); ARM: the
# PL011 console UART, whose PrimeCell ID the AMBA bus read
if [ $X86 = 1 ]; then
	apic=$(pf read 0xfee00020)
	apicid=$(sed -n 's/^apicid[[:space:]]*: //p' /proc/cpuinfo | head -n1)
	if grep -q 'fee00000-fee00fff : Local APIC$' /proc/iomem; then
		check "the local APIC, claimed by the kernel (/proc/iomem), maps: ID register $apic, cpuinfo apicid $apicid" \
			[ $((apic >> 24)) = $((apicid)) ]
	else
		skip "the local APIC's claim maps" "this kernel does not claim the local APIC in /proc/iomem"
	fi
	if grep -qw 'iomem=relaxed' /proc/cmdline; then
		check "with iomem=relaxed /dev/mem maps the local APIC too" \
			devmem 0xfee00020 32
	else
		expect_err "/dev/mem refuses the local APIC: the kernel's claim" 1 \
			"devmem: mmap: Operation not permitted" devmem 0xfee00020 32
	fi
else
	id=0
	for i in 0 1 2 3; do
		b=$(pf read "$(hx $((0x9000fe0 + 4 * i)))")
		id=$((id | (b & 0xff) << (8 * i)))
	done
	check "the PL011 UART, claimed by its driver (/proc/iomem), maps: periph ID $(printf %08x $id) as the AMBA bus read it" \
		sh -c "grep -q '^  *09000000-09000fff : 9000000.pl011' /proc/iomem &&
			[ $(printf %08x $id) = \$(cat /sys/bus/amba/devices/9000000.pl011/id) ]"
	grep '09000000-' /proc/iomem > /tmp/iomem.uart
	indent /tmp/iomem.uart
	expect_err "/dev/mem refuses the PL011: a driver's claim" 1 \
		"devmem: mmap: Operation not permitted" devmem 0x9000fe0 32
fi

# ---------------------------------------------------------------------------
diag "direct /dev/pfnmap checks (probe; MAP_PRIVATE and more)"
# probe_tap PREFIX CMD...: a TAP line for each PASS, FAIL and SKIP line of
# the probe, then one more check: the probe's last line "END: N checks, F
# failed" exists (a crashed or stopped probe never prints it), agrees with
# the lines seen, and its exit status is 0 exactly when F is 0.
probe_tap() {
	local p=$1 l rc n=0 nf=0 end="" want want_rc=0
	shift
	"$@" > /tmp/probe.out 2>&1
	rc=$?
	while IFS= read -r l; do
		case $l in
		PASS:*) ok "$p${l#PASS: }"; n=$((n + 1)) ;;
		FAIL:*) notok "$p${l#FAIL: }"; n=$((n + 1)); nf=$((nf + 1)) ;;
		SKIP:*) skip "$p${l#SKIP: }" "the probe skipped it"
			n=$((n + 1)) ;;
		END:*) end=${l#END: } ;;
		*) diag "$p$l" ;;
		esac
	done < /tmp/probe.out
	want="$n checks, $nf failed"
	[ $nf = 0 ] || want_rc=1
	if [ "$end" = "$want" ] && [ "$(tail -n1 /tmp/probe.out)" = "END: $want" ] &&
		[ $rc = $want_rc ]; then
		ok "${p}ran to its end: $want, exit status $rc"
	else
		notok "${p}exit status $rc, last line '$(tail -n1 /tmp/probe.out)' (want 'END: $want' and status $want_rc)"
	fi
}
# x86: a page of RAM that a driver made uncached, for the probe
[ -e /ucpage.ko ] && check "insmod the test module that makes a RAM page uncached" \
	insmod /ucpage.ko
# probe_hold [PHYS]: "probe hold" in the background (holder), once it
# holds its mapping or gave up (/tmp/hold.out)
probe_hold() {
	local i=0
	probe hold "$@" > /tmp/hold.out &
	holder=$!
	while ! grep -q HOLD-READY /tmp/hold.out && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
probe_tap "probe: " probe run "$EDU" "$(hx $IV)" "$E1K"
if [ $X86 = 1 ] && [ $K64 = 1 ]; then
	# a 64-bit kernel's compat paths (ioctl, mmap2): lib.sh builds it
	if [ -x /bin/probe32 ]; then
		probe_tap "probe32: " probe32 run "$EDU" "$(hx $IV)" "$E1K"
	else
		notok "probe32: /bin/probe32 is missing from the initramfs"
	fi
elif [ $K64 = 0 ]; then
	skip "probe32" "the probe of a 32-bit kernel is 32-bit already"
else
	skip "probe32" "no 32-bit (AArch32) probe in the arm64 guest"
fi
[ -e /ucpage.ko ] && check "rmmod the uncached page's module" rmmod pfnmap_ucpage
probe_tap "stress: " probe stress 8 300

echo "$E1KS" > /sys/bus/pci/drivers/e1000e/unbind
check "unbound from e1000e, $E1KS has no driver" \
	test ! -e "/sys/bus/pci/devices/$E1KS/driver"
pf read "$E1K" > /tmp/out 2> /tmp/err
check "without its driver's claim the BAR maps: pfnmap reads e1000e's CTRL register" \
	sh -c "grep -qx '0x[0-9a-f]\{8\}' /tmp/out && [ ! -s /tmp/err ]"
# SECURITY "Ranges that drivers claimed": the check is at mmap(); a
# mapping made before the driver claims the BAR stays
probe_hold "$E1K"
echo "$E1KS" > /sys/bus/pci/drivers/e1000e/bind
check "a process maps BAR0, then e1000e binds to $E1KS again" sh -c \
	"grep -qx HOLD-READY /tmp/hold.out && [ \"\$(basename \"\$(readlink /sys/bus/pci/devices/$E1KS/driver)\")\" = e1000e ]"
expect_err "a new mapping is refused again: the claim is exclusive" 2 \
	"pfnmap: the helper refuses $E1K-$(hx $((E1K + 0xfff))): $excl" \
	pf read "$E1K"
kill -USR1 $holder
wait $holder
rc=$?
check "the mapping made before the claim stays: it reads STATUS (status $rc, $(tail -n1 /tmp/hold.out))" \
	sh -c "[ $rc = 0 ] && tail -n1 /tmp/hold.out | grep -qx 'READ 0x[0-9a-f]\{8\}' &&
		! grep -qx 'READ 0xffffffff' /tmp/hold.out"
echo "$E1KS" > /sys/bus/pci/drivers/e1000e/unbind

# ---------------------------------------------------------------------------
diag "core dumps leave the mappings out"
# SECURITY "Mappings": VM_DONTDUMP; the probe fills a page of the hidden
# memory and one of its heap from /dev/urandom, aborts, and the core holds
# the one and not the other
echo /tmp/core > /proc/sys/kernel/core_pattern
rm -f /tmp/core
(ulimit -c unlimited && exec probe core /tmp/core.heap) > /tmp/core.out 2>&1
check "a process holding a mapping dumps core on SIGABRT ($(wc -c < /tmp/core 2> /dev/null) bytes)" \
	sh -c "[ -s /tmp/core ] && grep -q '^CORE-MAP 0x' /tmp/core.out"
probe_tap "core: " probe corecheck /tmp/core /tmp/core.heap \
	"$(sed -n 's/^CORE-MAP //p' /tmp/core.out)"
rm -f /tmp/core /tmp/core.heap

# ---------------------------------------------------------------------------
diag "remap_pfn_range()'s own errors pass through: a memory cgroup without room"
CG=/sys/fs/cgroup/pfnmap-enomem
if mount -t cgroup2 none /sys/fs/cgroup &&
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control && mkdir $CG; then
	probe_tap "enomem: " probe enomem $CG "$(hx $IV)"
	rmdir $CG
else
	notok "a memory cgroup at $CG"
fi

# ---------------------------------------------------------------------------
diag "module reference counting"
# modref: the helper's reference count in /proc/modules ("pfnmap SIZE
# REFS ..."), empty when it is not loaded
modref() {
	sed -n 's/^pfnmap [0-9]* \([0-9]*\) .*/\1/p' /proc/modules
}
# rmmod_refused DESC WHY: WHY (a command) shows that something holds the
# helper; then it is loaded with a non-zero reference count, rmmod fails,
# and it is still loaded with /dev/pfnmap. Without the holder, or without
# the helper loaded, the refusal proves nothing and the check fails.
rmmod_refused() {
	local d=$1 before after rc why=ok
	shift
	"$@" > /dev/null 2>&1 || why="no: '$*' failed"
	before=$(modref)
	rmmod pfnmap > /tmp/rmmod.err 2>&1
	rc=$?
	after=$(modref)
	if [ "$why" = ok ] && [ -n "$before" ] && [ "$before" -ge 1 ] &&
		[ $rc != 0 ] && [ -n "$after" ] && [ -c /dev/pfnmap ]; then
		ok "$d (refcount $before)"
	else
		notok "$d"
		diag "holder: $why; refcount before '$before', rmmod status $rc, refcount after '$after'"
		indent /tmp/rmmod.err
	fi
}
held_dump auto $H 0x400000
rmmod_refused "rmmod is refused while a pfnmap process maps" \
	grep -q "$APPLIED" /tmp/held.err
held_end
check "the blocked dump then completes" [ $held_rc = 0 ]
check "rmmod works once it has ended" rmmod pfnmap
check "/dev/pfnmap is gone, the helper unloaded" \
	sh -c '[ ! -e /dev/pfnmap ] && ! grep -q "^pfnmap " /proc/modules'
expect_err "--no-load without the helper: refused in words" 3 \
	"pfnmap: /dev/pfnmap does not exist and --no-load forbids loading the helper; load it (modprobe pfnmap) or drop --no-load" \
	pfnmap --no-load read $H
pf read $H > /tmp/out 2> /tmp/err
rc=$?
check "pfnmap --module loads it again (status $rc, refcount 0 when idle)" \
	sh -c "[ $rc = 0 ] && [ ! -s /tmp/err ] && [ '$(modref)' = 0 ] && [ -c /dev/pfnmap ]"
probe_hold
rmmod_refused "rmmod is refused while a mapping lives (its fd closed)" \
	sh -c "grep -qx HOLD-READY /tmp/hold.out && kill -0 $holder"
kill $holder
wait $holder 2> /dev/null
check "rmmod after the last mapping is gone" rmmod pfnmap

# ---------------------------------------------------------------------------
diag "kernel lockdown: one-way, so last"
mount -t securityfs securityfs /sys/kernel/security
check "lockdown is off before" grep -q '\[none\]' /sys/kernel/security/lockdown
# a dump of two windows (64 MiB, then 4 KiB) whose first window is mapped
# and blocked on the fifo before the lockdown, the second one after
if [ $X86 = 1 ]; then held_dump wb $IV 0x4001000; else held_dump wc $IV 0x4001000; fi
probe_tap "lockdown: " probe lockdown
held_end /tmp/held.lock
# SECURITY "Kernel lockdown": a mapping made before lockdown stays
check "the window mapped before lockdown is read whole after it: 64 MiB, from ivshmem's marker on" \
	sh -c "[ \$(wc -c < /tmp/held.lock) = $((0x4000000)) ] &&
		[ \"\$(head -c 21 /tmp/held.lock)\" = pfnmap-vm-host-marker ]"
rm -f /tmp/held.lock
grep -v "$APPLIED" /tmp/held.err > /tmp/err
check "a pfnmap process mapping a window after lockdown fails with status 2 (status $held_rc)" \
	[ $held_rc = 2 ]
check "and says kernel lockdown in words" grep -qxF \
	"pfnmap: the helper refuses $(hx $((IV + 0x4000000)))-$(hx $((IV + 0x4000fff))): the kernel is now locked down (integrity), which refuses physical memory access to everyone, also through a /dev/pfnmap opened before; boot without lockdown (lockdown=none, Secure Boot off) to lift it" \
	/tmp/err
indent /tmp/held.err
expect_err "opening under lockdown is refused, in words" 3 \
	"pfnmap: /dev/pfnmap: the kernel is locked down (integrity): it refuses physical memory access to everyone; boot without lockdown (lockdown=none, Secure Boot off) to lift it" \
	pf read $H

# ---------------------------------------------------------------------------
diag "kernel health since the marker"
dmesg > /tmp/dmesg.all
rc=$?
sed -n "/$MARK/,\$p" /tmp/dmesg.all > /tmp/dmesg.whole
sed 's/^/# dmesg: /' /tmp/dmesg.whole
# what checks make the kernel say on purpose, bracketed by pfnmap-expect-
# begin/end lines: checked here section by section, the rest below
expected() {	# TAG: that section's lines, the markers left out
	sed -n "/pfnmap-expect-begin $1\$/,/pfnmap-expect-end $1\$/p" /tmp/dmesg.whole |
		sed '1d;$d'
}
sed '/pfnmap-expect-begin /,/pfnmap-expect-end /d' /tmp/dmesg.whole > /tmp/dmesg
tags=
[ $X86 = 1 ] && tags="pat-conflict-32 cli-pat-conflict"
[ $X86 = 1 ] && [ $K64 = 1 ] && tags="pat-conflict-64 $tags"
# what PAT says when the probe maps the page that tests/vm/ucpage made
# uncached, auto then wb: it gave the mapping that type
utags=
[ $X86 = 1 ] && utags=ucpage-32
[ $X86 = 1 ] && [ $K64 = 1 ] && utags="ucpage-64 $utags"
for tag in $utags; do
	expected "$tag" > /tmp/dmesg.expect
	check "dmesg, $tag: PAT's two notes that the RAM page stays uncached-minus" sh -c \
		"[ \$(wc -l < /tmp/dmesg.expect) = 2 ] &&
			[ \$(grep -c 'x86/PAT: probe[0-9]*:[0-9]* map pfn RAM range req write-back for \[mem .*\], got uncached-minus$' /tmp/dmesg.expect) = 2 ]"
	indent /tmp/dmesg.expect
done
for tag in $tags; do
	expected "$tag" > /tmp/dmesg.expect
	case $tag in
	pat-conflict-*) who='probe[0-9]*:[0-9]*' ;;
	*) who='pfnmap:[0-9]*' ;;
	esac
	check "dmesg, $tag: exactly PAT's refusal of wc over wb at $H" sh -c \
		"[ \$(wc -l < /tmp/dmesg.expect) = 1 ] && grep -q 'x86/PAT: $who map pfn expected mapping type write-combining for \[mem 0x0*$(printf %x $H)-0x0*$(printf %x $((H + 0xfff)))\], got write-back$' /tmp/dmesg.expect"
done
expected memcg-oom > /tmp/dmesg.expect
check "dmesg, memcg-oom: the cgroup's OOM killer found nothing to kill, and no WARNING or BUG" \
	sh -c "grep -q 'Out of memory and no killable processes' /tmp/dmesg.expect &&
		! grep -e WARNING -e BUG -e Oops -e x86/PAT: -e usercopy -e 'Bad page' /tmp/dmesg.expect"
# the log since the marker: read (dmesg status 0), the marker found (an
# empty or unreadable log proves nothing), and grep reading it without a
# match (status 1; 2 would be an error)
check "dmesg read, with the marker written before the tests" \
	sh -c "[ $rc = 0 ] && head -n1 /tmp/dmesg | grep -qF '$MARK'"
if [ $X86 = 0 ] && [ $K64 = 0 ]; then
	expected edu-widths > /tmp/dmesg.expect
	check "dmesg, edu-widths: an 'Unhandled fault: ... external abort' report for each of the 11 bus errors, and no WARNING or BUG" \
		sh -c "[ \$(grep -c 'Unhandled fault: .*external abort' /tmp/dmesg.expect) = 11 ] &&
			! grep -e WARNING -e BUG -e Oops /tmp/dmesg.expect"
fi
if [ $X86 = 0 ] && [ $K64 = 1 ]; then
	tap_health "$MARK" 16 "M, from the external aborts of edu's refused widths"
else
	tap_health "$MARK"
fi
tap_end
