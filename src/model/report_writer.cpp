// The report writer (report_writer.h): the Report as a document, styled as upstream's writer
// styled it (json_style.h).
#include "model/report_writer.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <utility>

#include "model/json_style.h"
#include "model/record_fields.h"
#include "model/report_keys.h"

namespace nvbw {

namespace {

using nlohmann::json;
using namespace model;

template <typename T> json orNull(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

template <typename T> void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

// A grid as rows of cells, each cell made by `cell`.
template <typename T, typename Cell> json gridJson(const Grid<T>& grid, Cell cell) {
  json rows = json::array();
  for (std::size_t r = 0; r < grid.rows; ++r) {
    json row = json::array();
    for (std::size_t c = 0; c < grid.cols; ++c) row.push_back(cell(grid.at(r, c)));
    rows.push_back(std::move(row));
  }
  return rows;
}

json cellStatisticsJson(const std::optional<CellStatistics>& cell) {
  if (!cell) return nullptr;
  return {{keys::kSamples, cell->samples}, {keys::kMin, cell->min},
          {keys::kMax, cell->max},         {keys::kMean, cell->mean},
          {keys::kMedian, cell->median},   {keys::kStddev, cell->stddev},
          {keys::kCv, orNull(cell->cv)}};
}

void putGrids(json& j, const ReportEntry& e) {
  const auto number = [](const OrNull& v) { return orNull(v); };
  if (e.values) j[keys::kValues] = gridJson(*e.values, number);
  if (e.texts)
    j[keys::kBandwidthMatrix] = gridJson(*e.texts, [](const std::string& t) { return json(t); });
  if (e.cells) j[keys::kCells] = gridJson(*e.cells, cellStatisticsJson);
  if (e.links)
    j[keys::kLinks] =
        gridJson(*e.links, [](const std::optional<std::string>& l) { return orNull(l); });
  if (e.peaks) j[keys::kPeakGBps] = gridJson(*e.peaks, number);
  if (e.percents) j[keys::kPercentOfPeak] = gridJson(*e.percents, number);
}

json entryJson(const ReportEntry& e) {
  json j = writeRecord(e, entryFields());
  j[keys::kName] = e.name;
  j[keys::kStatus] = statusName(e.status);
  putGrids(j, e);
  return j;
}

json entriesJson(const std::vector<ReportEntry>& entries) {
  json list = json::array();
  for (const ReportEntry& e : entries) list.push_back(entryJson(e));
  return list;
}

void putFacts(json& j, const Report& r) {
  put(j, keys::kVersion, r.version);
  put(j, keys::kGitVersion, r.gitVersion);
  put(j, keys::kCudaRuntimeVersion, r.cudaRuntimeVersion);
  put(j, keys::kDriverVersion, r.driverVersion);
  put(j, keys::kGpuDeviceList, r.gpuDeviceList);
  put(j, keys::kWarning, r.warning);
  put(j, keys::kError, r.error);
  put(j, keys::kErrorDetail, r.errorDetail);
  put(j, keys::kCudaDriverVersion, r.cudaDriverVersion);
  put(j, keys::kLogicalGpus, r.logicalGpus);
  put(j, keys::kConfidentialComputing, r.confidentialComputing);
  put(j, keys::kSchemaVersion, r.schemaVersion);
  put(j, keys::kRelease, r.release);
  put(j, keys::kHostname, r.hostname);
  put(j, keys::kStartedAt, r.startedAt);
  put(j, keys::kWarnings, r.warnings);
  put(j, keys::kInterrupted, r.interrupted);
  put(j, keys::kMpiVersion, r.mpiVersion);
  put(j, keys::kMemorySharing, r.memorySharing);
}

json runJson(const Report& r) {
  json j = json::object();
  putFacts(j, r);
  if (r.operations) j[keys::kOperations] = *r.operations;
  put(j, keys::kNotes, r.notes);
  if (r.processes) j[keys::kProcesses] = writeRecords(*r.processes, processFields());
  if (r.settings) j[keys::kSettings] = writeRecord(*r.settings, settingsFields());
  if (r.timing) j[keys::kTiming] = writeRecord(*r.timing, timingFields());
  if (r.memory) j[keys::kMemory] = writeRecord(*r.memory, memoryFields());
  if (r.environment) j[keys::kEnvironment] = writeRecord(*r.environment, environmentFields());
  if (r.environmentAtEnd)
    j[keys::kEnvironmentAtEnd] = writeRecord(*r.environmentAtEnd, environmentFields());
  if (r.testcases) j[keys::kTestcases] = entriesJson(*r.testcases);
  if (r.sweep) j[keys::kSweep] = writeRecord(*r.sweep, sweepFields());
  if (r.comparison) j[keys::kComparison] = writeRecord(*r.comparison, comparisonFields());
  if (r.confirmations) j[keys::kConfirmations] = entriesJson(*r.confirmations);
  if (r.expectations) j[keys::kExpectations] = writeRecords(*r.expectations, expectationFields());
  return j;
}

json document(json run) { return json{{keys::kRoot, std::move(run)}}; }

// ---- The fleet summary ----

json ruleJson(const SummaryRule& rule) {
  return {{keys::kMadFactor, rule.madFactor},         {keys::kMadToSigma, rule.madToSigma},
          {keys::kFloorPercent, rule.floorPercent},   {keys::kPriorFactor, rule.priorFactor},
          {keys::kMinGroupNodes, rule.minGroupNodes}, {keys::kDescription, rule.description}};
}

json columnJson(const FleetColumn& c) {
  return {{keys::kKey, c.key}, {keys::kTestcase, c.testcase}, {keys::kUnit, c.unit}};
}

json groupJson(const FleetSummary& s, const FleetGroup& g) {
  json columns = json::array();
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    const FleetColumnStats& st = g.columns[c];
    json entry = {
        {keys::kKey, s.columns[c].key}, {keys::kNodes, st.nodes}, {keys::kJudged, st.judged}};
    if (st.nodes > 0) {
      entry[keys::kSumMedian] = st.sumMedian;
      entry[keys::kSumMad] = st.sumMad;
      entry[keys::kSumBandPercent] = st.sumBandPercent;
      entry[keys::kWorstMedian] = st.worstMedian;
      entry[keys::kWorstMad] = st.worstMad;
      entry[keys::kWorstBandPercent] = st.worstBandPercent;
    }
    columns.push_back(std::move(entry));
  }
  return {{keys::kName, g.name},
          {keys::kGpuModel, g.gpuModel},
          {keys::kGpuCount, g.gpuCount},
          {keys::kNodes, g.nodes},
          {keys::kJudged, g.nodes >= s.rule.minGroupNodes},
          {keys::kTestcases, std::move(columns)}};
}

json fleetCellJson(const FleetColumn& column, const FleetCell& cell) {
  json out = {{keys::kKey, column.key}, {keys::kStatus, fleetStatusName(cell.status)}};
  if (!cell.entryStatus.empty() && cell.status != FleetStatus::Passed)
    out[keys::kEntryStatus] = cell.entryStatus;
  if (!cell.message.empty()) out[keys::kMessage] = cell.message;
  if (cell.status != FleetStatus::Passed || !cell.hasValues) return out;
  out[keys::kSum] = cell.sum;
  out[keys::kWorst] = cell.worst;
  out[keys::kWorstCell] = cell.worstCell;
  out[keys::kWorstRow] = cell.worstRow;
  out[keys::kWorstCol] = cell.worstCol;
  out[keys::kSumPercentOfMedian] = orNull(cell.sumPercentOfMedian);
  out[keys::kWorstPercentOfMedian] = orNull(cell.worstPercentOfMedian);
  out[keys::kPercentOfPeak] = orNull(cell.percentOfPeak);
  out[keys::kWorstPercentOfPeak] = orNull(cell.worstPercentOfPeak);
  out[keys::kJudged] = cell.judged;
  out[keys::kSumFlagged] = cell.sumFlagged;
  out[keys::kWorstFlagged] = cell.worstFlagged;
  if (cell.verdicts.failed())
    out[keys::kReportVerdicts] = {{keys::kSlower, cell.verdicts.slower},
                                  {keys::kUnstable, cell.verdicts.unstable},
                                  {keys::kBelow, cell.verdicts.below}};
  return out;
}

json nodeJson(const FleetSummary& s, const FleetNode& n) {
  json results = json::array();
  for (std::size_t c = 0; c < s.columns.size(); ++c)
    results.push_back(fleetCellJson(s.columns[c], n.cells[c]));
  return {{keys::kName, n.name},
          {keys::kHost, n.host},
          {keys::kHostSource, n.hostSource},
          {keys::kFile, n.file},
          {keys::kGroup, s.groups.at(n.group).name},
          {keys::kGpuModel, n.gpuModel},
          {keys::kGpuCount, n.gpuCount},
          {keys::kUpstream, n.upstream},
          {keys::kFlagged, n.flagged()},
          {keys::kSlow, n.slow()},
          {keys::kFailedItsVerdicts, n.failedItsVerdicts()},
          {keys::kFailed, testcasesWithStatus(s, n, FleetStatus::Failed)},
          {keys::kWaivedTestcases, testcasesWithStatus(s, n, FleetStatus::Waived)},
          {keys::kMissing, testcasesWithStatus(s, n, FleetStatus::Missing)},
          {keys::kNotes, n.notes},
          {keys::kResults, std::move(results)}};
}

// The "summary" object, its "nodes" left empty for the writer to stream.
json summaryJson(const FleetSummary& s) {
  json columns = json::array(), groups = json::array(), unreadable = json::array();
  for (const FleetColumn& c : s.columns) columns.push_back(columnJson(c));
  for (const FleetGroup& g : s.groups) groups.push_back(groupJson(s, g));
  for (const UnreadableReport& u : s.unreadable)
    unreadable.push_back({{keys::kFile, u.file}, {keys::kReason, u.reason}});
  return {{keys::kRule, ruleJson(s.rule)},
          {keys::kCounts,
           {{keys::kReports, s.reports},
            {keys::kNodes, s.nodes.size()},
            {keys::kFlagged, s.flaggedNodes()},
            {keys::kUnreadable, s.unreadable.size()}}},
          {keys::kExitStatus, fleetSummaryExitStatus(s)},
          {keys::kNotes, s.notes},
          {keys::kTestcases, std::move(columns)},
          {keys::kGroups, std::move(groups)},
          {keys::kNodes, json::array()},
          {keys::kUnreadable, std::move(unreadable)}};
}

}  // namespace

std::string reportJson(const Report& report) { return styledJson(document(runJson(report))); }

void writeReportJson(std::ostream& out, const Report& report, const ComparedCells* cells) {
  json doc = document(runJson(report));
  if (!cells || !report.comparison) {
    writeStyledJson(out, doc);
    return;
  }
  json& placeholder = doc[keys::kRoot][keys::kComparison][keys::kCells];
  placeholder = json::array();
  const StreamedArray streamed{&placeholder, [cells](json& cell) {
                                 ComparedCellRecord record;
                                 if (!(*cells)(record)) return false;
                                 cell = writeRecord(record, comparedCellFields());
                                 return true;
                               }};
  writeStyledJson(out, doc, &streamed);
}

void writeSummaryJson(std::ostream& out, const Report& versions, const FleetSummary& summary) {
  json run = runJson(versions);
  run[keys::kSummary] = summaryJson(summary);
  const json doc = document(std::move(run));
  std::size_t next = 0;
  const StreamedArray nodes{&doc[keys::kRoot][keys::kSummary][keys::kNodes],
                            [&summary, &next](json& node) {
                              if (next == summary.nodes.size()) return false;
                              node = nodeJson(summary, summary.nodes[next++]);
                              return true;
                            }};
  writeStyledJson(out, doc, &nodes);
}

std::string listingJson(const Report& versions, const std::vector<ListingRecord>& testcases) {
  json list = json::array();
  for (const ListingRecord& t : testcases)
    list.push_back(
        {{keys::kIndex, t.index}, {keys::kName, t.name}, {keys::kDescription, t.description}});
  json run = runJson(versions);
  run[keys::kTestcases] = std::move(list);
  return styledJson(document(std::move(run)));
}

std::string compactJson(const Json& value) { return value.dump(); }

std::string jsonNumberText(double value) { return json(value).dump(); }

}  // namespace nvbw
