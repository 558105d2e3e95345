// Binding the calling thread to a GPU's local CPUs while pinned host memory is allocated, so its
// pages land on the GPU's NUMA node. Which CPUs those are comes from sysfs (localCpusOf,
// facts/host_facts.h): no NVML needed (docs/compatibility.md#c12).
#pragma once

#include <sched.h>

#include <vector>

namespace nvbw {

// Sets the calling thread's affinity for the scope and restores the previous mask afterwards.
// If the affinity cannot be set, the guard does nothing.
class AffinityGuard {
 public:
  explicit AffinityGuard(const std::vector<int>& cpus);
  ~AffinityGuard();
  AffinityGuard(const AffinityGuard&) = delete;
  AffinityGuard& operator=(const AffinityGuard&) = delete;

 private:
  cpu_set_t previous_{};
  bool applied_ = false;
};

}  // namespace nvbw
