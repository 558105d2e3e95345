// Read-only and write-only passes over a GPU's own memory (device_local_read_sm and
// device_local_write_sm): the memory system's one-way bandwidth, which a copy (a read and a write
// per byte) cannot show. The shapes are the best of the variants tried:
//
// - Read: 4 resident blocks of 512 threads per SM take tiles of 2 x 512 16-byte elements in turn
//   (block b takes tiles b, b + grid, ...), so the resident blocks read one window that sweeps the
//   buffer in order; two independent loads per thread are in flight. This beats a grid-stride
//   loop with four loads 4 x grid apart, and contiguous slices per block. A grid larger than the
//   resident blocks is not used: its blocks reread their own windows from L2, which overstates
//   the memory's bandwidth. What is read is folded into a 64-bit sum (so the loads cannot be
//   dropped and the host can check every byte was read) in the GPU's own memory: one atomic per
//   warp at the end (a sum in host-mapped memory sent every block's atomics over PCIe).
// - Write: one launch per pass, one block per tile of 4 x 512 elements, streaming stores of a
//   constant from registers (no read traffic mixes in). Blocks are scheduled in order, so the
//   stores sweep memory sequentially, which beats every persistent grid tried and cuMemsetD32.
#include <cuda_runtime.h>

#include <stdexcept>

#include "engine/kernels/kernels.h"
#include "launch_check.h"
#include "plans/sm_geometry.h"

namespace nvbw::kernels {
inline namespace unit {  // not unnamed: all_kernels.cu says why

constexpr unsigned kReadUnroll = 2;
constexpr unsigned kWriteUnroll = kWriteTileElements / kStridingThreadsPerBlock;

__device__ __forceinline__ unsigned long long sumWords(const uint4& v) {
  return static_cast<unsigned long long>(v.x) + v.y + v.z + v.w;
}

__global__ void readOnlyKernel(const uint4* __restrict__ src, std::size_t vectors,
                               unsigned long long loops, unsigned long long* sum) {
  const std::size_t tile = static_cast<std::size_t>(kReadUnroll) * blockDim.x;
  const std::size_t tiles = vectors / tile;
  unsigned long long acc = 0;
  for (unsigned long long loop = 0; loop < loops; ++loop) {
    for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      const uint4* base = src + t * tile + threadIdx.x;
      uint4 v[kReadUnroll];
#pragma unroll
      for (unsigned k = 0; k < kReadUnroll; ++k) v[k] = __ldcs(base + k * blockDim.x);
#pragma unroll
      for (unsigned k = 0; k < kReadUnroll; ++k) acc += sumWords(v[k]);
    }
    // The elements after the last whole tile.
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i =
             tiles * tile + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < vectors; i += stride)
      acc += sumWords(__ldcs(src + i));
  }
  for (unsigned offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(~0u, acc, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, acc);
}

// One pass: block b stores `value` into tile b.
__global__ void writeOnlyKernel(uint4* __restrict__ dst, std::size_t vectors, unsigned value) {
  const uint4 v = make_uint4(value, value, value, value);
  const std::size_t first =
      static_cast<std::size_t>(blockIdx.x) * kWriteUnroll * blockDim.x + threadIdx.x;
#pragma unroll
  for (unsigned k = 0; k < kWriteUnroll; ++k) {
    const std::size_t i = first + static_cast<std::size_t>(k) * blockDim.x;
    if (i < vectors) __stcs(dst + i, v);
  }
}

void requireLocalShape(CUdeviceptr buffer, const SmCopyGeometry& g, const char* kernel) {
  if (buffer & 15)
    throw std::invalid_argument(std::string(kernel) + ": buffer not 16-byte aligned");
  if (g.elements != 0 && (g.grid == 0 || g.block == 0 || g.block % 32 != 0))
    throw std::invalid_argument(std::string(kernel) + ": invalid launch shape");
}

}  // namespace unit

void readOnly(CUstream stream, CUdeviceptr src, const SmCopyGeometry& geometry,
              unsigned long long loops, unsigned long long* sum) {
  requireLocalShape(src, geometry, "readOnlyKernel");
  if (geometry.elements == 0) return;
  NVBW_LAUNCH(readOnlyKernel, geometry.grid, geometry.block, 0, stream,
              reinterpret_cast<const uint4*>(src), geometry.elements, loops, sum);
}

void writeOnly(CUstream stream, CUdeviceptr dst, const SmCopyGeometry& geometry,
               unsigned long long loops, unsigned value) {
  requireLocalShape(dst, geometry, "writeOnlyKernel");
  if (geometry.elements == 0) return;
  for (unsigned long long loop = 0; loop < loops; ++loop)
    NVBW_LAUNCH(writeOnlyKernel, geometry.grid, geometry.block, 0, stream,
                reinterpret_cast<uint4*>(dst), geometry.elements, value);
}

}  // namespace nvbw::kernels
