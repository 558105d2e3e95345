// Comparing two reports cell by cell: a saved baseline (one report or several) and a current run
// (or a second saved report). Pure: both sides are Reports (model/report.h), of this tool's layout
// (samples per cell) or upstream v0.8's (no samples). The rules, how cells are matched, the band,
// SAME / SLOWER / FASTER / UNSTABLE / NOISY and confirmation (the "saved-report rule" is the one
// without confirmation runs), are docs/verdicts.md's; the band's arithmetic is healthy_band.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "fleet/comparison/comparison_baseline.h"
#include "model/report.h"

namespace nvbw {

// NotJudged: the two sides are reports of different machines (GPU models or counts): every cell
// is shown with its change, and none is judged.
enum class Verdict { Same, Slower, Faster, Unstable, Noisy, NotJudged };
// "SAME", "SLOWER", "FASTER", "UNSTABLE", "NOISY", "NOT JUDGED"
const char* verdictName(Verdict v);
bool failing(Verdict v);  // SLOWER or UNSTABLE

inline constexpr double kDefaultTolerancePercent = 5.0;
inline constexpr unsigned kDefaultConfirmRuns = 2;
inline constexpr unsigned kMaxConfirmRuns = 10;

struct CellComparison {
  std::string name;      // the matrix key (entry name, e.g. "..._read1")
  std::string testcase;  // the testcase it is a matrix of (the entry's `testcase`, else its name)
  std::optional<std::uint64_t> bufferSizeMiB;  // the current entry's size (--sweep)
  std::size_t row = 0;
  std::size_t col = 0;
  std::string unit;       // "GB/s" or "ns" (ns: lower is better)
  double baseline = 0.0;  // the reference: the median of the baseline reports' values
  double current = 0.0;
  double changePercent = 0.0;  // (current - baseline) / baseline x 100
  Verdict verdict = Verdict::Same;
  std::size_t baselineReports = 0;  // how many baseline reports have the cell
  // The healthy side (healthy_band.h): spread between runs, the band's spread and the band,
  // which of tolerance / run-to-run / baseline samples the band is, and the unstable limit.
  double runToRunPercent = 0.0;
  double healthySpreadPercent = 0.0;
  double bandPercent = 0.0;
  std::string basis;
  double unstableLimitPercent = 0.0;
  // The current side's own spread (its samples; absent with fewer than 2) and whether it is
  // above the unstable limit.
  std::optional<double> spreadPercent;
  bool unstable = false;
  // SLOWER or UNSTABLE in the first measurement: a run re-measures its testcase before deciding.
  bool suspect = false;
  // A run with confirmation: the suspect cell's value and spread in each confirmation run, in
  // order; the median of the N + 1 values and its change, and the median of their spreads.
  std::vector<double> confirmations;
  std::vector<std::optional<double>> confirmationSpreads;
  std::optional<double> confirmedMedian;
  std::optional<double> confirmedChangePercent;
  std::optional<double> confirmedSpreadPercent;
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
  std::size_t baselineReports = 1;    // the reports the baseline is made of
  std::vector<CellComparison> cells;  // every cell with a value on both sides, in report order
  // Entries or cells on one side only ("key" for a whole entry, "key[r][c]" for a cell with a
  // value on one side and N/A or nothing on the other), and testcases that did not pass on one
  // side ("key: Waived", "key: ERROR"). The baseline side: every baseline report's matrices and
  // cells, the first report's entries without a matrix.
  std::vector<std::string> onlyInBaseline;
  std::vector<std::string> onlyInCurrent;
  std::vector<std::string> notes;  // e.g. settings that differ ("bufferSize_MiB: 512 vs 16")
  // Set once a run's confirmation runs have been applied (absent: the saved-report rule).
  std::optional<ConfirmationSummary> confirmation;
  // The sides are reports of different machines ("the baseline is of 2 x NVIDIA H200 and the
  // current report of 1 x NVIDIA H100 80GB HBM3"): no cell is judged (Verdict::NotJudged); the
  // command then exits 2. nullopt when they are alike, or a side does not name its GPUs.
  std::optional<std::string> differentMachines;
  std::size_t count(Verdict v) const;
  std::size_t suspects() const;
  bool anyFailing() const { return count(Verdict::Slower) + count(Verdict::Unstable) > 0; }
};

// The healthy side of a comparison: one or more reports, each reduced to its matrices as it is
// added (the Reports need not outlive it).
class Baseline {
 public:
  // `label` names the report in notes: "baseline" for the first, "baseline 2 (b.json)" for
  // instance. Throws Interrupted when `stop` reports a signal (asked every matrix), UsageError
  // when its GPUs are logical and the first report's are not, or the other way round.
  void add(const Report& report, const std::string& label = "baseline",
           const StopRequest& stop = {});
  std::size_t reports() const { return reports_.reports; }
  const comparison::BaselineReports& merged() const { return reports_; }
  // Why the current side, of `logicalGpus` (nullopt: real GPUs), cannot be judged against these
  // reports (logicalGpusMismatch); nullopt when it can. `current` names it ("this run").
  std::optional<std::string> logicalGpusProblem(const std::string& current,
                                                std::optional<std::uint64_t> logicalGpus) const;

 private:
  comparison::BaselineReports reports_;
};

// The saved-report rule (docs/verdicts.md); no verdict at all between different machines
// (Comparison::differentMachines). Throws std::invalid_argument when `tolerancePercent` is negative
// or not finite, and std::logic_error for an empty baseline. Notes: settings that differ from the
// first baseline report (both this tool's), GPU counts that differ, a side that is an upstream v0.8
// report, a side's run-level error or interruption, a matrix whose unit differs. Throws
// Interrupted when `stop` reports a signal (asked every entry and row).
Comparison compareWithBaseline(const Baseline& baseline, const Report& current,
                               double tolerancePercent = kDefaultTolerancePercent,
                               const StopRequest& stop = {});
// The same with a baseline of one report.
Comparison compareReports(const Report& baseline, const Report& current,
                          double tolerancePercent = kDefaultTolerancePercent,
                          const StopRequest& stop = {});

// The testcases (and sweep sizes) of the suspect cells, each once, in report order.
std::vector<SuspectTestcase> suspectTestcases(const Comparison& c);

// Re-judges the suspect cells with their testcases' confirmation runs: `entries` are report
// entries as a run's `confirmations` holds them (this tool's layout, each with its confirmation
// run and, in a sweep, its buffer size). A suspect cell with no confirmation value keeps its
// saved-report verdict (counted in `unconfirmed`, and noted). Throws std::invalid_argument for an
// entry without its confirmation run.
void applyConfirmations(Comparison& c, const std::vector<ReportEntry>& entries,
                        const ConfirmationSummary& summary);

// The cells that are not SAME as a table (grouped under their matrix key, at most 80 columns;
// under a cell the line that says why: its spread against the unstable limit, its
// confirmations), the one-sided entries and cells, the notes, and last the one-line summary
// ("Comparison: 120 cells: 116 SAME, 1 SLOWER, 0 FASTER, 2 NOISY, 1 UNSTABLE; 0 only in
// baseline, 0 only in current."). A baseline of several reports starts with the line that says
// so, a run with confirmation with the line that says what was measured again. Every line ends
// in a newline.
std::string comparisonText(const Comparison& c);

// The comparison as a report's section (every cell, verdicts, summary, one-sided lists). Without
// `withCells` its cells are left out, for a writer that streams them (comparedCellRecord, one at
// a time).
ComparisonSection comparisonSection(const Comparison& c, bool withCells = true);
ComparedCellRecord comparedCellRecord(const CellComparison& cell);

}  // namespace nvbw
