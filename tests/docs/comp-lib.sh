# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034 # FAKE_*: for the scripts that source it
#
# Sourced by the completion tests (bash-, zsh-, fish-completion.sh).
#
# comp_need PROGRAM PACKAGE: fail unless PROGRAM is installed.
# comp_fixture: a scratch directory $tmp (removed on exit) with $tmp/sys,
# the fake sysfs tree below (PFNMAP_SYSFS points at it); $tmp/other, a second
# tree with one device (for -O sysfs.path=); $tmp/files with fw.bin,
# pfnmap.ko, notes.txt and sub/, for file completion.
# expect LINE WORDS...: what the shell offers for LINE (the caller's comp
# function) must be exactly WORDS; a difference sets fail=1.
#
# fake_sysfs ROOT makes ROOT/bus/pci/devices
# as the kernel lays it out, with the files the completions read (resource,
# vendor, device). Each resource file has the kernel's 13 lines: 6 BARs, the
# ROM, 6 IOV BARs, as "start end flags" (IORESOURCE_IO 0x100, _MEM 0x200,
# _PREFETCH 0x2000, _MEM_64 0x100000, _UNSET 0x20000000).
#
#   0000:00:04.0 1af4:1110  bar0 mem32, bar2 mem64 prefetchable (bar3 its
#                           upper half: zeros), bar4 I/O ports
#   0000:00:05.0 8086:100e  bar0 mem32, bar1 I/O ports, bar2 unassigned
#   0001:02:00.0 1af4:1110  bar0 mem32, ROM (not a BAR)
#   0000:00:1f.3 8086:2930  bar4 I/O ports only
# Memory BARs to offer: 0000:00:04.0/bar0 bar2, 0000:00:05.0/bar0,
# 0001:02:00.0/bar0, and the same without 0000: for domain 0.

fake_sysfs_dev()
{
	local dir=$1/bus/pci/devices/$2 i
	mkdir -p "$dir"
	printf '0x%s\n' "$3" >"$dir/vendor"
	printf '0x%s\n' "$4" >"$dir/device"
	shift 4
	for ((i = 0; i < 13; i++)); do
		printf '%s\n' "${1:-0x0000000000000000 0x0000000000000000 0x0000000000000000}"
		[ $# -gt 0 ] && shift
	done >"$dir/resource"
}

fake_sysfs()
{
	local z='0x0000000000000000 0x0000000000000000 0x0000000000000000'
	mkdir -p "$1/bus/pci/devices"
	fake_sysfs_dev "$1" 0000:00:04.0 1af4 1110 \
		'0x00000000fe000000 0x00000000fe000fff 0x0000000000040200' "$z" \
		'0x0000000800000000 0x00000008000fffff 0x000000000014220c' "$z" \
		'0x000000000000c000 0x000000000000c03f 0x0000000000040101'
	fake_sysfs_dev "$1" 0000:00:05.0 8086 100e \
		'0x00000000febc0000 0x00000000febdffff 0x0000000000040200' \
		'0x000000000000c040 0x000000000000c07f 0x0000000000040101' \
		'0x0000000000000000 0x0000000000003fff 0x0000000020040200'
	fake_sysfs_dev "$1" 0001:02:00.0 1af4 1110 \
		'0x00000000fc000000 0x00000000fc000fff 0x0000000000040200' \
		"$z" "$z" "$z" "$z" "$z" \
		'0x00000000fb000000 0x00000000fb0fffff 0x0000000000046200'
	fake_sysfs_dev "$1" 0000:00:1f.3 8086 2930 "$z" "$z" "$z" "$z" \
		'0x000000000000c100 0x000000000000c11f 0x0000000000040101'
}

# The BARs and filters the completions must offer for that tree
FAKE_BARS='0000:00:04.0/bar0 0000:00:04.0/bar2 0000:00:05.0/bar0
0001:02:00.0/bar0 00:04.0/bar0 00:04.0/bar2 00:05.0/bar0'
FAKE_DEVICES='0000:00:04.0 0000:00:05.0 0000:00:1f.3 0001:02:00.0 00:04.0
00:05.0 00:1f.3 1af4:1110 8086:100e 8086:2930'

comp_need()
{
	if ! command -v "$1" >/dev/null; then
		echo "${0##*/}: no $1 (install $2)" >&2
		exit 1
	fi
}

comp_fixture()
{
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # $tmp now
	trap "rm -rf '$tmp'" EXIT
	fake_sysfs "$tmp/sys"
	fake_sysfs_dev "$tmp/other" 0000:07:00.0 1234 11e8 \
		'0x00000000fea00000 0x00000000feafffff 0x0000000000040200'
	mkdir -p "$tmp/files/sub"
	touch "$tmp/files/fw.bin" "$tmp/files/pfnmap.ko" "$tmp/files/notes.txt"
	export PFNMAP_SYSFS=$tmp/sys
}

# sorted words on one line
comp_words()
{
	sed '/^$/d' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}

fail=0
expect()
{
	local line=$1 got want
	shift
	# shellcheck disable=SC2048,SC2086 # the words of all arguments
	want=$(printf '%s\n' $* | comp_words)
	got=$(comp "$line")
	if [ "$got" = "$want" ]; then
		echo "ok   '$line'"
	else
		printf 'FAIL %s\n     want: %s\n     got:  %s\n' "'$line'" \
			"$want" "$got"
		fail=1
	fi
}
