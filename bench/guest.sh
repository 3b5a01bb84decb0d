#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Register access from scripts, in a QEMU guest (Debian's 6.1 amd64 kernel,
# TCG): `pfnmap batch` against a shell loop of `busybox devmem` and one of
# `pfnmap read`, on QEMU's edu device (bench/guest/batch.sh). TCG makes the
# absolute figures meaningless; the ratios in one run are what count.
#
#   bench/guest.sh [CLI]
#
# Environment: BENCH_BATCH_OPS (100000) operations in each batch,
# BENCH_LOOP_OPS (1000) processes in each loop.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/../tests/vm/lib.sh"

cli=${1:-$vm_top/build/cli/pfnmap}
[ -x "$cli" ] || vm_die "no pfnmap at $cli; build it first"
kver=$(vm_kernel 6.1-amd64) || exit 1
vm_check_host "$kver"
vm_workdir pfnmap-bench

printf 'BATCH_OPS=%s\nLOOP_OPS=%s\n' "${BENCH_BATCH_OPS:-100000}" \
	"${BENCH_LOOP_OPS:-1000}" > "$work/env"
vm_build_module "$kver" "$work" > /dev/null
vm_build_initrd "$kver" "$work" "$cli" "$here/guest/batch.sh" \
	"$work/env:data/env"
vm_qemu_start "$kver" "$work" 900 'console=ttyS0 quiet panic=-1 tsc=unstable' \
	-m 1G -smp 1 -device edu
vm_qemu_end || vm_die "QEMU ended with status $?"

grep -q 'BENCH-END' "$work/console.log" && ! grep -q 'BENCH-FAIL' "$work/console.log" || {
	grep -E 'BENCH|pfnmap' "$work/console.log" >&2
	vm_die "the guest benchmark failed"
}
echo "Register operations per second in a TCG guest ($kver), edu's BAR0:"
sed -n 's/^[0-9.]* BENCH \([a-z-]*\) \([0-9]*\) \([0-9.]*\)$/\1 \2 \3/p' \
	"$work/console.log" | awk '
	{ ops[$1] = $2 / ($3 > 0 ? $3 : 0.01); n[$1] = $2; t[$1] = $3 }
	END {
		printf "  %-12s %9s %8s %12s\n", "method", "ops", "seconds", "ops/s"
		split("batch-read batch-rmw devmem-read pfnmap-read", k, " ")
		for (i = 1; i <= 4; i++)
			printf "  %-12s %9d %8.2f %12.0f\n", k[i], n[k[i]], t[k[i]], ops[k[i]]
		printf "  batch reads vs busybox devmem loop: %.0fx\n", ops["batch-read"] / ops["devmem-read"]
		printf "  batch reads vs pfnmap read loop:    %.0fx\n", ops["batch-read"] / ops["pfnmap-read"]
		printf "  batch read-modify-writes vs pfnmap read loop: %.0fx\n", ops["batch-rmw"] / ops["pfnmap-read"]
	}'
