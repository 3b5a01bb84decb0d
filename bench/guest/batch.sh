#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# Run by /init in the guest of bench/guest.sh: operations per second on
# QEMU's edu device, reading its identification register (BAR0 + 0) and
# read-modify-writing its liveness register (BAR0 + 4), through
#   pfnmap batch      one process for all operations
#   busybox devmem    one process per operation (a shell loop)
#   pfnmap read       one process per operation (a shell loop)
# Times from /proc/uptime (10 ms steps: each measurement runs for seconds).
# Prints "BENCH name ops seconds" lines, then BENCH-END.
set -u
. /data/env	# BATCH_OPS, LOOP_OPS

pf() { pfnmap --module=/pfnmap.ko "$@"; }
now() { cut -d' ' -f1 /proc/uptime; }
# secs T0 T1: T1 - T0, both "S.CC"
secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'
}

for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1234:0x11e8 ]; then
		slot=${d##*/0000:}
		bar0=$(sed -n 1p "$d/resource" | cut -d' ' -f1)
	fi
done
id=$(printf '0x%x' "$bar0")
pf -w 16 set "$slot/config@0x4" 0x2 || echo "BENCH-FAIL enabling memory decoding"

awk -v n="$BATCH_OPS" -v s="$slot" \
	'BEGIN { for (i = 0; i < n; i++) print "read " s "/bar0@0x0" }' \
	> /tmp/reads.batch
awk -v n="$BATCH_OPS" -v s="$slot" \
	'BEGIN { for (i = 0; i < n; i++) print "set " s "/bar0@0x4 0x1" }' \
	> /tmp/rmw.batch

t0=$(now)
pf batch /tmp/reads.batch > /tmp/out || echo "BENCH-FAIL batch reads"
t1=$(now)
[ "$(sort -u /tmp/out)" = 0x010000ed ] || echo "BENCH-FAIL batch read values"
echo "BENCH batch-read $BATCH_OPS $(secs "$t0" "$t1")"

t0=$(now)
pf batch /tmp/rmw.batch || echo "BENCH-FAIL batch rmw"
t1=$(now)
echo "BENCH batch-rmw $BATCH_OPS $(secs "$t0" "$t1")"

t0=$(now)
i=0
while [ $i -lt "$LOOP_OPS" ]; do
	busybox devmem "$id" 32 > /dev/null
	i=$((i + 1))
done
t1=$(now)
echo "BENCH devmem-read $LOOP_OPS $(secs "$t0" "$t1")"

t0=$(now)
i=0
while [ $i -lt "$LOOP_OPS" ]; do
	pf read "$slot/bar0@0x0" > /dev/null
	i=$((i + 1))
done
t1=$(now)
echo "BENCH pfnmap-read $LOOP_OPS $(secs "$t0" "$t1")"
echo BENCH-END
