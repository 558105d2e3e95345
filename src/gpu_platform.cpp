#include "nvbandwidth/gpu_platform.h"

#include "nvbandwidth/driver.h"
#include "nvbandwidth/gpu.h"

namespace nvbw {
namespace {

class GpuPlatform final : public Platform {
 public:
  GpuPlatform() : driver_(DriverLibrary::load()), gpu_(driver_.api()), topology_(gpu_) {}

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
