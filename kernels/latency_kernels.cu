// The pointer-chase kernels of the latency testcases: dependent loads (the *_latency_sm
// testcases) and dependent bulk copies through the Tensor Memory Accelerator
// (device_to_device_latency_tma).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "engine/kernels/kernels.h"
#include "launch_check.h"
#include "tma_ptx.cuh"

namespace nvbw::kernels {
inline namespace unit {  // not unnamed: all_kernels.cu says why

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
  for (unsigned long long i = 0; i < accesses; ++i)
    node = reinterpret_cast<const unsigned long long*>(__ldcg(node));
  *sink = reinterpret_cast<unsigned long long>(node);
}

// The same chase with every access a bulk copy: the thread asks the TMA to copy the node's 16
// bytes (the smallest bulk copy; the node's 8 and the 8 after it, which lie in the same 128-byte
// line) into shared memory, waits on the mbarrier for them to land, and reads the next node's
// address from shared memory. The next copy's source operand is that value, so each access
// starts only after the previous one has completed, and the time per access is the TMA's issue,
// the round trip to the memory (L2 of the GPU that owns it) and the mbarrier's completion.
//
// No proxy fence between the generic read of `landing` and the next bulk copy into it: that copy
// is issued with the value just read, so the read has completed before the write can start.
__global__ void tmaPointerChaseKernel(const unsigned long long* start, unsigned activeBlock,
                                      unsigned long long accesses, unsigned long long* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ __align__(16) unsigned long long landing[tma::kGranule / 8];
  __shared__ __align__(8) unsigned long long barrier;
  if (blockIdx.x != activeBlock) return;
  const unsigned bar = tma::sharedAddress(&barrier);
  const unsigned dst = tma::sharedAddress(landing);
  tma::initBarrier(bar);
  tma::publishBarriers();
  unsigned long long node = reinterpret_cast<unsigned long long>(start);
  for (unsigned long long i = 0; i < accesses; ++i) {
    tma::expectBytes(bar, tma::kGranule);
    tma::bulkLoad(dst, reinterpret_cast<const void*>(node), tma::kGranule, bar);
    tma::waitPhase(bar, static_cast<unsigned>(i & 1));  // access i completes phase i
    asm volatile("ld.shared.u64 %0, [%1];" : "=l"(node) : "r"(dst) : "memory");
  }
  *sink = node;
#else
  __trap();  // bulk copies need compute capability 9.0 (the testcase is waived below it)
#endif
}

}  // namespace unit

void pointerChase(CUstream stream, CUdeviceptr start, unsigned blocks, unsigned activeBlock,
                  unsigned long long accesses, unsigned long long* sink) {
  if (activeBlock >= blocks)
    throw std::invalid_argument("pointerChaseKernel: active block " + std::to_string(activeBlock) +
                                " is outside a grid of " + std::to_string(blocks) + " blocks");
  NVBW_LAUNCH(pointerChaseKernel, blocks, 1, 0, stream,
              reinterpret_cast<const unsigned long long*>(start), activeBlock, accesses, sink);
}

void tmaPointerChase(CUstream stream, CUdeviceptr start, unsigned blocks, unsigned activeBlock,
                     unsigned long long accesses, unsigned long long* sink) {
  if (activeBlock >= blocks)
    throw std::invalid_argument("tmaPointerChaseKernel: active block " +
                                std::to_string(activeBlock) + " is outside a grid of " +
                                std::to_string(blocks) + " blocks");
  // A bulk copy's global address must be 16-byte aligned; the chain's nodes are 128 bytes apart
  // from its start, so the start decides.
  if (start % 16 != 0)
    throw std::invalid_argument("tmaPointerChaseKernel: the chain must start 16-byte aligned");
  NVBW_LAUNCH(tmaPointerChaseKernel, blocks, 1, 0, stream,
              reinterpret_cast<const unsigned long long*>(start), activeBlock, accesses, sink);
}

}  // namespace nvbw::kernels
