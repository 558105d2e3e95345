// The expectations (--expect, --min-percent-of-peak) on the page: per check whether it passed,
// its counts, and its BELOW and unmet lines. The heatmaps underline the same BELOW cells
// (cellMarks).
#include <cstdint>
#include <optional>
#include <string>

#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"

namespace nvbw::html {

namespace {

std::string countText(const std::optional<ExpectationCounts>& summary,
                      std::optional<std::uint64_t> ExpectationCounts::*field) {
  return fieldText(summary, field).value_or("unknown");
}

std::string headline(const ExpectationSection& check) {
  const std::optional<ExpectationCounts>& s = check.summary;
  return shown(check.label) + ": " + (check.passed == true ? "PASSED" : "FAILED") + ": " +
         countText(s, &ExpectationCounts::cells) +
         " cells: " + countText(s, &ExpectationCounts::met) + " met, " +
         countText(s, &ExpectationCounts::below) + " BELOW; " +
         countText(s, &ExpectationCounts::unmet) + " unmet.";
}

std::string belowItem(const BelowCellRecord& b) {
  std::string text = "BELOW " + shown(b.name) + " [" + shown(b.row) + "][" + shown(b.col) +
                     "]: " + fixedOr(b.value, 2) + " " + shown(b.unitText);
  if (b.line.has_value())
    return text + ", " + shown(b.bound) + " " + shown(b.limit) + " (line " + shown(b.line) + ")";
  return text + ": " + fixedOr(b.percentOfPeak, 2) + "% of peak, below " + shown(b.limit) + "%";
}

std::string unmetItem(const UnmetRecord& u) {
  return "UNMET " + shown(u.expectation) + ": " + shown(u.detail);
}

std::string checkBlock(const ExpectationSection& check) {
  std::string items;
  if (check.below)
    for (const BelowCellRecord& b : *check.below) items += textElement("li", "", belowItem(b));
  if (check.unmet)
    for (const UnmetRecord& u : *check.unmet) items += textElement("li", "", unmetItem(u));
  if (check.summary && check.summary->belowNotListed && *check.summary->belowNotListed > 0)
    items += textElement("li", "",
                         "... and " + std::to_string(*check.summary->belowNotListed) +
                             " more BELOW cells");
  return element(
      "div", attr("class", "expectation-check"),
      textElement("p", attr("class", check.passed == true ? "passed" : "failed"), headline(check)) +
          (items.empty() ? std::string() : element("ul", "", items)));
}

}  // namespace

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
