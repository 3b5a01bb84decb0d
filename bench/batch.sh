#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Operations per second of `pfnmap batch` against a shell loop that runs
# one pfnmap process per access, on a sparse --device file, as ratios:
#   read:  BENCH_OPS (100000) lines `read 0x1000` in one batch
#   rmw:   BENCH_OPS lines `set 0x1000 0x1` (one read, one write each)
#   loop:  BENCH_LOOP (1000) processes `pfnmap read 0x1000` (or set)
# Each time is the best of BENCH_RUNS (3) wall-clock runs. The goal of
# issue 11 is a ratio of at least 1000. In a guest, BENCH_DEVMEM=ADDR adds
# a `busybox devmem ADDR` loop of BENCH_LOOP reads (no --device: /dev/mem).
#
# Environment:
#   PFNMAP	the CLI (default ./build/cli/pfnmap)
#   BENCH_DIR	where the files go (/dev/shm)
set -u
export LC_ALL=C

pfnmap=${PFNMAP:-./build/cli/pfnmap}
ops=${BENCH_OPS:-100000}
loop=${BENCH_LOOP:-1000}
runs=${BENCH_RUNS:-3}

[ -x "$pfnmap" ] || { echo "no $pfnmap"; exit 2; }
tmp=$(mktemp -d "${BENCH_DIR:-/dev/shm}/pfnmap-batch.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
truncate -s 1M "$tmp/mem"

# Seconds of the fastest of $runs runs of "$@", stdout discarded
best() {
	local i t0 t1 best=

	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s.%N)
		"$@" >/dev/null || { echo "FAILED: $*" >&2; echo 0; return; }
		t1=$(date +%s.%N)
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" \
			'BEGIN { t = b - a; print (m == "" || t < m) ? t : m }')
	done
	echo "$best"
}

# The one-process-per-access loop: $loop runs of pfnmap ARGS
one_each() {
	local i

	for ((i = 0; i < loop; i++)); do
		"$pfnmap" "$@" || return
	done
}

devmem_each() {
	local i

	for ((i = 0; i < loop; i++)); do
		busybox devmem "$1" || return
	done
}

# row NAME OPS SECONDS [REF_OPS REF_SECONDS]: ops/s, and the ratio to REF
row() {
	awk -v n="$1" -v o="$2" -v t="$3" -v ro="${4:-0}" -v rt="${5:-0}" 'BEGIN {
		if (t <= 0) { printf "  %-40s %10s\n", n, "failed"; exit }
		printf "  %-40s %8d ops %8.3f s %12.0f ops/s", n, o, t, o / t
		if (ro > 0 && rt > 0)
			printf " %8.0fx", (o / t) / (ro / rt)
		printf "\n"
	}'
}

yes 'read 0x1000' | head -n "$ops" >"$tmp/reads"
yes 'set 0x1000 0x1' | head -n "$ops" >"$tmp/rmw"

echo "pfnmap batch against one process per access (best of $runs):"
t_loop=$(best one_each -D "$tmp/mem" read 0x1000)
row "shell loop: pfnmap read" "$loop" "$t_loop"
t=$(best "$pfnmap" -D "$tmp/mem" batch "$tmp/reads")
row "batch: read (ratio to the loop)" "$ops" "$t" "$loop" "$t_loop"
t_loop=$(best one_each -D "$tmp/mem" set 0x1000 0x1)
row "shell loop: pfnmap set" "$loop" "$t_loop"
t=$(best "$pfnmap" -D "$tmp/mem" batch "$tmp/rmw")
row "batch: set (ratio to the loop)" "$ops" "$t" "$loop" "$t_loop"
if [ -n "${BENCH_DEVMEM:-}" ]; then
	t_loop=$(best devmem_each "$BENCH_DEVMEM")
	row "shell loop: busybox devmem" "$loop" "$t_loop"
	sed "s/0x1000/$BENCH_DEVMEM/" "$tmp/reads" >"$tmp/reads-mem"
	t=$(best "$pfnmap" batch "$tmp/reads-mem")
	row "batch: read (ratio to devmem)" "$ops" "$t" "$loop" "$t_loop"
fi
