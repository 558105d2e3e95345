#include "fleet/comparison/comparison.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <stdexcept>
#include <utility>

#include "fleet/comparison/comparison_baseline.h"
#include "fleet/comparison/comparison_report.h"
#include "fleet/comparison/comparison_rules.h"
#include "fleet/comparison/healthy_band.h"

namespace nvbw {

using namespace comparison;

const char* verdictName(Verdict v) {
  switch (v) {
  case Verdict::Slower:
    return "SLOWER";
  case Verdict::Faster:
    return "FASTER";
  case Verdict::Unstable:
    return "UNSTABLE";
  case Verdict::Noisy:
    return "NOISY";
  case Verdict::NotJudged:
    return "NOT JUDGED";
  case Verdict::Same:
    break;
  }
  return "SAME";
}

bool failing(Verdict v) { return v == Verdict::Slower || v == Verdict::Unstable; }

std::optional<std::string>
Baseline::logicalGpusProblem(const std::string& current,
                             std::optional<std::uint64_t> logicalGpus) const {
  if (reports_.reports == 0) return std::nullopt;
  return logicalGpusMismatch("the baseline", reports_.logicalGpus, current, logicalGpus);
}

void Baseline::add(const Report& report, const std::string& label, const StopRequest& stop) {
  addBaselineReport(reports_, report, label, stop);
}

std::size_t Comparison::count(Verdict v) const {
  return static_cast<std::size_t>(std::count_if(
      cells.begin(), cells.end(), [v](const CellComparison& c) { return c.verdict == v; }));
}

std::size_t Comparison::suspects() const {
  return static_cast<std::size_t>(
      std::count_if(cells.begin(), cells.end(), [](const CellComparison& c) { return c.suspect; }));
}

namespace {

// The saved-report rule (docs/verdicts.md).
Verdict savedReportVerdict(const CellComparison& cell) {
  if (slowerBeyondBand(cell.changePercent, cell.bandPercent, cell.unit)) return Verdict::Slower;
  if (cell.unstable) return Verdict::Unstable;
  if (std::fabs(cell.changePercent) > cell.bandPercent) return Verdict::Faster;
  return Verdict::Same;
}

CellComparison compareCell(const HealthyMatrix& b, const Matrix& c, std::size_t row,
                           std::size_t col, double tolerancePercent) {
  CellComparison cell;
  cell.name = b.name;
  cell.testcase = c.testcase;
  cell.bufferSizeMiB = c.bufferSizeMiB;
  cell.row = row;
  cell.col = col;
  cell.unit = b.unit;
  const HealthyBand band =
      healthyBand(b.cells[row][col], spreadPrior(c.testcase), tolerancePercent);
  cell.baseline = band.reference;
  cell.baselineReports = band.reports;
  cell.runToRunPercent = band.runToRunPercent;
  cell.healthySpreadPercent = band.healthySpreadPercent;
  cell.bandPercent = band.bandPercent;
  cell.basis = band.basis;
  cell.unstableLimitPercent = band.unstableLimitPercent;
  cell.current = *at(c.values, row, col);
  cell.changePercent = changePercent(cell.baseline, cell.current);
  cell.spreadPercent = at(c.spread, row, col);
  cell.unstable = aboveUnstableLimit(cell.spreadPercent, cell.unstableLimitPercent);
  cell.verdict = savedReportVerdict(cell);
  cell.suspect = failing(cell.verdict);
  return cell;
}

bool hasValue(const HealthyMatrix& m, std::size_t row, std::size_t col) {
  return row < m.cells.size() && col < m.cells[row].size() && !m.cells[row][col].values.empty();
}

void compareMatrices(const HealthyMatrix& b, const Matrix& c, Comparison& out,
                     const StopRequest& stop) {
  if (b.unit != c.unit) {
    out.notes.push_back(b.name + ": unit " + b.unit + " vs " + c.unit + ", not compared");
    out.onlyInBaseline.push_back(b.name);
    out.onlyInCurrent.push_back(c.name);
    return;
  }
  for (std::size_t r = 0; r < std::max(b.cells.size(), c.values.size()); ++r) {
    throwIfStopped(stop);
    const std::size_t cols = std::max(r < b.cells.size() ? b.cells[r].size() : 0,
                                      r < c.values.size() ? c.values[r].size() : 0);
    for (std::size_t col = 0; col < cols; ++col) {
      const bool inB = hasValue(b, r, col);
      const bool inC = at(c.values, r, col).has_value();
      if (inB && inC)
        out.cells.push_back(compareCell(b, c, r, col, out.tolerancePercent));
      else if (inB)
        out.onlyInBaseline.push_back(b.name + cellSuffix(r, col));
      else if (inC)
        out.onlyInCurrent.push_back(c.name + cellSuffix(r, col));
    }
  }
}

// Pairs the matrices by key, a repeated key (`-t 0 0`) occurrence by occurrence.
void compareAllMatrices(const BaselineReports& b, const Side& c, Comparison& out,
                        const StopRequest& stop) {
  std::map<std::string, std::deque<std::size_t>> unmatched;
  for (std::size_t i = 0; i < c.matrices.size(); ++i) unmatched[c.matrices[i].name].push_back(i);
  for (const HealthyMatrix& m : b.matrices) {
    auto& candidates = unmatched[m.name];
    if (candidates.empty()) {
      out.onlyInBaseline.push_back(m.name);
      continue;
    }
    compareMatrices(m, c.matrices[candidates.front()], out, stop);
    candidates.pop_front();
  }
  std::vector<bool> left(c.matrices.size(), false);
  for (const auto& entry : unmatched)
    for (std::size_t i : entry.second) left[i] = true;
  for (std::size_t i = 0; i < c.matrices.size(); ++i)
    if (left[i]) out.onlyInCurrent.push_back(c.matrices[i].name);
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

void noteDocuments(const BaselineReports& b, const Side& c, std::vector<std::string>& notes) {
  notes.insert(notes.end(), b.notes.begin(), b.notes.end());
  if (c.upstream)
    notes.push_back("current: upstream nvbandwidth v0.8 report: no samples, never UNSTABLE");
  notes.insert(notes.end(), c.runNotes.begin(), c.runNotes.end());
  if (b.gpus && c.gpus && *b.gpus != *c.gpus)
    notes.push_back("GPUs: " + std::to_string(*b.gpus) + " vs " + std::to_string(*c.gpus));
  if (b.settings && c.settings) noteSettings(*b.settings, *c.settings, "", notes);
}

}  // namespace

Comparison compareWithBaseline(const Baseline& baseline, const Report& current,
                               double tolerancePercent, const StopRequest& stop) {
  if (!std::isfinite(tolerancePercent) || tolerancePercent < 0.0)
    throw std::invalid_argument("the tolerance must be a percentage of 0 or more");
  if (baseline.reports() == 0) throw std::logic_error("a comparison needs a baseline report");
  throwIfStopped(stop);
  const Side c = sideOf(current, "current");
  const BaselineReports& b = baseline.merged();
  Comparison out;
  out.tolerancePercent = tolerancePercent;
  out.baselineReports = baseline.reports();
  noteDocuments(b, c, out.notes);
  compareAllMatrices(b, c, out, stop);
  if (b.machine.known() && c.machine.known() && !(b.machine == c.machine)) {
    out.differentMachines =
        "the baseline is of " + b.machine.text() + " and the current report of " + c.machine.text();
    for (CellComparison& cell : out.cells) {
      cell.verdict = Verdict::NotJudged;
      cell.suspect = false;
      cell.unstable = false;
    }
  }
  listUnmatchedStatuses(b.statuses, c.statuses, out.onlyInBaseline);
  listUnmatchedStatuses(c.statuses, b.statuses, out.onlyInCurrent);
  return out;
}

Comparison compareReports(const Report& baseline, const Report& current, double tolerancePercent,
                          const StopRequest& stop) {
  if (!std::isfinite(tolerancePercent) || tolerancePercent < 0.0)
    throw std::invalid_argument("the tolerance must be a percentage of 0 or more");
  Baseline b;
  b.add(baseline, "baseline", stop);
  return compareWithBaseline(b, current, tolerancePercent, stop);
}

std::vector<SuspectTestcase> suspectTestcases(const Comparison& c) {
  std::vector<SuspectTestcase> suspects;
  for (const CellComparison& cell : c.cells) {
    if (!cell.suspect) continue;
    const SuspectTestcase t{cell.testcase, cell.bufferSizeMiB};
    if (std::find(suspects.begin(), suspects.end(), t) == suspects.end()) suspects.push_back(t);
  }
  return suspects;
}

}  // namespace nvbw
