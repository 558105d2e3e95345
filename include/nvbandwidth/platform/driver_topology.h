// The Topology seam answered by the real driver (tests answer it with FakeTopology).
#pragma once

#include <optional>
#include <vector>

#include "platform/gpu.h"
#include "platform/link_facts.h"
#include "platform/logical_gpus.h"
#include "platform/topology.h"

namespace nvbw {

class DriverTopology final : public Topology {
 public:
  // With what the driver cannot say: the confidential-computing state and each GPU's links
  // (logical GPUs present logicalLinkFacts: a switched fabric between them), and a multi-process
  // run's ranks (multinode/mpi/mpi_platform.cpp; a process alone otherwise).
  explicit DriverTopology(const Gpu& gpu, bool confidential = false,
                          std::vector<GpuLinkFacts> links = {},
                          std::optional<ProcessFacts> processes = std::nullopt)
      : gpu_(gpu), confidential_(confidential), links_(std::move(links)),
        processes_(std::move(processes)) {
    if (gpu_.logicalGpus() > 0)
      for (GpuLinkFacts& facts : links_) facts = logicalLinkFacts(std::move(facts));
  }
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
  const GpuLinkFacts& linkFacts(int device) const override {
    return device < static_cast<int>(links_.size()) ? links_[device] : Topology::linkFacts(device);
  }
  std::optional<bool> peerOverNvlink(int device, int peer) const override {
    return gpu_.peerNativeAtomics(device, peer);
  }
  const ProcessFacts& processFacts() const override {
    return processes_ ? *processes_ : Topology::processFacts();
  }

 private:
  const Gpu& gpu_;
  bool confidential_;
  std::vector<GpuLinkFacts> links_;
  std::optional<ProcessFacts> processes_;
};

}  // namespace nvbw
