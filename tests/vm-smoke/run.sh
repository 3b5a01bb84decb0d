#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pfnmap helper smoke test in QEMU (TCG) guests that boot Debian's kernels.
#
#   tests/vm-smoke/run.sh [KERNEL_VERSION...]
#
# Default: every kernel that has both /boot/vmlinuz-VER and
# /lib/modules/VER/build.  Per kernel: builds kmod/ out of tree in a scratch
# directory, builds tests/vm-smoke/smoke.c static (-m32 for a 32-bit
# kernel; on a 64-bit kernel also a -m32 copy for the compat paths), packs
# busybox + pfnmap.ko + smoke + guest-init.sh into an initramfs, boots it
# and prints the guest's PASS/FAIL/SKIP/INFO lines.
# Needs qemu-system-x86, busybox-static (and busybox-static:i386 for a
# 32-bit guest, see scripts/install-deps.sh --vm), cpio, gcc(-multilib).
# Exit status: 0 if every kernel passed.  KEEP=1 keeps the work directories.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
timeout_s=${SMOKE_TIMEOUT:-600}

msg() { printf '%s\n' "$*"; }

is_32bit() {
	grep -q '^CONFIG_X86_32=y' "/boot/config-$1" 2>/dev/null
}

busybox_for() {
	local cand
	if is_32bit "$1"; then
		for cand in "${BUSYBOX_I386:-}" /usr/lib/pfnmap-i386/busybox; do
			[ -n "$cand" ] && [ -x "$cand" ] && { echo "$cand"; return; }
		done
		# fetch the i386 busybox-static package without installing it
		(cd "$2" && apt-get download -q busybox-static:i386 >/dev/null &&
		 dpkg-deb -x busybox-static_*_i386.deb bb-i386) || return 1
		echo "$2/bb-i386/bin/busybox"
	else
		echo /bin/busybox
	fi
}

build_initrd() {
	local kver=$1 work=$2 bb cflags=() m32
	local root=$work/root

	mkdir -p "$work/kmod" "$root"/{bin,dev,proc,sys,tmp}
	cp -r "$top/kmod/." "$work/kmod/"
	if ! make -s -C "/lib/modules/$kver/build" M="$work/kmod" W=1 modules \
		> "$work/kbuild.log" 2>&1; then
		cat "$work/kbuild.log"
		return 1
	fi
	grep -i 'warning' "$work/kbuild.log" && msg "FAIL: $kver: module build warnings"

	# 32-bit kernel: a 32-bit /smoke; 64-bit kernel: /smoke and a
	# 32-bit /smoke32 for the compat paths
	m32=(-m32 -D_FILE_OFFSET_BITS=64)
	is_32bit "$kver" && cflags=("${m32[@]}")
	gcc "${cflags[@]}" -O2 -Wall -Wextra -static -I"$top/kmod/uapi" \
		-o "$root/smoke" "$here/smoke.c" || return 1
	if ! is_32bit "$kver"; then
		gcc "${m32[@]}" -O2 -Wall -Wextra -static -I"$top/kmod/uapi" \
			-o "$root/smoke32" "$here/smoke.c" || return 1
	fi

	bb=$(busybox_for "$kver" "$work") || { msg "no busybox for $kver"; return 1; }
	cp "$bb" "$root/bin/busybox"
	cp "$work/kmod/pfnmap.ko" "$root/pfnmap.ko"
	install -m755 "$here/guest-init.sh" "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"
}

boot() {
	local kver=$1 work=$2 shm=$3

	# shellcheck disable=SC2016 # the $ of memmap= is literal
	timeout "$timeout_s" qemu-system-x86_64 -accel tcg -cpu max -m 7G -smp 1 \
		-nographic -no-reboot -net none \
		-kernel "/boot/vmlinuz-$kver" -initrd "$work/initrd.gz" \
		-append 'console=ttyS0 quiet panic=-1 memmap=4M$0x180000000' \
		-device edu \
		-object "memory-backend-file,id=hm,mem-path=$shm,size=2G,share=on" \
		-device ivshmem-plain,memdev=hm \
		< /dev/null > "$work/console.log" 2>&1
}

run_one() {
	local kver=$1 work shm rc=0 t0

	work=$(mktemp -d "${TMPDIR:-/tmp}/pfnmap-smoke.XXXXXX")
	shm=/dev/shm/pfnmap-smoke-$$-$RANDOM
	msg "=== $kver"
	if ! build_initrd "$kver" "$work"; then
		msg "FAIL: $kver: build"
		return 1
	fi
	t0=$(date +%s)
	boot "$kver" "$work" "$shm"
	msg "INFO: $kver: guest ran $(( $(date +%s) - t0 )) s"
	tr -d '\r' < "$work/console.log" |
		grep -E '^(PASS|FAIL|SKIP|INFO|DMESG|SMOKE)' | tee "$work/result.log"

	if head -c 64 "$shm" 2>/dev/null | grep -q 'pfnmap-smoke-ivshmem'; then
		msg "PASS: host sees the guest's write through ivshmem BAR2"
	else
		msg "FAIL: host does not see the guest's ivshmem write"
		rc=1
	fi
	rm -f "$shm"
	grep -q '^FAIL' "$work/result.log" && rc=1
	if ! grep -q '^SMOKE-DONE' "$work/result.log"; then
		msg "FAIL: $kver: guest did not finish; console log: $work/console.log"
		tail -n 30 "$work/console.log"
		return 1
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		msg "INFO: work directory $work"
	else
		rm -rf "$work"
	fi
	msg "RESULT: $kver: $([ $rc = 0 ] && echo PASS || echo FAIL)"
	return $rc
}

kernels=("$@")
if [ ${#kernels[@]} = 0 ]; then
	for d in /lib/modules/*/build; do
		k=$(basename "$(dirname "$d")")
		[ -e "/boot/vmlinuz-$k" ] && kernels+=("$k")
	done
fi
[ ${#kernels[@]} = 0 ] && { msg "no kernel with image and headers found"; exit 1; }

status=0
for k in "${kernels[@]}"; do
	run_one "$k" || status=1
done
exit $status
