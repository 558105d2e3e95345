# nvbw_generate_version_header(path): writes the version header with `git describe` of the
# source tree ("" outside a git checkout, as upstream). Written at configure time, and again
# whenever HEAD moves (a commit, a checkout): the files git changes then are configure
# dependencies, so a build directory reused across commits does not print a stale version.
function(nvbw_generate_version_header path)
  set(NVBW_GIT_VERSION "")
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --tags
                    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                    OUTPUT_VARIABLE NVBW_GIT_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE
                    ERROR_QUIET)
    nvbw_watch_git_head()
  endif()
  configure_file("${CMAKE_SOURCE_DIR}/cmake/version.h.in" "${path}" @ONLY)
endfunction()

# HEAD, the branch it names and packed-refs (worktrees included: git says where they are).
function(nvbw_watch_git_head)
  set(names HEAD packed-refs)
  execute_process(COMMAND "${GIT_EXECUTABLE}" symbolic-ref -q HEAD
                  WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                  OUTPUT_VARIABLE branch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(branch)
    list(APPEND names "${branch}")
  endif()
  foreach(name IN LISTS names)
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --git-path "${name}"
                    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                    OUTPUT_VARIABLE file OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(file)
      get_filename_component(file "${file}" ABSOLUTE BASE_DIR "${CMAKE_SOURCE_DIR}")
      if(EXISTS "${file}")
        set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
      endif()
    endif()
  endforeach()
endfunction()
