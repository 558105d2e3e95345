// The multinode build with a fault injected on one rank, for the GPU machine: every copy that
// rank NVBW_FAULT_RANK (default 1) issues has 4 KiB of its destination overwritten after each
// sample, before verification. The run must report that testcase as ERROR naming the rank, go
// on with the next testcases, exit 1 and never hang. Built only with NVBW_MULTINODE.
#include <cuda_runtime.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/application.h"
#include "engine/fault_injection.h"
#include "multinode/mpi/mpi_communicator.h"
#include "multinode/mpi/mpi_platform.h"
#include "platform/signals.h"

namespace {

using namespace nvbw;

// A failed call is said on stderr: the overwrite did not happen, so the run's verdict is not
// this harness's.
void said(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    std::cerr << "nvbw_mpi_faults: " << call << ": " << cudaGetErrorString(status) << "\n";
}

class OverwriteDestinations final : public FaultInjector {
 public:
  void beforeVerification(const std::vector<CopiedBuffer>& copies) override {
    int gpus = 0;
    said(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
    for (const CopiedBuffer& c : copies) {
      // The primary context the copy ran in; logical GPUs (NVBW_LOGICAL_GPUS) all live in the
      // one GPU's.
      said(cudaSetDevice(gpus == 1 ? 0 : c.copy->execDevice), "cudaSetDevice");
      said(cudaMemset(reinterpret_cast<void*>(c.destination + c.checkedBytes / 2), 0x5a, 4096),
           "cudaMemset");
      said(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
  }
};

// The real multinode platform; only the plan runner of the faulty rank gets the injector.
class FaultyPlatform final : public Platform {
 public:
  FaultyPlatform(std::unique_ptr<Platform> inner, bool faulty)
      : inner_(std::move(inner)), faulty_(faulty) {}
  SystemFacts systemFacts() const override { return inner_->systemFacts(); }
  const Topology& topology() const override { return inner_->topology(); }
  std::unique_ptr<PlanExecutor> makePlanExecutor(const RunSettings& settings,
                                                 ExecHooks hooks) override {
    if (faulty_) hooks.faults = std::make_shared<OverwriteDestinations>();
    return inner_->makePlanExecutor(settings, std::move(hooks));
  }

 private:
  std::unique_ptr<Platform> inner_;
  bool faulty_;
};

}  // namespace

int main(int argc, char** argv) {
  multinode::MpiSession session(argc, argv);
  multinode::MpiCommunicator comm(multinode::collectiveTimeout());
  const char* rank = std::getenv("NVBW_FAULT_RANK");
  const bool faulty = comm.rank() == (rank ? std::atoi(rank) : 1);
  SignalStop signals;
  std::ostringstream silent, silentErr;
  AppContext context{[&](const PlatformStart&) -> std::unique_ptr<Platform> {
                       return std::make_unique<FaultyPlatform>(multinode::openMpiPlatform(comm),
                                                               faulty);
                     },
                     comm.rank() == 0 ? std::cout : silent,
                     comm.rank() == 0 ? std::cerr : silentErr,
                     [&signals] { return signals.pending(); },
                     {},
                     &comm,
                     RegistryScope::WithMultinode};
  return runCommandLine(std::vector<std::string>(argv + 1, argv + argc), context);
}
