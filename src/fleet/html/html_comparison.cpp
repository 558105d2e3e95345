// The comparison with a baseline: the summary, the notes, a table of the cells that are not SAME
// (failing ones first in their class: SLOWER, UNSTABLE) and what only one side has. The heatmaps
// mark the same verdicts per cell through cellMarks, and the expectations' BELOW cells.
#include <algorithm>
#include <string>

#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"
#include "model/report_keys.h"

namespace nvbw::html {

namespace {

using nlohmann::json;

std::string count(const json& summary, const char* key) { return scalarText(member(summary, key)); }

std::string summaryText(const json& comparison) {
  const json& summary = member(comparison, "summary");
  const json& noisy = member(summary, keys::kNoisy);
  const json& unstable = member(summary, keys::kUnstable);
  const json& reports = member(comparison, keys::kBaselineReports);
  const std::string baseline = reports.is_number() && reports.get<double>() > 1
                                   ? " against a baseline of " + scalarText(reports) + " reports"
                                   : std::string();
  return count(summary, "cells") + " cells compared" + baseline + ": " + count(summary, "same") +
         " SAME, " + count(summary, "slower") + " SLOWER, " + count(summary, "faster") + " FASTER" +
         (noisy.is_number() ? ", " + scalarText(noisy) + " NOISY" : std::string()) +
         (unstable.is_number() ? ", " + scalarText(unstable) + " UNSTABLE" : std::string()) + "; " +
         count(summary, "only_in_baseline") + " only in the baseline, " +
         count(summary, "only_in_current") + " only in this run.";
}

// The rule since the band comes from the baseline side alone.
std::string healthyBandText(const json& comparison) {
  std::string text =
      "Each cell is judged against the baseline's median (one report, or several) and a band "
      "from the healthy side alone: the larger of " +
      scalarText(member(comparison, keys::kTolerancePercent)) +
      "% and 1.5 x the healthy spread (how far the cell moves between healthy runs: a prior per "
      "testcase with one baseline report, their own spread with several; and their samples' "
      "spread). SLOWER beyond it in the slower direction; UNSTABLE when this run's samples spread "
      "above the cell's unstable limit (3 x healthy runs' spread, at least 5%); both fail.";
  if (member(comparison, keys::kRule) == "confirmed")
    text += " SLOWER and UNSTABLE cells were measured again (" +
            scalarText(member(member(comparison, keys::kConfirmation), keys::kRuns)) +
            " confirmation runs) and judged on the median of all measurements; NOISY where most "
            "of them did not fail (reported, never failing).";
  return text;
}

std::string criteriaText(const json& comparison) {
  // Reports written before the band came from the healthy side alone judged against a run-to-run
  // floor and marked noisy cells.
  if (member(comparison, keys::kRule).is_null())
    return "A cell is SAME when its change is within the larger of its samples' noise and the "
           "run-to-run floor of " +
           scalarText(member(comparison, "run_to_run_floor_percent")) +
           "%, or within the tolerance of " + scalarText(member(comparison, "tolerance_percent")) +
           "% where the samples are not known.";
  if (member(comparison, keys::kBand) == "healthy side") return healthyBandText(comparison);
  const std::string band = "A cell is SAME when its change is within its band, the larger of " +
                           scalarText(member(comparison, keys::kTolerancePercent)) +
                           "% and its samples' noise. ";
  if (member(comparison, keys::kRule) == "confirmed")
    return band + "A cell beyond the band in the slower direction was measured again (" +
           scalarText(member(member(comparison, keys::kConfirmation), keys::kRuns)) +
           " confirmation runs): SLOWER when the median of the first measurement and the "
           "confirmations was still beyond the band, NOISY otherwise.";
  return band + "Beyond it, SLOWER or FASTER only where the two reports' closest samples are "
                "apart by more than the band; NOISY where they are not.";
}

std::string changedRow(const json& cell) {
  const std::string verdict = scalarText(member(cell, keys::kVerdict));
  std::string cells;
  cells += textElement("td", "", scalarText(member(cell, keys::kName)));
  cells += textElement("td", "",
                       "[" + scalarText(member(cell, keys::kRow)) + "][" +
                           scalarText(member(cell, keys::kCol)) + "]");
  cells += textElement("td", attr("class", "num"), fixedOrText(member(cell, keys::kBaseline), 2));
  cells += textElement("td", attr("class", "num"), fixedOrText(member(cell, keys::kCurrent), 2));
  cells += textElement("td", "", scalarText(member(cell, keys::kUnit)));
  cells += textElement("td", attr("class", "num"),
                       fixedOrText(member(cell, keys::kChangePercent), 2) + "%");
  cells += textElement("td", attr("class", "num"),
                       fixedOrText(member(cell, keys::kBandPercent), 2) + "% (" +
                           scalarText(member(cell, keys::kBasis)) + ")");
  const bool noisy = member(cell, keys::kNoisy) == true;
  std::string spread;
  if (member(cell, keys::kUnstable) == true && member(cell, keys::kSpreadPercent).is_number())
    spread = " (spread " + fixed(cell.at(keys::kSpreadPercent).get<double>(), 2) + "% > " +
             fixedOrText(member(cell, keys::kUnstableLimitPercent), 2) + "%)";
  cells += textElement("td", attr("class", "verdict-" + verdict),
                       verdict + (noisy ? " (noisy)" : "") + spread);
  return element("tr", attr("data-verdict", verdict), cells);
}

std::string changedTable(const json& comparison, const StopRequest& stop) {
  std::string rows;
  PeriodicStop ticks(stop, 4096);
  for (const json& cell : member(comparison, keys::kCells)) {
    ticks.tick();
    if (member(cell, keys::kVerdict) != "SAME") rows += changedRow(cell);
  }
  if (rows.empty()) return textElement("p", "", "No cell changed beyond its band.");
  const json& cells = member(comparison, keys::kCells);
  const bool anyNoisy = std::any_of(cells.begin(), cells.end(), [](const json& c) {
    return member(c, "verdict") == "NOISY" ||
           (member(c, "verdict") != "SAME" && member(c, "noisy") == true);
  });
  const bool anyUnstable = std::any_of(
      cells.begin(), cells.end(), [](const json& c) { return member(c, "verdict") == "UNSTABLE"; });
  std::string footnote =
      anyNoisy ? textElement("p", "",
                             "NOISY (noisy): beyond the band in one measurement but not in most "
                             "of them; reported, never failing.")
               : std::string();
  if (anyUnstable)
    footnote += textElement("p", "",
                            "UNSTABLE: the run's samples spread far more than healthy runs' do "
                            "(above the cell's unstable limit): failing.");
  std::string head;
  for (const char* title :
       {"matrix", "cell", "baseline", "current", "unit", "change", "band", "verdict"})
    head += textElement("th", "", title);
  return element("table", attr("class", "changed-cells"),
                 element("thead", "", element("tr", "", head)) + element("tbody", "", rows)) +
         footnote;
}

std::string stringList(const char* title, const char* cls, const json& items) {
  if (!items.is_array() || items.empty()) return "";
  std::string list;
  for (const json& item : items) list += textElement("li", "", scalarText(item));
  return element("div", attr("class", cls), textElement("h3", "", title) + element("ul", "", list));
}

}  // namespace

CellMarks cellMarks(const json& run, const StopRequest& stop) {
  CellMarks marks;
  marks.verdicts = verdictIndex(run, stop);
  const json& checks = member(run, keys::kExpectations);
  if (!checks.is_array()) return marks;
  for (const json& check : checks) {
    throwIfStopped(stop);
    const json& below = member(check, "below");
    if (!below.is_array()) continue;
    for (const json& cell : below)
      if (member(cell, keys::kName).is_string() && member(cell, keys::kRow).is_number_unsigned() &&
          member(cell, keys::kCol).is_number_unsigned())
        marks.below.emplace(CellKey{cell.at(keys::kName).get<std::string>(),
                                    cell.at(keys::kRow).get<std::size_t>(),
                                    cell.at(keys::kCol).get<std::size_t>()},
                            &cell);
  }
  return marks;
}

VerdictIndex verdictIndex(const json& run, const StopRequest& stop) {
  VerdictIndex index;
  PeriodicStop ticks(stop, 4096);
  // Pointers into the document itself: iterating a copy (json::value) would leave them dangling.
  const json& cells = member(member(run, keys::kComparison), "cells");
  if (!cells.is_array()) return index;
  for (const json& cell : cells) {
    ticks.tick();
    if (!member(cell, keys::kRow).is_number_unsigned() ||
        !member(cell, keys::kCol).is_number_unsigned())
      continue;
    index[CellKey{scalarText(member(cell, keys::kName)), cell.at(keys::kRow).get<std::size_t>(),
                  cell.at(keys::kCol).get<std::size_t>()}] = &cell;
  }
  return index;
}

std::string comparisonSection(const json& comparison, const StopRequest& stop) {
  return element(
      "section", attr("class", "comparison") + attr("id", "comparison"),
      textElement("h2", "", "Comparison with the baseline") +
          textElement("p", attr("class", "comparison-summary"), summaryText(comparison)) +
          textElement("p", attr("class", "criteria"), criteriaText(comparison)) +
          stringList("Notes", "comparison-notes", member(comparison, keys::kNotes)) +
          changedTable(comparison, stop) +
          stringList("Only in the baseline", "only-in-baseline",
                     member(comparison, keys::kOnlyInBaseline)) +
          stringList("Only in this run", "only-in-current",
                     member(comparison, keys::kOnlyInCurrent)));
}

}  // namespace nvbw::html
