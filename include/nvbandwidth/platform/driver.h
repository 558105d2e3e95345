// The CUDA driver API, loaded at run time: libcuda.so.1 is opened with dlopen and every entry
// point fetched through cuGetProcAddress, so the binary starts (and -h, -l and the error path
// work) on machines without a driver.
#pragma once

#include <cuda.h>

#include <memory>
#include <string>
#include <utility>

#include "core/error.h"

namespace nvbw {

// Entry points used by the tool. cuda.h maps some names to versioned symbols (cuMemAlloc ->
// cuMemAlloc_v2); members are declared through the same macros, so `api.cuMemAlloc(...)` always
// names the pointer that was looked up for "cuMemAlloc".
#define NVBW_DRIVER_FUNCTIONS(X)                                                                   \
  X(cuInit)                                                                                        \
  X(cuDriverGetVersion)                                                                            \
  X(cuGetErrorName)                                                                                \
  X(cuGetErrorString)                                                                              \
  X(cuDeviceGetCount)                                                                              \
  X(cuDeviceGet)                                                                                   \
  X(cuDeviceGetName)                                                                               \
  X(cuDeviceGetAttribute)                                                                          \
  X(cuDeviceCanAccessPeer)                                                                         \
  X(cuDeviceGetP2PAttribute)                                                                       \
  X(cuDevicePrimaryCtxRetain)                                                                      \
  X(cuDevicePrimaryCtxRelease)                                                                     \
  X(cuCtxSetCurrent)                                                                               \
  X(cuCtxGetCurrent)                                                                               \
  X(cuCtxEnablePeerAccess)                                                                         \
  X(cuMemAlloc)                                                                                    \
  X(cuMemFree)                                                                                     \
  X(cuMemGetInfo)                                                                                  \
  X(cuMemHostGetDevicePointer)                                                                     \
  X(cuMemHostRegister)                                                                             \
  X(cuMemHostUnregister)                                                                           \
  X(cuMemcpyAsync)                                                                                 \
  X(cuMemcpyHtoD)                                                                                  \
  X(cuMemcpyDtoH)                                                                                  \
  X(cuMemsetD8)                                                                                    \
  X(cuStreamCreate)                                                                                \
  X(cuStreamDestroy)                                                                               \
  X(cuStreamSynchronize)                                                                           \
  X(cuStreamQuery)                                                                                 \
  X(cuStreamWaitEvent)                                                                             \
  X(cuEventCreate)                                                                                 \
  X(cuEventDestroy)                                                                                \
  X(cuEventRecord)                                                                                 \
  X(cuEventSynchronize)                                                                            \
  X(cuEventElapsedTime)                                                                            \
  X(cuDeviceGetUuid)                                                                               \
  X(cuMemsetD32Async)                                                                              \
  X(cuMemCreate)                                                                                   \
  X(cuMemRelease)                                                                                  \
  X(cuMemExportToShareableHandle)                                                                  \
  X(cuMemImportFromShareableHandle)                                                                \
  X(cuMemAddressReserve)                                                                           \
  X(cuMemAddressFree)                                                                              \
  X(cuMemMap)                                                                                      \
  X(cuMemUnmap)                                                                                    \
  X(cuMemSetAccess)                                                                                \
  X(cuMemGetAllocationGranularity)

// Entry points that older drivers lack: null when the driver does not provide them; the code
// that needs them checks first (multicast objects, CUDA 12.1).
#define NVBW_OPTIONAL_DRIVER_FUNCTIONS(X)                                                          \
  X(cuMulticastCreate)                                                                             \
  X(cuMulticastAddDevice)                                                                          \
  X(cuMulticastBindMem)                                                                            \
  X(cuMulticastUnbind)                                                                             \
  X(cuMulticastGetGranularity)

struct DriverApi {
#define NVBW_DECLARE_MEMBER(fn) decltype(&::fn) fn = nullptr;
  NVBW_DRIVER_FUNCTIONS(NVBW_DECLARE_MEMBER)
  NVBW_OPTIONAL_DRIVER_FUNCTIONS(NVBW_DECLARE_MEMBER)
#undef NVBW_DECLARE_MEMBER
};

// The driver could not be loaded or initialised. `reason` separates the machines that simply
// have no GPU (the GPU tests skip there) from a driver that is present but unusable.
class DriverUnavailable : public StartupError {
 public:
  enum class Reason {
    NoDriver,  // libcuda.so.1 cannot be loaded
    NoDevice,  // the driver works and sees no GPU
    Unusable,  // a stub library, a driver too old, a failed initialisation, an absurd answer
  };
  DriverUnavailable(Reason reason, const std::string& message)
      : StartupError(message), reason_(reason) {}
  Reason reason() const { return reason_; }

 private:
  Reason reason_;
};

// A failed driver call. The message a user reads is "<call> failed: CUDA_ERROR_X (description)";
// the call as the source writes it and where it is are the detail. Callers that know what the
// call was for on the user's behalf (an allocation, peer access) catch it and say that instead.
class CudaError : public Error {
 public:
  CudaError(CUresult code, const std::string& call, const std::string& driverError,
            std::string detail)
      : Error(call + " failed: " + driverError, std::move(detail)), code_(code), call_(call),
        driverError_(driverError) {}
  CUresult code() const { return code_; }
  const std::string& call() const { return call_; }
  // "CUDA_ERROR_OUT_OF_MEMORY (out of memory)": the driver's name and description of the code.
  const std::string& driverError() const { return driverError_; }

 private:
  CUresult code_;
  std::string call_;
  std::string driverError_;
};

// The driver's entry points, move-only. libcuda.so.1 is never dlclose'd: the statically linked
// CUDA runtime keeps using it until the process exits.
class DriverLibrary {
 public:
  // Throws DriverUnavailable with the reason (library missing, symbol missing).
  static DriverLibrary load();
  const DriverApi& api() const { return *api_; }

 private:
  explicit DriverLibrary(std::unique_ptr<DriverApi> api) : api_(std::move(api)) {}
  std::unique_ptr<DriverApi> api_;
};

// The error for a libcuda.so.1 that is the toolkit's stub (CUDA_ERROR_STUB_LIBRARY).
DriverUnavailable stubLibrary();

std::string describeCuResult(const DriverApi& api, CUresult code);
// `call`: the entry point ("cuMemAlloc"); `expression`: the call as written, for the detail.
[[noreturn]] void throwCudaError(const DriverApi& api, CUresult code, const char* call,
                                 const char* expression, const char* file, int line);

inline void cuCheck(const DriverApi& api, CUresult code, const char* call, const char* expression,
                    const char* file, int line) {
  if (code != CUDA_SUCCESS) throwCudaError(api, code, call, expression, file, line);
}

}  // namespace nvbw

// NVBW_CU(api, cuMemAlloc, &ptr, bytes): call through the loaded table, throw CudaError on failure.
#define NVBW_CU(api, fn, ...)                                                                      \
  ::nvbw::cuCheck((api), (api).fn(__VA_ARGS__), #fn, #fn "(" #__VA_ARGS__ ")", __FILE__, __LINE__)
