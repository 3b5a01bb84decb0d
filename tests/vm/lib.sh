#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host side of the QEMU guest tests, shared by run.sh and demo.sh (sourced):
# find a guest's kernel, build pfnmap.ko against its headers, pack an
# initramfs (busybox, the CLI and its shared libraries, the module, the
# probe program, guest scripts) and boot it under QEMU (TCG).
#
# Guest machine: 4 MiB hidden above 4 GiB (memmap=4M$0x180000000), System
# RAM ending at 0x1f4000000 with no resource after it up to the 64-bit PCI
# window (mem=8000M: at a 64 MiB boundary, where e820 puts no "RAM buffer"
# after RAM), a CPU with 52 physical address bits (more than a 32-bit
# kernel's vm_pgoff holds), QEMU's edu device, an ivshmem-plain device on a
# 2 GiB sparse file (BAR2 above 4 GiB) and an e1000e NIC (no network; its
# driver claims its BARs exclusively). See
# /work/shared/notes/vm-testing.md for why -cpu max and TCG.
#
# The ARM guests (6.1-arm64, 6.1-armhf) boot Debian's arm64 and armmp-lpae
# kernels, unpacked with their modules and headers under
# $PFNMAP_CROSS_ROOT-ARCH (default /usr/lib/pfnmap-arm64 and -armhf, where
# scripts/cross-module-check.sh ARCH --guest puts them: their packages'
# dependencies would pull in cross toolchains), on QEMU's virt machine: RAM
# from 0x40000000; arm64: mem=4G with 6 GiB leaves 0x140000000-0x1bfffffff
# outside System RAM (no memmap= on ARM); armhf (LPAE, 32-bit): mem=3G
# with 5 GiB + 4 MiB leaves 0x100000000-0x1803fffff; the same devices,
# their 64-bit BARs from 0x8000000000, and no firmware: memory decoding of
# a device without a driver is off until the guest turns it on.

vm_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
vm_top=$(cd "$vm_here/../.." && pwd)

vm_cross_root=${PFNMAP_CROSS_ROOT:-/usr/lib/pfnmap}

vm_die() { printf 'vm: %s\n' "$*" >&2; exit 1; }

# Kernel $1's Debian architecture: amd64, i386, arm64 or armhf
vm_arch() {
	case $1 in
	*-arm64) echo arm64 ;;
	*-armmp*) echo armhf ;;
	*) if vm_is_32bit "$1"; then echo i386; else echo amd64; fi ;;
	esac
}

vm_is_arm64() { [ "$(vm_arch "$1")" = arm64 ]; }

# A kernel of another architecture, unpacked under /usr/lib/pfnmap-ARCH
vm_is_cross() {
	case $(vm_arch "$1") in arm*) return 0 ;; esac
	return 1
}

# Where kernel $1's files are: under the unpacked tree for arm64 and
# armhf, else the host's installed kernels (an empty prefix)
vm_root() {
	if vm_is_cross "$1"; then
		printf '%s-%s\n' "$vm_cross_root" "$(vm_arch "$1")"
	fi
}

vm_image() { printf '%s/boot/vmlinuz-%s\n' "$(vm_root "$1")" "$1"; }
vm_moddir() { printf '%s/lib/modules/%s\n' "$(vm_root "$1")" "$1"; }

# The kernel's build directory (the cross headers' build link is absolute,
# into the tree they were packaged for)
vm_kbuild() {
	if vm_is_cross "$1"; then
		printf '%s/usr/src/linux-headers-%s\n' "$(vm_root "$1")" "$1"
	else
		printf '/lib/modules/%s/build\n' "$1"
	fi
}

# Kbuild's cross arguments for kernel $1
vm_kbuild_cross() {
	case $(vm_arch "$1") in
	arm64) echo ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- ;;
	armhf) echo ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- ;;
	esac
}

# The C compiler and flags for kernel $1's user space
vm_cc() {
	case $(vm_arch "$1") in
	arm64) echo aarch64-linux-gnu-gcc ;;
	armhf) echo arm-linux-gnueabihf-gcc ;;
	i386) echo gcc -m32 ;;
	*) echo gcc ;;
	esac
}

# The multiarch directory of kernel $1's user-space libraries
vm_libdir() {
	case $(vm_arch "$1") in
	arm64) echo /lib/aarch64-linux-gnu ;;
	armhf) echo /lib/arm-linux-gnueabihf ;;
	i386) echo /lib/i386-linux-gnu ;;
	*) echo /lib/x86_64-linux-gnu ;;
	esac
}

# What readelf -h says for kernel $1's programs: "CLASS MACHINE"
vm_elf() {
	case $(vm_arch "$1") in
	arm64) echo 'ELF64 AArch64' ;;
	armhf) echo 'ELF32 ARM' ;;
	i386) echo 'ELF32 Intel 80386' ;;
	*) echo 'ELF64 Advanced Micro Devices X86-64' ;;
	esac
}

# The serial console device of kernel $1's machine
vm_console() {
	if vm_is_cross "$1"; then echo ttyAMA0; else echo ttyS0; fi
}

# vm_qemu_cmd KVER: QEMU and its machine for the kernel, into the array
# vm_qemu (the caller adds memory, devices and the kernel). arm64: pointer
# authentication with QEMU's own cheap algorithm instead of the
# architected QARMA, which TCG computes slowly (the vm run: 127 s -> 52 s;
# the kernel still signs and checks its return addresses). armhf: virt's
# highmem puts RAM past 4 GiB and the 64-bit PCI window at 512 GiB within
# LPAE's 40 bits; a Cortex-A15 has LPAE. VM_CPU names another arm64 CPU.
vm_qemu_cmd() {
	case $(vm_arch "$1") in
	arm64) vm_qemu=(qemu-system-aarch64 -M virt -accel tcg
		-cpu "${VM_CPU:-max,pauth-impdef=on}") ;;
	armhf) vm_qemu=(qemu-system-arm -M "virt,highmem=on" -accel tcg
			-cpu cortex-a15) ;;
	*) vm_qemu=(qemu-system-x86_64 -accel tcg -cpu max) ;;
	esac
}

# Kernel release for a guest name: the newest installed one that has both
# an image in /boot and a build directory (never `uname -r`: the host's).
vm_kernel() {
	local pat v best=
	case $1 in
	6.1-amd64) pat='6.1.*-amd64' ;;
	6.12-amd64) pat='6.12.*-amd64' ;;
	6.1-686-pae) pat='6.1.*-686-pae' ;;
	6.1-arm64) pat='6.1.*-arm64' ;;
	6.1-armhf) pat='6.1.*-armmp-lpae' ;;
	*) vm_die "unknown guest '$1' (6.1-amd64, 6.12-amd64, 6.1-686-pae, 6.1-arm64, 6.1-armhf)" ;;
	esac
	for d in "$(vm_root "$pat")"/lib/modules/$pat; do
		v=${d##*/}
		if [ ! -e "$(vm_image "$v")" ] ||
			[ ! -e "$(vm_kbuild "$v")/Makefile" ]; then
			continue
		fi
		best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V |
			tail -n1)
	done
	[ -n "$best" ] || vm_die "guest $1: no kernel $pat with $(vm_root "$pat")/boot/vmlinuz-* and its headers; run scripts/install-deps.sh"
	printf '%s\n' "$best"
}

vm_is_32bit() {
	grep -q '^CONFIG_X86_32=y' "/boot/config-$1" 2>/dev/null
}

# Everything the host needs; missing pieces are errors, never skips
vm_check_host() {
	local kver=$1 t vm_qemu
	vm_qemu_cmd "$kver"
	for t in "${vm_qemu[0]}" cpio gzip xz "$(vm_cc "$kver" | cut -d' ' -f1)" \
		make readelf timeout; do
		command -v "$t" > /dev/null ||
			vm_die "$t is missing; run scripts/install-deps.sh"
	done
	[ -r "$(vm_image "$kver")" ] ||
		vm_die "$(vm_image "$kver") is not readable (run as root, or chmod a+r it)"
	[ -x "$(vm_busybox "$kver")" ] ||
		vm_die "no busybox for $kver ($(vm_busybox "$kver")); run scripts/install-deps.sh"
}

vm_busybox() {
	if vm_is_cross "$1"; then
		printf '%s/busybox\n' "$(vm_root "$1")"
	elif vm_is_32bit "$1"; then
		printf '%s\n' "${BUSYBOX_I386:-/usr/lib/pfnmap-i386/busybox}"
	else
		printf '%s\n' "${BUSYBOX:-/bin/busybox}"
	fi
}

# pfnmap.ko for kernel $1 in $2/kmod, with W=1 and no warnings
vm_build_module() {
	local kver=$1 work=$2 f
	mkdir -p "$work/kmod"
	# what Kbuild needs: kmod/kbuild-files, one path a line, # comments
	while read -r f; do
		case $f in '' | '#'*) continue ;; esac
		(cd "$vm_top/kmod" && cp --parents -- "$f" "$work/kmod") ||
			vm_die "cannot copy kmod/$f"
	done <"$vm_top/kmod/kbuild-files"
	vm_kbuild_make "$kver" "$work/kmod" "module"
}

# vm_kbuild_make KVER DIR WHAT: build the Kbuild module in DIR for kernel
# KVER with W=1, its log in DIR/kbuild.log; a failure or a warning ends
# the run. arm64: cross, with the host's kbuild of the same version
# (scripts/cross-module-check.sh links it into the headers' tree)
vm_kbuild_make() {
	local kver=$1 dir=$2 what=$3 cross=()
	read -r -a cross <<< "$(vm_kbuild_cross "$kver")"
	if ! make -s -C "$(vm_kbuild "$kver")" M="$dir" "${cross[@]}" \
		W=1 modules > "$dir/kbuild.log" 2>&1; then
		cat "$dir/kbuild.log" >&2
		vm_die "$what build for $kver failed"
	fi
	if grep -qi 'warning:' "$dir/kbuild.log"; then
		cat "$dir/kbuild.log" >&2
		vm_die "$what build for $kver printed warnings"
	fi
}

# vm_build_ucpage KVER WORK: tests/vm/ucpage's test module for an x86
# kernel, as $work/ucpage/pfnmap_ucpage.ko
vm_build_ucpage() {
	local kver=$1 work=$2
	rm -rf "$work/ucpage"
	cp -r "$vm_here/ucpage" "$work/ucpage"
	vm_kbuild_make "$kver" "$work/ucpage" "the ucpage test module"
}

# Copy a dynamically linked program's interpreter and NEEDED libraries,
# recursively, from the multiarch directory (readelf: ldd cannot run i386
# programs on a host without ia32 emulation).
vm_copy_libs() {
	local bin=$1 root=$2 libdir=$3 interp lib src todo=() done=" "
	interp=$(readelf -l "$bin" | sed -n 's/.*interpreter: \(.*\)\]$/\1/p')
	[ -n "$interp" ] || return 0	# static
	mkdir -p "$root$(dirname "$interp")" "$root$libdir"
	cp -L "$interp" "$root$interp" || vm_die "no dynamic loader $interp"
	todo=("$bin")
	while [ ${#todo[@]} -gt 0 ]; do
		src=${todo[0]}
		todo=("${todo[@]:1}")
		for lib in $(readelf -d "$src" |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			case $done in *" $lib "*) continue ;; esac
			done+="$lib "
			[ -e "$libdir/$lib" ] ||
				vm_die "$bin needs $lib, not in $libdir (install the :i386, :arm64 or amd64 package)"
			cp -L "$libdir/$lib" "$root$libdir/$lib"
			todo+=("$libdir/$lib")
		done
	done
}

# The guest kernel's own modules $3... with what modules.dep says they need,
# decompressed, in $2/kmods, and their names in load order in
# $2/kmods/order (for the initramfs's /kmods): $1 kernel, $2 work dir.
vm_guest_modules() {
	local kver=$1 work=$2 m line f deps=() i dir
	shift 2
	dir=$(vm_moddir "$kver")
	mkdir -p "$work/kmods"
	: > "$work/kmods/order"
	for m in "$@"; do
		line=$(grep -E "(^|/)$m\.ko(\.xz|\.gz|\.zst)?:" \
			"$dir/modules.dep") ||
			vm_die "kernel $kver has no module $m (modules.dep)"
		# the dependencies, which modprobe loads last one first
		read -r -a deps <<< "${line#*:}"
		for ((i = ${#deps[@]} - 1; i >= -1; i--)); do
			if [ $i -ge 0 ]; then f=${deps[$i]}; else f=${line%%:*}; fi
			vm_guest_module_copy "$dir/$f" "$work/kmods"
		done
	done
}

# vm_guest_module_copy MODULE-FILE DIR: DIR/NAME.ko, uncompressed (busybox
# insmod hands the kernel the file as it is), NAME appended to DIR/order
vm_guest_module_copy() {
	local f=$1 dir=$2 name
	name=$(basename "$f")
	name=${name%%.ko*}
	grep -qx "$name" "$dir/order" && return 0
	case $f in
	*.ko.xz) xz -dc "$f" > "$dir/$name.ko" ;;
	*.ko.gz) gzip -dc "$f" > "$dir/$name.ko" ;;
	*.ko.zst) zstd -qdc "$f" > "$dir/$name.ko" ;;
	*) cp "$f" "$dir/$name.ko" ;;
	esac || vm_die "cannot copy the module $f"
	echo "$name" >> "$dir/order"
}

# The initramfs in $work/initrd.gz: $1 kernel, $2 work dir, $3 pfnmap CLI,
# $4 guest script (run by /init), then extra files as SRC:DEST pairs.
vm_build_initrd() {
	local kver=$1 work=$2 cli=$3 script=$4 root=$2/root libdir cc elf
	shift 4
	rm -rf "$root"
	mkdir -p "$root"/{bin,dev,proc,sys,tmp,etc,root,data}
	libdir=$(vm_libdir "$kver")
	read -r -a cc <<< "$(vm_cc "$kver")"
	elf=$(vm_elf "$kver")
	[ -f "$cli" ] || vm_die "no pfnmap CLI at $cli"
	if ! readelf -h "$cli" | grep -q "Class: *${elf%% *}$" ||
		! readelf -h "$cli" | grep -q "Machine: *${elf#* }$"; then
		vm_die "$cli is not an ${elf} program, as kernel $kver needs"
	fi
	cp "$(vm_busybox "$kver")" "$root/bin/busybox"
	cp "$cli" "$root/bin/pfnmap"
	# the PCI names libpci looks up, as on the host (package pci.ids)
	[ -r /usr/share/misc/pci.ids ] ||
		vm_die "no /usr/share/misc/pci.ids; run scripts/install-deps.sh"
	mkdir -p "$root/usr/share/misc"
	cp /usr/share/misc/pci.ids "$root/usr/share/misc/"
	vm_copy_libs "$cli" "$root" "$libdir"
	cp "$work/kmod/pfnmap.ko" "$root/pfnmap.ko"
	"${cc[@]}" -D_FILE_OFFSET_BITS=64 -O2 -Wall -Wextra -Werror \
		-static -pthread -I"$vm_top/kmod/uapi" -o "$root/bin/probe" \
		"$vm_here/probe.c" ||
		vm_die "cannot build probe.c with ${cc[*]} (gcc-12-multilib, gcc-aarch64-linux-gnu installed?)"
	if [ "${cc[*]}" = gcc ]; then
		# the compat paths (ioctl, mmap2) from a 32-bit process
		gcc -m32 -D_FILE_OFFSET_BITS=64 -O2 -Wall -Wextra -Werror \
			-static -pthread -I"$vm_top/kmod/uapi" \
			-o "$root/bin/probe32" "$vm_here/probe.c" ||
			vm_die "cannot build probe.c -m32"
	fi
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' \
		> "$root/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
	install -m755 "$vm_here/guest/init" "$root/init"
	install -m755 "$script" "$root/guest.sh"
	install -m644 "$vm_here/guest/tap.sh" "$root/tap.sh"
	local pair
	for pair in "$@"; do
		mkdir -p "$(dirname "$root/${pair#*:}")"
		cp "${pair%%:*}" "$root/${pair#*:}"
	done
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) \
		> "$work/initrd.gz"
}

# Boot: $1 kernel, $2 work dir, $3 ivshmem backing file, $4 timeout (s).
# Console lines go to stdout, each prefixed with the host's wall time in
# seconds since the start ("12.345 ok 1 - ..."); returns QEMU's status
# (124 on timeout).
vm_boot() {
	local kver=$1 work=$2 shm=$3 limit=$4 t0 line vm_qemu mem=()
	t0=$EPOCHREALTIME
	vm_qemu_cmd "$kver"
	read -r -a mem <<< "$(vm_hidden_mem "$kver")"
	timeout -k 5 "$limit" "${vm_qemu[@]}" "${mem[@]}" \
		-smp 1 -nographic -no-reboot -net none \
		-kernel "$(vm_image "$kver")" -initrd "$work/initrd.gz" \
		-append "console=$(vm_console "$kver") quiet panic=-1 $(vm_hidden_append "$kver")${VM_APPEND:+ $VM_APPEND}" \
		-device edu -device e1000e,romfile= \
		-object "memory-backend-file,id=hm,mem-path=$shm,size=2G,share=on" \
		-device ivshmem-plain,memdev=hm < /dev/null 2>&1 |
	while IFS= read -r line; do
		line=${line%$'\r'}
		printf '%s %s\n' "$(vm_elapsed "$t0")" "$line"
	done
	return "${PIPESTATUS[0]}"
}

# The machine with hidden memory at 0x180000000 (see the top): QEMU's
# memory (and x86's CPU) arguments and the kernel's
vm_hidden_mem() {
	case $(vm_arch "$1") in
	arm64) echo -m 6G ;;
	# RAM up to 0x180400000: the 4 MiB at 0x180000000 (-m 6G hangs)
	armhf) echo -m 5124M ;;
	*) echo -m 7G -cpu max,phys-bits=52 ;;
	esac
}

vm_hidden_append() {
	if vm_is_arm64 "$1"; then
		echo mem=4G
	elif vm_is_cross "$1"; then
		echo mem=3G
	else
		# shellcheck disable=SC2016 # the $ of memmap= is literal
		echo 'tsc=unstable memmap=4M$0x180000000 mem=8000M'
	fi
}

# Seconds since $1 (an $EPOCHREALTIME), with milliseconds
vm_elapsed() {
	local now=$EPOCHREALTIME a b
	a=${1/./}
	b=${now/./}
	printf '%d.%03d' $(((b - a) / 1000000)) $((((b - a) / 1000) % 1000))
}

# ---------------------------------------------------------------------------
# For guest runs that need more than vm_boot's fixed machine (tests/vm/
# hotplug.sh): a guest program built like probe.c, and QEMU started in the
# background with the caller's machine arguments and an HMP monitor that
# the host drives while the guest runs.

# vm_guest_cc KVER SRC OUT: SRC as a static program for kernel KVER's user
# space (-m32 for a 32-bit kernel), with the helper's UAPI header
vm_guest_cc() {
	local cc
	read -r -a cc <<< "$(vm_cc "$1")"
	"${cc[@]}" -D_FILE_OFFSET_BITS=64 -O2 -Wall -Wextra -Werror \
		-static -I"$vm_top/kmod/uapi" -o "$3" "$2" ||
		vm_die "cannot build $2 with ${cc[*]}"
}

# vm_qemu_start KVER WORK LIMIT APPEND QEMU-ARGS...: boot KVER with
# WORK/initrd.gz and the kernel command line APPEND, QEMU's memory, CPU and
# device arguments given by the caller, and return at once. The console
# goes to WORK/console.log, each line prefixed with the host's time since
# the start as vm_boot prints it; the monitor (HMP) reads WORK/mon.in and
# writes WORK/monitor.log (vm_monitor). Sets vm_qemu_pid (`wait` for it
# with vm_qemu_end: its status is QEMU's, 124 on timeout) and vm_qemu_t0,
# the start for vm_elapsed.
vm_qemu_start() {
	local kver=$1 work=$2 limit=$3 append=$4 vm_qemu
	shift 4
	vm_qemu_cmd "$kver"
	rm -f "$work/mon.in" "$work/mon.out"
	mkfifo "$work/mon.in" "$work/mon.out" || vm_die "mkfifo in $work"
	vm_qemu_t0=$EPOCHREALTIME
	(
		timeout -k 5 "$limit" "${vm_qemu[@]}" \
			-nographic -no-reboot -net none \
			-kernel "$(vm_image "$kver")" -initrd "$work/initrd.gz" \
			-append "$append" \
			-chardev "pipe,id=vmmon,path=$work/mon" \
			-mon chardev=vmmon,mode=readline "$@" < /dev/null 2>&1 |
		while IFS= read -r line; do
			line=${line%$'\r'}
			printf '%s %s\n' "$(vm_elapsed "$vm_qemu_t0")" "$line"
		done > "$work/console.log"
		exit "${PIPESTATUS[0]}"
	) &
	vm_qemu_pid=$!
	# read and write end at once: neither open blocks, whether QEMU has
	# opened its ends yet or not; the reader is stopped by vm_qemu_end
	exec {vm_mon_out}<> "$work/mon.out"
	exec {vm_mon_in}<> "$work/mon.in"
	cat <&"$vm_mon_out" > "$work/monitor.log" &
	vm_mon_cat=$!
}

# vm_monitor COMMAND: one HMP command to the QEMU of vm_qemu_start
vm_monitor() {
	printf '%s\n' "$1" >&"$vm_mon_in"
}

# vm_qemu_end: wait for QEMU to end, stop the monitor reader; returns
# QEMU's status
vm_qemu_end() {
	local rc
	wait "$vm_qemu_pid"
	rc=$?
	kill "$vm_mon_cat" 2> /dev/null
	wait "$vm_mon_cat" 2> /dev/null
	exec {vm_mon_in}>&- {vm_mon_out}<&-
	return "$rc"
}

# vm_verdict CONSOLE GUEST LABEL MARKER QEMU_RC TIMEOUT WANT_TOTAL WANT_SKIPS
# EXPECTED_IN: read a guest run's console log (its lines prefixed with the
# host time): when the tests started (the line with MARKER), ended and
# QEMU exited; then fail (status 1) on a timeout (QEMU_RC 124 or 137), no
# VM-SUMMARY line, a failed check, TAP lines that are not exactly
# 1..total, or another number of checks or skips than WANT_TOTAL and
# WANT_SKIPS (EXPECTED_IN names where those are kept). LABEL names the
# run in the messages ("6.1-amd64", "6.1-amd64 (hotplug)").
vm_verdict() {
	local log=$1 guest=$2 label=$3 marker=$4 qemu_rc=$5 limit=$6
	local want_total=$7 want_skips=$8 where=$9
	local boot done_at summary last total failed oks nots skips nums plan oops
	local status=0

	boot=$(sed -n "s/^\([0-9.]*\) .*$marker.*/\1/p" "$log")
	done_at=$(sed -n 's/^\([0-9.]*\) VM-SUMMARY .*/\1/p' "$log")
	summary=$(sed -n 's/^[0-9.]* VM-SUMMARY \([0-9]*\) \([0-9]*\)$/\1 \2/p' "$log")
	last=$(tail -n1 "$log" | cut -d' ' -f1)
	echo "# guest $label: tests started ${boot:-never} s after QEMU started, finished ${done_at:-never} s, QEMU exited at ${last:-?} s (status $qemu_rc)"
	if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
		echo "not ok - guest $guest: timed out after $limit s"
		status=1
	fi
	if [ -z "$summary" ]; then
		# a kernel's report starts well above the last lines: its
		# first 60 lines, then the end, so that CI keeps the cause
		oops=$(grep -nE '(BUG:|Oops|general protection|WARNING:|Kernel panic)' "$log" | head -n1 | cut -d: -f1)
		if [ -n "$oops" ]; then
			echo "# guest $guest: the kernel's report, from its first line:"
			tail -n +"$oops" "$log" | head -n 60 | sed 's/^/#   /'
		fi
		echo "not ok - guest $guest: no summary line; the last console lines:"
		tail -n 40 "$log" | sed 's/^/#   /'
		return 1
	fi
	read -r total failed <<< "$summary"
	oks=$(grep -cE '^[0-9.]+ ok [0-9]+ ' "$log")
	nots=$(grep -cE '^[0-9.]+ not ok [0-9]+ ' "$log")
	skips=$(grep -cE '^[0-9.]+ ok [0-9]+ .* # SKIP' "$log")
	# the TAP numbers, in order, must be exactly 1..total, and the plan
	# line must say so
	nums=$(sed -nE 's/^[0-9.]+ (not )?ok ([0-9]+) .*/\2/p' "$log" | tr '\n' ' ')
	plan=$(sed -nE 's/^[0-9.]+ 1\.\.([0-9]+)$/\1/p' "$log")
	echo "# guest $label: $total guest checks ($skips skipped), $failed failed; ok $((oks - skips)), not ok $nots, skip $skips"
	if [ "$failed" != 0 ] || [ "$nots" != 0 ]; then
		echo "not ok - guest $guest: $failed guest checks failed"
		status=1
	fi
	if [ $((oks + nots)) != "$total" ] || [ "$plan" != "$total" ] ||
		[ "$nums" != "$(seq -s ' ' 1 "$total") " ]; then
		echo "not ok - guest $guest: the TAP lines are not exactly 1..$total (plan '$plan', $oks ok, $nots not ok)"
		status=1
	fi
	if [ "$total" != "$want_total" ] || [ "$skips" != "$want_skips" ]; then
		echo "not ok - guest $guest: $total checks with $skips skipped, expected exactly $want_total with $want_skips skipped (vm_expected in $where)"
		status=1
	else
		echo "ok - guest $guest: exactly the $want_total expected checks ran, $want_skips of them skipped"
	fi
	return $status
}

# vm_workdir NAME: a work directory ($work) and an ivshmem backing file in
# /dev/shm ($shm) of the run's own, both removed when the script exits
# (the work directory kept with KEEP=1)
vm_workdir() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	shm=$(mktemp "/dev/shm/$1.XXXXXX")
	trap vm_workdir_cleanup EXIT
}

# shellcheck disable=SC2317 # called by the trap
vm_workdir_cleanup() {
	rm -f "$shm"
	if [ "${KEEP:-0}" = 1 ]; then
		echo "# work directory kept: $work"
	else
		rm -rf "$work"
	fi
}
