#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bash-completion.sh COMPLETION_FILE PFNMAP [BASH_COMPLETION_SCRIPT]
#
# The bash completion, as git's completion tests do it: set COMP_WORDS,
# COMP_CWORD, COMP_LINE and COMP_POINT as readline would for a command line,
# call _pfnmap and compare COMPREPLY with what it must be. PCI BARs come
# from PFNMAP -M bars (pfnmap in $PATH, or the command typed) reading a fake
# sysfs tree with the line's -O sysfs.path=DIR.
set -uo pipefail

comp_file=$(realpath -- "$1")
bc=${3:-/usr/share/bash-completion/bash_completion}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=comp-lib.sh
. "$here/comp-lib.sh"

if [ ! -r "$bc" ]; then
	echo "bash-completion.sh: $bc missing (install bash-completion)" >&2
	exit 1
fi
comp_fixture "$2"
comp_no_sysfs "$comp_file"

# shellcheck disable=SC1090
. "$bc"
# shellcheck disable=SC1090
. "$comp_file"
# compopt works only while readline completes; record what is asked for
# shellcheck disable=SC2317 # called by the completion
compopt() { comp_opts+=" $*"; }

# comp LINE: COMPREPLY for the cursor at the end of LINE, sorted, one line.
# Readline splits words at blanks and at COMP_WORDBREAKS, of which ':' and
# '=' matter here: "00:04" is the words "00" ":" "04".
comp()
{
	local line=$1 w
	local -a words=()
	for w in $line; do
		while [[ $w =~ ^([^:=]*)([:=]+)(.*)$ ]]; do
			[ -n "${BASH_REMATCH[1]}" ] && words+=("${BASH_REMATCH[1]}")
			words+=("${BASH_REMATCH[2]}")
			w=${BASH_REMATCH[3]}
		done
		[ -n "$w" ] && words+=("$w")
	done
	[[ $line == *' ' ]] && words+=("")
	COMP_WORDS=("${words[@]}")
	COMP_CWORD=$((${#words[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	comp_opts=
	_pfnmap
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | comp_words
}

commands='bars batch clear cmp copy dump expect fill hexdump info load memtest poll read set sum write'
expect 'pfnmap ' "$commands"
expect 'pfnmap -v ' "$commands"
expect 'pfnmap he' hexdump
expect 'pfnmap --wi' --width=
expect 'pfnmap --no' --no-load --no-progress --not
expect 'pfnmap --ver' --verbose --version
expect 'pfnmap -w ' 8 16 32 64
expect 'pfnmap --width=' 8 16 32 64
expect 'pfnmap --width=1' 16
expect 'pfnmap -c ' auto uc wb wc
expect 'pfnmap --cache=w' wb wc
o="-O sysfs.path=$SYS"
expect "pfnmap $o dump " "$FAKE_BARS"
# -A and -O also glued to their values, in a cluster, after the command
expect "pfnmap -w 8 --cache uc read -Alinux-sysfs -qOsysfs.path=$SYS " \
	"$FAKE_BARS"
expect "pfnmap -Osysfs.path=$SYS hexdump 0001" 0001:02:00.0/bar0 \
	0001:02:00.0/config
expect "pfnmap $o hexdump 0000:00:04.0/bar" 04.0/bar0 04.0/bar2
# after the last ':' only, as __ltrim_colon_completions leaves it for bash
expect "pfnmap $o info 00:0" 04.0/bar0 04.0/bar2 05.0/bar0 \
	04.0/config 05.0/config
expect "pfnmap $o load " "$FAKE_BARS"
expect "pfnmap $o fill " "$FAKE_BARS"
expect "pfnmap $o write " "$FAKE_BARS"
# the commands that take an ADDR as write does, and poll's options
expect_addr_commands
expect 'pfnmap --tim' --timeout=
# memtest: its test names, a comma-separated list; its region
expect 'pfnmap --tests=walk' walking-ones walking-zeros
expect 'pfnmap --tests=xor,walk' xor,walking-ones xor,walking-zeros
expect "pfnmap $o --tests xor --seed 1 memtest " "$FAKE_BARS"
expect "pfnmap $o fill 00:04.0/bar2 "
expect "pfnmap $o write 0x1000 "
expect "pfnmap $o dump 00:04.0/bar2 "
expect "pfnmap $o bars " "$FAKE_DEVICES"
expect "pfnmap $o bars 1af" 1af4:1110
expect "pfnmap $o bars 00:04.0 "
expect "pfnmap -A linux-sysfs -O sysfs.path=$OTHER dump " \
	0000:07:00.0/bar0 07:00.0/bar0 0000:07:00.0/config 07:00.0/config
expect "pfnmap -Osysfs.path=$OTHER bars 0000:0" 07:00.0
# the command typed, with the libpci options as typed, is what is asked
expect "$tmp/fake/pfnmap -v -A dump -Odump.name=x.dump -O \"a.b=c\" dump " \
	"$FAKE_LINES_BARS"
expect "$tmp/fake/pfnmap -o out -c wb bars " "$FAKE_LINES_DEVICES"
want='-A dump -O dump.name=x.dump -O a.b=c -M bars
-M bars'
check_args "$want" "pfnmap got the command line's -A and -O, then -M bars"
# ~ as the shell expands it: a leading one, not one after NAME=
# shellcheck disable=SC2088 # the ~ as typed
HOME=$tmp/home expect "~/fake/pfnmap -O dump.name=~/x dump " "$FAKE_LINES_BARS"
# shellcheck disable=SC2088 # the ~ as typed
check_args "-O dump.name=~/x -M bars" \
	"~/fake/pfnmap is \$HOME/fake/pfnmap; -O gets dump.name=~/x"
# "$2" (this build's pfnmap) typed: not the one in $PATH
PATH=${PATH#*:} expect "$(realpath -- "$2") $o dump 00:05" 05.0/bar0 05.0/config
# pfnmap fails, or there is none: nothing, and silently
expect "pfnmap -O sysfs.path=$tmp/files dump "
expect_quiet "pfnmap -O sysfs.path=$tmp/files dump "
expect_quiet "pfnmap -A no-such-method dump "
expect "$tmp/nowhere/pfnmap $o dump "
expect_quiet "$tmp/nowhere/pfnmap $o dump "
expect 'pfnmap -O sysfs.p' sysfs.path=
expect 'pfnmap -A linux-s' linux-sysfs
(
	cd "$tmp/files" || exit 1
	expect 'pfnmap load 0x1000 ' fw.bin notes.txt pfnmap.ko sub
	expect 'pfnmap batch ' fw.bin notes.txt pfnmap.ko sub
	expect 'pfnmap -o ' fw.bin notes.txt pfnmap.ko sub
	expect 'pfnmap --output=n' notes.txt
	expect 'pfnmap -D f' fw.bin
	expect 'pfnmap -m ' pfnmap.ko sub
	exit $fail
) || fail=1

exit $fail
