# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2034 # FAKE_*: for the scripts that source it
#
# Sourced by the completion tests (bash-, zsh-, fish-completion.sh), which
# get the pfnmap binary: the completions ask it for the BARs
# (`pfnmap -M bars` with the command line's -A and -O), so what they offer
# comes from libpci reading the fake trees below.
#
# comp_need PROGRAM PACKAGE: fail unless PROGRAM is installed.
# comp_fixture PFNMAP: a scratch directory $tmp (removed on exit) with
# $tmp/sys, the fake sysfs tree below ($SYS: its bus/pci, for
# -O sysfs.path=$SYS); $tmp/other, a second tree with one device ($OTHER);
# $tmp/bin/pfnmap, PFNMAP, first in $PATH; $tmp/fake/pfnmap, a stand-in
# that prints FAKE_LINES and records its arguments in $tmp/fake/args;
# $tmp/home, with a link fake to $tmp/fake, for ~ as HOME=$tmp/home;
# $tmp/files with fw.bin, pfnmap.ko, notes.txt and sub/, for file
# completion.
# expect LINE WORDS...: what the shell offers for LINE (the caller's comp
# function) must be exactly WORDS; a difference sets fail=1.
# expect_quiet LINE: completing LINE writes nothing to standard error.
# comp_no_sysfs FILE: the completion FILE reads no sysfs itself.
#
# fake_sysfs ROOT makes ROOT/bus/pci/devices as the kernel lays it out, with
# the files libpci's linux-sysfs reads (vendor, device, class, irq, config,
# resource). Each resource file has the kernel's 13 lines: 6 BARs, the ROM,
# 6 IOV BARs, as "start end flags" (IORESOURCE_IO 0x100, _MEM 0x200,
# _PREFETCH 0x2000, _MEM_64 0x100000, _UNSET 0x20000000).
#
#   0000:00:04.0 1af4:1110  bar0 mem32, bar2 mem64 prefetchable (bar3 its
#                           upper half: zeros), bar4 I/O ports
#   0000:00:05.0 8086:100e  bar0 mem32, bar1 I/O ports, bar2 unassigned
#   0001:02:00.0 1af4:1110  bar0 mem32, ROM (not a BAR)
#   0000:00:1f.3 8086:2930  bar4 I/O ports only (`pfnmap bars` leaves it out)
# Memory BARs to offer: 0000:00:04.0/bar0 bar2, 0000:00:05.0/bar0,
# 0001:02:00.0/bar0, and the same without 0000: for domain 0.

fake_sysfs_dev()
{
	local dir=$1/bus/pci/devices/$2 i
	mkdir -p "$dir"
	printf '0x%s\n' "$3" >"$dir/vendor"
	printf '0x%s\n' "$4" >"$dir/device"
	printf '0x%s\n' "$5" >"$dir/class"
	echo 11 >"$dir/irq"
	head -c 256 /dev/zero >"$dir/config"
	shift 5
	for ((i = 0; i < 13; i++)); do
		printf '%s\n' "${1:-0x0000000000000000 0x0000000000000000 0x0000000000000000}"
		[ $# -gt 0 ] && shift
	done >"$dir/resource"
}

fake_sysfs()
{
	local z='0x0000000000000000 0x0000000000000000 0x0000000000000000'
	mkdir -p "$1/bus/pci/devices"
	fake_sysfs_dev "$1" 0000:00:04.0 1af4 1110 050000 \
		'0x00000000fe000000 0x00000000fe000fff 0x0000000000040200' "$z" \
		'0x0000000800000000 0x00000008000fffff 0x000000000014220c' "$z" \
		'0x000000000000c000 0x000000000000c03f 0x0000000000040101'
	fake_sysfs_dev "$1" 0000:00:05.0 8086 100e 020000 \
		'0x00000000febc0000 0x00000000febdffff 0x0000000000040200' \
		'0x000000000000c040 0x000000000000c07f 0x0000000000040101' \
		'0x0000000000000000 0x0000000000003fff 0x0000000020040200'
	fake_sysfs_dev "$1" 0001:02:00.0 1af4 1110 050000 \
		'0x00000000fc000000 0x00000000fc000fff 0x0000000000040200' \
		"$z" "$z" "$z" "$z" "$z" \
		'0x00000000fb000000 0x00000000fb0fffff 0x0000000000046200'
	fake_sysfs_dev "$1" 0000:00:1f.3 8086 2930 0c0500 "$z" "$z" "$z" "$z" \
		'0x000000000000c100 0x000000000000c11f 0x0000000000040101'
}

# The BARs and filters the completions must offer for that tree: the
# filters are the devices `pfnmap bars` lists, those with a memory BAR
FAKE_BARS='0000:00:04.0/bar0 0000:00:04.0/bar2 0000:00:05.0/bar0
0001:02:00.0/bar0 00:04.0/bar0 00:04.0/bar2 00:05.0/bar0
0000:00:04.0/config 0000:00:05.0/config 0001:02:00.0/config 00:04.0/config
00:05.0/config'
FAKE_DEVICES='0000:00:04.0 0000:00:05.0 0001:02:00.0 00:04.0 00:05.0
1af4:1110 8086:100e'

# What $tmp/fake/pfnmap prints for -M bars, as pfnmap(8) says pfnmap does,
# and what the completions make of it: memory BARs whose START is not 0
FAKE_LINES='0000:0a:00.0 abcd:0001 0200 bar0 0xe0000000 0x1000 32 non-prefetchable memory -
0000:0a:00.0 abcd:0001 0200 bar1 0xd000 0x20 - - io -
0000:0a:00.0 abcd:0001 0200 bar2 0x0 0x4000 32 non-prefetchable memory -
0000:0a:00.0 abcd:0001 0200 bar3 0x00000000 0x4000 32 non-prefetchable memory -
0002:0b:00.1 abcd:0002 0300 bar4 0x10000000000 0x100000 64 prefetchable memory somedrv'
FAKE_LINES_BARS='0000:0a:00.0/bar0 0a:00.0/bar0 0002:0b:00.1/bar4
0000:0a:00.0/config 0a:00.0/config 0002:0b:00.1/config'
FAKE_LINES_DEVICES='0000:0a:00.0 0a:00.0 0002:0b:00.1 abcd:0001 abcd:0002'

comp_need()
{
	if ! command -v "$1" >/dev/null; then
		echo "${0##*/}: no $1 (install $2)" >&2
		exit 1
	fi
}

comp_fixture()
{
	local pfnmap
	pfnmap=$(realpath -- "$1") || exit 1
	if [ ! -x "$pfnmap" ]; then
		echo "${0##*/}: $1 is no pfnmap binary" >&2
		exit 1
	fi
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # $tmp now
	trap "rm -rf '$tmp'" EXIT
	fake_sysfs "$tmp/sys"
	SYS=$tmp/sys/bus/pci
	OTHER=$tmp/other/bus/pci
	mkdir -p "$tmp/bin" "$tmp/fake" "$tmp/home"
	ln -s ../fake "$tmp/home/fake"
	ln -s "$pfnmap" "$tmp/bin/pfnmap"
	export PATH=$tmp/bin:$PATH
	cat >"$tmp/fake/pfnmap" <<FAKE
#!/bin/sh
printf '%s\n' "\$*" >>'$tmp/fake/args'
cat <<'EOF'
$FAKE_LINES
EOF
FAKE
	chmod +x "$tmp/fake/pfnmap"
	fake_sysfs_dev "$tmp/other" 0000:07:00.0 1234 11e8 00ff00 \
		'0x00000000fea00000 0x00000000feafffff 0x0000000000040200'
	mkdir -p "$tmp/files/sub"
	touch "$tmp/files/fw.bin" "$tmp/files/pfnmap.ko" "$tmp/files/notes.txt"
}

# The arguments $tmp/fake/pfnmap got, one run a line; and none after
fake_args()
{
	cat "$tmp/fake/args" 2>/dev/null
	rm -f "$tmp/fake/args"
}

# check_args WANT WHAT: the fake pfnmap was run with exactly WANT (one run
# a line), then forget them
check_args()
{
	local got

	got=$(fake_args)
	if [ "$got" = "$1" ]; then
		echo "ok   $2"
	else
		printf 'FAIL %s: pfnmap got:\n%s\n     not:\n%s\n' "$2" "$got" "$1"
		fail=1
	fi
}

comp_no_sysfs()
{
	local hits
	hits=$(grep -nE 'bus/pci|/devices|/resource([^N]|$)|/vendor|PFNMAP_SYSFS|0x200' "$1")
	if [ -z "$hits" ]; then
		echo "ok   ${1##*/} reads no sysfs: BARs come from pfnmap -M bars"
	else
		printf 'FAIL %s reads sysfs itself:\n%s\n' "${1##*/}" "$hits"
		fail=1
	fi
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

# The lines every shell completes alike (after `o`, the fake sysfs options,
# is set): set, clear and expect take their ADDR as write does; poll takes
# ADDR as write's, then MASK and VALUE, and the values of --timeout and
# --interval are not taken for the command
expect_addr_commands()
{
	local c

	for c in set clear expect; do
		expect "pfnmap $o $c " "$FAKE_BARS"
		expect "pfnmap $o $c 0x1000 "
	done
	expect "pfnmap $o poll " "$FAKE_BARS"
	expect "pfnmap $o --timeout 1s --interval 10ms poll " "$FAKE_BARS"
	expect "pfnmap $o poll 0x1000 "
	expect "pfnmap $o poll 0x1000 1 "
	expect 'pfnmap --timeout ' 100ms 10ms 10s 1ms 1s forever
	expect 'pfnmap --interval 1' 100ms 10ms 1ms 1s
}

expect_quiet()
{
	local err
	err=$(comp "$1" 2>&1 >/dev/null)
	if [ -z "$err" ]; then
		echo "ok   '$1' says nothing on stderr"
	else
		printf 'FAIL %s wrote to stderr:\n%s\n' "'$1'" "$err"
		fail=1
	fi
}

# comp_cases_typed PFNMAP: the cases that zsh and fish share (bash quotes
# and trims words its own way): the pfnmap typed on the command line, with
# its -A and -O, is the one asked; PFNMAP (this build's) typed by its path;
# none, or one that fails, offers nothing and says nothing. Needs the
# caller's expect, expect_quiet, check_args and $o.
comp_cases_typed()
{
	local want
	# the command typed, with the libpci options as typed, is what is asked
	expect "$tmp/fake/pfnmap -v -A dump -Odump.name=x.dump -O 'a.b=c d' dump " \
		"$FAKE_LINES_BARS"
	expect "$tmp/fake/pfnmap -o out -c wb bars " "$FAKE_LINES_DEVICES"
	want=$'-A dump -O dump.name=x.dump -O a.b=c d -M bars\n-M bars'
	check_args "$want" "pfnmap got the command line's -A and -O, then -M bars"
	# ~ as the shell expands it: a leading one, not one after NAME=
	# shellcheck disable=SC2088 # the ~ as typed
	HOME=$tmp/home expect "~/fake/pfnmap -O dump.name=~/x dump " "$FAKE_LINES_BARS"
	# shellcheck disable=SC2088 # the ~ as typed
	check_args "-O dump.name=~/x -M bars" \
		"~/fake/pfnmap is \$HOME/fake/pfnmap; -O gets dump.name=~/x"
	# PFNMAP (this build's) typed: not the one in $PATH
	PATH=${PATH#*:} expect "$(realpath -- "$1") $o dump 00:05" 00:05.0/bar0 00:05.0/config
	# pfnmap fails, or there is none: nothing, and silently
	expect "pfnmap -O sysfs.path=$tmp/files dump "
	expect_quiet "pfnmap -O sysfs.path=$tmp/files dump "
	expect "$tmp/nowhere/pfnmap $o dump "
	expect_quiet "$tmp/nowhere/pfnmap $o dump "
}
