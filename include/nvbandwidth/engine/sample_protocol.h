// One sample of the copies that run at once, step by step: fill, latch, enqueue (while the fills
// run), release, synchronise, verify, time. The copies are those of one measurement, or of a round
// of them (measurements on disjoint GPUs): each measurement's are timed from its own first stream,
// and one latch releases them all. The steps that involve other processes go through the
// SampleCoordinator; corruption for tests goes through the FaultInjector. In a multi-process
// run a process may have no copy of its own in a measurement: it still takes every step.
#pragma once

#include <vector>

#include "core/phase_times.h"
#include "engine/coordinator.h"
#include "engine/copy_run.h"
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
    OperationCounts& counts;
  };
  // The runs [begin, end) of one measurement, and whether its aggregate is timed.
  struct Group {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool total = false;
  };
  SampleProtocol(Parts parts, std::vector<CopyRun>& runs, std::vector<Group> groups,
                 SampleTiming timing = SampleTiming::Latched);

  // Per group, in order: its copies' seconds and its aggregate's.
  std::vector<SampleTimes> run(unsigned sample);

 private:
  // SampleTiming::InOrder (tests/support/sample_issues.h): no latch; the CPU fills and checks host
  // memory; each stream's copies issued in order, a group's streams by threads started together.
  std::vector<SampleTimes> runInOrder(unsigned sample);
  void issueInOrder(CopyRun& c);
  void fill(bool hostByCpu);
  void blockAndEnqueue();
  void awaitFills();
  void enqueueMeasured(std::size_t group);
  void wait();
  void verify(unsigned sample, bool hostOnGpu);
  std::vector<SampleTimes> timings() const;

  Parts p_;
  std::vector<CopyRun>& runs_;
  std::vector<Group> groups_;
  SampleTiming timing_;
  // Per group with copies: on its first copy's stream, after every copy's end (Total only).
  std::vector<std::optional<Event>> totalEnd_;
};

}  // namespace nvbw::engine
