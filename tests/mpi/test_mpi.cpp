// The multinode build under mpirun without a GPU (oversubscribed, as root where CI runs as
// root): help, listing and usage errors print once and exit alike on every rank; the no-GPU
// path gives one valid document; and, on faked GPUs (nvbandwidth_mpi_fake), rank-to-GPU
// mapping, two ranks on one GPU, the memory-sharing decision, waivers, and an error injected on
// rank 1 that fails its testcase on rank 0's report while the run goes on.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dcgm_check.h"
#include "run_binary.h"
#include "text_search.h"
#include "upstream_keys.h"

namespace nvbw::test {
namespace {

using nlohmann::json;

struct MpiRun {
  int ranks = 2;
  std::string binary = NVBW_BINARY;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
};

RunResult mpirun(const MpiRun& r, std::optional<int> signal = std::nullopt) {
  std::vector<std::string> args = {"--allow-run-as-root", "--oversubscribe", "-n",
                                   std::to_string(r.ranks)};
  for (const auto& [name, value] : r.env) {
    args.push_back("-x");
    args.push_back(name);
  }
  args.push_back(r.binary);
  args.insert(args.end(), r.args.begin(), r.args.end());
  RunSpec spec(NVBW_MPIEXEC, args);
  spec.env = r.env;
  spec.env.emplace_back("OMPI_MCA_rmaps_base_oversubscribe", "1");
  spec.killAfter = std::chrono::seconds(60);
  spec.signal = signal;
  spec.signalAfter = std::chrono::milliseconds(1500);
  return runProgram(spec);
}

TEST(Mpi, HelpPrintsOnceAndExitsZero) {
  const RunResult run = mpirun({2, NVBW_BINARY, {"-h"}});
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(countOf(run.out, "nvbandwidth CLI:"), 1) << describe(run);
}

TEST(Mpi, ListingHasEveryTestcaseAtItsIndexOnce) {
  const RunResult run = mpirun({2, NVBW_BINARY, {"-l"}});
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(countOf(run.out, "Index, Name:"), 1) << describe(run);
  for (std::size_t i = 0; i < kUpstreamKeys.size(); ++i)
    EXPECT_EQ(countOf(run.out, "\n" + std::to_string(i) + ", " + kUpstreamKeys[i] + ":\n"), 1);
  for (std::size_t i = 0; i < kUpstreamMultinodeKeys.size(); ++i)
    EXPECT_EQ(
        countOf(run.out, "\n" + std::to_string(35 + i) + ", " + kUpstreamMultinodeKeys[i] + ":\n"),
        1)
        << kUpstreamMultinodeKeys[i];
  for (std::size_t i = 0; i < kV010Keys.size(); ++i)
    EXPECT_EQ(
        countOf(run.out, "\n" + std::to_string(kFirstV010Index + i) + ", " + kV010Keys[i] + ":\n"),
        1)
        << kV010Keys[i];
}

TEST(Mpi, UsageErrorsExitTwoOnEveryRankWithOneMessage) {
  const RunResult run = mpirun({2, NVBW_BINARY, {"-b", "0"}});
  EXPECT_EQ(run.exitCode, 2) << describe(run);
  EXPECT_EQ(countOf(run.err, "nvbandwidth: --bufferSize must be at least 1"), 1) << describe(run);
}

TEST(Mpi, WithoutAGpuEveryRankFailsAndOneDocumentIsPrinted) {
  if (gpuPresent()) GTEST_SKIP() << "a GPU is present";
  const RunResult run = mpirun({2, NVBW_BINARY, {"-j"}});
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_EQ(countOf(run.out, "\"nvbandwidth\""), 1) << describe(run);
  expectDcgmAccepts(run.out);
  EXPECT_NE(run.out.find("cannot start: rank 0: "), std::string::npos) << run.out;
}

MpiRun fake(int ranks, std::vector<std::string> args,
            std::vector<std::pair<std::string, std::string>> env = {}) {
  env.emplace_back("NVBANDWIDTH_DISABLE_MULTICAST", "1");
  return {ranks, NVBW_MPI_FAKE_BINARY, std::move(args), std::move(env)};
}

TEST(MpiFake, EachRankTakesItsOwnGpuAndTheHeaderListsThem) {
  const RunResult run = mpirun(fake(2, {"-t", "35"}));
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_NE(run.out.find("MPI version: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Process 0 (" + std::string()), std::string::npos);
  EXPECT_NE(run.out.find("): device 0: NVIDIA H200 (00000000:19:00)\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("): device 1: NVIDIA H200 (00000000:29:00)\n"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("Memory shared between processes through: POSIX file descriptors"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("SUM multinode_device_to_device_memcpy_read_ce "), std::string::npos);
  EXPECT_EQ(countOf(run.out, "Running multinode_device_to_device_memcpy_read_ce."), 1);
}

TEST(MpiFake, JsonNamesEveryProcessAndTheHandleType) {
  const RunResult run = mpirun(fake(2, {"-j", "-t", "35"}));
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  const json root = json::parse(run.out)["nvbandwidth"];
  ASSERT_EQ(root["processes"].size(), 2u);
  EXPECT_EQ(root["processes"][1]["device"], 1);
  EXPECT_EQ(root["memory_sharing"], "posix_fd");
  EXPECT_EQ(root["testcases"][0]["status"], "Passed");
}

TEST(MpiFake, TwoRanksOnOneGpuIsAStartupErrorOnEveryRank) {
  const RunResult run = mpirun(fake(2, {"-t", "35"}, {{"NVBW_FAKE_GPUS", "1"}}));
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_EQ(countOf(run.err, "ranks 0 and 1 would both use GPU"), 1) << describe(run);
}

// NVBW_LOGICAL_GPUS (a testing aid): the one GPU as several logical GPUs, ranks on different
// ones of it share it, memory is shared through POSIX file descriptors, and multicast is never
// tried; every multinode testcase that needs no multicast is measured.
TEST(MpiFake, RanksOnLogicalGpusOfOneGpuShareIt) {
  for (const int ranks : {2, 4}) {
    const RunResult run =
        mpirun(fake(ranks, {"-j", "-p", "multinode"},
                    {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_LOGICAL_GPUS", std::to_string(ranks)}}));
    SCOPED_TRACE(ranks);
    EXPECT_EQ(run.exitCode, 0) << describe(run);
    const json root = json::parse(run.out)["nvbandwidth"];
    EXPECT_EQ(root["logical_gpus"], ranks);
    EXPECT_EQ(root["memory_sharing"], "posix_fd");
    ASSERT_EQ(root["processes"].size(), static_cast<std::size_t>(ranks));
    EXPECT_EQ(root["processes"][0]["uuid"], root["processes"][ranks - 1]["uuid"]);
    EXPECT_EQ(root["processes"][ranks - 1]["device"], ranks - 1);
    std::set<std::string> passed;
    int multicast = 0;
    for (const json& entry : root["testcases"]) {
      if (entry["status"] == "Passed") {
        passed.insert(entry.value("testcase", entry["name"].get<std::string>()));
        continue;
      }
      EXPECT_EQ(entry["status"], "Waived") << entry.dump();
      if (entry.value("waive_reason", "")
              .find("needs multicast objects: disabled by "
                    "NVBANDWIDTH_DISABLE_MULTICAST=1") == 0)
        ++multicast;
    }
    EXPECT_EQ(passed.size(), 11u);  // the 13 multinode testcases but the 2 multicast ones
    EXPECT_EQ(multicast, 2);
  }
}

TEST(MpiFake, LogicalGpusNeverTryMulticast) {
  const MpiRun unset{
      2, NVBW_MPI_FAKE_BINARY, {"-t", "45"}, {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_LOGICAL_GPUS", "2"}}};
  const RunResult run = mpirun(unset);
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(countOf(run.err, "needs multicast objects: the GPUs are logical (NVBW_LOGICAL_GPUS): "
                             "multicast is never tried on them"),
            1)
      << run.err;
}

TEST(MpiFake, WithoutTheVariableTwoRanksStillMayNotShareAGpu) {
  const RunResult run =
      mpirun(fake(2, {"-t", "35"}, {{"NVBW_FAKE_GPUS", "1"}, {"NVBW_LOGICAL_GPUS", ""}}));
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_EQ(countOf(run.err, "ranks 0 and 1 would both use GPU"), 1) << describe(run);
}

TEST(MpiFake, LogicalGpusOfSeveralGpusStopEveryRank) {
  const RunResult run = mpirun(fake(2, {"-t", "35"}, {{"NVBW_LOGICAL_GPUS", "2"}}));
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_EQ(countOf(run.err, "NVBW_LOGICAL_GPUS=2 presents one GPU as several, and this process "
                             "sees 2 GPUs"),
            1)
      << describe(run);
}

TEST(MpiFake, AnErrorOnRankOneFailsThatTestcaseAndTheNextRuns) {
  const RunResult run =
      mpirun(fake(2, {"-t", "35", "36"},
                  {{"NVBW_FAKE_FAIL_RANK", "1"},
                   {"NVBW_FAKE_FAIL_TITLE", "memcpy CE GPU(row) -> GPU(column)"}}));
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_NE(run.err.find("ERROR: rank 1: Testcase multinode_device_to_device_memcpy_read_ce "
                         "failed: data verification failed"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("SUM multinode_device_to_device_memcpy_write_ce "), std::string::npos);
}

TEST(MpiFake, OneProcessWaivesEveryMultinodeTestcase) {
  const RunResult run = mpirun(fake(1, {"-p", "multinode"}));
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(countOf(run.out, "Waived: \n"), 13) << run.out;
  EXPECT_EQ(countOf(run.err, " waived: needs at least 2 processes, one per GPU (this run has 1)"),
            13)
      << run.err;
}

TEST(MpiFake, WithoutSharedMemoryTheMultinodeTestcasesSayWhy) {
  const RunResult run = mpirun(fake(2, {"-t", "35", "45"}, {{"NVBW_FAKE_SHARING", "none"}}));
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_NE(run.err.find("NOTE: multinode_device_to_device_memcpy_read_ce waived: cannot share "
                         "GPU memory between the processes: fabric handles are not usable"),
            std::string::npos)
      << run.err;
}

TEST(MpiFake, BroadcastsWaiveWhileMulticastIsDisabled) {
  const RunResult run = mpirun(fake(2, {"-t", "45", "46"}));
  EXPECT_EQ(
      countOf(run.err, "needs multicast objects: disabled by NVBANDWIDTH_DISABLE_MULTICAST=1"), 2)
      << run.err;
}

TEST(MpiFake, SingleProcessTestcasesAreMeasuredOnRankZeroAlone) {
  const RunResult run = mpirun(fake(2, {"-t", "0"}));
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(countOf(run.out, "SUM host_to_device_memcpy_ce"), 1);
}

// The document of a multi-process run (processes, memory sharing, bisect row labels) is one the
// schema describes.
TEST(MpiFake, JsonValidatesAgainstTheSchema) {
  const RunResult run = mpirun(fake(2, {"-j", "-v", "-t", "35", "47", "45"}));
  ASSERT_EQ(run.exitCode, 0) << describe(run);
  const std::string path = ::testing::TempDir() + "nvbw_mpi_report.json";
  std::FILE* file = std::fopen(path.c_str(), "w");
  ASSERT_NE(file, nullptr);
  std::fwrite(run.out.data(), 1, run.out.size(), file);
  std::fclose(file);
  const RunResult check = runProgram(
      RunSpec("/usr/bin/python3", {NVBW_SCHEMA_VALIDATOR,
                                   std::string(NVBW_DOCS_DIR) + "/nvbandwidth.schema.json", path}));
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
  std::remove(path.c_str());
  EXPECT_NE(run.out.find("\"row_labels\""), std::string::npos);
}

// mpirun passes SIGINT on to every rank (Open MPI sends SIGTERM): all stop after the same
// testcase, and rank 0 prints a complete document holding what finished.
TEST(MpiFake, AnInterruptedRunStopsEveryRankAndPrintsWhatFinished) {
  const RunResult run =
      mpirun(fake(2, {"-j", "-p", "multinode"}, {{"NVBW_FAKE_SAMPLE_MS", "100"}}), SIGINT);
  EXPECT_NE(run.exitCode, 0) << describe(run);
  EXPECT_FALSE(run.timedOut) << describe(run);
  EXPECT_LT(run.seconds, 10.0) << describe(run);
  const std::size_t start = run.out.find("{\n");
  ASSERT_NE(start, std::string::npos) << describe(run);
  const json root = json::parse(run.out.substr(start, run.out.rfind("}\n") + 2 - start));
  const std::string signal = root["nvbandwidth"].value("interrupted", "");
  EXPECT_TRUE(signal == "SIGINT" || signal == "SIGTERM") << run.out;
  const json& testcases = root["nvbandwidth"]["testcases"];
  ASSERT_FALSE(testcases.empty());
  EXPECT_LT(testcases.size(), 13u);
  EXPECT_EQ(testcases.back()["status"], "ERROR");
}

// Rank 0 reads the baseline before anything runs; a baseline it cannot use stops every rank
// alike with one message, and nothing is measured.
TEST(MpiFake, AnUnusableBaselineStopsEveryRankBeforeTheRun) {
  const std::string base =
      ::testing::TempDir() + "nvbw_mpi_bad_base_" + std::to_string(::getpid()) + ".json";
  std::ofstream(base) << R"({"nvbandwidth": {"testcases": [{"name": "x"}]}})";
  const RunResult run = mpirun(fake(2, {"-t", "35", "--baseline", base}));
  EXPECT_EQ(run.exitCode, 2) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(countOf(run.err, "not a usable report"), 1) << run.err;
  std::remove(base.c_str());
}

// ---- every failure path: one document with -j, one set of lines in text ------------------------

// How many documents stdout holds, each read as DCGM finds one (a line that is only "{" to the
// matching "}" line), and whether each is JSON.
int documentsIn(const std::string& out) {
  int documents = 0;
  std::size_t at = 0;
  while ((at = out.find("{\n", at)) != std::string::npos) {
    if (at != 0 && out[at - 1] != '\n') {
      ++at;
      continue;
    }
    const std::size_t end = out.find("\n}\n", at);
    if (end == std::string::npos) break;
    EXPECT_NO_THROW(json::parse(out.substr(at, end + 3 - at))) << out;
    ++documents;
    at = end + 3;
  }
  return documents;
}

struct FailurePath {
  const char* name;
  MpiRun run;
  int exitCode;
  const char* line;  // the line (its start) that says what failed, once
  bool document;     // whether -j prints a document (a usage error prints none, as one process)
};

std::vector<FailurePath> failurePaths() {
  const std::pair<std::string, std::string> fakeCuda = {"LD_LIBRARY_PATH", NVBW_FAKE_CUDA_DIR};
  std::vector<FailurePath> paths = {
      {"no GPU (driver sees none)",
       {2, NVBW_BINARY, {"-t", "0"}, {fakeCuda, {"FAKE_CUDA_MODE", "zero"}}},
       1,
       "ERROR: cannot start: rank 0: no CUDA-capable GPU is visible to this process",
       true},
      {"a stub driver",
       {2, NVBW_BINARY, {"-t", "0"}, {fakeCuda, {"FAKE_CUDA_MODE", "stub"}}},
       1,
       "ERROR: cannot start: rank 0: libcuda.so.1 is the CUDA toolkit's stub library",
       true},
      {"no GPU (faked)", fake(2, {"-t", "35"}, {{"NVBW_FAKE_GPUS", "0"}}), 1,
       "ERROR: cannot start: rank 0: no CUDA-capable GPU is visible to this process", true},
      {"a rank conflict (two ranks, one GPU)", fake(2, {"-t", "35"}, {{"NVBW_FAKE_GPUS", "1"}}), 1,
       "ERROR: cannot start: ranks 0 and 1 would both use GPU", true},
      {"a bad option", fake(2, {"-t", "35", "--no_such_option"}), 2,
       "nvbandwidth: unknown option '--no_such_option'", false},
      {"a bad value", fake(2, {"-t", "35", "-b", "0"}), 2,
       "nvbandwidth: --bufferSize must be at least 1", false},
      {"an unknown --pair GPU", fake(2, {"-t", "35", "--pair", "0", "7"}), 2,
       "nvbandwidth: ", false},
  };
  if (!gpuPresent())
    paths.push_back({"no driver",
                     {2, NVBW_BINARY, {"-t", "0"}},
                     1,
                     "ERROR: cannot start: rank 0: the NVIDIA driver is not installed",
                     true});
  return paths;
}

// Under `mpirun -n 2`, whatever fails first: exactly one document (rank 0's) with -j, exactly one
// set of lines in text, and every rank exits alike.
class MpiFailure : public ::testing::TestWithParam<std::size_t> {};

TEST_P(MpiFailure, PrintsOneDocumentAndOneSetOfLines) {
  const std::vector<FailurePath> paths = failurePaths();
  if (GetParam() >= paths.size()) GTEST_SKIP() << "a GPU is present: no no-driver path here";
  const FailurePath& path = paths[GetParam()];
  SCOPED_TRACE(path.name);
  const RunResult text = mpirun(path.run);
  EXPECT_EQ(text.exitCode, path.exitCode) << describe(text);
  EXPECT_FALSE(text.timedOut) << describe(text);
  EXPECT_EQ(countOf(text.out + text.err, path.line), 1) << describe(text);
  EXPECT_EQ(countOf(text.out, "nvbandwidth Version: "), path.document ? 1 : 0) << describe(text);
  EXPECT_EQ(countOf(text.err, "ERROR: ") + countOf(text.err, "nvbandwidth: "), 1) << describe(text);

  MpiRun withJ = path.run;
  withJ.args.insert(withJ.args.begin(), "-j");
  const RunResult doc = mpirun(withJ);
  EXPECT_EQ(doc.exitCode, path.exitCode) << describe(doc);
  EXPECT_EQ(documentsIn(doc.out), path.document ? 1 : 0) << describe(doc);
  EXPECT_EQ(countOf(doc.out, "\"nvbandwidth\""), path.document ? 1 : 0) << describe(doc);
  if (!path.document) {
    EXPECT_EQ(countOf(doc.err, path.line), 1) << describe(doc);
    return;
  }
  expectDcgmAccepts(doc.out);
  const std::string error = json::parse(doc.out)["nvbandwidth"].value("error", "");
  EXPECT_EQ(("ERROR: " + error).rfind(path.line, 0), 0u) << doc.out;
}

std::string failureName(const ::testing::TestParamInfo<std::size_t>& info) {
  static const char* const names[] = {"NoGpuSeenByTheDriver", "StubDriver", "NoGpuFaked",
                                      "RankConflict",         "BadOption",  "BadValue",
                                      "UnknownPairGpu",       "NoDriver"};
  return names[info.param];
}

INSTANTIATE_TEST_SUITE_P(Paths, MpiFailure, ::testing::Range<std::size_t>(0, 8), failureName);

// Ranks given different command lines (a launcher's per-rank arguments) stop together with one
// line, at once: none goes on alone into steps the others never reach.
TEST(MpiFailures, RanksWithDifferentCommandLinesStopTogether) {
  for (const std::vector<std::string>& second :
       {std::vector<std::string>{"-j", "-t", "35", "-b", "0"}, {"-j", "-t", "36"}, {"-h"}}) {
    RunSpec spec(NVBW_MPIEXEC,
                 {"--allow-run-as-root", "--oversubscribe", "-n", "1", NVBW_MPI_FAKE_BINARY, "-j",
                  "-t", "35", ":", "-n", "1", NVBW_MPI_FAKE_BINARY});
    spec.args.insert(spec.args.end(), second.begin(), second.end());
    spec.env = {{"OMPI_MCA_rmaps_base_oversubscribe", "1"}, {"NVBANDWIDTH_DISABLE_MULTICAST", "1"}};
    spec.killAfter = std::chrono::seconds(60);
    const RunResult run = runProgram(spec);
    EXPECT_EQ(run.exitCode, 2) << describe(run);
    EXPECT_LT(run.seconds, 30.0) << describe(run);
    EXPECT_EQ(run.out, "") << describe(run);
    EXPECT_EQ(countOf(run.err, "nvbandwidth: rank 1 was given another command line (or "
                               "NVBANDWIDTH_COMPAT) than rank 0: every process of a run needs "
                               "the same"),
              1)
        << describe(run);
  }
}

}  // namespace
}  // namespace nvbw::test

namespace nvbw::test {
namespace {

// --sweep across ranks: every rank runs every size (the multi-process testcase needs them all)
// and rank 0 prints one table. --html and --baseline are rank 0's: one file, one comparison.
TEST(MpiFake, SweepRunsEverySizeOnEveryRankAndPrintsOneTable) {
  const RunResult run = mpirun(fake(2, {"--sweep", "1:4", "-t", "35"}));
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(countOf(run.out, "Running multinode_device_to_device_memcpy_read_ce."), 1) << run.out;
  EXPECT_EQ(countOf(run.out, "Sweep of multinode_device_to_device_memcpy_read_ce (SUM, GB/s):"), 1);
}

TEST(MpiFake, HtmlAndBaselineAreRankZerosAlone) {
  const std::string dir = ::testing::TempDir() + "nvbw_mpi_fleet_" + std::to_string(::getpid());
  const std::string base = dir + "_base.json", html = dir + ".html";
  const RunResult saved = mpirun(fake(2, {"-j", "-t", "35"}));
  ASSERT_EQ(saved.exitCode, 0) << describe(saved);
  std::ofstream(base) << saved.out;
  const RunResult run = mpirun(fake(2, {"-t", "35", "--baseline", base, "--html", html}));
  EXPECT_EQ(run.exitCode, 0) << describe(run);
  EXPECT_EQ(countOf(run.err, "Comparison: 2 cells: 2 SAME"), 1) << run.err;
  std::ifstream page(html);
  std::stringstream text;
  text << page.rdbuf();
  EXPECT_EQ(text.str().rfind("<!DOCTYPE html>", 0), 0u);
  std::remove(base.c_str());
  std::remove(html.c_str());
}

}  // namespace
}  // namespace nvbw::test

#include <dirent.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace nvbw::test {
namespace {

// ---- a rank that dies or hangs mid-run ---------------------------------------------------------

// The pid of the rank `rank` of the job whose processes carry NVBW_TEST_TAG=`tag`, or 0.
pid_t rankPid(const std::string& tag, int rank) {
  pid_t found = 0;
  DIR* proc = opendir("/proc");
  if (!proc) return 0;
  while (dirent* entry = readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(entry->d_name));
    if (pid <= 0) continue;
    std::ifstream file(std::string("/proc/") + entry->d_name + "/environ");
    std::string environ((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const auto has = [&environ](const std::string& word) {
      return environ.find('\0' + word + '\0') != std::string::npos;
    };
    if (has("NVBW_TEST_TAG=" + tag) && has("OMPI_COMM_WORLD_RANK=" + std::to_string(rank))) {
      found = pid;
      break;
    }
  }
  closedir(proc);
  return found;
}

// Runs `run` under mpirun and sends rank 1 `signal` once it has run for `after` (counted from
// when its process is seen, so that a slow start on a loaded machine does not move the signal
// into the start-up). Sets `pid` to rank 1's pid (0: never seen) and kills it if still there.
RunResult mpirunSignallingRankOne(MpiRun run, int signal, std::chrono::seconds after, pid_t& pid) {
  const std::string tag = "rank-signal-" + std::to_string(::getpid());
  run.env.emplace_back("NVBW_TEST_TAG", tag);
  std::atomic<bool> finished{false};
  std::atomic<pid_t> seen{0};
  std::thread signaller([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!finished && !seen && std::chrono::steady_clock::now() < deadline) {
      seen = rankPid(tag, 1);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const auto at = std::chrono::steady_clock::now() + after;
    while (!finished && std::chrono::steady_clock::now() < at)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (seen && !finished) ::kill(seen, signal);
  });
  RunResult result = mpirun(run);
  finished = true;
  signaller.join();
  pid = seen;
  if (pid && rankPid(tag, 1) == pid) ::kill(pid, SIGKILL);  // a stopped rank left behind
  return result;
}

// A rank SIGKILLed mid-run: mpirun sends the survivor SIGTERM (and SIGKILL after
// odls_base_sigkill_timeout, raised here so that a loaded machine cannot turn the test into a
// race), rank 0 gives up the wait for the dead rank, says why on stderr, and its --output file
// holds one whole document: what finished, the interruption named in "error" and
// "error_detail". (mpirun stops passing on rank 0's stdout once it ends the job, so the file is
// where the document is whole.) Open MPI waits that timeout twice: from the death to the
// survivor's SIGTERM, and from there to its SIGKILL; 3 s leaves rank 0, which needs a tenth of a
// second to write its report, thirty times that (the default is 1 s), at a third of the wait of 8.
// Samples of 100 ms: the first testcase ends about a second into the run, the kill comes at 2 s
// and the whole run would take 8 s.
TEST(MpiFake, AKilledRankLeavesTheSurvivorsReportWhole) {
  const std::string file =
      ::testing::TempDir() + "nvbw_mpi_killed_" + std::to_string(::getpid()) + ".json";
  std::remove(file.c_str());
  pid_t pid = 0;
  const RunResult run = mpirunSignallingRankOne(fake(2, {"-p", "multinode", "--output", file},
                                                     {{"NVBW_FAKE_SAMPLE_MS", "100"},
                                                      {"NVBW_MPI_TIMEOUT_S", "30"},
                                                      {"OMPI_MCA_odls_base_sigkill_timeout", "3"}}),
                                                SIGKILL, std::chrono::seconds(2), pid);
  ASSERT_NE(pid, 0) << describe(run);
  EXPECT_NE(run.exitCode, 0) << describe(run);
  EXPECT_FALSE(run.timedOut) << describe(run);
  EXPECT_LT(run.seconds, 50.0) << describe(run);
  EXPECT_EQ(countOf(run.err, "nvbandwidth: rank 0 "), 1) << describe(run);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  json root;
  ASSERT_NO_THROW(root = json::parse(text.str())) << describe(run) << text.str();
  const json& doc = root["nvbandwidth"];
  const std::string error = doc.value("error", "");
  EXPECT_TRUE(error.find("interrupted by SIGTERM while waiting for the other processes") !=
                  std::string::npos ||
              error.find("no answer from the other processes") != std::string::npos)
      << error;
  EXPECT_NE(doc.value("error_detail", "").find("waited for: "), std::string::npos) << text.str();
  EXPECT_FALSE(doc["testcases"].empty()) << text.str();
  EXPECT_LT(doc["testcases"].size(), 13u) << "the run ended before the kill: " << text.str();
  std::remove(file.c_str());
}

// A rank that hangs (SIGSTOPped: mpirun sees nothing wrong): rank 0 waits NVBW_MPI_TIMEOUT_S,
// then prints one valid document naming the timeout, says why on stderr and ends the job with 1.
// Samples of 100 ms: a healthy rank waits at most a testcase (6 samples, 0.6 s) for the other,
// so a timeout of 3 s is five times the longest healthy wait; the stop comes at 2 s, after the
// first testcase (about 1 s in) and long before the last (8 s).
TEST(MpiFake, AHungRankEndsTheRunAtTheTimeoutWithOneDocument) {
  pid_t pid = 0;
  const RunResult run =
      mpirunSignallingRankOne(fake(2, {"-j", "-p", "multinode"},
                                   {{"NVBW_FAKE_SAMPLE_MS", "100"}, {"NVBW_MPI_TIMEOUT_S", "3"}}),
                              SIGSTOP, std::chrono::seconds(2), pid);
  ASSERT_NE(pid, 0) << describe(run);
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  EXPECT_FALSE(run.timedOut) << describe(run);
  EXPECT_LT(run.seconds, 50.0) << describe(run);
  EXPECT_EQ(documentsIn(run.out), 1) << describe(run);
  EXPECT_EQ(countOf(run.err, "nvbandwidth: rank 0: no answer from the other processes within 3 s"),
            1)
      << describe(run);
  const std::size_t start = run.out.find("{\n");
  ASSERT_NE(start, std::string::npos) << describe(run);
  const json doc = json::parse(run.out.substr(start))["nvbandwidth"];
  EXPECT_EQ(
      doc.value("error", "").rfind("rank 0: no answer from the other processes within 3 s", 0), 0u)
      << run.out;
  EXPECT_NE(doc.value("error_detail", "").find("of 3 s (NVBW_MPI_TIMEOUT_S)"), std::string::npos);
  EXPECT_FALSE(doc["testcases"].empty()) << run.out;
  EXPECT_LT(doc["testcases"].size(), 13u) << run.out;
}

}  // namespace
}  // namespace nvbw::test
