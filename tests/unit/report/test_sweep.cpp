// --sweep: parsing MIN:MAX[:FACTOR], the sizes, the 90% size, series from the entries of each
// size and the text table.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "report/report_builder.h"
#include "report/sweep.h"

namespace nvbw {
namespace test_sweep {

TEST(ParseSweep, MinMaxAndFactor) {
  const SweepSpec a = parseSweep("1:1024");
  EXPECT_EQ(a.minMiB, 1u);
  EXPECT_EQ(a.maxMiB, 1024u);
  EXPECT_EQ(a.factor, 2u);
  EXPECT_EQ(parseSweep("4:64:4").factor, 4u);
}

TEST(ParseSweep, BadValuesAreUsageErrorsThatSayWhy) {
  for (const char* bad : {"", "1", "1:", ":4", "a:b", "1:2:3:4", "-1:4", "1.5:4", "1:4:x", " 1:4"})
    EXPECT_THROW(parseSweep(bad), UsageError) << bad;
  try {
    parseSweep("8:4");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("below the smallest"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseSweep("0:4"), UsageError);
  EXPECT_THROW(parseSweep("1:4:1"), UsageError);
  EXPECT_THROW(parseSweep("1:99999999999"), UsageError);
}

TEST(ParseSweep, SizesAreBoundedByWhatAGpuCanHold) {
  EXPECT_NO_THROW(parseSweep("1:1048576"));
  EXPECT_THROW(parseSweep("1:1048577"), UsageError);
  EXPECT_THROW(parseSweep("1:1099511627776"), UsageError);
}

TEST(SweepSizes, AHugeFactorNeverWrapsAround) {
  // 2^25 x 549755813888 is 2^64: the multiplication must not be made.
  EXPECT_EQ(sweepSizes({33554432, 1048576 * 1024ull, 549755813888ull}),
            (std::vector<std::uint64_t>{33554432, 1073741824}));
  EXPECT_EQ(sweepSizes({1, 1048576, 2}).size(), 21u);
  EXPECT_EQ(sweepSizes({5, 5, 2}), (std::vector<std::uint64_t>{5}));
}

TEST(SweepSizes, PowersThenTheLargestSize) {
  EXPECT_EQ(sweepSizes({1, 1024, 2}),
            (std::vector<std::uint64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(sweepSizes({3, 100, 2}), (std::vector<std::uint64_t>{3, 6, 12, 24, 48, 96, 100}));
  EXPECT_EQ(sweepSizes({1, 64, 4}), (std::vector<std::uint64_t>{1, 4, 16, 64}));
  EXPECT_EQ(sweepSizes({5, 5, 2}), (std::vector<std::uint64_t>{5}));
}

TEST(SizeReaching, SmallestSizeAtNinetyPercentOfTheLargest) {
  const std::vector<std::uint64_t> sizes = {1, 2, 4, 8};
  EXPECT_EQ(sizeReaching(sizes, {10.0, 50.0, 91.0, 100.0}), 4u);
  EXPECT_EQ(sizeReaching(sizes, {10.0, 90.0, 95.0, 100.0}), 2u);  // exactly 90% counts
  EXPECT_EQ(sizeReaching(sizes, {95.0, 90.0, 99.0, 100.0}), 1u);
  EXPECT_EQ(sizeReaching(sizes, {std::nullopt, 95.0, 99.0, 100.0}), 2u);
  EXPECT_FALSE(sizeReaching(sizes, {10.0, 50.0, 91.0, std::nullopt}));
  EXPECT_FALSE(sizeReaching({}, {}));
}

// A one-row result with `values` in its cells.
TestcaseResult passed(const std::string& key, const std::vector<double>& values,
                      Unit unit = Unit::GBps) {
  MatrixResult m(MatrixSpec{key, "title", unit, 1, values.size(), {}});
  for (std::size_t i = 0; i < values.size(); ++i)
    m.at(0, i) = CellResult({values[i]}, Statistic::Median);
  TestcaseResult r;
  r.name = key;
  r.matrices = {m};
  return r;
}

// A testcase's entries at each size of a sweep, as the run makes them.
struct Sweep {
  Sweep(std::vector<std::uint64_t> sizesMiB, std::vector<TestcaseResult> results)
      : sizes(std::move(sizesMiB)) {
    for (std::size_t k = 0; k < results.size(); ++k) {
      results[k].sweepSizeMiB = sizes[k];
      for (ReportEntry& e : entriesOf(results[k], false, "median")) entries.push_back(std::move(e));
    }
  }
  SweepEntries of() const {
    SweepEntries pointers;
    for (const ReportEntry& e : entries) pointers.push_back(&e);
    return pointers;
  }
  std::vector<SweepSeriesRecord> series() const { return sweepSeries(of(), sizes); }
  std::string text(bool verbose) const { return sweepText(of(), sizes, verbose); }
  std::string notes() const { return sweepNotes(of(), sizes); }
  std::vector<std::uint64_t> sizes;
  std::vector<ReportEntry> entries;
};

TEST(SweepSeries, SumsPerSizeAndTheNinetyPercentSize) {
  TestcaseResult failed;
  failed.name = "h2d";
  failed.status = Status::Error;
  const Sweep sweep({1, 2, 4, 8}, {passed("h2d", {5, 6}), failed, passed("h2d", {46, 47}),
                                   passed("h2d", {50, 50})});
  const std::vector<SweepSeriesRecord> series = sweep.series();
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].sums, (std::vector<std::optional<double>>{11.0, std::nullopt, 93.0, 100.0}));
  EXPECT_EQ(series[0].sizeReaching90, 4u);
  EXPECT_EQ(sweep.text(false), "Sweep of h2d (SUM, GB/s):\n"
                               "  size_MiB         SUM\n"
                               "         1       11.00\n"
                               "         2       ERROR\n"
                               "         4       93.00\n"
                               "         8      100.00\n\n");
  EXPECT_EQ(sweep.notes(),
            "NOTE: h2d: 90% of the bandwidth at 8 MiB (100.00 GB/s) is reached at 4 MiB.\n");
}

TEST(SweepSeries, VerboseAddsACellColumnPerMeasuredCell) {
  const Sweep sweep({1, 2}, {passed("h2d", {5, 6}), passed("h2d", {50, 60})});
  const std::string text = sweep.text(true);
  EXPECT_NE(text.find("  size_MiB         SUM    [0][0]    [0][1]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("         2      110.00     50.00     60.00\n"), std::string::npos) << text;
}

TEST(SweepSeries, LatencyHasNoNinetyPercentSize) {
  const Sweep sweep(
      {1, 2}, {passed("lat", {900}, Unit::Nanoseconds), passed("lat", {800}, Unit::Nanoseconds)});
  EXPECT_FALSE(sweep.series()[0].sizeReaching90);
  EXPECT_EQ(sweep.notes(), "");
}

TEST(SweepSeries, AnInterruptedSweepHasNoNinetyPercentSize) {
  const Sweep sweep({1, 2, 4}, {passed("h2d", {5})});
  const std::vector<SweepSeriesRecord> series = sweep.series();
  EXPECT_EQ(series[0].sums.size(), 3u);
  EXPECT_FALSE(series[0].sizeReaching90);
  EXPECT_NE(sweep.notes().find("no 90% size"), std::string::npos);
}

}  // namespace test_sweep
}  // namespace nvbw
