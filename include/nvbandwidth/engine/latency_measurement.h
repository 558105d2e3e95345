// Pointer-chase latency of (chasing GPU, target memory) pairs (private to the executor): one
// pair, or a round of pairs on disjoint GPUs chased at once, each with its own stream, events and
// chain, so that each chase is timed as it would be alone.
#pragma once

#include <functional>
#include <vector>

#include "core/phase_times.h"
#include "engine/buffer_pool.h"
#include "engine/run_settings.h"
#include "plans/plan.h"

namespace nvbw::engine {

// Runs `samples` chases of each spec and returns, per spec, each sample's nanoseconds per
// access. `afterSample` is called after each sample of all of them (progress, stop requests).
std::vector<std::vector<double>> measureLatency(const Gpu& gpu, BufferPool& pool,
                                                const std::vector<LatencySpec>& specs,
                                                const RunSettings& settings,
                                                OperationCounts& counts,
                                                const std::function<void(unsigned)>& afterSample);

}  // namespace nvbw::engine
