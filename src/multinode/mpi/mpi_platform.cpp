#include "multinode/mpi/mpi_platform.h"

#include <cstdlib>
#include <optional>

#include "app/gpu_platform.h"
#include "facts/machine_facts.h"
#include "multinode/attempt.h"
#include "multinode/mpi/mpi_process_group.h"
#include "multinode/startup.h"
#include "platform/driver.h"
#include "platform/driver_topology.h"
#include "platform/logical_gpus.h"

namespace nvbw::multinode {
namespace {

// Rank 0's GPUs for the single-process testcases, and what the processes can do together.
class MpiPlatform final : public Platform {
 public:
  explicit MpiPlatform(MpiCommunicator& comm) : comm_(comm) {
    LocalGpus local;
    startupStep(comm_, attempt([&] {
                  driver_.emplace(DriverLibrary::load());
                  gpu_ = std::make_unique<Gpu>(driver_->api(), logicalGpusFromEnvironment());
                  local = localGpus();
                }));
    const GpuAssignment assignment = assignGpus(comm_, local);
    device_ = assignment.device;
    const StartupDecision world = decideStartup(comm_, assignment.processes, probes());
    info_.processes = assignment.processes;
    info_.memorySharing = sharingName(world.sharing);
    info_.memorySharingDescription = world.description;
    machine_ = std::make_unique<MachineFacts>(*gpu_);
    info_.confidentialComputing = machine_->confidentialComputing();
    topology_ = std::make_unique<DriverTopology>(*gpu_, machine_->confidentialComputing(),
                                                 machine_->linkFacts(), world.facts);
    if (world.sharing != MemorySharing::None)
      startupStep(comm_, attempt([&] {
                    processes_ =
                        std::make_shared<MpiProcessGroup>(*gpu_, device_, comm_, world.sharing);
                  }));
  }

  SystemFacts systemFacts() const override { return info_; }
  const Topology& topology() const override { return *topology_; }
  EnvironmentSnapshot environment() const override { return machine_->environment(); }
  std::unique_ptr<PlanExecutor> makePlanExecutor(const RunSettings& settings,
                                                 ExecHooks hooks) override {
    hooks.processes = processes_;
    return makeGpuPlanExecutor(*gpu_, settings, withTestSwitches(std::move(hooks), *gpu_));
  }

 private:
  LocalGpus localGpus() {
    info_ = gpuSystemFacts(*gpu_);
    info_.mpiVersion = MpiSession::libraryVersion();
    return {hostName(), info_.devices, info_.logicalGpus};
  }

  // A small real allocation and export decides, not the device attribute: on servers without an
  // IMEX channel the attribute says fabric handles are supported and cuMemCreate refuses them.
  SharingProbes probes() {
    SharingProbes p;
    p.tryExport = [this](MemorySharing sharing) { return probeSharing(*gpu_, device_, sharing); };
    p.multicastSupported = [this] {
      int supported = 0;
      const auto problem = attempt(
          [&] { supported = gpu_->attribute(device_, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED); });
      return !problem && supported != 0;
    };
    const char* disable = std::getenv("NVBANDWIDTH_DISABLE_MULTICAST");
    p.multicastDisabled = disable && std::string(disable) == "1";
    p.logicalGpus = gpu_->logicalGpus() > 0;
    return p;
  }

  MpiCommunicator& comm_;
  std::optional<DriverLibrary> driver_;
  std::unique_ptr<Gpu> gpu_;
  int device_ = 0;
  SystemFacts info_;
  std::unique_ptr<MachineFacts> machine_;
  std::unique_ptr<DriverTopology> topology_;
  std::shared_ptr<MpiProcessGroup> processes_;
};

}  // namespace

std::unique_ptr<Platform> openMpiPlatform(MpiCommunicator& comm) {
  return std::make_unique<MpiPlatform>(comm);
}

}  // namespace nvbw::multinode
