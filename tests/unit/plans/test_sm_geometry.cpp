#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>

#include "plans/sm_geometry.h"

namespace nvbw {
namespace test_sm_geometry {

constexpr std::size_t MiB = 1048576;

TEST(SmCopyGeometry, H200DefaultSizeUsesStridingKernelTruncatedToThreadCount) {
  // 132 SMs x 512 threads = 67,584; 33,554,432 elements -> 496 x 67,584 = 33,521,664.
  const SmCopyGeometry g = smCopyGeometry(512 * MiB, 132);
  EXPECT_TRUE(g.striding);
  EXPECT_EQ(g.grid, 132u);
  EXPECT_EQ(g.block, 512u);
  EXPECT_EQ(g.elements, 33521664u);
  EXPECT_EQ(g.bytes(), 536346624u);
}

TEST(SmCopyGeometry, OneMiBUsesSimpleKernel) {
  const SmCopyGeometry g = smCopyGeometry(1 * MiB, 132);
  EXPECT_FALSE(g.striding);
  EXPECT_EQ(g.block, 1024u);
  EXPECT_EQ(g.grid, 64u);
  EXPECT_EQ(g.elements, 65536u);
  EXPECT_EQ(g.bytes(), 1 * MiB);
}

TEST(SmCopyGeometry, ThresholdIs64MiB) {
  EXPECT_TRUE(smCopyGeometry(64 * MiB, 132).striding);
  EXPECT_TRUE(smCopyGeometry(64 * MiB + 1, 132).striding);

  // One byte less: simple kernel, 4,194,303 elements -> 4095 full blocks of 1024.
  const SmCopyGeometry below = smCopyGeometry(64 * MiB - 1, 132);
  EXPECT_FALSE(below.striding);
  EXPECT_EQ(below.block, 1024u);
  EXPECT_EQ(below.grid, 4095u);
  EXPECT_EQ(below.elements, 4193280u);
}

TEST(SmCopyGeometry, StridingBytesForSeveralSmCounts) {
  struct Case {
    int sms;
    std::size_t bytes;
    std::size_t expected;
  };
  // Expected values computed independently: 16 * T * floor(floor(bytes / 16) / T), T = sms * 512.
  const Case cases[] = {
      {1, 64 * MiB, 67108864},
      {1, 1024 * MiB + 12345, 1073750016},
      {7, 64 * MiB, 67092480},
      {7, 512 * MiB, 536854528},
      {78, 512 * MiB, 536739840},
      {108, 64 * MiB, 66355200},
      {108, 512 * MiB, 536150016},
      {114, 512 * MiB, 536051712},
      {114, 1024 * MiB + 12345, 1073037312},
      {132, 64 * MiB, 67043328},
      {132, 1024 * MiB + 12345, 1072693248},
      {132, 8192 * MiB, 8589115392},
      {144, 512 * MiB, 536739840},
      {144, 8192 * MiB, 8589017088},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.sms << " SMs, " << c.bytes << " bytes");
    const SmCopyGeometry g = smCopyGeometry(c.bytes, c.sms);
    EXPECT_TRUE(g.striding);
    EXPECT_EQ(g.grid, static_cast<unsigned>(c.sms));
    EXPECT_EQ(g.block, 512u);
    EXPECT_EQ(g.bytes(), c.expected);
    EXPECT_EQ(g.elements % (static_cast<std::size_t>(c.sms) * 512), 0u);
    EXPECT_EQ(smCopyGeometry(c.bytes, c.sms).bytes(), c.expected);
  }
}

TEST(SmCopyGeometry, StridingElementsAreTheLargestMultipleOfTheThreadCount) {
  for (int sms : {1, 2, 3, 16, 66, 78, 108, 113, 132, 144}) {
    const std::size_t threads = static_cast<std::size_t>(sms) * 512;
    for (std::size_t bytes = 64 * MiB; bytes < 70 * MiB; bytes += 777777) {
      const SmCopyGeometry g = smCopyGeometry(bytes, sms);
      const std::size_t n = bytes / 16;
      EXPECT_LE(g.elements, n);
      EXPECT_LT(n - g.elements, threads);
      EXPECT_EQ(g.elements % threads, 0u);
    }
  }
}

TEST(SmCopyGeometry, EmptyAndSubElementSizesCopyNothing) {
  for (std::size_t bytes : {0, 1, 15}) {
    SCOPED_TRACE(bytes);
    const SmCopyGeometry g = smCopyGeometry(bytes, 132);
    EXPECT_FALSE(g.striding);
    EXPECT_EQ(g.grid, 0u);
    EXPECT_EQ(g.block, 0u);
    EXPECT_EQ(g.elements, 0u);
    EXPECT_EQ(g.bytes(), 0u);
    EXPECT_EQ(smCopyGeometry(bytes, 132).bytes(), 0u);
  }
}

TEST(SmCopyGeometry, SmallSizesUseOneBlockOfExactlyTheElements) {
  const SmCopyGeometry one = smCopyGeometry(16, 132);
  EXPECT_EQ(one.grid, 1u);
  EXPECT_EQ(one.block, 1u);
  EXPECT_EQ(one.elements, 1u);

  const SmCopyGeometry hundred = smCopyGeometry(100, 132);  // 6 elements, 4 bytes left over
  EXPECT_EQ(hundred.grid, 1u);
  EXPECT_EQ(hundred.block, 6u);
  EXPECT_EQ(hundred.bytes(), 96u);
}

TEST(SmCopyGeometry, SimpleKernelReportsOnlyTheElementsItCopies) {
  // 1500 elements: block 1024, grid floor(1500 / 1024) = 1, so 1024 elements are copied (upstream
  // would report all 1500).
  const SmCopyGeometry g = smCopyGeometry(1500 * 16, 132);
  EXPECT_EQ(g.block, 1024u);
  EXPECT_EQ(g.grid, 1u);
  EXPECT_EQ(g.elements, 1024u);
  EXPECT_EQ(smCopyGeometry(1500 * 16, 132).bytes(), 1024u * 16);

  // A trailing partial element is dropped too.
  EXPECT_EQ(smCopyGeometry(1 * MiB + 15, 132).bytes(), 1 * MiB);
}

TEST(SmCopyGeometry, SimpleKernelIgnoresTheSmCount) {
  const SmCopyGeometry a = smCopyGeometry(3 * MiB, 1);
  const SmCopyGeometry b = smCopyGeometry(3 * MiB, 132);
  EXPECT_EQ(a.grid, b.grid);
  EXPECT_EQ(a.elements, b.elements);
  EXPECT_NO_THROW(smCopyGeometry(3 * MiB, 0));
}

TEST(SmCopyGeometry, StridingNeedsAPositiveSmCount) {
  EXPECT_THROW(smCopyGeometry(512 * MiB, 0), std::invalid_argument);
  EXPECT_THROW(smCopyGeometry(512 * MiB, -4), std::invalid_argument);
}

TEST(SplitWarpGeometry, AlwaysSimpleShape) {
  const SmCopyGeometry g = splitWarpGeometry(512 * MiB);
  EXPECT_FALSE(g.striding);
  EXPECT_EQ(g.block, 1024u);
  EXPECT_EQ(g.grid, 32768u);  // beyond 65535 is fine for grid.x; here it is not yet
  EXPECT_EQ(g.elements, 33554432u);
  EXPECT_EQ(g.bytes(), 512 * MiB);

  // Sizes beyond 4 GiB: more than 2^28 elements, and a grid beyond 65535.
  const SmCopyGeometry big = splitWarpGeometry(8192 * MiB);
  EXPECT_EQ(big.grid, 524288u);
  EXPECT_EQ(big.elements, 536870912u);
  EXPECT_EQ(big.bytes(), 8192 * MiB);

  EXPECT_EQ(splitWarpGeometry(0).elements, 0u);
  EXPECT_EQ(splitWarpGeometry(15).grid, 0u);
  EXPECT_EQ(splitWarpGeometry(1500 * 16).elements, 1024u);
}

TEST(SplitWarpGeometry, MatchesSmGeometryBelowThreshold) {
  for (std::size_t bytes : {std::size_t{4096}, 1 * MiB, 7 * MiB + 3, 64 * MiB - 16}) {
    const SmCopyGeometry a = splitWarpGeometry(bytes);
    const SmCopyGeometry b = smCopyGeometry(bytes, 132);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.block, b.block);
    EXPECT_EQ(a.elements, b.elements);
  }
}

// ---- v0.10 shapes -------------------------------------------------------------------------------

TEST(TmaGeometry, OneBlockPerSmOverEvery16ByteElement) {
  const SmCopyGeometry g = tmaGeometry(512ull << 20, 132);
  EXPECT_EQ(g.grid, 132u);
  EXPECT_EQ(g.block, 32u);
  EXPECT_EQ(g.bytes(), 512ull << 20);
  EXPECT_THROW(tmaGeometry(1024, 0), std::invalid_argument);
}

TEST(LocalReadGeometry, FourResidentBlocksPerSm) {
  const SmCopyGeometry g = localReadGeometry(512ull << 20, 132);
  EXPECT_EQ(g.grid, 528u);
  EXPECT_EQ(g.block, 512u);
  EXPECT_EQ(g.bytes(), 512ull << 20);  // nothing truncated: the kernel reads the tail too
  EXPECT_THROW(localReadGeometry(1024, -1), std::invalid_argument);
}

TEST(LocalWriteGeometry, OneBlockPerTileWithAPartialLastTile) {
  const SmCopyGeometry g = localWriteGeometry(512ull << 20);
  EXPECT_EQ(g.block, 512u);
  EXPECT_EQ(g.grid, (512ull << 20) / 16 / kWriteTileElements);  // 16384 whole tiles
  EXPECT_EQ(g.bytes(), 512ull << 20);
  const SmCopyGeometry odd = localWriteGeometry(16 * (kWriteTileElements + 1));
  EXPECT_EQ(odd.grid, 2u);
  EXPECT_EQ(odd.elements, kWriteTileElements + 1u);
  EXPECT_EQ(localWriteGeometry(0).grid, 0u);
}

}  // namespace test_sm_geometry
}  // namespace nvbw
