#include "fake_driver.h"

#include <cstdint>

namespace nvbw {
namespace {

CUresult CUDAAPI init(unsigned int) { return CUDA_SUCCESS; }
CUresult CUDAAPI deviceCount(int* n) {
  *n = fakeDriver().devices;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI deviceGet(CUdevice* d, int i) {
  *d = fakeDriver().firstDevice + i;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI retain(CUcontext* c, CUdevice d) {
  if (d == fakeDriver().failingRetain) return CUDA_ERROR_OUT_OF_MEMORY;
  fakeDriver().retained.push_back(d);
  *c = fakeContext(d);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI release(CUdevice d) {
  fakeDriver().released.push_back(d);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI getCurrent(CUcontext* c) {
  *c = fakeDriver().current;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI setCurrent(CUcontext c) {
  fakeDriver().current = c;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI errorName(CUresult code, const char** name) {
  *name = code == CUDA_ERROR_OUT_OF_MEMORY             ? "CUDA_ERROR_OUT_OF_MEMORY"
          : code == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED ? "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"
          : code == CUDA_ERROR_INVALID_VALUE           ? "CUDA_ERROR_INVALID_VALUE"
                                                       : nullptr;
  return *name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUresult CUDAAPI errorString(CUresult code, const char** text) {
  *text = code == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory"
          : code == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED
              ? "peer access is not supported between these two devices"
          : code == CUDA_ERROR_INVALID_VALUE ? "invalid argument"
                                             : nullptr;
  return *text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

}  // namespace

FakeDriverState& fakeDriver() {
  static FakeDriverState state;
  return state;
}

CUcontext fakeContext(CUdevice d) {
  return reinterpret_cast<CUcontext>(static_cast<std::uintptr_t>(d + 100));
}

DriverApi fakeDriverApi(int devices, int firstDevice) {
  fakeDriver() = FakeDriverState();
  fakeDriver().devices = devices;
  fakeDriver().firstDevice = firstDevice;
  DriverApi api;
  api.cuInit = init;
  api.cuDeviceGetCount = deviceCount;
  api.cuDeviceGet = deviceGet;
  api.cuDevicePrimaryCtxRetain = retain;
  api.cuDevicePrimaryCtxRelease = release;
  api.cuCtxGetCurrent = getCurrent;
  api.cuCtxSetCurrent = setCurrent;
  api.cuGetErrorName = errorName;
  api.cuGetErrorString = errorString;
  return api;
}

}  // namespace nvbw
