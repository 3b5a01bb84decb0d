# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Sourced by tests/docs/install.sh and scripts/ci-packages.sh: the files
# that cmake/packaging.cmake installs, by package, with the prefix /usr.
#
#   pfnmap_files PACKAGE VERSION BASH_COMPLETION_DIR
#
# prints one absolute path per line for PACKAGE (pfnmap or pfnmap-dkms).
# Add a file here when packaging.cmake installs a new one.
pfnmap_files()
{
	local src=/usr/src/pfnmap-$2

	case $1 in
	pfnmap)
		printf '%s\n' /usr/bin/pfnmap \
			/usr/share/man/man8/pfnmap.8 \
			/usr/share/man/man4/pfnmap.4 \
			"$3/pfnmap" \
			/usr/share/zsh/vendor-completions/_pfnmap \
			/usr/share/fish/vendor_completions.d/pfnmap.fish \
			/usr/lib/udev/rules.d/60-pfnmap.rules \
			/usr/share/doc/pfnmap/README.md \
			/usr/share/doc/pfnmap/copyright \
			/usr/share/doc/pfnmap/examples/modules-load.d/pfnmap.conf \
			/usr/share/doc/pfnmap/examples/modprobe.d/pfnmap.conf
		;;
	pfnmap-dkms)
		printf '%s\n' /usr/share/doc/pfnmap-dkms/copyright \
			"$src/dkms.conf" "$src/Kbuild" "$src/Makefile" \
			"$src/pfnmap.c" "$src/compat.h" "$src/uapi/pfnmap.h"
		;;
	*)
		return 1
		;;
	esac
}
