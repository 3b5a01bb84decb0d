# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by run.sh and by every tests/cli/ts/ script. The current directory
# is the test's own; `mem` is an 8 GiB sparse file. Numbers in the helpers
# below are anything bash arithmetic takes (0x hex or decimal).
set -u

read -r -a TS_RUNNER <<<"${PFNMAP_TEST_RUNNER:-}"

# The oracles need only python's standard library: Debian's interpreter
# starts in 30 ms, a version manager's shim in front of it (pyenv's) can
# take half a second, which tests that run python often pay many times
if [ -x /usr/bin/python3 ]; then
	python3() { /usr/bin/python3 "$@"; }
fi

# The binary under test, plain: output and exit code are the caller's
pfnmap()
{
	"${TS_RUNNER[@]}" "$PFNMAP" "$@"
}

# Run pfnmap ARGS and print the command, its stdout, its stderr (each line
# prefixed "stderr: ") and its exit code. Standard input is passed on.
ts_run()
{
	local rc d=.ts

	printf '$ pfnmap'
	[ $# = 0 ] || printf ' %q' "$@"
	printf '\n'
	pfnmap "$@" >"$d/out" 2>"$d/err"
	rc=$?
	cat -- "$d/out"
	if [ -s "$d/out" ] && [ "$(tail -c 1 -- "$d/out" | od -An -tx1)" != " 0a" ]
	then
		printf '\n(no newline at the end of stdout)\n'
	fi
	sed 's/^/stderr: /' -- "$d/err"
	echo "exit: $rc"
}

# ts_skip REASON: this test cannot run here
ts_skip()
{
	printf '%s\n' "$1" >"$TS_SKIPFILE"
	exit 77
}

# Tests that map offsets above 4 GiB, or check a SIGBUS address
ts_need_high()
{
	[ -z "${TS_NO_HIGH:-}" ] || ts_skip "$TS_NO_HIGH"
}

ts_need_sigbus_addr()
{
	[ -z "${TS_NO_SIGBUS_ADDR:-}" ] || ts_skip "$TS_NO_SIGBUS_ADDR"
}

# stdin -> FILE (default mem) at OFFSET, nothing else changed
ts_plant()
{
	dd of="${2:-mem}" bs=64K seek=$(($1)) oflag=seek_bytes conv=notrunc \
		status=none
}

# LEN bytes of FILE (default mem) at OFFSET -> stdout
ts_extract()
{
	dd if="${3:-mem}" bs=64K skip=$(($1)) count=$(($2)) \
		iflag=skip_bytes,count_bytes status=none
}

# LEN bytes of FILE (default mem) at OFFSET, in od's hex, with offsets
ts_od()
{
	echo "bytes $(printf '0x%x' $(($1)))+$(($2)):"
	od -Ax -tx1 -v -j $(($1)) -N $(($2)) -- "${3:-mem}"
}

# Bytes 0x00 to 0xff
ts_bytes256()
{
	local i

	for i in $(seq 0 255); do
		# shellcheck disable=SC2059
		printf "\\x$(printf %02x "$i")"
	done
}

# LEN bytes of text that differ from line to line
ts_text()
{
	seq -f 'line %06g of the planted text.' 1 1000000 | head -c $(($1))
}

# ts_same LABEL FILE1 FILE2: whether they are equal, in words
ts_same()
{
	if cmp -s -- "$2" "$3"; then
		echo "$1: same"
	else
		echo "$1: DIFFERENT"
		cmp -- "$2" "$3" 2>&1 | head -n 3
	fi
}

# hexdump REGION through pfnmap, shown, then compared with the oracle:
# util-linux `hexdump -C -s START -n LEN mem`
ts_hexdump()
{
	local region=$1 start=$2 len=$3

	shift 3
	ts_run -D mem "$@" hexdump "$region"
	pfnmap -D mem "$@" hexdump "$region" >.ts/mine 2>&1
	hexdump -C -s $((start)) -n $((len)) mem >.ts/oracle
	ts_same "hexdump -C -s $start -n $len" .ts/mine .ts/oracle
}

# dump REGION through pfnmap, compared with dd's copy of the same bytes
ts_dump()
{
	local region=$1 start=$2 len=$3

	shift 3
	ts_run -D mem "$@" -o .ts/dump dump "$region"
	ts_extract "$start" "$len" >.ts/dd
	ts_same "dd skip=$start count=$len" .ts/dump .ts/dd
	echo "size $(stat -c %s .ts/dump), md5 $(md5sum <.ts/dump | cut -c1-32)"
}

# ts_plant_marked START LEN SEED: a region that no misplaced window can
# copy or compare unnoticed, written without touching the rest of mem: the
# 8-byte address at every 4 KiB, and seeded random bytes in the first and
# last 8 KiB and 8 KiB either side of every 64 MiB boundary in it
ts_plant_marked()
{
	python3 - "$1" "$2" "$3" <<'PY'
import os, random, sys
start, n, seed = (int(v, 0) for v in sys.argv[1:4])
rnd, end, win = random.Random(seed), start + n, 64 << 20
fd = os.open("mem", os.O_WRONLY)
for a in range(start, end, 4096):
    os.pwrite(fd, a.to_bytes(8, "little"), a)
spans = [(start, start + 8192), (end - 8192, end)]
spans += [(b - 8192, b + 8192) for b in range(start // win * win + win, end, win)]
for lo, hi in spans:
    lo, hi = max(lo, start), min(hi, end)
    os.pwrite(fd, bytes(rnd.randrange(256) for _ in range(hi - lo)), lo)
os.close(fd)
PY
}

# ts_need_trace: ts_mmaps can trace here (an emulator that truncates
# offsets traces by itself)
ts_need_trace()
{
	[ -n "${TS_NO_HIGH:-}" ] || command -v strace >/dev/null ||
		ts_skip "no strace"
}

# ts_mmaps ARGS...: run pfnmap ARGS (stdout into .ts/out) with its system
# calls traced: strace natively, and in front of a runner that maps what it
# is asked (valgrind, qemu-aarch64); the emulator's own -strace under a
# qemu-user that truncates mmap offsets to 32 bits (TS_NO_HIGH), which
# shows them before it truncates them (but prints a 64-bit one truncated,
# so it is no oracle where the emulator maps right). Print its exit code
# and each mapping of the file "mem" it made, in order: "mmap
# OFFSET+LENGTH PROT". mmap2's offset counts 4096-byte units (i386, 32-bit
# ARM): shown in bytes.
ts_mmaps()
{
	case ${TS_RUNNER[0]:-}:${TS_NO_HIGH:-} in
	*qemu-*:?*)
		"${TS_RUNNER[@]}" -strace "$PFNMAP" "$@" >.ts/out 2>.ts/trace
		;;
	*)
		# LeakSanitizer cannot work under ptrace: it would fail the run
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=openat,close,mmap,mmap2 -e signal=none \
			-o .ts/trace "${TS_RUNNER[@]}" "$PFNMAP" "$@" >.ts/out 2>/dev/null
		;;
	esac
	echo "exit: $?"
	# NAME(ARG, ...) = RESULT, with or without spaces, a pid in front
	# under -f and qemu: the mappings of the fds open on "mem"
	tr -d ' ' <.ts/trace |
		sed -nE 's/^([0-9]+)?([a-z0-9]+)\((.*)\)=(.*)/\2,\3,\4/p' |
		awk -F, '$1 == "openat" && $3 == "\"mem\"" { mem[$NF] = 1 }
			 $1 == "close" { delete mem[$2] }
			 $1 ~ /^mmap2?$/ && $6 in mem { print }' |
		while IFS=, read -r call _ len prot _ _ off _; do
			[ "$call" = mmap2 ] && off=$((off * 4096))
			printf 'mmap %#x+%#x %s\n' $((off)) $((len)) "$prot"
		done
}

# ts_stored FILE OFFSET LEN CMD...: run CMD (a ts_run or ts_pci line) with
# FILE's mtime set back to an old time, then say whether CMD stored to FILE
# (a store moves the mtime, even of a value that does not change), the LEN
# bytes at OFFSET after it, and whether they changed
ts_stored()
{
	local f=$1 off=$2 len=$3 old='2001-02-03 04:05:06 UTC'

	shift 3
	ts_extract "$off" "$len" "$f" >.ts/before
	touch -d "$old" "$f"
	"$@"
	if [ "$(stat -c %Y "$f")" = "$(date -d "$old" +%s)" ]; then
		echo "mtime: kept (no store)"
	else
		echo "mtime: changed (stored)"
	fi
	ts_extract "$off" "$len" "$f" >.ts/after
	echo "bytes:$(od -An -tx1 .ts/after)," \
	     "$(cmp -s .ts/before .ts/after && echo same || echo changed)"
}
