// What a plan builder reads: the machine's topology, the buffer size and which GPU pairs the
// pairwise testcases measure.
#pragma once

#include <cstddef>

#include "plans/pair_selection.h"
#include "platform/topology.h"

namespace nvbw {

struct PlanContext {
  const Topology& topology;
  std::size_t bufferBytes;  // -b in bytes (latency testcases ignore it)
  PairRule pairs = {};      // --pair / -P; default: every pair
};

}  // namespace nvbw
