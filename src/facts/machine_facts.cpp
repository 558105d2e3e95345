#include "facts/machine_facts.h"

#include <utility>

#include "facts/host_facts.h"

namespace nvbw {

MachineFacts::MachineFacts(const Gpu& gpu, std::optional<Nvml> nvml)
    : gpu_(gpu), nvml_(std::move(nvml)) {}

bool MachineFacts::confidentialComputing() const {
  // Without NVML the mode is unknown; such systems are taken to be ordinary ones.
  return nvml_ && nvml_->confidentialComputing().value_or(false);
}

GpuLinkFacts MachineFacts::linkFactsOf(int device) const {
  const DeviceInfo info = gpu_.info(device);
  GpuLinkFacts facts;
  facts.pcie = readPcieLink(pciSysfsDir(info));
  const int clockKHz = gpu_.attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  const int busWidth = gpu_.attribute(device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  if (clockKHz > 0 && busWidth > 0) facts.memory = MemoryFacts{clockKHz, busWidth};
  if (nvml_) {
    facts.busId = nvml_->busId(info.uuid);
    facts.nvlinks = nvml_->nvlinks(info.uuid);
    facts.c2c = nvml_->c2cEnabled(info.uuid);
  }
  return facts;
}

std::vector<GpuLinkFacts> MachineFacts::linkFacts() const {
  std::vector<GpuLinkFacts> facts;
  for (int d = 0; d < gpu_.deviceCount(); ++d) facts.push_back(linkFactsOf(d));
  return facts;
}

GpuEnvironment MachineFacts::environmentOf(int device) const {
  const DeviceInfo info = gpu_.info(device);
  const std::string dir = pciSysfsDir(info);
  GpuEnvironment env = nvml_ ? nvml_->environment(info.uuid) : GpuEnvironment{};
  env.pcie = readPcieLink(dir);
  env.numaNode = readNumaNode(dir);
  env.hostBufferCpus = readLocalCpuList(dir);
  return env;
}

EnvironmentSnapshot MachineFacts::environment() const {
  EnvironmentSnapshot snapshot;
  snapshot.host.cpuModel = readCpuModel();
  snapshot.host.numaNodes = readOnlineNumaNodes();
  if (!nvml_) snapshot.nvmlProblem = "libnvidia-ml.so.1 could not be loaded or initialised";
  for (int d = 0; d < gpu_.deviceCount(); ++d) snapshot.gpus.push_back(environmentOf(d));
  return snapshot;
}

}  // namespace nvbw
