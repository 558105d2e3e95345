// Pieces of the text report (pure): number formatting, the matrix block, and the lines that
// name noisy cells and show per-cell statistics.
#pragma once

#include <string>

#include "core/format.h"
#include "engine/results.h"

namespace nvbw {

// The matrix as upstream lays it out: width-2 row labels, width-10 cells, "N/A".
std::string formatMatrix(const MatrixResult& m);

// -v: the percent of theoretical peak of every cell laid out like the matrix ("N/A" where the
// peak or the value is unknown), then the peak of each link the matrix crosses; "" for latency
// matrices, matrices without links or without any known peak, and matrices without a present
// cell.
std::string percentOfPeakBlock(const MatrixResult& m);

// "NOTE: ..." naming the cells of `m` whose coefficient of variation exceeds 2%, ending in a
// newline; "" when there is none.
std::string noisyCellsNote(const MatrixResult& m);

// -v: one line per present cell with its sample count, min, max, mean, median, stddev and CV,
// under a line naming the statistic reported.
std::string cellStatisticsBlock(const MatrixResult& m, Statistic stat);

}  // namespace nvbw
