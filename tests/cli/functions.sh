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
