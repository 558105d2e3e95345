// The machine a run measures, as the application sees it: the driver and topology seam behind
// which the real GPUs (gpu_platform.h), the MPI ranks' GPUs (multinode/mpi) and the tests' fakes
// stand.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/options.h"
#include "app/selection.h"
#include "engine/executor.h"
#include "facts/environment.h"
#include "plans/registry.h"
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
// can have it ready while its driver starts.
struct PlatformStart {
  // Sizes of host buffers whose 4 KiB pages may be touched ahead of need (HostPageReserve).
  std::vector<std::size_t> hostBuffers;
};

// The host buffers of the selected testcases (one GPU's, host_buffer_forecast.h), to be touched
// while the driver starts; none when their pages could be placed otherwise than a buffer's own
// allocation places them: huge pages (-H), or a machine whose `onlineNumaNodes` (sysfs's list,
// "0" for one node) names more than one node or is unknown. A --sweep run starts with its
// smallest size, which the forecast of -b does not know: nothing is touched ahead for it.
PlatformStart platformStart(const Options& options, const std::vector<TestcaseDef>& registry,
                            const std::vector<Selection>& selection,
                            const std::optional<std::string>& onlineNumaNodes);

// Opens the machine. Throws (StartupError, or any exception) when the run cannot start.
using PlatformFactory = std::function<std::unique_ptr<Platform>(const PlatformStart&)>;

}  // namespace nvbw
