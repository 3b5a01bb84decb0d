#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# /init of the pfnmap smoke initramfs (see run.sh): loads the helper, runs
# /smoke, checks module refcounting and kernel health, prints PASS/FAIL
# lines on the serial console and powers off.

/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }

echo "INFO: kernel $(uname -r) $(uname -m)"
echo "INFO: $(dmesg | grep -m1 'x86/PAT')"
grep -i -e 'reserved' -e 'system ram' /proc/iomem | sed -n '/18000/p' |
	sed 's/^/INFO: iomem /'

echo pfnmap-smoke-start > /dev/kmsg
taint0=$(cat /proc/sys/kernel/tainted)

if insmod /pfnmap.ko; then pass "insmod pfnmap.ko"; else fail "insmod pfnmap.ko"; fi

edu=0
ivshmem=0
for d in /sys/bus/pci/devices/*; do
	id="$(cat "$d"/vendor):$(cat "$d"/device)"
	case $id in
	0x1234:0x11e8) edu=$(sed -n 1p "$d"/resource | cut -d' ' -f1) ;;
	0x1af4:0x1110) ivshmem=$(sed -n 3p "$d"/resource | cut -d' ' -f1) ;;
	esac
done
echo "INFO: edu BAR0 $edu, ivshmem BAR2 $ivshmem"

/smoke run "$edu" "$ivshmem"
if [ -x /smoke32 ]; then
	echo "INFO: --- again as a 32-bit process (compat ioctl, mmap2) ---"
	/smoke32 run "$edu" "$ivshmem"
fi

# nothing left by the smoke run in the PAT memtype list
edu_pat=$edu
[ "$edu" = 0 ] && edu_pat=no-edu-device
if [ -r /sys/kernel/debug/x86/pat_memtype_list ]; then
	if grep -e "$edu_pat" -e 0x0000000180000000 \
		/sys/kernel/debug/x86/pat_memtype_list; then
		fail "PAT reservations left behind"
	else
		pass "no PAT reservation left for the hidden memory or edu BAR"
	fi
fi

# rmmod is refused while a file or a mapping lives
exec 3</dev/pfnmap
if rmmod pfnmap 2>/dev/null; then fail "rmmod with open fd"; else pass "rmmod refused with open fd"; fi
exec 3<&-
/smoke hold > /tmp/hold.out &
holder=$!
i=0
while ! grep -q HOLD-READY /tmp/hold.out && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if rmmod pfnmap 2>/dev/null; then fail "rmmod with live mapping"; else pass "rmmod refused with live mapping (fd closed)"; fi
kill $holder
wait $holder 2>/dev/null
if rmmod pfnmap; then pass "rmmod after last mapping gone"; else fail "rmmod"; fi

# kernel health since the marker
dmesg | sed -n '/pfnmap-smoke-start/,$p' | sed 's/^/DMESG: /'
if dmesg | sed -n '/pfnmap-smoke-start/,$p' |
	grep -q -e 'WARNING' -e 'BUG' -e 'Oops' -e 'Call Trace' \
		-e 'x86/PAT' -e 'conflicting memory types'; then
	fail "dmesg has warnings, PAT complaints or oopses"
else
	pass "dmesg clean (no WARNING/BUG/Oops/Call Trace/x86/PAT)"
fi
taint=$(cat /proc/sys/kernel/tainted)
if [ $((taint & ~(4096 | 8192))) -eq $((taint0 & ~(4096 | 8192))) ]; then
	pass "tainted $taint (only out-of-tree/unsigned bits added)"
else
	fail "tainted $taint0 -> $taint"
fi
echo SMOKE-DONE
poweroff -f
