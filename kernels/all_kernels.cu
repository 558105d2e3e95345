// Every kernel in one CUDA translation unit. nvcc compiles a unit once per target architecture,
// and most of that time goes to the CUDA headers rather than to the kernels, so one unit builds
// several times faster than one per file. CMakeLists.txt compiles this file only; each part keeps
// its own includes, so a part can still be read (and compiled, if need be) on its own.
//
// The parts keep their kernels and helpers in the inline namespace nvbw::kernels::unit rather
// than an unnamed one: nvcc names an unnamed namespace after a hash of the source file's absolute
// path, and the kernels' names are in the binary (their registration, the device code), so two
// checkouts of one commit in different folders would build different programs.
#include "copy_kernels.cu"
#include "latency_kernels.cu"
#include "local_kernels.cu"
#include "multicast_kernel.cu"
#include "pattern_kernels.cu"
#include "spin_kernel.cu"
#include "tma_kernels.cu"

namespace nvbw::kernels {

// Every kernel of the parts above, in one list: a kernel added to a part is added here.
void preload() {
#define NVBW_PRELOAD(kernel) detail::preloadFunction(reinterpret_cast<const void*>(kernel), #kernel)
  NVBW_PRELOAD(simpleCopyKernel);
  NVBW_PRELOAD(stridingCopyKernel);
  NVBW_PRELOAD(splitWarpCopyKernel);
  NVBW_PRELOAD(spinKernel);
  NVBW_PRELOAD(fillPatternKernel);
  NVBW_PRELOAD(checkPatternKernel);
  NVBW_PRELOAD(pointerChaseKernel);
  NVBW_PRELOAD(tmaPointerChaseKernel);
  NVBW_PRELOAD(multicastWriteKernel);
  NVBW_PRELOAD(readOnlyKernel);
  NVBW_PRELOAD(writeOnlyKernel);
  NVBW_PRELOAD(tmaCopyKernel);
#undef NVBW_PRELOAD
  const cudaError_t status = cudaFuncSetAttribute(reinterpret_cast<const void*>(tmaCopyKernel),
                                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  static_cast<int>(kSharedBytes));
  // Older GPUs cannot give that much shared memory; the TMA testcases are waived there.
  if (status != cudaSuccess) cudaGetLastError();
}

}  // namespace nvbw::kernels
