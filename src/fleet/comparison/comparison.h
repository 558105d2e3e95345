// Comparing two reports cell by cell: a saved baseline and a current run (or a second saved
// report). Pure: both sides are JSON documents as `nvbandwidth -j` prints them, of this tool
// (layout 1.0: numeric `values`, per-cell `cells` with samples) or of upstream v0.8 (string
// `bandwidth_matrix` only, bidirectional testcases' three matrices stacked in one entry).
//
// Matching. Matrices are matched by key (an entry's `name`; a repeated key, as `-t 0 0` or a
// sweep's sizes make it, pairs its occurrences in order), cells by (row, col). Upstream stacks
// the read1/write1, read2/write2 and total matrices of a bidirectional device-to-device testcase
// (a key containing "device_to_device_bidirectional_memcpy_read" or "..._write", multinode ones
// included) in one entry of 3N rows and N columns; such an entry is split into
// <key>_read1/_read2/_total (or _write1/_write2/_total), the keys this tool reports, so either
// side may be of either layout. Upstream's string cells are parsed ("N/A": no value); this
// tool's numeric `values` are used where present. The unit is the entry's `unit`, else "ns" for
// keys containing "latency" and "GB/s" for the rest. Entries without a matrix (Waived, ERROR,
// Running, Passed without one) match an entry of the same key and status on the other side;
// unmatched ones are listed ("key: Waived"). Nothing is dropped silently: a cell with a value on
// one side only, or a matrix on one side only, is listed on that side; differing shapes compare
// the overlap.
//
// The band. change = (current - baseline) / baseline x 100 (+-infinity for a baseline of 0 and a
// current that is not). GB/s: higher is better; ns: lower is better. Every cell's band is
//   max(tolerance, noise(baseline), noise(current)),
//   noise(side) = 100 x max(2 x stddev, max - min) / median   (that side's relative spread,
//                                                             known where it has >= 2 samples),
// basis "noise" where a side's noise is the larger, "tolerance" otherwise. |change| <= band is
// SAME.
//
// Beyond the band, two rules (calibrated on four reports of an unchanged H200,
// tests/golden/run_to_run/README.md):
// - Saved reports (compareReports alone: --compare, or a run with --confirm 0). Nothing can be
//   measured again, so the samples must say it: the cell is SLOWER (FASTER) only when even the
//   two sides' closest samples differ by more than the band (the separation: the current's most
//   favourable sample against the baseline's least favourable one, in the change's direction).
//   A cell whose median moved beyond the band while its samples do not separate by it is NOISY.
//   Without samples a side's one value is its only sample, so upstream reports are judged by
//   the change against the tolerance.
// - A run with confirmation (--baseline, --confirm N). A cell beyond the band in the slower
//   direction is suspect; its testcase is measured N more times (confirmation runs), and the
//   cell is SLOWER only when the median of the N + 1 measurements (the first and the
//   confirmations) is still beyond the band in the slower direction and, as for saved reports,
//   even the most favourable sample of all of them is beyond the band from the baseline's least
//   favourable one. Otherwise the cell is NOISY: a slowdown that passed (the confirmations pull
//   the median back), or a baseline that was itself a lucky run (the median alone would call an
//   unchanged H200's host bidirectional cells SLOWER in 4 of the 12 orders of the references;
//   with the separation, none). Cells beyond the band in the faster direction are judged by the
//   saved-report rule.
// NOISY is reported and never fails: only SLOWER gives exit status 3.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/stop_request.h"

namespace nvbw {

enum class Verdict { Same, Slower, Faster, Noisy };
const char* verdictName(Verdict v);  // "SAME", "SLOWER", "FASTER", "NOISY"

inline constexpr double kDefaultTolerancePercent = 5.0;
inline constexpr unsigned kDefaultConfirmRuns = 2;
inline constexpr unsigned kMaxConfirmRuns = 10;

struct CellComparison {
  std::string name;      // the matrix key (entry name, e.g. "..._read1")
  std::string testcase;  // the testcase it is a matrix of (the entry's `testcase`, else its name)
  std::optional<std::uint64_t> bufferSizeMiB;  // the current entry's size (--sweep)
  std::size_t row = 0;
  std::size_t col = 0;
  std::string unit;  // "GB/s" or "ns" (ns: lower is better)
  double baseline = 0.0;
  double current = 0.0;
  double changePercent = 0.0;  // (current - baseline) / baseline x 100
  Verdict verdict = Verdict::Same;
  // "noise" when a side's spread is the band, "tolerance" when the tolerance is.
  std::string basis;
  double bandPercent = 0.0;  // the band the change was judged against
  // Beyond the band: the change between the sides' closest samples, in the direction of the
  // change (the same sign as changePercent when the samples separate at all); after confirmation,
  // between the baseline's least favourable sample and the most favourable one of the first
  // measurement and every confirmation.
  std::optional<double> separationPercent;
  // Each side's smallest and largest sample (its value where it has no samples).
  double baselineMin = 0.0;
  double baselineMax = 0.0;
  double currentMin = 0.0;
  double currentMax = 0.0;
  // Beyond the band in the slower direction: a run re-measures its testcase before deciding.
  bool suspect = false;
  // A run with confirmation: the suspect cell's value in each confirmation run, in order, the
  // median of the first measurement and these, and its change.
  std::vector<double> confirmations;
  std::optional<double> confirmedMedian;
  std::optional<double> confirmedChangePercent;
};

// A testcase (at one sweep size) that has suspect cells.
struct SuspectTestcase {
  std::string testcase;
  std::optional<std::uint64_t> bufferSizeMiB;
  bool operator==(const SuspectTestcase& o) const {
    return testcase == o.testcase && bufferSizeMiB == o.bufferSizeMiB;
  }
};

// How a run confirmed its suspect cells.
struct ConfirmationSummary {
  unsigned runs = 0;                       // --confirm N: runs asked of each testcase
  std::vector<SuspectTestcase> testcases;  // re-measured, in report order
  double seconds = 0.0;                    // wall time of the confirmation runs
  std::size_t unconfirmed = 0;  // suspect cells without any confirmation value (failed, stopped)
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
  // Set once a run's confirmation runs have been applied (absent: the saved-report rule).
  std::optional<ConfirmationSummary> confirmation;
  std::size_t count(Verdict v) const;
  std::size_t suspects() const;
  bool anySlower() const { return count(Verdict::Slower) > 0; }
};

// The saved-report rule (above). Throws std::runtime_error ("baseline: not an nvbandwidth
// report: ..." or "current: ...") when a document is not a report of either layout or has
// entries of the wrong types, and std::invalid_argument when `tolerancePercent` is negative or
// not finite. Notes: settings that differ (both sides this tool's), GPU counts that differ, a
// side that is an upstream v0.8 report, a side's run-level error or interruption, a matrix whose
// unit differs. Throws Interrupted when `stop` reports a signal (asked every entry and row).
Comparison compareReports(const nlohmann::json& baseline, const nlohmann::json& current,
                          double tolerancePercent = kDefaultTolerancePercent,
                          const StopRequest& stop = {});

// The testcases (and sweep sizes) of the suspect cells, each once, in report order.
std::vector<SuspectTestcase> suspectTestcases(const Comparison& c);

// Re-judges the suspect cells with their testcases' confirmation runs: `entries` are report
// entries as a run's `confirmations` array holds them (this tool's layout, each with its
// `confirmation` number and, in a sweep, its `bufferSize_MiB`). A suspect cell with no
// confirmation value keeps its saved-report verdict (counted in `unconfirmed`, and noted).
// Throws std::runtime_error for entries of the wrong shape.
void applyConfirmations(Comparison& c, const nlohmann::json& entries,
                        const ConfirmationSummary& summary);

// The cells that are not SAME as a table (grouped under their matrix key, at most 80 columns;
// a suspect cell's confirmations, and a NOISY cell's separation, on a line below it), the
// one-sided entries and cells, the notes, and last the one-line summary ("Comparison: 120
// cells: 117 SAME, 1 SLOWER, 0 FASTER, 2 NOISY; 0 only in baseline, 0 only in current.").
// A run with confirmation starts with the line that says what was measured again. Every line
// ends in a newline.
std::string comparisonText(const Comparison& c);

// The "comparison" section of a JSON report (every cell, verdicts, summary, one-sided lists).
// Without `withCells` its "cells" is left empty, for a writer that streams them
// (comparisonCellJson, one at a time).
nlohmann::json comparisonJson(const Comparison& c, bool withCells = true);
nlohmann::json comparisonCellJson(const CellComparison& cell);

}  // namespace nvbw
