// The expectations (--expect, --min-percent-of-peak) on the page: per check whether it passed,
// its counts, and its BELOW and unmet lines. The heatmaps underline the same BELOW cells
// (cellMarks).
#include <string>

#include "fleet/html/html_markup.h"
#include "fleet/html/html_sections.h"
#include "model/report_keys.h"

namespace nvbw::html {

namespace {

using nlohmann::json;

std::string countText(const json& summary, const char* key) {
  return scalarText(member(summary, key));
}

std::string headline(const json& check) {
  const json& s = member(check, keys::kSummary);
  const bool passed = member(check, "passed") == true;
  return scalarText(member(check, "label")) + ": " + (passed ? "PASSED" : "FAILED") + ": " +
         countText(s, keys::kCells) + " cells: " + countText(s, "met") + " met, " +
         countText(s, "below") + " BELOW; " + countText(s, "unmet") + " unmet.";
}

std::string belowItem(const json& b) {
  std::string text = "BELOW " + scalarText(member(b, keys::kName)) + " [" +
                     scalarText(member(b, keys::kRow)) + "][" + scalarText(member(b, keys::kCol)) +
                     "]: " + fixedOrText(member(b, "value"), 2) + " " +
                     scalarText(member(b, keys::kUnit));
  if (member(b, "line").is_number())
    return text + ", " + scalarText(member(b, "bound")) + " " + scalarText(member(b, "limit")) +
           " (line " + scalarText(b.at("line")) + ")";
  return text + ": " + fixedOrText(member(b, keys::kPercentOfPeak), 2) + "% of peak, below " +
         scalarText(member(b, "limit")) + "%";
}

std::string unmetItem(const json& u) {
  return "UNMET " + scalarText(member(u, "expectation")) + ": " + scalarText(member(u, "detail"));
}

std::string checkBlock(const json& check) {
  const bool passed = member(check, "passed") == true;
  std::string items;
  for (const char* key : {"below", "unmet"}) {
    const json& list = member(check, key);
    if (!list.is_array()) continue;
    for (const json& item : list)
      items +=
          textElement("li", "", std::string(key) == "below" ? belowItem(item) : unmetItem(item));
  }
  const json& notListed = member(member(check, keys::kSummary), "below_not_listed");
  if (notListed.is_number() && notListed.get<double>() > 0)
    items += textElement("li", "", "... and " + scalarText(notListed) + " more BELOW cells");
  return element("div", attr("class", "expectation-check"),
                 textElement("p", attr("class", passed ? "passed" : "failed"), headline(check)) +
                     (items.empty() ? std::string() : element("ul", "", items)));
}

}  // namespace

std::string expectationsSection(const json& run) {
  const json& checks = member(run, keys::kExpectations);
  if (!checks.is_array() || checks.empty()) return "";
  std::string blocks;
  for (const json& check : checks) blocks += checkBlock(check);
  return element("section", attr("class", "expectations") + attr("id", "expectations"),
                 textElement("h2", "", "Expectations") +
                     textElement("p", "",
                                 "BELOW cells fail the run (exit 3); the heatmaps underline "
                                 "them.") +
                     blocks);
}

}  // namespace nvbw::html
