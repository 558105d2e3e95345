// Pointer-chase latency of one (chasing GPU, target memory) pair (private to the executor).
#pragma once

#include <functional>
#include <vector>

#include "engine/buffer_pool.h"
#include "engine/exec_hooks.h"
#include "engine/run_settings.h"
#include "plans/plan.h"

namespace nvbw::engine {

// Runs `samples` chases and returns each sample's nanoseconds per access. `afterSample` is called
// after each sample (progress, stop requests).
std::vector<double> measureLatency(const Gpu& gpu, BufferPool& pool, const LatencySpec& spec,
                                   const RunSettings& settings,
                                   const std::function<void(unsigned)>& afterSample);

}  // namespace nvbw::engine
