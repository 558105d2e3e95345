// The metrics view (metrics.h): fills the gauge families, in the order the file lists them, from
// the Report and what metrics_reading.cpp makes of it.
#include "fleet/metrics/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

#include "core/utc_time.h"
#include "fleet/metrics/metrics_internal.h"

namespace nvbw {
namespace {

using namespace metrics;

enum Family : std::size_t {
  RunInfo,
  BuildInfo,
  RunStart,
  RunDuration,
  RunInterrupted,
  RunError,
  ProcessInfo,
  TestcaseStatus,
  MatrixInfo,
  Bandwidth,
  Latency,
  BandwidthPeak,
  PercentOfPeak,
  CellCv,
  CellOutlier,
  BandwidthSum,
  LatencySum,
  Verdict,
  ChangePercent,
  BandPercent,
  HealthySpread,
  SpreadPercent,
  UnstableLimit,
  VerdictCells,
  Unmatched,
  Tolerance,
  kFamilyCount
};

// Label sets are distinct by construction: an entry's (key, size, occurrence) is its own, and
// within a matrix every layout labels each cell differently (bisect rows are checked to name
// distinct pairs). Only a compared cell's fallback labels (testcase, row, col, repeat) can meet a
// matrix cell's, in a hostile document; those families remember what they wrote.
std::vector<GaugeFamily> families(std::size_t& budget) {
  auto f = [&budget](const char* name, const char* help, bool mayRepeat = false) {
    return GaugeFamily(std::string(kFamilyPrefix) + name, help, budget, mayRepeat);
  };
  return {
      f("run_info",
        "The report: tool version, git version, report layout (schema_version; none for upstream "
        "v0.8), driver and CUDA versions (1000 x major + 10 x minor), the statistic of the cells "
        "and the buffer size in MiB. Always 1."),
      f("build_info",
        "The build that wrote the report: this project's release (semantic versioning), the "
        "upstream interface it reproduces (version) and its git version. Always 1; reports "
        "without a release (upstream's, older builds') have no series."),
      f("run_start_timestamp_seconds",
        "When the run started (the report's started_at), seconds since the Unix epoch."),
      f("run_duration_seconds",
        "Wall-clock time of the run from start-up to the end of the report (timing.wall_seconds), "
        "seconds."),
      f("run_interrupted",
        "1 when a signal (label signal) stopped the run: the interrupted testcase is ERROR and the "
        "ones after it did not run. 0 otherwise."),
      f("run_error",
        "1 when a run-level error stopped the run (it could not start, or the copies could not be "
        "set up); testcase failures are in nvbandwidth_testcase_status. 0 otherwise."),
      f("process_info", "Multinode runs: the host and GPU of each MPI rank. Always 1."),
      f("testcase_status",
        "One series per reported entry (a matrix, or a testcase without one) with its status: "
        "Passed, Waived, ERROR or Running. Always 1."),
      f("matrix_info", "The title (description) and unit (GB/s or ns) of a matrix. Always 1."),
      f(kBandwidthFamily,
        "Bandwidth of a matrix cell in bytes per second: the report's GB/s (decimal, 10^9 "
        "bytes/s) x 10^9, the run's statistic (median by default) of the cell's samples. N/A "
        "cells have no series."),
      f(kLatencyFamily,
        "Latency of a matrix cell in seconds: the report's ns / 10^9, the run's statistic "
        "(median by default) of the cell's samples. N/A cells have no series."),
      f("bandwidth_peak_bytes_per_second",
        "Theoretical peak of the cell's link in the cell's counting convention, bytes per second."),
      f("bandwidth_of_peak_ratio",
        "The cell's bandwidth over its link's theoretical peak (0.88 is the report's 88%)."),
      f("cell_cv_ratio",
        "Coefficient of variation (standard deviation / mean) of the cell's samples, as a ratio "
        "(0.02 is 2%)."),
      f("cell_outlier",
        "1 when the cell is more than 10% below the median of the matrix's cells on the same "
        "link class (the report's outliers), 0 otherwise."),
      f("bandwidth_sum_bytes_per_second",
        "The matrix's SUM line (the sum of its present cells) in bytes per second."),
      f("latency_sum_seconds", "The matrix's SUM line (the sum of its present cells) in seconds."),
      f("comparison_verdict",
        "Compared with a baseline (--baseline, --compare): one series per compared cell, labelled "
        "with its verdict. Always 1.",
        true),
      f("comparison_change_percent",
        "Compared with a baseline: the cell's change, (current - baseline) / baseline x 100.",
        true),
      f("comparison_band_percent",
        "Compared with a baseline: the band the cell's change was judged against, percent.", true),
      f("comparison_healthy_spread_percent",
        "Compared with a baseline: how far the cell moves between healthy runs (the baseline "
        "side's spread; the band is 1.5 x this, at least the tolerance), percent.",
        true),
      f("comparison_spread_percent",
        "Compared with a baseline: the current run's own spread of the cell's samples, percent "
        "(100 x max(2 x stddev, max - min) / median).",
        true),
      f("comparison_unstable_limit_percent",
        "Compared with a baseline: the spread above which the cell is UNSTABLE, percent.", true),
      f("comparison_cells", "Compared with a baseline: how many cells got each verdict."),
      f("comparison_unmatched",
        "Compared with a baseline: entries or cells on one side only (label side)."),
      f("comparison_tolerance_percent", "Compared with a baseline: --tolerance, percent."),
  };
}

// Every verdict the comparison can give, counted even when no cell has it, so that a dashboard
// sees a 0 rather than no series. Verdicts outside this list are counted too.
const char* const kKnownVerdicts[] = {"SAME", "SLOWER", "FASTER", "NOISY", "UNSTABLE", "BELOW"};

// The report's units as Prometheus' base units (tests/metrics/README.md, "Naming"): GB/s x 10^9
// (exact: 10^9 is a double), ns / 10^9, percent / 100. Each is one IEEE operation, so a reader
// doing the same on the JSON's number gets the same double.
double ratio(double percent) { return percent / 100.0; }
double inBaseUnit(double value, bool latency) { return latency ? value / 1e9 : value * 1e9; }

void addMatrix(std::vector<GaugeFamily>& out, const MetricMatrix& m, const Facts& facts,
               const StopRequest& stop) {
  const MatrixView& view = m.view;
  const Subject& whole = m.whole;
  const bool latency = view.latency();
  out[MatrixInfo].add(
      whole.labels({{"description", view.part().title}, {"unit", unitName(view.unit())}}), 1);
  // Outliers are flagged where the entry lists them (bandwidth only), by its grids' rows.
  const std::vector<OutlierRecord>* listed =
      latency || !view.entry().outliers ? nullptr : &*view.entry().outliers;
  double sum = 0.0;
  for (std::size_t r = 0; r < view.rows(); ++r) {
    throwIfStopped(stop);
    for (std::size_t c = 0; c < view.cols(); ++c) {
      const OrNull cell = view.value(r, c);
      if (!cell || !std::isfinite(*cell)) continue;  // N/A (a read report holds no other)
      const double value = *cell;
      sum += value;
      const MetricLabels labels = cellSubject(m, r, c, facts).labels();
      out[latency ? Latency : Bandwidth].add(labels, inBaseUnit(value, latency));
      if (!latency) {
        if (const OrNull peak = view.peak(r, c))
          out[BandwidthPeak].add(labels, inBaseUnit(*peak, false));
        if (const OrNull percent = view.percent(r, c))
          out[PercentOfPeak].add(labels, ratio(*percent));
      }
      if (const CellStatistics* statistics = view.statistics(r, c); statistics && statistics->cv)
        out[CellCv].add(labels, *statistics->cv);
      if (listed) {
        const auto here = [&](const OutlierRecord& o) {
          return o.row == view.part().firstRow + r && o.col == c;
        };
        out[CellOutlier].add(labels, std::any_of(listed->begin(), listed->end(), here) ? 1 : 0);
      }
    }
  }
  const std::optional<double> listedSum = view.sum();
  out[latency ? LatencySum : BandwidthSum].add(
      whole.labels(),
      inBaseUnit(listedSum && std::isfinite(*listedSum) ? *listedSum : sum, latency));
}

void addComparison(std::vector<GaugeFamily>& out, const ComparisonSection& comparison,
                   const Entries& entries, const Facts& facts, const StopRequest& stop) {
  std::map<std::string, std::vector<const MetricMatrix*>> byKey;
  for (const MetricMatrix& m : entries.matrices) byKey[m.view.key()].push_back(&m);
  std::map<std::string, double> counts;
  std::map<std::tuple<std::string, std::int64_t, std::int64_t>, std::size_t> seen;
  std::size_t visited = 0;
  for (const ComparedCellRecord& cell : orEmpty(comparison.cells)) {
    if (visited++ % 256 == 0) throwIfStopped(stop);
    const auto row = indexOf(cell.row);
    const auto col = indexOf(cell.col);
    if (cell.name.empty() || !row || !col) continue;
    const std::size_t n = ++seen[{cell.name, *row, *col}];
    const auto r = static_cast<std::size_t>(*row);
    const auto c = static_cast<std::size_t>(*col);
    Subject s;
    const auto it = byKey.find(cell.name);
    if (it != byKey.end() && n <= it->second.size() && r < it->second[n - 1]->view.rows() &&
        c < it->second[n - 1]->view.cols()) {
      s = cellSubject(*it->second[n - 1], r, c, facts);
    } else {
      s = entrySubject(facts, cell.name, "", n);
      s.row = std::to_string(r);
      s.col = std::to_string(c);
    }
    const std::string verdict = cell.verdict.value_or("");
    if (!verdict.empty()) {
      out[Verdict].add(s.labels({{"verdict", verdict}}), 1);
      counts[verdict] += 1;
    }
    if (cell.changePercent && *cell.changePercent)
      out[ChangePercent].add(s.labels(), **cell.changePercent);
    if (cell.bandPercent) out[BandPercent].add(s.labels(), *cell.bandPercent);
    if (cell.healthySpreadPercent) out[HealthySpread].add(s.labels(), *cell.healthySpreadPercent);
    if (cell.spreadPercent) out[SpreadPercent].add(s.labels(), *cell.spreadPercent);
    if (cell.unstableLimitPercent) out[UnstableLimit].add(s.labels(), *cell.unstableLimitPercent);
  }
  const Subject run = entrySubject(facts);
  for (const char* v : kKnownVerdicts) {
    out[VerdictCells].add(run.labels({{"verdict", v}}), counts[v]);
    counts.erase(v);
  }
  for (const auto& [verdict, count] : counts)
    out[VerdictCells].add(run.labels({{"verdict", verdict}}), count);
  for (const auto& [list, side] : {std::pair{&comparison.onlyInBaseline, "baseline"},
                                   std::pair{&comparison.onlyInCurrent, "current"}})
    if (*list)
      out[Unmatched].add(run.labels({{"side", side}}), static_cast<double>((*list)->size()));
  if (comparison.tolerancePercent) out[Tolerance].add(run.labels(), *comparison.tolerancePercent);
}

void addRun(std::vector<GaugeFamily>& out, const Report& report, const Facts& facts, bool isRun) {
  const Subject about = entrySubject(facts);
  const std::optional<SettingsRecord>& settings = report.settings;
  const std::string version = report.version.value_or("");
  const std::string gitVersion = report.gitVersion.value_or("");
  out[RunInfo].add(
      about.labels({{"version", version},
                    {"git_version", gitVersion},
                    {"schema_version", report.schemaVersion.value_or("")},
                    {"driver_version", report.driverVersion.value_or("")},
                    {"cuda_runtime_version", wholeText(report.cudaRuntimeVersion)},
                    {"cuda_driver_version", wholeText(report.cudaDriverVersion)},
                    {"statistic", settings ? settings->statistic.value_or("") : ""},
                    {"buffer_size_mib", settings ? wholeText(settings->bufferSizeMiB) : ""}}),
      1);
  if (const std::string release = report.release.value_or(""); !release.empty())
    out[BuildInfo].add(
        about.labels({{"release", release}, {"version", version}, {"git_version", gitVersion}}), 1);
  if (const auto started = parseUtcTimestamp(report.startedAt.value_or("")))
    out[RunStart].add(about.labels(), *started);
  if (report.timing && report.timing->wallSeconds)
    out[RunDuration].add(about.labels(), *report.timing->wallSeconds);
  if (isRun) {
    const std::string signal = report.interrupted.value_or("");
    out[RunInterrupted].add(about.labels({{"signal", signal}}), signal.empty() ? 0 : 1);
    out[RunError].add(about.labels(), report.error.value_or("").empty() ? 0 : 1);
  }
  for (const auto& rank : facts.ranks) {
    Subject s;
    aboutRank(s, std::to_string(rank.first), facts);
    out[ProcessInfo].add(s.labels(), 1);
  }
}

}  // namespace

std::vector<std::string> metricsPieces(const Report& report, const StopRequest& stop,
                                       std::size_t maxBytes) {
  throwIfStopped(stop);
  std::size_t budget = maxBytes;
  std::vector<GaugeFamily> out = families(budget);
  const Facts facts = readFacts(report);
  const bool isRun = report.testcases.has_value();
  // Refused as soon as the cells show it cannot fit: from the entries alone, then with the
  // matrices' layouts, before any series is made.
  if (isRun) refuseIfOver(*report.testcases, facts, maxBytes);
  const Entries entries = isRun ? readEntries(*report.testcases, facts) : Entries{};
  refuseIfOver(entries, facts, maxBytes);
  addRun(out, report, facts, isRun);
  for (const StatusView& s : entries.statuses)
    out[TestcaseStatus].add(s.entry.labels({{"status", s.status}}), 1);
  for (const MetricMatrix& m : entries.matrices) addMatrix(out, m, facts, stop);
  if (report.comparison) addComparison(out, *report.comparison, entries, facts, stop);
  std::vector<std::string> pieces;
  for (GaugeFamily& family : out) family.moveTo(pieces);
  return pieces;
}

}  // namespace nvbw
