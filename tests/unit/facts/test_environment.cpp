// Warnings from the environment snapshot: conditions known to lower bandwidth at the start, and
// what changed by the end of the run.
#include <gtest/gtest.h>

#include "facts/environment.h"

namespace nvbw {
namespace test_environment {

EnvironmentSnapshot healthy(std::size_t gpus) {
  EnvironmentSnapshot s;
  for (std::size_t d = 0; d < gpus; ++d) {
    GpuEnvironment g;
    g.pcie = PcieLinkState{32.0, 16, 32.0, 16};
    g.migEnabled = false;
    g.clocksLocked = false;
    g.throttleNs = 1000;
    s.gpus.push_back(g);
  }
  return s;
}

TEST(EnvironmentWarnings, NoneOnAHealthyMachine) {
  EXPECT_TRUE(environmentWarnings(healthy(2)).empty());
  EXPECT_TRUE(runWarnings(healthy(2), healthy(2)).empty());
}

TEST(EnvironmentWarnings, NoneWhereNothingIsKnown) {
  EnvironmentSnapshot s;
  s.gpus.resize(2);
  s.nvmlProblem = "libnvidia-ml.so.1 could not be loaded or initialised";
  EXPECT_TRUE(environmentWarnings(s).empty());
  EXPECT_TRUE(runWarnings(s, s).empty());
}

TEST(EnvironmentWarnings, ADownTrainedLinkIsNamed) {
  EnvironmentSnapshot s = healthy(2);
  s.gpus[1].pcie = PcieLinkState{16.0, 8, 32.0, 16};
  const std::vector<std::string> lines = environmentWarnings(s);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "WARNING: GPU 1: PCIe link trained at PCIe Gen4 x8, below its maximum PCIe Gen5 x16: "
            "host copies are bounded by the lower rate.");
}

TEST(EnvironmentWarnings, MigAndLockedClocks) {
  EnvironmentSnapshot s = healthy(1);
  s.gpus[0].migEnabled = true;
  s.gpus[0].clocksLocked = true;
  const std::vector<std::string> lines = environmentWarnings(s);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("GPU 0: MIG mode is enabled"), std::string::npos);
  EXPECT_NE(lines[1].find("GPU 0: application clocks are set"), std::string::npos);
}

TEST(RunWarnings, ThrottlingDuringTheRun) {
  EnvironmentSnapshot end = healthy(2);
  end.gpus[0].throttleNs = 1000 + 1'250'000'000ull;
  const std::vector<std::string> lines = runWarnings(healthy(2), end);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "WARNING: GPU 0: clocks were held down for power or thermal reasons for 1.25 s during "
            "the run: its figures may be low.");
}

TEST(RunWarnings, ALinkThatTrainedDownDuringTheRunButNotOneAlreadyReported) {
  EnvironmentSnapshot end = healthy(2);
  end.gpus[1].pcie = PcieLinkState{8.0, 16, 32.0, 16};
  const std::vector<std::string> lines = runWarnings(healthy(2), end);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("GPU 1: PCIe link trained down during the run to PCIe Gen3 x16"),
            std::string::npos);
  EXPECT_TRUE(runWarnings(end, end).empty());
}

}  // namespace test_environment
}  // namespace nvbw
