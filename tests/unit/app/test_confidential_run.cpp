// Whole runs on a fake confidential-computing host (NVBW_FAKE_CONFIDENTIAL=1): the fake's device
// blocks a host copy's thread until its stream is idle and gives copy kernels wrong data across
// the bus (support/fake_platform.cpp), so a run that latched its host copies, or ran kernels on
// host memory, would fail its testcases; upstream v0.10's notice and waivers; no verdict of
// those testcases' figures changes what a normal host prints.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"

namespace nvbw {
namespace test_confidential_run {

using nlohmann::json;
using test::AppRun;
using test::fakePlatform;
using test::runApp;

const std::vector<std::string> kHostTestcases = {"-t", "0",  "1",  "2",  "3", "8",
                                                 "10", "16", "18", "32", "34"};

AppRun runOn(bool confidential, std::vector<std::string> args) {
  FakeTopology gpu(1);
  gpu.setConfidentialComputing(confidential);
  args.insert(args.end(), kHostTestcases.begin(), kHostTestcases.end());
  return runApp(args, fakePlatform(gpu));
}

const char* const kNotice =
    "Detected platform using encrypted bounce buffers for CPU<->GPU traffic.";

TEST(ConfidentialRun, OneWayCopiesAreMeasuredInOrderAndTheRestWaived) {
  const AppRun r = runOn(true, {"-j"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json run = json::parse(r.out)["nvbandwidth"];
  EXPECT_EQ(run["confidential_computing"], true);
  std::vector<std::string> passed, waived;
  for (const json& e : run["testcases"]) {
    EXPECT_NE(e["status"], "ERROR") << e.dump();  // no hang, no wrong data
    (e["status"] == "Passed" ? passed : waived).push_back(e["name"]);
    if (e["name"] == "host_to_device_bidirectional_memcpy_ce") {
      EXPECT_EQ(e["waive_reason"], "bounce-buffer confidential computing enabled");
    }
  }
  EXPECT_EQ(passed, (std::vector<std::string>{"host_to_device_memcpy_ce",
                                              "device_to_host_memcpy_ce", "all_to_host_memcpy_ce",
                                              "host_to_all_memcpy_ce", "device_local_copy"}));
  EXPECT_EQ(waived.size(), 5u);
}

TEST(ConfidentialRun, TheNoticeIsTheFirstLineInBothInterfaces) {
  for (const std::vector<std::string>& mode :
       std::vector<std::vector<std::string>>{{}, {"--compat", "v0.10"}}) {
    const AppRun r = runOn(true, mode);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.rfind(std::string(kNotice) + "\n\nnvbandwidth Version: ", 0), 0u) << r.out;
  }
  const AppRun normal = runOn(false, {});
  EXPECT_EQ(normal.out.find(kNotice), std::string::npos);
  EXPECT_EQ(normal.out.rfind("nvbandwidth Version: ", 0), 0u);
}

// v0.10's own lines for the testcases it waives; v0.8 keeps its bare line, the reason on stderr.
TEST(ConfidentialRun, WaiverLinesAreEachInterfacesOwn) {
  const AppRun v010 = runOn(true, {"--compat", "v0.10"});
  for (const char* key :
       {"host_to_device_bidirectional_memcpy_ce", "device_to_host_bidirectional_memcpy_ce"})
    EXPECT_NE(v010.out.find(std::string("\nWaived ") + key +
                            ": bounce-buffer confidential computing enabled\n"),
              std::string::npos)
        << v010.out;
  EXPECT_EQ(v010.out.find("Waived: \n"), std::string::npos);
  EXPECT_EQ(v010.err.find(" waived: "), std::string::npos) << v010.err;
  const AppRun v08 = runOn(true, {});
  EXPECT_EQ(v08.out.find("Waived host_"), std::string::npos);
  EXPECT_NE(v08.out.find("Waived: \n"), std::string::npos);
  EXPECT_NE(v08.err.find("NOTE: host_to_device_bidirectional_memcpy_ce waived: bounce-buffer "
                         "confidential computing enabled"),
            std::string::npos)
      << v08.err;
}

// The fake's confidential device stops what would hang or read wrong data there: a host copy
// latched behind its spin kernel, a copy kernel on host memory.
TEST(ConfidentialRun, TheFakeDeviceRefusesWhatWouldHangOrReadWrongData) {
  test::FakeBehaviour behaviour;
  behaviour.confidential = true;
  Plan plan;
  plan.matrices = {{"", "test", Unit::GBps, 1, 1}};
  Measurement m;
  m.copies = {makeCopy(BufferSpec::host(0, 1 << 20), BufferSpec::onDevice(0, 1 << 20),
                       CopyMethod::CopyEngine)};
  m.outputs = {{0, 0, 0, ValueSource::Copy, 0}};
  plan.measurements = {m};
  try {
    test::makeFakeExecutor(RunSettings{}, {}, behaviour)->run(plan, nullptr);
    FAIL() << "a latched host copy ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("never ends on this confidential-computing host"),
              std::string::npos)
        << e.what();
  }
  plan.timing = SampleTiming::InOrder;
  EXPECT_NO_THROW(test::makeFakeExecutor(RunSettings{}, {}, behaviour)->run(plan, nullptr));
  plan.measurements[0].copies[0].method = CopyMethod::SmCopy;
  EXPECT_THROW(test::makeFakeExecutor(RunSettings{}, {}, behaviour)->run(plan, nullptr),
               VerificationError);
}

// On a normal host the same selection prints what it always did: nothing of the above.
TEST(ConfidentialRun, ANormalHostMeasuresEverything) {
  const AppRun r = runOn(false, {"-j"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json run = json::parse(r.out)["nvbandwidth"];
  EXPECT_FALSE(run.contains("confidential_computing"));
  for (const json& e : run["testcases"]) EXPECT_EQ(e["status"], "Passed") << e.dump();
}

}  // namespace test_confidential_run
}  // namespace nvbw
