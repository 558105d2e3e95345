// Pieces of the text report (pure), from a Report's entries: number formatting, the matrix grid,
// -v's blocks, and the lines of ours that name noisy cells, outliers and cells above their peak.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/format.h"
#include "model/report.h"

namespace nvbw {

// The matrix layout of upstream: a header of column indices, then each row's label (its index,
// or `rowLabels` where given) right-aligned in a column as wide as the widest (at least 2) and its
// cells, `value(row, col)` with two decimals ("N/A" where it has none), right-aligned in width 10.
std::string formatGrid(std::size_t rows, std::size_t cols,
                       const std::optional<std::vector<std::string>>& rowLabels,
                       const std::function<OrNull(std::size_t, std::size_t)>& value);

// A cell's value as the matrices and the sweep tables print it: "55.45", "N/A" where it has none.
std::string fixedOrNA(const OrNull& value);

// -v: "MIN/MAX/AVG <key> <value>" over the present cells, where the entry has them.
std::string verboseSummary(const ReportEntry& e);

// -v: the percent of theoretical peak of every cell laid out like the matrix ("N/A" where the
// peak or the value is unknown), then the peak of each link the matrix crosses; "" for latency
// matrices, matrices without links or without any known peak, and matrices without a present
// cell.
std::string percentOfPeakBlock(const ReportEntry& e);

// -v: one line per present cell with its sample count, min, max, mean, median, stddev and CV,
// under a line naming the statistic reported.
std::string cellStatisticsBlock(const ReportEntry& e);

// -v: the samples of each measurement, "\tSample <k>: <label>: <value> <unit>".
std::string sampleLines(const std::vector<MeasurementRecord>& records);

// "NOTE: ..." naming the cells of `e` whose coefficient of variation exceeds 2%, ending in a
// newline; "" when there is none.
std::string noisyCellsNote(const ReportEntry& e);

// "NOTE: <key>: <cell> (<link>) is 23.40% below the median of its link class (370.10 GB/s)."
// per outlier, each ending in a newline; "" when there is none.
std::string outlierNotes(const ReportEntry& e);

// "WARNING: <key>: <cell> at 301.20% of the theoretical peak of its link (PCIe Gen5 x16, 63.02
// GB/s): the peak is wrong or the measurement is broken." per such cell (a run warning).
std::vector<std::string> abovePeakWarnings(const ReportEntry& e);

}  // namespace nvbw
