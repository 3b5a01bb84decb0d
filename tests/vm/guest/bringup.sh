#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# Scripted bring-up of QEMU's edu device from one `pfnmap batch` file, run
# by /init in the guest of tests/vm/bringup.sh: enable memory decoding and
# bus mastering in its config space, compute a factorial, DMA a pattern
# from hidden RAM A into the device and back out to hidden RAM B, then
# cmp and sum them. Every value is checked against busybox devmem and the
# device's sysfs config file; the pattern's CRC-32 comes from the host
# (zlib, in /data/env). TAP lines as guest/tests.sh; the exact number of
# checks is in bringup.sh (vm_expected).
set -u

# shellcheck source=/dev/null # written by bringup.sh: GUEST, HIDDEN, CRC...
. /data/env

# shellcheck source=tap.sh
. /tap.sh

MARK="pfnmap-bringup-start-$$"
A=$HIDDEN			# 2 KiB pattern, DMA source
B=$((HIDDEN + 0x1000))		# DMA destination
C=$((HIDDEN + 0x2000))		# never written by the DMA: zeros
D=$((HIDDEN + 0x3000))		# the bad batch's would-be write
N=2048				# QEMU 7.2's edu refuses a full 4 KiB DMA

hx() { printf '0x%x' "$1"; }
pf() { pfnmap --module=/pfnmap.ko "$@"; }
devmem32() { printf '0x%08x' "$(busybox devmem "$(hx "$1")" 32)"; }

echo "# pfnmap bringup guest $GUEST: $(uname -r)"
echo "$MARK" > /dev/kmsg

slot=
bar0=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1234:0x11e8 ]; then
		slot=${d##*/0000:}
		bar0=$(sed -n 1p "$d/resource" | cut -d' ' -f1)
		cfg=$d/config
	fi
done
if [ -n "$slot" ]; then
	ok "edu found at $slot, BAR0 at $(hx "$bar0")"
else
	notok "no edu device (1234:11e8) in /sys/bus/pci/devices"
	tap_end
	exit 0
fi

# pfnmap(4) SECURITY "Addresses and size": phys_bits is the CPU's
# physical address width (and no more than the process can name). The
# oracle: x86's /proc/cpuinfo "address sizes", which prints the very
# boot_cpu_data the kernel uses (a 32-bit kernel's vm_pgoff names 44 bits
# at most); ARM's from the host, which knows the CPU it gave QEMU
want_bits=${PHYS_BITS:-}
if [ -z "$want_bits" ]; then
	want_bits=$(sed -n 's/^address sizes[[:space:]]*: \([0-9]*\) bits physical.*/\1/p' /proc/cpuinfo | head -n1)
	[ "$(uname -m)" = x86_64 ] || [ "${want_bits:-0}" -le 44 ] || want_bits=44
fi
lim=$((1 << want_bits))
# the first command loads the helper
pf read "$(hx $lim)" > /tmp/out 2> /tmp/err
rc=$?
check "a read at 2^$want_bits is refused before any access (status $rc), in words" \
	grep -qxF "pfnmap: the helper refuses $(hx $lim)-$(hx $((lim + 3))): it ends beyond the $want_bits-bit physical addresses the helper can map (phys-bits in pfnmap info)" /tmp/err

pf info "$(hx "$A")+1" > /tmp/info 2>&1
check "pfnmap info: phys-bits $want_bits, the CPU's" \
	grep -q "^helper: abi 2, phys-bits $want_bits," /tmp/info

# command register bits before: Linux leaves bus mastering off
cmd0=$(od -An -tx2 -j4 -N2 "$cfg" | tr -d ' ')
diag "COMMAND register before the batch: 0x$cmd0"
# RAM B and D hold 0xff before, C zeros: the DMA and the batch must change
# exactly what they are asked to
pf -w 8 fill "$(hx "$B")+4K" 0xff && pf fill "$(hx "$C")+4K" 0 &&
	pf fill "$(hx "$D")+16" 0x5a5a5a5a ||
	notok "preparing hidden RAM"

# edu's DMA address registers are 64 bits wide: RAM A is above 4 GiB on
# arm64; 32-bit ARM has no single 64-bit access (pfnmap refuses one), and
# its hidden RAM lies below 4 GiB, where the lower half is the address
W=64
[ "$(uname -m)" = armv7l ] && W=32
cat > /tmp/edu.batch <<EOF
# QEMU edu bring-up, one process
-w 16 set $slot/config@0x4 0x6		# memory decoding, bus mastering
-w 16 expect $slot/config@0x4 0x6:0x6

write $slot/bar0@0x8 10			# factorial of 10
poll --timeout=1s $slot/bar0@0x20 0x1 0	# status: busy bit clears
expect $slot/bar0@0x8 0x375f00

load $(hx "$A")+$N /data/pattern	# the pattern into RAM A
-w $W write $slot/bar0@0x80 $(hx "$A")	# DMA RAM A -> device buffer
-w $W write $slot/bar0@0x88 0x40000
write $slot/bar0@0x90 $N
write $slot/bar0@0x98 1
poll --timeout=5s $slot/bar0@0x98 0x1 0
-w $W write $slot/bar0@0x80 0x40000	# DMA device buffer -> RAM B
-w $W write $slot/bar0@0x88 $(hx "$B")
write $slot/bar0@0x90 $N
write $slot/bar0@0x98 3
poll --timeout=5s $slot/bar0@0x98 0x1 0
cmp $(hx "$A")+$N $(hx "$B")+$N
sum $(hx "$A")+$N $(hx "$B")+$N
EOF

pf batch /tmp/edu.batch > /tmp/out 2> /tmp/err
rc=$?
if [ $rc = 0 ] && [ ! -s /tmp/err ]; then
	ok "the edu bring-up batch ran: status 0, nothing on stderr"
else
	notok "the edu bring-up batch: status $rc"
	indent /tmp/err
fi
diag "its output:"
indent /tmp/out

want_sum="$CRC  $(hx "$A")+$N
$CRC  $(hx "$B")+$N"
got_sum=$(tail -n 2 /tmp/out)
if [ "$got_sum" = "$want_sum" ]; then
	ok "sum A B: both $CRC, zlib's crc32 of the pattern on the host"
else
	notok "sum A B: got '$got_sum', want '$want_sum'"
fi

cmd1=$(od -An -tx2 -j4 -N2 "$cfg" | tr -d ' ')
if [ $((0x$cmd1 & 0x6)) = 6 ] && [ $((0x$cmd1 & ~0x6)) = $((0x$cmd0 & ~0x6)) ]; then
	ok "sysfs config: COMMAND 0x$cmd0 -> 0x$cmd1, bits 0x6 set, no other bit changed"
else
	notok "sysfs config: COMMAND 0x$cmd0 -> 0x$cmd1"
fi

got=$(devmem32 $((bar0 + 8)))
check "devmem: factorial register reads 0x00375f00 ($got)" \
	[ "$got" = 0x00375f00 ]

# RAM B: the pattern, word by word from devmem, and nothing after it
pf dump "$(hx "$B")+$N" > /tmp/b.bin
check "dump of RAM B equals the pattern (cmp)" cmp /tmp/b.bin /data/pattern
w_first=$(od -An -tx4 -N4 /data/pattern | tr -d ' ')
w_last=$(od -An -tx4 -j$((N - 4)) -N4 /data/pattern | tr -d ' ')
check "devmem: RAM B's first and last words are the pattern's" \
	test "$(devmem32 "$B")" = "0x$w_first" -a \
	"$(devmem32 $((B + N - 4)))" = "0x$w_last"
check "devmem: the word after the DMA in RAM B is still 0xffffffff" \
	[ "$(devmem32 $((B + N)))" = 0xffffffff ]

# cmp against memory the DMA never wrote: status 5, the differences listed
pf cmp "$(hx "$A")+$N" "$(hx "$C")+$N" > /tmp/out 2> /tmp/err
rc=$?
lines=$(grep -c '^0x' /tmp/out)
first=$(sed -n 1p /tmp/out)
want_first="$(hx "$A") 0x$w_first 0x00000000 0x$w_first"
if [ $rc = 5 ] && [ "$lines" = 10 ] && [ "$first" = "$want_first" ] &&
	grep -q "^$NDIFF of $((N / 4)) " /tmp/out; then
	ok "cmp A C: status 5, 10 differences listed, $NDIFF of $((N / 4)) elements differ"
else
	notok "cmp A C: status $rc, $lines lines, first '$first' (want '$want_first')"
	indent /tmp/out /tmp/err
fi

# a poll on a bit that never changes: edu's ID register bit 0 is 1
t0=$(cut -d' ' -f1 /proc/uptime)
pf poll --timeout=300ms "$slot/bar0@0x0" 0x1 0 > /tmp/out 2> /tmp/err
rc=$?
t1=$(cut -d' ' -f1 /proc/uptime)
ms=$(( (${t1%.*}${t1#*.} - ${t0%.*}${t0#*.}) * 10 ))
if [ $rc = 5 ] && [ "$(cat /tmp/out)" = 0x010000ed ] && [ $ms -ge 300 ] &&
	grep -q '^pfnmap: poll: .*timed out' /tmp/err; then
	ok "poll on a bit that never clears: status 5 after $ms ms (timeout 300 ms), last value 0x010000ed"
else
	notok "poll timeout: status $rc after $ms ms, stdout '$(cat /tmp/out)'"
	indent /tmp/err
fi

# a batch with a bad line 3 runs nothing: line 1's write does not happen
printf 'write %s 0x11223344\nread %s\nwrite %s 0x1:0x1:0x1\n' \
	"$(hx "$D")" "$(hx "$D")" "$(hx "$D")" > /tmp/bad.batch
pf batch /tmp/bad.batch > /tmp/out 2> /tmp/err
rc=$?
if [ $rc = 64 ] && [ ! -s /tmp/out ] &&
	grep -q '^pfnmap: /tmp/bad.batch:3: ' /tmp/err &&
	[ "$(devmem32 "$D")" = 0x5a5a5a5a ]; then
	ok "batch with a bad line 3: status 64, message names /tmp/bad.batch:3:, line 1's write not done (devmem)"
else
	notok "bad batch: status $rc, word at D $(devmem32 "$D")"
	indent /tmp/out /tmp/err
fi

dmesg > /tmp/dmesg
sed -n "/$MARK/,\$p" /tmp/dmesg > /tmp/dmesg.new && mv /tmp/dmesg.new /tmp/dmesg
tap_health "$MARK"
tap_end
