// The healthy band and the unstable limit (fleet/comparison/healthy_band.h): the spread formula,
// the prior per testcase and family, its pooling with several baseline reports, and what a cell
// is judged against.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleet/comparison/healthy_band.h"
#include "plans/registry.h"

namespace nvbw {
namespace test_healthy_band {

TEST(HealthyBand, SpreadIsTheToolsNoiseFormula) {
  // max(2 x stddev, max - min) / median: 2 x 0.1 against a range of 0.2 around 100.
  EXPECT_NEAR(spreadPercent({100.0, 100.1, 99.9}), 0.2, 1e-9);
  EXPECT_NEAR(spreadPercent({90.0, 100.0, 110.0}), 20.0, 1e-9);  // 2 x stddev 10 = range 20
  EXPECT_EQ(spreadPercent({100.0}), 0.0);
  EXPECT_EQ(spreadPercent({}), 0.0);
  EXPECT_EQ(spreadPercent({0.0, 0.0}), 0.0);
}

TEST(HealthyBand, PooledSpreadWeighsThePriorAsThreeDegreesOfFreedom) {
  EXPECT_DOUBLE_EQ(pooledSpread(10.0, 0.0, 1), 10.0);  // one report: the prior alone
  EXPECT_NEAR(pooledSpread(10.0, 0.0, 2), std::sqrt(300.0 / 4.0), 1e-9);
  EXPECT_NEAR(pooledSpread(10.0, 2.0, 21), std::sqrt((300.0 + 20 * 4.0) / 23.0), 1e-9);
  // Never below what the reports show.
  EXPECT_DOUBLE_EQ(pooledSpread(1.0, 5.0, 3), 5.0);
  // Many close reports bring it down to theirs.
  EXPECT_LT(pooledSpread(11.44, 0.5, 200), 1.5);
}

TEST(HealthyBand, ThePriorIsTheTestcasesRowElseItsFamilysElseTheLargest) {
  const PriorRow& hostBidirectional = spreadPrior("host_to_device_bidirectional_memcpy_ce");
  EXPECT_DOUBLE_EQ(hostBidirectional.runToRunPercent, 11.44);
  EXPECT_DOUBLE_EQ(hostBidirectional.withinRunPercent, 11.72);
  EXPECT_STREQ(testcaseFamily("multinode_device_to_device_memcpy_read_ce"), "device-to-device");
  EXPECT_STREQ(testcaseFamily("device_to_device_latency_tma"), "device-to-device latency");
  EXPECT_STREQ(testcaseFamily("host_device_latency_sm"), "host latency");
  EXPECT_STREQ(testcaseFamily("device_local_copy_sm"), "device local");
  EXPECT_STREQ(testcaseFamily("all_to_host_bidirectional_memcpy_sm"), "host bidirectional");
  EXPECT_STREQ(testcaseFamily("one_to_all_read_ce"), "device-to-device");
  EXPECT_STREQ(testcaseFamily("a_testcase_of_a_later_version"), "other");
  // A testcase the references do not have takes its family's largest.
  double largestLocal = 0.0;
  for (const PriorRow& row : testcasePriors())
    if (std::string(testcaseFamily(row.name)) == "device local")
      largestLocal = std::max(largestLocal, row.runToRunPercent);
  EXPECT_DOUBLE_EQ(spreadPrior("device_local_copy_sm").runToRunPercent, largestLocal);
  double largest = 0.0;
  for (const PriorRow& row : testcasePriors()) largest = std::max(largest, row.runToRunPercent);
  EXPECT_DOUBLE_EQ(spreadPrior("a_testcase_of_a_later_version").runToRunPercent, largest);
}

// Every testcase this tool can run has a prior of its own family, never "other".
TEST(HealthyBand, EveryRegisteredTestcaseHasAFamily) {
  for (const TestcaseDef& t : makeRegistry(RegistryScope::WithMultinode))
    EXPECT_STRNE(testcaseFamily(t.key), "other") << t.key;
}

TEST(HealthyBand, OneSteadyBaselineReportGetsTheToleranceAndTheFloor) {
  const ComparedCellRecord b =
      healthyBand({{393.9}, {0.05}}, spreadPrior("device_to_device_memcpy_read_ce"), 5.0);
  EXPECT_DOUBLE_EQ(*b.baseline, 393.9);
  EXPECT_EQ(*b.baselineReports, 1u);
  EXPECT_DOUBLE_EQ(*b.bandPercent, 5.0);
  EXPECT_EQ(*b.basis, "tolerance");
  // 3 x its within-run spread is far below the floor: 0.05% against 0.2% is not unstable.
  EXPECT_DOUBLE_EQ(*b.unstableLimitPercent, kUnstableFloorPercent);
}

TEST(HealthyBand, OneBaselineOfACellThatMovesBetweenRunsGetsItsPrior) {
  const ComparedCellRecord b =
      healthyBand({{45.0}, {4.1}}, spreadPrior("host_to_device_bidirectional_memcpy_ce"), 5.0);
  EXPECT_DOUBLE_EQ(*b.runToRunPercent, 11.44);
  EXPECT_DOUBLE_EQ(*b.healthySpreadPercent, 11.44);
  EXPECT_NEAR(*b.bandPercent, kBandFactor * 11.44, 1e-9);
  EXPECT_EQ(*b.basis, "run-to-run");
  EXPECT_NEAR(*b.unstableLimitPercent, kUnstableFactor * 11.72, 1e-9);
}

TEST(HealthyBand, BaselineSamplesThatSpreadMoreWidenTheBand) {
  const ComparedCellRecord b =
      healthyBand({{100.0}, {15.0}}, spreadPrior("host_to_device_memcpy_ce"), 5.0);
  EXPECT_DOUBLE_EQ(*b.healthySpreadPercent, 15.0);
  EXPECT_DOUBLE_EQ(*b.bandPercent, 22.5);
  EXPECT_EQ(*b.basis, "samples");
  EXPECT_DOUBLE_EQ(*b.unstableLimitPercent, 45.0);
}

TEST(HealthyBand, SeveralReportsGiveTheirMedianAndTheirSpreadPooledWithThePrior) {
  const PriorRow& prior = spreadPrior("host_to_device_bidirectional_memcpy_ce");
  // Three close reports of a cell that moves 11% between runs say little: mostly the prior.
  const ComparedCellRecord few = healthyBand({{46.0, 46.2, 45.9}, {}}, prior, 5.0);
  EXPECT_DOUBLE_EQ(*few.baseline, 46.0);
  EXPECT_EQ(*few.baselineReports, 3u);
  const double observed = spreadPercent({46.0, 46.2, 45.9});
  EXPECT_NEAR(*few.runToRunPercent, std::sqrt((3 * 11.44 * 11.44 + 2 * observed * observed) / 5.0),
              1e-9);
  EXPECT_GT(*few.bandPercent, 12.0);
  // Forty steady reports of this node: their own spread rules, and the band is the tolerance.
  std::vector<double> values;
  for (int i = 0; i < 40; ++i) values.push_back(46.0 + 0.05 * (i % 3));
  const ComparedCellRecord many = healthyBand({values, {}}, prior, 5.0);
  EXPECT_LT(*many.runToRunPercent, 3.2);
  EXPECT_DOUBLE_EQ(*many.bandPercent, 5.0);
  // Reports that spread widely widen it beyond the prior.
  const ComparedCellRecord wide = healthyBand({{40.0, 46.0, 52.0}, {}}, prior, 5.0);
  EXPECT_NEAR(*wide.runToRunPercent, spreadPercent({40.0, 46.0, 52.0}), 1e-9);
}

TEST(HealthyBand, TheToleranceBoundsTheBandAndTheUnstableLimitFromBelow) {
  const ComparedCellRecord b =
      healthyBand({{100.0}, {0.1}}, spreadPrior("device_local_copy"), 20.0);
  EXPECT_DOUBLE_EQ(*b.bandPercent, 20.0);
  EXPECT_DOUBLE_EQ(*b.unstableLimitPercent, 20.0);
}

}  // namespace test_healthy_band
}  // namespace nvbw
