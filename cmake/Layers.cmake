# The layers of src/ as libraries, lowest first (docs/architecture.md). Each layer is one static
# library, nvbw_<layer>, built from the sources of its folder and linked to the layer below it.
# Its include path is a view of src/ holding only its own folder and the folders below it
# (symbolic links made at configure time under <build>/layers/<layer>/), so `#include
# "report/output.h"` in a file of the engine layer is not found and the build fails: a wrong-way
# include cannot land. tools/layers.py prints the graph and also finds circles between modules.

set(NVBW_LAYER_VIEWS "${CMAKE_BINARY_DIR}/layers")

# nvbw_layer(<layer> SOURCES <files...> [BELOW <layer>] [FOLDERS <folders...>])
#   <layer>:   the library is nvbw_<layer>; FOLDERS (default: <layer>) are the folders under src/
#              it owns, which its view adds to those of the layer BELOW.
function(nvbw_layer layer)
  cmake_parse_arguments(ARG "" "BELOW" "SOURCES;FOLDERS" ${ARGN})
  if(NOT ARG_FOLDERS)
    set(ARG_FOLDERS ${layer})
  endif()
  set(visible ${ARG_FOLDERS})
  if(ARG_BELOW)
    get_property(below GLOBAL PROPERTY NVBW_LAYER_FOLDERS_${ARG_BELOW})
    list(APPEND visible ${below})
  endif()
  list(REMOVE_DUPLICATES visible)
  set_property(GLOBAL PROPERTY NVBW_LAYER_FOLDERS_${layer} ${visible})

  set(view "${NVBW_LAYER_VIEWS}/${layer}")
  file(MAKE_DIRECTORY "${view}")
  foreach(folder IN LISTS visible)
    get_filename_component(parent "${view}/${folder}" DIRECTORY)
    file(MAKE_DIRECTORY "${parent}")
    file(CREATE_LINK "${PROJECT_SOURCE_DIR}/src/${folder}" "${view}/${folder}" SYMBOLIC)
  endforeach()

  add_library(nvbw_${layer} STATIC ${ARG_SOURCES})
  # PUBLIC: a layer above sees this view too, but only through its own, larger one.
  target_include_directories(nvbw_${layer} PUBLIC
    "${view}" "${CMAKE_BINARY_DIR}/generated" ${CUDAToolkit_INCLUDE_DIRS})
  if(ARG_BELOW)
    target_link_libraries(nvbw_${layer} PUBLIC nvbw_${ARG_BELOW})
  endif()
  # A header found through the view is named as the source it links to (src/<folder>/...).
  target_compile_options(nvbw_${layer} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${NVBW_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    $<$<COMPILE_LANGUAGE:CXX>:-ffile-prefix-map=${view}/=src/>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffile-prefix-map=${view}/=src/>)
  set_target_properties(nvbw_${layer} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # With NVBW_UNITY, the C++ files of each folder are compiled in one compiler run: most of a
  # file's compile time is the headers it shares with its neighbours (nlohmann/json above all),
  # parsed and instantiated once per folder instead of once per file. Names private to a file must
  # therefore not collide with those of the other files of its folder; the build says so when they
  # do. A folder is also the unit of `using namespace`: one written at file scope reaches the
  # files compiled after it.
  if(NVBW_UNITY)
    foreach(source IN LISTS ARG_SOURCES)
      get_filename_component(dir "${source}" DIRECTORY)
      file(RELATIVE_PATH group "${PROJECT_SOURCE_DIR}/src" "${dir}")
      string(REPLACE "/" "_" group "${group}")
      set_source_files_properties("${source}" PROPERTIES UNITY_GROUP "${group}")
    endforeach()
    set_target_properties(nvbw_${layer} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  endif()
endfunction()
