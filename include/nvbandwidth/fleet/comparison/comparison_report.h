// A report as the comparison reads it: its matrices in place (MatrixView), with each cell's
// noise, its entries without a matrix and its run facts; and the verdict rules' pieces that the
// saved-report rule (comparison.cpp) and the confirmation (comparison_confirm.cpp) share.
// Private to the comparison.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace nvbw::comparison {

// An entry without a matrix: Waived, ERROR, Running, or Passed without a matrix.
struct StatusEntry {
  std::string name;
  std::string status;
};

// One side of a comparison, beside its matrices.
struct Side {
  std::vector<StatusEntry> statuses;
  std::optional<Json> settings;     // this tool's reports only
  bool upstream = false;            // upstream's layout, whose cells have no samples
  std::optional<std::size_t> gpus;  // the length of "GPU Device list"
  MachineShape machine;             // its GPUs' models and count
  std::vector<std::string> runNotes;
};

// A report as one side; `side` ("baseline"/"current") names it in the notes.
Side sideOf(const Report& report, const std::string& side);

// One note per setting that differs between two reports' settings:
// "<prefix>bufferSize_MiB: 512 vs 16".
void noteSettings(const Json& b, const Json& c, const std::string& prefix,
                  std::vector<std::string>& notes);

// How far a cell's samples spread: its noise in percent (100 x max(2 x stddev, max - min) /
// median); nullopt with fewer than 2 samples, where it says nothing about noise, or a median of
// 0, against which no spread is relative.
std::optional<double> cellSpread(const MatrixView& m, std::size_t row, std::size_t col);

// The entry's `bufferSizeMiB` (--sweep) where the matrix is the whole entry.
std::optional<std::uint64_t> sweepSizeOf(const MatrixView& m);

// (current - baseline) / baseline x 100; +-infinity for a baseline of 0 and a current that is not.
double changePercent(double baseline, double current);

// The change as the report holds it: null where it is infinite.
inline OrNull finiteOrNull(double value) { return std::isfinite(value) ? OrNull(value) : OrNull(); }

// `change` is beyond `band` in the slower direction of `unit` (GB/s down, ns up).
bool slowerBeyondBand(double change, double band, const std::string& unit);

// `spread` is known and above `limit`.
bool aboveUnstableLimit(const std::optional<double>& spread, double limit);

}  // namespace nvbw::comparison
