#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# `pfnmap memtest` in the guest of tests/vm/memtest.sh: on hidden memory
# above 4 GiB at three widths, with the bytes around the tested region
# checked by CRC-32 (the host's zlib value, in /data/env); on the ivshmem
# BAR with uc and wc; and on a part of that BAR into which the host writes
# 0xff behind the test's back, which must fail it with that address. TAP
# lines as guest/tests.sh; the exact count is in memtest.sh (vm_expected).
set -u

# shellcheck source=/dev/null # written by memtest.sh: GUEST, IV_*
. /data/env

# shellcheck source=tap.sh
. /tap.sh

MARK="pfnmap-memtest-start-$$"
H=0x180000000		# 4 MiB hidden by memmap= (x86), beyond mem= (arm64)
pf() { pfnmap --module=/pfnmap.ko "$@"; }
hx() { printf '0x%x' "$1"; }

echo "# pfnmap memtest guest $GUEST: $(uname -r)"
echo "$MARK" > /dev/kmsg

IV=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1af4:0x1110 ] &&
		IV=$(sed -n 3p "$d/resource" | cut -d' ' -f1)
done
# memory decoding, which no firmware turns on for it on arm64
if [ -n "$IV" ] && pf -q -w 16 set 1af4:1110/config@0x4 0x2; then
	ok "ivshmem found, BAR2 at $(hx "$IV"), memory decoding on"
else
	notok "no ivshmem device (1af4:1110) in /sys/bus/pci/devices"
	tap_end
	exit 0
fi

# passes DESC TESTS [ERR-PATTERN] -- ARGS...: pfnmap ARGS, a memtest that
# must end "no failure in TESTS tests", its stderr matching ERR-PATTERN
# (none when empty)
passes() {
	local desc=$1 n=$2 pat=$3 rc
	shift 4
	pf "$@" > /tmp/out 2> /tmp/err
	rc=$?
	if [ $rc = 0 ] && grep -q "^memtest: no failure in $n tests of " /tmp/out &&
		{ [ -z "$pat" ] || grep -q "$pat" /tmp/err; }; then
		ok "$desc: $n tests pass"
	else
		notok "$desc: status $rc"
		indent /tmp/out /tmp/err
	fi
}

# the middle MiB of the hidden 4, the MiB on each side filled with 0xa5
pf -w 8 fill $H+4M 0xa5 || notok "filling the hidden memory"
passes "memtest on hidden memory above 4 GiB, 1 MiB, 32-bit" 19 "" -- \
	--seed=1 memtest "$(hx $((H + 0x100000)))+1M"
sums=$(pf sum $H+1M "$(hx $((H + 0x200000)))+1M" | cut -d' ' -f1 | tr '\n' ' ')
if [ "$sums" = "$CRC_A5 $CRC_A5 " ]; then
	ok "the MiB on each side still all 0xa5 (CRC-32 $CRC_A5, the host's zlib)"
else
	notok "the MiB on each side changed: CRC-32 $sums, want $CRC_A5 twice"
fi
# 32-bit ARM has no single 64-bit access to Device memory, which auto
# gives the hidden memory there: pfnmap refuses it, and write-back memory
# takes LDRD and STRD as memory does
wb64=
[ "$(uname -m)" = armv7l ] && wb64=--cache=wb
# shellcheck disable=SC2086 # $wb64: no option, or one
passes "memtest on hidden memory, 256 KiB, 64-bit" 19 "" -- \
	$wb64 -w 64 memtest "$(hx $((H + 0x300000)))+256K"
# the 8-bit write test is skipped at width 8
passes "memtest on hidden memory, 256 KiB, 8-bit" 17 "" -- \
	-w 8 memtest "$(hx $((H + 0x300000)))+256K"

for c in uc wc; do
	[ $c = uc ] && off=$IV_UC || off=$IV_WC
	passes "memtest on the ivshmem BAR with $c" 19 \
		"\(the kernel applied\|the helper requested\) $c\( (.*)\)\?: 32-bit loads and stores" -- \
		-v --cache=$c memtest "1af4:1110/bar2@$off+$((IV_SIZE / 1024))K"
done

# the host writes 0xff into the byte at IV_HIT all along
pf --seed=2 --loops=1000000 --max-errors=4 memtest \
	"1af4:1110/bar2@$IV_BAD+64K" > /tmp/out 2> /tmp/err
rc=$?
check "memtest while the host writes into the region: status 5" [ $rc = 5 ]
want=$(hx $((IV + IV_HIT)))
addrs=$(grep -E '^[a-z0-9-]+: 0x' /tmp/out | cut -d' ' -f2 | sort -u | tr '\n' ' ')
if [ "$addrs" = "$want " ]; then
	ok "every failure is at $want, the word the host wrote into"
else
	notok "failures at '$addrs', want $want"
	indent /tmp/out
fi
bits=0
for x in $(grep -E '^[a-z0-9-]+: 0x' /tmp/out | cut -d' ' -f5); do
	bits=$((bits | x))
done
if [ $bits != 0 ] && [ $((bits & ~0xff)) = 0 ] &&
	grep -q 'stuck at 1 or failing (read 1 where 0 was written)' /tmp/out; then
	ok "the bits that failed ($(hx $bits)) are within the byte written, reported stuck at 1"
else
	notok "failing bits $(hx $bits)"
	indent /tmp/out
fi

dmesg > /tmp/dmesg
sed -n "/$MARK/,\$p" /tmp/dmesg > /tmp/dmesg.new && mv /tmp/dmesg.new /tmp/dmesg
tap_health "$MARK"
tap_end
