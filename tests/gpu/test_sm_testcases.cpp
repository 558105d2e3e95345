// The SM copy host testcases and host latency on a real GPU (issue: SM copy kernels).
#include "app/testcase_loop.h"
#include "gpu_environment.h"
#include "plans/pattern.h"
#include "plans/sm_geometry.h"

namespace nvbw::test {
namespace test_sm_testcases {

const std::vector<std::string> kSmHostKeys = {"host_to_device_memcpy_sm",
                                              "device_to_host_memcpy_sm",
                                              "host_to_device_bidirectional_memcpy_sm",
                                              "device_to_host_bidirectional_memcpy_sm",
                                              "all_to_host_memcpy_sm",
                                              "all_to_host_bidirectional_memcpy_sm",
                                              "host_to_all_memcpy_sm",
                                              "host_to_all_bidirectional_memcpy_sm"};

TEST(SmTestcases, PassVerificationAt1MiB) { expectAllPassed(kSmHostKeys, 1); }
TEST(SmTestcases, PassVerificationAt16MiB) { expectAllPassed(kSmHostKeys, 16); }
TEST(SmTestcases, PassVerificationAt64MiB) { expectAllPassed(kSmHostKeys, 64); }
TEST(SmTestcases, PassVerificationAt512MiB) { expectAllPassed(kSmHostKeys, 512, 3, 16); }

// The pointer chase ends on the node the chain predicts (the executor checks the final pointer
// of every launch), and host memory is slower than a microsecond-scale sanity band allows.
TEST(SmTestcases, HostLatencyChasesTheWholeChain) {
  auto results = expectAllPassed({"host_device_latency_sm"}, 512, 2);
  ASSERT_EQ(results.size(), 1u);
  const auto& m = results[0].matrices.at(0);
  EXPECT_EQ(m.spec.unit, Unit::Nanoseconds);
  const double ns = m.at(0, 0)->value();
  EXPECT_GT(ns, 100.0);
  EXPECT_LT(ns, 20000.0);
}

// A split-warp copy whose destination is damaged after the copy must fail verification, and the
// next testcase must still run.
TEST(SmTestcases, CorruptedSplitWarpCopyIsCaught) {
  auto corrupting = makeCorruptingExecutor();
  RecordingOutput out;
  const LoopSummary summary =
      runKeys({"host_to_device_bidirectional_memcpy_sm"}, 16, *corrupting, out);
  EXPECT_EQ(summary.errors, 1);
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0].status, Status::Error);
  EXPECT_NE(out.results[0].message.find("data verification failed"), std::string::npos)
      << out.results[0].message;
}

// With -s the copies still run and report, the data is just not checked.
TEST(SmTestcases, SkipVerificationStillMeasures) {
  RunSettings s = quickSettings();
  s.verify = false;
  auto runner = makeGpuPlanExecutor(gpu(), s);
  RecordingOutput out;
  runKeys({"host_to_device_memcpy_sm"}, 16, *runner, out);
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0].status, Status::Passed) << out.results[0].message;
}

}  // namespace test_sm_testcases
}  // namespace nvbw::test
