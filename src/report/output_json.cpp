// JSON output: upstream v0.8's document (json_style.h layout) with the differences of
// docs/compatibility.md: #c1 (CUDA Driver Version), #c3 (waive_reason), #c4 (error text in ERROR
// entries), #c9 (one entry per matrix) and #c16 (numbers beside the strings).
#include "report/output_json.h"

#include <locale>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "core/error.h"
#include "core/json_style.h"
#include "core/version.h"
#include "report/output.h"
#include "report/peak_assessment.h"

namespace nvbw {

namespace {

using nlohmann::json;

// Cells are strings in iostream's default format (6 significant digits), as upstream wrote them.
std::string defaultFormatted(double value) {
  std::ostringstream s;
  s.imbue(std::locale::classic());  // a global locale must not add digit grouping
  s << value;
  return s.str();
}

// null where a fact or value is unknown.
template <typename T> json orNull(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json cellStatistics(const CellResult& cell) {
  const SampleStatistics s = describeSamples(cell.samples());
  return {{"samples", cell.samples()}, {"min", s.min},       {"max", s.max},      {"mean", s.mean},
          {"median", s.median},        {"stddev", s.stddev}, {"cv", orNull(s.cv)}};
}

// Upstream's string matrix, its numeric twin (null for N/A) and the per-cell statistics.
void addMatrices(json& entry, const MatrixResult& m) {
  json strings = json::array(), values = json::array(), cells = json::array();
  for (std::size_t row = 0; row < m.spec.rows; ++row) {
    json stringRow = json::array(), valueRow = json::array(), cellRow = json::array();
    for (std::size_t col = 0; col < m.spec.cols; ++col) {
      const auto& cell = m.at(row, col);
      stringRow.push_back(cell ? defaultFormatted(cell->value()) : "N/A");
      valueRow.push_back(cell ? json(cell->value()) : json(nullptr));
      cellRow.push_back(cell ? cellStatistics(*cell) : json(nullptr));
    }
    strings.push_back(std::move(stringRow));
    values.push_back(std::move(valueRow));
    cells.push_back(std::move(cellRow));
  }
  entry["bandwidth_matrix"] = std::move(strings);
  entry["values"] = std::move(values);
  entry["cells"] = std::move(cells);
}

// Per cell the link that bounds it, its peak and the percent of it reached (null where unknown),
// and the outliers; absent when the run did not know the cells' links.
void addPeaks(json& entry, const MatrixResult& m) {
  if (m.links.size() != m.cells.size()) return;
  json links = json::array(), peaks = json::array(), percents = json::array();
  for (std::size_t row = 0; row < m.spec.rows; ++row) {
    json linkRow = json::array(), peakRow = json::array(), percentRow = json::array();
    for (std::size_t col = 0; col < m.spec.cols; ++col) {
      const CellLink& c = m.links[row * m.spec.cols + col];
      linkRow.push_back(c.link.name);
      peakRow.push_back(m.spec.unit == Unit::GBps ? orNull(c.link.gbPerSecond) : json());
      percentRow.push_back(orNull(percentOfPeak(m, row, col)));
    }
    links.push_back(std::move(linkRow));
    peaks.push_back(std::move(peakRow));
    percents.push_back(std::move(percentRow));
  }
  json flagged = json::array();
  for (const Outlier& o : outliers(m)) {
    const CellLink& c = m.links[o.row * m.spec.cols + o.col];
    flagged.push_back({{"row", o.row},
                       {"col", o.col},
                       {"cell", c.cell},
                       {"link", c.link.name},
                       {"below_median_percent", o.belowMedian * 100.0},
                       {"class_median", o.classMedian}});
  }
  json distinct = json::array();
  for (const CellLink& c : distinctLinks(m))
    distinct.push_back(
        {{"link", c.link.name},
         {"peak_GBps", m.spec.unit == Unit::GBps ? orNull(c.link.gbPerSecond) : json()},
         {"convention", c.convention}});
  entry["link_peaks"] = std::move(distinct);
  entry["links"] = std::move(links);
  entry["peak_GBps"] = std::move(peaks);
  entry["percent_of_peak"] = std::move(percents);
  entry["outliers"] = std::move(flagged);
}

json matrixEntry(const MatrixResult& m, bool verbose, Statistic stat) {
  json entry = {{"name", m.spec.key},
                {"status", statusName(Status::Passed)},
                {"bandwidth_description", m.spec.title},
                {"sum", m.sum()},
                {"unit", m.spec.unit == Unit::Nanoseconds ? "ns" : "GB/s"},
                {"statistic", statisticName(stat)}};
  addMatrices(entry, m);
  addPeaks(entry, m);
  if (!m.spec.rowLabels.empty()) entry["row_labels"] = m.spec.rowLabels;
  if (verbose) {
    // Over present cells only (docs/compatibility.md#c8); absent when there is none rather than a
    // fake value.
    if (const auto lo = m.min()) entry["min"] = *lo;
    if (const auto hi = m.max()) entry["max"] = *hi;
    if (const auto avg = m.average()) entry["average"] = *avg;
  }
  return entry;
}

json settingsObject(const RunSettings& s) {
  json settings = {{"bufferSize_MiB", s.bufferSizeMiB},
                   {"testSamples", s.samples},
                   {"loopCount", s.loopCount},
                   {"statistic", statisticName(s.statistic)},
                   {"verify", s.verify},
                   {"cpuAffinity", s.cpuAffinity},
                   {"useHugePages", s.useHugePages},
                   {"targetNumPairs", s.targetNumPairs}};
  if (!s.pair.empty()) settings["pair"] = s.pair;
  if (!s.sweepSizesMiB.empty()) settings["sweep_MiB"] = s.sweepSizesMiB;
  return settings;
}

json timingObject(const RunEnd::Timing& t) {
  const PhaseTimes& p = t.phases;
  return {{"wall_seconds", t.wallSeconds},          {"release_seconds", p.release},
          {"allocation_seconds", p.allocation},     {"fill_seconds", p.fill},
          {"enqueue_seconds", p.enqueue},           {"wait_seconds", p.wait},
          {"verification_seconds", p.verification}, {"latency_seconds", p.latency},
          {"timed_copies_seconds", p.timedCopies}};
}

json memoryObject(const MemoryStats& m) {
  return {{"host_bytes_allocated", m.hostBytesAllocated},
          {"device_bytes_allocated", m.deviceBytesAllocated},
          {"peak_host_bytes", m.peakHostBytes},
          {"peak_device_bytes", m.peakDeviceBytes}};
}

json pcieObject(const std::optional<PcieLinkState>& l) {
  if (!l) return nullptr;
  return {{"current_gts", l->currentGts},
          {"current_width", l->currentWidth},
          {"max_gts", l->maxGts},
          {"max_width", l->maxWidth},
          {"current", pcieLinkName(l->currentGts, l->currentWidth)},
          {"max", pcieLinkName(l->maxGts, l->maxWidth)}};
}

json gpuEnvironmentObject(std::size_t device, const GpuEnvironment& g) {
  return {{"device", device},
          {"sm_clock_mhz", orNull(g.smClockMHz)},
          {"sm_clock_max_mhz", orNull(g.smClockMaxMHz)},
          {"memory_clock_mhz", orNull(g.memoryClockMHz)},
          {"memory_clock_max_mhz", orNull(g.memoryClockMaxMHz)},
          {"clocks_locked", orNull(g.clocksLocked)},
          {"power_limit_w", orNull(g.powerLimitW)},
          {"power_draw_w", orNull(g.powerDrawW)},
          {"temperature_c", orNull(g.temperatureC)},
          {"ecc_enabled", orNull(g.eccEnabled)},
          {"persistence_mode", orNull(g.persistenceMode)},
          {"mig_enabled", orNull(g.migEnabled)},
          {"compute_mode", orNull(g.computeMode)},
          {"throttle_seconds", g.throttleNs ? json(*g.throttleNs / 1e9) : json(nullptr)},
          {"pcie", pcieObject(g.pcie)},
          {"numa_node", orNull(g.numaNode)},
          {"host_buffer_cpus", orNull(g.hostBufferCpus)}};
}

json environmentObject(const EnvironmentSnapshot& e) {
  json gpus = json::array();
  for (std::size_t d = 0; d < e.gpus.size(); ++d)
    gpus.push_back(gpuEnvironmentObject(d, e.gpus[d]));
  return {
      {"host", {{"cpu_model", orNull(e.host.cpuModel)}, {"numa_nodes", orNull(e.host.numaNodes)}}},
      {"nvml_problem", orNull(e.nvmlProblem)},
      {"gpus", std::move(gpus)}};
}

class JsonOutput : public Output {
 public:
  JsonOutput(std::ostream& out, OutputSettings settings) : out_(out), settings_(settings) {}

  void header(const RunHeader& header) override {
    const SystemFacts& info = header.system;
    statistic_ = header.settings.statistic;
    root_["version"] = info.version;
    root_["git_version"] = info.gitVersion;
    root_["schema_version"] = kJsonSchemaVersion;
    root_["settings"] = settingsObject(header.settings);
    if (!header.warnings.empty()) {
      root_["warning"] = header.warnings.back();  // upstream's key: each replaced the last
      root_["warnings"] = header.warnings;
    }
    // Strict consumers (DCGM's plugin) need these three even when start-up failed.
    root_["CUDA Runtime Version"] = info.cudaRuntimeVersion;
    root_["Driver Version"] = info.driverVersion;
    if (!header.gpusOpened) return;
    root_["CUDA Driver Version"] = info.cudaDriverVersion;
    json devices = json::array();
    for (std::size_t i = 0; i < info.devices.size(); ++i)
      devices.push_back(std::to_string(i) + ": " + info.devices[i].name + " (" +
                        formatBdf(info.devices[i]) + "): (" + info.hostname + ")");
    root_["GPU Device list"] = std::move(devices);
    if (header.environment) root_["environment"] = environmentObject(*header.environment);
    if (!info.processes.empty()) addProcesses(info);
  }

  void testcaseStarted(const std::string& key) override { running_ = key; }

  void testcaseFinished(const TestcaseResult& result) override {
    running_.clear();
    switch (result.status) {
    case Status::Passed:
      addPassed(result);
      break;
    case Status::Waived:
      addEntry({{"name", result.name},
                {"status", statusName(Status::Waived)},
                {"waive_reason", result.message}});
      break;
    case Status::Error: {
      json entry = {
          {"name", result.name}, {"status", statusName(Status::Error)}, {"error", result.message}};
      if (result.sweepSizeMiB) entry["bufferSize_MiB"] = *result.sweepSizeMiB;
      addEntry(std::move(entry));
      break;
    }
    }
  }

  void globalError(const std::string& message) override { root_["error"] = message; }

  void sweepFinished(const SweepTable& table) override {
    json& sweep = root_["sweep"];
    sweep["sizes_MiB"] = table.sizesMiB;
    if (!sweep.contains("series")) sweep["series"] = json::array();
    for (const SweepSeries& s : sweepSeries(table)) {
      json sums = json::array();
      for (const auto& v : s.sums) sums.push_back(orNull(v));
      sweep["series"].push_back({{"testcase", table.testcase},
                                 {"name", s.name},
                                 {"unit", s.unit == Unit::Nanoseconds ? "ns" : "GB/s"},
                                 {"sums", std::move(sums)},
                                 {"size_reaching_90_percent_MiB", orNull(s.reachSizeMiB)}});
    }
  }

  void comparison(const Comparison& result) override {
    root_["comparison"] = comparisonJson(result);
  }

  void finish(const RunEnd& end) override {
    if (!root_.contains("version")) root_["version"] = kVersion;
    if (!root_.contains("git_version")) root_["git_version"] = kGitVersion;
    // A testcase cut short by a run-level error stays "Running", as upstream left it.
    if (!running_.empty()) addEntry({{"name", running_}, {"status", "Running"}});
    if (!root_.contains("testcases")) root_["testcases"] = json::array();
    if (end.interruptedBy) root_["interrupted"] = signalName(*end.interruptedBy);
    if (end.environment) root_["environment_at_end"] = environmentObject(*end.environment);
    for (const std::string& line : end.warnings) {
      root_["warning"] = line;
      root_["warnings"].push_back(line);
    }
    if (end.timing) {
      root_["timing"] = timingObject(*end.timing);
      root_["memory"] = memoryObject(end.timing->memory);
    }
    out_ << styledJson(json{{"nvbandwidth", root_}}) << "\n" << std::flush;
  }

 private:
  void addEntry(json entry) {
    if (!root_.contains("testcases")) root_["testcases"] = json::array();
    root_["testcases"].push_back(std::move(entry));
  }

  void addProcesses(const SystemFacts& info) {
    json processes = json::array();
    for (std::size_t rank = 0; rank < info.processes.size(); ++rank) {
      const ProcessInfo& p = info.processes[rank];
      processes.push_back({{"rank", rank},
                           {"host", p.host},
                           {"device", p.device},
                           {"name", p.gpu.name},
                           {"pci", formatBdf(p.gpu)},
                           {"uuid", p.uuid}});
    }
    root_["processes"] = std::move(processes);
    root_["MPI version"] = info.mpiVersion;
    root_["memory_sharing"] = info.memorySharing;
  }

  void addPassed(const TestcaseResult& result) {
    if (result.matrices.empty()) {
      addEntry({{"name", result.name}, {"status", statusName(Status::Passed)}});
      return;
    }
    for (const auto& m : result.matrices) {
      json entry = matrixEntry(m, settings_.verbose, statistic_);
      if (result.sweepSizeMiB) entry["bufferSize_MiB"] = *result.sweepSizeMiB;
      // Entries of multi-matrix testcases are named like their SUM lines
      // (docs/compatibility.md#c9); this lets a script still find them by the key it passed to -t.
      if (m.spec.key != result.name) entry["testcase"] = result.name;
      addEntry(std::move(entry));
    }
  }

  std::ostream& out_;
  OutputSettings settings_;
  Statistic statistic_ = Statistic::Median;
  json root_ = json::object();
  std::string running_;
};

}  // namespace

std::unique_ptr<Output> makeJsonOutput(std::ostream& out, OutputSettings settings) {
  return std::make_unique<JsonOutput>(out, settings);
}

}  // namespace nvbw
