// Whole runs of the fleet features on faked machines: --sweep (text table, JSON entries per
// size, the 90% size), --baseline (SAME against itself, SLOWER and exit 3 against a faster
// baseline), --html, bad values, and the progress line (terminal only, never on stdout).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"
#include "temp_file.h"
#include "text_search.h"

namespace nvbw {
namespace test_fleet_run {

using nlohmann::json;
using test::AppRun;
using test::FakeBehaviour;
using test::fakePlatform;
using test::runApp;
using test::TempFile;

PlatformFactory machine(double scale = 1.0, double rampMiB = 0.0) {
  FakeBehaviour b;
  b.scale = scale;
  b.rampMiB = rampMiB;
  return fakePlatform(FakeTopology(2), b);
}

using test::countOf;

TEST(SweepRun, TextPrintsOneRunningLineAndASizeTablePerTestcase) {
  const AppRun run = runApp({"--sweep", "1:64:4", "-t", "0", "4"}, machine(1.0, 8.0));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(countOf(run.out, "Running host_to_device_memcpy_ce."), 1);
  EXPECT_EQ(countOf(run.out, "Running device_to_device_memcpy_read_ce."), 1);
  EXPECT_NE(
      run.out.find("Sweep of host_to_device_memcpy_ce (SUM, GB/s):\n  size_MiB         SUM\n"),
      std::string::npos)
      << run.out;
  // S / (S + 8): 1/9, 4/12, 16/24, 64/72 of the full value; 90% of 64 MiB's is not reached below
  // 64 MiB (16 MiB gives 0.667 / 0.889 = 75%).
  // The 90% NOTE on stderr, as every note of ours after a Running line.
  EXPECT_NE(run.err.find("NOTE: host_to_device_memcpy_ce: 90% of the bandwidth at 64 MiB"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("is reached at 64 MiB."), std::string::npos);
  EXPECT_EQ(run.out.find("90%"), std::string::npos);
  // No matrices: the table replaces them.
  EXPECT_EQ(run.out.find("SUM host_to_device_memcpy_ce"), std::string::npos);
}

TEST(SweepRun, JsonHasAnEntryPerSizeAndTheSeries) {
  const AppRun run = runApp({"-j", "--sweep", "1:1024", "-t", "0"}, machine(1.0, 8.0));
  ASSERT_EQ(run.exitCode, 0) << run.err;
  const json root = json::parse(run.out)["nvbandwidth"];
  const json& entries = root["testcases"];
  ASSERT_EQ(entries.size(), 11u);
  EXPECT_EQ(entries[0]["bufferSize_MiB"], 1);
  EXPECT_EQ(entries[10]["bufferSize_MiB"], 1024);
  EXPECT_EQ(root["settings"]["sweep_MiB"].size(), 11u);
  const json& series = root["sweep"]["series"];
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0]["name"], "host_to_device_memcpy_ce");
  // S/(S+8) >= 0.9 x 1024/1032 first at S = 128 (0.941 vs 0.9 x 0.992 = 0.893).
  EXPECT_EQ(series[0]["size_reaching_90_percent_MiB"], 128);
  for (std::size_t k = 0; k < entries.size(); ++k)
    EXPECT_DOUBLE_EQ(series[0]["sums"][k].get<double>(), entries[k]["sum"].get<double>());
}

TEST(SweepRun, ConflictsAndBadSizesAreUsageErrors) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--sweep", "1:64", "-b", "64"},
        std::vector<std::string>{"--sweep", "64:1"}, std::vector<std::string>{"--sweep", "x"}}) {
    const AppRun run = runApp(args, machine());
    EXPECT_EQ(run.exitCode, 2) << args[1];
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err.find("--sweep"), std::string::npos) << run.err;
  }
}

TEST(BaselineRun, SameMachineIsSameEverywhereAndExitsZero) {
  const TempFile base("base", runApp({"-j", "-t", "0", "4", "32"}, machine()).out);
  const AppRun run = runApp({"--baseline", base.path(), "-t", "0", "4", "32"}, machine());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(
      run.err.find(" SAME, 0 SLOWER, 0 FASTER, 0 NOISY, 0 UNSTABLE; 0 only in baseline, 0 only in "
                   "current."),
      std::string::npos)
      << run.err;
}

TEST(BaselineRun, ASlowerMachineExitsThreeAndJsonCarriesTheComparison) {
  const TempFile base("base_fast", runApp({"-j", "-t", "0"}, machine()).out);
  const AppRun text = runApp({"--baseline", base.path(), "-t", "0"}, machine(0.8));
  EXPECT_EQ(text.exitCode, 3) << text.err;
  EXPECT_NE(text.err.find("SLOWER"), std::string::npos);
  EXPECT_EQ(text.out.find("SLOWER"), std::string::npos);  // stdout: the run's lines only
  const AppRun doc = runApp({"-j", "--baseline", base.path(), "-t", "0"}, machine(0.8));
  EXPECT_EQ(doc.exitCode, 3);
  const json c = json::parse(doc.out)["nvbandwidth"]["comparison"];
  EXPECT_EQ(c["summary"]["slower"], 2);
  EXPECT_EQ(c["cells"].size(), 2u);
}

TEST(BaselineRun, UnreadableBaselineIsAUsageErrorBeforeAnythingRuns) {
  const AppRun run = runApp({"--baseline", "/nonexistent/base.json", "-t", "0"}, machine());
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "nvbandwidth: --baseline '/nonexistent/base.json': No such file or directory (see "
            "nvbandwidth --help)\n");
}

TEST(BaselineRun, ABaselineThatIsNotAUsableReportIsRefusedBeforeTheRun) {
  // A listing, and a report with a string where a number belongs: today's run must not be spent
  // (and its report lost) on a comparison that can never be made.
  const TempFile listing("listing",
                         R"({"nvbandwidth": {"testcases": [{"index": 0, "name": "x"}]}})");
  json doc = json::parse(runApp({"-j", "-t", "0"}, machine()).out);
  doc["nvbandwidth"]["testcases"][0]["values"][0][0] = "fast";
  const TempFile wrong("wrong", doc.dump());
  for (const TempFile* base : {&listing, &wrong}) {
    const AppRun run = runApp({"-j", "--baseline", base->path(), "-t", "0"}, machine());
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err.find("not a usable report"), std::string::npos) << run.err;
  }
}

TEST(HtmlRun, WritesTheReportNextToTheTextAndLeavesStdoutAlone) {
  const TempFile html("run_html");
  const AppRun plain = runApp({"-t", "0"}, machine());
  const AppRun run = runApp({"-t", "0", "--html", html.path()}, machine());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, plain.out);
  EXPECT_EQ(html.read().rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.read().find("host_to_device_memcpy_ce"), std::string::npos);
}

TEST(HtmlRun, AnUnwritableTargetIsAUsageErrorBeforeTheRun) {
  const AppRun run = runApp({"-t", "0", "--html", "/nonexistent/dir/run.html"}, machine());
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("--html '/nonexistent/dir/run.html': its directory"), std::string::npos)
      << run.err;
}

TEST(HtmlRun, ThePageNeverReplacesTheBaseline) {
  const TempFile base("base", runApp({"-j", "-t", "0"}, machine()).out);
  const std::string before = base.read();
  const AppRun run =
      runApp({"-t", "0", "--baseline", base.path(), "--html", base.path()}, machine());
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("which this command reads"), std::string::npos) << run.err;
  EXPECT_EQ(base.read(), before);
}

AppRun runOnTerminal(const std::vector<std::string>& args, bool terminal) {
  std::ostringstream out, err;
  AppContext context{machine(), out, err, {}, {}, nullptr, RegistryScope::SingleNode};
  context.errIsTerminal = terminal;
  AppRun run;
  run.exitCode = runCommandLine(args, context);
  run.out = out.str();
  run.err = err.str();
  return run;
}

TEST(ProgressRun, OnATerminalStderrShowsWhichTestcaseOfHowMany) {
  const AppRun run = runOnTerminal({"-t", "0", "1"}, true);
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_NE(run.err.find("\r[1/2] host_to_device_memcpy_ce  0:00 elapsed"), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("\r[2/2] device_to_host_memcpy_ce"), std::string::npos);
  EXPECT_EQ(run.out.find('\r'), std::string::npos);
  // The line is erased at the end: the last thing on stderr is a carriage return.
  EXPECT_EQ(run.err.back(), '\r');
  EXPECT_EQ(runOnTerminal({"-t", "0"}, true).out, runOnTerminal({"-t", "0"}, false).out);
}

TEST(ProgressRun, NothingWithoutATerminalOrWithNoProgress) {
  EXPECT_EQ(runOnTerminal({"-t", "0", "1"}, false).err, "");
  EXPECT_EQ(runOnTerminal({"-t", "0", "1", "--no-progress"}, true).err, "");
  EXPECT_EQ(runOnTerminal({"-j", "-t", "0", "--no-progress"}, true).err, "");
}

TEST(ProgressRun, SweepSizesCountAsRuns) {
  const AppRun run = runOnTerminal({"-t", "0", "--sweep", "1:4"}, true);
  EXPECT_NE(run.err.find("[3/3] host_to_device_memcpy_ce at 4 MiB"), std::string::npos) << run.err;
}

}  // namespace test_fleet_run
}  // namespace nvbw
