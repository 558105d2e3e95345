#include "app/gpu_platform.h"

#include <cstdlib>
#include <future>
#include <optional>

#include "app/application.h"
#include "engine/copy_corruption.h"
#include "facts/driver_version.h"
#include "facts/machine_facts.h"
#include "facts/nvml.h"
#include "platform/driver.h"
#include "platform/driver_topology.h"
#include "platform/host_page_reserve.h"
#include "platform/logical_gpus.h"

namespace nvbw {
namespace {

class GpuPlatform final : public Platform {
 public:
  explicit GpuPlatform(const PlatformStart& start)
      : driver_(DriverLibrary::load()), reserve_(start.hostBuffers),
        nvml_(std::async(std::launch::async, [] { return Nvml::open(); })),
        gpu_(driver_.api(), logicalGpusFromEnvironment()), facts_(gpu_, nvml_.get()),
        topology_(gpu_, facts_.confidentialComputing(), facts_.linkFacts()) {}

  SystemFacts systemFacts() const override {
    SystemFacts info = gpuSystemFacts(gpu_);
    info.confidentialComputing = facts_.confidentialComputing();
    return info;
  }

  const Topology& topology() const override { return topology_; }
  EnvironmentSnapshot environment() const override { return facts_.environment(); }

  std::unique_ptr<PlanExecutor> makePlanExecutor(const RunSettings& settings,
                                                 ExecHooks hooks) override {
    return makeGpuPlanExecutor(gpu_, settings, withTestSwitches(std::move(hooks), gpu_), &reserve_);
  }

 private:
  DriverLibrary driver_;
  // Once the driver's library is loaded (without one nothing is touched): its pages are touched
  // while the members after it start the driver and open the GPUs.
  HostPageReserve reserve_;
  // NVML opens on a thread of its own while the driver starts (it needs nothing of the driver).
  std::future<std::optional<Nvml>> nvml_;
  Gpu gpu_;
  MachineFacts facts_;
  DriverTopology topology_;
};

}  // namespace

SystemFacts gpuSystemFacts(const Gpu& gpu) {
  SystemFacts info = buildSystemFacts();
  info.cudaDriverVersion = gpu.driverCudaVersion();
  info.driverVersion = readDriverVersion();
  for (int d = 0; d < gpu.deviceCount(); ++d) info.devices.push_back(gpu.info(d));
  info.logicalGpus = gpu.logicalGpus();
  return info;
}

ExecHooks withTestSwitches(ExecHooks hooks, const Gpu& gpu) {
  if (const char* list = std::getenv(kCorruptCopiesVariable); list && *list)
    hooks.faults = std::make_shared<CopyCorruption>(gpu, corruptedCopiesFrom(list));
  if (const char* fresh = std::getenv("NVBW_TEST_FRESH_BUFFERS"))
    hooks.freshBuffers = std::string(fresh) == "1";
  return hooks;
}

std::unique_ptr<Platform> openGpuPlatform(const PlatformStart& start) {
  return std::make_unique<GpuPlatform>(start);
}

}  // namespace nvbw
