// Whole runs with link facts and environment snapshots on faked machines: the default text stays
// what it was, -v adds the percent-of-peak matrices, JSON carries links, peaks, percents and
// outliers that agree with the values, a missing NVML leaves NVLink unknown with a note, and the
// environment's warnings reach the header, the trailer and the JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"

namespace nvbw {
namespace test_peaks_run {

using nlohmann::json;
using test::AppRun;
using test::FakeBehaviour;
using test::fakePlatform;
using test::h200Environment;
using test::runApp;
using test::withH200Links;

// Values a real H200 can show: host copies at about 87% of PCIe (every percent at most 100).
FakeBehaviour plausible() {
  FakeBehaviour behaviour;
  behaviour.hostScale = test::kFakeH200HostScale;
  return behaviour;
}

PlatformFactory h200s(int gpus, const std::string& nvlinks,
                      std::vector<EnvironmentSnapshot> environments = {}) {
  FakeBehaviour behaviour = plausible();
  behaviour.environments =
      environments.empty() ? std::vector<EnvironmentSnapshot>{h200Environment(gpus)} : environments;
  return fakePlatform(withH200Links(FakeTopology(gpus), nvlinks), behaviour);
}

const std::vector<std::string> kSelection = {"-t", "0",  "1",  "2",  "4",  "5",  "6",  "20",
                                             "32", "33", "34", "52", "53", "54", "55", "56"};

std::vector<std::string> with(std::vector<std::string> args, const std::string& extra) {
  args.insert(args.begin(), extra);
  return args;
}

json entries(const std::string& out) { return json::parse(out)["nvbandwidth"]["testcases"]; }

TEST(PeaksRun, DefaultTextIsTheSameWithAndWithoutFacts) {
  const AppRun without = runApp(kSelection, fakePlatform(FakeTopology(2), plausible()));
  const AppRun withFacts = runApp(kSelection, h200s(2, "direct"));
  EXPECT_EQ(withFacts.exitCode, 0) << withFacts.err;
  EXPECT_EQ(withFacts.out, without.out);
}

TEST(PeaksRun, VerbosePrintsThePercentMatrixUnderEachBandwidthMatrix) {
  const AppRun run = runApp(with(kSelection, "-v"), h200s(2, "direct"));
  // The fake's Host -> GPU 0 copy is 190 x 0.29 = 55.10 GB/s, GPU 1's 191 x 0.29 = 55.39: against
  // 63.015 GB/s, 87.44% and 87.90%.
  EXPECT_NE(run.out.find("Percent of theoretical peak of host_to_device_memcpy_ce:\n"
                         "           0         1\n"
                         " 0     87.44     87.90\n"
                         "Peak of PCIe Gen5 x16: 63.02 GB/s (per direction)\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("Peak of NVLink 4 x18: 478.12 GB/s (per direction)\n"), std::string::npos);
  EXPECT_NE(run.out.find("Peak of NVLink 4 x18: 956.25 GB/s (both directions)\n"),
            std::string::npos);
  EXPECT_NE(run.out.find("Peak of HBM: 2407.15 GB/s (bytes copied: memory traffic is twice that)"),
            std::string::npos);
  EXPECT_NE(run.out.find("Peak of HBM: 4814.30 GB/s (bytes read)"), std::string::npos);
  EXPECT_NE(run.out.find("Peak of HBM: 4814.30 GB/s (bytes written)"), std::string::npos);
  EXPECT_NE(run.out.find("Percent of theoretical peak of device_local_copy_sm:\n"),
            std::string::npos);
  // Latency has no percent.
  for (const char* latency :
       {"host_device_latency_sm", "device_to_device_latency_sm", "device_to_device_latency_tma"})
    EXPECT_EQ(run.out.find(std::string("Percent of theoretical peak of ") + latency),
              std::string::npos)
        << latency;
}

// Every percent is value / peak, and every link of a measured cell is named.
TEST(PeaksRun, JsonPercentsAgreeWithValuesAndPeaks) {
  const AppRun run = runApp(with(kSelection, "-j"), h200s(2, "direct"));
  ASSERT_EQ(run.exitCode, 0) << run.err;
  int checked = 0;
  for (const json& e : entries(run.out)) {
    ASSERT_TRUE(e.contains("links")) << e["name"];
    for (std::size_t r = 0; r < e["values"].size(); ++r)
      for (std::size_t c = 0; c < e["values"][r].size(); ++c) {
        const json& v = e["values"][r][c];
        const json& peak = e["peak_GBps"][r][c];
        const json& pct = e["percent_of_peak"][r][c];
        if (v.is_null() || peak.is_null()) {
          EXPECT_TRUE(pct.is_null());
          continue;
        }
        EXPECT_NE(e["links"][r][c], "unknown");
        EXPECT_NEAR(pct.get<double>(), 100.0 * v.get<double>() / peak.get<double>(), 1e-9);
        // What hardware can show: a percent above 100 would be a wrong peak (or a wrong fake).
        EXPECT_GT(pct.get<double>(), 0.0) << e["name"];
        EXPECT_LE(pct.get<double>(), 100.0) << e["name"] << "[" << r << "][" << c << "]";
        ++checked;
      }
    if (e["unit"] == "ns") {
      for (const json& row : e["peak_GBps"])
        for (const json& p : row) EXPECT_TRUE(p.is_null());
    }
  }
  EXPECT_GT(checked, 20);
}

// On eight GPUs behind NVSwitches the fake's values spread (101 .. 176 GB/s): the flagged cells
// are exactly those more than 10% below the matrix's median, each on a NOTE line.
TEST(PeaksRun, OutliersAreTheCellsTenPercentBelowTheMedianOfTheirLink) {
  const std::vector<std::string> args = {"-t", "device_to_device_memcpy_write_ce"};
  const AppRun doc = runApp(with(args, "-j"), h200s(8, "nvswitch"));
  const json e = entries(doc.out)[0];
  std::vector<double> values;
  for (const json& row : e["values"])
    for (const json& v : row)
      if (!v.is_null()) values.push_back(v.get<double>());
  std::sort(values.begin(), values.end());
  const double median = (values[values.size() / 2 - 1] + values[values.size() / 2]) / 2;
  std::size_t expected = 0;
  for (double v : values) expected += v < 0.9 * median ? 1 : 0;
  ASSERT_GT(expected, 0u);
  ASSERT_EQ(e["outliers"].size(), expected);
  for (const json& o : e["outliers"]) {
    const double v = e["values"][o["row"].get<std::size_t>()][o["col"].get<std::size_t>()];
    EXPECT_LT(v, 0.9 * median);
    EXPECT_DOUBLE_EQ(o["class_median"].get<double>(), median);
    EXPECT_EQ(o["link"], "NVLink 4 x18 (NVSwitch)");
  }
  const AppRun text = runApp(args, h200s(8, "nvswitch"));
  const std::string first = e["outliers"][0]["cell"];
  EXPECT_NE(text.err.find("NOTE: device_to_device_memcpy_write_ce: " + first +
                          " (NVLink 4 x18 (NVSwitch)) is "),
            std::string::npos)
      << text.err;
  EXPECT_EQ(text.out.find(" below the median of its link class"), std::string::npos);
}

TEST(PeaksRun, WithoutNvmlNvlinkIsUnknownWithANoteAndTheRunGoesOn) {
  EnvironmentSnapshot noNvml = h200Environment(2);
  noNvml.nvmlProblem = "libnvidia-ml.so.1 not found";
  const AppRun text = runApp({"-t", "0", "4"}, h200s(2, "none", {noNvml}));
  EXPECT_EQ(text.exitCode, 0);
  EXPECT_NE(text.out.find("NOTE: NVML is not available (libnvidia-ml.so.1 not found): NVLink "
                          "peaks and most of the GPU environment are unknown.\n"),
            std::string::npos);
  const AppRun doc = runApp({"-j", "-t", "0", "4"}, h200s(2, "none", {noNvml}));
  const json e = entries(doc.out);
  EXPECT_EQ(e[0]["links"][0][0], "PCIe Gen5 x16");
  EXPECT_EQ(e[1]["links"][0][1], "unknown");
  EXPECT_TRUE(e[1]["peak_GBps"][0][1].is_null());
  EXPECT_TRUE(e[1]["percent_of_peak"][0][1].is_null());
}

TEST(PeaksRun, EnvironmentWarningsReachHeaderStderrAndJson) {
  EnvironmentSnapshot start = h200Environment(2);
  start.gpus[1].pcie = PcieLinkState{16.0, 8, 32.0, 16};
  EnvironmentSnapshot end = start;
  end.gpus[0].throttleNs = 2'500'000'000ull;
  const std::string downTrained =
      "WARNING: GPU 1: PCIe link trained at PCIe Gen4 x8, below its maximum PCIe Gen5 x16: host "
      "copies are bounded by the lower rate.";
  const std::string throttled =
      "WARNING: GPU 0: clocks were held down for power or thermal reasons for 2.50 s during the "
      "run: its figures may be low.";
  const AppRun text = runApp({"-t", "0"}, h200s(2, "direct", {start, end}));
  const std::size_t header = text.out.find(downTrained + "\n");
  const std::size_t running = text.out.find("Running host_to_device_memcpy_ce.");
  EXPECT_LT(header, running) << text.out;
  // What the run learns at its end goes to stderr: on stdout it would fall in the last
  // testcase's block, where clients read "2.50" as a cell (docs/compatibility.md#additions).
  EXPECT_EQ(text.out.find(throttled), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("SUM host_to_device_memcpy_ce"), std::string::npos);
  EXPECT_NE(text.out.find("NOTE: The reported results"), std::string::npos);
  EXPECT_EQ(text.err, throttled + "\n");

  const AppRun doc = runApp({"-j", "-t", "0"}, h200s(2, "direct", {start, end}));
  const json root = json::parse(doc.out)["nvbandwidth"];
  const std::vector<std::string> warnings = root["warnings"];
  EXPECT_NE(std::find(warnings.begin(), warnings.end(), downTrained), warnings.end());
  EXPECT_EQ(warnings.back(), throttled);
  EXPECT_EQ(root["environment"]["gpus"][1]["pcie"]["current"], "PCIe Gen4 x8");
  EXPECT_EQ(root["environment"]["gpus"][0]["throttle_seconds"], 0.0);
  EXPECT_EQ(root["environment_at_end"]["gpus"][0]["throttle_seconds"], 2.5);
  EXPECT_EQ(root["environment"]["host"]["cpu_model"], "Intel(R) Xeon(R) Platinum 8480C");
}

// -d: the host buffers were not bound, so the report does not name the CPUs they were bound to.
TEST(PeaksRun, DisabledAffinityLeavesTheBufferCpusNull) {
  const json bound = json::parse(runApp({"-j", "-t", "0"}, h200s(2, "direct")).out);
  EXPECT_EQ(bound["nvbandwidth"]["environment"]["gpus"][0]["host_buffer_cpus"], "0-55");
  const json unbound = json::parse(runApp({"-j", "-d", "-t", "0"}, h200s(2, "direct")).out);
  EXPECT_TRUE(unbound["nvbandwidth"]["environment"]["gpus"][0]["host_buffer_cpus"].is_null());
}

// A cell above 100% of its link's peak is impossible: the fake's host copies unscaled (190 GB/s
// against PCIe Gen5 x16's 63.02) are warned about on stderr in text, never on stdout, and as
// `above_peak` and run warnings in JSON.
TEST(PeaksRun, CellsAboveTheirPeakAreWarnedAbout) {
  FakeBehaviour unscaled;
  unscaled.environments = {h200Environment(2)};
  const PlatformFactory impossible =
      fakePlatform(withH200Links(FakeTopology(2), "direct"), unscaled);
  const AppRun text = runApp({"-t", "0", "4"}, impossible);
  EXPECT_EQ(text.exitCode, 0) << text.err;
  EXPECT_EQ(text.out.find("theoretical peak"), std::string::npos) << text.out;
  EXPECT_NE(text.err.find("WARNING: host_to_device_memcpy_ce: Host -> GPU 0 at 301.51% of the "
                          "theoretical peak of its link (PCIe Gen5 x16, 63.02 GB/s): the peak is "
                          "wrong or the measurement is broken.\n"),
            std::string::npos)
      << text.err;
  EXPECT_EQ(text.err.find("device_to_device_memcpy_read_ce:"), std::string::npos) << text.err;
  // The same stdout as a run whose figures are possible, but for the values.
  const AppRun asJson = runApp({"-j", "-t", "0", "4"}, impossible);
  const json doc = json::parse(asJson.out)["nvbandwidth"];
  const json& host = doc["testcases"][0];
  ASSERT_TRUE(host.contains("above_peak")) << host.dump();
  EXPECT_EQ(host["above_peak"].size(), 2u);
  EXPECT_EQ(host["above_peak"][1]["cell"], "Host -> GPU 1");
  EXPECT_NEAR(host["above_peak"][1]["percent_of_peak"].get<double>(), 303.10, 0.01);
  EXPECT_FALSE(doc["testcases"][1].contains("above_peak"));  // device to device: 110 of 478
  ASSERT_EQ(doc["warnings"].size(), 2u) << doc.dump();
  EXPECT_EQ(doc["warning"], doc["warnings"][1]);
  // Figures a real H200 can show: no warning.
  const AppRun possible = runApp({"-j", "-t", "0", "4"}, h200s(2, "direct"));
  EXPECT_FALSE(json::parse(possible.out)["nvbandwidth"].contains("warnings"));
}

}  // namespace test_peaks_run
}  // namespace nvbw
