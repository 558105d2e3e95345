# nvbw_default_cuda_architectures(): sets CMAKE_CUDA_ARCHITECTURES when the user did not.
#
# The list is every architecture of ours (Volta to Blackwell) that the installed nvcc can target,
# read from `nvcc --list-gpu-arch`, with PTX for the newest so that future GPUs JIT-compile. It
# never depends on the GPUs present, so builds on GPU-less machines are identical.
function(nvbw_default_cuda_architectures)
  if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
    return()
  endif()
  set(wanted 70 75 80 86 89 90 100 120)
  find_program(NVBW_NVCC nvcc HINTS "${CMAKE_CUDA_COMPILER}" ENV CUDACXX
               PATHS /usr/local/cuda/bin)
  set(supported "")
  if(NVBW_NVCC)
    execute_process(COMMAND "${NVBW_NVCC}" --list-gpu-arch
                    OUTPUT_VARIABLE out ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0)
      string(REGEX MATCHALL "compute_[0-9]+" found "${out}")
      foreach(arch IN LISTS wanted)
        if("compute_${arch}" IN_LIST found)
          list(APPEND supported ${arch})
        endif()
      endforeach()
    endif()
  endif()
  if(NOT supported)
    set(supported 90)
  endif()
  list(GET supported -1 newest)
  list(REMOVE_AT supported -1)
  set(archs "")
  foreach(arch IN LISTS supported)
    list(APPEND archs "${arch}-real")
  endforeach()
  list(APPEND archs "${newest}")  # real + PTX
  set(CMAKE_CUDA_ARCHITECTURES "${archs}" CACHE STRING "CUDA architectures" FORCE)
  message(STATUS "nvbandwidth: CUDA architectures ${archs}")
endfunction()
