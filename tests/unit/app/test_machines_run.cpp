// No verdict across machines: --compare and --baseline of reports whose GPU models or GPU counts
// differ show every cell side by side with its change, name both machines, judge none and exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fake_platform.h"
#include "fake_topology.h"
#include "temp_dir.h"

namespace nvbw {
namespace test_machines_run {

using nlohmann::json;
using test::AppRun;
using test::fakePlatform;
using test::runApp;

const std::vector<std::string> kTestcases = {"-t", "host_to_device_memcpy_ce",
                                             "device_to_device_memcpy_read_ce"};

AppRun runOn(int gpus, std::vector<std::string> args) {
  args.insert(args.end(), kTestcases.begin(), kTestcases.end());
  return runApp(args, fakePlatform(FakeTopology(gpus)));
}

AppRun compare(std::vector<std::string> args) {
  return runApp(args, fakePlatform(FakeTopology(2)));
}

// The fake's report of `gpus` H200s, its GPUs renamed `model`.
std::string reportOf(int gpus, const std::string& model) {
  json doc = json::parse(runOn(gpus, {"-j"}).out);
  for (json& entry : doc["nvbandwidth"]["GPU Device list"]) {
    std::string text = entry.get<std::string>();
    text.replace(text.find("NVIDIA H200"), 11, model);
    entry = text;
  }
  return doc.dump(1);
}

TEST(MachinesRun, ReportsOfAnotherGpuModelAreShownNotJudged) {
  const test::TempDir dir("machines");
  const std::string h200 = dir.write("h200.json", reportOf(2, "NVIDIA H200"));
  const std::string h100 = dir.write("h100.json", reportOf(2, "NVIDIA H100 80GB HBM3"));
  const AppRun text = compare({"--compare", h200, h100});
  EXPECT_EQ(text.exitCode, 2) << text.err;
  EXPECT_NE(text.out.find("No verdict: the baseline is of 2 x NVIDIA H200 and the current report "
                          "of 2 x NVIDIA H100 80GB HBM3;"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("host_to_device_memcpy_ce\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Comparison: 4 cells, not judged: the reports come from different "
                          "machines"),
            std::string::npos)
      << text.out;
  for (const char* verdict : {"SLOWER", "FASTER", "UNSTABLE", "SAME"})
    EXPECT_EQ(text.out.find(verdict), std::string::npos) << verdict << "\n" << text.out;
  const AppRun doc = compare({"-j", "--compare", h200, h100});
  EXPECT_EQ(doc.exitCode, 2);
  const json comparison = json::parse(doc.out)["nvbandwidth"]["comparison"];
  EXPECT_EQ(comparison["different_machines"],
            "the baseline is of 2 x NVIDIA H200 and the current report of 2 x NVIDIA H100 80GB "
            "HBM3");
  ASSERT_EQ(comparison["cells"].size(), 4u);
  for (const json& cell : comparison["cells"]) EXPECT_EQ(cell["verdict"], "NOT JUDGED");
  EXPECT_EQ(comparison["summary"]["slower"], 0);
}

TEST(MachinesRun, AnotherGpuCountIsAnotherMachine) {
  const test::TempDir dir("counts");
  const std::string one = dir.write("one.json", reportOf(1, "NVIDIA H200"));
  const std::string two = dir.write("two.json", reportOf(2, "NVIDIA H200"));
  const AppRun r = compare({"--compare", two, one});
  EXPECT_EQ(r.exitCode, 2) << r.out;
  EXPECT_NE(r.out.find("No verdict: the baseline is of 2 x NVIDIA H200 and the current report of "
                       "1 x NVIDIA H200;"),
            std::string::npos)
      << r.out;
  // The same machine is judged as always.
  const AppRun same = compare({"--compare", two, two});
  EXPECT_EQ(same.exitCode, 0) << same.out;
  EXPECT_EQ(same.out.find("No verdict"), std::string::npos);
}

TEST(MachinesRun, ARunIsNotJudgedAgainstABaselineOfAnotherMachine) {
  const test::TempDir dir("baseline");
  const std::string h100 = dir.write("h100.json", reportOf(2, "NVIDIA H100 80GB HBM3"));
  const AppRun r = runOn(2, {"--baseline", h100});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.out.find("SUM host_to_device_memcpy_ce"), std::string::npos);  // it ran
  EXPECT_NE(r.err.find("No verdict: the baseline is of 2 x NVIDIA H100 80GB HBM3 and the current "
                       "report of 2 x NVIDIA H200;"),
            std::string::npos)
      << r.err;
}

}  // namespace test_machines_run
}  // namespace nvbw
