// A mapping of shared memory (multinode/shared_memory.h) over a driver table that records the
// order of its calls (no GPU needed): a mapping is undone before its address range is freed, when
// it is destroyed and when another mapping is moved into it; a multicast object's memory is unbound
// after its mappings are undone and before it is released, also when its construction fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "fake_driver.h"
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

// Multicast: the object is handle 7, its backing memory handle 9; the `mapsLeft`-th map fails.
int mapsLeft = -1;
CUresult CUDAAPI failingMap(CUdeviceptr ptr, std::size_t bytes, std::size_t offset,
                            CUmemGenericAllocationHandle handle, unsigned long long flags) {
  if (mapsLeft > 0 && --mapsLeft == 0) return CUDA_ERROR_OUT_OF_MEMORY;
  return map(ptr, bytes, offset, handle, flags);
}
CUresult CUDAAPI granularity(std::size_t* g, const CUmulticastObjectProp*,
                             CUmulticastGranularity_flags) {
  *g = 0x1000;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI createMulticast(CUmemGenericAllocationHandle* h, const CUmulticastObjectProp*) {
  *h = 7;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI exportHandle(void*, CUmemGenericAllocationHandle, CUmemAllocationHandleType,
                              unsigned long long) {
  return CUDA_SUCCESS;
}
CUresult CUDAAPI addDevice(CUmemGenericAllocationHandle, CUdevice) { return CUDA_SUCCESS; }
CUresult CUDAAPI create(CUmemGenericAllocationHandle* h, std::size_t, const CUmemAllocationProp*,
                        unsigned long long) {
  *h = 9;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI bind(CUmemGenericAllocationHandle, std::size_t, CUmemGenericAllocationHandle,
                      std::size_t, std::size_t, unsigned long long) {
  calls.push_back("bind");
  return CUDA_SUCCESS;
}
CUresult CUDAAPI unbind(CUmemGenericAllocationHandle, CUdevice, std::size_t, std::size_t) {
  calls.push_back("unbind");
  return CUDA_SUCCESS;
}
CUresult CUDAAPI releaseHandle(CUmemGenericAllocationHandle h) {
  calls.push_back("release " + std::to_string(static_cast<unsigned long long>(h)));
  return CUDA_SUCCESS;
}

DriverApi recordingDriver() {
  calls.clear();
  nextRange = 0x10000;
  mapsLeft = -1;
  DriverApi api = fakeDriverApi(1);
  api.cuMemAddressReserve = reserve;
  api.cuMemSetAccess = setAccess;
  api.cuMemUnmap = unmap;
  api.cuMemAddressFree = freeRange;
  api.cuMemMap = failingMap;
  api.cuMulticastGetGranularity = granularity;
  api.cuMulticastCreate = createMulticast;
  api.cuMemExportToShareableHandle = exportHandle;
  api.cuMulticastAddDevice = addDevice;
  api.cuMemCreate = create;
  api.cuMulticastBindMem = bind;
  api.cuMulticastUnbind = unbind;
  api.cuMemRelease = releaseHandle;
  return api;
}

constexpr std::size_t kBytes = 0x1000;

// One process on one GPU over the recording driver, sharing memory as `sharing` says.
struct OneProcess {
  explicit OneProcess(MemorySharing sharing) : ctx{gpu, 0, alone, sharing, nullptr} {}
  const DriverApi api = recordingDriver();
  const Gpu gpu{api};
  SingleProcess alone;
  const SharingContext ctx;
};

TEST(SharedMemoryMapping, IsUnmappedBeforeItsRangeIsFreed) {
  const OneProcess process(MemorySharing::None);
  { const Mapping m(process.ctx, 1, kBytes); }
  EXPECT_EQ(calls,
            (std::vector<std::string>{"reserve 65536", "map 65536", "unmap 65536", "free 65536"}));
}

TEST(SharedMemoryMapping, AMappingMovedIntoAnotherUnmapsTheOldOneBeforeFreeingItsRange) {
  const OneProcess process(MemorySharing::None);
  {
    Mapping first(process.ctx, 1, kBytes);
    Mapping second(process.ctx, 2, kBytes);
    calls.clear();
    first = std::move(second);
    EXPECT_EQ(calls, (std::vector<std::string>{"unmap 65536", "free 65536"}));
    EXPECT_EQ(first.ptr(), 0x10000 + kBytes);
    calls.clear();
  }
  EXPECT_EQ(calls, (std::vector<std::string>{"unmap 69632", "free 69632"}));
}

TEST(SharedMemoryMulticast, IsUnboundAfterItsMappingsAreUndoneAndBeforeItIsReleased) {
  const OneProcess process(MemorySharing::Fabric);
  { const MulticastObject object(process.ctx, 0, kBytes); }
  EXPECT_EQ(calls,
            (std::vector<std::string>{"bind", "reserve 65536", "map 65536", "reserve 69632",
                                      "map 69632", "unmap 69632", "free 69632", "unmap 65536",
                                      "free 65536", "unbind", "release 9", "release 7"}));
}

TEST(SharedMemoryMulticast, AConstructionThatFailsAfterTheBindingStillUnbinds) {
  const OneProcess process(MemorySharing::Fabric);
  mapsLeft = 2;  // the second mapping, of the local memory, fails
  EXPECT_THROW(MulticastObject(process.ctx, 0, kBytes), Error);
  EXPECT_EQ(calls, (std::vector<std::string>{"bind", "reserve 65536", "map 65536", "reserve 69632",
                                             "free 69632", "unmap 65536", "free 65536", "unbind",
                                             "release 9", "release 7"}));
}

}  // namespace test_shared_memory
}  // namespace nvbw::multinode
