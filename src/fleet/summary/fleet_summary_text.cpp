// The fleet summary for a terminal (fleet_summary.h).
#include <algorithm>
#include <cmath>

#include "core/escape.h"
#include "core/format.h"
#include "fleet/summary/fleet_summary_internal.h"

namespace nvbw {

namespace {

using namespace summary;

constexpr std::size_t kLineWidth = 80;
constexpr std::size_t kMaxNameWidth = 24;
constexpr std::size_t kCellWidth = 5;  // "100*" and a space

// A node's name for the table: escaped, cut to the column with a trailing '~'.
std::string tableName(const std::string& name, std::size_t width) {
  std::string text = escapeForTerminal(name, 200);
  if (text.size() > width) text = text.substr(0, width - 1) + "~";
  return text;
}

// One cell of the table: the worse percent of median, and a mark.
std::string tableCell(const FleetCell& cell, bool latency) {
  if (const char* mark = cellMark(cell, latency)) return rightAligned(mark, 4) + " ";
  const long rounded = std::lround(std::min(*worsePercentOfMedian(cell, latency), 9999.0));
  const char mark = cell.verdicts.failed() ? '!' : cell.flagged() ? '*' : cell.judged ? ' ' : '~';
  return rightAligned(std::to_string(rounded), 4) + mark;
}

std::string header(const FleetSummary& s) {
  std::string out = "Fleet summary: " + plural(s.reports, "report", "reports") + ", " +
                    plural(s.nodes.size(), "node", "nodes") + " in " +
                    plural(s.groups.size(), "group", "groups") + ", " +
                    plural(s.columns.size(), "testcase matrix", "testcase matrices") + ".\n";
  out += flagRuleText() + "\n";
  for (const std::string& note : s.notes) out += "NOTE: " + escapeForTerminal(note) + "\n";
  return out;
}

std::string groupsSection(const FleetSummary& s) {
  if (s.groups.empty()) return "";
  std::string out = "\nGroups (GPU count and model):\n";
  for (const FleetGroup& g : s.groups) {
    out += "  " + escapeForTerminal(g.name) + ": " + plural(g.nodes, "node", "nodes");
    if (g.nodes < kFleetMinGroupNodes)
      out += " (fewer than " + std::to_string(kFleetMinGroupNodes) + ": not judged)";
    out += "\n";
  }
  return out;
}

// Per group, per column: the medians and bands the nodes were judged against.
std::string mediansSection(const FleetSummary& s) {
  if (s.columns.empty()) return "";
  std::string out;
  const std::size_t width = std::to_string(s.columns.size()).size();
  for (const FleetGroup& g : s.groups) {
    out += "\nTestcases of " + escapeForTerminal(g.name) +
           ": median SUM and median worst cell, each with its band:\n";
    for (std::size_t c = 0; c < s.columns.size(); ++c) {
      const FleetColumn& column = s.columns[c];
      const FleetColumnStats& st = g.columns[c];
      if (st.nodes == 0) continue;  // no node of the group passed it
      out += "  " + rightAligned(std::to_string(c + 1), width) + " " +
             escapeForTerminal(column.key, 120);
      out += ": SUM " + spreadText(st.sum, column) + ", worst " + spreadText(st.worst, column);
      if (!st.judged) out += " (" + plural(st.nodes, "node", "nodes") + ": not judged)";
      out += "\n";
    }
  }
  return out;
}

std::string tableSection(const FleetSummary& s) {
  if (s.nodes.empty() || s.columns.empty()) return "";
  std::size_t nameWidth = 4;
  for (const FleetNode& n : s.nodes)
    nameWidth = std::max(nameWidth, std::min(escapeForTerminal(n.name, 200).size(), kMaxNameWidth));
  const std::size_t perBlock = std::max<std::size_t>(1, (kLineWidth - nameWidth - 1) / kCellWidth);
  std::string out =
      "\nPercent of the group median, per node and testcase (numbered as above): the worse of SUM "
      "and worst cell (latency: higher is worse); * flagged, ! failed its report's own verdicts "
      "(SLOWER, UNSTABLE or BELOW), ~ not judged, ERR failed, W waived, - missing, . no value.\n";
  for (std::size_t first = 0; first < s.columns.size(); first += perBlock) {
    const std::size_t last = std::min(s.columns.size(), first + perBlock);
    std::string line = "\n" + leftAligned("node", nameWidth + 1);
    for (std::size_t c = first; c < last; ++c) line += rightAligned(std::to_string(c + 1), 4) + " ";
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
    for (const FleetNode& n : s.nodes) {
      line = leftAligned(tableName(n.name, nameWidth), nameWidth + 1);
      for (std::size_t c = first; c < last; ++c)
        line += tableCell(n.cells[c], s.columns[c].latency());
      out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
    }
  }
  return out;
}

std::string flaggedSection(const FleetSummary& s) {
  const std::size_t flagged = s.flaggedNodes();
  if (flagged == 0) return "";
  std::string out = "\nFlagged nodes (" + std::to_string(flagged) + "):\n";
  for (const FleetNode& n : s.nodes) {
    if (!n.flagged()) continue;
    out += "  " + escapeForTerminal(n.name) + " (" + escapeForTerminal(s.groups.at(n.group).name) +
           "; " + escapeForTerminal(n.file) + ")\n";
    for (const std::string& reason : flagReasons(s, n, escapeForTerminal))
      out += "    " + reason + "\n";
  }
  return out;
}

std::string listSection(const FleetSummary& s, FleetStatus status, const char* title) {
  std::string out;
  for (const FleetNode& n : s.nodes) {
    const std::vector<std::string> names = testcasesWithStatus(s, n, status);
    if (names.empty()) continue;
    std::string line = "  " + escapeForTerminal(n.name) + ": ";
    for (std::size_t i = 0; i < names.size(); ++i)
      line += (i ? ", " : "") + escapeForTerminal(names[i], 120);
    out += line + "\n";
  }
  return out.empty() ? "" : std::string("\n") + title + "\n" + out;
}

std::string notesSection(const FleetSummary& s) {
  std::string out;
  for (const FleetNode& n : s.nodes) {
    std::vector<std::string> notes = n.notes;
    if (n.hostSource == "file name") notes.push_back("no host name recorded: named by its file");
    if (n.name != n.host)
      notes.push_back("a further report of host " + escapeForTerminal(n.host) + " (" +
                      escapeForTerminal(n.file) + ")");
    for (const std::string& note : notes)
      out += "  " + escapeForTerminal(n.name) + ": " + escapeForTerminal(note) + "\n";
  }
  return out.empty() ? "" : "\nNotes:\n" + out;
}

std::string unreadableSection(const FleetSummary& s) {
  if (s.unreadable.empty()) return "";
  std::string out = "\nUnreadable reports (" + std::to_string(s.unreadable.size()) + "):\n";
  for (const UnreadableReport& u : s.unreadable)
    out += "  " + escapeForTerminal(u.file) + ": " + escapeForTerminal(u.reason) + "\n";
  return out;
}

}  // namespace

std::string fleetSummaryText(const FleetSummary& s) {
  return header(s) + groupsSection(s) + mediansSection(s) + tableSection(s) +
         listSection(s, FleetStatus::Missing,
                     "Missing testcases (selected, not in the node's report):") +
         listSection(s, FleetStatus::Waived, "Waived testcases:") + notesSection(s) +
         flaggedSection(s) + unreadableSection(s) +
         "\nSummary: " + plural(s.nodes.size(), "node", "nodes") + ", " +
         std::to_string(s.flaggedNodes()) + " flagged, " + std::to_string(s.unreadable.size()) +
         " unreadable.\n";
}

}  // namespace nvbw
