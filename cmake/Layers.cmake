# The layers of src/ as libraries (docs/architecture.md), declared once: each nvbw_layer() names
# the folders a library is built from and the libraries it depends on, and that is the graph.
# Each layer is one static library, nvbw_<layer>, linked to the layers it depends on, built from
# the sources of its folders under src/; its headers are in the same folders under
# include/nvbandwidth/. Its include path is a view of include/nvbandwidth/ holding only its own
# folders and those of the layers it depends on, directly or through others (symbolic links made
# at configure time under <build>/layers/<layer>/), so `#include "engine/results.h"` in a file of
# a layer that does not depend on the engine is not found and the build fails: a wrong-way include
# cannot land. nvbw_write_layer_graph() writes the
# graph to <build>/layers/graph.json, where tools/layers.py reads it (it also finds circles
# between modules, which the build cannot).

set(NVBW_HEADERS "${PROJECT_SOURCE_DIR}/include/nvbandwidth")
set(NVBW_LAYER_VIEWS "${CMAKE_BINARY_DIR}/layers")
set(NVBW_LAYER_GRAPH "${NVBW_LAYER_VIEWS}/graph.json")

# nvbw_layer(<layer> SOURCES <files...> [DEPENDS <layers...>] [FOLDERS <folders...>])
#   <layer>:   the library is nvbw_<layer>; FOLDERS (default: <layer>) are the folders it owns
#              (its sources under src/, its headers under include/nvbandwidth/). DEPENDS: the layers whose headers its files include (each declared
#              before it); their own dependencies come with them.
function(nvbw_layer layer)
  cmake_parse_arguments(ARG "UNBUILT" "" "SOURCES;FOLDERS;DEPENDS" ${ARGN})
  if(NOT ARG_FOLDERS)
    set(ARG_FOLDERS ${layer})
  endif()
  set(visible ${ARG_FOLDERS})
  set(below ${ARG_DEPENDS})
  foreach(dependency IN LISTS ARG_DEPENDS)
    get_property(known GLOBAL PROPERTY NVBW_LAYER_FOLDERS_${dependency} SET)
    if(NOT known)
      message(FATAL_ERROR "layer ${layer} depends on ${dependency}, which is not declared before it")
    endif()
    get_property(folders GLOBAL PROPERTY NVBW_LAYER_VISIBLE_${dependency})
    list(APPEND visible ${folders})
    get_property(reached GLOBAL PROPERTY NVBW_LAYER_BELOW_${dependency})
    list(APPEND below ${reached})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  list(REMOVE_DUPLICATES below)
  set_property(GLOBAL PROPERTY NVBW_LAYER_FOLDERS_${layer} ${ARG_FOLDERS})
  set_property(GLOBAL PROPERTY NVBW_LAYER_VISIBLE_${layer} ${visible})
  set_property(GLOBAL PROPERTY NVBW_LAYER_BELOW_${layer} ${below})
  set_property(GLOBAL PROPERTY NVBW_LAYER_DEPENDS_${layer} ${ARG_DEPENDS})
  set_property(GLOBAL APPEND PROPERTY NVBW_LAYERS ${layer})
  # UNBUILT: a layer this configuration does not build (the MPI layer without NVBW_MULTINODE) is
  # still in the graph, so that the layer check knows whose its files are.
  if(ARG_UNBUILT)
    return()
  endif()

  set(view "${NVBW_LAYER_VIEWS}/${layer}")
  # A view made by an earlier configure may hold folders this one does not: its links go first
  # (the links only, never what they point to).
  file(GLOB_RECURSE stale LIST_DIRECTORIES true "${view}/*")
  foreach(entry IN LISTS stale)
    if(IS_SYMLINK "${entry}")
      file(REMOVE "${entry}")
    endif()
  endforeach()
  file(MAKE_DIRECTORY "${view}")
  foreach(folder IN LISTS visible)
    # A folder inside another visible one (multinode/mpi in multinode) is seen through its link.
    set(inside FALSE)
    foreach(other IN LISTS visible)
      string(FIND "${folder}" "${other}/" at)
      if(at EQUAL 0)
        set(inside TRUE)
      endif()
    endforeach()
    if(inside)
      continue()
    endif()
    get_filename_component(parent "${view}/${folder}" DIRECTORY)
    file(MAKE_DIRECTORY "${parent}")
    file(CREATE_LINK "${NVBW_HEADERS}/${folder}" "${view}/${folder}" SYMBOLIC)
  endforeach()

  add_library(nvbw_${layer} STATIC ${ARG_SOURCES})
  # PUBLIC: a layer above sees this view too, but only through its own, larger one.
  target_include_directories(nvbw_${layer} PUBLIC "${view}" "${CMAKE_BINARY_DIR}/generated")
  foreach(dependency IN LISTS ARG_DEPENDS)
    target_link_libraries(nvbw_${layer} PUBLIC nvbw_${dependency})
  endforeach()
  # A header found through the view is named as the file it links to
  # (include/nvbandwidth/<folder>/...).
  target_compile_options(nvbw_${layer} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${NVBW_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    $<$<COMPILE_LANGUAGE:CXX>:-ffile-prefix-map=${view}/=include/nvbandwidth/>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffile-prefix-map=${view}/=include/nvbandwidth/>)
  set_target_properties(nvbw_${layer} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  # With NVBW_UNITY, the C++ files of each folder are compiled in one compiler run: most of a
  # file's compile time is the headers it shares with its neighbours (nlohmann/json in the report
  # model above all), parsed and instantiated once per folder instead of once per file. Names
  # private to a file must therefore not collide with those of the other files of its folder; the
  # build says so when they do. A folder is also the unit of `using namespace`: one written at
  # file scope reaches the files compiled after it.
  if(NVBW_UNITY)
    foreach(source IN LISTS ARG_SOURCES)
      get_filename_component(dir "${source}" DIRECTORY)
      file(RELATIVE_PATH group "${PROJECT_SOURCE_DIR}" "${dir}")
      string(REPLACE "/" "_" group "${group}")
      set_source_files_properties("${source}" PROPERTIES UNITY_GROUP "${group}")
    endforeach()
    set_target_properties(nvbw_${layer} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  endif()
endfunction()

# The CUDA headers for the layers that touch the GPU (the driver is loaded at run time; the
# runtime is linked by the engine alone).
function(nvbw_layer_uses_cuda_headers layer)
  target_include_directories(nvbw_${layer} PUBLIC ${CUDAToolkit_INCLUDE_DIRS})
endfunction()

# <build>/layers/graph.json: every layer with its folders (under src/ and include/nvbandwidth/), the layers it names as
# dependencies, and what its library links as CMake holds it (LINK_LIBRARIES: the layers' libraries
# and others, CUDA::cudart_static among them), in the order they were declared:
#   {"layers": [{"name": "core", "folders": ["core"], "depends": [], "links": [...]}, ...]}
function(nvbw_write_layer_graph)
  get_property(layers GLOBAL PROPERTY NVBW_LAYERS)
  set(items "")
  foreach(layer IN LISTS layers)
    get_property(folders GLOBAL PROPERTY NVBW_LAYER_FOLDERS_${layer})
    get_property(depends GLOBAL PROPERTY NVBW_LAYER_DEPENDS_${layer})
    list(TRANSFORM folders PREPEND "\"")
    list(TRANSFORM folders APPEND "\"")
    list(JOIN folders ", " folderList)
    list(TRANSFORM depends PREPEND "\"")
    list(TRANSFORM depends APPEND "\"")
    list(JOIN depends ", " dependList)
    set(links "")
    if(TARGET nvbw_${layer})
      get_target_property(links nvbw_${layer} LINK_LIBRARIES)
    endif()
    if(NOT links)
      set(links "")
    endif()
    list(TRANSFORM links PREPEND "\"")
    list(TRANSFORM links APPEND "\"")
    list(JOIN links ", " linkList)
    list(APPEND items "    {\"name\": \"${layer}\", \"folders\": [${folderList}], \"depends\": [${dependList}], \"links\": [${linkList}]}")
  endforeach()
  list(JOIN items ",\n" body)
  file(WRITE "${NVBW_LAYER_GRAPH}" "{\"layers\": [\n${body}\n]}\n")
endfunction()
