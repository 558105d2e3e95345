// Runs that are under way when a signal arrives or their output fails, with the fake-platform
// build of the application (the real command line, core and signal handling; no GPU): the report
// stays a valid document holding what finished, and the exit status says what happened.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "dcgm_check.h"
#include "run_binary.h"
#include "temp_dir.h"

namespace nvbw::test {
namespace test_cli_signals {

using nlohmann::json;

// Each sample of the fake takes 40 ms: a 2-GPU testcase (2 measurements x 3 samples) takes about
// a quarter of a second, so a signal after 0.6 s lands in the third testcase.
RunSpec fakeRun(std::vector<std::string> args) {
  RunSpec spec(NVBW_FAKE_BINARY, std::move(args));
  spec.env = {{"NVBW_FAKE_GPUS", "2"}, {"NVBW_FAKE_SAMPLE_MS", "40"}};
  spec.signalAfter = std::chrono::milliseconds(600);
  return spec;
}

class Interrupt : public ::testing::TestWithParam<int> {};

TEST_P(Interrupt, JsonRunPrintsAValidDocumentWithWhatFinished) {
  RunSpec spec = fakeRun({"-j"});
  spec.signal = GetParam();
  const RunResult run = runProgram(spec);
  EXPECT_EQ(run.exitCode, 128 + GetParam()) << describe(run);
  EXPECT_LT(run.seconds, 3.0) << "the run must stop within a sample, not run to the end";
  expectDcgmAccepts(run.out);
  const json root = json::parse(run.out)["nvbandwidth"];
  const std::string name = GetParam() == SIGINT    ? "SIGINT"
                           : GetParam() == SIGTERM ? "SIGTERM"
                                                   : "SIGHUP";
  EXPECT_EQ(root["interrupted"], name);
  const json& testcases = root["testcases"];
  ASSERT_GE(testcases.size(), 2u) << run.out;
  ASSERT_LT(testcases.size(), 35u) << run.out;
  for (std::size_t i = 0; i + 1 < testcases.size(); ++i)
    EXPECT_EQ(testcases[i]["status"], "Passed") << testcases[i];
  EXPECT_EQ(testcases.back()["status"], "ERROR");
  EXPECT_EQ(testcases.back()["error"], "interrupted by " + name);
}

// The interruption line is on stderr (on stdout, clients would read its numbers as the last
// testcase's cells); stdout ends with the interrupted testcase's ERROR line.
TEST_P(Interrupt, TextRunSaysSoOnStderr) {
  RunSpec spec = fakeRun({});
  spec.signal = GetParam();
  const RunResult run = runProgram(spec);
  EXPECT_EQ(run.exitCode, 128 + GetParam()) << describe(run);
  ASSERT_FALSE(run.out.empty());
  // stdout ends with the interrupted testcase's Running line (upstream's lines only); why it
  // stopped is on stderr: the testcase's ERROR line, then the run's.
  const std::size_t lastLine = run.out.rfind('\n', run.out.size() - 2);
  const std::string last = run.out.substr(lastLine + 1);
  EXPECT_EQ(last.rfind("Running ", 0), 0u) << describe(run);
  EXPECT_EQ(run.out.find("nterrupted by SIG"), std::string::npos) << describe(run);
  const std::size_t error = run.err.find("ERROR: interrupted by SIG");
  EXPECT_NE(error, std::string::npos) << describe(run);
  EXPECT_GT(run.err.find("Interrupted by SIG"), error) << describe(run);
  EXPECT_NE(run.out.find("SUM host_to_device_memcpy_ce"), std::string::npos) << describe(run);
}

INSTANTIATE_TEST_SUITE_P(Signals, Interrupt, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "signal" + std::to_string(info.param);
                         });

// A second Ctrl-C a while after the first does not wait for the sample (5 s here): the default
// action ends the process.
TEST(Interrupt, ASecondSignalEndsTheProcessAtOnce) {
  RunSpec twice("/bin/sh", {"-c", std::string(NVBW_FAKE_BINARY) +
                                      " & p=$!; sleep 0.3; kill -INT $p; sleep 1.3; kill -INT $p; "
                                      "wait $p; echo status=$?"});
  twice.env = {{"NVBW_FAKE_GPUS", "2"}, {"NVBW_FAKE_SAMPLE_MS", "5000"}};
  const RunResult run = runProgram(twice);
  EXPECT_NE(run.out.find("status=130"), std::string::npos) << describe(run);
  EXPECT_LT(run.seconds, 3.5) << describe(run);
}

// `timeout` sends its signal to the child and to the child's process group: the same request
// arrives twice at once. It must still end in a complete document, not a killed process.
TEST(Interrupt, ASignalDeliveredTwiceAtOnceIsOneRequest) {
  RunSpec spec("/usr/bin/timeout",
               {"--preserve-status", "-s", "INT", "0.6", NVBW_FAKE_BINARY, "-j"});
  spec.env = {{"NVBW_FAKE_GPUS", "2"}, {"NVBW_FAKE_SAMPLE_MS", "40"}};
  const RunResult run = runProgram(spec);
  EXPECT_EQ(run.exitCode, 130) << describe(run);
  expectDcgmAccepts(run.out);
  EXPECT_EQ(json::parse(run.out)["nvbandwidth"]["interrupted"], "SIGINT");
}

TEST(WriteErrors, AFullDiskDuringARunStopsItWithExitOne) {
  RunSpec spec(NVBW_FAKE_BINARY);
  spec.stdoutMode = StdoutMode::DevFull;
  const RunResult run = runProgram(spec);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_EQ(run.err, "nvbandwidth: cannot write to standard output: No space left on device\n");
}

TEST(WriteErrors, AClosedStdoutDuringAJsonRunIsReported) {
  RunSpec spec(NVBW_FAKE_BINARY, {"-j"});
  spec.stdoutMode = StdoutMode::Closed;
  const RunResult run = runProgram(spec);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_EQ(run.err, "nvbandwidth: cannot write to standard output: Bad file descriptor\n");
}

// A signal once the report is printed, while its files are written (NVBW_FAKE_SIGINT_AFTER stops
// the fake at the same point every time: here while the page is made): a stderr line names the
// files written and those that were not, which keep what they held.
TEST(Interrupt, WhileTheFilesAreWrittenSaysWhichWere) {
  const TempDir dir("files_signal");
  const std::string output = dir.write("o.json", "old\n");
  const std::string metrics = dir.write("m.prom", "old\n");
  const std::string page = dir / "p.html";
  RunSpec spec(NVBW_FAKE_BINARY, {"--output", output, "--metrics", metrics, "--html", page});
  spec.env = {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_FAKE_SIGINT_AFTER", "200"}};
  const RunResult run = runProgram(spec);
  EXPECT_EQ(run.exitCode, 130) << describe(run);
  EXPECT_NE(run.err.find("NOTE: stopped by SIGINT while the files were written: written: --html '" +
                         page + "'; not written (they keep what they held): --metrics '" + metrics +
                         "', --output '" + output + "'."),
            std::string::npos)
      << run.err;
  EXPECT_TRUE(std::filesystem::exists(page));
  std::ifstream in(output);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "old\n");
}

// A signal while the saved reports are read, before anything runs: with -j one valid document
// that says so; in text a line on stderr.
TEST(Interrupt, WhileSavedReportsAreReadJsonStillPrintsOneDocument) {
  const TempDir dir("read_signal");
  RunSpec save(NVBW_FAKE_BINARY, {"-j", "-t", "0"});
  save.env = {{"NVBW_FAKE_GPUS", "1"}};
  const std::string baseline = dir.write("base.json", runProgram(save).out);
  for (const bool jsonMode : {true, false}) {
    std::vector<std::string> args = {"-t", "0", "--baseline", baseline};
    if (jsonMode) args.insert(args.begin(), "-j");
    RunSpec spec(NVBW_FAKE_BINARY, args);
    spec.env = {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_FAKE_SIGINT_AFTER", "1"}};
    const RunResult run = runProgram(spec);
    EXPECT_EQ(run.exitCode, 130) << describe(run);
    const std::string what =
        "stopped by SIGINT while the files the command reads were read: nothing was measured";
    if (!jsonMode) {
      EXPECT_EQ(run.out, "");
      EXPECT_EQ(run.err, "NOTE: " + what + ".\n");
      continue;
    }
    expectDcgmAccepts(run.out);
    const json root = json::parse(run.out)["nvbandwidth"];
    EXPECT_EQ(root["error"], what);
    EXPECT_EQ(root["interrupted"], "SIGINT");
    EXPECT_EQ(root["testcases"], json::array());
  }
}

// A usage error is exit 2 even where its line cannot be written.
TEST(WriteErrors, AUsageErrorExitsTwoWhateverBecomesOfStderr) {
  for (const char* args : {"-b 0", "--bogus", "-l --output x.json"}) {
    RunSpec spec("/bin/sh", {"-c", std::string(NVBW_FAKE_BINARY) + " " + args + " 2>/dev/full"});
    EXPECT_EQ(runProgram(spec).exitCode, 2) << args;
  }
}

}  // namespace test_cli_signals
}  // namespace nvbw::test
