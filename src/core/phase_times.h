// Where the wall time of a run goes, measured by the executor: the breakdown that says whether
// the time outside the timed copies is worth attacking.
#pragma once

#include <cstddef>

namespace nvbw {

struct PhaseTimes {
  double release = 0;       // freeing buffers the next testcase cannot use
  double allocation = 0;    // buffer allocation (pool misses), stream and event creation
  double fill = 0;          // pattern fills before each sample, until they complete
  double enqueue = 0;       // queueing spin kernels, copies and events behind the latch
  double wait = 0;          // from the latch release until every stream has finished
  double verification = 0;  // checking the copied data
  double latency = 0;       // pointer chases, chain set-up included
  double timedCopies = 0;   // the measured copies as the GPU's event timers report them
  double total() const {
    return release + allocation + fill + enqueue + wait + verification + latency;
  }
  PhaseTimes& operator+=(const PhaseTimes& o) {
    release += o.release;
    allocation += o.allocation;
    fill += o.fill;
    enqueue += o.enqueue;
    wait += o.wait;
    verification += o.verification;
    latency += o.latency;
    timedCopies += o.timedCopies;
    return *this;
  }
};

// What the buffer pool allocated over a run, and the most it held at once.
struct MemoryStats {
  std::size_t hostBytesAllocated = 0;
  std::size_t deviceBytesAllocated = 0;
  std::size_t peakHostBytes = 0;
  std::size_t peakDeviceBytes = 0;  // on the GPU that held the most
};

}  // namespace nvbw
