// The GPUs of this run: driver initialisation, primary contexts and peer access.
#pragma once

#include <cuda.h>

#include <string>
#include <vector>

#include "platform/driver.h"
#include "platform/system_info.h"
#include "platform/topology.h"

namespace nvbw {

// More GPUs than any system holds: a driver that reports more is not answering sensibly.
inline constexpr int kMaxDevices = 1024;

// Owns one retained primary context per device (released in the destructor).
class Gpu {
 public:
  // cuInit and device enumeration. Throws DriverUnavailable when cuInit fails or there is no GPU.
  explicit Gpu(const DriverApi& api);
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
  // Makes `index`'s primary context current on this thread.
  void makeCurrent(int index) const;
  // Enables access both ways between a and b; already-enabled is not an error.
  void enablePeerAccess(int a, int b) const;
  DeviceInfo info(int index) const;
  std::string uuid(int index) const;  // "GPU-..." (formatUuid)
  int driverCudaVersion() const;

 private:
  const DriverApi& api_;
  std::vector<CUdevice> devices_;
  std::vector<CUcontext> contexts_;
};

// Topology backed by the real driver.
class DriverTopology final : public Topology {
 public:
  explicit DriverTopology(const Gpu& gpu) : gpu_(gpu) {}
  int deviceCount() const override { return gpu_.deviceCount(); }
  bool canAccessPeer(int device, int peer) const override {
    return gpu_.canAccessPeer(device, peer);
  }
  int smCount(int device) const override { return gpu_.smCount(device); }
  int computeCapability(int device) const override {
    return 10 * gpu_.attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
           gpu_.attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  }
  bool confidentialComputing() const override { return confidential_; }
  void setConfidentialComputing(bool on) { confidential_ = on; }
  const GpuLinkFacts& linkFacts(int device) const override {
    return device < static_cast<int>(links_.size()) ? links_[device] : Topology::linkFacts(device);
  }
  void setLinkFacts(std::vector<GpuLinkFacts> links) { links_ = std::move(links); }

 private:
  const Gpu& gpu_;
  bool confidential_ = false;
  std::vector<GpuLinkFacts> links_;
};

}  // namespace nvbw
