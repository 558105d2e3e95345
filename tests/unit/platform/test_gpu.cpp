// The primary contexts a Gpu retains (platform/gpu.h), over a driver table that records what it is
// asked (no GPU needed): each released once when the Gpu goes, and the ones already retained
// released when a later retain fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/error.h"
#include "platform/gpu.h"

namespace nvbw {
namespace test_gpu {

// `devices` GPUs, numbered from 0; retaining device `failingRetain` fails.
struct DriverState {
  int devices = 3;
  int failingRetain = -1;
  std::vector<CUdevice> retained;
  std::vector<CUdevice> released;
};
DriverState state;

CUresult CUDAAPI init(unsigned int) { return CUDA_SUCCESS; }
CUresult CUDAAPI deviceCount(int* n) {
  *n = state.devices;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI deviceGet(CUdevice* d, int i) {
  *d = i;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI retain(CUcontext* c, CUdevice d) {
  if (d == state.failingRetain) return CUDA_ERROR_OUT_OF_MEMORY;
  state.retained.push_back(d);
  *c = reinterpret_cast<CUcontext>(static_cast<std::uintptr_t>(d + 100));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI release(CUdevice d) {
  state.released.push_back(d);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI setCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult CUDAAPI errorName(CUresult, const char** name) {
  *name = "CUDA_ERROR_OUT_OF_MEMORY";
  return CUDA_SUCCESS;
}
CUresult CUDAAPI errorString(CUresult, const char** text) {
  *text = "out of memory";
  return CUDA_SUCCESS;
}

DriverApi recordingDriver(int devices, int failingRetain = -1) {
  state = DriverState();
  state.devices = devices;
  state.failingRetain = failingRetain;
  DriverApi api;
  api.cuInit = init;
  api.cuDeviceGetCount = deviceCount;
  api.cuDeviceGet = deviceGet;
  api.cuDevicePrimaryCtxRetain = retain;
  api.cuDevicePrimaryCtxRelease = release;
  api.cuCtxSetCurrent = setCurrent;
  api.cuGetErrorName = errorName;
  api.cuGetErrorString = errorString;
  return api;
}

TEST(Gpu, EveryRetainedPrimaryContextIsReleasedOnce) {
  const DriverApi api = recordingDriver(3);
  {
    const Gpu gpu(api);
    EXPECT_EQ(state.retained, (std::vector<CUdevice>{0, 1, 2}));
    EXPECT_TRUE(state.released.empty());
  }
  EXPECT_EQ(state.released, (std::vector<CUdevice>{0, 1, 2}));
}

TEST(Gpu, ARetainThatFailsReleasesTheContextsRetainedBeforeIt) {
  const DriverApi api = recordingDriver(3, 2);
  EXPECT_THROW(Gpu gpu(api), CudaError);
  EXPECT_EQ(state.retained, (std::vector<CUdevice>{0, 1}));
  EXPECT_EQ(state.released, (std::vector<CUdevice>{0, 1}));
}

}  // namespace test_gpu
}  // namespace nvbw
