#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# drift-selftest.sh PFNMAP SOURCE_DIR
#
# drift.sh must notice drift: an option and a command that --help gains,
# and an option, a command and a stale option in a copy of the man page and
# the completions.
set -uo pipefail

pfnmap=$(realpath -- "$1")
src=$(realpath -- "$2")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect_fail WHAT PATTERN... -- drift.sh ARGS: must fail, naming each PATTERN
expect_fail()
{
	local what=$1 p
	local -a pats=()
	shift
	while [ "$1" != -- ]; do pats+=("$1"); shift; done
	shift
	if bash "$here/drift.sh" "$@" >"$tmp/out" 2>&1; then
		echo "FAIL drift.sh passes with $what"
		fail=1
		return
	fi
	for p in "${pats[@]}"; do
		if ! grep -qF -- "$p" "$tmp/out"; then
			echo "FAIL drift.sh does not report '$p' ($what)"
			cat "$tmp/out"
			fail=1
			return
		fi
	done
	echo "ok   drift.sh catches $what"
}

# a pfnmap whose --help has one option and one command more
cat >"$tmp/pfnmap" <<FAKE
#!/bin/sh
"$pfnmap" --help | sed -e 's/^\( *-q, --quiet.*\)/      --frobnicate           Frobnicate\n\1/' \
	-e 's/^\(Commands:\)$/\1\n  frob    REGION        frobnicate REGION/'
FAKE
chmod +x "$tmp/pfnmap"
# its whole output first: `fake | grep -q` under pipefail would fail when
# grep's early exit leaves the fake's sed a SIGPIPE
fake_help=$("$tmp/pfnmap")
grep -q -- --frobnicate <<<"$fake_help" || { echo "FAIL: the fake --help"; exit 1; }
expect_fail "an option and a command new in --help" \
	'--frobnicate: not in pfnmap.8' '--frobnicate: not in pfnmap.bash' \
	'--frobnicate: not in _pfnmap' '--frobnicate: not in pfnmap.fish' \
	'frob: not in pfnmap.8 COMMANDS' 'frob: not in pfnmap.fish' -- \
	"$tmp/pfnmap" "$src"

# copies of the man page and completions, each missing something
mkdir -p "$tmp/src/man" "$tmp/src/completions"
cp "$src/README.md" "$tmp/src/"
cp "$src/man/pfnmap.8" "$tmp/src/man/"
cp "$src"/completions/{pfnmap.bash,_pfnmap,pfnmap.fish} "$tmp/src/completions/"
sed -i '/-s A -x/d' "$tmp/src/completions/pfnmap.fish"
sed -i 's/local commands="dump hexdump/local commands="dump/' \
	"$tmp/src/completions/pfnmap.bash"
sed -i "s/'(- \*)--usage\[/'(- *)--usages[/" "$tmp/src/completions/_pfnmap"
sed -i 's/^\.It Fl \\-sysfs$/.It Fl \\-sysf/' "$tmp/src/man/pfnmap.8"
expect_fail "options and commands missing from copies" \
	'-A: not in pfnmap.fish' 'hexdump: not in pfnmap.bash' \
	'--usage: not in _pfnmap' '_pfnmap has --usages; --help does not' \
	'--sysfs: not in pfnmap.8' -- "$pfnmap" "$tmp/src"

exit $fail
