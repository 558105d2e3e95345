// JSON output: upstream v0.8's document (json_style.h layout) with the differences of
// docs/compatibility.md: #c1 (CUDA Driver Version), #c3 (waive_reason), #c4 (error text in ERROR
// entries), #c9 (one entry per matrix) and #c16 (numbers beside the strings).
#include "report/output_json.h"

#include <locale>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "core/error.h"
#include "core/version.h"
#include "model/json_style.h"
#include "model/report_document.h"
#include "model/report_keys.h"
#include "plans/schedule.h"
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
  return {{keys::kSamples, cell.samples()},
          {keys::kMin, s.min},
          {keys::kMax, s.max},
          {keys::kMean, s.mean},
          {keys::kMedian, s.median},
          {keys::kStddev, s.stddev},
          {keys::kCv, orNull(s.cv)}};
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
  entry[keys::kBandwidthMatrix] = std::move(strings);
  entry[keys::kValues] = std::move(values);
  entry[keys::kCells] = std::move(cells);
}

// The cells above 100% of their link's peak (physically impossible), where there are any.
void addAbovePeak(json& entry, const MatrixResult& m) {
  const std::vector<AbovePeak> found = abovePeak(m);
  if (found.empty()) return;
  json cells = json::array();
  for (const AbovePeak& a : found) {
    const CellLink& c = m.links[a.row * m.spec.cols + a.col];
    cells.push_back({{keys::kRow, a.row},
                     {keys::kCol, a.col},
                     {"cell", c.cell},
                     {"link", c.link.name},
                     {keys::kPeakGBps, orNull(c.link.gbPerSecond)},
                     {keys::kPercentOfPeak, a.percent}});
  }
  entry[keys::kAbovePeak] = std::move(cells);
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
    flagged.push_back({{keys::kRow, o.row},
                       {keys::kCol, o.col},
                       {"cell", c.cell},
                       {"link", c.link.name},
                       {"below_median_percent", o.belowMedian * 100.0},
                       {"class_median", o.classMedian}});
  }
  json distinct = json::array();
  for (const CellLink& c : distinctLinks(m))
    distinct.push_back(
        {{"link", c.link.name},
         {keys::kPeakGBps, m.spec.unit == Unit::GBps ? orNull(c.link.gbPerSecond) : json()},
         {"convention", c.convention}});
  entry[keys::kLinkPeaks] = std::move(distinct);
  entry[keys::kLinks] = std::move(links);
  entry[keys::kPeakGBps] = std::move(peaks);
  entry[keys::kPercentOfPeak] = std::move(percents);
  entry[keys::kOutliers] = std::move(flagged);
  addAbovePeak(entry, m);
}

json matrixEntry(const MatrixResult& m, bool verbose, Statistic stat) {
  json entry = {{keys::kName, m.spec.key},
                {keys::kStatus, statusName(Status::Passed)},
                {keys::kBandwidthDescription, m.spec.title},
                {keys::kSum, m.sum()},
                {keys::kUnit, m.spec.unit == Unit::Nanoseconds ? "ns" : "GB/s"},
                {keys::kStatistic, statisticName(stat)}};
  addMatrices(entry, m);
  addPeaks(entry, m);
  if (!m.spec.rowLabels.empty()) entry[keys::kRowLabels] = m.spec.rowLabels;
  if (verbose) {
    // Over present cells only (docs/compatibility.md#c8); absent when there is none rather than a
    // fake value.
    if (const auto lo = m.min()) entry[keys::kMin] = *lo;
    if (const auto hi = m.max()) entry[keys::kMax] = *hi;
    if (const auto avg = m.average()) entry[keys::kAverage] = *avg;
  }
  return entry;
}

json settingsObject(const RunSettings& s) {
  json settings = {{keys::kBufferSizeMiB, s.bufferSizeMiB},
                   {"testSamples", s.samples},
                   {"loopCount", s.loopCount},
                   {keys::kStatistic, statisticName(s.statistic)},
                   {"verify", s.verify},
                   {"cpuAffinity", s.cpuAffinity},
                   {"useHugePages", s.useHugePages},
                   {"targetNumPairs", s.targetNumPairs}};
  if (!s.pair.empty()) settings["pair"] = s.pair;
  if (!s.sweepSizesMiB.empty()) settings["sweep_MiB"] = s.sweepSizesMiB;
  if (!s.schedule.empty()) settings[keys::kSchedule] = s.schedule;
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
          {"peak_device_bytes", m.peakDeviceBytes},
          {"host_allocations", m.hostAllocations},
          {"device_allocations", m.deviceAllocations}};
}

json passesObject(const BufferPasses& p) {
  return {{"count", p.count}, {"host_bytes", p.hostBytes}, {"device_bytes", p.deviceBytes}};
}

json operationsObject(const OperationCounts& o) {
  return {{"rounds", o.rounds},
          {"measurements", o.measurements},
          {"samples", o.samples},
          {"copies", o.copies},
          {"copy_bytes", o.copyBytes},
          {"longest_copy_bytes", o.longestCopyBytes},
          {"chases", o.chases},
          {"fills", passesObject(o.fills)},
          {"checks", passesObject(o.checks)}};
}

json pcieObject(const std::optional<PcieLinkState>& l) {
  if (!l) return nullptr;
  return {{"current_gts", l->currentGts},
          {"current_width", l->currentWidth},
          {"max_gts", l->maxGts},
          {"max_width", l->maxWidth},
          {keys::kCurrent, pcieLinkName(l->currentGts, l->currentWidth)},
          {keys::kMax, pcieLinkName(l->maxGts, l->maxWidth)}};
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
    root_[keys::kVersion] = info.version;
    root_[keys::kGitVersion] = info.gitVersion;
    root_[keys::kRelease] = info.release;
    root_[keys::kSchemaVersion] = kJsonSchemaVersion;
    root_[keys::kSettings] = settingsObject(header.settings);
    if (!header.notes.empty()) root_[keys::kNotes] = header.notes;
    addRunIdentity(header);
    if (!header.warnings.empty()) {
      root_[keys::kWarning] = header.warnings.back();  // upstream's key: each replaced the last
      root_[keys::kWarnings] = header.warnings;
    }
    // Strict consumers (DCGM's plugin) need these three even when start-up failed.
    root_[keys::kCudaRuntimeVersion] = info.cudaRuntimeVersion;
    root_[keys::kDriverVersion] = info.driverVersion;
    if (!header.gpusOpened) return;
    root_[keys::kCudaDriverVersion] = info.cudaDriverVersion;
    json devices = json::array();
    for (std::size_t i = 0; i < info.devices.size(); ++i)
      devices.push_back(std::to_string(i) + ": " + info.devices[i].name + " (" +
                        formatBdf(info.devices[i]) + "): (" + info.hostname + ")");
    root_[keys::kGpuDeviceList] = std::move(devices);
    if (header.environment) root_[keys::kEnvironment] = environmentObject(*header.environment);
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
      addEntry({{keys::kName, result.name},
                {keys::kStatus, statusName(Status::Waived)},
                {keys::kWaiveReason, result.message}});
      break;
    case Status::Error: {
      json entry = {{keys::kName, result.name},
                    {keys::kStatus, statusName(Status::Error)},
                    {keys::kError, result.message}};
      if (!result.detail.empty()) entry[keys::kErrorDetail] = result.detail;
      if (result.sweepSizeMiB) entry[keys::kBufferSizeMiB] = *result.sweepSizeMiB;
      addEntry(std::move(entry));
      break;
    }
    }
  }

  void globalError(const std::string& message, const std::string& detail) override {
    root_[keys::kError] = message;
    if (!detail.empty()) root_[keys::kErrorDetail] = detail;
  }

  void sweepFinished(const SweepTable& table) override {
    json& sweep = root_[keys::kSweep];
    sweep[keys::kSizesMiB] = table.sizesMiB;
    if (!sweep.contains(keys::kSeries)) sweep[keys::kSeries] = json::array();
    for (const SweepSeries& s : sweepSeries(table)) {
      json sums = json::array();
      for (const auto& v : s.sums) sums.push_back(orNull(v));
      sweep[keys::kSeries].push_back({{keys::kTestcase, table.testcase},
                                      {keys::kName, s.name},
                                      {keys::kUnit, s.unit == Unit::Nanoseconds ? "ns" : "GB/s"},
                                      {keys::kSums, std::move(sums)},
                                      {keys::kSizeReaching90, orNull(s.reachSizeMiB)}});
    }
  }

  void comparison(const Comparison& result) override {
    root_[keys::kComparison] = comparisonSectionJson(comparisonSection(result));
  }

  void confirmations(const json& entries) override { root_[keys::kConfirmations] = entries; }

  void expectations(const std::vector<ExpectationResult>& results) override {
    root_[keys::kExpectations] = expectationSectionsJson(expectationsSection(results));
  }

  void finish(const RunEnd& end) override {
    if (!root_.contains(keys::kVersion)) root_[keys::kVersion] = kVersion;
    if (!root_.contains(keys::kGitVersion)) root_[keys::kGitVersion] = kGitVersion;
    if (!root_.contains(keys::kRelease)) root_[keys::kRelease] = kRelease;
    // A testcase cut short by a run-level error stays "Running", as upstream left it.
    if (!running_.empty()) addEntry({{keys::kName, running_}, {keys::kStatus, "Running"}});
    if (!root_.contains(keys::kTestcases)) root_[keys::kTestcases] = json::array();
    if (end.interruptedBy) root_[keys::kInterrupted] = signalName(*end.interruptedBy);
    if (end.environment) root_[keys::kEnvironmentAtEnd] = environmentObject(*end.environment);
    for (const std::string& line : end.warnings) {
      root_[keys::kWarning] = line;
      root_[keys::kWarnings].push_back(line);
    }
    if (end.timing) {
      root_[keys::kTiming] = timingObject(*end.timing);
      root_[keys::kMemory] = memoryObject(end.timing->memory);
      root_[keys::kOperations] = operationsObject(end.timing->operations);
    }
    out_ << styledJson(json{{keys::kRoot, root_}}) << "\n" << std::flush;
  }

 private:
  // Lines ending in newlines, each a run warning (the last one is upstream's `warning` too).
  void addWarnings(const std::string& lines) {
    for (std::size_t start = 0, end; (end = lines.find('\n', start)) != std::string::npos;
         start = end + 1) {
      const std::string line = lines.substr(start, end - start);
      root_[keys::kWarning] = line;
      root_[keys::kWarnings].push_back(line);
    }
  }

  void addEntry(json entry) {
    if (!root_.contains(keys::kTestcases)) root_[keys::kTestcases] = json::array();
    root_[keys::kTestcases].push_back(std::move(entry));
  }

  // Which host ran it (rank 0's in a multinode run: each rank's host is in "processes") and
  // when: what --summarize names nodes by and --metrics timestamps a run with.
  void addRunIdentity(const RunHeader& header) {
    if (!header.system.hostname.empty()) root_[keys::kHostname] = header.system.hostname;
    if (header.startedAt) root_[keys::kStartedAt] = *header.startedAt;
  }

  void addProcesses(const SystemFacts& info) {
    json processes = json::array();
    for (std::size_t rank = 0; rank < info.processes.size(); ++rank) {
      const ProcessInfo& p = info.processes[rank];
      processes.push_back({{"rank", rank},
                           {"host", p.host},
                           {"device", p.device},
                           {keys::kName, p.gpu.name},
                           {"pci", formatBdf(p.gpu)},
                           {"uuid", p.uuid}});
    }
    root_[keys::kProcesses] = std::move(processes);
    root_[keys::kMpiVersion] = info.mpiVersion;
    root_[keys::kMemorySharing] = info.memorySharing;
  }

  void addPassed(const TestcaseResult& result) {
    if (result.matrices.empty()) {
      addEntry({{keys::kName, result.name}, {keys::kStatus, statusName(Status::Passed)}});
      return;
    }
    for (const auto& m : result.matrices) {
      json entry = matrixEntry(m, settings_.verbose, statistic_);
      if (result.sweepSizeMiB) entry[keys::kBufferSizeMiB] = *result.sweepSizeMiB;
      // Entries of multi-matrix testcases are named like their SUM lines
      // (docs/compatibility.md#c9); this lets a script still find them by the key it passed to -t.
      if (m.spec.key != result.name) entry[keys::kTestcase] = result.name;
      if (result.schedule) {
        entry[keys::kSchedule] = scheduleName(*result.schedule);
        if (*result.schedule == PairSchedule::Rounds) entry[keys::kRounds] = result.rounds;
      }
      addEntry(std::move(entry));
      addWarnings(abovePeakWarnings(m));
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
