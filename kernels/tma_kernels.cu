// Copies through the Tensor Memory Accelerator (the *_tma testcases): bulk asynchronous copies
// global -> shared -> global, issued by one thread per block, with mbarrier completion.
//
// Each block owns a contiguous run of 32 KiB chunks and keeps kStages of them in flight in its
// shared memory: a chunk's bulk load completes on its stage's mbarrier, the thread then issues its
// bulk store from the same stage, and the stage takes the next load once that store has finished
// reading it. One block per SM with 6 stages keeps 192 KiB per SM moving, far more than the
// bandwidth-delay product of HBM or NVLink needs; other stage counts and sizes, blocks per SM,
// stores in flight, L2 hints or interleaved chunks did no better. Only compute capability 9.0 and
// later have these instructions; elsewhere the kernel traps (the testcases are waived there first).
#include <cuda_runtime.h>

#include <stdexcept>

#include "engine/kernels/kernels.h"
#include "launch_check.h"
#include "tma_ptx.cuh"

namespace nvbw::kernels {
inline namespace unit {  // not unnamed: all_kernels.cu says why

constexpr unsigned kStages = 6;
constexpr unsigned kChunkBytes = 32u << 10;
constexpr unsigned kSharedBytes = kStages * kChunkBytes;
// Stores left in flight before a stage is refilled; below kStages, so that the load of chunk
// n + 1 is always issued before chunk n's store.
constexpr unsigned kStoreLag = 3;
static_assert(kStoreLag + 1 < kStages, "the pipeline needs loads ahead of the stores");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
using tma::bulkLoad;
using tma::expectBytes;
using tma::sharedAddress;
using tma::waitPhase;

__device__ __forceinline__ void bulkStore(char* dst, unsigned stage, unsigned bytes) {
  asm volatile("fence.proxy.async.shared::cta;\n"
               "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n"
               "cp.async.bulk.commit_group;" ::"l"(dst),
               "r"(stage), "r"(bytes)
               : "memory");
}

// Waits until at most kStoreLag of the bulk stores issued so far have yet to read shared memory.
__device__ __forceinline__ void olderStoresHaveRead() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(kStoreLag) : "memory");
}
__device__ __forceinline__ void storesComplete() {
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
#endif

// Copies chunks [begin, end) of src to dst; `bytes` is the whole copy (its last chunk may be
// short).
__global__ void __launch_bounds__(32)
    tmaCopyKernel(char* dst, const char* src, std::size_t bytes, unsigned long long loops) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) char stages[];
  __shared__ __align__(8) unsigned long long barriers[kStages];
  if (threadIdx.x != 0) return;
  const std::size_t chunks = (bytes + kChunkBytes - 1) / kChunkBytes;
  const std::size_t begin = chunks * blockIdx.x / gridDim.x;
  const std::size_t end = chunks * (blockIdx.x + 1) / gridDim.x;
  const std::size_t count = end - begin;
  if (count == 0) return;
  for (unsigned s = 0; s < kStages; ++s) tma::initBarrier(sharedAddress(&barriers[s]));
  tma::publishBarriers();

  auto chunkBytes = [&](std::size_t c) {
    return static_cast<unsigned>(c + 1 < chunks ? kChunkBytes : bytes - c * kChunkBytes);
  };
  unsigned uses[kStages] = {};  // completed phases per stage, for the parity to wait on
  const std::size_t total = count * loops;
  auto load = [&](std::size_t n) {  // the n-th chunk of this block's work, over all loops
    const std::size_t c = begin + n % count;
    const unsigned s = static_cast<unsigned>(n % kStages);
    expectBytes(sharedAddress(&barriers[s]), chunkBytes(c));
    bulkLoad(sharedAddress(stages + s * kChunkBytes), src + c * kChunkBytes, chunkBytes(c),
             sharedAddress(&barriers[s]));
  };
  for (std::size_t n = 0; n < total && n < kStages; ++n) load(n);
  for (std::size_t n = 0; n < total; ++n) {
    const std::size_t c = begin + n % count;
    const unsigned s = static_cast<unsigned>(n % kStages);
    waitPhase(sharedAddress(&barriers[s]), uses[s] & 1);
    ++uses[s];
    bulkStore(dst + c * kChunkBytes, sharedAddress(stages + s * kChunkBytes), chunkBytes(c));
    // Refill the stage of the store issued kStoreLag chunks ago once it has read its stage, so
    // that stores and loads overlap instead of alternating.
    if (n >= kStoreLag && n - kStoreLag + kStages < total) {
      olderStoresHaveRead();
      load(n - kStoreLag + kStages);
    }
  }
  storesComplete();
#else
  __trap();  // bulk copies need compute capability 9.0
#endif
}

}  // namespace unit

void tmaCopy(CUstream stream, CUdeviceptr dst, CUdeviceptr src, const SmCopyGeometry& geometry,
             unsigned long long loops) {
  if ((dst | src) & 15)
    throw std::invalid_argument("tmaCopyKernel: buffers must be 16-byte aligned");
  if (geometry.elements == 0) return;
  NVBW_LAUNCH(tmaCopyKernel, geometry.grid, 32, kSharedBytes, stream, reinterpret_cast<char*>(dst),
              reinterpret_cast<const char*>(src), geometry.bytes(), loops);
}

}  // namespace nvbw::kernels
