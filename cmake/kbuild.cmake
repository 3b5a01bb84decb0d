# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run one out-of-tree Kbuild build and insist that it is warning-free.
# Used by kmod/CMakeLists.txt as
#   cmake -DKDIR=<kernel build dir> -DSRC=<copy of kmod/> -DKO=<out .ko>
#         [-DW1=ON] [-DMAKE=make] -P kbuild.cmake
# The build output is printed; any line containing "warning:" (any case, so
# modpost's "WARNING:" counts too) fails the build.
foreach(v KDIR SRC KO)
	if(NOT DEFINED ${v})
		message(FATAL_ERROR "kbuild.cmake: ${v} not set")
	endif()
endforeach()
if(NOT MAKE)
	set(MAKE make)
endif()

set(args -C ${KDIR} M=${SRC})
if(W1)
	list(APPEND args W=1)
endif()
list(APPEND args modules)

# A jobserver of the calling make is not reachable from here; make would
# then say "warning: jobserver unavailable", which is not the module's fault.
unset(ENV{MAKEFLAGS})
unset(ENV{MFLAGS})
unset(ENV{MAKELEVEL})

string(REPLACE ";" " " shown "${MAKE};${args}")
message(STATUS "pfnmap: ${shown}")
execute_process(COMMAND ${MAKE} ${args}
	RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
# Print the build's own output as is
execute_process(COMMAND ${CMAKE_COMMAND} -E echo_append "${out}")

get_filename_component(name ${KO} NAME)
string(TOLOWER "${out}" lower)
string(FIND "${lower}" "warning:" warned)
if(NOT rc EQUAL 0 OR NOT warned EQUAL -1)
	# Drop the objects so that the next build compiles again and shows the
	# warnings again instead of passing on an up-to-date object.
	file(GLOB stale ${SRC}/*.o ${SRC}/*.ko ${SRC}/*.mod ${SRC}/*.mod.c
		${SRC}/.*.cmd)
	if(stale)
		file(REMOVE ${stale})
	endif()
	file(REMOVE ${KO})
	if(NOT rc EQUAL 0)
		message(FATAL_ERROR "pfnmap: kbuild failed (exit ${rc}) for ${KDIR}")
	endif()
	message(FATAL_ERROR "pfnmap: kbuild printed warnings for ${KDIR}; "
		"module builds must be warning-free")
endif()
# A plain copy: the output must look newer than its inputs afterwards
execute_process(COMMAND ${CMAKE_COMMAND} -E copy ${SRC}/${name} ${KO}
	RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "pfnmap: cannot copy ${SRC}/${name} to ${KO}")
endif()
