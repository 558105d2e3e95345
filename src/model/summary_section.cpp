#include "model/summary_section.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/exit_status.h"

namespace nvbw {

std::vector<std::string> testcasesWithStatus(const FleetSummary& summary, const FleetNode& node,
                                             FleetStatus status) {
  // Per testcase: how many of its columns there are, and how many have the status.
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::size_t, std::size_t>> counts;
  for (std::size_t c = 0; c < summary.columns.size(); ++c) {
    const std::string& testcase = summary.columns[c].testcase;
    auto [it, added] = counts.try_emplace(testcase, 0, 0);
    if (added) order.push_back(testcase);
    ++it->second.first;
    if (node.cells[c].status == status) ++it->second.second;
  }
  std::vector<std::string> out;
  for (const std::string& testcase : order) {
    const auto [columns, with] = counts[testcase];
    if (with == 0) continue;
    if (with == columns) {
      out.push_back(testcase);
      continue;
    }
    for (std::size_t c = 0; c < summary.columns.size(); ++c)
      if (summary.columns[c].testcase == testcase && node.cells[c].status == status)
        out.push_back(summary.columns[c].key);
  }
  return out;
}

const char* fleetStatusName(FleetStatus s) {
  switch (s) {
  case FleetStatus::Passed:
    return "Passed";
  case FleetStatus::Failed:
    return "failed";
  case FleetStatus::Waived:
    return "Waived";
  case FleetStatus::Missing:
    break;
  }
  return "missing";
}

bool FleetNode::failed() const {
  return std::any_of(cells.begin(), cells.end(),
                     [](const FleetCell& c) { return c.status == FleetStatus::Failed; });
}

bool FleetNode::failedItsVerdicts() const {
  return std::any_of(cells.begin(), cells.end(),
                     [](const FleetCell& c) { return c.verdicts.failed(); });
}

bool FleetNode::slow() const {
  return std::any_of(cells.begin(), cells.end(), [](const FleetCell& c) { return c.flagged(); });
}

std::size_t FleetSummary::flaggedNodes() const {
  return static_cast<std::size_t>(
      std::count_if(nodes.begin(), nodes.end(), [](const FleetNode& n) { return n.flagged(); }));
}

int fleetSummaryExitStatus(const FleetSummary& summary) {
  return summary.flaggedNodes() > 0 || !summary.unreadable.empty() ? kExitSlower : kExitOk;
}

}  // namespace nvbw
