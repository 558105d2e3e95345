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

// The coefficient of variation of the matrix's SUM over the samples (ours: v0.10 prints such a
// value, but what it is of is not known): sample k's SUM adds sample k of every present cell (up
// to the fewest samples a cell has), and the value is stddev / mean of those sums, as a fraction;
// 0 where there are fewer than two sums or their mean is zero.
double sumCoefficientOfVariation(const MatrixResult& m);

// v0.10's "COEFFICIENT_OF_VARIATION <key> <value>\n" for matrix `m` of testcase `key`: the value
// is sumCoefficientOfVariation(m) with two decimals.
std::string coefficientOfVariationLine(const std::string& key, const MatrixResult& m);

// -v: one line per present cell with its sample count, min, max, mean, median, stddev and CV,
// under a line naming the statistic reported.
std::string cellStatisticsBlock(const MatrixResult& m, Statistic stat);

}  // namespace nvbw
