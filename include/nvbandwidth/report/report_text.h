// The text report from the Report (model/report.h): upstream v0.8's console layout, with the
// lines of our own that docs/compatibility.md#additions allows. Each testcase's stdout lines from
// its entries, as the run's text view prints them when they are appended (makeTextView,
// output_text.cpp) and as `nvbandwidth --from REPORT` prints a saved run from its first `Running`
// line: one rendering.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>

#include "core/compat_mode.h"
#include "model/report.h"
#include "report/output.h"

namespace nvbw {

// How the text prints a run (and, for -v, what its entries hold: MIN/MAX/AVG).
struct OutputSettings {
  bool verbose = false;        // -v: sample lines, MIN/MAX/AVG, percents of peak, cell statistics
  bool perfFormatter = false;  // the SUM line as "&&&& PERF <key> <sum> +GB/s" (-ns)
  // v0.10's header lines and COEFFICIENT_OF_VARIATION lines (JSON is the same in both).
  CompatMode compat = CompatMode::V0_8;
};

// One passed entry's matrices as they print after the testcase's `Running` line: each its title,
// the grid (N/A where a cell has no value), a blank line, its SUM line, -v's blocks and a blank
// line; under v0.10, after the last matrix of a testcase (`lastOf`: the testcase's key, given
// for its last entry) of GB/s, COEFFICIENT_OF_VARIATION of its SUM over the samples.
std::string entryText(const ReportEntry& e, const OutputSettings& form, const std::string* lastOf);

// The testcase an entry is (one matrix) of.
std::string testcaseOf(const ReportEntry& e);

// The coefficient of variation of the matrix's SUM over the samples: sample k's SUM adds sample
// k of every present cell (up to the fewest samples a cell has), stddev / mean of those sums, as
// a fraction; 0 without samples (upstream's reports), with fewer than two sums or a mean of 0.
double sumCoefficientOfVariation(const MatrixView& m);

// The stdout line of an entry without a matrix, where upstream prints one: a waived testcase's
// (v0.8's bare `Waived: `, or v0.10's `Waived <key>: <reason>` with every word of the reason that
// reads as a number quoted) and the two ERROR lines of a -t token that names no testcase
// (`ERROR: Testcase X not found!`, `... index N out of bound!`: SuperBench reads the first).
// "" for the others: our errors go to stderr.
std::string statusLine(const ReportEntry& e, CompatMode compat);

// The trailer of a run that measured: upstream's NOTE and a blank line.
extern const char* const kTrailer;

// What a run printed on stdout from its first `Running` line, from its report: each testcase's
// `Running` line and matrices (-v's lines where the report holds them: all but the sample lines),
// a sweep's tables, upstream's `Waived: ` (v0.10: `Waived <key>: <reason>`) and its two selection
// ERROR lines, and the trailer unless the run failed or was interrupted.
std::string savedRunText(const Report& report, const OutputSettings& form);

// Text: each testcase's lines to `out` as its entries are appended, lines of ours to `err`.
std::unique_ptr<ReportView> makeTextView(std::ostream& out, std::ostream& err,
                                         const OutputSettings& settings);

}  // namespace nvbw
