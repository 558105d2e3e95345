// One sample of a measurement's copies, step by step: fill, latch, enqueue, release,
// synchronise, verify, time. The steps that involve other processes go through the
// SampleCoordinator; corruption for tests goes through the FaultInjector. In a multi-process
// run a process may have no copy of its own in a measurement: it still takes every step.
#pragma once

#include <vector>

#include "core/phase_times.h"
#include "engine/coordinator.h"
#include "engine/copy_run.h"
#include "engine/exec_hooks.h"
#include "engine/fault_injection.h"
#include "engine/run_settings.h"

namespace nvbw::engine {

// Seconds of each copy (start_i to end_i) and of the aggregate (start_0 to the last end).
struct SampleTimes {
  std::vector<double> copies;
  double total = 0.0;
};

class SampleProtocol {
 public:
  struct Parts {
    const Gpu& gpu;
    SampleCoordinator& coordinator;
    FaultInjector& faults;
    PatternCache& patterns;
    Verifier& verifier;
    const RunSettings& settings;
    PhaseTimes& times;
  };
  SampleProtocol(Parts parts, std::vector<CopyRun>& runs, bool total);

  SampleTimes run(unsigned sample);

 private:
  void fill(unsigned sample);
  void blockAndEnqueue();
  void enqueueMeasured();
  void wait();
  void verify(unsigned sample);
  SampleTimes timings() const;

  Parts p_;
  std::vector<CopyRun>& runs_;
  bool total_;
  std::optional<Event> totalEnd_;  // on copy 0's stream, after every copy's end (Total only)
};

}  // namespace nvbw::engine
