// The two report layouts read into one shape for the comparison (comparison.cpp) and its views
// (comparison_views.cpp): matrices with their values and per-cell noise, and the entries without
// a matrix. Private to the comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/stop_request.h"

namespace nvbw::comparison {

using nlohmann::json;

using Grid = std::vector<std::vector<std::optional<double>>>;

// How far a cell's samples spread: its noise in percent (100 x max(2 x stddev, max - min) /
// median) and its smallest and largest sample.
struct Spread {
  double noisePercent = 0.0;
  double min = 0.0;
  double max = 0.0;
};
using SpreadGrid = std::vector<std::vector<std::optional<Spread>>>;

// One matrix, as both layouts reduce to it.
struct Matrix {
  std::string name;
  std::string unit;
  Grid values;           // nullopt: N/A
  SpreadGrid spread;     // per cell; nullopt where there are fewer than 2 samples (or none)
  std::string testcase;  // the entry's `testcase`, else its name
  std::optional<std::uint64_t> bufferSizeMiB;  // the entry's `bufferSize_MiB` (--sweep)
};

// An entry without a matrix: Waived, ERROR, Running, or Passed without a matrix.
struct StatusEntry {
  std::string name;
  std::string status;
};

struct Report {
  std::vector<Matrix> matrices;
  std::vector<StatusEntry> statuses;
  json settings;                    // this tool's reports only (null otherwise)
  bool upstream = false;            // no schema_version: upstream v0.8, whose cells have no samples
  std::optional<std::size_t> gpus;  // the length of "GPU Device list"
  std::vector<std::string> runNotes;
};

// Where a reader is in a document, so that bad input is rejected with the side and the place.
struct Where {
  std::string side;  // "baseline" or "current"
  std::string path;  // e.g. `testcases[3] ("key")`; empty for the document itself
  [[noreturn]] void reject(const std::string& why) const {
    throw std::runtime_error(
        side + ": not an nvbandwidth report: " + (path.empty() ? why : path + ": " + why));
  }
};

// "[r][c]", as the one-sided lists name cells.
std::string cellSuffix(std::size_t row, std::size_t col);

// The member `key` of a JSON object, or nullptr.
const json* findMember(const json& object, const char* key);

// The cell of `grid`, nullopt outside it or where it is N/A.
template <typename T>
std::optional<T> at(const std::vector<std::vector<std::optional<T>>>& grid, std::size_t row,
                    std::size_t col) {
  if (row >= grid.size() || col >= grid[row].size()) return std::nullopt;
  return grid[row][col];
}

// Reads one entry of this tool's layout (a run's testcase or confirmation entry) into its
// matrices (none for an entry without values). `side` names the document in the errors.
void readOurEntry(const json& entry, const Where& where, std::vector<Matrix>& out);

// Reads a report of either layout; `side` ("baseline"/"current") names it in the errors.
Report readReport(const json& document, const std::string& side, const StopRequest& stop = {});

}  // namespace nvbw::comparison
