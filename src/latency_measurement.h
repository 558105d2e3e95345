// Pointer-chase latency of one (chasing GPU, target memory) pair (private to the executor).
#pragma once

#include <functional>
#include <vector>

#include "nvbandwidth/buffer_pool.h"
#include "nvbandwidth/executor.h"
#include "nvbandwidth/plan.h"

namespace nvbw::detail {

// How the 1,000,000 accesses of a latency cell are spread: each sample makes its share of them,
// one launch per SM of the chasing GPU (decisions.md #11).
struct ChaseShape {
  unsigned long long perLaunch = 0;  // dependent loads of one launch
  unsigned launches = 0;             // per sample: one per SM
  double accessesPerSample() const { return static_cast<double>(perLaunch) * launches; }
};
ChaseShape chaseShape(unsigned samples, int smCount);

// Runs `samples` chases and returns each sample's nanoseconds per access. `afterSample` is called
// after each sample (progress, stop requests).
std::vector<double> measureLatency(const Gpu& gpu, BufferPool& pool, const LatencySpec& spec,
                                   const ExecSettings& settings,
                                   const std::function<void(unsigned)>& afterSample);

}  // namespace nvbw::detail
