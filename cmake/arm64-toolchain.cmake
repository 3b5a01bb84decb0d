# SPDX-License-Identifier: GPL-2.0-or-later
#
# arm64 (aarch64) build of the CLI and its tests on an amd64 Debian host:
#   cmake -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/arm64-toolchain.cmake \
#         -DPFNMAP_BUILD_MODULE=OFF
# (scripts/cross-module-check.sh builds the module for arm64: Kbuild's own
# ARCH= and CROSS_COMPILE=, not this file). Needs gcc-aarch64-linux-gnu and
# the :arm64 -dev packages, Debian's multiarch ones (scripts/install-deps.sh).
# The host cannot run the binaries: ctest runs them under qemu-user's
# qemu-aarch64 (tests/expected-skips, kind arm64-qemu, says what it cannot
# do).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Debian's cross gcc, unless the compiler is chosen (CC,
# -DCMAKE_C_COMPILER): a plain set() here would override the choice.
# Debian's cross gcc already looks in the multiarch directories
# (/usr/include/aarch64-linux-gnu, /usr/lib/aarch64-linux-gnu) that the
# :arm64 packages fill, so no --sysroot: the libraries are the same
# packages as on an arm64 machine, libc included (libc6-dev:arm64).
if(NOT DEFINED CMAKE_C_COMPILER AND NOT DEFINED ENV{CC})
	set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
endif()

# find_library() and friends: the arm64 multiarch directories, not amd64's
set(CMAKE_LIBRARY_PATH /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu)
set(CMAKE_SYSTEM_LIBRARY_PATH /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu
	/usr/lib/i386-linux-gnu /lib/i386-linux-gnu)
set(FIND_LIBRARY_USE_LIB64_PATHS OFF)

# pkg-config: only the arm64 (and architecture-independent) .pc files;
# libpci, libkmod, zlib, libcrypto, json-c, cmocka (and the bash-completion
# variables of cmake/packaging.cmake, from /usr/share/pkgconfig)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Running the arm64 binaries (ctest): natively on an arm64 host; elsewhere
# always through qemu-aarch64, which ctest then puts in front of every test
# executable, even where binfmt_misc would run them by itself
# (qemu-user-binfmt): the tests' kind (arm64-qemu) and so the skips they
# expect must not depend on that. qemu-aarch64 finds the arm64 ld.so and
# libraries where the :arm64 packages put them (/lib/ld-linux-aarch64.so.1,
# /lib/aarch64-linux-gnu), so it needs no -L.
if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR AND
   NOT CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
	if(EXISTS /usr/bin/qemu-aarch64)
		set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/qemu-aarch64)
	else()
		message(WARNING "pfnmap: this host cannot run arm64 binaries "
			"and qemu-aarch64 (package qemu-user) is missing: "
			"the arm64 tests will not run")
	endif()
endif()
