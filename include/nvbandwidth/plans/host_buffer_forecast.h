// The pinned host buffers a run will hold, known before the machine is opened: the plans are
// pure, so those of one GPU can be built on a stand-in topology. Every GPU of a real machine
// has host buffers of the same sizes, so what one GPU needs a run of any size needs too.
#pragma once

#include <cstddef>
#include <vector>

#include "plans/registry.h"

namespace nvbw {

// The sizes of the host buffers that a one-GPU run of `testcases` (in run order) holds at its
// peak, in the order first needed: each size as many times as one measurement holds it at once
// (the pool keeps buffers for the next testcase, so a size needed again costs nothing more).
// Testcases waived on one GPU, and plans that fail to build there, add nothing.
std::vector<std::size_t> oneGpuHostBuffers(const std::vector<const TestcaseDef*>& testcases,
                                           std::size_t bufferBytes);

}  // namespace nvbw
