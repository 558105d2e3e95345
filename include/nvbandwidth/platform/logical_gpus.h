// One GPU presented as several (NVBW_LOGICAL_GPUS=N): a testing aid that runs every multi-GPU
// path on real kernels on a one-GPU machine, never a user option (docs/building-and-testing.md,
// "Logical GPUs", says what the run then does).
#pragma once

#include <optional>
#include <string>

#include "platform/link_facts.h"
#include "platform/system_facts.h"

namespace nvbw {

inline constexpr const char* kLogicalGpusVariable = "NVBW_LOGICAL_GPUS";

// The count NVBW_LOGICAL_GPUS asks for: 0 when it is not set or empty. Throws StartupError for
// any other value than a whole number from 2 to 16.
int logicalGpusRequested(const std::optional<std::string>& value);

// The same, read from this process's environment.
int logicalGpusFromEnvironment();

// Throws StartupError unless `physical` (the GPUs the driver sees) is exactly one: N logical
// GPUs stand for one physical GPU only.
void checkOnePhysicalGpu(int logical, int physical);

// What a logical GPU says of its links: the physical GPU's PCIe link and memory, and NVLinks to
// a switch of unknown speed in place of its own, so that every pair of logical GPUs counts as
// connected through switches (pairs may run in rounds) and no NVLink peak is claimed.
GpuLinkFacts logicalLinkFacts(GpuLinkFacts physical);

// The note of every run on logical GPUs: which physical GPU they are, and that their figures
// are not a multi-GPU machine's.
std::string logicalGpusNote(int count, const DeviceInfo& physical);

}  // namespace nvbw
