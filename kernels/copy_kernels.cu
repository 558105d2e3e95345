// SM copy kernels: the simple, striding and split-warp copies that the SM testcases time, plus
// the launch-error check and the preload step shared by every kernels/*.cu file.
//
// The kernels reproduce upstream v0.8's memory access streams exactly, so that the numbers agree
// with upstream's on the same machine (a faster copy would measure something upstream does not):
// - simple (< 64 MiB): one 16-byte element per thread at blockIdx.x * blockDim.x + threadIdx.x,
//   ld.global.cg / st.global.cg (__ldcg / __stcg: L2 only, so the `loops` repetitions of the
//   same element do not hit in L1), the copy repeated `loops` times inside the kernel;
// - striding (>= 64 MiB): smCount x 512 threads; thread t copies t, t + T, t + 2T, ... with
//   T = smCount * 512; batches of 12 loads into registers then 12 stores, a one-at-a-time
//   remainder; plain (default-cached) loads and stores; `loops` repetitions inside the kernel;
// - split-warp: the simple shape and cache operators; warps alternate direction.
// The launch shape comes from SmCopyGeometry (plans/sm_geometry.h), so the bytes that bandwidth
// and verification count are those the launch copies.
//
// Indices are size_t: a buffer can exceed 4 GiB (2^28 elements) and the split-warp kernel uses
// the simple shape at any size, so 32-bit thread indices would wrap. No __restrict__: with it the
// compiler could interleave a batch's loads and stores or move loads across iterations; without
// it the hardware sees the source's order (12 loads, then 12 stores), as upstream. Every
// repetition really moves the data: __ldcg is an `asm volatile`, __stcg clobbers memory, and the
// striding kernel's plain stores may alias its loads. Launchers validate the geometry and skip a
// launch that would copy nothing (grid 0 is an invalid launch configuration).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "engine/kernel_failure.h"
#include "engine/kernels/kernels.h"
#include "launch_check.h"

namespace nvbw::kernels {
namespace detail {

namespace {

#define NVBW_STRINGIFY_LIST(...) #__VA_ARGS__
#define NVBW_STRINGIFY(list) NVBW_STRINGIFY_LIST(list)

// The architectures nvcc compiled GPU code for ("900", "800,900"), empty with a compiler that
// does not say.
const char* buildArchitectures() {
#ifdef __CUDA_ARCH_LIST__
  return NVBW_STRINGIFY(__CUDA_ARCH_LIST__);
#else
  return "";
#endif
}

// The failure of `kernel` with `status`, with the GPU current when it happened.
[[noreturn]] void throwKernelFailure(const char* kernel, bool loading, cudaError_t status,
                                     const std::string& detail) {
  KernelFailure f;
  f.kernel = kernel;
  f.loading = loading;
  f.errorName = cudaGetErrorName(status);
  f.errorText = cudaGetErrorString(status);
  f.buildArchitectures = buildArchitectures();
  int device = -1;
  int major = 0;
  int minor = 0;
  if (cudaGetDevice(&device) == cudaSuccess) {
    f.device = device;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess)
      f.computeCapability = 10 * major + minor;
  }
  cudaGetLastError();  // the queries above must not leave an error for the next launch
  throw KernelError(kernelFailureMessage(f), detail);
}

}  // namespace

void throwIfLaunchFailed(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throwKernelFailure(kernel, false, status,
                       std::string("cudaGetLastError() after launching ") + kernel + " at " +
                           __FILE__ + ":" + std::to_string(__LINE__));
}

void preloadFunction(const void* function, const char* kernel) {
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, function);
  if (status != cudaSuccess)
    throwKernelFailure(kernel, true, status,
                       std::string("cudaFuncGetAttributes(&attributes, ") + kernel + ") at " +
                           __FILE__ + ":" + std::to_string(__LINE__));
}

}  // namespace detail

inline namespace unit {  // not unnamed: all_kernels.cu says why

constexpr unsigned kWarpSize = 32;
constexpr unsigned kStridingBatch = 12;  // elements held in registers per striding iteration

__device__ __forceinline__ std::size_t globalThreadIndex() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__global__ void simpleCopyKernel(uint4* dst, const uint4* src, unsigned long long loops) {
  const std::size_t i = globalThreadIndex();
  uint4* to = dst + i;
  const uint4* from = src + i;
  for (unsigned long long loop = 0; loop < loops; ++loop) __stcg(to, __ldcg(from));
}

// Striding kernel (>= 64 MiB): every one of the T = gridDim.x * blockDim.x threads copies
// `perThread` elements, T apart, so each batch of a warp is 32 consecutive elements (coalesced)
// and the whole grid sweeps the buffer front to back.
__global__ void stridingCopyKernel(uint4* dst, const uint4* src, std::size_t perThread,
                                   unsigned long long loops) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = globalThreadIndex();
  const std::size_t batches = perThread / kStridingBatch;
  const std::size_t rest = perThread % kStridingBatch;
  for (unsigned long long loop = 0; loop < loops; ++loop) {
    uint4* to = dst + first;
    const uint4* from = src + first;
    for (std::size_t b = 0; b < batches; ++b) {
      uint4 held[kStridingBatch];
#pragma unroll
      for (unsigned k = 0; k < kStridingBatch; ++k) held[k] = from[k * stride];
#pragma unroll
      for (unsigned k = 0; k < kStridingBatch; ++k) to[k * stride] = held[k];
      from += kStridingBatch * stride;
      to += kStridingBatch * stride;
    }
    for (std::size_t r = 0; r < rest; ++r) {
      *to = *from;
      from += stride;
      to += stride;
    }
  }
}

// Split-warp kernel: same shape as the simple one; odd warps copy a -> b, even warps b -> a, so
// both directions of the link carry traffic at once. The direction is fixed per warp, so it is
// chosen once, outside the repetition loop.
__global__ void splitWarpCopyKernel(uint4* dst, uint4* src, unsigned long long loops) {
  const std::size_t i = globalThreadIndex();
  const bool oddWarp = (i / kWarpSize) & 1;
  uint4* to = (oddWarp ? dst : src) + i;
  const uint4* from = (oddWarp ? src : dst) + i;
  for (unsigned long long loop = 0; loop < loops; ++loop) __stcg(to, __ldcg(from));
}

// uint4 accesses need 16-byte alignment; a misaligned pointer would fault inside a timed region.
void requireAligned(CUdeviceptr dst, CUdeviceptr src, const char* kernel) {
  if ((dst | src) % alignof(uint4) != 0)
    throw std::invalid_argument(std::string(kernel) + ": buffers must be 16-byte aligned");
}

// The simple shape copies exactly grid * block elements, one per thread.
void requireSimpleShape(const SmCopyGeometry& g, const char* kernel) {
  if (g.striding || static_cast<std::size_t>(g.grid) * g.block != g.elements)
    throw std::invalid_argument(std::string(kernel) +
                                ": geometry is not the simple one-element-per-thread shape");
}

}  // namespace unit

void copy(CUstream stream, CUdeviceptr dst, CUdeviceptr src, const SmCopyGeometry& geometry,
          unsigned long long loops) {
  if (geometry.elements == 0) return;
  auto* to = reinterpret_cast<uint4*>(dst);
  const auto* from = reinterpret_cast<const uint4*>(src);
  if (geometry.striding) {
    requireAligned(dst, src, "stridingCopyKernel");
    const std::size_t threads = static_cast<std::size_t>(geometry.grid) * geometry.block;
    if (threads == 0 || geometry.elements % threads != 0)
      throw std::invalid_argument(
          "stridingCopyKernel: element count is not a multiple of the thread count");
    NVBW_LAUNCH(stridingCopyKernel, geometry.grid, geometry.block, 0, stream, to, from,
                geometry.elements / threads, loops);
  } else {
    requireAligned(dst, src, "simpleCopyKernel");
    requireSimpleShape(geometry, "simpleCopyKernel");
    NVBW_LAUNCH(simpleCopyKernel, geometry.grid, geometry.block, 0, stream, to, from, loops);
  }
}

void splitWarpCopy(CUstream stream, CUdeviceptr dst, CUdeviceptr src,
                   const SmCopyGeometry& geometry, unsigned long long loops) {
  if (geometry.elements == 0) return;
  requireAligned(dst, src, "splitWarpCopyKernel");
  requireSimpleShape(geometry, "splitWarpCopyKernel");
  NVBW_LAUNCH(splitWarpCopyKernel, geometry.grid, geometry.block, 0, stream,
              reinterpret_cast<uint4*>(dst), reinterpret_cast<uint4*>(src), loops);
}

}  // namespace nvbw::kernels
