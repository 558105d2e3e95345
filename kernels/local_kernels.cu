// Read-only and write-only passes over a GPU's own memory (device_local_read_sm and
// device_local_write_sm): the memory system's one-way bandwidth, which a copy (a read and a write
// per byte) cannot show.
//
// Both use every SM fully (a grid of 4 blocks of 512 threads per SM, grid-stride loops) with four
// independent 16-byte accesses per thread in flight, the shape that keeps enough bytes moving to
// cover HBM latency. The read pass folds what it reads into a sum that it publishes (one atomic
// per block), so the compiler cannot drop the loads and the host can check every byte was read;
// the write pass stores a constant from registers, so no read traffic mixes in, and verification
// checks the constant landed everywhere.
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>

#include "launch_check.h"
#include "nvbandwidth/kernels.h"

namespace nvbw {
namespace kernels {
namespace {

constexpr unsigned kLocalUnroll = 4;

__device__ __forceinline__ unsigned long long sumWords(const uint4& v) {
  return static_cast<unsigned long long>(v.x) + v.y + v.z + v.w;
}

__global__ void readOnlyKernel(const uint4* __restrict__ src, std::size_t vectors,
                               unsigned long long loops, unsigned long long* sum) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long acc = 0;
  for (unsigned long long loop = 0; loop < loops; ++loop) {
    std::size_t i = first;
    for (; i + (kLocalUnroll - 1) * stride < vectors; i += kLocalUnroll * stride) {
      uint4 v[kLocalUnroll];
#pragma unroll
      for (unsigned k = 0; k < kLocalUnroll; ++k) v[k] = __ldcs(src + i + k * stride);
#pragma unroll
      for (unsigned k = 0; k < kLocalUnroll; ++k) acc += sumWords(v[k]);
    }
    for (; i < vectors; i += stride) acc += sumWords(__ldcs(src + i));
  }
  // Warp, then block, then one atomic: the sum is order-independent.
  for (unsigned offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(~0u, acc, offset);
  __shared__ unsigned long long warpSums[32];
  if (threadIdx.x % 32 == 0) warpSums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long block = 0;
    for (unsigned w = 0; w < blockDim.x / 32; ++w) block += warpSums[w];
    atomicAdd(sum, block);
  }
}

__global__ void writeOnlyKernel(uint4* __restrict__ dst, std::size_t vectors,
                                unsigned long long loops, unsigned value) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint4 v = make_uint4(value, value, value, value);
  for (unsigned long long loop = 0; loop < loops; ++loop) {
    std::size_t i = first;
    for (; i + (kLocalUnroll - 1) * stride < vectors; i += kLocalUnroll * stride) {
#pragma unroll
      for (unsigned k = 0; k < kLocalUnroll; ++k) __stcs(dst + i + k * stride, v);
    }
    for (; i < vectors; i += stride) __stcs(dst + i, v);
  }
}

void requireLocalShape(CUdeviceptr buffer, const SmCopyGeometry& g, const char* kernel) {
  if (buffer & 15) throw std::invalid_argument(std::string(kernel) + ": buffer not 16-byte aligned");
  if (g.elements != 0 && (g.grid == 0 || g.block == 0 || g.block % 32 != 0))
    throw std::invalid_argument(std::string(kernel) + ": invalid launch shape");
}

}  // namespace

namespace detail {
void preloadLocalKernels() {
  preloadFunction(reinterpret_cast<const void*>(readOnlyKernel), "readOnlyKernel");
  preloadFunction(reinterpret_cast<const void*>(writeOnlyKernel), "writeOnlyKernel");
}
}  // namespace detail

void readOnly(CUstream stream, CUdeviceptr src, const SmCopyGeometry& geometry,
              unsigned long long loops, unsigned long long* sum) {
  requireLocalShape(src, geometry, "readOnlyKernel");
  if (geometry.elements == 0) return;
  readOnlyKernel<<<geometry.grid, geometry.block, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const uint4*>(src), geometry.elements, loops, sum);
  detail::throwIfLaunchFailed("readOnlyKernel");
}

void writeOnly(CUstream stream, CUdeviceptr dst, const SmCopyGeometry& geometry,
               unsigned long long loops, unsigned value) {
  requireLocalShape(dst, geometry, "writeOnlyKernel");
  if (geometry.elements == 0) return;
  writeOnlyKernel<<<geometry.grid, geometry.block, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<uint4*>(dst), geometry.elements, loops, value);
  detail::throwIfLaunchFailed("writeOnlyKernel");
}

}  // namespace kernels
}  // namespace nvbw
