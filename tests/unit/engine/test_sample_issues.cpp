// The order a sample issues its work in (tests/support/sample_issues.h), and what a confidential-
// computing host makes of it: a latched sample of host copies never ends there, one timed in
// order does.
#include <gtest/gtest.h>

#include <vector>

#include "sample_issues.h"

namespace nvbw::engine {
namespace test_sample_issues {

using K = IssueKind;

TEST(SampleIssues, LatchedQueuesEveryCopyBehindItsSpinBeforeTheRelease) {
  const std::vector<Issue> issues = sampleIssues(SampleTiming::Latched, {2, 1});
  const std::vector<Issue> expected = {
      {K::Fill, 0},  {K::Fill, 1},     {K::Fill, 2}, {K::Spin, 0},       {K::Warmup, 0},
      {K::Spin, 1},  {K::Warmup, 1},   {K::Spin, 2}, {K::Warmup, 2},     {K::Start, 0},
      {K::Start, 1}, {K::Measured, 0}, {K::End, 0},  {K::Measured, 1},   {K::End, 1},
      {K::Start, 2}, {K::Measured, 2}, {K::End, 2},  {K::AwaitFills, 0}, {K::Release, 0},
      {K::Wait, 0}};
  EXPECT_EQ(issues, expected);
}

TEST(SampleIssues, InOrderHasNoLatch) {
  const std::vector<Issue> issues = sampleIssues(SampleTiming::InOrder, {1, 1});
  const std::vector<Issue> expected = {{K::Fill, 0},     {K::Fill, 1},   {K::AwaitFills, 0},
                                       {K::Warmup, 0},   {K::Start, 0},  {K::Measured, 0},
                                       {K::End, 0},      {K::Warmup, 1}, {K::Start, 1},
                                       {K::Measured, 1}, {K::End, 1},    {K::Wait, 0}};
  EXPECT_EQ(issues, expected);
}

TEST(SampleIssues, ALatchedHostCopyNeverEndsOnAConfidentialHost) {
  const auto hang = confidentialHang(sampleIssues(SampleTiming::Latched, {1}), {true});
  ASSERT_TRUE(hang.has_value());
  EXPECT_EQ(*hang, "the warm-up copy of copy 0 waits for its stream's spin kernel, which only the "
                   "release after it ends");
  // The second stream's host copy is the one that hangs when the first copies device memory.
  const auto second = confidentialHang(sampleIssues(SampleTiming::Latched, {2}), {false, true});
  ASSERT_TRUE(second.has_value());
  EXPECT_NE(second->find("copy 1"), std::string::npos) << *second;
}

TEST(SampleIssues, InOrderAndDeviceCopiesEnd) {
  for (const std::vector<std::size_t>& groups :
       std::vector<std::vector<std::size_t>>{{1}, {2}, {1, 3}})
    EXPECT_EQ(
        confidentialHang(sampleIssues(SampleTiming::InOrder, groups), std::vector<bool>(4, true)),
        std::nullopt);
  // Copies between device buffers do not block their thread: the latch works there.
  EXPECT_EQ(confidentialHang(sampleIssues(SampleTiming::Latched, {2}), {false, false}),
            std::nullopt);
}

}  // namespace test_sample_issues
}  // namespace nvbw::engine
