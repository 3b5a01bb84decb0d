#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# drift.sh PFNMAP SOURCE_DIR
#
# `PFNMAP --help` is the reference, read at test time: every option it
# lists (long and short) and every command of its "Commands:" section must
# appear in the man page's OPTIONS and COMMANDS sections, in all three
# completions and in README.md; and the man page and the completions must
# not know options or commands that --help does not.
set -uo pipefail

pfnmap=$1
src=$2
man=$src/man/pfnmap.8
bash_c=$src/completions/pfnmap.bash
zsh_c=$src/completions/_pfnmap
fish_c=$src/completions/pfnmap.fish
readme=$src/README.md
fail=0

bad() { echo "FAIL $*"; fail=1; }

help=$($pfnmap --help) || { bad "$pfnmap --help failed"; exit 1; }

# Option lines: "  -w, --width=BITS   ...", "      --no-load   ...",
# "  -A METHOD   ..."
# (here-strings, not `printf | sed q` or `printf | grep -q`: a reader that
# stops early leaves printf a SIGPIPE, which pipefail makes a failure)
opt_lines=$(sed -n '/^Commands:/q; /^  *-/p' <<<"$help")
longs=$(printf '%s\n' "$opt_lines" |
	sed -n 's/^ *\(-[^-], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' | sort -u)
shorts=$(printf '%s\n' "$opt_lines" |
	sed -n 's/^ *-\([^-]\)[ ,].*/\1/p' | sort -u)
commands=$(printf '%s\n' "$help" |
	sed -n '/^Commands:/,/^$/{/^  [a-z]/{s/^  \([a-z][a-z0-9-]*\).*/\1/p;};}' |
	sort -u)
short_only=$(printf '%s\n' "$opt_lines" | sed -n 's/^ *-\([^-]\) .*/\1/p' |
	sort -u)
[ -n "$longs" ] || bad "no long options found in --help"
[ -n "$shorts" ] || bad "no short options found in --help"
[ -n "$commands" ] || bad "no Commands: section found in --help"
echo "--help: long options: $(tr '\n' ' ' <<<"$longs")"
echo "--help: short options: $(tr '\n' ' ' <<<"$shorts")"
echo "--help: commands: $(tr '\n' ' ' <<<"$commands")"

# The man page as mandoc renders it, sections OPTIONS and COMMANDS; their
# tagged items start 5 blanks in ("     -w, --width=bits")
rendered=$(mandoc -Tascii "$man" | col -bx) || bad "mandoc cannot render $man"
# section NAME END: the item lines of section NAME, up to the line END matches
section() { printf '%s\n' "$rendered" | sed -n "/^$1\$/,/$2/{/^     [^ ]/p;}"; }
man_opts=$(section OPTIONS '^[A-Z]')	# with its subsections
man_cmds=$(section COMMANDS '^ \{0,3\}[A-Z]')	# up to the first subsection
man_longs=$(printf '%s\n' "$man_opts" | grep -o -- '--[a-z][a-z0-9-]*' |
	sed 's/^--//' | sort -u)
man_shorts=$(printf '%s\n' "$man_opts" |
	sed -n 's/^     -\([^-]\)\([ ,].*\)\{0,1\}$/\1/p' | sort -u)
man_commands=$(printf '%s\n' "$man_cmds" |
	sed -n 's/^     \([a-z][a-z0-9-]*\).*/\1/p' | sort -u)

# Per completion, how an option or a command is written in it
bash_longs=$(grep -o -- '--[a-z][a-z0-9-]*' "$bash_c" | sed 's/^--//' | sort -u)
zsh_longs=$(grep -o -- '--[a-z][a-z0-9-]*' "$zsh_c" | sed 's/^--//' | sort -u)
fish_longs=$(grep '^complete -c pfnmap ' "$fish_c" |
	grep -o -- ' -l [a-z][a-z0-9-]*' | sed 's/^ -l //' | sort -u)
bash_cmds=$(sed -n 's/^[[:space:]]*local commands="\(.*\)"/\1/p' "$bash_c" |
	tr ' ' '\n' | sort -u)
zsh_cmds=$(sed -n "/^ *commands=(/,/^ *)\$/s/^ *'\([a-z][a-z0-9-]*\):.*/\1/p" \
	"$zsh_c" | sort -u)
fish_cmds=$(sed -n 's/.*-n __pfnmap_needs_command -a \([a-z][a-z0-9-]*\) .*/\1/p' \
	"$fish_c" | sort -u)

in_list() { grep -qxF -- "$1" <<<"$2"; }

for o in $longs; do
	in_list "$o" "$man_longs" || bad "--$o: not in pfnmap.8 OPTIONS"
	in_list "$o" "$bash_longs" || bad "--$o: not in $(basename "$bash_c")"
	in_list "$o" "$zsh_longs" || bad "--$o: not in $(basename "$zsh_c")"
	in_list "$o" "$fish_longs" || bad "--$o: not in $(basename "$fish_c") (-l $o)"
	grep -qF -- "--$o" "$readme" || bad "--$o: not in README.md"
done
for o in $shorts; do
	in_list "$o" "$man_shorts" || bad "-$o: not in pfnmap.8 OPTIONS"
	grep -qE -- "(^|[^a-zA-Z0-9-])-\\\\?$o([^a-zA-Z0-9-]|\$)" "$bash_c" ||
		bad "-$o: not in $(basename "$bash_c")"
	grep -qE -- "(^|[^a-zA-Z0-9-])-\\\\?$o([^a-zA-Z0-9-]|\$)" "$zsh_c" ||
		bad "-$o: not in $(basename "$zsh_c")"
	grep -q -e "^complete -c pfnmap.* -s $o " \
		-e "^complete -c pfnmap.* -s '$o' " "$fish_c" ||
		bad "-$o: not in $(basename "$fish_c") (-s $o)"
	# README.md names options by their long names where they have one
	in_list "$o" "$short_only" && ! grep -qF -- "\`-$o " "$readme" &&
		bad "-$o: not in README.md"
done
for c in $commands; do
	in_list "$c" "$man_commands" || bad "$c: not in pfnmap.8 COMMANDS"
	in_list "$c" "$bash_cmds" || bad "$c: not in $(basename "$bash_c")"
	in_list "$c" "$zsh_cmds" || bad "$c: not in $(basename "$zsh_c")"
	in_list "$c" "$fish_cmds" || bad "$c: not in $(basename "$fish_c")"
	grep -qE "^  $c " "$readme" || bad "$c: not in README.md's command list"
done

# ... and nothing that --help does not have
for o in $man_longs; do in_list "$o" "$longs" || bad "pfnmap.8 has --$o; --help does not"; done
for o in $man_shorts; do in_list "$o" "$shorts" || bad "pfnmap.8 has -$o; --help does not"; done
for o in $bash_longs; do in_list "$o" "$longs" || bad "$(basename "$bash_c") has --$o; --help does not"; done
for o in $zsh_longs; do in_list "$o" "$longs" || bad "$(basename "$zsh_c") has --$o; --help does not"; done
for o in $fish_longs; do in_list "$o" "$longs" || bad "$(basename "$fish_c") has -l $o; --help does not"; done
for c in $man_commands; do in_list "$c" "$commands" || bad "pfnmap.8 has command $c; --help does not"; done
for c in $bash_cmds; do in_list "$c" "$commands" || bad "$(basename "$bash_c") has command $c; --help does not"; done
for c in $zsh_cmds; do in_list "$c" "$commands" || bad "$(basename "$zsh_c") has command $c; --help does not"; done
for c in $fish_cmds; do in_list "$c" "$commands" || bad "$(basename "$fish_c") has command $c; --help does not"; done

[ $fail = 0 ] && echo "ok   man page, completions and README agree with --help"
exit $fail
