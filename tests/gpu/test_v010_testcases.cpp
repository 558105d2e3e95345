// The v0.10 testcases on a real GPU: TMA copies between and within GPUs, the SM copy within one
// GPU, the SM read-only and write-only passes, at small and default sizes with their data
// checked; and the pointer chase through the TMA, between peers and (through a hand-made plan)
// within one GPU's memory, so that its kernel runs on a one-GPU machine too.
#include <nlohmann/json.hpp>

#include "app/testcase_loop.h"
#include "gpu_environment.h"
#include "plans/pattern.h"
#include "plans/registry.h"
#include "platform/driver_topology.h"

namespace nvbw::test {
namespace test_v010_testcases {

const std::vector<std::string> kLocalKeys = {"device_local_copy_tma", "device_local_copy_sm",
                                             "device_local_read_sm", "device_local_write_sm"};
const std::vector<std::string> kTmaPeerKeys = {"device_to_device_memcpy_read_tma",
                                               "device_to_device_memcpy_write_tma",
                                               "device_to_device_bidirectional_memcpy_read_tma",
                                               "device_to_device_bidirectional_memcpy_write_tma"};

bool twoPeers() {
  return gpu().deviceCount() >= 2 && gpu().canAccessPeer(0, 1) && gpu().canAccessPeer(1, 0);
}

// Every off-diagonal cell of every matrix holds `samples` samples and a positive value.
void expectPeerCellsFilled(const std::vector<TestcaseResult>& results, unsigned samples) {
  for (const TestcaseResult& r : results) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(r.status, Status::Passed) << r.message;
    for (const MatrixResult& m : r.matrices)
      for (std::size_t row = 0; row < m.spec.rows; ++row)
        for (std::size_t col = 0; col < m.spec.cols; ++col) {
          if (row == col) continue;
          const auto& cell = m.at(row, col);
          ASSERT_TRUE(cell.has_value()) << m.spec.key << " [" << row << "][" << col << "]";
          EXPECT_GT(cell->value(), 0.0);
          EXPECT_EQ(cell->samples().size(), samples);
        }
  }
}

std::vector<TestcaseResult> runPeerKeys(std::size_t bufferMiB, unsigned loops) {
  RunSettings s = quickSettings();
  s.loopCount = loops;
  auto runner = makeGpuPlanExecutor(gpu(), s);
  RecordingOutput out;
  const LoopSummary summary = runKeys(kTmaPeerKeys, bufferMiB, *runner, out);
  EXPECT_EQ(summary.errors, 0);
  return out.results;
}

TEST(V010Testcases, LocalPassesVerifyAt1MiB) { expectAllPassed(kLocalKeys, 1); }
TEST(V010Testcases, LocalPassesVerifyAt64MiB) { expectAllPassed(kLocalKeys, 64); }
TEST(V010Testcases, LocalPassesVerifyAtDefaultSize) { expectAllPassed(kLocalKeys, 512, 2, 16); }

// An odd multiple of the TMA chunk and of the stage count (the kernels' tails).
TEST(V010Testcases, LocalPassesVerifyAt3MiB) { expectAllPassed(kLocalKeys, 3); }

TEST(V010Testcases, LocalBandwidthIsInHbmRange) {
  const auto results = expectAllPassed(kLocalKeys, 512, 2, 16);
  for (const TestcaseResult& r : results) {
    const double gbps = r.matrices.at(0).at(0, 0)->value();
    // H200 HBM3e peaks at 4.8 TB/s: a kernel that skipped its work would exceed it, one that
    // serialised would fall far below.
    EXPECT_GT(gbps, 500.0) << r.name;
    EXPECT_LT(gbps, 5000.0) << r.name;
  }
}

TEST(V010Testcases, TmaPeerCopiesVerifyAt1MiB) {
  if (!twoPeers()) GTEST_SKIP() << "needs two GPUs with peer access";
  expectPeerCellsFilled(runPeerKeys(1, 4), 2);
}

TEST(V010Testcases, TmaPeerCopiesVerifyAtDefaultSize) {
  if (!twoPeers()) GTEST_SKIP() << "needs two GPUs with peer access";
  expectPeerCellsFilled(runPeerKeys(512, 8), 2);
}

// A TMA copy or write-only pass whose destination is damaged after the copy, and a read-only
// pass whose sum is, fail verification; every testcase of the run still runs.
TEST(V010Testcases, CorruptedTmaCopyAndLocalPassesAreErrors) {
  auto corrupting = makeCorruptingExecutor();
  RecordingOutput out;
  const LoopSummary summary =
      runKeys({"device_local_copy_tma", "device_local_write_sm", "device_local_read_sm",
               "device_local_copy", "device_local_copy_sm"},
              16, *corrupting, out);
  ASSERT_EQ(out.results.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(out.results[i].status, Status::Error) << out.results[i].name;
    EXPECT_NE(out.results[i].message.find("data verification failed"), std::string::npos)
        << out.results[i].message;
  }
  EXPECT_EQ(summary.errors, 5);
}

TEST(V010Testcases, CorruptedTmaPeerCopyIsAnError) {
  if (!twoPeers()) GTEST_SKIP() << "needs two GPUs with peer access";
  auto corrupting = makeCorruptingExecutor();
  RecordingOutput out;
  runKeys({"device_to_device_memcpy_write_tma"}, 16, *corrupting, out);
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0].status, Status::Error);
  EXPECT_NE(out.results[0].message.find("data verification failed"), std::string::npos)
      << out.results[0].message;
}

// The SM copy within one GPU (simple kernel below 64 MiB, striding from 64 MiB) at sizes that are
// not multiples of the striding kernel's thread count.
TEST(V010Testcases, LocalCopySmVerifiesAtOddSizes) {
  expectAllPassed({"device_local_copy_sm"}, 5);
  expectAllPassed({"device_local_copy_sm"}, 65);
}

// device_local_copy_sm beside device_local_copy and device_local_copy_tma in one run of the
// binary: each cell within (25%, 100%] of the HBM peak in the bytes-copied convention (half the
// memory bandwidth: a copy reads and writes every byte). Below 25% the kernel would be far off
// what an SM copy reaches (the TMA copy, 80% on an H200); above 100% it would have skipped work.
TEST(V010Testcases, LocalCopySmIsAPlausibleFractionOfHbm) {
  int status = 0;
  const std::string out =
      runCommand(std::string(NVBW_BINARY) + " -j -i 3 -t device_local_copy device_local_copy_sm "
                                            "device_local_copy_tma 2>/dev/null",
                 &status);
  ASSERT_EQ(status, 0) << out;
  const nlohmann::json doc = nlohmann::json::parse(out);
  int checked = 0;
  for (const nlohmann::json& e : doc["nvbandwidth"]["testcases"]) {
    const std::string name = e["name"];
    SCOPED_TRACE(name);
    if (e["status"] == "Waived") {
      EXPECT_EQ(name, "device_local_copy_tma") << "only the TMA copy may be waived (below 9.0)";
      continue;
    }
    ASSERT_EQ(e["status"], "Passed");
    for (std::size_t c = 0; c < e["values"][0].size(); ++c) {
      ASSERT_EQ(e["links"][0][c], "HBM");
      ASSERT_FALSE(e["percent_of_peak"][0][c].is_null());
      const double pct = e["percent_of_peak"][0][c];
      EXPECT_GT(pct, 25.0) << "GPU " << c << ": " << e["values"][0][c];
      EXPECT_LE(pct, 100.0) << "GPU " << c << ": " << e["values"][0][c];
      if (name == "device_local_copy_sm") ++checked;
    }
  }
  EXPECT_EQ(checked, gpu().deviceCount());
}

bool allHopper() {
  const DriverTopology topo(gpu());
  return !needsTma(topo).has_value();
}

// One GPU (the first, through CUDA_VISIBLE_DEVICES, on any machine): waived for want of a peer,
// or, below compute capability 9.0, for want of the TMA.
TEST(V010Testcases, TmaLatencyIsWaivedOnOneGpu) {
  int status = -1;
  const std::string out = runCommand("CUDA_VISIBLE_DEVICES=" + gpu().uuid(0) + " " + NVBW_BINARY +
                                         " -t device_to_device_latency_tma 2>&1",
                                     &status);
  EXPECT_EQ(status, 0) << out;
  const DriverTopology topo(gpu());
  const std::string reason =
      topo.computeCapability(0) >= 90
          ? "needs two GPUs with peer access; this system has 1 GPU\n"
          : "needs the Tensor Memory Accelerator (compute capability 9.0 or later); GPU 0 is ";
  // Upstream's bare line on stdout, the reason on stderr (both captured here).
  EXPECT_NE(out.find("Waived: \n"), std::string::npos) << out;
  EXPECT_NE(out.find("NOTE: device_to_device_latency_tma waived: " + reason), std::string::npos)
      << out;
  EXPECT_EQ(out.find("SUM device_to_device_latency_tma"), std::string::npos) << out;
}

// Both chases between two peers: every off-diagonal cell measured -i times, in nanoseconds, in
// a plausible range (an NVLink round trip is near 0.8 us on H200s; a bulk copy adds its issue
// and the mbarrier's completion), and the TMA chase not faster than half the load chase (it
// waits for the same memory; the executor also checks that each launch ended on the node the
// chain predicts).
TEST(V010Testcases, TmaLatencyBetweenPeersIsPlausible) {
  if (!twoPeers()) GTEST_SKIP() << "needs two GPUs with peer access";
  if (!allHopper()) GTEST_SKIP() << "needs compute capability 9.0";
  RunSettings s = quickSettings();
  s.samples = 3;
  auto runner = makeGpuPlanExecutor(gpu(), s);
  RecordingOutput out;
  const LoopSummary summary =
      runKeys({"device_to_device_latency_tma", "device_to_device_latency_sm"}, 512, *runner, out);
  EXPECT_EQ(summary.errors, 0);
  ASSERT_EQ(out.results.size(), 2u);
  expectPeerCellsFilled(out.results, 3);
  const MatrixResult& tma = out.results[0].matrices.at(0);
  const MatrixResult& sm = out.results[1].matrices.at(0);
  EXPECT_EQ(tma.spec.unit, Unit::Nanoseconds);
  EXPECT_EQ(tma.spec.title, "memory latency TMA GPU(row) <-> GPU(column) (ns)");
  for (std::size_t r = 0; r < tma.spec.rows; ++r)
    for (std::size_t c = 0; c < tma.spec.cols; ++c) {
      if (r == c || !tma.at(r, c)) continue;
      const double ns = tma.at(r, c)->value();
      RecordProperty("tma_ns_" + std::to_string(r) + "_" + std::to_string(c), std::to_string(ns));
      EXPECT_GT(ns, 100.0) << r << "," << c;
      EXPECT_LT(ns, 20000.0) << r << "," << c;
      ASSERT_TRUE(sm.at(r, c).has_value());
      EXPECT_GT(ns, 0.5 * sm.at(r, c)->value()) << r << "," << c;
    }
}

// The TMA chase kernel on one GPU's own memory, through a plan the registry does not have: it
// runs, ends on the predicted node in every launch of every sample, and lands in a plausible
// range, not below half the load chase over the same chain.
TEST(V010Testcases, TmaChaseRunsOnLocalMemory) {
  if (!allHopper()) GTEST_SKIP() << "needs compute capability 9.0";
  Plan plan;
  plan.matrices = {{"", "latency", Unit::Nanoseconds, 1, 2}};
  Measurement tma, load;
  tma.latency =
      LatencySpec{BufferSpec::onDevice(0, kLatencyBufferBytes), 0, ChaseAccess::TmaBulkCopy};
  tma.outputs = {{0, 0, 0, ValueSource::Copy, 0}};
  load.latency = LatencySpec{BufferSpec::onDevice(0, kLatencyBufferBytes), 0, ChaseAccess::SmLoad};
  load.outputs = {{0, 0, 1, ValueSource::Copy, 0}};
  plan.measurements = {tma, load};
  RunSettings s = quickSettings();
  s.samples = 3;
  const PlanResult result = makeGpuPlanExecutor(gpu(), s)->run(plan, nullptr);
  const MatrixResult& m = result.matrices.at(0);
  ASSERT_TRUE(m.at(0, 0) && m.at(0, 1));
  EXPECT_EQ(m.at(0, 0)->samples().size(), 3u);
  const double tmaNs = m.at(0, 0)->value(), loadNs = m.at(0, 1)->value();
  RecordProperty("local_tma_ns", std::to_string(tmaNs));
  RecordProperty("local_load_ns", std::to_string(loadNs));
  EXPECT_GT(tmaNs, 20.0);
  EXPECT_LT(tmaNs, 20000.0);
  EXPECT_GT(tmaNs, 0.5 * loadNs);
  ASSERT_EQ(result.measurements.size(), 2u);
  EXPECT_EQ(result.measurements[0].series.at(0).label, "Device 0 reading Device 0");
}

// -H either allocates from huge pages or, where none are reserved, waives the host testcases.
TEST(V010Testcases, HugePagesRunOrWaiveWithAReason) {
  int status = -1;
  const std::string out =
      runCommand(std::string(NVBW_BINARY) + " -H -t 0 32 34 -i 2 -b 64 2>&1", &status);
  EXPECT_EQ(status, 0) << out;
  if (out.find("no huge pages are reserved") != std::string::npos) {
    EXPECT_NE(out.find("NOTE: host_to_device_memcpy_ce waived: -H: no huge pages"),
              std::string::npos)
        << out;
  } else {
    EXPECT_NE(out.find("NOTE: -H: pinned host buffers come from"), std::string::npos) << out;
    EXPECT_NE(out.find("SUM host_to_device_memcpy_ce"), std::string::npos) << out;
  }
  EXPECT_NE(out.find("SUM device_local_copy "), std::string::npos) << out;  // no host memory
}

TEST(V010Testcases, PairByUuidRunsThatPair) {
  if (!twoPeers()) GTEST_SKIP() << "needs two GPUs with peer access";
  int status = -1;
  const std::string out = runCommand(std::string(NVBW_BINARY) + " --pair " + gpu().uuid(1) +
                                         " 0 -t device_to_device_memcpy_read_ce -i 1 -b 16 2>&1",
                                     &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("NOTE: --pair: device-to-device testcases measure only GPUs 1 and 0."),
            std::string::npos)
      << out;
}

}  // namespace test_v010_testcases
}  // namespace nvbw::test
