#!/bin/zsh -f
# SPDX-License-Identifier: GPL-2.0-or-later
#
# zsh -f zsh-complete.zsh COMPLETION_DIR LINE [DUMP]
#
# Prints, one a line, the matches zsh's completion system adds for the
# cursor at the end of LINE: an interactive zsh in a pseudo-terminal
# (zsh/zpty) with compinit and COMPLETION_DIR first in $fpath, whose compadd
# is wrapped to write every match it adds to a file (as
# zsh-capture-completion does), gets LINE and a TAB. DUMP: compinit's dump
# file, made by the first call and read by the next ones (a compinit
# without one scans every function in $fpath: seconds a call).
emulate -L zsh
zmodload zsh/zpty || exit 2

dir=${1:A}
line=$2
dump=${3:-}
tmp=$(mktemp -d) || exit 2
trap 'zpty -d pfnmap_test 2>/dev/null; rm -rf $tmp' EXIT

if [[ -n $dump ]]; then
	cinit="compinit -u -d ${(q)dump}"
else
	cinit="compinit -u -D"
fi
cat >$tmp/setup.zsh <<SETUP
PS1='' PROMPT='' RPROMPT=''
unsetopt autolist listambiguous automenu menucomplete beep zle_bracketed_paste 2>/dev/null
fpath=(${(q)dir} \$fpath)
autoload -Uz compinit && $cinit
compadd() {
	# the calls that only ask (-O, -A, -D) go through untouched
	if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
		builtin compadd "\$@"
		return
	fi
	local -a __hits
	builtin compadd -A __hits "\$@"
	(( \$#__hits )) && print -rl -- \$__hits >> ${(q)tmp}/matches
	builtin compadd "\$@"
}
# TAB completes, then says it is done
pfnmap-test-complete() {
	zle complete-word
	: > ${(q)tmp}/done
}
zle -N pfnmap-test-complete
bindkey '^I' pfnmap-test-complete
: > ${(q)tmp}/ready
SETUP

# wait FILE: until FILE exists (15 s at most), reading what the zsh prints
wait_for() {
	local i junk
	for i in {1..300}; do
		[[ -e $1 ]] && return 0
		zpty -r -t pfnmap_test junk 2>/dev/null
		sleep 0.05
	done
	print -u2 "zsh-complete.zsh: no ${1:t} from the zsh: $line"
	exit 2
}

zpty pfnmap_test zsh -f -i || exit 2
zpty -w pfnmap_test "source ${(q)tmp}/setup.zsh"
wait_for $tmp/ready
zpty -w -n pfnmap_test "$line"$'\t'
wait_for $tmp/done
[[ -e $tmp/matches ]] && sort -u $tmp/matches
exit 0
