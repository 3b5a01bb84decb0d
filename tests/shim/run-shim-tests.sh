#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The CLI's libkmod loading path under initmod-shim.so: the real pfnmap
# binary, with the shim preloaded faking finit_module()/init_module() (the
# errno each case names), uname() (release 0.0.0-pfnmap-shim) and the paths
# the loading reads (/lib/modules, /sys/module, /dev/pfnmap, /proc/self/status,
# lockdown, modules_disabled: a scratch tree per case). Each case checks the
# exit status, the exact stderr (one "pfnmap: " line), an empty stdout and
# the exact shim log (which insertion calls, with which module).
#
#   run-shim-tests.sh PFNMAP SHIM.so FAKE.ko [CASE...]	all cases, or these
#   run-shim-tests.sh --list				the case names
#
# PFNMAP_TEST_RUNNER: an emulator (qemu-i386) to run PFNMAP with; the shim
# then goes in as its -E LD_PRELOAD=, not into the emulator itself.
# Exit status: 0 all passed, 1 a case failed, 77 all skipped (no depmod).
set -u

release=0.0.0-pfnmap-shim
caps_all=000001ffffffffff
caps_nomod=000001fffffeffff	# all but CAP_SYS_MODULE (16)
appeared="the helper module is loaded but /dev/pfnmap did not appear; is\
 devtmpfs mounted on /dev? (see dmesg)"
rebuild="it was built for another kernel than $release (or is not a module);\
 rebuild it against /lib/modules/$release/build"
unsigned="the kernel requires a valid module signature (module.sig_enforce or\
 Secure Boot); sign it with a key the kernel trusts (see DKMS, mokutil)"
byname="the helper module pfnmap"
modpath=/lib/modules/$release/extra/pfnmap.ko

# --- the cases: case_<name with _ for ->; each ends with expect -------------

case_module_eperm_nocap() {
	caps $caps_nomod
	run EPERM --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: loading modules needs root\
 (CAP_SYS_MODULE); try sudo" "$(finit "$dir/mod/pfnmap.ko" EPERM)"
}

case_module_eperm_disabled() {
	put proc/sys/kernel/modules_disabled 1
	run EPERM --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: module loading is disabled until\
 the next boot (kernel.modules_disabled=1)" "$(finit "$dir/mod/pfnmap.ko" EPERM)"
}

case_module_eperm_lockdown() {
	put proc/sys/kernel/modules_disabled 0
	put sys/kernel/security/lockdown "none [integrity] confidentiality"
	run EPERM --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: the kernel is locked down\
 (integrity) and refuses modules without a trusted signature; sign the module\
 with a key the kernel trusts (see DKMS, mokutil)" \
		"$(finit "$dir/mod/pfnmap.ko" EPERM)"
}

case_module_eperm_other() {
	put sys/kernel/security/lockdown "[none] integrity confidentiality"
	run EPERM --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: the kernel refuses it (a security\
 module or policy; see dmesg)" "$(finit "$dir/mod/pfnmap.ko" EPERM)"
}

case_module_ekeyrejected() {
	run EKEYREJECTED --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: $unsigned" \
		"$(finit "$dir/mod/pfnmap.ko" EKEYREJECTED)"
}

case_module_enoexec() {
	run ENOEXEC --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: $rebuild" \
		"$(finit "$dir/mod/pfnmap.ko" ENOEXEC)"
}

case_module_enoent() {
	run ENOENT --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: no such file, or a symbol it\
 needs is missing from kernel $release (see dmesg)" \
		"$(finit "$dir/mod/pfnmap.ko" ENOENT)"
}

# CONFIG_MODULES=n: finit_module gives ENOSYS, libkmod then tries init_module
case_module_enosys() {
	run ENOSYS --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "cannot load $dir/mod/pfnmap.ko: this kernel has no module\
 support (CONFIG_MODULES is off); use --device=/dev/mem" \
		"$(finit "$dir/mod/pfnmap.ko" ENOSYS)" \
		"init_module name=pfnmap len=$(stat -c %s "$ko") params=\"\" -> ENOSYS"
}

case_module_loaded() {
	run 0 --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "$appeared" "$(finit "$dir/mod/pfnmap.ko" 0)"
}

case_module_eexist() {
	run EEXIST --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "$appeared" "$(finit "$dir/mod/pfnmap.ko" EEXIST)"
}

# libkmod makes the path absolute; the message keeps it as given
case_module_relative() {
	run ENOEXEC --module=mod/pfnmap.ko read 0x1000
	expect 3 "cannot load mod/pfnmap.ko: $rebuild" \
		"$(finit "$dir/mod/pfnmap.ko" ENOEXEC)"
}

case_module_missing() {
	run 0 --module="$dir/mod/missing.ko" read 0x1000
	expect 3 "cannot load $dir/mod/missing.ko: No such file or directory"
}

case_name_loaded() {
	needs_depmod && modtree || return
	run 0 read 0x1000
	expect 3 "$appeared" "$(finit $modpath 0)"
}

# By name, as modprobe would: a blacklist in modprobe.d is honoured
case_name_blacklisted() {
	needs_depmod && modtree || return
	put etc/modprobe.d/pfnmap.conf "blacklist pfnmap"
	run 0 read 0x1000
	expect 3 "cannot load $byname: it is blacklisted in modprobe.d; load it\
 with modprobe pfnmap, or give --module=PATH"
}

# --module is the user's own choice: the blacklist does not apply
case_module_blacklisted() {
	put etc/modprobe.d/pfnmap.conf "blacklist pfnmap"
	run 0 --module="$dir/mod/pfnmap.ko" read 0x1000
	expect 3 "$appeared" "$(finit "$dir/mod/pfnmap.ko" 0)"
}

case_name_enoexec() {
	needs_depmod && modtree || return
	run ENOEXEC read 0x1000
	expect 3 "cannot load $byname: $rebuild" "$(finit $modpath ENOEXEC)"
}

case_name_ekeyrejected() {
	needs_depmod && modtree || return
	run EKEYREJECTED read 0x1000
	expect 3 "cannot load $byname: $unsigned" "$(finit $modpath EKEYREJECTED)"
}

case_name_eperm_nocap() {
	needs_depmod && modtree || return
	caps $caps_nomod
	run EPERM read 0x1000
	expect 3 "cannot load $byname: loading modules needs root (CAP_SYS_MODULE);\
 try sudo" "$(finit $modpath EPERM)"
}

# libkmod sees /sys/module/pfnmap live and inserts nothing
case_name_live() {
	needs_depmod && modtree || return
	put sys/module/pfnmap/initstate live
	run 0 read 0x1000
	expect 3 "$appeared"
}

case_name_not_installed() {
	run 0 read 0x1000
	expect 3 "the helper module pfnmap is not installed for kernel $release;\
 build it and give --module=PATH/pfnmap.ko, or install pfnmap-dkms"
}

case_no_load() {
	needs_depmod && modtree || return
	run 0 --no-load read 0x1000
	expect 3 "/dev/pfnmap does not exist and --no-load forbids loading the\
 helper; load it (modprobe pfnmap) or drop --no-load"
}

# --- the machinery -----------------------------------------------------------

# The log line of a finit_module() call on the file PATH giving RESULT
finit() {
	printf 'finit_module path=%s params="" flags=0x0 -> %s' "$1" "$2"
}

# put FILE TEXT: FILE (relative to the shim root) holds the line TEXT
put() {
	mkdir -p "$(dirname "$dir/root/$1")" && printf '%s\n' "$2" > "$dir/root/$1"
}

# caps HEX: the effective capabilities /proc/self/status shows
caps() {
	put proc/self/status "$(printf 'Name:\tpfnmap\nCapEff:\t%s' "$1")"
}

needs_depmod() {
	[ -n "$depmod" ] && return 0
	echo "SKIP $name: no depmod (package kmod) to write modules.dep.bin"
	skipped=1
	return 1
}

# /lib/modules/$release with pfnmap.ko in extra/, indexed by depmod
modtree() {
	local d=$dir/root/lib/modules/$release

	mkdir -p "$d/extra" && cp "$ko" "$d/extra/pfnmap.ko" &&
		echo extra/pfnmap.ko > "$d/modules.order" &&
		: > "$d/modules.builtin" && : > "$d/modules.builtin.modinfo" &&
		"$depmod" -b "$dir/root" "$release" && return 0
	fail "depmod -b $dir/root $release failed"
	return 1
}

# run ERRNO ARGS...: pfnmap ARGS in $dir, the insertion failing with ERRNO
run() {
	local e=$1

	shift
	: > "$dir/log"
	(cd "$dir" && exec env LC_ALL=C PFNMAP_SHIM_ERRNO="$e" \
		PFNMAP_SHIM_LOG="$dir/log" PFNMAP_SHIM_ROOT="$dir/root" \
		PFNMAP_SHIM_RELEASE=$release "${preload[@]}" "$bin" "$@") \
		> "$dir/out" 2> "$dir/err"
	rc=$?
	ran="pfnmap $*"
}

# expect RC MESSAGE [LOGLINE...]: exit status, stderr line, shim log
expect() {
	local want_rc=$1 msg=$2

	shift 2
	[ "$rc" = "$want_rc" ] || fail "$ran: exit status $rc, expected $want_rc"
	same err "$(printf 'pfnmap: %s\n' "$msg")" "stderr"
	same out "" "stdout"
	same log "$(printf '%s\n' "$@" | grep -v '^$')" "the shim log"
}

# same FILE TEXT WHAT: $dir/FILE holds TEXT exactly (plus its newline)
same() {
	local want=$dir/$1.want

	if [ -n "$2" ]; then
		printf '%s\n' "$2" > "$want"
	else
		: > "$want"
	fi
	cmp -s "$want" "$dir/$1" && return 0
	fail "$ran: $3 differs (expected, got):"
	diff -u "$want" "$dir/$1" | sed -n '3,$p'
}

fail() {
	echo "FAIL $name: $*"
	failed=1
}

list() {
	declare -F | sed -n 's/^declare -f case_//p' | tr _ -
}

if [ "${1:-}" = --list ]; then
	list
	exit 0
fi
if [ $# -lt 3 ]; then
	echo "usage: $0 PFNMAP SHIM.so FAKE.ko [CASE...] | --list" >&2
	exit 2
fi
bin=$(realpath "$1") shim=$(realpath "$2") ko=$(realpath "$3")
shift 3
cases=("$@")
[ ${#cases[@]} -gt 0 ] || mapfile -t cases < <(list)
for f in "$bin" "$shim" "$ko"; do
	[ -f "$f" ] || { echo "$0: no $f" >&2; exit 2; }
done
depmod=$(PATH=$PATH:/usr/sbin:/sbin command -v depmod)
if [ -n "${PFNMAP_TEST_RUNNER:-}" ]; then
	read -r -a preload <<< "$PFNMAP_TEST_RUNNER"
	preload+=(-E "LD_PRELOAD=$shim")
else
	preload=("LD_PRELOAD=$shim")
fi
# readlink(/proc/self/fd/N) in the shim gives paths without symlinks
work=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-shim.XXXXXX")" && pwd -P) ||
	exit 2
trap 'rm -rf "$work"' EXIT

status=0 ran_one=0
for name in "${cases[@]}"; do
	if ! declare -F "case_${name//-/_}" > /dev/null; then
		echo "$0: no case $name (see --list)" >&2
		exit 2
	fi
	dir=$work/$name failed=0 skipped=0
	mkdir -p "$dir/mod" "$dir/root/proc/self" && cp "$ko" "$dir/mod/" &&
		: > "$dir/root/proc/cmdline" || exit 2
	caps $caps_all
	"case_${name//-/_}"
	if [ $failed = 1 ]; then
		status=1
	elif [ $skipped = 0 ]; then
		echo "ok $name"
		ran_one=1
	fi
done
[ $status = 0 ] && [ $ran_one = 0 ] && status=77
exit $status
