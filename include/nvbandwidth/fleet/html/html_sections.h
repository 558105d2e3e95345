// The parts of the HTML report (internal to it), each rendered from its piece of the Report
// alone. They return markup; every string taken from the report is escaped in them.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <tuple>

#include "core/stop_request.h"
#include "model/report.h"

namespace nvbw::html {

// What the heatmaps mark besides values: a cell's comparison record and its BELOW record of the
// expectations (`expectations[].below[]`), by (matrix key, row, column), pointing into the Report.
struct CellMark {
  const ComparedCellRecord* verdict = nullptr;
  const BelowCellRecord* below = nullptr;
};
using CellMarks = std::map<std::tuple<std::string, std::size_t, std::size_t>, CellMark>;

// The marks of `report`; empty where it has no comparison or expectations. They ask `stop` as
// they go (Interrupted).
CellMarks cellMarks(const Report& report, const StopRequest& stop);

// The "expectations" section: per check its summary line and its BELOW and unmet lines; "" when
// `report` has none.
std::string expectationsSection(const Report& report);

// The "comparison" section: summary, notes, cells that are not SAME, one-sided lists.
std::string comparisonSection(const ComparisonSection& comparison, const StopRequest& stop);

// The "sweep" section: one line chart of SUM over buffer size per series.
std::string sweepSection(const SweepSection& sweep);

// The host and per-GPU snapshot ("environment", "environment_at_end"); "" when absent.
std::string environmentSection(const Report& report);

// A passed matrix entry's heatmap with its caption, legend, SUM and outlier note. `index` makes
// the SVG ids (hatch patterns) unique in the page.
std::string matrixFigure(const ReportEntry& entry, const CellMarks& marks, std::size_t index,
                         const StopRequest& stop);

}  // namespace nvbw::html
