// What a plan builder reads: the machine's topology and the buffer size.
#pragma once

#include <cstddef>

#include "nvbandwidth/topology.h"

namespace nvbw {

struct PlanContext {
  const Topology& topology;
  std::size_t bufferBytes;  // -b in bytes (latency testcases ignore it)
};

}  // namespace nvbw
