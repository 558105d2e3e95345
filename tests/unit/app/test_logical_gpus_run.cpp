// Whole runs on one fake GPU presented as several (NVBW_LOGICAL_GPUS, platform/logical_gpus.h):
// every device-to-device testcase measures every pair, pairs may run in rounds, every output says
// the GPUs are logical, and no verdict sets a report of logical GPUs against one of real GPUs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"
#include "temp_dir.h"

namespace nvbw {
namespace test_logical_gpus_run {

using nlohmann::json;
using test::AppRun;
using test::FakeBehaviour;
using test::fakePlatform;
using test::runApp;

AppRun runOn(int physical, const char* logical, std::vector<std::string> args) {
  FakeBehaviour behaviour;
  if (logical) behaviour.logicalGpus = std::string(logical);
  return runApp(args, fakePlatform(FakeTopology(physical), behaviour));
}

json runObject(const AppRun& r) { return json::parse(r.out)["nvbandwidth"]; }

const std::vector<std::string> kPeerTestcases = {"-t",
                                                 "device_to_device_memcpy_read_ce",
                                                 "device_to_device_bidirectional_memcpy_write_sm",
                                                 "device_to_device_latency_sm",
                                                 "all_to_one_write_ce",
                                                 "one_to_all_read_sm"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(LogicalGpusRun, EveryPairOfTheLogicalGpusIsMeasured) {
  const AppRun r = runOn(1, "4", with(kPeerTestcases, {"-j"}));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json run = runObject(r);
  EXPECT_EQ(run["logical_gpus"], 4);
  EXPECT_EQ(run["GPU Device list"].size(), 4u);
  ASSERT_GE(run["testcases"].size(), 5u);
  for (const json& entry : run["testcases"]) {
    SCOPED_TRACE(entry["name"].get<std::string>());
    EXPECT_EQ(entry["status"], "Passed");
    const json& matrix = entry["bandwidth_matrix"];
    if (entry["name"] == "all_to_one_write_ce" || entry["name"] == "one_to_all_read_sm") {
      ASSERT_EQ(matrix.size(), 1u);
      ASSERT_EQ(matrix[0].size(), 4u);
      for (const json& cell : matrix[0]) EXPECT_NE(cell, "N/A");
      continue;
    }
    ASSERT_EQ(matrix.size(), 4u);
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(matrix[r][c] == "N/A", r == c) << r << c;
  }
}

TEST(LogicalGpusRun, EveryOutputSaysTheGpusAreLogical) {
  const AppRun text = runOn(1, "3", {"-t", "device_to_device_memcpy_read_ce"});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.err.find("NOTE: NVBW_LOGICAL_GPUS=3: the GPUs of this run are logical"),
            std::string::npos)
      << text.err;
  EXPECT_EQ(text.out.find("logical"), std::string::npos) << text.out;  // stdout is upstream's
  const json run = runObject(runOn(1, "3", {"-j", "-t", "device_to_device_memcpy_read_ce"}));
  EXPECT_EQ(run["logical_gpus"], 3);
  ASSERT_TRUE(run.contains("notes"));
  EXPECT_EQ(run["notes"][0].get<std::string>().rfind("NOTE: NVBW_LOGICAL_GPUS=3", 0), 0u);
  const test::TempDir dir("logical_html");
  const AppRun page =
      runOn(1, "3", {"-t", "device_to_device_memcpy_read_ce", "--html", dir / "page.html"});
  ASSERT_EQ(page.exitCode, 0) << page.err;
  std::ifstream in(dir / "page.html");
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("Logical GPUs: the 3 GPUs of this report are one physical GPU"),
            std::string::npos);
}

TEST(LogicalGpusRun, RealGpusSayNothingOfIt) {
  const AppRun r = runOn(2, nullptr, {"-j", "-t", "device_to_device_memcpy_read_ce"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(runObject(r).contains("logical_gpus"));
  EXPECT_EQ(r.err.find("logical"), std::string::npos) << r.err;
}

TEST(LogicalGpusRun, PairsRunInRoundsAcrossTheirFabric) {
  const AppRun pairs = runOn(1, "8", with(kPeerTestcases, {"-j"}));
  const AppRun rounds = runOn(1, "8", with(kPeerTestcases, {"-j", "--schedule", "rounds"}));
  ASSERT_EQ(pairs.exitCode, 0) << pairs.err;
  ASSERT_EQ(rounds.exitCode, 0) << rounds.err;
  EXPECT_EQ(rounds.err.find("NOTE: --schedule"), std::string::npos) << rounds.err;
  const json a = runObject(pairs)["testcases"];
  const json b = runObject(rounds)["testcases"];
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(a[i]["name"].get<std::string>());
    EXPECT_EQ(a[i]["values"], b[i]["values"]);
    if (b[i].contains("schedule")) {
      EXPECT_EQ(b[i]["rounds"], 14);
    }
  }
}

TEST(LogicalGpusRun, OnlyOnePhysicalGpuCanBePresentedAsSeveral) {
  const AppRun two = runOn(2, "4", {"-t", "0"});
  EXPECT_EQ(two.exitCode, 1);
  EXPECT_NE(two.err.find("ERROR: cannot start: NVBW_LOGICAL_GPUS=4 presents one GPU as several, "
                         "and this process sees 2 GPUs"),
            std::string::npos)
      << two.err;
  for (const char* bad : {"1", "17", "eight"}) {
    const AppRun r = runOn(1, bad, {"-t", "0"});
    EXPECT_EQ(r.exitCode, 1) << bad;
    EXPECT_NE(r.err.find(std::string("NVBW_LOGICAL_GPUS=") + bad +
                         ": expected a whole number of logical GPUs from 2 to 16"),
              std::string::npos)
        << r.err;
  }
  EXPECT_EQ(runOn(1, "", {"-t", "0"}).exitCode, 0);  // empty: unset
}

// Saved reports of a run on logical GPUs and of one on real GPUs.
struct Reports {
  test::TempDir dir{"logical_reports"};
  std::string logical, logical2, real;
  Reports() {
    const std::vector<std::string> args = {"-j", "-t", "device_to_device_memcpy_read_ce"};
    logical = dir.write("logical/a.json", runOn(1, "2", args).out);
    logical2 = dir.write("logical/b.json", runOn(1, "2", args).out);
    real = dir.write("real/c.json", runOn(2, nullptr, args).out);
  }
};

void expectRefused(const AppRun& r, const std::string& words) {
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no verdict between them means anything"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("Comparison:"), std::string::npos) << r.out;
}

TEST(LogicalGpusRun, NoVerdictSetsLogicalGpusAgainstRealOnes) {
  const Reports files;
  expectRefused(runOn(2, nullptr, {"--compare", files.real, files.logical}),
                "the baseline is of real GPUs and the current report is of 2 logical GPUs");
  expectRefused(runOn(2, nullptr, {"--compare", files.logical, files.real}),
                "the baseline is of 2 logical GPUs");
  expectRefused(runOn(2, nullptr, {"--compare", files.logical, files.real, files.logical2}),
                "is of real GPUs");
  const AppRun same = runOn(2, nullptr, {"--compare", files.logical, files.logical2});
  EXPECT_EQ(same.exitCode, 0) << same.err;
  EXPECT_NE(same.out.find("Comparison:"), std::string::npos);
}

TEST(LogicalGpusRun, ARunIsNotJudgedAgainstABaselineOfTheOtherKind) {
  const Reports files;
  const std::vector<std::string> args = {"-t", "device_to_device_memcpy_read_ce", "--baseline"};
  const AppRun logicalRun = runOn(1, "2", with(args, {files.real}));
  expectRefused(logicalRun, "the baseline is of real GPUs and this run is of 2 logical GPUs");
  EXPECT_EQ(logicalRun.out.find("Running"), std::string::npos);  // refused before measuring
  expectRefused(runOn(2, nullptr, with(args, {files.logical})), "and this run is of real GPUs");
  EXPECT_EQ(runOn(1, "2", with(args, {files.logical})).exitCode, 0);
}

TEST(LogicalGpusRun, ASummaryDoesNotSetThemBesideRealOnes) {
  const Reports files;
  const AppRun mixed = runOn(2, nullptr, {"--summarize", files.dir.path()});
  EXPECT_EQ(mixed.exitCode, 2) << mixed.err;
  EXPECT_NE(mixed.err.find("--summarize: "), std::string::npos) << mixed.err;
  EXPECT_NE(mixed.err.find("logical GPUs"), std::string::npos) << mixed.err;
  EXPECT_EQ(mixed.out, "");
  const AppRun logicalOnly = runOn(2, nullptr, {"--summarize", files.dir / "logical"});
  EXPECT_EQ(logicalOnly.exitCode, 0) << logicalOnly.err;
}

}  // namespace test_logical_gpus_run
}  // namespace nvbw
