// The text view of an expectation check, from its section of the report: as the check made it
// (every list and count present) or as a saved report holds it (the HTML page's).
#include "core/format.h"
#include "core/text_view.h"
#include "fleet/expectations/expectations.h"

namespace nvbw {

using text_view::safe;
using text_view::wrappedList;

namespace {

// A number of the section; "unknown" where a saved report's record lacks it.
std::string count(const std::optional<std::uint64_t>& n) {
  return n ? std::to_string(*n) : "unknown";
}
std::string fixedOr(const OrNull& value) { return value ? fixed(*value) : "unknown"; }

std::string unmetLine(const UnmetRecord& u) {
  std::string line = "UNMET " + safe(u.expectation.value_or(""));
  if (u.line.value_or(0) > 0) line += " (line " + count(u.line) + ")";
  return line + ": " + safe(u.detail.value_or(""));
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
  return line + ".";
}

}  // namespace

std::string belowCellLine(const BelowCellRecord& cell) {
  const std::string unit = cell.unitText.value_or("");
  const std::string limit = cell.limit ? significant(*cell.limit, 15) : "unknown";  // as written
  std::string line = "BELOW " + safe(cell.name.value_or("")) + " [" + count(cell.row) + "][" +
                     count(cell.col) + "]" + atSize(cell.bufferSizeMiB) + ": " +
                     fixedOr(cell.value) + " " + unit;
  if (cell.line)  // a file's line judged it; else --min-percent-of-peak
    return line + ", " + cell.bound.value_or("") + " " + limit + " " + unit + " (line " +
           count(cell.line) + ")";
  line += " is " + fixedOr(cell.percentOfPeak.value_or(std::nullopt)) + "% of";
  if (const OrNull peak = cell.peakGBps.value_or(std::nullopt))
    line += " its " + fixed(*peak) + " GB/s";
  line += " peak";
  if (const auto link = cell.link.value_or(std::nullopt)) line += " (" + safe(*link) + ")";
  return line + ", below " + limit + "%";
}

std::vector<std::string> expectationLines(const ExpectationSection& check) {
  std::vector<std::string> lines;
  for (const BelowCellRecord& cell : orEmpty(check.below)) lines.push_back(belowCellLine(cell));
  const std::uint64_t notListed = check.summary ? check.summary->belowNotListed.value_or(0) : 0;
  if (notListed > 0)
    lines.push_back("BELOW ... and " + std::to_string(notListed) + " more cells, not listed");
  for (const UnmetRecord& u : orEmpty(check.unmet)) lines.push_back(unmetLine(u));
  std::vector<std::string> items;
  for (const NotJudgedRecord& n : orEmpty(check.notJudged)) items.push_back(notJudgedItem(n));
  if (const std::string list = wrappedList("Not judged", items); !list.empty())
    lines.push_back(list.substr(0, list.size() - 1));  // its lines wrapped, less the last newline
  for (const std::string& note : orEmpty(check.notes)) lines.push_back("Note: " + safe(note));
  lines.push_back(summaryLine(check, check.check == "file"));
  return lines;
}

std::string expectationText(const ExpectationSection& check) {
  std::string text;
  for (const std::string& line : expectationLines(check)) text += line + "\n";
  return text;
}

}  // namespace nvbw
