#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "core/escape.h"
#include "core/format.h"
#include "fleet/comparison/comparison.h"
#include "fleet/comparison/comparison_report.h"

namespace nvbw {

using comparison::cellSuffix;
using nlohmann::json;

// ---- Views ----

namespace {

constexpr std::size_t kTextWidth = 80;

std::string padded(const std::string& text, std::size_t width, bool right) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return right ? fill + text : text + fill;
}

// A change against a baseline of 0 has no percentage.
std::string changeText(double change) {
  if (!std::isfinite(change)) return "n/a";
  return (change > 0 ? "+" : "") + fixed2(change) + "%";
}

// Names, notes and list items come from the reports: never raw control bytes on a terminal.
std::string safe(const std::string& text) { return escapeForTerminal(text, 200); }

std::string tableRow(const std::array<std::string, 8>& f) {
  std::string line = "  " + padded(f[0], 8, false) + padded(f[1], 12, true) +
                     padded(f[2], 12, true) + padded(f[3], 11, true) + "  " +
                     padded(f[4], 7, false) + padded(f[5], 8, true) + "  " +
                     padded(f[6], 10, false) + f[7];
  return line + "\n";
}

// The cells that are not SAME, grouped under their matrix key (a key can be 60 characters long,
// too long for a column of an 80-column table).
std::string changedCellsTable(const Comparison& c) {
  std::string text;
  bool noisy = false;
  const std::string* group = nullptr;
  for (const CellComparison& cell : c.cells) {
    if (cell.verdict == Verdict::Same) continue;
    if (text.empty())
      text = "Cells beyond their band:\n" + tableRow({"cell", "baseline", "current", "change",
                                                      "verdict", "band", "basis", "unit"});
    if (!group || *group != cell.name) text += safe(cell.name) + "\n";
    group = &cell.name;
    noisy = noisy || cell.noisy;
    text += tableRow({cellSuffix(cell.row, cell.col), fixed2(cell.baseline), fixed2(cell.current),
                      changeText(cell.changePercent),
                      std::string(verdictName(cell.verdict)) + (cell.noisy ? "*" : ""),
                      fixed2(cell.bandPercent) + "%", cell.basis, cell.unit});
  }
  if (noisy)
    text += "* noisy: a side's samples spread by more than " + fixed2(kNoisyBandPercent) +
            "%; repeat the run before acting on this cell.\n";
  return text;
}

// "Title (n): a, b, c" wrapped to the text width, continuation lines indented.
std::string wrappedList(const std::string& title, const std::vector<std::string>& items) {
  if (items.empty()) return "";
  std::string text;
  std::string line = title + " (" + std::to_string(items.size()) + "):";
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string item = safe(items[i]) + (i + 1 < items.size() ? "," : "");
    if (line.size() + 1 + item.size() > kTextWidth && line.size() > 1) {
      text += line + "\n";
      line = " ";
    }
    line += " " + item;
  }
  return text + line + "\n";
}

std::string summaryLine(const Comparison& c) {
  return "Comparison: " + std::to_string(c.cells.size()) +
         " cells: " + std::to_string(c.count(Verdict::Same)) + " SAME, " +
         std::to_string(c.count(Verdict::Slower)) + " SLOWER, " +
         std::to_string(c.count(Verdict::Faster)) + " FASTER; " +
         std::to_string(c.onlyInBaseline.size()) + " only in baseline, " +
         std::to_string(c.onlyInCurrent.size()) + " only in current.\n";
}

json finiteOrNull(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

}  // namespace

json comparisonCellJson(const CellComparison& cell) {
  return {{"name", cell.name},
          {"row", cell.row},
          {"col", cell.col},
          {"unit", cell.unit},
          {"baseline", cell.baseline},
          {"current", cell.current},
          {"change_percent", finiteOrNull(cell.changePercent)},
          {"verdict", verdictName(cell.verdict)},
          {"basis", cell.basis},
          {"band_percent", cell.bandPercent},
          {"noisy", cell.noisy}};
}

std::string comparisonText(const Comparison& c) {
  std::string text;
  for (const std::string& section :
       {changedCellsTable(c), wrappedList("Only in baseline", c.onlyInBaseline),
        wrappedList("Only in current", c.onlyInCurrent)})
    if (!section.empty()) text += section + "\n";
  for (const std::string& note : c.notes) text += "Note: " + safe(note) + "\n";
  if (!c.notes.empty()) text += "\n";
  return text + summaryLine(c);
}

json comparisonJson(const Comparison& c, bool withCells) {
  json cells = json::array();
  if (withCells)
    for (const CellComparison& cell : c.cells) cells.push_back(comparisonCellJson(cell));
  return {{"tolerance_percent", c.tolerancePercent},
          {"run_to_run_floor_percent", kRunToRunFloorPercent},
          {"summary",
           {{"cells", c.cells.size()},
            {"same", c.count(Verdict::Same)},
            {"slower", c.count(Verdict::Slower)},
            {"faster", c.count(Verdict::Faster)},
            {"only_in_baseline", c.onlyInBaseline.size()},
            {"only_in_current", c.onlyInCurrent.size()}}},
          {"cells", std::move(cells)},
          {"only_in_baseline", c.onlyInBaseline},
          {"only_in_current", c.onlyInCurrent},
          {"notes", c.notes}};
}

}  // namespace nvbw
