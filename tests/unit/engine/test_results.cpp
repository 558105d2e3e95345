#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "engine/results.h"

namespace nvbw {
namespace test_results {

MatrixResult squareWithEmptyDiagonal() {
  MatrixResult m({"device_to_device_memcpy_read_ce", "title", Unit::GBps, 3, 3});
  double value = 10.0;
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 3; ++c)
      if (r != c) {
        m.at(r, c) = CellResult({value}, Statistic::Median);
        value += 10.0;
      }
  return m;  // off-diagonal values 10, 20, ..., 60
}

TEST(MatrixResult, StartsWithEveryCellEmpty) {
  const MatrixResult m({"k", "t", Unit::GBps, 2, 3});
  EXPECT_EQ(m.cells.size(), 6u);
  for (const auto& cell : m.cells) EXPECT_FALSE(cell.has_value());
  EXPECT_EQ(m.sum(), 0.0);
  EXPECT_FALSE(m.min());
  EXPECT_FALSE(m.max());
  EXPECT_FALSE(m.average());
}

TEST(MatrixResult, AtIsRowMajor) {
  MatrixResult m({"k", "t", Unit::GBps, 2, 3});
  m.at(1, 2) = CellResult({7.0}, Statistic::Median);
  m.at(0, 1) = CellResult({3.0}, Statistic::Median);
  ASSERT_TRUE(m.cells[5].has_value());
  EXPECT_EQ(m.cells[5]->value(), 7.0);
  ASSERT_TRUE(m.cells[1].has_value());
  EXPECT_EQ(m.cells[1]->value(), 3.0);
  const MatrixResult& view = m;
  EXPECT_EQ(view.at(1, 2)->value(), 7.0);
}

TEST(MatrixResult, AtRejectsCoordinatesOutsideTheMatrix) {
  MatrixResult m({"k", "t", Unit::GBps, 2, 3});
  EXPECT_THROW(m.at(2, 0), std::out_of_range);
  EXPECT_THROW(m.at(0, 3), std::out_of_range);  // would alias (1, 0) if unchecked
}

TEST(MatrixResult, StatisticsSkipAbsentCells) {
  const MatrixResult m = squareWithEmptyDiagonal();
  EXPECT_DOUBLE_EQ(m.sum(), 210.0);
  EXPECT_DOUBLE_EQ(*m.min(), 10.0);  // upstream printed 0.00 here: N/A counted as 0
  EXPECT_DOUBLE_EQ(*m.max(), 60.0);
  EXPECT_DOUBLE_EQ(*m.average(), 35.0);
}

TEST(MatrixResult, PresentZeroCellsCount) {
  MatrixResult m({"k", "t", Unit::GBps, 1, 3});
  m.at(0, 0) = CellResult({0.0}, Statistic::Median);
  m.at(0, 2) = CellResult({6.0}, Statistic::Median);
  EXPECT_DOUBLE_EQ(*m.min(), 0.0);
  EXPECT_DOUBLE_EQ(*m.average(), 3.0);
}

TEST(CellResult, ValueIsExactlyTheStatisticOfItsSamples) {
  const CellResult median({3.0, 1.0, 2.0, 10.0}, Statistic::Median);
  EXPECT_EQ(median.samples(), (std::vector<double>{3.0, 1.0, 2.0, 10.0}));  // in sample order
  EXPECT_DOUBLE_EQ(median.value(), 2.5);
  const CellResult mean({3.0, 1.0, 2.0, 10.0}, Statistic::Mean);
  EXPECT_DOUBLE_EQ(mean.value(), 4.0);
}

TEST(MatrixResult, KeepsSamples) {
  MatrixResult m({"k", "t", Unit::Nanoseconds, 1, 1});
  m.at(0, 0) = CellResult({1.0, 2.0, 3.0}, Statistic::Median);
  EXPECT_EQ(m.at(0, 0)->samples().size(), 3u);
  EXPECT_EQ(m.spec.unit, Unit::Nanoseconds);
}

TEST(Status, Names) {
  EXPECT_STREQ(statusName(Status::Passed), "Passed");
  EXPECT_STREQ(statusName(Status::Waived), "Waived");
  EXPECT_STREQ(statusName(Status::Error), "ERROR");
}

}  // namespace test_results
}  // namespace nvbw
