// A mapping of shared memory (multinode/shared_memory.h) over a driver table that records the
// order of its calls (no GPU needed): a mapping is undone before its address range is freed, when
// it is destroyed and when another mapping is moved into it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "multinode/shared_memory.h"
#include "platform/communicator.h"
#include "platform/gpu.h"

namespace nvbw::multinode {
namespace test_shared_memory {

// Each call as "<name> <address>", in order; address ranges are handed out from 0x10000.
std::vector<std::string> calls;
CUdeviceptr nextRange = 0x10000;

std::string call(const char* name, CUdeviceptr ptr) {
  return std::string(name) + " " + std::to_string(static_cast<unsigned long long>(ptr));
}

CUresult CUDAAPI init(unsigned int) { return CUDA_SUCCESS; }
CUresult CUDAAPI deviceCount(int* n) {
  *n = 1;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI deviceGet(CUdevice* d, int i) {
  *d = i;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI retain(CUcontext* c, CUdevice) {
  *c = reinterpret_cast<CUcontext>(static_cast<std::uintptr_t>(0x100));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI release(CUdevice) { return CUDA_SUCCESS; }
CUresult CUDAAPI setCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult CUDAAPI reserve(CUdeviceptr* ptr, std::size_t bytes, std::size_t, CUdeviceptr,
                         unsigned long long) {
  *ptr = nextRange;
  nextRange += bytes;
  calls.push_back(call("reserve", *ptr));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI map(CUdeviceptr ptr, std::size_t, std::size_t, CUmemGenericAllocationHandle,
                     unsigned long long) {
  calls.push_back(call("map", ptr));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI setAccess(CUdeviceptr, std::size_t, const CUmemAccessDesc*, std::size_t) {
  return CUDA_SUCCESS;
}
CUresult CUDAAPI unmap(CUdeviceptr ptr, std::size_t) {
  calls.push_back(call("unmap", ptr));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI freeRange(CUdeviceptr ptr, std::size_t) {
  calls.push_back(call("free", ptr));
  return CUDA_SUCCESS;
}

DriverApi recordingDriver() {
  calls.clear();
  nextRange = 0x10000;
  DriverApi api;
  api.cuInit = init;
  api.cuDeviceGetCount = deviceCount;
  api.cuDeviceGet = deviceGet;
  api.cuDevicePrimaryCtxRetain = retain;
  api.cuDevicePrimaryCtxRelease = release;
  api.cuCtxSetCurrent = setCurrent;
  api.cuMemAddressReserve = reserve;
  api.cuMemMap = map;
  api.cuMemSetAccess = setAccess;
  api.cuMemUnmap = unmap;
  api.cuMemAddressFree = freeRange;
  return api;
}

constexpr std::size_t kBytes = 0x1000;

TEST(SharedMemoryMapping, IsUnmappedBeforeItsRangeIsFreed) {
  const DriverApi api = recordingDriver();
  const Gpu gpu(api);
  SingleProcess alone;
  const SharingContext ctx{gpu, 0, alone, MemorySharing::None, nullptr};
  { const Mapping m(ctx, 1, kBytes); }
  EXPECT_EQ(calls,
            (std::vector<std::string>{"reserve 65536", "map 65536", "unmap 65536", "free 65536"}));
}

TEST(SharedMemoryMapping, AMappingMovedIntoAnotherUnmapsTheOldOneBeforeFreeingItsRange) {
  const DriverApi api = recordingDriver();
  const Gpu gpu(api);
  SingleProcess alone;
  const SharingContext ctx{gpu, 0, alone, MemorySharing::None, nullptr};
  {
    Mapping first(ctx, 1, kBytes);
    Mapping second(ctx, 2, kBytes);
    calls.clear();
    first = std::move(second);
    EXPECT_EQ(calls, (std::vector<std::string>{"unmap 65536", "free 65536"}));
    EXPECT_EQ(first.ptr(), 0x10000 + kBytes);
    calls.clear();
  }
  EXPECT_EQ(calls, (std::vector<std::string>{"unmap 69632", "free 69632"}));
}

}  // namespace test_shared_memory
}  // namespace nvbw::multinode
