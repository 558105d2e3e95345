// Pieces of the text report (pure): number formatting, the matrix block, and the lines that
// name noisy cells and show per-cell statistics.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/format.h"
#include "engine/results.h"

namespace nvbw {

// The matrix layout of upstream: a header of column indices, then each row's label (its index,
// or `rowLabels`) right-aligned in a column as wide as the widest (at least 2) and its cells,
// `cellText(row, col)`, right-aligned in width 10.
std::string formatGrid(std::size_t rows, std::size_t cols,
                       const std::vector<std::string>& rowLabels,
                       const std::function<std::string(std::size_t, std::size_t)>& cellText);

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
