#include <gtest/gtest.h>

#include <cmath>

#include "nvbandwidth/statistics.h"

namespace nvbw {
namespace {

TEST(Statistics, MedianOfOddCountIsMiddleValue) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({5.0}), 5.0);
  EXPECT_DOUBLE_EQ(median({9.0, 1.0, 7.0, 3.0, 5.0}), 5.0);
}

TEST(Statistics, MedianOfEvenCountIsMeanOfMiddlePair) {
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({10.0, 20.0}), 15.0);
  EXPECT_DOUBLE_EQ(median({1.0, 1.0, 100.0, 100.0}), 50.5);
}

TEST(Statistics, MedianHandlesDuplicates) { EXPECT_DOUBLE_EQ(median({2.0, 2.0, 2.0, 1.0}), 2.0); }

TEST(Statistics, Mean) {
  EXPECT_DOUBLE_EQ(mean({1.0, 2.0, 3.0, 4.0}), 2.5);
  EXPECT_DOUBLE_EQ(mean({-1.0, 1.0}), 0.0);
}

TEST(Statistics, MinimumAndMaximum) {
  EXPECT_DOUBLE_EQ(minimum({3.0, -2.0, 7.5}), -2.0);
  EXPECT_DOUBLE_EQ(maximum({3.0, -2.0, 7.5}), 7.5);
}

TEST(Statistics, SampleStandardDeviationUsesNMinusOne) {
  // Mean 5, squared deviations sum to 32; 32 / 7 under the n-1 rule.
  EXPECT_DOUBLE_EQ(stddev({2, 4, 4, 4, 5, 5, 7, 9}), std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(stddev({1.0, 3.0}), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(stddev({4.0, 4.0, 4.0}), 0.0);
}

TEST(Statistics, EmptyAndSingleInputsGiveZeroNotNaN) {
  const std::vector<double> none;
  EXPECT_EQ(median(none), 0.0);
  EXPECT_EQ(mean(none), 0.0);
  EXPECT_EQ(minimum(none), 0.0);
  EXPECT_EQ(maximum(none), 0.0);
  EXPECT_EQ(stddev(none), 0.0);
  EXPECT_EQ(stddev({42.0}), 0.0);
  EXPECT_EQ(summarize(none, Statistic::Median), 0.0);
  EXPECT_EQ(summarize(none, Statistic::Mean), 0.0);
}

TEST(Statistics, SummarizePicksTheStatistic) {
  const std::vector<double> samples = {1.0, 2.0, 9.0};
  EXPECT_DOUBLE_EQ(summarize(samples, Statistic::Median), 2.0);
  EXPECT_DOUBLE_EQ(summarize(samples, Statistic::Mean), 4.0);
}

TEST(Statistics, BandwidthIsDecimalGigabytesPerSecond) {
  // 512 MiB copied 16 times in 0.15 s.
  const double bytes = 512.0 * 1024 * 1024;
  EXPECT_DOUBLE_EQ(bandwidthGBps(bytes, 16, 0.15), bytes * 16 / 0.15 / 1e9);
  EXPECT_DOUBLE_EQ(bandwidthGBps(1e9, 1, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(bandwidthGBps(1e9, 4, 0.5), 8.0);
}

TEST(Statistics, BandwidthOfZeroOrNegativeDurationIsZero) {
  EXPECT_EQ(bandwidthGBps(1e9, 16, 0.0), 0.0);
  EXPECT_EQ(bandwidthGBps(1e9, 16, -1.0), 0.0);
  EXPECT_EQ(bandwidthGBps(1e9, 16, std::nan("")), 0.0);
}

}  // namespace
}  // namespace nvbw
