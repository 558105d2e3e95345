// The verification pattern and the pointer-chase chain (host side, pure).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nvbw {

constexpr std::uint32_t kSourceSeed = 0xBAADF00Du;
constexpr std::size_t kPatternBytes = 2ull * 1048576;  // the pattern repeats every 2 MiB
constexpr std::size_t kPatternWords = kPatternBytes / 4;

// 2 MiB of xorshift32 words: v ^= v << 13; v ^= v >> 17; v ^= v << 5; the first stored word is
// the first output, not the seed.
std::vector<std::uint32_t> xorshiftPattern(std::uint32_t seed);

// The sum (mod 2^64) of the first `words` 32-bit words of the source pattern repeated: what a
// read-only pass over a buffer filled with it must add up to, once per pass.
std::uint64_t sourcePatternSum(std::size_t words);

// The value the write-only pass stores in every word.
constexpr std::uint32_t kWriteOnlyValue = 0x5A17C0DEu;

// The message of a failed verification: "data verification failed for <what> in sample <n>: <m>
// of <words> 32-bit words differ, the first at byte <offset>".
std::string mismatchMessage(const std::string& what, unsigned sample, unsigned long long mismatches,
                            std::size_t words, unsigned long long firstWord);

// Pointer chase.
constexpr std::size_t kLatencyBufferBytes = 2ull * 1048576;
constexpr std::size_t kLatencyStrideNodes = 16;  // 16 x 8 bytes = one 128-byte line
constexpr std::size_t kLatencyAccesses = 1000000;

// How the 1,000,000 accesses of a latency cell are spread: the samples share them evenly, and
// each sample makes its share in one launch per SM of the chasing GPU, so a cell costs what
// upstream's single sample costs (docs/compatibility.md#c11).
struct ChaseShape {
  unsigned long long perLaunch = 0;  // dependent loads of one launch (at least 1)
  unsigned launches = 0;             // per sample: one per SM
  double accessesPerSample() const { return static_cast<double>(perLaunch) * launches; }
};
ChaseShape chaseShape(unsigned samples, int smCount);

// Node i holds the address base + 8 * ((i + stride) mod n), n = bytes / 8.
std::vector<std::uint64_t> pointerChain(std::uint64_t baseAddress, std::size_t bytes,
                                        std::size_t strideNodes = kLatencyStrideNodes);

}  // namespace nvbw
