# The public API's build-level guard (docs/api.md), run by ctest as
# `public-header-includes`: cmake -DSOURCE_DIR=<floe> -P public_header_includes.cmake
#  - engine/api/floe.h includes standard C++ headers only (<name>, no directory, no ".h");
#  - the programs on the public API include no internal header of floe: their quoted includes
#    are engine/api/floe.h or headers of their own program's directory (shell/, bench/), never
#    storage/, runtime/, codegen/ or the rest of engine/.
cmake_minimum_required(VERSION 3.20)

set(failures "")

file(STRINGS "${SOURCE_DIR}/engine/api/floe.h" lines REGEX "^[ \t]*#[ \t]*include")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]+<[a-z_]+>")
    string(APPEND failures "engine/api/floe.h: not a standard header: ${line}\n")
  endif()
endforeach()

# Each program's files, and the directory its own headers live in.
set(programs
  "shell/*.h|shell/*.cpp|shell/"
  "bench/api/*.cpp|bench/api/"
  "bench/tpcc/*.h|bench/tpcc/*.cpp|bench/tpcc/"
  "docs/examples/public_api.cpp|docs/examples/"
)
foreach(program IN LISTS programs)
  string(REPLACE "|" ";" parts "${program}")
  list(POP_BACK parts own)
  set(files "")
  foreach(pattern IN LISTS parts)
    file(GLOB matched RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${pattern}")
    list(APPEND files ${matched})
  endforeach()
  if(NOT files)
    string(APPEND failures "no files match ${program}\n")
  endif()
  foreach(path IN LISTS files)
    file(STRINGS "${SOURCE_DIR}/${path}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]*)\".*" "\\1" header "${line}")
      string(FIND "${header}" "${own}" at)
      if(NOT header STREQUAL "engine/api/floe.h" AND NOT at EQUAL 0)
        string(APPEND failures "${path}: includes an internal header: ${header}\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(failures)
  message(FATAL_ERROR "the public API's include rules are broken:\n${failures}")
endif()
message(STATUS "engine/api/floe.h and its programs include no internal header")
