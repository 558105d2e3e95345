#include "model/summary_section.h"

#include <algorithm>

#include "core/exit_status.h"

namespace nvbw {

std::vector<std::string> testcasesWithStatus(const FleetSummary& summary, const FleetNode& node,
                                             FleetStatus status) {
  const std::vector<FleetColumn>& columns = summary.columns;
  std::vector<std::string> out;
  // Each testcase once, at its first column: the keys of its columns with the status, or the
  // testcase itself when all of them have it.
  for (std::size_t first = 0; first < columns.size(); ++first) {
    const std::string& testcase = columns[first].testcase;
    const auto ofTestcase = [&](const FleetColumn& c) { return c.testcase == testcase; };
    if (std::any_of(columns.begin(), columns.begin() + first, ofTestcase)) continue;
    std::vector<std::string> keys;
    std::size_t all = 0;
    for (std::size_t c = first; c < columns.size(); ++c) {
      if (columns[c].testcase != testcase) continue;
      ++all;
      if (node.cells[c].status == status) keys.push_back(columns[c].key);
    }
    if (keys.size() == all) keys = {testcase};
    out.insert(out.end(), keys.begin(), keys.end());
  }
  return out;
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
