#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fish-completion.sh COMPLETION_FILE PFNMAP
#
# The fish completion through `complete -C LINE` (what fish would offer with
# the cursor at the end of LINE), compared with what it must offer. PCI BARs
# come from PFNMAP -M bars (pfnmap in $PATH, or the command typed) reading
# a fake sysfs tree with the line's -O sysfs.path=DIR.
set -uo pipefail

comp_file=$(realpath -- "$1")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=comp-lib.sh
. "$here/comp-lib.sh"

comp_need fish fish
comp_fixture "$2"
comp_no_sysfs "$comp_file"
# a fish of its own: no user configuration, no other completions for pfnmap
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config
export XDG_DATA_HOME=$tmp/home/.local/share

# comp LINE: the candidates, without descriptions, sorted, on one line
comp()
{
	# shellcheck disable=SC2016 # fish's own variables
	fish --no-config -c 'source $argv[1]; complete -C $argv[2]' \
		"$comp_file" "$1" | cut -f1 | comp_words
}

commands='bars batch clear cmp copy dump expect fill hexdump info load memtest poll read set sum write'
expect 'pfnmap ' "$commands"
expect 'pfnmap -v ' "$commands"
expect 'pfnmap he' hexdump
expect 'pfnmap --wi' --width
expect 'pfnmap --no' --no-load --no-progress --not
expect 'pfnmap --ver' --verbose --version
expect 'pfnmap -w ' 8 16 32 64
expect 'pfnmap --width=' --width=8 --width=16 --width=32 --width=64
expect 'pfnmap -c ' auto uc wb wc
expect 'pfnmap --cache=w' --cache=wb --cache=wc
o="-O sysfs.path=$SYS"
expect "pfnmap $o dump " "$FAKE_BARS"
# -A and -O also glued to their values, in a cluster, after the command
expect "pfnmap -w 8 --cache uc read -Alinux-sysfs -qOsysfs.path=$SYS " \
	"$FAKE_BARS"
expect "pfnmap -Osysfs.path=$SYS hexdump 0001" 0001:02:00.0/bar0 \
	0001:02:00.0/config
expect "pfnmap $o info 00:0" 00:04.0/bar0 00:04.0/bar2 00:05.0/bar0 \
	00:04.0/config 00:05.0/config
expect "pfnmap $o load " "$FAKE_BARS"
expect "pfnmap $o fill " "$FAKE_BARS"
expect "pfnmap $o write " "$FAKE_BARS"
# the commands that take an ADDR as write does, and poll's options
expect_addr_commands
expect 'pfnmap --tim' --timeout
# memtest: its test names, a comma-separated list; its region
expect 'pfnmap --tests=walk' --tests=walking-ones --tests=walking-zeros
expect "pfnmap $o --tests xor --seed 1 memtest " "$FAKE_BARS"
expect "pfnmap $o fill 00:04.0/bar2 "
expect "pfnmap $o write 0x1000 "
expect "pfnmap $o dump 00:04.0/bar2 "
expect "pfnmap $o bars " "$FAKE_DEVICES"
expect "pfnmap $o bars 1af" 1af4:1110
expect "pfnmap $o bars 00:04.0 "
expect "pfnmap -A linux-sysfs -O sysfs.path=$OTHER dump " \
	0000:07:00.0/bar0 07:00.0/bar0 0000:07:00.0/config 07:00.0/config
comp_cases_typed "$2"
expect 'pfnmap -O sysfs.p' sysfs.path=
expect 'pfnmap -A linux-s' linux-sysfs
(
	cd "$tmp/files" || exit 1
	expect 'pfnmap load 0x1000 ' fw.bin notes.txt pfnmap.ko sub/
	expect 'pfnmap batch ' fw.bin notes.txt pfnmap.ko sub/
	expect 'pfnmap -o ' fw.bin notes.txt pfnmap.ko sub/
	expect 'pfnmap --output=n' --output=notes.txt
	expect 'pfnmap -D f' fw.bin
	# fish's way: the .ko files first (complete -k), then the others
	expect 'pfnmap -m ' fw.bin notes.txt pfnmap.ko sub/
	# shellcheck disable=SC2016 # fish's own variables
	first=$(fish --no-config -c 'source $argv[1]; complete -C "pfnmap -m "' \
		"$comp_file" | sed -n '1{s/\t.*//;p;}')	# not head: all read, no SIGPIPE
	if [ "$first" = pfnmap.ko ]; then
		echo "ok   'pfnmap -m ' offers pfnmap.ko first"
	else
		echo "FAIL 'pfnmap -m ' offers $first first, not pfnmap.ko"
		fail=1
	fi
	exit $fail
) || fail=1

exit $fail
