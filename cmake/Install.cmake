# Install rules (GNUInstallDirs): `cmake --install build` or the packages of cmake/Packaging.cmake.
#
#   bin/nvbandwidth                                  the program              (component main)
#   bin/nvbandwidth-mpi                              the MPI program          (component mpi)
#   share/man/man1/nvbandwidth.1.gz, nvbandwidth-mpi.1.gz   their man pages (nvbw_man_page)
#   share/nvbandwidth/nvbandwidth.schema.json        the JSON Schema of -j
#   share/nvbandwidth/expectations/                  example floors for --expect
#   share/doc/<package>/                             README.md, CHANGELOG.md, copyright
#   share/doc/<package>/docs/                        the reference pages the README links to
#   share/bash-completion/completions/nvbandwidth    options and testcase names (nvbandwidth-mpi:
#                                                    a link to it)
#
# The MPI program is built as multinode/nvbandwidth (where the README and the tests run it) and
# installed under its own name, so that both programs can be installed side by side.
include(GNUInstallDirs)

# The package names (cmake/Packaging.cmake says why they are not "nvbandwidth"); each package's
# documentation is in share/doc/<its name>, as Debian wants.
set(NVBW_PACKAGE_NAME nvbandwidth-fleet)
set(NVBW_MPI_PACKAGE_NAME nvbandwidth-fleet-mpi)
set(NVBW_DOC_DIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/${NVBW_PACKAGE_NAME}")
set(NVBW_MPI_DOC_DIR "${CMAKE_INSTALL_DATAROOTDIR}/doc/${NVBW_MPI_PACKAGE_NAME}")
set(NVBW_DATA_DIR "${CMAKE_INSTALL_DATADIR}/nvbandwidth")
set(NVBW_MAN_DIR "${CMAKE_INSTALL_MANDIR}/man1")
set(NVBW_COMPLETION_DIR "${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions")

# The same permissions whatever the umask of the machine that installs or packages.
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# ---- The man pages: the program's options and testcases put into packaging/man/nvbandwidth.1.in
# (nvbw_man: the rendering, which the unit tests check too.)
add_library(nvbw_man STATIC packaging/man/man_page.cpp)
target_include_directories(nvbw_man PUBLIC "${PROJECT_SOURCE_DIR}/packaging/man")
target_link_libraries(nvbw_man PUBLIC nvbw_app)
# -O0: the page is rendered once, at build time, and its text does not depend on the
# optimisation; the renderer compiles in half of -O3's time (7.4 -> 3.9 s).
target_compile_options(nvbw_man PRIVATE ${NVBW_WARNINGS} -O0)
add_executable(nvbw_make_man_page packaging/man/make_man_page.cpp)
target_link_libraries(nvbw_make_man_page PRIVATE nvbw_man)
target_compile_options(nvbw_make_man_page PRIVATE ${NVBW_WARNINGS})

# The date on the page is the commit's (cmake/Version.cmake), so that two builds of one commit
# write the same page; without git or SOURCE_DATE_EPOCH it is the configure date.
if(NVBW_SOURCE_DATE_EPOCH)
  set(saved_epoch "$ENV{SOURCE_DATE_EPOCH}")
  set(ENV{SOURCE_DATE_EPOCH} "${NVBW_SOURCE_DATE_EPOCH}")
  string(TIMESTAMP NVBW_MAN_DATE "%Y-%m-%d" UTC)
  set(ENV{SOURCE_DATE_EPOCH} "${saved_epoch}")
else()
  string(TIMESTAMP NVBW_MAN_DATE "%Y-%m-%d" UTC)
endif()

# nvbw_man_page(<program> <single|multinode> <component>): the page is written at build time as
# build/man/<program>.1 (naming the install prefix of the configure: `man -l` reads it, the tests
# lint it), and again when installed, naming the prefix it is installed under (the packages
# install under /usr whatever the configure's prefix), gzipped with -n (no name or time stamp).
function(nvbw_man_page program scope component)
  set(page "${CMAKE_BINARY_DIR}/man/${program}.1")
  set(template "${PROJECT_SOURCE_DIR}/packaging/man/nvbandwidth.1.in")
  add_custom_command(
    OUTPUT "${page}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_BINARY_DIR}/man"
    COMMAND nvbw_make_man_page "${template}" "${page}" "${program}" ${scope} "${NVBW_MAN_DATE}"
            "${CMAKE_INSTALL_PREFIX}/${NVBW_DATA_DIR}" "${CMAKE_INSTALL_PREFIX}/${NVBW_DOC_DIR}"
    DEPENDS nvbw_make_man_page "${template}"
    COMMENT "Writing the man page ${program}(1)"
    VERBATIM)
  add_custom_target(nvbw_man_${scope} ALL DEPENDS "${page}")
  set(staged "${CMAKE_BINARY_DIR}/man/installed/${program}.1")
  install(CODE "
    file(MAKE_DIRECTORY \"${CMAKE_BINARY_DIR}/man/installed\")
    execute_process(
      COMMAND \"$<TARGET_FILE:nvbw_make_man_page>\" \"${template}\" \"${staged}\" ${program} ${scope}
              \"${NVBW_MAN_DATE}\" \"\${CMAKE_INSTALL_PREFIX}/${NVBW_DATA_DIR}\"
              \"\${CMAKE_INSTALL_PREFIX}/${NVBW_DOC_DIR}\"
      COMMAND_ERROR_IS_FATAL ANY)
    execute_process(COMMAND gzip -9nf \"${staged}\" COMMAND_ERROR_IS_FATAL ANY)
    file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${NVBW_MAN_DIR}\" TYPE FILE
         FILES \"${staged}.gz\")" COMPONENT ${component})
endfunction()

# ---- The program, its page, its data, its documentation (component main) ----
install(TARGETS nvbandwidth RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT main)
nvbw_man_page(nvbandwidth single main)
install(FILES docs/nvbandwidth.schema.json DESTINATION "${NVBW_DATA_DIR}" COMPONENT main)
install(DIRECTORY docs/expectations/ DESTINATION "${NVBW_DATA_DIR}/expectations" COMPONENT main
        FILES_MATCHING PATTERN "*.txt" PATTERN "README.md")
install(FILES README.md CHANGELOG.md packaging/debian/copyright DESTINATION "${NVBW_DOC_DIR}"
        COMPONENT main)
# The README is short; the reference is in the pages of docs/.
install(DIRECTORY docs/ DESTINATION "${NVBW_DOC_DIR}/docs" COMPONENT main
        FILES_MATCHING PATTERN "*.md" PATTERN "expectations" EXCLUDE)
install(FILES packaging/bash-completion/nvbandwidth DESTINATION "${NVBW_COMPLETION_DIR}"
        COMPONENT main)

# ---- The MPI program (component mpi) ----
if(NVBW_MULTINODE)
  # Installed by file, to give it its own name; stripped as install(TARGETS) strips when asked
  # (cmake --install --strip, and the packages). The run path Open MPI's link flags give it
  # (its library directory) goes: the library it needs, libmpi.so.40, is on the system's path.
  install(PROGRAMS "$<TARGET_FILE:nvbandwidth_multinode>" DESTINATION "${CMAKE_INSTALL_BINDIR}"
          RENAME nvbandwidth-mpi COMPONENT mpi)
  install(CODE "
    set(mpi_program \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/nvbandwidth-mpi\")
    file(RPATH_REMOVE FILE \"\${mpi_program}\")
    if(CMAKE_INSTALL_DO_STRIP)
      execute_process(COMMAND \"${CMAKE_STRIP}\" \"\${mpi_program}\" RESULT_VARIABLE stripped)
      if(NOT stripped EQUAL 0)
        message(FATAL_ERROR \"cannot strip \${mpi_program}\")
      endif()
    endif()" COMPONENT mpi)
  nvbw_man_page(nvbandwidth-mpi multinode mpi)
  install(FILES CHANGELOG.md packaging/debian/copyright DESTINATION "${NVBW_MPI_DOC_DIR}"
          COMPONENT mpi)
  # bash-completion finds a command's completion by the command's name.
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/completion")
  file(CREATE_LINK nvbandwidth "${CMAKE_BINARY_DIR}/completion/nvbandwidth-mpi" SYMBOLIC)
  install(FILES "${CMAKE_BINARY_DIR}/completion/nvbandwidth-mpi"
          DESTINATION "${NVBW_COMPLETION_DIR}" COMPONENT mpi)
endif()
