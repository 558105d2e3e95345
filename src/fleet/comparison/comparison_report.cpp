#include "fleet/comparison/comparison_report.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nvbw::comparison {

std::optional<double> cellSpread(const MatrixView& m, std::size_t row, std::size_t col) {
  const CellStatistics* cell = m.statistics(row, col);
  if (!cell || cell->samples.size() < 2 || cell->median <= 0.0) return std::nullopt;
  const double spread = std::max(2.0 * cell->stddev, cell->max - cell->min);
  return 100.0 * spread / cell->median;
}

std::optional<std::uint64_t> sweepSizeOf(const MatrixView& m) {
  return m.part().wholeEntry ? m.entry().bufferSizeMiB : std::nullopt;
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
  if (report.testcases)
    for (const ReportEntry& entry : *report.testcases)
      if (!entry.passedWithMatrix()) out.statuses.push_back({entry.name, statusName(entry.status)});
  return out;
}

double changePercent(double baseline, double current) {
  if (baseline != 0.0) return (current - baseline) / baseline * 100.0;
  if (current == 0.0) return 0.0;
  return std::copysign(std::numeric_limits<double>::infinity(), current);
}

bool slowerBeyondBand(double change, double band, const std::string& unit) {
  return std::fabs(change) > band && (change > 0.0) == (unit == "ns");
}

bool aboveUnstableLimit(const std::optional<double>& spread, double limit) {
  return spread && *spread > limit;
}

}  // namespace nvbw::comparison
