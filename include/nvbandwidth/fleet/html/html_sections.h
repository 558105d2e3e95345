// The parts of the HTML report (internal to it), each rendered from its piece of the JSON
// document alone. They return markup; every string taken from the JSON is escaped in them.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "core/stop_request.h"

namespace nvbw::html {

// The comparison's cell records by (matrix key, row, column), pointing into the document, so a
// heatmap can mark its cells with their verdicts.
using CellKey = std::tuple<std::string, std::size_t, std::size_t>;
using VerdictIndex = std::map<CellKey, const nlohmann::json*>;

// Empty when `run` has no "comparison". The sections that walk every cell ask `stop` as they go
// (Interrupted).
VerdictIndex verdictIndex(const nlohmann::json& run, const StopRequest& stop);

// What the heatmaps mark besides values: each cell's comparison record, and its BELOW record of
// the expectations (`expectations[].below[]`, by matrix key, row and column).
struct CellMarks {
  VerdictIndex verdicts;
  VerdictIndex below;
};

// Both indices of `run`; empty where it has no comparison or expectations.
CellMarks cellMarks(const nlohmann::json& run, const StopRequest& stop);

// The "expectations" section: per check its summary line and its BELOW and unmet lines; "" when
// `run` has none.
std::string expectationsSection(const nlohmann::json& run);

// The "comparison" section: summary, notes, cells that are not SAME, one-sided lists.
std::string comparisonSection(const nlohmann::json& comparison, const StopRequest& stop);

// The "sweep" section: one line chart of SUM over buffer size per series.
std::string sweepSection(const nlohmann::json& sweep);

// The host and per-GPU snapshot ("environment", "environment_at_end"); "" when absent.
std::string environmentSection(const nlohmann::json& run);

// A passed matrix entry's heatmap with its caption, legend, SUM and outlier note. `index` makes
// the SVG ids (hatch patterns) unique in the page.
std::string matrixFigure(const nlohmann::json& entry, const CellMarks& marks, std::size_t index,
                         const StopRequest& stop);

// The page's style sheet (inline: the page fetches nothing).
const char* reportStyleSheet();

}  // namespace nvbw::html
