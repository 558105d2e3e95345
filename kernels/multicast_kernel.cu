// The multicast write of the broadcast testcases (docs/compatibility.md#u7): 4-byte multimem
// stores into a multicast object, so that every GPU backing it receives each word.
#include <cuda_runtime.h>

#include <stdexcept>

#include "engine/kernels/kernels.h"
#include "launch_check.h"

namespace nvbw::kernels {
inline namespace unit {  // not unnamed: all_kernels.cu says why

__global__ void multicastWriteKernel(unsigned* dst, const unsigned* src, std::size_t words,
                                     unsigned long long loops) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (unsigned long long loop = 0; loop < loops; ++loop)
    for (std::size_t i = first; i < words; i += stride) {
      const unsigned value = src[i];
      asm volatile("multimem.st.global.u32 [%0], %1;" ::"l"(dst + i), "r"(value) : "memory");
    }
#else
  __trap();  // multicast objects need compute capability 9.0
#endif
}

}  // namespace unit

void multicastWrite(CUstream stream, CUdeviceptr multicastDst, CUdeviceptr src,
                    const SmCopyGeometry& geometry, unsigned long long loops) {
  if (((multicastDst | src) & 3) != 0)
    throw std::invalid_argument("multicastWriteKernel: buffers must be 4-byte aligned");
  if (geometry.elements == 0) return;
  NVBW_LAUNCH(multicastWriteKernel, geometry.grid, geometry.block, 0, stream,
              reinterpret_cast<unsigned*>(multicastDst), reinterpret_cast<const unsigned*>(src),
              geometry.bytes() / 4, loops);
}

}  // namespace nvbw::kernels
