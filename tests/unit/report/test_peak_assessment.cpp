// Percent of peak, outliers within a link class, and the outlier NOTE lines and the -v percent
// matrix of the entries made of them, on hand-made results.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "report/report_builder.h"
#include "report/text_format.h"

namespace nvbw {
namespace test_peak_assessment {

CellLink link(const std::string& name, std::optional<double> peak, const std::string& cell) {
  return {{name, peak}, cell, "per direction"};
}

// A 1 x N bandwidth matrix of single-sample cells; NaN = N/A.
MatrixResult row(const std::vector<double>& values, const std::vector<CellLink>& links,
                 Unit unit = Unit::GBps) {
  MatrixResult m(MatrixSpec{"host_to_device_memcpy_ce", "title", unit, 1, values.size(), {}});
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] == values[i]) m.at(0, i) = CellResult({values[i]}, Statistic::Median);
  m.links = links;
  return m;
}

// The matrix as the run's Report holds it (a testcase the registry does not know: the matrix's
// unit).
ReportEntry entryOf(const MatrixResult& m) {
  TestcaseResult r;
  r.name = "t";
  r.matrices = {m};
  return entriesOf(r, false, "median").at(0);
}

std::vector<CellLink> pcie(std::size_t n) {
  std::vector<CellLink> links;
  for (std::size_t i = 0; i < n; ++i)
    links.push_back(link("PCIe Gen5 x16", 63.0, "Host -> GPU " + std::to_string(i)));
  return links;
}

TEST(PercentOfPeak, ValueOverPeak) {
  const MatrixResult m = row({55.44, 31.5}, pcie(2));
  EXPECT_NEAR(*percentOfPeak(m, 0, 0), 88.0, 1e-9);
  EXPECT_NEAR(*percentOfPeak(m, 0, 1), 50.0, 1e-9);
}

TEST(PercentOfPeak, NoneForNaUnknownPeaksLatencyOrNoLinks) {
  const double na = std::nan("");
  EXPECT_FALSE(percentOfPeak(row({na, 1.0}, pcie(2)), 0, 0));
  EXPECT_FALSE(percentOfPeak(row({1.0}, {link("unknown", std::nullopt, "x")}), 0, 0));
  EXPECT_FALSE(percentOfPeak(row({1.0}, pcie(1), Unit::Nanoseconds), 0, 0));
  EXPECT_FALSE(percentOfPeak(row({1.0}, {}), 0, 0));
}

TEST(Outliers, ACellTenPercentBelowItsClassMedianIsFlagged) {
  // Eight GPUs, one slot slow: 44 vs 55 elsewhere (median 55): 20% below.
  std::vector<double> v(8, 55.0);
  v[5] = 44.0;
  const MatrixResult m = row(v, pcie(8));
  const std::vector<OutlierRecord> o = outliers(m);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].col, 5u);
  EXPECT_NEAR(*o[0].belowMedianPercent, 20.0, 1e-10);
  EXPECT_DOUBLE_EQ(*o[0].classMedian, 55.0);
  EXPECT_EQ(outlierNotes(entryOf(m)),
            "NOTE: host_to_device_memcpy_ce: Host -> GPU 5 (PCIe Gen5 x16) is 20.00% below the "
            "median of its link class (55.00 GB/s).\n");
}

TEST(Outliers, NineteenPercentBelowIsNotFlaggedAtTheBoundary) {
  std::vector<double> v(4, 100.0);
  v[0] = 90.0;  // exactly 10% below: not more than 10%
  EXPECT_TRUE(outliers(row(v, pcie(4))).empty());
  v[0] = 89.9;
  EXPECT_EQ(outliers(row(v, pcie(4))).size(), 1u);
}

TEST(Outliers, OnlyCellsOfTheSameLinkClassAreCompared) {
  // A PCIe cell is not an outlier of NVLink cells, and a lone class has no median to miss.
  std::vector<CellLink> links = pcie(3);
  links[2] = link("NVLink 4 x18", 478.0, "GPU 0 -> GPU 1");
  EXPECT_TRUE(outliers(row({55.0, 54.0, 390.0}, links)).empty());
  // Same name, different peak (trained differently): different classes.
  links[2] = link("PCIe Gen5 x16", 31.5, "Host -> GPU 2");
  EXPECT_TRUE(outliers(row({55.0, 54.0, 27.0}, links)).empty());
}

TEST(Outliers, NaCellsAndLatencyAreIgnored) {
  const double na = std::nan("");
  EXPECT_TRUE(outliers(row({55.0, na, 55.0}, pcie(3))).empty());
  EXPECT_TRUE(outliers(row({100.0, 500.0, 100.0}, pcie(3), Unit::Nanoseconds)).empty());
}

TEST(Outliers, CellsOfUnknownLinksAreNotCompared) {
  std::vector<CellLink> links(3, link("unknown", std::nullopt, "GPU"));
  EXPECT_TRUE(outliers(row({100.0, 100.0, 50.0}, links)).empty());
  // A known link with an unknown rate still forms a class.
  links.assign(3, link("C2C", std::nullopt, "Host -> GPU"));
  EXPECT_EQ(outliers(row({100.0, 100.0, 50.0}, links)).size(), 1u);
}

TEST(NoisyCellsNote, NamesTheCellsWhoseCoefficientOfVariationIsAboveTwoPercent) {
  MatrixResult m({"k", "t", Unit::GBps, 2, 2});
  m.at(0, 1) = CellResult({100.0, 100.0, 100.0}, Statistic::Median);  // CV 0
  m.at(1, 0) = CellResult({97.0, 100.0, 103.0}, Statistic::Median);   // CV 3%
  m.at(1, 1) = CellResult({98.0, 100.0, 102.0}, Statistic::Median);   // CV exactly 2%: not above
  EXPECT_EQ(
      noisyCellsNote(entryOf(m)),
      "NOTE: k: samples vary by more than 2.00% (coefficient of variation) in [1][0] 3.00%\n");
}

TEST(PercentOfPeakBlock, MatrixLayoutThenThePeaks) {
  const double na = std::nan("");
  const MatrixResult m = row({55.44, na}, pcie(2));
  EXPECT_EQ(percentOfPeakBlock(entryOf(m)),
            "Percent of theoretical peak of host_to_device_memcpy_ce:\n"
            "           0         1\n"
            " 0     88.00       N/A\n"
            "Peak of PCIe Gen5 x16: 63.00 GB/s (per direction)\n");
}

TEST(PercentOfPeakBlock, NothingForLatencyOrWithoutLinks) {
  EXPECT_EQ(percentOfPeakBlock(entryOf(row({1.0}, pcie(1), Unit::Nanoseconds))), "");
  EXPECT_EQ(percentOfPeakBlock(entryOf(row({1.0}, {}))), "");
  EXPECT_EQ(
      percentOfPeakBlock(entryOf(row({1.0}, {link("unknown", std::nullopt, "GPU 0 -> GPU 1")}))),
      "");
}

}  // namespace test_peak_assessment
}  // namespace nvbw
