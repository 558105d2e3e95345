// Whole runs of the verdicts of issue 19 on faked machines: --baseline with confirmation runs
// (a lasting slowdown confirmed SLOWER, one that passes NOISY, --confirm 0 the saved-report rule,
// sweep sizes), and --expect / --min-percent-of-peak in a run (BELOW, exit 3, bad files).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"
#include "temp_file.h"
#include "text_search.h"

namespace nvbw {
namespace test_verdicts_run {

using nlohmann::json;
using test::AppRun;
using test::countOf;
using test::FakeBehaviour;
using test::fakePlatform;
using test::runApp;
using test::TempFile;

// A 2-GPU machine: `scale` for every measurement, `firstRunScale` for each testcase's first one.
PlatformFactory machine(double scale = 1.0, double firstRunScale = 1.0) {
  FakeBehaviour b;
  b.scale = scale;
  b.firstRunScale = firstRunScale;
  return fakePlatform(FakeTopology(2), b);
}

// A baseline of testcases 0 (host to device, 2 cells) and 4 (device to device read, 2 cells).
std::string baselineOf(const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"-j", "-t", "0", "4"};
  args.insert(args.end(), extra.begin(), extra.end());
  const AppRun run = runApp(args, machine());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  return run.out;
}

TEST(ConfirmRun, ALastingSlowdownIsConfirmedSlowerAndExitsThree) {
  const TempFile base("confirm_base", baselineOf());
  const AppRun run = runApp({"-j", "--baseline", base.path(), "-t", "0", "4"}, machine(0.8));
  EXPECT_EQ(run.exitCode, 3) << run.err;
  const json doc = json::parse(run.out)["nvbandwidth"];
  const json& c = doc["comparison"];
  EXPECT_EQ(c["rule"], "confirmed");
  EXPECT_EQ(c["summary"]["slower"], 4);
  EXPECT_EQ(c["summary"]["noisy"], 0);
  EXPECT_EQ(c["confirmation"]["runs"], 2);
  EXPECT_EQ(c["confirmation"]["testcases"].size(), 2u);
  EXPECT_GE(c["confirmation"]["seconds"].get<double>(), 0.0);
  for (const json& cell : c["cells"]) {
    EXPECT_EQ(cell["verdict"], "SLOWER") << cell.dump();
    ASSERT_EQ(cell["confirmations"].size(), 2u) << cell.dump();
    // Every confirmation measured the same 80% machine: the cell's current value.
    EXPECT_EQ(cell["confirmations"][0], cell["current"]);
    EXPECT_EQ(cell["confirmed_median"], cell["current"]);
  }
  // Two testcases, two rounds; each entry with its samples and its round.
  const json& runs = doc["confirmations"];
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0]["name"], "host_to_device_memcpy_ce");
  EXPECT_EQ(runs[0]["confirmation_run"], 1);
  EXPECT_EQ(runs[1]["name"], "device_to_device_memcpy_read_ce");
  EXPECT_EQ(runs[3]["confirmation_run"], 2);
  EXPECT_EQ(runs[0]["cells"][0][0]["samples"].size(), 3u);
  // Testcases in the report once each: the confirmations are not testcases of the run.
  EXPECT_EQ(doc["testcases"].size(), 2u);
}

TEST(ConfirmRun, TextNamesTheConfirmationButPrintsNoSecondTestcaseBlock) {
  const TempFile base("confirm_text", baselineOf());
  const AppRun run = runApp({"--baseline", base.path(), "-t", "0", "4"}, machine(0.8));
  EXPECT_EQ(run.exitCode, 3) << run.err;
  EXPECT_EQ(countOf(run.out, "Running host_to_device_memcpy_ce."), 1) << run.out;
  EXPECT_EQ(countOf(run.out, "SUM host_to_device_memcpy_ce "), 1) << run.out;
  EXPECT_NE(run.err.find("Confirmation of 4 suspect cells, 2 more runs ("), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("    confirmations "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("Comparison: 4 cells: 0 SAME, 4 SLOWER, 0 FASTER, 0 NOISY, 0 UNSTABLE;"),
            std::string::npos)
      << run.err;
  // Said on stderr while it happens (it takes time), never on stdout.
  EXPECT_NE(run.err.find("NOTE: 4 cells slower than the baseline or unstable: measuring 2 "
                         "testcases 2 more times before judging them (--confirm).\n"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.out.find("measuring 2 testcases"), std::string::npos);
  // The comparison is on stderr (its numbers on stdout would be the last testcase's cells to a
  // parser), stdout as without --baseline.
  EXPECT_EQ(run.out.find("Comparison: "), std::string::npos);
  EXPECT_NE(run.out.find("NOTE: The reported results"), std::string::npos);
}

TEST(ConfirmRun, ASlowdownThatPassesIsNoisyAndExitsZero) {
  const TempFile base("confirm_passing", baselineOf());
  const AppRun run = runApp({"-j", "--baseline", base.path(), "-t", "0", "4"}, machine(1.0, 0.8));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  const json c = json::parse(run.out)["nvbandwidth"]["comparison"];
  EXPECT_EQ(c["summary"]["slower"], 0);
  EXPECT_EQ(c["summary"]["noisy"], 4);
  EXPECT_EQ(c["summary"]["suspect"], 4);
  for (const json& cell : c["cells"]) {
    EXPECT_EQ(cell["verdict"], "NOISY");
    EXPECT_EQ(cell["confirmed_median"], cell["baseline"]);  // 80, 100, 100: the median is 100
  }
}

// Without confirmation the same passing slowdown fails the node: its samples separate by 20%.
TEST(ConfirmRun, ConfirmZeroJudgesAsSavedReportsAre) {
  const TempFile base("confirm_zero", baselineOf());
  const AppRun run = runApp({"-j", "--baseline", base.path(), "--confirm", "0", "-t", "0", "4"},
                            machine(1.0, 0.8));
  EXPECT_EQ(run.exitCode, 3) << run.err;
  const json doc = json::parse(run.out)["nvbandwidth"];
  EXPECT_EQ(doc["comparison"]["rule"], "saved reports");
  EXPECT_EQ(doc["comparison"]["summary"]["slower"], 4);
  EXPECT_FALSE(doc.contains("confirmations"));
  EXPECT_FALSE(doc["comparison"].contains("confirmation"));
  EXPECT_EQ(run.err.find("--confirm"), std::string::npos) << run.err;
}

TEST(ConfirmRun, ConfirmNMeasuresNTimes) {
  const TempFile base("confirm_three", baselineOf());
  const AppRun run =
      runApp({"-j", "--baseline", base.path(), "--confirm", "3", "-t", "0"}, machine(1.0, 0.8));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  const json doc = json::parse(run.out)["nvbandwidth"];
  ASSERT_EQ(doc["confirmations"].size(), 3u);
  EXPECT_EQ(doc["confirmations"][2]["confirmation_run"], 3);
  EXPECT_EQ(doc["comparison"]["cells"][0]["confirmations"].size(), 3u);
}

TEST(ConfirmRun, NothingSuspectMeasuresNothingAgain) {
  const TempFile base("confirm_none", baselineOf());
  const AppRun run = runApp({"--baseline", base.path(), "-t", "0", "4"}, machine());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.err.find("Confirmation: no cell was slower or unstable; nothing was measured "
                         "again.\n"),
            std::string::npos)
      << run.err;
  const AppRun doc = runApp({"-j", "--baseline", base.path(), "-t", "0", "4"}, machine());
  EXPECT_FALSE(json::parse(doc.out)["nvbandwidth"].contains("confirmations"));
  EXPECT_EQ(run.err.find("--confirm"), std::string::npos) << run.err;
}

// A faster machine is never measured again: only the slower direction is suspect.
TEST(ConfirmRun, FasterCellsAreNotConfirmed) {
  const TempFile base("confirm_faster", baselineOf());
  const AppRun run = runApp({"-j", "--baseline", base.path(), "-t", "0"}, machine(1.2));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  const json doc = json::parse(run.out)["nvbandwidth"];
  EXPECT_EQ(doc["comparison"]["summary"]["faster"], 2);
  EXPECT_FALSE(doc.contains("confirmations"));
}

TEST(ConfirmRun, SweepSizesAreConfirmedAtTheirSize) {
  const TempFile base("confirm_sweep", baselineOf({"--sweep", "16:32"}));
  const AppRun run =
      runApp({"-j", "--baseline", base.path(), "--sweep", "16:32", "-t", "0", "4"}, machine(0.8));
  EXPECT_EQ(run.exitCode, 3) << run.err;
  const json doc = json::parse(run.out)["nvbandwidth"];
  // 2 testcases x 2 sizes, 2 rounds.
  ASSERT_EQ(doc["confirmations"].size(), 8u);
  std::vector<int> sizes;
  for (const json& e : doc["confirmations"]) sizes.push_back(e["bufferSize_MiB"].get<int>());
  EXPECT_EQ(sizes, (std::vector<int>{16, 32, 16, 32, 16, 32, 16, 32}));
  EXPECT_EQ(doc["comparison"]["summary"]["slower"], 8);
}

// A signal during the confirmation runs: exit 128+N, and the comparison says why its suspect
// cells are judged as saved reports are.
TEST(ConfirmRun, AStopDuringConfirmationIsReportedAndKeepsItsStatus) {
  const TempFile base("confirm_stop", baselineOf());
  // How many stop checks the run itself makes (reading the baseline, before every testcase and
  // sample): counted on the same run without confirmation; the next one is the confirmation's.
  int runChecks = 0;
  runApp({"-j", "--baseline", base.path(), "--confirm", "0", "-t", "0"}, machine(0.8),
         [&runChecks] { return ++runChecks, 0; });
  ASSERT_GT(runChecks, 0);
  int checks = 0;
  auto stop = [&checks, runChecks] { return ++checks > runChecks ? 15 : 0; };
  const AppRun run = runApp({"-j", "--baseline", base.path(), "-t", "0"}, machine(0.8), stop);
  EXPECT_GT(checks, runChecks);
  EXPECT_EQ(run.exitCode, 128 + 15) << run.err << run.out;
  const json doc = json::parse(run.out)["nvbandwidth"];
  const json notes = doc["comparison"]["notes"];
  EXPECT_NE(std::find(notes.begin(), notes.end(), "the confirmation runs were stopped by SIGTERM"),
            notes.end())
      << notes.dump();
}

// ---- --expect and --min-percent-of-peak in a run ----

// The fake's host-to-device cells are 190 and 191 GB/s.
TEST(ExpectRun, CellsUnderTheirFloorAreBelowAndExitThree) {
  const TempFile floors("expect_high", "# too high\nhost_to_device_memcpy_ce 190.5 GB/s\n");
  const AppRun run = runApp({"-t", "0", "--expect", floors.path()}, machine());
  EXPECT_EQ(run.exitCode, 3) << run.err;
  EXPECT_NE(run.err.find("BELOW host_to_device_memcpy_ce [0][0]: 190.00 GB/s, floor 190.5 GB/s "
                         "(line 2)\n"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("FAILED: 2 cells: 1 met, 1 BELOW; 0 unmet."), std::string::npos)
      << run.err;
  const AppRun doc = runApp({"-j", "-t", "0", "--expect", floors.path()}, machine());
  EXPECT_EQ(doc.exitCode, 3);
  const json e = json::parse(doc.out)["nvbandwidth"]["expectations"];
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0]["below"].size(), 1u);
}

TEST(ExpectRun, CellsAtTheirFloorPassAndExitZero) {
  const TempFile floors("expect_low", "host_to_device_memcpy_ce 190\n");
  const AppRun run = runApp({"-t", "0", "--expect", floors.path()}, machine());
  EXPECT_EQ(run.exitCode, 0) << run.err << run.out;
  EXPECT_NE(run.err.find(": PASSED: 2 cells: 2 met, 0 BELOW; 0 unmet."), std::string::npos)
      << run.err;
}

// A line whose testcase did not run fails the check: the gate never passes what it did not see.
TEST(ExpectRun, ATestcaseNotRunIsUnmet) {
  const TempFile floors("expect_unmet", "device_to_host_memcpy_ce 10\n");
  const AppRun run = runApp({"-t", "0", "--expect", floors.path()}, machine());
  EXPECT_EQ(run.exitCode, 3) << run.err;
  EXPECT_NE(run.err.find("UNMET device_to_host_memcpy_ce (line 1)"), std::string::npos) << run.err;
}

TEST(ExpectRun, ABadFileIsAUsageErrorBeforeAnythingRuns) {
  const TempFile floors("expect_bad", "host_to_device_memcpy_ce 48 MB/s\n");
  const AppRun run = runApp({"-t", "0", "--expect", floors.path()}, machine());
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err.rfind("nvbandwidth: --expect '" + floors.path() + "' line 1: ", 0), 0u)
      << run.err;
  const AppRun missing = runApp({"-t", "0", "--expect", "/nonexistent/floors.txt"}, machine());
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(missing.out, "");
}

// Both checks, a baseline and a failed testcase: a failure keeps exit 1.
TEST(ExpectRun, AFailedTestcaseKeepsExitOne) {
  FakeBehaviour b;
  b.failingTitles = {"memcpy CE CPU(row) -> GPU(column)"};
  const TempFile floors("expect_fail", "host_to_device_memcpy_ce 500\n");
  const AppRun run =
      runApp({"-t", "0", "--expect", floors.path()}, fakePlatform(FakeTopology(2), b));
  EXPECT_EQ(run.exitCode, 1) << run.out;
}

TEST(ExpectRun, WithABaselineBothAreJudged) {
  const TempFile base("expect_base", baselineOf());
  const TempFile floors("expect_both", "host_to_device_memcpy_ce 100\n");
  const AppRun run = runApp(
      {"-j", "--baseline", base.path(), "--expect", floors.path(), "-t", "0", "4"}, machine());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  const json doc = json::parse(run.out)["nvbandwidth"];
  EXPECT_EQ(doc["comparison"]["summary"]["same"], 4);
  EXPECT_EQ(doc["expectations"][0]["check"], "file");
}

}  // namespace test_verdicts_run
}  // namespace nvbw
