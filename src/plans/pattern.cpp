#include "plans/pattern.h"

#include <algorithm>

namespace nvbw {

std::vector<std::uint32_t> xorshiftPattern(std::uint32_t seed) {
  std::vector<std::uint32_t> words(kPatternWords);
  std::uint32_t v = seed;
  for (auto& word : words) {
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    word = v;  // the seed itself is never stored
  }
  return words;
}

std::vector<std::uint64_t> pointerChain(std::uint64_t baseAddress, std::size_t bytes,
                                        std::size_t strideNodes) {
  const std::size_t n = bytes / sizeof(std::uint64_t);
  std::vector<std::uint64_t> nodes(n);
  for (std::size_t i = 0; i < n; ++i)
    nodes[i] = baseAddress + sizeof(std::uint64_t) * ((i + strideNodes) % n);
  return nodes;
}

std::string mismatchMessage(const std::string& what, unsigned sample, unsigned long long mismatches,
                            std::size_t words, unsigned long long firstWord) {
  return "data verification failed for " + what + " in sample " + std::to_string(sample) + ": " +
         std::to_string(mismatches) + " of " + std::to_string(words) +
         " 32-bit words differ, the first at byte " + std::to_string(firstWord * 4);
}

ChaseShape chaseShape(unsigned samples, int smCount) {
  ChaseShape shape;
  shape.launches = static_cast<unsigned>(std::max(1, smCount));
  const unsigned long long share =
      kLatencyAccesses / (static_cast<unsigned long long>(std::max(1u, samples)) * shape.launches);
  shape.perLaunch = std::max<unsigned long long>(1, share);
  return shape;
}

std::uint64_t sourcePatternSum(std::size_t words) {
  static const std::vector<std::uint64_t> prefix = [] {
    const std::vector<std::uint32_t> pattern = xorshiftPattern(kSourceSeed);
    std::vector<std::uint64_t> sums(pattern.size() + 1, 0);
    for (std::size_t i = 0; i < pattern.size(); ++i) sums[i + 1] = sums[i] + pattern[i];
    return sums;
  }();
  const std::uint64_t full = words / kPatternWords;
  return full * prefix[kPatternWords] + prefix[words % kPatternWords];
}

}  // namespace nvbw
