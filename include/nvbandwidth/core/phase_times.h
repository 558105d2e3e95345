// Where the wall time of a run goes, measured by the executor: the breakdown that says whether
// the time outside the timed copies is worth attacking.
#pragma once

#include <cstddef>
#include <cstdint>

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
};

// What the buffer pool allocated over a run, and the most it held at once.
struct MemoryStats {
  std::size_t hostBytesAllocated = 0;
  std::size_t deviceBytesAllocated = 0;
  std::size_t peakHostBytes = 0;
  std::size_t peakDeviceBytes = 0;  // on the GPU that held the most
  std::size_t hostAllocations = 0;
  std::size_t deviceAllocations = 0;
};

// Passes over buffers of one kind (fills, checks): how many, and the bytes of host and of device
// memory they covered.
struct BufferPasses {
  std::uint64_t count = 0;
  std::uint64_t hostBytes = 0;
  std::uint64_t deviceBytes = 0;
};

// What the executor did, counted the same way by the real one and the fake platform's: the work
// a run's time is made of, whatever it cost on this machine.
struct OperationCounts {
  std::uint64_t rounds = 0;  // groups of measurements run at once (one alone counts too)
  std::uint64_t measurements = 0;
  std::uint64_t samples = 0;           // samples of those groups
  std::uint64_t copies = 0;            // copies, one per sample of each
  std::uint64_t copyBytes = 0;         // bytes the copies moved in one pass each, over the samples
  std::uint64_t longestCopyBytes = 0;  // per sample of a group, its largest copy's pass, summed
  std::uint64_t chases = 0;            // pointer-chase samples
  BufferPasses fills;
  std::uint64_t tailFills = 0;  // of those fills, the ones that completed a kept buffer's record
  BufferPasses checks;
};

}  // namespace nvbw
