// The fleet summary as the "summary" object of a JSON document (docs/nvbandwidth.schema.json,
// summaryDocument).
#include "fleet/comparison/healthy_band.h"
#include "fleet/summary/fleet_summary_internal.h"

namespace nvbw {

namespace {

using namespace summary;
using nlohmann::json;

json orNull(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json ruleJson() {
  return {{"mad_factor", kFleetMadFactor},
          {"mad_to_sigma", kMadToSigma},
          {"floor_percent", kFleetFloorPercent},
          {"prior_factor", kBandFactor},
          {"min_group_nodes", kFleetMinGroupNodes},
          {"description",
           "A node's SUM or worst cell (lowest bandwidth, highest latency) is flagged when it is "
           "worse than its group's median by more than max(mad_factor x mad_to_sigma x MAD / "
           "median, floor_percent / 100, prior_factor x the testcase's prior run-to-run spread "
           "/ 100, as the comparison's healthy band has it); groups are the nodes of one GPU model "
           "and count, and "
           "groups of fewer than min_group_nodes passed nodes are not judged. A node is flagged "
           "when a testcase of it is flagged or failed (ERROR or Running), or when its own report "
           "failed its verdicts (SLOWER or UNSTABLE cells of its comparison, BELOW cells of its "
           "expectations)."}};
}

json columnJson(const FleetColumn& c) {
  return {{"key", c.key}, {"testcase", c.testcase}, {"unit", c.unit}};
}

json groupJson(const FleetSummary& s, const FleetGroup& g) {
  json columns = json::array();
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    const FleetColumnStats& st = g.columns[c];
    json entry = {{"key", s.columns[c].key}, {"nodes", st.nodes}, {"judged", st.judged}};
    if (st.nodes > 0) {
      entry["sum_median"] = st.sumMedian;
      entry["sum_mad"] = st.sumMad;
      entry["sum_band_percent"] = st.sumBandPercent;
      entry["worst_median"] = st.worstMedian;
      entry["worst_mad"] = st.worstMad;
      entry["worst_band_percent"] = st.worstBandPercent;
    }
    columns.push_back(std::move(entry));
  }
  return {{"name", g.name},
          {"gpu_model", g.gpuModel},
          {"gpu_count", g.gpuCount},
          {"nodes", g.nodes},
          {"judged", g.nodes >= kFleetMinGroupNodes},
          {"testcases", std::move(columns)}};
}

json cellJson(const FleetColumn& column, const FleetCell& cell) {
  json out = {{"key", column.key}, {"status", fleetStatusName(cell.status)}};
  if (!cell.entryStatus.empty() && cell.status != FleetStatus::Passed)
    out["entry_status"] = cell.entryStatus;
  if (!cell.message.empty()) out["message"] = cell.message;
  if (cell.status != FleetStatus::Passed || !cell.hasValues) return out;
  out["sum"] = cell.sum;
  out["worst"] = cell.worst;
  out["worst_cell"] = cell.worstCell;
  out["worst_row"] = cell.worstRow;
  out["worst_col"] = cell.worstCol;
  out["sum_percent_of_median"] = orNull(cell.sumPercentOfMedian);
  out["worst_percent_of_median"] = orNull(cell.worstPercentOfMedian);
  out["percent_of_peak"] = orNull(cell.percentOfPeak);
  out["worst_percent_of_peak"] = orNull(cell.worstPercentOfPeak);
  out["judged"] = cell.judged;
  out["sum_flagged"] = cell.sumFlagged;
  out["worst_flagged"] = cell.worstFlagged;
  if (cell.verdicts.failed())
    out["report_verdicts"] = {{"slower", cell.verdicts.slower},
                              {"unstable", cell.verdicts.unstable},
                              {"below", cell.verdicts.below}};
  return out;
}

json nodeJson(const FleetSummary& s, const FleetNode& n) {
  json results = json::array();
  for (std::size_t c = 0; c < s.columns.size(); ++c)
    results.push_back(cellJson(s.columns[c], n.cells[c]));
  return {{"name", n.name},
          {"host", n.host},
          {"host_source", n.hostSource},
          {"file", n.file},
          {"group", s.groups.at(n.group).name},
          {"gpu_model", n.gpuModel},
          {"gpu_count", n.gpuCount},
          {"upstream", n.upstream},
          {"flagged", n.flagged()},
          {"slow", n.slow()},
          {"failed_its_verdicts", n.failedItsVerdicts()},
          {"failed", testcasesWithStatus(s, n, FleetStatus::Failed)},
          {"waived", testcasesWithStatus(s, n, FleetStatus::Waived)},
          {"missing", testcasesWithStatus(s, n, FleetStatus::Missing)},
          {"notes", n.notes},
          {"results", std::move(results)}};
}

}  // namespace

nlohmann::json fleetSummaryNodeJson(const FleetSummary& s, std::size_t node) {
  return nodeJson(s, s.nodes.at(node));
}

nlohmann::json fleetSummaryJson(const FleetSummary& s, bool withNodes) {
  json columns = json::array(), groups = json::array(), nodes = json::array(),
       unreadable = json::array();
  for (const FleetColumn& c : s.columns) columns.push_back(columnJson(c));
  for (const FleetGroup& g : s.groups) groups.push_back(groupJson(s, g));
  if (withNodes)
    for (const FleetNode& n : s.nodes) nodes.push_back(nodeJson(s, n));
  for (const UnreadableReport& u : s.unreadable)
    unreadable.push_back({{"file", u.file}, {"reason", u.reason}});
  return {{"rule", ruleJson()},
          {"counts",
           {{"reports", s.reports},
            {"nodes", s.nodes.size()},
            {"flagged", s.flaggedNodes()},
            {"unreadable", s.unreadable.size()}}},
          {"exit_status", fleetSummaryExitStatus(s)},
          {"notes", s.notes},
          {"testcases", std::move(columns)},
          {"groups", std::move(groups)},
          {"nodes", std::move(nodes)},
          {"unreadable", std::move(unreadable)}};
}

}  // namespace nvbw
