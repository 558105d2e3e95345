// nvbandwidth's multinode build on faked GPUs: the real MPI world, command line, collective
// start-up (multinode/startup.h) and application core, with GPUs, memory-sharing probes and
// measurements faked, so that MPI behaviour is tested under mpirun without a GPU.
//   NVBW_FAKE_GPUS       GPUs each rank sees (default 2)
//   NVBW_FAKE_SHARING    what exporting memory does: fabric, posix (default: fabric fails, posix
//                        works, as on a server without IMEX) or none
//   NVBW_FAKE_FAIL_RANK  the rank whose plans titled NVBW_FAKE_FAIL_TITLE fail verification
//   NVBW_FAKE_SAMPLE_MS  how long each sample takes (default 0)
//   NVBW_FAKE_LINKS      "nvswitch": every GPU's NVLinks go to switches (as fake_main.cpp's)
//   NVBW_FAKE_COUNTS     rank 0 appends a line of what each plan run did to this file
//   NVBW_LOGICAL_GPUS    as on the real platform: with NVBW_FAKE_GPUS=1, each rank sees that GPU
//                        as N logical GPUs, and ranks on different ones of it may share it
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/application.h"
#include "fake_platform.h"
#include "fake_topology.h"
#include "multinode/attempt.h"
#include "multinode/mpi/mpi_communicator.h"
#include "multinode/startup.h"
#include "output_fixtures.h"
#include "platform/logical_gpus.h"
#include "platform/signals.h"

namespace {

using namespace nvbw;

std::string env(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

std::optional<std::string> optionalEnv(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

class FakeMpiPlatform final : public Platform {
 public:
  explicit FakeMpiPlatform(Communicator& comm) : topology_(std::stoi(env("NVBW_FAKE_GPUS", "2"))) {
    LocalGpus local{hostName(), {}};
    startupStep(comm, multinode::attempt([&] {
                  local.logicalGpus = logicalGpusRequested(optionalEnv(kLogicalGpusVariable));
                  checkOnePhysicalGpu(local.logicalGpus, topology_.deviceCount());
                }));
    if (local.logicalGpus > 0) topology_ = FakeTopology(local.logicalGpus);
    const int gpus = topology_.deviceCount();
    info_ = test::systemWith(gpus);
    info_.logicalGpus = local.logicalGpus;
    local.devices = info_.devices;
    for (int d = 0; d < gpus; ++d)
      local.devices[d].uuid =
          "GPU-fake-" + local.host + "-" + std::to_string(local.logicalGpus > 0 ? 0 : d);
    const GpuAssignment assignment = assignGpus(comm, local);
    SharingProbes probes;
    const std::string sharing = env("NVBW_FAKE_SHARING", "posix");
    probes.tryExport = [sharing](MemorySharing kind) -> std::optional<std::string> {
      if (kind == MemorySharing::Fabric && sharing == "fabric") return std::nullopt;
      if (kind == MemorySharing::PosixFd && sharing == "posix") return std::nullopt;
      return std::string("cuMemCreate failed: CUDA_ERROR_NOT_PERMITTED (faked)");
    };
    probes.multicastSupported = [] { return false; };
    probes.multicastDisabled = env("NVBANDWIDTH_DISABLE_MULTICAST", "") == "1";
    probes.logicalGpus = local.logicalGpus > 0;
    const StartupDecision world = decideStartup(comm, assignment.processes, probes);
    topology_.setProcessFacts(world.facts);
    if (const std::string links = env("NVBW_FAKE_LINKS", ""); !links.empty())
      topology_ = test::withH200Links(topology_, links);
    info_.processes = assignment.processes;
    info_.mpiVersion = multinode::MpiSession::libraryVersion();
    info_.memorySharing = sharingName(world.sharing);
    info_.memorySharingDescription = world.description;
    behaviour_.perSample = std::chrono::milliseconds(std::stoi(env("NVBW_FAKE_SAMPLE_MS", "0")));
    if (comm.rank() == 0) behaviour_.countsFile = env("NVBW_FAKE_COUNTS", "");
    if (env("NVBW_FAKE_FAIL_RANK", "") == std::to_string(comm.rank()))
      behaviour_.failingTitles = {env("NVBW_FAKE_FAIL_TITLE", "")};
  }

  SystemFacts systemFacts() const override { return info_; }
  const Topology& topology() const override { return topology_; }
  std::unique_ptr<PlanExecutor> makePlanExecutor(const RunSettings& settings,
                                                 ExecHooks hooks) override {
    return test::makeFakeExecutor(settings, std::move(hooks), behaviour_);
  }

 private:
  FakeTopology topology_;
  SystemFacts info_;
  test::FakeBehaviour behaviour_;
};

}  // namespace

int main(int argc, char** argv) {
  multinode::MpiSession session(argc, argv);
  multinode::MpiCommunicator comm(multinode::collectiveTimeout());
  SignalStop signals;
  comm.watchStop([&signals] { return signals.pending(); });
  const bool printer = comm.rank() == 0;
  std::ostringstream silent, silentErr;
  AppContext context{[&comm](const PlatformStart&) -> std::unique_ptr<Platform> {
                       return std::make_unique<FakeMpiPlatform>(comm);
                     },
                     printer ? std::cout : silent,
                     printer ? std::cerr : silentErr,
                     [&signals] { return signals.pending(); },
                     {},
                     &comm,
                     RegistryScope::WithMultinode};
  return multinode::endJobIfLost(
      comm, runCommandLine(std::vector<std::string>(argv + 1, argv + argc), context));
}
