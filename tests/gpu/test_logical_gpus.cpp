// The multi-GPU testcases on real kernels with the one GPU of the test machine presented as N
// logical GPUs (NVBW_LOGICAL_GPUS, platform/logical_gpus.h): the same cuMemcpyAsync, SM, TMA and
// pointer-chase kernels, fills, latch over many streams, verification and rounds as on N GPUs;
// only the figures mean nothing. Each test runs the real program with a time limit, so a hang
// fails it. These tests stand as the proof of the engine's riskiest machinery:
//   - tail fills from a recorded pattern period (engine/buffer_content.h): the peer testcases in
//     one run keep their buffers from SM copies (truncated sizes) to copy-engine and TMA ones;
//     EveryPeerTestcasePasses asserts that tail fills happened and every check passed;
//   - fills queued behind the latch and awaited by event (engine/sample_protocol.cpp): up to 8
//     streams per measurement on one GPU, where a fill left behind a spin would never end;
//   - pairs in rounds (plans/schedule.h): RoundsMeasureTheCellsPairsDo;
//   - verification of every copy method: ACorruptedCopyIsCaught (a wrong byte in a CE, SM,
//     TMA or split-warp copy fails its testcase, and the next testcase still runs).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "gpu_environment.h"
#include "run_binary.h"

namespace nvbw::test {
namespace test_logical_gpus {

using nlohmann::json;

// The 22 testcases that need peers: every device-to-device, all-to-one, one-to-all, latency and
// TMA peer testcase.
const std::vector<std::string> kPeerPrefixes = {"-p", "device_to_device", "all_to_one",
                                                "one_to_all"};
constexpr std::size_t kPeerTestcases = 22;

RunResult runLogical(int gpus, std::vector<std::string> args,
                     std::vector<std::pair<std::string, std::string>> env = {},
                     int limitSeconds = 240) {
  RunSpec spec(NVBW_BINARY, std::move(args));
  spec.env = std::move(env);
  spec.env.emplace_back("NVBW_LOGICAL_GPUS", std::to_string(gpus));
  spec.env.emplace_back("NVBANDWIDTH_DISABLE_MULTICAST", "1");
  spec.killAfter = std::chrono::seconds(limitSeconds);
  return runProgram(spec);
}

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

json runObject(const RunResult& r) {
  const json doc = json::parse(r.out, nullptr, false);
  return doc.is_discarded() ? json() : doc.value("nvbandwidth", json());
}

// Every entry passed and every cell that has a pair of distinct GPUs holds a value; the
// testcases that ran, by name.
std::set<std::string> expectEveryCell(const json& run, int gpus) {
  std::set<std::string> testcases;
  for (const json& entry : run.value("testcases", json::array())) {
    const std::string name = entry.value("name", "");
    SCOPED_TRACE(name);
    testcases.insert(entry.value("testcase", name));
    EXPECT_EQ(entry.value("status", ""), "Passed") << entry.value("error", "");
    const json& matrix = entry.value("bandwidth_matrix", json::array());
    const bool square = matrix.size() == static_cast<std::size_t>(gpus);
    if (!square) {
      EXPECT_EQ(matrix.size(), 1u);  // all-to-one, one-to-all: one row of GPUs
    }
    for (std::size_t r = 0; r < matrix.size(); ++r) {
      EXPECT_EQ(matrix[r].size(), static_cast<std::size_t>(gpus));
      for (std::size_t c = 0; c < matrix[r].size(); ++c)
        EXPECT_EQ(matrix[r][c] == "N/A", square && r == c) << r << " " << c;
    }
  }
  return testcases;
}

class EveryPeerTestcasePasses : public ::testing::TestWithParam<int> {};

TEST_P(EveryPeerTestcasePasses, OnLogicalGpus) {
  const int gpus = GetParam();
  const std::string size = gpus == 2 ? "512" : gpus == 3 ? "64" : "16";
  const RunResult run = runLogical(gpus, with({"-j", "-i", "2", "-b", size}, kPeerPrefixes));
  ASSERT_EQ(run.exitCode, 0) << describe(run);
  const json report = runObject(run);
  EXPECT_EQ(report["logical_gpus"], gpus);
  EXPECT_EQ(expectEveryCell(report, gpus).size(), kPeerTestcases);
  // The SM copies move truncated sizes (by whole pattern periods from 64 MiB on); the copy-engine
  // and TMA testcases after them complete the kept buffers from the pattern period where the
  // record ends, and verification passed.
  if (gpus != 8) {
    EXPECT_GT(report["operations"].value("tail_fills", 0), 0) << report["operations"].dump();
  }
  ASSERT_TRUE(report.contains("notes")) << describe(run);
  EXPECT_EQ(report["notes"][0].get<std::string>().rfind(
                "NOTE: NVBW_LOGICAL_GPUS=" + std::to_string(gpus), 0),
            0u);
}

INSTANTIATE_TEST_SUITE_P(LogicalGpus, EveryPeerTestcasePasses, ::testing::Values(2, 3, 8));

// Rounds of disjoint pairs measure the cells that pair by pair does, every check passing; on 8
// GPUs a pairwise testcase runs in 14 rounds of 4 pairs.
TEST(LogicalGpus, RoundsMeasureTheCellsPairsDo) {
  const std::vector<std::string> args =
      with({"-j", "-i", "2", "-b", "16"}, with(kPeerPrefixes, {"--schedule", "rounds"}));
  const RunResult rounds = runLogical(8, args);
  ASSERT_EQ(rounds.exitCode, 0) << describe(rounds);
  EXPECT_EQ(rounds.err.find("NOTE: --schedule"), std::string::npos) << rounds.err;
  const json report = runObject(rounds);
  EXPECT_EQ(expectEveryCell(report, 8).size(), kPeerTestcases);
  int inRounds = 0;
  for (const json& entry : report["testcases"])
    if (entry.value("schedule", "") == "rounds") {
      ++inRounds;
      EXPECT_EQ(entry["rounds"], 14) << entry["name"];
    }
  EXPECT_GE(inRounds, 14);  // the pairwise testcases (and their matrices)
}

TEST(LogicalGpus, PairAndTargetNumPairsWork) {
  const RunResult pair =
      runLogical(4, {"-j", "-i", "2", "-b", "16", "--pair", "1", "3", "-t",
                     "device_to_device_memcpy_read_ce", "device_to_device_latency_sm"});
  ASSERT_EQ(pair.exitCode, 0) << describe(pair);
  for (const json& entry : runObject(pair)["testcases"]) {
    SCOPED_TRACE(entry["name"].get<std::string>());
    EXPECT_EQ(entry["status"], "Passed");
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        const bool measured = (r == 1 && c == 3) || (r == 3 && c == 1);
        EXPECT_EQ(entry["bandwidth_matrix"][r][c] != "N/A", measured) << r << " " << c;
      }
  }
  const RunResult some = runLogical(
      4, {"-j", "-i", "2", "-b", "16", "-P", "2", "-t", "device_to_device_memcpy_read_sm"});
  ASSERT_EQ(some.exitCode, 0) << describe(some);
  const json entry = runObject(some)["testcases"][0];
  EXPECT_EQ(entry["status"], "Passed");
  int cells = 0;
  for (const json& row : entry["bandwidth_matrix"])
    for (const json& cell : row) cells += cell != "N/A" ? 1 : 0;
  EXPECT_GE(cells, 2);
  EXPECT_LE(cells, 4);  // at most 2 pairs, each measured both ways
}

struct Corruption {
  const char* method;
  const char* testcase;
  const char* copies;  // NVBW_TEST_CORRUPT_COPIES
};

class ACorruptedCopyIsCaught : public ::testing::TestWithParam<Corruption> {};

TEST_P(ACorruptedCopyIsCaught, ByItsVerification) {
  const Corruption c = GetParam();
  const RunResult run =
      runLogical(2, {"-j", "-i", "2", "-b", "16", "-t", c.testcase, "device_local_copy"},
                 {{"NVBW_TEST_CORRUPT_COPIES", c.copies}});
  EXPECT_EQ(run.exitCode, 1) << describe(run);
  const json entries = runObject(run)["testcases"];
  ASSERT_GE(entries.size(), 2u) << describe(run);
  const json& failed = entries[0];
  EXPECT_EQ(failed["status"], "ERROR") << failed.dump();
  EXPECT_NE(failed.value("error", "").find("data verification failed"), std::string::npos)
      << failed.dump();
  EXPECT_NE(failed.value("error", "").find("1024 of "), std::string::npos)  // 4 KiB of words
      << failed.dump();
  EXPECT_EQ(entries.back()["name"], "device_local_copy");  // the run went on
  EXPECT_EQ(entries.back()["status"], "Passed");
}

INSTANTIATE_TEST_SUITE_P(
    LogicalGpus, ACorruptedCopyIsCaught,
    ::testing::Values(Corruption{"CopyEngine", "device_to_device_memcpy_write_ce", "0-1,1-0"},
                      Corruption{"SmCopy", "device_to_device_memcpy_read_sm", "0-1,1-0"},
                      Corruption{"Tma", "device_to_device_memcpy_read_tma", "0-1,1-0"},
                      Corruption{"SplitWarp", "host_to_all_bidirectional_memcpy_sm",
                                 "host-1,1-host"}),
    [](const ::testing::TestParamInfo<Corruption>& info) { return info.param.method; });

#ifdef NVBW_MULTINODE_BINARY
// Two and four ranks of the multinode build on logical GPUs of the one GPU: memory shared through
// POSIX file descriptors on it, every multinode testcase that needs no multicast measured and
// verified, one document, exit 0.
TEST(LogicalGpusMpi, RanksOnOneGpuRunEveryMultinodeTestcase) {
  for (const int ranks : {2, 4}) {
    SCOPED_TRACE(ranks);
    RunSpec spec(NVBW_MPIEXEC,
                 {"--allow-run-as-root", "--oversubscribe", "-n", std::to_string(ranks), "-x",
                  "NVBW_LOGICAL_GPUS", "-x", "NVBANDWIDTH_DISABLE_MULTICAST", NVBW_MULTINODE_BINARY,
                  "-j", "-i", "2", "-b", "64", "-p", "multinode"});
    spec.env = {{"NVBW_LOGICAL_GPUS", std::to_string(ranks)},
                {"NVBANDWIDTH_DISABLE_MULTICAST", "1"},
                {"OMPI_MCA_rmaps_base_oversubscribe", "1"}};
    spec.killAfter = std::chrono::seconds(300);
    const RunResult run = runProgram(spec);
    ASSERT_EQ(run.exitCode, 0) << describe(run);
    const json report = runObject(run);
    EXPECT_EQ(report["logical_gpus"], ranks);
    EXPECT_EQ(report["memory_sharing"], "posix_fd");
    EXPECT_EQ(report["processes"].size(), static_cast<std::size_t>(ranks));
    std::set<std::string> passed;
    int multicast = 0;
    for (const json& entry : report["testcases"]) {
      if (entry["status"] == "Passed") {
        passed.insert(entry.value("testcase", entry["name"].get<std::string>()));
        continue;
      }
      EXPECT_EQ(entry["status"], "Waived") << entry.dump();
      multicast += entry.value("waive_reason", "").find("multicast") != std::string::npos;
    }
    EXPECT_EQ(passed.size(), 11u);
    EXPECT_EQ(multicast, 2);
  }
}
#endif

}  // namespace test_logical_gpus
}  // namespace nvbw::test
