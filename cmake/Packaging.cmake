# The Debian packages, by CPack: `cmake --build build --target package` (or `cd build && cpack`)
# writes build/<name>_<version>_<arch>.deb for each component of cmake/Install.cmake:
#
#   nvbandwidth-fleet       the program, its man page, schema, expectations, docs, completion
#   nvbandwidth-fleet-mpi   the MPI program nvbandwidth-mpi and its man page (NVBW_MULTINODE)
#
# Why not "nvbandwidth": distributions package NVIDIA's nvbandwidth under that name, with the same
# command /usr/bin/nvbandwidth. Two programs cannot own one path, and the distribution's package
# does not use alternatives, so ours conflicts with it and replaces it; it also provides
# "nvbandwidth", since it runs every command line of upstream's v0.8 the same way (docs/installing.md:
# "Beside a distribution's nvbandwidth").
#
# Reproducible: the archives' times are the commit's (SOURCE_DATE_EPOCH, set below for cpack when
# the caller has not), their owners root, their order CPack's; tools/check_reproducible.sh builds
# the packages twice and compares them.

set(NVBW_PACKAGE_MAINTAINER "nvbandwidth developers <dev@nvbandwidth.invalid>"
    CACHE STRING "The Maintainer field of the Debian packages")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME "${NVBW_PACKAGE_NAME}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${NVBW_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL main)
if(NVBW_MULTINODE)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
endif()

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${NVBW_PACKAGE_MAINTAINER}")
# The programs hold NVIDIA's CUDA Runtime (linked statically) and need its driver: Debian's
# non-free area (packaging/debian/copyright).
set(CPACK_DEBIAN_PACKAGE_SECTION non-free/utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_MAIN_PACKAGE_NAME "${NVBW_PACKAGE_NAME}")
set(CPACK_DEBIAN_MAIN_PACKAGE_SECTION non-free/utils)
# libcuda.so.1 is opened at run time (platform/driver.cpp), so the driver is recommended, not a
# dependency: --help, -l, --version and the commands on saved reports need no GPU. Debian's
# driver package is libcuda1; Ubuntu's and NVIDIA's libnvidia-compute-<branch> provide it.
set(CPACK_DEBIAN_MAIN_PACKAGE_RECOMMENDS "libcuda1")
set(CPACK_DEBIAN_MAIN_PACKAGE_SUGGESTS "bash-completion")
set(CPACK_DEBIAN_MAIN_PACKAGE_CONFLICTS "nvbandwidth")
set(CPACK_DEBIAN_MAIN_PACKAGE_REPLACES "nvbandwidth")
set(CPACK_DEBIAN_MAIN_PACKAGE_PROVIDES "nvbandwidth")
set(CPACK_DEBIAN_MAIN_DESCRIPTION "GPU memory bandwidth and latency benchmark for fleets
nvbandwidth measures the bandwidth and latency of memory copies of NVIDIA
GPUs: host to GPU and back, between GPUs and within a GPU, through the copy
engines and through copy kernels. It runs every command line of NVIDIA's
nvbandwidth v0.8 (and v0.10's with --compat v0.10) with the same testcases,
text and JSON output, and adds the checks fleets run on every node:
comparison with a saved report, fixed floors, a summary of many nodes, an
HTML page and Prometheus metrics.

The NVIDIA driver (libcuda.so.1, package libcuda1 or the driver's
libnvidia-compute package) is loaded when a run starts and is recommended
rather than required: --help, --list, --version and the commands that read
saved reports work without it.

This package replaces a distribution's nvbandwidth package, which installs
the same command.")

if(NVBW_MULTINODE)
  set(CPACK_DEBIAN_MPI_PACKAGE_NAME "${NVBW_MPI_PACKAGE_NAME}")
  set(CPACK_DEBIAN_MPI_PACKAGE_SECTION non-free/utils)
  # Open MPI's library comes from shlibdeps; mpirun is recommended (srun launches it too).
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "${NVBW_PACKAGE_NAME} (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_MPI_PACKAGE_RECOMMENDS "openmpi-bin, libcuda1")
  set(CPACK_DEBIAN_MPI_DESCRIPTION "GPU memory bandwidth benchmark for fleets, MPI build
nvbandwidth-mpi is nvbandwidth built with Open MPI: it adds the multinode
testcases, which run one process per GPU under mpirun or srun, across the
GPUs of one server or of an NVLink domain of several nodes. It installs
beside nvbandwidth, whose man page, schema and documentation it shares.

The NVIDIA driver (libcuda.so.1) is loaded when a run starts and is
recommended rather than required.")
endif()

# The Debian changelog that each package needs (a native package's changelog.gz), written from
# the release and the commit's date; CHANGELOG.md beside it says what changed.
set(saved_epoch "$ENV{SOURCE_DATE_EPOCH}")
if(NVBW_SOURCE_DATE_EPOCH)
  set(ENV{SOURCE_DATE_EPOCH} "${NVBW_SOURCE_DATE_EPOCH}")
endif()
string(TIMESTAMP NVBW_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(ENV{SOURCE_DATE_EPOCH} "${saved_epoch}")
foreach(package IN ITEMS ${NVBW_PACKAGE_NAME} ${NVBW_MPI_PACKAGE_NAME})
  set(NVBW_CHANGELOG_PACKAGE "${package}")
  configure_file("${PROJECT_SOURCE_DIR}/packaging/debian/changelog.in"
                 "${CMAKE_BINARY_DIR}/packaging/${package}/changelog" @ONLY)
endforeach()
foreach(component IN ITEMS main mpi)
  set(package "${NVBW_PACKAGE_NAME}")
  set(dir "${NVBW_DOC_DIR}")
  if(component STREQUAL mpi)
    if(NOT NVBW_MULTINODE)
      continue()
    endif()
    set(package "${NVBW_MPI_PACKAGE_NAME}")
    set(dir "${NVBW_MPI_DOC_DIR}")
  endif()
  set(changelog "${CMAKE_BINARY_DIR}/packaging/${package}/changelog")
  install(CODE "execute_process(COMMAND gzip -9nkf \"${changelog}\" COMMAND_ERROR_IS_FATAL ANY)"
          COMPONENT ${component})
  install(FILES "${changelog}.gz" DESTINATION "${dir}" COMPONENT ${component})
endforeach()

# cpack reads SOURCE_DATE_EPOCH for the times in the archives: the commit's, unless the caller
# chose one.
if(NVBW_SOURCE_DATE_EPOCH)
  file(WRITE "${CMAKE_BINARY_DIR}/packaging/cpack_options.cmake"
       "if(\"\$ENV{SOURCE_DATE_EPOCH}\" STREQUAL \"\")\n"
       "  set(ENV{SOURCE_DATE_EPOCH} \"${NVBW_SOURCE_DATE_EPOCH}\")\n"
       "endif()\n")
  set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_BINARY_DIR}/packaging/cpack_options.cmake")
endif()

include(CPack)
