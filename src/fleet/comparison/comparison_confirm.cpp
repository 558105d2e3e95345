// The confirmation of suspect cells with a run's confirmation runs (comparison.h).
#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "core/statistics.h"
#include "fleet/comparison/comparison.h"

namespace nvbw {

using namespace comparison;

namespace {

// The confirmation runs' matrices by (key, sweep size), each list in run order.
using ConfirmationMatrices =
    std::map<std::pair<std::string, std::optional<std::uint64_t>>, std::vector<MatrixView>>;

ConfirmationMatrices readConfirmations(const std::vector<ReportEntry>& entries) {
  std::vector<std::pair<std::uint64_t, MatrixView>> numbered;
  for (const ReportEntry& entry : entries) {
    if (!entry.confirmationRun || *entry.confirmationRun < 1)
      throw std::invalid_argument("a confirmation entry without its run: " + entry.name);
    if (entry.passedWithMatrix())
      for (const MatrixPart& part : entry.parts)
        numbered.emplace_back(*entry.confirmationRun, MatrixView(entry, part));
  }
  std::stable_sort(numbered.begin(), numbered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ConfirmationMatrices byKey;
  for (const auto& [run, m] : numbered) byKey[{m.key(), sweepSizeOf(m)}].push_back(m);
  return byKey;
}

// A suspect cell judged on its first measurement and its confirmations (its value and spread in
// each confirmation run that measured it): SLOWER when the median of their values is beyond the
// band in the slower direction, else UNSTABLE when the median of their spreads is above the
// unstable limit, else NOISY. False when no run measured it.
bool confirmCell(ComparedCellRecord& cell, const std::vector<MatrixView>& runs) {
  std::vector<double> values;
  std::vector<OrNull> spreads;
  for (const MatrixView& m : runs)
    if (const OrNull value = m.value(*cell.row, *cell.col)) {
      values.push_back(*value);
      spreads.push_back(cellSpread(m, *cell.row, *cell.col));
    }
  if (values.empty()) return false;
  cell.confirmations = values;
  cell.confirmationSpreads = spreads;
  values.push_back(*cell.current);
  cell.confirmedMedian = median(values);
  const double change = changePercent(*cell.baseline, *cell.confirmedMedian);
  cell.confirmedChangePercent = finiteOrNull(change);
  std::vector<double> known;
  if (cell.spreadPercent) known.push_back(*cell.spreadPercent);
  for (const OrNull& spread : spreads)
    if (spread) known.push_back(*spread);
  cell.confirmedSpreadPercent = known.empty() ? std::nullopt : OrNull(median(known));
  cell.unstable =
      cell.confirmedSpreadPercent && *cell.confirmedSpreadPercent > *cell.unstableLimitPercent;
  const Verdict verdict = slowerBeyondBand(change, *cell.bandPercent, *cell.unitText)
                              ? Verdict::Slower
                          : *cell.unstable ? Verdict::Unstable
                                           : Verdict::Noisy;
  cell.verdict = verdictName(verdict);
  return true;
}

}  // namespace

void applyConfirmations(ComparisonSection& c, const std::vector<ReportEntry>& entries,
                        const ConfirmationRecord& summary) {
  const ConfirmationMatrices byKey = readConfirmations(entries);
  std::uint64_t unconfirmed = 0;
  for (ComparedCellRecord& cell : *c.cells) {
    if (cell.suspect != true) continue;
    const auto found = byKey.find({cell.name, cell.bufferSizeMiB});
    if (found == byKey.end() || !confirmCell(cell, found->second)) ++unconfirmed;
  }
  if (unconfirmed > 0)
    c.notes->push_back(std::to_string(unconfirmed) +
                       " suspect cells have no confirmation (their testcase failed or the run "
                       "stopped): judged as saved reports are");
  c.rule = "confirmed";
  ConfirmationRecord& applied = c.confirmation.emplace(summary);
  applied.runs = applied.runs.value_or(0);
  applied.testcases = applied.testcases.value_or(std::vector<SuspectRecord>{});
  applied.seconds = applied.seconds.value_or(0.0);
  applied.unconfirmed = unconfirmed;
  countCells(c);
}

}  // namespace nvbw
