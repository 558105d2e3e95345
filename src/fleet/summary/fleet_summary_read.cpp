// One report reduced to what the fleet summary shows: read by the report reader (its checks, its
// messages; the cells' samples and the sections the summary does not show only checked to be
// JSON), then each matrix reduced to its SUM and worst cell.
#include <map>

#include "core/format.h"
#include "core/text.h"
#include "fleet/summary/fleet_summary_internal.h"
#include "model/report_files.h"

namespace nvbw::summary {

namespace {

FleetColumn columnOf(const std::string& key, const std::string& testcase, bool latency) {
  return {key, testcase.empty() ? key : testcase, latency ? "ns" : "GB/s"};
}

// An entry without a matrix to summarize (not passed, or passed without one).
EntryDigest statusDigest(const ReportEntry& e) {
  EntryDigest d{columnOf(e.name, e.testcase.value_or(""), e.unit == Unit::Nanoseconds), {}};
  d.cell.entryStatus = statusName(e.status);
  if (e.status == Status::Passed) {
    d.cell.status = FleetStatus::Passed;
    return d;
  }
  d.cell.status = e.status == Status::Waived ? FleetStatus::Waived : FleetStatus::Failed;
  d.cell.message = e.status == Status::Waived ? e.waiveReason.value_or("") : e.error.value_or("");
  return d;
}

// A cell's peak: the report's, else what its percent of peak implies; nullopt when unknown.
OrNull cellPeak(const MatrixView& m, std::size_t r, std::size_t c, double value) {
  OrNull peak = m.peak(r, c);
  if (!peak) {
    const OrNull percent = m.percent(r, c);
    if (percent && *percent > 0.0) peak = 100.0 * value / *percent;
  }
  return peak;
}

// "GPU 3 -> GPU 0", "CPU <- GPU 2", "GPU 5": a cell of a matrix of `rows` rows named by its axes
// (the model's reading of its title, "memcpy CE GPU(row) -> GPU(column) ..."); a one-row matrix
// of GPU rows (all_to_one, device_local_copy) by its column's GPU; "[r][c]" when the title does
// not say.
std::string cellName(const MatrixAxes& axes, std::size_t rows, std::size_t row, std::size_t col) {
  if (!axes.colsNamed) return nvbw::cellName(row, col);
  const std::string column =
      (axes.colWord.empty() ? "GPU" : axes.colWord) + " " + std::to_string(col);
  if (!axes.rowBeforeColumn) return column;
  const std::string arrow = axes.arrow.empty() ? "->" : axes.arrow;
  if (rows == 1) return axes.rowsAreCpu() ? "CPU " + arrow + " " + column : column;
  return (axes.rowWord.empty() ? "GPU" : axes.rowWord) + " " + std::to_string(row) + " " + arrow +
         " " + column;
}

EntryDigest matrixDigest(const MatrixView& m) {
  const ReportEntry& e = m.entry();
  // The three matrices of upstream's stacked entries are of the entry's testcase.
  EntryDigest d{
      columnOf(m.key(), m.part().wholeEntry ? e.testcase.value_or("") : e.name, m.latency()), {}};
  const bool latency = m.latency();
  FleetCell& cell = d.cell;
  cell.status = FleetStatus::Passed;
  cell.entryStatus = statusName(Status::Passed);
  double sum = 0.0, peakSum = 0.0, valueWithPeakSum = 0.0;
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c) {
      const OrNull v = m.value(r, c);
      if (!v) continue;
      sum += *v;
      if (!cell.hasValues || (latency ? *v > cell.worst : *v < cell.worst)) {
        cell.worst = *v;
        cell.worstRow = static_cast<std::uint32_t>(r);
        cell.worstCol = static_cast<std::uint32_t>(c);
      }
      cell.hasValues = true;
      const OrNull peak = cellPeak(m, r, c, *v);
      if (peak && *peak > 0.0) {
        peakSum += *peak;
        valueWithPeakSum += *v;
      }
    }
  cell.sum = m.sum().value_or(sum);
  if (cell.hasValues) {
    cell.worstCell = cellName(m.part().axes, m.rows(), cell.worstRow, cell.worstCol);
    cell.worstPercentOfPeak = m.percent(cell.worstRow, cell.worstCol);
    if (peakSum > 0.0 && !latency) cell.percentOfPeak = 100.0 * valueWithPeakSum / peakSum;
  }
  return d;
}

// The report's own failing verdicts, by matrix key.
std::map<std::string, ReportVerdicts> verdictsOf(const Report& r) {
  std::map<std::string, ReportVerdicts> verdicts;
  if (r.comparison && r.comparison->cells)
    for (const ComparedCellRecord& cell : *r.comparison->cells) {
      if (cell.verdict == "SLOWER") ++verdicts[cell.name].slower;
      if (cell.verdict == "UNSTABLE") ++verdicts[cell.name].unstable;
    }
  for (const ExpectationSection& check : orEmpty(r.expectations))
    for (const BelowCellRecord& cell : orEmpty(check.below))
      ++verdicts[cell.name.value_or("")].below;
  return verdicts;
}

// The host: the report's "hostname", else the first host its device list names, else its first
// process's.
void nameHost(const Report& r, FleetNode& d) {
  std::vector<std::pair<std::string, const char*>> candidates = {
      {r.hostname.value_or(""), "hostname"}};
  for (const std::string& entry : orEmpty(r.gpuDeviceList))
    candidates.emplace_back(readDeviceListEntry(entry).host, "GPU Device list");
  if (r.processes && !r.processes->empty())
    candidates.emplace_back(r.processes->front().host.value_or(""), "processes");
  for (const auto& [host, source] : candidates)
    if (!host.empty()) {
      d.host = host;
      d.hostSource = source;
      return;
    }
}

ReportDigest digestOf(const Report& r) {
  ReportDigest d;
  d.node.upstream = r.upstream();
  d.node.logicalGpus = r.logicalGpus;
  const MachineShape shape = machineShapeOf(r);  // "NVIDIA H200", "A + B" for a mix
  d.node.gpuCount = shape.gpus;
  d.node.gpuModel = shape.models.empty() ? "unknown" : joined(shape.models, " + ");
  nameHost(r, d.node);
  const std::map<std::string, ReportVerdicts> verdicts = verdictsOf(r);
  for (const ReportEntry& e : *r.testcases)
    if (!e.passedWithMatrix())
      d.entries.push_back(statusDigest(e));
    else
      for (const MatrixPart& part : e.parts) d.entries.push_back(matrixDigest(MatrixView(e, part)));
  for (EntryDigest& e : d.entries)
    if (const auto found = verdicts.find(e.column.key);
        found != verdicts.end() && e.cell.status == FleetStatus::Passed)
      e.cell.verdicts = found->second;
  d.node.notes = runNotes(r);
  return d;
}

}  // namespace

ReportDigest digestReport(const std::string& text, const StopRequest& stop) {
  return digestOf(readReportText(text, {ReportKind::Run, ReadScope::Matrices}, stop));
}

}  // namespace nvbw::summary
