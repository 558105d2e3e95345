#include "fleet/comparison/comparison.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "core/statistics.h"
#include "fleet/comparison/comparison_report.h"
#include "fleet/report_keys.h"

namespace nvbw {

using nlohmann::json;
using namespace comparison;

const char* verdictName(Verdict v) {
  switch (v) {
  case Verdict::Slower:
    return "SLOWER";
  case Verdict::Faster:
    return "FASTER";
  case Verdict::Noisy:
    return "NOISY";
  case Verdict::Same:
    break;
  }
  return "SAME";
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

// ---- Comparing ----

double changePercent(double baseline, double current) {
  if (baseline != 0.0) return (current - baseline) / baseline * 100.0;
  if (current == 0.0) return 0.0;
  return std::copysign(std::numeric_limits<double>::infinity(), current);
}

// A change that makes the cell worse: lower bandwidth, higher latency.
bool worse(double change, bool lowerIsBetter) { return (change > 0.0) == lowerIsBetter; }

bool beyond(double change, double band) { return std::fabs(change) > band; }

// The change between the sides' closest samples in the direction of `change`: for a cell that
// got larger, the current's smallest sample against the baseline's largest; for one that got
// smaller, the other way round. A side without samples is its value.
double separationPercent(double change, const CellComparison& cell, const std::optional<Spread>& b,
                         const std::optional<Spread>& c) {
  const double bMin = b ? b->min : cell.baseline, bMax = b ? b->max : cell.baseline;
  const double cMin = c ? c->min : cell.current, cMax = c ? c->max : cell.current;
  return change > 0.0 ? changePercent(bMax, cMin) : changePercent(bMin, cMax);
}

// The saved-report rule: beyond the band, SLOWER or FASTER only where the samples separate by
// more than the band, NOISY where they do not.
Verdict savedReportVerdict(const CellComparison& cell) {
  if (!beyond(cell.changePercent, cell.bandPercent)) return Verdict::Same;
  const double separation = cell.separationPercent.value_or(0.0);
  const bool separated = (separation > 0.0) == (cell.changePercent > 0.0) && separation != 0.0 &&
                         beyond(separation, cell.bandPercent);
  if (!separated) return Verdict::Noisy;
  return worse(cell.changePercent, cell.unit == "ns") ? Verdict::Slower : Verdict::Faster;
}

CellComparison compareCell(const Matrix& b, const Matrix& c, std::size_t row, std::size_t col,
                           double tolerancePercent) {
  CellComparison cell;
  cell.name = b.name;
  cell.testcase = c.testcase;
  cell.bufferSizeMiB = c.bufferSizeMiB;
  cell.row = row;
  cell.col = col;
  cell.unit = b.unit;
  cell.baseline = *at(b.values, row, col);
  cell.current = *at(c.values, row, col);
  cell.changePercent = changePercent(cell.baseline, cell.current);
  const std::optional<Spread> spreadB = at(b.spread, row, col);
  const std::optional<Spread> spreadC = at(c.spread, row, col);
  cell.baselineMin = spreadB ? spreadB->min : cell.baseline;
  cell.baselineMax = spreadB ? spreadB->max : cell.baseline;
  cell.currentMin = spreadC ? spreadC->min : cell.current;
  cell.currentMax = spreadC ? spreadC->max : cell.current;
  const double noise =
      std::max(spreadB ? spreadB->noisePercent : 0.0, spreadC ? spreadC->noisePercent : 0.0);
  cell.basis = noise > tolerancePercent ? "noise" : "tolerance";
  cell.bandPercent = std::max(noise, tolerancePercent);
  if (beyond(cell.changePercent, cell.bandPercent)) {
    cell.separationPercent = separationPercent(cell.changePercent, cell, spreadB, spreadC);
    cell.suspect = worse(cell.changePercent, cell.unit == "ns");
  }
  cell.verdict = savedReportVerdict(cell);
  return cell;
}

void compareMatrices(const Matrix& b, const Matrix& c, Comparison& out, const StopRequest& stop) {
  if (b.unit != c.unit) {
    out.notes.push_back(b.name + ": unit " + b.unit + " vs " + c.unit + ", not compared");
    out.onlyInBaseline.push_back(b.name);
    out.onlyInCurrent.push_back(c.name);
    return;
  }
  for (std::size_t r = 0; r < std::max(b.values.size(), c.values.size()); ++r) {
    throwIfStopped(stop);
    const std::size_t cols = std::max(r < b.values.size() ? b.values[r].size() : 0,
                                      r < c.values.size() ? c.values[r].size() : 0);
    for (std::size_t col = 0; col < cols; ++col) {
      const bool inB = at(b.values, r, col).has_value();
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
void compareAllMatrices(const Report& b, const Report& c, Comparison& out,
                        const StopRequest& stop) {
  std::map<std::string, std::deque<std::size_t>> unmatched;
  for (std::size_t i = 0; i < c.matrices.size(); ++i) unmatched[c.matrices[i].name].push_back(i);
  for (const Matrix& m : b.matrices) {
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

std::string settingText(const json* value) {
  if (!value) return "absent";
  return value->is_string() ? value->get<std::string>() : value->dump();
}

void noteSettings(const json& b, const json& c, std::vector<std::string>& notes) {
  std::set<std::string> keys;
  for (const auto& item : b.items()) keys.insert(item.key());
  for (const auto& item : c.items()) keys.insert(item.key());
  for (const std::string& key : keys) {
    const json* vb = findMember(b, key.c_str());
    const json* vc = findMember(c, key.c_str());
    if (!vb || !vc || *vb != *vc)
      notes.push_back(key + ": " + settingText(vb) + " vs " + settingText(vc));
  }
}

void noteDocuments(const Report& b, const Report& c, std::vector<std::string>& notes) {
  if (b.upstream)
    notes.push_back("baseline: upstream nvbandwidth v0.8 report: no samples, tolerance applies");
  if (c.upstream)
    notes.push_back("current: upstream nvbandwidth v0.8 report: no samples, tolerance applies");
  notes.insert(notes.end(), b.runNotes.begin(), b.runNotes.end());
  notes.insert(notes.end(), c.runNotes.begin(), c.runNotes.end());
  if (b.gpus && c.gpus && *b.gpus != *c.gpus)
    notes.push_back("GPUs: " + std::to_string(*b.gpus) + " vs " + std::to_string(*c.gpus));
  if (b.settings && c.settings) noteSettings(*b.settings, *c.settings, notes);
}

}  // namespace

Comparison compareReports(const json& baseline, const json& current, double tolerancePercent,
                          const StopRequest& stop) {
  if (!std::isfinite(tolerancePercent) || tolerancePercent < 0.0)
    throw std::invalid_argument("the tolerance must be a percentage of 0 or more");
  const Report b = readReport(baseline, "baseline", stop);
  const Report c = readReport(current, "current", stop);
  Comparison out;
  out.tolerancePercent = tolerancePercent;
  noteDocuments(b, c, out.notes);
  compareAllMatrices(b, c, out, stop);
  listUnmatchedStatuses(b.statuses, c.statuses, out.onlyInBaseline);
  listUnmatchedStatuses(c.statuses, b.statuses, out.onlyInCurrent);
  return out;
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

namespace {

// The confirmation runs' matrices by (key, sweep size), each list in run order.
using ConfirmationMatrices =
    std::map<std::pair<std::string, std::optional<std::uint64_t>>, std::vector<Matrix>>;

ConfirmationMatrices readConfirmations(const json& entries) {
  const Where where{"confirmations", ""};
  if (!entries.is_array()) where.reject("is not an array");
  std::vector<std::pair<std::int64_t, Matrix>> numbered;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Where at{"confirmations", "[" + std::to_string(i) + "]"};
    const json* run =
        entries[i].is_object() ? findMember(entries[i], keys::kConfirmationRun) : nullptr;
    if (!run || !run->is_number_integer() || run->get<std::int64_t>() < 1)
      at.reject("has no confirmation number");
    std::vector<Matrix> matrices;
    readOurEntry(entries[i], at, matrices);
    for (Matrix& m : matrices) numbered.emplace_back(run->get<std::int64_t>(), std::move(m));
  }
  std::stable_sort(numbered.begin(), numbered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ConfirmationMatrices byKey;
  for (auto& [run, m] : numbered) byKey[{m.name, m.bufferSizeMiB}].push_back(std::move(m));
  return byKey;
}

// A suspect cell's confirmations: each one's value and its samples' most favourable one (the
// largest bandwidth, the smallest latency).
struct Confirmed {
  std::vector<double> values;
  std::vector<double> mostFavourable;
};

Confirmed confirmationsOf(const CellComparison& cell, const std::vector<Matrix>& runs) {
  Confirmed out;
  for (const Matrix& m : runs) {
    const std::optional<double> value = at(m.values, cell.row, cell.col);
    if (!value) continue;
    const std::optional<Spread> spread = at(m.spread, cell.row, cell.col);
    out.values.push_back(*value);
    out.mostFavourable.push_back(!spread ? *value : cell.unit == "ns" ? spread->min : spread->max);
  }
  return out;
}

// A suspect cell with its confirmations: SLOWER when the median of the first measurement and the
// confirmations is still beyond the band in the slower direction and even the most favourable
// sample of all of them is beyond the band from the baseline's least favourable one; NOISY
// otherwise (comparison.h says why both).
void confirmCell(CellComparison& cell, const Confirmed& confirmed) {
  const bool lowerIsBetter = cell.unit == "ns";
  cell.confirmations = confirmed.values;
  std::vector<double> all = confirmed.values;
  all.push_back(cell.current);
  cell.confirmedMedian = median(all);
  cell.confirmedChangePercent = changePercent(cell.baseline, *cell.confirmedMedian);
  std::vector<double> favourable = confirmed.mostFavourable;
  favourable.push_back(lowerIsBetter ? cell.currentMin : cell.currentMax);
  const double best = lowerIsBetter ? *std::min_element(favourable.begin(), favourable.end())
                                    : *std::max_element(favourable.begin(), favourable.end());
  cell.separationPercent = changePercent(lowerIsBetter ? cell.baselineMax : cell.baselineMin, best);
  const bool medianWorse = beyond(*cell.confirmedChangePercent, cell.bandPercent) &&
                           worse(*cell.confirmedChangePercent, lowerIsBetter);
  const bool separated = beyond(*cell.separationPercent, cell.bandPercent) &&
                         worse(*cell.separationPercent, lowerIsBetter);
  cell.verdict = medianWorse && separated ? Verdict::Slower : Verdict::Noisy;
}

}  // namespace

void applyConfirmations(Comparison& c, const json& entries, const ConfirmationSummary& summary) {
  const ConfirmationMatrices byKey = readConfirmations(entries);
  ConfirmationSummary applied = summary;
  applied.unconfirmed = 0;
  for (CellComparison& cell : c.cells) {
    if (!cell.suspect) continue;
    cell.confirmations.clear();
    const auto found = byKey.find({cell.name, cell.bufferSizeMiB});
    const Confirmed confirmed =
        found == byKey.end() ? Confirmed{} : confirmationsOf(cell, found->second);
    if (confirmed.values.empty()) {
      ++applied.unconfirmed;
      continue;
    }
    confirmCell(cell, confirmed);
  }
  if (applied.unconfirmed > 0)
    c.notes.push_back(std::to_string(applied.unconfirmed) +
                      " suspect cells have no confirmation (their testcase failed or the run "
                      "stopped): judged as saved reports are");
  c.confirmation = std::move(applied);
}

}  // namespace nvbw
