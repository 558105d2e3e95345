// Progress of a run while it lasts: what a progress display needs, nothing the reports read.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace nvbw {

// One sample of one measurement has finished (samples > 0), or a testcase is starting
// (samples == 0). The runner fills in the testcase fields of the executor's sample events.
struct ProgressEvent {
  std::size_t measurement = 0;    // index in the plan
  std::size_t measurements = 0;   // measurements in the plan
  unsigned sample = 0;            // index of the finished sample
  unsigned samples = 0;           // samples per measurement
  std::string testcase;           // key (with " at <n> MiB" in a sweep)
  std::size_t testcaseIndex = 0;  // 0-based, over the run (sweep sizes count separately)
  std::size_t testcases = 0;      // testcase runs the run will make
};

using ProgressSink = std::function<void(const ProgressEvent&)>;

}  // namespace nvbw
