// The heatmap of one matrix entry (internal to the HTML report): the cells gathered from the
// entry's parallel grids (upstream's stacked entries drawn whole, as their document holds them),
// and the SVG drawn from them. html_matrix_figure.cpp puts the caption, legend and notes around it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fleet/html/html_sections.h"

namespace nvbw::html {

// What one cell shows.
struct HeatmapCell {
  std::size_t row = 0, col = 0;
  std::optional<double> value;                     // nullopt: N/A
  std::optional<double> percent;                   // of the link's peak; never for latency
  const OutlierRecord* outlier = nullptr;          // into the entry's "outliers"
  const ComparedCellRecord* comparison = nullptr;  // into the comparison's "cells"
  const BelowCellRecord* below = nullptr;          // into an expectation check's "below"
  bool abovePeak = false;                          // above 100% of its link's peak: impossible
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
