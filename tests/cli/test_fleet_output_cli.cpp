// --output and --metrics (issue 19) on the fake binary and on saved reports: the file holds what
// stdout holds (or the format its name asks for), the %-substitutions name it, it is never left
// half written (the writer is killed mid-write), never written over the command's own --from
// input, and a failed write is a clear message and exit 1.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_binary.h"
#include "temp_dir.h"
#include "temp_file.h"

namespace test_fleet_output_cli {

namespace fs = std::filesystem;
using nlohmann::json;
using nvbw::test::RunResult;
using nvbw::test::RunSpec;

const std::string kFleet = std::string(NVBW_GOLDEN_DIR) + "/fleet/";

using Folder = nvbw::test::TempDir;

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

RunResult fake(const std::vector<std::string>& args,
               std::vector<std::pair<std::string, std::string>> env = {}) {
  RunSpec spec(NVBW_FAKE_BINARY, args);
  env.push_back({"NVBW_FAKE_GPUS", "2"});
  spec.env = env;
  spec.unsetEnv = {"SLURM_JOB_ID", "OMPI_MCA_orte_ess_jobid", "PMIX_NAMESPACE"};
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

RunResult nvbandwidth(const std::vector<std::string>& args) {
  RunSpec spec(NVBW_BINARY, args);
  spec.killAfter = std::chrono::seconds(60);
  return nvbw::test::runProgram(spec);
}

std::string hostName() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

TEST(OutputCli, JsonFileNamedBySubstitutionsHoldsWhatStdoutHolds) {
  Folder dir("output");
  const RunResult run =
      fake({"-t", "0", "-j", "--output", dir / "%h-%r-%j-100%%.json"}, {{"SLURM_JOB_ID", "4242"}});
  ASSERT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  const std::string file = dir / (hostName() + "-0-4242-100%.json");
  ASSERT_TRUE(fs::exists(file)) << "missing " << file;
  EXPECT_EQ(readText(file), run.out);  // stdout is as without --output
  const json doc = json::parse(readText(file));
  EXPECT_TRUE(doc["nvbandwidth"].contains("hostname"));
  EXPECT_TRUE(doc["nvbandwidth"]["started_at"].is_string());
  EXPECT_EQ(dir.names().size(), 1u);  // no temporary file left
}

TEST(OutputCli, JobIdFallsBackToNojob) {
  Folder dir("output");
  const RunResult run = fake({"-t", "0", "--output", dir / "%j.txt"});
  ASSERT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  EXPECT_EQ(dir.names(), std::vector<std::string>{"nojob.txt"});
}

TEST(OutputCli, TextFileIsThePrintedReportAndHtmlFileIsThePage) {
  Folder dir("output");
  const RunResult text = fake({"-t", "0", "--output", dir / "run.txt"});
  ASSERT_EQ(text.exitCode, 0) << nvbw::test::describe(text);
  EXPECT_EQ(readText(dir / "run.txt"), text.out);
  const RunResult page = fake({"-t", "0", "--output", dir / "run.html"});
  ASSERT_EQ(page.exitCode, 0) << nvbw::test::describe(page);
  EXPECT_EQ(page.out.rfind("nvbandwidth Version", 0), 0u) << page.out;  // stdout: text as always
  const std::string html = readText(dir / "run.html");
  EXPECT_NE(html.find("<html"), std::string::npos);
  EXPECT_NE(html.find("host_to_device_memcpy_ce"), std::string::npos);
}

TEST(OutputCli, JsonOptionWithAnotherNameWritesJson) {
  Folder dir("output");
  const RunResult run = fake({"-t", "0", "-j", "--output", dir / "run.out"});
  ASSERT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  EXPECT_TRUE(json::parse(readText(dir / "run.out")).contains("nvbandwidth"));
}

TEST(OutputCli, AnUnknownSubstitutionIsAUsageErrorBeforeTheRun) {
  Folder dir("output");
  for (const char* pattern : {"%x.json", "r%", "%H"}) {
    const RunResult run = fake({"-t", "0", "--output", dir / pattern});
    EXPECT_EQ(run.exitCode, 2) << pattern << nvbw::test::describe(run);
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err.find("is not a substitution"), std::string::npos) << run.err;
  }
  EXPECT_TRUE(dir.names().empty());
}

TEST(OutputCli, NeverWritesOverItsOwnFromInputAlsoThroughALink) {
  Folder dir("output");
  const std::string report = dir / "report.json";
  fs::copy_file(kFleet + "fake_base.json", report);
  fs::create_symlink(report, dir / "link.json");
  const std::string before = readText(report);
  for (const auto& [from, output] : std::vector<std::pair<std::string, std::string>>{
           {report, report}, {report, dir / "link.json"}, {dir / "link.json", report}}) {
    const RunResult run = nvbandwidth({"--from", from, "--output", output});
    EXPECT_EQ(run.exitCode, 2) << nvbw::test::describe(run);
    EXPECT_NE(run.err.find("which this command reads: it would be lost"), std::string::npos)
        << run.err;
    EXPECT_EQ(readText(report), before);
  }
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"link.json", "report.json"}));
}

TEST(OutputCli, FromWritesJsonOrHtmlButNotText) {
  Folder dir("output");
  const RunResult saved =
      nvbandwidth({"--from", kFleet + "fake_base.json", "--output", dir / "copy.json"});
  ASSERT_EQ(saved.exitCode, 0) << nvbw::test::describe(saved);
  EXPECT_EQ(json::parse(readText(dir / "copy.json")),
            json::parse(readText(kFleet + "fake_base.json")));
  const RunResult text =
      nvbandwidth({"--from", kFleet + "fake_base.json", "--output", dir / "copy.txt"});
  EXPECT_EQ(text.exitCode, 2) << nvbw::test::describe(text);
  EXPECT_NE(text.err.find("JSON (.json or -j) or HTML (.html)"), std::string::npos) << text.err;
}

TEST(OutputCli, UnwritableTargetsAreRefusedBeforeTheRun) {
  Folder dir("output");
  const RunResult missing = fake({"-t", "0", "--output", dir / "no/such/dir/r.json"});
  EXPECT_EQ(missing.exitCode, 2) << nvbw::test::describe(missing);
  EXPECT_EQ(missing.out, "");
  EXPECT_NE(missing.err.find("--output"), std::string::npos);
  const RunResult device = fake({"-t", "0", "--output", "/dev/full"});
  EXPECT_EQ(device.exitCode, 2) << nvbw::test::describe(device);
  EXPECT_EQ(device.out, "");
}

TEST(OutputCli, AFailedWriteSaysSoExitsOneAndLeavesNothing) {
  Folder dir("output");
  writeText(dir / "r.json", "old");
  // A 4 KiB file-size limit: the report (about 2.6 KiB of JSON here, more as a page) cannot be
  // written in full. prlimit sets it for the program alone.
  RunSpec spec("/usr/bin/prlimit",
               {"--fsize=1024", NVBW_FAKE_BINARY, "-t", "0", "-j", "--output", dir / "r.json"});
  spec.env = {{"NVBW_FAKE_GPUS", "2"}};
  const RunResult run = nvbw::test::runProgram(spec);
  EXPECT_EQ(run.exitCode, 1) << nvbw::test::describe(run);
  EXPECT_NE(run.err.find("nvbandwidth: --output"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("cannot be written"), std::string::npos) << run.err;
  EXPECT_EQ(readText(dir / "r.json"), "old");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"r.json"});
}

// A full disk (ENOSPC): an 8 KiB tmpfs mounted in a mount namespace of the test's own, where
// unshare and mount are allowed (else skipped). The report does not fit: one line naming the
// reason, exit 1, the old file kept, no temporary file left.
TEST(OutputCli, AFullDiskSaysSoExitsOneAndKeepsTheOldFile) {
  Folder dir("output");
  const std::string tiny = dir / "tiny";
  fs::create_directory(tiny);
  const std::string script = "mount -t tmpfs -o size=8k tmpfs '" + tiny + "' || exit 77\n" +
                             "echo old > '" + tiny + "/r.json'\n'" + NVBW_FAKE_BINARY +
                             "' -t 0 1 2 -j --output '" + tiny +
                             "/r.json' > /dev/null\nstatus=$?\nls -A '" + tiny + "'\ncat '" + tiny +
                             "/r.json'\nexit $status\n";
  RunSpec spec("/usr/bin/unshare", {"-m", "/bin/sh", "-c", script});
  spec.env = {{"NVBW_FAKE_GPUS", "2"}};
  const RunResult run = nvbw::test::runProgram(spec);
  if (run.exitCode == 77 || (run.exitCode == 1 && run.out.empty()))
    GTEST_SKIP() << "cannot mount a tmpfs here: " << run.err;
  EXPECT_EQ(run.exitCode, 1) << nvbw::test::describe(run);
  EXPECT_NE(run.err.find("nvbandwidth: --output"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("No space left on device"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "r.json\nold\n");
}

// The size of the first hidden (temporary) file in `dir` that has data, or 0.
std::uintmax_t hiddenFileBytes(const Folder& dir) {
  for (const std::string& name : dir.names()) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(dir / name, ec);
    if (name[0] == '.' && !ec && size > 0) return size;
  }
  return 0;
}

// Starts `args` and stops it (SIGSTOP) as soon as its temporary file in `dir` holds data, then
// kills it (SIGKILL). Returns the bytes the temporary file held while the writer was stopped: 0
// when the run ended, or had already renamed the file, before it could be stopped.
std::uintmax_t stopAndKillWhenWriting(const Folder& dir, const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int devNull = open("/dev/null", O_WRONLY);
    dup2(devNull, STDOUT_FILENO);
    dup2(devNull, STDERR_FILENO);
    std::vector<std::string> copies(args);
    std::vector<char*> argv{const_cast<char*>(NVBW_BINARY)};
    for (std::string& arg : copies) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  std::uintmax_t seen = 0;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (hiddenFileBytes(dir) > 0 || std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGSTOP);
      waitpid(pid, &status, WUNTRACED);
      if (!WIFSTOPPED(status)) break;  // it ended first: reaped already
      seen = hiddenFileBytes(dir);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(200);
  }
  return seen;
}

// Kills a writer of `args` while its temporary file is in the folder, that is, before the
// rename that puts the report in place. The report goes out in one write(), which a stop signal
// cannot split, so the file is often whole by then; what is checked is that nothing but the
// rename ever touches the target. An attempt whose writer ended or renamed before it was stopped
// is tried again, up to eight times. Returns the bytes the temporary file held (0: never caught).
std::uintmax_t killBeforeRename(const Folder& dir, const std::vector<std::string>& args,
                                bool withOld) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    if (withOld) writeText(dir / "copy.json", "old report");
    const std::uintmax_t written = stopAndKillWhenWriting(dir, args);
    if (written > 0) return written;
    std::cout << "attempt " << attempt << ": the writer was not caught before the rename\n";
    std::error_code ec;
    for (const std::string& name : dir.names())
      if (name != "big.json") fs::remove(dir / name, ec);
  }
  return 0;
}

// A report of ~15 MB (32 fake GPUs, 20 samples a cell) takes the writer long enough (a quarter
// of a second or more) that a SIGKILL lands while the file is being written; after every kill
// the target holds either the old text or the whole new report, never part of it.
TEST(OutputCli, KilledMidWriteLeavesTheOldFileOrTheWholeReport) {
  Folder dir("output");
  RunSpec make(NVBW_FAKE_BINARY, {"-j", "-i", "20"});
  make.env = {{"NVBW_FAKE_GPUS", "32"}};
  make.killAfter = std::chrono::seconds(300);
  const RunResult big = nvbw::test::runProgram(make);
  ASSERT_EQ(big.exitCode, 0) << big.err;
  ASSERT_GT(big.out.size(), 10u << 20);
  writeText(dir / "big.json", big.out);

  // Whole runs first: what a complete file holds, and how long the fastest run takes (on a
  // shared machine the first is often slower).
  double fastest = 1e9;
  std::string complete;
  for (int i = 0; i < 2; ++i) {
    const auto whole = nvbandwidth({"--from", dir / "big.json", "--output", dir / "copy.json"});
    ASSERT_EQ(whole.exitCode, 0) << nvbw::test::describe(whole);
    fastest = std::min(fastest, whole.seconds);
    complete = readText(dir / "copy.json");
    fs::remove(dir / "copy.json");
  }
  ASSERT_EQ(complete, big.out);

  constexpr int kSteps = 8;
  int killed = 0, midWrite = 0;
  for (int step = 0; step < kSteps; ++step) {
    const bool withOld = step % 2 == 0;
    if (withOld) writeText(dir / "copy.json", "old report");
    RunSpec spec(NVBW_BINARY, {"--from", dir / "big.json", "--output", dir / "copy.json"});
    spec.signal = SIGKILL;
    // From the first quarter of the run (parsing) to its very end (the write and the rename):
    // on a shared machine a run may go faster than the whole runs above, so that kills late in
    // the run miss, and the early ones make sure that at least half of them land.
    spec.signalAfter = std::chrono::milliseconds(
        static_cast<long>(fastest * 1000.0 * (0.25 + 0.75 * step / (kSteps - 1))));
    const RunResult run = nvbw::test::runProgram(spec);
    if (run.signal == SIGKILL) ++killed;
    if (!fs::exists(dir / "copy.json")) {
      EXPECT_FALSE(withOld) << "step " << step << ": the old file is gone";
    } else {
      const std::string now = readText(dir / "copy.json");
      EXPECT_TRUE(now == complete || (withOld && now == "old report"))
          << "step " << step << ": a partial file of " << now.size() << " bytes";
    }
    std::error_code ec;
    fs::remove(dir / "copy.json", ec);
    // A killed writer cannot remove its temporary file: it is hidden, and --summarize skips it.
    // One left behind means the kill came while the report was being written.
    for (const std::string& name : dir.names())
      if (name != "big.json") {
        EXPECT_EQ(name[0], '.') << name;
        ++midWrite;
        fs::remove(dir / name, ec);
      }
  }
  // Killed while the temporary file is being written, with and without an old file.
  for (const bool withOld : {true, false}) {
    const std::uintmax_t partial =
        killBeforeRename(dir, {"--from", dir / "big.json", "--output", dir / "copy.json"}, withOld);
    ASSERT_GT(partial, 0u) << "the writer was never caught before the rename";
    EXPECT_LE(partial, complete.size());
    if (withOld)
      EXPECT_EQ(readText(dir / "copy.json"), "old report");
    else
      EXPECT_FALSE(fs::exists(dir / "copy.json"));
    std::cout << "killed with " << partial << " of " << complete.size() << " bytes written, "
              << (withOld ? "the old file kept" : "no file") << "\n";
    std::error_code ec;
    for (const std::string& name : dir.names())
      if (name != "big.json") fs::remove(dir / name, ec);
  }
  std::cout << "report " << (big.out.size() >> 20) << " MiB, fastest whole run " << fastest
            << " s; " << killed << " of " << kSteps << " runs killed, " << midWrite
            << " of them while writing the file\n";
  EXPECT_GE(killed, 4) << "the kills came too late to test anything";
}

TEST(MetricsCli, ARunAndASavedReportGiveMetricsFiles) {
  Folder dir("output");
  const RunResult run = fake({"-t", "0", "--metrics", dir / "run.prom"});
  ASSERT_EQ(run.exitCode, 0) << nvbw::test::describe(run);
  const std::string prom = readText(dir / "run.prom");
  EXPECT_NE(prom.find("nvbandwidth_bandwidth_bytes_per_second{"), std::string::npos);
  EXPECT_NE(prom.find("nvbandwidth_run_start_timestamp_seconds"), std::string::npos);
  EXPECT_NE(prom.find("nvbandwidth_run_duration_seconds"), std::string::npos);
  const RunResult from =
      nvbandwidth({"--from", kFleet + "fake_base.json", "--metrics", dir / "from.prom"});
  ASSERT_EQ(from.exitCode, 0) << nvbw::test::describe(from);
  EXPECT_EQ(from.out, "");
  EXPECT_NE(readText(dir / "from.prom").find("nvbandwidth_testcase_status{"), std::string::npos);
}

TEST(MetricsCli, AComparisonGivesVerdicts) {
  Folder dir("output");
  const RunResult run = nvbandwidth({"--compare", kFleet + "fake_base.json",
                                     kFleet + "fake_slower.json", "--metrics", dir / "c.prom"});
  EXPECT_EQ(run.exitCode, 3) << nvbw::test::describe(run);
  const std::string prom = readText(dir / "c.prom");
  EXPECT_NE(prom.find("nvbandwidth_comparison_verdict{"), std::string::npos);
  EXPECT_NE(prom.find("verdict=\"SLOWER\"} 1"), std::string::npos) << prom;
}

TEST(MetricsCli, NeverWritesOverAnInput) {
  Folder dir("output");
  const std::string report = dir / "r.json";
  fs::copy_file(kFleet + "fake_base.json", report);
  const RunResult run = nvbandwidth({"--from", report, "--metrics", report});
  EXPECT_EQ(run.exitCode, 2) << nvbw::test::describe(run);
  EXPECT_EQ(readText(report), readText(kFleet + "fake_base.json"));
}

}  // namespace test_fleet_output_cli
