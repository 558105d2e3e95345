// Comparing two reports cell by cell: a saved baseline and a current run (or a second saved
// report). Pure: both sides are JSON documents as `nvbandwidth -j` prints them, of this tool
// (layout 1.0: numeric `values`, per-cell `cells` with samples) or of upstream v0.8 (string
// `bandwidth_matrix` only, bidirectional testcases' three matrices stacked in one entry).
//
// Matching. Matrices are matched by key (an entry's `name`; a repeated key pairs its occurrences
// in order), cells by (row, col). Upstream stacks the read1/write1, read2/write2 and total
// matrices of a bidirectional device-to-device testcase (a key containing
// "device_to_device_bidirectional_memcpy_read" or "..._write", multinode ones included) in one
// entry of 3N rows and N columns; such an entry is split into <key>_read1/_read2/_total (or
// _write1/_write2/_total), the keys this tool reports, so either side may be of either layout.
// Upstream's string cells are parsed ("N/A": no value); this tool's numeric `values` are used
// where present. The unit is the entry's `unit`, else "ns" for keys containing "latency" and
// "GB/s" for the rest. Entries without a matrix (Waived, ERROR, Running, Passed without one)
// match an entry of the same key and status on the other side; unmatched ones are listed
// ("key: Waived"). Nothing is dropped silently: a cell with a value on one side only, or a
// matrix on one side only, is listed on that side; differing shapes compare the overlap.
//
// Verdict. change = (current - baseline) / baseline x 100 (+-infinity for a baseline of 0 and a
// current that is not). GB/s: higher is better; ns: lower is better. Where both sides have a
// cell's samples (this tool's `cells`, >= 2 samples, median > 0) the band is
//   max(noise(baseline), noise(current), kRunToRunFloorPercent),
//   noise(side) = 100 x max(2 x stddev, max - min) / median   (that side's relative spread),
// basis "noise"; otherwise the band is the tolerance, basis "tolerance". |change| <= band is
// SAME, beyond it SLOWER or FASTER by direction.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nvbw {

enum class Verdict { Same, Slower, Faster };
const char* verdictName(Verdict v);  // "SAME", "SLOWER", "FASTER"

// Differences smaller than this are SAME even where both sides' samples are tighter: an
// unchanged machine moves this much from one run to the next.
inline constexpr double kRunToRunFloorPercent = 1.0;
inline constexpr double kDefaultTolerancePercent = 5.0;
// Twice the 2% coefficient of variation the text report flags as noisy (the noise band is at
// least twice the standard deviation).
inline constexpr double kNoisyBandPercent = 4.0;

struct CellComparison {
  std::string name;  // the matrix key (entry name, e.g. "..._read1")
  std::size_t row = 0;
  std::size_t col = 0;
  std::string unit;  // "GB/s" or "ns" (ns: lower is better)
  double baseline = 0.0;
  double current = 0.0;
  double changePercent = 0.0;  // (current - baseline) / baseline x 100
  Verdict verdict = Verdict::Same;
  // "noise" when both sides had samples (the band is the larger of both sides' noise and the
  // run-to-run floor), "tolerance" otherwise.
  std::string basis;
  double bandPercent = 0.0;  // the band the change was judged against
  // A side's samples spread by more than kNoisyBandPercent: the cell varies from run to run more
  // than three samples can show, so a verdict on it is worth a repeat before acting on it.
  bool noisy = false;
};

struct Comparison {
  double tolerancePercent = kDefaultTolerancePercent;
  std::vector<CellComparison> cells;  // every cell with a value on both sides, in report order
  // Entries or cells on one side only ("key" for a whole entry, "key[r][c]" for a cell with a
  // value on one side and N/A or nothing on the other), and testcases that did not pass on one
  // side ("key: Waived", "key: ERROR").
  std::vector<std::string> onlyInBaseline;
  std::vector<std::string> onlyInCurrent;
  std::vector<std::string> notes;  // e.g. settings that differ ("bufferSize_MiB: 512 vs 16")
  std::size_t count(Verdict v) const;
  bool anySlower() const { return count(Verdict::Slower) > 0; }
};

// Throws std::runtime_error ("baseline: not an nvbandwidth report: ..." or "current: ...") when a
// document is not a report of either layout or has entries of the wrong types, and
// std::invalid_argument when `tolerancePercent` is negative or not finite. Notes: settings that
// differ (both sides this tool's), GPU counts that differ, a side that is an upstream v0.8
// report, a side's run-level error or interruption, a matrix whose unit differs.
Comparison compareReports(const nlohmann::json& baseline, const nlohmann::json& current,
                          double tolerancePercent = kDefaultTolerancePercent);

// The cells that are not SAME as a table (grouped under their matrix key, at most 80 columns),
// the one-sided entries and cells, the notes, and last the one-line summary
// ("Comparison: 120 cells: 118 SAME, 2 SLOWER, 0 FASTER; 0 only in baseline, 0 only in current.").
// Every line ends in a newline.
std::string comparisonText(const Comparison& c);

// The "comparison" section of a JSON report (every cell, verdicts, summary, one-sided lists).
// Without `withCells` its "cells" is left empty, for a writer that streams them
// (comparisonCellJson, one at a time).
nlohmann::json comparisonJson(const Comparison& c, bool withCells = true);
nlohmann::json comparisonCellJson(const CellComparison& cell);

}  // namespace nvbw
