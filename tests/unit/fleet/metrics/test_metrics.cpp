// The metrics view (metrics.h): exact lines for small documents of each kind (host, device to
// device with its N/A diagonal, latency, upstream's stacked bidirectional entry, waived and
// failed entries, a comparison, multi-process matrices, hostile strings), the run's facts, the
// escaping, numbers and timestamps, and goldens of real reports. tests/metrics/check_metrics.py
// parses every report's metrics with both Prometheus parsers (ctest metrics_files).
#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <clocale>
#include <cmath>
#include <csignal>
#include <limits>
#include <locale>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fleet/metrics/metrics.h"
#include "fleet/metrics/metrics_internal.h"
#include "golden.h"
#include "model/report_files.h"

namespace nvbw {
namespace test_metrics {

using metrics::metricsLabelValue;
using metrics::metricsNumber;
using nlohmann::json;
using test::kGolden;
using test::readFile;

const std::string kReports = kGolden + "/../metrics/reports";
const std::string kData = kGolden + "/../data";

// A document made by hand or read from a file, read into a Report as `--from` reads a saved
// report (the model's reader and its checks).
Report reportOf(const std::string& text) {
  return readReportText(text, ReadOptions{ReportKind::RunOrComparison});
}
Report reportOf(const json& doc) { return reportOf(doc.dump()); }
// The metrics pieces joined, within `maxBytes`.
std::string metricsTextWithin(const Report& report, std::size_t maxBytes) {
  std::string text;
  for (const std::string& piece : metricsPieces(report, {}, maxBytes)) text += piece;
  return text;
}
std::string metricsText(const Report& report) {
  return metricsTextWithin(report, kMaxMetricsBytes);
}
std::string metricsOf(const json& doc) { return metricsText(reportOf(doc)); }
Report reportFile(const std::string& path) { return reportOf(readFile(path)); }

// ---- Documents made by hand ----

const char* const kH2dTitle = "memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)";
const char* const kD2dReadTitle = "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)";

json run(json testcases, json extra = json::object()) {
  json r = {{"version", "v0.8"},
            {"git_version", "v0.8-3-gabc1234"},
            {"schema_version", "1.0"},
            {"CUDA Runtime Version", 13000},
            {"CUDA Driver Version", 13000},
            {"Driver Version", "580.159.04"},
            {"settings", {{"bufferSize_MiB", 512}, {"statistic", "median"}}},
            {"GPU Device list",
             {"0: NVIDIA H200 (00000000:19:00): (gpu-node-01)",
              "1: NVIDIA H200 (00000000:29:00): (gpu-node-01)"}},
            {"testcases", std::move(testcases)}};
  r.update(extra);
  return {{"nvbandwidth", r}};
}

json matrix(const std::string& name, const std::string& title, json values,
            const std::string& unit = "GB/s") {
  return {{"name", name},
          {"status", "Passed"},
          {"bandwidth_description", title},
          {"values", std::move(values)},
          {"unit", unit},
          {"statistic", "median"}};
}

// A grid of strings ("links", upstream's "bandwidth_matrix"): nlohmann would read a braced row of
// two strings as a key and its value.
json strings(const std::vector<std::vector<std::string>>& rows) { return json(rows); }

// A cell's statistics as a run writes them (one sample), with its cv.
json statistics(double value, json cv) {
  return {{"samples", {value}}, {"min", value},  {"max", value},       {"mean", value},
          {"median", value},    {"stddev", 0.0}, {"cv", std::move(cv)}};
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The sample lines of one family, in order.
std::vector<std::string> samples(const std::string& text, const std::string& family) {
  std::vector<std::string> out;
  for (const std::string& line : lines(text))
    if (line.compare(0, family.size(), family) == 0 &&
        (line.size() > family.size() && (line[family.size()] == '{' || line[family.size()] == ' ')))
      out.push_back(line);
  return out;
}

const std::string kBandwidth = "nvbandwidth_bandwidth_bytes_per_second";
const std::string kLatency = "nvbandwidth_latency_seconds";
const std::string kStatus = "nvbandwidth_testcase_status";
const std::string kHost = "Hostname=\"gpu-node-01\"";
const std::string kGpu0 = "gpu=\"0\",modelName=\"NVIDIA H200\"," + kHost;
const std::string kGpu1 = "gpu=\"1\",modelName=\"NVIDIA H200\"," + kHost;

// The text of a value in the metrics' base units, as the file writes numbers (the shortest text
// that reads back as the same double): the report's GB/s x 10^9, its ns / 10^9.
std::string shortest(double value) {
  std::array<char, 64> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), value).ptr;
  return std::string(text.data(), end);
}
std::string bps(double gbPerSecond) { return shortest(gbPerSecond * 1e9); }
std::string sec(double nanoseconds) { return shortest(nanoseconds / 1e9); }

// Every family once, HELP then TYPE gauge then samples; no series twice. (check_metrics.py checks
// the same with the Prometheus parsers, on every report.)
void expectWellFormed(const std::string& text) {
  std::set<std::string> families, series;
  std::string current;
  for (const std::string& line : lines(text)) {
    if (line.rfind("# HELP ", 0) == 0) {
      current = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_TRUE(families.insert(current).second) << current << " twice";
    } else if (line.rfind("# TYPE ", 0) == 0) {
      EXPECT_EQ(line, "# TYPE " + current + " gauge");
    } else {
      EXPECT_EQ(line.compare(0, current.size(), current), 0) << line;
      EXPECT_TRUE(series.insert(line.substr(0, line.rfind(' '))).second) << "twice: " << line;
      const std::string value = line.substr(line.rfind(' ') + 1);
      EXPECT_TRUE(std::isfinite(std::stod(value))) << line;
    }
  }
  EXPECT_TRUE(text.empty() || text.back() == '\n');
}

// ---- Cells ----

TEST(Metrics, HostTestcaseCellsCarryGpuPeerCpuLinkAndPeaks) {
  json entry = matrix("host_to_device_memcpy_ce", kH2dTitle, {{55.39419706710477, 45.25}});
  entry["links"] = strings({{"PCIe Gen5 x16", "PCIe Gen4 x16"}});
  entry["peak_GBps"] = {{63.01538461538462, 31.5}};
  entry["percent_of_peak"] = {{87.9058303066848, 143.65079365079364}};
  entry["cells"] = {
      {statistics(55.39419706710477, 0.0007533077115252087), statistics(45.25, nullptr)}};
  entry["outliers"] = json::array({{{"row", 0}, {"col", 1}}});
  entry["sum"] = 100.64419706710477;
  const json doc =
      run({entry}, {{"environment", {{"gpus", {{{"device", 0}, {"uuid", "GPU-aaa"}}}}}}});
  const std::string text = metricsOf(doc);
  expectWellFormed(text);
  const std::string cell0 =
      "{gpu=\"0\",UUID=\"GPU-aaa\",modelName=\"NVIDIA H200\"," + kHost +
      ",testcase=\"host_to_device_memcpy_ce\",peer=\"CPU\",link=\"PCIe Gen5 x16\"}";
  const std::string cell1 =
      "{" + kGpu1 + ",testcase=\"host_to_device_memcpy_ce\",peer=\"CPU\",link=\"PCIe Gen4 x16\"}";
  // Base units: GB/s x 10^9, percent / 100 (each the report's number through one operation).
  EXPECT_EQ(samples(text, kBandwidth),
            (std::vector<std::string>{kBandwidth + cell0 + " 55394197067.10477",
                                      kBandwidth + cell1 + " 4.525e+10"}));
  EXPECT_EQ(samples(text, "nvbandwidth_bandwidth_peak_bytes_per_second"),
            (std::vector<std::string>{
                "nvbandwidth_bandwidth_peak_bytes_per_second" + cell0 + " 63015384615.38462",
                "nvbandwidth_bandwidth_peak_bytes_per_second" + cell1 + " 3.15e+10"}));
  EXPECT_EQ(samples(text, "nvbandwidth_bandwidth_of_peak_ratio")[0],
            "nvbandwidth_bandwidth_of_peak_ratio" + cell0 + " 0.8790583030668481");
  // A cell whose cv is null has no cv series.
  EXPECT_EQ(
      samples(text, "nvbandwidth_cell_cv_ratio"),
      (std::vector<std::string>{"nvbandwidth_cell_cv_ratio" + cell0 + " 0.0007533077115252087"}));
  EXPECT_EQ(samples(text, "nvbandwidth_cell_outlier"),
            (std::vector<std::string>{"nvbandwidth_cell_outlier" + cell0 + " 0",
                                      "nvbandwidth_cell_outlier" + cell1 + " 1"}));
  EXPECT_EQ(
      samples(text, "nvbandwidth_bandwidth_sum_bytes_per_second"),
      (std::vector<std::string>{"nvbandwidth_bandwidth_sum_bytes_per_second{" + kHost +
                                ",testcase=\"host_to_device_memcpy_ce\"} 100644197067.10477"}));
  EXPECT_EQ(samples(text, "nvbandwidth_matrix_info"),
            (std::vector<std::string>{"nvbandwidth_matrix_info{" + kHost +
                                      ",testcase=\"host_to_device_memcpy_ce\",description=\"" +
                                      kH2dTitle + "\",unit=\"GB/s\"} 1"}));
  EXPECT_NE(text.find("# HELP " + kBandwidth + " Bandwidth of a matrix cell in bytes per second"),
            std::string::npos);
}

TEST(Metrics, DeviceToDeviceRowIsTheGpuColumnThePeerAndNaCellsHaveNoSeries) {
  const json doc = run({matrix("device_to_device_memcpy_read_ce", kD2dReadTitle,
                               {{nullptr, 393.89}, {393.98, nullptr}})});
  const std::string text = metricsOf(doc);
  expectWellFormed(text);
  EXPECT_EQ(samples(text, kBandwidth),
            (std::vector<std::string>{
                kBandwidth + "{" + kGpu0 +
                    ",testcase=\"device_to_device_memcpy_read_ce\",peer=\"1\"} 3.9389e+11",
                kBandwidth + "{" + kGpu1 +
                    ",testcase=\"device_to_device_memcpy_read_ce\",peer=\"0\"} 3.9398e+11"}));
  // No peaks, percents, cvs or outlier lists in the entry: no such families at all.
  for (const char* family : {"peak", "percent", "cv_ratio", "outlier"})
    EXPECT_EQ(text.find(family), std::string::npos) << family;
}

TEST(Metrics, FansAndLocalCopiesNameTheColumnGpuWithoutPeer) {
  const json doc =
      run({matrix("all_to_one_write_ce", "memcpy CE GPU(row) <- GPU(column) bandwidth (GB/s)",
                  {{360.75, 232.25}}),
           matrix("device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)",
                  {{2089.5, 2091.5}})});
  const std::string text = metricsOf(doc);
  EXPECT_EQ(samples(text, kBandwidth),
            (std::vector<std::string>{
                kBandwidth + "{" + kGpu0 + ",testcase=\"all_to_one_write_ce\"} 3.6075e+11",
                kBandwidth + "{" + kGpu1 + ",testcase=\"all_to_one_write_ce\"} 2.3225e+11",
                kBandwidth + "{" + kGpu0 + ",testcase=\"device_local_copy\"} 2.0895e+12",
                kBandwidth + "{" + kGpu1 + ",testcase=\"device_local_copy\"} 2.0915e+12"}));
}

TEST(Metrics, LatencyIsInSecondsWithItsOwnSum) {
  json host = matrix("host_device_latency_sm", "memory latency SM CPU(row) <-> GPU(column) (ns)",
                     {{1198.9678036082876, 1197.5}}, "ns");
  host["sum"] = 2396.467803608288;
  json peer = matrix("device_to_device_latency_sm",
                     "Device to Device Latency SM GPU(row) <-> GPU(column) (ns)",
                     {{nullptr, 831.75}, {834.25, nullptr}}, "ns");
  peer["peak_GBps"] = {{nullptr, nullptr}, {nullptr, nullptr}};
  const std::string text = metricsOf(run({host, peer}));
  expectWellFormed(text);
  EXPECT_TRUE(samples(text, kBandwidth).empty());
  EXPECT_EQ(
      samples(text, kLatency),
      (std::vector<std::string>{
          kLatency + "{" + kGpu0 +
              ",testcase=\"host_device_latency_sm\",peer=\"CPU\"} 1.1989678036082875e-06",
          kLatency + "{" + kGpu1 + ",testcase=\"host_device_latency_sm\",peer=\"CPU\"} 1.1975e-06",
          kLatency + "{" + kGpu0 +
              ",testcase=\"device_to_device_latency_sm\",peer=\"1\"} 8.3175e-07",
          kLatency + "{" + kGpu1 +
              ",testcase=\"device_to_device_latency_sm\",peer=\"0\"} 8.3425e-07"}));
  // The entry's sum where it has one, else the sum of its cells.
  EXPECT_EQ(
      samples(text, "nvbandwidth_latency_sum_seconds"),
      (std::vector<std::string>{"nvbandwidth_latency_sum_seconds{" + kHost +
                                    ",testcase=\"host_device_latency_sm\"} 2.396467803608288e-06",
                                "nvbandwidth_latency_sum_seconds{" + kHost +
                                    ",testcase=\"device_to_device_latency_sm\"} 1.666e-06"}));
  EXPECT_NE(text.find("unit=\"ns\"} 1"), std::string::npos);
}

json upstreamDocument(json testcases) {
  return {{"nvbandwidth",
           {{"version", "v0.8"},
            {"git_version", ""},
            {"CUDA Runtime Version", 13000},
            {"Driver Version", "580.159.04"},
            {"GPU Device list",
             {"0: NVIDIA H200 (00000000:00:06): (vm)", "1: NVIDIA H200 (00000000:00:07): (vm)"}},
            {"testcases", std::move(testcases)}}}};
}

TEST(Metrics, UpstreamStackedBidirectionalEntryIsSplitIntoThreeMatrices) {
  const json stacked = {
      {"name", "device_to_device_bidirectional_memcpy_write_ce"},
      {"status", "Passed"},
      {"bandwidth_description", "memcpy CE GPU(row) <-> GPU(column) Total bandwidth (GB/s)"},
      {"bandwidth_matrix", strings({{"N/A", "391.68"},
                                    {"391.734", "N/A"},
                                    {"N/A", "391.823"},
                                    {"391.68", "N/A"},
                                    {"N/A", "783.503"},
                                    {"783.414", "N/A"}})},
      {"sum", 2350.0}};
  const std::string text = metricsOf(upstreamDocument({stacked}));
  expectWellFormed(text);
  const std::string host = "Hostname=\"vm\"";
  const std::string key = "device_to_device_bidirectional_memcpy_write_ce";
  auto cell = [&](int gpu, const std::string& part, int peer, const std::string& value) {
    return kBandwidth + "{gpu=\"" + std::to_string(gpu) + "\",modelName=\"NVIDIA H200\"," + host +
           ",testcase=\"" + key + part + "\",peer=\"" + std::to_string(peer) + "\"} " + value;
  };
  EXPECT_EQ(samples(text, kBandwidth),
            (std::vector<std::string>{
                cell(0, "_write1", 1, bps(391.68)), cell(1, "_write1", 0, bps(391.734)),
                cell(0, "_write2", 1, bps(391.823)), cell(1, "_write2", 0, bps(391.68)),
                cell(0, "_total", 1, bps(783.503)), cell(1, "_total", 0, bps(783.414))}));
  // Each part is an entry of its own: status, title in this tool's words, SUM of its cells.
  EXPECT_EQ(samples(text, kStatus),
            (std::vector<std::string>{
                kStatus + "{" + host + ",testcase=\"" + key + "_write1\",status=\"Passed\"} 1",
                kStatus + "{" + host + ",testcase=\"" + key + "_write2\",status=\"Passed\"} 1",
                kStatus + "{" + host + ",testcase=\"" + key + "_total\",status=\"Passed\"} 1"}));
  EXPECT_NE(text.find("testcase=\"" + key +
                      "_write2\",description=\"memcpy CE GPU(row) <-> GPU(column) Write2 bandwidth "
                      "(GB/s)\""),
            std::string::npos);
  EXPECT_NE(text.find(key + "_total\"} " + bps(783.503 + 783.414) + "\n"), std::string::npos)
      << text;
  // Upstream's run: no schema_version, git_version or timing; never an empty label.
  EXPECT_NE(
      text.find(
          "nvbandwidth_run_info{" + host +
          ",version=\"v0.8\",driver_version=\"580.159.04\",cuda_runtime_version=\"13000\"} 1"),
      std::string::npos);
  EXPECT_EQ(text.find("=\"\""), std::string::npos);
  EXPECT_EQ(text.find("nvbandwidth_run_duration_seconds"), std::string::npos);
}

TEST(Metrics, AnEntryNamedLikeASplitPartIsARepeatNotADuplicate) {
  const json doc = upstreamDocument(
      {{{"name", "device_to_device_bidirectional_memcpy_read_ce"},
        {"status", "Passed"},
        {"bandwidth_description", "memcpy CE GPU(row) <-> GPU(column) Total bandwidth (GB/s)"},
        {"bandwidth_matrix", strings({{"N/A", "1"},
                                      {"2", "N/A"},
                                      {"N/A", "3"},
                                      {"4", "N/A"},
                                      {"N/A", "5"},
                                      {"6", "N/A"}})}},
       {{"name", "device_to_device_bidirectional_memcpy_read_ce_read1"},
        {"status", "Passed"},
        {"bandwidth_description", "memcpy CE GPU(row) <-> GPU(column) Read1 bandwidth (GB/s)"},
        {"bandwidth_matrix", strings({{"N/A", "7"}, {"8", "N/A"}})}}});
  const std::string text = metricsOf(doc);
  expectWellFormed(text);
  EXPECT_NE(text.find("testcase=\"device_to_device_bidirectional_memcpy_read_ce_read1\",peer=\"1\","
                      "repeat=\"2\"} 7"),
            std::string::npos);
}

// ---- Entries without a matrix ----

TEST(Metrics, EveryEntryHasOneStatusSeriesAndTheEmptyTokenNoTestcaseLabel) {
  const json doc =
      run({matrix("host_to_device_memcpy_ce", kH2dTitle, {{55.0, 54.0}}),
           {{"name", "device_to_device_memcpy_read_ce"},
            {"status", "Waived"},
            {"waive_reason", "1 GPU"}},
           {{"name", "foo"}, {"status", "ERROR"}, {"error", "Testcase foo not found!"}},
           {{"name", ""}, {"status", "ERROR"}, {"error", "Testcase  not found!"}},
           {{"name", "foo"}, {"status", "ERROR"}, {"error", "Testcase foo not found!"}},
           {{"name", "device_local_copy"}, {"status", "Passed"}},
           {{"name", "host_to_device_memcpy_sm"}, {"status", "Running"}}});
  const std::string text = metricsOf(doc);
  expectWellFormed(text);
  EXPECT_EQ(
      samples(text, kStatus),
      (std::vector<std::string>{
          kStatus + "{" + kHost + ",testcase=\"host_to_device_memcpy_ce\",status=\"Passed\"} 1",
          kStatus + "{" + kHost +
              ",testcase=\"device_to_device_memcpy_read_ce\",status=\"Waived\"} 1",
          kStatus + "{" + kHost + ",testcase=\"foo\",status=\"ERROR\"} 1",
          kStatus + "{" + kHost + ",status=\"ERROR\"} 1",
          kStatus + "{" + kHost + ",testcase=\"foo\",repeat=\"2\",status=\"ERROR\"} 1",
          kStatus + "{" + kHost + ",testcase=\"device_local_copy\",status=\"Passed\"} 1",
          kStatus + "{" + kHost + ",testcase=\"host_to_device_memcpy_sm\",status=\"Running\"} 1"}));
  EXPECT_EQ(samples(text, kBandwidth).size(), 2u);
}

TEST(Metrics, SweepSizesAndRepeatedTestcasesKeepTheirCellsApart) {
  json small =
      matrix("device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)", {{100.0, 101.0}});
  small["bufferSize_MiB"] = 1;
  json large = small;
  large["bufferSize_MiB"] = 512;
  large["values"] = {{2000.0, 2001.0}};
  const json again =
      matrix("device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)", {{2002.0, 2003.0}});
  const std::string text = metricsOf(run({small, large, again, again}));
  expectWellFormed(text);
  const auto cells = samples(text, kBandwidth);
  ASSERT_EQ(cells.size(), 8u);
  EXPECT_EQ(cells[0], kBandwidth + "{" + kGpu0 +
                          ",testcase=\"device_local_copy\",buffer_size_mib=\"1\"} " + bps(100));
  EXPECT_EQ(cells[2], kBandwidth + "{" + kGpu0 +
                          ",testcase=\"device_local_copy\",buffer_size_mib=\"512\"} " + bps(2000));
  EXPECT_EQ(cells[4], kBandwidth + "{" + kGpu0 + ",testcase=\"device_local_copy\"} " + bps(2002));
  EXPECT_EQ(cells[6], kBandwidth + "{" + kGpu0 + ",testcase=\"device_local_copy\",repeat=\"2\"} " +
                          bps(2002));
}

// ---- Comparison ----

json comparedCell(const std::string& name, int row, int col, const std::string& verdict,
                  json change) {
  return {{"name", name},
          {"row", row},
          {"col", col},
          {"unit", "GB/s"},
          {"baseline", 400.0},
          {"current", 390.0},
          {"change_percent", std::move(change)},
          {"verdict", verdict},
          {"basis", "noise"},
          {"band_percent", 1.5},
          {"noisy", false}};
}

// The metrics of a 2-GPU peer-read matrix with a comparison of `cells`, checked well formed.
std::string comparedMetrics(const json& cells, const json& onlyInBaseline = json::array()) {
  const json compared = {{"tolerance_percent", 5.0},
                         {"cells", cells},
                         {"only_in_baseline", onlyInBaseline},
                         {"only_in_current", json::array()}};
  const json doc = run({matrix("device_to_device_memcpy_read_ce", kD2dReadTitle,
                               {{nullptr, 393.89}, {393.98, nullptr}})},
                       {{"comparison", compared}});
  const std::string text = metricsOf(doc);
  expectWellFormed(text);
  return text;
}

TEST(Metrics, ComparedCellsCarryTheirCellsLabelsAndEveryVerdictIsCounted) {
  const std::string text =
      comparedMetrics({comparedCell("device_to_device_memcpy_read_ce", 0, 1, "SAME", -0.25),
                       comparedCell("device_to_device_memcpy_read_ce", 1, 0, "SLOWER", nullptr),
                       comparedCell("gone_testcase", 2, 3, "FASTER", 7.5)},
                      {"gone_testcase[0][0]", "x: Waived"});
  const std::string c01 = kGpu0 + ",testcase=\"device_to_device_memcpy_read_ce\",peer=\"1\"";
  const std::string c10 = kGpu1 + ",testcase=\"device_to_device_memcpy_read_ce\",peer=\"0\"";
  // A cell of no matrix in this document: testcase, row and col.
  const std::string gone = kHost + ",testcase=\"gone_testcase\",row=\"2\",col=\"3\"";
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_verdict"),
            (std::vector<std::string>{
                "nvbandwidth_comparison_verdict{" + c01 + ",verdict=\"SAME\"} 1",
                "nvbandwidth_comparison_verdict{" + c10 + ",verdict=\"SLOWER\"} 1",
                "nvbandwidth_comparison_verdict{" + gone + ",verdict=\"FASTER\"} 1"}));
  // A null change (baseline 0) has no series.
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_change_percent"),
            (std::vector<std::string>{"nvbandwidth_comparison_change_percent{" + c01 + "} -0.25",
                                      "nvbandwidth_comparison_change_percent{" + gone + "} 7.5"}));
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_band_percent").size(), 3u);
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_cells"),
            (std::vector<std::string>{
                "nvbandwidth_comparison_cells{" + kHost + ",verdict=\"SAME\"} 1",
                "nvbandwidth_comparison_cells{" + kHost + ",verdict=\"SLOWER\"} 1",
                "nvbandwidth_comparison_cells{" + kHost + ",verdict=\"FASTER\"} 1",
                "nvbandwidth_comparison_cells{" + kHost + ",verdict=\"NOISY\"} 0",
                "nvbandwidth_comparison_cells{" + kHost + ",verdict=\"UNSTABLE\"} 0",
                "nvbandwidth_comparison_cells{" + kHost + ",verdict=\"BELOW\"} 0"}));
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_unmatched"),
            (std::vector<std::string>{
                "nvbandwidth_comparison_unmatched{" + kHost + ",side=\"baseline\"} 2",
                "nvbandwidth_comparison_unmatched{" + kHost + ",side=\"current\"} 0"}));
  EXPECT_EQ(
      samples(text, "nvbandwidth_comparison_tolerance_percent"),
      (std::vector<std::string>{"nvbandwidth_comparison_tolerance_percent{" + kHost + "} 5"}));
}

// An UNSTABLE cell of the present rule: its verdict counted, its spread, healthy spread and
// unstable limit as series of their own.
TEST(Metrics, UnstableCellsAndTheirSpreads) {
  json cell = comparedCell("device_to_device_memcpy_read_ce", 0, 1, "UNSTABLE", -0.25);
  cell["healthy_spread_percent"] = 0.2;
  cell["spread_percent"] = 14.05;
  cell["unstable_limit_percent"] = 5.0;
  const std::string text = comparedMetrics(json::array({cell}));
  const std::string c01 = kGpu0 + ",testcase=\"device_to_device_memcpy_read_ce\",peer=\"1\"";
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_spread_percent"),
            (std::vector<std::string>{"nvbandwidth_comparison_spread_percent{" + c01 + "} 14.05"}));
  EXPECT_EQ(
      samples(text, "nvbandwidth_comparison_healthy_spread_percent"),
      (std::vector<std::string>{"nvbandwidth_comparison_healthy_spread_percent{" + c01 + "} 0.2"}));
  EXPECT_EQ(
      samples(text, "nvbandwidth_comparison_unstable_limit_percent"),
      (std::vector<std::string>{"nvbandwidth_comparison_unstable_limit_percent{" + c01 + "} 5"}));
  const std::vector<std::string> counts = samples(text, "nvbandwidth_comparison_cells");
  EXPECT_NE(std::find(counts.begin(), counts.end(),
                      "nvbandwidth_comparison_cells{" + kHost + ",verdict=\"UNSTABLE\"} 1"),
            counts.end());
}

TEST(Metrics, ACompareDocumentHasVerdictsByRowAndColumnAndNoRunFlags) {
  const Report doc = reportFile(kReports + "/compare_fake.json");
  const std::string text = metricsText(doc);
  expectWellFormed(text);
  EXPECT_EQ(text.find(kStatus), std::string::npos);
  EXPECT_EQ(text.find("nvbandwidth_run_interrupted"), std::string::npos);
  EXPECT_NE(
      text.find("nvbandwidth_comparison_verdict{testcase=\"host_to_device_memcpy_ce\",row=\"0\","
                "col=\"1\",verdict=\"SLOWER\"} 1"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("nvbandwidth_run_info{version=\"v0.8\""), std::string::npos);
}

// A hostile document can make a compared cell without a matrix look like a cell of one (its
// matrix repeats a key that an ERROR entry took first, and its title names no device): the series
// that would repeat is marked duplicate="2", so the file stays valid and nothing is lost.
TEST(Metrics, ASeriesThatWouldRepeatIsMarkedNotLost) {
  json compared = {
      {"cells",
       {comparedCell("odd", 0, 0, "SAME", 1.0), comparedCell("odd", 0, 0, "SLOWER", -9.0)}}};
  const json doc = run({{{"name", "odd"}, {"status", "ERROR"}, {"error", "x"}},
                        matrix("odd", "a title naming nothing", {{1.0, 2.0}})},
                       {{"comparison", compared}});
  const std::string text = metricsOf(doc);
  expectWellFormed(text);
  const std::string cell = kHost + ",testcase=\"odd\",row=\"0\",col=\"0\",repeat=\"2\"";
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_change_percent"),
            (std::vector<std::string>{"nvbandwidth_comparison_change_percent{" + cell + "} 1",
                                      "nvbandwidth_comparison_change_percent{" + cell +
                                          ",duplicate=\"2\"} -9"}));
  EXPECT_EQ(samples(text, "nvbandwidth_comparison_verdict")[1],
            "nvbandwidth_comparison_verdict{" + cell + ",verdict=\"SLOWER\"} 1");
}

// ---- Multi-process matrices ----

TEST(Metrics, MultinodeCellsNameRanksAndTheirHostsGpus) {
  const Report doc = reportFile(kReports + "/multinode_two_nodes.json");
  const std::string text = metricsText(doc);
  expectWellFormed(text);
  const std::string rank2 =
      "gpu=\"0\",UUID=\"GPU-node-b-0\",modelName=\"NVIDIA H200\",Hostname=\"node-b\"";
  const std::string rank3 =
      "gpu=\"1\",UUID=\"GPU-node-b-1\",modelName=\"NVIDIA H200\",Hostname=\"node-b\"";
  for (const std::string& line :
       {// square: rank = row (the rank that copies), peer_rank = column
        kBandwidth + "{" + rank2 +
            ",testcase=\"multinode_device_to_device_memcpy_read_ce\",rank=\"2\",peer_rank=\"1\","
            "link=\"unknown\"} " +
            bps(112),
        // upstream's "CPU(row)" title of a rank matrix is still ranks
        kBandwidth + "{" + rank3 +
            ",testcase=\"multinode_device_to_device_bidirectional_memcpy_read_ce_total\",rank="
            "\"3\",peer_rank=\"0\",link=\"unknown\"} " +
            bps(233.25),
        // 1 x N: rank = column
        kBandwidth + "{" + rank3 +
            ",testcase=\"multinode_device_to_device_all_from_one_read_sm\",rank=\"3\",link="
            "\"unknown\"} " +
            bps(393.75),
        // bisect: "2->0" is rank 2 writing into rank 0
        kBandwidth + "{" + rank2 +
            ",testcase=\"multinode_bisect_write_ce\",rank=\"2\",peer_rank=\"0\",link=\"unknown\"}"
            " " +
            bps(120),
        // 1 x 1 without a device in the title: no position label
        kBandwidth +
            "{Hostname=\"node-a\",testcase=\"multinode_device_to_device_broadcast_all_to_"
            "all_sm\"} " +
            bps(1234.5),
        // rank 0 measures the single-process testcases: its own GPU's UUID is known, no other
        kBandwidth +
            "{gpu=\"0\",UUID=\"GPU-node-a-0\",modelName=\"NVIDIA "
            "H200\",Hostname=\"node-a\",testcase=\"host_to_device_memcpy_ce\",peer="
            "\"CPU\",link=\"unknown\"} " +
            bps(190),
        kBandwidth +
            "{gpu=\"1\",modelName=\"NVIDIA "
            "H200\",Hostname=\"node-a\",testcase=\"host_to_device_memcpy_ce\",peer="
            "\"CPU\",link=\"unknown\"} " +
            bps(191),
        std::string("nvbandwidth_process_info{") + rank3 + ",rank=\"3\"} 1"})
    EXPECT_NE(text.find(line + "\n"), std::string::npos) << line;
}

TEST(Metrics, BisectRowsThatDoNotParseFallBackToRowAndCol) {
  json bisect = matrix("multinode_bisect_write_ce", "Bisect benchmarking, simultaneous write CE BW",
                       {{380.0}, {381.5}});
  bisect["row_labels"] = {"0->1", "0 -> 1"};  // one pair twice
  const std::string text = metricsOf(run({bisect}));
  EXPECT_EQ(samples(text, kBandwidth),
            (std::vector<std::string>{
                kBandwidth + "{" + kHost +
                    ",testcase=\"multinode_bisect_write_ce\",row=\"0\",col=\"0\"} " + bps(380),
                kBandwidth + "{" + kHost +
                    ",testcase=\"multinode_bisect_write_ce\",row=\"1\",col=\"0\"} " + bps(381.5)}));
}

TEST(Metrics, ATitleThatDoesNotFitTheShapeFallsBackToRowAndCol) {
  // "GPU(row) ... GPU(column)" but 2 x 1, "CPU(row)" but 2 rows, no title at all.
  const std::string text =
      metricsOf(run({matrix("a", kD2dReadTitle, {{1.0}, {2.0}}),
                     matrix("b", kH2dTitle, {{3.0, 4.0}, {5.0, 6.0}}),
                     {{"name", "c"}, {"status", "Passed"}, {"values", {{7.0, 8.0}}}}}));
  expectWellFormed(text);
  for (const char* cell :
       {"testcase=\"a\",row=\"1\",col=\"0\"} 2", "testcase=\"b\",row=\"1\",col=\"1\"} 6",
        "testcase=\"c\",row=\"0\",col=\"1\"} 8"})
    EXPECT_NE(text.find(cell), std::string::npos) << cell;
}

// ---- The run ----

TEST(Metrics, RunStartDurationInterruptionAndError) {
  const json doc = run(
      {{{"name", "device_local_copy"}, {"status", "ERROR"}, {"error", "interrupted by SIGINT"}}},
      {{"hostname", "gpu-node-01.example"},
       {"started_at", "2026-12-01T12:34:56Z"},
       {"timing", {{"wall_seconds", 44.287295993}}},
       {"interrupted", "SIGINT"},
       {"error", "the copies could not be set up"}});
  const std::string text = metricsOf(doc);
  expectWellFormed(text);
  const std::string host = "{Hostname=\"gpu-node-01.example\"";
  for (const std::string& line :
       {"nvbandwidth_run_start_timestamp_seconds" + host + "} 1796128496",
        "nvbandwidth_run_duration_seconds" + host + "} 44.287295993",
        "nvbandwidth_run_interrupted" + host + ",signal=\"SIGINT\"} 1",
        "nvbandwidth_run_error" + host + "} 1",
        "nvbandwidth_run_info" + host +
            ",version=\"v0.8\",git_version=\"v0.8-3-gabc1234\",schema_version=\"1.0\","
            "driver_version=\"580.159.04\",cuda_runtime_version=\"13000\",cuda_driver_version="
            "\"13000\",statistic=\"median\",buffer_size_mib=\"512\"} 1"})
    EXPECT_NE(text.find(line + "\n"), std::string::npos) << line << "\n" << text;
}

TEST(Metrics, BuildInfoNamesTheReleaseOnlyWhenTheReportHasOne) {
  const std::string text = metricsOf(run(json::array(), {{"release", "1.2.3"}}));
  expectWellFormed(text);
  EXPECT_NE(text.find("nvbandwidth_build_info{" + kHost +
                      ",release=\"1.2.3\",version=\"v0.8\",git_version=\"v0.8-3-gabc1234\"} 1\n"),
            std::string::npos)
      << text;
  // Upstream's reports and those of builds before the release key have no build series.
  EXPECT_EQ(metricsOf(run(json::array())).find("nvbandwidth_build_info{"), std::string::npos);
}

TEST(Metrics, ARunWithoutStartTimeOrTimingHasNeitherAndFlagsAtZero) {
  const std::string text = metricsOf(run(json::array(), {{"started_at", "2026-12-01 12:34:56"}}));
  expectWellFormed(text);
  EXPECT_EQ(text.find("nvbandwidth_run_start_timestamp_seconds"), std::string::npos);  // no zone
  EXPECT_EQ(text.find("nvbandwidth_run_duration_seconds"), std::string::npos);
  EXPECT_NE(text.find("nvbandwidth_run_interrupted{" + kHost + "} 0\n"), std::string::npos);
  EXPECT_NE(text.find("nvbandwidth_run_error{" + kHost + "} 0\n"), std::string::npos);
}

TEST(Metrics, HostnameKeyWinsOverTheDeviceListAndUnknownFactsAreLeftOut) {
  json doc =
      run({matrix("device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)", {{1.0, 2.0}})});
  doc["nvbandwidth"]["GPU Device list"] = {"0: NVIDIA H200 (00000000:19:00): (list-host)",
                                           "not a device line"};
  EXPECT_NE(metricsOf(doc).find("{gpu=\"1\",Hostname=\"list-host\",testcase"), std::string::npos);
  doc["nvbandwidth"]["hostname"] = "key-host";
  EXPECT_NE(metricsOf(doc).find("{gpu=\"0\",modelName=\"NVIDIA H200\",Hostname=\"key-host\","),
            std::string::npos);
  // A report without a device list (the reader refuses one with matrices; a Report made
  // otherwise may lack it): no model, no host.
  doc["nvbandwidth"].erase("hostname");
  Report listless = reportOf(doc);
  listless.gpuDeviceList.reset();
  EXPECT_NE(metricsText(listless).find(kBandwidth + "{gpu=\"0\",testcase=\"device_local_copy\"} " +
                                       bps(1) + "\n"),
            std::string::npos);
}

// What rows, columns and values are comes from the model (the entry's unit, the part's axes),
// never from the key or the title the view is given.
TEST(Metrics, TheUnitAndAxesAreTheModelsNotGuessedFromKeyOrTitle) {
  Report report = reportOf(run({matrix("host_to_device_memcpy_ce", kH2dTitle, {{1.0, 2.0}})}));
  ReportEntry& entry = report.testcases->front();
  entry.unit = Unit::Nanoseconds;
  entry.parts.front().title = "a title naming nothing";
  const std::string text = metricsText(report);
  EXPECT_TRUE(samples(text, kBandwidth).empty());
  EXPECT_EQ(
      samples(text, kLatency),
      (std::vector<std::string>{
          kLatency + "{" + kGpu0 + ",testcase=\"host_to_device_memcpy_ce\",peer=\"CPU\"} " + sec(1),
          kLatency + "{" + kGpu1 + ",testcase=\"host_to_device_memcpy_ce\",peer=\"CPU\"} " +
              sec(2)}));
  EXPECT_NE(text.find("description=\"a title naming nothing\",unit=\"ns\"} 1"), std::string::npos);
  // Axes that name nothing: row and col, whatever the title says.
  entry.parts.front().title = kH2dTitle;
  entry.parts.front().axes = MatrixAxes{};
  EXPECT_EQ(samples(metricsText(report), kLatency)[1],
            kLatency + "{" + kHost +
                ",testcase=\"host_to_device_memcpy_ce\",row=\"0\",col=\"1\"} " + sec(2));
}

// The reader refuses a report whose checked keys are of the wrong type; the ones it reads past
// give no label, never an empty one.
TEST(Metrics, KeysOfTheWrongTypeAReportKeepsGiveNoLabel) {
  json doc = run(
      {matrix("device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)", {{1.0, 2.0}})},
      {{"processes", {{{"rank", "zero"}, {"host", 5}, {"device", -1}, {"uuid", 3}}}},
       {"environment", {{"gpus", {{{"device", "0"}, {"uuid", 3}}, {{"device", 1}, {"uuid", 4}}}}}},
       {"settings", {{"bufferSize_MiB", "512"}, {"statistic", 5}}},
       {"release", 7}});
  std::string text;
  ASSERT_NO_THROW(text = metricsOf(doc));
  expectWellFormed(text);
  EXPECT_EQ(text.find("=\"\""), std::string::npos);
  EXPECT_EQ(text.find("UUID="), std::string::npos);
  EXPECT_EQ(text.find("statistic="), std::string::npos);
  EXPECT_EQ(text.find("buffer_size_mib="), std::string::npos);
  EXPECT_EQ(text.find("nvbandwidth_build_info{"), std::string::npos);
  // A rank that is no number is the process's place in the list.
  EXPECT_EQ(samples(text, "nvbandwidth_process_info"),
            (std::vector<std::string>{"nvbandwidth_process_info{rank=\"0\"} 1"}));
}

// ---- Escaping, numbers, timestamps ----

TEST(Metrics, LabelValuesEscapeTheFormatsCharactersAndControlBytes) {
  EXPECT_EQ(metricsLabelValue("plain host_to_device 0"), "plain host_to_device 0");
  EXPECT_EQ(metricsLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(metricsLabelValue(std::string("\x01\t\r\x1b[31m\x7f", 9)),
            "\\\\x01\\\\x09\\\\x0d\\\\x1b[31m\\\\x7f");
  EXPECT_EQ(metricsLabelValue(std::string("nul\0byte", 8)), "nul\\\\x00byte");
  // UTF-8 stays, but C1 controls (NEL) and the line and paragraph separators do not.
  EXPECT_EQ(metricsLabelValue("caf\xc3\xa9 \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xf0\x9f\x98\x80");
  EXPECT_EQ(metricsLabelValue("a\xc2\x85z\xe2\x80\xa8"), "a\\\\xc2\\\\x85z\\\\xe2\\\\x80\\\\xa8");
  // Bytes that are not UTF-8: stray continuation, overlong, surrogate, beyond U+10FFFF, cut short.
  EXPECT_EQ(metricsLabelValue("\x80"), "\\\\x80");
  EXPECT_EQ(metricsLabelValue("\xc0\xaf"), "\\\\xc0\\\\xaf");
  EXPECT_EQ(metricsLabelValue("\xed\xa0\x80"), "\\\\xed\\\\xa0\\\\x80");
  EXPECT_EQ(metricsLabelValue("\xf4\x90\x80\x80"), "\\\\xf4\\\\x90\\\\x80\\\\x80");
  EXPECT_EQ(metricsLabelValue("\xe2\x82"), "\\\\xe2\\\\x82");
}

TEST(Metrics, AHostileTestcaseNameStaysOnOneLineInEveryFamily) {
  const char raw[] = "x\"}\n# TYPE evil gauge\nevil 1 \\\x01\x1b\xff";
  const std::string hostile(raw, sizeof raw - 1);
  // Not UTF-8, so no report read holds it: the name is set in the Report itself.
  json entry = matrix("x", "memcpy local GPU(column) bandwidth (GB/s)", {{1.5, 2.5}});
  Report doc = reportOf(run({entry, {{"name", "x"}, {"status", "ERROR"}, {"error", "no"}}}));
  for (ReportEntry& e : *doc.testcases) {
    e.name = hostile;
    for (MatrixPart& part : e.parts) part.key = hostile;
  }
  const std::string text = metricsText(doc);
  expectWellFormed(text);
  const std::string escaped = "x\\\"}\\n# TYPE evil gauge\\nevil 1 \\\\\\\\x01\\\\x1b\\\\xff";
  EXPECT_NE(
      text.find(kBandwidth + "{" + kGpu0 + ",testcase=\"" + escaped + "\"} " + bps(1.5) + "\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find(kStatus + "{" + kHost + ",testcase=\"" + escaped +
                      "\",repeat=\"2\",status=\"ERROR\"} 1\n"),
            std::string::npos);
  for (const std::string& line : lines(text))
    EXPECT_TRUE(line.rfind("nvbandwidth_", 0) == 0 || line.rfind("# HELP nvbandwidth_", 0) == 0 ||
                line.rfind("# TYPE nvbandwidth_", 0) == 0)
        << line;
}

TEST(Metrics, NumbersAreTheShortestTextThatReadsBackAndIgnoreTheLocale) {
  // A global C++ locale and C locale with a decimal comma must not change anything.
  struct Comma : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
  };
  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new Comma));
  const std::string cLocale = std::setlocale(LC_NUMERIC, nullptr);
  std::setlocale(LC_NUMERIC, "de_DE.UTF-8");  // where installed
  const std::vector<double> values = {
      55.39419706710477, 0.1,   110.0, 1e-300, 5e-324, 1e21, std::numeric_limits<double>::max(),
      1796128496.5,      -0.25, 0.0};
  for (double v : values) {
    const std::string text = metricsNumber(v);
    EXPECT_EQ(text.find(','), std::string::npos) << text;
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    double back = 0;
    in >> back;
    EXPECT_EQ(back, v) << text;
  }
  EXPECT_EQ(metricsNumber(110.0), "110");
  EXPECT_EQ(metricsNumber(55.39419706710477), "55.39419706710477");
  EXPECT_EQ(metricsNumber(0.1), "0.1");
  std::setlocale(LC_NUMERIC, cLocale.c_str());
  std::locale::global(previous);
}

TEST(Metrics, NonFiniteValuesAreNeverWritten) {
  json entry =
      matrix("device_local_copy", "memcpy local GPU(column) bandwidth (GB/s)", {{1.0, 2.0}});
  entry["percent_of_peak"] = {{50.0, 50.0}};
  // No report read holds them (the reader refuses them): a Report made otherwise might.
  Report report = reportOf(run({entry}));
  ReportEntry& made = report.testcases->front();
  made.percents->cells = {std::numeric_limits<double>::infinity(), std::nan("")};
  made.sum = std::numeric_limits<double>::infinity();
  const std::string text = metricsText(report);
  expectWellFormed(text);
  EXPECT_EQ(text.find("nvbandwidth_bandwidth_of_peak_ratio"), std::string::npos);
  EXPECT_NE(text.find("testcase=\"device_local_copy\"} " + bps(3) + "\n"),
            std::string::npos);  // cells' sum
}

// ---- Real reports ----

TEST(Metrics, GoldenOfARealTwoGpuRun) {
  test::expectGolden("metrics/h200x2.prom",
                     metricsText(reportFile(kGolden + "/run_to_run_x2/issue11_full.json")));
}

TEST(Metrics, GoldenOfUpstreamsTwoGpuRun) {
  test::expectGolden("metrics/upstream_h200x2.prom",
                     metricsText(reportFile(kData + "/upstream_h200x2.json")));
}

// The text is bounded (kMaxMetricsBytes): every byte counts, the bound itself is allowed.
TEST(Metrics, TheTextStaysWithinItsBudget) {
  const Report doc = reportFile(kGolden + "/run_to_run_x2/issue11_full.json");
  const std::string text = metricsText(doc);
  EXPECT_EQ(metricsTextWithin(doc, text.size()), text);
  try {
    metricsTextWithin(doc, text.size() - 1);
    ADD_FAILURE() << "no MetricsTooLarge";
  } catch (const MetricsTooLarge& e) {
    EXPECT_EQ(std::string(e.what()), "the metrics of this report would exceed " +
                                         std::to_string(text.size() - 1) + " bytes");
  }
  EXPECT_THROW(metricsTextWithin(doc, 0), MetricsTooLarge);
  EXPECT_EQ(kMaxMetricsBytes, 256u << 20);
}

// A report whose metrics cannot fit is refused before they are made (its cells alone, each with
// the labels every one of its series carries, are over the budget), so neither its time nor its
// memory is spent; the bound never refuses one that fits.
TEST(Metrics, AReportFarOverTheBudgetIsRefusedBeforeItsMetricsAreMade) {
  json gpus = json::array();
  for (int i = 0; i < 256; ++i)
    gpus.push_back(std::to_string(i) + ": NVIDIA H200 (00000000:19:00): (gpu-node-01)");
  json values = json::array();
  for (int r = 0; r < 256; ++r) values.push_back(json::array());
  for (auto& row : values)
    for (int c = 0; c < 256; ++c) row.push_back(1.0);
  json document =
      run(json::array({matrix("device_to_device_memcpy_read_ce", kD2dReadTitle, values)}));
  document["nvbandwidth"]["GPU Device list"] = gpus;
  const Report doc = reportOf(document);
  const std::size_t size = metricsText(doc).size();
  EXPECT_NO_THROW(metricsTextWithin(doc, size));
  int asked = 0;
  const StopRequest counting = [&asked] {
    ++asked;
    return 0;
  };
  try {
    metricsPieces(doc, counting, size / 2);
    ADD_FAILURE() << "no MetricsTooLarge";
  } catch (const MetricsTooLarge& e) {
    EXPECT_NE(std::string(e.what()).find("its 65536 cells alone take at least"), std::string::npos)
        << e.what();
  }
  EXPECT_LE(asked, 2);  // refused before the first row of cells
}

TEST(Metrics, NoReportOfTheTreeIsRefusedByTheEarlyBound) {
  for (const char* name :
       {"run_to_run_x2/issue11_full.json", "fleet/fake_base.json", "html/features.json",
        "upstream/default.json", "d2d/json_four_gpu.json"}) {
    const Report doc = reportFile(kGolden + "/" + name);
    const std::string text = metricsText(doc);
    EXPECT_EQ(metricsTextWithin(doc, text.size()), text) << name;
  }
  for (const char* name : {"multinode_two_nodes.json", "hostile_names.json", "compare_fake.json"}) {
    const Report doc = reportFile(kReports + "/" + name);
    const std::string text = metricsText(doc);
    EXPECT_EQ(metricsTextWithin(doc, text.size()), text) << name;
  }
}

// A signal is acted on within a row of cells, not at the end of the file.
TEST(Metrics, AStopRequestEndsTheMetricsWithinARow) {
  const Report doc = reportFile(kGolden + "/run_to_run_x2/issue11_full.json");
  int asked = 0;
  int afterStop = 0;
  const StopRequest stop = [&asked, &afterStop] {
    if (++asked < 5) return 0;
    ++afterStop;
    return SIGINT;
  };
  EXPECT_THROW(metricsPieces(doc, stop), Interrupted);
  EXPECT_EQ(afterStop, 1);
  std::string joined;
  for (const std::string& piece : metricsPieces(doc, {})) joined += piece;
  EXPECT_EQ(joined, metricsText(doc));
}

// Every cell with a value has exactly one value series, in a real run of this tool.
TEST(Metrics, EveryValueOfARealRunIsASeries) {
  const json doc = json::parse(readFile(kGolden + "/run_to_run_x2/issue11_full.json"));
  std::size_t cells = 0;
  for (const json& entry : doc["nvbandwidth"]["testcases"])
    if (entry.contains("values"))
      for (const json& row : entry["values"])
        for (const json& v : row) cells += !v.is_null();
  const std::string text = metricsOf(doc);
  EXPECT_EQ(samples(text, kBandwidth).size() + samples(text, kLatency).size(), cells);
  expectWellFormed(text);
}

}  // namespace test_metrics
}  // namespace nvbw
