// The pointer-chase kernel of the latency testcases.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "launch_check.h"
#include "nvbandwidth/kernels.h"

namespace nvbw {
namespace kernels {
namespace {

// Only block `activeBlock` works; the launch still has `blocks` blocks so that the chasing thread
// runs on the SM that the block scheduler gives that block index, as upstream.
//
// Each load's address is the previous load's value, so the loads serialise and the time per access
// is the load-to-use latency. ld.global.cg (L2 only) keeps a revisited node from hitting in L1;
// with the default 2 MiB chain of 128-byte-apart nodes it would miss L1 anyway. The final pointer
// goes to *sink, so the chain is live and the caller can check where it ended.
__global__ void pointerChaseKernel(const unsigned long long* start, unsigned activeBlock,
                                   unsigned long long accesses, unsigned long long* sink) {
  if (blockIdx.x != activeBlock) return;
  const unsigned long long* node = start;
  for (unsigned long long i = 0; i < accesses; ++i) {
    node = reinterpret_cast<const unsigned long long*>(__ldcg(node));
  }
  *sink = reinterpret_cast<unsigned long long>(node);
}

}  // namespace

namespace detail {
void preloadLatencyKernels() {
  preloadFunction(reinterpret_cast<const void*>(pointerChaseKernel), "pointerChaseKernel");
}
}  // namespace detail

void pointerChase(CUstream stream, CUdeviceptr start, unsigned blocks, unsigned activeBlock,
                  unsigned long long accesses, unsigned long long* sink) {
  if (activeBlock >= blocks) {
    throw std::invalid_argument("pointerChaseKernel: active block " + std::to_string(activeBlock) +
                                " is outside a grid of " + std::to_string(blocks) + " blocks");
  }
  pointerChaseKernel<<<blocks, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const unsigned long long*>(start), activeBlock, accesses, sink);
  detail::throwIfLaunchFailed("pointerChaseKernel");
}

}  // namespace kernels
}  // namespace nvbw
