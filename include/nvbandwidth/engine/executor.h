// Runs a Plan on the GPUs and turns timings into results.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/phase_times.h"
#include "core/progress.h"
#include "core/stop_request.h"
#include "engine/fault_injection.h"
#include "engine/process_group.h"
#include "engine/results.h"
#include "engine/run_settings.h"
#include "plans/plan.h"
#include "platform/gpu.h"

namespace nvbw {

class HostPageReserve;

// Something that can run a plan. The runner depends on this interface so its logic (waivers,
// errors, ordering) is testable without a GPU.
class PlanExecutor {
 public:
  virtual ~PlanExecutor() = default;
  // Throws on CUDA errors, verification failures, spin timeouts and impossible timings, and
  // Interrupted when a stop was requested (after finishing the sample under way).
  virtual PlanResult run(const Plan& plan, const ProgressSink& progress) = 0;
  // Where the time went so far, what was allocated, and the work that took it.
  virtual PhaseTimes phaseTimes() const { return {}; }
  virtual MemoryStats memoryStats() const { return {}; }
  virtual OperationCounts operationCounts() const { return {}; }
};

// What a GPU plan executor needs besides the GPUs and the settings. Defaults: this process alone,
// no faults, never stop, notes dropped. With `processes` (a multi-process run) the executor also
// runs multi-process plans, and runs the others on rank 0 only while the other ranks wait.
struct ExecHooks {
  std::shared_ptr<FaultInjector> faults;
  StopRequest stopRequested;
  std::function<void(const std::string&)> note;
  std::shared_ptr<ProcessGroup> processes;
  // NVBW_TEST_FRESH_BUFFERS=1 (app/gpu_platform.h): every measurement allocates its buffers
  // afresh instead of taking those the pool kept.
  bool freshBuffers = false;
};

// `reserve` (may be null, else outliving the executor): host pages touched ahead of need.
std::unique_ptr<PlanExecutor> makeGpuPlanExecutor(const Gpu& gpu, RunSettings settings,
                                                  ExecHooks hooks = {},
                                                  HostPageReserve* reserve = nullptr);

}  // namespace nvbw
