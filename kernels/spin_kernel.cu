// The spin kernel that holds a stream until the host has queued all the work of a sample, so that
// every copy starts together and enqueue overhead stays outside the timed region.
#include <cuda_runtime.h>

#include "engine/kernels/kernels.h"
#include "launch_check.h"

namespace nvbw::kernels {
inline namespace unit {  // not unnamed: all_kernels.cu says why

// One thread polls the host flag (mapped host memory; the volatile read goes over the bus every
// time, so the host's store is seen). clock64() counts this SM's clocks; the timeout keeps a lost
// release from hanging the GPU, and *timedOut tells the host the measurement is not trustworthy.
__global__ void spinKernel(const volatile int* flag, int* timedOut,
                           unsigned long long timeoutClocks) {
  const long long start = clock64();
  while (*flag == 0) {
    if (static_cast<unsigned long long>(clock64() - start) >= timeoutClocks) {
      *reinterpret_cast<volatile int*>(timedOut) = 1;
      return;
    }
  }
}

}  // namespace unit

void spin(CUstream stream, const volatile int* flag, int* timedOut,
          unsigned long long timeoutClocks) {
  NVBW_LAUNCH(spinKernel, 1, 1, 0, stream, flag, timedOut, timeoutClocks);
}

}  // namespace nvbw::kernels
