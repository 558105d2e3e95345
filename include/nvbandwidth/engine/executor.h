// Runs a Plan on the GPUs and turns timings into results.
#pragma once

#include <memory>

#include "core/phase_times.h"
#include "core/progress.h"
#include "engine/exec_hooks.h"
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

// `reserve` (may be null, else outliving the executor): host pages touched ahead of need.
std::unique_ptr<PlanExecutor> makeGpuPlanExecutor(const Gpu& gpu, RunSettings settings,
                                                  ExecHooks hooks = {},
                                                  HostPageReserve* reserve = nullptr);

}  // namespace nvbw
