# SPDX-License-Identifier: GPL-2.0-or-later
#
#   cmake -DGZIP=gzip -DINPUT=FILE -DOUTPUT=FILE.gz -P cmake/gzip.cmake
#
# FILE.gz as Debian wants man pages and changelogs (cmake/packaging.cmake):
# gzip -9n, the best compression and no name or timestamp in the header,
# so that the same FILE always makes the same FILE.gz.
foreach(v GZIP INPUT OUTPUT)
	if(NOT DEFINED ${v})
		message(FATAL_ERROR "gzip.cmake: -D${v}= missing")
	endif()
endforeach()
execute_process(COMMAND ${GZIP} -9n -c ${INPUT} OUTPUT_FILE ${OUTPUT}
	RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	file(REMOVE ${OUTPUT})
	message(FATAL_ERROR "gzip -9n ${INPUT}: exit status ${rc}")
endif()
