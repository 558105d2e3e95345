#include "nvbandwidth/gpu_platform.h"

#include "nvbandwidth/driver.h"
#include "nvbandwidth/gpu.h"
#include "nvbandwidth/nvml.h"

namespace nvbw {
namespace {

class GpuPlatform final : public Platform {
 public:
  GpuPlatform() : driver_(DriverLibrary::load()), gpu_(driver_.api()), topology_(gpu_) {
    // Without NVML the mode is unknown; such systems are taken to be ordinary ones.
    const std::optional<Nvml> nvml = Nvml::open();
    topology_.setConfidentialComputing(nvml && nvml->confidentialComputing().value_or(false));
  }

  SystemInfo systemInfo() const override {
    SystemInfo info = buildSystemInfo();
    info.cudaDriverVersion = gpu_.driverCudaVersion();
    info.driverVersion = readDriverVersion();
    for (int d = 0; d < gpu_.deviceCount(); ++d) info.devices.push_back(gpu_.info(d));
    return info;
  }

  const Topology& topology() const override { return topology_; }

  std::unique_ptr<PlanRunner> makePlanRunner(const ExecSettings& settings,
                                             ExecHooks hooks) override {
    return makeGpuPlanRunner(gpu_, settings, std::move(hooks));
  }

 private:
  DriverLibrary driver_;
  Gpu gpu_;
  DriverTopology topology_;
};

}  // namespace

std::unique_ptr<Platform> openGpuPlatform() { return std::make_unique<GpuPlatform>(); }

}  // namespace nvbw
