// What the peaks say about the measured cells: percent of peak, and outliers (a cell well below
// the cells of its testcase matrix that cross the same kind of link). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/results.h"

namespace nvbw {

// A cell is an outlier when it is more than this fraction below the median of its link class.
inline constexpr double kOutlierFraction = 0.10;

// value / peak x 100 for a present bandwidth cell whose peak is known; nullopt otherwise.
std::optional<double> percentOfPeak(const MatrixResult& m, std::size_t row, std::size_t col);

// The links of the measured cells of `m`, each (name, peak, convention) once, in cell order.
std::vector<CellLink> distinctLinks(const MatrixResult& m);

struct Outlier {
  std::size_t row = 0;
  std::size_t col = 0;
  double belowMedian = 0.0;  // fraction below the class median, 0.234 = 23.4%
  double classMedian = 0.0;  // GB/s
};

// Present bandwidth cells more than kOutlierFraction below the median of the present cells with
// the same link name and peak (at least two of them); cells of unknown links are not compared.
// Latency matrices have none.
std::vector<Outlier> outliers(const MatrixResult& m);

// "NOTE: <key>: <cell> (<link>) is 23.40% below the median of its link class (370.10 GB/s)."
// per outlier, each ending in a newline; "" when there is none.
std::string outlierNotes(const MatrixResult& m);

}  // namespace nvbw
