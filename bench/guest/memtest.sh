#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash
#
# Run by /init in the guest of bench/guest.sh: memtester's physical-address
# mode (`memtester -p ADDR SIZE 1`, /dev/mem opened O_SYNC: uncached)
# against `pfnmap memtest` with memtester's 18 tests at its width (64 bits)
# on the same hidden memory, uncached and write-back. Prints
#   MEMTEST TOOL BYTES SECONDS     (MEMTEST-NA TOOL MESSAGE when it failed)
# then MEMTEST-END.
set -u
. /data/env	# MEMTEST_MB HIDDEN

pf() { pfnmap --module=/pfnmap.ko "$@"; }
now() {
	sed -n '/^now at /{s/^now at \([0-9]*\) nsecs$/\1/p;q}' /proc/timer_list
}
set_=stuck-address,random,xor,sub,mul,div,or,and,seqinc,solid-bits,block-seq
set_=$set_,checkerboard,bit-spread,bit-flip,walking-ones,walking-zeros
set_=$set_,8bit-writes,16bit-writes
bytes=$((MEMTEST_MB << 20))
addr=$(printf '0x%x' "$HIDDEN")

# timed TOOL CMD...: one run of CMD (these take tens of seconds under TCG)
timed() {
	local tool=$1 t0 t1
	shift
	t0=$(now)
	if "$@" > /tmp/mt.out 2>&1; then
		t1=$(now)
		echo "MEMTEST $tool $bytes $(awk -v n=$((t1 - t0)) 'BEGIN { printf "%.3f", n / 1e9 }')"
	else
		echo "MEMTEST-NA $tool $(tail -n 3 /tmp/mt.out | tr '\n' ' ')"
	fi
}

timed memtester memtester -p "$addr" "${MEMTEST_MB}M" 1
timed pfnmap-uc pf --cache=uc -w 64 --tests=$set_ memtest "$addr+${MEMTEST_MB}M"
timed pfnmap-wb pf --cache=wb -w 64 --tests=$set_ memtest "$addr+${MEMTEST_MB}M"
echo MEMTEST-END
