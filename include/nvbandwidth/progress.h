// Progress of a run while it lasts: what a progress display needs, nothing the reports read
// (they are rendered from the results alone).
#pragma once

#include <cstddef>
#include <functional>

namespace nvbw {

// One sample of one measurement has finished.
struct ProgressEvent {
  std::size_t measurement = 0;   // index in the plan
  std::size_t measurements = 0;  // measurements in the plan
  unsigned sample = 0;           // index of the finished sample
  unsigned samples = 0;          // samples per measurement
};

using ProgressSink = std::function<void(const ProgressEvent&)>;

}  // namespace nvbw
