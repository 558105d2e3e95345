// What the peaks say about the measured cells: percent of peak, the links' peaks and outliers (a
// cell well below the cells of its testcase matrix that cross the same kind of link), as a run's
// entries hold them (report_entries.h; text_format.h words them). Pure.
#pragma once

#include <optional>
#include <vector>

#include "engine/results.h"
#include "model/report.h"

namespace nvbw {

// A cell is an outlier when it is more than this fraction below the median of its link class.
inline constexpr double kOutlierFraction = 0.10;

// value / peak x 100 for a present bandwidth cell whose peak is known; nullopt otherwise.
std::optional<double> percentOfPeak(const MatrixResult& m, std::size_t row, std::size_t col);

// A link's peak as the report gives it: none for a latency matrix.
std::optional<double> peakOf(const MatrixResult& m, const CellLink& c);

// The links of the measured cells of `m`, each (name, peak, convention) once, in cell order.
std::vector<LinkPeakRecord> linkPeaks(const MatrixResult& m);

// Present bandwidth cells more than kOutlierFraction below the median of the present cells with
// the same link name and peak (at least two of them), in cell order; cells of unknown links are
// not compared. Latency matrices have none.
std::vector<OutlierRecord> outliers(const MatrixResult& m);

}  // namespace nvbw
