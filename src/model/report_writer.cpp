#include "model/report_writer.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <utility>

#include "model/json_style.h"

namespace nvbw {

namespace {

using nlohmann::json;

template <typename T> json orNull(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json document(json run) { return json{{"nvbandwidth", std::move(run)}}; }

// ---- The fleet summary ----

json ruleJson(const SummaryRule& rule) {
  return {{"mad_factor", rule.madFactor},          {"mad_to_sigma", rule.madToSigma},
          {"floor_percent", rule.floorPercent},    {"prior_factor", rule.priorFactor},
          {"min_group_nodes", rule.minGroupNodes}, {"description", rule.description}};
}

json columnJson(const FleetColumn& c) {
  return {{"key", c.key}, {"testcase", c.testcase}, {"unit", c.unit}};
}

json groupJson(const FleetSummary& s, const FleetGroup& g) {
  json columns = json::array();
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    const FleetColumnStats& st = g.columns[c];
    json entry = {{"key", s.columns[c].key}, {"nodes", st.nodes}, {"judged", st.judged}};
    if (st.nodes > 0)
      for (const auto& [prefix, spread] :
           {std::pair{"sum_", st.sum}, std::pair{"worst_", st.worst}}) {
        entry[prefix + std::string("median")] = spread.median;
        entry[prefix + std::string("mad")] = spread.mad;
        entry[prefix + std::string("band_percent")] = spread.bandPercent;
      }
    columns.push_back(std::move(entry));
  }
  return {{"name", g.name},
          {"gpu_model", g.gpuModel},
          {"gpu_count", g.gpuCount},
          {"nodes", g.nodes},
          {"judged", g.nodes >= s.rule.minGroupNodes},
          {"testcases", std::move(columns)}};
}

const char* fleetStatusName(FleetStatus s) {
  constexpr const char* names[] = {"Passed", "failed", "Waived", "missing"};  // in enum order
  return names[static_cast<int>(s)];
}

json fleetCellJson(const FleetColumn& column, const FleetCell& cell) {
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
    results.push_back(fleetCellJson(s.columns[c], n.cells[c]));
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

// The "summary" object, its "nodes" left empty for the writer to stream.
json summaryJson(const FleetSummary& s) {
  json columns = json::array(), groups = json::array(), unreadable = json::array();
  for (const FleetColumn& c : s.columns) columns.push_back(columnJson(c));
  for (const FleetGroup& g : s.groups) groups.push_back(groupJson(s, g));
  for (const UnreadableReport& u : s.unreadable)
    unreadable.push_back({{"file", u.file}, {"reason", u.reason}});
  return {{"rule", ruleJson(s.rule)},
          {"counts",
           {{"reports", s.reports},
            {"nodes", s.nodes.size()},
            {"flagged", s.flaggedNodes()},
            {"unreadable", s.unreadable.size()}}},
          {"exit_status", fleetSummaryExitStatus(s)},
          {"notes", s.notes},
          {"testcases", std::move(columns)},
          {"groups", std::move(groups)},
          {"nodes", json::array()},
          {"unreadable", std::move(unreadable)}};
}

}  // namespace

std::string reportJson(const Report& report) { return styledJson(document(membersOf(report))); }

void writeReportJson(std::ostream& out, const Report& report,
                     const std::vector<ComparedCellRecord>* cells) {
  json doc = document(membersOf(report));
  if (!cells || !report.comparison) {
    writeStyledJson(out, doc);
    return;
  }
  json& placeholder = doc["nvbandwidth"]["comparison"]["cells"];
  placeholder = json::array();
  std::size_t next = 0;
  const StreamedArray streamed{&placeholder, [cells, &next](json& cell) {
                                 if (next == cells->size()) return false;
                                 cell = membersOf((*cells)[next++]);
                                 return true;
                               }};
  writeStyledJson(out, doc, &streamed);
}

void writeSummaryJson(std::ostream& out, const Report& versions, const FleetSummary& summary) {
  json run = membersOf(versions);
  run["summary"] = summaryJson(summary);
  const json doc = document(std::move(run));
  std::size_t next = 0;
  const StreamedArray nodes{&doc["nvbandwidth"]["summary"]["nodes"], [&summary, &next](json& node) {
                              if (next == summary.nodes.size()) return false;
                              node = nodeJson(summary, summary.nodes[next++]);
                              return true;
                            }};
  writeStyledJson(out, doc, &nodes);
}

std::string listingJson(const Report& versions, const std::vector<ListingRecord>& testcases) {
  json list = json::array();
  for (const ListingRecord& t : testcases)
    list.push_back({{"index", t.index}, {"name", t.name}, {"description", t.description}});
  json run = membersOf(versions);
  run["testcases"] = std::move(list);
  return styledJson(document(std::move(run)));
}

std::string compactJson(const Json& value) { return value.dump(); }

std::string jsonNumberText(double value) { return json(value).dump(); }

}  // namespace nvbw
