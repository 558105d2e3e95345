// Verification kernels: fill a buffer with the repeating pattern, and count the words that differ
// from it.
//
// These run on every sample over the whole adjusted buffer (512 MiB to 1 GiB per buffer by
// default), so they are written to run at memory bandwidth: 16-byte accesses when both pointers
// allow it, four independent accesses per thread in flight, a grid of exactly the blocks that fit
// on the device at once (a grid-stride loop, so no partial second wave), and for the check one
// atomic per block that found a mismatch and none otherwise.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "engine/kernels/kernels.h"
#include "launch_check.h"
#include "plans/pattern.h"

namespace nvbw::kernels {
inline namespace unit {  // not unnamed: all_kernels.cu says why

constexpr unsigned kThreads = 1024;  // threads per block, as upstream's fill and compare
constexpr unsigned kUnroll = 4;      // independent 16-byte accesses per thread per iteration
constexpr std::size_t kPatternVectors = kPatternWords / 4;
static_assert(kPatternWords % 4 == 0, "a uint4 must not straddle the pattern's wrap-around");
static_assert((kPatternVectors & (kPatternVectors - 1)) == 0, "the modulo below is a mask");
constexpr std::size_t kPatternVectorMask = kPatternVectors - 1;
constexpr unsigned long long kNoMismatch = ~0ull;

__device__ __forceinline__ std::size_t threadIndex() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t threadCount() {
  return static_cast<std::size_t>(gridDim.x) * blockDim.x;
}
__device__ __forceinline__ bool aligned16(const void* a, const void* b) {
  return ((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b)) & 15) == 0;
}

// buf[w] = pattern[w mod kPatternWords] for w < words. __restrict__: the buffer and the pattern
// never overlap, which lets the pattern loads of an iteration all issue before its stores.
__global__ void fillPatternKernel(std::uint32_t* __restrict__ buf, std::size_t words,
                                  const std::uint32_t* __restrict__ pattern) {
  const std::size_t tid = threadIndex();
  const std::size_t stride = threadCount();
  std::size_t vectorWords = 0;  // words written by the 16-byte path
  if (aligned16(buf, pattern)) {
    auto* out = reinterpret_cast<uint4*>(buf);
    const auto* in = reinterpret_cast<const uint4*>(pattern);
    const std::size_t vectors = words / 4;
    std::size_t i = tid;
    for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
      uint4 v[kUnroll];
#pragma unroll
      for (unsigned k = 0; k < kUnroll; ++k) v[k] = in[(i + k * stride) & kPatternVectorMask];
#pragma unroll
      for (unsigned k = 0; k < kUnroll; ++k) out[i + k * stride] = v[k];
    }
    for (; i < vectors; i += stride) out[i] = in[i & kPatternVectorMask];
    vectorWords = vectors * 4;
  }
  // The words the vector path did not cover: the last 0-3, or all of them when misaligned.
  for (std::size_t w = vectorWords + tid; w < words; w += stride)
    buf[w] = pattern[w % kPatternWords];
}

// Counts the mismatching words of one 16-byte element at word offset `word`.
__device__ __forceinline__ void compareVector(const uint4& v, const uint4& p, std::size_t word,
                                              unsigned long long& count,
                                              unsigned long long& first) {
  const unsigned differs = (v.x != p.x) | (v.y != p.y) << 1 | (v.z != p.z) << 2 | (v.w != p.w) << 3;
  if (differs) {
    count += __popc(differs);
    // Each thread walks its words in increasing order, so its first mismatch is its smallest.
    if (first == kNoMismatch) first = word + (__ffs(differs) - 1);
  }
}

__device__ __forceinline__ unsigned long long warpSum(unsigned long long v) {
  for (unsigned offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(~0u, v, offset);
  return v;
}
__device__ __forceinline__ unsigned long long warpMin(unsigned long long v) {
  for (unsigned offset = 16; offset > 0; offset /= 2) v = min(v, __shfl_xor_sync(~0u, v, offset));
  return v;
}

// Adds this block's mismatches to *result. Blocks without one return after a single barrier, so a
// passing check (the normal case) performs no atomics at all; this matters because *result is
// usually mapped host memory, where every atomic crosses the bus.
__device__ void publishBlockResult(unsigned long long count, unsigned long long first,
                                   CheckResult* result) {
  if (!__syncthreads_or(count != 0)) return;
  __shared__ unsigned long long warpCounts[kThreads / 32];
  __shared__ unsigned long long warpFirsts[kThreads / 32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  count = warpSum(count);
  first = warpMin(first);
  if (lane == 0) {
    warpCounts[warp] = count;
    warpFirsts[warp] = first;
  }
  __syncthreads();
  if (warp != 0) return;
  const unsigned warps = blockDim.x / 32;
  count = warpSum(lane < warps ? warpCounts[lane] : 0);
  first = warpMin(lane < warps ? warpFirsts[lane] : kNoMismatch);
  if (lane == 0 && count != 0) {
    atomicAdd(&result->mismatches, count);
    atomicMin(&result->firstOffset, first);
  }
}

__global__ void checkPatternKernel(const std::uint32_t* buf, std::size_t words,
                                   const std::uint32_t* pattern, CheckResult* result) {
  const std::size_t tid = threadIndex();
  const std::size_t stride = threadCount();
  unsigned long long count = 0;
  unsigned long long first = kNoMismatch;
  std::size_t vectorWords = 0;
  if (aligned16(buf, pattern)) {
    const auto* data = reinterpret_cast<const uint4*>(buf);
    const auto* expected = reinterpret_cast<const uint4*>(pattern);
    const std::size_t vectors = words / 4;
    std::size_t i = tid;
    for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
      uint4 v[kUnroll];
      uint4 p[kUnroll];
#pragma unroll
      for (unsigned k = 0; k < kUnroll; ++k) {
        v[k] = data[i + k * stride];
        p[k] = expected[(i + k * stride) & kPatternVectorMask];
      }
#pragma unroll
      for (unsigned k = 0; k < kUnroll; ++k)
        compareVector(v[k], p[k], 4 * (i + k * stride), count, first);
    }
    for (; i < vectors; i += stride)
      compareVector(data[i], expected[i & kPatternVectorMask], 4 * i, count, first);
    vectorWords = vectors * 4;
  }
  for (std::size_t w = vectorWords + tid; w < words; w += stride) {
    if (buf[w] != pattern[w % kPatternWords]) {
      ++count;
      if (first == kNoMismatch) first = w;
    }
  }
  publishBlockResult(count, first, result);
}

void throwIfFailed(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw KernelError(std::string(what) + " failed: " + cudaGetErrorName(status) + ": " +
                      cudaGetErrorString(status));
}

// Blocks for a grid-stride kernel: enough for `units` work items, but no more than the device runs
// at once (a partial extra wave would make the last blocks run alone, at a fraction of bandwidth).
unsigned gridFor(const void* kernel, std::size_t units) {
  int device = 0;
  throwIfFailed(cudaGetDevice(&device), "cudaGetDevice");
  int smCount = 0;
  throwIfFailed(cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, device),
                "cudaDeviceGetAttribute(MultiProcessorCount)");
  int perSm = 0;
  throwIfFailed(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kThreads, 0),
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const std::size_t resident = static_cast<std::size_t>(smCount) * (perSm > 0 ? perSm : 1);
  const std::size_t needed = (units + kThreads - 1) / kThreads;
  return static_cast<unsigned>(needed < resident ? needed : resident);
}

// Work items of the fill and check kernels: 16-byte vectors, and at least one thread per leftover
// word (the scalar path covers a misaligned buffer with a grid-stride loop too).
std::size_t wordUnits(std::size_t words) { return words / 4 + (words % 4); }

}  // namespace unit

void fillPattern(CUstream stream, CUdeviceptr buf, std::size_t bytes, CUdeviceptr pattern) {
  const std::size_t words = bytes / 4;
  if (words == 0) return;
  const unsigned grid = gridFor(reinterpret_cast<const void*>(fillPatternKernel), wordUnits(words));
  NVBW_LAUNCH(fillPatternKernel, grid, kThreads, 0, stream, reinterpret_cast<std::uint32_t*>(buf),
              words, reinterpret_cast<const std::uint32_t*>(pattern));
}

void checkPattern(CUstream stream, CUdeviceptr buf, std::size_t bytes, CUdeviceptr pattern,
                  CheckResult* result) {
  const std::size_t words = bytes / 4;
  if (words == 0) return;
  const unsigned grid =
      gridFor(reinterpret_cast<const void*>(checkPatternKernel), wordUnits(words));
  NVBW_LAUNCH(checkPatternKernel, grid, kThreads, 0, stream,
              reinterpret_cast<const std::uint32_t*>(buf), words,
              reinterpret_cast<const std::uint32_t*>(pattern), result);
}

}  // namespace nvbw::kernels
