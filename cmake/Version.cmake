# nvbw_generate_version_header(path): writes the version header with `git describe` of the
# source tree ("" outside a git checkout, as upstream). Written at configure time, and again
# whenever HEAD moves (a commit, a checkout): the files git changes then are configure
# dependencies, so a build directory reused across commits does not print a stale version.
function(nvbw_generate_version_header path)
  set(NVBW_GIT_VERSION "")
  find_package(Git QUIET)
  if(GIT_FOUND)
    # --abbrev=7: the hash as long as in any clone (git's default grows with the clone's object
    # count, and two clones of one commit would then build different programs).
    execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --tags --abbrev=7
                    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                    OUTPUT_VARIABLE NVBW_GIT_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE
                    ERROR_QUIET)
    nvbw_watch_git_head()
  endif()
  configure_file("${CMAKE_SOURCE_DIR}/cmake/version.h.in" "${path}" @ONLY)
  nvbw_source_date_epoch()
  set(NVBW_SOURCE_DATE_EPOCH "${NVBW_SOURCE_DATE_EPOCH}" PARENT_SCOPE)
endfunction()

# NVBW_SOURCE_DATE_EPOCH: the time the packages and the man page give their files and dates,
# so that two builds of one commit are the same: SOURCE_DATE_EPOCH when it is set, else the time
# of the commit HEAD names; empty outside a git checkout (then the build's own time is used).
function(nvbw_source_date_epoch)
  set(epoch "$ENV{SOURCE_DATE_EPOCH}")
  if(NOT epoch AND GIT_FOUND)
    execute_process(COMMAND "${GIT_EXECUTABLE}" log -1 --format=%ct
                    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
                    OUTPUT_VARIABLE epoch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  set(NVBW_SOURCE_DATE_EPOCH "${epoch}" PARENT_SCOPE)
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
