// makeCopy's context preference (which GPU issues a copy) and isReportedCopy.
#include <gtest/gtest.h>

#include <cstddef>

#include "plans/plan.h"

namespace nvbw {
namespace test_plan {

constexpr std::size_t kBytes = std::size_t{1} << 20;
constexpr ContextPreference kSrc = ContextPreference::PreferSrc;
constexpr ContextPreference kDst = ContextPreference::PreferDst;

const BufferSpec kHost3 = BufferSpec::host(3, kBytes);
const BufferSpec kGpu1 = BufferSpec::onDevice(1, kBytes);
const BufferSpec kGpu2 = BufferSpec::onDevice(2, kBytes);

// ---- BufferSpec -------------------------------------------------------------------------------

// Two specs name the same buffer exactly when kind, device and size agree: the pool shares buffers
// by this equality, so a spec that compared equal across kinds would hand a host buffer to a copy
// that expects device memory.
TEST(BufferSpec, SpecsAreEqualExactlyWhenKindDeviceAndSizeAre) {
  EXPECT_TRUE(BufferSpec::onDevice(1, kBytes) == kGpu1);
  EXPECT_TRUE(BufferSpec::host(3, kBytes) == kHost3);
  EXPECT_FALSE(BufferSpec::host(1, kBytes) == kGpu1);
  EXPECT_FALSE(BufferSpec::onDevice(2, kBytes) == kGpu1);
  EXPECT_FALSE(BufferSpec::onDevice(1, 2 * kBytes) == kGpu1);
  EXPECT_FALSE(BufferSpec::host(1, kBytes) == BufferSpec::host(3, kBytes));
}

// ---- makeCopy ---------------------------------------------------------------------------------

TEST(MakeCopy, KeepsBuffersAndMethod) {
  const CopySpec c = makeCopy(kGpu1, kGpu2, CopyMethod::SmSplitWarp, kDst);
  EXPECT_EQ(c.src, kGpu1);
  EXPECT_EQ(c.dst, kGpu2);
  EXPECT_EQ(c.method, CopyMethod::SmSplitWarp);
}

TEST(MakeCopy, DefaultsToPreferSrc) {
  EXPECT_EQ(makeCopy(kGpu1, kGpu2, CopyMethod::CopyEngine).execDevice, 1);
}

TEST(MakeCopy, PreferSrcUsesTheSourceGpu) {
  EXPECT_EQ(makeCopy(kGpu1, kGpu2, CopyMethod::CopyEngine, kSrc).execDevice, 1);
  EXPECT_EQ(makeCopy(kGpu2, kGpu1, CopyMethod::SmCopy, kSrc).execDevice, 2);
  EXPECT_EQ(makeCopy(kGpu2, kHost3, CopyMethod::CopyEngine, kSrc).execDevice, 2);
}

TEST(MakeCopy, PreferSrcFromHostFallsBackToTheDestinationGpu) {
  // Host buffers have no context, whatever their affinity device.
  EXPECT_EQ(makeCopy(kHost3, kGpu1, CopyMethod::CopyEngine, kSrc).execDevice, 1);
  EXPECT_EQ(makeCopy(kHost3, kGpu2, CopyMethod::SmCopy, kSrc).execDevice, 2);
}

TEST(MakeCopy, PreferDstUsesTheDestinationGpu) {
  EXPECT_EQ(makeCopy(kGpu1, kGpu2, CopyMethod::CopyEngine, kDst).execDevice, 2);
  EXPECT_EQ(makeCopy(kGpu2, kGpu1, CopyMethod::SmCopy, kDst).execDevice, 1);
  EXPECT_EQ(makeCopy(kHost3, kGpu1, CopyMethod::CopyEngine, kDst).execDevice, 1);
}

TEST(MakeCopy, PreferDstToHostFallsBackToTheSourceGpu) {
  EXPECT_EQ(makeCopy(kGpu2, kHost3, CopyMethod::CopyEngine, kDst).execDevice, 2);
  EXPECT_EQ(makeCopy(kGpu1, kHost3, CopyMethod::SmCopy, kDst).execDevice, 1);
}

TEST(MakeCopy, LocalCopyRunsOnItsGpuEitherWay) {
  const BufferSpec other = BufferSpec::onDevice(2, kBytes);
  EXPECT_EQ(makeCopy(kGpu2, other, CopyMethod::CopyEngine, kSrc).execDevice, 2);
  EXPECT_EQ(makeCopy(kGpu2, other, CopyMethod::CopyEngine, kDst).execDevice, 2);
}

// ---- isReportedCopy ---------------------------------------------------------------------------

Measurement withCopies(std::size_t n) {
  Measurement m;
  for (std::size_t i = 0; i < n; ++i)
    m.copies.push_back(makeCopy(kHost3, kGpu1, CopyMethod::CopyEngine));
  return m;
}

TEST(IsReportedCopy, OnlyTheNamedCopyOfACopyOutput) {
  Measurement m = withCopies(3);
  m.outputs.push_back({0, 0, 1, ValueSource::Copy, 0});
  EXPECT_TRUE(isReportedCopy(m, 0));
  EXPECT_FALSE(isReportedCopy(m, 1));
  EXPECT_FALSE(isReportedCopy(m, 2));
}

TEST(IsReportedCopy, EveryCopyNamedBySomeOutput) {
  Measurement m = withCopies(3);
  m.outputs.push_back({0, 0, 1, ValueSource::Copy, 0});
  m.outputs.push_back({1, 0, 1, ValueSource::Copy, 2});
  EXPECT_TRUE(isReportedCopy(m, 0));
  EXPECT_FALSE(isReportedCopy(m, 1));
  EXPECT_TRUE(isReportedCopy(m, 2));
}

TEST(IsReportedCopy, TotalReportsEveryCopy) {
  Measurement m = withCopies(3);
  m.outputs.push_back({0, 0, 2, ValueSource::Total, 0});
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(isReportedCopy(m, i)) << i;
}

TEST(IsReportedCopy, SumOfCopiesReportsEveryCopy) {
  Measurement m = withCopies(2);
  m.outputs.push_back({0, 0, 1, ValueSource::Copy, 0});
  m.outputs.push_back({2, 0, 1, ValueSource::SumOfCopies, 0});
  EXPECT_TRUE(isReportedCopy(m, 0));
  EXPECT_TRUE(isReportedCopy(m, 1));
}

TEST(IsReportedCopy, NothingIsReportedWithoutOutputs) {
  const Measurement m = withCopies(2);
  EXPECT_FALSE(isReportedCopy(m, 0));
  EXPECT_FALSE(isReportedCopy(m, 1));
}

}  // namespace test_plan
}  // namespace nvbw
