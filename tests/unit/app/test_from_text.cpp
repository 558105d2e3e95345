// `nvbandwidth --from REPORT` alone prints what the run printed on stdout from its first
// `Running` line, from its saved report (report/report_text.h): byte for byte for the fake's runs
// in both interfaces, with -v (but its sample lines) and --sweep, and line for line (the same
// lines, the report's own numbers) for the real reports in the tree, ours and upstream's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"
#include "golden.h"
#include "temp_dir.h"

namespace nvbw {
namespace test_from_text {

using test::AppRun;
using test::FakeBehaviour;
using test::fakePlatform;
using test::kGolden;
using test::runApp;

std::string fromFirstRunning(const std::string& out) {
  const std::size_t at = out.find("Running ");
  const std::size_t selection = out.find("ERROR: Testcase ");
  const std::size_t first = std::min(at, selection);
  return first == std::string::npos ? std::string() : out.substr(first);
}

// -v's sample lines: what a run printed that no document holds (model/report.h).
std::string withoutSampleLines(const std::string& text) {
  return std::regex_replace(text, std::regex("\t(Sample [0-9]+: [^\n]*\n)"), "");
}

void expectFromPrintsTheRun(int gpus, const std::vector<std::string>& args,
                            FakeBehaviour behaviour = {}) {
  SCOPED_TRACE(::testing::PrintToString(args));
  const auto platform = fakePlatform(FakeTopology(gpus), behaviour);
  const AppRun text = runApp(args, platform);
  std::vector<std::string> json = args;
  json.push_back("-j");
  const test::TempDir dir("from_text");
  const std::string saved = dir.write("run.json", runApp(json, platform).out);
  const AppRun from = runApp({"--from", saved}, platform);
  EXPECT_EQ(from.exitCode, 0) << from.err;
  EXPECT_EQ(from.out, withoutSampleLines(fromFirstRunning(text.out)));
}

TEST(FromText, PrintsWhatTheRunPrintedByteForByte) {
  expectFromPrintsTheRun(1, {});
  expectFromPrintsTheRun(2, {"-t", "0", "4", "6", "32", "33", "1"});
  expectFromPrintsTheRun(4, {"-p", "device_to_device_bidirectional"});
  expectFromPrintsTheRun(2, {"--compat", "v0.10"});
  expectFromPrintsTheRun(1, {"--compat", "v0.10", "-t", "0", "4", "nope", "1"});
  expectFromPrintsTheRun(2, {"-t", "nope", "0", "99"});
  FakeBehaviour failing;
  failing.failingTitles = {"memcpy CE GPU(row) -> GPU(column)"};
  expectFromPrintsTheRun(2, {"-t", "0", "4", "5"}, failing);
}

TEST(FromText, VerboseRunsPrintEverythingButTheSampleLines) {
  expectFromPrintsTheRun(1, {"-v"});
  expectFromPrintsTheRun(2, {"-v", "-t", "0", "4", "6", "32", "nope"});
  expectFromPrintsTheRun(2, {"-v", "--compat", "v0.10", "-p", "device_to_device"});
  // The sample lines are there to leave out.
  const auto platform = fakePlatform(FakeTopology(1));
  EXPECT_NE(runApp({"-v", "-t", "0"}, platform).out.find("\tSample 0: "), std::string::npos);
}

TEST(FromText, SweepsPrintTheirTables) {
  expectFromPrintsTheRun(2, {"--sweep", "1:4", "-t", "0", "4", "6"});
  expectFromPrintsTheRun(1, {"--sweep", "1:8:2", "-v", "-t", "0", "1"});
  FakeBehaviour failing;
  failing.failingTitles = {"memcpy CE CPU(row) -> GPU(column)"};
  expectFromPrintsTheRun(1, {"--sweep", "1:2", "-t", "0", "1"}, failing);
}

// A testcase selected twice prints twice: its second run (or sweep) is not taken for more of the
// first.
TEST(FromText, ATestcaseSelectedTwicePrintsTwice) {
  FakeBehaviour noisy;
  noisy.noiseCv = 0.05;
  expectFromPrintsTheRun(2, {"-t", "6", "6"}, noisy);
  expectFromPrintsTheRun(2, {"--sweep", "1:2", "-t", "6", "6", "0", "0"}, noisy);
  expectFromPrintsTheRun(1, {"--sweep", "2:2", "-v", "-t", "0", "0"}, noisy);
  expectFromPrintsTheRun(1, {"--sweep", "1:2", "-t", "0", "nope", "0", "1", "0"}, noisy);
}

// The report's own numbers, in the lines upstream prints: every SUM line of the text is the
// report's SUM of that matrix.
std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

std::string masked(const std::string& text) {
  return std::regex_replace(text, std::regex("[0-9]+\\.[0-9]+"), "N");
}

TEST(FromText, RealReportsPrintUpstreamsLines) {
  const auto platform = fakePlatform(FakeTopology(1));
  // Upstream v0.8's report of an H200 and its text, of two runs: the same lines.
  const AppRun upstream = runApp({"--from", kGolden + "/upstream/default.json"}, platform);
  ASSERT_EQ(upstream.exitCode, 0) << upstream.err;
  std::ifstream in(kGolden + "/upstream/default.txt");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(masked(upstream.out), masked(fromFirstRunning(text)));
  // Ours, of one and two H200s: every matrix and SUM line where the report has them.
  for (const char* report : {"/run_to_run/ours_1.json", "/run_to_run_x2/issue12_base.json"}) {
    const AppRun ours = runApp({"--from", kGolden + report}, platform);
    ASSERT_EQ(ours.exitCode, 0) << report << ours.err;
    const std::vector<std::string> printed = lines(ours.out);
    EXPECT_EQ(printed.front().rfind("Running ", 0), 0u) << report;
    std::size_t sums = 0;
    for (const std::string& line : printed) sums += line.rfind("SUM ", 0) == 0 ? 1 : 0;
    EXPECT_GT(sums, 10u) << report;
    EXPECT_NE(ours.out.find("NOTE: The reported results may not reflect"), std::string::npos);
  }
}

}  // namespace test_from_text
}  // namespace nvbw
