// The settings of a run as the options give them: what the executor measures with, and what the
// report records (JSON "settings"). One struct, filled once from the options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/statistics.h"

namespace nvbw {

struct RunSettings {
  std::uint64_t bufferSizeMiB = 512;  // -b (a sweep sets it per size)
  unsigned samples = 3;               // -i
  std::uint64_t loopCount = 16;       // --loopCount
  Statistic statistic = Statistic::Median;
  bool verify = true;             // not -s
  bool cpuAffinity = true;        // not -d
  bool useHugePages = false;      // -H
  std::size_t hugePageBytes = 0;  // -H: host buffers from huge pages of this size; 0: 4 KiB pages
  long long targetNumPairs = -1;  // -P
  std::vector<std::string> pair;  // --pair tokens as given; empty when not given
  std::vector<std::uint64_t> sweepSizesMiB;  // --sweep; empty when not given
  std::string schedule;                      // --schedule as given; empty when not given
  unsigned spinTimeoutMs = 10000;            // how long the spin kernel holds a stream at most
};

}  // namespace nvbw
