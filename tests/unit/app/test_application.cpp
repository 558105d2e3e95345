// Whole runs of the application core on faked machines (1, 2 and 8 GPUs): what main does, minus
// the signal handlers and the real driver. Exit statuses, start-up failures, interruption, write
// errors and the documents they leave behind.
#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <streambuf>

#include "dcgm_check.h"
#include "fake_platform.h"
#include "fake_topology.h"
#include "output_fixtures.h"
#include "plans/registry.h"
#include "platform/driver.h"
#include "registry_counts.h"
#include "report/report_builder.h"
#include "text_search.h"

namespace nvbw {
namespace test_application {

using nlohmann::json;
using test::AppRun;
using test::fakePlatform;
using test::runApp;

using test::countOf;

TEST(Application, DefaultRunOnOneTwoAndEightGpus) {
  for (const int gpus : {1, 2, 8}) {
    SCOPED_TRACE(std::to_string(gpus) + " GPUs");
    const AppRun run = runApp({}, fakePlatform(FakeTopology(gpus)));
    EXPECT_EQ(run.exitCode, 0) << run.err;
    const test::RegistryCounts counts = test::countsOn(FakeTopology(gpus));
    EXPECT_EQ(countOf(run.out, "Running "), counts.runs);
    EXPECT_EQ(countOf(run.out, "Waived: \n"), counts.waived);
    EXPECT_EQ(counts.waived == 0, gpus > 1);
    EXPECT_EQ(countOf(run.out, "ERROR"), 0);
    EXPECT_NE(run.out.find("NOTE: The reported results"), std::string::npos);
    // stderr: one line per waived testcase, and the fake's spread values' outlier NOTEs.
    EXPECT_EQ(countOf(run.err, " waived: "), gpus == 1 ? 22 : 0) << run.err;
    EXPECT_EQ(countOf(run.err, "ERROR"), 0);
  }
}

TEST(Application, JsonRunsAreDocumentsStrictConsumersAccept) {
  for (const int gpus : {1, 2, 8}) {
    const AppRun run = runApp({"-j", "-v"}, fakePlatform(FakeTopology(gpus)));
    EXPECT_EQ(run.exitCode, 0);
    test::expectDcgmAccepts(run.out);
    const json root = json::parse(run.out)["nvbandwidth"];
    EXPECT_EQ(root["schema_version"], kJsonSchemaVersion);
    EXPECT_GE(root["timing"]["wall_seconds"].get<double>(), 0.0);
  }
}

TEST(Application, StartupFailureIsExitOneWithTheReason) {
  const PlatformFactory broken = [](const PlatformStart&) -> std::unique_ptr<Platform> {
    throw DriverUnavailable(DriverUnavailable::Reason::NoDriver, "no driver here");
  };
  const AppRun text = runApp({}, broken);
  EXPECT_EQ(text.exitCode, 1);
  EXPECT_EQ(text.err, "ERROR: cannot start: no driver here\n");
  EXPECT_EQ(text.out.find("NOTE: The reported results"), std::string::npos);

  const AppRun doc = runApp({"-j"}, broken);
  EXPECT_EQ(doc.exitCode, 1);
  test::expectDcgmAccepts(doc.out);
  const json root = json::parse(doc.out)["nvbandwidth"];
  EXPECT_EQ(root["error"], "cannot start: no driver here");
  EXPECT_EQ(root["testcases"], json::array());
  EXPECT_FALSE(root.contains("timing"));
}

TEST(Application, UnknownTestcaseIsAnErrorAndTheOthersRun) {
  const AppRun run = runApp({"-t", "nosuch", "0"}, fakePlatform(FakeTopology(1)));
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.out.find("ERROR: Testcase nosuch not found!\n"), std::string::npos);
  EXPECT_NE(run.out.find("SUM host_to_device_memcpy_ce 190.00\n"), std::string::npos) << run.out;
}

TEST(Application, FailingTestcaseIsExitOneAndTheNextStillRuns) {
  test::FakeBehaviour behaviour;
  behaviour.failingTitles = {"memcpy CE CPU(row) -> GPU(column)"};
  const AppRun run = runApp({"-t", "0", "1"}, fakePlatform(FakeTopology(1), behaviour));
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("ERROR: Testcase host_to_device_memcpy_ce failed: data verification "
                         "failed for the destination of a faked copy"),
            std::string::npos)
      << run.err;
  // stdout: the testcase's Running line, then the next testcase, as upstream's lines only.
  EXPECT_NE(run.out.find("Running host_to_device_memcpy_ce.\nRunning device_to_host_memcpy_ce.\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("SUM device_to_host_memcpy_ce"), std::string::npos);
}

TEST(Application, UsageErrorsAreOneLineAndExitTwo) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-b", "0"},
                                             {"-t", "0", "-p", "host"},
                                             {"-p", "nothing_matches"},
                                             {"--bogus"},
                                             {"-b", std::string(100000, '9')},
                                             {"-b", "1\n2"}}) {
    const AppRun run = runApp(args, fakePlatform(FakeTopology(1)));
    EXPECT_EQ(run.exitCode, 2) << args[0];
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(countOf(run.err, "\n"), 1) << run.err;
    EXPECT_EQ(run.err.rfind("nvbandwidth: ", 0), 0u) << run.err;
    EXPECT_NE(run.err.find("(see nvbandwidth --help)\n"), std::string::npos) << run.err;
    EXPECT_LT(run.err.size(), 400u);
  }
}

TEST(Application, HelpAndListingNeedNoPlatform) {
  const PlatformFactory never = [](const PlatformStart&) -> std::unique_ptr<Platform> {
    throw std::logic_error("-h and -l must not open the platform");
  };
  EXPECT_EQ(runApp({"-h"}, never).exitCode, 0);
  const AppRun list = runApp({"-l"}, never);
  EXPECT_EQ(list.exitCode, 0);
  EXPECT_NE(list.out.find("34, device_local_copy:\n"), std::string::npos);
  const AppRun jsonList = runApp({"-j", "-l"}, never);
  EXPECT_EQ(json::parse(jsonList.out)["nvbandwidth"]["testcases"].size(), makeRegistry().size());
}

TEST(Application, VersionPrintsTheVersionBlockAndNeedsNoPlatform) {
  const PlatformFactory never = [](const PlatformStart&) -> std::unique_ptr<Platform> {
    throw std::logic_error("--version must not open the platform");
  };
  const AppRun run = runApp({"--version"}, never);
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_EQ(run.out.rfind("nvbandwidth Version: ", 0), 0u) << run.out;
  // The two version lines, the release, the interface in force and the blank line.
  EXPECT_EQ(countOf(run.out, "\n"), 5) << run.out;
  EXPECT_NE(run.out.find("\nInterface: v0.8\n\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.err, "");
}

TEST(Application, PairRestrictsTheRunAndSaysSo) {
  const AppRun run = runApp({"--pair", "GPU-00000000-0000-0000-0000-000000000002", "0", "-t",
                             "device_to_device_memcpy_read_ce"},
                            fakePlatform(FakeTopology(4)));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("NOTE: --pair: device-to-device testcases measure only GPUs 2 and 0."),
            std::string::npos)
      << run.out;
  // Row 0 has a value only in column 2, row 1 none.
  EXPECT_NE(run.out.find("\n 0       N/A       N/A"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n 1       N/A       N/A       N/A       N/A\n"), std::string::npos)
      << run.out;
}

TEST(Application, PairNamingAMissingGpuIsAUsageErrorBeforeTheHeader) {
  const AppRun run = runApp({"--pair", "0", "7"}, fakePlatform(FakeTopology(2)));
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err,
            "nvbandwidth: --pair: '7' names no GPU of this run (it has 2, indices 0-1) (see "
            "nvbandwidth --help)\n");
}

TEST(Application, SampledPairsAreNotedAndRecordedInTheSettings) {
  const AppRun run = runApp({"-P", "2", "-j", "-t", "20"}, fakePlatform(FakeTopology(8)));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  const json root = json::parse(run.out)["nvbandwidth"];
  EXPECT_EQ(root["settings"]["targetNumPairs"], 2);
  EXPECT_EQ(root["settings"]["useHugePages"], false);
  EXPECT_NE(root["warning"].get<std::string>().find("-P 2"), std::string::npos);
}

// A stop request (SIGINT from the handler in main) during the third testcase (the fake checks
// before each testcase and after each of its 3 samples): the first two are complete, the third is
// ERROR "interrupted by SIGINT", the rest absent; exit 128 + 2.
TEST(Application, InterruptedJsonRunKeepsWhatFinished) {
  int checks = 0;
  const StopRequest stop = [&] { return ++checks >= 10 ? SIGINT : 0; };
  const AppRun run = runApp({"-j", "-t", "0", "1", "2", "3"}, fakePlatform(FakeTopology(1)), stop);
  EXPECT_EQ(run.exitCode, 130);
  test::expectDcgmAccepts(run.out);
  const json root = json::parse(run.out)["nvbandwidth"];
  EXPECT_EQ(root["interrupted"], "SIGINT");
  const json& t = root["testcases"];
  ASSERT_EQ(t.size(), 3u) << root.dump(1);
  EXPECT_EQ(t[0]["status"], "Passed");
  EXPECT_EQ(t[1]["status"], "Passed");
  EXPECT_EQ(t[2]["name"], "host_to_device_bidirectional_memcpy_ce");
  EXPECT_EQ(t[2]["status"], "ERROR");
  EXPECT_EQ(t[2]["error"], "interrupted by SIGINT");
}

// The interruption line goes to stderr: after the last testcase on stdout, clients would read its
// numbers as that testcase's cells.
TEST(Application, InterruptedTextRunSaysSoOnStderr) {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    const StopRequest stop = [signal] { return signal; };
    const AppRun run = runApp({}, fakePlatform(FakeTopology(2)), stop);
    EXPECT_EQ(run.exitCode, 128 + signal);
    EXPECT_EQ(countOf(run.out, "Running "), 0);
    EXPECT_EQ(run.out.find("Interrupted by "), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("NOTE: The reported results"), std::string::npos) << run.out;
    EXPECT_EQ(run.err, "Interrupted by " + signalName(signal) + ": 0 of " +
                           std::to_string(makeRegistry().size()) +
                           " selected testcases reported above; the rest did not run.\n");
  }
}

// A stream whose device fills up after `room` characters, like stdout on a full disk.
class FullAfter final : public std::streambuf {
 public:
  explicit FullAfter(std::size_t room) : room_(room) {}
  std::string written;

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (written.size() >= room_) return traits_type::eof();
    written.push_back(traits_type::to_char_type(c));
    return c;
  }

 private:
  std::size_t room_;
};

TEST(Application, AWriteErrorOnStdoutStopsTheRunAndExitsOne) {
  for (const bool json : {false, true}) {
    FullAfter full(json ? 100 : 600);
    std::ostream out(&full);
    std::ostringstream err;
    int measured = 0;
    const PlatformFactory platform = fakePlatform(FakeTopology(1));
    AppContext context{
        platform, out, err, [&] { return ++measured, 0; }, {}, nullptr, RegistryScope::SingleNode};
    const int status =
        runCommandLine(json ? std::vector<std::string>{"-j"} : std::vector<std::string>{}, context);
    EXPECT_EQ(status, 1);
    EXPECT_EQ(err.str(), "nvbandwidth: cannot write to standard output\n");
    // The text report fails while the third testcase is printed (each asks 4 times whether to
    // stop): nothing after it runs.
    if (!json) {
      EXPECT_EQ(measured, 12) << "the run went on after its output failed";
    }
  }
}

TEST(Application, NoisyCellsAreNamedOnANoteLine) {
  test::FakeBehaviour behaviour;
  behaviour.jitter = 0.05;
  const AppRun run = runApp({"-t", "0"}, fakePlatform(FakeTopology(2), behaviour));
  EXPECT_NE(run.out.find("SUM host_to_device_memcpy_ce 381.00\n\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.err, "NOTE: host_to_device_memcpy_ce: samples vary by more than 2.00% (coefficient "
                     "of variation) in [0][0] 5.00%, [0][1] 5.00%\n");
}

TEST(Application, ThePeerAccessNoteComesFromTheTopology) {
  FakeTopology topo(3);
  topo.setPeerAccess(0, 2, false);
  const AppRun run = runApp({"-t", "34"}, fakePlatform(topo));
  EXPECT_NE(run.out.find("NOTE: no peer access between GPU 0 and 2"), std::string::npos);
}

TEST(Application, SmallBuffersGetTheWarningNamingTheRealDefault) {
  const AppRun run = runApp({"-b", "64", "-t", "0"}, fakePlatform(FakeTopology(1)));
  EXPECT_NE(run.out.find(smallBufferWarning() + "\n"), std::string::npos);
  EXPECT_NE(smallBufferWarning().find("(512 MiB)"), std::string::npos);
}

}  // namespace test_application
}  // namespace nvbw
