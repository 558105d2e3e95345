#include "platform/driver.h"

#include <dlfcn.h>

#include <string>

namespace nvbw {

DriverLibrary DriverLibrary::load() {
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char* why = dlerror();
    throw DriverUnavailable(DriverUnavailable::Reason::NoDriver,
                            std::string("the NVIDIA driver is not installed or not loadable (") +
                                (why ? why : "libcuda.so.1 not found") + ")");
  }
  // cuGetProcAddress hands out the entry point matching the CUDA version we were compiled
  // against, so the versioned symbols (_v2, _v3) cuda.h selects are the ones we get.
  using GetProc = decltype(&::cuGetProcAddress);
  auto getProc = reinterpret_cast<GetProc>(dlsym(handle, "cuGetProcAddress_v2"));
  if (!getProc)
    throw DriverUnavailable(DriverUnavailable::Reason::Unusable,
                            "the NVIDIA driver is too old: libcuda.so.1 lacks cuGetProcAddress_v2");

  auto api = std::make_unique<DriverApi>();
  // A missing entry point makes the driver unusable, unless it is an optional one: that stays null.
  auto lookup = [&](const char* name, void** slot, bool required) {
    CUdriverProcAddressQueryResult status{};
    CUresult rc = getProc(name, slot, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (rc == CUDA_SUCCESS && status == CU_GET_PROC_ADDRESS_SUCCESS && *slot != nullptr) return;
    *slot = nullptr;
    if (!required) return;
    if (rc == CUDA_ERROR_STUB_LIBRARY) throw stubLibrary();
    throw DriverUnavailable(DriverUnavailable::Reason::Unusable,
                            std::string("the NVIDIA driver does not provide ") + name +
                                " for CUDA " + std::to_string(CUDA_VERSION / 1000) + "." +
                                std::to_string(CUDA_VERSION % 1000 / 10) + " (driver too old?)");
  };
  bool required = true;
#define NVBW_LOOKUP(fn) lookup(#fn, reinterpret_cast<void**>(&api->fn), required);
  NVBW_DRIVER_FUNCTIONS(NVBW_LOOKUP)
  required = false;
  NVBW_OPTIONAL_DRIVER_FUNCTIONS(NVBW_LOOKUP)
#undef NVBW_LOOKUP
  return DriverLibrary(std::move(api));
}

DriverUnavailable stubLibrary() {
  return DriverUnavailable(
      DriverUnavailable::Reason::Unusable,
      "libcuda.so.1 is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY), not a driver: "
      "install the NVIDIA driver, or remove the toolkit's stubs directory from the library path");
}

std::string describeCuResult(const DriverApi& api, CUresult code) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName) api.cuGetErrorName(code, &name);
  if (api.cuGetErrorString) api.cuGetErrorString(code, &text);
  // A code the driver cannot name gets its number, never the name of another code.
  if (!name)
    return "CUDA error " + std::to_string(static_cast<int>(code)) + " (not known to this driver)";
  return std::string(name) + " (" + (text ? text : "no description") + ")";
}

void throwCudaError(const DriverApi& api, CUresult code, const char* call, const char* expression,
                    const char* file, int line) {
  throw CudaError(code, call, describeCuResult(api, code),
                  std::string(expression) + " at " + file + ":" + std::to_string(line));
}

}  // namespace nvbw
