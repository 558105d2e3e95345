// The verdicts of issue 19 on saved reports, without a GPU, on the real binary: the four reports
// of an unchanged H200 compared in every order (never exit 3), a doctored one (exit 3), --expect
// and --min-percent-of-peak with --from and --compare, and the shipped expectations files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "golden.h"
#include "run_binary.h"
#include "temp_dir.h"
#include "temp_file.h"
#include "text_search.h"

namespace test_verdicts_cli {

using nlohmann::json;
using nvbw::test::countOf;
using nvbw::test::RunResult;
using nvbw::test::TempFile;

const std::string kGolden = std::string(NVBW_GOLDEN_DIR) + "/";
const std::string kH200x2 = kGolden + "run_to_run_x2/issue11_full.json";
const std::string kExpectations = std::string(NVBW_DOCS_DIR) + "/expectations/";

RunResult nvbandwidth(const std::vector<std::string>& args) {
  nvbw::test::RunSpec spec(NVBW_BINARY, args);
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

std::string runToRun(const std::string& name) { return kGolden + "run_to_run/" + name + ".json"; }

TEST(VerdictsCli, UnchangedMachineNeverExitsThreeInAnyOrder) {
  const std::vector<std::string> names = {"base", "ours_1", "ours_2", "ours_3"};
  for (const std::string& a : names)
    for (const std::string& b : names) {
      if (a == b) continue;
      const RunResult run = nvbandwidth({"--compare", runToRun(a), runToRun(b)});
      EXPECT_EQ(run.exitCode, 0) << a << " -> " << b << "\n" << run.out << run.err;
      EXPECT_NE(run.out.find(" 0 SLOWER, 0 FASTER, "), std::string::npos) << run.out;
    }
}

// `name` with the cells of its host_to_device_memcpy_ce entry 15% lower, samples and all.
std::string withSlowerHostCells(const std::string& name) {
  json doc = json::parse(nvbw::test::readFile(runToRun(name)));
  for (json& entry : doc["nvbandwidth"]["testcases"]) {
    if (entry["name"] != "host_to_device_memcpy_ce") continue;
    for (json& row : entry["values"])
      for (json& v : row) v = v.get<double>() * 0.85;
    for (json& row : entry["cells"])
      for (json& cell : row) {
        for (const char* key : {"min", "max", "mean", "median", "stddev"})
          cell[key] = cell[key].get<double>() * 0.85;
        for (json& sample : cell["samples"]) sample = sample.get<double>() * 0.85;
      }
  }
  return doc.dump();
}

TEST(VerdictsCli, FifteenPercentOffAHostLinkExitsThree) {
  const TempFile doctored("doctored", withSlowerHostCells("ours_1"));
  const RunResult run = nvbandwidth({"--compare", runToRun("base"), doctored.path()});
  EXPECT_EQ(run.exitCode, 3) << run.out << run.err;
  EXPECT_NE(run.out.find(" 1 SLOWER, 0 FASTER, 0 NOISY, 0 UNSTABLE;"), std::string::npos)
      << run.out;
}

// Several baseline reports: files, or a directory (the current report in it left out).
TEST(VerdictsCli, SeveralBaselineReportsOrADirectoryOfThem) {
  const RunResult files =
      nvbandwidth({"-j", "--compare", runToRun("base"), runToRun("ours_1"), runToRun("ours_2")});
  EXPECT_EQ(files.exitCode, 0) << files.out << files.err;
  EXPECT_EQ(json::parse(files.out)["nvbandwidth"]["comparison"]["baseline_reports"], 2);
  const RunResult folder = nvbandwidth({"--compare", kGolden + "run_to_run", runToRun("ours_3")});
  EXPECT_EQ(folder.exitCode, 0) << folder.out << folder.err;
  EXPECT_EQ(folder.out.rfind("Baseline: 3 reports: each cell against their median, its band from "
                             "their spread.\n",
                             0),
            0u)
      << folder.out;
  // A doctored report against the folder fails as against one report.
  const TempFile doctored("doctored_folder", withSlowerHostCells("ours_1"));
  const RunResult slower = nvbandwidth({"--compare", kGolden + "run_to_run", doctored.path()});
  EXPECT_EQ(slower.exitCode, 3) << slower.out << slower.err;
  // A folder without reports is a usage error, before anything is compared.
  const nvbw::test::TempDir empty("no_reports");
  const RunResult none = nvbandwidth({"--compare", empty.path(), runToRun("ours_3")});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.err.find("a directory without *.json reports"), std::string::npos) << none.err;
}

RunResult fake(const std::vector<std::string>& args) {
  nvbw::test::RunSpec spec(NVBW_FAKE_BINARY, args);
  spec.env = {{"NVBW_FAKE_GPUS", "1"}};
  return nvbw::test::runProgram(spec);
}

// A run against a directory of its earlier reports; an output that is one of them is refused
// before the run (it is an input), a new one beside them is not.
TEST(VerdictsCli, ARunAgainstADirectoryOfItsEarlierReports) {
  const nvbw::test::TempDir history("history");
  for (const char* name : {"run1.json", "run2.json"}) {
    const RunResult run = fake({"-j", "-t", "0", "32", "--output", history / name});
    ASSERT_EQ(run.exitCode, 0) << run.err;
  }
  const RunResult judged = fake({"-j", "-t", "0", "32", "--baseline", history.path()});
  EXPECT_EQ(judged.exitCode, 0) << judged.err;
  const json c = json::parse(judged.out)["nvbandwidth"]["comparison"];
  EXPECT_EQ(c["baseline_reports"], 2);
  EXPECT_EQ(c["summary"]["same"], 2);
  const RunResult onto =
      fake({"-t", "0", "--baseline", history.path(), "--output", history / "run2.json"});
  EXPECT_EQ(onto.exitCode, 2);
  EXPECT_NE(onto.err.find("--output"), std::string::npos) << onto.err;
  EXPECT_EQ(onto.out, "");
  const RunResult beside =
      fake({"-t", "0", "--baseline", history.path(), "--output", history / "run3.json"});
  EXPECT_EQ(beside.exitCode, 0) << beside.err;
}

TEST(VerdictsCli, TheH100FloorsPassASavedH200Report) {
  const RunResult run = nvbandwidth({"--from", kH200x2, "--expect", kExpectations + "h100.txt"});
  EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
  EXPECT_NE(run.out.find(": PASSED: 6 cells: 6 met, 0 BELOW; 0 unmet."), std::string::npos)
      << run.out;
  const RunResult h200 = nvbandwidth({"--from", kH200x2, "--expect", kExpectations + "h200.txt"});
  EXPECT_EQ(h200.exitCode, 0) << h200.out << h200.err;
}

TEST(VerdictsCli, FloorsOfFiveHundredFailWithBelow) {
  const TempFile floors("floors_500", "host_to_device_memcpy_ce 500\n"
                                      "device_to_device_memcpy_read_ce 500 GB/s\n");
  const RunResult run = nvbandwidth({"--from", kH200x2, "--expect", floors.path()});
  EXPECT_EQ(run.exitCode, 3) << run.out << run.err;
  EXPECT_EQ(countOf(run.out, "BELOW host_to_device_memcpy_ce ["), 2) << run.out;
  EXPECT_EQ(countOf(run.out, "BELOW device_to_device_memcpy_read_ce ["), 2) << run.out;
  EXPECT_NE(run.out.find(": FAILED: 4 cells: 0 met, 4 BELOW; 0 unmet."), std::string::npos)
      << run.out;
  // No report printed again, no comparison: only the check.
  EXPECT_EQ(run.out.find("Running "), std::string::npos);
  EXPECT_EQ(run.out.find("Comparison: "), std::string::npos);
}

TEST(VerdictsCli, JsonOfASavedReportsChecks) {
  const TempFile floors("floors_json", "host_to_device_memcpy_ce 500\n");
  const RunResult run = nvbandwidth(
      {"-j", "--from", kH200x2, "--expect", floors.path(), "--min-percent-of-peak", "40"});
  EXPECT_EQ(run.exitCode, 3) << run.out << run.err;
  const json doc = json::parse(run.out)["nvbandwidth"];
  EXPECT_FALSE(doc.contains("testcases"));
  ASSERT_EQ(doc["expectations"].size(), 2u);
  EXPECT_EQ(doc["expectations"][0]["check"], "file");
  EXPECT_EQ(doc["expectations"][0]["passed"], false);
  EXPECT_EQ(doc["expectations"][1]["check"], "percent_of_peak");
  EXPECT_EQ(doc["expectations"][1]["passed"], true);
}

// h200x2.json's device-to-device reads are at 82% of their NVLink peak, its host-to-all
// bidirectional cells at 42% of their PCIe peak (two GPUs share the host): 85 fails, 40 passes.
TEST(VerdictsCli, MinPercentOfPeakUsesThePeaksTheReportCarries) {
  const RunResult high = nvbandwidth({"--from", kH200x2, "--min-percent-of-peak", "85"});
  EXPECT_EQ(high.exitCode, 3) << high.out << high.err;
  EXPECT_NE(high.out.find("BELOW device_to_device_memcpy_read_ce [0][1]: 393.89 GB/s is 82.38% of "
                          "its 478.12 GB/s peak"),
            std::string::npos)
      << high.out;
  const RunResult low = nvbandwidth({"--from", kH200x2, "--min-percent-of-peak", "40"});
  EXPECT_EQ(low.exitCode, 0) << low.out << low.err;
}

TEST(VerdictsCli, CompareJudgesTheCurrentReportToo) {
  const TempFile floors("floors_compare", "host_to_device_memcpy_ce 500\n");
  const RunResult run = nvbandwidth({"--compare", kH200x2, kH200x2, "--expect", floors.path()});
  EXPECT_EQ(run.exitCode, 3) << run.out << run.err;
  EXPECT_NE(run.out.find("Comparison: 108 cells: 108 SAME"), std::string::npos) << run.out;
  EXPECT_LT(run.out.find("Comparison: "), run.out.find("Expectations --expect"));
  const RunResult doc =
      nvbandwidth({"-j", "--compare", kH200x2, kH200x2, "--expect", floors.path()});
  EXPECT_EQ(doc.exitCode, 3);
  const json j = json::parse(doc.out)["nvbandwidth"];
  EXPECT_EQ(j["comparison"]["summary"]["same"], 108);
  EXPECT_EQ(j["expectations"][0]["summary"]["below"], 2);
  const RunResult passing =
      nvbandwidth({"--compare", kH200x2, kH200x2, "--expect", kExpectations + "h100.txt"});
  EXPECT_EQ(passing.exitCode, 0) << passing.out;
}

// The expectations file is one of the command's inputs: no output may replace it, and a file that
// is not a regular one is refused without being read.
TEST(VerdictsCli, TheExpectationsFileIsNeverAnOutputAndMustBeARegularFile) {
  const std::string text = "host_to_device_memcpy_ce 48\n";
  const TempFile floors("floors_kept", text);
  const RunResult run =
      nvbandwidth({"--from", kH200x2, "--expect", floors.path(), "--html", floors.path()});
  EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(floors.read(), text);
  for (const std::string& special : {std::string("/dev/zero"), std::string(NVBW_DOCS_DIR)}) {
    const RunResult refused = nvbandwidth({"--from", kH200x2, "--expect", special});
    EXPECT_EQ(refused.exitCode, 2) << special << ": " << refused.err;
    EXPECT_EQ(refused.out, "");
  }
}

TEST(VerdictsCli, BadUsesAreUsageErrors) {
  // --from of a comparison document has no cells to judge.
  const RunResult comparison = nvbandwidth({"-j", "--compare", kH200x2, kH200x2});
  const TempFile doc("comparison_doc", comparison.out);
  EXPECT_EQ(nvbandwidth({"--from", doc.path(), "--expect", kExpectations + "h100.txt"}).exitCode,
            2);
  // A file that is not an expectations file: one line naming it and the line, nothing printed.
  const TempFile bad("floors_bad", "\n\nhost_to_device_memcpy_ce fast\n");
  const RunResult run = nvbandwidth({"--from", kH200x2, "--expect", bad.path()});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(countOf(run.err, "\n"), 1) << run.err;
  EXPECT_NE(run.err.find("--expect '" + bad.path() + "' line 3: "), std::string::npos) << run.err;
  EXPECT_EQ(nvbandwidth({"--from", kH200x2, "--expect", "/nonexistent.txt"}).exitCode, 2);
  EXPECT_EQ(nvbandwidth({"--from", kH200x2, "--min-percent-of-peak", "0"}).exitCode, 2);
  EXPECT_EQ(nvbandwidth({"--compare", kH200x2, kH200x2, "--confirm", "2"}).exitCode, 2);
  EXPECT_EQ(nvbandwidth({"--baseline", kH200x2, "--confirm", "11"}).exitCode, 2);
}

}  // namespace test_verdicts_cli
