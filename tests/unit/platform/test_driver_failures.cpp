// The real allocator, pinned host buffers and peer access over a driver table whose calls fail
// as the CUDA driver's do (no GPU needed): what the user reads is the message of
// allocation_failure.h / gpu.h, with the driver's error name, and the call as the source writes
// it is the detail, never the message.
#include <gtest/gtest.h>

#include <string>

#include "engine/buffer_pool.h"
#include "fake_driver.h"
#include "platform/driver.h"
#include "platform/gpu.h"

namespace nvbw {
namespace test_driver_failures {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Two GPUs of 80000 MiB with 10 MiB free, where no memory can be allocated or pinned and no peer
// access enabled.
CUresult CUDAAPI memAlloc(CUdeviceptr*, std::size_t) { return CUDA_ERROR_OUT_OF_MEMORY; }
CUresult CUDAAPI memFree(CUdeviceptr) { return CUDA_SUCCESS; }
CUresult CUDAAPI memGetInfo(std::size_t* free, std::size_t* total) {
  if (!fakeDriver().current) return CUDA_ERROR_INVALID_CONTEXT;
  *free = 10 * kMiB;
  *total = 80000 * kMiB;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI hostRegister(void*, std::size_t, unsigned int) { return CUDA_ERROR_OUT_OF_MEMORY; }
CUresult CUDAAPI hostUnregister(void*) { return CUDA_SUCCESS; }
CUresult CUDAAPI enablePeer(CUcontext, unsigned int) { return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED; }

DriverApi failingDriver() {
  DriverApi api = fakeDriverApi(2);
  api.cuMemAlloc = memAlloc;
  api.cuMemFree = memFree;
  api.cuMemGetInfo = memGetInfo;
  api.cuMemHostRegister = hostRegister;
  api.cuMemHostUnregister = hostUnregister;
  api.cuCtxEnablePeerAccess = enablePeer;
  return api;
}

TEST(DriverFailures, DeviceMemoryThatCannotBeHadIsSaidInTheUsersTerms) {
  const DriverApi api = failingDriver();
  const Gpu gpu(api);
  const std::unique_ptr<Allocator> allocator = makeGpuAllocator(gpu, false, {});
  BufferPool pool(*allocator);
  try {
    pool.acquire({BufferSpec::onDevice(1, 64 * kMiB), BufferSpec::onDevice(1, 64 * kMiB)});
    FAIL() << "no error";
  } catch (const AllocationError& e) {
    EXPECT_EQ(std::string(e.what()),
              "GPU 1 cannot hold this testcase's 2 buffers of 64 MiB (128 MiB in all): it has "
              "80000 MiB, 10 MiB of it free (cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (out of "
              "memory)); buffers of at most about 5 MiB would fit: --bufferSize (-b) sets their "
              "size in MiB");
    EXPECT_EQ(e.detail().rfind("cuMemAlloc(&ptr, bytes) at ", 0), 0u) << e.detail();
    EXPECT_NE(e.detail().find("cuda_raii.cpp:"), std::string::npos) << e.detail();
  }
}

TEST(DriverFailures, HostMemoryThatCannotBePinnedIsSaidInTheUsersTerms) {
  const DriverApi api = failingDriver();
  const Gpu gpu(api);
  const std::unique_ptr<Allocator> allocator = makeGpuAllocator(gpu, false, {});
  BufferPool pool(*allocator);
  try {
    pool.acquire({BufferSpec::host(1, 4 * kMiB)});
    FAIL() << "no error";
  } catch (const AllocationError& e) {
    const std::string text = e.what();
    EXPECT_EQ(
        text.rfind("cannot pin this testcase's host buffer of 4 MiB for GPU 1: the host has ", 0),
        0u)
        << text;
    EXPECT_NE(text.find(" (cuMemHostRegister: CUDA_ERROR_OUT_OF_MEMORY (out of memory))"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find(".cpp"), std::string::npos) << text;
    EXPECT_EQ(e.detail().rfind("cuMemHostRegister(raw, mapped, ", 0), 0u) << e.detail();
  }
}

TEST(DriverFailures, PeerAccessThatCannotBeEnabledIsSaidInTheUsersTerms) {
  const DriverApi api = failingDriver();
  const Gpu gpu(api);
  try {
    gpu.enablePeerAccess(0, 1);
    FAIL() << "no error";
  } catch (const PeerAccessError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot enable peer access from GPU 0 to GPU 1 (cuCtxEnablePeerAccess: "
              "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (peer access is not supported between these two "
              "devices)): the driver does not allow access between these GPUs (nvidia-smi topo "
              "-p2p r shows the pairs it allows)");
    EXPECT_NE(e.detail().find("cuCtxEnablePeerAccess(context(1), 0) at "), std::string::npos)
        << e.detail();
    EXPECT_NE(e.detail().find("gpu.cpp:"), std::string::npos) << e.detail();
  }
}

}  // namespace test_driver_failures
}  // namespace nvbw
