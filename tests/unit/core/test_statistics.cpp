#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/statistics.h"

namespace nvbw {
namespace test_statistics {

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

// A bandwidth is never derived from an impossible time: no "Passed 0.00" (issue 8 item 3).
TEST(Statistics, BandwidthOfAnImpossibleDurationIsATimingError) {
  for (double seconds : {0.0, -1.0, -0.0, std::nan(""), std::numeric_limits<double>::infinity()})
    EXPECT_THROW(bandwidthGBps(1e9, 16, seconds), TimingError) << seconds;
}

TEST(Statistics, CheckedSecondsRejectsImpossibleEventTimesNamingWhatWasTimed) {
  EXPECT_DOUBLE_EQ(checkedSeconds(2.5, "x"), 0.0025);
  for (double ms : {0.0, -3.0, std::nan(""), -std::numeric_limits<double>::infinity()}) {
    try {
      checkedSeconds(ms, "a measured copy");
      ADD_FAILURE() << ms;
    } catch (const TimingError& e) {
      EXPECT_NE(std::string(e.what()).find("a measured copy"), std::string::npos) << e.what();
    }
  }
}

TEST(Statistics, DescribeSamples) {
  const SampleStatistics s = describeSamples({10.0, 12.0, 11.0, 13.0});
  EXPECT_EQ(s.count, 4u);
  EXPECT_EQ(s.min, 10.0);
  EXPECT_EQ(s.max, 13.0);
  EXPECT_EQ(s.mean, 11.5);
  EXPECT_EQ(s.median, 11.5);
  EXPECT_NEAR(s.stddev, 1.2909944487, 1e-9);
  ASSERT_TRUE(s.cv.has_value());
  EXPECT_NEAR(*s.cv, 1.2909944487 / 11.5, 1e-10);
}

TEST(Statistics, CoefficientOfVariationIsAbsentWithoutSamplesOrWithAZeroMean) {
  EXPECT_FALSE(describeSamples({}).cv.has_value());
  EXPECT_FALSE(describeSamples({0.0, 0.0}).cv.has_value());
  EXPECT_EQ(describeSamples({5.0}).cv, std::optional<double>(0.0));
}

TEST(Statistics, Names) {
  EXPECT_STREQ(statisticName(Statistic::Median), "median");
  EXPECT_STREQ(statisticName(Statistic::Mean), "mean");
}

}  // namespace test_statistics
}  // namespace nvbw
