#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=dash disable=SC2034 # T and F: the sourcing script's
#
# Sourced by the guest scripts (guest/tests.sh, guest/hotplug.sh; /tap.sh in
# the initramfs, tests/vm/lib.sh): TAP lines on the serial console, and the
# kernel-health check every guest run ends with.
#
#   ok DESC, notok DESC, skip DESC WHY, diag TEXT, indent FILE...
#   check DESC CMD...      CMD's status decides; its output only on failure
#   tap_health MARK        dmesg since MARK (in /tmp/dmesg, read by the
#                          caller) has no WARNING, BUG, Oops, Call Trace,
#                          PAT complaint, usercopy, Bad page or ioremap on
#                          RAM; /proc/sys/kernel/tainted has no bit beyond
#                          4096|8192 (out-of-tree, unsigned)
#   tap_health MARK BITS WHY   ... or in BITS, which the caller caused on
#                          purpose (WHY)
#   tap_end                the plan, a summary, and "VM-SUMMARY T F", which
#                          the host reads (vm_verdict in lib.sh)
T=0
F=0

ok() { T=$((T + 1)); echo "ok $T - $*"; }
notok() { T=$((T + 1)); F=$((F + 1)); echo "not ok $T - $*"; }
skip() { T=$((T + 1)); echo "ok $T - $1 # SKIP $2"; }
diag() { echo "# $*"; }
indent() { sed -n 's/^/#   /;1,20p' "$@"; }

check() {
	local d=$1
	shift
	if "$@" > /tmp/check.out 2>&1; then
		ok "$d"
	else
		notok "$d"
		indent /tmp/check.out
	fi
}

# grep's status 1 (read, no match) and the marker found: an empty or
# unreadable log proves nothing
tap_health() {
	local rc taint

	grep -e WARNING -e BUG -e Oops -e 'Call Trace' -e 'x86/PAT:' \
		-e usercopy -e 'Bad page' -e 'ioremap on RAM' /tmp/dmesg \
		> /tmp/dmesg.bad 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -qF "$1" /tmp/dmesg; then
		ok "dmesg since the marker: no WARNING, BUG, Oops, Call Trace, x86/PAT:, usercopy, Bad page, ioremap on RAM"
	else
		notok "dmesg since the marker: grep status $rc (want 1, no match), marker $(grep -qF "$1" /tmp/dmesg && echo found || echo missing)"
		indent /tmp/dmesg.bad
	fi
	taint=$(cat /proc/sys/kernel/tainted)
	case $taint in
	'' | *[!0-9]*)
		notok "/proc/sys/kernel/tainted reads '$taint', not a number" ;;
	*)
		check "tainted $taint: no bit beyond 4096|8192 (out-of-tree, unsigned)${2:+|$2 ($3)}" \
			[ $((taint & ~(4096 | 8192 | ${2:-0}))) = 0 ] ;;
	esac
}

tap_end() {
	echo "1..$T"
	echo "# guest $GUEST: $T tests, $F failed, $(cut -d' ' -f1 /proc/uptime) s after boot"
	echo "VM-SUMMARY $T $F"
}
