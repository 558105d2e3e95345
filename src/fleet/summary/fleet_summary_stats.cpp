// The fleet's groups, medians and bands, which nodes they flag, and what both views say of them.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/format.h"
#include "core/statistics.h"
#include "fleet/comparison/healthy_band.h"
#include "fleet/summary/fleet_summary_internal.h"

namespace nvbw::summary {

double medianAbsoluteDeviation(const std::vector<double>& values, double middle) {
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - middle));
  return median(std::move(deviations));
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

std::string flagRuleText() {
  return "A node is flagged for a testcase when its SUM or its worst cell is further from its "
         "group's median than max(" +
         fixed(kFleetMadFactor, 0) + " x " + fixed(kMadToSigma, 4) + " x MAD / median, " +
         fixed(kFleetFloorPercent, 0) + "%, " + fixed(kBandFactor, 1) +
         " x the testcase's prior run-to-run spread) (bandwidth: below, latency: above), when the "
         "testcase failed, or when its own report failed its verdicts; groups of fewer "
         "than " +
         std::to_string(kFleetMinGroupNodes) + " nodes are not judged.";
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string valueText(double value, const FleetColumn& column) {
  return fixed(value, 2) + " " + column.unit;
}

std::string spreadText(const FleetSpread& spread, const FleetColumn& column) {
  return valueText(spread.median, column) + " (" + fixed(spread.bandPercent, 1) + "%)";
}

const char* cellMark(const FleetCell& cell, bool latency) {
  constexpr const char* marks[] = {nullptr, "ERR", "W", "-"};  // in FleetStatus's order
  if (cell.status != FleetStatus::Passed) return marks[static_cast<int>(cell.status)];
  return worsePercentOfMedian(cell, latency) ? nullptr : ".";
}

std::string reportVerdictsText(const ReportVerdicts& v) {
  std::string parts;
  for (const auto& [n, name] : {std::pair{v.slower, "SLOWER"}, std::pair{v.unstable, "UNSTABLE"},
                                std::pair{v.below, "BELOW"}})
    if (n > 0) parts += (parts.empty() ? "" : ", ") + std::to_string(n) + " " + name;
  return "its report's verdicts: " + parts;
}

namespace {

// "the median 21968.63 (band 5.0%)": what a flagged value was judged against.
std::string theMedian(const FleetSpread& spread) {
  return "the median " + fixed(spread.median, 2) + " (band " + fixed(spread.bandPercent, 1) + "%)";
}

// "SUM 20830.00 GB/s 5.2% below the median 21968.63 (band 5.0%)".
std::string judgedValue(const char* what, double value, const FleetSpread& spread,
                        const FleetColumn& column) {
  return std::string(what) + " " + valueText(value, column) + " " +
         fixed(std::fabs(deficitPercent(value, spread.median, column.latency())), 1) + "% " +
         (column.latency() ? "above" : "below") + " " + theMedian(spread);
}

// What flagged a testcase of a node: the worst cell, the SUM, or both.
std::string flagText(const FleetColumn& column, const FleetCell& cell, const FleetColumnStats& st,
                     Shown shown) {
  std::string text;
  if (cell.worstFlagged) {
    text += judgedValue("worst cell", cell.worst, st.worst, column);
    if (!cell.worstCell.empty()) text += " at " + shown(cell.worstCell, 40);
    if (cell.worstPercentOfPeak) text += ", " + fixed(*cell.worstPercentOfPeak, 1) + "% of peak";
  }
  if (cell.sumFlagged)
    text +=
        std::string(cell.worstFlagged ? "; " : "") + judgedValue("SUM", cell.sum, st.sum, column);
  return text;
}

FleetSpread spreadOf(const std::vector<double>& values, const std::string& testcase) {
  const double middle = median(values);
  const double mad = medianAbsoluteDeviation(values, middle);
  return {middle, mad, bandPercent(middle, mad, testcase)};
}

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
  stats.sum = spreadOf(sums, summary.columns[col].testcase);
  stats.worst = spreadOf(worsts, summary.columns[col].testcase);
  stats.judged =
      stats.nodes >= kFleetMinGroupNodes && stats.sum.median > 0.0 && stats.worst.median > 0.0;
  for (std::size_t n : members) {
    FleetCell& cell = summary.nodes[n].cells[col];
    if (cell.status != FleetStatus::Passed || !cell.hasValues) continue;
    if (stats.sum.median > 0.0) cell.sumPercentOfMedian = 100.0 * cell.sum / stats.sum.median;
    if (stats.worst.median > 0.0)
      cell.worstPercentOfMedian = 100.0 * cell.worst / stats.worst.median;
    cell.judged = stats.judged;
    if (!stats.judged) continue;
    cell.sumFlagged = deficitPercent(cell.sum, stats.sum.median, latency) > stats.sum.bandPercent;
    cell.worstFlagged =
        deficitPercent(cell.worst, stats.worst.median, latency) > stats.worst.bandPercent;
  }
}

// The flag rule's sentence, as the summary's JSON states it beside the rule's constants.
constexpr const char* kFleetRuleText =
    "A node's SUM or worst cell (lowest bandwidth, highest latency) is flagged when it is worse "
    "than its group's median by more than max(mad_factor x mad_to_sigma x MAD / median, "
    "floor_percent / 100, prior_factor x the testcase's prior run-to-run spread / 100, as the "
    "comparison's healthy band has it); groups are the nodes of one GPU model and count, and "
    "groups of fewer than min_group_nodes passed nodes are not judged. A node is flagged when a "
    "testcase of it is flagged or failed (ERROR or Running), or when its own report failed its "
    "verdicts (SLOWER or UNSTABLE cells of its comparison, BELOW cells of its expectations).";

}  // namespace

void judgeFleet(FleetSummary& summary) {
  summary.rule = {kFleetMadFactor, kMadToSigma,         kFleetFloorPercent,
                  kBandFactor,     kFleetMinGroupNodes, kFleetRuleText};
  std::map<std::string, std::size_t> index;
  std::vector<std::vector<std::size_t>> members;
  for (std::size_t n = 0; n < summary.nodes.size(); ++n) {
    FleetNode& node = summary.nodes[n];
    const std::string name = std::to_string(node.gpuCount) + " x " + node.gpuModel;
    auto [it, added] = index.try_emplace(name, summary.groups.size());
    if (added) {
      summary.groups.push_back({name, node.gpuModel, node.gpuCount, 0, {}});
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

std::string failedText(const FleetCell& cell, Shown shown) {
  return "failed (" + shown(cell.entryStatus, 16) + ")" +
         (cell.message.empty() ? "" : ": " + shown(cell.message, 200));
}

std::vector<std::string> flagReasons(const FleetSummary& s, const FleetNode& n, Shown shown) {
  const FleetGroup& group = s.groups.at(n.group);
  std::vector<std::string> reasons;
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    const FleetCell& cell = n.cells[c];
    const std::string lead = shown(s.columns[c].key, 120) + ": ";
    if (cell.status == FleetStatus::Failed) reasons.push_back(lead + failedText(cell, shown));
    if (cell.flagged())
      reasons.push_back(lead + flagText(s.columns[c], cell, group.columns[c], shown));
    if (cell.verdicts.failed()) reasons.push_back(lead + reportVerdictsText(cell.verdicts));
  }
  return reasons;
}

}  // namespace nvbw::summary
