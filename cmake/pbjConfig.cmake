# pbjConfig.cmake: find_package(pbj) gives pbj::pbjc (the compiler), pbj::runtime (the header-only runtime),
# pbj::wkt (the well-known types' code, libpbj_wkt.a, for schemas that import google/protobuf/*.proto)
# and pbj_generate(), which adds the C code pbjc generates from .proto files to a target.
#
#   find_package(pbj REQUIRED)
#   add_executable(app main.c)
#   pbj_generate(app PROTOS proto/shop/order.proto IMPORT_DIRS proto)
#
# pbj_generate(TARGET PROTOS files... [IMPORT_DIRS dirs...] [OUT_DIR dir] [OPTIONS flags...])
#   Each .proto gives OUT_DIR/<name>.pb.c and .pb.h (OUT_DIR defaults to ${CMAKE_CURRENT_BINARY_DIR}/pbj;
#   <name> is the file's path below the import dir holding it; IMPORT_DIRS default to the current source
#   dir). The .pb.c files become sources of TARGET, OUT_DIR an include directory, pbj::runtime a link.
#   OPTIONS are more pbjc flags (--views, --writers, --performance=max, ...). pbjc runs for a .proto when
#   it or a file it imports changes (its dependency file, -MD, is the command's DEPFILE); the command's
#   output is a stamp and the sources are byproducts, which pbjc leaves untouched when their bytes did not
#   change, so nothing that includes them is compiled again (Ninja and Makefiles generators alike).

cmake_minimum_required(VERSION 3.20)   # DEPFILE with the Makefiles generators

get_filename_component(_pbj_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(PBJ_PBJC pbjc HINTS "${_pbj_prefix}/bin" DOC "the pbjc compiler")
if(NOT PBJ_PBJC)
  set(pbj_FOUND FALSE)
  set(pbj_NOT_FOUND_MESSAGE "pbjc not found in ${_pbj_prefix}/bin")
  return()
endif()

if(NOT TARGET pbj::pbjc)
  add_executable(pbj::pbjc IMPORTED)
  set_target_properties(pbj::pbjc PROPERTIES IMPORTED_LOCATION "${PBJ_PBJC}")
endif()
if(NOT TARGET pbj::runtime)
  add_library(pbj::runtime INTERFACE IMPORTED)
  set_target_properties(pbj::runtime PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_pbj_prefix}/include/pbj")
endif()
if(NOT TARGET pbj::wkt)
  add_library(pbj::wkt STATIC IMPORTED)
  set_target_properties(pbj::wkt PROPERTIES IMPORTED_LOCATION "${_pbj_prefix}/lib/libpbj_wkt.a"
                                            INTERFACE_LINK_LIBRARIES "pbj::runtime;m")
endif()

# The name pbjc gives proto (an absolute path): its path below the first import dir holding it.
function(_pbj_proto_name out proto dirs)
  foreach(dir IN LISTS dirs)
    file(RELATIVE_PATH rel "${dir}" "${proto}")
    if(NOT rel MATCHES "^\\.\\./")
      string(REGEX REPLACE "\\.proto$" "" rel "${rel}")
      set(${out} "${rel}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "pbj_generate: ${proto} is under none of the IMPORT_DIRS (${dirs})")
endfunction()

function(pbj_generate target)
  cmake_parse_arguments(PBJ "" "OUT_DIR" "PROTOS;IMPORT_DIRS;OPTIONS" ${ARGN})
  if(NOT PBJ_PROTOS)
    message(FATAL_ERROR "pbj_generate(${target}): no PROTOS")
  endif()
  if(NOT PBJ_OUT_DIR)
    set(PBJ_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/pbj")
  endif()
  if(NOT PBJ_IMPORT_DIRS)
    set(PBJ_IMPORT_DIRS "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  set(dirs "")
  set(includes "")
  foreach(dir IN LISTS PBJ_IMPORT_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND dirs "${dir}")
    list(APPEND includes "-I" "${dir}")
  endforeach()
  foreach(proto IN LISTS PBJ_PROTOS)
    get_filename_component(proto "${proto}" ABSOLUTE)
    _pbj_proto_name(name "${proto}" "${dirs}")
    set(base "${PBJ_OUT_DIR}/${name}")
    add_custom_command(
      OUTPUT "${base}.pb.stamp"
      BYPRODUCTS "${base}.pb.c" "${base}.pb.h"
      COMMAND pbj::pbjc ${includes} -o "${PBJ_OUT_DIR}" -MD -MT "${base}.pb.stamp" ${PBJ_OPTIONS} "${proto}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${base}.pb.stamp"
      DEPENDS "${proto}" pbj::pbjc
      DEPFILE "${base}.pb.d"
      COMMENT "pbjc ${name}.proto"
      VERBATIM)
    target_sources(${target} PRIVATE "${base}.pb.stamp" "${base}.pb.c" "${base}.pb.h")   # the stamp runs the command
  endforeach()
  target_include_directories(${target} PUBLIC "${PBJ_OUT_DIR}")
  target_link_libraries(${target} PUBLIC pbj::runtime)
endfunction()
