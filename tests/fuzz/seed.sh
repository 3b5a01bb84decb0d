#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Regenerate the seed corpora tests/fuzz/corpus/{region,devspec,value}/
# from the tests: the strings of tests/unit/test_region.c (region_ok,
# region_err, pci_ok, number_*, value_*, spec_is), and the region,
# device and value arguments in tests/cli/ts/*, tests/pci/ts/* and
# tests/vm/guest/tests.sh (words that are not regions are left out, words
# with shell variables too). One file a string, named by its SHA-1 as
# libFuzzer names its own; fuzz_value's files start with the width byte
# ('0' 8 bits, '1' 16, '2' 32, '3' 64, see fuzz_value.c).
#   tests/fuzz/seed.sh        rewrite the corpus directories
#   tests/fuzz/seed.sh -n     only count what it would write
set -euo pipefail
export LC_ALL=C	# the same words in the same order, wherever it runs
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dry=0
[ "${1:-}" = -n ] && dry=1

unit=$top/tests/unit/test_region.c
scripts=("$top"/tests/cli/ts/* "$top"/tests/pci/ts/* "$top/tests/vm/guest/tests.sh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# C string literals that are the first argument of FUNC( in the unit test
first_args() {
	sed -n "s/.*\\b$1(\"\\([^\"\\\\]*\\)\".*/\\1/p" "$unit"
}

# Words of the scripts: split at blanks, quotes, parentheses and '=';
# nothing with a shell expansion in it
words() {
	cat "${scripts[@]}" | tr -s ' \t"'"'"'()=,;`' '\n' | grep -v '[$\\]' || true
}

# START+SIZE or START-END, or START with a suffix (the plain numbers of
# the scripts, hundreds of addresses, add nothing to test_region.c's)
phys_re='^[0-9][0-9A-Za-z]*[+-][0-9][0-9A-Za-z]*$|^[0-9]+[A-Za-z]+$'
dev_re='^[0-9A-Fa-f*][0-9A-Fa-fzZ*.:]*:[0-9A-Fa-fzZ*.:]*(#[0-9]+)?$'

# One word of each shape (its runs of hex digits as one '9'): the scripts
# have hundreds of 0x18000xxxx+N, which add nothing to the first few
one_a_shape() {
	awk '{ k = $0; gsub(/[0-9A-Fa-f]+/, "9", k) } !seen[k]++'
}
pci_re='^[0-9A-Fa-f*.:]+(#[0-9]+)?/(bar|config)[0-9A-Za-z@+]*$'

# --- region: region_*, pci_ok, number_* strings; region-shaped words
{
	first_args region_ok
	first_args region_err
	first_args pci_ok
	first_args number_ok
	first_args number_err
	words | grep -E "$phys_re|$pci_re" | one_a_shape || true
} | sort -u > "$tmp/region"

# --- devspec: spec_is strings, the devices of the PCI regions, and
# device-shaped words
{
	first_args spec_is
	grep '/' "$tmp/region" | sed 's,/.*,,'
	words | grep -E "$dev_re" | grep -E '[0-9A-Fa-f*]' || true
} | sort -u > "$tmp/devspec"

# --- value: WIDTH-BYTE + text. value_ok("X", W) and value_err("X", W);
# numbers at width 64; the widths of test_width; VALUE of write/fill in
# the scripts at their -w/--width (32 when none is given)
wbyte() {
	case $1 in 1|8) echo 0 ;; 2|16) echo 1 ;; 4|32) echo 2 ;; *) echo 3 ;; esac
}
{
	sed -n 's/.*\bvalue_\(ok\|err\)("\([^"\\]*\)", \([0-9]\).*/\3 \2/p' "$unit" |
		while read -r w v; do printf '%s%s\n' "$(wbyte "$w")" "$v"; done
	first_args number_ok | sed 's/^/3/'
	first_args number_err | sed 's/^/3/'
	for w in 8 16 32 64 0 12 128 0x20 '8 '; do printf '3%s\n' "$w"; done
	cat "${scripts[@]}" | grep -E '\b(write|fill)\b' | grep -v '^[[:space:]]*#' |
	while read -r line; do
		# shellcheck disable=SC2086
		set -- $line
		w=32 v=
		while [ $# -gt 0 ]; do
			case $1 in
			-w) w=${2:-32}; shift ;;
			--width=*) w=${1#--width=} ;;
			write|fill) v=${3:-}; break ;;
			esac
			shift
		done
		case $v in [0-9]*) ;; *) continue ;; esac
		case $v$w in *[!0-9A-Za-z+-]*) continue ;; esac
		printf '%s%s\n' "$(wbyte "$w")" "$v"
	done
} | sort -u > "$tmp/value"

for t in region devspec value; do
	n=$(wc -l < "$tmp/$t")
	echo "seed.sh: $t: $n inputs"
	[ $dry = 1 ] && continue
	dir=$here/corpus/$t
	rm -rf "$dir"
	mkdir -p "$dir"
	while IFS= read -r s; do
		f=$(printf '%s' "$s" | sha1sum | cut -d' ' -f1)
		printf '%s' "$s" > "$dir/$f"
	done < "$tmp/$t"
done
