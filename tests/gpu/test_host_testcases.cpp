// The copy-engine host testcases and device_local_copy on a real GPU.
#include <nlohmann/json.hpp>

#include "gpu_environment.h"
#include "nvbandwidth/registry.h"
#include "nvbandwidth/runner.h"
#include "nvbandwidth/selection.h"

namespace nvbw::test {
namespace {

const char* const kCeHostKeys[] = {
    "host_to_device_memcpy_ce",       "device_to_host_memcpy_ce",
    "host_to_device_bidirectional_memcpy_ce", "device_to_host_bidirectional_memcpy_ce",
    "all_to_host_memcpy_ce",          "all_to_host_bidirectional_memcpy_ce",
    "host_to_all_memcpy_ce",          "host_to_all_bidirectional_memcpy_ce",
    "device_local_copy"};

std::vector<Selection> select(const std::vector<TestcaseDef>& reg,
                              const std::vector<std::string>& keys) {
  std::vector<Selection> out;
  for (const std::string& k : keys)
    for (std::size_t i = 0; i < reg.size(); ++i)
      if (reg[i].key == k) out.push_back({i, k, ""});
  return out;
}

void expectAllPassed(std::size_t bufferMiB, unsigned samples, unsigned long long loops) {
  const auto reg = makeRegistry();
  DriverTopology topo(gpu());
  ExecSettings s = quickSettings();
  s.samples = samples;
  s.loopCount = loops;
  auto runner = makeGpuPlanRunner(gpu(), s, nullptr);
  RecordingOutput out;
  std::vector<std::string> keys(std::begin(kCeHostKeys), std::end(kCeHostKeys));
  RunSummary summary = runTestcases(reg, select(reg, keys), topo, bufferMiB << 20, *runner, out);
  EXPECT_EQ(summary.errors, 0);
  ASSERT_EQ(out.results.size(), keys.size());
  for (const TestcaseResult& r : out.results) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(r.status, Status::Passed) << r.message;
    ASSERT_EQ(r.matrices.size(), 1u);
    for (int d = 0; d < gpu().deviceCount(); ++d) {
      const auto& cell = r.matrices[0].at(0, d);
      ASSERT_TRUE(cell.has_value());
      EXPECT_GT(cell->value, 1.0);  // GB/s: anything real is far above this
      EXPECT_EQ(cell->samples.size(), samples);
    }
  }
}

TEST(HostTestcases, PassVerificationAt64MiB) { expectAllPassed(64, 2, 4); }

TEST(HostTestcases, PassVerificationAtDefaultSize) { expectAllPassed(512, 3, 16); }

// A plan runner that corrupts the first plan it runs and behaves normally afterwards.
class CorruptFirst final : public PlanRunner {
 public:
  CorruptFirst() {
    ExecSettings bad = quickSettings();
    bad.corruptForTesting = true;
    corrupting_ = makeGpuPlanRunner(gpu(), bad, nullptr);
    normal_ = makeGpuPlanRunner(gpu(), quickSettings(), nullptr);
  }
  std::vector<MatrixResult> run(const Plan& plan,
                                const std::function<void(const SampleEvent&)>& sink) override {
    return (calls_++ == 0 ? corrupting_ : normal_)->run(plan, sink);
  }

 private:
  int calls_ = 0;
  std::unique_ptr<PlanRunner> corrupting_, normal_;
};

TEST(HostTestcases, CorruptedCopyIsAnErrorAndTheRunGoesOn) {
  const auto reg = makeRegistry();
  DriverTopology topo(gpu());
  CorruptFirst runner;
  RecordingOutput out;
  RunSummary summary =
      runTestcases(reg, select(reg, {"host_to_device_memcpy_ce", "device_to_host_memcpy_ce"}), topo,
                   64 << 20, runner, out);
  EXPECT_EQ(summary.errors, 1);
  EXPECT_EQ(summary.passed, 1);
  ASSERT_EQ(out.results.size(), 2u);
  EXPECT_EQ(out.results[0].status, Status::Error);
  EXPECT_NE(out.results[0].message.find("data verification failed"), std::string::npos)
      << out.results[0].message;
  EXPECT_NE(out.results[0].message.find("differ, the first at byte"), std::string::npos);
  EXPECT_EQ(out.results[1].status, Status::Passed) << out.results[1].message;
}

TEST(HostTestcases, VerboseSamplesNameOnlyMeasuredCopies) {
  const auto reg = makeRegistry();
  DriverTopology topo(gpu());
  auto runner = makeGpuPlanRunner(gpu(), quickSettings(), nullptr);
  RecordingOutput out;
  runTestcases(reg, select(reg, {"host_to_device_bidirectional_memcpy_ce"}), topo, 64 << 20,
               *runner, out);
  ASSERT_EQ(out.samples.size(), 2u * gpu().deviceCount());
  EXPECT_EQ(out.samples[0].label, "Host -> Device 0");
}

TEST(Binary, JsonRunOfOneTestcaseParses) {
  int status = 0;
  std::string out =
      runCommand(std::string(NVBW_BINARY) + " -j -b 64 -t 0 device_local_copy 2>/dev/null", &status);
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

}  // namespace
}  // namespace nvbw::test
