// The fleet's groups, medians and bands, and which nodes they flag (fleet_summary.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/exit_status.h"
#include "fleet/comparison/healthy_band.h"
#include "fleet/summary/fleet_summary_internal.h"

namespace nvbw {

namespace summary {

double medianOf(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (values.size() % 2) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2.0;
}

double medianAbsoluteDeviation(const std::vector<double>& values, double median) {
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - median));
  return medianOf(std::move(deviations));
}

double bandPercent(double median, double mad, const std::string& testcase) {
  if (!(median > 0.0)) return 0.0;
  return std::max({kFleetMadFactor * kMadToSigma * mad / median * 100.0, kFleetFloorPercent,
                   kBandFactor * spreadPrior(testcase).runToRunPercent});
}

double deficitPercent(double value, double median, bool latency) {
  return (latency ? value - median : median - value) / median * 100.0;
}

std::optional<double> worsePercentOfMedian(const FleetCell& cell, bool latency) {
  const auto& a = cell.sumPercentOfMedian;
  const auto& b = cell.worstPercentOfMedian;
  if (!a || !b) return a ? a : b;
  return latency ? std::max(*a, *b) : std::min(*a, *b);
}

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

std::string numberText(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string reportVerdictsText(const ReportVerdicts& v) {
  std::string parts;
  for (const auto& [n, name] : {std::pair{v.slower, "SLOWER"}, std::pair{v.unstable, "UNSTABLE"},
                                std::pair{v.below, "BELOW"}})
    if (n > 0) parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + name;
  return "its report's verdicts: " + parts;
}

namespace {

void judgeColumn(FleetSummary& summary, const std::vector<std::size_t>& members, std::size_t col,
                 FleetColumnStats& stats) {
  const bool latency = summary.columns[col].latency();
  std::vector<double> sums, worsts;
  for (std::size_t n : members) {
    const FleetCell& cell = summary.nodes[n].cells[col];
    if (cell.status != FleetStatus::Passed || !cell.hasValues) continue;
    sums.push_back(cell.sum);
    worsts.push_back(cell.worst);
  }
  stats.nodes = sums.size();
  stats.sumMedian = medianOf(sums);
  stats.sumMad = medianAbsoluteDeviation(sums, stats.sumMedian);
  const std::string& testcase = summary.columns[col].testcase;
  stats.sumBandPercent = bandPercent(stats.sumMedian, stats.sumMad, testcase);
  stats.worstMedian = medianOf(worsts);
  stats.worstMad = medianAbsoluteDeviation(worsts, stats.worstMedian);
  stats.worstBandPercent = bandPercent(stats.worstMedian, stats.worstMad, testcase);
  stats.judged =
      stats.nodes >= kFleetMinGroupNodes && stats.sumMedian > 0.0 && stats.worstMedian > 0.0;
  for (std::size_t n : members) {
    FleetCell& cell = summary.nodes[n].cells[col];
    if (cell.status != FleetStatus::Passed || !cell.hasValues) continue;
    if (stats.sumMedian > 0.0) cell.sumPercentOfMedian = 100.0 * cell.sum / stats.sumMedian;
    if (stats.worstMedian > 0.0) cell.worstPercentOfMedian = 100.0 * cell.worst / stats.worstMedian;
    cell.judged = stats.judged;
    if (!stats.judged) continue;
    cell.sumFlagged = deficitPercent(cell.sum, stats.sumMedian, latency) > stats.sumBandPercent;
    cell.worstFlagged =
        deficitPercent(cell.worst, stats.worstMedian, latency) > stats.worstBandPercent;
  }
}

}  // namespace

void judgeFleet(FleetSummary& summary) {
  std::map<std::string, std::size_t> index;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t n = 0; n < summary.nodes.size(); ++n) {
    FleetNode& node = summary.nodes[n];
    const std::string name = std::to_string(node.gpuCount) + " x " + node.gpuModel;
    auto [it, added] = index.try_emplace(name, summary.groups.size());
    if (added) {
      FleetGroup group;
      group.name = name;
      group.gpuModel = node.gpuModel;
      group.gpuCount = node.gpuCount;
      summary.groups.push_back(std::move(group));
      members.emplace_back();
    }
    node.group = it->second;
    ++summary.groups[it->second].nodes;
    members[it->second].push_back(n);
  }
  for (std::size_t g = 0; g < summary.groups.size(); ++g) {
    FleetGroup& group = summary.groups[g];
    group.columns.assign(summary.columns.size(), FleetColumnStats());
    for (std::size_t c = 0; c < summary.columns.size(); ++c)
      judgeColumn(summary, members[g], c, group.columns[c]);
  }
}

}  // namespace summary

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

bool anyNodeFlagged(const FleetSummary& summary) { return summary.flaggedNodes() > 0; }

int fleetSummaryExitStatus(const FleetSummary& summary) {
  return anyNodeFlagged(summary) || !summary.unreadable.empty() ? kExitSlower : kExitOk;
}

}  // namespace nvbw
