// The fleet commands that need no GPU, on the real binary and committed reports
// (tests/golden/fleet): --compare of two saved reports (ours and upstream v0.8's), its JSON
// (checked against the schema), its exit statuses, and --html --from.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_binary.h"
#include "temp_file.h"
#include "text_search.h"

namespace test_fleet_cli {

namespace fs = std::filesystem;
using nlohmann::json;
using nvbw::test::RunResult;

const std::string kFleet = std::string(NVBW_GOLDEN_DIR) + "/fleet/";
// A real default run on 2 x H200.
const std::string kH200x2 = std::string(NVBW_GOLDEN_DIR) + "/run_to_run_x2/issue11_full.json";

RunResult nvbandwidth(const std::vector<std::string>& args) {
  nvbw::test::RunSpec spec(NVBW_BINARY, args);
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

using nvbw::test::countOf;

TEST(CompareCli, AReportAgainstItselfIsSameEverywhere) {
  const RunResult run = nvbandwidth({"--compare", kH200x2, kH200x2});
  EXPECT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  EXPECT_EQ(run.out,
            "Comparison: 108 cells: 108 SAME, 0 SLOWER, 0 FASTER, 0 NOISY, 0 UNSTABLE; 0 only in "
            "baseline, 0 only in current.\n");
}

TEST(CompareCli, ASlowerReportExitsThreeAndNamesTheCells) {
  const RunResult run =
      nvbandwidth({"--compare", kFleet + "fake_base.json", kFleet + "fake_slower.json"});
  EXPECT_EQ(run.exitCode, 3) << nvbw::test::describe(run);
  // 10 bandwidth cells 20% lower; the two latency cells 20% lower are FASTER.
  EXPECT_EQ(countOf(run.out, " SLOWER "), 10) << run.out;
  EXPECT_EQ(countOf(run.out, " FASTER "), 2) << run.out;
  EXPECT_NE(run.out.find("Comparison: 12 cells: 0 SAME, 10 SLOWER, 2 FASTER, 0 NOISY, 0 UNSTABLE;"),
            std::string::npos);
  // The other way round nothing is slower but the latency.
  const RunResult back =
      nvbandwidth({"--compare", kFleet + "fake_slower.json", kFleet + "fake_base.json"});
  EXPECT_EQ(back.exitCode, 3);
  EXPECT_NE(back.out.find("0 SAME, 2 SLOWER, 10 FASTER, 0 NOISY, 0 UNSTABLE"), std::string::npos)
      << back.out;
}

TEST(CompareCli, JsonIsOneDocumentWithTheComparison) {
  const RunResult run =
      nvbandwidth({"-j", "--compare", kFleet + "fake_base.json", kFleet + "fake_slower.json"});
  EXPECT_EQ(run.exitCode, 3);
  const json doc = json::parse(run.out);
  EXPECT_EQ(doc["nvbandwidth"]["comparison"]["summary"]["slower"], 10);
  EXPECT_EQ(doc["nvbandwidth"]["comparison"]["cells"].size(), 12u);
}

TEST(CompareCli, UpstreamReportsCompareByTolerance) {
  const std::string upstream = std::string(NVBW_GOLDEN_DIR) + "/upstream/default.json";
  const RunResult run = nvbandwidth({"--compare", upstream, upstream});
  EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("no samples, the prior run-to-run spread applies"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(" 0 SLOWER"), std::string::npos);
}

TEST(CompareCli, UnreadableOrForeignFilesAreUsageErrors) {
  const RunResult missing = nvbandwidth({"--compare", "/nonexistent.json", kH200x2});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(missing.out, "");
  EXPECT_EQ(missing.err, "nvbandwidth: --compare '/nonexistent.json': No such file or directory "
                         "(see nvbandwidth --help)\n");
  const RunResult notReport = nvbandwidth({"--compare", kFleet + "README.md", kH200x2});
  EXPECT_EQ(notReport.exitCode, 2);
  EXPECT_NE(notReport.err.find("README.md': not JSON at byte 1"), std::string::npos)
      << notReport.err;
  // The current report must be a file; a baseline may be a directory (VerdictsCli).
  const RunResult directory = nvbandwidth({"--compare", kH200x2, kFleet});
  EXPECT_EQ(directory.exitCode, 2);
  EXPECT_NE(directory.err.find("is a directory"), std::string::npos) << directory.err;
  EXPECT_EQ(nvbandwidth({"--compare", kH200x2}).exitCode, 2);
}

TEST(HtmlCli, RendersASavedReportWithOneHeatmapPerMatrix) {
  const nvbw::test::TempFile html("cli_html");
  const RunResult run = nvbandwidth({"--html", html.path(), "--from", kH200x2});
  EXPECT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  EXPECT_EQ(run.out, "");
  const std::string page = html.read();
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  std::size_t matrices = 0;
  const json report = json::parse(readText(kH200x2));  // outlives the loop
  for (const json& e : report["nvbandwidth"]["testcases"]) matrices += e.contains("values") ? 1 : 0;
  EXPECT_EQ(matrices, 54u);
  EXPECT_EQ(static_cast<std::size_t>(countOf(page, "<svg class=\"heatmap\"")), matrices);
}

TEST(HtmlCli, CompareCanRenderTheCurrentReportWithItsVerdicts) {
  const nvbw::test::TempFile html("cli_html");
  const RunResult run = nvbandwidth(
      {"--compare", kFleet + "fake_base.json", kFleet + "fake_slower.json", "--html", html.path()});
  EXPECT_EQ(run.exitCode, 3);
  EXPECT_GT(countOf(html.read(), "data-verdict=\"SLOWER\""), 0);
}

TEST(HtmlCli, BadUsesAndUnwritableFiles) {
  EXPECT_EQ(nvbandwidth({"--html", "x.html", "--from", "/nonexistent.json"}).exitCode, 2);
  const RunResult unwritable =
      nvbandwidth({"--html", "/nonexistent/dir/x.html", "--from", kH200x2});
  EXPECT_EQ(unwritable.exitCode, 2);
  EXPECT_NE(unwritable.err.find("its directory"), std::string::npos) << unwritable.err;
}

TEST(HtmlCli, ThePageNeverReplacesItsOwnInput) {
  const nvbw::test::TempFile report("cli_report", readText(kH200x2));
  const RunResult same = nvbandwidth({"--html", report.path(), "--from", report.path()});
  EXPECT_EQ(same.exitCode, 2);
  EXPECT_NE(same.err.find("which this command reads"), std::string::npos) << same.err;
  const RunResult baseline =
      nvbandwidth({"--compare", report.path(), kH200x2, "--html", report.path()});
  EXPECT_EQ(baseline.exitCode, 2);
  EXPECT_EQ(baseline.out, "");
  EXPECT_EQ(report.read(), readText(kH200x2));
}

}  // namespace test_fleet_cli
