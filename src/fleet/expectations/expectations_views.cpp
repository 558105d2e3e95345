// The text and JSON views of an expectation check.
#include <locale>
#include <sstream>

#include "core/escape.h"
#include "core/format.h"
#include "core/text_view.h"
#include "fleet/expectations/expectations.h"

namespace nvbw {

using text_view::safe;
using text_view::wrappedList;

namespace {

// A limit as the file wrote it: "335", "48.5".
std::string limitText(double value) {
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s.precision(15);
  s << value;
  return s.str();
}

std::string cellName(const JudgedMatrix& m, const BelowCell& cell) {
  std::string name =
      safe(m.name) + " [" + std::to_string(cell.row) + "][" + std::to_string(cell.col) + "]";
  if (m.bufferSizeMiB) name += " at " + std::to_string(*m.bufferSizeMiB) + " MiB";
  return name;
}

std::string belowLine(const ExpectationResult& r, const BelowCell& cell) {
  const JudgedMatrix& m = r.matrices[cell.matrix];
  std::string line = "BELOW " + cellName(m, cell) + ": " + fixed2(cell.value) + " " + m.unit;
  if (r.check == ExpectationCheck::File)
    return line + ", " + boundName(cell.bound) + " " + limitText(cell.limit) + " " + m.unit +
           " (line " + std::to_string(cell.line) + ")\n";
  line += " is " + fixed2(cell.percentOfPeak.value_or(0.0)) + "% of";
  if (cell.peakGBps) line += " its " + fixed2(*cell.peakGBps) + " GB/s";
  line += " peak";
  if (!cell.link.empty()) line += " (" + safe(cell.link) + ")";
  return line + ", below " + limitText(cell.limit) + "%\n";
}

std::string unmetLine(const UnmetExpectation& u) {
  std::string line = "UNMET " + safe(u.expectation);
  if (u.line > 0) line += " (line " + std::to_string(u.line) + ")";
  return line + ": " + safe(u.detail) + "\n";
}

std::string notJudgedItem(const NotJudged& n) {
  std::string item = safe(n.name);
  if (n.bufferSizeMiB) item += " at " + std::to_string(*n.bufferSizeMiB) + " MiB";
  if (n.cells == 0) return item + " (" + safe(n.reason) + ")";
  return item + " (" + std::to_string(n.cells) + (n.cells == 1 ? " cell, " : " cells, ") +
         safe(n.reason) + ")";
}

std::string summaryLine(const ExpectationResult& r) {
  std::string line = "Expectations " + r.label + ": " + (r.passed() ? "PASSED" : "FAILED") + ": " +
                     std::to_string(r.judgedCells()) + " cells: " + std::to_string(r.metCells()) +
                     " met, " + std::to_string(r.belowCells()) + " BELOW; " +
                     std::to_string(r.unmet.size()) + " unmet";
  if (r.check == ExpectationCheck::PercentOfPeak)
    line += "; " + std::to_string(r.notJudgedCells()) + " not judged";
  return line + ".\n";
}

JudgedMatrixRecord matrixRecord(const ExpectationResult& r, const JudgedMatrix& m) {
  JudgedMatrixRecord j;
  j.name = m.name;
  j.testcase = m.testcase;
  j.unitText = m.unit;
  j.cells = m.cells;
  j.met = m.cells - m.below;
  j.below = m.below;
  j.bufferSizeMiB = m.bufferSizeMiB;
  if (r.check == ExpectationCheck::File)
    j.lines = std::vector<std::uint64_t>(m.lines.begin(), m.lines.end());
  return j;
}

BelowCellRecord belowRecord(const ExpectationResult& r, const BelowCell& cell) {
  const JudgedMatrix& m = r.matrices[cell.matrix];
  BelowCellRecord j;
  j.name = m.name;
  j.testcase = m.testcase;
  j.row = cell.row;
  j.col = cell.col;
  j.unitText = m.unit;
  j.value = cell.value;
  j.bound = boundName(cell.bound);
  j.limit = cell.limit;
  j.bufferSizeMiB = m.bufferSizeMiB;
  if (r.check == ExpectationCheck::File) {
    j.line = cell.line;
  } else {
    j.percentOfPeak.emplace(cell.percentOfPeak);  // null where not known
    j.peakGBps.emplace(cell.peakGBps);
    j.link.emplace(cell.link.empty() ? std::nullopt : std::optional<std::string>(cell.link));
  }
  return j;
}

UnmetRecord unmetRecord(const UnmetExpectation& u) {
  UnmetRecord j;
  j.line = u.line;
  j.expectation = u.expectation;
  j.reason = unmetReasonName(u.reason);
  j.detail = u.detail;
  return j;
}

NotJudgedRecord notJudgedRecord(const NotJudged& n) {
  NotJudgedRecord j;
  j.name = n.name;
  j.cells = n.cells;
  j.reason = n.reason;
  j.bufferSizeMiB = n.bufferSizeMiB;
  return j;
}

ExpectationLineRecord lineRecord(const Expectation& e) {
  ExpectationLineRecord j;
  j.line = e.line;
  j.name = e.key;
  j.testcase = e.testcase;
  j.cells = e.cells.text();
  j.unitText = e.unit;
  j.bound = boundName(e.bound());
  j.limit = e.limit;
  return j;
}

ExpectationCounts countsOf(const ExpectationResult& r) {
  ExpectationCounts c;
  c.cells = r.judgedCells();
  c.met = r.metCells();
  c.below = r.belowCells();
  c.belowNotListed = r.belowCells() - r.below.size();
  c.unmet = r.unmet.size();
  c.notJudged = r.notJudgedCells();
  return c;
}

// Each element of `items` as a record.
template <typename T, typename Make>
auto recordsOf(const std::vector<T>& items, Make make) -> std::vector<decltype(make(items[0]))> {
  std::vector<decltype(make(items[0]))> out;
  out.reserve(items.size());
  for (const T& item : items) out.push_back(make(item));
  return out;
}

}  // namespace

std::string expectationText(const ExpectationResult& r) {
  std::string text;
  for (const BelowCell& cell : r.below) text += belowLine(r, cell);
  if (r.belowCells() > r.below.size())
    text += "BELOW ... and " + std::to_string(r.belowCells() - r.below.size()) +
            " more cells, not listed\n";
  for (const UnmetExpectation& u : r.unmet) text += unmetLine(u);
  std::vector<std::string> items;
  for (const NotJudged& n : r.notJudged) items.push_back(notJudgedItem(n));
  text += wrappedList("Not judged", items);
  for (const std::string& note : r.notes) text += "Note: " + safe(note) + "\n";
  return text + summaryLine(r);
}

ExpectationSection expectationJson(const ExpectationResult& r) {
  ExpectationSection j;
  j.check = r.check == ExpectationCheck::File ? "file" : "percent_of_peak";
  j.label = r.label;
  j.passed = r.passed();
  j.summary = countsOf(r);
  j.matrices = recordsOf(r.matrices, [&r](const JudgedMatrix& m) { return matrixRecord(r, m); });
  j.below = recordsOf(r.below, [&r](const BelowCell& cell) { return belowRecord(r, cell); });
  j.unmet = recordsOf(r.unmet, unmetRecord);
  j.notJudged = recordsOf(r.notJudged, notJudgedRecord);
  j.notes = r.notes;
  if (r.check == ExpectationCheck::File) {
    j.file = r.path;
    j.lines = recordsOf(r.expectations, lineRecord);
  } else {
    j.minPercentOfPeak = r.minPercent;
  }
  return j;
}

std::vector<ExpectationSection> expectationsSection(const std::vector<ExpectationResult>& results) {
  return recordsOf(results, expectationJson);
}

}  // namespace nvbw
