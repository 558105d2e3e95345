// The fleet summary page (fleet_summary.h): counts, groups, the flagged nodes and a heatmap of
// nodes by testcases coloured by percent of the group median, built with the HTML report's markup
// helpers (html_markup.h), so every string from a report is escaped.
#include <algorithm>
#include <cmath>

#include "core/text.h"
#include "fleet/html/html_markup.h"
#include "fleet/summary/fleet_summary_internal.h"

namespace nvbw {

namespace {

using namespace summary;
using namespace html;

// A cell this much worse than its group's median (percent) or more takes the palette's far end.
constexpr double kHeatSpanPercent = 25.0;

// src/fleet/summary/summary.css.
constexpr const char* kStyleSheet =
#include "fleet/summary/summary.css.inc"
    ;

// The colours of a cell `deficit` percent worse than its group's median: the palette's best end
// at 0 (or better), its worst at kHeatSpanPercent or more.
std::string heatStyle(double deficit) {
  const Rgb c = paletteColour(1.0 - std::clamp(deficit / kHeatSpanPercent, 0.0, 1.0));
  return attr("style", "background:" + hexColour(c) + ";color:" + textColourOn(c));
}

std::string percentText(const std::optional<double>& p) {
  return p ? fixed(*p, 1) + "%" : std::string("unknown");
}

// A string from a report as it is: the markup escapes it.
std::string asIs(const std::string& text, std::size_t) { return text; }

std::string tooltip(const FleetNode& node, const FleetColumn& column, const FleetCell& cell) {
  std::string t = node.name + ", " + column.key + ": ";
  if (cell.status == FleetStatus::Failed) return t + failedText(cell, asIs);
  if (cell.status == FleetStatus::Waived)
    return t + "waived" + (cell.message.empty() ? "" : ": " + cell.message);
  if (cell.status == FleetStatus::Missing) return t + "missing from the report";
  if (!cell.hasValues) return t + "passed without values";
  t += "SUM " + valueText(cell.sum, column) + " (" + percentText(cell.sumPercentOfMedian) +
       " of median" + (cell.sumFlagged ? ", flagged" : "") + "); worst " +
       valueText(cell.worst, column) + " at " + cell.worstCell + " (" +
       percentText(cell.worstPercentOfMedian) + " of median" +
       (cell.worstFlagged ? ", flagged" : "") + ")";
  if (cell.percentOfPeak) t += "; SUM " + fixed(*cell.percentOfPeak, 1) + "% of peak";
  if (cell.worstPercentOfPeak) t += ", worst " + fixed(*cell.worstPercentOfPeak, 1) + "% of peak";
  if (!cell.judged) t += "; group not judged";
  if (cell.verdicts.failed()) t += "; " + reportVerdictsText(cell.verdicts);
  return t;
}

std::string heatCell(const FleetNode& node, const FleetColumn& column, const FleetCell& cell,
                     std::size_t col) {
  const std::string title = attr("title", tooltip(node, column, cell));
  const std::string where = attr("data-col", std::to_string(col));
  if (const char* mark = cellMark(cell, column.latency())) {
    const char* cls = cell.status == FleetStatus::Failed   ? "failed"
                      : cell.status == FleetStatus::Waived ? "waived"
                                                           : "missing";
    return textElement("td", attr("class", cls) + where + title, mark);
  }
  const double percent = *worsePercentOfMedian(cell, column.latency());
  const double deficit = column.latency() ? percent - 100.0 : 100.0 - percent;
  std::string cls = cell.flagged() ? "flagged" : cell.judged ? "" : "unjudged";
  if (cell.verdicts.failed()) cls += cls.empty() ? "verdict-failed" : " verdict-failed";
  return textElement("td",
                     (cls.empty() ? "" : attr("class", cls)) + where +
                         attr("data-percent", fixed(percent, 2)) + heatStyle(deficit) + title,
                     std::to_string(std::lround(std::min(percent, 9999.0))));
}

std::string legend() {
  std::string items;
  for (double deficit : {0.0, 5.0, 10.0, 15.0, 20.0, 25.0})
    items += element("span", attr("class", "legend-item"),
                     textElement("span", attr("class", "swatch") + heatStyle(deficit),
                                 std::to_string(static_cast<int>(deficit)) +
                                     (deficit == kHeatSpanPercent ? "%+" : "%")) +
                         " ");
  items +=
      element("span", "", textElement("span", attr("class", "swatch flagged"), "") + " flagged");
  items += element("span", "",
                   textElement("span", attr("class", "swatch verdict-failed"), "") +
                       " failed its report's own verdicts (SLOWER, UNSTABLE, BELOW)");
  items += textElement("span", "",
                       "worse than the group median. Cells: percent of the group median, the "
                       "worse of SUM and worst cell (bandwidth: the lower; latency: the higher); "
                       "ERR failed, W waived, - missing, italic: group not judged.");
  return element("div", attr("class", "legend"), items);
}

std::string heatmapHtml(const FleetSummary& s) {
  if (s.nodes.empty() || s.columns.empty()) return "";
  std::string head = textElement("th", attr("class", "node"), "node");
  for (std::size_t c = 0; c < s.columns.size(); ++c)
    head += textElement("th", attr("class", "column") + attr("title", s.columns[c].key),
                        std::to_string(c + 1) + " " + s.columns[c].key);
  std::string rows;
  for (const FleetNode& n : s.nodes) {
    std::string cells = textElement("th", attr("class", "node") + attr("title", n.file), n.name);
    for (std::size_t c = 0; c < s.columns.size(); ++c)
      cells += heatCell(n, s.columns[c], n.cells[c], c);
    rows += element("tr",
                    (n.flagged() ? attr("class", "flagged-node") : "") + attr("data-node", n.name) +
                        attr("data-group", s.groups.at(n.group).name),
                    cells);
  }
  return section(attr("id", "heatmap"), "Nodes by testcase",
                 legend() +
                     element("div", attr("class", "heatmap-scroll"),
                             table(attr("class", "heatmap"), element("tr", "", head), rows)));
}

std::string groupsHtml(const FleetSummary& s) {
  if (s.groups.empty()) return "";
  std::string rows = headerRow({"group", "nodes", "flagged", "judged"});
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    const FleetGroup& group = s.groups[g];
    const auto flagged = std::count_if(s.nodes.begin(), s.nodes.end(), [g](const FleetNode& n) {
      return n.group == g && n.flagged();
    });
    rows += element(
        "tr", "",
        textElement("td", "", group.name) +
            textElement("td", attr("class", "num"), std::to_string(group.nodes)) +
            textElement("td", attr("class", "num"), std::to_string(flagged)) +
            textElement("td", "",
                        group.nodes >= kFleetMinGroupNodes
                            ? "yes"
                            : "no: fewer than " + std::to_string(kFleetMinGroupNodes) + " nodes"));
  }
  return section(attr("id", "groups"), "Groups (GPU count and model)",
                 element("table", attr("class", "groups"), rows));
}

std::string flaggedHtml(const FleetSummary& s) {
  std::string items;
  for (const FleetNode& n : s.nodes)
    if (n.flagged())
      items += element(
          "li", attr("data-node", n.name),
          textElement("span", attr("class", "mono"), n.name) +
              textElement("span", "", " (" + s.groups.at(n.group).name + "; " + n.file + ")") +
              itemList(flagReasons(s, n, asIs), attr("class", "reasons")));
  if (items.empty()) items = textElement("li", "", "None.");
  return section(attr("id", "flagged"), "Flagged nodes",
                 element("ul", attr("class", "flagged-nodes"), items));
}

std::string mediansHtml(const FleetSummary& s) {
  if (s.columns.empty()) return "";
  std::string head = textElement("th", "", "#") + textElement("th", "", "testcase");
  for (const FleetGroup& g : s.groups)
    head += textElement("th", "", g.name + ": median SUM (band)") +
            textElement("th", "", g.name + ": median worst cell (band)");
  std::string rows = element("tr", "", head);
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    std::string cells = textElement("td", attr("class", "num"), std::to_string(c + 1)) +
                        textElement("td", attr("class", "mono"), s.columns[c].key);
    for (const FleetGroup& g : s.groups) {
      const FleetColumnStats& st = g.columns[c];
      if (st.nodes == 0)
        cells += textElement("td", "", "no node passed") + textElement("td", "", "");
      else
        cells += textElement("td", attr("class", "num"), spreadText(st.sum, s.columns[c])) +
                 textElement("td", attr("class", "num"), spreadText(st.worst, s.columns[c]));
    }
    rows += element("tr", "", cells);
  }
  return section(attr("id", "testcases"), "Group medians per testcase",
                 element("div", attr("class", "heatmap-scroll"),
                         element("table", attr("class", "medians"), rows)));
}

using NamedLines = std::vector<std::pair<std::string, std::string>>;

// A section of (node or file in monospace, what is said of it) items; "" without any.
std::string namedList(const char* id, const std::string& title, const NamedLines& lines) {
  std::string items;
  for (const auto& [name, text] : lines)
    items += element("li", "",
                     textElement("span", attr("class", "mono"), name) +
                         textElement("span", "", ": " + text));
  return items.empty() ? "" : section(attr("id", id), title, element("ul", "", items));
}

// Per node: its testcases of `status`, or (`notes`) its notes.
std::string listHtml(const FleetSummary& s, const char* id, const std::string& title,
                     FleetStatus status, bool notes = false) {
  NamedLines lines;
  for (const FleetNode& n : s.nodes) {
    const std::vector<std::string> names = notes ? n.notes : testcasesWithStatus(s, n, status);
    if (!names.empty()) lines.emplace_back(n.name, joined(names, ", "));
  }
  return namedList(id, title, lines);
}

std::string headerHtml(const FleetSummary& s) {
  std::string notes;
  for (const std::string& note : s.notes) notes += textElement("p", attr("class", "rule"), note);
  return element(
      "header", "",
      textElement("h1", "", "nvbandwidth fleet summary") +
          element("p", attr("class", "summary-line"),
                  textElement("span", "",
                              "Summary: " + plural(s.nodes.size(), "node", "nodes") + ", ") +
                      textElement("span", attr("class", "flagged-count"),
                                  std::to_string(s.flaggedNodes()) + " flagged") +
                      textElement("span", "",
                                  ", " + std::to_string(s.unreadable.size()) + " unreadable (" +
                                      plural(s.reports, "report", "reports") + " read).")) +
          textElement("p", attr("class", "rule"), flagRuleText()) + notes);
}

}  // namespace

std::string fleetSummaryHtml(const FleetSummary& s) {
  NamedLines unreadable;
  for (const UnreadableReport& u : s.unreadable) unreadable.emplace_back(u.file, u.reason);
  const std::string body = headerHtml(s) + groupsHtml(s) + flaggedHtml(s) + heatmapHtml(s) +
                           mediansHtml(s) +
                           listHtml(s, "missing", "Missing testcases", FleetStatus::Missing) +
                           listHtml(s, "waived", "Waived testcases", FleetStatus::Waived) +
                           listHtml(s, "notes", "Notes", FleetStatus::Passed, true) +
                           namedList("unreadable", "Unreadable reports", unreadable);
  return page("nvbandwidth fleet summary", kStyleSheet, body);
}

}  // namespace nvbw
