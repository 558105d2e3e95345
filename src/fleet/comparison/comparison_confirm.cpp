// The confirmation of suspect cells with a run's confirmation runs (comparison.h).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "core/statistics.h"
#include "fleet/comparison/comparison.h"
#include "fleet/comparison/comparison_report.h"
#include "fleet/comparison/comparison_rules.h"

namespace nvbw {

using namespace comparison;

namespace {

// The confirmation runs' matrices by (key, sweep size), each list in run order.
using ConfirmationMatrices =
    std::map<std::pair<std::string, std::optional<std::uint64_t>>, std::vector<Matrix>>;

ConfirmationMatrices readConfirmations(const std::vector<ReportEntry>& entries) {
  std::vector<std::pair<std::uint64_t, Matrix>> numbered;
  for (const ReportEntry& entry : entries) {
    if (!entry.confirmationRun || *entry.confirmationRun < 1)
      throw std::invalid_argument("a confirmation entry without its run: " + entry.name);
    for (Matrix& m : matricesOf(entry)) numbered.emplace_back(*entry.confirmationRun, std::move(m));
  }
  std::stable_sort(numbered.begin(), numbered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ConfirmationMatrices byKey;
  for (auto& [run, m] : numbered) byKey[{m.name, m.bufferSizeMiB}].push_back(std::move(m));
  return byKey;
}

// A suspect cell's value and spread in each confirmation run that measured it.
void collectConfirmations(CellComparison& cell, const std::vector<Matrix>& runs) {
  for (const Matrix& m : runs) {
    const std::optional<double> value = at(m.values, cell.row, cell.col);
    if (!value) continue;
    cell.confirmations.push_back(*value);
    cell.confirmationSpreads.push_back(at(m.spread, cell.row, cell.col));
  }
}

// A suspect cell judged on its first measurement and its confirmations: SLOWER when the median
// of their values is beyond the band in the slower direction, else UNSTABLE when the median of
// their spreads is above the unstable limit, else NOISY.
void confirmCell(CellComparison& cell) {
  std::vector<double> values = cell.confirmations;
  values.push_back(cell.current);
  cell.confirmedMedian = median(values);
  cell.confirmedChangePercent = changePercent(cell.baseline, *cell.confirmedMedian);
  std::vector<double> spreads;
  if (cell.spreadPercent) spreads.push_back(*cell.spreadPercent);
  for (const std::optional<double>& s : cell.confirmationSpreads)
    if (s) spreads.push_back(*s);
  cell.confirmedSpreadPercent =
      spreads.empty() ? std::nullopt : std::optional<double>(median(spreads));
  cell.unstable = aboveUnstableLimit(cell.confirmedSpreadPercent, cell.unstableLimitPercent);
  if (slowerBeyondBand(*cell.confirmedChangePercent, cell.bandPercent, cell.unit))
    cell.verdict = Verdict::Slower;
  else if (cell.unstable)
    cell.verdict = Verdict::Unstable;
  else
    cell.verdict = Verdict::Noisy;
}

}  // namespace

void applyConfirmations(Comparison& c, const std::vector<ReportEntry>& entries,
                        const ConfirmationSummary& summary) {
  const ConfirmationMatrices byKey = readConfirmations(entries);
  ConfirmationSummary applied = summary;
  applied.unconfirmed = 0;
  for (CellComparison& cell : c.cells) {
    if (!cell.suspect) continue;
    cell.confirmations.clear();
    cell.confirmationSpreads.clear();
    const auto found = byKey.find({cell.name, cell.bufferSizeMiB});
    if (found != byKey.end()) collectConfirmations(cell, found->second);
    if (cell.confirmations.empty()) {
      ++applied.unconfirmed;
      continue;
    }
    confirmCell(cell);
  }
  if (applied.unconfirmed > 0)
    c.notes.push_back(std::to_string(applied.unconfirmed) +
                      " suspect cells have no confirmation (their testcase failed or the run "
                      "stopped): judged as saved reports are");
  c.confirmation = std::move(applied);
}

}  // namespace nvbw
