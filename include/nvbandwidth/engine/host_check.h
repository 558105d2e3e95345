// Checking host memory: a pinned host buffer's words compared with a pattern by the CPU, on
// several threads, where they are; and how a check is shared between the CPU and the GPU, which
// reads the buffer's leading part across its link at the same time. Proven on a GPU by
// HostTestcases.ACorruptedHostDestinationIsCaughtAnywhereInAnySample (tests/gpu): a wrong byte in
// either share of the check fails the testcase.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nvbw::engine {

struct PatternCheck {
  unsigned long long mismatches = 0;     // 32-bit words that differ
  unsigned long long firstWord = ~0ull;  // index of the first that differs (~0ull: none)
};

// Compares data[0 .. words) with `pattern` repeated (`patternWords` long, at least one), on up
// to 16 threads (at least 8 MiB each, no more than this process may run on).
PatternCheck checkHostPattern(const std::uint32_t* data, std::size_t words,
                              const std::uint32_t* pattern, std::size_t patternWords);

// The share of a host buffer's check the GPU takes, in proportion to the speeds the CPU and the
// GPU showed in the last check both took part in, so that both finish at about the same time.
class HostCheckShare {
 public:
  // The leading bytes of a `bytes` check that the GPU takes: whole periods of `periodBytes` (so
  // the CPU's part starts where the pattern does), none when not even one fits.
  std::size_t gpuBytes(std::size_t bytes, std::size_t periodBytes) const;
  // After a check: the bytes each side compared and the seconds it took.
  void measured(std::size_t cpuBytes, double cpuSeconds, std::size_t gpuBytes, double gpuSeconds);

 private:
  double share_ = 0.5;
};

}  // namespace nvbw::engine
