# SPDX-License-Identifier: GPL-2.0-or-later
#
# 32-bit (i386) build of the CLI and its tests on an amd64 Debian host:
#   cmake -B build32 -DCMAKE_TOOLCHAIN_FILE=cmake/i386-toolchain.cmake
# with gcc; with clang (-m32 too, on gcc-12-multilib's 32-bit runtime):
#   CC=clang cmake -B build32 -DCMAKE_TOOLCHAIN_FILE=...  (or
#   -DCMAKE_C_COMPILER=clang)
# Needs gcc-12-multilib and the :i386 -dev packages (scripts/install-deps.sh).
# The host runs the resulting binaries directly, so ctest works as usual.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)

# gcc unless the compiler is chosen (CC, -DCMAKE_C_COMPILER): a plain
# set() here would override the choice
if(NOT DEFINED CMAKE_C_COMPILER AND NOT DEFINED ENV{CC})
	set(CMAKE_C_COMPILER gcc)
endif()
set(CMAKE_C_FLAGS_INIT "-m32")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-m32")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-m32")

# find_library() and friends: the i386 multiarch directories, not amd64's
set(CMAKE_LIBRARY_PATH /usr/lib/i386-linux-gnu /lib/i386-linux-gnu)
set(CMAKE_SYSTEM_LIBRARY_PATH /usr/lib/i386-linux-gnu /lib/i386-linux-gnu)
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)
set(FIND_LIBRARY_USE_LIB64_PATHS OFF)

# pkg-config: only the i386 (and architecture-independent) .pc files
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Running the i386 binaries (ctest): natively where the kernel allows it;
# where IA32 emulation is off (dmesg: "32-bit emulation disabled", as on the
# CI machines) through qemu-user's qemu-i386, which ctest then puts in front
# of every test executable.
if(NOT DEFINED CMAKE_CROSSCOMPILING_EMULATOR)
	execute_process(COMMAND /lib/ld-linux.so.2 --version
		RESULT_VARIABLE _pfnmap_i386_rc OUTPUT_QUIET ERROR_QUIET)
	if(NOT _pfnmap_i386_rc EQUAL 0)
		if(EXISTS /usr/bin/qemu-i386)
			set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/qemu-i386)
		else()
			message(WARNING "pfnmap: this host cannot run i386 binaries "
				"and qemu-i386 (package qemu-user) is missing: "
				"the 32-bit tests will not run")
		endif()
	endif()
endif()
