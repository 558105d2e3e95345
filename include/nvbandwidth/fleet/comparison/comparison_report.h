// A report reduced to what the comparison compares (comparison.cpp) and confirms
// (comparison_confirm.cpp): its matrices with their values and per-cell noise, and the entries
// without a matrix. Private to the comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace nvbw::comparison {

using Grid = std::vector<std::vector<std::optional<double>>>;

// One matrix, as both layouts reduce to it.
struct Matrix {
  std::string name;
  std::string unit;
  Grid values;  // nullopt: N/A
  // Per cell, how far its samples spread: its noise in percent (100 x max(2 x stddev, max - min)
  // / median); nullopt where there are fewer than 2 samples (or none).
  Grid spread;
  std::string testcase;                        // the entry's `testcase`, else its name
  std::optional<std::uint64_t> bufferSizeMiB;  // the entry's `bufferSize_MiB` (--sweep)
};

// An entry without a matrix: Waived, ERROR, Running, or Passed without a matrix.
struct StatusEntry {
  std::string name;
  std::string status;
};

// One side of a comparison.
struct Side {
  std::vector<Matrix> matrices;
  std::vector<StatusEntry> statuses;
  std::optional<Json> settings;     // this tool's reports only
  bool upstream = false;            // upstream's layout, whose cells have no samples
  std::optional<std::size_t> gpus;  // the length of "GPU Device list"
  MachineShape machine;             // its GPUs' models and count
  std::vector<std::string> runNotes;
};

// "[r][c]", as the one-sided lists name cells.
std::string cellSuffix(std::size_t row, std::size_t col);

// The cell of `grid`, nullopt outside it or where it is N/A.
template <typename T>
std::optional<T> at(const std::vector<std::vector<std::optional<T>>>& grid, std::size_t row,
                    std::size_t col) {
  if (row >= grid.size() || col >= grid[row].size()) return std::nullopt;
  return grid[row][col];
}

// The matrices of an entry (a run's confirmation entry: this tool's layout); none without one.
std::vector<Matrix> matricesOf(const ReportEntry& entry);

// A report as one side; `side` ("baseline"/"current") names it in the notes.
Side sideOf(const Report& report, const std::string& side);

}  // namespace nvbw::comparison
