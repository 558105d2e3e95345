// Runs a Plan on the GPUs and turns timings into results.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "nvbandwidth/coordinator.h"
#include "nvbandwidth/fault_injection.h"
#include "nvbandwidth/gpu.h"
#include "nvbandwidth/phase_times.h"
#include "nvbandwidth/plan.h"
#include "nvbandwidth/process_world.h"
#include "nvbandwidth/progress.h"
#include "nvbandwidth/results.h"
#include "nvbandwidth/stop_request.h"

namespace nvbw {

struct ExecSettings {
  unsigned samples = 3;
  std::uint64_t loopCount = 16;
  Statistic statistic = Statistic::Median;
  bool verify = true;
  bool cpuAffinity = true;
  unsigned spinTimeoutMs = 10000;
  std::size_t hugePageBytes = 0;  // -H: host buffers from huge pages of this size; 0: 4 KiB pages
};

// Something that can run a plan. The runner depends on this interface so its logic (waivers,
// errors, ordering) is testable without a GPU.
class PlanRunner {
 public:
  virtual ~PlanRunner() = default;
  // Throws on CUDA errors, verification failures, spin timeouts and impossible timings, and
  // Interrupted when a stop was requested (after finishing the sample under way).
  virtual PlanResult run(const Plan& plan, const ProgressSink& progress) = 0;
  // Where the time went so far, and what was allocated.
  virtual PhaseTimes phaseTimes() const { return {}; }
  virtual MemoryStats memoryStats() const { return {}; }
};

// What a GPU plan runner needs besides the GPUs and the settings. Defaults: this process alone,
// no faults, never stop, notes dropped. With `processes` (a multi-process run) the runner also
// runs multi-process plans, and runs the others on rank 0 only while the other ranks wait.
struct ExecHooks {
  std::shared_ptr<FaultInjector> faults;
  StopRequest stopRequested;
  std::function<void(const std::string&)> note;
  std::shared_ptr<ProcessWorld> processes;
};

std::unique_ptr<PlanRunner> makeGpuPlanRunner(const Gpu& gpu, ExecSettings settings,
                                              ExecHooks hooks = {});

}  // namespace nvbw
