// The report model: everything a report of this tool says, typed. A run builds its Report from
// its results (report/report_builder.h); a saved report (this tool's, of any layout written so
// far, or upstream v0.8's and v0.10's) is read into one (report_files.h: readReportText); every
// view (text, JSON, HTML, metrics, comparison, expectations, summary) takes one; report_writer.h
// writes one as `-j` prints it.
//
// What the views would otherwise guess from names and titles is derived once, where the Report is
// made: an entry's unit, the axes of its matrix (what its rows and columns are) and its parts
// (upstream's bidirectional entries stack three matrices in one). A key the model does not know,
// or one of an unexpected type where no check requires its type, is read past: a report written
// again holds what this version knows of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/measurement_record.h"
#include "core/phase_times.h"
#include "core/status.h"
#include "core/unit.h"
#include "model/json.h"

namespace nvbw {

// A number a report may write as null (a change against a baseline of 0, a peak not known):
// nullopt is null.
using OrNull = std::optional<double>;

// A list of a record, empty where the report lacks it: for a loop over what it has.
template <typename T> const std::vector<T>& orEmpty(const std::optional<std::vector<T>>& list) {
  static const std::vector<T> none;
  return list ? *list : none;
}
template <typename T> void orEmpty(const std::optional<std::vector<T>>&&) = delete;  // dangles

// A matrix as a report holds one: rows x cols cells, row-major.
template <typename T> struct Grid {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<T> cells;
  const T& at(std::size_t row, std::size_t col) const { return cells[row * cols + col]; }
  T& at(std::size_t row, std::size_t col) { return cells[row * cols + col]; }
  bool contains(std::size_t row, std::size_t col) const { return row < rows && col < cols; }
};
using NumberGrid = Grid<OrNull>;  // nullopt: N/A (null, or upstream's "N/A")

// A cell's samples and what they give.
struct CellStatistics {
  std::vector<double> samples;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double median = 0.0;
  double stddev = 0.0;
  OrNull cv;  // stddev / mean as a fraction; null when the mean is 0
};

// A cell more than 10% below the median of the cells on the same kind of link.
struct OutlierRecord {
  std::size_t row = 0;
  std::size_t col = 0;
  std::optional<std::string> cell;  // "GPU 1 -> GPU 0"
  std::optional<std::string> link;
  std::optional<double> belowMedianPercent;
  std::optional<double> classMedian;
};

// One link of a matrix's cells, its peak (null: unknown, or a latency matrix) and how a cell's
// bytes count against it.
struct LinkPeakRecord {
  std::optional<std::string> link;
  OrNull peakGBps;
  std::optional<std::string> convention;
};

// What a matrix's title says its rows and columns are, read once: "memcpy CE CPU(row) ->
// GPU(column) bandwidth (GB/s)" has rows of the word "CPU", columns "GPU", the arrow "->"
// ("" when the title has no "(row)" before its "(column)").
struct MatrixAxes {
  bool rowsNamed = false;  // "(row" is in the title
  bool colsNamed = false;  // "(column)"
  std::string rowWord;
  std::string colWord;
  std::string arrow;
  bool rowBeforeColumn = false;
  bool ranks = false;  // a multi-process testcase: rows and columns are ranks
  bool rowsAreCpu() const { return rowWord == "CPU"; }
  bool rowsAreGpus() const { return rowWord == "GPU"; }
  bool colsAreGpus() const { return colWord == "GPU"; }
};

// One matrix of an entry: the entry's only one, or one of upstream's three stacked ones
// (partsOfEntry).
struct MatrixPart {
  std::string key;  // the entry's name, or name + "_read1" (upstream's)
  std::string testcase;
  std::string title;
  std::size_t firstRow = 0;  // where it starts in the entry's grids
  std::size_t rows = 0;
  std::size_t cols = 0;
  MatrixAxes axes;
  bool wholeEntry = true;  // the entry holds this matrix alone (its SUM is this matrix's)
};

// One element of "testcases" (or of "confirmations"): a testcase, or one matrix of a testcase
// with several, with its status and what it measured.
struct ReportEntry {
  std::string name;  // may be "" for an ERROR (an empty -t "")
  Status status = Status::Passed;
  std::optional<std::string> description;  // the matrix's title
  std::optional<std::string> statistic;
  std::optional<std::string> testcase;  // the testcase of one of its several matrices
  std::optional<std::string> waiveReason;
  std::optional<std::string> error;
  std::optional<std::string> errorDetail;
  std::optional<std::string> unitText;  // as written (upstream's entries have none)
  std::optional<double> sum, min, max, average;
  std::optional<std::uint64_t> bufferSizeMiB;
  std::optional<std::uint64_t> confirmationRun;
  std::optional<std::vector<std::string>> rowLabels;
  std::optional<std::string> schedule;
  std::optional<std::uint64_t> rounds;
  // The grids as the entry holds them, each of one shape (upstream's stacked entries: 3N rows).
  std::optional<NumberGrid> values;
  std::optional<Grid<std::string>> texts;  // upstream's strings
  std::optional<Grid<std::optional<CellStatistics>>> cells;
  std::optional<Grid<std::optional<std::string>>> links;
  std::optional<NumberGrid> peaks;
  std::optional<NumberGrid> percents;
  std::optional<std::vector<OutlierRecord>> outliers;
  std::optional<std::vector<LinkPeakRecord>> linkPeaks;
  std::optional<Json> abovePeak;  // as the run wrote it
  // -v's sample lines, on a testcase's first entry: a run's own (no document holds them).
  std::vector<MeasurementRecord> measurements;

  // Derived where the entry was made:
  Unit unit = Unit::GBps;  // "unit", else ns for keys naming a latency
  // Upstream's strings as numbers, for an entry without "values".
  std::optional<NumberGrid> textValues;
  std::vector<MatrixPart> parts;  // none (no matrix), one, or upstream's three

  // The cell values the views use: "values", else upstream's strings; nullptr without a matrix.
  const NumberGrid* matrix() const {
    return values ? &*values : textValues ? &*textValues : nullptr;
  }
  bool passedWithMatrix() const { return status == Status::Passed && matrix(); }
};

// A matrix of an entry with its cells, as the views walk them (cells of upstream's stacked
// entries by their part's rows).
class MatrixView {
 public:
  MatrixView(const ReportEntry& entry, const MatrixPart& part) : entry_(&entry), part_(&part) {}
  const ReportEntry& entry() const { return *entry_; }
  const MatrixPart& part() const { return *part_; }
  const std::string& key() const { return part_->key; }
  Unit unit() const { return entry_->unit; }
  bool latency() const { return entry_->unit == Unit::Nanoseconds; }
  std::size_t rows() const { return part_->rows; }
  std::size_t cols() const { return part_->cols; }
  OrNull value(std::size_t row, std::size_t col) const;
  const CellStatistics* statistics(std::size_t row, std::size_t col) const;
  const std::string* link(std::size_t row, std::size_t col) const;
  OrNull peak(std::size_t row, std::size_t col) const;
  OrNull percent(std::size_t row, std::size_t col) const;
  // The entry's SUM where the part is the whole entry (upstream's is of its whole stack).
  std::optional<double> sum() const { return part_->wholeEntry ? entry_->sum : std::nullopt; }

 private:
  const ReportEntry* entry_;
  const MatrixPart* part_;
};

// What an entry's names and titles say, derived where it is made (the top of this file; pure).
// "unit" where the entry has one; else ns for a key that names a latency ("..._latency_..."),
// GB/s for the rest (upstream v0.8's entries have no unit).
Unit unitOfEntry(const std::optional<std::string>& unitText, const std::string& key);
// What the title says the rows and columns are; `key` says whether they are ranks (multinode
// testcases). nullptr: the entry has no title.
MatrixAxes axesOfTitle(const std::string* title, const std::string& key);
// The matrices of an entry (its unit, values and title set): none without a matrix; upstream's
// stacked entry (strings only, 3N x N) in three, titled as this tool titles them ("... Read1
// bandwidth ..." for upstream's "... Total bandwidth ..."); else the entry's own.
std::vector<MatrixPart> partsOfEntry(const ReportEntry& entry);

// ---- Sections of the run object ----

// "settings": how the run measured (a flat object).
struct SettingsRecord {
  std::optional<std::uint64_t> bufferSizeMiB;
  std::optional<std::uint64_t> testSamples;
  std::optional<std::uint64_t> loopCount;
  std::optional<std::string> statistic;
  std::optional<bool> verify;
  std::optional<bool> cpuAffinity;
  std::optional<bool> useHugePages;
  std::optional<std::int64_t> targetNumPairs;
  std::optional<std::vector<std::string>> pair;
  std::optional<std::vector<std::uint64_t>> sweepMiB;
  std::optional<std::string> schedule;   // --schedule as asked ("auto", "pairs", "rounds")
  std::optional<std::string> interface;  // "v0.10" for a run printed in --compat v0.10
};

// "timing": where the run's time went, seconds.
struct TimingRecord {
  std::optional<double> wallSeconds, releaseSeconds, allocationSeconds, fillSeconds, enqueueSeconds,
      waitSeconds, verificationSeconds, latencySeconds, timedCopiesSeconds;
};

// "memory": what the run allocated, bytes.
struct MemoryRecord {
  std::optional<std::uint64_t> hostBytesAllocated, deviceBytesAllocated, peakHostBytes,
      peakDeviceBytes, hostAllocations, deviceAllocations;
};

// One process of a multi-process run ("processes").
struct ProcessRecord {
  std::optional<std::uint64_t> rank;
  std::optional<std::string> host;
  std::optional<std::uint64_t> device;
  std::optional<std::string> name;  // the GPU's
  std::optional<std::string> pci;
  std::optional<std::string> uuid;
};

// A PCIe link's state in an environment snapshot.
struct PcieRecord {
  std::optional<double> currentGts;
  std::optional<std::int64_t> currentWidth;  // -1: not known
  std::optional<double> maxGts;
  std::optional<std::int64_t> maxWidth;
  std::optional<std::string> current;  // "PCIe Gen5 x16"
  std::optional<std::string> max;
};

// One GPU in an environment snapshot; nullopt: unknown (null).
struct GpuStateRecord {
  std::optional<std::uint64_t> device;
  std::optional<std::uint64_t> smClockMHz, smClockMaxMHz, memoryClockMHz, memoryClockMaxMHz;
  std::optional<bool> clocksLocked;
  std::optional<double> powerLimitW, powerDrawW;
  std::optional<std::int64_t> temperatureC;
  std::optional<bool> eccEnabled, persistenceMode, migEnabled;
  std::optional<std::string> computeMode;
  std::optional<double> throttleSeconds;
  std::optional<PcieRecord> pcie;
  std::optional<std::int64_t> numaNode;
  std::optional<std::string> hostBufferCpus;
  std::optional<std::string> uuid;  // some layouts have it
};

// The host in an environment snapshot ("host"); nullopt: unknown (null).
struct HostRecord {
  std::optional<std::string> cpuModel;
  std::optional<std::string> numaNodes;
};

// "environment", "environment_at_end": the machine at a moment.
struct EnvironmentRecord {
  HostRecord host;
  std::optional<std::string> nvmlProblem;  // why NVML did not answer; null when it did
  std::optional<std::vector<GpuStateRecord>> gpus;
};

// "sweep": each testcase's SUMs over the buffer sizes.
struct SweepSeriesRecord {
  std::string name;
  std::optional<std::string> testcase;
  std::optional<std::string> unitText;
  Unit unit = Unit::GBps;                       // derived: "unit", else by the name
  std::vector<OrNull> sums;                     // per size; null where that size did not pass
  std::optional<std::uint64_t> sizeReaching90;  // null: latency, or no SUM at the largest size
};

struct SweepSection {
  std::vector<std::uint64_t> sizesMiB;
  std::optional<std::vector<SweepSeriesRecord>> series;
};

// One compared cell of "comparison" (fleet/comparison/comparison.h says what each means).
struct ComparedCellRecord {
  std::string name;
  std::optional<std::string> testcase, unitText, verdict, basis;
  std::optional<std::uint64_t> row, col, bufferSizeMiB, baselineReports;
  std::optional<double> baseline, current;
  std::optional<OrNull> changePercent;  // null: against a baseline of 0
  std::optional<double> bandPercent, runToRunPercent, healthySpreadPercent, unstableLimitPercent,
      spreadPercent, separationPercent;
  std::optional<bool> unstable, suspect;
  std::optional<bool> noisy;  // reports written before the healthy band
  std::optional<std::vector<double>> confirmations;
  std::optional<std::vector<OrNull>> confirmationSpreads;
  std::optional<double> confirmedMedian;
  std::optional<OrNull> confirmedChangePercent;
  std::optional<double> confirmedSpreadPercent;
};

// "comparison.summary": how many cells got each verdict.
struct ComparisonCounts {
  std::optional<std::uint64_t> cells, same, slower, faster, noisy, unstable, suspect,
      onlyInBaseline, onlyInCurrent;
};

struct SuspectRecord {
  std::optional<std::string> testcase;
  std::optional<std::uint64_t> bufferSizeMiB;
};

// "comparison.confirmation": what a run measured again before judging.
struct ConfirmationRecord {
  std::optional<std::uint64_t> runs;
  std::optional<std::vector<SuspectRecord>> testcases;
  std::optional<double> seconds;
  std::optional<std::uint64_t> unconfirmed;
};

// "comparison": made by compareWithBaseline and applyConfirmations (fleet/comparison/comparison.h),
// every list present; a saved report's holds what the version that wrote it wrote.
struct ComparisonSection {
  std::optional<std::string> rule;  // "saved reports", "confirmed"; absent before the band rule
  std::optional<std::string> band;  // "healthy side"
  std::optional<std::uint64_t> baselineReports;
  std::optional<double> tolerancePercent;
  std::optional<double> runToRunFloorPercent;  // reports written before the healthy band
  std::optional<ComparisonCounts> summary;
  std::optional<std::vector<ComparedCellRecord>> cells;
  std::optional<std::vector<std::string>> onlyInBaseline, onlyInCurrent, notes;
  // The sides are reports of different machines: nothing was judged (comparison.h).
  std::optional<std::string> differentMachines;
  std::optional<ConfirmationRecord> confirmation;
};

// ---- "expectations": each check's result (fleet/expectations/expectations.h) ----

struct ExpectationCounts {
  std::optional<std::uint64_t> cells, met, below, belowNotListed, unmet, notJudged;
};

struct JudgedMatrixRecord {
  std::optional<std::string> name, testcase, unitText;
  std::optional<std::uint64_t> bufferSizeMiB, cells, met, below;
  std::optional<std::vector<std::uint64_t>> lines;
};

struct BelowCellRecord {
  std::optional<std::string> name, testcase, unitText, bound;
  std::optional<std::uint64_t> row, col, bufferSizeMiB, line;
  std::optional<double> value, limit;
  std::optional<OrNull> percentOfPeak, peakGBps;
  std::optional<std::optional<std::string>> link;  // null: no link known
};

struct UnmetRecord {
  std::optional<std::uint64_t> line;
  std::optional<std::string> expectation, reason, detail;
};

struct NotJudgedRecord {
  std::optional<std::string> name, reason;
  std::optional<std::uint64_t> bufferSizeMiB, cells;
};

struct ExpectationLineRecord {
  std::optional<std::uint64_t> line;
  std::optional<std::string> name, testcase, cells, unitText, bound;
  std::optional<double> limit;
};

struct ExpectationSection {
  std::optional<std::string> check;  // "file", "percent_of_peak"
  std::optional<std::string> label;
  std::optional<bool> passed;
  std::optional<ExpectationCounts> summary;
  std::optional<std::vector<JudgedMatrixRecord>> matrices;
  std::optional<std::vector<BelowCellRecord>> below;
  std::optional<std::vector<UnmetRecord>> unmet;
  std::optional<std::vector<NotJudgedRecord>> notJudged;
  std::optional<std::vector<std::string>> notes;
  std::optional<std::string> file;
  std::optional<std::vector<ExpectationLineRecord>> lines;  // "expectations": the file's lines
  std::optional<double> minPercentOfPeak;
};

// A record's members as a document holds them, an object sorted by key:
// for the views that show or compare every one.
Json membersOf(const SettingsRecord& r);
Json membersOf(const TimingRecord& r);
Json membersOf(const MemoryRecord& r);
Json membersOf(const OperationCounts& o);  // the "operations" a run writes
Json membersOf(const ComparedCellRecord& r);

// ---- The report ----

// The "nvbandwidth" object: what the run was and what it found (each member as
// docs/nvbandwidth.schema.json describes its key).
struct Report {
  std::optional<std::string> version, gitVersion;
  std::optional<std::uint64_t> cudaRuntimeVersion;
  std::optional<std::string> driverVersion;
  std::optional<std::vector<std::string>> gpuDeviceList;
  std::optional<std::string> warning, error, errorDetail;
  std::optional<std::uint64_t> cudaDriverVersion;
  std::optional<std::uint64_t> logicalGpus;  // absent: real GPUs
  std::optional<bool> confidentialComputing;
  std::optional<std::string> schemaVersion;  // absent: upstream's layout
  std::optional<std::string> release;
  std::optional<std::string> hostname, startedAt;
  std::optional<std::vector<std::string>> warnings;
  std::optional<std::string> interrupted;  // the signal that stopped the run ("SIGINT")
  std::optional<std::string> mpiVersion, memorySharing;
  std::optional<std::vector<ProcessRecord>> processes;
  std::optional<SettingsRecord> settings;
  std::optional<TimingRecord> timing;
  std::optional<MemoryRecord> memory;
  std::optional<EnvironmentRecord> environment, environmentAtEnd;
  std::optional<std::vector<ReportEntry>> testcases;  // absent in a `--compare -j` document
  std::optional<SweepSection> sweep;
  std::optional<ComparisonSection> comparison;
  std::optional<std::vector<ReportEntry>> confirmations;
  std::optional<std::vector<ExpectationSection>> expectations;
  std::optional<Json> operations;                 // as the run wrote it: no view reads it
  std::optional<std::vector<std::string>> notes;  // v0.10's notes of a --compat v0.10 run

  // Upstream's layout: no schema_version, strings only, no samples.
  bool upstream() const { return !schemaVersion.has_value(); }
  // Every matrix of the testcases that passed with one, in order (upstream's stacked entries in
  // three).
  std::vector<MatrixView> matrices() const;
};
Json membersOf(const Report& r);  // the run object, as the writer writes it

// A "GPU Device list" entry, "0: NVIDIA H200 (00000000:19:00): (gpu-node-01)": the GPU's model
// ("NVIDIA H200") and the host ("gpu-node-01", "" when the entry names none).
struct DeviceListEntry {
  std::string model;
  std::string host;
};
DeviceListEntry readDeviceListEntry(const std::string& entry);

// What machine a report is of: its GPUs' models, in order of first appearance ("NVIDIA H200", "A
// + B" for a mix; from "GPU Device list", else the processes), and how many; no models where
// the report names none (upstream's single-node reports).
struct MachineShape {
  std::vector<std::string> models;
  std::size_t gpus = 0;
  bool known() const { return !models.empty(); }
  // "2 x NVIDIA H200"; "unknown GPUs" when no model is named.
  std::string text() const;
  bool operator==(const MachineShape& o) const { return models == o.models && gpus == o.gpus; }
};
MachineShape machineShapeOf(const Report& report);

// What the run itself said went wrong, as the report tools note it: "the run reported an error:
// <error>", "the run was interrupted by <signal>" (without the colon or "by" where it is empty).
std::vector<std::string> runNotes(const Report& report);

// Why reports of the two sides cannot be judged against each other because their GPUs are of
// different kinds: logical GPUs (a testing aid, Report::logicalGpus) on one side and real ones on
// the other, or another count of logical GPUs; nullopt when they can. `aName` and `bName` name
// the sides ("the baseline", "this run").
std::optional<std::string> logicalGpusMismatch(const std::string& aName,
                                               std::optional<std::uint64_t> a,
                                               const std::string& bName,
                                               std::optional<std::uint64_t> b);

}  // namespace nvbw
