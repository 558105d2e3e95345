# nvbw_generate_version_header(path): writes the version header with `git describe` of the
# source tree at configure time ("" outside a git checkout, as upstream).
function(nvbw_generate_version_header path)
  set(NVBW_GIT_VERSION "")
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --tags
                    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                    OUTPUT_VARIABLE NVBW_GIT_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE
                    ERROR_QUIET)
  endif()
  configure_file("${CMAKE_SOURCE_DIR}/cmake/version.h.in" "${path}" @ONLY)
endfunction()
