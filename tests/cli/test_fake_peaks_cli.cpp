// The fake platform's figures stay below its own peaks, as hardware's do: every testcase on 1 to
// 8 faked H200s with each kind of link facts reports no cell above 100% of its link's peak (no
// `above_peak`, no warning), so that the reports and pages made with it show what a real machine
// could.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_binary.h"

namespace test_fake_peaks_cli {

using nlohmann::json;

TEST(FakePeaksCli, NoFakeFigureIsAboveItsPeak) {
  const std::vector<std::pair<std::string, std::string>> machines = {
      {"1", "nvswitch"}, {"2", "direct"},   {"2", "nvswitch"}, {"2", "none"},
      {"4", "nvswitch"}, {"8", "nvswitch"}, {"8", "none"}};
  for (const auto& [gpus, links] : machines) {
    nvbw::test::RunSpec spec(NVBW_FAKE_BINARY, {"-j"});
    spec.env = {{"NVBW_FAKE_GPUS", gpus}, {"NVBW_FAKE_LINKS", links}};
    const nvbw::test::RunResult run = nvbw::test::runProgram(spec);
    ASSERT_EQ(run.exitCode, 0) << gpus << " " << links << ": " << run.err;
    EXPECT_EQ(run.err.find("theoretical peak"), std::string::npos) << run.err;
    const json doc = json::parse(run.out)["nvbandwidth"];
    std::size_t percents = 0;
    for (const json& entry : doc["testcases"]) {
      EXPECT_FALSE(entry.contains("above_peak")) << gpus << " " << links << ": " << entry["name"];
      if (!entry.contains("percent_of_peak")) continue;
      for (const json& row : entry["percent_of_peak"])
        for (const json& p : row) {
          if (p.is_null()) continue;
          ++percents;
          EXPECT_LE(p.get<double>(), 100.0) << gpus << " " << links << ": " << entry["name"];
          EXPECT_GT(p.get<double>(), 0.0);
        }
    }
    EXPECT_GT(percents, 0u) << gpus << " " << links << ": no peaks at all";
  }
}

}  // namespace test_fake_peaks_cli
