#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/stop_request.h"
#include "engine/fault_injection.h"
#include "engine/process_group.h"

namespace nvbw {

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

}  // namespace nvbw
