// Link facts, peaks and the environment snapshot on the real machine: the facts agree with sysfs
// and the driver, NVML answers, and every measured bandwidth lands below its peak.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "facts/host_facts.h"
#include "facts/machine_facts.h"
#include "gpu_environment.h"

namespace nvbw::test {
namespace test_peaks {

using nlohmann::json;

TEST(MachineFactsOnGpu, AgreeWithSysfsAndTheDriver) {
  const MachineFacts machine(gpu());
  const std::vector<GpuLinkFacts> facts = machine.linkFacts();
  ASSERT_EQ(static_cast<int>(facts.size()), gpu().deviceCount());
  for (int d = 0; d < gpu().deviceCount(); ++d) {
    SCOPED_TRACE("GPU " + std::to_string(d));
    EXPECT_EQ(facts[d].pcie, readPcieLink(pciSysfsDir(gpu().info(d))));
    ASSERT_TRUE(facts[d].memory);
    EXPECT_GT(facts[d].memory->clockKHz, 0);
    EXPECT_GT(facts[d].memory->busWidthBits, 0);
    EXPECT_FALSE(facts[d].busId.empty()) << "NVML is installed on the GPU machines";
    ASSERT_TRUE(facts[d].nvlinks);
  }
  const EnvironmentSnapshot env = machine.environment();
  EXPECT_FALSE(env.nvmlProblem) << *env.nvmlProblem;
  ASSERT_EQ(static_cast<int>(env.gpus.size()), gpu().deviceCount());
  EXPECT_TRUE(env.gpus[0].smClockMaxMHz);
  EXPECT_GT(env.gpus[0].powerLimitW.value_or(0.0), 0.0);
  EXPECT_TRUE(env.gpus[0].throttleNs);
  EXPECT_TRUE(env.host.cpuModel || env.host.numaNodes);
}

// Measured cells stay below their peaks, and well above nothing: a percent outside (20, 100]
// means a wrong peak (or a broken machine).
TEST(PeaksOnGpu, MeasuredCellsLandBelowTheirPeaks) {
  int status = 0;
  const std::string keys = gpu().deviceCount() > 1 ? " 0 1 5 34 53 54" : " 0 1 34 53 54";
  const std::string out =
      runCommand(std::string(NVBW_BINARY) + " -j -i 2 -t" + keys + " 2>/dev/null", &status);
  ASSERT_EQ(status, 0) << out;
  int checked = 0;
  const json doc = json::parse(out);  // outlives the loop (a temporary's member would dangle)
  for (const json& e : doc["nvbandwidth"]["testcases"]) {
    SCOPED_TRACE(e["name"].get<std::string>());
    for (std::size_t r = 0; r < e["values"].size(); ++r)
      for (std::size_t c = 0; c < e["values"][r].size(); ++c) {
        if (e["values"][r][c].is_null()) continue;
        const std::string link = e["links"][r][c];
        if (link == "unknown") continue;  // e.g. peers without NVML facts: nothing to check
        ASSERT_FALSE(e["percent_of_peak"][r][c].is_null()) << link;
        const double pct = e["percent_of_peak"][r][c];
        EXPECT_GT(pct, 20.0) << link;
        EXPECT_LE(pct, 100.0) << link;
        ++checked;
      }
  }
  EXPECT_GE(checked, 4 * gpu().deviceCount());
}

}  // namespace test_peaks
}  // namespace nvbw::test
