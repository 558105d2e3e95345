#include "platform/logical_gpus.h"

#include <cstdlib>

#include "core/error.h"
#include "core/text.h"

namespace nvbw {

constexpr int kMinLogicalGpus = 2, kMaxLogicalGpus = 16;

int logicalGpusRequested(const std::optional<std::string>& value) {
  if (!value || value->empty()) return 0;
  const int count = value->size() <= 2 && allDigits(*value) ? std::stoi(*value) : -1;
  if (count < kMinLogicalGpus || count > kMaxLogicalGpus)
    throw StartupError(std::string(kLogicalGpusVariable) + "=" + *value +
                       ": expected a whole number of logical GPUs from " +
                       std::to_string(kMinLogicalGpus) + " to " + std::to_string(kMaxLogicalGpus) +
                       " (a testing aid; unset it to measure the real GPUs)");
  return count;
}

int logicalGpusFromEnvironment() {
  const char* value = std::getenv(kLogicalGpusVariable);
  return logicalGpusRequested(value ? std::optional<std::string>(value) : std::nullopt);
}

void checkOnePhysicalGpu(int logical, int physical) {
  if (logical == 0 || physical == 1) return;
  throw StartupError(std::string(kLogicalGpusVariable) + "=" + std::to_string(logical) +
                     " presents one GPU as several, and this process sees " +
                     std::to_string(physical) +
                     " GPUs: make exactly one visible (CUDA_VISIBLE_DEVICES), or unset it");
}

GpuLinkFacts logicalLinkFacts(GpuLinkFacts physical) {
  NvlinkLink toSwitch;
  toSwitch.remote = NvlinkLink::Remote::Switch;
  physical.nvlinks = std::vector<NvlinkLink>{toSwitch};
  return physical;
}

std::string logicalGpusNote(int count, const DeviceInfo& physical) {
  return "NOTE: " + std::string(kLogicalGpusVariable) + "=" + std::to_string(count) +
         ": the GPUs of this run are logical, all of them the one " + physical.name + " (" +
         physical.uuid +
         "); copies between them stay in its memory, so their figures are not a multi-GPU "
         "machine's (a testing aid).";
}

}  // namespace nvbw
