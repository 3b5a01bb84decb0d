#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scripts/ci-packages.sh BUILD_DIR
#
# The Debian packages, end to end, as root on a Debian 12 machine that
# scripts/install-deps.sh has prepared and where BUILD_DIR is a configured
# build (scripts/test.sh's build/):
#   - cpack -G DEB in BUILD_DIR: pfnmap_VERSION_ARCH.deb, pfnmap-dkms_VERSION_all.deb
#   - lintian on every package cpack made: no error, no warning, no
#     informational tag, no override; the control fields; the binary
#     stripped, its debug information in BUILD_DIR/cli/pfnmap.debug (the
#     same build ID)
#   - apt-get install ./both.deb (pfnmap-dkms's postinst adds the module to
#     DKMS and builds it for the kernels whose headers are installed)
#   - every file lands where it should (dpkg -L), the installed pfnmap runs,
#     man finds its pages, bash, zsh and fish find the completions
#   - dkms build and dkms install pfnmap/VERSION for the newest 6.1 amd64
#     kernel in /lib/modules, from the installed /usr/src/pfnmap-VERSION
#   - dkms build pfnmap/VERSION for Debian's arm64 kernel of that version,
#     cross (-a aarch64, the headers scripts/install-deps.sh unpacks): an
#     AArch64 pfnmap.ko with the arm64 vermagic, no warning in make.log;
#     then dkms unbuild, leaving no arm64 entry in DKMS or /lib/modules
#   - apt-get purge both, which takes the module out of DKMS again: no file
#     of either package left, nothing of pfnmap under /usr/src,
#     /var/lib/dkms or /lib/modules/*/updates
# The packages are purged on failure too. Exit status 0 when all is well.
set -euo pipefail

if [ $# != 1 ] || [ ! -e "$1/CMakeCache.txt" ]; then
	echo "usage: scripts/ci-packages.sh BUILD_DIR (a configured build)" >&2
	exit 64
fi
if [ "$(id -u)" != 0 ]; then
	echo "ci-packages: needs root (apt-get install, dkms)" >&2
	exit 1
fi
build=$(cd "$1" && pwd)

export DEBIAN_FRONTEND=noninteractive
apt_get() { apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }
say() { printf 'ci-packages: %s\n' "$*"; }
die() { printf 'ci-packages: FAIL: %s\n' "$*" >&2; exit 1; }

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || die "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
arch=$(dpkg --print-architecture)

# The newest 6.1 amd64 kernel with a build directory
kver=$(for d in /lib/modules/6.1.*-amd64; do
	if [ -e "$d/build/Makefile" ]; then echo "${d#/lib/modules/}"; fi
done | sort -V | tail -n1)
[ -n "$kver" ] || die "no 6.1 amd64 kernel with headers in /lib/modules (linux-headers-amd64)"

purge() {
	local p installed=()
	for p in pfnmap pfnmap-dkms; do
		# not `dpkg-query | grep -q` under pipefail (grep may leave
		# dpkg-query a SIGPIPE); installed, or removed with its conffiles
		case $(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true) in
		'' | not-installed) ;;
		*) installed+=("$p") ;;
		esac
	done
	if [ ${#installed[@]} -gt 0 ]; then
		apt_get purge "${installed[@]}"
	fi
}
# a package left over from an earlier run would not be reinstalled
purge
# shellcheck disable=SC2154 # rc is set in the trap
trap 'rc=$?; [ $rc = 0 ] || { say "failed; removing the packages"; purge || true; }' EXIT

say "building pfnmap $version packages in $build"
rm -f "$build"/pfnmap*.deb "$build"/pfnmap*.ddeb
out=$(cd "$build" && cpack -G DEB)
printf '%s\n' "$out"
# every package cpack made, as it names them
made=()
while IFS= read -r l; do
	if [[ $l =~ ^'CPack: - package: '(.*)' generated.'$ ]]; then
		made+=("${BASH_REMATCH[1]}")
	fi
done <<<"$out"
tool=$build/pfnmap_${version}_${arch}.deb
dkmsdeb=$build/pfnmap-dkms_${version}_all.deb
[ -e "$tool" ] || die "cpack made no $tool"
[ -e "$dkmsdeb" ] || die "cpack made no $dkmsdeb"
depends=$(dpkg-deb -f "$tool" Depends)
[[ $depends == *libpci3* ]] ||
	die "pfnmap's Depends lack the shared libraries: $depends"
[ "$(dpkg-deb -f "$dkmsdeb" Architecture)" = all ] || die "pfnmap-dkms is not Architecture: all"
[ "$(dpkg-deb -f "$dkmsdeb" Depends)" = dkms ] || die "pfnmap-dkms does not depend on dkms"
maintainer='pfnmap maintainers <pfnmap@pfnmap.invalid>'
for deb in "$tool" "$dkmsdeb"; do
	f=$(dpkg-deb -f "$deb" Maintainer Priority Homepage)
	[ "$f" = "Maintainer: $maintainer"$'\n'"Priority: optional" ] ||
		die "$(basename "$deb"): Maintainer, Priority, no Homepage: '$f'"
done
[ "$(dpkg-deb -f "$tool" Section)" = admin ] || die "pfnmap is not Section: admin"
[ "$(dpkg-deb -f "$dkmsdeb" Section)" = kernel ] || die "pfnmap-dkms is not Section: kernel"

# lintian on every package cpack made: no tag at all, informational ones
# included, and nothing overridden (the packages ship no overrides).
# (lintian says on stderr that it runs as root, which it does not
# recommend: here it unpacks the packages only.)
[ ${#made[@]} = 2 ] || die "cpack made other packages than pfnmap and pfnmap-dkms: ${made[*]}"
for deb in "${made[@]}"; do
	say "lintian --fail-on error,warning,info --display-info --show-overrides $(basename "$deb")"
	out=$(lintian --fail-on error,warning,info --display-info \
		--show-overrides "$deb") || rc_l=$?
	printf '%s\n' "${out:-(no tags)}"
	if [ "${rc_l:-0}" != 0 ] || [ -n "$out" ]; then
		die "lintian has tags for $(basename "$deb")"
	fi
done

# The binary stripped; its debug information in the build directory, with
# the same build ID (cli/CMakeLists.txt)
tmp=$(mktemp -d)
dpkg-deb -x "$tool" "$tmp"
sections=$(readelf -SW "$tmp/usr/bin/pfnmap")
for s in .symtab .debug_info .comment; do
	[[ $sections != *" $s "* ]] || die "the packaged pfnmap has a $s section"
done
id=$(readelf -n "$tmp/usr/bin/pfnmap" | sed -n 's/^ *Build ID: //p')
rm -rf "$tmp"
dbg=$(readelf -n "$build/cli/pfnmap.debug" 2>/dev/null | sed -n 's/^ *Build ID: //p')
if [ -z "$id" ] || [ "$id" != "$dbg" ]; then
	die "build IDs: packaged pfnmap '$id', $build/cli/pfnmap.debug '$dbg'"
fi
say "pfnmap stripped, its debug information in cli/pfnmap.debug (build ID $id)"

say "installing $(basename "$tool") $(basename "$dkmsdeb")"
apt_get install --no-install-recommends "$tool" "$dkmsdeb"

# Every file where it should be, and in the package it belongs to
bashcomp=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null ||
	echo /usr/share/bash-completion/completions)
# shellcheck source=packaging/installed-files.sh
. "$(dirname "$0")/../packaging/installed-files.sh"
declare -A listed
check_files() {
	local pkg=$1 f list n=0
	list=$(dpkg -L "$pkg")
	listed[$pkg]=$list
	while IFS= read -r f; do
		grep -qxF -- "$f" <<<"$list" || die "dpkg -L $pkg: no $f"
		[ -f "$f" ] || die "$f (of $pkg) is not on disk"
		n=$((n + 1))
	done < <(pfnmap_files "$pkg" "$version" "$bashcomp")
	[ $n -gt 0 ] || die "no file list for $pkg"
	say "dpkg -L $pkg: all $n files in place"
}
check_files pfnmap
check_files pfnmap-dkms
src=/usr/src/pfnmap-$version
[ ! -e /etc/modules-load.d/pfnmap.conf ] ||
	die "/etc/modules-load.d/pfnmap.conf exists: the example must not be active"

out=$(/usr/bin/pfnmap --version)
[ "$out" = "pfnmap $version" ] || die "pfnmap --version: '$out'"
say "pfnmap --version: $out"
out=$(man -w pfnmap)
[ "$out" = /usr/share/man/man8/pfnmap.8.gz ] || die "man -w pfnmap: '$out'"
out=$(man -w 4 pfnmap)
[ "$out" = /usr/share/man/man4/pfnmap.4.gz ] || die "man -w 4 pfnmap: '$out'"
out=$(MANWIDTH=80 man 8 pfnmap 2>&1)
[[ $out == *NAME* ]] || die "man 8 pfnmap shows no page: '${out:0:200}'"
say "man -w pfnmap, man -w 4 pfnmap: found; man reads the compressed page"
out=$(dpkg-parsechangelog -l /usr/share/doc/pfnmap/changelog.gz -S Version)
[ "$out" = "$version" ] || die "changelog.gz: version '$out', not $version"
say "changelog.gz: version $out"

# The shells find the completions where the package put them
out=$(bash -c '. /usr/share/bash-completion/bash_completion
	_completion_loader pfnmap; complete -p pfnmap' 2>&1)
[ "$out" = "complete -F _pfnmap pfnmap" ] || die "bash: '$out'"
out=$(zsh -fc 'autoload -Uz compinit; compinit -u -D; print -r -- $_comps[pfnmap]')
[ "$out" = _pfnmap ] || die "zsh: \$_comps[pfnmap] is '$out'"
fishhome=$(mktemp -d)
out=$(HOME=$fishhome XDG_CONFIG_HOME=$fishhome/.config XDG_DATA_HOME=$fishhome/.local \
	fish -c 'complete -C "pfnmap --vers"' | cut -f1)
rm -rf "$fishhome"
[ "$out" = --version ] || die "fish: 'pfnmap --vers' completes to '$out'"
say "bash, zsh and fish load the installed completions"

# DKMS, from the installed tree
# (whole outputs: `dkms ... | grep -q` would end dkms by SIGPIPE)
st=$(dkms status -m pfnmap -v "$version")
[ -n "$st" ] || die "pfnmap-dkms's postinst did not add pfnmap/$version to DKMS"
say "dkms status after the install:"
printf '%s\n' "$st"
# The postinst (DKMS's common.postinst, as dh_dkms calls it) builds and
# installs the module for the running kernel and the newest one; when the
# running kernel is not installed here (a container, a chroot: CI), for
# every kernel in /lib/modules. Each of those with headers must have it.
if [ ! -e "/lib/modules/$(uname -r)" ]; then
	for d in /lib/modules/*/build; do
		[ -e "$d/include" ] || continue
		k=${d#/lib/modules/}
		k=${k%/build}
		st=$(dkms status -m pfnmap -v "$version" -k "$k")
		[[ $st == *": installed"* ]] ||
			die "the postinst did not install pfnmap for $k: '$st'"
	done
	say "the postinst installed pfnmap for every kernel with headers"
fi
# The postinst has built it for the kernels with headers; build it afresh
st=$(dkms status -m pfnmap -v "$version" -k "$kver")
if grep -qF ", $kver," <<<"$st"; then
	dkms unbuild "pfnmap/$version" -k "$kver"
fi
say "dkms build pfnmap/$version -k $kver"
dkms build "pfnmap/$version" -k "$kver"
dkms install "pfnmap/$version" -k "$kver"
ko=/lib/modules/$kver/updates/dkms/pfnmap.ko
[ -e "$ko" ] || [ -e "$ko.xz" ] || [ -e "$ko.zst" ] || [ -e "$ko.gz" ] ||
	die "dkms install put no pfnmap.ko into /lib/modules/$kver/updates/dkms"
vermagic=$(modinfo -F vermagic "$(ls "$ko"*)")
[ "${vermagic%% *}" = "$kver" ] || die "pfnmap.ko has vermagic '$vermagic'"
st=$(dkms status -m pfnmap -v "$version" -k "$kver")
[[ $st == *": installed"* ]] || die "dkms status for $kver: '$st'"
say "dkms: pfnmap/$version built and installed for $kver"

# The same installed sources for Debian's arm64 and armhf (armmp-lpae)
# kernels of that version, cross-compiled: `-a aarch64` or `-a armv7l`
# (what `uname -m` says on such a board) makes dkms.conf give Kbuild ARCH=
# and CROSS_COMPILE=. The headers are the ones scripts/install-deps.sh
# unpacks (scripts/cross-module-check.sh ARCH --fetch-only), and
# --kernelsourcedir points DKMS at them: nothing of theirs enters
# /lib/modules, where scripts/test.sh would build for it with the host's
# compiler. Built only, checked, and taken out of DKMS again.
# dkms_cross DEBIAN-ARCH DKMS-ARCH FLAVOUR READELF-MACHINE
dkms_cross() {
	local darch=$1 march=$2 akver=${kver%-amd64}-$3 machine=$4
	local akdir abase ako elf vermagic alog st t0 ms

	akdir=${PFNMAP_CROSS_ROOT:-/usr/lib/pfnmap}-$darch/usr/src/linux-headers-$akver
	if [ ! -e "$akdir/Makefile" ] || [ ! -e "$akdir/scripts/Makefile.build" ]; then
		die "no $darch headers for $akver at $akdir (scripts/install-deps.sh)"
	fi
	[ ! -e "/lib/modules/$akver" ] ||
		die "/lib/modules/$akver exists: a $darch kernel tree among the host's"
	say "dkms build pfnmap/$version -k $akver -a $march --kernelsourcedir $akdir"
	t0=$(date +%s%N)
	dkms build "pfnmap/$version" -k "$akver" -a "$march" --kernelsourcedir "$akdir"
	ms=$((($(date +%s%N) - t0) / 1000000))
	abase=/var/lib/dkms/pfnmap/$version/$akver/$march
	[ ! -e "/lib/modules/$akver" ] || die "dkms build for $darch made /lib/modules/$akver"
	ako=$abase/module/pfnmap.ko
	[ -f "$ako" ] || die "dkms build for $akver made no $ako: $(ls "$abase/module" 2>&1)"
	elf=$(readelf -h "$ako")
	printf '%s\n' "$elf" | grep -E '^ *(Type|Machine):'
	[[ $elf =~ Type:\ +REL\  ]] || die "$ako is not an ELF relocatable"
	[[ $elf =~ Machine:\ +$machine$'\n' ]] || die "$ako is not $machine"
	vermagic=$(modinfo -F vermagic "$ako")
	say "vermagic: $vermagic"
	[ "${vermagic%% *}" = "$akver" ] || die "the $darch pfnmap.ko has vermagic '$vermagic'"
	alog=$(cat "$abase/log/make.log")
	if grep -qi 'warning' <<<"$alog"; then
		printf '%s\n' "$alog" >&2
		die "dkms's make.log for $akver has warnings"
	fi
	st=$(dkms status -m pfnmap -v "$version" -k "$akver" -a "$march")
	[[ $st == *": built"* ]] || die "dkms status for $akver: '$st'"
	say "dkms: pfnmap/$version built for $akver ($march) in $((ms / 1000)).$((ms % 1000 / 100)) s, no warnings"
	dkms unbuild "pfnmap/$version" -k "$akver/$march"
	[ ! -e "$abase" ] || die "dkms unbuild left $abase"
	# (status names the module as added, with no kernel, whatever -k says)
	st=$(dkms status -m pfnmap)
	[[ $st != *"$akver"* ]] || die "DKMS still has the $darch build: $st"
	say "dkms unbuild: no $darch build left in DKMS, no /lib/modules/$akver"
}
dkms_cross arm64 aarch64 arm64 AArch64
dkms_cross armhf armv7l armmp-lpae ARM

say "removing the packages"
apt_get purge pfnmap pfnmap-dkms
# Nothing left behind: no file either package had (their directories may
# stay when other packages share them), nothing of pfnmap's in DKMS's tree
# or among any kernel's modules
for p in pfnmap pfnmap-dkms; do
	while IFS= read -r f; do
		if [ -e "$f" ] && [ ! -d "$f" ]; then
			die "$f (of $p) is still there after the purge"
		fi
	done <<<"${listed[$p]}"
done
[ ! -e "$src" ] || die "$src is still there after the purge"
left=$(find /usr/src /var/lib/dkms /lib/modules/*/updates -name 'pfnmap*' 2>/dev/null || true)
[ -z "$left" ] || die "left after the purge: $left"
[ -z "$(dkms status -m pfnmap)" ] || die "DKMS still knows pfnmap: $(dkms status -m pfnmap)"
say "purged: nothing of pfnmap under /usr/src, /var/lib/dkms, /lib/modules/*/updates"
say "all is well"
