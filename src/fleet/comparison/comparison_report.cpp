#include "fleet/comparison/comparison_report.h"

#include <algorithm>

namespace nvbw::comparison {

std::string cellSuffix(std::size_t row, std::size_t col) {
  return "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

namespace {

// The spread of a cell's samples; nullopt with fewer than 2 samples, where it says nothing about
// noise, or a median of 0, against which no spread is relative.
std::optional<double> cellSpread(const CellStatistics* cell) {
  if (!cell || cell->samples.size() < 2 || cell->median <= 0.0) return std::nullopt;
  const double spread = std::max(2.0 * cell->stddev, cell->max - cell->min);
  return 100.0 * spread / cell->median;
}

Matrix matrixOf(const MatrixView& m) {
  Matrix out{m.key(), unitName(m.unit()), {}, {}, m.part().testcase, {}};
  if (m.part().wholeEntry) out.bufferSizeMiB = m.entry().bufferSizeMiB;
  const bool withSpread = m.entry().cells.has_value();
  for (std::size_t r = 0; r < m.rows(); ++r) {
    auto& values = out.values.emplace_back();
    for (std::size_t c = 0; c < m.cols(); ++c) values.push_back(m.value(r, c));
    if (!withSpread) continue;
    auto& spread = out.spread.emplace_back();
    for (std::size_t c = 0; c < m.cols(); ++c) spread.push_back(cellSpread(m.statistics(r, c)));
  }
  return out;
}

}  // namespace

std::vector<Matrix> matricesOf(const ReportEntry& entry) {
  std::vector<Matrix> out;
  if (entry.passedWithMatrix())
    for (const MatrixPart& part : entry.parts) out.push_back(matrixOf({entry, part}));
  return out;
}

Side sideOf(const Report& report, const std::string& side) {
  Side out;
  out.upstream = report.upstream();
  if (report.settings) out.settings = membersOf(*report.settings);
  if (report.gpuDeviceList) out.gpus = report.gpuDeviceList->size();
  out.machine = machineShapeOf(report);
  if (report.error) out.runNotes.push_back(side + ": the run reported an error: " + *report.error);
  if (report.interrupted)
    out.runNotes.push_back(side + ": the run was interrupted by " + *report.interrupted);
  if (!report.testcases) return out;
  for (const ReportEntry& entry : *report.testcases) {
    if (!entry.passedWithMatrix()) {
      out.statuses.push_back({entry.name, statusName(entry.status)});
      continue;
    }
    for (Matrix& m : matricesOf(entry)) out.matrices.push_back(std::move(m));
  }
  return out;
}

}  // namespace nvbw::comparison
