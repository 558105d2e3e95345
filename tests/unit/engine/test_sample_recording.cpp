// From per-sample timings to cells and -v records: every cell reports exactly the statistic of
// the samples stored for it.
#include <gtest/gtest.h>

#include "engine/sample_recording.h"

namespace nvbw {
namespace test_sample_recording {

Measurement twoCopies(std::vector<OutputTarget> outputs) {
  Measurement m;
  m.copies = {makeCopy(BufferSpec::onDevice(1, 8), BufferSpec::onDevice(0, 8),
                       CopyMethod::CopyEngine, ContextPreference::PreferDst),
              makeCopy(BufferSpec::onDevice(0, 8), BufferSpec::onDevice(1, 8),
                       CopyMethod::CopyEngine, ContextPreference::PreferDst)};
  m.outputs = std::move(outputs);
  return m;
}

std::vector<MatrixResult> threeMatrices() {
  return {MatrixResult({"_1", "t", Unit::GBps, 2, 2}), MatrixResult({"_2", "t", Unit::GBps, 2, 2}),
          MatrixResult({"_total", "t", Unit::GBps, 2, 2})};
}

TEST(MeasurementRecord, CopyAndSumOfCopiesCells) {
  const Measurement m = twoCopies({{0, 0, 1, ValueSource::Copy, 0},
                                   {1, 0, 1, ValueSource::Copy, 1},
                                   {2, 0, 1, ValueSource::SumOfCopies, 0}});
  MeasurementSamples s;
  s.copies = {{10.0, 30.0, 20.0}, {1.0, 2.0, 9.0}};
  auto matrices = threeMatrices();
  const MeasurementRecord r = recordMeasurement(m, s, Statistic::Median, matrices);
  EXPECT_EQ(matrices[0].at(0, 1)->value(), 20.0);
  EXPECT_EQ(matrices[1].at(0, 1)->value(), 2.0);
  // Per-sample sums 11, 32, 29: their median is 29, where upstream's sum of medians gives 22.
  EXPECT_EQ(matrices[2].at(0, 1)->samples(), (std::vector<double>{11.0, 32.0, 29.0}));
  EXPECT_EQ(matrices[2].at(0, 1)->value(), 29.0);
  EXPECT_FALSE(matrices[0].at(1, 0).has_value());
  ASSERT_EQ(r.series.size(), 2u);
  EXPECT_EQ(r.series[0].label, "Device 1 -> Device 0");
  EXPECT_EQ(r.series[1].label, "Device 0 -> Device 1");
  EXPECT_EQ(r.series[1].samples, s.copies[1]);
}

TEST(MeasurementRecord, MeanIsTheMeanOfTheStoredSamples) {
  const Measurement m = twoCopies({{2, 1, 0, ValueSource::SumOfCopies, 0}});
  MeasurementSamples s;
  s.copies = {{10.0, 30.0, 20.0}, {1.0, 2.0, 9.0}};
  auto matrices = threeMatrices();
  recordMeasurement(m, s, Statistic::Mean, matrices);
  EXPECT_DOUBLE_EQ(matrices[2].at(1, 0)->value(), 24.0);  // equals the sum of the means
}

TEST(MeasurementRecord, OnlyReportedCopiesGetSampleLines) {
  const Measurement m = twoCopies({{0, 1, 1, ValueSource::Copy, 0}});
  MeasurementSamples s;
  s.copies = {{5.0}, {6.0}};
  auto matrices = threeMatrices();
  const MeasurementRecord r = recordMeasurement(m, s, Statistic::Median, matrices);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].label, "Device 1 -> Device 0");
}

TEST(MeasurementRecord, TotalReportsTheAggregateAndEveryCopy) {
  const Measurement m = twoCopies({{0, 0, 0, ValueSource::Total, 0}});
  MeasurementSamples s;
  s.copies = {{5.0, 5.0}, {6.0, 6.0}};
  s.total = {10.5, 11.5};
  auto matrices = threeMatrices();
  const MeasurementRecord r = recordMeasurement(m, s, Statistic::Median, matrices);
  EXPECT_EQ(matrices[0].at(0, 0)->value(), 11.0);
  ASSERT_EQ(r.series.size(), 3u);
  EXPECT_EQ(r.series[2].label, "Total Bandwidth ");
  EXPECT_EQ(r.series[2].samples, s.total);
}

TEST(MeasurementRecord, LatencyIsOneSeriesInNanoseconds) {
  Measurement m;
  m.latency = LatencySpec{BufferSpec::host(0, 2 << 20), 0};
  m.outputs = {{0, 0, 0, ValueSource::Copy, 0}};
  MeasurementSamples s;
  s.copies = {{1200.0, 1190.0, 1210.0}};
  std::vector<MatrixResult> matrices{MatrixResult({"", "t", Unit::Nanoseconds, 1, 1})};
  const MeasurementRecord r = recordMeasurement(m, s, Statistic::Median, matrices);
  EXPECT_EQ(matrices[0].at(0, 0)->value(), 1200.0);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].label, "Device 0 reading Host");
  EXPECT_EQ(r.series[0].unit, Unit::Nanoseconds);
}

TEST(MeasurementRecord, CopiesWithDifferentSampleCountsAreABug) {
  const Measurement m = twoCopies({{2, 0, 1, ValueSource::SumOfCopies, 0}});
  MeasurementSamples s;
  s.copies = {{1.0, 2.0}, {1.0}};
  auto matrices = threeMatrices();
  EXPECT_THROW(recordMeasurement(m, s, Statistic::Median, matrices), std::logic_error);
}

}  // namespace test_sample_recording
}  // namespace nvbw
