// What the peaks say about the measured cells: percent of peak, outliers (a cell well below the
// cells of its testcase matrix that cross the same kind of link) and cells above their peak, as a
// run's entries hold them (report_entries.h; text_format.h words them). Pure.
#pragma once

#include <optional>
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

// A cell above 100% of its link's theoretical peak: physically impossible, so the peak is wrong
// (a link the tool took for another) or the measurement is broken (a timer, a copy that did not
// move what it claims).
struct AbovePeak {
  std::size_t row = 0;
  std::size_t col = 0;
  double percent = 0.0;  // of the peak, above 100
};

// The present bandwidth cells of `m` above 100% of their known peak, in cell order.
std::vector<AbovePeak> abovePeak(const MatrixResult& m);

}  // namespace nvbw
