#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Mutation check ("keep it honest"): plant each bug of tests/mutation/mutants,
# one at a time, in a scratch copy of the tree, rebuild, and see whether the
# fast host tests notice.
#
#   tests/mutation/run.sh [--vm] [--quick] [-j N] [NAME...]
#   tests/mutation/run.sh --list
#   tests/mutation/run.sh --check
#
# The scratch copy holds what `git ls-files -co --exclude-standard` lists
# (committed, changed and new files, not ignored ones), so uncommitted work
# is included. It is refreshed at every run, copying only the files that
# differ, and built in one build directory, so every rebuild is incremental.
# First the pristine tree is built and tested; then, for each mutant: apply
# its substitution, rebuild, run ctest -L '^(unit|cli|pci|shim|oracle)$'
# (not valgrind, vm or docs), put the pristine file back. A mutant that
# names the tests that kill it ("kills") runs those first, alone, and the
# whole set only if they all pass: a kill is found in seconds, a survivor
# still meets every test. A kill named i386:TEST is TEST of a 32-bit build
# (build32/ in the scratch directory, its tests under qemu-i386 where the
# machine cannot run i386 binaries): for bugs that only a 32-bit off_t or
# long shows. Each mutant is
#
#   KILLED by TESTS   tests that pass on the pristine tree fail with it
#   SURVIVED          no such test: a hole in the tests
#   STALE             its substitution does not replace exactly once: the
#                     code moved on, move the mutant with it
#   BROKEN            it does not build (a planted bug must compile)
#   UNCHECKED         it survived the host tests and names guest tests
#                     ("needs") that only --vm runs
#
# A test that already fails on the pristine tree kills nothing, but for the
# parts of it that newly fail (ts/ scripts, cmocka tests, guest checks; a
# warning names what fails).
#
#   NAME...   only these mutants
#   --quick   run only the tests that each mutant names in "kills" (the
#             whole set for one that names none), the pristine tree's too:
#             for writing a test and its mutant, not for the verdict
#   --vm      add the ctests or labels each mutant needs (QEMU guests, about
#             a minute each); an i386 build (build32/ in the scratch
#             directory) gives the 686-pae guest its CLI
#   -j N      ctest -j (default 2)
#   --list    the mutants and what they plant
#   --check   only whether each substitution still replaces exactly once
#             in the tree as it is (no copy, no build: seconds; the
#             docs tests run it, so that a change that moves code moves
#             its mutants too)
#
# Exit status: 0 every mutant killed (or unchecked), 1 one survived, is
# stale or broken, 2 the check itself failed (usage, the pristine build).
#
# Environment:
#   PFNMAP_MUTATION_DIR     scratch directory, default /tmp/pfnmap-mutation:
#                           src/, build/, build32/, logs/NAME.*
#   PFNMAP_MUTATION_LABELS  ctest -L regex of the host tests
#   PFNMAP_MUTATION_LIST    the list of mutants, default tests/mutation/mutants
set -euo pipefail

here=$(cd -- "$(dirname -- "$0")" && pwd)
top=$(cd -- "$here/../.." && pwd)
list=${PFNMAP_MUTATION_LIST:-$here/mutants}
work=${PFNMAP_MUTATION_DIR:-/tmp/pfnmap-mutation}
labels=${PFNMAP_MUTATION_LABELS:-'^(unit|cli|pci|shim|oracle)$'}
src=$work/src
build=$work/build
build32=$work/build32
logs=$work/logs

die()
{
	printf 'mutation: %s\n' "$*" >&2
	exit 2
}

usage()
{
	sed -n '/^# Mutation check/,/^set -euo/{/^set/d;s/^# \{0,1\}//;p}' "$0"
}

vm=0
quick=0
jobs=2
list_only=0
check=0
only=()
while [ $# -gt 0 ]; do
	case $1 in
	--vm) vm=1 ;;
	--quick) quick=1 ;;
	-j)
		[ $# -ge 2 ] || die "-j wants a number"
		jobs=$2
		shift
		;;
	-j*) jobs=${1#-j} ;;
	--list) list_only=1 ;;
	--check) check=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) only+=("$1") ;;
	esac
	shift
done
case $jobs in
'' | *[!0-9]*) die "-j wants a number, not '$jobs'" ;;
esac

# ---------------------------------------------------------------------------
# The list: "KEY VALUE" lines; "mutant NAME" starts an entry
# ---------------------------------------------------------------------------
names=()
files=()
perls=()
needs=()
kills=()
abouts=()

load_list()
{
	local line key val n=-1 lineno=0 i j

	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		case $line in
		'' | '#'*) continue ;;
		esac
		key=${line%%[ 	]*}
		val=${line#"$key"}
		val=${val#"${val%%[! 	]*}"}
		if [ "$key" = mutant ]; then
			n=$((n + 1))
			names[n]=$val
			files[n]=
			perls[n]=
			needs[n]=
			kills[n]=
			abouts[n]=
			continue
		fi
		[ $n -ge 0 ] || die "$list:$lineno: '$key' before the first mutant"
		case $key in
		file) files[n]=$val ;;
		perl) perls[n]=$val ;;
		needs) needs[n]=$val ;;
		kills) kills[n]=$val ;;
		about) abouts[n]=$val ;;
		*) die "$list:$lineno: unknown key '$key'" ;;
		esac
	done <"$list"
	[ $n -ge 0 ] || die "$list: no mutants"
	for ((i = 0; i <= n; i++)); do
		case ${names[i]} in
		'' | *[!A-Za-z0-9._-]*)
			die "$list: mutant '${names[i]}': a name is [A-Za-z0-9._-]+"
			;;
		esac
		if [ -z "${files[i]}" ] || [ -z "${perls[i]}" ] ||
		   [ -z "${abouts[i]}" ]; then
			die "$list: mutant ${names[i]}: file, perl and about are required"
		fi
		for ((j = 0; j < i; j++)); do
			[ "${names[i]}" != "${names[j]}" ] ||
				die "$list: mutant ${names[i]} is listed twice"
		done
	done
}

load_list

# The mutants to run, as indices
selected=()
if [ ${#only[@]} -eq 0 ]; then
	for i in "${!names[@]}"; do
		selected+=("$i")
	done
else
	for want in "${only[@]}"; do
		found=
		for i in "${!names[@]}"; do
			if [ "${names[i]}" = "$want" ]; then
				found=$i
			fi
		done
		[ -n "$found" ] || die "no mutant '$want' (see --list)"
		selected+=("$found")
	done
fi

if [ $list_only = 1 ]; then
	for i in "${selected[@]}"; do
		printf '%-24s %s: %s%s%s\n' "${names[i]}" "${files[i]}" \
			"${abouts[i]}" "${kills[i]:+ [kills ${kills[i]}]}" \
			"${needs[i]:+ [needs ${needs[i]}]}"
	done
	exit 0
fi

# Guest tests to run (--vm): the needs of the selected mutants
vm_needs=()
if [ $vm = 1 ]; then
	for i in "${selected[@]}"; do
		for item in ${needs[i]}; do
			case " ${vm_needs[*]} " in
			*" $item "*) ;;
			*) vm_needs+=("$item") ;;
			esac
		done
	done
fi

# The kills of the selected mutants; the 32-bit build is needed for --vm
# (the 686-pae guest's CLI) and for kills in it (i386:TEST)
all_kills=()
no_kills=()
need32=$vm
for i in "${selected[@]}"; do
	if [ -z "${kills[i]}" ]; then
		no_kills+=("${names[i]}")
	fi
	# shellcheck disable=SC2206 # kills is a list
	all_kills+=(${kills[i]})
	case " ${kills[i]}" in
	*" i386:"*) need32=1 ;;
	esac
done

# ---------------------------------------------------------------------------
# The scratch tree and its builds
# ---------------------------------------------------------------------------
sync_tree()
{
	local f
	local -A keep=()

	mkdir -p -- "$src" "$logs"
	git -C "$top" ls-files -z -co --exclude-standard >"$work/files"
	while IFS= read -r -d '' f; do
		[ -f "$top/$f" ] || continue	# deleted, not yet committed
		keep[$f]=1
		# copied without its time stamp: a changed file is newer
		# than what was built from it (also a mutant left behind)
		if ! cmp -s -- "$top/$f" "$src/$f"; then
			mkdir -p -- "$(dirname -- "$src/$f")"
			cp --preserve=mode -- "$top/$f" "$src/$f"
		fi
	done <"$work/files"
	while IFS= read -r -d '' f; do
		f=${f#"$src/"}
		if [ -z "${keep[$f]:-}" ]; then
			rm -f -- "$src/$f"
		fi
	done < <(find "$src" -type f -print0)
}

# configure DIR [CMAKE ARGS...]: the helper module is not built (the guest
# tests build their own); Ninja where there is one, on the first run
configure()
{
	local dir=$1 gen=()

	shift
	if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
		gen=(-G Ninja)
	fi
	cmake -S "$src" -B "$dir" "${gen[@]}" \
		-DPFNMAP_KERNEL_DIR="$work/no-kernel" "$@"
}

# build LOG: build/ (and, for --vm or i386: tests, the 32-bit CLI); nonzero
# if either fails
build_all()
{
	local log=$1

	{
		cmake --build "$build" &&
		if [ $need32 = 1 ]; then
			cmake --build "$build32" --target pfnmap pfnmap_emu_probe
		fi
	} >"$log" 2>&1
}

# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

# ctest_failed LOG CTEST-ARGS...: run ctest in $tdir (default build/);
# print the names of the tests that failed, one a line, with $tprefix
ctest_failed()
{
	local log=$1

	shift
	ctest --test-dir "${tdir:-$build}" -j"$jobs" --output-on-failure "$@" \
		>"$log" 2>&1 || true
	grep -Eq '^[0-9]+% tests passed, [0-9]+ tests? failed out of [1-9]' \
		"$log" || die "ctest $* ran no tests; see $log"
	awk -v p="${tprefix:-}" '/^The following tests FAILED:/ { f = 1; next }
	     f && /^\t/ { print p $3 }' "$log"
}

# regex_quote TEXT
regex_quote()
{
	# shellcheck disable=SC2016 # a sed script
	printf '%s' "$1" | sed 's/[][\.*^$()+?{}|]/\\&/g'
}

# tests_regex TEST...: a ctest -R regex of exactly these tests
tests_regex()
{
	local t re=''

	for t; do
		re+=${re:+|}$(regex_quote "$t")
	done
	printf '^(%s)$' "$re"
}

# run_tests LOG HOST HOST32 [NEEDS...]: the host tests (HOST: a -R regex,
# empty for the labels, - for none), the i386 build's (HOST32: a -R regex,
# empty or - for none), then (--vm) the needs; prints the failed tests
run_tests()
{
	local log=$1 host=$2 host32=$3 item tests='' tlabels=''

	shift 3
	case $host in
	-) ;;
	'') ctest_failed "$log.ctest" -L "$labels" ;;
	*) ctest_failed "$log.ctest" -R "$host" ;;
	esac
	if [ -n "$host32" ] && [ "$host32" != - ]; then
		tdir=$build32 tprefix=i386: ctest_failed "$log.ctest32" -R "$host32"
	fi
	[ $vm = 1 ] || return 0
	for item; do
		case $item in
		*/*) tests+=${tests:+|}$(regex_quote "$item") ;;
		*) tlabels+=${tlabels:+|}$(regex_quote "$item") ;;
		esac
	done
	if [ -n "$tests" ]; then
		ctest_failed "$log.vm-tests" -R "^($tests)\$"
	fi
	if [ -n "$tlabels" ]; then
		ctest_failed "$log.vm-labels" -L "^($tlabels)\$"
	fi
}

# detail LOG TEST: the failed parts of TEST in ctest's output: the ts/
# scripts of a suite run as one test, the cmocka tests of unit/*, the
# guest checks (TAP numbers, #N) of vm/*
detail()
{
	local f t=$2 outs=()

	for f in "$1".ctest "$1".vm-tests "$1".vm-labels; do
		if [ -f "$f" ]; then
			outs+=("$f")
		fi
	done
	case $t in
	i386:*)
		t=${t#i386:}
		outs=("$1".ctest32)
		;;
	esac
	awk -v t="$t" '
		/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / || /^ *Start +[0-9]+: / ||
		/^[0-9]+% tests passed/ {
			cur = ""
			if ($2 == "Test" && $4 == t)
				cur = t
			next
		}
		cur == "" { next }
		/^failed: / { for (i = 2; i <= NF; i++) add($i) }
		/^\[  FAILED  \] / && !/test\(s\)/ { add($4) }
		/^[0-9.]+ not ok [0-9]+ / { add("#" $4) }
		function add(w) {
			# cli/NAME runs ts/NAME only: no news
			if (!seen[w]++ && t !~ "/" w "$")
				out = out " " w
		}
		END { sub(/^ /, "", out); print out }
	' "${outs[@]}"
}

# minus WORDS WORDS: the words of the first list not in the second
minus()
{
	local w out=

	for w in $1; do
		case " $2 " in
		*" $w "*) ;;
		*) out+=${out:+ }$w ;;
		esac
	done
	printf '%s\n' "$out"
}

# ---------------------------------------------------------------------------
# Mutants
# ---------------------------------------------------------------------------
restore=
restore_file()
{
	if [ -n "$restore" ]; then
		cp -- "$work/pristine" "$src/$restore"
		restore=
	fi
}
trap restore_file EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

killed=0
survived=0
stale=0
broken=0
unchecked=0
declare -A base_failed=()

report()
{
	printf '%-24s %s\n' "$1" "$2"
}

# apply I: the mutant's file, mutated, into $work/mutated; prints the
# number of replacements (perl's complaint on stderr)
apply()
{
	MUTANT_PERL=${perls[$1]} perl -e '
		local $/;
		my $s = <STDIN>;
		my $n = eval "\$s =~ $ENV{MUTANT_PERL}g";
		die "the substitution does not compile: $@" if $@;
		open(my $out, ">", $ARGV[0]) or die "$ARGV[0]: $!\n";
		print $out $s;
		close($out) or die "$ARGV[0]: $!\n";
		print $n || 0, "\n";
	' "$work/mutated" <"$src/${files[$1]}"
}

# kills_regex ARCH KILLS: a -R regex of the tests of the list KILLS that
# run in that build (i386: "i386:TEST"; -: the others), or - if none does
kills_regex()
{
	local t want=()

	for t in $2; do
		case $1:$t in
		i386:i386:*) want+=("${t#i386:}") ;;
		i386:* | -:i386:*) ;;
		*) want+=("$t") ;;
		esac
	done
	if [ ${#want[@]} -eq 0 ]; then
		echo -
	else
		tests_regex "${want[@]}"
	fi
}

# killers LOG FAILED: of the FAILED tests, those that failed because of the
# mutant, with their failed parts, as one line
killers()
{
	local t d by=''

	for t in $2; do
		d=$(detail "$1" "$t")
		if [ -n "${base_failed[$t]:-}" ]; then
			# failing already: only what newly fails in it counts
			d=$(minus "$d" "${base_failed[$t]}")
			[ -n "$d" ] || continue
		fi
		by+="${by:+, }$t${d:+ ($d)}"
	done
	printf '%s\n' "$by"
}

# applies I: whether mutant I's substitution replaces exactly once, into
# $work/mutated; if not, says so: STALE
applies()
{
	local i=$1 name=${names[$1]} file=${files[$1]} log=$logs/${names[$1]}
	local n

	rm -f -- "$log".*
	if [ ! -f "$src/$file" ]; then
		report "$name" "STALE (no file $file)"
		stale=$((stale + 1))
		return 1
	fi
	if ! n=$(apply "$i" 2>"$log.perl"); then
		report "$name" "STALE ($(head -n 1 "$log.perl"))"
		stale=$((stale + 1))
		return 1
	fi
	if [ "$n" != 1 ]; then
		report "$name" "STALE (replaces $n times in $file, not once)"
		stale=$((stale + 1))
		return 1
	fi
	if cmp -s -- "$work/mutated" "$src/$file"; then
		report "$name" "STALE (changes nothing in $file)"
		stale=$((stale + 1))
		return 1
	fi
}

run_mutant()
{
	local i=$1 name=${names[$1]} file=${files[$1]} log=$logs/${names[$1]}
	local by='' failed

	applies "$i" || return 0
	cp -- "$src/$file" "$work/pristine"
	restore=$file
	cp -- "$work/mutated" "$src/$file"
	diff -u "$work/pristine" "$work/mutated" >"$log.diff" || true

	if ! build_all "$log.build"; then
		restore_file
		report "$name" "BROKEN (does not build; see $log.build)"
		broken=$((broken + 1))
		return
	fi
	if [ -n "${kills[i]}" ]; then
		failed=$(run_tests "$log" "$(kills_regex - "${kills[i]}")" \
			"$(kills_regex i386 "${kills[i]}")")
		by=$(killers "$log" "$failed")
	fi
	if [ -z "$by" ] && { [ $quick = 0 ] || [ -z "${kills[i]}" ]; }; then
		# shellcheck disable=SC2086 # needs is a list
		failed=$(run_tests "$log" '' '' ${needs[i]})
		by=$(killers "$log" "$failed")
	fi
	restore_file

	if [ -n "$by" ]; then
		report "$name" "KILLED by $by"
		killed=$((killed + 1))
	elif [ -n "${needs[i]}" ] && [ $vm = 0 ]; then
		report "$name" "UNCHECKED: survived the host tests; needs --vm (${needs[i]})"
		unchecked=$((unchecked + 1))
	else
		report "$name" "SURVIVED: ${abouts[i]}"
		survived=$((survived + 1))
	fi
}

# ---------------------------------------------------------------------------
if [ $check = 1 ]; then
	src=$top
	work=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-mutation.XXXXXX")
	logs=$work
	trap 'rm -rf -- "$work"' EXIT
	for i in "${selected[@]}"; do
		applies "$i" || true
	done
	printf '%d mutants, %d stale\n' "${#selected[@]}" "$stale"
	[ "$stale" = 0 ] || exit 1
	exit 0
fi

start=$SECONDS
command -v git >/dev/null || die "git is needed (git ls-files)"
mkdir -p -- "$work"
printf 'mutation: scratch tree %s from %s\n' "$src" "$top"
sync_tree
configure "$build" -DPFNMAP_CLI32="$build32/cli/pfnmap" >"$logs/configure" 2>&1 ||
	die "configuring $build failed; see $logs/configure"
if [ $need32 = 1 ]; then
	configure "$build32" \
		-DCMAKE_TOOLCHAIN_FILE="$src/cmake/i386-toolchain.cmake" \
		>"$logs/configure32" 2>&1 ||
		die "configuring $build32 failed; see $logs/configure32"
fi
build_all "$logs/pristine.build" ||
	die "the pristine tree does not build; see $logs/pristine.build"
printf 'mutation: pristine tree: running the tests %s%s\n' \
	"$([ $quick = 1 ] && echo "the mutants kill" || echo "$labels")" \
	"${vm_needs[*]:+ and ${vm_needs[*]}}"
# The pristine run: what the mutants run, so that a test failing already
# is known (--quick: only the kills, unless a mutant names none)
base_host=
if [ $quick = 1 ] && [ ${#no_kills[@]} -eq 0 ]; then
	base_host=$(kills_regex - "${all_kills[*]}")
fi
base32=$(kills_regex i386 "${all_kills[*]}")
base=$(run_tests "$logs/pristine" "$base_host" "$base32" "${vm_needs[@]}")
for t in $base; do
	d=$(detail "$logs/pristine" "$t")
	base_failed[$t]=${d:-" "}
	if [ -n "$d" ]; then
		printf 'mutation: warning: %s fails without any mutant: %s; only what else fails in it counts\n' \
			"$t" "$d" >&2
	else
		printf 'mutation: warning: %s fails without any mutant; it kills nothing\n' \
			"$t" >&2
	fi
done
printf 'mutation: %d mutants, logs in %s\n\n' "${#selected[@]}" "$logs"

for i in "${selected[@]}"; do
	run_mutant "$i"
done

printf '\n%d mutants: %d killed, %d survived, %d stale, %d broken, %d unchecked (%d s)\n' \
	"${#selected[@]}" "$killed" "$survived" "$stale" "$broken" "$unchecked" \
	$((SECONDS - start))
if [ $((survived + stale + broken)) -ne 0 ]; then
	exit 1
fi
exit 0
