#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pfnmap against what a guest without it would use, in one QEMU guest
# (Debian's 6.1 amd64 kernel, TCG). TCG makes the absolute figures
# meaningless; the ratios in one run are what count.
#   batch (bench/guest/batch.sh): register access from scripts, `pfnmap
#	batch` against a shell loop of `busybox devmem` and one of `pfnmap
#	read`, on QEMU's edu device.
#   bulk (bench/guest/bulk.sh): `pfnmap dump`, `load` and `fill` for each
#	of --cache=wb, uc and wc against dd on /dev/mem, on hidden memory
#	inside System RAM (memmap=), hidden memory past its end (mem=) and
#	ivshmem's BAR2; edu's BAR0 dumped by pfnmap, dd and a `busybox devmem`
#	loop. Printed in bench/bench.sh's table format.
#
#   memtest (bench/guest/memtest.sh): memtester -p on hidden memory
#	(through /dev/mem, uncached) against `pfnmap memtest` with the same
#	tests and width, uncached and write-back.
#
#   bench/guest.sh [CLI]	(or bench/bench.sh --guest)
#
# Environment:
#   BENCH_GUEST		the parts to run: "batch bulk memtest" (all)
#   BENCH_BATCH_OPS	operations in each batch (100000)
#   BENCH_LOOP_OPS	processes in each shell loop (1000)
#   BENCH_BULK_MB	MiB in each bulk region (64); also the size of both
#			hidden ranges
#   BENCH_BULK_RUNS	runs of each bulk measurement, the best kept (3)
#   BENCH_REG_BYTES	bytes of edu's BAR0 read word by word (4096; a
#			multiple of 4096, for dd bs=4K)
#   BENCH_IVSHMEM_MB	ivshmem's backing file, BAR2's size (64: SeaBIOS puts
#			it below 4 GiB; 2048 puts it above System RAM)
#   BENCH_MEMTEST_MB	MiB that memtester and pfnmap memtest test (4; at
#			most BENCH_BULK_MB)
#   BENCH_TIMEOUT	seconds before QEMU is stopped (1800)
#   KEEP=1		keep the work directory (console.log)
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/../tests/vm/lib.sh"

cli=${1:-$vm_top/build/cli/pfnmap}
parts=${BENCH_GUEST:-batch bulk memtest}
mb=${BENCH_BULK_MB:-64}
iv_mb=${BENCH_IVSHMEM_MB:-64}
[ -x "$cli" ] || vm_die "no pfnmap at $cli; build it first"
case " $parts " in
*" batch "* | *" bulk "* | *" memtest "*) ;;
*) vm_die "BENCH_GUEST='$parts': name batch, bulk, memtest or more" ;;
esac
if [ "$mb" -lt 1 ] || [ "$mb" -gt 1024 ]; then
	vm_die "BENCH_BULK_MB=$mb: 1 to 1024 (MiB)"
fi
kver=$(vm_kernel 6.1-amd64) || exit 1
vm_check_host "$kver"
vm_workdir pfnmap-bench

# The guest's RAM ends at 8 GiB (-m 7G: 3 GiB below 4 GiB, 4 above);
# mem= takes its last $mb MiB away from the kernel, so that range lies
# above high_memory, where /dev/mem's read() and write() stop.
top=$((8192 - mb))
{
	printf 'BATCH_OPS=%s\nLOOP_OPS=%s\n' "${BENCH_BATCH_OPS:-100000}" \
		"${BENCH_LOOP_OPS:-1000}"
	printf 'BULK_MB=%s\nRUNS=%s\nREG_BYTES=%s\n' "$mb" \
		"${BENCH_BULK_RUNS:-3}" "${BENCH_REG_BYTES:-4096}"
	printf 'HIDDEN=0x180000000\nTOP=0x%x\n' $((top << 20))
	printf 'MEMTEST_MB=%s\n' "${BENCH_MEMTEST_MB:-4}"
} > "$work/env"
# /init runs /guest.sh: the parts asked for, one after the other
for p in batch bulk memtest; do
	case " $parts " in *" $p "*) echo "/bin/sh /bench/$p.sh" ;; esac
done > "$work/main.sh"
truncate -s "${iv_mb}M" "$shm"

vm_build_module "$kver" "$work" > /dev/null
vm_build_initrd "$kver" "$work" "$cli" "$work/main.sh" \
	"$work/env:data/env" "$here/guest/batch.sh:bench/batch.sh" \
	"$here/guest/bulk.sh:bench/bulk.sh" \
	"$here/guest/memtest.sh:bench/memtest.sh" \
	"$(command -v memtester || echo /usr/sbin/memtester):bin/memtester"
vm_qemu_start "$kver" "$work" "${BENCH_TIMEOUT:-1800}" \
	"console=ttyS0 quiet panic=-1 tsc=unstable memmap=${mb}M\$0x180000000 mem=${top}M" \
	-m 7G -smp 1 -device edu \
	-object "memory-backend-file,id=hm,mem-path=$shm,size=${iv_mb}M,share=on" \
	-device ivshmem-plain,memdev=hm
vm_qemu_end || vm_die "QEMU ended with status $?"
log=$work/console.log

failed=
case " $parts " in *" batch "*)
	if ! grep -q 'BENCH-END' "$log" || grep -q 'BENCH-FAIL' "$log"; then
		failed="batch"
	fi
esac
case " $parts " in *" bulk "*)
	if ! grep -q 'BULK-END' "$log" || grep -q 'BULK-FAIL' "$log"; then
		failed="$failed bulk"
	fi
esac
case " $parts " in *" memtest "*)
	grep -q 'MEMTEST-END' "$log" || failed="$failed memtest"
esac
if [ -n "$failed" ]; then
	grep -E 'BENCH|BULK|MEMTEST|pfnmap' "$log" >&2
	vm_die "the guest benchmark failed ($failed)"
fi

case " $parts " in *" batch "*)
echo "Register operations per second in a TCG guest ($kver), edu's BAR0:"
sed -n 's/^[0-9.]* BENCH \([a-z-]*\) \([0-9]*\) \([0-9.]*\)$/\1 \2 \3/p' \
	"$log" | awk '
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
esac

case " $parts " in *" memtest "*)
	echo
	echo "memtest: memtester's 18 tests, 64-bit, on hidden memory in a TCG guest ($kver); ratio = memtester time / pfnmap time"
	printf '  %-34s %11s %14s %9s\n' tool time throughput ratio
	sed -n 's/^[0-9.]* \(MEMTEST[A-Z-]*\) /\1 /p' "$log" | awk '
	$1 == "MEMTEST" { t[$2] = $4; b[$2] = $3 }
	$1 == "MEMTEST-NA" { tl = $2; $1 = $2 = ""; na[tl] = $0 }
	END {
		label["memtester"] = "memtester -p ADDR (/dev/mem, uc)"
		label["pfnmap-uc"] = "pfnmap -c uc -w 64 memtest"
		label["pfnmap-wb"] = "pfnmap -c wb -w 64 memtest"
		split("memtester pfnmap-uc pfnmap-wb", k, " ")
		for (i = 1; i <= 3; i++) {
			if (k[i] in na) {
				printf "  %-34s cannot:%s\n", label[k[i]], na[k[i]]
				continue
			}
			printf "  %-34s %9.3f s %9.1f MB/s", label[k[i]], t[k[i]], b[k[i]] / t[k[i]] / 1e6
			if (i > 1 && t[k[i]] > 0 && t["memtester"] > 0)
				printf " %8.1fx", t["memtester"] / t[k[i]]
			printf "\n"
		}
	}'
esac

case " $parts " in *" bulk "*) ;; *) exit 0 ;; esac
# The bulk table: a group per operation and region, dd's row (or why it
# could not) first, then pfnmap's for each cache type with the ratio
# dd time / pfnmap time: 1.0x or more is pfnmap at least as fast.
[ "$parts" = bulk ] || echo
sed -n 's/^[0-9.]* BULK-INFO //p' "$log" | sed 's/^/# /'
sed -n 's/^[0-9.]* \(BULK[A-Z-]*\) /\1 /p' "$log" | awk -v runs="${BENCH_BULK_RUNS:-3}" '
	# row NAME BYTES SECONDS RATIO: the row of bench.sh, RATIO 0 for none
	function row(n, b, t, r) {
		printf "  %-34s %9.3f s %9.1f MB/s", n, t, b / t / 1e6
		if (r > 0)
			printf " %8.1fx", r
		printf "\n"
	}
	function note(n, text) { printf "  %-34s %s\n", n, text }
	$1 == "BULK-REGION" {
		nreg++; reg[nreg] = $2; start[$2] = $3; size[$2] = $4
		$1 = $2 = $3 = $4 = ""; what[reg[nreg]] = substr($0, 5)
	}
	$1 == "BULK" { k = $2 " " $3 " " $4; t[k] = $6; b[k] = $5; ops[$2 " " $3] = 1 }
	$1 == "BULK-NA" || $1 == "BULK-BAD" {
		k = $2 " " $3 " " $4; ops[$2 " " $3] = 1
		line = $0; sub(/^[^ ]* [^ ]* [^ ]* [^ ]* /, "", line)
		if ($1 == "BULK-NA") na[k] = line; else bad[k] = line
	}
	END {
		print "Bulk throughput in a TCG guest: best of " runs " runs; ratio = dd (or devmem) time / pfnmap time"
		nop = split("floor load dump fill", op, " ")
		tool["load"] = "dd if=FILE of=/dev/mem bs=1M"
		tool["dump"] = "dd if=/dev/mem of=FILE bs=1M"
		tool["fill"] = "dd if=/dev/zero of=/dev/mem bs=1M"
		verb["load"] = "load FILE"; verb["dump"] = "dump -o FILE"; verb["fill"] = "fill 0"
		for (i = 1; i <= nreg; i++) {
			g = reg[i]
			for (j = 1; j <= nop; j++) {
				o = op[j]
				if (!((o " " g) in ops))
					continue
				sz = size[g] % 1048576 ? size[g] / 1024 "K" : size[g] / 1048576 "M"
				if (g == "tmpfs")
					printf "\nfloor: %s of %s, %s\n", sz, g, what[g]
				else
					printf "\n%s: %s %s+%s, %s\n", o, g, start[g], sz, what[g]
				printf "  %-34s %11s %14s %9s\n", "tool", "time", "throughput", "ratio"
				if (g == "tmpfs") {
					show(o, g, "read", "dd if=FILE of=/dev/null bs=1M", 0)
					show(o, g, "write", "dd if=FILE of=FILE2 bs=1M", 0)
					continue
				}
				if (g == "edu") {
					show(o, g, "pfnmap-auto", "pfnmap -w 32 dump -o FILE", 0)
					r = t[o " " g " pfnmap-auto"]
					show(o, g, "devmem", "busybox devmem ADDR 32, a loop", r)
					show(o, g, "dd", "dd if=/dev/mem of=FILE bs=4K", r)
					continue
				}
				show(o, g, "dd", tool[o], 0)
				for (c = 1; c <= 3; c++) {
					ct = substr("wbucwc", 2 * c - 1, 2)
					show(o, g, "pfnmap-" ct, "pfnmap -c " ct " -w 64 " verb[o], t[o " " g " dd"], 1)
				}
			}
		}
	}
	# show OP REGION TOOL LABEL REF IS_PFNMAP: a row, or why there is
	# none; the ratio is always tool time over pfnmap time: REF is the
	# tool time on a pfnmap row, the pfnmap time on a tool row
	function show(o, g, tl, label, ref, pfn,   k, r) {
		k = o " " g " " tl
		if (k in na) {
			note(label, "cannot: " na[k])
			return
		}
		if (!(k in t)) {
			note(label, "not run")
			return
		}
		r = 0
		if (ref > 0 && !(k in bad))
			r = pfn ? ref / t[k] : t[k] / ref
		row(label, b[k], t[k], r)
		if (k in bad)
			note("", "WRONG DATA: " bad[k])
	}'
