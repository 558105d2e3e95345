// What the executor measures with, filled from the options (the report's record of how the run
// measured is model::SettingsRecord, filled by the app).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/statistics.h"

namespace nvbw {

struct RunSettings {
  unsigned samples = 3;          // -i
  std::uint64_t loopCount = 16;  // --loopCount
  Statistic statistic = Statistic::Median;
  bool verify = true;              // not -s
  bool cpuAffinity = true;         // not -d
  std::size_t hugePageBytes = 0;   // -H: host buffers from huge pages of this size; 0: 4 KiB pages
  bool sweep = false;              // --sweep: buffers sized per sweep step, not by -b
  unsigned spinTimeoutMs = 10000;  // how long the spin kernel holds a stream at most
};

}  // namespace nvbw
