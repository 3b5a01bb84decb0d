#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# zsh-completion.sh COMPLETION_DIR PFNMAP
#
# The zsh completion (COMPLETION_DIR/_pfnmap): its syntax (zsh -n); that
# compinit, with COMPLETION_DIR in $fpath of a zsh whose ZDOTDIR is a
# fresh directory, registers it ($_comps[pfnmap] = _pfnmap); and what it
# offers, through zsh-complete.zsh (a real zsh in a pseudo-terminal).
# PCI BARs come from PFNMAP -M bars (pfnmap in $PATH, or the command typed)
# reading a fake sysfs tree with the line's -O sysfs.path=DIR.
set -uo pipefail

dir=$(realpath -- "$1")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=comp-lib.sh
. "$here/comp-lib.sh"

comp_need zsh zsh
comp_fixture "$2"
comp_no_sysfs "$dir/_pfnmap"

if zsh -n "$dir/_pfnmap"; then
	echo "ok   zsh -n _pfnmap"
else
	echo "FAIL zsh -n _pfnmap"
	fail=1
fi

mkdir "$tmp/zdotdir"
cat >"$tmp/zdotdir/.zshrc" <<ZSHRC
fpath=("$dir" \$fpath)
autoload -Uz compinit
compinit -u -d "$tmp/zdotdir/.zcompdump"
ZSHRC
got=$(ZDOTDIR=$tmp/zdotdir zsh -i -c 'print -r -- "${_comps[pfnmap]-unset}"' \
	</dev/null 2>"$tmp/err")
if [ "$got" = _pfnmap ] && [ ! -s "$tmp/err" ]; then
	echo "ok   compinit registers _pfnmap for pfnmap"
else
	echo "FAIL compinit: \$_comps[pfnmap] is '$got', not _pfnmap"
	cat "$tmp/err"
	fail=1
fi


comp()
{
	zsh -f "$here/zsh-complete.zsh" "$dir" "$1" "$tmp/zcompdump" |
		comp_words
}

commands='bars batch clear cmp copy dump expect fill hexdump info load memtest poll read set sum write'
expect 'pfnmap ' "$commands"
expect 'pfnmap -v ' "$commands"
expect 'pfnmap he' hexdump
expect 'pfnmap --wi' --width
expect 'pfnmap --no' --no-load --no-progress --not
expect 'pfnmap --ver' --verbose --version
expect 'pfnmap -w ' 8 16 32 64
expect 'pfnmap --width=' 8 16 32 64
expect 'pfnmap -c ' auto uc wb wc
expect 'pfnmap --cache=w' wb wc
o="-O sysfs.path=$SYS"
expect "pfnmap $o dump " "$FAKE_BARS"
# -A and -O also glued to their values, and in a cluster
expect "pfnmap -w 8 --cache uc -Alinux-sysfs -qO sysfs.path=$SYS read " \
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
expect 'pfnmap --tests=walk' walking-ones walking-zeros
expect "pfnmap $o --seed=1 memtest " "$FAKE_BARS"
expect "pfnmap $o dump 00:04.0/bar2 "
expect "pfnmap $o fill 00:04.0/bar2 "
expect "pfnmap $o write 0x1000 "
expect "pfnmap $o bars " "$FAKE_DEVICES"
expect "pfnmap $o bars 1af" 1af4:1110
expect "pfnmap -A linux-sysfs -O sysfs.path=$OTHER dump " \
	0000:07:00.0/bar0 07:00.0/bar0 0000:07:00.0/config 07:00.0/config
comp_cases_typed "$2"
expect 'pfnmap -O sysfs.p' sysfs.path
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
