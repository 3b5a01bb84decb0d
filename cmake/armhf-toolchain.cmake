# SPDX-License-Identifier: GPL-2.0-or-later
#
# armhf (32-bit ARM, ARMv7-A hard-float: Debian's armhf) build of the CLI
# and its tests on an amd64 Debian host:
#   cmake -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/armhf-toolchain.cmake \
#         -DPFNMAP_BUILD_MODULE=OFF
# with gcc; with clang, which cross-compiles by itself given the target:
#   CC=clang cmake -B build-armhf -DCMAKE_TOOLCHAIN_FILE=...
# Needs gcc-arm-linux-gnueabihf (clang too: its binutils, crt files and
# libgcc) and the :armhf -dev packages, Debian's multiarch ones
# (scripts/install-deps.sh). The host cannot run the binaries: ctest runs
# them under qemu-user's qemu-arm (tests/expected-skips, kind armhf-qemu,
# says what it cannot do). A 32-bit build as i386's: _FILE_OFFSET_BITS=64
# for every build (../CMakeLists.txt) gives it the 64-bit off_t that
# physical addresses above 4 GiB need.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armv7l)
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)

# Debian's cross gcc, unless the compiler is chosen (CC,
# -DCMAKE_C_COMPILER): a plain set() here would override the choice.
# Debian's cross gcc already looks in the multiarch directories
# (/usr/include/arm-linux-gnueabihf, /usr/lib/arm-linux-gnueabihf) that
# the :armhf packages fill, so no --sysroot: the libraries are the same
# packages as on an armhf machine, libc included (libc6-dev:armhf).
# clang needs the target said (CMAKE_C_COMPILER_TARGET: --target=), else
# it would build for the host; it then finds the same directories and
# the cross gcc's binutils and libgcc.
if(NOT DEFINED CMAKE_C_COMPILER AND NOT DEFINED ENV{CC})
	set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
endif()
set(CMAKE_C_COMPILER_TARGET arm-linux-gnueabihf)

# find_library() and friends: the armhf multiarch directories, not those
# of the host or of the other foreign architectures
set(CMAKE_LIBRARY_PATH /usr/lib/arm-linux-gnueabihf /lib/arm-linux-gnueabihf)
set(CMAKE_SYSTEM_LIBRARY_PATH /usr/lib/arm-linux-gnueabihf /lib/arm-linux-gnueabihf)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu
	/usr/lib/i386-linux-gnu /lib/i386-linux-gnu
	/usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu)
set(FIND_LIBRARY_USE_LIB64_PATHS OFF)

# pkg-config: only the armhf (and architecture-independent) .pc files;
# libpci, libkmod, zlib, libcrypto, json-c, cmocka (and the bash-completion
# variables of cmake/packaging.cmake, from /usr/share/pkgconfig)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/arm-linux-gnueabihf/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Running the armhf binaries (ctest): natively on an armhf host; elsewhere
# (an arm64 host included, which may have no AArch32 at all) always
# through qemu-arm, which ctest then puts in front of every test
# executable, even where binfmt_misc would run them by itself
# (qemu-user-binfmt): the tests' kind (armhf-qemu) and so the skips they
# expect must not depend on that. qemu-arm finds the armhf ld.so and
# libraries where the :armhf packages put them (/lib/ld-linux-armhf.so.3,
# /lib/arm-linux-gnueabihf), so it needs no -L.
if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR AND
   NOT CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^armv[78]")
	if(EXISTS /usr/bin/qemu-arm)
		set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/qemu-arm)
	else()
		message(WARNING "pfnmap: this host cannot run armhf binaries "
			"and qemu-arm (package qemu-user) is missing: "
			"the armhf tests will not run")
	endif()
endif()
