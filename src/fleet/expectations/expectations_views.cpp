// The text and JSON views of an expectation check.
#include <locale>
#include <sstream>

#include "core/escape.h"
#include "core/format.h"
#include "core/text_view.h"
#include "fleet/expectations/expectations.h"
#include "model/report_keys.h"

namespace nvbw {

using nlohmann::json;
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

json optionalNumber(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json matrixJson(const ExpectationResult& r, const JudgedMatrix& m) {
  json j = {{keys::kName, m.name},   {keys::kTestcase, m.testcase}, {keys::kUnit, m.unit},
            {keys::kCells, m.cells}, {"met", m.cells - m.below},    {"below", m.below}};
  if (m.bufferSizeMiB) j[keys::kBufferSizeMiB] = *m.bufferSizeMiB;
  if (r.check == ExpectationCheck::File) j["lines"] = m.lines;
  return j;
}

json belowJson(const ExpectationResult& r, const BelowCell& cell) {
  const JudgedMatrix& m = r.matrices[cell.matrix];
  json j = {{keys::kName, m.name},
            {keys::kTestcase, m.testcase},
            {keys::kRow, cell.row},
            {keys::kCol, cell.col},
            {keys::kUnit, m.unit},
            {"value", cell.value},
            {"bound", boundName(cell.bound)},
            {"limit", cell.limit}};
  if (m.bufferSizeMiB) j[keys::kBufferSizeMiB] = *m.bufferSizeMiB;
  if (r.check == ExpectationCheck::File) {
    j["line"] = cell.line;
  } else {
    j[keys::kPercentOfPeak] = optionalNumber(cell.percentOfPeak);
    j[keys::kPeakGBps] = optionalNumber(cell.peakGBps);
    j["link"] = cell.link.empty() ? json(nullptr) : json(cell.link);
  }
  return j;
}

json lineJson(const Expectation& e) {
  return {{"line", e.line},
          {keys::kName, e.key},
          {keys::kTestcase, e.testcase},
          {keys::kCells, e.cells.text()},
          {keys::kUnit, e.unit},
          {"bound", boundName(e.bound())},
          {"limit", e.limit}};
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

json expectationJson(const ExpectationResult& r) {
  json matrices = json::array(), below = json::array(), unmet = json::array(),
       notJudged = json::array();
  for (const JudgedMatrix& m : r.matrices) matrices.push_back(matrixJson(r, m));
  for (const BelowCell& cell : r.below) below.push_back(belowJson(r, cell));
  for (const UnmetExpectation& u : r.unmet)
    unmet.push_back({{"line", u.line},
                     {"expectation", u.expectation},
                     {"reason", unmetReasonName(u.reason)},
                     {"detail", u.detail}});
  for (const NotJudged& n : r.notJudged) {
    json item = {{keys::kName, n.name}, {keys::kCells, n.cells}, {"reason", n.reason}};
    if (n.bufferSizeMiB) item[keys::kBufferSizeMiB] = *n.bufferSizeMiB;
    notJudged.push_back(std::move(item));
  }
  json j = {{"check", r.check == ExpectationCheck::File ? "file" : "percent_of_peak"},
            {"label", r.label},
            {"passed", r.passed()},
            {keys::kSummary,
             {{keys::kCells, r.judgedCells()},
              {"met", r.metCells()},
              {"below", r.belowCells()},
              {"below_not_listed", r.belowCells() - r.below.size()},
              {"unmet", r.unmet.size()},
              {"not_judged", r.notJudgedCells()}}},
            {"matrices", std::move(matrices)},
            {"below", std::move(below)},
            {"unmet", std::move(unmet)},
            {"not_judged", std::move(notJudged)},
            {keys::kNotes, r.notes}};
  if (r.check == ExpectationCheck::File) {
    j["file"] = r.path;
    json lines = json::array();
    for (const Expectation& e : r.expectations) lines.push_back(lineJson(e));
    j[keys::kExpectations] = std::move(lines);
  } else {
    j["min_percent_of_peak"] = r.minPercent;
  }
  return j;
}

json expectationsSection(const std::vector<ExpectationResult>& results) {
  json section = json::array();
  for (const ExpectationResult& r : results) section.push_back(expectationJson(r));
  return section;
}

}  // namespace nvbw
