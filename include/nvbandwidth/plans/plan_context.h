// What a plan builder reads: the machine's topology, the buffer size, which GPU pairs the
// pairwise testcases measure and in which order.
#pragma once

#include <cstddef>

#include "plans/pair_selection.h"
#include "plans/schedule.h"
#include "platform/topology.h"

namespace nvbw {

struct PlanContext {
  const Topology& topology;
  std::size_t bufferBytes;     // -b in bytes (latency testcases ignore it)
  PairRule pairs = {};         // --pair / -P; default: every pair
  ScheduleRule schedule = {};  // pair by pair, or in rounds of disjoint pairs
};

}  // namespace nvbw
