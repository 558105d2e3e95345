// The machine a run measures, as the application sees it: the driver and topology seam behind
// which the real GPUs (gpu_platform.h), the MPI ranks' GPUs (multinode/mpi) and the tests' fakes
// stand.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "engine/executor.h"
#include "facts/environment.h"
#include "platform/system_facts.h"
#include "platform/topology.h"

namespace nvbw {

// The driver/topology seam of a whole run: what the application asks the machine.
class Platform {
 public:
  virtual ~Platform() = default;
  // Versions, host name and devices.
  virtual SystemFacts systemFacts() const = 0;
  virtual const Topology& topology() const = 0;
  // The machine's state now (clocks, power, modes, PCIe link as trained): read at the start and
  // at the end of the run. By default nothing is known.
  virtual EnvironmentSnapshot environment() const;
  virtual std::unique_ptr<PlanExecutor> makePlanExecutor(const RunSettings& settings,
                                                         ExecHooks hooks) = 0;
};

// What the run will first ask of the machine, known before it is opened, so that the machine
// can have it ready while its driver starts (platform_start.h decides it).
struct PlatformStart {
  // Sizes of host buffers whose 4 KiB pages may be touched ahead of need (HostPageReserve).
  std::vector<std::size_t> hostBuffers;
};

// Opens the machine. Throws (StartupError, or any exception) when the run cannot start.
using PlatformFactory = std::function<std::unique_ptr<Platform>(const PlatformStart&)>;

}  // namespace nvbw
