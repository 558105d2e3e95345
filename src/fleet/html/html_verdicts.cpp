// The page's verdicts (docs/verdicts.md): the comparison with a baseline (summary, notes, the
// cells that are not SAME, what only one side has) and the expectations (per check the lines of
// its text view). The heatmaps mark the same cells through cellMarks.
#include "fleet/comparison/comparison.h"
#include "fleet/expectations/expectations.h"
#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"

namespace nvbw::html {

namespace {

// The text view's lines: the baseline's reports (where several) and the summary.
std::string summaryText(const ComparisonSection& comparison) {
  const std::string baseline = comparisonBaselineLine(comparison);
  return (baseline.empty() ? "" : baseline + " ") + comparisonSummaryLine(comparison);
}

std::string confirmationRuns(const ComparisonSection& c) {
  return c.confirmation ? shown(c.confirmation->runs) : "unknown";
}

// The rule since the band comes from the baseline side alone.
std::string healthyBandText(const ComparisonSection& comparison) {
  std::string text =
      "Each cell is judged against the baseline's median (one report, or several) and a band "
      "from the healthy side alone: the larger of " +
      shown(comparison.tolerancePercent) +
      "% and 1.5 x the healthy spread (how far the cell moves between healthy runs: a prior per "
      "testcase with one baseline report, their own spread with several; and their samples' "
      "spread). SLOWER beyond it in the slower direction; UNSTABLE when this run's samples spread "
      "above the cell's unstable limit (3 x healthy runs' spread, at least 5%); both fail.";
  if (comparison.rule == "confirmed")
    text += " SLOWER and UNSTABLE cells were measured again (" + confirmationRuns(comparison) +
            " confirmation runs) and judged on the median of all measurements; NOISY where most "
            "of them did not fail (reported, never failing).";
  return text;
}

std::string criteriaText(const ComparisonSection& comparison) {
  // Reports written before the band came from the healthy side alone judged against a run-to-run
  // floor and marked noisy cells.
  if (!comparison.rule)
    return "A cell is SAME when its change is within the larger of its samples' noise and the "
           "run-to-run floor of " +
           shown(comparison.runToRunFloorPercent) + "%, or within the tolerance of " +
           shown(comparison.tolerancePercent) + "% where the samples are not known.";
  if (comparison.band == "healthy side") return healthyBandText(comparison);
  const std::string band = "A cell is SAME when its change is within its band, the larger of " +
                           shown(comparison.tolerancePercent) + "% and its samples' noise. ";
  if (comparison.rule == "confirmed")
    return band + "A cell beyond the band in the slower direction was measured again (" +
           confirmationRuns(comparison) +
           " confirmation runs): SLOWER when the median of the first measurement and the "
           "confirmations was still beyond the band, NOISY otherwise.";
  return band + "Beyond it, SLOWER or FASTER only where the two reports' closest samples are "
                "apart by more than the band; NOISY where they are not.";
}

std::string changedRow(const ComparedCellRecord& cell) {
  const std::string verdict = shown(cell.verdict);
  std::string cells = textElement("td", "", cell.name);
  cells += textElement("td", "", "[" + shown(cell.row) + "][" + shown(cell.col) + "]");
  cells += textElement("td", attr("class", "num"), fixedOr(cell.baseline));
  cells += textElement("td", attr("class", "num"), fixedOr(cell.current));
  cells += textElement("td", "", shown(cell.unitText));
  cells += textElement("td", attr("class", "num"), changeText(cell.changePercent));
  cells += textElement("td", attr("class", "num"),
                       fixedOr(cell.bandPercent) + "% (" + shown(cell.basis) + ")");
  std::string spread;
  if (cell.unstable == true && cell.spreadPercent)
    spread = " (spread " + fixed(*cell.spreadPercent, 2) + "% > " +
             fixedOr(cell.unstableLimitPercent) + "%)";
  cells += textElement("td", attr("class", "verdict-" + verdict),
                       verdict + (cell.noisy == true ? " (noisy)" : "") + spread);
  return element("tr", attr("data-verdict", verdict), cells);
}

std::string changedTable(const ComparisonSection& comparison, const StopRequest& stop) {
  std::string rows;
  bool anyNoisy = false, anyUnstable = false;
  PeriodicStop ticks(stop, 4096);
  for (const ComparedCellRecord& cell : orEmpty(comparison.cells)) {
    ticks.tick();
    if (cell.verdict == "SAME") continue;
    rows += changedRow(cell);
    anyNoisy |= cell.verdict == "NOISY" || cell.noisy == true;
    anyUnstable |= cell.verdict == "UNSTABLE";
  }
  if (rows.empty()) return textElement("p", "", "No cell changed beyond its band.");
  std::string footnote;
  if (anyNoisy)
    footnote += textElement("p", "",
                            "NOISY (noisy): beyond the band in one measurement but not in most "
                            "of them; reported, never failing.");
  if (anyUnstable)
    footnote += textElement("p", "",
                            "UNSTABLE: the run's samples spread far more than healthy runs' do "
                            "(above the cell's unstable limit): failing.");
  const std::string head =
      headerRow({"matrix", "cell", "baseline", "current", "unit", "change", "band", "verdict"});
  return table(attr("class", "changed-cells"), head, rows) + footnote;
}

std::string stringList(const char* title, const char* cls,
                       const std::optional<std::vector<std::string>>& items) {
  if (!items || items->empty()) return "";
  return element("div", attr("class", cls), textElement("h3", "", title) + itemList(*items, ""));
}

// The text view's lines: the summary line, headed passed or failed, over the others as a list.
std::string checkBlock(const ExpectationSection& check) {
  std::vector<std::string> lines = expectationLines(check);
  const std::string summary = lines.back();
  lines.pop_back();
  return element(
      "div", attr("class", "expectation-check"),
      textElement("p", attr("class", check.passed == true ? "passed" : "failed"), summary) +
          (lines.empty() ? std::string() : itemList(lines, "")));
}

}  // namespace

CellMarks cellMarks(const Report& report, const StopRequest& stop) {
  CellMarks marks;
  PeriodicStop ticks(stop, 4096);
  if (report.comparison && report.comparison->cells)
    for (const ComparedCellRecord& cell : *report.comparison->cells) {
      ticks.tick();
      if (cell.row && cell.col) marks[{cell.name, *cell.row, *cell.col}].verdict = &cell;
    }
  for (const ExpectationSection& check : orEmpty(report.expectations)) {
    throwIfStopped(stop);
    for (const BelowCellRecord& cell : orEmpty(check.below))
      if (cell.name && cell.row && cell.col) {
        CellMark& mark = marks[{*cell.name, *cell.row, *cell.col}];
        if (!mark.below) mark.below = &cell;  // the first check's
      }
  }
  return marks;
}

std::string comparisonSection(const ComparisonSection& comparison, const StopRequest& stop) {
  return section(
      attr("class", "comparison") + attr("id", "comparison"), "Comparison with the baseline",
      textElement("p", attr("class", "comparison-summary"), summaryText(comparison)) +
          textElement("p", attr("class", "criteria"), criteriaText(comparison)) +
          stringList("Notes", "comparison-notes", comparison.notes) +
          changedTable(comparison, stop) +
          stringList("Only in the baseline", "only-in-baseline", comparison.onlyInBaseline) +
          stringList("Only in this run", "only-in-current", comparison.onlyInCurrent));
}

std::string expectationsSection(const Report& report) {
  if (!report.expectations || report.expectations->empty()) return "";
  std::string blocks;
  for (const ExpectationSection& check : *report.expectations) blocks += checkBlock(check);
  return section(
      attr("class", "expectations") + attr("id", "expectations"), "Expectations",
      textElement("p", "", "BELOW cells fail the run (exit 3); the heatmaps underline them.") +
          blocks);
}

}  // namespace nvbw::html
