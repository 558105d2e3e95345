#include "fleet/comparison/comparison.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "core/format.h"

namespace nvbw {

using namespace comparison;

const char* verdictName(Verdict v) {
  static const char* const kNames[] = {"SAME",     "SLOWER", "FASTER",
                                       "UNSTABLE", "NOISY",  "NOT JUDGED"};
  return kNames[static_cast<int>(v)];
}

std::size_t countVerdict(const ComparisonSection& c, Verdict v) {
  return static_cast<std::size_t>(
      std::count_if(c.cells->begin(), c.cells->end(), [v](const ComparedCellRecord& cell) {
        return cell.verdict == verdictName(v);
      }));
}

std::size_t suspectCells(const ComparisonSection& c) {
  return static_cast<std::size_t>(
      std::count_if(c.cells->begin(), c.cells->end(),
                    [](const ComparedCellRecord& cell) { return cell.suspect == true; }));
}

bool anyFailing(const ComparisonSection& c) {
  return countVerdict(c, Verdict::Slower) + countVerdict(c, Verdict::Unstable) > 0;
}

void countCells(ComparisonSection& c) {
  ComparisonCounts& counts = c.summary.emplace();
  counts.cells = c.cells->size();
  counts.same = countVerdict(c, Verdict::Same);
  counts.slower = countVerdict(c, Verdict::Slower);
  counts.faster = countVerdict(c, Verdict::Faster);
  counts.noisy = countVerdict(c, Verdict::Noisy);
  counts.unstable = countVerdict(c, Verdict::Unstable);
  counts.suspect = suspectCells(c);
  counts.onlyInBaseline = c.onlyInBaseline->size();
  counts.onlyInCurrent = c.onlyInCurrent->size();
}

namespace comparison {

std::optional<double> cellSpread(const MatrixView& m, std::size_t row, std::size_t col) {
  const CellStatistics* cell = m.statistics(row, col);
  if (!cell || cell->samples.size() < 2 || cell->median <= 0.0) return std::nullopt;
  const double spread = std::max(2.0 * cell->stddev, cell->max - cell->min);
  return 100.0 * spread / cell->median;
}

std::optional<std::uint64_t> sweepSizeOf(const MatrixView& m) {
  return m.part().wholeEntry ? m.entry().bufferSizeMiB : std::nullopt;
}

Side sideOf(const Report& report, const std::string& side) {
  Side out;
  out.upstream = report.upstream();
  if (report.settings) out.settings = membersOf(*report.settings);
  if (report.gpuDeviceList) out.gpus = report.gpuDeviceList->size();
  out.machine = machineShapeOf(report);
  for (const std::string& note : runNotes(report)) out.runNotes.push_back(side + ": " + note);
  for (const ReportEntry& entry : orEmpty(report.testcases))
    if (!entry.passedWithMatrix()) out.statuses.push_back({entry.name, statusName(entry.status)});
  return out;
}

double changePercent(double baseline, double current) {
  if (baseline != 0.0) return (current - baseline) / baseline * 100.0;
  if (current == 0.0) return 0.0;
  return std::copysign(std::numeric_limits<double>::infinity(), current);
}

bool slowerBeyondBand(double change, double band, const std::string& unit) {
  return std::fabs(change) > band && (change > 0.0) == (unit == "ns");
}

}  // namespace comparison

namespace {

Verdict savedReportVerdict(double change, double band, const std::string& unit, bool unstable) {
  if (slowerBeyondBand(change, band, unit)) return Verdict::Slower;
  if (unstable) return Verdict::Unstable;
  if (std::fabs(change) > band) return Verdict::Faster;
  return Verdict::Same;
}

ComparedCellRecord compareCell(const Baseline::Matrix& b, const MatrixView& c, std::size_t row,
                               std::size_t col, double tolerancePercent) {
  const std::string& testcase = c.part().testcase;
  ComparedCellRecord cell = healthyBand(b.cells[row][col], spreadPrior(testcase), tolerancePercent);
  cell.name = b.name;
  cell.testcase = testcase;
  cell.bufferSizeMiB = sweepSizeOf(c);
  cell.row = row;
  cell.col = col;
  cell.unitText = b.unit;
  cell.current = *c.value(row, col);
  const double change = changePercent(*cell.baseline, *cell.current);
  cell.changePercent = finiteOrNull(change);
  cell.spreadPercent = cellSpread(c, row, col);
  cell.unstable = cell.spreadPercent && *cell.spreadPercent > *cell.unstableLimitPercent;
  const Verdict verdict = savedReportVerdict(change, *cell.bandPercent, b.unit, *cell.unstable);
  cell.verdict = verdictName(verdict);
  cell.suspect = verdict == Verdict::Slower || verdict == Verdict::Unstable;
  return cell;
}

bool hasValue(const Baseline::Matrix& m, std::size_t row, std::size_t col) {
  return row < m.cells.size() && col < m.cells[row].size() && !m.cells[row][col].values.empty();
}

void compareMatrices(const Baseline::Matrix& b, const MatrixView& c, ComparisonSection& out,
                     const StopRequest& stop) {
  if (b.unit != unitName(c.unit())) {
    out.notes->push_back(b.name + ": unit " + b.unit + " vs " + unitName(c.unit()) +
                         ", not compared");
    out.onlyInBaseline->push_back(b.name);
    out.onlyInCurrent->push_back(c.key());
    return;
  }
  for (std::size_t r = 0; r < std::max(b.cells.size(), c.rows()); ++r) {
    throwIfStopped(stop);
    const std::size_t cols =
        std::max(r < b.cells.size() ? b.cells[r].size() : 0, r < c.rows() ? c.cols() : 0);
    for (std::size_t col = 0; col < cols; ++col) {
      const bool inB = hasValue(b, r, col);
      const bool inC = c.value(r, col).has_value();
      if (inB && inC)
        out.cells->push_back(compareCell(b, c, r, col, *out.tolerancePercent));
      else if (inB)
        out.onlyInBaseline->push_back(b.name + cellName(r, col));
      else if (inC)
        out.onlyInCurrent->push_back(c.key() + cellName(r, col));
    }
  }
}

// Pairs the matrices by key, a repeated key (`-t 0 0`) occurrence by occurrence.
void compareAllMatrices(const Baseline& b, const std::vector<MatrixView>& c, ComparisonSection& out,
                        const StopRequest& stop) {
  std::map<std::string, std::deque<std::size_t>> unmatched;
  for (std::size_t i = 0; i < c.size(); ++i) unmatched[c[i].key()].push_back(i);
  std::vector<bool> matched(c.size(), false);
  for (const Baseline::Matrix& m : b.matrices()) {
    auto& candidates = unmatched[m.name];
    if (candidates.empty()) {
      out.onlyInBaseline->push_back(m.name);
      continue;
    }
    compareMatrices(m, c[candidates.front()], out, stop);
    matched[candidates.front()] = true;
    candidates.pop_front();
  }
  for (std::size_t i = 0; i < c.size(); ++i)
    if (!matched[i]) out.onlyInCurrent->push_back(c[i].key());
}

std::string statusLabel(const StatusEntry& s) {
  const std::string name = s.name.empty() ? "\"\"" : s.name;  // an ERROR for `-t ""`
  return name + ": " + (s.status == "Passed" ? std::string("Passed, no matrix") : s.status);
}

// The status entries of `side` that the other side has no entry of the same key and status for.
void listUnmatchedStatuses(const std::vector<StatusEntry>& side,
                           const std::vector<StatusEntry>& other, std::vector<std::string>& out) {
  std::map<std::pair<std::string, std::string>, std::size_t> available;
  for (const StatusEntry& s : other) ++available[{s.name, s.status}];
  for (const StatusEntry& s : side) {
    std::size_t& n = available[{s.name, s.status}];
    if (n > 0)
      --n;
    else
      out.push_back(statusLabel(s));
  }
}

void noteDocuments(const Baseline& b, const Side& c, std::vector<std::string>& notes) {
  notes.insert(notes.end(), b.notes().begin(), b.notes().end());
  if (c.upstream)
    notes.push_back("current: upstream nvbandwidth v0.8 report: no samples, never UNSTABLE");
  notes.insert(notes.end(), c.runNotes.begin(), c.runNotes.end());
  if (b.first().gpus && c.gpus && *b.first().gpus != *c.gpus)
    notes.push_back("GPUs: " + std::to_string(*b.first().gpus) + " vs " + std::to_string(*c.gpus));
  if (b.first().settings && c.settings) noteSettings(*b.first().settings, *c.settings, "", notes);
}

}  // namespace

ComparisonSection compareWithBaseline(const Baseline& b, const Report& current,
                                      double tolerancePercent, const StopRequest& stop) {
  if (!std::isfinite(tolerancePercent) || tolerancePercent < 0.0)
    throw std::invalid_argument("the tolerance must be a percentage of 0 or more");
  if (b.reports() == 0) throw std::logic_error("a comparison needs a baseline report");
  throwIfStopped(stop);
  const Side c = sideOf(current, "current");
  ComparisonSection out;
  out.rule = "saved reports";
  out.band = "healthy side";
  out.baselineReports = b.reports();
  out.tolerancePercent = tolerancePercent;
  out.cells.emplace();
  out.onlyInBaseline.emplace();
  out.onlyInCurrent.emplace();
  noteDocuments(b, c, out.notes.emplace());
  compareAllMatrices(b, current.matrices(), out, stop);
  const MachineShape& machine = b.first().machine;
  if (machine.known() && c.machine.known() && !(machine == c.machine)) {
    out.differentMachines =
        "the baseline is of " + machine.text() + " and the current report of " + c.machine.text();
    for (ComparedCellRecord& cell : *out.cells) {
      cell.verdict = verdictName(Verdict::NotJudged);
      cell.suspect = false;
      cell.unstable = false;
    }
  }
  listUnmatchedStatuses(b.first().statuses, c.statuses, *out.onlyInBaseline);
  listUnmatchedStatuses(c.statuses, b.first().statuses, *out.onlyInCurrent);
  countCells(out);
  return out;
}

std::vector<SuspectRecord> suspectTestcases(const ComparisonSection& c) {
  std::vector<SuspectRecord> suspects;
  for (const ComparedCellRecord& cell : *c.cells) {
    const auto same = [&cell](const SuspectRecord& t) {
      return t.testcase == cell.testcase && t.bufferSizeMiB == cell.bufferSizeMiB;
    };
    if (cell.suspect == true && std::none_of(suspects.begin(), suspects.end(), same))
      suspects.push_back({cell.testcase, cell.bufferSizeMiB});
  }
  return suspects;
}

}  // namespace nvbw
