// The metrics view (metrics.h): fills the gauge families, in the order the file lists them, from
// what metrics_reading.cpp reads of the report.
#include "fleet/metrics/metrics.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "fleet/metrics/metrics_exposition.h"
#include "fleet/metrics/metrics_reading.h"
#include "model/report_keys.h"

namespace nvbw {
namespace {

using metrics::GaugeFamily;
using metrics::MetricLabels;
using namespace metrics;

// ---- The families, in the order the file lists them ----

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
        "Theoretical peak of the cell's link in the cell's counting convention, bytes per "
        "second."),
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
double bytesPerSecond(double gbPerSecond) { return gbPerSecond * 1e9; }
double seconds(double nanoseconds) { return nanoseconds / 1e9; }
double ratio(double percent) { return percent / 100.0; }
double inBaseUnit(double value, bool latency) {
  return latency ? seconds(value) : bytesPerSecond(value);
}

void addMatrix(std::vector<GaugeFamily>& out, const MetricMatrix& m, const Facts& facts,
               const StopRequest& stop) {
  const Subject whole = matrixSubject(m, facts);
  out[MatrixInfo].add(whole.labels({{"description", m.title}, {"unit", m.latency ? "ns" : "GB/s"}}),
                      1);
  std::vector<std::pair<std::size_t, std::size_t>> outliers;
  const json* listed = m.latency ? nullptr : member(*m.entry, keys::kOutliers);
  if (listed && listed->is_array())
    for (const json& o : *listed) {
      const auto r = wholeNumber(member(o, keys::kRow));
      const auto c = wholeNumber(member(o, keys::kCol));
      if (r && c) outliers.emplace_back(static_cast<std::size_t>(*r), static_cast<std::size_t>(*c));
    }
  double sum = 0.0;
  for (std::size_t r = 0; r < m.values.size(); ++r) {
    throwIfStopped(stop);
    for (std::size_t c = 0; c < m.values[r].size(); ++c) {
      if (!m.values[r][c]) continue;
      const double value = *m.values[r][c];
      sum += value;
      const MetricLabels labels = cellSubject(m, r, c, facts).labels();
      const std::size_t row = m.rowOffset + r;
      out[m.latency ? Latency : Bandwidth].add(labels, inBaseUnit(value, m.latency));
      if (!m.latency) {
        if (const auto peak = finite(gridCell(*m.entry, keys::kPeakGBps, row, c)))
          out[BandwidthPeak].add(labels, bytesPerSecond(*peak));
        if (const auto percent = finite(gridCell(*m.entry, keys::kPercentOfPeak, row, c)))
          out[PercentOfPeak].add(labels, ratio(*percent));
      }
      if (const json* cell = gridCell(*m.entry, keys::kCells, row, c))
        if (const auto cv = finite(member(*cell, keys::kCv))) out[CellCv].add(labels, *cv);
      if (listed && listed->is_array()) {
        bool flagged = false;
        for (const auto& o : outliers) flagged = flagged || o == std::make_pair(row, c);
        out[CellOutlier].add(labels, flagged ? 1 : 0);
      }
    }
  }
  out[m.latency ? LatencySum : BandwidthSum].add(whole.labels(),
                                                 inBaseUnit(m.sum ? *m.sum : sum, m.latency));
}

void addComparison(std::vector<GaugeFamily>& out, const json& comparison, const Entries& entries,
                   const Facts& facts, const StopRequest& stop) {
  std::map<std::string, std::vector<const MetricMatrix*>> byKey;
  for (const MetricMatrix& m : entries.matrices) byKey[m.key].push_back(&m);
  std::map<std::string, double> counts;
  for (const char* v : kKnownVerdicts) counts[v] = 0;
  std::map<std::tuple<std::string, std::int64_t, std::int64_t>, std::size_t> seen;
  static const json kNoCells = json::array();
  const json* listed = member(comparison, keys::kCells);
  std::size_t visited = 0;
  for (const json& cell : listed && listed->is_array() ? *listed : kNoCells) {
    if (visited++ % 256 == 0) throwIfStopped(stop);
    const std::string name = text(cell, keys::kName);
    const auto row = wholeNumber(member(cell, keys::kRow));
    const auto col = wholeNumber(member(cell, keys::kCol));
    if (name.empty() || !row || !col) continue;
    const std::size_t n = ++seen[{name, *row, *col}];
    const auto r = static_cast<std::size_t>(*row);
    const auto c = static_cast<std::size_t>(*col);
    Subject s;
    const auto it = byKey.find(name);
    if (it != byKey.end() && n <= it->second.size() && r < it->second[n - 1]->values.size() &&
        c < it->second[n - 1]->values[r].size()) {
      s = cellSubject(*it->second[n - 1], r, c, facts);
    } else {
      s.host = facts.hostname;
      s.testcase = name;
      s.row = std::to_string(r);
      s.col = std::to_string(c);
      s.repeat = repeatText(n);
    }
    const std::string verdict = text(cell, keys::kVerdict);
    if (!verdict.empty()) {
      out[Verdict].add(s.labels({{"verdict", verdict}}), 1);
      counts[verdict] += 1;
    }
    if (const auto change = finite(member(cell, keys::kChangePercent)))
      out[ChangePercent].add(s.labels(), *change);
    if (const auto band = finite(member(cell, keys::kBandPercent)))
      out[BandPercent].add(s.labels(), *band);
    for (const auto& [family, key] : {std::pair{HealthySpread, keys::kHealthySpreadPercent},
                                      std::pair{SpreadPercent, keys::kSpreadPercent},
                                      std::pair{UnstableLimit, keys::kUnstableLimitPercent}})
      if (const auto value = finite(member(cell, key))) out[family].add(s.labels(), *value);
  }
  Subject run;
  run.host = facts.hostname;
  for (const char* v : kKnownVerdicts)
    out[VerdictCells].add(run.labels({{"verdict", v}}), counts[v]);
  for (const auto& [verdict, count] : counts)
    if (std::find(std::begin(kKnownVerdicts), std::end(kKnownVerdicts), verdict) ==
        std::end(kKnownVerdicts))
      out[VerdictCells].add(run.labels({{"verdict", verdict}}), count);
  for (const auto& [key, side] :
       {std::pair{"only_in_baseline", "baseline"}, std::pair{"only_in_current", "current"}})
    if (const json* list = member(comparison, key); list && list->is_array())
      out[Unmatched].add(run.labels({{"side", side}}), static_cast<double>(list->size()));
  if (const auto tolerance = finite(member(comparison, keys::kTolerancePercent)))
    out[Tolerance].add(run.labels(), *tolerance);
}

void addRun(std::vector<GaugeFamily>& out, const json& run, const Facts& facts, bool isRun) {
  Subject about;
  about.host = facts.hostname;
  const json* settings = member(run, keys::kSettings);
  out[RunInfo].add(
      about.labels({{"version", text(run, keys::kVersion)},
                    {"git_version", text(run, keys::kGitVersion)},
                    {"schema_version", text(run, keys::kSchemaVersion)},
                    {"driver_version", text(run, keys::kDriverVersion)},
                    {"cuda_runtime_version", wholeText(member(run, keys::kCudaRuntimeVersion))},
                    {"cuda_driver_version", wholeText(member(run, keys::kCudaDriverVersion))},
                    {"statistic", settings ? text(*settings, keys::kStatistic) : ""},
                    {"buffer_size_mib",
                     settings ? wholeText(member(*settings, keys::kBufferSizeMiB)) : ""}}),
      1);
  if (const std::string release = text(run, keys::kRelease); !release.empty())
    out[BuildInfo].add(about.labels({{"release", release},
                                     {"version", text(run, keys::kVersion)},
                                     {"git_version", text(run, keys::kGitVersion)}}),
                       1);
  if (const auto started = metrics::parseUtcTimestamp(text(run, keys::kStartedAt)))
    out[RunStart].add(about.labels(), *started);
  if (const json* timing = member(run, keys::kTiming))
    if (const auto wall = finite(member(*timing, "wall_seconds")))
      out[RunDuration].add(about.labels(), *wall);
  if (isRun) {
    const std::string signal = text(run, keys::kInterrupted);
    out[RunInterrupted].add(about.labels({{"signal", signal}}), signal.empty() ? 0 : 1);
    out[RunError].add(about.labels(), text(run, keys::kError).empty() ? 0 : 1);
  }
  for (const auto& [rank, p] : facts.ranks) {
    Subject s;
    s.gpu = p.device;
    s.uuid = p.uuid;
    s.model = p.model;
    s.host = p.host;
    s.rank = std::to_string(rank);
    out[ProcessInfo].add(s.labels(), 1);
  }
}

}  // namespace

std::vector<std::string> metricsPieces(const json& report, const StopRequest& stop) {
  return metrics::metricsPiecesWithin(report, kMaxMetricsBytes, stop);
}

std::string metricsText(const json& report) {
  return metrics::metricsTextWithin(report, kMaxMetricsBytes);
}

std::string metrics::metricsTextWithin(const json& report, std::size_t maxBytes) {
  std::string text;
  for (const std::string& piece : metricsPiecesWithin(report, maxBytes, {})) text += piece;
  return text;
}

std::vector<std::string> metrics::metricsPiecesWithin(const json& report, std::size_t maxBytes,
                                                      const StopRequest& stop) {
  throwIfStopped(stop);
  std::size_t budget = maxBytes;
  std::vector<GaugeFamily> out = families(budget);
  const json* run = member(report, keys::kRoot);
  if (!run || !run->is_object()) return {};
  const Facts facts = readFacts(*run);
  const json* testcases = member(*run, keys::kTestcases);
  const bool isRun = testcases && testcases->is_array();
  // Refused as soon as the cells show it cannot fit: before their grids are read, then before
  // any series is made.
  if (isRun) refuseIfOver(leastMetricsBytes(*testcases, facts), maxBytes);
  const Entries entries = isRun ? readEntries(*testcases) : Entries{};
  refuseIfOver(leastMetricsBytes(entries, facts), maxBytes);
  addRun(out, *run, facts, isRun);
  for (const StatusView& s : entries.statuses) {
    Subject about;
    about.host = facts.hostname;
    about.testcase = s.key;
    about.bufferMiB = s.bufferMiB;
    about.repeat = repeatText(s.occurrence);
    out[TestcaseStatus].add(about.labels({{"status", s.status}}), 1);
  }
  for (const MetricMatrix& m : entries.matrices) addMatrix(out, m, facts, stop);
  if (const json* comparison = member(*run, keys::kComparison);
      comparison && comparison->is_object())
    addComparison(out, *comparison, entries, facts, stop);
  std::vector<std::string> pieces;
  for (GaugeFamily& family : out) family.moveTo(pieces);
  return pieces;
}

}  // namespace nvbw
