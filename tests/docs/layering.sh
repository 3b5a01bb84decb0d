#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The core's layering (lib/session.h): lib/ includes only its own headers,
# the helper's uapi and system headers; it never prints, exits or reads
# the command line; and no two of its modules (x.c with x.h) include each
# other, directly or round a loop (tsort finds the loops).
#   layering.sh SRCDIR        check SRCDIR/lib
#   layering.sh selftest SRCDIR  each rule broken once must be caught
set -u

fail=0
bad() {
	echo "layering: $*" >&2
	fail=1
}

check() {
	local lib=$1 f inc mod dep edges

	for f in "$lib"/*.[ch]; do
		while read -r inc; do
			[[ -e $lib/$inc || $inc == uapi/pfnmap.h ]] ||
				bad "${f##*/} includes \"$inc\", which is not the core's"
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done
	# output and the process's end are the application's (session.h)
	grep -nE '\b(f?printf|puts|fputs|putchar|perror|err|errx|warn|warnx|exit|_exit)\(|\b(stdout|stderr)\b' \
		"$lib"/*.c | grep -vE '^[^:]+:[0-9]+:\s*(/?\*|//)' | while read -r line; do
		echo "layering: prints or exits: $line" >&2
		echo x
	done | grep -q x && fail=1
	edges=$(for f in "$lib"/*.[ch]; do
		mod=${f##*/}
		mod=${mod%.[ch]}
		sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r dep; do
			[[ $dep != "$mod" && -e $lib/$dep.h ]] && echo "$mod $dep"
		done
	done | sort -u)
	if ! tsort <<<"$edges" >/dev/null 2>/tmp/layering.$$; then
		bad "include loop: $(tr '\n' ' ' </tmp/layering.$$)"
	fi
	rm -f /tmp/layering.$$
}

if [[ ${1-} == selftest ]]; then
	src=$2
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for plant in include print loop; do
		rm -rf "$tmp/lib" && cp -r "$src/lib" "$tmp/lib"
		case $plant in
		include) echo '#include "commands.h"' >>"$tmp/lib/pci.c" ;;
		print) echo 'void x(void) { fprintf(stderr, "x"); }' >>"$tmp/lib/pci.c" ;;
		loop) echo '#include "open.h"' >>"$tmp/lib/window.c" ;;
		esac
		if (fail=0; check "$tmp/lib" 2>/dev/null; exit $fail); then
			echo "layering selftest: a planted $plant went unnoticed" >&2
			exit 1
		fi
	done
	echo "layering selftest: include, print and loop each caught"
	exit 0
fi

check "$1/lib"
[[ $fail == 0 ]] && echo "layering: lib/ is the core's alone, silent, without loops"
exit $fail
