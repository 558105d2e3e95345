// The real machine behind the topology seam's link facts and the environment snapshot: sysfs for
// PCIe, NUMA and CPUs, the driver for device memory, NVML (loaded at run time) for NVLink,
// clocks, power and modes. What cannot be read stays unknown.
#pragma once

#include <optional>
#include <vector>

#include "facts/environment.h"
#include "facts/nvml.h"
#include "platform/gpu.h"
#include "platform/link_facts.h"

namespace nvbw {

class MachineFacts {
 public:
  // NVML opened once for the run (nullopt: not available, and the NVML facts unknown).
  explicit MachineFacts(const Gpu& gpu, std::optional<Nvml> nvml = Nvml::open());

  bool confidentialComputing() const;
  // Per GPU of `gpu`, in device order.
  std::vector<GpuLinkFacts> linkFacts() const;
  EnvironmentSnapshot environment() const;

 private:
  GpuLinkFacts linkFactsOf(int device) const;
  GpuEnvironment environmentOf(int device) const;

  const Gpu& gpu_;
  std::optional<Nvml> nvml_;
};

}  // namespace nvbw
