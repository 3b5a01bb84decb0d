#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# man-lint.sh mandoc|groff PAGE
#     `mandoc -Tlint -Wstyle PAGE` or `groff -mandoc -ww -z PAGE` must print
#     nothing and succeed.
# man-lint.sh selftest
#     both must complain about a page with known faults.
#
# mandoc checks each .Xr against the manual pages it can find, which makes
# its verdict depend on what the machine has installed. It runs here on a
# manual tree of its own instead (-M, indexed by makewhatis): the pages of
# man/ and a stub for each page of other projects in EXTERNAL below. An .Xr
# to anything else fails; add real references to EXTERNAL.
set -uo pipefail

EXTERNAL='hexdump.1 execve.2 fork.2 ioctl.2 mmap.2 mmap2.2 mprotect.2
mremap.2 munmap.2 open.2 personality.2 ptrace.2 read.2 write.2 mem.4
modprobe.d.5
modules-load.d.5 kernel_lockdown.7 udev.7 dkms.8 lspci.8 modprobe.8
setpci.8'

here=$(cd "$(dirname "$0")" && pwd)
mandir=$(cd "$here/../../man" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for t in mandoc makewhatis groff; do
	if ! command -v $t >/dev/null; then
		echo "man-lint.sh: no $t (install mandoc and groff)" >&2
		exit 1
	fi
done

# The manual tree: man/*.N, and stubs
for p in "$mandir"/*.[0-9] $EXTERNAL; do
	name=$(basename "$p")
	sec=${name##*.}
	mkdir -p "$tmp/man/man$sec"
	if [ -f "$p" ]; then
		cp "$p" "$tmp/man/man$sec/"
	else
		printf '.Dd January 1, 2025\n.Dt %s %s\n.Os\n.Sh NAME\n.Nm %s\n.Nd stub\n' \
			"${name%.*}" "$sec" "${name%.*}" >"$tmp/man/man$sec/$name"
	fi
done
makewhatis "$tmp/man" || exit 1

# lint TOOL PAGE: what the tool says about PAGE, on stdout; fails if it does
lint()
{
	case $1 in
	mandoc) mandoc -M "$tmp/man" -Tlint -Wstyle "$2" 2>&1 ;;
	groff) groff -mandoc -ww -z "$2" 2>&1 ;;
	*) echo "man-lint.sh: no tool $1" >&2; return 2 ;;
	esac
}

if [ "$1" = selftest ]; then
	# a blank line, a trailing blank, an unknown macro, a bad .Xr
	printf '%s\n' '.Dd January 1, 2025' '.Dt BAD 8' '.Os' '.Sh NAME' \
		'.Nm bad' '.Nd bad page' '.Sh DESCRIPTION' 'Text. ' '' \
		'.Xx unknown' '.Sh SEE ALSO' '.Xr no-such-page 8' >"$tmp/bad.8"
	fail=0
	for tool in mandoc groff; do
		if out=$(lint $tool "$tmp/bad.8") && [ -z "$out" ]; then
			echo "FAIL $tool finds nothing wrong with a bad page"
			fail=1
		else
			echo "ok   $tool complains:"
			printf '%s\n' "$out" | sed 's/^/       /'
		fi
	done
	out=$(lint mandoc "$tmp/bad.8")
	# not `printf | grep -q` under pipefail: grep may leave printf a SIGPIPE
	if ! grep -q 'Xr no-such-page 8' <<<"$out"; then
		echo "FAIL mandoc does not check .Xr against the manual tree"
		fail=1
	fi
	exit $fail
fi

tool=$1
page=$2
out=$(lint "$tool" "$page")
rc=$?
if [ $rc != 0 ] || [ -n "$out" ]; then
	printf '%s\n' "$out"
	echo "FAIL $tool: $(basename "$page") (exit $rc)"
	exit 1
fi
echo "ok   $tool: $(basename "$page")"
