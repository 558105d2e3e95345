#include <array>

#include "core/format.h"
#include "core/text_view.h"
#include "fleet/comparison/comparison.h"

namespace nvbw {

using text_view::safe;
using text_view::wrappedList;

std::string changeText(const std::optional<OrNull>& change) {
  const OrNull value = change.value_or(std::nullopt);
  if (!value) return "n/a";
  return (*value > 0 ? "+" : "") + fixed(*value) + "%";
}

namespace {

std::string tableRow(const std::array<std::string, 8>& f) {
  return "  " + leftAligned(f[0], 8) + rightAligned(f[1], 11) + rightAligned(f[2], 11) +
         rightAligned(f[3], 11) + "  " + leftAligned(f[4], 8) + rightAligned(f[5], 9) + "  " +
         leftAligned(f[6], 11) + f[7] + "\n";
}

std::string valueList(const std::vector<double>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + fixed(values[i]);
  return text;
}

std::string percentText(double value) { return fixed(value) + "%"; }

// The line under a cell that says how its verdict was reached beyond the band: its
// confirmations, or its samples' spread where it is above the unstable limit.
std::string explanationLine(const ComparedCellRecord& cell) {
  const std::string limit = percentText(cell.unstableLimitPercent.value_or(0.0));
  if (cell.confirmations) {
    const std::size_t n = cell.confirmations->size();
    std::string line = "    confirmations " + valueList(*cell.confirmations) + ": median of " +
                       std::to_string(n + 1) + " " + fixed(cell.confirmedMedian.value_or(0.0)) +
                       " (" + changeText(cell.confirmedChangePercent) + ")";
    if (cell.confirmedSpreadPercent)
      line +=
          "\n    median spread " + percentText(*cell.confirmedSpreadPercent) + ", limit " + limit;
    return line + "\n";
  }
  if (cell.unstable == true && cell.spreadPercent)
    return "    samples spread " + percentText(*cell.spreadPercent) +
           ", above the unstable limit " + limit + "\n";
  return "";
}

// What the failing and inconclusive verdicts of the table mean.
std::string footnotes(bool unstable, bool noisy) {
  std::string text;
  if (unstable)
    text += "UNSTABLE: its samples spread more than three times as much as healthy runs'\n"
            "(and more than 5%): failing.\n";
  if (noisy)
    text += "NOISY: slower or unstable at first, not in most of its confirmations: reported,\n"
            "never failing.\n";
  return text;
}

// The line that names the matrix key (and sweep size) of `cell`, where its group starts.
std::string groupHeading(const ComparedCellRecord*& group, const ComparedCellRecord& cell) {
  const bool same = group && group->name == cell.name && group->bufferSizeMiB == cell.bufferSizeMiB;
  group = &cell;
  return same ? "" : safe(cell.name) + atSize(cell.bufferSizeMiB) + "\n";
}

// Every cell with its change and no verdict, for reports of different machines.
std::string sideBySideTable(const ComparisonSection& c) {
  std::string text = "No verdict: " + safe(*c.differentMachines) +
                     "; a change between different machines says nothing of either.\n" +
                     tableRow({"cell", "baseline", "current", "change", "unit"});
  const ComparedCellRecord* group = nullptr;
  for (const ComparedCellRecord& cell : *c.cells) {
    text += groupHeading(group, cell);
    text += tableRow({cellName(*cell.row, *cell.col), fixed(*cell.baseline), fixed(*cell.current),
                      changeText(cell.changePercent), *cell.unitText});
  }
  return text;
}

// The cells that are not SAME, grouped under their matrix key (a key can be 60 characters long,
// too long for a column of an 80-column table).
std::string changedCellsTable(const ComparisonSection& c) {
  if (c.differentMachines) return sideBySideTable(c);
  std::string text;
  bool noisy = false, unstable = false;
  const ComparedCellRecord* group = nullptr;
  for (const ComparedCellRecord& cell : *c.cells) {
    if (cell.verdict == verdictName(Verdict::Same)) continue;
    if (text.empty())
      text = "Cells beyond their band:\n" + tableRow({"cell", "baseline", "current", "change",
                                                      "verdict", "band", "basis", "unit"});
    text += groupHeading(group, cell);
    noisy = noisy || cell.verdict == verdictName(Verdict::Noisy);
    unstable = unstable || cell.verdict == verdictName(Verdict::Unstable);
    text += tableRow({cellName(*cell.row, *cell.col), fixed(*cell.baseline), fixed(*cell.current),
                      changeText(cell.changePercent), *cell.verdict, percentText(*cell.bandPercent),
                      *cell.basis, *cell.unitText});
    text += explanationLine(cell);
  }
  return text + footnotes(unstable, noisy);
}

std::string confirmationLine(const ComparisonSection& c) {
  if (!c.confirmation) return "";
  const ConfirmationRecord& s = *c.confirmation;
  std::vector<std::string> names;
  for (const SuspectRecord& t : *s.testcases)
    names.push_back(safe(*t.testcase + atSize(t.bufferSizeMiB)));
  if (names.empty())
    return "Confirmation: no cell was slower or unstable; nothing was measured again.\n";
  const std::string title = "Confirmation of " + std::to_string(suspectCells(c)) + " suspect cell" +
                            (suspectCells(c) == 1 ? "" : "s") + ", " + std::to_string(*s.runs) +
                            " more run" + (*s.runs == 1 ? "" : "s") + " (" + fixed(*s.seconds) +
                            " s) of";
  return wrappedList(title, names, false);
}

}  // namespace

std::string comparisonBaselineLine(const ComparisonSection& c) {
  if (c.baselineReports.value_or(1) < 2) return "";
  return "Baseline: " + std::to_string(*c.baselineReports) +
         " reports: each cell against their median, its band from their spread.";
}

std::string comparisonSummaryLine(const ComparisonSection& c) {
  const ComparisonCounts n = c.summary.value_or(ComparisonCounts{});
  const auto count = [](const auto& k) { return k ? std::to_string(*k) : "unknown"; };
  const std::string oneSided = count(n.onlyInBaseline) + " only in baseline, " +
                               count(n.onlyInCurrent) + " only in current.";
  const std::string cells = "Comparison: " + count(n.cells) + " cells";
  if (c.differentMachines)
    return cells + ", not judged: the reports come from different machines; " + oneSided;
  return cells + ": " + count(n.same) + " SAME, " + count(n.slower) + " SLOWER, " +
         count(n.faster) + " FASTER, " + count(n.noisy) + " NOISY, " + count(n.unstable) +
         " UNSTABLE; " + oneSided;
}

std::string comparisonText(const ComparisonSection& c) {
  const std::string baseline = comparisonBaselineLine(c);
  std::string text;
  for (const std::string& section :
       {baseline.empty() ? baseline : baseline + "\n", confirmationLine(c), changedCellsTable(c),
        wrappedList("Only in baseline", text_view::safeAll(*c.onlyInBaseline)),
        wrappedList("Only in current", text_view::safeAll(*c.onlyInCurrent))})
    if (!section.empty()) text += section + "\n";
  for (const std::string& note : *c.notes) text += "Note: " + safe(note) + "\n";
  if (!c.notes->empty()) text += "\n";
  return text + comparisonSummaryLine(c) + "\n";
}

}  // namespace nvbw
