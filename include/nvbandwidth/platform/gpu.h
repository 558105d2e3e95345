// The GPUs of this run: driver initialisation, primary contexts and peer access.
#pragma once

#include <cuda.h>

#include <optional>
#include <string>
#include <vector>

#include "core/unique_handle.h"
#include "platform/driver.h"
#include "platform/system_facts.h"

namespace nvbw {

// Peer access between two GPUs could not be enabled: what() is peerAccessFailureMessage().
struct PeerAccessError : Error {
  using Error::Error;
};

// "cannot enable peer access from GPU 0 to GPU 1 (cuCtxEnablePeerAccess: CUDA_ERROR_X (...)): "
// and what the user can do about it.
std::string peerAccessFailureMessage(int from, int to, CUresult code,
                                     const std::string& driverError);

namespace platform {
struct ReleasePrimaryContext {
  const DriverApi* api = nullptr;
  void operator()(CUdevice device) const noexcept { api->cuDevicePrimaryCtxRelease(device); }
};
}  // namespace platform

// Owns one retained primary context per physical device. With `logicalGpus` N (logical_gpus.h:
// a testing aid), the one physical GPU is presented as devices 0 to N-1, all of it and its context.
class Gpu {
 public:
  // cuInit and device enumeration. Throws DriverUnavailable when cuInit fails or there is no GPU,
  // StartupError when `logicalGpus` is asked of more than one physical GPU.
  explicit Gpu(const DriverApi& api, int logicalGpus = 0);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const DriverApi& api() const { return api_; }
  int deviceCount() const { return static_cast<int>(devices_.size()); }
  CUdevice device(int index) const { return devices_.at(index); }
  CUcontext context(int index) const { return contexts_.at(index); }
  int attribute(int index, CUdevice_attribute attr) const;
  int smCount(int index) const {
    return attribute(index, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  }
  bool canAccessPeer(int index, int peer) const;
  // CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED between the two; nullopt: no answer.
  std::optional<bool> peerNativeAtomics(int index, int peer) const;
  void makeCurrent(int index) const;
  // Enables access both ways between a and b (already enabled is fine); throws PeerAccessError.
  void enablePeerAccess(int a, int b) const;
  DeviceInfo info(int index) const;
  std::string uuid(int index) const;  // "GPU-..." (formatUuid)
  int driverCudaVersion() const;
  // N when the devices are N logical GPUs of one physical GPU; 0 when they are real.
  int logicalGpus() const { return logicalGpus_; }

 private:
  const DriverApi& api_;
  int logicalGpus_ = 0;
  std::vector<UniqueHandle<CUdevice, platform::ReleasePrimaryContext>> retained_;
  std::vector<CUdevice> devices_;  // by device index: the physical ones, or the one N times
  std::vector<CUcontext> contexts_;
};

}  // namespace nvbw
