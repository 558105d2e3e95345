// The run's Report from its steps (report_builder.h): each member as -j has always written it
// (docs/compatibility.md#c1 for the CUDA Driver Version; the rest beside upstream's keys).
#include "report/report_builder.h"

#include "core/error.h"
#include "core/version.h"
#include "report/sweep.h"
#include "report/text_format.h"

namespace nvbw {

namespace {

std::vector<const ReportEntry*> entriesFrom(const std::vector<ReportEntry>& entries,
                                            std::size_t first) {
  std::vector<const ReportEntry*> from;
  for (std::size_t i = first; i < entries.size(); ++i) from.push_back(&entries[i]);
  return from;
}

// A count the report holds as a whole number of 0 or more (none below 0: no fact of a machine is).
std::optional<std::uint64_t> countOf(long long v) {
  return v >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(v)) : std::nullopt;
}

// Each record's members in the order of its fields.
TimingRecord timingRecord(const RunEnd::Timing& t) {
  const PhaseTimes& p = t.phases;
  return {t.wallSeconds, p.release,      p.allocation, p.fill,       p.enqueue,
          p.wait,        p.verification, p.latency,    p.timedCopies};
}

MemoryRecord memoryRecord(const MemoryStats& m) {
  return {m.hostBytesAllocated, m.deviceBytesAllocated, m.peakHostBytes,
          m.peakDeviceBytes,    m.hostAllocations,      m.deviceAllocations};
}

PcieRecord pcieRecord(const PcieLinkState& l) {
  std::string current = pcieLinkName(l.currentGts, l.currentWidth);
  std::string max = pcieLinkName(l.maxGts, l.maxWidth);
  return {l.currentGts, l.currentWidth, l.maxGts, l.maxWidth, std::move(current), std::move(max)};
}

GpuStateRecord gpuStateRecord(std::size_t device, const GpuEnvironment& g) {
  GpuStateRecord r;
  r.device = device;
  r.smClockMHz = g.smClockMHz;
  r.smClockMaxMHz = g.smClockMaxMHz;
  r.memoryClockMHz = g.memoryClockMHz;
  r.memoryClockMaxMHz = g.memoryClockMaxMHz;
  r.clocksLocked = g.clocksLocked;
  r.powerLimitW = g.powerLimitW;
  r.powerDrawW = g.powerDrawW;
  r.temperatureC = g.temperatureC;
  r.eccEnabled = g.eccEnabled;
  r.persistenceMode = g.persistenceMode;
  r.migEnabled = g.migEnabled;
  r.computeMode = g.computeMode;
  if (g.throttleNs) r.throttleSeconds = *g.throttleNs / 1e9;
  if (g.pcie) r.pcie = pcieRecord(*g.pcie);
  r.numaNode = g.numaNode;
  r.hostBufferCpus = g.hostBufferCpus;
  return r;
}

EnvironmentRecord environmentRecord(const EnvironmentSnapshot& e) {
  EnvironmentRecord r;
  r.host = {e.host.cpuModel, e.host.numaNodes};
  r.nvmlProblem = e.nvmlProblem;
  r.gpus.emplace();
  for (std::size_t d = 0; d < e.gpus.size(); ++d) r.gpus->push_back(gpuStateRecord(d, e.gpus[d]));
  return r;
}

std::vector<std::string> deviceList(const SystemFacts& info) {
  std::vector<std::string> devices;
  for (std::size_t i = 0; i < info.devices.size(); ++i)
    devices.push_back(std::to_string(i) + ": " + info.devices[i].name + " (" +
                      formatBdf(info.devices[i]) + "): (" + info.hostname + ")");
  return devices;
}

std::vector<ProcessRecord> processRecords(const SystemFacts& info) {
  std::vector<ProcessRecord> processes;
  for (std::size_t rank = 0; rank < info.processes.size(); ++rank) {
    const ProcessInfo& p = info.processes[rank];
    processes.push_back(
        {rank, p.host, countOf(p.device), p.gpu.name, formatBdf(p.gpu), p.gpu.uuid});
  }
  return processes;
}

}  // namespace

void ReportBuilder::header(const RunHeader& header) {
  record(header);
  if (view_) view_->header(header);
}

void ReportBuilder::testcaseStarted(const std::string& key) {
  running_ = key;
  if (view_) view_->testcaseStarted(key);
}

void ReportBuilder::record(const RunHeader& header) {
  const SystemFacts& info = header.system;
  report_.version = info.version;
  report_.gitVersion = info.gitVersion;
  report_.release = info.release;
  report_.schemaVersion = kJsonSchemaVersion;
  report_.settings = header.settings;
  statistic_ = header.settings.statistic.value_or(statistic_);
  if (!header.notes.empty()) report_.notes = header.notes;
  // Which host ran it (rank 0's in a multinode run: each rank's host is in "processes") and
  // when: what --summarize names nodes by and --metrics timestamps a run with.
  if (!info.hostname.empty()) report_.hostname = info.hostname;
  report_.startedAt = header.startedAt;
  for (const std::string& line : header.warnings) addWarning(line);
  // Strict consumers (DCGM's plugin) need these three even when start-up failed.
  report_.cudaRuntimeVersion = countOf(info.cudaRuntimeVersion);
  report_.driverVersion = info.driverVersion;
  if (!header.gpusOpened) return;
  report_.cudaDriverVersion = countOf(info.cudaDriverVersion);
  report_.gpuDeviceList = deviceList(info);
  if (info.logicalGpus > 0) report_.logicalGpus = static_cast<std::uint64_t>(info.logicalGpus);
  if (info.confidentialComputing) report_.confidentialComputing = true;
  if (header.environment) report_.environment = environmentRecord(*header.environment);
  if (info.processes.empty()) return;
  report_.processes = processRecords(info);
  report_.mpiVersion = info.mpiVersion;
  report_.memorySharing = info.memorySharing;
}

void ReportBuilder::testcaseFinished(const TestcaseResult& result) {
  running_.clear();
  std::vector<ReportEntry> entries = entriesOf(result, settings_.verbose, statistic_);
  for (ReportEntry& entry : entries)
    for (const std::string& line : abovePeakWarnings(entry)) addWarning(line);
  const std::size_t first = report_.testcases->size();
  if (result.sweepSizeMiB && !sweepStart_) sweepStart_ = first;
  for (ReportEntry& entry : entries) report_.testcases->push_back(std::move(entry));
  if (view_) view_->testcaseFinished(entriesFrom(*report_.testcases, first));
}

void ReportBuilder::globalError(const std::string& message, const std::string& detail) {
  report_.error = message;
  if (!detail.empty()) report_.errorDetail = detail;
  if (view_) view_->globalError(message, detail);
}

// The sweep's entries: those appended since its first size.
void ReportBuilder::sweepFinished(const std::string&, const std::vector<std::uint64_t>& sizesMiB) {
  const SweepEntries entries =
      entriesFrom(*report_.testcases, sweepStart_.value_or(report_.testcases->size()));
  sweepStart_.reset();
  if (!report_.sweep) report_.sweep.emplace();
  report_.sweep->sizesMiB = sizesMiB;
  if (!report_.sweep->series) report_.sweep->series.emplace();
  for (SweepSeriesRecord& s : sweepSeries(entries, sizesMiB))
    report_.sweep->series->push_back(std::move(s));
  if (view_) view_->sweepFinished(entries, sizesMiB);
}

void ReportBuilder::finish(const RunEnd& end) {
  if (!report_.version) report_.version = kVersion;
  if (!report_.gitVersion) report_.gitVersion = kGitVersion;
  if (!report_.release) report_.release = kRelease;
  // A testcase cut short by a run-level error stays "Running", as upstream left it.
  if (!running_.empty()) {
    ReportEntry entry;
    entry.name = running_;
    entry.status = Status::Running;
    report_.testcases->push_back(std::move(entry));
  }
  if (end.interruptedBy) report_.interrupted = signalName(*end.interruptedBy);
  if (end.environment) report_.environmentAtEnd = environmentRecord(*end.environment);
  for (const std::string& line : end.warnings) addWarning(line);
  if (end.timing) {
    report_.timing = timingRecord(*end.timing);
    report_.memory = memoryRecord(end.timing->memory);
    report_.operations = membersOf(end.timing->operations);
  }
}

// A run warning: upstream's `warning` holds the last one (each replaced the one before).
void ReportBuilder::addWarning(const std::string& line) {
  report_.warning = line;
  if (!report_.warnings) report_.warnings.emplace();
  report_.warnings->push_back(line);
}

}  // namespace nvbw
