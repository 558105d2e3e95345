// The copy-engine host testcases and device_local_copy on a real GPU.
#include <nlohmann/json.hpp>

#include "app/selection.h"
#include "app/testcase_loop.h"
#include "core/statistics.h"
#include "gpu_environment.h"
#include "plans/registry.h"

namespace nvbw::test {
namespace test_host_testcases {

const char* const kCeHostKeys[] = {"host_to_device_memcpy_ce",
                                   "device_to_host_memcpy_ce",
                                   "host_to_device_bidirectional_memcpy_ce",
                                   "device_to_host_bidirectional_memcpy_ce",
                                   "all_to_host_memcpy_ce",
                                   "all_to_host_bidirectional_memcpy_ce",
                                   "host_to_all_memcpy_ce",
                                   "host_to_all_bidirectional_memcpy_ce",
                                   "device_local_copy"};

const std::vector<std::string> kKeys(std::begin(kCeHostKeys), std::end(kCeHostKeys));

TEST(HostTestcases, PassVerificationAt64MiB) { expectAllPassed(kKeys, 64); }

TEST(HostTestcases, PassVerificationAtDefaultSize) {
  for (const TestcaseResult& r : expectAllPassed(kKeys, 512, 3, 16)) {
    SCOPED_TRACE(r.name);
    // Far above anything a broken measurement would give, far below PCIe Gen4 x16.
    EXPECT_GT(r.matrices.at(0).at(0, 0)->value(), 5.0);
  }
}

// A plan runner that corrupts the first plan it runs and behaves normally afterwards.
class CorruptFirst final : public PlanExecutor {
 public:
  PlanResult run(const Plan& plan, const ProgressSink& progress) override {
    return (calls_++ == 0 ? corrupting_ : normal_)->run(plan, progress);
  }

 private:
  int calls_ = 0;
  std::unique_ptr<PlanExecutor> corrupting_ = makeCorruptingExecutor();
  std::unique_ptr<PlanExecutor> normal_ = makeGpuPlanExecutor(gpu(), quickSettings());
};

TEST(HostTestcases, CorruptedCopyIsAnErrorAndTheRunGoesOn) {
  CorruptFirst runner;
  RecordingOutput out;
  const LoopSummary summary =
      runKeys({"host_to_device_memcpy_ce", "device_to_host_memcpy_ce"}, 64, runner, out);
  EXPECT_EQ(summary.errors, 1);
  ASSERT_EQ(out.results.size(), 2u);
  EXPECT_EQ(out.results[0].status, Status::Error);
  EXPECT_NE(out.results[0].message.find("data verification failed"), std::string::npos)
      << out.results[0].message;
  EXPECT_NE(out.results[0].message.find("differ, the first at byte"), std::string::npos);
  EXPECT_EQ(out.results[1].status, Status::Passed) << out.results[1].message;
}

// A host destination is checked partly by its GPU (the leading part, across the link) and
// partly by the CPU (the rest): a wrong word is caught, and placed, wherever it is, in the first
// sample and in a later one (after the share moved to the speeds the first showed).
TEST(HostTestcases, ACorruptedHostDestinationIsCaughtAnywhereInAnySample) {
  for (const double at : {0.0, 0.3, 0.7, 1.0}) {
    for (const unsigned sample : {0u, 2u}) {
      SCOPED_TRACE(std::to_string(at) + " in sample " + std::to_string(sample));
      auto faults = std::make_shared<CorruptFirstCopy>(at, sample);
      RunSettings settings = quickSettings();
      settings.samples = 3;
      auto runner = makeCorruptingExecutor(faults, settings);
      RecordingOutput out;
      runKeys({"device_to_host_memcpy_ce"}, 64, *runner, out);
      ASSERT_EQ(out.results.size(), 1u);
      EXPECT_EQ(out.results[0].status, Status::Error);
      const std::string& m = out.results[0].message;
      EXPECT_NE(m.find("in sample " + std::to_string(sample) + ": 1024 of "), std::string::npos)
          << m;
      EXPECT_NE(m.find("the first at byte " + std::to_string(faults->lastOffset())),
                std::string::npos)
          << m;
    }
  }
}

TEST(HostTestcases, VerboseSamplesNameOnlyMeasuredCopies) {
  auto runner = makeGpuPlanExecutor(gpu(), quickSettings());
  RecordingOutput out;
  runKeys({"host_to_device_bidirectional_memcpy_ce"}, 64, *runner, out);
  ASSERT_EQ(out.results.size(), 1u);
  const auto& records = out.results[0].measurements;
  ASSERT_EQ(records.size(), static_cast<std::size_t>(gpu().deviceCount()));
  ASSERT_EQ(records[0].series.size(), 1u);  // the interference copy is not reported
  EXPECT_EQ(records[0].series[0].label, "Host -> Device 0");
  EXPECT_EQ(records[0].series[0].samples.size(), 2u);
}

// The reported value of every cell is exactly the median of its stored samples.
TEST(HostTestcases, CellValuesAreTheMedianOfTheirSamples) {
  for (const TestcaseResult& r :
       expectAllPassed({"host_to_device_memcpy_ce", "host_device_latency_sm"}, 64, 3)) {
    const CellResult& cell = *r.matrices.at(0).at(0, 0);
    EXPECT_EQ(cell.value(), median(cell.samples())) << r.name;
  }
}

TEST(Binary, JsonRunOfOneTestcaseParses) {
  int status = 0;
  std::string out = runCommand(
      std::string(NVBW_BINARY) + " -j -b 64 -t 0 device_local_copy 2>/dev/null", &status);
  EXPECT_EQ(status, 0);
  auto doc = nlohmann::json::parse(out);
  const auto& tcs = doc.at("nvbandwidth").at("testcases");
  ASSERT_EQ(tcs.size(), 2u);
  EXPECT_EQ(tcs[0].at("status"), "Passed");
  EXPECT_EQ(tcs[1].at("name"), "device_local_copy");
  EXPECT_GT(tcs[1].at("sum").get<double>(), 100.0);
}

TEST(Binary, UnknownTestcaseIsAnErrorButOthersRun) {
  int status = 0;
  std::string out = runCommand(std::string(NVBW_BINARY) + " -b 64 -t nope 0 2>&1", &status);
  EXPECT_EQ(status, 1);
  EXPECT_NE(out.find("ERROR: Testcase nope not found!"), std::string::npos) << out;
  EXPECT_NE(out.find("SUM host_to_device_memcpy_ce"), std::string::npos) << out;
}

}  // namespace test_host_testcases
}  // namespace nvbw::test
