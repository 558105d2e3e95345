// How plans are executed: the settings of a run that reach the executor, and what it is given to
// report to and to ask (faults, stop requests, notes, the other processes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/statistics.h"
#include "core/stop_request.h"
#include "engine/fault_injection.h"
#include "engine/process_world.h"

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

// What a GPU plan runner needs besides the GPUs and the settings. Defaults: this process alone,
// no faults, never stop, notes dropped. With `processes` (a multi-process run) the runner also
// runs multi-process plans, and runs the others on rank 0 only while the other ranks wait.
struct ExecHooks {
  std::shared_ptr<FaultInjector> faults;
  StopRequest stopRequested;
  std::function<void(const std::string&)> note;
  std::shared_ptr<ProcessWorld> processes;
};

}  // namespace nvbw
