// Binding the calling thread to a GPU's local CPUs while pinned host memory is allocated, so its
// pages land on the GPU's NUMA node. Read from sysfs: no NVML needed (decisions.md #12).
#pragma once

#include <sched.h>

#include <optional>
#include <string>
#include <vector>

#include "nvbandwidth/system_info.h"

namespace nvbw {

// Parses a Linux CPU list such as "0-3,8,10-11". Returns nullopt for malformed text.
std::optional<std::vector<int>> parseCpuList(const std::string& text);

// The CPUs local to a PCI device, from /sys/bus/pci/devices/<bdf>/local_cpulist; nullopt when
// sysfs does not say (VMs, containers without /sys).
std::optional<std::vector<int>> localCpusOf(const DeviceInfo& device);

// Sets the calling thread's affinity for the scope and restores the previous mask afterwards.
// If the affinity cannot be set, the guard does nothing (ok() is false).
class AffinityGuard {
 public:
  explicit AffinityGuard(const std::vector<int>& cpus);
  ~AffinityGuard();
  AffinityGuard(const AffinityGuard&) = delete;
  AffinityGuard& operator=(const AffinityGuard&) = delete;
  bool ok() const { return applied_; }

 private:
  cpu_set_t previous_{};
  bool applied_ = false;
};

}  // namespace nvbw
