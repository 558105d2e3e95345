#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "plans/pattern.h"

namespace nvbw {
namespace test_pattern {

constexpr std::uint32_t kOtherSeed = 0xCAFEBABEu;  // upstream's destination seed

// Reference xorshift32 written differently from the implementation: 64-bit arithmetic masked to
// 32 bits, one step per call.
std::uint32_t referenceStep(std::uint64_t v) {
  constexpr std::uint64_t mask = 0xFFFFFFFFull;
  v = (v ^ (v << 13)) & mask;
  v = (v ^ (v >> 17)) & mask;
  v = (v ^ (v << 5)) & mask;
  return static_cast<std::uint32_t>(v);
}

TEST(XorshiftPattern, IsTwoMiBOfWords) {
  EXPECT_EQ(kPatternWords, 524288u);
  EXPECT_EQ(xorshiftPattern(kSourceSeed).size(), kPatternWords);
}

TEST(XorshiftPattern, FirstWordsForTheSourceSeed) {
  const std::vector<std::uint32_t> p = xorshiftPattern(kSourceSeed);
  // Worked out by hand (and by the reference below); the seed itself is not stored.
  EXPECT_EQ(p[0], 0x9126193Bu);
  EXPECT_EQ(p[1], 0x122B575Bu);
  EXPECT_EQ(p[2], 0x60C16C5Bu);
  EXPECT_EQ(p.back(), 0xC75AD55Cu);
  EXPECT_NE(p[0], kSourceSeed);
}

TEST(XorshiftPattern, FirstWordsForAnotherSeed) {
  const std::vector<std::uint32_t> p = xorshiftPattern(kOtherSeed);
  EXPECT_EQ(p[0], 0xA887F92Au);
  EXPECT_EQ(p[1], 0xA3F0CD9Bu);
  EXPECT_EQ(p[2], 0xF23DE7FAu);
  EXPECT_EQ(p.back(), 0x9B2E9365u);
}

TEST(XorshiftPattern, EveryWordFollowsFromThePreviousOne) {
  for (std::uint32_t seed : {kSourceSeed, kOtherSeed, 1u}) {
    const std::vector<std::uint32_t> p = xorshiftPattern(seed);
    ASSERT_EQ(p[0], referenceStep(seed));
    for (std::size_t i = 1; i < p.size(); ++i) {
      ASSERT_EQ(p[i], referenceStep(p[i - 1])) << "word " << i << ", seed " << seed;
    }
  }
}

TEST(XorshiftPattern, SeedsGiveDifferentPatterns) {
  const std::vector<std::uint32_t> src = xorshiftPattern(kSourceSeed);
  const std::vector<std::uint32_t> dst = xorshiftPattern(kOtherSeed);
  std::size_t equal = 0;
  for (std::size_t i = 0; i < src.size(); ++i) equal += src[i] == dst[i];
  EXPECT_LT(equal, 16u);  // a copy that did not happen must show up almost everywhere
}

TEST(PointerChain, TwoMiBChainWithOneLineStride) {
  constexpr std::uint64_t base = 0x7f0000000000ull;
  const std::vector<std::uint64_t> chain = pointerChain(base, kLatencyBufferBytes);
  ASSERT_EQ(chain.size(), 262144u);
  EXPECT_EQ(chain[0], base + 128);  // 16 nodes x 8 bytes = one 128-byte line ahead
  EXPECT_EQ(chain[1], base + 136);
  EXPECT_EQ(chain[1000], base + 8 * 1016);
}

TEST(PointerChain, WrapsAroundAtTheEnd) {
  constexpr std::uint64_t base = 0x1000;
  const std::vector<std::uint64_t> chain = pointerChain(base, kLatencyBufferBytes);
  const std::size_t n = chain.size();
  EXPECT_EQ(chain[n - 17], base + 8 * (n - 1));
  EXPECT_EQ(chain[n - 16], base);
  EXPECT_EQ(chain[n - 1], base + 8 * 15);
}

TEST(PointerChain, EveryNodeStaysInsideTheBuffer) {
  constexpr std::uint64_t base = 0x200000;
  const std::vector<std::uint64_t> chain = pointerChain(base, 4096, 5);
  ASSERT_EQ(chain.size(), 512u);
  for (std::uint64_t next : chain) {
    EXPECT_GE(next, base);
    EXPECT_LT(next, base + 4096);
    EXPECT_EQ((next - base) % 8, 0u);
  }
}

TEST(PointerChain, SizesBelowOneNodeGiveAnEmptyChain) {
  EXPECT_TRUE(pointerChain(0x1000, 0).empty());
  EXPECT_TRUE(pointerChain(0x1000, 7).empty());
  EXPECT_EQ(pointerChain(0x1000, 15).size(), 1u);      // partial trailing node dropped
  EXPECT_EQ(pointerChain(0x1000, 8, 16)[0], 0x1000u);  // one node points to itself
}

// Follows the chain from node 0 the way the kernel does and counts the nodes until it returns.
std::size_t walkCycle(const std::vector<std::uint64_t>& chain, std::uint64_t base) {
  std::set<std::uint64_t> seen;
  std::uint64_t node = base;
  while (seen.insert(node).second) node = chain[(node - base) / 8];
  EXPECT_EQ(node, base);  // the walk is a cycle back to the start, not a lasso
  return seen.size();
}

// The closed form of the walk: from node 0 it visits the multiples of gcd(n, stride) modulo n
// (a stride of 0, or of a multiple of n, stays on node 0: gcd = n, cycle 1).
std::size_t chainCycleLength(std::size_t bytes, std::size_t strideNodes = kLatencyStrideNodes) {
  const std::size_t n = bytes / sizeof(std::uint64_t);
  if (n == 0) return 0;
  return n / std::gcd(n, strideNodes % n);
}

TEST(ChainCycleLength, DefaultChainVisits16384Nodes) {
  EXPECT_EQ(chainCycleLength(kLatencyBufferBytes), 16384u);
  EXPECT_EQ(walkCycle(pointerChain(0x10000, kLatencyBufferBytes), 0x10000), 16384u);
}

TEST(ChainCycleLength, MatchesAWalkForOtherStrides) {
  for (std::size_t stride : {1, 3, 6, 16, 48, 100, 512}) {
    SCOPED_TRACE(stride);
    EXPECT_EQ(chainCycleLength(8192, stride),
              walkCycle(pointerChain(0x4000, 8192, stride), 0x4000));
  }
  EXPECT_EQ(chainCycleLength(kLatencyBufferBytes, 1), 262144u);
  EXPECT_EQ(chainCycleLength(kLatencyBufferBytes, 3), 262144u);
  EXPECT_EQ(chainCycleLength(kLatencyBufferBytes, 6), 131072u);
}

TEST(ChainCycleLength, DegenerateStridesAndSizes) {
  EXPECT_EQ(chainCycleLength(0), 0u);
  EXPECT_EQ(chainCycleLength(7), 0u);
  EXPECT_EQ(chainCycleLength(8192, 0), 1u);
  EXPECT_EQ(chainCycleLength(8192, 1024), 1u);     // stride = n
  EXPECT_EQ(chainCycleLength(8192, 1025), 1024u);  // stride = n + 1 acts like 1
}

// docs/compatibility.md#c11: the samples share upstream's 1,000,000 accesses; each sample chases
// its share once on every SM.
TEST(ChaseShape, SamplesShareTheMillionAccesses) {
  const ChaseShape three = chaseShape(3, 132);
  EXPECT_EQ(three.launches, 132u);
  EXPECT_EQ(three.perLaunch, 2525u);  // floor(1e6 / (3 * 132))
  EXPECT_DOUBLE_EQ(three.accessesPerSample(), 333300.0);
  const ChaseShape one = chaseShape(1, 132);
  EXPECT_EQ(one.perLaunch, 7575u);  // upstream's single sample: 999,900 accesses
}

TEST(ChaseShape, EveryLaunchChasesAtLeastOnce) {
  EXPECT_EQ(chaseShape(100000, 132).perLaunch, 1u);
  EXPECT_EQ(chaseShape(0, 0).launches, 1u);
  EXPECT_EQ(chaseShape(0, 0).perLaunch, kLatencyAccesses);
}

TEST(MismatchMessage, NamesCopySampleCountAndByteOffset) {
  EXPECT_EQ(mismatchMessage("the destination of Host -> Device 0", 2, 12, 1000, 256),
            "data verification failed for the destination of Host -> Device 0 in sample 2: 12 of "
            "1000 32-bit words differ, the first at byte 1024");
}

}  // namespace test_pattern
}  // namespace nvbw
