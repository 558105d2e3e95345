// Comparing two reports cell by cell: a saved baseline (one report or several) and a current run
// (or a second saved report). Pure: both sides are Reports (model/report.h), of this tool's layout
// (samples per cell) or upstream v0.8's (no samples). The rules, how cells are matched, the band,
// SAME / SLOWER / FASTER / UNSTABLE / NOISY and confirmation (the "saved-report rule" is the one
// without confirmation runs), are docs/verdicts.md's; the band's arithmetic is healthy_band.h.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/stop_request.h"
#include "fleet/comparison/healthy_band.h"
#include "model/report.h"

namespace nvbw {

// Shared by comparison.cpp, comparison_baseline.cpp and comparison_confirm.cpp.
namespace comparison {

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
// median); nullopt with fewer than 2 samples or a median of 0.
std::optional<double> cellSpread(const MatrixView& m, std::size_t row, std::size_t col);

// The entry's `bufferSizeMiB` (--sweep) where the matrix is the whole entry.
std::optional<std::uint64_t> sweepSizeOf(const MatrixView& m);

// (current - baseline) / baseline x 100; +-infinity for a baseline of 0 and a current that is not.
double changePercent(double baseline, double current);

// The change as the report holds it: null where it is infinite.
inline OrNull finiteOrNull(double value) { return std::isfinite(value) ? OrNull(value) : OrNull(); }

// `change` is beyond `band` in the slower direction of `unit` (GB/s down, ns up).
bool slowerBeyondBand(double change, double band, const std::string& unit);

}  // namespace comparison

// NotJudged: the two sides are reports of different machines (GPU models or counts): every cell
// is shown with its change, and none is judged.
enum class Verdict { Same, Slower, Faster, Unstable, Noisy, NotJudged };
// "SAME", "SLOWER", "FASTER", "UNSTABLE", "NOISY", "NOT JUDGED"
const char* verdictName(Verdict v);

inline constexpr double kDefaultTolerancePercent = 5.0;

// A comparison is the report's section (ComparisonSection, model/report.h), every list present:
// docs/nvbandwidth.schema.json ("comparison"). The cells of verdict `v`, and the suspect ones.
std::size_t countVerdict(const ComparisonSection& c, Verdict v);
std::size_t suspectCells(const ComparisonSection& c);
bool anyFailing(const ComparisonSection& c);  // a SLOWER or UNSTABLE cell
void countCells(ComparisonSection& c);        // sets `summary`

// The healthy side of a comparison: one or more reports, merged as each is added (the Reports need
// not outlive it): every cell with the values and within-run spreads of the reports that have it.
class Baseline {
 public:
  // One matrix key (occurrence) over the reports: the n-th matrix named `name` of each report,
  // each cell over the reports that have a value for it (no values: N/A everywhere).
  struct Matrix {
    std::string name;
    std::string unit;
    std::vector<std::vector<HealthySide>> cells;
  };

  // `label` names the report in notes: "baseline" for the first, "baseline 2 (b.json)" for
  // instance. Throws Interrupted when `stop` reports a signal, UsageError when its GPUs are
  // logical and the first report's are not, or the other way round.
  void add(const Report& report, const std::string& label = "baseline",
           const StopRequest& stop = {});
  std::size_t reports() const { return reports_; }
  // Why the current side, of `logicalGpus` (nullopt: real GPUs), cannot be judged against these
  // reports (logicalGpusMismatch); nullopt when it can. `current` names it ("this run").
  std::optional<std::string> logicalGpusProblem(const std::string& current,
                                                std::optional<std::uint64_t> logicalGpus) const;
  const std::vector<Matrix>& matrices() const { return matrices_; }  // in order of first appearance
  // The first report's side: the other side is compared with it.
  const comparison::Side& first() const { return first_; }
  // Every report's run-level notes, and how the later reports differ from the first.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void noteDifferences(const comparison::Side& r, const std::string& label);

  std::size_t reports_ = 0;
  std::vector<Matrix> matrices_;
  comparison::Side first_;
  std::optional<std::uint64_t> logicalGpus_;  // every report's (they must agree)
  std::vector<std::string> notes_;
};

// The saved-report rule (docs/verdicts.md); no verdict at all between different machines
// (differentMachines). Throws std::invalid_argument when `tolerancePercent` is negative or not
// finite, std::logic_error for an empty baseline, and Interrupted when `stop` reports a signal
// (asked every entry and row).
ComparisonSection compareWithBaseline(const Baseline& baseline, const Report& current,
                                      double tolerancePercent = kDefaultTolerancePercent,
                                      const StopRequest& stop = {});

// The testcases (and sweep sizes) of the suspect cells, each once, in report order.
std::vector<SuspectRecord> suspectTestcases(const ComparisonSection& c);

// Re-judges the suspect cells with their testcases' confirmation runs: `entries` are report
// entries as a run's `confirmations` holds them (this tool's layout, each with its confirmation
// run and, in a sweep, its buffer size). A suspect cell with no confirmation value keeps its
// saved-report verdict (counted in `unconfirmed`, and noted). Throws std::invalid_argument for an
// entry without its confirmation run.
void applyConfirmations(ComparisonSection& c, const std::vector<ReportEntry>& entries,
                        const ConfirmationRecord& summary);

// The text view: the cells that are not SAME as a table (at most 80 columns), the one-sided
// entries and cells, the notes, and last the one-line summary ("Comparison: 120 cells: 116 SAME,
// 1 SLOWER, 0 FASTER, 2 NOISY, 1 UNSTABLE; 0 only in baseline, 0 only in current.").
std::string comparisonText(const ComparisonSection& c);

// Lines of the text view that the HTML page shows too, without their newline: "Baseline: 3
// reports: ..." ("" with one baseline report), and the summary line of the section's counts (a
// count a saved report lacks, as older reports lack NOISY and UNSTABLE: "unknown"). And a cell's
// change, "+1.25%", "-3.00%": "n/a" against a baseline of 0 (null), as where a report lacks it.
std::string comparisonBaselineLine(const ComparisonSection& c);
std::string comparisonSummaryLine(const ComparisonSection& c);
std::string changeText(const std::optional<OrNull>& change);

}  // namespace nvbw
