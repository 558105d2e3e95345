// The text view of an expectation check, from its section of the report as the check made it
// (every list and count present).
#include "core/format.h"
#include "core/text_view.h"
#include "fleet/expectations/expectations.h"

namespace nvbw {

using text_view::safe;
using text_view::wrappedList;

namespace {

std::string count(const std::optional<std::uint64_t>& n) { return std::to_string(n.value_or(0)); }

std::string belowLine(bool fileCheck, const BelowCellRecord& cell) {
  const std::string unit = cell.unitText.value_or("");
  const std::string limit = significant(cell.limit.value_or(0.0), 15);  // as the file wrote it
  std::string line = "BELOW " + safe(cell.name.value_or("")) + " " +
                     cellName(cell.row.value_or(0), cell.col.value_or(0)) +
                     atSize(cell.bufferSizeMiB) + ": " + fixed(cell.value.value_or(0.0)) + " " +
                     unit;
  if (fileCheck)
    return line + ", " + cell.bound.value_or("") + " " + limit + " " + unit + " (line " +
           count(cell.line) + ")\n";
  line += " is " + fixed(cell.percentOfPeak.value_or(std::nullopt).value_or(0.0)) + "% of";
  if (const OrNull peak = cell.peakGBps.value_or(std::nullopt))
    line += " its " + fixed(*peak) + " GB/s";
  line += " peak";
  if (const auto link = cell.link.value_or(std::nullopt)) line += " (" + safe(*link) + ")";
  return line + ", below " + limit + "%\n";
}

std::string unmetLine(const UnmetRecord& u) {
  std::string line = "UNMET " + safe(u.expectation.value_or(""));
  if (u.line.value_or(0) > 0) line += " (line " + count(u.line) + ")";
  return line + ": " + safe(u.detail.value_or("")) + "\n";
}

std::string notJudgedItem(const NotJudgedRecord& n) {
  const std::string item = safe(n.name.value_or("")) + atSize(n.bufferSizeMiB);
  const std::uint64_t cells = n.cells.value_or(0);
  const std::string reason = safe(n.reason.value_or(""));
  if (cells == 0) return item + " (" + reason + ")";
  return item + " (" + std::to_string(cells) + (cells == 1 ? " cell, " : " cells, ") + reason + ")";
}

std::string summaryLine(const ExpectationSection& check, bool fileCheck) {
  const ExpectationCounts c = check.summary.value_or(ExpectationCounts{});
  std::string line = "Expectations " + check.label.value_or("") + ": " +
                     (check.passed.value_or(false) ? "PASSED" : "FAILED") + ": " + count(c.cells) +
                     " cells: " + count(c.met) + " met, " + count(c.below) + " BELOW; " +
                     count(c.unmet) + " unmet";
  if (!fileCheck) line += "; " + count(c.notJudged) + " not judged";
  return line + ".\n";
}

}  // namespace

std::string expectationText(const ExpectationSection& check) {
  const bool fileCheck = check.check == "file";
  std::string text;
  for (const BelowCellRecord& cell : *check.below) text += belowLine(fileCheck, cell);
  const std::uint64_t notListed = *check.summary->belowNotListed;
  if (notListed > 0)
    text += "BELOW ... and " + std::to_string(notListed) + " more cells, not listed\n";
  for (const UnmetRecord& u : *check.unmet) text += unmetLine(u);
  std::vector<std::string> items;
  for (const NotJudgedRecord& n : *check.notJudged) items.push_back(notJudgedItem(n));
  text += wrappedList("Not judged", items);
  for (const std::string& note : *check.notes) text += "Note: " + safe(note) + "\n";
  return text + summaryLine(check, fileCheck);
}

}  // namespace nvbw
