# SPDX-License-Identifier: GPL-2.0-or-later
#
# Everything `cmake --install` puts besides the binary (cli/ installs
# bin/pfnmap), and the Debian packages, made by `cpack -G DEB` in the build
# directory:
#
#   pfnmap        the tool (stripped; its debug information stays in the
#                 build directory, cli/pfnmap.debug: cli/CMakeLists.txt), its
#                 man pages, its shell completions, the udev rule for
#                 /dev/pfnmap and example files; Depends from dpkg-shlibdeps
#   pfnmap-dkms   the helper's sources as a DKMS tree, /usr/src/pfnmap-VERSION,
#                 with dkms.conf and maintainer scripts as dh_dkms writes
#                 them; Architecture: all, Depends: dkms
#
# Both are lintian clean (scripts/ci-packages.sh runs lintian on them): man
# pages and changelog.gz compressed with gzip -9n, copyright in DEP-5 form
# (packaging/debian/copyright); no lintian override is needed. `cmake
# --install` installs the same files as the packages.
#
# Every destination below is relative to the install prefix (/usr for the
# packages and for `cmake --install build --prefix /usr`) unless it is set
# to an absolute path. scripts/ci-packages.sh builds, installs and checks
# the packages; tests/docs/install.sh checks `cmake --install`.
include_guard(GLOBAL)

# cli/ installs the binary without a COMPONENT, into CMake's default
# component "Unspecified": the tool's other files go there too, and the
# component becomes the package pfnmap.
set(PFNMAP_TOOL_COMPONENT Unspecified)
set(PFNMAP_DKMS_COMPONENT dkms)

# --- where the files go ----------------------------------------------------
# bash-completion's own directory, made relative to its prefix
set(_pfnmap_bashcomp "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
pkg_get_variable(_pfnmap_bc_dir bash-completion completionsdir)
pkg_get_variable(_pfnmap_bc_prefix bash-completion prefix)
if(_pfnmap_bc_dir AND _pfnmap_bc_prefix)
	string(LENGTH "${_pfnmap_bc_prefix}/" _len)
	string(SUBSTRING "${_pfnmap_bc_dir}" 0 ${_len} _head)
	if(_head STREQUAL "${_pfnmap_bc_prefix}/")
		string(SUBSTRING "${_pfnmap_bc_dir}" ${_len} -1 _pfnmap_bashcomp)
	endif()
endif()
set(PFNMAP_BASH_COMPLETION_DIR "${_pfnmap_bashcomp}" CACHE STRING
	"bash completions (bash-completion's completionsdir)")
set(PFNMAP_ZSH_COMPLETION_DIR
	"${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions" CACHE STRING
	"zsh completions (Debian's vendor-completions)")
set(PFNMAP_FISH_COMPLETION_DIR
	"${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d" CACHE STRING
	"fish completions")
set(PFNMAP_UDEV_RULES_DIR "lib/udev/rules.d" CACHE STRING
	"udev rules (/usr/lib/udev/rules.d with the prefix /usr)")
set(PFNMAP_DKMS_SOURCE_DIR "src" CACHE STRING
	"DKMS source trees (/usr/src with the prefix /usr; DKMS reads no other)")
set(PFNMAP_DOC_DIR "${CMAKE_INSTALL_DATADIR}/doc/pfnmap")
set(PFNMAP_DKMS_DOC_DIR "${CMAKE_INSTALL_DATADIR}/doc/pfnmap-dkms")

# --- who makes the packages ----------------------------------------------
# The Maintainer field and the changelog's trailer line. The project has no
# public address (nor a home page: the packages have no Homepage field);
# an address in the reserved .invalid domain (RFC 2606) says so rather than
# name one that does not exist (README.md, "Installing"), and lintian
# accepts it.
set(CPACK_PACKAGE_CONTACT "pfnmap maintainers <pfnmap@pfnmap.invalid>")

# --- generated documentation: gzip -9n -------------------------------------
# Debian wants man pages and changelogs compressed with gzip -9n (no name or
# timestamp in the header, so that a rebuild makes the same file);
# cmake/gzip.cmake does it at build time, and `cmake --install` installs
# the compressed files too (man reads them as they are).
find_program(PFNMAP_GZIP gzip REQUIRED)
set(_pfnmap_gz_files)
macro(pfnmap_gzip in out)
	add_custom_command(OUTPUT ${out}
		COMMAND ${CMAKE_COMMAND} -DGZIP=${PFNMAP_GZIP} -DINPUT=${in}
			-DOUTPUT=${out} -P ${PROJECT_SOURCE_DIR}/cmake/gzip.cmake
		DEPENDS ${in} ${PROJECT_SOURCE_DIR}/cmake/gzip.cmake
		COMMENT "gzip -9n ${in}"
		VERBATIM)
	list(APPEND _pfnmap_gz_files ${out})
endmacro()

# A file of packaging/debian/ with its leading # comment lines (the SPDX
# header, notes for the reader) left out, and @VARIABLES@ filled in
function(pfnmap_configure_doc in out)
	file(READ ${in} text)
	string(REGEX REPLACE "^(#[^\n]*\n)+" "" text "${text}")
	file(CONFIGURE OUTPUT ${out} CONTENT "${text}" @ONLY)
	set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${in})
endfunction()

set(_d ${PROJECT_BINARY_DIR}/packaging)
file(MAKE_DIRECTORY ${_d}/man)
foreach(page pfnmap.8 pfnmap.4)
	pfnmap_gzip(${PROJECT_SOURCE_DIR}/man/${page} ${_d}/man/${page}.gz)
endforeach()

# The changelog, Debian's format, for the version CMake has (project()).
# Its date: SOURCE_DATE_EPOCH when that is set at configure time (the
# reproducible-builds convention), else this fixed date, 3 December 2026,
# when the project began: not a release date, but the same in every build,
# so that the same sources make the same changelog.gz.
set(PFNMAP_CHANGELOG_EPOCH 1796256000)
set(_sde "$ENV{SOURCE_DATE_EPOCH}")
if(NOT _sde MATCHES "^[0-9]+$")
	set(ENV{SOURCE_DATE_EPOCH} ${PFNMAP_CHANGELOG_EPOCH})
endif()
# string(TIMESTAMP) reads SOURCE_DATE_EPOCH; RFC 5322, as Debian wants it
string(TIMESTAMP PFNMAP_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(ENV{SOURCE_DATE_EPOCH} "${_sde}")
if(_sde STREQUAL "")
	unset(ENV{SOURCE_DATE_EPOCH})
endif()
pfnmap_configure_doc(${PROJECT_SOURCE_DIR}/packaging/debian/changelog.in
	${_d}/changelog)
pfnmap_gzip(${_d}/changelog ${_d}/changelog.gz)
# The copyright file, DEP-5 (machine-readable), for both packages
pfnmap_configure_doc(${PROJECT_SOURCE_DIR}/packaging/debian/copyright
	${_d}/copyright)
add_custom_target(pfnmap_docs ALL DEPENDS ${_pfnmap_gz_files})

# --- the tool --------------------------------------------------------------
set(_c COMPONENT ${PFNMAP_TOOL_COMPONENT})
install(FILES ${_d}/man/pfnmap.8.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man8 ${_c})
install(FILES ${_d}/man/pfnmap.4.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man4 ${_c})
install(FILES completions/pfnmap.bash RENAME pfnmap
	DESTINATION ${PFNMAP_BASH_COMPLETION_DIR} ${_c})
install(FILES completions/_pfnmap DESTINATION ${PFNMAP_ZSH_COMPLETION_DIR} ${_c})
install(FILES completions/pfnmap.fish
	DESTINATION ${PFNMAP_FISH_COMPLETION_DIR} ${_c})
install(FILES packaging/60-pfnmap.rules DESTINATION ${PFNMAP_UDEV_RULES_DIR} ${_c})
install(FILES packaging/modules-load.d/pfnmap.conf
	DESTINATION ${PFNMAP_DOC_DIR}/examples/modules-load.d ${_c})
install(FILES packaging/modprobe.d/pfnmap.conf
	DESTINATION ${PFNMAP_DOC_DIR}/examples/modprobe.d ${_c})
install(FILES README.md ${_d}/copyright ${_d}/changelog.gz
	DESTINATION ${PFNMAP_DOC_DIR} ${_c})

# --- the helper's sources, for DKMS ----------------------------------------
# What Kbuild needs: kmod/kbuild-files, the list kmod/CMakeLists.txt copies
# into the build tree too.
set(_c COMPONENT ${PFNMAP_DKMS_COMPONENT})
set(PFNMAP_DKMS_TREE ${PFNMAP_DKMS_SOURCE_DIR}/pfnmap-${PROJECT_VERSION})
file(STRINGS ${PROJECT_SOURCE_DIR}/kmod/kbuild-files _pfnmap_kmod_files
	REGEX "^[^#]")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
	${PROJECT_SOURCE_DIR}/kmod/kbuild-files)
foreach(f IN LISTS _pfnmap_kmod_files)
	get_filename_component(d ${f} DIRECTORY)
	install(FILES kmod/${f} DESTINATION ${PFNMAP_DKMS_TREE}/${d} ${_c})
endforeach()
configure_file(packaging/dkms.conf.in
	${PROJECT_BINARY_DIR}/packaging/dkms.conf @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/packaging/dkms.conf
	DESTINATION ${PFNMAP_DKMS_TREE} ${_c})
install(FILES ${_d}/copyright ${_d}/changelog.gz
	DESTINATION ${PFNMAP_DKMS_DOC_DIR} ${_c})

# --- Debian packages -------------------------------------------------------
foreach(s postinst prerm)
	configure_file(packaging/debian/pfnmap-dkms.${s}.in
		${PROJECT_BINARY_DIR}/packaging/debian/dkms/${s} @ONLY)
	file(CHMOD ${PROJECT_BINARY_DIR}/packaging/debian/dkms/${s}
		FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
		GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()

set(CPACK_PACKAGE_NAME pfnmap)
set(CPACK_PACKAGE_VENDOR pfnmap)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's description below starts with its own summary line. CPackDeb
# would put CPACK_PACKAGE_DESCRIPTION_SUMMARY (the project's description)
# in front of both, unless it is CPack's default, which it leaves out.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_FILE_NAME pfnmap-${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL ${PFNMAP_TOOL_COMPONENT} ${PFNMAP_DKMS_COMPONENT})
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Installing with CMAKE_INSTALL_DO_STRIP, as `cmake --install --strip` does:
# the binary stripped as dh_strip does it (cli/CMakeLists.txt). Not
# CPACK_DEBIAN_DEBUGINFO_PACKAGE: CPack 3.25's -dbgsym package has absolute
# paths in its md5sums and no copyright file, which lintian rejects.
set(CPACK_STRIP_FILES ON)

string(TOUPPER ${PFNMAP_TOOL_COMPONENT} _t)
set(CPACK_DEBIAN_${_t}_PACKAGE_NAME pfnmap)
set(CPACK_DEBIAN_${_t}_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_${_t}_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_${_t}_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_${_t}_PACKAGE_RECOMMENDS pfnmap-dkms)
# The architecture of the binary, not of the machine that built it: CPack
# asks `dpkg --print-architecture`, amd64 on the amd64 host of a cross
# build (cmake/arm64-toolchain.cmake, cmake/armhf-toolchain.cmake), which
# would label arm64 and armhf binaries amd64. dpkg-architecture names the
# Debian architecture of the toolchain's multiarch triplet
# (aarch64-linux-gnu: arm64, arm-linux-gnueabihf: armhf); dpkg-shlibdeps
# already finds the libraries by the binary's own ELF machine.
if(CMAKE_CROSSCOMPILING AND CMAKE_LIBRARY_ARCHITECTURE)
	find_program(PFNMAP_DPKG_ARCHITECTURE dpkg-architecture)
	set(_arch "")
	if(PFNMAP_DPKG_ARCHITECTURE)
		# stderr: a warning where the triplet is not dpkg's own
		# (i386-linux-gnu for i686-linux-gnu); the answer is right
		execute_process(COMMAND ${PFNMAP_DPKG_ARCHITECTURE}
			-t ${CMAKE_LIBRARY_ARCHITECTURE} -qDEB_HOST_ARCH
			OUTPUT_VARIABLE _arch OUTPUT_STRIP_TRAILING_WHITESPACE
			ERROR_QUIET)
	endif()
	if(_arch)
		set(CPACK_DEBIAN_${_t}_PACKAGE_ARCHITECTURE ${_arch})
	else()
		message(WARNING "pfnmap: no Debian architecture for "
			"${CMAKE_LIBRARY_ARCHITECTURE} (dpkg-architecture, package "
			"dpkg-dev): cpack would label the package with the host's")
	endif()
endif()
set(CPACK_DEBIAN_${_t}_DESCRIPTION
"see and poke physical memory and PCI BARs by page frame number
pfnmap maps physical address ranges, such as memory hidden from the kernel
with memmap= or the MMIO registers behind a PCI BAR, through its helper
module's /dev/pfnmap, and dumps, fills, loads, hexdumps, reads or writes
them, with exact access widths and cache types. Physical addresses are
64-bit everywhere, also on 32-bit PAE kernels. The helper module comes
with pfnmap-dkms.")

string(TOUPPER ${PFNMAP_DKMS_COMPONENT} _t)
set(CPACK_DEBIAN_${_t}_PACKAGE_NAME pfnmap-dkms)
set(CPACK_DEBIAN_${_t}_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_${_t}_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_${_t}_PACKAGE_SECTION kernel)
set(CPACK_DEBIAN_${_t}_PACKAGE_DEPENDS dkms)
set(CPACK_DEBIAN_${_t}_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_${_t}_PACKAGE_CONTROL_EXTRA
	${PROJECT_BINARY_DIR}/packaging/debian/dkms/postinst
	${PROJECT_BINARY_DIR}/packaging/debian/dkms/prerm)
set(CPACK_DEBIAN_${_t}_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_DEBIAN_${_t}_DESCRIPTION
"pfnmap helper module, DKMS sources
The kernel module behind /dev/pfnmap, which pfnmap maps physical memory
through: its sources and dkms.conf, for DKMS to build and install it for
each kernel (with that kernel's headers installed).")

include(CPack)
