# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Sourced by tests/docs/install.sh and scripts/ci-packages.sh: the files
# that cmake/packaging.cmake installs, by package, with the prefix /usr.
#
#   pfnmap_files PACKAGE VERSION BASH_COMPLETION_DIR
#
# prints one absolute path per line for PACKAGE (pfnmap or pfnmap-dkms).
# The man pages and the changelogs are gzip -9n compressed, in the packages
# and with `cmake --install` alike. Add a file here when packaging.cmake
# installs a new one; the helper's sources in the DKMS tree come from
# kmod/kbuild-files, the list of what Kbuild needs, which packaging.cmake
# installs.
pfnmap_kbuild_files=$(cd "$(dirname "${BASH_SOURCE[0]}")/../kmod" &&
	pwd)/kbuild-files

pfnmap_files()
{
	local src=/usr/src/pfnmap-$2 f

	case $1 in
	pfnmap)
		printf '%s\n' /usr/bin/pfnmap \
			/usr/share/man/man8/pfnmap.8.gz \
			/usr/share/man/man4/pfnmap.4.gz \
			"$3/pfnmap" \
			/usr/share/zsh/vendor-completions/_pfnmap \
			/usr/share/fish/vendor_completions.d/pfnmap.fish \
			/usr/lib/udev/rules.d/60-pfnmap.rules \
			/usr/share/doc/pfnmap/README.md \
			/usr/share/doc/pfnmap/copyright \
			/usr/share/doc/pfnmap/changelog.gz \
			/usr/share/doc/pfnmap/examples/modules-load.d/pfnmap.conf \
			/usr/share/doc/pfnmap/examples/modprobe.d/pfnmap.conf
		;;
	pfnmap-dkms)
		printf '%s\n' /usr/share/doc/pfnmap-dkms/copyright \
			/usr/share/doc/pfnmap-dkms/changelog.gz \
			"$src/dkms.conf"
		while IFS= read -r f; do
			case $f in
			'' | '#'*) ;;
			*) printf '%s\n' "$src/$f" ;;
			esac
		done <"$pfnmap_kbuild_files"
		;;
	*)
		return 1
		;;
	esac
}
