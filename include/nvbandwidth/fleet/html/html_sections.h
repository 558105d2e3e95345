// The parts of the HTML report (internal to it), each rendered from its piece of the Report
// alone. They return markup; every string taken from the report is escaped in them.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

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

// The "expectations" section: per check the lines of its text view (expectationLines); "" when
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

// ---- the heatmap of one matrix entry (html_heatmap.cpp); the cells gathered from the entry's
// parallel grids (upstream's stacked entries drawn whole, as their document holds them) ----

// What one cell shows.
struct HeatmapCell {
  std::size_t row = 0, col = 0;
  std::optional<double> value;             // nullopt: N/A
  std::optional<double> percent;           // of the link's peak; never for latency
  const OutlierRecord* outlier = nullptr;  // into the entry's "outliers"
  CellMark mark;                           // its verdict and BELOW record, if any
  bool abovePeak = false;                  // above 100% of its link's peak: impossible
};

struct HeatmapGrid {
  std::string name, unit;
  std::size_t rows = 0, cols = 0;
  std::vector<HeatmapCell> cells;  // row-major, rows * cols of them
  std::vector<std::string> rowLabels;
  bool latency = false;                   // lower is better
  std::optional<double> lowest, highest;  // over present values
  double labelWidth = 40;                 // px, room for the longest row label
  std::size_t index = 0;                  // the figure's number in the page: unique SVG ids
  // How many cells are coloured by percent of peak and by value, N/A, and marked so: what the
  // legend and the notes under the heatmap say.
  std::size_t byPercent = 0, byValue = 0, na = 0, outliers = 0, compared = 0, below = 0,
              abovePeak = 0;
};

// `entry` has a matrix (ReportEntry::matrix()).
HeatmapGrid heatmapGrid(const ReportEntry& entry, const CellMarks& marks, std::size_t index,
                        const StopRequest& stop);

// <svg class="heatmap" data-name data-rows data-cols> with one <g class="cell"> per cell.
std::string heatmapSvg(const ReportEntry& entry, const HeatmapGrid& g, const StopRequest& stop);

// A <pattern> of grey hatching with this id: how N/A cells are filled.
std::string hatchPattern(const std::string& id);

}  // namespace nvbw::html
