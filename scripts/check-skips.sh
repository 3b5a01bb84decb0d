#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-skips.sh LIST KIND JUNIT...
#
# The ctest tests that were skipped (exit SKIP_RETURN_CODE, or not run at
# all) in one build, read from the JUnit files of its `ctest
# --output-junit` runs, must be exactly those that LIST (tests/expected-skips)
# expects for a build of KIND (the file pfnmap-test-kind in the build dir,
# written by tests/CMakeLists.txt): an unexpected skip means a test that
# should run on this machine did not; an expected skip that ran (or that
# no longer exists) means LIST is out of date. Prints every skip with the
# reason the test gave and, for a difference, what differs.
#
# Exit status: 0 the same; 1 they differ; 2 unreadable input.
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 LIST KIND JUNIT..." >&2; exit 2; }
list=$1
kind=$2
shift 2
[ -r "$list" ] || { echo "check-skips: cannot read $list" >&2; exit 2; }

# NAME<TAB>REASON for every <testcase> with a <skipped> element. ctest
# writes each <testcase ...> start tag and each <skipped .../> on a line
# of its own, and escapes < in names and outputs, so neither can be faked
# by a test's output. The reason: the test's first output line with SKIP
# in it (tests/cli/run.sh, install.sh), else ctest's skipped message.
skipped_in() {
	awk '
	function unxml(s) {
		gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s)
		gsub(/&quot;/, "\"", s); gsub(/&apos;/, "\047", s)
		gsub(/&amp;/, "\\&", s)
		return s
	}
	function attr(line, a,    r) {
		if (!match(line, " " a "=\"[^\"]*\""))
			return ""
		r = substr(line, RSTART + length(a) + 3, RLENGTH - length(a) - 4)
		return unxml(r)
	}
	function flush() {
		if (name != "" && skip) {
			r = why != "" ? why : msg
			gsub(/^[ \t]+|[ \t]+$/, "", r)
			print name "\t" r
		}
		name = ""; skip = 0; why = ""; msg = ""
	}
	/^[ \t]*<testcase / { flush(); name = attr($0, "name"); cases++; next }
	/^[ \t]*<skipped[ >\/]/ { skip = 1; msg = attr($0, "message"); next }
	/^[ \t]*<\/testsuite>/ { flush(); next }
	name != "" && why == "" && /SKIP/ {
		line = $0
		line = unxml(substr(line, index(line, "SKIP") + 4))
		# "NAME  SKIP (REASON)" (run.sh), "SKIP REASON" (install.sh)
		if (line ~ /^ \(.*\)$/)
			line = substr(line, 3, length(line) - 3)
		why = line
	}
	END {
		flush()
		if (!cases)
			exit 3
	}' "$1"
}

got=$(mktemp)
trap 'rm -f "$got"' EXIT
for j in "$@"; do
	if [ ! -s "$j" ]; then
		echo "check-skips: no JUnit file $j (did ctest run?)" >&2
		exit 2
	fi
	rc=0
	skipped_in "$j" >>"$got" || rc=$?
	if [ $rc = 3 ]; then
		echo "check-skips: no <testcase> in $j" >&2
		exit 2
	elif [ $rc != 0 ]; then
		exit 2
	fi
done

# LIST: KIND TEST REASON..., # comments; the entries of this KIND
want=$(awk -v k="$kind" '!/^[ \t]*(#|$)/ && $1 == k { print $2 }' "$list" |
	LC_ALL=C sort -u)
have=$(cut -f1 "$got" | LC_ALL=C sort -u)

echo "skipped in this $kind build: $(printf '%s\n' "$have" | grep -c . || true)"
while IFS=$'\t' read -r name why; do
	printf '  %-28s %s\n' "$name" "$why"
done < <(LC_ALL=C sort -u "$got")

status=0
while read -r name; do
	[ -n "$name" ] || continue
	printf 'UNEXPECTED SKIP: %s: %s\n' "$name" \
		"$(awk -F'\t' -v n="$name" '$1 == n { print $2; exit }' "$got")"
	status=1
done < <(LC_ALL=C comm -13 <(printf '%s\n' "$want") <(printf '%s\n' "$have"))
while read -r name; do
	[ -n "$name" ] || continue
	printf 'EXPECTED SKIP THAT RAN: %s (listed for %s: %s)\n' "$name" "$kind" \
		"$(awk -v k="$kind" -v n="$name" '$1 == k && $2 == n {
			$1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$list")"
	status=1
done < <(LC_ALL=C comm -23 <(printf '%s\n' "$want") <(printf '%s\n' "$have"))
if [ $status = 0 ]; then
	echo "check-skips: the skips are those $list expects for a $kind build"
else
	echo "check-skips: the skips differ from those $list expects for a $kind build:"
	echo "  an unexpected skip is a test that should run here (install what it"
	echo "  needs, fix the cause), an expected one that ran is a stale entry;"
	echo "  change $list only for a reason that holds on every such machine"
fi
exit $status
