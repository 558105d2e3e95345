// Checking host memory where it is: a pinned host buffer's words compared with a pattern by the
// CPU, on several threads, instead of read back over PCIe by a GPU kernel (the CPU reads its own
// memory faster than the GPU reads it across the link, and checks on the GPUs run meanwhile).
#pragma once

#include <cstddef>
#include <cstdint>

namespace nvbw::engine {

struct PatternCheck {
  unsigned long long mismatches = 0;     // 32-bit words that differ
  unsigned long long firstWord = ~0ull;  // index of the first that differs (~0ull: none)
};

// Compares data[0 .. words) with `pattern` repeated (`patternWords` long, at least one), on up
// to 16 threads (at least 32 MiB each, no more than this process may run on).
PatternCheck checkHostPattern(const std::uint32_t* data, std::size_t words,
                              const std::uint32_t* pattern, std::size_t patternWords);

}  // namespace nvbw::engine
